"""Port of clients/src/main/java/org/apache/kafka/common/requests/AllocateProducerIdsRequest.java (Kafka 3.7).

AllocateProducerIds: a broker asks the controller for a block of producer ids.
"""

from __future__ import annotations

from kafka.common.message import AllocateProducerIdsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.allocate_producer_ids_response import AllocateProducerIdsResponse


class AllocateProducerIdsRequest(AbstractRequest[AllocateProducerIdsResponse]):
    API_KEY = ApiKeys.ALLOCATE_PRODUCER_IDS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AllocateProducerIdsResponse:
        return AllocateProducerIdsResponse(
            AllocateProducerIdsResponseData(throttle_time_ms=throttle_time_ms, error_code=Errors.for_exception(e).code)
        )
