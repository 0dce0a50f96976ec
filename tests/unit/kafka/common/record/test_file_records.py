"""Tests for FileRecords: appends, slices, lazy batch headers, searches and file lifecycle."""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka.common.errors import CorruptRecordException, KafkaException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.file_records import FileRecords, LogOffsetPosition, TimestampAndOffset
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord


def _batch(
    offset: int, *timestamps: int, codec: CompressionType = CompressionType.NONE, epoch: int = -1
) -> MemoryRecords:
    records = [SimpleRecord(ts, b"k", b"v%d" % ts) for ts in timestamps]
    return MemoryRecords.with_records(codec, *records, initial_offset=offset, partition_leader_epoch=epoch)


@pytest.fixture
def log(tmp_path: Path) -> Iterator[FileRecords]:
    """A log file holding three batches: offsets 0-1, 2-4 (gzip), 5."""
    records = FileRecords.open(tmp_path / "00000000000000000000.log")
    records.append(_batch(0, 100, 200, epoch=1))
    records.append(_batch(2, 150, 400, 300, codec=CompressionType.GZIP, epoch=2))
    records.append(_batch(5, 250, epoch=3))
    yield records
    try:
        records.close_handlers()
    except OSError:
        pass


def test_append_and_read_back(log: FileRecords) -> None:
    """Appended batches are read back from the file with their records."""
    assert log.size_in_bytes() == os.path.getsize(log.file())
    assert [b.last_offset() for b in log.batches()] == [1, 4, 5]
    assert [r.offset() for r in log.records()] == [0, 1, 2, 3, 4, 5]
    for batch in log.batches():
        batch.ensure_valid()


def test_read_bytes_returns_the_whole_slice(log: FileRecords) -> None:
    """read_bytes gives the exact bytes of the file or slice, parseable as MemoryRecords."""
    data = log.read_bytes()
    assert data == Path(log.file()).read_bytes()
    first = next(iter(log.batches()))
    sliced = log.slice(first.size_in_bytes(), 10**9)
    assert sliced.read_bytes() == data[first.size_in_bytes() :]
    assert [r.offset() for r in MemoryRecords.readable_records(sliced.read_bytes()).records()] == [2, 3, 4, 5]


def test_slice_shares_the_file_and_clips_at_the_end(log: FileRecords) -> None:
    """A slice shares the descriptor, starts and ends where asked, and is clipped to the data."""
    sizes = [b.size_in_bytes() for b in log.batches()]
    middle = log.slice(sizes[0], sizes[1])
    assert middle.file_descriptor() == log.file_descriptor()
    assert (middle.start, middle.end, middle.size_in_bytes()) == (sizes[0], sizes[0] + sizes[1], sizes[1])
    assert [b.base_offset() for b in middle.batches()] == [2]
    tail = log.slice(sizes[0], 10**9)
    assert tail.size_in_bytes() == log.size_in_bytes() - sizes[0]
    nested = tail.slice(10, 5)
    assert (nested.start, nested.size_in_bytes()) == (sizes[0] + 10, 5)
    assert list(nested.batches()) == []  # too short for a batch
    with pytest.raises(ValueError):
        log.slice(-1, 5)
    with pytest.raises(ValueError):
        log.slice(0, -1)


def test_partial_slice_yields_only_complete_batches(log: FileRecords) -> None:
    """A slice ending inside a batch iterates only the batches that fit entirely."""
    sizes = [b.size_in_bytes() for b in log.batches()]
    cut = log.slice(0, sizes[0] + sizes[1] - 1)
    assert [b.base_offset() for b in cut.batches()] == [0]


def test_batch_header_fields_without_reading_the_body(log: FileRecords) -> None:
    """File batches answer header questions from their header and load the body only when iterated."""
    batches = list(log.batches())
    gzip_batch = batches[1]
    assert gzip_batch.position() == batches[0].size_in_bytes()
    assert (gzip_batch.base_offset(), gzip_batch.last_offset(), gzip_batch.max_timestamp()) == (2, 4, 400)
    assert gzip_batch.compression_type() is CompressionType.GZIP
    assert gzip_batch.partition_leader_epoch() == 2
    assert gzip_batch.count_or_null() == 3
    assert [r.timestamp() for r in gzip_batch] == [150, 400, 300]


