"""Tests of kafka.common.memory: SimpleMemoryPool's budget (strict and not) and MemoryPool.NONE."""

from __future__ import annotations

import pytest

from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.memory.simple_memory_pool import SimpleMemoryPool


def test_not_strict_pool_grants_while_any_budget_is_left() -> None:
    """A pool that is not strict grants an allocation larger than what is left, going below zero, then refuses until
    bytes are released."""
    pool = SimpleMemoryPool(1000, 1000, False)
    assert pool.try_allocate(600)
    assert pool.try_allocate(600)
    assert pool.available_memory() == -200
    assert pool.is_out_of_memory()
    assert not pool.try_allocate(1)
    pool.release(600)
    assert pool.available_memory() == 400
    assert not pool.is_out_of_memory()
    assert pool.size() == 1000


def test_strict_pool_grants_only_what_fits() -> None:
    """A strict pool refuses an allocation larger than what is left, and takes nothing for it."""
    pool = SimpleMemoryPool(1000, 1000, True)
    assert pool.try_allocate(600)
    assert not pool.try_allocate(600)
    assert pool.available_memory() == 400
    assert pool.try_allocate(400)
    assert pool.is_out_of_memory()


def test_invalid_sizes_are_rejected() -> None:
    """Sizes must be positive, and a single allocation at most the configured maximum."""
    with pytest.raises(ValueError):
        SimpleMemoryPool(100, 200, False)
    with pytest.raises(ValueError):
        SimpleMemoryPool(0, 0, False)
    pool = SimpleMemoryPool(1000, 100, False)
    with pytest.raises(ValueError, match="larger than maxSingleAllocationSize 100"):
        pool.try_allocate(101)
    with pytest.raises(ValueError, match="requested size 0<=0"):
        pool.try_allocate(0)


def test_none_pool_never_runs_out() -> None:
    """MemoryPool.NONE grants everything and counts nothing."""
    assert MemoryPool.NONE.try_allocate(10**12)
    MemoryPool.NONE.release(10**12)
    assert not MemoryPool.NONE.is_out_of_memory()
    assert MemoryPool.NONE.available_memory() == MemoryPool.NONE.size()
