"""Tests of kafka.server.kafka_config, after Kafka 2.8's KafkaConfigTest."""

from __future__ import annotations

import logging
import os
import re
from typing import Any

import pytest

from kafka.cluster.end_point import EndPoint
from kafka.common.config.config_def import Type
from kafka.common.config.config_exception import ConfigException
from kafka.common.config.config_resource import ConfigResource
from kafka.common.config.password import Password
from kafka.common.network.listener_name import ListenerName
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record_version import RecordVersion
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.utils import load_props
from kafka.server.kafka_config import (
    KAFKA_0_8_2,
    KAFKA_0_10_0_IV1,
    KAFKA_2_8_IV1,
    ApiVersion,
    Defaults,
    KafkaConfig,
)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))))
PLAINTEXT = ListenerName("PLAINTEXT")


def _props(**extra: Any) -> dict[str, Any]:
    props: dict[str, Any] = {"zookeeper.connect": "127.0.0.1:2181", "broker.id": "0", "listeners": "PLAINTEXT://:8181"}
    props.update({k.replace("_", "."): v for k, v in extra.items()})
    return props


def _config(props: dict[str, Any]) -> KafkaConfig:
    return KafkaConfig.from_props(props, do_log=False)


def _assert_invalid(key: str, *values: Any) -> None:
    for value in values:
        props = _props()
        props[key] = value
        with pytest.raises(ConfigException):
            _config(props)


# ---- defaults -------------------------------------------------------------------------------------


def test_defaults_are_kafkas() -> None:
    """A config with only zookeeper.connect takes Kafka 2.8's defaults."""
    c = _config({"zookeeper.connect": "zk:2181"})
    assert c.broker_id == -1
    assert c.broker_id_generation_enable is True
    assert c.max_reserved_broker_id == 1000
    assert c.num_network_threads == 3
    assert c.num_io_threads == 8
    assert c.background_threads == 10
    assert c.queued_max_requests == 500
    assert c.queued_max_bytes == c.queued_max_request_bytes == -1
    assert c.socket_send_buffer_bytes == 102400
    assert c.socket_receive_buffer_bytes == 102400
    assert c.socket_request_max_bytes == 104857600
    assert c.message_max_bytes == 1048588
    assert c.max_connections_per_ip == 2**31 - 1
    assert c.connections_max_idle_ms == 600000
    assert c.request_timeout_ms == 30000
    assert c.log_dirs == ["/tmp/kafka-logs"]
    assert c.num_partitions == 1
    assert c.log_segment_bytes == 1073741824
    assert c.log_roll_time_millis == 168 * 3600 * 1000
    assert c.log_roll_time_jitter_millis == 0
    assert c.log_retention_time_millis == 168 * 3600 * 1000
    assert c.log_retention_bytes == -1
    assert c.log_cleanup_interval_ms == 300000
    assert c.log_cleanup_policy == ["delete"]
    assert c.log_index_size_max_bytes == 10485760
    assert c.log_index_interval_bytes == 4096
    assert c.log_flush_interval_messages == 2**63 - 1
    assert c.log_flush_interval_ms == 2**63 - 1
    assert c.log_delete_delay_ms == 60000
    assert c.log_cleaner_dedupe_buffer_size == 128 * 1024 * 1024
    assert c.log_cleaner_min_clean_ratio == 0.5
    assert c.log_message_timestamp_type is TimestampType.CREATE_TIME
    assert c.log_message_down_conversion_enable is True
    assert c.auto_create_topics_enable is True
    assert c.min_in_sync_replicas == 1
    assert c.default_replication_factor == 1
    assert c.delete_topic_enable is True
    assert c.compression_type == "producer"
    assert c.unclean_leader_election_enable is False
    assert c.replica_lag_time_max_ms == 30000
    assert c.replica_fetch_max_bytes == 1048576
    assert c.replica_fetch_wait_max_ms == 500
    assert c.replica_high_watermark_checkpoint_interval_ms == 5000
    assert c.num_replica_fetchers == 1
    assert c.controller_socket_timeout_ms == 30000
    assert c.controlled_shutdown_enable is True
    assert c.group_min_session_timeout_ms == 6000
    assert c.group_max_session_timeout_ms == 1800000
    assert c.group_initial_rebalance_delay == 3000
    assert c.offsets_topic_replication_factor == 3
    assert c.offsets_topic_partitions == 50
    assert c.offsets_topic_segment_bytes == 104857600
    assert c.offsets_retention_minutes == 10080
    assert c.offset_commit_required_acks == -1
    assert c.offsets_topic_compression_codec is CompressionType.NONE
    assert c.transactional_id_expiration_ms == 604800000
    assert c.transaction_max_timeout_ms == 900000
    assert c.transaction_topic_min_isr == 2
    assert c.transaction_topic_replication_factor == 3
    assert c.max_incremental_fetch_session_cache_slots == 1000
    assert c.fetch_max_bytes == 57671680
    assert c.zk_session_timeout_ms == 18000
    assert c.zk_connection_timeout_ms == 18000
    assert c.zk_max_in_flight_requests == 10
    assert c.inter_broker_protocol_version is KAFKA_2_8_IV1
    assert c.log_message_format_version is KAFKA_2_8_IV1
    assert c.inter_broker_security_protocol is SecurityProtocol.PLAINTEXT
    assert c.inter_broker_listener_name == PLAINTEXT
    assert c.authorizer_class_name == ""
    assert c.rack is None
    assert c.unstable_api_versions_enabled is False
    assert c.get_num_replica_alter_log_dirs_threads() == 1


