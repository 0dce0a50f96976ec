"""Helpers for the network tests: a config with the network settings, an api layer that answers through the real
requests layer and records what it got, and a minimal blocking client speaking the Kafka framing."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from kafka.cluster.end_point import EndPoint
from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import ApiVersionsRequestData, MetadataResponseData, RequestHeaderData
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.time import Time
from kafka.network.request_channel import RequestChannel, SendResponse
from kafka.network.socket_server import SocketServer
from kafka.server.kafka_request_handler import KafkaRequestHandlerPool

PLAINTEXT = ListenerName("PLAINTEXT")
_SIZE = struct.Struct(">i")


@dataclass
class NetworkConfig:
    """The KafkaConfig settings the network layer reads, with Kafka's defaults (small idle time where asked)."""

    broker_id: int = 0
    listeners: list[EndPoint] = field(
        default_factory=lambda: [EndPoint("127.0.0.1", 0, PLAINTEXT, SecurityProtocol.PLAINTEXT)]
    )
    inter_broker_listener_name: ListenerName = PLAINTEXT
    num_network_threads: int = 3
    queued_max_requests: int = 500
    queued_max_request_bytes: int = -1
    socket_request_max_bytes: int = 100 * 1024 * 1024
    socket_send_buffer_bytes: int = 100 * 1024
    socket_receive_buffer_bytes: int = 100 * 1024
    connections_max_idle_ms: int = 10 * 60 * 1000
    failed_authentication_delay_ms: int = 100
    max_connections_per_ip: int = 2**31 - 1
    max_connections_per_ip_overrides: dict[str, int] = field(default_factory=dict)
    max_connections: int = 2**31 - 1
    max_connection_creation_rate: int = 2**31 - 1
    quota_window_size_seconds: int = 1
    num_quota_samples: int = 11
    listener_overrides: dict[str, Any] = field(default_factory=dict)

    def values_with_prefix_override(self, prefix: str) -> dict[str, Any]:
        values: dict[str, Any] = {
            "max.connections": self.max_connections,
            "max.connection.creation.rate": self.max_connection_creation_rate,
        }
        for key, value in self.listener_overrides.items():
            if key.startswith(prefix):
                values[key[len(prefix) :]] = value
        return values


@dataclass
class Handled:
    """One request as the api layer saw it."""

    api_key: ApiKeys
    api_version: int
    correlation_id: int
    client_id: str | None
    connection_id: str
    software_name: str
    thread_name: str


class RecordingApis:
    """An api layer for tests: answers ApiVersions (an unsupported version with the v0 error layout) and Metadata
    (no brokers, no topics) through the real requests layer, and records every request. `answer`, if set, sees each
    request first and returns True when it has dealt with it. `hold` makes it wait (bounded) before answering the
    requests of a client id; `fail_client_id` makes it raise for that client id. It also tracks the most requests
    one connection ever had in flight."""

    def __init__(self, request_channel: RequestChannel) -> None:
        self.request_channel = request_channel
        self.handled: list[Handled] = []
        self.answer: Callable[[Any], bool] | None = None
        self.hold: dict[str, threading.Event] = {}
        self.fail_client_id: str | None = None
        self.max_in_flight_per_connection = 0
        # Built once: the requests layer takes a while to build the full table.
        self._api_versions_response = ApiVersionsResponse.default_api_versions_response()
        self._in_flight: dict[str, int] = {}
        self._lock = threading.Lock()

    def handle(self, request: Any) -> None:
        header = request.header
        connection_id = request.context.connection_id
        with self._lock:
            self.handled.append(
                Handled(
                    header.api_key,
                    header.api_version,
                    header.correlation_id,
                    header.client_id,
                    connection_id,
                    request.context.client_information.software_name,
                    threading.current_thread().name,
                )
            )
            count = self._in_flight.get(connection_id, 0) + 1
            self._in_flight[connection_id] = count
            self.max_in_flight_per_connection = max(self.max_in_flight_per_connection, count)
        gate = self.hold.get(header.client_id or "")
        if gate is not None:
            gate.wait(10)
        if header.client_id is not None and header.client_id == self.fail_client_id:
            self.done(connection_id)
            raise RuntimeError("boom from the test api layer")
        if self.answer is not None and self.answer(request):
            return
        if header.api_key is ApiKeys.API_VERSIONS:
            body = request.body
            assert isinstance(body, ApiVersionsRequest)
            if body.has_unsupported_request_version():
                response: AbstractResponse = body.get_error_response(
                    UnsupportedVersionException("unsupported ApiVersions version")
                )
            else:
                response = self._api_versions_response
            self.send(request, response)
        elif header.api_key is ApiKeys.METADATA:
            self.send(request, MetadataResponse(MetadataResponseData(cluster_id="test-cluster"), header.api_version))
        else:
            raise AssertionError(f"the test api layer cannot answer {header.api_key.name}")

    def send(self, request: Any, response: AbstractResponse) -> None:
        connection_id = request.context.connection_id
        self.request_channel.send_response(
            SendResponse(
                request,
                request.build_response_send(response),
                request.response_node(response),
                lambda _parts: self.done(connection_id),
            )
        )

    def done(self, connection_id: str) -> None:
        """Marks the connection's request as answered (called once its response has been written)."""
        with self._lock:
            self._in_flight[connection_id] = self._in_flight.get(connection_id, 1) - 1

    def count(self, api_key: ApiKeys) -> int:
        with self._lock:
            return sum(1 for h in self.handled if h.api_key is api_key)


