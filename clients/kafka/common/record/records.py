"""Port of clients/src/main/java/org/apache/kafka/common/record/Records.java (Kafka 3.7).

A sequence of record batches, in memory (MemoryRecords) or in a log segment (FileRecords). Every
batch, whatever its magic, starts with the same 12-byte log overhead:

    offset: int64   (base offset for magic 2, the wrapper's last offset before)
    size: int32     (bytes that follow)

and the magic byte is at byte 16.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final

from kafka.common.record.base_records import BaseRecords

if TYPE_CHECKING:
    from kafka.common.record.converted_records import ConvertedRecords
    from kafka.common.record.record import Record
    from kafka.common.record.record_batch import RecordBatch
    from kafka.common.record.records_util import Time

OFFSET_OFFSET: Final = 0
OFFSET_LENGTH: Final = 8
SIZE_OFFSET: Final = OFFSET_OFFSET + OFFSET_LENGTH
SIZE_LENGTH: Final = 4
LOG_OVERHEAD: Final = SIZE_OFFSET + SIZE_LENGTH
# The magic is at the same place in every format: after the log overhead and a 4-byte field
# (the CRC for magic 0/1, the partition leader epoch for magic 2).
MAGIC_OFFSET: Final = LOG_OVERHEAD + 4
MAGIC_LENGTH: Final = 1
HEADER_SIZE_UP_TO_MAGIC: Final = MAGIC_OFFSET + MAGIC_LENGTH


class Records(BaseRecords):
    """Batches of records, iterable by batch or by record."""

    __slots__ = ()

    OFFSET_OFFSET: Final = OFFSET_OFFSET
    OFFSET_LENGTH: Final = OFFSET_LENGTH
    SIZE_OFFSET: Final = SIZE_OFFSET
    SIZE_LENGTH: Final = SIZE_LENGTH
    LOG_OVERHEAD: Final = LOG_OVERHEAD
    MAGIC_OFFSET: Final = MAGIC_OFFSET
    MAGIC_LENGTH: Final = MAGIC_LENGTH
    HEADER_SIZE_UP_TO_MAGIC: Final = HEADER_SIZE_UP_TO_MAGIC

    @abstractmethod
    def batches(self) -> Iterable[RecordBatch]:
        """The batches, read lazily; each iteration starts over from the first batch."""

    @abstractmethod
    def batch_iterator(self) -> Iterator[RecordBatch]:
        """A fresh iterator over the batches."""

    @abstractmethod
    def last_batch(self) -> RecordBatch | None:
        """The last batch, or None when there is none."""

    @abstractmethod
    def has_matching_magic(self, magic: int) -> bool:
        """True when every batch has exactly this magic."""

    @abstractmethod
    def down_convert(self, to_magic: int, first_offset: int, time: Time | None = None) -> ConvertedRecords:
        """Convert to an older record format for an old consumer; see RecordsUtil.down_convert."""

    @abstractmethod
    def records(self) -> Iterable[Record]:
        """Every record of every batch, decompressing as needed."""