def test_defaults_object_matches_definitions() -> None:
    """The ConfigDef's defaults come from Defaults."""
    defaults = KafkaConfig.default_values()
    assert defaults["log.segment.bytes"] == Defaults.LOG_SEGMENT_BYTES
    assert defaults["listener.security.protocol.map"] == (
        "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL"
    )
    assert defaults["inter.broker.protocol.version"] == "2.8-IV1"
    assert "zookeeper.connect" in KafkaConfig.config_names()
    assert KafkaConfig.config_type("ssl.key.password") is Type.PASSWORD
    assert KafkaConfig.maybe_sensitive(KafkaConfig.config_type("ssl.key.password"))
    assert not KafkaConfig.maybe_sensitive(KafkaConfig.config_type("num.io.threads"))


def test_config_type_and_loggable_value() -> None:
    """Types resolve for listener-prefixed names too; secrets and unknown names log as [hidden]."""
    assert KafkaConfig.config_type("listener.name.ssl.ssl.keystore.password") is Type.PASSWORD
    assert KafkaConfig.config_type("listener.name.sasl_ssl.plain.sasl.jaas.config") is Type.PASSWORD
    assert KafkaConfig.config_type("leader.replication.throttled.rate") is Type.LONG
    assert KafkaConfig.config_type("unknown.config") is None
    broker, topic = ConfigResource.Type.BROKER, ConfigResource.Type.TOPIC
    assert KafkaConfig.loggable_value(broker, "num.io.threads", "4") == "4"
    assert KafkaConfig.loggable_value(broker, "ssl.key.password", "s") == "[hidden]"
    assert KafkaConfig.loggable_value(broker, "unknown.config", "x") == "[hidden]"
    assert KafkaConfig.loggable_value(topic, "retention.ms", "5") == "5"
    assert KafkaConfig.loggable_value(topic, "unknown.config", "x") == "[hidden]"
    assert KafkaConfig.loggable_value(ConfigResource.Type.BROKER_LOGGER, "kafka.server", "DEBUG") == "DEBUG"
    assert KafkaConfig.loggable_value(ConfigResource.Type.UNKNOWN, "x", "y") == "[hidden]"


# ---- derived values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"log.retention.hours": "1"}, 60 * 60 * 1000),
        ({"log.retention.minutes": "30"}, 30 * 60 * 1000),
        ({"log.retention.ms": "1800000"}, 1800000),
        ({"log.retention.minutes": "30", "log.retention.hours": "1"}, 30 * 60 * 1000),
        ({"log.retention.ms": "1800000", "log.retention.minutes": "10"}, 1800000),
        ({"log.retention.ms": "-1"}, -1),
        ({"log.retention.minutes": "-1"}, -1),
        ({"log.retention.hours": "-1"}, -1),
        ({"log.retention.ms": "-1", "log.retention.minutes": "30"}, -1),
        ({"log.retention.ms": "-5"}, -1),
    ],
)
def test_log_retention_precedence(extra: dict[str, str], expected: int) -> None:
    """log.retention.ms beats minutes beats hours; any negative result means unlimited (-1)."""
    props = _props()
    props.update(extra)
    assert _config(props).log_retention_time_millis == expected


