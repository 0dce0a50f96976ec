"""Port of clients/src/main/java/org/apache/kafka/common/requests/RenewDelegationTokenResponse.java (Kafka 3.7).

The token's new expiry timestamp, or an error.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class RenewDelegationTokenResponse(AbstractResponse):
    API_KEY = ApiKeys.RENEW_DELEGATION_TOKEN
    CLIENT_THROTTLE_SINCE = 1

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}

    def expiry_timestamp(self) -> int:
        return int(self._data.expiry_timestamp_ms)

    def has_error(self) -> bool:
        return self.error() is not Errors.NONE
