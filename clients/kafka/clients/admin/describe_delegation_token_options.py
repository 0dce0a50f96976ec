"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeDelegationTokenOptions.java (Kafka 3.7)."""

from __future__ import annotations

from collections.abc import Sequence

from kafka.clients.admin.abstract_options import AbstractOptions
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["DescribeDelegationTokenOptions"]


class DescribeDelegationTokenOptions(AbstractOptions):
    """Options of describeDelegationToken: the owners whose tokens to describe (None: every token the caller may
    see)."""

    def __init__(self, owners: Sequence[KafkaPrincipal] | None = None, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._owners = None if owners is None else list(owners)

    def owners(self) -> list[KafkaPrincipal] | None:
        return None if self._owners is None else list(self._owners)
