"""Port of clients/src/main/java/org/apache/kafka/common/network/ChannelBuilders.java (Kafka 3.7).

The ChannelBuilder of a security protocol, for a client (`client_channel_builder`: our producer, consumer, admin
client and tools, and a broker's own connections to other brokers) or for a broker's listener
(`server_channel_builder`), configured from the config's values with the listener's `listener.name.<l>.` overrides
applied; and the principal builder the server side's authenticators use (`principal.builder.class`).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.errors import InvalidConfigurationException, KafkaException
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.plaintext_channel_builder import PlaintextChannelBuilder
from kafka.common.security.auth.kafka_principal_builder import KafkaPrincipalBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.security.ssl.default_ssl_engine_factory import Mode
from kafka.common.security.ssl.ssl_principal_mapper import SslPrincipalMapper
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

__all__ = ["ChannelBuilders"]

_log = logging.getLogger("org.apache.kafka.common.network.ChannelBuilders")

PRINCIPAL_BUILDER_CLASS_CONFIG = "principal.builder.class"
SASL_ENABLED_MECHANISMS_CONFIG = "sasl.enabled.mechanisms"
SSL_CLIENT_AUTH_CONFIG = "ssl.client.auth"
_DEFAULT_PRINCIPAL_BUILDER_NAMES = (
    "org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder",
    "kafka.common.security.authenticator.default_kafka_principal_builder.DefaultKafkaPrincipalBuilder",
)


class ChannelBuilders:
    @staticmethod
    def client_channel_builder(
        security_protocol: SecurityProtocol,
        context_type: Any,
        config: AbstractConfig,
        listener_name: ListenerName | None,
        client_sasl_mechanism: str | None,
        time: Time,
        save_login: bool,
        log_context: LogContext,
    ) -> ChannelBuilder:
        """A client's builder. `context_type` is JaasContext.Type (CLIENT for clients, SERVER for a broker's
        inter-broker connections, whose JAAS is the listener's); `save_login` is Java's
        saslHandshakeRequestEnable (whether the SaslHandshake request is sent)."""
        if security_protocol in (SecurityProtocol.SASL_PLAINTEXT, SecurityProtocol.SASL_SSL):
            if context_type is None:
                raise ValueError(f"`contextType` must be non-null if `securityProtocol` is `{security_protocol.name}`")
            if client_sasl_mechanism is None:
                raise ValueError(
                    "`clientSaslMechanism` must be non-null in client mode if `securityProtocol` is "
                    f"`{security_protocol.name}`"
                )
        return ChannelBuilders._create(
            security_protocol,
            Mode.CLIENT,
            context_type,
            config,
            listener_name,
            False,
            client_sasl_mechanism,
            save_login,
            None,
            None,
            time,
            log_context,
            None,
        )

    @staticmethod
    def inter_broker_client_channel_builder(
        config: AbstractConfig,
        time: Time,
        log_context: LogContext,
        listener_name: ListenerName | None = None,
        security_protocol: SecurityProtocol | None = None,
    ) -> ChannelBuilder:
        """A broker's builder for its connections to other brokers (replica fetchers, the controller's channels,
        forwarding to the controller, transaction markers): the inter-broker listener's protocol, its
        `listener.name.<l>.` settings and the server JAAS context with `sasl.mechanism.inter.broker.protocol`.

        # PORT: Kafka repeats this call in each of those managers; here it has one home. `config` is the
        # broker's KafkaConfig (read for inter_broker_listener_name, inter_broker_security_protocol and
        # sasl_mechanism_inter_broker_protocol); the SaslHandshake request is always sent (every inter-broker
        # protocol version this broker supports has it)."""
        broker_config: Any = config
        listener = listener_name if listener_name is not None else broker_config.inter_broker_listener_name
        protocol = security_protocol if security_protocol is not None else broker_config.inter_broker_security_protocol
        context_type = None
        if protocol in (SecurityProtocol.SASL_PLAINTEXT, SecurityProtocol.SASL_SSL):
            from kafka.common.security.jaas_context import JaasContext

            context_type = JaasContext.Type.SERVER
        return ChannelBuilders.client_channel_builder(
            protocol,
            context_type,
            config,
            listener,
            broker_config.sasl_mechanism_inter_broker_protocol,
            time,
            True,
            log_context,
        )

    @staticmethod
    def server_channel_builder(
        listener_name: ListenerName,
        is_inter_broker_listener: bool,
        security_protocol: SecurityProtocol,
        config: AbstractConfig,
        credential_cache: Any,
        token_cache: Any,
        time: Time,
        log_context: LogContext,
        api_version_supplier: Callable[[], Any] | None,
    ) -> ChannelBuilder:
        """A broker listener's builder (its SASL JAAS contexts are the server's)."""
        from kafka.common.security.jaas_context import JaasContext

        return ChannelBuilders._create(
            security_protocol,
            Mode.SERVER,
            JaasContext.Type.SERVER,
            config,
            listener_name,
            is_inter_broker_listener,
            None,
            True,
            credential_cache,
            token_cache,
            time,
            log_context,
            api_version_supplier,
        )

    @staticmethod
    def _create(
        security_protocol: SecurityProtocol,
        mode: str,
        context_type: Any,
        config: AbstractConfig,
        listener_name: ListenerName | None,
        is_inter_broker_listener: bool,
        client_sasl_mechanism: str | None,
        sasl_handshake_request_enable: bool,
        credential_cache: Any,
        token_cache: Any,
        time: Time,
        log_context: LogContext,
        api_version_supplier: Callable[[], Any] | None,
    ) -> ChannelBuilder:
        configs = ChannelBuilders.channel_builder_configs(config, listener_name)
        channel_builder: Any
        if security_protocol is SecurityProtocol.SSL:
            from kafka.common.network.ssl_channel_builder import SslChannelBuilder

            channel_builder = SslChannelBuilder(mode, listener_name, is_inter_broker_listener, log_context)
        elif security_protocol in (SecurityProtocol.SASL_SSL, SecurityProtocol.SASL_PLAINTEXT):
            # Imported here: SASL lives in its own package, and TLS-only deployments never load it.
            from kafka.common.network import sasl_channel_builder as scb
            from kafka.common.security.jaas_context import JaasContext

            ssl_client_auth_override = None
            if mode == Mode.SERVER:
                assert listener_name is not None
                enabled_mechanisms = list(configs.get(SASL_ENABLED_MECHANISMS_CONFIG) or [])
                jaas_contexts = {
                    m: JaasContext.load_server_context(listener_name, m, configs) for m in enabled_mechanisms
                }
                # TLS client authentication applies to a SASL_SSL listener only when set for that listener.
                if security_protocol is SecurityProtocol.SASL_SSL:
                    configured_client_auth = configs.get(SSL_CLIENT_AUTH_CONFIG)
                    listener_client_auth = config.originals_with_prefix(listener_name.config_prefix(), True).get(
                        SSL_CLIENT_AUTH_CONFIG
                    )
                    if listener_client_auth is None:
                        ssl_client_auth_override = "none"
                        if configured_client_auth is not None and str(configured_client_auth).lower() != "none":
                            _log.warning(
                                "Broker configuration '%s' is applied only to SSL listeners. Listener-prefixed "
                                "configuration can be used to enable SSL client authentication for SASL_SSL "
                                "listeners. In future releases, broker-wide option without listener prefix may be "
                                "applied to SASL_SSL listeners as well. All configuration options intended for "
                                "specific listeners should be listener-prefixed.",
                                SSL_CLIENT_AUTH_CONFIG,
                            )
            else:
                assert client_sasl_mechanism is not None
                if context_type is JaasContext.Type.CLIENT:
                    jaas_context = JaasContext.load_client_context(configs)
                else:
                    assert listener_name is not None
                    jaas_context = JaasContext.load_server_context(listener_name, client_sasl_mechanism, configs)
                jaas_contexts = {client_sasl_mechanism: jaas_context}
            sasl_mode = scb.Mode.SERVER if mode == Mode.SERVER else scb.Mode.CLIENT
            channel_builder = scb.SaslChannelBuilder(
                sasl_mode,
                jaas_contexts,
                security_protocol,
                listener_name,
                is_inter_broker_listener,
                client_sasl_mechanism,
                sasl_handshake_request_enable,
                credential_cache,
                token_cache,
                ssl_client_auth_override,
                time,
                log_context,
                api_version_supplier,
            )
        elif security_protocol is SecurityProtocol.PLAINTEXT:
            channel_builder = PlaintextChannelBuilder()
        else:
            raise ValueError(f"Unexpected securityProtocol {security_protocol}")
        configure = getattr(channel_builder, "configure", None)
        if configure is not None:
            configure(configs)
        result: ChannelBuilder = channel_builder
        return result

    @staticmethod
    def channel_builder_configs(config: AbstractConfig, listener_name: ListenerName | None) -> dict[str, Any]:
        """The config's parsed values (with the listener's `listener.name.<l>.` overrides), plus the originals
        that are not parsed keys (`<mechanism>.sasl.jaas.config` and other prefixed settings)."""
        if listener_name is None:
            parsed = config.values()
        else:
            parsed = config.values_with_prefix_override(listener_name.config_prefix())
        prefix = listener_name.config_prefix() if listener_name is not None else None
        for key, value in config.originals().items():
            if key in parsed:
                continue
            if prefix is not None and key.startswith(prefix) and key[len(prefix) :] in parsed:
                continue
            if prefix is not None and key[key.find(".") + 1 :] in parsed:
                continue
            parsed[key] = value
        return parsed

    @staticmethod
    def create_principal_builder(
        configs: Mapping[str, Any], kerberos_short_namer: Any, ssl_principal_mapper: SslPrincipalMapper | None
    ) -> KafkaPrincipalBuilder:
        """`principal.builder.class`: DefaultKafkaPrincipalBuilder unless a Python class (or its dotted name) that
        is a KafkaPrincipalBuilder is given.

        # PORT: Java class names other than Kafka's default builder cannot be loaded; they are refused."""
        from kafka.common.security.authenticator.default_kafka_principal_builder import DefaultKafkaPrincipalBuilder

        cls: Any = configs.get(PRINCIPAL_BUILDER_CLASS_CONFIG)
        if isinstance(cls, str):
            name = cls.strip()
            if not name or name in _DEFAULT_PRINCIPAL_BUILDER_NAMES:
                cls = None
            else:
                module_name, _, class_name = name.rpartition(".")
                try:
                    cls = getattr(importlib.import_module(module_name), class_name)
                except (ImportError, AttributeError, ValueError) as e:
                    raise KafkaException(
                        f"Class {name} cannot be found (principal.builder.class): only Python classes and Kafka's "
                        "DefaultKafkaPrincipalBuilder can be used"
                    ) from e
        builder: KafkaPrincipalBuilder
        if cls is None or cls is DefaultKafkaPrincipalBuilder:
            builder = DefaultKafkaPrincipalBuilder(kerberos_short_namer, ssl_principal_mapper)
        elif isinstance(cls, type) and issubclass(cls, KafkaPrincipalBuilder):
            builder = cls()
        else:
            raise InvalidConfigurationException(
                f"Type {getattr(cls, '__name__', cls)} is not an instance of "
                "org.apache.kafka.common.security.auth.KafkaPrincipalBuilder"
            )
        configure = getattr(builder, "configure", None)
        if callable(configure):
            configure(configs)
        return builder
