"""Port of core/src/main/scala/kafka/log/LogConfig.scala (Kafka 2.8).

The per-topic log configuration: Kafka's topic-level keys (`segment.bytes`, `retention.ms`,
`cleanup.policy`, ...) with their types, validators and defaults (the broker's defaults), and the
LogConfig object every Log reads (`segment_size`, `retention_ms`, `compact`, ...).

`LogConfig.TOPIC_CONFIG_SYNONYMS` maps each topic key to the broker key that sets its default, and
`LogConfig.extract_log_config_map(kafka_config)` turns a broker config into the topic-level
defaults (`KafkaServer.copyKafkaConfigToLog` in older Kafka).

# PORT: Kafka's `ThrottledReplicaListValidator` lives in ConfigHandler.scala; it is defined here, next to its
use in the topic ConfigDef, because kafka/server/config_handler.py imports this module (config_handler imports it
from here).
# PORT: `message_format_version` is the resolved ApiVersion (kafka.server.kafka_config.ApiVersion);
`message_format_version.record_version` gives the magic to write.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Final

from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import ConfigDef, ConfigKey, Importance, Range, Type, ValidList, ValidString
from kafka.common.config.config_exception import ConfigException, java_str
from kafka.common.config.topic_config import TopicConfig
from kafka.common.errors import InvalidConfigurationException
from kafka.common.record.timestamp_type import TimestampType
from kafka.server.kafka_config import (
    BROKER_COMPRESSION_OPTIONS,
    ApiVersion,
    ApiVersionValidator,
    KafkaConfig,
)
from kafka.server.kafka_config import (
    Defaults as ServerDefaults,
)

__all__ = ["Defaults", "LogConfig", "ThrottledReplicaListValidator"]

#: LegacyRecord.RECORD_OVERHEAD_V0: no segment can be smaller than one record.
_RECORD_OVERHEAD_V0: Final = 14
_THROTTLED_REPLICA: Final = re.compile(r"([0-9]+:[0-9]+)?")


class Defaults:
    """Topic-level defaults: the broker's (Scala's `kafka.log.Defaults`)."""

    SEGMENT_SIZE: Final = ServerDefaults.LOG_SEGMENT_BYTES
    SEGMENT_MS: Final = ServerDefaults.LOG_ROLL_HOURS * 60 * 60 * 1000
    SEGMENT_JITTER_MS: Final = ServerDefaults.LOG_ROLL_JITTER_HOURS * 60 * 60 * 1000
    FLUSH_INTERVAL: Final = ServerDefaults.LOG_FLUSH_INTERVAL_MESSAGES
    FLUSH_MS: Final = ServerDefaults.LOG_FLUSH_SCHEDULER_INTERVAL_MS
    RETENTION_SIZE: Final = ServerDefaults.LOG_RETENTION_BYTES
    RETENTION_MS: Final = ServerDefaults.LOG_RETENTION_HOURS * 60 * 60 * 1000
    MAX_MESSAGE_SIZE: Final = ServerDefaults.MESSAGE_MAX_BYTES
    MAX_INDEX_SIZE: Final = ServerDefaults.LOG_INDEX_SIZE_MAX_BYTES
    INDEX_INTERVAL: Final = ServerDefaults.LOG_INDEX_INTERVAL_BYTES
    FILE_DELETE_DELAY_MS: Final = ServerDefaults.LOG_DELETE_DELAY_MS
    DELETE_RETENTION_MS: Final = ServerDefaults.LOG_CLEANER_DELETE_RETENTION_MS
    MIN_COMPACTION_LAG_MS: Final = ServerDefaults.LOG_CLEANER_MIN_COMPACTION_LAG_MS
    MAX_COMPACTION_LAG_MS: Final = ServerDefaults.LOG_CLEANER_MAX_COMPACTION_LAG_MS
    MIN_CLEANABLE_DIRTY_RATIO: Final = ServerDefaults.LOG_CLEANER_MIN_CLEAN_RATIO
    CLEANUP_POLICY: Final = ServerDefaults.LOG_CLEANUP_POLICY
    UNCLEAN_LEADER_ELECTION_ENABLE: Final = ServerDefaults.UNCLEAN_LEADER_ELECTION_ENABLE
    MIN_IN_SYNC_REPLICAS: Final = ServerDefaults.MIN_IN_SYNC_REPLICAS
    COMPRESSION_TYPE: Final = ServerDefaults.COMPRESSION_TYPE
    PRE_ALLOCATE_ENABLE: Final = ServerDefaults.LOG_PRE_ALLOCATE_ENABLE
    MESSAGE_FORMAT_VERSION: Final = ServerDefaults.LOG_MESSAGE_FORMAT_VERSION
    MESSAGE_TIMESTAMP_TYPE: Final = ServerDefaults.LOG_MESSAGE_TIMESTAMP_TYPE
    MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS: Final = ServerDefaults.LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS
    LEADER_REPLICATION_THROTTLED_REPLICAS: Final = ()
    FOLLOWER_REPLICATION_THROTTLED_REPLICAS: Final = ()
    MAX_ID_MAP_SNAPSHOTS: Final = ServerDefaults.MAX_ID_MAP_SNAPSHOTS
    MESSAGE_DOWN_CONVERSION_ENABLE: Final = ServerDefaults.MESSAGE_DOWN_CONVERSION_ENABLE


class _ThrottledReplicaListValidator:
    """Accepts `*` or a list of `partitionId:brokerId` entries (blank entries allowed)."""

    def ensure_valid(self, name: str, value: Any) -> None:
        if not isinstance(value, list | tuple):
            raise ConfigException(name, value, f"{name} must be a List but was {type(value).__qualname__}")
        proposed = [str(v) for v in value]
        if not (all(_THROTTLED_REPLICA.fullmatch(v.strip()) for v in proposed) or "".join(proposed).strip() == "*"):
            raise ConfigException(
                name,
                value,
                f"{name} must be the literal '*' or a list of replicas in the following format: "
                "[partitionId]:[brokerId],[partitionId]:[brokerId],...",
            )

    def ensure_valid_string(self, name: str, value: str) -> None:
        """Validate the raw comma-separated form."""
        self.ensure_valid(name, [v.strip() for v in value.split(",")])

    def __str__(self) -> str:
        return "[partitionId]:[brokerId],[partitionId]:[brokerId],..."


ThrottledReplicaListValidator: Final = _ThrottledReplicaListValidator()


class LogConfigDef(ConfigDef):
    """A ConfigDef that also records, for each topic key, the broker key that provides its default."""

    def __init__(self, base: ConfigDef | None = None) -> None:
        super().__init__(base)
        self._server_default_config_names: dict[str, str] = (
            dict(base._server_default_config_names) if isinstance(base, LogConfigDef) else {}
        )

    def define_with_server_default(
        self,
        name: str,
        type_: Type,
        default_value: Any,
        validator: Any,
        importance: Importance,
        server_default_config_name: str,
    ) -> LogConfigDef:
        self.define(name, type_, default_value, validator, importance)
        self._server_default_config_names[name] = server_default_config_name
        return self

    def server_config_name(self, config_name: str) -> str | None:
        return self._server_default_config_names.get(config_name)


class LogConfig(AbstractConfig):
    """The configuration of one log. `props` holds topic-level keys; absent keys take the defaults.

    `overridden_configs` names the keys that were set on the topic itself (not inherited from the broker).
    """

    kafka_logger_name = "kafka.log.LogConfig"

    SEGMENT_BYTES_PROP: Final = TopicConfig.SEGMENT_BYTES_CONFIG
    SEGMENT_MS_PROP: Final = TopicConfig.SEGMENT_MS_CONFIG
    SEGMENT_JITTER_MS_PROP: Final = TopicConfig.SEGMENT_JITTER_MS_CONFIG
    SEGMENT_INDEX_BYTES_PROP: Final = TopicConfig.SEGMENT_INDEX_BYTES_CONFIG
    FLUSH_MESSAGES_PROP: Final = TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG
    FLUSH_MS_PROP: Final = TopicConfig.FLUSH_MS_CONFIG
    RETENTION_BYTES_PROP: Final = TopicConfig.RETENTION_BYTES_CONFIG
    RETENTION_MS_PROP: Final = TopicConfig.RETENTION_MS_CONFIG
    MAX_MESSAGE_BYTES_PROP: Final = TopicConfig.MAX_MESSAGE_BYTES_CONFIG
    INDEX_INTERVAL_BYTES_PROP: Final = TopicConfig.INDEX_INTERVAL_BYTES_CONFIG
    DELETE_RETENTION_MS_PROP: Final = TopicConfig.DELETE_RETENTION_MS_CONFIG
    MIN_COMPACTION_LAG_MS_PROP: Final = TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG
    MAX_COMPACTION_LAG_MS_PROP: Final = TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG
    FILE_DELETE_DELAY_MS_PROP: Final = TopicConfig.FILE_DELETE_DELAY_MS_CONFIG
    MIN_CLEANABLE_DIRTY_RATIO_PROP: Final = TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG
    CLEANUP_POLICY_PROP: Final = TopicConfig.CLEANUP_POLICY_CONFIG
    DELETE: Final = TopicConfig.CLEANUP_POLICY_DELETE
    COMPACT: Final = TopicConfig.CLEANUP_POLICY_COMPACT
    UNCLEAN_LEADER_ELECTION_ENABLE_PROP: Final = TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG
    MIN_IN_SYNC_REPLICAS_PROP: Final = TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG
    COMPRESSION_TYPE_PROP: Final = TopicConfig.COMPRESSION_TYPE_CONFIG
    PRE_ALLOCATE_ENABLE_PROP: Final = TopicConfig.PREALLOCATE_CONFIG
    MESSAGE_FORMAT_VERSION_PROP: Final = TopicConfig.MESSAGE_FORMAT_VERSION_CONFIG
    MESSAGE_TIMESTAMP_TYPE_PROP: Final = TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG
    MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP: Final = TopicConfig.MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_CONFIG
    MESSAGE_DOWN_CONVERSION_ENABLE_PROP: Final = TopicConfig.MESSAGE_DOWNCONVERSION_ENABLE_CONFIG
    # Replication quota configs, kept out of TopicConfig by Kafka too.
    LEADER_REPLICATION_THROTTLED_REPLICAS_PROP: Final = "leader.replication.throttled.replicas"
    FOLLOWER_REPLICATION_THROTTLED_REPLICAS_PROP: Final = "follower.replication.throttled.replicas"

    config_def: ClassVar[LogConfigDef]
    #: Topic config name -> the broker config that supplies its default (Scala's `TopicConfigSynonyms`).
    TOPIC_CONFIG_SYNONYMS: ClassVar[dict[str, str]]

    def __init__(
        self,
        props: Mapping[str, Any] | None = None,
        overridden_configs: Iterable[str] = (),
        do_log: bool = False,
    ) -> None:
        super().__init__(LogConfig.config_def, props if props is not None else {}, do_log)
        self.props: dict[str, Any] = dict(props) if props is not None else {}
        self.overridden_configs: frozenset[str] = frozenset(overridden_configs)

        self.segment_size: int = self.get_int(LogConfig.SEGMENT_BYTES_PROP)
        self.segment_ms: int = self.get_long(LogConfig.SEGMENT_MS_PROP)
        self.segment_jitter_ms: int = self.get_long(LogConfig.SEGMENT_JITTER_MS_PROP)
        self.max_index_size: int = self.get_int(LogConfig.SEGMENT_INDEX_BYTES_PROP)
        self.flush_interval: int = self.get_long(LogConfig.FLUSH_MESSAGES_PROP)
        self.flush_ms: int = self.get_long(LogConfig.FLUSH_MS_PROP)
        self.retention_size: int = self.get_long(LogConfig.RETENTION_BYTES_PROP)
        self.retention_ms: int = self.get_long(LogConfig.RETENTION_MS_PROP)
        self.max_message_size: int = self.get_int(LogConfig.MAX_MESSAGE_BYTES_PROP)
        self.index_interval: int = self.get_int(LogConfig.INDEX_INTERVAL_BYTES_PROP)
        self.file_delete_delay_ms: int = self.get_long(LogConfig.FILE_DELETE_DELAY_MS_PROP)
        self.delete_retention_ms: int = self.get_long(LogConfig.DELETE_RETENTION_MS_PROP)
        self.compaction_lag_ms: int = self.get_long(LogConfig.MIN_COMPACTION_LAG_MS_PROP)
        self.max_compaction_lag_ms: int = self.get_long(LogConfig.MAX_COMPACTION_LAG_MS_PROP)
        self.min_cleanable_ratio: float = self.get_double(LogConfig.MIN_CLEANABLE_DIRTY_RATIO_PROP)
        policies = [p.lower() for p in self.get_list(LogConfig.CLEANUP_POLICY_PROP)]
        self.compact: bool = LogConfig.COMPACT in policies
        self.delete: bool = LogConfig.DELETE in policies
        self.unclean_leader_election_enable: bool = self.get_boolean(LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP)
        self.min_in_sync_replicas: int = self.get_int(LogConfig.MIN_IN_SYNC_REPLICAS_PROP)
        self.compression_type: str = self.get_string(LogConfig.COMPRESSION_TYPE_PROP).lower()
        self.preallocate: bool = self.get_boolean(LogConfig.PRE_ALLOCATE_ENABLE_PROP)
        self.message_format_version: ApiVersion = ApiVersion.apply(
            self.get_string(LogConfig.MESSAGE_FORMAT_VERSION_PROP)
        )
        self.message_timestamp_type: TimestampType = TimestampType.for_name(
            self.get_string(LogConfig.MESSAGE_TIMESTAMP_TYPE_PROP)
        )
        self.message_timestamp_difference_max_ms: int = self.get_long(
            LogConfig.MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP
        )
        self.leader_replication_throttled_replicas: list[str] = self.get_list(
            LogConfig.LEADER_REPLICATION_THROTTLED_REPLICAS_PROP
        )
        self.follower_replication_throttled_replicas: list[str] = self.get_list(
            LogConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS_PROP
        )
        self.message_down_conversion_enable: bool = self.get_boolean(LogConfig.MESSAGE_DOWN_CONVERSION_ENABLE_PROP)

    # Names used elsewhere in this port and in the brief for the same values.
    @property
    def segment_index_bytes(self) -> int:
        """Alias of `max_index_size` (the value of segment.index.bytes)."""
        return self.max_index_size

    @property
    def flush_interval_messages(self) -> int:
        """Alias of `flush_interval` (the value of flush.messages)."""
        return self.flush_interval

    @property
    def max_message_bytes(self) -> int:
        """Alias of `max_message_size` (the value of max.message.bytes)."""
        return self.max_message_size

    @property
    def min_compaction_lag_ms(self) -> int:
        """Alias of `compaction_lag_ms` (the value of min.compaction.lag.ms)."""
        return self.compaction_lag_ms

    @property
    def random_segment_jitter(self) -> int:
        """A random delay in [0, min(segment.jitter.ms, segment.ms)) to spread segment rolls; 0 without jitter."""
        # A property, as Scala's parameterless def; each read draws a new value.
        if self.segment_jitter_ms == 0:
            return 0
        return random.randrange(0, 2**31 - 1) % min(self.segment_jitter_ms, self.segment_ms)

    @property
    def max_segment_ms(self) -> int:
        """How long a segment may stay active: segment.ms, or less for compacted topics with a max lag."""
        if self.compact and self.max_compaction_lag_ms > 0:
            return min(self.max_compaction_lag_ms, self.segment_ms)
        return self.segment_ms

    def overridden_configs_as_loggable_string(self) -> str:
        """The topic's own overrides as `{k=v, ...}` sorted by key; unknown and secret keys are redacted."""
        parts = []
        for k in sorted(k for k in self.props if k in self.overridden_configs):
            key = LogConfig.config_def.config_keys.get(k)
            v = self.props[k]
            if key is None or key.type.is_sensitive():
                shown = "(redacted)"
            elif v is None:
                shown = "null"
            elif key.type is Type.STRING:
                shown = f'"{v}"'
            else:
                shown = java_str(v)
            parts.append(f"{k}={shown}")
        return "{" + ", ".join(parts) + "}"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, LogConfig)
            and other.props == self.props
            and other.overridden_configs == self.overridden_configs
        )

    def __hash__(self) -> int:
        return hash((tuple(sorted((k, repr(v)) for k, v in self.props.items())), self.overridden_configs))

    def __repr__(self) -> str:
        return f"LogConfig({self.props!r}, overridden={sorted(self.overridden_configs)!r})"

    # ---- companion-object functions -----------------------------------------------------------

    @staticmethod
    def config_names() -> list[str]:
        """Every topic config name, sorted."""
        return sorted(LogConfig.config_def.names())

    @staticmethod
    def server_config_name(config_name: str) -> str | None:
        """The broker config that supplies the default of topic config `config_name`."""
        return LogConfig.config_def.server_config_name(config_name)

    @staticmethod
    def config_type(config_name: str) -> Type | None:
        key = LogConfig.config_def.config_keys.get(config_name)
        return None if key is None else key.type

    @staticmethod
    def config_keys() -> dict[str, ConfigKey]:
        return dict(LogConfig.config_def.config_keys)

    @staticmethod
    def config_def_copy() -> LogConfigDef:
        return LogConfigDef(LogConfig.config_def)

    @staticmethod
    def from_props(defaults: Mapping[str, Any], overrides: Mapping[str, Any]) -> LogConfig:
        """A LogConfig from broker-level `defaults` with the topic's `overrides` on top."""
        props = dict(defaults)
        props.update(overrides)
        return LogConfig(props, frozenset(overrides.keys()))

    @staticmethod
    def validate_names(props: Mapping[str, Any]) -> None:
        """InvalidConfigurationException for any key that is not a topic config."""
        names = LogConfig.config_def.names()
        for name in props:
            if name not in names:
                raise InvalidConfigurationException(f"Unknown topic config name: {name}")

    @staticmethod
    def validate_values(values: Mapping[str, Any]) -> None:
        """Cross-checks between parsed values: min.compaction.lag.ms must not exceed max.compaction.lag.ms."""
        min_lag = values.get(LogConfig.MIN_COMPACTION_LAG_MS_PROP)
        max_lag = values.get(LogConfig.MAX_COMPACTION_LAG_MS_PROP)
        if min_lag is not None and max_lag is not None and min_lag > max_lag:
            raise InvalidConfigurationException(
                f"conflict topic config setting {LogConfig.MIN_COMPACTION_LAG_MS_PROP} ({min_lag}) > "
                f"{LogConfig.MAX_COMPACTION_LAG_MS_PROP} ({max_lag})"
            )

    @staticmethod
    def validate(props: Mapping[str, Any]) -> None:
        """Names known, values parse and pass their validators, cross-checks hold.

        Unknown names and conflicting values raise InvalidConfigurationException; a value that fails
        to parse or validate raises ConfigException, as in Kafka.
        """
        LogConfig.validate_names(props)
        values = LogConfig.config_def.parse(props)
        LogConfig.validate_values(values)

    @staticmethod
    def extract_log_config_map(kafka_config: KafkaConfig) -> dict[str, Any]:
        """The broker's settings for every topic-level key, as typed values keyed by topic config name."""
        k = kafka_config
        return {
            LogConfig.SEGMENT_BYTES_PROP: k.log_segment_bytes,
            LogConfig.SEGMENT_MS_PROP: k.log_roll_time_millis,
            LogConfig.SEGMENT_JITTER_MS_PROP: k.log_roll_time_jitter_millis,
            LogConfig.SEGMENT_INDEX_BYTES_PROP: k.log_index_size_max_bytes,
            LogConfig.FLUSH_MESSAGES_PROP: k.log_flush_interval_messages,
            LogConfig.FLUSH_MS_PROP: k.log_flush_interval_ms,
            LogConfig.RETENTION_BYTES_PROP: k.log_retention_bytes,
            LogConfig.RETENTION_MS_PROP: k.log_retention_time_millis,
            LogConfig.MAX_MESSAGE_BYTES_PROP: k.message_max_bytes,
            LogConfig.INDEX_INTERVAL_BYTES_PROP: k.log_index_interval_bytes,
            LogConfig.DELETE_RETENTION_MS_PROP: k.log_cleaner_delete_retention_ms,
            LogConfig.MIN_COMPACTION_LAG_MS_PROP: k.log_cleaner_min_compaction_lag_ms,
            LogConfig.MAX_COMPACTION_LAG_MS_PROP: k.log_cleaner_max_compaction_lag_ms,
            LogConfig.FILE_DELETE_DELAY_MS_PROP: k.log_delete_delay_ms,
            LogConfig.MIN_CLEANABLE_DIRTY_RATIO_PROP: k.log_cleaner_min_clean_ratio,
            LogConfig.CLEANUP_POLICY_PROP: list(k.log_cleanup_policy),
            LogConfig.MIN_IN_SYNC_REPLICAS_PROP: k.min_in_sync_replicas,
            LogConfig.COMPRESSION_TYPE_PROP: k.compression_type,
            LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP: k.unclean_leader_election_enable,
            LogConfig.PRE_ALLOCATE_ENABLE_PROP: k.log_pre_allocate_enable,
            LogConfig.MESSAGE_FORMAT_VERSION_PROP: k.log_message_format_version.version,
            LogConfig.MESSAGE_TIMESTAMP_TYPE_PROP: k.log_message_timestamp_type.name,
            LogConfig.MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP: k.log_message_timestamp_difference_max_ms,
            LogConfig.MESSAGE_DOWN_CONVERSION_ENABLE_PROP: k.log_message_down_conversion_enable,
        }


