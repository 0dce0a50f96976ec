"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramServerCallbackHandler.java
(Kafka 3.7).

Finds a SCRAM user's credential in the broker's credential cache for the SCRAM server, and for a `tokenauth=true`
login the delegation token's credential, owner and expiry in the token cache.

# PORT: Java answers NameCallback/ScramCredentialCallback/DelegationTokenCredentialCallback objects; here the server
# asks for the credential (or the token's credential, owner and expiry) directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.security.authenticator.credential_cache import CredentialCache
from kafka.common.security.jaas_context import AppConfigurationEntry
from kafka.common.security.scram.scram_credential import ScramCredential

if TYPE_CHECKING:
    from kafka.common.security.token.delegation.internals.delegation_token_cache import DelegationTokenCache

__all__ = ["ScramServerCallbackHandler"]


class ScramServerCallbackHandler:
    __slots__ = ("_credential_cache", "_sasl_mechanism", "_token_cache")

    def __init__(
        self,
        credential_cache: CredentialCache.Cache[ScramCredential] | None,
        token_cache: DelegationTokenCache | None = None,
    ) -> None:
        self._credential_cache = credential_cache
        self._token_cache = token_cache
        self._sasl_mechanism = ""

    def configure(self, mechanism: str, jaas_config_entries: list[AppConfigurationEntry]) -> None:
        self._sasl_mechanism = mechanism

    def credential(self, username: str) -> ScramCredential | None:
        if self._credential_cache is None:
            return None
        return self._credential_cache.get(username)

    def token_credential(self, token_id: str) -> tuple[ScramCredential | None, str | None, int | None]:
        """For a token login: the token's SCRAM credential of this mechanism, its owner's name and its expiry
        timestamp (each None when the token is unknown or the broker has no token cache)."""
        if self._token_cache is None:
            return None, None, None
        token_info = self._token_cache.token(token_id)
        return (
            self._token_cache.credential(self._sasl_mechanism, token_id),
            self._token_cache.owner(token_id),
            None if token_info is None else token_info.expiry_timestamp,
        )

    def close(self) -> None:
        pass
