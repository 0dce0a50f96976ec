"""Helpers of the assignor tests (after Java's AbstractPartitionAssignorTest): partitions with replica racks,
subscriptions with consumer racks, and checks of an assignment's validity and balance."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

from kafka.clients.consumer.consumer_partition_assignor import Subscription
from kafka.clients.consumer.internals.abstract_partition_assignor import AbstractPartitionAssignor
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition

ALL_RACKS = ["a", "b", "c", "d", "e", "f"]


class RackConfig(enum.Enum):
    NO_BROKER_RACK = "NO_BROKER_RACK"
    NO_CONSUMER_RACK = "NO_CONSUMER_RACK"
    BROKER_AND_CONSUMER_RACK = "BROKER_AND_CONSUMER_RACK"


def tp(topic: str, partition: int) -> TopicPartition:
    return TopicPartition(topic, partition)


def racks(num_racks: int) -> list[str | None]:
    return [ALL_RACKS[i % len(ALL_RACKS)] for i in range(num_racks)]


def null_racks(num_racks: int) -> list[str | None]:
    return [None] * num_racks


def partition_infos_on_racks(
    topic: str, number_of_partitions: int, replication_factor: int, broker_racks: Sequence[str | None], next_index: int
) -> list[PartitionInfo]:
    nodes = [Node(i, "", i, rack) for i, rack in enumerate(broker_racks)]
    infos = []
    for i in range(number_of_partitions):
        replicas = [nodes[(i + j + next_index) % len(nodes)] for j in range(replication_factor)]
        infos.append(PartitionInfo(topic, i, replicas[0], replicas, replicas))
    return infos


def partition_infos(
    topic: str, number_of_partitions: int, replication_factor: int, num_broker_racks: int, next_index: int
) -> list[PartitionInfo]:
    num_brokers = replication_factor if num_broker_racks <= 0 else num_broker_racks * replication_factor
    broker_racks = [None if num_broker_racks <= 0 else ALL_RACKS[i % num_broker_racks] for i in range(num_brokers)]
    return partition_infos_on_racks(topic, number_of_partitions, replication_factor, broker_racks, next_index)


def _owned(spec: str) -> list[TopicPartition]:
    result = []
    for part in spec.split(", "):
        topic, _, p = part.rpartition("-")
        result.append(TopicPartition(topic, int(p)))
    return result


def verify_rack_assignment(
    assignor: AbstractPartitionAssignor,
    num_partitions_per_topic: Mapping[str, int],
    replication_factor: int,
    broker_racks: Sequence[str | None],
    consumer_racks: Sequence[str | None],
    consumer_topics: Sequence[Sequence[str]],
    expected_assignments: Sequence[str],
    num_partitions_with_rack_mismatch: int,
    consumer_owned_partitions: Sequence[str] | None = None,
) -> None:
    """Assigns and compares each consumer's sorted partitions with the expected string, and counts the
    partitions given to a consumer whose rack has no replica (-1: not counted)."""
    consumers = [f"consumer{i}" for i in range(len(consumer_racks))]
    subscriptions = {}
    for i, consumer in enumerate(consumers):
        owned = (
            _owned(consumer_owned_partitions[i])
            if consumer_owned_partitions is not None and len(consumer_owned_partitions) > i
            else []
        )
        subscriptions[consumer] = Subscription(list(consumer_topics[i]), None, owned, -1, consumer_racks[i])
    partitions_per_topic = {}
    next_index = 0
    for topic, count in num_partitions_per_topic.items():
        partitions_per_topic[topic] = partition_infos_on_racks(
            topic, count, replication_factor, broker_racks, next_index
        )
        next_index += count
    assignment = assignor.assign_partitions(partitions_per_topic, subscriptions)
    actual = {c: ", ".join(sorted(str(p) for p in tps)) for c, tps in assignment.items()}
    assert actual == dict(zip(consumers, expected_assignments, strict=True))
    if num_partitions_with_rack_mismatch >= 0:
        mismatched = []
        for i, consumer in enumerate(consumers):
            rack = consumer_racks[i]
            if rack is not None:
                for p in assignment[consumer]:
                    info = next(x for x in partitions_per_topic[p.topic] if x.partition == p.partition)
                    if not any(n.rack == rack for n in info.replicas):
                        mismatched.append(p)
        assert len(mismatched) == num_partitions_with_rack_mismatch, mismatched


def is_fully_balanced(assignment: Mapping[str, list[TopicPartition]]) -> bool:
    sizes = [len(v) for v in assignment.values()]
    return max(sizes) - min(sizes) <= 1


def verify_validity_and_balance(
    subscriptions: Mapping[str, Subscription],
    assignments: Mapping[str, list[TopicPartition]],
) -> None:
    """Each consumer gets only subscribed topics, no partition twice, and two consumers differ by more than one
    partition only when they share no topic (nothing could be moved between them)."""
    assert len(subscriptions) == len(assignments)
    consumers = sorted(assignments)
    for i, consumer in enumerate(consumers):
        partitions = assignments[consumer]
        for p in partitions:
            assert p.topic in subscriptions[consumer].topics, (consumer, p)
        for other in consumers[i + 1 :]:
            other_partitions = assignments[other]
            assert not set(partitions) & set(other_partitions), (consumer, other)
            if abs(len(partitions) - len(other_partitions)) <= 1:
                continue
            topics = {p.topic for p in partitions}
            other_topics = {p.topic for p in other_partitions}
            assert not topics & other_topics, f"partitions could move between {consumer} and {other}"
