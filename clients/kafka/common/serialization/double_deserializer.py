"""Port of clients/src/main/java/org/apache/kafka/common/serialization/DoubleDeserializer.java (Kafka 3.7).

8 big-endian bytes back into an IEEE-754 double.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["DoubleDeserializer"]

_FORMAT = struct.Struct(">d")


class DoubleDeserializer(Deserializer[float]):
    """8 bytes -> float; any other length is a SerializationException."""

    def deserialize(self, topic: str, data: Buffer | None) -> float | None:
        if data is None:
            return None
        if len(data) != 8:
            raise SerializationException("Size of data received by Deserializer is not 8")
        value: float = _FORMAT.unpack(data)[0]
        return value
