"""Port of clients/src/main/java/org/apache/kafka/common/Node.java (Kafka 3.7).

A broker as a client addresses it: an id, a host and port, and an optional rack. Bootstrap servers get
negative ids until the first metadata response names the real brokers.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Node"]


@dataclass(frozen=True, slots=True)
class Node:
    """One broker endpoint; equal (and hashed) by all four fields, as Java's equals/hashCode.

    # PORT: Java caches its hash code and id string in fields; a frozen dataclass computes them on demand.
    """

    id: int
    host: str | None
    port: int
    rack: str | None = None

    @property
    def id_string(self) -> str:
        """The id as a string: the node id the network layer uses for connections."""
        return str(self.id)

    def has_rack(self) -> bool:
        return self.rack is not None

    def is_empty(self) -> bool:
        """Whether this is a placeholder without an address (Node.no_node() and the like)."""
        return self.host is None or self.host == "" or self.port < 0

    @staticmethod
    def no_node() -> Node:
        """The placeholder for "no node": id -1, empty host, port -1."""
        return _NO_NODE

    def __str__(self) -> str:
        rack = "null" if self.rack is None else self.rack
        return f"{self.host}:{self.port} (id: {self.id} rack: {rack})"


_NO_NODE = Node(-1, "", -1)
