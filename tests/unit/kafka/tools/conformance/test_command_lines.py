"""The tools' command lines on a small capture: the decoded listing, invariants, normalised trees, comparing two
captures, and replaying a session given by its manifest."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kafka.common.message import ApiMessageType, MetadataRequestData, MetadataResponseData
from kafka.tools.conformance import capture_summary, comparer, invariants, normaliser, traffic_replayer
from kafka.tools.conformance.capture import (
    Capture,
    CaptureHeader,
    ConnectionEvent,
    FrameEvent,
    request_event,
    response_event,
    write_capture,
)
from kafka.tools.conformance.manifest import Manifest
from tests.unit.kafka.tools.conformance.helpers import FakeBroker, request_frame, response_frame

META = ApiMessageType.METADATA


def _write(path: Path, cluster: str, error: int = 0) -> Path:
    M = MetadataResponseData
    body = M(
        cluster_id=cluster,
        topics=M.MetadataResponseTopicCollection([M.MetadataResponseTopic(name="t", error_code=error)]),
    )
    req = request_event(0, 0.001, request_frame(META, 9, 1, MetadataRequestData(topics=None), client_id="cli"))
    events: list[ConnectionEvent | FrameEvent] = [
        ConnectionEvent("open", 0, 0.0, peer="127.0.0.1:1"),
        req,
        response_event(0, 0.002, response_frame(META, 9, 1, body), req),
    ]
    with open(path, "w", encoding="utf-8") as f:
        write_capture(Capture(CaptureHeader("test"), events), f)
    return path


def test_summary_lists_decoded_frames(tmp_path: Path) -> None:
    """Each event is one line; frames show their api, version, correlation id, client id and decoded fields."""
    out = io.StringIO()
    assert capture_summary.main([str(_write(tmp_path / "a.jsonl", "c1")), "--full"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[1] == "  0.000000 conn 0 open from 127.0.0.1:1"
    assert lines[2].startswith("  0.001000 conn 0 -> Metadata v9 #1 cli {topics: None,")
    assert "<- Metadata v9 #1 {throttle_time_ms: 0, brokers: [], cluster_id: 'c1'" in lines[3]


def test_invariants_normaliser_and_comparer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A clean capture has no violations; the normalised tree hides the cluster id; two captures differing only in it
    compare equal, and one with another error code does not."""
    a = _write(tmp_path / "a.jsonl", "c1")
    assert invariants.main([str(a)]) == 0
    assert normaliser.main([str(a)]) == 0
    tree = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert tree["response"]["cluster_id"] == "cluster_id#1"
    assert comparer.main([str(a), str(_write(tmp_path / "b.jsonl", "c2"))]) == 0
    assert comparer.main([str(a), str(_write(tmp_path / "c.jsonl", "c1", error=3))]) == 1
    assert "topics[0].error_code: 0 != 3" in capsys.readouterr().out


def test_replay_command_line_reads_the_manifest_beside_the_capture(tmp_path: Path) -> None:
    """kafka-traffic-replay.sh with a capture whose manifest sits beside it replays it and exits 0 when all agree."""
    capture = _write(tmp_path / "s.jsonl", "c1")
    Manifest(session="s", capture="s.jsonl").save(tmp_path / "s.json")
    M = MetadataResponseData

    def handler(broker: FakeBroker, conn: int, frame: bytes) -> None:
        body = M(cluster_id="zz", topics=M.MetadataResponseTopicCollection([M.MetadataResponseTopic(name="t")]))
        broker.send(conn, response_frame(META, 9, int.from_bytes(frame[4:8], "big"), body))

    broker = FakeBroker(handler)
    out = io.StringIO()
    try:
        args = [str(capture), "--bootstrap-server", f"127.0.0.1:{broker.port}", "--no-setup", "--no-cleanup"]
        status = traffic_replayer.main([*args, "--json", str(tmp_path / "r.json")], out=out)
    finally:
        broker.close()
    assert status == 0, out.getvalue()
    assert out.getvalue().splitlines()[0].startswith("Session s: 1 of 1 recorded exchanges replayed on 1 connection(s)")
    assert json.loads((tmp_path / "r.json").read_text())["ok"] is True


def test_replay_of_a_missing_file_fails_cleanly(tmp_path: Path) -> None:
    """A file that is not there ends the tool with status 2 and a message, not a traceback."""
    assert traffic_replayer.main([str(tmp_path / "none.jsonl"), "--bootstrap-server", "127.0.0.1:1"]) == 2
