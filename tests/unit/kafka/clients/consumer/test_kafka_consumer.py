"""Tests of KafkaConsumer with a MockClient (after Java's KafkaConsumerTest, classic protocol): configuration,
assign/poll/seek, group join and commit through the coordinator, wakeup, close leaving the group."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kafka.clients.consumer.consumer_partition_assignor import Assignment, ConsumerPartitionAssignor
from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_protocol import PROTOCOL_TYPE, serialize_assignment
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.kafka_consumer import KafkaConsumer
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.consumer.range_assignor import RangeAssignor
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import InvalidGroupIdException, WakeupException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import (
    FetchResponseData,
    JoinGroupResponseData,
    LeaveGroupResponseData,
    ListOffsetsResponseData,
    SyncGroupResponseData,
)
from kafka.common.metric_name import MetricName
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.fetch_metadata import INVALID_SESSION_ID
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.requests.join_group_request import JoinGroupRequest
from kafka.common.requests.join_group_response import JoinGroupResponse
from kafka.common.requests.leave_group_request import LeaveGroupRequest
from kafka.common.requests.leave_group_response import LeaveGroupResponse
from kafka.common.requests.list_offsets_response import ListOffsetsResponse
from kafka.common.requests.offset_commit_request import OffsetCommitRequest
from kafka.common.requests.offset_commit_response import OffsetCommitResponse
from kafka.common.requests.offset_fetch_response import OffsetFetchResponse, PartitionData
from kafka.common.requests.sync_group_response import SyncGroupResponse
from kafka.common.serialization.string_deserializer import StringDeserializer
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

TOPIC = "test"
TP0 = TopicPartition(TOPIC, 0)
TP1 = TopicPartition(TOPIC, 1)
GROUP = "mock-group"
MEMBER = "memberId"


class _Env:
    """A consumer over a MockClient, as Java's KafkaConsumerTest.newConsumer builds it."""

    def __init__(
        self,
        group_id: str | None = GROUP,
        auto_commit: bool = False,
        partitions: int = 2,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.time = MockTime()
        self.subscriptions = SubscriptionState(LogContext(), OffsetResetStrategy.EARLIEST)
        self.metadata = ConsumerMetadata(
            0, 0, 2**63 - 1, False, False, self.subscriptions, LogContext(), ClusterResourceListeners()
        )
        self.client = MockClient(self.time, self.metadata)
        self.client.update_metadata(metadata_update_with(1, {TOPIC: partitions}))
        self.node = self.metadata.fetch().nodes[0]
        self.assignor = RangeAssignor()
        configs: dict[str, Any] = {
            "bootstrap.servers": "localhost:9999",
            "client.id": "mock-consumer",
            "enable.auto.commit": auto_commit,
            "auto.commit.interval.ms": 1000,
            "session.timeout.ms": 10000,
            "heartbeat.interval.ms": 1000,
            "max.poll.interval.ms": 300000,
            "default.api.timeout.ms": 10000,
            "request.timeout.ms": 5000,
        }
        if group_id is not None:
            configs["group.id"] = group_id
        configs.update(extra or {})
        assignors: list[ConsumerPartitionAssignor] = [self.assignor]
        self.consumer: KafkaConsumer[str, str] = KafkaConsumer(
            configs,
            StringDeserializer(),
            StringDeserializer(),
            time=self.time,
            kafka_client=self.client,
            subscriptions=self.subscriptions,
            metadata=self.metadata,
            assignors=assignors,
        )

    def coordinator_node(self) -> Node:
        return Node(2**31 - 1 - self.node.id, self.node.host, self.node.port)

    def prepare_rebalance(self, partitions: list[TopicPartition], find_coordinator: bool = True) -> Node:
        """FindCoordinator (optionally), JoinGroup as follower, SyncGroup with `partitions`."""
        if find_coordinator:
            self.client.prepare_response_from(
                FindCoordinatorResponse.prepare_response(Errors.NONE, GROUP, self.node), self.node
            )
        coordinator = self.coordinator_node()

        def join_matcher(body: AbstractRequest[Any]) -> bool:
            assert isinstance(body, JoinGroupRequest)
            assert body.data.group_id == GROUP
            assert body.data.protocol_type == PROTOCOL_TYPE
            assert [p.name for p in body.data.protocols] == [self.assignor.name()]
            return True

        join = JoinGroupResponse(
            JoinGroupResponseData(
                error_code=Errors.NONE.code,
                generation_id=1,
                protocol_type=PROTOCOL_TYPE,
                protocol_name=self.assignor.name(),
                member_id=MEMBER,
                leader="leaderId",
                members=[],
            ),
            ApiKeys.JOIN_GROUP.latest_version(),
        )
        self.client.prepare_response_from(join_matcher, join, coordinator)
        sync = SyncGroupResponse(
            SyncGroupResponseData(error_code=Errors.NONE.code, assignment=serialize_assignment(Assignment(partitions)))
        )
        self.client.prepare_response_from(sync, coordinator)
        return coordinator

    def prepare_offset_fetch(self, coordinator: Node, offsets: dict[TopicPartition, int]) -> None:
        data = {
            (tp.topic, tp.partition): PartitionData(offset, None, "", Errors.NONE) for tp, offset in offsets.items()
        }
        self.client.prepare_response_from(
            OffsetFetchResponse.of_groups(0, {GROUP: Errors.NONE}, {GROUP: data}), coordinator
        )

    def prepare_fetch(self, records: dict[TopicPartition, tuple[int, int]]) -> None:
        """Answers the next fetch with `fetch_response(records)`."""
        self.client.prepare_response_from(self.fetch_response(records), self.node)

    @staticmethod
    def fetch_response(records: dict[TopicPartition, tuple[int, int]]) -> FetchResponse:
        """A fetch response carrying, per partition, `count` records starting at `base`."""
        data = {}
        for tp, (base, count) in records.items():
            memory = (
                MemoryRecords.with_records(
                    CompressionType.NONE,
                    *[SimpleRecord(0, f"key-{i}".encode(), f"value-{i}".encode()) for i in range(base, base + count)],
                    initial_offset=base,
                )
                if count
                else MemoryRecords.EMPTY
            )
            data[TopicIdPartition(ZERO_UUID, tp)] = FetchResponseData.PartitionData(
                error_code=Errors.NONE.code, high_watermark=base + count, log_start_offset=0, records=memory
            )
        return FetchResponse.of(Errors.NONE, 0, INVALID_SESSION_ID, data)

    def close(self) -> None:
        self.consumer.close(0)


@pytest.fixture
def env() -> Iterator[_Env]:
    e = _Env()
    yield e
    e.close()


def _heartbeat_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("kafka-coordinator-heartbeat-thread")]


