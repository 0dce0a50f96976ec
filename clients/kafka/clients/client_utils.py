"""Port of clients/src/main/java/org/apache/kafka/clients/ClientUtils.java (Kafka 3.7).

Helpers shared by the producer, consumer and admin client: parsing and checking bootstrap.servers, resolving
broker host names, building the NetworkClient from a client config, and collecting ClusterResourceListeners.

# PORT: addresses are (host, port) pairs where Java uses unresolved-or-resolved InetSocketAddresses (their host
# string is what the bootstrap Cluster shows). create_network_client takes no metrics (not ported).
"""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kafka.clients import common_client_configs
from kafka.clients.client_dns_lookup import ClientDnsLookup
from kafka.clients.host_resolver import HostResolver
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import KafkaException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.inet_address import InetAddress
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.clients.api_versions import ApiVersions
    from kafka.clients.metadata import Metadata
    from kafka.clients.metadata_updater import MetadataUpdater
    from kafka.clients.network_client import NetworkClient
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor

__all__ = [
    "configure_cluster_resource_listeners",
    "create_channel_builder",
    "create_metrics",
    "create_network_client",
    "filter_preferred_addresses",
    "get_host",
    "get_port",
    "parse_and_validate_addresses",
    "resolve",
]

_log = logging.getLogger("org.apache.kafka.clients.ClientUtils")

# Utils.HOST_PORT_PATTERN: anything up to an optional '[', the host, an optional ']', ':' and the port.
_HOST_PORT_PATTERN = re.compile(r".*?\[?([0-9a-zA-Z\-%._:]*)\]?:([0-9]+)")


def get_host(address: str) -> str | None:
    """The host of a "host:port" string (Utils.getHost), None if it does not parse."""
    m = _HOST_PORT_PATTERN.fullmatch(address)
    return m.group(1) if m else None


def get_port(address: str) -> int | None:
    """The port of a "host:port" string (Utils.getPort), None if it does not parse."""
    m = _HOST_PORT_PATTERN.fullmatch(address)
    return int(m.group(2)) if m else None


def _resolvable(host: str) -> bool:
    try:
        socket.getaddrinfo(host, None, socket.AF_UNSPEC, socket.SOCK_STREAM)
        return True
    except (OSError, UnicodeError):
        return False


def parse_and_validate_addresses(
    urls: AbstractConfig | Sequence[str], client_dns_lookup: ClientDnsLookup | str | None = None
) -> list[tuple[str, int]]:
    """The bootstrap addresses of `urls` (or of a config's bootstrap.servers and client.dns.lookup). A url that
    does not parse is a ConfigException; one that does not resolve is skipped with a warning; none left is a
    ConfigException."""
    if isinstance(urls, AbstractConfig):
        config = urls
        urls = config.get_list(common_client_configs.BOOTSTRAP_SERVERS_CONFIG)
        client_dns_lookup = config.get_string(common_client_configs.CLIENT_DNS_LOOKUP_CONFIG)
    if client_dns_lookup is None:
        lookup = ClientDnsLookup.USE_ALL_DNS_IPS
    elif isinstance(client_dns_lookup, str):
        lookup = ClientDnsLookup.for_config(client_dns_lookup)
    else:
        lookup = client_dns_lookup
    key = common_client_configs.BOOTSTRAP_SERVERS_CONFIG
    addresses: list[tuple[str, int]] = []
    for url in urls:
        if not url:
            continue
        host = get_host(url)
        port = get_port(url)
        if host is None or port is None:
            raise ConfigException(f"Invalid url in {key}: {url}")
        if not 0 <= port <= 65535:
            raise ConfigException(f"Invalid port in {key}: {url}")
        if lookup is ClientDnsLookup.RESOLVE_CANONICAL_BOOTSTRAP_SERVERS_ONLY:
            try:
                infos = socket.getaddrinfo(host, None, socket.AF_UNSPEC, socket.SOCK_STREAM)
            except (OSError, UnicodeError):
                raise ConfigException(f"Unknown host in {key}: {url}") from None
            for info in infos:
                ip = str(info[4][0])
                try:
                    canonical = socket.gethostbyaddr(ip)[0]
                except OSError:
                    canonical = ip
                if _resolvable(canonical):
                    if (canonical, port) not in addresses:
                        addresses.append((canonical, port))
                else:
                    _log.warning(
                        "Couldn't resolve server %s from %s as DNS resolution of the canonical hostname %s failed "
                        "for %s",
                        url,
                        key,
                        canonical,
                        host,
                    )
        elif _resolvable(host):
            addresses.append((host, port))
        else:
            _log.warning("Couldn't resolve server %s from %s as DNS resolution failed for %s", url, key, host)
    if not addresses:
        raise ConfigException(f"No resolvable bootstrap urls given in {key}")
    return addresses


def create_channel_builder(config: AbstractConfig, time: Time, log_context: LogContext) -> ChannelBuilder:
    """The channel builder of the config's security.protocol (ChannelBuilders.client_channel_builder with the
    client JAAS context and `sasl.mechanism`)."""
    from kafka.common.network.channel_builders import ChannelBuilders

    security_protocol = common_client_configs.validate_security_protocol(
        config.get_string(common_client_configs.SECURITY_PROTOCOL_CONFIG)
    )
    context_type = None
    client_sasl_mechanism = config.values().get("sasl.mechanism") or "GSSAPI"
    if security_protocol in (SecurityProtocol.SASL_PLAINTEXT, SecurityProtocol.SASL_SSL):
        from kafka.common.security.jaas_context import JaasContext

        context_type = JaasContext.Type.CLIENT
    return ChannelBuilders.client_channel_builder(
        security_protocol, context_type, config, None, client_sasl_mechanism, time, True, log_context
    )


