"""Port of clients/src/main/java/org/apache/kafka/common/network/Authenticator.java (Kafka 3.7).

What a KafkaChannel asks of its authentication: the handshake after connecting (none for PLAINTEXT) and the
principal the peer is known by once it is complete.
"""

from __future__ import annotations

import abc

from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["Authenticator"]


class Authenticator(abc.ABC):
    @abc.abstractmethod
    def authenticate(self) -> None:
        """Takes the handshake as far as the connection allows now (non-blocking)."""

    @abc.abstractmethod
    def principal(self) -> KafkaPrincipal:
        """The authenticated peer."""

    @abc.abstractmethod
    def complete(self) -> bool:
        """Whether authentication is done."""

    def close(self) -> None:  # noqa: B027 - optional hook, as Java's Closeable default
        """Releases what the authenticator holds."""
