"""Port of clients/src/main/java/org/apache/kafka/common/record/FileRecords.java (Kafka 3.7).

Record batches in a log segment file (`NNN.log`), or a slice of one. Batches are found by reading
their 17-byte prefixes; a fetch hands the slice to the network layer, which sends it with
`os.sendfile(sock, records.file_descriptor(), records.start + offset, count)` without the bytes
entering Python.

# PORT: Java's FileChannel becomes a raw file descriptor used with positional I/O (os.pread,
os.pwrite, os.sendfile), so that readers on other threads never share a file position. Slices
share the descriptor of the FileRecords they came from, through one `_FileChannel`; only the owner closes it,
once: a closed channel's descriptor is -1, so a slice read after the close fails (EBADF) as Java's
ClosedChannelException does, instead of reading whatever file the OS has since given the same number.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kafka.common.errors import KafkaException
from kafka.common.record.abstract_records import AbstractRecords, IterableView
from kafka.common.record.converted_records import ConvertedRecords
from kafka.common.record.default_record_batch import RECORD_BATCH_OVERHEAD
from kafka.common.record.file_log_input_stream import FileChannelRecordBatch, FileLogInputStream
from kafka.common.record.record_batch import MAGIC_VALUE_V2, NO_PARTITION_LEADER_EPOCH, NO_TIMESTAMP
from kafka.common.record.record_batch_iterator import RecordBatchIterator
from kafka.common.record.record_validation_stats import RecordValidationStats
from kafka.common.record.records import LOG_OVERHEAD
from kafka.common.record.records_util import Time, down_convert

if TYPE_CHECKING:
    from kafka.common.network.transferable_channel import TransferableChannel
    from kafka.common.record.memory_records import MemoryRecords

INT32_MAX = 2**31 - 1


# A magic-2 batch's start as far as its last offset delta: base offset, size, (partition leader epoch), magic,
# (crc, attributes), last offset delta (DefaultRecordBatch's layout).
_V2_SEARCH_HEADER = struct.Struct(">qi4xb6xi")
_V2_SEARCH_HEADER_SIZE = _V2_SEARCH_HEADER.size
# The smallest size field of a magic-2 batch that the iterator accepts (the whole header, less the log overhead).
_MIN_V2_BATCH_SIZE = RECORD_BATCH_OVERHEAD - LOG_OVERHEAD
# search_for_offset_with_size reads the headers up to the next index entry in one pread when it is this near.
_SEARCH_SPAN_BYTES = 16384


@dataclass(frozen=True, slots=True)
class LogOffsetPosition:
    """The last offset of a batch, its byte position in the file and its size."""

    offset: int
    position: int
    size: int


@dataclass(frozen=True, slots=True)
class TimestampAndOffset:
    """A timestamp, the offset holding it, and the leader epoch of its batch (None if unknown)."""

    timestamp: int
    offset: int
    leader_epoch: int | None


def _maybe_leader_epoch(leader_epoch: int) -> int | None:
    return None if leader_epoch == NO_PARTITION_LEADER_EPOCH else leader_epoch


class _FileChannel:
    """The descriptor of an open segment file, shared by a FileRecords and its slices (Java's FileChannel)."""

    __slots__ = ("fd",)

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def close(self) -> None:
        """Close the descriptor once; later calls do nothing (a second os.close could close a reused number)."""
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)


