"""Port of clients/src/main/java/org/apache/kafka/clients/ClientRequest.java (Kafka 3.7).

A request as handed to a KafkaClient: where it goes, a builder that makes the request body once the
version is negotiated, its correlation id and client id, when it was created, its timeout, and the
callback for its response.
"""

from __future__ import annotations

from typing import Any

from kafka.clients.request_completion_handler import RequestCompletionCallback
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.request_header import RequestHeader

__all__ = ["ClientRequest"]


class ClientRequest:
    """One request to one node (`destination` is the node's id string). Immutable."""

    __slots__ = (
        "_destination",
        "_request_builder",
        "_correlation_id",
        "_client_id",
        "_created_time_ms",
        "_expect_response",
        "_request_timeout_ms",
        "_callback",
    )

    def __init__(
        self,
        destination: str,
        request_builder: Builder[Any],
        correlation_id: int,
        client_id: str | None,
        created_time_ms: int,
        expect_response: bool,
        request_timeout_ms: int,
        callback: RequestCompletionCallback | None,
    ) -> None:
        """`expect_response` False means the request is complete once sent (produce with acks=0);
        `callback` may be None."""
        self._destination = destination
        self._request_builder = request_builder
        self._correlation_id = correlation_id
        self._client_id = client_id
        self._created_time_ms = created_time_ms
        self._expect_response = expect_response
        self._request_timeout_ms = request_timeout_ms
        self._callback = callback

    @property
    def expect_response(self) -> bool:
        return self._expect_response

    @property
    def api_key(self) -> ApiKeys:
        return self._request_builder.api_key

    def make_header(self, version: int) -> RequestHeader:
        """The request header for sending this request at `version`."""
        return RequestHeader.of(self.api_key, version, self._client_id, self._correlation_id)

    @property
    def request_builder(self) -> Builder[Any]:
        return self._request_builder

    @property
    def destination(self) -> str:
        return self._destination

    @property
    def callback(self) -> RequestCompletionCallback | None:
        return self._callback

    @property
    def created_time_ms(self) -> int:
        return self._created_time_ms

    @property
    def correlation_id(self) -> int:
        return self._correlation_id

    @property
    def client_id(self) -> str | None:
        return self._client_id

    @property
    def request_timeout_ms(self) -> int:
        return self._request_timeout_ms

    def __str__(self) -> str:
        return (
            f"ClientRequest(expectResponse={str(self._expect_response).lower()}, callback={self._callback}, "
            f"destination={self._destination}, correlationId={self._correlation_id}, clientId={self._client_id}, "
            f"createdTimeMs={self._created_time_ms}, requestBuilder={self._request_builder})"
        )

    __repr__ = __str__
