"""Port of clients/src/main/java/org/apache/kafka/clients/ClientDnsLookup.java (Kafka 3.7).

How a client turns a broker host name into addresses: use every address the name resolves to
(the default since 3.0), or resolve bootstrap names canonically first.
"""

from __future__ import annotations

import enum

__all__ = ["ClientDnsLookup"]


class ClientDnsLookup(enum.Enum):
    USE_ALL_DNS_IPS = "use_all_dns_ips"
    RESOLVE_CANONICAL_BOOTSTRAP_SERVERS_ONLY = "resolve_canonical_bootstrap_servers_only"

    def __str__(self) -> str:
        return self.value

    @staticmethod
    def for_config(config: str) -> ClientDnsLookup:
        """The member named by a `client.dns.lookup` value, in any case."""
        return ClientDnsLookup[config.upper()]
