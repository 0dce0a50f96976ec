"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramSaslClient.java (Kafka 3.7).

The client side of a SCRAM exchange: the client-first message with a fresh nonce, the proof computed from the
password and the server-first message's salt and iterations, and the check of the server's signature.
"""

from __future__ import annotations

import enum
import hmac

from kafka.common.security.sasl import SaslClient, SaslException
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.internals.scram_messages import (
    ClientFinalMessage,
    ClientFirstMessage,
    ServerFinalMessage,
    ServerFirstMessage,
)

__all__ = ["ScramSaslClient"]


class ScramSaslClient(SaslClient):
    class State(enum.Enum):
        SEND_CLIENT_FIRST_MESSAGE = "SEND_CLIENT_FIRST_MESSAGE"
        RECEIVE_SERVER_FIRST_MESSAGE = "RECEIVE_SERVER_FIRST_MESSAGE"
        RECEIVE_SERVER_FINAL_MESSAGE = "RECEIVE_SERVER_FINAL_MESSAGE"
        COMPLETE = "COMPLETE"
        FAILED = "FAILED"

    def __init__(
        self, mechanism: ScramMechanism, username: str, password: str, extensions: dict[str, str] | None = None
    ) -> None:
        self._mechanism = mechanism
        self._formatter = ScramFormatter(mechanism)
        self._username = username
        self._password = password
        self._extensions = dict(extensions or {})
        self._state = ScramSaslClient.State.SEND_CLIENT_FIRST_MESSAGE
        self._client_nonce = ""
        self._client_first_message: ClientFirstMessage | None = None
        self._server_first_message: ServerFirstMessage | None = None
        self._client_final_message: ClientFinalMessage | None = None
        self._salted_password = b""

    def mechanism_name(self) -> str:
        return self._mechanism.mechanism_name

    def has_initial_response(self) -> bool:
        return False

    def evaluate_challenge(self, challenge: bytes) -> bytes | None:
        try:
            state = self._state
            if state is ScramSaslClient.State.SEND_CLIENT_FIRST_MESSAGE:
                if challenge:
                    raise SaslException("Expected empty challenge")
                self._client_nonce = self._formatter.secure_random_string()
                first = self._client_first_message = ClientFirstMessage(
                    ScramFormatter.sasl_name(self._username), self._client_nonce, self._extensions
                )
                self._state = ScramSaslClient.State.RECEIVE_SERVER_FIRST_MESSAGE
                return first.to_bytes()
            if state is ScramSaslClient.State.RECEIVE_SERVER_FIRST_MESSAGE:
                server_first = self._server_first_message = ServerFirstMessage.parse(challenge)
                if not server_first.nonce.startswith(self._client_nonce):
                    raise SaslException("Invalid server nonce: does not start with client nonce")
                if server_first.iterations < self._mechanism.min_iterations:
                    raise SaslException(
                        f"Requested iterations {server_first.iterations} is less than the minimum "
                        f"{self._mechanism.min_iterations} for {self._mechanism.mechanism_name}"
                    )
                final = self._client_final_message = self._handle_server_first_message(server_first)
                self._state = ScramSaslClient.State.RECEIVE_SERVER_FINAL_MESSAGE
                return final.to_bytes()
            if state is ScramSaslClient.State.RECEIVE_SERVER_FINAL_MESSAGE:
                server_final = ServerFinalMessage.parse(challenge)
                if server_final.error is not None:
                    raise SaslException(
                        f"Sasl authentication using {self._mechanism.mechanism_name} failed with error: "
                        f"{server_final.error}"
                    )
                self._handle_server_final_message(server_final.server_signature or b"")
                self._state = ScramSaslClient.State.COMPLETE
                return None
            raise SaslException(f"Unexpected challenge in Sasl client state {state.name}")
        except SaslException:
            self._state = ScramSaslClient.State.FAILED
            raise

    def _handle_server_first_message(self, server_first: ServerFirstMessage) -> ClientFinalMessage:
        assert self._client_first_message is not None
        self._salted_password = self._formatter.salted_password(
            self._password, server_first.salt, server_first.iterations
        )
        final = ClientFinalMessage(b"n,,", server_first.nonce)
        final.proof = self._formatter.client_proof(
            self._salted_password, self._client_first_message, server_first, final
        )
        return final

    def _handle_server_final_message(self, signature: bytes) -> None:
        assert self._client_first_message is not None and self._server_first_message is not None
        assert self._client_final_message is not None
        server_key = self._formatter.server_key(self._salted_password)
        expected = self._formatter.server_signature(
            server_key, self._client_first_message, self._server_first_message, self._client_final_message
        )
        if not hmac.compare_digest(signature, expected):
            raise SaslException("Invalid server signature in server final message")

    def is_complete(self) -> bool:
        return self._state is ScramSaslClient.State.COMPLETE

    def dispose(self) -> None:
        self._salted_password = b""
