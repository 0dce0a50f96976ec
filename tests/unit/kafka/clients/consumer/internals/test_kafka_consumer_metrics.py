"""KafkaConsumerMetrics records the consumer's poll timings and its commitSync/committed time as Java's does."""

from __future__ import annotations

import math
from typing import Any

from kafka.clients.consumer.internals.kafka_consumer_metrics import KafkaConsumerMetrics
from kafka.common.metrics.metrics import Metrics
from kafka.common.utils.time import MockTime

GROUP = "consumer-metrics"


def _value(metrics: Metrics, name: str) -> Any:
    metric = metrics.metric(metrics.metric_name(name, GROUP))
    assert metric is not None, name
    return metric.metric_value()


def test_poll_timings() -> None:
    """time-between-poll is the time from one poll's start to the next's; poll-idle-ratio-avg is a poll's duration
    over that duration plus the time since the previous poll; last-poll-seconds-ago counts whole seconds."""
    time = MockTime()
    metrics = Metrics(time=time)
    m = KafkaConsumerMetrics(metrics, "consumer")
    try:
        assert _value(metrics, "last-poll-seconds-ago") == -1.0
        start = time.milliseconds()
        m.record_poll_start(start)
        m.record_poll_end(start + 100)  # the first poll: no time between, idle ratio 100 / 100
        m.record_poll_start(start + 400)
        m.record_poll_end(start + 500)  # 100 ms of poll after 400 ms between: 0.2
        assert _value(metrics, "time-between-poll-max") == 400.0
        assert _value(metrics, "time-between-poll-avg") == 200.0
        assert math.isclose(_value(metrics, "poll-idle-ratio-avg"), (1.0 + 0.2) / 2)
        time.sleep(400 + 2_999)
        assert _value(metrics, "last-poll-seconds-ago") == 2.0
    finally:
        m.close()
        metrics.close()


def test_first_poll_within_its_millisecond_records_nan() -> None:
    """A first poll that starts and ends in the same millisecond divides 0 by 0: NaN, as Java's double division."""
    time = MockTime()
    metrics = Metrics(time=time)
    m = KafkaConsumerMetrics(metrics, "consumer")
    try:
        m.record_poll_start(time.milliseconds())
        m.record_poll_end(time.milliseconds())
        assert math.isnan(_value(metrics, "poll-idle-ratio-avg"))
    finally:
        metrics.close()


def test_commit_times_and_close() -> None:
    """commit-sync-time-ns-total and committed-time-ns-total add up the durations given; close removes every
    metric it registered."""
    metrics = Metrics(time=MockTime())
    m = KafkaConsumerMetrics(metrics, "consumer")
    m.record_commit_sync(1_500)
    m.record_commit_sync(500)
    m.record_committed(700)
    assert _value(metrics, "commit-sync-time-ns-total") == 2_000.0
    assert _value(metrics, "committed-time-ns-total") == 700.0
    m.close()
    assert not [n for n in metrics.metrics() if n.group == GROUP]
    metrics.close()