def test_group_protocol_consumer_is_rejected() -> None:
    """group.protocol=consumer (KIP-848) is a clear configuration error."""
    with pytest.raises(ConfigException, match=r"group\.protocol"):
        KafkaConsumer(
            {
                "bootstrap.servers": "localhost:9999",
                "group.id": GROUP,
                "group.protocol": "consumer",
                "key.deserializer": StringDeserializer,
                "value.deserializer": StringDeserializer,
            }
        )


def test_default_client_id() -> None:
    """Without client.id: consumer-{group}-N, N counting consumers of this process."""
    configs = {
        "bootstrap.servers": "localhost:9999",
        "group.id": "g-x",
        "key.deserializer": StringDeserializer,
        "value.deserializer": StringDeserializer,
    }
    first: KafkaConsumer[str, str] = KafkaConsumer(configs)
    second: KafkaConsumer[str, str] = KafkaConsumer(configs)
    try:
        a = first.client_id()
        b = second.client_id()
        assert a.startswith("consumer-g-x-") and b.startswith("consumer-g-x-")
        assert int(b.rsplit("-", 1)[1]) == int(a.rsplit("-", 1)[1]) + 1
    finally:
        first.close(0)
        second.close(0)


def test_poll_without_assignment_raises(env: _Env) -> None:
    with pytest.raises(RuntimeError):
        env.consumer.poll(0)


def test_commit_without_group_raises() -> None:
    e = _Env(group_id=None)
    try:
        e.consumer.assign([TP0])
        with pytest.raises(InvalidGroupIdException):
            e.consumer.commit_sync({TP0: OffsetAndMetadata(1)})
        with pytest.raises(InvalidGroupIdException):
            e.consumer.committed({TP0})
    finally:
        e.close()


