"""Tests of kafka.common.network.channel_builders, from Kafka's ChannelBuildersTest: the configs a listener's builder
is given (parsed values with the `listener.name.<l>.` overrides, plus the originals that are not parsed keys), and the
builder of each security protocol."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import ConfigDef, Importance, Type
from kafka.common.config.password import Password
from kafka.common.config.ssl_configs import add_server_ssl_support
from kafka.common.network.channel_builders import ChannelBuilders
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.plaintext_channel_builder import PlaintextChannelBuilder
from kafka.common.network.ssl_channel_builder import SslChannelBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from tests.integration import security_support as ss


def _config(props: Mapping[str, object]) -> AbstractConfig:
    definition = (
        add_server_ssl_support(ConfigDef())
        .define("principal.builder.class", Type.CLASS, None, None, Importance.LOW)
        .define("sasl.kerberos.service.name", Type.STRING, None, None, Importance.LOW)
    )
    return AbstractConfig(definition, props, False)


def test_channel_builder_configs_apply_listener_overrides() -> None:
    config = _config(
        {
            "listener.name.listener1.gssapi.sasl.kerberos.service.name": "testkafka",
            "listener.name.listener1.ssl.keystore.location": "/listener1/keystore",
            "ssl.keystore.location": "/base/keystore",
            "ssl.key.password": "base-secret",
            "listener.name.listener1.ssl.key.password": "listener-secret",
            "some.custom.key": "value",
        }
    )
    configs = ChannelBuilders.channel_builder_configs(config, ListenerName("listener1"))
    assert configs["ssl.keystore.location"] == "/listener1/keystore"
    assert configs["ssl.key.password"] == Password("listener-secret")
    assert configs["gssapi.sasl.kerberos.service.name"] == "testkafka"
    assert configs["some.custom.key"] == "value"
    assert "listener.name.listener1.ssl.keystore.location" not in configs
    # Another listener sees the base values.
    other = ChannelBuilders.channel_builder_configs(config, ListenerName("other"))
    assert other["ssl.keystore.location"] == "/base/keystore"


def test_builder_of_each_protocol(tmp_path: Path) -> None:
    certs = ss.make_certs(tmp_path)
    config = _config(ss.ssl_overrides(certs))
    plaintext = ChannelBuilders.server_channel_builder(
        ListenerName("PLAINTEXT"),
        False,
        SecurityProtocol.PLAINTEXT,
        config,
        None,
        None,
        Time.SYSTEM,
        LogContext(),
        None,
    )
    assert isinstance(plaintext, PlaintextChannelBuilder)
    server = ChannelBuilders.server_channel_builder(
        ListenerName("SSL"), False, SecurityProtocol.SSL, config, None, None, Time.SYSTEM, LogContext(), None
    )
    assert isinstance(server, SslChannelBuilder)
    assert server.listener_name() == ListenerName("SSL")
    client = ChannelBuilders.client_channel_builder(
        SecurityProtocol.SSL, None, config, None, None, Time.SYSTEM, True, LogContext()
    )
    assert isinstance(client, SslChannelBuilder)
    server.close()
    client.close()


def test_sasl_client_needs_a_context_type_and_mechanism() -> None:
    config = _config({})
    with pytest.raises(ValueError, match="contextType"):
        ChannelBuilders.client_channel_builder(
            SecurityProtocol.SASL_SSL, None, config, None, "PLAIN", Time.SYSTEM, True, LogContext()
        )
    with pytest.raises(ValueError, match="clientSaslMechanism"):
        ChannelBuilders.client_channel_builder(
            SecurityProtocol.SASL_PLAINTEXT, object(), config, None, None, Time.SYSTEM, True, LogContext()
        )
