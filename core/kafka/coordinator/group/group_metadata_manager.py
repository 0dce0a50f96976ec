"""Port of core/src/main/scala/kafka/coordinator/group/GroupMetadataManager.scala (Kafka 2.8), part 2.

The group coordinator's store: the cache of groups (with their committed offsets) for the partitions
of `__consumer_offsets` this broker leads, and the code that keeps that cache and the log in step.

- Writes: group metadata (after a rebalance) and offset commits, plain or transactional, are appended
  through the ReplicaManager; the cache changes only once the append is acknowledged.
- Loading: when the broker becomes leader of an offsets partition, the partition's log is read from its
  start to its end on the manager's scheduler thread and the groups and offsets found are cached;
  transactional commits are held back until their COMMIT marker is read.
- Unloading: when it stops leading, the partition's groups leave the cache.
- Expiry: a periodic task drops expired offsets, turns empty groups without offsets into Dead ones,
  and writes tombstones for both.

Locks: `partition_lock` (loading/owned partitions) is taken before any group's `lock`, never after;
the open-transactions map has its own lock, taken last.
"""

# PORT: the companion object's record formats (keys, values, readers, formatters) live in
# group_metadata_manager_formats.py; the class re-exposes the ones Kafka calls through
# `GroupMetadataManager.xxx` as static methods.
# Metrics: the group-coordinator-metrics sensors of the broker's `Metrics` (partition-load-time-max/avg,
# offset-commit-rate/count, offset-expiration-rate/count) and the Yammer gauges NumOffsets, NumGroups and
# NumGroups{PreparingRebalance,CompletingRebalance,Stable,Dead,Empty}
# (kafka.coordinator.group:type=GroupMetadataManager).
# PORT: `metrics` is a keyword argument; without one (unit tests) the manager keeps a private Metrics.
# PORT: the constructor takes `zk_client` and an optional `scheduler` (ours): the caller's signature
# is fixed by this port's GroupCoordinator; 2.8's manager does not use ZooKeeper, and the scheduler is
# injected only by tests. A given scheduler is owned like Kafka's own one: started and shut down here.

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kafka.common.internals.topic import Topic
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.max import Max
from kafka.common.metrics.stats.meter import Meter as MeterStat
from kafka.common.protocol.errors import Errors
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import (
    MAGIC_VALUE_V2,
    NO_PARTITION_LEADER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
)
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.requests.offset_fetch_response import INVALID_OFFSET, PartitionData
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.common.utils.utils import abs_int32, java_string_hash_code
from kafka.coordinator.coordinator_log import read_log_batches
from kafka.coordinator.group import group_metadata_manager_formats as formats
from kafka.coordinator.group.group_metadata import (
    CommitRecordMetadataAndOffset,
    CompletingRebalance,
    Dead,
    Empty,
    GroupMetadata,
    GroupState,
    PreparingRebalance,
    Stable,
)
from kafka.coordinator.group.group_metadata_manager_formats import (
    GroupMetadataKey,
    GroupTopicPartition,
    IllegalStateException,
    OffsetKey,
)
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.coordinator.group.offset_config import OffsetConfig
from kafka.log.log_validator import Coordinator
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.kafka_config import ApiVersion
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.core_utils import scala_option
from kafka.utils.kafka_scheduler import KafkaScheduler, Scheduler
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool

__all__ = ["GroupMetadataManager"]

_COORDINATOR = Coordinator()

# Offsets keyed by partition; pending transactional offsets keyed by producer id, then partition.
_Offsets = dict[TopicPartition, CommitRecordMetadataAndOffset]
_PendingOffsets = dict[int, dict[TopicPartition, CommitRecordMetadataAndOffset]]


