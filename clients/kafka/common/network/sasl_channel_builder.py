"""Port of clients/src/main/java/org/apache/kafka/common/network/SaslChannelBuilder.java (Kafka 3.7).

Channels that authenticate with SASL, over plain TCP (SASL_PLAINTEXT) or TLS (SASL_SSL). On a broker: one JAAS
context per enabled mechanism (from the listener's `<mechanism>.sasl.jaas.config` or the JAAS file), the
mechanism's server callback handler (PLAIN users from the JAAS options, SCRAM credentials from the credential
cache, OAUTHBEARER tokens checked by the unsecured validator) and a SaslServerAuthenticator per connection, with
`connections.max.reauth.ms` (also `listener.name.<l>.<mechanism>.connections.max.reauth.ms`). On a client: the
`sasl.mechanism` and its `sasl.jaas.config` login, and a SaslClientAuthenticator per connection.

# PORT: OAUTHBEARER is served with Kafka's unsecured JWS handlers only (no OIDC token endpoint or JWKS). Kerberos
# (GSSAPI) is not ported: enabling it is refused at start-up with a clear error. Custom
# `sasl.server.callback.handler.class`, `sasl.client.callback.handler.class`, `sasl.login.class` and
# `sasl.login.callback.handler.class` are not loaded (also refused at start-up); the login is the JAAS options'.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any

from kafka.common.errors import KafkaException
from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.client_information import ClientInformation
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.plaintext_transport_layer import PlaintextTransportLayer
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.transport_layer import TransportLayer
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.security.authenticator.credential_cache import CredentialCache
from kafka.common.security.authenticator.sasl_client_authenticator import SaslClientAuthenticator
from kafka.common.security.authenticator.sasl_server_authenticator import SaslServerAuthenticator
from kafka.common.security.jaas_context import JaasContext
from kafka.common.security.oauthbearer.internals.oauth_bearer_sasl_client import OAuthBearerSaslClient
from kafka.common.security.oauthbearer.internals.oauth_bearer_sasl_server import OAuthBearerSaslServer
from kafka.common.security.oauthbearer.internals.unsecured.oauth_bearer_unsecured_login_callback_handler import (
    OAuthBearerUnsecuredLoginCallbackHandler,
)
from kafka.common.security.oauthbearer.internals.unsecured.oauth_bearer_unsecured_validator_callback_handler import (
    OAuthBearerUnsecuredValidatorCallbackHandler,
)
from kafka.common.security.plain.internals.plain_sasl_client import PlainSaslClient
from kafka.common.security.plain.internals.plain_sasl_server import PlainSaslServer
from kafka.common.security.plain.internals.plain_server_callback_handler import PlainServerCallbackHandler
from kafka.common.security.sasl import SaslClient, SaslServer
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.internals.scram_sasl_client import ScramSaslClient
from kafka.common.security.scram.internals.scram_sasl_server import TOKEN_AUTH_CONFIG, ScramSaslServer
from kafka.common.security.scram.internals.scram_server_callback_handler import ScramServerCallbackHandler
from kafka.common.security.scram.scram_credential import ScramCredential
from kafka.common.utils.time import Time

__all__ = ["SaslChannelBuilder"]

PLAIN = "PLAIN"
OAUTHBEARER = "OAUTHBEARER"
GSSAPI = "GSSAPI"
SUPPORTED_MECHANISMS = (PLAIN, "SCRAM-SHA-256", "SCRAM-SHA-512", OAUTHBEARER)
CONNECTIONS_MAX_REAUTH_MS = "connections.max.reauth.ms"
_UNSUPPORTED_CLASS_CONFIGS = (
    "sasl.server.callback.handler.class",
    "sasl.client.callback.handler.class",
    "sasl.login.class",
    "sasl.login.callback.handler.class",
)


class Mode(enum.Enum):
    """Java's org.apache.kafka.common.network.Mode."""

    CLIENT = "CLIENT"
    SERVER = "SERVER"


def check_mechanism_supported(mechanism: str) -> None:
    """Refuses, with the reason, a SASL mechanism this port does not serve."""
    if mechanism == GSSAPI:
        raise KafkaException(
            "SASL mechanism GSSAPI (Kerberos) is not supported by kafka-port; use PLAIN, SCRAM-SHA-256, "
            "SCRAM-SHA-512 or OAUTHBEARER"
        )
    if mechanism not in SUPPORTED_MECHANISMS:
        raise KafkaException(f"Unsupported SASL mechanism {mechanism}; supported: {', '.join(SUPPORTED_MECHANISMS)}")


def _option(context: JaasContext, key: str) -> str:
    value = context.config_entry_option(key)
    if value is None:
        raise KafkaException(f"The JAAS configuration of {context.name()} has no option '{key}'")
    return value


