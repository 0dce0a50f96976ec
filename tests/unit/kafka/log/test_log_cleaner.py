"""Tests for kafka.log.log_cleaner, after Kafka's LogCleanerTest and LogCleanerIntegrationTest."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import KafkaException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime, Time
from kafka.log.log import Log
from kafka.log.log_cleaner import Cleaner, CleanerConfig, LogCleaner, Throttler
from kafka.log.log_cleaner_manager import LogToClean
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_validator import Coordinator
from kafka.log.offset_map import SkimpyOffsetMap
from kafka.server.checkpoints.offset_checkpoint_file import OffsetCheckpointFile
from kafka.server.fetch_data_info import FetchLogEnd
from kafka.utils.mock_scheduler import MockScheduler
from kafka.utils.pool import Pool
from tests.utils import wait_until_true

START_MS = 1_700_000_000_000
TP = TopicPartition("compacted", 0)
INT64_MAX = 2**63 - 1
COMPACT = {"cleanup.policy": "compact", "segment.bytes": 1024, "file.delete.delay.ms": 0}


class Env:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.time = MockTime(start_ms=START_MS)
        self.scheduler = MockScheduler(self.time)
        self.channel = LogDirFailureChannel(2)
        self.logs: list[Log] = []

    def log(self, props: dict[str, Any] | None = None, name: str = "compacted-0") -> Log:
        log = Log.apply(
            self.tmp_path / name,
            LogConfig({**COMPACT, **(props or {})}),
            0,
            0,
            self.scheduler,
            self.time,
            60 * 60 * 1000,
            10 * 60 * 1000,
            self.channel,
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


def cleaner(map_memory: int = 64 * 1024, io_buffer: int = 64 * 1024) -> Cleaner:
    return Cleaner(
        0,
        SkimpyOffsetMap(map_memory),
        io_buffer,
        64 * 1024,
        0.75,
        Throttler(float("inf"), time=Time.SYSTEM),
        Time.SYSTEM,
        lambda tp: None,
    )


def keyed(key: bytes, value: bytes | None, timestamp: int = START_MS) -> MemoryRecords:
    built = MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(timestamp, key, value))
    return MemoryRecords.readable_records(bytearray(built.buffer()))


def all_records(log: Log) -> list[tuple[int, bytes | None, bytes | None]]:
    """Every record of the log, reading segment after segment."""
    out: list[tuple[int, bytes | None, bytes | None]] = []
    offset = log.log_start_offset
    while offset < log.log_end_offset:
        info = log.read(offset, 1 << 26, FetchLogEnd(), True)
        batches = list(info.records.batches())
        if not batches:
            break
        out.extend((r.offset(), r.key(), r.value()) for b in batches for r in b if r.offset() >= offset)
        offset = batches[-1].next_offset()
    return out


def latest_by_key(entries: list[tuple[int, bytes | None, bytes | None]]) -> dict[bytes | None, bytes | None]:
    latest: dict[bytes | None, bytes | None] = {}
    for _, k, v in entries:
        latest[k] = v
    return latest


def write_keys(log: Log, rounds: int, keys: int, value_size: int = 40) -> None:
    for r in range(rounds):
        for k in range(keys):
            log.append_as_leader(keyed(b"key-%d" % k, b"%d-%d-" % (r, k) + b"v" * value_size), 0)


def to_clean(log: Log, first_dirty: int = 0) -> LogToClean:
    return LogToClean(log.topic_partition, log, first_dirty, log.active_segment.base_offset)


def test_compaction_keeps_latest_value_per_key(env: Env) -> None:
    """After cleaning each key keeps only its last value, offsets are unchanged and the active segment is untouched."""
    log = env.log()
    write_keys(log, rounds=6, keys=5)
    before = all_records(log)
    active_base = log.active_segment.base_offset
    end_offset, stats = cleaner().clean(to_clean(log))
    assert end_offset == active_base
    after = all_records(log)
    assert latest_by_key(after) == latest_by_key(before)
    cleaned_part = [e for e in after if e[0] < active_base]
    cleaned_keys = [k for _, k, _ in cleaned_part]
    assert len(cleaned_keys) == len(set(cleaned_keys))
    assert [e for e in after if e[0] >= active_base] == [e for e in before if e[0] >= active_base]
    assert [o for o, _, _ in after] == sorted(o for o, _, _ in after)
    assert stats.messages_read == active_base and stats.messages_written == len(cleaned_part)
    assert log.size < sum(len(v or b"") for _, _, v in before) + 80 * len(before)
    assert not list(log.dir.glob("*.cleaned")) and not list(log.dir.glob("*.swap"))


def test_tombstones_kept_until_horizon(env: Env) -> None:
    """A tombstone survives a cleaning within the delete horizon and is removed with its key past it."""
    log = env.log()
    log.append_as_leader(keyed(b"gone", b"value"), 0)
    log.append_as_leader(keyed(b"kept", b"value"), 0)
    log.append_as_leader(keyed(b"gone", None), 0)
    log.roll()
    log.append_as_leader(keyed(b"other", b"x"), 0)
    cleaner().do_clean(to_clean(log), delete_horizon_ms=0)
    assert [(k, v) for _, k, v in all_records(log)] == [(b"kept", b"value"), (b"gone", None), (b"other", b"x")]
    cleaner().do_clean(to_clean(log), delete_horizon_ms=INT64_MAX)
    assert [(k, v) for _, k, v in all_records(log)] == [(b"kept", b"value"), (b"other", b"x")]


def test_delete_retention_measured_from_newest_clean_segment(env: Env) -> None:
    """clean() removes a tombstone only once its segment is delete.retention.ms older than the newest clean segment."""
    retention = 10_000
    log = env.log({"delete.retention.ms": retention})
    # Values large enough that two segments never fit one cleaned group.
    big = b"x" * 500
    log.append_as_leader(keyed(b"a", big), 0)
    log.append_as_leader(keyed(b"a", None), 0)
    log.roll()
    log.append_as_leader(keyed(b"b", big), 0)
    log.roll()
    log.append_as_leader(keyed(b"c", big), 0)
    log.roll()
    # First pass over everything: the value of `a` goes, its tombstone stays (nothing is clean yet).
    first_clean_end, _ = cleaner().clean(to_clean(log, 0))
    assert [(k, v) for _, k, v in all_records(log)][:1] == [(b"a", None)]
    log.append_as_leader(keyed(b"d", big), 0)
    log.roll()
    log.append_as_leader(keyed(b"e", big), 0)

    def clean_with_newest_clean_segment_at(delta_ms: int) -> None:
        tombstone_segment = log.log_segments()[0]
        newest_clean = log.log_segments(0, first_clean_end)[-1]
        base = START_MS
        tombstone_segment.set_last_modified(base)
        newest_clean.set_last_modified(base + delta_ms)
        cleaner().clean(to_clean(log, first_clean_end))

    clean_with_newest_clean_segment_at(retention // 2)
    assert (b"a", None) in [(k, v) for _, k, v in all_records(log)]
    clean_with_newest_clean_segment_at(2 * retention)
    assert b"a" not in [k for _, k, _ in all_records(log)]
    assert [k for _, k, _ in all_records(log)] == [b"b", b"c", b"d", b"e"]


def test_aborted_transaction_records_are_removed(env: Env) -> None:
    """Records of an aborted transaction are dropped by the cleaner regardless of their keys."""
    log = env.log()
    txn = MemoryRecords.with_transactional_records(
        CompressionType.NONE, 7, 0, 0, SimpleRecord(START_MS, b"t1", b"aborted"), SimpleRecord(START_MS, b"t2", b"x")
    )
    log.append_as_leader(MemoryRecords.readable_records(bytearray(txn.buffer())), 0)
    log.append_as_leader(keyed(b"plain", b"kept"), 0)
    marker = MemoryRecords.with_end_transaction_marker(7, 0, EndTransactionMarker(ControlRecordType.ABORT, 0))
    log.append_as_leader(MemoryRecords.readable_records(bytearray(marker.buffer())), 0, origin=Coordinator())
    log.roll()
    log.append_as_leader(keyed(b"later", b"1"), 0)
    log.update_high_watermark(log.log_end_offset)
    cleaner().do_clean(to_clean(log), delete_horizon_ms=INT64_MAX)
    keys = [k for _, k, _ in all_records(log)]
    assert b"t1" not in keys and b"t2" not in keys
    assert b"plain" in keys and b"later" in keys


def test_last_batch_of_active_producer_is_kept_empty(env: Env) -> None:
    """A live producer's last batch survives (without records) when all its records are superseded."""
    log = env.log()
    idem = MemoryRecords.with_idempotent_records(CompressionType.NONE, 11, 0, 0, SimpleRecord(START_MS, b"k", b"old"))
    log.append_as_leader(MemoryRecords.readable_records(bytearray(idem.buffer())), 0)
    log.append_as_leader(keyed(b"k", b"new"), 0)
    log.roll()
    log.append_as_leader(keyed(b"z", b"1"), 0)
    cleaner().do_clean(to_clean(log), delete_horizon_ms=0)
    batches = list(log.read(0, 1 << 20, FetchLogEnd(), True).records.batches())
    producer_batches = [b for b in batches if b.producer_id() == 11]
    assert len(producer_batches) == 1 and producer_batches[0].count_or_null() == 0
    assert [(k, v) for _, k, v in all_records(log)] == [(b"k", b"new"), (b"z", b"1")]
    # The producer continues its sequence after the cleaning.
    nxt = MemoryRecords.with_idempotent_records(CompressionType.NONE, 11, 0, 1, SimpleRecord(START_MS, b"k", b"v2"))
    log.append_as_leader(MemoryRecords.readable_records(bytearray(nxt.buffer())), 0)


