"""Tests of kafka.common.metrics.Metrics and its stats (subsets of Kafka 2.8's MetricsTest)."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator

import pytest

from kafka.common.metric_name import MetricName
from kafka.common.metrics import (
    KafkaMetric,
    Measurable,
    MetricConfig,
    Metrics,
    MetricsContext,
    MetricsReporter,
    Quota,
    QuotaViolationException,
)
from kafka.common.metrics.internals.metrics_utils import TimeUnit, get_tags
from kafka.common.metrics.stats import (
    Avg,
    CumulativeSum,
    Max,
    Meter,
    Min,
    Rate,
    SimpleRate,
    Value,
    WindowedCount,
    WindowedSum,
)
from kafka.common.utils.time import MockTime

EPS = 0.000001


@pytest.fixture
def time() -> MockTime:
    return MockTime()


@pytest.fixture
def config() -> MetricConfig:
    return MetricConfig()


@pytest.fixture
def metrics(time: MockTime, config: MetricConfig) -> Iterator[Metrics]:
    m = Metrics(config, [], time, True)
    yield m
    m.close()


class ConstantMeasurable(Measurable):
    def __init__(self) -> None:
        self.value = 0.0

    def measure(self, config: MetricConfig, now: int) -> float:
        return self.value


def _value(metrics: Metrics, name: str, group: str = "grp1") -> float:
    metric = metrics.metric(metrics.metric_name(name, group))
    assert metric is not None
    value = metric.metric_value()
    assert isinstance(value, float)
    return value


def test_metric_name(metrics: Metrics) -> None:
    """Names made from key/value pairs and from a map are equal; an odd number of key/values is refused."""
    n1 = metrics.metric_name("name", "group", "description", get_tags("key1", "value1", "key2", "value2"))
    n2 = metrics.metric_name("name", "group", "description", {"key2": "value2", "key1": "value1"})
    assert n1 == n2
    assert hash(n1) == hash(n2)
    assert n1 != metrics.metric_name("name", "group", "description", {"key1": "value1"})
    # The description is not part of a name's identity.
    assert MetricName("n", "g", "one", {}) == MetricName("n", "g", "other", {})
    with pytest.raises(ValueError):
        get_tags("key1")


def test_metric_name_repr() -> None:
    """A MetricName prints as Java's toString."""
    name = MetricName("byte-rate", "LeaderReplication", "d", {"a": "1", "b": "2"})
    assert str(name) == "MetricName [name=byte-rate, group=LeaderReplication, description=d, tags={a=1, b=2}]"


def test_default_tags_of_config() -> None:
    """The registry's config tags are in every name it makes, overridden by the name's own tags."""
    with Metrics(MetricConfig(tags={"client-id": "c1", "x": "1"})) as metrics:
        name = metrics.metric_name("n", "g", "", {"x": "2"})
        assert name.tags == {"client-id": "c1", "x": "2"}


