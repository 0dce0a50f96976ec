"""Port of clients/src/main/java/org/apache/kafka/common/requests/IncrementalAlterConfigsRequest.java (Kafka 3.7).

IncrementalAlterConfigs: set, delete, append to or subtract from individual config entries.
"""

from __future__ import annotations

from kafka.common.message import IncrementalAlterConfigsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.incremental_alter_configs_response import IncrementalAlterConfigsResponse


class IncrementalAlterConfigsRequest(AbstractRequest[IncrementalAlterConfigsResponse]):
    API_KEY = ApiKeys.INCREMENTAL_ALTER_CONFIGS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> IncrementalAlterConfigsResponse:
        # PORT: as in Java, the throttle time is not set in this error response.
        api_error = ApiError.from_throwable(e)
        data = IncrementalAlterConfigsResponseData()
        for resource in self._data.resources:
            data.responses.append(
                IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse(
                    resource_name=resource.resource_name,
                    resource_type=resource.resource_type,
                    error_code=api_error.error.code,
                    error_message=api_error.message,
                )
            )
        return IncrementalAlterConfigsResponse(data)
