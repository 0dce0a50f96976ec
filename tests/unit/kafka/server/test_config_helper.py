"""Tests of kafka.server.config_helper (DescribeConfigs), after Kafka's ConfigHelper and DescribeConfigs tests in
KafkaApisTest / DynamicBrokerConfigTest, and of the dynamic broker configs and config handlers it reports on
(kafka.server.config_handler), with real LogManagers for the handlers."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from kafka.common.config.config_exception import ConfigException
from kafka.common.message import DescribeConfigsRequestData, DescribeConfigsResponseData, UpdateMetadataRequestData
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.errors import Errors
from kafka.common.requests.describe_configs_response import ConfigSource, ConfigType, DescribeConfigsResponse
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.log.log_cleaner import CleanerConfig
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_manager import LogManager
from kafka.server.config_handler import (
    BrokerConfigHandler,
    DynamicBrokerConfig,
    DynamicLogConfig,
    TopicConfigHandler,
    dynamic_config_of,
)
from kafka.server.config_helper import ConfigHelper, Log4jController, mark_defaults_for_v0
from kafka.server.kafka_config import KafkaConfig
from kafka.server.metadata_cache import ZkMetadataCache
from kafka.utils.mock_scheduler import MockScheduler

TOPIC = 2
BROKER = 4
BROKER_LOGGER = 8
STATIC_PROPS = {
    "zookeeper.connect": "127.0.0.1:2181",
    "broker.id": "0",
    "log.segment.bytes": "2048000",
    "ssl.key.password": "secret",
    "log.retention.hours": "100",
}


class DictConfigRepository:
    """Topic overrides, as ZooKeeper's /config/topics/<topic> would give them."""

    def __init__(self, configs: Mapping[str, Mapping[str, str]]) -> None:
        self.configs = dict(configs)

    def topic_config(self, topic: str) -> Mapping[str, str]:
        return self.configs.get(topic, {})


def metadata_cache_with(topics: Mapping[str, int]) -> ZkMetadataCache:
    """A metadata cache of broker 0 that knows the topics (name -> partitions), every partition led by broker 0."""
    cache = ZkMetadataCache(0)
    endpoint = UpdateMetadataRequestData.UpdateMetadataEndpoint(
        host="localhost",
        port=9092,
        listener=ListenerName("PLAINTEXT").value,
        security_protocol=SecurityProtocol.PLAINTEXT.id,
    )
    brokers = [UpdateMetadataRequestData.UpdateMetadataBroker(id=0, endpoints=[endpoint], rack=None)]
    states = [
        UpdateMetadataRequestData.UpdateMetadataPartitionState(
            topic_name=topic,
            partition_index=p,
            controller_epoch=1,
            leader=0,
            leader_epoch=0,
            isr=[0],
            zk_version=0,
            replicas=[0],
            offline_replicas=[],
        )
        for topic, count in topics.items()
        for p in range(count)
    ]
    cache.update_metadata(1, UpdateMetadataRequestBuilder(7, 0, 1, 0, states, brokers, {}).build())
    return cache


@pytest.fixture
def config() -> KafkaConfig:
    return KafkaConfig(STATIC_PROPS, False)


@pytest.fixture
def helper(config: KafkaConfig) -> ConfigHelper:
    repository = DictConfigRepository({"t": {"segment.bytes": "4096", "cleanup.policy": "compact"}})
    return ConfigHelper(metadata_cache_with({"t": 1}), config, repository)


def resource(resource_type: int, name: str, keys: list[str] | None = None) -> Any:
    return DescribeConfigsRequestData.DescribeConfigsResource(
        resource_type=resource_type, resource_name=name, configuration_keys=keys
    )


def describe(helper: ConfigHelper, res: Any, synonyms: bool = False, documentation: bool = False) -> Any:
    (result,) = helper.describe_configs([res], synonyms, documentation)
    return result


def by_name(result: Any) -> dict[str, Any]:
    return {c.name: c for c in result.configs}


def synonyms_of(entry: Any) -> list[tuple[str, str | None, int]]:
    return [(s.name, s.value, s.source) for s in entry.synonyms]


# ---- topics ---------------------------------------------------------------------------------------------


