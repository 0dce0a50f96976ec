"""Port of core/src/main/scala/kafka/admin/AdminUtils.scala (Kafka 2.8).

Replica assignment for new topics and partitions. The goals: replicas spread evenly over brokers; the other
replicas of the partitions led by one broker spread over the other brokers; and, when every broker has a rack,
each partition's replicas on as many racks as possible.

Without racks: the first replica of partition p goes to broker (p + start index) round-robin; the following ones
are placed at an increasing shift from it, the shift growing by one every time the partitions have gone once
round the brokers. With 5 brokers, 10 partitions, replication factor 3, start index and shift 0:

    partition: 0       1       2       3       4       5       6       7       8       9
    replicas:  0,1,2   1,2,3   2,3,4   3,4,0   4,0,1   0,2,3   1,3,4   2,4,0   3,0,1   4,1,2

With racks: the brokers are first listed alternating racks (racks sorted, brokers sorted within a rack: for
0:rack1 1:rack3 2:rack3 3:rack2 4:rack2 5:rack1 the list is 0,3,1,5,4,2), the first replica goes round-robin on
that list, and each following replica takes the next broker at the current shift that is on a rack without a
replica of the partition yet (while some rack has none) and that has none itself (while some broker has none).

Both start at a random broker and shift unless a fixed start index is given (tests).

# PORT: BrokerMetadata, RackAwareMode (kafka/admin/BrokerMetadata.scala, RackAwareMode.scala) and
# AdminOperationException (kafka/admin/AdminOperationException.scala) are defined here until they have their
# own modules. The Scala `object AdminUtils` becomes module functions.
"""

from __future__ import annotations

import random
from abc import ABC
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from kafka.common.errors import InvalidPartitionsException, InvalidReplicationFactorException

__all__ = [
    "ADMIN_CLIENT_ID",
    "AdminOperationException",
    "BrokerMetadata",
    "RackAwareMode",
    "assign_replicas_to_brokers",
    "get_inverse_map",
    "get_rack_alternated_broker_list",
    "rand",
]

rand = random.Random()
ADMIN_CLIENT_ID = "__admin_client"


class AdminOperationException(RuntimeError):
    """An admin operation cannot be done (kafka.admin.AdminOperationException)."""

    JAVA_CLASS_NAME = "kafka.admin.AdminOperationException"


@dataclass(frozen=True, slots=True)
class BrokerMetadata:
    """A broker id and its rack, if it has one (kafka.admin.BrokerMetadata)."""

    id: int
    rack: str | None


class RackAwareMode(ABC):
    """How topic creation treats racks (kafka.admin.RackAwareMode): `RackAwareMode.Disabled()` ignores them,
    `RackAwareMode.Enforced()` requires all brokers or none to have one, `RackAwareMode.Safe()` uses them only if
    every broker has one."""

    Disabled: ClassVar[type[RackAwareMode]]
    Enforced: ClassVar[type[RackAwareMode]]
    Safe: ClassVar[type[RackAwareMode]]


@dataclass(frozen=True, slots=True)
class _Disabled(RackAwareMode):
    pass


@dataclass(frozen=True, slots=True)
class _Enforced(RackAwareMode):
    pass


@dataclass(frozen=True, slots=True)
class _Safe(RackAwareMode):
    pass


RackAwareMode.Disabled = _Disabled
RackAwareMode.Enforced = _Enforced
RackAwareMode.Safe = _Safe


def assign_replicas_to_brokers(
    broker_metadatas: Sequence[BrokerMetadata],
    n_partitions: int,
    replication_factor: int,
    fixed_start_index: int = -1,
    start_partition_id: int = -1,
) -> dict[int, list[int]]:
    """Partition id -> replica broker ids for `n_partitions` partitions numbered from `start_partition_id` (0 if
    negative); see the module docstring.

    Raises InvalidPartitionsException / InvalidReplicationFactorException for counts below one or a replication
    factor above the broker count, AdminOperationException if only some brokers have a rack."""
    if n_partitions <= 0:
        raise InvalidPartitionsException("Number of partitions must be larger than 0.")
    if replication_factor <= 0:
        raise InvalidReplicationFactorException("Replication factor must be larger than 0.")
    if replication_factor > len(broker_metadatas):
        raise InvalidReplicationFactorException(
            f"Replication factor: {replication_factor} larger than available brokers: {len(broker_metadatas)}."
        )
    if all(b.rack is None for b in broker_metadatas):
        return _assign_replicas_to_brokers_rack_unaware(
            n_partitions, replication_factor, [b.id for b in broker_metadatas], fixed_start_index, start_partition_id
        )
    if any(b.rack is None for b in broker_metadatas):
        raise AdminOperationException("Not all brokers have rack information for replica rack aware assignment.")
    return _assign_replicas_to_brokers_rack_aware(
        n_partitions, replication_factor, broker_metadatas, fixed_start_index, start_partition_id
    )


