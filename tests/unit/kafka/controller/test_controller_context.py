"""Tests of ControllerContext and ReplicaAssignment (Kafka's ControllerContextTest, in our own words)."""

from __future__ import annotations

import pytest

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.types import Uuid
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_context import ControllerContext, PartitionAndReplica, ReplicaAssignment
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.controller.partition_state_machine import (
    NewPartition,
    NonExistentPartition,
    OfflinePartition,
    OnlinePartition,
)
from kafka.controller.replica_state_machine import (
    NewReplica,
    NonExistentReplica,
    OfflineReplica,
    OnlineReplica,
    ReplicaDeletionIneligible,
    ReplicaDeletionStarted,
    ReplicaDeletionSuccessful,
)

TP0 = TopicPartition("t", 0)
TP1 = TopicPartition("t", 1)
OTHER = TopicPartition("u", 0)


def broker(broker_id: int) -> Broker:
    return Broker(
        broker_id,
        [EndPoint(f"host{broker_id}", 9092, ListenerName("PLAINTEXT"), SecurityProtocol.PLAINTEXT)],
        None,
    )


@pytest.fixture
def ctx() -> ControllerContext:
    c = ControllerContext()
    c.set_live_brokers({broker(1): 11, broker(2): 12, broker(3): 13})
    c.set_all_topics({"t", "u"})
    c.update_partition_full_replica_assignment(TP0, ReplicaAssignment([1, 2, 3]))
    c.update_partition_full_replica_assignment(TP1, ReplicaAssignment([2, 3, 4]))
    c.update_partition_full_replica_assignment(OTHER, ReplicaAssignment([3]))
    return c


def test_replica_assignment_reassignment_sets() -> None:
    """Reassigning [1,2,3] to [3,4,5] lists target replicas first, adds 4,5 and removes 1,2."""
    original = ReplicaAssignment([1, 2, 3])
    assert not original.is_being_reassigned
    moving = original.reassign_to([3, 4, 5])
    assert moving.replicas == (3, 4, 5, 1, 2)
    assert moving.adding_replicas == (4, 5)
    assert moving.removing_replicas == (1, 2)
    assert moving.origin_replicas == (3, 1, 2)
    assert moving.target_replicas == (3, 4, 5)
    assert moving.is_being_reassigned
    # A second reassignment starts from the original replicas again.
    again = moving.reassign_to([2, 6])
    assert again.replicas == (2, 6, 3, 1)
    assert again.adding_replicas == (6,)
    assert again.removing_replicas == (3, 1)
    assert moving.remove_replica(4) == ReplicaAssignment([3, 5, 1, 2], [5], [1, 2])
    assert str(moving) == "ReplicaAssignment(replicas=3,4,5,1,2, addingReplicas=4,5, removingReplicas=1,2)"
    assert ReplicaAssignment.EMPTY.replicas == ()


def test_live_brokers_epochs_and_shutting_down(ctx: ControllerContext) -> None:
    """Shutting-down brokers stay in the live-or-shutting-down set but leave the live set."""
    assert ctx.live_broker_ids == {1, 2, 3}
    assert ctx.live_broker_id_and_epochs == {1: 11, 2: 12, 3: 13}
    ctx.shutting_down_broker_ids.add(2)
    assert ctx.live_broker_ids == {1, 3}
    assert ctx.live_or_shutting_down_broker_ids == {1, 2, 3}
    assert not ctx.is_replica_online(2, TP0)
    assert ctx.is_replica_online(2, TP0, include_shutting_down_brokers=True)
    ctx.remove_live_brokers({2, 3})
    assert ctx.live_or_shutting_down_broker_ids == {1}
    assert {b.id for b in ctx.live_or_shutting_down_brokers} == {1}
    assert ctx.live_or_shutting_down_broker(1) == broker(1)
    assert ctx.live_or_shutting_down_broker(3) is None