def test_assign_seek_poll(env: _Env) -> None:
    """assign + seek + poll returns the fetched records and moves the position."""
    env.consumer.assign([TP0])
    assert env.consumer.assignment() == {TP0}
    env.consumer.seek(TP0, 5)
    env.prepare_fetch({TP0: (5, 3)})
    records = env.consumer.poll(1000)
    assert [(r.offset, r.key, r.value) for r in records.records(TP0)] == [
        (5, "key-5", "value-5"),
        (6, "key-6", "value-6"),
        (7, "key-7", "value-7"),
    ]
    assert records.count() == 3
    assert env.consumer.position(TP0) == 8


def test_seek_to_beginning_lists_offsets(env: _Env) -> None:
    """seek_to_beginning makes the next position lookup send ListOffsets(EARLIEST)."""
    env.consumer.assign([TP0])
    env.consumer.seek_to_beginning([TP0])
    response = ListOffsetsResponse(
        ListOffsetsResponseData(
            topics=[ListOffsetsResponse.singleton_list_offsets_topic_response((TOPIC, 0), Errors.NONE, -1, 42, 0)]
        )
    )
    env.client.prepare_response(response)
    assert env.consumer.position(TP0) == 42


def test_assign_with_committed_offsets_fetches_them(env: _Env) -> None:
    """With a group and no position, poll looks up the committed offset and fetches from it."""
    env.consumer.assign([TP0])
    env.client.prepare_response_from(FindCoordinatorResponse.prepare_response(Errors.NONE, GROUP, env.node), env.node)
    env.prepare_offset_fetch(env.coordinator_node(), {TP0: 10})
    env.prepare_fetch({TP0: (10, 2)})
    deadline = env.time.milliseconds() + 5000
    got: list[int] = []
    while not got and env.time.milliseconds() < deadline:
        got = [r.offset for r in env.consumer.poll(100)]
    assert got == [10, 11]
    env.prepare_offset_fetch(env.coordinator_node(), {TP0: 10})
    assert env.consumer.committed({TP0})[TP0] == OffsetAndMetadata(10)


def test_subscribe_join_poll_commit(env: _Env) -> None:
    """subscribe: FindCoordinator, JoinGroup, SyncGroup give the assignment; the listener sees it; committed
    offsets are fetched; records are returned; commit_sync sends the position."""
    assigned: list[set[TopicPartition]] = []

    class Listener(ConsumerRebalanceListener):
        def on_partitions_revoked(self, partitions: Any) -> None:
            pass

        def on_partitions_assigned(self, partitions: Any) -> None:
            assigned.append(set(partitions))

    env.consumer.subscribe([TOPIC], Listener())
    coordinator = env.prepare_rebalance([TP0])
    env.prepare_offset_fetch(coordinator, {TP0: 0})
    env.prepare_fetch({TP0: (0, 5)})
    records: list[Any] = []
    for _ in range(10):
        records.extend(env.consumer.poll(100))
        if records:
            break
    assert env.consumer.assignment() == {TP0}
    assert assigned == [{TP0}]
    assert [r.value for r in records] == [f"value-{i}" for i in range(5)]

    def commit_matcher(body: AbstractRequest[Any]) -> bool:
        assert isinstance(body, OffsetCommitRequest)
        assert body.data.group_id == GROUP and body.data.generation_id_or_member_epoch == 1
        assert body.data.member_id == MEMBER
        committed = {(t.name, p.partition_index): p.committed_offset for t in body.data.topics for p in t.partitions}
        assert committed == {(TOPIC, 0): 5}
        return True

    env.client.prepare_response_from(commit_matcher, OffsetCommitResponse.of({(TOPIC, 0): Errors.NONE}), coordinator)
    env.consumer.commit_sync()
    assert _heartbeat_threads()


