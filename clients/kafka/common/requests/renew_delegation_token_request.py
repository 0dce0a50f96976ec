"""Port of clients/src/main/java/org/apache/kafka/common/requests/RenewDelegationTokenRequest.java (Kafka 3.7).

RenewDelegationToken: extend a token's expiry, identified by its HMAC.
"""

from __future__ import annotations

from kafka.common.message import RenewDelegationTokenResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.renew_delegation_token_response import RenewDelegationTokenResponse


class RenewDelegationTokenRequest(AbstractRequest[RenewDelegationTokenResponse]):
    API_KEY = ApiKeys.RENEW_DELEGATION_TOKEN

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> RenewDelegationTokenResponse:
        return RenewDelegationTokenResponse(
            RenewDelegationTokenResponseData(throttle_time_ms=throttle_time_ms, error_code=Errors.for_exception(e).code)
        )
