"""Port of clients/src/main/java/org/apache/kafka/common/requests/LeaveGroupResponse.java (Kafka 3.7).

A top-level error and, from v3, one error per leaving member.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import LeaveGroupResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class LeaveGroupResponse(AbstractResponse):
    API_KEY = ApiKeys.LEAVE_GROUP
    CLIENT_THROTTLE_SINCE = 2

    @classmethod
    def for_version(cls, data: Any, version: int) -> LeaveGroupResponse:
        """Data fitted to `version`: below v3 only one error fits, the top-level one or the single member's."""
        if version >= 3:
            return cls(data)
        if data.error_code != Errors.NONE.code:
            return cls(LeaveGroupResponseData(error_code=data.error_code))
        if len(data.members) != 1:
            raise UnsupportedVersionException(
                f"LeaveGroup response version {version} can only contain one member, got {len(data.members)} members."
            )
        return cls(LeaveGroupResponseData(error_code=data.members[0].error_code))

    @classmethod
    def of(
        cls, member_responses: list[Any], top_level_error: Errors, throttle_time_ms: int, version: int
    ) -> LeaveGroupResponse:
        if version <= 2:
            data = LeaveGroupResponseData(error_code=_get_error(top_level_error, member_responses).code)
        else:
            data = LeaveGroupResponseData(error_code=top_level_error.code, members=member_responses)
        if version >= 1:
            data.throttle_time_ms = throttle_time_ms
        return cls(data)

    def member_responses(self) -> list[Any]:
        return list(self._data.members)

    def error(self) -> Errors:
        """The top-level error, or else the first member error."""
        return _get_error(Errors.for_code(self._data.error_code), self._data.members)

    def top_level_error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        counts = {Errors.for_code(self._data.error_code): 1}
        for member in self._data.members:
            self._update_error_counts(counts, Errors.for_code(member.error_code))
        return counts


def _get_error(top_level_error: Errors, member_responses: Iterable[Any]) -> Errors:
    if top_level_error is not Errors.NONE:
        return top_level_error
    for member in member_responses:
        error = Errors.for_code(member.error_code)
        if error is not Errors.NONE:
            return error
    return Errors.NONE