def test_close_leaves_group_and_stops_heartbeat_thread() -> None:
    """close() sends LeaveGroup and stops the heartbeat thread."""
    e = _Env()
    e.consumer.subscribe([TOPIC])
    coordinator = e.prepare_rebalance([TP0, TP1])
    e.prepare_offset_fetch(coordinator, {TP0: 0, TP1: 0})
    for _ in range(20):  # poll(0): the MockTime does not move, so a longer poll would wait forever
        e.consumer.poll(0)
        if e.consumer.assignment():
            break
    assert e.consumer.assignment() == {TP0, TP1}
    left: list[bool] = []

    def leave_matcher(body: AbstractRequest[Any]) -> bool:
        assert isinstance(body, LeaveGroupRequest)
        assert [m.member_id for m in body.data.members] == [MEMBER]
        left.append(True)
        return True

    e.client.prepare_response_from(
        leave_matcher,
        LeaveGroupResponse(LeaveGroupResponseData(error_code=Errors.NONE.code)),
        coordinator,
    )
    # the fetch that closes the fetch session (close waits for it; the MockTime does not move)
    e.client.prepare_response_from(FetchResponse.of(Errors.NONE, 0, INVALID_SESSION_ID, {}), e.node)
    e.consumer.close(1000)
    assert left == [True]
    assert not _heartbeat_threads()


def test_wakeup_interrupts_poll(env: _Env) -> None:
    """wakeup() before poll makes it raise WakeupException once; the next poll works."""
    env.consumer.assign([TP0])
    env.consumer.seek(TP0, 0)
    env.consumer.wakeup()
    with pytest.raises(WakeupException):
        env.consumer.poll(0)
    env.prepare_fetch({TP0: (0, 1)})
    assert env.consumer.poll(1000).count() == 1


def test_pause_resume(env: _Env) -> None:
    """A paused partition is not fetched; after resume its records come back."""
    env.consumer.assign([TP0, TP1])
    env.consumer.seek(TP0, 0)
    env.consumer.seek(TP1, 0)
    env.consumer.pause([TP1])
    assert env.consumer.paused() == {TP1}
    env.prepare_fetch({TP0: (0, 2)})
    records = env.consumer.poll(1000)
    assert records.partitions() == {TP0}
    # having returned records, poll already sent the next fetch (TP0 only): answer it
    assert len(env.client.requests) == 1
    env.client.respond_from(env.fetch_response({TP0: (2, 1)}), env.node)
    env.consumer.resume([TP1])
    assert env.consumer.paused() == set()
    env.prepare_fetch({TP0: (3, 0), TP1: (0, 2)})
    counts: dict[TopicPartition, int] = {}
    for _ in range(10):  # poll(0): the MockTime does not move
        for record in env.consumer.poll(0):
            tp = TopicPartition(record.topic, record.partition)
            counts[tp] = counts.get(tp, 0) + 1
    assert counts == {TP0: 1, TP1: 2}


def test_max_poll_records() -> None:
    e = _Env(extra={"max.poll.records": 2})
    try:
        e.consumer.assign([TP0])
        e.consumer.seek(TP0, 0)
        e.prepare_fetch({TP0: (0, 5)})
        counts = [e.consumer.poll(1000).count() for _ in range(3)]
        assert counts == [2, 2, 1]
    finally:
        e.close()


def test_closed_consumer_raises(env: _Env) -> None:
    env.consumer.close(0)
    with pytest.raises(RuntimeError):
        env.consumer.assignment()
    env.consumer.close(0)  # a second close is a no-op


def test_commit_async_callback(env: _Env) -> None:
    """commit_async calls the callback with the offsets from a later poll."""
    env.consumer.assign([TP0])
    env.client.prepare_response_from(FindCoordinatorResponse.prepare_response(Errors.NONE, GROUP, env.node), env.node)
    coordinator = env.coordinator_node()
    env.client.prepare_response_from(OffsetCommitResponse.of({(TOPIC, 0): Errors.NONE}), coordinator)
    results: list[tuple[Any, Any]] = []
    callback: Callable[[Any, Any], None] = lambda offsets, exc: results.append((offsets, exc))  # noqa: E731
    env.consumer.commit_async({TP0: OffsetAndMetadata(3)}, callback)
    env.consumer.seek(TP0, 0)
    env.prepare_fetch({TP0: (0, 1)})
    for _ in range(5):
        env.consumer.poll(100)
        if results:
            break
    assert results == [({TP0: OffsetAndMetadata(3)}, None)]


def _metric(env: _Env, group: str, name: str) -> Any:
    metric = env.consumer.metrics()[MetricName(name, group, "", {"client-id": "mock-consumer"})]
    return metric.metric_value()


