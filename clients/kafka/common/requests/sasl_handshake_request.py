"""Port of clients/src/main/java/org/apache/kafka/common/requests/SaslHandshakeRequest.java (Kafka 3.7).

SaslHandshake: the client names the SASL mechanism it wants; v1 wraps the tokens that follow in
SaslAuthenticate requests.
"""

from __future__ import annotations

from kafka.common.message import SaslHandshakeResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.sasl_handshake_response import SaslHandshakeResponse


class SaslHandshakeRequest(AbstractRequest[SaslHandshakeResponse]):
    API_KEY = ApiKeys.SASL_HANDSHAKE

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> SaslHandshakeResponse:
        return SaslHandshakeResponse(SaslHandshakeResponseData(error_code=ApiError.from_throwable(e).error.code))
