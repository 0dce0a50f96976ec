"""Port of clients/src/main/java/org/apache/kafka/common/requests/SyncGroupResponse.java (Kafka 3.7).

The member's assignment, or an error.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class SyncGroupResponse(AbstractResponse):
    API_KEY = ApiKeys.SYNC_GROUP
    CLIENT_THROTTLE_SINCE = 2

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}
