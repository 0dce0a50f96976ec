"""Port of core/src/main/scala/kafka/coordinator/group/GroupMetadata.scala (Kafka 2.8).

The coordinator's in-memory picture of one consumer group: its state machine (GroupState and
its five states), its members and static members, the protocol chosen for the current generation,
and the offsets committed for it, including commits still being written to `__consumer_offsets`
and transactional commits waiting for their transaction to end.

Callers hold `group.lock` (an RLock, Kafka's ReentrantLock) around every use; the class itself
does no locking.
"""

# PORT: `JoinGroupResult`, `SyncGroupResult` and the `No*` constants come from Kafka's
# GroupCoordinator.scala. GroupMetadata needs them (it fences replaced static members with
# FENCED_INSTANCE_ID results), and the coordinator module is built on top of this one, so they are
# defined here and the coordinator re-exports them.
# PORT: Kafka keeps members in a Scala HashMap, whose iteration order follows hash codes; we keep
# insertion order. This decides which member becomes leader after the leader leaves, and which
# protocol wins a tie in `select_protocol` (the one voted for first); Kafka gives neither any
# meaning beyond "some member" / "some protocol".

from __future__ import annotations

import struct
import threading
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.common.errors import KafkaException
from kafka.common.message import ConsumerProtocolSubscriptionData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import INT16
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.coordinator.group.member_metadata import MemberMetadata, MemberSummary, Protocol
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.utils.core_utils import scala_option
from kafka.utils.logging import Logging

# ConsumerProtocol.PROTOCOL_TYPE (clients' consumer internals).
CONSUMER_PROTOCOL_TYPE = "consumer"

# GroupCoordinator's companion constants.
NO_STATE = ""
NO_PROTOCOL_TYPE = ""
NO_PROTOCOL = ""
NO_LEADER = ""
NO_GENERATION = -1

MEMBER_ID_DELIMITER = "-"


# ---- states ----------------------------------------------------------------------------------------


