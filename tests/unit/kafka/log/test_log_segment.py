"""Tests of LogSegment, after Kafka's LogSegmentTest: reads, truncation, rolling, recovery from damaged
files, and byte compatibility with an independent writer and reader of Kafka's segment format."""

from __future__ import annotations

import os
import random
import socket
import struct
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import crc32c
import pytest

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.file_records import FileRecords
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.record.records import Records
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime, Time
from kafka.log import log_segment as log_segment_module
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.log.log_append_info import RollParams
from kafka.log.log_segment import LogSegment, LogSegmentOffsetOverflowException
from kafka.log.producer_state_manager import BatchMetadata, ProducerStateEntry, ProducerStateManager
from kafka.server.checkpoints.leader_epoch_checkpoint_file import LeaderEpochCheckpoint
from kafka.server.epoch.leader_epoch_file_cache import EpochEntry, LeaderEpochFileCache

TP = TopicPartition("topic", 0)
INT32_MAX = 2**31 - 1


@dataclass(frozen=True)
class SegConfig:
    """The LogConfig fields a segment reads."""

    max_index_size: int = 10 * 1024
    index_interval: int = 10
    random_segment_jitter: int = 0


class Segments:
    """Creates segments in a directory and closes them after the test."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.opened: list[LogSegment] = []

    def create(
        self,
        offset: int,
        index_interval_bytes: int = 10,
        time: Time | None = None,
        file_already_exists: bool = False,
        init_file_size: int = 0,
        preallocate: bool = False,
        jitter: int = 0,
    ) -> LogSegment:
        seg = LogSegment.open(
            self.log_dir,
            offset,
            SegConfig(index_interval=index_interval_bytes, random_segment_jitter=jitter),
            time or MockTime(),
            file_already_exists=file_already_exists,
            init_file_size=init_file_size,
            preallocate=preallocate,
        )
        self.opened.append(seg)
        return seg

    def close_all(self) -> None:
        for seg in self.opened:
            seg.close_handlers()


@pytest.fixture
def segments(tmp_path: Path) -> Iterator[Segments]:
    s = Segments(tmp_path)
    yield s
    s.close_all()


def records(offset: int, *values: str, timestamp: int | None = None, epoch: int = -1) -> MemoryRecords:
    """One batch with one record per value, timestamped offset * 10 unless given."""
    ts = offset * 10 if timestamp is None else timestamp
    return MemoryRecords.with_records(
        CompressionType.NONE,
        *(SimpleRecord(timestamp=ts, value=v.encode()) for v in values),
        initial_offset=offset,
        partition_leader_epoch=epoch,
    )


def offsets_of(mem: Records) -> list[int]:
    return [r.offset() for b in mem.batches() for r in b]


def bytes_of(mem: Records) -> bytes:
    """The bytes of a FileRecords slice returned by a read."""
    assert isinstance(mem, FileRecords)
    return mem.read_bytes()


def write_nonsense(path: Path, position: int, size: int) -> None:
    """Overwrite `size` bytes at `position` with random bytes."""
    rnd = random.Random(42)
    with open(path, "r+b") as f:
        f.seek(position)
        f.write(bytes(rnd.randrange(256) for _ in range(size)))


def end_txn_records(
    control_type: ControlRecordType, producer_id: int, producer_epoch: int, offset: int
) -> MemoryRecords:
    marker = EndTransactionMarker(control_type, 0)
    return MemoryRecords.with_end_transaction_marker(
        producer_id, producer_epoch, marker, initial_offset=offset, timestamp=NO_TIMESTAMP, partition_leader_epoch=0
    )


# ---- reads -----------------------------------------------------------------------------------------


def test_read_on_empty_segment(segments: Segments) -> None:
    """A read from an empty segment returns None."""
    seg = segments.create(40)
    assert seg.read(40, 300) is None


def test_read_before_first_offset(segments: Segments) -> None:
    """A read from below the first offset returns from the first batch."""
    seg = segments.create(40)
    ms = records(50, "hello", "there", "little", "bee")
    seg.append(53, NO_TIMESTAMP, -1, ms)
    info = seg.read(41, 300)
    assert info is not None
    assert bytes_of(info.records) == bytes(ms.buffer())
    assert info.fetch_offset_metadata.segment_base_offset == 40
    assert info.fetch_offset_metadata.relative_position_in_segment == 0


def test_read_after_last(segments: Segments) -> None:
    """A read past the last offset returns None."""
    seg = segments.create(40)
    seg.append(51, NO_TIMESTAMP, -1, records(50, "hello", "there"))
    assert seg.read(52, 200) is None


def test_read_from_gap(segments: Segments) -> None:
    """A read from an offset between batches returns from the next batch."""
    seg = segments.create(40)
    seg.append(51, NO_TIMESTAMP, -1, records(50, "hello", "there"))
    ms2 = records(60, "alpha", "beta")
    seg.append(61, NO_TIMESTAMP, -1, ms2)
    info = seg.read(55, 200)
    assert info is not None
    assert bytes_of(info.records) == bytes(ms2.buffer())
    assert offsets_of(info.records) == [60, 61]


def test_read_respects_max_size_and_min_one_message(segments: Segments) -> None:
    """max_size cuts the slice; min_one_message returns the first batch whole; max_position bounds the read."""
    seg = segments.create(0)
    first = records(0, "a" * 100)
    second = records(1, "b" * 100)
    seg.append(0, NO_TIMESTAMP, -1, first)
    seg.append(1, NO_TIMESTAMP, -1, second)
    size1 = first.size_in_bytes()

    partial = seg.read(0, 10)
    assert partial is not None
    assert partial.first_entry_incomplete
    assert partial.records.size_in_bytes() == 10

    whole = seg.read(0, 10, min_one_message=True)
    assert whole is not None
    assert not whole.first_entry_incomplete
    assert whole.records.size_in_bytes() == size1

    bounded = seg.read(0, 10_000, max_position=size1)
    assert bounded is not None
    assert offsets_of(bounded.records) == [0]

    zero = seg.read(0, 0)
    assert zero is not None
    assert zero.records.size_in_bytes() == 0

    with pytest.raises(ValueError, match="Invalid max size"):
        seg.read(0, -1)


def test_read_slice_goes_out_with_sendfile(segments: Segments) -> None:
    """The FileRecords slice of a read is sent byte-exact through os.sendfile to a socket."""
    seg = segments.create(0)
    batches = [records(i, f"value-{i}") for i in range(5)]
    for i, batch in enumerate(batches):
        seg.append(i, NO_TIMESTAMP, -1, batch)
    info = seg.read(2, 10_000)
    assert info is not None
    slice_ = info.records
    assert isinstance(slice_, FileRecords)
    expected = b"".join(bytes(batch.buffer()) for batch in batches[2:])
    a, b = socket.socketpair()
    try:
        sent = 0
        while sent < slice_.size_in_bytes():
            sent += slice_.write_to(a.fileno(), sent, slice_.size_in_bytes() - sent)
        received = b""
        while len(received) < len(expected):
            received += b.recv(65536)
        assert received == expected
    finally:
        a.close()
        b.close()


# ---- indexing, truncation, timestamps --------------------------------------------------------------


def test_index_entry_every_index_interval_bytes(segments: Segments) -> None:
    """An offset index entry is added once more than index_interval_bytes were appended since the last one."""
    batch_size = records(0, "hello").size_in_bytes()
    seg = segments.create(0, index_interval_bytes=2 * batch_size)
    for i in range(10):
        seg.append(i, i * 10, i, records(i, "hello"))
    # Entries are written before the appends at positions 3, 6 and 9 (after 3 batches > 2 batch sizes each).
    entries = [seg.offset_index.entry(n) for n in range(seg.offset_index.entries)]
    assert [(e.offset, e.position) for e in entries] == [(3, 3 * batch_size), (6, 6 * batch_size), (9, 9 * batch_size)]
    assert seg.time_index.entries == 3
    assert seg.translate_offset(7) is not None


def test_truncate(segments: Segments) -> None:
    """Truncating at each batch leaves the earlier batches readable and nothing at or after the offset."""
    seg = segments.create(40)
    offset = 40
    for _ in range(30):
        ms1 = records(offset, "hello")
        seg.append(offset, NO_TIMESTAMP, -1, ms1)
        ms2 = records(offset + 1, "hello")
        seg.append(offset + 1, NO_TIMESTAMP, -1, ms2)
        info = seg.read(offset, 10_000)
        assert info is not None
        assert offsets_of(info.records) == [offset, offset + 1]
        truncated = seg.truncate_to(offset + 1)
        assert truncated == ms2.size_in_bytes()
        assert seg.read(offset + 1, 10_000) is None
        offset += 1


def test_truncate_empty_segment(segments: Segments) -> None:
    """A reopened empty segment truncated to any offset gets index room back and rolls only on offset overflow."""
    max_segment_ms = 300_000
    time = MockTime()
    seg = segments.create(0, time=time)
    _ = seg.time_index, seg.offset_index
    seg.close()
    reopened = segments.create(0, time=time, file_already_exists=True)
    assert reopened.time_index.size_in_bytes == 0
    assert reopened.offset_index.size_in_bytes == 0
    time.sleep(500)
    reopened.truncate_to(57)
    assert reopened.time_waited_for_roll(time.milliseconds(), NO_TIMESTAMP) == 0
    assert not reopened.time_index.is_full
    assert not reopened.offset_index.is_full

    params = RollParams(max_segment_ms, INT32_MAX, NO_TIMESTAMP, 100, 1024, time.milliseconds())
    assert not reopened.should_roll(params)
    time.sleep(max_segment_ms + 1)
    assert reopened.time_waited_for_roll(time.milliseconds(), NO_TIMESTAMP) == max_segment_ms + 1
    params = RollParams(max_segment_ms, INT32_MAX, NO_TIMESTAMP, 100, 1024, time.milliseconds())
    assert not reopened.should_roll(params)
    params = RollParams(max_segment_ms, INT32_MAX, NO_TIMESTAMP, INT32_MAX + 200, 1024, time.milliseconds())
    assert reopened.should_roll(params)


def test_reload_largest_timestamp_and_next_offset_after_truncation(segments: Segments, tmp_path: Path) -> None:
    """Truncation recomputes the largest timestamp; after index damage, recovery makes every offset readable."""
    seg = segments.create(40, index_interval_bytes=2 * records(0, "hello").size_in_bytes() - 1)
    offset = 40
    for _ in range(30):
        seg.append(offset, offset, offset, records(offset, "hello"))
        offset += 1
    assert seg.read_next_offset() == offset
    assert seg.time_index.entries == 30 // 2 - 1
    seg.truncate_to(41)
    assert seg.time_index.entries == 0
    assert seg.largest_timestamp == 400
    for i in range(100):
        seg.append(i + 41, NO_TIMESTAMP, -1, records(i + 41, str(i), timestamp=NO_TIMESTAMP))
    index_file = seg.lazy_offset_index.file
    write_nonsense(index_file, 5, index_file.stat().st_size - 5)
    seg.recover(ProducerStateManager(TP, tmp_path))
    for i in range(100):
        info = seg.read(i + 41, 1, min_one_message=True)
        assert info is not None
        assert next(iter(next(iter(info.records.batches())))).offset() == i + 41


def test_truncate_full(segments: Segments) -> None:
    """Truncating to the base offset empties the segment and resets its roll clock."""
    time = MockTime()
    seg = segments.create(40, time=time)
    seg.append(41, 40 * 10, 40, records(40, "hello", "there"))
    time.sleep(500)
    assert seg.truncate_to(0) > 0
    assert seg.size == 0
    assert seg.time_waited_for_roll(time.milliseconds(), NO_TIMESTAMP) == 0
    assert not seg.time_index.is_full
    assert not seg.offset_index.is_full
    assert seg.read(0, 1024) is None
    seg.append(41, NO_TIMESTAMP, -1, records(40, "hello", "there", timestamp=NO_TIMESTAMP))


def test_find_offset_by_timestamp(segments: Segments) -> None:
    """A timestamp search returns the first record at or after the target timestamp, or None past the end."""
    batch_size = records(0, "hello").size_in_bytes()
    seg = segments.create(40, index_interval_bytes=2 * batch_size)
    for i in range(40, 50):
        seg.append(i, i * 10, i, records(i, "msg"))
    assert seg.find_offset_by_timestamp(500) is None
    found = seg.find_offset_by_timestamp(400)
    assert found is not None
    assert (found.timestamp, found.offset) == (400, 40)
    found = seg.find_offset_by_timestamp(405)
    assert found is not None
    assert found.offset == 41
    found = seg.find_offset_by_timestamp(450)
    assert found is not None
    assert found.offset == 45
    found = seg.find_offset_by_timestamp(0, starting_offset=46)
    assert found is not None
    assert found.offset == 46


def test_next_offset_calculation(segments: Segments) -> None:
    """read_next_offset is the base offset when empty and one past the last offset otherwise."""
    seg = segments.create(40)
    assert seg.read_next_offset() == 40
    seg.append(52, NO_TIMESTAMP, -1, records(50, "hello", "there", "you"))
    assert seg.read_next_offset() == 53


def test_change_file_suffixes(segments: Segments) -> None:
    """Renaming the files to a suffix moves all four, and the segment keeps reading from them."""
    seg = segments.create(40)
    seg.append(41, NO_TIMESTAMP, -1, records(40, "a", "b"))
    seg.update_txn_index(_Completed(1, 40, 41, True), 40)
    log_file = seg.log.file()
    index_file = seg.lazy_offset_index.file
    time_index_file = seg.lazy_time_index.file
    seg.change_file_suffixes("", ".deleted")
    assert seg.has_suffix(".deleted")
    assert str(seg.log.file()) == str(log_file) + ".deleted"
    assert str(seg.lazy_offset_index.file) == str(index_file) + ".deleted"
    assert str(seg.lazy_time_index.file) == str(time_index_file) + ".deleted"
    assert seg.txn_index.file.name.endswith(".txnindex.deleted")
    assert all(f.exists() for f in (seg.log.file(), seg.lazy_offset_index.file, seg.lazy_time_index.file))
    assert seg.txn_index.file.exists()
    assert not log_file.exists()
    info = seg.read(40, 1000)
    assert info is not None
    assert offsets_of(info.records) == [40, 41]
    with pytest.raises(ValueError, match="Expected string to end with"):
        seg.change_file_suffixes(".swap", "")


def test_append_offset_overflow_is_refused(segments: Segments) -> None:
    """An offset over Int.MaxValue above the base raises LogSegmentOffsetOverflowException and writes nothing."""
    seg = segments.create(0)
    with pytest.raises(LogSegmentOffsetOverflowException, match="Detected offset overflow at offset"):
        seg.append(INT32_MAX + 1, NO_TIMESTAMP, -1, records(INT32_MAX + 1, "a"))
    assert seg.size == 0
    assert not seg.can_convert_to_relative_offset(INT32_MAX + 1)


def test_should_roll(segments: Segments) -> None:
    """A segment rolls on size, on segment.ms less its jitter (by record timestamps), and on a full index."""
    time = MockTime()
    seg = segments.create(0, time=time, jitter=100)
    seg.append(0, 1000, 0, records(0, "a", timestamp=1000))
    size = seg.size
    now = time.milliseconds()
    assert not seg.should_roll(RollParams(10_000, 1_000_000, 1000, 1, 100, now))
    assert seg.should_roll(RollParams(10_000, size + 99, 1000, 1, 100, now))
    # 9901 ms after the first batch's timestamp exceeds 10000 - 100 of jitter.
    assert seg.time_waited_for_roll(now, 1000 + 9901) == 9901
    assert seg.should_roll(RollParams(10_000, 1_000_000, 1000 + 9901, 1, 100, now))
    assert not seg.should_roll(RollParams(10_000, 1_000_000, 1000 + 9899, 1, 100, now))
    assert seg.get_first_batch_timestamp() == 1000


def test_should_roll_on_full_index(tmp_path: Path) -> None:
    """A segment whose offset index has no room left must roll."""
    seg = LogSegment.open(tmp_path, 0, SegConfig(max_index_size=24, index_interval=0), MockTime())
    try:
        for i in range(3):
            assert not seg.should_roll(RollParams(10**9, 10**9, NO_TIMESTAMP, i, 10, 0))
            seg.append(i, NO_TIMESTAMP, -1, records(i, "x", timestamp=NO_TIMESTAMP))
        seg.append(3, NO_TIMESTAMP, -1, records(3, "x", timestamp=NO_TIMESTAMP))
        assert seg.offset_index.entries == 3
        assert seg.offset_index.is_full
        assert seg.should_roll(RollParams(10**9, 10**9, NO_TIMESTAMP, 4, 10, 0))
    finally:
        seg.close_handlers()


# ---- recovery --------------------------------------------------------------------------------------


def test_recovery_fixes_corrupt_index(segments: Segments, tmp_path: Path) -> None:
    """Nonsense written over the offset index is replaced by recovery; every offset reads correctly again."""
    seg = segments.create(0)
    for i in range(100):
        seg.append(i, NO_TIMESTAMP, -1, records(i, str(i)))
    index_file = seg.lazy_offset_index.file
    write_nonsense(index_file, 5, index_file.stat().st_size - 5)
    assert seg.recover(ProducerStateManager(TP, tmp_path)) == 0
    for i in range(100):
        info = seg.read(i, 1, min_one_message=True)
        assert info is not None
        assert offsets_of(info.records)[0] == i


def test_recovery_fixes_corrupt_time_index(segments: Segments, tmp_path: Path) -> None:
    """Nonsense written over the time index is replaced by recovery; timestamp searches are exact again."""
    seg = segments.create(0)
    for i in range(100):
        seg.append(i, i * 10, i, records(i, str(i)))
    time_index_file = seg.lazy_time_index.file
    write_nonsense(time_index_file, 5, time_index_file.stat().st_size - 5)
    seg.recover(ProducerStateManager(TP, tmp_path))
    for i in range(100):
        found = seg.find_offset_by_timestamp(i * 10)
        assert found is not None
        assert found.offset == i
        if i < 99:
            found = seg.find_offset_by_timestamp(i * 10 + 1)
            assert found is not None
            assert found.offset == i + 1


def test_recover_transaction_index(segments: Segments, tmp_path: Path) -> None:
    """Recovery rebuilds the aborted-transaction index from the markers, with the LSO at the time of the abort."""
    seg = segments.create(100)
    epoch, leader_epoch, sequence = 0, 15, 100
    pid1, pid2 = 5, 10
    ab = (SimpleRecord(value=b"a"), SimpleRecord(value=b"b"))
    seg.append(
        101,
        NO_TIMESTAMP,
        100,
        MemoryRecords.with_transactional_records(
            CompressionType.NONE, pid1, epoch, sequence, *ab, initial_offset=100, partition_leader_epoch=leader_epoch
        ),
    )
    seg.append(
        103,
        NO_TIMESTAMP,
        102,
        MemoryRecords.with_transactional_records(
            CompressionType.NONE, pid2, epoch, sequence, *ab, initial_offset=102, partition_leader_epoch=leader_epoch
        ),
    )
    seg.append(
        105,
        NO_TIMESTAMP,
        104,
        MemoryRecords.with_records(CompressionType.NONE, *ab, initial_offset=104, partition_leader_epoch=leader_epoch),
    )
    seg.append(106, NO_TIMESTAMP, 106, end_txn_records(ControlRecordType.ABORT, pid2, epoch, 106))
    seg.append(107, NO_TIMESTAMP, 107, end_txn_records(ControlRecordType.COMMIT, pid1, epoch, 107))

    state = ProducerStateManager(TP, tmp_path)
    seg.recover(state)
    assert state.map_end_offset == 108
    aborted = seg.txn_index.all_aborted_txns()
    assert [(a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset) for a in aborted] == [
        (pid2, 102, 106, 100)
    ]

    # Again, with pid2's transaction having started in an earlier segment.
    state = ProducerStateManager(TP, tmp_path)
    state.load_producer_entry(
        ProducerStateEntry(pid2, deque([BatchMetadata(10, 10, 5, NO_TIMESTAMP)]), epoch, 0, NO_TIMESTAMP, 75)
    )
    seg.recover(state)
    assert state.map_end_offset == 108
    aborted = seg.txn_index.all_aborted_txns()
    assert [(a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset) for a in aborted] == [
        (pid2, 75, 106, 100)
    ]
    result = seg.collect_aborted_txns(100, 108)
    assert [a.producer_id for a in result.aborted_transactions] == [pid2]


class _MemoryCheckpoint(LeaderEpochCheckpoint):
    def __init__(self) -> None:
        self.epochs: list[EpochEntry] = []

    def write(self, epochs: Iterable[EpochEntry]) -> None:
        self.epochs = list(epochs)

    def read(self) -> list[EpochEntry]:
        return self.epochs


def test_recovery_rebuilds_epoch_cache(segments: Segments, tmp_path: Path) -> None:
    """Recovery assigns each new partition leader epoch found in the batches to the epoch cache."""
    seg = segments.create(0)
    checkpoint = _MemoryCheckpoint()
    cache = LeaderEpochFileCache(TP, seg.read_next_offset, checkpoint)
    for base, leader_epoch in ((104, 0), (106, 1), (108, 1), (110, 2)):
        seg.append(base + 1, NO_TIMESTAMP, base, records(base, "a", "b", timestamp=NO_TIMESTAMP, epoch=leader_epoch))
    seg.recover(ProducerStateManager(TP, tmp_path), cache)
    assert cache.epoch_entries() == [EpochEntry(0, 104), EpochEntry(1, 106), EpochEntry(2, 110)]
    assert checkpoint.epochs == cache.epoch_entries()


def _fill(seg: LogSegment, n: int) -> list[int]:
    """Append n one-record batches at offsets 0..n-1; returns the batch sizes."""
    sizes = []
    for i in range(n):
        ms = records(i, f"value-{i}")
        seg.append(i, i * 10, i, ms)
        sizes.append(ms.size_in_bytes())
    return sizes


def test_recovery_with_corrupt_message(segments: Segments, tmp_path: Path) -> None:
    """Random bytes written into a batch make recovery cut the log at that batch and report the bytes removed."""
    seg = segments.create(0)
    sizes = _fill(seg, 100)
    position_of_50 = sum(sizes[:50])
    write_nonsense(seg.log.file(), position_of_50 + 30, 10)
    truncated = seg.recover(ProducerStateManager(TP, tmp_path))
    assert truncated == sum(sizes[50:])
    assert seg.size == position_of_50
    assert seg.read_next_offset() == 50
    info = seg.read(0, 100_000)
    assert info is not None
    assert offsets_of(info.records) == list(range(50))


def test_recovery_of_tail_cut_mid_batch_after_reopen(segments: Segments, tmp_path: Path) -> None:
    """A log file cut in the middle of its last batch (a crash) recovers to the last whole batch on reopen."""
    seg = segments.create(0)
    sizes = _fill(seg, 10)
    seg.close()
    log_path = seg.log.file()
    full = log_path.stat().st_size
    os.truncate(log_path, full - 7)
    reopened = segments.create(0, file_already_exists=True)
    assert reopened.size == full - 7
    truncated = reopened.recover(ProducerStateManager(TP, tmp_path))
    assert truncated == sizes[-1] - 7
    assert reopened.size == sum(sizes[:-1])
    assert log_path.stat().st_size == sum(sizes[:-1])
    assert reopened.read_next_offset() == 9
    found = reopened.find_offset_by_timestamp(80)
    assert found is not None
    assert found.offset == 8


def test_recovery_of_impossible_batch_size(segments: Segments, tmp_path: Path) -> None:
    """A batch length field overwritten with a huge or too-small value ends the valid data at that batch."""
    seg = segments.create(0)
    sizes = _fill(seg, 10)
    position_of_5 = sum(sizes[:5])
    with open(seg.log.file(), "r+b") as f:
        f.seek(position_of_5 + 8)
        f.write(struct.pack(">i", INT32_MAX))
    assert seg.recover(ProducerStateManager(TP, tmp_path)) == sum(sizes[5:])
    assert seg.read_next_offset() == 5

    position_of_3 = sum(sizes[:3])
    with open(seg.log.file(), "r+b") as f:
        f.seek(position_of_3 + 8)
        f.write(struct.pack(">i", 5))
    assert seg.recover(ProducerStateManager(TP, tmp_path)) == sum(sizes[3:5])
    assert seg.read_next_offset() == 3


def test_missing_offset_index_is_detected_and_rebuilt(segments: Segments, tmp_path: Path) -> None:
    """A deleted .index file fails the segment sanity check, and recovery rebuilds it with the same entries."""
    seg = segments.create(0, index_interval_bytes=100)
    _fill(seg, 50)
    entries_before = [seg.offset_index.entry(n) for n in range(seg.offset_index.entries)]
    seg.close()
    seg.lazy_offset_index.file.unlink()

    reopened = segments.create(0, file_already_exists=True, index_interval_bytes=100)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        reopened.sanity_check(time_index_file_newly_created=False)
    reopened.recover(ProducerStateManager(TP, tmp_path))
    entries_after = [reopened.offset_index.entry(n) for n in range(reopened.offset_index.entries)]
    assert entries_after == entries_before
    reopened.sanity_check(time_index_file_newly_created=False)
    for i in range(50):
        info = reopened.read(i, 1, min_one_message=True)
        assert info is not None
        assert offsets_of(info.records)[0] == i


def test_corrupt_offset_index_fails_sanity_and_is_rebuilt(segments: Segments, tmp_path: Path) -> None:
    """An index file with a torn entry fails its sanity check with CorruptIndexException; recovery repairs it."""
    seg = segments.create(0)
    _fill(seg, 20)
    seg.close()
    index_file = seg.lazy_offset_index.file
    with open(index_file, "ab") as f:
        f.write(b"\x01\x02\x03")
    reopened = segments.create(0, file_already_exists=True)
    with pytest.raises(CorruptIndexException):
        reopened.offset_index.sanity_check()
    reopened.recover(ProducerStateManager(TP, tmp_path))
    reopened.offset_index.sanity_check()
    reopened.time_index.sanity_check()
    assert index_file.stat().st_size % 8 == 0
    assert reopened.read_next_offset() == 20


def test_create_with_init_file_size_append_message(segments: Segments) -> None:
    """A preallocated segment starts empty and appends from position 0."""
    seg = segments.create(40, init_file_size=512 * 1024 * 1024, preallocate=True)
    ms = records(50, "hello", "there")
    seg.append(51, NO_TIMESTAMP, -1, ms)
    info = seg.read(50, 200)
    assert info is not None
    assert bytes_of(info.records) == bytes(ms.buffer())


def test_create_with_init_file_size_clear_shutdown(segments: Segments, tmp_path: Path) -> None:
    """Closing a preallocated segment trims the file, and the reopened segment reads the same data."""
    seg = segments.create(40, init_file_size=512 * 1024 * 1024, preallocate=True)
    seg.append(51, NO_TIMESTAMP, -1, records(50, "hello", "there"))
    seg.append(56, NO_TIMESTAMP, -1, records(55, "alpha", "beta"))
    old_size = seg.log.size_in_bytes()
    old_position = seg.log.end
    seg.close()
    assert seg.log.file().stat().st_size == old_size
    reopened = segments.create(40, file_already_exists=True, init_file_size=512 * 1024 * 1024, preallocate=True)
    assert reopened.log.size_in_bytes() == old_size
    assert reopened.log.end == old_position
    info = reopened.read(55, 200)
    assert info is not None
    assert offsets_of(info.records) == [55, 56]


def test_append_from_file(segments: Segments, tmp_path: Path) -> None:
    """Copying batches from another file stops at the first offset the target segment cannot index."""
    source_dir = tmp_path / "source"
    source_dir.mkdir()
    source = FileRecords.open(source_dir / "00000000000000000000.log")
    try:
        source.append(records(0, "a", "b"))
        source.append(records(INT32_MAX - 1, "c", "d"))
        source.append(records(INT32_MAX + 5, "e"))
        seg = segments.create(0)
        appended = seg.append_from_file(source, 0)
        assert appended == records(0, "a", "b").size_in_bytes() + records(INT32_MAX - 1, "c", "d").size_in_bytes()
        assert seg.read_next_offset() == INT32_MAX + 1
        rest = segments.create(INT32_MAX + 5)
        assert rest.append_from_file(source, appended) == records(INT32_MAX + 5, "e").size_in_bytes()
        assert rest.read_next_offset() == INT32_MAX + 6
    finally:
        source.close()


def test_close_writes_final_time_index_entry(segments: Segments) -> None:
    """Close records the largest timestamp in the time index, so a reopened segment knows it without a scan."""
    seg = segments.create(0, index_interval_bytes=1_000_000)
    seg.append(0, 100, 0, records(0, "a", timestamp=100))
    seg.append(1, 500, 1, records(1, "b", timestamp=500))
    assert seg.time_index.entries == 0
    seg.close()
    reopened = segments.create(0, file_already_exists=True)
    assert reopened.time_index.last_entry.timestamp == 500
    assert reopened.time_index.last_entry.offset == 1
    assert reopened.max_timestamp_so_far == 500
    assert reopened.largest_record_timestamp == 500
    assert reopened.largest_timestamp == 500


def test_delete_and_last_modified(segments: Segments, tmp_path: Path) -> None:
    """set_last_modified sets the files' mtime; delete_if_exists removes all four files."""
    seg = segments.create(0)
    seg.append(0, NO_TIMESTAMP, -1, records(0, "a", timestamp=NO_TIMESTAMP))
    seg.update_txn_index(_Completed(3, 0, 0, True), 0)
    seg.set_last_modified(1_500_000_000_000)
    assert seg.last_modified == 1_500_000_000_000
    assert seg.largest_timestamp == 1_500_000_000_000
    assert seg.largest_record_timestamp is None
    assert "lastModifiedTime=1500000000000" in str(seg)
    files = [seg.log.file(), seg.lazy_offset_index.file, seg.lazy_time_index.file, seg.txn_index.file]
    assert all(f.exists() for f in files)
    seg.delete_if_exists()
    assert not any(f.exists() for f in files)


