"""Port of clients/src/main/java/org/apache/kafka/common/security/oauthbearer/internals/OAuthBearerSaslClient.java
(Kafka 3.7).

Our clients' side of OAUTHBEARER: the token (and extensions) in the first message; a JSON error from the broker is
answered with 0x01, after which the broker ends the login.
"""

from __future__ import annotations

from kafka.common.security.oauthbearer.internals.oauth_bearer_client_initial_response import (
    OAuthBearerClientInitialResponse,
)
from kafka.common.security.oauthbearer.internals.unsecured.oauth_bearer_unsecured_jws import OAuthBearerUnsecuredJws
from kafka.common.security.sasl import SaslClient, SaslException

__all__ = ["OAuthBearerSaslClient"]


class OAuthBearerSaslClient(SaslClient):
    def __init__(self, token: OAuthBearerUnsecuredJws, extensions: dict[str, str] | None = None) -> None:
        self._token = token
        self._extensions = dict(extensions or {})
        self._state = "SEND_CLIENT_FIRST_MESSAGE"

    def mechanism_name(self) -> str:
        return "OAUTHBEARER"

    def has_initial_response(self) -> bool:
        return True

    def evaluate_challenge(self, challenge: bytes) -> bytes | None:
        if self._state == "SEND_CLIENT_FIRST_MESSAGE":
            if challenge:
                raise SaslException("Expected empty challenge")
            self._state = "RECEIVE_SERVER_FIRST_MESSAGE"
            return OAuthBearerClientInitialResponse(self._token.value(), "", self._extensions).to_bytes()
        if self._state == "RECEIVE_SERVER_FIRST_MESSAGE":
            if challenge:
                # The broker's error: acknowledge it; the broker then fails the login with it.
                self._state = "RECEIVE_SERVER_MESSAGE_AFTER_FAILURE"
                return b"\x01"
            self._state = "COMPLETE"
            return None
        raise SaslException(f"Unexpected challenge in Sasl client state {self._state}")

    def is_complete(self) -> bool:
        return self._state == "COMPLETE"
