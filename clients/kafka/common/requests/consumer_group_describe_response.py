"""Port of clients/src/main/java/org/apache/kafka/common/requests/ConsumerGroupDescribeResponse.java (Kafka 3.7).

Per group: an error or its state, epochs, assignor and members.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ConsumerGroupDescribeResponse(AbstractResponse):
    API_KEY = ApiKeys.CONSUMER_GROUP_DESCRIBE

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(g.error_code for g in self._data.groups)
