"""Port of clients/src/main/java/org/apache/kafka/clients/DefaultHostResolver.java (Kafka 3.7).

Resolution through the system resolver (getaddrinfo), as InetAddress.getAllByName does.
"""

from __future__ import annotations

import socket

from kafka.clients.host_resolver import HostResolver
from kafka.common.network.inet_address import InetAddress

__all__ = ["DefaultHostResolver"]


class DefaultHostResolver(HostResolver):
    def resolve(self, host: str) -> list[InetAddress]:
        infos = socket.getaddrinfo(host, None, socket.AF_UNSPEC, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        seen: set[str] = set()
        result: list[InetAddress] = []
        literal = _is_literal(host)
        for family, _, _, _, sockaddr in infos:
            if family not in (socket.AF_INET, socket.AF_INET6):
                continue
            address = str(sockaddr[0])
            if address in seen:
                continue
            seen.add(address)
            result.append(InetAddress(None if literal else host, address))
        if not result:
            raise socket.gaierror(f"{host}: no addresses")
        return result


def _is_literal(host: str) -> bool:
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(family, host)
            return True
        except OSError:
            pass
    return False
