"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreateDelegationTokenResponse.java (Kafka 3.7).

The new token: owner, requester (v3+), timestamps, id and HMAC, or an error.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import CreateDelegationTokenResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse

ANONYMOUS = ("User", "ANONYMOUS")
"""KafkaPrincipal.ANONYMOUS as (principal type, name)."""


def _type_and_name(principal: Any) -> tuple[str, str]:
    if isinstance(principal, tuple):
        return principal[0], principal[1]
    return principal.principal_type, principal.name


class CreateDelegationTokenResponse(AbstractResponse):
    API_KEY = ApiKeys.CREATE_DELEGATION_TOKEN
    CLIENT_THROTTLE_SINCE = 1

    @classmethod
    def prepare_response(
        cls,
        version: int,
        throttle_time_ms: int,
        error: Errors,
        owner: Any,
        token_requester: Any,
        issue_timestamp: int = -1,
        expiry_timestamp: int = -1,
        max_timestamp: int = -1,
        token_id: str = "",
        hmac: bytes = b"",
    ) -> CreateDelegationTokenResponse:
        """The response for a token; `owner` and `token_requester` are KafkaPrincipal-like objects or
        (type, name) pairs. Without token details it is an error response."""
        owner_type, owner_name = _type_and_name(owner)
        data = CreateDelegationTokenResponseData(
            throttle_time_ms=throttle_time_ms,
            error_code=error.code,
            principal_type=owner_type,
            principal_name=owner_name,
            issue_timestamp_ms=issue_timestamp,
            expiry_timestamp_ms=expiry_timestamp,
            max_timestamp_ms=max_timestamp,
            token_id=token_id,
            hmac=hmac,
        )
        if version > 2:
            data.token_requester_principal_type, data.token_requester_principal_name = _type_and_name(token_requester)
        return cls(data)

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}

    def has_error(self) -> bool:
        return self.error() is not Errors.NONE
