"""Tests of DelayedOperation and DelayedOperationPurgatory, after Kafka's DelayedOperationTest."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.server.broker_states import BrokerState
from kafka.server.delayed_operation import DelayedOperation, DelayedOperationPurgatory
from kafka.server.delayed_operation_key import (
    GroupJoinKey,
    GroupSyncKey,
    MemberKey,
    TopicKey,
    TopicPartitionOperationKey,
)
from kafka.utils.atomic import AtomicInteger
from kafka.utils.timer.timer import SystemTimer


class MockDelayedOperation(DelayedOperation):
    """Completes once `completable` is set; records completion and expiry."""

    def __init__(self, delay_ms: int, lock_opt: Any = None) -> None:
        super().__init__(delay_ms, lock_opt)
        self.completable = False
        self.completions = AtomicInteger()
        self.expired = threading.Event()
        self.lock_held_in_try_complete: list[bool] = []

    def try_complete(self) -> bool:
        self.lock_held_in_try_complete.append(_held_by_me(self.lock))
        return self.force_complete() if self.completable else False

    def on_expiration(self) -> None:
        self.expired.set()

    def on_complete(self) -> None:
        self.completions.increment_and_get()


def _held_by_me(lock: Any) -> bool:
    """True if the calling thread holds `lock` (another thread cannot take it, while this one can re-enter)."""
    taken: list[bool] = []
    t = threading.Thread(target=lambda: taken.append(lock.acquire(blocking=False) and (lock.release() or True)))
    t.start()
    t.join(10)
    return taken == [False] and lock.acquire(blocking=False) and (lock.release() or True)


@pytest.fixture
def purgatory() -> Iterator[DelayedOperationPurgatory[MockDelayedOperation]]:
    p: DelayedOperationPurgatory[MockDelayedOperation] = DelayedOperationPurgatory("mock")
    try:
        yield p
    finally:
        p.shutdown()


def test_reaper_thread_name(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """The purgatory's reaper runs as the non-daemon thread ExpirationReaper-{brokerId}-{name}."""
    reapers = [t for t in threading.enumerate() if t.name == "ExpirationReaper-0-mock"]
    assert len(reapers) == 1 and not reapers[0].daemon