def test_search_for_offset_with_size(log: FileRecords) -> None:
    """The search finds the first batch whose last offset reaches the target."""
    sizes = [b.size_in_bytes() for b in log.batches()]
    assert log.search_for_offset_with_size(3, 0) == LogOffsetPosition(4, sizes[0], sizes[1])
    assert log.search_for_offset_with_size(0, 0) == LogOffsetPosition(1, 0, sizes[0])
    assert log.search_for_offset_with_size(6, 0) is None
    assert log.search_for_offset_with_size(0, sizes[0]) == LogOffsetPosition(4, sizes[0], sizes[1])


def test_search_for_timestamp_looks_inside_batches(log: FileRecords) -> None:
    """The first record with timestamp >= target (and offset >= the start) is found, with its epoch."""
    assert log.search_for_timestamp(160, 0, 0) == TimestampAndOffset(200, 1, 1)
    assert log.search_for_timestamp(201, 0, 0) == TimestampAndOffset(400, 3, 2)
    assert log.search_for_timestamp(300, 0, 4) == TimestampAndOffset(300, 4, 2)
    assert log.search_for_timestamp(401, 0, 0) is None


def test_largest_timestamp_after(log: FileRecords) -> None:
    """The largest batch max timestamp is reported with its batch's last offset and epoch."""
    assert log.largest_timestamp_after(0) == TimestampAndOffset(400, 4, 2)
    last_position = sum(b.size_in_bytes() for b in list(log.batches())[:2])
    assert log.largest_timestamp_after(last_position) == TimestampAndOffset(250, 5, 3)


def test_truncate_to(log: FileRecords) -> None:
    """Truncation shrinks the file and the size; growing or negative targets fail."""
    first = next(iter(log.batches())).size_in_bytes()
    removed = log.truncate_to(first)
    assert removed > 0 and log.size_in_bytes() == first == os.path.getsize(log.file())
    assert [b.last_offset() for b in log.batches()] == [1]
    with pytest.raises(KafkaException):
        log.truncate_to(first + 1)
    with pytest.raises(KafkaException):
        log.truncate_to(-1)


def test_read_into(log: FileRecords) -> None:
    """read_into fills a buffer from a position relative to the slice and reports the bytes read."""
    buffer = bytearray(17)
    assert log.read_into(buffer, 0) == 17
    assert bytes(buffer) == log.read_bytes()[:17]
    big = bytearray(log.size_in_bytes() + 100)
    assert log.read_into(big, 0) == log.size_in_bytes()


def test_preallocated_file_starts_empty_and_trims_on_close(tmp_path: Path) -> None:
    """A new preallocated segment has its full length on disk, size 0, and is trimmed on close."""
    path = tmp_path / "00000000000000000100.log"
    records = FileRecords.open(path, file_already_exists=False, init_file_size=4096, preallocate=True)
    assert os.path.getsize(path) == 4096 and records.size_in_bytes() == 0
    written = records.append(_batch(100, 1))
    assert records.size_in_bytes() == written
    assert [b.base_offset() for b in records.batches()] == [100]
    records.close()
    assert os.path.getsize(path) == written


def test_reopen_existing_file(tmp_path: Path) -> None:
    """Reopening a segment sees its batches; a read-only open cannot append."""
    path = tmp_path / "seg.log"
    first = FileRecords.open(path)
    first.append(_batch(0, 1, 2))
    first.close()
    again = FileRecords.open(path, mutable=False)
    assert [r.offset() for r in again.records()] == [0, 1]
    with pytest.raises(OSError):
        again.append(_batch(2, 3))
    again.close_handlers()


def test_rename_and_delete(tmp_path: Path) -> None:
    """rename_to moves the file and keeps working; delete_if_exists removes it once."""
    records = FileRecords.open(tmp_path / "a.log")
    records.append(_batch(0, 1))
    records.rename_to(tmp_path / "a.log.deleted")
    assert records.file() == tmp_path / "a.log.deleted" and (tmp_path / "a.log.deleted").exists()
    assert [b.base_offset() for b in records.batches()] == [0]
    assert records.delete_if_exists() is True
    assert not (tmp_path / "a.log.deleted").exists()
    records.update_parent_dir(tmp_path / "other")
    assert records.file() == tmp_path / "other" / "a.log.deleted"


