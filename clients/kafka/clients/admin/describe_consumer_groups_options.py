"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeConsumerGroupsOptions.java (Kafka 3.7).

Options of describeConsumerGroups. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Any, Self, overload

from kafka.clients.admin.abstract_options import UNSET, AbstractOptions

__all__ = ["DescribeConsumerGroupsOptions"]


class DescribeConsumerGroupsOptions(AbstractOptions):
    """Options of describeConsumerGroups."""

    def __init__(self, include_authorized_operations: bool = False, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._include_authorized_operations = include_authorized_operations

    @overload
    def include_authorized_operations(self) -> bool: ...

    @overload
    def include_authorized_operations(self, include_authorized_operations: bool) -> Self: ...

    def include_authorized_operations(self, include_authorized_operations: Any = UNSET) -> Any:
        """Whether the ACL operations the caller may perform on each group are asked for. With an argument, sets it and
        returns the options."""
        if include_authorized_operations is UNSET:
            return self._include_authorized_operations
        self._include_authorized_operations = include_authorized_operations
        return self
