"""Tests for kafka.log.log, after Kafka's LogTest: real segment files in tmp_path."""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import sys
import textwrap
import time as _time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import crc32c
import pytest

from kafka.common.errors import (
    CorruptRecordException,
    InvalidRecordException,
    KafkaException,
    KafkaStorageException,
    OffsetOutOfRangeException,
    OutOfOrderSequenceException,
    RecordTooLargeException,
)
from kafka.common.protocol.types import Uuid
from kafka.common.record.abstract_legacy_record_batch import ByteBufferLegacyRecordBatch
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import MAGIC_VALUE_V1
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    MAX_TIMESTAMP,
    Log,
    OffsetAndEpoch,
    OffsetsOutOfOrderException,
    UnexpectedAppendOffsetException,
)
from kafka.log.log_append_info import ClientRecordDeletion
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_validator import AppendOrigin, Client, Coordinator, RaftLeader, Replication
from kafka.server.fetch_data_info import FetchHighWatermark, FetchLogEnd, FetchTxnCommitted
from kafka.utils.mock_scheduler import MockScheduler
from tests.utils import wait_until_true

START_MS = 1_700_000_000_000
REPO = Path(__file__).resolve().parents[4]


class Env:
    """A MockTime, MockScheduler and failure channel shared by the logs of one test."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.time = MockTime(start_ms=START_MS)
        self.scheduler = MockScheduler(self.time)
        self.channel = LogDirFailureChannel(4)
        self.logs: list[Log] = []

    def create_log(
        self,
        props: dict[str, Any] | None = None,
        name: str = "topic-0",
        clean: bool = True,
        recovery_point: int = 0,
        log_start_offset: int = 0,
    ) -> Log:
        log = Log.apply(
            self.tmp_path / name,
            LogConfig(props or {}),
            log_start_offset,
            recovery_point,
            self.scheduler,
            self.time,
            60 * 60 * 1000,
            10 * 60 * 1000,
            self.channel,
            last_shutdown_clean=clean,
        )
        self.logs.append(log)
        return log


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    e = Env(tmp_path)
    yield e
    for log in e.logs:
        try:
            log.close()
        except KafkaException:
            pass


def records(
    *values: bytes,
    key: bytes | None = b"k",
    timestamp: int = START_MS,
    codec: CompressionType = CompressionType.NONE,
    **kwargs: Any,
) -> MemoryRecords:
    """One batch over a writable buffer, as a produce request delivers it."""
    simple = [SimpleRecord(timestamp, key, v) for v in values]
    built = MemoryRecords.with_records(codec, *simple, **kwargs)
    return MemoryRecords.readable_records(bytearray(built.buffer()))


def idempotent(pid: int, epoch: int, seq: int, *values: bytes) -> MemoryRecords:
    built = MemoryRecords.with_idempotent_records(
        CompressionType.NONE, pid, epoch, seq, *(SimpleRecord(START_MS, b"k", v) for v in values)
    )
    return MemoryRecords.readable_records(bytearray(built.buffer()))


def read_values(log: Log, start: int = 0, max_length: int = 1 << 30) -> list[tuple[int, bytes | None]]:
    out: list[tuple[int, bytes | None]] = []
    offset = start
    while offset < log.log_end_offset:
        info = log.read(offset, max_length, FetchLogEnd(), True)
        batch_records = [(r.offset(), r.value()) for r in info.records.records()]
        if not batch_records:
            break
        out.extend(r for r in batch_records if r[0] >= offset)
        offset = batch_records[-1][0] + 1
    return out


# ---- appends, reads, rolls -----------------------------------------------------------------------


def test_append_and_read_across_rolls(env: Env) -> None:
    """Appends get consecutive offsets, roll into new segments at segment.bytes, and read back intact."""
    log = env.create_log({"segment.bytes": 1024})
    for i in range(40):
        info = log.append_as_leader(records(b"v%03d" % i + b"x" * 60), leader_epoch=0)
        assert info.first_offset is not None and info.first_offset.message_offset == i and info.last_offset == i
    assert log.log_end_offset == 40
    assert log.number_of_segments > 3
    assert [s.base_offset for s in log.log_segments()] == sorted(s.base_offset for s in log.log_segments())
    assert [o for o, _ in read_values(log)] == list(range(40))
    assert read_values(log)[17][1] == b"v017" + b"x" * 60
    assert sorted(p.name for p in log.dir.glob("*.log"))[0] == "00000000000000000000.log"


def test_roll_by_segment_ms(env: Env) -> None:
    """A non-empty segment rolls once segment.ms has passed since its first batch."""
    log = env.create_log({"segment.ms": 1000})
    log.append_as_leader(records(b"a", timestamp=env.time.milliseconds()), 0)
    env.time.sleep(1001)
    log.append_as_leader(records(b"b", timestamp=env.time.milliseconds()), 0)
    assert [s.base_offset for s in log.log_segments()] == [0, 1]


def test_read_bounds(env: Env) -> None:
    """Reads at the end are empty, beyond it or below the start raise OffsetOutOfRangeException."""
    log = env.create_log()
    log.append_as_leader(records(b"a", b"b"), 0)
    at_end = log.read(2, 100, FetchLogEnd(), False)
    assert at_end.records.size_in_bytes() == 0 and at_end.fetch_offset_metadata.message_offset == 2
    with pytest.raises(OffsetOutOfRangeException):
        log.read(3, 100, FetchLogEnd(), False)
    log.update_high_watermark(2)
    log.maybe_increment_log_start_offset(1, ClientRecordDeletion())
    with pytest.raises(OffsetOutOfRangeException):
        log.read(0, 100, FetchLogEnd(), False)


def test_min_one_message_returns_whole_first_batch(env: Env) -> None:
    """A batch larger than max_length comes back whole with min_one_message; without it only a partial batch."""
    log = env.create_log()
    log.append_as_leader(records(b"x" * 500), 0)
    whole = log.read(0, 10, FetchLogEnd(), True)
    assert [r.value() for r in whole.records.records()] == [b"x" * 500]
    none = log.read(0, 10, FetchLogEnd(), False)
    assert none.first_entry_incomplete and none.records.size_in_bytes() == 10
    assert list(none.records.batches()) == []


def test_high_watermark_bounds_reads(env: Env) -> None:
    """FetchHighWatermark reads stop at the high watermark, which stays within [log start, log end]."""
    log = env.create_log()
    for i in range(5):
        log.append_as_leader(records(b"%d" % i), 0)
    assert log.update_high_watermark(3) == 3
    assert log.update_high_watermark(100) == 5
    log.update_high_watermark(3)
    info = log.read(0, 1 << 20, FetchHighWatermark(), False)
    assert [r.offset() for r in info.records.records()] == [0, 1, 2]


def test_message_too_large(env: Env) -> None:
    """A batch above max.message.bytes is a RecordTooLargeException and nothing is written."""
    log = env.create_log({"max.message.bytes": 200})
    with pytest.raises(RecordTooLargeException):
        log.append_as_leader(records(b"x" * 500), 0)
    assert log.log_end_offset == 0 and log.size == 0


def test_message_too_large_marks_bytes_rejected(env: Env) -> None:
    """The Log that refuses a batch over max.message.bytes marks BytesRejectedPerSec of its topic and of all topics
    with the size of the records as sent, as Kafka's Log does."""
    from kafka.server.kafka_request_handler import BrokerTopicStats

    log = env.create_log({"max.message.bytes": 200})
    stats = log.broker_topic_stats = BrokerTopicStats()
    try:
        too_large = records(b"x" * 500)
        # The meters are the process's ones (Yammer's default registry): the change is what counts.
        topic_before = stats.topic_stats("topic").bytes_rejected_rate.count
        all_before = stats.all_topics_stats.bytes_rejected_rate.count
        with pytest.raises(RecordTooLargeException):
            log.append_as_leader(too_large, 0)
        assert stats.topic_stats("topic").bytes_rejected_rate.count == topic_before + too_large.size_in_bytes()
        assert stats.all_topics_stats.bytes_rejected_rate.count == all_before + too_large.size_in_bytes()
    finally:
        stats.close()


