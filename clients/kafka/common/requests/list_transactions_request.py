"""Port of clients/src/main/java/org/apache/kafka/common/requests/ListTransactionsRequest.java (Kafka 3.7).

ListTransactions: the transactions a coordinator knows, filtered by state and producer id.
"""

from __future__ import annotations

from kafka.common.message import ListTransactionsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.list_transactions_response import ListTransactionsResponse


class ListTransactionsRequest(AbstractRequest[ListTransactionsResponse]):
    API_KEY = ApiKeys.LIST_TRANSACTIONS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ListTransactionsResponse:
        return ListTransactionsResponse(
            ListTransactionsResponseData(error_code=Errors.for_exception(e).code, throttle_time_ms=throttle_time_ms)
        )