def test_simple_stats(metrics: Metrics, config: MetricConfig, time: MockTime) -> None:
    """Avg, Max, Min, Meter rates and totals, WindowedCount and CumulativeSum measure what was recorded."""
    measurable = ConstantMeasurable()
    metrics.add_metric(metrics.metric_name("direct.measurable", "grp1", "The fraction of time..."), measurable)
    s = metrics.sensor("test.sensor")
    s.add(metrics.metric_name("test.avg", "grp1"), Avg())
    s.add(metrics.metric_name("test.max", "grp1"), Max())
    s.add(metrics.metric_name("test.min", "grp1"), Min())
    s.add(Meter(metrics.metric_name("test.rate", "grp1"), metrics.metric_name("test.total", "grp1"), TimeUnit.SECONDS))
    s.add(
        Meter(
            metrics.metric_name("test.occurences", "grp1"),
            metrics.metric_name("test.occurences.total", "grp1"),
            TimeUnit.SECONDS,
            WindowedCount(),
        )
    )
    s.add(metrics.metric_name("test.count", "grp1"), WindowedCount())

    s2 = metrics.sensor("test.sensor2")
    s2.add(metrics.metric_name("s2.total", "grp1"), CumulativeSum())
    s2.record(5.0)

    total = 0
    count = 10
    for i in range(count):
        s.record(i)
        total += i
    elapsed_secs = (config.time_window_ms * (config.samples - 1)) / 1000.0
    assert _value(metrics, "test.occurences") == pytest.approx(count / elapsed_secs, abs=EPS)

    sleep_time_ms = 2
    time.sleep(sleep_time_ms * 1000)
    elapsed_secs += sleep_time_ms

    assert _value(metrics, "s2.total") == pytest.approx(5.0, abs=EPS)
    assert _value(metrics, "test.avg") == pytest.approx(4.5, abs=EPS)
    assert _value(metrics, "test.max") == pytest.approx(count - 1, abs=EPS)
    assert _value(metrics, "test.min") == pytest.approx(0.0, abs=EPS)
    assert _value(metrics, "test.rate") == pytest.approx(total / elapsed_secs, abs=EPS)
    assert _value(metrics, "test.total") == pytest.approx(total, abs=EPS)
    assert _value(metrics, "test.occurences") == pytest.approx(count / elapsed_secs, abs=EPS)
    assert _value(metrics, "test.occurences.total") == pytest.approx(count, abs=EPS)
    assert _value(metrics, "test.count") == pytest.approx(count, abs=EPS)
    measurable.value = 3.5
    assert _value(metrics, "direct.measurable") == 3.5


def test_hierarchical_sensors(metrics: Metrics) -> None:
    """A record counts in the sensor and in all its ancestors; children are tracked per parent."""
    parent1 = metrics.sensor("test.parent1")
    parent1.add(metrics.metric_name("test.parent1.count", "grp1"), WindowedCount())
    parent2 = metrics.sensor("test.parent2")
    parent2.add(metrics.metric_name("test.parent2.count", "grp1"), WindowedCount())
    child1 = metrics.sensor("test.child1", parent1, parent2)
    child1.add(metrics.metric_name("test.child1.count", "grp1"), WindowedCount())
    child2 = metrics.sensor("test.child2", parent1)
    child2.add(metrics.metric_name("test.child2.count", "grp1"), WindowedCount())
    grandchild = metrics.sensor("test.grandchild", child1)
    grandchild.add(metrics.metric_name("test.grandchild.count", "grp1"), WindowedCount())

    for sensor in (parent1, parent2, child1, child2, grandchild):
        sensor.record()

    p1, p2, c1, c2, gc = (s.metrics()[0].metric_value() for s in (parent1, parent2, child1, child2, grandchild))
    assert gc == 1.0
    assert c1 == 1.0 + gc
    assert c2 == 1.0
    assert p2 == 1.0 + c1
    assert p1 == 1.0 + c1 + c2
    children = metrics.children_sensors()
    assert children[parent1] == [child1, child2]
    assert children[parent2] == [child1]
    assert grandchild not in children


def test_bad_sensor_hierarchy(metrics: Metrics) -> None:
    """A sensor reaching one ancestor through two parents is refused, as Kafka's checkForest does."""
    p = metrics.sensor("parent")
    c1 = metrics.sensor("child1", p)
    c2 = metrics.sensor("child2", p)
    with pytest.raises(ValueError):
        metrics.sensor("gc", c1, c2)


def test_remove_child_sensor() -> None:
    """Removing a child takes it out of its parent's children."""
    with Metrics() as metrics:
        parent = metrics.sensor("parent")
        child = metrics.sensor("child", parent)
        assert metrics.children_sensors()[parent] == [child]
        metrics.remove_sensor("child")
        assert metrics.children_sensors()[parent] == []


