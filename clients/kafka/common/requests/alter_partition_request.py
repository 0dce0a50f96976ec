"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterPartitionRequest.java (Kafka 3.7).

AlterPartition: a partition leader asks the controller to change the ISR (with broker epochs from v3).
"""

from __future__ import annotations

from kafka.common.message import AlterPartitionResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_partition_response import AlterPartitionResponse


class AlterPartitionRequest(AbstractRequest[AlterPartitionResponse]):
    API_KEY = ApiKeys.ALTER_PARTITION

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AlterPartitionResponse:
        return AlterPartitionResponse(
            AlterPartitionResponseData(throttle_time_ms=throttle_time_ms, error_code=Errors.for_exception(e).code)
        )
