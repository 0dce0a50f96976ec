"""Port of core/src/main/scala/kafka/server/ReplicaFetcherThread.scala (Kafka 2.8).

A follower's fetcher thread, `ReplicaFetcherThread-{fetcherId}-{sourceBrokerId}`: it fetches the partitions this
broker follows from their leader, `source_broker`, as replica `broker.id`, in an incremental fetch session
(FetchSessionHandler, KIP-227), and appends what it gets to the follower logs with the leader's offsets and epochs.
Each response also carries the leader's high watermark and log start offset, which the follower's log takes on.
Truncation asks the leader OffsetsForLeaderEpoch; an out-of-range offset asks it ListOffsets. Request versions
follow inter.broker.protocol.version as Kafka's do (Fetch v12 from 2.7, which lets the leader name a diverging
epoch in the response).

Configs: replica.fetch.max.bytes (per partition), replica.fetch.response.max.bytes, replica.fetch.min.bytes,
replica.fetch.wait.max.ms, replica.fetch.backoff.ms, and the replica.socket.* settings of its connection
(ReplicaFetcherBlockingSend).

The follower replication quota (`quota`, the broker's `quota_managers.follower`) leaves a throttled partition of
an out-of-sync replica out of the fetch request while the quota is exceeded, and the bytes appended to every
throttled partition are recorded against it.

A completed truncation also marks the partition's future replica (a move between log directories) for truncation
to the same offset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafka.clients.admin.internals.request_builders import ListOffsetsRequestBuilder
from kafka.clients.consumer.internals.request_builders import (
    FetchRequestBuilder,
    OffsetsForLeaderEpochRequestBuilder,
)
from kafka.clients.fetch_session_handler import FetchSessionHandler
from kafka.cluster.broker import BrokerEndPoint
from kafka.common.errors import KafkaStorageException
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import (
    ListOffsetsRequestData,
    OffsetForLeaderEpochRequestData,
    OffsetForLeaderEpochResponseData,
)
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.list_offsets_request import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from kafka.log.log import OffsetAndEpoch
from kafka.log.log_append_info import LeaderOffsetIncremented, LogAppendInfo
from kafka.server.abstract_fetcher_manager import FailedPartitions
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
from kafka.server.kafka_config import (
    KAFKA_0_9_0,
    KAFKA_0_10_0_IV0,
    KAFKA_0_10_1_IV1,
    KAFKA_0_10_1_IV2,
    KAFKA_0_11_0_IV0,
    KAFKA_0_11_0_IV1,
    KAFKA_0_11_0_IV2,
    KAFKA_1_1_IV0,
    KAFKA_2_0_IV0,
    KAFKA_2_0_IV1,
    KAFKA_2_1_IV1,
    KAFKA_2_1_IV2,
    KAFKA_2_2_IV1,
    KAFKA_2_3_IV1,
    KAFKA_2_7_IV1,
    KAFKA_2_8_IV0,
    ApiVersion,
    KafkaConfig,
)
from kafka.server.replica_fetcher_blocking_send import BlockingSend, ReplicaFetcherBlockingSend

if TYPE_CHECKING:
    from kafka.server.replica_manager import ReplicaManager
    from kafka.server.replication_quota_manager import ReplicaQuota


def fetch_request_version(ibp: ApiVersion) -> int:
    """The Fetch version a follower sends at inter.broker.protocol.version `ibp`."""
    for since, version in (
        (KAFKA_2_7_IV1, 12),
        (KAFKA_2_3_IV1, 11),
        (KAFKA_2_1_IV2, 10),
        (KAFKA_2_0_IV1, 8),
        (KAFKA_1_1_IV0, 7),
        (KAFKA_0_11_0_IV1, 5),
        (KAFKA_0_11_0_IV0, 4),
        (KAFKA_0_10_1_IV1, 3),
        (KAFKA_0_10_0_IV0, 2),
        (KAFKA_0_9_0, 1),
    ):
        if ibp >= since:
            return version
    return 0


def offset_for_leader_epoch_request_version(ibp: ApiVersion) -> int:
    """The OffsetsForLeaderEpoch version a follower sends at inter.broker.protocol.version `ibp`."""
    for since, version in ((KAFKA_2_8_IV0, 4), (KAFKA_2_3_IV1, 3), (KAFKA_2_1_IV1, 2), (KAFKA_2_0_IV0, 1)):
        if ibp >= since:
            return version
    return 0


def list_offset_request_version(ibp: ApiVersion) -> int:
    """The ListOffsets version a follower sends at inter.broker.protocol.version `ibp`."""
    for since, version in (
        (KAFKA_2_8_IV0, 6),
        (KAFKA_2_2_IV1, 5),
        (KAFKA_2_1_IV1, 4),
        (KAFKA_2_0_IV1, 3),
        (KAFKA_0_11_0_IV0, 2),
        (KAFKA_0_10_1_IV2, 1),
    ):
        if ibp >= since:
            return version
    return 0


class ReplicaFetcherThread(AbstractFetcherThread):
    """Fetches followed partitions from their leader `source_broker` (see the module docstring)."""

    logger_name = "kafka.server.ReplicaFetcherThread"

    def __init__(
        self,
        name: str,
        fetcher_id: int,
        source_broker: BrokerEndPoint,
        broker_config: KafkaConfig,
        failed_partitions: FailedPartitions,
        replica_mgr: ReplicaManager,
        metrics: Any,
        time: Time,
        quota: ReplicaQuota | None,
        leader_endpoint_blocking_send: BlockingSend | None = None,
    ) -> None:
        super().__init__(
            name,
            name,
            source_broker,
            failed_partitions,
            fetch_back_off_ms=broker_config.replica_fetch_backoff_ms,
            is_interruptible=False,
            broker_topic_stats=replica_mgr.broker_topic_stats,
            time=time,
        )
        self.fetcher_id = fetcher_id
        self._broker_config = broker_config
        self._replica_mgr = replica_mgr
        self._quota = quota
        self._replica_id = broker_config.broker_id
        log_context = LogContext(
            f"[ReplicaFetcher replicaId={self._replica_id}, leaderId={source_broker.id}, fetcherId={fetcher_id}] "
        )
        self.log_ident = log_context.log_prefix()
        self._leader_endpoint: BlockingSend = (
            leader_endpoint_blocking_send
            if leader_endpoint_blocking_send is not None
            else ReplicaFetcherBlockingSend(
                source_broker,
                broker_config,
                metrics,
                time,
                fetcher_id,
                f"broker-{self._replica_id}-fetcher-{fetcher_id}",
                log_context,
            )
        )
        ibp = broker_config.inter_broker_protocol_version
        self.fetch_request_version = fetch_request_version(ibp)
        self.offset_for_leader_epoch_request_version = offset_for_leader_epoch_request_version(ibp)
        self.list_offset_request_version = list_offset_request_version(ibp)
        self._max_wait: int = broker_config.replica_fetch_wait_max_ms
        self._min_bytes: int = broker_config.replica_fetch_min_bytes
        self._max_bytes: int = broker_config.replica_fetch_response_max_bytes
        self._fetch_size: int = broker_config.replica_fetch_max_bytes
        self._is_offset_for_leader_epoch_supported = ibp >= KAFKA_0_11_0_IV2
        self._is_truncation_on_fetch_supported = ApiVersion.is_truncation_on_fetch_supported(ibp)
        self.fetch_session_handler = FetchSessionHandler(log_context, source_broker.id)

    @property
    def is_offset_for_leader_epoch_supported(self) -> bool:
        return self._is_offset_for_leader_epoch_supported

    @property
    def is_truncation_on_fetch_supported(self) -> bool:
        return self._is_truncation_on_fetch_supported

    def latest_epoch(self, topic_partition: TopicPartition) -> int | None:
        return self._replica_mgr.local_log_or_exception(topic_partition).latest_epoch()

    def log_start_offset(self, topic_partition: TopicPartition) -> int:
        return int(self._replica_mgr.local_log_or_exception(topic_partition).log_start_offset)

    def log_end_offset(self, topic_partition: TopicPartition) -> int:
        return int(self._replica_mgr.local_log_or_exception(topic_partition).log_end_offset)

    def end_offset_for_epoch(self, topic_partition: TopicPartition, epoch: int) -> OffsetAndEpoch | None:
        return self._replica_mgr.local_log_or_exception(topic_partition).end_offset_for_epoch(epoch)

    def initiate_shutdown(self) -> bool:
        just_shutdown = super().initiate_shutdown()
        if just_shutdown:
            # Wakes a request in progress; the endpoint is closed once the loop has ended.
            try:
                self._leader_endpoint.initiate_close()
            except Exception as t:
                self.error(
                    f"Failed to initiate shutdown of leader endpoint {self._leader_endpoint} after initiating "
                    "replica fetcher thread shutdown",
                    t,
                )
        return just_shutdown

    def await_shutdown(self) -> None:
        super().await_shutdown()
        try:
            self._leader_endpoint.close()
        except Exception as t:
            self.error(
                f"Failed to close leader endpoint {self._leader_endpoint} after shutting down replica fetcher thread",
                t,
            )

    def process_partition_data(
        self, topic_partition: TopicPartition, fetch_offset: int, partition_data: FetchData
    ) -> LogAppendInfo | None:
        """Appends the leader's batches as they are, then takes on the leader's high watermark (bounded by our log
        end) and log start offset."""
        log_trace = self.is_trace_enabled()
        partition = self._replica_mgr.get_partition_or_exception(topic_partition)
        log = partition.local_log_or_exception()
        records = self.to_memory_records(partition_data.records)

        self.maybe_warn_if_oversized_records(records, topic_partition)

        if fetch_offset != log.log_end_offset:
            raise RuntimeError(
                f"Offset mismatch for partition {topic_partition}: fetched offset = {fetch_offset}, log end offset = "
                f"{log.log_end_offset}."
            )
        if log_trace:
            self.trace(
                f"Follower has replica log end offset {log.log_end_offset} for partition {topic_partition}. Received "
                f"{records.size_in_bytes()} messages and leader hw {partition_data.high_watermark}"
            )

        log_append_info = partition.append_records_to_follower_or_future_replica(records, is_future=False)

        if log_trace:
            self.trace(
                f"Follower has replica log end offset {log.log_end_offset} after appending "
                f"{records.size_in_bytes()} bytes of messages for partition {topic_partition}"
            )
        leader_log_start_offset = partition_data.log_start_offset
        # The follower needs no segment position for its high watermark: it is computed if it becomes leader.
        follower_high_watermark = log.update_high_watermark(partition_data.high_watermark)
        log.maybe_increment_log_start_offset(leader_log_start_offset, LeaderOffsetIncremented())
        if log_trace:
            self.trace(
                f"Follower set replica high watermark for partition {topic_partition} to {follower_high_watermark}"
            )
        # In-sync replicas count too, so that all the replication traffic of throttled partitions stays within the
        # quota (only out-of-sync ones are ever held back).
        quota = self._quota
        if quota is not None and quota.is_throttled(topic_partition):
            quota.record(records.size_in_bytes())
        stats = self.broker_topic_stats
        if stats is not None:
            if partition.is_reassigning and partition.is_adding_local_replica:
                stats.update_reassignment_bytes_in(records.size_in_bytes())
            stats.update_replication_bytes_in(records.size_in_bytes())
        return log_append_info

    def maybe_warn_if_oversized_records(self, records: MemoryRecords, topic_partition: TopicPartition) -> None:
        # From Fetch v3 (KIP-74) an oversized batch is returned whole, so it cannot stall replication.
        if self.fetch_request_version <= 2 and records.size_in_bytes() > 0 and records.valid_bytes() <= 0:
            self.error(
                f"Replication is failing due to a message that is greater than replica.fetch.max.bytes for partition "
                f"{topic_partition}. This generally occurs when the max.message.bytes has been overridden to exceed "
                "this value and a suitably large message has also been sent. To fix this problem increase "
                "replica.fetch.max.bytes in your broker config to be equal or larger than your settings for "
                "max.message.bytes, both at a broker and topic level."
            )

    def fetch_from_leader(self, fetch_request: Builder[Any]) -> Mapping[TopicPartition, FetchData]:
        try:
            client_response = self._leader_endpoint.send_request(fetch_request)
            fetch_response: Any = client_response.response_body
            version = client_response.request_header.api_version
            if not self.fetch_session_handler.handle_response(fetch_response, version):
                return {}
            return {
                TopicPartition(topic, partition): data
                for (topic, partition), data in fetch_response.response_data(
                    self.fetch_session_handler.session_topic_names(), version
                ).items()
            }
        except BaseException as t:
            self.fetch_session_handler.handle_error(t)
            raise

    def fetch_earliest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        return self._fetch_offset_from_leader(topic_partition, current_leader_epoch, EARLIEST_TIMESTAMP)

    def fetch_latest_offset_from_leader(self, topic_partition: TopicPartition, current_leader_epoch: int) -> int:
        return self._fetch_offset_from_leader(topic_partition, current_leader_epoch, LATEST_TIMESTAMP)

    def _fetch_offset_from_leader(
        self, topic_partition: TopicPartition, current_leader_epoch: int, earliest_or_latest: int
    ) -> int:
        topic = ListOffsetsRequestData.ListOffsetsTopic(
            name=topic_partition.topic,
            partitions=[
                ListOffsetsRequestData.ListOffsetsPartition(
                    partition_index=topic_partition.partition,
                    current_leader_epoch=current_leader_epoch,
                    timestamp=earliest_or_latest,
                )
            ],
        )
        version = self.list_offset_request_version
        request_builder = ListOffsetsRequestBuilder(
            version, version, self._replica_id, IsolationLevel.READ_UNCOMMITTED
        ).set_target_times([topic])
        client_response = self._leader_endpoint.send_request(request_builder)
        response: Any = client_response.response_body
        response_partition = next(
            p
            for t in response.data.topics
            if t.name == topic_partition.topic
            for p in t.partitions
            if p.partition_index == topic_partition.partition
        )
        error = Errors.for_code(response_partition.error_code)
        if error is Errors.NONE:
            if self._broker_config.inter_broker_protocol_version >= KAFKA_0_10_1_IV2:
                return int(response_partition.offset)
            return int(response_partition.old_style_offsets[0])
        exc = error.exception()
        assert exc is not None
        raise exc

    def build_fetch(
        self, partition_map: Mapping[TopicPartition, PartitionFetchState]
    ) -> ResultWithPartitions[ReplicaFetch | None]:
        partitions_with_error: set[TopicPartition] = set()
        builder = self.fetch_session_handler.new_builder(copy_session_partitions=False)
        for topic_partition, fetch_state in partition_map.items():
            # A throttled replica is left out of the request.
            if fetch_state.is_ready_for_fetch and not self._should_follower_throttle(fetch_state, topic_partition):
                try:
                    log_start_offset = self.log_start_offset(topic_partition)
                    last_fetched_epoch = (
                        fetch_state.last_fetched_epoch if self.is_truncation_on_fetch_supported else None
                    )
                    builder.add(
                        topic_partition,
                        PartitionData(
                            ZERO_UUID,
                            fetch_state.fetch_offset,
                            log_start_offset,
                            self._fetch_size,
                            fetch_state.current_leader_epoch,
                            last_fetched_epoch,
                        ),
                    )
                except KafkaStorageException:
                    # The replica's log dir went offline (already logged); ReplicaManager removes the partition soon.
                    partitions_with_error.add(topic_partition)

        fetch_data = builder.build()
        fetch_request_opt: ReplicaFetch | None = None
        if fetch_data.session_partitions() or fetch_data.to_forget():
            version = self.fetch_request_version
            request_builder = FetchRequestBuilder(
                version, version, self._replica_id, -1, self._max_wait, self._min_bytes, fetch_data.to_send()
            )
            request_builder.max_bytes = self._max_bytes
            request_builder.removed = fetch_data.to_forget()
            request_builder.metadata = fetch_data.metadata()
            # The session's partitions are copied: the handler changes its own map with the next build.
            fetch_request_opt = ReplicaFetch(dict(fetch_data.session_partitions()), request_builder)
        return ResultWithPartitions(fetch_request_opt, frozenset(partitions_with_error))

    def truncate(self, tp: TopicPartition, offset_truncation_state: OffsetTruncationState) -> None:
        partition = self._replica_mgr.get_partition_or_exception(tp)
        log = partition.local_log_or_exception()
        partition.truncate_to(offset_truncation_state.offset, is_future=False)
        if offset_truncation_state.offset < log.high_watermark:
            self.warn(
                f"Truncating {tp} to offset {offset_truncation_state.offset} below high watermark {log.high_watermark}"
            )
        # Only the final truncation is passed on to a future replica.
        if offset_truncation_state.truncation_completed:
            self._replica_mgr.replica_alter_log_dirs_manager.mark_partitions_for_truncation(
                self._broker_config.broker_id, tp, offset_truncation_state.offset
            )

    def truncate_fully_and_start_at(self, topic_partition: TopicPartition, offset: int) -> None:
        partition = self._replica_mgr.get_partition_or_exception(topic_partition)
        partition.truncate_fully_and_start_at(offset, is_future=False)

    def fetch_epoch_end_offsets(
        self, partitions: Mapping[TopicPartition, EpochData]
    ) -> dict[TopicPartition, EpochEndOffset]:
        if not partitions:
            self.debug("Skipping leaderEpoch request since all partitions do not have an epoch")
            return {}
        topics: dict[str, Any] = {}
        for topic_partition, epoch_data in partitions.items():
            topic = topics.get(topic_partition.topic)
            if topic is None:
                topic = OffsetForLeaderEpochRequestData.OffsetForLeaderTopic(topic=topic_partition.topic)
                topics[topic_partition.topic] = topic
            topic.partitions.append(epoch_data)
        version = self.offset_for_leader_epoch_request_version
        epoch_request = OffsetsForLeaderEpochRequestBuilder(
            version,
            version,
            OffsetForLeaderEpochRequestData(replica_id=self._broker_config.broker_id, topics=list(topics.values())),
        )
        self.debug(f"Sending offset for leader epoch request {epoch_request}")
        try:
            response = self._leader_endpoint.send_request(epoch_request)
            response_body: Any = response.response_body
            self.debug(f"Received leaderEpoch response {response}")
            return {
                TopicPartition(topic_result.topic, partition_result.partition): partition_result
                for topic_result in response_body.data.topics
                for partition_result in topic_result.partitions
            }
        except Exception as t:
            self.warn(f"Error when sending leader epoch request for {_epochs_str(partitions)}", t)
            # Any failure: every partition is retried after the backoff.
            error = Errors.for_exception(t)
            return {
                tp: OffsetForLeaderEpochResponseData.EpochEndOffset(partition=tp.partition, error_code=error.code)
                for tp in partitions
            }

    def _should_follower_throttle(self, fetch_state: PartitionFetchState, topic_partition: TopicPartition) -> bool:
        """Only a replica that is out of sync, listed as throttled, and over the quota is throttled (an in-sync one
        never is, so the ISR does not flap)."""
        quota = self._quota
        return (
            quota is not None
            and not fetch_state.is_replica_in_sync
            and quota.is_throttled(topic_partition)
            and quota.is_quota_exceeded()
        )


def _epochs_str(partitions: Mapping[TopicPartition, EpochData]) -> str:
    return "Map(" + ", ".join(f"{tp} -> {data}" for tp, data in partitions.items()) + ")"