def resolve(host: str, host_resolver: HostResolver) -> list[InetAddress]:
    """The addresses of `host` of the family of its first address (IPv4 or IPv6, as the resolver ranks them)."""
    addresses = host_resolver.resolve(host)
    result = filter_preferred_addresses(addresses)
    if _log.isEnabledFor(logging.DEBUG):
        _log.debug("Resolved host %s as %s", host, ",".join(a.host_address for a in result))
    return result


def filter_preferred_addresses(all_addresses: Iterable[InetAddress]) -> list[InetAddress]:
    preferred: list[InetAddress] = []
    family = None
    for address in all_addresses:
        if family is None:
            family = address.family
        if address.family == family:
            preferred.append(address)
    return preferred


def create_network_client(
    config: AbstractConfig,
    log_context: LogContext,
    api_versions: ApiVersions,
    time: Time,
    max_in_flight_requests_per_connection: int,
    metadata: Metadata | None = None,
    client_id: str | None = None,
    request_timeout_ms: int | None = None,
    metadata_updater: MetadataUpdater | None = None,
    host_resolver: HostResolver | None = None,
    metrics: Metrics | None = None,
    metrics_grp_prefix: str = "",
    throttle_time_sensor: Sensor | None = None,
    write_on_send: bool = False,
) -> NetworkClient:
    """A NetworkClient configured from the common client settings of `config`, with either `metadata` (the
    default metadata updater) or a `metadata_updater` (the admin client's); `write_on_send`: the selector's (see
    kafka.common.network.selector)."""
    from kafka.clients.default_host_resolver import DefaultHostResolver
    from kafka.clients.network_client import NetworkClient
    from kafka.common.network.network_receive import ReceiveBufferPool
    from kafka.common.network.selectable import Selectable
    from kafka.common.network.selector import Selector

    updater = metadata if metadata_updater is None else metadata_updater
    if updater is None:
        raise ValueError("`metadata` must not be null")
    channel_builder: ChannelBuilder | None = None
    selector: Selector | None = None
    try:
        channel_builder = create_channel_builder(config, time, log_context)
        selector = Selector(
            config.get_long(common_client_configs.CONNECTIONS_MAX_IDLE_MS_CONFIG),
            time,
            log_context,
            channel_builder=channel_builder,
            memory_pool=ReceiveBufferPool(
                low_water_mark=config.get_int(common_client_configs.RECEIVE_BUFFER_CONFIG)
                != Selectable.USE_DEFAULT_BUFFER_SIZE
            ),
            metrics=metrics,
            metric_grp_prefix=metrics_grp_prefix,
            write_on_send=write_on_send,
        )
        return NetworkClient(
            selector,
            updater,
            config.get_string(common_client_configs.CLIENT_ID_CONFIG) if client_id is None else client_id,
            max_in_flight_requests_per_connection,
            config.get_long(common_client_configs.RECONNECT_BACKOFF_MS_CONFIG),
            config.get_long(common_client_configs.RECONNECT_BACKOFF_MAX_MS_CONFIG),
            config.get_int(common_client_configs.SEND_BUFFER_CONFIG),
            config.get_int(common_client_configs.RECEIVE_BUFFER_CONFIG),
            (
                config.get_int(common_client_configs.REQUEST_TIMEOUT_MS_CONFIG)
                if request_timeout_ms is None
                else request_timeout_ms
            ),
            config.get_long(common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG),
            config.get_long(common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG),
            time,
            True,
            api_versions,
            log_context,
            host_resolver=host_resolver if host_resolver is not None else DefaultHostResolver(),
            throttle_time_sensor=throttle_time_sensor,
        )
    except ConfigException:
        # PORT: Java wraps this too; a bad security.protocol stays a plain ConfigException here so the user sees it.
        if selector is not None:
            selector.close()
        elif channel_builder is not None:
            channel_builder.close()
        raise
    except Exception as e:
        if selector is not None:
            selector.close()
        elif channel_builder is not None:
            channel_builder.close()
        raise KafkaException("Failed to create new NetworkClient") from e


def configure_cluster_resource_listeners(*candidate_lists: Iterable[object]) -> ClusterResourceListeners:
    """The ClusterResourceListeners among the given plug-ins."""
    listeners = ClusterResourceListeners()
    for candidates in candidate_lists:
        listeners.maybe_add_all(candidates)
    return listeners


def create_metrics(config: AbstractConfig, client_id: str, time: Time) -> Metrics:
    """The Metrics registry of a client, as the Java clients build theirs: samples, sample window and recording
    level from the metrics.* settings, every metric tagged with `client-id`.

    # PORT: no reporters (metric.reporters is not read; there is no JMX) and the metrics context is not used."""
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import RecordingLevel

    metric_config = MetricConfig(
        samples=config.get_int(common_client_configs.METRICS_NUM_SAMPLES_CONFIG),
        time_window_ms=config.get_long(common_client_configs.METRICS_SAMPLE_WINDOW_MS_CONFIG),
        record_level=RecordingLevel.for_name(config.get_string(common_client_configs.METRICS_RECORDING_LEVEL_CONFIG)),
        tags={"client-id": client_id},
    )
    return Metrics(metric_config, time=time)
