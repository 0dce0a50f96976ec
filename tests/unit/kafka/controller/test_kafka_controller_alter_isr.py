"""The active controller answering AlterIsr (key 56) from partition leaders, with partition state in an in-memory
versioned store: the broker epoch, leader epoch and partition epoch (zk version) checks, what is written to
ZooKeeper and what every broker is told, and fencing when the controller moved."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from kafka.common.errors import ControllerMovedException
from kafka.common.message import AlterPartitionRequestData, AlterPartitionResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.controller.controller_context import ControllerContext
from kafka.controller.kafka_controller import AlterPartitionReceived, KafkaController
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.zk.kafka_zk_client import UpdateLeaderAndIsrResult
from kafka.zk.zk_data import ReplicaAssignment, TopicPartitionStateZNode
from kafka.zookeeper.zookeeper_types import Code
from tests.unit.kafka.controller.controller_fakes import FakeZkClient, RecordingRequestBatch, broker, kafka_config

T0, T1 = TopicPartition("t", 0), TopicPartition("t", 1)
TOPIC_ID = Uuid(11, 22)
EPOCHS = {0: 100, 1: 101, 2: 102}
CONTROLLER_EPOCH = 4


class AlterIsrZkClient(FakeZkClient):
    """FakeZkClient plus the reads the controller's cache refresh does, and a controller-epoch fence."""

    def __init__(self) -> None:
        super().__init__()
        self.controller_moved = False
        self.expected_epoch_zk_versions: list[int] = []

    def get_topic_partition_states(self, partitions: Any) -> dict[TopicPartition, LeaderIsrAndControllerEpoch]:
        result = {}
        for response in self.get_topic_partition_states_raw(partitions):
            if response.result_code == Code.OK:
                assert response.stat is not None
                state = TopicPartitionStateZNode.decode(response.data, response.stat)
                assert state is not None
                result[response.ctx] = state
        return result

    def update_leader_and_isr(
        self, leader_and_isrs: Any, controller_epoch: int, epoch_zk_version: int
    ) -> UpdateLeaderAndIsrResult:
        self.expected_epoch_zk_versions.append(epoch_zk_version)
        if self.controller_moved:
            raise ControllerMovedException("Controller epoch zkVersion check fails")
        return super().update_leader_and_isr(leader_and_isrs, controller_epoch, epoch_zk_version)


class Env:
    def __init__(self) -> None:
        self.config = kafka_config(0)
        self.zk = AlterIsrZkClient()
        self.controller = KafkaController(self.config, self.zk, MockTime(), None, 100)  # type: ignore[arg-type]
        ctx: ControllerContext = self.controller.controller_context
        self.ctx = ctx
        ctx.epoch, ctx.epoch_zk_version = CONTROLLER_EPOCH, 7
        ctx.add_live_brokers({broker(b): e for b, e in EPOCHS.items()})
        ctx.set_all_topics({"t"})
        ctx.add_topic_id("t", TOPIC_ID)
        for tp in (T0, T1):
            ctx.update_partition_full_replica_assignment(tp, ReplicaAssignment((0, 1, 2)))
            self.zk.put_state(tp, 0, [0, 1, 2], leader_epoch=5, epoch=CONTROLLER_EPOCH)
            self.zk.put_state(tp, 0, [0, 1, 2], leader_epoch=5, epoch=CONTROLLER_EPOCH)  # zk version 1
            ctx.put_partition_leadership_info(tp, self.zk.state(tp))
        self.batch = RecordingRequestBatch(self.config, ctx)
        self.controller.broker_request_batch = self.batch  # type: ignore[assignment]
        self.controller._active_controller_id = 0
        self.answers: list[Any] = []

    def alter(
        self,
        partitions: dict[TopicPartition, tuple[int, list[int], int]],
        broker_id: int = 0,
        broker_epoch: int = 100,
        version: int = 1,
        recovery_state: int = 0,
    ) -> Any:
        """Sends AlterIsr (leader epoch, new ISR, partition epoch per partition) and returns the answer."""
        by_topic: dict[str, Any] = {}
        for tp, (leader_epoch, isr, partition_epoch) in partitions.items():
            topic = by_topic.setdefault(
                tp.topic, AlterPartitionRequestData.TopicData(topic_name=tp.topic, topic_id=TOPIC_ID)
            )
            partition = AlterPartitionRequestData.PartitionData(
                partition_index=tp.partition,
                leader_epoch=leader_epoch,
                partition_epoch=partition_epoch,
                leader_recovery_state=recovery_state,
            )
            if version >= 3:
                partition.new_isr_with_epochs = [
                    AlterPartitionRequestData.BrokerState(broker_id=b, broker_epoch=EPOCHS[b]) for b in isr
                ]
            else:
                partition.new_isr = isr
            topic.partitions.append(partition)
        request = AlterPartitionRequestData(
            broker_id=broker_id, broker_epoch=broker_epoch, topics=list(by_topic.values())
        )
        # Through the wire format, as the request handler would hand it over.
        request = _round_trip(request, version)
        self.controller.process(AlterPartitionReceived(request, version, self.answers.append))
        assert len(self.answers) == 1
        return self.answers.pop()


