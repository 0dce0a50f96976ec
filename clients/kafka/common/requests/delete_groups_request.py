"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteGroupsRequest.java (Kafka 3.7).

DeleteGroups: remove empty consumer groups and their offsets.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.common.message import DeleteGroupsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.delete_groups_response import DeleteGroupsResponse


class DeleteGroupsRequest(AbstractRequest[DeleteGroupsResponse]):
    API_KEY = ApiKeys.DELETE_GROUPS

    @staticmethod
    def get_error_result_collection(group_ids: Iterable[str], error: Errors) -> Any:
        return DeleteGroupsResponseData.DeletableGroupResultCollection(
            DeleteGroupsResponseData.DeletableGroupResult(group_id=g, error_code=error.code) for g in group_ids
        )

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DeleteGroupsResponse:
        return DeleteGroupsResponse(
            DeleteGroupsResponseData(
                results=self.get_error_result_collection(self._data.groups_names, Errors.for_exception(e)),
                throttle_time_ms=throttle_time_ms,
            )
        )
