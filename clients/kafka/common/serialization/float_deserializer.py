"""Port of clients/src/main/java/org/apache/kafka/common/serialization/FloatDeserializer.java (Kafka 3.7).

4 big-endian bytes back into an IEEE-754 float.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["FloatDeserializer"]

_FORMAT = struct.Struct(">f")


class FloatDeserializer(Deserializer[float]):
    """4 bytes -> float; any other length is a SerializationException."""

    def deserialize(self, topic: str, data: Buffer | None) -> float | None:
        if data is None:
            return None
        if len(data) != 4:
            raise SerializationException("Size of data received by Deserializer is not 4")
        value: float = _FORMAT.unpack(data)[0]
        return value
