"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AdminApiFuture.java (Kafka 3.7).

Where the AdminApiDriver puts the outcome of each key; SimpleAdminApiFuture keeps one KafkaFuture per key.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping
from typing import Generic, TypeVar

from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl

__all__ = ["AdminApiFuture", "SimpleAdminApiFuture"]

K = TypeVar("K")
V = TypeVar("V")


class AdminApiFuture(abc.ABC, Generic[K, V]):
    @abc.abstractmethod
    def lookup_keys(self) -> frozenset[K]:
        """The keys the API is run for."""

    @abc.abstractmethod
    def complete(self, values: Mapping[K, V]) -> None: ...

    def complete_lookup(self, broker_id_mapping: Mapping[K, int]) -> None:
        """The lookup found the brokers of these keys (nothing to do by default)."""

    def complete_lookup_exceptionally(self, lookup_errors: Mapping[K, BaseException]) -> None:
        self.complete_exceptionally(lookup_errors)

    @abc.abstractmethod
    def complete_exceptionally(self, errors: Mapping[K, BaseException]) -> None: ...

    @staticmethod
    def for_keys(keys: Iterable[K]) -> SimpleAdminApiFuture[K, V]:
        return SimpleAdminApiFuture(keys)


class SimpleAdminApiFuture(AdminApiFuture[K, V]):
    """One KafkaFuture per key."""

    def __init__(self, keys: Iterable[K]) -> None:
        self._futures: dict[K, KafkaFutureImpl[V]] = {k: KafkaFutureImpl() for k in keys}

    def lookup_keys(self) -> frozenset[K]:
        return frozenset(self._futures)

    def complete(self, values: Mapping[K, V]) -> None:
        for key, value in values.items():
            self._future_or_throw(key).complete(value)

    def complete_exceptionally(self, errors: Mapping[K, BaseException]) -> None:
        for key, t in errors.items():
            self._future_or_throw(key).complete_exceptionally(t)

    def _future_or_throw(self, key: K) -> KafkaFutureImpl[V]:
        future = self._futures.get(key)
        if future is None:
            raise ValueError(f"Attempt to complete future for {key}, which was not requested")
        return future

    def all(self) -> dict[K, KafkaFuture[V]]:
        return dict(self._futures)

    def get(self, key: K) -> KafkaFuture[V]:
        return self._futures[key]
