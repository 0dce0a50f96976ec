"""Port of clients/src/main/java/org/apache/kafka/clients/admin/RenewDelegationTokenOptions.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["RenewDelegationTokenOptions"]


class RenewDelegationTokenOptions(AbstractOptions):
    """Options of renewDelegationToken: the new expiry is now plus
    `renew_time_period_ms` (-1: the broker's `delegation.token.expiry.time.ms`), at most the token's maximum
    timestamp."""

    def __init__(self, renew_time_period_ms: int = -1, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._renew_time_period_ms = renew_time_period_ms

    def renew_time_period_ms(self) -> int:
        return self._renew_time_period_ms