def _round_trip(data: AlterPartitionRequestData, version: int) -> AlterPartitionRequestData:
    from kafka.common.protocol.message import ByteBufferAccessor

    raw = bytes(data.write(version))
    return AlterPartitionRequestData().read(ByteBufferAccessor(memoryview(raw)), version)


def _partitions(response: AlterPartitionResponseData) -> dict[TopicPartition, Any]:
    return {TopicPartition(t.topic_name, p.partition_index): p for t in response.topics for p in t.partitions}


@pytest.fixture
def env() -> Env:
    return Env()


def test_shrink_is_written_with_the_controller_epoch_and_told_to_every_broker(env: Env) -> None:
    """A valid shrink is written conditionally (partition zk version, controller epoch zk version), answered with
    the new state and partition epoch, cached, and sent to every live broker in UpdateMetadata."""
    response = env.alter({T0: (5, [0, 1], 1)})
    assert response.error_code == Errors.NONE.code
    p = _partitions(response)[T0]
    assert (p.error_code, p.leader_id, p.leader_epoch, list(p.isr), p.partition_epoch) == (0, 0, 5, [0, 1], 2)
    stored = env.zk.state(T0)
    assert list(stored.leader_and_isr.isr) == [0, 1] and stored.controller_epoch == CONTROLLER_EPOCH
    assert env.zk.expected_epoch_zk_versions == [7]
    cached = env.ctx.partition_leadership_info(T0)
    assert cached is not None and list(cached.leader_and_isr.isr) == [0, 1] and cached.leader_and_isr.zk_version == 2
    told = {b for b, r in env.batch.sent if r.api_key is ApiKeys.UPDATE_METADATA}
    assert told == {0, 1, 2}
    states = [s for r in env.batch.requests(ApiKeys.UPDATE_METADATA, 1) for s in r.partition_states()]
    assert [(s.partition_index, list(s.isr), s.zk_version) for s in states] == [(0, [0, 1], 2)]


