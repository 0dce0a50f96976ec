"""Replica assignment as Kafka 2.8 computes it, proven on Kafka's own examples (AdminRackAwareTest)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from kafka.admin.admin_utils import (
    AdminOperationException,
    BrokerMetadata,
    assign_replicas_to_brokers,
    get_rack_alternated_broker_list,
)
from kafka.common.errors import InvalidPartitionsException, InvalidReplicationFactorException

RACKS_6 = {0: "rack1", 1: "rack2", 2: "rack2", 3: "rack3", 4: "rack3", 5: "rack1"}


def _brokers(rack_map: Mapping[int, str]) -> list[BrokerMetadata]:
    return sorted((BrokerMetadata(i, r) for i, r in rack_map.items()), key=lambda b: b.id)


def _check_distribution(
    assignment: Mapping[int, Sequence[int]],
    rack_map: Mapping[int, str],
    n_partitions: int,
    replication_factor: int,
    verify_leaders: bool = True,
    verify_replicas: bool = True,
) -> None:
    # Kafka's RackAwareTest.checkReplicaDistribution.
    assert all(len(set(replicas)) == len(replicas) for replicas in assignment.values())
    assert [len({rack_map[b] for b in replicas}) for replicas in assignment.values()] == [
        replication_factor
    ] * n_partitions
    n_brokers = len(rack_map)
    if verify_leaders:
        leaders = Counter(replicas[0] for replicas in assignment.values())
        assert sorted(leaders.values()) == [n_partitions // n_brokers] * n_brokers
    if verify_replicas:
        counts = Counter(b for replicas in assignment.values() for b in replicas)
        assert sorted(counts.values()) == [n_partitions * replication_factor // n_brokers] * n_brokers


def test_rack_unaware_assignment_equals_kafkas_example() -> None:
    """5 brokers, 10 partitions, replication factor 3, start index 0: Kafka's expected assignment."""
    brokers = [BrokerMetadata(i, None) for i in range(5)]
    assert assign_replicas_to_brokers(brokers, 10, 3, 0) == {
        0: [0, 1, 2],
        1: [1, 2, 3],
        2: [2, 3, 4],
        3: [3, 4, 0],
        4: [4, 0, 1],
        5: [0, 2, 3],
        6: [1, 3, 4],
        7: [2, 4, 0],
        8: [3, 0, 1],
        9: [4, 1, 2],
    }


def test_counts_are_checked() -> None:
    """A replication factor of 0 or above the broker count, no partitions, or racks on only some brokers raise."""
    brokers = [BrokerMetadata(i, None) for i in range(5)]
    with pytest.raises(InvalidReplicationFactorException, match="must be larger than 0"):
        assign_replicas_to_brokers(brokers, 10, 0)
    with pytest.raises(
        InvalidReplicationFactorException, match="Replication factor: 6 larger than available brokers: 5"
    ):
        assign_replicas_to_brokers(brokers, 10, 6)
    with pytest.raises(InvalidPartitionsException):
        assign_replicas_to_brokers(brokers, 0, 1)
    with pytest.raises(AdminOperationException, match="Not all brokers have rack information"):
        assign_replicas_to_brokers([BrokerMetadata(0, "r"), BrokerMetadata(1, None)], 1, 1)


def test_rack_alternated_list_and_rack_aware_assignment_equal_kafkas_example() -> None:
    """Brokers alternate racks; the rack-aware assignment of 7 partitions equals Kafka's, shift included."""
    rack_map = {0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}
    assert get_rack_alternated_broker_list(rack_map) == [0, 3, 1, 5, 4, 2]
    assert get_rack_alternated_broker_list({k: v for k, v in rack_map.items() if k != 5}) == [0, 3, 1, 4, 2]
    assert assign_replicas_to_brokers(_brokers(rack_map), 7, 3, 0, 0) == {
        0: [0, 3, 1],
        1: [3, 1, 5],
        2: [1, 5, 4],
        3: [5, 4, 2],
        4: [4, 2, 0],
        5: [2, 0, 3],
        6: [0, 4, 2],
    }


@pytest.mark.parametrize(
    ("n_partitions", "rf", "start", "first_partition", "check"),
    [
        (6, 3, 2, -1, (True, True)),
        (6, 3, -1, -1, (True, True)),
        (13, 3, 0, 0, (False, False)),
        (12, 2, -1, -1, (True, True)),
        (6, 2, -1, -1, (True, True)),
    ],
)
def test_rack_aware_distribution(
    n_partitions: int, rf: int, start: int, first_partition: int, check: tuple[bool, bool]
) -> None:
    """Each partition's replicas are on distinct racks; leaders and replicas spread evenly where Kafka checks it."""
    assignment = assign_replicas_to_brokers(_brokers(RACKS_6), n_partitions, rf, start, first_partition)
    _check_distribution(assignment, RACKS_6, n_partitions, rf, *check)


def test_rack_aware_expansion_and_uneven_racks() -> None:
    """New partitions numbered from 12 spread evenly; uneven racks still get one replica per rack."""
    racks = {6: "rack1", 7: "rack2", 8: "rack2", 9: "rack3", 10: "rack3", 11: "rack1"}
    assignment = assign_replicas_to_brokers(_brokers(racks), 12, 2, start_partition_id=12)
    assert sorted(assignment) == list(range(12, 24))
    _check_distribution(assignment, racks, 12, 2)
    uneven = {0: "rack1", 1: "rack1", 2: "rack2", 3: "rack3", 4: "rack3", 5: "rack1"}
    _check_distribution(assign_replicas_to_brokers(_brokers(uneven), 12, 3), uneven, 12, 3, verify_replicas=False)


def test_more_or_fewer_replicas_than_racks_and_single_rack() -> None:
    """With more replicas than racks every rack is used; with fewer, each rack at most once; one rack works too."""
    racks = {0: "rack1", 1: "rack2", 2: "rack2", 3: "rack3", 4: "rack3", 5: "rack2"}
    for replicas in assign_replicas_to_brokers(_brokers(racks), 6, 5).values():
        assert len(replicas) == 5 and len({racks[b] for b in replicas}) == 3
    for replicas in assign_replicas_to_brokers(_brokers(racks), 6, 2).values():
        assert len({racks[b] for b in replicas}) == 2
    single = dict.fromkeys(range(6), "rack1")
    assignment = assign_replicas_to_brokers(_brokers(single), 6, 3)
    assert Counter(r[0] for r in assignment.values()) == Counter(range(6))


def test_skip_broker_with_replica_already_assigned() -> None:
    """Replicas never repeat a broker, even when racks are uneven and the factor is high."""
    rack_info = {0: "a", 1: "b", 2: "c", 3: "a", 4: "a"}
    assignment = assign_replicas_to_brokers(_brokers(rack_info), 6, 4, fixed_start_index=2)
    assert all(len(set(r)) == 4 for r in assignment.values())