@pytest.mark.parametrize("key", ["log.retention.ms", "log.retention.minutes", "log.retention.hours"])
def test_log_retention_zero_is_invalid(key: str) -> None:
    """A retention of zero is neither unlimited nor at least 1 ms, so it is refused."""
    props = _props()
    props[key] = "0"
    with pytest.raises(ConfigException, match=re.escape("log.retention.ms must be unlimited")):
        _config(props)


def test_log_roll_precedence() -> None:
    """log.roll.ms beats log.roll.hours; jitter likewise."""
    assert _config(_props(**{"log.roll.hours": "2"})).log_roll_time_millis == 2 * 3600 * 1000
    both = _props()
    both.update({"log.roll.ms": "1800000", "log.roll.hours": "1", "log.roll.jitter.hours": "1"})
    c = _config(both)
    assert c.log_roll_time_millis == 1800000
    assert c.log_roll_time_jitter_millis == 3600 * 1000
    both["log.roll.jitter.ms"] = "7"
    assert _config(both).log_roll_time_jitter_millis == 7


def test_zk_connection_timeout_defaults_to_session_timeout() -> None:
    """Without zookeeper.connection.timeout.ms the session timeout is used."""
    props = _props()
    props["zookeeper.session.timeout.ms"] = "9000"
    assert _config(props).zk_connection_timeout_ms == 9000
    props["zookeeper.connection.timeout.ms"] = "1234"
    assert _config(props).zk_connection_timeout_ms == 1234


def test_log_dirs_prefers_log_dirs_over_log_dir() -> None:
    """log.dirs (comma separated) wins over log.dir."""
    props = _props()
    props["log.dir"] = "/a"
    assert _config(props).log_dirs == ["/a"]
    props["log.dirs"] = "/b, /c"
    c = _config(props)
    assert c.log_dirs == ["/b", "/c"]
    assert c.get_num_replica_alter_log_dirs_threads() == 2


def test_log_flush_interval_falls_back_to_scheduler_interval() -> None:
    """log.flush.interval.ms defaults to log.flush.scheduler.interval.ms."""
    props = _props()
    props["log.flush.scheduler.interval.ms"] = "2000"
    assert _config(props).log_flush_interval_ms == 2000


def test_version_configuration() -> None:
    """Protocol versions resolve short names and ignore trailing patch levels."""
    props = _props()
    props["inter.broker.protocol.version"] = "0.8.2.0"
    props["log.message.format.version"] = "0.8.2.0"
    assert _config(props).inter_broker_protocol_version is KAFKA_0_8_2
    props["inter.broker.protocol.version"] = "0.8.2.1"
    props["log.message.format.version"] = "0.8.2.1"
    c = _config(props)
    assert c.inter_broker_protocol_version is KAFKA_0_8_2
    assert c.log_message_format_version_string == "0.8.2.1"
    assert ApiVersion.latest_version > c.inter_broker_protocol_version
    assert ApiVersion.apply("0.10.0") is KAFKA_0_10_0_IV1
    assert ApiVersion.apply("2.8").record_version is RecordVersion.V2


def test_message_format_newer_than_inter_broker_protocol_is_rejected() -> None:
    """log.message.format.version may not need a newer record format than the inter-broker protocol."""
    props = _props()
    props["inter.broker.protocol.version"] = "0.10.0"
    props["log.message.format.version"] = "0.11.0"
    with pytest.raises(ConfigException, match=re.escape("set to version 0.11.0 or higher")):
        _config(props)
    props["log.message.format.version"] = "0.10.0"
    assert _config(props).log_message_format_version.version == "0.10.0-IV1"


def test_invalid_version_names_key_and_value() -> None:
    """An unknown version names the key and the value."""
    props = _props()
    props["inter.broker.protocol.version"] = "9.9"
    with pytest.raises(ConfigException) as e:
        _config(props)
    assert str(e.value) == (
        "Invalid value 9.9 for configuration inter.broker.protocol.version: Version `9.9` is not a valid version"
    )


# ---- listeners ----------------------------------------------------------------------------------


