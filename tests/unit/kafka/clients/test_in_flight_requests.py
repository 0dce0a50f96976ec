"""Tests of kafka.clients.in_flight_requests (Kafka's InFlightRequestsTest)."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.clients.in_flight_requests import InFlightRequests
from kafka.clients.network_client import InFlightRequest
from kafka.common.network.byte_buffer_send import ByteBufferSend
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.request_header import RequestHeader
from kafka.common.utils.time import MockTime

DEST = "dest"


class _Requests:
    def __init__(self, max_in_flight: int = 12) -> None:
        self.in_flight = InFlightRequests(max_in_flight)
        self.correlation_id = 0

    def add(
        self, destination: str = DEST, send_time_ms: int = 0, request_timeout_ms: int = 10_000, send: Any = None
    ) -> int:
        correlation_id = self.correlation_id
        self.correlation_id += 1
        header = RequestHeader.of(ApiKeys.METADATA, 0, "clientId", correlation_id)
        request = InFlightRequest(
            header,
            request_timeout_ms,
            0,
            destination,
            None,
            False,
            False,
            None,  # type: ignore[arg-type]  # the request body is not looked at here
            send,
            send_time_ms,
        )
        self.in_flight.add(request)
        return correlation_id


def test_complete_last_sent() -> None:
    """complete_last_sent takes the newest request first."""
    r = _Requests()
    c1, c2 = r.add(), r.add()
    assert r.in_flight.count() == 2
    assert r.in_flight.complete_last_sent(DEST).header.correlation_id == c2
    assert r.in_flight.count() == 1
    assert r.in_flight.complete_last_sent(DEST).header.correlation_id == c1
    assert r.in_flight.count() == 0


def test_clear_all() -> None:
    """clear_all removes a node's requests and returns them oldest first."""
    r = _Requests()
    c1, c2 = r.add(), r.add()
    cleared = list(r.in_flight.clear_all(DEST))
    assert r.in_flight.count() == 0
    assert [x.header.correlation_id for x in cleared] == [c1, c2]
    assert list(r.in_flight.clear_all(DEST)) == []


def test_timed_out_nodes() -> None:
    """A node is reported once any of its requests has been out longer than its own timeout."""
    time = MockTime()
    r = _Requests()
    r.add("A", time.milliseconds(), 50)
    r.add("B", time.milliseconds(), 200)
    r.add("B", time.milliseconds(), 100)
    time.sleep(50)
    assert r.in_flight.nodes_with_timed_out_requests(time.milliseconds()) == []
    time.sleep(25)
    assert r.in_flight.nodes_with_timed_out_requests(time.milliseconds()) == ["A"]
    time.sleep(50)
    assert r.in_flight.nodes_with_timed_out_requests(time.milliseconds()) == ["A", "B"]


def test_complete_next() -> None:
    """complete_next takes the oldest request first (the one the next response answers)."""
    r = _Requests()
    c1, c2 = r.add(), r.add()
    assert r.in_flight.complete_next(DEST).header.correlation_id == c1
    assert r.in_flight.count() == 1
    assert r.in_flight.complete_next(DEST).header.correlation_id == c2
    assert r.in_flight.count() == 0


def test_complete_next_throws_if_no_in_flights() -> None:
    """Completing a request for a node with none in flight is an error."""
    with pytest.raises(RuntimeError, match="no in-flight requests"):
        _Requests().in_flight.complete_next(DEST)


def test_complete_last_sent_throws_if_no_in_flights() -> None:
    """complete_last_sent on an empty node is an error too."""
    with pytest.raises(RuntimeError, match="no in-flight requests"):
        _Requests().in_flight.complete_last_sent(DEST)


def test_can_send_more_needs_the_last_send_written_and_room() -> None:
    """A node takes another request only when its last one is fully written and fewer than the maximum are out."""
    r = _Requests(max_in_flight=2)
    assert r.in_flight.can_send_more(DEST)
    pending = ByteBufferSend([b"abc"])
    r.add(send=pending)
    assert not r.in_flight.can_send_more(DEST)  # still being written
    r.in_flight.complete_last_sent(DEST)
    r.add(send=ByteBufferSend([]))
    assert r.in_flight.can_send_more(DEST)
    r.add(send=ByteBufferSend([]))
    assert not r.in_flight.can_send_more(DEST)  # two out, at the maximum
    assert r.in_flight.count(DEST) == 2 and r.in_flight.count("other") == 0
    assert not r.in_flight.is_empty(DEST) and r.in_flight.is_empty("other") and not r.in_flight.is_empty()
