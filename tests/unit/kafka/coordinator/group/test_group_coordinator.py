"""Tests of kafka.coordinator.group.group_coordinator, after Kafka 2.8's GroupCoordinatorTest.scala.

The coordinator runs with the real GroupMetadataManager over a fake ReplicaManager (see coordinator_harness.py);
expirations happen when a test advances the MockTimer that both purgatories share.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from kafka.common.internals.topic import Topic
from kafka.common.message import ConsumerProtocolSubscriptionData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.join_group_request import UNKNOWN_MEMBER_ID
from kafka.common.requests.offset_fetch_response import INVALID_OFFSET
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.coordinator.group.group_coordinator import GroupCoordinator, JoinGroupResult
from kafka.coordinator.group.group_metadata import (
    CompletingRebalance,
    Dead,
    Empty,
    GroupMetadata,
    GroupOverview,
    PreparingRebalance,
    Stable,
)
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.coordinator.group.member_metadata import MemberMetadata
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.log.log_config import LogConfig
from tests.unit.kafka.coordinator.group.coordinator_harness import (
    DEFAULT_REBALANCE_TIMEOUT,
    DEFAULT_SESSION_TIMEOUT,
    FOLLOWER_INSTANCE_ID,
    GROUP_ID,
    GROUP_INITIAL_REBALANCE_DELAY,
    GROUP_INSTANCE_ID,
    GROUP_MAX_SESSION_TIMEOUT,
    GROUP_MAX_SIZE,
    GROUP_MIN_SESSION_TIMEOUT,
    INVALID_MEMBER_ID,
    LEADER_INSTANCE_ID,
    MEMBER_ID,
    METADATA,
    OTHER_GROUP_ID,
    PROTOCOL_NAME,
    PROTOCOL_SUPERSET,
    PROTOCOL_TYPE,
    PROTOCOLS,
    REQUIRE_STABLE,
    CoordinatorHarness,
    FakeReplicaManager,
    broker_config,
    check_join_group_result,
    member_identity,
    verify_leave_group_result,
)

CLIENT_ID = "consumer-test"
CLIENT_HOST = "localhost"


@pytest.fixture
def h() -> Iterator[CoordinatorHarness]:
    harness = CoordinatorHarness()
    yield harness
    harness.shutdown()


def _subscription(*topics: str) -> bytes:
    """ConsumerProtocol.serializeSubscription: the version (0) then the subscription."""
    return b"\x00\x00" + ConsumerProtocolSubscriptionData(topics=list(topics)).write(0)


def _join_and_sync_single_member(h: CoordinatorHarness, **kwargs: int) -> JoinGroupResult:
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, **kwargs)
    assert join.error is Errors.NONE
    sync = h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {join.member_id: b""})
    assert sync.error is Errors.NONE
    return join


def _two_member_group(h: CoordinatorHarness) -> tuple[JoinGroupResult, JoinGroupResult]:
    """A Stable single-member group that a second member joins: both in generation 2, CompletingRebalance."""
    first = _join_and_sync_single_member(h)
    other_join = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    join = h.send_join_group(GROUP_ID, first.member_id, PROTOCOL_TYPE, PROTOCOLS)
    join_result, other_result = join.result(), other_join.result()
    assert join_result.error is Errors.NONE and other_result.error is Errors.NONE
    assert join_result.generation_id == other_result.generation_id
    assert join_result.leader_id == first.member_id and other_result.leader_id == first.member_id
    return join_result, other_result


# ---- loading, ownership, configuration -----------------------------------------------------------------------


def test_request_handling_while_loading_in_progress(h: CoordinatorHarness) -> None:
    """While a group's partition loads, its requests answer COORDINATOR_LOAD_IN_PROGRESS (sync: REBALANCE_IN_PROGRESS,
    heartbeat: NONE); other groups are served, and the group is served once the load ends."""
    other_partition = h.group_manager.partition_for(OTHER_GROUP_ID)
    assert other_partition != h.group_partition_id
    h.group_manager.add_loading_partition(other_partition)
    assert h.group_manager.is_group_loading(OTHER_GROUP_ID)

    join = h.send_join_group(OTHER_GROUP_ID, MEMBER_ID, "consumer", [("range", b"")], require_known_member_id=True)
    assert join.result().error is Errors.COORDINATOR_LOAD_IN_PROGRESS
    static_join = h.send_join_group(OTHER_GROUP_ID, MEMBER_ID, "consumer", [("range", b"")], GROUP_INSTANCE_ID)
    assert static_join.result().error is Errors.COORDINATOR_LOAD_IN_PROGRESS
    sync = h.send_sync_group(OTHER_GROUP_ID, 1, MEMBER_ID, {}, "consumer", "range")
    assert sync.result().error is Errors.REBALANCE_IN_PROGRESS
    tp = TopicPartition("foo", 0)
    commit = h.commit_offsets(OTHER_GROUP_ID, MEMBER_ID, 1, {tp: h.offset_and_metadata(15)})
    assert commit == {tp: Errors.COORDINATOR_LOAD_IN_PROGRESS}
    assert h.heartbeat(OTHER_GROUP_ID, MEMBER_ID, 1) is Errors.NONE
    assert h.coordinator.handle_describe_group(OTHER_GROUP_ID)[0] is Errors.COORDINATOR_LOAD_IN_PROGRESS
    assert h.coordinator.handle_list_groups(set())[0] is Errors.COORDINATOR_LOAD_IN_PROGRESS
    assert h.coordinator.handle_delete_groups({OTHER_GROUP_ID}) == {OTHER_GROUP_ID: Errors.COORDINATOR_LOAD_IN_PROGRESS}
    assert h.coordinator.handle_describe_group(GROUP_ID)[0] is Errors.NONE

    offsets_tp = TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, other_partition)
    h.group_manager.remove_groups_and_offsets(offsets_tp, 1, lambda g: None)
    h.group_manager.load_groups_and_offsets(offsets_tp, 1, lambda g: None, 0)
    assert h.coordinator.handle_describe_group(OTHER_GROUP_ID)[0] is Errors.NONE


def test_offsets_retention_ms_integer_overflow() -> None:
    """offsets.retention.minutes at Integer.MAX_VALUE becomes its exact value in milliseconds."""
    config = broker_config(**{"offsets.retention.minutes": 2**31 - 1})
    assert GroupCoordinator.offset_config_of(config).offsets_retention_ms == (2**31 - 1) * 60 * 1000


def test_offsets_topic_configs(h: CoordinatorHarness) -> None:
    """__consumer_offsets is created compacted, with offsets.topic.segment.bytes and producer compression."""
    assert h.coordinator.offsets_topic_configs() == {
        LogConfig.CLEANUP_POLICY_PROP: "compact",
        LogConfig.SEGMENT_BYTES_PROP: str(100 * 1024 * 1024),
        LogConfig.COMPRESSION_TYPE_PROP: "producer",
    }


def test_apply_builds_coordinator_with_named_purgatories() -> None:
    """apply() wires the config's group settings and starts "Heartbeat" and "Rebalance" reapers named as Kafka's;
    shutdown stops them."""
    config = broker_config(**{"broker.id": 7})
    replica_manager: Any = FakeReplicaManager()
    coordinator = GroupCoordinator.apply(config, None, replica_manager, MockTime())
    try:
        assert coordinator.group_config.group_max_size == GROUP_MAX_SIZE
        assert coordinator.group_config.group_min_session_timeout_ms == GROUP_MIN_SESSION_TIMEOUT
        assert coordinator.group_config.group_initial_rebalance_delay_ms == GROUP_INITIAL_REBALANCE_DELAY
        assert coordinator.heartbeat_purgatory.purgatory_name == "Heartbeat"
        assert coordinator.rebalance_purgatory.purgatory_name == "Rebalance"
        names = {t.name for t in threading.enumerate()}
        assert {"ExpirationReaper-7-Heartbeat", "ExpirationReaper-7-Rebalance"} <= names
        coordinator.startup(lambda: 3, enable_metadata_expiration=False)
        assert coordinator.is_active
    finally:
        coordinator.shutdown()
    assert not coordinator.is_active


def test_inactive_coordinator_answers_coordinator_not_available(h: CoordinatorHarness) -> None:
    """After shutdown every API answers COORDINATOR_NOT_AVAILABLE."""
    h.shutdown()
    join = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert join.result().error is Errors.COORDINATOR_NOT_AVAILABLE
    assert h.coordinator.handle_list_groups(set()) == (Errors.COORDINATOR_NOT_AVAILABLE, [])
    assert h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE) == (Errors.COORDINATOR_NOT_AVAILABLE, {})


def test_election_loads_partition_and_resignation_unloads_it(h: CoordinatorHarness) -> None:
    """on_election makes the coordinator own the partition (after loading it); on_resignation drops its groups and
    answers members parked in JoinGroup with NOT_COORDINATOR."""
    other_partition = h.coordinator.partition_for(OTHER_GROUP_ID)
    assert h.coordinator.validate_group_status(OTHER_GROUP_ID, ApiKeys.JOIN_GROUP) is Errors.NOT_COORDINATOR
    h.coordinator.on_election(other_partition, 1)
    assert h.coordinator.is_coordinator_for_group(OTHER_GROUP_ID)

    parked = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert not parked.done
    group = h.group()
    h.coordinator.on_resignation(h.group_partition_id, 1)
    assert parked.result().error is Errors.NOT_COORDINATOR
    assert group.is_(Dead())
    assert h.group_manager.get_group(GROUP_ID) is None
    assert h.heartbeat(GROUP_ID, MEMBER_ID, 1) is Errors.NOT_COORDINATOR


def test_group_loaded_over_capacity_rebalances(h: CoordinatorHarness) -> None:
    """A loaded Stable group with more members than group.max.size goes to PreparingRebalance at once."""
    group = GroupMetadata(GROUP_ID, Empty(), h.time)
    for i in range(GROUP_MAX_SIZE + 1):
        group.add(MemberMetadata(f"m{i}", None, CLIENT_ID, CLIENT_HOST, 500, 500, PROTOCOL_TYPE, PROTOCOLS))
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    group.transition_to(Stable())
    h.group_manager.add_group(group)
    h.coordinator.on_group_loaded(group)
    assert group.is_(PreparingRebalance())


# ---- JoinGroup -----------------------------------------------------------------------------------------------


def test_join_group_wrong_coordinator(h: CoordinatorHarness) -> None:
    """A group of a partition this broker does not lead: NOT_COORDINATOR, dynamic or static."""
    assert h.dynamic_join_group(OTHER_GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS).error is (
        Errors.NOT_COORDINATOR
    )
    result = h.static_join_group(OTHER_GROUP_ID, UNKNOWN_MEMBER_ID, GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert result.error is Errors.NOT_COORDINATOR


def test_join_group_should_receive_error_if_group_over_max_size(h: CoordinatorHarness) -> None:
    """group.max.size members get in; the next one gets GROUP_MAX_SIZE_REACHED."""
    rebalance_timeout = GROUP_INITIAL_REBALANCE_DELAY * 2
    promises = []
    for i in range(1, GROUP_MAX_SIZE + 1):
        promises.append(
            h.send_join_group(
                GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, rebalance_timeout=rebalance_timeout
            )
        )
        if i != 1:
            h.advance(GROUP_INITIAL_REBALANCE_DELAY)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    assert [p.result().error for p in promises] == [Errors.NONE] * GROUP_MAX_SIZE

    error = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, rebalance_timeout=rebalance_timeout
    )
    assert error.result().error is Errors.GROUP_MAX_SIZE_REACHED


def test_dynamic_members_join_group_with_max_size_and_required_known_member(h: CoordinatorHarness) -> None:
    """With KIP-394, one member too many is turned away in the join phase, and again when it rejoins."""
    nb_members = GROUP_MAX_SIZE + 1
    first = [
        h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
        for _ in range(nb_members)
    ]
    member_ids = [p.result().member_id for p in first]
    second = [
        h.send_join_group(GROUP_ID, m, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True) for m in member_ids
    ]
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    errors = [p.result().error for p in second]
    assert errors.count(Errors.NONE) == GROUP_MAX_SIZE
    assert errors.count(Errors.GROUP_MAX_SIZE_REACHED) == nb_members - GROUP_MAX_SIZE

    rejoin = [
        h.send_join_group(GROUP_ID, m, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True) for m in member_ids
    ]
    assert [p.result().error for p in rejoin] == errors


def test_static_members_join_group_with_max_size(h: CoordinatorHarness) -> None:
    """Static members are held to group.max.size too, in the join phase and when rejoining."""
    instance_ids = [f"instance-id-{i}" for i in range(1, GROUP_MAX_SIZE + 2)]
    promises = [h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, i) for i in instance_ids]
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    results = [p.result() for p in promises]
    errors = [r.error for r in results]
    assert errors.count(Errors.NONE) == GROUP_MAX_SIZE
    assert errors.count(Errors.GROUP_MAX_SIZE_REACHED) == 1

    rejoin = [
        h.send_join_group(GROUP_ID, r.member_id, PROTOCOL_TYPE, PROTOCOLS, i)
        for i, r in zip(instance_ids, results, strict=True)
    ]
    assert [p.result().error for p in rejoin] == errors


def test_dynamic_members_can_rejoin_group_with_max_size_while_rebalancing(h: CoordinatorHarness) -> None:
    """Members that already rejoined may rejoin again during the rebalance; only the extra one is refused."""
    nb_members = GROUP_MAX_SIZE + 1
    first = [
        h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
        for _ in range(nb_members)
    ]
    member_ids = [p.result().member_id for p in first]
    for m in member_ids:
        h.send_join_group(GROUP_ID, m, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
    again = [h.send_join_group(GROUP_ID, m, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True) for m in member_ids]
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    errors = [p.result().error for p in again]
    assert errors.count(Errors.NONE) == GROUP_MAX_SIZE
    assert errors.count(Errors.GROUP_MAX_SIZE_REACHED) == nb_members - GROUP_MAX_SIZE


def test_last_joining_members_are_kicked_out_when_rejoining_group_with_max_size(h: CoordinatorHarness) -> None:
    """A group above group.max.size keeps the first members to rejoin and removes the rest."""
    nb_members = GROUP_MAX_SIZE + 2
    group = GroupMetadata(GROUP_ID, Stable(), MockTime())
    member_ids = [group.generate_member_id(CLIENT_ID, None) for _ in range(nb_members)]
    for member_id in member_ids:
        group.add(
            MemberMetadata(
                member_id,
                None,
                CLIENT_ID,
                CLIENT_HOST,
                DEFAULT_REBALANCE_TIMEOUT,
                GROUP_MAX_SESSION_TIMEOUT,
                PROTOCOL_TYPE,
                PROTOCOLS,
            )
        )
    h.group_manager.add_group(group)
    h.coordinator.prepare_rebalance(group, "")

    promises = [
        h.send_join_group(GROUP_ID, m, PROTOCOL_TYPE, PROTOCOLS, None, GROUP_MAX_SESSION_TIMEOUT) for m in member_ids
    ]
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    errors = [p.result().error for p in promises]
    assert set(errors[:GROUP_MAX_SIZE]) == {Errors.NONE}
    assert set(errors[GROUP_MAX_SIZE:]) == {Errors.GROUP_MAX_SIZE_REACHED}
    assert not any(group.has(m) for m in member_ids[GROUP_MAX_SIZE:])


@pytest.mark.parametrize("session_timeout", [GROUP_MIN_SESSION_TIMEOUT - 1, GROUP_MAX_SESSION_TIMEOUT + 1])
def test_join_group_session_timeout_out_of_bounds(h: CoordinatorHarness, session_timeout: int) -> None:
    """A session timeout outside group.min/max.session.timeout.ms is INVALID_SESSION_TIMEOUT."""
    result = h.dynamic_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, session_timeout=session_timeout
    )
    assert result.error is Errors.INVALID_SESSION_TIMEOUT


def test_join_group_unknown_consumer_new_group(h: CoordinatorHarness) -> None:
    """A member id for a group that does not exist is UNKNOWN_MEMBER_ID (and the group is not created)."""
    assert h.dynamic_join_group(GROUP_ID, MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS).error is Errors.UNKNOWN_MEMBER_ID
    result = h.static_join_group(GROUP_ID, MEMBER_ID, GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert result.error is Errors.UNKNOWN_MEMBER_ID
    assert h.group_manager.get_group(GROUP_ID) is None


def test_invalid_group_id(h: CoordinatorHarness) -> None:
    """JoinGroup with the empty group id is INVALID_GROUP_ID."""
    assert h.dynamic_join_group("", UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS).error is Errors.INVALID_GROUP_ID


def test_valid_join_group(h: CoordinatorHarness, caplog: pytest.LogCaptureFixture) -> None:
    """A lone member joins: generation 1, it leads, and the coordinator logs Kafka's rebalance lines."""
    caplog.set_level(logging.INFO, logger="kafka.coordinator.group.GroupCoordinator")
    result = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert result.error is Errors.NONE
    assert result.generation_id == 1
    assert result.leader_id == result.member_id
    assert result.protocol_name == PROTOCOL_NAME
    assert [m.member_id for m in result.members] == [result.member_id]
    messages = [r.getMessage() for r in caplog.records]
    partition = f"{Topic.GROUP_METADATA_TOPIC_NAME}-{h.group_partition_id}"
    assert any(
        m.startswith(
            f"[GroupCoordinator 0]: Preparing to rebalance group {GROUP_ID} in state PreparingRebalance with old "
            f"generation 0 ({partition}) (reason: Adding new member {result.member_id} with group instance id None)"
        )
        for m in messages
    )
    assert f"[GroupCoordinator 0]: Stabilized group {GROUP_ID} generation 1 ({partition}) with 1 members" in messages


