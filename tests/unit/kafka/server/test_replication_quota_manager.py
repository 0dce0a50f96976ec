"""Tests of kafka.server.replication_quota_manager (Kafka 2.8's ReplicationQuotaManagerTest, and more) and of
kafka.server.quota_factory."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from kafka.common.metrics import MetricConfig, Metrics, Quota
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.server import quota_factory
from kafka.server.kafka_config import KafkaConfig
from kafka.server.quota_factory import UNBOUNDED_QUOTA
from kafka.server.replication_quota_manager import (
    ALL_REPLICAS,
    QuotaType,
    ReplicationQuotaManager,
    ReplicationQuotaManagerConfig,
)

LONG_MAX = 2**63 - 1


@pytest.fixture
def time() -> MockTime:
    return MockTime()


@pytest.fixture
def metrics(time: MockTime) -> Iterator[Metrics]:
    m = Metrics(MetricConfig(), [], time)
    yield m
    m.close()


def tp1(partition: int) -> TopicPartition:
    return TopicPartition("topic1", partition)


def rate(metrics: Metrics, quota_type: QuotaType = QuotaType.LEADER_REPLICATION) -> float:
    metric_name = metrics.metric_name("byte-rate", str(quota_type), f"Tracking byte-rate for {quota_type}")
    metric = metrics.metric(metric_name)
    assert metric is not None
    value = metric.metric_value()
    assert isinstance(value, float)
    return value


def test_should_throttle_only_defined_replicas(metrics: Metrics, time: MockTime) -> None:
    """Only the partitions marked for a topic are throttled."""
    quota = ReplicationQuotaManager(ReplicationQuotaManagerConfig(), metrics, QuotaType.FETCH, time)
    quota.mark_throttled("topic1", [1, 2, 3])
    assert quota.is_throttled(tp1(1))
    assert quota.is_throttled(tp1(2))
    assert quota.is_throttled(tp1(3))
    assert not quota.is_throttled(tp1(4))
    assert not quota.is_throttled(TopicPartition("topic2", 1))


def test_should_exceed_quota_then_return_back_below_bound_as_time_passes(metrics: Metrics, time: MockTime) -> None:
    """The byte rate (a SimpleRate) crosses the bound as bytes are recorded and falls back as time passes."""
    quota = ReplicationQuotaManager(
        ReplicationQuotaManagerConfig(num_quota_samples=10, quota_window_size_seconds=1),
        metrics,
        QuotaType.LEADER_REPLICATION,
        time,
    )
    quota.update_quota(Quota(100, True))
    assert not quota.is_quota_exceeded()

    # The first window is fixed: skip it.
    time.sleep(1000)
    time.sleep(500)
    quota.record(1)
    assert not quota.is_quota_exceeded()

    quota.record(149)  # 150 B in 1.5 s
    assert not quota.is_quota_exceeded()

    quota.record(1)  # 151 B in 1.5 s
    assert rate(metrics) == 151 / 1.5
    assert quota.is_quota_exceeded()

    time.sleep(500)  # 151 B in 2 s
    assert not quota.is_quota_exceeded()
    assert rate(metrics) == pytest.approx(151 / 2, abs=0.1)

    time.sleep(500)
    quota.record(99)  # 250 B in 2.5 s
    assert rate(metrics) == 250 / 2.5
    assert not quota.is_quota_exceeded()
    quota.record(1)
    assert quota.is_quota_exceeded()
    assert rate(metrics) == 251 / 2.5

    time.sleep(2 * 1000)  # 3.5 s
    assert not quota.is_quota_exceeded()
    assert rate(metrics) == 251 / 4.5


def test_should_support_wildcard_throttled_replicas(metrics: Metrics, time: MockTime) -> None:
    """mark_throttled without partitions (or with ALL_REPLICAS) throttles every partition of the topic."""
    quota = ReplicationQuotaManager(ReplicationQuotaManagerConfig(), metrics, QuotaType.LEADER_REPLICATION, time)
    quota.mark_throttled("MyTopic")
    assert quota.is_throttled(TopicPartition("MyTopic", 0))
    assert quota.is_throttled(TopicPartition("MyTopic", 57))
    assert not quota.is_throttled(TopicPartition("MyOtherTopic", 0))
    quota.mark_throttled("MyOtherTopic", ALL_REPLICAS)
    assert quota.is_throttled(TopicPartition("MyOtherTopic", 3))


def test_mark_throttled_replaces_and_remove_throttle_clears(metrics: Metrics, time: MockTime) -> None:
    """A new list replaces the topic's old one; an empty list throttles nothing; remove_throttle clears it."""
    quota = ReplicationQuotaManager(ReplicationQuotaManagerConfig(), metrics, QuotaType.FOLLOWER_REPLICATION, time)
    quota.mark_throttled("topic1", [1])
    quota.mark_throttled("topic1", [2])
    assert not quota.is_throttled(tp1(1))
    assert quota.is_throttled(tp1(2))
    quota.mark_throttled("topic1", [])
    assert not quota.is_throttled(tp1(2))
    quota.mark_throttled("topic1")
    assert quota.is_throttled(tp1(2))
    quota.remove_throttle("topic1")
    assert not quota.is_throttled(tp1(2))
    quota.remove_throttle("never-throttled")  # nothing to remove: no error


