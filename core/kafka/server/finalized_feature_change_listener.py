"""Port of core/src/main/scala/kafka/server/FinalizedFeatureChangeListener.scala (Kafka 2.8).

Keeps the FinalizedFeatureCache in step with the /feature znode. The znode watch and a new ZooKeeper session only
queue a "read /feature again" item; one thread, `feature-zk-node-event-process-thread`, takes the items in order,
reads the znode and updates the cache: the znode's features at its version when its status is Enabled, an empty
cache when the znode is absent, disabled or unreadable. `init_or_throw` starts all this and waits until the first
read has been applied, so that a broker that cannot support the cluster's finalized features fails at start-up.

A cache update the broker refuses (features it does not support, an epoch going backwards) is fatal: the thread
stops and the broker exits. Any other failure (ZooKeeper trouble) is logged and the next item is processed.

Threads: ZooKeeper's event thread calls the handlers (they only enqueue); the processing thread does all the reads
and cache updates.

# PORT: Kafka throws FatalExitError(1), on which ShutdownableThread calls Exit.exit(1) (System.exit, which runs the
# shutdown hook that shuts the broker down). This port has no FatalExitError: the thread stops itself and calls
# `exit_procedure(1)`, by default a SIGTERM to this process, which takes the broker's own shutdown path (its
# exit status is then 0, not 1). The thread waits on its queue for at most a second at a time and is woken by a
# sentinel at shutdown, where Kafka blocks in LinkedBlockingQueue.take() and relies on interrupt(). Kafka raises
# scala.concurrent.TimeoutException from the initial wait; here it is Python's TimeoutError.
"""

from __future__ import annotations

import os
import queue
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from kafka.server.finalized_feature_cache import FeatureCacheUpdateException, FinalizedFeatureCache
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.logging import Logging
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.zk.zk_data import FeatureZNode, FeatureZNodeStatus, ZkVersion
from kafka.zookeeper.zoo_keeper_client import StateChangeHandler, ZNodeChangeHandler

if TYPE_CHECKING:
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = ["FinalizedFeatureChangeListener"]

THREAD_NAME: Final = "feature-zk-node-event-process-thread"
_QUEUE_POLL_S: Final = 1.0
_WAKE_UP: Final = object()


def _exit_process(status: int) -> None:
    """Asks this process to shut down as an operator's SIGTERM would (see the module docstring)."""
    del status
    os.kill(os.getpid(), signal.SIGTERM)


class _FeatureCacheUpdater:
    """One "read /feature and update the cache" item; the one queued by `init_or_throw` also carries a latch
    that opens once it has been applied, and may be applied only once."""

    __slots__ = ("_listener", "_feature_zk_node_path", "_maybe_notify_once")

    def __init__(
        self,
        listener: FinalizedFeatureChangeListener,
        feature_zk_node_path: str,
        maybe_notify_once: CountDownLatch | None = None,
    ) -> None:
        self._listener = listener
        self._feature_zk_node_path = feature_zk_node_path
        self._maybe_notify_once = maybe_notify_once

    def update_latest_or_throw(self) -> None:
        """Reads the znode and updates the cache; raises FeatureCacheUpdateException if the cache refuses the
        update, RuntimeError if a one-shot item is applied twice."""
        notifier = self._maybe_notify_once
        if notifier is not None and notifier.get_count() != 1:
            raise RuntimeError("Can not notify after updateLatestOrThrow was called more than once successfully.")

        listener = self._listener
        cache = listener._finalized_feature_cache
        path = self._feature_zk_node_path
        listener.debug(f"Reading feature ZK node at path: {path}")
        data, version = listener._zk_client.get_data_and_version(path)
        # An absent znode comes back as (None, UNKNOWN_VERSION); a present one always has (possibly empty) data,
        # and empty data is not a valid feature znode.
        if version == ZkVersion.UNKNOWN_VERSION:
            listener.info(f"Feature ZK node at path: {path} does not exist")
            cache.clear()
        else:
            feature_z_node: FeatureZNode | None = None
            try:
                feature_z_node = FeatureZNode.decode(data or b"")
            except ValueError as e:
                listener.error(f"Unable to deserialize feature ZK node at path: {path}", e)
                cache.clear()
            if feature_z_node is not None:
                match feature_z_node.status:
                    case FeatureZNodeStatus.Disabled():
                        listener.info(f"Feature ZK node at path: {path} is in disabled status.")
                        cache.clear()
                    case FeatureZNodeStatus.Enabled():
                        cache.update_or_throw(feature_z_node.features, version)
                    case _:
                        raise RuntimeError(f"Unexpected FeatureZNodeStatus found in {feature_z_node}")

        if notifier is not None:
            notifier.count_down()

    def await_update_or_throw(self, wait_time_ms: int) -> None:
        """Blocks until this item has been applied once (returns at once if it already was); raises TimeoutError
        after `wait_time_ms`."""
        notifier = self._maybe_notify_once
        if notifier is not None and not notifier.await_(wait_time_ms / 1000):
            raise TimeoutError(f"Timed out after waiting for {wait_time_ms}ms for FeatureCache to be updated.")