def test_join_group_inconsistent_protocol_type(h: CoordinatorHarness) -> None:
    """A second member with another protocol type is INCONSISTENT_GROUP_PROTOCOL."""
    assert h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS).error is Errors.NONE
    other = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, "connect", PROTOCOLS)
    assert other.result().error is Errors.INCONSISTENT_GROUP_PROTOCOL


def test_join_group_with_empty_protocol_type_or_protocols(h: CoordinatorHarness) -> None:
    """An empty protocol type, or no protocols, is INCONSISTENT_GROUP_PROTOCOL."""
    assert h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, "", PROTOCOLS).error is Errors.INCONSISTENT_GROUP_PROTOCOL
    result = h.static_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, GROUP_INSTANCE_ID, "", PROTOCOLS)
    assert result.error is Errors.INCONSISTENT_GROUP_PROTOCOL
    assert h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, []).error is (
        Errors.INCONSISTENT_GROUP_PROTOCOL
    )


def test_new_member_timeout_completion(h: CoordinatorHarness) -> None:
    """Once a new member has joined, the new-member join timeout no longer applies: its session timeout does."""
    session_timeout = GroupCoordinator.NEW_MEMBER_JOIN_TIMEOUT_MS + 5000
    promise = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, None, session_timeout)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    join = promise.result()
    group = h.group()
    assert join.error is Errors.NONE
    assert not any(m.is_new for m in group.all_member_metadata)

    sync = h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {join.member_id: b""})
    assert sync.error is Errors.NONE
    assert group.size == 1
    h.advance(GroupCoordinator.NEW_MEMBER_JOIN_TIMEOUT_MS + 100)
    assert group.size == 1
    h.advance(session_timeout + 100)
    assert group.size == 0


def test_new_member_join_expiration(h: CoordinatorHarness) -> None:
    """A new member parked in a long rebalance is answered UNKNOWN_MEMBER_ID and removed after the new-member join
    timeout."""
    session_timeout = GroupCoordinator.NEW_MEMBER_JOIN_TIMEOUT_MS + 5000
    rebalance_timeout = GroupCoordinator.NEW_MEMBER_JOIN_TIMEOUT_MS * 2
    first = h.dynamic_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, session_timeout, rebalance_timeout
    )
    assert first.error is Errors.NONE and first.leader_id == first.member_id
    group = h.group()
    assert not any(m.is_new for m in group.all_member_metadata)

    promise = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, None, session_timeout, rebalance_timeout
    )
    assert not promise.done
    assert group.size == 2
    new_member = next(m for m in group.all_member_metadata if m.is_new)
    assert new_member.member_id != first.member_id

    h.advance(GroupCoordinator.NEW_MEMBER_JOIN_TIMEOUT_MS + 1)
    assert promise.result().error is Errors.UNKNOWN_MEMBER_ID
    assert group.all_members == {first.member_id}
    assert not any(m.is_new for m in group.all_member_metadata)


def test_new_member_failure_after_join_group_completion(h: CoordinatorHarness) -> None:
    """After the join phase, members that stop heartbeating are removed at their session timeout: the group ends
    Empty."""
    _two_member_group(h)
    h.advance(DEFAULT_SESSION_TIMEOUT + 1)
    group = h.group()
    assert group.current_state == Empty()
    assert not group.all_members


def test_join_group_inconsistent_group_protocol(h: CoordinatorHarness) -> None:
    """A member sharing no protocol with the group being formed is INCONSISTENT_GROUP_PROTOCOL."""
    promise = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, [("range", METADATA)])
    other = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, [("roundrobin", METADATA)])
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    assert promise.result().error is Errors.NONE
    assert other.error is Errors.INCONSISTENT_GROUP_PROTOCOL


def test_join_group_unknown_consumer_existing_group(h: CoordinatorHarness) -> None:
    """A member id the group does not know is UNKNOWN_MEMBER_ID."""
    assert h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS).error is Errors.NONE
    other = h.send_join_group(GROUP_ID, "memberId", PROTOCOL_TYPE, PROTOCOLS)
    assert other.result().error is Errors.UNKNOWN_MEMBER_ID


def test_join_and_sync_dead_group(h: CoordinatorHarness) -> None:
    """A Dead group (being removed) answers JoinGroup and SyncGroup with COORDINATOR_NOT_AVAILABLE."""
    h.group_manager.add_group(GroupMetadata("deadGroupId", Dead(), MockTime()))
    result = h.dynamic_join_group("deadGroupId", UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert result.error is Errors.COORDINATOR_NOT_AVAILABLE
    assert h.sync_group_follower("deadGroupId", 1, "memberId").error is Errors.COORDINATOR_NOT_AVAILABLE


def test_join_group_second_join_inconsistent_protocol(h: CoordinatorHarness) -> None:
    """KIP-394: MEMBER_ID_REQUIRED gives an id; rejoining with it but no protocols is refused, with protocols
    accepted."""
    first = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
    result = first.result()
    assert result.error is Errors.MEMBER_ID_REQUIRED
    assert result.member_id.startswith("clientId-")
    assert h.group().is_pending_member(result.member_id)

    refused = h.send_join_group(GROUP_ID, result.member_id, PROTOCOL_TYPE, [], require_known_member_id=True)
    assert refused.result().error is Errors.INCONSISTENT_GROUP_PROTOCOL

    accepted = h.send_join_group(GROUP_ID, result.member_id, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    assert accepted.result().error is Errors.NONE
    assert accepted.result().member_id == result.member_id


def test_join_group_protocol_type_not_provided_on_error(h: CoordinatorHarness) -> None:
    """An error result carries no protocol type."""
    result = h.send_join_group(GROUP_ID, "fake-id", PROTOCOL_TYPE, PROTOCOL_SUPERSET, LEADER_INSTANCE_ID).result()
    assert result.error is Errors.UNKNOWN_MEMBER_ID
    assert result.protocol_type is None


def test_join_group_returns_the_protocol_type(h: CoordinatorHarness) -> None:
    """Successful results carry the group's protocol type."""
    leader = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, LEADER_INSTANCE_ID)
    follower = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, FOLLOWER_INSTANCE_ID)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    assert leader.result().error is Errors.NONE and leader.result().protocol_type == PROTOCOL_TYPE
    assert follower.result().error is Errors.NONE and follower.result().protocol_type == PROTOCOL_TYPE


def test_join_group_from_unchanged_follower_does_not_rebalance(h: CoordinatorHarness) -> None:
    """A follower rejoining with the same metadata gets the current generation back."""
    join_result, other_result = _two_member_group(h)
    follower = h.send_join_group(GROUP_ID, other_result.member_id, PROTOCOL_TYPE, PROTOCOLS).result()
    assert follower.error is Errors.NONE
    assert follower.generation_id == join_result.generation_id


def test_join_group_from_unchanged_leader_should_rebalance(h: CoordinatorHarness) -> None:
    """The leader rejoining a Stable group starts a new generation."""
    first = _join_and_sync_single_member(h)
    second = h.send_join_group(GROUP_ID, first.member_id, PROTOCOL_TYPE, PROTOCOLS).result()
    assert second.error is Errors.NONE
    assert second.generation_id == first.generation_id + 1


def test_generation_id_increments_on_rebalance(h: CoordinatorHarness) -> None:
    """Each rebalance adds one to the generation."""
    join = _join_and_sync_single_member(h)
    assert join.generation_id == 1
    again = h.send_join_group(GROUP_ID, join.member_id, PROTOCOL_TYPE, PROTOCOLS).result()
    assert again.error is Errors.NONE
    assert again.generation_id == 2


def test_second_member_partially_join_and_timeout(h: CoordinatorHarness) -> None:
    """A member that never completes KIP-394's second join is dropped from pending at its session timeout; the
    Stable group is untouched."""
    first = _join_and_sync_single_member(h)
    h.advance(100)
    group = h.group()
    assert group.all_members == {first.member_id} == group.all_dynamic_members
    assert group.num_pending == 0
    assert group.current_state == Stable()

    second = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, require_known_member_id=True)
    assert second.result().error is Errors.MEMBER_ID_REQUIRED
    assert group.num_pending == 1
    assert group.current_state == Stable()

    h.advance(300)
    assert h.heartbeat(GROUP_ID, first.member_id, 1) is Errors.NONE
    h.advance(300)
    assert group.all_members == {first.member_id}
    assert group.num_pending == 0
    assert group.current_state == Stable()


