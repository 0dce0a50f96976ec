"""RequestContext: parsing bodies with errors that name the request, and framing responses."""

from __future__ import annotations

import pytest

from kafka.common.errors import InvalidRequestException, NotCoordinatorException
from kafka.common.network.client_information import ClientInformation
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.heartbeat_request import HeartbeatRequest
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

from .request_fixtures import filled_request


def _context(header: RequestHeader) -> RequestContext:
    return RequestContext(
        header, "conn-1", "10.0.0.1", KafkaPrincipal.ANONYMOUS, "PLAINTEXT", "PLAINTEXT", ClientInformation.EMPTY, False
    )


def test_parse_request_reads_body_after_header() -> None:
    """The context parses the body that follows the header and reports its size."""
    header = RequestHeader.of(ApiKeys.HEARTBEAT, 4, "member", 11)
    body = filled_request(ApiKeys.HEARTBEAT, 4).write(4)
    buf = ByteBufferAccessor(header.write() + body)
    context = _context(RequestHeader.parse(buf))
    parsed = context.parse_request(buf)
    assert isinstance(parsed.request, HeartbeatRequest)
    assert parsed.size == len(body)
    assert (context.request_type(), context.request_version(), context.correlation_id()) == (12, 4, 11)


def test_malformed_body_names_the_request() -> None:
    """A body that cannot be read is an InvalidRequestException naming api key, version, connection and principal."""
    header = RequestHeader.of(ApiKeys.HEARTBEAT, 4, "member", 11)
    context = _context(header)
    with pytest.raises(InvalidRequestException) as info:
        context.parse_request(b"\x05ab")
    message = str(info.value)
    for part in ("HEARTBEAT", "apiVersion: 4", "conn-1", "PLAINTEXT", "User:ANONYMOUS"):
        assert part in message


def test_build_response_send_frames_with_response_header() -> None:
    """The response goes out framed with the response header version of the request's API and version."""
    header = RequestHeader.of(ApiKeys.HEARTBEAT, 4, "member", 11)
    context = _context(header)
    request = HeartbeatRequest(filled_request(ApiKeys.HEARTBEAT, 4), 4)
    response = request.get_error_response(NotCoordinatorException())
    frame = b"".join(bytes(p) for p in context.build_response_send(response))
    parsed = AbstractResponse.parse_response(ByteBufferAccessor(frame, 4), header)
    assert parsed.error_counts() == {Errors.NOT_COORDINATOR: 1}
    assert context.build_response_envelope_payload(response) == frame[4:]


def test_principal_and_client_information() -> None:
    """The anonymous principal prints as Kafka's and an empty client information is not known."""
    assert str(KafkaPrincipal.ANONYMOUS) == "User:ANONYMOUS"
    assert not ClientInformation.EMPTY.is_known()
    assert ClientInformation("librdkafka", "2.3.0").is_known()
