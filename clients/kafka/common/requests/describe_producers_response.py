"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeProducersResponse.java (Kafka 3.7).

Per partition: an error or the active producers' state.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DescribeProducersResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_PRODUCERS

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.topics for p in t.partitions)
