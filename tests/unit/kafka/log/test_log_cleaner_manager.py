"""Tests for kafka.log.log_cleaner_manager, after Kafka's LogCleanerManagerTest."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import KafkaException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log import Log
from kafka.log.log_cleaner_manager import (
    LogCleanerManager,
    LogCleaningAborted,
    LogCleaningAbortedException,
    LogCleaningInProgress,
    LogCleaningPaused,
    cleanable_offsets,
    max_compaction_delay,
)
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.server.checkpoints.offset_checkpoint_file import OffsetCheckpointFile
from kafka.utils.mock_scheduler import MockScheduler
from kafka.utils.pool import Pool
from tests.utils import wait_until_true

START_MS = 1_700_000_000_000
TP = TopicPartition("t", 0)


class Env:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.time = MockTime(start_ms=START_MS)
        self.scheduler = MockScheduler(self.time)
        self.channel = LogDirFailureChannel(2)
        self.pool: Pool[TopicPartition, Log] = Pool()
        self.logs: list[Log] = []

    def log(self, tp: TopicPartition = TP, **props: Any) -> Log:
        config = {
            "cleanup.policy": "compact",
            "segment.bytes": 1024,
            **{k.replace("_", "."): v for k, v in props.items()},
        }
        log = Log.apply(
            self.tmp_path / f"{tp.topic}-{tp.partition}",
            LogConfig(config),
            0,
            0,
            self.scheduler,
            self.time,
            60 * 60 * 1000,
            10 * 60 * 1000,
            self.channel,
        )
        self.pool.put(tp, log)
        self.logs.append(log)
        return log

    def manager(self) -> LogCleanerManager:
        return LogCleanerManager([self.tmp_path], self.pool, self.channel)


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    e = Env(tmp_path)
    yield e
    for log in e.logs:
        try:
            log.close()
        except KafkaException:
            pass


def fill(log: Log, n: int, timestamp: int = START_MS, keys: int = 3) -> None:
    for i in range(n):
        built = MemoryRecords.with_records(
            CompressionType.NONE, SimpleRecord(timestamp, b"k%d" % (i % keys), b"v" * 100)
        )
        log.append_as_leader(MemoryRecords.readable_records(bytearray(built.buffer())), 0)


def test_cleanable_offsets_stop_at_active_segment(env: Env) -> None:
    """The dirty range starts at the checkpoint and ends at the active segment."""
    log = env.log()
    fill(log, 20)
    offsets = cleanable_offsets(log, 3, START_MS)
    assert (offsets.first_dirty_offset, offsets.first_uncleanable_dirty_offset) == (3, log.active_segment.base_offset)
    assert not offsets.force_update_checkpoint


def test_cleanable_offsets_reset_invalid_checkpoint(env: Env) -> None:
    """A checkpoint below the log start or beyond the log end is reset to the log start."""
    log = env.log()
    fill(log, 20)
    assert cleanable_offsets(log, 10_000, START_MS).force_update_checkpoint
    assert cleanable_offsets(log, 10_000, START_MS).first_dirty_offset == 0
    log.update_high_watermark(log.log_end_offset)
    from kafka.log.log_append_info import ClientRecordDeletion

    log.maybe_increment_log_start_offset(5, ClientRecordDeletion())
    reset = cleanable_offsets(log, 2, START_MS)
    assert (reset.first_dirty_offset, reset.force_update_checkpoint) == (5, True)


def test_min_compaction_lag_holds_back_recent_segments(env: Env) -> None:
    """Segments with records younger than min.compaction.lag.ms are not cleanable."""
    log = env.log(min_compaction_lag_ms=60_000)
    fill(log, 10, timestamp=START_MS - 120_000)
    recent_base = log.log_end_offset
    log.roll()
    fill(log, 10, timestamp=START_MS)
    offsets = cleanable_offsets(log, None, START_MS)
    assert offsets.first_uncleanable_dirty_offset == recent_base


def test_first_unstable_offset_bounds_cleaning(env: Env) -> None:
    """Cleaning never passes an open transaction."""
    log = env.log()
    fill(log, 5)
    txn = MemoryRecords.with_transactional_records(CompressionType.NONE, 9, 0, 0, SimpleRecord(START_MS, b"k", b"v"))
    log.append_as_leader(MemoryRecords.readable_records(bytearray(txn.buffer())), 0)
    log.roll()
    fill(log, 20)
    assert cleanable_offsets(log, None, START_MS).first_uncleanable_dirty_offset == 5


def test_max_compaction_delay(env: Env) -> None:
    """The delay counts from the first batch of the oldest dirty segment past max.compaction.lag.ms."""
    log = env.log(max_compaction_lag_ms=1000)
    fill(log, 10, timestamp=START_MS - 5000)
    log.roll()
    fill(log, 1)
    assert max_compaction_delay(log, 0, START_MS) == 4000
    assert max_compaction_delay(log, log.active_segment.base_offset, START_MS) == 0


def test_grab_filthiest_respects_ratio_and_states(env: Env) -> None:
    """Only logs above min.cleanable.dirty.ratio are chosen, the dirtiest first, and never one already in progress."""
    dirty = env.log(TopicPartition("t", 0), min_cleanable_dirty_ratio=0.1)
    fill(dirty, 30)
    lukewarm = env.log(TopicPartition("t", 1), min_cleanable_dirty_ratio=1.0)
    fill(lukewarm, 30)
    env.log(TopicPartition("t", 2), cleanup_policy="delete")
    manager = env.manager()
    chosen = manager.grab_filthiest_compacted_log(env.time)
    assert chosen is not None and chosen.topic_partition == TopicPartition("t", 0)
    assert chosen.cleanable_ratio == 1.0
    assert manager.cleaning_state(chosen.topic_partition) == LogCleaningInProgress()
    assert manager.grab_filthiest_compacted_log(env.time) is None
    manager.done_cleaning(chosen.topic_partition, env.tmp_path, dirty.active_segment.base_offset)
    assert manager.cleaning_state(chosen.topic_partition) is None
    assert manager.all_cleaner_checkpoints() == {TopicPartition("t", 0): dirty.active_segment.base_offset}
    # Fully cleaned now: the ratio is 0, nothing to do.
    assert manager.grab_filthiest_compacted_log(env.time) is None


def test_uncleanable_partition_is_skipped(env: Env) -> None:
    """A partition marked uncleanable is not chosen again."""
    log = env.log(min_cleanable_dirty_ratio=0.1)
    fill(log, 30)
    manager = env.manager()
    manager.mark_partition_uncleanable(log.parent_dir, TP)
    assert manager.uncleanable_partitions(log.parent_dir) == {TP}
    assert manager.grab_filthiest_compacted_log(env.time) is None


def test_pause_and_resume_counts(env: Env) -> None:
    """Pauses nest; each resume undoes one, and resuming an idle partition is an error."""
    env.log()
    manager = env.manager()
    manager.abort_and_pause_cleaning(TP)
    manager.abort_and_pause_cleaning(TP)
    assert manager.cleaning_state(TP) == LogCleaningPaused(2)
    manager.resume_cleaning([TP])
    assert manager.cleaning_state(TP) == LogCleaningPaused(1)
    manager.resume_cleaning([TP])
    assert manager.cleaning_state(TP) is None
    with pytest.raises(RuntimeError, match="not paused"):
        manager.resume_cleaning([TP])


def test_abort_waits_for_the_cleaner(env: Env) -> None:
    """Aborting an in-progress cleaning blocks until the cleaner reports done, then leaves it paused."""
    env.log()
    manager = env.manager()
    manager.set_cleaning_state(TP, LogCleaningInProgress())
    finished = threading.Event()

    def abort() -> None:
        manager.abort_and_pause_cleaning(TP)
        finished.set()

    aborter = threading.Thread(target=abort, name="test-aborter")
    aborter.start()
    wait_until_true(lambda: manager.cleaning_state(TP) == LogCleaningAborted(), "abort requested")
    with pytest.raises(LogCleaningAbortedException):
        manager.check_cleaning_aborted(TP)
    assert not finished.is_set()
    manager.done_cleaning(TP, env.tmp_path, 0)
    aborter.join(timeout=30)
    assert finished.is_set() and manager.cleaning_state(TP) == LogCleaningPaused(1)


def test_pause_for_retention_and_deletable_logs(env: Env) -> None:
    """Retention pauses idle non-compacted logs; the cleaner takes idle compacted logs for deletion."""
    compacted = TopicPartition("c", 0)
    deleted = TopicPartition("d", 0)
    env.log(compacted)
    env.log(deleted, cleanup_policy="delete")
    manager = env.manager()
    assert [tp for tp, _ in manager.pause_cleaning_for_non_compacted_partitions()] == [deleted]
    assert manager.cleaning_state(deleted) == LogCleaningPaused(1)
    assert [tp for tp, _ in manager.deletable_logs()] == [compacted]
    manager.done_deleting([compacted])
    assert manager.cleaning_state(compacted) is None


def test_checkpoint_updates(env: Env) -> None:
    """The cleaner checkpoint is written, truncated after log truncation, and drops removed partitions."""
    env.log()
    manager = env.manager()
    manager.update_checkpoints(env.tmp_path, partition_to_update_or_add=(TP, 50))
    checkpoint = OffsetCheckpointFile(env.tmp_path / "cleaner-offset-checkpoint")
    assert checkpoint.read() == {TP: 50}
    manager.maybe_truncate_checkpoint(env.tmp_path, TP, 20)
    assert checkpoint.read() == {TP: 20}
    manager.update_checkpoints(env.tmp_path, partition_to_remove=TP)
    assert checkpoint.read() == {}


def test_alter_checkpoint_dir_moves_entry(env: Env, tmp_path: Path) -> None:
    """Moving a partition's checkpoint entry between directories."""
    other = tmp_path / "other"
    other.mkdir()
    env.log()
    manager = LogCleanerManager([env.tmp_path, other], env.pool, env.channel)
    manager.update_checkpoints(env.tmp_path, partition_to_update_or_add=(TP, 7))
    manager.alter_checkpoint_dir(TP, env.tmp_path, other)
    assert OffsetCheckpointFile(env.tmp_path / "cleaner-offset-checkpoint").read() == {}
    assert OffsetCheckpointFile(other / "cleaner-offset-checkpoint").read() == {TP: 7}


def test_failed_dir_checkpoint_is_dropped(env: Env) -> None:
    """After a directory failure its checkpoint is no longer read or written."""
    env.log()
    manager = env.manager()
    manager.update_checkpoints(env.tmp_path, partition_to_update_or_add=(TP, 3))
    manager.handle_log_dir_failure(str(env.tmp_path))
    assert manager.all_cleaner_checkpoints() == {}
