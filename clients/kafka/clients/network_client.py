"""Port of clients/src/main/java/org/apache/kafka/clients/NetworkClient.java (Kafka 3.7).

The KafkaClient over a Selector: per-node connections with reconnect backoff and connection setup timeouts, an
ApiVersions exchange on every new connection (the version of each later request is the newest both sides
know), in-flight request tracking with max.in.flight.requests.per.connection, request timeouts that close the
connection, client-side throttling, and metadata refreshes through a MetadataUpdater (by default
DefaultMetadataUpdater, which sends metadata requests when the Metadata says an update is due).

Responses are matched to requests by order per connection and checked by correlation id. A lost connection
completes every request in flight on it with a disconnected ClientResponse.

# PORT: no client telemetry (KIP-714); SASL's reserved correlation ids are
# still skipped, as Java does.
Like Java's, the client is not thread-safe: one thread polls; wakeup() and initiate_close() may be called from
others.
"""

from __future__ import annotations

import enum
import random
import struct
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_request import ClientRequest
from kafka.clients.client_response import ClientResponse
from kafka.clients.cluster_connection_states import ClusterConnectionStates
from kafka.clients.default_host_resolver import DefaultHostResolver
from kafka.clients.host_resolver import HostResolver
from kafka.clients.in_flight_requests import InFlightRequests
from kafka.clients.kafka_client import KafkaClient
from kafka.clients.metadata import Metadata
from kafka.clients.metadata_updater import MetadataUpdater
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.clients.request_completion_handler import RequestCompletionCallback
from kafka.common.errors import (
    AuthenticationException,
    DisconnectException,
    KafkaException,
    UnsupportedVersionException,
)
from kafka.common.network.byte_buffer_send import ByteBufferSend
from kafka.common.network.channel_state import ChannelState
from kafka.common.network.inet_address import InetSocketAddress
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.selectable import Selectable
from kafka.common.network.send import Send
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Buffer, SchemaException
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequestBuilder
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.correlation_id_mismatch_exception import CorrelationIdMismatchException
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.common.metrics.sensor import Sensor

__all__ = ["InFlightRequest", "NetworkClient"]

_LONG_MAX = 2**63 - 1
_INT_MAX = 2**31 - 1
_INT_MIN = -(2**31)

# SaslClientAuthenticator's reserved correlation ids (the top eight of the int range).
MAX_RESERVED_CORRELATION_ID = _INT_MAX
MIN_RESERVED_CORRELATION_ID = MAX_RESERVED_CORRELATION_ID - 7


def _is_reserved(correlation_id: int) -> bool:
    return correlation_id >= MIN_RESERVED_CORRELATION_ID


class _State(enum.Enum):
    ACTIVE = "ACTIVE"
    CLOSING = "CLOSING"
    CLOSED = "CLOSED"


class InFlightRequest:
    """A request sent (or being sent) on a connection, with what is needed to complete it."""

    __slots__ = (
        "header",
        "destination",
        "callback",
        "expect_response",
        "request",
        "is_internal_request",
        "send",
        "send_time_ms",
        "created_time_ms",
        "request_timeout_ms",
    )

    def __init__(
        self,
        header: RequestHeader,
        request_timeout_ms: int,
        created_time_ms: int,
        destination: str,
        callback: RequestCompletionCallback | None,
        expect_response: bool,
        is_internal_request: bool,
        request: AbstractRequest[Any],
        send: Send,
        send_time_ms: int,
    ) -> None:
        self.header = header
        self.request_timeout_ms = request_timeout_ms
        self.created_time_ms = created_time_ms
        self.destination = destination
        self.callback = callback
        self.expect_response = expect_response
        self.is_internal_request = is_internal_request  # sent by the NetworkClient itself (metadata, ApiVersions)
        self.request = request
        self.send = send
        self.send_time_ms = send_time_ms

    @classmethod
    def of(
        cls,
        client_request: ClientRequest,
        header: RequestHeader,
        is_internal_request: bool,
        request: AbstractRequest[Any],
        send: Send,
        send_time_ms: int,
    ) -> InFlightRequest:
        return cls(
            header,
            client_request.request_timeout_ms,
            client_request.created_time_ms,
            client_request.destination,
            client_request.callback,
            client_request.expect_response,
            is_internal_request,
            request,
            send,
            send_time_ms,
        )

    def time_elapsed_since_send_ms(self, current_time_ms: int) -> int:
        return max(0, current_time_ms - self.send_time_ms)

    def time_elapsed_since_create_ms(self, current_time_ms: int) -> int:
        return max(0, current_time_ms - self.created_time_ms)

    def completed(self, response: AbstractResponse | None, time_ms: int) -> ClientResponse:
        return ClientResponse(
            self.header, self.callback, self.destination, self.created_time_ms, time_ms, False, None, None, response
        )

    def timed_out(self, time_ms: int) -> ClientResponse:
        # A timed-out request counts as disconnected too.
        return ClientResponse(
            self.header,
            self.callback,
            self.destination,
            self.created_time_ms,
            time_ms,
            True,
            None,
            None,
            None,
            timed_out=True,
        )

    def disconnected(self, time_ms: int) -> ClientResponse:
        return ClientResponse(
            self.header, self.callback, self.destination, self.created_time_ms, time_ms, True, None, None, None
        )

    def __repr__(self) -> str:
        return (
            f"InFlightRequest(header={self.header}, destination={self.destination}, "
            f"expectResponse={str(self.expect_response).lower()}, createdTimeMs={self.created_time_ms}, "
            f"sendTimeMs={self.send_time_ms}, isInternalRequest={str(self.is_internal_request).lower()}, "
            f"request={self.request}, callback={self.callback}, send={self.send})"
        )


