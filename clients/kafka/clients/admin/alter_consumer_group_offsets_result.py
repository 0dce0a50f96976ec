"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterConsumerGroupOffsetsResult.java (Kafka 3.7).

The outcome of alterConsumerGroupOffsets: each partition's commit error (or NONE).
"""

from __future__ import annotations

from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl
from kafka.common.protocol.errors import Errors
from kafka.common.topic_partition import TopicPartition

__all__ = ["AlterConsumerGroupOffsetsResult"]


class AlterConsumerGroupOffsetsResult:
    def __init__(self, future: KafkaFuture[dict[TopicPartition, Errors]]) -> None:
        self._future = future

    def partition_result(self, partition: TopicPartition) -> KafkaFuture[None]:
        """Completes when `partition`'s offset was committed; fails with its error (ValueError, Java's
        IllegalArgumentException, if the partition was not in the call)."""
        result: KafkaFutureImpl[None] = KafkaFutureImpl()

        def done(topic_partitions: dict[TopicPartition, Errors] | None, exc: BaseException | None) -> None:
            if exc is not None:
                result.complete_exceptionally(exc)
                return
            assert topic_partitions is not None
            if partition not in topic_partitions:
                result.complete_exceptionally(ValueError(f'Alter offset for partition "{partition}" was not attempted'))
                return
            error = topic_partitions[partition].exception()
            if error is None:
                result.complete(None)
            else:
                result.complete_exceptionally(error)

        self._future.when_complete(done)
        return result

    def all(self) -> KafkaFuture[None]:
        """Completes when every offset was committed; otherwise fails with the first failed partition's error,
        whose message lists all failed partitions."""

        def check(topic_partition_errors: dict[TopicPartition, Errors]) -> None:
            partitions_failed = [tp for tp, e in topic_partition_errors.items() if e is not Errors.NONE]
            for error in topic_partition_errors.values():
                if error is not Errors.NONE:
                    failed = "[" + ", ".join(str(tp) for tp in partitions_failed) + "]"
                    exc = error.exception(
                        f"Failed altering consumer group offsets for the following partitions: {failed}"
                    )
                    assert exc is not None
                    raise exc
            return None

        return self._future.then_apply(check)
