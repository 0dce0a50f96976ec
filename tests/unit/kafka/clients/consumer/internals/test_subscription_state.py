"""Tests of SubscriptionState (after Java's SubscriptionStateTest): subscription types, assignment changes,
positions, pause, resets, validation after leader changes, truncation detection and read replicas."""

from __future__ import annotations

import re

import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.internals.subscription_state import FetchPosition, SubscriptionState
from kafka.clients.consumer.no_offset_for_partition_exception import NoOffsetForPartitionException
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.metadata import LeaderAndEpoch
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import OffsetForLeaderEpochResponseData
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

TOPIC, TOPIC1 = "test", "test1"
TP0, TP1 = TopicPartition(TOPIC, 0), TopicPartition(TOPIC, 1)
T1P0 = TopicPartition(TOPIC1, 0)
BROKER1 = Node(1, "localhost", 9092)


@pytest.fixture
def state() -> SubscriptionState:
    return SubscriptionState(LogContext(), OffsetResetStrategy.EARLIEST)


def _epoch_end(leader_epoch: int, end_offset: int) -> object:
    return OffsetForLeaderEpochResponseData.EpochEndOffset(leader_epoch=leader_epoch, end_offset=end_offset)


def test_partition_assignment(state: SubscriptionState) -> None:
    """A user assignment subscribes to its topics; a partition has no position until seeked."""
    state.assign_from_user({TP0})
    assert state.assigned_partitions() == {TP0}
    assert state.num_assigned_partitions() == 1
    assert not state.has_all_fetch_positions()
    state.seek(TP0, 1)
    assert state.is_fetchable(TP0)
    assert state.partition_lag(TP0, IsolationLevel.READ_UNCOMMITTED) is None


def test_partition_assignment_change_on_topic_subscription(state: SubscriptionState) -> None:
    """A user assignment cannot be replaced by a subscription; after unsubscribe it can."""
    state.assign_from_user({TP0, TP1})
    assert state.subscription() == set()
    state.assign_from_user({T1P0})
    assert state.assigned_partitions() == {T1P0}
    with pytest.raises(RuntimeError):
        state.subscribe({TOPIC}, None)
    state.unsubscribe()
    assert state.subscribe({TOPIC}, None)
    assert state.assigned_partitions() == set()
    state.assign_from_subscribed([TP0])
    assert state.assigned_partitions() == {TP0}


def test_group_subscribe(state: SubscriptionState) -> None:
    """The leader watches the group's topics; metadata_topics is their union with our own."""
    state.subscribe({TOPIC1}, None)
    assert state.metadata_topics() == {TOPIC1}
    assert not state.group_subscribe({TOPIC1})
    assert state.group_subscribe({TOPIC, TOPIC1})
    assert state.metadata_topics() == {TOPIC, TOPIC1}
    state.reset_group_subscription()
    assert state.metadata_topics() == {TOPIC1}
    state.unsubscribe()
    with pytest.raises(RuntimeError):
        state.group_subscribe({TOPIC1})


def test_pattern_subscription(state: SubscriptionState) -> None:
    """A pattern must match all of a topic name, as Java's Matcher.matches."""
    state.subscribe_pattern(re.compile(r"test.*"), None)
    assert state.has_pattern_subscription()
    assert state.matches_subscribed_pattern("test1")
    assert not state.matches_subscribed_pattern("xtest")
    assert not re.compile("t").fullmatch("test")
    state.subscribe_pattern(re.compile("t"), None)
    assert not state.matches_subscribed_pattern("test")
    assert state.subscribe_from_pattern({TOPIC, TOPIC1})
    assert state.subscription() == {TOPIC, TOPIC1}


def test_cant_assign_partition_for_unsubscribed_topics(state: SubscriptionState) -> None:
    """An assignment naming a topic outside the subscription is flagged."""
    state.subscribe({TOPIC}, None)
    assert not state.check_assignment_matched_subscription([T1P0])


def test_cant_assign_partition_for_unmatched_pattern(state: SubscriptionState) -> None:
    """An assignment naming a topic the pattern does not match is flagged."""
    state.subscribe_pattern(re.compile(TOPIC + ".*"), None)
    assert not state.check_assignment_matched_subscription([TopicPartition("other", 0)])
    assert state.check_assignment_matched_subscription([T1P0])


def test_cant_change_position_for_non_assigned_partition(state: SubscriptionState) -> None:
    """Positions exist only for assigned partitions."""
    with pytest.raises(RuntimeError):
        state.set_position(TP0, FetchPosition(1))


