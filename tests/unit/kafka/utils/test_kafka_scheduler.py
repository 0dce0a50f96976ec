"""Tests of KafkaScheduler and MockScheduler, after Kafka's SchedulerTest."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest

from kafka.common.utils.time import MockTime
from kafka.utils.atomic import AtomicInteger
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.kafka_scheduler import CancellationError, KafkaScheduler
from kafka.utils.mock_scheduler import MockScheduler
from tests.utils import wait_until_true


@pytest.fixture
def scheduler() -> Iterator[KafkaScheduler]:
    s = KafkaScheduler(1)
    s.startup()
    try:
        yield s
    finally:
        s.shutdown()


@pytest.fixture
def mock_time() -> MockTime:
    return MockTime(start_ms=1_000_000, start_ns=0)


@pytest.fixture
def mock_scheduler(mock_time: MockTime) -> MockScheduler:
    return MockScheduler(mock_time)


def test_mock_scheduler_non_periodic_task(mock_time: MockTime, mock_scheduler: MockScheduler) -> None:
    """One-off tasks run once, when the mock clock reaches their delay."""
    c1, c2 = AtomicInteger(), AtomicInteger()
    mock_scheduler.schedule("test1", c1.get_and_increment, delay_ms=1)
    mock_scheduler.schedule("test2", c2.get_and_increment, delay_ms=100)
    assert (c1.get(), c2.get()) == (0, 0)
    mock_time.sleep(1)
    assert (c1.get(), c2.get()) == (1, 0)
    mock_time.sleep(100_000)
    assert (c1.get(), c2.get()) == (1, 1)


def test_mock_scheduler_periodic_task(mock_time: MockTime, mock_scheduler: MockScheduler) -> None:
    """A periodic task runs once per period the mock clock passes."""
    c1, c2 = AtomicInteger(), AtomicInteger()
    mock_scheduler.schedule("test1", c1.get_and_increment, delay_ms=1, period_ms=1)
    mock_scheduler.schedule("test2", c2.get_and_increment, delay_ms=100, period_ms=100)
    mock_time.sleep(1)
    assert (c1.get(), c2.get()) == (1, 0)
    mock_time.sleep(100)
    assert (c1.get(), c2.get()) == (101, 1)


def test_reentrant_task_in_mock_scheduler(mock_time: MockTime, mock_scheduler: MockScheduler) -> None:
    """A task may schedule another task, which runs in the same tick when due."""
    c = AtomicInteger()
    mock_scheduler.schedule("test1", lambda: mock_scheduler.schedule("test2", c.get_and_increment, delay_ms=0), 1)
    mock_time.sleep(1)
    assert c.get() == 1


def test_mock_scheduler_restart(mock_time: MockTime, mock_scheduler: MockScheduler) -> None:
    """A MockScheduler keeps working after shutdown() and startup()."""
    c = AtomicInteger()
    mock_scheduler.schedule("test1", c.get_and_increment, delay_ms=1)
    mock_time.sleep(1)
    assert c.get() == 1
    mock_scheduler.shutdown()
    mock_scheduler.startup()
    mock_scheduler.schedule("test1", c.get_and_increment, delay_ms=1)
    mock_time.sleep(1)
    assert c.get() == 2


def test_mock_scheduler_cancel(mock_time: MockTime, mock_scheduler: MockScheduler) -> None:
    """A cancelled mock task does not run again, and shutdown() runs pending tasks once."""
    c, d = AtomicInteger(), AtomicInteger()
    periodic = mock_scheduler.schedule("p", c.get_and_increment, delay_ms=10, period_ms=10)
    mock_scheduler.schedule("later", d.get_and_increment, delay_ms=1000)
    mock_time.sleep(20)
    assert c.get() == 2
    assert periodic.cancel()
    assert periodic.is_cancelled() and not periodic.cancel()
    mock_time.sleep(100)
    assert c.get() == 2
    with pytest.raises(CancellationError):
        periodic.get()
    mock_scheduler.shutdown()
    assert d.get() == 1 and mock_scheduler.size == 0


def test_mock_scheduler_does_not_hold_its_lock_while_running(mock_time: MockTime) -> None:
    """A task that blocks while ticking does not stop another thread from scheduling."""
    scheduler = MockScheduler(mock_time)
    started, release, done = CountDownLatch(1), CountDownLatch(1), CountDownLatch(2)

    def blocking_task() -> None:
        started.count_down()
        assert release.await_(10)
        done.count_down()

    scheduler.schedule("test1", blocking_task, delay_ms=1)
    ticker = threading.Thread(target=lambda: mock_time.sleep(1))
    ticker.start()
    try:
        assert started.await_(10)
        scheduler.schedule("test2", done.count_down, delay_ms=0)  # would deadlock if the lock were held
        release.count_down()
        assert done.await_(10)
    finally:
        release.count_down()
        ticker.join(10)


def test_non_periodic_task(scheduler: KafkaScheduler) -> None:
    """A one-off task runs exactly once on a scheduler thread, and its future completes."""
    c = AtomicInteger()
    future = scheduler.schedule("test", c.get_and_increment, delay_ms=0)
    future.get(10)
    assert future.is_done() and not future.is_cancelled()
    assert c.get() == 1
    assert not future.cancel()


def test_periodic_task(scheduler: KafkaScheduler) -> None:
    """A periodic task keeps running at its period."""
    c = AtomicInteger()
    scheduler.schedule("test", c.get_and_increment, delay_ms=0, period_ms=5)
    wait_until_true(lambda: c.get() >= 20, "periodic task to run 20 times", timeout=30)


def test_thread_names_and_daemon_flag() -> None:
    """Threads are named kafka-scheduler-N, with the daemon flag given, and end at shutdown."""
    scheduler = KafkaScheduler(2, daemon=True)
    scheduler.startup()
    try:
        latch = CountDownLatch(2)
        seen: list[threading.Thread] = []
        gate = CountDownLatch(1)

        def task() -> None:
            seen.append(threading.current_thread())
            latch.count_down()
            gate.await_(10)

        scheduler.schedule_once("a", task)
        scheduler.schedule_once("b", task)
        assert latch.await_(10)
        gate.count_down()
        assert sorted(t.name for t in seen) == ["kafka-scheduler-0", "kafka-scheduler-1"]
        assert all(t.daemon for t in seen)
    finally:
        scheduler.shutdown()
    assert not any(t.is_alive() for t in seen)


def test_exception_is_logged_and_periodic_task_continues(
    scheduler: KafkaScheduler, caplog: pytest.LogCaptureFixture
) -> None:
    """A task that raises is logged under Kafka's message and keeps its schedule."""
    runs = AtomicInteger()

    def failing() -> None:
        runs.increment_and_get()
        raise ValueError("boom")

    with caplog.at_level(logging.ERROR, logger="kafka.utils.KafkaScheduler"):
        scheduler.schedule("failing-task", failing, delay_ms=0, period_ms=5)
        wait_until_true(lambda: runs.get() >= 3, "failing task to run again", timeout=10)
    assert "Uncaught exception in scheduled task 'failing-task'" in caplog.text
    assert "boom" in caplog.text


