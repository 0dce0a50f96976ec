"""Port of clients/src/main/java/org/apache/kafka/common/requests/SaslAuthenticateRequest.java (Kafka 3.7).

SaslAuthenticate: one SASL token from the client, after a v1 SaslHandshake.
"""

from __future__ import annotations

from kafka.common.message import SaslAuthenticateResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.sasl_authenticate_response import SaslAuthenticateResponse


class SaslAuthenticateRequest(AbstractRequest[SaslAuthenticateResponse]):
    API_KEY = ApiKeys.SASL_AUTHENTICATE

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> SaslAuthenticateResponse:
        api_error = ApiError.from_throwable(e)
        return SaslAuthenticateResponse(
            SaslAuthenticateResponseData(error_code=api_error.error.code, error_message=api_error.message)
        )
