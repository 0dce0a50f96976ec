"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreatePartitionsResponse.java (Kafka 3.7).

An error and message per topic.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class CreatePartitionsResponse(AbstractResponse):
    API_KEY = ApiKeys.CREATE_PARTITIONS
    CLIENT_THROTTLE_SINCE = 1

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(r.error_code for r in self._data.results)
