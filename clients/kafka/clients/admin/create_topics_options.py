"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreateTopicsOptions.java (Kafka 3.7).

Options of createTopics. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Self

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["CreateTopicsOptions"]


class CreateTopicsOptions(AbstractOptions):
    """Options of createTopics."""

    def __init__(
        self, validate_only: bool = False, retry_on_quota_violation: bool = True, timeout_ms: int | None = None
    ) -> None:
        super().__init__(timeout_ms)
        self._validate_only = validate_only
        self._retry_on_quota_violation = retry_on_quota_violation

    def validate_only(self, validate_only: bool) -> Self:
        """Sets: whether the broker only checks the request (creating nothing)."""
        self._validate_only = validate_only
        return self

    def should_validate_only(self) -> bool:
        """Whether the broker only checks the request (creating nothing)."""
        return self._validate_only

    def retry_on_quota_violation(self, retry_on_quota_violation: bool) -> Self:
        """Sets: whether topics refused for THROTTLING_QUOTA_EXCEEDED are retried after the throttle time."""
        self._retry_on_quota_violation = retry_on_quota_violation
        return self

    def should_retry_on_quota_violation(self) -> bool:
        """Whether topics refused for THROTTLING_QUOTA_EXCEEDED are retried after the throttle time."""
        return self._retry_on_quota_violation
