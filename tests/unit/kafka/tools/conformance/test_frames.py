"""Frames on a stream: splitting on the size prefix, request headers, acks=0 produce, pairing responses."""

from __future__ import annotations

import pytest

from kafka.common.message import ApiMessageType, ApiVersionsRequestData, MetadataRequestData, ProduceRequestData
from kafka.tools.conformance.frames import (
    FrameError,
    FrameSplitter,
    ResponseMatcher,
    expects_response,
    parse_request,
    response_header_version,
)
from tests.unit.kafka.tools.conformance.helpers import request_frame, sized


def test_splitter_hands_out_frames_split_across_chunks() -> None:
    """Frames cut at every possible byte come out whole, in order, with nothing pending after the last."""
    data = sized(b"first") + sized(b"") + sized(b"third frame")
    for cut in range(len(data) + 1):
        splitter = FrameSplitter()
        frames = splitter.feed(data[:cut]) + splitter.feed(data[cut:])
        assert frames == [b"first", b"", b"third frame"]
        assert splitter.pending == 0 and splitter.consumed == len(data)


def test_splitter_stops_at_an_impossible_size() -> None:
    """A negative size ends splitting with an error naming the stream offset; later bytes are not split."""
    splitter = FrameSplitter()
    assert splitter.feed(sized(b"ok") + b"\xff\xff\xff\xfe" + sized(b"later")) == [b"ok"]
    assert splitter.error == "impossible frame size -2 at stream offset 6"
    assert splitter.feed(sized(b"more")) == []


def test_parse_request_reads_header_v1_and_v2() -> None:
    """Api key, version, correlation id, client id and header version come from the header of either layout."""
    v1 = parse_request(request_frame(ApiMessageType.METADATA, 4, 7, MetadataRequestData(), client_id="rdkafka"))
    assert (v1.api_key, v1.api_version, v1.correlation_id, v1.client_id, v1.header_version) == (3, 4, 7, "rdkafka", 1)
    v2 = parse_request(request_frame(ApiMessageType.API_VERSIONS, 3, 9, ApiVersionsRequestData(), client_id=None))
    assert (v2.api_name, v2.header_version, v2.client_id, v2.expect_response) == ("ApiVersions", 2, None, True)


def test_parse_request_refuses_an_unknown_api_key() -> None:
    """An api key the protocol does not have is a FrameError that names it and the correlation id."""
    with pytest.raises(FrameError, match="unknown api key 999 \\(correlation id 5\\)"):
        parse_request(b"\x03\xe7\x00\x00\x00\x00\x00\x05\x00\x00")


@pytest.mark.parametrize("version", [2, 3, 7, 9])
def test_produce_with_acks_zero_expects_no_response(version: int) -> None:
    """A Produce with acks=0 is the one request a broker does not answer, before and after flexible versions."""
    body = ProduceRequestData(acks=0, timeout_ms=1000, transactional_id="txn" if version >= 3 else None)
    assert not parse_request(request_frame(ApiMessageType.PRODUCE, version, 1, body)).expect_response
    body.acks = -1
    frame = request_frame(ApiMessageType.PRODUCE, version, 1, body)
    assert parse_request(frame).expect_response
    assert expects_response(0, version, frame[parse_request(frame).header_size :])


def test_response_header_versions() -> None:
    """v1 for flexible versions, v0 before them, and v0 for ApiVersions at every version."""
    assert response_header_version(3, 8) == 0 and response_header_version(3, 9) == 1
    assert response_header_version(18, 3) == 0


def test_matcher_pairs_by_correlation_id_and_says_whether_in_order() -> None:
    """A response takes its own request; answering a later one first is reported as out of order."""
    matcher = ResponseMatcher()
    for cid in (1, 2, 3):
        matcher.on_request(parse_request(request_frame(ApiMessageType.METADATA, 1, cid, MetadataRequestData())), cid)
    entry, oldest = matcher.match(2)
    assert entry is not None and entry.token == 2 and not oldest
    entry, oldest = matcher.match(1)
    assert entry is not None and oldest
    assert matcher.match(42) == (None, False)
    assert [o.info.correlation_id for o in matcher.outstanding()] == [3]
