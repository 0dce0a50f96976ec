"""Tests of kafka.common.metrics.Sensor (subsets of Kafka 2.8's SensorTest)."""

from __future__ import annotations

import threading

import pytest

from kafka.common.metric_name import MetricName
from kafka.common.metrics import (
    MeasurableStat,
    MetricConfig,
    Metrics,
    Quota,
    QuotaViolationException,
    RecordingLevel,
    Sensor,
)
from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.stats import Avg, CumulativeCount, Meter, Rate, TokenBucket, WindowedSum
from kafka.common.utils.time import MockTime, Time

INFO_CONFIG = MetricConfig(record_level=RecordingLevel.INFO)
DEBUG_CONFIG = MetricConfig(record_level=RecordingLevel.DEBUG)
TRACE_CONFIG = MetricConfig(record_level=RecordingLevel.TRACE)


def test_record_level_enum() -> None:
    """A level records when the configured level is at least as verbose."""
    info, debug, trace = RecordingLevel.INFO, RecordingLevel.DEBUG, RecordingLevel.TRACE
    assert info.should_record(info.id)
    assert not debug.should_record(info.id)
    assert not trace.should_record(info.id)
    assert info.should_record(debug.id)
    assert debug.should_record(debug.id)
    assert not trace.should_record(debug.id)
    assert info.should_record(trace.id) and debug.should_record(trace.id) and trace.should_record(trace.id)
    for level in RecordingLevel:
        assert RecordingLevel.for_name(str(level).lower()) is level
        assert RecordingLevel.for_id(level.id) is level
    with pytest.raises(ValueError):
        RecordingLevel.for_id(3)
    with pytest.raises(ValueError):
        RecordingLevel.for_name("verbose")


@pytest.mark.parametrize(
    ("sensor_level", "config", "expected"),
    [
        (RecordingLevel.INFO, INFO_CONFIG, True),
        (RecordingLevel.INFO, DEBUG_CONFIG, True),
        (RecordingLevel.INFO, TRACE_CONFIG, True),
        (RecordingLevel.DEBUG, INFO_CONFIG, False),
        (RecordingLevel.DEBUG, DEBUG_CONFIG, True),
        (RecordingLevel.DEBUG, TRACE_CONFIG, True),
        (RecordingLevel.TRACE, INFO_CONFIG, False),
        (RecordingLevel.TRACE, DEBUG_CONFIG, False),
        (RecordingLevel.TRACE, TRACE_CONFIG, True),
    ],
)
def test_should_record(sensor_level: RecordingLevel, config: MetricConfig, expected: bool) -> None:
    """Whether a sensor records depends on its level and the config's."""
    sensor = Sensor(None, "sensor", None, config, Time.SYSTEM, 0, sensor_level)
    assert sensor.should_record() is expected


def test_debug_sensor_does_not_record_under_info_config() -> None:
    """A sensor whose level is off records nothing into its stats."""
    with Metrics(INFO_CONFIG, [], MockTime()) as metrics:
        sensor = metrics.sensor("debug", recording_level=RecordingLevel.DEBUG)
        name = metrics.metric_name("count", "grp")
        sensor.add(name, CumulativeCount())
        sensor.record()
        metric = metrics.metric(name)
        assert metric is not None
        assert metric.metric_value() == 0.0


def test_expired_sensor() -> None:
    """An expired sensor accepts no new stat."""
    config = MetricConfig()
    mock_time = MockTime()
    with Metrics(config, [], mock_time, True) as metrics:
        expiration_seconds = 60
        sensor = Sensor(metrics, "sensor", None, config, mock_time, expiration_seconds, RecordingLevel.INFO)
        assert sensor.add(metrics.metric_name("test1", "grp1"), Avg())
        meter = Meter(MetricName("rate", "test", "", {}), MetricName("total", "test", "", {}))
        assert sensor.add(meter)
        mock_time.sleep((expiration_seconds + 1) * 1000)
        assert not sensor.add(metrics.metric_name("test3", "grp1"), Avg())
        assert not sensor.add(meter)


