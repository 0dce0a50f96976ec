"""Port of clients/src/main/java/org/apache/kafka/clients/ClientResponse.java (Kafka 3.7).

What a KafkaClient returns from poll for each finished request: the response body, or the reason there is
none (the connection was lost, the request timed out, no version both sides know, authentication failed),
with the request's header, destination and latency.
"""

from __future__ import annotations

from kafka.clients.request_completion_handler import RequestCompletionCallback
from kafka.common.errors import AuthenticationException, UnsupportedVersionException
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.request_header import RequestHeader

__all__ = ["ClientResponse"]


class ClientResponse:
    """The outcome of one ClientRequest. Immutable."""

    __slots__ = (
        "_request_header",
        "_callback",
        "_destination",
        "_received_time_ms",
        "_latency_ms",
        "_disconnected",
        "_timed_out",
        "_version_mismatch",
        "_authentication_exception",
        "_response_body",
    )

    def __init__(
        self,
        request_header: RequestHeader,
        callback: RequestCompletionCallback | None,
        destination: str,
        created_time_ms: int,
        received_time_ms: int,
        disconnected: bool,
        version_mismatch: UnsupportedVersionException | None,
        authentication_exception: AuthenticationException | None,
        response_body: AbstractResponse | None,
        timed_out: bool = False,
    ) -> None:
        """# PORT: Java has a nine- and a ten-argument constructor, the latter with `timed_out` after
        `disconnected`; here `timed_out` is a trailing keyword. A timed-out response must be disconnected."""
        if not disconnected and timed_out:
            raise RuntimeError("The client response can't be in the state of connected, yet timed out")
        self._request_header = request_header
        self._callback = callback
        self._destination = destination
        self._received_time_ms = received_time_ms
        self._latency_ms = received_time_ms - created_time_ms
        self._disconnected = disconnected
        self._timed_out = timed_out
        self._version_mismatch = version_mismatch
        self._authentication_exception = authentication_exception
        self._response_body = response_body

    @property
    def received_time_ms(self) -> int:
        return self._received_time_ms

    @property
    def was_disconnected(self) -> bool:
        """Whether the connection was closed (or the request timed out) before the response was read."""
        return self._disconnected

    @property
    def was_timed_out(self) -> bool:
        return self._timed_out

    @property
    def version_mismatch(self) -> UnsupportedVersionException | None:
        """Set when the request could not be sent because the node supports no usable version."""
        return self._version_mismatch

    @property
    def authentication_exception(self) -> AuthenticationException | None:
        return self._authentication_exception

    @property
    def request_header(self) -> RequestHeader:
        return self._request_header

    @property
    def destination(self) -> str:
        return self._destination

    @property
    def response_body(self) -> AbstractResponse | None:
        return self._response_body

    @property
    def has_response(self) -> bool:
        return self._response_body is not None

    @property
    def request_latency_ms(self) -> int:
        return self._latency_ms

    @property
    def callback(self) -> RequestCompletionCallback | None:
        return self._callback

    def on_complete(self) -> None:
        """Runs the request's callback, if it has one."""
        if self._callback is not None:
            self._callback(self)

    def __str__(self) -> str:
        return (
            f"ClientResponse(receivedTimeMs={self._received_time_ms}, latencyMs={self._latency_ms}, "
            f"disconnected={str(self._disconnected).lower()}, timedOut={str(self._timed_out).lower()}, "
            f"requestHeader={self._request_header}, responseBody={self._response_body})"
        )

    __repr__ = __str__
