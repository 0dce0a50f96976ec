"""Port of core/src/main/scala/kafka/server/AbstractFetcherThread.scala (Kafka 2.8).

A thread that fetches a set of partitions from one source broker. Each partition has a `PartitionFetchState`:
`Truncating` (it has just been added, and its log may hold records the leader does not have) or `Fetching`,
possibly delayed after an error. Every round (`do_work`) first truncates the partitions that need it, by the end
offsets of their latest epochs that the leader answers (OffsetsForLeaderEpoch, KIP-101/279) or, where epochs are
not known, by the high watermark; then sends one fetch for every partition ready to fetch and hands each
partition's data to the subclass (`process_partition_data`). A fetch response may also name a diverging epoch
(Fetch v12+, KIP-595), which truncates the partition without an OffsetsForLeaderEpoch round trip.

What is fetched from where, and how it is appended, is the subclass's: ReplicaFetcherThread fetches from a
partition's leader for a follower replica.

Locking: `partition_map_lock` guards the partition states; it is held while building a fetch and while
processing its response, never while waiting for the network. Subclasses take the partition's own locks (its
leader/ISR lock, the log's lock) inside it.

Metrics: FetcherStats (kafka.server:type=FetcherStats, RequestsPerSec and BytesPerSec per clientId, brokerHost
and brokerPort) and FetcherLagStats' per-partition ConsumerLag gauges (kafka.server:type=FetcherLagMetrics), which
the managers' MaxLag and MinFetchRate gauges read; they are unregistered when the partition is removed or the
thread shut down.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.errors import (
    CorruptRecordException,
    FencedLeaderEpochException,
    InvalidRecordException,
    KafkaStorageException,
    NotLeaderOrFollowerException,
    UnknownLeaderEpochException,
    UnknownTopicOrPartitionException,
)
from kafka.common.internals.partition_states import PartitionStates
from kafka.common.message import OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.record.file_records import FileRecords
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.log.log import OffsetAndEpoch
from kafka.log.log_append_info import LogAppendInfo
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer import Meter
from kafka.server.abstract_fetcher_manager import FailedPartitions, InitialFetchState
from kafka.utils.delayed_item import DelayedItem
from kafka.utils.pool import Pool
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.utils.time_unit import TimeUnit

# The data of one partition in a fetch response (FetchResponseData.PartitionData), what the thread asks in an
# OffsetsForLeaderEpoch request for one partition, and what the leader answers for it.
FetchData = Any
EpochData = Any  # OffsetForLeaderEpochRequestData.OffsetForLeaderPartition
EpochEndOffset = Any  # OffsetForLeaderEpochResponseData.EpochEndOffset

R = TypeVar("R")


# -- states ---------------------------------------------------------------------------------------------------------


class ReplicaState(ABC):  # noqa: B024 - a sealed trait: the two dataclasses below are its only values
    """Whether a partition is truncating its log or fetching."""


@dataclass(frozen=True, slots=True)
class Truncating(ReplicaState):
    def __str__(self) -> str:
        return "Truncating"


@dataclass(frozen=True, slots=True)
class Fetching(ReplicaState):
    def __str__(self) -> str:
        return "Fetching"


@dataclass(frozen=True, slots=True)
class PartitionFetchState:
    """Where a partition is fetched from (`fetch_offset`), at which leader epoch, how far behind the leader's high
    watermark it was last seen (`lag`), whether it truncates or fetches, whether it is delayed after an error, and
    the epoch of the last batch fetched (sent in Fetch v12+ so the leader can tell a diverging log)."""

    fetch_offset: int
    lag: int | None
    current_leader_epoch: int
    delay: DelayedItem | None
    state: ReplicaState
    last_fetched_epoch: int | None

    @property
    def is_ready_for_fetch(self) -> bool:
        return isinstance(self.state, Fetching) and not self.is_delayed

    @property
    def is_replica_in_sync(self) -> bool:
        return self.lag is not None and self.lag <= 0

    @property
    def is_truncating(self) -> bool:
        return isinstance(self.state, Truncating) and not self.is_delayed

    @property
    def is_delayed(self) -> bool:
        return self.delay is not None and self.delay.get_delay_ms() > 0

    def __str__(self) -> str:
        last = "None" if self.last_fetched_epoch is None else f"Some({self.last_fetched_epoch})"
        lag = "None" if self.lag is None else f"Some({self.lag})"
        delay_ms = 0 if self.delay is None else self.delay.delay_ms
        return (
            f"FetchState(fetchOffset={self.fetch_offset}, currentLeaderEpoch={self.current_leader_epoch}, "
            f"lastFetchedEpoch={last}, state={self.state}, lag={lag}, delay={delay_ms}ms)"
        )


@dataclass(frozen=True, slots=True)
class OffsetTruncationState:
    """The offset to truncate a partition to, and whether that is final (False: ask the leader again, with the
    epoch the log has after this truncation)."""

    offset: int
    truncation_completed: bool = True

    def __str__(self) -> str:
        return f"offset:{self.offset}-truncationCompleted:{str(self.truncation_completed).lower()}"


@dataclass(frozen=True, slots=True)
class ReplicaFetch:
    """A fetch to send: the session's partitions (what each asks for) and the request builder."""

    partition_data: Mapping[TopicPartition, PartitionData]
    fetch_request: Builder[Any]


