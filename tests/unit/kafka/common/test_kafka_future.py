"""Tests of KafkaFuture/KafkaFutureImpl (Java's KafkaFutureTest, in substance): completion, get with and without
a timeout, dependent futures and all_of."""

from __future__ import annotations

import threading
from concurrent.futures import CancelledError

import pytest

from kafka.common.errors import TimeoutException, UnknownTopicOrPartitionException
from kafka.common.kafka_future import ExecutionException, KafkaFuture, KafkaFutureImpl


def test_complete_then_get_returns_the_value() -> None:
    """A future completed with a value returns it from get and get_now; a second completion is refused."""
    future: KafkaFutureImpl[int] = KafkaFutureImpl()
    assert not future.is_done()
    assert future.get_now(7) == 7
    assert future.complete(3)
    assert not future.complete(4)
    assert not future.complete_exceptionally(RuntimeError("late"))
    assert future.get() == 3
    assert future.get_now(7) == 3
    assert future.is_done() and not future.is_completed_exceptionally() and not future.is_cancelled()


def test_failed_future_raises_execution_exception_with_cause() -> None:
    """get of a failed future raises ExecutionException whose cause is the failure, named as Java names it."""
    future: KafkaFutureImpl[int] = KafkaFutureImpl()
    failure = UnknownTopicOrPartitionException("no such topic")
    future.complete_exceptionally(failure)
    with pytest.raises(ExecutionException) as info:
        future.get()
    assert info.value.cause is failure
    assert info.value.__cause__ is failure
    assert str(info.value) == "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: no such topic"
    assert future.is_completed_exceptionally()
    with pytest.raises(ExecutionException):
        future.get_now(0)


def test_get_with_timeout_raises_timeout_error() -> None:
    """get(timeout_ms) of a future still pending raises the built-in TimeoutError, not Kafka's TimeoutException."""
    future: KafkaFutureImpl[int] = KafkaFutureImpl()
    with pytest.raises(TimeoutError) as info:
        future.get(1)
    assert not isinstance(info.value, TimeoutException)


def test_get_wakes_when_another_thread_completes() -> None:
    """A thread blocked in get returns once another thread completes the future."""
    future: KafkaFutureImpl[str] = KafkaFutureImpl()
    results: list[str] = []
    waiter = threading.Thread(target=lambda: results.append(future.get(10_000)))
    waiter.start()
    future.complete("done")
    waiter.join(10)
    assert results == ["done"]


def test_cancel() -> None:
    """A cancelled future raises CancelledError and reports itself cancelled and completed exceptionally."""
    future: KafkaFutureImpl[int] = KafkaFutureImpl()
    assert future.cancel()
    assert future.is_cancelled() and future.is_completed_exceptionally()
    with pytest.raises(CancelledError):
        future.get()
    assert not future.complete(1)


def test_then_apply_chains_values_and_failures() -> None:
    """then_apply maps the value; a failure of the source, or of the function, fails the dependent future."""
    source: KafkaFutureImpl[int] = KafkaFutureImpl()
    doubled = source.then_apply(lambda v: v * 2)
    broken = source.then_apply(lambda v: 1 // 0)
    assert not doubled.is_done()
    source.complete(21)
    assert doubled.get() == 42
    with pytest.raises(ExecutionException) as info:
        broken.get()
    assert isinstance(info.value.cause, ZeroDivisionError)

    failed: KafkaFutureImpl[int] = KafkaFutureImpl()
    failed.complete_exceptionally(ValueError("bad"))
    applied = failed.then_apply(lambda v: v + 1)
    with pytest.raises(ExecutionException) as info2:
        applied.get()
    assert isinstance(info2.value.cause, ValueError)


def test_when_complete_sees_value_or_failure() -> None:
    """when_complete's action gets (value, None) or (None, failure); its future completes as the source did."""
    seen: list[tuple[object, object]] = []
    ok: KafkaFutureImpl[str] = KafkaFutureImpl()
    dependent = ok.when_complete(lambda v, e: seen.append((v, e)))
    ok.complete("x")
    failure = RuntimeError("boom")
    bad: KafkaFutureImpl[str] = KafkaFutureImpl()
    bad.complete_exceptionally(failure)
    bad.when_complete(lambda v, e: seen.append((v, e)))
    assert seen == [("x", None), (None, failure)]
    assert dependent.get() == "x"


def test_all_of_waits_for_all_and_fails_with_the_first_failure() -> None:
    """all_of completes when every future has; it fails with the failure of the first failed future given."""
    a: KafkaFutureImpl[int] = KafkaFutureImpl()
    b: KafkaFutureImpl[int] = KafkaFutureImpl()
    c: KafkaFutureImpl[int] = KafkaFutureImpl()
    combined = KafkaFuture.all_of(a, b, c)
    c.complete_exceptionally(KeyError("c"))
    b.complete_exceptionally(ValueError("b"))
    assert not combined.is_done()
    a.complete(1)
    with pytest.raises(ExecutionException) as info:
        combined.get()
    assert isinstance(info.value.cause, ValueError)

    ok = KafkaFuture.all_of([KafkaFuture.completed_future(1), KafkaFuture.completed_future(2)])
    assert ok.get() is None
    assert KafkaFuture.all_of().get() is None
