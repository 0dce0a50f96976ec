"""Port of clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaFilter.java (Kafka 3.7).

Which quota entities describeClientQuotas returns: those matching every component, and, when strict, having no
entity type beyond the components'.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.common.quota.client_quota_filter_component import ClientQuotaFilterComponent

__all__ = ["ClientQuotaFilter"]


class ClientQuotaFilter:
    __slots__ = ("_components", "_strict")

    def __init__(self, components: Iterable[ClientQuotaFilterComponent], strict: bool) -> None:
        # PORT: private in Java; use contains / contains_only / all.
        self._components = tuple(components)
        self._strict = strict

    @staticmethod
    def contains(components: Iterable[ClientQuotaFilterComponent]) -> ClientQuotaFilter:
        """Entities matching the components, whatever other entity types they have."""
        return ClientQuotaFilter(components, False)

    @staticmethod
    def contains_only(components: Iterable[ClientQuotaFilterComponent]) -> ClientQuotaFilter:
        """Entities matching the components and having no other entity type."""
        return ClientQuotaFilter(components, True)

    @staticmethod
    def all() -> ClientQuotaFilter:
        """Every entity with a quota."""
        return ClientQuotaFilter((), False)

    def components(self) -> tuple[ClientQuotaFilterComponent, ...]:
        return self._components

    def strict(self) -> bool:
        return self._strict

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ClientQuotaFilter)
            and self._components == other._components
            and self._strict == other._strict
        )

    def __hash__(self) -> int:
        return hash((self._components, self._strict))

    def __repr__(self) -> str:
        components = ", ".join(repr(c) for c in self._components)
        return f"ClientQuotaFilter(components=[{components}], strict={str(self._strict).lower()})"
