"""Tests for kafka.log.log_manager, after Kafka's LogManagerTest: real directories in tmp_path."""

from __future__ import annotations

import errno
import logging
import os
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import KafkaException, KafkaStorageException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log import Log
from kafka.log.log_cleaner import CleanerConfig
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_manager import INITIAL_TASK_DELAY_MS, LogManager
from kafka.server.checkpoints.offset_checkpoint_file import OffsetCheckpointFile
from kafka.server.fetch_data_info import FetchLogEnd
from kafka.utils.mock_scheduler import MockScheduler

START_MS = 1_700_000_000_000
TP = TopicPartition("topic", 0)


class FakeConfigRepository:
    """Topic overrides as ZooKeeper's /config/topics would give them."""

    def __init__(self, configs: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.configs = dict(configs or {})

    def topic_config(self, topic: str) -> Mapping[str, Any]:
        return self.configs.get(topic, {})


class Env:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.time = MockTime(start_ms=START_MS)
        self.scheduler = MockScheduler(self.time)
        self.channel = LogDirFailureChannel(4)
        self.managers: list[LogManager] = []
        self.halted: list[int] = []

    def create(
        self,
        dirs: list[Path] | None = None,
        props: dict[str, Any] | None = None,
        repository: FakeConfigRepository | None = None,
        recovery_threads: int = 1,
        cleaner: CleanerConfig | None = None,
        start: bool = True,
        channel: LogDirFailureChannel | None = None,
    ) -> LogManager:
        manager = LogManager(
            log_dirs=dirs or [self.tmp_path / "data"],
            initial_offline_dirs=[],
            config_repository=repository or FakeConfigRepository(),
            initial_default_config=LogConfig(props or {}),
            cleaner_config=cleaner or CleanerConfig(enable_cleaner=False),
            recovery_threads_per_data_dir=recovery_threads,
            flush_check_ms=1000,
            flush_recovery_offset_checkpoint_ms=10_000,
            flush_start_offset_checkpoint_ms=10_000,
            retention_check_ms=1000,
            max_pid_expiration_ms=60 * 60 * 1000,
            scheduler=self.scheduler,
            log_dir_failure_channel=channel or self.channel,
            time=self.time,
            halt=self.halted.append,
        )
        self.managers.append(manager)
        if start:
            manager.startup([])
        return manager

    def shutdown(self, manager: LogManager) -> None:
        manager.shutdown()
        self.managers.remove(manager)


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    e = Env(tmp_path)
    yield e
    for manager in list(e.managers):
        try:
            manager.shutdown()
        except KafkaException:
            pass


def records(*values: bytes, timestamp: int = START_MS) -> MemoryRecords:
    built = MemoryRecords.with_records(CompressionType.NONE, *(SimpleRecord(timestamp, b"k", v) for v in values))
    return MemoryRecords.readable_records(bytearray(built.buffer()))


def values(log: Log) -> list[bytes | None]:
    info = log.read(log.log_start_offset, 1 << 24, FetchLogEnd(), True)
    return [r.value() for r in info.records.records()]


def test_create_log_and_lock_directory(env: Env) -> None:
    """A created log lives in topic-partition under the log dir, which is locked against a second manager."""
    manager = env.create()
    log = manager.get_or_create_log(TP, is_new=True)
    log.append_as_leader(records(b"a"), 0)
    assert log.dir == env.tmp_path / "data" / "topic-0"
    assert manager.get_or_create_log(TP) is log
    assert (env.tmp_path / "data" / ".lock").exists()
    with pytest.raises(KafkaException, match="Failed to acquire lock"):
        env.create(start=False)


def test_new_logs_go_to_least_loaded_dir(env: Env) -> None:
    """Partitions are spread over log.dirs, each new one going to the directory holding the fewest."""
    dirs = [env.tmp_path / "a", env.tmp_path / "b", env.tmp_path / "c"]
    manager = env.create(dirs=dirs)
    for p in range(6):
        manager.get_or_create_log(TopicPartition("t", p), is_new=True)
    counts = {d.name: len([x for x in d.iterdir() if x.is_dir()]) for d in dirs}
    assert counts == {"a": 2, "b": 2, "c": 2}


def test_topic_overrides_from_config_repository(env: Env) -> None:
    """A topic's overrides from the config repository are applied on top of the defaults."""
    repository = FakeConfigRepository({"topic": {"segment.bytes": 2048, "cleanup.policy": "compact"}})
    manager = env.create(props={"segment.bytes": 1 << 20}, repository=repository)
    log = manager.get_or_create_log(TP, is_new=True)
    assert log.config.segment_size == 2048 and log.config.compact
    other = manager.get_or_create_log(TopicPartition("other", 0), is_new=True)
    assert other.config.segment_size == 1 << 20


def test_clean_shutdown_writes_marker_and_checkpoints(env: Env) -> None:
    """Shutdown flushes, closes and checkpoints every log and leaves the clean shutdown marker."""
    data = env.tmp_path / "data"
    manager = env.create(props={"segment.bytes": 500})
    log = manager.get_or_create_log(TP, is_new=True)
    for i in range(10):
        log.append_as_leader(records(b"%d" % i + b"x" * 100), 0)
    log.update_high_watermark(10)
    log.maybe_increment_log_start_offset(log.log_segments()[1].base_offset + 1, _deletion())
    start = log.log_start_offset
    env.shutdown(manager)
    assert (data / ".kafka_cleanshutdown").exists()
    assert OffsetCheckpointFile(data / "recovery-point-offset-checkpoint").read() == {TP: 10}
    assert OffsetCheckpointFile(data / "log-start-offset-checkpoint").read() == {TP: start}
    assert (data / "recovery-point-offset-checkpoint").read_text().split("\n")[:3] == ["0", "1", "topic 0 10"]
    restarted = env.create(props={"segment.bytes": 500})
    assert not (data / ".kafka_cleanshutdown").exists()
    reloaded = restarted.get_log(TP)
    assert reloaded is not None
    assert (reloaded.log_start_offset, reloaded.log_end_offset, reloaded.recovery_point) == (start, 10, 10)


def _deletion() -> Any:
    from kafka.log.log_append_info import ClientRecordDeletion

    return ClientRecordDeletion()


def test_unclean_restart_recovers_from_checkpoint(env: Env) -> None:
    """Without the marker, logs are recovered from their checkpointed recovery point: a torn tail is cut."""
    data = env.tmp_path / "data"
    manager = env.create()
    log = manager.get_or_create_log(TP, is_new=True)
    for i in range(5):
        log.append_as_leader(records(b"v%d" % i), 0)
    manager.checkpoint_log_recovery_offsets()
    # A crash: no shutdown, no marker; the last batch is half written.
    for segment in log.log_segments():
        segment.close_handlers()
    for lock in manager._dir_locks:
        lock.destroy()
    env.managers.remove(manager)
    segment_file = data / "topic-0" / "00000000000000000000.log"
    with open(segment_file, "r+b") as f:
        f.truncate(segment_file.stat().st_size - 5)
    restarted = env.create()
    reloaded = restarted.get_log(TP)
    assert reloaded is not None
    assert reloaded.log_end_offset == 4
    assert values(reloaded) == [b"v0", b"v1", b"v2", b"v3"]


def test_logs_load_in_parallel_recovery_threads(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up loads every partition on the per-directory recovery pool, whose threads are gone afterwards."""
    manager = env.create(recovery_threads=2)
    for p in range(4):
        manager.get_or_create_log(TopicPartition("t", p), is_new=True).append_as_leader(records(b"x"), 0)
    env.shutdown(manager)
    seen: list[str] = []
    original = LogManager.load_log

    def recording_load_log(self: LogManager, *args: Any) -> Log:
        seen.append(threading.current_thread().name)
        return original(self, *args)

    monkeypatch.setattr(LogManager, "load_log", recording_load_log)
    restarted = env.create(recovery_threads=2)
    assert len(restarted.all_logs()) == 4
    assert seen and all(name.startswith(f"log-recovery-{env.tmp_path / 'data'}") for name in seen)
    assert not [t for t in threading.enumerate() if t.name.startswith("log-recovery-")]


def test_retention_task_deletes_old_segments(env: Env) -> None:
    """kafka-log-retention runs on the scheduler and applies retention.ms to the logs."""
    manager = env.create(props={"segment.bytes": 400, "retention.ms": 60_000, "file.delete.delay.ms": 0})
    log = manager.get_or_create_log(TP, is_new=True)
    for i in range(10):
        log.append_as_leader(records(b"%d" % i + b"x" * 100), 0)
    log.update_high_watermark(log.log_end_offset)
    before = log.number_of_segments
    env.time.sleep(INITIAL_TASK_DELAY_MS + 61_000)
    assert log.number_of_segments == 1 < before
    assert log.log_start_offset == 10


def test_flusher_and_checkpoint_tasks(env: Env) -> None:
    """kafka-log-flusher flushes logs past flush.ms and kafka-recovery-point-checkpoint writes their recovery points."""
    data = env.tmp_path / "data"
    manager = env.create(props={"flush.ms": 1000})
    log = manager.get_or_create_log(TP, is_new=True)
    log.append_as_leader(records(b"a", b"b"), 0)
    assert log.recovery_point == 0
    env.time.sleep(INITIAL_TASK_DELAY_MS + 10_000)
    assert log.recovery_point == 2
    assert OffsetCheckpointFile(data / "recovery-point-offset-checkpoint").read() == {TP: 2}


def test_async_delete_renames_then_removes(env: Env) -> None:
    """Deleting a partition renames its directory to -delete and kafka-delete-logs removes it after the delay."""
    data = env.tmp_path / "data"
    manager = env.create(props={"file.delete.delay.ms": 5000})
    log = manager.get_or_create_log(TP, is_new=True)
    log.append_as_leader(records(b"a"), 0)
    removed = manager.async_delete(TP)
    assert removed is log and manager.get_log(TP) is None
    deleted_dirs = [d for d in data.iterdir() if d.name.endswith("-delete")]
    assert len(deleted_dirs) == 1 and deleted_dirs[0].name.startswith("topic-0.")
    assert manager.has_logs_to_be_deleted()
    env.time.sleep(INITIAL_TASK_DELAY_MS)
    env.time.sleep(5000)
    assert not deleted_dirs[0].exists()
    assert not manager.has_logs_to_be_deleted()


def test_leftover_delete_dir_is_removed_at_startup(env: Env) -> None:
    """A -delete directory left by a previous run is loaded into the deletion queue and removed."""
    data = env.tmp_path / "data"
    manager = env.create(props={"file.delete.delay.ms": 0})
    log = manager.get_or_create_log(TP, is_new=True)
    log.append_as_leader(records(b"a"), 0)
    env.shutdown(manager)
    os.rename(data / "topic-0", data / Log.log_delete_dir_name(TP))
    restarted = env.create(props={"file.delete.delay.ms": 0})
    assert restarted.get_log(TP) is None
    env.time.sleep(INITIAL_TASK_DELAY_MS)
    assert [d.name for d in data.iterdir() if d.is_dir()] == []


def test_disk_full_dir_goes_offline_while_other_dir_serves(
    env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """ENOSPC on one log dir takes it offline with a clear log line; logs in the other dir keep serving."""
    full, healthy = env.tmp_path / "full", env.tmp_path / "healthy"
    manager = env.create(dirs=[full, healthy])
    a = manager.get_or_create_log(TopicPartition("a", 0), is_new=True)
    b = manager.get_or_create_log(TopicPartition("b", 0), is_new=True)
    assert {a.parent_dir, b.parent_dir} == {str(full), str(healthy)}
    on_full, on_healthy = (a, b) if a.parent_dir == str(full) else (b, a)
    real_pwrite = os.pwrite

    def pwrite(fd: int, data: Any, offset: int) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(full) + os.sep):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_pwrite(fd, data, offset)

    monkeypatch.setattr(os, "pwrite", pwrite)
    with caplog.at_level(logging.ERROR), pytest.raises(KafkaStorageException):
        on_full.append_as_leader(records(b"lost"), 0)
    assert any(
        "No space left on device" in (r.exc_text or str(r.exc_info)) and str(full) in r.getMessage()
        for r in caplog.records
    )
    # What ReplicaManager's LogDirFailureHandler thread does with the report.
    offline = env.channel.take_next_offline_log_dir(timeout_s=1)
    assert offline == str(full)
    manager.handle_log_dir_failure(offline)
    assert manager.live_log_dirs == [healthy]
    assert manager.get_log(on_full.topic_partition) is None
    on_healthy.append_as_leader(records(b"still", b"serving"), 0)
    assert values(on_healthy) == [b"still", b"serving"]
    fresh = manager.get_or_create_log(TopicPartition("c", 0), is_new=True)
    assert fresh.parent_dir == str(healthy)
    with pytest.raises(KafkaStorageException, match="offline"):
        manager.get_or_create_log(TopicPartition("d", 0), is_new=False)
    assert not manager.is_log_dir_online(str(full))
    manager.checkpoint_log_recovery_offsets()
    assert env.halted == []


def test_last_dir_failure_halts(env: Env) -> None:
    """When the only log dir fails the broker halts with status 1."""
    manager = env.create()
    manager.handle_log_dir_failure(str(env.tmp_path / "data"))
    assert env.halted == [1]


def test_unusable_dir_at_startup_is_offline(env: Env, tmp_path: Path) -> None:
    """A configured log dir that is a file is reported offline at start-up; the others load."""
    bad = tmp_path / "not-a-dir"
    bad.write_text("x")
    good = tmp_path / "good"
    manager = env.create(dirs=[bad, good])
    assert manager.live_log_dirs == [good]
    assert env.channel.take_next_offline_log_dir(timeout_s=1) == str(bad)


def test_no_usable_dir_fails_startup(env: Env, tmp_path: Path) -> None:
    """When no log dir can be used, creating the manager fails."""
    bad = tmp_path / "file"
    bad.write_text("x")
    with pytest.raises(KafkaException, match="can be created or validated"):
        env.create(dirs=[bad])


def test_truncate_to_checkpoints_recovery_point(env: Env) -> None:
    """Truncation through the manager moves the recovery point checkpoint back."""
    data = env.tmp_path / "data"
    manager = env.create()
    log = manager.get_or_create_log(TP, is_new=True)
    log.append_as_leader(records(b"a", b"b", b"c"), 0)
    log.flush()
    manager.truncate_to({TP: 1}, is_future=False)
    assert log.log_end_offset == 1
    assert OffsetCheckpointFile(data / "recovery-point-offset-checkpoint").read() == {TP: 1}


def test_future_log_replaces_current(env: Env) -> None:
    """A future replica in another dir becomes the current log; the old directory is scheduled for deletion."""
    a, b = env.tmp_path / "a", env.tmp_path / "b"
    manager = env.create(dirs=[a, b], props={"file.delete.delay.ms": 0})
    current = manager.get_or_create_log(TP, is_new=True)
    current.append_as_leader(records(b"x"), 0)
    target = b if current.parent_dir == str(a) else a
    manager.maybe_update_preferred_log_dir(TP, str(target))
    future = manager.get_or_create_log(TP, is_future=True)
    assert future.dir.name.endswith("-future") and future.parent_dir == str(target)
    replicated = MemoryRecords.with_records(
        CompressionType.NONE, SimpleRecord(START_MS, b"k", b"x"), partition_leader_epoch=0
    )
    future.append_as_follower(MemoryRecords.readable_records(bytearray(replicated.buffer())))
    future_leo = "kafka.log:type=Log,name=LogEndOffset,topic=topic,partition=0,is-future=true"
    assert _yammer_value(future_leo) == 1
    manager.replace_current_with_future_log(TP)
    assert manager.get_log(TP) is future and future.dir.name == "topic-0"
    assert manager.get_log(TP, is_future=True) is None
    # The partition's gauges are now the former future log's, under the partition's own name.
    future.append_as_leader(records(b"y"), 0)
    assert _yammer_value("kafka.log:type=Log,name=LogEndOffset,topic=topic,partition=0") == 2 == future.log_end_offset
    assert _yammer_value(future_leo) is None
    env.time.sleep(INITIAL_TASK_DELAY_MS)
    assert not [d for d in Path(current.parent_dir).iterdir() if d.is_dir()]


def test_apply_from_kafka_config(env: Env, tmp_path: Path) -> None:
    """LogManager.apply takes log.dirs, the topic defaults and the cleaner settings from the broker config."""
    from kafka.server.kafka_config import KafkaConfig

    dirs = [tmp_path / "x", tmp_path / "y"]
    config = KafkaConfig(
        {
            "zookeeper.connect": "localhost:2181",
            "log.dirs": ",".join(str(d) for d in dirs),
            "log.segment.bytes": "2000000",
            "log.cleaner.threads": "2",
            "log.cleaner.dedupe.buffer.size": "4194304",
            "num.recovery.threads.per.data.dir": "3",
        },
        do_log=False,
    )
    manager = LogManager.apply(config, [], FakeConfigRepository(), env.scheduler, env.time, env.channel)
    env.managers.append(manager)
    assert manager.log_dirs == dirs
    assert manager.current_default_config.segment_size == 2_000_000
    assert manager.cleaner_config.num_threads == 2
    manager.startup([])
    assert manager.cleaner is not None and manager.cleaner.cleaner_count == 2
    log = manager.get_or_create_log(TP, is_new=True)
    assert log.config.segment_size == 2_000_000


def test_recovery_progress_lines(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """Loading logs says, per directory, how many logs there are and whether they are recovered, then each log's
    place in that count (n/total completed) and, during recovery, each unflushed segment's (done/unflushed), as
    Kafka 3.x does."""
    data = env.tmp_path / "data"
    manager = env.create()
    for partition in (0, 1):
        log = manager.get_or_create_log(TopicPartition("topic", partition), is_new=True)
        log.append_as_leader(records(b"v"), 0)
    env.shutdown(manager)
    caplog.set_level(logging.INFO)
    env.shutdown(env.create())  # clean: the marker is there
    text = caplog.text
    assert f"Skipping recovery of 2 logs from {data} since clean shutdown file was found" in text
    assert f"(1/2 completed in {data})" in text and f"(2/2 completed in {data})" in text
    assert "with 1 segments, local-log-start-offset 0 and log-end-offset 1 in " in text
    assert "Loaded 2 logs in " in text and "unclean log dirs" not in text

    caplog.clear()
    (data / Log.CLEAN_SHUTDOWN_FILE).unlink()  # a crash, and nothing known to be flushed
    (data / "recovery-point-offset-checkpoint").write_text("0\n0\n")
    env.create()
    text = caplog.text
    assert f"Recovering 2 logs from {data} since no clean shutdown file was found" in text
    assert "Recovering unflushed segment 0. 0/1 recovered for topic-0." in text
    assert "Recovering unflushed segment 0. 0/1 recovered for topic-1." in text
    assert f"(unclean log dirs = ArrayBuffer({data}))" in text

    caplog.clear()
    empty = env.tmp_path / "empty"
    env.create(dirs=[empty])
    assert f"No logs found to be loaded in {empty}" in caplog.text


def _yammer_value(mbean_name: str) -> Any:
    from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics

    for name, metric in KafkaYammerMetrics.default_registry().all_metrics().items():
        if name.mbean_name == mbean_name:
            return metric.value()  # type: ignore[union-attr]
    return None


def test_log_gauges_follow_the_log_and_go_with_its_deletion(env: Env) -> None:
    """kafka.log:type=Log gauges report the log's offsets, segments and size, and are removed with the log."""
    manager = env.create(props={"file.delete.delay.ms": 5000})
    tp = TopicPartition("metered", 3)
    log = manager.get_or_create_log(tp, is_new=True)
    log.append_as_leader(records(b"a", b"b", b"c"), 0)
    prefix = "kafka.log:type=Log,name={},topic=metered,partition=3"
    assert _yammer_value(prefix.format("LogEndOffset")) == 3
    assert _yammer_value(prefix.format("LogStartOffset")) == 0
    assert _yammer_value(prefix.format("NumLogSegments")) == 1
    assert _yammer_value(prefix.format("Size")) == log.size > 0
    assert _yammer_value("kafka.log:type=LogManager,name=OfflineLogDirectoryCount") == 0
    data = str((env.tmp_path / "data").absolute())
    # A path is quoted in the MBean name, as Kafka's Sanitizer.jmxSanitize quotes it.
    assert _yammer_value(f'kafka.log:type=LogManager,name=LogDirectoryOffline,logDirectory="{data}"') == 0
    manager.async_delete(tp)
    assert _yammer_value(prefix.format("LogEndOffset")) is None
    assert _yammer_value(prefix.format("Size")) is None


def test_log_dir_failure_shows_in_the_gauges_and_removes_its_logs_gauges(env: Env, tmp_path: Path) -> None:
    """A failed log dir counts in OfflineLogDirectoryCount and LogDirectoryOffline; its logs' gauges go."""
    first, second = tmp_path / "first", tmp_path / "second"
    manager = env.create(dirs=[first, second])
    a = manager.get_or_create_log(TopicPartition("fa", 0), is_new=True)
    manager.get_or_create_log(TopicPartition("fb", 0), is_new=True)
    failed = a.parent_dir
    manager.handle_log_dir_failure(failed)
    assert _yammer_value("kafka.log:type=LogManager,name=OfflineLogDirectoryCount") == 1
    assert _yammer_value(f'kafka.log:type=LogManager,name=LogDirectoryOffline,logDirectory="{failed}"') == 1
    assert _yammer_value("kafka.log:type=Log,name=LogEndOffset,topic=fa,partition=0") is None
