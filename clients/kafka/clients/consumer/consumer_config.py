"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerConfig.java (Kafka 3.7).

The consumer's configuration: Java's key names, types, defaults and validators, and Java's
post-processing (client.id "consumer-{group.id}-{N}" or "consumer-{group.id}-{group.instance.id}",
enable.auto.commit off without a group, reconnect backoff).

The ssl.* keys are Java's withClientSslSupport (kafka.common.config.ssl_configs).

# PORT: Metrics keys are defined so that Java configurations
parse, but nothing reads them. group.protocol=consumer (KIP-848) is accepted by the parser, as in Java, and
refused by KafkaConsumer.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping
from typing import Any

from kafka.clients import common_client_configs as ccc
from kafka.clients.consumer.cooperative_sticky_assignor import CooperativeStickyAssignor
from kafka.clients.consumer.range_assignor import RangeAssignor
from kafka.clients.consumer.round_robin_assignor import RoundRobinAssignor
from kafka.clients.consumer.sticky_assignor import StickyAssignor
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import (
    CaseInsensitiveValidString,
    ConfigDef,
    Importance,
    NonEmptyString,
    NonNullValidator,
    Range,
    Type,
    ValidString,
)
from kafka.common.config.config_exception import ConfigException
from kafka.common.config.sasl_configs import add_client_sasl_support
from kafka.common.config.ssl_configs import add_client_ssl_support
from kafka.common.errors import InvalidConfigurationException
from kafka.common.requests.join_group_request import JoinGroupRequest
from kafka.common.security.auth.security_protocol import SecurityProtocol

__all__ = ["ConsumerConfig"]

_client_id_sequence = itertools.count(1)
_client_id_lock = threading.Lock()


def _next_client_id_number() -> int:
    with _client_id_lock:
        return next(_client_id_sequence)


