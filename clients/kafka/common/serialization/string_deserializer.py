"""Port of clients/src/main/java/org/apache/kafka/common/serialization/StringDeserializer.java (Kafka 3.7).

Bytes as a string in UTF-8, or in the encoding set by `key.deserializer.encoding`,
`value.deserializer.encoding` or `deserializer.encoding`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.common.serialization._encoding import check_encoding, configured_encoding
from kafka.common.serialization.deserializer import Buffer, Deserializer

__all__ = ["StringDeserializer"]

_UNSUPPORTED = "Error when deserializing byte[] to string due to unsupported encoding "


class StringDeserializer(Deserializer[str]):
    """bytes -> str in the configured encoding (UTF-8 by default).

    # PORT: Java's decoder replaces malformed input with U+FFFD rather than failing; errors="replace" does
    the same.
    """

    def __init__(self, encoding: str = "UTF-8") -> None:
        self.encoding = encoding

    def configure(self, configs: Mapping[str, Any], is_key: bool) -> None:
        self.encoding = configured_encoding(configs, is_key, "deserializer", self.encoding)

    def deserialize(self, topic: str, data: Buffer | None) -> str | None:
        if data is None:
            return None
        check_encoding(self.encoding, _UNSUPPORTED)
        return bytes(data).decode(self.encoding, errors="replace")