def _assign_replicas_to_brokers_rack_unaware(
    n_partitions: int,
    replication_factor: int,
    broker_list: Sequence[int],
    fixed_start_index: int,
    start_partition_id: int,
) -> dict[int, list[int]]:
    ret: dict[int, list[int]] = {}
    broker_array = list(broker_list)
    n_brokers = len(broker_array)
    start_index = fixed_start_index if fixed_start_index >= 0 else rand.randrange(n_brokers)
    current_partition_id = max(0, start_partition_id)
    next_replica_shift = fixed_start_index if fixed_start_index >= 0 else rand.randrange(n_brokers)
    for _ in range(n_partitions):
        if current_partition_id > 0 and current_partition_id % n_brokers == 0:
            next_replica_shift += 1
        first_replica_index = (current_partition_id + start_index) % n_brokers
        replica_buffer = [broker_array[first_replica_index]]
        for j in range(replication_factor - 1):
            replica_buffer.append(broker_array[_replica_index(first_replica_index, next_replica_shift, j, n_brokers)])
        ret[current_partition_id] = replica_buffer
        current_partition_id += 1
    return ret


def _assign_replicas_to_brokers_rack_aware(
    n_partitions: int,
    replication_factor: int,
    broker_metadatas: Sequence[BrokerMetadata],
    fixed_start_index: int,
    start_partition_id: int,
) -> dict[int, list[int]]:
    broker_rack_map = {b.id: b.rack for b in broker_metadatas if b.rack is not None}
    num_racks = len(set(broker_rack_map.values()))
    arranged_broker_list = get_rack_alternated_broker_list(broker_rack_map)
    num_brokers = len(arranged_broker_list)
    ret: dict[int, list[int]] = {}
    start_index = fixed_start_index if fixed_start_index >= 0 else rand.randrange(num_brokers)
    current_partition_id = max(0, start_partition_id)
    next_replica_shift = fixed_start_index if fixed_start_index >= 0 else rand.randrange(num_brokers)
    for _ in range(n_partitions):
        if current_partition_id > 0 and current_partition_id % num_brokers == 0:
            next_replica_shift += 1
        first_replica_index = (current_partition_id + start_index) % num_brokers
        leader = arranged_broker_list[first_replica_index]
        replica_buffer = [leader]
        racks_with_replicas = {broker_rack_map[leader]}
        brokers_with_replicas = {leader}
        k = 0
        for _ in range(replication_factor - 1):
            done = False
            while not done:
                broker = arranged_broker_list[
                    _replica_index(first_replica_index, next_replica_shift * num_racks, k, num_brokers)
                ]
                rack = broker_rack_map[broker]
                # Take the broker unless its rack already has a replica while some rack has none, or it already
                # has a replica while some broker has none.
                if (rack not in racks_with_replicas or len(racks_with_replicas) == num_racks) and (
                    broker not in brokers_with_replicas or len(brokers_with_replicas) == num_brokers
                ):
                    replica_buffer.append(broker)
                    racks_with_replicas.add(rack)
                    brokers_with_replicas.add(broker)
                    done = True
                k += 1
        ret[current_partition_id] = replica_buffer
        current_partition_id += 1
    return ret


def get_rack_alternated_broker_list(broker_rack_map: Mapping[int, str]) -> list[int]:
    """The brokers taken one per rack in turn (racks in sorted order, brokers sorted within each rack): with racks
    rack1: 0,1,2 / rack2: 3,4,5 / rack3: 6,7,8 the list is 0,3,6,1,4,7,2,5,8."""
    brokers_iterator_by_rack = {rack: iter(brokers) for rack, brokers in get_inverse_map(broker_rack_map).items()}
    racks = sorted(brokers_iterator_by_rack)
    result: list[int] = []
    rack_index = 0
    while len(result) < len(broker_rack_map):
        broker = next(brokers_iterator_by_rack[racks[rack_index]], None)
        if broker is not None:
            result.append(broker)
        rack_index = (rack_index + 1) % len(racks)
    return result


def get_inverse_map(broker_rack_map: Mapping[int, str]) -> dict[str, list[int]]:
    """Rack -> its brokers, sorted."""
    inverse: dict[str, list[int]] = {}
    for broker_id, rack in broker_rack_map.items():
        inverse.setdefault(rack, []).append(broker_id)
    return {rack: sorted(ids) for rack, ids in inverse.items()}


def _replica_index(first_replica_index: int, second_replica_shift: int, replica_index: int, n_brokers: int) -> int:
    shift = 1 + (second_replica_shift + replica_index) % (n_brokers - 1)
    return (first_replica_index + shift) % n_brokers
