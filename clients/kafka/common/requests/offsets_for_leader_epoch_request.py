"""Port of clients/src/main/java/org/apache/kafka/common/requests/OffsetsForLeaderEpochRequest.java (Kafka 3.7).

OffsetForLeaderEpoch: followers (and consumers, v3+) ask where a leader epoch ends in the leader's log,
to truncate divergent data.
"""

from __future__ import annotations

from kafka.common.message import OffsetForLeaderEpochResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.offsets_for_leader_epoch_response import (
    UNDEFINED_EPOCH,
    UNDEFINED_EPOCH_OFFSET,
    OffsetsForLeaderEpochResponse,
)

CONSUMER_REPLICA_ID = -1
"""The replica id of a consumer (v3+)."""
DEBUGGING_REPLICA_ID = -2
"""The replica id that v0-2 requests, which have none, are given."""


class OffsetsForLeaderEpochRequest(AbstractRequest[OffsetsForLeaderEpochResponse]):
    API_KEY = ApiKeys.OFFSET_FOR_LEADER_EPOCH

    def replica_id(self) -> int:
        return int(self._data.replica_id)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> OffsetsForLeaderEpochResponse:
        # PORT: as in Java, the throttle time is not set in this error response.
        error = Errors.for_exception(e)
        data = OffsetForLeaderEpochResponseData()
        for topic in self._data.topics:
            data.topics.append(
                OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult(
                    topic=topic.topic,
                    partitions=[
                        OffsetForLeaderEpochResponseData.EpochEndOffset(
                            partition=p.partition,
                            error_code=error.code,
                            leader_epoch=UNDEFINED_EPOCH,
                            end_offset=UNDEFINED_EPOCH_OFFSET,
                        )
                        for p in topic.partitions
                    ],
                )
            )
        return OffsetsForLeaderEpochResponse(data)
