"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreateTopicsResponse.java (Kafka 3.7).

Per topic: an error and message, and from v5 the resulting partition count, replication factor and configs.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class CreateTopicsResponse(AbstractResponse):
    API_KEY = ApiKeys.CREATE_TOPICS
    CLIENT_THROTTLE_SINCE = 3

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(t.error_code for t in self._data.topics)