def test_replicas_on_offline_dirs_are_not_online(ctx: ControllerContext) -> None:
    """A replica whose log dir failed is offline even though its broker is live."""
    ctx.replicas_on_offline_dirs[1] = {TP0}
    assert not ctx.is_replica_online(1, TP0)
    online, offline = ctx.online_and_offline_replicas()
    assert PartitionAndReplica(TP0, 1) in offline
    assert PartitionAndReplica(TP1, 4) in offline  # broker 4 is not live
    assert PartitionAndReplica(TP1, 2) in online
    assert len(online) + len(offline) == 7


def test_assignment_queries(ctx: ControllerContext) -> None:
    """Partitions and replicas are found per broker, per topic and per partition."""
    assert ctx.all_partitions == {TP0, TP1, OTHER}
    assert ctx.partitions_on_broker(4) == {TP1}
    assert ctx.partitions_on_broker(3) == {TP0, TP1, OTHER}
    assert ctx.replicas_on_brokers({1, 4}) == {PartitionAndReplica(TP0, 1), PartitionAndReplica(TP1, 4)}
    assert ctx.partitions_for_topic("t") == {TP0, TP1}
    assert len(ctx.replicas_for_topic("t")) == 6
    assert ctx.replicas_for_partition([OTHER]) == {PartitionAndReplica(OTHER, 3)}
    assert ctx.partition_replica_assignment(TopicPartition("missing", 0)) == ()
    assert ctx.partition_replica_assignment_for_topic("u") == {OTHER: (3,)}


def test_offline_partition_count_follows_partition_states(ctx: ControllerContext) -> None:
    """The offline count rises and falls with OfflinePartition, except for topics whose deletion started."""
    ctx.put_partition_state(TP0, NewPartition())
    ctx.put_partition_state(TP0, OfflinePartition())
    ctx.put_partition_state(TP1, OfflinePartition())
    assert ctx.offline_partition_count == 2
    ctx.put_partition_state(TP0, OnlinePartition())
    assert ctx.offline_partition_count == 1
    ctx.begin_topic_deletion({"t"})
    ctx.put_partition_state(TP1, NonExistentPartition())
    assert ctx.offline_partition_count == 1  # not counted for a topic being deleted
    ctx.put_partition_state_if_not_exists(OTHER, OfflinePartition())
    assert ctx.offline_partition_count == 2
    assert ctx.partitions_in_state(OnlinePartition()) == {TP0}
    assert ctx.partitions_in_states({OnlinePartition(), NonExistentPartition()}, "t") == {TP0, TP1}


def test_valid_partition_and_replica_transitions(ctx: ControllerContext) -> None:
    """Transitions are checked against each target state's valid previous states."""
    ctx.put_partition_state(TP0, NewPartition())
    ctx.put_partition_state(TP1, OnlinePartition())
    valid, invalid = ctx.check_valid_partition_state_change([TP0, TP1], NewPartition())
    assert (valid, invalid) == ([], [TP0, TP1])
    valid, invalid = ctx.check_valid_partition_state_change([TP0, TP1], OfflinePartition())
    assert (valid, invalid) == ([TP0, TP1], [])
    r = PartitionAndReplica(TP0, 1)
    ctx.put_replica_state(r, OfflineReplica())
    assert ctx.check_valid_replica_state_change([r], ReplicaDeletionStarted()) == ([r], [])
    assert ctx.check_valid_replica_state_change([r], NonExistentReplica()) == ([], [r])
    assert OnlineReplica().valid_previous_states == {
        NewReplica(),
        OnlineReplica(),
        OfflineReplica(),
        ReplicaDeletionIneligible(),
    }
    assert ReplicaDeletionSuccessful().valid_previous_states == {ReplicaDeletionStarted()}
    assert str(ReplicaDeletionSuccessful()) == "ReplicaDeletionSuccessful"


def test_topic_ids_are_consistent(ctx: ControllerContext) -> None:
    """A topic keeps one id and an id names one topic."""
    id_t = Uuid(1, 2)
    ctx.add_topic_id("t", id_t)
    ctx.add_topic_id("t", id_t)
    assert ctx.topic_name(id_t) == "t"
    with pytest.raises(RuntimeError):
        ctx.add_topic_id("t", Uuid(3, 4))
    with pytest.raises(RuntimeError):
        ctx.add_topic_id("u", id_t)
    with pytest.raises(RuntimeError):
        ctx.add_topic_id("nope", Uuid(5, 6))


