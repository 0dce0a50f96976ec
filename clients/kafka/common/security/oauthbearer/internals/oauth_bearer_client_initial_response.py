"""Port of clients/src/main/java/org/apache/kafka/common/security/oauthbearer/internals/
OAuthBearerClientInitialResponse.java (Kafka 3.7).

The OAUTHBEARER client's message (RFC 7628): a GS2 header, then `auth=Bearer <token>` and extensions as
`key=value` pairs, each followed by the 0x01 separator, and a final 0x01.
"""

from __future__ import annotations

import re

from kafka.common.security.sasl import SaslException

__all__ = ["SEPARATOR", "OAuthBearerClientInitialResponse"]

SEPARATOR = "\u0001"
_SASLNAME = r"(?:[\x01-\x2b\x2d-\x3c\x3e-\x7f]|=2C|=3D)+"
_KEY = "[A-Za-z]+"
_VALUE = r"[\x21-\x7E \t\r\n]+"
_KVPAIRS = f"(?:{_KEY}={_VALUE}{SEPARATOR})*"
_AUTH_PATTERN = re.compile(r"(?P<scheme>\w+)[ ]+(?P<token>[-_.a-zA-Z0-9]+)")
_PATTERN = re.compile(f"n,(?:a=(?P<authzid>{_SASLNAME}))?,{SEPARATOR}(?P<kvpairs>{_KVPAIRS}){SEPARATOR}")


class OAuthBearerClientInitialResponse:
    __slots__ = ("_token_value", "_authorization_id", "_extensions")

    def __init__(self, token_value: str, authorization_id: str = "", extensions: dict[str, str] | None = None) -> None:
        self._token_value = token_value
        self._authorization_id = authorization_id
        self._extensions = dict(extensions or {})

    @classmethod
    def parse(cls, response: bytes) -> OAuthBearerClientInitialResponse:
        try:
            text = response.decode("utf-8")
        except UnicodeDecodeError as e:
            raise SaslException("Invalid OAUTHBEARER client first message: not UTF-8") from e
        m = _PATTERN.fullmatch(text)
        if m is None:
            raise SaslException("Invalid OAUTHBEARER client first message")
        pairs = {}
        for pair in m["kvpairs"].split(SEPARATOR):
            if pair:
                key, _, value = pair.partition("=")
                pairs[key] = value
        auth = pairs.pop("auth", None)
        if auth is None:
            raise SaslException("Invalid OAUTHBEARER client first message: 'auth' not specified")
        auth_match = _AUTH_PATTERN.fullmatch(auth)
        if auth_match is None:
            raise SaslException("Invalid OAUTHBEARER client first message: invalid 'auth' value")
        if auth_match["scheme"].lower() != "bearer":
            raise SaslException(f"Invalid scheme in OAUTHBEARER client first message: {auth_match['scheme']}")
        return cls(auth_match["token"], m["authzid"] or "", pairs)

    def to_bytes(self) -> bytes:
        authzid = f"a={self._authorization_id}" if self._authorization_id else ""
        extensions = "".join(f"{SEPARATOR}{k}={v}" for k, v in self._extensions.items())
        return f"n,{authzid},{SEPARATOR}auth=Bearer {self._token_value}{extensions}{SEPARATOR}{SEPARATOR}".encode()

    def token_value(self) -> str:
        return self._token_value

    def authorization_id(self) -> str:
        return self._authorization_id

    def extensions(self) -> dict[str, str]:
        return self._extensions
