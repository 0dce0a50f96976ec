"""Port of clients/src/main/java/org/apache/kafka/common/network/InvalidReceiveException.java (Kafka 3.7).

A frame whose size prefix is negative or larger than the connection allows.
"""

from __future__ import annotations

from kafka.common.errors import KafkaException

__all__ = ["InvalidReceiveException"]


class InvalidReceiveException(KafkaException):
    pass
