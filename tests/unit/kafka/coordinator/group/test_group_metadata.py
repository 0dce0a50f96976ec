"""Tests of kafka.coordinator.group.group_metadata, after Kafka's GroupMetadataTest."""

from __future__ import annotations

import itertools

import pytest

from kafka.common.message import ConsumerProtocolSubscriptionData
from kafka.common.protocol.errors import Errors
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.coordinator.group.group_metadata import (
    CommitRecordMetadataAndOffset,
    CompletingRebalance,
    Dead,
    Empty,
    GroupMetadata,
    GroupOverview,
    GroupState,
    JoinGroupResult,
    PreparingRebalance,
    Stable,
    SyncGroupResult,
)
from kafka.coordinator.group.member_metadata import MemberMetadata
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata

ALL_STATES: list[GroupState] = [Empty(), PreparingRebalance(), CompletingRebalance(), Stable(), Dead()]
VALID = {
    (Empty(), PreparingRebalance()),
    (PreparingRebalance(), CompletingRebalance()),
    (PreparingRebalance(), Empty()),
    (CompletingRebalance(), Stable()),
    (Stable(), PreparingRebalance()),
    (CompletingRebalance(), PreparingRebalance()),
} | {(s, Dead()) for s in ALL_STATES}


def _subscription(*topics: str) -> bytes:
    return b"\x00\x00" + ConsumerProtocolSubscriptionData(topics=list(topics)).write(0)


def _member(member_id: str, protocols: list[tuple[str, bytes]], instance: str | None = None) -> MemberMetadata:
    return MemberMetadata(member_id, instance, "client", "host", 30000, 10000, "consumer", protocols)


def _group_in(state: GroupState, time: MockTime) -> GroupMetadata:
    group = GroupMetadata("g", Empty(), time)
    paths: dict[GroupState, list[GroupState]] = {
        Empty(): [],
        PreparingRebalance(): [PreparingRebalance()],
        CompletingRebalance(): [PreparingRebalance(), CompletingRebalance()],
        Stable(): [PreparingRebalance(), CompletingRebalance(), Stable()],
        Dead(): [Dead()],
    }
    path = paths[state]
    for s in path:
        group.transition_to(s)
    return group


@pytest.mark.parametrize(("source", "target"), list(itertools.product(ALL_STATES, ALL_STATES)), ids=str)
def test_every_transition(source: GroupState, target: GroupState) -> None:
    """Each of the 25 transitions is allowed exactly when Kafka allows it, and stamps the time."""
    time = MockTime(start_ms=1000)
    group = _group_in(source, time)
    time.sleep(5)
    if (source, target) in VALID:
        group.transition_to(target)
        assert group.is_(target) and group.current_state_timestamp == 1005
    else:
        with pytest.raises(RuntimeError, match=f"before moving to {target} state. Instead it is in {source} state"):
            group.transition_to(target)
        assert group.is_(source)


def test_transition_error_message_lists_previous_states() -> None:
    """The message names the valid previous states in Kafka's order."""
    group = GroupMetadata("g", Stable(), MockTime())
    with pytest.raises(RuntimeError) as e:
        group.transition_to(Empty())
    assert str(e.value) == (
        "Group g should be in the PreparingRebalance states before moving to Empty state. Instead it is in Stable state"
    )
    group2 = GroupMetadata("g", Empty(), MockTime())
    group2.transition_to(PreparingRebalance())
    group2.transition_to(CompletingRebalance())
    group2.transition_to(Stable())
    with pytest.raises(RuntimeError, match="should be in the Stable,CompletingRebalance,Empty states"):
        GroupMetadata("g", Dead(), MockTime()).transition_to(PreparingRebalance())


def test_can_rebalance() -> None:
    """Only Stable, CompletingRebalance and Empty groups can start a rebalance."""
    time = MockTime()
    assert [s for s in ALL_STATES if _group_in(s, time).can_rebalance] == [Empty(), CompletingRebalance(), Stable()]


