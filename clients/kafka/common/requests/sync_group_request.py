"""Port of clients/src/main/java/org/apache/kafka/common/requests/SyncGroupRequest.java (Kafka 3.7).

SyncGroup: the group leader sends the assignment of every member; the others receive theirs.
"""

from __future__ import annotations

from kafka.common.message import SyncGroupResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.sync_group_response import SyncGroupResponse


class SyncGroupRequest(AbstractRequest[SyncGroupResponse]):
    API_KEY = ApiKeys.SYNC_GROUP

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> SyncGroupResponse:
        return SyncGroupResponse(
            SyncGroupResponseData(
                error_code=Errors.for_exception(e).code, assignment=b"", throttle_time_ms=throttle_time_ms
            )
        )

    def group_assignments(self) -> dict[str, bytes]:
        return {a.member_id: a.assignment for a in self._data.assignments}

    def are_mandatory_protocol_type_and_name_present(self) -> bool:
        """From v5 the protocol type and name must be given."""
        if self._version >= 5:
            return self._data.protocol_type is not None and self._data.protocol_name is not None
        return True
