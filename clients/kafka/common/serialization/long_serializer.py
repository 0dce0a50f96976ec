"""Port of clients/src/main/java/org/apache/kafka/common/serialization/LongSerializer.java (Kafka 3.7).

A 64-bit long as 8 big-endian bytes.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.serializer import Serializer

__all__ = ["LongSerializer"]

_FORMAT = struct.Struct(">q")


class LongSerializer(Serializer[int]):
    """int -> 8 bytes, big-endian as Java's DataOutput writes them."""

    def serialize(self, topic: str, data: int | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, int) or isinstance(data, bool):
            raise TypeError(f"LongSerializer expects an int, got {type(data).__name__}")
        if not -9223372036854775808 <= data <= 9223372036854775807:
            raise SerializationException(f"{data} does not fit a 64-bit long")
        return _FORMAT.pack(data)