def test_select_protocol_by_votes() -> None:
    """The protocol most members prefer among those all support wins."""
    group = GroupMetadata("g", Empty(), MockTime())
    with pytest.raises(RuntimeError, match="empty group"):
        group.select_protocol()
    group.add(_member("m1", [("range", b""), ("roundrobin", b"")]))
    assert group.select_protocol() == "range"
    group.add(_member("m2", [("roundrobin", b""), ("range", b"")]))
    group.add(_member("m3", [("roundrobin", b""), ("blah", b"")]))
    assert group.select_protocol() == "roundrobin"
    group.remove("m3")
    group.add(_member("m3", [("range", b""), ("roundrobin", b"")]))
    assert group.select_protocol() == "range"


def test_select_protocol_only_common_candidates() -> None:
    """A protocol one member lacks cannot be chosen, however popular."""
    group = GroupMetadata("g", Empty(), MockTime())
    group.add(_member("m1", [("range", b""), ("roundrobin", b"")]))
    group.add(_member("m2", [("range", b""), ("roundrobin", b"")]))
    group.transition_to(PreparingRebalance())
    assert not group.supports_protocols("consumer", {"blah"})
    assert group.supports_protocols("consumer", {"roundrobin", "blah"})
    assert not group.supports_protocols("other", {"range"})
    group.add(_member("m3", [("roundrobin", b""), ("blah", b"")]))
    assert group.select_protocol() == "roundrobin"


def test_supports_protocols_when_empty() -> None:
    """An Empty group accepts any non-empty protocol type with some protocol."""
    group = GroupMetadata("g", Empty(), MockTime())
    assert group.supports_protocols("consumer", {"range"})
    assert not group.supports_protocols("", {"range"})
    assert not group.supports_protocols("consumer", set())


def test_add_remove_leader_and_join_counts() -> None:
    """First member leads; removing the leader passes leadership on; join counts follow callbacks."""
    group = GroupMetadata("g", Empty(), MockTime())
    group.add(_member("m1", [("range", b"")]), lambda r: None)
    group.add(_member("m2", [("range", b"")]))
    assert group.is_leader("m1") and group.num_awaiting == 1
    assert not group.has_all_members_joined
    assert set(group.not_yet_rejoined_members) == {"m2"}
    group.update_member(group.get("m2"), [("range", b"")], lambda r: None)
    assert group.has_all_members_joined
    group.add_pending_member("p")
    assert not group.has_all_members_joined and group.is_pending_member("p")
    group.remove_pending_member("p")
    group.remove("m1")
    assert group.is_leader("m2") and group.num_awaiting == 1 and group.size == 1
    group.remove("m2")
    assert group.leader_or_null is None


def test_replace_static_member_fences_old_callbacks() -> None:
    """Replacing a static member moves it to the new id, keeps leadership and fences parked requests."""
    group = GroupMetadata("g", Empty(), MockTime())
    joined: list[JoinGroupResult] = []
    synced: list[SyncGroupResult] = []
    member = _member("old", [("range", b"")], instance="inst")
    group.add(member, joined.append)
    group.add_static_member("inst", "old")
    member.awaiting_sync_callback = synced.append
    replaced = group.replace_group_instance("old", "new", "inst")
    assert replaced is member and member.member_id == "new"
    assert joined == [JoinGroupResult.of_error("old", Errors.FENCED_INSTANCE_ID)]
    assert synced == [SyncGroupResult.of_error(Errors.FENCED_INSTANCE_ID)]
    assert not member.is_awaiting_join and not member.is_awaiting_sync and group.num_awaiting == 0
    assert group.is_leader("new") and group.get_static_member_id("inst") == "new"
    assert group.all_members == {"new"} and group.all_dynamic_members == frozenset()
    assert group.is_static_member_fenced("old", "inst", "join")
    assert not group.is_static_member_fenced("new", "inst", "x")
    with pytest.raises(ValueError, match="non-existing member id old"):
        group.replace_group_instance("old", "x", "inst")
    with pytest.raises(ValueError, match=r"null group\.instance\.id"):
        group.replace_group_instance("new", "x", None)
    group.remove("new")
    assert not group.has_static_member("inst")


