"""Tests of TopicDeletionManager with the real state machines over an in-memory ZooKeeper (the cases of Kafka's
TopicDeletionManagerTest, in our own words)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_context import ControllerContext, PartitionAndReplica, ReplicaAssignment
from kafka.controller.partition_state_machine import NonExistentPartition, OnlinePartition, ZkPartitionStateMachine
from kafka.controller.replica_state_machine import (
    OfflineReplica,
    OnlineReplica,
    ReplicaDeletionIneligible,
    ReplicaDeletionStarted,
    ZkReplicaStateMachine,
)
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.controller.topic_deletion_manager import DeletionClient, TopicDeletionManager
from kafka.server.kafka_config import KafkaConfig
from tests.unit.kafka.controller.controller_fakes import FakeZkClient, RecordingRequestBatch, broker, kafka_config

T0 = TopicPartition("t", 0)
T1 = TopicPartition("t", 1)
U0 = TopicPartition("u", 0)


class RecordingDeletionClient(DeletionClient):
    def __init__(self) -> None:
        self.deleted_topics: list[str] = []
        self.deleted_topic_deletions: list[list[str]] = []
        self.muted: list[str] = []
        self.metadata_updates: list[set[TopicPartition]] = []

    def delete_topic(self, topic: str, epoch_zk_version: int) -> None:
        self.deleted_topics.append(topic)

    def delete_topic_deletions(self, topics: Sequence[str], epoch_zk_version: int) -> None:
        self.deleted_topic_deletions.append(list(topics))

    def mute_partition_modifications(self, topic: str) -> None:
        self.muted.append(topic)

    def send_metadata_update(self, partitions: Iterable[TopicPartition]) -> None:
        self.metadata_updates.append(set(partitions))


class Fixture:
    def __init__(self, config: KafkaConfig) -> None:
        self.ctx = ControllerContext()
        self.ctx.epoch = 1
        self.ctx.set_live_brokers({broker(0): 1, broker(1): 2})
        self.ctx.set_all_topics({"t", "u"})
        self.zk = FakeZkClient()
        for tp, replicas in ((T0, [0, 1]), (T1, [1, 0]), (U0, [0])):
            self.ctx.update_partition_full_replica_assignment(tp, ReplicaAssignment(replicas))
            self.zk.put_state(tp, replicas[0], replicas)
            self.ctx.put_partition_leadership_info(tp, self.zk.state(tp))
            self.ctx.put_partition_state(tp, OnlinePartition())
            for r in replicas:
                self.ctx.put_replica_state(PartitionAndReplica(tp, r), OnlineReplica())
        logger = StateChangeLogger(0, True, None)
        self.batch = RecordingRequestBatch(config, self.ctx)
        self.rsm = ZkReplicaStateMachine(config, logger, self.ctx, self.zk, self.batch)  # type: ignore[arg-type]
        self.psm = ZkPartitionStateMachine(config, logger, self.ctx, self.zk, self.batch)  # type: ignore[arg-type]
        self.client = RecordingDeletionClient()
        self.manager = TopicDeletionManager(config, self.ctx, self.rsm, self.psm, self.client)


def test_deletion_stops_and_deletes_every_replica_then_removes_the_topic() -> None:
    """A queued topic's partitions go away, its replicas get StopReplica with delete, and once every replica
    reports success the topic's znodes are deleted and it leaves the context."""
    f = Fixture(kafka_config(0))
    f.manager.init(set(), set())
    f.manager.enqueue_topics_for_deletion({"t"})
    assert f.ctx.partition_state(T0) == NonExistentPartition()
    assert f.client.metadata_updates == [{T0, T1}]
    replicas = f.ctx.replicas_for_topic("t")
    assert {f.ctx.replica_state(r) for r in replicas} == {ReplicaDeletionStarted()}
    for broker_id in (0, 1):
        states = f.batch.stop_replica_states(broker_id)
        assert {tp for tp, s in states.items() if s.delete_partition} == {T0, T1}
    assert f.ctx.is_topic_deletion_in_progress("t")

    f.manager.complete_replica_deletion({r for r in replicas if r.replica == 0})
    assert f.client.deleted_topics == []
    f.manager.complete_replica_deletion({r for r in replicas if r.replica == 1})
    assert f.client.deleted_topics == ["t"]
    assert f.client.muted == ["t"]
    assert "t" not in f.ctx.all_topics
    assert f.ctx.replicas_for_topic("t") == set()
    assert f.ctx.partition_replica_assignment(U0) == (0,)


def test_a_failed_replica_makes_the_topic_ineligible_until_resumed() -> None:
    """A replica deletion error marks the topic ineligible (its replicas back to OfflineReplica, ready for a
    retry); resuming the topic starts the deletion again."""
    f = Fixture(kafka_config(0))
    f.manager.enqueue_topics_for_deletion({"u"})
    r = PartitionAndReplica(U0, 0)
    assert f.ctx.replica_state(r) == ReplicaDeletionStarted()
    f.manager.fail_replica_deletion({r})
    assert f.ctx.replica_state(r) == OfflineReplica()
    assert "u" in f.ctx.topics_ineligible_for_deletion
    f.batch.clear_sent()
    f.manager.resume_deletion_for_topics({"u"})
    assert f.ctx.replica_state(r) == ReplicaDeletionStarted()
    assert f.batch.stop_replica_states(0)[U0].delete_partition


def test_topics_with_dead_replicas_wait() -> None:
    """Replicas on dead brokers go straight to ReplicaDeletionIneligible and halt their topic's deletion."""
    f = Fixture(kafka_config(0))
    f.ctx.remove_live_brokers({1})
    for r in f.ctx.replicas_on_brokers({1}):
        f.ctx.put_replica_state(r, OfflineReplica())  # as the broker failure left them
    f.manager.enqueue_topics_for_deletion({"t"})
    assert f.ctx.replica_state(PartitionAndReplica(T0, 1)) == ReplicaDeletionIneligible()
    assert f.ctx.replica_state(PartitionAndReplica(T0, 0)) == ReplicaDeletionStarted()
    assert "t" in f.ctx.topics_ineligible_for_deletion
    assert f.batch.requests(ApiKeys.STOP_REPLICA, 1) == []


def test_disabled_deletion_removes_the_requests_and_keeps_the_topics() -> None:
    """With delete.topic.enable=false the pending requests are dropped from ZooKeeper and nothing is deleted."""
    f = Fixture(kafka_config(0, **{"delete.topic.enable": "false"}))
    f.manager.init({"t"}, set())
    assert f.client.deleted_topic_deletions == [["t"]]
    f.manager.enqueue_topics_for_deletion({"t"})
    assert not f.manager.is_topic_queued_up_for_deletion("t")
    assert f.ctx.topics_to_be_deleted == set()
    assert f.batch.sent == []
    assert f.ctx.partition_state(T0) == OnlinePartition()
