"""Port of clients/src/main/java/org/apache/kafka/common/serialization/IntegerSerializer.java (Kafka 3.7).

A 32-bit int as 4 big-endian bytes.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.serializer import Serializer

__all__ = ["IntegerSerializer"]

_FORMAT = struct.Struct(">i")


class IntegerSerializer(Serializer[int]):
    """int -> 4 bytes, big-endian as Java's DataOutput writes them."""

    def serialize(self, topic: str, data: int | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, int) or isinstance(data, bool):
            raise TypeError(f"IntegerSerializer expects an int, got {type(data).__name__}")
        if not -2147483648 <= data <= 2147483647:
            raise SerializationException(f"{data} does not fit a 32-bit int")
        return _FORMAT.pack(data)
