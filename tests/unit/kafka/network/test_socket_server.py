"""SocketServer over real sockets on 127.0.0.1 (our own take on Kafka's SocketServerTest)."""

from __future__ import annotations

import json
import logging
import os
import re
import select
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from kafka.cluster.end_point import EndPoint
from kafka.common.errors import KafkaException
from kafka.common.message import FetchRequestData, FetchResponseData
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.file_records import FileRecords
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.time import Time
from kafka.network.request_channel import (
    EndThrottlingResponse,
    NoOpResponse,
    SendResponse,
    StartThrottlingResponse,
)
from kafka.network.socket_server import (
    ConnectionId,
    ConnectionQuotas,
    ConnectionSlotWaitAborted,
    SocketServer,
    TooManyConnectionsException,
)
from kafka.server.kafka_request_handler import KafkaRequestHandlerPool
from tests.unit.kafka.network.socket_server_support import (
    PLAINTEXT,
    Client,
    NetworkConfig,
    RecordingApis,
    running_server,
)
from tests.utils import wait_until_true

_SIZE = struct.Struct(">i")
LOCALHOST = "127.0.0.1"


def _readable(sock: socket.socket, timeout: float) -> bool:
    return bool(select.select([sock], [], [], timeout)[0])


def test_simple_request_response() -> None:
    """An ApiVersions request is answered on its connection with its correlation id; the api layer sees the
    connection id, and on later requests the client software that ApiVersions named (KIP-511)."""
    with running_server() as (_server, apis, port), Client(port) as client:
        response = client.round_trip(42)
        assert isinstance(response, ApiVersionsResponse)
        assert response.data.error_code == Errors.NONE.code
        assert response.api_version(ApiKeys.FETCH.id) is not None
        assert client.round_trip(43).data.error_code == Errors.NONE.code
        first, handled = apis.handled
        assert (first.correlation_id, handled.correlation_id) == (42, 43)
        assert handled.client_id == "test-client"
        assert first.software_name == "unknown"  # as in Kafka, the context was made before the body was read
        assert handled.software_name == "kafka-port-test"
        local_port = client.sock.getsockname()[1]
        assert re.fullmatch(rf"127\.0\.0\.1:{port}-127\.0\.0\.1:{local_port}-\d+", handled.connection_id)


def test_startup_binds_ephemeral_port_and_names_threads() -> None:
    """Port 0 binds an ephemeral port that bound_port reports; threads carry Kafka's names and daemon flags."""
    with running_server(NetworkConfig(num_network_threads=2), num_io_threads=2) as (server, _apis, port):
        assert port > 0
        assert server.bound_port("PLAINTEXT") == port
        threads = {t.name: t for t in threading.enumerate()}
        acceptor = threads["kafka-socket-acceptor-PLAINTEXT-PLAINTEXT-0"]
        network = [threads[f"kafka-network-thread-0-PLAINTEXT-PLAINTEXT-{i}"] for i in range(2)]
        handlers = [threads[f"kafka-request-handler-{i}"] for i in range(2)]
        assert not acceptor.daemon and not any(t.daemon for t in network)
        assert all(t.daemon for t in handlers)
        with pytest.raises(KafkaException):
            server.bound_port("NOSUCHLISTENER")


def test_staged_startup_serves_only_after_start_processing_requests() -> None:
    """With startup(start_processing_requests=False) the port is bound but nothing is served until
    start_processing_requests()."""
    config = NetworkConfig()
    server = SocketServer(config)
    try:
        server.startup(start_processing_requests=False)
        port = server.bound_port(PLAINTEXT)
        assert not any(t.name.startswith("kafka-") for t in threading.enumerate())
        with Client(port) as client:
            client.sock.sendall(Client.api_versions_frame(1))
            assert not _readable(client.sock, 0.3)
            apis = RecordingApis(server.data_plane_request_channel)
            pool = KafkaRequestHandlerPool(0, server.data_plane_request_channel, apis, server.time, 1)
            try:
                server.start_processing_requests()
                frame = client.receive_frame()
                assert struct.unpack(">i", frame[:4])[0] == 1
            finally:
                server.stop_processing_requests()
                pool.shutdown()
    finally:
        server.shutdown()