def test_describe_topic_lists_every_log_config_with_source(helper: ConfigHelper) -> None:
    """A topic's description has every LogConfig key; overrides come from TOPIC_CONFIG, broker settings from
    STATIC_BROKER_CONFIG, the rest from DEFAULT_CONFIG; nothing is read-only or sensitive."""
    result = describe(helper, resource(TOPIC, "t"))
    assert (result.error_code, result.resource_type, result.resource_name) == (0, TOPIC, "t")
    configs = by_name(result)
    assert set(configs) == set(LogConfig.config_names())
    assert (configs["segment.bytes"].value, configs["segment.bytes"].config_source) == (
        "4096",
        ConfigSource.TOPIC_CONFIG,
    )
    assert (configs["cleanup.policy"].value, configs["cleanup.policy"].config_source) == (
        "compact",
        ConfigSource.TOPIC_CONFIG,
    )
    assert (configs["max.message.bytes"].value, configs["max.message.bytes"].config_source) == (
        "1048588",
        ConfigSource.DEFAULT_CONFIG,
    )
    assert not any(c.read_only or c.is_sensitive for c in configs.values())
    assert all(c.synonyms == [] and c.documentation is None for c in configs.values())
    assert configs["segment.bytes"].config_type == ConfigType.INT
    assert configs["cleanup.policy"].config_type == ConfigType.LIST


def test_describe_topic_synonyms_in_priority_order(helper: ConfigHelper) -> None:
    """With synonyms, a topic config lists its override, then the broker settings that would supply it, highest
    priority first; the source of a config without override is its first broker synonym."""
    other = describe(helper, resource(TOPIC, "t", ["segment.bytes", "flush.ms"]), synonyms=True)
    configs = by_name(other)
    assert set(configs) == {"segment.bytes", "flush.ms"}
    assert synonyms_of(configs["segment.bytes"]) == [
        ("segment.bytes", "4096", ConfigSource.TOPIC_CONFIG),
        ("log.segment.bytes", "2048000", ConfigSource.STATIC_BROKER_CONFIG),
        ("log.segment.bytes", "1073741824", ConfigSource.DEFAULT_CONFIG),
    ]
    # flush.ms defaults through log.flush.interval.ms, unset, then log.flush.scheduler.interval.ms (a default)
    assert configs["flush.ms"].config_source == ConfigSource.DEFAULT_CONFIG


def test_describe_topic_source_follows_static_broker_config() -> None:
    """Without a topic override, a broker setting from server.properties is the source of a topic config."""
    helper = ConfigHelper(metadata_cache_with({"u": 1}), KafkaConfig(STATIC_PROPS, False), DictConfigRepository({}))
    configs = by_name(describe(helper, resource(TOPIC, "u", ["segment.bytes"])))
    assert (configs["segment.bytes"].value, configs["segment.bytes"].config_source) == (
        "2048000",
        ConfigSource.STATIC_BROKER_CONFIG,
    )


def test_describe_topic_documentation(helper: ConfigHelper) -> None:
    """Documentation (the ConfigDef's text) is included only when asked for; otherwise it is null."""
    configs = by_name(describe(helper, resource(TOPIC, "t", ["retention.ms"]), documentation=True))
    assert configs["retention.ms"].documentation == LogConfig.config_def.config_keys["retention.ms"].documentation
    assert configs["retention.ms"].documentation is not None
    broker = by_name(describe(helper, resource(BROKER, "0", ["num.io.threads"]), documentation=True))
    assert broker["num.io.threads"].documentation == KafkaConfig.config_def.config_keys["num.io.threads"].documentation
    assert broker["num.io.threads"].documentation is not None
    assert by_name(describe(helper, resource(TOPIC, "t", ["retention.ms"])))["retention.ms"].documentation is None


def test_describe_unknown_and_invalid_topics(helper: ConfigHelper) -> None:
    """A topic the metadata cache does not know gives UNKNOWN_TOPIC_OR_PARTITION, an illegal name
    INVALID_TOPIC_EXCEPTION, both without configs."""
    unknown, invalid = helper.describe_configs([resource(TOPIC, "missing"), resource(TOPIC, "bad name!")], False, False)
    assert (unknown.error_code, unknown.configs, unknown.resource_name) == (
        Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
        [],
        "missing",
    )
    assert invalid.error_code == Errors.INVALID_TOPIC_EXCEPTION.code and invalid.configs == []
    assert "illegal" in invalid.error_message


