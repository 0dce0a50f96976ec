"""Port of clients/src/main/java/org/apache/kafka/common/record/FileLogInputStream.java (Kafka 3.7).

Iterates the batches of a log file by reading only each batch's 17-byte prefix (offset, size,
magic); a batch's header or body is read from the file when an accessor needs it.
"""

from __future__ import annotations

import struct
from abc import abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from kafka.common.errors import CorruptRecordException, KafkaException
from kafka.common.record.abstract_record_batch import AbstractRecordBatch
from kafka.common.record.record_batch import CURRENT_MAGIC_VALUE, MAGIC_VALUE_V2, RecordBatch
from kafka.common.record.records import HEADER_SIZE_UP_TO_MAGIC, LOG_OVERHEAD

if TYPE_CHECKING:
    from kafka.common.record.compression_type import CompressionType
    from kafka.common.record.file_records import FileRecords
    from kafka.common.record.record import Record
    from kafka.common.record.timestamp_type import TimestampType

# offset, size, (crc or partition leader epoch), magic
_PREFIX: Final = struct.Struct(">qi4xb")
_RECORD_OVERHEAD_V0: Final = 14
_RECORD_OVERHEAD_V1: Final = 22
_RECORD_BATCH_OVERHEAD: Final = 61


class FileLogInputStream:
    """Reads batch prefixes from `file_records` between byte positions `start` and `end`."""

    __slots__ = ("_end", "_file_records", "_position")

    def __init__(self, file_records: FileRecords, start: int, end: int) -> None:
        self._file_records = file_records
        self._position = start
        self._end = end

    def next_batch(self) -> FileChannelRecordBatch | None:
        """The next complete batch, or None at the end (a partial trailing batch is not returned)."""
        from kafka.common.record.abstract_legacy_record_batch import LegacyFileChannelRecordBatch
        from kafka.common.record.default_record_batch import DefaultFileChannelRecordBatch

        position = self._position
        end = self._end
        if position >= end - HEADER_SIZE_UP_TO_MAGIC:
            return None
        prefix = self._file_records.read_exactly(position, HEADER_SIZE_UP_TO_MAGIC, "log header")
        offset, size, magic = _PREFIX.unpack(prefix)
        if size < _RECORD_OVERHEAD_V0:
            raise CorruptRecordException(
                f"Found record size {size} smaller than minimum record overhead ({_RECORD_OVERHEAD_V0}) "
                f"in file {self._file_records.file()}."
            )
        if position > end - LOG_OVERHEAD - size:
            return None
        batch: FileChannelRecordBatch
        # PORT: Java checks only the v0 overhead here and leaves the rest to ensureValid(); failing
        # early keeps every header read within the batch.
        if magic < MAGIC_VALUE_V2:
            if magic < 0:
                raise CorruptRecordException(f"Invalid magic found in record: {magic}")
            if size < (_RECORD_OVERHEAD_V0 if magic == 0 else _RECORD_OVERHEAD_V1):
                raise CorruptRecordException(
                    f"Found record size {size} smaller than the record overhead of magic {magic} "
                    f"in file {self._file_records.file()}."
                )
            batch = LegacyFileChannelRecordBatch(offset, magic, self._file_records, position, size)
        else:
            if magic > CURRENT_MAGIC_VALUE:
                raise CorruptRecordException(f"Invalid magic found in record: {magic}")
            if size + LOG_OVERHEAD < _RECORD_BATCH_OVERHEAD:
                raise CorruptRecordException(
                    f"Record batch is corrupt (the size {size + LOG_OVERHEAD} is smaller than the minimum "
                    f"allowed overhead {_RECORD_BATCH_OVERHEAD})"
                )
            batch = DefaultFileChannelRecordBatch(offset, magic, self._file_records, position, size)
        self._position = position + batch.size_in_bytes()
        return batch