def test_shutdown_without_start_releases_the_port() -> None:
    """A server that bound its listeners but never started lets go of the port on shutdown."""
    server = SocketServer(NetworkConfig())
    server.startup(start_processing_requests=False)
    port = server.bound_port(PLAINTEXT)
    server.shutdown()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((LOCALHOST, port), timeout=2).close()


def test_bind_failure_raises_and_leaves_nothing_behind() -> None:
    """A listener whose port is taken fails startup with Kafka's message; shutdown then releases what was made."""
    with running_server() as (_server, _apis, port):
        taken = NetworkConfig(listeners=[EndPoint("127.0.0.1", port, PLAINTEXT, SecurityProtocol.PLAINTEXT)])
        second = SocketServer(taken)
        with pytest.raises(KafkaException, match=rf"Socket server failed to bind to 127\.0\.0\.1:{port}"):
            second.startup()
        second.shutdown()
        with Client(port) as client:
            assert client.round_trip(1).data.error_code == 0


def test_shutdown_while_the_acceptor_waits_for_a_connection_slot() -> None:
    """With max.connections 0 a new connection waits for a slot that never comes; shutdown still completes."""
    with running_server(NetworkConfig(max_connections=0)) as (server, _apis, port), Client(port) as client:
        client.sock.sendall(Client.api_versions_frame(1))
        assert not _readable(client.sock, 0.3)
        assert server.connection_count(LOCALHOST) == 0
    assert not [t.name for t in threading.enumerate() if t.name.startswith("kafka-")]


def test_pipelined_requests_are_answered_in_order() -> None:
    """Many requests written at once on one connection are answered in request order, one in flight at a time."""
    with running_server(num_io_threads=4) as (_server, apis, port), Client(port) as client:
        client.sock.sendall(b"".join(Client.api_versions_frame(i) for i in range(200)))
        correlation_ids = [_SIZE.unpack(client.receive_frame()[:4])[0] for _ in range(200)]
        assert correlation_ids == list(range(200))
        assert apis.max_in_flight_per_connection == 1
        assert len({h.connection_id for h in apis.handled}) == 1


def test_two_connections_are_served_concurrently() -> None:
    """While one connection's request is held in the api layer, another connection is answered."""
    with running_server() as (_server, apis, port), Client(port) as slow, Client(port) as fast:
        gate = threading.Event()
        apis.hold["slow"] = gate
        slow.sock.sendall(Client.api_versions_frame(1, "slow"))
        wait_until_true(lambda: apis.count(ApiKeys.API_VERSIONS) == 1, "the held request to reach the api layer")
        for i in range(5):
            assert fast.round_trip(i, "fast").data.error_code == 0
        assert not _readable(slow.sock, 0)
        gate.set()
        assert _SIZE.unpack(slow.receive_frame()[:4])[0] == 1


@pytest.mark.parametrize("size", [2**31 - 1, -1, 100 * 1024 * 1024 + 1])
def test_invalid_frame_size_closes_only_that_connection(size: int, caplog: pytest.LogCaptureFixture) -> None:
    """A frame size that is negative or over socket.request.max.bytes closes that connection with a log line
    naming the size; other connections are still served."""
    caplog.set_level(logging.DEBUG, logger="org.apache.kafka.common.network.Selector")
    with running_server() as (server, _apis, port), Client(port) as good, Client(port) as bad:
        assert good.round_trip(1).data.error_code == 0
        bad.sock.sendall(_SIZE.pack(size) + b"\x00" * 16)
        assert bad.closed_by_server()
        assert f"Invalid receive (size = {size}" in caplog.text
        wait_until_true(lambda: server.connection_count(LOCALHOST) == 1, "the bad connection to be counted off")
        assert good.round_trip(2).data.error_code == 0


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(os.urandom(3), id="shorter-than-a-header"),
        pytest.param(b"\xff\xfe" + os.urandom(60), id="garbage"),
        pytest.param(struct.pack(">hhih", 1000, 0, 7, 2) + b"id", id="unknown-api-key"),
        pytest.param(struct.pack(">hhih", 18, 3, 7, 100) + b"short", id="truncated-client-id"),
        pytest.param(b"", id="empty-frame"),
    ],
)
def test_unparseable_header_closes_only_that_connection(payload: bytes, caplog: pytest.LogCaptureFixture) -> None:
    """A request whose header cannot be parsed closes that connection with a log line; the processor lives on."""
    with running_server(NetworkConfig(num_network_threads=1)) as (server, apis, port):
        with Client(port) as good, Client(port) as bad:
            bad.sock.sendall(_SIZE.pack(len(payload)) + payload)
            assert bad.closed_by_server()
            assert "Closing socket for" in caplog.text
            assert "InvalidRequestException" in caplog.text
            assert good.round_trip(1).data.error_code == 0
            wait_until_true(lambda: server.connection_count(LOCALHOST) == 1, "the bad connection to be counted off")
        assert all(h.client_id == "test-client" for h in apis.handled)


