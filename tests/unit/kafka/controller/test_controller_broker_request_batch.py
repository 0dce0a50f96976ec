"""Tests of AbstractControllerBrokerRequestBatch: what each request carries, per inter-broker protocol version, and
the events its response callbacks raise (Kafka's ControllerChannelManagerTest, in our own words)."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.common.message import LeaderAndIsrResponseData, StopReplicaResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.leader_and_isr_response import LeaderAndIsrResponse
from kafka.common.requests.stop_replica_response import StopReplicaResponse
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_channel_manager import ResponseCallback
from kafka.controller.controller_context import ControllerContext, ReplicaAssignment
from kafka.controller.kafka_controller import LeaderAndIsrResponseReceived, TopicDeletionStopReplicaResponseReceived
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.server.kafka_config import KafkaConfig
from tests.unit.kafka.controller.controller_fakes import RecordingRequestBatch, broker, kafka_config

TP0 = TopicPartition("t", 0)
TP1 = TopicPartition("t", 1)
FOO = TopicPartition("foo", 0)
TOPIC_ID = Uuid(7, 8)


class CallbackBatch(RecordingRequestBatch):
    """Also keeps each request's callback, to answer it."""

    def __init__(self, config: KafkaConfig, context: ControllerContext) -> None:
        super().__init__(config, context)
        self.callbacks: list[tuple[int, Any, ResponseCallback | None]] = []

    def send_request(self, broker_id: int, request: Builder[Any], callback: ResponseCallback | None = None) -> None:
        super().send_request(broker_id, request, callback)
        self.callbacks.append((broker_id, self.sent[-1][1], callback))


def context() -> ControllerContext:
    ctx = ControllerContext()
    ctx.epoch = 3
    ctx.set_live_brokers({broker(1, 9001): 11, broker(2, 9002): 12})
    ctx.set_all_topics({"t", "foo"})
    ctx.add_topic_id("t", TOPIC_ID)
    for tp, replicas in ((TP0, [1, 2]), (TP1, [2, 1]), (FOO, [1, 3])):
        ctx.update_partition_full_replica_assignment(tp, ReplicaAssignment(replicas))
        leader_and_isr = LeaderAndIsr(replicas[0], 4, tuple(replicas), 6)
        ctx.put_partition_leadership_info(tp, LeaderIsrAndControllerEpoch(leader_and_isr, 2))
    return ctx


def info(ctx: ControllerContext, tp: TopicPartition) -> LeaderIsrAndControllerEpoch:
    result = ctx.partition_leadership_info(tp)
    assert result is not None
    return result


@pytest.fixture
def ctx() -> ControllerContext:
    return context()


def test_leader_and_isr_request_contents(ctx: ControllerContext) -> None:
    """LeaderAndIsr v5 carries the partition states by topic id, the live leaders and the broker's epoch, and
    isNew once set stays set within a batch; UpdateMetadata goes to every live broker."""
    batch = RecordingRequestBatch(kafka_config(0), ctx)
    batch.new_batch()
    batch.add_leader_and_isr_request_for_brokers([1, 2, -1], TP0, info(ctx, TP0), ReplicaAssignment([1, 2]), True)
    batch.add_leader_and_isr_request_for_brokers([1], TP0, info(ctx, TP0), ReplicaAssignment([1, 2]), False)
    batch.send_requests_to_brokers(ctx.epoch)

    (request,) = batch.requests(ApiKeys.LEADER_AND_ISR, 1)
    assert request.version == 5
    assert (request.controller_id(), request.controller_epoch(), request.broker_epoch()) == (0, 3, 11)
    assert request.topic_ids() == {"t": TOPIC_ID}
    assert [(n.broker_id, n.port) for n in request.live_leaders()] == [(1, 9001)]
    (state,) = list(request.partition_states())
    assert (state.leader, state.leader_epoch, state.isr, state.partition_epoch) == (1, 4, [1, 2], 6)
    assert (state.controller_epoch, state.replicas, state.is_new) == (2, [1, 2], True)
    assert batch.requests(ApiKeys.LEADER_AND_ISR, 2)[0].broker_epoch() == 12
    assert sorted(b for b, r in batch.sent if r.api_key is ApiKeys.UPDATE_METADATA) == [1, 2]
    # The batch is empty again: a new one may start.
    batch.new_batch()


def test_a_batch_must_be_sent_before_a_new_one(ctx: ControllerContext) -> None:
    """Starting a new batch while the previous one still holds requests is an illegal state."""
    batch = RecordingRequestBatch(kafka_config(0), ctx)
    batch.add_stop_replica_request_for_brokers([1], TP0, False)
    with pytest.raises(RuntimeError, match="StopReplica state changes"):
        batch.new_batch()
    batch.clear()
    batch.new_batch()