@pytest.mark.parametrize(
    ("broker_id", "broker_epoch"),
    [(0, 99), (0, 101), (5, 100)],
    ids=["older-epoch", "other-epoch", "unknown-broker"],
)
def test_stale_or_unknown_broker_epoch_is_refused_whole(
    env: Env, broker_id: int, broker_epoch: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A leader whose registration the controller does not know (an old session's epoch, or no registration) gets
    STALE_BROKER_EPOCH for the whole request; nothing is written and the refusal is logged."""
    with caplog.at_level(logging.INFO, logger="kafka.controller.KafkaController"):
        response = env.alter({T0: (5, [0, 1], 1)}, broker_id=broker_id, broker_epoch=broker_epoch)
    assert response.error_code == Errors.STALE_BROKER_EPOCH.code and response.topics == []
    assert env.zk.writes == [] and env.batch.sent == []
    assert "Ignoring AlterIsr" in caplog.text


def test_old_leader_epoch_is_fenced(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """A leader that lost an election (older leader epoch) gets FENCED_LEADER_EPOCH; the state is unchanged."""
    with caplog.at_level(logging.INFO, logger="kafka.controller.KafkaController"):
        response = env.alter({T0: (4, [0], 1)})
    assert _partitions(response)[T0].error_code == Errors.FENCED_LEADER_EPOCH.code
    assert list(env.zk.state(T0).leader_and_isr.isr) == [0, 1, 2] and env.zk.writes == []
    assert "FENCED_LEADER_EPOCH" in caplog.text


def test_old_partition_epoch_is_refused(env: Env) -> None:
    """A change based on an older version of the partition state gets INVALID_UPDATE_VERSION, unwritten."""
    response = env.alter({T0: (5, [0], 0)})
    assert _partitions(response)[T0].error_code == Errors.INVALID_UPDATE_VERSION.code
    assert env.zk.writes == []


def test_concurrent_write_answers_invalid_update_version(env: Env) -> None:
    """When the conditional write finds the znode moved on (a write the controller did not cache), the answer is
    INVALID_UPDATE_VERSION."""
    env.zk.conflicts[T0] = 1
    response = env.alter({T0: (5, [0], 1)})
    assert _partitions(response)[T0].error_code == Errors.INVALID_UPDATE_VERSION.code


def test_newer_epochs_than_the_controller_knows_answer_not_controller(env: Env) -> None:
    """A leader that knows a newer leader or partition epoch than this controller is sent to look for the active
    controller (NOT_CONTROLLER for that partition)."""
    response = env.alter({T0: (6, [0], 1), T1: (5, [0], 2)})
    errors = {tp: p.error_code for tp, p in _partitions(response).items()}
    assert errors == {T0: Errors.NOT_CONTROLLER.code, T1: Errors.NOT_CONTROLLER.code}
    assert env.zk.writes == []


def test_repeated_change_is_answered_with_the_current_state(env: Env) -> None:
    """A change already applied (a retry whose first answer was lost) is answered with the current state, even
    with the partition epoch it was first sent with, and not written again."""
    first = _partitions(env.alter({T0: (5, [0, 1], 1)}))[T0]
    writes = len(env.zk.writes)
    again = _partitions(env.alter({T0: (5, [0, 1], 1)}))[T0]
    assert again.error_code == 0 and (list(again.isr), again.partition_epoch) == (list(first.isr), 2)
    assert len(env.zk.writes) == writes


def test_unknown_partition_and_unknown_topic_id(env: Env) -> None:
    """A partition the controller does not know gets UNKNOWN_TOPIC_OR_PARTITION; from v2 topics are named by id and
    an unknown id gets UNKNOWN_TOPIC_ID."""
    response = env.alter({TopicPartition("t", 9): (5, [0], 1), TopicPartition("nope", 0): (5, [0], 1)})
    errors = {tp: p.error_code for tp, p in _partitions(response).items()}
    assert errors == {
        TopicPartition("t", 9): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
        TopicPartition("nope", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
    }
    env.ctx.topic_ids.pop("t")
    env.ctx.topic_names.pop(TOPIC_ID)
    v2 = env.alter({T0: (5, [0, 1], 1)}, version=2)
    assert [(t.topic_id, [p.error_code for p in t.partitions]) for t in v2.topics] == [
        (TOPIC_ID, [Errors.UNKNOWN_TOPIC_ID.code])
    ]


@pytest.mark.parametrize("version", [2, 3])
def test_topic_ids_and_isr_with_broker_epochs(env: Env, version: int) -> None:
    """v2 names topics by id (and answers by id); v3 carries ISR members with their broker epochs."""
    response = env.alter({T0: (5, [0, 2], 1)}, version=version)
    [topic] = response.topics
    assert topic.topic_id == TOPIC_ID
    [p] = topic.partitions
    assert (p.error_code, list(p.isr), p.partition_epoch) == (0, [0, 2], 2)
    assert list(env.zk.state(T0).leader_and_isr.isr) == [0, 2]


def test_recovering_leader_recovery_state_is_refused(env: Env) -> None:
    """v1+: asking to mark the partition RECOVERING (it is RECOVERED) is an INVALID_REQUEST, unwritten."""
    response = env.alter({T0: (5, [0], 1)}, recovery_state=1)
    assert _partitions(response)[T0].error_code == Errors.INVALID_REQUEST.code
    assert env.zk.writes == []


def test_moved_controller_answers_not_controller_and_resigns(env: Env) -> None:
    """A write refused because the controller epoch znode moved on (another controller was elected): the leader is
    told NOT_CONTROLLER and this controller resigns."""
    env.zk.controller_moved = True
    resigned: list[bool] = []
    env.controller._maybe_resign = lambda: resigned.append(True)  # type: ignore[method-assign]
    response = env.alter({T0: (5, [0, 1], 1)})
    assert response.error_code == Errors.NOT_CONTROLLER.code
    assert resigned == [True]
    assert list(env.zk.state(T0).leader_and_isr.isr) == [0, 1, 2]


def test_alter_isr_dropped_from_the_queue_is_answered_not_controller(env: Env) -> None:
    """An AlterIsr still queued when the controller's session expires (Expire clears the queue) is answered
    NOT_CONTROLLER, so the leader goes to the next controller instead of waiting out its request timeout; nothing
    is written."""
    request = AlterPartitionRequestData(broker_id=0, broker_epoch=100)
    env.controller.preempt(AlterPartitionReceived(request, 2, env.answers.append))
    assert [a.error_code for a in env.answers] == [Errors.NOT_CONTROLLER.code]
    assert list(env.zk.state(T0).leader_and_isr.isr) == [0, 1, 2]
