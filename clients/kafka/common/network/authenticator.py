"""Port of clients/src/main/java/org/apache/kafka/common/network/Authenticator.java (Kafka 3.7).

What a KafkaChannel asks of its authentication: the handshake after connecting (none for PLAINTEXT) and the
principal the peer is known by once it is complete.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

from kafka.common.security.auth.kafka_principal import KafkaPrincipal

if TYPE_CHECKING:
    from kafka.common.network.network_receive import NetworkReceive

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

    def handle_authentication_failure(self) -> None:  # noqa: B027 - optional hook, as Java's default method
        """Sends the failure response built when authentication failed, just before the channel closes (a server
        authenticator's; the Selector calls it once connection.failed.authentication.delay.ms has passed)."""

    # Re-authentication (KIP-368): only SASL authenticators re-authenticate; these are the defaults of the others.

    def server_session_expiration_time_nanos(self) -> int | None:
        """When the broker's session of this connection ends (None: never)."""
        return None

    def client_session_reauthentication_time_nanos(self) -> int | None:
        """When the client should re-authenticate this connection (None: never)."""
        return None

    def reauthentication_latency_ms(self) -> int | None:
        return None

    def connected_client_supports_reauthentication(self) -> bool:
        return False

    def poll_response_received_during_reauthentication(self) -> NetworkReceive | None:
        """A response to one of the client's requests that arrived while it re-authenticated."""
        return None
