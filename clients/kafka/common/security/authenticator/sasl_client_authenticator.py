"""Port of clients/src/main/java/org/apache/kafka/common/security/authenticator/SaslClientAuthenticator.java
(Kafka 3.7).

Our clients' side of SASL on one connection: ApiVersions (to learn the SaslHandshake and SaslAuthenticate versions
the broker serves), SaslHandshake naming the configured mechanism, then the mechanism's tokens in SaslAuthenticate
requests until the SaslClient is done and the broker has answered. The broker's session lifetime is remembered so
that the Selector can re-authenticate the connection before the broker would close it (KIP-368).
"""

from __future__ import annotations

import enum
import logging
import random
from typing import Any

from kafka.common.errors import (
    IllegalSaslStateException,
    SaslAuthenticationException,
    UnsupportedSaslMechanismException,
)
from kafka.common.message import SaslAuthenticateRequestData, SaslHandshakeRequestData
from kafka.common.network.authenticator import Authenticator
from kafka.common.network.byte_buffer_send import ByteBufferSend
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.send import Send
from kafka.common.network.transport_layer import TransportLayer
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequestBuilder
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.sasl_authenticate_request import SaslAuthenticateRequest
from kafka.common.requests.sasl_authenticate_response import SaslAuthenticateResponse
from kafka.common.requests.sasl_handshake_request import SaslHandshakeRequest
from kafka.common.requests.sasl_handshake_response import SaslHandshakeResponse
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.sasl import SaslClient, SaslException
from kafka.common.utils.time import Time

__all__ = ["SaslClientAuthenticator"]

LOG = logging.getLogger("org.apache.kafka.common.security.authenticator.SaslClientAuthenticator")

# The correlation ids of authentication requests: negative, so they can never be mistaken for the client's.
MIN_RESERVED_CORRELATION_ID = 2**31 - 1 - 2**16 + 1
MAX_RESERVED_CORRELATION_ID = 2**31 - 1


