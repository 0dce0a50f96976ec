"""Port of clients/src/main/java/org/apache/kafka/common/serialization/VoidDeserializer.java (Kafka 3.7).

For keys or values that must be null: any bytes at all are an error.
"""

from __future__ import annotations

from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["VoidDeserializer"]


class VoidDeserializer(Deserializer[None]):
    """None -> None; data present -> ValueError (Java's IllegalArgumentException)."""

    def deserialize(self, topic: str, data: Buffer | None) -> None:
        if data is not None:
            raise ValueError("Data should be null for a VoidDeserializer.")
        return None
