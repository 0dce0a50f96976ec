"""Port of clients/src/main/java/org/apache/kafka/common/serialization/BooleanSerializer.java (Kafka 3.7).

A boolean as one byte: 0x01 or 0x00.
"""

from __future__ import annotations

from kafka.common.serialization.serializer import Serializer

__all__ = ["BooleanSerializer"]


class BooleanSerializer(Serializer[bool]):
    """bool -> b"\\x01" or b"\\x00"."""

    def serialize(self, topic: str, data: bool | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, bool):
            raise TypeError(f"BooleanSerializer expects a bool, got {type(data).__name__}")
        return b"\x01" if data else b"\x00"
