"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreateDelegationTokenOptions.java (Kafka 3.7)."""

from __future__ import annotations

from collections.abc import Sequence

from kafka.clients.admin.abstract_options import AbstractOptions
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["CreateDelegationTokenOptions"]


class CreateDelegationTokenOptions(AbstractOptions):
    """Options of createDelegationToken: the renewers, the maximum lifetime (-1: the broker's
    `delegation.token.max.lifetime.ms`) and the owner (KIP-373; None: the caller)."""

    def __init__(
        self,
        renewers: Sequence[KafkaPrincipal] = (),
        max_life_time_ms: int = -1,
        owner: KafkaPrincipal | None = None,
        timeout_ms: int | None = None,
    ) -> None:
        super().__init__(timeout_ms)
        self._renewers = list(renewers)
        self._max_life_time_ms = max_life_time_ms
        self._owner = owner

    def renewers(self) -> list[KafkaPrincipal]:
        return list(self._renewers)

    def owner(self) -> KafkaPrincipal | None:
        return self._owner

    def max_life_time_ms(self) -> int:
        return self._max_life_time_ms
