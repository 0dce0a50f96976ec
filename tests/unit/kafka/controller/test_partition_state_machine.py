"""Tests of ZkPartitionStateMachine with an in-memory ZooKeeper and a recording request batch (the cases of
Kafka's PartitionStateMachineTest, in our own words)."""

from __future__ import annotations

import logging

import pytest

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_context import ControllerContext, ReplicaAssignment
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.controller.partition_state_machine import (
    ControlledShutdownPartitionLeaderElectionStrategy,
    NewPartition,
    NonExistentPartition,
    OfflinePartition,
    OfflinePartitionLeaderElectionStrategy,
    OnlinePartition,
    PartitionState,
    PreferredReplicaPartitionLeaderElectionStrategy,
    StateChangeFailedException,
    ZkPartitionStateMachine,
)
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.zookeeper.zookeeper_types import KeeperException
from tests.unit.kafka.controller.controller_fakes import FakeZkClient, RecordingRequestBatch, broker, kafka_config

TP = TopicPartition("t", 0)
EPOCH = 5


class Fixture:
    def __init__(self) -> None:
        self.config = kafka_config(0)
        self.ctx = ControllerContext()
        self.ctx.epoch = EPOCH
        self.ctx.epoch_zk_version = 3
        self.ctx.set_live_brokers({broker(0): 100, broker(1): 101, broker(2): 102})
        self.ctx.set_all_topics({"t"})
        self.ctx.update_partition_full_replica_assignment(TP, ReplicaAssignment([0, 1, 2]))
        self.zk = FakeZkClient()
        self.batch = RecordingRequestBatch(self.config, self.ctx)
        self.psm = ZkPartitionStateMachine(
            self.config,
            StateChangeLogger(0, True, None),
            self.ctx,
            self.zk,  # type: ignore[arg-type]
            self.batch,
        )

    def put(self, state: PartitionState) -> None:
        self.ctx.put_partition_state(TP, state)

    def state(self) -> PartitionState:
        return self.ctx.partition_state(TP)

    def leader_in_zk(self, leader: int, isr: list[int]) -> None:
        self.zk.put_state(TP, leader, isr, epoch=EPOCH)
        self.ctx.put_partition_leadership_info(TP, self.zk.state(TP))


@pytest.fixture
def f() -> Fixture:
    return Fixture()


def test_nonexistent_to_new(f: Fixture, caplog: pytest.LogCaptureFixture) -> None:
    """NonExistentPartition moves to NewPartition, logged on state.change.logger."""
    caplog.set_level(logging.INFO, logger="state.change.logger")
    f.psm.handle_state_changes([TP], NewPartition())
    assert f.state() == NewPartition()
    assert (
        "[Controller id=0 epoch=5] Changed partition t-0 state from NonExistentPartition to NewPartition with "
        "assigned replicas 0,1,2"
    ) in caplog.messages


@pytest.mark.parametrize(
    ("start", "target"),
    [
        (None, OnlinePartition()),
        (None, OfflinePartition()),
        (NewPartition(), NonExistentPartition()),
        (OnlinePartition(), NonExistentPartition()),
        (OnlinePartition(), NewPartition()),
        (OfflinePartition(), NewPartition()),
    ],
)
def test_invalid_transitions_leave_the_state(
    f: Fixture, caplog: pytest.LogCaptureFixture, start: PartitionState | None, target: PartitionState
) -> None:
    """A transition from a state not allowed for the target leaves the partition where it was and logs an error."""
    caplog.set_level(logging.ERROR, logger="state.change.logger")
    if start is not None:
        f.put(start)
    f.psm.handle_state_changes([TP], target, OfflinePartitionLeaderElectionStrategy(False))
    assert f.state() == (start or NonExistentPartition())
    assert any(
        f"failed to change state for partition t-0 from {start or NonExistentPartition()}" in m for m in caplog.messages
    )
    assert f.batch.sent == []


