"""Port of com.yammer.metrics.core.MetricName (metrics-core 2.2.0).

A metric's identity: group, type, name and an optional scope, and the JMX MBean name it is registered under. Two
names are the same metric when their MBean names are equal, as in Yammer.
"""

from __future__ import annotations

__all__ = ["MetricName"]


class MetricName:
    """The name of a metric; `mbean_name` defaults to `group:type=T,scope=S,name=N`."""

    __slots__ = ("group", "type", "name", "scope", "mbean_name", "_hash")

    def __init__(self, group: str, type: str, name: str, scope: str | None = None, mbean_name: str | None = None):
        if group is None or type is None:
            raise ValueError("Both group and type need to be specified")
        if name is None:
            raise ValueError("Name needs to be specified")
        self.group = group
        self.type = type
        self.name = name
        self.scope = scope
        self.mbean_name = mbean_name if mbean_name is not None else self.create_mbean_name(group, type, name, scope)
        self._hash = hash(self.mbean_name)

    @staticmethod
    def create_mbean_name(group: str, type: str, name: str, scope: str | None = None) -> str:
        """The MBean name Yammer derives when none is given."""
        parts = [f"{group}:type={type}"]
        if scope is not None:
            parts.append(f"scope={scope}")
        if name:
            parts.append(f"name={name}")
        return ",".join(parts)

    @property
    def has_scope(self) -> bool:
        return self.scope is not None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MetricName) and self.mbean_name == other.mbean_name

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: MetricName) -> bool:
        return self.mbean_name < other.mbean_name

    def __repr__(self) -> str:
        return self.mbean_name
