"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AlterConsumerGroupOffsetsHandler.java
(Kafka 3.7).

alterConsumerGroupOffsets: an OffsetCommit to the group's coordinator (as a simple group: no generation or
member id, so the group must have no active members). Each partition's error is the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.internals.coordinator_strategy import CoordinatorStrategy
from kafka.clients.admin.internals.request_builders import OffsetCommitRequestBuilder
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.message import OffsetCommitRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.offset_commit_response import OffsetCommitResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["AlterConsumerGroupOffsetsHandler"]

# Errors after which the commit is simply sent again.
_RETRY_ERRORS = frozenset({Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.REBALANCE_IN_PROGRESS})
# Errors after which the coordinator is looked up again.
_UNMAP_ERRORS = frozenset({Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR})
# Expected errors, reported per partition.
_GROUP_LEVEL_ERRORS = frozenset(
    {
        Errors.INVALID_GROUP_ID,
        Errors.INVALID_COMMIT_OFFSET_SIZE,
        Errors.GROUP_AUTHORIZATION_FAILED,
        Errors.GROUP_ID_NOT_FOUND,
        Errors.UNKNOWN_MEMBER_ID,
        Errors.STALE_MEMBER_EPOCH,
    }
)
_PARTITION_LEVEL_ERRORS = frozenset(
    {Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.OFFSET_METADATA_TOO_LARGE, Errors.TOPIC_AUTHORIZATION_FAILED}
)


class AlterConsumerGroupOffsetsHandler(Batched[CoordinatorKey, dict[TopicPartition, Errors]]):
    def __init__(
        self, group_id: str, offsets: Mapping[TopicPartition, OffsetAndMetadata], log_context: LogContext
    ) -> None:
        self._group_id = CoordinatorKey.by_group_id(group_id)
        self._offsets = dict(offsets)
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.AlterConsumerGroupOffsetsHandler")
        self._lookup_strategy = CoordinatorStrategy(CoordinatorType.GROUP, log_context)

    def api_name(self) -> str:
        return "offsetCommit"

    def lookup_strategy(self) -> AdminApiLookupStrategy[CoordinatorKey]:
        return self._lookup_strategy

    @staticmethod
    def new_future(group_id: str) -> SimpleAdminApiFuture[CoordinatorKey, dict[TopicPartition, Errors]]:
        return AdminApiFuture.for_keys([CoordinatorKey.by_group_id(group_id)])

    def _validate_keys(self, group_ids: Set[CoordinatorKey]) -> None:
        if set(group_ids) != {self._group_id}:
            raise ValueError(f"Received unexpected group ids {set(group_ids)} (expected only {{{self._group_id}}})")

    def build_batched_request(self, coordinator_id: int, group_ids: Set[CoordinatorKey]) -> OffsetCommitRequestBuilder:
        self._validate_keys(group_ids)
        offset_data: dict[str, Any] = {}
        for topic_partition, offset_and_metadata in self._offsets.items():
            topic = offset_data.get(topic_partition.topic)
            if topic is None:
                topic = offset_data[topic_partition.topic] = OffsetCommitRequestData.OffsetCommitRequestTopic(
                    name=topic_partition.topic
                )
            epoch = offset_and_metadata.leader_epoch
            topic.partitions.append(
                OffsetCommitRequestData.OffsetCommitRequestPartition(
                    committed_offset=offset_and_metadata.offset,
                    committed_leader_epoch=-1 if epoch is None else epoch,
                    committed_metadata=offset_and_metadata.metadata,
                    partition_index=topic_partition.partition,
                )
            )
        data = OffsetCommitRequestData(group_id=self._group_id.id_value, topics=list(offset_data.values()))
        return OffsetCommitRequestBuilder(data)

    def handle_response(
        self, coordinator: Node, group_ids: Set[CoordinatorKey], response: AbstractResponse
    ) -> ApiResult[CoordinatorKey, dict[TopicPartition, Errors]]:
        self._validate_keys(group_ids)
        assert isinstance(response, OffsetCommitResponse)
        groups_to_unmap: set[CoordinatorKey] = set()
        groups_to_retry: set[CoordinatorKey] = set()
        partition_results: dict[TopicPartition, Errors] = {}
        for topic in response.data.topics:
            for partition in topic.partitions:
                topic_partition = TopicPartition(topic.name, partition.partition_index)
                error = Errors.for_code(partition.error_code)
                if error is not Errors.NONE:
                    self._handle_error(
                        self._group_id, topic_partition, error, partition_results, groups_to_unmap, groups_to_retry
                    )
                else:
                    partition_results[topic_partition] = error
        if not groups_to_unmap and not groups_to_retry:
            return ApiResult.completed(self._group_id, partition_results)
        return ApiResult.unmapped(groups_to_unmap)

    def _handle_error(
        self,
        group_id: CoordinatorKey,
        topic_partition: TopicPartition,
        error: Errors,
        partition_results: dict[TopicPartition, Errors],
        groups_to_unmap: set[CoordinatorKey],
        groups_to_retry: set[CoordinatorKey],
    ) -> None:
        if error in _RETRY_ERRORS:
            self._log.debug(
                f"OffsetCommit request for group id {group_id.id_value} returned error {error.name}. Will retry."
            )
            groups_to_retry.add(group_id)
        elif error in _UNMAP_ERRORS:
            self._log.debug(
                f"OffsetCommit request for group id {group_id.id_value} returned error {error.name}. Will rediscover "
                "the coordinator and retry."
            )
            groups_to_unmap.add(group_id)
        elif error in _GROUP_LEVEL_ERRORS:
            self._log.debug(f"OffsetCommit request for group id {group_id.id_value} failed due to error {error.name}.")
            partition_results[topic_partition] = error
        elif error in _PARTITION_LEVEL_ERRORS:
            self._log.debug(
                f"OffsetCommit request for group id {group_id.id_value} and partition {topic_partition} failed due "
                f"to error {error.name}."
            )
            partition_results[topic_partition] = error
        else:
            self._log.error(
                f"OffsetCommit request for group id {group_id.id_value} and partition {topic_partition} failed due "
                f"to unexpected error {error.name}."
            )
            partition_results[topic_partition] = error
