"""Port of clients/src/main/java/org/apache/kafka/common/record/SimpleRecord.java (Kafka 3.7).

The fields of a record to be written: timestamp, key, value and headers, without an offset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kafka.common.record.record import EMPTY_HEADERS
from kafka.common.record.record_batch import NO_TIMESTAMP

if TYPE_CHECKING:
    from kafka.common.record.record import Record
    from kafka.common.record.record_header import Header

Buffer = bytes | bytearray | memoryview


class SimpleRecord:
    """A record to append.

    # PORT: Java overloads the constructor; here it takes keywords, in the order of Java's fullest
    form: SimpleRecord(timestamp, key, value, headers). Key and value are kept as bytes.
    """

    __slots__ = ("_headers", "_key", "_timestamp", "_value")

    def __init__(
        self,
        timestamp: int = NO_TIMESTAMP,
        key: Buffer | None = None,
        value: Buffer | None = None,
        headers: Sequence[Header] = EMPTY_HEADERS,
    ) -> None:
        if headers is None:
            raise ValueError("Headers must be non-null")
        self._timestamp = timestamp
        self._key = None if key is None else bytes(key)
        self._value = None if value is None else bytes(value)
        self._headers = tuple(headers)

    @classmethod
    def from_record(cls, record: Record) -> SimpleRecord:
        """The fields of an existing record."""
        return cls(record.timestamp(), record.key(), record.value(), record.headers())

    def key(self) -> bytes | None:
        """The key, or None."""
        return self._key

    def value(self) -> bytes | None:
        """The value, or None."""
        return self._value

    def timestamp(self) -> int:
        """The timestamp, or -1."""
        return self._timestamp

    def headers(self) -> Sequence[Header]:
        """The headers."""
        return self._headers

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, SimpleRecord):
            return NotImplemented
        return (
            self._timestamp == other._timestamp
            and self._key == other._key
            and self._value == other._value
            and self._headers == other._headers
        )

    def __hash__(self) -> int:
        return hash((self._key, self._value, self._timestamp, self._headers))

    def __repr__(self) -> str:
        return (
            f"SimpleRecord(timestamp={self._timestamp}, key={0 if self._key is None else len(self._key)} bytes, "
            f"value={0 if self._value is None else len(self._value)} bytes)"
        )
