"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterClientQuotasOptions.java (Kafka 3.7).

Options of alterClientQuotas. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Self

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["AlterClientQuotasOptions"]


class AlterClientQuotasOptions(AbstractOptions):
    """Options of alterClientQuotas."""

    def __init__(self, validate_only: bool = False, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._validate_only = validate_only

    def validate_only(self, validate_only: bool) -> Self:
        """Sets: whether the broker only checks the alterations (changing nothing)."""
        self._validate_only = validate_only
        return self

    def should_validate_only(self) -> bool:
        """Whether the broker only checks the alterations (changing nothing)."""
        return self._validate_only
