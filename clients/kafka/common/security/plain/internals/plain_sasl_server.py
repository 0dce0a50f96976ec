"""Port of clients/src/main/java/org/apache/kafka/common/security/plain/internals/PlainSaslServer.java (Kafka 3.7).

The server side of SASL/PLAIN (RFC 4616): one message `authzid NUL username NUL password`, checked by the
PlainServerCallbackHandler.
"""

from __future__ import annotations

from kafka.common.errors import SaslAuthenticationException
from kafka.common.security.plain.internals.plain_server_callback_handler import PlainServerCallbackHandler
from kafka.common.security.sasl import SaslException, SaslServer

__all__ = ["PlainSaslServer"]

PLAIN_MECHANISM = "PLAIN"


class PlainSaslServer(SaslServer):
    __slots__ = ("_callback_handler", "_complete", "_authorization_id")

    def __init__(self, callback_handler: PlainServerCallbackHandler) -> None:
        self._callback_handler = callback_handler
        self._complete = False
        self._authorization_id: str | None = None

    def mechanism_name(self) -> str:
        return PLAIN_MECHANISM

    def evaluate_response(self, response: bytes) -> bytes:
        try:
            text = response.decode("utf-8")
        except UnicodeDecodeError as e:
            raise SaslException("Invalid SASL/PLAIN response: not UTF-8") from e
        tokens = text.split("\u0000")
        if len(tokens) != 3:
            raise SaslException(f"Invalid SASL/PLAIN response: expected 3 tokens, got {len(tokens)}")
        authorization_id_from_client, username, password = tokens
        if not username:
            raise SaslAuthenticationException("Authentication failed: username not specified")
        if not password:
            raise SaslAuthenticationException("Authentication failed: password not specified")
        if not self._callback_handler.authenticate(username, password):
            raise SaslAuthenticationException("Authentication failed: Invalid username or password")
        if authorization_id_from_client and authorization_id_from_client != username:
            raise SaslAuthenticationException(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        self._authorization_id = username
        self._complete = True
        return b""

    def is_complete(self) -> bool:
        return self._complete

    def authorization_id(self) -> str:
        if not self._complete or self._authorization_id is None:
            raise RuntimeError("Authentication exchange has not completed")
        return self._authorization_id