def test_closing_twice_leaves_a_reused_descriptor_alone(tmp_path: Path) -> None:
    """A segment closed and then deleted (a replaced log, a moved replica) closes its descriptor once: the number the
    OS gives the next open file stays that file's, and a slice of the closed file fails instead of reading it."""
    records = FileRecords.open(tmp_path / "a.log")
    records.append(_batch(0, 1))
    a_slice = records.slice(0, records.size_in_bytes())
    old_fd = records.file_descriptor()
    records.close()
    other = os.open(tmp_path / "other", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        assert other == old_fd  # the lowest free number: the one just closed
        records.close()
        assert records.delete_if_exists() is True
        records.close_handlers()
        os.write(other, b"still open")
        assert os.pread(other, 10, 0) == b"still open"
        with pytest.raises(OSError):
            a_slice.read_bytes()
    finally:
        os.close(other)


def test_write_to_sends_the_slice_with_sendfile(log: FileRecords) -> None:
    """write_to hands (fd, start + offset, count) to os.sendfile and the peer receives the slice bytes."""
    first = next(iter(log.batches())).size_in_bytes()
    sliced = log.slice(first, 10**9)
    left, right = socket.socketpair()
    try:
        sent = 0
        while sent < sliced.size_in_bytes():
            sent += sliced.write_to(left.fileno(), sent, sliced.size_in_bytes() - sent)
        left.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := right.recv(65536):
            received += chunk
    finally:
        left.close()
        right.close()
    assert received == sliced.read_bytes()


def test_write_to_reports_a_truncation_before_the_first_byte_and_where_the_cut_is_reached(log: FileRecords) -> None:
    """A slice of a file cut shorter raises KafkaException (Kafka's "truncated during write") when its write starts,
    and, cut during the transfer, once the transfer reaches the cut, instead of sending nothing for ever."""
    whole = log.slice(0, 10**9)
    size = whole.size_in_bytes()
    left, right = socket.socketpair()
    try:
        sent = whole.write_to(left.fileno(), 0, 10)
        assert sent == 10
        log.truncate_to(size // 2)
        sent += whole.write_to(left.fileno(), sent, size // 2 - sent)  # the part still in the file goes out
        assert sent == size // 2
        with pytest.raises(KafkaException, match="truncated during write"):
            whole.write_to(left.fileno(), sent, size - sent)
        with pytest.raises(KafkaException, match="truncated during write"):
            whole.write_to(left.fileno(), 0, size)
    finally:
        left.close()
        right.close()


def test_corrupt_sizes_in_a_file_raise_corrupt_record(tmp_path: Path) -> None:
    """A batch size below the minimum, a short v2 size or a bad magic in a file raises CorruptRecordException."""
    good = bytes(_batch(0, 1).buffer())
    for offset, value in ((8, struct.pack(">i", 3)), (8, struct.pack(">i", 30)), (16, b"\x09")):
        path = tmp_path / f"bad{offset}{value.hex()}.log"
        damaged = bytearray(good)
        damaged[offset : offset + len(value)] = value
        path.write_bytes(damaged + good)
        records = FileRecords.open(path, file_already_exists=True)
        with pytest.raises(CorruptRecordException):
            list(records.batches())
        records.close_handlers()


def test_down_convert_returns_self_when_nothing_to_convert(tmp_path: Path) -> None:
    """Converting a file of v1 messages to v2 needs no work and returns the FileRecords itself."""
    records = FileRecords.open(tmp_path / "v1.log")
    records.append(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(5, b"k", b"v"), magic=1))
    converted = records.down_convert(2, 0)
    assert converted.records() is records
    v0 = records.down_convert(0, 0)
    assert [b.magic() for b in v0.records().batches()] == [0]
    records.close_handlers()


def _search_by_iteration(records: FileRecords, target_offset: int, starting_position: int) -> object:
    """What the search answers through the batch iterator alone (Kafka's way): the reference for its fast path."""
    try:
        for batch in records.batches_from(starting_position):
            offset = batch.last_offset()
            if offset >= target_offset:
                return LogOffsetPosition(offset, batch.position(), batch.size_in_bytes())
        return None
    except Exception as e:  # the same exception type and message are expected
        return (type(e), str(e))


def _search(records: FileRecords, target_offset: int, starting_position: int) -> object:
    try:
        return records.search_for_offset_with_size(target_offset, starting_position)
    except Exception as e:
        return (type(e), str(e))


def test_search_for_offset_with_size_matches_the_batch_iterator(tmp_path: Path) -> None:
    """The search's one-read path for magic-2 batches answers as iterating the batches does: on a log mixing
    legacy (magic 0 and 1) and magic-2 batches, from every batch start, for every target, in slices cut inside
    a batch, and on a batch whose size field is corrupt."""
    records = FileRecords.open(tmp_path / "00000000000000000000.log")
    records.append(_batch(0, 100, 200))
    records.append(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(0, b"k", b"v"), magic=0))
    records.append(_batch(3, 300, 400, 500, codec=CompressionType.GZIP))
    records.append(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, b"k", b"v"), magic=1))
    records.append(_batch(7, 700))
    records.append(_batch(8, 800, 900))
    try:
        positions = [b.position() for b in records.batches()]
        ends = [b.position() + b.size_in_bytes() for b in records.batches()]
        for target in range(-1, 12):
            for start in positions:
                assert _search(records, target, start) == _search_by_iteration(records, target, start)
        for cut in (ends[2] - 1, ends[2], ends[4] + 20, ends[5] - 1):
            sliced = records.slice(0, cut)
            for target in range(0, 11):
                for start in (p for p in positions if p < cut):
                    assert _search(sliced, target, start) == _search_by_iteration(sliced, target, start)
        # A magic-2 batch whose size field is too small for a header: the iterator's CorruptRecordException.
        with open(records.file(), "r+b") as f:
            f.seek(positions[4] + 8)
            f.write(struct.pack(">i", 20))
        corrupt = _search(records, 10, positions[4])
        assert corrupt == _search_by_iteration(records, 10, positions[4])
        assert isinstance(corrupt, tuple) and corrupt[0] is CorruptRecordException
    finally:
        records.close_handlers()


