"""Port of clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaEntity.java (Kafka 3.7).

The entity a client quota applies to: entity types (`user`, `client-id`, `ip`) mapped to names, a None name
standing for the default entity of that type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

__all__ = ["ClientQuotaEntity"]


class ClientQuotaEntity:
    """An immutable, hashable map of entity type to entity name (None: the default entity)."""

    USER: ClassVar[str] = "user"
    CLIENT_ID: ClassVar[str] = "client-id"
    IP: ClassVar[str] = "ip"

    __slots__ = ("_entries",)

    def __init__(self, entries: Mapping[str, str | None]) -> None:
        self._entries: dict[str, str | None] = dict(entries)

    @staticmethod
    def is_valid_entity_type(entity_type: str | None) -> bool:
        return entity_type in (ClientQuotaEntity.USER, ClientQuotaEntity.CLIENT_ID, ClientQuotaEntity.IP)

    def entries(self) -> dict[str, str | None]:
        """A copy of the entity's type -> name map."""
        return dict(self._entries)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClientQuotaEntity) and self._entries == other._entries

    def __hash__(self) -> int:
        return hash(frozenset(self._entries.items()))

    def __repr__(self) -> str:
        entries = ", ".join(f"{k}={'null' if v is None else v}" for k, v in self._entries.items())
        return f"ClientQuotaEntity(entries={{{entries}}})"
