"""Port of clients/src/main/java/org/apache/kafka/common/security/oauthbearer/internals/unsecured/
OAuthBearerUnsecuredJws.java (Kafka 3.7).

An unsecured JSON Web Signature token (`alg: none`, RFC 7515/7519): `<base64url header>.<base64url claims>.` with an
empty signature. The principal, scope, expiration (`exp`) and issue time (`iat`) come from its claims; a token that
is not one is an OAuthBearerIllegalTokenException (its message says why).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from kafka.common.errors import KafkaException

__all__ = ["OAuthBearerIllegalTokenException", "OAuthBearerUnsecuredJws"]


class OAuthBearerIllegalTokenException(KafkaException):
    pass


def _b64url_decode(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as e:
        raise OAuthBearerIllegalTokenException(f"Invalid base64url encoding: {e}") from e


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


class OAuthBearerUnsecuredJws:
    __slots__ = ("_compact_serialization", "_header", "_claims", "_principal_claim_name", "_scope_claim_name")

    def __init__(self, compact_serialization: str, principal_claim_name: str, scope_claim_name: str) -> None:
        self._compact_serialization = compact_serialization
        self._principal_claim_name = principal_claim_name
        self._scope_claim_name = scope_claim_name
        parts = compact_serialization.split(".")
        if len(parts) != 3:
            raise OAuthBearerIllegalTokenException("An unsecured JWS must have 3 dot-separated Base64URL parts")
        if parts[2]:
            raise OAuthBearerIllegalTokenException("An unsecured JWS must have an empty signature")
        self._header = self._to_map(parts[0], "header")
        self._claims = self._to_map(parts[1], "claims")
        if self._header.get("alg") != "none":
            raise OAuthBearerIllegalTokenException("An unsecured JWS must have the 'alg' header set to 'none'")

    @staticmethod
    def _to_map(part: str, what: str) -> dict[str, Any]:
        try:
            value = json.loads(_b64url_decode(part))
        except (ValueError, UnicodeDecodeError) as e:
            raise OAuthBearerIllegalTokenException(f"Invalid JSON in the unsecured JWS {what}: {e}") from e
        if not isinstance(value, dict):
            raise OAuthBearerIllegalTokenException(f"The unsecured JWS {what} must be a JSON object")
        return value

    def value(self) -> str:
        return self._compact_serialization

    def header(self) -> dict[str, Any]:
        return self._header

    def claims(self) -> dict[str, Any]:
        return self._claims

    def principal_claim_name(self) -> str:
        return self._principal_claim_name

    def scope_claim_name(self) -> str:
        return self._scope_claim_name

    def claim(self, name: str, type_: type | tuple[type, ...]) -> Any:
        """The claim, None if absent; OAuthBearerIllegalTokenException if it is not of `type_`."""
        value = self._claims.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, type_):
            raise OAuthBearerIllegalTokenException(f"The '{name}' claim has the wrong type")
        return value

    def _numeric_date_ms(self, name: str) -> int | None:
        value = self.claim(name, (int, float))
        return None if value is None else int(value * 1000)

    def principal_name(self) -> str | None:
        return self.claim(self._principal_claim_name, str)

    def lifetime_ms(self) -> int:
        expiration = self._numeric_date_ms("exp")
        if expiration is None:
            raise OAuthBearerIllegalTokenException("Required 'exp' claim is missing")
        return expiration

    def start_time_ms(self) -> int | None:
        return self._numeric_date_ms("nbf")

    def issued_at_ms(self) -> int | None:
        return self._numeric_date_ms("iat")

    def scope(self) -> set[str]:
        value = self._claims.get(self._scope_claim_name)
        if value is None:
            return set()
        if isinstance(value, str):
            return {value.strip()} if value.strip() else set()
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return {v.strip() for v in value if v.strip()}
        raise OAuthBearerIllegalTokenException(f"The '{self._scope_claim_name}' claim has the wrong type")
