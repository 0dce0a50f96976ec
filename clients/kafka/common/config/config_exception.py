"""Port of clients/src/main/java/org/apache/kafka/common/config/ConfigException.java (Kafka 2.8).

The error raised when a supplied configuration is missing, malformed or out of range.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from kafka.common.errors import KafkaException

__all__ = ["ConfigException", "java_str"]


def java_str(value: Any) -> str:
    """Render `value` the way Java's `String.valueOf` would, so messages read as Kafka's do.

    Booleans print as `true`/`false`, None as `null`, lists as `[a, b]`.
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return _java_double_str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(java_str(v) for v in value) + "]"
    return str(value)


def _java_double_str(value: float) -> str:
    """Java's Double.toString: plain between 1e-3 and 1e7, else `d.dddE[-]n`; shortest round-trip digits."""
    if value == 0 or 1e-3 <= abs(value) < 1e7:
        return repr(value)
    digits = Decimal(repr(abs(value))).normalize()
    _, digit_tuple, _ = digits.as_tuple()
    text = "".join(str(d) for d in digit_tuple)
    mantissa = text[0] + "." + (text[1:] or "0")
    return ("-" if value < 0 else "") + f"{mantissa}E{digits.adjusted()}"


class ConfigException(KafkaException):
    """A configuration problem.

    `ConfigException(message)` carries a free-form message; `ConfigException(name, value)` and
    `ConfigException(name, value, message)` build Kafka's `Invalid value V for configuration N: message`.
    """

    def __init__(self, name_or_message: str, *args: Any) -> None:
        if not args:
            super().__init__(name_or_message)
            return
        if len(args) > 2:
            raise TypeError("ConfigException takes (message) or (name, value[, message])")
        value = args[0]
        message = args[1] if len(args) == 2 else None
        text = f"Invalid value {java_str(value)} for configuration {name_or_message}"
        if message is not None:
            text += f": {message}"
        super().__init__(text)
