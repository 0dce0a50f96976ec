"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterConfigsRequest.java (Kafka 3.7).

AlterConfigs: replace the whole config of resources (deprecated in favour of IncrementalAlterConfigs).
"""

from __future__ import annotations

from kafka.common.message import AlterConfigsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_configs_response import AlterConfigsResponse
from kafka.common.requests.api_error import ApiError


class AlterConfigsRequest(AbstractRequest[AlterConfigsResponse]):
    API_KEY = ApiKeys.ALTER_CONFIGS

    def validate_only(self) -> bool:
        return bool(self._data.validate_only)

    def configs(self) -> dict[tuple[int, str], dict[str, str | None]]:
        """The new config of each (resource type, resource name)."""
        return {(r.resource_type, r.resource_name): {c.name: c.value for c in r.configs} for r in self._data.resources}

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AlterConfigsResponse:
        error = ApiError.from_throwable(e)
        data = AlterConfigsResponseData(throttle_time_ms=throttle_time_ms)
        for resource in self._data.resources:
            data.responses.append(
                AlterConfigsResponseData.AlterConfigsResourceResponse(
                    resource_type=resource.resource_type,
                    resource_name=resource.resource_name,
                    error_message=error.message,
                    error_code=error.error.code,
                )
            )
        return AlterConfigsResponse(data)
