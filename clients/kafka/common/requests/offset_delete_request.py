"""Port of clients/src/main/java/org/apache/kafka/common/requests/OffsetDeleteRequest.java (Kafka 3.7).

OffsetDelete: remove committed offsets of partitions a group no longer consumes.
"""

from __future__ import annotations

from kafka.common.message import OffsetDeleteResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.offset_delete_response import OffsetDeleteResponse


class OffsetDeleteRequest(AbstractRequest[OffsetDeleteResponse]):
    API_KEY = ApiKeys.OFFSET_DELETE

    def get_error_response_for(self, throttle_time_ms: int, error: Errors) -> OffsetDeleteResponse:
        """The error response for `error` (Java's getErrorResponse(int, Errors))."""
        return OffsetDeleteResponse(OffsetDeleteResponseData(throttle_time_ms=throttle_time_ms, error_code=error.code))

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> OffsetDeleteResponse:
        return self.get_error_response_for(throttle_time_ms, Errors.for_exception(e))