# PORT: Java's String.hashCode and Kafka's Utils.abs (clients' Utils.java); only this class needs them so far.
def _java_string_length(s: str) -> int:
    """Java's `String.length()`: the number of UTF-16 code units."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


class GroupMetadataManager(Logging, KafkaMetricsGroup):
    """The cache of groups and offsets of the offsets partitions this broker leads; see the module docstring."""

    logger_name = "kafka.coordinator.group.GroupMetadataManager"

    METRICS_GROUP = "group-coordinator-metrics"
    LOAD_TIME_SENSOR = "GroupPartitionLoadTime"

    # The companion object's record helpers (see the PORT note at the top).
    offset_commit_key = staticmethod(formats.offset_commit_key)
    group_metadata_key = staticmethod(formats.group_metadata_key)
    offset_commit_value = staticmethod(formats.offset_commit_value)
    group_metadata_value = staticmethod(formats.group_metadata_value)
    read_message_key = staticmethod(formats.read_message_key)
    read_offset_message_value = staticmethod(formats.read_offset_message_value)
    read_group_message_value = staticmethod(formats.read_group_message_value)

    def __init__(
        self,
        broker_id: int,
        inter_broker_protocol_version: ApiVersion,
        config: OffsetConfig,
        replica_manager: Any,
        zk_client: Any,
        time: Time,
        scheduler: Scheduler | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.broker_id = broker_id
        self.inter_broker_protocol_version = inter_broker_protocol_version
        self.config = config
        self.replica_manager = replica_manager
        self.zk_client = zk_client
        self._time = time
        self._compression_type = config.offsets_topic_compression_codec

        self._group_metadata_cache: Pool[str, GroupMetadata] = Pool()
        # Guards the two sets below; taken before any group lock.
        self._partition_lock = threading.RLock()
        self._loading_partitions: set[int] = set()
        self._owned_partitions: set[int] = set()
        self._shutting_down = AtomicBoolean(False)
        self._group_metadata_topic_partition_count = 0
        # One thread loads and unloads partitions, expires offsets and completes transactions.
        self._scheduler: Scheduler = (
            scheduler if scheduler is not None else KafkaScheduler(1, "group-metadata-manager-")
        )
        # Producer id -> groups with transactional offsets of that producer awaiting a marker.
        self._open_groups_for_producer: dict[int, set[str]] = {}
        self._open_groups_lock = threading.RLock()
        # Offsets partition -> the coordinator epoch it was last loaded or unloaded in; updated under its lock.
        self.epoch_for_partition_id: dict[int, int] = {}
        self._epoch_lock = threading.Lock()

        self.metrics: Metrics = metrics if metrics is not None else Metrics(time=time)
        self._partition_load_sensor = self.metrics.sensor(GroupMetadataManager.LOAD_TIME_SENSOR)
        self._partition_load_sensor.add(
            self.metrics.metric_name(
                "partition-load-time-max",
                GroupMetadataManager.METRICS_GROUP,
                "The max time it took to load the partitions in the last 30sec",
            ),
            Max(),
        )
        self._partition_load_sensor.add(
            self.metrics.metric_name(
                "partition-load-time-avg",
                GroupMetadataManager.METRICS_GROUP,
                "The avg time it took to load the partitions in the last 30sec",
            ),
            Avg(),
        )
        self.offset_commits_sensor = self.metrics.sensor("OffsetCommits")
        self.offset_commits_sensor.add(
            MeterStat(
                self.metrics.metric_name(
                    "offset-commit-rate", GroupMetadataManager.METRICS_GROUP, "The rate of committed offsets"
                ),
                self.metrics.metric_name(
                    "offset-commit-count", GroupMetadataManager.METRICS_GROUP, "The total number of committed offsets"
                ),
            )
        )
        self.offset_expired_sensor = self.metrics.sensor("OffsetExpired")
        self.offset_expired_sensor.add(
            MeterStat(
                self.metrics.metric_name(
                    "offset-expiration-rate", GroupMetadataManager.METRICS_GROUP, "The rate of expired offsets"
                ),
                self.metrics.metric_name(
                    "offset-expiration-count", GroupMetadataManager.METRICS_GROUP, "The total number of expired offsets"
                ),
            )
        )

        self.log_ident = f"[GroupMetadataManager brokerId={broker_id}] "

        # Re-created (not reused) so that they read this manager's cache, as Kafka's recreateGauge.
        self._recreate_gauge("NumOffsets", self._num_offsets)
        self._recreate_gauge("NumGroups", lambda: self._group_metadata_cache.size)
        for name, state in (
            ("NumGroupsPreparingRebalance", PreparingRebalance()),
            ("NumGroupsCompletingRebalance", CompletingRebalance()),
            ("NumGroupsStable", Stable()),
            ("NumGroupsDead", Dead()),
            ("NumGroupsEmpty", Empty()),
        ):
            self._recreate_gauge(name, self._num_groups_in(state))

    def _recreate_gauge(self, name: str, fn: Callable[[], int]) -> None:
        self.remove_metric(name)
        self.new_gauge(name, fn)

    def _num_offsets(self) -> int:
        n = 0
        for group in self._group_metadata_cache.values:
            with group.lock:
                n += group.num_offsets
        return n

    def _num_groups_in(self, state: GroupState) -> Callable[[], int]:
        def count() -> int:
            n = 0
            for group in self._group_metadata_cache.values:
                with group.lock:
                    if group.is_(state):
                        n += 1
            return n

        return count

    # ---- lifecycle ----------------------------------------------------------------------------------------

    def startup(
        self, retrieve_group_metadata_topic_partition_count: Callable[[], int], enable_metadata_expiration: bool
    ) -> None:
        """Learns the offsets topic's partition count, starts the scheduler and, if asked, the periodic expiry."""
        self._group_metadata_topic_partition_count = retrieve_group_metadata_topic_partition_count()
        self._scheduler.startup()
        if enable_metadata_expiration:
            self._scheduler.schedule(
                "delete-expired-group-metadata",
                self.cleanup_group_metadata,
                period_ms=self.config.offsets_retention_check_interval_ms,
            )

    def shutdown(self) -> None:
        """Stops loading and the scheduler; the cache is left as it is (as in Kafka)."""
        self._shutting_down.set(True)
        if self._scheduler.is_started:
            self._scheduler.shutdown()

    # ---- ownership and lookup -----------------------------------------------------------------------------

    @property
    def current_groups(self) -> list[GroupMetadata]:
        return self._group_metadata_cache.values

    def is_partition_owned(self, partition: int) -> bool:
        with self._partition_lock:
            return partition in self._owned_partitions

    def is_partition_loading(self, partition: int) -> bool:
        with self._partition_lock:
            return partition in self._loading_partitions

    def partition_for(self, group_id: str) -> int:
        """The offsets partition of a group, computed exactly as Kafka does so both agree on existing data."""
        return abs_int32(java_string_hash_code(group_id)) % self._group_metadata_topic_partition_count

    def is_group_local(self, group_id: str) -> bool:
        return self.is_partition_owned(self.partition_for(group_id))

    def is_group_loading(self, group_id: str) -> bool:
        return self.is_partition_loading(self.partition_for(group_id))

    @property
    def is_loading(self) -> bool:
        with self._partition_lock:
            return bool(self._loading_partitions)

    def group_not_exists(self, group_id: str) -> bool:
        """True when this broker owns the group's partition and the group is unknown or Dead."""
        with self._partition_lock:
            if not self.is_group_local(group_id):
                return False
            group = self.get_group(group_id)
            if group is None:
                return True
            with group.lock:
                return group.is_(Dead())

    def is_group_open_for_producer(self, producer_id: int, group_id: str) -> bool:
        """Whether the producer has transactional offsets of the group awaiting a marker (for tests)."""
        with self._open_groups_lock:
            groups = self._open_groups_for_producer.get(producer_id)
            return groups is not None and group_id in groups

    def get_group(self, group_id: str) -> GroupMetadata | None:
        return self._group_metadata_cache.get(group_id)

    def get_or_maybe_create_group(self, group_id: str, create_if_not_exist: bool) -> GroupMetadata | None:
        """The cached group; a new Empty one is cached first when there is none and `create_if_not_exist`."""
        if create_if_not_exist:
            return self._group_metadata_cache.get_and_maybe_put(
                group_id, lambda: GroupMetadata(group_id, Empty(), self._time)
            )
        return self._group_metadata_cache.get(group_id)

    def add_group(self, group: GroupMetadata) -> GroupMetadata:
        """Caches `group` unless a group of that id is cached already; returns the cached one."""
        current = self._group_metadata_cache.put_if_not_exists(group.group_id, group)
        return group if current is None else current

    # ---- writes -------------------------------------------------------------------------------------------

    def store_group(
        self,
        group: GroupMetadata,
        group_assignment: Mapping[str, bytes],
        response_callback: Callable[[Errors], None],
    ) -> None:
        """Appends the group's metadata with `group_assignment` and answers with the append's outcome, mapped to
        the errors a JoinGroup/SyncGroup client understands."""
        magic_value = self._get_magic(self.partition_for(group.group_id))
        if magic_value is None:
            response_callback(Errors.NOT_COORDINATOR)
            return

        # CREATE_TIME as producers use; the log converts to LOG_APPEND_TIME if the topic asks for it.
        timestamp = self._time.milliseconds()
        key = formats.group_metadata_key(group.group_id)
        value = formats.group_metadata_value(group, group_assignment, self.inter_broker_protocol_version)
        builder = MemoryRecords.builder(self._compression_type, TimestampType.CREATE_TIME, 0, magic=magic_value)
        builder.append(timestamp, key, value)
        records = builder.build()

        group_metadata_partition = TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, self.partition_for(group.group_id))
        generation_id = group.generation_id

        def put_cache_callback(response_status: Mapping[TopicPartition, PartitionResponse]) -> None:
            if len(response_status) != 1 or group_metadata_partition not in response_status:
                raise IllegalStateException(
                    f"Append status {response_status} should only have one partition {group_metadata_partition}"
                )
            status = response_status[group_metadata_partition]
            error = status.error
            if error is Errors.NONE:
                response_error = Errors.NONE
            else:
                self.debug(
                    f"Metadata from group {group.group_id} with generation {generation_id} failed when appending to "
                    f"log due to {error.exception_name()}"
                )
                if error in (
                    Errors.UNKNOWN_TOPIC_OR_PARTITION,
                    Errors.NOT_ENOUGH_REPLICAS,
                    Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
                ):
                    response_error = Errors.COORDINATOR_NOT_AVAILABLE
                elif error in (Errors.NOT_LEADER_OR_FOLLOWER, Errors.KAFKA_STORAGE_ERROR):
                    response_error = Errors.NOT_COORDINATOR
                elif error is Errors.REQUEST_TIMED_OUT:
                    response_error = Errors.REBALANCE_IN_PROGRESS
                elif error in (Errors.MESSAGE_TOO_LARGE, Errors.RECORD_LIST_TOO_LARGE, Errors.INVALID_FETCH_SIZE):
                    self.error(
                        f"Appending metadata message for group {group.group_id} generation {generation_id} failed "
                        f"due to {error.exception_name()}, returning UNKNOWN error code to the client"
                    )
                    response_error = Errors.UNKNOWN_SERVER_ERROR
                else:
                    self.error(
                        f"Appending metadata message for group {group.group_id} generation {generation_id} failed "
                        f"due to unexpected error: {error.exception_name()}"
                    )
                    response_error = error
            response_callback(response_error)

        self._append_for_group(group, {group_metadata_partition: records}, put_cache_callback)

    def _append_for_group(
        self,
        group: GroupMetadata,
        records: Mapping[TopicPartition, MemoryRecords],
        callback: Callable[[dict[TopicPartition, PartitionResponse]], None],
    ) -> None:
        # The group's lock is the delayed produce's lock: the callback completes under it.
        self.replica_manager.append_records(
            timeout=self.config.offset_commit_timeout_ms,
            required_acks=self.config.offset_commit_required_acks,
            internal_topics_allowed=True,
            origin=_COORDINATOR,
            entries_per_partition=records,
            response_callback=callback,
            delayed_produce_lock=group.lock,
        )

    def store_offsets(
        self,
        group: GroupMetadata,
        consumer_id: str,
        offset_metadata: Mapping[TopicPartition, OffsetAndMetadata],
        response_callback: Callable[[dict[TopicPartition, Errors]], None],
        producer_id: int = NO_PRODUCER_ID,
        producer_epoch: int = NO_PRODUCER_EPOCH,
    ) -> None:
        """Appends offset commits (transactional ones when `producer_id` is set) and, once written, caches them;
        answers per partition. Commits whose metadata is too long are refused with OFFSET_METADATA_TOO_LARGE."""
        filtered_offset_metadata = {
            tp: oam for tp, oam in offset_metadata.items() if self._validate_offset_metadata_length(oam.metadata)
        }

        with group.lock:
            if not group.has_received_consistent_offset_commits:
                self.warn(
                    f"group: {group.group_id} with leader: {group.leader_or_null} has received offset commits from "
                    "consumers as well as transactional producers. Mixing both types of offset commits will "
                    "generally result in surprises and should be avoided."
                )

        is_txn_offset_commit = producer_id != NO_PRODUCER_ID
        if not filtered_offset_metadata:
            response_callback({tp: Errors.OFFSET_METADATA_TOO_LARGE for tp in offset_metadata})
            return

        magic_value = self._get_magic(self.partition_for(group.group_id))
        if magic_value is None:
            response_callback({tp: Errors.NOT_COORDINATOR for tp in offset_metadata})
            return

        timestamp = self._time.milliseconds()
        records = [
            SimpleRecord(
                timestamp,
                formats.offset_commit_key(group.group_id, tp),
                formats.offset_commit_value(oam, self.inter_broker_protocol_version),
            )
            for tp, oam in filtered_offset_metadata.items()
        ]
        offset_topic_partition = TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, self.partition_for(group.group_id))

        if is_txn_offset_commit and magic_value < MAGIC_VALUE_V2:
            exc = Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT.exception(
                f"Attempting to make a transaction offset commit with an invalid magic: {magic_value}"
            )
            assert exc is not None
            raise exc

        builder = MemoryRecords.builder(
            self._compression_type,
            TimestampType.CREATE_TIME,
            0,
            magic=magic_value,
            log_append_time=self._time.milliseconds(),
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=0,
            is_transactional=is_txn_offset_commit,
            partition_leader_epoch=NO_PARTITION_LEADER_EPOCH,
        )
        for record in records:
            builder.append_simple(record)
        entries = {offset_topic_partition: builder.build()}

        def put_cache_callback(response_status: Mapping[TopicPartition, PartitionResponse]) -> None:
            if len(response_status) != 1 or offset_topic_partition not in response_status:
                raise IllegalStateException(
                    f"Append status {response_status} should only have one partition {offset_topic_partition}"
                )
            # The number of offsets written to the log.
            self.offset_commits_sensor.record(len(records))
            status = response_status[offset_topic_partition]

            with group.lock:
                if status.error is Errors.NONE:
                    if not group.is_(Dead()):
                        for tp, oam in filtered_offset_metadata.items():
                            commit = CommitRecordMetadataAndOffset(status.base_offset, oam)
                            if is_txn_offset_commit:
                                group.on_txn_offset_commit_append(producer_id, tp, commit)
                            else:
                                group.on_offset_commit_append(tp, commit)
                    response_error = Errors.NONE
                else:
                    if not group.is_(Dead()):
                        if not group.has_pending_offset_commits_from_producer(producer_id):
                            self._remove_producer_group(producer_id, group.group_id)
                        for tp, oam in filtered_offset_metadata.items():
                            if is_txn_offset_commit:
                                group.fail_pending_txn_offset_commit(producer_id, tp)
                            else:
                                group.fail_pending_offset_write(tp, oam)

                    if self.is_debug_enabled():
                        self.debug(
                            f"Offset commit {_scala_map(filtered_offset_metadata)} from group {group.group_id}, "
                            f"consumer {consumer_id} with generation {group.generation_id} failed when appending to "
                            f"log due to {status.error.exception_name()}"
                        )
                    response_error = _commit_error(status.error)

            commit_status = {
                tp: response_error
                if self._validate_offset_metadata_length(oam.metadata)
                else Errors.OFFSET_METADATA_TOO_LARGE
                for tp, oam in offset_metadata.items()
            }
            response_callback(commit_status)

        with group.lock:
            if is_txn_offset_commit:
                self._add_producer_group(producer_id, group.group_id)
                group.prepare_txn_offset_commit(producer_id, offset_metadata)
            else:
                group.prepare_offset_commit(offset_metadata)

        self._append_for_group(group, entries, put_cache_callback)

    # ---- reads --------------------------------------------------------------------------------------------

    def get_offsets(
        self, group_id: str, require_stable: bool, topic_partitions: Iterable[TopicPartition] | None
    ) -> dict[TopicPartition, PartitionData]:
        """The committed offsets of the group for `topic_partitions` (None: every partition with an offset).

        Never a stale offset: unknown partitions and unknown or Dead groups give INVALID_OFFSET without an
        error, and with `require_stable` a partition with a commit still in flight gives UNSTABLE_OFFSET_COMMIT.
        """
        if self.is_trace_enabled():
            what = "all partitions" if topic_partitions is None else _scala_seq(topic_partitions)
            self.trace(f"Getting offsets of {what} for group {group_id}.")
        group = self._group_metadata_cache.get(group_id)
        if group is None:
            return {tp: PartitionData(INVALID_OFFSET, None, "", Errors.NONE) for tp in topic_partitions or ()}
        with group.lock:
            if group.is_(Dead()):
                return {tp: PartitionData(INVALID_OFFSET, None, "", Errors.NONE) for tp in topic_partitions or ()}
            partitions = group.all_offsets.keys() if topic_partitions is None else topic_partitions
            result: dict[TopicPartition, PartitionData] = {}
            for tp in partitions:
                if require_stable and group.has_pending_offset_commits_for_topic_partition(tp):
                    result[tp] = PartitionData(INVALID_OFFSET, None, "", Errors.UNSTABLE_OFFSET_COMMIT)
                else:
                    oam = group.offset(tp)
                    if oam is None:
                        result[tp] = PartitionData(INVALID_OFFSET, None, "", Errors.NONE)
                    else:
                        result[tp] = PartitionData(oam.offset, oam.leader_epoch, oam.metadata, Errors.NONE)
            return result

    # ---- loading ------------------------------------------------------------------------------------------

    def schedule_load_group_and_offsets(
        self, offsets_partition: int, coordinator_epoch: int, on_group_loaded: Callable[[GroupMetadata], None]
    ) -> None:
        """Loads the partition's groups and offsets on the scheduler thread."""
        topic_partition = TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, offsets_partition)
        self.info(
            f"Scheduling loading of offsets and group metadata from {topic_partition} for epoch {coordinator_epoch}"
        )
        start_time_ms = self._time.milliseconds()
        self._scheduler.schedule(
            str(topic_partition),
            lambda: self.load_groups_and_offsets(topic_partition, coordinator_epoch, on_group_loaded, start_time_ms),
        )

    def load_groups_and_offsets(
        self,
        topic_partition: TopicPartition,
        coordinator_epoch: int,
        on_group_loaded: Callable[[GroupMetadata], None],
        start_time_ms: int,
    ) -> None:
        """Loads the partition unless a newer epoch was seen or it is loaded/loading already; afterwards the
        partition is owned, even if reading it failed (the failure is logged)."""
        if not self._maybe_update_coordinator_epoch(topic_partition.partition, coordinator_epoch):
            self.info(
                f"Not loading offsets and group metadata for {topic_partition} in epoch {coordinator_epoch} since "
                f"current epoch is {_java_null(self.epoch_for_partition_id.get(topic_partition.partition))}"
            )
        elif not self.add_loading_partition(topic_partition.partition):
            self.info(f"Already loading offsets and group metadata from {topic_partition}")
        else:
            try:
                scheduler_time_ms = self._time.milliseconds() - start_time_ms
                self.debug(
                    f"Started loading offsets and group metadata from {topic_partition} for epoch {coordinator_epoch}"
                )
                num_records, num_bytes = self._do_load_groups_and_offsets(topic_partition, on_group_loaded)
                end_time_ms = self._time.milliseconds()
                total_loading_time_ms = end_time_ms - start_time_ms
                self._partition_load_sensor.record(float(total_loading_time_ms), end_time_ms, False)
                # PORT: 2.8's line gives times only; the record and byte counts are those 3.7's CoordinatorLoaderImpl
                # logs when it loads a coordinator partition.
                self.info(
                    f"Finished loading offsets and group metadata from {topic_partition} in {total_loading_time_ms} "
                    f"milliseconds for epoch {coordinator_epoch}, of which {scheduler_time_ms} milliseconds was spent "
                    f"in the scheduler. Loaded {num_records} records which total to {num_bytes} bytes."
                )
            except Exception as t:  # Kafka catches Throwable: the partition must end up owned either way
                self.error(f"Error loading offsets from {topic_partition}", t)
            finally:
                with self._partition_lock:
                    self._owned_partitions.add(topic_partition.partition)
                    self._loading_partitions.discard(topic_partition.partition)

    def _do_load_groups_and_offsets(
        self, topic_partition: TopicPartition, on_group_loaded: Callable[[GroupMetadata], None]
    ) -> tuple[int, int]:
        """Reads the partition's log into groups and offsets; returns how many records and bytes it read."""

        def log_end_offset() -> int:
            leo = self.replica_manager.get_log_end_offset(topic_partition)
            return -1 if leo is None else int(leo)

        log = self.replica_manager.get_log(topic_partition)
        if log is None:
            self.warn(f"Attempted to load offsets and group metadata from {topic_partition}, but found no log")
            return 0, 0
        num_records = 0
        num_bytes = 0

        loaded_offsets: dict[GroupTopicPartition, CommitRecordMetadataAndOffset] = {}
        pending_offsets: dict[int, dict[GroupTopicPartition, CommitRecordMetadataAndOffset]] = {}
        loaded_groups: dict[str, GroupMetadata] = {}
        removed_groups: set[str] = set()

        def buffer_grown(bytes_needed: int) -> None:
            self.warn(
                f"Loaded offsets and group metadata from {topic_partition} with buffer larger ({bytes_needed} bytes) "
                f"than configured offsets.load.buffer.size ({self.config.load_buffer_size} bytes)"
            )

        # The loop ends when the leader changes (the log end reads -1), at the log end, or on shutdown.
        for batch in read_log_batches(
            log,
            topic_partition,
            self.config.load_buffer_size,
            log_end_offset,
            lambda: not self._shutting_down.get(),
            buffer_grown,
        ):
            is_txn_offset_commit = batch.is_transactional()
            num_bytes += batch.size_in_bytes()
            if batch.is_control_batch():
                record_iterator = iter(batch)
                control = next(record_iterator, None)
                if control is not None:
                    if ControlRecordType.parse(control.key()) is ControlRecordType.COMMIT:
                        for gtp, commit in pending_offsets.get(batch.producer_id(), {}).items():
                            current = loaded_offsets.get(gtp)
                            if current is None or current.older_than(commit):
                                loaded_offsets[gtp] = commit
                    pending_offsets.pop(batch.producer_id(), None)
            else:
                batch_base_offset: int | None = None
                for record in batch:
                    num_records += 1
                    key = record.key()
                    if key is None:
                        raise ValueError("requirement failed: Group metadata/offset entry key should not be null")
                    if batch_base_offset is None:
                        batch_base_offset = record.offset()
                    base_key = formats.read_message_key(key)
                    if isinstance(base_key, OffsetKey):
                        if is_txn_offset_commit and batch.producer_id() not in pending_offsets:
                            pending_offsets[batch.producer_id()] = {}
                        gtp = base_key.key
                        if not record.has_value():
                            if is_txn_offset_commit:
                                pending_offsets[batch.producer_id()].pop(gtp, None)
                            else:
                                loaded_offsets.pop(gtp, None)
                        else:
                            oam = formats.read_offset_message_value(record.value())
                            assert oam is not None
                            commit = CommitRecordMetadataAndOffset(batch_base_offset, oam)
                            if is_txn_offset_commit:
                                pending_offsets[batch.producer_id()][gtp] = commit
                            else:
                                loaded_offsets[gtp] = commit
                    elif isinstance(base_key, GroupMetadataKey):
                        group_id = base_key.key
                        group_metadata = formats.read_group_message_value(group_id, record.value(), self._time)
                        if group_metadata is not None:
                            removed_groups.discard(group_id)
                            loaded_groups[group_id] = group_metadata
                        else:
                            loaded_groups.pop(group_id, None)
                            removed_groups.add(group_id)
                    else:
                        raise IllegalStateException(
                            f"Unexpected message key {base_key} while loading offsets and group metadata"
                        )

        # Offsets by group, split by whether the log also held the group's metadata.
        group_offsets: dict[str, _Offsets] = {}
        empty_group_offsets: dict[str, _Offsets] = {}
        for gtp, commit in loaded_offsets.items():
            target = group_offsets if gtp.group in loaded_groups else empty_group_offsets
            target.setdefault(gtp.group, {})[gtp.topic_partition] = commit

        pending_offsets_by_group: dict[str, _PendingOffsets] = {}
        for producer_id, producer_offsets in pending_offsets.items():
            for gtp in producer_offsets:
                self._add_producer_group(producer_id, gtp.group)
            for gtp, commit in producer_offsets.items():
                group_pending = pending_offsets_by_group.setdefault(gtp.group, {})
                group_pending.setdefault(producer_id, {})[gtp.topic_partition] = commit

        pending_group_offsets = {g: p for g, p in pending_offsets_by_group.items() if g in loaded_groups}
        pending_empty_group_offsets = {g: p for g, p in pending_offsets_by_group.items() if g not in loaded_groups}

        for group in loaded_groups.values():
            offsets = group_offsets.get(group.group_id, {})
            pending = pending_group_offsets.get(group.group_id, {})
            if self.is_debug_enabled():
                self.debug(
                    f"Loaded group metadata {group} with offsets {_scala_map(offsets)} and pending offsets "
                    f"{_scala_map(pending)}"
                )
            self._load_group(group, offsets, pending)
            on_group_loaded(group)

        # Groups that only store offsets here (no members, so no metadata in the log).
        for group_id in dict.fromkeys([*empty_group_offsets, *pending_empty_group_offsets]):
            group = GroupMetadata(group_id, Empty(), self._time)
            offsets = empty_group_offsets.get(group_id, {})
            pending = pending_empty_group_offsets.get(group_id, {})
            if self.is_debug_enabled():
                self.debug(
                    f"Loaded group metadata {group} with offsets {_scala_map(offsets)} and pending offsets "
                    f"{_scala_map(pending)}"
                )
            self._load_group(group, offsets, pending)
            on_group_loaded(group)

        for group_id in removed_groups:
            # A removed group may come back as an offsets-only group; any other cached one is an error.
            if group_id in self._group_metadata_cache and group_id not in empty_group_offsets:
                raise IllegalStateException(
                    f"Unexpected unload of active group {group_id} while loading partition {topic_partition}"
                )
        return num_records, num_bytes

    def _load_group(
        self, group: GroupMetadata, offsets: _Offsets, pending_transactional_offsets: _PendingOffsets
    ) -> None:
        # Offsets go in before the group is visible, so nobody sees the group without them.
        if self.is_trace_enabled():
            self.trace(f"Initialized offsets {_scala_map(offsets)} for group {group.group_id}")
        group.initialize_offsets(offsets, dict(pending_transactional_offsets))
        current_group = self.add_group(group)
        if group is not current_group:
            self.debug(
                f"Attempt to load group {group.group_id} from log with generation {group.generation_id} failed "
                f"because there is already a cached group with generation {current_group.generation_id}"
            )

    # ---- unloading ----------------------------------------------------------------------------------------

    def remove_groups_for_partition(
        self,
        offsets_partition: int,
        coordinator_epoch: int | None,
        on_group_unloaded: Callable[[GroupMetadata], None],
    ) -> None:
        """Drops the partition's groups from the cache on the scheduler thread (this broker stopped leading it)."""
        topic_partition = TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, offsets_partition)
        self.info(f"Scheduling unloading of offsets and group metadata from {topic_partition}")
        self._scheduler.schedule(
            str(topic_partition),
            lambda: self.remove_groups_and_offsets(topic_partition, coordinator_epoch, on_group_unloaded),
        )

    def remove_groups_and_offsets(
        self,
        topic_partition: TopicPartition,
        coordinator_epoch: int | None,
        on_group_unloaded: Callable[[GroupMetadata], None],
    ) -> None:
        """Unloads the partition unless a newer coordinator epoch has been seen for it."""
        offsets_partition = topic_partition.partition
        epoch_text = scala_option(coordinator_epoch)
        if self._maybe_update_coordinator_epoch(offsets_partition, coordinator_epoch):
            num_offsets_removed = 0
            num_groups_removed = 0
            self.debug(
                f"Started unloading offsets and group metadata for {topic_partition} for coordinator epoch {epoch_text}"
            )
            # Under the partition lock, so the coordinator cannot find a group of a partition no longer owned.
            with self._partition_lock:
                self._owned_partitions.discard(offsets_partition)
                self._loading_partitions.discard(offsets_partition)
                for group in self._group_metadata_cache.values:
                    if self.partition_for(group.group_id) == offsets_partition:
                        on_group_unloaded(group)
                        self._group_metadata_cache.remove(group.group_id, group)
                        self._remove_group_from_all_producers(group.group_id)
                        num_groups_removed += 1
                        num_offsets_removed += group.num_offsets
            self.info(
                f"Finished unloading {topic_partition} for coordinator epoch {epoch_text}. "
                f"Removed {num_offsets_removed} cached offsets and {num_groups_removed} cached groups."
            )
        else:
            self.info(
                f"Not removing offsets and group metadata for {topic_partition} in epoch {epoch_text} since current "
                f"epoch is {_java_null(self.epoch_for_partition_id.get(offsets_partition))}"
            )

    def _maybe_update_coordinator_epoch(self, partition_id: int, epoch: int | None) -> bool:
        """Raises the partition's recorded epoch to `epoch` if that is larger; True when `epoch` is None or is
        (now) the recorded one, i.e. not older than what was seen before."""
        with self._epoch_lock:
            current = self.epoch_for_partition_id.get(partition_id)
            if current is None:
                updated = epoch
            elif epoch is not None and epoch > current:
                updated = epoch
            else:
                updated = current
            if updated is not None:
                self.epoch_for_partition_id[partition_id] = updated
        return epoch is None or epoch == updated

    # ---- expiry and deletion ------------------------------------------------------------------------------

    def cleanup_group_metadata(
        self,
        groups: Iterable[GroupMetadata] | None = None,
        selector: Callable[[GroupMetadata], Mapping[TopicPartition, OffsetAndMetadata]] | None = None,
    ) -> int:
        """Without arguments: the periodic expiry of offsets past offsets.retention.minutes in every cached group.
        With `groups` and `selector`: Kafka's two-argument overload, see `cleanup_group_metadata_of`."""
        if groups is not None or selector is not None:
            if groups is None or selector is None:
                raise ValueError("cleanup_group_metadata takes both groups and selector, or neither")
            return self.cleanup_group_metadata_of(groups, selector)
        current_timestamp = self._time.milliseconds()
        num_offsets_removed = self.cleanup_group_metadata_of(
            self._group_metadata_cache.values,
            lambda group: group.remove_expired_offsets(current_timestamp, self.config.offsets_retention_ms),
        )
        self.offset_expired_sensor.record(num_offsets_removed)
        if num_offsets_removed > 0:
            self.info(
                f"Removed {num_offsets_removed} expired offsets in "
                f"{self._time.milliseconds() - current_timestamp} milliseconds."
            )
        return num_offsets_removed

    def cleanup_group_metadata_of(
        self,
        groups: Iterable[GroupMetadata],
        selector: Callable[[GroupMetadata], Mapping[TopicPartition, OffsetAndMetadata]],
    ) -> int:
        """Removes from each group the offsets `selector` picks (it runs under the group's lock), turns groups left
        Empty without offsets into Dead ones and uncaches them, and writes tombstones for all of it (acks=0: a
        lost tombstone is written again by a later run). Returns the number of offsets removed."""
        offsets_removed = 0
        for group in groups:
            group_id = group.group_id
            with group.lock:
                removed_offsets = selector(group)
                if group.is_(Empty()) and not group.has_offsets:
                    self.info(f"Group {group_id} transitioned to Dead in generation {group.generation_id}")
                    group.transition_to(Dead())
                group_is_dead = group.is_(Dead())
                generation = group.generation_id

            offsets_partition = self.partition_for(group_id)
            append_partition = TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, offsets_partition)
            magic_value = self._get_magic(offsets_partition)
            if magic_value is None:
                self.info(
                    f"BrokerId {self.broker_id} is no longer a coordinator for the group {group_id}. Proceeding "
                    "cleanup for other alive groups"
                )
                continue

            timestamp = self._time.milliseconds()
            partition = self.replica_manager.online_partition(append_partition)
            if partition is None:
                continue
            tombstones: list[SimpleRecord] = []
            for tp, oam in removed_offsets.items():
                if self.is_trace_enabled():
                    self.trace(f"Removing expired/deleted offset and metadata for {group_id}, {tp}: {oam}")
                tombstones.append(SimpleRecord(timestamp, formats.offset_commit_key(group_id, tp), None))
            if self.is_trace_enabled():
                self.trace(f"Marked {len(removed_offsets)} offsets in {append_partition} for deletion.")

            # Generation 0 means the group only ever stored offsets: it has no metadata record to delete.
            if group_is_dead and self._group_metadata_cache.remove(group_id, group) and generation > 0:
                tombstones.append(SimpleRecord(timestamp, formats.group_metadata_key(group_id), None))
                if self.is_trace_enabled():
                    self.trace(
                        f"Group {group_id} removed from the metadata cache and marked for deletion in "
                        f"{append_partition}."
                    )

            if tombstones:
                try:
                    records = MemoryRecords.with_records(
                        self._compression_type,
                        *tombstones,
                        magic=magic_value,
                        initial_offset=0,
                        timestamp_type=TimestampType.CREATE_TIME,
                    )
                    partition.append_records_to_leader(records, _COORDINATOR, 0)
                    offsets_removed += len(removed_offsets)
                    if self.is_trace_enabled():
                        self.trace(
                            f"Successfully appended {len(tombstones)} tombstones to {append_partition} for "
                            f"expired/deleted offsets and/or metadata for group {group_id}"
                        )
                except Exception as t:  # Kafka catches Throwable and goes on with the next group
                    self.error(
                        f"Failed to append {len(tombstones)} tombstones to {append_partition} for expired/deleted "
                        f"offsets and/or metadata for group {group_id}.",
                        t,
                    )
        return offsets_removed

    # ---- transactions -------------------------------------------------------------------------------------

    def schedule_handle_txn_completion(
        self, producer_id: int, completed_partitions: Iterable[int], is_commit: bool
    ) -> None:
        """Completes the producer's pending transactional commits of the given offsets partitions, on the
        scheduler thread: the caller may hold a group lock, and completion takes group locks."""
        partitions = frozenset(completed_partitions)
        self._scheduler.schedule(
            f"handleTxnCompletion-{producer_id}",
            lambda: self.handle_txn_completion(producer_id, partitions, is_commit),
        )

    def handle_txn_completion(self, producer_id: int, completed_partitions: Iterable[int], is_commit: bool) -> None:
        pending_groups = self._groups_belonging_to_partitions(producer_id, frozenset(completed_partitions))
        for group_id in pending_groups:
            group = self.get_group(group_id)
            if group is None:
                self.info(
                    f"Group {group_id} has moved away from {self.broker_id} after transaction marker was written but "
                    "before the cache was updated. The cache on the new group owner will be updated instead."
                )
                continue
            with group.lock:
                if not group.is_(Dead()):
                    group.complete_pending_txn_offset_commit(producer_id, is_commit)
                    self._remove_producer_group(producer_id, group_id)

    def _add_producer_group(self, producer_id: int, group_id: str) -> None:
        with self._open_groups_lock:
            self._open_groups_for_producer.setdefault(producer_id, set()).add(group_id)

    def _remove_producer_group(self, producer_id: int, group_id: str) -> None:
        with self._open_groups_lock:
            groups = self._open_groups_for_producer.setdefault(producer_id, set())
            groups.discard(group_id)
            if not groups:
                del self._open_groups_for_producer[producer_id]

    def _groups_belonging_to_partitions(self, producer_id: int, partitions: frozenset[int]) -> set[str]:
        with self._open_groups_lock:
            groups = self._open_groups_for_producer.get(producer_id, set())
            return {g for g in groups if self.partition_for(g) in partitions}

    def _remove_group_from_all_producers(self, group_id: str) -> None:
        with self._open_groups_lock:
            for groups in self._open_groups_for_producer.values():
                groups.discard(group_id)

    # ---- helpers ------------------------------------------------------------------------------------------

    def _validate_offset_metadata_length(self, metadata: str | None) -> bool:
        # Java measures the string in UTF-16 code units.
        return metadata is None or _java_string_length(metadata) <= self.config.max_metadata_size

    def _get_magic(self, partition: int) -> int | None:
        """The record format of the offsets partition if this broker hosts it, else None."""
        magic: int | None = self.replica_manager.get_magic(TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, partition))
        return magic

    def add_partition_ownership(self, partition: int) -> None:
        """Marks an offsets partition as owned without loading it (for tests)."""
        with self._partition_lock:
            self._owned_partitions.add(partition)

    def add_loading_partition(self, partition: int) -> bool:
        """Marks the partition as loading; False if it is owned already (loaded, or being loaded)."""
        with self._partition_lock:
            if partition in self._owned_partitions:
                return False
            if partition in self._loading_partitions:
                return False
            self._loading_partitions.add(partition)
            return True


def _commit_error(error: Errors) -> Errors:
    """The OffsetCommit error for an append error."""
    if error in (
        Errors.UNKNOWN_TOPIC_OR_PARTITION,
        Errors.NOT_ENOUGH_REPLICAS,
        Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
    ):
        return Errors.COORDINATOR_NOT_AVAILABLE
    if error in (Errors.NOT_LEADER_OR_FOLLOWER, Errors.KAFKA_STORAGE_ERROR):
        return Errors.NOT_COORDINATOR
    if error in (Errors.MESSAGE_TOO_LARGE, Errors.RECORD_LIST_TOO_LARGE, Errors.INVALID_FETCH_SIZE):
        return Errors.INVALID_COMMIT_OFFSET_SIZE
    return error


def _java_null(value: object) -> str:
    return "null" if value is None else str(value)


def _scala_map(m: Mapping[Any, Any]) -> str:
    return "Map(" + ", ".join(f"{k} -> {_scala_value(v)}" for k, v in m.items()) + ")"


def _scala_value(v: object) -> str:
    return _scala_map(v) if isinstance(v, Mapping) else str(v)


def _scala_seq(items: Iterable[object]) -> str:
    return "List(" + ", ".join(str(i) for i in items) + ")"
