"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeTransactionsResponse.java (Kafka 3.7).

Per transactional id: an error or the transaction's state, producer and partitions.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DescribeTransactionsResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_TRANSACTIONS

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(s.error_code for s in self._data.transaction_states)
