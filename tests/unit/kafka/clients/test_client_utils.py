"""Tests of kafka.clients.client_utils and common_client_configs (from Kafka's ClientUtilsTest): bootstrap address
parsing and validation, address preference, and the PLAINTEXT-only security protocol check."""

from __future__ import annotations

import re

import pytest

from kafka.clients import client_utils, common_client_configs
from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_dns_lookup import ClientDnsLookup
from kafka.clients.metadata import Metadata
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import ConfigDef, Type
from kafka.common.config.config_exception import ConfigException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.network.inet_address import InetAddress
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from tests.unit.kafka.clients.address_change_host_resolver import AddressChangeHostResolver


def _check(*urls: str) -> list[tuple[str, int]]:
    return client_utils.parse_and_validate_addresses(list(urls), ClientDnsLookup.USE_ALL_DNS_IPS)


def test_parse_and_validate_addresses() -> None:
    """host:port, IPv4 and bracketed IPv6 literals parse; the host string is kept as given."""
    assert _check("127.0.0.1:8000") == [("127.0.0.1", 8000)]
    assert _check("localhost:8080") == [("localhost", 8080)]
    assert _check("[::1]:8000") == [("::1", 8000)]
    assert _check("[2001:db8:85a3:8d3:1319:8a2e:370:7348]:1234", "localhost:10000") == [
        ("2001:db8:85a3:8d3:1319:8a2e:370:7348", 1234),
        ("localhost", 10000),
    ]
    assert _check("", "localhost:10000") == [("localhost", 10000)]  # empty entries are skipped


def test_invalid_config() -> None:
    """An unknown client.dns.lookup value is refused."""
    with pytest.raises(KeyError):
        client_utils.parse_and_validate_addresses(["localhost:10000"], "random.value")


def test_no_port() -> None:
    """A url without a port is a ConfigException naming it."""
    with pytest.raises(ConfigException, match=re.escape("Invalid url in bootstrap.servers: 127.0.0.1")):
        _check("127.0.0.1")


def test_invalid_port() -> None:
    """A port out of range is a ConfigException."""
    with pytest.raises(ConfigException, match=re.escape("Invalid port in bootstrap.servers: localhost:70000")):
        _check("localhost:70000")


def test_only_bad_hostname() -> None:
    """When no url resolves, the config is refused."""
    with pytest.raises(ConfigException, match=re.escape("No resolvable bootstrap urls given in bootstrap.servers")):
        _check("some.invalid.hostname.foo.bar.local:9999")


def test_bad_hostname_skipped_when_another_resolves() -> None:
    """An unresolvable url is skipped (with a warning) if another resolves."""
    assert _check("some.invalid.hostname.foo.bar.local:9999", "localhost:1") == [("localhost", 1)]


def test_filter_preferred_addresses() -> None:
    """Only the addresses of the first address's family are kept."""
    ipv4, ipv6 = InetAddress(None, "192.0.0.1"), InetAddress(None, "::1")
    assert client_utils.filter_preferred_addresses([ipv4, ipv6, ipv4]) == [ipv4, ipv4]
    assert client_utils.filter_preferred_addresses([ipv6, ipv4, ipv4]) == [ipv6]


def test_resolve_unknown_host() -> None:
    """Resolving an unknown host raises OSError (Java: UnknownHostException)."""
    from kafka.clients.default_host_resolver import DefaultHostResolver

    with pytest.raises(OSError):
        client_utils.resolve("some.invalid.hostname.foo.bar.local", DefaultHostResolver())


def test_resolve_dns_lookup() -> None:
    """resolve returns the resolver's addresses in its order."""
    addresses = [InetAddress(None, "198.51.100.0"), InetAddress(None, "198.51.100.5")]
    assert client_utils.resolve("kafka.apache.org", AddressChangeHostResolver(addresses, addresses)) == addresses