@dataclass(frozen=True, slots=True)
class ResultWithPartitions(Generic[R]):
    """A result, and the partitions that could not take part in it (to be delayed)."""

    result: R
    partitions_with_error: frozenset[TopicPartition]


# -- the thread -----------------------------------------------------------------------------------------------------


class AbstractFetcherThread(ShutdownableThread, ABC):
    """Fetches partitions from `source_broker` until shut down (see the module docstring)."""

    def __init__(
        self,
        name: str,
        client_id: str,
        source_broker: BrokerEndPoint,
        failed_partitions: FailedPartitions,
        fetch_back_off_ms: int = 0,
        is_interruptible: bool = True,
        broker_topic_stats: Any = None,
        time: Time = Time.SYSTEM,
    ) -> None:
        super().__init__(name, is_interruptible)
        self.client_id = client_id
        self.source_broker = source_broker
        self.failed_partitions = failed_partitions
        self.fetch_back_off_ms = fetch_back_off_ms
        self.broker_topic_stats = broker_topic_stats
        self._time = time
        self._partition_states: PartitionStates[PartitionFetchState] = PartitionStates()
        # Kafka's ReentrantLock and its condition; RLock because the subclass's callbacks may re-enter.
        self.partition_map_lock = threading.RLock()
        self._partition_map_cond = threading.Condition(self.partition_map_lock)
        self.fetcher_stats = FetcherStats(client_id, source_broker.host, source_broker.port)
        self.fetcher_lag_stats = FetcherLagStats(client_id)

    # -- what the subclass provides ---------------------------------------------------------------------------------

    @abstractmethod
    def process_partition_data(
        self, topic_partition: TopicPartition, fetch_offset: int, partition_data: FetchData
    ) -> LogAppendInfo | None:
        """Appends the records fetched for a partition; returns what the append did."""

    @abstractmethod
    def truncate(self, topic_partition: TopicPartition, truncation_state: OffsetTruncationState) -> None: ...

    @abstractmethod
    def truncate_fully_and_start_at(self, topic_partition: TopicPartition, offset: int) -> None: ...

    @abstractmethod
    def build_fetch(
        self, partition_map: Mapping[TopicPartition, PartitionFetchState]
    ) -> ResultWithPartitions[ReplicaFetch | None]:
        """The next fetch for the partitions ready to fetch (None if there is nothing to send)."""

    @abstractmethod
    def latest_epoch(self, topic_partition: TopicPartition) -> int | None: ...

    @abstractmethod
    def log_start_offset(self, topic_partition: TopicPartition) -> int: ...

    @abstractmethod
    def log_end_offset(self, topic_partition: TopicPartition) -> int: ...

    @abstractmethod
    def end_offset_for_epoch(self, topic_partition: TopicPartition, epoch: int) -> OffsetAndEpoch | None: ...

    @abstractmethod
    def fetch_epoch_end_offsets(
        self, partitions: Mapping[TopicPartition, EpochData]
    ) -> dict[TopicPartition, EpochEndOffset]: ...

    @abstractmethod
    def fetch_from_leader(self, fetch_request: Builder[Any]) -> Mapping[TopicPartition, FetchData]: ...

    @abstractmethod
    def fetch_earliest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int: ...

    @abstractmethod
    def fetch_latest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int: ...

    @property
    @abstractmethod
    def is_offset_for_leader_epoch_supported(self) -> bool: ...

    @property
    @abstractmethod
    def is_truncation_on_fetch_supported(self) -> bool: ...

    # -- the loop ---------------------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        self.initiate_shutdown()
        with self.partition_map_lock:
            self._partition_map_cond.notify_all()
        self.await_shutdown()
        # The thread has stopped: nothing updates the metrics any more.
        self.fetcher_stats.unregister()
        self.fetcher_lag_stats.unregister()

    def do_work(self) -> None:
        self._maybe_truncate()
        self._maybe_fetch()

    def _maybe_fetch(self) -> None:
        with self.partition_map_lock:
            result = self.build_fetch(self._partition_states.partition_state_map())
            self._handle_partitions_with_errors(result.partitions_with_error, "maybeFetch")
            fetch_request_opt = result.result
            if fetch_request_opt is None:
                self.trace(
                    f"There are no active partitions. Back off for {self.fetch_back_off_ms} ms before sending a "
                    "fetch request"
                )
                self._partition_map_cond.wait(self.fetch_back_off_ms / 1000)
        if fetch_request_opt is not None:
            self._process_fetch_request(fetch_request_opt.partition_data, fetch_request_opt.fetch_request)

    def _handle_partitions_with_errors(self, partitions: Iterable[TopicPartition], method_name: str) -> None:
        partitions = list(partitions)
        if partitions:
            self.debug(f"Handling errors in {method_name} for partitions {_set_str(partitions)}")
            self.delay_partitions(partitions, self.fetch_back_off_ms)

    def _fetch_truncating_partitions(self) -> tuple[dict[TopicPartition, EpochData], set[TopicPartition]]:
        """The truncating partitions whose latest epoch is known (to ask the leader for its end offset), and those
        whose is not (to truncate to the high watermark)."""
        partitions_with_epochs: dict[TopicPartition, EpochData] = {}
        partitions_without_epochs: set[TopicPartition] = set()
        with self.partition_map_lock:
            for tp, state in self._partition_states.partition_state_map().items():
                if state.is_truncating:
                    epoch = self.latest_epoch(tp)
                    if epoch is not None and self.is_offset_for_leader_epoch_supported:
                        partitions_with_epochs[tp] = OffsetForLeaderEpochRequestData.OffsetForLeaderPartition(
                            partition=tp.partition,
                            current_leader_epoch=state.current_leader_epoch,
                            leader_epoch=epoch,
                        )
                    else:
                        partitions_without_epochs.add(tp)
        return partitions_with_epochs, partitions_without_epochs

    def _maybe_truncate(self) -> None:
        partitions_with_epochs, partitions_without_epochs = self._fetch_truncating_partitions()
        if partitions_with_epochs:
            self._truncate_to_epoch_end_offsets(partitions_with_epochs)
        if partitions_without_epochs:
            self.truncate_to_high_watermark(partitions_without_epochs)

    def _do_truncate(self, topic_partition: TopicPartition, truncation_state: OffsetTruncationState) -> bool:
        try:
            self.truncate(topic_partition, truncation_state)
            return True
        except KafkaStorageException as e:
            self.error(f"Failed to truncate {topic_partition} at offset {truncation_state.offset}", e)
            self._mark_partition_failed(topic_partition)
            return False
        except Exception as t:
            self.error(
                f"Unexpected error occurred during truncation for {topic_partition} at offset "
                f"{truncation_state.offset}",
                t,
            )
            self._mark_partition_failed(topic_partition)
            return False

    def _truncate_to_epoch_end_offsets(self, latest_epochs_for_partitions: Mapping[TopicPartition, EpochData]) -> None:
        """Asks the leader for the end offsets of the partitions' latest epochs (without the lock), then truncates
        under the lock those whose leader epoch did not change meanwhile."""
        end_offsets = self.fetch_epoch_end_offsets(latest_epochs_for_partitions)
        with self.partition_map_lock:
            epoch_end_offsets: dict[TopicPartition, EpochEndOffset] = {}
            for tp, epoch_end_offset in end_offsets.items():
                partition_epoch_request = latest_epochs_for_partitions.get(tp)
                if partition_epoch_request is None:
                    raise RuntimeError(
                        f"Leader replied with partition {tp} not requested in OffsetsForLeaderEpoch request"
                    )
                cur_partition_state = self._partition_states.state_value(tp)
                if (
                    cur_partition_state is not None
                    and partition_epoch_request.current_leader_epoch == cur_partition_state.current_leader_epoch
                ):
                    epoch_end_offsets[tp] = epoch_end_offset
            result = self._maybe_truncate_to_epoch_end_offsets(epoch_end_offsets, latest_epochs_for_partitions)
            self._handle_partitions_with_errors(result.partitions_with_error, "truncateToEpochEndOffsets")
            self._update_fetch_offset_and_maybe_mark_truncation_complete(result.result)

    def truncate_on_fetch_response(self, epoch_end_offsets: Mapping[TopicPartition, EpochEndOffset]) -> None:
        """Truncates the partitions whose fetch named a diverging epoch."""
        with self.partition_map_lock:
            result = self._maybe_truncate_to_epoch_end_offsets(epoch_end_offsets, {})
            self._handle_partitions_with_errors(result.partitions_with_error, "truncateOnFetchResponse")
            self._update_fetch_offset_and_maybe_mark_truncation_complete(result.result)

    def truncate_to_high_watermark(self, partitions: Iterable[TopicPartition]) -> None:
        """Truncates partitions whose epochs are unknown to their fetch offset (the high watermark they were added
        with)."""
        with self.partition_map_lock:
            fetch_offsets: dict[TopicPartition, OffsetTruncationState] = {}
            for tp in partitions:
                partition_state = self._partition_states.state_value(tp)
                if partition_state is not None:
                    high_watermark = partition_state.fetch_offset
                    truncation_state = OffsetTruncationState(high_watermark, truncation_completed=True)
                    self.info(f"Truncating partition {tp} to local high watermark {high_watermark}")
                    if self._do_truncate(tp, truncation_state):
                        fetch_offsets[tp] = truncation_state
            self._update_fetch_offset_and_maybe_mark_truncation_complete(fetch_offsets)

    def _maybe_truncate_to_epoch_end_offsets(
        self,
        fetched_epochs: Mapping[TopicPartition, EpochEndOffset],
        latest_epochs_for_partitions: Mapping[TopicPartition, EpochData],
    ) -> ResultWithPartitions[dict[TopicPartition, OffsetTruncationState]]:
        fetch_offsets: dict[TopicPartition, OffsetTruncationState] = {}
        partitions_with_error: set[TopicPartition] = set()
        for tp, leader_epoch_offset in fetched_epochs.items():
            if self._partition_states.contains(tp):
                error = Errors.for_code(leader_epoch_offset.error_code)
                if error is Errors.NONE:
                    offset_truncation_state = self._get_offset_truncation_state(tp, leader_epoch_offset)
                    if self._do_truncate(tp, offset_truncation_state):
                        fetch_offsets[tp] = offset_truncation_state
                elif error is Errors.FENCED_LEADER_EPOCH:
                    requested = latest_epochs_for_partitions.get(tp)
                    current_leader_epoch = None if requested is None else requested.current_leader_epoch
                    if self._on_partition_fenced(tp, current_leader_epoch):
                        partitions_with_error.add(tp)
                else:
                    self.info(
                        f"Retrying leaderEpoch request for partition {tp} as the leader reported an error: {error.name}"
                    )
                    partitions_with_error.add(tp)
            else:
                # Removed from this thread while the request was out; it may belong to another thread by now.
                self.trace(
                    f"Ignoring epoch offsets for partition {tp} since it has been removed from this fetcher thread."
                )
        return ResultWithPartitions(fetch_offsets, frozenset(partitions_with_error))

    def _on_partition_fenced(self, tp: TopicPartition, request_epoch: int | None) -> bool:
        """A fenced partition whose epoch has not changed since the request waits for a new LeaderAndIsr (marked
        failed, False); one whose epoch has moved on is retried (True)."""
        with self.partition_map_lock:
            current_fetch_state = self._partition_states.state_value(tp)
            if current_fetch_state is None:
                return False
            current_leader_epoch = current_fetch_state.current_leader_epoch
            if request_epoch is not None and request_epoch == current_leader_epoch:
                self.info(
                    f"Partition {tp} has an older epoch ({current_leader_epoch}) than the current leader. Will await "
                    "the new LeaderAndIsr state before resuming fetching."
                )
                self._mark_partition_failed(tp)
                return False
            self.info(
                f"Partition {tp} has an new epoch ({current_leader_epoch}) than the current leader. retry the "
                "partition later"
            )
            return True

    def _process_fetch_request(
        self, session_partitions: Mapping[TopicPartition, PartitionData], fetch_request: Builder[Any]
    ) -> None:
        partitions_with_error: set[TopicPartition] = set()
        diverging_end_offsets: dict[TopicPartition, EpochEndOffset] = {}
        response_data: Mapping[TopicPartition, FetchData] = {}
        try:
            if self.is_trace_enabled():
                self.trace(f"Sending fetch request {fetch_request}")
            response_data = self.fetch_from_leader(fetch_request)
        except Exception as t:
            if self.is_running:
                self.warn(f"Error in response for fetch request {fetch_request}", t)
                with self.partition_map_lock:
                    partitions_with_error.update(self._partition_states.partition_set())
                    # The partitions are delayed below as well, so the pause is about twice the backoff (as Kafka's).
                    self._partition_map_cond.wait(self.fetch_back_off_ms / 1000)
        self.fetcher_stats.request_rate.mark()

        if response_data:
            with self.partition_map_lock:
                for topic_partition, partition_data in response_data.items():
                    current_fetch_state = self._partition_states.state_value(topic_partition)
                    if current_fetch_state is None:
                        continue
                    # The partition may have been removed and added again, or truncated, while the request was out:
                    # only a response to the current fetch position is used.
                    fetch_partition_data = session_partitions.get(topic_partition)
                    if (
                        fetch_partition_data is None
                        or fetch_partition_data.fetch_offset != current_fetch_state.fetch_offset
                        or not current_fetch_state.is_ready_for_fetch
                    ):
                        continue
                    self._process_partition_response(
                        topic_partition,
                        partition_data,
                        current_fetch_state,
                        fetch_partition_data,
                        partitions_with_error,
                        diverging_end_offsets,
                    )

        if diverging_end_offsets:
            self.truncate_on_fetch_response(diverging_end_offsets)
        if partitions_with_error:
            self._handle_partitions_with_errors(partitions_with_error, "processFetchRequest")

    def _process_partition_response(
        self,
        topic_partition: TopicPartition,
        partition_data: FetchData,
        current_fetch_state: PartitionFetchState,
        fetch_partition_data: PartitionData,
        partitions_with_error: set[TopicPartition],
        diverging_end_offsets: dict[TopicPartition, EpochEndOffset],
    ) -> None:
        error = Errors.for_code(partition_data.error_code)
        if error is Errors.NONE:
            try:
                diverging_epoch = partition_data.diverging_epoch
                if self.is_truncation_on_fetch_supported and diverging_epoch is not None and diverging_epoch.epoch >= 0:
                    # Truncate first; the watermarks move with the next fetch, once the log agrees with the leader.
                    diverging_end_offsets[topic_partition] = OffsetForLeaderEpochResponseData.EpochEndOffset(
                        partition=topic_partition.partition,
                        error_code=Errors.NONE.code,
                        leader_epoch=diverging_epoch.epoch,
                        end_offset=diverging_epoch.end_offset,
                    )
                else:
                    log_append_info = self.process_partition_data(
                        topic_partition, current_fetch_state.fetch_offset, partition_data
                    )
                    if log_append_info is not None:
                        valid_bytes = log_append_info.valid_bytes
                        next_offset = (
                            log_append_info.last_offset + 1 if valid_bytes > 0 else current_fetch_state.fetch_offset
                        )
                        lag = max(0, partition_data.high_watermark - next_offset)
                        self.fetcher_lag_stats.get_and_maybe_put(topic_partition).lag = lag
                        # A ReplicaAlterLogDirsThread may have removed the partition while processing it.
                        if valid_bytes > 0 and self._partition_states.contains(topic_partition):
                            new_fetch_state = PartitionFetchState(
                                next_offset,
                                lag,
                                current_fetch_state.current_leader_epoch,
                                None,
                                Fetching(),
                                log_append_info.last_leader_epoch,
                            )
                            self._partition_states.update_and_move_to_end(topic_partition, new_fetch_state)
                            self.fetcher_stats.byte_rate.mark(valid_bytes)
            except (CorruptRecordException, InvalidRecordException) as ime:
                # A corrupt batch (possibly a transient state of the leader's log) must not stop the other
                # partitions: log it and fetch again later.
                self.error(
                    f"Found invalid messages during fetch for partition {topic_partition} offset "
                    f"{current_fetch_state.fetch_offset}",
                    ime,
                )
                partitions_with_error.add(topic_partition)
            except KafkaStorageException as e:
                self.error(
                    f"Error while processing data for partition {topic_partition} at offset "
                    f"{current_fetch_state.fetch_offset}",
                    e,
                )
                self._mark_partition_failed(topic_partition)
            except Exception as t:
                self.error(
                    f"Unexpected error occurred while processing data for partition {topic_partition} at offset "
                    f"{current_fetch_state.fetch_offset}",
                    t,
                )
                self._mark_partition_failed(topic_partition)
        elif error is Errors.OFFSET_OUT_OF_RANGE:
            if self._handle_out_of_range_error(
                topic_partition, current_fetch_state, fetch_partition_data.current_leader_epoch
            ):
                partitions_with_error.add(topic_partition)
        elif error is Errors.UNKNOWN_LEADER_EPOCH:
            self.debug(
                f"Remote broker has a smaller leader epoch for partition {topic_partition} than this replica's "
                f"current leader epoch of {current_fetch_state.current_leader_epoch}."
            )
            partitions_with_error.add(topic_partition)
        elif error is Errors.FENCED_LEADER_EPOCH:
            if self._on_partition_fenced(topic_partition, fetch_partition_data.current_leader_epoch):
                partitions_with_error.add(topic_partition)
        elif error is Errors.NOT_LEADER_OR_FOLLOWER:
            self.debug(
                f"Remote broker is not the leader for partition {topic_partition}, which could indicate that the "
                "partition is being moved"
            )
            partitions_with_error.add(topic_partition)
        elif error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
            self.warn(
                f"Received {error.name} from the leader for partition {topic_partition}. This error may be "
                "returned transiently when the partition is being created or deleted, but it is not expected to "
                "persist."
            )
            partitions_with_error.add(topic_partition)
        else:
            self.error(
                f"Error for partition {topic_partition} at offset {current_fetch_state.fetch_offset}",
                error.exception(),
            )
            partitions_with_error.add(topic_partition)

    def mark_partitions_for_truncation(self, topic_partition: TopicPartition, truncation_offset: int) -> None:
        """Puts a partition back into truncation at `truncation_offset` at most (for future replicas)."""
        with self.partition_map_lock:
            state = self._partition_states.state_value(topic_partition)
            if state is not None:
                new_state = PartitionFetchState(
                    min(truncation_offset, state.fetch_offset),
                    state.lag,
                    state.current_leader_epoch,
                    state.delay,
                    Truncating(),
                    None,
                )
                self._partition_states.update_and_move_to_end(topic_partition, new_state)
                self._partition_map_cond.notify_all()

    def _mark_partition_failed(self, topic_partition: TopicPartition) -> None:
        with self.partition_map_lock:
            self.failed_partitions.add(topic_partition)
            self.remove_partitions({topic_partition})
        self.warn(f"Partition {topic_partition} marked as failed")

    def _partition_fetch_state(
        self, tp: TopicPartition, initial_fetch_state: InitialFetchState, current_state: PartitionFetchState | None
    ) -> PartitionFetchState:
        """The state a partition starts in. A partition re-added at the same leader epoch keeps its state. From IBP
        2.7 a partition whose log knows epochs fetches at once and truncates on a diverging epoch; otherwise it
        truncates first."""
        if current_state is not None and current_state.current_leader_epoch == initial_fetch_state.current_leader_epoch:
            return current_state
        if initial_fetch_state.init_offset < 0:
            return self._fetch_offset_and_truncate(tp, initial_fetch_state.current_leader_epoch)
        if self.is_truncation_on_fetch_supported:
            # With an old message format there are no epochs: truncate to the high watermark.
            last_fetched_epoch = self.latest_epoch(tp)
            state: ReplicaState = Fetching() if last_fetched_epoch is not None else Truncating()
            return PartitionFetchState(
                initial_fetch_state.init_offset,
                None,
                initial_fetch_state.current_leader_epoch,
                None,
                state,
                last_fetched_epoch,
            )
        return PartitionFetchState(
            initial_fetch_state.init_offset, None, initial_fetch_state.current_leader_epoch, None, Truncating(), None
        )

    def add_partitions(self, initial_fetch_states: Mapping[TopicPartition, InitialFetchState]) -> set[TopicPartition]:
        with self.partition_map_lock:
            self.failed_partitions.remove_all(initial_fetch_states.keys())
            for tp, initial_fetch_state in initial_fetch_states.items():
                current_state = self._partition_states.state_value(tp)
                updated_state = self._partition_fetch_state(tp, initial_fetch_state, current_state)
                self._partition_states.update_and_move_to_end(tp, updated_state)
            self._partition_map_cond.notify_all()
            return set(initial_fetch_states)

    def _update_fetch_offset_and_maybe_mark_truncation_complete(
        self, fetch_offsets: Mapping[TopicPartition, OffsetTruncationState]
    ) -> None:
        """Moves each truncated partition's fetch offset to where it was truncated, and to Fetching if that was the
        final truncation (always from IBP 2.7: a remaining divergence shows in the next fetch response)."""
        new_states: dict[TopicPartition, PartitionFetchState] = {}
        for tp, current_fetch_state in self._partition_states.partition_state_map().items():
            offset_truncation_state = fetch_offsets.get(tp)
            if offset_truncation_state is None:
                new_states[tp] = current_fetch_state
                continue
            last_fetched_epoch = self.latest_epoch(tp)
            state: ReplicaState = (
                Fetching()
                if self.is_truncation_on_fetch_supported or offset_truncation_state.truncation_completed
                else Truncating()
            )
            new_states[tp] = PartitionFetchState(
                offset_truncation_state.offset,
                current_fetch_state.lag,
                current_fetch_state.current_leader_epoch,
                current_fetch_state.delay,
                state,
                last_fetched_epoch,
            )
        self._partition_states.set(new_states)

    def _get_offset_truncation_state(
        self, tp: TopicPartition, leader_epoch_offset: EpochEndOffset
    ) -> OffsetTruncationState:
        """Where to truncate a partition given the leader's end offset for the epoch asked about:
        - the leader knows no such epoch (undefined offset): the fetch offset (the high watermark);
        - the leader answered an offset without an epoch (OffsetsForLeaderEpoch v0): that offset, if below ours;
        - the leader answered an epoch this log does not have: the end of our largest epoch below it, and ask again;
        - otherwise the smallest of the leader's end offset, ours for that epoch, and our log end.
        """
        with self.partition_map_lock:
            state = self._partition_states.state_value(tp)
            assert state is not None, f"no fetch state for {tp}"
            if leader_epoch_offset.end_offset == UNDEFINED_EPOCH_OFFSET:
                self.warn(
                    f"Based on replica's leader epoch, leader replied with an unknown offset in {tp}. The initial "
                    f"fetch offset {state.fetch_offset} will be used for truncation."
                )
                return OffsetTruncationState(state.fetch_offset, truncation_completed=True)
            if leader_epoch_offset.leader_epoch == UNDEFINED_EPOCH:
                self.warn(
                    "Leader or replica is on protocol version where leader epoch is not considered in the "
                    f"OffsetsForLeaderEpoch response. The leader's offset {leader_epoch_offset.end_offset} will be "
                    f"used for truncation in {tp}."
                )
                return OffsetTruncationState(
                    min(leader_epoch_offset.end_offset, self.log_end_offset(tp)), truncation_completed=True
                )
            replica_end_offset = self.log_end_offset(tp)
            found = self.end_offset_for_epoch(tp, leader_epoch_offset.leader_epoch)
            if found is None:
                # This log kept no epochs that far back (written before epochs, or a new replica): the leader's
                # offset is safe to use since its epoch is below ours.
                self.warn(
                    f"Based on replica's leader epoch, leader replied with epoch {leader_epoch_offset.leader_epoch} "
                    f"below any replica's tracked epochs for {tp}. The leader's offset only "
                    f"{leader_epoch_offset.end_offset} will be used for truncation."
                )
                return OffsetTruncationState(
                    min(leader_epoch_offset.end_offset, replica_end_offset), truncation_completed=True
                )
            follower_end_offset, follower_epoch = found.offset, found.leader_epoch
            if follower_epoch != leader_epoch_offset.leader_epoch:
                intermediate_offset_to_truncate_to = min(follower_end_offset, replica_end_offset)
                self.info(
                    f"Based on replica's leader epoch, leader replied with epoch {leader_epoch_offset.leader_epoch} "
                    f"unknown to the replica for {tp}. Will truncate to {intermediate_offset_to_truncate_to} and send "
                    "another leader epoch request to the leader."
                )
                return OffsetTruncationState(intermediate_offset_to_truncate_to, truncation_completed=False)
            offset_to_truncate_to = min(follower_end_offset, leader_epoch_offset.end_offset)
            return OffsetTruncationState(min(offset_to_truncate_to, replica_end_offset), truncation_completed=True)

    def _handle_out_of_range_error(
        self, topic_partition: TopicPartition, fetch_state: PartitionFetchState, request_epoch: int | None
    ) -> bool:
        """Resets an out-of-range partition from the leader's offsets; True if that failed in a way to retry after
        a backoff, False if it succeeded or the partition was fenced and must await a new LeaderAndIsr."""
        try:
            new_fetch_state = self._fetch_offset_and_truncate(topic_partition, fetch_state.current_leader_epoch)
            self._partition_states.update_and_move_to_end(topic_partition, new_fetch_state)
            self.info(
                f"Current offset {fetch_state.fetch_offset} for partition {topic_partition} is out of range, which "
                f"typically implies a leader change. Reset fetch offset to {new_fetch_state.fetch_offset}"
            )
            return False
        except FencedLeaderEpochException:
            return self._on_partition_fenced(topic_partition, request_epoch)
        except (UnknownTopicOrPartitionException, UnknownLeaderEpochException, NotLeaderOrFollowerException) as e:
            self.info(f"Could not fetch offset for {topic_partition} due to error: {e}")
            return True
        except Exception as e:
            self.error(f"Error getting offset for partition {topic_partition}", e)
            return True

    def _fetch_offset_and_truncate(
        self, topic_partition: TopicPartition, current_leader_epoch: int
    ) -> PartitionFetchState:
        """The fetch state of a partition whose offset the leader does not have.

        If the leader's log ends before ours (an unclean election made a replica with less data leader), truncate to
        the leader's end. Otherwise fetch from the larger of our log end and the leader's log start, and if the
        leader's log starts after ours ends (we were away while it deleted old segments) start our log over there.
        """
        replica_end_offset = self.log_end_offset(topic_partition)
        leader_end_offset = self.fetch_latest_offset_from_leader(topic_partition, current_leader_epoch)
        if leader_end_offset < replica_end_offset:
            self.warn(
                f"Reset fetch offset for partition {topic_partition} from {replica_end_offset} to current leader's "
                f"latest offset {leader_end_offset}"
            )
            self.truncate(topic_partition, OffsetTruncationState(leader_end_offset, truncation_completed=True))
            self.fetcher_lag_stats.get_and_maybe_put(topic_partition).lag = 0
            return PartitionFetchState(
                leader_end_offset, 0, current_leader_epoch, None, Fetching(), self.latest_epoch(topic_partition)
            )
        leader_start_offset = self.fetch_earliest_offset_from_leader(topic_partition, current_leader_epoch)
        self.warn(
            f"Reset fetch offset for partition {topic_partition} from {replica_end_offset} to current leader's "
            f"start offset {leader_start_offset}"
        )
        offset_to_fetch = max(leader_start_offset, replica_end_offset)
        if leader_start_offset > replica_end_offset:
            self.truncate_fully_and_start_at(topic_partition, leader_start_offset)
        initial_lag = leader_end_offset - offset_to_fetch
        self.fetcher_lag_stats.get_and_maybe_put(topic_partition).lag = initial_lag
        return PartitionFetchState(
            offset_to_fetch,
            initial_lag,
            current_leader_epoch,
            None,
            Fetching(),
            self.latest_epoch(topic_partition),
        )

    def delay_partitions(self, partitions: Iterable[TopicPartition], delay: int) -> None:
        with self.partition_map_lock:
            for partition in partitions:
                current_fetch_state = self._partition_states.state_value(partition)
                if current_fetch_state is not None and not current_fetch_state.is_delayed:
                    self._partition_states.update_and_move_to_end(
                        partition,
                        PartitionFetchState(
                            current_fetch_state.fetch_offset,
                            current_fetch_state.lag,
                            current_fetch_state.current_leader_epoch,
                            DelayedItem(delay, self._time),
                            current_fetch_state.state,
                            current_fetch_state.last_fetched_epoch,
                        ),
                    )
            self._partition_map_cond.notify_all()

    def remove_partitions(
        self, topic_partitions: Iterable[TopicPartition]
    ) -> dict[TopicPartition, PartitionFetchState]:
        with self.partition_map_lock:
            removed: dict[TopicPartition, PartitionFetchState] = {}
            for topic_partition in topic_partitions:
                state = self._partition_states.state_value(topic_partition)
                self._partition_states.remove(topic_partition)
                self.fetcher_lag_stats.unregister_partition(topic_partition)
                if state is not None:
                    removed[topic_partition] = state
            return removed

    @property
    def partition_count(self) -> int:
        with self.partition_map_lock:
            return self._partition_states.size()

    @property
    def partitions(self) -> set[TopicPartition]:
        with self.partition_map_lock:
            return self._partition_states.partition_set()

    def fetch_state(self, topic_partition: TopicPartition) -> PartitionFetchState | None:
        with self.partition_map_lock:
            return self._partition_states.state_value(topic_partition)

    @staticmethod
    def to_memory_records(records: Any) -> MemoryRecords:
        """The fetched records as MemoryRecords (a FileRecords is read into memory)."""
        if records is None:
            return MemoryRecords.EMPTY
        if isinstance(records, MemoryRecords):
            return records
        if isinstance(records, FileRecords):
            return MemoryRecords.readable_records(records.read_bytes())
        return MemoryRecords.readable_records(bytes(records))