class FileChannelRecordBatch(AbstractRecordBatch):
    """A batch in a log file, loading its header or its whole body on demand (and caching it)."""

    __slots__ = ("_batch_header", "_batch_size", "_file_records", "_full_batch", "_magic", "_offset", "_position")

    def __init__(self, offset: int, magic: int, file_records: FileRecords, position: int, batch_size: int) -> None:
        self._offset = offset
        self._magic = magic
        self._file_records = file_records
        self._position = position
        self._batch_size = batch_size
        self._full_batch: RecordBatch | None = None
        self._batch_header: RecordBatch | None = None

    @abstractmethod
    def _to_memory_record_batch(self, buffer: bytes) -> RecordBatch:
        """Wrap bytes read from the file in the in-memory batch class for this magic."""

    @abstractmethod
    def _header_size(self) -> int:
        """How many bytes hold every header field of this batch."""

    def compression_type(self) -> CompressionType:
        """From the header."""
        return self._load_batch_header().compression_type()

    def timestamp_type(self) -> TimestampType:
        """From the header."""
        return self._load_batch_header().timestamp_type()

    def checksum(self) -> int:
        """From the header."""
        return self._load_batch_header().checksum()

    def max_timestamp(self) -> int:
        """From the header."""
        return self._load_batch_header().max_timestamp()

    def position(self) -> int:
        """Byte position of the batch in the file."""
        return self._position

    def magic(self) -> int:
        """The magic read with the prefix."""
        return self._magic

    def __iter__(self) -> Iterator[Record]:
        """Load the whole batch and iterate its records."""
        return iter(self.load_full_batch())

    def streaming_iterator(self) -> Iterator[Record]:
        """Load the whole batch and iterate its records."""
        return self.load_full_batch().streaming_iterator()

    def is_valid(self) -> bool:
        """Load the whole batch and check it."""
        return self.load_full_batch().is_valid()

    def ensure_valid(self) -> None:
        """Load the whole batch and check it."""
        self.load_full_batch().ensure_valid()

    def size_in_bytes(self) -> int:
        """Log overhead plus the size field."""
        return LOG_OVERHEAD + self._batch_size

    def write_to(self, buffer: bytearray) -> None:
        """Append the batch bytes, read from the file, to `buffer`."""
        try:
            buffer += self._file_records.read_exactly(self._position, self.size_in_bytes(), "record batch")
        except (OSError, EOFError) as e:
            raise KafkaException(
                f"Failed to read record batch at position {self._position} from {self._file_records}"
            ) from e

    def load_full_batch(self) -> RecordBatch:
        """The whole batch in memory (read once, then cached)."""
        if self._full_batch is None:
            self._batch_header = None
            self._full_batch = self._load_batch_with_size(self.size_in_bytes(), "full record batch")
        return self._full_batch

    def _load_batch_header(self) -> RecordBatch:
        if self._full_batch is not None:
            return self._full_batch
        if self._batch_header is None:
            self._batch_header = self._load_batch_with_size(self._header_size(), "record batch header")
        return self._batch_header

    def _load_batch_with_size(self, size: int, description: str) -> RecordBatch:
        try:
            data = self._file_records.read_exactly(self._position, size, description)
        except EOFError as e:
            raise CorruptRecordException(f"Unexpected EOF while reading the {description} at {self._position}") from e
        except OSError as e:
            raise KafkaException(
                f"Failed to load record batch at position {self._position} from {self._file_records}"
            ) from e
        return self._to_memory_record_batch(data)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, FileChannelRecordBatch)
        return (
            self._offset == other._offset
            and self._position == other._position
            and self._batch_size == other._batch_size
            and self._file_records.file_descriptor() == other._file_records.file_descriptor()
        )

    def __hash__(self) -> int:
        return hash((self._offset, self._position, self._batch_size))

    def __repr__(self) -> str:
        return f"FileChannelRecordBatch(magic: {self._magic}, offset: {self._offset}, size: {self._batch_size})"
