"""A broker's first moments as clients see them: a client that connects the instant the broker's port opens gets
usable metadata (the controller and the broker itself) and can create a topic at once (issue 18), and a broker
restarted right after a crash waits for its old registration to go away instead of failing (issue 12)."""

from __future__ import annotations

import socket
import struct
import time
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient

from kafka.common.message import MetadataRequestData, RequestHeaderData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.utils.time import Time
from tests.integration.broker import BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer, free_port

pytestmark = pytest.mark.integration

_SIZE = struct.Struct(">i")
_METADATA_VERSION = 9


class _EagerBroker(BrokerProcess):
    """A broker on a port chosen before it starts, so that `start()` returns at once and the test can connect the
    moment the port opens."""

    def __init__(self, work_dir: Path, zk_connect: str, port: int) -> None:
        super().__init__(work_dir, zk_connect, overrides={"listeners": f"PLAINTEXT://127.0.0.1:{port}"})
        self.fixed_port = port

    def _wait_for_registration(self, timeout: float) -> int:
        return self.fixed_port


def _connect_as_soon_as_open(broker: BrokerProcess, port: int, timeout: float = 60.0) -> socket.socket:
    """A connection to `port`, made the first moment the broker's listener accepts one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not broker.is_running:
            raise AssertionError(f"broker exited: {broker.console_tail()}")
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=0.5)
        except OSError:
            time.sleep(0.005)
            continue
        sock.settimeout(30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock
    raise AssertionError(f"port {port} did not open within {timeout} s: {broker.console_tail()}")


def _send_metadata_request(sock: socket.socket, correlation_id: int) -> RequestHeader:
    """A Metadata request for every topic, the first request on the connection (no ApiVersions before it)."""
    header = RequestHeaderData(
        request_api_key=ApiKeys.METADATA.id,
        request_api_version=_METADATA_VERSION,
        correlation_id=correlation_id,
        client_id="startup-test",
    ).write(ApiKeys.METADATA.request_header_version(_METADATA_VERSION))
    body = MetadataRequestData(topics=None).write(_METADATA_VERSION)
    sock.sendall(_SIZE.pack(len(header) + len(body)) + header + body)
    return RequestHeader.of(ApiKeys.METADATA, _METADATA_VERSION, "startup-test", correlation_id)


def _recv_exactly(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise EOFError(f"connection closed after {len(buf)} of {n} bytes")
        buf += chunk
    return bytes(buf)


def _receive_metadata(sock: socket.socket, header: RequestHeader) -> MetadataResponse:
    size = _SIZE.unpack(_recv_exactly(sock, 4))[0]
    response = AbstractResponse.parse_response(_recv_exactly(sock, size), header)
    assert isinstance(response, MetadataResponse)
    return response


def test_clients_connecting_the_instant_the_port_opens_get_usable_metadata(
    zookeeper: ZooKeeperServer,
    zk_chroot: str,
    tmp_path: Path,
) -> None:
    """Eight times in a row, on a fresh cluster each time: a Metadata request sent the moment the broker's port opens
    is answered with the controller's id and this broker among the brokers, and confluent-kafka's AdminClient
    created at that same moment creates a topic (before the fix its Metadata said controller -1, and the admin
    client waited 30 s for a controller)."""
    for i in range(8):
        port = free_port()
        broker = _EagerBroker(tmp_path / f"start-{i}", zookeeper.connect_string + f"{zk_chroot}/start-{i}", port)
        broker.work_dir.mkdir(parents=True)
        broker.start()
        try:
            sock = _connect_as_soon_as_open(broker, port)
            admin = AdminClient({"bootstrap.servers": f"127.0.0.1:{port}"})
            try:
                header = _send_metadata_request(sock, i)
                futures = admin.create_topics([NewTopic(f"instant-{i}", 1, 1)], request_timeout=25)
                metadata = _receive_metadata(sock, header)
            finally:
                sock.close()
            assert metadata.data.controller_id == 0, (i, metadata.data)
            assert [(b.node_id, b.port) for b in metadata.data.brokers] == [(0, port)], (i, metadata.data)
            futures[f"instant-{i}"].result(30)
            assert f"instant-{i}" in admin.list_topics(timeout=30).topics
            console = broker.console_since_start()
            assert "Holding client requests until the metadata cache knows the controller" in console
            assert "Serving client requests: the metadata cache knows the controller" in console
        finally:
            assert broker.stop() == 0


def test_await_previous_broker_registration_gone(zookeeper, zk_chroot: str) -> None:  # type: ignore[no-untyped-def]
    """KafkaZkClient waits while another session holds /brokers/ids/N: False if it is still held when the time is up,
    True once that session has closed; a registration its own session made is not waited for, nor a persistent
    znode (which would never go)."""
    from kafka.cluster.broker import Broker
    from kafka.cluster.end_point import create_end_point
    from kafka.zk.kafka_zk_client import KafkaZkClient
    from kafka.zk.zk_data import BrokerInfo

    connect = zookeeper.connect_string + zk_chroot
    KafkaZkClient.create_chroot_path(connect, False, 10_000, 10_000, 10, Time.SYSTEM)
    holder = KazooClient(hosts=connect, timeout=10.0)
    holder.start(timeout=10.0)
    zk_client = KafkaZkClient.apply(connect, False, 10_000, 10_000, 10, Time.SYSTEM)
    try:
        zk_client.create_top_level_paths()
        holder.create("/brokers/ids/7", b"{}", ephemeral=True)
        assert not zk_client.await_previous_broker_registration_gone(7, 300)
        holder.stop()  # closes the session: ZooKeeper removes its ephemeral znodes at once
        assert zk_client.await_previous_broker_registration_gone(7, 30_000)
        assert zk_client.await_previous_broker_registration_gone(8, 0)  # never registered
        zk_client.create_recursive("/brokers/ids/6", b"{}")  # persistent: no session's end removes it
        assert not zk_client.await_previous_broker_registration_gone(6, 30_000)

        endpoint = create_end_point("PLAINTEXT://127.0.0.1:9999")
        zk_client.register_broker(BrokerInfo.create(Broker(9, [endpoint], None), -1))
        assert zk_client.await_previous_broker_registration_gone(9, 0)
        assert zk_client.path_exists("/brokers/ids/9")
    finally:
        holder.close()
        zk_client.close()
