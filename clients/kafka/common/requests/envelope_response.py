"""Port of clients/src/main/java/org/apache/kafka/common/requests/EnvelopeResponse.java (Kafka 3.7).

The forwarded request's response (header and body), or an error of the forwarding itself.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import EnvelopeResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class EnvelopeResponse(AbstractResponse):
    API_KEY = ApiKeys.ENVELOPE

    @classmethod
    def of(cls, response_data: Any, error: Errors = Errors.NONE) -> EnvelopeResponse:
        return cls(EnvelopeResponseData(response_data=response_data, error_code=error.code))

    def response_data(self) -> Any:
        return self._data.response_data

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}
