"""KafkaRequestHandler and its pool: requests from the channel to the api layer, over real sockets."""

from __future__ import annotations

import logging
import threading

import pytest

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.utils.time import Time
from kafka.network.request_channel import RequestChannel
from kafka.server.kafka_request_handler import KafkaRequestHandlerPool
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
    """Time handlers spend waiting for requests is added up in the pool's idle meter."""
    channel = RequestChannel(10)
    pool = KafkaRequestHandlerPool(0, channel, RecordingApis(channel), Time.SYSTEM, 2)
    try:
        wait_until_true(lambda: pool.aggregate_idle_meter.get() > 0, "idle time to be recorded", timeout=5)
    finally:
        pool.shutdown()
