"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterPartitionReassignmentsRequest.java (Kafka 3.7).

AlterPartitionReassignments: start reassigning partitions to new replicas, or cancel (null replicas).
"""

from __future__ import annotations

from kafka.common.message import AlterPartitionReassignmentsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_partition_reassignments_response import AlterPartitionReassignmentsResponse
from kafka.common.requests.api_error import ApiError


class AlterPartitionReassignmentsRequest(AbstractRequest[AlterPartitionReassignmentsResponse]):
    API_KEY = ApiKeys.ALTER_PARTITION_REASSIGNMENTS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AlterPartitionReassignmentsResponse:
        api_error = ApiError.from_throwable(e)
        topics = [
            AlterPartitionReassignmentsResponseData.ReassignableTopicResponse(
                name=topic.name,
                partitions=[
                    AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse(
                        partition_index=p.partition_index,
                        error_code=api_error.error.code,
                        error_message=api_error.message,
                    )
                    for p in topic.partitions
                ],
            )
            for topic in self._data.topics
        ]
        return AlterPartitionReassignmentsResponse(
            AlterPartitionReassignmentsResponseData(
                responses=topics,
                error_code=api_error.error.code,
                error_message=api_error.message,
                throttle_time_ms=throttle_time_ms,
            )
        )
