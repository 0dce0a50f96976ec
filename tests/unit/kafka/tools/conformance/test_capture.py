"""The capture format: writing and reading events, pairing requests with responses, rejecting bad files."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kafka.common.message import ApiMessageType, MetadataRequestData, MetadataResponseData, ProduceRequestData
from kafka.tools.conformance.capture import (
    Capture,
    CaptureFormatError,
    CaptureHeader,
    CaptureWriter,
    ConnectionEvent,
    parse_capture,
    read_capture,
    request_event,
    response_event,
    write_capture,
)
from tests.unit.kafka.tools.conformance.helpers import request_frame, response_frame


def _metadata_exchange(conn: int, cid: int, t: float) -> tuple:
    req = request_event(conn, t, request_frame(ApiMessageType.METADATA, 9, cid, MetadataRequestData()))
    resp = response_event(conn, t + 0.001, response_frame(ApiMessageType.METADATA, 9, cid, MetadataResponseData()), req)
    return req, resp


def test_events_survive_writing_and_reading() -> None:
    """Every field of every event, unknown keys included, reads back as written."""
    req, resp = _metadata_exchange(0, 5, 0.25)
    req.extra["pcap_frame"] = 7
    capture = Capture(
        CaptureHeader("proxy", {"listen": "127.0.0.1:1"}),
        [ConnectionEvent("open", 0, 0.1, peer="127.0.0.1:5"), req, resp, ConnectionEvent("close", 0, 0.5, by="client")],
    )
    buf = io.StringIO()
    write_capture(capture, buf)
    back = parse_capture(buf.getvalue().splitlines())
    assert back.header.source == "proxy" and back.header.extra == {"listen": "127.0.0.1:1"}
    assert back.events == capture.events
    first = json.loads(buf.getvalue().splitlines()[2])
    assert first["type"] == "request" and first["api_key"] == 3 and first["hex"] == req.data.hex()


def test_response_is_labelled_with_its_request() -> None:
    """A response carries the api key and version of the request it answers and the header version they call for."""
    _, resp = _metadata_exchange(0, 5, 0.0)
    assert (resp.api_key, resp.api_version, resp.correlation_id, resp.header_version) == (3, 9, 5, 1)
    orphan = response_event(0, 0.0, resp.data, None)
    assert orphan.api_key is None and orphan.note == "no request with this correlation id in the capture"


def test_exchanges_pair_by_connection_and_correlation_id() -> None:
    """Requests meet their responses on the same connection; a stray response and an acks=0 produce stand alone."""
    a_req, a_resp = _metadata_exchange(0, 1, 0.0)
    b_req, b_resp = _metadata_exchange(1, 1, 0.1)
    acks0 = request_event(0, 0.2, request_frame(ApiMessageType.PRODUCE, 9, 2, ProduceRequestData(acks=0)))
    stray = response_event(1, 0.3, a_resp.data[:0] + b"\x00\x00\x00\x63" + a_resp.data[4:], None)
    capture = Capture(CaptureHeader("proxy"), [a_req, b_req, a_resp, b_resp, acks0, stray])
    exchanges = capture.exchanges()
    assert [(e.index, e.conn, e.request is not None, e.response is not None) for e in exchanges] == [
        (0, 0, True, True),
        (1, 1, True, True),
        (2, 0, True, False),
        (3, 1, False, True),
    ]
    assert exchanges[0].response is a_resp and exchanges[1].response is b_resp
    assert not exchanges[2].expect_response and exchanges[3].correlation_id == 99
    assert exchanges[1].describe() == "#1 Metadata v9 (conn 1, correlation id 1)"


def test_writer_flushes_each_line(tmp_path: Path) -> None:
    """A capture being written can be read at any time up to its last event."""
    path = tmp_path / "c.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        writer = CaptureWriter(f, CaptureHeader("proxy"))
        writer.write(ConnectionEvent("open", 0, 0.0))
        assert len(read_capture(path).events) == 1
        writer.close()
        writer.write(ConnectionEvent("close", 0, 1.0))
    assert len(read_capture(path).events) == 1


_HEADER = '{"type": "capture", "format": "kafka-port-capture", "version": 1}'


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "empty capture"),
        (['{"type": "open", "conn": 0, "t": 0}'], "first line must be a kafka-port-capture header"),
        (['{"type": "capture", "format": "kafka-port-capture", "version": 2}'], "version 2 is not supported"),
        ([_HEADER, "{"], ":2: not JSON"),
        (
            [
                '{"type": "capture", "format": "kafka-port-capture", "version": 1}',
                '{"type": "request", "conn": 0, "t": 0}',
            ],
            "frame without valid hex",
        ),
        (
            [_HEADER, '{"type": "odd"}'],
            "unknown event type",
        ),
    ],
)
def test_bad_captures_are_refused(lines: list[str], message: str) -> None:
    """A file that breaks the format fails with a CaptureFormatError saying where and why."""
    with pytest.raises(CaptureFormatError, match=message):
        parse_capture(lines)
