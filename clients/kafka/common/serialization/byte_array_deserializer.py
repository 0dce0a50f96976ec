"""Port of clients/src/main/java/org/apache/kafka/common/serialization/ByteArrayDeserializer.java (Kafka 3.7).

The identity deserializer: the record's bytes as they are.
"""

from __future__ import annotations

from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["ByteArrayDeserializer"]


class ByteArrayDeserializer(Deserializer[bytes]):
    """bytes -> bytes (a memoryview is copied into bytes)."""

    def deserialize(self, topic: str, data: Buffer | None) -> bytes | None:
        if data is None or type(data) is bytes:
            return data
        return bytes(data)
