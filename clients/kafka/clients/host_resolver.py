"""Port of clients/src/main/java/org/apache/kafka/clients/HostResolver.java (Kafka 3.7).

Resolves a broker host name to its addresses (replaced in tests to simulate DNS changes).
"""

from __future__ import annotations

import abc

from kafka.common.network.inet_address import InetAddress

__all__ = ["HostResolver"]


class HostResolver(abc.ABC):
    @abc.abstractmethod
    def resolve(self, host: str) -> list[InetAddress]:
        """Every address of `host`; OSError (Java: UnknownHostException) when it has none."""
