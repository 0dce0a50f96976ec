"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterConfigsResponse.java (Kafka 3.7).

An error and message per resource.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_error import ApiError


class AlterConfigsResponse(AbstractResponse):
    API_KEY = ApiKeys.ALTER_CONFIGS
    CLIENT_THROTTLE_SINCE = 1

    def errors(self) -> dict[tuple[int, str], ApiError]:
        """The error of each (resource type, resource name)."""
        return {
            (r.resource_type, r.resource_name): ApiError(Errors.for_code(r.error_code), r.error_message)
            for r in self._data.responses
        }

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(r.error_code for r in self._data.responses)
