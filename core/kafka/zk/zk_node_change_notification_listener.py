"""Port of core/src/main/scala/kafka/common/ZkNodeChangeNotificationListener.scala (Kafka 2.8).

Follows a ZooKeeper "notification queue": a znode (`seq_node_root`, e.g. `/config/changes`) whose children are
persistent sequential znodes named `seq_node_prefix` + a ten-digit number (`config_change_0000000042`). Each child
carries a message for a NotificationHandler. A child watch on the root, and the re-creation of the ZooKeeper
session, only put a "look again" token on a queue; one thread, `{seq_node_root}-event-process-thread`, takes the
token, lists the children in order, hands every child newer than the last one it processed to the handler, and
deletes the children older than `change_expiration_ms` (by their creation time in ZooKeeper).

The handler is called for every notification at least once while this listener runs; a failing handler is logged
and the next notification is processed. Notifications already processed are not processed again, except after a
restart (the last processed number lives in memory only), so handlers must be idempotent.

Threads: ZooKeeper's event thread calls the watch handlers (they only enqueue); the processing thread does all the
work, so `_last_executed_change` is only touched by it.

# PORT: Kafka keeps this class in the kafka.common package (core/.../kafka/common/); here it lives with the other
# ZooKeeper code in kafka.zk, so that kafka.common stays the port of the Java client's package. The processing
# thread waits on its queue for at most a second at a time and is woken by a sentinel at shutdown, where Kafka
# blocks in LinkedBlockingQueue.take() and relies on interrupt().
"""

from __future__ import annotations

import queue
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from kafka.common.utils.time import Time
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.logging import Logging
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.zk.zk_data import StateChangeHandlers, ZkStat
from kafka.zookeeper.zoo_keeper_client import StateChangeHandler, ZNodeChildChangeHandler

if TYPE_CHECKING:
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = ["NotificationHandler", "ZkNodeChangeNotificationListener"]

_DEFAULT_CHANGE_EXPIRATION_MS: Final = 15 * 60 * 1000
_QUEUE_POLL_S: Final = 1.0


class NotificationHandler(ABC):
    """Acts on the data of one notification znode."""

    @abstractmethod
    def process_notification(self, notification_message: bytes) -> None: ...


class _ChangeNotification:
    """The "look at the children again" token."""

    __slots__ = ("_listener",)

    def __init__(self, listener: ZkNodeChangeNotificationListener) -> None:
        self._listener = listener

    def process(self) -> None:
        self._listener._process_notifications()


_WAKE_UP: Final = object()  # put on the queue by shutdown to end a wait at once


