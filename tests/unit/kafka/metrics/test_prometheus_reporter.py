"""Tests of kafka.metrics.prometheus_reporter: Strimzi's names for Kafka's MBeans, and the HTTP endpoint."""

from __future__ import annotations

import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.rate import Rate
from kafka.common.metrics.stats.value import Value
from kafka.common.utils.time import MockTime
from kafka.metrics.kafka_metrics_group import explicit_metric_name
from kafka.metrics.prometheus_reporter import PrometheusReporter, bean_string, safe_name
from kafka.metrics.yammer import MetricsRegistry
from kafka.utils.time_unit import TimeUnit


def _samples(reporter: PrometheusReporter) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = reporter.scrape().decode()
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out


def _key(name: str, **labels: str) -> tuple[str, frozenset[tuple[str, str]]]:
    return (name, frozenset(labels.items()))


def test_issue_example_names() -> None:
    """The five names issue 16 gives come out of the Yammer metrics Kafka registers for them."""
    registry = MetricsRegistry()
    registry.new_meter(
        explicit_metric_name("kafka.server", "BrokerTopicMetrics", "MessagesInPerSec", {"topic": "t"}),
        "messages",
        TimeUnit.SECONDS,
    ).mark(7)
    registry.new_meter(
        explicit_metric_name("kafka.server", "BrokerTopicMetrics", "MessagesInPerSec"), "messages", TimeUnit.SECONDS
    ).mark(9)
    registry.new_gauge(explicit_metric_name("kafka.server", "ReplicaManager", "UnderReplicatedPartitions"), lambda: 2)
    registry.new_gauge(explicit_metric_name("kafka.controller", "KafkaController", "ActiveControllerCount"), lambda: 1)
    registry.new_meter(
        explicit_metric_name(
            "kafka.network", "RequestMetrics", "RequestsPerSec", {"request": "Produce", "version": "9"}
        ),
        "requests",
        TimeUnit.SECONDS,
    ).mark(3)
    registry.new_gauge(
        explicit_metric_name("kafka.log", "Log", "LogEndOffset", {"topic": "t", "partition": "0"}), lambda: 42
    )
    samples = _samples(PrometheusReporter(registry))
    assert samples[_key("kafka_server_brokertopicmetrics_messagesin_total", topic="t")] == 7
    assert samples[_key("kafka_server_brokertopicmetrics_messagesin_total")] == 9
    assert samples[_key("kafka_server_replicamanager_underreplicatedpartitions")] == 2
    assert samples[_key("kafka_controller_kafkacontroller_activecontrollercount")] == 1
    assert samples[_key("kafka_network_requestmetrics_requests_total", request="Produce", version="9")] == 3
    assert samples[_key("kafka_log_log_logendoffset", topic="t", partition="0")] == 42


def test_histograms_as_summaries() -> None:
    """A histogram gives `_count` and quantile gauges; a timer in ms the same in ms."""
    registry = MetricsRegistry()
    h = registry.new_histogram(
        explicit_metric_name("kafka.network", "RequestMetrics", "TotalTimeMs", {"request": "Fetch"}), biased=True
    )
    for v in range(1, 101):
        h.update(v)
    t = registry.new_timer(
        explicit_metric_name("kafka.controller", "ControllerStats", "LeaderElectionRateAndTimeMs"),
        TimeUnit.MILLISECONDS,
        TimeUnit.SECONDS,
    )
    t.update(20, TimeUnit.MILLISECONDS)
    samples = _samples(PrometheusReporter(registry))
    assert samples[_key("kafka_network_requestmetrics_totaltimems_count", request="Fetch")] == 100
    assert samples[_key("kafka_network_requestmetrics_totaltimems", request="Fetch", quantile="0.50")] == 50.5
    assert samples[_key("kafka_network_requestmetrics_totaltimems", request="Fetch", quantile="0.999")] == 100
    # A name containing "PerSec"-less "Rate" is not a meter rule: the timer is read as a histogram and a meter.
    assert samples[_key("kafka_controller_controllerstats_leaderelectionrateandtimems_count")] == 1
    assert samples[_key("kafka_controller_controllerstats_leaderelectionrateandtimems", quantile="0.99")] == 20


