"""A GroupCoordinator for unit tests, after the set-up of Kafka 2.8's GroupCoordinatorTest.scala.

The coordinator runs with the real GroupMetadataManager. Its ReplicaManager is a fake that answers every append at
once (as the Scala test's mock does), its purgatories share one MockTimer, and the manager runs on a MockScheduler:
nothing runs on another thread, and time moves only when a test advances the timer. Responses are caught by
`Promise` callbacks, which a test reads right after the call (or after advancing the clock).

The offsets topic has two partitions; the coordinator owns the one of GROUP_ID, and OTHER_GROUP_ID maps to the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kafka.common.internals.topic import Topic
from kafka.common.message import LeaveGroupRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import MAGIC_VALUE_V2
from kafka.common.requests.join_group_request import UNKNOWN_GENERATION_ID, UNKNOWN_MEMBER_ID
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.coordinator.group.delayed_heartbeat import DelayedHeartbeat
from kafka.coordinator.group.delayed_rebalance import DelayedRebalance
from kafka.coordinator.group.group_coordinator import (
    GroupConfig,
    GroupCoordinator,
    JoinGroupResult,
    LeaveGroupResult,
    SyncGroupResult,
)
from kafka.coordinator.group.group_metadata import (
    CompletingRebalance,
    GroupMetadata,
    GroupState,
    PreparingRebalance,
    Stable,
)
from kafka.coordinator.group.group_metadata_manager import GroupMetadataManager
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.server.delayed_operation import DelayedOperationPurgatory
from kafka.server.kafka_config import KafkaConfig
from kafka.utils.mock_scheduler import MockScheduler
from kafka.utils.timer.mock_timer import MockTimer

T = TypeVar("T")

GROUP_MIN_SESSION_TIMEOUT = 10
GROUP_MAX_SESSION_TIMEOUT = 10 * 60 * 1000
GROUP_MAX_SIZE = 4
DEFAULT_REBALANCE_TIMEOUT = 500
DEFAULT_SESSION_TIMEOUT = 500
GROUP_INITIAL_REBALANCE_DELAY = 50

GROUP_ID = "groupId"
# Its offsets partition differs from GROUP_ID's, so this coordinator does not own it.
OTHER_GROUP_ID = "otherGroup"
PROTOCOL_TYPE = "consumer"
PROTOCOL_NAME = "range"
MEMBER_ID = "memberId"
GROUP_INSTANCE_ID = "groupInstanceId"
LEADER_INSTANCE_ID = "leader"
FOLLOWER_INSTANCE_ID = "follower"
INVALID_MEMBER_ID = "invalidMember"
METADATA = b""
PROTOCOLS: list[tuple[str, bytes]] = [(PROTOCOL_NAME, METADATA)]
PROTOCOL_SUPERSET: list[tuple[str, bytes]] = [(PROTOCOL_NAME, METADATA), ("roundrobin", METADATA)]
REQUIRE_STABLE = True


class Promise(Generic[T]):
    """A response callback that keeps the one answer it is given."""

    def __init__(self) -> None:
        self._value: T | None = None
        self.done = False

    def __call__(self, value: T) -> None:
        assert not self.done, f"answered twice: {self._value} then {value}"
        self._value = value
        self.done = True

    def result(self) -> T:
        assert self.done, "no answer yet"
        assert self._value is not None
        return self._value


class FakePartition:
    """The offsets partition as group deletion sees it: tombstones appended to the leader are kept."""

    def __init__(self) -> None:
        self.appended: list[MemoryRecords] = []

    def append_records_to_leader(self, records: MemoryRecords, origin: Any, required_acks: int) -> None:
        self.appended.append(records)


class FakeReplicaManager:
    """Hosts every offsets partition (with `magic`); appends succeed at once, or fail with `append_error`."""

    def __init__(self) -> None:
        self.magic: int | None = MAGIC_VALUE_V2
        self.append_error = Errors.NONE
        self.appends: list[dict[TopicPartition, MemoryRecords]] = []
        self.partitions: dict[TopicPartition, FakePartition] = {}
        self.actions_tried = 0
        self._next_offset = 0

    def get_magic(self, topic_partition: TopicPartition) -> int | None:
        return self.magic

    def append_records(
        self,
        timeout: int,
        required_acks: int,
        internal_topics_allowed: bool,
        origin: Any,
        entries_per_partition: Mapping[TopicPartition, MemoryRecords],
        response_callback: Callable[[dict[TopicPartition, PartitionResponse]], None],
        delayed_produce_lock: Any = None,
        record_conversion_stats_callback: Any = None,
    ) -> None:
        assert internal_topics_allowed
        self.appends.append(dict(entries_per_partition))
        responses = {}
        for tp in entries_per_partition:
            responses[tp] = PartitionResponse(self.append_error, self._next_offset)
            self._next_offset += 1
        response_callback(responses)

    def try_complete_actions(self) -> None:
        self.actions_tried += 1

    def online_partition(self, topic_partition: TopicPartition) -> FakePartition:
        return self.partitions.setdefault(topic_partition, FakePartition())

    def get_log(self, topic_partition: TopicPartition) -> None:
        return None

    def get_log_end_offset(self, topic_partition: TopicPartition) -> None:
        return None


@dataclass(frozen=True)
class RebalanceResult:
    """Two static members after their first rebalance: the generation, and each one's id and assignment."""

    generation: int
    leader_id: str
    leader_assignment: bytes
    follower_id: str
    follower_assignment: bytes