def _to_send(request: AbstractRequest[Any], header: RequestHeader) -> Send:
    """The framed request as a Send. Record sets are in-memory on the client side."""
    parts: list[Buffer] = []
    for part in request.to_send(header):
        if isinstance(part, (bytes, bytearray, memoryview)):
            parts.append(part)
        else:
            parts.append(part.read_bytes())
    return ByteBufferSend(parts)


class NetworkClient(KafkaClient):
    """A KafkaClient for asynchronous request/response network I/O. Not thread-safe (see module docstring)."""

    def __init__(
        self,
        selector: Selectable,
        metadata: Metadata | MetadataUpdater,
        client_id: str,
        max_in_flight_requests_per_connection: int,
        reconnect_backoff_ms: int,
        reconnect_backoff_max: int,
        socket_send_buffer: int,
        socket_receive_buffer: int,
        default_request_timeout_ms: int,
        connection_setup_timeout_ms: int,
        connection_setup_timeout_max_ms: int,
        time: Time,
        discover_broker_versions: bool,
        api_versions: ApiVersions,
        log_context: LogContext,
        host_resolver: HostResolver | None = None,
        throttle_time_sensor: Sensor | None = None,
    ) -> None:
        """The client over `selector`; the second argument is a Metadata (which gets a DefaultMetadataUpdater) or
        a MetadataUpdater. `throttle_time_sensor` records the throttle time of every response (the producer's and
        the consumer's throttle-time metrics).

        # PORT: Java's constructors take a Metadata or a MetadataUpdater in different positions. No telemetry."""
        if metadata is None:
            raise ValueError("`metadata` must not be null")
        self._log = log_context.logger("org.apache.kafka.clients.NetworkClient")
        self._selector = selector
        self._client_id = client_id
        self._in_flight_requests = InFlightRequests(max_in_flight_requests_per_connection)
        self._connection_states = ClusterConnectionStates(
            reconnect_backoff_ms,
            reconnect_backoff_max,
            connection_setup_timeout_ms,
            connection_setup_timeout_max_ms,
            log_context,
            host_resolver if host_resolver is not None else DefaultHostResolver(),
        )
        self._socket_send_buffer = socket_send_buffer
        self._socket_receive_buffer = socket_receive_buffer
        self._correlation = 0
        self._rand_offset = random.Random()
        self._default_request_timeout_ms = default_request_timeout_ms
        self._reconnect_backoff_ms = reconnect_backoff_ms
        self._time = time
        self._discover_broker_versions = discover_broker_versions
        self._api_versions = api_versions
        self._nodes_needing_api_versions_fetch: dict[str, ApiVersionsRequestBuilder] = {}
        self._aborted_sends: list[ClientResponse] = []
        self._state = _State.ACTIVE
        self._state_lock = threading.Lock()
        self._throttle_time_sensor = throttle_time_sensor
        # A Selector made with write_on_send writes in send(); see _take_write_on_send.
        self._selector_writes_on_send = bool(getattr(selector, "write_on_send", False))
        if isinstance(metadata, MetadataUpdater):
            self._metadata_updater: MetadataUpdater = metadata
        else:
            self._metadata_updater = DefaultMetadataUpdater(self, metadata)

    # -- connections ----------------------------------------------------------------------------------------

    def ready(self, node: Node, now: int) -> bool:
        """Whether `node` can take a request now; if not connected (and past backoff), starts connecting."""
        if node.is_empty():
            raise ValueError(f"Cannot connect to empty node {node}")
        if self.is_ready(node, now):
            return True
        if self._connection_states.can_connect(node.id_string, now):
            # A request for a node we are not connected to: connect.
            self._initiate_connect(node, now)
        return False

    def can_connect(self, node: Node, now: int) -> bool:
        return self._connection_states.can_connect(node.id_string, now)

    def disconnect(self, node_id: str) -> None:
        """Closes the connection to `node_id`; its in-flight requests complete as disconnected on the next poll."""
        if self._connection_states.is_disconnected(node_id):
            self._log.debug(f"Client requested disconnect from node {node_id}, which is already disconnected")
            return
        self._log.info(f"Client requested disconnect from node {node_id}")
        self._selector.close(node_id)
        now = self._time.milliseconds()
        self._cancel_in_flight_requests(node_id, now, self._aborted_sends, False)
        self._connection_states.disconnected(node_id, now)

    def _cancel_in_flight_requests(
        self, node_id: str, now: int, responses: list[ClientResponse] | None, timed_out: bool
    ) -> None:
        for request in self._in_flight_requests.clear_all(node_id):
            if self._log.is_debug_enabled():
                self._log.debug(
                    f"Cancelled in-flight {request.header.api_key.name} request with correlation id "
                    f"{request.header.correlation_id} due to node {node_id} being disconnected (elapsed time since "
                    f"creation: {request.time_elapsed_since_create_ms(now)}ms, elapsed time since send: "
                    f"{request.time_elapsed_since_send_ms(now)}ms, request timeout: {request.request_timeout_ms}ms): "
                    f"{request.request}"
                )
            else:
                self._log.info(
                    f"Cancelled in-flight {request.header.api_key.name} request with correlation id "
                    f"{request.header.correlation_id} due to node {node_id} being disconnected (elapsed time since "
                    f"creation: {request.time_elapsed_since_create_ms(now)}ms, elapsed time since send: "
                    f"{request.time_elapsed_since_send_ms(now)}ms, request timeout: {request.request_timeout_ms}ms)"
                )
            if not request.is_internal_request:
                if responses is not None:
                    responses.append(request.timed_out(now) if timed_out else request.disconnected(now))
            elif request.header.api_key is ApiKeys.METADATA:
                self._metadata_updater.handle_failed_request(now, None)

    def close(self, node_id: str | None = None) -> None:
        """With a node: drops the connection and its in-flight requests without callbacks. Without: closes."""
        if node_id is not None:
            self._log.info(f"Client requested connection close from node {node_id}")
            self._selector.close(node_id)
            now = self._time.milliseconds()
            self._cancel_in_flight_requests(node_id, now, None, False)
            self._connection_states.remove(node_id)
            return
        with self._state_lock:
            if self._state is _State.ACTIVE:
                self._state = _State.CLOSING
            closing = self._state is _State.CLOSING
            if closing:
                self._state = _State.CLOSED
        if closing:
            self._selector.close()
            self._metadata_updater.close()
        else:
            self._log.warn("Attempting to close NetworkClient that has already been closed.")

    def connection_delay(self, node: Node, now: int) -> int:
        return self._connection_states.connection_delay(node.id_string, now)

    def throttle_delay_ms(self, node: Node, now: int) -> int:
        """The throttle time left for `node` (0 when not throttled)."""
        return self._connection_states.throttle_delay_ms(node.id_string, now)

    def poll_delay_ms(self, node: Node, now: int) -> int:
        return self._connection_states.poll_delay_ms(node.id_string, now)

    def connection_failed(self, node: Node) -> bool:
        return self._connection_states.is_disconnected(node.id_string)

    def authentication_exception(self, node: Node) -> AuthenticationException | None:
        return self._connection_states.authentication_exception(node.id_string)

    def is_ready(self, node: Node, now: int) -> bool:
        # While a metadata update is due, no node counts as ready, so that the update goes first.
        return not self._metadata_updater.is_update_due(now) and self._can_send_request(node.id_string, now)

    def _can_send_request(self, node: str, now: int) -> bool:
        return (
            self._connection_states.is_ready(node, now)
            and self._selector.is_channel_ready(node)
            and self._in_flight_requests.can_send_more(node)
        )

    # -- sending --------------------------------------------------------------------------------------------

    def send(self, request: ClientRequest, now: int) -> None:
        self._do_send(request, False, now)

    def send_internal_metadata_request(
        self, builder: MetadataRequestBuilder, node_connection_id: str, now: int
    ) -> None:
        client_request = self.new_client_request(node_connection_id, builder, now, True)
        self._do_send(client_request, True, now)

    def _do_send(self, client_request: ClientRequest, is_internal_request: bool, now: int) -> None:
        self._ensure_active()
        node_id = client_request.destination
        if not is_internal_request:
            # Requests from outside must go to a ready node; internal ones (ApiVersions) may go earlier.
            if not self._can_send_request(node_id, now):
                raise RuntimeError(f"Attempt to send a request to node {node_id} which is not ready.")
        builder = client_request.request_builder
        try:
            version_info = self._api_versions.get(node_id)
            if version_info is None:
                # No versions known: the ApiVersions request itself, or discovery is off.
                version = builder.latest_allowed_version
                if self._discover_broker_versions and self._log.is_trace_enabled():
                    self._log.trace(
                        f"No version information found when sending {client_request.api_key.name} with correlation "
                        f"id {client_request.correlation_id} to node {node_id}. Assuming version {version}."
                    )
            else:
                version = version_info.latest_usable_version(
                    client_request.api_key, builder.oldest_allowed_version, builder.latest_allowed_version
                )
            # Building may also fail with UnsupportedVersionException, for fields the version cannot carry.
            self._do_send_request(client_request, is_internal_request, now, builder.build(version))
        except UnsupportedVersionException as e:
            # Nothing goes on the wire; the request completes with the version mismatch on the next poll.
            self._log.debug(
                f"Version mismatch when attempting to send {builder} with correlation id "
                f"{client_request.correlation_id} to {client_request.destination}",
                e,
            )
            client_response = ClientResponse(
                client_request.make_header(builder.latest_allowed_version),
                client_request.callback,
                client_request.destination,
                now,
                now,
                False,
                e,
                None,
                None,
            )
            if not is_internal_request:
                self._aborted_sends.append(client_response)
            elif client_request.api_key is ApiKeys.METADATA:
                self._metadata_updater.handle_failed_request(now, e)

    def _do_send_request(
        self, client_request: ClientRequest, is_internal_request: bool, now: int, request: AbstractRequest[Any]
    ) -> None:
        destination = client_request.destination
        header = client_request.make_header(request.version)
        if self._log.is_debug_enabled():
            self._log.debug(
                f"Sending {client_request.api_key.name} request with header {header} and timeout "
                f"{client_request.request_timeout_ms} to node {destination}: {request}"
            )
        send = _to_send(request, header)
        in_flight_request = InFlightRequest.of(client_request, header, is_internal_request, request, send, now)
        self._in_flight_requests.add(in_flight_request)
        network_send = NetworkSend(destination, send)
        self._selector.send(network_send)
        if self._selector_writes_on_send:
            self._take_write_on_send(network_send, in_flight_request, now)

    def _take_write_on_send(self, send: NetworkSend, request: InFlightRequest, now: int) -> None:
        """What a selector that writes in send() did with `send`: a lost connection, or a completed send of a
        request that expects no response. The selector reports them only until its next poll, which clears them
        before this client looks, so they are taken now and their responses come from the next poll, as aborted
        sends do.

        # PORT: Java's Selector always writes in poll (see kafka.common.network.selector); a replica fetcher's
        # blocking round trip saves a poll, two epoll_ctl and an epoll_wait by writing at once."""
        destination = request.destination
        selector = self._selector
        # A disconnection reported by the last poll was handled then, and its node cannot have been sent to since
        # without a poll: an entry here is this write's.
        state = selector.disconnected().get(destination)
        if state is not None:
            self._process_disconnection(self._aborted_sends, destination, now, state)
        elif not request.expect_response and any(s is send for s in selector.completed_sends()):
            self._in_flight_requests.complete_last_sent(destination)
            self._aborted_sends.append(request.completed(None, now))

    # -- polling --------------------------------------------------------------------------------------------

    def poll(self, timeout_ms: int, now: int) -> list[ClientResponse]:
        """Does the socket I/O (blocking at most `timeout_ms`, less if a metadata update or request timeout is
        sooner) and returns the responses completed, after running their callbacks."""
        self._ensure_active()

        if self._aborted_sends:
            # Requests that failed without reaching the wire complete at once, without waiting on the network.
            responses: list[ClientResponse] = []
            self._handle_aborted_sends(responses)
            self._complete_responses(responses)
            return responses

        metadata_timeout = self._metadata_updater.maybe_update(now)
        try:
            self._selector.poll(max(0, min(timeout_ms, metadata_timeout, self._default_request_timeout_ms)))
        except OSError as e:
            self._log.error("Unexpected error during I/O", e)

        updated_now = self._time.milliseconds()
        responses = []
        self._handle_completed_sends(responses, updated_now)
        self._handle_completed_receives(responses, updated_now)
        self._handle_disconnections(responses, updated_now)
        self._handle_connections()
        self._handle_initiate_api_version_requests(updated_now)
        self._handle_timed_out_connections(responses, updated_now)
        self._handle_timed_out_requests(responses, updated_now)
        self._complete_responses(responses)
        return responses

    def _complete_responses(self, responses: list[ClientResponse]) -> None:
        for response in responses:
            try:
                response.on_complete()
            except Exception as e:
                self._log.error("Uncaught error in request completion:", e)

    def in_flight_request_count(self, node_id: str | None = None) -> int:
        return self._in_flight_requests.count(node_id)

    def has_in_flight_requests(self, node_id: str | None = None) -> bool:
        return not self._in_flight_requests.is_empty(node_id)

    def has_ready_nodes(self, now: int) -> bool:
        return self._connection_states.has_ready_nodes(now)

    def wakeup(self) -> None:
        self._selector.wakeup()

    def initiate_close(self) -> None:
        with self._state_lock:
            starting = self._state is _State.ACTIVE
            if starting:
                self._state = _State.CLOSING
        if starting:
            self.wakeup()

    def active(self) -> bool:
        return self._state is _State.ACTIVE

    def _ensure_active(self) -> None:
        if not self.active():
            raise DisconnectException(f"NetworkClient is no longer active, state is {self._state.name}")

    def least_loaded_node(self, now: int) -> Node | None:
        """A node to send to: a ready one with the fewest requests in flight (one with none at once); else one
        being connected; else the one that can be connected to whose last attempt is oldest. Starts at a random
        node so that load spreads."""
        nodes = self._metadata_updater.fetch_nodes()
        if not nodes:
            raise RuntimeError("There are no nodes in the Kafka cluster")
        inflight = _INT_MAX
        found_connecting: Node | None = None
        found_can_connect: Node | None = None
        found_ready: Node | None = None
        offset = self._rand_offset.randrange(len(nodes))
        for i in range(len(nodes)):
            node = nodes[(offset + i) % len(nodes)]
            node_id = node.id_string
            if self._can_send_request(node_id, now):
                curr_inflight = self._in_flight_requests.count(node_id)
                if curr_inflight == 0:
                    self._log.trace(f"Found least loaded node {node} connected with no in-flight requests")
                    return node
                if curr_inflight < inflight:
                    inflight = curr_inflight
                    found_ready = node
            elif self._connection_states.is_preparing_connection(node_id):
                found_connecting = node
            elif self.can_connect(node, now):
                if found_can_connect is None or self._connection_states.last_connect_attempt_ms(
                    found_can_connect.id_string
                ) > self._connection_states.last_connect_attempt_ms(node_id):
                    found_can_connect = node
            else:
                self._log.trace(
                    f"Removing node {node} from least loaded node selection since it is neither ready for sending or "
                    "connecting"
                )
        # Established connections first, then those being made, then new ones.
        if found_ready is not None:
            self._log.trace(f"Found least loaded node {found_ready} with {inflight} inflight requests")
            return found_ready
        if found_connecting is not None:
            self._log.trace(f"Found least loaded connecting node {found_connecting}")
            return found_connecting
        if found_can_connect is not None:
            self._log.trace(f"Found least loaded node {found_can_connect} with no active connection")
            return found_can_connect
        self._log.trace("Least loaded node selection failed to find an available node")
        return None

    @staticmethod
    def parse_response(response_buffer: Buffer, request_header: RequestHeader) -> AbstractResponse:
        """The response to the request with `request_header`; CorrelationIdMismatchException if it answers another
        request, SchemaException if it is cut short."""
        try:
            return AbstractResponse.parse_response(response_buffer, request_header)
        except (struct.error, IndexError, EOFError) as e:
            raise SchemaException(
                f"Buffer underflow while parsing response for request with header {request_header}"
            ) from e
        except CorrelationIdMismatchException as e:
            if _is_reserved(request_header.correlation_id) and not _is_reserved(e.response_correlation_id):
                raise SchemaException(
                    "The response is unrelated to Sasl request since its correlation id is "
                    f"{e.response_correlation_id} and the reserved range for Sasl request is [ "
                    f"{MIN_RESERVED_CORRELATION_ID},{MAX_RESERVED_CORRELATION_ID}]"
                ) from e
            raise

    def _process_disconnection(
        self,
        responses: list[ClientResponse],
        node_id: str,
        now: int,
        disconnect_state: ChannelState,
        timed_out: bool = False,
    ) -> None:
        self._connection_states.disconnected(node_id, now)
        self._api_versions.remove(node_id)
        self._nodes_needing_api_versions_fetch.pop(node_id, None)
        state = disconnect_state.state()
        if state is ChannelState.State.AUTHENTICATION_FAILED:
            exception = disconnect_state.exception()
            self._connection_states.authentication_failed(node_id, now, exception)
            self._log.error(
                f"Connection to node {node_id} ({disconnect_state.remote_address()}) failed authentication due to: "
                f"{exception}"
            )
        elif state is ChannelState.State.AUTHENTICATE:
            self._log.warn(
                f"Connection to node {node_id} ({disconnect_state.remote_address()}) terminated during "
                "authentication. This may happen due to any of the following reasons: (1) Authentication failed due "
                "to invalid credentials with brokers older than 1.0.0, (2) Firewall blocking Kafka TLS traffic (eg "
                "it may only allow HTTPS traffic), (3) Transient network issue."
            )
        elif state is ChannelState.State.NOT_CONNECTED:
            self._log.warn(
                f"Connection to node {node_id} ({disconnect_state.remote_address()}) could not be established. Node "
                "may not be available."
            )
        # Disconnects in other states were logged at debug level by the Selector.
        self._cancel_in_flight_requests(node_id, now, responses, timed_out)
        self._metadata_updater.handle_server_disconnect(now, node_id, disconnect_state.exception())

    def _process_timeout_disconnection(self, responses: list[ClientResponse], node_id: str, now: int) -> None:
        self._process_disconnection(responses, node_id, now, ChannelState.LOCAL_CLOSE, True)

    def _handle_timed_out_requests(self, responses: list[ClientResponse], now: int) -> None:
        for node_id in self._in_flight_requests.nodes_with_timed_out_requests(now):
            # The connection is closed: a late response must not be taken for the next request's.
            self._selector.close(node_id)
            self._log.info(f"Disconnecting from node {node_id} due to request timeout.")
            self._process_timeout_disconnection(responses, node_id, now)

    def _handle_aborted_sends(self, responses: list[ClientResponse]) -> None:
        responses.extend(self._aborted_sends)
        self._aborted_sends.clear()

    def _handle_timed_out_connections(self, responses: list[ClientResponse], now: int) -> None:
        for node_id in self._connection_states.nodes_with_connection_setup_timeout(now):
            self._selector.close(node_id)
            self._log.info(
                f"Disconnecting from node {node_id} due to socket connection setup timeout. The timeout value is "
                f"{self._connection_states.connection_setup_timeout_ms(node_id)} ms."
            )
            self._process_timeout_disconnection(responses, node_id, now)

    def _handle_completed_sends(self, responses: list[ClientResponse], now: int) -> None:
        # A request that expects no response is complete once written.
        for send in self._selector.completed_sends():
            request = self._in_flight_requests.last_sent(send.destination_id())
            if not request.expect_response:
                self._in_flight_requests.complete_last_sent(send.destination_id())
                responses.append(request.completed(None, now))

    def _maybe_throttle(self, response: AbstractResponse, api_version: int, node_id: str, now: int) -> None:
        throttle_time_ms = response.throttle_time_ms()
        if throttle_time_ms > 0 and response.should_client_throttle(api_version):
            self._connection_states.throttle(node_id, now + throttle_time_ms)
            self._log.trace(
                f"Connection to node {node_id} is throttled for {throttle_time_ms} ms until timestamp "
                f"{now + throttle_time_ms}"
            )

    def _handle_completed_receives(self, responses: list[ClientResponse], now: int) -> None:
        for receive in self._selector.completed_receives():
            source = receive.source()
            req = self._in_flight_requests.complete_next(source)
            payload = receive.payload()
            assert payload is not None
            response = self.parse_response(payload, req.header)
            if self._log.is_debug_enabled():
                self._log.debug(
                    f"Received {req.header.api_key.name} response from node {req.destination} for request with "
                    f"header {req.header}: {response}"
                )
            if self._throttle_time_sensor is not None:
                self._throttle_time_sensor.record(response.throttle_time_ms(), now)
            # A response carrying a throttle time throttles the connection.
            self._maybe_throttle(response, req.header.api_version, req.destination, now)
            if req.is_internal_request and isinstance(response, MetadataResponse):
                self._metadata_updater.handle_successful_response(req.header, now, response)
            elif req.is_internal_request and isinstance(response, ApiVersionsResponse):
                self._handle_api_versions_response(responses, req, now, response)
            else:
                responses.append(req.completed(response, now))

    def _handle_api_versions_response(
        self,
        responses: list[ClientResponse],
        req: InFlightRequest,
        now: int,
        api_versions_response: ApiVersionsResponse,
    ) -> None:
        node = req.destination
        data = api_versions_response.data
        if data.error_code != Errors.NONE.code:
            if req.request.version == 0 or data.error_code != Errors.UNSUPPORTED_VERSION.code:
                self._log.warn(
                    f"Received error {Errors.for_code(data.error_code).name} from node {node} when making an "
                    f"ApiVersionsRequest with correlation id {req.header.correlation_id}. Disconnecting."
                )
                self._selector.close(node)
                self._process_disconnection(responses, node, now, ChannelState.LOCAL_CLOSE)
            else:
                # Since 2.4 (KIP-511) an UNSUPPORTED_VERSION answer lists the ApiVersions versions the broker
                # serves; without that list, v0.
                max_api_version = 0
                if len(data.api_keys) > 0:
                    api_version = data.api_keys.find(ApiKeys.API_VERSIONS.id)
                    if api_version is not None:
                        max_api_version = api_version.max_version
                self._nodes_needing_api_versions_fetch[node] = ApiVersionsRequestBuilder(max_api_version)
            return
        node_version_info = NodeApiVersions(data.api_keys, data.supported_features, bool(data.zk_migration_ready))
        self._api_versions.update(node, node_version_info)
        self._connection_states.ready(node)
        if self._log.is_debug_enabled():
            self._log.debug(
                f"Node {node} has finalized features epoch: {data.finalized_features_epoch}, finalized features: "
                f"{list(data.finalized_features)}, supported features: {list(data.supported_features)}, ZK migration "
                f"ready: {str(bool(data.zk_migration_ready)).lower()}, API versions: {node_version_info}."
            )

    def _handle_disconnections(self, responses: list[ClientResponse], now: int) -> None:
        for node, state in list(self._selector.disconnected().items()):
            self._log.info(f"Node {node} disconnected.")
            self._process_disconnection(responses, node, now, state)

    def _handle_connections(self) -> None:
        for node in self._selector.connected():
            # Connected; the channel may still need a handshake before requests can go (checked when sending).
            if self._discover_broker_versions:
                self._nodes_needing_api_versions_fetch[node] = ApiVersionsRequestBuilder()
                self._log.debug(f"Completed connection to node {node}. Fetching API versions.")
            else:
                self._connection_states.ready(node)
                self._log.debug(f"Completed connection to node {node}. Ready.")

    def _handle_initiate_api_version_requests(self, now: int) -> None:
        for node, builder in list(self._nodes_needing_api_versions_fetch.items()):
            if self._selector.is_channel_ready(node) and self._in_flight_requests.can_send_more(node):
                self._log.debug(f"Initiating API versions fetch from node {node}.")
                # CHECKING_API_VERSIONS only once the request is queued, so that a channel that never becomes
                # ready cannot leave the node in that state.
                self._connection_states.checking_api_versions(node)
                client_request = self.new_client_request(node, builder, now, True)
                self._do_send(client_request, True, now)
                del self._nodes_needing_api_versions_fetch[node]

    def _initiate_connect(self, node: Node, now: int) -> None:
        node_connection_id = node.id_string
        try:
            assert node.host is not None
            self._connection_states.connecting(node_connection_id, now, node.host)
            address = self._connection_states.current_address(node_connection_id)
            self._log.debug(f"Initiating connection to node {node} using address {address}")
            self._selector.connect(
                node_connection_id,
                InetSocketAddress(address, node.port),
                self._socket_send_buffer,
                self._socket_receive_buffer,
            )
        except OSError as e:
            self._log.warn(f"Error connecting to node {node}", e)
            # Tried again after the backoff.
            self._connection_states.disconnected(node_connection_id, now)
            self._metadata_updater.handle_server_disconnect(now, node_connection_id, None)

    def is_any_node_connecting(self) -> bool:
        return any(self._connection_states.is_connecting(n.id_string) for n in self._metadata_updater.fetch_nodes())

    # -- requests -------------------------------------------------------------------------------------------

    def new_client_request(
        self,
        node_id: str,
        request_builder: Builder[Any],
        created_time_ms: int,
        expect_response: bool,
        request_timeout_ms: int | None = None,
        callback: RequestCompletionCallback | None = None,
    ) -> ClientRequest:
        return ClientRequest(
            node_id,
            request_builder,
            self.next_correlation_id(),
            self._client_id,
            created_time_ms,
            expect_response,
            self._default_request_timeout_ms if request_timeout_ms is None else request_timeout_ms,
            callback,
        )

    def next_correlation_id(self) -> int:
        """The next correlation id: an int32 that wraps around, skipping the ids SASL reserves."""
        if _is_reserved(self._correlation):
            # Past the reserved ids the int wraps to its minimum, as Java's does.
            self._correlation = _INT_MIN
        correlation = self._correlation
        self._correlation += 1
        return correlation

    def discover_broker_versions(self) -> bool:
        return self._discover_broker_versions

    # -- used by DefaultMetadataUpdater ---------------------------------------------------------------------

    @property
    def default_request_timeout_ms(self) -> int:
        return self._default_request_timeout_ms

    @property
    def reconnect_backoff_ms(self) -> int:
        return self._reconnect_backoff_ms

    @property
    def connection_states(self) -> ClusterConnectionStates:
        return self._connection_states

    def can_send_request(self, node: str, now: int) -> bool:
        return self._can_send_request(node, now)

    def initiate_connect(self, node: Node, now: int) -> None:
        self._initiate_connect(node, now)

    @property
    def log(self) -> Any:
        return self._log


