"""Tests of ConsumerCoordinator with a MockClient (after Java's ConsumerCoordinatorTest): leader and follower
joins, eager and cooperative rebalances with the listener's callbacks, heartbeat errors asking for a rejoin, offset
commits and their errors, committed-offset fetches."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

import pytest

from kafka.clients.consumer.commit_failed_exception import CommitFailedException
from kafka.clients.consumer.consumer_partition_assignor import (
    Assignment,
    ConsumerPartitionAssignor,
    GroupAssignment,
    GroupSubscription,
    RebalanceProtocol,
    Subscription,
)
from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.internals.consumer_coordinator import ConsumerCoordinator
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.consumer_protocol import (
    deserialize_assignment,
    deserialize_subscription,
    serialize_assignment,
    serialize_subscription,
)
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_commit_callback import as_offset_commit_callback
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.consumer.retriable_commit_failed_exception import RetriableCommitFailedException
from kafka.clients.group_rebalance_config import GroupRebalanceConfig
from kafka.common.cluster import Cluster
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import HeartbeatResponseData, JoinGroupResponseData, SyncGroupResponseData
from kafka.common.metrics.metrics import Metrics
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.requests.heartbeat_response import HeartbeatResponse
from kafka.common.requests.join_group_request import JoinGroupRequest
from kafka.common.requests.join_group_response import JoinGroupResponse
from kafka.common.requests.offset_commit_response import OffsetCommitResponse
from kafka.common.requests.offset_fetch_response import OffsetFetchResponse, PartitionData
from kafka.common.requests.sync_group_request import SyncGroupRequest
from kafka.common.requests.sync_group_response import SyncGroupResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

GROUP = "group-id"
TOPIC1, TOPIC2 = "test1", "test2"
T1P0, T1P1, T2P0 = TopicPartition(TOPIC1, 0), TopicPartition(TOPIC1, 1), TopicPartition(TOPIC2, 0)
MAX = 2**62


class _MockAssignor(ConsumerPartitionAssignor):
    """Returns the assignment prepared by the test (Java's MockPartitionAssignor)."""

    def __init__(self, protocols: list[RebalanceProtocol]) -> None:
        self._protocols = protocols
        self.result: dict[str, list[TopicPartition]] = {}
        self.seen: GroupSubscription | None = None

    def assign(self, metadata: Cluster, group_subscription: GroupSubscription) -> GroupAssignment:
        self.seen = group_subscription
        return GroupAssignment({member: Assignment(parts) for member, parts in self.result.items()})

    def supported_protocols(self) -> list[RebalanceProtocol]:
        return self._protocols

    def name(self) -> str:
        return "mock"


class _Listener(ConsumerRebalanceListener):
    def __init__(self) -> None:
        self.revoked: list[set[TopicPartition]] = []
        self.assigned: list[set[TopicPartition]] = []
        self.lost: list[set[TopicPartition]] = []

    def on_partitions_revoked(self, partitions: Collection[TopicPartition]) -> None:
        self.revoked.append(set(partitions))

    def on_partitions_assigned(self, partitions: Collection[TopicPartition]) -> None:
        self.assigned.append(set(partitions))

    def on_partitions_lost(self, partitions: Collection[TopicPartition]) -> None:
        self.lost.append(set(partitions))


class _Env:
    def __init__(self, protocol: RebalanceProtocol = RebalanceProtocol.EAGER) -> None:
        self.time = MockTime()
        self.metrics = Metrics(time=self.time)
        self.subscriptions = SubscriptionState(LogContext(), OffsetResetStrategy.EARLIEST)
        self.metadata = ConsumerMetadata(
            0, 0, 2**63 - 1, False, False, self.subscriptions, LogContext(), ClusterResourceListeners()
        )
        self.client = MockClient(self.time, self.metadata)
        self.client.update_metadata(metadata_update_with(1, {TOPIC1: 2, TOPIC2: 1}))
        self.node = self.metadata.fetch().nodes[0]
        self.consumer_client = ConsumerNetworkClient(
            LogContext(), self.client, self.metadata, self.time, 100, 30000, 3000
        )
        self.assignor = _MockAssignor([protocol])
        self.listener = _Listener()
        config = GroupRebalanceConfig(10000, 60000, 3000, GROUP, None, 100, 1000, True)
        self.coordinator = ConsumerCoordinator(
            config,
            LogContext(),
            self.consumer_client,
            [self.assignor],
            self.metadata,
            self.subscriptions,
            self.metrics,
            "consumer",
            self.time,
            False,
            5000,
            None,
            False,
            None,
        )

    def close(self) -> None:
        self.coordinator.close(self.time.timer(0))
        self.metrics.close()

    def find_coordinator(self) -> None:
        self.client.prepare_response(FindCoordinatorResponse.prepare_response(Errors.NONE, GROUP, self.node))
        assert self.coordinator.ensure_coordinator_ready(self.time.timer(MAX))

    def join_response(
        self, generation: int, member: str, leader: str, members: dict[str, list[str]] | None = None
    ) -> JoinGroupResponse:
        return JoinGroupResponse(
            JoinGroupResponseData(
                error_code=Errors.NONE.code,
                generation_id=generation,
                protocol_name=self.assignor.name(),
                leader=leader,
                member_id=member,
                members=[
                    JoinGroupResponseData.JoinGroupResponseMember(
                        member_id=m, metadata=serialize_subscription(Subscription(topics))
                    )
                    for m, topics in (members or {}).items()
                ],
            ),
            ApiKeys.JOIN_GROUP.latest_version(),
        )

    @staticmethod
    def sync_response(partitions: list[TopicPartition], error: Errors = Errors.NONE) -> SyncGroupResponse:
        return SyncGroupResponse(
            SyncGroupResponseData(error_code=error.code, assignment=serialize_assignment(Assignment(partitions)))
        )

    def rebalance_as_follower(self, generation: int, partitions: list[TopicPartition]) -> None:
        self.client.prepare_response(self.join_response(generation, "consumer", "leader"))
        self.client.prepare_response(self.sync_response(partitions))
        assert self.coordinator.poll(self.time.timer(MAX))


@pytest.fixture
def env() -> Iterator[_Env]:
    e = _Env()
    yield e
    e.close()


@pytest.fixture
def coop() -> Iterator[_Env]:
    e = _Env(RebalanceProtocol.COOPERATIVE)
    yield e
    e.close()


def test_normal_join_group_leader(env: _Env) -> None:
    """The leader runs the assignor over every member's subscription and sends the assignments in SyncGroup; its
    own share becomes the assignment and the listener sees it."""
    env.subscriptions.subscribe({TOPIC1}, env.listener)
    env.find_coordinator()
    env.assignor.result = {"leader": [T1P0], "other": [T1P1]}
    env.client.prepare_response(env.join_response(1, "leader", "leader", {"leader": [TOPIC1], "other": [TOPIC1]}))

    def sync_matcher(body: AbstractRequest[Any]) -> bool:
        assert isinstance(body, SyncGroupRequest)
        assert body.data.member_id == "leader" and body.data.generation_id == 1
        sent = {m: deserialize_assignment(a).partitions for m, a in body.group_assignments().items()}
        assert sent == {"leader": [T1P0], "other": [T1P1]}
        return True

    env.client.prepare_response(sync_matcher, env.sync_response([T1P0]))
    assert env.coordinator.poll(env.time.timer(MAX))
    assert env.assignor.seen is not None
    assert set(env.assignor.seen.group_subscription()) == {"leader", "other"}
    assert not env.coordinator.rejoin_needed_or_pending()
    assert env.subscriptions.assigned_partitions() == {T1P0}
    assert env.listener.revoked == [] and env.listener.assigned == [{T1P0}]
    assert env.coordinator.generation().generation_id == 1


def test_join_group_request_carries_subscription(env: _Env) -> None:
    """JoinGroup names the consumer protocol type, the group and the assignor with the serialized subscription,
    and the rebalance timeout."""
    env.subscriptions.subscribe({TOPIC1, TOPIC2}, env.listener)
    env.find_coordinator()

    def join_matcher(body: AbstractRequest[Any]) -> bool:
        assert isinstance(body, JoinGroupRequest)
        data = body.data
        assert (data.group_id, data.protocol_type, data.rebalance_timeout_ms) == (GROUP, "consumer", 60000)
        assert data.session_timeout_ms == 10000
        assert [p.name for p in data.protocols] == ["mock"]
        return True

    env.client.prepare_response(join_matcher, env.join_response(1, "consumer", "leader"))
    env.client.prepare_response(env.sync_response([T1P0, T2P0]))
    assert env.coordinator.poll(env.time.timer(MAX))
    assert env.subscriptions.assigned_partitions() == {T1P0, T2P0}


def test_eager_rebalance_revokes_everything(env: _Env) -> None:
    """Eager protocol: a second rebalance revokes all owned partitions before joining, then assigns the new
    set."""
    env.subscriptions.subscribe({TOPIC1}, env.listener)
    env.find_coordinator()
    env.rebalance_as_follower(1, [T1P0, T1P1])
    env.coordinator.request_rejoin("test")
    env.rebalance_as_follower(2, [T1P0])
    assert env.listener.revoked == [{T1P0, T1P1}]
    assert env.listener.assigned == [{T1P0, T1P1}, {T1P0}]
    assert env.subscriptions.assigned_partitions() == {T1P0}


def test_cooperative_rebalance_two_phases(coop: _Env) -> None:
    """Cooperative protocol: only the partitions taken away are revoked (after the SyncGroup) and the member
    rejoins at once; then the second phase gives the moved partition to its new owner."""
    coop.subscriptions.subscribe({TOPIC1}, coop.listener)
    coop.find_coordinator()
    coop.rebalance_as_follower(1, [T1P0, T1P1])
    assert coop.listener.assigned == [{T1P0, T1P1}]
    coop.coordinator.request_rejoin("test")
    # both phases happen within one poll: after revoking T1P1 the member rejoins at once
    coop.client.prepare_response(coop.join_response(2, "consumer", "leader"))
    coop.client.prepare_response(coop.sync_response([T1P0]))
    coop.client.prepare_response(coop.join_response(3, "consumer", "leader"))
    coop.client.prepare_response(coop.sync_response([T1P0]))
    assert coop.coordinator.poll(coop.time.timer(MAX))
    assert coop.listener.revoked == [{T1P1}]  # only the partition that moved, never T1P0
    assert coop.subscriptions.assigned_partitions() == {T1P0}
    assert coop.coordinator.generation().generation_id == 3
    assert not coop.coordinator.rejoin_needed_or_pending()
    assert not coop.client.has_pending_responses()
    # KIP-429: on_partitions_assigned is called after each sync, with what was added (nothing here)
    assert coop.listener.assigned == [{T1P0, T1P1}, set(), set()]


def test_cooperative_leader_keeps_owned_partitions_in_subscription(coop: _Env) -> None:
    """Cooperative members send their owned partitions in the subscription."""
    coop.subscriptions.subscribe({TOPIC1}, coop.listener)
    coop.find_coordinator()
    coop.rebalance_as_follower(1, [T1P0])
    coop.coordinator.request_rejoin("test")
    seen: list[Any] = []

    def join_matcher(body: AbstractRequest[Any]) -> bool:
        assert isinstance(body, JoinGroupRequest)
        seen.append(deserialize_subscription(body.data.protocols[0].metadata))
        return True

    coop.client.prepare_response(join_matcher, coop.join_response(2, "consumer", "leader"))
    coop.client.prepare_response(coop.sync_response([T1P0]))
    assert coop.coordinator.poll(coop.time.timer(MAX))
    assert seen[0].owned_partitions == [T1P0]
    assert seen[0].generation_id == 1


@pytest.mark.parametrize(
    "error",
    [Errors.REBALANCE_IN_PROGRESS, Errors.ILLEGAL_GENERATION, Errors.UNKNOWN_MEMBER_ID],
)
def test_heartbeat_error_requests_rejoin(env: _Env, error: Errors) -> None:
    """A heartbeat answered with a rebalance error makes the member rejoin."""
    env.subscriptions.subscribe({TOPIC1}, env.listener)
    env.find_coordinator()
    env.rebalance_as_follower(1, [T1P0])
    assert not env.coordinator.rejoin_needed_or_pending()
    future = env.coordinator.send_heartbeat_request()
    env.client.prepare_response(HeartbeatResponse(HeartbeatResponseData(error_code=error.code)))
    env.consumer_client.poll_future(future, env.time.timer(MAX))
    assert future.failed()
    assert env.coordinator.rejoin_needed_or_pending()


def test_commit_sync_and_committed(env: _Env) -> None:
    """commit_offsets_sync sends the offsets and succeeds; fetch_committed_offsets reads them back."""
    env.subscriptions.assign_from_user({T1P0})
    env.find_coordinator()
    env.client.prepare_response(OffsetCommitResponse.of({(TOPIC1, 0): Errors.NONE}))
    assert env.coordinator.commit_offsets_sync({T1P0: OffsetAndMetadata(100, "meta")}, env.time.timer(MAX))
    env.client.prepare_response(
        OffsetFetchResponse.of_groups(
            0, {GROUP: Errors.NONE}, {GROUP: {(TOPIC1, 0): PartitionData(100, 3, "meta", Errors.NONE)}}
        )
    )
    committed = env.coordinator.fetch_committed_offsets({T1P0}, env.time.timer(MAX))
    assert committed == {T1P0: OffsetAndMetadata(100, "meta", 3)}


@pytest.mark.parametrize("error", [Errors.UNKNOWN_MEMBER_ID, Errors.ILLEGAL_GENERATION])
def test_commit_with_stale_membership_fails(env: _Env, error: Errors) -> None:
    """A sync commit refused because the member is no longer in the generation raises CommitFailedException."""
    env.subscriptions.subscribe({TOPIC1}, env.listener)
    env.find_coordinator()
    env.rebalance_as_follower(1, [T1P0])
    env.client.prepare_response(OffsetCommitResponse.of({(TOPIC1, 0): error}))
    with pytest.raises(CommitFailedException):
        env.coordinator.commit_offsets_sync({T1P0: OffsetAndMetadata(10)}, env.time.timer(MAX))


def test_commit_async_coordinator_not_available(env: _Env) -> None:
    """An async commit failing with COORDINATOR_NOT_AVAILABLE gives the callback a retriable failure and marks
    the coordinator unknown."""
    env.subscriptions.assign_from_user({T1P0})
    env.find_coordinator()
    results: list[BaseException | None] = []
    env.client.prepare_response(OffsetCommitResponse.of({(TOPIC1, 0): Errors.COORDINATOR_NOT_AVAILABLE}))
    env.coordinator.commit_offsets_async(
        {T1P0: OffsetAndMetadata(5)}, as_offset_commit_callback(lambda offsets, exc: results.append(exc))
    )
    env.consumer_client.poll(env.time.timer(0))
    env.coordinator.invoke_completed_offset_commit_callbacks()
    assert len(results) == 1 and isinstance(results[0], RetriableCommitFailedException)
    assert env.coordinator.coordinator_unknown()


def test_sync_group_error_rejoins(env: _Env) -> None:
    """A SyncGroup refused with REBALANCE_IN_PROGRESS makes the member join again; the next round succeeds."""
    env.subscriptions.subscribe({TOPIC1}, env.listener)
    env.find_coordinator()
    env.client.prepare_response(env.join_response(1, "consumer", "leader"))
    env.client.prepare_response(env.sync_response([], Errors.REBALANCE_IN_PROGRESS))
    env.client.prepare_response(env.join_response(2, "consumer", "leader"))
    env.client.prepare_response(env.sync_response([T1P0]))
    assert env.coordinator.poll(env.time.timer(MAX))
    assert env.subscriptions.assigned_partitions() == {T1P0}
    assert env.coordinator.generation().generation_id == 2


# -- metrics (consumer-coordinator-metrics) --------------------------------------------------------------------


def _coordinator_metric(env: _Env, name: str) -> Any:
    metric = env.metrics.metric(env.metrics.metric_name(name, "consumer-coordinator-metrics"))
    assert metric is not None, name
    return metric.metric_value()


def _taking(env: _Env, ms: int) -> Any:
    """A request matcher that lets `ms` of the mock clock pass, so the response's latency is `ms`."""

    def matcher(body: AbstractRequest[Any]) -> bool:
        env.time.sleep(ms)
        return True

    return matcher


class _SlowListener(ConsumerRebalanceListener):
    """Each callback takes `ms` of the mock clock."""

    def __init__(self, time: MockTime, ms: int) -> None:
        self._time = time
        self._ms = ms

    def on_partitions_revoked(self, partitions: Collection[TopicPartition]) -> None:
        self._time.sleep(self._ms)

    def on_partitions_assigned(self, partitions: Collection[TopicPartition]) -> None:
        self._time.sleep(self._ms)

    def on_partitions_lost(self, partitions: Collection[TopicPartition]) -> None:
        self._time.sleep(self._ms)


def test_join_sync_rebalance_and_callback_metrics(env: _Env) -> None:
    """A rebalance records the JoinGroup and SyncGroup response times and counts, one successful rebalance whose
    latency runs from the join to the sync, the listener's callback time and the assigned partitions; the seconds
    since the last rebalance count from its end."""
    assert _coordinator_metric(env, "last-rebalance-seconds-ago") == -1.0
    assert _coordinator_metric(env, "assigned-partitions") == 0.0
    env.subscriptions.subscribe({TOPIC1}, _SlowListener(env.time, 4))
    env.find_coordinator()
    env.client.prepare_response(_taking(env, 7), env.join_response(1, "consumer", "leader"))
    env.client.prepare_response(_taking(env, 3), env.sync_response([T1P0, T1P1]))
    assert env.coordinator.poll(env.time.timer(MAX))
    expected = {
        "join-total": 1.0,
        "join-time-max": 7.0,
        "join-time-avg": 7.0,
        "sync-total": 1.0,
        "sync-time-max": 3.0,
        "sync-time-avg": 3.0,
        "rebalance-total": 1.0,
        "rebalance-latency-total": 10.0,
        "rebalance-latency-max": 10.0,
        "failed-rebalance-total": 0.0,
        "partition-assigned-latency-max": 4.0,
        "assigned-partitions": 2.0,
        "last-rebalance-seconds-ago": 0.0,
    }
    assert {name: _coordinator_metric(env, name) for name in expected} == expected
    assert _coordinator_metric(env, "join-rate") > 0
    assert _coordinator_metric(env, "rebalance-rate-per-hour") > 0
    env.time.sleep(5_500)
    assert _coordinator_metric(env, "last-rebalance-seconds-ago") == 5.0
    # An eager rebalance revokes everything first.
    env.coordinator.request_rejoin("test")
    env.rebalance_as_follower(2, [T1P0])
    assert _coordinator_metric(env, "partition-revoked-latency-max") == 4.0
    assert _coordinator_metric(env, "partition-revoked-latency-avg") == 4.0
    assert _coordinator_metric(env, "rebalance-total") == 2.0
    assert _coordinator_metric(env, "assigned-partitions") == 1.0


def test_failed_rebalance_metrics(env: _Env) -> None:
    """A SyncGroup refused with REBALANCE_IN_PROGRESS counts one failed rebalance; the retry that succeeds counts
    one successful rebalance, timed from the first join."""
    env.subscriptions.subscribe({TOPIC1}, env.listener)
    env.find_coordinator()
    env.client.prepare_response(_taking(env, 2), env.join_response(1, "consumer", "leader"))
    env.client.prepare_response(env.sync_response([], Errors.REBALANCE_IN_PROGRESS))
    env.client.prepare_response(_taking(env, 2), env.join_response(2, "consumer", "leader"))
    env.client.prepare_response(env.sync_response([T1P0]))
    assert env.coordinator.poll(env.time.timer(MAX))
    assert _coordinator_metric(env, "failed-rebalance-total") == 1.0
    assert _coordinator_metric(env, "failed-rebalance-rate-per-hour") > 0
    assert _coordinator_metric(env, "rebalance-total") == 1.0
    assert _coordinator_metric(env, "rebalance-latency-total") == 4.0
    assert _coordinator_metric(env, "join-total") == 2.0
    # Only successful SyncGroup responses are timed, as in Java.
    assert _coordinator_metric(env, "sync-total") == 1.0


def test_heartbeat_metrics(env: _Env) -> None:
    """A heartbeat response records its time and count; last-heartbeat-seconds-ago is -1 until one is sent, then
    counts the seconds since it was."""
    env.subscriptions.subscribe({TOPIC1}, env.listener)
    env.find_coordinator()
    env.rebalance_as_follower(1, [T1P0])
    assert _coordinator_metric(env, "last-heartbeat-seconds-ago") == -1.0
    env.coordinator.heartbeat().sent_heartbeat(env.time.milliseconds())
    future = env.coordinator.send_heartbeat_request()
    env.client.prepare_response(_taking(env, 6), HeartbeatResponse(HeartbeatResponseData(error_code=Errors.NONE.code)))
    env.consumer_client.poll_future(future, env.time.timer(MAX))
    assert future.succeeded()
    assert _coordinator_metric(env, "heartbeat-total") == 1.0
    assert _coordinator_metric(env, "heartbeat-rate") > 0
    assert _coordinator_metric(env, "heartbeat-response-time-max") == 6.0
    env.time.sleep(2_000)
    assert _coordinator_metric(env, "last-heartbeat-seconds-ago") == 2.0


def test_commit_metrics(env: _Env) -> None:
    """Each OffsetCommit response records its time in commit-latency-avg/max and counts in commit-total."""
    env.subscriptions.assign_from_user({T1P0})
    env.find_coordinator()
    for ms in (2, 8):
        env.client.prepare_response(_taking(env, ms), OffsetCommitResponse.of({(TOPIC1, 0): Errors.NONE}))
        assert env.coordinator.commit_offsets_sync({T1P0: OffsetAndMetadata(ms)}, env.time.timer(MAX))
    assert _coordinator_metric(env, "commit-total") == 2.0
    assert _coordinator_metric(env, "commit-latency-max") == 8.0
    assert _coordinator_metric(env, "commit-latency-avg") == 5.0
    assert _coordinator_metric(env, "commit-rate") > 0


def test_lost_partitions_callback_metric(env: _Env) -> None:
    """Partitions lost (the member's generation was reset) record the listener's on_partitions_lost time."""
    env.subscriptions.subscribe({TOPIC1}, _SlowListener(env.time, 9))
    env.find_coordinator()
    env.rebalance_as_follower(1, [T1P0])
    # Preparing to join with no generation (reset by an error) gives the partitions away as lost.
    env.coordinator.on_join_prepare(env.time.timer(0), -1, "")
    assert _coordinator_metric(env, "partition-lost-latency-max") == 9.0
