"""ConsumerNetworkClient's completion handlers let go of a response once they have fired: no reference cycle keeps a
response (and the buffer it was read from) alive until a full garbage collection."""

from __future__ import annotations

import gc
import threading
import time as time_module
import weakref

import pytest

from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient, _FairLock
from kafka.clients.consumer.internals.request_builders import HeartbeatRequestBuilder
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import HeartbeatRequestData, HeartbeatResponseData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.heartbeat_response import HeartbeatResponse
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_client import MockClient


def test_a_completed_response_is_freed_without_the_garbage_collector() -> None:
    time = MockTime(1)
    subscriptions = SubscriptionState(LogContext(), OffsetResetStrategy.EARLIEST)
    metadata = ConsumerMetadata(
        100, 1000, 300000, False, False, subscriptions, LogContext(), ClusterResourceListeners()
    )
    client = MockClient(time, metadata)
    consumer_client = ConsumerNetworkClient(LogContext(), client, metadata, time, 100, 1000, 2**31 - 1)
    node = Node(0, "localhost", 9092)
    response = HeartbeatResponse(HeartbeatResponseData(error_code=Errors.NONE.code))
    freed = weakref.ref(response)
    client.prepare_response(response)
    del response
    gc.disable()
    try:
        future = consumer_client.send(node, HeartbeatRequestBuilder(HeartbeatRequestData(group_id="g")))
        consumer_client.poll_future(future)
        assert future.succeeded()
        assert future.value().response_body is freed()
        assert freed() is not None
        del future
        assert freed() is None
    finally:
        gc.enable()


def test_fair_lock_is_reentrant_exclusive_and_served_in_arrival_order() -> None:
    lock = _FairLock()
    with lock, lock:
        assert lock._owner == threading.get_ident() and lock._count == 2
    assert lock._owner is None and lock._count == 0
    with pytest.raises(RuntimeError):
        lock.release()

    order: list[int] = []
    inside = [0]
    lock.acquire()

    def worker(i: int) -> None:
        with lock:
            inside[0] += 1
            assert inside[0] == 1
            order.append(i)
            inside[0] -= 1

    threads = []
    for i in range(4):
        t = threading.Thread(target=worker, args=(i,))
        t.start()
        threads.append(t)
        deadline = time_module.monotonic() + 10
        while len(lock._waiters) < i + 1 and time_module.monotonic() < deadline:
            time_module.sleep(0.001)
    lock.release()
    for t in threads:
        t.join(10)
    assert order == [0, 1, 2, 3]
    assert lock._owner is None and not lock._waiters