def test_join_group_completion_when_pending_member_joins(h: CoordinatorHarness) -> None:
    """The rebalance waits for a pending member; its join completes it."""
    pending = h.setup_group_with_pending_member()
    h.send_join_group(GROUP_ID, pending.member_id, PROTOCOL_TYPE, PROTOCOLS).result()
    h.assert_group_state(CompletingRebalance())
    assert h.group().size == 3
    assert h.group().num_pending == 0


def test_join_group_completion_when_pending_member_times_out(h: CoordinatorHarness) -> None:
    """The pending member's session timeout ends the wait for it: the rebalance completes without it."""
    h.setup_group_with_pending_member()
    h.advance(120)
    h.assert_group_state(CompletingRebalance())
    assert h.group().size == 2
    assert h.group().num_pending == 0


def test_pending_member_leaves_group(h: CoordinatorHarness) -> None:
    """A pending member leaving completes the rebalance without it."""
    pending = h.setup_group_with_pending_member()
    verify_leave_group_result(h.single_leave_group(GROUP_ID, pending.member_id))
    h.assert_group_state(CompletingRebalance())
    assert h.group().size == 2
    assert len(h.group().all_dynamic_members) == 2
    assert h.group().num_pending == 0


# ---- static membership (KIP-345) -----------------------------------------------------------------------------


def test_static_member_join_as_first_member(h: CoordinatorHarness) -> None:
    """A static member can create a group; its member id starts with its instance id."""
    result = h.static_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert result.error is Errors.NONE
    assert result.member_id.startswith(GROUP_INSTANCE_ID + "-")
    assert h.group().get_static_member_id(GROUP_INSTANCE_ID) == result.member_id


def test_static_member_rejoin_with_explicit_unknown_member_id(h: CoordinatorHarness) -> None:
    """A known instance id with a member id that is not its own is FENCED_INSTANCE_ID."""
    assert h.static_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS).error is (
        Errors.NONE
    )
    result = h.static_join_group(GROUP_ID, "unknown_member", GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert result.error is Errors.FENCED_INSTANCE_ID


def test_static_member_fence_duplicate_rejoined_follower(h: CoordinatorHarness) -> None:
    """A duplicate instance joining without a member id replaces the member: the old one's parked join is fenced."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    h.advance(1)
    h.assert_group_state(PreparingRebalance())

    h.advance(1)
    old_follower = h.send_join_group(
        GROUP_ID, rebalance.follower_id, PROTOCOL_TYPE, PROTOCOLS, group_instance_id=FOLLOWER_INSTANCE_ID
    )
    h.advance(1)
    duplicate = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, group_instance_id=FOLLOWER_INSTANCE_ID
    )
    h.advance(1)
    check_join_group_result(h, old_follower.result(), Errors.FENCED_INSTANCE_ID, -1, set(), PreparingRebalance(), None)
    assert not duplicate.done


def test_static_member_fence_duplicate_syncing_follower_after_member_id_changed(h: CoordinatorHarness) -> None:
    """A duplicate instance joining while the old member waits in SyncGroup fences that sync and rebalances; the
    new member id ends up leading the next generation."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    leader_join = h.send_join_group(
        GROUP_ID, rebalance.leader_id, PROTOCOL_TYPE, PROTOCOLS, group_instance_id=LEADER_INSTANCE_ID
    )
    h.advance(1)
    h.assert_group_state(PreparingRebalance())
    h.advance(1)
    old_follower_join = h.send_join_group(
        GROUP_ID, rebalance.follower_id, PROTOCOL_TYPE, PROTOCOLS, group_instance_id=FOLLOWER_INSTANCE_ID
    )
    h.advance(1)
    leader_result = leader_join.result()
    check_join_group_result(
        h,
        leader_result,
        Errors.NONE,
        rebalance.generation + 1,
        {LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID},
        CompletingRebalance(),
        PROTOCOL_TYPE,
    )
    assert leader_result.member_id == rebalance.leader_id == leader_result.leader_id
    old_follower_result = old_follower_join.result()
    check_join_group_result(
        h,
        old_follower_result,
        Errors.NONE,
        rebalance.generation + 1,
        set(),
        CompletingRebalance(),
        PROTOCOL_TYPE,
        expected_leader_id=leader_result.member_id,
    )
    assert old_follower_result.member_id == rebalance.follower_id

    old_follower_sync = h.send_sync_group(
        GROUP_ID,
        old_follower_result.generation_id,
        old_follower_result.member_id,
        {},
        PROTOCOL_TYPE,
        PROTOCOL_NAME,
        FOLLOWER_INSTANCE_ID,
    )
    duplicate_join = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, group_instance_id=FOLLOWER_INSTANCE_ID
    )
    h.advance(1)
    assert old_follower_sync.result().error is Errors.FENCED_INSTANCE_ID
    h.assert_group_state(PreparingRebalance())

    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    duplicate_result = duplicate_join.result()
    check_join_group_result(
        h,
        duplicate_result,
        Errors.NONE,
        rebalance.generation + 2,
        {FOLLOWER_INSTANCE_ID},
        CompletingRebalance(),
        PROTOCOL_TYPE,
        expected_leader_id=duplicate_result.member_id,
    )


def test_static_member_rejoin_with_known_member_id(h: CoordinatorHarness) -> None:
    """A static member repeating its join during CompletingRebalance is answered at once; its sync stabilises."""
    first = h.static_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert first.error is Errors.NONE
    rejoin = h.send_join_group(GROUP_ID, first.member_id, PROTOCOL_TYPE, PROTOCOLS, GROUP_INSTANCE_ID)
    h.advance(1)
    result = rejoin.result()
    assert result.error is Errors.NONE
    h.assert_group_state(CompletingRebalance())
    sync = h.send_sync_group(
        GROUP_ID,
        result.generation_id,
        first.member_id,
        {first.member_id: b""},
        PROTOCOL_TYPE,
        PROTOCOL_NAME,
        GROUP_INSTANCE_ID,
    )
    h.advance(1)
    assert sync.result().error is Errors.NONE
    h.assert_group_state(Stable())


def test_static_member_rejoin_with_leader_id_and_unknown_member_id(h: CoordinatorHarness) -> None:
    """The static leader restarting (no member id) gets a new id without a rebalance, is not told it leads, and its
    old id is fenced."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    appends_before = len(h.replica_manager.appends)
    result = h.static_join_group_with_persistence(
        GROUP_ID, UNKNOWN_MEMBER_ID, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, clock_advance=1
    )
    check_join_group_result(
        h, result, Errors.NONE, rebalance.generation, set(), Stable(), PROTOCOL_TYPE, rebalance.leader_id
    )
    assert len(h.replica_manager.appends) == appends_before + 1  # the new member id was written

    old_leader = h.static_join_group(
        GROUP_ID, rebalance.leader_id, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, clock_advance=1
    )
    assert old_leader.error is Errors.FENCED_INSTANCE_ID
    old_sync = h.sync_group_leader(
        GROUP_ID, rebalance.generation, rebalance.leader_id, {}, None, None, LEADER_INSTANCE_ID
    )
    assert old_sync.error is Errors.FENCED_INSTANCE_ID
    # The returned leader id is the old one, which no longer exists.
    assert h.sync_group_leader(GROUP_ID, rebalance.generation, result.leader_id, {}).error is Errors.UNKNOWN_MEMBER_ID


def test_static_leader_rejoin_at_join_group_v9_skips_assignment(h: CoordinatorHarness) -> None:
    """From JoinGroup v9 (KIP-814) a restarted static leader is told it leads, gets the members' metadata and is
    asked to skip the assignment; the group stays Stable in the same generation, and a follower is not told to
    skip."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    promise = h.send_join_group(
        GROUP_ID,
        UNKNOWN_MEMBER_ID,
        PROTOCOL_TYPE,
        PROTOCOL_SUPERSET,
        LEADER_INSTANCE_ID,
        support_skipping_assignment=True,
    )
    h.advance(1)
    leader = promise.result()
    assert leader.error is Errors.NONE and leader.skip_assignment
    assert leader.member_id != rebalance.leader_id and leader.leader_id == leader.member_id
    assert leader.generation_id == rebalance.generation
    assert {m.member_id for m in leader.members} == {leader.member_id, rebalance.follower_id}
    group = h.group_manager.get_group(GROUP_ID)
    assert group is not None and group.current_state == Stable()

    promise = h.send_join_group(
        GROUP_ID,
        UNKNOWN_MEMBER_ID,
        PROTOCOL_TYPE,
        PROTOCOL_SUPERSET,
        FOLLOWER_INSTANCE_ID,
        support_skipping_assignment=True,
    )
    h.advance(1)
    follower = promise.result()
    assert follower.error is Errors.NONE and not follower.skip_assignment and follower.members == []
    assert follower.leader_id == leader.member_id and follower.generation_id == rebalance.generation


def test_static_member_rejoin_with_leader_id_and_known_member_id(h: CoordinatorHarness) -> None:
    """The static leader rejoining with its id rebalances; the follower, silent past its session, is removed."""
    rebalance = h.static_members_join_and_rebalance(
        LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, session_timeout=DEFAULT_REBALANCE_TIMEOUT // 2
    )
    result = h.static_join_group(
        GROUP_ID,
        rebalance.leader_id,
        LEADER_INSTANCE_ID,
        PROTOCOL_TYPE,
        PROTOCOL_SUPERSET,
        clock_advance=DEFAULT_REBALANCE_TIMEOUT + 1,
    )
    assert not h.group().has_static_member(FOLLOWER_INSTANCE_ID)
    check_join_group_result(
        h,
        result,
        Errors.NONE,
        rebalance.generation + 1,
        {LEADER_INSTANCE_ID},
        CompletingRebalance(),
        PROTOCOL_TYPE,
        rebalance.leader_id,
        rebalance.leader_id,
    )


def test_static_member_rejoin_with_unexpected_group_states(h: CoordinatorHarness) -> None:
    """A known static member rejoining a Dead group gets COORDINATOR_NOT_AVAILABLE, an Empty one UNKNOWN_MEMBER_ID."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    h.group().transition_to(PreparingRebalance())
    h.group().transition_to(Empty())
    result = h.static_join_group(
        GROUP_ID, rebalance.leader_id, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS, clock_advance=1
    )
    assert result.error is Errors.UNKNOWN_MEMBER_ID
    h.group().transition_to(Dead())
    result = h.static_join_group(
        GROUP_ID, rebalance.leader_id, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS, clock_advance=1
    )
    assert result.error is Errors.COORDINATOR_NOT_AVAILABLE


def test_static_member_rejoin_with_follower_id_and_change_of_protocol(h: CoordinatorHarness) -> None:
    """A static follower changing its protocols rebalances; the leader, gone past its session, loses leadership."""
    rebalance = h.static_members_join_and_rebalance(
        LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, session_timeout=DEFAULT_SESSION_TIMEOUT * 2
    )
    result = h.static_join_group(
        GROUP_ID,
        rebalance.follower_id,
        FOLLOWER_INSTANCE_ID,
        PROTOCOL_TYPE,
        [("roundrobin", METADATA)],
        clock_advance=DEFAULT_SESSION_TIMEOUT + 1,
    )
    assert result.member_id == rebalance.follower_id
    assert h.group().has_static_member(LEADER_INSTANCE_ID)
    assert h.group().is_leader(rebalance.follower_id)
    check_join_group_result(
        h,
        result,
        Errors.NONE,
        rebalance.generation + 1,
        {LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID},
        CompletingRebalance(),
        PROTOCOL_TYPE,
        rebalance.follower_id,
        rebalance.follower_id,
    )


def test_static_member_rejoin_with_unknown_member_id_and_selected_protocol_changed(h: CoordinatorHarness) -> None:
    """A restarted static follower whose protocols change the group's choice triggers a rebalance; the leader,
    not rejoining, loses leadership to it but stays a member."""
    # Kafka's test keeps the default session timeout, so the leader's session and the rebalance expire at the same
    # tick and the outcome rests on how its MockTimer orders ties. A longer session keeps the leader alive through
    # the rebalance, which is the case the test means.
    rebalance = h.static_members_join_and_rebalance(
        LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, session_timeout=DEFAULT_SESSION_TIMEOUT * 2
    )
    assert h.group().select_protocol() != "roundrobin"
    result = h.static_join_group(
        GROUP_ID,
        UNKNOWN_MEMBER_ID,
        FOLLOWER_INSTANCE_ID,
        PROTOCOL_TYPE,
        [("roundrobin", METADATA)],
        clock_advance=DEFAULT_SESSION_TIMEOUT + 1,
    )
    check_join_group_result(
        h,
        result,
        Errors.NONE,
        rebalance.generation + 1,
        {LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID},
        CompletingRebalance(),
        PROTOCOL_TYPE,
    )
    assert h.group().is_leader(result.member_id)
    assert result.member_id != rebalance.follower_id
    assert result.protocol_name == "roundrobin"


def test_static_member_rejoin_with_selected_protocol_unchanged_persistence_failure(h: CoordinatorHarness) -> None:
    """When writing a restarted static member's new id fails, the error goes back and the old id stays valid."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    new_protocols = [(h.group().select_protocol(), METADATA)]
    result = h.static_join_group_with_persistence(
        GROUP_ID,
        UNKNOWN_MEMBER_ID,
        FOLLOWER_INSTANCE_ID,
        PROTOCOL_TYPE,
        new_protocols,
        clock_advance=1,
        append_record_error=Errors.MESSAGE_TOO_LARGE,
    )
    check_join_group_result(
        h, result, Errors.UNKNOWN_SERVER_ERROR, rebalance.generation, set(), Stable(), PROTOCOL_TYPE
    )
    assert result.member_id != rebalance.follower_id
    old_join = h.static_join_group(
        GROUP_ID, rebalance.follower_id, FOLLOWER_INSTANCE_ID, PROTOCOL_TYPE, new_protocols, clock_advance=1
    )
    assert old_join.error is Errors.NONE
    old_sync = h.sync_group_follower(
        GROUP_ID, rebalance.generation, rebalance.follower_id, None, None, FOLLOWER_INSTANCE_ID
    )
    assert old_sync.error is Errors.NONE


