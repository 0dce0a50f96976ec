"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AllBrokersStrategy.java (Kafka 3.7).

The lookup of APIs sent to every broker (listTransactions). The keys are not known in advance: the one lookup key
ANY_BROKER is resolved by a Metadata request into one key per broker, each mapped to its own broker. The
AllBrokersFuture therefore is a future of {broker id: future of that broker's value}.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import Generic, TypeVar

from kafka.clients.admin.internals.admin_api_future import AdminApiFuture
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy, LookupResult
from kafka.clients.admin.internals.api_request_scope import ApiRequestScope
from kafka.common.kafka_future import KafkaFutureImpl
from kafka.common.message import MetadataRequestData
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.utils.log_context import LogContext

__all__ = ["AllBrokersFuture", "AllBrokersStrategy", "BrokerKey"]

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class BrokerKey:
    """A broker (None: the not yet resolved "any broker" of the lookup)."""

    broker_id: int | None

    def __str__(self) -> str:
        shown = "OptionalInt.empty" if self.broker_id is None else f"OptionalInt[{self.broker_id}]"
        return f"BrokerKey(brokerId={shown})"


ANY_BROKER = BrokerKey(None)
LOOKUP_KEYS: frozenset[BrokerKey] = frozenset({ANY_BROKER})

_SINGLE_REQUEST_SCOPE = ApiRequestScope()


def _validate_lookup_keys(keys: Set[BrokerKey]) -> None:
    if len(keys) != 1 or next(iter(keys)) != ANY_BROKER:
        raise ValueError(f"Unexpected key set: {set(keys)}")


class AllBrokersStrategy(AdminApiLookupStrategy[BrokerKey]):
    ANY_BROKER = ANY_BROKER
    LOOKUP_KEYS = LOOKUP_KEYS

    def __init__(self, log_context: LogContext) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.AllBrokersStrategy")

    def lookup_scope(self, key: BrokerKey) -> ApiRequestScope:
        return _SINGLE_REQUEST_SCOPE

    def build_request(self, keys: Set[BrokerKey]) -> MetadataRequestBuilder:
        _validate_lookup_keys(keys)
        # A Metadata request for no topics: only its brokers are wanted.
        return MetadataRequestBuilder(data=MetadataRequestData(topics=[], allow_auto_topic_creation=True))

    def handle_response(self, keys: Set[BrokerKey], response: AbstractResponse) -> LookupResult[BrokerKey]:
        _validate_lookup_keys(keys)
        assert isinstance(response, MetadataResponse)
        brokers = response.data.brokers
        if not brokers:
            self._log.debug("Metadata response contained no brokers. Will backoff and retry")
            return LookupResult.empty()
        self._log.debug(f"Discovered all brokers {[b.node_id for b in brokers]} to send requests to")
        broker_keys = {BrokerKey(b.node_id): b.node_id for b in brokers}
        return LookupResult({}, broker_keys, (ANY_BROKER,))


class AllBrokersFuture(AdminApiFuture[BrokerKey, V], Generic[V]):
    """A future of the brokers found, each with the future of its own value."""

    def __init__(self) -> None:
        self._future: KafkaFutureImpl[dict[int, KafkaFutureImpl[V]]] = KafkaFutureImpl()
        self._broker_futures: dict[int, KafkaFutureImpl[V]] = {}

    def lookup_keys(self) -> frozenset[BrokerKey]:
        return LOOKUP_KEYS

    def complete_lookup(self, broker_id_mapping: Mapping[BrokerKey, int]) -> None:
        for broker_key, broker_id in broker_id_mapping.items():
            if broker_id != (-1 if broker_key.broker_id is None else broker_key.broker_id):
                raise ValueError(f"Invalid lookup mapping {broker_key} -> {broker_id}")
            self._broker_futures[broker_id] = KafkaFutureImpl()
        self._future.complete(self._broker_futures)

    def complete_lookup_exceptionally(self, lookup_errors: Mapping[BrokerKey, BaseException]) -> None:
        if set(lookup_errors) != LOOKUP_KEYS:
            raise ValueError(f"Unexpected keys among lookup errors: {dict(lookup_errors)}")
        self._future.complete_exceptionally(lookup_errors[ANY_BROKER])

    def complete(self, values: Mapping[BrokerKey, V]) -> None:
        for key, value in values.items():
            if key == ANY_BROKER:
                raise ValueError("Invalid attempt to complete with lookup key sentinel")
            self._future_or_throw(key).complete(value)

    def complete_exceptionally(self, errors: Mapping[BrokerKey, BaseException]) -> None:
        for key, t in errors.items():
            if key == ANY_BROKER:
                self._future.complete_exceptionally(t)
            else:
                self._future_or_throw(key).complete_exceptionally(t)

    def all(self) -> KafkaFutureImpl[dict[int, KafkaFutureImpl[V]]]:
        return self._future

    def _future_or_throw(self, key: BrokerKey) -> KafkaFutureImpl[V]:
        if key.broker_id is None:
            raise ValueError(f"Attempt to complete with invalid key: {key}")
        future = self._broker_futures.get(key.broker_id)
        if future is None:
            raise ValueError(f"Attempt to complete with unknown broker id: {key.broker_id}")
        return future
