"""Port of core/src/main/scala/kafka/log/LogCleanerManager.scala (Kafka 2.8).

The cleaning state of every partition, shared by the cleaner threads, the retention task and the
log manager: which partitions are being cleaned, which are paused (and how many times), which
failed and are uncleanable, and how far each log has been cleaned (`cleaner-offset-checkpoint` in
each log directory). It also picks the next log to clean: the compacted log with the highest
cleanable ratio above its `min.cleanable.dirty.ratio` (or any whose `max.compaction.lag.ms` is due).

Cleaning states of a partition (absent means idle):

    idle --grab--> LogCleaningInProgress --done--> idle
    LogCleaningInProgress --abort--> LogCleaningAborted --done--> LogCleaningPaused(1)
    idle --pause--> LogCleaningPaused(1) <--resume/pause--> LogCleaningPaused(n)

Threading: one RLock (`_lock`, Kafka's ReentrantLock) guards the states, the uncleanable sets and
the checkpoint files; `_paused_cleaning_cond` is its Condition. Lock order: LogManager's
`_log_creation_or_deletion_lock` before this lock; a Log's lock may be taken under it (cleanable
offsets read the log) but this lock is never taken under a Log's lock.

# PORT: LogToClean and PreCleanStats, which Kafka declares in LogCleaner.scala, are defined here to
avoid an import cycle (this module uses them and LogCleaner imports this module); kafka.log.log_cleaner
re-exports them. LogCleaningAbortedException (kafka.common in core) is defined here too.

Metrics (kafka.log:type=LogCleanerManager): uncleanable-partitions-count and uncleanable-bytes per log directory,
max-dirty-percent and time-since-last-run-ms, as Kafka's gauges.
"""

from __future__ import annotations

import threading
from abc import ABC
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from kafka.common.errors import KafkaException, KafkaStorageException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.checkpoints.offset_checkpoint_file import OffsetCheckpointFile
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool

if TYPE_CHECKING:
    from kafka.log.log import Log

OFFSET_CHECKPOINT_FILE: Final = "cleaner-offset-checkpoint"
INT64_MAX: Final = 2**63 - 1


class LogCleaningAbortedException(Exception):
    """Cleaning of a partition was aborted (truncation, deletion, pause).

    # PORT: Kafka's kafka.common.LogCleaningAbortedException (a RuntimeException).
    """