def test_static_member_rejoin_with_selected_protocol_unchanged(h: CoordinatorHarness) -> None:
    """A restarted static follower whose protocols keep the group's choice gets a new id, no rebalance, and its
    previous assignment; its old id is fenced."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    new_protocols = [(h.group().select_protocol(), METADATA)]
    result = h.static_join_group_with_persistence(
        GROUP_ID, UNKNOWN_MEMBER_ID, FOLLOWER_INSTANCE_ID, PROTOCOL_TYPE, new_protocols, clock_advance=1
    )
    check_join_group_result(h, result, Errors.NONE, rebalance.generation, set(), Stable(), PROTOCOL_TYPE)
    assert result.member_id != rebalance.follower_id
    old_join = h.static_join_group(
        GROUP_ID, rebalance.follower_id, FOLLOWER_INSTANCE_ID, PROTOCOL_TYPE, new_protocols, clock_advance=1
    )
    assert old_join.error is Errors.FENCED_INSTANCE_ID
    old_sync = h.sync_group_follower(
        GROUP_ID, rebalance.generation, rebalance.follower_id, None, None, FOLLOWER_INSTANCE_ID
    )
    assert old_sync.error is Errors.FENCED_INSTANCE_ID
    new_sync = h.sync_group_follower(GROUP_ID, rebalance.generation, result.member_id, None, None, FOLLOWER_INSTANCE_ID)
    assert new_sync.error is Errors.NONE
    assert new_sync.member_assignment == rebalance.follower_assignment


def test_static_member_rejoin_with_known_leader_id_then_follower_protocol_change(h: CoordinatorHarness) -> None:
    """The static leader rejoining rebalances with both members; then the follower changing protocols rebalances
    again and, the leader being silent, leads the next generation alone."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    leader_rejoin = h.send_join_group(
        GROUP_ID, rebalance.leader_id, PROTOCOL_TYPE, PROTOCOL_SUPERSET, LEADER_INSTANCE_ID
    )
    follower_rejoin = h.send_join_group(
        GROUP_ID, rebalance.follower_id, PROTOCOL_TYPE, PROTOCOL_SUPERSET, FOLLOWER_INSTANCE_ID
    )
    h.advance(1)
    check_join_group_result(
        h,
        leader_rejoin.result(),
        Errors.NONE,
        rebalance.generation + 1,
        {LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID},
        CompletingRebalance(),
        PROTOCOL_TYPE,
        rebalance.leader_id,
        rebalance.leader_id,
    )
    check_join_group_result(
        h,
        follower_rejoin.result(),
        Errors.NONE,
        rebalance.generation + 1,
        set(),
        CompletingRebalance(),
        PROTOCOL_TYPE,
        rebalance.leader_id,
        rebalance.follower_id,
    )
    changed = h.send_join_group(GROUP_ID, rebalance.follower_id, PROTOCOL_TYPE, PROTOCOLS, FOLLOWER_INSTANCE_ID)
    h.assert_group_state(PreparingRebalance())
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    check_join_group_result(
        h,
        changed.result(),
        Errors.NONE,
        rebalance.generation + 2,
        {FOLLOWER_INSTANCE_ID},
        CompletingRebalance(),
        PROTOCOL_TYPE,
        rebalance.follower_id,
        rebalance.follower_id,
    )


def test_static_member_rejoin_as_follower_with_unknown_member_id(h: CoordinatorHarness) -> None:
    """A restarted static follower keeps its place without a rebalance: same generation, same assignment."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    result = h.static_join_group_with_persistence(
        GROUP_ID, UNKNOWN_MEMBER_ID, FOLLOWER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, clock_advance=1
    )
    assert h.group().has_static_member(LEADER_INSTANCE_ID)
    check_join_group_result(h, result, Errors.NONE, rebalance.generation, set(), Stable(), PROTOCOL_TYPE)
    assert result.member_id != rebalance.follower_id
    sync = h.sync_group_follower(GROUP_ID, rebalance.generation, result.member_id)
    assert sync.error is Errors.NONE
    assert sync.member_assignment == rebalance.follower_assignment


def test_static_member_rejoin_as_follower_with_known_member_id_and_no_protocol_change(h: CoordinatorHarness) -> None:
    """A static follower rejoining unchanged with its id gets the current generation, no rebalance."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    result = h.static_join_group(
        GROUP_ID, rebalance.follower_id, FOLLOWER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, clock_advance=1
    )
    assert h.group().has_static_member(LEADER_INSTANCE_ID)
    check_join_group_result(
        h,
        result,
        Errors.NONE,
        rebalance.generation,
        set(),
        Stable(),
        PROTOCOL_TYPE,
        rebalance.leader_id,
        rebalance.follower_id,
    )


@pytest.mark.parametrize("swap", ["follower_id_as_leader", "leader_id_as_follower"])
def test_static_member_rejoin_with_mismatched_member_id(h: CoordinatorHarness, swap: str) -> None:
    """An instance id paired with another member's id is FENCED_INSTANCE_ID."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    if swap == "follower_id_as_leader":
        member_id, instance_id = rebalance.follower_id, LEADER_INSTANCE_ID
    else:
        member_id, instance_id = rebalance.leader_id, FOLLOWER_INSTANCE_ID
    result = h.static_join_group(GROUP_ID, member_id, instance_id, PROTOCOL_TYPE, PROTOCOL_SUPERSET, clock_advance=1)
    assert result.error is Errors.FENCED_INSTANCE_ID


def test_static_member_sync_heartbeat_and_commit_with_invalid_member_id(h: CoordinatorHarness) -> None:
    """Sync, heartbeat and commit under the leader's instance id with a wrong member id are FENCED_INSTANCE_ID."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    sync = h.sync_group_leader(GROUP_ID, rebalance.generation, "invalid", {}, None, None, LEADER_INSTANCE_ID)
    assert sync.error is Errors.FENCED_INSTANCE_ID
    assert h.sync_group_leader(GROUP_ID, rebalance.generation, rebalance.leader_id, {}).error is Errors.NONE
    assert h.heartbeat(GROUP_ID, rebalance.leader_id, rebalance.generation) is Errors.NONE
    assert h.heartbeat(GROUP_ID, INVALID_MEMBER_ID, rebalance.generation, LEADER_INSTANCE_ID) is (
        Errors.FENCED_INSTANCE_ID
    )
    tp = TopicPartition("topic", 0)
    offset = h.offset_and_metadata(0)
    assert h.commit_offsets(GROUP_ID, rebalance.leader_id, rebalance.generation, {tp: offset}) == {tp: Errors.NONE}
    invalid = h.commit_offsets(GROUP_ID, INVALID_MEMBER_ID, rebalance.generation, {tp: offset}, LEADER_INSTANCE_ID)
    assert invalid == {tp: Errors.FENCED_INSTANCE_ID}


def test_should_get_different_static_member_id_after_each_rejoin(h: CoordinatorHarness) -> None:
    """Each restart of a static member gives it a fresh member id prefixed by its instance id."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    last_member_id = rebalance.leader_id
    for _ in range(5):
        result = h.static_join_group_with_persistence(
            GROUP_ID, UNKNOWN_MEMBER_ID, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS, clock_advance=1
        )
        assert result.member_id.startswith(LEADER_INSTANCE_ID)
        assert result.member_id != last_member_id
        last_member_id = result.member_id


def test_static_member_join_with_unknown_instance_id_and_known_member_id(h: CoordinatorHarness) -> None:
    """A known member id with an instance id the group does not know is UNKNOWN_MEMBER_ID."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    result = h.static_join_group(
        GROUP_ID, rebalance.leader_id, "unknown_instance", PROTOCOL_TYPE, PROTOCOL_SUPERSET, clock_advance=1
    )
    assert result.error is Errors.UNKNOWN_MEMBER_ID


def test_static_member_join_or_leave_with_illegal_state_as_pending_member(h: CoordinatorHarness) -> None:
    """A static member found among pending members is an illegal state, in JoinGroup and in LeaveGroup."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    group = h.group()
    group.add_pending_member(rebalance.follower_id)
    group.remove(rebalance.follower_id)
    with pytest.raises(IllegalStateException) as join_error:
        h.send_join_group(GROUP_ID, rebalance.follower_id, PROTOCOL_TYPE, PROTOCOL_SUPERSET, FOLLOWER_INSTANCE_ID)
    assert rebalance.follower_id in str(join_error.value) and FOLLOWER_INSTANCE_ID in str(join_error.value)
    with pytest.raises(IllegalStateException) as leave_error:
        h.single_leave_group(GROUP_ID, rebalance.follower_id, FOLLOWER_INSTANCE_ID)
    assert rebalance.follower_id in str(leave_error.value) and FOLLOWER_INSTANCE_ID in str(leave_error.value)


def test_static_member_rejoin_with_illegal_state_as_unknown_member(h: CoordinatorHarness) -> None:
    """A static member known to an Empty group rejoining without id is an illegal state."""
    h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    group = h.group()
    group.transition_to(PreparingRebalance())
    group.transition_to(Empty())
    with pytest.raises(IllegalStateException) as error:
        h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, FOLLOWER_INSTANCE_ID)
    assert group.group_id in str(error.value) and FOLLOWER_INSTANCE_ID in str(error.value)


def test_static_member_rejoin_with_missing_old_member(h: CoordinatorHarness) -> None:
    """An instance id mapped to a member the group does not have cannot be replaced."""
    h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    h.group().add_static_member(FOLLOWER_INSTANCE_ID, "invalid_member_id")
    with pytest.raises(ValueError, match="invalid_member_id"):
        h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, FOLLOWER_INSTANCE_ID)


def _group_stuck_in_rebalance_due_to_nonjoined_static_member(h: CoordinatorHarness) -> None:
    long_session_timeout = DEFAULT_SESSION_TIMEOUT * 2
    rebalance = h.static_members_join_and_rebalance(
        LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, session_timeout=long_session_timeout
    )
    dynamic_join = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, session_timeout=long_session_timeout
    )
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    dynamic = dynamic_join.result()
    assert dynamic.leader_id == dynamic.member_id  # the only member that rejoined now leads
    assert dynamic.error is Errors.NONE
    assert len(dynamic.members) == 3
    assert dynamic.generation_id == 2
    h.assert_group_state(CompletingRebalance())
    group = h.group()
    assert group.all_members == {rebalance.leader_id, rebalance.follower_id, dynamic.member_id}
    assert group.all_static_members == {LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID}
    assert group.all_dynamic_members == {dynamic.member_id}

    verify_leave_group_result(h.single_leave_group(GROUP_ID, rebalance.follower_id))
    h.assert_group_state(PreparingRebalance())
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    # Only the static leader is left, not rejoined: the rebalance cannot complete.
    assert not group.all_dynamic_members
    assert group.all_members == {rebalance.leader_id}
    assert group.generation_id == 2
    h.assert_group_state(PreparingRebalance())


def test_leader_fail_to_rejoin_before_final_rebalance_timeout_with_long_session_timeout(h: CoordinatorHarness) -> None:
    """A rebalance waiting only on a silent static member ends when its session expires: the group goes Empty."""
    _group_stuck_in_rebalance_due_to_nonjoined_static_member(h)
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    group = h.group()
    assert not group.all_members
    assert group.leader_or_null is None
    assert group.generation_id == 3
    h.assert_group_state(Empty())


def test_leader_rejoin_before_final_rebalance_timeout_with_long_session_timeout(h: CoordinatorHarness) -> None:
    """The silent static leader coming back in time completes the stuck rebalance."""
    _group_stuck_in_rebalance_due_to_nonjoined_static_member(h)
    result = h.static_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS)
    check_join_group_result(h, result, Errors.NONE, 3, {LEADER_INSTANCE_ID}, CompletingRebalance(), PROTOCOL_TYPE)
    assert h.group().all_members == {result.member_id}
    assert h.group().leader_or_null is not None
    assert h.group().generation_id == 3


def test_static_member_follower_fail_to_rejoin_before_rebalance_timeout(h: CoordinatorHarness) -> None:
    """Static members that do not rejoin in time stay in the group (their session has not expired)."""
    initial = h.static_members_join_and_rebalance(
        LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, session_timeout=DEFAULT_REBALANCE_TIMEOUT * 2
    )
    new_member = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, "newMember")
    h.assert_group_state(PreparingRebalance())
    leader = h.static_join_group(
        GROUP_ID,
        initial.leader_id,
        LEADER_INSTANCE_ID,
        PROTOCOL_TYPE,
        PROTOCOL_SUPERSET,
        clock_advance=DEFAULT_REBALANCE_TIMEOUT + 1,
    )
    check_join_group_result(
        h,
        leader,
        Errors.NONE,
        initial.generation + 1,
        {LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, "newMember"},
        CompletingRebalance(),
        PROTOCOL_TYPE,
        expected_leader_id=initial.leader_id,
        expected_member_id=initial.leader_id,
    )
    check_join_group_result(
        h,
        new_member.result(),
        Errors.NONE,
        initial.generation + 1,
        set(),
        CompletingRebalance(),
        PROTOCOL_TYPE,
        expected_leader_id=initial.leader_id,
    )


def test_static_member_leader_fail_to_rejoin_before_rebalance_timeout(h: CoordinatorHarness) -> None:
    """A static leader that does not rejoin in time loses leadership to a member that did."""
    initial = h.static_members_join_and_rebalance(
        LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, session_timeout=DEFAULT_REBALANCE_TIMEOUT * 2
    )
    new_member = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, "newMember")
    h.advance(1)
    h.assert_group_state(PreparingRebalance())
    follower = h.static_join_group(
        GROUP_ID,
        initial.follower_id,
        FOLLOWER_INSTANCE_ID,
        PROTOCOL_TYPE,
        PROTOCOL_SUPERSET,
        clock_advance=DEFAULT_REBALANCE_TIMEOUT + 1,
    )
    new_result = new_member.result()
    if follower.leader_id == follower.member_id:
        new_leader, new_follower = follower, new_result
    else:
        new_leader, new_follower = new_result, follower
    check_join_group_result(
        h,
        new_leader,
        Errors.NONE,
        initial.generation + 1,
        {LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID, "newMember"},
        CompletingRebalance(),
        PROTOCOL_TYPE,
    )
    check_join_group_result(
        h,
        new_follower,
        Errors.NONE,
        initial.generation + 1,
        set(),
        CompletingRebalance(),
        PROTOCOL_TYPE,
        expected_leader_id=new_leader.member_id,
    )


# ---- SyncGroup -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("protocol_type", "protocol_name", "expected_error", "expected_type", "expected_name"),
    [
        ("whatever", None, Errors.INCONSISTENT_GROUP_PROTOCOL, None, None),
        (None, "whatever", Errors.INCONSISTENT_GROUP_PROTOCOL, None, None),
        (None, None, Errors.NONE, PROTOCOL_TYPE, PROTOCOL_NAME),
        (PROTOCOL_TYPE, PROTOCOL_NAME, Errors.NONE, PROTOCOL_TYPE, PROTOCOL_NAME),
    ],
)
def test_sync_group_protocol_type_and_name(
    h: CoordinatorHarness,
    protocol_type: str | None,
    protocol_name: str | None,
    expected_error: Errors,
    expected_type: str | None,
    expected_name: str | None,
) -> None:
    """SyncGroup's protocol type and name, when given, must be the group's (else INCONSISTENT_GROUP_PROTOCOL);
    successful answers carry the group's."""
    leader = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, LEADER_INSTANCE_ID)
    follower = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET, FOLLOWER_INSTANCE_ID)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    h.advance(DEFAULT_REBALANCE_TIMEOUT + 1)
    leader_id = leader.result().member_id
    generation = leader.result().generation_id
    leader_sync = h.sync_group_leader(GROUP_ID, generation, leader_id, {leader_id: b""}, protocol_type, protocol_name)
    assert (leader_sync.error, leader_sync.protocol_type, leader_sync.protocol_name) == (
        expected_error,
        expected_type,
        expected_name,
    )
    follower_sync = h.sync_group_follower(
        GROUP_ID, generation, follower.result().member_id, protocol_type, protocol_name
    )
    assert (follower_sync.error, follower_sync.protocol_type, follower_sync.protocol_name) == (
        expected_error,
        expected_type,
        expected_name,
    )


