"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AdminApiHandler.java (Kafka 3.7).

The fulfillment stage of an admin API run by the AdminApiDriver: the requests for the keys mapped to a broker,
and how their responses complete, fail or send back to lookup each key.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.common.errors import UnsupportedVersionException
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.abstract_response import AbstractResponse

__all__ = ["AdminApiHandler", "ApiResult", "Batched", "RequestAndKeys", "Unbatched"]

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class ApiResult(Generic[K, V]):
    """Keys completed with a value, keys failed, and keys to look up again (e.g. the coordinator moved)."""

    completed_keys: Mapping[K, V] = field(default_factory=dict)
    failed_keys: Mapping[K, BaseException] = field(default_factory=dict)
    unmapped_keys: tuple[K, ...] = ()

    @staticmethod
    def completed(key: K, value: V) -> ApiResult[K, V]:
        return ApiResult({key: value}, {}, ())

    @staticmethod
    def failed(key: K, t: BaseException) -> ApiResult[K, Any]:
        return ApiResult({}, {key: t}, ())

    @staticmethod
    def unmapped(keys: Iterable[K]) -> ApiResult[K, Any]:
        return ApiResult({}, {}, tuple(keys))

    @staticmethod
    def empty() -> ApiResult[Any, Any]:
        return ApiResult()


@dataclass(frozen=True, slots=True)
class RequestAndKeys(Generic[K]):
    request: Builder[Any]
    keys: frozenset[K]


class AdminApiHandler(abc.ABC, Generic[K, V]):
    @abc.abstractmethod
    def api_name(self) -> str:
        """The name of the API, for logs and call names."""

    @abc.abstractmethod
    def build_request(self, broker_id: int, keys: Set[K]) -> list[RequestAndKeys[K]]:
        """The fulfillment requests for `keys`, all mapped to `broker_id`."""

    @abc.abstractmethod
    def handle_response(self, broker: Node, keys: Set[K], response: AbstractResponse) -> ApiResult[K, V]:
        """Reads a fulfillment response for `keys` from `broker`."""

    def handle_unsupported_version_exception(
        self, broker_id: int, exception: UnsupportedVersionException, keys: Iterable[K]
    ) -> dict[K, BaseException]:
        """The keys that fail for good because `broker_id` lacks a version; the others are tried again."""
        return {k: exception for k in keys}

    @abc.abstractmethod
    def lookup_strategy(self) -> AdminApiLookupStrategy[K]: ...


class Batched(AdminApiHandler[K, V]):
    """A handler that serves all keys of a broker with one request."""

    @abc.abstractmethod
    def build_batched_request(self, broker_id: int, keys: Set[K]) -> Builder[Any]: ...

    def build_request(self, broker_id: int, keys: Set[K]) -> list[RequestAndKeys[K]]:
        return [RequestAndKeys(self.build_batched_request(broker_id, keys), frozenset(keys))]


class Unbatched(AdminApiHandler[K, V]):
    """A handler that sends one request per key."""

    @abc.abstractmethod
    def build_single_request(self, broker_id: int, key: K) -> Builder[Any]: ...

    @abc.abstractmethod
    def handle_single_response(self, broker: Node, key: K, response: AbstractResponse) -> ApiResult[K, V]: ...

    def build_request(self, broker_id: int, keys: Set[K]) -> list[RequestAndKeys[K]]:
        return [RequestAndKeys(self.build_single_request(broker_id, key), frozenset([key])) for key in keys]

    def handle_response(self, broker: Node, keys: Set[K], response: AbstractResponse) -> ApiResult[K, V]:
        if len(keys) != 1:
            raise ValueError(
                "Unbatched admin handler should only be required to handle responses for a single key at a time"
            )
        return self.handle_single_response(broker, next(iter(keys)), response)
