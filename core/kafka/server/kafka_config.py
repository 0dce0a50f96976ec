"""Port of core/src/main/scala/kafka/server/KafkaConfig.scala (Kafka 2.8).

The broker's static configuration: every key of Kafka 2.8's broker ConfigDef with Kafka's name,
type, default and validator (`KafkaConfig.config_def`), Kafka's `Defaults` object, and the
KafkaConfig class whose attributes are the snake_cased Scala vals and defs (`broker_id`,
`log_dirs`, `log_retention_time_millis`, `listeners`, ...), checked by `validate_values` when built.

Companion-object constants keep Scala's names in UPPER_SNAKE on the class: Scala's
`KafkaConfig.LogSegmentBytesProp` is `KafkaConfig.LOG_SEGMENT_BYTES_PROP` here, `Defaults.LogSegmentBytes`
is `Defaults.LOG_SEGMENT_BYTES`.

# PORT: Scala's `require(...)` and the IllegalArgumentExceptions this class throws become
ConfigException with Kafka's message (`requirement failed: ...`), so a caller catches one type.
Listener strings that fail to parse are reported as `Invalid value X for configuration listeners: ...`.

# PORT: Scala vals are attributes set at construction; Scala defs (which Kafka re-reads so that
dynamic broker configs take effect) are properties reading through `current_config`, as Kafka's
`get` does. Dynamic reconfiguration installs a new KafkaConfig with `update_current_config`.

# PORT: ZooKeeper TLS settings are read from the config only (there are no JVM system properties to
fall back on); the authorizer is named (`authorizer_class_name`), and the server instantiates it.
KRaft (`process.roles`) is parsed as in 2.8 but rejected: this port is a ZooKeeper-mode broker.
`unstable.api.versions.enable` (an internal key of Kafka 3.x) is accepted because the protocol
ceiling is 3.7's.

# PORT: Kafka's ApiVersion (core/src/main/scala/kafka/api/ApiVersion.scala) is needed to validate
`inter.broker.protocol.version` and `log.message.format.version`; until kafka/api/api_version.py
exists it lives in this module (class `ApiVersion`, validator `ApiVersionValidator`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from kafka.cluster.end_point import (
    DEFAULT_SECURITY_PROTOCOL_MAP,
    EndPoint,
    listener_list_to_end_points,
    parse_csv_list,
    parse_csv_map,
)
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import (
    ConfigDef,
    Importance,
    Range,
    Type,
    ValidList,
    ValidString,
)
from kafka.common.config.config_exception import ConfigException
from kafka.common.config.config_resource import ConfigResource
from kafka.common.config.password import Password
from kafka.common.network.listener_name import ListenerName
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record_version import RecordVersion
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.utils import parse_int

if TYPE_CHECKING:
    from kafka.server.config_handler import DynamicBrokerConfig

__all__ = ["ApiVersion", "ApiVersionValidator", "Defaults", "KafkaConfig"]

HIGH: Final = Importance.HIGH
MEDIUM: Final = Importance.MEDIUM
LOW: Final = Importance.LOW
at_least = Range.at_least

_INT_MAX: Final = 2**31 - 1
_LONG_MAX: Final = 2**63 - 1
#: Records.LOG_OVERHEAD: offset (8) + size (4) in front of every legacy message / batch.
_LOG_OVERHEAD: Final = 12
#: LegacyRecord.RECORD_OVERHEAD_V0: the smallest possible record, the floor of a segment's size.
_RECORD_OVERHEAD_V0: Final = 14
_VALID_HOST_CHARACTERS: Final = re.compile(r"[0-9a-zA-Z\-%._:]*")


# ---- ApiVersion (kafka/api/ApiVersion.scala) ----------------------------------------------------


@functools.total_ordering
class ApiVersion:
    """An inter-broker protocol / message format version, ordered by `id`.

    `version` is the full name (`2.8-IV1`), `short_version` the release (`2.8`); `record_version`
    is the newest record format that version writes.
    """

    __slots__ = ("id", "record_version", "short_version", "sub_version", "version")

    all_versions: ClassVar[tuple[ApiVersion, ...]]
    latest_version: ClassVar[ApiVersion]
    _version_map: ClassVar[dict[str, ApiVersion]]

    def __init__(self, id_: int, short_version: str, sub_version: str | None, record_version: RecordVersion) -> None:
        self.id = id_
        self.short_version = short_version
        self.sub_version = sub_version
        self.record_version = record_version
        # Versions before 0.10.0 had no sub-version: their full and short names are the same.
        self.version = short_version if sub_version is None else f"{short_version}-{sub_version}"

    @staticmethod
    def apply(version_string: str) -> ApiVersion:
        """Resolve `0.8.2`, `0.10.0-IV1`, `2.8`, `0.10.0.1`, ... to a version; ValueError if unknown.

        A release name alone means its newest sub-version; extra segments after the release are ignored.
        """
        segments = version_string.split(".")
        num_segments = 3 if version_string.startswith("0.") else 2
        key = ".".join(segments[:num_segments])
        v = ApiVersion._version_map.get(key)
        if v is None:
            raise ValueError(f"Version `{version_string}` is not a valid version")
        return v

    @staticmethod
    def min_supported_for(record_version: RecordVersion) -> ApiVersion:
        """The oldest version that can write `record_version`."""
        if record_version == RecordVersion.V0:
            return KAFKA_0_8_0
        if record_version == RecordVersion.V1:
            return KAFKA_0_10_0_IV0
        if record_version == RecordVersion.V2:
            return KAFKA_0_11_0_IV0
        raise ValueError(f"Invalid message format version {record_version}")

    @staticmethod
    def is_truncation_on_fetch_supported(version: ApiVersion) -> bool:
        return version >= KAFKA_2_7_IV1

    @property
    def is_alter_isr_supported(self) -> bool:
        return self >= KAFKA_2_7_IV2

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ApiVersion) and other.id == self.id

    def __lt__(self, other: ApiVersion) -> bool:
        return self.id < other.id

    def __hash__(self) -> int:
        return self.id

    def __str__(self) -> str:
        return self.version

    def __repr__(self) -> str:
        return f"ApiVersion({self.version})"


_V0, _V1, _V2 = RecordVersion.V0, RecordVersion.V1, RecordVersion.V2
KAFKA_0_8_0: Final = ApiVersion(0, "0.8.0", None, _V0)
KAFKA_0_8_1: Final = ApiVersion(1, "0.8.1", None, _V0)
KAFKA_0_8_2: Final = ApiVersion(2, "0.8.2", None, _V0)
KAFKA_0_9_0: Final = ApiVersion(3, "0.9.0", None, _V0)
KAFKA_0_10_0_IV0: Final = ApiVersion(4, "0.10.0", "IV0", _V1)
KAFKA_0_10_0_IV1: Final = ApiVersion(5, "0.10.0", "IV1", _V1)
KAFKA_0_10_1_IV0: Final = ApiVersion(6, "0.10.1", "IV0", _V1)
KAFKA_0_10_1_IV1: Final = ApiVersion(7, "0.10.1", "IV1", _V1)
KAFKA_0_10_1_IV2: Final = ApiVersion(8, "0.10.1", "IV2", _V1)
KAFKA_0_10_2_IV0: Final = ApiVersion(9, "0.10.2", "IV0", _V1)
KAFKA_0_11_0_IV0: Final = ApiVersion(10, "0.11.0", "IV0", _V2)
KAFKA_0_11_0_IV1: Final = ApiVersion(11, "0.11.0", "IV1", _V2)
KAFKA_0_11_0_IV2: Final = ApiVersion(12, "0.11.0", "IV2", _V2)
KAFKA_1_0_IV0: Final = ApiVersion(13, "1.0", "IV0", _V2)
KAFKA_1_1_IV0: Final = ApiVersion(14, "1.1", "IV0", _V2)
KAFKA_2_0_IV0: Final = ApiVersion(15, "2.0", "IV0", _V2)
KAFKA_2_0_IV1: Final = ApiVersion(16, "2.0", "IV1", _V2)
KAFKA_2_1_IV0: Final = ApiVersion(17, "2.1", "IV0", _V2)
KAFKA_2_1_IV1: Final = ApiVersion(18, "2.1", "IV1", _V2)
KAFKA_2_1_IV2: Final = ApiVersion(19, "2.1", "IV2", _V2)
KAFKA_2_2_IV0: Final = ApiVersion(20, "2.2", "IV0", _V2)
KAFKA_2_2_IV1: Final = ApiVersion(21, "2.2", "IV1", _V2)
KAFKA_2_3_IV0: Final = ApiVersion(22, "2.3", "IV0", _V2)
KAFKA_2_3_IV1: Final = ApiVersion(23, "2.3", "IV1", _V2)
KAFKA_2_4_IV0: Final = ApiVersion(24, "2.4", "IV0", _V2)
KAFKA_2_4_IV1: Final = ApiVersion(25, "2.4", "IV1", _V2)
KAFKA_2_5_IV0: Final = ApiVersion(26, "2.5", "IV0", _V2)
KAFKA_2_6_IV0: Final = ApiVersion(27, "2.6", "IV0", _V2)
KAFKA_2_7_IV0: Final = ApiVersion(28, "2.7", "IV0", _V2)
KAFKA_2_7_IV1: Final = ApiVersion(29, "2.7", "IV1", _V2)
KAFKA_2_7_IV2: Final = ApiVersion(30, "2.7", "IV2", _V2)
KAFKA_2_8_IV0: Final = ApiVersion(31, "2.8", "IV0", _V2)
KAFKA_2_8_IV1: Final = ApiVersion(32, "2.8", "IV1", _V2)

ApiVersion.all_versions = (
    KAFKA_0_8_0,
    KAFKA_0_8_1,
    KAFKA_0_8_2,
    KAFKA_0_9_0,
    KAFKA_0_10_0_IV0,
    KAFKA_0_10_0_IV1,
    KAFKA_0_10_1_IV0,
    KAFKA_0_10_1_IV1,
    KAFKA_0_10_1_IV2,
    KAFKA_0_10_2_IV0,
    KAFKA_0_11_0_IV0,
    KAFKA_0_11_0_IV1,
    KAFKA_0_11_0_IV2,
    KAFKA_1_0_IV0,
    KAFKA_1_1_IV0,
    KAFKA_2_0_IV0,
    KAFKA_2_0_IV1,
    KAFKA_2_1_IV0,
    KAFKA_2_1_IV1,
    KAFKA_2_1_IV2,
    KAFKA_2_2_IV0,
    KAFKA_2_2_IV1,
    KAFKA_2_3_IV0,
    KAFKA_2_3_IV1,
    KAFKA_2_4_IV0,
    KAFKA_2_4_IV1,
    KAFKA_2_5_IV0,
    KAFKA_2_6_IV0,
    KAFKA_2_7_IV0,
    KAFKA_2_7_IV1,
    KAFKA_2_7_IV2,
    KAFKA_2_8_IV0,
    KAFKA_2_8_IV1,
)
ApiVersion.latest_version = ApiVersion.all_versions[-1]
# Both full and short names resolve; a short name means the newest version of that release.
ApiVersion._version_map = {v.version: v for v in ApiVersion.all_versions}
for _v in ApiVersion.all_versions:
    ApiVersion._version_map[_v.short_version] = _v


class _ApiVersionValidator:
    """Accepts any string that ApiVersion.apply resolves."""

    def ensure_valid(self, name: str, value: Any) -> None:
        try:
            ApiVersion.apply(str(value))
        except ValueError as e:
            raise ConfigException(name, str(value), str(e)) from None

    def __str__(self) -> str:
        return "[" + ", ".join(dict.fromkeys(v.version for v in ApiVersion.all_versions)) + "]"


ApiVersionValidator: Final = _ApiVersionValidator()


# ---- Defaults -----------------------------------------------------------------------------------


class Defaults:
    """Kafka 2.8's broker defaults (Scala's `object Defaults` in KafkaConfig.scala)."""

    # ZooKeeper
    ZK_SESSION_TIMEOUT_MS: Final = 18000
    ZK_SYNC_TIME_MS: Final = 2000
    ZK_ENABLE_SECURE_ACLS: Final = False
    ZK_MAX_IN_FLIGHT_REQUESTS: Final = 10
    ZK_SSL_CLIENT_ENABLE: Final = False
    ZK_SSL_PROTOCOL: Final = "TLSv1.2"
    ZK_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM: Final = "HTTPS"
    ZK_SSL_CRL_ENABLE: Final = False
    ZK_SSL_OCSP_ENABLE: Final = False

    # General
    BROKER_ID_GENERATION_ENABLE: Final = True
    MAX_RESERVED_BROKER_ID: Final = 1000
    BROKER_ID: Final = -1
    MESSAGE_MAX_BYTES: Final = 1024 * 1024 + _LOG_OVERHEAD
    NUM_NETWORK_THREADS: Final = 3
    NUM_IO_THREADS: Final = 8
    BACKGROUND_THREADS: Final = 10
    QUEUED_MAX_REQUESTS: Final = 500
    QUEUED_MAX_REQUEST_BYTES: Final = -1
    INITIAL_BROKER_REGISTRATION_TIMEOUT_MS: Final = 60000
    BROKER_HEARTBEAT_INTERVAL_MS: Final = 2000
    BROKER_SESSION_TIMEOUT_MS: Final = 9000
    EMPTY_NODE_ID: Final = -1

    # Authorizer
    AUTHORIZER_CLASS_NAME: Final = ""

    # Socket server
    PORT: Final = 9092
    HOST_NAME: Final = ""
    LISTENER_SECURITY_PROTOCOL_MAP: Final = ",".join(
        f"{ln.value}:{sp.name}" for ln, sp in DEFAULT_SECURITY_PROTOCOL_MAP.items()
    )
    SOCKET_SEND_BUFFER_BYTES: Final = 100 * 1024
    SOCKET_RECEIVE_BUFFER_BYTES: Final = 100 * 1024
    SOCKET_REQUEST_MAX_BYTES: Final = 100 * 1024 * 1024
    MAX_CONNECTIONS_PER_IP: Final = _INT_MAX
    MAX_CONNECTIONS_PER_IP_OVERRIDES: Final = ""
    MAX_CONNECTIONS: Final = _INT_MAX
    MAX_CONNECTION_CREATION_RATE: Final = _INT_MAX
    CONNECTIONS_MAX_IDLE_MS: Final = 10 * 60 * 1000
    REQUEST_TIMEOUT_MS: Final = 30000
    CONNECTION_SETUP_TIMEOUT_MS: Final = 10 * 1000
    CONNECTION_SETUP_TIMEOUT_MAX_MS: Final = 30 * 1000
    FAILED_AUTHENTICATION_DELAY_MS: Final = 100

    # Log
    NUM_PARTITIONS: Final = 1
    LOG_DIR: Final = "/tmp/kafka-logs"
    LOG_SEGMENT_BYTES: Final = 1 * 1024 * 1024 * 1024
    LOG_ROLL_HOURS: Final = 24 * 7
    LOG_ROLL_JITTER_HOURS: Final = 0
    LOG_RETENTION_HOURS: Final = 24 * 7
    LOG_RETENTION_BYTES: Final = -1
    LOG_CLEANUP_INTERVAL_MS: Final = 5 * 60 * 1000
    DELETE: Final = "delete"
    COMPACT: Final = "compact"
    LOG_CLEANUP_POLICY: Final = DELETE
    LOG_CLEANER_THREADS: Final = 1
    LOG_CLEANER_IO_MAX_BYTES_PER_SECOND: Final = 1.7976931348623157e308  # Double.MaxValue
    LOG_CLEANER_DEDUPE_BUFFER_SIZE: Final = 128 * 1024 * 1024
    LOG_CLEANER_IO_BUFFER_SIZE: Final = 512 * 1024
    LOG_CLEANER_DEDUPE_BUFFER_LOAD_FACTOR: Final = 0.9
    LOG_CLEANER_BACKOFF_MS: Final = 15 * 1000
    LOG_CLEANER_MIN_CLEAN_RATIO: Final = 0.5
    LOG_CLEANER_ENABLE: Final = True
    LOG_CLEANER_DELETE_RETENTION_MS: Final = 24 * 60 * 60 * 1000
    LOG_CLEANER_MIN_COMPACTION_LAG_MS: Final = 0
    LOG_CLEANER_MAX_COMPACTION_LAG_MS: Final = _LONG_MAX
    LOG_INDEX_SIZE_MAX_BYTES: Final = 10 * 1024 * 1024
    LOG_INDEX_INTERVAL_BYTES: Final = 4096
    LOG_FLUSH_INTERVAL_MESSAGES: Final = _LONG_MAX
    LOG_DELETE_DELAY_MS: Final = 60000
    LOG_FLUSH_SCHEDULER_INTERVAL_MS: Final = _LONG_MAX
    LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS: Final = 60000
    LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS: Final = 60000
    LOG_PRE_ALLOCATE_ENABLE: Final = False
    LOG_MESSAGE_TIMESTAMP_TYPE: Final = "CreateTime"
    LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS: Final = _LONG_MAX
    NUM_RECOVERY_THREADS_PER_DATA_DIR: Final = 1
    AUTO_CREATE_TOPICS_ENABLE: Final = True
    MIN_IN_SYNC_REPLICAS: Final = 1
    MESSAGE_DOWN_CONVERSION_ENABLE: Final = True

    # Replication
    CONTROLLER_SOCKET_TIMEOUT_MS: Final = REQUEST_TIMEOUT_MS
    CONTROLLER_MESSAGE_QUEUE_SIZE: Final = _INT_MAX
    DEFAULT_REPLICATION_FACTOR: Final = 1
    REPLICA_LAG_TIME_MAX_MS: Final = 30000
    REPLICA_SOCKET_TIMEOUT_MS: Final = 30 * 1000
    REPLICA_SOCKET_RECEIVE_BUFFER_BYTES: Final = 64 * 1024
    REPLICA_FETCH_MAX_BYTES: Final = 1024 * 1024
    REPLICA_FETCH_WAIT_MAX_MS: Final = 500
    REPLICA_FETCH_MIN_BYTES: Final = 1
    REPLICA_FETCH_RESPONSE_MAX_BYTES: Final = 10 * 1024 * 1024
    NUM_REPLICA_FETCHERS: Final = 1
    REPLICA_FETCH_BACKOFF_MS: Final = 1000
    REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS: Final = 5000
    FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS: Final = 1000
    PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS: Final = 1000
    DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS: Final = 1
    AUTO_LEADER_REBALANCE_ENABLE: Final = True
    LEADER_IMBALANCE_PER_BROKER_PERCENTAGE: Final = 10
    LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS: Final = 300
    UNCLEAN_LEADER_ELECTION_ENABLE: Final = False
    INTER_BROKER_SECURITY_PROTOCOL: Final = SecurityProtocol.PLAINTEXT.name
    INTER_BROKER_PROTOCOL_VERSION: Final = str(ApiVersion.latest_version)
    LOG_MESSAGE_FORMAT_VERSION: Final = INTER_BROKER_PROTOCOL_VERSION

    # Controlled shutdown
    CONTROLLED_SHUTDOWN_MAX_RETRIES: Final = 3
    CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS: Final = 5000
    CONTROLLED_SHUTDOWN_ENABLE: Final = True

    # Group coordinator
    GROUP_MIN_SESSION_TIMEOUT_MS: Final = 6000
    GROUP_MAX_SESSION_TIMEOUT_MS: Final = 1800000
    GROUP_INITIAL_REBALANCE_DELAY_MS: Final = 3000
    GROUP_MAX_SIZE: Final = _INT_MAX

    # Offset management (OffsetConfig's defaults)
    OFFSET_METADATA_MAX_SIZE: Final = 4096
    OFFSETS_LOAD_BUFFER_SIZE: Final = 5 * 1024 * 1024
    OFFSETS_TOPIC_REPLICATION_FACTOR: Final = 3
    OFFSETS_TOPIC_PARTITIONS: Final = 50
    OFFSETS_TOPIC_SEGMENT_BYTES: Final = 100 * 1024 * 1024
    OFFSETS_TOPIC_COMPRESSION_CODEC: Final = 0
    OFFSETS_RETENTION_MINUTES: Final = 7 * 24 * 60
    OFFSETS_RETENTION_CHECK_INTERVAL_MS: Final = 600000
    OFFSET_COMMIT_TIMEOUT_MS: Final = 5000
    OFFSET_COMMIT_REQUIRED_ACKS: Final = -1

    # Transaction management (TransactionStateManager's and TransactionLog's defaults)
    TRANSACTIONAL_ID_EXPIRATION_MS: Final = 7 * 24 * 60 * 60 * 1000
    TRANSACTIONS_MAX_TIMEOUT_MS: Final = 15 * 60 * 1000
    TRANSACTIONS_TOPIC_MIN_ISR: Final = 2
    TRANSACTIONS_LOAD_BUFFER_SIZE: Final = 5 * 1024 * 1024
    TRANSACTIONS_TOPIC_REPLICATION_FACTOR: Final = 3
    TRANSACTIONS_TOPIC_PARTITIONS: Final = 50
    TRANSACTIONS_TOPIC_SEGMENT_BYTES: Final = 100 * 1024 * 1024
    TRANSACTIONS_ABORT_TIMED_OUT_TRANSACTIONS_CLEANUP_INTERVAL_MS: Final = 10 * 1000
    TRANSACTIONS_REMOVE_EXPIRED_TRANSACTIONS_CLEANUP_INTERVAL_MS: Final = 60 * 60 * 1000

    # Fetch
    MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS: Final = 1000
    FETCH_MAX_BYTES: Final = 55 * 1024 * 1024

    # Quotas (ClientQuotaManagerConfig / ReplicationQuotaManagerConfig)
    PRODUCER_QUOTA_BYTES_PER_SECOND_DEFAULT: Final = _LONG_MAX
    CONSUMER_QUOTA_BYTES_PER_SECOND_DEFAULT: Final = _LONG_MAX
    NUM_QUOTA_SAMPLES: Final = 11
    QUOTA_WINDOW_SIZE_SECONDS: Final = 1
    NUM_REPLICATION_QUOTA_SAMPLES: Final = 11
    REPLICATION_QUOTA_WINDOW_SIZE_SECONDS: Final = 1
    NUM_ALTER_LOG_DIRS_REPLICATION_QUOTA_SAMPLES: Final = 11
    ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS: Final = 1
    NUM_CONTROLLER_QUOTA_SAMPLES: Final = 11
    CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS: Final = 1

    # Transactions, topics, compression
    TRANSACTIONAL_ID_EXPIRATION_MS_DEFAULT: Final = 604800000
    DELETE_TOPIC_ENABLE: Final = True
    COMPRESSION_TYPE: Final = "producer"
    MAX_ID_MAP_SNAPSHOTS: Final = 2

    # Metrics
    METRIC_NUM_SAMPLES: Final = 2
    METRIC_SAMPLE_WINDOW_MS: Final = 30000
    METRIC_REPORTER_CLASSES: Final = ""
    METRIC_RECORDING_LEVEL: Final = "INFO"
    KAFKA_METRIC_REPORTER_CLASSES: Final = ""
    KAFKA_METRICS_POLLING_INTERVAL_SECONDS: Final = 10
    METRICS_PROMETHEUS_PORT: Final = 0
    METRICS_PROMETHEUS_HOST: Final = ""

    # SSL (Java 11+ values of SslConfigs' defaults)
    SSL_PROTOCOL: Final = "TLSv1.3"
    SSL_ENABLED_PROTOCOLS: Final = "TLSv1.2,TLSv1.3"
    SSL_KEYSTORE_TYPE: Final = "JKS"
    SSL_TRUSTSTORE_TYPE: Final = "JKS"
    SSL_KEY_MANAGER_ALGORITHM: Final = "SunX509"
    SSL_TRUST_MANAGER_ALGORITHM: Final = "PKIX"
    SSL_ENDPOINT_IDENTIFICATION_ALGORITHM: Final = "https"
    SSL_CLIENT_AUTHENTICATION: Final = "none"
    SSL_CLIENT_AUTHENTICATION_VALID_VALUES: Final = ("required", "requested", "none")
    SSL_PRINCIPAL_MAPPING_RULES: Final = "DEFAULT"

    # General security
    CONNECTIONS_MAX_REAUTH_MS_DEFAULT: Final = 0
    DEFAULT_SERVER_MAX_MAX_RECEIVE_SIZE: Final = 524288

    # SASL
    SASL_MECHANISM_INTER_BROKER_PROTOCOL: Final = "GSSAPI"
    SASL_ENABLED_MECHANISMS: Final = ("GSSAPI",)
    SASL_KERBEROS_KINIT_CMD: Final = "/usr/bin/kinit"
    SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR: Final = 0.80
    SASL_KERBEROS_TICKET_RENEW_JITTER: Final = 0.05
    SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN: Final = 1 * 60 * 1000
    SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES: Final = ("DEFAULT",)
    SASL_LOGIN_REFRESH_WINDOW_FACTOR: Final = 0.80
    SASL_LOGIN_REFRESH_WINDOW_JITTER: Final = 0.05
    SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS: Final = 60
    SASL_LOGIN_REFRESH_BUFFER_SECONDS: Final = 300

    # Delegation tokens
    DELEGATION_TOKEN_MAX_LIFE_TIME_MS_DEFAULT: Final = 7 * 24 * 60 * 60 * 1000
    DELEGATION_TOKEN_EXPIRY_TIME_MS_DEFAULT: Final = 24 * 60 * 60 * 1000
    DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS_DEFAULT: Final = 1 * 60 * 60 * 1000

    # Password encoder for dynamic configs
    PASSWORD_ENCODER_CIPHER_ALGORITHM: Final = "AES/CBC/PKCS5Padding"
    PASSWORD_ENCODER_KEY_LENGTH: Final = 128
    PASSWORD_ENCODER_ITERATIONS: Final = 4096

    # Raft quorum (RaftConfig's defaults; internal keys in 2.8)
    QUORUM_VOTERS: Final = ()
    QUORUM_ELECTION_TIMEOUT_MS: Final = 1000
    QUORUM_FETCH_TIMEOUT_MS: Final = 2000
    QUORUM_ELECTION_BACKOFF_MS: Final = 1000
    QUORUM_LINGER_MS: Final = 25
    QUORUM_REQUEST_TIMEOUT_MS: Final = 2000
    QUORUM_RETRY_BACKOFF_MS: Final = 20


#: BrokerCompressionCodec.brokerCompressionOptions, in Kafka's order.
BROKER_COMPRESSION_OPTIONS: Final = ("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")


# DynamicBrokerConfig.ListenerConfigRegex / ListenerMechanismConfigs.
_LISTENER_CONFIG_REGEX: Final = re.compile(r"listener\.name\.[^.]*\.(.*)")
_LISTENER_MECHANISM_CONFIGS: Final = (
    "sasl.jaas.config",
    "sasl.login.callback.handler.class",
    "sasl.login.class",
    "sasl.server.callback.handler.class",
    "connections.max.reauth.ms",
)
# PORT: the keys of DynamicConfig.Broker (broker-only dynamic configs outside KafkaConfig's ConfigDef) with their
# types. DynamicConfig lives in kafka/server/config_handler.py, which imports this module, so they are named here.
_DYNAMIC_BROKER_CONFIG_TYPES: Final = {
    "leader.replication.throttled.rate": Type.LONG,
    "follower.replication.throttled.rate": Type.LONG,
    "replica.alter.log.dirs.io.max.bytes.per.second": Type.LONG,
}


def _broker_config_synonyms(name: str, match_listener_override: bool) -> list[str]:
    """DynamicBrokerConfig.brokerConfigSynonyms: the broker keys that set the same value, in priority order."""
    roll = ("log.roll.ms", "log.roll.hours")
    jitter = ("log.roll.jitter.ms", "log.roll.jitter.hours")
    retention = ("log.retention.ms", "log.retention.minutes", "log.retention.hours")
    if name in roll:
        return list(roll)
    if name in jitter:
        return list(jitter)
    if name == "log.flush.interval.ms":
        return ["log.flush.interval.ms", "log.flush.scheduler.interval.ms"]
    if name in retention:
        return list(retention)
    m = _LISTENER_CONFIG_REGEX.fullmatch(name)
    if m is not None and match_listener_override:
        base_name = m.group(1)
        mechanism_config = next((c for c in _LISTENER_MECHANISM_CONFIGS if base_name.endswith(c)), None)
        return [name, mechanism_config if mechanism_config is not None else base_name]
    return [name]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConfigException(f"requirement failed: {message}")


# ---- KafkaConfig --------------------------------------------------------------------------------


class KafkaConfig(AbstractConfig):
    """The broker configuration built from `props` (a dict of strings or typed values)."""

    kafka_logger_name = "kafka.server.KafkaConfig"

    _LOG_CONFIG_PREFIX: Final = "log."

    # ZooKeeper
    ZK_CONNECT_PROP: Final = "zookeeper.connect"
    ZK_SESSION_TIMEOUT_MS_PROP: Final = "zookeeper.session.timeout.ms"
    ZK_CONNECTION_TIMEOUT_MS_PROP: Final = "zookeeper.connection.timeout.ms"
    ZK_SYNC_TIME_MS_PROP: Final = "zookeeper.sync.time.ms"
    ZK_ENABLE_SECURE_ACLS_PROP: Final = "zookeeper.set.acl"
    ZK_MAX_IN_FLIGHT_REQUESTS_PROP: Final = "zookeeper.max.in.flight.requests"
    ZK_SSL_CLIENT_ENABLE_PROP: Final = "zookeeper.ssl.client.enable"
    ZK_CLIENT_CNXN_SOCKET_PROP: Final = "zookeeper.clientCnxnSocket"
    ZK_SSL_KEY_STORE_LOCATION_PROP: Final = "zookeeper.ssl.keystore.location"
    ZK_SSL_KEY_STORE_PASSWORD_PROP: Final = "zookeeper.ssl.keystore.password"
    ZK_SSL_KEY_STORE_TYPE_PROP: Final = "zookeeper.ssl.keystore.type"
    ZK_SSL_TRUST_STORE_LOCATION_PROP: Final = "zookeeper.ssl.truststore.location"
    ZK_SSL_TRUST_STORE_PASSWORD_PROP: Final = "zookeeper.ssl.truststore.password"
    ZK_SSL_TRUST_STORE_TYPE_PROP: Final = "zookeeper.ssl.truststore.type"
    ZK_SSL_PROTOCOL_PROP: Final = "zookeeper.ssl.protocol"
    ZK_SSL_ENABLED_PROTOCOLS_PROP: Final = "zookeeper.ssl.enabled.protocols"
    ZK_SSL_CIPHER_SUITES_PROP: Final = "zookeeper.ssl.cipher.suites"
    ZK_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_PROP: Final = "zookeeper.ssl.endpoint.identification.algorithm"
    ZK_SSL_CRL_ENABLE_PROP: Final = "zookeeper.ssl.crl.enable"
    ZK_SSL_OCSP_ENABLE_PROP: Final = "zookeeper.ssl.ocsp.enable"

    # General
    BROKER_ID_GENERATION_ENABLE_PROP: Final = "broker.id.generation.enable"
    MAX_RESERVED_BROKER_ID_PROP: Final = "reserved.broker.max.id"
    BROKER_ID_PROP: Final = "broker.id"
    MESSAGE_MAX_BYTES_PROP: Final = "message.max.bytes"
    NUM_NETWORK_THREADS_PROP: Final = "num.network.threads"
    NUM_IO_THREADS_PROP: Final = "num.io.threads"
    BACKGROUND_THREADS_PROP: Final = "background.threads"
    NUM_REPLICA_ALTER_LOG_DIRS_THREADS_PROP: Final = "num.replica.alter.log.dirs.threads"
    QUEUED_MAX_REQUESTS_PROP: Final = "queued.max.requests"
    QUEUED_MAX_BYTES_PROP: Final = "queued.max.request.bytes"
    REQUEST_TIMEOUT_MS_PROP: Final = "request.timeout.ms"
    CONNECTION_SETUP_TIMEOUT_MS_PROP: Final = "socket.connection.setup.timeout.ms"
    CONNECTION_SETUP_TIMEOUT_MAX_MS_PROP: Final = "socket.connection.setup.timeout.max.ms"

    # KRaft (internal in 2.8)
    PROCESS_ROLES_PROP: Final = "process.roles"
    INITIAL_BROKER_REGISTRATION_TIMEOUT_MS_PROP: Final = "initial.broker.registration.timeout.ms"
    BROKER_HEARTBEAT_INTERVAL_MS_PROP: Final = "broker.heartbeat.interval.ms"
    BROKER_SESSION_TIMEOUT_MS_PROP: Final = "broker.session.timeout.ms"
    NODE_ID_PROP: Final = "node.id"
    METADATA_LOG_DIR_PROP: Final = "metadata.log.dir"
    CONTROLLER_LISTENER_NAMES_PROP: Final = "controller.listener.names"
    SASL_MECHANISM_CONTROLLER_PROTOCOL_PROP: Final = "sasl.mechanism.controller.protocol"
    QUORUM_VOTERS_PROP: Final = "controller.quorum.voters"
    QUORUM_ELECTION_TIMEOUT_MS_PROP: Final = "controller.quorum.election.timeout.ms"
    QUORUM_FETCH_TIMEOUT_MS_PROP: Final = "controller.quorum.fetch.timeout.ms"
    QUORUM_ELECTION_BACKOFF_MAX_MS_PROP: Final = "controller.quorum.election.backoff.max.ms"
    QUORUM_LINGER_MS_PROP: Final = "controller.quorum.append.linger.ms"
    QUORUM_REQUEST_TIMEOUT_MS_PROP: Final = "controller.quorum.request.timeout.ms"
    QUORUM_RETRY_BACKOFF_MS_PROP: Final = "controller.quorum.retry.backoff.ms"

    # Kafka 3.x, internal
    UNSTABLE_API_VERSIONS_ENABLE_PROP: Final = "unstable.api.versions.enable"

    # Authorizer
    AUTHORIZER_CLASS_NAME_PROP: Final = "authorizer.class.name"

    # Socket server
    PORT_PROP: Final = "port"
    HOST_NAME_PROP: Final = "host.name"
    LISTENERS_PROP: Final = "listeners"
    ADVERTISED_HOST_NAME_PROP: Final = "advertised.host.name"
    ADVERTISED_PORT_PROP: Final = "advertised.port"
    ADVERTISED_LISTENERS_PROP: Final = "advertised.listeners"
    LISTENER_SECURITY_PROTOCOL_MAP_PROP: Final = "listener.security.protocol.map"
    CONTROL_PLANE_LISTENER_NAME_PROP: Final = "control.plane.listener.name"
    SOCKET_SEND_BUFFER_BYTES_PROP: Final = "socket.send.buffer.bytes"
    SOCKET_RECEIVE_BUFFER_BYTES_PROP: Final = "socket.receive.buffer.bytes"
    SOCKET_REQUEST_MAX_BYTES_PROP: Final = "socket.request.max.bytes"
    MAX_CONNECTIONS_PER_IP_PROP: Final = "max.connections.per.ip"
    MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP: Final = "max.connections.per.ip.overrides"
    MAX_CONNECTIONS_PROP: Final = "max.connections"
    MAX_CONNECTION_CREATION_RATE_PROP: Final = "max.connection.creation.rate"
    CONNECTIONS_MAX_IDLE_MS_PROP: Final = "connections.max.idle.ms"
    FAILED_AUTHENTICATION_DELAY_MS_PROP: Final = "connection.failed.authentication.delay.ms"

    # Rack
    RACK_PROP: Final = "broker.rack"

    # Log
    NUM_PARTITIONS_PROP: Final = "num.partitions"
    LOG_DIRS_PROP: Final = "log.dirs"
    LOG_DIR_PROP: Final = "log.dir"
    LOG_SEGMENT_BYTES_PROP: Final = "log.segment.bytes"
    LOG_ROLL_TIME_MILLIS_PROP: Final = "log.roll.ms"
    LOG_ROLL_TIME_HOURS_PROP: Final = "log.roll.hours"
    LOG_ROLL_TIME_JITTER_MILLIS_PROP: Final = "log.roll.jitter.ms"
    LOG_ROLL_TIME_JITTER_HOURS_PROP: Final = "log.roll.jitter.hours"
    LOG_RETENTION_TIME_MILLIS_PROP: Final = "log.retention.ms"
    LOG_RETENTION_TIME_MINUTES_PROP: Final = "log.retention.minutes"
    LOG_RETENTION_TIME_HOURS_PROP: Final = "log.retention.hours"
    LOG_RETENTION_BYTES_PROP: Final = "log.retention.bytes"
    LOG_CLEANUP_INTERVAL_MS_PROP: Final = "log.retention.check.interval.ms"
    LOG_CLEANUP_POLICY_PROP: Final = "log.cleanup.policy"
    LOG_CLEANER_THREADS_PROP: Final = "log.cleaner.threads"
    LOG_CLEANER_IO_MAX_BYTES_PER_SECOND_PROP: Final = "log.cleaner.io.max.bytes.per.second"
    LOG_CLEANER_DEDUPE_BUFFER_SIZE_PROP: Final = "log.cleaner.dedupe.buffer.size"
    LOG_CLEANER_IO_BUFFER_SIZE_PROP: Final = "log.cleaner.io.buffer.size"
    LOG_CLEANER_DEDUPE_BUFFER_LOAD_FACTOR_PROP: Final = "log.cleaner.io.buffer.load.factor"
    LOG_CLEANER_BACKOFF_MS_PROP: Final = "log.cleaner.backoff.ms"
    LOG_CLEANER_MIN_CLEAN_RATIO_PROP: Final = "log.cleaner.min.cleanable.ratio"
    LOG_CLEANER_ENABLE_PROP: Final = "log.cleaner.enable"
    LOG_CLEANER_DELETE_RETENTION_MS_PROP: Final = "log.cleaner.delete.retention.ms"
    LOG_CLEANER_MIN_COMPACTION_LAG_MS_PROP: Final = "log.cleaner.min.compaction.lag.ms"
    LOG_CLEANER_MAX_COMPACTION_LAG_MS_PROP: Final = "log.cleaner.max.compaction.lag.ms"
    LOG_INDEX_SIZE_MAX_BYTES_PROP: Final = "log.index.size.max.bytes"
    LOG_INDEX_INTERVAL_BYTES_PROP: Final = "log.index.interval.bytes"
    LOG_FLUSH_INTERVAL_MESSAGES_PROP: Final = "log.flush.interval.messages"
    LOG_DELETE_DELAY_MS_PROP: Final = "log.segment.delete.delay.ms"
    LOG_FLUSH_SCHEDULER_INTERVAL_MS_PROP: Final = "log.flush.scheduler.interval.ms"
    LOG_FLUSH_INTERVAL_MS_PROP: Final = "log.flush.interval.ms"
    LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_PROP: Final = "log.flush.offset.checkpoint.interval.ms"
    LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS_PROP: Final = "log.flush.start.offset.checkpoint.interval.ms"
    LOG_PRE_ALLOCATE_PROP: Final = "log.preallocate"
    LOG_MESSAGE_FORMAT_VERSION_PROP: Final = "log.message.format.version"
    LOG_MESSAGE_TIMESTAMP_TYPE_PROP: Final = "log.message.timestamp.type"
    LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP: Final = "log.message.timestamp.difference.max.ms"
    LOG_MAX_ID_MAP_SNAPSHOTS_PROP: Final = "log.max.id.map.snapshots"
    NUM_RECOVERY_THREADS_PER_DATA_DIR_PROP: Final = "num.recovery.threads.per.data.dir"
    AUTO_CREATE_TOPICS_ENABLE_PROP: Final = "auto.create.topics.enable"
    MIN_IN_SYNC_REPLICAS_PROP: Final = "min.insync.replicas"
    CREATE_TOPIC_POLICY_CLASS_NAME_PROP: Final = "create.topic.policy.class.name"
    ALTER_CONFIG_POLICY_CLASS_NAME_PROP: Final = "alter.config.policy.class.name"
    LOG_MESSAGE_DOWN_CONVERSION_ENABLE_PROP: Final = "log.message.downconversion.enable"

    # Replication
    CONTROLLER_SOCKET_TIMEOUT_MS_PROP: Final = "controller.socket.timeout.ms"
    DEFAULT_REPLICATION_FACTOR_PROP: Final = "default.replication.factor"
    REPLICA_LAG_TIME_MAX_MS_PROP: Final = "replica.lag.time.max.ms"
    REPLICA_SOCKET_TIMEOUT_MS_PROP: Final = "replica.socket.timeout.ms"
    REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_PROP: Final = "replica.socket.receive.buffer.bytes"
    REPLICA_FETCH_MAX_BYTES_PROP: Final = "replica.fetch.max.bytes"
    REPLICA_FETCH_WAIT_MAX_MS_PROP: Final = "replica.fetch.wait.max.ms"
    REPLICA_FETCH_MIN_BYTES_PROP: Final = "replica.fetch.min.bytes"
    REPLICA_FETCH_RESPONSE_MAX_BYTES_PROP: Final = "replica.fetch.response.max.bytes"
    REPLICA_FETCH_BACKOFF_MS_PROP: Final = "replica.fetch.backoff.ms"
    NUM_REPLICA_FETCHERS_PROP: Final = "num.replica.fetchers"
    REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS_PROP: Final = "replica.high.watermark.checkpoint.interval.ms"
    FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP: Final = "fetch.purgatory.purge.interval.requests"
    PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP: Final = "producer.purgatory.purge.interval.requests"
    DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP: Final = "delete.records.purgatory.purge.interval.requests"
    AUTO_LEADER_REBALANCE_ENABLE_PROP: Final = "auto.leader.rebalance.enable"
    LEADER_IMBALANCE_PER_BROKER_PERCENTAGE_PROP: Final = "leader.imbalance.per.broker.percentage"
    LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_PROP: Final = "leader.imbalance.check.interval.seconds"
    UNCLEAN_LEADER_ELECTION_ENABLE_PROP: Final = "unclean.leader.election.enable"
    INTER_BROKER_SECURITY_PROTOCOL_PROP: Final = "security.inter.broker.protocol"
    INTER_BROKER_PROTOCOL_VERSION_PROP: Final = "inter.broker.protocol.version"
    INTER_BROKER_LISTENER_NAME_PROP: Final = "inter.broker.listener.name"
    REPLICA_SELECTOR_CLASS_PROP: Final = "replica.selector.class"

    # Controlled shutdown
    CONTROLLED_SHUTDOWN_MAX_RETRIES_PROP: Final = "controlled.shutdown.max.retries"
    CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS_PROP: Final = "controlled.shutdown.retry.backoff.ms"
    CONTROLLED_SHUTDOWN_ENABLE_PROP: Final = "controlled.shutdown.enable"

    # Group coordinator
    GROUP_MIN_SESSION_TIMEOUT_MS_PROP: Final = "group.min.session.timeout.ms"
    GROUP_MAX_SESSION_TIMEOUT_MS_PROP: Final = "group.max.session.timeout.ms"
    GROUP_INITIAL_REBALANCE_DELAY_MS_PROP: Final = "group.initial.rebalance.delay.ms"
    GROUP_MAX_SIZE_PROP: Final = "group.max.size"

    # Offset management
    OFFSET_METADATA_MAX_SIZE_PROP: Final = "offset.metadata.max.bytes"
    OFFSETS_LOAD_BUFFER_SIZE_PROP: Final = "offsets.load.buffer.size"
    OFFSETS_TOPIC_REPLICATION_FACTOR_PROP: Final = "offsets.topic.replication.factor"
    OFFSETS_TOPIC_PARTITIONS_PROP: Final = "offsets.topic.num.partitions"
    OFFSETS_TOPIC_SEGMENT_BYTES_PROP: Final = "offsets.topic.segment.bytes"
    OFFSETS_TOPIC_COMPRESSION_CODEC_PROP: Final = "offsets.topic.compression.codec"
    OFFSETS_RETENTION_MINUTES_PROP: Final = "offsets.retention.minutes"
    OFFSETS_RETENTION_CHECK_INTERVAL_MS_PROP: Final = "offsets.retention.check.interval.ms"
    OFFSET_COMMIT_TIMEOUT_MS_PROP: Final = "offsets.commit.timeout.ms"
    OFFSET_COMMIT_REQUIRED_ACKS_PROP: Final = "offsets.commit.required.acks"

    # Transaction management
    TRANSACTIONAL_ID_EXPIRATION_MS_PROP: Final = "transactional.id.expiration.ms"
    TRANSACTIONS_MAX_TIMEOUT_MS_PROP: Final = "transaction.max.timeout.ms"
    TRANSACTIONS_TOPIC_MIN_ISR_PROP: Final = "transaction.state.log.min.isr"
    TRANSACTIONS_LOAD_BUFFER_SIZE_PROP: Final = "transaction.state.log.load.buffer.size"
    TRANSACTIONS_TOPIC_PARTITIONS_PROP: Final = "transaction.state.log.num.partitions"
    TRANSACTIONS_TOPIC_SEGMENT_BYTES_PROP: Final = "transaction.state.log.segment.bytes"
    TRANSACTIONS_TOPIC_REPLICATION_FACTOR_PROP: Final = "transaction.state.log.replication.factor"
    TRANSACTIONS_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_PROP: Final = (
        "transaction.abort.timed.out.transaction.cleanup.interval.ms"
    )
    TRANSACTIONS_REMOVE_EXPIRED_TRANSACTIONAL_ID_CLEANUP_INTERVAL_MS_PROP: Final = (
        "transaction.remove.expired.transaction.cleanup.interval.ms"
    )

    # Fetch (Scala names these without the Prop suffix)
    MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS: Final = "max.incremental.fetch.session.cache.slots"
    FETCH_MAX_BYTES: Final = "fetch.max.bytes"

    # Quotas
    PRODUCER_QUOTA_BYTES_PER_SECOND_DEFAULT_PROP: Final = "quota.producer.default"
    CONSUMER_QUOTA_BYTES_PER_SECOND_DEFAULT_PROP: Final = "quota.consumer.default"
    NUM_QUOTA_SAMPLES_PROP: Final = "quota.window.num"
    NUM_REPLICATION_QUOTA_SAMPLES_PROP: Final = "replication.quota.window.num"
    NUM_ALTER_LOG_DIRS_REPLICATION_QUOTA_SAMPLES_PROP: Final = "alter.log.dirs.replication.quota.window.num"
    NUM_CONTROLLER_QUOTA_SAMPLES_PROP: Final = "controller.quota.window.num"
    QUOTA_WINDOW_SIZE_SECONDS_PROP: Final = "quota.window.size.seconds"
    REPLICATION_QUOTA_WINDOW_SIZE_SECONDS_PROP: Final = "replication.quota.window.size.seconds"
    ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS_PROP: Final = (
        "alter.log.dirs.replication.quota.window.size.seconds"
    )
    CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS_PROP: Final = "controller.quota.window.size.seconds"
    CLIENT_QUOTA_CALLBACK_CLASS_PROP: Final = "client.quota.callback.class"

    DELETE_TOPIC_ENABLE_PROP: Final = "delete.topic.enable"
    COMPRESSION_TYPE_PROP: Final = "compression.type"

    # Metrics
    METRIC_SAMPLE_WINDOW_MS_PROP: Final = "metrics.sample.window.ms"
    METRIC_NUM_SAMPLES_PROP: Final = "metrics.num.samples"
    METRIC_REPORTER_CLASSES_PROP: Final = "metric.reporters"
    METRIC_RECORDING_LEVEL_PROP: Final = "metrics.recording.level"
    KAFKA_METRICS_REPORTER_CLASSES_PROP: Final = "kafka.metrics.reporters"
    KAFKA_METRICS_POLLING_INTERVAL_SECONDS_PROP: Final = "kafka.metrics.polling.interval.secs"
    # PORT: not Kafka's: the broker's own Prometheus endpoint (GET /metrics; 0 leaves it off), which takes the place
    # of the JMX exporter agent Kafka needs for the same names (issue 16).
    METRICS_PROMETHEUS_PORT_PROP: Final = "metrics.prometheus.port"
    METRICS_PROMETHEUS_HOST_PROP: Final = "metrics.prometheus.host"

    # Common security
    PRINCIPAL_BUILDER_CLASS_PROP: Final = "principal.builder.class"
    CONNECTIONS_MAX_REAUTH_MS_PROP: Final = "connections.max.reauth.ms"
    SASL_SERVER_MAX_RECEIVE_SIZE_PROP: Final = "sasl.server.max.receive.size"
    SECURITY_PROVIDER_CLASS_PROP: Final = "security.providers"

    # SSL
    SSL_PROTOCOL_PROP: Final = "ssl.protocol"
    SSL_PROVIDER_PROP: Final = "ssl.provider"
    SSL_CIPHER_SUITES_PROP: Final = "ssl.cipher.suites"
    SSL_ENABLED_PROTOCOLS_PROP: Final = "ssl.enabled.protocols"
    SSL_KEYSTORE_TYPE_PROP: Final = "ssl.keystore.type"
    SSL_KEYSTORE_LOCATION_PROP: Final = "ssl.keystore.location"
    SSL_KEYSTORE_PASSWORD_PROP: Final = "ssl.keystore.password"
    SSL_KEY_PASSWORD_PROP: Final = "ssl.key.password"
    SSL_KEYSTORE_KEY_PROP: Final = "ssl.keystore.key"
    SSL_KEYSTORE_CERTIFICATE_CHAIN_PROP: Final = "ssl.keystore.certificate.chain"
    SSL_TRUSTSTORE_TYPE_PROP: Final = "ssl.truststore.type"
    SSL_TRUSTSTORE_LOCATION_PROP: Final = "ssl.truststore.location"
    SSL_TRUSTSTORE_PASSWORD_PROP: Final = "ssl.truststore.password"
    SSL_TRUSTSTORE_CERTIFICATES_PROP: Final = "ssl.truststore.certificates"
    SSL_KEY_MANAGER_ALGORITHM_PROP: Final = "ssl.keymanager.algorithm"
    SSL_TRUST_MANAGER_ALGORITHM_PROP: Final = "ssl.trustmanager.algorithm"
    SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_PROP: Final = "ssl.endpoint.identification.algorithm"
    SSL_SECURE_RANDOM_IMPLEMENTATION_PROP: Final = "ssl.secure.random.implementation"
    SSL_CLIENT_AUTH_PROP: Final = "ssl.client.auth"
    SSL_PRINCIPAL_MAPPING_RULES_PROP: Final = "ssl.principal.mapping.rules"
    SSL_ENGINE_FACTORY_CLASS_PROP: Final = "ssl.engine.factory.class"

    # SASL
    SASL_MECHANISM_INTER_BROKER_PROTOCOL_PROP: Final = "sasl.mechanism.inter.broker.protocol"
    SASL_JAAS_CONFIG_PROP: Final = "sasl.jaas.config"
    SASL_ENABLED_MECHANISMS_PROP: Final = "sasl.enabled.mechanisms"
    SASL_SERVER_CALLBACK_HANDLER_CLASS_PROP: Final = "sasl.server.callback.handler.class"
    SASL_CLIENT_CALLBACK_HANDLER_CLASS_PROP: Final = "sasl.client.callback.handler.class"
    SASL_LOGIN_CLASS_PROP: Final = "sasl.login.class"
    SASL_LOGIN_CALLBACK_HANDLER_CLASS_PROP: Final = "sasl.login.callback.handler.class"
    SASL_KERBEROS_SERVICE_NAME_PROP: Final = "sasl.kerberos.service.name"
    SASL_KERBEROS_KINIT_CMD_PROP: Final = "sasl.kerberos.kinit.cmd"
    SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR_PROP: Final = "sasl.kerberos.ticket.renew.window.factor"
    SASL_KERBEROS_TICKET_RENEW_JITTER_PROP: Final = "sasl.kerberos.ticket.renew.jitter"
    SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN_PROP: Final = "sasl.kerberos.min.time.before.relogin"
    SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES_PROP: Final = "sasl.kerberos.principal.to.local.rules"
    SASL_LOGIN_REFRESH_WINDOW_FACTOR_PROP: Final = "sasl.login.refresh.window.factor"
    SASL_LOGIN_REFRESH_WINDOW_JITTER_PROP: Final = "sasl.login.refresh.window.jitter"
    SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS_PROP: Final = "sasl.login.refresh.min.period.seconds"
    SASL_LOGIN_REFRESH_BUFFER_SECONDS_PROP: Final = "sasl.login.refresh.buffer.seconds"

    # Delegation tokens
    DELEGATION_TOKEN_SECRET_KEY_ALIAS_PROP: Final = "delegation.token.master.key"
    DELEGATION_TOKEN_SECRET_KEY_PROP: Final = "delegation.token.secret.key"
    DELEGATION_TOKEN_MAX_LIFE_TIME_PROP: Final = "delegation.token.max.lifetime.ms"
    DELEGATION_TOKEN_EXPIRY_TIME_MS_PROP: Final = "delegation.token.expiry.time.ms"
    DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS_PROP: Final = "delegation.token.expiry.check.interval.ms"

    # Password encoder for dynamic configs
    PASSWORD_ENCODER_SECRET_PROP: Final = "password.encoder.secret"
    PASSWORD_ENCODER_OLD_SECRET_PROP: Final = "password.encoder.old.secret"
    PASSWORD_ENCODER_KEY_FACTORY_ALGORITHM_PROP: Final = "password.encoder.keyfactory.algorithm"
    PASSWORD_ENCODER_CIPHER_ALGORITHM_PROP: Final = "password.encoder.cipher.algorithm"
    PASSWORD_ENCODER_KEY_LENGTH_PROP: Final = "password.encoder.key.length"
    PASSWORD_ENCODER_ITERATIONS_PROP: Final = "password.encoder.iterations"

    config_def: ClassVar[ConfigDef]

    # ---- companion-object functions -----------------------------------------------------------

    @classmethod
    def config_names(cls) -> list[str]:
        """Every broker config name, sorted."""
        return sorted(cls.config_def.names())

    @classmethod
    def default_values(cls) -> dict[str, Any]:
        """Every broker config that has a default, with its parsed default."""
        return cls.config_def.default_values()

    @classmethod
    def _type_of(cls, name: str) -> Type | None:
        key = cls.config_def.config_keys.get(name)
        return None if key is None else key.type

    @classmethod
    def config_type(cls, config_name: str) -> Type | None:
        """The type of a broker config (listener-prefixed names included), or None for an unknown name."""
        exact = cls._type_of(config_name) or _DYNAMIC_BROKER_CONFIG_TYPES.get(config_name)
        if exact is not None:
            return exact
        for synonym in _broker_config_synonyms(config_name, True):
            t = cls._type_of(synonym)
            if t is not None:
                return t
        return None

    @classmethod
    def loggable_value(cls, resource_type: ConfigResource.Type, name: str, value: str) -> str:
        """`value`, or `[hidden]` when the config may be secret (passwords and unknown names)."""
        if resource_type is ConfigResource.Type.BROKER:
            sensitive = cls.maybe_sensitive(cls.config_type(name))
        elif resource_type is ConfigResource.Type.TOPIC:
            from kafka.log.log_config import LogConfig  # log_config imports this module

            sensitive = cls.maybe_sensitive(LogConfig.config_type(name))
        elif resource_type is ConfigResource.Type.BROKER_LOGGER:
            sensitive = False
        else:
            sensitive = True
        return Password.HIDDEN if sensitive else value

    @classmethod
    def maybe_sensitive(cls, config_type: Type | None) -> bool:
        """Whether values of this type must be hidden (unknown types are treated as sensitive)."""
        return config_type is None or config_type is Type.PASSWORD

    @classmethod
    def from_props(
        cls, props: Mapping[str, Any], overrides: Mapping[str, Any] | None = None, do_log: bool = True
    ) -> KafkaConfig:
        """A KafkaConfig from `props`, with `overrides` (if given) laid over them."""
        merged = dict(props)
        if overrides:
            merged.update(overrides)
        return cls(merged, do_log)

    # ---- construction -------------------------------------------------------------------------

    def __init__(self, props: Mapping[str, Any], do_log: bool = True) -> None:
        super().__init__(KafkaConfig.config_def, props, do_log)
        self.props: dict[str, Any] = dict(props)
        self._current_config: KafkaConfig = self
        # Kafka's `dynamicConfig`; config_handler.dynamic_config_of creates it on first use.
        self.dynamic_config: DynamicBrokerConfig | None = None

        get_int, get_long, get_string = self.get_int, self.get_long, self.get_string
        get_boolean, get_double, get_list = self.get_boolean, self.get_double, self.get_list

        # ZooKeeper
        self.zk_connect: str | None = get_string(KafkaConfig.ZK_CONNECT_PROP)
        self.zk_session_timeout_ms: int = get_int(KafkaConfig.ZK_SESSION_TIMEOUT_MS_PROP)
        connection_timeout = get_int(KafkaConfig.ZK_CONNECTION_TIMEOUT_MS_PROP)
        self.zk_connection_timeout_ms: int = (
            connection_timeout if connection_timeout is not None else self.zk_session_timeout_ms
        )
        self.zk_sync_time_ms: int = get_int(KafkaConfig.ZK_SYNC_TIME_MS_PROP)
        self.zk_enable_secure_acls: bool = get_boolean(KafkaConfig.ZK_ENABLE_SECURE_ACLS_PROP)
        self.zk_max_in_flight_requests: int = get_int(KafkaConfig.ZK_MAX_IN_FLIGHT_REQUESTS_PROP)
        self.zk_ssl_client_enable: bool = get_boolean(KafkaConfig.ZK_SSL_CLIENT_ENABLE_PROP)
        self.zk_client_cnxn_socket_class_name: str | None = get_string(KafkaConfig.ZK_CLIENT_CNXN_SOCKET_PROP)
        self.zk_ssl_key_store_location: str | None = get_string(KafkaConfig.ZK_SSL_KEY_STORE_LOCATION_PROP)
        self.zk_ssl_key_store_password: Password | None = self.get_password(KafkaConfig.ZK_SSL_KEY_STORE_PASSWORD_PROP)
        self.zk_ssl_key_store_type: str | None = get_string(KafkaConfig.ZK_SSL_KEY_STORE_TYPE_PROP)
        self.zk_ssl_trust_store_location: str | None = get_string(KafkaConfig.ZK_SSL_TRUST_STORE_LOCATION_PROP)
        self.zk_ssl_trust_store_password: Password | None = self.get_password(
            KafkaConfig.ZK_SSL_TRUST_STORE_PASSWORD_PROP
        )
        self.zk_ssl_trust_store_type: str | None = get_string(KafkaConfig.ZK_SSL_TRUST_STORE_TYPE_PROP)
        self.zk_ssl_protocol: str = get_string(KafkaConfig.ZK_SSL_PROTOCOL_PROP)
        self.zk_ssl_enabled_protocols: list[str] | None = get_list(KafkaConfig.ZK_SSL_ENABLED_PROTOCOLS_PROP)
        self.zk_ssl_cipher_suites: list[str] | None = get_list(KafkaConfig.ZK_SSL_CIPHER_SUITES_PROP)
        self.zk_ssl_endpoint_identification_algorithm: str = get_string(
            KafkaConfig.ZK_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_PROP
        )
        self.zk_ssl_crl_enable: bool = get_boolean(KafkaConfig.ZK_SSL_CRL_ENABLE_PROP)
        self.zk_ssl_ocsp_enable: bool = get_boolean(KafkaConfig.ZK_SSL_OCSP_ENABLE_PROP)

        # General
        self.broker_id_generation_enable: bool = get_boolean(KafkaConfig.BROKER_ID_GENERATION_ENABLE_PROP)
        self.max_reserved_broker_id: int = get_int(KafkaConfig.MAX_RESERVED_BROKER_ID_PROP)
        node_id = get_int(KafkaConfig.NODE_ID_PROP)
        # A Scala `var`: KafkaServer replaces it with the id read from meta.properties or generated.
        self.broker_id: int = get_int(KafkaConfig.BROKER_ID_PROP) if node_id < 0 else node_id
        self.node_id: int = self.broker_id
        self.process_roles: frozenset[str] = self._parse_process_roles()
        self.initial_registration_timeout_ms: int = get_int(KafkaConfig.INITIAL_BROKER_REGISTRATION_TIMEOUT_MS_PROP)
        self.broker_heartbeat_interval_ms: int = get_int(KafkaConfig.BROKER_HEARTBEAT_INTERVAL_MS_PROP)
        self.broker_session_timeout_ms: int = get_int(KafkaConfig.BROKER_SESSION_TIMEOUT_MS_PROP)
        self.queued_max_requests: int = get_int(KafkaConfig.QUEUED_MAX_REQUESTS_PROP)
        self.queued_max_bytes: int = get_long(KafkaConfig.QUEUED_MAX_BYTES_PROP)
        self.request_timeout_ms: int = get_int(KafkaConfig.REQUEST_TIMEOUT_MS_PROP)
        self.connection_setup_timeout_ms: int = get_long(KafkaConfig.CONNECTION_SETUP_TIMEOUT_MS_PROP)
        self.connection_setup_timeout_max_ms: int = get_long(KafkaConfig.CONNECTION_SETUP_TIMEOUT_MAX_MS_PROP)
        self.unstable_api_versions_enabled: bool = get_boolean(KafkaConfig.UNSTABLE_API_VERSIONS_ENABLE_PROP)

        # Authorizer
        self.authorizer_class_name: str = get_string(KafkaConfig.AUTHORIZER_CLASS_NAME_PROP)

        # Socket server
        self.host_name: str = get_string(KafkaConfig.HOST_NAME_PROP)
        self.port: int = get_int(KafkaConfig.PORT_PROP)
        advertised_host_name = get_string(KafkaConfig.ADVERTISED_HOST_NAME_PROP)
        self.advertised_host_name: str = advertised_host_name if advertised_host_name is not None else self.host_name
        advertised_port = get_int(KafkaConfig.ADVERTISED_PORT_PROP)
        self.advertised_port: int = advertised_port if advertised_port is not None else self.port
        self.socket_send_buffer_bytes: int = get_int(KafkaConfig.SOCKET_SEND_BUFFER_BYTES_PROP)
        self.socket_receive_buffer_bytes: int = get_int(KafkaConfig.SOCKET_RECEIVE_BUFFER_BYTES_PROP)
        self.socket_request_max_bytes: int = get_int(KafkaConfig.SOCKET_REQUEST_MAX_BYTES_PROP)
        self.max_connections_per_ip: int = get_int(KafkaConfig.MAX_CONNECTIONS_PER_IP_PROP)
        overrides = self._get_map(
            KafkaConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP,
            get_string(KafkaConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP),
        )
        self.max_connections_per_ip_overrides: dict[str, int] = {}
        for host, count in overrides.items():
            try:
                self.max_connections_per_ip_overrides[host] = parse_int(count)
            except ValueError:
                raise ConfigException(
                    KafkaConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP,
                    get_string(KafkaConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP),
                    f'For input string: "{count}"',
                ) from None
        self.connections_max_idle_ms: int = get_long(KafkaConfig.CONNECTIONS_MAX_IDLE_MS_PROP)
        self.failed_authentication_delay_ms: int = get_int(KafkaConfig.FAILED_AUTHENTICATION_DELAY_MS_PROP)

        # Rack
        self.rack: str | None = get_string(KafkaConfig.RACK_PROP)
        self.replica_selector_class_name: str | None = get_string(KafkaConfig.REPLICA_SELECTOR_CLASS_PROP)

        # Log
        self.auto_create_topics_enable: bool = get_boolean(KafkaConfig.AUTO_CREATE_TOPICS_ENABLE_PROP)
        self.num_partitions: int = get_int(KafkaConfig.NUM_PARTITIONS_PROP)
        log_dirs = get_string(KafkaConfig.LOG_DIRS_PROP)
        self.log_dirs: list[str] = parse_csv_list(
            log_dirs if log_dirs is not None else get_string(KafkaConfig.LOG_DIR_PROP)
        )
        self.log_cleaner_threads: int = get_int(KafkaConfig.LOG_CLEANER_THREADS_PROP)
        self.log_flush_scheduler_interval_ms: int = get_long(KafkaConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS_PROP)
        self.log_flush_offset_checkpoint_interval_ms: int = get_int(
            KafkaConfig.LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_PROP
        )
        self.log_flush_start_offset_checkpoint_interval_ms: int = get_int(
            KafkaConfig.LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS_PROP
        )
        self.log_cleanup_interval_ms: int = get_long(KafkaConfig.LOG_CLEANUP_INTERVAL_MS_PROP)
        self.offsets_retention_minutes: int = get_int(KafkaConfig.OFFSETS_RETENTION_MINUTES_PROP)
        self.offsets_retention_check_interval_ms: int = get_long(KafkaConfig.OFFSETS_RETENTION_CHECK_INTERVAL_MS_PROP)
        self.log_cleaner_dedupe_buffer_size: int = get_long(KafkaConfig.LOG_CLEANER_DEDUPE_BUFFER_SIZE_PROP)
        self.log_cleaner_dedupe_buffer_load_factor: float = get_double(
            KafkaConfig.LOG_CLEANER_DEDUPE_BUFFER_LOAD_FACTOR_PROP
        )
        self.log_cleaner_io_buffer_size: int = get_int(KafkaConfig.LOG_CLEANER_IO_BUFFER_SIZE_PROP)
        self.log_cleaner_io_max_bytes_per_second: float = get_double(
            KafkaConfig.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND_PROP
        )
        self.log_cleaner_backoff_ms: int = get_long(KafkaConfig.LOG_CLEANER_BACKOFF_MS_PROP)
        self.log_cleaner_enable: bool = get_boolean(KafkaConfig.LOG_CLEANER_ENABLE_PROP)
        # Kept as given: ApiVersion.apply may pick a slightly different version (0.10.0 -> 0.10.0-IV1).
        self.log_message_format_version_string: str = get_string(KafkaConfig.LOG_MESSAGE_FORMAT_VERSION_PROP)
        self.log_message_format_version: ApiVersion = ApiVersion.apply(self.log_message_format_version_string)

        # Replication
        self.controller_socket_timeout_ms: int = get_int(KafkaConfig.CONTROLLER_SOCKET_TIMEOUT_MS_PROP)
        self.default_replication_factor: int = get_int(KafkaConfig.DEFAULT_REPLICATION_FACTOR_PROP)
        self.replica_lag_time_max_ms: int = get_long(KafkaConfig.REPLICA_LAG_TIME_MAX_MS_PROP)
        self.replica_socket_timeout_ms: int = get_int(KafkaConfig.REPLICA_SOCKET_TIMEOUT_MS_PROP)
        self.replica_socket_receive_buffer_bytes: int = get_int(KafkaConfig.REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_PROP)
        self.replica_fetch_max_bytes: int = get_int(KafkaConfig.REPLICA_FETCH_MAX_BYTES_PROP)
        self.replica_fetch_wait_max_ms: int = get_int(KafkaConfig.REPLICA_FETCH_WAIT_MAX_MS_PROP)
        self.replica_fetch_min_bytes: int = get_int(KafkaConfig.REPLICA_FETCH_MIN_BYTES_PROP)
        self.replica_fetch_response_max_bytes: int = get_int(KafkaConfig.REPLICA_FETCH_RESPONSE_MAX_BYTES_PROP)
        self.replica_fetch_backoff_ms: int = get_int(KafkaConfig.REPLICA_FETCH_BACKOFF_MS_PROP)
        self.replica_high_watermark_checkpoint_interval_ms: int = get_long(
            KafkaConfig.REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS_PROP
        )
        self.fetch_purgatory_purge_interval_requests: int = get_int(
            KafkaConfig.FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP
        )
        self.producer_purgatory_purge_interval_requests: int = get_int(
            KafkaConfig.PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP
        )
        self.delete_records_purgatory_purge_interval_requests: int = get_int(
            KafkaConfig.DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP
        )
        self.auto_leader_rebalance_enable: bool = get_boolean(KafkaConfig.AUTO_LEADER_REBALANCE_ENABLE_PROP)
        self.leader_imbalance_per_broker_percentage: int = get_int(
            KafkaConfig.LEADER_IMBALANCE_PER_BROKER_PERCENTAGE_PROP
        )
        self.leader_imbalance_check_interval_seconds: int = get_long(
            KafkaConfig.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_PROP
        )
        self.inter_broker_protocol_version_string: str = get_string(KafkaConfig.INTER_BROKER_PROTOCOL_VERSION_PROP)
        self.inter_broker_protocol_version: ApiVersion = ApiVersion.apply(self.inter_broker_protocol_version_string)

        # Controlled shutdown
        self.controlled_shutdown_max_retries: int = get_int(KafkaConfig.CONTROLLED_SHUTDOWN_MAX_RETRIES_PROP)
        self.controlled_shutdown_retry_backoff_ms: int = get_long(KafkaConfig.CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS_PROP)
        self.controlled_shutdown_enable: bool = get_boolean(KafkaConfig.CONTROLLED_SHUTDOWN_ENABLE_PROP)

        # Group coordinator
        self.group_min_session_timeout_ms: int = get_int(KafkaConfig.GROUP_MIN_SESSION_TIMEOUT_MS_PROP)
        self.group_max_session_timeout_ms: int = get_int(KafkaConfig.GROUP_MAX_SESSION_TIMEOUT_MS_PROP)
        self.group_initial_rebalance_delay: int = get_int(KafkaConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_PROP)
        self.group_max_size: int = get_int(KafkaConfig.GROUP_MAX_SIZE_PROP)

        # Offset management
        self.offset_metadata_max_size: int = get_int(KafkaConfig.OFFSET_METADATA_MAX_SIZE_PROP)
        self.offsets_load_buffer_size: int = get_int(KafkaConfig.OFFSETS_LOAD_BUFFER_SIZE_PROP)
        self.offsets_topic_replication_factor: int = self.get_short(KafkaConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_PROP)
        self.offsets_topic_partitions: int = get_int(KafkaConfig.OFFSETS_TOPIC_PARTITIONS_PROP)
        self.offset_commit_timeout_ms: int = get_int(KafkaConfig.OFFSET_COMMIT_TIMEOUT_MS_PROP)
        self.offset_commit_required_acks: int = self.get_short(KafkaConfig.OFFSET_COMMIT_REQUIRED_ACKS_PROP)
        self.offsets_topic_segment_bytes: int = get_int(KafkaConfig.OFFSETS_TOPIC_SEGMENT_BYTES_PROP)
        codec = get_int(KafkaConfig.OFFSETS_TOPIC_COMPRESSION_CODEC_PROP)
        # PORT: Kafka's kafka.message.CompressionCodec; CompressionType has the same ids.
        self.offsets_topic_compression_codec: CompressionType | None = None
        if codec is not None:
            try:
                self.offsets_topic_compression_codec = CompressionType.for_id(codec)
            except ValueError:
                raise ConfigException(
                    KafkaConfig.OFFSETS_TOPIC_COMPRESSION_CODEC_PROP, codec, f"{codec} is an unknown compression codec"
                ) from None

        # Transaction management
        self.transactional_id_expiration_ms: int = get_int(KafkaConfig.TRANSACTIONAL_ID_EXPIRATION_MS_PROP)
        self.transaction_max_timeout_ms: int = get_int(KafkaConfig.TRANSACTIONS_MAX_TIMEOUT_MS_PROP)
        self.transaction_topic_min_isr: int = get_int(KafkaConfig.TRANSACTIONS_TOPIC_MIN_ISR_PROP)
        self.transactions_load_buffer_size: int = get_int(KafkaConfig.TRANSACTIONS_LOAD_BUFFER_SIZE_PROP)
        self.transaction_topic_replication_factor: int = self.get_short(
            KafkaConfig.TRANSACTIONS_TOPIC_REPLICATION_FACTOR_PROP
        )
        self.transaction_topic_partitions: int = get_int(KafkaConfig.TRANSACTIONS_TOPIC_PARTITIONS_PROP)
        self.transaction_topic_segment_bytes: int = get_int(KafkaConfig.TRANSACTIONS_TOPIC_SEGMENT_BYTES_PROP)
        self.transaction_abort_timed_out_transaction_cleanup_interval_ms: int = get_int(
            KafkaConfig.TRANSACTIONS_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_PROP
        )
        self.transaction_remove_expired_transactional_id_cleanup_interval_ms: int = get_int(
            KafkaConfig.TRANSACTIONS_REMOVE_EXPIRED_TRANSACTIONAL_ID_CLEANUP_INTERVAL_MS_PROP
        )

        # Metrics
        self.metric_num_samples: int = get_int(KafkaConfig.METRIC_NUM_SAMPLES_PROP)
        self.metric_sample_window_ms: int = get_long(KafkaConfig.METRIC_SAMPLE_WINDOW_MS_PROP)
        self.metric_recording_level: str = get_string(KafkaConfig.METRIC_RECORDING_LEVEL_PROP)
        self.metric_reporter_classes: list[str] = get_list(KafkaConfig.METRIC_REPORTER_CLASSES_PROP)
        self.kafka_metrics_reporter_classes: list[str] = get_list(KafkaConfig.KAFKA_METRICS_REPORTER_CLASSES_PROP)
        self.kafka_metrics_polling_interval_secs: int = get_int(KafkaConfig.KAFKA_METRICS_POLLING_INTERVAL_SECONDS_PROP)
        self.metrics_prometheus_port: int = get_int(KafkaConfig.METRICS_PROMETHEUS_PORT_PROP)
        self.metrics_prometheus_host: str = get_string(KafkaConfig.METRICS_PROMETHEUS_HOST_PROP) or ""

        # SASL
        self.sasl_inter_broker_handshake_request_enable: bool = self.inter_broker_protocol_version >= KAFKA_0_10_0_IV1

        # Delegation tokens
        secret = self.get_password(KafkaConfig.DELEGATION_TOKEN_SECRET_KEY_PROP)
        self.delegation_token_secret_key: Password | None = (
            secret if secret is not None else self.get_password(KafkaConfig.DELEGATION_TOKEN_SECRET_KEY_ALIAS_PROP)
        )
        self.token_auth_enabled: bool = (
            self.delegation_token_secret_key is not None and self.delegation_token_secret_key.value != ""
        )
        self.delegation_token_max_life_ms: int = get_long(KafkaConfig.DELEGATION_TOKEN_MAX_LIFE_TIME_PROP)
        self.delegation_token_expiry_time_ms: int = get_long(KafkaConfig.DELEGATION_TOKEN_EXPIRY_TIME_MS_PROP)
        self.delegation_token_expiry_check_interval_ms: int = get_long(
            KafkaConfig.DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS_PROP
        )

        # Quotas
        self.producer_quota_bytes_per_second_default: int = get_long(
            KafkaConfig.PRODUCER_QUOTA_BYTES_PER_SECOND_DEFAULT_PROP
        )
        self.consumer_quota_bytes_per_second_default: int = get_long(
            KafkaConfig.CONSUMER_QUOTA_BYTES_PER_SECOND_DEFAULT_PROP
        )
        self.num_quota_samples: int = get_int(KafkaConfig.NUM_QUOTA_SAMPLES_PROP)
        self.quota_window_size_seconds: int = get_int(KafkaConfig.QUOTA_WINDOW_SIZE_SECONDS_PROP)
        self.num_replication_quota_samples: int = get_int(KafkaConfig.NUM_REPLICATION_QUOTA_SAMPLES_PROP)
        self.replication_quota_window_size_seconds: int = get_int(
            KafkaConfig.REPLICATION_QUOTA_WINDOW_SIZE_SECONDS_PROP
        )
        self.num_alter_log_dirs_replication_quota_samples: int = get_int(
            KafkaConfig.NUM_ALTER_LOG_DIRS_REPLICATION_QUOTA_SAMPLES_PROP
        )
        self.alter_log_dirs_replication_quota_window_size_seconds: int = get_int(
            KafkaConfig.ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS_PROP
        )
        self.num_controller_quota_samples: int = get_int(KafkaConfig.NUM_CONTROLLER_QUOTA_SAMPLES_PROP)
        self.controller_quota_window_size_seconds: int = get_int(KafkaConfig.CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS_PROP)
        self.client_quota_callback_class: type | str | None = self.get_class(
            KafkaConfig.CLIENT_QUOTA_CALLBACK_CLASS_PROP
        )

        # Fetch
        self.max_incremental_fetch_session_cache_slots: int = get_int(
            KafkaConfig.MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS
        )
        self.fetch_max_bytes: int = get_int(KafkaConfig.FETCH_MAX_BYTES)
        self.delete_topic_enable: bool = get_boolean(KafkaConfig.DELETE_TOPIC_ENABLE_PROP)

        # Policies and pluggable classes (CLASS values: a Python class or a class name)
        self.create_topic_policy_class_name: type | str | None = self.get_class(
            KafkaConfig.CREATE_TOPIC_POLICY_CLASS_NAME_PROP
        )
        self.alter_config_policy_class_name: type | str | None = self.get_class(
            KafkaConfig.ALTER_CONFIG_POLICY_CLASS_NAME_PROP
        )

        # Raft quorum (read so that they count as used; not acted on by a ZooKeeper-mode broker)
        self.quorum_voters: list[str] = get_list(KafkaConfig.QUORUM_VOTERS_PROP)
        self.quorum_election_timeout_ms: int = get_int(KafkaConfig.QUORUM_ELECTION_TIMEOUT_MS_PROP)
        self.quorum_fetch_timeout_ms: int = get_int(KafkaConfig.QUORUM_FETCH_TIMEOUT_MS_PROP)
        self.quorum_election_backoff_ms: int = get_int(KafkaConfig.QUORUM_ELECTION_BACKOFF_MAX_MS_PROP)
        self.quorum_linger_ms: int = get_int(KafkaConfig.QUORUM_LINGER_MS_PROP)
        self.quorum_request_timeout_ms: int = get_int(KafkaConfig.QUORUM_REQUEST_TIMEOUT_MS_PROP)
        self.quorum_retry_backoff_ms: int = get_int(KafkaConfig.QUORUM_RETRY_BACKOFF_MS_PROP)

        # Every other defined key is read on demand (a property below, or through `get` by the
        # component that owns it, e.g. SSL and SASL settings by the channel builders). Mark them all
        # used now, as Kafka's channel builders do at startup, so that `unused()` lists only the
        # keys nobody defined.
        for name in KafkaConfig.config_def.names():
            self.ignore(name)

        self.validate_values()

    # ---- current config (dynamic reconfiguration) ---------------------------------------------

    @property
    def current_config(self) -> KafkaConfig:
        """The config that on-demand values are read from: self, until a dynamic update replaces it."""
        return self._current_config

    def update_current_config(self, new_config: KafkaConfig) -> None:
        """Route on-demand reads to `new_config` (DynamicBrokerConfig's hook)."""
        self._current_config = new_config

    def get(self, key: str) -> Any:
        current = self._current_config
        return super().get(key) if current is self else current.get(key)

    def originals(self, config_overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        current = self._current_config
        if current is self:
            return super().originals(config_overrides)
        return current.originals(config_overrides)

    def values(self) -> dict[str, Any]:
        current = self._current_config
        return super().values() if current is self else current.values()

    def values_with_prefix_override(self, prefix: str) -> dict[str, Any]:
        current = self._current_config
        if current is self:
            return super().values_with_prefix_override(prefix)
        return current.values_with_prefix_override(prefix)

    def originals_from_this_config(self) -> dict[str, Any]:
        return super().originals()

    def values_from_this_config(self) -> dict[str, Any]:
        return super().values()

    # ---- on-demand values (Scala defs) --------------------------------------------------------

    def _parse_process_roles(self) -> frozenset[str]:
        roles = self.get_list(KafkaConfig.PROCESS_ROLES_PROP)
        for role in roles:
            if role not in ("broker", "controller"):
                raise ConfigException(
                    f"Unknown process role '{role}' (only 'broker' and 'controller' are allowed roles)"
                )
        distinct = frozenset(roles)
        if len(distinct) != len(roles):
            raise ConfigException(
                f"Duplicate role names found in `{KafkaConfig.PROCESS_ROLES_PROP}`: List({', '.join(roles)})"
            )
        return distinct

    @property
    def requires_zookeeper(self) -> bool:
        return not self.process_roles

    @property
    def uses_self_managed_quorum(self) -> bool:
        return bool(self.process_roles)

    @property
    def metadata_log_dir(self) -> str:
        d = self.get_string(KafkaConfig.METADATA_LOG_DIR_PROP)
        return d if d is not None else self.log_dirs[0]

    @property
    def num_network_threads(self) -> int:
        return self.get_int(KafkaConfig.NUM_NETWORK_THREADS_PROP)

    @property
    def background_threads(self) -> int:
        return self.get_int(KafkaConfig.BACKGROUND_THREADS_PROP)

    @property
    def queued_max_request_bytes(self) -> int:
        """Alias of `queued_max_bytes` (queued.max.request.bytes), the name SocketServer reads."""
        return self.queued_max_bytes

    @property
    def num_io_threads(self) -> int:
        return self.get_int(KafkaConfig.NUM_IO_THREADS_PROP)

    @property
    def message_max_bytes(self) -> int:
        return self.get_int(KafkaConfig.MESSAGE_MAX_BYTES_PROP)

    def get_num_replica_alter_log_dirs_threads(self) -> int:
        n = self.get_int(KafkaConfig.NUM_REPLICA_ALTER_LOG_DIRS_THREADS_PROP)
        return n if n is not None else len(self.log_dirs)

    @property
    def max_connections(self) -> int:
        return self.get_int(KafkaConfig.MAX_CONNECTIONS_PROP)

    @property
    def max_connection_creation_rate(self) -> int:
        return self.get_int(KafkaConfig.MAX_CONNECTION_CREATION_RATE_PROP)

    @property
    def log_segment_bytes(self) -> int:
        return self.get_int(KafkaConfig.LOG_SEGMENT_BYTES_PROP)

    @property
    def log_flush_interval_messages(self) -> int:
        return self.get_long(KafkaConfig.LOG_FLUSH_INTERVAL_MESSAGES_PROP)

    @property
    def num_recovery_threads_per_data_dir(self) -> int:
        return self.get_int(KafkaConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR_PROP)

    @property
    def log_cleanup_policy(self) -> list[str]:
        return self.get_list(KafkaConfig.LOG_CLEANUP_POLICY_PROP)

    @property
    def log_retention_bytes(self) -> int:
        return self.get_long(KafkaConfig.LOG_RETENTION_BYTES_PROP)

    @property
    def log_cleaner_delete_retention_ms(self) -> int:
        return self.get_long(KafkaConfig.LOG_CLEANER_DELETE_RETENTION_MS_PROP)

    @property
    def log_cleaner_min_compaction_lag_ms(self) -> int:
        return self.get_long(KafkaConfig.LOG_CLEANER_MIN_COMPACTION_LAG_MS_PROP)

    @property
    def log_cleaner_max_compaction_lag_ms(self) -> int:
        return self.get_long(KafkaConfig.LOG_CLEANER_MAX_COMPACTION_LAG_MS_PROP)

    @property
    def log_cleaner_min_clean_ratio(self) -> float:
        return self.get_double(KafkaConfig.LOG_CLEANER_MIN_CLEAN_RATIO_PROP)

    @property
    def log_index_size_max_bytes(self) -> int:
        return self.get_int(KafkaConfig.LOG_INDEX_SIZE_MAX_BYTES_PROP)

    @property
    def log_index_interval_bytes(self) -> int:
        return self.get_int(KafkaConfig.LOG_INDEX_INTERVAL_BYTES_PROP)

    @property
    def log_delete_delay_ms(self) -> int:
        return self.get_long(KafkaConfig.LOG_DELETE_DELAY_MS_PROP)

    @property
    def log_roll_time_millis(self) -> int:
        """log.roll.ms if set, else log.roll.hours in milliseconds."""
        ms = self.get_long(KafkaConfig.LOG_ROLL_TIME_MILLIS_PROP)
        return ms if ms is not None else 60 * 60 * 1000 * self.get_int(KafkaConfig.LOG_ROLL_TIME_HOURS_PROP)

    @property
    def log_roll_time_jitter_millis(self) -> int:
        """log.roll.jitter.ms if set, else log.roll.jitter.hours in milliseconds."""
        ms = self.get_long(KafkaConfig.LOG_ROLL_TIME_JITTER_MILLIS_PROP)
        return ms if ms is not None else 60 * 60 * 1000 * self.get_int(KafkaConfig.LOG_ROLL_TIME_JITTER_HOURS_PROP)

    @property
    def log_flush_interval_ms(self) -> int:
        """log.flush.interval.ms if set, else log.flush.scheduler.interval.ms."""
        ms = self.get_long(KafkaConfig.LOG_FLUSH_INTERVAL_MS_PROP)
        return ms if ms is not None else self.get_long(KafkaConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS_PROP)

    @property
    def min_in_sync_replicas(self) -> int:
        return self.get_int(KafkaConfig.MIN_IN_SYNC_REPLICAS_PROP)

    @property
    def log_pre_allocate_enable(self) -> bool:
        return self.get_boolean(KafkaConfig.LOG_PRE_ALLOCATE_PROP)

    @property
    def log_message_timestamp_type(self) -> TimestampType:
        return TimestampType.for_name(self.get_string(KafkaConfig.LOG_MESSAGE_TIMESTAMP_TYPE_PROP))

    @property
    def log_message_timestamp_difference_max_ms(self) -> int:
        return self.get_long(KafkaConfig.LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP)

    @property
    def log_message_down_conversion_enable(self) -> bool:
        return self.get_boolean(KafkaConfig.LOG_MESSAGE_DOWN_CONVERSION_ENABLE_PROP)

    @property
    def num_replica_fetchers(self) -> int:
        return self.get_int(KafkaConfig.NUM_REPLICA_FETCHERS_PROP)

    @property
    def unclean_leader_election_enable(self) -> bool:
        return self.get_boolean(KafkaConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP)

    @property
    def is_feature_versioning_supported(self) -> bool:
        return self.inter_broker_protocol_version >= KAFKA_2_7_IV0

    @property
    def compression_type(self) -> str:
        return self.get_string(KafkaConfig.COMPRESSION_TYPE_PROP)

    @property
    def password_encoder_secret(self) -> Password | None:
        return self.get_password(KafkaConfig.PASSWORD_ENCODER_SECRET_PROP)

    @property
    def password_encoder_old_secret(self) -> Password | None:
        return self.get_password(KafkaConfig.PASSWORD_ENCODER_OLD_SECRET_PROP)

    @property
    def password_encoder_cipher_algorithm(self) -> str:
        return self.get_string(KafkaConfig.PASSWORD_ENCODER_CIPHER_ALGORITHM_PROP)

    @property
    def password_encoder_key_factory_algorithm(self) -> str | None:
        return self.get_string(KafkaConfig.PASSWORD_ENCODER_KEY_FACTORY_ALGORITHM_PROP)

    @property
    def password_encoder_key_length(self) -> int:
        return self.get_int(KafkaConfig.PASSWORD_ENCODER_KEY_LENGTH_PROP)

    @property
    def password_encoder_iterations(self) -> int:
        return self.get_int(KafkaConfig.PASSWORD_ENCODER_ITERATIONS_PROP)

    @property
    def log_retention_time_millis(self) -> int:
        """log.retention.ms, else log.retention.minutes, else log.retention.hours, in ms; -1 if negative."""
        millis_in_minute = 60 * 1000
        millis_in_hour = 60 * millis_in_minute
        millis = self.get_long(KafkaConfig.LOG_RETENTION_TIME_MILLIS_PROP)
        if millis is None:
            minutes = self.get_int(KafkaConfig.LOG_RETENTION_TIME_MINUTES_PROP)
            if minutes is not None:
                millis = millis_in_minute * minutes
            else:
                millis = self.get_int(KafkaConfig.LOG_RETENTION_TIME_HOURS_PROP) * millis_in_hour
        return -1 if millis < 0 else millis

    # ---- listeners ----------------------------------------------------------------------------

    @staticmethod
    def _get_map(prop_name: str, prop_value: str) -> dict[str, str]:
        try:
            return parse_csv_map(prop_value)
        except Exception as e:
            raise ConfigException(f"Error parsing configuration property '{prop_name}': {e}") from e

    def _listeners_from(self, prop: str, value: str, require_distinct_ports: bool) -> list[EndPoint]:
        try:
            return listener_list_to_end_points(value, self.listener_security_protocol_map, require_distinct_ports)
        except ValueError as e:
            raise ConfigException(prop, value, str(e)) from e

    @property
    def listeners(self) -> list[EndPoint]:
        """The listeners to bind: `listeners`, else `PLAINTEXT://host.name:port`."""
        prop = self.get_string(KafkaConfig.LISTENERS_PROP)
        if prop is not None:
            return self._listeners_from(KafkaConfig.LISTENERS_PROP, prop, True)
        return self._listeners_from(KafkaConfig.LISTENERS_PROP, f"PLAINTEXT://{self.host_name}:{self.port}", True)

    @property
    def controller_listener_names(self) -> list[str]:
        names = self.get_string(KafkaConfig.CONTROLLER_LISTENER_NAMES_PROP)
        return (names if names is not None else "").split(",")

    @property
    def controller_listeners(self) -> list[EndPoint]:
        names = self.controller_listener_names
        return [ep for ep in self.listeners if ep.listener_name.value in names]

    @property
    def sasl_mechanism_controller_protocol(self) -> str:
        return self.get_string(KafkaConfig.SASL_MECHANISM_CONTROLLER_PROTOCOL_PROP)

    @property
    def control_plane_listener(self) -> EndPoint | None:
        """The listener dedicated to controller requests, if `control.plane.listener.name` is set."""
        name = self.control_plane_listener_name
        if name is None:
            return None
        matching = [ep for ep in self.listeners if ep.listener_name.value == name.value]
        if not matching:
            raise ConfigException(
                f"Listener {name.value} defined in {KafkaConfig.CONTROL_PLANE_LISTENER_NAME_PROP} "
                f"is not in {KafkaConfig.LISTENERS_PROP}"
            )
        return matching[0]

    @property
    def data_plane_listeners(self) -> list[EndPoint]:
        """Every listener but the control-plane and controller listeners."""
        control_plane = self.get_string(KafkaConfig.CONTROL_PLANE_LISTENER_NAME_PROP)
        controller_names = self.controller_listener_names
        return [
            ep
            for ep in self.listeners
            if ep.listener_name.value != control_plane and ep.listener_name.value not in controller_names
        ]

    @property
    def advertised_listeners(self) -> list[EndPoint]:
        """What is registered in ZooKeeper: `advertised.listeners`, else advertised host/port, else `listeners`."""
        prop = self.get_string(KafkaConfig.ADVERTISED_LISTENERS_PROP)
        if prop is not None:
            return self._listeners_from(KafkaConfig.ADVERTISED_LISTENERS_PROP, prop, False)
        if (
            self.get_string(KafkaConfig.ADVERTISED_HOST_NAME_PROP) is not None
            or self.get_int(KafkaConfig.ADVERTISED_PORT_PROP) is not None
        ):
            return self._listeners_from(
                KafkaConfig.ADVERTISED_LISTENERS_PROP,
                f"PLAINTEXT://{self.advertised_host_name}:{self.advertised_port}",
                False,
            )
        controller_names = self.controller_listener_names
        return [ep for ep in self.listeners if ep.listener_name.value not in controller_names]

    def _get_inter_broker_listener_name_and_security_protocol(self) -> tuple[ListenerName, SecurityProtocol]:
        name = self.get_string(KafkaConfig.INTER_BROKER_LISTENER_NAME_PROP)
        if name is not None:
            if KafkaConfig.INTER_BROKER_SECURITY_PROTOCOL_PROP in self.originals():
                raise ConfigException(
                    f"Only one of {KafkaConfig.INTER_BROKER_LISTENER_NAME_PROP} and "
                    f"{KafkaConfig.INTER_BROKER_SECURITY_PROTOCOL_PROP} should be set."
                )
            listener_name = ListenerName.normalised(name)
            protocol = self.listener_security_protocol_map.get(listener_name)
            if protocol is None:
                raise ConfigException(
                    f"Listener with name {listener_name.value} defined in "
                    f"{KafkaConfig.INTER_BROKER_LISTENER_NAME_PROP} not found in "
                    f"{KafkaConfig.LISTENER_SECURITY_PROTOCOL_MAP_PROP}."
                )
            return listener_name, protocol
        protocol = self._get_security_protocol(
            self.get_string(KafkaConfig.INTER_BROKER_SECURITY_PROTOCOL_PROP),
            KafkaConfig.INTER_BROKER_SECURITY_PROTOCOL_PROP,
        )
        return ListenerName.for_security_protocol(protocol), protocol

    def _get_control_plane_listener_name_and_security_protocol(self) -> tuple[ListenerName, SecurityProtocol] | None:
        name = self.get_string(KafkaConfig.CONTROL_PLANE_LISTENER_NAME_PROP)
        if name is None:
            return None
        listener_name = ListenerName.normalised(name)
        protocol = self.listener_security_protocol_map.get(listener_name)
        if protocol is None:
            raise ConfigException(
                f"Listener with {listener_name.value} defined in "
                f"{KafkaConfig.CONTROL_PLANE_LISTENER_NAME_PROP} not found in "
                f"{KafkaConfig.LISTENER_SECURITY_PROTOCOL_MAP_PROP}."
            )
        return listener_name, protocol

    @staticmethod
    def _get_security_protocol(protocol_name: str, config_name: str) -> SecurityProtocol:
        try:
            return SecurityProtocol.for_name(protocol_name)
        except ValueError:
            raise ConfigException(f"Invalid security protocol `{protocol_name}` defined in {config_name}") from None

    @property
    def listener_security_protocol_map(self) -> dict[ListenerName, SecurityProtocol]:
        """Listener name -> security protocol, from `listener.security.protocol.map`."""
        raw = self._get_map(
            KafkaConfig.LISTENER_SECURITY_PROTOCOL_MAP_PROP,
            self.get_string(KafkaConfig.LISTENER_SECURITY_PROTOCOL_MAP_PROP),
        )
        return {
            ListenerName.normalised(name): self._get_security_protocol(
                protocol, KafkaConfig.LISTENER_SECURITY_PROTOCOL_MAP_PROP
            )
            for name, protocol in raw.items()
        }

    @property
    def uses_topic_id(self) -> bool:
        return self.inter_broker_protocol_version >= KAFKA_2_8_IV0

    def _sasl_enabled_mechanisms(self, listener_name: ListenerName) -> set[str]:
        value = self.values_with_prefix_override(listener_name.config_prefix()).get(
            KafkaConfig.SASL_ENABLED_MECHANISMS_PROP
        )
        return set(value) if value is not None else set()

    @property
    def inter_broker_listener_name(self) -> ListenerName:
        return self._get_inter_broker_listener_name_and_security_protocol()[0]

    @property
    def inter_broker_security_protocol(self) -> SecurityProtocol:
        return self._get_inter_broker_listener_name_and_security_protocol()[1]

    @property
    def control_plane_listener_name(self) -> ListenerName | None:
        pair = self._get_control_plane_listener_name_and_security_protocol()
        return None if pair is None else pair[0]

    @property
    def control_plane_security_protocol(self) -> SecurityProtocol | None:
        pair = self._get_control_plane_listener_name_and_security_protocol()
        return None if pair is None else pair[1]

    @property
    def sasl_mechanism_inter_broker_protocol(self) -> str:
        return self.get_string(KafkaConfig.SASL_MECHANISM_INTER_BROKER_PROTOCOL_PROP)

    # ---- validation ---------------------------------------------------------------------------

    def validate_values(self) -> None:
        """Kafka 2.8's cross-checks between keys; raises ConfigException on the first failure."""
        if self.requires_zookeeper:
            if self.zk_connect is None:
                raise ConfigException(
                    f"Missing required configuration `{KafkaConfig.ZK_CONNECT_PROP}` which has no default value."
                )
            if self.broker_id_generation_enable:
                _require(
                    -1 <= self.broker_id <= self.max_reserved_broker_id,
                    "broker.id must be greater than or equal to -1 and not greater than reserved.broker.max.id",
                )
            else:
                _require(self.broker_id >= 0, "broker.id must be greater than or equal to 0")
        else:
            # PORT: Kafka 2.8 runs a KRaft broker here; this port is ZooKeeper-only.
            raise ConfigException(
                KafkaConfig.PROCESS_ROLES_PROP,
                ",".join(sorted(self.process_roles)),
                "KRaft mode is not supported by this broker; leave process.roles unset",
            )
        _require(self.log_roll_time_millis >= 1, "log.roll.ms must be greater than or equal to 1")
        _require(self.log_roll_time_jitter_millis >= 0, "log.roll.jitter.ms must be greater than or equal to 0")
        retention = self.log_retention_time_millis
        _require(
            retention >= 1 or retention == -1, "log.retention.ms must be unlimited (-1) or, greater than or equal to 1"
        )
        _require(len(self.log_dirs) > 0, "At least one log directory must be defined via log.dirs or log.dir.")
        if self.log_cleaner_threads == 0:
            # Scala divides by zero here (ArithmeticException); say so plainly instead.
            raise ConfigException(
                KafkaConfig.LOG_CLEANER_THREADS_PROP,
                0,
                "log.cleaner.dedupe.buffer.size / log.cleaner.threads: / by zero",
            )
        _require(
            int(self.log_cleaner_dedupe_buffer_size / self.log_cleaner_threads) > 1024 * 1024,
            "log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.",
        )
        _require(
            self.replica_fetch_wait_max_ms <= self.replica_socket_timeout_ms,
            "replica.socket.timeout.ms should always be at least replica.fetch.wait.max.ms"
            " to prevent unnecessary socket timeouts",
        )
        _require(
            self.replica_fetch_wait_max_ms <= self.replica_lag_time_max_ms,
            "replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms"
            " to prevent frequent changes in ISR",
        )
        _require(
            -1 <= self.offset_commit_required_acks <= self.offsets_topic_replication_factor,
            "offsets.commit.required.acks must be greater or equal -1 and less or equal to "
            "offsets.topic.replication.factor",
        )
        compression_type = self.compression_type
        _require(
            compression_type.lower() in BROKER_COMPRESSION_OPTIONS,
            f"compression.type : {compression_type} is not valid. Valid options are "
            + ",".join(BROKER_COMPRESSION_OPTIONS),
        )

        advertised_listeners = self.advertised_listeners
        listeners = self.listeners
        advertised_listener_names = [ep.listener_name for ep in advertised_listeners]
        listener_names = [ep.listener_name for ep in listeners]
        inter_broker_listener_name = self.inter_broker_listener_name
        if not self.process_roles or "broker" in self.process_roles:
            _require(
                inter_broker_listener_name in advertised_listener_names,
                f"{KafkaConfig.INTER_BROKER_LISTENER_NAME_PROP} must be a listener name defined in "
                f"{KafkaConfig.ADVERTISED_LISTENERS_PROP}. The valid options based on currently configured "
                f"listeners are {','.join(n.value for n in advertised_listener_names)}",
            )
            _require(
                set(advertised_listener_names) <= set(listener_names),
                f"{KafkaConfig.ADVERTISED_LISTENERS_PROP} listener names must be equal to or a subset of the ones "
                f"defined in {KafkaConfig.LISTENERS_PROP}. Found "
                f"{','.join(n.value for n in advertised_listener_names)}. The valid options based on the current "
                f"configuration are {','.join(n.value for n in listener_names)}",
            )
        _require(
            not any(ep.host == "0.0.0.0" for ep in advertised_listeners),
            f"{KafkaConfig.ADVERTISED_LISTENERS_PROP} cannot use the nonroutable meta-address 0.0.0.0. "
            "Use a routable IP address.",
        )
        _require(
            not any(ep in advertised_listeners for ep in self.controller_listeners),
            f"{KafkaConfig.ADVERTISED_LISTENERS_PROP} cannot contain any of "
            f"{KafkaConfig.CONTROLLER_LISTENER_NAMES_PROP}",
        )
        control_plane_listener_name = self.control_plane_listener_name
        if control_plane_listener_name is not None:
            _require(
                control_plane_listener_name in advertised_listener_names,
                f"{KafkaConfig.CONTROL_PLANE_LISTENER_NAME_PROP} must be a listener name defined in "
                f"{KafkaConfig.ADVERTISED_LISTENERS_PROP}. The valid options based on currently configured "
                f"listeners are {','.join(n.value for n in advertised_listener_names)}",
            )
            _require(
                control_plane_listener_name.value != inter_broker_listener_name.value,
                f"{KafkaConfig.CONTROL_PLANE_LISTENER_NAME_PROP}, when defined, should have a different value "
                f"from the inter broker listener name. Currently they both have the value "
                f"{control_plane_listener_name}",
            )

        record_version = self.log_message_format_version.record_version
        _require(
            self.inter_broker_protocol_version.record_version >= record_version,
            f"log.message.format.version {self.log_message_format_version_string} can only be used when "
            f"inter.broker.protocol.version is set to version "
            f"{ApiVersion.min_supported_for(record_version).short_version} or higher",
        )
        if self.offsets_topic_compression_codec is CompressionType.ZSTD:
            _require(
                self.inter_broker_protocol_version.record_version >= KAFKA_2_1_IV0.record_version,
                "offsets.topic.compression.codec zstd can only be used when inter.broker.protocol.version "
                f"is set to version {KAFKA_2_1_IV0.short_version} or higher",
            )

        inter_broker_protocol = self.inter_broker_security_protocol
        inter_broker_uses_sasl = inter_broker_protocol in (SecurityProtocol.SASL_PLAINTEXT, SecurityProtocol.SASL_SSL)
        mechanism = self.sasl_mechanism_inter_broker_protocol
        _require(
            not inter_broker_uses_sasl or self.sasl_inter_broker_handshake_request_enable or mechanism == "GSSAPI",
            "Only GSSAPI mechanism is supported for inter-broker communication with SASL when "
            f"inter.broker.protocol.version is set to {self.inter_broker_protocol_version_string}",
        )
        _require(
            not inter_broker_uses_sasl or mechanism in self._sasl_enabled_mechanisms(inter_broker_listener_name),
            f"{KafkaConfig.SASL_MECHANISM_INTER_BROKER_PROTOCOL_PROP} must be included in "
            f"{KafkaConfig.SASL_ENABLED_MECHANISMS_PROP} when SASL is used for inter-broker communication",
        )
        _require(
            self.queued_max_bytes <= 0 or self.queued_max_bytes >= self.socket_request_max_bytes,
            f"{KafkaConfig.QUEUED_MAX_BYTES_PROP} must be larger or equal to "
            f"{KafkaConfig.SOCKET_REQUEST_MAX_BYTES_PROP}",
        )
        if self.max_connections_per_ip == 0:
            _require(
                bool(self.max_connections_per_ip_overrides),
                f"{KafkaConfig.MAX_CONNECTIONS_PER_IP_PROP} can be set to zero only if "
                f"{KafkaConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP} property is set.",
            )
        invalid = [a for a in self.max_connections_per_ip_overrides if not _VALID_HOST_CHARACTERS.fullmatch(a)]
        if invalid:
            raise ConfigException(
                f"{KafkaConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP} contains invalid addresses : {','.join(invalid)}"
            )
        if self.connections_max_idle_ms >= 0:
            _require(
                self.failed_authentication_delay_ms < self.connections_max_idle_ms,
                f"{KafkaConfig.FAILED_AUTHENTICATION_DELAY_MS_PROP}={self.failed_authentication_delay_ms} should "
                f"always be less than {KafkaConfig.CONNECTIONS_MAX_IDLE_MS_PROP}={self.connections_max_idle_ms} "
                "to prevent failed authentication responses from timing out",
            )


def _build_config_def() -> ConfigDef:
    K, D = KafkaConfig, Defaults
    STRING, INT, LONG, SHORT, DOUBLE = Type.STRING, Type.INT, Type.LONG, Type.SHORT, Type.DOUBLE
    BOOLEAN, LIST, CLASS, PASSWORD = Type.BOOLEAN, Type.LIST, Type.CLASS, Type.PASSWORD
    d = ConfigDef()
    # ZooKeeper
    d.define(K.ZK_CONNECT_PROP, STRING, None, None, HIGH)
    d.define(K.ZK_SESSION_TIMEOUT_MS_PROP, INT, D.ZK_SESSION_TIMEOUT_MS, None, HIGH)
    d.define(K.ZK_CONNECTION_TIMEOUT_MS_PROP, INT, None, None, HIGH)
    d.define(K.ZK_SYNC_TIME_MS_PROP, INT, D.ZK_SYNC_TIME_MS, None, LOW)
    d.define(K.ZK_ENABLE_SECURE_ACLS_PROP, BOOLEAN, D.ZK_ENABLE_SECURE_ACLS, None, HIGH)
    d.define(K.ZK_MAX_IN_FLIGHT_REQUESTS_PROP, INT, D.ZK_MAX_IN_FLIGHT_REQUESTS, at_least(1), HIGH)
    d.define(K.ZK_SSL_CLIENT_ENABLE_PROP, BOOLEAN, D.ZK_SSL_CLIENT_ENABLE, None, MEDIUM)
    d.define(K.ZK_CLIENT_CNXN_SOCKET_PROP, STRING, None, None, MEDIUM)
    d.define(K.ZK_SSL_KEY_STORE_LOCATION_PROP, STRING, None, None, MEDIUM)
    d.define(K.ZK_SSL_KEY_STORE_PASSWORD_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.ZK_SSL_KEY_STORE_TYPE_PROP, STRING, None, None, MEDIUM)
    d.define(K.ZK_SSL_TRUST_STORE_LOCATION_PROP, STRING, None, None, MEDIUM)
    d.define(K.ZK_SSL_TRUST_STORE_PASSWORD_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.ZK_SSL_TRUST_STORE_TYPE_PROP, STRING, None, None, MEDIUM)
    d.define(K.ZK_SSL_PROTOCOL_PROP, STRING, D.ZK_SSL_PROTOCOL, None, LOW)
    d.define(K.ZK_SSL_ENABLED_PROTOCOLS_PROP, LIST, None, None, LOW)
    d.define(K.ZK_SSL_CIPHER_SUITES_PROP, LIST, None, None, LOW)
    d.define(
        K.ZK_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_PROP, STRING, D.ZK_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM, None, LOW
    )
    d.define(K.ZK_SSL_CRL_ENABLE_PROP, BOOLEAN, D.ZK_SSL_CRL_ENABLE, None, LOW)
    d.define(K.ZK_SSL_OCSP_ENABLE_PROP, BOOLEAN, D.ZK_SSL_OCSP_ENABLE, None, LOW)
    # General
    d.define(K.BROKER_ID_GENERATION_ENABLE_PROP, BOOLEAN, D.BROKER_ID_GENERATION_ENABLE, None, MEDIUM)
    d.define(K.MAX_RESERVED_BROKER_ID_PROP, INT, D.MAX_RESERVED_BROKER_ID, at_least(0), MEDIUM)
    d.define(K.BROKER_ID_PROP, INT, D.BROKER_ID, None, HIGH)
    d.define(K.MESSAGE_MAX_BYTES_PROP, INT, D.MESSAGE_MAX_BYTES, at_least(0), HIGH)
    d.define(K.NUM_NETWORK_THREADS_PROP, INT, D.NUM_NETWORK_THREADS, at_least(1), HIGH)
    d.define(K.NUM_IO_THREADS_PROP, INT, D.NUM_IO_THREADS, at_least(1), HIGH)
    d.define(K.NUM_REPLICA_ALTER_LOG_DIRS_THREADS_PROP, INT, None, None, HIGH)
    d.define(K.BACKGROUND_THREADS_PROP, INT, D.BACKGROUND_THREADS, at_least(1), HIGH)
    d.define(K.QUEUED_MAX_REQUESTS_PROP, INT, D.QUEUED_MAX_REQUESTS, at_least(1), HIGH)
    d.define(K.QUEUED_MAX_BYTES_PROP, LONG, D.QUEUED_MAX_REQUEST_BYTES, None, MEDIUM)
    d.define(K.REQUEST_TIMEOUT_MS_PROP, INT, D.REQUEST_TIMEOUT_MS, None, HIGH)
    d.define(K.CONNECTION_SETUP_TIMEOUT_MS_PROP, LONG, D.CONNECTION_SETUP_TIMEOUT_MS, None, MEDIUM)
    d.define(K.CONNECTION_SETUP_TIMEOUT_MAX_MS_PROP, LONG, D.CONNECTION_SETUP_TIMEOUT_MAX_MS, None, MEDIUM)
    # KRaft (internal in 2.8)
    d.define_internal(K.PROCESS_ROLES_PROP, LIST, [], HIGH, ValidList.in_("broker", "controller"))
    d.define_internal(K.NODE_ID_PROP, INT, D.EMPTY_NODE_ID, HIGH)
    d.define_internal(
        K.INITIAL_BROKER_REGISTRATION_TIMEOUT_MS_PROP, INT, D.INITIAL_BROKER_REGISTRATION_TIMEOUT_MS, MEDIUM
    )
    d.define_internal(K.BROKER_HEARTBEAT_INTERVAL_MS_PROP, INT, D.BROKER_HEARTBEAT_INTERVAL_MS, MEDIUM)
    d.define_internal(K.BROKER_SESSION_TIMEOUT_MS_PROP, INT, D.BROKER_SESSION_TIMEOUT_MS, MEDIUM)
    d.define_internal(K.METADATA_LOG_DIR_PROP, STRING, None, HIGH)
    d.define_internal(K.CONTROLLER_LISTENER_NAMES_PROP, STRING, None, HIGH)
    d.define_internal(K.SASL_MECHANISM_CONTROLLER_PROTOCOL_PROP, STRING, "GSSAPI", HIGH)
    # Authorizer
    d.define(K.AUTHORIZER_CLASS_NAME_PROP, STRING, D.AUTHORIZER_CLASS_NAME, None, LOW)
    # Socket server
    d.define(K.PORT_PROP, INT, D.PORT, None, HIGH)
    d.define(K.HOST_NAME_PROP, STRING, D.HOST_NAME, None, HIGH)
    d.define(K.LISTENERS_PROP, STRING, None, None, HIGH)
    d.define(K.ADVERTISED_HOST_NAME_PROP, STRING, None, None, HIGH)
    d.define(K.ADVERTISED_PORT_PROP, INT, None, None, HIGH)
    d.define(K.ADVERTISED_LISTENERS_PROP, STRING, None, None, HIGH)
    d.define(K.LISTENER_SECURITY_PROTOCOL_MAP_PROP, STRING, D.LISTENER_SECURITY_PROTOCOL_MAP, None, LOW)
    d.define(K.CONTROL_PLANE_LISTENER_NAME_PROP, STRING, None, None, HIGH)
    d.define(K.SOCKET_SEND_BUFFER_BYTES_PROP, INT, D.SOCKET_SEND_BUFFER_BYTES, None, HIGH)
    d.define(K.SOCKET_RECEIVE_BUFFER_BYTES_PROP, INT, D.SOCKET_RECEIVE_BUFFER_BYTES, None, HIGH)
    d.define(K.SOCKET_REQUEST_MAX_BYTES_PROP, INT, D.SOCKET_REQUEST_MAX_BYTES, at_least(1), HIGH)
    d.define(K.MAX_CONNECTIONS_PER_IP_PROP, INT, D.MAX_CONNECTIONS_PER_IP, at_least(0), MEDIUM)
    d.define(K.MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP, STRING, D.MAX_CONNECTIONS_PER_IP_OVERRIDES, None, MEDIUM)
    d.define(K.MAX_CONNECTIONS_PROP, INT, D.MAX_CONNECTIONS, at_least(0), MEDIUM)
    d.define(K.MAX_CONNECTION_CREATION_RATE_PROP, INT, D.MAX_CONNECTION_CREATION_RATE, at_least(0), MEDIUM)
    d.define(K.CONNECTIONS_MAX_IDLE_MS_PROP, LONG, D.CONNECTIONS_MAX_IDLE_MS, None, MEDIUM)
    d.define(K.FAILED_AUTHENTICATION_DELAY_MS_PROP, INT, D.FAILED_AUTHENTICATION_DELAY_MS, at_least(0), LOW)
    # Rack
    d.define(K.RACK_PROP, STRING, None, None, MEDIUM)
    # Log
    d.define(K.NUM_PARTITIONS_PROP, INT, D.NUM_PARTITIONS, at_least(1), MEDIUM)
    d.define(K.LOG_DIR_PROP, STRING, D.LOG_DIR, None, HIGH)
    d.define(K.LOG_DIRS_PROP, STRING, None, None, HIGH)
    d.define(K.LOG_SEGMENT_BYTES_PROP, INT, D.LOG_SEGMENT_BYTES, at_least(_RECORD_OVERHEAD_V0), HIGH)
    d.define(K.LOG_ROLL_TIME_MILLIS_PROP, LONG, None, None, HIGH)
    d.define(K.LOG_ROLL_TIME_HOURS_PROP, INT, D.LOG_ROLL_HOURS, at_least(1), HIGH)
    d.define(K.LOG_ROLL_TIME_JITTER_MILLIS_PROP, LONG, None, None, HIGH)
    d.define(K.LOG_ROLL_TIME_JITTER_HOURS_PROP, INT, D.LOG_ROLL_JITTER_HOURS, at_least(0), HIGH)
    d.define(K.LOG_RETENTION_TIME_MILLIS_PROP, LONG, None, None, HIGH)
    d.define(K.LOG_RETENTION_TIME_MINUTES_PROP, INT, None, None, HIGH)
    d.define(K.LOG_RETENTION_TIME_HOURS_PROP, INT, D.LOG_RETENTION_HOURS, None, HIGH)
    d.define(K.LOG_RETENTION_BYTES_PROP, LONG, D.LOG_RETENTION_BYTES, None, HIGH)
    d.define(K.LOG_CLEANUP_INTERVAL_MS_PROP, LONG, D.LOG_CLEANUP_INTERVAL_MS, at_least(1), MEDIUM)
    d.define(K.LOG_CLEANUP_POLICY_PROP, LIST, D.LOG_CLEANUP_POLICY, ValidList.in_(D.COMPACT, D.DELETE), MEDIUM)
    d.define(K.LOG_CLEANER_THREADS_PROP, INT, D.LOG_CLEANER_THREADS, at_least(0), MEDIUM)
    d.define(K.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND_PROP, DOUBLE, D.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND, None, MEDIUM)
    d.define(K.LOG_CLEANER_DEDUPE_BUFFER_SIZE_PROP, LONG, D.LOG_CLEANER_DEDUPE_BUFFER_SIZE, None, MEDIUM)
    d.define(K.LOG_CLEANER_IO_BUFFER_SIZE_PROP, INT, D.LOG_CLEANER_IO_BUFFER_SIZE, at_least(0), MEDIUM)
    d.define(
        K.LOG_CLEANER_DEDUPE_BUFFER_LOAD_FACTOR_PROP, DOUBLE, D.LOG_CLEANER_DEDUPE_BUFFER_LOAD_FACTOR, None, MEDIUM
    )
    d.define(K.LOG_CLEANER_BACKOFF_MS_PROP, LONG, D.LOG_CLEANER_BACKOFF_MS, at_least(0), MEDIUM)
    d.define(K.LOG_CLEANER_MIN_CLEAN_RATIO_PROP, DOUBLE, D.LOG_CLEANER_MIN_CLEAN_RATIO, None, MEDIUM)
    d.define(K.LOG_CLEANER_ENABLE_PROP, BOOLEAN, D.LOG_CLEANER_ENABLE, None, MEDIUM)
    d.define(K.LOG_CLEANER_DELETE_RETENTION_MS_PROP, LONG, D.LOG_CLEANER_DELETE_RETENTION_MS, None, MEDIUM)
    d.define(K.LOG_CLEANER_MIN_COMPACTION_LAG_MS_PROP, LONG, D.LOG_CLEANER_MIN_COMPACTION_LAG_MS, None, MEDIUM)
    d.define(K.LOG_CLEANER_MAX_COMPACTION_LAG_MS_PROP, LONG, D.LOG_CLEANER_MAX_COMPACTION_LAG_MS, None, MEDIUM)
    d.define(K.LOG_INDEX_SIZE_MAX_BYTES_PROP, INT, D.LOG_INDEX_SIZE_MAX_BYTES, at_least(4), MEDIUM)
    d.define(K.LOG_INDEX_INTERVAL_BYTES_PROP, INT, D.LOG_INDEX_INTERVAL_BYTES, at_least(0), MEDIUM)
    d.define(K.LOG_FLUSH_INTERVAL_MESSAGES_PROP, LONG, D.LOG_FLUSH_INTERVAL_MESSAGES, at_least(1), HIGH)
    d.define(K.LOG_DELETE_DELAY_MS_PROP, LONG, D.LOG_DELETE_DELAY_MS, at_least(0), HIGH)
    d.define(K.LOG_FLUSH_SCHEDULER_INTERVAL_MS_PROP, LONG, D.LOG_FLUSH_SCHEDULER_INTERVAL_MS, None, HIGH)
    d.define(K.LOG_FLUSH_INTERVAL_MS_PROP, LONG, None, None, HIGH)
    d.define(
        K.LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_PROP,
        INT,
        D.LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS,
        at_least(0),
        HIGH,
    )
    d.define(
        K.LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS_PROP,
        INT,
        D.LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS,
        at_least(0),
        HIGH,
    )
    d.define(K.LOG_PRE_ALLOCATE_PROP, BOOLEAN, D.LOG_PRE_ALLOCATE_ENABLE, None, MEDIUM)
    d.define(K.NUM_RECOVERY_THREADS_PER_DATA_DIR_PROP, INT, D.NUM_RECOVERY_THREADS_PER_DATA_DIR, at_least(1), HIGH)
    d.define(K.AUTO_CREATE_TOPICS_ENABLE_PROP, BOOLEAN, D.AUTO_CREATE_TOPICS_ENABLE, None, HIGH)
    d.define(K.MIN_IN_SYNC_REPLICAS_PROP, INT, D.MIN_IN_SYNC_REPLICAS, at_least(1), HIGH)
    d.define(K.LOG_MESSAGE_FORMAT_VERSION_PROP, STRING, D.LOG_MESSAGE_FORMAT_VERSION, ApiVersionValidator, MEDIUM)
    d.define(
        K.LOG_MESSAGE_TIMESTAMP_TYPE_PROP,
        STRING,
        D.LOG_MESSAGE_TIMESTAMP_TYPE,
        ValidString.in_("CreateTime", "LogAppendTime"),
        MEDIUM,
    )
    d.define(
        K.LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS_PROP, LONG, D.LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS, None, MEDIUM
    )
    d.define(K.CREATE_TOPIC_POLICY_CLASS_NAME_PROP, CLASS, None, None, LOW)
    d.define(K.ALTER_CONFIG_POLICY_CLASS_NAME_PROP, CLASS, None, None, LOW)
    d.define(K.LOG_MESSAGE_DOWN_CONVERSION_ENABLE_PROP, BOOLEAN, D.MESSAGE_DOWN_CONVERSION_ENABLE, None, LOW)
    # Replication
    d.define(K.CONTROLLER_SOCKET_TIMEOUT_MS_PROP, INT, D.CONTROLLER_SOCKET_TIMEOUT_MS, None, MEDIUM)
    d.define(K.DEFAULT_REPLICATION_FACTOR_PROP, INT, D.DEFAULT_REPLICATION_FACTOR, None, MEDIUM)
    d.define(K.REPLICA_LAG_TIME_MAX_MS_PROP, LONG, D.REPLICA_LAG_TIME_MAX_MS, None, HIGH)
    d.define(K.REPLICA_SOCKET_TIMEOUT_MS_PROP, INT, D.REPLICA_SOCKET_TIMEOUT_MS, None, HIGH)
    d.define(K.REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_PROP, INT, D.REPLICA_SOCKET_RECEIVE_BUFFER_BYTES, None, HIGH)
    d.define(K.REPLICA_FETCH_MAX_BYTES_PROP, INT, D.REPLICA_FETCH_MAX_BYTES, at_least(0), MEDIUM)
    d.define(K.REPLICA_FETCH_WAIT_MAX_MS_PROP, INT, D.REPLICA_FETCH_WAIT_MAX_MS, None, HIGH)
    d.define(K.REPLICA_FETCH_BACKOFF_MS_PROP, INT, D.REPLICA_FETCH_BACKOFF_MS, at_least(0), MEDIUM)
    d.define(K.REPLICA_FETCH_MIN_BYTES_PROP, INT, D.REPLICA_FETCH_MIN_BYTES, None, HIGH)
    d.define(K.REPLICA_FETCH_RESPONSE_MAX_BYTES_PROP, INT, D.REPLICA_FETCH_RESPONSE_MAX_BYTES, at_least(0), MEDIUM)
    d.define(K.NUM_REPLICA_FETCHERS_PROP, INT, D.NUM_REPLICA_FETCHERS, None, HIGH)
    d.define(
        K.REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS_PROP,
        LONG,
        D.REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS,
        None,
        HIGH,
    )
    d.define(
        K.FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP, INT, D.FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS, None, MEDIUM
    )
    d.define(
        K.PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP,
        INT,
        D.PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS,
        None,
        MEDIUM,
    )
    d.define(
        K.DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS_PROP,
        INT,
        D.DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS,
        None,
        MEDIUM,
    )
    d.define(K.AUTO_LEADER_REBALANCE_ENABLE_PROP, BOOLEAN, D.AUTO_LEADER_REBALANCE_ENABLE, None, HIGH)
    d.define(K.LEADER_IMBALANCE_PER_BROKER_PERCENTAGE_PROP, INT, D.LEADER_IMBALANCE_PER_BROKER_PERCENTAGE, None, HIGH)
    d.define(
        K.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_PROP, LONG, D.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS, None, HIGH
    )
    d.define(K.UNCLEAN_LEADER_ELECTION_ENABLE_PROP, BOOLEAN, D.UNCLEAN_LEADER_ELECTION_ENABLE, None, HIGH)
    d.define(K.INTER_BROKER_SECURITY_PROTOCOL_PROP, STRING, D.INTER_BROKER_SECURITY_PROTOCOL, None, MEDIUM)
    d.define(K.INTER_BROKER_PROTOCOL_VERSION_PROP, STRING, D.INTER_BROKER_PROTOCOL_VERSION, ApiVersionValidator, MEDIUM)
    d.define(K.INTER_BROKER_LISTENER_NAME_PROP, STRING, None, None, MEDIUM)
    d.define(K.REPLICA_SELECTOR_CLASS_PROP, STRING, None, None, MEDIUM)
    # Controlled shutdown
    d.define(K.CONTROLLED_SHUTDOWN_MAX_RETRIES_PROP, INT, D.CONTROLLED_SHUTDOWN_MAX_RETRIES, None, MEDIUM)
    d.define(K.CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS_PROP, LONG, D.CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS, None, MEDIUM)
    d.define(K.CONTROLLED_SHUTDOWN_ENABLE_PROP, BOOLEAN, D.CONTROLLED_SHUTDOWN_ENABLE, None, MEDIUM)
    # Group coordinator
    d.define(K.GROUP_MIN_SESSION_TIMEOUT_MS_PROP, INT, D.GROUP_MIN_SESSION_TIMEOUT_MS, None, MEDIUM)
    d.define(K.GROUP_MAX_SESSION_TIMEOUT_MS_PROP, INT, D.GROUP_MAX_SESSION_TIMEOUT_MS, None, MEDIUM)
    d.define(K.GROUP_INITIAL_REBALANCE_DELAY_MS_PROP, INT, D.GROUP_INITIAL_REBALANCE_DELAY_MS, None, MEDIUM)
    d.define(K.GROUP_MAX_SIZE_PROP, INT, D.GROUP_MAX_SIZE, at_least(1), MEDIUM)
    # Offset management
    d.define(K.OFFSET_METADATA_MAX_SIZE_PROP, INT, D.OFFSET_METADATA_MAX_SIZE, None, HIGH)
    d.define(K.OFFSETS_LOAD_BUFFER_SIZE_PROP, INT, D.OFFSETS_LOAD_BUFFER_SIZE, at_least(1), HIGH)
    d.define(K.OFFSETS_TOPIC_REPLICATION_FACTOR_PROP, SHORT, D.OFFSETS_TOPIC_REPLICATION_FACTOR, at_least(1), HIGH)
    d.define(K.OFFSETS_TOPIC_PARTITIONS_PROP, INT, D.OFFSETS_TOPIC_PARTITIONS, at_least(1), HIGH)
    d.define(K.OFFSETS_TOPIC_SEGMENT_BYTES_PROP, INT, D.OFFSETS_TOPIC_SEGMENT_BYTES, at_least(1), HIGH)
    d.define(K.OFFSETS_TOPIC_COMPRESSION_CODEC_PROP, INT, D.OFFSETS_TOPIC_COMPRESSION_CODEC, None, HIGH)
    d.define(K.OFFSETS_RETENTION_MINUTES_PROP, INT, D.OFFSETS_RETENTION_MINUTES, at_least(1), HIGH)
    d.define(K.OFFSETS_RETENTION_CHECK_INTERVAL_MS_PROP, LONG, D.OFFSETS_RETENTION_CHECK_INTERVAL_MS, at_least(1), HIGH)
    d.define(K.OFFSET_COMMIT_TIMEOUT_MS_PROP, INT, D.OFFSET_COMMIT_TIMEOUT_MS, at_least(1), HIGH)
    d.define(K.OFFSET_COMMIT_REQUIRED_ACKS_PROP, SHORT, D.OFFSET_COMMIT_REQUIRED_ACKS, None, HIGH)
    d.define(K.DELETE_TOPIC_ENABLE_PROP, BOOLEAN, D.DELETE_TOPIC_ENABLE, None, HIGH)
    d.define(K.COMPRESSION_TYPE_PROP, STRING, D.COMPRESSION_TYPE, None, HIGH)
    # Transaction management
    d.define(K.TRANSACTIONAL_ID_EXPIRATION_MS_PROP, INT, D.TRANSACTIONAL_ID_EXPIRATION_MS, at_least(1), HIGH)
    d.define(K.TRANSACTIONS_MAX_TIMEOUT_MS_PROP, INT, D.TRANSACTIONS_MAX_TIMEOUT_MS, at_least(1), HIGH)
    d.define(K.TRANSACTIONS_TOPIC_MIN_ISR_PROP, INT, D.TRANSACTIONS_TOPIC_MIN_ISR, at_least(1), HIGH)
    d.define(K.TRANSACTIONS_LOAD_BUFFER_SIZE_PROP, INT, D.TRANSACTIONS_LOAD_BUFFER_SIZE, at_least(1), HIGH)
    d.define(
        K.TRANSACTIONS_TOPIC_REPLICATION_FACTOR_PROP, SHORT, D.TRANSACTIONS_TOPIC_REPLICATION_FACTOR, at_least(1), HIGH
    )
    d.define(K.TRANSACTIONS_TOPIC_PARTITIONS_PROP, INT, D.TRANSACTIONS_TOPIC_PARTITIONS, at_least(1), HIGH)
    d.define(K.TRANSACTIONS_TOPIC_SEGMENT_BYTES_PROP, INT, D.TRANSACTIONS_TOPIC_SEGMENT_BYTES, at_least(1), HIGH)
    d.define(
        K.TRANSACTIONS_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_PROP,
        INT,
        D.TRANSACTIONS_ABORT_TIMED_OUT_TRANSACTIONS_CLEANUP_INTERVAL_MS,
        at_least(1),
        LOW,
    )
    d.define(
        K.TRANSACTIONS_REMOVE_EXPIRED_TRANSACTIONAL_ID_CLEANUP_INTERVAL_MS_PROP,
        INT,
        D.TRANSACTIONS_REMOVE_EXPIRED_TRANSACTIONS_CLEANUP_INTERVAL_MS,
        at_least(1),
        LOW,
    )
    # Fetch
    d.define(
        K.MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS,
        INT,
        D.MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS,
        at_least(0),
        MEDIUM,
    )
    d.define(K.FETCH_MAX_BYTES, INT, D.FETCH_MAX_BYTES, at_least(1024), MEDIUM)
    # Metrics
    d.define(K.METRIC_NUM_SAMPLES_PROP, INT, D.METRIC_NUM_SAMPLES, at_least(1), LOW)
    d.define(K.METRIC_SAMPLE_WINDOW_MS_PROP, LONG, D.METRIC_SAMPLE_WINDOW_MS, at_least(1), LOW)
    d.define(K.METRIC_REPORTER_CLASSES_PROP, LIST, D.METRIC_REPORTER_CLASSES, None, LOW)
    d.define(K.METRIC_RECORDING_LEVEL_PROP, STRING, D.METRIC_RECORDING_LEVEL, None, LOW)
    d.define(K.KAFKA_METRICS_REPORTER_CLASSES_PROP, LIST, D.KAFKA_METRIC_REPORTER_CLASSES, None, LOW)
    d.define(
        K.KAFKA_METRICS_POLLING_INTERVAL_SECONDS_PROP, INT, D.KAFKA_METRICS_POLLING_INTERVAL_SECONDS, at_least(1), LOW
    )
    d.define(K.METRICS_PROMETHEUS_PORT_PROP, INT, D.METRICS_PROMETHEUS_PORT, Range.between(0, 65535), LOW)
    d.define(K.METRICS_PROMETHEUS_HOST_PROP, STRING, D.METRICS_PROMETHEUS_HOST, None, LOW)
    # Quotas
    d.define(
        K.PRODUCER_QUOTA_BYTES_PER_SECOND_DEFAULT_PROP,
        LONG,
        D.PRODUCER_QUOTA_BYTES_PER_SECOND_DEFAULT,
        at_least(1),
        HIGH,
    )
    d.define(
        K.CONSUMER_QUOTA_BYTES_PER_SECOND_DEFAULT_PROP,
        LONG,
        D.CONSUMER_QUOTA_BYTES_PER_SECOND_DEFAULT,
        at_least(1),
        HIGH,
    )
    d.define(K.NUM_QUOTA_SAMPLES_PROP, INT, D.NUM_QUOTA_SAMPLES, at_least(1), LOW)
    d.define(K.NUM_REPLICATION_QUOTA_SAMPLES_PROP, INT, D.NUM_REPLICATION_QUOTA_SAMPLES, at_least(1), LOW)
    d.define(
        K.NUM_ALTER_LOG_DIRS_REPLICATION_QUOTA_SAMPLES_PROP,
        INT,
        D.NUM_ALTER_LOG_DIRS_REPLICATION_QUOTA_SAMPLES,
        at_least(1),
        LOW,
    )
    d.define(K.NUM_CONTROLLER_QUOTA_SAMPLES_PROP, INT, D.NUM_CONTROLLER_QUOTA_SAMPLES, at_least(1), LOW)
    d.define(K.QUOTA_WINDOW_SIZE_SECONDS_PROP, INT, D.QUOTA_WINDOW_SIZE_SECONDS, at_least(1), LOW)
    d.define(
        K.REPLICATION_QUOTA_WINDOW_SIZE_SECONDS_PROP, INT, D.REPLICATION_QUOTA_WINDOW_SIZE_SECONDS, at_least(1), LOW
    )
    d.define(
        K.ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS_PROP,
        INT,
        D.ALTER_LOG_DIRS_REPLICATION_QUOTA_WINDOW_SIZE_SECONDS,
        at_least(1),
        LOW,
    )
    d.define(K.CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS_PROP, INT, D.CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS, at_least(1), LOW)
    d.define(K.CLIENT_QUOTA_CALLBACK_CLASS_PROP, CLASS, None, None, LOW)
    # General security
    d.define(K.CONNECTIONS_MAX_REAUTH_MS_PROP, LONG, D.CONNECTIONS_MAX_REAUTH_MS_DEFAULT, None, MEDIUM)
    d.define(K.SASL_SERVER_MAX_RECEIVE_SIZE_PROP, INT, D.DEFAULT_SERVER_MAX_MAX_RECEIVE_SIZE, None, MEDIUM)
    d.define(K.SECURITY_PROVIDER_CLASS_PROP, STRING, None, None, LOW)
    # SSL
    d.define(K.PRINCIPAL_BUILDER_CLASS_PROP, CLASS, None, None, MEDIUM)
    d.define(K.SSL_PROTOCOL_PROP, STRING, D.SSL_PROTOCOL, None, MEDIUM)
    d.define(K.SSL_PROVIDER_PROP, STRING, None, None, MEDIUM)
    d.define(K.SSL_ENABLED_PROTOCOLS_PROP, LIST, D.SSL_ENABLED_PROTOCOLS, None, MEDIUM)
    d.define(K.SSL_KEYSTORE_TYPE_PROP, STRING, D.SSL_KEYSTORE_TYPE, None, MEDIUM)
    d.define(K.SSL_KEYSTORE_LOCATION_PROP, STRING, None, None, MEDIUM)
    d.define(K.SSL_KEYSTORE_PASSWORD_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.SSL_KEY_PASSWORD_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.SSL_KEYSTORE_KEY_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.SSL_KEYSTORE_CERTIFICATE_CHAIN_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.SSL_TRUSTSTORE_TYPE_PROP, STRING, D.SSL_TRUSTSTORE_TYPE, None, MEDIUM)
    d.define(K.SSL_TRUSTSTORE_LOCATION_PROP, STRING, None, None, MEDIUM)
    d.define(K.SSL_TRUSTSTORE_PASSWORD_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.SSL_TRUSTSTORE_CERTIFICATES_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.SSL_KEY_MANAGER_ALGORITHM_PROP, STRING, D.SSL_KEY_MANAGER_ALGORITHM, None, MEDIUM)
    d.define(K.SSL_TRUST_MANAGER_ALGORITHM_PROP, STRING, D.SSL_TRUST_MANAGER_ALGORITHM, None, MEDIUM)
    d.define(K.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_PROP, STRING, D.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM, None, LOW)
    d.define(K.SSL_SECURE_RANDOM_IMPLEMENTATION_PROP, STRING, None, None, LOW)
    d.define(
        K.SSL_CLIENT_AUTH_PROP,
        STRING,
        D.SSL_CLIENT_AUTHENTICATION,
        ValidString.in_(*D.SSL_CLIENT_AUTHENTICATION_VALID_VALUES),
        MEDIUM,
    )
    d.define(K.SSL_CIPHER_SUITES_PROP, LIST, [], None, MEDIUM)
    d.define(K.SSL_PRINCIPAL_MAPPING_RULES_PROP, STRING, D.SSL_PRINCIPAL_MAPPING_RULES, None, LOW)
    d.define(K.SSL_ENGINE_FACTORY_CLASS_PROP, CLASS, None, None, LOW)
    # SASL
    d.define(K.SASL_MECHANISM_INTER_BROKER_PROTOCOL_PROP, STRING, D.SASL_MECHANISM_INTER_BROKER_PROTOCOL, None, MEDIUM)
    d.define(K.SASL_JAAS_CONFIG_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.SASL_ENABLED_MECHANISMS_PROP, LIST, list(D.SASL_ENABLED_MECHANISMS), None, MEDIUM)
    d.define(K.SASL_SERVER_CALLBACK_HANDLER_CLASS_PROP, CLASS, None, None, MEDIUM)
    d.define(K.SASL_CLIENT_CALLBACK_HANDLER_CLASS_PROP, CLASS, None, None, MEDIUM)
    d.define(K.SASL_LOGIN_CLASS_PROP, CLASS, None, None, MEDIUM)
    d.define(K.SASL_LOGIN_CALLBACK_HANDLER_CLASS_PROP, CLASS, None, None, MEDIUM)
    d.define(K.SASL_KERBEROS_SERVICE_NAME_PROP, STRING, None, None, MEDIUM)
    d.define(K.SASL_KERBEROS_KINIT_CMD_PROP, STRING, D.SASL_KERBEROS_KINIT_CMD, None, MEDIUM)
    d.define(
        K.SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR_PROP,
        DOUBLE,
        D.SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR,
        None,
        MEDIUM,
    )
    d.define(K.SASL_KERBEROS_TICKET_RENEW_JITTER_PROP, DOUBLE, D.SASL_KERBEROS_TICKET_RENEW_JITTER, None, MEDIUM)
    d.define(K.SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN_PROP, LONG, D.SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN, None, MEDIUM)
    d.define(
        K.SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES_PROP,
        LIST,
        list(D.SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES),
        None,
        MEDIUM,
    )
    d.define(K.SASL_LOGIN_REFRESH_WINDOW_FACTOR_PROP, DOUBLE, D.SASL_LOGIN_REFRESH_WINDOW_FACTOR, None, MEDIUM)
    d.define(K.SASL_LOGIN_REFRESH_WINDOW_JITTER_PROP, DOUBLE, D.SASL_LOGIN_REFRESH_WINDOW_JITTER, None, MEDIUM)
    d.define(K.SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS_PROP, SHORT, D.SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS, None, MEDIUM)
    d.define(K.SASL_LOGIN_REFRESH_BUFFER_SECONDS_PROP, SHORT, D.SASL_LOGIN_REFRESH_BUFFER_SECONDS, None, MEDIUM)
    # Delegation tokens
    d.define(K.DELEGATION_TOKEN_SECRET_KEY_ALIAS_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.DELEGATION_TOKEN_SECRET_KEY_PROP, PASSWORD, None, None, MEDIUM)
    d.define(
        K.DELEGATION_TOKEN_MAX_LIFE_TIME_PROP, LONG, D.DELEGATION_TOKEN_MAX_LIFE_TIME_MS_DEFAULT, at_least(1), MEDIUM
    )
    d.define(
        K.DELEGATION_TOKEN_EXPIRY_TIME_MS_PROP, LONG, D.DELEGATION_TOKEN_EXPIRY_TIME_MS_DEFAULT, at_least(1), MEDIUM
    )
    d.define(
        K.DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS_PROP,
        LONG,
        D.DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS_DEFAULT,
        at_least(1),
        LOW,
    )
    # Password encoder for dynamic configs
    d.define(K.PASSWORD_ENCODER_SECRET_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.PASSWORD_ENCODER_OLD_SECRET_PROP, PASSWORD, None, None, MEDIUM)
    d.define(K.PASSWORD_ENCODER_KEY_FACTORY_ALGORITHM_PROP, STRING, None, None, LOW)
    d.define(K.PASSWORD_ENCODER_CIPHER_ALGORITHM_PROP, STRING, D.PASSWORD_ENCODER_CIPHER_ALGORITHM, None, LOW)
    d.define(K.PASSWORD_ENCODER_KEY_LENGTH_PROP, INT, D.PASSWORD_ENCODER_KEY_LENGTH, at_least(8), LOW)
    d.define(K.PASSWORD_ENCODER_ITERATIONS_PROP, INT, D.PASSWORD_ENCODER_ITERATIONS, at_least(1024), LOW)
    # Raft quorum (internal in 2.8; the voters validator is not ported, the broker never uses them)
    d.define_internal(K.QUORUM_VOTERS_PROP, LIST, list(D.QUORUM_VOTERS), HIGH)
    d.define_internal(K.QUORUM_ELECTION_TIMEOUT_MS_PROP, INT, D.QUORUM_ELECTION_TIMEOUT_MS, HIGH)
    d.define_internal(K.QUORUM_FETCH_TIMEOUT_MS_PROP, INT, D.QUORUM_FETCH_TIMEOUT_MS, HIGH)
    d.define_internal(K.QUORUM_ELECTION_BACKOFF_MAX_MS_PROP, INT, D.QUORUM_ELECTION_BACKOFF_MS, HIGH)
    d.define_internal(K.QUORUM_LINGER_MS_PROP, INT, D.QUORUM_LINGER_MS, MEDIUM)
    d.define_internal(K.QUORUM_REQUEST_TIMEOUT_MS_PROP, INT, D.QUORUM_REQUEST_TIMEOUT_MS, MEDIUM)
    d.define_internal(K.QUORUM_RETRY_BACKOFF_MS_PROP, INT, D.QUORUM_RETRY_BACKOFF_MS, LOW)
    # Kafka 3.x, internal
    d.define_internal(K.UNSTABLE_API_VERSIONS_ENABLE_PROP, BOOLEAN, False, HIGH)
    return d


KafkaConfig.config_def = _build_config_def()