def test_poll_commit_and_coordinator_metrics() -> None:
    """The consumer records its polls (last-poll-seconds-ago, time-between-poll), the time spent in commit_sync and
    committed (ns, here the mock clock's time the coordinator took to answer), and its coordinator's group join
    and assignment, under Java's names. (No heartbeat falls due during the test: the heartbeat thread would take
    the responses prepared for the commit and the offset fetch.)"""
    env = _Env(extra={"heartbeat.interval.ms": 9000})
    try:
        assert _metric(env, "consumer-metrics", "last-poll-seconds-ago") == -1.0
        env.consumer.subscribe([TOPIC])
        coordinator = env.prepare_rebalance([TP0, TP1])
        env.prepare_offset_fetch(coordinator, {TP0: 0, TP1: 0})
        env.prepare_fetch({TP0: (0, 2), TP1: (0, 1)})
        assert len(env.consumer.poll(100)) == 3
        assert env.consumer.assignment() == {TP0, TP1}
        assert _metric(env, "consumer-coordinator-metrics", "join-total") == 1.0
        assert _metric(env, "consumer-coordinator-metrics", "rebalance-total") == 1.0
        assert _metric(env, "consumer-coordinator-metrics", "assigned-partitions") == 2.0
        assert _metric(env, "consumer-metrics", "last-poll-seconds-ago") == 0.0
        env.time.sleep(3_000)
        assert _metric(env, "consumer-metrics", "last-poll-seconds-ago") == 3.0
        env.consumer.poll(0)
        assert _metric(env, "consumer-metrics", "time-between-poll-max") == 3_000.0
        assert _metric(env, "consumer-metrics", "time-between-poll-avg") == 1_500.0
        assert _metric(env, "consumer-metrics", "poll-idle-ratio-avg") is not None

        def slow_commit(body: AbstractRequest[Any]) -> bool:
            env.time.sleep(5)
            return isinstance(body, OffsetCommitRequest)

        env.client.prepare_response_from(slow_commit, OffsetCommitResponse.of({(TOPIC, 0): Errors.NONE}), coordinator)
        env.consumer.commit_sync({TP0: OffsetAndMetadata(1)})
        assert _metric(env, "consumer-metrics", "commit-sync-time-ns-total") == 5_000_000.0
        assert _metric(env, "consumer-coordinator-metrics", "commit-total") == 1.0
        assert _metric(env, "consumer-coordinator-metrics", "commit-latency-max") == 5.0

        def slow_fetch(body: AbstractRequest[Any]) -> bool:
            env.time.sleep(2)
            return True

        data = {(TOPIC, 0): PartitionData(1, None, "", Errors.NONE)}
        env.client.prepare_response_from(
            slow_fetch, OffsetFetchResponse.of_groups(0, {GROUP: Errors.NONE}, {GROUP: data}), coordinator
        )
        assert env.consumer.committed({TP0})[TP0] == OffsetAndMetadata(1)
        assert _metric(env, "consumer-metrics", "committed-time-ns-total") == 2_000_000.0
    finally:
        env.close()


def test_polls_that_complete_nothing_while_a_fetch_is_in_flight_stay_in_the_fetch_wait(
    env: _Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a fetch is in flight, network polls that complete nothing follow each other within poll's time limit
    without a round of poll's outer loop each (PORT); a completed response (here the fetch) ends the wait."""
    env.consumer.assign([TP0])
    env.consumer.seek(TP0, 5)
    delegate = env.consumer._delegate
    rounds = [0]
    update = delegate.update_assignment_metadata_if_needed

    def counting(*args: Any, **kwargs: Any) -> bool:
        rounds[0] += 1
        return update(*args, **kwargs)

    monkeypatch.setattr(delegate, "update_assignment_metadata_if_needed", counting)
    env.time.auto_tick_ms = 1
    assert env.consumer.poll(200).count() == 0  # the fetch stays unanswered until the time limit
    assert rounds[0] == 1
    env.client.respond(env.fetch_response({TP0: (5, 2)}))
    rounds[0] = 0
    records = env.consumer.poll(200)
    assert [r.offset for r in records.records(TP0)] == [5, 6]
    assert rounds[0] == 1