def test_sync_group_empty_assignment(h: CoordinatorHarness) -> None:
    """A leader assigning nothing gives itself an empty assignment; the group is Stable and heartbeats work."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    sync = h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {})
    assert sync.error is Errors.NONE
    assert sync.member_assignment == b""
    assert h.heartbeat(GROUP_ID, join.member_id, 1) is Errors.NONE


def test_sync_group_errors(h: CoordinatorHarness) -> None:
    """SyncGroup: NOT_COORDINATOR for another coordinator's group, UNKNOWN_MEMBER_ID for an unknown group or member,
    ILLEGAL_GENERATION for a wrong generation."""
    assert h.sync_group_follower(OTHER_GROUP_ID, 1, MEMBER_ID).error is Errors.NOT_COORDINATOR
    assert h.sync_group_follower(GROUP_ID, 1, MEMBER_ID).error is Errors.UNKNOWN_MEMBER_ID
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    illegal = h.sync_group_leader(GROUP_ID, join.generation_id + 1, join.member_id, {join.member_id: b""})
    assert illegal.error is Errors.ILLEGAL_GENERATION
    assert h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {join.member_id: b""}).error is (
        Errors.NONE
    )
    assert h.sync_group_follower(GROUP_ID, join.generation_id, "blah").error is Errors.UNKNOWN_MEMBER_ID


def test_leader_failure_in_sync_group(h: CoordinatorHarness) -> None:
    """A follower waiting in SyncGroup for a leader that never syncs gets REBALANCE_IN_PROGRESS."""
    _, other = _two_member_group(h)
    follower_sync = h.send_sync_group(GROUP_ID, other.generation_id, other.member_id, {})
    assert not follower_sync.done
    h.advance(DEFAULT_SESSION_TIMEOUT + 100)
    assert follower_sync.result().error is Errors.REBALANCE_IN_PROGRESS


def test_sync_group_follower_after_leader(h: CoordinatorHarness) -> None:
    """A follower syncing after the leader gets its assignment at once."""
    join, other = _two_member_group(h)
    leader_sync = h.sync_group_leader(
        GROUP_ID, join.generation_id, join.member_id, {join.member_id: b"\x00", other.member_id: b"\x01"}
    )
    assert leader_sync.error is Errors.NONE and leader_sync.member_assignment == b"\x00"
    follower_sync = h.sync_group_follower(GROUP_ID, join.generation_id, other.member_id)
    assert follower_sync.error is Errors.NONE and follower_sync.member_assignment == b"\x01"


def test_sync_group_leader_after_follower(h: CoordinatorHarness, caplog: pytest.LogCaptureFixture) -> None:
    """A follower parked in SyncGroup gets its assignment when the leader syncs, which is logged as Kafka does."""
    caplog.set_level(logging.INFO, logger="kafka.coordinator.group.GroupCoordinator")
    join, other = _two_member_group(h)
    follower_sync = h.send_sync_group(GROUP_ID, join.generation_id, other.member_id, {})
    assert not follower_sync.done
    leader_sync = h.sync_group_leader(
        GROUP_ID, join.generation_id, join.leader_id, {join.leader_id: b"\x00", other.member_id: b"\x01"}
    )
    assert leader_sync.error is Errors.NONE and leader_sync.member_assignment == b"\x00"
    assert follower_sync.result().error is Errors.NONE
    assert follower_sync.result().member_assignment == b"\x01"
    h.assert_group_state(Stable())
    expected = (
        f"[GroupCoordinator 0]: Assignment received from leader for group {GROUP_ID} for generation "
        f"{join.generation_id}. The group has 2 members, 0 of which are static."
    )
    assert expected in [r.getMessage() for r in caplog.records]


def test_sync_group_with_failed_write_propagates_error_and_rebalances(h: CoordinatorHarness) -> None:
    """When the assignment cannot be written, members waiting in SyncGroup get the error and the group rebalances."""
    join, other = _two_member_group(h)
    follower_sync = h.send_sync_group(GROUP_ID, join.generation_id, other.member_id, {})
    h.replica_manager.append_error = Errors.NOT_LEADER_OR_FOLLOWER
    leader_sync = h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {})
    assert leader_sync.error is Errors.NOT_COORDINATOR
    assert leader_sync.protocol_type is None
    assert follower_sync.result().error is Errors.NOT_COORDINATOR
    h.assert_group_state(PreparingRebalance())


# ---- Heartbeat and session timeouts --------------------------------------------------------------------------


def test_heartbeat_errors(h: CoordinatorHarness) -> None:
    """Heartbeat: NOT_COORDINATOR, UNKNOWN_MEMBER_ID for an unknown group, COORDINATOR_NOT_AVAILABLE for a Dead one."""
    assert h.heartbeat(OTHER_GROUP_ID, MEMBER_ID, -1) is Errors.NOT_COORDINATOR
    assert h.heartbeat(GROUP_ID, MEMBER_ID, -1) is Errors.UNKNOWN_MEMBER_ID
    h.group_manager.add_group(GroupMetadata("deadGroupId", Dead(), MockTime()))
    assert h.heartbeat("deadGroupId", MEMBER_ID, 1) is Errors.COORDINATOR_NOT_AVAILABLE


def test_heartbeat_empty_group(h: CoordinatorHarness) -> None:
    """A member of an Empty group cannot heartbeat: UNKNOWN_MEMBER_ID."""
    group = GroupMetadata(GROUP_ID, Empty(), MockTime())
    group.add(
        MemberMetadata(
            MEMBER_ID,
            GROUP_INSTANCE_ID,
            CLIENT_ID,
            CLIENT_HOST,
            DEFAULT_REBALANCE_TIMEOUT,
            DEFAULT_SESSION_TIMEOUT,
            PROTOCOL_TYPE,
            [("range", b""), ("roundrobin", b"")],
        )
    )
    h.group_manager.add_group(group)
    assert h.heartbeat(GROUP_ID, MEMBER_ID, 0, GROUP_INSTANCE_ID) is Errors.UNKNOWN_MEMBER_ID


def test_heartbeat_member_and_generation_checks(h: CoordinatorHarness) -> None:
    """Heartbeat: NONE while CompletingRebalance and when Stable, UNKNOWN_MEMBER_ID for a stranger,
    ILLEGAL_GENERATION for a wrong generation."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert h.heartbeat(GROUP_ID, join.member_id, 1) is Errors.NONE  # CompletingRebalance
    assert h.sync_group_leader(GROUP_ID, 1, join.member_id, {join.member_id: b""}).error is Errors.NONE
    assert h.heartbeat(GROUP_ID, join.member_id, 1) is Errors.NONE
    assert h.heartbeat(GROUP_ID, "memberId", 1) is Errors.UNKNOWN_MEMBER_ID
    assert h.heartbeat(GROUP_ID, join.member_id, 2) is Errors.ILLEGAL_GENERATION


def test_session_timeout(h: CoordinatorHarness, caplog: pytest.LogCaptureFixture) -> None:
    """A member that stops heartbeating is removed at its session timeout and the group is then empty."""
    caplog.set_level(logging.INFO, logger="kafka.coordinator.group.GroupCoordinator")
    join = _join_and_sync_single_member(h)
    h.advance(DEFAULT_SESSION_TIMEOUT + 100)
    assert h.heartbeat(GROUP_ID, join.member_id, 1) is Errors.UNKNOWN_MEMBER_ID
    h.assert_group_state(Empty())
    messages = [r.getMessage() for r in caplog.records]
    assert (
        f"[GroupCoordinator 0]: Member {join.member_id} in group {GROUP_ID} has failed, removing it from the group"
        in (messages)
    )
    partition = f"{Topic.GROUP_METADATA_TOPIC_NAME}-{h.group_partition_id}"
    assert f"[GroupCoordinator 0]: Group {GROUP_ID} with generation 2 is now empty ({partition})" in messages