@pytest.mark.parametrize(
    "first,second",
    [("topic", "pattern"), ("partition", "pattern"), ("pattern", "topic"), ("pattern", "partition")],
)
def test_subscription_types_are_exclusive(state: SubscriptionState, first: str, second: str) -> None:
    """Topic, pattern and partition subscriptions are mutually exclusive."""
    actions = {
        "topic": lambda: state.subscribe({TOPIC}, None),
        "pattern": lambda: state.subscribe_pattern(re.compile(".*"), None),
        "partition": lambda: state.assign_from_user({TP0}),
    }
    actions[first]()
    with pytest.raises(RuntimeError, match="mutually exclusive"):
        actions[second]()


def test_verify_assignment_id(state: SubscriptionState) -> None:
    """Every assignment change (and unsubscribe) bumps the assignment id; an unchanged one does not."""
    assert state.assignment_id() == 0
    state.assign_from_user({TP0, TP1})
    assert state.assignment_id() == 1
    state.assign_from_user({TP0, TP1})
    assert state.assignment_id() == 1
    state.unsubscribe()
    assert state.assignment_id() == 2


def test_partition_reset(state: SubscriptionState) -> None:
    """A reset request puts a partition in AWAIT_RESET (no position) until seeked."""
    state.assign_from_user({TP0})
    state.seek(TP0, 5)
    assert state.position(TP0) == FetchPosition(5)
    state.request_offset_reset(TP0)
    assert not state.is_fetchable(TP0)
    assert state.is_offset_reset_needed(TP0)
    assert state.reset_strategy(TP0) is OffsetResetStrategy.EARLIEST
    assert state.position(TP0) is None
    state.seek(TP0, 0)
    assert state.is_fetchable(TP0)
    assert not state.is_offset_reset_needed(TP0)


def test_partition_pause(state: SubscriptionState) -> None:
    """A paused partition keeps its position but is not fetchable until resumed."""
    state.assign_from_user({TP0})
    state.seek(TP0, 100)
    state.pause(TP0)
    assert state.paused_partitions() == {TP0}
    assert not state.is_fetchable(TP0)
    assert state.position(TP0) == FetchPosition(100)
    state.resume(TP0)
    assert state.is_fetchable(TP0)


def test_marking_partition_pending(state: SubscriptionState) -> None:
    """A partition pending revocation is not fetchable."""
    state.assign_from_user({TP0})
    state.seek(TP0, 100)
    assert state.is_fetchable(TP0)
    state.mark_pending_revocation({TP0})
    assert not state.is_fetchable(TP0)
    assert not state.is_paused(TP0)


def test_invalid_position_update(state: SubscriptionState) -> None:
    """A position cannot be set for a partition awaiting reset."""
    state.subscribe({TOPIC}, None)
    state.assign_from_subscribed([TP0])
    state.request_offset_reset(TP0)
    with pytest.raises(RuntimeError):
        state.set_position(TP0, FetchPosition(0))


def test_unsubscribe_user_assignment(state: SubscriptionState) -> None:
    """After unsubscribing a user assignment, a topic subscription is possible."""
    state.assign_from_user({TP0, TP1})
    state.unsubscribe()
    state.subscribe({TOPIC}, None)
    assert state.subscription() == {TOPIC}


def test_unsubscription(state: SubscriptionState) -> None:
    """Unsubscribing clears the subscription, the pattern and the assignment."""
    state.subscribe_pattern(re.compile(".*"), None)
    state.subscribe_from_pattern({TOPIC, TOPIC1})
    state.assign_from_subscribed([TP1])
    state.unsubscribe()
    assert state.subscription() == set()
    assert state.assigned_partitions() == set()
    assert not state.has_pattern_subscription()
    state.assign_from_user({TP0})
    assert state.assigned_partitions() == {TP0}


def test_preferred_read_replica_lease(state: SubscriptionState) -> None:
    """A preferred read replica holds until its expiry time, can be cleared and replaced."""
    state.assign_from_user({TP0})
    assert state.preferred_read_replica(TP0, 0) is None
    state.update_preferred_read_replica(TP0, 42, lambda: 10)
    assert state.preferred_read_replica(TP0, 9) == 42
    assert state.preferred_read_replica(TP0, 10) == 42
    assert state.preferred_read_replica(TP0, 11) is None
    state.clear_preferred_read_replica(TP0)
    assert state.preferred_read_replica(TP0, 9) is None
    state.update_preferred_read_replica(TP0, 43, lambda: 20)
    assert state.preferred_read_replica(TP0, 20) == 43
    assert state.preferred_read_replica(TP0, 21) is None
    state.update_preferred_read_replica(TP0, 44, lambda: 30)
    assert state.preferred_read_replica(TP0, 30) == 44
    assert state.preferred_read_replica(TP0, 31) is None


