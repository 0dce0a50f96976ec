"""Port of clients/src/main/java/org/apache/kafka/common/record/PartialDefaultRecord.java (Kafka 3.7).

A v2 record decoded without its key, value and headers: the broker uses it where it needs offsets,
timestamps and sizes only (e.g. validating compressed batches).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kafka.common.record.default_record import DefaultRecord

if TYPE_CHECKING:
    from kafka.common.record.record_header import Header


class PartialDefaultRecord(DefaultRecord):
    """A record whose key and value were skipped; their sizes are kept."""

    __slots__ = ("_key_size", "_value_size")

    def __init__(
        self,
        size_in_bytes: int,
        attributes: int,
        offset: int,
        timestamp: int,
        sequence: int,
        key_size: int,
        value_size: int,
    ) -> None:
        super().__init__(size_in_bytes, attributes, offset, timestamp, sequence, None, None, None)
        self._key_size = key_size
        self._value_size = value_size

    def key_size(self) -> int:
        """The skipped key's length, -1 if null."""
        return self._key_size

    def has_key(self) -> bool:
        """True when the skipped key was not null."""
        return self._key_size >= 0

    def key(self) -> bytes | None:
        """Not available: raises RuntimeError (Java: UnsupportedOperationException)."""
        raise RuntimeError("key is skipped in PartialDefaultRecord")

    def value_size(self) -> int:
        """The skipped value's length, -1 if null."""
        return self._value_size

    def has_value(self) -> bool:
        """True when the skipped value was not null."""
        return self._value_size >= 0

    def value(self) -> bytes | None:
        """Not available: raises RuntimeError (Java: UnsupportedOperationException)."""
        raise RuntimeError("value is skipped in PartialDefaultRecord")

    def headers(self) -> Sequence[Header]:
        """Not available: raises RuntimeError (Java: UnsupportedOperationException)."""
        raise RuntimeError("headers is skipped in PartialDefaultRecord")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartialDefaultRecord):
            return NotImplemented
        return (
            self._size_in_bytes == other._size_in_bytes
            and self._attributes == other._attributes
            and self._offset == other._offset
            and self._timestamp == other._timestamp
            and self._sequence == other._sequence
            and self._key_size == other._key_size
            and self._value_size == other._value_size
        )

    def __hash__(self) -> int:
        return hash((self._size_in_bytes, self._offset, self._timestamp, self._key_size, self._value_size))

    def __repr__(self) -> str:
        return (
            f"PartialDefaultRecord(offset={self._offset}, timestamp={self._timestamp}, "
            f"key={self._key_size} bytes, value={self._value_size} bytes)"
        )
