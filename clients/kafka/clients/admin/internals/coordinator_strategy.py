"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/CoordinatorStrategy.java (Kafka 3.7).

The lookup of group (or transaction) coordinators with FindCoordinator: all keys in one request (v4+), or,
once a broker has refused batching, one request per key.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass

from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy, LookupResult
from kafka.clients.admin.internals.api_request_scope import ApiRequestScope
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.common.errors import (
    GroupAuthorizationException,
    InvalidGroupIdException,
    TransactionalIdAuthorizationException,
)
from kafka.common.message import FindCoordinatorRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType, FindCoordinatorRequestBuilder
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.utils.log_context import LogContext

__all__ = ["CoordinatorStrategy"]

_BATCH_REQUEST_SCOPE = ApiRequestScope()


@dataclass(frozen=True, slots=True)
class _LookupRequestScope(ApiRequestScope):
    """The scope of one key's own FindCoordinator request (when batching is off)."""

    key: CoordinatorKey


class CoordinatorStrategy(AdminApiLookupStrategy[CoordinatorKey]):
    def __init__(self, type: CoordinatorType, log_context: LogContext) -> None:
        self._type = type
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.CoordinatorStrategy")
        self._unrepresentable_keys: frozenset[CoordinatorKey] = frozenset()
        self.batch = True

    def lookup_scope(self, key: CoordinatorKey) -> ApiRequestScope:
        if self.batch:
            return _BATCH_REQUEST_SCOPE
        # Without batched lookups, each key has its own scope (and request).
        return _LookupRequestScope(key)

    def build_request(self, keys: Set[CoordinatorKey]) -> FindCoordinatorRequestBuilder:
        self._unrepresentable_keys = frozenset(
            k for k in keys if k is None or not self._is_representable_key(k.id_value)
        )
        representable_keys = [k for k in keys if k is not None and self._is_representable_key(k.id_value)]
        if self.batch:
            self._ensure_same_type(representable_keys)
            data = FindCoordinatorRequestData(
                key_type=self._type.id(), coordinator_keys=[k.id_value for k in representable_keys]
            )
            return FindCoordinatorRequestBuilder(data)
        key = self._require_singleton_and_type(representable_keys)
        return FindCoordinatorRequestBuilder(FindCoordinatorRequestData(key=key.id_value, key_type=key.type.id()))

    def handle_response(self, keys: Set[CoordinatorKey], response: AbstractResponse) -> LookupResult[CoordinatorKey]:
        mapped_keys: dict[CoordinatorKey, int] = {}
        failed_keys: dict[CoordinatorKey, BaseException] = {}
        for key in self._unrepresentable_keys:
            failed_keys[key] = InvalidGroupIdException(
                f"The given group id '{key.id_value}' cannot be represented in a request."
            )
        assert isinstance(response, FindCoordinatorResponse)
        for coordinator in response.coordinators():
            if coordinator.key is None:
                # A response before v4 names no key: it answers the only key asked for.
                key = self._require_singleton_and_type(list(keys))
            elif self._type is CoordinatorType.GROUP:
                key = CoordinatorKey.by_group_id(coordinator.key)
            else:
                key = CoordinatorKey.by_transactional_id(coordinator.key)
            self._handle_error(
                Errors.for_code(coordinator.error_code), key, coordinator.node_id, mapped_keys, failed_keys
            )
        return LookupResult(failed_keys, mapped_keys)

    def disable_batch(self) -> None:
        self.batch = False

    def _require_singleton_and_type(self, keys: list[CoordinatorKey]) -> CoordinatorKey:
        if len(keys) != 1:
            raise ValueError(f"Unexpected size of key set: expected 1, but got {len(keys)}")
        key = keys[0]
        if key.type is not self._type:
            raise ValueError(
                f"Unexpected key type: expected key to be of type {self._type.name}, but got {key.type.name}"
            )
        return key

    def _ensure_same_type(self, keys: list[CoordinatorKey]) -> None:
        if len(keys) < 1:
            raise ValueError(f"Unexpected size of key set: expected >= 1, but got {len(keys)}")
        if any(k.type is not self._type for k in keys):
            raise ValueError(
                f"Unexpected key set: expected all key to be of type {self._type.name}, but some key were not"
            )

    @staticmethod
    def _is_representable_key(group_id: str | None) -> bool:
        return group_id is not None

    def _handle_error(
        self,
        error: Errors,
        key: CoordinatorKey,
        node_id: int,
        mapped_keys: dict[CoordinatorKey, int],
        failed_keys: dict[CoordinatorKey, BaseException],
    ) -> None:
        if error is Errors.NONE:
            mapped_keys[key] = node_id
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.COORDINATOR_LOAD_IN_PROGRESS):
            self._log.debug(
                f"FindCoordinator request for key {key} returned topic-level error {error.name}. Will retry"
            )
        elif error is Errors.GROUP_AUTHORIZATION_FAILED:
            failed_keys[key] = GroupAuthorizationException(
                f"FindCoordinator request for groupId `{key}` failed due to authorization failure"
            )
        elif error is Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
            failed_keys[key] = TransactionalIdAuthorizationException(
                f"FindCoordinator request for transactionalId `{key}` failed due to authorization failure"
            )
        else:
            exc = error.exception(f"FindCoordinator request for key `{key}` failed due to an unexpected error")
            assert exc is not None
            failed_keys[key] = exc
