"""Fixtures for integration tests: one real ZooKeeper per test session, and a fresh chroot per test."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from kazoo.client import KazooClient

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
