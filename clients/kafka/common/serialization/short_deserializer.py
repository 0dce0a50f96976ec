"""Port of clients/src/main/java/org/apache/kafka/common/serialization/ShortDeserializer.java (Kafka 3.7).

2 big-endian bytes back into a 16-bit short.
"""

from __future__ import annotations

import struct

from kafka.common.errors import SerializationException
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["ShortDeserializer"]

_FORMAT = struct.Struct(">h")


class ShortDeserializer(Deserializer[int]):
    """2 bytes -> int; any other length is a SerializationException."""

    def deserialize(self, topic: str, data: Buffer | None) -> int | None:
        if data is None:
            return None
        if len(data) != 2:
            raise SerializationException("Size of data received by ShortDeserializer is not 2")
        value: int = _FORMAT.unpack(data)[0]
        return value
