"""KafkaRequestHandler and its pool: requests from the channel to the api layer, over real sockets."""

from __future__ import annotations

import logging
import struct
import threading
from dataclasses import dataclass

import pytest

from kafka.common.message import MetadataRequestData, RequestHeaderData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.utils.time import MockTime, Time
from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.network.request_channel import Request, RequestChannel
from kafka.server.kafka_request_handler import ClientRequestGate, KafkaRequestHandlerPool
from tests.unit.kafka.network.socket_server_support import Client, RecordingApis, running_server
from tests.utils import wait_until_true


def _handler_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("kafka-request-handler-")]


def _shutdown_then_set(pool: KafkaRequestHandlerPool, done: threading.Event) -> None:
    pool.shutdown()
    done.set()


def test_requests_are_handled_on_named_daemon_handler_threads() -> None:
    """Requests reach the api layer on the pool's daemon threads `kafka-request-handler-N`, dequeue time stamped."""
    with running_server(num_io_threads=3) as (_server, apis, port):
        clients = [Client(port) for _ in range(6)]
        try:
            for round_ in range(5):
                for i, client in enumerate(clients):
                    assert client.round_trip(round_ * 10 + i).data.error_code == 0
        finally:
            for client in clients:
                client.close()
        names = {h.thread_name for h in apis.handled}
        assert names <= {f"kafka-request-handler-{i}" for i in range(3)}
        assert len(apis.handled) == 30
        assert all(t.daemon for t in _handler_threads())


def test_exception_from_the_api_layer_is_logged_and_the_handler_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    """An exception raised by apis.handle is logged and the handler keeps serving requests."""
    with running_server(num_io_threads=1) as (_server, apis, port):
        apis.fail_client_id = "bad"
        with Client(port) as bad, Client(port) as good:
            bad.send_api_versions(1, "bad")
            wait_until_true(lambda: "Exception when handling request" in caplog.text, "the error to be logged")
            assert "boom from the test api layer" in caplog.text
            for i in range(3):
                assert good.round_trip(i).data.error_code == 0
        assert [t.name for t in _handler_threads()] == ["kafka-request-handler-0"]


def test_resize_thread_pool_adds_and_stops_handlers() -> None:
    """resize_thread_pool starts new handler threads and stops surplus ones; the rest keep serving."""
    with running_server(num_io_threads=0) as (server, apis, port):
        pool = KafkaRequestHandlerPool(0, server.data_plane_request_channel, apis, Time.SYSTEM, 1)
        try:
            pool.resize_thread_pool(3)
            assert {t.name for t in _handler_threads()} == {f"kafka-request-handler-{i}" for i in range(3)}
            pool.resize_thread_pool(1)
            wait_until_true(lambda: len(_handler_threads()) == 1, "the surplus handlers to stop")
            with Client(port) as client:
                for i in range(4):
                    assert client.round_trip(i).data.error_code == 0
            assert {h.thread_name for h in apis.handled} == {"kafka-request-handler-0"}
        finally:
            pool.shutdown()
        assert not _handler_threads()


def test_shutdown_right_after_shrinking_does_not_lose_a_shutdown_request() -> None:
    """A handler stopped by resize that takes a ShutdownRequest passes it on, so shutdown() still completes."""
    channel = RequestChannel(10)
    apis = RecordingApis(channel)
    for _ in range(5):
        pool = KafkaRequestHandlerPool(0, channel, apis, Time.SYSTEM, 4)
        pool.resize_thread_pool(1)
        done = threading.Event()
        stopper = threading.Thread(target=_shutdown_then_set, args=(pool, done), name="test-stopper")
        stopper.start()
        stopper.join(10)
        assert done.is_set()
        wait_until_true(lambda: not _handler_threads(), "every handler thread to end")


