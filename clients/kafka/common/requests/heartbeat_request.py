"""Port of clients/src/main/java/org/apache/kafka/common/requests/HeartbeatRequest.java (Kafka 3.7).

Heartbeat: a group member tells the coordinator it is alive and learns whether a rebalance is under way.
"""

from __future__ import annotations

from kafka.common.message import HeartbeatResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.heartbeat_response import HeartbeatResponse


class HeartbeatRequest(AbstractRequest[HeartbeatResponse]):
    API_KEY = ApiKeys.HEARTBEAT

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> HeartbeatResponse:
        data = HeartbeatResponseData(error_code=Errors.for_exception(e).code)
        if self._version >= 1:
            data.throttle_time_ms = throttle_time_ms
        return HeartbeatResponse(data)
