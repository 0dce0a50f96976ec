"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/StaticBrokerStrategy.java (Kafka 3.7).

A lookup that is never made: every key goes to one broker named in advance (describeProducers with a broker
id), through a scope that names that broker.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from typing import Any, Generic, NoReturn, TypeVar

from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.api_request_scope import ApiRequestScope
from kafka.common.requests.abstract_response import AbstractResponse

__all__ = ["StaticBrokerStrategy"]

K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class _SingleBrokerScope(ApiRequestScope):
    broker_id: int

    def destination_broker_id(self) -> int | None:
        return self.broker_id


class StaticBrokerStrategy(AdminApiLookupStrategy[K], Generic[K]):
    def __init__(self, broker_id: int) -> None:
        self._scope = _SingleBrokerScope(broker_id)

    def lookup_scope(self, key: K) -> ApiRequestScope:
        return self._scope

    def build_request(self, keys: Set[K]) -> NoReturn:
        from kafka.clients.admin.admin import UnsupportedOperationException

        raise UnsupportedOperationException()

    def handle_response(self, keys: Set[K], response: AbstractResponse) -> Any:
        from kafka.clients.admin.admin import UnsupportedOperationException

        raise UnsupportedOperationException()
