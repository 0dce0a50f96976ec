"""Port of clients/src/main/java/org/apache/kafka/common/requests/LeaveGroupRequest.java (Kafka 3.7).

LeaveGroup: members leave a group; one member before v3, a batch (with group instance ids) from v3.
"""

from __future__ import annotations

from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import LeaveGroupRequestData, LeaveGroupResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.leave_group_response import LeaveGroupResponse


class LeaveGroupRequest(AbstractRequest[LeaveGroupResponse]):
    API_KEY = ApiKeys.LEAVE_GROUP

    def normalized_data(self) -> Any:
        """The request in the v3+ layout (a member list), whatever the version."""
        if self._version >= 3:
            return self._data
        return LeaveGroupRequestData(
            group_id=self._data.group_id,
            members=[LeaveGroupRequestData.MemberIdentity(member_id=self._data.member_id)],
        )

    def members(self) -> list[Any]:
        if self._version <= 2:
            return [LeaveGroupRequestData.MemberIdentity(member_id=self._data.member_id)]
        return list(self._data.members)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> LeaveGroupResponse:
        data = LeaveGroupResponseData(error_code=Errors.for_exception(e).code)
        if self._version >= 1:
            data.throttle_time_ms = throttle_time_ms
        return LeaveGroupResponse(data)


class LeaveGroupRequestBuilder(Builder[LeaveGroupRequest]):
    """Port of LeaveGroupRequest.Builder: one member before v3, any number from v3."""

    def __init__(self, group_id: str, members: list[Any]) -> None:
        super().__init__(ApiKeys.LEAVE_GROUP)
        if not members:
            raise ValueError("leaving members should not be empty")
        self.group_id = group_id
        self.members = members

    def _build(self, version: int) -> LeaveGroupRequest:
        if version >= 3:
            data = LeaveGroupRequestData(group_id=self.group_id, members=self.members)
        else:
            if len(self.members) != 1:
                raise UnsupportedVersionException(
                    f"Version {version} leave group request only supports single member instance than "
                    f"{len(self.members)} members"
                )
            data = LeaveGroupRequestData(group_id=self.group_id, member_id=self.members[0].member_id)
        return LeaveGroupRequest(data, version)
