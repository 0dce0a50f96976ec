"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/DeleteConsumerGroupOffsetsHandler.java
(Kafka 3.7).

deleteConsumerGroupOffsets: an OffsetDelete to the group's coordinator; the result is each partition's error.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.internals.coordinator_strategy import CoordinatorStrategy
from kafka.clients.admin.internals.describe_consumer_groups_handler import _exception
from kafka.common.message import OffsetDeleteRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.offset_delete_request import OffsetDeleteRequest
from kafka.common.requests.offset_delete_response import OffsetDeleteResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["DeleteConsumerGroupOffsetsHandler"]


class DeleteConsumerGroupOffsetsHandler(Batched[CoordinatorKey, dict[TopicPartition, Errors]]):
    def __init__(self, group_id: str, partitions: Iterable[TopicPartition], log_context: LogContext) -> None:
        self._group_id = CoordinatorKey.by_group_id(group_id)
        self._partitions = list(dict.fromkeys(partitions))
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.DeleteConsumerGroupOffsetsHandler")
        self._lookup_strategy = CoordinatorStrategy(CoordinatorType.GROUP, log_context)

    def api_name(self) -> str:
        return "offsetDelete"

    def lookup_strategy(self) -> AdminApiLookupStrategy[CoordinatorKey]:
        return self._lookup_strategy

    @staticmethod
    def new_future(group_id: str) -> SimpleAdminApiFuture[CoordinatorKey, dict[TopicPartition, Errors]]:
        return AdminApiFuture.for_keys([CoordinatorKey.by_group_id(group_id)])

    def _validate_keys(self, group_ids: Set[CoordinatorKey]) -> None:
        if set(group_ids) != {self._group_id}:
            raise ValueError(f"Received unexpected group ids {set(group_ids)} (expected only {{{self._group_id}}})")

    def build_batched_request(self, coordinator_id: int, group_ids: Set[CoordinatorKey]) -> DataBuilder[Any]:
        self._validate_keys(group_ids)
        by_topic: dict[str, list[int]] = {}
        for tp in self._partitions:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        data = OffsetDeleteRequestData(group_id=self._group_id.id_value)
        for topic, partitions in by_topic.items():
            data.topics.append(
                OffsetDeleteRequestData.OffsetDeleteRequestTopic(
                    name=topic,
                    partitions=[
                        OffsetDeleteRequestData.OffsetDeleteRequestPartition(partition_index=p) for p in partitions
                    ],
                )
            )
        return DataBuilder(OffsetDeleteRequest, data)

    def handle_response(
        self, coordinator: Node, group_ids: Set[CoordinatorKey], response: AbstractResponse
    ) -> ApiResult[CoordinatorKey, dict[TopicPartition, Errors]]:
        self._validate_keys(group_ids)
        assert isinstance(response, OffsetDeleteResponse)
        error = Errors.for_code(response.data.error_code)
        if error is not Errors.NONE:
            failed: dict[CoordinatorKey, BaseException] = {}
            groups_to_unmap: set[CoordinatorKey] = set()
            self._handle_group_error(self._group_id, error, failed, groups_to_unmap)
            return ApiResult({}, failed, tuple(groups_to_unmap))
        partition_results = {
            TopicPartition(topic.name, partition.partition_index): Errors.for_code(partition.error_code)
            for topic in response.data.topics
            for partition in topic.partitions
        }
        return ApiResult.completed(self._group_id, partition_results)

    def _handle_group_error(
        self,
        group_id: CoordinatorKey,
        error: Errors,
        failed: dict[CoordinatorKey, BaseException],
        groups_to_unmap: set[CoordinatorKey],
    ) -> None:
        if error in (
            Errors.GROUP_AUTHORIZATION_FAILED,
            Errors.GROUP_ID_NOT_FOUND,
            Errors.INVALID_GROUP_ID,
            Errors.NON_EMPTY_GROUP,
        ):
            self._log.debug(
                f"`OffsetDelete` request for group id {group_id.id_value} failed due to error {error.name}."
            )
            failed[group_id] = _exception(error)
        elif error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            self._log.debug(
                f"`OffsetDelete` request for group id {group_id.id_value} failed because the coordinator is still in "
                "the process of loading state. Will retry."
            )
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            self._log.debug(
                f"`OffsetDelete` request for group id {group_id.id_value} returned error {error.name}. Will attempt "
                "to find the coordinator again and retry."
            )
            groups_to_unmap.add(group_id)
        else:
            self._log.error(
                f"`OffsetDelete` request for group id {group_id.id_value} failed due to unexpected error {error.name}."
            )
            failed[group_id] = _exception(error)