class ConsumerConfig(AbstractConfig):
    """Parsed and validated consumer settings."""

    kafka_logger_name = "org.apache.kafka.clients.consumer.ConsumerConfig"

    # Assignors that assign only subscribed topics (which spares the leader a check after assigning).
    ASSIGN_FROM_SUBSCRIBED_ASSIGNORS = (
        RangeAssignor.RANGE_ASSIGNOR_NAME,
        RoundRobinAssignor.ROUNDROBIN_ASSIGNOR_NAME,
        StickyAssignor.STICKY_ASSIGNOR_NAME,
        CooperativeStickyAssignor.COOPERATIVE_STICKY_ASSIGNOR_NAME,
    )

    GROUP_ID_CONFIG = ccc.GROUP_ID_CONFIG
    GROUP_INSTANCE_ID_CONFIG = ccc.GROUP_INSTANCE_ID_CONFIG
    MAX_POLL_RECORDS_CONFIG = "max.poll.records"
    DEFAULT_MAX_POLL_RECORDS = 500
    MAX_POLL_INTERVAL_MS_CONFIG = ccc.MAX_POLL_INTERVAL_MS_CONFIG
    SESSION_TIMEOUT_MS_CONFIG = ccc.SESSION_TIMEOUT_MS_CONFIG
    HEARTBEAT_INTERVAL_MS_CONFIG = ccc.HEARTBEAT_INTERVAL_MS_CONFIG
    GROUP_PROTOCOL_CONFIG = "group.protocol"
    DEFAULT_GROUP_PROTOCOL = "classic"
    GROUP_REMOTE_ASSIGNOR_CONFIG = "group.remote.assignor"
    BOOTSTRAP_SERVERS_CONFIG = ccc.BOOTSTRAP_SERVERS_CONFIG
    CLIENT_DNS_LOOKUP_CONFIG = ccc.CLIENT_DNS_LOOKUP_CONFIG
    ENABLE_AUTO_COMMIT_CONFIG = "enable.auto.commit"
    AUTO_COMMIT_INTERVAL_MS_CONFIG = "auto.commit.interval.ms"
    PARTITION_ASSIGNMENT_STRATEGY_CONFIG = "partition.assignment.strategy"
    AUTO_OFFSET_RESET_CONFIG = "auto.offset.reset"
    FETCH_MIN_BYTES_CONFIG = "fetch.min.bytes"
    DEFAULT_FETCH_MIN_BYTES = 1
    FETCH_MAX_BYTES_CONFIG = "fetch.max.bytes"
    DEFAULT_FETCH_MAX_BYTES = 50 * 1024 * 1024
    FETCH_MAX_WAIT_MS_CONFIG = "fetch.max.wait.ms"
    DEFAULT_FETCH_MAX_WAIT_MS = 500
    METADATA_MAX_AGE_CONFIG = ccc.METADATA_MAX_AGE_CONFIG
    MAX_PARTITION_FETCH_BYTES_CONFIG = "max.partition.fetch.bytes"
    DEFAULT_MAX_PARTITION_FETCH_BYTES = 1 * 1024 * 1024
    SEND_BUFFER_CONFIG = ccc.SEND_BUFFER_CONFIG
    RECEIVE_BUFFER_CONFIG = ccc.RECEIVE_BUFFER_CONFIG
    CLIENT_ID_CONFIG = ccc.CLIENT_ID_CONFIG
    CLIENT_RACK_CONFIG = ccc.CLIENT_RACK_CONFIG
    DEFAULT_CLIENT_RACK = ccc.DEFAULT_CLIENT_RACK
    RECONNECT_BACKOFF_MS_CONFIG = ccc.RECONNECT_BACKOFF_MS_CONFIG
    RECONNECT_BACKOFF_MAX_MS_CONFIG = ccc.RECONNECT_BACKOFF_MAX_MS_CONFIG
    RETRY_BACKOFF_MS_CONFIG = ccc.RETRY_BACKOFF_MS_CONFIG
    ENABLE_METRICS_PUSH_CONFIG = ccc.ENABLE_METRICS_PUSH_CONFIG
    RETRY_BACKOFF_MAX_MS_CONFIG = ccc.RETRY_BACKOFF_MAX_MS_CONFIG
    METRICS_SAMPLE_WINDOW_MS_CONFIG = ccc.METRICS_SAMPLE_WINDOW_MS_CONFIG
    METRICS_NUM_SAMPLES_CONFIG = ccc.METRICS_NUM_SAMPLES_CONFIG
    METRICS_RECORDING_LEVEL_CONFIG = ccc.METRICS_RECORDING_LEVEL_CONFIG
    METRIC_REPORTER_CLASSES_CONFIG = ccc.METRIC_REPORTER_CLASSES_CONFIG
    AUTO_INCLUDE_JMX_REPORTER_CONFIG = ccc.AUTO_INCLUDE_JMX_REPORTER_CONFIG
    CHECK_CRCS_CONFIG = "check.crcs"
    KEY_DESERIALIZER_CLASS_CONFIG = "key.deserializer"
    VALUE_DESERIALIZER_CLASS_CONFIG = "value.deserializer"
    SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG = ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG
    SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG = ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG
    CONNECTIONS_MAX_IDLE_MS_CONFIG = ccc.CONNECTIONS_MAX_IDLE_MS_CONFIG
    REQUEST_TIMEOUT_MS_CONFIG = ccc.REQUEST_TIMEOUT_MS_CONFIG
    DEFAULT_API_TIMEOUT_MS_CONFIG = ccc.DEFAULT_API_TIMEOUT_MS_CONFIG
    INTERCEPTOR_CLASSES_CONFIG = "interceptor.classes"
    EXCLUDE_INTERNAL_TOPICS_CONFIG = "exclude.internal.topics"
    DEFAULT_EXCLUDE_INTERNAL_TOPICS = True
    LEAVE_GROUP_ON_CLOSE_CONFIG = "internal.leave.group.on.close"
    THROW_ON_FETCH_STABLE_OFFSET_UNSUPPORTED = "internal.throw.on.fetch.stable.offset.unsupported"
    ISOLATION_LEVEL_CONFIG = "isolation.level"
    DEFAULT_ISOLATION_LEVEL = "read_uncommitted"
    ALLOW_AUTO_CREATE_TOPICS_CONFIG = "allow.auto.create.topics"
    DEFAULT_ALLOW_AUTO_CREATE_TOPICS = True
    SECURITY_PROVIDERS_CONFIG = "security.providers"
    SECURITY_PROTOCOL_CONFIG = ccc.SECURITY_PROTOCOL_CONFIG

    CONFIG: ConfigDef

    def __init__(self, props: Mapping[Any, Any], do_log: bool = True) -> None:
        super().__init__(ConsumerConfig.CONFIG, props, do_log)

    def post_process_parsed_config(self, parsed_values: dict[str, Any]) -> dict[str, Any]:
        ccc.validate_security_protocol(self.get_string(ccc.SECURITY_PROTOCOL_CONFIG))
        ccc.warn_disabling_exponential_backoff(self)
        refined_configs = ccc.post_process_reconnect_backoff_configs(self, parsed_values)
        self._maybe_override_client_id(refined_configs)
        self._maybe_override_enable_auto_commit(refined_configs)
        return refined_configs

    def _maybe_override_client_id(self, configs: dict[str, Any]) -> None:
        client_id = self.get_string(self.CLIENT_ID_CONFIG)
        if not client_id:
            group_id = self.get_string(self.GROUP_ID_CONFIG)
            group_instance_id = self.get_string(self.GROUP_INSTANCE_ID_CONFIG)
            if group_instance_id is not None:
                JoinGroupRequest.validate_group_instance_id(group_instance_id)
            part = group_instance_id if group_instance_id is not None else str(_next_client_id_number())
            configs[self.CLIENT_ID_CONFIG] = f"consumer-{'null' if group_id is None else group_id}-{part}"

    def _maybe_override_enable_auto_commit(self, configs: dict[str, Any]) -> None:
        group_id = self.get_string(self.GROUP_ID_CONFIG)
        originals = self.originals()
        enable_auto_commit = (
            self.get_boolean(self.ENABLE_AUTO_COMMIT_CONFIG) if self.ENABLE_AUTO_COMMIT_CONFIG in originals else False
        )
        if group_id is None:
            # Without a group there is nothing to commit to: off, unless explicitly (and wrongly) asked for.
            if self.ENABLE_AUTO_COMMIT_CONFIG not in originals:
                configs[self.ENABLE_AUTO_COMMIT_CONFIG] = False
            elif enable_auto_commit:
                raise InvalidConfigurationException(
                    f"{self.ENABLE_AUTO_COMMIT_CONFIG} cannot be set to true when default group id (null) is used."
                )

    @staticmethod
    def append_deserializer_to_config(
        configs: Mapping[str, Any], key_deserializer: Any, value_deserializer: Any
    ) -> dict[str, Any]:
        """The configs with the classes of deserializer instances given to the constructor filled in; without
        an instance, the config must name a class."""
        new_configs = dict(configs)
        if key_deserializer is not None:
            new_configs[ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG] = type(key_deserializer)
        elif new_configs.get(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG) is None:
            raise ConfigException(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, None, "must be non-null.")
        if value_deserializer is not None:
            new_configs[ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG] = type(value_deserializer)
        elif new_configs.get(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG) is None:
            raise ConfigException(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, None, "must be non-null.")
        return new_configs

    @staticmethod
    def config_names() -> set[str]:
        return ConsumerConfig.CONFIG.names()

    @staticmethod
    def config_def() -> ConfigDef:
        return ConfigDef(ConsumerConfig.CONFIG)