def test_module_delete_if_exists_removes_files_by_name(segments: Segments, tmp_path: Path) -> None:
    """The companion delete removes a segment's files given only its directory and base offset."""
    seg = segments.create(7)
    seg.append(7, NO_TIMESTAMP, -1, records(7, "a"))
    seg.close()
    log_segment_module.delete_if_exists(tmp_path, 7)
    assert list(tmp_path.iterdir()) == []


def test_update_txn_index_ignores_committed(segments: Segments) -> None:
    """Only aborted transactions are written to the transaction index."""
    seg = segments.create(0)
    seg.update_txn_index(_Completed(1, 0, 5, False), 0)
    seg.update_txn_index(_Completed(2, 3, 9, True), 3)
    assert [a.producer_id for a in seg.txn_index.all_aborted_txns()] == [2]


@dataclass(frozen=True)
class _Completed:
    producer_id: int
    first_offset: int
    last_offset: int
    is_aborted: bool


# ---- byte compatibility with an independent implementation of the format --------------------------


def _varint(value: int) -> bytes:
    """Zig-zag varint as in Kafka's ByteUtils.writeVarint / writeVarlong."""
    v = (value << 1) ^ (value >> 63)
    out = bytearray()
    while v & ~0x7F:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    shift = 0
    raw = 0
    while True:
        b = data[pos]
        pos += 1
        raw |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
    return (raw >> 1) ^ -(raw & 1), pos