class LogCleaningException(KafkaException):
    """An unexpected failure while cleaning `log`; the partition is marked uncleanable."""

    def __init__(self, log: Log, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.log = log
        self.__cause__ = cause


class LogCleaningState(ABC):  # noqa: B024 - a sealed trait: the subclasses are its only values
    """The cleaning state of a partition (absent: idle)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class LogCleaningInProgress(LogCleaningState):
    """A cleaner thread (or the deletion of old segments) is working on the partition."""


@dataclass(frozen=True, slots=True)
class LogCleaningAborted(LogCleaningState):
    """An abort was requested; the cleaner stops at its next check."""


@dataclass(frozen=True, slots=True)
class LogCleaningPaused(LogCleaningState):
    """No cleaning until resumed as many times as it was paused."""

    paused_count: int


@dataclass(frozen=True, slots=True)
class OffsetsToClean:
    """The dirty range [first_dirty_offset, first_uncleanable_dirty_offset) of a log, and whether the
    checkpoint must be reset to `first_dirty_offset`."""

    first_dirty_offset: int
    first_uncleanable_dirty_offset: int
    force_update_checkpoint: bool = False


@dataclass(slots=True)
class PreCleanStats:
    """What the choice of the log to clean found."""

    max_compaction_delay_ms: int = 0
    delayed_partitions: int = 0
    cleanable_partitions: int = 0

    def update_max_compaction_delay(self, delay_ms: int) -> None:
        """Account for a partition overdue by `delay_ms` (0: not overdue)."""
        self.max_compaction_delay_ms = max(self.max_compaction_delay_ms, delay_ms)
        if delay_ms > 0:
            self.delayed_partitions += 1

    def record_cleanable_partitions(self, num_of_cleanables: int) -> None:
        """Record how many partitions were cleanable."""
        self.cleanable_partitions = num_of_cleanables


@dataclass(slots=True)
class LogToClean:
    """A compacted log, its dirty range, and the sizes that rank it among the candidates."""

    topic_partition: TopicPartition
    log: Log
    first_dirty_offset: int
    uncleanable_offset: int
    need_compaction_now: bool = False
    clean_bytes: int = field(init=False)
    first_uncleanable_offset: int = field(init=False)
    cleanable_bytes: int = field(init=False)
    total_bytes: int = field(init=False)
    cleanable_ratio: float = field(init=False)

    def __post_init__(self) -> None:
        self.clean_bytes = sum(s.size for s in self.log.log_segments(-1, self.first_dirty_offset))
        self.first_uncleanable_offset, self.cleanable_bytes = calculate_cleanable_bytes(
            self.log, self.first_dirty_offset, self.uncleanable_offset
        )
        self.total_bytes = self.clean_bytes + self.cleanable_bytes
        self.cleanable_ratio = self.cleanable_bytes / self.total_bytes if self.total_bytes else 0.0


class LogCleanerManager(Logging, KafkaMetricsGroup):
    """Cleaning states, uncleanable partitions and cleaner checkpoints of the broker's logs."""

    logger_name = "kafka.log.LogCleaner"

    OFFSET_CHECKPOINT_FILE: Final = OFFSET_CHECKPOINT_FILE

    def __init__(
        self, log_dirs: Iterable[Path], logs: Pool[TopicPartition, Log], log_dir_failure_channel: LogDirFailureChannel
    ) -> None:
        self.log_dirs = [Path(d) for d in log_dirs]
        self.logs = logs
        self.log_dir_failure_channel = log_dir_failure_channel
        self.offset_checkpoint_file = OFFSET_CHECKPOINT_FILE
        self._checkpoints: dict[Path, OffsetCheckpointFile] = {
            d: OffsetCheckpointFile(d / OFFSET_CHECKPOINT_FILE, log_dir_failure_channel) for d in self.log_dirs
        }
        self._in_progress: dict[TopicPartition, LogCleaningState] = {}
        self._uncleanable_partitions: dict[str, set[TopicPartition]] = {}
        self._lock = threading.RLock()
        self._paused_cleaning_cond = threading.Condition(self._lock)
        # The values behind Kafka's max-dirty-percent and time-since-last-run-ms gauges.
        self.dirtiest_log_cleanable_ratio = 0.0
        self.time_of_last_run = Time.SYSTEM.milliseconds()
        for log_dir in self.log_dirs:
            self._new_log_dir_gauges(str(log_dir.absolute()))
        self.new_gauge("max-dirty-percent", lambda: int(100 * self.dirtiest_log_cleanable_ratio))
        self.new_gauge("time-since-last-run-ms", lambda: Time.SYSTEM.milliseconds() - self.time_of_last_run)

    def _new_log_dir_gauges(self, log_dir: str) -> None:
        tags = {"logDirectory": log_dir}
        self.new_gauge("uncleanable-partitions-count", lambda: len(self.uncleanable_partitions(log_dir)), tags)
        self.new_gauge("uncleanable-bytes", lambda: self._uncleanable_bytes(log_dir), tags)

    def _uncleanable_bytes(self, log_dir: str) -> int:
        """The bytes the uncleanable partitions of `log_dir` hold between their cleaned and uncleanable offsets."""
        with self._lock:
            partitions = set(self._uncleanable_partitions.get(log_dir, set()))
            if not partitions:
                return 0
            last_clean = self.all_cleaner_checkpoints()
            now = Time.SYSTEM.milliseconds()
            total = 0
            for tp in partitions:
                log = self.logs.get(tp)
                if log is None:
                    continue
                offsets = cleanable_offsets(log, last_clean.get(tp), now)
                total += calculate_cleanable_bytes(
                    log, offsets.first_dirty_offset, offsets.first_uncleanable_dirty_offset
                )[1]
            return total

    def all_cleaner_checkpoints(self) -> dict[TopicPartition, int]:
        """The cleaned-up-to offset of every partition, from every directory's checkpoint."""
        with self._lock:
            result: dict[TopicPartition, int] = {}
            for checkpoint in self._checkpoints.values():
                try:
                    result.update(checkpoint.read())
                except KafkaStorageException as e:
                    self.error(
                        f"Failed to access checkpoint file {checkpoint.file.name} in dir "
                        f"{checkpoint.file.parent.absolute()}",
                        e,
                    )
            return result

    def cleaning_state(self, tp: TopicPartition) -> LogCleaningState | None:
        """The partition's cleaning state (None: idle)."""
        with self._lock:
            return self._in_progress.get(tp)

    def set_cleaning_state(self, tp: TopicPartition, state: LogCleaningState) -> None:
        """Set the partition's cleaning state (tests)."""
        with self._lock:
            self._in_progress[tp] = state

    def grab_filthiest_compacted_log(
        self, time: Time, pre_clean_stats: PreCleanStats | None = None
    ) -> LogToClean | None:
        """The compacted log most in need of cleaning, marked in progress; None if none qualifies."""
        pre_clean_stats = pre_clean_stats if pre_clean_stats is not None else PreCleanStats()
        with self._lock:
            now = time.milliseconds()
            self.time_of_last_run = now
            last_clean = self.all_cleaner_checkpoints()
            dirty_logs: list[LogToClean] = []
            for topic_partition, log in self.logs.items():
                if not log.config.compact:
                    continue
                if topic_partition in self._in_progress or self._is_uncleanable_partition(log, topic_partition):
                    continue
                try:
                    offsets_to_clean = cleanable_offsets(log, last_clean.get(topic_partition), now)
                    # Checkpoints pointing outside the log are reset.
                    if offsets_to_clean.force_update_checkpoint:
                        self.update_checkpoints(
                            log.parent_dir_file,
                            partition_to_update_or_add=(topic_partition, offsets_to_clean.first_dirty_offset),
                        )
                    compaction_delay_ms = max_compaction_delay(log, offsets_to_clean.first_dirty_offset, now)
                    pre_clean_stats.update_max_compaction_delay(compaction_delay_ms)
                    ltc = LogToClean(
                        topic_partition,
                        log,
                        offsets_to_clean.first_dirty_offset,
                        offsets_to_clean.first_uncleanable_dirty_offset,
                        compaction_delay_ms > 0,
                    )
                except Exception as e:
                    raise LogCleaningException(
                        log, f"Failed to calculate log cleaning stats for partition {topic_partition}", e
                    ) from e
                if ltc.total_bytes > 0:
                    dirty_logs.append(ltc)
            self.dirtiest_log_cleanable_ratio = max((ltc.cleanable_ratio for ltc in dirty_logs), default=0.0)
            cleanable_logs = [
                ltc
                for ltc in dirty_logs
                if (ltc.need_compaction_now and ltc.cleanable_bytes > 0)
                or ltc.cleanable_ratio > ltc.log.config.min_cleanable_ratio
            ]
            if not cleanable_logs:
                return None
            pre_clean_stats.record_cleanable_partitions(len(cleanable_logs))
            filthiest = max(cleanable_logs, key=lambda ltc: ltc.cleanable_ratio)
            self._in_progress[filthiest.topic_partition] = LogCleaningInProgress()
            return filthiest

    def pause_cleaning_for_non_compacted_partitions(self) -> list[tuple[TopicPartition, Log]]:
        """Pause every idle non-compacted log for the retention task, which works on the returned logs."""
        with self._lock:
            deletable_logs = [
                (tp, log) for tp, log in self.logs.items() if not log.config.compact and tp not in self._in_progress
            ]
            for tp, _ in deletable_logs:
                self._in_progress[tp] = LogCleaningPaused(1)
            return deletable_logs

    def deletable_logs(self) -> list[tuple[TopicPartition, Log]]:
        """Idle compacted logs, marked in progress so that their old segments can be deleted."""
        with self._lock:
            to_clean = [
                (tp, log)
                for tp, log in self.logs.items()
                if tp not in self._in_progress and log.config.compact and not self._is_uncleanable_partition(log, tp)
            ]
            for tp, _ in to_clean:
                self._in_progress[tp] = LogCleaningInProgress()
            return to_clean

    def abort_cleaning(self, topic_partition: TopicPartition) -> None:
        """Abort any cleaning of the partition and wait until it has stopped (then resume)."""
        with self._lock:
            self.abort_and_pause_cleaning(topic_partition)
            self.resume_cleaning([topic_partition])

    def abort_and_pause_cleaning(self, topic_partition: TopicPartition) -> None:
        """Abort any cleaning of the partition and pause it; waits until the cleaner has let go."""
        with self._lock:
            state = self._in_progress.get(topic_partition)
            if state is None:
                self._in_progress[topic_partition] = LogCleaningPaused(1)
            elif isinstance(state, LogCleaningInProgress):
                self._in_progress[topic_partition] = LogCleaningAborted()
            elif isinstance(state, LogCleaningPaused):
                self._in_progress[topic_partition] = LogCleaningPaused(state.paused_count + 1)
            else:
                raise RuntimeError(
                    f"Compaction for partition {topic_partition} cannot be aborted and paused since it is in "
                    f"{state} state."
                )
            while not self._is_cleaning_in_state_paused(topic_partition):
                self._paused_cleaning_cond.wait(0.1)

    def resume_cleaning(self, topic_partitions: Iterable[TopicPartition]) -> None:
        """Undo one pause of each partition."""
        with self._lock:
            for topic_partition in topic_partitions:
                state = self._in_progress.get(topic_partition)
                if state is None:
                    raise RuntimeError(
                        f"Compaction for partition {topic_partition} cannot be resumed since it is not paused."
                    )
                if isinstance(state, LogCleaningPaused) and state.paused_count == 1:
                    del self._in_progress[topic_partition]
                elif isinstance(state, LogCleaningPaused) and state.paused_count > 1:
                    self._in_progress[topic_partition] = LogCleaningPaused(state.paused_count - 1)
                else:
                    raise RuntimeError(
                        f"Compaction for partition {topic_partition} cannot be resumed since it is in {state} state."
                    )

    def _is_cleaning_in_state(self, topic_partition: TopicPartition, expected_state: LogCleaningState) -> bool:
        return self._in_progress.get(topic_partition) == expected_state

    def _is_cleaning_in_state_paused(self, topic_partition: TopicPartition) -> bool:
        return isinstance(self._in_progress.get(topic_partition), LogCleaningPaused)

    def check_cleaning_aborted(self, topic_partition: TopicPartition) -> None:
        """LogCleaningAbortedException if an abort of the partition's cleaning was requested."""
        with self._lock:
            if self._is_cleaning_in_state(topic_partition, LogCleaningAborted()):
                raise LogCleaningAbortedException()

    def update_checkpoints(
        self,
        data_dir: Path,
        partition_to_update_or_add: tuple[TopicPartition, int] | None = None,
        partition_to_remove: TopicPartition | None = None,
    ) -> None:
        """Rewrite `data_dir`'s cleaner checkpoint, dropping partitions no longer hosted, removing one and
        setting one."""
        with self._lock:
            checkpoint = self._checkpoints.get(Path(data_dir))
            if checkpoint is None:
                return
            try:
                current = {tp: offset for tp, offset in checkpoint.read().items() if tp in self.logs}
                if partition_to_remove is not None:
                    current.pop(partition_to_remove, None)
                if partition_to_update_or_add is not None:
                    tp, offset = partition_to_update_or_add
                    current[tp] = offset
                checkpoint.write(current)
            except KafkaStorageException as e:
                self.error(
                    f"Failed to access checkpoint file {checkpoint.file.name} in dir "
                    f"{checkpoint.file.parent.absolute()}",
                    e,
                )

    def alter_checkpoint_dir(self, topic_partition: TopicPartition, source_log_dir: Path, dest_log_dir: Path) -> None:
        """Move the partition's checkpoint entry (and uncleanable mark) from one directory to another."""
        with self._lock:
            try:
                source = self._checkpoints.get(Path(source_log_dir))
                offset = source.read().get(topic_partition) if source is not None else None
                if offset is not None:
                    self.debug(
                        f"Removing the partition offset data in checkpoint file for '{topic_partition}' from "
                        f"{Path(source_log_dir).absolute()} directory."
                    )
                    self.update_checkpoints(source_log_dir, partition_to_remove=topic_partition)
                    self.debug(
                        f"Adding the partition offset data in checkpoint file for '{topic_partition}' to "
                        f"{Path(dest_log_dir).absolute()} directory."
                    )
                    self.update_checkpoints(dest_log_dir, partition_to_update_or_add=(topic_partition, offset))
            except KafkaStorageException as e:
                self.error(f"Failed to access checkpoint file in dir {Path(source_log_dir).absolute()}", e)
            log_uncleanable = self._uncleanable_partitions.get(str(source_log_dir), set())
            if topic_partition in log_uncleanable:
                log_uncleanable.discard(topic_partition)
                self.mark_partition_uncleanable(str(dest_log_dir), topic_partition)

    def handle_log_dir_failure(self, dir: str) -> None:
        """Stop using the checkpoint of the failed directory `dir`."""
        self.warn(f"Stopping cleaning logs in dir {dir}")
        with self._lock:
            self._checkpoints = {d: c for d, c in self._checkpoints.items() if str(d.absolute()) != dir}

    def maybe_truncate_checkpoint(self, data_dir: Path, topic_partition: TopicPartition, offset: int) -> None:
        """Lower the partition's checkpointed offset to `offset` if it is beyond it (after truncation)."""
        with self._lock:
            log = self.logs.get(topic_partition)
            if log is not None and log.config.compact:
                checkpoint = self._checkpoints.get(Path(data_dir))
                if checkpoint is not None:
                    existing = checkpoint.read()
                    if existing.get(topic_partition, 0) > offset:
                        existing[topic_partition] = offset
                        checkpoint.write(existing)

    def done_cleaning(self, topic_partition: TopicPartition, data_dir: Path, end_offset: int) -> None:
        """Cleaning ended: record `end_offset` and go idle, or, if an abort was requested, become paused."""
        with self._lock:
            state = self._in_progress.get(topic_partition)
            if isinstance(state, LogCleaningInProgress):
                self.update_checkpoints(data_dir, partition_to_update_or_add=(topic_partition, end_offset))
                del self._in_progress[topic_partition]
            elif isinstance(state, LogCleaningAborted):
                self._in_progress[topic_partition] = LogCleaningPaused(1)
                self._paused_cleaning_cond.notify_all()
            elif state is None:
                raise RuntimeError(f"State for partition {topic_partition} should exist.")
            else:
                raise RuntimeError(f"In-progress partition {topic_partition} cannot be in {state} state.")

    def done_deleting(self, topic_partitions: Iterable[TopicPartition]) -> None:
        """Deletion of old segments ended for these partitions."""
        with self._lock:
            for topic_partition in topic_partitions:
                state = self._in_progress.get(topic_partition)
                if isinstance(state, LogCleaningInProgress):
                    del self._in_progress[topic_partition]
                elif isinstance(state, LogCleaningAborted):
                    self._in_progress[topic_partition] = LogCleaningPaused(1)
                    self._paused_cleaning_cond.notify_all()
                elif state is None:
                    raise RuntimeError(f"State for partition {topic_partition} should exist.")
                else:
                    raise RuntimeError(f"In-progress partition {topic_partition} cannot be in {state} state.")

    def uncleanable_partitions(self, log_dir: str) -> set[TopicPartition]:
        """The partitions of `log_dir` marked uncleanable."""
        with self._lock:
            return set(self._uncleanable_partitions.get(log_dir, set()))

    def mark_partition_uncleanable(self, log_dir: str, partition: TopicPartition) -> None:
        """Stop trying to clean `partition` (after an unexpected error)."""
        with self._lock:
            self._uncleanable_partitions.setdefault(log_dir, set()).add(partition)

    def _is_uncleanable_partition(self, log: Log, topic_partition: TopicPartition) -> bool:
        with self._lock:
            return topic_partition in self._uncleanable_partitions.get(log.parent_dir, set())


# ---- companion -----------------------------------------------------------------------------------


def is_compact_and_delete(log: Log) -> bool:
    """Whether the log's cleanup.policy is compact,delete."""
    return bool(log.config.compact and log.config.delete)


def max_compaction_delay(log: Log, first_dirty_offset: int, now: int) -> int:
    """How far past `max.compaction.lag.ms` the oldest dirty non-active segment is (0 if not)."""
    dirty_non_active_segments = log.non_active_log_segments_from(first_dirty_offset)
    first_batch_timestamps = [t for t in log.get_first_batch_timestamp_for_segments(dirty_non_active_segments) if t > 0]
    earliest_dirty_segment_timestamp = min(first_batch_timestamps) if first_batch_timestamps else INT64_MAX
    max_compaction_lag_ms = max(log.config.max_compaction_lag_ms, 0)
    clean_until_time = now - max_compaction_lag_ms
    if earliest_dirty_segment_timestamp < clean_until_time:
        return clean_until_time - earliest_dirty_segment_timestamp
    return 0


def cleanable_offsets(log: Log, last_clean_offset: int | None, now: int) -> OffsetsToClean:
    """The dirty range that may be cleaned: from the checkpoint (reset into the log if it is outside)
    up to the first unstable offset, the active segment, or the first segment within min.compaction.lag.ms."""
    log_start_offset = log.log_start_offset
    checkpoint_dirty_offset = last_clean_offset if last_clean_offset is not None else log_start_offset
    if checkpoint_dirty_offset < log_start_offset:
        if not is_compact_and_delete(log):
            _manager_logger().warn(
                f"Resetting first dirty offset of {log.name} to log start offset {log_start_offset} since the "
                f"checkpointed offset {checkpoint_dirty_offset} is invalid."
            )
        first_dirty_offset, force_update_checkpoint = log_start_offset, True
    elif checkpoint_dirty_offset > log.log_end_offset:
        # Data at the end may have been lost: assume everything needs cleaning.
        _manager_logger().warn(
            f"The last checkpoint dirty offset for partition {log.name} is {checkpoint_dirty_offset}, which is larger "
            f"than the log end offset {log.log_end_offset}. Resetting to the log start offset {log_start_offset}."
        )
        first_dirty_offset, force_update_checkpoint = log_start_offset, True
    else:
        first_dirty_offset, force_update_checkpoint = checkpoint_dirty_offset, False

    min_compaction_lag_ms = max(log.config.compaction_lag_ms, 0)
    candidates: list[int] = []
    # Never beyond the first unstable offset, nor into the active segment.
    if log.first_unstable_offset is not None:
        candidates.append(log.first_unstable_offset)
    candidates.append(log.active_segment.base_offset)
    if min_compaction_lag_ms > 0:
        for segment in log.non_active_log_segments_from(first_dirty_offset):
            is_uncleanable = segment.largest_timestamp > now - min_compaction_lag_ms
            _manager_logger().debug(
                f"Checking if log segment may be cleaned: log='{log.name}' segment.baseOffset={segment.base_offset} "
                f"segment.largestTimestamp={segment.largest_timestamp}; now - compactionLag="
                f"{now - min_compaction_lag_ms}; is uncleanable={is_uncleanable}"
            )
            if is_uncleanable:
                candidates.append(segment.base_offset)
                break
    first_uncleanable_dirty_offset = min(candidates)
    _manager_logger().debug(
        f"Finding range of cleanable offsets for log={log.name}. Last clean offset={last_clean_offset} now={now} => "
        f"firstDirtyOffset={first_dirty_offset} firstUncleanableOffset={first_uncleanable_dirty_offset} "
        f"activeSegment.baseOffset={log.active_segment.base_offset}"
    )
    return OffsetsToClean(
        first_dirty_offset, max(first_dirty_offset, first_uncleanable_dirty_offset), force_update_checkpoint
    )


def calculate_cleanable_bytes(log: Log, first_dirty_offset: int, uncleanable_offset: int) -> tuple[int, int]:
    """The base offset of the first uncleanable segment and the bytes of the segments before it from
    the first dirty one."""
    non_active = log.non_active_log_segments_from(uncleanable_offset)
    first_uncleanable_segment = non_active[0] if non_active else log.active_segment
    first_uncleanable_offset = first_uncleanable_segment.base_offset
    cleanable_bytes = sum(
        s.size for s in log.log_segments(min(first_dirty_offset, first_uncleanable_offset), first_uncleanable_offset)
    )
    return first_uncleanable_offset, cleanable_bytes


class _ManagerObjectLogging(Logging):
    """The logger of Kafka's `object LogCleanerManager`."""

    logger_name = "kafka.log.LogCleanerManager$"


_MANAGER_OBJECT_LOGGING = _ManagerObjectLogging()


def _manager_logger() -> _ManagerObjectLogging:
    return _MANAGER_OBJECT_LOGGING
