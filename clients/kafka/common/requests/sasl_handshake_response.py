"""Port of clients/src/main/java/org/apache/kafka/common/requests/SaslHandshakeResponse.java (Kafka 3.7).

An error code and the mechanisms the broker has enabled.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class SaslHandshakeResponse(AbstractResponse):
    API_KEY = ApiKeys.SASL_HANDSHAKE

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}

    def enabled_mechanisms(self) -> list[str]:
        return list(self._data.mechanisms)
