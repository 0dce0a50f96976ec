"""Port of core/src/main/scala/kafka/cluster/EndPoint.scala (Kafka 2.8).

One listener of a broker: a host and port, the listener's name and its security protocol, parsed
from and printed as `LISTENER://host:port` (IPv6 hosts in brackets, an empty host meaning "all
interfaces").

# PORT: `listener_list_to_end_points`, `parse_csv_list` and `parse_csv_map` come from Kafka's
CoreUtils.scala; they live here because listener parsing is their only use in this port so far.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from kafka.common.errors import KafkaException
from kafka.common.network.listener_name import ListenerName
from kafka.common.security.auth.security_protocol import SecurityProtocol

__all__ = [
    "DEFAULT_SECURITY_PROTOCOL_MAP",
    "EndPoint",
    "create_end_point",
    "format_address",
    "listener_list_to_end_points",
    "parse_csv_list",
    "parse_csv_map",
]

# listener://host:port, listener://[ipv6]:port or listener://:port; negative ports are accepted.
_URI_PARSE_EXP: Final = re.compile(r"^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)")
_CSV_SPLIT: Final = re.compile(r"\s*,\s*")

#: Each security protocol as a listener of the same name.
DEFAULT_SECURITY_PROTOCOL_MAP: Final[dict[ListenerName, SecurityProtocol]] = {
    ListenerName.for_security_protocol(sp): sp for sp in SecurityProtocol
}


def format_address(host: str, port: int) -> str:
    """`host:port`, with an IPv6 host in brackets (Java's Utils.formatAddress)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@dataclass(frozen=True, slots=True)
class EndPoint:
    """A listener of a broker. `host` is None when the listener binds every interface."""

    host: str | None
    port: int
    listener_name: ListenerName
    security_protocol: SecurityProtocol

    @property
    def connection_string(self) -> str:
        """`LISTENER://host:port`, as written to ZooKeeper and to the broker's log."""
        hostport = f":{self.port}" if self.host is None else format_address(self.host, self.port)
        return f"{self.listener_name.value}://{hostport}"

    def __str__(self) -> str:
        host = "null" if self.host is None else self.host
        return f"EndPoint({host},{self.port},{self.listener_name},{self.security_protocol})"


def create_end_point(
    connection_string: str, security_protocol_map: Mapping[ListenerName, SecurityProtocol] | None = None
) -> EndPoint:
    """Parse `LISTENER://host:port` into an EndPoint.

    The listener name is normalised (upper case) and looked up in `security_protocol_map` (by
    default every protocol is a listener of its own name). Raises ValueError (Java's
    IllegalArgumentException) for a listener without a protocol, KafkaException for a string that
    is not an endpoint.
    """
    protocol_map = DEFAULT_SECURITY_PROTOCOL_MAP if security_protocol_map is None else security_protocol_map
    m = _URI_PARSE_EXP.match(connection_string)
    if m is None:
        raise KafkaException(f"Unable to parse {connection_string} to a broker endpoint")
    listener_name = ListenerName.normalised(m.group(1))
    protocol = protocol_map.get(listener_name)
    if protocol is None:
        raise ValueError(f"No security protocol defined for listener {listener_name.value}")
    port = int(m.group(3))
    if not -(2**31) <= port < 2**31:
        raise KafkaException(f"Unable to parse {connection_string} to a broker endpoint")
    host = m.group(2) or None
    return EndPoint(host, port, listener_name, protocol)


def parse_csv_list(csv_list: str | None) -> list[str]:
    """Comma-separated values, whitespace around commas removed and empty entries dropped."""
    if not csv_list:
        return []
    return [v for v in _CSV_SPLIT.split(csv_list) if v != ""]


def parse_csv_map(s: str) -> dict[str, str]:
    """`k1:v1, k2:v2` into a dict, splitting each entry at its last colon."""
    result: dict[str, str] = {}
    if s == "":
        return result
    for entry in _CSV_SPLIT.split(s):
        i = entry.rfind(":")
        if i < 0:
            # Java's substring(0, -1) throws StringIndexOutOfBoundsException here.
            raise ValueError(f"begin 0, end -1, length {len(entry)}")
        result[entry[:i].strip()] = entry[i + 1 :].strip()
    return result


def listener_list_to_end_points(
    listeners: str,
    security_protocol_map: Mapping[ListenerName, SecurityProtocol],
    require_distinct_ports: bool = True,
) -> list[EndPoint]:
    """Parse a comma-separated listener list; names must be distinct, and ports too (0 excepted) if asked.

    Raises ValueError (Java's IllegalArgumentException) for any problem.
    """
    try:
        end_points = [create_end_point(s, security_protocol_map) for s in parse_csv_list(listeners)]
    except Exception as e:
        raise ValueError(f"Error creating broker listeners from '{listeners}': {e}") from e
    names = {ep.listener_name for ep in end_points}
    if len(names) != len(end_points):
        raise ValueError(f"requirement failed: Each listener must have a different name, listeners: {listeners}")
    if require_distinct_ports:
        ports = [ep.port for ep in end_points if ep.port != 0]
        if len(set(ports)) != len(ports):
            raise ValueError(f"requirement failed: Each listener must have a different port, listeners: {listeners}")
    return end_points
