"""Tests of ControllerChannelManager, its send threads and request versions, against fake brokers on real sockets."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.requests.update_metadata_response import UpdateMetadataResponse
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.time import Time
from kafka.controller.controller_channel_manager import (
    ControllerChannelManager,
    leader_and_isr_request_version,
    stop_replica_request_version,
    update_metadata_request_version,
)
from kafka.controller.controller_context import ControllerContext
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.server.kafka_config import KafkaConfig
from tests.unit.kafka.controller.fake_broker import FakeBroker
from tests.utils import wait_until_true


def kafka_config(broker_id: int = 0, **overrides: Any) -> KafkaConfig:
    props: dict[str, Any] = {"broker.id": broker_id, "zookeeper.connect": "127.0.0.1:2181"}
    props.update({k.replace("_", "."): v for k, v in overrides.items()})
    return KafkaConfig(props)


def broker(broker_id: int, port: int) -> Broker:
    listener = ListenerName("PLAINTEXT")
    return Broker(broker_id, [EndPoint("127.0.0.1", port, listener, SecurityProtocol.PLAINTEXT)], None)


def update_metadata_builder(controller_epoch: int = 1) -> UpdateMetadataRequestBuilder:
    return UpdateMetadataRequestBuilder(7, 0, controller_epoch, 5, [], [], {})


@pytest.fixture
def context() -> ControllerContext:
    return ControllerContext()


def _manager(context: ControllerContext, config: KafkaConfig) -> ControllerChannelManager:
    return ControllerChannelManager(context, config, Time.SYSTEM, StateChangeLogger(0, True, None))


def test_requests_reach_each_broker_in_order_from_named_send_threads(context: ControllerContext) -> None:
    """Each live broker gets its own named send thread, which delivers its requests in order and hands each
    response to its callback."""
    with FakeBroker(1) as b1, FakeBroker(2) as b2:
        context.set_live_brokers({broker(1, b1.port): 10, broker(2, b2.port): 20})
        manager = _manager(context, kafka_config())
        responses: list[tuple[int, AbstractResponse]] = []
        lock = threading.Lock()

        def callback_for(broker_id: int) -> Any:
            def callback(r: AbstractResponse) -> None:
                with lock:
                    responses.append((broker_id, r))

            return callback

        manager.startup()
        try:
            names = {t.name for t in threading.enumerate()}
            assert "Controller-0-to-broker-1-send-thread" in names
            assert "Controller-0-to-broker-2-send-thread" in names
            for epoch in (1, 2, 3):
                manager.send_request(1, update_metadata_builder(epoch), callback_for(1))
            manager.send_request(2, update_metadata_builder(7), callback_for(2))
            wait_until_true(lambda: len(responses) == 4, "four responses")
            assert [r.request.controller_epoch() for r in b1.received(ApiKeys.UPDATE_METADATA)] == [1, 2, 3]
            assert [r.request.controller_epoch() for r in b2.received(ApiKeys.UPDATE_METADATA)] == [7]
            assert all(isinstance(r, UpdateMetadataResponse) for _, r in responses)
            header = b1.received(ApiKeys.UPDATE_METADATA)[0].header
            assert header.client_id == "0" and header.api_version == 7
        finally:
            manager.shutdown()
        assert manager.broker_state_info == {}
        assert not any(t.name.startswith("Controller-0-to-broker") for t in threading.enumerate())


def test_a_failed_send_is_retried_on_a_new_connection(context: ControllerContext) -> None:
    """When the broker drops the connection, the send thread reconnects and sends the request again."""
    with FakeBroker(1, drop_first_requests=1) as b1:
        context.set_live_brokers({broker(1, b1.port): 10})
        manager = _manager(context, kafka_config())
        done = threading.Event()
        manager.startup()
        try:
            manager.send_request(1, update_metadata_builder(), lambda _r: done.set())
            assert done.wait(15)
            assert b1.connections == 2
            assert len(b1.received(ApiKeys.UPDATE_METADATA)) == 1
        finally:
            manager.shutdown()


def test_requests_to_unknown_brokers_are_dropped(context: ControllerContext) -> None:
    """A request for a broker without a send thread is not queued anywhere."""
    manager = _manager(context, kafka_config())
    manager.startup()
    try:
        manager.send_request(9, update_metadata_builder())
        assert manager.total_queue_size() == 0
    finally:
        manager.shutdown()


def test_removing_an_unreachable_broker_stops_its_thread_promptly(context: ControllerContext) -> None:
    """A send thread retrying against a dead broker stops as soon as the broker is removed."""
    dead = FakeBroker(3)
    port = dead.port
    dead.stop()  # nothing listens on the port any more
    manager = _manager(context, kafka_config(controller_socket_timeout_ms=60000))
    manager.add_broker(broker(3, port))
    manager.send_request(3, update_metadata_builder())
    thread = manager.broker_state_info[3].request_send_thread
    wait_until_true(thread.is_alive, "send thread running")
    manager.remove_broker(3)
    assert not thread.is_alive()
    assert 3 not in manager.broker_state_info


def test_add_broker_twice_keeps_one_thread(context: ControllerContext) -> None:
    """Adding a broker that already has a send thread changes nothing."""
    with FakeBroker(1) as b1:
        manager = _manager(context, kafka_config())
        manager.add_broker(broker(1, b1.port))
        first = manager.broker_state_info[1].request_send_thread
        manager.add_broker(broker(1, b1.port))
        try:
            assert manager.broker_state_info[1].request_send_thread is first
        finally:
            manager.shutdown()


@pytest.mark.parametrize(
    ("ibp", "leader_and_isr", "update_metadata", "stop_replica"),
    [
        ("2.8", 5, 7, 3),
        ("2.8-IV0", 4, 6, 3),
        ("2.6", 4, 6, 3),
        ("2.5", 4, 6, 2),
        ("2.4-IV0", 3, 5, 1),
        ("2.2", 2, 5, 1),
        ("1.0", 1, 4, 0),
        ("0.10.2", 0, 3, 0),
        ("0.10.0-IV1", 0, 2, 0),
        ("0.9.0", 0, 1, 0),
        ("0.8.2", 0, 0, 0),
    ],
)
def test_request_versions_follow_the_inter_broker_protocol(
    ibp: str, leader_and_isr: int, update_metadata: int, stop_replica: int
) -> None:
    """The controller's request versions are Kafka 2.8's for each inter.broker.protocol.version."""
    config = kafka_config(inter_broker_protocol_version=ibp, log_message_format_version="0.8.0")
    assert leader_and_isr_request_version(config) == leader_and_isr
    assert update_metadata_request_version(config) == update_metadata
    assert stop_replica_request_version(config) == stop_replica
