"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerPartitionAssignor.java (Kafka 3.7).

The plug-in the group leader runs to divide the subscribed partitions among the members (classic group
protocol). Each member sends a Subscription (its topics, optional user data, the partitions it owns, its
generation and rack); the leader's assignor returns an Assignment per member. An assignor supports the
EAGER protocol (everything revoked before each rebalance) and possibly COOPERATIVE (KIP-429: only what
moves is revoked, in a second rebalance).
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.common.cluster import Cluster
from kafka.common.errors import KafkaException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import load_class

__all__ = [
    "Assignment",
    "ConsumerPartitionAssignor",
    "GroupAssignment",
    "GroupSubscription",
    "RebalanceProtocol",
    "Subscription",
    "get_assignor_instances",
]

DEFAULT_GENERATION = -1


class RebalanceProtocol(enum.Enum):
    """Ordered by id: the higher, the more advanced (the common protocol with the highest id is used)."""

    EAGER = 0
    COOPERATIVE = 1

    @property
    def id(self) -> int:
        return int(self.value)

    @classmethod
    def for_id(cls, id: int) -> RebalanceProtocol:
        try:
            return cls(id)
        except ValueError:
            raise ValueError(f"Unknown rebalance protocol id: {id}") from None


class Subscription:
    """One member's subscription as the leader sees it (ConsumerProtocolSubscription).

    # PORT: ByteBuffer user data is `bytes | None`; Optional fields are `None` when absent (a negative
    generation id reads as absent, as in Java)."""

    __slots__ = ("topics", "user_data", "owned_partitions", "rack_id", "group_instance_id", "generation_id")

    def __init__(
        self,
        topics: Sequence[str],
        user_data: bytes | None = None,
        owned_partitions: Sequence[TopicPartition] = (),
        generation_id: int = DEFAULT_GENERATION,
        rack_id: str | None = None,
    ) -> None:
        self.topics: list[str] = list(topics)
        self.user_data = user_data
        self.owned_partitions: list[TopicPartition] = list(owned_partitions)
        self.group_instance_id: str | None = None
        self.generation_id: int | None = None if generation_id < 0 else generation_id
        self.rack_id = rack_id

    def __repr__(self) -> str:
        user_data = "" if self.user_data is None else f", userDataSize={len(self.user_data)}"
        generation = -1 if self.generation_id is None else self.generation_id
        return (
            f"Subscription(topics={_list(self.topics)}{user_data}, ownedPartitions={_list(self.owned_partitions)}, "
            f"groupInstanceId={_null(self.group_instance_id)}, generationId={generation}, "
            f"rackId={_null(self.rack_id)})"
        )


class Assignment:
    """The partitions (and optional user data) the leader gives one member."""

    __slots__ = ("partitions", "user_data")

    def __init__(self, partitions: Sequence[TopicPartition], user_data: bytes | None = None) -> None:
        self.partitions: list[TopicPartition] = list(partitions)
        self.user_data = user_data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Assignment):
            return NotImplemented
        return self.partitions == other.partitions and self.user_data == other.user_data

    def __repr__(self) -> str:
        user_data = "" if self.user_data is None else f", userDataSize={len(self.user_data)}"
        return f"Assignment(partitions={_list(self.partitions)}{user_data})"


class GroupSubscription:
    __slots__ = ("_subscriptions",)

    def __init__(self, subscriptions: Mapping[str, Subscription]) -> None:
        self._subscriptions = dict(subscriptions)

    def group_subscription(self) -> dict[str, Subscription]:
        return self._subscriptions

    def __repr__(self) -> str:
        return f"GroupSubscription(subscriptions={self._subscriptions})"


class GroupAssignment:
    __slots__ = ("_assignments",)

    def __init__(self, assignments: Mapping[str, Assignment]) -> None:
        self._assignments = dict(assignments)

    def group_assignment(self) -> dict[str, Assignment]:
        return self._assignments

    def __repr__(self) -> str:
        return f"GroupAssignment(assignments={self._assignments})"


class ConsumerPartitionAssignor(abc.ABC):
    """An assignment strategy, named in partition.assignment.strategy."""

    def subscription_user_data(self, topics: set[str]) -> bytes | None:
        """User data to send in this member's subscription (None by default)."""
        return None

    @abc.abstractmethod
    def assign(self, metadata: Cluster, group_subscription: GroupSubscription) -> GroupAssignment:
        """Divides the partitions of `metadata` among the members of `group_subscription`."""

    def on_assignment(self, assignment: Assignment, metadata: ConsumerGroupMetadata) -> None:  # noqa: B027 - optional hook
        """Called on every member when its assignment arrives."""

    def supported_protocols(self) -> list[RebalanceProtocol]:
        return [RebalanceProtocol.EAGER]

    def version(self) -> int:
        return 0

    @abc.abstractmethod
    def name(self) -> str:
        """The protocol name the group agrees on (e.g. "range")."""


def get_assignor_instances(
    assignor_classes: Iterable[Any] | None, configs: Mapping[str, Any]
) -> list[ConsumerPartitionAssignor]:
    """The assignors named (or given as classes) in partition.assignment.strategy, configured; two with the
    same name are an error."""
    assignors: list[ConsumerPartitionAssignor] = []
    assignor_name_map: dict[str, str] = {}
    if assignor_classes is None:
        return assignors
    for klass in assignor_classes:
        if isinstance(klass, str):
            try:
                klass = load_class(klass)
            except ImportError as e:
                raise KafkaException(f"{klass} ClassNotFoundException exception occurred") from e
        if isinstance(klass, type):
            assignor = klass()
            if hasattr(assignor, "configure"):
                assignor.configure(configs)
            if isinstance(assignor, ConsumerPartitionAssignor):
                assignor_name = assignor.name()
                class_name = f"{type(assignor).__module__}.{type(assignor).__qualname__}"
                if assignor_name in assignor_name_map:
                    raise KafkaException(
                        f"The assignor name: '{assignor_name}' is used in more than one assignor: "
                        f"{assignor_name_map[assignor_name]}, {class_name}"
                    )
                assignor_name_map[assignor_name] = class_name
                assignors.append(assignor)
            else:
                raise KafkaException(
                    f"{klass} is not an instance of kafka.clients.consumer.consumer_partition_assignor."
                    "ConsumerPartitionAssignor"
                )
        else:
            raise KafkaException(f"List contains element of type {type(klass).__name__}, expected String or Class")
    return assignors


def _null(value: object) -> str:
    return "null" if value is None else str(value)


def _list(items: Iterable[object]) -> str:
    return "[" + ", ".join(str(i) for i in items) + "]"
