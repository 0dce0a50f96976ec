"""The client side of SASL/PLAIN (RFC 4616): one message `NUL username NUL password`.

# PORT: Java's clients take PLAIN from the JDK's SASL provider; this is that client, for our clients.
"""

from __future__ import annotations

from kafka.common.security.sasl import SaslClient, SaslException

__all__ = ["PlainSaslClient"]


class PlainSaslClient(SaslClient):
    __slots__ = ("_username", "_password", "_complete")

    def __init__(self, username: str, password: str) -> None:
        self._username = username
        self._password = password
        self._complete = False

    def mechanism_name(self) -> str:
        return "PLAIN"

    def has_initial_response(self) -> bool:
        return True

    def evaluate_challenge(self, challenge: bytes) -> bytes | None:
        if self._complete:
            raise SaslException("SASL/PLAIN authentication already complete")
        self._complete = True
        return b"\x00" + self._username.encode("utf-8") + b"\x00" + self._password.encode("utf-8")

    def is_complete(self) -> bool:
        return self._complete

    def dispose(self) -> None:
        self._password = ""
