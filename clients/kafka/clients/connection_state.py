"""Port of clients/src/main/java/org/apache/kafka/clients/ConnectionState.java (Kafka 3.7).

The states of a NetworkClient's connection to a node: DISCONNECTED -> CONNECTING -> CHECKING_API_VERSIONS
-> READY, or AUTHENTICATION_FAILED.
"""

from __future__ import annotations

import enum

__all__ = ["ConnectionState"]


class ConnectionState(enum.Enum):
    DISCONNECTED = "DISCONNECTED"
    CONNECTING = "CONNECTING"
    CHECKING_API_VERSIONS = "CHECKING_API_VERSIONS"
    READY = "READY"
    AUTHENTICATION_FAILED = "AUTHENTICATION_FAILED"

    def is_disconnected(self) -> bool:
        return self is ConnectionState.AUTHENTICATION_FAILED or self is ConnectionState.DISCONNECTED

    def is_connected(self) -> bool:
        return self is ConnectionState.CHECKING_API_VERSIONS or self is ConnectionState.READY

    def __str__(self) -> str:
        return self.name
