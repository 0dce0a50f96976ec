"""Tests of kafka.server.delayed_fetch, after Kafka's DelayedFetchTest: when a waiting fetch completes, and what
it answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka.common.message import StopReplicaRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.topic_partition import TopicPartition
from kafka.server.delayed_fetch import DelayedFetch, FetchMetadata, FetchPartitionStatus
from kafka.server.delayed_operation_key import TopicPartitionOperationKey
from kafka.server.fetch_data_info import FetchHighWatermark, FetchIsolation, FetchLogEnd
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.server.replica_manager import FetchPartitionData
from tests.unit.kafka.server.test_replica_manager import TOPIC_ID, TP0, TP1, BrokerEnv

Responses = list[list[tuple[TopicPartition, FetchPartitionData]]]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[BrokerEnv]:
    env = BrokerEnv(tmp_path / "logs")
    env.update_metadata([0, 1])
    env.leader_and_isr([0, 1], leader_epoch=1)
    yield env
    env.close()


def delayed_fetch(
    broker: BrokerEnv,
    partitions: dict[TopicPartition, int],
    min_bytes: int,
    partition_max_bytes: int = 1 << 20,
    current_leader_epoch: int | None = None,
    last_fetched_epoch: int | None = None,
    replica_id: int = -1,
    isolation: FetchIsolation | None = None,
    timeout: int = 1000,
) -> tuple[DelayedFetch, Responses]:
    """A DelayedFetch positioned where a first read of each partition at its offset would have left it."""
    rm = broker.replica_manager
    status = []
    for tp, offset in partitions.items():
        info = PartitionData(TOPIC_ID, offset, 0, partition_max_bytes, current_leader_epoch, last_fetched_epoch)
        position = rm.local_log_or_exception(tp).read(offset, 1, FetchLogEnd(), False).fetch_offset_metadata
        status.append((tp, FetchPartitionStatus(position, info)))
    is_follower = replica_id >= 0
    metadata = FetchMetadata(
        min_bytes,
        1 << 20,
        False,
        True,
        isolation if isolation is not None else (FetchLogEnd() if is_follower else FetchHighWatermark()),
        is_follower,
        replica_id,
        status,
    )
    responses: Responses = []
    return DelayedFetch(timeout, metadata, rm, None, None, responses.append), responses


def test_completes_when_enough_bytes_arrive_counting_partition_max_bytes(broker: BrokerEnv) -> None:
    """Bytes readable past each fetch position count towards fetch.min.bytes, at most partition_max_bytes per
    partition; the fetch completes once the total reaches the minimum, and answers with the records."""
    op, responses = delayed_fetch(broker, {TP0: 0, TP1: 0}, min_bytes=150, partition_max_bytes=100)
    assert not op.try_complete()
    broker.produce(TP0, b"x" * 200)  # a batch over 200 bytes counts as 100
    assert not op.try_complete() and responses == []
    broker.produce(TP1, b"y" * 10)
    assert op.try_complete() and op.is_completed
    [answer] = responses
    assert [tp for tp, _ in answer] == [TP0, TP1]
    assert all(d.error == Errors.NONE and d.records.size_in_bytes() > 0 for _, d in answer)


def test_consumer_fetch_counts_only_bytes_below_the_high_watermark(broker: BrokerEnv) -> None:
    """For a consumer only data below the high watermark is readable: appends the ISR has not acknowledged do not
    complete the fetch, while a follower fetch (log end) completes on them."""
    broker.leader_and_isr([0], leader_epoch=2, replicas=[0, 1], isr=[0, 1])
    consumer_op, _ = delayed_fetch(broker, {TP0: 0}, min_bytes=1)
    follower_op, follower_responses = delayed_fetch(broker, {TP0: 0}, min_bytes=1, replica_id=1)
    broker.produce(TP0, b"a")
    assert broker.replica_manager.local_log_or_exception(TP0).high_watermark == 0
    assert not consumer_op.try_complete()
    assert follower_op.try_complete()
    assert follower_responses[0][0][1].records.size_in_bytes() > 0


def test_completes_when_the_broker_no_longer_leads_or_hosts_the_partition(broker: BrokerEnv) -> None:
    """A fetch from the leader completes at once when this broker becomes a follower (answering
    NOT_LEADER_OR_FOLLOWER) or no longer hosts the partition."""
    op, responses = delayed_fetch(broker, {TP0: 0}, min_bytes=1)
    broker.leader_and_isr([0], leader=1, leader_epoch=2, replicas=[1, 0])
    assert op.try_complete()
    assert responses[0][0][1].error == Errors.NOT_LEADER_OR_FOLLOWER

    op2, responses2 = delayed_fetch(broker, {TP1: 0}, min_bytes=1)
    purgatory = broker.replica_manager.delayed_fetch_purgatory
    assert not purgatory.try_complete_else_watch(op2, [TopicPartitionOperationKey.of(TP1)])
    state = StopReplicaRequestData.StopReplicaPartitionState(partition_index=1, leader_epoch=-2, delete_partition=True)
    broker.replica_manager.stop_replicas(3, 0, 1, 0, {TP1: state})
    # StopReplica completes the partition's delayed fetches itself.
    assert op2.is_completed
    assert responses2[0][0][1].error == Errors.UNKNOWN_TOPIC_OR_PARTITION


def test_completes_when_the_fetchers_leader_epoch_is_fenced(broker: BrokerEnv) -> None:
    """A fetch naming leader epoch 1 completes once the partition moves to epoch 2, answering FENCED_LEADER_EPOCH."""
    op, responses = delayed_fetch(broker, {TP0: 0}, min_bytes=1, current_leader_epoch=1)
    assert not op.try_complete()
    broker.leader_and_isr([0], leader_epoch=2)
    assert op.try_complete()
    assert responses[0][0][1].error == Errors.FENCED_LEADER_EPOCH


def test_completes_when_the_fetch_position_is_on_an_older_segment(broker: BrokerEnv) -> None:
    """After a segment roll the readable end is on a newer segment than the fetch position: the fetch completes
    without counting bytes, as Kafka's case F."""
    broker.produce(TP0, b"a")
    op, responses = delayed_fetch(broker, {TP0: 1}, min_bytes=1_000_000)
    log = broker.replica_manager.local_log_or_exception(TP0)
    log.roll()
    broker.produce(TP0, b"b")
    assert op.try_complete()
    assert [r.value() for r in responses[0][0][1].records.records()] == [b"b"]