def test_new_to_online_creates_the_state_znode_and_tells_brokers(f: Fixture) -> None:
    """A new partition gets its first live replica as leader and the live replicas as ISR, written to ZooKeeper,
    with LeaderAndIsr (isNew) to the ISR and UpdateMetadata to every live broker."""
    f.ctx.remove_live_brokers({0})
    f.put(NewPartition())
    f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    assert f.state() == OnlinePartition()
    state = f.zk.state(TP)
    assert (state.leader_and_isr.leader, state.leader_and_isr.isr, state.controller_epoch) == (1, (1, 2), EPOCH)
    assert f.ctx.partition_leadership_info(TP) == LeaderIsrAndControllerEpoch(state.leader_and_isr, EPOCH)
    for broker_id in (1, 2):
        lai = f.batch.leader_and_isr_states(broker_id)[TP]
        assert (lai.leader, lai.isr, lai.replicas, lai.is_new) == (1, [1, 2], [0, 1, 2], True)
        assert lai.controller_epoch == EPOCH and lai.partition_epoch == 0
    assert f.batch.leader_and_isr_states(0) == {}
    assert sorted(b for b, r in f.batch.sent if r.api_key is ApiKeys.UPDATE_METADATA) == [1, 2]
    um = f.batch.requests(ApiKeys.UPDATE_METADATA, 1)[0]
    (ps,) = list(um.partition_states())
    assert (ps.leader, ps.isr, ps.offline_replicas) == (1, [1, 2], [0])
    assert um.version == 7 and f.batch.requests(ApiKeys.LEADER_AND_ISR)[0].version == 5


def test_new_to_online_without_live_replicas_stays_new(f: Fixture, caplog: pytest.LogCaptureFixture) -> None:
    """With no assigned replica alive nothing is written and the partition stays NewPartition."""
    caplog.set_level(logging.ERROR, logger="state.change.logger")
    f.ctx.remove_live_brokers({0, 1, 2})
    f.put(NewPartition())
    f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    assert f.state() == NewPartition()
    assert TP not in f.zk.states
    errors = [r.exc_info[1] for r in caplog.records if r.exc_info]
    assert any(isinstance(e, StateChangeFailedException) and "No assigned replica is alive." in str(e) for e in errors)


def test_new_to_online_when_the_znode_already_exists_stays_new(f: Fixture) -> None:
    """If the state znode exists already (NODEEXISTS), the partition stays NewPartition and nothing is sent."""
    f.zk.put_state(TP, 2, [2])
    f.put(NewPartition())
    f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    assert f.state() == NewPartition()
    assert f.zk.state(TP).leader_and_isr.leader == 2
    assert f.batch.requests(ApiKeys.LEADER_AND_ISR) == []


def test_new_or_online_to_offline_and_offline_to_nonexistent(f: Fixture) -> None:
    """Offline and NonExistent transitions only record the state and count offline partitions."""
    f.put(NewPartition())
    f.psm.handle_state_changes([TP], OfflinePartition())
    assert f.state() == OfflinePartition() and f.ctx.offline_partition_count == 1
    f.psm.handle_state_changes([TP], NonExistentPartition())
    assert f.state() == NonExistentPartition() and f.ctx.offline_partition_count == 0
    assert f.batch.sent == []


