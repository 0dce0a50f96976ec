"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeDelegationTokenResponse.java (Kafka 3.7).

The described tokens (owner, requester v3+, timestamps, id, HMAC, renewers), or an error.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.common.message import DescribeDelegationTokenResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DescribeDelegationTokenResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_DELEGATION_TOKEN
    CLIENT_THROTTLE_SINCE = 1

    @classmethod
    def of(
        cls, version: int, throttle_time_ms: int, error: Errors, tokens: Iterable[Any] = ()
    ) -> DescribeDelegationTokenResponse:
        """The response for ready DescribedDelegationToken entries; their requester fields are cleared below v3,
        where the response has none."""
        described = []
        for token in tokens:
            if version <= 2:
                token.token_requester_principal_type = ""
                token.token_requester_principal_name = ""
            described.append(token)
        return cls(
            DescribeDelegationTokenResponseData(
                throttle_time_ms=throttle_time_ms, error_code=error.code, tokens=described
            )
        )

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}

    def tokens(self) -> list[Any]:
        return list(self._data.tokens)

    def has_error(self) -> bool:
        return self.error() is not Errors.NONE
