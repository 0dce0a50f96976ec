"""Replaying a capture against a scripted broker: equal answers pass, differences and broken invariants are reported
with their paths, requests wait only for the responses they were recorded after (a JoinGroup held until the other
member joins does not stall it), values taken from responses are rewritten, and manifest rules are followed."""

from __future__ import annotations

import threading
from collections.abc import Callable

from kafka.common.message import (
    ApiMessageType,
    HeartbeatRequestData,
    HeartbeatResponseData,
    JoinGroupRequestData,
    JoinGroupResponseData,
    MetadataRequestData,
    MetadataResponseData,
    ProduceRequestData,
)
from kafka.tools.conformance.capture import Capture, CaptureHeader, Event, FrameEvent, request_event, response_event
from kafka.tools.conformance.decoder import decode_request
from kafka.tools.conformance.manifest import Manifest, ReplayOptions, Rule
from kafka.tools.conformance.traffic_replayer import SessionReplayer
from tests.unit.kafka.tools.conformance.helpers import FakeBroker, request_frame, response_frame

META = ApiMessageType.METADATA
JOIN = ApiMessageType.JOIN_GROUP
HEARTBEAT = ApiMessageType.HEARTBEAT


class _Recording:
    """Builds a capture: requests and the responses to them, by connection and time."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._requests: dict[tuple[int, int], FrameEvent] = {}

    def request(self, conn: int, t: float, api: ApiMessageType, version: int, cid: int, body: object) -> None:
        event = request_event(conn, t, request_frame(api, version, cid, body))
        self._requests[(conn, cid)] = event
        self.events.append(event)

    def response(self, conn: int, t: float, api: ApiMessageType, version: int, cid: int, body: object) -> None:
        self.events.append(
            response_event(conn, t, response_frame(api, version, cid, body), self._requests[(conn, cid)])
        )

    def capture(self) -> Capture:
        return Capture(CaptureHeader("test"), sorted(self.events, key=lambda e: e.t))


def _metadata(error: int = 0) -> MetadataResponseData:
    M = MetadataResponseData
    return M(
        cluster_id="c",
        topics=M.MetadataResponseTopicCollection([M.MetadataResponseTopic(name="t", error_code=error)]),
    )


def _replay(
    recording: _Recording, handler: Callable[[FakeBroker, int, bytes], None], manifest: Manifest | None = None
) -> tuple:
    broker = FakeBroker(handler)
    try:
        options = ReplayOptions(max_gap_ms=0, dependency_timeout_ms=5000, response_timeout_ms=2000)
        report = SessionReplayer(recording.capture(), "127.0.0.1", broker.port, manifest, options=options).run()
    finally:
        broker.close()
    return report, broker


def _cid(frame: bytes) -> int:
    return int.from_bytes(frame[4:8], "big")


def test_equal_answers_pass_and_a_changed_one_is_reported_with_its_path() -> None:
    """Answers equal after normalisation (another cluster id) pass; a changed error code is a difference at its path."""
    rec = _Recording()
    rec.request(0, 0.0, META, 9, 1, MetadataRequestData(topics=None))
    rec.response(0, 0.1, META, 9, 1, _metadata())
    rec.request(0, 0.2, META, 9, 2, MetadataRequestData(topics=None))
    rec.response(0, 0.3, META, 9, 2, _metadata())

    def handler(broker: FakeBroker, conn: int, frame: bytes) -> None:
        body = _metadata(error=3 if _cid(frame) == 2 else 0)
        body.cluster_id = "another"
        broker.send(conn, response_frame(META, 9, _cid(frame), body))

    report, _ = _replay(rec, handler)
    assert report.compared == 2
    assert [f"{e.describe()}: {d}" for e, d in report.differences] == [
        "#1 Metadata v9 (conn 0, correlation id 2): topics[0].error_code: 0 != 3"
    ]
    assert report.all_violations == [] and not report.ok


def test_broken_invariants_are_reported() -> None:
    """A response with another correlation id answers nothing, and its request stays unanswered."""
    rec = _Recording()
    rec.request(0, 0.0, META, 9, 1, MetadataRequestData(topics=None))
    rec.response(0, 0.1, META, 9, 1, _metadata())

    def handler(broker: FakeBroker, conn: int, frame: bytes) -> None:
        broker.send(conn, response_frame(META, 9, 77, _metadata()))

    report, _ = _replay(rec, handler)
    assert [(v.rule, v.correlation_id) for v in report.all_violations] == [("correlation-id", 77), ("unanswered", 1)]
    assert not report.ok and report.lines()[-1] == "Result: 0 difference(s), 2 invariant violation(s)"


def test_a_held_join_does_not_stall_the_other_member_and_later_requests_get_replayed_ids() -> None:
    """Member A's JoinGroup is answered only once member B's has arrived (on another connection); B's goes out without
    waiting for it, A's Heartbeat only after both answers, with the member id and generation the replay gave A."""
    rec = _Recording()
    join = JoinGroupRequestData(group_id="g", session_timeout_ms=6000, member_id="", protocol_type="consumer")
    rec.request(0, 0.0, JOIN, 7, 1, join)
    rec.request(1, 0.1, JOIN, 7, 1, join)
    rec.response(0, 0.3, JOIN, 7, 1, JoinGroupResponseData(generation_id=1, member_id="rec-A", leader="rec-A"))
    rec.response(1, 0.3, JOIN, 7, 1, JoinGroupResponseData(generation_id=1, member_id="rec-B", leader="rec-A"))
    rec.request(0, 0.4, HEARTBEAT, 4, 2, HeartbeatRequestData(group_id="g", generation_id=1, member_id="rec-A"))
    rec.response(0, 0.5, HEARTBEAT, 4, 2, HeartbeatResponseData())
    held: list[tuple[int, int]] = []
    lock = threading.Lock()

    def handler(broker: FakeBroker, conn: int, frame: bytes) -> None:
        request = decode_request(frame)
        if request.api_key == JOIN.api_key:
            with lock:
                held.append((conn, _cid(frame)))
                if len(held) < 2:
                    return
            for c, cid in sorted(held):
                member = "rep-A" if c == 0 else "rep-B"
                answer = JoinGroupResponseData(generation_id=5, member_id=member, leader="rep-A")
                broker.send(c, response_frame(JOIN, 7, cid, answer))
        else:
            assert (request.body.member_id, request.body.generation_id) == ("rep-A", 5)
            broker.send(conn, response_frame(HEARTBEAT, 4, _cid(frame), HeartbeatResponseData()))

    report, broker = _replay(rec, handler)
    assert report.ok, "\n".join(report.lines())
    assert [decode_request(f).api_key for _, f in broker.received] == [11, 11, 12]
    assert report.exchanges[2].changes == ["generation_id: 1 -> 5", "member_id: rec-A -> rep-A"]


