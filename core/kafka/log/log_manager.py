"""Port of core/src/main/scala/kafka/log/LogManager.scala (Kafka 2.8).

The broker's logs across its `log.dirs`. At start-up each directory is locked (`.lock`), its
checkpoints (`recovery-point-offset-checkpoint`, `log-start-offset-checkpoint`) are read and every
partition directory in it is loaded by a pool of `num.recovery.threads.per.data.dir` threads; a
directory holding `.kafka_cleanshutdown` skips recovery (the marker is deleted at once, so that a
crash during loading means recovery next time). Background tasks on the scheduler apply retention
(`kafka-log-retention`), flush logs past `flush.ms` (`kafka-log-flusher`), write the checkpoints
(`kafka-recovery-point-checkpoint`, `kafka-log-start-offset-checkpoint`) and delete logs renamed for
deletion (`kafka-delete-logs`). New logs go to the live directory with the fewest partitions.
Deleting a partition renames its directory to `topic-partition.<uuid>-delete` and removes it after
`file.delete.delay.ms`. A directory with a disk error is taken offline (its logs are closed and
forgotten) while the others keep serving. A clean shutdown flushes and closes every log, writes the
checkpoints and then the clean shutdown marker in each directory.

`meta.properties` belongs to the broker (BrokerMetadataCheckpoint), not to this class.

Threading: `_log_creation_or_deletion_lock` (Kafka's `logCreationOrDeletionLock`, an RLock) serialises
log creation, deletion and directory failure handling; `_current_logs` and `_future_logs` are Pools
(locked maps) read without it. Lock order: `_log_creation_or_deletion_lock` before a Log's lock and
before the cleaner manager's lock.

# PORT: Kafka's `Exit.halt(1)` when no log directory is usable is a KafkaException here at start-up
(the broker logs it and exits 1) and the injectable `halt` callable (default `os._exit`) when the
last directory fails at run time. Kafka's gauges (OfflineLogDirectoryCount, LogDirectoryOffline) are
left to the metrics port. The recovery and shutdown pools are named as Kafka 3.x names them
(`log-recovery-<dir>`, `log-closing-<dir>`), since 2.8's anonymous `pool-N-thread-M` says nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from kafka.common.errors import KafkaException, KafkaStorageException, LogDirNotFoundException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.log.log import Log
from kafka.log.log_cleaner import CleanerConfig, LogCleaner
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_file_utils import CLEAN_SHUTDOWN_FILE, DELETE_DIR_SUFFIX
from kafka.log.log_segment import LogFlushStats
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.checkpoints.offset_checkpoint_file import OffsetCheckpointFile
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool

if TYPE_CHECKING:
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.kafka_request_handler import BrokerTopicStats
    from kafka.utils.kafka_scheduler import Scheduler

RECOVERY_POINT_CHECKPOINT_FILE: Final = "recovery-point-offset-checkpoint"
LOG_START_OFFSET_CHECKPOINT_FILE: Final = "log-start-offset-checkpoint"
PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS: Final = 10 * 60 * 1000
LOCK_FILE: Final = ".lock"
INITIAL_TASK_DELAY_MS: Final = 30 * 1000
# The KRaft metadata log, which a ZooKeeper-mode log manager leaves alone.
METADATA_TOPIC: Final = "__cluster_metadata"
# How soon kafka-delete-logs runs again when nothing is queued and file.delete.delay.ms is 0.
_EMPTY_QUEUE_RECHECK_MS: Final = 1000


class ConfigRepository(Protocol):
    """Where topic config overrides come from (kafka.server.metadata.ConfigRepository; in ZooKeeper
    mode, /config/topics/<topic>)."""

    def topic_config(self, topic: str) -> Mapping[str, Any]:
        """The topic's overrides (empty when it has none)."""
        ...


class FileLock:
    """An exclusive lock on a file (kafka.utils.FileLock), held by this process.

    # PORT: Kafka locks with FileChannel.tryLock, which on Linux is an fcntl record lock; the same
    lock is taken here with fcntl.lockf so that a Java broker and this one exclude each other. fcntl
    locks do not exclude threads of one process, so a process-wide set adds that, as Java's
    OverlappingFileLockException does.
    """

    _held: set[str] = set()
    _held_lock = threading.Lock()

    def __init__(self, file: Path) -> None:
        self.file = Path(file)
        self._fd = os.open(self.file, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        self._locked = False

    def try_lock(self) -> bool:
        """Take the lock if free; False if another process or thread holds it."""
        key = str(self.file.absolute())
        with FileLock._held_lock:
            if key in FileLock._held:
                return False
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except (BlockingIOError, PermissionError):
                return False
            FileLock._held.add(key)
            self._locked = True
            return True

    def unlock(self) -> None:
        """Release the lock."""
        with FileLock._held_lock:
            if self._locked:
                fcntl.lockf(self._fd, fcntl.LOCK_UN)
                FileLock._held.discard(str(self.file.absolute()))
                self._locked = False

    def destroy(self) -> None:
        """Release the lock and close the file."""
        try:
            self.unlock()
        finally:
            # Once only: a second os.close could close whatever file has since been given the same number.
            fd, self._fd = self._fd, -1
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)