class ZkNodeChangeNotificationListener(Logging):
    """See the module docstring. `init()` starts listening (and processes what is already there); `close()` stops."""

    logger_name = "kafka.common.ZkNodeChangeNotificationListener"

    def __init__(
        self,
        zk_client: KafkaZkClient,
        seq_node_root: str,
        seq_node_prefix: str,
        notification_handler: NotificationHandler,
        change_expiration_ms: int = _DEFAULT_CHANGE_EXPIRATION_MS,
        time: Time = Time.SYSTEM,
    ) -> None:
        self._zk_client = zk_client
        self._seq_node_root = seq_node_root
        self._seq_node_prefix = seq_node_prefix
        self._notification_handler = notification_handler
        self._change_expiration_ms = change_expiration_ms
        self._time = time
        self._last_executed_change = -1
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = _ChangeEventProcessThread(f"{seq_node_root}-event-process-thread", self._queue)
        self._is_closed = AtomicBoolean(False)
        self._change_notification_handler = _ChangeNotificationHandler(self)
        self._zk_state_change_handler = _ZkStateChangeHandler(self)

    def init(self) -> None:
        """Registers the watches, queues a first look at the existing notifications and starts the thread."""
        self._zk_client.register_state_change_handler(self._zk_state_change_handler)
        self._zk_client.register_z_node_child_change_handler(self._change_notification_handler)
        self._add_change_notification()
        self._thread.start()

    def close(self) -> None:
        """Stops listening and processing; waits for the processing thread to end."""
        self._is_closed.set(True)
        self._zk_client.unregister_state_change_handler(self._zk_state_change_handler.name)
        self._zk_client.unregister_z_node_child_change_handler(self._change_notification_handler.path)
        _clear(self._queue)
        self._thread.shutdown()

    # ---- processing (on the processing thread) ---------------------------------------------------

    def _process_notifications(self) -> None:
        try:
            # get_children also sets the child watch again, since our handler is registered for the root.
            notifications = sorted(self._zk_client.get_children(self._seq_node_root))
            if notifications:
                self.info(f"Processing notification(s) to {self._seq_node_root}")
                now = self._time.milliseconds()
                for notification in notifications:
                    change_id = self._change_number(notification)
                    if change_id > self._last_executed_change:
                        self._process_notification(notification)
                        self._last_executed_change = change_id
                self._purge_obsolete_notifications(now, notifications)
        except Exception as e:
            if not self._is_closed.get():
                self.error(f"Error while processing notification change for path = {self._seq_node_root}", e)

    def _process_notification(self, notification: str) -> None:
        change_znode = f"{self._seq_node_root}/{notification}"
        data, _ = self._zk_client.get_data_and_stat(change_znode)
        if data is None:
            self.warn(f"read null data from {change_znode}")
            return
        try:
            self._notification_handler.process_notification(data)
        except Exception as e:
            self.error(f"error processing change notification {data.decode('utf-8', 'replace')} from {change_znode}", e)

    def _add_change_notification(self) -> None:
        # One pending token is enough: processing always reads the full list of children.
        if not self._is_closed.get() and self._queue.empty():
            self._queue.put(_ChangeNotification(self))

    def _purge_obsolete_notifications(self, now: int, notifications: Sequence[str]) -> None:
        """Deletes the notifications created more than change_expiration_ms before `now`."""
        for notification in sorted(notifications):
            notification_node = f"{self._seq_node_root}/{notification}"
            data, stat = self._zk_client.get_data_and_stat(notification_node)
            if data is not None and stat is not ZkStat.NO_STAT:
                if now - stat.ctime > self._change_expiration_ms:
                    self.debug(f"Purging change notification {notification_node}")
                    self._zk_client.delete_path(notification_node)

    def _change_number(self, name: str) -> int:
        """The sequence number in a notification znode's name."""
        return int(name[len(self._seq_node_prefix) :])


class _ChangeEventProcessThread(ShutdownableThread):
    """Takes tokens off the queue and processes them (Kafka's inner class ChangeEventProcessThread)."""

    logger_name = "kafka.common.ZkNodeChangeNotificationListener$ChangeEventProcessThread"

    def __init__(self, name: str, change_queue: queue.Queue[object]) -> None:
        super().__init__(name)
        self._change_queue = change_queue

    def initiate_shutdown(self) -> bool:
        initiated = super().initiate_shutdown()
        self._change_queue.put(_WAKE_UP)
        return initiated

    def do_work(self) -> None:
        try:
            item = self._change_queue.get(timeout=_QUEUE_POLL_S)
        except queue.Empty:
            return
        if isinstance(item, _ChangeNotification) and self.is_running:
            item.process()


class _ChangeNotificationHandler(ZNodeChildChangeHandler):
    """The child watch on the root: a new notification is there."""

    def __init__(self, listener: ZkNodeChangeNotificationListener) -> None:
        self.path = listener._seq_node_root
        self._listener = listener

    def handle_child_change(self) -> None:
        self._listener._add_change_notification()


class _ZkStateChangeHandler(StateChangeHandler):
    """A new ZooKeeper session: notifications (and the watch) may have been missed, look again."""

    def __init__(self, listener: ZkNodeChangeNotificationListener) -> None:
        self.name = StateChangeHandlers.zk_node_change_listener_handler(listener._seq_node_root)
        self._listener = listener

    def after_initializing_session(self) -> None:
        self._listener._add_change_notification()


def _clear(q: queue.Queue[object]) -> None:
    with q.mutex:
        q.queue.clear()