def test_seek_unvalidated_with_no_offset_epoch(state: SubscriptionState) -> None:
    """Without an offset epoch, a seek needs no validation."""
    state.assign_from_user({TP0})
    state.seek_unvalidated(TP0, FetchPosition(0, None, LeaderAndEpoch(BROKER1, 5)))
    assert state.has_valid_position(TP0)
    assert not state.awaiting_validation(TP0)


def test_seek_unvalidated_with_offset_epoch(state: SubscriptionState) -> None:
    """With an offset epoch and a leader epoch, a seek awaits validation; a validated seek clears it."""
    state.assign_from_user({TP0})
    state.seek_unvalidated(TP0, FetchPosition(0, 2, LeaderAndEpoch(BROKER1, 5)))
    assert not state.has_valid_position(TP0)
    assert state.awaiting_validation(TP0)
    state.seek_validated(TP0, FetchPosition(10, 3, LeaderAndEpoch(BROKER1, 5)))
    assert state.has_valid_position(TP0)
    assert not state.awaiting_validation(TP0)


def test_complete_validation_should_clear_awaiting_validation(state: SubscriptionState) -> None:
    """complete_validation makes the position valid again."""
    state.assign_from_user({TP0})
    state.seek_unvalidated(TP0, FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10)))
    assert state.awaiting_validation(TP0)
    state.complete_validation(TP0)
    assert state.has_valid_position(TP0)
    assert not state.awaiting_validation(TP0)


def test_offset_reset_while_awaiting_validation(state: SubscriptionState) -> None:
    """A reset request supersedes a pending validation."""
    state.assign_from_user({TP0})
    state.seek_unvalidated(TP0, FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10)))
    state.request_offset_reset(TP0, OffsetResetStrategy.EARLIEST)
    assert not state.awaiting_validation(TP0)
    assert state.is_offset_reset_needed(TP0)


def test_maybe_complete_validation(state: SubscriptionState) -> None:
    """An end offset past the position completes validation without moving it."""
    state.assign_from_user({TP0})
    position = FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10))
    state.seek_unvalidated(TP0, position)
    assert state.awaiting_validation(TP0)
    assert state.maybe_complete_validation(TP0, position, _epoch_end(5, 15)) is None
    assert not state.awaiting_validation(TP0)
    assert state.position(TP0) == position


def test_maybe_validate_position_for_current_leader() -> None:
    """Validation is skipped for leaders with OffsetsForLeaderEpoch below v3 and used from v3."""
    state = SubscriptionState(LogContext(), OffsetResetStrategy.EARLIEST)
    api_versions = ApiVersions()
    api_versions.update("1", NodeApiVersions.create(ApiKeys.OFFSET_FOR_LEADER_EPOCH.id, 0, 2))
    state.assign_from_user({TP0})
    state.seek_unvalidated(TP0, FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10)))
    assert not state.maybe_validate_position_for_current_leader(api_versions, TP0, LeaderAndEpoch(BROKER1, 10))
    assert state.has_valid_position(TP0)
    api_versions.update("1", NodeApiVersions.create())
    state.seek_unvalidated(TP0, FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10)))
    assert state.maybe_validate_position_for_current_leader(api_versions, TP0, LeaderAndEpoch(BROKER1, 10))
    assert not state.has_valid_position(TP0)
    assert not state.maybe_validate_position_for_current_leader(api_versions, TP1, LeaderAndEpoch(BROKER1, 10))


def test_maybe_complete_validation_after_position_change(state: SubscriptionState) -> None:
    """An answer to an outdated request is ignored."""
    state.assign_from_user({TP0})
    initial = FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10))
    updated = FetchPosition(15, 6, LeaderAndEpoch(BROKER1, 10))
    state.seek_unvalidated(TP0, initial)
    state.seek_unvalidated(TP0, updated)
    assert state.maybe_complete_validation(TP0, initial, _epoch_end(5, 20)) is None
    assert state.awaiting_validation(TP0)
    assert state.position(TP0) == updated


def test_maybe_complete_validation_after_offset_reset(state: SubscriptionState) -> None:
    """An answer arriving after a reset request is ignored."""
    state.assign_from_user({TP0})
    initial = FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10))
    state.seek_unvalidated(TP0, initial)
    state.request_offset_reset(TP0)
    assert state.maybe_complete_validation(TP0, initial, _epoch_end(5, 20)) is None
    assert state.is_offset_reset_needed(TP0)
    assert state.position(TP0) is None