def test_unparseable_body_closes_the_connection(caplog: pytest.LogCaptureFixture) -> None:
    """A request with a good header and a body that cannot be read closes the connection (the handler parses it)."""
    with running_server() as (_server, apis, port), Client(port) as client:
        header = RequestHeader.of(ApiKeys.METADATA, 12, "bad-body", 5).write()
        body = b"\x05\xff\xff"  # a compact array of 4 topics, then nothing
        client.sock.sendall(_SIZE.pack(len(header) + len(body)) + header + body)
        assert client.closed_by_server()
        assert "Closing socket for" in caplog.text
        assert apis.count(ApiKeys.METADATA) == 0


def test_api_versions_of_unknown_version_gets_the_v0_error_answer() -> None:
    """An ApiVersions request newer than the broker knows is answered with UNSUPPORTED_VERSION in the v0 layout,
    listing ApiVersions' own versions, and the connection stays open."""
    with running_server() as (_server, _apis, port), Client(port) as client:
        client.send_api_versions(9, version=127)
        payload = client.receive_frame()
        assert _SIZE.unpack(payload[:4])[0] == 9
        response = ApiVersionsResponse.parse(payload[4:], 0)
        assert response.data.error_code == Errors.UNSUPPORTED_VERSION.code
        assert response.api_version(ApiKeys.API_VERSIONS.id).max_version == 3
        assert client.round_trip(10).data.error_code == 0


def test_idle_connection_is_closed_after_connections_max_idle_ms() -> None:
    """A connection idle for longer than connections.max.idle.ms is closed and counted off; a busy one is not."""
    with running_server(NetworkConfig(connections_max_idle_ms=300, num_network_threads=1)) as (server, _apis, port):
        with Client(port) as idle, Client(port) as busy:
            assert idle.round_trip(1).data.error_code == 0
            deadline = time.monotonic() + 5
            closed = False
            while time.monotonic() < deadline and not closed:
                assert busy.round_trip(2).data.error_code == 0
                closed = _readable(idle.sock, 0.05) and idle.closed_by_server()
            assert closed
            wait_until_true(lambda: server.connection_count(LOCALHOST) == 1, "the idle connection to be counted off")
            assert busy.round_trip(3).data.error_code == 0


def test_max_connections_per_ip(caplog: pytest.LogCaptureFixture) -> None:
    """max.connections.per.ip: the connection over the limit is closed with a log line, and once a connection
    closes a new one is accepted."""
    caplog.set_level(logging.INFO, logger="kafka.network.Acceptor")
    with running_server(NetworkConfig(max_connections_per_ip=2)) as (server, _apis, port):
        first, second = Client(port), Client(port)
        try:
            with Client(port) as third:
                assert third.closed_by_server()
            assert "Rejected connection from /127.0.0.1, address already has the configured maximum of 2" in caplog.text
            assert first.round_trip(1).data.error_code == 0
            assert second.round_trip(2).data.error_code == 0
            first.close()
            wait_until_true(lambda: server.connection_count(LOCALHOST) == 1, "the closed connection to be counted off")
            with Client(port) as fourth:
                assert fourth.round_trip(3).data.error_code == 0
        finally:
            first.close()
            second.close()


def test_max_connections_per_ip_overrides() -> None:
    """max.connections.per.ip.overrides sets a lower limit for one address."""
    config = NetworkConfig(max_connections_per_ip=10, max_connections_per_ip_overrides={"127.0.0.1": 1})
    with running_server(config) as (_server, _apis, port), Client(port) as first, Client(port) as second:
        assert second.closed_by_server()
        assert first.round_trip(1).data.error_code == 0


