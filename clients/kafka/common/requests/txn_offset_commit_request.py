"""Port of clients/src/main/java/org/apache/kafka/common/requests/TxnOffsetCommitRequest.java (Kafka 3.7).

TxnOffsetCommit: a transactional producer commits consumer offsets as part of its transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import TxnOffsetCommitRequestData, TxnOffsetCommitResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.join_group_request import UNKNOWN_GENERATION_ID, UNKNOWN_MEMBER_ID
from kafka.common.requests.txn_offset_commit_response import TxnOffsetCommitResponse
from kafka.common.topic_partition import TopicPartition

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


class TxnOffsetCommitRequestBuilder(Builder[TxnOffsetCommitRequest]):
    """Port of TxnOffsetCommitRequest.Builder: the request of a transactional producer's pending offsets; the
    consumer group metadata (v3+) refuses older versions."""

    def __init__(
        self,
        transactional_id: str,
        consumer_group_id: str,
        producer_id: int,
        producer_epoch: int,
        pending_txn_offset_commits: Mapping[TopicPartition, CommittedOffset],
        member_id: str = UNKNOWN_MEMBER_ID,
        generation_id: int = UNKNOWN_GENERATION_ID,
        group_instance_id: str | None = None,
    ) -> None:
        super().__init__(ApiKeys.TXN_OFFSET_COMMIT)
        self.data = TxnOffsetCommitRequestData(
            transactional_id=transactional_id,
            group_id=consumer_group_id,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            topics=self.get_topics(pending_txn_offset_commits),
            member_id=member_id,
            generation_id=generation_id,
            group_instance_id=group_instance_id,
        )

    @staticmethod
    def get_topics(pending_txn_offset_commits: Mapping[TopicPartition, CommittedOffset]) -> list[Any]:
        by_topic: dict[str, list[Any]] = {}
        for tp, offset in pending_txn_offset_commits.items():
            by_topic.setdefault(tp.topic, []).append(
                TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition(
                    partition_index=tp.partition,
                    committed_offset=offset.offset,
                    committed_leader_epoch=NO_PARTITION_LEADER_EPOCH
                    if offset.leader_epoch is None
                    else offset.leader_epoch,
                    committed_metadata=offset.metadata,
                )
            )
        return [
            TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic(name=topic, partitions=partitions)
            for topic, partitions in by_topic.items()
        ]

    def _group_metadata_set(self) -> bool:
        return (
            self.data.member_id != UNKNOWN_MEMBER_ID
            or self.data.generation_id != UNKNOWN_GENERATION_ID
            or self.data.group_instance_id is not None
        )

    def _build(self, version: int) -> TxnOffsetCommitRequest:
        if version < 3 and self._group_metadata_set():
            raise UnsupportedVersionException(
                f"Broker doesn't support group metadata commit API on version {version}, minimum supported request "
                "version is 3 which requires brokers to be on version 2.5 or above."
            )
        return TxnOffsetCommitRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)
