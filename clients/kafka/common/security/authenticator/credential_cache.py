"""Port of clients/src/main/java/org/apache/kafka/common/security/authenticator/CredentialCache.java (Kafka 3.7).

The broker's credentials by mechanism and user name (SCRAM credentials, loaded from ZooKeeper and kept current by
the user config handler), read by the SASL server callback handlers on every login.
"""

from __future__ import annotations

import threading
from typing import Any, Generic, TypeVar

__all__ = ["CredentialCache"]

C = TypeVar("C")


class CredentialCache:
    class Cache(Generic[C]):
        """One mechanism's credentials by user name; safe to read while another thread updates it."""

        __slots__ = ("_credential_class", "_credentials", "_lock")

        def __init__(self, credential_class: type[C]) -> None:
            self._credential_class = credential_class
            self._credentials: dict[str, C] = {}
            self._lock = threading.Lock()

        def get(self, username: str) -> C | None:
            return self._credentials.get(username)

        def put(self, username: str, credential: C) -> C | None:
            with self._lock:
                previous = self._credentials.get(username)
                self._credentials[username] = credential
                return previous

        def remove(self, username: str) -> C | None:
            with self._lock:
                return self._credentials.pop(username, None)

        def credential_type(self) -> type[C]:
            return self._credential_class

    __slots__ = ("_cache_map", "_lock")

    def __init__(self) -> None:
        self._cache_map: dict[str, CredentialCache.Cache[Any]] = {}
        self._lock = threading.Lock()

    def create_cache(self, mechanism: str, credential_class: type[C]) -> CredentialCache.Cache[C]:
        with self._lock:
            existing = self._cache_map.get(mechanism)
            if existing is not None:
                if existing.credential_type() is not credential_class:
                    raise ValueError(
                        f"Invalid credential class {credential_class}, expected {existing.credential_type()}"
                    )
                return existing
            cache: CredentialCache.Cache[C] = CredentialCache.Cache(credential_class)
            self._cache_map[mechanism] = cache
            return cache

    def cache(self, mechanism: str, credential_class: type[C]) -> CredentialCache.Cache[C] | None:
        cache = self._cache_map.get(mechanism)
        if cache is None:
            return None
        if cache.credential_type() is not credential_class:
            raise ValueError(f"Invalid credential class {credential_class}, expected {cache.credential_type()}")
        return cache
