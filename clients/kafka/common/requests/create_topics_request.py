"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreateTopicsRequest.java (Kafka 3.7).

CreateTopics: topics with a partition count and replication factor, or explicit assignments, and configs;
optionally only validated.
"""

from __future__ import annotations

from kafka.common.message import CreateTopicsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.create_topics_response import CreateTopicsResponse

NO_NUM_PARTITIONS = -1
NO_REPLICATION_FACTOR = -1


class CreateTopicsRequest(AbstractRequest[CreateTopicsResponse]):
    API_KEY = ApiKeys.CREATE_TOPICS
    NO_NUM_PARTITIONS = NO_NUM_PARTITIONS
    NO_REPLICATION_FACTOR = NO_REPLICATION_FACTOR

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> CreateTopicsResponse:
        data = CreateTopicsResponseData()
        if self._version >= 2:
            data.throttle_time_ms = throttle_time_ms
        api_error = ApiError.from_throwable(e)
        for topic in self._data.topics:
            data.topics.append(
                CreateTopicsResponseData.CreatableTopicResult(
                    name=topic.name, error_code=api_error.error.code, error_message=api_error.message
                )
            )
        return CreateTopicsResponse(data)