def test_default_host_resolver_keeps_the_name() -> None:
    """The system resolver's addresses remember the host name (printed as name/address)."""
    from kafka.clients.default_host_resolver import DefaultHostResolver

    resolved = DefaultHostResolver().resolve("localhost")
    assert resolved and all(a.host_name == "localhost" for a in resolved)
    assert str(DefaultHostResolver().resolve("127.0.0.1")[0]) == "/127.0.0.1"


@pytest.mark.parametrize("protocol", ["SSL", "SASL_PLAINTEXT", "SASL_SSL", "ssl"])
def test_secured_protocols_are_accepted(protocol: str) -> None:
    assert common_client_configs.validate_security_protocol(protocol) is SecurityProtocol.for_name(protocol)


def test_unknown_protocol_is_refused() -> None:
    """An unknown security.protocol lists the valid ones."""
    with pytest.raises(ConfigException, match="String must be one of: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"):
        common_client_configs.validate_security_protocol("TLS")


def test_plaintext_is_accepted() -> None:
    """PLAINTEXT (in any case) is accepted."""
    assert common_client_configs.validate_security_protocol("plaintext") is SecurityProtocol.PLAINTEXT


def test_get_host_and_port() -> None:
    """Utils.getHost/getPort: the host may be bracketed; a missing port gives None."""
    assert client_utils.get_host("PLAINTEXT://[::1]:9092") == "::1"
    assert client_utils.get_port("mydomain.com:8080") == 8080
    assert client_utils.get_host("mydomain.com") is None and client_utils.get_port("mydomain.com") is None


def _config(**overrides: object) -> AbstractConfig:
    """The common client settings with Java's producer defaults."""
    c = common_client_configs
    definition = (
        ConfigDef()
        .define(c.BOOTSTRAP_SERVERS_CONFIG, Type.LIST, [])
        .define(c.CLIENT_DNS_LOOKUP_CONFIG, Type.STRING, "use_all_dns_ips")
        .define(c.CLIENT_ID_CONFIG, Type.STRING, "")
        .define(c.CONNECTIONS_MAX_IDLE_MS_CONFIG, Type.LONG, 540000)
        .define(c.RECONNECT_BACKOFF_MS_CONFIG, Type.LONG, 50)
        .define(c.RECONNECT_BACKOFF_MAX_MS_CONFIG, Type.LONG, 1000)
        .define(c.SEND_BUFFER_CONFIG, Type.INT, 128 * 1024)
        .define(c.RECEIVE_BUFFER_CONFIG, Type.INT, 32 * 1024)
        .define(c.REQUEST_TIMEOUT_MS_CONFIG, Type.INT, 30000)
        .define(c.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, Type.LONG, 10000)
        .define(c.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, Type.LONG, 30000)
        .define(c.SECURITY_PROTOCOL_CONFIG, Type.STRING, "PLAINTEXT")
    )
    return AbstractConfig(definition, {c.BOOTSTRAP_SERVERS_CONFIG: "localhost:9092", **overrides}, do_log=False)


def test_create_network_client_from_config() -> None:
    """A NetworkClient is built from the common settings and bootstrap addresses come from the config."""
    metadata = Metadata(100, 1000, 300000, LogContext(), ClusterResourceListeners())
    config = _config()
    assert client_utils.parse_and_validate_addresses(config) == [("localhost", 9092)]
    client = client_utils.create_network_client(config, LogContext(), ApiVersions(), Time.SYSTEM, 5, metadata)
    try:
        assert client.active() and client.in_flight_request_count() == 0
    finally:
        client.close()
    assert metadata.is_closed()


def test_create_channel_builder_of_the_security_protocol() -> None:
    """security.protocol=SSL gives a TLS channel builder (trusting the system's CAs without a truststore)."""
    from kafka.common.network.ssl_channel_builder import SslChannelBuilder

    builder = client_utils.create_channel_builder(_config(**{"security.protocol": "SSL"}), Time.SYSTEM, LogContext())
    try:
        assert isinstance(builder, SslChannelBuilder)
    finally:
        builder.close()
