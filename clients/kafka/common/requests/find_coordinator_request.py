"""Port of clients/src/main/java/org/apache/kafka/common/requests/FindCoordinatorRequest.java (Kafka 3.7).

FindCoordinator: which broker coordinates a consumer group or a transactional id; from v4 several keys
in one request.
"""

from __future__ import annotations

import enum
from typing import Any

from kafka.common.errors import InvalidRequestException, UnsupportedVersionException
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.find_coordinator_response import NO_NODE, FindCoordinatorResponse

MIN_BATCHED_VERSION = 4


class CoordinatorType(enum.IntEnum):
    GROUP = 0
    TRANSACTION = 1

    def id(self) -> int:
        return int(self.value)

    @classmethod
    def for_id(cls, id: int) -> CoordinatorType:
        try:
            return cls(id)
        except ValueError:
            raise InvalidRequestException(f"Unknown coordinator type received: {id}") from None


class NoBatchedFindCoordinatorsException(UnsupportedVersionException):
    """The broker is too old to look up several coordinators in one request."""


class FindCoordinatorRequest(AbstractRequest[FindCoordinatorResponse]):
    API_KEY = ApiKeys.FIND_COORDINATOR
    MIN_BATCHED_VERSION = MIN_BATCHED_VERSION

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> FindCoordinatorResponse:
        # PORT: as in Java, the throttle time is not set in these error responses.
        error = Errors.for_exception(e)
        if self._version < MIN_BATCHED_VERSION:
            return FindCoordinatorResponse.prepare_old_response(error, NO_NODE)
        return FindCoordinatorResponse.prepare_error_response(error, list(self._data.coordinator_keys))


class FindCoordinatorRequestBuilder(Builder[FindCoordinatorRequest]):
    """Port of FindCoordinatorRequest.Builder: moves a single key between Key (v0-3) and CoordinatorKeys (v4+)."""

    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.FIND_COORDINATOR)
        self.data = data

    def _build(self, version: int) -> FindCoordinatorRequest:
        data = self.data
        if version < 1 and data.key_type == CoordinatorType.TRANSACTION:
            raise UnsupportedVersionException(
                f"Cannot create a v{version} FindCoordinator request because we require features supported only "
                "in 2 or later."
            )
        batched_keys = len(data.coordinator_keys)
        if version < MIN_BATCHED_VERSION:
            if batched_keys > 1:
                raise NoBatchedFindCoordinatorsException(
                    f"Cannot create a v{version} FindCoordinator request because we require features supported "
                    f"only in {MIN_BATCHED_VERSION} or later."
                )
            if batched_keys == 1:
                data.key = data.coordinator_keys[0]
                data.coordinator_keys = []
        elif batched_keys == 0 and data.key is not None:
            data.coordinator_keys = [data.key]
            data.key = ""
        return FindCoordinatorRequest(data, version)
