"""Tests of the java.util.concurrent stand-ins: CountDownLatch, the atomics and ReentrantReadWriteLock."""

from __future__ import annotations

import threading
import time

import pytest

from kafka.utils.atomic import AtomicBoolean, AtomicInteger, AtomicLong, AtomicReference
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.read_write_lock import ReentrantReadWriteLock
from tests.utils import wait_until_true


def _start(fn: object) -> threading.Thread:
    t = threading.Thread(target=fn)  # type: ignore[arg-type]
    t.start()
    return t


def test_count_down_latch() -> None:
    """A latch opens after `count` count-downs, times out before, and releases waiters in other threads."""
    latch = CountDownLatch(2)
    assert not latch.await_(0.01)
    latch.count_down()
    assert latch.get_count() == 1 and not latch.await_(0)
    opened: list[bool] = []
    waiter = _start(lambda: opened.append(latch.await_(10)))
    latch.count_down()
    waiter.join(10)
    assert opened == [True] and latch.count == 0
    latch.count_down()
    assert latch.get_count() == 0 and latch.await_()
    with pytest.raises(ValueError):
        CountDownLatch(-1)


def test_atomic_numbers() -> None:
    """Atomic counters count exactly under contention, and AtomicInteger wraps at 32 bits as Java's int."""
    counter = AtomicLong()
    threads = [_start(lambda: [counter.increment_and_get() for _ in range(2000)]) for _ in range(4)]
    for t in threads:
        t.join(10)
    assert counter.get() == 8000
    assert counter.get_and_increment() == 8000 and counter.get() == 8001
    assert counter.add_and_get(-1) == 8000 and counter.decrement_and_get() == 7999
    assert counter.compare_and_set(7999, 5) and not counter.compare_and_set(7999, 6) and counter.get() == 5
    i = AtomicInteger(2**31 - 1)
    assert i.increment_and_get() == -(2**31)
    assert i.decrement_and_get() == 2**31 - 1
    assert i.get_and_increment() == 2**31 - 1 and i.get() == -(2**31)
    assert i.get_and_decrement() == -(2**31) and i.get() == 2**31 - 1
    assert i.add_and_get(3) == -(2**31) + 2 and i.get_and_add(-3) == -(2**31) + 2 and i.get() == 2**31 - 1
    assert AtomicLong(2**31 - 1).increment_and_get() == 2**31
    assert AtomicLong(-(2**31)).decrement_and_get() == -(2**31) - 1
    shared = AtomicInteger()
    threads = [_start(lambda: [(shared.increment_and_get(), shared.get_and_decrement()) for _ in range(2000)])]
    threads += [_start(lambda: [shared.get_and_increment() for _ in range(2000)]) for _ in range(2)]
    for t in threads:
        t.join(10)
    assert shared.get() == 4000


def test_atomic_boolean_and_reference() -> None:
    """compare_and_set compares booleans by value and references by identity."""
    flag = AtomicBoolean()
    assert flag.compare_and_set(False, True) and not flag.compare_and_set(False, True) and flag.get()
    a, b = [1], [1]
    ref = AtomicReference(a)
    assert not ref.compare_and_set(b, [2])  # equal but not the same object
    assert ref.compare_and_set(a, b) and ref.get() is b
    assert ref.get_and_set(a) is b
    assert ref.update_and_get(lambda v: [*v, 2]) == [1, 2]


def test_read_lock_is_shared_and_write_lock_exclusive() -> None:
    """Readers hold the lock together; a writer waits for them and excludes readers while it writes."""
    rw = ReentrantReadWriteLock()
    inside = threading.Barrier(2)
    writer_done = threading.Event()

    def reader() -> None:
        with rw.read():
            inside.wait(10)  # both readers inside at once

    readers = [_start(reader) for _ in range(2)]
    for t in readers:
        t.join(10)
    assert rw.get_read_lock_count() == 0

    rw.read_lock.acquire()

    def writer() -> None:
        with rw.write():
            writer_done.set()

    w = _start(writer)
    assert not writer_done.wait(0.05), "writer must wait for the reader"
    rw.read_lock.release()
    w.join(10)
    assert writer_done.is_set() and not rw.is_write_locked()


def test_waiting_writer_holds_back_new_readers() -> None:
    """Once a writer waits, a new reader queues behind it (writer preference)."""
    rw = ReentrantReadWriteLock()
    order: list[str] = []
    rw.read_lock.acquire()

    def write() -> None:
        with rw.write():
            order.append("writer")

    def read() -> None:
        with rw.read():
            order.append("reader")

    w = _start(write)
    wait_until_true(lambda: rw._waiting_writers > 0, "the writer to wait for the reader", pause=0.001)
    r = _start(read)
    time.sleep(0.05)
    assert order == []  # the new reader did not overtake the waiting writer
    assert rw.read_lock.acquire(blocking=False)  # a reader already inside may re-enter despite the waiting writer
    rw.read_lock.release()
    rw.read_lock.release()
    w.join(10)
    r.join(10)
    assert order == ["writer", "reader"]


def test_reentrancy_downgrade_and_misuse() -> None:
    """Both locks are reentrant, a writer may read, upgrading and foreign releases raise, and timeouts expire."""
    rw = ReentrantReadWriteLock()
    with rw.write(), rw.write(), rw.read():
        assert rw.is_write_locked_by_current_thread() and rw.get_read_hold_count() == 1
    assert not rw.is_write_locked()
    with rw.read(), rw.read():
        assert rw.get_read_hold_count() == 2
        with pytest.raises(RuntimeError, match="upgrade"):
            rw.write_lock.acquire()
        result: list[bool] = []
        t = _start(lambda: result.append(rw.write_lock.acquire(timeout=0.02)))
        t.join(10)
        assert result == [False]
    with pytest.raises(RuntimeError):
        rw.read_lock.release()
    with pytest.raises(RuntimeError):
        rw.write_lock.release()