def test_corrupt_batch_is_rejected(env: Env) -> None:
    """A batch whose CRC does not match is a CorruptRecordException."""
    log = env.create_log()
    bad = records(b"abc")
    bad.buffer()[-1] ^= 0xFF
    with pytest.raises(CorruptRecordException):
        log.append_as_leader(bad, 0)
    assert log.log_end_offset == 0


def test_client_batch_must_start_at_offset_zero(env: Env) -> None:
    """A client v2 batch with a non-zero base offset is an InvalidRecordException."""
    log = env.create_log()
    with pytest.raises(InvalidRecordException):
        log.append_as_leader(records(b"a", initial_offset=5), 0)


def test_recompression_and_log_append_time(env: Env) -> None:
    """compression.type=gzip and LogAppendTime are applied by the log before the segment write."""
    log = env.create_log({"compression.type": "gzip", "message.timestamp.type": "LogAppendTime"})
    info = log.append_as_leader(records(b"a", b"b"), 0)
    assert info.log_append_time == env.time.milliseconds()
    batch = next(iter(log.read(0, 1 << 20, FetchLogEnd(), False).records.batches()))
    assert batch.compression_type() is CompressionType.GZIP
    assert batch.timestamp_type() is TimestampType.LOG_APPEND_TIME


def test_old_message_format_topic_converts(env: Env) -> None:
    """A topic on message format 0.10.2 stores magic-1 message sets."""
    log = env.create_log({"message.format.version": "0.10.2"})
    log.append_as_leader(records(b"a", b"b"), 0)
    batches = list(log.read(0, 1 << 20, FetchLogEnd(), False).records.batches())
    assert [b.magic() for b in batches] == [MAGIC_VALUE_V1, MAGIC_VALUE_V1]
    assert log.leader_epoch_cache is None


