"""The sensors behind our clients' metrics() record what Java's do: the selector's (over a real socket to an echo
server), the Sender's (per drained batch and per request) and the consumer's fetch metrics (per response, per topic,
per partition), with Java's metric names, groups and tags."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.clients.consumer.internals.fetch_metrics_aggregator import FetchMetricsAggregator
from kafka.clients.consumer.internals.fetch_metrics_manager import FetchMetricsManager
from kafka.clients.consumer.internals.fetch_metrics_registry import FetchMetricsRegistry
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.producer.internals.sender import SenderMetrics, throttle_time_sensor
from kafka.clients.producer.internals.sender_metrics_registry import SenderMetricsRegistry
from kafka.common.metric import Metric
from kafka.common.metric_name import MetricName
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.metrics import Metrics
from kafka.common.network.selector import Selector
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime, Time
from tests.unit.kafka.common.network.echo_server import EchoServer
from tests.unit.kafka.common.network.test_selector import _connect, _send_and_receive

TAGS = {"client-id": "c1"}


def _value(metrics: Mapping[MetricName, Metric], group: str, name: str, **extra_tags: str) -> Any:
    metric = metrics[MetricName(name, group, "", {**TAGS, **extra_tags})]
    return metric.metric_value()


def test_selector_metrics_count_connections_requests_and_bytes() -> None:
    """A Selector given a Metrics records connections made and closed, requests and responses with their bytes,
    per client and per node (`{prefix}-node-metrics`, node-id `node-0`), and the polls."""
    server = EchoServer()
    metrics = Metrics(MetricConfig(tags=TAGS))
    selector = Selector(5000, Time.SYSTEM, LogContext(), metrics=metrics, metric_grp_prefix="producer")
    try:
        _connect(selector, "0", server.port)
        assert _send_and_receive(selector, "0", b"hello") == b"hello"
        m = metrics.metrics()
        assert _value(m, "producer-metrics", "connection-creation-total") == 1
        assert _value(m, "producer-metrics", "connection-count") == 1
        assert _value(m, "producer-metrics", "request-total") == 1
        assert _value(m, "producer-metrics", "response-total") == 1
        # 4 bytes of size and 5 of payload each way.
        assert _value(m, "producer-metrics", "outgoing-byte-total") == 9
        assert _value(m, "producer-metrics", "incoming-byte-total") == 9
        assert _value(m, "producer-metrics", "request-size-max") == 9
        assert _value(m, "producer-metrics", "select-total") > 0
        assert _value(m, "producer-node-metrics", "request-total", **{"node-id": "node-0"}) == 1
        assert _value(m, "producer-node-metrics", "incoming-byte-total", **{"node-id": "node-0"}) == 9
        selector.close("0")
        assert _value(metrics.metrics(), "producer-metrics", "connection-close-total") == 1
    finally:
        selector.close()
        server.close()
    # Closing the selector removes its metrics.
    assert not any(name.group.startswith("producer") for name in metrics.metrics())


def test_selector_without_metrics_records_nothing() -> None:
    """The broker's selectors take no Metrics: nothing is registered anywhere."""
    selector = Selector(5000, Time.SYSTEM, LogContext())
    try:
        assert selector._sensors is None
    finally:
        selector.close()


class _Batch:
    """What SenderMetrics reads of a ProducerBatch."""

    def __init__(self, topic: str, records: int, size: int) -> None:
        self.topic_partition = TopicPartition(topic, 0)
        self.record_count = records
        self._size = size

    def estimated_size_in_bytes(self) -> int:
        return self._size

    def compression_ratio(self) -> float:
        return 0.5

    def queue_time_ms(self) -> int:
        return 7


class _Client:
    def in_flight_request_count(self) -> int:
        return 3


class _Metadata:
    def last_successful_update(self) -> int:
        return 0


def test_sender_metrics_record_per_batch_and_request() -> None:
    """One produce request of two batches counts their records (record-send-total, per topic too), their sizes and
    one records-per-request sample; retries, errors and latency go to their sensors."""
    time = MockTime()
    metrics = Metrics(MetricConfig(tags=TAGS), time=time)
    registry = SenderMetricsRegistry(metrics)
    # The fakes stand in for the producer's metadata, client and batches.
    sensors = SenderMetrics(registry, _Metadata(), _Client(), time)  # type: ignore[arg-type]
    sensors.update_produce_request_metrics({0: [_Batch("a", 3, 100), _Batch("b", 2, 60)]})  # type: ignore[list-item]
    sensors.record_retries("a", 3)
    sensors.record_errors("b", 2)
    sensors.record_latency("0", 12)
    throttle_time_sensor(registry).record(5)
    m = metrics.metrics()
    assert _value(m, "producer-metrics", "record-send-total") == 5
    assert _value(m, "producer-metrics", "records-per-request-avg") == 5
    assert _value(m, "producer-metrics", "batch-size-max") == 100
    assert _value(m, "producer-metrics", "batch-size-avg") == 80
    assert _value(m, "producer-metrics", "compression-rate-avg") == 0.5
    assert _value(m, "producer-metrics", "record-queue-time-max") == 7
    assert _value(m, "producer-topic-metrics", "record-send-total", topic="a") == 3
    assert _value(m, "producer-topic-metrics", "byte-total", topic="b") == 60
    assert _value(m, "producer-metrics", "record-retry-total") == 3
    assert _value(m, "producer-topic-metrics", "record-retry-total", topic="a") == 3
    assert _value(m, "producer-metrics", "record-error-total") == 2
    assert _value(m, "producer-topic-metrics", "record-error-total", topic="b") == 2
    assert _value(m, "producer-metrics", "request-latency-max") == 12
    assert _value(m, "producer-metrics", "requests-in-flight") == 3
    assert _value(m, "producer-metrics", "produce-throttle-time-max") == 5


