"""Port of clients/src/main/java/org/apache/kafka/common/serialization/BytesDeserializer.java (Kafka 3.7).

# PORT: returns Python `bytes`, which already has the value equality Java's `Bytes` wrapper adds.
"""

from __future__ import annotations

from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer

__all__ = ["BytesDeserializer"]


class BytesDeserializer(ByteArrayDeserializer):
    """bytes -> bytes."""