# ---- idempotence and transactions ----------------------------------------------------------------


def test_duplicate_batch_returns_original_offsets(env: Env) -> None:
    """A retried idempotent batch is not appended again: the original offsets are returned."""
    log = env.create_log()
    log.append_as_leader(records(b"other"), 0)
    first = log.append_as_leader(idempotent(7, 0, 0, b"a", b"b"), 0)
    log.append_as_leader(idempotent(7, 0, 2, b"c"), 0)
    retry = log.append_as_leader(idempotent(7, 0, 0, b"a", b"b"), 0)
    assert first.first_offset is not None and retry.first_offset is not None
    assert (retry.first_offset.message_offset, retry.last_offset) == (1, 2)
    assert (first.first_offset.message_offset, first.last_offset) == (1, 2)
    assert log.log_end_offset == 4


def test_sequence_gap_is_out_of_order(env: Env) -> None:
    """A sequence gap is an OutOfOrderSequenceException and the log is unchanged."""
    log = env.create_log()
    log.append_as_leader(idempotent(7, 0, 0, b"a"), 0)
    with pytest.raises(OutOfOrderSequenceException):
        log.append_as_leader(idempotent(7, 0, 5, b"b"), 0)
    assert log.log_end_offset == 1


def test_producer_state_survives_restart(env: Env) -> None:
    """After a clean restart the producer state is loaded from the snapshot, so retries are still detected."""
    log = env.create_log()
    log.append_as_leader(idempotent(9, 1, 0, b"a"), 0)
    log.close()
    env.logs.remove(log)
    reopened = env.create_log()
    retry = reopened.append_as_leader(idempotent(9, 1, 0, b"a"), 0)
    assert retry.first_offset is not None and retry.first_offset.message_offset == 0
    assert reopened.log_end_offset == 1
    with pytest.raises(OutOfOrderSequenceException):
        reopened.append_as_leader(idempotent(9, 1, 3, b"b"), 0)


def test_producer_state_rebuilt_after_unclean_shutdown(env: Env) -> None:
    """Without a snapshot covering the end, recovery rebuilds producer state from the segments."""
    log = env.create_log({"segment.bytes": 400})
    for seq in range(6):
        log.append_as_leader(idempotent(3, 0, seq, b"v" * 100), 0)
    log.flush()
    for segment in log.log_segments():
        segment.close()
    env.logs.remove(log)
    for snapshot in log.dir.glob("*.snapshot"):
        snapshot.unlink()
    reopened = env.create_log({"segment.bytes": 400}, clean=False)
    assert reopened.active_producers_with_last_sequence() == {3: 5}
    reopened.append_as_leader(idempotent(3, 0, 6, b"next"), 0)


def transactional(pid: int, seq: int, *values: bytes) -> MemoryRecords:
    built = MemoryRecords.with_transactional_records(
        CompressionType.NONE, pid, 0, seq, *(SimpleRecord(START_MS, b"k", v) for v in values)
    )
    return MemoryRecords.readable_records(bytearray(built.buffer()))


def marker(pid: int, control: ControlRecordType) -> MemoryRecords:
    built = MemoryRecords.with_end_transaction_marker(pid, 0, EndTransactionMarker(control, 0), timestamp=START_MS)
    return MemoryRecords.readable_records(bytearray(built.buffer()))


def test_transactions_bound_lso_and_report_aborts(env: Env) -> None:
    """An open transaction holds the LSO back; an abort is listed for READ_COMMITTED readers."""
    log = env.create_log()
    log.append_as_leader(records(b"plain"), 0)
    log.append_as_leader(transactional(5, 0, b"t1", b"t2"), 0)
    log.update_high_watermark(log.log_end_offset)
    assert log.first_unstable_offset == 1 and log.last_stable_offset == 1
    committed = log.read(0, 1 << 20, FetchTxnCommitted(), False)
    assert [r.offset() for r in committed.records.records()] == [0]
    log.append_as_leader(marker(5, ControlRecordType.ABORT), 0, origin=Coordinator())
    log.update_high_watermark(log.log_end_offset)
    assert log.last_stable_offset == 4 and log.first_unstable_offset is None
    info = log.read(0, 1 << 20, FetchTxnCommitted(), False)
    assert info.aborted_transactions is not None
    assert [(t.producer_id, t.first_offset) for t in info.aborted_transactions] == [(5, 1)]
    assert [(t.producer_id, t.first_offset, t.last_offset) for t in log.collect_aborted_transactions(0, 4)] == [
        (5, 1, 3)
    ]


