"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreateDelegationTokenRequest.java (Kafka 3.7).

CreateDelegationToken: a token for the caller (or, v3+, for another owner) with its renewers.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.create_delegation_token_response import ANONYMOUS, CreateDelegationTokenResponse


class CreateDelegationTokenRequest(AbstractRequest[CreateDelegationTokenResponse]):
    API_KEY = ApiKeys.CREATE_DELEGATION_TOKEN

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> CreateDelegationTokenResponse:
        return CreateDelegationTokenResponse.prepare_response(
            self._version, throttle_time_ms, Errors.for_exception(e), ANONYMOUS, ANONYMOUS
        )
