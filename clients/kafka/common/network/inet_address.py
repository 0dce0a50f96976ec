"""Stands in for java.net.InetAddress and InetSocketAddress in the ported network layer.

# PORT: Java resolves a host name to InetAddress objects that remember the name they were looked up by, and
# prints them as `name/address`; Kafka's log lines show that form ("Connection to node 0
# (localhost/127.0.0.1:9092) could not be established"). These two small values keep it.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass

__all__ = ["InetAddress", "InetSocketAddress"]


@dataclass(frozen=True, slots=True)
class InetAddress:
    """A resolved IP address and the host name it came from (None for a literal address)."""

    host_name: str | None
    host_address: str

    @property
    def family(self) -> socket.AddressFamily:
        return socket.AF_INET6 if ":" in self.host_address else socket.AF_INET

    def __str__(self) -> str:
        return f"{self.host_name or ''}/{self.host_address}"


@dataclass(frozen=True, slots=True)
class InetSocketAddress:
    """An InetAddress and a port."""

    address: InetAddress
    port: int

    def sockaddr(self) -> tuple[str, int]:
        return (self.address.host_address, self.port)

    def __str__(self) -> str:
        host = self.address.host_address
        shown = f"[{host}]" if ":" in host else host
        return f"{self.address.host_name or ''}/{shown}:{self.port}"