def test_remove_sensor(metrics: Metrics) -> None:
    """Removing a sensor removes its metrics and, recursively, its children."""
    size = len(metrics.metrics())
    parent1 = metrics.sensor("test.parent1")
    parent1.add(metrics.metric_name("test.parent1.count", "grp1"), WindowedCount())
    parent2 = metrics.sensor("test.parent2")
    parent2.add(metrics.metric_name("test.parent2.count", "grp1"), WindowedCount())
    child1 = metrics.sensor("test.child1", parent1, parent2)
    child1.add(metrics.metric_name("test.child1.count", "grp1"), WindowedCount())
    child2 = metrics.sensor("test.child2", parent2)
    child2.add(metrics.metric_name("test.child2.count", "grp1"), WindowedCount())
    grand_child1 = metrics.sensor("test.gchild2", child2)
    grand_child1.add(metrics.metric_name("test.gchild2.count", "grp1"), WindowedCount())

    sensor = metrics.get_sensor("test.parent1")
    assert sensor is not None
    metrics.remove_sensor("test.parent1")
    assert metrics.get_sensor("test.parent1") is None
    assert metrics.metric(metrics.metric_name("test.parent1.count", "grp1")) is None
    assert metrics.get_sensor("test.child1") is None
    assert sensor not in metrics.children_sensors()
    assert metrics.metric(metrics.metric_name("test.child1.count", "grp1")) is None

    for name in ("test.gchild2", "test.child2", "test.parent2"):
        sensor = metrics.get_sensor(name)
        assert sensor is not None
        metrics.remove_sensor(name)
        assert metrics.get_sensor(name) is None
        assert sensor not in metrics.children_sensors()
        assert metrics.metric(metrics.metric_name(f"{name}.count", "grp1")) is None

    assert len(metrics.metrics()) == size


def test_remove_inactive_metrics(metrics: Metrics, time: MockTime) -> None:
    """Sensors idle past their expiration time are removed with their metrics; recording keeps one alive."""
    s1 = metrics.sensor("test.s1", inactive_sensor_expiration_time_seconds=1)
    s1.add(metrics.metric_name("test.s1.count", "grp1"), WindowedCount())
    s2 = metrics.sensor("test.s2", inactive_sensor_expiration_time_seconds=3)
    s2.add(metrics.metric_name("test.s2.count", "grp1"), WindowedCount())

    metrics.expire_sensors()
    assert metrics.get_sensor("test.s1") is not None
    assert metrics.metric(metrics.metric_name("test.s1.count", "grp1")) is not None
    assert metrics.get_sensor("test.s2") is not None

    time.sleep(1001)
    metrics.expire_sensors()
    assert metrics.get_sensor("test.s1") is None
    assert metrics.metric(metrics.metric_name("test.s1.count", "grp1")) is None
    assert metrics.get_sensor("test.s2") is not None

    s2.record()
    time.sleep(2000)
    metrics.expire_sensors()
    assert metrics.get_sensor("test.s2") is not None
    assert metrics.metric(metrics.metric_name("test.s2.count", "grp1")) is not None

    # Expired means idle for longer than the expiration time: exactly 3 s idle is not yet.
    time.sleep(1000)
    metrics.expire_sensors()
    assert metrics.get_sensor("test.s2") is not None
    time.sleep(1)
    metrics.expire_sensors()
    assert metrics.get_sensor("test.s2") is None
    assert metrics.metric(metrics.metric_name("test.s2.count", "grp1")) is None

    s1 = metrics.sensor("test.s1", inactive_sensor_expiration_time_seconds=1)
    s1.add(metrics.metric_name("test.s1.count", "grp1"), WindowedCount())
    assert metrics.get_sensor("test.s1") is not None
    assert metrics.metric(metrics.metric_name("test.s1.count", "grp1")) is not None


def test_remove_metric(metrics: Metrics) -> None:
    """remove_metric returns the removed metric and the registry shrinks back."""
    size = len(metrics.metrics())
    metrics.add_metric(metrics.metric_name("test1", "grp1"), WindowedCount())
    metrics.add_metric(metrics.metric_name("test2", "grp1"), WindowedCount())
    assert len(metrics.metrics()) == size + 2
    assert _value(metrics, "count", "kafka-metrics-count") == size + 2

    assert metrics.remove_metric(metrics.metric_name("test1", "grp1")) is not None
    assert metrics.metric(metrics.metric_name("test1", "grp1")) is None
    assert metrics.metric(metrics.metric_name("test2", "grp1")) is not None
    assert metrics.remove_metric(metrics.metric_name("test2", "grp1")) is not None
    assert metrics.remove_metric(metrics.metric_name("test2", "grp1")) is None
    assert len(metrics.metrics()) == size


