"""Port of core/src/main/scala/kafka/server/ReplicaManager.scala (Kafka 2.8).

The replica side of a broker: the partitions it hosts (leader or follower), as the controller assigns them with
LeaderAndIsr and StopReplica requests; produce (`append_records`, with acks 0, 1 and -1 through the `Produce`
purgatory), fetch (`fetch_messages`, with fetch.min.bytes and max wait through the `Fetch` purgatory, zero-copy
FileRecords slices), DeleteRecords (`DeleteRecords` purgatory), ListOffsets, OffsetsForLeaderEpoch and
DescribeLogDirs; the metadata cache updates; the ISR expiry task and the high watermark checkpoint
(`replication-offset-checkpoint` in each log directory).

Locks (outermost first): `replica_state_change_lock` (Kafka's replicaStateChangeLock, an RLock: LeaderAndIsr,
StopReplica, UpdateMetadata and log directory failures run one at a time) -> a Partition's leader/ISR lock -> the
Log's lock. Delayed operations are completed with no Partition lock held; after an append they are completed from
the action queue, which the request handler drains once it has answered (`try_complete_actions`), so a produce
made while holding a group lock never completes operations that need other locks.

Replication quotas: the follower quota (`quota_managers.follower`) goes to the ReplicaFetcherManager; the quota
of a fetch (`quotas.leader` for followers, UNBOUNDED_QUOTA for consumers, from KafkaApis) decides here whether an
out-of-sync follower gets a throttled partition's records (`should_leader_throttle`); a `quota` of None is
unbounded (tests build a ReplicaManager without quota managers).

Fetch from a follower (KIP-392): `replica.selector.class` names the ReplicaSelector (Kafka's Java class names are
accepted, `org.apache.kafka.common.replica.RackAwareReplicaSelector`), configured with the broker's original
configs and closed at shutdown. The leader answers a consumer that sent its client metadata (Fetch v11+) with the
replica the selector prefers (`find_preferred_read_replica`), and any replica serves such a consumer up to its
own high watermark.

Moving replicas between the log directories of this broker (AlterReplicaLogDirs, `alter_replica_log_dirs`): the
destination of a partition not hosted yet is remembered by the LogManager; a hosted one gets a future log in the
destination, which the ReplicaAlterLogDirsManager's threads fill from the current log (within the
`quota_managers.alter_log_dirs` quota) until it replaces it.

Metrics (kafka.server:type=ReplicaManager): the LeaderCount, PartitionCount, OfflineReplicaCount,
UnderReplicatedPartitions, UnderMinIsrPartitionCount, AtMinIsrPartitionCount and ReassigningPartitions gauges and the
IsrExpandsPerSec, IsrShrinksPerSec and FailedIsrUpdatesPerSec meters, as Kafka 2.8 registers them.

# PORT: Kafka's
# `configRepository` parameter is not taken: topic configs reach new logs through the LogManager's. ActionQueue.scala
# is small and owned by the ReplicaManager, so it lives in this module.
"""

from __future__ import annotations

import os
import queue
import threading
from abc import ABC
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import BrokerEndPoint
from kafka.cluster.partition import INITIAL_CONTROLLER_EPOCH, Partition
from kafka.common.election_type import ElectionType
from kafka.common.errors import (
    ControllerMovedException,
    CorruptRecordException,
    FencedLeaderEpochException,
    InvalidTopicException,
    KafkaException,
    KafkaStorageException,
    LogDirNotFoundException,
    NotLeaderOrFollowerException,
    OffsetOutOfRangeException,
    PolicyViolationException,
    RecordBatchTooLargeException,
    RecordTooLargeException,
    ReplicaNotAvailableException,
    UnknownLeaderEpochException,
    UnknownTopicOrPartitionException,
)
from kafka.common.internals.topic import Topic
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import (
    DeleteRecordsResponseData,
    DescribeLogDirsResponseData,
    DescribeProducersResponseData,
    LeaderAndIsrResponseData,
    OffsetForLeaderEpochResponseData,
)
from kafka.common.network.listener_name import ListenerName
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.record.file_records import TimestampAndOffset
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import NO_PARTITION_LEADER_EPOCH, NO_TIMESTAMP
from kafka.common.record.records import Records
from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.replica.partition_view import PartitionView
from kafka.common.replica.replica_selector import ReplicaSelector
from kafka.common.replica.replica_view import ReplicaView
from kafka.common.requests.describe_log_dirs_response import INVALID_OFFSET_LAG
from kafka.common.requests.fetch_request import FUTURE_LOCAL_REPLICA_ID, FetchRequest, PartitionData
from kafka.common.requests.leader_and_isr_request import LeaderAndIsrRequest
from kafka.common.requests.leader_and_isr_response import LeaderAndIsrResponse
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.requests.update_metadata_request import UpdateMetadataRequest
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.common.utils.utils import load_class
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.log.log import Log
from kafka.log.log_append_info import Increased, LogAppendInfo, Same, unknown_log_append_info
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_validator import AppendOrigin, RecordValidationException
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer import Meter
from kafka.server.abstract_fetcher_manager import InitialFetchState
from kafka.server.alter_isr_manager import AlterIsrManager
from kafka.server.checkpoints.offset_checkpoint_file import (
    LazyOffsetCheckpoints,
    OffsetCheckpointFile,
    OffsetCheckpoints,
)
from kafka.server.delayed_delete_records import DelayedDeleteRecords, DeleteRecordsPartitionStatus
from kafka.server.delayed_fetch import DelayedFetch, FetchMetadata, FetchPartitionStatus
from kafka.server.delayed_operation import DelayedOperation, DelayedOperationPurgatory, LockLike
from kafka.server.delayed_operation_key import TopicPartitionOperationKey
from kafka.server.delayed_produce import DelayedProduce, ProduceMetadata, ProducePartitionStatus
from kafka.server.fetch_data_info import (
    FetchDataInfo,
    FetchHighWatermark,
    FetchIsolation,
    FetchLogEnd,
    FetchTxnCommitted,
)
from kafka.server.kafka_config import KAFKA_1_0_IV0, ApiVersion
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.server.metadata_cache import MetadataCache
from kafka.server.quota_factory import UNBOUNDED_QUOTA
from kafka.server.replica_alter_log_dirs_manager import ReplicaAlterLogDirsManager
from kafka.server.replica_fetcher_manager import ReplicaFetcherManager
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.kafka_scheduler import Scheduler
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from kafka.log.log_manager import LogManager
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.replication_quota_manager import ReplicaQuota

HIGH_WATERMARK_FILENAME = "replication-offset-checkpoint"
# Kafka's Log.UnknownOffset.
UNKNOWN_OFFSET = -1


# -- results ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogAppendResult:
    """The outcome of appending to one partition: what the log learned, or the exception that stopped it."""

    info: LogAppendInfo
    exception: BaseException | None = None

    @property
    def error(self) -> Errors:
        return Errors.NONE if self.exception is None else Errors.for_exception(self.exception)


@dataclass(frozen=True, slots=True)
class LogDeleteRecordsResult:
    """The outcome of DeleteRecords on one partition: the offset asked for and the low watermark reached."""

    requested_offset: int
    low_watermark: int
    exception: BaseException | None = None

    @property
    def error(self) -> Errors:
        return Errors.NONE if self.exception is None else Errors.for_exception(self.exception)


@dataclass(frozen=True, slots=True)
class FetchPartitionData:
    """What the fetch response says of one partition. `records` may be a zero-copy FileRecords slice;
    `last_stable_offset` is None after an error; `aborted_transactions` is None unless read committed."""

    error: Errors
    high_watermark: int
    log_start_offset: int
    records: Records
    diverging_epoch: Any | None  # FetchResponseData.EpochEndOffset
    last_stable_offset: int | None
    aborted_transactions: list[Any] | None  # FetchResponseData.AbortedTransaction
    preferred_read_replica: int | None
    is_reassignment_fetch: bool


@dataclass(frozen=True, slots=True)
class LogReadResult:
    """A read of one partition's log with the offsets the response reports and the fetch time (for follower
    bookkeeping); `exception` is set (and the offsets unknown) when the read failed."""

    info: FetchDataInfo
    diverging_epoch: Any | None
    high_watermark: int
    leader_log_start_offset: int
    leader_log_end_offset: int
    follower_log_start_offset: int
    fetch_time_ms: int
    last_stable_offset: int | None
    preferred_read_replica: int | None = None
    exception: BaseException | None = None

    @property
    def error(self) -> Errors:
        return Errors.NONE if self.exception is None else Errors.for_exception(self.exception)

    def to_fetch_partition_data(self, is_reassignment_fetch: bool) -> FetchPartitionData:
        return FetchPartitionData(
            self.error,
            self.high_watermark,
            self.leader_log_start_offset,
            self.info.records,
            self.diverging_epoch,
            self.last_stable_offset,
            self.info.aborted_transactions,
            self.preferred_read_replica,
            is_reassignment_fetch,
        )

    def with_empty_fetch_info(self) -> LogReadResult:
        return replace(self, info=FetchDataInfo(LogOffsetMetadata.UNKNOWN_OFFSET_METADATA, MemoryRecords.EMPTY))


def _failed_read(e: BaseException) -> LogReadResult:
    return LogReadResult(
        info=FetchDataInfo(LogOffsetMetadata.UNKNOWN_OFFSET_METADATA, MemoryRecords.EMPTY),
        diverging_epoch=None,
        high_watermark=UNKNOWN_OFFSET,
        leader_log_start_offset=UNKNOWN_OFFSET,
        leader_log_end_offset=UNKNOWN_OFFSET,
        follower_log_start_offset=UNKNOWN_OFFSET,
        fetch_time_ms=-1,
        last_stable_offset=None,
        exception=e,
    )


# -- hosted partitions --------------------------------------------------------------------------------------------


