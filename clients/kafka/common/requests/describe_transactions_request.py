"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeTransactionsRequest.java (Kafka 3.7).

DescribeTransactions: the state of transactions by transactional id.
"""

from __future__ import annotations

from kafka.common.message import DescribeTransactionsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.describe_transactions_response import DescribeTransactionsResponse


class DescribeTransactionsRequest(AbstractRequest[DescribeTransactionsResponse]):
    API_KEY = ApiKeys.DESCRIBE_TRANSACTIONS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeTransactionsResponse:
        error = Errors.for_exception(e)
        data = DescribeTransactionsResponseData(throttle_time_ms=throttle_time_ms)
        for transactional_id in self._data.transactional_ids:
            data.transaction_states.append(
                DescribeTransactionsResponseData.TransactionState(
                    transactional_id=transactional_id, error_code=error.code
                )
            )
        return DescribeTransactionsResponse(data)