def _config_def() -> ConfigDef:
    H, M, L = Importance.HIGH, Importance.MEDIUM, Importance.LOW
    cc = ConsumerConfig
    return (
        ConfigDef()
        .define(cc.BOOTSTRAP_SERVERS_CONFIG, Type.LIST, [], NonNullValidator(), H, ccc.BOOTSTRAP_SERVERS_DOC)
        .define(
            cc.CLIENT_DNS_LOOKUP_CONFIG,
            Type.STRING,
            "use_all_dns_ips",
            ValidString.in_("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"),
            M,
            ccc.CLIENT_DNS_LOOKUP_DOC,
        )
        .define(cc.GROUP_ID_CONFIG, Type.STRING, None, None, H, ccc.GROUP_ID_DOC)
        .define(cc.GROUP_INSTANCE_ID_CONFIG, Type.STRING, None, NonEmptyString(), M, ccc.GROUP_INSTANCE_ID_DOC)
        .define(cc.SESSION_TIMEOUT_MS_CONFIG, Type.INT, 45000, None, H, ccc.SESSION_TIMEOUT_MS_DOC)
        .define(cc.HEARTBEAT_INTERVAL_MS_CONFIG, Type.INT, 3000, None, H, ccc.HEARTBEAT_INTERVAL_MS_DOC)
        .define(
            cc.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
            Type.LIST,
            [RangeAssignor, CooperativeStickyAssignor],
            NonNullValidator(),
            M,
            "Assignor classes, in order of preference, that the group leader may use to divide partitions among "
            "members; all members must share one. Kafka's Java class names are accepted.",
        )
        .define(cc.METADATA_MAX_AGE_CONFIG, Type.LONG, 5 * 60 * 1000, Range.at_least(0), L, ccc.METADATA_MAX_AGE_DOC)
        .define(
            cc.ENABLE_AUTO_COMMIT_CONFIG,
            Type.BOOLEAN,
            True,
            None,
            M,
            "When true, the positions are committed in the background every auto.commit.interval.ms.",
        )
        .define(
            cc.AUTO_COMMIT_INTERVAL_MS_CONFIG,
            Type.INT,
            5000,
            Range.at_least(0),
            L,
            "How often positions are committed when enable.auto.commit is true.",
        )
        .define(cc.CLIENT_ID_CONFIG, Type.STRING, "", None, L, ccc.CLIENT_ID_DOC)
        .define(cc.CLIENT_RACK_CONFIG, Type.STRING, ccc.DEFAULT_CLIENT_RACK, None, L, ccc.CLIENT_RACK_DOC)
        .define(
            cc.MAX_PARTITION_FETCH_BYTES_CONFIG,
            Type.INT,
            cc.DEFAULT_MAX_PARTITION_FETCH_BYTES,
            Range.at_least(0),
            H,
            "The most data a fetch returns per partition (at least one batch, so progress is always possible).",
        )
        .define(
            cc.SEND_BUFFER_CONFIG,
            Type.INT,
            128 * 1024,
            Range.at_least(ccc.SEND_BUFFER_LOWER_BOUND),
            M,
            ccc.SEND_BUFFER_DOC,
        )
        .define(
            cc.RECEIVE_BUFFER_CONFIG,
            Type.INT,
            64 * 1024,
            Range.at_least(ccc.RECEIVE_BUFFER_LOWER_BOUND),
            M,
            ccc.RECEIVE_BUFFER_DOC,
        )
        .define(
            cc.FETCH_MIN_BYTES_CONFIG,
            Type.INT,
            cc.DEFAULT_FETCH_MIN_BYTES,
            Range.at_least(0),
            H,
            "The least data a broker should have to answer a fetch; it waits up to fetch.max.wait.ms for more.",
        )
        .define(
            cc.FETCH_MAX_BYTES_CONFIG,
            Type.INT,
            cc.DEFAULT_FETCH_MAX_BYTES,
            Range.at_least(0),
            M,
            "The most data a fetch response should hold (at least one batch, so progress is always possible).",
        )
        .define(
            cc.FETCH_MAX_WAIT_MS_CONFIG,
            Type.INT,
            cc.DEFAULT_FETCH_MAX_WAIT_MS,
            Range.at_least(0),
            L,
            "How long a broker may hold a fetch waiting for fetch.min.bytes of data.",
        )
        .define(cc.RECONNECT_BACKOFF_MS_CONFIG, Type.LONG, 50, Range.at_least(0), L, ccc.RECONNECT_BACKOFF_MS_DOC)
        .define(
            cc.RECONNECT_BACKOFF_MAX_MS_CONFIG, Type.LONG, 1000, Range.at_least(0), L, ccc.RECONNECT_BACKOFF_MAX_MS_DOC
        )
        .define(
            cc.RETRY_BACKOFF_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_RETRY_BACKOFF_MS,
            Range.at_least(0),
            L,
            ccc.RETRY_BACKOFF_MS_DOC,
        )
        .define(
            cc.RETRY_BACKOFF_MAX_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_RETRY_BACKOFF_MAX_MS,
            Range.at_least(0),
            L,
            ccc.RETRY_BACKOFF_MAX_MS_DOC,
        )
        .define(cc.ENABLE_METRICS_PUSH_CONFIG, Type.BOOLEAN, True, None, L, ccc.ENABLE_METRICS_PUSH_DOC)
        .define(
            cc.AUTO_OFFSET_RESET_CONFIG,
            Type.STRING,
            "latest",
            ValidString.in_("latest", "earliest", "none"),
            M,
            "Where to start in a partition without a committed offset (or whose offset no longer exists): the "
            "earliest offset, the latest, or none (raise an error).",
        )
        .define(
            cc.CHECK_CRCS_CONFIG,
            Type.BOOLEAN,
            True,
            None,
            L,
            "Whether the CRC of fetched record batches is checked.",
        )
        .define(
            cc.METRICS_SAMPLE_WINDOW_MS_CONFIG,
            Type.LONG,
            30000,
            Range.at_least(0),
            L,
            ccc.METRICS_SAMPLE_WINDOW_MS_DOC,
        )
        .define(cc.METRICS_NUM_SAMPLES_CONFIG, Type.INT, 2, Range.at_least(1), L, ccc.METRICS_NUM_SAMPLES_DOC)
        .define(
            cc.METRICS_RECORDING_LEVEL_CONFIG,
            Type.STRING,
            "INFO",
            ValidString.in_("INFO", "DEBUG", "TRACE"),
            L,
            ccc.METRICS_RECORDING_LEVEL_DOC,
        )
        .define(
            cc.METRIC_REPORTER_CLASSES_CONFIG, Type.LIST, [], NonNullValidator(), L, ccc.METRIC_REPORTER_CLASSES_DOC
        )
        .define(cc.AUTO_INCLUDE_JMX_REPORTER_CONFIG, Type.BOOLEAN, True, None, L, ccc.AUTO_INCLUDE_JMX_REPORTER_DOC)
        .define(
            cc.KEY_DESERIALIZER_CLASS_CONFIG,
            Type.CLASS,
            importance=H,
            documentation="Deserializer class of record keys (a kafka.common.serialization.Deserializer).",
        )
        .define(
            cc.VALUE_DESERIALIZER_CLASS_CONFIG,
            Type.CLASS,
            importance=H,
            documentation="Deserializer class of record values (a kafka.common.serialization.Deserializer).",
        )
        .define(cc.REQUEST_TIMEOUT_MS_CONFIG, Type.INT, 30000, Range.at_least(0), M, ccc.REQUEST_TIMEOUT_MS_DOC)
        .define(
            cc.DEFAULT_API_TIMEOUT_MS_CONFIG, Type.INT, 60 * 1000, Range.at_least(0), M, ccc.DEFAULT_API_TIMEOUT_MS_DOC
        )
        .define(
            cc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MS,
            None,
            M,
            ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_DOC,
        )
        .define(
            cc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS,
            None,
            M,
            ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_DOC,
        )
        .define(cc.CONNECTIONS_MAX_IDLE_MS_CONFIG, Type.LONG, 9 * 60 * 1000, None, M, ccc.CONNECTIONS_MAX_IDLE_MS_DOC)
        .define(
            cc.INTERCEPTOR_CLASSES_CONFIG,
            Type.LIST,
            [],
            NonNullValidator(),
            L,
            "ConsumerInterceptor classes, called in order on the records poll() returns and on commits.",
        )
        .define(
            cc.MAX_POLL_RECORDS_CONFIG,
            Type.INT,
            cc.DEFAULT_MAX_POLL_RECORDS,
            Range.at_least(1),
            M,
            "The most records one poll() returns (fetching itself is not affected).",
        )
        .define(
            cc.MAX_POLL_INTERVAL_MS_CONFIG,
            Type.INT,
            300000,
            Range.at_least(1),
            M,
            ccc.MAX_POLL_INTERVAL_MS_DOC,
        )
        .define(
            cc.EXCLUDE_INTERNAL_TOPICS_CONFIG,
            Type.BOOLEAN,
            cc.DEFAULT_EXCLUDE_INTERNAL_TOPICS,
            None,
            M,
            "Whether internal topics matching a subscribed pattern are left out (they can always be subscribed "
            "to by name).",
        )
        .define_internal(cc.LEAVE_GROUP_ON_CLOSE_CONFIG, Type.BOOLEAN, True, L)
        .define_internal(cc.THROW_ON_FETCH_STABLE_OFFSET_UNSUPPORTED, Type.BOOLEAN, False, L)
        .define(
            cc.ISOLATION_LEVEL_CONFIG,
            Type.STRING,
            cc.DEFAULT_ISOLATION_LEVEL,
            ValidString.in_("read_committed", "read_uncommitted"),
            M,
            "read_committed: only committed transactional records are returned (up to the last stable offset); "
            "read_uncommitted: all records.",
        )
        .define(
            cc.ALLOW_AUTO_CREATE_TOPICS_CONFIG,
            Type.BOOLEAN,
            cc.DEFAULT_ALLOW_AUTO_CREATE_TOPICS,
            None,
            M,
            "Whether subscribing to (or assigning) a missing topic may create it, where the broker allows it.",
        )
        .define(
            cc.GROUP_PROTOCOL_CONFIG,
            Type.STRING,
            cc.DEFAULT_GROUP_PROTOCOL,
            CaseInsensitiveValidString.in_("CLASSIC", "CONSUMER"),
            H,
            "The group protocol: classic (JoinGroup/SyncGroup) is supported; consumer (KIP-848) is not.",
        )
        .define(
            cc.GROUP_REMOTE_ASSIGNOR_CONFIG,
            Type.STRING,
            None,
            None,
            M,
            "The server-side assignor of the consumer group protocol (KIP-848); not used by this client.",
        )
        .define(
            cc.SECURITY_PROVIDERS_CONFIG,
            Type.STRING,
            None,
            None,
            L,
            "Security providers (not used: TLS is Python's ssl module).",
        )
        .define(
            ccc.SECURITY_PROTOCOL_CONFIG,
            Type.STRING,
            ccc.DEFAULT_SECURITY_PROTOCOL,
            CaseInsensitiveValidString.in_(*SecurityProtocol.names()),
            M,
            ccc.SECURITY_PROTOCOL_DOC,
        )
    )


ConsumerConfig.CONFIG = add_client_sasl_support(add_client_ssl_support(_config_def()))
