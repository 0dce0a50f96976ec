"""Port of clients/src/main/java/org/apache/kafka/common/requests/SaslAuthenticateResponse.java (Kafka 3.7).

The broker's SASL token, or an error with a message; from v1 the session lifetime.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class SaslAuthenticateResponse(AbstractResponse):
    API_KEY = ApiKeys.SASL_AUTHENTICATE

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}

    def error_message(self) -> str | None:
        return self._data.error_message

    def session_lifetime_ms(self) -> int:
        return int(self._data.session_lifetime_ms)

    def sasl_auth_bytes(self) -> bytes:
        return bytes(self._data.auth_bytes)
