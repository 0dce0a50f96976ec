"""Port of clients/src/main/java/org/apache/kafka/common/MetricName.java (Kafka 2.8).

The name of a metric: a name, a group, a description and tags. Two names are equal when name, group and tags are;
the description is not part of the identity.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["MetricName"]


class MetricName:
    """Identifies one metric of a Metrics registry (immutable, hashable)."""

    __slots__ = ("_name", "_group", "_description", "_tags", "_hash")

    def __init__(self, name: str, group: str, description: str, tags: Mapping[str, str]) -> None:
        if name is None or group is None or description is None or tags is None:
            raise TypeError("MetricName needs a name, a group, a description and tags")
        self._name = name
        self._group = group
        self._description = description
        self._tags: dict[str, str] = dict(tags)
        self._hash = 0

    @property
    def name(self) -> str:
        return self._name

    @property
    def group(self) -> str:
        return self._group

    @property
    def tags(self) -> dict[str, str]:
        """A copy of the tags, in the order they were given."""
        return dict(self._tags)

    @property
    def description(self) -> str:
        return self._description

    def __hash__(self) -> int:
        if self._hash == 0:
            self._hash = hash((self._group, self._name, frozenset(self._tags.items())))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, MetricName):
            return NotImplemented
        return self._group == other._group and self._name == other._name and self._tags == other._tags

    def __repr__(self) -> str:
        tags = ", ".join(f"{k}={v}" for k, v in self._tags.items())
        return f"MetricName [name={self._name}, group={self._group}, description={self._description}, tags={{{tags}}}]"
