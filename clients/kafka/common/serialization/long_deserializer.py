"""Port of clients/src/main/java/org/apache/kafka/common/serialization/LongDeserializer.java (Kafka 3.7).

8 big-endian bytes back into a 64-bit long.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["LongDeserializer"]

_FORMAT = struct.Struct(">q")


class LongDeserializer(Deserializer[int]):
    """8 bytes -> int; any other length is a SerializationException."""

    def deserialize(self, topic: str, data: Buffer | None) -> int | None:
        if data is None:
            return None
        if len(data) != 8:
            raise SerializationException("Size of data received by LongDeserializer is not 8")
        value: int = _FORMAT.unpack(data)[0]
        return value