def _encode_batch(
    base_offset: int, leader_epoch: int, base_ts: int, kvs: Sequence[tuple[bytes | None, bytes]]
) -> bytes:
    """A magic-2 batch, written from the format description: 61-byte header, CRC32C over attributes..end."""
    body = bytearray()
    for delta, (key, value) in enumerate(kvs):
        rec = bytearray()
        rec += b"\x00"  # attributes
        rec += _varint(delta)  # timestamp delta
        rec += _varint(delta)  # offset delta
        if key is None:
            rec += _varint(-1)
        else:
            rec += _varint(len(key)) + key
        rec += _varint(len(value)) + value
        rec += _varint(0)  # headers
        body += _varint(len(rec)) + rec
    last_delta = len(kvs) - 1
    after_crc = struct.pack(">hiqqqhii", 0, last_delta, base_ts, base_ts + last_delta, -1, -1, -1, len(kvs)) + bytes(
        body
    )
    crc = crc32c.crc32c(after_crc)
    batch_length = 4 + 1 + 4 + len(after_crc)  # leader epoch, magic, crc, rest
    return struct.pack(">qiibI", base_offset, batch_length, leader_epoch, 2, crc) + after_crc


def test_reads_segment_written_by_independent_writer(tmp_path: Path) -> None:
    """A .log and .index written byte by byte from Kafka's format description are read correctly by LogSegment."""
    batches = []
    offset = 100
    for _ in range(20):
        kvs = [(f"k{offset + i}".encode(), f"v{offset + i}".encode()) for i in range(3)]
        batches.append((offset, _encode_batch(offset, 4, 1_000 + offset, kvs)))
        offset += 3
    log_bytes = b"".join(b for _, b in batches)
    (tmp_path / "00000000000000000100.log").write_bytes(log_bytes)
    # A sparse index: every fifth batch, mapping its last offset to its position.
    index = bytearray()
    position = 0
    for n, (base, data) in enumerate(batches):
        if n % 5 == 0 and n > 0:
            index += struct.pack(">ii", base + 2 - 100, position)
        position += len(data)
    (tmp_path / "00000000000000000100.index").write_bytes(bytes(index))

    seg = LogSegment.open(tmp_path, 100, SegConfig(max_index_size=1024), MockTime(), file_already_exists=True)
    try:
        assert seg.offset_index.entries == 3
        assert seg.read_next_offset() == 160
        info = seg.read(131, 10_000)
        assert info is not None
        got = [(r.offset(), r.key(), r.value(), r.timestamp()) for b in info.records.batches() for r in b]
        assert got[0][0] == 130  # reads start at the batch holding 131
        assert got[1] == (131, b"k131", b"v131", 1_000 + 130 + 1)
        assert [g[0] for g in got] == list(range(130, 160))
        # The independent CRC is accepted: recovery keeps every byte and rebuilds an equivalent index.
        assert seg.recover(ProducerStateManager(TP, tmp_path)) == 0
        assert seg.translate_offset(131) is not None
        found = seg.find_offset_by_timestamp(1_000 + 145)
        assert found is not None
        assert found.offset == 145
    finally:
        seg.close_handlers()