def test_broker_max_connections_waits_for_a_free_slot() -> None:
    """With max.connections reached, a new connection is served only once another one closes."""
    with running_server(NetworkConfig(max_connections=1)) as (server, _apis, port):
        first = Client(port)
        try:
            assert first.round_trip(1).data.error_code == 0
            with Client(port) as second:
                second.sock.sendall(Client.api_versions_frame(2))
                assert not _readable(second.sock, 0.3)
                first.close()
                assert _SIZE.unpack(second.receive_frame()[:4])[0] == 2
                assert server.connection_count(LOCALHOST) == 1
        finally:
            first.close()


def test_slow_client_is_served_without_blocking_others() -> None:
    """A client writing one byte every 50 ms gets its answer, while another client is served meanwhile."""
    with running_server(NetworkConfig(num_network_threads=1)) as (_server, _apis, port):
        with Client(port) as slow, Client(port) as fast:
            frame = Client.api_versions_frame(77, "slow")

            def trickle() -> None:
                for byte in frame:
                    slow.sock.sendall(bytes([byte]))
                    time.sleep(0.05)

            writer = threading.Thread(target=trickle, name="test-trickle")
            writer.start()
            served = 0
            while writer.is_alive():
                assert fast.round_trip(served).data.error_code == 0
                served += 1
            writer.join()
            assert _SIZE.unpack(slow.receive_frame()[:4])[0] == 77
            assert served > 10


def test_file_records_response_goes_out_through_sendfile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Fetch response holding 3 MB of FileRecords arrives intact, its records sent with os.sendfile (resumed over
    partial writes to a small socket buffer)."""
    data = os.urandom(3 * 1024 * 1024)
    log_file = tmp_path / "00000000000000000000.log"
    log_file.write_bytes(b"x" * 1000 + data)
    records = FileRecords.open(log_file, mutable=False, file_already_exists=True).slice(1000, len(data))
    sendfile_calls: list[int] = []
    real_sendfile = os.sendfile

    def counting_sendfile(out_fd: int, in_fd: int, offset: int | None, count: int) -> int:
        sent = real_sendfile(out_fd, in_fd, offset, count)
        sendfile_calls.append(sent)
        return sent

    monkeypatch.setattr(os, "sendfile", counting_sendfile)
    expected: list[bytes] = []

    def answer_fetch(request: Any) -> bool:
        if request.header.api_key is not ApiKeys.FETCH:
            return False
        partition = FetchResponseData.PartitionData(partition_index=0, high_watermark=1, records=records)
        topic = FetchResponseData.FetchableTopicResponse(topic="t", partitions=[partition])
        parts = request.build_response_send(FetchResponse(FetchResponseData(responses=[topic])))
        assert any(isinstance(p, FileRecords) for p in parts)
        expected.append(b"".join(p if isinstance(p, bytes) else bytes(p.read_bytes()) for p in parts))
        apis.request_channel.send_response(SendResponse(request, parts))
        return True

    config = NetworkConfig(socket_send_buffer_bytes=64 * 1024)
    with running_server(config) as (_server, apis, port), Client(port) as client:
        apis.answer = answer_fetch
        header = RequestHeader.of(ApiKeys.FETCH, 12, "fetcher", 3).write()
        body = FetchRequestData(replica_id=-1, max_wait_ms=0, min_bytes=1).write(12)
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
        client.sock.sendall(_SIZE.pack(len(header) + len(body)) + header + body)
        time.sleep(0.3)  # let the server fill the socket buffers, so that its writes are partial
        size = _SIZE.unpack(client.recv_exactly(4))[0]
        frame = client.recv_exactly(size)
        assert _SIZE.pack(size) + frame == expected[0]
        assert data in frame
        assert sum(sendfile_calls) == len(data)
        assert len(sendfile_calls) > 1
        assert client.round_trip(4).data.error_code == 0


def test_many_idle_connections_do_not_stop_a_new_client() -> None:
    """With 500 idle connections open, a new client is still answered; closing them counts them all off."""
    with running_server() as (server, _apis, port):
        idle = [socket.create_connection((LOCALHOST, port), timeout=10) for _ in range(500)]
        try:
            wait_until_true(lambda: server.connection_count(LOCALHOST) == 500, "500 connections to be accepted")
            with Client(port) as client:
                assert client.round_trip(1).data.error_code == 0
        finally:
            for sock in idle:
                sock.close()
        wait_until_true(lambda: server.connection_count(LOCALHOST) == 0, "every connection to be counted off")


def test_client_gone_with_request_in_flight_is_cleaned_up() -> None:
    """A client that disconnects while its request is in the api layer is counted off once the response is due."""
    with running_server() as (server, apis, port):
        gate = threading.Event()
        apis.hold["leaver"] = gate
        leaver = Client(port)
        leaver.sock.sendall(Client.api_versions_frame(1, "leaver"))
        wait_until_true(lambda: apis.count(ApiKeys.API_VERSIONS) == 1, "the request to reach the api layer")
        leaver.close()
        gate.set()
        wait_until_true(lambda: server.connection_count(LOCALHOST) == 0, "the gone connection to be counted off")
        with Client(port) as client:
            assert client.round_trip(2).data.error_code == 0


def test_no_op_response_reads_the_next_request() -> None:
    """A NoOpResponse sends nothing and unmutes the connection, so its next request is served."""
    with running_server() as (_server, apis, port), Client(port) as client:

        def no_op(request: Any) -> bool:
            if request.header.client_id != "no-op":
                return False
            apis.request_channel.send_response(NoOpResponse(request))
            return True

        apis.answer = no_op
        client.sock.sendall(Client.api_versions_frame(1, "no-op") + Client.api_versions_frame(2))
        assert _SIZE.unpack(client.receive_frame()[:4])[0] == 2


def test_close_connection_response_closes_and_counts_errors() -> None:
    """RequestChannel.close_connection closes the request's connection and counts its errors."""
    with running_server() as (server, apis, port), Client(port) as client:
        channel = server.data_plane_request_channel

        def close(request: Any) -> bool:
            channel.close_connection(request, {Errors.UNKNOWN_SERVER_ERROR: 1})
            return True

        apis.answer = close
        # The ErrorsPerSec meter is the process's (Yammer's registry), shared with earlier servers of this process.
        before = channel.error_count(ApiKeys.API_VERSIONS, Errors.UNKNOWN_SERVER_ERROR)
        client.sock.sendall(Client.api_versions_frame(1))
        assert client.closed_by_server()
        assert channel.error_count(ApiKeys.API_VERSIONS, Errors.UNKNOWN_SERVER_ERROR) == before + 1
        wait_until_true(lambda: server.connection_count(LOCALHOST) == 0, "the connection to be counted off")


