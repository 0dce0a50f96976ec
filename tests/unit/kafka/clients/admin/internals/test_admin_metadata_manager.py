"""Tests of AdminMetadataManager (Java's AdminMetadataManagerTest): when a refresh is due, readiness, and which
update failures are fatal."""

from __future__ import annotations

import pytest

from kafka.clients.admin.internals.admin_metadata_manager import AdminMetadataManager
from kafka.common.cluster import Cluster
from kafka.common.errors import AuthenticationException, DisconnectException, UnsupportedVersionException
from kafka.common.node import Node
from kafka.common.utils.log_context import LogContext

REFRESH_BACKOFF_MS = 100
METADATA_EXPIRE_MS = 60_000


def _manager() -> AdminMetadataManager:
    return AdminMetadataManager(LogContext(), REFRESH_BACKOFF_MS, METADATA_EXPIRE_MS, False)


def _cluster() -> Cluster:
    nodes = [Node(0, "localhost", 9092), Node(1, "localhost", 9093)]
    return Cluster("c", nodes, [], controller=nodes[1])


def test_metadata_ready_only_after_a_real_update() -> None:
    """Bootstrap nodes alone do not make the metadata ready; an update from the cluster does."""
    manager = _manager()
    assert not manager.is_ready()
    manager.update(Cluster.bootstrap([("localhost", 9092)]), 0)
    assert not manager.is_ready()
    manager.update(_cluster(), 10)
    assert manager.is_ready()
    assert manager.controller() == Node(1, "localhost", 9093)
    assert manager.node_by_id(0) == Node(0, "localhost", 9092)


def test_fetch_delay_follows_expiry_backoff_and_requests() -> None:
    """A refresh is due at expiry; a requested one waits only the backoff after the last attempt; none while
    one is pending."""
    manager = _manager()
    manager.update(_cluster(), 1000)
    assert manager.metadata_fetch_delay_ms(1000) == METADATA_EXPIRE_MS
    manager.request_update()
    assert manager.metadata_fetch_delay_ms(1000) == 0
    manager.transition_to_update_pending(1000)
    assert manager.metadata_fetch_delay_ms(1000) == 2**63 - 1
    manager.update_failed(DisconnectException("gone"))
    manager.request_update()
    assert manager.metadata_fetch_delay_ms(1050) == 50
    assert manager.metadata_fetch_delay_ms(1100) == 0


def test_clear_controller() -> None:
    """clear_controller forgets the controller and keeps the nodes."""
    manager = _manager()
    manager.update(_cluster(), 0)
    manager.clear_controller()
    assert manager.controller() is None
    assert manager.node_by_id(1) is not None


@pytest.mark.parametrize("exception", [AuthenticationException("no"), UnsupportedVersionException("old")])
def test_fatal_update_failures_are_raised_until_a_good_update(exception: Exception) -> None:
    """Authentication and unsupported-version failures make is_ready raise them, until metadata arrives."""
    manager = _manager()
    manager.update(_cluster(), 0)
    manager.update_failed(exception)
    with pytest.raises(type(exception)):
        manager.is_ready()
    manager.update(_cluster(), 1)
    assert manager.is_ready()


def test_other_failures_are_not_fatal() -> None:
    """A disconnect during an update only makes it retried."""
    manager = _manager()
    manager.update(_cluster(), 0)
    manager.update_failed(DisconnectException("gone"))
    assert manager.is_ready()


def test_updater_requests_update_on_disconnect() -> None:
    """The NetworkClient's report of a lost connection asks for a metadata update; an authentication error is
    fatal."""
    manager = _manager()
    manager.update(_cluster(), 0)
    manager.updater().handle_server_disconnect(0, "0", None)
    assert manager.metadata_fetch_delay_ms(REFRESH_BACKOFF_MS) == 0
    manager.updater().handle_server_disconnect(0, "0", AuthenticationException("bad"))
    with pytest.raises(AuthenticationException):
        manager.is_ready()
    assert [n.id for n in manager.updater().fetch_nodes()] != []
