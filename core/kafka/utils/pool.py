"""Port of core/src/main/scala/kafka/utils/Pool.scala (Kafka 2.8).

A thread-safe map whose values can be created on first use, exactly once per key.

# PORT: Kafka wraps a ConcurrentHashMap. Here a dict serves reads and single writes without locking (each dict
# operation is atomic under the GIL) and a lock makes `get_and_maybe_put` create a value at most once per key,
# as computeIfAbsent does. Iteration works on a snapshot, so it never fails under concurrent updates (Java's
# iterators are weakly consistent). Lock order: the factory runs under the pool's lock, so it must not take a lock
# that is held elsewhere while calling into this pool.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Generic, TypeVar, overload

from kafka.common.errors import KafkaException

K = TypeVar("K")
V = TypeVar("V")

_MISSING = object()


class Pool(Generic[K, V]):
    """Concurrent map; missing keys give None, as Java's `get` gives null."""

    def __init__(self, value_factory: Callable[[K], V] | None = None) -> None:
        self._value_factory = value_factory
        self._pool: dict[K, V] = {}
        self._lock = threading.Lock()

    def put(self, k: K, v: V) -> V | None:
        with self._lock:
            old = self._pool.get(k)
            self._pool[k] = v
            return old

    def put_all(self, m: Mapping[K, V]) -> None:
        with self._lock:
            self._pool.update(m)

    def put_if_not_exists(self, k: K, v: V) -> V | None:
        """Stores `v` unless `k` has a value; returns the previous value (None if `v` was stored)."""
        with self._lock:
            old = self._pool.get(k)
            if old is None:
                self._pool[k] = v
            return old

    def get_and_maybe_put(self, key: K, create_value: Callable[[], V] | None = None) -> V:
        """The value for `key`, created by `create_value()` (or the pool's value factory) if there is none."""
        v = self._pool.get(key)
        if v is not None:
            return v
        if create_value is None:
            factory = self._value_factory
            if factory is None:
                raise KafkaException("Empty value factory in pool.")

            def create_value() -> V:
                return factory(key)

        with self._lock:
            v = self._pool.get(key)
            if v is None:
                v = create_value()
                self._pool[key] = v
            return v

    def contains(self, key: K) -> bool:
        return key in self._pool

    def __contains__(self, key: object) -> bool:
        return key in self._pool

    def get(self, key: K) -> V | None:
        return self._pool.get(key)

    @overload
    def remove(self, key: K) -> V | None: ...

    @overload
    def remove(self, key: K, value: V) -> bool: ...

    def remove(self, key: K, value: object = _MISSING) -> V | bool | None:
        """Without `value`: removes `key` and returns its value (or None). With `value`: removes `key` only if it
        maps to `value`, returning whether it did (Java's two-argument remove)."""
        with self._lock:
            if value is _MISSING:
                return self._pool.pop(key, None)
            if self._pool.get(key) == value:
                del self._pool[key]
                return True
            return False

    def remove_all(self, keys: Iterable[K]) -> None:
        with self._lock:
            for k in keys:
                self._pool.pop(k, None)

    @property
    def keys(self) -> set[K]:
        return set(list(self._pool))  # list() copies in C without running Python code, so it cannot race

    @property
    def values(self) -> list[V]:
        return list(self._pool.values())

    def clear(self) -> None:
        with self._lock:
            self._pool.clear()

    def foreach_entry(self, f: Callable[[K, V], None]) -> None:
        for k, v in self.items():
            f(k, v)

    def foreach_while(self, f: Callable[[K, V], bool]) -> None:
        """Calls `f` on entries until it returns False."""
        for k, v in self.items():
            if not f(k, v):
                break

    def items(self) -> list[tuple[K, V]]:
        return list(self._pool.items())

    @property
    def size(self) -> int:
        return len(self._pool)

    def __len__(self) -> int:
        return len(self._pool)

    def __iter__(self) -> Iterator[tuple[K, V]]:
        return iter(self.items())

    def __repr__(self) -> str:
        return f"Pool({self._pool!r})"