def test_throttled_connection_reads_again_only_after_throttling_ends() -> None:
    """Between StartThrottlingResponse and EndThrottlingResponse the response is sent but the connection's next
    request is not read."""
    with running_server() as (_server, apis, port), Client(port) as client:
        throttled: list[Any] = []
        channel = apis.request_channel

        def throttle(request: Any) -> bool:
            if request.header.correlation_id != 1:
                return False
            channel.send_response(StartThrottlingResponse(request))
            response = ApiVersionsResponse.default_api_versions_response()
            channel.send_response(SendResponse(request, request.build_response_send(response)))
            throttled.append(request)
            return True

        apis.answer = throttle
        client.sock.sendall(Client.api_versions_frame(1) + Client.api_versions_frame(2))
        assert _SIZE.unpack(client.receive_frame()[:4])[0] == 1
        assert not _readable(client.sock, 0.3)
        assert apis.count(ApiKeys.API_VERSIONS) == 1
        channel.send_response(EndThrottlingResponse(throttled[0]))
        assert _SIZE.unpack(client.receive_frame()[:4])[0] == 2


def test_memory_pool_holds_back_reads_until_memory_is_released() -> None:
    """With queued.max.request.bytes used up by requests in the api layer, the next connection is not read until
    their memory is released."""
    frame_size = len(Client.api_versions_frame(1, "c0")) - 4
    config = NetworkConfig(queued_max_request_bytes=2 * frame_size - 1, socket_request_max_bytes=frame_size + 8)
    with running_server(config, num_io_threads=3) as (_server, apis, port):
        gate = threading.Event()
        apis.hold["c0"] = gate
        apis.hold["c1"] = gate
        clients = [Client(port) for _ in range(3)]
        try:
            clients[0].sock.sendall(Client.api_versions_frame(1, "c0"))
            clients[1].sock.sendall(Client.api_versions_frame(2, "c1"))
            wait_until_true(lambda: apis.count(ApiKeys.API_VERSIONS) == 2, "two requests to reach the api layer")
            clients[2].sock.sendall(Client.api_versions_frame(3, "c2"))
            assert not _readable(clients[2].sock, 0.5)
            assert apis.count(ApiKeys.API_VERSIONS) == 2
            gate.set()
            for i, client in enumerate(clients):
                assert _SIZE.unpack(client.receive_frame()[:4])[0] == i + 1
        finally:
            for client in clients:
                client.close()


