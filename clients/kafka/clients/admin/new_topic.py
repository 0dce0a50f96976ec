"""Port of clients/src/main/java/org/apache/kafka/clients/admin/NewTopic.java (Kafka 3.7).

A topic for createTopics: a name with a partition count and replication factor (either may be left to the
broker's defaults, CreateTopics v4+), or with an explicit replica assignment; and optional topic configs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self, overload

from kafka.clients.admin.abstract_options import UNSET
from kafka.common.message import CreateTopicsRequestData
from kafka.common.requests.create_topics_request import NO_NUM_PARTITIONS, NO_REPLICATION_FACTOR

__all__ = ["NewTopic"]


class NewTopic:
    """A topic to create.

    # PORT: Java's three constructors are one: `NewTopic(name, num_partitions, replication_factor)` (None for
    the broker's default, Java's Optional.empty()) or `NewTopic(name, replicas_assignments={partition:
    [broker ids]})`. `configs(...)` sets the topic configs and returns the NewTopic; `configs()` reads them.
    """

    __slots__ = ("_name", "_num_partitions", "_replication_factor", "_replicas_assignments", "_configs")

    def __init__(
        self,
        name: str,
        num_partitions: int | None = None,
        replication_factor: int | None = None,
        replicas_assignments: Mapping[int, Sequence[int]] | None = None,
    ) -> None:
        if replicas_assignments is not None and (num_partitions is not None or replication_factor is not None):
            raise ValueError("A NewTopic takes either a partition count and replication factor or replica assignments")
        self._name = name
        self._num_partitions = num_partitions
        self._replication_factor = replication_factor
        self._replicas_assignments: dict[int, list[int]] | None = (
            None if replicas_assignments is None else {p: list(b) for p, b in replicas_assignments.items()}
        )
        self._configs: dict[str, str | None] | None = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def num_partitions(self) -> int:
        """The partition count, or -1 (CreateTopicsRequest.NO_NUM_PARTITIONS) for the broker's default."""
        return NO_NUM_PARTITIONS if self._num_partitions is None else self._num_partitions

    @property
    def replication_factor(self) -> int:
        """The replication factor, or -1 (CreateTopicsRequest.NO_REPLICATION_FACTOR) for the broker's default."""
        return NO_REPLICATION_FACTOR if self._replication_factor is None else self._replication_factor

    @property
    def replicas_assignments(self) -> dict[int, list[int]] | None:
        return None if self._replicas_assignments is None else dict(self._replicas_assignments)

    @overload
    def configs(self) -> dict[str, str | None] | None: ...

    @overload
    def configs(self, configs: Mapping[str, str | None] | None) -> Self: ...

    def configs(self, configs: Any = UNSET) -> Any:
        """The topic configs (None if not set); with an argument, sets them and returns this NewTopic."""
        if configs is UNSET:
            return None if self._configs is None else dict(self._configs)
        self._configs = None if configs is None else dict(configs)
        return self

    def convert_to_creatable_topic(self) -> Any:
        """The CreatableTopic of a CreateTopics request."""
        topic = CreateTopicsRequestData.CreatableTopic(
            name=self._name, num_partitions=self.num_partitions, replication_factor=self.replication_factor
        )
        if self._replicas_assignments is not None:
            for partition, broker_ids in self._replicas_assignments.items():
                topic.assignments.append(
                    CreateTopicsRequestData.CreatableReplicaAssignment(
                        partition_index=partition, broker_ids=list(broker_ids)
                    )
                )
        if self._configs is not None:
            for key, value in self._configs.items():
                topic.configs.append(CreateTopicsRequestData.CreateableTopicConfig(name=key, value=value))
        return topic

    def __str__(self) -> str:
        partitions = "default" if self._num_partitions is None else str(self._num_partitions)
        replication = "default" if self._replication_factor is None else str(self._replication_factor)
        return (
            f"(name={self._name}, numPartitions={partitions}, replicationFactor={replication}, "
            f"replicasAssignments={self._replicas_assignments}, configs={self._configs})"
        )

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NewTopic) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self._name, self._num_partitions, self._replication_factor))

    def _key(self) -> tuple[Any, ...]:
        return (self._name, self._num_partitions, self._replication_factor, self._replicas_assignments, self._configs)
