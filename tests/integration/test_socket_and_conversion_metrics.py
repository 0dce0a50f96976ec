"""The SocketServer's metrics and the message conversion meters on /metrics of a broker started from the bin scripts
(issue 16): the processors' Selector metrics under Strimzi's socket-server names, the idle gauges, and the records
an old client sends (magic 0, up-converted) and reads (down-converted) counted as Produce/FetchMessageConversions."""

from __future__ import annotations

import time

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.cluster import KafkaCluster
from tests.integration.test_metrics_endpoint import broker_with_metrics, scrape, value  # noqa: F401
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

# librdkafka speaking Kafka 0.9.0's protocol: Produce v1 with magic-0 message sets, Fetch v1 (magic 0 only).
_OLD_CLIENT = {"api.version.request": False, "broker.version.fallback": "0.9.0"}


def _socket_metric(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str) -> float:
    return sum(v for (n, labels), v in samples.items() if n == name and ("listener", "PLAINTEXT") in labels)


def test_socket_server_metrics(broker_with_metrics: tuple[KafkaCluster, int]) -> None:  # noqa: F811
    """connection-count of the listener's processors counts an open client; the creation total rises; the idle
    gauges are fractions."""
    cluster, port = broker_with_metrics
    before = scrape(port)
    created_before = _socket_metric(before, "kafka_server_socket_server_metrics_connection_creation_total")
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.list_topics(timeout=30)
    samples = scrape(port)
    assert _socket_metric(samples, "kafka_server_socket_server_metrics_connection_count") >= 1
    assert _socket_metric(samples, "kafka_server_socket_server_metrics_connection_creation_total") > created_before
    assert (
        "kafka_server_socket_server_metrics_connection_count",
        frozenset({("listener", "PLAINTEXT"), ("networkProcessor", "0")}),
    ) in samples
    avg_idle_key: tuple[str, frozenset[tuple[str, str]]] = (
        "kafka_network_socketserver_networkprocessoravgidle_percent",
        frozenset(),
    )
    assert avg_idle_key in samples
    assert 0.0 <= samples[avg_idle_key] <= 1.0
    assert ("kafka_network_processor_idle_percent", frozenset({("networkProcessor", "0")})) in samples
    assert ("kafka_network_socketserver_memorypoolavailable", frozenset()) in samples
    assert samples[("kafka_network_socketserver_expiredconnectionskilledcount", frozenset())] == 0
    # A meter with a tag: Strimzi's rules give its Count only.
    assert ("kafka_network_acceptor_acceptorblockedpercent_count", frozenset({("listener", "PLAINTEXT")})) in samples


def test_message_conversions_of_an_old_client(broker_with_metrics: tuple[KafkaCluster, int]) -> None:  # noqa: F811
    """N magic-0 records produced are up-converted (ProduceMessageConversions N for the topic) and read back by the
    same old client are down-converted (FetchMessageConversions N)."""
    cluster, port = broker_with_metrics
    topic = "conversions"
    n = 40
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(timeout=30)
    producer = ck.Producer({"bootstrap.servers": cluster.bootstrap, "linger.ms": 5, **_OLD_CLIENT})
    for i in range(n):
        producer.produce(topic, key=f"k{i}".encode(), value=f"v{i}".encode())
    assert producer.flush(30) == 0

    def produce_conversions() -> float:
        return value(scrape(port), "kafka_server_brokertopicmetrics_producemessageconversions_total", topic=topic)

    wait_until_true(lambda: produce_conversions() == n, f"{n} records up-converted")

    consumer = ck.Consumer(
        {
            "bootstrap.servers": cluster.bootstrap,
            "group.id": "conversions",
            "auto.offset.reset": "earliest",
            **_OLD_CLIENT,
        }
    )
    consumer.assign([ck.TopicPartition(topic, 0, 0)])
    received = 0
    deadline = time.monotonic() + 60
    try:
        while received < n and time.monotonic() < deadline:
            message = consumer.poll(1.0)
            if message is not None and message.error() is None:
                received += 1
    finally:
        consumer.close()
    assert received == n
    samples = scrape(port)
    assert value(samples, "kafka_server_brokertopicmetrics_fetchmessageconversions_total", topic=topic) >= n
    assert value(samples, "kafka_server_brokertopicmetrics_fetchmessageconversions_total") >= n
