"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteTopicsResponse.java (Kafka 3.7).

One error (and, v5+, message) per topic.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DeleteTopicsResponse(AbstractResponse):
    API_KEY = ApiKeys.DELETE_TOPICS
    CLIENT_THROTTLE_SINCE = 2

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(t.error_code for t in self._data.responses)
