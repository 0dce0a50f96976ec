"""Tests of kafka.metrics.yammer (the port of Yammer metrics-core 2.2.0), on a mock clock."""

from __future__ import annotations

import math
import random
import threading

import pytest

from kafka.common.utils.time import MockTime
from kafka.metrics.yammer import (
    Counter,
    ExponentiallyDecayingSample,
    Gauge,
    Histogram,
    Meter,
    MetricName,
    MetricsRegistry,
    MetricsRegistryListener,
    Snapshot,
    Timer,
    UniformSample,
)
from kafka.metrics.yammer.histogram import update_histograms
from kafka.metrics.yammer.metrics_registry import Metric
from kafka.utils.time_unit import TimeUnit


def test_meter_rates_after_ticks() -> None:
    """After 3 events and one 5 s tick the 1/5/15-minute rates are 0.6/s, and they decay as Yammer's EWMA does."""
    time = MockTime(start_ms=0, start_ns=0)
    meter = Meter("requests", TimeUnit.SECONDS, time)
    meter.mark()
    meter.mark(2)
    assert meter.count == 3
    assert meter.one_minute_rate == 0.0  # no interval has closed yet
    time.sleep(5000)
    assert meter.one_minute_rate == pytest.approx(0.6)
    assert meter.five_minute_rate == pytest.approx(0.6)
    assert meter.fifteen_minute_rate == pytest.approx(0.6)
    # Yammer's reference values one minute (12 empty ticks) later.
    time.sleep(60_000)
    assert meter.one_minute_rate == pytest.approx(0.22072766, rel=1e-6)
    assert meter.five_minute_rate == pytest.approx(0.49123845, rel=1e-6)
    assert meter.fifteen_minute_rate == pytest.approx(0.56130419, rel=1e-6)
    assert meter.mean_rate == pytest.approx(3 / 65)


def test_meter_ticks_one_interval_at_a_time_equals_many_at_once() -> None:
    """Reading a meter every 5 s gives the same rate as reading it once after the same idle time."""
    t1, t2 = MockTime(start_ms=0, start_ns=0), MockTime(start_ms=0, start_ns=0)
    m1, m2 = Meter("x", TimeUnit.SECONDS, t1), Meter("x", TimeUnit.SECONDS, t2)
    m1.mark(100)
    m2.mark(100)
    for _ in range(30):
        t1.sleep(5000)
        _ = m1.one_minute_rate
    t2.sleep(150_000)
    assert m1.one_minute_rate == pytest.approx(m2.one_minute_rate)
    assert m1.fifteen_minute_rate == pytest.approx(m2.fifteen_minute_rate)


def test_meter_rate_unit() -> None:
    """A per-minute meter reports 60 times the per-second rate."""
    time = MockTime(start_ms=0, start_ns=0)
    meter = Meter("bytes", TimeUnit.MINUTES, time)
    meter.mark(10)
    time.sleep(5000)
    assert meter.one_minute_rate == pytest.approx(2.0 * 60)


def test_meter_is_thread_safe() -> None:
    """Concurrent marks are all counted."""
    meter = Meter("x", TimeUnit.SECONDS)

    def work() -> None:
        for _ in range(10_000):
            meter.mark()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert meter.count == 40_000


def test_snapshot_quantiles() -> None:
    """Quantiles interpolate between the nearest values as Yammer's Snapshot does."""
    snapshot = Snapshot([5, 1, 2, 3, 4])
    assert snapshot.get_value(0.0) == 1
    assert snapshot.get_value(1.0) == 5
    assert snapshot.median == 3
    assert snapshot.p75 == pytest.approx(4.5)
    assert snapshot.p99 == 5
    assert Snapshot([]).get_value(0.5) == 0.0
    with pytest.raises(ValueError):
        snapshot.get_value(1.5)


def test_uniform_histogram_statistics_and_percentiles() -> None:
    """Count, min, max, mean, std dev and percentiles of 1..1000 in a uniform histogram."""
    h = Histogram.uniform()
    assert (h.count, h.min, h.max, h.mean, h.std_dev) == (0, 0.0, 0.0, 0.0, 0.0)
    for i in range(1, 1001):
        h.update(i)
    assert h.count == 1000
    assert h.min == 1
    assert h.max == 1000
    assert h.mean == pytest.approx(500.5)
    assert h.std_dev == pytest.approx(288.8194360957494)
    assert h.sum == 500500
    snap = h.snapshot()
    assert snap.size() == 1000
    assert snap.median == pytest.approx(500.5)
    assert snap.p75 == pytest.approx(750.75)
    assert snap.p99 == pytest.approx(990.99)
    assert snap.p999 == pytest.approx(999.999)


