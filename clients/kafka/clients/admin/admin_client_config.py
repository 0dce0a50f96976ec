"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AdminClientConfig.java (Kafka 3.7).

The admin client's configuration: Java's key names, types, defaults and validators.

The ssl.* keys are Java's withClientSslSupport (kafka.common.config.ssl_configs).

# PORT: The metrics keys are defined so that Java configurations parse, but nothing reads them (no metrics
subsystem yet).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.clients import common_client_configs as ccc
from kafka.clients.admin.internals.admin_bootstrap_addresses import BOOTSTRAP_CONTROLLERS_CONFIG
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import CaseInsensitiveValidString, ConfigDef, Importance, Range, Type, ValidString
from kafka.common.config.sasl_configs import add_client_sasl_support
from kafka.common.config.ssl_configs import add_client_ssl_support
from kafka.common.security.auth.security_protocol import SecurityProtocol

__all__ = ["AdminClientConfig"]

_INT_MAX = 2**31 - 1


class AdminClientConfig(AbstractConfig):
    """Parsed and validated admin client settings."""

    kafka_logger_name = "org.apache.kafka.clients.admin.AdminClientConfig"

    BOOTSTRAP_SERVERS_CONFIG = ccc.BOOTSTRAP_SERVERS_CONFIG
    BOOTSTRAP_CONTROLLERS_CONFIG = BOOTSTRAP_CONTROLLERS_CONFIG
    CLIENT_DNS_LOOKUP_CONFIG = ccc.CLIENT_DNS_LOOKUP_CONFIG
    RECONNECT_BACKOFF_MS_CONFIG = ccc.RECONNECT_BACKOFF_MS_CONFIG
    RECONNECT_BACKOFF_MAX_MS_CONFIG = ccc.RECONNECT_BACKOFF_MAX_MS_CONFIG
    RETRY_BACKOFF_MS_CONFIG = ccc.RETRY_BACKOFF_MS_CONFIG
    RETRY_BACKOFF_MAX_MS_CONFIG = ccc.RETRY_BACKOFF_MAX_MS_CONFIG
    ENABLE_METRICS_PUSH_CONFIG = ccc.ENABLE_METRICS_PUSH_CONFIG
    SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG = ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG
    SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG = ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG
    CONNECTIONS_MAX_IDLE_MS_CONFIG = ccc.CONNECTIONS_MAX_IDLE_MS_CONFIG
    REQUEST_TIMEOUT_MS_CONFIG = ccc.REQUEST_TIMEOUT_MS_CONFIG
    CLIENT_ID_CONFIG = ccc.CLIENT_ID_CONFIG
    METADATA_MAX_AGE_CONFIG = ccc.METADATA_MAX_AGE_CONFIG
    SEND_BUFFER_CONFIG = ccc.SEND_BUFFER_CONFIG
    RECEIVE_BUFFER_CONFIG = ccc.RECEIVE_BUFFER_CONFIG
    METRIC_REPORTER_CLASSES_CONFIG = ccc.METRIC_REPORTER_CLASSES_CONFIG
    AUTO_INCLUDE_JMX_REPORTER_CONFIG = ccc.AUTO_INCLUDE_JMX_REPORTER_CONFIG
    METRICS_NUM_SAMPLES_CONFIG = ccc.METRICS_NUM_SAMPLES_CONFIG
    METRICS_SAMPLE_WINDOW_MS_CONFIG = ccc.METRICS_SAMPLE_WINDOW_MS_CONFIG
    METRICS_RECORDING_LEVEL_CONFIG = ccc.METRICS_RECORDING_LEVEL_CONFIG
    SECURITY_PROTOCOL_CONFIG = ccc.SECURITY_PROTOCOL_CONFIG
    DEFAULT_SECURITY_PROTOCOL = ccc.DEFAULT_SECURITY_PROTOCOL
    RETRIES_CONFIG = ccc.RETRIES_CONFIG
    DEFAULT_API_TIMEOUT_MS_CONFIG = ccc.DEFAULT_API_TIMEOUT_MS_CONFIG
    SECURITY_PROVIDERS_CONFIG = "security.providers"

    CONFIG: ConfigDef

    def __init__(self, props: Mapping[Any, Any], do_log: bool = False) -> None:
        super().__init__(AdminClientConfig.CONFIG, props, do_log)

    def post_process_parsed_config(self, parsed_values: dict[str, Any]) -> dict[str, Any]:
        ccc.validate_security_protocol(self.get_string(ccc.SECURITY_PROTOCOL_CONFIG))
        ccc.warn_disabling_exponential_backoff(self)
        return ccc.post_process_reconnect_backoff_configs(self, parsed_values)

    @staticmethod
    def config_names() -> set[str]:
        return AdminClientConfig.CONFIG.names()

    @staticmethod
    def config_def() -> ConfigDef:
        return ConfigDef(AdminClientConfig.CONFIG)