def test_idempotent_add() -> None:
    """Adding a name the sensor has is a no-op; a name another sensor has is an error."""
    with Metrics() as metrics:
        sensor = metrics.sensor("sensor")
        assert sensor.add(metrics.metric_name("test-metric", "test-group"), Avg())
        assert sensor.add(metrics.metric_name("test-metric", "test-group"), Avg())
        another_sensor = metrics.sensor("another-sensor")
        with pytest.raises(ValueError):
            another_sensor.add(metrics.metric_name("test-metric", "test-group"), Avg())
        assert sensor.add(metrics.metric_name("test-metric", "test-group"), WindowedSum())
        assert len(sensor.metrics()) == 1
        assert type(sensor.metrics()[0].measurable()) is Avg


def test_check_quotas_in_multi_threads() -> None:
    """check_quotas may run in many threads (replica fetchers) while others record."""
    metrics = Metrics(
        MetricConfig(quota=Quota.upper_bound(1.7976931348623157e308), samples=100).time_window(1, TimeUnit.MILLISECONDS)
    )
    sensor = metrics.sensor("sensor")
    assert sensor.add(metrics.metric_name("test-metric", "test-group"), Rate())
    start = threading.Event()
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            assert start.wait(30)
            for j in range(20):
                sensor.record(j * index, Time.SYSTEM.milliseconds() + j, False)
                sensor.check_quotas()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    start.set()
    for t in threads:
        t.join()
    metrics.close()
    assert errors == []


def test_should_return_presence_of_metrics() -> None:
    """has_metrics says whether any metric was added."""
    with Metrics() as metrics:
        sensor = metrics.sensor("sensor")
        assert not sensor.has_metrics()
        sensor.add(MetricName("name1", "group1", "description1", {}), WindowedSum())
        assert sensor.has_metrics()
        sensor.add(MetricName("name2", "group2", "description2", {}), CumulativeCount())
        assert sensor.has_metrics()


def _strict_record(sensor: Sensor, value: float, time_ms: int) -> None:
    with sensor.lock:
        sensor.check_quotas(time_ms)
        sensor.record(value, time_ms, False)


def test_strict_quota_enforcement_with_rate() -> None:
    """A windowed Rate stays above the quota longer than the theory says (why Kafka added TokenBucket)."""
    time = MockTime(0, Time.SYSTEM.milliseconds(), 0)
    metrics = Metrics(time=time)
    sensor = metrics.sensor(
        "sensor", config=MetricConfig(quota=Quota.upper_bound(2), samples=11).time_window(1, TimeUnit.SECONDS)
    )
    metric_name = metrics.metric_name("rate", "test-group")
    assert sensor.add(metric_name, Rate())
    rate_metric = metrics.metric(metric_name)
    assert rate_metric is not None
    _strict_record(sensor, 30, time.milliseconds())
    assert rate_metric.measurable_value(time.milliseconds()) == pytest.approx(3, abs=0.1)
    time.sleep(5000)
    assert rate_metric.measurable_value(time.milliseconds()) == pytest.approx(3, abs=0.1)
    with pytest.raises(QuotaViolationException):
        _strict_record(sensor, 30, time.milliseconds())
    metrics.close()


def test_strict_quota_enforcement_with_token_bucket() -> None:
    """A TokenBucket is violated while its credits are negative and refills at the quota's rate."""
    time = MockTime(0, Time.SYSTEM.milliseconds(), 0)
    metrics = Metrics(time=time)
    sensor = metrics.sensor(
        "sensor", config=MetricConfig(quota=Quota.upper_bound(2), samples=10).time_window(1, TimeUnit.SECONDS)
    )
    metric_name = metrics.metric_name("credits", "test-group")
    assert sensor.add(metric_name, TokenBucket())
    tk_metric = metrics.metric(metric_name)
    assert tk_metric is not None
    _strict_record(sensor, 30, time.milliseconds())
    assert tk_metric.measurable_value(time.milliseconds()) == pytest.approx(-10, abs=0.1)
    with pytest.raises(QuotaViolationException):
        sensor.check_quotas(time.milliseconds())
    time.sleep(5000)
    assert tk_metric.measurable_value(time.milliseconds()) == pytest.approx(0, abs=0.1)
    _strict_record(sensor, 30, time.milliseconds())
    assert tk_metric.measurable_value(time.milliseconds()) == pytest.approx(-30, abs=0.1)
    metrics.close()


