"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/InvalidOffsetException.java (Kafka 3.7).

The base of the errors raised when a partition has no usable position and no reset policy applies.
"""

from __future__ import annotations

import abc

from kafka.common.errors import KafkaException
from kafka.common.topic_partition import TopicPartition

__all__ = ["InvalidOffsetException"]


class InvalidOffsetException(KafkaException):
    @abc.abstractmethod
    def partitions(self) -> set[TopicPartition]:
        """The partitions whose positions are invalid."""