def test_segment_bytes_parse_with_independent_reader(tmp_path: Path) -> None:
    """What LogSegment writes (.log and .index) parses with a minimal reader written from the format description."""
    seg = LogSegment.open(tmp_path, 1000, SegConfig(max_index_size=4096, index_interval=200), MockTime())
    expected: list[tuple[int, bytes]] = []
    offset = 1000
    for n in range(30):
        values = [f"value-{offset + i}-" + "x" * n for i in range(2)]
        seg.append(offset + 1, offset, offset, records(offset, *values, timestamp=offset, epoch=7))
        expected.extend((offset + i, v.encode()) for i, v in enumerate(values))
        offset += 2
    seg.on_become_inactive_segment()
    seg.close()

    data = (tmp_path / "00000000000000001000.log").read_bytes()
    pos = 0
    parsed = []
    batch_positions = {}
    while pos < len(data):
        base_offset, batch_length, leader_epoch, magic, crc = struct.unpack_from(">qiibI", data, pos)
        end = pos + 12 + batch_length
        assert magic == 2
        assert leader_epoch == 7
        assert crc32c.crc32c(data[pos + 21 : end]) == crc
        attributes, last_delta, _base_ts, max_ts, pid, pepoch, base_seq, count = struct.unpack_from(
            ">hiqqqhii", data, pos + 21
        )
        assert attributes == 0
        assert (pid, pepoch, base_seq) == (-1, -1, -1)
        assert max_ts == base_offset
        batch_positions[base_offset + last_delta] = pos
        rpos = pos + 61
        for _ in range(count):
            length, rpos = _read_varint(data, rpos)
            rend = rpos + length
            rpos += 1  # attributes
            _ts_delta, rpos = _read_varint(data, rpos)
            offset_delta, rpos = _read_varint(data, rpos)
            key_len, rpos = _read_varint(data, rpos)
            assert key_len == -1
            value_len, rpos = _read_varint(data, rpos)
            parsed.append((base_offset + offset_delta, data[rpos : rpos + value_len]))
            rpos = rend
        assert rpos == end
        pos = end
    assert parsed == expected

    index = (tmp_path / "00000000000000001000.index").read_bytes()
    assert len(index) % 8 == 0 and len(index) > 0
    for i in range(0, len(index), 8):
        rel, position = struct.unpack_from(">ii", index, i)
        # Each entry maps the last offset of the batch set appended at `position` to that position.
        assert batch_positions[1000 + rel] == position

    time_index = (tmp_path / "00000000000000001000.timeindex").read_bytes()
    assert len(time_index) % 12 == 0
    last_ts, last_rel = struct.unpack_from(">qi", time_index, len(time_index) - 12)
    assert (last_ts, 1000 + last_rel) == (1058, 1058)