def test_event_windowing(time: MockTime) -> None:
    """A sample completes after event_window events."""
    count = WindowedCount()
    config = MetricConfig(event_window=1, samples=2)
    count.record(config, 1.0, time.milliseconds())
    count.record(config, 1.0, time.milliseconds())
    assert count.measure(config, time.milliseconds()) == pytest.approx(2.0)
    count.record(config, 1.0, time.milliseconds())  # the first event falls out
    assert count.measure(config, time.milliseconds()) == pytest.approx(2.0)


def test_time_windowing(time: MockTime) -> None:
    """A sample completes after its time window; the oldest is reused."""
    count = WindowedCount()
    config = MetricConfig(samples=2).time_window(1, TimeUnit.MILLISECONDS)
    count.record(config, 1.0, time.milliseconds())
    time.sleep(1)
    count.record(config, 1.0, time.milliseconds())
    assert count.measure(config, time.milliseconds()) == pytest.approx(2.0)
    time.sleep(1)
    count.record(config, 1.0, time.milliseconds())  # the oldest event falls out
    assert count.measure(config, time.milliseconds()) == pytest.approx(2.0)


def test_sampled_stat_returns_nan_when_no_values_exist(time: MockTime) -> None:
    """Max, Min and Avg are NaN once every sample has expired."""
    config = MetricConfig(samples=2).time_window(100, TimeUnit.MILLISECONDS)
    stats = [Max(), Min(), Avg()]
    for stat in stats:
        stat.record(config, 50, time.milliseconds())
    time.sleep(2 * 100)
    for stat in stats:
        assert math.isnan(stat.measure(config, time.milliseconds()))


def test_sampled_stat_returns_initial_value_when_no_values_exist(time: MockTime) -> None:
    """WindowedCount and WindowedSum are 0 once every sample has expired."""
    config = MetricConfig(samples=2).time_window(100, TimeUnit.MILLISECONDS)
    count = WindowedCount()
    sampled_total = WindowedSum()
    count.record(config, 50, time.milliseconds())
    sampled_total.record(config, 50, time.milliseconds())
    time.sleep(2 * 100)
    assert count.measure(config, time.milliseconds()) == 0.0
    assert sampled_total.measure(config, time.milliseconds()) == 0.0


def test_value_stat(time: MockTime) -> None:
    """Value keeps the last recorded value."""
    value = Value()
    config = MetricConfig()
    assert value.measure(config, time.milliseconds()) == 0.0
    value.record(config, 7.0, time.milliseconds())
    value.record(config, 3.0, time.milliseconds())
    assert value.measure(config, time.milliseconds()) == 3.0


def test_duplicate_metric_name(metrics: Metrics) -> None:
    """A metric name can be registered once."""
    metrics.sensor("test").add(metrics.metric_name("test", "grp1"), Avg())
    with pytest.raises(ValueError):
        metrics.sensor("test2").add(metrics.metric_name("test", "grp1"), CumulativeSum())


def test_quotas(metrics: Metrics) -> None:
    """Upper and lower bounds raise QuotaViolationException once crossed; the value is recorded anyway."""
    sensor = metrics.sensor("test")
    sensor.add(metrics.metric_name("test1.total", "grp1"), CumulativeSum(), MetricConfig(quota=Quota.upper_bound(5.0)))
    sensor.add(metrics.metric_name("test2.total", "grp1"), CumulativeSum(), MetricConfig(quota=Quota.lower_bound(0.0)))
    sensor.record(5.0)
    with pytest.raises(QuotaViolationException) as exc_info:
        sensor.record(1.0)
    assert exc_info.value.value() == 6.0
    assert exc_info.value.bound() == 5.0
    assert str(exc_info.value) == (
        "'MetricName [name=test1.total, group=grp1, description=, tags={}]' violated quota. Actual: 6.0, Threshold: 5.0"
    )
    assert _value(metrics, "test1.total") == pytest.approx(6.0)
    sensor.record(-6.0)
    with pytest.raises(QuotaViolationException):
        sensor.record(-1.0)


