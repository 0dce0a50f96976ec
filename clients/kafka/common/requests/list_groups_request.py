"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListGroupsRequest.java (Kafka 3.7).

ListGroups: the groups a broker coordinates, optionally filtered by state (v4+).
"""

from __future__ import annotations

from kafka.common.message import ListGroupsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.list_groups_response import ListGroupsResponse


class ListGroupsRequest(AbstractRequest[ListGroupsResponse]):
    API_KEY = ApiKeys.LIST_GROUPS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ListGroupsResponse:
        data = ListGroupsResponseData(groups=[], error_code=Errors.for_exception(e).code)
        if self._version >= 1:
            data.throttle_time_ms = throttle_time_ms
        return ListGroupsResponse(data)
