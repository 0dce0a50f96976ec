"""Port of clients/src/main/java/org/apache/kafka/common/requests/ControlledShutdownRequest.java (Kafka 3.7).

ControlledShutdown: a broker asks the controller to move leadership away before it stops.
"""

from __future__ import annotations

from kafka.common.message import ControlledShutdownResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.controlled_shutdown_response import ControlledShutdownResponse


class ControlledShutdownRequest(AbstractRequest[ControlledShutdownResponse]):
    API_KEY = ApiKeys.CONTROLLED_SHUTDOWN

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ControlledShutdownResponse:
        return ControlledShutdownResponse(ControlledShutdownResponseData(error_code=Errors.for_exception(e).code))
