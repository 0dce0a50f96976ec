"""Tests of AdminClientConfig and Admin.create: Java's defaults, the bootstrap rules, and refusal of anything but
PLAINTEXT."""

from __future__ import annotations

import re

import pytest

from kafka.clients.admin.admin import Admin
from kafka.clients.admin.admin_client_config import AdminClientConfig
from kafka.clients.admin.internals.admin_bootstrap_addresses import AdminBootstrapAddresses
from kafka.common.config.config_exception import ConfigException


def test_defaults_are_javas() -> None:
    """The admin client's defaults are Java 3.7's."""
    config = AdminClientConfig({"bootstrap.servers": "localhost:9092"})
    assert config.get_int("request.timeout.ms") == 30_000
    assert config.get_int("default.api.timeout.ms") == 60_000
    assert config.get_int("retries") == 2**31 - 1
    assert config.get_long("retry.backoff.ms") == 100
    assert config.get_long("retry.backoff.max.ms") == 1000
    assert config.get_long("connections.max.idle.ms") == 300_000
    assert config.get_long("metadata.max.age.ms") == 300_000


@pytest.mark.parametrize("protocol", ["SSL", "SASL_PLAINTEXT", "SASL_SSL"])
def test_secured_security_protocols_and_ssl_keys_are_taken(protocol: str) -> None:
    """Every security protocol is accepted, with the ssl.* keys of Java's withClientSslSupport."""
    config = AdminClientConfig(
        {"bootstrap.servers": "localhost:9092", "security.protocol": protocol, "ssl.truststore.type": "PEM"}
    )
    assert config.get_string("security.protocol") == protocol
    assert config.get_string("ssl.truststore.type") == "PEM"
    assert config.get_string("ssl.endpoint.identification.algorithm") == "https"


def test_unknown_security_protocol_is_refused() -> None:
    with pytest.raises(ConfigException, match=r"Invalid value TLS for configuration security\.protocol"):
        AdminClientConfig({"bootstrap.servers": "localhost:9092", "security.protocol": "TLS"})


def test_bootstrap_servers_or_controllers() -> None:
    """Exactly one of bootstrap.servers and bootstrap.controllers must be set."""
    both = AdminClientConfig({"bootstrap.servers": "localhost:9092", "bootstrap.controllers": "localhost:9093"})
    with pytest.raises(
        ConfigException, match=re.escape("You cannot set both bootstrap.servers and bootstrap.controllers")
    ):
        AdminBootstrapAddresses.from_config(both)
    with pytest.raises(
        ConfigException, match=re.escape("You must set either bootstrap.servers or bootstrap.controllers")
    ):
        AdminBootstrapAddresses.from_config(AdminClientConfig({}))
    controllers = AdminBootstrapAddresses.from_config(AdminClientConfig({"bootstrap.controllers": "localhost:9093"}))
    assert controllers.using_bootstrap_controllers and controllers.addresses == (("localhost", 9093),)


def test_admin_create_refuses_bad_bootstrap() -> None:
    """Admin.create with an unparsable bootstrap server fails with the ConfigException, starting no thread."""
    with pytest.raises(ConfigException, match=re.escape("Invalid url in bootstrap.servers: nonsense")):
        Admin.create({"bootstrap.servers": "nonsense"})
