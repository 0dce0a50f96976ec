"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListTransactionsOptions.java (Kafka 3.7).

Options of listTransactions: the states and the producer ids to list (empty: all).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from kafka.clients.admin.abstract_options import AbstractOptions
from kafka.clients.admin.transaction_state import TransactionState

__all__ = ["ListTransactionsOptions"]


class ListTransactionsOptions(AbstractOptions):
    """Options of listTransactions."""

    def __init__(
        self,
        filtered_states: Iterable[TransactionState] = (),
        filtered_producer_ids: Iterable[int] = (),
        timeout_ms: int | None = None,
    ) -> None:
        super().__init__(timeout_ms)
        self._filtered_states: frozenset[TransactionState] = frozenset(filtered_states)
        self._filtered_producer_ids: frozenset[int] = frozenset(filtered_producer_ids)

    def filter_states(self, states: Iterable[TransactionState]) -> Self:
        """Lists only transactions in one of `states` (empty: every state)."""
        self._filtered_states = frozenset(states)
        return self

    def filter_producer_ids(self, producer_id_filters: Iterable[int]) -> Self:
        """Lists only transactions of these producer ids (empty: every producer)."""
        self._filtered_producer_ids = frozenset(producer_id_filters)
        return self

    def filtered_states(self) -> frozenset[TransactionState]:
        return self._filtered_states

    def filtered_producer_ids(self) -> frozenset[int]:
        return self._filtered_producer_ids

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ListTransactionsOptions)
            and self._filtered_states == other._filtered_states
            and self._filtered_producer_ids == other._filtered_producer_ids
        )

    def __hash__(self) -> int:
        return hash((self._filtered_states, self._filtered_producer_ids))