class _ChangeNotificationProcessorThread(ShutdownableThread):
    """Applies the queued updater items one at a time (Kafka's inner class ChangeNotificationProcessorThread)."""

    logger_name = "kafka.server.FinalizedFeatureChangeListener$ChangeNotificationProcessorThread"

    def __init__(self, name: str, update_queue: queue.Queue[object], exit_procedure: Callable[[int], Any]) -> None:
        super().__init__(name)
        self._update_queue = update_queue
        self._exit_procedure = exit_procedure

    def initiate_shutdown(self) -> bool:
        initiated = super().initiate_shutdown()
        self._update_queue.put(_WAKE_UP)
        return initiated

    def do_work(self) -> None:
        try:
            item = self._update_queue.get(timeout=_QUEUE_POLL_S)
        except queue.Empty:
            return
        if not isinstance(item, _FeatureCacheUpdater) or not self.is_running:
            return
        try:
            item.update_latest_or_throw()
        except FeatureCacheUpdateException as e:
            self.error("Failed to process feature ZK node change event. The broker will eventually exit.", e)
            # Kafka's FatalExitError(1): this loop ends here and the process is asked to exit.
            self.initiate_shutdown()
            self._exit_procedure(1)
        except Exception as e:
            # Not a cache problem (ZooKeeper trouble, say): the next change is processed as usual.
            self.warn("Unexpected exception in feature ZK node change event processing; will continue processing.", e)


class _FeatureZNodeChangeHandler(ZNodeChangeHandler):
    """The watch on /feature: whatever happened to it, read it again."""

    def __init__(self, listener: FinalizedFeatureChangeListener) -> None:
        self.path = FeatureZNode.path
        self._listener = listener

    def handle_creation(self) -> None:
        self._listener.info(f"Feature ZK node created at path: {self.path}")
        self._listener._enqueue(_FeatureCacheUpdater(self._listener, self.path))

    def handle_data_change(self) -> None:
        self._listener.info(f"Feature ZK node updated at path: {self.path}")
        self._listener._enqueue(_FeatureCacheUpdater(self._listener, self.path))

    def handle_deletion(self) -> None:
        # Should not happen (an operator's mistake, a damaged ZooKeeper): treated as an absent znode, which
        # empties the cache.
        self._listener.warn(f"Feature ZK node deleted at path: {self.path}")
        self._listener._enqueue(_FeatureCacheUpdater(self._listener, self.path))


class _ZkStateChangeHandler(StateChangeHandler):
    """A new ZooKeeper session may have missed changes (and lost the watch): read /feature again."""

    def __init__(self, listener: FinalizedFeatureChangeListener) -> None:
        self.path = FeatureZNode.path
        self.name = self.path
        self._listener = listener

    def after_initializing_session(self) -> None:
        self._listener._enqueue(_FeatureCacheUpdater(self._listener, self.path))


class FinalizedFeatureChangeListener(Logging):
    """See the module docstring."""

    logger_name = "kafka.server.FinalizedFeatureChangeListener"

    def __init__(
        self,
        finalized_feature_cache: FinalizedFeatureCache,
        zk_client: KafkaZkClient,
        exit_procedure: Callable[[int], Any] = _exit_process,
    ) -> None:
        self._finalized_feature_cache = finalized_feature_cache
        self._zk_client = zk_client
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = _ChangeNotificationProcessorThread(THREAD_NAME, self._queue, exit_procedure)
        self._feature_z_node_change_handler = _FeatureZNodeChangeHandler(self)
        self._zk_state_change_handler = _ZkStateChangeHandler(self)

    def _enqueue(self, updater: _FeatureCacheUpdater) -> None:
        self._queue.put(updater)

    def init_or_throw(self, wait_once_for_cache_update_ms: int) -> None:
        """Starts the processing thread and the watch, then waits up to `wait_once_for_cache_update_ms` (> 0) for
        the cache to have been filled from /feature once. If that fails (a timeout, features this broker cannot
        support), the listener is closed and the error raised."""
        if wait_once_for_cache_update_ms <= 0:
            raise ValueError(f"Expected waitOnceForCacheUpdateMs > 0, but provided: {wait_once_for_cache_update_ms}")
        self._thread.start()
        self._zk_client.register_state_change_handler(self._zk_state_change_handler)
        self._zk_client.register_z_node_change_handler_and_check_existence(self._feature_z_node_change_handler)
        ensure_cache_update_once = _FeatureCacheUpdater(self, FeatureZNode.path, CountDownLatch(1))
        self._enqueue(ensure_cache_update_once)
        try:
            ensure_cache_update_once.await_update_or_throw(wait_once_for_cache_update_ms)
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        """Removes the handlers, drops pending items and stops the processing thread (also if it never started)."""
        self._zk_client.unregister_state_change_handler(self._zk_state_change_handler.name)
        self._zk_client.unregister_z_node_change_handler(self._feature_z_node_change_handler.path)
        with self._queue.mutex:
            self._queue.queue.clear()
        self._thread.shutdown()

    @property
    def is_listener_initiated(self) -> bool:
        """For tests: the processing thread is running."""
        return self._thread.is_running and self._thread.is_alive()

    @property
    def is_listener_dead(self) -> bool:
        """For tests: the processing thread has stopped."""
        return not self._thread.is_running and not self._thread.is_alive()