def _set_str(partitions: Iterable[TopicPartition]) -> str:
    return "Set(" + ", ".join(str(tp) for tp in partitions) + ")"


# -- metrics -----------------------------------------------------------------------------------------------------------

FETCHER_METRICS_CONSUMER_LAG: Final = "ConsumerLag"
FETCHER_METRICS_REQUESTS_PER_SEC: Final = "RequestsPerSec"
FETCHER_METRICS_BYTES_PER_SEC: Final = "BytesPerSec"


class FetcherLagMetrics(KafkaMetricsGroup):
    """The ConsumerLag gauge of one partition a fetcher thread fetches (-1 until the first fetch)."""

    def __init__(self, client_id: str, topic_partition: TopicPartition) -> None:
        self._lag = -1
        self._tags = {
            "clientId": client_id,
            "topic": topic_partition.topic,
            "partition": str(topic_partition.partition),
        }
        self.new_gauge(FETCHER_METRICS_CONSUMER_LAG, lambda: self._lag, self._tags)

    @property
    def lag(self) -> int:
        return self._lag

    @lag.setter
    def lag(self, new_lag: int) -> None:
        self._lag = new_lag  # one reference store: atomic, like Kafka's AtomicLong set

    def unregister(self) -> None:
        self.remove_metric(FETCHER_METRICS_CONSUMER_LAG, self._tags)


