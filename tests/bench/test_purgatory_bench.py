"""Benchmark of the purgatory's hot path: one operation watched (try_complete_else_watch, which also arms its
timeout in the timing wheel), then completed by an event on its key (check_and_complete, which also takes it out of
the wheel), with 100 or 10,000 other operations pending. Equal figures for both sizes show that the per-operation
cost does not grow with the number of pending operations.

Run with `pytest tests/bench/test_purgatory_bench.py --benchmark-enable`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kafka.server.delayed_operation import DelayedOperation, DelayedOperationPurgatory
from kafka.server.delayed_operation_key import TopicPartitionOperationKey


class BenchOperation(DelayedOperation):
    __slots__ = ("completable",)

    def __init__(self, delay_ms: int) -> None:
        super().__init__(delay_ms)
        self.completable = False

    def try_complete(self) -> bool:
        return self.force_complete() if self.completable else False

    def on_expiration(self) -> None:
        pass

    def on_complete(self) -> None:
        pass


@pytest.fixture(params=[100, 10_000], ids=["pending-100", "pending-10k"])
def loaded_purgatory(request: pytest.FixtureRequest) -> Iterator[tuple[DelayedOperationPurgatory[BenchOperation], int]]:
    """A purgatory (real timing wheel, no reaper) holding `param` pending operations over 1,000 partition keys."""
    pending: int = request.param
    purgatory: DelayedOperationPurgatory[BenchOperation] = DelayedOperationPurgatory("bench", reaper_enabled=False)
    for i in range(pending):
        op = BenchOperation(300_000)
        assert not purgatory.try_complete_else_watch(op, [TopicPartitionOperationKey("pending", i % 1000)])
    try:
        yield purgatory, pending
    finally:
        purgatory.shutdown()


def test_watch_then_complete(
    benchmark: Callable[..., Any], loaded_purgatory: tuple[DelayedOperationPurgatory[BenchOperation], int]
) -> None:
    """try_complete_else_watch + check_and_complete of one operation among many pending ones."""
    purgatory, pending = loaded_purgatory
    key = TopicPartitionOperationKey("produce", 0)

    def cycle() -> None:
        op = BenchOperation(30_000)
        purgatory.try_complete_else_watch(op, [key])
        op.completable = True
        purgatory.check_and_complete(key)

    benchmark(cycle)
    assert purgatory.num_delayed == pending  # every measured operation completed and left the timer
    assert purgatory.watched == pending