def test_listener_defaults_to_host_name_and_port() -> None:
    """Without listeners, PLAINTEXT on host.name:port is used and advertised."""
    c = _config({"zookeeper.connect": "zk", "port": "9999", "host.name": "myhost"})
    assert c.listeners == [EndPoint("myhost", 9999, PLAINTEXT, SecurityProtocol.PLAINTEXT)]
    assert c.advertised_listeners == c.listeners


def test_advertised_listeners_default_to_listeners() -> None:
    """advertised.listeners falls back to listeners."""
    c = _config(_props())
    assert c.advertised_listeners == [EndPoint(None, 8181, PLAINTEXT, SecurityProtocol.PLAINTEXT)]


def test_advertised_host_and_port_build_an_advertised_listener() -> None:
    """advertised.host.name / advertised.port give a PLAINTEXT advertised listener."""
    props = _props()
    props["advertised.host.name"] = "routable"
    c = _config(props)
    assert c.advertised_listeners == [EndPoint("routable", 9092, PLAINTEXT, SecurityProtocol.PLAINTEXT)]
    props["advertised.port"] = "1234"
    assert _config(props).advertised_listeners[0].port == 1234


def test_advertised_listeners_configured() -> None:
    """advertised.listeners may differ in host and port from listeners."""
    props = _props()
    props["advertised.listeners"] = "PLAINTEXT://routable:1234"
    c = _config(props)
    assert c.advertised_listeners == [EndPoint("routable", 1234, PLAINTEXT, SecurityProtocol.PLAINTEXT)]
    assert c.listeners[0].port == 8181


def test_custom_listener_names_with_protocol_map() -> None:
    """Named listeners resolve through listener.security.protocol.map, case-insensitively."""
    props = _props()
    props.update(
        {
            "listeners": "client://:9092,replication://:9093",
            "listener.security.protocol.map": "CLIENT:SSL,replication:PLAINTEXT",
            "inter.broker.listener.name": "REPLICATION",
        }
    )
    c = _config(props)
    assert [(e.listener_name.value, e.security_protocol) for e in c.listeners] == [
        ("CLIENT", SecurityProtocol.SSL),
        ("REPLICATION", SecurityProtocol.PLAINTEXT),
    ]
    assert c.inter_broker_listener_name == ListenerName("REPLICATION")
    assert c.inter_broker_security_protocol is SecurityProtocol.PLAINTEXT


def test_listener_names_and_protocols_are_case_insensitive() -> None:
    """Listener names and protocol names may be written in any case."""
    props = _props()
    props["listeners"] = "plaintext://localhost:9091,SsL://localhost:9092"
    props["listener.security.protocol.map"] = "plaintext:plaintext,ssl:Ssl"
    c = _config(props)
    assert [e.connection_string for e in c.listeners] == ["PLAINTEXT://localhost:9091", "SSL://localhost:9092"]
    assert c.listeners[1].security_protocol is SecurityProtocol.SSL


def test_listener_without_protocol_names_key_and_value() -> None:
    """A listener whose name has no protocol fails, naming the key and the value."""
    props = _props()
    props["listeners"] = "BOGUS://:9092"
    with pytest.raises(ConfigException) as e:
        _config(props)
    assert str(e.value).startswith("Invalid value BOGUS://:9092 for configuration listeners: ")
    assert "No security protocol defined for listener BOGUS" in str(e.value)


def test_duplicate_listeners_rejected() -> None:
    """Two listeners with one name, or one port, are refused."""
    _assert_invalid("listeners", "PLAINTEXT://a:9092,PLAINTEXT://b:9093", "PLAINTEXT://a:9092,SSL://b:9092")


def test_advertised_listener_must_be_a_listener() -> None:
    """advertised.listeners names must be a subset of listeners."""
    props = _props()
    props["advertised.listeners"] = "PLAINTEXT://a:1,SSL://a:2"
    with pytest.raises(ConfigException, match=re.escape("must be equal to or a subset")):
        _config(props)


def test_inter_broker_listener_must_be_advertised() -> None:
    """The inter-broker listener must be among the advertised listeners."""
    props = _props()
    props["security.inter.broker.protocol"] = "SSL"
    with pytest.raises(ConfigException, match=re.escape("inter.broker.listener.name must be a listener name defined")):
        _config(props)


