"""The recording proxy: bytes pass both ways unchanged, every frame is recorded with its connection and labels, and
the command line writes a capture and a manifest."""

from __future__ import annotations

import io
import json
import socket
import threading
from pathlib import Path

from kafka.common.message import (
    ApiMessageType,
    MetadataRequestData,
    MetadataResponseData,
    ProduceRequestData,
)
from kafka.tools.conformance.capture import CaptureHeader, CaptureWriter, ConnectionEvent, FrameEvent, parse_capture
from kafka.tools.conformance.manifest import load_manifest
from kafka.tools.conformance.traffic_recorder import TrafficRecorder, main, parse_address
from tests.unit.kafka.tools.conformance.helpers import FakeBroker, read_frame, request_frame, response_frame, sized
from tests.utils import wait_until_true

META = ApiMessageType.METADATA


def _answer_metadata(broker: FakeBroker, conn: int, frame: bytes) -> None:
    api_key = int.from_bytes(frame[:2], "big")
    cid = int.from_bytes(frame[4:8], "big")
    if api_key == META.api_key:
        broker.send(conn, response_frame(META, 9, cid, MetadataResponseData(cluster_id="x" * (cid % 7))))


def test_frames_pass_unchanged_and_are_recorded() -> None:
    """Two pipelined requests, an acks=0 produce and a 300 KB request reach the broker as sent; the client gets the
    answers as sent; the capture holds each frame once, labelled, between the connection's open and close."""
    broker = FakeBroker(_answer_metadata)
    out = io.StringIO()
    recorder = TrafficRecorder(("127.0.0.1", 0), ("127.0.0.1", broker.port), CaptureWriter(out, CaptureHeader("proxy")))
    recorder.startup()
    try:
        big = MetadataRequestData(
            topics=[MetadataRequestData.MetadataRequestTopic(name=f"{n:05d}" + "t" * 30_000) for n in range(10)]
        )
        sent = [
            request_frame(META, 9, 1, MetadataRequestData(topics=None)),
            request_frame(META, 9, 2, MetadataRequestData(topics=None)),
            request_frame(ApiMessageType.PRODUCE, 9, 3, ProduceRequestData(acks=0)),
            request_frame(META, 9, 4, big),
        ]
        with socket.create_connection(("127.0.0.1", recorder.port)) as client:
            client.sendall(b"".join(sized(f) for f in sent))
            answers = [read_frame(client) for _ in range(3)]
        assert answers == [
            response_frame(META, 9, cid, MetadataResponseData(cluster_id="x" * (cid % 7))) for cid in (1, 2, 4)
        ]
        wait_until_true(lambda: recorder.requests == 4 and len(broker.received) == 4, "the requests to be recorded")
        assert [f for _, f in broker.received] == sent
        wait_until_true(lambda: "close" in out.getvalue(), "the close to be recorded")
    finally:
        recorder.shutdown()
        broker.close()
    capture = parse_capture(out.getvalue().splitlines())
    kinds = [e.kind if isinstance(e, ConnectionEvent) else e.direction for e in capture.events]
    assert kinds[0] == "open" and kinds[-1] == "close" and kinds.count("request") == 4 and kinds.count("response") == 3
    frames = [e for e in capture.events if isinstance(e, FrameEvent)]
    assert [f.data for f in frames if f.is_request] == sent
    assert [f.expect_response for f in frames if f.is_request] == [True, True, False, True]
    responses = [f for f in frames if not f.is_request]
    assert [(r.api_key, r.api_version, r.correlation_id, r.header_version) for r in responses] == [
        (3, 9, 1, 1),
        (3, 9, 2, 1),
        (3, 9, 4, 1),
    ]
    close = capture.events[-1]
    assert isinstance(close, ConnectionEvent) and close.by == "client"


def test_command_line_writes_capture_and_manifest(tmp_path: Path) -> None:
    """kafka-traffic-record.sh records until stopped and writes the manifest it was told about."""
    broker = FakeBroker(_answer_metadata)
    stop = threading.Event()
    console = io.StringIO()
    port_holder = socket.socket()
    port_holder.bind(("127.0.0.1", 0))
    port = port_holder.getsockname()[1]
    port_holder.close()
    args = [
        "--listen",
        f"127.0.0.1:{port}",
        "--target",
        f"127.0.0.1:{broker.port}",
        "--out",
        str(tmp_path / "s.jsonl"),
        "--manifest",
        str(tmp_path / "s.json"),
        "--client",
        "kcat",
        "--topic",
        "events:3:cleanup.policy=compact",
        "--group",
        "g1",
        "--broker-config",
        "num.partitions=1",
    ]
    status: list[int] = []
    runner = threading.Thread(target=lambda: status.append(main(args, stop=stop, out=console)), name="record-main")
    runner.start()
    try:
        wait_until_true(lambda: "Recording" in console.getvalue(), "the recorder to listen")
        with socket.create_connection(("127.0.0.1", port)) as client:
            client.sendall(sized(request_frame(META, 9, 1, MetadataRequestData(topics=None))))
            read_frame(client)
    finally:
        stop.set()
        runner.join(10)
        broker.close()
    assert status == [0]
    assert "Recorded 1 connection(s), 1 request(s) and 1 response(s)" in console.getvalue()
    manifest = load_manifest(tmp_path / "s.json")
    assert manifest.capture_path() == tmp_path / "s.jsonl" and manifest.client == {"name": "kcat"}
    assert [t.to_json() for t in manifest.topics] == [
        {"name": "events", "partitions": 3, "replication_factor": 1, "configs": {"cleanup.policy": "compact"}}
    ]
    assert manifest.groups == ["g1"] and manifest.broker_configs == {"num.partitions": "1"}
    header = json.loads((tmp_path / "s.jsonl").read_text().splitlines()[0])
    assert header["source"] == "proxy" and header["target"] == f"127.0.0.1:{broker.port}"


def test_addresses() -> None:
    """HOST:PORT and [IPv6]:PORT are read; anything else is refused."""
    assert parse_address("127.0.0.1:9092") == ("127.0.0.1", 9092)
    assert parse_address("[::1]:9093") == ("::1", 9093)
    try:
        parse_address("localhost")
    except ValueError as e:
        assert "HOST:PORT" in str(e)
    else:
        raise AssertionError("no error")
