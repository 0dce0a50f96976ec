"""Port of clients/src/main/java/org/apache/kafka/common/serialization/IntegerDeserializer.java (Kafka 3.7).

4 big-endian bytes back into a 32-bit int.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["IntegerDeserializer"]

_FORMAT = struct.Struct(">i")


class IntegerDeserializer(Deserializer[int]):
    """4 bytes -> int; any other length is a SerializationException."""

    def deserialize(self, topic: str, data: Buffer | None) -> int | None:
        if data is None:
            return None
        if len(data) != 4:
            raise SerializationException("Size of data received by IntegerDeserializer is not 4")
        value: int = _FORMAT.unpack(data)[0]
        return value