# ---- brokers --------------------------------------------------------------------------------------------


def test_describe_broker_lists_every_kafka_config(helper: ConfigHelper) -> None:
    """This broker's description has every KafkaConfig key; passwords are null and sensitive; keys that cannot be
    changed dynamically are read-only; values come from server.properties or the defaults."""
    configs = by_name(describe(helper, resource(BROKER, "0")))
    public_names = {name for name, key in KafkaConfig.config_def.config_keys.items() if not key.internal_config}
    assert public_names <= set(configs)
    assert "node.id" not in configs  # an internal config (KRaft) is left out, as Kafka leaves it
    password = configs["ssl.key.password"]
    assert (password.value, password.is_sensitive, password.config_source) == (
        None,
        True,
        ConfigSource.STATIC_BROKER_CONFIG,
    )
    assert password.config_type == ConfigType.PASSWORD
    assert configs["log.dirs"].read_only and not configs["log.retention.ms"].read_only
    assert configs["broker.id"].read_only and not configs["num.io.threads"].read_only
    assert (configs["log.segment.bytes"].value, configs["log.segment.bytes"].config_source) == (
        "2048000",
        ConfigSource.STATIC_BROKER_CONFIG,
    )
    assert (configs["num.io.threads"].value, configs["num.io.threads"].config_source) == (
        "8",
        ConfigSource.DEFAULT_CONFIG,
    )
    assert configs["zookeeper.connect"].value == "127.0.0.1:2181"


