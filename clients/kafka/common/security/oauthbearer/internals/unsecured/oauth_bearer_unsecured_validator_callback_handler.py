"""Port of clients/src/main/java/org/apache/kafka/common/security/oauthbearer/internals/unsecured/
OAuthBearerUnsecuredValidatorCallbackHandler.java and OAuthBearerValidationUtils.java (Kafka 3.7).

The broker's check of an unsecured token, configured by the JAAS options of the OAUTHBEARER login module:
`unsecuredValidatorPrincipalClaimName` (default `sub`), `unsecuredValidatorScopeClaimName` (default `scope`),
`unsecuredValidatorRequiredScope` (space-separated) and `unsecuredValidatorAllowableClockSkewMs` (default 0). A token
must name its principal, must not have expired or be issued in the future, and must carry the required scope.
"""

from __future__ import annotations

import logging

from kafka.common.security.jaas_context import AppConfigurationEntry
from kafka.common.security.oauthbearer.internals.unsecured.oauth_bearer_unsecured_jws import (
    OAuthBearerIllegalTokenException,
    OAuthBearerUnsecuredJws,
)
from kafka.common.utils.time import Time

__all__ = ["OAuthBearerUnsecuredValidatorCallbackHandler", "OAuthBearerValidationFailure"]

log = logging.getLogger(
    "org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredValidatorCallbackHandler"
)

OAUTHBEARER_LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
_PRINCIPAL_CLAIM_NAME_OPTION = "unsecuredValidatorPrincipalClaimName"
_SCOPE_CLAIM_NAME_OPTION = "unsecuredValidatorScopeClaimName"
_REQUIRED_SCOPE_OPTION = "unsecuredValidatorRequiredScope"
_ALLOWABLE_CLOCK_SKEW_MILLIS_OPTION = "unsecuredValidatorAllowableClockSkewMs"


class OAuthBearerValidationFailure(Exception):
    """A token refused: the RFC 6750 status (`invalid_token`, `insufficient_scope`) and the scope wanted."""

    def __init__(self, description: str, status: str = "invalid_token", scope: str | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.scope = scope


class OAuthBearerUnsecuredValidatorCallbackHandler:
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

    def validate(self, token_value: str) -> OAuthBearerUnsecuredJws:
        """The token, or OAuthBearerValidationFailure saying why it is refused."""
        principal_claim_name = self._options.get(_PRINCIPAL_CLAIM_NAME_OPTION, "").strip() or "sub"
        scope_claim_name = self._options.get(_SCOPE_CLAIM_NAME_OPTION, "").strip() or "scope"
        required_scope = self._options.get(_REQUIRED_SCOPE_OPTION, "").split()
        try:
            skew_ms = int(self._options.get(_ALLOWABLE_CLOCK_SKEW_MILLIS_OPTION, "0") or 0)
        except ValueError:
            raise OAuthBearerValidationFailure(f"Invalid value for {_ALLOWABLE_CLOCK_SKEW_MILLIS_OPTION}") from None
        try:
            jws = OAuthBearerUnsecuredJws(token_value, principal_claim_name, scope_claim_name)
            now = self._time.milliseconds()
            if jws.principal_name() is None:
                raise OAuthBearerValidationFailure(f"Required claim missing: {principal_claim_name}")
            issued_at = jws.issued_at_ms()
            if issued_at is not None and issued_at > now + skew_ms:
                raise OAuthBearerValidationFailure(
                    f"The Issued At value ({issued_at / 1000}) is after the current time ({now / 1000}) plus the "
                    f"allowable clock skew ({skew_ms})"
                )
            expiration = jws.lifetime_ms()
            if now - skew_ms >= expiration:
                raise OAuthBearerValidationFailure(
                    f"The indicated time ({now}) is at or after the Expiration Time value ({expiration}) plus the "
                    f"allowable clock skew ({skew_ms})"
                )
            start = jws.start_time_ms()
            if start is not None and expiration <= start:
                raise OAuthBearerValidationFailure(
                    f"The Expiration Time time ({expiration}) is not after the Not Before time ({start})"
                )
            scope = jws.scope()
            missing = [s for s in required_scope if s not in scope]
            if missing:
                raise OAuthBearerValidationFailure(
                    f"The provided scope ({sorted(scope)}) was missing a required scope ({missing[0]})",
                    "insufficient_scope",
                    " ".join(required_scope),
                )
        except OAuthBearerIllegalTokenException as e:
            raise OAuthBearerValidationFailure(str(e)) from e
        log.info("Successfully validated token with principal %s", jws.principal_name())
        return jws

    def close(self) -> None:
        pass