def test_records_without_key_are_dropped(env: Env) -> None:
    """Keyless records (possible through replication) are counted invalid and removed."""
    log = env.log()
    keyless = MemoryRecords.with_records(
        CompressionType.NONE, SimpleRecord(START_MS, None, b"nokey"), partition_leader_epoch=0
    )
    log.append_as_follower(MemoryRecords.readable_records(bytearray(keyless.buffer())))
    log.append_as_leader(keyed(b"k", b"v"), 0)
    log.roll()
    log.append_as_leader(keyed(b"k2", b"v"), 0)
    _, stats = cleaner().do_clean(to_clean(log), delete_horizon_ms=0)
    assert stats.invalid_messages_read == 1
    assert [k for _, k, _ in all_records(log)] == [b"k", b"k2"]


def test_compressed_batches_are_cleaned(env: Env) -> None:
    """Compressed batches are recompressed with only their surviving records."""
    log = env.log({"segment.bytes": 4096})
    for r in range(3):
        built = MemoryRecords.with_records(
            CompressionType.GZIP, *(SimpleRecord(START_MS, b"k%d" % k, b"r%d" % r) for k in range(4))
        )
        log.append_as_leader(MemoryRecords.readable_records(bytearray(built.buffer())), 0)
    log.roll()
    log.append_as_leader(keyed(b"tail", b"t"), 0)
    cleaner().do_clean(to_clean(log), delete_horizon_ms=0)
    batches = list(log.read(0, 1 << 20, FetchLogEnd(), True).records.batches())
    assert batches[0].compression_type() is CompressionType.GZIP
    assert [(k, v) for _, k, v in all_records(log)][:4] == [(b"k%d" % k, b"r2") for k in range(4)]


