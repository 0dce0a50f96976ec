"""The SocketServer's metrics as Kafka 2.8 has them: each Processor's Selector records into the server's Metrics
(group socket-server-metrics, tags listener and networkProcessor), and the Yammer gauges read from them."""

from __future__ import annotations

from typing import Any

from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.metrics.yammer.gauge import Gauge
from kafka.metrics.yammer.meter import Meter
from kafka.network.socket_server import SocketServer
from tests.unit.kafka.network.socket_server_support import Client, NetworkConfig, running_server
from tests.utils import wait_until_true


def _selector_metric(server: SocketServer, name: str, processor: int) -> Any:
    for metric_name, metric in server.metrics.metrics().items():
        if (
            metric_name.name == name
            and metric_name.group == "socket-server-metrics"
            and metric_name.tags == {"listener": "PLAINTEXT", "networkProcessor": str(processor)}
        ):
            return metric.metric_value()
    return None


def _yammer(mbean_name: str) -> Any:
    for metric_name, metric in KafkaYammerMetrics.default_registry().all_metrics().items():
        if metric_name.mbean_name == mbean_name:
            return metric
    return None


def _connection_count(server: SocketServer) -> float:
    return sum(_selector_metric(server, "connection-count", p) or 0.0 for p in range(3))


def test_selector_metrics_of_each_processor_are_in_the_servers_metrics() -> None:
    with running_server(NetworkConfig(num_network_threads=3)) as (server, _apis, port):
        for p in range(3):
            assert _selector_metric(server, "connection-count", p) == 0
            assert _selector_metric(server, "io-wait-ratio", p) is not None
        with Client(port) as client:
            client.round_trip(1)
            wait_until_true(lambda: _connection_count(server) == 1, "one connection counted")
            created = sum(_selector_metric(server, "connection-creation-total", p) for p in range(3))
            assert created == 1
            # The broker's selectors keep no per-connection sensors (metricsPerConnection = false).
            assert not any(n.group == "socket-server-node-metrics" for n in server.metrics.metrics())
        wait_until_true(lambda: _connection_count(server) == 0, "the closed connection uncounted")
        closed = sum(_selector_metric(server, "connection-close-total", p) for p in range(3))
        assert closed == 1


def test_idle_percent_gauges_and_memory_pool_gauges() -> None:
    config = NetworkConfig(num_network_threads=2, queued_max_request_bytes=1 << 20, socket_request_max_bytes=1 << 16)
    with running_server(config) as (_server, _apis, port):
        with Client(port) as client:
            client.round_trip(1)
        avg = _yammer("kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent")
        assert isinstance(avg, Gauge)
        for p in range(2):
            gauge = _yammer(f"kafka.network:type=Processor,name=IdlePercent,networkProcessor={p}")
            assert isinstance(gauge, Gauge)
            assert 0.0 <= gauge.value() <= 1.0
        wait_until_true(lambda: avg.value() > 0.0, "the processors idle")
        assert avg.value() <= 1.0
        available = _yammer("kafka.network:type=SocketServer,name=MemoryPoolAvailable")
        used = _yammer("kafka.network:type=SocketServer,name=MemoryPoolUsed")
        assert isinstance(available, Gauge) and isinstance(used, Gauge)
        assert available.value() + used.value() == 1 << 20
        killed = _yammer("kafka.network:type=SocketServer,name=ExpiredConnectionsKilledCount")
        assert isinstance(killed, Gauge) and killed.value() == 0.0
        blocked = _yammer("kafka.network:type=Acceptor,name=AcceptorBlockedPercent,listener=PLAINTEXT")
        assert isinstance(blocked, Meter)
    # Stopped processors take their gauges with them, and the server its own.
    assert _yammer("kafka.network:type=Processor,name=IdlePercent,networkProcessor=0") is None
    assert _yammer("kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent") is None