def _config_def() -> ConfigDef:
    H, M, L = Importance.HIGH, Importance.MEDIUM, Importance.LOW
    ac = AdminClientConfig
    return (
        ConfigDef()
        .define(ac.BOOTSTRAP_SERVERS_CONFIG, Type.LIST, "", None, H, ccc.BOOTSTRAP_SERVERS_DOC)
        .define(
            ac.BOOTSTRAP_CONTROLLERS_CONFIG,
            Type.LIST,
            "",
            None,
            H,
            "host:port pairs of the KRaft controllers to talk to directly (KIP-919), instead of bootstrap.servers.",
        )
        .define(ac.CLIENT_ID_CONFIG, Type.STRING, "", None, M, ccc.CLIENT_ID_DOC)
        .define(ac.METADATA_MAX_AGE_CONFIG, Type.LONG, 5 * 60 * 1000, Range.at_least(0), L, ccc.METADATA_MAX_AGE_DOC)
        .define(
            ac.SEND_BUFFER_CONFIG,
            Type.INT,
            128 * 1024,
            Range.at_least(ccc.SEND_BUFFER_LOWER_BOUND),
            M,
            ccc.SEND_BUFFER_DOC,
        )
        .define(
            ac.RECEIVE_BUFFER_CONFIG,
            Type.INT,
            64 * 1024,
            Range.at_least(ccc.RECEIVE_BUFFER_LOWER_BOUND),
            M,
            ccc.RECEIVE_BUFFER_DOC,
        )
        .define(ac.RECONNECT_BACKOFF_MS_CONFIG, Type.LONG, 50, Range.at_least(0), L, ccc.RECONNECT_BACKOFF_MS_DOC)
        .define(
            ac.RECONNECT_BACKOFF_MAX_MS_CONFIG, Type.LONG, 1000, Range.at_least(0), L, ccc.RECONNECT_BACKOFF_MAX_MS_DOC
        )
        .define(
            ac.RETRY_BACKOFF_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_RETRY_BACKOFF_MS,
            Range.at_least(0),
            L,
            ccc.RETRY_BACKOFF_MS_DOC,
        )
        .define(
            ac.RETRY_BACKOFF_MAX_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_RETRY_BACKOFF_MAX_MS,
            Range.at_least(0),
            L,
            ccc.RETRY_BACKOFF_MAX_MS_DOC,
        )
        .define(ac.ENABLE_METRICS_PUSH_CONFIG, Type.BOOLEAN, True, None, L, ccc.ENABLE_METRICS_PUSH_DOC)
        .define(ac.REQUEST_TIMEOUT_MS_CONFIG, Type.INT, 30000, Range.at_least(0), M, ccc.REQUEST_TIMEOUT_MS_DOC)
        .define(
            ac.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MS,
            None,
            M,
            ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_DOC,
        )
        .define(
            ac.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
            Type.LONG,
            ccc.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS,
            None,
            M,
            ccc.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_DOC,
        )
        .define(ac.CONNECTIONS_MAX_IDLE_MS_CONFIG, Type.LONG, 5 * 60 * 1000, None, M, ccc.CONNECTIONS_MAX_IDLE_MS_DOC)
        .define(ac.RETRIES_CONFIG, Type.INT, _INT_MAX, Range.between(0, _INT_MAX), L, ccc.RETRIES_DOC)
        .define(ac.DEFAULT_API_TIMEOUT_MS_CONFIG, Type.INT, 60000, Range.at_least(0), M, ccc.DEFAULT_API_TIMEOUT_MS_DOC)
        .define(
            ac.METRICS_SAMPLE_WINDOW_MS_CONFIG, Type.LONG, 30000, Range.at_least(0), L, ccc.METRICS_SAMPLE_WINDOW_MS_DOC
        )
        .define(ac.METRICS_NUM_SAMPLES_CONFIG, Type.INT, 2, Range.at_least(1), L, ccc.METRICS_NUM_SAMPLES_DOC)
        .define(ac.METRIC_REPORTER_CLASSES_CONFIG, Type.LIST, "", None, L, ccc.METRIC_REPORTER_CLASSES_DOC)
        .define(
            ac.METRICS_RECORDING_LEVEL_CONFIG,
            Type.STRING,
            "INFO",
            ValidString.in_("INFO", "DEBUG", "TRACE"),
            L,
            ccc.METRICS_RECORDING_LEVEL_DOC,
        )
        .define(ac.AUTO_INCLUDE_JMX_REPORTER_CONFIG, Type.BOOLEAN, True, None, L, ccc.AUTO_INCLUDE_JMX_REPORTER_DOC)
        .define(
            ac.CLIENT_DNS_LOOKUP_CONFIG,
            Type.STRING,
            "use_all_dns_ips",
            ValidString.in_("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"),
            M,
            ccc.CLIENT_DNS_LOOKUP_DOC,
        )
        .define(
            ac.SECURITY_PROVIDERS_CONFIG,
            Type.STRING,
            None,
            None,
            L,
            "Security providers (not used: TLS is Python's ssl module).",
        )
        .define(
            ac.SECURITY_PROTOCOL_CONFIG,
            Type.STRING,
            ccc.DEFAULT_SECURITY_PROTOCOL,
            CaseInsensitiveValidString.in_(*SecurityProtocol.names()),
            M,
            ccc.SECURITY_PROTOCOL_DOC,
        )
    )


AdminClientConfig.CONFIG = add_client_sasl_support(add_client_ssl_support(_config_def()))