def test_remove_topic_forgets_everything_about_it(ctx: ControllerContext) -> None:
    """Removing a topic drops its id, assignment, leadership and deletion state."""
    ctx.add_topic_id("t", Uuid(1, 2))
    ctx.put_partition_leadership_info(TP0, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(1, [1, 2]), 1))
    ctx.queue_topic_deletion({"t"})
    ctx.begin_topic_deletion({"t"})
    ctx.remove_topic("t")
    assert "t" not in ctx.all_topics
    assert ctx.topic_ids == {} and ctx.topic_names == {}
    assert ctx.partition_leadership_info(TP0) is None
    assert ctx.partitions_for_topic("t") == set()
    assert not ctx.is_topic_queued_up_for_deletion("t") and not ctx.is_topic_deletion_in_progress("t")


def test_preferred_replica_imbalance_count(ctx: ControllerContext) -> None:
    """Partitions not led by their first replica count as imbalanced, except while queued for deletion."""
    ctx.put_partition_leadership_info(TP0, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(2, [1, 2, 3]), 1))
    ctx.put_partition_leadership_info(TP1, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(2, [2, 3]), 1))
    assert ctx.preferred_replica_imbalance_count == 1
    ctx.put_partition_leadership_info(TP0, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(1, [1, 2, 3]), 1))
    assert ctx.preferred_replica_imbalance_count == 0
    ctx.put_partition_leadership_info(TP0, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(3, [1, 2, 3]), 1))
    assert ctx.preferred_replica_imbalance_count == 1
    ctx.queue_topic_deletion({"t"})
    assert ctx.preferred_replica_imbalance_count == 0
    ctx.remove_topic("t")
    assert ctx.preferred_replica_imbalance_count == 0
    # A partition moving to a new preferred replica is balanced until that replica is in the ISR.
    ctx.update_partition_full_replica_assignment(OTHER, ReplicaAssignment([3]).reassign_to([5, 3]))
    ctx.put_partition_leadership_info(OTHER, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(3, [3]), 1))
    assert ctx.preferred_replica_imbalance_count == 0
    ctx.put_partition_leadership_info(OTHER, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(3, [3, 5]), 1))
    assert ctx.preferred_replica_imbalance_count == 1


def test_partitions_with_offline_leader_and_leaders_on_broker(ctx: ControllerContext) -> None:
    """Leadership queries skip topics queued for deletion and single-replica partitions."""
    ctx.put_partition_leadership_info(TP0, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(1, [1]), 1))
    ctx.put_partition_leadership_info(TP1, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(4, [4]), 1))
    ctx.put_partition_leadership_info(OTHER, LeaderIsrAndControllerEpoch(LeaderAndIsr.create(3, [3]), 1))
    assert ctx.partitions_with_offline_leader == {TP1}
    assert ctx.partition_leaders_on_broker(3) == set()  # OTHER has one replica
    assert ctx.partition_leaders_on_broker(1) == {TP0}
    assert ctx.partitions_with_leaders == {TP0, TP1, OTHER}
    ctx.queue_topic_deletion({"t"})
    assert ctx.partitions_with_offline_leader == set()
    assert ctx.partitions_with_leaders == {OTHER}
    assert ctx.partition_with_leaders_count == 3


def test_reset_context_clears_state(ctx: ControllerContext) -> None:
    """reset_context forgets brokers, topics and epochs."""
    ctx.epoch = 4
    ctx.epoch_zk_version = 3
    ctx.put_partition_state(TP0, OfflinePartition())
    ctx.reset_context()
    assert ctx.epoch == 0 and ctx.epoch_zk_version == 0
    assert ctx.live_or_shutting_down_broker_ids == set()
    assert ctx.all_partitions == set() and ctx.all_topics == set()
    assert ctx.offline_partition_count == 0 and ctx.partition_states == {}
