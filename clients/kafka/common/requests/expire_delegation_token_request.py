"""Port of clients/src/main/java/org/apache/kafka/common/requests/ExpireDelegationTokenRequest.java (Kafka 3.7).

ExpireDelegationToken: change when a token expires (a negative period expires it now).
"""

from __future__ import annotations

from kafka.common.message import ExpireDelegationTokenResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.expire_delegation_token_response import ExpireDelegationTokenResponse


class ExpireDelegationTokenRequest(AbstractRequest[ExpireDelegationTokenResponse]):
    API_KEY = ApiKeys.EXPIRE_DELEGATION_TOKEN

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ExpireDelegationTokenResponse:
        return ExpireDelegationTokenResponse(
            ExpireDelegationTokenResponseData(
                error_code=Errors.for_exception(e).code, throttle_time_ms=throttle_time_ms
            )
        )