def test_init_next_generation() -> None:
    """A new generation selects a protocol and completes the rebalance, or empties the group."""
    time = MockTime()
    group = GroupMetadata("g", Empty(), time)
    group.transition_to(PreparingRebalance())
    group.add(_member("m1", [("range", _subscription("t1", "t2"))]), lambda r: None)
    group.init_next_generation()
    assert group.generation_id == 1 and group.protocol_name == "range" and group.is_(CompletingRebalance())
    assert group.get_subscribed_topics() == frozenset({"t1", "t2"})
    group.transition_to(PreparingRebalance())
    group.remove("m1")
    group.init_next_generation()
    assert group.generation_id == 2 and group.protocol_name is None and group.is_(Empty())
    assert group.get_subscribed_topics() == frozenset()


def test_unparsable_subscription_means_unknown_topics() -> None:
    """Bad consumer metadata leaves the subscribed topics unknown, so every topic counts as subscribed."""
    group = GroupMetadata("g", Empty(), MockTime())
    group.transition_to(PreparingRebalance())
    group.add(_member("m1", [("range", b"\x00\x00\x00\x00\x00\x09")]))
    group.init_next_generation()
    assert group.get_subscribed_topics() is None and group.is_subscribed_to_topic("anything")


def test_summary_and_overview() -> None:
    """Stable groups describe member metadata; others do not."""
    group = GroupMetadata("g", Empty(), MockTime())
    group.add(_member("m1", [("range", b"\x01")]))
    assert group.summary().protocol == "" and group.summary().members[0].metadata == b""
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    group.transition_to(Stable())
    summary = group.summary()
    assert (summary.state, summary.protocol_type, summary.protocol) == ("Stable", "consumer", "range")
    assert summary.members[0].metadata == b"\x01"
    assert group.overview() == GroupOverview("g", "consumer", "Stable")


TP = TopicPartition("foo", 0)
TP2 = TopicPartition("bar", 0)


def _commit(offset: int, ts: int = 0, expire: int | None = None) -> OffsetAndMetadata:
    return OffsetAndMetadata.create(offset, "", ts, expire)


def test_offset_commit_lifecycle() -> None:
    """Pending commits become cached on append, are dropped on failure, and older records never win."""
    group = GroupMetadata("g", Empty(), MockTime())
    assert not group.has_offsets
    group.prepare_offset_commit({TP: _commit(37)})
    assert group.has_offsets and group.offset(TP) is None
    group.on_offset_commit_append(TP, CommitRecordMetadataAndOffset(5, _commit(37)))
    assert group.offset(TP) == _commit(37) and not group.has_pending_offset_commits_for_topic_partition(TP)
    group.prepare_offset_commit({TP: _commit(40)})
    group.fail_pending_offset_write(TP, _commit(40))
    assert group.offset(TP) == _commit(37) and not group.has_pending_offset_commits_for_topic_partition(TP)
    group.prepare_offset_commit({TP: _commit(50)})
    group.on_offset_commit_append(TP, CommitRecordMetadataAndOffset(3, _commit(50)))
    assert group.offset(TP) == _commit(37)
    with pytest.raises(RuntimeError, match="without providing the metadata"):
        group.prepare_offset_commit({TP: _commit(51)})
        group.on_offset_commit_append(TP, CommitRecordMetadataAndOffset(None, _commit(51)))
    assert group.remove_offsets([TP]) == {TP: _commit(37)} and not group.has_offsets


def test_transactional_commit_and_abort() -> None:
    """Transactional offsets show only after commit, are dropped on abort, and older records lose."""
    group = GroupMetadata("g", Empty(), MockTime())
    group.prepare_txn_offset_commit(7, {TP: _commit(10)})
    assert group.has_pending_offset_commits_from_producer(7) and group.offset(TP) is None
    with pytest.raises(RuntimeError, match="hasn't been appended"):
        group.complete_pending_txn_offset_commit(7, True)
    group.prepare_txn_offset_commit(7, {TP: _commit(10)})
    group.on_txn_offset_commit_append(7, TP, CommitRecordMetadataAndOffset(4, _commit(10)))
    group.complete_pending_txn_offset_commit(7, True)
    assert group.offset(TP) == _commit(10) and group.active_producers == frozenset()
    group.prepare_txn_offset_commit(8, {TP: _commit(20)})
    group.on_txn_offset_commit_append(8, TP, CommitRecordMetadataAndOffset(9, _commit(20)))
    group.complete_pending_txn_offset_commit(8, False)
    assert group.offset(TP) == _commit(10)
    group.prepare_txn_offset_commit(9, {TP: _commit(30)})
    group.on_txn_offset_commit_append(9, TP, CommitRecordMetadataAndOffset(2, _commit(30)))
    group.complete_pending_txn_offset_commit(9, True)
    assert group.offset(TP) == _commit(10)
    group.prepare_txn_offset_commit(10, {TP: _commit(1)})
    group.fail_pending_txn_offset_commit(10, TP)
    assert not group.has_pending_offset_commits_from_producer(10)
    group.prepare_offset_commit({TP2: _commit(1)})
    assert not group.has_received_consistent_offset_commits


