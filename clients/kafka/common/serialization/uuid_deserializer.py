"""Port of clients/src/main/java/org/apache/kafka/common/serialization/UUIDDeserializer.java (Kafka 3.7).

The text form of a UUID back into a UUID.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from kafka.common.errors import SerializationException
from kafka.common.serialization._encoding import check_encoding, configured_encoding
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["UUIDDeserializer"]

_UNSUPPORTED = "Error when deserializing byte[] to UUID due to unsupported encoding "


class UUIDDeserializer(Deserializer[uuid.UUID]):
    """b"xxxxxxxx-xxxx-..." -> uuid.UUID; text that is not a UUID is a SerializationException."""

    def __init__(self, encoding: str = "UTF-8") -> None:
        self.encoding = encoding

    def configure(self, configs: Mapping[str, Any], is_key: bool) -> None:
        self.encoding = configured_encoding(configs, is_key, "deserializer", self.encoding)

    def deserialize(self, topic: str, data: Buffer | None) -> uuid.UUID | None:
        if data is None:
            return None
        check_encoding(self.encoding, _UNSUPPORTED)
        text = bytes(data).decode(self.encoding, errors="replace")
        # Java's UUID.fromString wants the dashed form; Python would also take braces, URNs and bare hex.
        if len(text) != 36 or text.count("-") != 4:
            raise SerializationException("Error parsing data into UUID")
        try:
            return uuid.UUID(text)
        except ValueError as e:
            raise SerializationException("Error parsing data into UUID") from e
