"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListOffsetsResponse.java (Kafka 3.7).

The offset (and its timestamp and leader epoch) found for each requested partition; v0 returns a list
of old-style offsets instead.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import ListOffsetsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse

UNKNOWN_TIMESTAMP = -1
UNKNOWN_OFFSET = -1
UNKNOWN_EPOCH = -1


class ListOffsetsResponse(AbstractResponse):
    API_KEY = ApiKeys.LIST_OFFSETS
    CLIENT_THROTTLE_SINCE = 3

    def topics(self) -> list[Any]:
        return list(self._data.topics)

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.topics for p in t.partitions)

    @staticmethod
    def singleton_list_offsets_topic_response(
        tp: tuple[str, int], error: Errors, timestamp: int, offset: int, epoch: int
    ) -> Any:
        return ListOffsetsResponseData.ListOffsetsTopicResponse(
            name=tp[0],
            partitions=[
                ListOffsetsResponseData.ListOffsetsPartitionResponse(
                    partition_index=tp[1], error_code=error.code, timestamp=timestamp, offset=offset, leader_epoch=epoch
                )
            ],
        )