def test_cancel_stops_periodic_task(scheduler: KafkaScheduler) -> None:
    """Cancelling a periodic task takes it out of the queue and stops its runs."""
    c = AtomicInteger()
    future = scheduler.schedule("p", c.get_and_increment, delay_ms=0, period_ms=5)
    wait_until_true(lambda: c.get() >= 2, "task to run")
    assert scheduler.task_running(future)
    assert future.cancel()
    wait_until_true(lambda: not scheduler.task_running(future), "task to leave the queue")
    settled = c.get()
    done = scheduler.schedule("marker", lambda: None, delay_ms=30)
    done.get(10)
    assert c.get() <= settled + 1  # at most the run in progress at cancel time


def test_shutdown_waits_for_running_task_and_drops_delayed(scheduler: KafkaScheduler) -> None:
    """Shutdown lets a running task finish and drops tasks that have not started."""
    started, release = CountDownLatch(1), CountDownLatch(1)
    finished = AtomicInteger()
    delayed_runs = AtomicInteger()

    def long_task() -> None:
        started.count_down()
        release.await_(10)
        finished.increment_and_get()

    scheduler.schedule_once("long", long_task)
    delayed = scheduler.schedule("delayed", delayed_runs.get_and_increment, delay_ms=60_000)
    assert started.await_(10)
    stopper = threading.Thread(target=scheduler.shutdown)
    stopper.start()
    try:
        stopper.join(0.1)
        assert stopper.is_alive(), "shutdown should wait for the running task"
    finally:
        release.count_down()
        stopper.join(10)
    assert finished.get() == 1
    assert delayed.is_cancelled() and delayed_runs.get() == 0
    assert not scheduler.is_started
    with pytest.raises(RuntimeError, match="not running"):
        scheduler.schedule("late", lambda: None)


def test_startup_twice_fails(scheduler: KafkaScheduler) -> None:
    """Starting a started scheduler is an error, as in Kafka."""
    with pytest.raises(RuntimeError, match="already been started"):
        scheduler.startup()


def test_resize_thread_pool(scheduler: KafkaScheduler) -> None:
    """After growing the pool from one thread to two, two tasks run at the same time."""
    both_running = CountDownLatch(2)
    release = CountDownLatch(1)

    def task() -> None:
        both_running.count_down()
        release.await_(10)

    scheduler.resize_thread_pool(2)
    scheduler.schedule_once("a", task)
    scheduler.schedule_once("b", task)
    try:
        assert both_running.await_(10)
    finally:
        release.count_down()


def test_delay_is_respected(scheduler: KafkaScheduler) -> None:
    """A delayed task has not run before its delay and runs after it."""
    c = AtomicInteger()
    future = scheduler.schedule("delayed", c.get_and_increment, delay_ms=300)
    assert c.get() == 0 and future.get_delay_ms() > 0
    future.get(10)
    assert c.get() == 1
