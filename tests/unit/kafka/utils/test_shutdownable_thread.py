"""Tests of ShutdownableThread and KafkaThread."""

from __future__ import annotations

import logging
import threading

import pytest

from kafka.common.utils.kafka_thread import KafkaThread
from kafka.utils.atomic import AtomicInteger
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.shutdownable_thread import ShutdownableThread
from tests.utils import wait_until_true


class CountingThread(ShutdownableThread):
    def __init__(self, name: str = "kafka-test-thread", fail_at: int = -1, pause_s: float = 0.001) -> None:
        super().__init__(name)
        self.iterations = AtomicInteger()
        self.fail_at = fail_at
        self.pause_s = pause_s

    def do_work(self) -> None:
        if self.iterations.increment_and_get() == self.fail_at:
            raise RuntimeError("work failed")
        self.pause(self.pause_s)


def test_runs_do_work_until_shutdown() -> None:
    """do_work runs repeatedly until shutdown, after which the thread has ended."""
    t = CountingThread()
    assert t.name == "kafka-test-thread" and not t.daemon
    t.start()
    try:
        wait_until_true(lambda: t.iterations.get() >= 5, "do_work to loop")
        assert t.is_running and not t.is_shutdown_initiated
    finally:
        t.shutdown()
    assert t.is_shutdown_initiated and t.is_shutdown_complete and not t.is_alive()  # so do_work runs no more
    assert not t.is_thread_failed


def test_pause_is_woken_by_shutdown() -> None:
    """A long pause returns as soon as shutdown is initiated: the thread stops long before the pause would end."""
    t = CountingThread(pause_s=3600)
    t.start()
    wait_until_true(lambda: t.iterations.get() == 1, "thread to pause")
    t.initiate_shutdown()
    wait_until_true(lambda: t.is_shutdown_complete, "the paused thread to stop", timeout=60)
    t.await_shutdown()
    assert not t.is_alive() and t.iterations.get() == 1


def test_initiate_shutdown_is_idempotent() -> None:
    """Only the first initiate_shutdown reports that it initiated the shutdown."""
    t = CountingThread()
    t.start()
    assert t.initiate_shutdown()
    assert not t.initiate_shutdown()
    t.await_shutdown()
    assert not t.is_alive()


def test_await_shutdown_requires_initiate() -> None:
    """await_shutdown before initiate_shutdown is an error."""
    t = CountingThread()
    with pytest.raises(RuntimeError, match="initiate_shutdown"):
        t.await_shutdown()


def test_shutdown_of_thread_never_started() -> None:
    """A thread that was never started shuts down without waiting."""
    t = CountingThread()
    t.shutdown()
    assert t.is_shutdown_initiated and not t.is_shutdown_complete


def test_error_stops_thread_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """An exception from do_work is logged as 'Error due to', the loop stops and the thread counts as failed."""
    t = CountingThread(fail_at=3)
    with caplog.at_level(logging.INFO):
        t.start()
        t.join(10)
    assert not t.is_alive()
    assert t.iterations.get() == 3
    assert t.is_thread_failed
    assert "[kafka-test-thread]: Error due to" in caplog.text
    assert "work failed" in caplog.text
    assert "[kafka-test-thread]: Stopped" in caplog.text


def test_kafka_thread_logs_uncaught_exception(caplog: pytest.LogCaptureFixture) -> None:
    """KafkaThread keeps its name and daemon flag and logs what its target raises."""
    ran = CountDownLatch(1)

    def target() -> None:
        ran.count_down()
        raise ValueError("escaped")

    t = KafkaThread("kafka-uncaught", target, daemon=True)
    assert t.daemon and t.name == "kafka-uncaught"
    with caplog.at_level(logging.ERROR):
        t.start()
        t.join(10)
    assert ran.get_count() == 0
    assert "Uncaught exception in thread 'kafka-uncaught':" in caplog.text
    assert "escaped" in caplog.text
    assert not KafkaThread.non_daemon("kafka-x", lambda: None).daemon
    assert KafkaThread.daemon_thread("kafka-y", lambda: None).daemon


def test_non_interruptible_thread_finishes_its_iteration() -> None:
    """A non-interruptible thread completes the do_work in progress before stopping."""
    entered, release = threading.Event(), threading.Event()
    finished = AtomicInteger()

    class Worker(ShutdownableThread):
        def do_work(self) -> None:
            entered.set()
            release.wait(10)
            finished.increment_and_get()

    w = Worker("kafka-non-interruptible", is_interruptible=False)
    w.start()
    assert entered.wait(10)
    assert w.initiate_shutdown()
    release.set()
    w.await_shutdown()
    assert finished.get() == 1 and not w.is_alive()
