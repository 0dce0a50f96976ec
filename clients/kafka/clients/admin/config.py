"""Port of clients/src/main/java/org/apache/kafka/clients/admin/Config.java (Kafka 3.7).

The configuration of one resource: its ConfigEntries by name.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.clients.admin.config_entry import ConfigEntry

__all__ = ["Config"]


class Config:
    """ConfigEntries by name (a later entry of the same name replaces an earlier one)."""

    __slots__ = ("_entries",)

    def __init__(self, entries: Iterable[ConfigEntry]) -> None:
        self._entries: dict[str, ConfigEntry] = {}
        for entry in entries:
            self._entries[entry.name] = entry

    @property
    def entries(self) -> tuple[ConfigEntry, ...]:
        return tuple(self._entries.values())

    def get(self, name: str) -> ConfigEntry | None:
        """The entry of config `name`, or None."""
        return self._entries.get(name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._entries == other._entries

    def __hash__(self) -> int:
        return hash(frozenset(self._entries.items()))

    def __str__(self) -> str:
        return f"Config(entries=[{', '.join(map(str, self._entries.values()))}])"

    __repr__ = __str__
