"""Port of clients/src/main/java/org/apache/kafka/common/security/token/delegation/internals/DelegationTokenCache.java
(Kafka 3.7).

The broker's view of the delegation tokens: each token's information by id, the SCRAM credentials made from its
HMAC (by mechanism and token id, which the SCRAM server looks up for `tokenauth=true` logins), and the HMAC to id
mapping that renew and expire requests, which name a token by its HMAC, need.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping

from kafka.common.security.authenticator.credential_cache import CredentialCache
from kafka.common.security.scram.internals import scram_credential_utils
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.scram_credential import ScramCredential
from kafka.common.security.token.delegation.delegation_token import DelegationToken
from kafka.common.security.token.delegation.token_information import TokenInformation

__all__ = ["DelegationTokenCache"]


class DelegationTokenCache:
    __slots__ = ("_credential_cache", "_hmac_token_id_cache", "_lock", "_token_cache", "_token_id_hmac_cache")

    def __init__(self, scram_mechanisms: Collection[str]) -> None:
        self._credential_cache = CredentialCache()
        scram_credential_utils.create_cache(self._credential_cache, scram_mechanisms)
        # PORT: Java's three ConcurrentHashMaps; one lock keeps the two HMAC maps in step with the token map.
        self._lock = threading.Lock()
        self._token_cache: dict[str, TokenInformation] = {}
        self._hmac_token_id_cache: dict[str, str] = {}
        self._token_id_hmac_cache: dict[str, str] = {}

    def credential(self, mechanism: str, token_id: str) -> ScramCredential | None:
        cache = self._credential_cache.cache(mechanism, ScramCredential)
        return None if cache is None else cache.get(token_id)

    def owner(self, token_id: str) -> str | None:
        token_info = self._token_cache.get(token_id)
        return None if token_info is None else token_info.owner.name

    def update_cache(self, token: DelegationToken, scram_credential_map: Mapping[str, ScramCredential]) -> None:
        token_id = token.token_info().token_id
        self.add_token(token_id, token.token_info())
        hmac = token.hmac_as_base64_string()
        self._update_credentials(token_id, scram_credential_map)
        with self._lock:
            self._hmac_token_id_cache[hmac] = token_id
            self._token_id_hmac_cache[token_id] = hmac

    def remove_cache(self, token_id: str) -> None:
        self.remove_token(token_id)
        self._update_credentials(token_id, {})

    def token_id_for_hmac(self, base64_hmac: str) -> str | None:
        return self._hmac_token_id_cache.get(base64_hmac)

    def token_for_hmac(self, base64_hmac: str) -> TokenInformation | None:
        with self._lock:
            token_id = self._hmac_token_id_cache.get(base64_hmac)
            return None if token_id is None else self._token_cache.get(token_id)

    def add_token(self, token_id: str, token_info: TokenInformation) -> TokenInformation | None:
        with self._lock:
            previous = self._token_cache.get(token_id)
            self._token_cache[token_id] = token_info
            return previous

    def remove_token(self, token_id: str) -> None:
        with self._lock:
            token_info = self._token_cache.pop(token_id, None)
            if token_info is not None:
                hmac = self._token_id_hmac_cache.pop(token_info.token_id, None)
                if hmac is not None:
                    self._hmac_token_id_cache.pop(hmac, None)

    def tokens(self) -> list[TokenInformation]:
        with self._lock:
            return list(self._token_cache.values())

    def token(self, token_id: str) -> TokenInformation | None:
        return self._token_cache.get(token_id)

    def credential_cache(self, mechanism: str) -> CredentialCache.Cache[ScramCredential] | None:
        return self._credential_cache.cache(mechanism, ScramCredential)

    def _update_credentials(self, token_id: str, scram_credential_map: Mapping[str, ScramCredential]) -> None:
        for mechanism in ScramMechanism.mechanism_names():
            cache = self._credential_cache.cache(mechanism, ScramCredential)
            if cache is None:
                continue
            credential = scram_credential_map.get(mechanism)
            if credential is None:
                cache.remove(token_id)
            else:
                cache.put(token_id, credential)
