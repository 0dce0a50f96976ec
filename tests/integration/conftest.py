"""Fixtures for integration tests: one real ZooKeeper per test session, a fresh chroot per test, and Tansu (a
peer broker) per module."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path

import pytest
from kazoo.client import KazooClient

from tests.bench.broker_bench import Tansu, tansu_binary
from tests.integration.broker import ROOT
from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster, running_cluster
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
def cluster_factory(zk_chroot: str, zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[ClusterFactory]:
    """`start_cluster(overrides, racks, num_brokers)`: brokers with ids 0..num_brokers-1 started from the bin scripts
    on the test's chroot, with `overrides` over tests.integration.cluster.TEST_OVERRIDES and `racks` as their
    broker.rack (tests.integration.cluster.running_cluster). After the test, paused brokers are resumed and the
    cluster is stopped. One cluster per test: it works in the test's tmp_path."""
    with ExitStack() as stack:

        def start_cluster(
            overrides: dict[str, str] | None = None, racks: Mapping[int, str] | None = None, num_brokers: int = 3
        ) -> KafkaCluster:
            assert not any(tmp_path.glob("broker-*")), "one cluster per test"
            zk_connect = zookeeper.connect_string + zk_chroot
            return stack.enter_context(running_cluster(tmp_path, zk_connect, overrides, racks, num_brokers))

        yield start_cluster


@pytest.fixture
def cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    """Three brokers (ids 0, 1, 2) started from the bin scripts on a fresh chroot; stopped after the test."""
    return cluster_factory()


@pytest.fixture
def cluster_view(zk_chroot: str, zookeeper: ZooKeeperServer) -> Iterator[ClusterView]:
    """ZooKeeper's view of the test's cluster (the one on its chroot): controller, partition states, ISRs. Ask for
    it after the cluster fixture: the chroot exists once the brokers have started."""
    with ClusterView(zookeeper.connect_string + zk_chroot) as view:
        yield view
