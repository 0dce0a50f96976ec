"""The SASL mechanism interfaces the authenticators drive (Java's javax.security.sasl SaslServer and SaslClient).

# PORT: Java takes these from the JDK's SASL framework and looks mechanisms up through security providers; here
# they are two small ABCs, and SaslChannelBuilder makes the mechanism's server or client directly.
"""

from __future__ import annotations

import abc
from typing import Any

__all__ = ["SaslClient", "SaslException", "SaslServer"]


class SaslException(Exception):
    """A SASL exchange failed (bad message, wrong proof); the authenticator answers it as invalid credentials."""


class SaslServer(abc.ABC):
    @abc.abstractmethod
    def mechanism_name(self) -> str: ...

    @abc.abstractmethod
    def evaluate_response(self, response: bytes) -> bytes | None:
        """The challenge answering the client's `response` (None or empty when there is nothing to send)."""

    @abc.abstractmethod
    def is_complete(self) -> bool: ...

    @abc.abstractmethod
    def authorization_id(self) -> str:
        """The authenticated user; only once complete."""

    def get_negotiated_property(self, prop_name: str) -> Any:
        """A property settled by the exchange (such as the credential's lifetime), None if there is none."""
        return None

    def dispose(self) -> None:  # noqa: B027 - optional hook, as Java's
        """Drops what the exchange holds (keys, credentials)."""


class SaslClient(abc.ABC):
    @abc.abstractmethod
    def mechanism_name(self) -> str: ...

    @abc.abstractmethod
    def has_initial_response(self) -> bool: ...

    @abc.abstractmethod
    def evaluate_challenge(self, challenge: bytes) -> bytes | None:
        """The response to the server's `challenge` (empty at the start), None when there is nothing to send."""

    @abc.abstractmethod
    def is_complete(self) -> bool: ...

    def get_negotiated_property(self, prop_name: str) -> Any:
        return None

    def dispose(self) -> None:  # noqa: B027 - optional hook, as Java's
        """Drops what the exchange holds."""