# ---- the helpers a segment is built from -----------------------------------------------------------


def test_lazy_index_maps_only_on_first_use(tmp_path: Path) -> None:
    """A LazyIndex creates nothing until get(); rename and delete work on the bare file before loading."""
    from kafka.log.lazy_index import LazyIndex

    lazy = LazyIndex.for_offset(tmp_path / "00000000000000000000.index", 0, max_index_size=80)
    assert not lazy.is_loaded()
    assert not lazy.file.exists()
    # Renaming a file that was never created only changes the name.
    lazy.rename_to(tmp_path / "00000000000000000000.index.swap")
    assert lazy.file.name == "00000000000000000000.index.swap"
    assert not lazy.delete_if_exists()
    index = lazy.get()
    assert lazy.is_loaded()
    assert lazy.get() is index
    assert lazy.file.stat().st_size == 80
    index.append(3, 30)
    lazy.rename_to(tmp_path / "00000000000000000000.index")
    assert index.file == tmp_path / "00000000000000000000.index"
    lazy.close()
    assert (tmp_path / "00000000000000000000.index").stat().st_size == 8
    assert lazy.delete_if_exists()


def test_log_file_names() -> None:
    """Segment files are named by the 20-digit zero-padded base offset, and the offset is read back from the name."""
    from kafka.log import log_file_utils as lf

    assert lf.filename_prefix_from_offset(0) == "00000000000000000000"
    assert lf.filename_prefix_from_offset(2**63 - 1) == "09223372036854775807"
    assert lf.log_file("/d", 5).name == "00000000000000000005.log"
    assert lf.log_file("/d", 5, ".deleted").name == "00000000000000000005.log.deleted"
    assert lf.offset_index_file("/d", 5, ".swap").name == "00000000000000000005.index.swap"
    assert lf.time_index_file("/d", 5).name == "00000000000000000005.timeindex"
    assert lf.transaction_index_file("/d", 5, ".cleaned").name == "00000000000000000005.txnindex.cleaned"
    assert lf.producer_snapshot_file("/d", 42).name == "00000000000000000042.snapshot"
    assert lf.offset_from_file(Path("/d/00000000000000001234.log.deleted")) == 1234
    assert lf.is_index_file("00000000000000000005.timeindex")
    assert not lf.is_index_file("00000000000000000005.log")
    assert lf.is_log_file("/d/00000000000000000005.log")
    with pytest.raises(ValueError):
        lf.offset_from_file_name("leader-epoch-checkpoint")