def test_describe_broker_shows_dynamic_configs(config: KafkaConfig, helper: ConfigHelper) -> None:
    """Dynamic configs applied by BrokerConfigHandler take over value and source (per-broker above cluster default
    above static); the default resource lists only the cluster-wide dynamic configs."""
    handler = BrokerConfigHandler(config)
    handler.process_config_changes("<default>", {"log.segment.bytes": "3000000", "num.io.threads": "12"})
    handler.process_config_changes("0", {"log.segment.bytes": "4000000"})
    handler.process_config_changes("5", {"log.segment.bytes": "1"})  # another broker's: ignored

    configs = by_name(describe(helper, resource(BROKER, "0", ["log.segment.bytes", "num.io.threads"]), synonyms=True))
    assert (configs["log.segment.bytes"].value, configs["log.segment.bytes"].config_source) == (
        "4000000",
        ConfigSource.DYNAMIC_BROKER_CONFIG,
    )
    assert synonyms_of(configs["log.segment.bytes"]) == [
        ("log.segment.bytes", "4000000", ConfigSource.DYNAMIC_BROKER_CONFIG),
        ("log.segment.bytes", "3000000", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
        ("log.segment.bytes", "2048000", ConfigSource.STATIC_BROKER_CONFIG),
        ("log.segment.bytes", "1073741824", ConfigSource.DEFAULT_CONFIG),
    ]
    assert (configs["num.io.threads"].value, configs["num.io.threads"].config_source) == (
        "12",
        ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
    )
    assert config.log_segment_bytes == 4000000  # KafkaConfig's reads see the dynamic value

    default = describe(helper, resource(BROKER, ""), synonyms=True)
    assert default.resource_name == ""
    defaults = by_name(default)
    assert set(defaults) == {"log.segment.bytes", "num.io.threads"}
    assert synonyms_of(defaults["log.segment.bytes"]) == [
        ("log.segment.bytes", "3000000", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
    ]


def test_describe_other_broker_is_rejected(helper: ConfigHelper) -> None:
    """Another broker's id, or a name that is not an integer, gives INVALID_REQUEST with Kafka's message."""
    other, garbage = helper.describe_configs([resource(BROKER, "1"), resource(BROKER, "x")], False, False)
    assert other.error_code == Errors.INVALID_REQUEST.code
    assert other.error_message == "Unexpected broker id, expected 0 or empty string, but received 1"
    assert garbage.error_message == "Broker id must be an integer, but it is: x"
    assert other.configs == [] and garbage.configs == []


def test_describe_broker_loggers(helper: ConfigHelper) -> None:
    """BROKER_LOGGER lists the root logger and the broker's loggers with their levels (own, or the root's)."""
    logger = logging.getLogger("kafka.server.ConfigHelperTestLogger")
    logger.setLevel(logging.DEBUG)
    try:
        configs = by_name(describe(helper, resource(BROKER_LOGGER, "0")))
        root_level = {logging.WARNING: "WARN", logging.INFO: "INFO", logging.DEBUG: "DEBUG"}[logging.getLogger().level]
        assert configs["root"].value == root_level
        assert configs["kafka.server.ConfigHelperTestLogger"].value == "DEBUG"
        entry = configs["kafka.server.ConfigHelperTestLogger"]
        assert (entry.config_source, entry.read_only, entry.is_sensitive) == (
            ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG,
            False,
            False,
        )
        assert Log4jController.unset_log_level("kafka.server.ConfigHelperTestLogger")
        assert Log4jController.loggers()["kafka.server.ConfigHelperTestLogger"] == root_level
    finally:
        logger.setLevel(logging.NOTSET)
    empty, other = helper.describe_configs([resource(BROKER_LOGGER, ""), resource(BROKER_LOGGER, "3")], False, False)
    assert (empty.error_code, empty.error_message) == (Errors.INVALID_REQUEST.code, "Broker id must not be empty")
    assert other.error_message == "Unexpected broker id, expected 0 but received 3"


def test_unknown_resource_type(helper: ConfigHelper) -> None:
    """A resource type other than topic, broker and broker logger gives INVALID_REQUEST."""
    result = describe(helper, resource(99, "x"))
    assert (result.error_code, result.error_message) == (
        Errors.INVALID_REQUEST.code,
        "Unsupported resource type: UNKNOWN",
    )


@pytest.mark.parametrize("version", [0, 1, 2, 3, 4])
def test_described_configs_serialize_at_every_version(helper: ConfigHelper, version: int) -> None:
    """The results make a DescribeConfigs response that encodes and decodes at every version we serve."""
    results = helper.describe_configs([resource(TOPIC, "t"), resource(BROKER, "0")], version >= 1, version >= 3)
    if version == 0:
        mark_defaults_for_v0(results)
    data = response_data(results)
    parsed = DescribeConfigsResponse.parse(DescribeConfigsResponse(data).serialize(version), version).data
    topic = {c.name: c for c in parsed.results[0].configs}
    assert topic["segment.bytes"].value == "4096"
    broker = {c.name: c for c in parsed.results[1].configs}
    assert broker["ssl.key.password"].value is None
    if version == 0:  # only v0 carries is_default
        assert topic["max.message.bytes"].is_default and not topic["segment.bytes"].is_default
    if version >= 1:
        assert topic["segment.bytes"].config_source == ConfigSource.TOPIC_CONFIG
        assert broker["ssl.key.password"].is_sensitive
    if version >= 3:
        assert topic["segment.bytes"].config_type == ConfigType.INT
        assert topic["segment.bytes"].documentation is not None


def response_data(results: list[Any]) -> Any:
    return DescribeConfigsResponseData(throttle_time_ms=0, results=results)


# ---- dynamic broker configs -----------------------------------------------------------------------------


def test_dynamic_update_validation_messages(config: KafkaConfig) -> None:
    """Kafka's checks of dynamic updates: non-dynamic keys, SSL keys without listener prefix, per-broker keys at the
    cluster default, bad values, and passwords (which need an encoder secret)."""
    dynamic = dynamic_config_of(config)
    assert dynamic is dynamic_config_of(config)  # one per KafkaConfig
    with pytest.raises(ConfigException, match=r"^Cannot update these configs dynamically: Set\(broker.id, log.dirs\)$"):
        dynamic.validate({"log.dirs": "/x", "broker.id": "3"}, True)
    with pytest.raises(
        ConfigException, match=r"only per-listener using the listener prefix: Set\(ssl\.keystore\.type\)"
    ):
        dynamic.validate({"ssl.keystore.type": "PKCS12"}, True)
    with pytest.raises(ConfigException, match="at default cluster level, broker id must be specified"):
        dynamic.validate({"listener.name.external.ssl.keystore.type": "PKCS12"}, False)
    with pytest.raises(ConfigException, match=r"Invalid value abc for configuration log\.retention\.ms"):
        dynamic.validate({"log.retention.ms": "abc"}, True)
    with pytest.raises(ConfigException, match="Password encoder secret not configured"):
        dynamic.to_persistent_props({"listener.name.external.ssl.key.password": "p"}, True)
    with pytest.raises(ConfigException, match="Password config can be defined only at broker level"):
        dynamic.to_persistent_props({"listener.name.external.ssl.key.password": "p"}, False)
    dynamic.validate({"log.retention.ms": "1000", "leader.replication.throttled.rate": "10"}, False)


def test_invalid_stored_dynamic_configs_are_dropped(config: KafkaConfig) -> None:
    """Configs read from ZooKeeper that are invalid, not dynamic or misplaced are ignored; the rest apply."""
    dynamic = DynamicBrokerConfig(config)
    dynamic.update_default_config(
        {"log.dirs": "/x", "log.retention.ms": "abc", "ssl.keystore.type": "JKS", "log.cleaner.threads": "2"}
    )
    assert dynamic.current_dynamic_default_configs == {"log.cleaner.threads": "2"}
    assert dynamic.current_kafka_config.get("log.cleaner.threads") == 2


# ---- config handlers with real logs ---------------------------------------------------------------------


@pytest.fixture
def log_manager(tmp_path: Path) -> Iterator[LogManager]:
    time = MockTime()
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


def test_topic_config_handler_updates_the_topics_logs(log_manager: LogManager, config: KafkaConfig) -> None:
    """A topic config change gives every log of the topic the broker defaults overridden by the new topic
    configs; other topics' logs keep theirs."""
    t0 = log_manager.get_or_create_log(TopicPartition("t", 0), is_new=True)
    t1 = log_manager.get_or_create_log(TopicPartition("t", 1), is_new=True)
    other = log_manager.get_or_create_log(TopicPartition("other", 0), is_new=True)
    enabled: list[str] = []

    class Controller:
        def enable_topic_unclean_leader_election(self, topic: str) -> None:
            enabled.append(topic)

    handler = TopicConfigHandler(log_manager, config, kafka_controller=Controller())
    handler.process_config_changes("t", {"retention.ms": "5000", "unclean.leader.election.enable": "true"})
    for log in (t0, t1):
        assert log.config.retention_ms == 5000
        assert log.config.segment_size == 2048000  # the broker default stays under the override
        assert log.config.overridden_configs == {"retention.ms", "unclean.leader.election.enable"}
    assert other.config.retention_ms == 100 * 60 * 60 * 1000
    assert enabled == ["t"]

    handler.process_config_changes("t", {})  # overrides removed
    assert t0.config.retention_ms == 100 * 60 * 60 * 1000 and t0.config.overridden_configs == frozenset()


def test_topic_config_handler_ignores_too_new_message_format(log_manager: LogManager) -> None:
    """A message.format.version above the inter-broker protocol version is left out of the log config."""
    config = KafkaConfig({**STATIC_PROPS, "inter.broker.protocol.version": "2.0"}, False)
    log = log_manager.get_or_create_log(TopicPartition("t", 0), is_new=True)
    TopicConfigHandler(log_manager, config).process_config_changes(
        "t", {"message.format.version": "2.8", "retention.ms": "7000"}
    )
    assert log.config.retention_ms == 7000
    assert "message.format.version" not in log.config.overridden_configs


def test_dynamic_log_config_changes_defaults_of_logs_without_override(log_manager: LogManager) -> None:
    """A dynamic log.retention.ms becomes the retention of logs without a topic override and the LogManager's
    default for new logs; a topic override still wins."""
    config = KafkaConfig(STATIC_PROPS, False)
    plain = log_manager.get_or_create_log(TopicPartition("plain", 0), is_new=True)
    overridden = log_manager.get_or_create_log(TopicPartition("own", 0), is_new=True)
    TopicConfigHandler(log_manager, config).process_config_changes("own", {"retention.ms": "1234"})
    dynamic_config_of(config).add_broker_reconfigurable(DynamicLogConfig(log_manager))

    BrokerConfigHandler(config).process_config_changes("<default>", {"log.retention.ms": "60000"})
    assert plain.config.retention_ms == 60000
    assert overridden.config.retention_ms == 1234
    assert log_manager.current_default_config.retention_ms == 60000
    assert log_manager.get_or_create_log(TopicPartition("new", 0), is_new=True).config.retention_ms == 60000
