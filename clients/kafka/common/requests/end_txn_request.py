"""Port of clients/src/main/java/org/apache/kafka/common/requests/EndTxnRequest.java (Kafka 3.7).

EndTxn: a transactional producer commits or aborts its transaction.
"""

from __future__ import annotations

from kafka.common.message import EndTxnResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.end_txn_response import EndTxnResponse
from kafka.common.requests.transaction_result import TransactionResult


class EndTxnRequest(AbstractRequest[EndTxnResponse]):
    API_KEY = ApiKeys.END_TXN

    def result(self) -> TransactionResult:
        return TransactionResult.for_id(bool(self._data.committed))

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> EndTxnResponse:
        return EndTxnResponse(
            EndTxnResponseData(error_code=Errors.for_exception(e).code, throttle_time_ms=throttle_time_ms)
        )
