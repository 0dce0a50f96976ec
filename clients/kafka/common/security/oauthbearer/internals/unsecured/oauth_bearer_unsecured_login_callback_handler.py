"""Port of clients/src/main/java/org/apache/kafka/common/security/oauthbearer/internals/unsecured/
OAuthBearerUnsecuredLoginCallbackHandler.java (Kafka 3.7).

A client's unsecured token made from its JAAS options: `unsecuredLoginStringClaim_<name>="value"`,
`unsecuredLoginNumberClaim_<name>`, `unsecuredLoginListClaim_<name>` (the first character separates the items),
`unsecuredLoginPrincipalClaimName` (default `sub`), `unsecuredLoginScopeClaimName` (default `scope`) and
`unsecuredLoginLifetimeSeconds` (default 3600); `unsecuredLoginExtension_<key>` options become SASL extensions.
"""

from __future__ import annotations

import json
import re

from kafka.common.errors import KafkaException
from kafka.common.security.jaas_context import AppConfigurationEntry
from kafka.common.security.oauthbearer.internals.unsecured.oauth_bearer_unsecured_jws import (
    OAuthBearerUnsecuredJws,
    b64url_encode,
)
from kafka.common.utils.time import Time

__all__ = ["OAuthBearerUnsecuredLoginCallbackHandler"]

_OPTION_PREFIX = "unsecuredLogin"
_STRING_CLAIM_PREFIX = _OPTION_PREFIX + "StringClaim_"
_NUMBER_CLAIM_PREFIX = _OPTION_PREFIX + "NumberClaim_"
_LIST_CLAIM_PREFIX = _OPTION_PREFIX + "ListClaim_"
_EXTENSION_PREFIX = _OPTION_PREFIX + "Extension_"
_RESERVED_CLAIMS = ("iat", "exp")


class OAuthBearerUnsecuredLoginCallbackHandler:
    __slots__ = ("_options", "_time")

    def __init__(self, time: Time = Time.SYSTEM) -> None:
        self._options: dict[str, str] = {}
        self._time = time

    def configure(self, mechanism: str, jaas_config_entries: list[AppConfigurationEntry]) -> None:
        if mechanism != "OAUTHBEARER":
            raise ValueError(f"Unexpected SASL mechanism: {mechanism}")
        if len(jaas_config_entries) != 1:
            raise ValueError(
                f"Must supply exactly 1 non-null JAAS mechanism configuration (size was {len(jaas_config_entries)})"
            )
        self._options = dict(jaas_config_entries[0].options)

    def token(self) -> OAuthBearerUnsecuredJws:
        """A new token valid for the configured lifetime from now."""
        options = self._options
        principal_claim_name = options.get(_OPTION_PREFIX + "PrincipalClaimName", "").strip() or "sub"
        scope_claim_name = options.get(_OPTION_PREFIX + "ScopeClaimName", "").strip() or "scope"
        try:
            lifetime_seconds = float(options.get(_OPTION_PREFIX + "LifetimeSeconds", "3600"))
        except ValueError as e:
            raise KafkaException(f"Invalid {_OPTION_PREFIX}LifetimeSeconds: {e}") from e
        now_ms = self._time.milliseconds()
        claims: dict[str, object] = {"iat": now_ms / 1000.0, "exp": (now_ms + lifetime_seconds * 1000) / 1000.0}
        for key, value in options.items():
            for prefix in (_STRING_CLAIM_PREFIX, _NUMBER_CLAIM_PREFIX, _LIST_CLAIM_PREFIX):
                if key.startswith(prefix) and len(key) > len(prefix):
                    name = key[len(prefix) :]
                    if name in _RESERVED_CLAIMS:
                        raise KafkaException(f"Cannot override the reserved claim '{name}'")
                    if prefix is _STRING_CLAIM_PREFIX:
                        claims[name] = value
                    elif prefix is _NUMBER_CLAIM_PREFIX:
                        try:
                            claims[name] = float(value) if "." in value else int(value)
                        except ValueError as e:
                            raise KafkaException(f"Invalid number for claim '{name}': {value}") from e
                    else:
                        claims[name] = [v for v in value[1:].split(value[0])] if value else []
        if principal_claim_name not in claims:
            raise KafkaException(f"Principal claim '{principal_claim_name}' is not set (use {_STRING_CLAIM_PREFIX}sub)")
        header = b64url_encode(json.dumps({"alg": "none"}).encode())
        payload = b64url_encode(json.dumps(claims).encode())
        return OAuthBearerUnsecuredJws(f"{header}.{payload}.", principal_claim_name, scope_claim_name)

    def extensions(self) -> dict[str, str]:
        extensions = {}
        for key, value in self._options.items():
            if key.startswith(_EXTENSION_PREFIX):
                name = key[len(_EXTENSION_PREFIX) :]
                if not re.fullmatch("[A-Za-z]+", name) or name == "auth":
                    raise KafkaException(f"Invalid SASL extension key '{name}'")
                extensions[name] = value
        return extensions
