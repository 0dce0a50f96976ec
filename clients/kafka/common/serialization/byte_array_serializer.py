"""Port of clients/src/main/java/org/apache/kafka/common/serialization/ByteArraySerializer.java (Kafka 3.7).

The identity serializer: the bytes given are the bytes written.
"""

from __future__ import annotations

from kafka.common.serialization.deserializer import Buffer
from kafka.common.serialization.serializer import Serializer

__all__ = ["ByteArraySerializer"]


class ByteArraySerializer(Serializer[Buffer]):
    """bytes (or bytearray/memoryview, copied to bytes) -> bytes."""

    def serialize(self, topic: str, data: Buffer | None) -> bytes | None:
        if data is None or type(data) is bytes:
            return data
        if not isinstance(data, bytearray | memoryview):
            raise TypeError(f"ByteArraySerializer expects bytes, got {type(data).__name__}")
        return bytes(data)