def test_topic_partition_and_offset_metadata() -> None:
    """TopicPartition prints as topic-partition; LogOffsetMetadata compares segments and positions as Kafka does."""
    from kafka.common.errors import KafkaException
    from kafka.server.log_offset_metadata import LogOffsetMetadata

    assert str(TopicPartition("my-topic", 3)) == "my-topic-3"
    assert TopicPartition("a", 1) == TopicPartition("a", 1)
    assert len({TopicPartition("a", 1), TopicPartition("a", 1), TopicPartition("a", 2)}) == 2

    a = LogOffsetMetadata(10, 0, 100)
    b = LogOffsetMetadata(15, 0, 180)
    c = LogOffsetMetadata(20, 20, 0)
    assert b.offset_diff(a) == 5
    assert b.position_diff(a) == 80
    assert a.on_same_segment(b)
    assert a.on_older_segment(c)
    assert str(a) == "(offset=10 segment=[0:100])"
    assert LogOffsetMetadata.UNKNOWN_OFFSET_METADATA == LogOffsetMetadata(-1, 0, 0)
    only_offset = LogOffsetMetadata(7)
    assert only_offset.message_offset_only
    with pytest.raises(KafkaException, match="only has message offset info"):
        only_offset.on_same_segment(a)
    with pytest.raises(KafkaException, match="not on the same segment"):
        a.position_diff(c)