# ---- follower appends ----------------------------------------------------------------------------


def test_follower_append_keeps_offsets(env: Env) -> None:
    """A follower append keeps the leader's offsets and epoch; an offset below the end is refused."""
    log = env.create_log()
    log.append_as_follower(records(b"a", b"b", initial_offset=0, partition_leader_epoch=3))
    log.append_as_follower(records(b"c", initial_offset=2, partition_leader_epoch=4))
    assert log.log_end_offset == 3
    assert log.latest_epoch() == 4
    with pytest.raises(UnexpectedAppendOffsetException):
        log.append_as_follower(records(b"x", initial_offset=1))
    two = bytes(records(b"p", initial_offset=10).buffer()) + bytes(records(b"q", initial_offset=9).buffer())
    with pytest.raises(OffsetsOutOfOrderException):
        log.append_as_follower(MemoryRecords.readable_records(bytearray(two)))


def test_end_offset_for_epoch(env: Env) -> None:
    """OffsetsForLeaderEpoch: an epoch ends where the next one starts, the latest at the log end."""
    log = env.create_log()
    log.append_as_leader(records(b"a", b"b"), 0)
    log.append_as_leader(records(b"c"), 2)
    assert log.end_offset_for_epoch(0) == OffsetAndEpoch(2, 0)
    assert log.end_offset_for_epoch(1) == OffsetAndEpoch(2, 0)
    assert log.end_offset_for_epoch(2) == OffsetAndEpoch(3, 2)
    assert (log.dir / "leader-epoch-checkpoint").read_text().split("\n")[:4] == ["0", "2", "0 0", "2 2"]


# ---- timestamps ------------------------------------------------------------------------------------


def test_fetch_offset_by_timestamp_is_per_record(env: Env) -> None:
    """By-timestamp lookup finds the first record (not batch) at or after the target; -2/-1/-3 are special."""
    log = env.create_log({"segment.bytes": 300})
    t = START_MS
    for b in range(4):
        batch = [SimpleRecord(t + b * 100 + i * 10, b"k", b"v" * 20) for i in range(3)]
        built = MemoryRecords.with_records(CompressionType.NONE, *batch)
        log.append_as_leader(MemoryRecords.readable_records(bytearray(built.buffer())), 0)
    found = log.fetch_offset_by_timestamp(t + 115)
    assert found is not None and (found.offset, found.timestamp) == (5, t + 120)
    found = log.fetch_offset_by_timestamp(t + 10)
    assert found is not None and found.offset == 1
    assert log.fetch_offset_by_timestamp(t + 1000) is None
    earliest = log.fetch_offset_by_timestamp(EARLIEST_TIMESTAMP)
    latest = log.fetch_offset_by_timestamp(LATEST_TIMESTAMP)
    assert earliest is not None and latest is not None
    assert (earliest.offset, latest.offset, latest.leader_epoch) == (0, 12, 0)


def test_max_timestamp_points_at_the_record(env: Env) -> None:
    """MAX_TIMESTAMP gives the record holding the largest timestamp, even in the middle of a batch."""
    log = env.create_log()
    batch = [SimpleRecord(START_MS + ts, b"k", b"v") for ts in (5, 50, 7)]
    built = MemoryRecords.with_records(CompressionType.NONE, *batch)
    log.append_as_leader(MemoryRecords.readable_records(bytearray(built.buffer())), 0)
    log.append_as_leader(records(b"later", timestamp=START_MS + 20), 0)
    found = log.fetch_offset_by_timestamp(MAX_TIMESTAMP)
    assert found is not None and (found.offset, found.timestamp) == (1, START_MS + 50)


# ---- retention -------------------------------------------------------------------------------------


def fill(log: Log, n: int, timestamp: int | None = None, size: int = 100) -> None:
    for i in range(n):
        log.append_as_leader(records(b"%d" % i + b"x" * size, timestamp=timestamp or START_MS), 0)
    log.update_high_watermark(log.log_end_offset)


def test_retention_by_time(env: Env) -> None:
    """Segments whose largest timestamp is older than retention.ms are deleted and the log start moves."""
    log = env.create_log({"segment.bytes": 500, "retention.ms": 10_000, "file.delete.delay.ms": 1000})
    fill(log, 10, timestamp=START_MS)
    env.time.sleep(5_000)
    fill(log, 10, timestamp=START_MS + 5_000)
    old_segments = [s for s in log.log_segments() if s.largest_timestamp == START_MS]
    env.time.sleep(6_000)
    deleted = log.delete_old_segments()
    assert deleted == len(old_segments) > 0
    assert log.log_start_offset == log.log_segments()[0].base_offset > 0
    assert list(log.dir.glob("*.deleted"))
    env.time.sleep(1001)
    assert not list(log.dir.glob("*.deleted"))