def test_inter_broker_listener_name_and_protocol_are_exclusive() -> None:
    """Setting both inter.broker.listener.name and security.inter.broker.protocol is an error."""
    props = _props()
    props["inter.broker.listener.name"] = "PLAINTEXT"
    props["security.inter.broker.protocol"] = "PLAINTEXT"
    with pytest.raises(ConfigException, match=re.escape("Only one of inter.broker.listener.name and")):
        _config(props)


def test_invalid_inter_broker_security_protocol() -> None:
    """An unknown security.inter.broker.protocol is named in the error."""
    props = _props()
    props["security.inter.broker.protocol"] = "abc"
    with pytest.raises(
        ConfigException, match=re.escape("Invalid security protocol `abc` defined in security.inter.broker")
    ):
        _config(props)


def test_nonroutable_advertised_listener_rejected() -> None:
    """0.0.0.0 cannot be advertised."""
    props = _props()
    props["listeners"] = "PLAINTEXT://0.0.0.0:9092"
    with pytest.raises(ConfigException, match=re.escape("nonroutable meta-address 0.0.0.0")):
        _config(props)


def test_control_plane_listener() -> None:
    """control.plane.listener.name picks a listener that is then not a data-plane listener."""
    props = _props()
    props.update(
        {
            "listeners": "PLAINTEXT://localhost:0,CONTROLLER://localhost:5000",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL",
            "control.plane.listener.name": "CONTROLLER",
        }
    )
    c = _config(props)
    assert c.control_plane_listener_name == ListenerName("CONTROLLER")
    assert c.control_plane_security_protocol is SecurityProtocol.SSL
    cp = c.control_plane_listener
    assert cp is not None and cp.port == 5000
    assert [e.listener_name.value for e in c.data_plane_listeners] == ["PLAINTEXT"]
    props["control.plane.listener.name"] = "PLAINTEXT"
    with pytest.raises(
        ConfigException, match=re.escape("should have a different value from the inter broker listener")
    ):
        _config(props)


# ---- validation ---------------------------------------------------------------------------------


def test_zookeeper_connect_is_required() -> None:
    """A ZooKeeper-mode broker needs zookeeper.connect."""
    with pytest.raises(ConfigException, match=re.escape("Missing required configuration `zookeeper.connect`")):
        _config({"broker.id": "1"})


def test_broker_id_bounds() -> None:
    """broker.id must be in [-1, reserved.broker.max.id] with generation, >= 0 without."""
    assert _config(_props(**{"broker.id": "-1"})).broker_id == -1
    _assert_invalid("broker.id", "-2", "1001", "not_a_number")
    props = _props()
    props.update({"broker.id.generation.enable": "false", "broker.id": "5000"})
    assert _config(props).broker_id == 5000
    props["broker.id"] = "-1"
    with pytest.raises(ConfigException, match=re.escape("broker.id must be greater than or equal to 0")):
        _config(props)
    props = _props()
    props["reserved.broker.max.id"] = "-1"
    with pytest.raises(ConfigException, match=re.escape("Value must be at least 0")):
        _config(props)


def test_kraft_process_roles_rejected() -> None:
    """process.roles is parsed as Kafka does but a KRaft node is refused by this port."""
    _assert_invalid("process.roles", "broker", "observer", "broker,broker")


def test_compression_type() -> None:
    """compression.type accepts Kafka's broker codecs in any case and rejects others."""
    assert _config(_props(**{"compression.type": "GZIP"})).compression_type == "GZIP"
    props = _props()
    props["compression.type"] = "abc"
    with pytest.raises(ConfigException, match=re.escape("compression.type : abc is not valid")):
        _config(props)


def test_unclean_leader_election() -> None:
    """unclean.leader.election.enable parses booleans and rejects others."""
    assert _config(_props(**{"unclean.leader.election.enable": "true"})).unclean_leader_election_enable is True
    _assert_invalid("unclean.leader.election.enable", "invalid")


