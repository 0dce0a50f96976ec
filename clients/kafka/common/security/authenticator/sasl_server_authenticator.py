"""Port of clients/src/main/java/org/apache/kafka/common/security/authenticator/SaslServerAuthenticator.java
(Kafka 3.7).

The broker's side of SASL on one connection, before any request reaches the request handlers. The client may send
ApiVersions first (answered here), then SaslHandshake naming a mechanism among `sasl.enabled.mechanisms`
(UNSUPPORTED_SASL_MECHANISM otherwise), then the mechanism's tokens: inside SaslAuthenticate requests after a v1
handshake, bare size-prefixed frames after a v0 one. Any other request is refused with ILLEGAL_SASL_STATE; a failed
login is answered with SASL_AUTHENTICATION_FAILED. In every case the AuthenticationException goes up to the
Selector, which `connection.failed.authentication.delay.ms` later (KIP-306) has the failure response written
(handle_authentication_failure) and closes the connection. With `connections.max.reauth.ms` (or a credential that
expires) the SaslAuthenticate response carries the session lifetime, after which the client must re-authenticate
on the same connection (KIP-368): a new SaslHandshake on an authenticated connection starts that, with the same
mechanism and principal.

# PORT: Kerberos (GSSAPI) is not ported: it cannot be enabled (SaslChannelBuilder refuses it at start-up), and a
# first packet that is not a Kafka request is refused as Java refuses it when GSSAPI is not enabled.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kafka.common.errors import (
    AuthenticationException,
    IllegalSaslStateException,
    InvalidRequestException,
    SaslAuthenticationException,
    UnsupportedSaslMechanismException,
    UnsupportedVersionException,
)
from kafka.common.message import SaslAuthenticateResponseData, SaslHandshakeResponseData
from kafka.common.network.authenticator import Authenticator
from kafka.common.network.byte_buffer_send import ByteBufferSend
from kafka.common.network.client_information import ClientInformation
from kafka.common.network.invalid_receive_exception import InvalidReceiveException
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.send import Send
from kafka.common.network.transport_layer import TransportLayer
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.sasl_authenticate_request import SaslAuthenticateRequest
from kafka.common.requests.sasl_authenticate_response import SaslAuthenticateResponse
from kafka.common.requests.sasl_handshake_request import SaslHandshakeRequest
from kafka.common.requests.sasl_handshake_response import SaslHandshakeResponse
from kafka.common.security.auth.authentication_context import SaslAuthenticationContext
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.kafka_principal_builder import KafkaPrincipalBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.security.sasl import SaslException, SaslServer
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.utils.time import Time

__all__ = ["SaslServerAuthenticator"]

LOG = logging.getLogger("org.apache.kafka.common.security.authenticator.SaslServerAuthenticator")

DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE = 524288
SASL_ENABLED_MECHANISMS_CONFIG = "sasl.enabled.mechanisms"
SASL_SERVER_MAX_RECEIVE_SIZE_CONFIG = "sasl.server.max.receive.size"
# The negotiated property through which a mechanism reports when its credential expires (OAUTHBEARER tokens).
CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY = "CREDENTIAL.LIFETIME.MS"


class SaslServerAuthenticator(Authenticator):
    class SaslState(enum.Enum):
        INITIAL_REQUEST = "INITIAL_REQUEST"
        HANDSHAKE_OR_VERSIONS_REQUEST = "HANDSHAKE_OR_VERSIONS_REQUEST"
        HANDSHAKE_REQUEST = "HANDSHAKE_REQUEST"
        AUTHENTICATE = "AUTHENTICATE"
        COMPLETE = "COMPLETE"
        FAILED = "FAILED"
        REAUTH_PROCESS_HANDSHAKE = "REAUTH_PROCESS_HANDSHAKE"
        REAUTH_BAD_MECHANISM = "REAUTH_BAD_MECHANISM"

    def __init__(
        self,
        configs: Mapping[str, Any],
        sasl_server_factories: Mapping[str, Callable[[], SaslServer]],
        connection_id: str,
        listener_name: ListenerName,
        security_protocol: SecurityProtocol,
        transport_layer: TransportLayer,
        connections_max_reauth_ms_by_mechanism: Mapping[str, int],
        metadata_registry: Callable[[ClientInformation], None] | None,
        time: Time,
        api_version_supplier: Callable[[], ApiVersionsResponse],
        client_address: str | None = None,
        principal_builder: KafkaPrincipalBuilder | None = None,
    ) -> None:
        """`sasl_server_factories` makes a new SaslServer per login for each enabled mechanism (Java's callback
        handlers and subjects by mechanism); `metadata_registry` receives the client software announced in
        ApiVersions."""
        enabled = configs.get(SASL_ENABLED_MECHANISMS_CONFIG)
        if not enabled:
            raise ValueError("No SASL mechanisms are enabled")
        self._enabled_mechanisms: list[str] = list(dict.fromkeys(enabled))
        for mechanism in self._enabled_mechanisms:
            if mechanism not in sasl_server_factories:
                raise ValueError(f"Callback handler not specified for SASL mechanism {mechanism}")
        self._sasl_server_factories = sasl_server_factories
        self._connection_id = connection_id
        self._listener_name = listener_name
        self._security_protocol = security_protocol
        self._transport_layer = transport_layer
        self._connections_max_reauth_ms_by_mechanism = connections_max_reauth_ms_by_mechanism
        self._metadata_registry = metadata_registry
        self._time = time
        self._api_version_supplier = api_version_supplier
        self._client_address = client_address
        self._principal_builder = principal_builder
        max_receive = configs.get(SASL_SERVER_MAX_RECEIVE_SIZE_CONFIG)
        self._sasl_auth_request_max_receive_size = (
            int(max_receive) if max_receive is not None else DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE
        )
        self._sasl_state = SaslServerAuthenticator.SaslState.INITIAL_REQUEST
        self._pending_sasl_state: SaslServerAuthenticator.SaslState | None = None
        self._pending_exception: AuthenticationException | None = None
        self._sasl_server: SaslServer | None = None
        self._sasl_mechanism: str | None = None
        self._enable_kafka_sasl_authenticate_headers = False
        self._net_in_buffer: NetworkReceive | None = None
        self._net_out_buffer: Send | None = None
        self._authentication_failure_send: Send | None = None
        self._principal: KafkaPrincipal | None = None
        self._reauth_info = _ReauthInfo(self)

    # -- Authenticator

    def authenticate(self) -> None:
        """Moves the exchange on with what the connection has now. Raises AuthenticationException (the failure
        response is written by handle_authentication_failure) when the client is refused, OSError/EOFError when
        the connection is lost."""
        state_cls = SaslServerAuthenticator.SaslState
        if self._sasl_state is not state_cls.REAUTH_PROCESS_HANDSHAKE:
            if self._net_out_buffer is not None and not self._flush_net_out_buffer_and_update_interest_ops():
                return
            if self._sasl_server is not None and self._sasl_server.is_complete():
                self._set_sasl_state(state_cls.COMPLETE)
                return
            if self._net_in_buffer is None:
                self._net_in_buffer = NetworkReceive(self._sasl_auth_request_max_receive_size, self._connection_id)
            try:
                self._net_in_buffer.read_from(self._transport_layer)
            except InvalidReceiveException as e:
                self._fail(SaslAuthenticationException("Failing SASL authentication due to invalid receive size"), e)
            if not self._net_in_buffer.complete():
                return
        assert self._net_in_buffer is not None
        client_token = bytes(self._net_in_buffer.payload() or b"")
        self._net_in_buffer = None
        try:
            state = self._sasl_state
            if state in (state_cls.REAUTH_PROCESS_HANDSHAKE, state_cls.HANDSHAKE_OR_VERSIONS_REQUEST,
                         state_cls.HANDSHAKE_REQUEST):  # fmt: skip
                self._handle_kafka_request(client_token)
            elif state is state_cls.REAUTH_BAD_MECHANISM:
                raise SaslAuthenticationException(self._reauth_info.bad_mechanism_error_message)
            elif state in (state_cls.INITIAL_REQUEST, state_cls.AUTHENTICATE):
                if state is state_cls.INITIAL_REQUEST and self._handle_kafka_request(client_token):
                    return
                self._handle_sasl_token(client_token)
                assert self._sasl_server is not None
                if self._sasl_server.is_complete():
                    self._set_sasl_state(state_cls.COMPLETE)
        except AuthenticationException as e:
            self._set_sasl_state(state_cls.FAILED, e)
        except Exception as e:
            self._sasl_state = state_cls.FAILED
            LOG.debug("Failed during %s: %s", self._reauth_info.authentication_or_reauthentication_text(), e)
            raise

    def _fail(self, e: AuthenticationException, cause: BaseException | None = None) -> None:
        self._sasl_state = SaslServerAuthenticator.SaslState.FAILED
        if cause is not None:
            raise e from cause
        raise e

    def principal(self) -> KafkaPrincipal:
        if self._principal is None:
            server = self._sasl_server
            if server is None or not server.is_complete():
                return KafkaPrincipal.ANONYMOUS
            if self._principal_builder is not None:
                context = SaslAuthenticationContext(
                    server,
                    self._security_protocol,
                    self._client_address or "",
                    self._listener_name.value,
                    getattr(self._transport_layer, "ssl_session", lambda: None)(),
                )
                principal = self._principal_builder.build(context)
            else:
                principal = KafkaPrincipal(KafkaPrincipal.USER_TYPE, server.authorization_id())
            # A SCRAM login with a delegation token (tokenauth=true) marks the principal, as Java's does.
            from kafka.common.security.scram.internals.scram_sasl_server import TOKEN_AUTH_CONFIG  # imports this

            if ScramMechanism.is_scram(server.mechanism_name()) and (
                str(server.get_negotiated_property(TOKEN_AUTH_CONFIG)).lower() == "true"
            ):
                principal = dataclasses.replace(principal, token_authenticated=True)
            self._principal = principal
        return self._principal

    def complete(self) -> bool:
        return self._sasl_state is SaslServerAuthenticator.SaslState.COMPLETE

    def handle_authentication_failure(self) -> None:
        self._send_authentication_failure_response()

    def close(self) -> None:
        if self._sasl_server is not None:
            self._sasl_server.dispose()

    def reauthenticate(self, sasl_handshake_receive: NetworkReceive, previous: SaslServerAuthenticator,
                       reauthentication_begin_nanos: int) -> None:  # fmt: skip
        """Starts re-authentication on this (new) authenticator with the SaslHandshake the client sent on its
        authenticated connection; `previous` is the authenticator of the session that is ending."""
        if previous._sasl_mechanism is None:
            raise ValueError("The previous authenticator has no mechanism")
        self._reauth_info.reauthenticating(previous._sasl_mechanism, previous.principal(), reauthentication_begin_nanos)
        previous.close()
        self._net_in_buffer = sasl_handshake_receive
        LOG.debug("Beginning re-authentication: %s", self)
        self._set_sasl_state(SaslServerAuthenticator.SaslState.REAUTH_PROCESS_HANDSHAKE)
        self.authenticate()

    def server_session_expiration_time_nanos(self) -> int | None:
        return self._reauth_info.session_expiration_time_nanos

    def reauthentication_latency_ms(self) -> int | None:
        return self._reauth_info.reauthentication_latency_ms()

    def connected_client_supports_reauthentication(self) -> bool:
        return self._reauth_info.connected_client_supports_reauthentication

    # -- state

    def _set_sasl_state(
        self, sasl_state: SaslServerAuthenticator.SaslState, exception: AuthenticationException | None = None
    ) -> None:
        if self._net_out_buffer is not None and not self._net_out_buffer.completed():
            self._pending_sasl_state = sasl_state
            self._pending_exception = exception
        else:
            self._sasl_state = sasl_state
            LOG.debug(
                "Set SASL server state to %s during %s",
                sasl_state.name,
                self._reauth_info.authentication_or_reauthentication_text(),
            )
            self._pending_sasl_state = None
            self._pending_exception = None
            if exception is not None:
                raise exception

    def _flush_net_out_buffer_and_update_interest_ops(self) -> bool:
        flushed = self._flush_net_out_buffer()
        if flushed:
            self._transport_layer.remove_interest_ops(SelectionKey.OP_WRITE)
            if self._pending_sasl_state is not None:
                self._set_sasl_state(self._pending_sasl_state, self._pending_exception)
        else:
            self._transport_layer.add_interest_ops(SelectionKey.OP_WRITE)
        return flushed

    def _flush_net_out_buffer(self) -> bool:
        out = self._net_out_buffer
        assert out is not None
        if not out.completed():
            out.write_to(self._transport_layer)
        return out.completed()

    # -- requests

    def _request_context(self, header: RequestHeader) -> RequestContext:
        return RequestContext(
            header,
            self._connection_id,
            self._client_address,
            KafkaPrincipal.ANONYMOUS,
            self._listener_name,
            self._security_protocol.name,
            ClientInformation.EMPTY,
            False,
        )

    def _create_sasl_server(self, mechanism: str) -> None:
        self._sasl_mechanism = mechanism
        self._principal = None
        self._sasl_server = self._sasl_server_factories[mechanism]()

    def _handle_sasl_token(self, client_token: bytes) -> None:
        server = self._sasl_server
        assert server is not None
        if not self._enable_kafka_sasl_authenticate_headers:
            try:
                response = server.evaluate_response(client_token)
            except SaslException as e:
                raise SaslAuthenticationException(self._invalid_credentials_message()) from e
            if server.is_complete():
                self._reauth_info.calc_completion_times_and_return_session_lifetime_ms()
                if self._reauth_info.is_reauthenticating():
                    self._reauth_info.ensure_principal_unchanged(self.principal())
            if response:
                self._net_out_buffer = ByteBufferSend.size_prefixed(response)
                self._flush_net_out_buffer_and_update_interest_ops()
            return
        buffer = ByteBufferAccessor(memoryview(client_token))
        header = self._parse_header(buffer)
        api_key = header.api_key
        version = header.api_version
        context = self._request_context(header)
        request_and_size = context.parse_request(buffer)
        if api_key is not ApiKeys.SASL_AUTHENTICATE:
            illegal = IllegalSaslStateException(
                f"Unexpected Kafka request of type {api_key.name} during SASL authentication."
            )
            self._build_response_on_authenticate_failure(
                context, request_and_size.request.get_error_response(0, illegal)
            )
            raise illegal
        if not api_key.is_version_supported(version):
            raise UnsupportedVersionException(f"Version {version} is not supported for apiKey {api_key.name}")
        if not self._reauth_info.connected_client_supports_reauthentication:
            self._reauth_info.connected_client_supports_reauthentication = version > 0
        request = request_and_size.request
        assert isinstance(request, SaslAuthenticateRequest)
        try:
            response_token = server.evaluate_response(bytes(request.data.auth_bytes))
            if self._reauth_info.is_reauthenticating() and server.is_complete():
                self._reauth_info.ensure_principal_unchanged(self.principal())
            session_lifetime_ms = (
                self._reauth_info.calc_completion_times_and_return_session_lifetime_ms() if server.is_complete() else 0
            )
            self._send_kafka_response(
                context,
                SaslAuthenticateResponse(
                    SaslAuthenticateResponseData(
                        error_code=Errors.NONE.code,
                        auth_bytes=response_token or b"",
                        session_lifetime_ms=session_lifetime_ms,
                    )
                ),
            )
        except SaslAuthenticationException as sae:
            self._build_response_on_authenticate_failure(
                context,
                SaslAuthenticateResponse(
                    SaslAuthenticateResponseData(
                        error_code=Errors.SASL_AUTHENTICATION_FAILED.code, error_message=str(sae)
                    )
                ),
            )
            raise
        except SaslException as se:
            message = self._invalid_credentials_message()
            self._build_response_on_authenticate_failure(
                context,
                SaslAuthenticateResponse(
                    SaslAuthenticateResponseData(
                        error_code=Errors.SASL_AUTHENTICATION_FAILED.code, error_message=message
                    )
                ),
            )
            raise SaslAuthenticationException(message) from se

    def _invalid_credentials_message(self) -> str:
        return (
            f"Authentication failed during {self._reauth_info.authentication_or_reauthentication_text()} due to "
            f"invalid credentials with SASL mechanism {self._sasl_mechanism}"
        )

    @staticmethod
    def _parse_header(buffer: ByteBufferAccessor) -> RequestHeader:
        try:
            return RequestHeader.parse(buffer)
        except InvalidRequestException:
            raise
        except Exception as e:
            raise InvalidRequestException(f"Error parsing request header. Our best guess of the apiKey is: {e}") from e

    def _handle_kafka_request(self, request_bytes: bytes) -> bool:
        """Handles ApiVersions or SaslHandshake; returns whether `request_bytes` was a Kafka request at all."""
        state_cls = SaslServerAuthenticator.SaslState
        is_kafka_request = False
        client_mechanism: str | None = None
        try:
            buffer = ByteBufferAccessor(memoryview(request_bytes))
            header = self._parse_header(buffer)
            api_key = header.api_key
            if self._sasl_state is state_cls.INITIAL_REQUEST:
                self._set_sasl_state(state_cls.HANDSHAKE_OR_VERSIONS_REQUEST)
            is_kafka_request = True
            if api_key is not ApiKeys.API_VERSIONS and api_key is not ApiKeys.SASL_HANDSHAKE:
                raise IllegalSaslStateException(
                    f"Unexpected Kafka request of type {api_key.name} during SASL handshake."
                )
            LOG.debug(
                "Handling Kafka request %s during %s",
                api_key.name,
                self._reauth_info.authentication_or_reauthentication_text(),
            )
            context = self._request_context(header)
            request_and_size = context.parse_request(buffer)
            request = request_and_size.request
            if isinstance(request, ApiVersionsRequest):
                self._handle_api_versions_request(context, request)
            else:
                assert isinstance(request, SaslHandshakeRequest)
                client_mechanism = self._handle_handshake_request(context, request)
        except InvalidRequestException as e:
            if self._sasl_state is state_cls.INITIAL_REQUEST:
                if LOG.isEnabledFor(logging.DEBUG):
                    LOG.debug(
                        "Received client packet of length %d starting with bytes 0x%s, process as GSSAPI packet",
                        len(request_bytes),
                        request_bytes[:10].hex(),
                    )
                raise UnsupportedSaslMechanismException(
                    "Exception handling first SASL packet from client, GSSAPI is not supported by server"
                ) from e
            raise
        if client_mechanism is not None and (
            not self._reauth_info.is_reauthenticating() or self._reauth_info.sasl_mechanism_unchanged(client_mechanism)
        ):
            self._create_sasl_server(client_mechanism)
            self._set_sasl_state(state_cls.AUTHENTICATE)
        return is_kafka_request

    def _handle_handshake_request(self, context: RequestContext, handshake_request: SaslHandshakeRequest) -> str:
        client_mechanism: str = handshake_request.data.mechanism
        if context.header.api_version >= 1:
            self._enable_kafka_sasl_authenticate_headers = True
        if client_mechanism in self._enabled_mechanisms:
            LOG.debug("Using SASL mechanism '%s' provided by client", client_mechanism)
            self._send_kafka_response(
                context,
                SaslHandshakeResponse(
                    SaslHandshakeResponseData(error_code=Errors.NONE.code, mechanisms=list(self._enabled_mechanisms))
                ),
            )
            return client_mechanism
        LOG.debug("SASL mechanism '%s' requested by client is not supported", client_mechanism)
        self._build_response_on_authenticate_failure(
            context,
            SaslHandshakeResponse(
                SaslHandshakeResponseData(
                    error_code=Errors.UNSUPPORTED_SASL_MECHANISM.code, mechanisms=list(self._enabled_mechanisms)
                )
            ),
        )
        raise UnsupportedSaslMechanismException(f"Unsupported SASL mechanism {client_mechanism}")

    def _handle_api_versions_request(self, context: RequestContext, request: ApiVersionsRequest) -> None:
        if self._sasl_state is not SaslServerAuthenticator.SaslState.HANDSHAKE_OR_VERSIONS_REQUEST:
            raise IllegalSaslStateException(
                f"Unexpected ApiVersions request received during SASL authentication state {self._sasl_state.name}"
            )
        if request.has_unsupported_request_version():
            self._send_kafka_response(context, request.get_error_response(0, UnsupportedVersionException()))
        elif not request.is_valid():
            self._send_kafka_response(context, request.get_error_response(0, InvalidRequestException()))
        else:
            if self._metadata_registry is not None:
                self._metadata_registry(
                    ClientInformation(request.data.client_software_name, request.data.client_software_version)
                )
            self._send_kafka_response(context, self._api_version_supplier())
            self._set_sasl_state(SaslServerAuthenticator.SaslState.HANDSHAKE_REQUEST)

    def _build_response_on_authenticate_failure(self, context: RequestContext, response: AbstractResponse) -> None:
        self._authentication_failure_send = ByteBufferSend(context.build_response_send(response))

    def _send_authentication_failure_response(self) -> None:
        send = self._authentication_failure_send
        if send is None:
            return
        self._authentication_failure_send = None
        try:
            self._send_kafka_send(send)
        except OSError as e:
            LOG.debug("Could not send the authentication failure response to %s: %s", self._connection_id, e)

    def _send_kafka_response(self, context: RequestContext, response: AbstractResponse) -> None:
        self._send_kafka_send(ByteBufferSend(context.build_response_send(response)))

    def _send_kafka_send(self, send: Send) -> None:
        self._net_out_buffer = send
        self._flush_net_out_buffer_and_update_interest_ops()

    def enabled_mechanisms(self) -> Sequence[str]:
        return self._enabled_mechanisms

    def __repr__(self) -> str:
        return (
            f"SaslServerAuthenticator(connectionId={self._connection_id}, mechanism={self._sasl_mechanism}, "
            f"state={self._sasl_state.name})"
        )


class _ReauthInfo:
    """The re-authentication bookkeeping of one authenticator (Java's inner ReauthInfo)."""

    def __init__(self, owner: SaslServerAuthenticator) -> None:
        self._owner = owner
        self.previous_sasl_mechanism: str | None = None
        self.previous_kafka_principal: KafkaPrincipal | None = None
        self.reauthentication_begin_nanos = 0
        self.session_expiration_time_nanos: int | None = None
        self.connected_client_supports_reauthentication = False
        self.authentication_end_nanos = 0
        self.bad_mechanism_error_message = ""

    def reauthenticating(self, previous_mechanism: str, previous_principal: KafkaPrincipal, begin_nanos: int) -> None:
        self.previous_sasl_mechanism = previous_mechanism
        self.previous_kafka_principal = previous_principal
        self.reauthentication_begin_nanos = begin_nanos

    def is_reauthenticating(self) -> bool:
        return self.previous_sasl_mechanism is not None

    def authentication_or_reauthentication_text(self) -> str:
        return "re-authentication" if self.is_reauthenticating() else "authentication"

    def ensure_principal_unchanged(self, principal: KafkaPrincipal) -> None:
        previous = self.previous_kafka_principal
        assert previous is not None
        if previous != principal:
            raise SaslAuthenticationException(
                f"Cannot change principals during re-authentication from {previous.principal_type}.{previous.name}: "
                f"{principal.principal_type}.{principal.name}"
            )

    def sasl_mechanism_unchanged(self, client_mechanism: str) -> bool:
        if self.previous_sasl_mechanism == client_mechanism:
            return True
        self.bad_mechanism_error_message = (
            f"SASL mechanism '{client_mechanism}' requested by client is not supported for re-authentication of "
            f"mechanism '{self.previous_sasl_mechanism}'"
        )
        LOG.debug(self.bad_mechanism_error_message)
        self._owner._set_sasl_state(SaslServerAuthenticator.SaslState.REAUTH_BAD_MECHANISM)
        return False

    def calc_completion_times_and_return_session_lifetime_ms(self) -> int:
        owner = self._owner
        lifetime_ms = 0
        authentication_end_ms = owner._time.milliseconds()
        self.authentication_end_nanos = owner._time.nanoseconds()
        server = owner._sasl_server
        assert server is not None
        credential_expiration_ms = server.get_negotiated_property(CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY)
        max_reauth_ms = owner._connections_max_reauth_ms_by_mechanism.get(owner._sasl_mechanism or "")
        max_reauth_set = max_reauth_ms is not None and max_reauth_ms > 0
        if credential_expiration_ms is not None or max_reauth_set:
            if credential_expiration_ms is None:
                assert max_reauth_ms is not None
                lifetime_ms = max(0, max_reauth_ms)
            elif not max_reauth_set:
                lifetime_ms = max(0, credential_expiration_ms - authentication_end_ms)
            else:
                assert max_reauth_ms is not None
                lifetime_ms = max(0, min(credential_expiration_ms - authentication_end_ms, max_reauth_ms))
            self.session_expiration_time_nanos = self.authentication_end_nanos + 1_000_000 * lifetime_ms
        LOG.debug(
            "Authentication complete; session max lifetime from broker config=%s ms, sending %d ms to client",
            max_reauth_ms,
            lifetime_ms,
        )
        return lifetime_ms

    def reauthentication_latency_ms(self) -> int | None:
        if not self.is_reauthenticating():
            return None
        latency_nanos = self.authentication_end_nanos - self.reauthentication_begin_nanos
        return 0 if latency_nanos == 0 else max(1, round(latency_nanos / 1_000_000))
