"""Finalized features in ApiVersions, as a Kafka 2.8 broker in ZooKeeper mode answers: the controller creates
/feature at fail-over, the broker's feature listener reads it, and ApiVersions v3 reports its version as the
finalized features epoch (0 for a new cluster), following every later change of the znode."""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from kazoo.client import KazooClient

from kafka.common.message import ApiVersionsRequestData, ApiVersionsResponseData, RequestHeaderData
from kafka.common.protocol.message import ByteBufferAccessor
from tests.integration.broker import BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

_API_VERSIONS = 18


def _api_versions_v3(broker: BrokerProcess) -> ApiVersionsResponseData:
    """One ApiVersions v3 round trip on a fresh connection (request header v2, response header v0)."""
    header = RequestHeaderData(request_api_key=_API_VERSIONS, request_api_version=3, correlation_id=7, client_id="t")
    body = ApiVersionsRequestData(client_software_name="kafka-port-test", client_software_version="1")
    payload = header.write(2) + body.write(3)
    with socket.create_connection(("127.0.0.1", broker.port), timeout=10) as sock:
        sock.sendall(struct.pack(">i", len(payload)) + payload)
        size = struct.unpack(">i", _read_exactly(sock, 4))[0]
        frame = _read_exactly(sock, size)
    assert struct.unpack(">i", frame[:4])[0] == 7
    return ApiVersionsResponseData().read(ByteBufferAccessor(frame[4:]), 3)


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        assert chunk, "the broker closed the connection"
        data += chunk
    return data


def _epoch(broker: BrokerProcess) -> int:
    return int(_api_versions_v3(broker).finalized_features_epoch)


@pytest.fixture
def zk(zookeeper, zk_chroot: str) -> Iterator[KazooClient]:  # type: ignore[no-untyped-def]
    client = KazooClient(hosts=zookeeper.connect_string, timeout=10.0)
    client.start(timeout=10.0)
    client.ensure_path(zk_chroot)
    client.chroot = zk_chroot
    try:
        yield client
    finally:
        client.stop()
        client.close()


def test_api_versions_reports_the_feature_znode_version(
    zookeeper: ZooKeeperServer, zk_chroot: str, zk: KazooClient, tmp_path: Path
) -> None:
    """A new cluster answers epoch 0 with no features once the controller has created /feature; the epoch follows
    the znode's version when it is rewritten, and is -1 (unknown) once the znode is deleted."""
    broker = BrokerProcess(tmp_path, zookeeper.connect_string + zk_chroot)
    broker.start()
    try:
        wait_until_true(lambda: _epoch(broker) == 0, "ApiVersions to report finalized features epoch 0")
        data, stat = zk.get("/feature")
        assert stat.version == 0
        assert json.loads(data) == {"features": {}, "version": 1, "status": 1}
        response = _api_versions_v3(broker)
        assert response.error_code == 0
        assert len(response.supported_features) == 0  # a Kafka 2.8 broker supports no feature
        assert len(response.finalized_features) == 0

        zk.set("/feature", data)  # the same content at a new version
        assert zk.exists("/feature").version == 1
        wait_until_true(lambda: _epoch(broker) == 1, "the epoch to follow the /feature version")

        # The listener watched /feature before the controller created it, as in Kafka 2.8's start-up.
        server_log = (tmp_path / "logs" / "server.log").read_text()
        assert "Feature ZK node created at path: /feature" in server_log
        assert "Feature ZK node updated at path: /feature" in server_log

        zk.delete("/feature")
        wait_until_true(lambda: _epoch(broker) == -1, "the epoch to be unknown while /feature is absent")
    finally:
        assert broker.stop() == 0, broker.console_tail()


def test_api_versions_epoch_unknown_below_ibp_2_7(zookeeper, zk_chroot: str, zk: KazooClient, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """With inter.broker.protocol.version 2.6 the controller writes a disabled /feature and the broker does not
    watch it: ApiVersions reports epoch -1, as Kafka 2.8 does there."""
    broker = BrokerProcess(
        tmp_path, zookeeper.connect_string + zk_chroot, overrides={"inter.broker.protocol.version": "2.6"}
    )
    broker.start()
    try:
        wait_until_true(lambda: zk.exists("/feature") is not None, "the controller to create /feature")
        data, _ = zk.get("/feature")
        assert json.loads(data) == {"features": {}, "version": 1, "status": 0}
        response = _api_versions_v3(broker)
        assert response.error_code == 0
        assert response.finalized_features_epoch == -1
        assert len(response.finalized_features) == 0
    finally:
        assert broker.stop() == 0, broker.console_tail()
