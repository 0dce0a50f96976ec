"""Port of clients/src/main/java/org/apache/kafka/common/requests/TxnOffsetCommitRequest.java (Kafka 3.7).

TxnOffsetCommit: a transactional producer commits consumer offsets as part of its transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kafka.common.message import TxnOffsetCommitResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.txn_offset_commit_response import TxnOffsetCommitResponse

NO_PARTITION_LEADER_EPOCH = -1


@dataclass(frozen=True, slots=True)
class CommittedOffset:
    offset: int
    metadata: str | None
    leader_epoch: int | None


class TxnOffsetCommitRequest(AbstractRequest[TxnOffsetCommitResponse]):
    API_KEY = ApiKeys.TXN_OFFSET_COMMIT

    def offsets(self) -> dict[tuple[str, int], CommittedOffset]:
        """The offset to commit for each (topic, partition)."""
        return {
            (topic.name, p.partition_index): CommittedOffset(
                p.committed_offset,
                p.committed_metadata,
                None if p.committed_leader_epoch == NO_PARTITION_LEADER_EPOCH else p.committed_leader_epoch,
            )
            for topic in self._data.topics
            for p in topic.partitions
        }

    @staticmethod
    def get_error_response_topics(request_topics: Iterable[Any], error: Errors) -> list[Any]:
        return [
            TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic(
                name=topic.name,
                partitions=[
                    TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition(
                        partition_index=p.partition_index, error_code=error.code
                    )
                    for p in topic.partitions
                ],
            )
            for topic in request_topics
        ]

    @staticmethod
    def get_error_response_data(request: Any, error: Errors) -> Any:
        """Response data that gives `error` for every partition of `request` (TxnOffsetCommitRequestData)."""
        return TxnOffsetCommitResponseData(
            topics=TxnOffsetCommitRequest.get_error_response_topics(request.topics, error)
        )

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> TxnOffsetCommitResponse:
        return TxnOffsetCommitResponse(
            TxnOffsetCommitResponseData(
                throttle_time_ms=throttle_time_ms,
                topics=self.get_error_response_topics(self._data.topics, Errors.for_exception(e)),
            )
        )