def test_uniform_sample_keeps_reservoir_size() -> None:
    """Past the reservoir size the sample holds exactly that many values, all from the stream."""
    sample = UniformSample(100, random.Random(1))
    for i in range(1000):
        sample.update(i)
    values = sample.get_snapshot().get_values()
    assert len(values) == 100
    assert sample.size() == 100
    assert all(0 <= v < 1000 for v in values)


def test_exponentially_decaying_sample_favours_recent_values() -> None:
    """With 1028 slots and values spread over 10 minutes, the biased sample's median lies in the recent half."""
    time = MockTime(start_ms=0, start_ns=0)
    sample = ExponentiallyDecayingSample(100, 0.015, time, random.Random(7))
    for minute in range(10):
        for _ in range(1000):
            sample.update(minute)
        time.sleep(60_000)
    snap = sample.get_snapshot()
    assert snap.size() == 100
    assert snap.median >= 8


def test_exponentially_decaying_sample_rescales_after_an_hour() -> None:
    """The hourly rescale keeps the values and their order of priority."""
    time = MockTime(start_ms=0, start_ns=0)
    sample = ExponentiallyDecayingSample(10, 0.015, time, random.Random(3))
    for i in range(10):
        sample.update(i)
    time.sleep(3_600_001)
    sample.update(100)
    values = sample.get_snapshot().get_values()
    assert len(values) == 10
    assert 100 in values


def test_biased_histogram_small_counts() -> None:
    """A biased histogram with fewer values than its reservoir reports them exactly."""
    h = Histogram.biased(MockTime(start_ms=0, start_ns=0))
    for v in (10, 20, 30):
        h.update(v)
    assert h.snapshot().get_values() == [10, 20, 30]
    assert h.snapshot().median == 20


def test_timer_converts_durations() -> None:
    """A timer in ms records ns internally and reports ms; its meter counts the calls."""
    time = MockTime(start_ms=0, start_ns=0)
    timer = Timer(TimeUnit.MILLISECONDS, TimeUnit.SECONDS, time)
    timer.update(2, TimeUnit.SECONDS)
    timer.update(500, TimeUnit.MILLISECONDS)
    timer.update(-1, TimeUnit.MILLISECONDS)
    assert timer.count == 2
    assert timer.max == pytest.approx(2000)
    assert timer.min == pytest.approx(500)
    assert timer.mean == pytest.approx(1250)
    assert timer.snapshot().get_values() == pytest.approx([500, 2000])
    time.sleep(5000)
    assert timer.one_minute_rate == pytest.approx(0.4)


def test_metric_name_mbean_name_and_equality() -> None:
    """The default MBean name is Yammer's; names with the same MBean name are equal."""
    n = MetricName("kafka.server", "ReplicaManager", "LeaderCount")
    assert n.mbean_name == "kafka.server:type=ReplicaManager,name=LeaderCount"
    s = MetricName("g", "T", "N", "topic.t")
    assert s.mbean_name == "g:type=T,scope=topic.t,name=N"
    assert MetricName("a", "b", "c", mbean_name="x:type=y") == MetricName("d", "e", "f", mbean_name="x:type=y")


def test_registry_get_or_create() -> None:
    """Asking twice for a name returns the same metric; another kind under that name is refused."""
    registry = MetricsRegistry()
    name = MetricName("kafka.server", "BrokerTopicMetrics", "MessagesInPerSec")
    meter = registry.new_meter(name, "messages", TimeUnit.SECONDS)
    assert registry.new_meter(name, "other", TimeUnit.MINUTES) is meter
    with pytest.raises(ValueError):
        registry.new_histogram(name)
    gauge = registry.new_gauge(MetricName("g", "T", "G"), lambda: 42)
    assert gauge.value() == 42
    assert registry.new_gauge(MetricName("g", "T", "G"), Gauge(lambda: 0)) is gauge
    counter = registry.new_counter(MetricName("g", "T", "C"))
    counter.inc(3)
    counter.dec()
    assert isinstance(counter, Counter) and counter.count == 2
    assert set(registry.all_metrics()) == {name, MetricName("g", "T", "G"), MetricName("g", "T", "C")}
    registry.remove_metric(name)
    assert name not in registry.all_metrics()
    assert registry.new_meter(name, "messages", TimeUnit.SECONDS) is not meter


