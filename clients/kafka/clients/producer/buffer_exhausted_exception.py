"""Port of clients/src/main/java/org/apache/kafka/clients/producer/BufferExhaustedException.java (Kafka 3.7).

Raised when a send waited `max.block.ms` for buffer memory that never freed up.
"""

from __future__ import annotations

from kafka.common.errors import TimeoutException

__all__ = ["BufferExhaustedException"]


class BufferExhaustedException(TimeoutException):
    """The producer's buffer memory stayed full for longer than `max.block.ms`."""