def test_retention_by_size(env: Env) -> None:
    """Oldest segments go until the log is within retention.bytes."""
    log = env.create_log({"segment.bytes": 500, "retention.bytes": 1000})
    fill(log, 30)
    before = log.number_of_segments
    log.delete_old_segments()
    assert log.size <= 1000 + 500
    assert log.number_of_segments < before
    assert log.read(log.log_start_offset, 100, FetchLogEnd(), True).records.size_in_bytes() > 0


def test_retention_never_passes_high_watermark(env: Env) -> None:
    """Segments at or above the high watermark are kept even when retention would delete them."""
    log = env.create_log({"segment.bytes": 500, "retention.ms": 1})
    fill(log, 20)
    log.update_high_watermark(0)
    env.time.sleep(10)
    assert log.delete_old_segments() == 0


def test_retention_by_log_start_offset(env: Env) -> None:
    """DeleteRecords moves the log start offset; segments wholly below it are deleted even for compacted topics."""
    log = env.create_log({"segment.bytes": 500, "cleanup.policy": "compact"})
    fill(log, 20)
    target = log.log_segments()[2].base_offset + 1
    assert log.maybe_increment_log_start_offset(target, ClientRecordDeletion())
    assert log.delete_old_segments() == 2
    assert log.log_segments()[0].base_offset < target
    with pytest.raises(OffsetOutOfRangeException):
        log.maybe_increment_log_start_offset(log.high_watermark + 1, ClientRecordDeletion())


def test_all_segments_deleted_rolls_first(env: Env) -> None:
    """When every segment expires a new empty active segment remains at the log end offset."""
    log = env.create_log({"retention.ms": 1})
    fill(log, 3)
    env.time.sleep(10)
    assert log.delete_old_segments() == 1
    assert [s.base_offset for s in log.log_segments()] == [3]
    assert log.log_start_offset == 3 and log.log_end_offset == 3


# ---- truncation ------------------------------------------------------------------------------------


def test_truncate_to(env: Env) -> None:
    """Truncation removes offsets >= target across segments, and appends continue from there."""
    log = env.create_log({"segment.bytes": 500})
    fill(log, 20)
    assert log.truncate_to(7)
    assert log.log_end_offset == 7 and log.high_watermark == 7
    assert [o for o, _ in read_values(log)] == list(range(7))
    assert log.append_as_leader(records(b"after"), 0).last_offset == 7
    assert not log.truncate_to(100)


def test_truncate_fully_and_start_at(env: Env) -> None:
    """Full truncation empties the log and starts it at the given offset."""
    log = env.create_log()
    fill(log, 5)
    log.truncate_fully_and_start_at(100)
    assert (log.log_start_offset, log.log_end_offset, log.number_of_segments) == (100, 100, 1)
    assert log.append_as_leader(records(b"x"), 0).last_offset == 100


# ---- recovery --------------------------------------------------------------------------------------


def close_without_snapshot(env: Env, log: Log) -> None:
    """Leave the files as a crash would after the appends were written (no final snapshot, no marker)."""
    for segment in log.log_segments():
        segment.close_handlers()
    env.logs.remove(log)


def test_recovery_cuts_truncated_tail(env: Env) -> None:
    """A last batch cut off mid-way (partial write) is dropped by recovery; everything before it stays."""
    log = env.create_log()
    fill(log, 10)
    log.flush()
    close_without_snapshot(env, log)
    segment_file = log.dir / "00000000000000000000.log"
    size = segment_file.stat().st_size
    with open(segment_file, "r+b") as f:
        f.truncate(size - 30)
    reopened = env.create_log(clean=False)
    assert reopened.log_end_offset == 9
    assert [o for o, _ in read_values(reopened)] == list(range(9))
    assert reopened.append_as_leader(records(b"again"), 0).last_offset == 9


def test_recovery_cuts_at_corrupted_batch(env: Env) -> None:
    """A byte flipped inside a batch (CRC mismatch) truncates the log at that batch, across segments."""
    log = env.create_log({"segment.bytes": 1000})
    fill(log, 20)
    close_without_snapshot(env, log)
    first = log.dir / "00000000000000000000.log"
    batch_size = first.stat().st_size // len(read_values_of_file(first))
    with open(first, "r+b") as f:
        f.seek(batch_size * 3 + 70)
        byte = f.read(1)
        f.seek(batch_size * 3 + 70)
        f.write(bytes([byte[0] ^ 0xFF]))
    reopened = env.create_log({"segment.bytes": 1000}, clean=False)
    assert reopened.log_end_offset == 3
    assert reopened.number_of_segments == 1
    assert [o for o, _ in read_values(reopened)] == [0, 1, 2]