def _build_config_def() -> LogConfigDef:
    L, D, K = LogConfig, Defaults, KafkaConfig
    MEDIUM, LOW = Importance.MEDIUM, Importance.LOW
    at_least = Range.at_least
    d = LogConfigDef()
    d.define_with_server_default(
        L.SEGMENT_BYTES_PROP, Type.INT, D.SEGMENT_SIZE, at_least(_RECORD_OVERHEAD_V0), MEDIUM, K.LOG_SEGMENT_BYTES_PROP
    )
    d.define_with_server_default(
        L.SEGMENT_MS_PROP, Type.LONG, D.SEGMENT_MS, at_least(1), MEDIUM, K.LOG_ROLL_TIME_MILLIS_PROP
    )
    d.define_with_server_default(
        L.SEGMENT_JITTER_MS_PROP,
        Type.LONG,
        D.SEGMENT_JITTER_MS,
        at_least(0),
        MEDIUM,
        K.LOG_ROLL_TIME_JITTER_MILLIS_PROP,
    )
    d.define_with_server_default(
        L.SEGMENT_INDEX_BYTES_PROP, Type.INT, D.MAX_INDEX_SIZE, at_least(0), MEDIUM, K.LOG_INDEX_SIZE_MAX_BYTES_PROP
    )
    d.define_with_server_default(
        L.FLUSH_MESSAGES_PROP, Type.LONG, D.FLUSH_INTERVAL, at_least(0), MEDIUM, K.LOG_FLUSH_INTERVAL_MESSAGES_PROP
    )
    d.define_with_server_default(
        L.FLUSH_MS_PROP, Type.LONG, D.FLUSH_MS, at_least(0), MEDIUM, K.LOG_FLUSH_INTERVAL_MS_PROP
    )
    # May be negative: -1 means no size limit.
    d.define_with_server_default(
        L.RETENTION_BYTES_PROP, Type.LONG, D.RETENTION_SIZE, None, MEDIUM, K.LOG_RETENTION_BYTES_PROP
    )
    # -1 means no time limit.
    d.define_with_server_default(
        L.RETENTION_MS_PROP, Type.LONG, D.RETENTION_MS, at_least(-1), MEDIUM, K.LOG_RETENTION_TIME_MILLIS_PROP
    )
    d.define_with_server_default(
        L.MAX_MESSAGE_BYTES_PROP, Type.INT, D.MAX_MESSAGE_SIZE, at_least(0), MEDIUM, K.MESSAGE_MAX_BYTES_PROP
    )
    d.define_with_server_default(
        L.INDEX_INTERVAL_BYTES_PROP, Type.INT, D.INDEX_INTERVAL, at_least(0), MEDIUM, K.LOG_INDEX_INTERVAL_BYTES_PROP
    )
    d.define_with_server_default(
        L.DELETE_RETENTION_MS_PROP,
        Type.LONG,
        D.DELETE_RETENTION_MS,
        at_least(0),
        MEDIUM,
        K.LOG_CLEANER_DELETE_RETENTION_MS_PROP,
    )
    d.define_with_server_default(
        L.MIN_COMPACTION_LAG_MS_PROP,
        Type.LONG,
        D.MIN_COMPACTION_LAG_MS,
        at_least(0),
        MEDIUM,
        K.LOG_CLEANER_MIN_COMPACTION_LAG_MS_PROP,
    )
    d.define_with_server_default(
        L.MAX_COMPACTION_LAG_MS_PROP,
        Type.LONG,
        D.MAX_COMPACTION_LAG_MS,
        at_least(1),
        MEDIUM,
        K.LOG_CLEANER_MAX_COMPACTION_LAG_MS_PROP,
    )
    d.define_with_server_default(
        L.FILE_DELETE_DELAY_MS_PROP, Type.LONG, D.FILE_DELETE_DELAY_MS, at_least(0), MEDIUM, K.LOG_DELETE_DELAY_MS_PROP
    )
    d.define_with_server_default(
        L.MIN_CLEANABLE_DIRTY_RATIO_PROP,
        Type.DOUBLE,
        D.MIN_CLEANABLE_DIRTY_RATIO,
        Range.between(0, 1),
        MEDIUM,
        K.LOG_CLEANER_MIN_CLEAN_RATIO_PROP,
    )
    d.define_with_server_default(
        L.CLEANUP_POLICY_PROP,
        Type.LIST,
        D.CLEANUP_POLICY,
        ValidList.in_(L.COMPACT, L.DELETE),
        MEDIUM,
        K.LOG_CLEANUP_POLICY_PROP,
    )
    d.define_with_server_default(
        L.UNCLEAN_LEADER_ELECTION_ENABLE_PROP,
        Type.BOOLEAN,
        D.UNCLEAN_LEADER_ELECTION_ENABLE,
        None,
        MEDIUM,
        K.UNCLEAN_LEADER_ELECTION_ENABLE_PROP,
    )
    d.define_with_server_default(
        L.MIN_IN_SYNC_REPLICAS_PROP, Type.INT, D.MIN_IN_SYNC_REPLICAS, at_least(1), MEDIUM, K.MIN_IN_SYNC_REPLICAS_PROP
    )
    d.define_with_server_default(
        L.COMPRESSION_TYPE_PROP,
        Type.STRING,
        D.COMPRESSION_TYPE,
        ValidString.in_(*BROKER_COMPRESSION_OPTIONS),
        MEDIUM,
        K.COMPRESSION_TYPE_PROP,
    )
    d.define_with_server_default(
        L.PRE_ALLOCATE_ENABLE_PROP, Type.BOOLEAN, D.PRE_ALLOCATE_ENABLE, None, MEDIUM, K.LOG_PRE_ALLOCATE_PROP
    )
    d.define_with_server_default(
        L.MESSAGE_FORMAT_VERSION_PROP,
        Type.STRING,
        D.MESSAGE_FORMAT_VERSION,
        ApiVersionValidator,
        MEDIUM,
        K.LOG_MESSAGE_FORMAT_VERSION_PROP,
    )
    d.define_with_server_default(
        L.MESSAGE_TIMESTAMP_TYPE_PROP,
        Type.STRING,
        D.MESSAGE_TIMESTAMP_TYPE,
        ValidString.in_("CreateTime", "LogAppendTime"),
        MEDIUM,
        K.LOG_MESSAGE_TIMESTAMP_TYPE_PROP,
    )
    d.define_with_server_default(
        L.MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP,
        Type.LONG,
        D.MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS,
        at_least(0),
        MEDIUM,
        K.LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP,
    )
    d.define_with_server_default(
        L.LEADER_REPLICATION_THROTTLED_REPLICAS_PROP,
        Type.LIST,
        list(D.LEADER_REPLICATION_THROTTLED_REPLICAS),
        ThrottledReplicaListValidator,
        MEDIUM,
        L.LEADER_REPLICATION_THROTTLED_REPLICAS_PROP,
    )
    d.define_with_server_default(
        L.FOLLOWER_REPLICATION_THROTTLED_REPLICAS_PROP,
        Type.LIST,
        list(D.FOLLOWER_REPLICATION_THROTTLED_REPLICAS),
        ThrottledReplicaListValidator,
        MEDIUM,
        L.FOLLOWER_REPLICATION_THROTTLED_REPLICAS_PROP,
    )
    d.define_with_server_default(
        L.MESSAGE_DOWN_CONVERSION_ENABLE_PROP,
        Type.BOOLEAN,
        D.MESSAGE_DOWN_CONVERSION_ENABLE,
        None,
        LOW,
        K.LOG_MESSAGE_DOWN_CONVERSION_ENABLE_PROP,
    )
    return d