def test_completes_on_a_diverging_epoch_for_a_follower(broker: BrokerEnv) -> None:
    """A follower whose last fetched epoch this log does not end at is answered at once, so that it truncates."""
    broker.produce(TP0, b"a", b"b")
    broker.leader_and_isr([0], leader_epoch=3)
    broker.produce(TP0, b"c")
    op, responses = delayed_fetch(broker, {TP0: 3}, min_bytes=1_000_000, replica_id=1, last_fetched_epoch=2)
    assert op.try_complete()
    data = responses[0][0][1]
    assert data.diverging_epoch is not None and (data.diverging_epoch.epoch, data.diverging_epoch.end_offset) == (1, 2)


def test_expires_through_the_purgatory_with_what_is_there(broker: BrokerEnv) -> None:
    """Watched in the Fetch purgatory, the fetch expires after its max wait and answers with the data available
    (less than the minimum), exactly once."""
    op, responses = delayed_fetch(broker, {TP0: 0}, min_bytes=1_000_000, timeout=300)
    purgatory = broker.replica_manager.delayed_fetch_purgatory
    assert not purgatory.try_complete_else_watch(op, [TopicPartitionOperationKey.of(TP0)])
    broker.produce(TP0, b"a")
    assert responses == []
    broker.timer.advance_clock(301)
    assert len(responses) == 1 and op.is_completed
    assert [r.value() for r in responses[0][0][1].records.records()] == [b"a"]
    purgatory.check_and_complete(TopicPartitionOperationKey.of(TP0))
    assert len(responses) == 1


def test_unknown_position_is_not_counted(broker: BrokerEnv) -> None:
    """A partition whose first read failed (unknown position) neither counts bytes nor completes the fetch."""
    metadata = FetchMetadata(
        1,
        1 << 20,
        False,
        True,
        FetchHighWatermark(),
        False,
        -1,
        [
            (
                TP0,
                FetchPartitionStatus(
                    LogOffsetMetadata.UNKNOWN_OFFSET_METADATA, PartitionData(TOPIC_ID, 0, 0, 100, None)
                ),
            )
        ],
    )
    op = DelayedFetch(1000, metadata, broker.replica_manager, None, None, lambda _: None)
    broker.produce(TP0, b"a")
    assert not op.try_complete()
