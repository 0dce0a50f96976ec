"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreatePartitionsOptions.java (Kafka 3.7).

Options of createPartitions. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Any, Self, overload

from kafka.clients.admin.abstract_options import UNSET, AbstractOptions

__all__ = ["CreatePartitionsOptions"]


class CreatePartitionsOptions(AbstractOptions):
    """Options of createPartitions."""

    def __init__(
        self, validate_only: bool = False, retry_on_quota_violation: bool = True, timeout_ms: int | None = None
    ) -> None:
        super().__init__(timeout_ms)
        self._validate_only = validate_only
        self._retry_on_quota_violation = retry_on_quota_violation

    @overload
    def validate_only(self) -> bool: ...

    @overload
    def validate_only(self, validate_only: bool) -> Self: ...

    def validate_only(self, validate_only: Any = UNSET) -> Any:
        """Whether the broker only checks the request (creating nothing). With an argument, sets it and returns the
        options."""
        if validate_only is UNSET:
            return self._validate_only
        self._validate_only = validate_only
        return self

    def retry_on_quota_violation(self, retry_on_quota_violation: bool) -> Self:
        """Sets: whether topics refused for THROTTLING_QUOTA_EXCEEDED are retried after the throttle time."""
        self._retry_on_quota_violation = retry_on_quota_violation
        return self

    def should_retry_on_quota_violation(self) -> bool:
        """Whether topics refused for THROTTLING_QUOTA_EXCEEDED are retried after the throttle time."""
        return self._retry_on_quota_violation
