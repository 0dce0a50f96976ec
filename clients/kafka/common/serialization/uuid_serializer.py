"""Port of clients/src/main/java/org/apache/kafka/common/serialization/UUIDSerializer.java (Kafka 3.7).

A UUID as the bytes of its canonical text form (36 characters), UTF-8 unless an encoding is configured.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from kafka.common.serialization._encoding import check_encoding, configured_encoding
from kafka.common.serialization.serializer import Serializer

__all__ = ["UUIDSerializer"]

_UNSUPPORTED = "Error when serializing UUID to byte[] due to unsupported encoding "


class UUIDSerializer(Serializer[uuid.UUID]):
    """uuid.UUID -> b"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (lower case, as Java's UUID.toString)."""

    def __init__(self, encoding: str = "UTF-8") -> None:
        self.encoding = encoding

    def configure(self, configs: Mapping[str, Any], is_key: bool) -> None:
        self.encoding = configured_encoding(configs, is_key, "serializer", self.encoding)

    def serialize(self, topic: str, data: uuid.UUID | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, uuid.UUID):
            raise TypeError(f"UUIDSerializer expects a uuid.UUID, got {type(data).__name__}")
        check_encoding(self.encoding, _UNSUPPORTED)
        return str(data).encode(self.encoding)
