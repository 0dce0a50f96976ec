"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AdminApiDriver.java (Kafka 3.7).

Runs an admin API over many keys in two stages: lookup (which broker serves each key, e.g. FindCoordinator)
and fulfillment (the API's own request to that broker). It holds no thread: KafkaAdminClient asks `poll()` for
the requests to send, turns each into a Call, and reports back with `on_response` / `on_failure`. At most one
request per scope is in flight; a scope's retries back off exponentially.

# PORT: a lookup answered without resolving some of its keys (an unknown topic, a coordinator not available yet)
is retried after the scope's backoff (retry.backoff.ms, growing to retry.backoff.max.ms), as fulfillment
requests are. Java 3.7 sends the next lookup as soon as the answer arrives, which for a topic that does not
exist means one Metadata request per round trip until the deadline. When a lookup runs out of time, its keys fail
with what the lookup strategy knows of them (AdminApiLookupStrategy.handle_lookup_timeout).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kafka.clients import common_client_configs
from kafka.clients.admin.internals.admin_api_future import AdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import AdminApiHandler, RequestAndKeys
from kafka.clients.admin.internals.api_request_scope import ApiRequestScope
from kafka.clients.admin.internals.coordinator_strategy import CoordinatorStrategy
from kafka.common.errors import DisconnectException, TimeoutException, UnsupportedVersionException
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.find_coordinator_request import NoBatchedFindCoordinatorsException
from kafka.common.requests.offset_fetch_request import NoBatchedOffsetFetchRequestException
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.log_context import LogContext

__all__ = ["AdminApiDriver", "FulfillmentScope", "RequestSpec"]

K = TypeVar("K")
V = TypeVar("V")
S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class RequestSpec(Generic[K]):
    """A request the driver wants sent, with the retry state the Call starts from."""

    name: str
    scope: ApiRequestScope
    keys: frozenset[K]
    request: Builder[Any]
    next_allowed_try_ms: int
    deadline_ms: int
    tries: int

    def __str__(self) -> str:
        return (
            f"RequestSpec(name={self.name}, scope={self.scope}, keys={set(self.keys)}, request={self.request}, "
            f"nextAllowedTryMs={self.next_allowed_try_ms}, deadlineMs={self.deadline_ms}, tries={self.tries})"
        )


@dataclass(frozen=True, slots=True)
class FulfillmentScope(ApiRequestScope):
    """The scope of the fulfillment requests to one broker."""

    destination_broker: int

    def destination_broker_id(self) -> int | None:
        return self.destination_broker


class _BiMultimap(Generic[S, K]):
    """Each value maps to one key; each key to a set of values."""

    __slots__ = ("_reverse", "_map")

    def __init__(self) -> None:
        self._reverse: dict[K, S] = {}
        self._map: dict[S, set[K]] = {}

    def put(self, key: S, value: K) -> None:
        self.remove(value)
        self._reverse[value] = key
        self._map.setdefault(key, set()).add(value)

    def remove(self, value: K) -> None:
        key = self._reverse.pop(value, None)
        if key is not None:
            values = self._map.get(key)
            if values is not None:
                values.discard(value)
                if not values:
                    del self._map[key]

    def get_key(self, value: K) -> S | None:
        return self._reverse.get(value)

    def entries(self) -> list[tuple[S, set[K]]]:
        return list(self._map.items())


class _RequestState:
    """The in-flight request and retry state of one scope."""

    __slots__ = ("inflight_request", "tries", "next_allowed_retry_ms", "_retry_backoff")

    def __init__(self, retry_backoff: ExponentialBackoff) -> None:
        self.inflight_request: RequestSpec[Any] | None = None
        self.tries = 0
        self.next_allowed_retry_ms = 0
        self._retry_backoff = retry_backoff

    def has_inflight(self) -> bool:
        return self.inflight_request is not None

    def clear_inflight(self, current_time_ms: int) -> None:
        self.inflight_request = None
        self.next_allowed_retry_ms = current_time_ms

    def clear_inflight_and_backoff(self, current_time_ms: int) -> None:
        self.clear_inflight(current_time_ms + self._retry_backoff.backoff(self.tries - 1 if self.tries >= 1 else 0))

    def set_inflight(self, spec: RequestSpec[Any]) -> None:
        self.inflight_request = spec
        self.tries += 1


class AdminApiDriver(Generic[K, V]):
    """The two-stage state machine of one admin API call."""

    def __init__(
        self,
        handler: AdminApiHandler[K, V],
        future: AdminApiFuture[K, V],
        deadline_ms: int,
        retry_backoff_ms: int,
        retry_backoff_max_ms: int,
        log_context: LogContext,
    ) -> None:
        self._handler = handler
        self._future = future
        self._deadline_ms = deadline_ms
        self._retry_backoff = ExponentialBackoff(
            retry_backoff_ms,
            common_client_configs.RETRY_BACKOFF_EXP_BASE,
            retry_backoff_max_ms,
            common_client_configs.RETRY_BACKOFF_JITTER,
        )
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.AdminApiDriver")
        self._lookup_map: _BiMultimap[ApiRequestScope, K] = _BiMultimap()
        self._fulfillment_map: _BiMultimap[FulfillmentScope, K] = _BiMultimap()
        self._request_states: dict[ApiRequestScope, _RequestState] = {}
        self._retry_lookup(future.lookup_keys())

    # -- key state ----------------------------------------------------------------------------------------------

    def _map(self, key: K, broker_id: int) -> None:
        self._lookup_map.remove(key)
        self._fulfillment_map.put(FulfillmentScope(broker_id), key)

    def _unmap(self, key: K) -> None:
        """Sends `key` back to lookup (or straight to its fixed broker, if its lookup scope names one)."""
        self._fulfillment_map.remove(key)
        lookup_scope = self._handler.lookup_strategy().lookup_scope(key)
        destination_broker_id = lookup_scope.destination_broker_id()
        if destination_broker_id is not None:
            self._fulfillment_map.put(FulfillmentScope(destination_broker_id), key)
        else:
            self._lookup_map.put(lookup_scope, key)

    def _clear(self, keys: Iterable[K]) -> None:
        for key in keys:
            self._lookup_map.remove(key)
            self._fulfillment_map.remove(key)

    def key_to_broker_id(self, key: K) -> int | None:
        scope = self._fulfillment_map.get_key(key)
        return None if scope is None else scope.destination_broker

    def _complete_exceptionally(self, errors: Mapping[K, BaseException]) -> None:
        if errors:
            self._future.complete_exceptionally(errors)
            self._clear(errors.keys())

    def _complete_lookup_exceptionally(self, errors: Mapping[K, BaseException]) -> None:
        if errors:
            self._future.complete_lookup_exceptionally(errors)
            self._clear(errors.keys())

    def _retry_lookup(self, keys: Iterable[K]) -> None:
        for key in keys:
            self._unmap(key)

    def _complete(self, values: Mapping[K, V]) -> None:
        if values:
            self._future.complete(values)
            self._clear(values.keys())

    def _complete_lookup(self, broker_id_mapping: Mapping[K, int]) -> None:
        if broker_id_mapping:
            self._future.complete_lookup(broker_id_mapping)
            for key, broker_id in broker_id_mapping.items():
                self._map(key, broker_id)

    # -- driving ------------------------------------------------------------------------------------------------

    def poll(self) -> list[RequestSpec[K]]:
        """The requests to send now: call after construction and after each on_response/on_failure."""
        requests: list[RequestSpec[K]] = []
        self._collect_lookup_requests(requests)
        self._collect_fulfillment_requests(requests)
        return requests

    def on_response(self, current_time_ms: int, spec: RequestSpec[K], response: AbstractResponse, node: Node) -> None:
        """A request of `spec` was answered by `node`."""
        self._clear_inflight_request(current_time_ms, spec)
        if isinstance(spec.scope, FulfillmentScope):
            result = self._handler.handle_response(node, spec.keys, response)
            self._complete(result.completed_keys)
            self._complete_exceptionally(result.failed_keys)
            self._retry_lookup(result.unmapped_keys)
        else:
            lookup_result = self._handler.lookup_strategy().handle_response(spec.keys, response)
            for key in lookup_result.completed_keys:
                self._lookup_map.remove(key)
            self._complete_lookup(lookup_result.mapped_keys)
            self._complete_lookup_exceptionally(lookup_result.failed_keys)
            if any(self._lookup_map.get_key(key) is not None for key in spec.keys):
                # Some keys are still unresolved: their next lookup waits out the backoff.
                request_state = self._request_states.get(spec.scope)
                if request_state is not None:
                    request_state.clear_inflight_and_backoff(current_time_ms)

    def on_failure(self, current_time_ms: int, spec: RequestSpec[K], t: BaseException) -> None:
        """A request of `spec` failed without a response (or its Call gave up)."""
        self._clear_inflight_request(current_time_ms, spec)
        if isinstance(t, DisconnectException):
            self._log.debug(
                f"Node disconnected before response could be received for request {spec.request}. Will attempt retry"
            )
            # Look the keys up again: the coordinator or leader may have moved.
            lookup_keys = self._future.lookup_keys()
            self._retry_lookup({k for k in spec.keys if k in lookup_keys})
        elif isinstance(t, (NoBatchedFindCoordinatorsException, NoBatchedOffsetFetchRequestException)):
            strategy = self._handler.lookup_strategy()
            assert isinstance(strategy, CoordinatorStrategy)
            strategy.disable_batch()
            lookup_keys = self._future.lookup_keys()
            self._retry_lookup({k for k in spec.keys if k in lookup_keys})
        elif isinstance(t, UnsupportedVersionException):
            if isinstance(spec.scope, FulfillmentScope):
                unrecoverable = self._handler.handle_unsupported_version_exception(
                    spec.scope.destination_broker, t, spec.keys
                )
                self._complete_exceptionally(unrecoverable)
            else:
                unrecoverable_lookup = self._handler.lookup_strategy().handle_unsupported_version_exception(
                    t, spec.keys
                )
                self._complete_lookup_exceptionally(unrecoverable_lookup)
                self._retry_lookup({k for k in spec.keys if k not in unrecoverable_lookup})
        else:
            if isinstance(spec.scope, FulfillmentScope):
                self._complete_exceptionally({key: t for key in spec.keys})
            elif isinstance(t, TimeoutException):
                self._complete_lookup_exceptionally(self._handler.lookup_strategy().handle_lookup_timeout(spec.keys, t))
            else:
                self._complete_lookup_exceptionally({key: t for key in spec.keys})

    def _clear_inflight_request(self, current_time_ms: int, spec: RequestSpec[K]) -> None:
        request_state = self._request_states.get(spec.scope)
        if request_state is not None:
            # A lookup is retried at once (but see on_response); fulfillment requests back off.
            if isinstance(spec.scope, FulfillmentScope):
                request_state.clear_inflight_and_backoff(current_time_ms)
            else:
                request_state.clear_inflight(current_time_ms)

    def _collect_requests(
        self,
        requests: list[RequestSpec[K]],
        entries: list[tuple[Any, set[K]]],
        build_request: Callable[[Set[K], Any], list[RequestAndKeys[K]]],
    ) -> None:
        for scope, keys in entries:
            if not keys:
                continue
            request_state = self._request_states.get(scope)
            if request_state is None:
                request_state = self._request_states[scope] = _RequestState(self._retry_backoff)
            if request_state.has_inflight():
                continue
            new_requests = build_request(frozenset(keys), scope)
            if not new_requests:
                return
            # One request per scope at a time: the rest go to the same broker later.
            new_request = new_requests[0]
            spec = RequestSpec(
                f"{self._handler.api_name()}(api={new_request.request.api_key.name})",
                scope,
                new_request.keys,
                new_request.request,
                request_state.next_allowed_retry_ms,
                self._deadline_ms,
                request_state.tries,
            )
            request_state.set_inflight(spec)
            requests.append(spec)

    def _collect_lookup_requests(self, requests: list[RequestSpec[K]]) -> None:
        strategy = self._handler.lookup_strategy()
        self._collect_requests(
            requests,
            self._lookup_map.entries(),
            lambda keys, scope: [RequestAndKeys(strategy.build_request(keys), frozenset(keys))],
        )

    def _collect_fulfillment_requests(self, requests: list[RequestSpec[K]]) -> None:
        self._collect_requests(
            requests,
            self._fulfillment_map.entries(),
            lambda keys, scope: self._handler.build_request(scope.destination_broker, keys),
        )
