"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/OffsetFetcherUtils.java (Kafka 3.7).

What resetting and validating positions share between fetchers: reading ListOffsets responses, grouping
partitions by leader, choosing the reset timestamp of a partition's strategy, applying the offsets found,
and keeping an error of an asynchronous reset or validation until the application thread raises it.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.offsets_for_leader_epoch_utils import OffsetForEpochResult
from kafka.clients.consumer.internals.request_builders import supports_topic_permission
from kafka.clients.consumer.internals.subscription_state import FetchPosition, LogTruncation, SubscriptionState
from kafka.clients.consumer.log_truncation_exception import LogTruncationException
from kafka.clients.consumer.no_offset_for_partition_exception import NoOffsetForPartitionException
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_and_timestamp import OffsetAndTimestamp
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.errors import RetriableException, TopicAuthorizationException
from kafka.common.isolation_level import IsolationLevel
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.list_offsets_request import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP
from kafka.common.requests.list_offsets_response import UNKNOWN_EPOCH, UNKNOWN_OFFSET, ListOffsetsResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

__all__ = [
    "ListOffsetData",
    "ListOffsetResult",
    "OffsetFetcherUtils",
    "has_usable_offset_for_leader_epoch_version",
    "regroup_fetch_positions_by_leader",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ListOffsetData:
    """An offset found by ListOffsets, its timestamp (None before v1) and its leader epoch if known."""

    offset: int
    timestamp: int | None
    leader_epoch: int | None


@dataclass(slots=True)
class ListOffsetResult:
    fetched_offsets: dict[TopicPartition, ListOffsetData] = field(default_factory=dict)
    partitions_to_retry: set[TopicPartition] = field(default_factory=set)


def has_usable_offset_for_leader_epoch_version(node_api_versions: NodeApiVersions) -> bool:
    """Whether the node serves OffsetsForLeaderEpoch v3+ (which needs no cluster permission)."""
    api_version = node_api_versions.api_version(ApiKeys.OFFSET_FOR_LEADER_EPOCH)
    if api_version is None:
        return False
    return supports_topic_permission(api_version.max_version)


def regroup_fetch_positions_by_leader(
    partition_map: Mapping[TopicPartition, FetchPosition],
) -> dict[Node, dict[TopicPartition, FetchPosition]]:
    result: dict[Node, dict[TopicPartition, FetchPosition]] = {}
    for tp, position in partition_map.items():
        leader = position.current_leader.leader
        if leader is not None:
            result.setdefault(leader, {})[tp] = position
    return result


def topics_for_partitions(partitions: Any) -> set[str]:
    return {tp.topic for tp in partitions}


def timestamp_to_offset_reset_strategy(timestamp: int) -> OffsetResetStrategy | None:
    if timestamp == EARLIEST_TIMESTAMP:
        return OffsetResetStrategy.EARLIEST
    if timestamp == LATEST_TIMESTAMP:
        return OffsetResetStrategy.LATEST
    return None


def build_offsets_for_times_result(
    timestamps_to_search: Mapping[TopicPartition, int], fetched_offsets: Mapping[TopicPartition, ListOffsetData]
) -> dict[TopicPartition, OffsetAndTimestamp | None]:
    offsets_by_times: dict[TopicPartition, OffsetAndTimestamp | None] = dict.fromkeys(timestamps_to_search)
    for tp, offset_data in fetched_offsets.items():
        # A timestamp is always there: offsets_for_times needs ListOffsets v1+.
        assert offset_data.timestamp is not None
        offsets_by_times[tp] = OffsetAndTimestamp(offset_data.offset, offset_data.timestamp, offset_data.leader_epoch)
    return offsets_by_times


class OffsetFetcherUtils:
    def __init__(
        self,
        log_context: LogContext,
        metadata: ConsumerMetadata,
        subscription_state: SubscriptionState,
        time: Time,
        retry_backoff_ms: int,
        api_versions: ApiVersions,
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils")
        self._metadata = metadata
        self._subscription_state = subscription_state
        self._time = time
        self._retry_backoff_ms = retry_backoff_ms
        self._api_versions = api_versions
        self._lock = threading.Lock()
        self._cached_validate_positions_exception: BaseException | None = None
        self._cached_reset_positions_exception: BaseException | None = None
        self._metadata_update_version = -1

    def handle_list_offset_response(self, list_offsets_response: ListOffsetsResponse) -> ListOffsetResult:
        fetched_offsets: dict[TopicPartition, ListOffsetData] = {}
        partitions_to_retry: set[TopicPartition] = set()
        unauthorized_topics: set[str] = set()
        for topic in list_offsets_response.topics():
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                error = Errors.for_code(partition.error_code)
                if error is Errors.NONE:
                    if partition.old_style_offsets:
                        # A v0 response.
                        if len(partition.old_style_offsets) > 1:
                            raise RuntimeError(
                                f"Unexpected partitionData response of length {len(partition.old_style_offsets)}"
                            )
                        offset = partition.old_style_offsets[0]
                        self._log.debug(f"Handling v0 ListOffsetResponse response for {tp}. Fetched offset {offset}")
                        if offset != UNKNOWN_OFFSET:
                            fetched_offsets[tp] = ListOffsetData(offset, None, None)
                    else:
                        self._log.debug(
                            f"Handling ListOffsetResponse response for {tp}. Fetched offset {partition.offset}, "
                            f"timestamp {partition.timestamp}"
                        )
                        if partition.offset != UNKNOWN_OFFSET:
                            leader_epoch = None if partition.leader_epoch == UNKNOWN_EPOCH else partition.leader_epoch
                            fetched_offsets[tp] = ListOffsetData(partition.offset, partition.timestamp, leader_epoch)
                elif error is Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT:
                    # Before message format 0.10.0 there are no timestamps: as if no offset were found.
                    self._log.debug(
                        f"Cannot search by timestamp for partition {tp} because the message format version is before "
                        "0.10.0"
                    )
                elif error in (
                    Errors.NOT_LEADER_OR_FOLLOWER,
                    Errors.REPLICA_NOT_AVAILABLE,
                    Errors.KAFKA_STORAGE_ERROR,
                    Errors.OFFSET_NOT_AVAILABLE,
                    Errors.LEADER_NOT_AVAILABLE,
                    Errors.FENCED_LEADER_EPOCH,
                    Errors.UNKNOWN_LEADER_EPOCH,
                ):
                    self._log.debug(
                        f"Attempt to fetch offsets for partition {tp} failed due to {error.name}, retrying."
                    )
                    partitions_to_retry.add(tp)
                elif error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
                    self._log.warn(
                        f"Received unknown topic or partition error in ListOffset request for partition {tp}"
                    )
                    partitions_to_retry.add(tp)
                elif error is Errors.TOPIC_AUTHORIZATION_FAILED:
                    unauthorized_topics.add(tp.topic)
                else:
                    self._log.warn(
                        f"Attempt to fetch offsets for partition {tp} failed due to unexpected exception: "
                        f"{error.message}, retrying."
                    )
                    partitions_to_retry.add(tp)
        if unauthorized_topics:
            raise TopicAuthorizationException.for_topics(unauthorized_topics)
        return ListOffsetResult(fetched_offsets, partitions_to_retry)

    def regroup_partition_map_by_node(
        self, partition_map: Mapping[TopicPartition, T]
    ) -> dict[Node, dict[TopicPartition, T]]:
        cluster = self._metadata.fetch()
        result: dict[Node, dict[TopicPartition, T]] = {}
        for tp, value in partition_map.items():
            leader = cluster.leader_for(tp)
            assert leader is not None
            result.setdefault(leader, {})[tp] = value
        return result

    def get_partitions_to_validate(self) -> dict[TopicPartition, FetchPosition]:
        with self._lock:
            exception = self._cached_validate_positions_exception
            self._cached_validate_positions_exception = None
        if exception is not None:
            raise exception
        # Each partition against the current leader; all of them after a metadata update.
        self.validate_positions_on_metadata_change()
        result: dict[TopicPartition, FetchPosition] = {}
        for tp in self._subscription_state.partitions_needing_validation(self._time.milliseconds()):
            position = self._subscription_state.position(tp)
            if position is not None:
                result[tp] = position
        return result

    def maybe_set_validate_positions_exception(self, e: BaseException) -> None:
        with self._lock:
            if self._cached_validate_positions_exception is None:
                self._cached_validate_positions_exception = e
                return
        self._log.error("Discarding error validating positions because another error is pending", e)

    def validate_positions_on_metadata_change(self) -> None:
        new_version = self._metadata.update_version()
        with self._lock:
            old_version = self._metadata_update_version
            self._metadata_update_version = new_version
        if old_version != new_version:
            for tp in self._subscription_state.assigned_partitions():
                leader_and_epoch = self._metadata.current_leader(tp)
                self._subscription_state.maybe_validate_position_for_current_leader(
                    self._api_versions, tp, leader_and_epoch
                )

    def get_offset_reset_timestamp(self) -> dict[TopicPartition, int]:
        # An error from the previous reset is raised first.
        with self._lock:
            exception = self._cached_reset_positions_exception
            self._cached_reset_positions_exception = None
        if exception is not None:
            raise exception
        partitions = self._subscription_state.partitions_needing_reset(self._time.milliseconds())
        offset_reset_timestamps: dict[TopicPartition, int] = {}
        for partition in partitions:
            timestamp = self._offset_reset_strategy_timestamp(partition)
            if timestamp is not None:
                offset_reset_timestamps[partition] = timestamp
        return offset_reset_timestamps

    def _offset_reset_strategy_timestamp(self, partition: TopicPartition) -> int | None:
        strategy = self._subscription_state.reset_strategy(partition)
        if strategy is OffsetResetStrategy.EARLIEST:
            return EARLIEST_TIMESTAMP
        if strategy is OffsetResetStrategy.LATEST:
            return LATEST_TIMESTAMP
        raise NoOffsetForPartitionException(partition)

    def update_subscription_state(
        self, fetched_offsets: Mapping[TopicPartition, ListOffsetData], isolation_level: IsolationLevel
    ) -> None:
        # Offsets of assigned partitions also tell the partition's end: the LSO with read_committed, the high
        # watermark otherwise.
        for partition, data in fetched_offsets.items():
            if self._subscription_state.is_assigned(partition):
                if isolation_level is IsolationLevel.READ_COMMITTED:
                    self._log.trace(f"Updating last stable offset for partition {partition} to {data.offset}")
                    self._subscription_state.update_last_stable_offset(partition, data.offset)
                else:
                    self._log.trace(f"Updating high watermark for partition {partition} to {data.offset}")
                    self._subscription_state.update_high_watermark(partition, data.offset)

    def on_successful_response_for_resetting_positions(
        self, reset_timestamps: Mapping[TopicPartition, Any], result: ListOffsetResult
    ) -> None:
        if result.partitions_to_retry:
            self._subscription_state.request_failed(
                result.partitions_to_retry, self._time.milliseconds() + self._retry_backoff_ms
            )
            self._metadata.request_update(False)
        for partition, offset_data in result.fetched_offsets.items():
            requested_reset = reset_timestamps[partition]
            self.reset_position_if_needed(
                partition, timestamp_to_offset_reset_strategy(requested_reset.timestamp), offset_data
            )

    def on_failed_response_for_resetting_positions(
        self, reset_timestamps: Mapping[TopicPartition, Any], error: BaseException
    ) -> None:
        self._subscription_state.request_failed(reset_timestamps, self._time.milliseconds() + self._retry_backoff_ms)
        self._metadata.request_update(False)
        if not isinstance(error, RetriableException):
            with self._lock:
                if self._cached_reset_positions_exception is None:
                    self._cached_reset_positions_exception = error
                    return
            self._log.error("Discarding error resetting positions because another error is pending", error)

    def on_successful_response_for_validating_positions(
        self, fetch_positions: Mapping[TopicPartition, FetchPosition], offsets_result: OffsetForEpochResult
    ) -> None:
        truncations: list[LogTruncation] = []
        if offsets_result.partitions_to_retry:
            self._subscription_state.set_next_allowed_retry(
                offsets_result.partitions_to_retry, self._time.milliseconds() + self._retry_backoff_ms
            )
            self._metadata.request_update(False)
        # An end offset below our position means the log was truncated: reposition (or report it without a
        # reset policy); an unknown epoch or offset is handled the same way.
        for tp, resp_end_offset in offsets_result.end_offsets.items():
            request_position = fetch_positions[tp]
            truncation = self._subscription_state.maybe_complete_validation(tp, request_position, resp_end_offset)
            if truncation is not None:
                truncations.append(truncation)
        if truncations:
            self.maybe_set_validate_positions_exception(self._build_log_truncation_exception(truncations))

    def on_failed_response_for_validating_positions(
        self, fetch_positions: Mapping[TopicPartition, FetchPosition], error: BaseException
    ) -> None:
        self._subscription_state.request_failed(fetch_positions, self._time.milliseconds() + self._retry_backoff_ms)
        self._metadata.request_update(False)
        if not isinstance(error, RetriableException):
            self.maybe_set_validate_positions_exception(error)

    @staticmethod
    def _build_log_truncation_exception(truncations: list[LogTruncation]) -> LogTruncationException:
        divergent_offsets: dict[TopicPartition, OffsetAndMetadata] = {}
        truncated_fetch_offsets: dict[TopicPartition, int] = {}
        for truncation in truncations:
            if truncation.divergent_offset is not None:
                divergent_offsets[truncation.topic_partition] = truncation.divergent_offset
            truncated_fetch_offsets[truncation.topic_partition] = truncation.fetch_position.offset
        return LogTruncationException(truncated_fetch_offsets, divergent_offsets)

    def reset_position_if_needed(
        self,
        partition: TopicPartition,
        requested_reset_strategy: OffsetResetStrategy | None,
        offset_data: ListOffsetData,
    ) -> None:
        # No offset epoch: the new position needs no validation.
        position = FetchPosition(offset_data.offset, None, self._metadata.current_leader(partition))
        if offset_data.leader_epoch is not None:
            self._metadata.update_last_seen_epoch_if_newer(partition, offset_data.leader_epoch)
        self._subscription_state.maybe_seek_unvalidated(partition, position, requested_reset_strategy)
