"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeleteConsumerGroupOffsetsResult.java (Kafka 3.7).

The outcome of deleteConsumerGroupOffsets: each partition's error (or NONE).
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.clients.admin._results import get_sub_level_error
from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl
from kafka.common.protocol.errors import Errors
from kafka.common.topic_partition import TopicPartition

__all__ = ["DeleteConsumerGroupOffsetsResult"]


class DeleteConsumerGroupOffsetsResult:
    def __init__(self, future: KafkaFuture[dict[TopicPartition, Errors]], partitions: Iterable[TopicPartition]) -> None:
        self._future = future
        self._partitions = frozenset(partitions)

    def partition_result(self, partition: TopicPartition) -> KafkaFuture[None]:
        """Completes when `partition`'s offset was deleted; fails with its error. ValueError (Java's
        IllegalArgumentException) for a partition not in the call."""
        if partition not in self._partitions:
            raise ValueError(f"Partition {partition} was not included in the original request")
        result: KafkaFutureImpl[None] = KafkaFutureImpl()

        def done(topic_partitions: dict[TopicPartition, Errors] | None, exc: BaseException | None) -> None:
            if exc is not None:
                result.complete_exceptionally(exc)
            elif not self._maybe_complete_exceptionally(topic_partitions or {}, partition, result):
                result.complete(None)

        self._future.when_complete(done)
        return result

    def all(self) -> KafkaFuture[None]:
        result: KafkaFutureImpl[None] = KafkaFutureImpl()

        def done(topic_partitions: dict[TopicPartition, Errors] | None, exc: BaseException | None) -> None:
            if exc is not None:
                result.complete_exceptionally(exc)
                return
            for partition in self._partitions:
                if self._maybe_complete_exceptionally(topic_partitions or {}, partition, result):
                    return
            result.complete(None)

        self._future.when_complete(done)
        return result

    @staticmethod
    def _maybe_complete_exceptionally(
        partition_level_errors: dict[TopicPartition, Errors], partition: TopicPartition, result: KafkaFutureImpl[None]
    ) -> bool:
        exception = get_sub_level_error(
            partition_level_errors,
            partition,
            f'Offset deletion result for partition "{partition}" was not included in the response',
        )
        if exception is not None:
            result.complete_exceptionally(exception)
            return True
        return False