LogConfig.config_def = _build_config_def()
LogConfig.TOPIC_CONFIG_SYNONYMS = {
    LogConfig.SEGMENT_BYTES_PROP: KafkaConfig.LOG_SEGMENT_BYTES_PROP,
    LogConfig.SEGMENT_MS_PROP: KafkaConfig.LOG_ROLL_TIME_MILLIS_PROP,
    LogConfig.SEGMENT_JITTER_MS_PROP: KafkaConfig.LOG_ROLL_TIME_JITTER_MILLIS_PROP,
    LogConfig.SEGMENT_INDEX_BYTES_PROP: KafkaConfig.LOG_INDEX_SIZE_MAX_BYTES_PROP,
    LogConfig.FLUSH_MESSAGES_PROP: KafkaConfig.LOG_FLUSH_INTERVAL_MESSAGES_PROP,
    LogConfig.FLUSH_MS_PROP: KafkaConfig.LOG_FLUSH_INTERVAL_MS_PROP,
    LogConfig.RETENTION_BYTES_PROP: KafkaConfig.LOG_RETENTION_BYTES_PROP,
    LogConfig.RETENTION_MS_PROP: KafkaConfig.LOG_RETENTION_TIME_MILLIS_PROP,
    LogConfig.MAX_MESSAGE_BYTES_PROP: KafkaConfig.MESSAGE_MAX_BYTES_PROP,
    LogConfig.INDEX_INTERVAL_BYTES_PROP: KafkaConfig.LOG_INDEX_INTERVAL_BYTES_PROP,
    LogConfig.DELETE_RETENTION_MS_PROP: KafkaConfig.LOG_CLEANER_DELETE_RETENTION_MS_PROP,
    LogConfig.MIN_COMPACTION_LAG_MS_PROP: KafkaConfig.LOG_CLEANER_MIN_COMPACTION_LAG_MS_PROP,
    LogConfig.MAX_COMPACTION_LAG_MS_PROP: KafkaConfig.LOG_CLEANER_MAX_COMPACTION_LAG_MS_PROP,
    LogConfig.FILE_DELETE_DELAY_MS_PROP: KafkaConfig.LOG_DELETE_DELAY_MS_PROP,
    LogConfig.MIN_CLEANABLE_DIRTY_RATIO_PROP: KafkaConfig.LOG_CLEANER_MIN_CLEAN_RATIO_PROP,
    LogConfig.CLEANUP_POLICY_PROP: KafkaConfig.LOG_CLEANUP_POLICY_PROP,
    LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP: KafkaConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP,
    LogConfig.MIN_IN_SYNC_REPLICAS_PROP: KafkaConfig.MIN_IN_SYNC_REPLICAS_PROP,
    LogConfig.COMPRESSION_TYPE_PROP: KafkaConfig.COMPRESSION_TYPE_PROP,
    LogConfig.PRE_ALLOCATE_ENABLE_PROP: KafkaConfig.LOG_PRE_ALLOCATE_PROP,
    LogConfig.MESSAGE_FORMAT_VERSION_PROP: KafkaConfig.LOG_MESSAGE_FORMAT_VERSION_PROP,
    LogConfig.MESSAGE_TIMESTAMP_TYPE_PROP: KafkaConfig.LOG_MESSAGE_TIMESTAMP_TYPE_PROP,
    LogConfig.MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP: KafkaConfig.LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP,
    LogConfig.MESSAGE_DOWN_CONVERSION_ENABLE_PROP: KafkaConfig.LOG_MESSAGE_DOWN_CONVERSION_ENABLE_PROP,
}
