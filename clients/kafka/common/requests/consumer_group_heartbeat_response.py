"""Port of clients/src/main/java/org/apache/kafka/common/requests/ConsumerGroupHeartbeatResponse.java (Kafka 3.7).

The member's id, epoch, heartbeat interval and assignment, or an error.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ConsumerGroupHeartbeatResponse(AbstractResponse):
    API_KEY = ApiKeys.CONSUMER_GROUP_HEARTBEAT

    def error_counts(self) -> dict[Errors, int]:
        return {Errors.for_code(self._data.error_code): 1}