def test_request_log_line(caplog: pytest.LogCaptureFixture) -> None:
    """With kafka.request.logger at debug, each completed request is logged as Kafka's "Completed request:" JSON."""
    caplog.set_level(logging.DEBUG, logger="kafka.request.logger")
    with running_server() as (_server, _apis, port), Client(port) as client:
        assert client.round_trip(4).data.error_code == 0
        assert client.round_trip(5).data.error_code == 0

        def lines() -> list[str]:
            return [r.getMessage() for r in caplog.records if r.name == "kafka.request.logger"]

        wait_until_true(lambda: len(lines()) == 2, "the request log lines")
    line = lines()[1]
    desc = json.loads(line[len("Completed request:") :])
    assert desc["requestHeader"] == {
        "requestApiKey": 18,
        "requestApiVersion": 3,
        "correlationId": 5,
        "clientId": "test-client",
        "requestApiKeyName": "API_VERSIONS",
    }
    assert desc["request"] == {"clientSoftwareName": "kafka-port-test", "clientSoftwareVersion": "1.0"}
    assert desc["response"]["errorCode"] == 0
    assert desc["listener"] == "PLAINTEXT" and desc["securityProtocol"] == "PLAINTEXT"
    assert desc["principal"] == "User:ANONYMOUS"
    assert desc["clientInformation"] == {"softwareName": "kafka-port-test", "softwareVersion": "1.0"}
    assert desc["totalTimeMs"] >= desc["localTimeMs"] >= 0
    assert re.fullmatch(r"127\.0\.0\.1:\d+-127\.0\.0\.1:\d+-\d+", desc["connection"])


def test_shutdown_closes_connections_and_stops_threads() -> None:
    """shutdown() closes every client connection and leaves no Kafka thread running."""
    clients: list[Client] = []
    with running_server() as (server, _apis, port):
        clients = [Client(port) for _ in range(4)]
        for i, client in enumerate(clients):
            assert client.round_trip(i).data.error_code == 0
        wait_until_true(lambda: server.connection_count(LOCALHOST) == 4, "4 connections")
    try:
        assert all(client.closed_by_server() for client in clients)
        assert not [t.name for t in threading.enumerate() if t.name.startswith("kafka-")]
    finally:
        for client in clients:
            client.close()


def test_confluent_kafka_client_gets_its_api_versions_answer() -> None:
    """librdkafka (confluent-kafka) connects, gets its ApiVersions answer and goes on to ask for metadata."""
    import confluent_kafka
    from confluent_kafka.admin import AdminClient

    with running_server() as (_server, apis, port):
        admin = AdminClient({"bootstrap.servers": f"{LOCALHOST}:{port}", "socket.timeout.ms": 3000, "log_level": 0})
        try:
            # With no brokers in the metadata librdkafka reports a partial answer; what matters is that it got there.
            admin.list_topics(timeout=5)
        except confluent_kafka.KafkaException as e:
            assert e.args[0].code() == confluent_kafka.KafkaError._PARTIAL
        finally:
            del admin
        api_versions = [h for h in apis.handled if h.api_key is ApiKeys.API_VERSIONS]
        metadata = [h for h in apis.handled if h.api_key is ApiKeys.METADATA]
        assert api_versions[0].api_version == 3
        assert metadata, "the client asks for metadata only after a good ApiVersions answer"
        assert metadata[0].connection_id == api_versions[0].connection_id
        assert metadata[0].software_name == "confluent-kafka-python"