class DefaultMetadataUpdater(MetadataUpdater):
    """Keeps a Metadata current by sending metadata requests on the client's own connections.

    # PORT: an inner class in Java; here a class that holds its NetworkClient."""

    def __init__(self, client: NetworkClient, metadata: Metadata) -> None:
        self._client = client
        self._metadata = metadata
        # (request version, is partial update) of the request in flight, or None.
        self._in_progress: tuple[int, bool] | None = None

    def fetch_nodes(self) -> Sequence[Node]:
        return self._metadata.fetch().nodes

    def is_update_due(self, now: int) -> bool:
        return not self._has_fetch_in_progress() and self._metadata.time_to_next_update(now) == 0

    def _has_fetch_in_progress(self) -> bool:
        return self._in_progress is not None

    def maybe_update(self, now: int) -> int:
        time_to_next_metadata_update = self._metadata.time_to_next_update(now)
        wait_for_metadata_fetch = self._client.default_request_timeout_ms if self._has_fetch_in_progress() else 0
        metadata_timeout = max(time_to_next_metadata_update, wait_for_metadata_fetch)
        if metadata_timeout > 0:
            return metadata_timeout
        # The poll timeouts this yields depend closely on least_loaded_node's choices.
        node = self._client.least_loaded_node(now)
        if node is None:
            self._client.log.debug("Give up sending metadata request since no node is available")
            return self._client.reconnect_backoff_ms
        return self._maybe_update(now, node)

    def handle_server_disconnect(
        self, now: int, destination_id: str, maybe_fatal_exception: AuthenticationException | None
    ) -> None:
        cluster = self._metadata.fetch()
        # Connection refused and authentication failures are logged by the client; this covers a bootstrap
        # broker lost before it gave metadata.
        if cluster.is_bootstrap_configured:
            node = cluster.node_by_id(int(destination_id))
            if node is not None:
                self._client.log.warn(f"Bootstrap broker {node} disconnected")
        # A disconnect while an update is due counts as a failed update, for the backoff.
        if self.is_update_due(now):
            self.handle_failed_request(now, None)
        if maybe_fatal_exception is not None:
            self._metadata.fatal_error(maybe_fatal_exception)
        # The metadata may be stale: ask for an update.
        self._metadata.request_update(False)

    def handle_failed_request(self, now: int, maybe_fatal_exception: KafkaException | None) -> None:
        if maybe_fatal_exception is not None:
            self._metadata.fatal_error(maybe_fatal_exception)
        self._metadata.failed_update(now)
        self._in_progress = None

    def handle_successful_response(self, request_header: RequestHeader, now: int, response: MetadataResponse) -> None:
        # Leaders without a listener of this name point at broker misconfiguration (or listeners being added).
        missing_listener_partitions = [
            TopicPartition(tm.topic, pm.partition)
            for tm in response.topic_metadata()
            for pm in tm.partition_metadata
            if pm.error is Errors.LISTENER_NOT_FOUND
        ]
        if missing_listener_partitions:
            count = len(missing_listener_partitions)
            shown = ", ".join(str(tp) for tp in missing_listener_partitions[:10])
            self._client.log.warn(
                f"{count} partitions have leader brokers without a matching listener, including [{shown}]"
            )
        errors = response.errors()
        if errors:
            shown_errors = ", ".join(f"{t}={e.name}" for t, e in errors.items())
            self._client.log.warn(
                f"Error while fetching metadata with correlation id {request_header.correlation_id} : "
                f"{{{shown_errors}}}"
            )
        # A broker still starting may answer with no brokers at all: try again later.
        if not list(response.brokers()):
            self._client.log.trace(
                f"Ignoring empty metadata response with correlation id {request_header.correlation_id}."
            )
            self._metadata.failed_update(now)
        else:
            assert self._in_progress is not None
            request_version, is_partial_update = self._in_progress
            self._metadata.update(request_version, response, is_partial_update, now)
        self._in_progress = None

    def close(self) -> None:
        self._metadata.close()

    def _maybe_update(self, now: int, node: Node) -> int:
        node_connection_id = node.id_string
        client = self._client
        if client.can_send_request(node_connection_id, now):
            request_and_version = self._metadata.new_metadata_request_and_version(now)
            metadata_request = request_and_version.request_builder
            client.log.debug(f"Sending metadata request {metadata_request} to node {node}")
            client.send_internal_metadata_request(metadata_request, node_connection_id, now)
            self._in_progress = (request_and_version.request_version, request_and_version.is_partial_update)
            return client.default_request_timeout_ms
        # While a connection is being made, wait for it rather than connecting to more nodes. (There is no
        # connect timeout to wait for; the reconnect backoff stands in, as in Java.)
        if client.is_any_node_connecting():
            return client.reconnect_backoff_ms
        if client.connection_states.can_connect(node_connection_id, now):
            client.log.debug(f"Initialize connection to node {node} for sending metadata request")
            client.initiate_connect(node, now)
            return client.reconnect_backoff_ms
        # Connected but at the in-flight limit, or connecting: a network event will tell when to try again.
        return _LONG_MAX