def test_quotas_equality() -> None:
    """Quotas are equal when bound and direction are."""
    quota1 = Quota.upper_bound(10.5)
    quota2 = Quota.lower_bound(10.5)
    assert quota1 != quota2
    assert quota2 == Quota.lower_bound(10.5)
    assert hash(quota2) == hash(Quota.lower_bound(10.5))
    assert repr(quota1) == "upper=10.5"


def test_rate_windowing(metrics: Metrics, time: MockTime) -> None:
    """A Rate divides by the elapsed time but at least samples - 1 windows; rates expire, totals do not."""
    cfg = MetricConfig(samples=3)
    s = metrics.sensor("test.sensor", config=cfg)
    rate_metric_name = metrics.metric_name("test.rate", "grp1")
    total_metric_name = metrics.metric_name("test.total", "grp1")
    count_rate_metric_name = metrics.metric_name("test.count.rate", "grp1")
    count_total_metric_name = metrics.metric_name("test.count.total", "grp1")
    s.add(Meter(rate_metric_name, total_metric_name, TimeUnit.SECONDS))
    s.add(Meter(count_rate_metric_name, count_total_metric_name, TimeUnit.SECONDS, WindowedCount()))
    total_metric = metrics.metric(total_metric_name)
    count_total_metric = metrics.metric(count_total_metric_name)
    assert total_metric is not None and count_total_metric is not None

    total = 0
    count = cfg.samples - 1
    for _ in range(count):
        s.record(100)
        total += 100
        time.sleep(cfg.time_window_ms)
        assert total_metric.metric_value() == pytest.approx(total, abs=EPS)

    time.sleep(cfg.time_window_ms // 2)
    elapsed_secs = (cfg.time_window_ms * (cfg.samples - 1) + cfg.time_window_ms // 2) / 1000.0

    rate_metric = metrics.metric(rate_metric_name)
    count_rate_metric = metrics.metric(count_rate_metric_name)
    assert rate_metric is not None and count_rate_metric is not None
    assert rate_metric.metric_value() == pytest.approx(total / elapsed_secs, abs=EPS)
    assert count_rate_metric.metric_value() == pytest.approx(count / elapsed_secs, abs=EPS)
    rate = rate_metric.measurable()
    assert isinstance(rate, Rate)
    assert rate.window_size(cfg, time.milliseconds()) / 1000 == pytest.approx(elapsed_secs, abs=EPS)
    assert total_metric.metric_value() == pytest.approx(total, abs=EPS)
    assert count_total_metric.metric_value() == pytest.approx(count, abs=EPS)

    time.sleep(cfg.time_window_ms * cfg.samples)
    assert rate_metric.metric_value() == pytest.approx(0, abs=EPS)
    assert count_rate_metric.metric_value() == pytest.approx(0, abs=EPS)
    assert total_metric.metric_value() == pytest.approx(total, abs=EPS)
    assert count_total_metric.metric_value() == pytest.approx(count, abs=EPS)


def test_simple_rate(time: MockTime) -> None:
    """SimpleRate divides by the time since the oldest sample began, at least one window (Kafka's testSimpleRate)."""
    rate = SimpleRate()
    config = MetricConfig(samples=10).time_window(1, TimeUnit.SECONDS)

    def record(value: int) -> None:
        rate.record(config, value, time.milliseconds())

    def measure() -> float:
        return rate.measure(config, time.milliseconds())

    record(1000)
    assert measure() == 1000
    time.sleep(100)
    assert measure() == 1000
    time.sleep(100)
    assert measure() == 1000
    time.sleep(200)
    assert measure() == 1000
    time.sleep(600)
    assert measure() == 1000
    time.sleep(200)
    assert measure() == 1000 / 1.2
    time.sleep(200)
    assert measure() == 1000 / 1.4
    record(1000)
    assert measure() == 2000 / 1.4
    time.sleep(1100)
    assert measure() == 2000 / 2.5
    record(1000)
    assert measure() == 3000 / 2.5
    time.sleep(6500)
    assert measure() == pytest.approx(3000 / 9, abs=1)
    record(1000)
    assert measure() == pytest.approx(4000 / 9, abs=1)
    # Past ten windows the first window's 1000 is purged; the oldest sample now starts at 1.4 s.
    time.sleep(1500)
    assert measure() == pytest.approx((4000 - 1000) / (10.5 - 1.4), abs=1)
    record(1000)
    assert measure() == pytest.approx((5000 - 1000) / (10.5 - 1.4), abs=1)


def test_rate_with_one_sample_and_no_elapsed_time_is_infinite(time: MockTime) -> None:
    """Like Java's double division, a rate over zero elapsed time is Infinity, not an error."""
    rate = Rate()
    config = MetricConfig(samples=1)
    rate.record(config, 10, time.milliseconds())
    assert rate.measure(config, time.milliseconds()) == math.inf


class RecordingReporter(MetricsReporter):
    def __init__(self) -> None:
        self.context: MetricsContext | None = None
        self.initial: list[KafkaMetric] | None = None
        self.added: list[MetricName] = []
        self.removed: list[MetricName] = []
        self.closed = False

    def configure(self, configs: object) -> None:
        pass

    def context_change(self, metrics_context: MetricsContext) -> None:
        self.context = metrics_context

    def init(self, metrics: list[KafkaMetric]) -> None:
        self.initial = list(metrics)

    def metric_change(self, metric: KafkaMetric) -> None:
        self.added.append(metric.metric_name())

    def metric_removal(self, metric: KafkaMetric) -> None:
        self.removed.append(metric.metric_name())

    def close(self) -> None:
        self.closed = True


def test_reporters_see_metrics_added_and_removed(time: MockTime) -> None:
    """Reporters get the context, then every registration and removal, and are closed with the registry."""
    reporter = RecordingReporter()
    metrics = Metrics(MetricConfig(), [reporter], time)
    assert reporter.context is not None
    assert reporter.context.context_labels() == {MetricsContext.NAMESPACE: ""}
    assert reporter.initial == []
    name = metrics.metric_name("test.avg", "grp1")
    metrics.sensor("s").add(name, Avg())
    assert reporter.added == [metrics.metric_name("count", "kafka-metrics-count"), name]
    metrics.remove_sensor("s")
    assert reporter.removed == [name]

    late = RecordingReporter()
    metrics.add_reporter(late)
    assert late.initial is not None
    assert [m.metric_name() for m in late.initial] == [metrics.metric_name("count", "kafka-metrics-count")]
    metrics.remove_reporter(late)
    assert late.closed
    metrics.close()
    assert reporter.closed


def test_expiry_thread_stops_on_close(time: MockTime) -> None:
    """With expiration enabled the registry runs a SensorExpiryThread, which close() stops."""
    metrics = Metrics(MetricConfig(), [], time, True)
    assert any(t.name == "SensorExpiryThread" for t in threading.enumerate())
    metrics.close()
    assert not any(t.name == "SensorExpiryThread" and t.is_alive() for t in threading.enumerate())


def test_concurrent_record_and_read(time: MockTime) -> None:
    """Recording from several threads while others read every metric loses no event."""
    with Metrics(MetricConfig(), [], time) as metrics:
        sensor = metrics.sensor("test.sensor")
        sensor.add(metrics.metric_name("test.count", "grp1"), CumulativeSum())
        sensor.add(metrics.metric_name("test.avg", "grp1"), Avg())
        stop = threading.Event()
        errors: list[BaseException] = []

        def read() -> None:
            try:
                while not stop.is_set():
                    for metric in metrics.metrics().values():
                        metric.metric_value()
            except BaseException as e:
                errors.append(e)

        def write() -> None:
            for _ in range(2000):
                sensor.record(1.0)

        readers = [threading.Thread(target=read) for _ in range(2)]
        writers = [threading.Thread(target=write) for _ in range(4)]
        for t in readers + writers:
            t.start()
        for t in writers:
            t.join()
        stop.set()
        for t in readers:
            t.join()
        assert errors == []
        assert _value(metrics, "test.count") == 8000.0