def test_resize_network_thread_pool() -> None:
    """resize_thread_pool adds Processors (served round-robin at once) and stops surplus ones with their
    connections."""
    with running_server(NetworkConfig(num_network_threads=1)) as (server, _apis, port):

        def network_threads() -> set[str]:
            return {t.name for t in threading.enumerate() if t.name.startswith("kafka-network-thread-")}

        server.resize_thread_pool(1, 3)
        assert network_threads() == {f"kafka-network-thread-0-PLAINTEXT-PLAINTEXT-{i}" for i in range(3)}
        clients = [Client(port) for _ in range(3)]
        try:
            for i, client in enumerate(clients):
                assert client.round_trip(i).data.error_code == 0
            server.resize_thread_pool(3, 1)
            wait_until_true(lambda: len(network_threads()) == 1, "two processors to stop")
            # The processors that stopped closed their connections; the remaining one still serves.
            assert sum(client.closed_by_server() for client in clients[1:]) == 2
            assert clients[0].round_trip(9).data.error_code == 0
            wait_until_true(lambda: server.connection_count(LOCALHOST) == 1, "closed connections to be counted off")
        finally:
            for client in clients:
                client.close()


def test_connection_quotas_counts_and_limits() -> None:
    """ConnectionQuotas: per-address limits raise TooManyConnectionsException, a full listener makes inc wait
    (abortable), and the inter-broker listener is not held to the broker-wide limit while others exist."""
    external = ListenerName("EXTERNAL")
    config = NetworkConfig(
        max_connections_per_ip=2, max_connections=3, listener_overrides={"listener.name.external.max.connections": 1}
    )
    quotas = ConnectionQuotas(config, Time.SYSTEM)
    quotas.add_listener(config, PLAINTEXT)
    quotas.add_listener(config, external)
    quotas.inc(PLAINTEXT, "10.0.0.1")
    quotas.inc(PLAINTEXT, "10.0.0.1")
    with pytest.raises(TooManyConnectionsException, match="maximum = 2"):
        quotas.inc(PLAINTEXT, "10.0.0.1")
    quotas.dec(PLAINTEXT, "10.0.0.1")
    assert quotas.get("10.0.0.1") == 2
    quotas.inc(external, "10.0.0.2")  # EXTERNAL's own limit (1) and the broker's (3) are now both reached
    with pytest.raises(ConnectionSlotWaitAborted):
        quotas.inc(external, "10.0.0.3", lambda: False)
    # PLAINTEXT is the inter-broker listener: beyond the broker-wide limit while EXTERNAL exists.
    quotas.inc(PLAINTEXT, "10.0.0.4")
    assert quotas.max_connections_exceeded(external)
    assert not quotas.max_connections_exceeded(PLAINTEXT)

    def free_slots() -> None:
        quotas.dec(external, "10.0.0.2")
        quotas.dec(PLAINTEXT, "10.0.0.4")

    freed = threading.Timer(0.2, free_slots)
    freed.start()
    quotas.inc(external, "10.0.0.3", lambda: True)  # waits until the timer frees a slot on EXTERNAL and the broker
    freed.join()
    assert quotas.get("10.0.0.3") == 1 and quotas.get("10.0.0.2") == 0
    with pytest.raises(ValueError, match="no connections"):
        quotas.dec(PLAINTEXT, "10.9.9.9")


@pytest.mark.parametrize(
    ("connection_id", "local_host", "remote_host", "remote_port", "index"),
    [
        ("127.0.0.1:9092-127.0.0.1:54321-7", "127.0.0.1", "127.0.0.1", 54321, 7),
        ("::1:9092-::1:40000-0", "::1", "::1", 40000, 0),
        ("fe80::1%br-lan:9092-fe80::2%br-lan:40000-3", "fe80::1%br-lan", "fe80::2%br-lan", 40000, 3),
    ],
)
def test_connection_id_round_trips(
    connection_id: str, local_host: str, remote_host: str, remote_port: int, index: int
) -> None:
    """A Processor's connection id parses back into its parts (IPv6 and scoped addresses too) and prints as it
    was; anything else is not a connection id."""
    parsed = ConnectionId.from_string(connection_id)
    assert parsed is not None
    assert (parsed.local_host, parsed.local_port) == (local_host, 9092)
    assert (parsed.remote_host, parsed.remote_port, parsed.index) == (remote_host, remote_port, index)
    assert str(parsed) == connection_id
    assert ConnectionId.from_string("node-1") is None
