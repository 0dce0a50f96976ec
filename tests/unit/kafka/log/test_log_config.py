"""Tests of kafka.log.log_config, after Kafka 2.8's LogConfigTest."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import InvalidConfigurationException
from kafka.common.record.timestamp_type import TimestampType
from kafka.log.log_config import LogConfig, ThrottledReplicaListValidator
from kafka.server.kafka_config import KAFKA_0_10_0_IV1, KAFKA_2_8_IV1, KafkaConfig

_BROKER = {"zookeeper.connect": "zk:2181", "broker.id": "0", "listeners": "PLAINTEXT://:0"}


def test_defaults_are_the_brokers() -> None:
    """An empty LogConfig carries Kafka's broker defaults under the topic names."""
    c = LogConfig()
    assert c.segment_size == 1073741824
    assert c.segment_ms == 7 * 24 * 3600 * 1000
    assert c.segment_jitter_ms == 0
    assert c.max_index_size == c.segment_index_bytes == 10485760
    assert c.flush_interval == c.flush_interval_messages == 2**63 - 1
    assert c.flush_ms == 2**63 - 1
    assert c.retention_size == -1
    assert c.retention_ms == 7 * 24 * 3600 * 1000
    assert c.max_message_size == 1048588
    assert c.index_interval == 4096
    assert c.file_delete_delay_ms == 60000
    assert c.delete_retention_ms == 86400000
    assert c.compaction_lag_ms == 0
    assert c.max_compaction_lag_ms == 2**63 - 1
    assert c.min_cleanable_ratio == 0.5
    assert (c.compact, c.delete) == (False, True)
    assert c.unclean_leader_election_enable is False
    assert c.min_in_sync_replicas == 1
    assert c.compression_type == "producer"
    assert c.preallocate is False
    assert c.message_format_version is KAFKA_2_8_IV1
    assert c.message_timestamp_type is TimestampType.CREATE_TIME
    assert c.message_timestamp_difference_max_ms == 2**63 - 1
    assert c.leader_replication_throttled_replicas == []
    assert c.follower_replication_throttled_replicas == []
    assert c.message_down_conversion_enable is True
    assert c.random_segment_jitter == 0
    assert c.max_segment_ms == c.segment_ms


def test_values_parse_from_strings() -> None:
    """Topic overrides given as strings become typed attributes."""
    c = LogConfig(
        {
            "segment.bytes": "1024",
            "segment.ms": "100",
            "retention.ms": "-1",
            "cleanup.policy": "compact, delete",
            "compression.type": "lz4",
            "min.cleanable.dirty.ratio": "0.25",
            "message.format.version": "0.10.0",
            "message.timestamp.type": "LogAppendTime",
            "preallocate": "true",
            "leader.replication.throttled.replicas": "0:1,1:2",
        }
    )
    assert c.segment_size == 1024
    assert c.segment_ms == 100
    assert c.retention_ms == -1
    assert (c.compact, c.delete) == (True, True)
    assert c.compression_type == "lz4"
    assert c.min_cleanable_ratio == 0.25
    assert c.message_format_version is KAFKA_0_10_0_IV1
    assert c.message_timestamp_type is TimestampType.LOG_APPEND_TIME
    assert c.preallocate is True
    assert c.leader_replication_throttled_replicas == ["0:1", "1:2"]


def test_every_topic_config_has_a_server_default() -> None:
    """Each topic config names the broker config that supplies its default."""
    for name in LogConfig.config_names():
        assert LogConfig.server_config_name(name), name
    assert LogConfig.server_config_name("file.delete.delay.ms") == KafkaConfig.LOG_DELETE_DELAY_MS_PROP
    assert LogConfig.server_config_name("nope") is None
    assert LogConfig.TOPIC_CONFIG_SYNONYMS["retention.ms"] == "log.retention.ms"
    assert LogConfig.TOPIC_CONFIG_SYNONYMS["max.message.bytes"] == "message.max.bytes"
    assert set(LogConfig.TOPIC_CONFIG_SYNONYMS) == set(LogConfig.config_names()) - {
        "leader.replication.throttled.replicas",
        "follower.replication.throttled.replicas",
    }


def test_config_names_are_kafkas() -> None:
    """The topic config names are exactly Kafka 2.8's."""
    assert LogConfig.config_names() == sorted(
        [
            "segment.bytes",
            "segment.ms",
            "segment.jitter.ms",
            "segment.index.bytes",
            "flush.messages",
            "flush.ms",
            "retention.bytes",
            "retention.ms",
            "max.message.bytes",
            "index.interval.bytes",
            "delete.retention.ms",
            "min.compaction.lag.ms",
            "max.compaction.lag.ms",
            "file.delete.delay.ms",
            "min.cleanable.dirty.ratio",
            "cleanup.policy",
            "unclean.leader.election.enable",
            "min.insync.replicas",
            "compression.type",
            "preallocate",
            "message.format.version",
            "message.timestamp.type",
            "message.timestamp.difference.max.ms",
            "leader.replication.throttled.replicas",
            "follower.replication.throttled.replicas",
            "message.downconversion.enable",
        ]
    )


def test_extract_log_config_map_from_broker_config() -> None:
    """Broker settings become topic defaults: roll, jitter and retention hours in milliseconds."""
    props = dict(_BROKER)
    props.update({"log.roll.hours": "2", "log.roll.jitter.hours": "2", "log.retention.hours": "2"})
    m = LogConfig.extract_log_config_map(KafkaConfig(props, do_log=False))
    hour = 3600 * 1000
    assert m["segment.ms"] == 2 * hour
    assert m["segment.jitter.ms"] == 2 * hour
    assert m["retention.ms"] == 2 * hour
    assert m["message.format.version"] == "2.8-IV1"
    assert m["message.timestamp.type"] == "CreateTime"
    assert set(m) == set(LogConfig.TOPIC_CONFIG_SYNONYMS)
    c = LogConfig(m)
    assert c.segment_ms == 2 * hour
    assert c.max_message_size == 1048588


