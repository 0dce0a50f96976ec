"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeConfigsRequest.java (Kafka 3.7).

DescribeConfigs: the configs of topics, brokers and broker loggers (all keys when the key list is null).
"""

from __future__ import annotations

from kafka.common.message import DescribeConfigsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.describe_configs_response import DescribeConfigsResponse


class DescribeConfigsRequest(AbstractRequest[DescribeConfigsResponse]):
    API_KEY = ApiKeys.DESCRIBE_CONFIGS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeConfigsResponse:
        error = Errors.for_exception(e)
        return DescribeConfigsResponse(
            DescribeConfigsResponseData(
                throttle_time_ms=throttle_time_ms,
                results=[
                    DescribeConfigsResponseData.DescribeConfigsResult(
                        error_code=error.code,
                        error_message=error.message,
                        resource_name=r.resource_name,
                        resource_type=r.resource_type,
                    )
                    for r in self._data.resources
                ],
            )
        )