def test_percent_metrics() -> None:
    """Idle percents: a meter read through MeanRate, and gauges with or without a tag."""
    time = MockTime(start_ms=0, start_ns=0)
    registry = MetricsRegistry(time)
    meter = registry.new_meter(
        explicit_metric_name("kafka.server", "KafkaRequestHandlerPool", "RequestHandlerAvgIdlePercent"),
        "percent",
        TimeUnit.NANOSECONDS,
    )
    meter.mark(500_000_000)
    time.sleep(1000)
    registry.new_gauge(
        explicit_metric_name("kafka.network", "SocketServer", "NetworkProcessorAvgIdlePercent"), lambda: 0.25
    )
    registry.new_gauge(
        explicit_metric_name("kafka.network", "Processor", "IdlePercent", {"networkProcessor": "1"}), lambda: 0.75
    )
    samples = _samples(PrometheusReporter(registry))
    assert samples[_key("kafka_server_kafkarequesthandlerpool_requesthandleravgidle_percent")] == 0.5
    assert samples[_key("kafka_network_socketserver_networkprocessoravgidle_percent")] == 0.25
    assert samples[_key("kafka_network_processor_idle_percent", networkProcessor="1")] == 0.75


def test_special_cases_and_unmatched() -> None:
    """Fetcher lag gauges get clientId/topic/partition labels; meter rates and histogram means are not exported."""
    registry = MetricsRegistry()
    registry.new_gauge(
        explicit_metric_name(
            "kafka.server",
            "FetcherLagMetrics",
            "ConsumerLag",
            {"clientId": "ReplicaFetcherThread-0-1", "topic": "t", "partition": "3"},
        ),
        lambda: 5,
    )
    registry.new_gauge(explicit_metric_name("kafka.server", "X", "NotANumber"), lambda: "text")
    registry.new_gauge(explicit_metric_name("kafka.server", "X", "Broken"), lambda: 1 / 0)
    samples = _samples(PrometheusReporter(registry))
    key = _key(
        "kafka_server_fetcherlagmetrics_consumerlag", clientId="ReplicaFetcherThread-0-1", topic="t", partition="3"
    )
    assert samples[key] == 5
    assert not any("rate" in name for name, _ in samples)
    assert not any("notanumber" in name or "broken" in name for name, _ in samples)


def test_java_metrics() -> None:
    """Java-style metrics: socket-server connection counts by Strimzi's rule, quota sensors by ours."""
    metrics = Metrics(time=MockTime(start_ms=0, start_ns=0))
    s = metrics.sensor("connections")
    s.add(
        metrics.metric_name(
            "connection-count", "socket-server-metrics", tags={"listener": "PLAINTEXT", "networkProcessor": "0"}
        ),
        Value(),
    )
    s.record(3)
    q = metrics.sensor("Produce-u-c")
    q.add(metrics.metric_name("byte-rate", "Produce", tags={"user": "", "client-id": "c1"}), Rate())
    q.add(metrics.metric_name("throttle-time", "Produce", tags={"user": "alice", "client-id": "c1"}), Value())
    q.record(10)
    samples = _samples(PrometheusReporter(MetricsRegistry(), metrics))
    assert (
        samples[_key("kafka_server_socket_server_metrics_connection_count", listener="PLAINTEXT", networkProcessor="0")]
        == 3
    )
    assert _key("kafka_server_produce_byte_rate", client_id="c1") in samples
    assert samples[_key("kafka_server_produce_throttle_time", user="alice", client_id="c1")] == 10
    assert samples[_key("kafka_server_kafka_metrics_count_count")] >= 3


def test_names_and_beans() -> None:
    """The exporter's name cleaning and MBean rendering."""
    assert safe_name("kafka_server_socket-server-metrics_connection-count") == (
        "kafka_server_socket_server_metrics_connection_count"
    )
    assert safe_name("a__b..c") == "a_b_c"
    assert safe_name("9x") == "_9x"
    assert bean_string('kafka.server:type=T,name=N,user="a,b"') == 'kafka.server<type=T, name=N, user="a,b">'


def test_removed_metrics_disappear() -> None:
    """A metric removed from the registry is not served any more."""
    registry = MetricsRegistry()
    name = explicit_metric_name("kafka.server", "BrokerTopicMetrics", "BytesInPerSec", {"topic": "gone"})
    registry.new_meter(name, "bytes", TimeUnit.SECONDS).mark(1)
    reporter = PrometheusReporter(registry)
    assert _key("kafka_server_brokertopicmetrics_bytesin_total", topic="gone") in _samples(reporter)
    registry.remove_metric(name)
    assert _key("kafka_server_brokertopicmetrics_bytesin_total", topic="gone") not in _samples(reporter)


def test_http_endpoint() -> None:
    """GET /metrics on the bound port serves the text format."""
    registry = MetricsRegistry()
    registry.new_gauge(explicit_metric_name("kafka.server", "ReplicaManager", "LeaderCount"), lambda: 4)
    reporter = PrometheusReporter(registry)
    reporter.startup("127.0.0.1", 0)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{reporter.bound_port}/metrics", timeout=10) as resp:
            body = resp.read().decode()
        assert "kafka_server_replicamanager_leadercount 4.0" in body
    finally:
        reporter.shutdown()
    assert reporter.bound_port == -1
