"""Tests of the MockClient test double (Java's MockClient has none; these check the behaviour the producer and
consumer tests rely on): readiness, prepared and later responses, matchers, disconnects, timeouts, metadata
updates, backoff and blocking wakeups."""

from __future__ import annotations

import threading

import pytest

from kafka.clients.client_request import ClientRequest
from kafka.clients.client_response import ClientResponse
from kafka.clients.metadata import Metadata
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import ProduceResponseData
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.metadata_request import MetadataRequest, MetadataRequestBuilder
from kafka.common.requests.produce_response import ProduceResponse
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

NODE = Node(0, "localhost", 1969)


def _request(client: MockClient, time: MockTime, got: list[ClientResponse], node: Node = NODE) -> ClientRequest:
    return client.new_client_request(
        node.id_string, MetadataRequestBuilder(["t"]), time.milliseconds(), True, callback=got.append
    )


def test_ready_then_send_and_respond() -> None:
    """A node is ready once asked; a response given later completes the oldest request on poll."""
    time = MockTime()
    client = MockClient(time, [NODE])
    assert not client.is_ready(NODE, time.milliseconds())
    assert client.ready(NODE, time.milliseconds())
    got: list[ClientResponse] = []
    client.send(_request(client, time, got), time.milliseconds())
    assert client.in_flight_request_count() == 1 and client.has_in_flight_requests(NODE.id_string)
    client.respond(ProduceResponse(ProduceResponseData()))
    responses = client.poll(0, time.milliseconds())
    assert responses == got and got[0].has_response and client.in_flight_request_count() == 0


def test_prepared_response_with_matcher() -> None:
    """A prepared response answers the next send if its matcher accepts the request; otherwise send fails."""
    time = MockTime()
    client = MockClient(time, [NODE])
    client.ready(NODE, time.milliseconds())
    got: list[ClientResponse] = []
    client.prepare_response(
        lambda body: isinstance(body, MetadataRequest) and body.topics() == ["t"],
        ProduceResponse(ProduceResponseData()),
    )
    client.send(_request(client, time, got), time.milliseconds())
    assert client.in_flight_request_count() == 0 and len(client.poll(0, time.milliseconds())) == 1
    client.prepare_response(lambda body: False, ProduceResponse(ProduceResponseData()))
    with pytest.raises(RuntimeError, match="Request matcher did not match"):
        client.send(_request(client, time, got), time.milliseconds())


def test_prepare_response_from_a_node_and_disconnected() -> None:
    """A response prepared for one node is kept for that node; a prepared disconnect is reported so."""
    time = MockTime()
    other = Node(1, "localhost", 1970)
    client = MockClient(time, [NODE, other])
    for n in (NODE, other):
        client.ready(n, time.milliseconds())
    got: list[ClientResponse] = []
    client.prepare_response_from(ProduceResponse(ProduceResponseData()), other, True)
    client.send(_request(client, time, got, NODE), time.milliseconds())
    assert client.in_flight_request_count() == 1  # not for node 0
    client.send(_request(client, time, got, other), time.milliseconds())
    client.poll(0, time.milliseconds())
    assert len(got) == 1 and got[0].destination == "1" and got[0].was_disconnected


def test_unsupported_version_response() -> None:
    """prepare_unsupported_version_response fails the next request with a version mismatch."""
    time = MockTime()
    client = MockClient(time, [NODE])
    client.ready(NODE, time.milliseconds())
    client.prepare_unsupported_version_response(MockClient.ALWAYS_TRUE)
    got: list[ClientResponse] = []
    client.send(_request(client, time, got), time.milliseconds())
    client.poll(0, time.milliseconds())
    assert got[0].version_mismatch is not None


def test_node_api_versions_limit_the_version() -> None:
    """The version used is negotiated against the configured NodeApiVersions."""
    time = MockTime()
    client = MockClient(time, [NODE])
    client.set_node_api_versions(NodeApiVersions.create(ApiKeys.METADATA.id, 0, 4))
    client.ready(NODE, time.milliseconds())
    client.prepare_response(ProduceResponse(ProduceResponseData()))
    got: list[ClientResponse] = []
    client.send(_request(client, time, got), time.milliseconds())
    client.poll(0, time.milliseconds())
    assert got[0].request_header.api_version == 4


def test_disconnect_and_timeout() -> None:
    """disconnect() completes the node's requests as disconnected; an expired request disconnects its node."""
    time = MockTime()
    client = MockClient(time, [NODE])
    client.ready(NODE, time.milliseconds())
    got: list[ClientResponse] = []
    client.send(_request(client, time, got), time.milliseconds())
    client.disconnect(NODE.id_string)
    client.poll(0, time.milliseconds())
    assert got[0].was_disconnected and not client.is_ready(NODE, time.milliseconds())
    client.ready(NODE, time.milliseconds())
    client.send(_request(client, time, got), time.milliseconds())
    time.sleep(5000)  # the default request timeout of MockClient requests
    client.poll(0, time.milliseconds())
    assert len(got) == 2 and got[1].was_disconnected and client.in_flight_request_count() == 0


def test_backoff_and_least_loaded_node() -> None:
    """A node backing off is neither connectable nor least loaded."""
    time = MockTime()
    client = MockClient(time, [NODE])
    assert client.least_loaded_node(time.milliseconds()) == NODE
    client.backoff(NODE, 100)
    assert client.least_loaded_node(time.milliseconds()) is None
    assert client.connection_failed(NODE) and client.connection_delay(NODE, time.milliseconds()) == 100
    assert not client.ready(NODE, time.milliseconds())
    time.sleep(100)
    assert client.ready(NODE, time.milliseconds())


def test_metadata_update_applied_on_poll() -> None:
    """A prepared metadata update is applied on the poll after metadata asks for one."""
    time = MockTime()
    metadata = Metadata(100, 1000, 300000, LogContext(), ClusterResourceListeners())
    metadata.bootstrap([("localhost", 9092)])
    client = MockClient(time, metadata)
    client.prepare_metadata_update(metadata_update_with(2, {"t": 3}))
    assert client.has_pending_metadata_updates()
    client.poll(0, time.milliseconds())
    assert not client.has_pending_metadata_updates()
    assert metadata.fetch().partition_count_for_topic("t") == 3 and len(metadata.fetch().nodes) == 2
    client.close()
    assert not client.active() and metadata.is_closed()


def test_blocking_until_wakeup() -> None:
    """With enable_blocking_until_wakeup, poll waits until wakeup() is called from another thread."""
    time = MockTime()
    client = MockClient(time, [NODE])
    client.enable_blocking_until_wakeup(1)
    done = threading.Event()

    def poll() -> None:
        client.poll(0, time.milliseconds())
        done.set()

    t = threading.Thread(target=poll, name="mock-client-poll")
    t.start()
    assert not done.wait(0.1)
    client.wakeup()
    t.join(10)
    assert done.is_set()
