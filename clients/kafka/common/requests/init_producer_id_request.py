"""Port of clients/src/main/java/org/apache/kafka/common/requests/InitProducerIdRequest.java (Kafka 3.7).

InitProducerId: an idempotent or transactional producer obtains its producer id and epoch.
"""

from __future__ import annotations

from kafka.common.message import InitProducerIdResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.init_producer_id_response import InitProducerIdResponse

NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1


class InitProducerIdRequest(AbstractRequest[InitProducerIdResponse]):
    API_KEY = ApiKeys.INIT_PRODUCER_ID

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> InitProducerIdResponse:
        # PORT: as in Java, the throttle time of this error response is always 0.
        return InitProducerIdResponse(
            InitProducerIdResponseData(
                error_code=Errors.for_exception(e).code,
                producer_id=NO_PRODUCER_ID,
                producer_epoch=NO_PRODUCER_EPOCH,
                throttle_time_ms=0,
            )
        )
