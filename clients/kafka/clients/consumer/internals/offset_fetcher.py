"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/OffsetFetcher.java (Kafka 3.7).

Offsets looked up with ListOffsets: resetting positions (auto.offset.reset, seek_to_beginning/end)
asynchronously, and, for the application, offsets_for_times and beginning/end offsets, retried until the
timer expires. Also validates positions after leader changes with OffsetsForLeaderEpoch.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping
from typing import Any

from kafka.clients.admin.internals.request_builders import ListOffsetsRequestBuilder
from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.offset_fetcher_utils import (
    ListOffsetData,
    ListOffsetResult,
    OffsetFetcherUtils,
    build_offsets_for_times_result,
    has_usable_offset_for_leader_epoch_version,
    regroup_fetch_positions_by_leader,
    topics_for_partitions,
)
from kafka.clients.consumer.internals.offsets_for_leader_epoch_client import OffsetsForLeaderEpochClient
from kafka.clients.consumer.internals.offsets_for_leader_epoch_utils import OffsetForEpochResult
from kafka.clients.consumer.internals.request_future import RequestFuture
from kafka.clients.consumer.internals.request_future_adapter import RequestFutureAdapter
from kafka.clients.consumer.internals.subscription_state import FetchPosition, SubscriptionState
from kafka.clients.consumer.offset_and_timestamp import OffsetAndTimestamp
from kafka.clients.stale_metadata_exception import StaleMetadataException
from kafka.common.errors import TimeoutException
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import ListOffsetsRequestData
from kafka.common.node import Node
from kafka.common.requests.list_offsets_request import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP
from kafka.common.requests.list_offsets_response import UNKNOWN_EPOCH, ListOffsetsResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time, Timer

__all__ = ["OffsetFetcher"]


