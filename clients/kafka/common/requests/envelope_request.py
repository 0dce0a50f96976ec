"""Port of clients/src/main/java/org/apache/kafka/common/requests/EnvelopeRequest.java (Kafka 3.7).

Envelope: a broker forwards a client's request (header and body, unparsed) to the controller, with the
client's principal and address.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import EnvelopeResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.envelope_response import EnvelopeResponse


class EnvelopeRequest(AbstractRequest[EnvelopeResponse]):
    API_KEY = ApiKeys.ENVELOPE

    def request_data(self) -> Any:
        """The forwarded request: header and body, without a size prefix."""
        return self._data.request_data

    def client_address(self) -> bytes:
        """The client's IP address as raw bytes (4 for IPv4, 16 for IPv6)."""
        return bytes(self._data.client_host_address)

    def request_principal(self) -> bytes | None:
        return None if self._data.request_principal is None else bytes(self._data.request_principal)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> EnvelopeResponse:
        return EnvelopeResponse(EnvelopeResponseData(error_code=Errors.for_exception(e).code))