class HostedPartition(ABC):  # noqa: B024 - a sealed trait: the subclasses are its only values
    """What this broker has of a partition.

    # PORT: Kafka's `Deferred` state exists only for KRaft brokers and is left out."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class None_(HostedPartition):
    """No local state for the partition. (Kafka's `HostedPartition.None`; `None` is a keyword in Python.)"""


@dataclass(frozen=True, slots=True, eq=False)
class Online(HostedPartition):
    """Hosted and online."""

    partition: Partition


@dataclass(frozen=True, slots=True)
class Offline(HostedPartition):
    """Hosted in a log directory that went offline."""


_NONE = None_()
_OFFLINE = Offline()


class ActionQueue(Logging):
    """Port of core/src/main/scala/kafka/server/ActionQueue.scala (Kafka 2.8): work that must run after the
    current request is answered, outside any lock the request handling held (completing delayed operations after
    an append)."""

    logger_name = "kafka.server.ActionQueue"

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def add(self, action: Callable[[], None]) -> None:
        self._queue.put(action)

    def try_complete_actions(self) -> None:
        """Runs the actions queued so far (not those they queue themselves); errors are logged."""
        max_to_complete = self._queue.qsize()
        for _ in range(max_to_complete):
            try:
                action = self._queue.get_nowait()
            except queue.Empty:
                return
            try:
                action()
            except Exception as e:
                self.error("failed to complete delayed actions", e)


class ReplicaManager(Logging, KafkaMetricsGroup):
    """The partitions this broker hosts, and every request that reads or writes their logs."""

    logger_name = "kafka.server.ReplicaManager"

    def __init__(
        self,
        config: KafkaConfig,
        metrics: Any,
        time: Time,
        zk_client: Any | None,
        scheduler: Scheduler,
        log_manager: LogManager,
        is_shutting_down: AtomicBoolean,
        quota_managers: Any,
        broker_topic_stats: Any,
        metadata_cache: MetadataCache,
        log_dir_failure_channel: LogDirFailureChannel,
        alter_isr_manager: AlterIsrManager,
        delayed_produce_purgatory: DelayedOperationPurgatory[DelayedProduce] | None = None,
        delayed_fetch_purgatory: DelayedOperationPurgatory[DelayedFetch] | None = None,
        delayed_delete_records_purgatory: DelayedOperationPurgatory[DelayedDeleteRecords] | None = None,
        delayed_elect_leader_purgatory: DelayedOperationPurgatory[DelayedOperation] | None = None,
        thread_name_prefix: str | None = None,
    ) -> None:
        """`config` is a KafkaConfig and `log_manager` a LogManager. Purgatories not given are created as Kafka's
        auxiliary constructor creates them (with their reaper threads `ExpirationReaper-{id}-{name}`)."""
        self.config = config
        self._metrics = metrics
        self._time = time
        self.zk_client = zk_client
        self._scheduler = scheduler
        self.log_manager = log_manager
        self.is_shutting_down = is_shutting_down
        self._quota_managers = quota_managers
        self.broker_topic_stats = broker_topic_stats
        self.metadata_cache = metadata_cache
        self._log_dir_failure_channel = log_dir_failure_channel
        self.alter_isr_manager = alter_isr_manager
        broker_id = config.broker_id
        # Made first: a selector class that cannot be loaded fails the broker before any thread is started here.
        self.replica_selector_opt: ReplicaSelector | None = self._create_replica_selector()
        self.delayed_produce_purgatory: DelayedOperationPurgatory[DelayedProduce] = (
            delayed_produce_purgatory
            if delayed_produce_purgatory is not None
            else DelayedOperationPurgatory(
                "Produce", broker_id=broker_id, purge_interval=config.producer_purgatory_purge_interval_requests
            )
        )
        self.delayed_fetch_purgatory: DelayedOperationPurgatory[DelayedFetch] = (
            delayed_fetch_purgatory
            if delayed_fetch_purgatory is not None
            else DelayedOperationPurgatory(
                "Fetch", broker_id=broker_id, purge_interval=config.fetch_purgatory_purge_interval_requests
            )
        )
        self.delayed_delete_records_purgatory: DelayedOperationPurgatory[DelayedDeleteRecords] = (
            delayed_delete_records_purgatory
            if delayed_delete_records_purgatory is not None
            else DelayedOperationPurgatory(
                "DeleteRecords",
                broker_id=broker_id,
                purge_interval=config.delete_records_purgatory_purge_interval_requests,
            )
        )
        self.delayed_elect_leader_purgatory: DelayedOperationPurgatory[DelayedOperation] = (
            delayed_elect_leader_purgatory
            if delayed_elect_leader_purgatory is not None
            else DelayedOperationPurgatory("ElectLeader", broker_id=broker_id)
        )
        self._thread_name_prefix = thread_name_prefix

        # The epoch of the controller that last changed leadership here.
        self.controller_epoch: int = INITIAL_CONTROLLER_EPOCH
        self.local_broker_id: int = broker_id
        self.all_partitions: Pool[TopicPartition, HostedPartition] = Pool(
            lambda tp: Online(Partition.apply(tp, time, self))
        )
        self.replica_state_change_lock = threading.RLock()
        self.replica_fetcher_manager = self._create_replica_fetcher_manager(
            metrics, time, thread_name_prefix, None if quota_managers is None else quota_managers.follower
        )
        self.replica_alter_log_dirs_manager = self._create_replica_alter_log_dirs_manager(
            UNBOUNDED_QUOTA if quota_managers is None else quota_managers.alter_log_dirs, broker_topic_stats
        )
        self._high_watermark_check_point_thread_started = AtomicBoolean(False)
        self.high_watermark_checkpoints: dict[str, OffsetCheckpointFile] = {
            _abs(d): OffsetCheckpointFile(Path(_abs(d)) / HIGH_WATERMARK_FILENAME, log_dir_failure_channel)
            for d in log_manager.live_log_dirs
        }
        self.log_ident = f"[ReplicaManager broker={self.local_broker_id}] "
        self._state_change_logger = StateChangeLogger(
            self.local_broker_id, in_controller_context=False, controller_epoch=None
        )
        self._log_dir_failure_handler: _LogDirFailureHandler | None = None
        self._action_queue = ActionQueue()

        self.new_gauge("LeaderCount", lambda: self.leader_count)
        self.new_gauge("PartitionCount", lambda: self.partition_count)
        self.new_gauge("OfflineReplicaCount", lambda: self.offline_partition_count)
        self.new_gauge("UnderReplicatedPartitions", lambda: self.under_replicated_partition_count)
        self.new_gauge(
            "UnderMinIsrPartitionCount",
            lambda: sum(1 for p in self._leader_partitions_iterator() if p.is_under_min_isr),
        )
        self.new_gauge(
            "AtMinIsrPartitionCount", lambda: sum(1 for p in self._leader_partitions_iterator() if p.is_at_min_isr)
        )
        self.new_gauge("ReassigningPartitions", lambda: self.reassigning_partitions_count)
        self.isr_expand_rate: Meter = self.new_meter("IsrExpandsPerSec", "expands", TimeUnit.SECONDS)
        self.isr_shrink_rate: Meter = self.new_meter("IsrShrinksPerSec", "shrinks", TimeUnit.SECONDS)
        self.failed_isr_updates_rate: Meter = self.new_meter(
            "FailedIsrUpdatesPerSec", "failedUpdates", TimeUnit.SECONDS
        )

    # -- gauges' values ------------------------------------------------------------------------------------------

    @property
    def leader_count(self) -> int:
        return sum(1 for _ in self._leader_partitions_iterator())

    @property
    def partition_count(self) -> int:
        return self.all_partitions.size

    @property
    def under_replicated_partition_count(self) -> int:
        return sum(1 for p in self._leader_partitions_iterator() if p.is_under_replicated)

    def _leader_count_where(self, predicate: Callable[[Partition], bool]) -> int:
        return sum(1 for p in self._leader_partitions_iterator() if predicate(p))

    @property
    def reassigning_partitions_count(self) -> int:
        return sum(1 for p in self._leader_partitions_iterator() if p.is_reassigning)

    # -- life cycle ----------------------------------------------------------------------------------------------

    def start_high_watermark_check_point_thread(self) -> None:
        if self._high_watermark_check_point_thread_started.compare_and_set(False, True):
            self._scheduler.schedule(
                "highwatermark-checkpoint",
                self.checkpoint_high_watermarks,
                period_ms=self.config.replica_high_watermark_checkpoint_interval_ms,
            )

    def shutdown_idle_replica_alter_log_dirs_thread(self) -> None:
        """A ReplicaAlterLogDirsThread whose moves are all done stays up; this task stops it."""
        self.replica_alter_log_dirs_manager.shutdown_idle_fetcher_threads()

    def get_log(self, topic_partition: TopicPartition) -> Log | None:
        return self.log_manager.get_log(topic_partition)

    @property
    def has_delayed_election_operations(self) -> bool:
        return self.delayed_elect_leader_purgatory.num_delayed != 0

    def try_complete_election(self, key: TopicPartitionOperationKey) -> None:
        completed = self.delayed_elect_leader_purgatory.check_and_complete(key)
        self.debug(f"Request key {key.key_label} unblocked {completed} ElectLeader.")

    def startup(self) -> None:
        """Schedules the ISR expiry (`isr-expiration`, every replica.lag.time.max.ms / 2, so a follower may lag
        up to 1.5 times that before it leaves the ISR), `shutdown-idle-replica-alter-log-dirs-thread` (every 10 s)
        and starts the LogDirFailureHandler thread."""
        self._scheduler.schedule(
            "isr-expiration", self._maybe_shrink_isr, period_ms=self.config.replica_lag_time_max_ms // 2
        )
        self._scheduler.schedule(
            "shutdown-idle-replica-alter-log-dirs-thread",
            self.shutdown_idle_replica_alter_log_dirs_thread,
            period_ms=10000,
        )
        # Before IBP 1.0 the controller cannot tell new partitions from lost ones: halt on a log dir failure.
        halt_broker_on_failure = self.config.inter_broker_protocol_version < KAFKA_1_0_IV0
        self._log_dir_failure_handler = _LogDirFailureHandler(self, "LogDirFailureHandler", halt_broker_on_failure)
        self._log_dir_failure_handler.start()

    def _complete_delayed_fetch_or_produce_requests(self, topic_partition: TopicPartition) -> None:
        key = TopicPartitionOperationKey.of(topic_partition)
        self.delayed_produce_purgatory.check_and_complete(key)
        self.delayed_fetch_purgatory.check_and_complete(key)

    # -- StopReplica ---------------------------------------------------------------------------------------------

    def stop_replicas(
        self,
        correlation_id: int,
        controller_id: int,
        controller_epoch: int,
        broker_epoch: int,
        partition_states: Mapping[TopicPartition, Any],
    ) -> tuple[dict[TopicPartition, Errors], Errors]:
        """StopReplica: stops the partitions (StopReplicaPartitionState each) whose leader epoch the request
        does not lag, deleting those marked delete_partition. Returns per-partition errors and the top-level
        error (STALE_CONTROLLER_EPOCH from an old controller)."""
        with self.replica_state_change_lock:
            self._state_change_logger.info(
                f"Handling StopReplica request correlationId {correlation_id} from controller {controller_id} for "
                f"{len(partition_states)} partitions"
            )
            if self._state_change_logger.is_trace_enabled():
                for tp, ps in partition_states.items():
                    self._state_change_logger.trace(
                        f"Received StopReplica request {ps} correlation id {correlation_id} from controller "
                        f"{controller_id} epoch {controller_epoch} for partition {tp}"
                    )
            response_map: dict[TopicPartition, Errors] = {}
            if controller_epoch < self.controller_epoch:
                self._state_change_logger.warn(
                    f"Ignoring StopReplica request from controller {controller_id} with correlation id "
                    f"{correlation_id} since its controller epoch {controller_epoch} is old. Latest known controller "
                    f"epoch is {self.controller_epoch}"
                )
                return response_map, Errors.STALE_CONTROLLER_EPOCH
            self.controller_epoch = controller_epoch

            stopped_partitions: dict[TopicPartition, bool] = {}
            for tp, partition_state in partition_states.items():
                delete_partition = bool(partition_state.delete_partition)
                hosted = self.get_partition(tp)
                if isinstance(hosted, Offline):
                    self._state_change_logger.warn(
                        f"Ignoring StopReplica request (delete={_b(delete_partition)}) from controller "
                        f"{controller_id} with correlation id {correlation_id} epoch {controller_epoch} for partition "
                        f"{tp} as the local replica for the partition is in an offline log directory"
                    )
                    response_map[tp] = Errors.KAFKA_STORAGE_ERROR
                elif isinstance(hosted, Online):
                    current_leader_epoch = hosted.partition.get_leader_epoch()
                    request_leader_epoch = partition_state.leader_epoch
                    # Topic deletion does not bump the leader epoch, so it sends EpochDuringDelete; requests
                    # older than StopReplica v3 carry no epoch (NoEpoch) and skip the check.
                    if (
                        request_leader_epoch in (LeaderAndIsr.EPOCH_DURING_DELETE, LeaderAndIsr.NO_EPOCH)
                        or request_leader_epoch > current_leader_epoch
                    ):
                        stopped_partitions[tp] = delete_partition
                        response_map[tp] = Errors.NONE
                    elif request_leader_epoch < current_leader_epoch:
                        self._state_change_logger.warn(
                            f"Ignoring StopReplica request (delete={_b(delete_partition)}) from controller "
                            f"{controller_id} with correlation id {correlation_id} epoch {controller_epoch} for "
                            f"partition {tp} since its associated leader epoch {request_leader_epoch} is smaller than "
                            f"the current leader epoch {current_leader_epoch}"
                        )
                        response_map[tp] = Errors.FENCED_LEADER_EPOCH
                    else:
                        self._state_change_logger.info(
                            f"Ignoring StopReplica request (delete={_b(delete_partition)}) from controller "
                            f"{controller_id} with correlation id {correlation_id} epoch {controller_epoch} for "
                            f"partition {tp} since its associated leader epoch {request_leader_epoch} matches the "
                            "current leader epoch"
                        )
                        response_map[tp] = Errors.FENCED_LEADER_EPOCH
                else:
                    # Nothing hosted: the log may still be on disk (the topic was deleted while this broker was
                    # down), so stop and delete it anyway.
                    stopped_partitions[tp] = delete_partition
                    response_map[tp] = Errors.NONE

            for tp, e in self.stop_partitions(stopped_partitions).items():
                if isinstance(e, KafkaStorageException):
                    self._state_change_logger.error(
                        f"Ignoring StopReplica request (delete=true) from controller {controller_id} with correlation "
                        f"id {correlation_id} epoch {controller_epoch} for partition {tp} as the local replica for "
                        "the partition is in an offline log directory"
                    )
                else:
                    self._state_change_logger.error(
                        f"Ignoring StopReplica request (delete=true) from controller {controller_id} with correlation "
                        f"id {correlation_id} epoch {controller_epoch} for partition {tp} due to an unexpected "
                        f"{type(e).__name__} exception: {e}"
                    )
                response_map[tp] = Errors.for_exception(e)
            return response_map, Errors.NONE

    def stop_partitions(self, partitions_to_stop: Mapping[TopicPartition, bool]) -> dict[TopicPartition, BaseException]:
        """Stops the partitions (value: whether to delete it); returns the errors of failed deletions."""
        # Fetchers first: they read partition state from here.
        self.replica_fetcher_manager.remove_fetcher_for_partitions(partitions_to_stop.keys())
        self.replica_alter_log_dirs_manager.remove_fetcher_for_partitions(partitions_to_stop.keys())
        partitions_to_delete: list[TopicPartition] = []
        for tp, should_delete in partitions_to_stop.items():
            if should_delete:
                hosted = self.get_partition(tp)
                if isinstance(hosted, Online) and self.all_partitions.remove(tp, hosted):
                    self._maybe_remove_topic_metrics(tp.topic)
                    # The logs are deleted together below, with a single checkpoint.
                    hosted.partition.delete()
                partitions_to_delete.append(tp)
            # Operations this broker had as leader complete now rather than time out.
            self._complete_delayed_fetch_or_produce_requests(tp)

        error_map: dict[TopicPartition, BaseException] = {}
        if partitions_to_delete:
            self.log_manager.async_delete_partitions(partitions_to_delete, lambda tp, e: error_map.__setitem__(tp, e))
        return error_map

    def _maybe_remove_topic_metrics(self, topic: str) -> None:
        """Drops the topic's BrokerTopicMetrics once this broker hosts no partition of it that is not offline."""
        if self.broker_topic_stats is None:
            return
        if not any(isinstance(h, Online) and h.partition.topic == topic for h in self.all_partitions.values):
            self.broker_topic_stats.remove_metrics(topic)

    # -- partitions ----------------------------------------------------------------------------------------------

    def get_partition(self, topic_partition: TopicPartition) -> HostedPartition:
        hosted = self.all_partitions.get(topic_partition)
        return _NONE if hosted is None else hosted

    def is_adding_replica(self, topic_partition: TopicPartition, replica_id: int) -> bool:
        hosted = self.get_partition(topic_partition)
        return isinstance(hosted, Online) and hosted.partition.is_adding_replica(replica_id)

    def create_partition(self, topic_partition: TopicPartition) -> Partition:
        """For tests: host a fresh partition."""
        partition = Partition.apply(topic_partition, self._time, self)
        self.all_partitions.put(topic_partition, Online(partition))
        return partition

    def online_partition(self, topic_partition: TopicPartition) -> Partition | None:
        hosted = self.get_partition(topic_partition)
        return hosted.partition if isinstance(hosted, Online) else None

    def _online_partitions_iterator(self) -> Iterator[Partition]:
        for hosted in self.all_partitions.values:
            if isinstance(hosted, Online):
                yield hosted.partition

    def online_partitions(self) -> list[Partition]:
        return list(self._online_partitions_iterator())

    @property
    def offline_partition_count(self) -> int:
        return sum(1 for h in self.all_partitions.values if isinstance(h, Offline))

    def get_partition_or_exception(self, topic_partition: TopicPartition) -> Partition:
        hosted = self.all_partitions.get(topic_partition)
        if isinstance(hosted, Online):
            return hosted.partition  # the usual case, asked several times per fetch: no detour
        result = self.get_partition_or_error(topic_partition)
        if isinstance(result, Partition):
            return result
        if result == Errors.KAFKA_STORAGE_ERROR:
            raise KafkaStorageException(f"Partition {topic_partition} is in an offline log directory")
        exc = result.exception(f"Error while fetching partition state for {topic_partition}")
        assert exc is not None
        raise exc

    def get_partition_or_error(self, topic_partition: TopicPartition) -> Partition | Errors:
        """The online partition, or the error to report (Kafka's Either[Errors, Partition])."""
        hosted = self.all_partitions.get(topic_partition)
        if isinstance(hosted, Online):
            return hosted.partition
        if isinstance(hosted, Offline):
            return Errors.KAFKA_STORAGE_ERROR
        if self.metadata_cache.contains(topic_partition):
            # The topic exists but this broker no longer hosts the partition (e.g. reassigned): the client must
            # refresh its metadata.
            return Errors.NOT_LEADER_OR_FOLLOWER
        return Errors.UNKNOWN_TOPIC_OR_PARTITION

    def local_log_or_exception(self, topic_partition: TopicPartition) -> Log:
        return self.get_partition_or_exception(topic_partition).local_log_or_exception()

    def future_local_log_or_exception(self, topic_partition: TopicPartition) -> Log:
        return self.get_partition_or_exception(topic_partition).future_local_log_or_exception()

    def future_log_exists(self, topic_partition: TopicPartition) -> bool:
        return self.get_partition_or_exception(topic_partition).future_log is not None

    def local_log(self, topic_partition: TopicPartition) -> Log | None:
        partition = self.online_partition(topic_partition)
        return None if partition is None else partition.log

    def get_log_dir(self, topic_partition: TopicPartition) -> str | None:
        log = self.local_log(topic_partition)
        return None if log is None else str(log.parent_dir)

    def try_complete_actions(self) -> None:
        """Completes the delayed operations that appends made completable. KafkaApis calls this after handling
        each request, with no lock held."""
        self._action_queue.try_complete_actions()

    # -- produce -------------------------------------------------------------------------------------------------

    def append_records(
        self,
        timeout: int,
        required_acks: int,
        internal_topics_allowed: bool,
        origin: AppendOrigin,
        entries_per_partition: Mapping[TopicPartition, MemoryRecords],
        response_callback: Callable[[dict[TopicPartition, PartitionResponse]], None],
        delayed_produce_lock: LockLike | None = None,
        record_conversion_stats_callback: Callable[[dict[TopicPartition, Any]], None] | None = None,
    ) -> None:
        """Appends to the leader logs and answers through `response_callback`: at once for acks 0 and 1, once the
        ISR has every partition's records (or `timeout` ms passed) for acks -1. Invalid acks answer
        INVALID_REQUIRED_ACKS for every partition. `delayed_produce_lock` is the lock the callback itself needs
        (a group's lock), so the delayed produce completes under it."""
        if not self._is_valid_required_acks(required_acks):
            unknown = unknown_log_append_info()
            response_callback(
                {
                    tp: PartitionResponse(
                        Errors.INVALID_REQUIRED_ACKS,
                        unknown.first_offset.message_offset if unknown.first_offset is not None else -1,
                        log_append_time=NO_TIMESTAMP,
                        log_start_offset=unknown.log_start_offset,
                    )
                    for tp in entries_per_partition
                }
            )
            return

        s_time = self._time.milliseconds()
        local_produce_results = self._append_to_local_log(
            internal_topics_allowed, origin, entries_per_partition, required_acks
        )
        if self.is_debug_enabled():
            self.debug(f"Produce to local log in {self._time.milliseconds() - s_time} ms")

        produce_status = {
            tp: ProducePartitionStatus(
                result.info.last_offset + 1,  # the offset the ISR must reach
                PartitionResponse(
                    result.error,
                    result.info.first_offset.message_offset if result.info.first_offset is not None else -1,
                    log_append_time=result.info.log_append_time,
                    log_start_offset=result.info.log_start_offset,
                    record_errors=list(result.info.record_errors),
                    error_message=result.info.error_message,
                ),
            )
            for tp, result in local_produce_results.items()
        }

        def complete_after_append() -> None:
            for tp, result in local_produce_results.items():
                key = TopicPartitionOperationKey.of(tp)
                change = result.info.leader_hw_change
                if isinstance(change, Increased):
                    # A high watermark move may complete acks=-1 produces, fetches and deletes.
                    self.delayed_produce_purgatory.check_and_complete(key)
                    self.delayed_fetch_purgatory.check_and_complete(key)
                    self.delayed_delete_records_purgatory.check_and_complete(key)
                elif isinstance(change, Same):
                    # The log end moved: follower fetches waiting for data may complete.
                    self.delayed_fetch_purgatory.check_and_complete(key)

        self._action_queue.add(complete_after_append)

        if record_conversion_stats_callback is not None:
            record_conversion_stats_callback(
                {tp: r.info.record_conversion_stats for tp, r in local_produce_results.items()}
            )

        if self._delayed_produce_request_required(required_acks, entries_per_partition, local_produce_results):
            produce_metadata = ProduceMetadata(required_acks, produce_status)
            delayed_produce = DelayedProduce(timeout, produce_metadata, self, response_callback, delayed_produce_lock)
            producer_request_keys = [TopicPartitionOperationKey.of(tp) for tp in entries_per_partition]
            # Try now first: requests arriving while this one was being set up may have completed it.
            self.delayed_produce_purgatory.try_complete_else_watch(delayed_produce, producer_request_keys)
        else:
            response_callback({tp: status.response_status for tp, status in produce_status.items()})

    def _delete_records_on_local_log(
        self, offset_per_partition: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, LogDeleteRecordsResult]:
        if self.is_trace_enabled():
            self.trace(f"Delete records on local logs to offsets [{dict(offset_per_partition)}]")
        results: dict[TopicPartition, LogDeleteRecordsResult] = {}
        for tp, requested_offset in offset_per_partition.items():
            if Topic.is_internal(tp.topic):
                results[tp] = LogDeleteRecordsResult(
                    -1, -1, InvalidTopicException(f"Cannot delete records of internal topic {tp.topic}")
                )
                continue
            try:
                partition = self.get_partition_or_exception(tp)
                results[tp] = partition.delete_records_on_leader(requested_offset)
            except (
                UnknownTopicOrPartitionException,
                NotLeaderOrFollowerException,
                OffsetOutOfRangeException,
                PolicyViolationException,
                KafkaStorageException,
            ) as e:
                results[tp] = LogDeleteRecordsResult(-1, -1, e)
            except Exception as e:
                self.error(f"Error processing delete records operation on partition {tp}", e)
                results[tp] = LogDeleteRecordsResult(-1, -1, e)
        return results

    @staticmethod
    def _delayed_delete_records_required(results: Mapping[TopicPartition, LogDeleteRecordsResult]) -> bool:
        # Some partition deleted locally whose followers' log start offsets have not followed yet.
        return any(r.exception is None and r.low_watermark < r.requested_offset for r in results.values())

    # -- log directories -----------------------------------------------------------------------------------------

    def alter_replica_log_dirs(self, partition_dirs: Mapping[TopicPartition, str]) -> dict[TopicPartition, Errors]:
        """AlterReplicaLogDirs: moves each hosted replica to its destination directory (a future log there, copied by
        a ReplicaAlterLogDirsThread). The destination of a replica not hosted yet is remembered, so that the next
        LeaderAndIsr creates it there, and REPLICA_NOT_AVAILABLE is answered for it. An unknown or relative
        directory is LOG_DIR_NOT_FOUND, an offline one or an offline partition KAFKA_STORAGE_ERROR."""
        with self.replica_state_change_lock:
            result: dict[TopicPartition, Errors] = {}
            for topic_partition, destination_dir in partition_dirs.items():
                try:
                    # A directory name longer than a file system allows cannot hold the future log.
                    if len(Log.log_future_dir_name(topic_partition)) > 255:
                        raise InvalidTopicException("The topic name is too long.")
                    if not self.log_manager.is_log_dir_online(destination_dir):
                        raise KafkaStorageException(f"Log directory {destination_dir} is offline")

                    hosted = self.get_partition(topic_partition)
                    if isinstance(hosted, Online):
                        # A move to another directory is under way: stop it before starting this one.
                        if hosted.partition.future_replica_dir_changed(destination_dir):
                            self.replica_alter_log_dirs_manager.remove_fetcher_for_partitions({topic_partition})
                            hosted.partition.remove_future_local_replica()
                    elif isinstance(hosted, Offline):
                        raise KafkaStorageException(f"Partition {topic_partition} is offline")

                    # Remembered for a replica created later; ignored by the LogManager if it is there already.
                    self.log_manager.maybe_update_preferred_log_dir(topic_partition, destination_dir)

                    # NotLeaderOrFollowerException (answered REPLICA_NOT_AVAILABLE) if there is no replica yet.
                    partition = self.get_partition_or_exception(topic_partition)
                    partition.local_log_or_exception()

                    # The future log is not created while a log directory is offline (the LogManager refuses), so
                    # that one partition never gets future logs in two directories.
                    high_watermark_checkpoints = LazyOffsetCheckpoints(self.high_watermark_checkpoints)
                    if partition.maybe_create_future_replica(destination_dir, high_watermark_checkpoints):
                        future_log = self.future_local_log_or_exception(topic_partition)
                        self.log_manager.abort_and_pause_cleaning(topic_partition)
                        initial_fetch_state = InitialFetchState(
                            BrokerEndPoint(self.config.broker_id, "localhost", -1),
                            partition.get_leader_epoch(),
                            int(future_log.high_watermark),
                        )
                        self.replica_alter_log_dirs_manager.add_fetcher_for_partitions(
                            {topic_partition: initial_fetch_state}
                        )
                    result[topic_partition] = Errors.NONE
                except (
                    InvalidTopicException,
                    LogDirNotFoundException,
                    ReplicaNotAvailableException,
                    KafkaStorageException,
                ) as e:
                    self.warn(f"Unable to alter log dirs for {topic_partition}", e)
                    result[topic_partition] = Errors.for_exception(e)
                except NotLeaderOrFollowerException as e:
                    # REPLICA_NOT_AVAILABLE, as AlterReplicaLogDirs has always answered for a missing replica.
                    self.warn(f"Unable to alter log dirs for {topic_partition}", e)
                    result[topic_partition] = Errors.REPLICA_NOT_AVAILABLE
                except Exception as t:
                    self.error(f"Error while changing replica dir for partition {topic_partition}", t)
                    result[topic_partition] = Errors.for_exception(t)
            return result

    def describe_log_dirs(self, partitions: Iterable[TopicPartition]) -> list[Any]:
        """DescribeLogDirs: for each configured log directory, its error and the size and offset lag of the
        asked-for partitions it holds (DescribeLogDirsResult entries)."""
        wanted = set(partitions)
        logs_by_dir: dict[str, list[Any]] = {}
        for log in self.log_manager.all_logs():
            logs_by_dir.setdefault(str(log.parent_dir), []).append(log)
        results = []
        for log_dir in dict.fromkeys(self.config.log_dirs):
            absolute_path = _abs(log_dir)
            try:
                if not self.log_manager.is_log_dir_online(absolute_path):
                    raise KafkaStorageException(f"Log directory {absolute_path} is offline")
                result = DescribeLogDirsResponseData.DescribeLogDirsResult(
                    log_dir=absolute_path, error_code=Errors.NONE.code
                )
                logs = logs_by_dir.get(absolute_path)
                if logs is not None:
                    by_topic: dict[str, list[Any]] = {}
                    for log in logs:
                        by_topic.setdefault(log.topic_partition.topic, []).append(log)
                    for topic, topic_logs in by_topic.items():
                        result.topics.append(
                            DescribeLogDirsResponseData.DescribeLogDirsTopic(
                                name=topic,
                                partitions=[
                                    DescribeLogDirsResponseData.DescribeLogDirsPartition(
                                        partition_size=log.size,
                                        partition_index=log.topic_partition.partition,
                                        offset_lag=self.get_log_end_offset_lag(
                                            log.topic_partition, log.log_end_offset, log.is_future
                                        ),
                                        is_future_key=log.is_future,
                                    )
                                    for log in topic_logs
                                    if log.topic_partition in wanted
                                ],
                            )
                        )
                results.append(result)
            except KafkaStorageException as e:
                self.warn(f"Unable to describe replica dirs for {absolute_path}", e)
                results.append(
                    DescribeLogDirsResponseData.DescribeLogDirsResult(
                        log_dir=absolute_path, error_code=Errors.KAFKA_STORAGE_ERROR.code
                    )
                )
            except Exception as e:
                self.error(f"Error while describing replica in dir {absolute_path}", e)
                results.append(
                    DescribeLogDirsResponseData.DescribeLogDirsResult(
                        log_dir=absolute_path, error_code=Errors.for_exception(e).code
                    )
                )
        return results

    def get_log_end_offset_lag(self, topic_partition: TopicPartition, log_end_offset: int, is_future: bool) -> int:
        log = self.local_log(topic_partition)
        if log is None:
            return INVALID_OFFSET_LAG  # not created yet, or offline
        if is_future:
            return int(log.log_end_offset - log_end_offset)
        return max(int(log.high_watermark) - log_end_offset, 0)

    def elect_leaders(
        self,
        controller: Any,
        partitions: Iterable[TopicPartition],
        election_type: ElectionType,
        response_callback: Callable[[dict[TopicPartition, Any]], None],
        request_timeout: int,
    ) -> None:
        """ElectLeaders: the controller elects; the answer waits (DelayedElectLeader) until this broker's metadata
        shows the new leaders, or `request_timeout` ms. The callback gets an ApiError per partition."""
        from kafka.common.requests.api_error import ApiError
        from kafka.server.delayed_elect_leader import DelayedElectLeader

        deadline = self._time.milliseconds() + request_timeout

        def election_callback(results: Mapping[TopicPartition, Any]) -> None:
            expected_leaders: dict[TopicPartition, int] = {}
            failures: dict[TopicPartition, ApiError] = {}
            for partition, outcome in results.items():
                if isinstance(outcome, ApiError):
                    failures[partition] = outcome
                else:
                    expected_leaders[partition] = outcome
            if expected_leaders:
                watch_keys = [TopicPartitionOperationKey.of(tp) for tp in expected_leaders]
                self.delayed_elect_leader_purgatory.try_complete_else_watch(
                    DelayedElectLeader(
                        max(0, deadline - self._time.milliseconds()),
                        expected_leaders,
                        failures,
                        self,
                        response_callback,
                    ),
                    watch_keys,
                )
            else:
                # Nothing is being elected: answer at once.
                response_callback(failures)

        controller.elect_leaders(partitions, election_type, election_callback)

    def delete_records(
        self,
        timeout: int,
        offset_per_partition: Mapping[TopicPartition, int],
        response_callback: Callable[[dict[TopicPartition, Any]], None],
    ) -> None:
        """DeleteRecords: moves the leaders' log start offsets, then answers (DeleteRecordsPartitionResult per
        partition) once the followers' have followed or `timeout` ms passed."""
        before = self._time.milliseconds()
        local_results = self._delete_records_on_local_log(offset_per_partition)
        if self.is_debug_enabled():
            self.debug(f"Delete records on local log in {self._time.milliseconds() - before} ms")
        delete_records_status = {
            tp: DeleteRecordsPartitionStatus(
                result.requested_offset,
                DeleteRecordsResponseData.DeleteRecordsPartitionResult(
                    partition_index=tp.partition, low_watermark=result.low_watermark, error_code=result.error.code
                ),
            )
            for tp, result in local_results.items()
        }
        if self._delayed_delete_records_required(local_results):
            delayed = DelayedDeleteRecords(timeout, delete_records_status, self, response_callback)
            keys = [TopicPartitionOperationKey.of(tp) for tp in offset_per_partition]
            self.delayed_delete_records_purgatory.try_complete_else_watch(delayed, keys)
        else:
            response_callback({tp: status.response_status for tp, status in delete_records_status.items()})

    @staticmethod
    def _delayed_produce_request_required(
        required_acks: int,
        entries_per_partition: Mapping[TopicPartition, MemoryRecords],
        local_produce_results: Mapping[TopicPartition, LogAppendResult],
    ) -> bool:
        # acks=-1, something to append, and at least one partition appended.
        failures = sum(1 for r in local_produce_results.values() if r.exception is not None)
        return required_acks == -1 and bool(entries_per_partition) and failures < len(entries_per_partition)

    @staticmethod
    def _is_valid_required_acks(required_acks: int) -> bool:
        return required_acks in (-1, 0, 1)

    def _append_to_local_log(
        self,
        internal_topics_allowed: bool,
        origin: AppendOrigin,
        entries_per_partition: Mapping[TopicPartition, MemoryRecords],
        required_acks: int,
    ) -> dict[TopicPartition, LogAppendResult]:
        trace_enabled = self.is_trace_enabled()
        stats = self.broker_topic_stats

        def process_failed_record(tp: TopicPartition, t: BaseException) -> int:
            partition = self.online_partition(tp)
            log_start_offset = -1 if partition is None else partition.log_start_offset
            if stats is not None:
                stats.topic_stats(tp.topic).failed_produce_request_rate.mark()
                stats.all_topics_stats.failed_produce_request_rate.mark()
            self.error(f"Error processing append operation on partition {tp}", t)
            return log_start_offset

        if trace_enabled:
            self.trace(f"Append [{dict(entries_per_partition)}] to local log")
        results: dict[TopicPartition, LogAppendResult] = {}
        for tp, records in entries_per_partition.items():
            if stats is not None:
                stats.topic_stats(tp.topic).total_produce_request_rate.mark()
                stats.all_topics_stats.total_produce_request_rate.mark()
            if Topic.is_internal(tp.topic) and not internal_topics_allowed:
                results[tp] = LogAppendResult(
                    unknown_log_append_info(), InvalidTopicException(f"Cannot append to internal topic {tp.topic}")
                )
                continue
            try:
                partition = self.get_partition_or_exception(tp)
                info = partition.append_records_to_leader(records, origin, required_acks)
                if stats is not None:
                    topic_stats = stats.topic_stats(tp.topic)
                    size_in_bytes = records.size_in_bytes()
                    topic_stats.bytes_in_rate.mark(size_in_bytes)
                    stats.all_topics_stats.bytes_in_rate.mark(size_in_bytes)
                    topic_stats.messages_in_rate.mark(info.num_messages)
                    stats.all_topics_stats.messages_in_rate.mark(info.num_messages)
                if trace_enabled:
                    first = info.first_offset.message_offset if info.first_offset is not None else -1
                    self.trace(
                        f"{records.size_in_bytes()} written to log {tp} beginning at offset {first} and ending at "
                        f"offset {info.last_offset}"
                    )
                results[tp] = LogAppendResult(info)
            except (
                UnknownTopicOrPartitionException,
                NotLeaderOrFollowerException,
                RecordTooLargeException,
                RecordBatchTooLargeException,
                CorruptRecordException,
                KafkaStorageException,
            ) as e:
                # Expected failures: not counted as failed produce requests (the Log marked BytesRejected).
                results[tp] = LogAppendResult(unknown_log_append_info(), e)
            except RecordValidationException as rve:
                log_start_offset = process_failed_record(tp, rve.invalid_exception)
                results[tp] = LogAppendResult(
                    LogAppendInfo.unknown_log_append_info_with_additional_info(
                        log_start_offset, rve.record_errors, str(rve.invalid_exception)
                    ),
                    rve.invalid_exception,
                )
            except Exception as t:
                log_start_offset = process_failed_record(tp, t)
                results[tp] = LogAppendResult(
                    LogAppendInfo.unknown_log_append_info_with_log_start_offset(log_start_offset), t
                )
        return results

    # -- ListOffsets ---------------------------------------------------------------------------------------------

    def fetch_offset_for_timestamp(
        self,
        topic_partition: TopicPartition,
        timestamp: int,
        isolation_level: IsolationLevel | None,
        current_leader_epoch: int | None,
        fetch_only_from_leader: bool,
    ) -> TimestampAndOffset | None:
        """ListOffsets v1+ for one partition (see Partition.fetch_offset_for_timestamp); `isolation_level` is
        None for replicas (debug consumers and followers)."""
        partition = self.get_partition_or_exception(topic_partition)
        return partition.fetch_offset_for_timestamp(
            timestamp, isolation_level, current_leader_epoch, fetch_only_from_leader
        )

    def legacy_fetch_offsets_for_timestamp(
        self,
        topic_partition: TopicPartition,
        timestamp: int,
        max_num_offsets: int,
        is_from_consumer: bool,
        fetch_only_from_leader: bool,
    ) -> list[int]:
        """ListOffsets v0 for one partition."""
        partition = self.get_partition_or_exception(topic_partition)
        return partition.legacy_fetch_offsets_for_timestamp(
            timestamp, max_num_offsets, is_from_consumer, fetch_only_from_leader
        )

    # -- fetch ---------------------------------------------------------------------------------------------------

    def fetch_messages(
        self,
        timeout: int,
        replica_id: int,
        fetch_min_bytes: int,
        fetch_max_bytes: int,
        hard_max_bytes_limit: bool,
        fetch_infos: Sequence[tuple[TopicPartition, PartitionData]],
        quota: Any,
        response_callback: Callable[[list[tuple[TopicPartition, FetchPartitionData]]], None],
        isolation_level: IsolationLevel,
        client_metadata: ClientMetadata | None,
    ) -> None:
        """Reads the partitions and answers through `response_callback`, at once if the request will not wait,
        asks for nothing, found fetch_min_bytes, hit an error, a diverging epoch or a preferred read replica;
        otherwise after up to `timeout` ms in the Fetch purgatory, completed early when produces bring enough bytes.

        Followers (replica_id >= 0) read to the log end and only from the leader; consumers read to the high
        watermark (READ_UNCOMMITTED) or last stable offset (READ_COMMITTED). `fetch_max_bytes` bounds the whole
        response and each PartitionData.max_bytes its partition, except that (unless `hard_max_bytes_limit`, for
        Fetch v0-2) the first non-empty partition returns its first batch whole."""
        is_from_follower = FetchRequest.is_valid_broker_id(replica_id)
        is_from_consumer = not (is_from_follower or replica_id == FUTURE_LOCAL_REPLICA_ID)
        fetch_isolation: FetchIsolation
        if not is_from_consumer:
            fetch_isolation = FetchLogEnd()
        elif isolation_level == IsolationLevel.READ_COMMITTED:
            fetch_isolation = FetchTxnCommitted()
        else:
            fetch_isolation = FetchHighWatermark()
        # Followers, and consumers without rack metadata (older clients), fetch only from the leader.
        fetch_only_from_leader = is_from_follower or (is_from_consumer and client_metadata is None)

        log_read_results = self.read_from_local_log(
            replica_id=replica_id,
            fetch_only_from_leader=fetch_only_from_leader,
            fetch_isolation=fetch_isolation,
            fetch_max_bytes=fetch_max_bytes,
            hard_max_bytes_limit=hard_max_bytes_limit,
            read_partition_info=fetch_infos,
            quota=quota,
            client_metadata=client_metadata,
        )
        if is_from_follower:
            log_read_results = self._update_follower_fetch_state(replica_id, log_read_results)

        bytes_readable = 0
        error_reading_data = False
        has_diverging_epoch = False
        has_preferred_read_replica = False
        log_read_result_map: dict[TopicPartition, LogReadResult] = {}
        for tp, result in log_read_results:
            if result.error != Errors.NONE:
                error_reading_data = True
            if result.diverging_epoch is not None:
                has_diverging_epoch = True
            if result.preferred_read_replica is not None:
                has_preferred_read_replica = True
            bytes_readable += result.info.records.size_in_bytes()
            log_read_result_map[tp] = result

        # PORT: a preferred read replica is answered at once, as Kafka 3.x does; 2.8 kept such a fetch in the
        # purgatory for up to its max wait, which only delays the consumer's move to that replica.
        if (
            timeout <= 0
            or not fetch_infos
            or bytes_readable >= fetch_min_bytes
            or error_reading_data
            or has_diverging_epoch
            or has_preferred_read_replica
        ):
            response_callback(
                [
                    (tp, result.to_fetch_partition_data(is_from_follower and self.is_adding_replica(tp, replica_id)))
                    for tp, result in log_read_results
                ]
            )
            return

        fetch_partition_status: list[tuple[TopicPartition, FetchPartitionStatus]] = []
        for tp, partition_data in fetch_infos:
            read_result = log_read_result_map.get(tp)
            if read_result is not None:
                fetch_partition_status.append(
                    (tp, FetchPartitionStatus(read_result.info.fetch_offset_metadata, partition_data))
                )
        fetch_metadata = FetchMetadata(
            fetch_min_bytes,
            fetch_max_bytes,
            hard_max_bytes_limit,
            fetch_only_from_leader,
            fetch_isolation,
            is_from_follower,
            replica_id,
            fetch_partition_status,
        )
        delayed_fetch = DelayedFetch(timeout, fetch_metadata, self, quota, client_metadata, response_callback)
        delayed_fetch_keys = [TopicPartitionOperationKey.of(tp) for tp, _ in fetch_partition_status]
        # The read above came short: watch, then check once (a produce may have arrived since the read).
        self.delayed_fetch_purgatory.try_complete_else_watch(delayed_fetch, delayed_fetch_keys, check_first=False)

    def read_from_local_log(
        self,
        replica_id: int,
        fetch_only_from_leader: bool,
        fetch_isolation: FetchIsolation,
        fetch_max_bytes: int,
        hard_max_bytes_limit: bool,
        read_partition_info: Sequence[tuple[TopicPartition, PartitionData]],
        quota: Any,
        client_metadata: ClientMetadata | None,
    ) -> list[tuple[TopicPartition, LogReadResult]]:
        """Reads each partition at its fetch offset, within its max bytes and what is left of `fetch_max_bytes`;
        until some partition returned data, the first batch is returned whole even past those limits."""
        trace_enabled = self.is_trace_enabled()
        stats = self.broker_topic_stats

        def read(
            tp: TopicPartition, fetch_info: PartitionData, limit_bytes: int, min_one_message: bool
        ) -> LogReadResult:
            offset = fetch_info.fetch_offset
            partition_fetch_size = fetch_info.max_bytes
            follower_log_start_offset = fetch_info.log_start_offset
            adjusted_max_bytes = min(fetch_info.max_bytes, limit_bytes)
            try:
                if trace_enabled:
                    self.trace(
                        f"Fetching log segment for partition {tp}, offset {offset}, partition fetch size "
                        f"{partition_fetch_size}, remaining response limit {limit_bytes}"
                        + (", ignoring response/partition size limits" if min_one_message else "")
                    )
                partition = self.get_partition_or_exception(tp)
                fetch_time_ms = self._time.milliseconds()
                # The leader may send a consumer that told its rack to another replica (KIP-392).
                preferred_read_replica = (
                    None
                    if client_metadata is None
                    else self.find_preferred_read_replica(
                        partition, client_metadata, replica_id, fetch_info.fetch_offset, fetch_time_ms
                    )
                )
                if preferred_read_replica is not None:
                    if self.is_debug_enabled() and self.replica_selector_opt is not None:
                        self.debug(
                            f"Replica selector {type(self.replica_selector_opt).__name__} returned preferred replica "
                            f"{preferred_read_replica} for {client_metadata}"
                        )
                    # No records: the consumer is to fetch them from the preferred replica.
                    offset_snapshot = partition.fetch_offset_snapshot(
                        fetch_info.current_leader_epoch, fetch_only_from_leader=False
                    )
                    return LogReadResult(
                        info=FetchDataInfo(LogOffsetMetadata.UNKNOWN_OFFSET_METADATA, MemoryRecords.EMPTY),
                        diverging_epoch=None,
                        high_watermark=offset_snapshot.high_watermark.message_offset,
                        leader_log_start_offset=offset_snapshot.log_start_offset,
                        leader_log_end_offset=offset_snapshot.log_end_offset.message_offset,
                        follower_log_start_offset=follower_log_start_offset,
                        fetch_time_ms=-1,
                        last_stable_offset=offset_snapshot.last_stable_offset.message_offset,
                        preferred_read_replica=preferred_read_replica,
                        exception=None,
                    )
                read_info = partition.read_records(
                    last_fetched_epoch=fetch_info.last_fetched_epoch,
                    fetch_offset=fetch_info.fetch_offset,
                    current_leader_epoch=fetch_info.current_leader_epoch,
                    max_bytes=adjusted_max_bytes,
                    fetch_isolation=fetch_isolation,
                    fetch_only_from_leader=fetch_only_from_leader,
                    min_one_message=min_one_message,
                )
                if self.should_leader_throttle(quota, partition, replica_id):
                    # A throttled partition answers with no records.
                    fetch_data_info = FetchDataInfo(read_info.fetched_data.fetch_offset_metadata, MemoryRecords.EMPTY)
                elif not hard_max_bytes_limit and read_info.fetched_data.first_entry_incomplete:
                    # Fetch v3+: a first batch too big to send is left out rather than sent incomplete; the
                    # consumer moves on (it gets the whole batch once it fetches with larger limits).
                    fetch_data_info = FetchDataInfo(read_info.fetched_data.fetch_offset_metadata, MemoryRecords.EMPTY)
                else:
                    fetch_data_info = read_info.fetched_data
                return LogReadResult(
                    info=fetch_data_info,
                    diverging_epoch=read_info.diverging_epoch,
                    high_watermark=read_info.high_watermark,
                    leader_log_start_offset=read_info.log_start_offset,
                    leader_log_end_offset=read_info.log_end_offset,
                    follower_log_start_offset=follower_log_start_offset,
                    fetch_time_ms=fetch_time_ms,
                    last_stable_offset=read_info.last_stable_offset,
                    preferred_read_replica=None,
                    exception=None,
                )
            except (
                UnknownTopicOrPartitionException,
                NotLeaderOrFollowerException,
                UnknownLeaderEpochException,
                FencedLeaderEpochException,
                ReplicaNotAvailableException,
                KafkaStorageException,
                OffsetOutOfRangeException,
            ) as e:
                # Expected failures: not counted as failed fetch requests.
                return _failed_read(e)
            except Exception as e:
                if stats is not None:
                    stats.topic_stats(tp.topic).failed_fetch_request_rate.mark()
                    stats.all_topics_stats.failed_fetch_request_rate.mark()
                fetch_source = FetchRequest.describe_replica_id(replica_id)
                self.error(
                    f"Error processing fetch with max size {adjusted_max_bytes} from {fetch_source} on partition "
                    f"{tp}: {fetch_info}",
                    e,
                )
                return _failed_read(e)

        if stats is not None and read_partition_info:
            # PORT: Kafka marks the fetch request rates as it reads each partition; they are marked here per topic
            # (consecutive partitions of a topic at once) before the reads, which leaves the counts and rates the same.
            all_topics_rate = stats.all_topics_stats.total_fetch_request_rate
            run_topic = read_partition_info[0][0].topic
            run = 0
            for tp, _ in read_partition_info:
                if tp.topic != run_topic:
                    stats.topic_stats(run_topic).total_fetch_request_rate.mark(run)
                    run_topic = tp.topic
                    run = 0
                run += 1
            stats.topic_stats(run_topic).total_fetch_request_rate.mark(run)
            all_topics_rate.mark(len(read_partition_info))
        limit_bytes = fetch_max_bytes
        result: list[tuple[TopicPartition, LogReadResult]] = []
        min_one_message = not hard_max_bytes_limit
        for tp, fetch_info in read_partition_info:
            read_result = read(tp, fetch_info, limit_bytes, min_one_message)
            record_batch_size = read_result.info.records.size_in_bytes()
            # Once a partition returned data, the limits hold for the rest.
            if record_batch_size > 0:
                min_one_message = False
            limit_bytes = max(0, limit_bytes - record_batch_size)
            result.append((tp, read_result))
        return result

    def find_preferred_read_replica(
        self,
        partition: Partition,
        client_metadata: ClientMetadata,
        replica_id: int,
        fetch_offset: int,
        current_time_ms: int,
    ) -> int | None:
        """The replica the configured ReplicaSelector prefers for this consumer's fetch at `fetch_offset`, or None
        when that is the leader (or there is no selector, or this broker does not lead the partition).

        The selector chooses among the leader and the followers that are in the ISR, alive in the metadata cache
        with an endpoint on the client's listener, and hold `fetch_offset` (between their log start and log end as
        their last fetch reported); each follower's view says how long ago it was last caught up.

        # PORT: as Kafka 3.x, not 2.8: only a leader answers (2.8 also picked a replica
        # on a follower that was asked, with the follower's log end as the leader's), and followers outside the ISR
        # are not offered (a lagging follower chosen again and again would keep the consumer behind). A follower
        # without an endpoint on the client's listener is left out rather than offered as an empty node."""
        if not partition.is_leader:
            return None
        leader_replica_id = self.local_broker_id
        # Followers fetching for replication are never sent elsewhere.
        if FetchRequest.is_valid_broker_id(replica_id):
            return None
        replica_selector = self.replica_selector_opt
        if replica_selector is None:
            return None
        replica_endpoints = self.metadata_cache.get_partition_replica_endpoints(
            partition.topic_partition, ListenerName(client_metadata.listener_name)
        )
        in_sync_replica_ids = partition.in_sync_replica_ids
        replica_infos: set[ReplicaView] = set()
        for replica in partition.remote_replicas:
            endpoint = replica_endpoints.get(replica.broker_id)
            if (
                endpoint is not None
                and replica.broker_id in in_sync_replica_ids
                and replica.log_end_offset >= fetch_offset
                and replica.log_start_offset <= fetch_offset
            ):
                replica_infos.add(
                    ReplicaView(endpoint, replica.log_end_offset, current_time_ms - replica.last_caught_up_time_ms)
                )
        leader_replica = ReplicaView(
            replica_endpoints.get(leader_replica_id, Node.no_node()),
            partition.local_log_or_exception().log_end_offset,
            0,
        )
        replica_infos.add(leader_replica)
        partition_info = PartitionView(frozenset(replica_infos), leader_replica)
        selected = replica_selector.select(partition.topic_partition, client_metadata, partition_info)
        # The selector may name the leader; the response then names no preferred replica.
        if selected is None or selected.endpoint.is_empty() or selected == leader_replica:
            return None
        return int(selected.endpoint.id)

    def should_leader_throttle(self, quota: Any, partition: Partition, replica_id: int) -> bool:
        """Throttle a follower only if it is out of the ISR, its partition is throttled and the quota exceeded
        (throttling in-sync replicas would make the ISR thrash)."""
        if quota is None:
            return False
        is_replica_in_sync = replica_id in partition.in_sync_replica_ids
        return (
            not is_replica_in_sync
            and bool(quota.is_throttled(partition.topic_partition))
            and bool(quota.is_quota_exceeded())
        )

    def get_log_config(self, topic_partition: TopicPartition) -> Any | None:
        log = self.local_log(topic_partition)
        return None if log is None else log.config

    def get_magic(self, topic_partition: TopicPartition) -> int | None:
        config = self.get_log_config(topic_partition)
        return None if config is None else int(config.message_format_version.record_version.value)

    # -- UpdateMetadata and LeaderAndIsr -------------------------------------------------------------------------

    def maybe_update_metadata_cache(self, correlation_id: int, request: UpdateMetadataRequest) -> list[TopicPartition]:
        """UpdateMetadata: refreshes the metadata cache unless the request comes from an old controller
        (ControllerMovedException); returns the partitions the update deleted."""
        with self.replica_state_change_lock:
            if request.controller_epoch() < self.controller_epoch:
                message = (
                    f"Received update metadata request with correlation id {correlation_id} from an old controller "
                    f"{request.controller_id()} with epoch {request.controller_epoch()}. Latest known controller "
                    f"epoch is {self.controller_epoch}"
                )
                self._state_change_logger.warn(message)
                raise ControllerMovedException(self._state_change_logger.message_with_prefix(message))
            deleted_partitions = self.metadata_cache.update_metadata(correlation_id, request)
            self.controller_epoch = request.controller_epoch()
            return deleted_partitions

    def become_leader_or_follower(
        self,
        correlation_id: int,
        leader_and_isr_request: LeaderAndIsrRequest,
        on_leadership_change: Callable[[Iterable[Partition], Iterable[Partition]], None],
    ) -> LeaderAndIsrResponse:
        """LeaderAndIsr: makes this broker leader or follower of each partition whose state is newer than what it
        has, and answers with an error per partition (STALE_CONTROLLER_EPOCH for a stale leader epoch,
        INCONSISTENT_TOPIC_ID, UNKNOWN_TOPIC_OR_PARTITION if this broker is not among the replicas,
        KAFKA_STORAGE_ERROR for offline directories), or a top-level STALE_CONTROLLER_EPOCH for a request from an
        old controller. `on_leadership_change(new_leaders, new_followers)` is called with the partitions that
        changed role (the group and transaction coordinators load or unload their partitions)."""
        start_ms = self._time.milliseconds()
        with self.replica_state_change_lock:
            controller_id = leader_and_isr_request.controller_id()
            request_controller_epoch = leader_and_isr_request.controller_epoch()
            request_partition_states = list(leader_and_isr_request.partition_states())
            self._state_change_logger.info(
                f"Handling LeaderAndIsr request correlationId {correlation_id} from controller {controller_id} for "
                f"{len(request_partition_states)} partitions"
            )
            if self._state_change_logger.is_trace_enabled():
                for ps in request_partition_states:
                    self._state_change_logger.trace(
                        f"Received LeaderAndIsr request {ps} correlation id {correlation_id} from controller "
                        f"{controller_id} epoch {request_controller_epoch}"
                    )
            topic_ids = leader_and_isr_request.topic_ids()

            if request_controller_epoch < self.controller_epoch:
                self._state_change_logger.warn(
                    f"Ignoring LeaderAndIsr request from controller {controller_id} with correlation id "
                    f"{correlation_id} since its controller epoch {request_controller_epoch} is old. Latest known "
                    f"controller epoch is {self.controller_epoch}"
                )
                stale = Errors.STALE_CONTROLLER_EPOCH.exception()
                assert stale is not None
                response = leader_and_isr_request.get_error_response(0, stale)
            else:
                response_map: dict[TopicPartition, Errors] = {}
                self.controller_epoch = request_controller_epoch
                partition_states: dict[Partition, Any] = {}

                # Create the partitions not hosted yet, then check topic ids and leader epochs.
                for partition_state in request_partition_states:
                    tp = TopicPartition(partition_state.topic_name, partition_state.partition_index)
                    hosted = self.get_partition(tp)
                    partition_opt: Partition | None
                    if isinstance(hosted, Offline):
                        self._state_change_logger.warn(
                            f"Ignoring LeaderAndIsr request from controller {controller_id} with correlation id "
                            f"{correlation_id} epoch {self.controller_epoch} for partition {tp} as the local replica "
                            "for the partition is in an offline log directory"
                        )
                        response_map[tp] = Errors.KAFKA_STORAGE_ERROR
                        partition_opt = None
                    elif isinstance(hosted, Online):
                        partition_opt = hosted.partition
                    else:
                        partition = Partition.apply(tp, self._time, self)
                        existing = self.all_partitions.put_if_not_exists(tp, Online(partition))
                        partition_opt = existing.partition if isinstance(existing, Online) else partition

                    if partition_opt is None:
                        continue
                    partition = partition_opt
                    current_leader_epoch = partition.get_leader_epoch()
                    request_leader_epoch = partition_state.leader_epoch
                    request_topic_id = topic_ids.get(tp.topic)
                    if not partition.check_or_set_topic_id(request_topic_id):
                        response_map[tp] = Errors.INCONSISTENT_TOPIC_ID
                    elif request_leader_epoch > current_leader_epoch:
                        # Keep the epoch of the controller that decided, for ISR writes to ZooKeeper.
                        if self.local_broker_id in partition_state.replicas:
                            partition_states[partition] = partition_state
                        else:
                            self._state_change_logger.warn(
                                f"Ignoring LeaderAndIsr request from controller {controller_id} with correlation id "
                                f"{correlation_id} epoch {self.controller_epoch} for partition {tp} as itself is not "
                                f"in assigned replica list {','.join(str(r) for r in partition_state.replicas)}"
                            )
                            response_map[tp] = Errors.UNKNOWN_TOPIC_OR_PARTITION
                    elif request_leader_epoch < current_leader_epoch:
                        self._state_change_logger.warn(
                            f"Ignoring LeaderAndIsr request from controller {controller_id} with correlation id "
                            f"{correlation_id} epoch {self.controller_epoch} for partition {tp} since its associated "
                            f"leader epoch {request_leader_epoch} is smaller than the current leader epoch "
                            f"{current_leader_epoch}"
                        )
                        response_map[tp] = Errors.STALE_CONTROLLER_EPOCH
                    else:
                        self._state_change_logger.info(
                            f"Ignoring LeaderAndIsr request from controller {controller_id} with correlation id "
                            f"{correlation_id} epoch {self.controller_epoch} for partition {tp} since its associated "
                            "leader epoch "
                            f"{request_leader_epoch} matches the current leader epoch"
                        )
                        response_map[tp] = Errors.STALE_CONTROLLER_EPOCH

                partitions_to_be_leader = {
                    p: s for p, s in partition_states.items() if s.leader == self.local_broker_id
                }
                partitions_to_be_follower = {
                    p: s for p, s in partition_states.items() if p not in partitions_to_be_leader
                }
                high_watermark_checkpoints = LazyOffsetCheckpoints(self.high_watermark_checkpoints)
                partitions_become_leader = (
                    self._make_leaders(
                        controller_id,
                        self.controller_epoch,
                        partitions_to_be_leader,
                        correlation_id,
                        response_map,
                        high_watermark_checkpoints,
                        topic_ids,
                    )
                    if partitions_to_be_leader
                    else set()
                )
                partitions_become_follower = (
                    self._make_followers(
                        controller_id,
                        self.controller_epoch,
                        partitions_to_be_follower,
                        correlation_id,
                        response_map,
                        high_watermark_checkpoints,
                        topic_ids,
                    )
                    if partitions_to_be_follower
                    else set()
                )
                self._update_leader_and_follower_metrics({p.topic for p in partitions_become_follower})

                for partition_state in request_partition_states:
                    tp = TopicPartition(partition_state.topic_name, partition_state.partition_index)
                    # A partition whose log could not be created (offline directory) is offline.
                    if self.local_log(tp) is None:
                        self.mark_partition_offline(tp)

                # Checkpointing starts after the first LeaderAndIsr, once the partitions are all known.
                self.start_high_watermark_check_point_thread()
                self.maybe_add_log_dir_fetchers(partition_states.keys(), high_watermark_checkpoints)
                self.replica_fetcher_manager.shutdown_idle_fetcher_threads()
                self.replica_alter_log_dirs_manager.shutdown_idle_fetcher_threads()
                on_leadership_change(partitions_become_leader, partitions_become_follower)
                response = self._leader_and_isr_response(leader_and_isr_request, response_map, topic_ids)

            elapsed_ms = self._time.milliseconds() - start_ms
            self._state_change_logger.info(
                f"Finished LeaderAndIsr request in {elapsed_ms}ms correlationId {correlation_id} from controller "
                f"{controller_id} for {len(request_partition_states)} partitions"
            )
            return response

    def maybe_add_log_dir_fetchers(
        self, partitions: Iterable[Partition], offset_checkpoints: OffsetCheckpoints
    ) -> None:
        """Resumes the moves of partitions that have a future log on disk (a move the broker was making when it
        stopped, or one whose copying stopped on a leader epoch change)."""
        future_replicas_and_initial_offset: dict[TopicPartition, InitialFetchState] = {}
        for partition in partitions:
            topic_partition = partition.topic_partition
            if self.log_manager.get_log(topic_partition, is_future=True) is not None:
                log = partition.log
                if log is not None:
                    leader = BrokerEndPoint(self.config.broker_id, "localhost", -1)
                    partition.create_log_if_not_exists(False, True, offset_checkpoints)
                    future_log = partition.future_local_log_or_exception()
                    # Not cleaned while it moves.
                    self.log_manager.abort_and_pause_cleaning(topic_partition)
                    # PORT: the copy resumes at the future log's high watermark, as Kafka 3.x does (KAFKA-9087); 2.8
                    # took the current log's, which fails the move with an offset mismatch when the future log is
                    # behind it.
                    future_replicas_and_initial_offset[topic_partition] = InitialFetchState(
                        leader, partition.get_leader_epoch(), int(future_log.high_watermark)
                    )
        if future_replicas_and_initial_offset:
            self.replica_alter_log_dirs_manager.add_fetcher_for_partitions(future_replicas_and_initial_offset)

    @staticmethod
    def _leader_and_isr_response(
        request: LeaderAndIsrRequest, response_map: Mapping[TopicPartition, Errors], topic_ids: Mapping[str, Any]
    ) -> LeaderAndIsrResponse:
        data = LeaderAndIsrResponseData(error_code=Errors.NONE.code)
        if request.version < 5:
            data.partition_errors = [
                LeaderAndIsrResponseData.LeaderAndIsrPartitionError(
                    topic_name=tp.topic, partition_index=tp.partition, error_code=error.code
                )
                for tp, error in response_map.items()
            ]
        else:
            by_topic: dict[str, list[Any]] = {}
            for tp, error in response_map.items():
                by_topic.setdefault(tp.topic, []).append(
                    LeaderAndIsrResponseData.LeaderAndIsrPartitionError(
                        partition_index=tp.partition, error_code=error.code
                    )
                )
            for topic, partition_errors in by_topic.items():
                data.topics.append(
                    LeaderAndIsrResponseData.LeaderAndIsrTopicError(
                        topic_id=topic_ids.get(topic, ZERO_UUID), partition_errors=partition_errors
                    )
                )
        return LeaderAndIsrResponse(data, request.version)

    def _make_leaders(
        self,
        controller_id: int,
        controller_epoch: int,
        partition_states: Mapping[Partition, Any],
        correlation_id: int,
        response_map: dict[TopicPartition, Errors],
        high_watermark_checkpoints: OffsetCheckpoints,
        topic_ids: Mapping[str, Any],
    ) -> set[Partition]:
        """Becomes leader of the partitions: stops their fetchers, then makes each leader. Returns those whose
        leadership is new. A storage error fails its partition only; anything else propagates to KafkaApis."""
        trace_enabled = self._state_change_logger.is_trace_enabled()
        for partition in partition_states:
            if trace_enabled:
                self._state_change_logger.trace(
                    f"Handling LeaderAndIsr request correlationId {correlation_id} from controller {controller_id} "
                    f"epoch {controller_epoch} starting the become-leader transition for partition "
                    f"{partition.topic_partition}"
                )
            response_map[partition.topic_partition] = Errors.NONE

        partitions_to_make_leaders: set[Partition] = set()
        try:
            self.replica_fetcher_manager.remove_fetcher_for_partitions(p.topic_partition for p in partition_states)
            self._state_change_logger.info(
                f"Stopped fetchers as part of LeaderAndIsr request correlationId {correlation_id} from controller "
                f"{controller_id} epoch {controller_epoch} as part of the become-leader transition for "
                f"{len(partition_states)} partitions"
            )
            for partition, partition_state in partition_states.items():
                try:
                    topic_id = topic_ids.get(partition.topic)
                    if partition.make_leader(partition_state, high_watermark_checkpoints, topic_id):
                        partitions_to_make_leaders.add(partition)
                    else:
                        self._state_change_logger.info(
                            f"Skipped the become-leader state change after marking its partition as leader with "
                            f"correlation id {correlation_id} from controller {controller_id} epoch "
                            f"{controller_epoch} for partition {partition.topic_partition} (last update controller "
                            f"epoch {partition_state.controller_epoch}) since it is already the leader for the "
                            "partition."
                        )
                except KafkaStorageException as e:
                    self._state_change_logger.error(
                        f"Skipped the become-leader state change with correlation id {correlation_id} from "
                        f"controller {controller_id} epoch {controller_epoch} for partition "
                        f"{partition.topic_partition} (last update controller epoch "
                        f"{partition_state.controller_epoch}) since the replica for the partition is offline due to "
                        f"disk error {e}"
                    )
                    dir_opt = self.get_log_dir(partition.topic_partition)
                    self.error(f"Error while making broker the leader for partition {partition} in dir {dir_opt}", e)
                    response_map[partition.topic_partition] = Errors.KAFKA_STORAGE_ERROR
        except Exception as e:
            for partition in partition_states:
                self._state_change_logger.error(
                    f"Error while processing LeaderAndIsr request correlationId {correlation_id} received from "
                    f"controller {controller_id} epoch {controller_epoch} for partition {partition.topic_partition}",
                    e,
                )
            raise
        if trace_enabled:
            for partition in partition_states:
                self._state_change_logger.trace(
                    f"Completed LeaderAndIsr request correlationId {correlation_id} from controller {controller_id} "
                    f"epoch {controller_epoch} for the become-leader transition for partition "
                    f"{partition.topic_partition}"
                )
        return partitions_to_make_leaders

    def _update_leader_and_follower_metrics(self, new_follower_topics: set[str]) -> None:
        """Drops the leader-only topic meters of topics this broker now only follows, and the follower-only ones of
        topics it leads and no longer follows."""
        stats = self.broker_topic_stats
        if stats is None:
            return
        leader_topics = {p.topic for p in self._leader_partitions_iterator()}
        for topic in new_follower_topics - leader_topics:
            stats.remove_old_leader_metrics(topic)
        for topic in leader_topics - new_follower_topics:
            stats.remove_old_follower_metrics(topic)

    def _make_followers(
        self,
        controller_id: int,
        controller_epoch: int,
        partition_states: Mapping[Partition, Any],
        correlation_id: int,
        response_map: dict[TopicPartition, Errors],
        high_watermark_checkpoints: OffsetCheckpoints,
        topic_ids: Mapping[str, Any],
    ) -> set[Partition]:
        """Becomes follower of the partitions whose leader is alive (creating the log of the others, so their
        high watermark stays checkpointed), stops their fetchers, completes their delayed operations, and unless
        shutting down starts fetching from the new leaders. Returns those whose leader changed."""
        trace_enabled = self._state_change_logger.is_trace_enabled()
        for partition, partition_state in partition_states.items():
            if trace_enabled:
                self._state_change_logger.trace(
                    f"Handling LeaderAndIsr request correlationId {correlation_id} from controller {controller_id} "
                    f"epoch {controller_epoch} starting the become-follower transition for partition "
                    f"{partition.topic_partition} with leader {partition_state.leader}"
                )
            response_map[partition.topic_partition] = Errors.NONE

        partitions_to_make_follower: set[Partition] = set()
        try:
            for partition, partition_state in partition_states.items():
                new_leader_broker_id = partition_state.leader
                topic_id = topic_ids.get(partition.topic)
                try:
                    if self.metadata_cache.get_alive_broker(new_leader_broker_id) is not None:
                        if partition.make_follower(partition_state, high_watermark_checkpoints, topic_id):
                            partitions_to_make_follower.add(partition)
                        else:
                            self._state_change_logger.info(
                                f"Skipped the become-follower state change after marking its partition as follower "
                                f"with correlation id {correlation_id} from controller {controller_id} epoch "
                                f"{controller_epoch} for partition {partition.topic_partition} (last update "
                                f"controller epoch {partition_state.controller_epoch}) since the new leader "
                                f"{new_leader_broker_id} is the same as the old leader"
                            )
                    else:
                        # The controller should only name live leaders; skip the transition but keep the log.
                        self._state_change_logger.error(
                            f"Received LeaderAndIsrRequest with correlation id {correlation_id} from controller "
                            f"{controller_id} epoch {controller_epoch} for partition {partition.topic_partition} "
                            f"(last update controller epoch {partition_state.controller_epoch}) but cannot become "
                            f"follower since the new leader {new_leader_broker_id} is unavailable."
                        )
                        partition.create_log_if_not_exists(
                            partition_state.is_new, False, high_watermark_checkpoints, topic_id
                        )
                except KafkaStorageException as e:
                    self._state_change_logger.error(
                        f"Skipped the become-follower state change with correlation id {correlation_id} from "
                        f"controller {controller_id} epoch {controller_epoch} for partition "
                        f"{partition.topic_partition} (last update controller epoch "
                        f"{partition_state.controller_epoch}) with leader {new_leader_broker_id} since the replica "
                        f"for the partition is offline due to disk error {e}"
                    )
                    dir_opt = self.get_log_dir(partition.topic_partition)
                    self.error(
                        f"Error while making broker the follower for partition {partition} with leader "
                        f"{new_leader_broker_id} in dir {dir_opt}",
                        e,
                    )
                    response_map[partition.topic_partition] = Errors.KAFKA_STORAGE_ERROR

            self.replica_fetcher_manager.remove_fetcher_for_partitions(
                p.topic_partition for p in partitions_to_make_follower
            )
            self._state_change_logger.info(
                f"Stopped fetchers as part of become-follower request from controller {controller_id} epoch "
                f"{controller_epoch} with correlation id {correlation_id} for {len(partitions_to_make_follower)} "
                "partitions"
            )
            for partition in partitions_to_make_follower:
                self._complete_delayed_fetch_or_produce_requests(partition.topic_partition)

            if self.is_shutting_down.get():
                if trace_enabled:
                    for partition in partitions_to_make_follower:
                        self._state_change_logger.trace(
                            f"Skipped the adding-fetcher step of the become-follower state change with correlation "
                            f"id {correlation_id} from controller {controller_id} epoch {controller_epoch} for "
                            f"partition {partition.topic_partition} with leader "
                            f"{partition_states[partition].leader} since it is shutting down"
                        )
            else:
                fetch_states: dict[TopicPartition, InitialFetchState] = {}
                for partition in partitions_to_make_follower:
                    leader_id = partition.leader_replica_id_opt
                    leader_broker = None if leader_id is None else self.metadata_cache.get_alive_broker(leader_id)
                    assert leader_broker is not None  # checked above, under the same lock
                    leader = leader_broker.broker_endpoint(self.config.inter_broker_listener_name)
                    log = partition.local_log_or_exception()
                    fetch_states[partition.topic_partition] = InitialFetchState(
                        leader, partition.get_leader_epoch(), self._initial_fetch_offset(log)
                    )
                self.replica_fetcher_manager.add_fetcher_for_partitions(fetch_states)
        except Exception as e:
            self._state_change_logger.error(
                f"Error while processing LeaderAndIsr request with correlationId {correlation_id} received from "
                f"controller {controller_id} epoch {controller_epoch}",
                e,
            )
            raise
        if trace_enabled:
            for partition in partition_states:
                self._state_change_logger.trace(
                    f"Completed LeaderAndIsr request correlationId {correlation_id} from controller {controller_id} "
                    f"epoch {controller_epoch} for the become-follower transition for partition "
                    f"{partition.topic_partition} with leader {partition_states[partition].leader}"
                )
        return partitions_to_make_follower

    def _initial_fetch_offset(self, log: Log) -> int:
        """From IBP 2.7 followers send their last fetched epoch and truncate on a diverging epoch, so they can
        start at their log end; before that, at the high watermark."""
        ibp = self.config.inter_broker_protocol_version
        if ApiVersion.is_truncation_on_fetch_supported(ibp) and log.latest_epoch() is not None:
            return int(log.log_end_offset)
        return int(log.high_watermark)

    def _maybe_shrink_isr(self) -> None:
        self.trace("Evaluating ISR list of partitions to see which replicas can be removed from the ISR")
        for tp in self.all_partitions.keys:
            partition = self.online_partition(tp)
            if partition is not None:
                partition.maybe_shrink_isr()

    def _update_follower_fetch_state(
        self, follower_id: int, read_results: list[tuple[TopicPartition, LogReadResult]]
    ) -> list[tuple[TopicPartition, LogReadResult]]:
        """Records each successful follower read as that follower's position; a read for a replica that is not
        assigned answers with no records, so that the offsets stay consistent with what it was sent."""
        updated: list[tuple[TopicPartition, LogReadResult]] = []
        for tp, read_result in read_results:
            if read_result.error != Errors.NONE:
                self.debug(
                    f"Skipping update of fetch state for follower {follower_id} since the log read returned error "
                    f"{read_result.error.name}"
                )
            elif read_result.diverging_epoch is not None:
                self.debug(
                    f"Skipping update of fetch state for follower {follower_id} since the log read returned "
                    f"diverging epoch {read_result.diverging_epoch}"
                )
            else:
                partition = self.online_partition(tp)
                if partition is None:
                    self.warn(f"While recording the replica LEO, the partition {tp} hasn't been created.")
                elif not partition.update_follower_fetch_state(
                    follower_id,
                    read_result.info.fetch_offset_metadata,
                    read_result.follower_log_start_offset,
                    read_result.fetch_time_ms,
                    read_result.leader_log_end_offset,
                ):
                    self.warn(
                        f"Leader {self.local_broker_id} failed to record follower {follower_id}'s position "
                        f"{read_result.info.fetch_offset_metadata.message_offset}, and last sent HW since the replica "
                        "is not recognized to be one of the assigned replicas "
                        f"{','.join(str(r) for r in partition.assignment_state.replicas)} for partition {tp}. Empty "
                        "records will be returned for this partition."
                    )
                    read_result = read_result.with_empty_fetch_info()
            updated.append((tp, read_result))
        return updated

    def _leader_partitions_iterator(self) -> Iterator[Partition]:
        return (p for p in self._online_partitions_iterator() if p.leader_log_if_local is not None)

    def get_log_end_offset(self, topic_partition: TopicPartition) -> int | None:
        partition = self.online_partition(topic_partition)
        log = None if partition is None else partition.leader_log_if_local
        return None if log is None else int(log.log_end_offset)

    def checkpoint_high_watermarks(self) -> None:
        """Writes every hosted log's high watermark to `replication-offset-checkpoint` in its log directory (the
        `highwatermark-checkpoint` task, and shutdown)."""
        log_dir_to_hws: dict[str, dict[TopicPartition, int]] = {}
        for partition in self._online_partitions_iterator():
            for log in (partition.log, partition.future_log):
                if log is not None:
                    log_dir_to_hws.setdefault(str(log.parent_dir), {})[log.topic_partition] = log.high_watermark
        for log_dir, hws in log_dir_to_hws.items():
            checkpoint = self.high_watermark_checkpoints.get(log_dir)
            if checkpoint is None:
                continue
            try:
                checkpoint.write(hws)
            except KafkaStorageException as e:
                self.error(f"Error while writing to highwatermark file in directory {log_dir}", e)

    def mark_partition_offline(self, tp: TopicPartition) -> None:
        with self.replica_state_change_lock:
            self.all_partitions.put(tp, _OFFLINE)
            Partition.remove_metrics(tp)

    def handle_log_dir_failure(self, dir: str, send_zk_notification: bool = True) -> None:
        """Takes the partitions of a failed log directory offline (run by the LogDirFailureHandler thread), tells
        the LogManager, and notifies the controller through ZooKeeper."""
        if not self.log_manager.is_log_dir_online(dir):
            return
        self.warn(f"Stopping serving replicas in dir {dir}")
        with self.replica_state_change_lock:
            new_offline_partitions = {
                p.topic_partition
                for p in self._online_partitions_iterator()
                if p.log is not None and str(p.log.parent_dir) == dir
            }
            partitions_with_offline_future_replica = [
                p
                for p in self._online_partitions_iterator()
                if p.future_log is not None and str(p.future_log.parent_dir) == dir
            ]
            self.replica_fetcher_manager.remove_fetcher_for_partitions(new_offline_partitions)
            self.replica_alter_log_dirs_manager.remove_fetcher_for_partitions(
                new_offline_partitions | {p.topic_partition for p in partitions_with_offline_future_replica}
            )
            # The future log's files are in the failed directory: they are left there.
            for partition in partitions_with_offline_future_replica:
                partition.remove_future_local_replica(delete_from_log_dir=False)
            for tp in new_offline_partitions:
                self.mark_partition_offline(tp)
            for topic in {tp.topic for tp in new_offline_partitions}:
                self._maybe_remove_topic_metrics(topic)
            self.high_watermark_checkpoints = {d: c for d, c in self.high_watermark_checkpoints.items() if d != dir}
            self.warn(
                f"Broker {self.local_broker_id} stopped fetcher for partitions "
                f"{','.join(str(tp) for tp in sorted(new_offline_partitions, key=str))} and stopped moving logs for "
                f"partitions {','.join(str(p) for p in partitions_with_offline_future_replica)} because they are in "
                f"the failed log directory {dir}."
            )
        self.log_manager.handle_log_dir_failure(dir)
        if send_zk_notification:
            if self.zk_client is None:
                self.warn("Unable to propagate log dir failure via Zookeeper in KRaft mode")
            else:
                self.zk_client.propagate_log_dir_event(self.local_broker_id)
        self.warn(f"Stopped serving replicas in dir {dir}")

    def remove_metrics(self) -> None:
        """Unregisters the gauges (Kafka 2.8 leaves ReassigningPartitions and the meters registered)."""
        for name in (
            "LeaderCount",
            "PartitionCount",
            "OfflineReplicaCount",
            "UnderReplicatedPartitions",
            "UnderMinIsrPartitionCount",
            "AtMinIsrPartitionCount",
        ):
            self.remove_metric(name)

    def shutdown(self, checkpoint_hw: bool = True) -> None:
        """Stops the failure handler, fetchers and purgatories (their reaper threads), then checkpoints the high
        watermarks (tests may skip that)."""
        self.info("Shutting down")
        self.remove_metrics()
        handler = self._log_dir_failure_handler
        if handler is not None:
            handler.shutdown()
        self.replica_fetcher_manager.shutdown()
        self.replica_alter_log_dirs_manager.shutdown()
        self.delayed_fetch_purgatory.shutdown()
        self.delayed_produce_purgatory.shutdown()
        self.delayed_delete_records_purgatory.shutdown()
        self.delayed_elect_leader_purgatory.shutdown()
        if checkpoint_hw:
            self.checkpoint_high_watermarks()
        if self.replica_selector_opt is not None:
            self.replica_selector_opt.close()
        self.info("Shut down completely")

    def _create_replica_fetcher_manager(
        self, metrics: Any, time: Time, thread_name_prefix: str | None, quota_manager: ReplicaQuota | None
    ) -> ReplicaFetcherManager:
        return ReplicaFetcherManager(self.config, self, metrics, time, thread_name_prefix, quota_manager)

    def _create_replica_alter_log_dirs_manager(
        self, quota_manager: ReplicaQuota, broker_topic_stats: Any
    ) -> ReplicaAlterLogDirsManager:
        return ReplicaAlterLogDirsManager(self.config, self, quota_manager, broker_topic_stats, self._time)

    def _create_replica_selector(self) -> ReplicaSelector | None:
        """The `replica.selector.class` plug-in, configured with the broker's original configs (None if unset)."""
        class_name = self.config.replica_selector_class_name
        if not class_name:
            return None
        selector_class = load_class(class_name)
        if not issubclass(selector_class, ReplicaSelector):
            raise KafkaException(f"{class_name} is not an instance of {ReplicaSelector.__module__}.ReplicaSelector")
        tmp_replica_selector = selector_class()
        tmp_replica_selector.configure(self.config.originals())
        return tmp_replica_selector

    # -- OffsetsForLeaderEpoch and DescribeProducers ---------------------------------------------------------------

    def last_offset_for_leader_epoch(self, requested_epoch_info: Iterable[Any]) -> list[Any]:
        """OffsetsForLeaderEpoch: for each OffsetForLeaderTopic, an OffsetForLeaderTopicResult with the end offset
        of each partition's requested epoch (leader only)."""
        results = []
        for topic in requested_epoch_info:
            partitions = []
            for p in topic.partitions:
                tp = TopicPartition(topic.topic, p.partition)
                hosted = self.get_partition(tp)
                if isinstance(hosted, Online):
                    current_leader_epoch_opt = (
                        None if p.current_leader_epoch == NO_PARTITION_LEADER_EPOCH else p.current_leader_epoch
                    )
                    partitions.append(
                        hosted.partition.last_offset_for_leader_epoch(current_leader_epoch_opt, p.leader_epoch, True)
                    )
                else:
                    if isinstance(hosted, Offline):
                        error = Errors.KAFKA_STORAGE_ERROR
                    elif self.metadata_cache.contains(tp):
                        error = Errors.NOT_LEADER_OR_FOLLOWER
                    else:
                        error = Errors.UNKNOWN_TOPIC_OR_PARTITION
                    partitions.append(
                        OffsetForLeaderEpochResponseData.EpochEndOffset(partition=p.partition, error_code=error.code)
                    )
            results.append(
                OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult(topic=topic.topic, partitions=partitions)
            )
        return results

    def active_producer_state(self, request_partition: TopicPartition) -> Any:
        """DescribeProducers for one partition: its active producers, or the error."""
        result = self.get_partition_or_error(request_partition)
        response = DescribeProducersResponseData.PartitionResponse(partition_index=request_partition.partition)
        if isinstance(result, Errors):
            response.error_code = result.code
            return response
        log = result.log
        if log is None:
            response.error_code = Errors.NOT_LEADER_OR_FOLLOWER.code
        else:
            response.error_code = Errors.NONE.code
            response.active_producers = list(log.active_producers())
        return response


class _LogDirFailureHandler(ShutdownableThread):
    """Takes the log directories reported offline, one at a time, and takes their partitions offline."""

    logger_name = "kafka.server.ReplicaManager$LogDirFailureHandler"

    def __init__(self, replica_manager: ReplicaManager, name: str, halt_broker_on_dir_failure: bool) -> None:
        super().__init__(name)
        self._replica_manager = replica_manager
        self._halt_broker_on_dir_failure = halt_broker_on_dir_failure

    def do_work(self) -> None:
        # PORT: Kafka blocks on the channel; a bounded wait lets this thread notice a shutdown.
        try:
            new_offline_log_dir = self._replica_manager._log_dir_failure_channel.take_next_offline_log_dir(0.3)
        except queue.Empty:
            return
        if self._halt_broker_on_dir_failure:
            self.fatal(f"Halting broker because dir {new_offline_log_dir} is offline")
            os._exit(1)  # Kafka's Exit.halt(1)
        self._replica_manager.handle_log_dir_failure(new_offline_log_dir)


def _abs(path: Any) -> str:
    # As LogManager names its directories (Path.absolute()), so that they match Log.parent_dir.
    return str(Path(path).absolute())


def _b(flag: bool) -> str:
    return "true" if flag else "false"


__all__ = [
    "HIGH_WATERMARK_FILENAME",
    "ActionQueue",
    "FetchPartitionData",
    "HostedPartition",
    "LogAppendResult",
    "LogDeleteRecordsResult",
    "LogReadResult",
    "None_",
    "Offline",
    "Online",
    "ReplicaManager",
]