def test_offline_to_online_elects_a_live_in_sync_replica(f: Fixture) -> None:
    """An offline partition gets the first live ISR member as leader, with a bumped leader epoch and the ISR
    shrunk to live members, sent to the live replicas."""
    f.leader_in_zk(0, [0, 1, 2])
    f.ctx.remove_live_brokers({0})
    f.put(OfflinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    new = results[TP]
    assert (new.leader, new.leader_epoch, new.isr, new.zk_version) == (1, 1, (1, 2), 1)
    assert f.state() == OnlinePartition()
    assert f.zk.state(TP).leader_and_isr.leader == 1
    assert sorted(b for b, r in f.batch.sent if r.api_key is ApiKeys.LEADER_AND_ISR) == [1, 2]
    assert f.batch.leader_and_isr_states(1)[TP].is_new is False


def test_election_retries_after_a_zk_version_conflict(f: Fixture) -> None:
    """A state znode changed by someone else between read and write is read again and the election retried."""
    f.leader_in_zk(0, [0, 1])
    f.ctx.remove_live_brokers({0})
    f.zk.conflicts[TP] = 1
    f.put(OfflinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    assert results[TP].leader == 1
    assert results[TP].zk_version == 2  # one version taken by the competing write
    assert f.state() == OnlinePartition()


def test_offline_without_live_isr_needs_unclean_election(f: Fixture) -> None:
    """With no live ISR member the election fails, unless unclean election is allowed, which picks a live
    replica and makes it the whole ISR."""
    f.leader_in_zk(0, [0])
    f.ctx.remove_live_brokers({0})
    f.put(OfflinePartition())
    # The meter is the broker-wide UncleanLeaderElectionsPerSec (one registry per process, as Kafka's).
    unclean_before = f.ctx.stats.unclean_leader_election_rate.count
    results = f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    assert isinstance(results[TP], StateChangeFailedException)
    assert f.state() == OfflinePartition()
    results = f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(True))
    assert (results[TP].leader, results[TP].isr) == (1, (1,))
    assert f.state() == OnlinePartition()
    assert f.ctx.stats.unclean_leader_election_rate.count == unclean_before + 1


def test_unclean_election_enabled_by_topic_config(f: Fixture) -> None:
    """The topic's unclean.leader.election.enable allows unclean election without the strategy flag."""
    f.leader_in_zk(0, [0])
    f.ctx.remove_live_brokers({0})
    f.zk.unclean_topics.add("t")
    f.put(OfflinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    assert results[TP].leader == 1


def test_failed_state_read_fails_the_election(f: Fixture) -> None:
    """A ZooKeeper error reading the state fails that partition's election with the error."""
    f.leader_in_zk(0, [0, 1])
    f.zk.failing_reads.add(TP)
    f.put(OfflinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False))
    assert isinstance(results[TP], KeeperException)
    assert f.state() == OfflinePartition()


def test_a_newer_controller_epoch_in_zk_aborts_the_election(f: Fixture) -> None:
    """A state written by a newer controller is not overwritten."""
    f.zk.put_state(TP, 0, [0, 1], epoch=EPOCH + 1)
    f.put(OnlinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition(), PreferredReplicaPartitionLeaderElectionStrategy())
    assert isinstance(results[TP], StateChangeFailedException)
    assert "already written by another controller" in str(results[TP])


def test_online_to_online_preferred_replica_election(f: Fixture) -> None:
    """A preferred-replica election moves leadership to the first assigned replica when it is in the ISR."""
    f.leader_in_zk(1, [0, 1, 2])
    f.put(OnlinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition(), PreferredReplicaPartitionLeaderElectionStrategy())
    assert (results[TP].leader, results[TP].isr) == (0, (0, 1, 2))
    assert sorted(b for b, r in f.batch.sent if r.api_key is ApiKeys.LEADER_AND_ISR) == [0, 1, 2]


def test_online_to_online_for_controlled_shutdown(f: Fixture) -> None:
    """A controlled-shutdown election moves leadership off the shutting-down broker and removes it from the ISR."""
    f.leader_in_zk(0, [0, 1, 2])
    f.ctx.shutting_down_broker_ids.add(0)
    f.put(OnlinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition(), ControlledShutdownPartitionLeaderElectionStrategy())
    assert (results[TP].leader, results[TP].isr) == (1, (1, 2))
    # The shutting-down broker still hears about it.
    assert sorted(b for b, r in f.batch.sent if r.api_key is ApiKeys.LEADER_AND_ISR) == [0, 1, 2]


def test_online_requires_an_election_strategy(f: Fixture) -> None:
    """Electing leaders without a strategy fails the partitions instead of guessing."""
    f.leader_in_zk(0, [0])
    f.put(OfflinePartition())
    results = f.psm.handle_state_changes([TP], OnlinePartition())
    assert isinstance(results[TP], ValueError)


def test_startup_sets_initial_states_and_elects(f: Fixture) -> None:
    """At startup a partition without state is new and is brought online; one whose leader is alive is online."""
    other = TopicPartition("t", 1)
    f.ctx.update_partition_full_replica_assignment(other, ReplicaAssignment([2, 1]))
    f.zk.put_state(other, 2, [2, 1], epoch=EPOCH)
    f.ctx.put_partition_leadership_info(other, f.zk.state(other))
    f.psm.startup()
    assert f.ctx.partition_state(TP) == OnlinePartition()
    assert f.ctx.partition_state(other) == OnlinePartition()
    assert f.zk.state(TP).leader_and_isr.leader == 0
    assert f.zk.state(other).leader_and_isr.leader_epoch == 0  # not re-elected


def test_offline_partitions_of_topics_queued_for_deletion_are_not_triggered(f: Fixture) -> None:
    """trigger_online_partition_state_change leaves partitions of topics queued for deletion alone."""
    f.leader_in_zk(0, [0, 1])
    f.put(OfflinePartition())
    f.ctx.queue_topic_deletion({"t"})
    f.psm.trigger_online_partition_state_change()
    assert f.state() == OfflinePartition()
    assert f.batch.sent == []