def test_update_metadata_for_a_topic_being_deleted_has_leader_minus_two(ctx: ControllerContext) -> None:
    """Partitions of topics queued for deletion are announced with leader -2; offline replicas are listed."""
    ctx.queue_topic_deletion({"t"})
    ctx.remove_live_brokers({2})
    batch = RecordingRequestBatch(kafka_config(0), ctx)
    batch.new_batch()
    batch.add_update_metadata_request_for_brokers([1, 2], {TP0, FOO, TopicPartition("none", 0)})
    batch.send_requests_to_brokers(ctx.epoch)
    (request,) = batch.requests(ApiKeys.UPDATE_METADATA)  # broker 2 is not live any more
    assert request.version == 7
    states = {(s.topic_name, s.partition_index): s for s in request.partition_states()}
    assert set(states) == {("t", 0), ("foo", 0)}
    assert (states["t", 0].leader, states["t", 0].isr, states["t", 0].offline_replicas) == (-2, [1, 2], [2])
    assert (states["foo", 0].leader, states["foo", 0].offline_replicas) == (1, [3])
    assert [(b.id, b.endpoints[0].port, b.endpoints[0].listener) for b in request.live_brokers()] == [
        (1, 9001, "PLAINTEXT")
    ]


def test_stop_replica_v3_callback_reports_deletions_of_topics_being_deleted(ctx: ControllerContext) -> None:
    """StopReplica v3 mixes delete and non-delete partitions; only deleted partitions of topics whose deletion
    started come back to the controller as a TopicDeletionStopReplicaResponseReceived event."""
    ctx.queue_topic_deletion({"t"})
    ctx.begin_topic_deletion({"t"})
    batch = CallbackBatch(kafka_config(0), ctx)
    batch.new_batch()
    batch.add_stop_replica_request_for_brokers([1], TP0, True)
    batch.add_stop_replica_request_for_brokers([1], TP0, False)  # delete stays set
    batch.add_stop_replica_request_for_brokers([1], FOO, False)
    batch.send_requests_to_brokers(ctx.epoch)
    ((broker_id, request, callback),) = batch.callbacks
    assert broker_id == 1 and request.version == 3
    states = request.partition_states()
    assert states["t", 0].delete_partition and states["t", 0].leader_epoch == LeaderAndIsr.EPOCH_DURING_DELETE
    assert not states["foo", 0].delete_partition and states["foo", 0].leader_epoch == 4
    assert callback is not None
    response = StopReplicaResponse(
        StopReplicaResponseData(
            error_code=0,
            partition_errors=[
                StopReplicaResponseData.StopReplicaPartitionError(topic_name=t, partition_index=p, error_code=e)
                for t, p, e in (("t", 0, Errors.KAFKA_STORAGE_ERROR.code), ("foo", 0, 0))
            ],
        )
    )
    callback(response)
    (event,) = batch.events
    assert isinstance(event, TopicDeletionStopReplicaResponseReceived)
    assert (event.replica_id, event.request_error) == (1, Errors.NONE)
    assert dict(event.partition_errors) == {TP0: Errors.KAFKA_STORAGE_ERROR}


def test_stop_replica_before_v3_splits_delete_and_keep(ctx: ControllerContext) -> None:
    """Below IBP 2.6 deleted and kept partitions go in two StopReplica requests with one delete flag each."""
    batch = CallbackBatch(kafka_config(0, **{"inter.broker.protocol.version": "2.4"}), ctx)
    batch.new_batch()
    batch.add_stop_replica_request_for_brokers([2], TP0, True)
    batch.add_stop_replica_request_for_brokers([2], TP1, False)
    batch.send_requests_to_brokers(ctx.epoch)
    requests = batch.requests(ApiKeys.STOP_REPLICA, 2)
    assert [r.version for r in requests] == [2, 2]
    assert [(r.data.delete_partitions, list(r.partition_states())) for r in requests] == [
        (True, [("t", 0)]),
        (False, [("t", 1)]),
    ]
    assert [cb is not None for _, _, cb in batch.callbacks] == [True, False]


def test_leader_and_isr_response_becomes_an_event(ctx: ControllerContext) -> None:
    """A LeaderAndIsr response is handed to the controller as a LeaderAndIsrResponseReceived event."""
    batch = CallbackBatch(kafka_config(0), ctx)
    batch.new_batch()
    batch.add_leader_and_isr_request_for_brokers([2], TP1, info(ctx, TP1), ReplicaAssignment([2, 1]), False)
    batch.send_requests_to_brokers(ctx.epoch)
    (_, _, callback) = next(c for c in batch.callbacks if c[1].api_key is ApiKeys.LEADER_AND_ISR)
    assert callback is not None
    response = LeaderAndIsrResponse(LeaderAndIsrResponseData(error_code=0), 5)
    callback(response)
    (event,) = [e for e in batch.events if isinstance(e, LeaderAndIsrResponseReceived)]
    assert event.broker_id == 2 and event.leader_and_isr_response is response
