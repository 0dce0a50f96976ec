"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/DeleteConsumerGroupsHandler.java
(Kafka 3.7).

deleteConsumerGroups: DeleteGroups to each group's coordinator, for all its groups in one request.
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
from kafka.common.message import DeleteGroupsRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.delete_groups_request import DeleteGroupsRequest
from kafka.common.requests.delete_groups_response import DeleteGroupsResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.utils.log_context import LogContext

__all__ = ["DeleteConsumerGroupsHandler"]


class DeleteConsumerGroupsHandler(Batched[CoordinatorKey, None]):
    def __init__(self, log_context: LogContext) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.DeleteConsumerGroupsHandler")
        self._lookup_strategy = CoordinatorStrategy(CoordinatorType.GROUP, log_context)

    def api_name(self) -> str:
        return "deleteConsumerGroups"

    def lookup_strategy(self) -> AdminApiLookupStrategy[CoordinatorKey]:
        return self._lookup_strategy

    @staticmethod
    def new_future(group_ids: Iterable[str]) -> SimpleAdminApiFuture[CoordinatorKey, None]:
        return AdminApiFuture.for_keys({CoordinatorKey.by_group_id(g) for g in group_ids})

    def build_batched_request(self, coordinator_id: int, keys: Set[CoordinatorKey]) -> DataBuilder[Any]:
        data = DeleteGroupsRequestData(groups_names=[k.id_value for k in keys])
        return DataBuilder(DeleteGroupsRequest, data)

    def handle_response(
        self, coordinator: Node, group_ids: Set[CoordinatorKey], response: AbstractResponse
    ) -> ApiResult[CoordinatorKey, None]:
        assert isinstance(response, DeleteGroupsResponse)
        completed: dict[CoordinatorKey, None] = {}
        failed: dict[CoordinatorKey, BaseException] = {}
        groups_to_unmap: set[CoordinatorKey] = set()
        for deleted_group in response.data.results:
            group_id_key = CoordinatorKey.by_group_id(deleted_group.group_id)
            error = Errors.for_code(deleted_group.error_code)
            if error is not Errors.NONE:
                self._handle_error(group_id_key, error, failed, groups_to_unmap)
                continue
            completed[group_id_key] = None
        return ApiResult(completed, failed, tuple(groups_to_unmap))

    def _handle_error(
        self,
        group_id: CoordinatorKey,
        error: Errors,
        failed: dict[CoordinatorKey, BaseException],
        groups_to_unmap: set[CoordinatorKey],
    ) -> None:
        if error in (
            Errors.GROUP_AUTHORIZATION_FAILED,
            Errors.INVALID_GROUP_ID,
            Errors.NON_EMPTY_GROUP,
            Errors.GROUP_ID_NOT_FOUND,
        ):
            self._log.debug(
                f"`DeleteConsumerGroups` request for group id {group_id.id_value} failed due to error {error.name}"
            )
            failed[group_id] = _exception(error)
        elif error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            self._log.debug(
                f"`DeleteConsumerGroups` request for group id {group_id.id_value} failed because the coordinator is "
                "still in the process of loading state. Will retry"
            )
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            self._log.debug(
                f"`DeleteConsumerGroups` request for group id {group_id.id_value} returned error {error.name}. Will "
                "attempt to find the coordinator again and retry"
            )
            groups_to_unmap.add(group_id)
        else:
            self._log.error(
                f"`DeleteConsumerGroups` request for group id {group_id.id_value} failed due to unexpected error "
                f"{error.name}"
            )
            failed[group_id] = _exception(error)
