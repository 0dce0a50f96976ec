"""Port of the encoding settings of clients/src/main/java/org/apache/kafka/common/serialization/
{String,UUID}{Serializer,Deserializer}.java (Kafka 3.7): `key.*.encoding`, `value.*.encoding`, `*.encoding`.

# PORT: Java repeats this lookup in each of the four classes; one helper keeps the copies equal.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from typing import Any

from kafka.common.errors import SerializationException


def configured_encoding(configs: Mapping[str, Any], is_key: bool, role: str, current: str) -> str:
    """The encoding named by `key.<role>.encoding` / `value.<role>.encoding`, else `<role>.encoding`, else current.

    `role` is "serializer" or "deserializer"; a value that is not a string is ignored, as in Java.
    """
    value = configs.get(("key." if is_key else "value.") + role + ".encoding")
    if value is None:
        value = configs.get(role + ".encoding")
    return value if isinstance(value, str) else current


def check_encoding(encoding: str, message: str) -> None:
    """Raises SerializationException(`message` + encoding) when Python knows no codec of that name."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise SerializationException(message + encoding) from None
