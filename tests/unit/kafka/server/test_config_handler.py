"""Tests of kafka.server.config_handler's use of the replication quota managers (after Kafka 2.8's
ConfigHandler / DynamicConfigChangeTest cases): TopicConfigHandler's throttled replica lists and
BrokerConfigHandler's throttle rates."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from kafka.common.metrics import MetricConfig, Metrics, Quota
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log_cleaner import CleanerConfig
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_manager import LogManager
from kafka.server import quota_factory
from kafka.server.config_handler import (
    ALL_REPLICAS,
    BrokerConfigHandler,
    DynamicConfig,
    TopicConfigHandler,
)
from kafka.server.kafka_config import KafkaConfig
from kafka.server.quota_factory import QuotaManagers
from kafka.utils.mock_scheduler import MockScheduler

LONG_MAX = 2**63 - 1
STATIC_PROPS = {"zookeeper.connect": "127.0.0.1:2181", "broker.id": "0"}


class DictConfigRepository:
    def __init__(self, configs: Mapping[str, Mapping[str, str]]) -> None:
        self.configs = dict(configs)

    def topic_config(self, topic: str) -> Mapping[str, str]:
        return self.configs.get(topic, {})


@pytest.fixture
def time() -> MockTime:
    return MockTime()


@pytest.fixture
def config() -> KafkaConfig:
    return KafkaConfig(STATIC_PROPS, False)


@pytest.fixture
def quotas(config: KafkaConfig, time: MockTime) -> Iterator[QuotaManagers]:
    metrics = Metrics(MetricConfig(), [], time)
    quotas = quota_factory.instantiate(config, metrics, time, "")
    yield quotas
    quotas.shutdown()
    metrics.close()


@pytest.fixture
def log_manager(tmp_path: Path, time: MockTime) -> Iterator[LogManager]:
    manager = LogManager(
        log_dirs=[tmp_path / "data"],
        initial_offline_dirs=[],
        config_repository=DictConfigRepository({}),
        initial_default_config=LogConfig(LogConfig.extract_log_config_map(KafkaConfig(STATIC_PROPS, False))),
        cleaner_config=CleanerConfig(enable_cleaner=False),
        recovery_threads_per_data_dir=1,
        flush_check_ms=1000,
        flush_recovery_offset_checkpoint_ms=10_000,
        flush_start_offset_checkpoint_ms=10_000,
        retention_check_ms=1000,
        max_pid_expiration_ms=60 * 60 * 1000,
        scheduler=MockScheduler(time),
        log_dir_failure_channel=LogDirFailureChannel(1),
        time=time,
    )
    manager.startup([])
    yield manager
    manager.shutdown()


# ---- TopicConfigHandler: throttled replicas -----------------------------------------------------------------


def test_topic_config_handler_marks_this_brokers_throttled_partitions(
    log_manager: LogManager, config: KafkaConfig, quotas: QuotaManagers
) -> None:
    """`partition:broker` lists throttle, on each side, the partitions listed for this broker (0) only."""
    handler = TopicConfigHandler(log_manager, config, quotas)
    handler.process_config_changes(
        "t",
        {
            "leader.replication.throttled.replicas": "0:0,1:1,2:0",
            "follower.replication.throttled.replicas": "1:0",
        },
    )
    assert [p for p in range(4) if quotas.leader.is_throttled(TopicPartition("t", p))] == [0, 2]
    assert [p for p in range(4) if quotas.follower.is_throttled(TopicPartition("t", p))] == [1]
    assert not quotas.alter_log_dirs.is_throttled(TopicPartition("t", 0))
    assert not quotas.leader.is_throttled(TopicPartition("other", 0))


def test_topic_config_handler_wildcard_and_removal(
    log_manager: LogManager, config: KafkaConfig, quotas: QuotaManagers
) -> None:
    """`*` throttles every partition; a config without the key removes the throttle."""
    handler = TopicConfigHandler(log_manager, config, quotas)
    handler.process_config_changes("t", {"leader.replication.throttled.replicas": "*"})
    assert quotas.leader.is_throttled(TopicPartition("t", 0))
    assert quotas.leader.is_throttled(TopicPartition("t", 99))
    assert not quotas.follower.is_throttled(TopicPartition("t", 0))

    handler.process_config_changes("t", {"follower.replication.throttled.replicas": "*"})
    assert not quotas.leader.is_throttled(TopicPartition("t", 0))
    assert quotas.follower.is_throttled(TopicPartition("t", 0))

    handler.process_config_changes("t", {})
    assert not quotas.follower.is_throttled(TopicPartition("t", 0))


def test_parse_throttled_partitions(log_manager: LogManager, config: KafkaConfig) -> None:
    """The parser keeps this broker's partitions, answers ALL_REPLICAS itself for `*` and nothing for ``."""
    handler = TopicConfigHandler(log_manager, config)
    prop = LogConfig.LEADER_REPLICATION_THROTTLED_REPLICAS_PROP
    assert handler.parse_throttled_partitions({prop: "0:0, 1:1 ,2:0"}, 0, prop) == [0, 2]
    assert handler.parse_throttled_partitions({prop: "0:0,1:1,2:0"}, 1, prop) == [1]
    assert handler.parse_throttled_partitions({prop: " * "}, 0, prop) is ALL_REPLICAS
    assert handler.parse_throttled_partitions({prop: ""}, 0, prop) == []


