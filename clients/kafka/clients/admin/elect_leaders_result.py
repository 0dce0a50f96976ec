"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ElectLeadersResult.java (Kafka 3.7).

The future of electLeaders: each partition's outcome (None when its election succeeded, else the error).
"""

from __future__ import annotations

from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl
from kafka.common.topic_partition import TopicPartition

__all__ = ["ElectLeadersResult"]


class ElectLeadersResult:
    def __init__(self, election_future: KafkaFuture[dict[TopicPartition, BaseException | None]]) -> None:
        self._election_future = election_future

    def partitions(self) -> KafkaFuture[dict[TopicPartition, BaseException | None]]:
        """# PORT: Java's Optional<Throwable> values are None or the exception."""
        return self._election_future

    def all(self) -> KafkaFuture[None]:
        """Completes when every election succeeded; fails with the first partition's error otherwise."""
        result: KafkaFutureImpl[None] = KafkaFutureImpl()

        def done(partitions: dict[TopicPartition, BaseException | None] | None, exc: BaseException | None) -> None:
            if exc is not None:
                result.complete_exceptionally(exc)
                return
            assert partitions is not None
            for error in partitions.values():
                if error is not None:
                    result.complete_exceptionally(error)
                    return
            result.complete(None)

        self._election_future.when_complete(done)
        return result