def test_truncation_detection_with_reset_policy(state: SubscriptionState) -> None:
    """With a reset policy, a truncation moves the position to the first divergent offset."""
    state.assign_from_user({TP0})
    initial = FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10))
    state.seek_unvalidated(TP0, initial)
    assert state.maybe_complete_validation(TP0, initial, _epoch_end(7, 5)) is None
    assert not state.awaiting_validation(TP0)
    assert state.position(TP0) == FetchPosition(5, 7, LeaderAndEpoch(BROKER1, 10))


def test_truncation_detection_without_reset_policy() -> None:
    """Without a reset policy, a truncation is reported with the divergent offset."""
    state = SubscriptionState(LogContext(), OffsetResetStrategy.NONE)
    state.assign_from_user({TP0})
    initial = FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10))
    state.seek_unvalidated(TP0, initial)
    truncation = state.maybe_complete_validation(TP0, initial, _epoch_end(7, 5))
    assert truncation is not None
    assert truncation.topic_partition == TP0
    assert truncation.divergent_offset == OffsetAndMetadata(5, None, 7)
    assert state.awaiting_validation(TP0)


def test_truncation_detection_unknown_divergent_offset_with_reset_policy(state: SubscriptionState) -> None:
    """An undefined end offset with a reset policy resets the partition."""
    state.assign_from_user({TP0})
    initial = FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10))
    state.seek_unvalidated(TP0, initial)
    assert state.maybe_complete_validation(TP0, initial, _epoch_end(-1, -1)) is None
    assert state.is_offset_reset_needed(TP0)


def test_truncation_detection_unknown_divergent_offset_without_reset_policy() -> None:
    """An undefined end offset without a reset policy is reported with no divergent offset."""
    state = SubscriptionState(LogContext(), OffsetResetStrategy.NONE)
    state.assign_from_user({TP0})
    initial = FetchPosition(10, 5, LeaderAndEpoch(BROKER1, 10))
    state.seek_unvalidated(TP0, initial)
    truncation = state.maybe_complete_validation(TP0, initial, _epoch_end(-1, -1))
    assert truncation is not None and truncation.divergent_offset is None


def test_reset_initializing_positions() -> None:
    """Partitions without positions are reset with the default strategy, or raise without one."""
    state = SubscriptionState(LogContext(), OffsetResetStrategy.LATEST)
    state.assign_from_user({TP0, TP1})
    state.seek(TP1, 3)
    state.reset_initializing_positions()
    assert state.is_offset_reset_needed(TP0)
    assert state.reset_strategy(TP0) is OffsetResetStrategy.LATEST
    assert not state.is_offset_reset_needed(TP1)
    none_state = SubscriptionState(LogContext(), OffsetResetStrategy.NONE)
    none_state.assign_from_user({TP0})
    with pytest.raises(NoOffsetForPartitionException) as e:
        none_state.reset_initializing_positions()
    assert e.value.partitions() == {TP0}


def test_null_position_lag_on_no_position(state: SubscriptionState) -> None:
    """Without a position there is no lag; with one, lag is the high watermark (or LSO) minus it."""
    state.assign_from_user({TP0})
    assert state.partition_lag(TP0, IsolationLevel.READ_UNCOMMITTED) is None
    assert state.partition_lag(TP0, IsolationLevel.READ_COMMITTED) is None
    state.seek(TP0, 3)
    state.update_high_watermark(TP0, 10)
    state.update_last_stable_offset(TP0, 8)
    assert state.partition_lag(TP0, IsolationLevel.READ_UNCOMMITTED) == 7
    assert state.partition_lag(TP0, IsolationLevel.READ_COMMITTED) == 5


def test_all_consumed_and_assignment_order(state: SubscriptionState) -> None:
    """all_consumed gives positions with their epochs; partitions of a topic stay together and a fetched
    partition moves to the end."""
    state.assign_from_user({TP0, T1P0, TP1})
    order = state.assigned_partitions_list()
    assert abs(order.index(TP0) - order.index(TP1)) == 1
    state.seek_validated(TP0, FetchPosition(4, 2, LeaderAndEpoch(BROKER1, 3)))
    assert state.all_consumed() == {TP0: OffsetAndMetadata(4, "", 2)}
    state.move_partition_to_end(TP0)
    assert state.assigned_partitions_list()[-1] == TP0
