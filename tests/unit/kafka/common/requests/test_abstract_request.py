"""AbstractRequest/AbstractResponse: parsing any API, malformed bodies, framing with a header."""

from __future__ import annotations

import struct

import pytest

from kafka.common.errors import InvalidRequestException, UnsupportedVersionException
from kafka.common.message import MetadataRequestData, ProduceRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_request import AbstractRequest, DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.correlation_id_mismatch_exception import CorrelationIdMismatchException
from kafka.common.requests.metadata_request import MetadataRequest
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.requests.request_header import RequestHeader

from .request_fixtures import all_versions, filled_request

CASES = [(k, v) for k in ApiKeys for v in all_versions(k)]


@pytest.mark.parametrize(("api_key", "version"), CASES, ids=[f"{k.name}-v{v}" for k, v in CASES])
def test_truncated_body_raises_invalid_request_only(api_key: ApiKeys, version: int) -> None:
    """Every strict prefix of a request body fails with InvalidRequestException, never another error."""
    wire = filled_request(api_key, version).write(version)
    step = max(1, len(wire) // 40)
    for cut in range(0, len(wire), step):
        with pytest.raises(InvalidRequestException):
            AbstractRequest.parse_request(api_key, version, wire[:cut])


def test_trailing_bytes_are_ignored_like_java() -> None:
    """As in Java, bytes after the body are not read, and the reported size is all bytes given."""
    wire = filled_request(ApiKeys.METADATA, 9).write(9)
    parsed = AbstractRequest.parse_request(ApiKeys.METADATA, 9, wire + b"\x00\x00\x00\x00")
    assert parsed.size == len(wire) + 4
    assert parsed.request.serialize() == wire


def test_parse_request_moves_accessor_past_body() -> None:
    """Parsing from an accessor consumes exactly the body."""
    wire = filled_request(ApiKeys.HEARTBEAT, 4).write(4)
    buf = ByteBufferAccessor(b"HDR" + wire + b"TAIL", 3)
    AbstractRequest.parse_request(ApiKeys.HEARTBEAT, 4, buf)
    assert bytes(buf.buffer[buf.position :]) == b"TAIL"


def test_unsupported_version_cannot_be_constructed() -> None:
    """A request object at a version the API does not have is refused."""
    with pytest.raises(UnsupportedVersionException):
        MetadataRequest(MetadataRequestData(), 13)


def test_to_send_frames_header_and_body() -> None:
    """to_send gives the 4-byte size, header and body; serialize_with_header the same without the size."""
    request = MetadataRequest(MetadataRequestData(topics=None), 12)
    header = RequestHeader.of(ApiKeys.METADATA, 12, "client", 17)
    frame = b"".join(bytes(p) for p in request.to_send(header))
    body = request.serialize_with_header(header)
    assert frame == struct.pack(">i", len(body)) + body
    assert request.serialize_with_header(header, size_prefix=True) == frame
    parsed_header = RequestHeader.parse(ByteBufferAccessor(body))
    assert parsed_header == header
    with pytest.raises(ValueError):
        request.serialize_with_header(RequestHeader.of(ApiKeys.METADATA, 11, "client", 17))


def test_to_send_keeps_large_records_as_own_part() -> None:
    """A large record set becomes its own part of the send (zero copy) and the size prefix counts it."""
    records = memoryview(bytes(range(256)) * 64)
    data = ProduceRequestData(acks=1, timeout_ms=1000)
    data.topic_data.append(
        ProduceRequestData.TopicProduceData(
            name="t", partition_data=[ProduceRequestData.PartitionProduceData(index=0, records=records)]
        )
    )
    request = ProduceRequest(data, 8)
    parts = request.to_send(RequestHeader.of(ApiKeys.PRODUCE, 8, "p", 1))
    assert any(p is records for p in parts)
    frame = b"".join(bytes(p) for p in parts)
    assert struct.unpack(">i", frame[:4])[0] == len(frame) - 4
    assert frame.endswith(bytes(records))


def test_data_builder_uses_latest_allowed_version() -> None:
    """A builder without a version builds at the latest allowed one."""
    builder = DataBuilder(MetadataRequest, MetadataRequestData(topics=None), 4, 9)
    assert builder.build().version == 9
    assert builder.build(5).version == 5


def test_parse_response_checks_correlation_id() -> None:
    """Reading a response for a request header checks the correlation id, like Java's client."""
    header = RequestHeader.of(ApiKeys.METADATA, 12, "c", 5)
    response = MetadataResponse(
        MetadataRequest(MetadataRequestData(topics=None), 12).get_error_response(RuntimeError()).data
    )
    wire = response.serialize_with_header(header.to_response_header(), 12)
    parsed = AbstractResponse.parse_response(wire, header)
    assert isinstance(parsed, MetadataResponse)
    assert parsed.has_reliable_leader_epochs()
    other = RequestHeader.of(ApiKeys.METADATA, 12, "c", 6)
    with pytest.raises(CorrelationIdMismatchException) as info:
        AbstractResponse.parse_response(wire, other)
    assert (info.value.request_correlation_id, info.value.response_correlation_id) == (6, 5)


def test_produce_acks_zero_has_no_error_response() -> None:
    """A produce request with acks=0 gets no response, yet its error counts count every partition."""
    data = filled_request(ApiKeys.PRODUCE, 9)
    data.acks = 0
    request = ProduceRequest(data, 9)
    assert request.get_error_response(RuntimeError()) is None
    assert request.error_counts(RuntimeError()) == {Errors.UNKNOWN_SERVER_ERROR: 1}
