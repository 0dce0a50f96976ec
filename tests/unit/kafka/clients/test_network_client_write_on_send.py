"""NetworkClient over a real Selector made with write_on_send (as a replica fetcher's): what the write in send()
did reaches the client although the selector's next poll clears it: a request that expects no response completes
on the next poll, and a connection that the peer reset fails the request on the next poll (not after the request
timeout)."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator

import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.clients.network_client import NetworkClient
from kafka.common.message import ProduceRequestData
from kafka.common.network.selectable import Selectable
from kafka.common.network.selector import Selector
from kafka.common.node import Node
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from tests.unit.kafka.common.network.echo_server import EchoServer

REQUEST_TIMEOUT_MS = 30_000


def make_client() -> NetworkClient:
    log_context = LogContext("[test] ")
    selector = Selector(-1, Time.SYSTEM, log_context, write_on_send=True)
    assert selector.write_on_send
    return NetworkClient(
        selector,
        ManualMetadataUpdater(),
        "test",
        1,
        0,
        0,
        Selectable.USE_DEFAULT_BUFFER_SIZE,
        Selectable.USE_DEFAULT_BUFFER_SIZE,
        REQUEST_TIMEOUT_MS,
        10_000,
        30_000,
        Time.SYSTEM,
        False,
        ApiVersions(),
        log_context,
    )


def await_ready(client: NetworkClient, node: Node) -> None:
    deadline = time.monotonic() + 10
    while not client.ready(node, Time.SYSTEM.milliseconds()):
        assert time.monotonic() < deadline, "not connected within 10 s"
        client.poll(10, Time.SYSTEM.milliseconds())


def poll_until_response(client: NetworkClient, timeout_s: float = 5.0) -> list[ClientResponse]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        responses = client.poll(50, Time.SYSTEM.milliseconds())
        if responses:
            return responses
    return []


def produce_request(client: NetworkClient, node: Node, expect_response: bool) -> object:
    builder = ProduceRequest.for_current_magic(ProduceRequestData(acks=1 if expect_response else 0, timeout_ms=1000))
    return client.new_client_request(node.id_string, builder, Time.SYSTEM.milliseconds(), expect_response)


@pytest.fixture
def client() -> Iterator[NetworkClient]:
    c = make_client()
    yield c
    c.close()


def test_no_response_expected_completes_on_next_poll(client: NetworkClient) -> None:
    server = EchoServer()
    try:
        node = Node(0, "127.0.0.1", server.port)
        await_ready(client, node)
        client.send(produce_request(client, node, expect_response=False), Time.SYSTEM.milliseconds())  # type: ignore[arg-type]
        responses = client.poll(0, Time.SYSTEM.milliseconds())
        assert len(responses) == 1
        assert not responses[0].has_response and not responses[0].was_disconnected
        assert client.in_flight_request_count() == 0
    finally:
        server.close()


def test_write_to_a_reset_connection_fails_the_request_on_the_next_poll(client: NetworkClient) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    acceptor = threading.Thread(target=lambda: accepted.append(listener.accept()[0]), daemon=True)
    acceptor.start()
    try:
        node = Node(0, "127.0.0.1", listener.getsockname()[1])
        await_ready(client, node)
        acceptor.join(10)
        # The peer resets the connection (SO_LINGER 0); the client learns it only when it writes.
        accepted[0].setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        accepted[0].close()
        # Writes until the reset reaches the sender (the first write after a reset may still be taken).
        deadline = time.monotonic() + 5
        responses: list[ClientResponse] = []
        while not responses and time.monotonic() < deadline:
            if client.is_ready(node, Time.SYSTEM.milliseconds()):
                client.send(produce_request(client, node, expect_response=True), Time.SYSTEM.milliseconds())  # type: ignore[arg-type]
            responses = poll_until_response(client, timeout_s=1.0)
        assert len(responses) == 1 and responses[0].was_disconnected
        assert client.in_flight_request_count() == 0
        assert client.connection_failed(node)
    finally:
        listener.close()
