"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AdminApiLookupStrategy.java (Kafka 3.7).

The lookup stage of the AdminApiDriver: which broker must serve each key (a group's coordinator, a partition's
leader), found by a request to any broker (FindCoordinator, Metadata).
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kafka.clients.admin.internals.api_request_scope import ApiRequestScope
from kafka.common.errors import UnsupportedVersionException
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.abstract_response import AbstractResponse

__all__ = ["AdminApiLookupStrategy", "LookupResult"]

K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class LookupResult(Generic[K]):
    """The outcome of a lookup response: keys done already (no fulfillment needed), keys mapped to a broker,
    and keys that failed for good. Keys in none of these are looked up again."""

    failed_keys: Mapping[K, BaseException] = field(default_factory=dict)
    mapped_keys: Mapping[K, int] = field(default_factory=dict)
    completed_keys: tuple[K, ...] = ()

    @staticmethod
    def empty() -> LookupResult[Any]:
        return LookupResult()

    @staticmethod
    def failed(key: K, exception: BaseException) -> LookupResult[K]:
        return LookupResult({key: exception}, {})

    @staticmethod
    def mapped(key: K, broker_id: int) -> LookupResult[K]:
        return LookupResult({}, {key: broker_id})


class AdminApiLookupStrategy(abc.ABC, Generic[K]):
    @abc.abstractmethod
    def lookup_scope(self, key: K) -> ApiRequestScope:
        """The scope of `key`'s lookup: keys of one scope are looked up in one request. A scope that names a
        broker skips the lookup."""

    @abc.abstractmethod
    def build_request(self, keys: Set[K]) -> Builder[Any]:
        """The lookup request for `keys` (all of one scope)."""

    @abc.abstractmethod
    def handle_response(self, keys: Set[K], response: AbstractResponse) -> LookupResult[K]:
        """Reads the lookup response; keys with a retriable error are left out of the result."""

    def handle_unsupported_version_exception(
        self, exception: UnsupportedVersionException, keys: Iterable[K]
    ) -> dict[K, BaseException]:
        """The keys that fail for good because the broker lacks a version; the rest are looked up again."""
        return {k: exception for k in keys}

    def handle_lookup_timeout(self, keys: Iterable[K], exception: BaseException) -> dict[K, BaseException]:
        """The failure of each key whose lookup ran out of time (`exception`, a TimeoutException).

        # PORT: not in Java, where such keys fail with the timeout itself, as they do here by default. A strategy
        that knows why its keys stayed unresolved (PartitionLeaderStrategy: the topic does not exist) reports
        that instead."""
        return {k: exception for k in keys}
