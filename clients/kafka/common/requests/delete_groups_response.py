"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteGroupsResponse.java (Kafka 3.7).

An error per group.
"""

from __future__ import annotations

from kafka.common.errors import InvalidRequestException
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DeleteGroupsResponse(AbstractResponse):
    API_KEY = ApiKeys.DELETE_GROUPS
    CLIENT_THROTTLE_SINCE = 1

    def errors(self) -> dict[str, Errors]:
        return {r.group_id: Errors.for_code(r.error_code) for r in self._data.results}

    def get(self, group: str) -> Errors:
        result = self._data.results.find(group)
        if result is None:
            raise InvalidRequestException(f"Can't find group {group}")
        return Errors.for_code(result.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(r.error_code for r in self._data.results)

    def has_error(self, group: str) -> bool:
        return self.get(group) is not Errors.NONE
