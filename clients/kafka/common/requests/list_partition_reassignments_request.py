"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListPartitionReassignmentsRequest.java (Kafka 3.7).

ListPartitionReassignments: the ongoing reassignments of some partitions (all when the list is null).
"""

from __future__ import annotations

from kafka.common.message import ListPartitionReassignmentsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.list_partition_reassignments_response import ListPartitionReassignmentsResponse


class ListPartitionReassignmentsRequest(AbstractRequest[ListPartitionReassignmentsResponse]):
    API_KEY = ApiKeys.LIST_PARTITION_REASSIGNMENTS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ListPartitionReassignmentsResponse:
        api_error = ApiError.from_throwable(e)
        topics = []
        if self._data.topics is not None:
            for topic in self._data.topics:
                topics.append(
                    ListPartitionReassignmentsResponseData.OngoingTopicReassignment(
                        name=topic.name,
                        partitions=[
                            ListPartitionReassignmentsResponseData.OngoingPartitionReassignment(partition_index=p)
                            for p in topic.partition_indexes
                        ],
                    )
                )
        return ListPartitionReassignmentsResponse(
            ListPartitionReassignmentsResponseData(
                topics=topics,
                error_code=api_error.error.code,
                error_message=api_error.message,
                throttle_time_ms=throttle_time_ms,
            )
        )
