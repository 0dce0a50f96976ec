"""Port of clients/src/main/java/org/apache/kafka/common/network/SslChannelBuilder.java (Kafka 3.7).

Channels over TLS: an SslTransportLayer per connection, its engine made by the builder's SslFactory, and an
authenticator with nothing more to do once the handshake is over, which knows the peer by its certificate
(`principal.builder.class`, by default DefaultKafkaPrincipalBuilder with `ssl.principal.mapping.rules`).
Reconfigurable: a broker's listener takes a new keystore or truststore without a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.common.config import ssl_configs as sc
from kafka.common.errors import KafkaException
from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.authenticator import Authenticator
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.ssl_transport_layer import SslTransportLayer
from kafka.common.security.auth.authentication_context import SslAuthenticationContext
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.kafka_principal_builder import KafkaPrincipalBuilder
from kafka.common.security.ssl.default_ssl_engine_factory import Mode, config_string
from kafka.common.security.ssl.ssl_factory import SslFactory
from kafka.common.security.ssl.ssl_principal_mapper import SslPrincipalMapper
from kafka.common.utils.log_context import LogContext

__all__ = ["SslChannelBuilder"]


class SslChannelBuilder(ChannelBuilder):
    def __init__(
        self,
        mode: str,
        listener_name: ListenerName | None,
        is_inter_broker_listener: bool,
        log_context: LogContext | None = None,
    ) -> None:
        self._mode = mode
        self._listener_name = listener_name
        self._is_inter_broker_listener = is_inter_broker_listener
        self._log = (log_context or LogContext()).logger("org.apache.kafka.common.network.SslChannelBuilder")
        self._configs: dict[str, Any] = {}
        self._ssl_factory: SslFactory | None = None
        self._ssl_principal_mapper: SslPrincipalMapper | None = None

    def configure(self, configs: Mapping[str, Any]) -> None:
        try:
            self._configs = dict(configs)
            rules = config_string(configs, sc.SSL_PRINCIPAL_MAPPING_RULES_CONFIG)
            if rules is not None:
                self._ssl_principal_mapper = SslPrincipalMapper.from_rules(rules)
            factory = SslFactory(self._mode, None, self._is_inter_broker_listener)
            factory.configure(self._configs)
            self._ssl_factory = factory
        except KafkaException:
            raise
        except Exception as e:
            raise KafkaException(str(e)) from e

    # -- Reconfigurable -------------------------------------------------------------------------------------

    def reconfigurable_configs(self) -> frozenset[str]:
        return sc.RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, configs: Mapping[str, Any]) -> None:
        assert self._ssl_factory is not None
        self._ssl_factory.validate_reconfiguration(configs)

    def reconfigure(self, configs: Mapping[str, Any]) -> None:
        assert self._ssl_factory is not None
        self._ssl_factory.reconfigure(configs)

    def listener_name(self) -> ListenerName | None:
        return self._listener_name

    def ssl_factory(self) -> SslFactory | None:
        return self._ssl_factory

    # -- channels -------------------------------------------------------------------------------------------

    def build_channel(
        self, id: str, key: SelectionKey, max_receive_size: int, memory_pool: MemoryPool = MemoryPool.NONE
    ) -> KafkaChannel:
        try:
            transport_layer = self.build_transport_layer(id, key)
            authenticator = SslChannelBuilder.SslAuthenticator(
                self._configs, transport_layer, self._listener_name, self._ssl_principal_mapper
            )
            return KafkaChannel(id, transport_layer, authenticator, max_receive_size, memory_pool)
        except Exception as e:
            raise KafkaException(e) from e

    def build_transport_layer(self, id: str, key: SelectionKey) -> SslTransportLayer:
        factory = self._ssl_factory
        if factory is None:
            raise RuntimeError("SslChannelBuilder has not been configured")
        return SslTransportLayer.create(id, key, factory.create_ssl_engine, self._mode == Mode.SERVER)

    def close(self) -> None:
        if self._ssl_factory is not None:
            self._ssl_factory.close()

    class SslAuthenticator(Authenticator):
        """Nothing to do after the handshake; the principal comes from the peer's certificate (built once)."""

        __slots__ = ("_transport_layer", "_principal_builder", "_listener_name", "_principal")

        def __init__(
            self,
            configs: Mapping[str, Any],
            transport_layer: SslTransportLayer,
            listener_name: ListenerName | None,
            ssl_principal_mapper: SslPrincipalMapper | None,
        ) -> None:
            from kafka.common.network.channel_builders import ChannelBuilders

            self._transport_layer = transport_layer
            self._principal_builder: KafkaPrincipalBuilder = ChannelBuilders.create_principal_builder(
                configs, None, ssl_principal_mapper
            )
            self._listener_name = listener_name
            self._principal: KafkaPrincipal | None = None

        def authenticate(self) -> None:
            pass

        def principal(self) -> KafkaPrincipal:
            principal = self._principal
            if principal is None:
                if self._listener_name is None:
                    raise RuntimeError("Unexpected call to principal() when listenerName is null")
                try:
                    client_address = self._transport_layer.socket_channel().getpeername()[0]
                except OSError:
                    client_address = ""
                context = SslAuthenticationContext(
                    self._transport_layer.ssl_session(), client_address, self._listener_name.value
                )
                principal = self._principal = self._principal_builder.build(context)
            return principal

        def complete(self) -> bool:
            return True