class CallRecordingStat(MeasurableStat):
    def __init__(self) -> None:
        self.records: list[tuple[MetricConfig, float, int]] = []
        self.measures: list[tuple[MetricConfig, int]] = []

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        self.records.append((config, value, time_ms))

    def measure(self, config: MetricConfig, now: int) -> float:
        self.measures.append((config, now))
        return 0.0


def test_record_and_check_quota_use_metric_config_of_each_stat() -> None:
    """Each stat records and is measured under the config it was added with."""
    time = MockTime(0, Time.SYSTEM.milliseconds(), 0)
    with Metrics(time=time) as metrics:
        sensor = metrics.sensor("sensor")
        stat1, stat2 = CallRecordingStat(), CallRecordingStat()
        stat1_config = MetricConfig(quota=Quota.upper_bound(5))
        stat2_config = MetricConfig(quota=Quota.upper_bound(10))
        sensor.add(metrics.metric_name("stat1", "test-group"), stat1, stat1_config)
        sensor.add(metrics.metric_name("stat2", "test-group"), stat2, stat2_config)
        sensor.record(10, 1)
        assert stat1.records == [(stat1_config, 10.0, 1)]
        assert stat2.records == [(stat2_config, 10.0, 1)]
        sensor.check_quotas(2)
        assert stat1.measures[-1] == (stat1_config, 2)
        assert stat2.measures[-1] == (stat2_config, 2)


def test_updating_metric_config_is_reflected_in_the_sensor() -> None:
    """A new config set on a KafkaMetric is used by the sensor's next record and quota check."""
    time = MockTime(0, Time.SYSTEM.milliseconds(), 0)
    with Metrics(time=time) as metrics:
        sensor = metrics.sensor("sensor")
        stat = CallRecordingStat()
        stat_name = metrics.metric_name("stat", "test-group")
        stat_config = MetricConfig(quota=Quota.upper_bound(5))
        sensor.add(stat_name, stat, stat_config)
        sensor.record(10, 1)
        assert stat.records[-1] == (stat_config, 10.0, 1)
        sensor.check_quotas(2)
        assert stat.measures[-1] == (stat_config, 2)
        new_config = MetricConfig(quota=Quota.upper_bound(10))
        metric = metrics.metric(stat_name)
        assert metric is not None
        metric.config = new_config
        sensor.record(10, 3)
        assert stat.records[-1] == (new_config, 10.0, 3)
        sensor.check_quotas(4)
        assert stat.measures[-1] == (new_config, 4)


def test_quota_violation_does_not_record_parents() -> None:
    """As in Kafka, a violation in a child stops the record before it reaches the parents."""
    with Metrics(time=MockTime()) as metrics:
        parent = metrics.sensor("parent")
        parent_count = metrics.metric_name("parent.count", "grp")
        parent.add(parent_count, CumulativeCount())
        child = metrics.sensor("child", parent)
        child.add(
            metrics.metric_name("child.count", "grp"), CumulativeCount(), MetricConfig(quota=Quota.upper_bound(0))
        )
        with pytest.raises(QuotaViolationException):
            child.record()
        metric = metrics.metric(parent_count)
        assert metric is not None
        assert metric.metric_value() == 0.0
        child.record(check_quotas=False)
        assert metric.metric_value() == 1.0