def test_small_offset_map_cleans_in_passes(env: Env) -> None:
    """When the offset map fills up, cleaning stops at the mapped offset and continues in the next pass."""
    log = env.log({"segment.bytes": 2048})
    write_keys(log, rounds=2, keys=30, value_size=10)
    small = cleaner(map_memory=24 * 20)
    end1, _ = small.clean(to_clean(log))
    assert 0 < end1 < log.active_segment.base_offset
    end2, _ = small.clean(to_clean(log, end1))
    assert end2 > end1
    assert latest_by_key(all_records(log))[b"key-0"] == b"1-0-" + b"v" * 10


def test_group_segments_by_size(env: Env) -> None:
    """Consecutive small segments are grouped up to segment.bytes."""
    log = env.log({"segment.bytes": 1024})
    write_keys(log, rounds=4, keys=10, value_size=20)
    segments = log.log_segments()[:-1]
    groups = cleaner().group_segments_by_size(segments, 3000, 1 << 20, log.active_segment.base_offset)
    assert [s for g in groups for s in g] == segments
    assert all(sum(s.size for s in g) <= 3000 for g in groups)
    assert len(groups) < len(segments)


def test_cleaner_thread_compacts_in_background(env: Env) -> None:
    """A kafka-log-cleaner-thread picks the dirty log, cleans it, checkpoints it, and stops on shutdown."""
    log = env.log({"min.cleanable.dirty.ratio": 0.1})
    write_keys(log, rounds=5, keys=4)
    logs: Pool[TopicPartition, Log] = Pool()
    logs.put(TP, log)
    log_cleaner = LogCleaner(
        CleanerConfig(num_threads=1, dedupe_buffer_size=256 * 1024, io_buffer_size=128 * 1024, back_off_ms=20),
        [env.tmp_path],
        logs,
        env.channel,
        env.time,
    )
    log_cleaner.startup()
    try:
        assert [t.name for t in threading.enumerate() if t.name.startswith("kafka-log-cleaner-thread-")] == [
            "kafka-log-cleaner-thread-0"
        ]
        target = log.active_segment.base_offset
        assert log_cleaner.await_cleaned(TP, target, max_wait_ms=10_000)
        assert OffsetCheckpointFile(env.tmp_path / "cleaner-offset-checkpoint").read()[TP] == target
        cleaned = [e for e in all_records(log) if e[0] < target]
        assert len({k for _, k, _ in cleaned}) == len(cleaned)
        assert log_cleaner.dead_thread_count == 0
    finally:
        log_cleaner.shutdown()
    assert log_cleaner.cleaner_count == 0