def test_heartbeat_maintains_session(h: CoordinatorHarness) -> None:
    """Heartbeats within the session timeout keep a member in the group past it."""
    session_timeout = 1000
    join = _join_and_sync_single_member(h, session_timeout=session_timeout, rebalance_timeout=session_timeout)
    h.advance(session_timeout // 2)
    assert h.heartbeat(GROUP_ID, join.member_id, 1) is Errors.NONE
    h.advance(session_timeout // 2 + 100)
    assert h.heartbeat(GROUP_ID, join.member_id, 1) is Errors.NONE


def test_commit_maintains_session(h: CoordinatorHarness) -> None:
    """An offset commit counts as a heartbeat."""
    session_timeout = 1000
    tp = TopicPartition("topic", 0)
    join = _join_and_sync_single_member(h, session_timeout=session_timeout, rebalance_timeout=session_timeout)
    h.advance(session_timeout // 2)
    commit = h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, {tp: h.offset_and_metadata(0)})
    assert commit == {tp: Errors.NONE}
    h.advance(session_timeout // 2 + 100)
    assert h.heartbeat(GROUP_ID, join.member_id, 1) is Errors.NONE


def test_session_timeout_during_rebalance(h: CoordinatorHarness) -> None:
    """A member whose session expires during a rebalance is removed and the rebalance completes without it."""
    first = _join_and_sync_single_member(h, rebalance_timeout=2000, session_timeout=1000)
    other = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    h.advance(500)
    assert h.heartbeat(GROUP_ID, first.member_id, first.generation_id) is Errors.REBALANCE_IN_PROGRESS
    h.advance(1100)
    assert h.heartbeat(GROUP_ID, first.member_id, first.generation_id) is Errors.UNKNOWN_MEMBER_ID
    assert other.result().error is Errors.NONE


def test_rebalance_timeout_expels_members_that_do_not_rejoin(
    h: CoordinatorHarness, caplog: pytest.LogCaptureFixture
) -> None:
    """A member that keeps heartbeating but never rejoins is removed when the rebalance timeout expires."""
    caplog.set_level(logging.INFO, logger="kafka.coordinator.group.GroupCoordinator")
    first = _join_and_sync_single_member(h, rebalance_timeout=1200, session_timeout=1000)
    other = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    for _ in range(2):
        h.advance(DEFAULT_SESSION_TIMEOUT)
        assert h.heartbeat(GROUP_ID, first.member_id, first.generation_id) is Errors.REBALANCE_IN_PROGRESS
    h.advance(DEFAULT_SESSION_TIMEOUT)
    other_result = other.result()
    assert other_result.error is Errors.NONE
    assert other_result.generation_id == 2
    assert other_result.leader_id == other_result.member_id
    assert h.group().all_members == {other_result.member_id}
    assert h.heartbeat(GROUP_ID, first.member_id, first.generation_id) is Errors.UNKNOWN_MEMBER_ID
    assert h.replica_manager.actions_tried >= 1  # the expired DelayedJoin drained the action queue
    assert any(
        r.getMessage() == f"[GroupCoordinator 0]: Group {GROUP_ID} removed dynamic members who haven't joined: "
        f"Set({first.member_id})"
        for r in caplog.records
    )


def test_heartbeat_during_rebalance_causes_rebalance_in_progress(h: CoordinatorHarness) -> None:
    """A heartbeat while PreparingRebalance answers REBALANCE_IN_PROGRESS."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert h.heartbeat(GROUP_ID, join.member_id, join.generation_id) is Errors.REBALANCE_IN_PROGRESS


def test_complete_heartbeat_with_group_dead_or_member_removed(h: CoordinatorHarness) -> None:
    """A delayed heartbeat completes for a Dead group (and its expiry then removes nobody) and for a member already
    gone."""
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    h.heartbeat(GROUP_ID, rebalance.leader_id, rebalance.generation)
    group = h.group()
    group.remove(rebalance.follower_id)
    assert h.coordinator.try_complete_heartbeat(group, rebalance.follower_id, False, lambda: True)
    group.transition_to(Dead())
    assert h.coordinator.try_complete_heartbeat(group, rebalance.leader_id, False, lambda: True)
    h.coordinator.on_expire_heartbeat(group, rebalance.leader_id, False)
    assert group.has(rebalance.leader_id)


# ---- DelayedSync ---------------------------------------------------------------------------------------------


def test_rebalance_times_out_when_sync_request_is_not_received(h: CoordinatorHarness) -> None:
    """Members that never send SyncGroup are all removed when the rebalance timeout expires."""
    results = h.join_with_n_members(3)
    assert {r.error for r in results} == {Errors.NONE}
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2)
    for r in results:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.NONE
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2 + 1)
    for r in results:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.UNKNOWN_MEMBER_ID


def test_rebalance_times_out_when_sync_request_is_not_received_from_followers(h: CoordinatorHarness) -> None:
    """Followers that never sync are removed and the group rebalances around the leader."""
    results = h.join_with_n_members(3)
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2)
    for r in results:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.NONE
    leader = results[0]
    assert leader.leader_id == leader.member_id
    assignments = {r.member_id: b"" for r in results}
    sync = h.sync_group_leader(
        GROUP_ID, leader.generation_id, leader.member_id, assignments, PROTOCOL_TYPE, PROTOCOL_NAME
    )
    assert sync.error is Errors.NONE
    assert h.heartbeat(GROUP_ID, leader.member_id, leader.generation_id) is Errors.NONE
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2 + 1)
    assert h.heartbeat(GROUP_ID, leader.member_id, leader.generation_id) is Errors.REBALANCE_IN_PROGRESS
    for r in results[1:]:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.UNKNOWN_MEMBER_ID


def test_rebalance_times_out_when_sync_request_is_not_received_from_leader(h: CoordinatorHarness) -> None:
    """A leader that never syncs is removed; waiting followers get REBALANCE_IN_PROGRESS."""
    results = h.join_with_n_members(3)
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2)
    for r in results:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.NONE
    follower_syncs = [
        h.send_sync_group(GROUP_ID, r.generation_id, r.member_id, {}, PROTOCOL_TYPE, PROTOCOL_NAME) for r in results[1:]
    ]
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2 + 1)
    assert {p.result().error for p in follower_syncs} == {Errors.REBALANCE_IN_PROGRESS}
    assert h.heartbeat(GROUP_ID, results[0].member_id, results[0].generation_id) is Errors.UNKNOWN_MEMBER_ID
    for r in results[1:]:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.REBALANCE_IN_PROGRESS


def test_rebalance_does_not_time_out_when_all_sync_are_received(h: CoordinatorHarness) -> None:
    """When everyone syncs, the sync timeout removes no one."""
    results = h.join_with_n_members(3)
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2)
    leader = results[0]
    assignments = {r.member_id: b"" for r in results}
    sync = h.sync_group_leader(
        GROUP_ID, leader.generation_id, leader.member_id, assignments, PROTOCOL_TYPE, PROTOCOL_NAME
    )
    assert sync.error is Errors.NONE
    followers = [
        h.sync_group_follower(GROUP_ID, r.generation_id, r.member_id, PROTOCOL_TYPE, PROTOCOL_NAME) for r in results[1:]
    ]
    assert {f.error for f in followers} == {Errors.NONE}
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2 + 1)
    for r in results:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.NONE
    h.advance(DEFAULT_REBALANCE_TIMEOUT // 2)
    for r in results:
        assert h.heartbeat(GROUP_ID, r.member_id, r.generation_id) is Errors.NONE


# ---- InitialDelayedJoin --------------------------------------------------------------------------------------


def test_should_delay_initial_rebalance_by_group_initial_rebalance_delay_on_empty_group(h: CoordinatorHarness) -> None:
    """The first rebalance of an empty group waits group.initial.rebalance.delay.ms."""
    promise = h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY // 2)
    assert not promise.done
    h.advance(GROUP_INITIAL_REBALANCE_DELAY // 2 + 1)
    assert promise.result().error is Errors.NONE


def test_should_reset_rebalance_delay_when_new_member_joins_group_in_initial_rebalance(h: CoordinatorHarness) -> None:
    """A member joining during the initial delay extends it by another delay."""
    rebalance_timeout = GROUP_INITIAL_REBALANCE_DELAY * 3
    first = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, rebalance_timeout=rebalance_timeout
    )
    h.advance(GROUP_INITIAL_REBALANCE_DELAY - 1)
    second = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, rebalance_timeout=rebalance_timeout
    )
    h.advance(2)
    h.advance(GROUP_INITIAL_REBALANCE_DELAY // 2 + 1)
    assert not first.done and not second.done
    h.advance(GROUP_INITIAL_REBALANCE_DELAY // 2)
    assert first.result().error is Errors.NONE
    assert second.result().error is Errors.NONE


def test_should_delay_rebalance_up_to_rebalance_timeout(h: CoordinatorHarness) -> None:
    """Members arriving one after another extend the initial delay at most up to the rebalance timeout."""
    rebalance_timeout = GROUP_INITIAL_REBALANCE_DELAY * 2
    first = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, rebalance_timeout=rebalance_timeout
    )
    second = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, rebalance_timeout=rebalance_timeout
    )
    h.advance(GROUP_INITIAL_REBALANCE_DELAY + 1)
    third = h.send_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS, rebalance_timeout=rebalance_timeout
    )
    h.advance(GROUP_INITIAL_REBALANCE_DELAY)
    assert not (first.done or second.done or third.done)
    h.advance(1)
    assert [p.result().error for p in (first, second, third)] == [Errors.NONE] * 3


# ---- OffsetCommit / OffsetFetch ------------------------------------------------------------------------------


def test_commit_offset_from_unknown_group(h: CoordinatorHarness) -> None:
    """A commit with a generation for a group that does not exist is ILLEGAL_GENERATION."""
    tp = TopicPartition("topic", 0)
    assert h.commit_offsets(GROUP_ID, MEMBER_ID, 1, {tp: h.offset_and_metadata(0)}) == {tp: Errors.ILLEGAL_GENERATION}
    assert h.group_manager.get_group(GROUP_ID) is None


def test_commit_offset_with_default_generation(h: CoordinatorHarness) -> None:
    """A simple consumer's commit (generation -1, no member) creates an Empty group holding the offset."""
    tp = TopicPartition("topic", 0)
    assert h.commit_offsets(GROUP_ID, "", -1, {tp: h.offset_and_metadata(0)}) == {tp: Errors.NONE}
    group = h.group()
    assert group.is_(Empty())
    assert group.offset(tp) is not None


def test_offset_commit_dead_group(h: CoordinatorHarness) -> None:
    """Commits to a Dead group are COORDINATOR_NOT_AVAILABLE."""
    h.group_manager.add_group(GroupMetadata("deadGroupId", Dead(), MockTime()))
    tp = TopicPartition("topic", 0)
    result = h.commit_offsets("deadGroupId", MEMBER_ID, 1, {tp: h.offset_and_metadata(0)})
    assert result == {tp: Errors.COORDINATOR_NOT_AVAILABLE}


def test_commit_offsets_after_group_is_empty(h: CoordinatorHarness) -> None:
    """Once its members left, a group accepts simple commits (as the offset reset tool makes)."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    verify_leave_group_result(h.single_leave_group(GROUP_ID, join.member_id))
    tp = TopicPartition("topic", 0)
    assert h.commit_offsets(GROUP_ID, "", -1, {tp: h.offset_and_metadata(0)}) == {tp: Errors.NONE}
    error, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert error is Errors.NONE and data[tp].offset == 0


def test_commit_offset_with_live_generation(h: CoordinatorHarness) -> None:
    """A member of a Stable group commits with its generation; the offset is then fetched back."""
    join = _join_and_sync_single_member(h)
    tp = TopicPartition("topic", 0)
    assert h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, {tp: h.offset_and_metadata(42)}) == {
        tp: Errors.NONE
    }
    error, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert error is Errors.NONE and data[tp].offset == 42


def test_commit_offset_during_preparing_rebalance_is_allowed(h: CoordinatorHarness) -> None:
    """While PreparingRebalance a member of the current generation may still commit."""
    join = _join_and_sync_single_member(h)
    h.send_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    h.assert_group_state(PreparingRebalance())
    tp = TopicPartition("topic", 0)
    result = h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, {tp: h.offset_and_metadata(7)})
    assert result == {tp: Errors.NONE}


def test_commit_offset_in_completing_rebalance(h: CoordinatorHarness) -> None:
    """Between JoinGroup and the assignment, a commit is REBALANCE_IN_PROGRESS; an unknown member or wrong
    generation is reported as such first."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    tp = TopicPartition("topic", 0)
    offset = {tp: h.offset_and_metadata(0)}
    assert h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, offset) == {tp: Errors.REBALANCE_IN_PROGRESS}
    assert h.commit_offsets(GROUP_ID, UNKNOWN_MEMBER_ID, join.generation_id, offset) == {tp: Errors.UNKNOWN_MEMBER_ID}
    assert h.commit_offsets(GROUP_ID, join.member_id, join.generation_id + 1, offset) == {tp: Errors.ILLEGAL_GENERATION}


def test_fetch_offsets(h: CoordinatorHarness) -> None:
    """A committed offset comes back with its metadata and leader epoch."""
    tp = TopicPartition("topic", 0)
    offset = OffsetAndMetadata(97, 15, "some metadata", h.time.milliseconds(), None)
    assert h.commit_offsets(GROUP_ID, "", -1, {tp: offset}) == {tp: Errors.NONE}
    error, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert error is Errors.NONE
    assert (data[tp].offset, data[tp].metadata, data[tp].leader_epoch) == (97, "some metadata", 15)


def test_commit_and_fetch_offsets_with_empty_group(h: CoordinatorHarness) -> None:
    """The empty group id may commit, fetch, be described and be deleted (old clients use it)."""
    tp = TopicPartition("topic", 0)
    assert h.commit_offsets("", "", -1, {tp: h.offset_and_metadata(0)}) == {tp: Errors.NONE}
    error, data = h.coordinator.handle_fetch_offsets("", REQUIRE_STABLE, [tp])
    assert error is Errors.NONE and data[tp].offset == 0
    describe_error, summary = h.coordinator.handle_describe_group("")
    assert describe_error is Errors.NONE and summary.state == "Empty"
    assert h.coordinator.handle_delete_groups({""}) == {"": Errors.NONE}
    error, data = h.coordinator.handle_fetch_offsets("", REQUIRE_STABLE, [tp])
    assert error is Errors.NONE and data[tp].offset == INVALID_OFFSET


def test_fetch_offset_for_unknown_partition_and_wrong_coordinator(h: CoordinatorHarness) -> None:
    """An uncommitted partition fetches INVALID_OFFSET; a group of another coordinator NOT_COORDINATOR and nothing."""
    tp = TopicPartition("topic", 0)
    error, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert error is Errors.NONE and data[tp].offset == INVALID_OFFSET
    assert h.coordinator.handle_fetch_offsets(OTHER_GROUP_ID, REQUIRE_STABLE, [tp]) == (Errors.NOT_COORDINATOR, {})


def test_fetch_all_offsets(h: CoordinatorHarness) -> None:
    """Without partitions, every committed offset of the group is fetched."""
    assert h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE) == (Errors.NONE, {})
    tp1, tp2, tp3 = TopicPartition("topic", 0), TopicPartition("topic", 1), TopicPartition("other-topic", 0)
    offsets = {tp1: h.offset_and_metadata(15), tp2: h.offset_and_metadata(16), tp3: h.offset_and_metadata(17)}
    assert h.commit_offsets(GROUP_ID, "", -1, offsets) == dict.fromkeys(offsets, Errors.NONE)
    error, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE)
    assert error is Errors.NONE
    assert {tp: (d.offset, d.error) for tp, d in data.items()} == {
        tp1: (15, Errors.NONE),
        tp2: (16, Errors.NONE),
        tp3: (17, Errors.NONE),
    }