def test_sensor_reaching_an_ancestor_twice_is_refused() -> None:
    """Kafka's checkForest: a sensor whose parents lead to the same ancestor twice is refused, naming it."""
    config = MetricConfig()
    a = Sensor(None, "a", None, config, Time.SYSTEM, 10, RecordingLevel.INFO)
    b = Sensor(None, "b", [a], config, Time.SYSTEM, 10, RecordingLevel.INFO)
    with pytest.raises(ValueError, match=r"Circular dependency in sensors: a is its own parent\."):
        Sensor(None, "c", [b, a], config, Time.SYSTEM, 10, RecordingLevel.INFO)


def test_sensor_records_meters_and_adding_stats_as_their_own_record_does() -> None:
    """A sensor records a Meter through Meter.record_steps and the adding sampled stats without their update call;
    the metrics read the same as stats recorded through Meter.record and through a subclass's own update (a subclass
    overriding update is called), over several windows."""
    from kafka.common.metrics.stats import Max, SampledStat, WindowedCount

    class CallingSum(WindowedSum):
        def update(self, sample, config, value, time_ms):  # type: ignore[no-untyped-def]
            sample.value += value

    assert CallingSum.update_kind == 0 and WindowedCount.update_kind == 2 and Avg.update_kind == 1
    time = MockTime(start_ms=0, start_ns=0)
    config = MetricConfig(samples=3, time_window_ms=1000)
    with Metrics(config, time=time) as metrics:
        sensor = metrics.sensor("s")

        def name(n: str) -> MetricName:
            return metrics.metric_name(n, "g")

        sensor.add(Meter(name("sum-rate"), name("sum-total"), TimeUnit.SECONDS, WindowedSum()))
        sensor.add(Meter(name("count-rate"), name("count-total"), TimeUnit.SECONDS, WindowedCount()))
        stat: SampledStat
        for stat_name, stat in (("avg", Avg()), ("wsum", WindowedSum()), ("wcount", WindowedCount()), ("max", Max())):
            sensor.add(name(stat_name), stat)
        sensor.add(name("calling"), CallingSum())
        direct_sum = Meter(name("a"), name("b"), TimeUnit.SECONDS, WindowedSum())
        direct_count = Meter(name("c"), name("d"), TimeUnit.SECONDS, WindowedCount())
        direct = {
            "avg": Avg(),
            "wsum": CallingSum(),
            "calling": CallingSum(),
            "max": Max(),
        }
        for i in range(40):
            value = float(i % 9)
            sensor.record(value)
            now = time.milliseconds()
            direct_sum.record(config, value, now)
            direct_count.record(config, value, now)
            for stat in direct.values():
                stat.record(config, value, now)
            time.sleep(170)
            now = time.milliseconds()
            got = {n.name: m.metric_value() for n, m in metrics.metrics().items() if n.group == "g"}
            want_sum = {m.name.name: m.stat.measure(config, now) for m in direct_sum.stats()}
            want_count = {m.name.name: m.stat.measure(config, now) for m in direct_count.stats()}
            assert (got["sum-total"], got["sum-rate"]) == (want_sum["b"], want_sum["a"])
            assert (got["count-total"], got["count-rate"]) == (want_count["d"], want_count["c"])
            for stat_name, stat in direct.items():
                assert got[stat_name] == stat.measure(config, now), stat_name
            assert got["wcount"] == float(sum(s.event_count for s in direct["max"].samples))


