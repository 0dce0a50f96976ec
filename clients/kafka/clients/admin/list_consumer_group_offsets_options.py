"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListConsumerGroupOffsetsOptions.java (Kafka 3.7).

Options of listConsumerGroupOffsets. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Any, Self, overload

from kafka.clients.admin.abstract_options import UNSET, AbstractOptions
from kafka.common.topic_partition import TopicPartition

__all__ = ["ListConsumerGroupOffsetsOptions"]


class ListConsumerGroupOffsetsOptions(AbstractOptions):
    """Options of listConsumerGroupOffsets."""

    def __init__(
        self,
        require_stable: bool = False,
        topic_partitions: list[TopicPartition] | None = None,
        timeout_ms: int | None = None,
    ) -> None:
        super().__init__(timeout_ms)
        self._require_stable = require_stable
        self._topic_partitions = topic_partitions

    @overload
    def require_stable(self) -> bool: ...

    @overload
    def require_stable(self, require_stable: bool) -> Self: ...

    def require_stable(self, require_stable: Any = UNSET) -> Any:
        """Whether the coordinator waits for pending transactional offset commits before answering (OffsetFetch
        require_stable, v7+). With an argument, sets it and returns the options."""
        if require_stable is UNSET:
            return self._require_stable
        self._require_stable = require_stable
        return self

    @overload
    def topic_partitions(self) -> list[TopicPartition] | None: ...

    @overload
    def topic_partitions(self, topic_partitions: list[TopicPartition] | None) -> Self: ...

    def topic_partitions(self, topic_partitions: Any = UNSET) -> Any:
        """Deprecated in Java: the partitions of the single-group form; None for all the group's partitions. With an
        argument, sets it and returns the options."""
        if topic_partitions is UNSET:
            return self._topic_partitions
        self._topic_partitions = topic_partitions
        return self
