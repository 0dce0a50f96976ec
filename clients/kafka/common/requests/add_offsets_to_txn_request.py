"""Port of clients/src/main/java/org/apache/kafka/common/requests/AddOffsetsToTxnRequest.java (Kafka 3.7).

AddOffsetsToTxn: a transactional producer adds a consumer group's offsets topic partition to its
transaction before committing offsets in it.
"""

from __future__ import annotations

from kafka.common.message import AddOffsetsToTxnResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.add_offsets_to_txn_response import AddOffsetsToTxnResponse


class AddOffsetsToTxnRequest(AbstractRequest[AddOffsetsToTxnResponse]):
    API_KEY = ApiKeys.ADD_OFFSETS_TO_TXN

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AddOffsetsToTxnResponse:
        return AddOffsetsToTxnResponse(
            AddOffsetsToTxnResponseData(error_code=Errors.for_exception(e).code, throttle_time_ms=throttle_time_ms)
        )
