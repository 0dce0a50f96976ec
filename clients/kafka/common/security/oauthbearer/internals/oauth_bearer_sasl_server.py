"""Port of clients/src/main/java/org/apache/kafka/common/security/oauthbearer/internals/OAuthBearerSaslServer.java
(Kafka 3.7).

The broker's side of OAUTHBEARER: the token in the client's first message is checked by the validator; a refused
token is answered with an RFC 7628 JSON error, to which the client replies 0x01, and the login fails with that error
as the message. An accepted token's expiry is the session's credential lifetime (so re-authentication follows it).
"""

from __future__ import annotations

import logging
from typing import Any

from kafka.common.errors import SaslAuthenticationException
from kafka.common.security.oauthbearer.internals.oauth_bearer_client_initial_response import (
    OAuthBearerClientInitialResponse,
)
from kafka.common.security.oauthbearer.internals.unsecured.oauth_bearer_unsecured_jws import OAuthBearerUnsecuredJws
from kafka.common.security.oauthbearer.internals.unsecured.oauth_bearer_unsecured_validator_callback_handler import (
    OAuthBearerUnsecuredValidatorCallbackHandler,
    OAuthBearerValidationFailure,
)
from kafka.common.security.sasl import SaslServer

__all__ = ["OAuthBearerSaslServer"]

log = logging.getLogger("org.apache.kafka.common.security.oauthbearer.internals.OAuthBearerSaslServer")

CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY = "CREDENTIAL.LIFETIME.MS"
_BYTE_CONTROL_A = b"\x01"


class OAuthBearerSaslServer(SaslServer):
    def __init__(self, callback_handler: OAuthBearerUnsecuredValidatorCallbackHandler) -> None:
        self._callback_handler = callback_handler
        self._complete = False
        self._token: OAuthBearerUnsecuredJws | None = None
        self._error_message: str | None = None
        self._extensions: dict[str, str] = {}

    def mechanism_name(self) -> str:
        return "OAUTHBEARER"

    def evaluate_response(self, response: bytes) -> bytes:
        if response == _BYTE_CONTROL_A and self._error_message is not None:
            log.debug("Received %%x01 response from client after it received our error")
            raise SaslAuthenticationException(self._error_message)
        self._error_message = None
        client_response = OAuthBearerClientInitialResponse.parse(response)
        try:
            token = self._callback_handler.validate(client_response.token_value())
        except OAuthBearerValidationFailure as e:
            log.debug("Token refused: %s", e)
            error = f'{{"status":"{e.status}"'
            if e.scope is not None:
                error += f', "scope":"{e.scope}"'
            self._error_message = error + "}"
            return self._error_message.encode("utf-8")
        authorization_id = client_response.authorization_id()
        if authorization_id and authorization_id != token.principal_name():
            raise SaslAuthenticationException(
                f"Authentication failed: Client requested an authorization id ({authorization_id}) that is "
                f"different from the token's principal name ({token.principal_name()})"
            )
        self._token = token
        self._extensions = client_response.extensions()
        self._complete = True
        log.debug("Successfully authenticate User=%s", token.principal_name())
        return b""

    def is_complete(self) -> bool:
        return self._complete

    def authorization_id(self) -> str:
        if not self._complete or self._token is None:
            raise RuntimeError("Authentication exchange has not completed")
        name = self._token.principal_name()
        assert name is not None
        return name

    def get_negotiated_property(self, prop_name: str) -> Any:
        if not self._complete or self._token is None:
            raise RuntimeError("Authentication exchange has not completed")
        if prop_name == CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY:
            return self._token.lifetime_ms()
        return self._extensions.get(prop_name)

    def dispose(self) -> None:
        self._complete = False
        self._token = None
