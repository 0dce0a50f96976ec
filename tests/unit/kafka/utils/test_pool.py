"""Tests of Pool, after Kafka's PoolTest."""

from __future__ import annotations

import threading

import pytest

from kafka.common.errors import KafkaException
from kafka.utils.atomic import AtomicInteger
from kafka.utils.pool import Pool


def test_get_and_maybe_put_creates_once_under_contention() -> None:
    """Racing threads on one missing key all get the same value, created exactly once."""
    created = AtomicInteger()
    pool: Pool[str, object] = Pool()
    barrier = threading.Barrier(8)
    results: list[object] = []

    def create() -> object:
        created.increment_and_get()
        return object()

    def worker() -> None:
        barrier.wait(10)
        results.append(pool.get_and_maybe_put("key", create))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert created.get() == 1
    assert len(results) == 8 and all(r is results[0] for r in results)


def test_value_factory() -> None:
    """Without a create function the pool's factory makes the value; with neither, a KafkaException."""
    pool: Pool[int, str] = Pool(lambda k: f"v{k}")
    assert pool.get_and_maybe_put(1) == "v1"
    assert pool.get(1) == "v1" and pool.contains(1) and 1 in pool
    with pytest.raises(KafkaException, match=r"Empty value factory in pool\."):
        Pool[int, str]().get_and_maybe_put(1)


def test_put_remove_and_views() -> None:
    """put, put_if_not_exists, both forms of remove, remove_all and the views behave as a ConcurrentHashMap's."""
    pool: Pool[str, int] = Pool()
    assert pool.put("a", 1) is None and pool.put("a", 2) == 1
    assert pool.put_if_not_exists("a", 3) == 2 and pool.get("a") == 2
    assert pool.put_if_not_exists("b", 4) is None
    pool.put_all({"c": 5, "d": 6})
    assert pool.size == 4 and len(pool) == 4
    assert pool.keys == {"a", "b", "c", "d"} and sorted(pool.values) == [2, 4, 5, 6]
    assert pool.remove("c", 99) is False and pool.remove("c", 5) is True
    assert pool.remove("d") == 6 and pool.remove("d") is None
    pool.remove_all(["a", "zzz"])
    assert dict(pool.items()) == {"b": 4}
    pool.clear()
    assert pool.size == 0 and pool.get("b") is None


def test_iteration_tolerates_concurrent_updates() -> None:
    """Iterating while the pool changes works on a snapshot instead of failing."""
    pool: Pool[int, int] = Pool()
    pool.put_all({i: i for i in range(100)})
    seen = []
    for k, v in pool:
        pool.remove(k)
        pool.put(1000 + k, v)
        seen.append(k)
    assert seen == list(range(100)) and pool.size == 100


def test_foreach_while_stops_when_told() -> None:
    """foreach_while stops at the first entry for which the function returns False."""
    pool: Pool[int, int] = Pool()
    pool.put_all({1: 1, 2: 2, 3: 3})
    visited: list[int] = []

    def visit(k: int, v: int) -> bool:
        visited.append(k)
        return k < 2

    pool.foreach_while(visit)
    assert visited == [1, 2]
    entries: list[tuple[int, int]] = []
    pool.foreach_entry(lambda k, v: entries.append((k, v)))
    assert entries == [(1, 1), (2, 2), (3, 3)]
