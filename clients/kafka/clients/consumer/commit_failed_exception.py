"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/CommitFailedException.java (Kafka 3.7).

An offset commit that cannot succeed because the group has rebalanced and the partitions now belong to
another member (typically the consumer took longer than max.poll.interval.ms between polls).
"""

from __future__ import annotations

from kafka.common.errors import KafkaException

__all__ = ["CommitFailedException"]

_DEFAULT_MESSAGE = (
    "Commit cannot be completed since the group has already rebalanced and assigned the partitions to another "
    "member. This means that the time between subsequent calls to poll() was longer than the configured "
    "max.poll.interval.ms, which typically implies that the poll loop is spending too much time message "
    "processing. You can address this either by increasing max.poll.interval.ms or by reducing the maximum size "
    "of batches returned in poll() with max.poll.records."
)


class CommitFailedException(KafkaException):
    def __init__(self, message: str | None = None) -> None:
        super().__init__(_DEFAULT_MESSAGE if message is None else message)