def _cached(group: GroupMetadata, tp: TopicPartition, offset: OffsetAndMetadata, batch: int = 0) -> None:
    group.initialize_offsets({tp: CommitRecordMetadataAndOffset(batch, offset)}, {})


def test_expiry_of_standalone_consumer_offsets() -> None:
    """Without a protocol type, offsets expire by commit time; explicit expire timestamps win; pending stays."""
    group = GroupMetadata("g", Empty(), MockTime())
    _cached(group, TP, _commit(1, ts=100))
    _cached(group, TP2, _commit(2, ts=100, expire=10_000))
    group.prepare_offset_commit({TopicPartition("p", 0): _commit(3)})
    _cached(group, TopicPartition("p", 0), _commit(3, ts=0))
    assert group.remove_expired_offsets(1099, 1000) == {}
    assert group.remove_expired_offsets(1100, 1000) == {TP: _commit(1, ts=100)}
    assert group.remove_expired_offsets(9999, 1000) == {}
    assert group.remove_expired_offsets(10_000, 1000) == {TP2: _commit(2, ts=100, expire=10_000)}
    assert group.all_offsets == {TopicPartition("p", 0): _commit(3, ts=0)}


def test_expiry_of_empty_group_counts_from_becoming_empty() -> None:
    """An Empty group with a protocol type expires offsets retention after it became Empty."""
    time = MockTime(start_ms=5000)
    group = GroupMetadata("g", Empty(), time)
    group.add(_member("m1", [("range", _subscription("foo"))]))
    group.transition_to(PreparingRebalance())
    group.remove("m1")
    group.init_next_generation()  # Empty at 5000
    _cached(group, TP, _commit(1, ts=0))
    assert group.remove_expired_offsets(5999, 1000) == {}
    assert group.remove_expired_offsets(6000, 1000) == {TP: _commit(1, ts=0)}
    group.current_state_timestamp = None  # loaded from the old schema: commit time counts
    _cached(group, TP, _commit(1, ts=0))
    assert group.remove_expired_offsets(1000, 1000) == {TP: _commit(1, ts=0)}


def test_expiry_of_stable_consumer_group_spares_subscribed_topics() -> None:
    """A Stable consumer group expires only offsets of topics no member subscribes to."""
    group = GroupMetadata("g", Empty(), MockTime())
    group.add(_member("m1", [("range", _subscription("foo"))]))
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    _cached(group, TP, _commit(1, ts=0))
    _cached(group, TP2, _commit(2, ts=0))
    assert group.remove_expired_offsets(10**6, 1000) == {}  # CompletingRebalance: nothing expires
    group.transition_to(Stable())
    assert group.remove_expired_offsets(10**6, 1000) == {TP2: _commit(2, ts=0)}
    assert group.all_offsets == {TP: _commit(1, ts=0)}


def test_expiry_of_non_consumer_group_with_members() -> None:
    """A non-empty group of another protocol type never expires offsets."""
    group = GroupMetadata("g", Empty(), MockTime())
    group.add(MemberMetadata("m", None, "c", "h", 1, 1, "connect", [("p", b"")]))
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    group.transition_to(Stable())
    _cached(group, TP, _commit(1, ts=0))
    assert group.remove_expired_offsets(10**9, 1) == {}


def test_pending_sync_members() -> None:
    """Pending syncs are tracked only for members and cleared by a new generation."""
    group = GroupMetadata("g", Empty(), MockTime())
    with pytest.raises(RuntimeError, match="not a member of the group"):
        group.add_pending_sync_member("x")
    group.add(_member("m1", [("range", b"")]))
    group.add_pending_sync_member("m1")
    assert not group.has_received_sync_from_all_members
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    assert group.has_received_sync_from_all_members
