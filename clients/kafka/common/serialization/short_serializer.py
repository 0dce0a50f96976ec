"""Port of clients/src/main/java/org/apache/kafka/common/serialization/ShortSerializer.java (Kafka 3.7).

A 16-bit short as 2 big-endian bytes.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.serializer import Serializer

__all__ = ["ShortSerializer"]

_FORMAT = struct.Struct(">h")


class ShortSerializer(Serializer[int]):
    """int -> 2 bytes, big-endian as Java's DataOutput writes them."""

    def serialize(self, topic: str, data: int | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, int) or isinstance(data, bool):
            raise TypeError(f"ShortSerializer expects an int, got {type(data).__name__}")
        if not -32768 <= data <= 32767:
            raise SerializationException(f"{data} does not fit a 16-bit short")
        return _FORMAT.pack(data)