class OffsetFetcher:
    def __init__(
        self,
        log_context: LogContext,
        client: ConsumerNetworkClient,
        metadata: ConsumerMetadata,
        subscriptions: SubscriptionState,
        time: Time,
        retry_backoff_ms: int,
        request_timeout_ms: int,
        isolation_level: IsolationLevel,
        api_versions: ApiVersions,
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.OffsetFetcher")
        self._time = time
        self._client = client
        self._metadata = metadata
        self._subscriptions = subscriptions
        self._request_timeout_ms = request_timeout_ms
        self._isolation_level = isolation_level
        self._api_versions = api_versions
        self._offsets_for_leader_epoch_client = OffsetsForLeaderEpochClient(client, log_context)
        self._offset_fetcher_utils = OffsetFetcherUtils(
            log_context, metadata, subscriptions, time, retry_backoff_ms, api_versions
        )

    def reset_positions_if_needed(self) -> None:
        """Sends ListOffsets for the partitions awaiting a reset (raising a pending reset error first)."""
        offset_reset_timestamps = self._offset_fetcher_utils.get_offset_reset_timestamp()
        if not offset_reset_timestamps:
            return
        self._reset_positions_async(offset_reset_timestamps)

    def validate_positions_if_needed(self) -> None:
        """Sends OffsetsForLeaderEpoch for positions awaiting validation (raising a pending error first)."""
        partitions_to_validate = self._offset_fetcher_utils.get_partitions_to_validate()
        self._validate_positions_async(partitions_to_validate)

    def offsets_for_times(
        self, timestamps_to_search: Mapping[TopicPartition, int], timer: Timer
    ) -> dict[TopicPartition, OffsetAndTimestamp | None]:
        self._metadata.add_transient_topics(topics_for_partitions(timestamps_to_search))
        try:
            fetched_offsets = self._fetch_offsets_by_times(timestamps_to_search, timer, True).fetched_offsets
            return build_offsets_for_times_result(timestamps_to_search, fetched_offsets)
        finally:
            self._metadata.clear_transient_topics()

    def _fetch_offsets_by_times(
        self, timestamps_to_search: Mapping[TopicPartition, int], timer: Timer, require_timestamps: bool
    ) -> ListOffsetResult:
        result = ListOffsetResult()
        if not timestamps_to_search:
            return result
        remaining_to_search = dict(timestamps_to_search)
        lock = threading.Lock()
        while True:
            future = self._send_list_offsets_requests(remaining_to_search, require_timestamps)

            def on_success(value: ListOffsetResult) -> None:
                with lock:
                    result.fetched_offsets.update(value.fetched_offsets)
                    for tp in list(remaining_to_search):
                        if tp not in value.partitions_to_retry:
                            del remaining_to_search[tp]
                    self._offset_fetcher_utils.update_subscription_state(value.fetched_offsets, self._isolation_level)

            def on_failure(e: BaseException) -> None:
                # PORT: Java raises a fatal error from this listener (out of the poll that completed it); here
                # it is raised after the poll below.
                pass

            future.add_callbacks(on_success, on_failure)
            # With a zero timeout, no network round trip at all: whatever is known now.
            if timer.timeout_ms() == 0:
                return result
            self._client.poll_future(future, timer)
            if not future.is_done():
                break
            if future.failed() and not future.is_retriable():
                raise future.exception()
            if not remaining_to_search:
                return result
            self._client.await_metadata_update(timer)
            if not timer.not_expired():
                break
        raise TimeoutException(f"Failed to get offsets by times in {timer.elapsed_ms()}ms")

    def beginning_offsets(self, partitions: Collection[TopicPartition], timer: Timer) -> dict[TopicPartition, int]:
        return self._beginning_or_end_offset(partitions, EARLIEST_TIMESTAMP, timer)

    def end_offsets(self, partitions: Collection[TopicPartition], timer: Timer) -> dict[TopicPartition, int]:
        return self._beginning_or_end_offset(partitions, LATEST_TIMESTAMP, timer)

    def _beginning_or_end_offset(
        self, partitions: Collection[TopicPartition], timestamp: int, timer: Timer
    ) -> dict[TopicPartition, int]:
        self._metadata.add_transient_topics(topics_for_partitions(partitions))
        try:
            timestamps_to_search = dict.fromkeys(partitions, timestamp)
            result = self._fetch_offsets_by_times(timestamps_to_search, timer, False)
            return {tp: data.offset for tp, data in result.fetched_offsets.items()}
        finally:
            self._metadata.clear_transient_topics()

    def _reset_positions_async(self, partition_reset_timestamps: Mapping[TopicPartition, int]) -> None:
        by_node = self._group_list_offset_requests(partition_reset_timestamps, set())
        for node, reset_timestamps in by_node.items():
            self._subscriptions.set_next_allowed_retry(
                reset_timestamps, self._time.milliseconds() + self._request_timeout_ms
            )
            future = self._send_list_offset_request(node, reset_timestamps, False)

            def on_success(result: ListOffsetResult, r: Mapping[TopicPartition, Any] = reset_timestamps) -> None:
                self._offset_fetcher_utils.on_successful_response_for_resetting_positions(r, result)

            def on_failure(e: BaseException, r: Mapping[TopicPartition, Any] = reset_timestamps) -> None:
                self._offset_fetcher_utils.on_failed_response_for_resetting_positions(r, e)

            future.add_callbacks(on_success, on_failure)

    def _validate_positions_async(self, partitions_to_validate: Mapping[TopicPartition, FetchPosition]) -> None:
        regrouped = regroup_fetch_positions_by_leader(partitions_to_validate)
        next_reset_time_ms = self._time.milliseconds() + self._request_timeout_ms
        for node, fetch_positions in regrouped.items():
            if node.is_empty():
                self._metadata.request_update(True)
                continue
            node_api_versions = self._api_versions.get(node.id_string)
            if node_api_versions is None:
                self._client.try_connect(node)
                continue
            if not has_usable_offset_for_leader_epoch_version(node_api_versions):
                self._log.debug(
                    f"Skipping validation of fetch offsets for partitions {list(map(str, fetch_positions))} since the "
                    "broker does not support the required protocol version (introduced in Kafka 2.3)"
                )
                for partition in fetch_positions:
                    self._subscriptions.complete_validation(partition)
                continue
            self._subscriptions.set_next_allowed_retry(fetch_positions, next_reset_time_ms)
            future = self._offsets_for_leader_epoch_client.send_async_request(node, fetch_positions)

            def on_success(
                offsets_result: OffsetForEpochResult, p: Mapping[TopicPartition, FetchPosition] = fetch_positions
            ) -> None:
                self._offset_fetcher_utils.on_successful_response_for_validating_positions(p, offsets_result)

            def on_failure(e: BaseException, p: Mapping[TopicPartition, FetchPosition] = fetch_positions) -> None:
                self._offset_fetcher_utils.on_failed_response_for_validating_positions(p, e)

            future.add_callbacks(on_success, on_failure)

    def _send_list_offsets_requests(
        self, timestamps_to_search: Mapping[TopicPartition, int], require_timestamps: bool
    ) -> RequestFuture[ListOffsetResult]:
        """ListOffsets to every leader concerned; the future completes once all have answered."""
        partitions_to_retry: set[TopicPartition] = set()
        by_node = self._group_list_offset_requests(timestamps_to_search, partitions_to_retry)
        if not by_node:
            return RequestFuture.failure(StaleMetadataException())
        list_offset_requests_future: RequestFuture[ListOffsetResult] = RequestFuture()
        fetched_timestamp_offsets: dict[TopicPartition, ListOffsetData] = {}
        remaining_responses = [len(by_node)]
        lock = threading.Lock()

        def on_success(partial_result: ListOffsetResult) -> None:
            with lock:
                fetched_timestamp_offsets.update(partial_result.fetched_offsets)
                partitions_to_retry.update(partial_result.partitions_to_retry)
                remaining_responses[0] -= 1
                if remaining_responses[0] == 0 and not list_offset_requests_future.is_done():
                    list_offset_requests_future.complete(
                        ListOffsetResult(fetched_timestamp_offsets, partitions_to_retry)
                    )

        def on_failure(e: BaseException) -> None:
            with lock:
                if not list_offset_requests_future.is_done():
                    list_offset_requests_future.raise_(e)

        for node, timestamps in by_node.items():
            self._send_list_offset_request(node, timestamps, require_timestamps).add_callbacks(on_success, on_failure)
        return list_offset_requests_future

    def _group_list_offset_requests(
        self, timestamps_to_search: Mapping[TopicPartition, int], partitions_to_retry: set[TopicPartition]
    ) -> dict[Node, dict[TopicPartition, Any]]:
        partition_data_map: dict[TopicPartition, Any] = {}
        for tp, offset in timestamps_to_search.items():
            leader_and_epoch = self._metadata.current_leader(tp)
            leader = leader_and_epoch.leader
            if leader is None:
                self._log.debug(f"Leader for partition {tp} is unknown for fetching offset {offset}")
                self._metadata.request_update(True)
                partitions_to_retry.add(tp)
            elif self._client.is_unavailable(leader):
                self._client.maybe_throw_auth_failure(leader)
                # The reconnect backoff must pass; the disconnect already asked for a metadata update.
                self._log.debug(
                    f"Leader {leader} for partition {tp} is unavailable for fetching offset until reconnect backoff "
                    "expires"
                )
                partitions_to_retry.add(tp)
            else:
                current_leader_epoch = UNKNOWN_EPOCH if leader_and_epoch.epoch is None else leader_and_epoch.epoch
                partition_data_map[tp] = ListOffsetsRequestData.ListOffsetsPartition(
                    partition_index=tp.partition, timestamp=offset, current_leader_epoch=current_leader_epoch
                )
        return self._offset_fetcher_utils.regroup_partition_map_by_node(partition_data_map)

    def _send_list_offset_request(
        self, node: Node, timestamps_to_search: Mapping[TopicPartition, Any], require_timestamp: bool
    ) -> RequestFuture[ListOffsetResult]:
        topics: dict[str, Any] = {}
        for tp, partition in timestamps_to_search.items():
            topic = topics.get(tp.topic)
            if topic is None:
                topic = ListOffsetsRequestData.ListOffsetsTopic(name=tp.topic)
                topics[tp.topic] = topic
            topic.partitions.append(partition)
        builder = ListOffsetsRequestBuilder.for_consumer(require_timestamp, self._isolation_level, False)
        builder.set_target_times(list(topics.values()))
        self._log.debug(f"Sending ListOffsetRequest {builder} to broker {node}")
        return self._client.send(node, builder).compose(_ListOffsetsResponseAdapter(self, node))

    def validate_positions_on_metadata_change(self) -> None:
        self._offset_fetcher_utils.validate_positions_on_metadata_change()


class _ListOffsetsResponseAdapter(RequestFutureAdapter[ClientResponse, ListOffsetResult]):
    def __init__(self, fetcher: OffsetFetcher, node: Node) -> None:
        self._fetcher = fetcher
        self._node = node

    def on_success(self, value: ClientResponse, future: RequestFuture[ListOffsetResult]) -> None:
        response = value.response_body
        assert isinstance(response, ListOffsetsResponse)
        self._fetcher._log.trace(f"Received ListOffsetResponse {response.data} from broker {self._node}")
        try:
            future.complete(self._fetcher._offset_fetcher_utils.handle_list_offset_response(response))
        except Exception as e:
            future.raise_(e)
