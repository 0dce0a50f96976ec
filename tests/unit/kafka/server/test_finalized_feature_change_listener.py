"""Tests of kafka.server.finalized_feature_change_listener (Kafka 2.8's FinalizedFeatureChangeListenerTest, in our
words), against a fake ZooKeeper client that holds /feature and calls the registered handlers as ZooKeeper's event
thread would."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kafka.server.broker_features import BrokerFeatures
from kafka.server.finalized_feature_cache import FinalizedFeatureCache, FinalizedFeaturesAndEpoch
from kafka.server.finalized_feature_change_listener import THREAD_NAME, FinalizedFeatureChangeListener
from kafka.zk.zk_data import FeatureZNode, FeatureZNodeStatus, ZkVersion
from tests.utils import wait_until_true

SUPPORTED = {"feature_1": (1, 4)}


class FakeZkClient:
    """Holds the /feature znode (data and version) and the handlers registered for it."""

    def __init__(self) -> None:
        self.data: bytes | None = None
        self.version = ZkVersion.UNKNOWN_VERSION
        self.z_node_change_handlers: dict[str, Any] = {}
        self.state_change_handlers: dict[str, Any] = {}
        self.fail_next_read: Exception | None = None
        self.reads = 0

    # -- what the listener calls --

    def get_data_and_version(self, path: str) -> tuple[bytes | None, int]:
        assert path == FeatureZNode.path
        self.reads += 1
        if self.fail_next_read is not None:
            error, self.fail_next_read = self.fail_next_read, None
            raise error
        return self.data, self.version

    def register_state_change_handler(self, handler: Any) -> None:
        self.state_change_handlers[handler.name] = handler

    def unregister_state_change_handler(self, name: str) -> None:
        self.state_change_handlers.pop(name, None)

    def register_z_node_change_handler_and_check_existence(self, handler: Any) -> bool:
        self.z_node_change_handlers[handler.path] = handler
        return self.data is not None

    def unregister_z_node_change_handler(self, path: str) -> None:
        self.z_node_change_handlers.pop(path, None)

    # -- what the test does to the znode --

    def write(self, node: FeatureZNode | bytes) -> None:
        """Creates or overwrites /feature and fires the watch."""
        created = self.data is None
        self.data = node if isinstance(node, bytes) else FeatureZNode.encode(node)
        self.version = 0 if created else self.version + 1
        handler = self.z_node_change_handlers.get(FeatureZNode.path)
        if handler is not None:
            handler.handle_creation() if created else handler.handle_data_change()

    def delete(self) -> None:
        self.data, self.version = None, ZkVersion.UNKNOWN_VERSION
        handler = self.z_node_change_handlers.get(FeatureZNode.path)
        if handler is not None:
            handler.handle_deletion()


class ExitRecorder:
    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.called = threading.Event()

    def __call__(self, status: int) -> None:
        self.statuses.append(status)
        self.called.set()


def _enabled(features: dict[str, tuple[int, int]]) -> FeatureZNode:
    return FeatureZNode(FeatureZNodeStatus.Enabled(), features)


@pytest.fixture
def zk() -> FakeZkClient:
    return FakeZkClient()


@pytest.fixture
def exits() -> ExitRecorder:
    return ExitRecorder()


def _listener(zk: FakeZkClient, exits: ExitRecorder) -> tuple[FinalizedFeatureCache, FinalizedFeatureChangeListener]:
    cache = FinalizedFeatureCache(BrokerFeatures(SUPPORTED))
    return cache, FinalizedFeatureChangeListener(cache, zk, exits)  # type: ignore[arg-type]


def _thread_names() -> set[str]:
    return {t.name for t in threading.enumerate()}


def test_init_success_and_notification_success(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """Init reads the existing znode into the cache before returning, and a later change of the znode moves the
    cache to the new features at the new version."""
    zk.write(_enabled({"feature_1": (2, 4)}))
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        assert listener.is_listener_initiated
        assert THREAD_NAME in _thread_names()
        assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (2, 4)}, 0)
        assert FeatureZNode.path in zk.z_node_change_handlers and FeatureZNode.path in zk.state_change_handlers

        zk.write(_enabled({"feature_1": (2, 3)}))
        cache.wait_until_epoch_or_throw(1, 15_000)
        assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (2, 3)}, 1)
    finally:
        listener.close()
    assert listener.is_listener_dead
    assert zk.z_node_change_handlers == {} and zk.state_change_handlers == {}
    assert exits.statuses == []


def test_init_without_feature_znode_then_creation(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """Without /feature the cache stays empty after init; the controller's creation of the znode fills it at
    epoch 0."""
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        assert cache.is_empty
        zk.write(_enabled({}))
        cache.wait_until_epoch_or_throw(0, 15_000)
        assert cache.get() == FinalizedFeaturesAndEpoch({}, 0)
    finally:
        listener.close()


def test_feature_z_node_delete_notification_processing(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """Deleting /feature empties the cache, and the listener keeps running."""
    zk.write(_enabled({"feature_1": (2, 4)}))
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        zk.delete()
        wait_until_true(lambda: cache.is_empty, "the cache to be cleared")
        assert listener.is_listener_initiated
    finally:
        listener.close()


def test_feature_z_node_disabling_notification_processing(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """A disabled /feature empties the cache, and the listener keeps running."""
    zk.write(_enabled({"feature_1": (2, 4)}))
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        zk.write(FeatureZNode(FeatureZNodeStatus.Disabled(), {}))
        wait_until_true(lambda: cache.is_empty, "the cache to be cleared")
        assert listener.is_listener_initiated
    finally:
        listener.close()


def test_unreadable_znode_clears_the_cache(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """Content that is not a feature znode empties the cache and does not stop the listener."""
    zk.write(_enabled({"feature_1": (2, 4)}))
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        zk.write(b"not json")
        wait_until_true(lambda: cache.is_empty, "the cache to be cleared")
        zk.write(_enabled({"feature_1": (1, 1)}))
        cache.wait_until_epoch_or_throw(2, 15_000)
        assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (1, 1)}, 2)
    finally:
        listener.close()
    assert exits.statuses == []


def test_zookeeper_failure_is_not_fatal(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """A failed read of /feature is logged and the next change is processed as usual."""
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        zk.fail_next_read = RuntimeError("session expired")
        zk.write(_enabled({}))  # its read fails
        wait_until_true(lambda: zk.fail_next_read is None, "the failing read")
        zk.write(_enabled({"feature_1": (1, 2)}))
        cache.wait_until_epoch_or_throw(1, 15_000)
        assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (1, 2)}, 1)
        assert listener.is_listener_initiated
    finally:
        listener.close()
    assert exits.statuses == []


def test_new_session_reads_the_znode_again(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """After a new ZooKeeper session the znode is read again, catching changes whose watch was lost."""
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        # A change the watch did not report (the session was being replaced).
        zk.data, zk.version = FeatureZNode.encode(_enabled({"feature_1": (1, 3)})), 5
        zk.state_change_handlers[FeatureZNode.path].after_initializing_session()
        cache.wait_until_epoch_or_throw(5, 15_000)
        assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (1, 3)}, 5)
    finally:
        listener.close()


def test_cache_update_wait_fails_for_unreachable_version(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """Waiting for an epoch the znode never reaches times out, leaving the cache at the current one."""
    zk.write(_enabled({"feature_1": (2, 4)}))
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        with pytest.raises(TimeoutError):
            cache.wait_until_epoch_or_throw(1, 50)
        assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (2, 4)}, 0)
    finally:
        listener.close()


def test_init_failure_due_to_feature_incompatibility(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """Finalized features the broker cannot support make init fail: the process is asked to exit with status 1,
    init raises, the listener is closed and the cache stays empty."""
    zk.write(_enabled({"feature_1": (2, 5)}))
    cache, listener = _listener(zk, exits)
    with pytest.raises(TimeoutError, match="for FeatureCache to be updated"):
        listener.init_or_throw(200)
    assert exits.statuses == [1]
    assert listener.is_listener_dead
    assert zk.z_node_change_handlers == {}
    assert cache.is_empty


def test_init_failure_due_to_invalid_wait_time(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """A wait of zero or less is refused before anything starts."""
    _, listener = _listener(zk, exits)
    with pytest.raises(ValueError, match="waitOnceForCacheUpdateMs"):
        listener.init_or_throw(0)
    assert not listener.is_listener_initiated
    listener.close()
    assert listener.is_listener_dead


def test_notification_failure_due_to_feature_incompatibility(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """A change to features the broker cannot support stops the listener and asks the process to exit with
    status 1; the cache keeps what it had."""
    zk.write(_enabled({"feature_1": (2, 4)}))
    cache, listener = _listener(zk, exits)
    listener.init_or_throw(15_000)
    try:
        zk.write(_enabled({"feature_1": (2, 5)}))
        assert exits.called.wait(15)
        assert exits.statuses == [1]
        wait_until_true(lambda: listener.is_listener_dead, "the listener thread to stop")
        assert cache.get() == FinalizedFeaturesAndEpoch({"feature_1": (2, 4)}, 0)
    finally:
        listener.close()


def test_close_without_init(zk: FakeZkClient, exits: ExitRecorder) -> None:
    """A listener that was never initialized (inter.broker.protocol.version below 2.7) closes cleanly."""
    _, listener = _listener(zk, exits)
    listener.close()
    assert listener.is_listener_dead
    assert THREAD_NAME not in _thread_names()
