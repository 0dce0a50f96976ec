"""KafkaProducerMetrics adds up the time spent in each of the producer's blocking calls, as Java's does."""

from __future__ import annotations

from kafka.clients.producer.internals.kafka_producer_metrics import KafkaProducerMetrics
from kafka.common.metric_name import MetricName
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.metrics import Metrics

TAGS = {"client-id": "p1"}


def test_each_call_has_its_total_and_close_removes_them() -> None:
    """Every record_* call adds to its own `{call}-time-ns-total` in producer-metrics (with the registry's tags);
    close removes them all."""
    metrics = Metrics(MetricConfig(tags=TAGS))
    m = KafkaProducerMetrics(metrics)
    recorders = {
        "flush": m.record_flush,
        "txn-init": m.record_init,
        "txn-begin": m.record_begin_txn,
        "txn-send-offsets": m.record_send_offsets,
        "txn-commit": m.record_commit_txn,
        "txn-abort": m.record_abort_txn,
        "metadata-wait": m.record_metadata_wait,
    }
    for i, record in enumerate(recorders.values(), start=1):
        record(i * 10)
        record(i)
    all_metrics = metrics.metrics()
    for i, name in enumerate(recorders, start=1):
        metric = all_metrics[MetricName(f"{name}-time-ns-total", "producer-metrics", "", TAGS)]
        assert metric.metric_value() == float(i * 11), name
    m.close()
    assert not [n for n in metrics.metrics() if n.name.endswith("-time-ns-total")]
    metrics.close()
