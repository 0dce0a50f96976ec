"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeGroupsRequest.java (Kafka 3.7).

DescribeGroups: the state, protocol and members of consumer groups.
"""

from __future__ import annotations

from kafka.common.message import DescribeGroupsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.describe_groups_response import DescribeGroupsResponse


class DescribeGroupsRequest(AbstractRequest[DescribeGroupsResponse]):
    API_KEY = ApiKeys.DESCRIBE_GROUPS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeGroupsResponse:
        error = Errors.for_exception(e)
        data = DescribeGroupsResponseData(
            groups=[DescribeGroupsResponse.group_error(g, error) for g in self._data.groups]
        )
        if self._version >= 1:
            data.throttle_time_ms = throttle_time_ms
        return DescribeGroupsResponse(data)
