"""Port of clients/src/main/java/org/apache/kafka/common/serialization/FloatSerializer.java (Kafka 3.7).

An IEEE-754 float as 4 big-endian bytes.
"""

from __future__ import annotations

import struct

from kafka.common.serialization.serializer import Serializer

__all__ = ["FloatSerializer"]

_FORMAT = struct.Struct(">f")


class FloatSerializer(Serializer[float]):
    """float (an int is widened) -> 4 bytes, big-endian as Java's DataOutput writes them."""

    def serialize(self, topic: str, data: float | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, int | float) or isinstance(data, bool):
            raise TypeError(f"FloatSerializer expects a float, got {type(data).__name__}")
        return _FORMAT.pack(data)
