"""Port of clients/src/test/java/org/apache/kafka/clients/AddressChangeHostResolver.java (Kafka 3.7).

A HostResolver that answers with one set of addresses until told to switch to another, and counts lookups.
"""

from __future__ import annotations

from collections.abc import Sequence

from kafka.clients.host_resolver import HostResolver
from kafka.common.network.inet_address import InetAddress


class AddressChangeHostResolver(HostResolver):
    def __init__(self, initial_addresses: Sequence[InetAddress], new_addresses: Sequence[InetAddress]) -> None:
        self._initial_addresses = list(initial_addresses)
        self._new_addresses = list(new_addresses)
        self._use_new_addresses = False
        self.resolution_count = 0

    def resolve(self, host: str) -> list[InetAddress]:
        self.resolution_count += 1
        return list(self._new_addresses if self._use_new_addresses else self._initial_addresses)

    def change_addresses(self) -> None:
        self._use_new_addresses = True

    def use_new_addresses(self) -> bool:
        return self._use_new_addresses
