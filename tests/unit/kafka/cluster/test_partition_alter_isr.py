"""A leader Partition whose ISR changes go to the controller through DefaultAlterIsrManager (a recording channel
answers as the controller would): what is proposed, how the controller's answers are applied, and
min.insync.replicas before and after an append (NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from kafka.cluster.partition import CommittedIsr, DelayedOperations, IsrState, Partition, PendingShrinkIsr
from kafka.common.errors import NotEnoughReplicasException
from kafka.common.message import AlterPartitionResponseData
from kafka.common.protocol.errors import Errors
from kafka.server.alter_isr_manager import DefaultAlterIsrManager
from tests.unit.kafka.cluster.test_partition import LAG_MS, TP, CountingListener, PartitionEnv
from tests.unit.kafka.server.test_alter_isr_manager import RecordingChannel
from tests.unit.kafka.server.test_replica_manager import TP0, BrokerEnv, TopicConfigs

BROKER_EPOCH = 55


class AlterIsrEnv(PartitionEnv):
    """PartitionEnv's broker and log, with the Partition's ISR changes going through DefaultAlterIsrManager."""

    def __init__(self, tmp_path: Path, topic_configs: TopicConfigs | None = None) -> None:
        super().__init__(tmp_path, topic_configs)
        self.channel = RecordingChannel()
        self.manager = DefaultAlterIsrManager(self.channel, self.broker.scheduler, self.time, 0, lambda: BROKER_EPOCH)
        self.listener = CountingListener()
        rm = self.broker.replica_manager
        self.partition = Partition(
            TP,
            replica_lag_time_max_ms=LAG_MS,
            inter_broker_protocol_version=self.broker.config.inter_broker_protocol_version,
            local_broker_id=0,
            time=self.time,
            isr_change_listener=self.listener,
            delayed_operations=DelayedOperations(
                TP, rm.delayed_produce_purgatory, rm.delayed_fetch_purgatory, rm.delayed_delete_records_purgatory
            ),
            metadata_cache=self.broker.metadata_cache,
            log_manager=self.broker.log_manager,
            alter_isr_manager=self.manager,
        )

    def answer(self, isr: list[int] | None = None, error: Errors = Errors.NONE, partition_epoch: int = 1) -> None:
        """The controller's answer to the last AlterIsr sent."""
        if error == Errors.NONE:
            assert isr is not None
            partition = AlterPartitionResponseData.PartitionData(
                partition_index=TP.partition, leader_id=0, leader_epoch=1, isr=isr, partition_epoch=partition_epoch
            )
        else:
            partition = AlterPartitionResponseData.PartitionData(partition_index=TP.partition, error_code=error.code)
        self.channel.respond(
            AlterPartitionResponseData(
                topics=[AlterPartitionResponseData.TopicData(topic_name=TP.topic, partitions=[partition])]
            )
        )


@pytest.fixture
def env(tmp_path: Path) -> Iterator[AlterIsrEnv]:
    e = AlterIsrEnv(tmp_path)
    yield e
    e.broker.close()


def _lagging_leader(env: AlterIsrEnv) -> Partition:
    """Leader of [0, 1] with ISR [0, 1], three records appended that follower 1 never fetched, lag time passed."""
    p = env.partition
    p.make_leader(env.state(replicas=[0, 1], isr=[0, 1]), env.checkpoints)
    env.append(b"a", b"b", b"c")
    env.time.sleep(LAG_MS + 1)
    return p


def test_shrink_is_proposed_to_the_controller_and_committed_from_its_answer(env: AlterIsrEnv) -> None:
    """A lagging follower is proposed out of the ISR in an AlterIsr carrying the broker epoch, leader epoch and
    zk version; until the controller answers the old ISR still holds the high watermark back, and the answer's
    ISR and partition epoch become the partition's."""
    p = _lagging_leader(env)
    log = p.local_log_or_exception()
    p.maybe_shrink_isr()
    assert isinstance(p.isr_state, PendingShrinkIsr)
    data = env.channel.request_data()
    [sent] = env.channel.sent_partitions().values()
    assert (data.broker_id, data.broker_epoch) == (0, BROKER_EPOCH)
    assert (sent.leader_epoch, list(sent.new_isr), sent.partition_epoch) == (1, [0], 0)
    assert log.high_watermark == 0
    env.answer([0], partition_epoch=1)
    # The answer changed it: mypy would keep the isinstance narrowing above.
    assert cast(IsrState, p.isr_state) == CommittedIsr(frozenset({0})) and p.get_zk_version() == 1
    assert env.listener.shrinks == 1
    # With the ISR down to the leader, the answer itself moves the high watermark to the log end (as Kafka 3.0
    # does, KAFKA-13091; 2.8 waited for the next append or fetch), and later appends follow at once.
    assert log.high_watermark == 3
    env.append(b"d")
    assert log.high_watermark == 4