# ---- TxnOffsetCommit -----------------------------------------------------------------------------------------


def test_basic_fetch_txn_offsets(h: CoordinatorHarness) -> None:
    """A transactional commit is invisible (UNSTABLE_OFFSET_COMMIT when stability is asked) until its COMMIT marker."""
    tp = TopicPartition("topic", 0)
    assert h.commit_transactional_offsets(GROUP_ID, 1000, 2, {tp: h.offset_and_metadata(25)}) == {tp: Errors.NONE}
    error, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert error is Errors.NONE
    assert (data[tp].offset, data[tp].error) == (INVALID_OFFSET, Errors.UNSTABLE_OFFSET_COMMIT)
    h.handle_txn_completion(1000, [h.offsets_partition()], True)
    error, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert (data[tp].offset, data[tp].error) == (25, Errors.NONE)


def test_fetch_txn_offsets_with_abort_ignores_spurious_commit(h: CoordinatorHarness) -> None:
    """An aborted transactional commit is dropped, and a later stray COMMIT marker does not bring it back."""
    tp = TopicPartition("topic", 0)
    assert h.commit_transactional_offsets(GROUP_ID, 1000, 2, {tp: h.offset_and_metadata(0)}) == {tp: Errors.NONE}
    h.handle_txn_completion(1000, [h.offsets_partition()], False)
    _, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert (data[tp].offset, data[tp].error) == (INVALID_OFFSET, Errors.NONE)
    h.handle_txn_completion(1000, [h.offsets_partition()], True)
    _, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert data[tp].offset == INVALID_OFFSET


def test_fetch_txn_offsets_one_producer_multiple_groups(h: CoordinatorHarness) -> None:
    """A marker for one offsets partition completes only the groups of that partition."""
    partitions = [TopicPartition("topic1", 0), TopicPartition("topic2", 0)]
    offsets = [h.offset_and_metadata(10), h.offset_and_metadata(15)]
    h.group_manager.add_partition_ownership(h.coordinator.partition_for(OTHER_GROUP_ID))
    assert h.offsets_partition(GROUP_ID) != h.offsets_partition(OTHER_GROUP_ID)
    assert h.commit_transactional_offsets(GROUP_ID, 1000, 3, {partitions[0]: offsets[0]}) == {
        partitions[0]: Errors.NONE
    }
    assert h.commit_transactional_offsets(OTHER_GROUP_ID, 1000, 3, {partitions[1]: offsets[1]}) == {
        partitions[1]: Errors.NONE
    }

    def fetched(group_id: str) -> list[int]:
        error, data = h.coordinator.handle_fetch_offsets(group_id, REQUIRE_STABLE, partitions)
        assert error is Errors.NONE
        return [data[tp].offset for tp in partitions]

    h.handle_txn_completion(1000, [h.offsets_partition(GROUP_ID)], True)
    assert fetched(GROUP_ID) == [10, INVALID_OFFSET]
    assert fetched(OTHER_GROUP_ID) == [INVALID_OFFSET, INVALID_OFFSET]
    h.handle_txn_completion(1000, [h.offsets_partition(OTHER_GROUP_ID)], True)
    assert fetched(GROUP_ID) == [10, INVALID_OFFSET]
    assert fetched(OTHER_GROUP_ID) == [INVALID_OFFSET, 15]


def test_fetch_txn_offsets_multiple_producers_one_group(h: CoordinatorHarness) -> None:
    """Each producer's offsets become visible with its own marker."""
    partitions = [TopicPartition("topic1", 0), TopicPartition("topic2", 0)]
    h.commit_transactional_offsets(GROUP_ID, 1000, 3, {partitions[0]: h.offset_and_metadata(10)})
    h.commit_transactional_offsets(GROUP_ID, 1005, 4, {partitions[1]: h.offset_and_metadata(15)})
    h.handle_txn_completion(1000, [h.offsets_partition()], True)
    _, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, partitions)
    assert [data[tp].offset for tp in partitions] == [10, INVALID_OFFSET]
    h.handle_txn_completion(1005, [h.offsets_partition()], True)
    _, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, partitions)
    assert [data[tp].offset for tp in partitions] == [10, 15]


def test_schedule_handle_txn_completion_runs_on_manager_scheduler(h: CoordinatorHarness) -> None:
    """schedule_handle_txn_completion applies the marker through the manager's scheduler; it refuses partitions
    of other topics."""
    tp = TopicPartition("topic", 0)
    h.commit_transactional_offsets(GROUP_ID, 1000, 2, {tp: h.offset_and_metadata(5)})
    h.coordinator.schedule_handle_txn_completion(1000, [h.offsets_partition()], TransactionResult.COMMIT)
    _, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [tp])
    assert data[tp].offset == 5
    with pytest.raises(ValueError):
        h.coordinator.schedule_handle_txn_completion(1000, [tp], TransactionResult.COMMIT)


def test_txn_commit_offset_member_checks(h: CoordinatorHarness) -> None:
    """TxnOffsetCommit: a static instance with a wrong (or no) member id is fenced; a given member id must be known
    and a given generation current."""
    tp = TopicPartition("topic", 0)
    offset = {tp: h.offset_and_metadata(0)}
    rebalance = h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    assert h.commit_transactional_offsets(GROUP_ID, 1000, 2, offset, UNKNOWN_MEMBER_ID, LEADER_INSTANCE_ID) == {
        tp: Errors.FENCED_INSTANCE_ID
    }
    assert h.commit_transactional_offsets(GROUP_ID, 1000, 2, offset, "invalid-member", LEADER_INSTANCE_ID) == {
        tp: Errors.FENCED_INSTANCE_ID
    }
    assert h.commit_transactional_offsets(GROUP_ID, 1000, 2, offset, rebalance.leader_id, LEADER_INSTANCE_ID) == {
        tp: Errors.NONE
    }
    assert h.commit_transactional_offsets(GROUP_ID, 1000, 2, offset, "invalid-member") == {tp: Errors.UNKNOWN_MEMBER_ID}
    assert h.commit_transactional_offsets(
        GROUP_ID, 1000, 2, offset, rebalance.follower_id, generation_id=rebalance.generation + 5
    ) == {tp: Errors.ILLEGAL_GENERATION}
    assert h.commit_transactional_offsets(
        GROUP_ID, 1000, 2, offset, rebalance.follower_id, generation_id=rebalance.generation
    ) == {tp: Errors.NONE}


# ---- LeaveGroup ----------------------------------------------------------------------------------------------


def test_leave_group_top_level_errors(h: CoordinatorHarness) -> None:
    """LeaveGroup: NOT_COORDINATOR for another coordinator's group, COORDINATOR_NOT_AVAILABLE for a Dead one."""
    verify_leave_group_result(h.single_leave_group(OTHER_GROUP_ID, UNKNOWN_MEMBER_ID), Errors.NOT_COORDINATOR)
    h.group_manager.add_group(GroupMetadata("deadGroupId", Dead(), MockTime()))
    verify_leave_group_result(h.single_leave_group("deadGroupId", MEMBER_ID), Errors.COORDINATOR_NOT_AVAILABLE)
    batch = h.batch_leave_group("deadGroupId", [member_identity(MEMBER_ID), member_identity(MEMBER_ID)])
    verify_leave_group_result(batch, Errors.COORDINATOR_NOT_AVAILABLE)
    assert batch.member_responses == []


def test_leave_group_unknown_group_and_member(h: CoordinatorHarness) -> None:
    """Leaving an unknown group, or as an unknown member, answers UNKNOWN_MEMBER_ID per member."""
    verify_leave_group_result(h.single_leave_group(GROUP_ID, MEMBER_ID), Errors.NONE, [Errors.UNKNOWN_MEMBER_ID])
    assert h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS).error is Errors.NONE
    verify_leave_group_result(h.single_leave_group(GROUP_ID, "consumerId"), Errors.NONE, [Errors.UNKNOWN_MEMBER_ID])


def test_valid_leave_group(h: CoordinatorHarness, caplog: pytest.LogCaptureFixture) -> None:
    """The only member leaving empties the group; the response echoes its id."""
    caplog.set_level(logging.INFO, logger="kafka.coordinator.group.GroupCoordinator")
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    result = h.single_leave_group(GROUP_ID, join.member_id)
    verify_leave_group_result(result, Errors.NONE, [Errors.NONE])
    assert result.member_responses[0].member_id == join.member_id
    assert result.member_responses[0].group_instance_id is None
    h.assert_group_state(Empty())
    expected = (
        f"[GroupCoordinator 0]: Member[group.instance.id None, member.id {join.member_id}] in group {GROUP_ID} has "
        "left, removing it from the group"
    )
    assert expected in [r.getMessage() for r in caplog.records]


def test_leave_group_static_members(h: CoordinatorHarness) -> None:
    """A static member may leave by instance id alone; a wrong member id for the instance is FENCED_INSTANCE_ID."""
    assert h.static_join_group(
        GROUP_ID, UNKNOWN_MEMBER_ID, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOL_SUPERSET
    ).error is (Errors.NONE)
    fenced = h.single_leave_group(GROUP_ID, "some_member", LEADER_INSTANCE_ID)
    verify_leave_group_result(fenced, Errors.NONE, [Errors.FENCED_INSTANCE_ID])
    left = h.single_leave_group(GROUP_ID, UNKNOWN_MEMBER_ID, LEADER_INSTANCE_ID)
    verify_leave_group_result(left, Errors.NONE, [Errors.NONE])
    assert not h.group().has_static_member(LEADER_INSTANCE_ID)


def test_static_members_batch_leave_group(h: CoordinatorHarness) -> None:
    """A batch of static members leaves together; each one is answered on its own."""
    h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    result = h.batch_leave_group(
        GROUP_ID, [member_identity(group_instance_id=LEADER_INSTANCE_ID), member_identity("", FOLLOWER_INSTANCE_ID)]
    )
    verify_leave_group_result(result, Errors.NONE, [Errors.NONE, Errors.NONE])
    assert not h.group().all_members
    h.assert_group_state(Empty())


def test_static_members_batch_leave_group_mixed(h: CoordinatorHarness) -> None:
    """In one batch, a fenced or unknown instance fails alone while the others leave."""
    h.static_members_join_and_rebalance(LEADER_INSTANCE_ID, FOLLOWER_INSTANCE_ID)
    fenced = h.batch_leave_group(
        GROUP_ID,
        [
            member_identity(group_instance_id=LEADER_INSTANCE_ID),
            member_identity("invalid-member", FOLLOWER_INSTANCE_ID),
        ],
    )
    verify_leave_group_result(fenced, Errors.NONE, [Errors.NONE, Errors.FENCED_INSTANCE_ID])
    unknown = h.batch_leave_group(
        GROUP_ID,
        [
            member_identity(group_instance_id="unknown-instance"),
            member_identity(group_instance_id=FOLLOWER_INSTANCE_ID),
        ],
    )
    verify_leave_group_result(unknown, Errors.NONE, [Errors.UNKNOWN_MEMBER_ID, Errors.NONE])


