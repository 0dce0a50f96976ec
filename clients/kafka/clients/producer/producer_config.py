"""Port of clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java (Kafka 3.7).

The producer's configuration: Java's key names, types, defaults and validators, and Java's
post-processing (acks "all" -> "-1", enable.idempotence checks and downgrade, client.id
"producer-N", reconnect backoff).

The ssl.* keys are Java's withClientSslSupport (kafka.common.config.ssl_configs).

# PORT: Metrics keys are defined so that Java configurations parse, but nothing reads them yet.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Mapping
from typing import Any

from kafka.clients import common_client_configs as ccc
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
from kafka.common.record.compression_type import CompressionType
from kafka.common.security.auth.security_protocol import SecurityProtocol

__all__ = ["ProducerConfig"]

_log = logging.getLogger("org.apache.kafka.clients.producer.ProducerConfig")

_INT_MAX = 2**31 - 1

# Idempotence keeps ordering with at most this many requests in flight per connection.
_MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE = 5

_client_id_sequence = itertools.count(1)
_client_id_lock = threading.Lock()


def _next_client_id_number() -> int:
    with _client_id_lock:
        return next(_client_id_sequence)


class ProducerConfig(AbstractConfig):
    """Parsed and validated producer settings."""

    kafka_logger_name = "org.apache.kafka.clients.producer.ProducerConfig"

    BOOTSTRAP_SERVERS_CONFIG = ccc.BOOTSTRAP_SERVERS_CONFIG
    CLIENT_DNS_LOOKUP_CONFIG = ccc.CLIENT_DNS_LOOKUP_CONFIG
    METADATA_MAX_AGE_CONFIG = ccc.METADATA_MAX_AGE_CONFIG
    METADATA_MAX_IDLE_CONFIG = "metadata.max.idle.ms"
    BATCH_SIZE_CONFIG = "batch.size"
    PARTITIONER_ADPATIVE_PARTITIONING_ENABLE_CONFIG = "partitioner.adaptive.partitioning.enable"
    PARTITIONER_AVAILABILITY_TIMEOUT_MS_CONFIG = "partitioner.availability.timeout.ms"
    PARTITIONER_IGNORE_KEYS_CONFIG = "partitioner.ignore.keys"
    ACKS_CONFIG = "acks"
    LINGER_MS_CONFIG = "linger.ms"
    REQUEST_TIMEOUT_MS_CONFIG = ccc.REQUEST_TIMEOUT_MS_CONFIG
    DELIVERY_TIMEOUT_MS_CONFIG = "delivery.timeout.ms"
    CLIENT_ID_CONFIG = ccc.CLIENT_ID_CONFIG
    SEND_BUFFER_CONFIG = ccc.SEND_BUFFER_CONFIG
    RECEIVE_BUFFER_CONFIG = ccc.RECEIVE_BUFFER_CONFIG
    MAX_REQUEST_SIZE_CONFIG = "max.request.size"
    RECONNECT_BACKOFF_MS_CONFIG = ccc.RECONNECT_BACKOFF_MS_CONFIG
    RECONNECT_BACKOFF_MAX_MS_CONFIG = ccc.RECONNECT_BACKOFF_MAX_MS_CONFIG
    MAX_BLOCK_MS_CONFIG = "max.block.ms"
    BUFFER_MEMORY_CONFIG = "buffer.memory"
    RETRY_BACKOFF_MS_CONFIG = ccc.RETRY_BACKOFF_MS_CONFIG
    RETRY_BACKOFF_MAX_MS_CONFIG = ccc.RETRY_BACKOFF_MAX_MS_CONFIG
    ENABLE_METRICS_PUSH_CONFIG = ccc.ENABLE_METRICS_PUSH_CONFIG
    COMPRESSION_TYPE_CONFIG = "compression.type"
    METRICS_SAMPLE_WINDOW_MS_CONFIG = ccc.METRICS_SAMPLE_WINDOW_MS_CONFIG
    METRICS_NUM_SAMPLES_CONFIG = ccc.METRICS_NUM_SAMPLES_CONFIG
    METRICS_RECORDING_LEVEL_CONFIG = ccc.METRICS_RECORDING_LEVEL_CONFIG
    METRIC_REPORTER_CLASSES_CONFIG = ccc.METRIC_REPORTER_CLASSES_CONFIG
    AUTO_INCLUDE_JMX_REPORTER_CONFIG = ccc.AUTO_INCLUDE_JMX_REPORTER_CONFIG
    MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION = "max.in.flight.requests.per.connection"
    RETRIES_CONFIG = ccc.RETRIES_CONFIG
    KEY_SERIALIZER_CLASS_CONFIG = "key.serializer"
    VALUE_SERIALIZER_CLASS_CONFIG = "value.serializer"
    SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG = ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG
    SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG = ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG
    CONNECTIONS_MAX_IDLE_MS_CONFIG = ccc.CONNECTIONS_MAX_IDLE_MS_CONFIG
    PARTITIONER_CLASS_CONFIG = "partitioner.class"
    INTERCEPTOR_CLASSES_CONFIG = "interceptor.classes"
    ENABLE_IDEMPOTENCE_CONFIG = "enable.idempotence"
    TRANSACTION_TIMEOUT_CONFIG = "transaction.timeout.ms"
    TRANSACTIONAL_ID_CONFIG = "transactional.id"
    SECURITY_PROVIDERS_CONFIG = "security.providers"
    SECURITY_PROTOCOL_CONFIG = ccc.SECURITY_PROTOCOL_CONFIG

    CONFIG: ConfigDef

    def __init__(self, props: Mapping[Any, Any], do_log: bool = True) -> None:
        super().__init__(ProducerConfig.CONFIG, props, do_log)

    def post_process_parsed_config(self, parsed_values: dict[str, Any]) -> dict[str, Any]:
        ccc.validate_security_protocol(self.get_string(ccc.SECURITY_PROTOCOL_CONFIG))
        ccc.warn_disabling_exponential_backoff(self)
        refined_configs = ccc.post_process_reconnect_backoff_configs(self, parsed_values)
        self._post_process_and_validate_idempotence_configs(refined_configs)
        self._maybe_override_client_id(refined_configs)
        return refined_configs

    def _maybe_override_client_id(self, configs: dict[str, Any]) -> None:
        if self.CLIENT_ID_CONFIG in self.originals():
            refined_client_id = self.get_string(self.CLIENT_ID_CONFIG)
        else:
            transactional_id = self.get_string(self.TRANSACTIONAL_ID_CONFIG)
            refined_client_id = "producer-" + (
                transactional_id if transactional_id is not None else str(_next_client_id_number())
            )
        configs[self.CLIENT_ID_CONFIG] = refined_client_id

    def _post_process_and_validate_idempotence_configs(self, configs: dict[str, Any]) -> None:
        original_configs = self.originals()
        acks_str = _parse_acks(self.get_string(self.ACKS_CONFIG))
        configs[self.ACKS_CONFIG] = acks_str
        user_configured_idempotence = self.ENABLE_IDEMPOTENCE_CONFIG in original_configs
        idempotence_enabled = self.get_boolean(self.ENABLE_IDEMPOTENCE_CONFIG)
        should_disable_idempotence = False
        # Idempotence needs retries, acks=all and at most 5 requests in flight: an explicit
        # enable.idempotence=true fails without them, the default just turns idempotence off.
        if idempotence_enabled:
            retries = self.get_int(self.RETRIES_CONFIG)
            if retries == 0:
                if user_configured_idempotence:
                    raise ConfigException(
                        f"Must set {self.RETRIES_CONFIG} to non-zero when using the idempotent producer."
                    )
                _log.info("Idempotence will be disabled because %s is set to 0.", self.RETRIES_CONFIG)
                should_disable_idempotence = True
            acks = int(acks_str)
            if acks != -1:
                if user_configured_idempotence:
                    raise ConfigException(
                        f"Must set {self.ACKS_CONFIG} to all in order to use the idempotent producer. Otherwise we "
                        "cannot guarantee idempotence."
                    )
                _log.info(
                    "Idempotence will be disabled because %s is set to %s, not set to 'all'.", self.ACKS_CONFIG, acks
                )
                should_disable_idempotence = True
            in_flight_connection = self.get_int(self.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION)
            if _MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE < in_flight_connection:
                if user_configured_idempotence:
                    raise ConfigException(
                        f"Must set {self.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION} to at most 5 to use the idempotent "
                        "producer."
                    )
                _log.warning(
                    "Idempotence will be disabled because %s is set to %s, which is greater than 5. Please note "
                    "that in v4.0.0 and onward, this will become an error.",
                    self.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                    in_flight_connection,
                )
                should_disable_idempotence = True
        if should_disable_idempotence:
            configs[self.ENABLE_IDEMPOTENCE_CONFIG] = False
            idempotence_enabled = False
        # Checked after the idempotence settings, since enable.idempotence may have just been turned off.
        if not idempotence_enabled and self.TRANSACTIONAL_ID_CONFIG in original_configs:
            raise ConfigException(f"Cannot set a {self.TRANSACTIONAL_ID_CONFIG} without also enabling idempotence.")

    @staticmethod
    def append_serializer_to_config(
        configs: Mapping[str, Any], key_serializer: Any, value_serializer: Any
    ) -> dict[str, Any]:
        """The configs with the classes of serializer instances given to the constructor filled in.

        Without an instance, the config must name a serializer class.
        """
        new_configs = dict(configs)
        if key_serializer is not None:
            new_configs[ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG] = type(key_serializer)
        elif new_configs.get(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG) is None:
            raise ConfigException(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, None, "must be non-null.")
        if value_serializer is not None:
            new_configs[ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG] = type(value_serializer)
        elif new_configs.get(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG) is None:
            raise ConfigException(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, None, "must be non-null.")
        return new_configs

    @staticmethod
    def config_names() -> set[str]:
        return ProducerConfig.CONFIG.names()

    @staticmethod
    def config_def() -> ConfigDef:
        return ConfigDef(ProducerConfig.CONFIG)


def _parse_acks(acks_string: str) -> str:
    try:
        trimmed = acks_string.strip()
        if trimmed.lower() == "all":
            return "-1"
        value = int(trimmed)
        if not -(2**15) <= value < 2**15:
            raise ValueError(value)
        return str(value)
    except (ValueError, AttributeError):
        raise ConfigException(f"Invalid configuration value for 'acks': {acks_string}") from None


def _config_def() -> ConfigDef:
    H, M, L = Importance.HIGH, Importance.MEDIUM, Importance.LOW
    pc = ProducerConfig
    return (
        ConfigDef()
        .define(pc.BOOTSTRAP_SERVERS_CONFIG, Type.LIST, [], NonNullValidator(), H, ccc.BOOTSTRAP_SERVERS_DOC)
        .define(
            pc.CLIENT_DNS_LOOKUP_CONFIG,
            Type.STRING,
            "use_all_dns_ips",
            ValidString.in_("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"),
            M,
            ccc.CLIENT_DNS_LOOKUP_DOC,
        )
        .define(
            pc.BUFFER_MEMORY_CONFIG,
            Type.LONG,
            32 * 1024 * 1024,
            Range.at_least(0),
            H,
            "Bytes the producer may hold in batches not yet acknowledged; send() blocks up to max.block.ms when "
            "they are used up.",
        )
        .define(
            pc.RETRIES_CONFIG,
            Type.INT,
            _INT_MAX,
            Range.between(0, _INT_MAX),
            H,
            "How often a batch that failed with a transient error is sent again (within delivery.timeout.ms).",
        )
        .define(
            pc.ACKS_CONFIG,
            Type.STRING,
            "all",
            ValidString.in_("all", "-1", "0", "1"),
            L,
            "Acknowledgements the leader waits for before answering: 0 (none, no answer), 1 (the leader's "
            "write), all/-1 (every in-sync replica).",
        )
        .define(
            pc.COMPRESSION_TYPE_CONFIG,
            Type.STRING,
            CompressionType.NONE.name,
            ValidString.in_(*(t.name for t in CompressionType.values())),
            H,
            "Codec of the record batches: none, gzip, snappy, lz4 or zstd.",
        )
        .define(
            pc.BATCH_SIZE_CONFIG,
            Type.INT,
            16384,
            Range.at_least(0),
            M,
            "Bytes of records gathered per partition into one batch; 0 disables batching.",
        )
        .define(
            pc.PARTITIONER_ADPATIVE_PARTITIONING_ENABLE_CONFIG,
            Type.BOOLEAN,
            True,
            None,
            L,
            "Whether records without a key go more often to partitions whose leaders keep up (KIP-794).",
        )
        .define(
            pc.PARTITIONER_AVAILABILITY_TIMEOUT_MS_CONFIG,
            Type.LONG,
            0,
            Range.at_least(0),
            L,
            "A partition whose leader could not take data for this long gets no new unkeyed records; 0 disables.",
        )
        .define(
            pc.PARTITIONER_IGNORE_KEYS_CONFIG,
            Type.BOOLEAN,
            False,
            None,
            M,
            "When true, keys are not used to choose partitions: every record goes to the sticky partition.",
        )
        .define(
            pc.LINGER_MS_CONFIG,
            Type.LONG,
            0,
            Range.at_least(0),
            M,
            "How long a batch that is not full waits for more records before it is sent.",
        )
        .define(
            pc.DELIVERY_TIMEOUT_MS_CONFIG,
            Type.INT,
            120 * 1000,
            Range.at_least(0),
            M,
            "Upper bound on the time from send() to success or failure, retries included; at least "
            "linger.ms + request.timeout.ms.",
        )
        .define(pc.CLIENT_ID_CONFIG, Type.STRING, "", None, M, ccc.CLIENT_ID_DOC)
        .define(
            pc.SEND_BUFFER_CONFIG,
            Type.INT,
            128 * 1024,
            Range.at_least(ccc.SEND_BUFFER_LOWER_BOUND),
            M,
            ccc.SEND_BUFFER_DOC,
        )
        .define(
            pc.RECEIVE_BUFFER_CONFIG,
            Type.INT,
            32 * 1024,
            Range.at_least(ccc.RECEIVE_BUFFER_LOWER_BOUND),
            M,
            ccc.RECEIVE_BUFFER_DOC,
        )
        .define(
            pc.MAX_REQUEST_SIZE_CONFIG,
            Type.INT,
            1024 * 1024,
            Range.at_least(0),
            M,
            "The largest produce request, and so the largest uncompressed record, the producer sends.",
        )
        .define(pc.RECONNECT_BACKOFF_MS_CONFIG, Type.LONG, 50, Range.at_least(0), L, ccc.RECONNECT_BACKOFF_MS_DOC)
        .define(
            pc.RECONNECT_BACKOFF_MAX_MS_CONFIG, Type.LONG, 1000, Range.at_least(0), L, ccc.RECONNECT_BACKOFF_MAX_MS_DOC
        )
        .define(
            pc.RETRY_BACKOFF_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_RETRY_BACKOFF_MS,
            Range.at_least(0),
            L,
            ccc.RETRY_BACKOFF_MS_DOC,
        )
        .define(
            pc.RETRY_BACKOFF_MAX_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_RETRY_BACKOFF_MAX_MS,
            Range.at_least(0),
            L,
            ccc.RETRY_BACKOFF_MAX_MS_DOC,
        )
        .define(pc.ENABLE_METRICS_PUSH_CONFIG, Type.BOOLEAN, True, None, L, ccc.ENABLE_METRICS_PUSH_DOC)
        .define(
            pc.MAX_BLOCK_MS_CONFIG,
            Type.LONG,
            60 * 1000,
            Range.at_least(0),
            M,
            "How long send() and partitions_for() may block waiting for metadata or buffer memory.",
        )
        .define(pc.REQUEST_TIMEOUT_MS_CONFIG, Type.INT, 30 * 1000, Range.at_least(0), M, ccc.REQUEST_TIMEOUT_MS_DOC)
        .define(pc.METADATA_MAX_AGE_CONFIG, Type.LONG, 5 * 60 * 1000, Range.at_least(0), L, ccc.METADATA_MAX_AGE_DOC)
        .define(
            pc.METADATA_MAX_IDLE_CONFIG,
            Type.LONG,
            5 * 60 * 1000,
            Range.at_least(5000),
            L,
            "A topic not produced to for this long is dropped from the producer's metadata.",
        )
        .define(
            pc.METRICS_SAMPLE_WINDOW_MS_CONFIG,
            Type.LONG,
            30000,
            Range.at_least(0),
            L,
            ccc.METRICS_SAMPLE_WINDOW_MS_DOC,
        )
        .define(pc.METRICS_NUM_SAMPLES_CONFIG, Type.INT, 2, Range.at_least(1), L, ccc.METRICS_NUM_SAMPLES_DOC)
        .define(
            pc.METRICS_RECORDING_LEVEL_CONFIG,
            Type.STRING,
            "INFO",
            ValidString.in_("INFO", "DEBUG", "TRACE"),
            L,
            ccc.METRICS_RECORDING_LEVEL_DOC,
        )
        .define(
            pc.METRIC_REPORTER_CLASSES_CONFIG, Type.LIST, [], NonNullValidator(), L, ccc.METRIC_REPORTER_CLASSES_DOC
        )
        .define(pc.AUTO_INCLUDE_JMX_REPORTER_CONFIG, Type.BOOLEAN, True, None, L, ccc.AUTO_INCLUDE_JMX_REPORTER_DOC)
        .define(
            pc.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            Type.INT,
            5,
            Range.at_least(1),
            L,
            "Produce requests a connection may have unanswered; above 5 idempotence is off and retries may "
            "reorder records.",
        )
        .define(
            pc.KEY_SERIALIZER_CLASS_CONFIG,
            Type.CLASS,
            importance=H,
            documentation="Serializer class of record keys (a kafka.common.serialization.Serializer).",
        )
        .define(
            pc.VALUE_SERIALIZER_CLASS_CONFIG,
            Type.CLASS,
            importance=H,
            documentation="Serializer class of record values (a kafka.common.serialization.Serializer).",
        )
        .define(
            pc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MS,
            None,
            M,
            ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_DOC,
        )
        .define(
            pc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS,
            None,
            M,
            ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_DOC,
        )
        # A little below the broker's 10 minutes, so that client and broker do not close at the same moment.
        .define(pc.CONNECTIONS_MAX_IDLE_MS_CONFIG, Type.LONG, 9 * 60 * 1000, None, M, ccc.CONNECTIONS_MAX_IDLE_MS_DOC)
        .define(
            pc.PARTITIONER_CLASS_CONFIG,
            Type.CLASS,
            None,
            None,
            M,
            "A Partitioner class; unset, the built-in partitioning (murmur2 of the key, sticky for the rest) is used.",
        )
        .define(
            pc.INTERCEPTOR_CLASSES_CONFIG,
            Type.LIST,
            [],
            NonNullValidator(),
            L,
            "ProducerInterceptor classes, called in order on every record.",
        )
        .define(
            ccc.SECURITY_PROTOCOL_CONFIG,
            Type.STRING,
            ccc.DEFAULT_SECURITY_PROTOCOL,
            CaseInsensitiveValidString.in_(*SecurityProtocol.names()),
            M,
            ccc.SECURITY_PROTOCOL_DOC,
        )
        .define(
            pc.SECURITY_PROVIDERS_CONFIG,
            Type.STRING,
            None,
            None,
            L,
            "Security providers (not used: TLS is Python's ssl module).",
        )
        .define(
            pc.ENABLE_IDEMPOTENCE_CONFIG,
            Type.BOOLEAN,
            True,
            None,
            L,
            "When true, each record is written exactly once per partition and in order, whatever the retries; "
            "needs acks=all, retries > 0 and at most 5 requests in flight.",
        )
        .define(
            pc.TRANSACTION_TIMEOUT_CONFIG,
            Type.INT,
            60000,
            None,
            L,
            "How long a transaction may stay open before the coordinator aborts it.",
        )
        .define(
            pc.TRANSACTIONAL_ID_CONFIG,
            Type.STRING,
            None,
            NonEmptyString(),
            L,
            "The id of a transactional producer, the same across its restarts: a new producer with this id fences "
            "the old one and completes its open transaction. Needs idempotence (enable.idempotence, on by default).",
        )
    )


ProducerConfig.CONFIG = add_client_sasl_support(add_client_ssl_support(_config_def()))