class SaslChannelBuilder(ChannelBuilder):
    def __init__(
        self,
        mode: Mode,
        jaas_contexts: Mapping[str, JaasContext],
        security_protocol: SecurityProtocol,
        listener_name: ListenerName | None,
        is_inter_broker_listener: bool,
        client_sasl_mechanism: str | None,
        handshake_request_enable: bool = True,
        credential_cache: CredentialCache | None = None,
        token_cache: Any = None,
        ssl_client_auth_override: str | None = None,
        time: Time = Time.SYSTEM,
        log_context: Any = None,
        api_version_supplier: Callable[[], ApiVersionsResponse] | None = None,
    ) -> None:
        self._mode = mode
        self._jaas_contexts = dict(jaas_contexts)
        self._security_protocol = security_protocol
        self._listener_name = listener_name
        self._is_inter_broker_listener = is_inter_broker_listener
        self._client_sasl_mechanism = client_sasl_mechanism
        self._handshake_request_enable = handshake_request_enable
        self._credential_cache = credential_cache
        self._token_cache = token_cache
        self._ssl_client_auth_override = ssl_client_auth_override
        self._time = time
        self._api_version_supplier = api_version_supplier
        self._configs: dict[str, Any] = {}
        self._sasl_server_factories: dict[str, Callable[[], SaslServer]] = {}
        self._connections_max_reauth_ms_by_mechanism: dict[str, int] = {}
        self._client_credentials: tuple[str, str] | None = None
        self._client_scram_extensions: dict[str, str] = {}
        self._oauth_login: OAuthBearerUnsecuredLoginCallbackHandler | None = None
        self._ssl_factory: Any = None
        self._principal_builder: Any = None

    @staticmethod
    def create(
        mode: Mode,
        configs: Mapping[str, Any],
        security_protocol: SecurityProtocol,
        listener_name: ListenerName | None,
        is_inter_broker_listener: bool,
        client_sasl_mechanism: str | None,
        credential_cache: CredentialCache | None = None,
        token_cache: Any = None,
        time: Time = Time.SYSTEM,
        api_version_supplier: Callable[[], ApiVersionsResponse] | None = None,
    ) -> SaslChannelBuilder:
        """The JAAS contexts as Java's ChannelBuilders.create loads them (a broker's for each enabled mechanism,
        a client's for its mechanism), then the configured builder."""
        if mode is Mode.SERVER:
            assert listener_name is not None
            mechanisms = list(configs.get("sasl.enabled.mechanisms") or [])
            for mechanism in mechanisms:
                check_mechanism_supported(mechanism)
            contexts = {m: JaasContext.load_server_context(listener_name, m, configs) for m in mechanisms}
        else:
            mechanism = client_sasl_mechanism or "GSSAPI"
            check_mechanism_supported(mechanism)
            contexts = {mechanism: JaasContext.load_client_context(configs)}
        builder = SaslChannelBuilder(
            mode,
            contexts,
            security_protocol,
            listener_name,
            is_inter_broker_listener,
            client_sasl_mechanism,
            True,
            credential_cache,
            token_cache,
            None,
            time,
            None,
            api_version_supplier,
        )
        builder.configure(configs)
        return builder

    def configure(self, configs: Mapping[str, Any]) -> None:
        """Sets up each mechanism's handler or login; a KafkaException says what is missing or not supported."""
        try:
            self._configs = dict(configs)
            for key in _UNSUPPORTED_CLASS_CONFIGS:
                if configs.get(key) is not None:
                    raise KafkaException(f"{key} is not supported by kafka-port")
            for mechanism in self._jaas_contexts:
                check_mechanism_supported(mechanism)
            if self._mode is Mode.SERVER:
                self._configure_server(configs)
            else:
                self._configure_client()
            if self._security_protocol is SecurityProtocol.SASL_SSL:
                from kafka.common.security.ssl.default_ssl_engine_factory import Mode as SslMode
                from kafka.common.security.ssl.ssl_factory import SslFactory

                ssl_mode = SslMode.SERVER if self._mode is Mode.SERVER else SslMode.CLIENT
                ssl_factory = SslFactory(ssl_mode, self._ssl_client_auth_override, self._is_inter_broker_listener)
                ssl_factory.configure(configs)
                self._ssl_factory = ssl_factory
        except KafkaException:
            raise
        except Exception as e:
            raise KafkaException(e) from e

    def _configure_server(self, configs: Mapping[str, Any]) -> None:
        default_reauth = int(configs.get(CONNECTIONS_MAX_REAUTH_MS) or 0)
        for mechanism, context in self._jaas_contexts.items():
            prefixed = configs.get(mechanism.lower() + "." + CONNECTIONS_MAX_REAUTH_MS)
            self._connections_max_reauth_ms_by_mechanism[mechanism] = (
                int(prefixed) if prefixed is not None else default_reauth
            )
            self._sasl_server_factories[mechanism] = self._server_factory(mechanism, context)
        from kafka.common.network.channel_builders import ChannelBuilders

        self._principal_builder = ChannelBuilders.create_principal_builder(configs, None, None)

    def _server_factory(self, mechanism: str, context: JaasContext) -> Callable[[], SaslServer]:
        entries = context.configuration_entries()
        if mechanism == PLAIN:
            plain_handler = PlainServerCallbackHandler()
            plain_handler.configure(mechanism, entries)
            return lambda: PlainSaslServer(plain_handler)
        scram = ScramMechanism.for_mechanism_name(mechanism)
        if scram is not None:
            cache = (
                self._credential_cache.cache(mechanism, ScramCredential) if self._credential_cache is not None else None
            )
            scram_handler = ScramServerCallbackHandler(cache, self._token_cache)
            scram_handler.configure(mechanism, entries)
            return lambda: ScramSaslServer(scram, scram_handler)
        validator = OAuthBearerUnsecuredValidatorCallbackHandler(self._time)
        validator.configure(mechanism, entries)
        return lambda: OAuthBearerSaslServer(validator)

    def _configure_client(self) -> None:
        mechanism = self._client_sasl_mechanism or GSSAPI
        context = self._jaas_contexts[mechanism]
        if mechanism == OAUTHBEARER:
            login = OAuthBearerUnsecuredLoginCallbackHandler(self._time)
            login.configure(mechanism, context.configuration_entries())
            login.token()  # a bad login configuration fails here, when the client is created
            self._oauth_login = login
        else:
            self._client_credentials = (_option(context, "username"), _option(context, "password"))
            # ScramLoginModule's tokenauth option: log in with a delegation token (its id and base64 HMAC).
            token_auth = (context.config_entry_option(TOKEN_AUTH_CONFIG) or "").lower() == "true"
            self._client_scram_extensions = {TOKEN_AUTH_CONFIG: "true"} if token_auth else {}

    def _new_sasl_client(self) -> SaslClient:
        mechanism = self._client_sasl_mechanism or GSSAPI
        if mechanism == OAUTHBEARER:
            assert self._oauth_login is not None
            return OAuthBearerSaslClient(self._oauth_login.token(), self._oauth_login.extensions())
        assert self._client_credentials is not None
        username, password = self._client_credentials
        if mechanism == PLAIN:
            return PlainSaslClient(username, password)
        scram = ScramMechanism.for_mechanism_name(mechanism)
        assert scram is not None
        return ScramSaslClient(scram, username, password, self._client_scram_extensions)

    def _build_transport_layer(self, id: str, key: SelectionKey) -> TransportLayer:
        if self._security_protocol is SecurityProtocol.SASL_SSL:
            from kafka.common.network.ssl_transport_layer import SslTransportLayer

            return SslTransportLayer.create(id, key, self._ssl_factory.create_ssl_engine, self._mode is Mode.SERVER)
        transport_layer = PlaintextTransportLayer(key)
        if self._mode is Mode.SERVER:
            transport_layer.mark_connected()  # an accepted socket (Java asks the socket itself)
        return transport_layer

    def build_channel(
        self, id: str, key: SelectionKey, max_receive_size: int, memory_pool: MemoryPool = MemoryPool.NONE
    ) -> KafkaChannel:
        try:
            transport_layer = self._build_transport_layer(id, key)
            channel_holder: list[KafkaChannel] = []

            def register_client_information(info: ClientInformation) -> None:
                if channel_holder:
                    channel_holder[0].client_information = info

            authenticator_creator = self._authenticator_creator(id, transport_layer, register_client_information)
            channel = KafkaChannel(id, transport_layer, authenticator_creator(), max_receive_size, memory_pool)
            channel.set_authenticator_creator(authenticator_creator)
            channel_holder.append(channel)
            return channel
        except Exception as e:
            raise KafkaException(e) from e

    def _authenticator_creator(
        self, id: str, transport_layer: TransportLayer, metadata_registry: Callable[[ClientInformation], None]
    ) -> Callable[[], Any]:
        if self._mode is Mode.SERVER:
            try:
                peer = transport_layer.socket_channel().getpeername()[0]
            except OSError:
                peer = None
            assert self._listener_name is not None

            def server_authenticator() -> SaslServerAuthenticator:
                supplier = self._api_version_supplier
                if supplier is None:
                    raise KafkaException("A broker's SaslChannelBuilder needs the ApiVersions response supplier")
                return SaslServerAuthenticator(
                    self._configs,
                    self._sasl_server_factories,
                    id,
                    self._listener_name,  # type: ignore[arg-type]
                    self._security_protocol,
                    transport_layer,
                    self._connections_max_reauth_ms_by_mechanism,
                    metadata_registry,
                    self._time,
                    supplier,
                    peer,
                    self._principal_builder,
                )

            return server_authenticator

        mechanism = self._client_sasl_mechanism or GSSAPI
        client_id = self._configs.get("client.id")

        def client_authenticator() -> SaslClientAuthenticator:
            return SaslClientAuthenticator(
                self._configs,
                self._new_sasl_client(),
                id,
                KafkaPrincipal.ANONYMOUS,
                mechanism,
                transport_layer,
                self._time,
                client_id,
            )

        return client_authenticator

    def close(self) -> None:
        if self._ssl_factory is not None:
            self._ssl_factory.close()