def test_from_props_merges_and_records_overrides() -> None:
    """from_props lays topic overrides on broker defaults and remembers which keys were overridden."""
    defaults = LogConfig.extract_log_config_map(KafkaConfig(_BROKER, do_log=False))
    c = LogConfig.from_props(defaults, {"retention.bytes": "100"})
    assert c.retention_size == 100
    assert c.overridden_configs == {"retention.bytes"}
    assert LogConfig.from_props({}, {}) == LogConfig()


def test_overridden_configs_as_loggable_string_redacts_unknown_and_secret() -> None:
    """Only overridden keys are printed, sorted, with unknown and secret keys redacted."""
    broker = dict(_BROKER)
    broker.update({"log.retention.bytes": "50", "ssl.key.password": "somekeypassword"})
    overrides = {
        "min.insync.replicas": "2",
        "retention.bytes": "100",
        "ssl.truststore.password": "sometrustpasswrd",
        "unknown.topic.password.config": "bbbb",
    }
    c = LogConfig.from_props(LogConfig.extract_log_config_map(KafkaConfig(broker, do_log=False)), overrides)
    assert c.overridden_configs_as_loggable_string() == (
        "{min.insync.replicas=2, retention.bytes=100, ssl.truststore.password=(redacted), "
        "unknown.topic.password.config=(redacted)}"
    )


def _invalid(name: str, *values: Any) -> None:
    for value in values:
        with pytest.raises(ConfigException):
            LogConfig({name: value})


@pytest.mark.parametrize("name", LogConfig.config_names())
def test_invalid_values_rejected(name: str) -> None:
    """Every topic config rejects malformed and out-of-range values."""
    if name == "unclean.leader.election.enable":
        _invalid(name, "not a boolean")
    elif name in ("retention.bytes", "retention.ms"):
        _invalid(name, "not_a_number")
    elif name == "cleanup.policy":
        _invalid(name, "true", "foobar")
    elif name == "min.cleanable.dirty.ratio":
        _invalid(name, "not_a_number", "-0.1", "1.2")
    elif name == "min.insync.replicas":
        _invalid(name, "not_a_number", "0", "-1")
    elif name == "message.format.version":
        _invalid(name, "")
    else:
        _invalid(name, "not_a_number", "-1")


def test_invalid_value_message_names_key_and_value() -> None:
    """A rejected value's error names the key and the value."""
    with pytest.raises(ConfigException) as e:
        LogConfig({"segment.bytes": "13"})
    assert str(e.value) == "Invalid value 13 for configuration segment.bytes: Value must be at least 14"


def test_validate_rejects_unknown_names() -> None:
    """validate() refuses names that are not topic configs with InvalidConfigurationException."""
    with pytest.raises(InvalidConfigurationException, match=re.escape("Unknown topic config name: log.retention.ms")):
        LogConfig.validate({"log.retention.ms": "1"})
    LogConfig.validate({"retention.ms": "1"})
    with pytest.raises(ConfigException):
        LogConfig.validate({"retention.ms": "x"})


def test_validate_rejects_min_lag_above_max_lag() -> None:
    """min.compaction.lag.ms greater than max.compaction.lag.ms is a conflict."""
    with pytest.raises(InvalidConfigurationException, match=r"min.compaction.lag.ms \(2\) > max.compaction.lag.ms"):
        LogConfig.validate({"min.compaction.lag.ms": "2", "max.compaction.lag.ms": "1"})


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("*", True),
        ("* ", True),
        ("", True),
        (" ", True),
        ("100:10", True),
        ("100:10,12:10", True),
        ("100:10,12:10,15:1  ", True),
        ("100:0,", True),
        ("100", False),
        ("100:", False),
        ("100:0,10", False),
        ("100:0,10:   ", False),
        ("100 :0,10:   ", False),
        ("100: 0,10:   ", False),
        ("*,100:10", False),
        ("* ,100:10", False),
    ],
)
def test_throttled_replica_list_validator(value: str, valid: bool) -> None:
    """Throttled replica lists are '*' or partition:broker pairs, as Kafka accepts them."""
    if valid:
        ThrottledReplicaListValidator.ensure_valid_string("", value)
    else:
        with pytest.raises(ConfigException):
            ThrottledReplicaListValidator.ensure_valid_string("", value)


def test_random_segment_jitter_and_max_segment_ms() -> None:
    """Jitter stays below min(jitter, segment.ms); compacted topics roll by max.compaction.lag.ms."""
    c = LogConfig({"segment.jitter.ms": "50", "segment.ms": "10"})
    draws = {c.random_segment_jitter for _ in range(200)}
    assert draws <= set(range(10))
    assert len(draws) > 1
    compacted = LogConfig({"cleanup.policy": "compact", "max.compaction.lag.ms": "5", "segment.ms": "10"})
    assert compacted.max_segment_ms == 5
    assert LogConfig({"max.compaction.lag.ms": "5", "segment.ms": "10"}).max_segment_ms == 10


def test_unknown_keys_are_unused() -> None:
    """A key that is not a topic config is left unused."""
    c = LogConfig({"retention.ms": "5", "bogus": "1"})
    assert c.unused() == {"bogus"}