def test_fetch_metrics_per_response_topic_and_partition() -> None:
    """Bytes and records of a fetch response are recorded once all its partitions are drained (per response and
    per topic, dots in topic names as underscores); lag and lead are recorded per partition and their partition
    sensors go away with the assignment."""
    metrics = Metrics(MetricConfig(tags=TAGS))
    manager = FetchMetricsManager(metrics, FetchMetricsRegistry("consumer"))
    group = "consumer-fetch-manager-metrics"
    tp0, tp1 = TopicPartition("my.topic", 0), TopicPartition("my.topic", 1)
    aggregator = FetchMetricsAggregator(manager, [tp0, tp1])
    aggregator.record(tp0, 100, 4)
    assert _value(metrics.metrics(), group, "records-consumed-total") == 0
    aggregator.record(tp1, 50, 2)
    m = metrics.metrics()
    assert _value(m, group, "records-consumed-total") == 6
    assert _value(m, group, "bytes-consumed-total") == 150
    assert _value(m, group, "fetch-size-max") == 150
    assert _value(m, group, "records-per-request-avg") == 6
    assert _value(m, group, "records-consumed-total", topic="my_topic") == 6
    manager.record_latency(30)
    manager.record_partition_lag(tp0, 10)
    manager.record_partition_lag(tp1, 4)
    manager.record_partition_lead(tp0, 90)
    m = metrics.metrics()
    assert _value(m, group, "fetch-total") == 1
    assert _value(m, group, "fetch-latency-max") == 30
    assert _value(m, group, "records-lag-max") == 10
    assert _value(m, group, "records-lag", topic="my_topic", partition="1") == 4
    assert _value(m, group, "records-lead-min") == 90
    subscriptions = SubscriptionState(LogContext(), OffsetResetStrategy.EARLIEST)
    subscriptions.assign_from_user({tp1})
    manager.maybe_update_assignment(subscriptions)
    assert _value(metrics.metrics(), group, "preferred-read-replica", topic="my_topic", partition="1") == -1
    subscriptions.assign_from_user(set())
    manager.maybe_update_assignment(subscriptions)
    names = metrics.metrics()
    assert MetricName("preferred-read-replica", group, "", {**TAGS, "topic": "my_topic", "partition": "1"}) not in names


def test_fetch_metrics_combined_lag_and_lead_record_what_the_single_calls_do() -> None:
    """record_partition_lag_and_lead (None: not recorded) leaves every metric as record_partition_lag and
    record_partition_lead called one after the other do; record_fetch_totals as the four per-response calls."""
    time = MockTime()
    tps = [TopicPartition("t.x", 0), TopicPartition("t.x", 1), TopicPartition("u", 0)]
    samples = [(0, 5, 50), (1, None, 40), (2, 7, None), (0, 3, 20), (1, 0, 0), (2, None, None)]
    values = []
    for combined in (False, True):
        metrics = Metrics(MetricConfig(tags=TAGS), time=time)
        manager = FetchMetricsManager(metrics, FetchMetricsRegistry("consumer"))
        for i, lag, lead in samples:
            tp = tps[i]
            if combined:
                manager.record_partition_lag_and_lead(tp, lag, lead)
                manager.record_fetch_totals(100 * i, i, {"t.x": [60 * i, i], "u": [40 * i, 0]})
            else:
                if lag is not None:
                    manager.record_partition_lag(tp, lag)
                if lead is not None:
                    manager.record_partition_lead(tp, lead)
                manager.record_bytes_fetched(100 * i)
                manager.record_records_fetched(i)
                for topic, (num_bytes, records) in {"t.x": [60 * i, i], "u": [40 * i, 0]}.items():
                    manager.record_topic_bytes_fetched(topic, num_bytes)
                    manager.record_topic_records_fetched(topic, records)
        values.append({name: metric.metric_value() for name, metric in metrics.metrics().items()})
    assert values[0] == values[1]
    assert any(name.name == "records-lead" for name in values[1])
