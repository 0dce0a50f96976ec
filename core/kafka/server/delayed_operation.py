"""Port of core/src/main/scala/kafka/server/DelayedOperation.scala (Kafka 2.8).

A DelayedOperation is a request answer that waits (a produce for its acks, a fetch for enough bytes, a join for the
group's members) for at most `delay_ms`. A DelayedOperationPurgatory keeps such operations: it watches each under
one or more keys, so that an event on a key (`check_and_complete(key)`) re-checks only the operations watching that
key, and it expires them through a timing wheel driven by its reaper thread `ExpirationReaper-{brokerId}-{name}`.

Cost per operation: watching is O(number of keys), expiry O(1) in the wheel; an event re-checks the operations on
its own key only. Completed operations linger in watcher lists until a key's next check or the periodic purge,
which runs when more than `purge_interval` completed operations may be lingering.

Lock order: an operation's `lock`, then a watcher list's lock (the shard's `watchers_lock`), then the timer's locks.
`check_and_complete` takes each operation's lock with no purgatory lock held, so callers should not hold locks that
an operation's `try_complete` needs.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.utils.atomic import AtomicBoolean, AtomicInteger
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.utils.timer.timer import SystemTimer, Timer
from kafka.utils.timer.timer_task import TimerTask

LockLike = Any  # threading.RLock() returns an instance of a private type; any reentrant lock object will do


class DelayedOperation(TimerTask, Logging):
    """An operation completed exactly once: by `try_complete()` once it can be, or by expiry after `delay_ms`.

    Subclasses implement `try_complete` (check, and call `force_complete()` if done), `on_complete` (the answer)
    and `on_expiration` (bookkeeping of an expiry). `lock_opt` lets operations share one lock (a group's
    operations use the group's lock); by default each has its own RLock.
    """

    def __init__(self, delay_ms: int, lock_opt: LockLike | None = None) -> None:
        TimerTask.__init__(self, delay_ms)
        self._completed = AtomicBoolean(False)
        self.lock: LockLike = lock_opt if lock_opt is not None else threading.RLock()

    def force_complete(self) -> bool:
        """Completes the operation unless someone already has; True only for the caller that completed it.

        Called from try_complete() when the operation can complete, and by the timer when it expires."""
        if self._completed.compare_and_set(False, True):
            self.cancel()  # out of the timing wheel
            self.on_complete()
            return True
        return False

    @property
    def is_completed(self) -> bool:
        return self._completed.get()

    @abstractmethod
    def on_expiration(self) -> None:
        """Called after the operation was completed because it expired."""

    @abstractmethod
    def on_complete(self) -> None:
        """The completion itself; runs exactly once, from force_complete()."""

    @abstractmethod
    def try_complete(self) -> bool:
        """Completes the operation (through force_complete()) if it can be now; True if that call completed it."""

    def safe_try_complete_or_else(self, f: Callable[[], None]) -> bool:
        """Under the operation's lock: try_complete(); if that fails, run `f` and try once more."""
        with self.lock:
            if self.try_complete():
                return True
            f()
            return self.try_complete()  # anything that changed while `f` ran is seen here

    def safe_try_complete(self) -> bool:
        """try_complete() under the operation's lock."""
        with self.lock:
            return self.try_complete()

    def run(self) -> None:
        """The timer's task: expire the operation."""
        if self.force_complete():
            self.on_expiration()


T = TypeVar("T", bound=DelayedOperation)


class DelayedOperationPurgatory(Logging, KafkaMetricsGroup, Generic[T]):
    """Holds delayed operations until they complete or expire.

    Metrics (kafka.server:type=DelayedOperationPurgatory,name=...,delayedOperation=<purgatory name>): the
    PurgatorySize (`watched`) and NumDelayedOperations (`num_delayed`) gauges, removed at shutdown.

    # PORT: Kafka's companion `apply` creates the SystemTimer; here `timeout_timer=None` does the same.
    """

    SHARDS = 512  # watcher lists are sharded by key so that threads on different keys rarely meet on a lock

    def __init__(
        self,
        purgatory_name: str,
        timeout_timer: Timer | None = None,
        broker_id: int = 0,
        purge_interval: int = 1000,
        reaper_enabled: bool = True,
        timer_enabled: bool = True,
    ) -> None:
        self.purgatory_name = purgatory_name
        self.timeout_timer: Timer = timeout_timer if timeout_timer is not None else SystemTimer(purgatory_name)
        self.broker_id = broker_id
        self.purge_interval = purge_interval
        self.reaper_enabled = reaper_enabled
        self.timer_enabled = timer_enabled
        self._watcher_lists = [_WatcherList(self) for _ in range(self.SHARDS)]
        # Operations watched since the last purge: completed ones still in watcher lists are about this number
        # minus the operations pending in the timer.
        self._estimated_total_operations = AtomicInteger(0)
        self._metrics_tags = {"delayedOperation": purgatory_name}
        self.new_gauge("PurgatorySize", lambda: self.watched, self._metrics_tags)
        self.new_gauge("NumDelayedOperations", lambda: self.num_delayed, self._metrics_tags)
        self._expiration_reaper = ExpiredOperationReaper(self)
        if reaper_enabled:
            self._expiration_reaper.start()

    def _watcher_list(self, key: Hashable) -> _WatcherList:
        return self._watcher_lists[hash(key) % self.SHARDS]

    def try_complete_else_watch(self, operation: T, watch_keys: Iterable[Hashable], check_first: bool = True) -> bool:
        """Completes `operation` now if it can; otherwise watches it under every key and arms its timeout.

        True if this call completed the operation. The check, watching and re-check run under the operation's
        lock, so no event on a key can slip between the check and the watching: a later event finds the
        operation on the key's list. An operation completed while only some keys watch it is not added to the
        rest; the lists it sits in drop it later.

        # PORT: `check_first=False` skips the check before the watching, for a caller that has just found the
        # operation cannot complete (a fetch whose read came short): the one check after the watching still sees
        # anything that happened since. Kafka always checks twice; the answer is the same, one check cheaper."""
        keys = list(watch_keys)
        assert keys, "The watch key list can't be empty"

        def watch_all() -> None:
            for key in keys:
                self._watch_for_operation(key, operation)
            self._estimated_total_operations.increment_and_get()

        if check_first:
            if operation.safe_try_complete_or_else(watch_all):
                return True
        else:
            with operation.lock:
                watch_all()
                if operation.try_complete():
                    return True

        # Still pending, and now watched: it must also expire.
        if not operation.is_completed:
            if self.timer_enabled:
                self.timeout_timer.add(operation)
            if operation.is_completed:
                operation.cancel()  # completed meanwhile: take the timer task back out
        return False

    def check_and_complete(self, key: Hashable) -> int:
        """Tries to complete the operations watching `key`; returns how many this call completed."""
        wl = self._watcher_list(key)
        with wl.watchers_lock:
            watchers = wl.watchers_by_key.get(key)
        num_completed = 0 if watchers is None else watchers.try_complete_watched()
        if self.is_debug_enabled():
            self.debug(f"Request key {key} unblocked {num_completed} {self.purgatory_name} operations")
        return num_completed

    @property
    def watched(self) -> int:
        """Entries in all watcher lists; an operation on several keys, or completed but not yet purged, counts
        more than once, so this may exceed the number of pending operations."""
        return sum(w.count_watched for wl in self._watcher_lists for w in wl.all_watchers())

    @property
    def num_delayed(self) -> int:
        """Operations waiting in the timer."""
        return self.timeout_timer.size

    def cancel_for_key(self, key: Hashable) -> list[T]:
        """Stops watching `key`: its operations leave the watcher list and the timer without completing."""
        wl = self._watcher_list(key)
        with wl.watchers_lock:
            watchers = wl.watchers_by_key.remove(key)
            return watchers.cancel() if watchers is not None else []

    def _watch_for_operation(self, key: Hashable, operation: T) -> None:
        # Under the shard lock, so that the operation never lands in a Watchers being removed for being empty.
        wl = self._watcher_list(key)
        with wl.watchers_lock:
            watchers = wl.watchers_by_key.get_and_maybe_put(key)
            watchers.watch(operation)

    def _remove_key_if_empty(self, key: Hashable, watchers: Watchers[T]) -> None:
        wl = self._watcher_list(key)
        with wl.watchers_lock:
            if wl.watchers_by_key.get(key) is not watchers:
                return  # the key has a newer Watchers now
            if watchers.is_empty:
                wl.watchers_by_key.remove(key)

    def shutdown(self) -> None:
        """Stops the reaper thread and the timer's executor."""
        if self.reaper_enabled:
            self._expiration_reaper.shutdown()
        self.timeout_timer.shutdown()
        self.remove_metric("PurgatorySize", self._metrics_tags)
        self.remove_metric("NumDelayedOperations", self._metrics_tags)

    def advance_clock(self, timeout_ms: int) -> None:
        """Expires what is due (waiting up to `timeout_ms` for it), then purges watcher lists if enough completed
        operations may be lingering there."""
        self.timeout_timer.advance_clock(timeout_ms)
        num_delayed = self.num_delayed
        if self._estimated_total_operations.get() - num_delayed > self.purge_interval:
            # Restart the estimate from the pending count; completions during the purge make it a little high.
            self._estimated_total_operations.get_and_set(num_delayed)
            self.debug("Begin purging watch lists")
            purged = sum(w.purge_completed() for wl in self._watcher_lists for w in wl.all_watchers())
            self.debug(f"Purged {purged} elements from watch lists.")


class _WatcherList(Generic[T]):
    """One shard: the Watchers of the keys that hash to it, and the lock guarding their creation and removal."""

    __slots__ = ("watchers_by_key", "watchers_lock")

    def __init__(self, purgatory: DelayedOperationPurgatory[T]) -> None:
        self.watchers_by_key: Pool[Hashable, Watchers[T]] = Pool(lambda key: Watchers(key, purgatory))
        self.watchers_lock = threading.RLock()

    def all_watchers(self) -> list[Watchers[T]]:
        """A snapshot; other threads may remove some of these meanwhile."""
        return self.watchers_by_key.values


class Watchers(Generic[T]):
    """The operations watching one key, in the order they arrived.

    # PORT: Kafka uses a ConcurrentLinkedQueue and removes through its iterator. Here an insertion-ordered dict
    # keyed by id(operation) gives O(1) add and remove; traversals work on a snapshot (copied in C, so atomic
    # under the GIL), which is as weakly consistent as the Java iterator.
    """

    __slots__ = ("_operations", "_purgatory", "key")

    def __init__(self, key: Hashable, purgatory: DelayedOperationPurgatory[T]) -> None:
        self.key = key
        self._purgatory = purgatory
        self._operations: dict[int, T] = {}

    @property
    def count_watched(self) -> int:
        return len(self._operations)

    @property
    def is_empty(self) -> bool:
        return not self._operations

    def watch(self, t: T) -> None:
        self._operations[id(t)] = t

    def try_complete_watched(self) -> int:
        """Drops operations completed elsewhere and completes those that can be; returns how many it completed."""
        completed = 0
        operations = self._operations
        for curr in list(operations.values()):
            if curr.is_completed:
                operations.pop(id(curr), None)  # completed by another thread or key
            elif curr.safe_try_complete():
                operations.pop(id(curr), None)
                completed += 1
        if not operations:
            self._purgatory._remove_key_if_empty(self.key, self)
        return completed

    def cancel(self) -> list[T]:
        """Removes every operation, cancelling its timeout; returns them."""
        cancelled: list[T] = []
        for curr in list(self._operations.values()):
            curr.cancel()
            self._operations.pop(id(curr), None)
            cancelled.append(curr)
        return cancelled

    def purge_completed(self) -> int:
        """Drops operations that were completed elsewhere; returns how many."""
        purged = 0
        operations = self._operations
        for curr in list(operations.values()):
            if curr.is_completed:
                operations.pop(id(curr), None)
                purged += 1
        if not operations:
            self._purgatory._remove_key_if_empty(self.key, self)
        return purged


class ExpiredOperationReaper(ShutdownableThread):
    """The purgatory's background thread: advances the timer (200 ms at a time), expiring due operations.

    Non-interruptible, as in Kafka: a shutdown waits for the current advance to end (at most 200 ms).
    """

    logger_name = "kafka.server.DelayedOperationPurgatory$ExpiredOperationReaper"

    def __init__(self, purgatory: DelayedOperationPurgatory[Any]) -> None:
        super().__init__(f"ExpirationReaper-{purgatory.broker_id}-{purgatory.purgatory_name}", is_interruptible=False)
        self._purgatory = purgatory

    def do_work(self) -> None:
        self._purgatory.advance_clock(200)
