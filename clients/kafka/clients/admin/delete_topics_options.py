"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeleteTopicsOptions.java (Kafka 3.7).

Options of deleteTopics. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Self

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["DeleteTopicsOptions"]


class DeleteTopicsOptions(AbstractOptions):
    """Options of deleteTopics."""

    def __init__(self, retry_on_quota_violation: bool = True, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._retry_on_quota_violation = retry_on_quota_violation

    def retry_on_quota_violation(self, retry_on_quota_violation: bool) -> Self:
        """Sets: whether topics refused for THROTTLING_QUOTA_EXCEEDED are retried after the throttle time."""
        self._retry_on_quota_violation = retry_on_quota_violation
        return self

    def should_retry_on_quota_violation(self) -> bool:
        """Whether topics refused for THROTTLING_QUOTA_EXCEEDED are retried after the throttle time."""
        return self._retry_on_quota_violation