def test_search_for_offset_with_size_with_the_next_index_position(tmp_path: Path) -> None:
    """Given the position of a later batch (the offset index's next entry), the search answers as without it:
    near (headers read in one pread) and far (the later batch taken only when it holds the target), from every
    batch start, with every later batch start, for every target, on a log mixing formats and batch sizes and in
    slices cut inside a batch."""
    records = FileRecords.open(tmp_path / "00000000000000000000.log")
    big = b"x" * 20_000  # batches larger than the span read in one pread
    records.append(_batch(0, 100, 200))
    records.append(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(0, b"k", big), initial_offset=2))
    records.append(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(0, b"k", b"v"), magic=0))
    records.append(_batch(4, 300, 400, 500, codec=CompressionType.GZIP))
    records.append(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, b"k", b"v"), magic=1))
    records.append(_batch(8, 700))
    for offset in (9, 10, 12):  # gaps in the offsets, as compaction leaves them
        records.append(
            MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(0, b"k", big), initial_offset=offset)
        )
    records.append(_batch(13, 800, 900, 1000))
    try:
        positions = [b.position() for b in records.batches()]
        ends = [b.position() + b.size_in_bytes() for b in records.batches()]

        def search(target: int, start: int, hint: int, where: FileRecords = records) -> object:
            try:
                return where.search_for_offset_with_size(target, start, hint)
            except Exception as e:
                return (type(e), str(e))

        for target in range(-1, 18):
            for start in positions:
                expected = _search_by_iteration(records, target, start)
                for hint in [-1, *positions, ends[-1]]:
                    assert search(target, start, hint) == expected, (target, start, hint)
        for cut in (ends[1] - 1, ends[3], ends[6] + 20, ends[-1] - 1):
            sliced = records.slice(0, cut)
            for target in range(0, 17):
                for start in (p for p in positions if p < cut):
                    expected = _search_by_iteration(sliced, target, start)
                    for hint in positions:
                        assert search(target, start, hint, sliced) == expected, (cut, target, start, hint)
    finally:
        records.close_handlers()
