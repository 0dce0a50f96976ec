"""Tests of the KIP-392 replica selector, after Kafka's ReplicaSelectorTest."""

from __future__ import annotations

from kafka.common.node import Node
from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.replica.partition_view import PartitionView
from kafka.common.replica.rack_aware_replica_selector import RackAwareReplicaSelector
from kafka.common.replica.replica_view import ReplicaView
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.topic_partition import TopicPartition

TP = TopicPartition("test", 0)
REPLICAS = [
    ReplicaView(Node(0, "host0", 1234, "rack-a"), 4, 0),
    ReplicaView(Node(1, "host1", 1234, "rack-a"), 2, 5),
    ReplicaView(Node(2, "host2", 1234, "rack-b"), 3, 3),
    ReplicaView(Node(3, "host3", 1234, "rack-b"), 4, 2),
]
LEADER = REPLICAS[0]
PARTITION = PartitionView(frozenset(REPLICAS), LEADER)


def metadata(rack: str) -> ClientMetadata:
    return ClientMetadata(rack, "test-client", "127.0.0.1", KafkaPrincipal.ANONYMOUS, "TEST")


def test_same_rack_picks_the_most_caught_up_replica_of_the_rack() -> None:
    selected = RackAwareReplicaSelector().select(TP, metadata("rack-b"), PARTITION)
    assert selected is not None and selected.endpoint.rack == "rack-b"
    assert selected.endpoint.id == 3  # the same log end offset as 2 would not do: 3 is further ahead


def test_unknown_rack_or_no_rack_gets_the_leader() -> None:
    selector = RackAwareReplicaSelector()
    assert selector.select(TP, metadata("not-a-rack"), PARTITION) == LEADER
    assert selector.select(TP, metadata(""), PARTITION) == LEADER


def test_the_leader_is_preferred_in_its_own_rack() -> None:
    assert RackAwareReplicaSelector().select(TP, metadata("rack-a"), PARTITION) == LEADER


def test_ties_go_to_the_shorter_time_since_caught_up_then_the_higher_id() -> None:
    a = ReplicaView(Node(5, "h", 1, "r"), 10, 7)
    b = ReplicaView(Node(6, "h", 1, "r"), 10, 3)
    c = ReplicaView(Node(7, "h", 1, "r"), 10, 3)
    leader = ReplicaView(Node(1, "h", 1, "other"), 10, 0)
    view = PartitionView(frozenset({a, b, c, leader}), leader)
    assert RackAwareReplicaSelector().select(TP, metadata("r"), view) == c
