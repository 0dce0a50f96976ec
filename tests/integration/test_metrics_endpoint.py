"""The broker's /metrics endpoint on a broker started from the bin scripts (issue 16): after N records are produced
to a topic, MessagesIn of that topic is N, its LogEndOffset is N, and the Produce and Fetch request counts rise."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.cluster import ClusterFactory, KafkaCluster
from tests.integration.zookeeper import free_port
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def broker_with_metrics(cluster_factory: ClusterFactory) -> Iterator[tuple[KafkaCluster, int]]:
    port = free_port()
    cluster = cluster_factory(
        {"metrics.prometheus.port": str(port), "metrics.prometheus.host": "127.0.0.1"}, num_brokers=1
    )
    yield cluster, port


def scrape(port: int) -> Samples:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def request_count(samples: Samples, request: str) -> float:
    """RequestsPerSec of `request`, summed over its versions."""
    return sum(
        v
        for (name, labels), v in samples.items()
        if name == "kafka_network_requestmetrics_requests_total" and ("request", request) in labels
    )


def test_produced_records_show_in_the_metrics(broker_with_metrics: tuple[KafkaCluster, int]) -> None:
    """N records produced to a topic: MessagesIn of the topic and of all topics rise by N, the topic's LogEndOffset
    is N, and the Produce and Fetch request counts rise."""
    cluster, port = broker_with_metrics
    bootstrap = cluster.bootstrap
    topic = "metrics-endpoint"
    n = 250
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(timeout=30)
    before = scrape(port)
    assert value(before, "kafka_server_brokertopicmetrics_messagesin_total", topic=topic) == 0
    all_in_before = value(before, "kafka_server_brokertopicmetrics_messagesin_total")
    produce_before = request_count(before, "Produce")

    producer = ck.Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for i in range(n):
        producer.produce(topic, value=f"record-{i}".encode())
    assert producer.flush(30) == 0

    consumer = ck.Consumer(
        {"bootstrap.servers": bootstrap, "group.id": "metrics-endpoint", "auto.offset.reset": "earliest"}
    )
    consumer.subscribe([topic])
    received = 0
    deadline = time.monotonic() + 60
    try:
        while received < n and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                received += 1
    finally:
        consumer.close()
    assert received == n

    # Request metrics are updated by the network thread once a response is sent, which may be just after the
    # client has read it.
    wait_until_true(
        lambda: request_count(scrape(port), "Produce") > produce_before and request_count(scrape(port), "Fetch") > 0,
        "the Produce and Fetch requests to be counted",
        timeout=30,
    )
    after = scrape(port)
    assert value(after, "kafka_server_brokertopicmetrics_messagesin_total", topic=topic) == n
    assert value(after, "kafka_server_brokertopicmetrics_messagesin_total") - all_in_before >= n
    assert value(after, "kafka_server_brokertopicmetrics_bytesin_total", topic=topic) > 0
    assert value(after, "kafka_server_brokertopicmetrics_bytesout_total", topic=topic) > 0
    assert value(after, "kafka_server_brokertopicmetrics_totalproducerequests_total", topic=topic) >= 1
    assert value(after, "kafka_server_brokertopicmetrics_totalfetchrequests_total", topic=topic) >= 1
    assert request_count(after, "Produce") > produce_before
    assert request_count(after, "Fetch") > 0
    assert request_count(after, "FetchConsumer") > 0
    assert value(after, "kafka_network_requestmetrics_totaltimems_count", request="Produce") > 0
    assert (
        "kafka_network_requestmetrics_totaltimems",
        frozenset({("request", "Produce"), ("quantile", "0.99")}),
    ) in after
    assert ("kafka_server_kafkarequesthandlerpool_requesthandleravgidle_percent", frozenset()) in after
    assert ("kafka_network_requestchannel_requestqueuesize", frozenset()) in after
    assert after[("kafka_log_log_logendoffset", frozenset({("topic", topic), ("partition", "0")}))] == n