def read_values_of_file(path: Path) -> list[int]:
    from kafka.common.record.file_records import FileRecords

    fr = FileRecords.open(path, mutable=False, file_already_exists=True)
    try:
        return [b.last_offset() for b in fr.batches()]
    finally:
        fr.close_handlers()


def test_clean_shutdown_skips_recovery(env: Env) -> None:
    """After a clean shutdown the segments are not re-read: the recovery point is the log end."""
    log = env.create_log({"segment.bytes": 500})
    fill(log, 10)
    log.close()
    env.logs.remove(log)
    reopened = env.create_log({"segment.bytes": 500}, clean=True)
    assert reopened.log_end_offset == 10 and reopened.recovery_point == 10
    unclean = Path(reopened.dir)
    assert unclean.exists()


def test_recovery_rebuilds_missing_index(env: Env) -> None:
    """A segment whose offset index is missing is recovered and its index rebuilt."""
    log = env.create_log({"segment.bytes": 1000, "index.interval.bytes": 1})
    fill(log, 20)
    log.close()
    env.logs.remove(log)
    (log.dir / "00000000000000000000.index").unlink()
    reopened = env.create_log({"segment.bytes": 1000, "index.interval.bytes": 1})
    assert (reopened.dir / "00000000000000000000.index").exists()
    assert [o for o, _ in read_values(reopened)] == list(range(20))


def test_stray_temp_files_are_removed_and_swap_completed(env: Env) -> None:
    """Leftover .deleted/.cleaned files go at load; a .swap log file replaces its segment."""
    log = env.create_log({"segment.bytes": 1000})
    fill(log, 5)
    log.close()
    env.logs.remove(log)
    (log.dir / "00000000000000000099.log.deleted").write_bytes(b"junk")
    (log.dir / "00000000000000000050.log.cleaned").write_bytes(b"junk")
    seg = log.dir / "00000000000000000000.log"
    os.rename(seg, str(seg) + ".swap")
    reopened = env.create_log({"segment.bytes": 1000})
    names = sorted(p.name for p in reopened.dir.iterdir())
    assert not [n for n in names if n.endswith((".deleted", ".cleaned", ".swap"))]
    assert [o for o, _ in read_values(reopened)] == list(range(5))


CRASH_SCRIPT = textwrap.dedent(
    """
    import sys
    from kafka.common.record.compression_type import CompressionType
    from kafka.common.record.memory_records import MemoryRecords
    from kafka.common.record.simple_record import SimpleRecord
    from kafka.common.utils.time import MockTime
    from kafka.log.log import Log
    from kafka.log.log_config import LogConfig
    from kafka.log.log_dir_failure_channel import LogDirFailureChannel
    from kafka.utils.mock_scheduler import MockScheduler

    time = MockTime()
    log = Log.apply(sys.argv[1], LogConfig({"segment.bytes": 65536}), 0, 0, MockScheduler(time), time,
                    3600000, 600000, LogDirFailureChannel(1), last_shutdown_clean=False)
    i = 0
    while True:
        recs = [SimpleRecord(time.milliseconds(), b"%d" % (i + j), b"value-%d-" % (i + j) + b"x" * 300)
                for j in range(3)]
        built = MemoryRecords.with_idempotent_records(CompressionType.NONE, 42, 0, i, *recs)
        log.append_as_leader(MemoryRecords.readable_records(bytearray(built.buffer())), 0)
        i += 3
        if i % 30 == 0:
            log.flush()
            print("ACK", log.log_end_offset, flush=True)
    """
)


def test_sigkill_mid_append_keeps_every_flushed_batch(env: Env) -> None:
    """A process SIGKILLed while appending loses nothing it had flushed and acknowledged; the log recovers."""
    log_dir = env.tmp_path / "crash-0"
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH_SCRIPT, str(log_dir)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": f"{REPO / 'core'}{os.pathsep}{REPO / 'clients'}"},
        cwd=REPO,
    )
    acked = 0
    buffer = b""
    deadline = _time.monotonic() + 60
    try:
        assert proc.stdout is not None
        while acked < 600 and _time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if not ready:
                assert proc.poll() is None, "appending process died on its own"
                continue
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, "appending process closed its output"
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                acked = max(acked, int(line.split()[1]))
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    assert acked >= 600
    reopened = env.create_log({"segment.bytes": 65536}, name="crash-0", clean=False)
    assert reopened.log_end_offset >= acked
    assert reopened.number_of_segments > 1
    values = read_values(reopened)
    assert [o for o, _ in values] == list(range(reopened.log_end_offset))
    assert all(v == b"value-%d-" % o + b"x" * 300 for o, v in values)
    # Producer state was rebuilt from the data: the producer continues where the log ends.
    next_seq = reopened.log_end_offset
    reopened.append_as_leader(idempotent(42, 0, next_seq, b"after-crash"), 0)