def test_cross_checks() -> None:
    """Kafka's cross-key checks: fetch wait vs timeouts, commit acks, queued bytes, auth delay, cleaner buffer."""
    _assert_invalid("replica.fetch.wait.max.ms", "40000")
    _assert_invalid("offsets.commit.required.acks", "4", "-2")
    _assert_invalid("queued.max.request.bytes", "10")
    _assert_invalid("connection.failed.authentication.delay.ms", "700000", "-1")
    _assert_invalid("log.cleaner.dedupe.buffer.size", "1024")
    _assert_invalid("log.cleaner.threads", "0")
    _assert_invalid("offsets.topic.compression.codec", "9")
    zstd_old = _props()
    zstd_old.update(
        {
            "offsets.topic.compression.codec": "4",
            "inter.broker.protocol.version": "0.10.2",
            "log.message.format.version": "0.10.2",
        }
    )
    with pytest.raises(ConfigException, match=re.escape("offsets.topic.compression.codec zstd can only be used")):
        _config(zstd_old)
    zstd = _props(**{"offsets.topic.compression.codec": "4"})
    assert _config(zstd).offsets_topic_compression_codec is CompressionType.ZSTD


def test_max_connections_per_ip() -> None:
    """max.connections.per.ip of 0 needs overrides; overrides must be host:int with valid hosts."""
    props = _props()
    props["max.connections.per.ip"] = "0"
    with pytest.raises(ConfigException, match=re.escape("can be set to zero only if")):
        _config(props)
    props["max.connections.per.ip.overrides"] = "127.0.0.1:100, hostName:5"
    assert _config(props).max_connections_per_ip_overrides == {"127.0.0.1": 100, "hostName": 5}
    _assert_invalid("max.connections.per.ip.overrides", "127.0.0.1:not_a_number", "bad#host:3")


@pytest.mark.parametrize(
    ("key", "values"),
    [
        ("zookeeper.session.timeout.ms", ("not_a_number",)),
        ("zookeeper.set.acl", ("not_a_boolean",)),
        ("zookeeper.max.in.flight.requests", ("not_a_number", "0")),
        ("num.network.threads", ("not_a_number", "0")),
        ("num.io.threads", ("not_a_number", "0")),
        ("background.threads", ("not_a_number", "0")),
        ("queued.max.requests", ("not_a_number", "0")),
        ("port", ("not_a_number",)),
        ("socket.request.max.bytes", ("not_a_number", "0")),
        ("num.partitions", ("not_a_number", "0")),
        ("log.segment.bytes", ("not_a_number", "13")),
        ("log.roll.ms", ("not_a_number", "0")),
        ("log.roll.hours", ("not_a_number", "0")),
        ("log.retention.check.interval.ms", ("not_a_number", "0")),
        ("log.cleanup.policy", ("unknown_policy",)),
        ("log.index.size.max.bytes", ("not_a_number", "3")),
        ("log.flush.interval.messages", ("not_a_number", "0")),
        ("num.recovery.threads.per.data.dir", ("not_a_number", "0")),
        ("min.insync.replicas", ("not_a_number", "0")),
        ("log.message.timestamp.type", ("Whatever",)),
        ("auto.create.topics.enable", ("not_a_boolean",)),
        ("offsets.topic.replication.factor", ("not_a_number", "0", "40000")),
        ("offsets.topic.num.partitions", ("not_a_number", "0")),
        ("offsets.retention.minutes", ("not_a_number", "0")),
        ("transaction.state.log.min.isr", ("not_a_number", "0")),
        ("transactional.id.expiration.ms", ("not_a_number", "0")),
        ("fetch.max.bytes", ("not_a_number", "1023")),
        ("group.max.size", ("not_a_number", "0")),
        ("quota.window.num", ("not_a_number", "0")),
        ("metrics.num.samples", ("not_a_number", "0")),
        ("password.encoder.key.length", ("not_a_number", "7")),
        ("password.encoder.iterations", ("not_a_number", "1023")),
        ("delegation.token.max.lifetime.ms", ("not_a_number", "0")),
        ("ssl.client.auth", ("maybe",)),
        ("max.incremental.fetch.session.cache.slots", ("not_a_number", "-1")),
    ],
)
def test_invalid_values_rejected(key: str, values: tuple[str, ...]) -> None:
    """Each malformed or out-of-range value is refused with a ConfigException."""
    _assert_invalid(key, *values)


def test_invalid_value_message_names_key_and_value() -> None:
    """The error for a malformed value names both the key and the value."""
    props = _props()
    props["num.io.threads"] = "lots"
    with pytest.raises(ConfigException) as e:
        _config(props)
    assert str(e.value) == "Invalid value lots for configuration num.io.threads: Not a number of type INT"


# ---- SASL inter-broker --------------------------------------------------------------------------


