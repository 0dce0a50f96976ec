"""Fixtures for integration tests: one real ZooKeeper per test session, a fresh chroot per test, and Tansu (a
peer broker) per module."""

from __future__ import annotations

import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from kazoo.client import KazooClient

from tests.bench.broker_bench import Tansu, tansu_binary
from tests.integration.broker import ROOT
from tests.integration.cluster import KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer


@pytest.fixture(scope="session")
def zookeeper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ZooKeeperServer]:
    """A ZooKeeper server (Debian's, through bin/zookeeper-server-start.sh) shared by the session's tests."""
    server = ZooKeeperServer(Path(tmp_path_factory.mktemp("zookeeper")))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def zk_chroot(zookeeper: ZooKeeperServer) -> Iterator[str]:
    """A chroot path no other test uses (`/test-<uuid>`, not created); its tree is removed after the test."""
    chroot = f"/test-{uuid.uuid4().hex}"
    yield chroot
    client = KazooClient(hosts=zookeeper.connect_string, timeout=10.0)
    client.start(timeout=10.0)
    try:
        client.delete(chroot, recursive=True)
    except Exception:
        pass  # the test never created it, or a client of the test still holds an ephemeral child
    finally:
        client.stop()
        client.close()


@pytest.fixture(scope="module")
def tansu() -> Iterator[Tansu]:
    """Tansu, another Kafka-protocol broker, keeping its data in memory (`make test` caches its binary first;
    without the cache it is downloaded here, and a test that needs it fails if it cannot be had)."""
    peer = Tansu(tansu_binary(ROOT / ".bench-cache"))
    try:
        yield peer
    finally:
        peer.stop()


@pytest.fixture
def cluster(zk_chroot: str, zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[KafkaCluster]:
    """Three brokers (ids 0, 1, 2) started from the bin scripts on a fresh chroot; stopped after the test. The last
    broker to stop has nobody to hand its leadership to: one controlled-shutdown try instead of Kafka's three."""
    kafka_cluster = KafkaCluster(
        tmp_path,
        zookeeper.connect_string + zk_chroot,
        num_brokers=3,
        overrides={"controlled.shutdown.max.retries": "1"},
    )
    try:
        kafka_cluster.start()
        yield kafka_cluster
    finally:
        for broker in kafka_cluster.brokers:
            if broker.is_running:
                broker.signal(signal.SIGCONT)  # a test may leave one paused
        kafka_cluster.stop()