# ---- failure of the directory ------------------------------------------------------------------------


def test_disk_full_takes_dir_offline(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC during an append becomes KafkaStorageException, reports the directory offline and fences the log."""
    log = env.create_log()
    log.append_as_leader(records(b"ok"), 0)
    real_pwrite = os.pwrite

    def full_disk(fd: int, data: Any, offset: int) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full_disk)
    with pytest.raises(KafkaStorageException) as raised:
        log.append_as_leader(records(b"lost"), 0)
    # The message names the partition and the directory; the OSError is its cause.
    assert str(raised.value).startswith(f"Error while appending records to {log.topic_partition} in dir ")
    assert isinstance(raised.value.__cause__, OSError) and raised.value.__cause__.errno == errno.ENOSPC
    monkeypatch.setattr(os, "pwrite", real_pwrite)
    assert env.channel.take_next_offline_log_dir(timeout_s=1) == str(env.tmp_path)
    with pytest.raises(KafkaStorageException, match="offline"):
        log.append_as_leader(records(b"later"), 0)
    with pytest.raises(KafkaStorageException):
        log.read(0, 100, FetchLogEnd(), False)
    log.close_handlers()
    env.logs.remove(log)


# ---- directory names, metadata, rename, delete ---------------------------------------------------------


def test_parse_topic_partition_name() -> None:
    """Directory names parse as Kafka does, with -delete and -future forms; bad names raise KafkaException."""
    assert Log.parse_topic_partition_name(Path("/d/my-topic-3")) == TopicPartition("my-topic", 3)
    delete_name = Log.log_delete_dir_name(TopicPartition("t", 1))
    assert delete_name.startswith("t-1.") and delete_name.endswith("-delete")
    assert Log.parse_topic_partition_name(Path(delete_name)) == TopicPartition("t", 1)
    future_name = Log.log_future_dir_name(TopicPartition("t", 2))
    assert Log.parse_topic_partition_name(Path(future_name)) == TopicPartition("t", 2)
    for bad in ("topic", "topic-", "-1", "topic-x", "topic-1.abc-delete-", "t-1-delete"):
        with pytest.raises(KafkaException):
            Log.parse_topic_partition_name(Path(bad))
    long_topic = "x" * 300
    assert len(Log.log_delete_dir_name(TopicPartition(long_topic, 0))) == 255


def test_partition_metadata_file(env: Env) -> None:
    """The topic id is written to partition.metadata (version 0 text) before the next append and read on reopen."""
    log = env.create_log()
    topic_id = Uuid.random_uuid()
    log.assign_topic_id(topic_id)
    log.append_as_leader(records(b"a"), 0)
    assert (log.dir / "partition.metadata").read_text() == f"version: 0\ntopic_id: {topic_id}"
    log.close()
    env.logs.remove(log)
    assert env.create_log().topic_id == topic_id


def test_rename_dir_keeps_serving(env: Env) -> None:
    """After renaming the directory (as for deletion) the log's files follow and reads still work."""
    log = env.create_log()
    fill(log, 3)
    log.rename_dir(Log.log_delete_dir_name(log.topic_partition))
    assert log.dir.name.endswith("-delete") and log.dir.exists()
    assert [o for o, _ in read_values(log)] == [0, 1, 2]
    log.append_as_leader(records(b"more"), 0)
    log.delete()
    env.logs.remove(log)
    assert not log.dir.exists()


def test_periodic_flush_by_messages(env: Env) -> None:
    """flush.messages makes the log flush and move its recovery point during appends."""
    log = env.create_log({"flush.messages": 2})
    log.append_as_leader(records(b"a"), 0)
    assert log.recovery_point == 0
    log.append_as_leader(records(b"b"), 0)
    assert log.recovery_point == 2


def test_producer_expiration_task(env: Env) -> None:
    """The PeriodicProducerExpirationCheck task forgets idle producers."""
    log = env.create_log()
    log.append_as_leader(idempotent(1, 0, 0, b"a"), 0)
    env.time.sleep(60 * 60 * 1000 + 10 * 60 * 1000)
    wait_until_true(lambda: log.active_producers_with_last_sequence() == {}, "producer expired", timeout=2)


def test_unsupported_timestamp_lookup_on_v0(env: Env) -> None:
    """Timestamp lookups need message format 0.10.0 or later."""
    from kafka.common.errors import UnsupportedForMessageFormatException

    log = env.create_log({"message.format.version": "0.9.0"})
    with pytest.raises(UnsupportedForMessageFormatException):
        log.fetch_offset_by_timestamp(START_MS)
    earliest = log.fetch_offset_by_timestamp(EARLIEST_TIMESTAMP)
    assert earliest is not None and earliest.offset == 0


def _analysis_shapes() -> list[tuple[str, bytes]]:
    """Record sets a Produce or a replica fetch can bring, valid and not, for the append's analysis."""

    def raw(recs: MemoryRecords) -> bytes:
        return bytes(recs.buffer())

    def with_crc(data: bytearray) -> bytes:
        data[17:21] = crc32c.crc32c(bytes(data[21:])).to_bytes(4, "big")
        return bytes(data)

    plain = raw(records(b"a"))
    corrupt = bytearray(plain)
    corrupt[-1] ^= 0xFF
    unknown_codec = bytearray(plain)
    unknown_codec[21:23] = (5).to_bytes(2, "big")
    short_length = bytearray(plain)
    marker = MemoryRecords.with_end_transaction_marker(
        5, 1, EndTransactionMarker(ControlRecordType.COMMIT, 0), partition_leader_epoch=7
    )
    return [
        ("empty", b""),
        ("one v2 batch", plain),
        ("v2 with leader epoch 7", raw(records(b"a", b"b", partition_leader_epoch=7))),
        ("gzip", raw(records(b"a", b"b", codec=CompressionType.GZIP))),
        ("lz4 at offset 3", raw(records(b"a", codec=CompressionType.LZ4, initial_offset=3))),
        ("idempotent", raw(idempotent(5, 1, 0, b"a", b"b"))),
        (
            "transactional",
            raw(
                MemoryRecords.with_transactional_records(
                    CompressionType.NONE, 5, 1, 0, SimpleRecord(START_MS, b"k", b"v")
                )
            ),
        ),
        ("control marker", raw(marker)),
        ("base offset 5", raw(records(b"a", initial_offset=5))),
        ("two v2 batches", plain + raw(records(b"b", initial_offset=1, partition_leader_epoch=7))),
        ("two v2 batches, not monotonic", plain + plain),
        ("too large", raw(records(b"x" * 500))),
        ("corrupt crc", bytes(corrupt)),
        ("unknown codec", with_crc(unknown_codec)),
        ("length field short", bytes(short_length[:8]) + (49).to_bytes(4, "big") + bytes(short_length[12:])),
        ("trailing partial batch", plain + plain[:30]),
        ("magic 0", raw(records(b"a", b"b", magic=0))),
        ("magic 1 gzip", raw(records(b"a", b"b", magic=1, codec=CompressionType.GZIP))),
        ("magic 1 then v2", raw(records(b"a", magic=1)) + raw(records(b"b", initial_offset=1))),
        ("v2 then magic 1", plain + raw(records(b"b", magic=1, initial_offset=1))),
    ]


@pytest.mark.parametrize("origin", [Client(), Replication(), RaftLeader(), Coordinator()], ids=type)
@pytest.mark.parametrize("ignore_record_size", [False, True])
def test_append_analysis_reads_a_v2_header_once_with_the_same_outcome(
    env: Env, monkeypatch: pytest.MonkeyPatch, origin: AppendOrigin, ignore_record_size: bool
) -> None:
    """The append's size, CRC and offset checks read a v2 batch's header once (header_fields); every other batch
    through its accessors. Forcing every batch through the accessors gives the same LogAppendInfo or the same
    exception and message, for each shape; a walk that ended without an error is what later walks of the records
    return (the same batch objects), and a failed one leaves them walking the bytes."""
    import kafka.log.log as log_module

    log = env.create_log({"max.message.bytes": 400})

    class NoV2Batch:
        pass

    for name, data in _analysis_shapes():
        outcomes: list[tuple[type[Exception] | None, str]] = []
        for generic in (False, True):
            if generic:
                monkeypatch.setattr(log_module, "DefaultRecordBatch", NoV2Batch)
            recs = MemoryRecords.readable_records(bytearray(data))
            gathered: list[Any] = []
            try:
                info = log._analyze_and_validate_records(recs, gathered, origin, ignore_record_size, 7)
            except Exception as e:
                outcomes.append((type(e), str(e)))
                assert not isinstance(recs.batches(), tuple), name
            else:
                outcomes.append((None, repr(info)))
                assert list(recs.batches()) == gathered and all(
                    a is b for a, b in zip(recs.batches(), gathered, strict=True)
                ), name
                fresh = MemoryRecords.readable_records(bytearray(data))
                # v2 or legacy batches, both with the buffer() that MutableRecordBatch does not declare.
                assert [
                    bytes(cast("DefaultRecordBatch | ByteBufferLegacyRecordBatch", b).buffer())
                    for b in recs.batch_iterator()
                ] == [
                    bytes(cast("DefaultRecordBatch | ByteBufferLegacyRecordBatch", b).buffer()) for b in fresh.batches()
                ], name
            monkeypatch.undo()
        assert outcomes[0] == outcomes[1], name