def test_sasl_inter_broker_mechanism_must_be_enabled() -> None:
    """With SASL between brokers, the inter-broker mechanism must be enabled on that listener."""
    props = _props()
    props.update(
        {
            "listeners": "SASL_PLAINTEXT://:9092",
            "security.inter.broker.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism.inter.broker.protocol": "PLAIN",
        }
    )
    with pytest.raises(ConfigException, match=re.escape("must be included in sasl.enabled.mechanisms")):
        _config(props)
    props["listener.name.sasl_plaintext.sasl.enabled.mechanisms"] = "PLAIN"
    assert _config(props).inter_broker_security_protocol is SecurityProtocol.SASL_PLAINTEXT
    assert _config(props).sasl_inter_broker_handshake_request_enable is True


def test_delegation_token_secret_alias() -> None:
    """delegation.token.master.key is the fallback for delegation.token.secret.key."""
    props = _props()
    props["delegation.token.master.key"] = "m"
    c = _config(props)
    assert c.delegation_token_secret_key == Password("m")
    assert c.token_auth_enabled is True
    props["delegation.token.secret.key"] = "s"
    assert _config(props).delegation_token_secret_key == Password("s")
    assert _config(_props()).token_auth_enabled is False


# ---- unused keys, logging, files ------------------------------------------------------------------


def test_unknown_keys_reported_unused(caplog: pytest.LogCaptureFixture) -> None:
    """Keys no definition knows stay unused and are warned about on kafka.server.KafkaConfig."""
    props = _props()
    props["not.a.kafka.config"] = "1"
    c = _config(props)
    assert c.unused() == {"not.a.kafka.config"}
    with caplog.at_level(logging.WARNING, logger="kafka.server.KafkaConfig"):
        c.log_unused()
    assert [r.getMessage() for r in caplog.records if r.name == "kafka.server.KafkaConfig"] == [
        "The configuration 'not.a.kafka.config' was supplied but isn't a known config."
    ]


def test_values_are_logged_at_construction(caplog: pytest.LogCaptureFixture) -> None:
    """Building with do_log logs 'KafkaConfig values:' with secrets hidden."""
    props = _props()
    props["ssl.key.password"] = "topsecret"
    with caplog.at_level(logging.INFO, logger="kafka.server.KafkaConfig"):
        KafkaConfig(props)
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "kafka.server.KafkaConfig")
    assert text.startswith("KafkaConfig values: \n")
    assert "\tbroker.id = 0\n" in text
    assert "\tssl.key.password = [hidden]\n" in text
    assert "topsecret" not in text


def test_typed_values_accepted() -> None:
    """Props may carry typed values (ints, bools, lists) as well as strings."""
    c = _config({"zookeeper.connect": "zk", "broker.id": 3, "auto.create.topics.enable": False, "num.partitions": 4})
    assert (c.broker_id, c.auto_create_topics_enable, c.num_partitions) == (3, False, 4)


def test_from_props_overrides() -> None:
    """from_props lays overrides over the base props."""
    c = KafkaConfig.from_props(_props(), {"broker.id": "7"}, do_log=False)
    assert c.broker_id == 7


def test_current_config_routes_on_demand_values() -> None:
    """After update_current_config, on-demand values (Scala defs) read from the new config."""
    old = _config(_props())
    new = _config(_props(**{"num.io.threads": "3"}))
    old.update_current_config(new)
    assert old.num_io_threads == 3
    assert old.current_config is new


def test_server_properties_file_loads() -> None:
    """The shipped config/server.properties builds a valid KafkaConfig with its values."""
    props = load_props(os.path.join(REPO_ROOT, "config", "server.properties"))
    c = _config(props)
    assert c.broker_id == 0
    assert c.listeners == [EndPoint("localhost", 9092, PLAINTEXT, SecurityProtocol.PLAINTEXT)]
    assert c.num_network_threads == 3
    assert c.num_io_threads == 8
    assert c.log_dirs == ["/tmp/kafka-logs"]
    assert c.log_retention_time_millis == 168 * 3600 * 1000
    assert c.offsets_topic_replication_factor == 1
    assert c.transaction_topic_min_isr == 1
    assert c.zk_connect == "localhost:2181"
    assert c.zk_connection_timeout_ms == 18000
    assert c.group_initial_rebalance_delay == 0
    assert c.unused() == set()
