"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramServerCallbackHandler.java
(Kafka 3.7).

Finds a SCRAM user's credential in the broker's credential cache for the SCRAM server.

# PORT: Java answers NameCallback/ScramCredentialCallback objects; here the server asks for the credential directly.
# Delegation-token credentials (tokenauth=true) are not served: no token cache in this port yet.
"""

from __future__ import annotations

from kafka.common.security.authenticator.credential_cache import CredentialCache
from kafka.common.security.jaas_context import AppConfigurationEntry
from kafka.common.security.scram.scram_credential import ScramCredential

__all__ = ["ScramServerCallbackHandler"]


class ScramServerCallbackHandler:
    __slots__ = ("_credential_cache", "_sasl_mechanism")

    def __init__(self, credential_cache: CredentialCache.Cache[ScramCredential] | None) -> None:
        self._credential_cache = credential_cache
        self._sasl_mechanism = ""

    def configure(self, mechanism: str, jaas_config_entries: list[AppConfigurationEntry]) -> None:
        self._sasl_mechanism = mechanism

    def credential(self, username: str) -> ScramCredential | None:
        if self._credential_cache is None:
            return None
        return self._credential_cache.get(username)

    def close(self) -> None:
        pass
