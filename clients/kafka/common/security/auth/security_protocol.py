"""Port of clients/src/main/java/org/apache/kafka/common/security/auth/SecurityProtocol.java (Kafka 2.8).

The security protocols a listener can speak, with the ids Kafka stores for them.
"""

from __future__ import annotations

import enum

__all__ = ["SecurityProtocol"]


class SecurityProtocol(enum.Enum):
    """PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL; `id` is Kafka's numeric id, `name` its spelling."""

    PLAINTEXT = 0
    SSL = 1
    SASL_PLAINTEXT = 2
    SASL_SSL = 3

    @property
    def id(self) -> int:
        return self.value

    @staticmethod
    def names() -> list[str]:
        """Every protocol name, in id order."""
        return [p.name for p in SecurityProtocol]

    @staticmethod
    def for_id(id_: int) -> SecurityProtocol:
        """The protocol with id `id_`; ValueError for an unknown id."""
        return SecurityProtocol(id_)

    @staticmethod
    def for_name(name: str) -> SecurityProtocol:
        """The protocol named `name`, in any case; ValueError (Java: IllegalArgumentException) otherwise."""
        try:
            return SecurityProtocol[name.upper()]
        except KeyError:
            raise ValueError(f"No enum constant SecurityProtocol.{name}") from None

    def __str__(self) -> str:
        return self.name
