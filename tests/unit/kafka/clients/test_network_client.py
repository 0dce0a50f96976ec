"""Tests of kafka.clients.network_client with a MockSelector (from Kafka's NetworkClientTest): the ApiVersions
exchange (including the UNSUPPORTED_VERSION fallback), request/response matching, request and connection setup
timeouts, throttling, least_loaded_node, disconnects completing in-flight requests, version mismatches, and the
DefaultMetadataUpdater."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.cluster_connection_states import ClusterConnectionStates
from kafka.clients.host_resolver import HostResolver
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.clients.metadata import Metadata
from kafka.clients.network_client import MIN_RESERVED_CORRELATION_ID, NetworkClient
from kafka.common.errors import DisconnectException, KafkaException, UnsupportedVersionException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import ApiVersionsResponseData, ProduceRequestData, ProduceResponseData
from kafka.common.network.inet_address import InetAddress
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.correlation_id_mismatch_exception import CorrelationIdMismatchException
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.produce_request import ProduceRequest, ProduceRequestBuilder
from kafka.common.requests.produce_response import ProduceResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.response_header import ResponseHeader
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_selector import DelayedReceive, MockSelector
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

DEFAULT_REQUEST_TIMEOUT_MS = 1000
RECONNECT_BACKOFF_MS = 10 * 1000
RECONNECT_BACKOFF_MAX_MS = 10 * 10000
CONNECTION_SETUP_TIMEOUT_MS = 5 * 1000
CONNECTION_SETUP_TIMEOUT_MAX_MS = 127 * 1000
NODE = Node(0, "localhost", 1969)
PRODUCE_LATEST = ApiKeys.PRODUCE.latest_version()


class _Resolver(HostResolver):
    """Every host but "badhost" is 127.0.0.1 (no DNS in unit tests)."""

    def resolve(self, host: str) -> list[InetAddress]:
        if host == "badhost":
            raise OSError(f"{host}: Name or service not known")
        return [InetAddress(host, "127.0.0.1")]


class _TestMetadataUpdater(ManualMetadataUpdater):
    """Records the failure of an internal metadata request (Java's NetworkClientTest.TestMetadataUpdater)."""

    def __init__(self, nodes: list[Node]) -> None:
        super().__init__(nodes)
        self.failure: KafkaException | None = None

    def handle_failed_request(self, now: int, maybe_fatal_exception: KafkaException | None) -> None:
        self.failure = maybe_fatal_exception


class _Env:
    def __init__(self) -> None:
        self.time = MockTime()
        self.selector = MockSelector(self.time)
        self.metadata_updater = _TestMetadataUpdater([NODE])
        self.client = self.make(self.metadata_updater)

    def make(
        self,
        metadata: Metadata | ManualMetadataUpdater,
        reconnect_backoff_max_ms: int = RECONNECT_BACKOFF_MAX_MS,
        discover_broker_versions: bool = True,
        connection_setup_timeout_ms: int = CONNECTION_SETUP_TIMEOUT_MS,
    ) -> NetworkClient:
        return NetworkClient(
            self.selector,
            metadata,
            "mock",
            2**31 - 1,
            RECONNECT_BACKOFF_MS,
            reconnect_backoff_max_ms,
            64 * 1024,
            64 * 1024,
            DEFAULT_REQUEST_TIMEOUT_MS,
            connection_setup_timeout_ms,
            CONNECTION_SETUP_TIMEOUT_MAX_MS,
            self.time,
            discover_broker_versions,
            ApiVersions(),
            LogContext(),
            host_resolver=_Resolver(),
        )

    def respond(self, response: AbstractResponse, version: int, correlation_id: int, node: Node = NODE) -> None:
        self.selector.complete_receive(
            NetworkReceive(source=node.id_string, payload=_serialize(response, version, correlation_id))
        )

    def delayed_api_versions_response(self, correlation_id: int, version: int, response: ApiVersionsResponse) -> None:
        payload = _serialize(response, version, correlation_id)
        self.selector.delayed_receive(
            DelayedReceive(NODE.id_string, NetworkReceive(source=NODE.id_string, payload=payload))
        )

    def await_ready(self, client: NetworkClient, node: Node = NODE) -> None:
        if client.discover_broker_versions():
            response = ApiVersionsResponse.default_api_versions_response()
            self.delayed_api_versions_response(0, response.api_version(ApiKeys.API_VERSIONS.id).max_version, response)
        while not client.ready(node, self.time.milliseconds()):
            client.poll(1, self.time.milliseconds())
        self.selector.clear()

    def send_produce(
        self, client: NetworkClient, callback: list[ClientResponse], timeout_ms: int = DEFAULT_REQUEST_TIMEOUT_MS
    ) -> int:
        builder = ProduceRequest.for_current_magic(ProduceRequestData(acks=1, timeout_ms=1000))
        request = client.new_client_request(
            NODE.id_string, builder, self.time.milliseconds(), True, timeout_ms, callback.append
        )
        client.send(request, self.time.milliseconds())
        return request.correlation_id


def _serialize(response: AbstractResponse, version: int, correlation_id: int) -> bytes:
    header = ResponseHeader(correlation_id, response.api_key.response_header_version(version))
    return response.serialize_with_header(header, version)


@pytest.fixture
def env() -> Iterator[_Env]:
    e = _Env()
    yield e
    e.client.close()


def test_send_to_unready_node(env: _Env) -> None:
    """Sending to a node that is not ready is an error."""
    request = env.client.new_client_request("5", MetadataRequestBuilder(["test"], True), env.time.milliseconds(), False)
    with pytest.raises(RuntimeError, match="Attempt to send a request to node 5 which is not ready"):
        env.client.send(request, env.time.milliseconds())


@pytest.mark.parametrize("discover", [True, False])
def test_simple_request_response(env: _Env, discover: bool) -> None:
    """A request is answered by the response with its correlation id, and its callback runs."""
    client = env.make(env.metadata_updater, discover_broker_versions=discover)
    env.await_ready(client)
    builder = ProduceRequestBuilder(PRODUCE_LATEST, PRODUCE_LATEST, ProduceRequestData(acks=1, timeout_ms=1000))
    handled: list[ClientResponse] = []
    request = client.new_client_request(
        NODE.id_string, builder, env.time.milliseconds(), True, DEFAULT_REQUEST_TIMEOUT_MS, handled.append
    )
    client.send(request, env.time.milliseconds())
    client.poll(1, env.time.milliseconds())
    assert client.in_flight_request_count() == 1
    env.respond(ProduceResponse(ProduceResponseData()), PRODUCE_LATEST, request.correlation_id)
    responses = client.poll(1, env.time.milliseconds())
    assert len(responses) == 1 and handled == responses
    assert handled[0].has_response
    assert handled[0].request_header.correlation_id == request.correlation_id
    assert client.in_flight_request_count() == 0


def test_dns_lookup_failure(env: _Env) -> None:
    """A node whose host does not resolve is simply not ready (and backs off)."""
    bad = Node(1234, "badhost", 1234)
    assert not env.client.ready(bad, env.time.milliseconds())
    assert env.client.connection_failed(bad)


def test_close_node(env: _Env) -> None:
    """close(node) drops its in-flight requests without callbacks; the node is then not ready."""
    env.await_ready(env.client)
    env.client.poll(1, env.time.milliseconds())
    assert env.client.is_ready(NODE, env.time.milliseconds())
    handled: list[ClientResponse] = []
    env.send_produce(env.client, handled)
    assert env.client.in_flight_request_count(NODE.id_string) == 1
    assert env.client.has_in_flight_requests(NODE.id_string) and env.client.has_in_flight_requests()
    env.client.close(NODE.id_string)
    assert env.client.in_flight_request_count(NODE.id_string) == 0
    assert not env.client.has_in_flight_requests()
    assert not env.client.is_ready(NODE, 0)
    assert env.client.poll(1, env.time.milliseconds()) == [] and handled == []


def test_unsupported_version_during_internal_metadata_request(env: _Env) -> None:
    """A metadata request the node cannot take (allow_auto_topic_creation=False needs v4) fails the updater."""
    builder = MetadataRequestBuilder(["topic_1"], False, 3, 3)
    env.client.send_internal_metadata_request(builder, NODE.id_string, env.time.milliseconds())
    assert isinstance(env.metadata_updater.failure, UnsupportedVersionException)


def test_version_mismatch_completes_the_request(env: _Env) -> None:
    """A user request with no version both sides know completes on the next poll with version_mismatch set."""
    env.await_ready(env.client)
    handled: list[ClientResponse] = []
    builder = MetadataRequestBuilder(["t"], False, 1, 3)  # needs v4+, allowed only up to v3
    request = env.client.new_client_request(
        NODE.id_string, builder, env.time.milliseconds(), True, callback=handled.append
    )
    env.client.send(request, env.time.milliseconds())
    responses = env.client.poll(0, env.time.milliseconds())
    assert responses == handled and len(handled) == 1
    assert isinstance(handled[0].version_mismatch, UnsupportedVersionException)
    assert not handled[0].has_response and not handled[0].was_disconnected


def _parse_header(payload: bytes) -> RequestHeader:
    return RequestHeader.parse(payload)


def test_invalid_api_versions_request(env: _Env) -> None:
    """An ApiVersions error other than UNSUPPORTED_VERSION closes the connection."""
    env.client.ready(NODE, env.time.milliseconds())
    env.client.poll(0, env.time.milliseconds())
    assert env.client.has_in_flight_requests(NODE.id_string)
    env.delayed_api_versions_response(
        0,
        ApiKeys.API_VERSIONS.latest_version(),
        ApiVersionsResponse(ApiVersionsResponseData(error_code=Errors.INVALID_REQUEST.code, throttle_time_ms=0)),
    )
    env.client.poll(0, env.time.milliseconds())
    assert not env.client.has_in_flight_requests(NODE.id_string)
    assert not env.client.is_ready(NODE, env.time.milliseconds())
    assert env.client.connection_failed(NODE)


def test_api_versions_request(env: _Env) -> None:
    """The ApiVersions answer makes the node ready."""
    env.client.ready(NODE, env.time.milliseconds())
    env.client.poll(0, env.time.milliseconds())
    assert env.client.has_in_flight_requests(NODE.id_string)
    env.delayed_api_versions_response(
        0, ApiKeys.API_VERSIONS.latest_version(), ApiVersionsResponse.default_api_versions_response()
    )
    env.client.poll(0, env.time.milliseconds())
    assert not env.client.has_in_flight_requests(NODE.id_string)
    assert env.client.is_ready(NODE, env.time.milliseconds())


@pytest.mark.parametrize(("broker_max", "expected_retry_version"), [(2, 2), (None, 0)])
def test_unsupported_api_versions_request(env: _Env, broker_max: int | None, expected_retry_version: int) -> None:
    """An UNSUPPORTED_VERSION answer to ApiVersions is retried at the broker's highest ApiVersions version (KIP-511),
    or at v0 when it does not say."""
    env.client.ready(NODE, env.time.milliseconds())
    env.client.poll(0, env.time.milliseconds())
    assert env.client.has_in_flight_requests(NODE.id_string)
    env.client.poll(0, env.time.milliseconds())
    assert len(env.selector.completed_sends()) == 1
    header = _parse_header(env.selector.completed_send_buffers()[0].buffer())
    assert header.api_key is ApiKeys.API_VERSIONS and header.api_version == ApiKeys.API_VERSIONS.latest_version()

    data = ApiVersionsResponseData(error_code=Errors.UNSUPPORTED_VERSION.code)
    if broker_max is not None:
        data.api_keys.append(
            ApiVersionsResponseData.ApiVersion(api_key=ApiKeys.API_VERSIONS.id, min_version=0, max_version=broker_max)
        )
    env.delayed_api_versions_response(0, 0, ApiVersionsResponse(data))
    env.client.poll(0, env.time.milliseconds())
    assert env.client.has_in_flight_requests(NODE.id_string)
    assert len(env.selector.completed_receives()) == 1
    env.selector.completed_sends().clear()
    env.selector.completed_send_buffers().clear()
    env.selector.completed_receives().clear()  # type: ignore[attr-defined]

    env.client.poll(0, env.time.milliseconds())
    assert len(env.selector.completed_sends()) == 1
    header = _parse_header(env.selector.completed_send_buffers()[0].buffer())
    assert header.api_key is ApiKeys.API_VERSIONS and header.api_version == expected_retry_version
    env.delayed_api_versions_response(1, 0, ApiVersionsResponse.default_api_versions_response())
    env.client.poll(0, env.time.milliseconds())
    assert not env.client.has_in_flight_requests(NODE.id_string)
    assert env.client.is_ready(NODE, env.time.milliseconds())


@pytest.mark.parametrize("request_timeout_ms", [DEFAULT_REQUEST_TIMEOUT_MS, 42])
def test_request_timeout(env: _Env, request_timeout_ms: int) -> None:
    """A request unanswered past its timeout completes disconnected and timed out, and metadata is refreshed."""
    metadata = Metadata(50, 50, 5000, LogContext(), ClusterResourceListeners())
    metadata.update_with_current_request_version(metadata_update_with(2, {}), False, env.time.milliseconds())
    client = env.make(metadata, reconnect_backoff_max_ms=0, discover_broker_versions=False)
    node = Node(0, "localhost", 1969)

    env.await_ready(client, node)
    handled: list[ClientResponse] = []
    correlation_id = env.send_produce(client, handled, request_timeout_ms)
    env.respond(ProduceResponse(ProduceResponseData()), PRODUCE_LATEST, correlation_id)
    responses = client.poll(0, env.time.milliseconds())
    assert len(responses) == 1 and responses[0].destination == node.id_string
    assert not responses[0].was_disconnected and not responses[0].was_timed_out
    assert not metadata.update_requested()

    env.await_ready(client, node)
    env.send_produce(client, handled, request_timeout_ms)
    env.time.sleep(request_timeout_ms + 1)
    responses = client.poll(0, env.time.milliseconds())
    assert len(responses) == 1
    assert responses[0].was_disconnected and responses[0].was_timed_out
    assert metadata.update_requested()
    client.close()


def test_connection_setup_timeout(env: _Env) -> None:
    """Connections still pending after the setup timeout (plus jitter) are closed and count as failed."""
    node0, node1 = Node(0, "localhost", 1969), Node(1, "localhost", 1970)
    env.client.ready(node0, env.time.milliseconds())
    env.selector.server_connection_blocked(node0.id_string)
    env.client.ready(node1, env.time.milliseconds())
    env.selector.server_connection_blocked(node1.id_string)
    env.client.poll(0, env.time.milliseconds())
    assert not env.client.connection_failed(node0)
    env.time.sleep(int(CONNECTION_SETUP_TIMEOUT_MS * 1.2) + 1)
    env.client.poll(0, env.time.milliseconds())
    assert env.client.connection_failed(node0) and env.client.connection_failed(node1)


def test_connection_throttling(env: _Env) -> None:
    """A response with a throttle time keeps the node unready until it has passed."""
    env.await_ready(env.client)
    handled: list[ClientResponse] = []
    correlation_id = env.send_produce(env.client, handled)
    env.client.poll(1, env.time.milliseconds())
    env.respond(ProduceResponse(ProduceResponseData(throttle_time_ms=100)), PRODUCE_LATEST, correlation_id)
    env.client.poll(1, env.time.milliseconds())
    assert not env.client.ready(NODE, env.time.milliseconds())
    assert env.client.throttle_delay_ms(NODE, env.time.milliseconds()) == 100
    env.time.sleep(50)
    assert not env.client.ready(NODE, env.time.milliseconds())
    assert env.client.throttle_delay_ms(NODE, env.time.milliseconds()) == 50
    env.time.sleep(50)
    assert env.client.ready(NODE, env.time.milliseconds())
    assert env.client.throttle_delay_ms(NODE, env.time.milliseconds()) == 0


def test_throttling_not_enabled_for_connection_to_older_broker(env: _Env) -> None:
    """Below Produce v6 the broker throttles before answering, so the client does not throttle itself."""
    versions = ApiVersionsResponseData.ApiVersionCollection()
    for api_key in ApiKeys:
        entry = ApiVersionsResponse.to_api_version(api_key)
        if api_key is ApiKeys.PRODUCE:
            entry = ApiVersionsResponseData.ApiVersion(api_key=api_key.id, min_version=0, max_version=5)
        versions.append(entry)
    response = ApiVersionsResponse(ApiVersionsResponseData(error_code=0, throttle_time_ms=0, api_keys=versions))
    env.delayed_api_versions_response(0, ApiKeys.API_VERSIONS.latest_version(), response)
    while not env.client.ready(NODE, env.time.milliseconds()):
        env.client.poll(1, env.time.milliseconds())
    env.selector.clear()
    handled: list[ClientResponse] = []
    correlation_id = env.send_produce(env.client, handled)
    env.client.poll(1, env.time.milliseconds())
    assert _parse_header(env.selector.completed_send_buffers()[0].buffer()).api_version == 5
    env.respond(ProduceResponse(ProduceResponseData(throttle_time_ms=100)), 5, correlation_id)
    env.client.poll(1, env.time.milliseconds())
    assert env.client.ready(NODE, env.time.milliseconds())
    assert env.client.throttle_delay_ms(NODE, env.time.milliseconds()) == 0


def test_least_loaded_node(env: _Env) -> None:
    """The single node is least loaded while connecting and when ready; after a disconnect (backing off), none is."""
    env.client.ready(NODE, env.time.milliseconds())
    assert not env.client.is_ready(NODE, env.time.milliseconds())
    assert env.client.least_loaded_node(env.time.milliseconds()) == NODE
    env.await_ready(env.client)
    env.client.poll(1, env.time.milliseconds())
    assert env.client.is_ready(NODE, env.time.milliseconds())
    assert env.client.least_loaded_node(env.time.milliseconds()) == NODE
    env.time.sleep(RECONNECT_BACKOFF_MS)
    env.selector.server_disconnect(NODE.id_string)
    env.client.poll(1, env.time.milliseconds())
    assert not env.client.ready(NODE, env.time.milliseconds())
    assert env.client.least_loaded_node(env.time.milliseconds()) is None


def test_least_loaded_node_round_robins_disconnected_nodes(env: _Env) -> None:
    """Among nodes that can be connected to, the one tried longest ago comes first, so each gets its turn."""
    nodes = [Node(i, "localhost", 1969 + i) for i in range(3)]
    client = env.make(_TestMetadataUpdater(nodes), reconnect_backoff_max_ms=0)
    provided: set[Node] = set()
    for i in range(len(nodes) * 10):
        node = client.least_loaded_node(env.time.milliseconds())
        assert node is not None
        provided.add(node)
        client.ready(node, env.time.milliseconds())
        client.disconnect(node.id_string)
        env.time.sleep(CONNECTION_SETUP_TIMEOUT_MS + 1)
        client.poll(0, env.time.milliseconds())
        if (i + 1) % len(nodes) == 0:
            assert provided == set(nodes)
            provided.clear()
    client.close()


def test_least_loaded_node_considers_throttled_connections(env: _Env) -> None:
    """A throttled node is not offered."""
    env.await_ready(env.client)
    env.client.poll(1, env.time.milliseconds())
    correlation_id = env.send_produce(env.client, [])
    env.client.poll(1, env.time.milliseconds())
    env.respond(ProduceResponse(ProduceResponseData(throttle_time_ms=100)), PRODUCE_LATEST, correlation_id)
    env.client.poll(1, env.time.milliseconds())
    assert env.client.least_loaded_node(env.time.milliseconds()) is None


def test_disconnect_during_user_metadata_request(env: _Env) -> None:
    """A user's metadata request lost with its connection comes back disconnected (not taken by the updater)."""
    env.await_ready(env.client)
    now = env.time.milliseconds()
    request = env.client.new_client_request(NODE.id_string, MetadataRequestBuilder([], True), now, True)
    env.client.send(request, now)
    env.client.poll(DEFAULT_REQUEST_TIMEOUT_MS, now)
    assert env.client.in_flight_request_count(NODE.id_string) == 1
    env.selector.server_disconnect(NODE.id_string)
    responses = env.client.poll(DEFAULT_REQUEST_TIMEOUT_MS, env.time.milliseconds())
    assert len(responses) == 1 and responses[0].was_disconnected


def test_server_disconnect_after_internal_api_version_request(env: _Env) -> None:
    """A connection lost during the ApiVersions exchange reports nothing upward and backs off exponentially."""
    max_exp = math.log(RECONNECT_BACKOFF_MAX_MS / max(RECONNECT_BACKOFF_MS, 1)) / math.log(
        ClusterConnectionStates.RECONNECT_BACKOFF_EXP_BASE
    )
    jitter = ClusterConnectionStates.RECONNECT_BACKOFF_JITTER
    for i in range(5):
        env.selector.clear()
        env.client.ready(NODE, env.time.milliseconds())
        while not env.client.has_in_flight_requests(NODE.id_string):
            env.client.poll(0, env.time.milliseconds())
        env.selector.server_disconnect(NODE.id_string)
        responses = env.client.poll(0, env.time.milliseconds())
        assert not env.client.has_in_flight_requests(NODE.id_string)
        assert responses == []
        expected = round(2 ** min(i, max_exp) * RECONNECT_BACKOFF_MS)
        delay = env.client.connection_delay(NODE, env.time.milliseconds())
        assert delay == pytest.approx(expected, abs=jitter * expected)
        env.time.sleep(delay + 1)


def test_disconnect_with_multiple_in_flights(env: _Env) -> None:
    """disconnect() completes every in-flight request as disconnected, in the order they were sent."""
    client = env.make(env.metadata_updater, discover_broker_versions=False)
    env.await_ready(client)
    callback: list[ClientResponse] = []
    now = env.time.milliseconds()
    r1 = client.new_client_request(
        NODE.id_string, MetadataRequestBuilder([], True), now, True, DEFAULT_REQUEST_TIMEOUT_MS, callback.append
    )
    client.send(r1, now)
    client.poll(0, now)
    r2 = client.new_client_request(
        NODE.id_string, MetadataRequestBuilder([], True), now, True, DEFAULT_REQUEST_TIMEOUT_MS, callback.append
    )
    client.send(r2, now)
    client.poll(0, now)
    assert r1.correlation_id != r2.correlation_id
    assert client.in_flight_request_count() == 2 and client.in_flight_request_count(NODE.id_string) == 2
    client.disconnect(NODE.id_string)
    responses = client.poll(0, env.time.milliseconds())
    assert responses == callback and len(responses) == 2
    assert client.in_flight_request_count() == 0
    assert [r.request_header.correlation_id for r in responses] == [r1.correlation_id, r2.correlation_id]
    assert all(r.was_disconnected and not r.was_timed_out for r in responses)
    client.close()


def test_call_disconnect(env: _Env) -> None:
    """disconnect() fails the connection and starts the backoff, which a second disconnect does not restart."""
    env.await_ready(env.client)
    assert env.client.is_ready(NODE, env.time.milliseconds())
    assert not env.client.connection_failed(NODE)
    env.client.disconnect(NODE.id_string)
    assert not env.client.is_ready(NODE, env.time.milliseconds())
    assert env.client.connection_failed(NODE)
    assert not env.client.can_connect(NODE, env.time.milliseconds())
    env.time.sleep(RECONNECT_BACKOFF_MAX_MS)
    assert env.client.can_connect(NODE, env.time.milliseconds())
    env.client.disconnect(NODE.id_string)
    assert env.client.can_connect(NODE, env.time.milliseconds())


def test_correlation_id(env: _Env) -> None:
    """Correlation ids are distinct and below SASL's reserved range; past it they wrap to the int minimum."""
    ids = {env.client.next_correlation_id() for _ in range(100)}
    assert len(ids) == 100 and all(i < MIN_RESERVED_CORRELATION_ID for i in ids)
    env.client._correlation = MIN_RESERVED_CORRELATION_ID - 1
    assert env.client.next_correlation_id() == MIN_RESERVED_CORRELATION_ID - 1
    assert env.client.next_correlation_id() == -(2**31)
    assert env.client.next_correlation_id() == -(2**31) + 1


def test_correlation_id_mismatch_is_raised(env: _Env) -> None:
    """A response whose correlation id does not match the oldest request in flight is an error, as in Java."""
    env.await_ready(env.client)
    correlation_id = env.send_produce(env.client, [])
    env.client.poll(1, env.time.milliseconds())
    env.respond(ProduceResponse(ProduceResponseData()), PRODUCE_LATEST, correlation_id + 7)
    with pytest.raises(CorrelationIdMismatchException, match=r"Correlation id for response \(\d+\) does not match"):
        env.client.poll(1, env.time.milliseconds())


def test_no_response_expected_completes_on_send(env: _Env) -> None:
    """A request that expects no response (acks=0) completes once written, without a body."""
    env.await_ready(env.client)
    handled: list[ClientResponse] = []
    builder = ProduceRequest.for_current_magic(ProduceRequestData(acks=0, timeout_ms=1000))
    request = env.client.new_client_request(
        NODE.id_string, builder, env.time.milliseconds(), False, callback=handled.append
    )
    env.client.send(request, env.time.milliseconds())
    responses = env.client.poll(1, env.time.milliseconds())
    assert responses == handled and len(handled) == 1
    assert not handled[0].has_response and not handled[0].was_disconnected
    assert env.client.in_flight_request_count() == 0


def test_default_metadata_updater_fetches_metadata(env: _Env) -> None:
    """With a Metadata, the client sends a metadata request when one is due and applies the response."""
    metadata = Metadata(100, 1000, 300_000, LogContext(), ClusterResourceListeners())
    metadata.bootstrap([("localhost", 1969)])
    client = env.make(metadata, discover_broker_versions=False)
    bootstrap = metadata.fetch().nodes[0]
    assert client.least_loaded_node(env.time.milliseconds()) == bootstrap
    client.poll(0, env.time.milliseconds())  # connects to the bootstrap node
    # Connected, but an update is due and none in flight: no node counts as ready, so metadata goes first.
    assert not client.is_ready(bootstrap, env.time.milliseconds())
    client.poll(0, env.time.milliseconds())  # sends the metadata request
    assert client.has_in_flight_requests(bootstrap.id_string)
    assert client.is_ready(bootstrap, env.time.milliseconds())  # the update is in flight
    client.poll(0, env.time.milliseconds())
    header = _parse_header(env.selector.completed_send_buffers()[-1].buffer())
    assert header.api_key is ApiKeys.METADATA
    version = metadata.update_version()
    env.respond(metadata_update_with(1, {"t": 2}), header.api_version, header.correlation_id, bootstrap)
    client.poll(0, env.time.milliseconds())
    assert metadata.update_version() == version + 1
    assert metadata.fetch().partition_count_for_topic("t") == 2
    assert not metadata.fetch().is_bootstrap_configured
    client.close()


def test_closed_client_refuses_work(env: _Env) -> None:
    """After initiate_close the client is inactive and poll/send raise DisconnectException; close twice only warns."""
    env.client.initiate_close()
    assert not env.client.active()
    with pytest.raises(DisconnectException, match="NetworkClient is no longer active, state is CLOSING"):
        env.client.poll(0, env.time.milliseconds())
    env.client.close()
    env.client.close()
