"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreatePartitionsRequest.java (Kafka 3.7).

CreatePartitions: raise the partition count of topics, optionally with the new replicas' assignment.
"""

from __future__ import annotations

from kafka.common.message import CreatePartitionsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.create_partitions_response import CreatePartitionsResponse


class CreatePartitionsRequest(AbstractRequest[CreatePartitionsResponse]):
    API_KEY = ApiKeys.CREATE_PARTITIONS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> CreatePartitionsResponse:
        api_error = ApiError.from_throwable(e)
        data = CreatePartitionsResponseData(throttle_time_ms=throttle_time_ms)
        for topic in self._data.topics:
            data.results.append(
                CreatePartitionsResponseData.CreatePartitionsTopicResult(
                    name=topic.name, error_code=api_error.error.code, error_message=api_error.message
                )
            )
        return CreatePartitionsResponse(data)