# ---- BrokerConfigHandler: throttle rates ----------------------------------------------------------------------


def test_broker_config_handler_sets_throttle_rates(config: KafkaConfig, quotas: QuotaManagers) -> None:
    """This broker's entity sets the three rates on the leader, follower and alter-log-dirs managers."""
    handler = BrokerConfigHandler(config, quotas)
    handler.process_config_changes(
        "0",
        {
            "leader.replication.throttled.rate": "1000",
            "follower.replication.throttled.rate": "2000",
            "replica.alter.log.dirs.io.max.bytes.per.second": "3000",
        },
    )
    assert quotas.leader.upper_bound() == 1000
    assert quotas.follower.upper_bound() == 2000
    assert quotas.alter_log_dirs.upper_bound() == 3000
    # The rates are dynamic broker configs too: stored with the others.
    assert config.dynamic_config is not None
    assert config.dynamic_config.current_dynamic_broker_configs["leader.replication.throttled.rate"] == "1000"


def test_broker_config_handler_enforces_the_rate(config: KafkaConfig, quotas: QuotaManagers, time: MockTime) -> None:
    """Once a rate is set, replication traffic beyond it makes the quota exceeded."""
    BrokerConfigHandler(config, quotas).process_config_changes("0", {"leader.replication.throttled.rate": "100"})
    quotas.leader.record(50)
    assert not quotas.leader.is_quota_exceeded()
    quotas.leader.record(100)
    assert quotas.leader.is_quota_exceeded()
    assert not quotas.follower.is_quota_exceeded()


def test_broker_config_handler_resets_missing_rates_to_default(config: KafkaConfig, quotas: QuotaManagers) -> None:
    """A rate absent from the broker's entity goes back to DynamicConfig.Broker's default, unbounded."""
    handler = BrokerConfigHandler(config, quotas)
    handler.process_config_changes(
        "0", {"leader.replication.throttled.rate": "1000", "follower.replication.throttled.rate": "2000"}
    )
    handler.process_config_changes("0", {"follower.replication.throttled.rate": "2500"})
    assert quotas.leader.upper_bound() == DynamicConfig.Broker.DEFAULT_REPLICATION_THROTTLED_RATE == LONG_MAX
    assert quotas.follower.upper_bound() == 2500
    assert quotas.alter_log_dirs.upper_bound() == LONG_MAX
    quotas.leader.record(10**15)
    assert not quotas.leader.is_quota_exceeded()


def test_broker_config_handler_ignores_other_brokers_and_cluster_default(
    config: KafkaConfig, quotas: QuotaManagers
) -> None:
    """Another broker's entity changes nothing here, and (as in Kafka 2.8) rates at `<default>` throttle nothing."""
    handler = BrokerConfigHandler(config, quotas)
    handler.process_config_changes("1", {"leader.replication.throttled.rate": "10"})
    handler.process_config_changes("<default>", {"leader.replication.throttled.rate": "20"})
    assert quotas.leader.upper_bound() == LONG_MAX
    assert config.dynamic_config is not None
    assert config.dynamic_config.current_dynamic_default_configs == {"leader.replication.throttled.rate": "20"}


def test_broker_config_handler_logs_a_malformed_rate(
    config: KafkaConfig, quotas: QuotaManagers, caplog: pytest.LogCaptureFixture
) -> None:
    """A rate that is not a long (written to ZooKeeper by hand) is logged and leaves every rate as it was."""
    handler = BrokerConfigHandler(config, quotas)
    handler.process_config_changes("0", {"leader.replication.throttled.rate": "1000"})
    with caplog.at_level(logging.ERROR, logger="kafka.server.BrokerConfigHandler"):
        handler.process_config_changes(
            "0", {"leader.replication.throttled.rate": "5", "follower.replication.throttled.rate": "fast"}
        )
    assert quotas.leader.upper_bound() == 1000
    assert quotas.follower.upper_bound() == LONG_MAX
    assert "Replication throttle rates of broker 0 not applied" in caplog.text


def test_broker_config_handler_without_quota_managers(config: KafkaConfig) -> None:
    """A handler made without quota managers still applies the dynamic configs."""
    BrokerConfigHandler(config).process_config_changes("0", {"leader.replication.throttled.rate": "1000"})
    assert config.dynamic_config is not None
    assert config.dynamic_config.current_dynamic_broker_configs == {"leader.replication.throttled.rate": "1000"}


def test_quota_applied_to_rate_already_recorded(config: KafkaConfig, quotas: QuotaManagers) -> None:
    """A rate set after traffic was recorded bounds that traffic at once (the metric's config is replaced)."""
    quotas.follower.record(10_000)
    assert not quotas.follower.is_quota_exceeded()
    BrokerConfigHandler(config, quotas).process_config_changes("0", {"follower.replication.throttled.rate": "100"})
    assert quotas.follower.is_quota_exceeded()
    assert Quota.upper_bound(100) == Quota.upper_bound(float(quotas.follower.upper_bound()))
