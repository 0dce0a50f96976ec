"""Port of clients/src/main/java/org/apache/kafka/common/requests/ConsumerGroupHeartbeatRequest.java (Kafka 3.7).

ConsumerGroupHeartbeat: the heartbeat of the new consumer group protocol (KIP-848).
"""

from __future__ import annotations

from kafka.common.message import ConsumerGroupHeartbeatResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse

LEAVE_GROUP_MEMBER_EPOCH = -1
"""The member epoch with which a member leaves the group."""
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2
"""The member epoch with which a static member leaves temporarily."""


class ConsumerGroupHeartbeatRequest(AbstractRequest[ConsumerGroupHeartbeatResponse]):
    API_KEY = ApiKeys.CONSUMER_GROUP_HEARTBEAT

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ConsumerGroupHeartbeatResponse:
        return ConsumerGroupHeartbeatResponse(
            ConsumerGroupHeartbeatResponseData(
                throttle_time_ms=throttle_time_ms, error_code=Errors.for_exception(e).code
            )
        )
