"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListConsumerGroupsOptions.java (Kafka 3.7).

Options of listConsumerGroups: the group states to list (none: every state).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from kafka.clients.admin.abstract_options import AbstractOptions
from kafka.common.consumer_group_state import ConsumerGroupState

__all__ = ["ListConsumerGroupsOptions"]


class ListConsumerGroupsOptions(AbstractOptions):
    """Options of listConsumerGroups."""

    def __init__(self, states: Iterable[ConsumerGroupState] | None = None, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._states: frozenset[ConsumerGroupState] = frozenset(states or ())

    def in_states(self, states: Iterable[ConsumerGroupState] | None) -> Self:
        """Lists only groups in one of `states` (the broker filters, ListGroups v4+); None or empty: all."""
        self._states = frozenset(states or ())
        return self

    def states(self) -> frozenset[ConsumerGroupState]:
        """The states asked for; empty means all."""
        return self._states
