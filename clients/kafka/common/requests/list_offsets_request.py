"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListOffsetsRequest.java (Kafka 3.7).

ListOffsets: for each partition, the offset for a timestamp, or the earliest/latest/max-timestamp offset
given by the negative sentinels below.
"""

from __future__ import annotations

from typing import Any

from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import ListOffsetsRequestData, ListOffsetsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.list_offsets_response import UNKNOWN_OFFSET, UNKNOWN_TIMESTAMP, ListOffsetsResponse

EARLIEST_TIMESTAMP = -2
LATEST_TIMESTAMP = -1
MAX_TIMESTAMP = -3
EARLIEST_LOCAL_TIMESTAMP = -4
CONSUMER_REPLICA_ID = -1
DEBUGGING_REPLICA_ID = -2


class ListOffsetsRequest(AbstractRequest[ListOffsetsResponse]):
    API_KEY = ApiKeys.LIST_OFFSETS

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        seen: set[tuple[str, int]] = set()
        self._duplicate_partitions: set[tuple[str, int]] = set()
        for topic in data.topics:
            for partition in topic.partitions:
                tp = (topic.name, partition.partition_index)
                if tp in seen:
                    self._duplicate_partitions.add(tp)
                seen.add(tp)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ListOffsetsResponse:
        error_code = Errors.for_exception(e).code
        topics = []
        for topic in self._data.topics:
            partitions = []
            for partition in topic.partitions:
                response = ListOffsetsResponseData.ListOffsetsPartitionResponse(
                    error_code=error_code, partition_index=partition.partition_index
                )
                if self._version == 0:
                    response.old_style_offsets = []
                else:
                    response.offset = UNKNOWN_OFFSET
                    response.timestamp = UNKNOWN_TIMESTAMP
                partitions.append(response)
            topics.append(ListOffsetsResponseData.ListOffsetsTopicResponse(name=topic.name, partitions=partitions))
        return ListOffsetsResponse(ListOffsetsResponseData(throttle_time_ms=throttle_time_ms, topics=topics))

    def replica_id(self) -> int:
        return int(self._data.replica_id)

    def isolation_level(self) -> IsolationLevel:
        return IsolationLevel.for_id(self._data.isolation_level)

    def topics(self) -> list[Any]:
        return list(self._data.topics)

    def duplicate_partitions(self) -> set[tuple[str, int]]:
        """The (topic, partition) pairs that the request names more than once."""
        return self._duplicate_partitions

    @staticmethod
    def singleton_request_data(topic: str, partition_index: int, timestamp: int, max_num_offsets: int) -> Any:
        return ListOffsetsRequestData.ListOffsetsTopic(
            name=topic,
            partitions=[
                ListOffsetsRequestData.ListOffsetsPartition(
                    partition_index=partition_index, timestamp=timestamp, max_num_offsets=max_num_offsets
                )
            ],
        )
