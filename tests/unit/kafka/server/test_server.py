"""Tests of kafka.server.server (Server.scala): the broker's Metrics registry."""

from __future__ import annotations

import threading

from kafka.common.metrics import MetricsContext, RecordingLevel
from kafka.common.utils.time import MockTime
from kafka.server.kafka_config import KafkaConfig
from kafka.server.server import build_metrics_config, create_kafka_metrics_context, initialize_metrics

PROPS = {"zookeeper.connect": "127.0.0.1:2181", "broker.id": "3"}


def test_build_metrics_config_reads_the_metrics_configs() -> None:
    """metrics.num.samples, metrics.sample.window.ms and metrics.recording.level make the default MetricConfig."""
    config = KafkaConfig(
        {
            **PROPS,
            "metrics.num.samples": "5",
            "metrics.sample.window.ms": "1234",
            "metrics.recording.level": "debug",
        },
        False,
    )
    metric_config = build_metrics_config(config)
    assert metric_config.samples == 5
    assert metric_config.time_window_ms == 1234
    assert metric_config.record_level is RecordingLevel.DEBUG
    assert metric_config.quota is None


def test_metrics_context_labels() -> None:
    """The context has Kafka's namespace, the cluster and broker ids and the metrics.context.* configs."""
    config = KafkaConfig({**PROPS, "metrics.context.region": "eu"}, False)
    labels = create_kafka_metrics_context(config, "abc").context_labels()
    assert labels == {
        MetricsContext.NAMESPACE: "kafka.server",
        "kafka.cluster.id": "abc",
        "kafka.broker.id": "3",
        "region": "eu",
    }


def test_initialize_metrics_expires_sensors_and_closes() -> None:
    """The broker's registry runs the SensorExpiryThread until closed and uses the broker's default config."""
    config = KafkaConfig({**PROPS, "metrics.num.samples": "4"}, False)
    metrics = initialize_metrics(config, MockTime(), "abc")
    try:
        assert metrics.config().samples == 4
        assert any(t.name == "SensorExpiryThread" for t in threading.enumerate())
    finally:
        metrics.close()
    assert not any(t.name == "SensorExpiryThread" and t.is_alive() for t in threading.enumerate())