def test_registry_listeners() -> None:
    """Listeners hear of metrics already there, added and removed."""
    registry = MetricsRegistry()
    registry.new_counter(MetricName("g", "T", "A"))
    events: list[tuple[str, str]] = []

    class L(MetricsRegistryListener):
        def on_metric_added(self, name: MetricName, metric: Metric) -> None:
            events.append(("added", name.name))

        def on_metric_removed(self, name: MetricName) -> None:
            events.append(("removed", name.name))

    registry.add_listener(L())
    registry.new_timer(MetricName("g", "T", "B"), TimeUnit.MILLISECONDS, TimeUnit.SECONDS)
    registry.new_timer(MetricName("g", "T", "B"), TimeUnit.MILLISECONDS, TimeUnit.SECONDS)
    registry.remove_metric(MetricName("g", "T", "A"))
    assert events == [("added", "A"), ("added", "B"), ("removed", "A")]


def test_registry_concurrent_get_or_create() -> None:
    """Threads racing to create one name all get the same meter."""
    registry = MetricsRegistry()
    name = MetricName("g", "T", "M")
    got: list[Meter] = []
    barrier = threading.Barrier(8)

    def work() -> None:
        barrier.wait()
        got.append(registry.new_meter(name, "x", TimeUnit.SECONDS))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(m) for m in got}) == 1
    assert not math.isnan(got[0].mean_rate)


def test_updates_with_the_time_the_caller_read_equal_updates_that_read_it() -> None:
    """A meter marked and a histogram updated with `now_ns` (one clock read for several updates, as the request
    metrics do) end up as those that read the clock themselves: same counts, rates and sample."""
    t1, t2 = MockTime(start_ms=0, start_ns=0), MockTime(start_ms=0, start_ns=0)
    m1, m2 = Meter("x", TimeUnit.SECONDS, t1), Meter("x", TimeUnit.SECONDS, t2)
    h1 = Histogram(ExponentiallyDecayingSample(10, 0.015, t1, random.Random(5)))
    h2 = Histogram(ExponentiallyDecayingSample(10, 0.015, t2, random.Random(5)))
    for i in range(40):
        m1.mark(i)
        h1.update(i)
        now = t2.nanoseconds()
        m2.mark(i, now)
        h2.update(i, now)
        t1.sleep(2000)
        t2.sleep(2000)
    assert m1.count == m2.count
    assert m1.one_minute_rate == pytest.approx(m2.one_minute_rate)
    assert m1.fifteen_minute_rate == pytest.approx(m2.fifteen_minute_rate)
    assert h1.snapshot().get_values() == h2.snapshot().get_values()
    assert (h1.count, h1.mean, h1.std_dev) == (h2.count, h2.mean, h2.std_dev)


def test_update_histograms_equals_updating_each() -> None:
    """update_histograms (the request metrics' one call per response) leaves biased histograms as Histogram.update
    does, through reservoir replacement and the hourly rescale, and passes other samples to Histogram.update."""
    t1, t2 = MockTime(start_ms=0, start_ns=0), MockTime(start_ms=0, start_ns=0)
    one = [Histogram(ExponentiallyDecayingSample(8, 0.015, t1, random.Random(seed))) for seed in (1, 2)]
    two = [Histogram(ExponentiallyDecayingSample(8, 0.015, t2, random.Random(seed))) for seed in (1, 2)]
    one.append(Histogram(UniformSample(8, random.Random(3))))
    two.append(Histogram(UniformSample(8, random.Random(3))))
    for i in range(60):
        values = (i % 7, 3 * i - 50, i * 0.5)
        for h, v in zip(one, values):
            h.update(v, t1.nanoseconds())
        update_histograms(two, values, t2.nanoseconds())
        step = 3_600_001 if i == 40 else 7_000
        t1.sleep(step)
        t2.sleep(step)
    for h1, h2 in zip(one, two):
        assert sorted(h1.snapshot().get_values()) == sorted(h2.snapshot().get_values())
        assert (h1.count, h1.min, h1.max, h1.sum, h1.mean, h1.std_dev) == (
            h2.count,
            h2.min,
            h2.max,
            h2.sum,
            h2.mean,
            h2.std_dev,
        )
