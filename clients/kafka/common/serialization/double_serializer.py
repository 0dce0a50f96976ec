"""Port of clients/src/main/java/org/apache/kafka/common/serialization/DoubleSerializer.java (Kafka 3.7).

An IEEE-754 double as 8 big-endian bytes.
"""

from __future__ import annotations

import struct

from kafka.common.serialization.serializer import Serializer

__all__ = ["DoubleSerializer"]

_FORMAT = struct.Struct(">d")


class DoubleSerializer(Serializer[float]):
    """float (an int is widened) -> 8 bytes, big-endian as Java's DataOutput writes them."""

    def serialize(self, topic: str, data: float | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, int | float) or isinstance(data, bool):
            raise TypeError(f"DoubleSerializer expects a float, got {type(data).__name__}")
        return _FORMAT.pack(data)
