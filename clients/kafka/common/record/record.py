"""Port of clients/src/main/java/org/apache/kafka/common/record/Record.java (Kafka 3.7).

A single record: offset, timestamp, key, value and headers. For magic 0 and 1 the shallow entries
of a message set (AbstractLegacyRecordBatch) are records too.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.common.record.record_header import Header
    from kafka.common.record.timestamp_type import TimestampType

#: The headers of a record that has none.
EMPTY_HEADERS: tuple[Header, ...] = ()


class Record(ABC):
    """A log record. Keys and values are returned as `bytes` (or None when null)."""

    __slots__ = ()

    EMPTY_HEADERS: tuple[Header, ...] = EMPTY_HEADERS

    @abstractmethod
    def offset(self) -> int:
        """The absolute offset of this record in its partition."""

    @abstractmethod
    def sequence(self) -> int:
        """The producer sequence number of this record, or -1 (RecordBatch.NO_SEQUENCE)."""

    @abstractmethod
    def size_in_bytes(self) -> int:
        """The size of this record as encoded in its batch."""

    @abstractmethod
    def timestamp(self) -> int:
        """The record timestamp in milliseconds, or -1 (RecordBatch.NO_TIMESTAMP)."""

    @abstractmethod
    def ensure_valid(self) -> None:
        """Raise CorruptRecordException when the record's own checksum (magic < 2) does not match."""

    @abstractmethod
    def key_size(self) -> int:
        """The key length in bytes, -1 for a null key."""

    @abstractmethod
    def has_key(self) -> bool:
        """True when the key is not null."""

    @abstractmethod
    def key(self) -> bytes | None:
        """The key bytes, or None."""

    @abstractmethod
    def value_size(self) -> int:
        """The value length in bytes, -1 for a null value."""

    @abstractmethod
    def has_value(self) -> bool:
        """True when the value is not null (a null value is a tombstone)."""

    @abstractmethod
    def value(self) -> bytes | None:
        """The value bytes, or None."""

    @abstractmethod
    def has_magic(self, magic: int) -> bool:
        """True when this record can be written unchanged into a batch of format `magic`."""

    @abstractmethod
    def is_compressed(self) -> bool:
        """True for a legacy wrapper message holding compressed inner messages."""

    @abstractmethod
    def has_timestamp_type(self, timestamp_type: TimestampType) -> bool:
        """True when a legacy record carries `timestamp_type` itself (always False for magic 2)."""

    @abstractmethod
    def headers(self) -> Sequence[Header]:
        """The record headers (empty before magic 2)."""
