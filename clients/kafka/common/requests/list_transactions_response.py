"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListTransactionsResponse.java (Kafka 3.7).

The matching transactions, the state filters the coordinator did not know, or an error.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ListTransactionsResponse(AbstractResponse):
    API_KEY = ApiKeys.LIST_TRANSACTIONS

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}
