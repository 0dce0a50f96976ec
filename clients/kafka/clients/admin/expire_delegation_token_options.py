"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ExpireDelegationTokenOptions.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["ExpireDelegationTokenOptions"]


class ExpireDelegationTokenOptions(AbstractOptions):
    """Options of expireDelegationToken: the token expires
    `expiry_time_period_ms` from now (-1: at once, and it is removed)."""

    def __init__(self, expiry_time_period_ms: int = -1, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._expiry_time_period_ms = expiry_time_period_ms

    def expiry_time_period_ms(self) -> int:
        return self._expiry_time_period_ms
