"""RequestHeader and ResponseHeader: layouts per header version, parsing, and malformed headers."""

from __future__ import annotations

import struct

import pytest

from kafka.common.errors import InvalidRequestException
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.response_header import ResponseHeader


def test_request_header_v0_round_trip() -> None:
    """ControlledShutdown v0 uses header v0: key, version and correlation id only, no client id."""
    header = RequestHeader.of(ApiKeys.CONTROLLED_SHUTDOWN, 0, "ignored", 10)
    assert header.header_version == 0
    wire = header.write()
    assert wire == struct.pack(">hhi", 7, 0, 10)
    parsed = RequestHeader.parse(wire)
    assert parsed.api_key is ApiKeys.CONTROLLED_SHUTDOWN
    assert parsed.correlation_id == 10
    assert parsed.client_id == ""
    assert parsed.size == 8


def test_request_header_v1_round_trip() -> None:
    """A non-flexible version uses header v1 with a nullable string client id."""
    header = RequestHeader.of(ApiKeys.FETCH, 11, "consumer-1", 42)
    assert header.header_version == 1
    wire = header.write()
    assert wire == struct.pack(">hhih", 1, 11, 42, 10) + b"consumer-1"
    parsed = RequestHeader.parse(wire)
    assert parsed == header
    assert (parsed.api_version, parsed.client_id, parsed.size) == (11, "consumer-1", len(wire))


def test_request_header_v2_round_trip_with_null_client_id() -> None:
    """A flexible version uses header v2: the client id stays a classic nullable string, then tagged fields;
    a null client id is read back as the empty string."""
    header = RequestHeader.of(ApiKeys.METADATA, 12, None, 7)
    assert header.header_version == 2
    wire = header.write()
    assert wire == struct.pack(">hhih", 3, 12, 7, -1) + b"\x00"
    parsed = RequestHeader.parse(wire)
    assert parsed.client_id == ""
    assert parsed.correlation_id == 7
    assert parsed.header_version == 2
    assert parsed.size == len(wire)


def test_parse_leaves_accessor_at_body() -> None:
    """Parsing from a ByteBufferAccessor moves it past the header and no further."""
    header = RequestHeader.of(ApiKeys.API_VERSIONS, 3, "c", 1)
    buf = ByteBufferAccessor(header.write() + b"BODY")
    RequestHeader.parse(buf)
    assert bytes(buf.buffer[buf.position :]) == b"BODY"


def test_unknown_api_key_is_invalid_request_naming_it() -> None:
    """An api key no Kafka version has is an InvalidRequestException that names it, and the correlation id can
    still be read for logging."""
    wire = struct.pack(">hhih", 999, 0, 1234, 0)
    with pytest.raises(InvalidRequestException, match="999"):
        RequestHeader.parse(wire)
    assert RequestHeader.peek_correlation_id(wire) == 1234
    assert RequestHeader.peek_correlation_id(wire[:7]) is None


def test_kraft_only_api_key_is_rejected() -> None:
    """An api key that only KRaft controllers serve (Vote) is rejected by name."""
    wire = struct.pack(">hhih", 52, 0, 5, 0)
    with pytest.raises(InvalidRequestException, match="VOTE"):
        RequestHeader.parse(wire)


@pytest.mark.parametrize("cut", range(0, 9))
def test_truncated_header_is_invalid_request(cut: int) -> None:
    """A header cut anywhere raises InvalidRequestException and leaves the accessor where it was."""
    wire = RequestHeader.of(ApiKeys.PRODUCE, 9, "producer", 3).write()
    buf = ByteBufferAccessor(wire[:cut])
    with pytest.raises(InvalidRequestException):
        RequestHeader.parse(buf)
    assert buf.position == 0


def test_to_response_header() -> None:
    """The response header carries the request's correlation id, in v1 for flexible versions and always in v0
    for ApiVersions."""
    assert RequestHeader.of(ApiKeys.METADATA, 12, "c", 9).to_response_header() == ResponseHeader(9, 1)
    assert RequestHeader.of(ApiKeys.METADATA, 8, "c", 9).to_response_header() == ResponseHeader(9, 0)
    assert RequestHeader.of(ApiKeys.API_VERSIONS, 3, "c", 9).to_response_header() == ResponseHeader(9, 0)


@pytest.mark.parametrize(("header_version", "wire"), [(0, b"\x00\x00\x00\x05"), (1, b"\x00\x00\x00\x05\x00")])
def test_response_header_round_trip(header_version: int, wire: bytes) -> None:
    """Response header v0 is the correlation id; v1 adds an empty tagged-field section."""
    header = ResponseHeader(5, header_version)
    assert header.write() == wire
    assert header.size == len(wire)
    parsed = ResponseHeader.parse(wire, header_version)
    assert parsed == header
    assert parsed.correlation_id == 5


def test_parsed_headers_of_every_key_and_version_twice() -> None:
    """Every key at every version (and beyond its range) parses, the first time and again (the header version and
    key are then remembered), to the header written; only supported versions are remembered."""
    from kafka.common.requests import request_header

    for key in ApiKeys:
        for version in (-1, *range(key.oldest_version, key.latest_version() + 1), key.latest_version() + 1, 300):
            header_version = key.request_header_version(version)
            written = RequestHeader.of(key, version, "c", 7)
            assert written.header_version == header_version
            frame = written.write()
            for _ in range(2):
                parsed = RequestHeader.parse(frame)
                assert (parsed.api_key, parsed.api_version, parsed.header_version, parsed.correlation_id) == (
                    key,
                    version,
                    header_version,
                    7,
                )
                assert parsed.client_id == ("c" if header_version >= 1 else "")
                assert parsed.size == len(frame)
    assert all(
        key.is_version_supported(((wire & 0xFFFF) ^ 0x8000) - 0x8000)
        for wire, (key, _) in request_header._PARSED_KEYS.items()
    )