@contextmanager
def running_server(
    config: NetworkConfig | None = None, num_io_threads: int = 2, time: Time = Time.SYSTEM
) -> Iterator[tuple[SocketServer, RecordingApis, int]]:
    """A started SocketServer with a request handler pool over RecordingApis (none if `num_io_threads` is 0: the test
    brings its own); yields (server, apis, bound port)."""
    config = config or NetworkConfig()
    server = SocketServer(config, time)
    pool: KafkaRequestHandlerPool | None = None
    try:
        server.startup()
        apis = RecordingApis(server.data_plane_request_channel)
        if num_io_threads > 0:
            pool = KafkaRequestHandlerPool(
                config.broker_id, server.data_plane_request_channel, apis, time, num_io_threads
            )
        yield server, apis, server.bound_port(PLAINTEXT)
    finally:
        # The broker's order: stop the network threads, then the handlers, then release the channel.
        server.stop_processing_requests()
        if pool is not None:
            pool.shutdown()
        server.shutdown()


class Client:
    """A blocking client: writes request frames, reads response frames."""

    def __init__(self, port: int, timeout: float = 10.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def api_versions_frame(correlation_id: int, client_id: str = "test-client", version: int = 3) -> bytes:
        """A framed ApiVersions request (any version number; the body is v3's from version 3 on)."""
        header_version = ApiKeys.API_VERSIONS.request_header_version(version)
        header = RequestHeaderData(
            request_api_key=ApiKeys.API_VERSIONS.id,
            request_api_version=version,
            correlation_id=correlation_id,
            client_id=client_id,
        ).write(header_version)
        data = ApiVersionsRequestData(client_software_name="kafka-port-test", client_software_version="1.0")
        body = data.write(min(version, 3))
        return _SIZE.pack(len(header) + len(body)) + header + body

    def send_api_versions(self, correlation_id: int, client_id: str = "test-client", version: int = 3) -> RequestHeader:
        self.sock.sendall(self.api_versions_frame(correlation_id, client_id, version))
        return RequestHeader.of(ApiKeys.API_VERSIONS, version, client_id, correlation_id)

    def receive_frame(self) -> bytes:
        size = _SIZE.unpack(self.recv_exactly(4))[0]
        return self.recv_exactly(size)

    def receive(self, header: RequestHeader) -> AbstractResponse:
        return AbstractResponse.parse_response(self.receive_frame(), header)

    def recv_exactly(self, n: int) -> bytes:
        buf = bytearray(n)
        view = memoryview(buf)
        pos = 0
        while pos < n:
            got = self.sock.recv_into(view[pos:])
            if got == 0:
                raise EOFError(f"connection closed after {pos} of {n} bytes")
            pos += got
        return bytes(buf)

    def round_trip(self, correlation_id: int, client_id: str = "test-client") -> AbstractResponse:
        return self.receive(self.send_api_versions(correlation_id, client_id))

    def closed_by_server(self) -> bool:
        """Waits (up to the socket timeout) for the server to close the connection; True if it did."""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False