def broker_config(**overrides: Any) -> KafkaConfig:
    props: dict[str, Any] = {
        "zookeeper.connect": "localhost:2181",
        "broker.id": 0,
        KafkaConfig.GROUP_MIN_SESSION_TIMEOUT_MS_PROP: GROUP_MIN_SESSION_TIMEOUT,
        KafkaConfig.GROUP_MAX_SESSION_TIMEOUT_MS_PROP: GROUP_MAX_SESSION_TIMEOUT,
        KafkaConfig.GROUP_MAX_SIZE_PROP: GROUP_MAX_SIZE,
        KafkaConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_PROP: GROUP_INITIAL_REBALANCE_DELAY,
    }
    props.update(overrides)
    return KafkaConfig(props)


class CoordinatorHarness:
    """The coordinator under test and the helpers of the Scala test that drive it."""

    def __init__(self) -> None:
        self.time = MockTime()
        self.timer = MockTimer(self.time)
        self.scheduler = MockScheduler(self.time)
        self.replica_manager = FakeReplicaManager()
        config = broker_config()
        heartbeat_purgatory: DelayedOperationPurgatory[DelayedHeartbeat] = DelayedOperationPurgatory(
            "Heartbeat", self.timer, config.broker_id, reaper_enabled=False
        )
        rebalance_purgatory: DelayedOperationPurgatory[DelayedRebalance] = DelayedOperationPurgatory(
            "Rebalance", self.timer, config.broker_id, reaper_enabled=False
        )
        offset_config = GroupCoordinator.offset_config_of(config)
        group_manager = GroupMetadataManager(
            config.broker_id,
            config.inter_broker_protocol_version,
            offset_config,
            self.replica_manager,
            None,
            self.time,
            self.scheduler,
        )
        group_config = GroupConfig(
            config.group_min_session_timeout_ms,
            config.group_max_session_timeout_ms,
            config.group_max_size,
            config.group_initial_rebalance_delay,
        )
        self.coordinator = GroupCoordinator(
            config.broker_id,
            group_config,
            offset_config,
            group_manager,
            heartbeat_purgatory,
            rebalance_purgatory,
            self.time,
        )
        self.coordinator.startup(lambda: 2, enable_metadata_expiration=False)
        self.group_partition_id = self.coordinator.partition_for(GROUP_ID)
        group_manager.add_partition_ownership(self.group_partition_id)

    @property
    def group_manager(self) -> GroupMetadataManager:
        return self.coordinator.group_manager

    def shutdown(self) -> None:
        self.coordinator.shutdown()

    def advance(self, ms: int) -> None:
        self.timer.advance_clock(ms)

    # -- groups

    def group(self, group_id: str = GROUP_ID) -> GroupMetadata:
        group = self.group_manager.get_group(group_id)
        assert group is not None, f"group {group_id} not found"
        return group

    def assert_group_state(self, state: GroupState, group_id: str = GROUP_ID) -> None:
        assert self.group(group_id).current_state == state

    def offset_and_metadata(self, offset: int) -> OffsetAndMetadata:
        return OffsetAndMetadata.create(offset, "", self.time.milliseconds())

    # -- JoinGroup

    def send_join_group(
        self,
        group_id: str,
        member_id: str,
        protocol_type: str,
        protocols: list[tuple[str, bytes]],
        group_instance_id: str | None = None,
        session_timeout: int = DEFAULT_SESSION_TIMEOUT,
        rebalance_timeout: int = DEFAULT_REBALANCE_TIMEOUT,
        require_known_member_id: bool = False,
        support_skipping_assignment: bool = False,
    ) -> Promise[JoinGroupResult]:
        promise: Promise[JoinGroupResult] = Promise()
        self.coordinator.handle_join_group(
            group_id,
            member_id,
            group_instance_id,
            require_known_member_id,
            "clientId",
            "clientHost",
            rebalance_timeout,
            session_timeout,
            protocol_type,
            protocols,
            promise,
            support_skipping_assignment,
        )
        return promise

    def dynamic_join_group(
        self,
        group_id: str,
        member_id: str,
        protocol_type: str,
        protocols: list[tuple[str, bytes]],
        session_timeout: int = DEFAULT_SESSION_TIMEOUT,
        rebalance_timeout: int = DEFAULT_REBALANCE_TIMEOUT,
    ) -> JoinGroupResult:
        """A dynamic member joins with KIP-394's two steps (MEMBER_ID_REQUIRED, then the given id)."""
        promise = self.send_join_group(
            group_id, member_id, protocol_type, protocols, None, session_timeout, rebalance_timeout, True
        )
        if member_id == UNKNOWN_MEMBER_ID:
            first = promise.result()
            if first.error is not Errors.MEMBER_ID_REQUIRED:
                return first
            promise = self.send_join_group(
                group_id, first.member_id, protocol_type, protocols, None, session_timeout, rebalance_timeout, True
            )
        self.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
        return promise.result()

    def static_join_group(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        protocol_type: str,
        protocols: list[tuple[str, bytes]],
        clock_advance: int = GROUP_INITIAL_REBALANCE_DELAY + 1,
        session_timeout: int = DEFAULT_SESSION_TIMEOUT,
        rebalance_timeout: int = DEFAULT_REBALANCE_TIMEOUT,
    ) -> JoinGroupResult:
        promise = self.send_join_group(
            group_id, member_id, protocol_type, protocols, group_instance_id, session_timeout, rebalance_timeout
        )
        self.advance(clock_advance)
        return promise.result()

    def static_join_group_with_persistence(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        protocol_type: str,
        protocols: list[tuple[str, bytes]],
        clock_advance: int,
        append_record_error: Errors = Errors.NONE,
    ) -> JoinGroupResult:
        """A static join whose write of the group (if any) ends with `append_record_error`."""
        self.replica_manager.append_error = append_record_error
        try:
            promise = self.send_join_group(group_id, member_id, protocol_type, protocols, group_instance_id)
        finally:
            self.replica_manager.append_error = Errors.NONE
        self.advance(clock_advance)
        return promise.result()

    # -- SyncGroup

    def send_sync_group(
        self,
        group_id: str,
        generation: int,
        member_id: str,
        assignment: Mapping[str, bytes],
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        group_instance_id: str | None = None,
    ) -> Promise[SyncGroupResult]:
        promise: Promise[SyncGroupResult] = Promise()
        self.coordinator.handle_sync_group(
            group_id, generation, member_id, protocol_type, protocol_name, group_instance_id, assignment, promise
        )
        return promise

    def sync_group_leader(
        self,
        group_id: str,
        generation: int,
        member_id: str,
        assignment: Mapping[str, bytes],
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        group_instance_id: str | None = None,
    ) -> SyncGroupResult:
        return self.send_sync_group(
            group_id, generation, member_id, assignment, protocol_type, protocol_name, group_instance_id
        ).result()

    def sync_group_follower(
        self,
        group_id: str,
        generation: int,
        member_id: str,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        group_instance_id: str | None = None,
    ) -> SyncGroupResult:
        return self.send_sync_group(
            group_id, generation, member_id, {}, protocol_type, protocol_name, group_instance_id
        ).result()

    # -- Heartbeat, commits, LeaveGroup

    def heartbeat(
        self, group_id: str, member_id: str, generation_id: int, group_instance_id: str | None = None
    ) -> Errors:
        promise: Promise[Errors] = Promise()
        self.coordinator.handle_heartbeat(group_id, member_id, group_instance_id, generation_id, promise)
        return promise.result()

    def commit_offsets(
        self,
        group_id: str,
        member_id: str,
        generation_id: int,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        group_instance_id: str | None = None,
    ) -> dict[TopicPartition, Errors]:
        promise: Promise[dict[TopicPartition, Errors]] = Promise()
        self.coordinator.handle_commit_offsets(group_id, member_id, group_instance_id, generation_id, offsets, promise)
        return promise.result()

    def commit_transactional_offsets(
        self,
        group_id: str,
        producer_id: int,
        producer_epoch: int,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        member_id: str = UNKNOWN_MEMBER_ID,
        group_instance_id: str | None = None,
        generation_id: int = UNKNOWN_GENERATION_ID,
    ) -> dict[TopicPartition, Errors]:
        promise: Promise[dict[TopicPartition, Errors]] = Promise()
        self.coordinator.handle_txn_commit_offsets(
            group_id, producer_id, producer_epoch, member_id, group_instance_id, generation_id, offsets, promise
        )
        return promise.result()

    def handle_txn_completion(
        self, producer_id: int, offsets_partitions: list[TopicPartition], is_commit: bool
    ) -> None:
        self.group_manager.handle_txn_completion(producer_id, {tp.partition for tp in offsets_partitions}, is_commit)

    def offsets_partition(self, group_id: str = GROUP_ID) -> TopicPartition:
        return TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, self.coordinator.partition_for(group_id))

    def single_leave_group(
        self, group_id: str, member_id: str, group_instance_id: str | None = None
    ) -> LeaveGroupResult:
        return self.batch_leave_group(group_id, [member_identity(member_id, group_instance_id)])

    def batch_leave_group(self, group_id: str, members: list[Any]) -> LeaveGroupResult:
        promise: Promise[LeaveGroupResult] = Promise()
        self.coordinator.handle_leave_group(group_id, members, promise)
        return promise.result()

    # -- composite scenarios

    def static_members_join_and_rebalance(
        self,
        leader_instance_id: str,
        follower_instance_id: str,
        session_timeout: int = DEFAULT_SESSION_TIMEOUT,
    ) -> RebalanceResult:
        """Two static members join a new group and sync: generation 1, Stable."""
        leader_promise = self.send_join_group(
            GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, leader_instance_id, session_timeout
        )
        follower_promise = self.send_join_group(
            GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, follower_instance_id, session_timeout
        )
        # The first advance ends the initial delay (a new member came meanwhile, so it waits once more); the
        # second ends that extra wait.
        self.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
        self.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
        leader_join = leader_promise.result()
        assert leader_join.error is Errors.NONE and leader_join.generation_id == 1
        follower_join = follower_promise.result()
        assert follower_join.error is Errors.NONE and follower_join.generation_id == 1

        leader_id = leader_join.member_id
        leader_sync = self.sync_group_leader(GROUP_ID, leader_join.generation_id, leader_id, {leader_id: b""})
        assert leader_sync.error is Errors.NONE
        follower_id = follower_join.member_id
        follower_sync = self.sync_group_follower(GROUP_ID, leader_join.generation_id, follower_id)
        assert follower_sync.error is Errors.NONE
        assert self.group().current_state == Stable()
        return RebalanceResult(
            1, leader_id, leader_sync.member_assignment, follower_id, follower_sync.member_assignment
        )

    def join_with_n_members(self, nb_members: int) -> list[JoinGroupResult]:
        """`nb_members` dynamic members join a new group together (KIP-394 handshake included)."""
        first = [
            self.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
            for _ in range(nb_members)
        ]
        member_ids = [p.result().member_id for p in first]
        second = [
            self.send_join_group(GROUP_ID, m, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
            for m in member_ids
        ]
        self.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
        self.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
        return [p.result() for p in second]

    def setup_group_with_pending_member(self) -> JoinGroupResult:
        """Two dynamic members in a group that is PreparingRebalance, plus a pending third one (session 100 ms)."""
        join1 = self.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
        self.assert_group_state(CompletingRebalance())
        sync1 = self.sync_group_leader(GROUP_ID, join1.generation_id, join1.member_id, {join1.member_id: b""})
        assert sync1.error is Errors.NONE
        self.assert_group_state(Stable())

        second_join = self.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
        first_join = self.send_join_group(GROUP_ID, join1.member_id, PROTOCOL_TYPE, PROTOCOLS)
        first_result = first_join.result()
        second_result = second_join.result()
        self.assert_group_state(CompletingRebalance())

        sync2 = self.sync_group_leader(GROUP_ID, first_result.generation_id, join1.member_id, {join1.member_id: b""})
        assert sync2.error is Errors.NONE
        self.assert_group_state(Stable())

        self.send_join_group(GROUP_ID, first_result.member_id, PROTOCOL_TYPE, PROTOCOLS)
        self.assert_group_state(PreparingRebalance())

        pending = self.send_join_group(
            GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, session_timeout=100, require_known_member_id=True
        ).result()
        assert self.group().num_pending == 1

        self.send_join_group(GROUP_ID, second_result.member_id, PROTOCOL_TYPE, PROTOCOLS)
        self.assert_group_state(PreparingRebalance())
        assert self.group().num_pending == 1
        return pending


def member_identity(member_id: str = UNKNOWN_MEMBER_ID, group_instance_id: str | None = None) -> Any:
    return LeaveGroupRequestData.MemberIdentity(member_id=member_id, group_instance_id=group_instance_id)


def check_join_group_result(
    harness: CoordinatorHarness,
    result: JoinGroupResult,
    expected_error: Errors,
    expected_generation: int,
    expected_group_instance_ids: set[str | None],
    expected_group_state: GroupState,
    expected_protocol_type: str | None,
    expected_leader_id: str = UNKNOWN_MEMBER_ID,
    expected_member_id: str = UNKNOWN_MEMBER_ID,
) -> None:
    """Kafka's checkJoinGroupResult: error, generation, the instance ids the (leader's) member list names, the
    group's state, protocol type and, when given, the leader and member ids."""
    assert result.error is expected_error
    assert result.generation_id == expected_generation
    assert len(result.members) == len(expected_group_instance_ids)
    assert {m.group_instance_id for m in result.members} == expected_group_instance_ids
    harness.assert_group_state(expected_group_state)
    assert result.protocol_type == expected_protocol_type
    if expected_leader_id != UNKNOWN_MEMBER_ID:
        assert result.leader_id == expected_leader_id
    if expected_member_id != UNKNOWN_MEMBER_ID:
        assert result.member_id == expected_member_id


def verify_leave_group_result(
    result: LeaveGroupResult,
    expected_top_level_error: Errors = Errors.NONE,
    expected_member_level_errors: list[Errors] | None = None,
) -> None:
    assert result.top_level_error is expected_top_level_error
    if expected_member_level_errors:
        assert [r.error for r in result.member_responses] == expected_member_level_errors
