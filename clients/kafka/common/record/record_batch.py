"""Port of clients/src/main/java/org/apache/kafka/common/record/RecordBatch.java (Kafka 3.7).

A record batch is the unit a log stores and a fetch returns. For magic 2 it is a DefaultRecordBatch
with a header of its own; for magic 0 and 1 it is one shallow message (possibly a compressed
wrapper holding inner messages).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from kafka.common.record.compression_type import CompressionType
    from kafka.common.record.record import Record
    from kafka.common.record.timestamp_type import TimestampType

MAGIC_VALUE_V0: Final = 0
MAGIC_VALUE_V1: Final = 1
MAGIC_VALUE_V2: Final = 2
CURRENT_MAGIC_VALUE: Final = MAGIC_VALUE_V2
NO_TIMESTAMP: Final = -1
NO_PRODUCER_ID: Final = -1
NO_PRODUCER_EPOCH: Final = -1
NO_SEQUENCE: Final = -1
NO_PARTITION_LEADER_EPOCH: Final = -1


class RecordBatch(ABC):
    """The batch interface shared by in-memory and file-backed batches of every magic.

    Iterating a batch yields its records (decompressing if needed); header accessors never
    decompress.
    """

    __slots__ = ()

    MAGIC_VALUE_V0: Final = MAGIC_VALUE_V0
    MAGIC_VALUE_V1: Final = MAGIC_VALUE_V1
    MAGIC_VALUE_V2: Final = MAGIC_VALUE_V2
    CURRENT_MAGIC_VALUE: Final = CURRENT_MAGIC_VALUE
    NO_TIMESTAMP: Final = NO_TIMESTAMP
    NO_PRODUCER_ID: Final = NO_PRODUCER_ID
    NO_PRODUCER_EPOCH: Final = NO_PRODUCER_EPOCH
    NO_SEQUENCE: Final = NO_SEQUENCE
    NO_PARTITION_LEADER_EPOCH: Final = NO_PARTITION_LEADER_EPOCH

    @abstractmethod
    def is_valid(self) -> bool:
        """True when the stored checksum matches the batch contents."""

    @abstractmethod
    def ensure_valid(self) -> None:
        """Raise CorruptRecordException unless the batch is large enough and its checksum matches."""

    @abstractmethod
    def checksum(self) -> int:
        """The stored checksum (CRC32C for magic 2, CRC32 of the shallow message before)."""

    @abstractmethod
    def max_timestamp(self) -> int:
        """The largest record timestamp, or the log append time for LogAppendTime batches."""

    @abstractmethod
    def timestamp_type(self) -> TimestampType:
        """The timestamp type of the batch."""

    @abstractmethod
    def base_offset(self) -> int:
        """The offset of the first record (magic < 2: may need to decompress the wrapper)."""

    @abstractmethod
    def last_offset(self) -> int:
        """The offset of the last record, readable from the header for every magic."""

    @abstractmethod
    def next_offset(self) -> int:
        """last_offset() + 1."""

    @abstractmethod
    def magic(self) -> int:
        """The record format version of this batch."""

    @abstractmethod
    def producer_id(self) -> int:
        """The producer id, or -1."""

    @abstractmethod
    def producer_epoch(self) -> int:
        """The producer epoch, or -1."""

    @abstractmethod
    def has_producer_id(self) -> bool:
        """True when the batch carries a producer id (idempotent or transactional)."""

    @abstractmethod
    def base_sequence(self) -> int:
        """The sequence of the first record, or -1."""

    @abstractmethod
    def last_sequence(self) -> int:
        """The sequence of the last record (wrapping past 2^31 - 1), or -1."""

    @abstractmethod
    def compression_type(self) -> CompressionType:
        """The codec of the batch; CorruptRecordException for an unknown codec id."""

    @abstractmethod
    def size_in_bytes(self) -> int:
        """The size of the whole batch including the offset and length fields."""

    @abstractmethod
    def count_or_null(self) -> int | None:
        """The record count from the header (magic 2), or None when it needs decompression."""

    @abstractmethod
    def is_compressed(self) -> bool:
        """True when the codec is not NONE."""

    @abstractmethod
    def write_to(self, buffer: bytearray) -> None:
        """Append this batch's bytes to `buffer`."""

    @abstractmethod
    def is_transactional(self) -> bool:
        """True for a batch written inside a transaction."""

    @abstractmethod
    def delete_horizon_ms(self) -> int | None:
        """The delete horizon set by the log cleaner, or None."""

    @abstractmethod
    def partition_leader_epoch(self) -> int:
        """The leader epoch stamped by the broker, or -1."""

    @abstractmethod
    def streaming_iterator(self) -> Iterator[Record]:
        """Iterate the records, decompressing as needed."""

    @abstractmethod
    def is_control_batch(self) -> bool:
        """True for a batch of control records (transaction markers)."""

    @abstractmethod
    def __iter__(self) -> Iterator[Record]:
        """Iterate the records of the batch."""