def test_without_quota_nothing_is_exceeded(metrics: Metrics, time: MockTime) -> None:
    """Before update_quota the manager is unbounded: any rate is accepted and the upper bound is Long.MAX_VALUE."""
    quota = ReplicationQuotaManager(ReplicationQuotaManagerConfig(), metrics, QuotaType.LEADER_REPLICATION, time)
    assert quota.upper_bound() == LONG_MAX
    quota.record(10**12)
    assert not quota.is_quota_exceeded()
    quota.update_quota(Quota.upper_bound(float(LONG_MAX)))
    assert quota.upper_bound() == LONG_MAX
    assert not quota.is_quota_exceeded()


def test_update_quota_applies_to_the_existing_sensor(metrics: Metrics, time: MockTime) -> None:
    """Lowering, then raising, the quota takes effect on the rate already recorded; upper_bound follows."""
    quota = ReplicationQuotaManager(
        ReplicationQuotaManagerConfig(num_quota_samples=11, quota_window_size_seconds=1),
        metrics,
        QuotaType.FOLLOWER_REPLICATION,
        time,
    )
    quota.record(10_000)  # the sensor exists from here on, created with no quota
    assert not quota.is_quota_exceeded()
    quota.update_quota(Quota.upper_bound(100))
    assert quota.upper_bound() == 100
    assert quota.is_quota_exceeded()
    quota.update_quota(Quota.upper_bound(1_000_000))
    assert quota.upper_bound() == 1_000_000
    assert not quota.is_quota_exceeded()


def test_sensor_is_named_as_kafka_names_it(metrics: Metrics, time: MockTime) -> None:
    """The sensor is named after the quota type and its metric is `byte-rate` in the type's group."""
    quota = ReplicationQuotaManager(
        ReplicationQuotaManagerConfig(), metrics, QuotaType.ALTER_LOG_DIRS_REPLICATION, time
    )
    quota.record(5)
    sensor = metrics.get_sensor("AlterLogDirsReplication")
    assert sensor is not None
    (metric,) = sensor.metrics()
    assert metric.metric_name().name == "byte-rate"
    assert metric.metric_name().group == "AlterLogDirsReplication"
    assert metric.metric_name().description == "Tracking byte-rate for AlterLogDirsReplication"
    assert metric.config.samples == 11
    assert metric.config.time_window_ms == 1000


def test_expired_sensor_is_recreated_with_the_current_quota(time: MockTime) -> None:
    """After an hour without traffic the sensor expires; the next use makes it again, bounded by the quota."""
    with Metrics(MetricConfig(), [], time) as metrics:
        quota = ReplicationQuotaManager(ReplicationQuotaManagerConfig(), metrics, QuotaType.LEADER_REPLICATION, time)
        quota.update_quota(Quota.upper_bound(100))
        quota.record(50)
        time.sleep((ReplicationQuotaManagerConfig.INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS + 1) * 1000)
        metrics.expire_sensors()
        assert metrics.get_sensor("LeaderReplication") is None
        quota.record(100_000)
        assert quota.is_quota_exceeded()
        sensor = metrics.get_sensor("LeaderReplication")
        assert sensor is not None
        assert sensor.metrics()[0].config.quota == Quota.upper_bound(100)


def test_concurrent_record_and_check(metrics: Metrics, time: MockTime) -> None:
    """Fetcher threads recording and checking at once all use one sensor and lose no byte."""
    quota = ReplicationQuotaManager(ReplicationQuotaManagerConfig(), metrics, QuotaType.FOLLOWER_REPLICATION, time)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(500):
                quota.record(2)
                quota.is_quota_exceeded()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # No time passed: SimpleRate divides the sum by one window (1 s).
    assert rate(metrics, QuotaType.FOLLOWER_REPLICATION) == 4 * 500 * 2


def test_quota_factory_instantiate(metrics: Metrics, time: MockTime) -> None:
    """instantiate makes the leader, follower and alter-log-dirs managers from the broker's window configs."""
    config = KafkaConfig(
        {
            "zookeeper.connect": "127.0.0.1:2181",
            "broker.id": "0",
            "replication.quota.window.num": "5",
            "replication.quota.window.size.seconds": "2",
            "alter.log.dirs.replication.quota.window.num": "7",
            "alter.log.dirs.replication.quota.window.size.seconds": "3",
        },
        False,
    )
    managers = quota_factory.instantiate(config, metrics, time, "")
    assert managers.leader.config == ReplicationQuotaManagerConfig(num_quota_samples=5, quota_window_size_seconds=2)
    assert managers.follower.config == ReplicationQuotaManagerConfig(num_quota_samples=5, quota_window_size_seconds=2)
    assert managers.alter_log_dirs.config == ReplicationQuotaManagerConfig(
        num_quota_samples=7, quota_window_size_seconds=3
    )
    for manager, name in (
        (managers.leader, "LeaderReplication"),
        (managers.follower, "FollowerReplication"),
        (managers.alter_log_dirs, "AlterLogDirsReplication"),
    ):
        manager.record(1)
        assert metrics.get_sensor(name) is not None
    managers.shutdown()


def test_unbounded_quota() -> None:
    """UnboundedQuota, the quota of consumer fetches, throttles nothing."""
    UNBOUNDED_QUOTA.record(10**12)
    assert not UNBOUNDED_QUOTA.is_throttled(tp1(0))
    assert not UNBOUNDED_QUOTA.is_quota_exceeded()