class FetcherLagStats:
    """The lag gauges of a fetcher thread's partitions."""

    def __init__(self, client_id: str) -> None:
        self._client_id = client_id
        self.stats: Pool[TopicPartition, FetcherLagMetrics] = Pool(lambda tp: FetcherLagMetrics(self._client_id, tp))

    def get_and_maybe_put(self, topic_partition: TopicPartition) -> FetcherLagMetrics:
        return self.stats.get_and_maybe_put(topic_partition)

    def unregister_partition(self, topic_partition: TopicPartition) -> None:
        lag_metrics = self.stats.remove(topic_partition)
        if lag_metrics is not None:
            lag_metrics.unregister()

    def unregister(self) -> None:
        for topic_partition in list(self.stats.keys):
            self.unregister_partition(topic_partition)


class FetcherStats(KafkaMetricsGroup):
    """A fetcher thread's request and byte rates."""

    def __init__(self, client_id: str, broker_host: str, broker_port: int) -> None:
        self.tags = {"clientId": client_id, "brokerHost": broker_host, "brokerPort": str(broker_port)}
        self.request_rate: Meter = self.new_meter(
            FETCHER_METRICS_REQUESTS_PER_SEC, "requests", TimeUnit.SECONDS, self.tags
        )
        self.byte_rate: Meter = self.new_meter(FETCHER_METRICS_BYTES_PER_SEC, "bytes", TimeUnit.SECONDS, self.tags)

    def unregister(self) -> None:
        self.remove_metric(FETCHER_METRICS_REQUESTS_PER_SEC, self.tags)
        self.remove_metric(FETCHER_METRICS_BYTES_PER_SEC, self.tags)
