"""Port of clients/src/main/java/org/apache/kafka/common/config/types/Password.java (Kafka 2.8).

A wrapper around a secret configuration value that never shows the secret when printed.

# PORT: Java keeps Password in the `config.types` sub-package; it is the only class there, so it
lives beside ConfigDef here.
"""

from __future__ import annotations

from typing import Final

__all__ = ["Password"]


class Password:
    """A secret string; `str()` and `repr()` print `[hidden]`, `value` gives the secret."""

    HIDDEN: Final = "[hidden]"

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    @property
    def value(self) -> str:
        """The secret itself."""
        return self._value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Password) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __str__(self) -> str:
        return Password.HIDDEN

    def __repr__(self) -> str:
        return Password.HIDDEN
