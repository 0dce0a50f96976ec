"""Port of clients/src/main/java/org/apache/kafka/common/serialization/BytesSerializer.java (Kafka 3.7).

# PORT: Java's `Bytes` wraps a byte[] to give it value equality and ordering; Python's `bytes` has both,
so this serializer takes any bytes-like value and is otherwise ByteArraySerializer's twin.
"""

from __future__ import annotations

from kafka.common.serialization.byte_array_serializer import ByteArraySerializer

__all__ = ["BytesSerializer"]


class BytesSerializer(ByteArraySerializer):
    """bytes-like -> bytes."""
