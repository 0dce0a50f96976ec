"""Port of clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaFilterComponent.java (Kafka 3.7).

One entity type of a quota filter and what it matches: one named entity (`of_entity`), the default entity
(`of_default_entity`) or any entity of the type, default included (`of_entity_type`).
"""

from __future__ import annotations

from typing import Final

__all__ = ["ClientQuotaFilterComponent"]


class _AnyMatch:
    """The "no match given" state (Java's null Optional): the component matches every entity of its type."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "null"


ANY: Final = _AnyMatch()


class ClientQuotaFilterComponent:
    """A filter component. `match` is the entity name, None for the default entity, or ANY."""

    __slots__ = ("_entity_type", "_match")

    def __init__(self, entity_type: str, match: str | _AnyMatch | None) -> None:
        # PORT: Java's constructor is private and its match an Optional<String> that may itself be null; here
        # the three states are a name, None (Optional.empty) and the ANY marker (null). Use the factories.
        if entity_type is None:
            raise TypeError("entityType")
        self._entity_type = entity_type
        self._match = match

    @staticmethod
    def of_entity(entity_type: str, entity_name: str) -> ClientQuotaFilterComponent:
        if entity_name is None:
            raise TypeError("entityName")
        return ClientQuotaFilterComponent(entity_type, entity_name)

    @staticmethod
    def of_default_entity(entity_type: str) -> ClientQuotaFilterComponent:
        return ClientQuotaFilterComponent(entity_type, None)

    @staticmethod
    def of_entity_type(entity_type: str) -> ClientQuotaFilterComponent:
        return ClientQuotaFilterComponent(entity_type, ANY)

    def entity_type(self) -> str:
        return self._entity_type

    def match(self) -> str | _AnyMatch | None:
        """The name to match, None for the default entity, ANY for every entity of the type."""
        return self._match

    def matches_any(self) -> bool:
        """Whether no match was given (Java: `match() == null`)."""
        return self._match is ANY

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ClientQuotaFilterComponent)
            and self._entity_type == other._entity_type
            and self._match == other._match
        )

    def __hash__(self) -> int:
        return hash((self._entity_type, self._match))

    def __repr__(self) -> str:
        if self._match is ANY:
            match = "null"
        elif self._match is None:
            match = "Optional.empty"
        else:
            match = f"Optional[{self._match}]"
        return f"ClientQuotaFilterComponent(entityType={self._entity_type}, match={match})"