class FileRecords(AbstractRecords):
    """Batches in a file between byte positions `start` and `end`."""

    __slots__ = ("_channel", "_end", "_file", "_is_slice", "_size", "_start")

    def __init__(self, file: Path, channel: _FileChannel, start: int, end: int, is_slice: bool) -> None:
        self._file = file
        self._channel = channel
        self._start = start
        self._end = end
        self._is_slice = is_slice
        if is_slice:
            self._size = end - start
        else:
            file_size = os.fstat(channel.fd).st_size
            if file_size > INT32_MAX:
                raise KafkaException(
                    f"The size of segment {file} ({file_size}) is larger than the maximum allowed segment size of "
                    f"{INT32_MAX}"
                )
            self._size = min(file_size, end) - start

    # ---- opening ---------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        file: str | os.PathLike[str],
        mutable: bool = True,
        file_already_exists: bool = False,
        init_file_size: int = 0,
        preallocate: bool = False,
    ) -> FileRecords:
        """Open (creating if mutable) a log file; a new preallocated file starts empty at its full length."""
        path = Path(file)
        if mutable:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
            if not file_already_exists and preallocate:
                try:
                    os.ftruncate(fd, init_file_size)
                except OSError:
                    os.close(fd)
                    raise
        else:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        end = 0 if (not file_already_exists and preallocate) else INT32_MAX
        try:
            return cls(path, _FileChannel(fd), 0, end, False)
        except BaseException:
            os.close(fd)
            raise

    # ---- size and position -----------------------------------------------------------------------

    def size_in_bytes(self) -> int:
        """The number of bytes of this file (or slice)."""
        return self._size

    @property
    def start(self) -> int:
        """Byte position in the file where this slice starts (0 for a whole file)."""
        return self._start

    @property
    def end(self) -> int:
        """Byte position in the file where this slice ends: start + size_in_bytes().

        # PORT: Java's `end` field of a whole file is Integer.MAX_VALUE (a bound, not a position);
        this property is the effective end, which is what a sendfile caller needs.
        """
        return self._start + self._size

    def file(self) -> Path:
        """The file path."""
        return self._file

    def file_descriptor(self) -> int:
        """The OS file descriptor (shared by slices), for os.sendfile."""
        return self._channel.fd

    # ---- reading ---------------------------------------------------------------------------------

    def read_exactly(self, file_position: int, size: int, description: str = "data") -> bytes:
        """`size` bytes at absolute file position `file_position`; EOFError if the file is shorter."""
        data = os.pread(self._channel.fd, size, file_position)
        if len(data) == size:
            return data
        parts = [data]
        got = len(data)
        while got < size:
            chunk = os.pread(self._channel.fd, size - got, file_position + got)
            if not chunk:
                raise EOFError(
                    f"Failed to read `{description}` from file channel `{self._file}`. Expected to read {size} bytes, "
                    f"but reached end of file after reading {got} bytes. Started read from position {file_position}."
                )
            parts.append(chunk)
            got += len(chunk)
        return b"".join(parts)

    def read_into(self, buffer: bytearray | memoryview, position: int) -> int:
        """Fill `buffer` from `position` (relative to this slice) until full or end of file; returns bytes read."""
        view = buffer if isinstance(buffer, memoryview) else memoryview(buffer)
        try:
            total = 0
            wanted = len(view)
            while total < wanted:
                n = os.preadv(self._channel.fd, [view[total:]], self._start + position + total)
                if n == 0:
                    break
                total += n
            return total
        finally:
            if view is not buffer:
                view.release()

    def read_bytes(self) -> bytes:
        """All bytes of this slice (for when they must be materialised instead of sent with sendfile)."""
        return self.read_exactly(self._start, self._size, "records")

    # ---- slicing ---------------------------------------------------------------------------------

    def slice(self, position: int, size: int) -> FileRecords:
        """A view of `size` bytes from `position` (relative to this slice), clipped to the end."""
        available = self._available_bytes(position, size)
        start_position = self._start + position
        return FileRecords(self._file, self._channel, start_position, start_position + available, True)

    def _available_bytes(self, position: int, size: int) -> int:
        current_size = self.size_in_bytes()
        if position < 0:
            raise ValueError(f"Invalid position: {position} in read from {self}")
        # Java compares against size - start (not size) here; kept as is, it only narrows nested slices.
        if position > current_size - self._start:
            raise ValueError(f"Slice from position {position} exceeds end position of {self}")
        if size < 0:
            raise ValueError(f"Invalid size: {size} in read from {self}")
        end = self._start + position + size
        if end < 0 or end > self._start + current_size:
            end = self._start + current_size
        return end - (self._start + position)

    # ---- writing ---------------------------------------------------------------------------------

    def append(self, records: MemoryRecords) -> int:
        """Append the bytes of `records` at the end of the file; returns the bytes written."""
        size = records.size_in_bytes()
        if size > INT32_MAX - self._size:
            raise ValueError(
                f"Append of size {size} bytes is too large for segment with current file position at {self._size}"
            )
        view = records.buffer()
        position = self._start + self._size
        written = 0
        while written < size:
            written += os.pwrite(self._channel.fd, view[written:], position + written)
        self._size += written
        return written

    def flush(self) -> None:
        """Force written data to disk."""
        os.fsync(self._channel.fd)

    def close(self) -> None:
        """Flush, trim to the written size and close the file (once: a closed file is left alone)."""
        if self._channel.fd < 0:
            return
        self.flush()
        self.trim()
        self._channel.close()

    def close_handlers(self) -> None:
        """Close the file without flushing."""
        self._channel.close()

    def delete_if_exists(self) -> bool:
        """Close the file (quietly) and delete it; True if it existed."""
        try:
            self._channel.close()
        except OSError:
            pass
        try:
            self._file.unlink()
        except FileNotFoundError:
            return False
        return True

    def trim(self) -> None:
        """Truncate the file to the bytes written (drops preallocated space)."""
        self.truncate_to(self.size_in_bytes())

    def update_parent_dir(self, parent_dir: str | os.PathLike[str]) -> None:
        """Point at the same file name in another directory (after the directory was renamed)."""
        self._file = Path(parent_dir) / self._file.name

    def rename_to(self, f: str | os.PathLike[str]) -> None:
        """Rename the file atomically; the new name is kept even if the rename fails."""
        target = Path(f)
        try:
            os.replace(self._file, target)
        finally:
            self._file = target

    def truncate_to(self, target_size: int) -> int:
        """Truncate to `target_size` bytes; returns the number of bytes removed."""
        original_size = self.size_in_bytes()
        if target_size > original_size or target_size < 0:
            raise KafkaException(
                f"Attempt to truncate log segment {self._file} to {target_size} bytes failed,  size of this log "
                f"segment is {original_size} bytes."
            )
        if target_size < os.fstat(self._channel.fd).st_size:
            os.ftruncate(self._channel.fd, target_size)
            self._size = target_size
        return original_size - target_size

    def write_to(self, destination: TransferableChannel | int, offset: int, length: int) -> int:
        """Writes up to `length` bytes from `offset` (relative to this slice) to `destination` without copying them
        through Python: a TransferableChannel's transfer_from (a network Send), or sendfile to a file descriptor;
        returns the bytes written."""
        # PORT: Kafka compares the file's size with the slice's before every write (an fstat each time: one per
        # sendfile, dozens per large fetch response). Here it is compared before the first byte, and again whenever a
        # write moves nothing: a file cut below the slice ends the transfer there (sendfile stops at the end of the
        # file), so the truncation is reported at the latest when the cut is reached, never leaving a send stuck.
        if offset == 0:
            self._check_not_truncated()
        count = min(length, self.size_in_bytes() - offset)
        if isinstance(destination, int):
            written = os.sendfile(destination, self._channel.fd, self._start + offset, count)
        else:
            written = destination.transfer_from(self._channel.fd, self._start + offset, count)
        if written == 0 and count > 0:
            self._check_not_truncated()
        return written

    def _check_not_truncated(self) -> None:
        new_size = min(os.fstat(self._channel.fd).st_size, self._end) - self._start
        old_size = self.size_in_bytes()
        if new_size < old_size:
            raise KafkaException(
                f"Size of FileRecords {self._file} has been truncated during write: old size {old_size}, "
                f"new size {new_size}"
            )

    def down_convert(self, to_magic: int, first_offset: int, time: Time | None = None) -> ConvertedRecords:
        """Convert to `to_magic`; returns this slice itself when nothing needed converting."""
        converted = down_convert(self.batches(), to_magic, first_offset, time)
        if converted.record_conversion_stats().num_records_converted() == 0:
            return ConvertedRecords(self, RecordValidationStats.EMPTY)
        return converted

    # ---- searching -------------------------------------------------------------------------------

    def search_for_offset_with_size(
        self, target_offset: int, starting_position: int, next_indexed_position: int = -1
    ) -> LogOffsetPosition | None:
        """The first batch from `starting_position` whose last offset is >= `target_offset`.

        `next_indexed_position`, when given, is where the offset index's entry after the one that gave
        `starting_position` points: the start of a later batch (the answer is the same with or without it)."""
        # PORT: Kafka reads each batch's prefix and then its header (two reads and a batch object per batch). For
        # magic-2 batches the fields compared are read here in one pread; anything else (older formats, a batch
        # cut short, a size that fails the iterator's checks, a read error) is left to the iterator from that
        # batch on, so what is found or raised stays the same. Every fetch starts here, at each partition it reads.
        fd = self._channel.fd
        end = self._end if self._is_slice else self.size_in_bytes()
        position = starting_position
        hint = next_indexed_position
        if position < hint <= end - _V2_SEARCH_HEADER_SIZE:
            # PORT: a consumer fetching on from its last batch is sent by the index to that batch, and Kafka reads
            # its header and then the next one. With the next index entry known: when it is near, the headers up to
            # it are read in one pread and walked in memory (the same checks as below); when it is far (large
            # batches), the batch it points to is read first and taken when it holds the target, which makes it
            # the first batch with a last offset >= target (the batches before it end below its base offset).
            if hint - position <= _SEARCH_SPAN_BYTES:
                try:
                    chunk = os.pread(fd, hint + _V2_SEARCH_HEADER_SIZE - position, position)
                except OSError:
                    chunk = b""
                chunk_start = position
                limit = position + len(chunk) - _V2_SEARCH_HEADER_SIZE
                while position <= limit:
                    base_offset, size, magic, last_offset_delta = _V2_SEARCH_HEADER.unpack_from(
                        chunk, position - chunk_start
                    )
                    if magic != MAGIC_VALUE_V2 or size < _MIN_V2_BATCH_SIZE or position > end - LOG_OVERHEAD - size:
                        return self._search_with_iterator(target_offset, position)
                    last_offset = base_offset + last_offset_delta
                    if last_offset >= target_offset:
                        return LogOffsetPosition(last_offset, position, size + LOG_OVERHEAD)
                    position += size + LOG_OVERHEAD
            else:
                try:
                    header = os.pread(fd, _V2_SEARCH_HEADER_SIZE, hint)
                except OSError:
                    header = b""
                if len(header) == _V2_SEARCH_HEADER_SIZE:
                    base_offset, size, magic, last_offset_delta = _V2_SEARCH_HEADER.unpack(header)
                    last_offset = base_offset + last_offset_delta
                    if (
                        magic == MAGIC_VALUE_V2
                        and size >= _MIN_V2_BATCH_SIZE
                        and hint <= end - LOG_OVERHEAD - size
                        and base_offset <= target_offset <= last_offset
                    ):
                        return LogOffsetPosition(last_offset, hint, size + LOG_OVERHEAD)
        while position + _V2_SEARCH_HEADER_SIZE <= end:
            try:
                prefix = os.pread(fd, _V2_SEARCH_HEADER_SIZE, position)
            except OSError:
                break
            if len(prefix) < _V2_SEARCH_HEADER_SIZE:
                break
            base_offset, size, magic, last_offset_delta = _V2_SEARCH_HEADER.unpack(prefix)
            if magic != MAGIC_VALUE_V2 or size < _MIN_V2_BATCH_SIZE or position > end - LOG_OVERHEAD - size:
                break
            last_offset = base_offset + last_offset_delta
            if last_offset >= target_offset:
                return LogOffsetPosition(last_offset, position, size + LOG_OVERHEAD)
            position += size + LOG_OVERHEAD
        return self._search_with_iterator(target_offset, position)

    def _search_with_iterator(self, target_offset: int, position: int) -> LogOffsetPosition | None:
        for batch in self.batches_from(position):
            offset = batch.last_offset()
            if offset >= target_offset:
                return LogOffsetPosition(offset, batch.position(), batch.size_in_bytes())
        return None

    def search_for_timestamp(
        self, target_timestamp: int, starting_position: int, starting_offset: int
    ) -> TimestampAndOffset | None:
        """The first record at or after `starting_offset` with a timestamp >= `target_timestamp`."""
        for batch in self.batches_from(starting_position):
            if batch.max_timestamp() >= target_timestamp:
                for record in batch:
                    timestamp = record.timestamp()
                    if timestamp >= target_timestamp and record.offset() >= starting_offset:
                        return TimestampAndOffset(
                            timestamp, record.offset(), _maybe_leader_epoch(batch.partition_leader_epoch())
                        )
        return None

    def largest_timestamp_after(self, starting_position: int) -> TimestampAndOffset:
        """The largest batch max timestamp from `starting_position`, with its batch's last offset."""
        max_timestamp = NO_TIMESTAMP
        offset_of_max_timestamp = -1
        leader_epoch_of_max_timestamp = NO_PARTITION_LEADER_EPOCH
        for batch in self.batches_from(starting_position):
            timestamp = batch.max_timestamp()
            if timestamp > max_timestamp:
                max_timestamp = timestamp
                offset_of_max_timestamp = batch.last_offset()
                leader_epoch_of_max_timestamp = batch.partition_leader_epoch()
        return TimestampAndOffset(
            max_timestamp, offset_of_max_timestamp, _maybe_leader_epoch(leader_epoch_of_max_timestamp)
        )

    # ---- iteration -------------------------------------------------------------------------------

    def batches(self) -> Iterable[FileChannelRecordBatch]:
        """The batches of this file or slice (re-iterable)."""
        return self.batches_from(self._start)

    def batches_from(self, start: int) -> Iterable[FileChannelRecordBatch]:
        """The batches from absolute file position `start` (re-iterable)."""
        return IterableView(lambda: self._batch_iterator(start))

    def batch_iterator(self) -> Iterator[FileChannelRecordBatch]:
        """A fresh iterator over the batches."""
        return self._batch_iterator(self._start)

    def _batch_iterator(self, start: int) -> Iterator[FileChannelRecordBatch]:
        end = self._end if self._is_slice else self.size_in_bytes()
        return RecordBatchIterator(FileLogInputStream(self, start, end))

    def __repr__(self) -> str:
        return f"FileRecords(size={self.size_in_bytes()}, file={self._file}, start={self._start}, end={self._end})"