def test_static_members_batch_leave_wrong_coordinator_or_unknown_group(h: CoordinatorHarness) -> None:
    """A batch for another coordinator's group is NOT_COORDINATOR; for an unknown group, UNKNOWN_MEMBER_ID each."""
    members = [
        member_identity(group_instance_id=LEADER_INSTANCE_ID),
        member_identity(group_instance_id=FOLLOWER_INSTANCE_ID),
    ]
    verify_leave_group_result(h.batch_leave_group(OTHER_GROUP_ID, members), Errors.NOT_COORDINATOR)
    verify_leave_group_result(
        h.batch_leave_group(GROUP_ID, members), Errors.NONE, [Errors.UNKNOWN_MEMBER_ID, Errors.UNKNOWN_MEMBER_ID]
    )


def test_pending_member_batch_leave_group(h: CoordinatorHarness) -> None:
    """A pending member leaves in a batch with an unknown instance: NONE for it, UNKNOWN_MEMBER_ID for the other."""
    pending = h.setup_group_with_pending_member()
    result = h.batch_leave_group(
        GROUP_ID, [member_identity(group_instance_id="unknown-instance"), member_identity(pending.member_id)]
    )
    verify_leave_group_result(result, Errors.NONE, [Errors.UNKNOWN_MEMBER_ID, Errors.NONE])
    assert h.group().num_pending == 0


def test_pending_member_with_unexpected_instance_id_batch_leave_group(h: CoordinatorHarness) -> None:
    """A pending member carrying an instance id is an illegal state."""
    pending = h.setup_group_with_pending_member()
    h.group().add_static_member("instanceId", pending.member_id)
    with pytest.raises(IllegalStateException) as error:
        h.batch_leave_group(
            GROUP_ID,
            [member_identity(group_instance_id="unknown-instance"), member_identity(pending.member_id, "instanceId")],
        )
    assert "instanceId" in str(error.value) and pending.member_id in str(error.value)


# ---- ListGroups / DescribeGroups -----------------------------------------------------------------------------


def test_list_groups_includes_stable_and_rebalancing_groups(h: CoordinatorHarness) -> None:
    """ListGroups reports a group with its protocol type and current state."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert h.coordinator.handle_list_groups(set()) == (
        Errors.NONE,
        [GroupOverview(GROUP_ID, "consumer", "CompletingRebalance")],
    )
    assert h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {join.member_id: b""}).error is (
        Errors.NONE
    )
    assert h.coordinator.handle_list_groups(set()) == (Errors.NONE, [GroupOverview(GROUP_ID, "consumer", "Stable")])


def test_list_groups_with_states(h: CoordinatorHarness) -> None:
    """The states filter keeps only groups in one of the given states."""
    all_states = {"PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty"}

    def counts(state: str) -> tuple[int, int]:
        error, matching = h.coordinator.handle_list_groups({state})
        error2, others = h.coordinator.handle_list_groups(all_states - {state})
        assert error is Errors.NONE and error2 is Errors.NONE
        return len(matching), len(others)

    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert counts("CompletingRebalance") == (1, 0)
    h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {join.member_id: b""})
    assert counts("Stable") == (1, 0)
    verify_leave_group_result(h.single_leave_group(GROUP_ID, join.member_id))
    assert counts("Empty") == (1, 0)


def test_describe_group_errors_and_unknown_group(h: CoordinatorHarness) -> None:
    """DescribeGroups: NOT_COORDINATOR for another coordinator's group; an unknown group is described as Dead."""
    assert h.coordinator.handle_describe_group(OTHER_GROUP_ID)[0] is Errors.NOT_COORDINATOR
    assert h.coordinator.handle_describe_group(GROUP_ID) == (Errors.NONE, GroupCoordinator.DEAD_GROUP)


def test_describe_group_stable(h: CoordinatorHarness) -> None:
    """A Stable group is described with its protocol and its members (instance ids included)."""
    join = h.static_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, LEADER_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert h.sync_group_leader(GROUP_ID, join.generation_id, join.member_id, {join.member_id: b"\x07"}).error is (
        Errors.NONE
    )
    error, summary = h.coordinator.handle_describe_group(GROUP_ID)
    assert error is Errors.NONE
    assert (summary.state, summary.protocol_type, summary.protocol) == ("Stable", PROTOCOL_TYPE, "range")
    assert [(m.member_id, m.group_instance_id, m.assignment) for m in summary.members] == [
        (join.member_id, LEADER_INSTANCE_ID, b"\x07")
    ]


def test_describe_group_rebalancing(h: CoordinatorHarness) -> None:
    """A rebalancing group is described without protocol, metadata or assignments."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    error, summary = h.coordinator.handle_describe_group(GROUP_ID)
    assert error is Errors.NONE
    assert (summary.protocol_type, summary.protocol, summary.state) == (
        PROTOCOL_TYPE,
        GroupCoordinator.NO_PROTOCOL,
        "CompletingRebalance",
    )
    assert [m.member_id for m in summary.members] == [join.member_id]
    assert all(m.metadata == b"" and m.assignment == b"" for m in summary.members)


# ---- DeleteGroups / OffsetDelete -----------------------------------------------------------------------------


def test_delete_groups_errors(h: CoordinatorHarness) -> None:
    """DeleteGroups: NON_EMPTY_GROUP for a group with members, INVALID_GROUP_ID for a null id, NOT_COORDINATOR for
    another coordinator's group, GROUP_ID_NOT_FOUND for an unknown one."""
    h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    assert h.coordinator.handle_delete_groups({GROUP_ID}) == {GROUP_ID: Errors.NON_EMPTY_GROUP}
    assert h.coordinator.handle_delete_groups({None}) == {None: Errors.INVALID_GROUP_ID}  # type: ignore[arg-type]
    assert h.coordinator.handle_delete_groups({OTHER_GROUP_ID}) == {OTHER_GROUP_ID: Errors.NOT_COORDINATOR}
    assert h.coordinator.handle_delete_groups({"unknown"}) == {"unknown": Errors.GROUP_ID_NOT_FOUND}


def test_delete_empty_group_with_stored_offsets(h: CoordinatorHarness) -> None:
    """An Empty group is deleted with its offsets: tombstones are written and it is then described as Dead."""
    join = _join_and_sync_single_member(h)
    tp = TopicPartition("topic", 0)
    assert h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, {tp: h.offset_and_metadata(0)}) == {
        tp: Errors.NONE
    }
    _, summary = h.coordinator.handle_describe_group(GROUP_ID)
    assert summary.state == "Stable" and summary.members[0].member_id == join.member_id
    verify_leave_group_result(h.single_leave_group(GROUP_ID, join.member_id))

    assert h.coordinator.handle_delete_groups({GROUP_ID}) == {GROUP_ID: Errors.NONE}
    partition = h.replica_manager.partitions[h.offsets_partition()]
    tombstones = [r for records in partition.appended for batch in records.batches() for r in batch]
    assert len(tombstones) == 2  # the offset and the group metadata
    assert all(not r.has_value() for r in tombstones)
    assert h.coordinator.handle_describe_group(GROUP_ID)[1].state == "Dead"


def test_delete_offset_of_non_existing_or_dead_group(h: CoordinatorHarness) -> None:
    """OffsetDelete for an unknown or Dead group is GROUP_ID_NOT_FOUND, with no partition results."""
    tp = TopicPartition("foo", 0)
    assert h.coordinator.handle_delete_offsets(GROUP_ID, [tp]) == (Errors.GROUP_ID_NOT_FOUND, {})
    group = GroupMetadata(GROUP_ID, Dead(), MockTime())
    group.protocol_type = PROTOCOL_TYPE
    h.group_manager.add_group(group)
    assert h.coordinator.handle_delete_offsets(GROUP_ID, [tp]) == (Errors.GROUP_ID_NOT_FOUND, {})


def test_delete_offset_of_non_empty_non_consumer_group(h: CoordinatorHarness) -> None:
    """A non-consumer group with members cannot have offsets deleted: NON_EMPTY_GROUP."""
    h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, "My Protocol", PROTOCOLS)
    assert h.coordinator.handle_delete_offsets(GROUP_ID, [TopicPartition("foo", 0)]) == (Errors.NON_EMPTY_GROUP, {})


@pytest.mark.parametrize("protocol_type", ["My Protocol", PROTOCOL_TYPE])
def test_delete_offset_of_empty_group(h: CoordinatorHarness, protocol_type: str) -> None:
    """An Empty group (consumer or not) has exactly the asked offsets deleted."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, protocol_type, PROTOCOLS)
    assert h.sync_group_leader(GROUP_ID, join.generation_id, join.leader_id, {}).error is Errors.NONE
    t1p0, t2p0 = TopicPartition("foo", 0), TopicPartition("bar", 0)
    offset = h.offset_and_metadata(37)
    assert h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, {t1p0: offset, t2p0: offset}) == {
        t1p0: Errors.NONE,
        t2p0: Errors.NONE,
    }
    verify_leave_group_result(h.single_leave_group(GROUP_ID, join.member_id))
    h.assert_group_state(Empty())

    assert h.coordinator.handle_delete_offsets(GROUP_ID, [t1p0]) == (Errors.NONE, {t1p0: Errors.NONE})
    cached = h.group_manager.get_offsets(GROUP_ID, REQUIRE_STABLE, [t1p0, t2p0])
    assert (cached[t1p0].offset, cached[t2p0].offset) == (INVALID_OFFSET, 37)


def test_delete_offset_of_consumer_group_with_unparsable_protocol(h: CoordinatorHarness) -> None:
    """When a consumer group's subscriptions cannot be read, every topic counts as subscribed."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, PROTOCOLS)
    h.sync_group_leader(GROUP_ID, join.generation_id, join.leader_id, {})
    tp = TopicPartition("foo", 0)
    assert h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, {tp: h.offset_and_metadata(37)}) == {
        tp: Errors.NONE
    }
    assert h.coordinator.handle_delete_offsets(GROUP_ID, [tp]) == (
        Errors.NONE,
        {tp: Errors.GROUP_SUBSCRIBED_TO_TOPIC},
    )


def test_delete_offset_of_stable_consumer_group(h: CoordinatorHarness) -> None:
    """A Stable consumer group keeps the offsets of subscribed topics (GROUP_SUBSCRIBED_TO_TOPIC) and loses the
    others."""
    join = h.dynamic_join_group(GROUP_ID, UNKNOWN_MEMBER_ID, PROTOCOL_TYPE, [("protocol", _subscription("bar"))])
    assert join.error is Errors.NONE
    assert h.sync_group_leader(GROUP_ID, join.generation_id, join.leader_id, {}).error is Errors.NONE
    t1p0, t2p0 = TopicPartition("foo", 0), TopicPartition("bar", 0)
    offset = h.offset_and_metadata(37)
    h.commit_offsets(GROUP_ID, join.member_id, join.generation_id, {t1p0: offset, t2p0: offset})
    h.assert_group_state(Stable())
    assert h.coordinator.handle_delete_offsets(GROUP_ID, [t1p0, t2p0]) == (
        Errors.NONE,
        {t1p0: Errors.NONE, t2p0: Errors.GROUP_SUBSCRIBED_TO_TOPIC},
    )
    cached = h.group_manager.get_offsets(GROUP_ID, REQUIRE_STABLE, [t1p0, t2p0])
    assert (cached[t1p0].offset, cached[t2p0].offset) == (INVALID_OFFSET, 37)


def test_handle_deleted_partitions_removes_offsets_of_every_group(h: CoordinatorHarness) -> None:
    """Offsets of deleted partitions disappear from every group; others stay."""
    t1, t2 = TopicPartition("gone", 0), TopicPartition("kept", 0)
    h.commit_offsets(GROUP_ID, "", -1, {t1: h.offset_and_metadata(1), t2: h.offset_and_metadata(2)})
    h.coordinator.handle_deleted_partitions([t1])
    _, data = h.coordinator.handle_fetch_offsets(GROUP_ID, REQUIRE_STABLE, [t1, t2])
    assert (data[t1].offset, data[t2].offset) == (INVALID_OFFSET, 2)


# ---- delayed operations --------------------------------------------------------------------------------------


def test_delayed_operations_run_under_the_group_lock(h: CoordinatorHarness) -> None:
    """DelayedJoin, InitialDelayedJoin, DelayedSync and DelayedHeartbeat lock with their group's lock, and an
    InitialDelayedJoin never completes early even when every member has joined."""
    from kafka.coordinator.group.delayed_heartbeat import DelayedHeartbeat
    from kafka.coordinator.group.delayed_join import DelayedJoin, InitialDelayedJoin
    from kafka.coordinator.group.delayed_sync import DelayedSync
    from kafka.server.delayed_operation_key import GroupSyncKey

    group = GroupMetadata(GROUP_ID, Empty(), h.time)
    initial = InitialDelayedJoin(h.coordinator, h.coordinator.rebalance_purgatory, group, 50, 50, 100)
    operations = [
        DelayedJoin(h.coordinator, group, 100),
        initial,
        DelayedSync(h.coordinator, group, 0, 100),
        DelayedHeartbeat(h.coordinator, group, MEMBER_ID, False, 100),
    ]
    assert all(op.lock is group.lock for op in operations)
    assert group.has_all_members_joined
    assert not initial.try_complete()
    assert not initial.is_completed
    assert GroupSyncKey(GROUP_ID).key_label == f"sync-{GROUP_ID}"
