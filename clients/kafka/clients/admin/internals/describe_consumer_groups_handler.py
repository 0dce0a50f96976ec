"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/DescribeConsumerGroupsHandler.java
(Kafka 3.7).

describeConsumerGroups: DescribeGroups to each group's coordinator, for all its groups in one request.

The admin client's describeTopics and describeCluster use `valid_acl_operations` too, so the modules only a
DescribeGroups response needs (the consumer protocol, the member classes) are imported where it is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from kafka.clients.admin.consumer_group_description import ConsumerGroupDescription
from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.internals.coordinator_strategy import CoordinatorStrategy
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.metadata_response import AUTHORIZED_OPERATIONS_OMITTED
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["DescribeConsumerGroupsHandler", "valid_acl_operations"]


def valid_acl_operations(authorized_operations: int) -> frozenset[AclOperation] | None:
    """The operations of an authorized-operations bit field (None when the broker left it out); the UNKNOWN, ALL
    and ANY pseudo-operations are dropped."""
    if authorized_operations == AUTHORIZED_OPERATIONS_OMITTED:
        return None
    ops = set()
    for bit in range(32):
        if authorized_operations & (1 << bit):
            op = AclOperation.from_code(bit)
            if op not in (AclOperation.UNKNOWN, AclOperation.ALL, AclOperation.ANY):
                ops.add(op)
    return frozenset(ops)


class DescribeConsumerGroupsHandler(Batched[CoordinatorKey, ConsumerGroupDescription]):
    def __init__(self, include_authorized_operations: bool, log_context: LogContext) -> None:
        self._include_authorized_operations = include_authorized_operations
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.DescribeConsumerGroupsHandler")
        self._lookup_strategy = CoordinatorStrategy(CoordinatorType.GROUP, log_context)

    @staticmethod
    def new_future(group_ids: Iterable[str]) -> SimpleAdminApiFuture[CoordinatorKey, ConsumerGroupDescription]:
        return AdminApiFuture.for_keys({CoordinatorKey.by_group_id(g) for g in group_ids})

    def api_name(self) -> str:
        return "describeGroups"

    def lookup_strategy(self) -> AdminApiLookupStrategy[CoordinatorKey]:
        return self._lookup_strategy

    def build_batched_request(self, coordinator_id: int, keys: Set[CoordinatorKey]) -> DataBuilder[Any]:
        from kafka.common.message import DescribeGroupsRequestData
        from kafka.common.requests.describe_groups_request import DescribeGroupsRequest

        group_ids = []
        for key in keys:
            if key.type is not CoordinatorType.GROUP:
                raise ValueError(f"Invalid transaction coordinator key {key} when building `DescribeGroups` request")
            group_ids.append(key.id_value)
        data = DescribeGroupsRequestData(
            groups=group_ids, include_authorized_operations=self._include_authorized_operations
        )
        return DataBuilder(DescribeGroupsRequest, data)

    def handle_response(
        self, coordinator: Node, group_ids: Set[CoordinatorKey], response: AbstractResponse
    ) -> ApiResult[CoordinatorKey, ConsumerGroupDescription]:
        from kafka.clients.admin.member_assignment import MemberAssignment
        from kafka.clients.admin.member_description import MemberDescription
        from kafka.clients.consumer.internals import consumer_protocol
        from kafka.common.consumer_group_state import ConsumerGroupState
        from kafka.common.requests.describe_groups_response import DescribeGroupsResponse

        assert isinstance(response, DescribeGroupsResponse)
        completed: dict[CoordinatorKey, ConsumerGroupDescription] = {}
        failed: dict[CoordinatorKey, BaseException] = {}
        groups_to_unmap: set[CoordinatorKey] = set()
        for described_group in response.data.groups:
            group_id_key = CoordinatorKey.by_group_id(described_group.group_id)
            error = Errors.for_code(described_group.error_code)
            if error is not Errors.NONE:
                self._handle_error(group_id_key, error, failed, groups_to_unmap)
                continue
            protocol_type = described_group.protocol_type
            if protocol_type == consumer_protocol.PROTOCOL_TYPE or protocol_type == "":
                authorized_operations = valid_acl_operations(described_group.authorized_operations)
                member_descriptions = []
                for group_member in described_group.members:
                    partitions: frozenset[TopicPartition] = frozenset()
                    if len(group_member.member_assignment) > 0:
                        assignment = consumer_protocol.deserialize_assignment(bytes(group_member.member_assignment))
                        partitions = frozenset(assignment.partitions)
                    member_descriptions.append(
                        MemberDescription(
                            group_member.member_id,
                            group_member.group_instance_id,
                            group_member.client_id,
                            group_member.client_host,
                            MemberAssignment(partitions),
                        )
                    )
                completed[group_id_key] = ConsumerGroupDescription(
                    group_id_key.id_value,
                    protocol_type == "",
                    member_descriptions,
                    described_group.protocol_data,
                    ConsumerGroupState.parse(described_group.group_state),
                    coordinator,
                    authorized_operations,
                )
            else:
                failed[group_id_key] = ValueError(
                    f"GroupId {group_id_key.id_value} is not a consumer group ({protocol_type})."
                )
        return ApiResult(completed, failed, tuple(groups_to_unmap))

    def _handle_error(
        self,
        group_id: CoordinatorKey,
        error: Errors,
        failed: dict[CoordinatorKey, BaseException],
        groups_to_unmap: set[CoordinatorKey],
    ) -> None:
        if error is Errors.GROUP_AUTHORIZATION_FAILED:
            self._log.debug(
                f"`DescribeGroups` request for group id {group_id.id_value} failed due to error {error.name}"
            )
            failed[group_id] = _exception(error)
        elif error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            # The coordinator is loading the group: ask it again.
            self._log.debug(
                f"`DescribeGroups` request for group id {group_id.id_value} failed because the coordinator is still "
                "in the process of loading state. Will retry"
            )
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            # The coordinator moved or is unavailable: find it again.
            self._log.debug(
                f"`DescribeGroups` request for group id {group_id.id_value} returned error {error.name}. Will attempt "
                "to find the coordinator again and retry"
            )
            groups_to_unmap.add(group_id)
        else:
            self._log.error(
                f"`DescribeGroups` request for group id {group_id.id_value} failed due to unexpected error {error.name}"
            )
            failed[group_id] = _exception(error)


def _exception(error: Errors, message: str | None = None) -> BaseException:
    exc = error.exception(message)
    assert exc is not None
    return exc
