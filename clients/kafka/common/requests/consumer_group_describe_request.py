"""Port of clients/src/main/java/org/apache/kafka/common/requests/ConsumerGroupDescribeRequest.java (Kafka 3.7).

ConsumerGroupDescribe: describe groups of the new consumer group protocol (unstable in 3.7).
"""

from __future__ import annotations

from kafka.common.message import ConsumerGroupDescribeResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.consumer_group_describe_response import ConsumerGroupDescribeResponse


class ConsumerGroupDescribeRequest(AbstractRequest[ConsumerGroupDescribeResponse]):
    API_KEY = ApiKeys.CONSUMER_GROUP_DESCRIBE

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ConsumerGroupDescribeResponse:
        error_code = Errors.for_exception(e).code
        data = ConsumerGroupDescribeResponseData(throttle_time_ms=throttle_time_ms)
        for group_id in self._data.group_ids:
            data.groups.append(
                ConsumerGroupDescribeResponseData.DescribedGroup(group_id=group_id, error_code=error_code)
            )
        return ConsumerGroupDescribeResponse(data)
