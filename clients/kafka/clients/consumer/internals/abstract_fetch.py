"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractFetch.java (Kafka 3.7).

What every fetcher shares: building one fetch request per node for the fetchable partitions that have no
buffered data (from the leader, or the preferred read replica, KIP-392), through that node's fetch
session; at most one request per node in flight (and, unlike Java, none made only of caught-up partitions
while other partitions of the node still have buffered records: see prepare_fetch_requests). Responses are
checked against the session; each partition's data becomes a CompletedFetch in the FetchBuffer. Leader
changes reported in the response (KIP-951) update the metadata and trigger position validation.
"""

from __future__ import annotations

import abc

from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.consumer.internals.completed_fetch import CompletedFetch
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.fetch_buffer import FetchBuffer
from kafka.clients.consumer.internals.fetch_config import FetchConfig
from kafka.clients.consumer.internals.fetch_metrics_aggregator import FetchMetricsAggregator
from kafka.clients.consumer.internals.fetch_metrics_manager import FetchMetricsManager
from kafka.clients.consumer.internals.fetch_utils import request_metadata_update
from kafka.clients.consumer.internals.request_builders import FetchRequestBuilder
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.fetch_session_handler import FetchRequestData, FetchSessionHandler
from kafka.clients.metadata import LeaderIdAndEpoch
from kafka.common.metrics.metrics import Metrics
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.fetch_request import INVALID_LOG_START_OFFSET, PartitionData
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time, Timer

__all__ = ["AbstractFetch"]


class AbstractFetch(abc.ABC):
    def __init__(
        self,
        log_context: LogContext,
        metadata: ConsumerMetadata,
        subscriptions: SubscriptionState,
        fetch_config: FetchConfig,
        fetch_buffer: FetchBuffer,
        time: Time,
        api_versions: ApiVersions,
        metrics_manager: FetchMetricsManager | None = None,
    ) -> None:
        """# PORT: Java takes the FetchMetricsManager before the Time; here it is trailing (without one, the sensors
        go to a registry of their own)."""
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.AbstractFetch")
        self.metrics_manager = (
            metrics_manager if metrics_manager is not None else FetchMetricsManager(Metrics(time=time))
        )
        self.log_context = log_context
        self.metadata = metadata
        self.subscriptions = subscriptions
        self.fetch_config = fetch_config
        self.fetch_buffer = fetch_buffer
        self.time = time
        self._api_versions = api_versions
        self._session_handlers: dict[int, FetchSessionHandler] = {}
        self.nodes_with_pending_fetch_requests: set[int] = set()
        self._closed = False

    @abc.abstractmethod
    def is_unavailable(self, node: Node) -> bool: ...

    @abc.abstractmethod
    def maybe_throw_auth_failure(self, node: Node) -> None: ...

    def has_completed_fetches(self) -> bool:
        return not self.fetch_buffer.is_empty()

    def has_available_fetches(self) -> bool:
        return self.fetch_buffer.has_completed_fetches(lambda f: self.subscriptions.is_fetchable(f.partition))

    def handle_fetch_success(self, fetch_target: Node, data: FetchRequestData, resp: ClientResponse) -> None:
        try:
            response = resp.response_body
            assert isinstance(response, FetchResponse)
            handler = self.session_handler(fetch_target.id)
            if handler is None:
                self._log.error(
                    f"Unable to find FetchSessionHandler for node {fetch_target.id}. Ignoring fetch response."
                )
                return
            request_version = resp.request_header.api_version
            if not handler.handle_response(response, request_version):
                if response.error() is Errors.FETCH_SESSION_TOPIC_ID_ERROR:
                    self.metadata.request_update(False)
                return
            response_data = response.response_data(handler.session_topic_names(), request_version)
            metric_aggregator = FetchMetricsAggregator(
                self.metrics_manager, (TopicPartition(topic, index) for topic, index in response_data)
            )
            partitions_with_updated_leader_info: dict[TopicPartition, LeaderIdAndEpoch] = {}
            for (topic, partition_index), partition_data in response_data.items():
                partition = TopicPartition(topic, partition_index)
                request_data = data.session_partitions().get(partition)
                if request_data is None:
                    if data.metadata().is_full():
                        message = (
                            f"Response for missing full request partition: partition={partition}; "
                            f"metadata={data.metadata()}"
                        )
                    else:
                        message = (
                            f"Response for missing session request partition: partition={partition}; "
                            f"metadata={data.metadata()}; toSend={list(map(str, data.to_send()))}; "
                            f"toForget={list(map(str, data.to_forget()))}; "
                            f"toReplace={list(map(str, data.to_replace()))}"
                        )
                    raise RuntimeError(message)
                fetch_offset = request_data.fetch_offset
                if self._log.is_debug_enabled():
                    self._log.debug(
                        f"Fetch {self.fetch_config.isolation_level.name} at offset {fetch_offset} for partition "
                        f"{partition} returned fetch data {partition_data}"
                    )
                partition_error = Errors.for_code(partition_data.error_code)
                if partition_error in (Errors.NOT_LEADER_OR_FOLLOWER, Errors.FENCED_LEADER_EPOCH):
                    current_leader = partition_data.current_leader
                    self._log.debug(
                        f"For {partition}, received error {partition_error.name}, with leaderIdAndEpoch "
                        f"{current_leader}"
                    )
                    if current_leader.leader_id != -1 and current_leader.leader_epoch != -1:
                        partitions_with_updated_leader_info[partition] = LeaderIdAndEpoch(
                            current_leader.leader_id, current_leader.leader_epoch
                        )
                self.fetch_buffer.add(
                    CompletedFetch(
                        self.log_context,
                        self.subscriptions,
                        partition,
                        partition_data,
                        fetch_offset,
                        request_version,
                        metric_aggregator,
                    )
                )
            if partitions_with_updated_leader_info:
                leader_nodes = [
                    Node(e.node_id, e.host, e.port, e.rack)
                    for e in response.data.node_endpoints
                    if Node(e.node_id, e.host, e.port, e.rack) != Node.no_node()
                ]
                updated_partitions = self.metadata.update_partition_leadership(
                    partitions_with_updated_leader_info, leader_nodes
                )
                for tp in updated_partitions:
                    self._log.debug(f"For {tp}, as the leader was updated, position will be validated.")
                    self.subscriptions.maybe_validate_position_for_current_leader(
                        self._api_versions, tp, self.metadata.current_leader(tp)
                    )
            self.metrics_manager.record_latency(resp.request_latency_ms)
        finally:
            self._remove_pending_fetch_request(fetch_target, data.metadata().session_id)

    def handle_fetch_failure(self, fetch_target: Node, data: FetchRequestData, t: BaseException) -> None:
        try:
            handler = self.session_handler(fetch_target.id)
            if handler is not None:
                handler.handle_error(t)
                for tp in handler.session_topic_partitions():
                    self.subscriptions.clear_preferred_read_replica(tp)
        finally:
            self._remove_pending_fetch_request(fetch_target, data.metadata().session_id)

    def handle_close_fetch_session_success(
        self, fetch_target: Node, data: FetchRequestData, ignored: ClientResponse
    ) -> None:
        session_id = data.metadata().session_id
        self._remove_pending_fetch_request(fetch_target, session_id)
        self._log.debug(f"Successfully sent a close message for fetch session: {session_id} to node: {fetch_target}")

    def handle_close_fetch_session_failure(self, fetch_target: Node, data: FetchRequestData, t: BaseException) -> None:
        session_id = data.metadata().session_id
        self._remove_pending_fetch_request(fetch_target, session_id)
        self._log.debug(
            f"Unable to send a close message for fetch session: {session_id} to node: {fetch_target}. This may "
            "result in unnecessary fetch sessions at the broker.",
            t,
        )

    def _remove_pending_fetch_request(self, fetch_target: Node, session_id: int) -> None:
        if self._log.is_debug_enabled():
            self._log.debug(f"Removing pending request for fetch session: {session_id} for node: {fetch_target}")
        self.nodes_with_pending_fetch_requests.discard(fetch_target.id)

    def create_fetch_request(self, fetch_target: Node, request_data: FetchRequestData) -> FetchRequestBuilder:
        # Version 12 is the newest that works without topic ids.
        max_version = ApiKeys.FETCH.latest_version(False) if request_data.can_use_topic_ids() else 12
        request = FetchRequestBuilder.for_consumer(
            max_version, self.fetch_config.max_wait_ms, self.fetch_config.min_bytes, request_data.to_send()
        )
        request.isolation_level = self.fetch_config.isolation_level
        request.max_bytes = self.fetch_config.max_bytes
        request.metadata = request_data.metadata()
        request.removed = request_data.to_forget()
        request.replaced = request_data.to_replace()
        request.rack_id = self.fetch_config.client_rack_id
        if self._log.is_debug_enabled():
            self._log.debug(f"Sending {self.fetch_config.isolation_level.name} {request_data} to broker {fetch_target}")
        # Marked pending before any listener is added: the future may complete at once on another thread.
        if self._log.is_debug_enabled():
            self._log.debug(f"Adding pending request for node {fetch_target}")
        self.nodes_with_pending_fetch_requests.add(fetch_target.id)
        return request

    def _fetchable_partitions(self, buffered: set[TopicPartition] | None = None) -> list[TopicPartition]:
        # Fetchable partitions that have no data waiting in the buffer.
        if buffered is None:
            buffered = self.fetch_buffer.buffered_partitions()
        return self.subscriptions.fetchable_partitions(lambda tp: tp not in buffered)

    def _nodes_soon_fetchable(self, buffered: set[TopicPartition], current_time_ms: int) -> set[int]:
        """The nodes that some fetchable partition with buffered data will be fetched from once it is drained."""
        nodes: set[int] = set()
        for partition in self.subscriptions.fetchable_partitions(buffered.__contains__):
            position = self.subscriptions.position(partition)
            leader = None if position is None else position.current_leader.leader
            if leader is not None:
                replica = self.subscriptions.preferred_read_replica(partition, current_time_ms)
                nodes.add(leader.id if replica is None else replica)
        return nodes

    def _is_caught_up(self, partition: TopicPartition) -> bool:
        lag = self.subscriptions.partition_lag(partition, self.fetch_config.isolation_level)
        return lag is not None and lag <= 0

    def select_read_replica(self, partition: TopicPartition, leader_replica: Node, current_time_ms: int) -> Node:
        node_id = self.subscriptions.preferred_read_replica(partition, current_time_ms)
        if node_id is None:
            return leader_replica
        node = self.metadata.fetch().node_if_online(partition, node_id)
        if node is not None:
            return node
        self._log.trace(
            f"Not fetching from {node_id} for partition {partition} since it is marked offline or is missing from our "
            "metadata, using the leader instead."
        )
        # Possibly stale metadata: back to the leader, and refresh.
        request_metadata_update(self.metadata, self.subscriptions, partition)
        return leader_replica

    def prepare_close_fetch_session_requests(self) -> dict[Node, FetchRequestData]:
        cluster = self.metadata.fetch()
        fetchable: dict[Node, FetchSessionHandler.Builder] = {}
        for fetch_target_node_id, session_handler in self._session_handlers.items():
            # The next request of the session closes it.
            session_handler.notify_close()
            # Skipped when the node is gone or unreachable.
            fetch_target = cluster.node_by_id(fetch_target_node_id)
            if fetch_target is None or self.is_unavailable(fetch_target):
                self._log.debug(
                    f"Skip sending close session request to broker {fetch_target} since it is not reachable"
                )
                continue
            fetchable[fetch_target] = session_handler.new_builder()
        return {node: builder.build() for node, builder in fetchable.items()}

    def prepare_fetch_requests(self) -> dict[Node, FetchRequestData]:
        fetchable: dict[Node, FetchSessionHandler.Builder] = {}
        # Nodes where every partition to fetch is known to be at its end offset.
        caught_up: dict[Node, bool] = {}
        current_time_ms = self.time.milliseconds()
        self.metrics_manager.maybe_update_assignment(self.subscriptions)
        topic_ids = self.metadata.topic_ids()
        buffered = self.fetch_buffer.buffered_partitions()
        for partition in self._fetchable_partitions(buffered):
            position = self.subscriptions.position(partition)
            if position is None:
                raise RuntimeError(f"Missing position for fetchable partition {partition}")
            leader = position.current_leader.leader
            if leader is None:
                self._log.debug(
                    f"Requesting metadata update for partition {partition} since the position {position} is missing "
                    "the current leader node"
                )
                self.metadata.request_update(False)
                continue
            # The preferred read replica if there is one, else the leader.
            node = self.select_read_replica(partition, leader, current_time_ms)
            if self.is_unavailable(node):
                self.maybe_throw_auth_failure(node)
                # In the reconnect backoff the request would fail before being sent: skip it for now.
                if self._log.is_trace_enabled():
                    self._log.trace(
                        f"Skipping fetch for partition {partition} because node {node} is awaiting reconnect backoff"
                    )
            elif node.id in self.nodes_with_pending_fetch_requests:
                if self._log.is_trace_enabled():
                    self._log.trace(
                        f"Skipping fetch for partition {partition} because previous request to {node} has not been "
                        "processed"
                    )
            else:
                builder = fetchable.get(node)
                if builder is None:
                    handler = self._session_handlers.get(node.id)
                    if handler is None:
                        handler = FetchSessionHandler(self.log_context, node.id)
                        self._session_handlers[node.id] = handler
                    builder = handler.new_builder()
                    fetchable[node] = builder
                topic_id = topic_ids.get(partition.topic, ZERO_UUID)
                builder.add(
                    partition,
                    PartitionData(
                        topic_id,
                        position.offset,
                        INVALID_LOG_START_OFFSET,
                        self.fetch_config.fetch_size,
                        position.current_leader.epoch,
                        None,
                    ),
                )
                caught_up[node] = caught_up.get(node, True) and self._is_caught_up(partition)
                if self._log.is_debug_enabled():
                    self._log.debug(
                        f"Added {self.fetch_config.isolation_level.name} fetch request for partition {partition} at "
                        f"position {position} to node {node}"
                    )
        # PORT: Java sends these requests as they are. A request made only of partitions at their end offset waits
        # up to fetch.max.wait.ms on the broker, and while it is in flight nothing else can be fetched from that
        # node: partitions of the node that still had buffered records drain and then sit idle although the broker
        # holds more of their data. Such a request is held back until those records are drained and then goes with
        # them. Records and positions are Java's; a caught-up partition's new records come at most one fetch round
        # trip later than Java would return them (Java returns a buffered fetch whole before the next one anyway).
        if any(caught_up.values()):
            soon_fetchable = self._nodes_soon_fetchable(buffered, current_time_ms)
            for node, all_caught_up in caught_up.items():
                if all_caught_up and node.id in soon_fetchable:
                    if self._log.is_trace_enabled():
                        self._log.trace(
                            f"Not fetching from node {node} yet: its partitions to fetch are at their end offset and "
                            "others of its partitions have buffered data"
                        )
                    del fetchable[node]
        return {node: builder.build() for node, builder in fetchable.items()}

    def session_handler(self, node: int) -> FetchSessionHandler | None:
        return self._session_handlers.get(node)

    def close_internal(self, timer: Timer) -> None:
        self.fetch_buffer.close()

    def close(self, timer: Timer | None = None) -> None:
        if self._closed:
            return
        self._closed = True
        self.close_internal(self.time.timer(0) if timer is None else timer)
