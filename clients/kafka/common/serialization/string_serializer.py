"""Port of clients/src/main/java/org/apache/kafka/common/serialization/StringSerializer.java (Kafka 3.7).

Strings as bytes in UTF-8, or in the encoding set by `key.serializer.encoding`,
`value.serializer.encoding` or `serializer.encoding`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.common.serialization._encoding import check_encoding, configured_encoding
from kafka.common.serialization.serializer import Serializer

__all__ = ["StringSerializer"]

_UNSUPPORTED = "Error when serializing string to byte[] due to unsupported encoding "


class StringSerializer(Serializer[str]):
    """str -> bytes in the configured encoding (UTF-8 by default)."""

    def __init__(self, encoding: str = "UTF-8") -> None:
        self.encoding = encoding

    def configure(self, configs: Mapping[str, Any], is_key: bool) -> None:
        self.encoding = configured_encoding(configs, is_key, "serializer", self.encoding)

    def serialize(self, topic: str, data: str | None) -> bytes | None:
        if data is None:
            return None
        if not isinstance(data, str):
            raise TypeError(f"StringSerializer expects a str, got {type(data).__name__}")
        check_encoding(self.encoding, _UNSUPPORTED)
        return data.encode(self.encoding)
