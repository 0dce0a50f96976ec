"""Port of clients/src/main/java/org/apache/kafka/clients/CommonClientConfigs.java (Kafka 3.7).

The configuration names, defaults and documentation shared by the producer, consumer and admin client, and
the post-processing they share (reconnect backoff, warnings about disabled exponential backoff, the security
protocol).

# PORT: metrics are not ported yet; the metrics keys are defined so configurations written for Java clients
parse, but nothing reads them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_exception import ConfigException
from kafka.common.security.auth.security_protocol import SecurityProtocol

_log = logging.getLogger("org.apache.kafka.clients.CommonClientConfigs")

BOOTSTRAP_SERVERS_CONFIG = "bootstrap.servers"
BOOTSTRAP_SERVERS_DOC = (
    "host:port pairs used to make the first connection to the cluster. Only the first contact matters: the "
    "client then learns every broker from metadata, so this list need not name them all. Form: "
    "host1:port1,host2:port2,..."
)

CLIENT_DNS_LOOKUP_CONFIG = "client.dns.lookup"
CLIENT_DNS_LOOKUP_DOC = (
    "How broker host names are resolved. use_all_dns_ips (default): each address of a name is tried in turn "
    "until a connection succeeds. resolve_canonical_bootstrap_servers_only: each bootstrap name is resolved "
    "and replaced by the canonical names of its addresses."
)

METADATA_MAX_AGE_CONFIG = "metadata.max.age.ms"
METADATA_MAX_AGE_DOC = (
    "Metadata older than this many milliseconds is refreshed even without any sign of a leadership change, "
    "so that new brokers and partitions are found."
)

SEND_BUFFER_CONFIG = "send.buffer.bytes"
SEND_BUFFER_DOC = "SO_SNDBUF of the client's sockets; -1 keeps the operating system's default."
SEND_BUFFER_LOWER_BOUND = -1

RECEIVE_BUFFER_CONFIG = "receive.buffer.bytes"
RECEIVE_BUFFER_DOC = "SO_RCVBUF of the client's sockets; -1 keeps the operating system's default."
RECEIVE_BUFFER_LOWER_BOUND = -1

CLIENT_ID_CONFIG = "client.id"
CLIENT_ID_DOC = "A name sent with every request, so that brokers' logs and quotas can tell applications apart."

CLIENT_RACK_CONFIG = "client.rack"
CLIENT_RACK_DOC = "Where this client runs, matched against the brokers' broker.rack."
DEFAULT_CLIENT_RACK = ""

RECONNECT_BACKOFF_MS_CONFIG = "reconnect.backoff.ms"
RECONNECT_BACKOFF_MS_DOC = (
    "The first wait before connecting again to a host after a failed or lost connection; it doubles with each "
    "failure in a row up to reconnect.backoff.max.ms, with 20% random jitter."
)

RECONNECT_BACKOFF_MAX_MS_CONFIG = "reconnect.backoff.max.ms"
RECONNECT_BACKOFF_MAX_MS_DOC = "The longest wait before connecting again to a host that keeps failing."

RETRIES_CONFIG = "retries"
RETRIES_DOC = "How many times a request that failed with a transient error is sent again."

RETRY_BACKOFF_MS_CONFIG = "retry.backoff.ms"
RETRY_BACKOFF_MS_DOC = (
    "The first wait before retrying a failed request; it doubles with each failure in a row up to "
    "retry.backoff.max.ms, with 20% random jitter."
)
DEFAULT_RETRY_BACKOFF_MS = 100

RETRY_BACKOFF_MAX_MS_CONFIG = "retry.backoff.max.ms"
RETRY_BACKOFF_MAX_MS_DOC = "The longest wait before retrying a request that keeps failing."
DEFAULT_RETRY_BACKOFF_MAX_MS = 1000

RETRY_BACKOFF_EXP_BASE = 2
RETRY_BACKOFF_JITTER = 0.2

ENABLE_METRICS_PUSH_CONFIG = "enable.metrics.push"
ENABLE_METRICS_PUSH_DOC = "Whether client metrics are pushed to the cluster (KIP-714). Not used by this port."

METRICS_SAMPLE_WINDOW_MS_CONFIG = "metrics.sample.window.ms"
METRICS_SAMPLE_WINDOW_MS_DOC = "The window of time a metrics sample is computed over."

METRICS_NUM_SAMPLES_CONFIG = "metrics.num.samples"
METRICS_NUM_SAMPLES_DOC = "The number of samples maintained to compute metrics."

METRICS_RECORDING_LEVEL_CONFIG = "metrics.recording.level"
METRICS_RECORDING_LEVEL_DOC = "The highest recording level for metrics."

METRIC_REPORTER_CLASSES_CONFIG = "metric.reporters"
METRIC_REPORTER_CLASSES_DOC = "Metrics reporter classes. Not used by this port."

METRICS_CONTEXT_PREFIX = "metrics.context."

AUTO_INCLUDE_JMX_REPORTER_CONFIG = "auto.include.jmx.reporter"
AUTO_INCLUDE_JMX_REPORTER_DOC = "Deprecated in Kafka; there is no JMX here. Not used by this port."

SECURITY_PROTOCOL_CONFIG = "security.protocol"
SECURITY_PROTOCOL_DOC = (
    "Protocol used to communicate with brokers. Valid values are: " + ", ".join(SecurityProtocol.names()) + "."
)
DEFAULT_SECURITY_PROTOCOL = "PLAINTEXT"

SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG = "socket.connection.setup.timeout.ms"
SOCKET_CONNECTION_SETUP_TIMEOUT_MS_DOC = (
    "How long a connection attempt may take before the socket is closed. Repeated failures to the same host "
    "double it, with 20% random jitter, up to socket.connection.setup.timeout.max.ms."
)
DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MS = 10 * 1000

SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG = "socket.connection.setup.timeout.max.ms"
SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_DOC = "The longest a connection attempt may take after repeated failures."
DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS = 30 * 1000

CONNECTIONS_MAX_IDLE_MS_CONFIG = "connections.max.idle.ms"
CONNECTIONS_MAX_IDLE_MS_DOC = "Connections that have been idle this many milliseconds are closed."

REQUEST_TIMEOUT_MS_CONFIG = "request.timeout.ms"
REQUEST_TIMEOUT_MS_DOC = (
    "How long the client waits for the response to a request. Without a response in time the connection is "
    "closed and the request is retried if it may be, or failed."
)

DEFAULT_LIST_KEY_SERDE_INNER_CLASS = "default.list.key.serde.inner"
DEFAULT_LIST_VALUE_SERDE_INNER_CLASS = "default.list.value.serde.inner"
DEFAULT_LIST_KEY_SERDE_TYPE_CLASS = "default.list.key.serde.type"
DEFAULT_LIST_VALUE_SERDE_TYPE_CLASS = "default.list.value.serde.type"

GROUP_ID_CONFIG = "group.id"
GROUP_ID_DOC = (
    "The consumer group this consumer belongs to; needed for subscribe() and for committing offsets to Kafka."
)

GROUP_INSTANCE_ID_CONFIG = "group.instance.id"
GROUP_INSTANCE_ID_DOC = (
    "A name, unique within the group, that makes this consumer a static member (KIP-345): it keeps its "
    "assignment across restarts within the session timeout. Unset: a dynamic member."
)

MAX_POLL_INTERVAL_MS_CONFIG = "max.poll.interval.ms"
MAX_POLL_INTERVAL_MS_DOC = (
    "The longest time allowed between calls to poll() of a group consumer; a consumer that exceeds it leaves "
    "the group and its partitions are reassigned."
)

REBALANCE_TIMEOUT_MS_CONFIG = "rebalance.timeout.ms"
REBALANCE_TIMEOUT_MS_DOC = "How long each member may take to rejoin the group during a rebalance."

SESSION_TIMEOUT_MS_CONFIG = "session.timeout.ms"
SESSION_TIMEOUT_MS_DOC = (
    "A member that sends no heartbeat for this long is removed from the group. The value must lie between the "
    "broker's group.min.session.timeout.ms and group.max.session.timeout.ms."
)

HEARTBEAT_INTERVAL_MS_CONFIG = "heartbeat.interval.ms"
HEARTBEAT_INTERVAL_MS_DOC = "How often a group member sends heartbeats; at most a third of session.timeout.ms is usual."

DEFAULT_API_TIMEOUT_MS_CONFIG = "default.api.timeout.ms"
DEFAULT_API_TIMEOUT_MS_DOC = "The timeout of client calls that take no timeout argument."


def post_process_reconnect_backoff_configs(config: AbstractConfig, parsed_values: Mapping[str, Any]) -> dict[str, Any]:
    """When reconnect.backoff.ms is set and reconnect.backoff.max.ms is not, the backoff stays constant: the
    maximum is set to the base, with a warning, as Java does."""
    rval: dict[str, Any] = {}
    originals = config.originals()
    if RECONNECT_BACKOFF_MAX_MS_CONFIG not in originals and RECONNECT_BACKOFF_MS_CONFIG in originals:
        _log.warning(
            "Disabling exponential reconnect backoff because %s is set, but %s is not.",
            RECONNECT_BACKOFF_MS_CONFIG,
            RECONNECT_BACKOFF_MAX_MS_CONFIG,
        )
        rval[RECONNECT_BACKOFF_MAX_MS_CONFIG] = parsed_values.get(RECONNECT_BACKOFF_MS_CONFIG)
    return rval


def warn_disabling_exponential_backoff(config: AbstractConfig) -> None:
    """Warns when a base backoff or setup timeout exceeds its maximum (the maximum then applies throughout)."""
    retry_backoff_ms = config.get_long(RETRY_BACKOFF_MS_CONFIG)
    retry_backoff_max_ms = config.get_long(RETRY_BACKOFF_MAX_MS_CONFIG)
    if retry_backoff_ms > retry_backoff_max_ms:
        _log.warning(
            "Configuration '%s' with value '%s' is greater than configuration '%s' with value '%s'. "
            "A static backoff with value '%s' will be applied.",
            RETRY_BACKOFF_MS_CONFIG,
            retry_backoff_ms,
            RETRY_BACKOFF_MAX_MS_CONFIG,
            retry_backoff_max_ms,
            retry_backoff_max_ms,
        )
    setup_ms = config.get_long(SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG)
    setup_max_ms = config.get_long(SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG)
    if setup_ms > setup_max_ms:
        _log.warning(
            "Configuration '%s' with value '%s' is greater than configuration '%s' with value '%s'. "
            "A static connection setup timeout with value '%s' will be applied.",
            SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG,
            setup_ms,
            SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
            setup_max_ms,
            setup_max_ms,
        )


def validate_security_protocol(value: str) -> SecurityProtocol:
    """The SecurityProtocol named by a security.protocol value (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)."""
    try:
        protocol = SecurityProtocol.for_name(value)
    except ValueError:
        raise ConfigException(
            SECURITY_PROTOCOL_CONFIG, value, "String must be one of: " + ", ".join(SecurityProtocol.names())
        ) from None
    return protocol
