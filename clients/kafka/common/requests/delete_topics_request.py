"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteTopicsRequest.java (Kafka 3.7).

DeleteTopics: topics by name (v0-5) or by name or id (v6+).
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import DeleteTopicsRequestData, DeleteTopicsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.delete_topics_response import DeleteTopicsResponse


class DeleteTopicsRequest(AbstractRequest[DeleteTopicsResponse]):
    API_KEY = ApiKeys.DELETE_TOPICS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DeleteTopicsResponse:
        data = DeleteTopicsResponseData()
        if self._version >= 1:
            data.throttle_time_ms = throttle_time_ms
        api_error = ApiError.from_throwable(e)
        for topic in self.topics():
            data.responses.append(
                DeleteTopicsResponseData.DeletableTopicResult(
                    name=topic.name, topic_id=topic.topic_id, error_code=api_error.error.code
                )
            )
        return DeleteTopicsResponse(data)

    def topic_names(self) -> list[str | None]:
        if self._version >= 6:
            return [t.name for t in self._data.topics]
        return list(self._data.topic_names)

    def number_of_topics(self) -> int:
        return len(self._data.topics) if self._version >= 6 else len(self._data.topic_names)

    def topic_ids(self) -> list[Any]:
        if self._version >= 6:
            return [t.topic_id for t in self._data.topics]
        return []

    def topics(self) -> list[Any]:
        """The topics in the v6 layout (name and id), whatever the version."""
        if self._version >= 6:
            return list(self._data.topics)
        return [
            DeleteTopicsRequestData.DeleteTopicState(name=name, topic_id=ZERO_UUID) for name in self._data.topic_names
        ]