class SaslClientAuthenticator(Authenticator):
    class SaslState(enum.Enum):
        SEND_APIVERSIONS_REQUEST = "SEND_APIVERSIONS_REQUEST"
        RECEIVE_APIVERSIONS_RESPONSE = "RECEIVE_APIVERSIONS_RESPONSE"
        SEND_HANDSHAKE_REQUEST = "SEND_HANDSHAKE_REQUEST"
        RECEIVE_HANDSHAKE_RESPONSE = "RECEIVE_HANDSHAKE_RESPONSE"
        INITIAL = "INITIAL"
        INTERMEDIATE = "INTERMEDIATE"
        CLIENT_COMPLETE = "CLIENT_COMPLETE"
        COMPLETE = "COMPLETE"
        FAILED = "FAILED"

    def __init__(
        self,
        configs: dict[str, Any],
        sasl_client: SaslClient,
        node: str,
        principal: KafkaPrincipal,
        mechanism: str,
        transport_layer: TransportLayer,
        time: Time,
        client_id: str | None = None,
    ) -> None:
        self._sasl_client = sasl_client
        self._node = node
        self._client_principal = principal
        self._mechanism = mechanism
        self._transport_layer = transport_layer
        self._time = time
        self._client_id = client_id
        self._sasl_state = SaslClientAuthenticator.SaslState.SEND_APIVERSIONS_REQUEST
        self._pending_sasl_state: SaslClientAuthenticator.SaslState | None = None
        self._net_in_buffer: NetworkReceive | None = None
        self._net_out_buffer: Send | None = None
        self._correlation_id = MIN_RESERVED_CORRELATION_ID - 1
        self._current_request_header: RequestHeader | None = None
        self._sasl_handshake_version = 1
        self._sasl_authenticate_version = 0
        self._session_lifetime_ms = 0
        self._authentication_end_nanos = 0
        self._reauthentication_begin_nanos: int | None = None
        self._client_session_reauthentication_time_nanos: int | None = None
        self._pending_authenticated_receives: list[NetworkReceive] = []

    def authenticate(self) -> None:
        """Moves the exchange on; raises AuthenticationException when the broker refuses us."""
        st = SaslClientAuthenticator.SaslState
        if self._net_out_buffer is not None and not self._flush_net_out_buffer_and_update_interest_ops():
            return
        state = self._sasl_state
        if state is st.SEND_APIVERSIONS_REQUEST:
            request = ApiVersionsRequestBuilder().build(0)
            self._send_request(request)
            self._set_sasl_state(st.RECEIVE_APIVERSIONS_RESPONSE)
            return
        if state is st.RECEIVE_APIVERSIONS_RESPONSE:
            response = self._receive_kafka_response()
            if response is None:
                return
            assert isinstance(response, ApiVersionsResponse)
            self._set_sasl_authenticate_and_handshake_versions(response)
            self._set_sasl_state(st.SEND_HANDSHAKE_REQUEST)
            state = st.SEND_HANDSHAKE_REQUEST
        if state is st.SEND_HANDSHAKE_REQUEST:
            self._send_request(
                SaslHandshakeRequest(SaslHandshakeRequestData(mechanism=self._mechanism), self._sasl_handshake_version)
            )
            self._set_sasl_state(st.RECEIVE_HANDSHAKE_RESPONSE)
            return
        if state is st.RECEIVE_HANDSHAKE_RESPONSE:
            response = self._receive_kafka_response()
            if response is None:
                return
            assert isinstance(response, SaslHandshakeResponse)
            self._handle_sasl_handshake_response(response)
            self._set_sasl_state(st.INITIAL)
            state = st.INITIAL
        if state is st.INITIAL:
            self._send_initial_token()
            self._set_sasl_state(st.INTERMEDIATE)
            return
        if state is st.INTERMEDIATE:
            server_token = self._receive_token()
            no_responses_pending = server_token is not None and not self._send_sasl_client_token(server_token, False)
            if self._sasl_client.is_complete():
                self._set_sasl_state(st.COMPLETE if no_responses_pending else st.CLIENT_COMPLETE)
            return
        if state is st.CLIENT_COMPLETE:
            if self._receive_token() is not None:
                self._set_sasl_state(st.COMPLETE)
            return
        if state is st.FAILED:
            raise IllegalSaslStateException("SASL handshake failed")

    def _set_sasl_authenticate_and_handshake_versions(self, response: ApiVersionsResponse) -> None:
        if response.data.error_code != Errors.NONE.code:
            raise IllegalSaslStateException(
                f"ApiVersions request failed with error {Errors.for_code(response.data.error_code).name}"
            )
        handshake = response.api_version(ApiKeys.SASL_HANDSHAKE.id)
        if handshake is not None:
            self._sasl_handshake_version = min(int(handshake.max_version), ApiKeys.SASL_HANDSHAKE.latest_version())
        authenticate = response.api_version(ApiKeys.SASL_AUTHENTICATE.id)
        if authenticate is not None:
            self._sasl_authenticate_version = min(
                int(authenticate.max_version), ApiKeys.SASL_AUTHENTICATE.latest_version()
            )

    def _set_sasl_state(self, state: SaslClientAuthenticator.SaslState) -> None:
        if self._net_out_buffer is not None and not self._net_out_buffer.completed():
            self._pending_sasl_state = state
        else:
            self._pending_sasl_state = None
            self._sasl_state = state
            LOG.debug("Set SASL client state to %s", state.name)
            if state is SaslClientAuthenticator.SaslState.COMPLETE:
                self._authentication_end_nanos = self._time.nanoseconds()
                if self._reauthentication_begin_nanos is not None:
                    # The request whose send started the re-authentication is still waiting to be written.
                    self._transport_layer.add_interest_ops(SelectionKey.OP_WRITE)
                if self._session_lifetime_ms > 0:
                    # Re-authenticate somewhere between 85% and 95% of the session, as Java picks.
                    fraction = 0.85 + 0.10 * random.random()
                    self._client_session_reauthentication_time_nanos = self._authentication_end_nanos + int(
                        1_000_000 * self._session_lifetime_ms * fraction
                    )

    def _send_initial_token(self) -> None:
        self._send_sasl_client_token(b"", True)

    def _send_sasl_client_token(self, server_token: bytes, is_initial: bool) -> bool:
        if self._sasl_client.is_complete():
            return False
        try:
            token = self._sasl_client.evaluate_challenge(server_token)
        except SaslException as e:
            raise SaslAuthenticationException(
                f"An error occurred when evaluating SASL token received from the Kafka Broker. ({e})"
            ) from e
        if token is None and not is_initial:
            return False
        request = SaslAuthenticateRequest(
            SaslAuthenticateRequestData(auth_bytes=token or b""), self._sasl_authenticate_version
        )
        self._send_request(request)
        return True

    def _receive_token(self) -> bytes | None:
        response = self._receive_kafka_response()
        if response is None:
            return None
        assert isinstance(response, SaslAuthenticateResponse)
        error = response.error()
        if error is not Errors.NONE:
            self._sasl_state = SaslClientAuthenticator.SaslState.FAILED
            message = response.error_message()
            if error is Errors.SASL_AUTHENTICATION_FAILED:
                raise SaslAuthenticationException(message or "Authentication failed")
            if error is Errors.ILLEGAL_SASL_STATE:
                raise IllegalSaslStateException(message or "Illegal SASL state")
            raise SaslAuthenticationException(f"Authentication failed: {error.name} {message or ''}".rstrip())
        if self._sasl_authenticate_version >= 1:
            self._session_lifetime_ms = response.session_lifetime_ms()
        return response.sasl_auth_bytes()

    def _handle_sasl_handshake_response(self, response: SaslHandshakeResponse) -> None:
        error = Errors.for_code(response.data.error_code)
        if error is Errors.NONE:
            return
        self._sasl_state = SaslClientAuthenticator.SaslState.FAILED
        if error is Errors.UNSUPPORTED_SASL_MECHANISM:
            raise UnsupportedSaslMechanismException(
                f"Client SASL mechanism '{self._mechanism}' not enabled in the server, enabled mechanisms are "
                f"{list(response.data.mechanisms)}"
            )
        if error is Errors.ILLEGAL_SASL_STATE:
            raise IllegalSaslStateException(
                f"Unexpected handshake request with client mechanism {self._mechanism}, enabled mechanisms are "
                f"{list(response.data.mechanisms)}"
            )
        raise SaslAuthenticationException(f"Unknown error code {error.name}, client mechanism is {self._mechanism}")

    def _next_correlation_id(self) -> int:
        if not (MIN_RESERVED_CORRELATION_ID <= self._correlation_id < MAX_RESERVED_CORRELATION_ID):
            self._correlation_id = MIN_RESERVED_CORRELATION_ID
        else:
            self._correlation_id += 1
        return self._correlation_id

    def _send_request(self, request: AbstractRequest[Any]) -> None:
        header = RequestHeader.of(request.api_key, request.version, self._client_id, self._next_correlation_id())
        self._current_request_header = header
        self._net_out_buffer = ByteBufferSend(request.to_send(header))
        self._flush_net_out_buffer_and_update_interest_ops()

    def _receive_kafka_response(self) -> AbstractResponse | None:
        if self._net_in_buffer is None:
            self._net_in_buffer = NetworkReceive(NetworkReceive.UNLIMITED, self._node)
        self._net_in_buffer.read_from(self._transport_layer)
        if not self._net_in_buffer.complete():
            return None
        receive = self._net_in_buffer
        payload = bytes(receive.payload() or b"")
        self._net_in_buffer = None
        header = self._current_request_header
        assert header is not None
        if (
            self._reauthentication_begin_nanos is not None
            and len(payload) >= 4
            and int.from_bytes(payload[:4], "big", signed=True) != header.correlation_id
        ):
            # A response to a request the client sent before re-authenticating: kept for the Selector.
            self._pending_authenticated_receives.append(receive)
            return None
        try:
            return AbstractResponse.parse_response(payload, header)
        except Exception as e:
            self._sasl_state = SaslClientAuthenticator.SaslState.FAILED
            raise IllegalSaslStateException(
                f"Invalid SASL mechanism response, server may be expecting a different protocol ({e})"
            ) from e

    def _flush_net_out_buffer_and_update_interest_ops(self) -> bool:
        out = self._net_out_buffer
        assert out is not None
        if not out.completed():
            out.write_to(self._transport_layer)
        if out.completed():
            self._transport_layer.remove_interest_ops(SelectionKey.OP_WRITE)
            if self._pending_sasl_state is not None:
                self._set_sasl_state(self._pending_sasl_state)
            return True
        self._transport_layer.add_interest_ops(SelectionKey.OP_WRITE)
        return False

    def principal(self) -> KafkaPrincipal:
        return self._client_principal

    def complete(self) -> bool:
        return self._sasl_state is SaslClientAuthenticator.SaslState.COMPLETE

    def close(self) -> None:
        self._sasl_client.dispose()

    def poll_response_received_during_reauthentication(self) -> NetworkReceive | None:
        if not self._pending_authenticated_receives:
            return None
        return self._pending_authenticated_receives.pop(0)

    def client_session_reauthentication_time_nanos(self) -> int | None:
        return self._client_session_reauthentication_time_nanos

    def reauthentication_latency_ms(self) -> int | None:
        if self._reauthentication_begin_nanos is None:
            return None
        return max(1, round((self._authentication_end_nanos - self._reauthentication_begin_nanos) / 1_000_000))

    def reauthenticate(self, previous: SaslClientAuthenticator, reauthentication_begin_nanos: int) -> None:
        """Starts re-authenticating an authenticated connection: the broker's versions are known from the first
        login, so the exchange begins with SaslHandshake."""
        self._reauthentication_begin_nanos = reauthentication_begin_nanos
        self._sasl_handshake_version = previous._sasl_handshake_version
        self._sasl_authenticate_version = previous._sasl_authenticate_version
        self._correlation_id = previous._correlation_id
        previous.close()
        self._set_sasl_state(SaslClientAuthenticator.SaslState.SEND_HANDSHAKE_REQUEST)
        self.authenticate()