def test_compact_delete_policy_also_applies_retention(env: Env) -> None:
    """With cleanup.policy=compact,delete the cleaner thread also deletes segments past retention.ms."""
    log = env.log({"cleanup.policy": "compact,delete", "retention.ms": 1000, "min.cleanable.dirty.ratio": 0.99})
    write_keys(log, rounds=3, keys=3)
    log.update_high_watermark(log.log_end_offset)
    env.time.sleep(5000)
    logs: Pool[TopicPartition, Log] = Pool()
    logs.put(TP, log)
    log_cleaner = LogCleaner(
        CleanerConfig(back_off_ms=20, dedupe_buffer_size=64 * 1024), [env.tmp_path], logs, env.channel, env.time
    )
    log_cleaner.startup()
    try:
        wait_until_true(lambda: log.number_of_segments == 1, "retention applied by the cleaner thread", timeout=10)
    finally:
        log_cleaner.shutdown()
    assert log.log_start_offset == log.log_end_offset


def test_abort_and_pause_stops_cleaning(env: Env) -> None:
    """A paused partition is not cleaned until resumed."""
    log = env.log({"min.cleanable.dirty.ratio": 0.1})
    write_keys(log, rounds=5, keys=4)
    logs: Pool[TopicPartition, Log] = Pool()
    logs.put(TP, log)
    log_cleaner = LogCleaner(
        CleanerConfig(back_off_ms=10, dedupe_buffer_size=64 * 1024), [env.tmp_path], logs, env.channel, env.time
    )
    log_cleaner.abort_and_pause_cleaning(TP)
    log_cleaner.startup()
    try:
        assert not log_cleaner.await_cleaned(TP, 1, max_wait_ms=300)
        log_cleaner.resume_cleaning([TP])
        assert log_cleaner.await_cleaned(TP, log.active_segment.base_offset, max_wait_ms=10_000)
    finally:
        log_cleaner.shutdown()


def test_throttler_sleeps_above_rate() -> None:
    """The throttler sleeps (on the injected clock) when bytes come faster than the desired rate."""
    time = MockTime(start_ms=START_MS)
    throttler = Throttler(1000.0, check_interval_ms=100, time=time)
    time.sleep(200)
    before = time.milliseconds()
    throttler.maybe_throttle(10_000)
    assert time.milliseconds() - before == 10_000 - 200
