"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramSaslServer.java (Kafka 3.7).

The server side of a SCRAM exchange: the client-first message names the user, whose credential gives the salt and
iterations of the server-first message; the client-final message must carry the combined nonce and a proof that
matches the stored key; the server-final message carries the server signature.
"""

from __future__ import annotations

import enum
import hmac
import logging
from typing import Any, ClassVar

from kafka.common.errors import SaslAuthenticationException
from kafka.common.security.authenticator.sasl_server_authenticator import (
    CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY,
)
from kafka.common.security.sasl import SaslException, SaslServer
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.internals.scram_messages import (
    ClientFinalMessage,
    ClientFirstMessage,
    ServerFinalMessage,
    ServerFirstMessage,
)
from kafka.common.security.scram.internals.scram_server_callback_handler import ScramServerCallbackHandler
from kafka.common.security.scram.scram_credential import ScramCredential

__all__ = ["TOKEN_AUTH_CONFIG", "ScramSaslServer"]

TOKEN_AUTH_CONFIG = "tokenauth"
"""ScramLoginModule.TOKEN_AUTH_CONFIG: the JAAS option and SCRAM extension of a delegation token login."""

_log = logging.getLogger("org.apache.kafka.common.security.scram.internals.ScramSaslServer")


class ScramSaslServer(SaslServer):
    SUPPORTED_EXTENSIONS: ClassVar[frozenset[str]] = frozenset({TOKEN_AUTH_CONFIG})

    class State(enum.Enum):
        RECEIVE_CLIENT_FIRST_MESSAGE = "RECEIVE_CLIENT_FIRST_MESSAGE"
        RECEIVE_CLIENT_FINAL_MESSAGE = "RECEIVE_CLIENT_FINAL_MESSAGE"
        COMPLETE = "COMPLETE"
        FAILED = "FAILED"

    def __init__(self, mechanism: ScramMechanism, callback_handler: ScramServerCallbackHandler) -> None:
        self._mechanism = mechanism
        self._formatter = ScramFormatter(mechanism)
        self._callback_handler = callback_handler
        self._state = ScramSaslServer.State.RECEIVE_CLIENT_FIRST_MESSAGE
        self._username: str | None = None
        self._client_first_message: ClientFirstMessage | None = None
        self._server_first_message: ServerFirstMessage | None = None
        self._scram_credential: ScramCredential | None = None
        self._extensions: dict[str, str] = {}
        self._authorization_id: str | None = None
        self._token_expiry_timestamp: int | None = None

    def _token_authenticated(self) -> bool:
        """Whether the client asked to log in with a delegation token (the `tokenauth=true` extension)."""
        return self._extensions.get(TOKEN_AUTH_CONFIG, "false").lower() == "true"

    def mechanism_name(self) -> str:
        return self._mechanism.mechanism_name

    def evaluate_response(self, response: bytes) -> bytes | None:
        """Raises SaslAuthenticationException (its message goes to the client) or SaslException (reported as
        invalid credentials)."""
        try:
            if self._state is ScramSaslServer.State.RECEIVE_CLIENT_FIRST_MESSAGE:
                return self._receive_client_first(response)
            if self._state is ScramSaslServer.State.RECEIVE_CLIENT_FINAL_MESSAGE:
                return self._receive_client_final(response)
            raise SaslException(f"Unexpected challenge in Sasl server state {self._state.name}")
        except (SaslException, SaslAuthenticationException):
            self._state = ScramSaslServer.State.FAILED
            raise
        except ValueError as e:
            self._state = ScramSaslServer.State.FAILED
            raise SaslException(str(e)) from e

    def _receive_client_first(self, response: bytes) -> bytes:
        client_first = self._client_first_message = ClientFirstMessage.parse(response)
        self._extensions = dict(client_first.extensions)
        unsupported = set(self._extensions) - ScramSaslServer.SUPPORTED_EXTENSIONS
        if unsupported:
            _log.debug(
                "Unsupported extensions will be ignored, supported %s, provided %s",
                sorted(ScramSaslServer.SUPPORTED_EXTENSIONS),
                sorted(self._extensions),
            )
        server_nonce = self._formatter.secure_random_string()
        sasl_name = client_first.sasl_name
        username = self._username = ScramFormatter.username(sasl_name)
        if self._token_authenticated():
            credential, token_owner, expiry = self._callback_handler.token_credential(username)
            if token_owner is None:
                raise SaslException(f"Token Authentication failed: Invalid tokenId : {username}")
            self._authorization_id = token_owner
            self._token_expiry_timestamp = expiry
        else:
            credential = self._callback_handler.credential(username)
            self._authorization_id = username
            self._token_expiry_timestamp = None
        if credential is None:
            raise SaslAuthenticationException("Authentication failed: Invalid user credentials")
        authorization_id = client_first.authorization_id
        if authorization_id and authorization_id != username:
            raise SaslAuthenticationException(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        if credential.iterations < self._mechanism.min_iterations:
            raise SaslException(
                f"Iterations {credential.iterations} is less than the minimum {self._mechanism.min_iterations} "
                f"for {self._mechanism.mechanism_name}"
            )
        self._scram_credential = credential
        server_first = self._server_first_message = ServerFirstMessage.of(
            client_first.nonce, server_nonce, credential.salt, credential.iterations
        )
        self._state = ScramSaslServer.State.RECEIVE_CLIENT_FINAL_MESSAGE
        return server_first.to_bytes()

    def _receive_client_final(self, response: bytes) -> bytes:
        client_final = ClientFinalMessage.parse(response)
        assert self._server_first_message is not None and self._client_first_message is not None
        if client_final.nonce != self._server_first_message.nonce:
            raise SaslException("Invalid client nonce in the final client message.")
        self._verify_client_proof(client_final)
        credential = self._scram_credential
        assert credential is not None
        server_signature = self._formatter.server_signature(
            credential.server_key, self._client_first_message, self._server_first_message, client_final
        )
        self._clear_credentials()
        self._state = ScramSaslServer.State.COMPLETE
        return ServerFinalMessage(None, server_signature).to_bytes()

    def _verify_client_proof(self, client_final: ClientFinalMessage) -> None:
        credential = self._scram_credential
        assert credential is not None and self._client_first_message is not None
        assert self._server_first_message is not None
        expected_stored_key = credential.stored_key
        client_signature = self._formatter.client_signature(
            expected_stored_key, self._client_first_message, self._server_first_message, client_final
        )
        try:
            computed_stored_key = self._formatter.stored_key_from_proof(client_signature, client_final.proof)
        except ValueError as e:
            raise SaslException("Invalid client credentials") from e
        if not hmac.compare_digest(computed_stored_key, expected_stored_key):
            raise SaslException("Invalid client credentials")

    def _clear_credentials(self) -> None:
        self._scram_credential = None
        self._client_first_message = None
        self._server_first_message = None

    def is_complete(self) -> bool:
        return self._state is ScramSaslServer.State.COMPLETE

    def authorization_id(self) -> str:
        """The user, or for a token login the token's owner."""
        if not self.is_complete():
            raise RuntimeError("Authentication exchange has not completed")
        assert self._authorization_id is not None
        return self._authorization_id

    def get_negotiated_property(self, prop_name: str) -> Any:
        """The token's expiry timestamp as the credential lifetime (None without a token), or a supported
        extension's value."""
        if not self.is_complete():
            raise RuntimeError("Authentication exchange has not completed")
        if prop_name == CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY:
            return self._token_expiry_timestamp
        if prop_name in ScramSaslServer.SUPPORTED_EXTENSIONS:
            return self._extensions.get(prop_name)
        return None

    def dispose(self) -> None:
        self._clear_credentials()
