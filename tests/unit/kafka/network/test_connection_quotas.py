"""ConnectionQuotas' connection creation rates (KIP-612): per-IP rate quotas refuse the excess connections without
counting them, defaults and overrides apply to existing sensors, and the broker-wide rate makes the acceptor wait."""

from __future__ import annotations

from kafka.common.metrics.metrics import Metrics
from kafka.common.utils.time import MockTime, Time
from kafka.network.socket_server import ConnectionQuotas, ConnectionThrottledException
from tests.unit.kafka.network.socket_server_support import PLAINTEXT, NetworkConfig

IP = "10.0.0.7"


def _quotas(config: NetworkConfig, time: Time) -> ConnectionQuotas:
    quotas = ConnectionQuotas(config, time, Metrics(time=time))
    quotas.add_listener(config, PLAINTEXT)
    return quotas


def _accepted(quotas: ConnectionQuotas, n: int, address: str = IP) -> int:
    accepted = 0
    for _ in range(n):
        try:
            quotas.inc(PLAINTEXT, address)
            accepted += 1
        except ConnectionThrottledException as e:
            assert e.ip == address and e.throttle_time_ms > 0
    return accepted


def test_ip_connection_rate_refuses_connections_over_it_without_counting_them() -> None:
    """With connection_creation_rate=5 (2 windows of 1 s measured), a burst gets 10 connections in; the others
    raise ConnectionThrottledException and are not counted; other addresses are not limited."""
    time = MockTime()
    quotas = _quotas(NetworkConfig(num_quota_samples=3), time)
    quotas.update_ip_connection_rate_quota(IP, 5)
    assert quotas.connection_rate_for_ip(IP) == 5
    assert _accepted(quotas, 20) == 10
    assert quotas.get(IP) == 10
    assert _accepted(quotas, 20, "10.0.0.8") == 20
    time.sleep(3_000)  # the rate falls back under the quota
    assert _accepted(quotas, 1) == 1
    quotas.close()


def test_default_and_removed_ip_rates_apply_to_existing_sensors() -> None:
    """A default rate bounds every address, an override beats it, and removing both frees the address again."""
    time = MockTime()
    quotas = _quotas(NetworkConfig(num_quota_samples=3), time)
    quotas.update_ip_connection_rate_quota(None, 2)
    quotas.update_ip_connection_rate_quota(IP, 100)
    assert quotas.connection_rate_for_ip("10.0.0.9") == 2
    assert _accepted(quotas, 10, "10.0.0.9") == 4
    assert _accepted(quotas, 50) == 50
    quotas.update_ip_connection_rate_quota(None, None)
    quotas.update_ip_connection_rate_quota(IP, None)
    assert _accepted(quotas, 10, "10.0.0.9") == 10
    quotas.close()


def test_broker_connection_rate_makes_the_acceptor_wait() -> None:
    """max.connection.creation.rate: connections over the broker-wide rate are all accepted, after a wait that the
    listener's connection-accept-throttle-time metric records."""
    time = Time.SYSTEM  # the wait is a real one
    metrics = Metrics(time=time)
    config = NetworkConfig(max_connection_creation_rate=20, num_quota_samples=2)
    quotas = ConnectionQuotas(config, time, metrics)
    quotas.add_listener(config, PLAINTEXT)
    for _ in range(25):
        quotas.inc(PLAINTEXT, IP)
    assert quotas.get(IP) == 25
    throttle = metrics.metric(
        metrics.metric_name("connection-accept-throttle-time", "socket-server-metrics", "", {"listener": "PLAINTEXT"})
    )
    assert throttle is not None and throttle.metric_value() > 0
    quotas.close()
