"""Port of clients/src/main/java/org/apache/kafka/common/requests/OffsetCommitRequest.java (Kafka 3.7).

OffsetCommit: a consumer group member stores the offsets it has consumed up to.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import OffsetCommitResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.offset_commit_response import OffsetCommitResponse

DEFAULT_GENERATION_ID = -1
DEFAULT_MEMBER_ID = ""
DEFAULT_RETENTION_TIME = -1
DEFAULT_TIMESTAMP = -1
"""The commit timestamp of v1 when the client gives none."""


class OffsetCommitRequest(AbstractRequest[OffsetCommitResponse]):
    API_KEY = ApiKeys.OFFSET_COMMIT

    def offsets(self) -> dict[tuple[str, int], int]:
        """The committed offset of each (topic, partition)."""
        return {
            (topic.name, partition.partition_index): partition.committed_offset
            for topic in self._data.topics
            for partition in topic.partitions
        }

    @staticmethod
    def get_error_response_data(request: Any, error: Errors) -> Any:
        """Response data that gives `error` for every partition of `request` (OffsetCommitRequestData)."""
        response = OffsetCommitResponseData()
        for topic in request.topics:
            response.topics.append(
                OffsetCommitResponseData.OffsetCommitResponseTopic(
                    name=topic.name,
                    partitions=[
                        OffsetCommitResponseData.OffsetCommitResponsePartition(
                            partition_index=p.partition_index, error_code=error.code
                        )
                        for p in topic.partitions
                    ],
                )
            )
        return response

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> OffsetCommitResponse:
        data = self.get_error_response_data(self._data, Errors.for_exception(e))
        data.throttle_time_ms = throttle_time_ms
        return OffsetCommitResponse(data)
