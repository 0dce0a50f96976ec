"""Port of clients/src/main/java/org/apache/kafka/common/serialization/BooleanDeserializer.java (Kafka 3.7).

One byte, 0x01 or 0x00, back into a boolean; anything else is refused.
"""

from __future__ import annotations

from kafka.common.errors import SerializationException
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["BooleanDeserializer"]


class BooleanDeserializer(Deserializer[bool]):
    """b"\\x01" -> True, b"\\x00" -> False."""

    def deserialize(self, topic: str, data: Buffer | None) -> bool | None:
        if data is None:
            return None
        if len(data) != 1:
            raise SerializationException("Size of data received by BooleanDeserializer is not 1")
        b = data[0]
        if b == 1:
            return True
        if b == 0:
            return False
        # Java prints the byte as signed.
        raise SerializationException(f"Unexpected byte received by BooleanDeserializer: {b - 256 if b > 127 else b}")
