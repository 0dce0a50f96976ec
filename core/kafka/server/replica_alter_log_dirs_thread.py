"""Port of core/src/main/scala/kafka/server/ReplicaAlterLogDirsThread.scala (Kafka 2.8).

A thread, `ReplicaAlterLogDirsThread-{fetcherId}`, that moves replicas between the log directories of this broker
(AlterReplicaLogDirs): it copies each partition's current log into its future log (`topic-partition.<uuid>-future`
in the destination directory) by reading the local log as a fetch of replica FUTURE_LOCAL_REPLICA_ID (no network),
and appends what it reads to the future log with the same offsets and epochs. When the future log has caught up
with the current one, the Partition swaps them (`maybe_replace_current_with_future_replica`): the future directory
is renamed into place and the old one is renamed `-delete` and removed later. The partition then leaves this thread.

One partition is copied at a time, the ready partitions taken in order of topic then partition, so that each move
finishes as soon as possible. The `alter_log_dirs` replication quota
(`replica.alter.log.dirs.io.max.bytes.per.second`) holds every copy back while it is exceeded.

Truncation follows the leader-epoch protocol of the replica fetcher, with the current log playing the leader: a
future log that missed a truncation of the current log (its directory was offline meanwhile) cuts its divergent
tail this way. Truncation on fetch (diverging epochs in fetch responses) is not used, as in Kafka.

# PORT: the fetch is not encoded as a FetchRequest: the builder's partitions and limits are handed straight to
# ReplicaManager.fetch_messages, which is what Kafka's thread does with the request it builds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.clients.consumer.internals.request_builders import FetchRequestBuilder
from kafka.cluster.broker import BrokerEndPoint
from kafka.common.errors import KafkaStorageException
from kafka.common.message import FetchResponseData, OffsetForLeaderEpochResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.fetch_request import FUTURE_LOCAL_REPLICA_ID, PartitionData
from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.log.log import OffsetAndEpoch
from kafka.log.log_append_info import LeaderOffsetIncremented, LogAppendInfo
from kafka.server.abstract_fetcher_manager import FailedPartitions, InitialFetchState
from kafka.server.abstract_fetcher_thread import (
    AbstractFetcherThread,
    EpochData,
    EpochEndOffset,
    FetchData,
    OffsetTruncationState,
    PartitionFetchState,
    ReplicaFetch,
    ResultWithPartitions,
)
from kafka.server.kafka_config import KafkaConfig

if TYPE_CHECKING:
    from kafka.server.replica_manager import FetchPartitionData, ReplicaManager
    from kafka.server.replication_quota_manager import ReplicaQuota


class ReplicaAlterLogDirsThread(AbstractFetcherThread):
    """Copies current logs into their future logs on this broker (see the module docstring)."""

    logger_name = "kafka.server.ReplicaAlterLogDirsThread"

    def __init__(
        self,
        name: str,
        source_broker: BrokerEndPoint,
        broker_config: KafkaConfig,
        failed_partitions: FailedPartitions,
        replica_mgr: ReplicaManager,
        quota: ReplicaQuota,
        broker_topic_stats: Any,
        time: Time = Time.SYSTEM,
    ) -> None:
        super().__init__(
            name,
            name,
            source_broker,
            failed_partitions,
            fetch_back_off_ms=broker_config.replica_fetch_backoff_ms,
            is_interruptible=False,
            broker_topic_stats=broker_topic_stats,
            time=time,
        )
        self._replica_mgr = replica_mgr
        self._quota = quota
        self._replica_id = broker_config.broker_id
        self._max_bytes: int = broker_config.replica_fetch_response_max_bytes
        self._fetch_size: int = broker_config.replica_fetch_max_bytes
        self._in_progress_partition: TopicPartition | None = None

    # -- the future log's offsets -------------------------------------------------------------------------------

    def latest_epoch(self, topic_partition: TopicPartition) -> int | None:
        return self._replica_mgr.future_local_log_or_exception(topic_partition).latest_epoch()

    def log_start_offset(self, topic_partition: TopicPartition) -> int:
        return int(self._replica_mgr.future_local_log_or_exception(topic_partition).log_start_offset)

    def log_end_offset(self, topic_partition: TopicPartition) -> int:
        return int(self._replica_mgr.future_local_log_or_exception(topic_partition).log_end_offset)

    def end_offset_for_epoch(self, topic_partition: TopicPartition, epoch: int) -> OffsetAndEpoch | None:
        return self._replica_mgr.future_local_log_or_exception(topic_partition).end_offset_for_epoch(epoch)

    # -- reading the current log --------------------------------------------------------------------------------

    def fetch_from_leader(self, fetch_request: Builder[Any]) -> Mapping[TopicPartition, FetchData]:
        """Reads the current logs with ReplicaManager.fetch_messages, answered at once (no wait)."""
        assert isinstance(fetch_request, FetchRequestBuilder)
        fetch_infos = list(fetch_request.to_fetch.items())
        partition_data: dict[TopicPartition, FetchData] | None = None

        def process_response_callback(response_partition_data: list[tuple[TopicPartition, FetchPartitionData]]) -> None:
            nonlocal partition_data
            partition_data = {}
            for tp, data in response_partition_data:
                partition_data[tp] = FetchResponseData.PartitionData(
                    partition_index=tp.partition,
                    error_code=data.error.code,
                    high_watermark=data.high_watermark,
                    last_stable_offset=data.last_stable_offset if data.last_stable_offset is not None else -1,
                    log_start_offset=data.log_start_offset,
                    aborted_transactions=data.aborted_transactions,
                    records=data.records,
                )

        self._replica_mgr.fetch_messages(
            0,  # no wait: the callback runs before fetch_messages returns
            FUTURE_LOCAL_REPLICA_ID,
            fetch_request.min_bytes,
            fetch_request.max_bytes,
            False,
            fetch_infos,
            None,  # unbounded: the alter_log_dirs quota is applied in build_fetch
            process_response_callback,
            fetch_request.isolation_level,
            None,
        )
        if partition_data is None:
            raise RuntimeError(f"Failed to fetch data for partitions {','.join(str(tp) for tp, _ in fetch_infos)}")
        return partition_data

    def process_partition_data(
        self, topic_partition: TopicPartition, fetch_offset: int, partition_data: FetchData
    ) -> LogAppendInfo | None:
        """Appends what was read to the future log, takes on the current log's watermarks, and swaps the logs once
        the future one has caught up."""
        partition = self._replica_mgr.get_partition_or_exception(topic_partition)
        future_log = partition.future_local_log_or_exception()
        records = self.to_memory_records(partition_data.records)

        if fetch_offset != future_log.log_end_offset:
            raise RuntimeError(
                f"Offset mismatch for the future replica {topic_partition}: fetched offset = {fetch_offset}, log end "
                f"offset = {future_log.log_end_offset}."
            )

        log_append_info = (
            partition.append_records_to_follower_or_future_replica(records, is_future=True)
            if records.size_in_bytes() > 0
            else None
        )
        future_log.update_high_watermark(partition_data.high_watermark)
        future_log.maybe_increment_log_start_offset(partition_data.log_start_offset, LeaderOffsetIncremented())

        if partition.maybe_replace_current_with_future_replica():
            self.remove_partitions({topic_partition})

        self._quota.record(records.size_in_bytes())
        return log_append_info

    def add_partitions(self, initial_fetch_states: Mapping[TopicPartition, InitialFetchState]) -> set[TopicPartition]:
        with self.partition_map_lock:
            # A move may have finished just before: only partitions that still have a future log are added.
            filtered_fetch_states = {
                tp: state for tp, state in initial_fetch_states.items() if self._replica_mgr.future_log_exists(tp)
            }
            return super().add_partitions(filtered_fetch_states)

    def fetch_earliest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        partition = self._replica_mgr.get_partition_or_exception(topic_partition)
        return int(partition.local_log_or_exception().log_start_offset)

    def fetch_latest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        partition = self._replica_mgr.get_partition_or_exception(topic_partition)
        return int(partition.local_log_or_exception().log_end_offset)

    def fetch_epoch_end_offsets(
        self, partitions: Mapping[TopicPartition, EpochData]
    ) -> dict[TopicPartition, EpochEndOffset]:
        """The current log's end offset of each requested epoch (the future log's latest)."""
        result: dict[TopicPartition, EpochEndOffset] = {}
        for tp, epoch_data in partitions.items():
            try:
                if epoch_data.leader_epoch == UNDEFINED_EPOCH:
                    end_offset = OffsetForLeaderEpochResponseData.EpochEndOffset(
                        partition=tp.partition, error_code=Errors.NONE.code
                    )
                else:
                    partition = self._replica_mgr.get_partition_or_exception(tp)
                    current_leader_epoch = (
                        None if epoch_data.current_leader_epoch < 0 else epoch_data.current_leader_epoch
                    )
                    end_offset = partition.last_offset_for_leader_epoch(
                        current_leader_epoch, epoch_data.leader_epoch, fetch_only_from_leader=False
                    )
                result[tp] = end_offset
            except Exception as t:
                self.warn(f"Error when getting EpochEndOffset for {tp}", t)
                result[tp] = OffsetForLeaderEpochResponseData.EpochEndOffset(
                    partition=tp.partition, error_code=Errors.for_exception(t).code
                )
        return result

    @property
    def is_offset_for_leader_epoch_supported(self) -> bool:
        return True

    @property
    def is_truncation_on_fetch_supported(self) -> bool:
        return False

    def truncate(self, topic_partition: TopicPartition, truncation_state: OffsetTruncationState) -> None:
        """Truncates the future log. Its first fetch offset is the one the current log was truncated to when that
        happened last (mark_partitions_for_truncation), else the future log's high watermark, and the epoch
        exchange with the current log finds the common prefix of both."""
        partition = self._replica_mgr.get_partition_or_exception(topic_partition)
        partition.truncate_to(truncation_state.offset, is_future=True)

    def truncate_fully_and_start_at(self, topic_partition: TopicPartition, offset: int) -> None:
        partition = self._replica_mgr.get_partition_or_exception(topic_partition)
        partition.truncate_fully_and_start_at(offset, is_future=True)

    # -- building the fetch -------------------------------------------------------------------------------------

    @staticmethod
    def _next_ready_partition(
        partition_map: Mapping[TopicPartition, PartitionFetchState],
    ) -> tuple[TopicPartition, PartitionFetchState] | None:
        ready = [(tp, state) for tp, state in partition_map.items() if state.is_ready_for_fetch]
        if not ready:
            return None
        return min(ready, key=lambda item: (item[0].topic, item[0].partition))

    def _select_partition_to_fetch(
        self, partition_map: Mapping[TopicPartition, PartitionFetchState]
    ) -> tuple[TopicPartition, PartitionFetchState] | None:
        """The partition being copied while it stays ready; otherwise the first ready one by topic and partition."""
        in_progress = self._in_progress_partition
        if in_progress is not None:
            fetch_state = partition_map.get(in_progress)
            if fetch_state is not None and fetch_state.is_ready_for_fetch:
                return in_progress, fetch_state
        self._in_progress_partition = None
        next_partition_opt = self._next_ready_partition(partition_map)
        if next_partition_opt is not None:
            tp, fetch_state = next_partition_opt
            self._in_progress_partition = tp
            self.info(
                f"Beginning/resuming copy of partition {tp} from offset {fetch_state.fetch_offset}. Including this "
                f"partition, there are {len(partition_map)} remaining partitions to copy by this thread."
            )
        return next_partition_opt

    def _build_fetch_for_partition(
        self, tp: TopicPartition, fetch_state: PartitionFetchState
    ) -> ResultWithPartitions[ReplicaFetch | None]:
        request_map: dict[TopicPartition, PartitionData] = {}
        partitions_with_error: set[TopicPartition] = set()
        try:
            log_start_offset = self._replica_mgr.future_local_log_or_exception(tp).log_start_offset
            request_map[tp] = PartitionData(
                ZERO_UUID,
                fetch_state.fetch_offset,
                int(log_start_offset),
                self._fetch_size,
                fetch_state.current_leader_epoch,
                None,
            )
        except KafkaStorageException as e:
            self.debug(f"Failed to build fetch for {tp}", e)
            partitions_with_error.add(tp)

        fetch_request_opt: ReplicaFetch | None = None
        if request_map:
            # No wait and no minimum: the read answers at once even when the future log has caught up.
            version = ApiKeys.FETCH.latest_version()
            request_builder = FetchRequestBuilder(version, version, self._replica_id, -1, 0, 0, request_map)
            request_builder.max_bytes = self._max_bytes
            fetch_request_opt = ReplicaFetch(request_map, request_builder)
        return ResultWithPartitions(fetch_request_opt, frozenset(partitions_with_error))

    def build_fetch(
        self, partition_map: Mapping[TopicPartition, PartitionFetchState]
    ) -> ResultWithPartitions[ReplicaFetch | None]:
        # Nothing is copied while the quota is exceeded.
        if self._quota.is_quota_exceeded():
            return ResultWithPartitions(None, frozenset())
        selected = self._select_partition_to_fetch(partition_map)
        if selected is None:
            return ResultWithPartitions(None, frozenset())
        return self._build_fetch_for_partition(*selected)