def test_lock_held_in_try_complete_else_watch(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """try_complete_else_watch checks the operation under its lock, twice (before and after watching)."""
    op = MockDelayedOperation(100_000)
    assert not purgatory.try_complete_else_watch(op, ["key"])
    assert op.lock_held_in_try_complete == [True, True]


def test_watch_then_check_once_when_the_caller_checked_already(
    purgatory: DelayedOperationPurgatory[MockDelayedOperation],
) -> None:
    """check_first=False (a fetch whose read came short): watched first, then checked once under the lock; an
    operation that can complete by then completes in that call, one that cannot completes on its key's event."""
    pending = MockDelayedOperation(100_000)
    assert not purgatory.try_complete_else_watch(pending, ["key"], check_first=False)
    assert pending.lock_held_in_try_complete == [True]
    assert purgatory.watched == 1 and purgatory.num_delayed == 1
    pending.completable = True
    assert purgatory.check_and_complete("key") == 1 and pending.completions.get() == 1
    assert purgatory.num_delayed == 0

    ready = MockDelayedOperation(100_000)
    ready.completable = True
    assert purgatory.try_complete_else_watch(ready, ["other"], check_first=False)
    assert ready.completions.get() == 1 and ready.lock_held_in_try_complete == [True]
    assert purgatory.num_delayed == 0  # never armed in the timer
    assert purgatory.check_and_complete("other") == 0  # the completed operation leaves the key's list


def test_safe_try_complete_or_else() -> None:
    """safe_try_complete_or_else runs its function only when the first check fails, then checks again."""
    pending, ready = MockDelayedOperation(100_000), MockDelayedOperation(100_000)
    ready.completable = True
    ran: list[str] = []
    assert not pending.safe_try_complete_or_else(lambda: ran.append("pending"))
    assert ready.safe_try_complete_or_else(lambda: ran.append("ready"))
    assert ran == ["pending"]

    late = MockDelayedOperation(100_000)
    assert late.safe_try_complete_or_else(lambda: setattr(late, "completable", True))  # the re-check sees it


def test_request_satisfaction(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """An operation completes on a check of its own key once it can, exactly once."""
    r1, r2 = MockDelayedOperation(100_000), MockDelayedOperation(100_000)
    assert purgatory.check_and_complete("test1") == 0
    assert not purgatory.try_complete_else_watch(r1, ["test1"])
    assert purgatory.check_and_complete("test1") == 0
    assert not purgatory.try_complete_else_watch(r2, ["test2"])
    assert purgatory.check_and_complete("test2") == 0
    r1.completable = True
    assert purgatory.check_and_complete("test2") == 0  # another key's check leaves r1 alone
    assert purgatory.check_and_complete("test1") == 1
    assert purgatory.check_and_complete("test1") == 0
    r2.completable = True
    assert purgatory.check_and_complete("test2") == 1
    assert purgatory.check_and_complete("test2") == 0
    assert r1.completions.get() == 1 and r2.completions.get() == 1
    assert purgatory.num_delayed == 0 and purgatory.watched == 0


def test_completable_operation_is_not_watched(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """An operation that can complete at once completes in try_complete_else_watch and is neither watched nor timed."""
    op = MockDelayedOperation(100_000)
    op.completable = True
    assert purgatory.try_complete_else_watch(op, ["k"])
    assert op.is_completed and purgatory.watched == 0 and purgatory.num_delayed == 0


def test_request_expiry(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """The reaper expires an operation after its delay and not before; a longer one stays pending."""
    # Measured on the clock the timer computes deadlines with (whole ms, like Kafka's hiResClockMs): a finer
    # clock could see the expiry up to 1 ms before the delay, since the deadline is truncated to the ms.
    timer = purgatory.timeout_timer
    assert isinstance(timer, SystemTimer)
    clock = timer.time
    start = clock.hi_res_clock_ms()
    r1, r2 = MockDelayedOperation(20), MockDelayedOperation(200_000)
    assert not purgatory.try_complete_else_watch(r1, ["test1"])
    assert not purgatory.try_complete_else_watch(r2, ["test2"])
    assert r1.expired.wait(10)
    elapsed_ms = clock.hi_res_clock_ms() - start
    assert r1.is_completed and r1.completions.get() == 1
    assert not r2.is_completed
    assert elapsed_ms >= 20


def test_expiry_on_mock_clock() -> None:
    """With a mock clock and no reaper, an operation expires exactly when advance_clock passes its delay."""
    mock_time = MockTime(start_ms=0, start_ns=0)
    p: DelayedOperationPurgatory[MockDelayedOperation] = DelayedOperationPurgatory(
        "mock-clock", SystemTimer("mock-clock", time=mock_time), reaper_enabled=False
    )
    try:
        op = MockDelayedOperation(100)
        assert not p.try_complete_else_watch(op, ["k"])
        mock_time.sleep(99)
        p.advance_clock(0)
        assert not op.is_completed
        mock_time.sleep(1)
        p.advance_clock(0)
        assert op.expired.wait(10) and op.completions.get() == 1
        assert p.num_delayed == 0
        assert p.check_and_complete("k") == 0 and p.watched == 0  # the completed operation left the list
    finally:
        p.shutdown()
        timer = p.timeout_timer
        assert isinstance(timer, SystemTimer) and timer.await_shutdown(10)


def test_request_purge(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """Operations completed outside the purgatory leave the timer at once and each key's list on its next check."""
    r1, r2, r3 = (MockDelayedOperation(100_000) for _ in range(3))
    purgatory.try_complete_else_watch(r1, ["test1"])
    purgatory.try_complete_else_watch(r2, ["test1", "test2"])
    purgatory.try_complete_else_watch(r3, ["test1", "test2", "test3"])
    assert purgatory.num_delayed == 3 and purgatory.watched == 6
    r2.completable = True
    r2.try_complete()
    assert purgatory.num_delayed == 2
    r3.completable = True
    r3.try_complete()
    assert purgatory.num_delayed == 1
    purgatory.check_and_complete("test1")
    assert purgatory.watched == 4
    purgatory.check_and_complete("test2")
    assert purgatory.watched == 2
    purgatory.check_and_complete("test3")
    assert purgatory.watched == 1


def test_periodic_purge_of_completed_operations() -> None:
    """Once more than purge_interval completed operations linger, advance_clock purges every watcher list."""
    p: DelayedOperationPurgatory[MockDelayedOperation] = DelayedOperationPurgatory(
        "purge", purge_interval=10, reaper_enabled=False
    )
    try:
        ops = [MockDelayedOperation(100_000) for _ in range(30)]
        for i, op in enumerate(ops):
            assert not p.try_complete_else_watch(op, [f"key-{i}", "shared"])
        for op in ops[:25]:
            op.completable = True
            assert op.try_complete()  # completed elsewhere: still in the watcher lists
        assert p.watched == 60 and p.num_delayed == 5
        p.advance_clock(0)
        assert p.watched == 10  # 5 pending operations on 2 keys each
        assert p.check_and_complete("shared") == 0
    finally:
        p.shutdown()


def test_cancel_for_key(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """cancel_for_key returns the key's operations, which leave watching and the timer without completing."""
    ops = [MockDelayedOperation(10_000) for _ in range(3)]
    purgatory.try_complete_else_watch(ops[0], ["key"])
    purgatory.try_complete_else_watch(ops[1], ["key"])
    purgatory.try_complete_else_watch(ops[2], ["key2"])
    cancelled = purgatory.cancel_for_key("key")
    assert cancelled == ops[:2]
    assert purgatory.num_delayed == 1 and purgatory.watched == 1
    assert not any(op.is_completed for op in ops)
    assert purgatory.cancel_for_key("missing") == []


def test_check_and_complete_across_keys(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """An operation watched on several partition keys is completed by a check of any of them, once."""
    tp = [TopicPartitionOperationKey.of(TopicPartition("t", i)) for i in range(3)]
    op = MockDelayedOperation(100_000)
    assert not purgatory.try_complete_else_watch(op, tp)
    op.completable = True
    assert purgatory.check_and_complete(TopicPartitionOperationKey("t", 1)) == 1
    assert purgatory.check_and_complete(tp[0]) == 0 and purgatory.check_and_complete(tp[2]) == 0
    assert op.completions.get() == 1 and purgatory.watched == 0


def test_try_complete_with_multiple_threads(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """Concurrent checks from many threads complete every operation exactly once."""
    attempts = 10
    rng = random.Random(7)

    class SlowOperation(MockDelayedOperation):
        def __init__(self, index: int) -> None:
            super().__init__(10_000)
            self.key = f"key{index}"
            self.attempts_left = AtomicInteger(attempts)

        def try_complete(self) -> bool:
            should = self.completable
            time.sleep(rng.random() / 1000)
            return self.force_complete() if should else False

    ops = [SlowOperation(i) for i in range(50)]
    for op in ops:
        purgatory.try_complete_else_watch(op, [op.key])
    jobs = [op for op in ops for _ in range(attempts)]
    rng.shuffle(jobs)
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                if not jobs:
                    return
                op = jobs.pop()
            if op.attempts_left.decrement_and_get() == 0:
                op.completable = True
            purgatory.check_and_complete(op.key)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(op.is_completed and op.completions.get() == 1 for op in ops)


def test_shared_lock(purgatory: DelayedOperationPurgatory[MockDelayedOperation]) -> None:
    """Operations sharing one lock complete under it: re-entrantly for its holder, and only after another holder
    lets go."""
    shared = threading.RLock()
    ops = [MockDelayedOperation(100_000, lock_opt=shared) for _ in range(2)]
    for op in ops:
        purgatory.try_complete_else_watch(op, ["key"])
    assert all(op.lock is shared for op in ops)
    for op in ops:
        op.completable = True
    with shared:
        assert purgatory.check_and_complete("key") == 2  # the caller holds the lock: re-entry, no deadlock

    ops = [MockDelayedOperation(100_000, lock_opt=shared) for _ in range(2)]
    for op in ops:
        purgatory.try_complete_else_watch(op, ["key"])
        op.completable = True
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with shared:
            holding.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(10)
    result: list[int] = []
    checker = threading.Thread(target=lambda: result.append(purgatory.check_and_complete("key")))
    checker.start()
    try:
        checker.join(0.1)
        assert checker.is_alive() and not any(op.is_completed for op in ops)
    finally:
        release.set()
        holder.join(10)
        checker.join(10)
    assert result == [2] and all(op.is_completed for op in ops)


def test_operation_keys_and_broker_states() -> None:
    """Keys label themselves as Kafka's do, compare by value, and broker states carry Kafka's values."""
    assert TopicPartitionOperationKey("topic", 3).key_label == "topic-3"
    assert TopicPartitionOperationKey.of(TopicPartition("topic", 3)) == TopicPartitionOperationKey("topic", 3)
    assert MemberKey("g", "c-1").key_label == "g-c-1"
    assert (
        GroupJoinKey("g").key_label == "join-g"
        and GroupSyncKey("g").key_label == "sync-g"
        and TopicKey("t").key_label == "t"
    )
    assert len({GroupJoinKey("g"), GroupJoinKey("g"), GroupSyncKey("g")}) == 2
    values = {s.name: s.value for s in BrokerState}
    assert values == {
        "NOT_RUNNING": 0,
        "STARTING": 1,
        "RECOVERY": 2,
        "RUNNING": 3,
        "PENDING_CONTROLLED_SHUTDOWN": 6,
        "SHUTTING_DOWN": 7,
        "UNKNOWN": 127,
    }
    # Typed as the enum: mypy takes an alias for a member of its own, never the same as RUNNING.
    running_as_broker: BrokerState = BrokerState.RUNNING_AS_BROKER
    assert running_as_broker is BrokerState.RUNNING
    assert BrokerState.from_value(6) is BrokerState.PENDING_CONTROLLED_SHUTDOWN
    assert BrokerState.from_value(42) is BrokerState.UNKNOWN


def _gauge(mbean_name: str) -> Any:
    from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics

    for name, metric in KafkaYammerMetrics.default_registry().all_metrics().items():
        if name.mbean_name == mbean_name:
            return metric.value()  # type: ignore[union-attr]
    return None


def test_purgatory_gauges_count_watched_and_delayed_operations() -> None:
    """PurgatorySize and NumDelayedOperations (tagged with the purgatory's name) follow the waiting operations and
    are removed at shutdown."""
    p: DelayedOperationPurgatory[MockDelayedOperation] = DelayedOperationPurgatory("MeteredOp")
    size = "kafka.server:type=DelayedOperationPurgatory,name=PurgatorySize,delayedOperation=MeteredOp"
    delayed = "kafka.server:type=DelayedOperationPurgatory,name=NumDelayedOperations,delayedOperation=MeteredOp"
    try:
        assert (_gauge(size), _gauge(delayed)) == (0, 0)
        op = MockDelayedOperation(100_000)
        assert not p.try_complete_else_watch(op, ["k1", "k2"])
        assert (_gauge(size), _gauge(delayed)) == (2, 1)
        op.completable = True
        assert p.check_and_complete("k1") == 1
        assert _gauge(delayed) == 0
    finally:
        p.shutdown()
    assert (_gauge(size), _gauge(delayed)) == (None, None)


def test_expiration_meters_of_the_delayed_requests() -> None:
    """DelayedProduceMetrics, DelayedFetchMetrics and DelayedDeleteRecordsMetrics count expirations under Kafka's
    MBean names (all partitions and per partition; per fetcher type)."""
    from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
    from kafka.server.delayed_delete_records import DelayedDeleteRecordsMetrics
    from kafka.server.delayed_fetch import DelayedFetchMetrics
    from kafka.server.delayed_produce import DelayedProduceMetrics

    def count(mbean_name: str) -> int:
        for name, metric in KafkaYammerMetrics.default_registry().all_metrics().items():
            if name.mbean_name == mbean_name:
                return int(metric.count)  # type: ignore[union-attr]
        return 0

    produce_all = "kafka.server:type=DelayedProduceMetrics,name=ExpiresPerSec"
    produce_tp = "kafka.server:type=DelayedProduceMetrics,name=ExpiresPerSec,topic=exp,partition=1"
    follower = "kafka.server:type=DelayedFetchMetrics,name=ExpiresPerSec,fetcherType=follower"
    consumer = "kafka.server:type=DelayedFetchMetrics,name=ExpiresPerSec,fetcherType=consumer"
    delete = "kafka.server:type=DelayedDeleteRecordsMetrics,name=ExpiresPerSec"
    before = {n: count(n) for n in (produce_all, produce_tp, follower, consumer, delete)}
    DelayedProduceMetrics.record_expiration(TopicPartition("exp", 1))
    DelayedProduceMetrics.record_expiration(TopicPartition("exp", 2))
    DelayedFetchMetrics.meter(True).mark()
    DelayedDeleteRecordsMetrics.record_expiration()
    after = {n: count(n) - before[n] for n in before}
    assert after == {produce_all: 2, produce_tp: 1, follower: 1, consumer: 0, delete: 1}
