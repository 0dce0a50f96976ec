"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeConfigsOptions.java (Kafka 3.7).

Options of describeConfigs. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Any, Self, overload

from kafka.clients.admin.abstract_options import UNSET, AbstractOptions

__all__ = ["DescribeConfigsOptions"]


class DescribeConfigsOptions(AbstractOptions):
    """Options of describeConfigs."""

    def __init__(
        self, include_synonyms: bool = False, include_documentation: bool = False, timeout_ms: int | None = None
    ) -> None:
        super().__init__(timeout_ms)
        self._include_synonyms = include_synonyms
        self._include_documentation = include_documentation

    @overload
    def include_synonyms(self) -> bool: ...

    @overload
    def include_synonyms(self, include_synonyms: bool) -> Self: ...

    def include_synonyms(self, include_synonyms: Any = UNSET) -> Any:
        """Whether each config's synonyms (the values it would take at each level) are returned. With an argument, sets
        it and returns the options."""
        if include_synonyms is UNSET:
            return self._include_synonyms
        self._include_synonyms = include_synonyms
        return self

    @overload
    def include_documentation(self) -> bool: ...

    @overload
    def include_documentation(self, include_documentation: bool) -> Self: ...

    def include_documentation(self, include_documentation: Any = UNSET) -> Any:
        """Whether each config's documentation is returned. With an argument, sets it and returns the options."""
        if include_documentation is UNSET:
            return self._include_documentation
        self._include_documentation = include_documentation
        return self