def test_acks_zero_produce_is_not_waited_for_and_rules_are_followed() -> None:
    """An acks=0 produce gets no answer and breaks nothing; a skip-replay request is not sent; an ignored path is not
    compared."""
    rec = _Recording()
    rec.request(0, 0.0, ApiMessageType.PRODUCE, 9, 1, ProduceRequestData(acks=0))
    rec.request(0, 0.1, META, 9, 2, MetadataRequestData(topics=None))
    rec.response(0, 0.2, META, 9, 2, _metadata())
    rec.request(0, 0.3, META, 9, 3, MetadataRequestData(topics=None))
    rec.response(0, 0.4, META, 9, 3, _metadata())

    def handler(broker: FakeBroker, conn: int, frame: bytes) -> None:
        if decode_request(frame).api_key == META.api_key:
            broker.send(conn, response_frame(META, 9, _cid(frame), _metadata(error=5)))

    manifest = Manifest(
        session="s",
        capture="-",
        rules=[
            Rule("skip-replay", "not this one", correlation_id=3),
            Rule("ignore", "the topic is being created", api_key=3, paths=["topics[*].error_code"]),
        ],
    )
    report, broker = _replay(rec, handler, manifest)
    assert report.ok, "\n".join(report.lines())
    assert [_cid(f) for _, f in broker.received] == [1, 2]
    assert report.exchanges[2].skip_replay == "not this one"
    assert "  #2 Metadata v9 (conn 0, correlation id 3): not replayed: not this one" in report.lines()


def test_a_response_that_never_comes_is_waited_for_once() -> None:
    """When the broker leaves a request unanswered, the next request goes out after the dependency timeout, and the
    ones after it do not wait for that response again; the unanswered request is a violation."""
    rec = _Recording()
    for cid in (1, 2, 3):
        rec.request(0, cid * 0.1, META, 9, cid, MetadataRequestData(topics=None))
        rec.response(0, cid * 0.1 + 0.05, META, 9, cid, _metadata())

    def handler(broker: FakeBroker, conn: int, frame: bytes) -> None:
        if _cid(frame) != 1:
            broker.send(conn, response_frame(META, 9, _cid(frame), _metadata()))

    broker = FakeBroker(handler)
    try:
        options = ReplayOptions(max_gap_ms=0, dependency_timeout_ms=300, response_timeout_ms=500)
        report = SessionReplayer(rec.capture(), "127.0.0.1", broker.port, options=options).run()
    finally:
        broker.close()
    assert [_cid(f) for _, f in broker.received] == [1, 2, 3]
    assert [e.notes for e in report.exchanges] == [
        [],
        ["sent without some of the responses it was recorded after (waited 300 ms)"],
        [],
    ]
    assert [(v.rule, v.correlation_id) for v in report.all_violations] == [
        ("order", 2),
        ("order", 3),
        ("unanswered", 1),
    ]
