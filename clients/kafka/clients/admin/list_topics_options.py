"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListTopicsOptions.java (Kafka 3.7).

Options of listTopics. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Self

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["ListTopicsOptions"]


class ListTopicsOptions(AbstractOptions):
    """Options of listTopics."""

    def __init__(self, list_internal: bool = False, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._list_internal = list_internal

    def list_internal(self, list_internal: bool) -> Self:
        """Sets: whether internal topics (__consumer_offsets, ...) are listed too."""
        self._list_internal = list_internal
        return self

    def should_list_internal(self) -> bool:
        """Whether internal topics (__consumer_offsets, ...) are listed too."""
        return self._list_internal