def test_quota_found_after_every_change_that_gives_or_takes_one() -> None:
    """A sensor remembers which metrics have a quota (PORT): each way of giving a metric a quota or taking it away
    (another config set on the metric, a quota set on its config in place, a metric with a quota added, a Meter added
    with one) is seen by the next record and check_quotas, on the sensor and on a parent."""
    with Metrics(time=MockTime()) as metrics:
        parent = metrics.sensor("parent")
        parent.add(metrics.metric_name("parent.count", "grp"), CumulativeCount())
        sensor = metrics.sensor("sensor", parent)
        count_name = metrics.metric_name("count", "grp")
        sensor.add(count_name, CumulativeCount())
        sensor.record()
        sensor.check_quotas()
        metric = metrics.metric(count_name)
        assert metric is not None
        # Another config with a quota, set on the metric.
        metric.config = MetricConfig(quota=Quota.upper_bound(1))
        with pytest.raises(QuotaViolationException):
            sensor.record()
        metric.config = MetricConfig()
        sensor.record()
        # A quota set in place on the metric's config, then taken away.
        metric.config.quota = Quota.upper_bound(2)
        with pytest.raises(QuotaViolationException):
            sensor.check_quotas()
        with pytest.raises(QuotaViolationException):
            sensor.record()
        metric.config.quota = None
        sensor.record()
        sensor.check_quotas()
        # A metric with a quota added to a sensor that has recorded.
        sensor.add(metrics.metric_name("total", "grp"), CumulativeCount(), MetricConfig(quota=Quota.upper_bound(0)))
        with pytest.raises(QuotaViolationException):
            sensor.record()
        # A parent's quota, given after the child and parent recorded: the child records, the parent raises.
        other = metrics.sensor("other", parent)
        other.add(metrics.metric_name("other.count", "grp"), CumulativeCount())
        other.record()
        parent_metric = metrics.metric(metrics.metric_name("parent.count", "grp"))
        assert parent_metric is not None
        parent_metric.config = MetricConfig()  # its own config (the registry's default is shared)
        other.record()
        parent_metric.config.quota = Quota.upper_bound(0)
        with pytest.raises(QuotaViolationException) as violation:
            other.record()
        assert violation.value.metric() is parent_metric
        # A Meter added with a quota config to a sensor without one.
        meter_sensor = metrics.sensor("meter")
        meter_sensor.record()
        meter_sensor.add(
            Meter(metrics.metric_name("m-rate", "grp"), metrics.metric_name("m-total", "grp")),
            MetricConfig(quota=Quota.upper_bound(0)),
        )
        with pytest.raises(QuotaViolationException):
            meter_sensor.record()
        meter_sensor.record(check_quotas=False)


def _blocks_while_held(lock: threading.RLock, action: object, patience: float = 0.2) -> bool:
    """Whether `action` (run in another thread) waits while another thread holds `lock`: not done after `patience`
    seconds. An action that cannot finish while the lock is held is never done in time, whatever the patience; one
    expected to finish is given a long patience, so that a loaded machine's scheduling cannot make it look blocked."""
    done = threading.Event()
    held = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            release.wait(10)

    def actor() -> None:
        action()  # type: ignore[operator]
        done.set()

    h = threading.Thread(target=holder)
    h.start()
    assert held.wait(10)
    a = threading.Thread(target=actor)
    a.start()
    blocked = not done.wait(patience)
    release.set()
    h.join(10)
    assert done.wait(10)
    a.join(10)
    return blocked


def test_record_locks() -> None:
    """A sensor records under its metric lock (which reads of its metrics hold); with a quota also under the sensor
    lock, so that a check-then-record made holding the sensor lock (the controller mutation quota) is not split by
    another record; without one, the sensor lock is not needed (PORT)."""
    with Metrics(time=MockTime()) as metrics:
        plain = metrics.sensor("plain")
        plain.add(metrics.metric_name("plain.count", "grp"), CumulativeCount())
        quota = metrics.sensor("quota")
        quota.add(
            metrics.metric_name("quota.count", "grp"), CumulativeCount(), MetricConfig(quota=Quota.upper_bound(1e9))
        )
        assert _blocks_while_held(plain._metric_lock, plain.record)
        assert not _blocks_while_held(plain.lock, plain.record, patience=10)
        assert _blocks_while_held(quota._metric_lock, quota.record)
        assert _blocks_while_held(quota.lock, quota.record)
        assert _blocks_while_held(quota.lock, lambda: quota.record(check_quotas=False))
