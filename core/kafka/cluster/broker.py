"""Port of core/src/main/scala/kafka/cluster/Broker.scala (Kafka 2.8).

A broker as the cluster knows it: its id, its listeners and its rack, with lookups of the address
a client or another broker should use on a given listener.

# PORT: Scala's kafka.cluster.BrokerEndPoint and kafka.common.BrokerEndPointNotAvailableException
are not ported elsewhere yet; minimal versions live here (BrokerEndPoint as a frozen dataclass with
Kafka's fields). Node is the clients' org.apache.kafka.common.Node, re-exported here for the modules
that import it from this one. Supported features (KIP-584) are not carried.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kafka.cluster.end_point import EndPoint, format_address
from kafka.common.errors import KafkaException
from kafka.common.network.listener_name import ListenerName
from kafka.common.node import Node
from kafka.common.security.auth.security_protocol import SecurityProtocol

__all__ = ["Broker", "BrokerEndPoint", "BrokerEndPointNotAvailableException", "Node"]


class BrokerEndPointNotAvailableException(KafkaException):
    """A broker has no endpoint on the requested listener."""


@dataclass(frozen=True, slots=True)
class BrokerEndPoint:
    """A broker id with one host and port (Scala's kafka.cluster.BrokerEndPoint)."""

    id: int
    host: str
    port: int

    def connection_string(self) -> str:
        return format_address(self.host, self.port)

    def __str__(self) -> str:
        return f"BrokerEndPoint(id={self.id}, host={self.host}:{self.port})"


@dataclass(frozen=True, slots=True)
class Broker:
    """A broker id, its endpoints (one per listener name) and its optional rack."""

    id: int
    end_points: tuple[EndPoint, ...]
    rack: str | None = None
    _end_points_map: dict[ListenerName, EndPoint] = field(init=False, repr=False, compare=False, hash=False)

    def __init__(self, id: int, end_points: Iterable[EndPoint], rack: str | None = None) -> None:
        eps = tuple(end_points)
        by_name = {ep.listener_name: ep for ep in eps}
        if len(by_name) != len(eps):
            raise ValueError(
                "There is more than one end point with the same listener name: " + ",".join(str(e) for e in eps)
            )
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "end_points", eps)
        object.__setattr__(self, "rack", rack)
        object.__setattr__(self, "_end_points_map", by_name)

    @classmethod
    def from_host_port(
        cls, id_: int, host: str, port: int, listener_name: ListenerName, protocol: SecurityProtocol
    ) -> Broker:
        """A broker with a single endpoint and no rack (Scala's auxiliary constructor)."""
        return cls(id_, [EndPoint(host, port, listener_name, protocol)], None)

    def node(self, listener_name: ListenerName) -> Node:
        """The client-facing address on `listener_name`; BrokerEndPointNotAvailableException if absent."""
        n = self.get_node(listener_name)
        if n is None:
            raise BrokerEndPointNotAvailableException(
                f"End point with listener name {listener_name.value} not found for broker {self.id}"
            )
        return n

    def get_node(self, listener_name: ListenerName) -> Node | None:
        """The client-facing address on `listener_name`, or None."""
        ep = self._end_points_map.get(listener_name)
        return None if ep is None else Node(self.id, ep.host, ep.port, self.rack)

    def broker_endpoint(self, listener_name: ListenerName) -> BrokerEndPoint:
        """Id, host and port on `listener_name` (used by replica fetchers)."""
        ep = self.end_point(listener_name)
        return BrokerEndPoint(self.id, ep.host or "", ep.port)

    def end_point(self, listener_name: ListenerName) -> EndPoint:
        """The endpoint on `listener_name`; BrokerEndPointNotAvailableException if absent."""
        ep = self._end_points_map.get(listener_name)
        if ep is None:
            raise BrokerEndPointNotAvailableException(
                f"End point with listener name {listener_name.value} not found for broker {self.id}"
            )
        return ep

    def __str__(self) -> str:
        eps = ",".join(str(e) for e in self._end_points_map.values())
        rack = "null" if self.rack is None else self.rack
        return f"{self.id} : ({eps}) : {rack} : Features{{}}"