def test_shutdown_waits_for_the_request_being_handled(caplog: pytest.LogCaptureFixture) -> None:
    """shutdown() lets a handler finish the request it is serving, whose response still goes out, before it stops."""
    caplog.set_level(logging.INFO, logger="kafka.server.KafkaRequestHandlerPool")
    with running_server(num_io_threads=0) as (server, apis, port), Client(port) as client:
        pool = KafkaRequestHandlerPool(0, server.data_plane_request_channel, apis, Time.SYSTEM, 1)
        gate = threading.Event()
        apis.hold["slow"] = gate
        finished = threading.Event()
        stopper = threading.Thread(target=_shutdown_then_set, args=(pool, finished), name="test-stopper")
        try:
            client.send_api_versions(1, "slow")
            wait_until_true(lambda: apis.count(ApiKeys.API_VERSIONS) == 1, "the request to reach the api layer")
            stopper.start()
            assert not finished.wait(0.3)
            gate.set()
            assert client.receive_frame()[:4] == b"\x00\x00\x00\x01"
            wait_until_true(finished.is_set, "the pool to shut down")
            assert "shut down completely" in caplog.text
        finally:
            gate.set()
            if stopper.is_alive():
                stopper.join(10)
            elif not finished.is_set():
                pool.shutdown()


def test_idle_time_is_accounted() -> None:
    """Time handlers spend waiting for requests is added up in the pool's idle meter
    (kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent)."""
    channel = RequestChannel(10)
    pool = KafkaRequestHandlerPool(0, channel, RecordingApis(channel), Time.SYSTEM, 2)
    try:
        wait_until_true(lambda: pool.aggregate_idle_meter.count > 0, "idle time to be recorded", timeout=30)
        name = pool.metric_name("RequestHandlerAvgIdlePercent")
        assert name.mbean_name == "kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent"
        assert KafkaYammerMetrics.default_registry().all_metrics()[name] is pool.aggregate_idle_meter
        assert pool.aggregate_idle_meter.mean_rate > 0
    finally:
        pool.shutdown()


# ---- the client request gate of a starting broker ------------------------------------------------------------


def _send_metadata(
    client: Client, correlation_id: int, client_id: str = "test-client", version: int = 9
) -> RequestHeader:
    header = RequestHeaderData(
        request_api_key=ApiKeys.METADATA.id,
        request_api_version=version,
        correlation_id=correlation_id,
        client_id=client_id,
    ).write(ApiKeys.METADATA.request_header_version(version))
    body = MetadataRequestData(topics=[]).write(version)
    client.sock.sendall(struct.pack(">i", len(header) + len(body)) + header + body)
    return RequestHeader.of(ApiKeys.METADATA, version, client_id, correlation_id)


class _Readiness:
    def __init__(self) -> None:
        self.ready = False

    def __call__(self) -> bool:
        return self.ready


def _gate(channel: RequestChannel, ready: _Readiness, time: Time, timeout_ms: int = 60_000) -> ClientRequestGate:
    return ClientRequestGate(channel, ready, "the test says so", lambda: "state of the test", timeout_ms, time)


def test_client_requests_wait_for_readiness_while_api_versions_is_served(caplog: pytest.LogCaptureFixture) -> None:
    """A Metadata request is held until the gate's condition holds, while ApiVersions on another connection is
    answered at once; a request pipelined behind the held one on its connection is answered after it, in order."""
    caplog.set_level(logging.INFO, logger="kafka.server.KafkaRequestHandlerPool")
    ready = _Readiness()
    with running_server(num_io_threads=0) as (server, apis, port):
        channel = server.data_plane_request_channel
        gate = _gate(channel, ready, Time.SYSTEM)
        pool = KafkaRequestHandlerPool(0, channel, apis, Time.SYSTEM, 2, client_request_gate=gate)
        try:
            with Client(port) as waiting, Client(port) as other:
                metadata_header = _send_metadata(waiting, 1)
                pipelined_header = waiting.send_api_versions(2)
                wait_until_true(lambda: gate.parked_count == 1, "the Metadata request to be held")
                assert other.round_trip(7).data.error_code == 0
                assert apis.count(ApiKeys.METADATA) == 0
                assert "Holding client requests until the test says so" in caplog.text
                ready.ready = True
                response = waiting.receive(metadata_header)
                assert isinstance(response, MetadataResponse)
                assert waiting.receive(pipelined_header).data.error_code == 0
            assert gate.is_open and gate.parked_count == 0
            assert "Serving client requests: the test says so after" in caplog.text
            assert "1 held client requests released" in caplog.text
        finally:
            pool.shutdown()


