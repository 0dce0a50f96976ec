"""Tests of ZkReplicaStateMachine with an in-memory ZooKeeper and a recording request batch (the cases of Kafka's
ReplicaStateMachineTest, in our own words)."""

from __future__ import annotations

import logging

import pytest

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_context import ControllerContext, PartitionAndReplica, ReplicaAssignment
from kafka.controller.replica_state_machine import (
    NewReplica,
    NonExistentReplica,
    OfflineReplica,
    OnlineReplica,
    ReplicaDeletionIneligible,
    ReplicaDeletionStarted,
    ReplicaDeletionSuccessful,
    ReplicaState,
    ZkReplicaStateMachine,
)
from kafka.controller.state_change_logger import StateChangeLogger
from tests.unit.kafka.controller.controller_fakes import FakeZkClient, RecordingRequestBatch, broker, kafka_config

TP = TopicPartition("t", 0)
EPOCH = 4
R0 = PartitionAndReplica(TP, 0)
R1 = PartitionAndReplica(TP, 1)


class Fixture:
    def __init__(self) -> None:
        self.config = kafka_config(0)
        self.ctx = ControllerContext()
        self.ctx.epoch = EPOCH
        self.ctx.set_live_brokers({broker(0): 100, broker(1): 101})
        self.ctx.set_all_topics({"t"})
        self.ctx.update_partition_full_replica_assignment(TP, ReplicaAssignment([0, 1]))
        self.zk = FakeZkClient()
        self.batch = RecordingRequestBatch(self.config, self.ctx)
        self.rsm = ZkReplicaStateMachine(
            self.config,
            StateChangeLogger(0, True, None),
            self.ctx,
            self.zk,  # type: ignore[arg-type]
            self.batch,
        )

    def leader_in_zk(self, leader: int, isr: list[int]) -> None:
        self.zk.put_state(TP, leader, isr, epoch=EPOCH)
        self.ctx.put_partition_leadership_info(TP, self.zk.state(TP))


@pytest.fixture
def f() -> Fixture:
    return Fixture()


ALL_STATES: list[ReplicaState] = [
    NewReplica(),
    OnlineReplica(),
    OfflineReplica(),
    ReplicaDeletionStarted(),
    ReplicaDeletionSuccessful(),
    ReplicaDeletionIneligible(),
]
VALID = {
    (None, NewReplica()),
    (NewReplica(), OnlineReplica()),
    (NewReplica(), OfflineReplica()),
    (OnlineReplica(), OnlineReplica()),
    (OnlineReplica(), OfflineReplica()),
    (OfflineReplica(), OnlineReplica()),
    (OfflineReplica(), OfflineReplica()),
    (OfflineReplica(), ReplicaDeletionStarted()),
    (OfflineReplica(), ReplicaDeletionIneligible()),
    (ReplicaDeletionStarted(), ReplicaDeletionSuccessful()),
    (ReplicaDeletionStarted(), ReplicaDeletionIneligible()),
    (ReplicaDeletionSuccessful(), NonExistentReplica()),
    (ReplicaDeletionIneligible(), OnlineReplica()),
    (ReplicaDeletionIneligible(), OfflineReplica()),
}
INVALID = [
    (start, target)
    for start in [None, *ALL_STATES]
    for target in [*ALL_STATES, NonExistentReplica()]
    if (start, target) not in VALID and not (start is None and target == NonExistentReplica())
]


@pytest.mark.parametrize(("start", "target"), INVALID, ids=lambda s: str(s))
def test_invalid_transitions_leave_the_state(
    f: Fixture, caplog: pytest.LogCaptureFixture, start: ReplicaState | None, target: ReplicaState
) -> None:
    """Every transition Kafka does not allow leaves the replica's state unchanged, sends nothing and logs."""
    caplog.set_level(logging.ERROR, logger="state.change.logger")
    if start is not None:
        f.ctx.put_replica_state(R0, start)
    f.rsm.handle_state_changes([R0], target)
    assert f.ctx.replica_state(R0) == (start or NonExistentReplica())
    assert f.batch.sent == []
    assert any("initiated state change of replica 0 for partition t-0" in m for m in caplog.messages)


def test_nonexistent_to_new_without_leader(f: Fixture) -> None:
    """A new replica of a partition without a leader only changes state."""
    f.rsm.handle_state_changes([R0], NewReplica())
    assert f.ctx.replica_state(R0) == NewReplica()
    assert f.batch.sent == []


def test_nonexistent_to_new_sends_leader_and_isr_as_follower(f: Fixture) -> None:
    """A new replica of a led partition learns the leader through LeaderAndIsr (isNew), and may not lead."""
    f.leader_in_zk(1, [1])
    f.rsm.handle_state_changes([R0], NewReplica())
    assert f.ctx.replica_state(R0) == NewReplica()
    state = f.batch.leader_and_isr_states(0)[TP]
    assert (state.leader, state.is_new) == (1, True)
    f.rsm.handle_state_changes([R1], NewReplica())  # the leader itself cannot become a new replica
    assert f.ctx.replica_state(R1) == NonExistentReplica()


