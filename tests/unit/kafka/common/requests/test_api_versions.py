"""ApiVersions: unknown versions answered in the v0 layout, old librdkafka's trailing bytes, the broker's table."""

from __future__ import annotations

import struct

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import ApiVersionsRequestData, ListenerType
from kafka.common.network.client_information import ClientInformation
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.response_header import ResponseHeader
from kafka.common.security.auth.kafka_principal import KafkaPrincipal


def _context(header: RequestHeader) -> RequestContext:
    return RequestContext(
        header,
        "127.0.0.1:9092-127.0.0.1:50000-0",
        "127.0.0.1",
        KafkaPrincipal.ANONYMOUS,
        "PLAINTEXT",
        "PLAINTEXT",
        ClientInformation.EMPTY,
        False,
    )


def test_v0_request_with_trailing_zero_bytes_parses() -> None:
    """librdkafka before 1.4 sends four zero bytes after an ApiVersions v0 header; the request still parses."""
    parsed = AbstractRequest.parse_request(ApiKeys.API_VERSIONS, 0, b"\x00\x00\x00\x00")
    assert isinstance(parsed.request, ApiVersionsRequest)
    assert parsed.request.version == 0
    assert parsed.size == 4


def test_unsupported_version_is_answered_in_v0_layout() -> None:
    """A version newer than the broker knows becomes a v0 request remembering the version; the error response
    is UNSUPPORTED_VERSION in the v0 layout, listing the versions of ApiVersions."""
    header = RequestHeader.of(ApiKeys.API_VERSIONS, 9, "future-client", 3)
    body = b"\x07garbage-the-broker-cannot-read"
    buf = ByteBufferAccessor(header.write() + body)
    parsed_header = RequestHeader.parse(buf)
    context = _context(parsed_header)
    request_and_size = context.parse_request(buf)
    request = request_and_size.request
    assert isinstance(request, ApiVersionsRequest)
    assert (request.version, request.unsupported_request_version, request_and_size.size) == (0, 9, 0)
    assert context.api_version() == 0
    response = request.get_error_response(UnsupportedVersionException("too new"))
    frame = b"".join(bytes(p) for p in context.build_response_send(response))
    (size,) = struct.unpack(">i", frame[:4])
    assert size == len(frame) - 4
    accessor = ByteBufferAccessor(frame, 4)
    assert ResponseHeader.parse(accessor, 0).correlation_id == 3
    error_code, n, key, lo, hi = struct.unpack_from(">hihhh", frame, accessor.position)
    assert (error_code, n) == (Errors.UNSUPPORTED_VERSION.code, 1)
    assert (key, lo, hi) == (18, ApiKeys.API_VERSIONS.oldest_version, ApiKeys.API_VERSIONS.latest_version(True))
    assert len(frame) == accessor.position + 12


def test_response_parse_falls_back_to_v0() -> None:
    """A client reading a v3 response that the broker wrote as v0 (unsupported version) falls back to v0."""
    response = ApiVersionsRequest(ApiVersionsRequestData(), 0).get_error_response(UnsupportedVersionException())
    wire = response.serialize(0)
    parsed = AbstractResponse.parse_response(ApiKeys.API_VERSIONS, wire, 3)
    assert isinstance(parsed, ApiVersionsResponse)
    assert parsed.error_counts() == {Errors.UNSUPPORTED_VERSION: 1}
    assert parsed.api_version(18).max_version == 3


def test_is_valid_checks_client_software_from_v3() -> None:
    """From v3 the client software name and version must be letters, digits, '-' and '.', and start and end with
    a letter or digit."""
    good = ApiVersionsRequestData(client_software_name="apache-kafka-java", client_software_version="3.7.0")
    bad = ApiVersionsRequestData(client_software_name="-bad", client_software_version="1.0")
    empty = ApiVersionsRequestData(client_software_name="", client_software_version="1.0")
    assert ApiVersionsRequest(good, 3).is_valid()
    assert not ApiVersionsRequest(bad, 3).is_valid()
    assert not ApiVersionsRequest(empty, 3).is_valid()
    assert ApiVersionsRequest(bad, 2).is_valid()


def test_default_api_versions_response_lists_every_zk_api() -> None:
    """The default table lists each zkBroker API with its full range, skipping only ones without a stable version."""
    response = ApiVersionsResponse.default_api_versions_response()
    listed = {v.api_key: (v.min_version, v.max_version) for v in response.data.api_keys}
    expected = {k.id: (k.oldest_version, k.latest_version()) for k in ApiKeys if k.has_valid_version()}
    assert listed == expected
    assert ApiKeys.CONSUMER_GROUP_DESCRIBE.id not in listed
    wire = response.serialize(3)
    assert AbstractResponse.parse_response(ApiKeys.API_VERSIONS, wire, 3).data == response.data


def test_filter_apis_by_record_version() -> None:
    """With a message format below v2 the transactional APIs are left out."""
    keys = {v.api_key for v in ApiVersionsResponse.filter_apis(1, ListenerType.ZK_BROKER)}
    assert ApiKeys.END_TXN.id not in keys
    assert ApiKeys.PRODUCE.id in keys


def test_intersect_forwardable_apis() -> None:
    """A forwardable API is limited to the versions the controller serves; others keep the broker's range."""
    controller = {ApiKeys.CREATE_TOPICS: ApiVersionsResponse.to_api_version(ApiKeys.CREATE_TOPICS)}
    controller[ApiKeys.CREATE_TOPICS].max_version = 4
    apis = ApiVersionsResponse.intersect_forwardable_apis(ListenerType.ZK_BROKER, 2, controller)
    by_key = {v.api_key: v for v in apis}
    assert by_key[ApiKeys.CREATE_TOPICS.id].max_version == 4
    assert ApiKeys.DELETE_TOPICS.id not in by_key
    assert by_key[ApiKeys.PRODUCE.id].max_version == ApiKeys.PRODUCE.latest_version()
