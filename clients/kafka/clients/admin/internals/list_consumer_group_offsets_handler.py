"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/ListConsumerGroupOffsetsHandler.java
(Kafka 3.7).

listConsumerGroupOffsets: OffsetFetch to each group's coordinator, for all its groups in one request (v8+); once
a broker refuses batching, one request per group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set

from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import AdminApiHandler, ApiResult, RequestAndKeys
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.internals.coordinator_strategy import CoordinatorStrategy
from kafka.clients.admin.internals.describe_consumer_groups_handler import _exception
from kafka.clients.admin.internals.request_builders import OffsetFetchRequestBuilder
from kafka.clients.admin.list_consumer_group_offsets_spec import ListConsumerGroupOffsetsSpec
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.offset_fetch_response import OffsetFetchResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["ListConsumerGroupOffsetsHandler"]

GroupOffsets = dict[TopicPartition, OffsetAndMetadata | None]


class ListConsumerGroupOffsetsHandler(AdminApiHandler[CoordinatorKey, GroupOffsets]):
    def __init__(
        self, group_specs: Mapping[str, ListConsumerGroupOffsetsSpec], require_stable: bool, log_context: LogContext
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.ListConsumerGroupOffsetsHandler")
        self._lookup_strategy = CoordinatorStrategy(CoordinatorType.GROUP, log_context)
        self._group_specs = dict(group_specs)
        self._require_stable = require_stable

    @staticmethod
    def new_future(group_ids: Iterable[str]) -> SimpleAdminApiFuture[CoordinatorKey, GroupOffsets]:
        return AdminApiFuture.for_keys(_coordinator_keys(group_ids))

    def api_name(self) -> str:
        return "offsetFetch"

    def lookup_strategy(self) -> AdminApiLookupStrategy[CoordinatorKey]:
        return self._lookup_strategy

    def _validate_keys(self, group_ids: Set[CoordinatorKey]) -> None:
        keys = _coordinator_keys(self._group_specs)
        if not set(group_ids) <= keys:
            raise ValueError(f"Received unexpected group ids {set(group_ids)} (expected one of {keys})")

    def build_batched_request(self, group_ids: Set[CoordinatorKey]) -> OffsetFetchRequestBuilder:
        # Only the groups this coordinator owns.
        group_id_to_topic_partitions: dict[str, list[TopicPartition] | None] = {}
        for g in group_ids:
            partitions = self._group_specs[g.id_value].topic_partitions()
            group_id_to_topic_partitions[g.id_value] = None if partitions is None else list(partitions)
        return OffsetFetchRequestBuilder(group_id_to_topic_partitions, self._require_stable, False)

    def build_request(self, broker_id: int, group_ids: Set[CoordinatorKey]) -> list[RequestAndKeys[CoordinatorKey]]:
        self._validate_keys(group_ids)
        # Once OffsetFetch batching failed (NoBatchedOffsetFetchRequestException), batching is off everywhere,
        # FindCoordinator included.
        if self._lookup_strategy.batch:
            return [RequestAndKeys(self.build_batched_request(group_ids), frozenset(group_ids))]
        return [RequestAndKeys(self.build_batched_request({g}), frozenset([g])) for g in group_ids]

    def handle_response(
        self, coordinator: Node, group_ids: Set[CoordinatorKey], response: AbstractResponse
    ) -> ApiResult[CoordinatorKey, GroupOffsets]:
        self._validate_keys(group_ids)
        assert isinstance(response, OffsetFetchResponse)
        completed: dict[CoordinatorKey, GroupOffsets] = {}
        failed: dict[CoordinatorKey, BaseException] = {}
        unmapped: list[CoordinatorKey] = []
        for coordinator_key in group_ids:
            group = coordinator_key.id_value
            if response.group_has_error(group):
                error = response.group_level_error(group)
                assert error is not None
                self._handle_group_error(CoordinatorKey.by_group_id(group), error, failed, unmapped)
                continue
            group_offsets_listing: GroupOffsets = {}
            for (topic, partition), partition_data in response.partition_data_map(group).items():
                topic_partition = TopicPartition(topic, partition)
                error = partition_data.error
                if error is Errors.NONE:
                    # A negative offset: nothing committed for this partition.
                    if partition_data.offset < 0:
                        group_offsets_listing[topic_partition] = None
                    else:
                        group_offsets_listing[topic_partition] = OffsetAndMetadata(
                            partition_data.offset, partition_data.metadata, leader_epoch=partition_data.leader_epoch
                        )
                else:
                    self._log.warn(f"Skipping return offset for {topic_partition} due to error {error.name}.")
            completed[CoordinatorKey.by_group_id(group)] = group_offsets_listing
        return ApiResult(completed, failed, tuple(unmapped))

    def _handle_group_error(
        self,
        group_id: CoordinatorKey,
        error: Errors,
        failed: dict[CoordinatorKey, BaseException],
        groups_to_unmap: list[CoordinatorKey],
    ) -> None:
        if error in (Errors.GROUP_AUTHORIZATION_FAILED, Errors.UNKNOWN_MEMBER_ID, Errors.STALE_MEMBER_EPOCH):
            self._log.debug(f"`OffsetFetch` request for group id {group_id.id_value} failed due to error {error.name}")
            failed[group_id] = _exception(error)
        elif error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            self._log.debug(
                f"`OffsetFetch` request for group id {group_id.id_value} failed because the coordinator is still in "
                "the process of loading state. Will retry"
            )
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            self._log.debug(
                f"`OffsetFetch` request for group id {group_id.id_value} returned error {error.name}. Will attempt to "
                "find the coordinator again and retry"
            )
            groups_to_unmap.append(group_id)
        else:
            self._log.error(
                f"`OffsetFetch` request for group id {group_id.id_value} failed due to unexpected error {error.name}"
            )
            failed[group_id] = _exception(error)


def _coordinator_keys(group_ids: Iterable[str]) -> set[CoordinatorKey]:
    return {CoordinatorKey.by_group_id(g) for g in group_ids}
