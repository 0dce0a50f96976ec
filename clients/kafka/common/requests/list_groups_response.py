"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListGroupsResponse.java (Kafka 3.7).

The groups with their protocol type (and state, v4+), and an error code.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ListGroupsResponse(AbstractResponse):
    API_KEY = ApiKeys.LIST_GROUPS
    CLIENT_THROTTLE_SINCE = 2

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}