@pytest.mark.parametrize(
    "error", [Errors.FENCED_LEADER_EPOCH, Errors.INVALID_UPDATE_VERSION, Errors.UNKNOWN_TOPIC_OR_PARTITION]
)
def test_refused_change_stays_pending_until_new_state(env: AlterIsrEnv, error: Errors) -> None:
    """A change the controller refuses for good is not retried: the partition keeps it pending (the ISR stays as
    committed) until the controller sends new state, and no further AlterIsr goes out."""
    p = _lagging_leader(env)
    p.maybe_shrink_isr()
    env.answer(error=error)
    assert isinstance(p.isr_state, PendingShrinkIsr) and p.in_sync_replica_ids == frozenset({0, 1})
    assert env.listener.failures == 1 and len(env.channel.sent) == 1
    p.maybe_shrink_isr()
    assert len(env.channel.sent) == 1
    p.make_leader(env.state(leader_epoch=2, replicas=[0, 1], isr=[0]), env.checkpoints)
    # make_leader changed it: mypy would keep the isinstance narrowing above.
    assert cast(IsrState, p.isr_state) == CommittedIsr(frozenset({0}))


def test_unexpected_error_is_retried(env: AlterIsrEnv) -> None:
    """An error the partition does not expect (here NOT_CONTROLLER) makes it send the same change again."""
    p = _lagging_leader(env)
    p.maybe_shrink_isr()
    env.answer(error=Errors.NOT_CONTROLLER)
    assert len(env.channel.sent) == 2
    assert list(next(iter(env.channel.sent_partitions().values())).new_isr) == [0]
    env.answer([0])
    assert p.isr_state == CommittedIsr(frozenset({0}))


def test_acks_all_produce_before_and_after_the_isr_falls_below_min_insync(tmp_path: Path) -> None:
    """min.insync.replicas=2: acks=-1 with ISR {0} is refused before the append (NOT_ENOUGH_REPLICAS, nothing
    written); with ISR {0, 1} it is appended and waits, and when the ISR then shrinks to {0} the high watermark
    passes it but the answer is NOT_ENOUGH_REPLICAS_AFTER_APPEND; acks=1 is unaffected."""
    broker = BrokerEnv(tmp_path / "logs", TopicConfigs({TP0.topic: {"min.insync.replicas": "2"}}))
    try:
        broker.update_metadata([0, 1])
        broker.leader_and_isr([0], replicas=[0, 1], isr=[0])
        assert [r.error for r in broker.produce(TP0, b"x", acks=-1)] == [Errors.NOT_ENOUGH_REPLICAS]
        assert broker.replica_manager.get_log_end_offset(TP0) == 0
        assert [r.error for r in broker.produce(TP0, b"x", acks=1)] == [Errors.NONE]

        broker.leader_and_isr([0], leader_epoch=2, replicas=[0, 1], isr=[0, 1])
        waiting = broker.produce(TP0, b"y", acks=-1, timeout=30_000)
        assert waiting == [] and broker.replica_manager.get_log_end_offset(TP0) == 2
        # The controller takes follower 1 out of the ISR (it died): the high watermark reaches the log end.
        broker.leader_and_isr([0], leader_epoch=3, replicas=[0, 1], isr=[0])
        assert [r.error for r in waiting] == [Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND]
        assert broker.replica_manager.local_log_or_exception(TP0).high_watermark == 2
    finally:
        broker.close()


def test_partition_refuses_acks_all_below_min_insync(tmp_path: Path) -> None:
    """At the partition: acks=-1 below min.insync.replicas raises NotEnoughReplicasException before appending, and
    the ISR check after the append reports NOT_ENOUGH_REPLICAS_AFTER_APPEND once the ISR shrank."""
    env = AlterIsrEnv(tmp_path, TopicConfigs({TP.topic: {"min.insync.replicas": "2"}}))
    try:
        p = env.partition
        p.make_leader(env.state(replicas=[0, 1], isr=[0, 1]), env.checkpoints)
        env.append(b"a", acks=-1)
        assert p.check_enough_replicas_reach_offset(1) == (False, Errors.NONE)
        env.time.sleep(LAG_MS + 1)
        p.maybe_shrink_isr()
        env.answer([0])
        with pytest.raises(NotEnoughReplicasException):
            env.append(b"b", acks=-1)
        assert p.local_log_or_exception().log_end_offset == 1
        env.append(b"c", acks=1)  # moves the high watermark past the acks=-1 record
        assert p.check_enough_replicas_reach_offset(1) == (True, Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND)
    finally:
        env.broker.close()