class LogManager(Logging, KafkaMetricsGroup):
    """Creates, loads, serves, cleans up and deletes the logs of the broker's log directories."""

    logger_name = "kafka.log.LogManager"

    LOCK_FILE: Final = LOCK_FILE
    INITIAL_TASK_DELAY_MS: Final = INITIAL_TASK_DELAY_MS
    RECOVERY_POINT_CHECKPOINT_FILE: Final = RECOVERY_POINT_CHECKPOINT_FILE
    LOG_START_OFFSET_CHECKPOINT_FILE: Final = LOG_START_OFFSET_CHECKPOINT_FILE
    PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS: Final = PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS

    def __init__(
        self,
        log_dirs: Iterable[str | os.PathLike[str]],
        initial_offline_dirs: Iterable[str | os.PathLike[str]],
        config_repository: ConfigRepository,
        initial_default_config: LogConfig,
        cleaner_config: CleanerConfig,
        recovery_threads_per_data_dir: int,
        flush_check_ms: int,
        flush_recovery_offset_checkpoint_ms: int,
        flush_start_offset_checkpoint_ms: int,
        retention_check_ms: int,
        max_pid_expiration_ms: int,
        scheduler: Scheduler | None,
        log_dir_failure_channel: LogDirFailureChannel,
        time: Time,
        keep_partition_metadata_file: bool = True,
        halt: Callable[[int], Any] = os._exit,
        broker_topic_stats: BrokerTopicStats | None = None,
    ) -> None:
        self.log_dirs: list[Path] = [Path(d).absolute() for d in log_dirs]
        self._initial_offline_dirs = [Path(d).absolute() for d in initial_offline_dirs]
        self._config_repository = config_repository
        self.initial_default_config = initial_default_config
        self.cleaner_config = cleaner_config
        self.flush_check_ms = flush_check_ms
        self.flush_recovery_offset_checkpoint_ms = flush_recovery_offset_checkpoint_ms
        self.flush_start_offset_checkpoint_ms = flush_start_offset_checkpoint_ms
        self.retention_check_ms = retention_check_ms
        self.max_pid_expiration_ms = max_pid_expiration_ms
        self._scheduler = scheduler
        self._log_dir_failure_channel = log_dir_failure_channel
        self._time = time
        self.keep_partition_metadata_file = keep_partition_metadata_file
        self._halt = halt
        self._broker_topic_stats = broker_topic_stats

        self._log_creation_or_deletion_lock = threading.RLock()
        self._current_logs: Pool[TopicPartition, Log] = Pool()
        # Logs being moved to another directory of this broker (-future), swapped in once caught up.
        self._future_logs: Pool[TopicPartition, Log] = Pool()
        # (log, time it was scheduled for deletion), oldest first.
        self._logs_to_be_deleted: queue.Queue[tuple[Log, int]] = queue.Queue()

        self._live_log_dirs_lock = threading.Lock()
        self._live_log_dirs: list[Path] = self._create_and_validate_log_dirs(self.log_dirs, self._initial_offline_dirs)
        self._current_default_config = initial_default_config
        self._num_recovery_threads_per_data_dir = recovery_threads_per_data_dir
        # Partitions being loaded; True once their config changed meanwhile (KAFKA-8813).
        self.partitions_initializing: dict[TopicPartition, bool] = {}

        self._dir_locks = self._lock_log_dirs(self.live_log_dirs)
        self._recovery_point_checkpoints: dict[Path, OffsetCheckpointFile] = {
            d: OffsetCheckpointFile(d / RECOVERY_POINT_CHECKPOINT_FILE, log_dir_failure_channel)
            for d in self.live_log_dirs
        }
        self._log_start_offset_checkpoints: dict[Path, OffsetCheckpointFile] = {
            d: OffsetCheckpointFile(d / LOG_START_OFFSET_CHECKPOINT_FILE, log_dir_failure_channel)
            for d in self.live_log_dirs
        }
        self._preferred_log_dirs: dict[TopicPartition, str] = {}
        self._cleaner: LogCleaner | None = None

        self.new_gauge("OfflineLogDirectoryCount", lambda: len(self._offline_log_dirs()))
        for log_dir in self.log_dirs:
            self._new_log_directory_offline_gauge(log_dir)
        LogFlushStats.log_flush_timer()  # registered from start-up, as Kafka's LogFlushStats object is

    def _new_log_directory_offline_gauge(self, log_dir: Path) -> None:
        self.new_gauge(
            "LogDirectoryOffline", lambda: 0 if log_dir in self.live_log_dirs else 1, {"logDirectory": str(log_dir)}
        )

    # ---- configuration ---------------------------------------------------------------------------

    def reconfigure_default_log_config(self, log_config: LogConfig) -> None:
        """Use new broker-level topic defaults."""
        self._current_default_config = log_config

    @property
    def current_default_config(self) -> LogConfig:
        """The broker-level topic defaults."""
        return self._current_default_config

    @property
    def live_log_dirs(self) -> list[Path]:
        """The log directories that are online."""
        with self._live_log_dirs_lock:
            return list(self._live_log_dirs)

    def _offline_log_dirs(self) -> list[Path]:
        live = set(self.live_log_dirs)
        return [d for d in self.log_dirs if d not in live]

    @property
    def cleaner(self) -> LogCleaner | None:
        """The log cleaner, when enabled and started."""
        return self._cleaner

    def _create_and_validate_log_dirs(self, dirs: list[Path], initial_offline_dirs: list[Path]) -> list[Path]:
        """Create missing directories and keep those that are readable directories; report the others."""
        live_log_dirs: list[Path] = []
        canonical_paths: set[str] = set()
        for dir in dirs:
            try:
                if dir in initial_offline_dirs:
                    raise OSError(f"Failed to load {dir} during broker startup")
                if not dir.exists():
                    self.info(f"Log directory {dir} not found, creating it.")
                    dir.mkdir(parents=True)
                if not dir.is_dir() or not os.access(dir, os.R_OK):
                    raise OSError(f"{dir} is not a readable log directory.")
                canonical = os.path.realpath(dir)
                if canonical in canonical_paths:
                    raise KafkaException(f"Duplicate log directory found: {', '.join(str(d) for d in dirs)}")
                canonical_paths.add(canonical)
                live_log_dirs.append(dir)
            except OSError as e:
                self._log_dir_failure_channel.maybe_add_offline_log_dir(
                    str(dir), f"Failed to create or validate data directory {dir}", e
                )
        if not live_log_dirs:
            self.fatal(
                "Shutdown broker because none of the specified log dirs from "
                f"{', '.join(str(d) for d in dirs)} can be created or validated"
            )
            raise KafkaException(
                f"None of the specified log dirs from {', '.join(str(d) for d in dirs)} can be created or validated"
            )
        return live_log_dirs

    def resize_recovery_thread_pool(self, new_size: int) -> None:
        """Use `new_size` recovery threads per directory from now on."""
        self.info(
            f"Resizing recovery thread pool size for each data dir from {self._num_recovery_threads_per_data_dir} "
            f"to {new_size}"
        )
        self._num_recovery_threads_per_data_dir = new_size

    def handle_log_dir_failure(self, dir: str) -> None:
        """Stop serving the logs of the failed directory `dir` (absolute path): close and forget them."""
        self.warn(f"Stopping serving logs in dir {dir}")
        with self._log_creation_or_deletion_lock:
            failed = Path(dir)
            with self._live_log_dirs_lock:
                if failed in self._live_log_dirs:
                    self._live_log_dirs.remove(failed)
                no_live_dirs = not self._live_log_dirs
            if no_live_dirs:
                self.fatal(
                    f"Shutdown broker because all log dirs in {', '.join(str(d) for d in self.log_dirs)} have failed"
                )
                self._halt(1)
                return
            self._recovery_point_checkpoints = {
                d: c for d, c in self._recovery_point_checkpoints.items() if str(d) != dir
            }
            self._log_start_offset_checkpoints = {
                d: c for d, c in self._log_start_offset_checkpoints.items() if str(d) != dir
            }
            if self._cleaner is not None:
                self._cleaner.handle_log_dir_failure(dir)

            def remove_offline_logs(logs: Pool[TopicPartition, Log]) -> list[TopicPartition]:
                offline = [tp for tp, log in logs.items() if log.parent_dir == dir]
                for tp in offline:
                    removed = logs.remove(tp)
                    if removed is not None:
                        removed.remove_log_metrics()
                        removed.close_handlers()
                return offline

            offline_current = remove_offline_logs(self._current_logs)
            offline_future = remove_offline_logs(self._future_logs)
            self.warn(
                f"Logs for partitions {','.join(str(tp) for tp in offline_current)} are offline and logs for future "
                f"partitions {','.join(str(tp) for tp in offline_future)} are offline due to failure on log "
                f"directory {dir}"
            )
            for lock in [lk for lk in self._dir_locks if str(lk.file.parent) == dir]:
                with contextlib.suppress(OSError):
                    lock.destroy()

    def _lock_log_dirs(self, dirs: list[Path]) -> list[FileLock]:
        """Take `.lock` in every directory; KafkaException when another broker holds one."""
        locks: list[FileLock] = []
        for dir in dirs:
            try:
                lock = FileLock(dir / LOCK_FILE)
                if not lock.try_lock():
                    lock.destroy()
                    for taken in locks:
                        taken.destroy()
                    raise KafkaException(
                        f"Failed to acquire lock on file .lock in {lock.file.parent}. A Kafka instance in another "
                        "process or thread is using this directory."
                    )
                locks.append(lock)
            except OSError as e:
                self._log_dir_failure_channel.maybe_add_offline_log_dir(
                    str(dir), f"Disk error while locking directory {dir}", e
                )
        return locks

    def _add_log_to_be_deleted(self, log: Log) -> None:
        self._logs_to_be_deleted.put((log, self._time.milliseconds()))

    def has_logs_to_be_deleted(self) -> bool:
        """Whether deleted logs are waiting for their files to be removed."""
        return not self._logs_to_be_deleted.empty()

    # ---- loading ---------------------------------------------------------------------------------

    def load_log(
        self,
        log_dir: Path,
        had_clean_shutdown: bool,
        recovery_points: Mapping[TopicPartition, int],
        log_start_offsets: Mapping[TopicPartition, int],
        topic_config_overrides: Mapping[str, LogConfig],
    ) -> Log:
        """Open the log in `log_dir` and register it (or queue it for deletion if it is a -delete dir)."""
        topic_partition = Log.parse_topic_partition_name(log_dir)
        config = topic_config_overrides.get(topic_partition.topic, self.current_default_config)
        log = Log.apply(
            log_dir,
            config,
            log_start_offsets.get(topic_partition, 0),
            recovery_points.get(topic_partition, 0),
            self._require_scheduler(),
            self._time,
            self.max_pid_expiration_ms,
            PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
            self._log_dir_failure_channel,
            last_shutdown_clean=had_clean_shutdown,
            keep_partition_metadata_file=self.keep_partition_metadata_file,
            broker_topic_stats=self._broker_topic_stats,
        )
        if log_dir.name.endswith(DELETE_DIR_SUFFIX):
            self._add_log_to_be_deleted(log)
            return log
        pool = self._future_logs if log.is_future else self._current_logs
        previous = pool.put(topic_partition, log)
        if previous is not None:
            if log.is_future:
                raise RuntimeError(f"Duplicate log directories found: {log.dir.absolute()}, {previous.dir.absolute()}")
            raise RuntimeError(
                f"Duplicate log directories for {topic_partition} are found in both {log.dir.absolute()} and "
                f"{previous.dir.absolute()}. It is likely because log directory failure happened while broker was "
                "replacing current replica with future replica. Recover broker from this failure by manually "
                "deleting one of the two directories for this partition. It is recommended to delete the partition "
                "in the log directory that is known to have failed recently."
            )
        return log

    def load_logs(self, topic_config_overrides: Mapping[str, LogConfig]) -> None:
        """Load (and recover where needed) every log of every live directory, in parallel per directory."""
        live_dirs = self.live_log_dirs
        self.info(f"Loading logs from log dirs {[str(d) for d in live_dirs]}")
        start_ms = self._time.hi_res_clock_ms()
        thread_pools: list[ThreadPoolExecutor] = []
        offline_dirs: list[tuple[str, BaseException]] = []
        offline_lock = threading.Lock()
        jobs: list[Future[None]] = []
        num_total_logs = 0
        unclean_log_dirs: list[str] = []
        try:
            for dir in live_dirs:
                log_dir_absolute_path = str(dir)
                had_clean_shutdown = False
                try:
                    pool = ThreadPoolExecutor(
                        max_workers=max(self._num_recovery_threads_per_data_dir, 1),
                        thread_name_prefix=f"log-recovery-{log_dir_absolute_path}",
                    )
                    thread_pools.append(pool)
                    clean_shutdown_file = dir / CLEAN_SHUTDOWN_FILE
                    if clean_shutdown_file.exists():
                        # Gone at once: a crash while loading must mean recovery at the next start (KAFKA-10471).
                        clean_shutdown_file.unlink()
                        had_clean_shutdown = True
                    recovery_points: dict[TopicPartition, int] = {}
                    try:
                        recovery_points = self._recovery_point_checkpoints[dir].read()
                    except Exception as e:
                        self.warn(
                            "Error occurred while reading recovery-point-offset-checkpoint file of directory "
                            f"{log_dir_absolute_path}, resetting the recovery checkpoint to 0",
                            e,
                        )
                    log_start_offsets: dict[TopicPartition, int] = {}
                    try:
                        log_start_offsets = self._log_start_offset_checkpoints[dir].read()
                    except Exception as e:
                        self.warn(
                            "Error occurred while reading log-start-offset-checkpoint file of directory "
                            f"{log_dir_absolute_path}, resetting to the base offset of the first segment",
                            e,
                        )
                    logs_to_load = [
                        d
                        for d in sorted(dir.iterdir())
                        if d.is_dir() and Log.parse_topic_partition_name(d).topic != METADATA_TOPIC
                    ]
                    num_total_logs += len(logs_to_load)
                    # PORT: the progress lines are Kafka 3.x's (LogManager.loadLogs), which say how many logs of
                    # each directory are done and left; 2.8 only said whether recovery was attempted.
                    if not logs_to_load:
                        self.info(f"No logs found to be loaded in {log_dir_absolute_path}")
                    elif had_clean_shutdown:
                        self.info(
                            f"Skipping recovery of {len(logs_to_load)} logs from {log_dir_absolute_path} since "
                            "clean shutdown file was found"
                        )
                    else:
                        self.info(
                            f"Recovering {len(logs_to_load)} logs from {log_dir_absolute_path} since no "
                            "clean shutdown file was found"
                        )
                        unclean_log_dirs.append(log_dir_absolute_path)
                    num_logs_loaded = [0]
                    count_lock = threading.Lock()

                    def job(
                        log_dir: Path,
                        log_dir_absolute_path: str = log_dir_absolute_path,
                        had_clean_shutdown: bool = had_clean_shutdown,
                        recovery_points: dict[TopicPartition, int] = recovery_points,
                        log_start_offsets: dict[TopicPartition, int] = log_start_offsets,
                        total: int = len(logs_to_load),
                        num_logs_loaded: list[int] = num_logs_loaded,
                        count_lock: threading.Lock = count_lock,
                    ) -> None:
                        try:
                            self.debug(f"Loading log {log_dir}")
                            log_load_start_ms = self._time.hi_res_clock_ms()
                            log = self.load_log(
                                log_dir, had_clean_shutdown, recovery_points, log_start_offsets, topic_config_overrides
                            )
                            log_load_duration_ms = self._time.hi_res_clock_ms() - log_load_start_ms
                            with count_lock:
                                num_logs_loaded[0] += 1
                                current_num_loaded = num_logs_loaded[0]
                            self.info(
                                f"Completed load of {log} with {log.number_of_segments} segments, "
                                f"local-log-start-offset {log.log_start_offset} and log-end-offset "
                                f"{log.log_end_offset} in {log_load_duration_ms}ms ({current_num_loaded}/{total} "
                                f"completed in {log_dir_absolute_path})"
                            )
                        except (OSError, KafkaStorageException) as e:
                            with offline_lock:
                                offline_dirs.append((log_dir_absolute_path, e))
                            self.error(f"Error while loading log dir {log_dir_absolute_path}", e)

                    jobs.extend(pool.submit(job, log_dir) for log_dir in logs_to_load)
                except OSError as e:
                    offline_dirs.append((log_dir_absolute_path, e))
                    self.error(f"Error while loading log dir {log_dir_absolute_path}", e)
            try:
                for future in jobs:
                    future.result()
            except Exception as e:
                self.error(f"There was an error in one of the threads during logs loading: {e}")
                raise
            for dir_path, error in offline_dirs:
                self._log_dir_failure_channel.maybe_add_offline_log_dir(
                    dir_path, f"Error while loading log dir {dir_path}", error
                )
        finally:
            for pool in thread_pools:
                pool.shutdown(wait=True, cancel_futures=True)
        elapsed_ms = self._time.hi_res_clock_ms() - start_ms
        # Scala prints the ArrayBuffer of the dirs as it is.
        printed_unclean = ""
        if unclean_log_dirs:
            printed_unclean = f" (unclean log dirs = ArrayBuffer({', '.join(unclean_log_dirs)}))"
        self.info(f"Loaded {num_total_logs} logs in {elapsed_ms}ms{printed_unclean}")

    def startup(self, topic_names: Iterable[str]) -> None:
        """Load the logs and start the background tasks and the cleaner."""
        self.startup_with_config_overrides(self.fetch_topic_config_overrides(topic_names))

    def fetch_topic_config_overrides(self, topic_names: Iterable[str]) -> dict[str, LogConfig]:
        """LogConfigs of the topics that have overrides."""
        overrides_by_topic: dict[str, LogConfig] = {}
        default_props = self.current_default_config.originals()
        for topic_name in topic_names:
            overrides = self._config_repository.topic_config(topic_name)
            if overrides:
                overrides_by_topic[topic_name] = LogConfig.from_props(default_props, overrides)
        return overrides_by_topic

    def startup_with_config_overrides(self, topic_config_overrides: Mapping[str, LogConfig]) -> None:
        """Load the logs with these topic configs, then schedule the background tasks."""
        self.load_logs(topic_config_overrides)
        scheduler = self._scheduler
        if scheduler is not None:
            self.info(f"Starting log cleanup with a period of {self.retention_check_ms} ms.")
            scheduler.schedule(
                "kafka-log-retention",
                self.cleanup_logs,
                delay_ms=INITIAL_TASK_DELAY_MS,
                period_ms=self.retention_check_ms,
            )
            self.info(f"Starting log flusher with a default period of {self.flush_check_ms} ms.")
            scheduler.schedule(
                "kafka-log-flusher",
                self._flush_dirty_logs,
                delay_ms=INITIAL_TASK_DELAY_MS,
                period_ms=self.flush_check_ms,
            )
            scheduler.schedule(
                "kafka-recovery-point-checkpoint",
                self.checkpoint_log_recovery_offsets,
                delay_ms=INITIAL_TASK_DELAY_MS,
                period_ms=self.flush_recovery_offset_checkpoint_ms,
            )
            scheduler.schedule(
                "kafka-log-start-offset-checkpoint",
                self.checkpoint_log_start_offsets,
                delay_ms=INITIAL_TASK_DELAY_MS,
                period_ms=self.flush_start_offset_checkpoint_ms,
            )
            # Re-scheduled by each run with the delay the next deletion needs.
            scheduler.schedule("kafka-delete-logs", self._delete_logs, delay_ms=INITIAL_TASK_DELAY_MS)
        if self.cleaner_config.enable_cleaner:
            self._cleaner = LogCleaner(
                self.cleaner_config, self.live_log_dirs, self._current_logs, self._log_dir_failure_channel, self._time
            )
            self._cleaner.startup()

    def shutdown(self) -> None:
        """Stop the cleaner, flush and close every log, write the checkpoints and the clean shutdown marker."""
        self.info("Shutting down.")
        self.remove_metric("OfflineLogDirectoryCount")
        for log_dir in self.log_dirs:
            self.remove_metric("LogDirectoryOffline", {"logDirectory": str(log_dir)})
        thread_pools: list[ThreadPoolExecutor] = []
        jobs: dict[Path, list[Future[None]]] = {}
        if self._cleaner is not None:
            try:
                self._cleaner.shutdown()
            except Exception as e:
                self.warn(f"Error while shutting down the log cleaner: {e}", e)
        local_logs_by_dir = self._logs_by_dir()
        try:
            for dir in self.live_log_dirs:
                self.debug(f"Flushing and closing logs at {dir}")
                pool = ThreadPoolExecutor(
                    max_workers=max(self._num_recovery_threads_per_data_dir, 1),
                    thread_name_prefix=f"log-closing-{dir}",
                )
                thread_pools.append(pool)
                logs = list(local_logs_by_dir.get(str(dir), {}).values())

                def close_log(log: Log) -> None:
                    # Flushed first, so that the recovery point is as far as possible.
                    log.flush()
                    log.close()

                jobs[dir] = [pool.submit(close_log, log) for log in logs]
            for dir, dir_jobs in jobs.items():
                if _wait_for_all_to_complete(
                    dir_jobs,
                    lambda e: self.warn(f"There was an error in one of the threads during LogManager shutdown: {e}"),
                ):
                    logs_in_dir = local_logs_by_dir.get(str(dir), {})
                    self.debug(f"Updating recovery points at {dir}")
                    self._checkpoint_recovery_offsets_in_dir(dir, logs_in_dir)
                    self.debug(f"Updating log start offsets at {dir}")
                    self._checkpoint_log_start_offsets_in_dir(dir, logs_in_dir)
                    self.debug(f"Writing clean shutdown marker at {dir}")
                    try:
                        (dir / CLEAN_SHUTDOWN_FILE).touch(exist_ok=False)
                    except OSError as e:
                        self.warn(f"Failed to write clean shutdown marker in {dir}: {e}", e)
        finally:
            for pool in thread_pools:
                pool.shutdown(wait=True, cancel_futures=True)
            # The directories are unlocked whether or not closing went well.
            for lock in self._dir_locks:
                with contextlib.suppress(OSError):
                    lock.destroy()
        self.info("Shutdown complete.")

    # ---- truncation ------------------------------------------------------------------------------

    def truncate_to(self, partition_offsets: Mapping[TopicPartition, int], is_future: bool) -> None:
        """Truncate each partition's log to its offset and checkpoint the recovery points."""
        affected_logs: list[Log] = []
        for topic_partition, truncate_offset in partition_offsets.items():
            log = (self._future_logs if is_future else self._current_logs).get(topic_partition)
            if log is None:
                continue
            # Cleaning of the segments being truncated must stop first.
            need_to_stop_cleaner = truncate_offset < log.active_segment.base_offset
            if need_to_stop_cleaner and not is_future:
                self.abort_and_pause_cleaning(topic_partition)
            try:
                if log.truncate_to(truncate_offset):
                    affected_logs.append(log)
                if need_to_stop_cleaner and not is_future:
                    self._maybe_truncate_cleaner_checkpoint_to_active_segment_base_offset(log, topic_partition)
            finally:
                if need_to_stop_cleaner and not is_future:
                    self._resume_cleaning(topic_partition)
        for dir in dict.fromkeys(log.parent_dir_file for log in affected_logs):
            self.checkpoint_recovery_offsets_in_dir(dir)

    def truncate_fully_and_start_at(self, topic_partition: TopicPartition, new_offset: int, is_future: bool) -> None:
        """Empty the partition's log and start it at `new_offset`."""
        log = (self._future_logs if is_future else self._current_logs).get(topic_partition)
        if log is None:
            return
        if not is_future:
            self.abort_and_pause_cleaning(topic_partition)
        try:
            log.truncate_fully_and_start_at(new_offset)
            if not is_future:
                self._maybe_truncate_cleaner_checkpoint_to_active_segment_base_offset(log, topic_partition)
        finally:
            if not is_future:
                self._resume_cleaning(topic_partition)
        self.checkpoint_recovery_offsets_in_dir(log.parent_dir_file)

    # ---- checkpoints -----------------------------------------------------------------------------

    def checkpoint_log_recovery_offsets(self) -> None:
        """Write every live directory's recovery-point-offset-checkpoint."""
        logs_by_dir = self._logs_by_dir()
        for log_dir in self.live_log_dirs:
            self._checkpoint_recovery_offsets_in_dir(log_dir, logs_by_dir.get(str(log_dir), {}))

    def checkpoint_log_start_offsets(self) -> None:
        """Write every live directory's log-start-offset-checkpoint."""
        logs_by_dir = self._logs_by_dir()
        for log_dir in self.live_log_dirs:
            self._checkpoint_log_start_offsets_in_dir(log_dir, logs_by_dir.get(str(log_dir), {}))

    def checkpoint_recovery_offsets_in_dir(self, log_dir: Path) -> None:
        """Write the recovery points of the logs in `log_dir`."""
        self._checkpoint_recovery_offsets_in_dir(log_dir, self._logs_in_dir(log_dir))

    def _checkpoint_recovery_offsets_in_dir(
        self, log_dir: Path, logs_to_checkpoint: Mapping[TopicPartition, Log]
    ) -> None:
        try:
            checkpoint = self._recovery_point_checkpoints.get(log_dir)
            if checkpoint is not None:
                checkpoint.write({tp: log.recovery_point for tp, log in logs_to_checkpoint.items()})
        except KafkaStorageException as e:
            self.error(f"Disk error while writing recovery offsets checkpoint in directory {log_dir}: {e}")
        except OSError as e:
            self._log_dir_failure_channel.maybe_add_offline_log_dir(
                str(log_dir), f"Disk error while writing recovery offsets checkpoint in directory {log_dir}: {e}", e
            )

    def _checkpoint_log_start_offsets_in_dir(
        self, log_dir: Path, logs_to_checkpoint: Mapping[TopicPartition, Log]
    ) -> None:
        try:
            checkpoint = self._log_start_offset_checkpoints.get(log_dir)
            if checkpoint is not None:
                # Only offsets beyond the first segment's base offset need remembering.
                checkpoint.write(
                    {
                        tp: log.log_start_offset
                        for tp, log in logs_to_checkpoint.items()
                        if log.log_start_offset > log.log_segments()[0].base_offset
                    }
                )
        except KafkaStorageException as e:
            self.error(f"Disk error while writing log start offsets checkpoint in directory {log_dir}: {e}")

    def maybe_update_preferred_log_dir(self, topic_partition: TopicPartition, log_dir: str) -> None:
        """Remember where a partition should be created (AlterReplicaLogDirs), unless it is already there."""
        current = self.get_log(topic_partition)
        future = self.get_log(topic_partition, is_future=True)
        if not (current is not None and current.parent_dir == log_dir) and not (
            future is not None and future.parent_dir == log_dir
        ):
            self._preferred_log_dirs[topic_partition] = log_dir

    def abort_and_pause_cleaning(self, topic_partition: TopicPartition) -> None:
        """Stop cleaning the partition until resumed."""
        if self._cleaner is not None:
            self._cleaner.abort_and_pause_cleaning(topic_partition)
            self.info(f"The cleaning for partition {topic_partition} is aborted and paused")

    def _resume_cleaning(self, topic_partition: TopicPartition) -> None:
        if self._cleaner is not None:
            self._cleaner.resume_cleaning([topic_partition])
            self.info(f"Cleaning for partition {topic_partition} is resumed")

    def _maybe_truncate_cleaner_checkpoint_to_active_segment_base_offset(
        self, log: Log, topic_partition: TopicPartition
    ) -> None:
        if self._cleaner is not None:
            self._cleaner.maybe_truncate_checkpoint(
                log.parent_dir_file, topic_partition, log.active_segment.base_offset
            )

    # ---- lookup and creation ---------------------------------------------------------------------

    def get_log(self, topic_partition: TopicPartition, is_future: bool = False) -> Log | None:
        """The partition's log (or future log), if this broker has it."""
        return (self._future_logs if is_future else self._current_logs).get(topic_partition)

    def initializing_log(self, topic_partition: TopicPartition) -> None:
        """Mark the partition's log as being initialised (config changes are then replayed after)."""
        self.partitions_initializing[topic_partition] = False

    def topic_config_updated(self, topic: str) -> None:
        """A topic's config changed: logs of it being initialised reload their config afterwards."""
        for tp in list(self.partitions_initializing):
            if tp.topic == topic and self.partitions_initializing.get(tp) is False:
                self.partitions_initializing[tp] = True

    def broker_config_updated(self) -> None:
        """The broker's defaults changed: every log being initialised reloads its config afterwards."""
        for tp in list(self.partitions_initializing):
            if self.partitions_initializing.get(tp) is False:
                self.partitions_initializing[tp] = True

    def finished_initializing_log(self, topic_partition: TopicPartition, maybe_log: Log | None) -> None:
        """End of initialisation; reload the config if it changed meanwhile."""
        removed_value = self.partitions_initializing.pop(topic_partition, None)
        if removed_value is True and maybe_log is not None:
            maybe_log.update_config(self._fetch_log_config(topic_partition.topic))

    def _fetch_log_config(self, topic_name: str) -> LogConfig:
        props = self._config_repository.topic_config(topic_name)
        return LogConfig.from_props(self.current_default_config.originals(), props)

    def get_or_create_log(self, topic_partition: TopicPartition, is_new: bool = False, is_future: bool = False) -> Log:
        """The partition's log, created in the preferred (or least loaded) live directory if missing.

        KafkaStorageException when it must be created but a log directory is offline and the
        partition is not new (its data may be in the offline directory).
        """
        with self._log_creation_or_deletion_lock:
            existing = self.get_log(topic_partition, is_future)
            if existing is not None:
                return existing
            offline = self._offline_log_dirs()
            if not is_new and offline:
                raise KafkaStorageException(
                    f"Can not create log for {topic_partition} because log directories "
                    f"{','.join(str(d) for d in offline)} are offline"
                )
            preferred_log_dir = self._preferred_log_dirs.get(topic_partition)
            if is_future:
                if preferred_log_dir is None:
                    raise RuntimeError(
                        f"Can not create the future log for {topic_partition} without having a preferred log directory"
                    )
                current = self.get_log(topic_partition)
                if current is not None and current.parent_dir == preferred_log_dir:
                    raise RuntimeError(
                        f"Can not create the future log for {topic_partition} in the current log directory of this "
                        "partition"
                    )
            log_dirs = [Path(preferred_log_dir)] if preferred_log_dir is not None else self._next_log_dirs()
            log_dir_name = Log.log_future_dir_name(topic_partition) if is_future else Log.log_dir_name(topic_partition)
            log_dir: Path | None = None
            for candidate in log_dirs:
                log_dir = self._create_log_directory(candidate, log_dir_name)
                if log_dir is not None:
                    break
            if log_dir is None:
                raise KafkaStorageException(
                    "No log directories available. Tried " + ", ".join(str(d.absolute()) for d in log_dirs)
                )
            config = self._fetch_log_config(topic_partition.topic)
            log = Log.apply(
                log_dir,
                config,
                0,
                0,
                self._require_scheduler(),
                self._time,
                self.max_pid_expiration_ms,
                PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                self._log_dir_failure_channel,
                keep_partition_metadata_file=self.keep_partition_metadata_file,
                broker_topic_stats=self._broker_topic_stats,
            )
            (self._future_logs if is_future else self._current_logs).put(topic_partition, log)
            self.info(
                f"Created log for partition {topic_partition} in {log_dir} with properties "
                f"{config.overridden_configs_as_loggable_string()}"
            )
            self._preferred_log_dirs.pop(topic_partition, None)
            return log

    def _create_log_directory(self, log_dir: Path, log_dir_name: str) -> Path | None:
        """Create `log_dir_name` in `log_dir`; None (with the directory reported offline on a disk error)."""
        log_dir_path = str(log_dir.absolute())
        if not self.is_log_dir_online(log_dir_path):
            self.warn(f"Can not create log {log_dir_name} because log directory {log_dir_path} is offline")
            return None
        dir = Path(log_dir_path) / log_dir_name
        try:
            dir.mkdir(parents=True, exist_ok=True)
            return dir
        except OSError as e:
            msg = f"Error while creating log for {log_dir_name} in dir {log_dir_path}"
            self._log_dir_failure_channel.maybe_add_offline_log_dir(log_dir_path, msg, e)
            self.warn(msg, e)
            return None

    # ---- deletion --------------------------------------------------------------------------------

    def _delete_logs(self) -> None:
        """Delete the logs whose `file.delete.delay.ms` has passed, then schedule the next run."""
        next_delay_ms = 0

        def next_delete_delay_ms() -> int:
            head = _peek(self._logs_to_be_deleted)
            if head is not None:
                return head[1] + self.current_default_config.file_delete_delay_ms - self._time.milliseconds()
            # PORT: with an empty queue and file.delete.delay.ms=0, Kafka's task blocks its scheduler thread in
            # take() until a log is queued; here it comes back a second later instead.
            return self.current_default_config.file_delete_delay_ms or _EMPTY_QUEUE_RECHECK_MS

        try:
            while True:
                next_delay_ms = next_delete_delay_ms()
                if next_delay_ms > 0:
                    break
                removed_log, _ = self._logs_to_be_deleted.get_nowait()
                try:
                    removed_log.delete()
                    self.info(
                        f"Deleted log for partition {removed_log.topic_partition} in {removed_log.dir.absolute()}."
                    )
                except KafkaStorageException as e:
                    self.error(f"Exception while deleting {removed_log} in dir {removed_log.parent_dir}.", e)
        except Exception as e:
            self.error("Exception in kafka-delete-logs thread.", e)
        finally:
            scheduler = self._scheduler
            if scheduler is not None:
                try:
                    scheduler.schedule("kafka-delete-logs", self._delete_logs, delay_ms=max(next_delay_ms, 0))
                except Exception as e:
                    if scheduler.is_started:
                        self.error("Failed to schedule next delete in kafka-delete-logs thread", e)

    def replace_current_with_future_log(self, topic_partition: TopicPartition) -> None:
        """The future replica has caught up: it becomes the current one, the old one is deleted."""
        with self._log_creation_or_deletion_lock:
            source_log = self._current_logs.get(topic_partition)
            dest_log = self._future_logs.get(topic_partition)
            self.info(f"Attempting to replace current log {source_log} with {dest_log} for {topic_partition}")
            if source_log is None:
                raise KafkaStorageException(f"The current replica for {topic_partition} is offline")
            if dest_log is None:
                raise KafkaStorageException(f"The future replica for {topic_partition} is offline")
            dest_log.rename_dir(Log.log_dir_name(topic_partition))
            dest_log.update_high_watermark(source_log.high_watermark)
            self._future_logs.remove(topic_partition)
            self._current_logs.put(topic_partition, dest_log)
            if self._cleaner is not None:
                self._cleaner.alter_checkpoint_dir(
                    topic_partition, source_log.parent_dir_file, dest_log.parent_dir_file
                )
                self._resume_cleaning(topic_partition)
            try:
                source_log.rename_dir(Log.log_delete_dir_name(topic_partition))
                source_log.close()
                log_dir = source_log.parent_dir_file
                logs_to_checkpoint = self._logs_in_dir(log_dir)
                self._checkpoint_recovery_offsets_in_dir(log_dir, logs_to_checkpoint)
                self._checkpoint_log_start_offsets_in_dir(log_dir, logs_to_checkpoint)
                source_log.remove_log_metrics()
                dest_log.refresh_log_metrics()
                self._add_log_to_be_deleted(source_log)
            except KafkaStorageException:
                # Its directory is offline; the failure handler no longer sees this log, so close it here.
                source_log.close_handlers()
                source_log.remove_log_metrics()
                dest_log.refresh_log_metrics()
                raise
            self.info(f"The current replica is successfully replaced with the future replica for {topic_partition}")

    def async_delete(
        self, topic_partition: TopicPartition, is_future: bool = False, checkpoint: bool = True
    ) -> Log | None:
        """Rename the partition's directory to `-delete` and queue it for removal; returns the log."""
        with self._log_creation_or_deletion_lock:
            removed_log = (self._future_logs if is_future else self._current_logs).remove(topic_partition)
            if removed_log is not None:
                removed_log.remove_log_metrics()
        if removed_log is not None:
            # Cleaning of the log must have stopped before its files go.
            if self._cleaner is not None and not is_future:
                self._cleaner.abort_cleaning(topic_partition)
                if checkpoint:
                    self._cleaner.update_checkpoints(removed_log.parent_dir_file, partition_to_remove=topic_partition)
            removed_log.rename_dir(Log.log_delete_dir_name(topic_partition))
            if checkpoint:
                log_dir = removed_log.parent_dir_file
                logs_to_checkpoint = self._logs_in_dir(log_dir)
                self._checkpoint_recovery_offsets_in_dir(log_dir, logs_to_checkpoint)
                self._checkpoint_log_start_offsets_in_dir(log_dir, logs_to_checkpoint)
            self._add_log_to_be_deleted(removed_log)
            self.info(
                f"Log for partition {removed_log.topic_partition} is renamed to {removed_log.dir.absolute()} and is "
                "scheduled for deletion"
            )
        else:
            offline = self._offline_log_dirs()
            if offline:
                raise KafkaStorageException(
                    f"Failed to delete log for {'future' if is_future else ''} {topic_partition} because it may be in "
                    f"one of the offline directories {','.join(str(d) for d in offline)}"
                )
        return removed_log

    def async_delete_partitions(
        self, topic_partitions: Iterable[TopicPartition], error_handler: Callable[[TopicPartition, BaseException], Any]
    ) -> None:
        """Delete several partitions, writing the checkpoints once at the end.

        # PORT: Kafka's second `asyncDelete` overload (a set of partitions and an error handler).
        """
        log_dirs: dict[Path, None] = {}
        for topic_partition in topic_partitions:
            try:
                current = self.get_log(topic_partition)
                if current is not None:
                    log_dirs[current.parent_dir_file] = None
                    self.async_delete(topic_partition, checkpoint=False)
                future = self.get_log(topic_partition, is_future=True)
                if future is not None:
                    log_dirs[future.parent_dir_file] = None
                    self.async_delete(topic_partition, is_future=True, checkpoint=False)
            except Exception as e:
                error_handler(topic_partition, e)
        logs_by_dir = self._logs_by_dir()
        for log_dir in log_dirs:
            if self._cleaner is not None:
                self._cleaner.update_checkpoints(log_dir)
            logs_to_checkpoint = logs_by_dir.get(str(log_dir), {})
            self._checkpoint_recovery_offsets_in_dir(log_dir, logs_to_checkpoint)
            self._checkpoint_log_start_offsets_in_dir(log_dir, logs_to_checkpoint)

    def _next_log_dirs(self) -> list[Path]:
        """Live directories ordered by how many partitions they hold, fewest first."""
        live = self.live_log_dirs
        if len(live) == 1:
            return live
        counts = {str(d): 0 for d in live}
        for log in self.all_logs():
            if log.parent_dir in counts:
                counts[log.parent_dir] += 1
        return [Path(path) for path, _ in sorted(counts.items(), key=lambda item: item[1])]

    # ---- retention and flushing ------------------------------------------------------------------

    def cleanup_logs(self) -> None:
        """Apply retention to every non-compacted log (and its future log)."""
        self.debug("Beginning log cleanup...")
        total = 0
        start_ms = self._time.milliseconds()
        if self._cleaner is not None:
            # Kept away from the cleaner while the retention runs, in case the policy changes meanwhile.
            deletable_logs = self._cleaner.pause_cleaning_for_non_compacted_partitions()
        else:
            deletable_logs = [(tp, log) for tp, log in self._current_logs.items() if not log.config.compact]
        try:
            for topic_partition, log in deletable_logs:
                self.debug(f"Garbage collecting '{log.name}'")
                total += log.delete_old_segments()
                future_log = self._future_logs.get(topic_partition)
                if future_log is not None:
                    self.debug(f"Garbage collecting future log '{future_log.name}'")
                    total += future_log.delete_old_segments()
        finally:
            if self._cleaner is not None:
                self._cleaner.resume_cleaning([tp for tp, _ in deletable_logs])
        self.debug(
            f"Log cleanup completed. {total} files deleted in {(self._time.milliseconds() - start_ms) // 1000} seconds"
        )

    def all_logs(self) -> list[Log]:
        """Every current and future log."""
        return self._current_logs.values + self._future_logs.values

    def logs_by_topic(self, topic: str) -> list[Log]:
        """The logs (current and future) of `topic`."""
        return [log for tp, log in self._current_logs.items() + self._future_logs.items() if tp.topic == topic]

    def _logs_by_dir(self) -> dict[str, dict[TopicPartition, Log]]:
        by_dir: dict[str, dict[TopicPartition, Log]] = {}
        for tp, log in self._current_logs.items() + self._future_logs.items():
            by_dir.setdefault(log.parent_dir, {})[tp] = log
        return by_dir

    def _logs_in_dir(self, dir: Path) -> dict[TopicPartition, Log]:
        return self._logs_by_dir().get(str(dir.absolute()), {})

    def is_log_dir_online(self, log_dir: str) -> bool:
        """Whether the configured directory `log_dir` (absolute) is online; LogDirNotFoundException if unknown."""
        if not any(str(d) == log_dir for d in self.log_dirs):
            raise LogDirNotFoundException(f"Log dir {log_dir} is not found in the config.")
        return Path(log_dir) in self.live_log_dirs

    def _flush_dirty_logs(self) -> None:
        """Flush every log not flushed for its `flush.ms`."""
        self.debug("Checking for dirty logs to flush...")
        for topic_partition, log in self._current_logs.items() + self._future_logs.items():
            try:
                time_since_last_flush = self._time.milliseconds() - log.last_flush_time
                self.debug(
                    f"Checking if flush is needed on {topic_partition.topic} flush interval {log.config.flush_ms} last "
                    f"flushed {log.last_flush_time} time since last flush: {time_since_last_flush}"
                )
                if time_since_last_flush >= log.config.flush_ms:
                    log.flush()
            except Exception as e:
                self.error(f"Error flushing topic {topic_partition.topic}", e)

    def _require_scheduler(self) -> Scheduler:
        if self._scheduler is None:
            raise KafkaException("LogManager was created without a scheduler; logs cannot be opened")
        return self._scheduler

    # ---- companion -------------------------------------------------------------------------------

    @classmethod
    def apply(
        cls,
        config: KafkaConfig,
        initial_offline_dirs: Iterable[str],
        config_repository: ConfigRepository,
        kafka_scheduler: Scheduler,
        time: Time,
        log_dir_failure_channel: LogDirFailureChannel,
        keep_partition_metadata_file: bool = True,
        broker_topic_stats: BrokerTopicStats | None = None,
    ) -> LogManager:
        """A LogManager configured from the broker's KafkaConfig."""
        default_props = LogConfig.extract_log_config_map(config)
        LogConfig.validate_values(default_props)
        default_log_config = LogConfig(default_props)
        cleaner_config = LogCleaner.cleaner_config(config)
        return cls(
            log_dirs=[Path(d).absolute() for d in config.log_dirs],
            initial_offline_dirs=[Path(d).absolute() for d in initial_offline_dirs],
            config_repository=config_repository,
            initial_default_config=default_log_config,
            cleaner_config=cleaner_config,
            recovery_threads_per_data_dir=config.num_recovery_threads_per_data_dir,
            flush_check_ms=config.log_flush_scheduler_interval_ms,
            flush_recovery_offset_checkpoint_ms=config.log_flush_offset_checkpoint_interval_ms,
            flush_start_offset_checkpoint_ms=config.log_flush_start_offset_checkpoint_interval_ms,
            retention_check_ms=config.log_cleanup_interval_ms,
            max_pid_expiration_ms=config.transactional_id_expiration_ms,
            scheduler=kafka_scheduler,
            log_dir_failure_channel=log_dir_failure_channel,
            time=time,
            keep_partition_metadata_file=keep_partition_metadata_file,
            broker_topic_stats=broker_topic_stats,
        )


def _peek(q: queue.Queue[tuple[Log, int]]) -> tuple[Log, int] | None:
    """The head of the queue without taking it (LinkedBlockingQueue.peek)."""
    with q.mutex:
        return q.queue[0] if q.queue else None


def _wait_for_all_to_complete(jobs: list[Future[None]], callback: Callable[[BaseException], Any]) -> bool:
    """Wait for every job; report each failure to `callback`; True if none failed."""
    failures = 0
    for job in jobs:
        try:
            job.result()
        except Exception as e:
            callback(e)
            failures += 1
    return failures == 0