class GroupState(ABC):
    """One state of the group state machine; a state knows which states may lead to it."""

    __slots__ = ()

    @property
    @abstractmethod
    def valid_previous_states(self) -> tuple[GroupState, ...]:
        """The states from which a transition to this one is allowed, in Kafka's declared order."""

    def __str__(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class PreparingRebalance(GroupState):
    """Waiting for the members to (re)join; heartbeats and syncs answer REBALANCE_IN_PROGRESS."""

    @property
    def valid_previous_states(self) -> tuple[GroupState, ...]:
        return (Stable(), CompletingRebalance(), Empty())


@dataclass(frozen=True, slots=True)
class CompletingRebalance(GroupState):
    """Everyone joined; waiting for the leader's assignment in SyncGroup."""

    @property
    def valid_previous_states(self) -> tuple[GroupState, ...]:
        return (PreparingRebalance(),)


@dataclass(frozen=True, slots=True)
class Stable(GroupState):
    """The assignment is out; members heartbeat normally."""

    @property
    def valid_previous_states(self) -> tuple[GroupState, ...]:
        return (CompletingRebalance(),)


@dataclass(frozen=True, slots=True)
class Dead(GroupState):
    """The group's metadata is going away (emigration or deletion); final."""

    @property
    def valid_previous_states(self) -> tuple[GroupState, ...]:
        return (Stable(), PreparingRebalance(), CompletingRebalance(), Empty(), Dead())


@dataclass(frozen=True, slots=True)
class Empty(GroupState):
    """No members; the group lives on for its offsets (or was only ever used to store offsets)."""

    @property
    def valid_previous_states(self) -> tuple[GroupState, ...]:
        return (PreparingRebalance(),)


# ---- results handed to parked JoinGroup / SyncGroup requests ---------------------------------------


@dataclass(frozen=True, slots=True)
class JoinGroupResult:
    """What a member parked in JoinGroup is answered with."""

    members: list[Any]
    member_id: str
    generation_id: int
    protocol_type: str | None
    protocol_name: str | None
    leader_id: str
    error: Errors
    # JoinGroup v9 (KIP-814): a static leader rejoining a Stable group gets the members but must not assign.
    skip_assignment: bool = False

    @classmethod
    def of_error(cls, member_id: str, error: Errors) -> JoinGroupResult:
        return cls([], member_id, NO_GENERATION, None, None, NO_LEADER, error)


@dataclass(frozen=True, slots=True)
class SyncGroupResult:
    """What a member parked in SyncGroup is answered with."""

    protocol_type: str | None
    protocol_name: str | None
    member_assignment: bytes
    error: Errors

    @classmethod
    def of_error(cls, error: Errors) -> SyncGroupResult:
        return cls(None, None, b"", error)


JoinCallback = Callable[[JoinGroupResult], None]


# ---- small records -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupOverview:
    """A group as ListGroups reports it."""

    group_id: str
    protocol_type: str
    state: str


@dataclass(frozen=True, slots=True)
class GroupSummary:
    """A group as DescribeGroups reports it."""

    state: str
    protocol_type: str
    protocol: str
    members: list[MemberSummary] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class CommitRecordMetadataAndOffset:
    """A cached offset commit plus the log offset of the batch that holds its record (None while the
    write is pending). Comparing those log offsets keeps the newest commit when plain and
    transactional commits interleave, also after the offsets topic is compacted."""

    appended_batch_offset: int | None
    offset_and_metadata: OffsetAndMetadata

    def older_than(self, that: CommitRecordMetadataAndOffset) -> bool:
        if self.appended_batch_offset is None or that.appended_batch_offset is None:
            raise RuntimeError("Cannot compare commit records whose batch offset is unknown")
        return self.appended_batch_offset < that.appended_batch_offset


# ---- the group -------------------------------------------------------------------------------------


class GroupMetadata(Logging):
    """Membership, state and offsets of one group; see the module docstring."""

    logger_name = "kafka.coordinator.group.GroupMetadata"

    def __init__(self, group_id: str, initial_state: GroupState, time: Time) -> None:
        self.group_id = group_id
        self._time = time
        self.lock = threading.RLock()
        self._state: GroupState = initial_state
        self.current_state_timestamp: int | None = time.milliseconds()
        self.protocol_type: str | None = None
        self.protocol_name: str | None = None
        self.generation_id = 0
        self._leader_id: str | None = None

        self._members: dict[str, MemberMetadata] = {}
        # group.instance.id -> member.id of the static members
        self._static_members: dict[str, str] = {}
        self._pending_members: set[str] = set()
        self._num_members_awaiting_join = 0
        # protocol name -> number of members supporting it
        self._supported_protocols: dict[str, int] = {}
        self._offsets: dict[TopicPartition, CommitRecordMetadataAndOffset] = {}
        self._pending_offset_commits: dict[TopicPartition, OffsetAndMetadata] = {}
        self._pending_transactional_offset_commits: dict[int, dict[TopicPartition, CommitRecordMetadataAndOffset]] = {}
        self._received_transactional_offset_commits = False
        self._received_consumer_offset_commits = False
        self._pending_sync_members: set[str] = set()
        # Topics the members subscribe to, known only for protocol type "consumer".
        self._subscribed_topics: frozenset[str] | None = None
        self.new_member_added = False

    @classmethod
    def load_group(
        cls,
        group_id: str,
        initial_state: GroupState,
        generation_id: int,
        protocol_type: str | None,
        protocol_name: str | None,
        leader_id: str | None,
        current_state_timestamp: int | None,
        members: Iterable[MemberMetadata],
        time: Time,
    ) -> GroupMetadata:
        """Rebuilds a group from a record of `__consumer_offsets`."""
        group = cls(group_id, initial_state, time)
        group.generation_id = generation_id
        group.protocol_type = protocol_type or None
        group.protocol_name = protocol_name
        group._leader_id = leader_id
        group.current_state_timestamp = current_state_timestamp
        for member in members:
            group.add(member, None)
            if member.group_instance_id is not None:
                group.add_static_member(member.group_instance_id, member.member_id)
            group.info(f"Loaded member {member} in group {group_id} with generation {group.generation_id}.")
        group._subscribed_topics = group.compute_subscribed_topics()
        return group

    # -- simple queries

    def is_(self, group_state: GroupState) -> bool:
        return self._state == group_state

    def not_(self, group_state: GroupState) -> bool:
        return self._state != group_state

    def has(self, member_id: str) -> bool:
        return member_id in self._members

    def get(self, member_id: str) -> MemberMetadata:
        """The member; KeyError if there is none (Scala's Map.apply)."""
        return self._members[member_id]

    @property
    def size(self) -> int:
        return len(self._members)

    def is_leader(self, member_id: str) -> bool:
        return self._leader_id is not None and self._leader_id == member_id

    @property
    def leader_or_null(self) -> str | None:
        return self._leader_id

    @property
    def current_state_timestamp_or_default(self) -> int:
        return -1 if self.current_state_timestamp is None else self.current_state_timestamp

    @property
    def is_consumer_group(self) -> bool:
        return self.protocol_type == CONSUMER_PROTOCOL_TYPE

    @property
    def current_state(self) -> GroupState:
        return self._state

    # -- membership

    def add(self, member: MemberMetadata, callback: JoinCallback | None = None) -> None:
        """Adds a member (the first one fixes the protocol type and becomes leader)."""
        if not self._members:
            self.protocol_type = member.protocol_type
        if self.protocol_type != member.protocol_type:
            raise AssertionError(f"Member protocol type {member.protocol_type} differs from {self.protocol_type}")
        member_protocols = MemberMetadata.plain_protocol_set(member.supported_protocols)
        if not self.supports_protocols(member.protocol_type, member_protocols):
            raise AssertionError(f"Member {member.member_id} supports none of the group's protocols")

        if self._leader_id is None:
            self._leader_id = member.member_id
        self._members[member.member_id] = member
        for name, _ in member.supported_protocols:
            self._supported_protocols[name] = self._supported_protocols.get(name, 0) + 1
        member.awaiting_join_callback = callback
        if member.is_awaiting_join:
            self._num_members_awaiting_join += 1

    def remove(self, member_id: str) -> None:
        member = self._members.pop(member_id, None)
        if member is not None:
            for name, _ in member.supported_protocols:
                self._supported_protocols[name] = self._supported_protocols.get(name, 0) - 1
            if member.is_awaiting_join:
                self._num_members_awaiting_join -= 1
            if member.group_instance_id is not None:
                self._static_members.pop(member.group_instance_id, None)

        if self.is_leader(member_id):
            self._leader_id = next(iter(self._members), None)

        self._pending_sync_members.discard(member_id)

    def maybe_elect_new_joined_leader(self) -> bool:
        """Keeps the leader if it rejoined, else makes some rejoined member leader; False if the group has
        no leader or no member rejoined."""
        if self._leader_id is None:
            return False
        current_leader = self.get(self._leader_id)
        if current_leader.is_awaiting_join:
            return True
        for member_id, member in self._members.items():
            if member.is_awaiting_join:
                self._leader_id = member_id
                self.info(
                    f"Group leader [member.id: {current_leader.member_id}, "
                    f"group.instance.id: {scala_option(current_leader.group_instance_id)}] failed to join "
                    f"before rebalance timeout, while new leader {member} was elected."
                )
                return True
        self.info(
            f"Group leader [member.id: {current_leader.member_id}, "
            f"group.instance.id: {scala_option(current_leader.group_instance_id)}] failed to join "
            "before rebalance timeout, and the group couldn't proceed to next generation"
            "because no member joined."
        )
        return False

    def replace_group_instance(
        self, old_member_id: str, new_member_id: str, group_instance_id: str | None
    ) -> MemberMetadata:
        """Moves a static member to a new member id, answering any parked join/sync of the old id with
        FENCED_INSTANCE_ID; the member keeps everything else (leadership included)."""
        if group_instance_id is None:
            raise ValueError("unexpected null group.instance.id in replaceGroupInstance")
        old_member = self._members.pop(old_member_id, None)
        if old_member is None:
            raise ValueError(f"Cannot replace non-existing member id {old_member_id}")

        self.maybe_invoke_join_callback(old_member, JoinGroupResult.of_error(old_member_id, Errors.FENCED_INSTANCE_ID))
        self.maybe_invoke_sync_callback(old_member, SyncGroupResult.of_error(Errors.FENCED_INSTANCE_ID))

        old_member.member_id = new_member_id
        self._members[new_member_id] = old_member

        if self.is_leader(old_member_id):
            self._leader_id = new_member_id
        self.add_static_member(group_instance_id, new_member_id)
        return old_member

    def is_pending_member(self, member_id: str) -> bool:
        return member_id in self._pending_members and not self.has(member_id)

    def add_pending_member(self, member_id: str) -> bool:
        added = member_id not in self._pending_members
        self._pending_members.add(member_id)
        return added

    def remove_pending_member(self, member_id: str) -> bool:
        present = member_id in self._pending_members
        self._pending_members.discard(member_id)
        return present

    def has_static_member(self, group_instance_id: str | None) -> bool:
        return group_instance_id is not None and group_instance_id in self._static_members

    def get_static_member_id(self, group_instance_id: str | None) -> str:
        if group_instance_id is None:
            raise ValueError("unexpected null group.instance.id in getStaticMemberId")
        return self._static_members[group_instance_id]

    def add_static_member(self, group_instance_id: str | None, new_member_id: str) -> None:
        if group_instance_id is None:
            raise ValueError("unexpected null group.instance.id in addStaticMember")
        self._static_members[group_instance_id] = new_member_id

    def add_pending_sync_member(self, member_id: str) -> bool:
        if not self.has(member_id):
            raise RuntimeError(
                f"Attempt to add a pending sync for member {member_id} which is not a member of the group"
            )
        added = member_id not in self._pending_sync_members
        self._pending_sync_members.add(member_id)
        return added

    def remove_pending_sync_member(self, member_id: str) -> bool:
        if not self.has(member_id):
            raise RuntimeError(
                f"Attempt to remove a pending sync for member {member_id} which is not a member of the group"
            )
        present = member_id in self._pending_sync_members
        self._pending_sync_members.discard(member_id)
        return present

    @property
    def has_received_sync_from_all_members(self) -> bool:
        return not self._pending_sync_members

    @property
    def all_pending_sync_members(self) -> frozenset[str]:
        return frozenset(self._pending_sync_members)

    def clear_pending_sync_members(self) -> None:
        self._pending_sync_members.clear()

    @property
    def not_yet_rejoined_members(self) -> dict[str, MemberMetadata]:
        return {member_id: m for member_id, m in self._members.items() if not m.is_awaiting_join}

    @property
    def has_all_members_joined(self) -> bool:
        return len(self._members) == self._num_members_awaiting_join and not self._pending_members

    @property
    def all_members(self) -> frozenset[str]:
        return frozenset(self._members)

    @property
    def all_static_members(self) -> frozenset[str]:
        return frozenset(self._static_members)

    @property
    def all_dynamic_members(self) -> frozenset[str]:
        """Members without a group.instance.id (tests use it)."""
        return frozenset(self._members) - frozenset(self._static_members.values())

    @property
    def num_pending(self) -> int:
        return len(self._pending_members)

    @property
    def num_awaiting(self) -> int:
        return self._num_members_awaiting_join

    @property
    def all_member_metadata(self) -> list[MemberMetadata]:
        return list(self._members.values())

    @property
    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self._members.values()), default=0)

    def generate_member_id(self, client_id: str, group_instance_id: str | None) -> str:
        prefix = client_id if group_instance_id is None else group_instance_id
        return prefix + MEMBER_ID_DELIMITER + str(uuid.uuid4())

    def is_static_member_fenced(self, member_id: str, group_instance_id: str | None, operation: str) -> bool:
        """True if `group_instance_id` is a known static member registered under another member id."""
        if self.has_static_member(group_instance_id) and self.get_static_member_id(group_instance_id) != member_id:
            self.error(
                f"given member.id {member_id} is identified as a known static member {group_instance_id}, "
                f"but not matching the expected member.id {self.get_static_member_id(group_instance_id)} during "
                f"{operation}, will respond with instance fenced error"
            )
            return True
        return False

    # -- state machine and protocols

    @property
    def can_rebalance(self) -> bool:
        return self._state in PreparingRebalance().valid_previous_states

    def transition_to(self, group_state: GroupState) -> None:
        self._assert_valid_transition(group_state)
        self._state = group_state
        self.current_state_timestamp = self._time.milliseconds()

    def select_protocol(self) -> str:
        """The protocol all members support that most members prefer."""
        if not self._members:
            raise RuntimeError("Cannot select protocol for empty group")
        candidates = self._candidate_protocols()
        votes: dict[str, int] = {}
        for member in self._members.values():
            choice = member.vote(candidates)
            votes[choice] = votes.get(choice, 0) + 1
        return max(votes, key=lambda name: votes[name])

    def _candidate_protocols(self) -> frozenset[str]:
        num_members = len(self._members)
        return frozenset(name for name, count in self._supported_protocols.items() if count == num_members)

    def supports_protocols(self, member_protocol_type: str, member_protocols: set[str] | frozenset[str]) -> bool:
        if self.is_(Empty()):
            return bool(member_protocol_type) and bool(member_protocols)
        num_members = len(self._members)
        return self.protocol_type == member_protocol_type and any(
            self._supported_protocols.get(name, 0) == num_members for name in member_protocols
        )

    def get_subscribed_topics(self) -> frozenset[str] | None:
        return self._subscribed_topics

    def is_subscribed_to_topic(self, topic: str) -> bool:
        """True if the members subscribe to `topic`, or if that is not known."""
        return True if self._subscribed_topics is None else topic in self._subscribed_topics

    def compute_subscribed_topics(self) -> frozenset[str] | None:
        """Union of the members' subscriptions for a "consumer" group with a chosen protocol (an empty
        set for a consumer group with no members); None when unknown or unparsable."""
        if self.protocol_type != CONSUMER_PROTOCOL_TYPE:
            return None
        if not self._members:
            return frozenset()
        if self.protocol_name is None:
            return None
        topics: set[str] = set()
        try:
            for member in self._members.values():
                # Read with version 0 of the subscription, a prefix of every later version, so that
                # the coordinator copes with subscription versions newer than its own.
                data = member.metadata(self.protocol_name)
                if len(data) < INT16.size:
                    raise KafkaException("Buffer underflow while parsing consumer protocol's header")
                subscription = ConsumerProtocolSubscriptionData().read(memoryview(data)[INT16.size :], 0)
                topics.update(subscription.topics)
        except (KafkaException, struct.error) as e:
            self.warn(
                f"Failed to parse Consumer Protocol {CONSUMER_PROTOCOL_TYPE}:{self.protocol_name} of group "
                f"{self.group_id}. Consumer group coordinator is not aware of the subscribed topics.",
                e,
            )
            return None
        return frozenset(topics)

    def update_member(self, member: MemberMetadata, protocols: list[Protocol], callback: JoinCallback | None) -> None:
        for name, _ in member.supported_protocols:
            self._supported_protocols[name] = self._supported_protocols.get(name, 0) - 1
        for name, _ in protocols:
            self._supported_protocols[name] = self._supported_protocols.get(name, 0) + 1
        member.supported_protocols = protocols

        if callback is not None and not member.is_awaiting_join:
            self._num_members_awaiting_join += 1
        elif callback is None and member.is_awaiting_join:
            self._num_members_awaiting_join -= 1
        member.awaiting_join_callback = callback

    def maybe_invoke_join_callback(self, member: MemberMetadata, join_group_result: JoinGroupResult) -> None:
        callback = member.awaiting_join_callback
        if callback is not None:
            callback(join_group_result)
            member.awaiting_join_callback = None
            self._num_members_awaiting_join -= 1

    def maybe_invoke_sync_callback(self, member: MemberMetadata, sync_group_result: SyncGroupResult) -> bool:
        """Answers a parked SyncGroup; True if there was one."""
        callback = member.awaiting_sync_callback
        if callback is None:
            return False
        callback(sync_group_result)
        member.awaiting_sync_callback = None
        return True

    def init_next_generation(self) -> None:
        self.generation_id += 1
        if self._members:
            self.protocol_name = self.select_protocol()
            self._subscribed_topics = self.compute_subscribed_topics()
            self.transition_to(CompletingRebalance())
        else:
            self.protocol_name = None
            self._subscribed_topics = self.compute_subscribed_topics()
            self.transition_to(Empty())
        self._received_consumer_offset_commits = False
        self._received_transactional_offset_commits = False
        self.clear_pending_sync_members()

    def current_member_metadata(self) -> list[tuple[str, str | None, bytes]]:
        """(member id, group instance id, metadata for the chosen protocol) per member, for the leader's
        JoinGroup response."""
        # PORT: Kafka builds JoinGroupResponseMember objects here; the coordinator turns these triples
        # into the generated response data.
        if self.is_(Dead()) or self.is_(PreparingRebalance()):
            raise RuntimeError(f"Cannot obtain member metadata for group in state {self._state}")
        protocol = self.protocol_name
        if protocol is None:
            raise RuntimeError(f"No protocol selected for group {self.group_id}")
        return [(member_id, m.group_instance_id, m.metadata(protocol)) for member_id, m in self._members.items()]

    def summary(self) -> GroupSummary:
        if self.is_(Stable()):
            protocol = self.protocol_name
            if protocol is None:
                raise RuntimeError("Invalid null group protocol for stable group")
            members = [m.summary(protocol) for m in self._members.values()]
            return GroupSummary(str(self._state), self.protocol_type or "", protocol, members)
        members = [m.summary_no_metadata() for m in self._members.values()]
        return GroupSummary(str(self._state), self.protocol_type or "", NO_PROTOCOL, members)

    def overview(self) -> GroupOverview:
        return GroupOverview(self.group_id, self.protocol_type or "", str(self._state))

    # -- offsets

    def initialize_offsets(
        self,
        offsets: Mapping[TopicPartition, CommitRecordMetadataAndOffset],
        pending_txn_offsets: Mapping[int, dict[TopicPartition, CommitRecordMetadataAndOffset]],
    ) -> None:
        self._offsets.update(offsets)
        self._pending_transactional_offset_commits.update(pending_txn_offsets)

    def on_offset_commit_append(self, topic_partition: TopicPartition, commit: CommitRecordMetadataAndOffset) -> None:
        """A plain offset commit reached the log: cache it unless a newer record is cached, and clear the
        matching pending commit."""
        if topic_partition in self._pending_offset_commits:
            if commit.appended_batch_offset is None:
                raise RuntimeError(
                    "Cannot complete offset commit write without providing the metadata of the record in the log."
                )
            current = self._offsets.get(topic_partition)
            if current is None or current.older_than(commit):
                self._offsets[topic_partition] = commit

        staged = self._pending_offset_commits.get(topic_partition)
        if staged is not None and staged == commit.offset_and_metadata:
            del self._pending_offset_commits[topic_partition]

    def fail_pending_offset_write(self, topic_partition: TopicPartition, offset: OffsetAndMetadata) -> None:
        if self._pending_offset_commits.get(topic_partition) == offset:
            del self._pending_offset_commits[topic_partition]

    def prepare_offset_commit(self, offsets: Mapping[TopicPartition, OffsetAndMetadata]) -> None:
        self._received_consumer_offset_commits = True
        self._pending_offset_commits.update(offsets)

    def prepare_txn_offset_commit(self, producer_id: int, offsets: Mapping[TopicPartition, OffsetAndMetadata]) -> None:
        self.trace(
            f"TxnOffsetCommit for producer {producer_id} and group {self.group_id} with offsets {offsets} is pending"
        )
        self._received_transactional_offset_commits = True
        producer_offsets = self._pending_transactional_offset_commits.setdefault(producer_id, {})
        for tp, offset_and_metadata in offsets.items():
            producer_offsets[tp] = CommitRecordMetadataAndOffset(None, offset_and_metadata)

    @property
    def has_received_consistent_offset_commits(self) -> bool:
        return not self._received_consumer_offset_commits or not self._received_transactional_offset_commits

    def fail_pending_txn_offset_commit(self, producer_id: int, topic_partition: TopicPartition) -> None:
        pending_offsets = self._pending_transactional_offset_commits.get(producer_id)
        if pending_offsets is None:
            return  # the partition may have emigrated already
        pending = pending_offsets.pop(topic_partition, None)
        self.trace(
            f"TxnOffsetCommit for producer {producer_id} and group {self.group_id} with offsets "
            f"{scala_option(pending)} failed to be appended to the log"
        )
        if not pending_offsets:
            del self._pending_transactional_offset_commits[producer_id]

    def on_txn_offset_commit_append(
        self, producer_id: int, topic_partition: TopicPartition, commit: CommitRecordMetadataAndOffset
    ) -> None:
        pending_offsets = self._pending_transactional_offset_commits.get(producer_id)
        if pending_offsets is None:
            return  # the partition may have emigrated
        current = pending_offsets.get(topic_partition)
        if current is not None and current.offset_and_metadata == commit.offset_and_metadata:
            pending_offsets[topic_partition] = commit

    def complete_pending_txn_offset_commit(self, producer_id: int, is_commit: bool) -> None:
        """The transaction's marker is written: on commit, cache its offsets (unless newer ones are
        cached); on abort, drop them."""
        pending_offsets = self._pending_transactional_offset_commits.pop(producer_id, None)
        if not is_commit:
            self.trace(
                f"TxnOffsetCommit for producer {producer_id} and group {self.group_id} with offsets "
                f"{scala_option(pending_offsets)} aborted"
            )
            return
        for tp, commit in (pending_offsets or {}).items():
            if commit.appended_batch_offset is None:
                raise RuntimeError(
                    f"Trying to complete a transactional offset commit for producerId {producer_id} and groupId "
                    f"{self.group_id} even though the offset commit record itself hasn't been appended to the log."
                )
            current = self._offsets.get(tp)
            if current is None or current.older_than(commit):
                self.trace(
                    f"TxnOffsetCommit for producer {producer_id} and group {self.group_id} with offset {commit} "
                    "committed and loaded into the cache."
                )
                self._offsets[tp] = commit
            else:
                self.trace(
                    f"TxnOffsetCommit for producer {producer_id} and group {self.group_id} with offset {commit} "
                    f"committed, but not loaded since its offset is older than current offset {current}."
                )

    @property
    def active_producers(self) -> frozenset[int]:
        return frozenset(self._pending_transactional_offset_commits)

    def has_pending_offset_commits_from_producer(self, producer_id: int) -> bool:
        return producer_id in self._pending_transactional_offset_commits

    def has_pending_offset_commits_for_topic_partition(self, topic_partition: TopicPartition) -> bool:
        return topic_partition in self._pending_offset_commits or any(
            topic_partition in pending for pending in self._pending_transactional_offset_commits.values()
        )

    def remove_all_offsets(self) -> dict[TopicPartition, OffsetAndMetadata]:
        return self.remove_offsets(list(self._offsets))

    def remove_offsets(self, topic_partitions: Iterable[TopicPartition]) -> dict[TopicPartition, OffsetAndMetadata]:
        """Forgets the partitions' cached and pending offsets; returns the cached ones removed."""
        removed: dict[TopicPartition, OffsetAndMetadata] = {}
        for tp in topic_partitions:
            self._pending_offset_commits.pop(tp, None)
            for pending in self._pending_transactional_offset_commits.values():
                pending.pop(tp, None)
            commit = self._offsets.pop(tp, None)
            if commit is not None:
                removed[tp] = commit.offset_and_metadata
        return removed

    def remove_expired_offsets(
        self, current_timestamp: int, offset_retention_ms: int
    ) -> dict[TopicPartition, OffsetAndMetadata]:
        """Drops and returns the offsets whose retention has run out.

        - Empty group with a protocol type: retention counts from when the group became Empty (or, for
          groups loaded from the old schema without that timestamp, from the commit).
        - Stable "consumer" group with known subscriptions: offsets of topics nobody subscribes to
          expire by commit time.
        - No protocol type (offsets stored by standalone consumers): expire by commit time.
        - Otherwise nothing expires. Pending commits never expire, and an offset written with an
          explicit expire timestamp (old clients) expires at that time instead."""

        def expired(
            base_timestamp: Callable[[CommitRecordMetadataAndOffset], int], subscribed: frozenset[str]
        ) -> dict[TopicPartition, OffsetAndMetadata]:
            result: dict[TopicPartition, OffsetAndMetadata] = {}
            for tp, commit in self._offsets.items():
                if tp.topic in subscribed or tp in self._pending_offset_commits:
                    continue
                expire_timestamp = commit.offset_and_metadata.expire_timestamp
                if expire_timestamp is None:
                    is_expired = current_timestamp - base_timestamp(commit) >= offset_retention_ms
                else:
                    is_expired = current_timestamp >= expire_timestamp
                if is_expired:
                    result[tp] = commit.offset_and_metadata
            return result

        def commit_time(commit: CommitRecordMetadataAndOffset) -> int:
            return commit.offset_and_metadata.commit_timestamp

        expired_offsets: dict[TopicPartition, OffsetAndMetadata]
        if self.protocol_type is not None and self.is_(Empty()):
            state_timestamp = self.current_state_timestamp

            def empty_since(commit: CommitRecordMetadataAndOffset) -> int:
                return commit_time(commit) if state_timestamp is None else state_timestamp

            expired_offsets = expired(empty_since, frozenset())
        elif (
            self.protocol_type == CONSUMER_PROTOCOL_TYPE and self._subscribed_topics is not None and self.is_(Stable())
        ):
            expired_offsets = expired(commit_time, self._subscribed_topics)
        elif self.protocol_type is None:
            expired_offsets = expired(commit_time, frozenset())
        else:
            expired_offsets = {}

        if expired_offsets:
            self.debug(
                f"Expired offsets from group '{self.group_id}': Set({', '.join(str(tp) for tp in expired_offsets)})"
            )
        for tp in expired_offsets:
            del self._offsets[tp]
        return expired_offsets

    @property
    def all_offsets(self) -> dict[TopicPartition, OffsetAndMetadata]:
        return {tp: commit.offset_and_metadata for tp, commit in self._offsets.items()}

    def offset(self, topic_partition: TopicPartition) -> OffsetAndMetadata | None:
        commit = self._offsets.get(topic_partition)
        return None if commit is None else commit.offset_and_metadata

    def offset_with_record_metadata(self, topic_partition: TopicPartition) -> CommitRecordMetadataAndOffset | None:
        return self._offsets.get(topic_partition)

    @property
    def num_offsets(self) -> int:
        return len(self._offsets)

    @property
    def has_offsets(self) -> bool:
        return bool(self._offsets or self._pending_offset_commits or self._pending_transactional_offset_commits)

    def _assert_valid_transition(self, target_state: GroupState) -> None:
        if self._state not in target_state.valid_previous_states:
            previous = ",".join(str(s) for s in target_state.valid_previous_states)
            raise RuntimeError(
                f"Group {self.group_id} should be in the {previous} states before moving to {target_state} state. "
                f"Instead it is in {self._state} state"
            )

    def __str__(self) -> str:
        # Kafka's toString (GroupMetadataMessageFormatter prints it); see the PORT note on member order.
        members = ", ".join(f"{member_id} -> {m}" for member_id, m in self._members.items())
        return (
            "GroupMetadata("
            f"groupId={self.group_id}, "
            f"generation={self.generation_id}, "
            f"protocolType={scala_option(self.protocol_type)}, "
            f"currentState={self._state}, "
            f"members=HashMap({members}))"
        )
