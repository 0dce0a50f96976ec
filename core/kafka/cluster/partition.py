"""Port of core/src/main/scala/kafka/cluster/Partition.scala (Kafka 2.8).

One partition as this broker hosts it: its local log, whether this broker leads it, the leader epoch, the
assigned replicas and the in-sync replica set (ISR). As leader it appends produced records, tracks its followers'
fetch positions (kafka.cluster.replica.Replica), moves the high watermark to the smallest log end offset of the
in-sync replicas, and shrinks or expands the ISR; as follower it only holds the log its fetcher writes.

Locks (the order in which they nest, outermost first):
  1. `leader_isr_update_lock` (a read/write lock, as Kafka's): the write half guards leader changes, ISR changes
     and log replacement; the read half guards appends, reads and high watermark moves, which may run together.
  2. the Log's own lock, taken inside Log calls.
Completing delayed operations (`_try_complete_delayed_requests`) takes purgatory and operation locks, so it is
only ever called with no Partition lock held. `_future_log_lock` (Kafka's futureLogLock) is taken before (1).

ISR changes go through an injected AlterIsrManager (kafka.server.alter_isr_manager): AlterIsr to the controller,
or a ZooKeeper write for an older inter-broker protocol.

A replica being moved to another log directory of this broker (AlterReplicaLogDirs) has a second log,
`future_log`, which the ReplicaAlterLogDirsThread fills from the current one; once it has caught up it replaces the
current log (`maybe_replace_current_with_future_replica`).

Metrics (kafka.cluster:type=Partition,topic=...,partition=...): the UnderReplicated, InSyncReplicasCount,
UnderMinIsr, AtMinIsr, ReplicasCount and LastStableOffsetLag gauges, registered when the partition is created and
removed when it is deleted (`Partition.remove_metrics`).
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.replica import UNKNOWN_OFFSET, Replica
from kafka.common.errors import (
    NotEnoughReplicasException,
    NotLeaderOrFollowerException,
    OffsetOutOfRangeException,
    PolicyViolationException,
)
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import FetchResponseData, OffsetForLeaderEpochResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.record.file_records import TimestampAndOffset
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.requests.delete_records_request import HIGH_WATERMARK as DELETE_RECORDS_HIGH_WATERMARK
from kafka.common.requests.list_offsets_request import EARLIEST_LOCAL_TIMESTAMP, EARLIEST_TIMESTAMP, LATEST_TIMESTAMP
from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.log.log import UnexpectedAppendOffsetException
from kafka.log.log_append_info import ClientRecordDeletion, Increased, LogAppendInfo, LogReadInfo, Same
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.alter_isr_manager import AlterIsrItem, AlterIsrManager
from kafka.server.delayed_operation_key import TopicPartitionOperationKey
from kafka.server.fetch_data_info import FetchDataInfo, FetchHighWatermark, FetchIsolation, FetchLogEnd
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool
from kafka.utils.read_write_lock import ReentrantReadWriteLock

if TYPE_CHECKING:
    from kafka.log.log import Log
    from kafka.log.log_append_info import LogOffsetSnapshot
    from kafka.log.log_manager import LogManager
    from kafka.log.log_validator import AppendOrigin
    from kafka.server.checkpoints.offset_checkpoint_file import OffsetCheckpoints
    from kafka.server.delayed_operation import DelayedOperationPurgatory
    from kafka.server.metadata_cache import MetadataCache
    from kafka.server.replica_manager import LogDeleteRecordsResult, ReplicaManager

# KafkaController.InitialControllerEpoch
INITIAL_CONTROLLER_EPOCH = 0
_NONE_CODE = Errors.NONE.code


class IsrChangeListener(ABC):
    """Told of every ISR expansion, shrink and failed ISR update (ReplicaManager counts them)."""

    @abstractmethod
    def mark_expand(self) -> None: ...

    @abstractmethod
    def mark_shrink(self) -> None: ...

    @abstractmethod
    def mark_failed(self) -> None: ...


class DelayedOperations:
    """The purgatories whose operations on this partition a high or low watermark move may complete."""

    def __init__(
        self,
        topic_partition: TopicPartition,
        produce: DelayedOperationPurgatory[Any],
        fetch: DelayedOperationPurgatory[Any],
        delete_records: DelayedOperationPurgatory[Any],
    ) -> None:
        self._key = TopicPartitionOperationKey.of(topic_partition)
        self._produce = produce
        self._fetch = fetch
        self._delete_records = delete_records

    def check_and_complete_all(self) -> None:
        self._fetch.check_and_complete(self._key)
        self._produce.check_and_complete(self._key)
        self._delete_records.check_and_complete(self._key)

    @property
    def num_delayed_delete(self) -> int:
        return self._delete_records.num_delayed


# -- assignment and ISR states ------------------------------------------------------------------------------------


class AssignmentState(ABC):
    """The replicas assigned to the partition, and a reassignment in progress if any."""

    replicas: Sequence[int]

    @property
    def replication_factor(self) -> int:
        return len(self.replicas)

    def is_adding_replica(self, broker_id: int) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class OngoingReassignmentState(AssignmentState):
    adding_replicas: Sequence[int]
    removing_replicas: Sequence[int]
    replicas: Sequence[int]

    @property
    def replication_factor(self) -> int:
        # The size of the assignment before the reassignment started.
        return len([r for r in self.replicas if r not in self.adding_replicas])

    def is_adding_replica(self, broker_id: int) -> bool:
        return broker_id in self.adding_replicas


@dataclass(frozen=True, slots=True)
class SimpleAssignmentState(AssignmentState):
    replicas: Sequence[int]


class IsrState(ABC):
    """The ISR as last committed, plus an AlterIsr change that may be in flight.

    `isr` is the committed ISR. `maximal_isr` adds a replica whose addition is in flight: it is what the high
    watermark and acks=-1 produces wait for, which is safe because waiting for more replicas is stricter."""

    isr: frozenset[int]

    @property
    @abstractmethod
    def maximal_isr(self) -> frozenset[int]: ...

    @property
    @abstractmethod
    def is_inflight(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class PendingExpandIsr(IsrState):
    isr: frozenset[int]
    new_in_sync_replica_id: int

    @property
    def maximal_isr(self) -> frozenset[int]:
        return self.isr | {self.new_in_sync_replica_id}

    @property
    def is_inflight(self) -> bool:
        return True

    def __str__(self) -> str:
        return f"PendingExpandIsr(isr={_set_str(self.isr)}, newInSyncReplicaId={self.new_in_sync_replica_id})"


@dataclass(frozen=True, slots=True)
class PendingShrinkIsr(IsrState):
    isr: frozenset[int]
    out_of_sync_replica_ids: frozenset[int]

    @property
    def maximal_isr(self) -> frozenset[int]:
        return self.isr

    @property
    def is_inflight(self) -> bool:
        return True

    def __str__(self) -> str:
        return (
            f"PendingShrinkIsr(isr={_set_str(self.isr)}, outOfSyncReplicaIds={_set_str(self.out_of_sync_replica_ids)})"
        )


@dataclass(frozen=True, slots=True)
class CommittedIsr(IsrState):
    isr: frozenset[int]

    @property
    def maximal_isr(self) -> frozenset[int]:
        return self.isr

    @property
    def is_inflight(self) -> bool:
        return False

    def __str__(self) -> str:
        return f"CommittedIsr(isr={_set_str(self.isr)})"


def _set_str(s: Iterable[int]) -> str:
    return "Set(" + ", ".join(str(i) for i in sorted(s)) + ")"


class _PartitionObjectMetrics(KafkaMetricsGroup):
    """Kafka's `object Partition` (a KafkaMetricsGroup too): removes a partition's gauges by name."""

    metrics_group = "kafka.cluster"
    metrics_type_name = "Partition"


_PARTITION_METRICS = _PartitionObjectMetrics()


class Partition(Logging, KafkaMetricsGroup):
    """A partition hosted by this broker. Thread-safe: request handlers call it concurrently (see module notes)."""

    logger_name = "kafka.cluster.Partition"

    def __init__(
        self,
        topic_partition: TopicPartition,
        replica_lag_time_max_ms: int,
        inter_broker_protocol_version: Any,
        local_broker_id: int,
        time: Time,
        isr_change_listener: IsrChangeListener,
        delayed_operations: DelayedOperations,
        metadata_cache: MetadataCache,
        log_manager: LogManager,
        alter_isr_manager: AlterIsrManager,
    ) -> None:
        self.topic_partition = topic_partition
        self.replica_lag_time_max_ms = replica_lag_time_max_ms
        self._inter_broker_protocol_version = inter_broker_protocol_version
        self._local_broker_id = local_broker_id
        self._time = time
        self._isr_change_listener = isr_change_listener
        self._delayed_operations = delayed_operations
        self._metadata_cache = metadata_cache
        self._log_manager = log_manager
        self._alter_isr_manager = alter_isr_manager

        self._state_change_logger = StateChangeLogger(
            local_broker_id, in_controller_context=False, controller_epoch=None
        )
        self._remote_replicas_map: Pool[int, Replica] = Pool()
        self._leader_isr_update_lock = ReentrantReadWriteLock()
        self._future_log_lock = threading.RLock()
        self._zk_version: int = LeaderAndIsr.INITIAL_ZK_VERSION
        self._leader_epoch: int = LeaderAndIsr.INITIAL_LEADER_EPOCH - 1
        # The log end offset at which the current leader epoch started; set only while this broker leads.
        self._leader_epoch_start_offset_opt: int | None = None
        self.leader_replica_id_opt: int | None = None
        self.isr_state: IsrState = CommittedIsr(frozenset())
        self.assignment_state: AssignmentState = SimpleAssignmentState(())
        self.log: Log | None = None
        self.future_log: Log | None = None
        # The epoch of the controller that last decided this partition's leadership, kept for ISR writes.
        self._controller_epoch: int = INITIAL_CONTROLLER_EPOCH
        self.log_ident = f"[Partition {topic_partition} broker={local_broker_id}] "
        tags = Partition._metrics_tags(topic_partition)
        self.new_gauge("UnderReplicated", lambda: 1 if self.is_under_replicated else 0, tags)
        self.new_gauge("InSyncReplicasCount", lambda: len(self.isr_state.isr) if self.is_leader else 0, tags)
        self.new_gauge("UnderMinIsr", lambda: 1 if self.is_under_min_isr else 0, tags)
        self.new_gauge("AtMinIsr", lambda: 1 if self.is_at_min_isr else 0, tags)
        self.new_gauge("ReplicasCount", lambda: self.assignment_state.replication_factor if self.is_leader else 0, tags)
        self.new_gauge("LastStableOffsetLag", lambda: 0 if self.log is None else self.log.last_stable_offset_lag, tags)

    @staticmethod
    def _metrics_tags(topic_partition: TopicPartition) -> dict[str, str]:
        return {"topic": topic_partition.topic, "partition": str(topic_partition.partition)}

    @staticmethod
    def remove_metrics(topic_partition: TopicPartition) -> None:
        """Unregisters the partition's gauges (when it is deleted, or its log directory fails)."""
        tags = Partition._metrics_tags(topic_partition)
        for name in (
            "UnderReplicated",
            "UnderMinIsr",
            "InSyncReplicasCount",
            "ReplicasCount",
            "LastStableOffsetLag",
            "AtMinIsr",
        ):
            _PARTITION_METRICS.remove_metric(name, tags)

    @classmethod
    def apply(cls, topic_partition: TopicPartition, time: Time, replica_manager: ReplicaManager) -> Partition:
        """A partition wired to a ReplicaManager's config, purgatories, caches and ISR manager."""

        class _Listener(IsrChangeListener):
            def mark_expand(self) -> None:
                replica_manager.isr_expand_rate.mark()

            def mark_shrink(self) -> None:
                replica_manager.isr_shrink_rate.mark()

            def mark_failed(self) -> None:
                replica_manager.failed_isr_updates_rate.mark()

        delayed_operations = DelayedOperations(
            topic_partition,
            replica_manager.delayed_produce_purgatory,
            replica_manager.delayed_fetch_purgatory,
            replica_manager.delayed_delete_records_purgatory,
        )
        config = replica_manager.config
        return cls(
            topic_partition,
            replica_lag_time_max_ms=config.replica_lag_time_max_ms,
            inter_broker_protocol_version=config.inter_broker_protocol_version,
            local_broker_id=config.broker_id,
            time=time,
            isr_change_listener=_Listener(),
            delayed_operations=delayed_operations,
            metadata_cache=replica_manager.metadata_cache,
            log_manager=replica_manager.log_manager,
            alter_isr_manager=replica_manager.alter_isr_manager,
        )

    @property
    def topic(self) -> str:
        return self.topic_partition.topic

    @property
    def partition_id(self) -> int:
        return self.topic_partition.partition

    @property
    def is_under_replicated(self) -> bool:
        return self.is_leader and (self.assignment_state.replication_factor - len(self.isr_state.isr)) > 0

    @property
    def is_under_min_isr(self) -> bool:
        leader_log = self.leader_log_if_local
        return leader_log is not None and len(self.isr_state.isr) < leader_log.config.min_in_sync_replicas

    @property
    def is_at_min_isr(self) -> bool:
        leader_log = self.leader_log_if_local
        return leader_log is not None and len(self.isr_state.isr) == leader_log.config.min_in_sync_replicas

    @property
    def is_reassigning(self) -> bool:
        return isinstance(self.assignment_state, OngoingReassignmentState)

    @property
    def is_adding_local_replica(self) -> bool:
        return self.assignment_state.is_adding_replica(self._local_broker_id)

    def is_adding_replica(self, replica_id: int) -> bool:
        return self.assignment_state.is_adding_replica(replica_id)

    @property
    def in_sync_replica_ids(self) -> frozenset[int]:
        return self.isr_state.isr

    # -- logs --------------------------------------------------------------------------------------------------

    def maybe_create_future_replica(self, log_dir: str, high_watermark_checkpoints: OffsetCheckpoints) -> bool:
        """Creates the future log in `log_dir` unless the current log is there or a future log exists; True if it
        was created. The current log must exist (NotLeaderOrFollowerException otherwise)."""
        # The write lock keeps the current log's directory and the future log as they are while this decides.
        with self._leader_isr_update_lock.write_lock:
            current_log = self.local_log_or_exception()
            current_log_dir = current_log.parent_dir
            if current_log_dir == log_dir:
                self.info(
                    f"Current log directory {current_log_dir} is same as requested log dir {log_dir}. Skipping "
                    "future replica creation."
                )
                return False
            future_log = self.future_log
            if future_log is not None:
                if future_log.parent_dir != log_dir:
                    raise RuntimeError(
                        f"The future log dir {future_log.parent_dir} of {self.topic_partition} is different from the "
                        f"requested log dir {log_dir}"
                    )
                return False
            self.create_log_if_not_exists(False, True, high_watermark_checkpoints, current_log.topic_id)
            return True

    def create_log_if_not_exists(
        self, is_new: bool, is_future_replica: bool, offset_checkpoints: OffsetCheckpoints, topic_id: Uuid | None = None
    ) -> None:
        """Creates (or opens) the local log, starting its high watermark at the checkpointed one.

        # PORT: `topic_id` (from the LeaderAndIsr request) is given to a log that has none, as Kafka 3.0+ does; in
        # 2.8 a new log only got its id from the next LeaderAndIsr, and Fetch v13+ needs ids from the start."""
        if is_future_replica and self.future_log is None:
            self.future_log = self._create_log(is_new, True, offset_checkpoints, topic_id)
        elif not is_future_replica and self.log is None:
            self.log = self._create_log(is_new, False, offset_checkpoints, topic_id)
        else:
            self.trace(f"{'Future Log' if is_future_replica else 'Log'} already exists.")

    def _create_log(
        self, is_new: bool, is_future_replica: bool, offset_checkpoints: OffsetCheckpoints, topic_id: Uuid | None
    ) -> Log:
        log_manager = self._log_manager
        log_manager.initializing_log(self.topic_partition)
        maybe_log = None
        try:
            log = log_manager.get_or_create_log(self.topic_partition, is_new=is_new, is_future=is_future_replica)
            maybe_log = log
            if topic_id is not None and topic_id != ZERO_UUID and log.topic_id == ZERO_UUID:
                log.assign_topic_id(topic_id)
            checkpoint_high_watermark = offset_checkpoints.fetch(log.parent_dir, self.topic_partition)
            if checkpoint_high_watermark is None:
                self.info(f"No checkpointed highwatermark is found for partition {self.topic_partition}")
                checkpoint_high_watermark = 0
            initial_high_watermark = log.update_high_watermark(checkpoint_high_watermark)
            self.info(
                f"Log loaded for partition {self.topic_partition} with initial high watermark {initial_high_watermark}"
            )
            return log
        finally:
            log_manager.finished_initializing_log(self.topic_partition, maybe_log)

    def get_replica(self, replica_id: int) -> Replica | None:
        return self._remote_replicas_map.get(replica_id)

    def _get_replica_or_exception(self, replica_id: int) -> Replica:
        replica = self.get_replica(replica_id)
        if replica is None:
            raise NotLeaderOrFollowerException(
                f"Replica with id {replica_id} is not available on broker {self._local_broker_id}"
            )
        return replica

    def _get_local_log(self, current_leader_epoch: int | None, require_leader: bool) -> Log | Errors:
        """The local log, or the Errors explaining why it cannot be used (Kafka's Either[Log, Errors]): a fetcher's
        epoch below ours is fenced, one above ours unknown yet (Kafka's checkCurrentLeaderEpoch, inline here as this
        runs several times per follower fetch on a leader)."""
        if current_leader_epoch is not None:
            local_leader_epoch = self._leader_epoch
            if local_leader_epoch != current_leader_epoch:
                if local_leader_epoch > current_leader_epoch:
                    return Errors.FENCED_LEADER_EPOCH
                return Errors.UNKNOWN_LEADER_EPOCH
        if require_leader and self.leader_replica_id_opt != self._local_broker_id:
            return Errors.NOT_LEADER_OR_FOLLOWER
        log = self.log
        return log if log is not None else Errors.NOT_LEADER_OR_FOLLOWER

    def local_log_or_exception(self) -> Log:
        log = self.log
        if log is None:
            raise NotLeaderOrFollowerException(
                f"Log for partition {self.topic_partition} is not available on broker {self._local_broker_id}"
            )
        return log

    def future_local_log_or_exception(self) -> Log:
        log = self.future_log
        if log is None:
            raise NotLeaderOrFollowerException(
                f"Future log for partition {self.topic_partition} is not available on broker {self._local_broker_id}"
            )
        return log

    @property
    def leader_log_if_local(self) -> Log | None:
        """The log if this broker leads the partition, else None."""
        return self.log if self.is_leader else None

    @property
    def is_leader(self) -> bool:
        return self.leader_replica_id_opt == self._local_broker_id

    def _local_log_with_epoch_or_exception(self, current_leader_epoch: int | None, require_leader: bool) -> Log:
        result = self._get_local_log(current_leader_epoch, require_leader)
        if isinstance(result, Errors):
            exc = result.exception(
                f"Failed to find {'leader' if require_leader else ''} log for partition {self.topic_partition} with "
                f"leader epoch {current_leader_epoch}. The current leader is {self.leader_replica_id_opt} and the "
                f"current epoch {self._leader_epoch}"
            )
            assert exc is not None
            raise exc
        return result

    def set_log(self, log: Log, is_future_log: bool) -> None:
        """For tests: attach a log directly."""
        if is_future_log:
            self.future_log = log
        else:
            self.log = log

    def check_or_set_topic_id(self, request_topic_id: Uuid | None) -> bool:
        """Whether the request's topic id agrees with the log's; a log without an id takes the request's."""
        if request_topic_id is None or request_topic_id == ZERO_UUID:
            return True
        log = self.log
        if log is None:
            return True
        if log.topic_id == ZERO_UUID:
            log.assign_topic_id(request_topic_id)
            return True
        if log.topic_id != request_topic_id:
            self._state_change_logger.error(
                f"Topic Id in memory: {log.topic_id} does not match the topic Id for partition {self.topic_partition} "
                f"provided in the request: {request_topic_id}."
            )
            return False
        return True

    @property
    def remote_replicas(self) -> list[Replica]:
        return self._remote_replicas_map.values

    def future_replica_dir_changed(self, new_destination_dir: str) -> bool:
        """Whether a move is under way to a directory other than `new_destination_dir`."""
        with self._leader_isr_update_lock.read_lock:
            future_log = self.future_log
            return future_log is not None and future_log.parent_dir != new_destination_dir

    def remove_future_local_replica(self, delete_from_log_dir: bool = True) -> None:
        """Drops the future log (and deletes its directory, unless it is in a failed log dir)."""
        with self._leader_isr_update_lock.write_lock:
            self.future_log = None
            if delete_from_log_dir:
                self._log_manager.async_delete(self.topic_partition, is_future=True)

    def maybe_replace_current_with_future_replica(self) -> bool:
        """If the future log has caught up with the current one, it becomes the current log (its directory renamed,
        the old one deleted) and True is returned. Only the ReplicaAlterLogDirsThread calls this, and it stops
        copying the partition on True."""
        # The future-log lock holds follower appends back while the end offsets are compared.
        with self._future_log_lock:
            local_replica_leo = self.local_log_or_exception().log_end_offset
            future_log = self.future_log
            if future_log is None or future_log.log_end_offset != local_replica_leo:
                return False
            # The write lock holds back appends as leader and truncations while the logs are swapped.
            with self._leader_isr_update_lock.write_lock:
                future_log = self.future_log
                if future_log is None:
                    # Removed meanwhile by a request handler, which also took it from the thread's partitions.
                    return False
                log = self.log
                if log is None or log.log_end_offset != future_log.log_end_offset:
                    return False
                self._log_manager.replace_current_with_future_log(self.topic_partition)
                self.log = future_log
                self.remove_future_local_replica(delete_from_log_dir=False)
                return True

    def delete(self) -> None:
        """Forgets the partition's state; the log itself is deleted by the ReplicaManager afterwards."""
        # The write lock keeps appends from hitting a log that is being deleted.
        with self._leader_isr_update_lock.write_lock:
            self._remote_replicas_map.clear()
            self.assignment_state = SimpleAssignmentState(())
            self.log = None
            self.future_log = None
            self.isr_state = CommittedIsr(frozenset())
            self.leader_replica_id_opt = None
            self._leader_epoch_start_offset_opt = None
            Partition.remove_metrics(self.topic_partition)

    def get_leader_epoch(self) -> int:
        return self._leader_epoch

    @property
    def leader_epoch(self) -> int:
        return self._leader_epoch

    def get_zk_version(self) -> int:
        return self._zk_version

    # -- leadership ---------------------------------------------------------------------------------------------

    def make_leader(
        self, partition_state: Any, high_watermark_checkpoints: OffsetCheckpoints, topic_id: Uuid | None = None
    ) -> bool:
        """Makes this broker the leader from a LeaderAndIsrPartitionState; False if it already led the partition.

        Followers' fetch states restart (they may be stale from an earlier leadership), the new epoch starts at
        the current log end offset, and the high watermark may move since the ISR may now be just the leader."""
        with self._leader_isr_update_lock.write_lock:
            self._controller_epoch = partition_state.controller_epoch
            isr = frozenset(partition_state.isr)
            adding = list(partition_state.adding_replicas)
            removing = list(partition_state.removing_replicas)
            self.update_assignment_and_isr(list(partition_state.replicas), isr, adding, removing)
            self.create_log_if_not_exists(partition_state.is_new, False, high_watermark_checkpoints, topic_id)

            leader_log = self.local_log_or_exception()
            leader_epoch_start_offset = leader_log.log_end_offset
            self._state_change_logger.info(
                f"Leader {self.topic_partition} starts at leader epoch {partition_state.leader_epoch} from offset "
                f"{leader_epoch_start_offset} with high watermark {leader_log.high_watermark} ISR "
                f"[{','.join(str(i) for i in partition_state.isr)}] addingReplicas [{','.join(map(str, adding))}] "
                f"removingReplicas [{','.join(map(str, removing))}]. Previous leader epoch was {self._leader_epoch}."
            )
            self._leader_epoch = partition_state.leader_epoch
            self._leader_epoch_start_offset_opt = leader_epoch_start_offset
            self._zk_version = partition_state.partition_epoch
            self._alter_isr_manager.clear_pending(self.topic_partition)
            # A follower may hold entries of a later epoch than the new leader's log has; caching the new epoch and
            # its start offset lets such followers find where to truncate.
            leader_log.maybe_assign_epoch_start_offset(self._leader_epoch, leader_epoch_start_offset)

            is_new_leader = not self.is_leader
            cur_time_ms = self._time.milliseconds()
            for replica in self.remote_replicas:
                last_caught_up_time_ms = cur_time_ms if replica.broker_id in self.isr_state.isr else 0
                replica.reset_last_caught_up_time(leader_epoch_start_offset, cur_time_ms, last_caught_up_time_ms)
            if is_new_leader:
                self.leader_replica_id_opt = self._local_broker_id
                for replica in self.remote_replicas:
                    replica.update_fetch_state(
                        LogOffsetMetadata.UNKNOWN_OFFSET_METADATA, UNKNOWN_OFFSET, 0, UNKNOWN_OFFSET
                    )
            leader_hw_incremented = self._maybe_increment_leader_hw(leader_log)
        if leader_hw_incremented:
            self._try_complete_delayed_requests()
        return is_new_leader

    def make_follower(
        self, partition_state: Any, high_watermark_checkpoints: OffsetCheckpoints, topic_id: Uuid | None = None
    ) -> bool:
        """Makes this broker a follower of the state's leader; False if the leader and epoch are unchanged, so
        the become-follower steps can be skipped."""
        with self._leader_isr_update_lock.write_lock:
            new_leader_broker_id = partition_state.leader
            old_leader_epoch = self._leader_epoch
            self._controller_epoch = partition_state.controller_epoch
            self.update_assignment_and_isr(
                list(partition_state.replicas),
                frozenset(),
                list(partition_state.adding_replicas),
                list(partition_state.removing_replicas),
            )
            self.create_log_if_not_exists(partition_state.is_new, False, high_watermark_checkpoints, topic_id)

            follower_log = self.local_log_or_exception()
            leader_epoch_end_offset = follower_log.log_end_offset
            self._state_change_logger.info(
                f"Follower {self.topic_partition} starts at leader epoch {partition_state.leader_epoch} from offset "
                f"{leader_epoch_end_offset} with high watermark {follower_log.high_watermark}. Previous leader epoch "
                f"was {self._leader_epoch}."
            )
            self._leader_epoch = partition_state.leader_epoch
            self._leader_epoch_start_offset_opt = None
            self._zk_version = partition_state.partition_epoch
            # This broker may have led before: drop any ISR change it still had pending.
            self._alter_isr_manager.clear_pending(self.topic_partition)
            if self.leader_replica_id_opt == new_leader_broker_id and self._leader_epoch == old_leader_epoch:
                return False
            self.leader_replica_id_opt = new_leader_broker_id
            return True

    def update_follower_fetch_state(
        self,
        follower_id: int,
        follower_fetch_offset_metadata: LogOffsetMetadata,
        follower_start_offset: int,
        follower_fetch_time_ms: int,
        leader_end_offset: int,
    ) -> bool:
        """Records a follower's fetch (its position and log start); may expand the ISR and move the high and low
        watermarks. False if `follower_id` is not an assigned replica."""
        follower_replica = self.get_replica(follower_id)
        if follower_replica is None:
            return False
        # The low watermark matters only to a pending DeleteRecords.
        old_leader_lw = self.low_watermark_if_leader() if self._delayed_operations.num_delayed_delete > 0 else -1
        prev_follower_end_offset = follower_replica.log_end_offset
        follower_replica.update_fetch_state(
            follower_fetch_offset_metadata, follower_start_offset, follower_fetch_time_ms, leader_end_offset
        )
        new_leader_lw = self.low_watermark_if_leader() if self._delayed_operations.num_delayed_delete > 0 else -1
        leader_lw_incremented = new_leader_lw > old_leader_lw

        self._maybe_expand_isr(follower_replica, follower_fetch_time_ms)

        leader_hw_incremented = False
        if prev_follower_end_offset != follower_replica.log_end_offset:
            with self._leader_isr_update_lock.read_lock:
                leader_log = self.leader_log_if_local
                if leader_log is not None:
                    leader_hw_incremented = self._maybe_increment_leader_hw(leader_log, follower_fetch_time_ms)

        if leader_lw_incremented or leader_hw_incremented:
            self._try_complete_delayed_requests()
        if self.is_debug_enabled():
            self.debug(
                f"Recorded replica {follower_id} log end offset (LEO) position "
                f"{follower_fetch_offset_metadata.message_offset} and log start offset {follower_start_offset}."
            )
        return True

    def update_assignment_and_isr(
        self,
        assignment: Sequence[int],
        isr: frozenset[int],
        adding_replicas: Sequence[int],
        removing_replicas: Sequence[int],
    ) -> None:
        """Stores the assignment and the (committed) ISR, creating a Replica for each new remote broker."""
        new_remote_replicas = [r for r in assignment if r != self._local_broker_id]
        removed_replicas = [r for r in self._remote_replicas_map.keys if r not in new_remote_replicas]
        # Readers use the map without a lock: add the new replicas before removing the old ones.
        for replica_id in new_remote_replicas:
            if self._remote_replicas_map.get(replica_id) is None:
                self._remote_replicas_map.put_if_not_exists(replica_id, Replica(replica_id, self.topic_partition))
        self._remote_replicas_map.remove_all(removed_replicas)
        if adding_replicas or removing_replicas:
            self.assignment_state = OngoingReassignmentState(
                tuple(adding_replicas), tuple(removing_replicas), tuple(assignment)
            )
        else:
            self.assignment_state = SimpleAssignmentState(tuple(assignment))
        self.isr_state = CommittedIsr(frozenset(isr))

    # -- ISR ----------------------------------------------------------------------------------------------------

    def _maybe_expand_isr(self, follower_replica: Replica, follower_fetch_time_ms: int) -> None:
        """Adds the follower to the ISR once it has caught up to the high watermark within the current epoch
        (a follower behind the epoch's start could otherwise become leader without committed records)."""
        if not self._can_add_replica_to_isr(follower_replica.broker_id):
            return
        with self._leader_isr_update_lock.read_lock:
            needs_isr_update = self._needs_expand_isr(follower_replica)
        if needs_isr_update:
            with self._leader_isr_update_lock.write_lock:
                if self._needs_expand_isr(follower_replica):
                    self.expand_isr(follower_replica.broker_id)

    def _needs_expand_isr(self, follower_replica: Replica) -> bool:
        return self._can_add_replica_to_isr(follower_replica.broker_id) and self._is_follower_at_highwatermark(
            follower_replica
        )

    def _can_add_replica_to_isr(self, follower_replica_id: int) -> bool:
        current = self.isr_state
        return not current.is_inflight and follower_replica_id not in current.isr

    def _is_follower_at_highwatermark(self, follower_replica: Replica) -> bool:
        leader_log = self.leader_log_if_local
        if leader_log is None:
            return False
        follower_end_offset = follower_replica.log_end_offset
        start = self._leader_epoch_start_offset_opt
        return follower_end_offset >= leader_log.high_watermark and start is not None and follower_end_offset >= start

    def check_enough_replicas_reach_offset(self, required_offset: int) -> tuple[bool, Errors]:
        """For acks=-1: (whether the ISR reached `required_offset`, the error to answer with).

        The high watermark having passed the offset means every in-sync replica has it; if the ISR shrank below
        min.insync.replicas meanwhile, the records are there but the answer is NOT_ENOUGH_REPLICAS_AFTER_APPEND."""
        leader_log = self.leader_log_if_local
        if leader_log is None:
            return False, Errors.NOT_LEADER_OR_FOLLOWER
        cur_maximal_isr = self.isr_state.maximal_isr
        if self.is_trace_enabled():
            acked: list[str] = []
            awaiting: list[str] = []
            for broker_id in cur_maximal_isr - {self._local_broker_id}:
                leo = self._get_replica_or_exception(broker_id).log_end_offset
                (acked if leo >= required_offset else awaiting).append(f"broker {broker_id}: {leo}")
            leo = leader_log.log_end_offset
            (acked if leo >= required_offset else awaiting).append(f"broker {self._local_broker_id}: {leo}")
            self.trace(f"Progress awaiting ISR acks for offset {required_offset}: acked: {acked}, awaiting {awaiting}")
        min_isr = leader_log.config.min_in_sync_replicas
        if leader_log.high_watermark >= required_offset:
            if min_isr <= len(cur_maximal_isr):
                return True, Errors.NONE
            return True, Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND
        return False, Errors.NONE

    def _maybe_increment_leader_hw(self, leader_log: Log, cur_time: int | None = None) -> bool:
        """Moves the high watermark to the smallest log end offset among the leader and the followers that are
        in the (maximal) ISR or caught up within replica.lag.time.max.ms; True if it moved. Callers hold the
        leader/ISR lock (read or write).

        Waiting also for caught-up followers outside the ISR lets a follower catching up reach the high watermark
        and join the ISR instead of chasing a high watermark that runs ahead with the leader's log end."""
        if cur_time is None:
            cur_time = self._time.milliseconds()
        new_high_watermark: LogOffsetMetadata = leader_log.log_end_offset_metadata
        maximal_isr = self.isr_state.maximal_isr
        for replica in self._remote_replicas_map.values:
            replica_leo = replica.log_end_offset_metadata
            if replica_leo.message_offset < new_high_watermark.message_offset and (
                cur_time - replica.last_caught_up_time_ms <= self.replica_lag_time_max_ms
                or replica.broker_id in maximal_isr
            ):
                new_high_watermark = replica_leo
        old_high_watermark = leader_log.maybe_increment_high_watermark(new_high_watermark)
        if old_high_watermark is not None:
            if self.is_debug_enabled():
                self.debug(f"High watermark updated from {old_high_watermark} to {new_high_watermark}")
            return True
        if self.is_trace_enabled():
            leos = [f"replica {r.broker_id}: {r.log_end_offset_metadata}" for r in self.remote_replicas]
            leos.append(f"replica {self._local_broker_id}: {leader_log.log_end_offset_metadata}")
            self.trace(
                f"Skipping update high watermark since new hw {new_high_watermark} is not larger than old value. "
                f"All current LEOs are {leos}"
            )
        return False

    def low_watermark_if_leader(self) -> int:
        """The smallest log start offset among the leader and its live followers (what DeleteRecords waits for)."""
        if not self.is_leader:
            raise NotLeaderOrFollowerException(
                f"Leader not local for partition {self.topic_partition} on broker {self._local_broker_id}"
            )
        low_watermark: int = self.local_log_or_exception().log_start_offset
        for replica in self.remote_replicas:
            if (
                self._metadata_cache.get_alive_broker(replica.broker_id) is not None
                and replica.log_start_offset < low_watermark
            ):
                low_watermark = replica.log_start_offset
        future_log = self.future_log
        if future_log is not None:
            return min(low_watermark, future_log.log_start_offset)
        return low_watermark

    def _try_complete_delayed_requests(self) -> None:
        """Completes delayed operations a watermark move may have satisfied; call with no Partition lock held."""
        self._delayed_operations.check_and_complete_all()

    def maybe_shrink_isr(self) -> None:
        """Removes followers that have not caught up within replica.lag.time.max.ms from the ISR (run by the
        `isr-expiration` task)."""
        if self.isr_state.is_inflight:
            return
        with self._leader_isr_update_lock.read_lock:
            needs_isr_update = self._needs_shrink_isr()
        leader_hw_incremented = False
        if needs_isr_update:
            with self._leader_isr_update_lock.write_lock:
                leader_log = self.leader_log_if_local
                if leader_log is not None:
                    out_of_sync_replica_ids = self.get_out_of_sync_replicas(self.replica_lag_time_max_ms)
                    if out_of_sync_replica_ids:
                        out_of_sync_log = " ".join(
                            f"(brokerId: {r}, endOffset: {self._get_replica_or_exception(r).log_end_offset})"
                            for r in sorted(out_of_sync_replica_ids)
                        )
                        new_isr = ",".join(str(r) for r in sorted(self.isr_state.isr - out_of_sync_replica_ids))
                        self.info(
                            f"Shrinking ISR from {','.join(str(r) for r in sorted(self.isr_state.isr))} to {new_isr}. "
                            f"Leader: (highWatermark: {leader_log.high_watermark}, endOffset: "
                            f"{leader_log.log_end_offset}). Out of sync replicas: {out_of_sync_log}."
                        )
                        self.shrink_isr(out_of_sync_replica_ids)
                        # The ISR may now be just the leader.
                        leader_hw_incremented = self._maybe_increment_leader_hw(leader_log)
        if leader_hw_incremented:
            self._try_complete_delayed_requests()

    def _needs_shrink_isr(self) -> bool:
        return self.leader_log_if_local is not None and bool(
            self.get_out_of_sync_replicas(self.replica_lag_time_max_ms)
        )

    def _is_follower_out_of_sync(
        self, replica_id: int, leader_end_offset: int, current_time_ms: int, max_lag_ms: int
    ) -> bool:
        follower_replica = self._get_replica_or_exception(replica_id)
        return (
            follower_replica.log_end_offset != leader_end_offset
            and (current_time_ms - follower_replica.last_caught_up_time_ms) > max_lag_ms
        )

    def get_out_of_sync_replicas(self, max_lag_ms: int) -> frozenset[int]:
        """In-sync followers that are not at the leader's log end and have not been caught up for `max_lag_ms`
        (stuck or slow); empty while an ISR change is in flight."""
        current = self.isr_state
        if current.is_inflight:
            return frozenset()
        candidate_replica_ids = current.isr - {self._local_broker_id}
        current_time_ms = self._time.milliseconds()
        leader_end_offset = self.local_log_or_exception().log_end_offset
        return frozenset(
            r
            for r in candidate_replica_ids
            if self._is_follower_out_of_sync(r, leader_end_offset, current_time_ms, max_lag_ms)
        )

    # -- appends and reads --------------------------------------------------------------------------------------

    def _do_append_records_to_follower_or_future_replica(
        self, records: MemoryRecords, is_future: bool
    ) -> LogAppendInfo | None:
        if is_future:
            # The read lock keeps a request handler from removing the future replica meanwhile.
            with self._leader_isr_update_lock.read_lock:
                future_log = self.future_log
                return None if future_log is None else future_log.append_as_follower(records)
        # The future-log lock keeps the follower log from being swapped for the future one meanwhile.
        with self._future_log_lock:
            result: LogAppendInfo = self.local_log_or_exception().append_as_follower(records)
            return result

    def append_records_to_follower_or_future_replica(
        self, records: MemoryRecords, is_future: bool
    ) -> LogAppendInfo | None:
        """Appends fetched records, with the leader's offsets and epochs, to the follower's (or future) log.

        An empty log whose first fetched batch starts before the log start (the leader's log start fell inside that
        batch, after a DeleteRecords) starts over at the batch's base offset."""
        try:
            return self._do_append_records_to_follower_or_future_replica(records, is_future)
        except UnexpectedAppendOffsetException as e:
            log = self.future_local_log_or_exception() if is_future else self.local_log_or_exception()
            log_end_offset = log.log_end_offset
            if log_end_offset == log.log_start_offset and e.first_offset < log_end_offset <= e.last_offset:
                replica_name = "future replica" if is_future else "follower"
                self.info(
                    f"Unexpected offset in append to {self.topic_partition}. First offset {e.first_offset} is less "
                    f"than log start offset {log.log_start_offset}. Since this is the first record to be appended to "
                    f"the {replica_name}'s log, will start the log from offset {e.first_offset}."
                )
                self.truncate_fully_and_start_at(e.first_offset, is_future)
                return self._do_append_records_to_follower_or_future_replica(records, is_future)
            raise

    def append_records_to_leader(
        self, records: MemoryRecords, origin: AppendOrigin, required_acks: int
    ) -> LogAppendInfo:
        """Appends a produce as leader, stamping the leader epoch; NotEnoughReplicasException for acks=-1 while the
        ISR is smaller than min.insync.replicas, NotLeaderOrFollowerException when this broker does not lead."""
        with self._leader_isr_update_lock.read_lock:
            leader_log = self.leader_log_if_local
            if leader_log is None:
                raise NotLeaderOrFollowerException(
                    f"Leader not local for partition {self.topic_partition} on broker {self._local_broker_id}"
                )
            min_isr = leader_log.config.min_in_sync_replicas
            in_sync_size = len(self.isr_state.isr)
            if in_sync_size < min_isr and required_acks == -1:
                raise NotEnoughReplicasException(
                    f"The size of the current ISR {_set_str(self.isr_state.isr)} is insufficient to satisfy the "
                    f"min.isr requirement of {min_isr} for partition {self.topic_partition}"
                )
            # PORT: Kafka also passes the inter-broker protocol version, which picks the message format of old
            # protocol versions; our Log takes the format from the topic's message.format.version alone.
            info: LogAppendInfo = leader_log.append_as_leader(records, self._leader_epoch, origin)
            # The ISR may be just the leader: then the high watermark follows the log end.
            leader_hw_incremented = self._maybe_increment_leader_hw(leader_log)
        # PORT: Kafka returns a copy (info.copy(leaderHwChange = ...)); the info is this append's own, made by the log
        # for this call and referenced nowhere else, so it is set in place (dataclasses.replace re-ran the
        # constructor's 17 fields for every produce).
        info.leader_hw_change = Increased() if leader_hw_incremented else Same()
        return info

    def read_records(
        self,
        last_fetched_epoch: int | None,
        fetch_offset: int,
        current_leader_epoch: int | None,
        max_bytes: int,
        fetch_isolation: FetchIsolation,
        fetch_only_from_leader: bool,
        min_one_message: bool,
    ) -> LogReadInfo:
        """Reads from the local log, with the offsets the fetch response reports, as of before the read (so that
        appends during the read cannot keep a follower from catching up). A follower whose last fetched epoch
        diverges from this log gets no records and the epoch and end offset to truncate to."""
        with self._leader_isr_update_lock.read_lock:
            local_log = self._local_log_with_epoch_or_exception(current_leader_epoch, fetch_only_from_leader)
            initial_high_watermark = local_log.high_watermark
            initial_log_start_offset = local_log.log_start_offset
            initial_log_end_offset = local_log.log_end_offset
            initial_last_stable_offset = local_log.last_stable_offset

            if last_fetched_epoch is not None:
                # PORT: Kafka asks lastOffsetForLeaderEpoch(currentLeaderEpoch, lastFetchedEpoch, false), which checks
                # the leader epoch and the local log once more and builds an OffsetForLeaderEpoch response entry;
                # under this same read lock both checks have just passed, so the log is asked directly (a follower
                # fetch does this on every read, and twice when it waited in the purgatory).
                epoch_and_offset = local_log.end_offset_for_epoch(last_fetched_epoch)
                if epoch_and_offset is None:
                    end_epoch, end_offset = UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
                else:
                    end_epoch, end_offset = epoch_and_offset.leader_epoch, epoch_and_offset.offset
                if end_offset == UNDEFINED_EPOCH_OFFSET or end_epoch == UNDEFINED_EPOCH:
                    raise OffsetOutOfRangeException(
                        f"Could not determine the end offset of the last fetched epoch {last_fetched_epoch} from the "
                        "request"
                    )
                # Below the log start the fetch fails, whether or not the epochs diverge.
                if fetch_offset < initial_log_start_offset:
                    raise OffsetOutOfRangeException(
                        f"Received request for offset {fetch_offset} for partition {self.topic_partition}, but we "
                        f"only have log segments in the range {initial_log_start_offset} to {initial_log_end_offset}."
                    )
                if end_epoch < last_fetched_epoch or end_offset < fetch_offset:
                    empty_fetch_data = FetchDataInfo(LogOffsetMetadata(fetch_offset), MemoryRecords.EMPTY, False, None)
                    diverging_epoch = FetchResponseData.EpochEndOffset(epoch=end_epoch, end_offset=end_offset)
                    return LogReadInfo(
                        empty_fetch_data,
                        diverging_epoch,
                        initial_high_watermark,
                        initial_log_start_offset,
                        initial_log_end_offset,
                        initial_last_stable_offset,
                    )

            fetched_data = local_log.read(fetch_offset, max_bytes, fetch_isolation, min_one_message)
            return LogReadInfo(
                fetched_data,
                None,
                initial_high_watermark,
                initial_log_start_offset,
                initial_log_end_offset,
                initial_last_stable_offset,
            )

    def fetch_offset_for_timestamp(
        self,
        timestamp: int,
        isolation_level: IsolationLevel | None,
        current_leader_epoch: int | None,
        fetch_only_from_leader: bool,
    ) -> TimestampAndOffset | None:
        """ListOffsets: LATEST is the last offset a fetch at this isolation could read up to (the log end for
        replicas, the high watermark or last stable offset for consumers); EARLIEST the log start; other targets
        (a timestamp, MAX_TIMESTAMP) are looked up in the log and count only below that bound.

        Right after a leader change, while the high watermark lags behind the start of the new epoch, consumers
        asking for LATEST (or a timestamp past the bound) get OFFSET_NOT_AVAILABLE."""
        with self._leader_isr_update_lock.read_lock:
            local_log = self._local_log_with_epoch_or_exception(current_leader_epoch, fetch_only_from_leader)
            if isolation_level == IsolationLevel.READ_COMMITTED:
                last_fetchable_offset = local_log.last_stable_offset
            elif isolation_level == IsolationLevel.READ_UNCOMMITTED:
                last_fetchable_offset = local_log.high_watermark
            else:
                last_fetchable_offset = local_log.log_end_offset

            epoch_log_string = f"epoch {current_leader_epoch}" if current_leader_epoch is not None else "unknown epoch"
            maybe_offsets_error: Exception | None = None
            epoch_start = self._leader_epoch_start_offset_opt
            if epoch_start is not None and isolation_level is not None and epoch_start > local_log.high_watermark:
                maybe_offsets_error = Errors.OFFSET_NOT_AVAILABLE.exception(
                    f"Failed to fetch offsets for partition {self.topic_partition} with leader {epoch_log_string} as "
                    f"this partition's high watermark ({local_log.high_watermark}) is lagging behind the start "
                    f"offset from the beginning of this epoch ({epoch_start})."
                )

            def get_offset_by_timestamp() -> TimestampAndOffset | None:
                log = self._log_manager.get_log(self.topic_partition)
                if log is None:
                    return None
                # PORT: without tiered storage the local log start (ListOffsets v8's EARLIEST_LOCAL_TIMESTAMP) is
                # the log start, which is what Kafka 3.7's UnifiedLog answers for it here too.
                target = EARLIEST_TIMESTAMP if timestamp == EARLIEST_LOCAL_TIMESTAMP else timestamp
                found: TimestampAndOffset | None = log.fetch_offset_by_timestamp(target)
                return found

            if timestamp == LATEST_TIMESTAMP:
                if maybe_offsets_error is not None:
                    raise maybe_offsets_error
                return TimestampAndOffset(NO_TIMESTAMP, last_fetchable_offset, self._leader_epoch)
            if timestamp in (EARLIEST_TIMESTAMP, EARLIEST_LOCAL_TIMESTAMP):
                return get_offset_by_timestamp()
            found = get_offset_by_timestamp()
            if found is not None and found.offset < last_fetchable_offset:
                return found
            if maybe_offsets_error is not None:
                raise maybe_offsets_error
            return None

    def fetch_offset_snapshot(
        self, current_leader_epoch: int | None, fetch_only_from_leader: bool
    ) -> LogOffsetSnapshot:
        with self._leader_isr_update_lock.read_lock:
            local_log = self._local_log_with_epoch_or_exception(current_leader_epoch, fetch_only_from_leader)
            snapshot: LogOffsetSnapshot = local_log.fetch_offset_snapshot()
            return snapshot

    def fetch_end_offset_metadata(
        self, current_leader_epoch: int | None, fetch_only_from_leader: bool, fetch_isolation: FetchIsolation
    ) -> LogOffsetMetadata:
        """How far a delayed fetch with `fetch_isolation` may read: the log end, high watermark or last stable offset
        of fetch_offset_snapshot, with its checks and errors.

        # PORT: Kafka's DelayedFetch takes the whole snapshot and picks one offset; a follower's needs only the log
        # end, so the high watermark and last stable offset are not worked out for it."""
        with self._leader_isr_update_lock.read_lock:
            local_log = self._local_log_with_epoch_or_exception(current_leader_epoch, fetch_only_from_leader)
            if isinstance(fetch_isolation, FetchLogEnd):
                return local_log.fetch_log_end_offset_metadata()
            snapshot: LogOffsetSnapshot = local_log.fetch_offset_snapshot()
            if isinstance(fetch_isolation, FetchHighWatermark):
                return snapshot.high_watermark
            return snapshot.last_stable_offset

    def legacy_fetch_offsets_for_timestamp(
        self, timestamp: int, max_num_offsets: int, is_from_consumer: bool, fetch_only_from_leader: bool
    ) -> list[int]:
        """ListOffsets v0: up to `max_num_offsets` segment base offsets before `timestamp`; consumers never see
        offsets past the high watermark (it takes their place)."""
        with self._leader_isr_update_lock.read_lock:
            local_log = self._local_log_with_epoch_or_exception(None, fetch_only_from_leader)
            all_offsets: list[int] = list(local_log.legacy_fetch_offsets_before(timestamp, max_num_offsets))
            if not is_from_consumer:
                return all_offsets
            hw = local_log.high_watermark
            if any(o > hw for o in all_offsets):
                i = 0
                while i < len(all_offsets) and all_offsets[i] > hw:
                    i += 1
                return [hw, *all_offsets[i:]]
            return all_offsets

    @property
    def log_start_offset(self) -> int:
        with self._leader_isr_update_lock.read_lock:
            leader_log = self.leader_log_if_local
            return -1 if leader_log is None else int(leader_log.log_start_offset)

    def delete_records_on_leader(self, offset: int) -> LogDeleteRecordsResult:
        """DeleteRecords as leader: moves the log start offset up to `offset` (HIGH_WATERMARK meaning the high
        watermark) and returns it with the low watermark."""
        # Imported here: replica_manager imports this module.
        from kafka.server.replica_manager import LogDeleteRecordsResult

        with self._leader_isr_update_lock.read_lock:
            leader_log = self.leader_log_if_local
            if leader_log is None:
                raise NotLeaderOrFollowerException(
                    f"Leader not local for partition {self.topic_partition} on broker {self._local_broker_id}"
                )
            if not leader_log.config.delete:
                raise PolicyViolationException(
                    f"Records of partition {self.topic_partition} can not be deleted due to the configured policy"
                )
            converted_offset = leader_log.high_watermark if offset == DELETE_RECORDS_HIGH_WATERMARK else offset
            if converted_offset < 0:
                raise OffsetOutOfRangeException(
                    f"The offset {converted_offset} for partition {self.topic_partition} is not valid"
                )
            leader_log.maybe_increment_log_start_offset(converted_offset, ClientRecordDeletion())
            return LogDeleteRecordsResult(converted_offset, self.low_watermark_if_leader())

    def truncate_to(self, offset: int, is_future: bool) -> None:
        """Truncates the local log to `offset` and checkpoints the recovery point there."""
        with self._leader_isr_update_lock.read_lock:
            self._log_manager.truncate_to({self.topic_partition: offset}, is_future)

    def truncate_fully_and_start_at(self, new_offset: int, is_future: bool) -> None:
        """Empties the local log and starts it at `new_offset`."""
        with self._leader_isr_update_lock.read_lock:
            self._log_manager.truncate_fully_and_start_at(self.topic_partition, new_offset, is_future)

    def last_offset_for_leader_epoch(
        self, current_leader_epoch: int | None, leader_epoch: int, fetch_only_from_leader: bool
    ) -> Any:
        """OffsetsForLeaderEpoch: the largest epoch <= `leader_epoch` in this log and its end offset (the start of
        the next epoch, or the log end for the latest), as an OffsetForLeaderEpochResponseData.EpochEndOffset."""
        with self._leader_isr_update_lock.read_lock:
            result = self._get_local_log(current_leader_epoch, fetch_only_from_leader)
            if isinstance(result, Errors):
                return OffsetForLeaderEpochResponseData.EpochEndOffset(
                    partition=self.topic_partition.partition, error_code=result.code
                )
            epoch_and_offset = result.end_offset_for_epoch(leader_epoch)
            if epoch_and_offset is None:
                return OffsetForLeaderEpochResponseData.EpochEndOffset(
                    partition=self.topic_partition.partition, error_code=_NONE_CODE
                )
            return OffsetForLeaderEpochResponseData.EpochEndOffset(
                partition=self.topic_partition.partition,
                error_code=_NONE_CODE,
                leader_epoch=epoch_and_offset.leader_epoch,
                end_offset=epoch_and_offset.offset,
            )

    # -- AlterIsr -----------------------------------------------------------------------------------------------

    def expand_isr(self, new_in_sync_replica: int) -> None:
        """Proposes adding a replica to the ISR (caller holds the write lock). The addition counts for the high
        watermark at once: waiting for one more replica is never unsafe."""
        if not self.isr_state.is_inflight:
            self._send_alter_isr_request(PendingExpandIsr(self.isr_state.isr, new_in_sync_replica))
        else:
            self.trace(f"ISR update in-flight, not adding new in-sync replica {new_in_sync_replica}")

    def shrink_isr(self, out_of_sync_replicas: frozenset[int]) -> None:
        """Proposes removing replicas from the ISR (caller holds the write lock). Until the change is committed
        the old ISR still counts: assuming success could advance the high watermark wrongly."""
        if not self.isr_state.is_inflight:
            self._send_alter_isr_request(PendingShrinkIsr(self.isr_state.isr, frozenset(out_of_sync_replicas)))
        else:
            self.trace(f"ISR update in-flight, not removing out-of-sync replicas {_set_str(out_of_sync_replicas)}")

    def _send_alter_isr_request(self, proposed_isr_state: IsrState) -> None:
        if isinstance(proposed_isr_state, PendingExpandIsr):
            isr_to_send = proposed_isr_state.isr | {proposed_isr_state.new_in_sync_replica_id}
        elif isinstance(proposed_isr_state, PendingShrinkIsr):
            isr_to_send = proposed_isr_state.isr - proposed_isr_state.out_of_sync_replica_ids
        else:
            self._isr_change_listener.mark_failed()
            raise RuntimeError(
                f"Invalid state {proposed_isr_state} for ISR change for partition {self.topic_partition}"
            )

        new_leader_and_isr = LeaderAndIsr(
            self._local_broker_id, self._leader_epoch, sorted(isr_to_send), self._zk_version
        )
        alter_isr_item = AlterIsrItem(
            self.topic_partition,
            new_leader_and_isr,
            lambda result: self._handle_alter_isr_response(proposed_isr_state, result),
            self._controller_epoch,
        )
        old_state = self.isr_state
        self.isr_state = proposed_isr_state
        if not self._alter_isr_manager.submit(alter_isr_item):
            # Not accepted: go back to the previous state.
            self.isr_state = old_state
            self._isr_change_listener.mark_failed()
            raise RuntimeError(
                f"Failed to enqueue ISR change state {new_leader_and_isr} for partition {self.topic_partition}"
            )
        self.debug(f"Enqueued ISR change to state {new_leader_and_isr} after transition to {proposed_isr_state}")

    def _handle_alter_isr_response(self, proposed_isr_state: IsrState, result: Errors | LeaderAndIsr) -> None:
        """The outcome of an ISR change: an Errors, or the LeaderAndIsr the controller (or ZooKeeper) committed.
        A non-retriable error leaves the change in flight until the next LeaderAndIsr/UpdateMetadata.

        # PORT: as Kafka 3.0 (KAFKA-13091) and not 2.8, a committed change also tries to advance the high watermark
        # and complete the delayed requests: a shrink down to the leader alone must release acks=all produces at
        # once, not at the next append or follower fetch.
        """
        hw_incremented = False
        with self._leader_isr_update_lock.write_lock:
            if self.isr_state != proposed_isr_state:
                # A leader election or similar replaced the state meanwhile: this answer is out of date.
                self.debug(
                    f"Ignoring failed ISR update to {proposed_isr_state} since we have already updated state to "
                    f"{self.isr_state}"
                )
                return
            if isinstance(result, Errors):
                self._isr_change_listener.mark_failed()
                if result == Errors.UNKNOWN_TOPIC_OR_PARTITION:
                    self.debug(
                        f"Failed to update ISR to {proposed_isr_state} since it doesn't know about this topic or "
                        "partition. Giving up."
                    )
                elif result == Errors.FENCED_LEADER_EPOCH:
                    self.debug(
                        f"Failed to update ISR to {proposed_isr_state} since we sent an old leader epoch. Giving up."
                    )
                elif result == Errors.INVALID_UPDATE_VERSION:
                    self.debug(f"Failed to update ISR to {proposed_isr_state} due to invalid version. Giving up.")
                else:
                    self.warn(
                        f"Failed to update ISR to {proposed_isr_state} due to unexpected {result.name}. Retrying."
                    )
                    self._send_alter_isr_request(proposed_isr_state)
                return
            leader_and_isr = result
            if leader_and_isr.leader_epoch != self._leader_epoch:
                self.debug(
                    f"Ignoring new ISR {leader_and_isr} since we have a stale leader epoch {self._leader_epoch}."
                )
                self._isr_change_listener.mark_failed()
            elif leader_and_isr.zk_version < self._zk_version:
                self.debug(f"Ignoring new ISR {leader_and_isr} since we have a newer version {self._zk_version}.")
                self._isr_change_listener.mark_failed()
            else:
                # Committed: either a new version with the proposed ISR, or the same version (nothing to change).
                self.isr_state = CommittedIsr(frozenset(leader_and_isr.isr))
                self._zk_version = leader_and_isr.zk_version
                self.info(
                    f"ISR updated to {','.join(str(r) for r in sorted(self.isr_state.isr))} and version updated to "
                    f"[{self._zk_version}]"
                )
                if isinstance(proposed_isr_state, PendingExpandIsr):
                    self._isr_change_listener.mark_expand()
                elif isinstance(proposed_isr_state, PendingShrinkIsr):
                    self._isr_change_listener.mark_shrink()
                leader_log = self.leader_log_if_local
                hw_incremented = leader_log is not None and self._maybe_increment_leader_hw(leader_log)
        if hw_incremented:
            self._try_complete_delayed_requests()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Partition) and self.topic_partition == other.topic_partition

    def __hash__(self) -> int:
        return hash(self.topic_partition)

    def __str__(self) -> str:
        s = (
            f"Topic: {self.topic}; Partition: {self.partition_id}; Leader: {self.leader_replica_id_opt}; "
            f"Replicas: {','.join(str(r) for r in self.assignment_state.replicas)}; "
            f"ISR: {','.join(str(r) for r in sorted(self.isr_state.isr))}"
        )
        state = self.assignment_state
        if isinstance(state, OngoingReassignmentState):
            s += f"; AddingReplicas: {','.join(map(str, state.adding_replicas))}"
            s += f"; RemovingReplicas: {','.join(map(str, state.removing_replicas))}"
        return s