def test_client_requests_are_served_after_the_timeout_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    """If the condition never holds, held requests are served once the timeout has passed, with a WARN saying what
    was waited for and the state at that moment."""
    time = MockTime()
    with running_server(num_io_threads=0) as (server, apis, port):
        channel = server.data_plane_request_channel
        gate = _gate(channel, _Readiness(), time, timeout_ms=5_000)
        pool = KafkaRequestHandlerPool(0, channel, apis, Time.SYSTEM, 1, client_request_gate=gate)
        try:
            with Client(port) as client, Client(port) as other:
                header = _send_metadata(client, 1)
                wait_until_true(lambda: gate.parked_count == 1, "the Metadata request to be held")
                time.sleep(4_999)
                assert other.round_trip(2).data.error_code == 0  # the handler has looked at the clock since
                assert apis.count(ApiKeys.METADATA) == 0
                time.sleep(1)
                assert isinstance(client.receive(header), MetadataResponse)
            warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
            assert any(
                "has not happened within 5000 ms" in r.getMessage() and "state of the test" in r.getMessage()
                for r in warnings
            )
        finally:
            pool.shutdown()


@dataclass
class _FakeContext:
    connection_id: str
    header: RequestHeader


class _FakeRequest(Request):
    """Just what the gate reads of a request (its header and connection); counts buffer releases."""

    def __init__(self, api_key: ApiKeys, correlation_id: int) -> None:  # no frame, no body
        self.context = _FakeContext(f"conn-{correlation_id}", RequestHeader.of(api_key, 1, "c", correlation_id))  # type: ignore[assignment]
        self.released = 0

    def release_buffer(self) -> None:
        self.released += 1


def test_held_requests_that_do_not_fit_the_full_request_queue_go_at_a_later_try() -> None:
    """Releasing never blocks a handler: what the full request queue cannot take stays held, in order, until the
    next try; requests from the controller are never held."""
    channel = RequestChannel(2)
    ready = _Readiness()
    gate = _gate(channel, ready, MockTime())
    assert not gate.park(_FakeRequest(ApiKeys.UPDATE_METADATA, 0))
    assert not gate.park(_FakeRequest(ApiKeys.API_VERSIONS, 0))
    held = [_FakeRequest(ApiKeys.METADATA, i) for i in range(1, 4)]
    for request in held:
        assert gate.park(request)
    gate.maybe_open()
    assert gate.parked_count == 3 and channel.request_queue_size() == 0
    ready.ready = True
    gate.maybe_open()
    assert gate.parked_count == 1 and not gate.is_open and channel.request_queue_size() == 2
    assert gate.park(_FakeRequest(ApiKeys.PRODUCE, 4))  # still behind the held ones
    assert channel.receive_request(0) is held[0]
    gate.maybe_open()
    assert gate.parked_count == 1 and not gate.is_open
    assert channel.receive_request(0) is held[1]
    assert channel.receive_request(0) is held[2]
    gate.maybe_open()
    assert gate.is_open and gate.parked_count == 0
    assert not gate.park(_FakeRequest(ApiKeys.METADATA, 5))


def test_shutdown_drops_held_requests_and_releases_their_buffers() -> None:
    """A pool shut down while client requests are held stops, and the held requests' buffers are given back."""
    channel = RequestChannel(10)
    gate = _gate(channel, _Readiness(), MockTime())
    pool = KafkaRequestHandlerPool(0, channel, RecordingApis(channel), Time.SYSTEM, 2, client_request_gate=gate)
    held = [_FakeRequest(ApiKeys.METADATA, i) for i in range(3)]
    try:
        for request in held:
            channel.send_request(request)
        wait_until_true(lambda: gate.parked_count == 3, "the requests to be held")
    finally:
        pool.shutdown()
    assert gate.parked_count == 0
    assert [r.released for r in held] == [1, 1, 1]
    assert not _handler_threads()