def test_new_to_online_adds_a_missing_replica_to_the_assignment(f: Fixture) -> None:
    """A new replica that is not in the assignment is appended to it when it goes online."""
    r2 = PartitionAndReplica(TP, 2)
    f.ctx.put_replica_state(r2, NewReplica())
    f.rsm.handle_state_changes([r2], OnlineReplica())
    assert f.ctx.replica_state(r2) == OnlineReplica()
    assert f.ctx.partition_replica_assignment(TP) == (0, 1, 2)
    assert f.batch.sent == []


@pytest.mark.parametrize("start", [OnlineReplica(), OfflineReplica(), ReplicaDeletionIneligible()])
def test_to_online_sends_the_current_leader_and_isr(f: Fixture, start: ReplicaState) -> None:
    """Bringing a replica online sends it the partition's current leader and ISR (not as new)."""
    f.leader_in_zk(1, [1])
    f.ctx.put_replica_state(R0, start)
    f.rsm.handle_state_changes([R0], OnlineReplica())
    assert f.ctx.replica_state(R0) == OnlineReplica()
    state = f.batch.leader_and_isr_states(0)[TP]
    assert (state.leader, state.isr, state.is_new) == (1, [1], False)
    assert sorted(b for b, r in f.batch.sent if r.api_key is ApiKeys.UPDATE_METADATA) == [0, 1]


def test_online_to_offline_shrinks_the_isr(f: Fixture) -> None:
    """Taking the leader offline writes leader -1 and the ISR without it, stops the replica and tells the others."""
    f.leader_in_zk(0, [0, 1])
    f.ctx.put_replica_state(R0, OnlineReplica())
    f.rsm.handle_state_changes([R0], OfflineReplica())
    assert f.ctx.replica_state(R0) == OfflineReplica()
    lai = f.zk.state(TP).leader_and_isr
    assert (lai.leader, lai.isr, lai.leader_epoch) == (LeaderAndIsr.NO_LEADER, (1,), 1)
    info = f.ctx.partition_leadership_info(TP)
    assert info is not None and info.leader_and_isr.leader == -1
    stop = f.batch.stop_replica_states(0)[TP]
    assert (stop.delete_partition, stop.leader_epoch) == (False, 0)  # queued before the ISR shrink
    assert f.batch.leader_and_isr_states(1)[TP].isr == [1]
    assert TP not in f.batch.leader_and_isr_states(0)


def test_offline_keeps_the_last_isr_member(f: Fixture) -> None:
    """A replica that is the only ISR member stays in the ISR when it goes offline; the leader becomes -1."""
    f.leader_in_zk(0, [0])
    f.ctx.put_replica_state(R0, OnlineReplica())
    f.rsm.handle_state_changes([R0], OfflineReplica())
    lai = f.zk.state(TP).leader_and_isr
    assert (lai.leader, lai.isr) == (-1, (0,))


def test_offline_without_leadership_sends_update_metadata(f: Fixture) -> None:
    """A replica of a partition without a state znode goes offline with StopReplica and UpdateMetadata only."""
    f.ctx.put_replica_state(R0, NewReplica())
    f.rsm.handle_state_changes([R0], OfflineReplica())
    assert f.ctx.replica_state(R0) == OfflineReplica()
    assert TP in f.batch.stop_replica_states(0)
    assert f.batch.requests(ApiKeys.LEADER_AND_ISR) == []


def test_offline_retries_a_zk_version_conflict(f: Fixture) -> None:
    """An ISR shrink that loses a version race is re-read and written again."""
    f.leader_in_zk(1, [0, 1])
    f.zk.conflicts[TP] = 1
    f.ctx.put_replica_state(R0, OnlineReplica())
    f.rsm.handle_state_changes([R0], OfflineReplica())
    assert f.zk.state(TP).leader_and_isr.isr == (1,)
    assert f.ctx.replica_state(R0) == OfflineReplica()


def test_deletion_transitions(f: Fixture) -> None:
    """Offline -> ReplicaDeletionStarted sends StopReplica with delete; Successful -> NonExistent drops the
    replica from the assignment and the state machine."""
    f.leader_in_zk(1, [1])
    f.ctx.queue_topic_deletion({"t"})
    f.ctx.put_replica_state(R0, OfflineReplica())
    f.rsm.handle_state_changes([R0], ReplicaDeletionStarted())
    assert f.ctx.replica_state(R0) == ReplicaDeletionStarted()
    stop = f.batch.stop_replica_states(0)[TP]
    assert (stop.delete_partition, stop.leader_epoch) == (True, LeaderAndIsr.EPOCH_DURING_DELETE)
    f.rsm.handle_state_changes([R0], ReplicaDeletionSuccessful())
    assert f.ctx.replica_state(R0) == ReplicaDeletionSuccessful()
    f.rsm.handle_state_changes([R0], NonExistentReplica())
    assert R0 not in f.ctx.replica_states
    assert f.ctx.partition_replica_assignment(TP) == (1,)


def test_startup_marks_replicas_on_dead_brokers_ineligible_then_offline(f: Fixture) -> None:
    """At startup replicas on live brokers go online; the others start ReplicaDeletionIneligible and go offline."""
    f.leader_in_zk(0, [0, 1])
    f.ctx.remove_live_brokers({1})
    f.rsm.startup()
    assert f.ctx.replica_state(R0) == OnlineReplica()
    assert f.ctx.replica_state(R1) == OfflineReplica()
    assert f.zk.state(TP).leader_and_isr.isr == (0,)
