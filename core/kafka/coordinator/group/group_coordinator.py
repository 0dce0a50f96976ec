"""Port of core/src/main/scala/kafka/coordinator/group/GroupCoordinator.scala (Kafka 2.8).

The group coordinator of one broker: it runs the membership protocol (JoinGroup, SyncGroup, Heartbeat, LeaveGroup)
and stores and serves committed offsets for the groups whose `__consumer_offsets` partition this broker leads.
Group state lives in GroupMetadata objects held by the GroupMetadataManager, which also writes them to and reads
them back from the log.

A rebalance goes Stable/Empty -> PreparingRebalance (a DelayedJoin waits for the members to rejoin) ->
CompletingRebalance (the leader's SyncGroup brings the assignment; a DelayedSync removes members that never sync)
-> Stable. Every member also has a DelayedHeartbeat: its session timeout.

Locking: every operation on a group runs under `group.lock` (an RLock), and the group's delayed operations use
that same lock, so their completion checks see a consistent group. The lock order, outermost first:

1. the manager's partition lock (which offsets partitions are owned or loading): the manager unloads a partition's
   groups, and checks whether a group exists, while holding it, so no code here asks the manager anything that
   takes it while holding a group lock;
2. `group.lock`;
3. the metadata locks below it: the offsets partition's leader-and-ISR lock and its log's lock, taken when the
   manager appends a group or offset record (Kafka passes the group lock on as the delayed produce's lock), so the
   replica layer never calls back into a group while holding one of its own locks.
"""

# Metrics: the OffsetDeletions (offset-deletion-rate/count) and CompletedRebalances
# (group-completed-rebalance-rate/count) sensors in group-coordinator-metrics of the broker's `Metrics`.
# PORT: JoinGroupResult and SyncGroupResult are declared in group_metadata.py (GroupMetadata needs them, and this
# module imports that one); they are re-exported here. Results carry the generated JoinGroupResponseMember objects
# as Kafka's do.
# PORT: the companion's two `apply` overloads are one classmethod whose purgatories and `metrics` are optional (a
# private Metrics without one), and `zk_client` is passed on to this port's GroupMetadataManager.
# PORT: DeleteGroups and OffsetDelete decide between GROUP_ID_NOT_FOUND and NOT_COORDINATOR for a Dead group after
# releasing the group's lock (Kafka asks under it): that check takes the manager's partition lock, which must not be
# taken inside a group lock (see the lock order above).

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kafka.common.internals.topic import Topic
from kafka.common.message import JoinGroupResponseData
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.meter import Meter as MeterStat
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.join_group_request import UNKNOWN_MEMBER_ID
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.coordinator.group.delayed_heartbeat import DelayedHeartbeat
from kafka.coordinator.group.delayed_join import DelayedJoin, InitialDelayedJoin
from kafka.coordinator.group.delayed_rebalance import DelayedRebalance
from kafka.coordinator.group.delayed_sync import DelayedSync
from kafka.coordinator.group.group_metadata import (
    NO_GENERATION,
    NO_LEADER,
    NO_PROTOCOL,
    NO_PROTOCOL_TYPE,
    NO_STATE,
    CompletingRebalance,
    Dead,
    Empty,
    GroupMetadata,
    GroupOverview,
    GroupSummary,
    JoinGroupResult,
    PreparingRebalance,
    Stable,
    SyncGroupResult,
)
from kafka.coordinator.group.group_metadata_manager import GroupMetadataManager
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.coordinator.group.member_metadata import MemberMetadata, MemberSummary, Protocol
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.coordinator.group.offset_config import OffsetConfig
from kafka.log.log_config import LogConfig
from kafka.server.delayed_operation import DelayedOperationPurgatory
from kafka.server.delayed_operation_key import GroupJoinKey, GroupSyncKey, MemberKey
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.core_utils import scala_option, scala_set
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.common.requests.offset_fetch_response import PartitionData
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.replica_manager import ReplicaManager
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = [
    "GroupConfig",
    "GroupCoordinator",
    "JoinGroupResult",
    "LeaveGroupResult",
    "LeaveMemberResponse",
    "SyncGroupResult",
]

JoinCallback = Callable[[JoinGroupResult], None]
SyncCallback = Callable[[SyncGroupResult], None]
OffsetsCallback = Callable[[dict[TopicPartition, Errors]], None]


# ProducerCompressionCodec.name: the offsets topic keeps whatever compression the coordinator wrote with.
_PRODUCER_COMPRESSION = "producer"


@dataclass(frozen=True, slots=True)
class GroupConfig:
    """The broker's group.* settings the coordinator enforces."""

    group_min_session_timeout_ms: int
    group_max_session_timeout_ms: int
    group_max_size: int
    group_initial_rebalance_delay_ms: int


@dataclass(frozen=True, slots=True)
class LeaveMemberResponse:
    """The outcome of LeaveGroup for one of the members named in the request."""

    member_id: str
    group_instance_id: str | None
    error: Errors


@dataclass(frozen=True, slots=True)
class LeaveGroupResult:
    """The outcome of a (batched) LeaveGroup: a top-level error and one response per named member."""

    top_level_error: Errors
    member_responses: list[LeaveMemberResponse]


def _uniform_result(
    offset_metadata: Mapping[TopicPartition, OffsetAndMetadata], error: Errors
) -> dict[TopicPartition, Errors]:
    return {tp: error for tp in offset_metadata}


class GroupCoordinator(Logging):
    """Group membership and offset management for the groups this broker coordinates; see the module docstring."""

    logger_name = "kafka.coordinator.group.GroupCoordinator"

    # The companion object's constants.
    NO_STATE: ClassVar[str] = NO_STATE
    NO_PROTOCOL_TYPE: ClassVar[str] = NO_PROTOCOL_TYPE
    NO_PROTOCOL: ClassVar[str] = NO_PROTOCOL
    NO_LEADER: ClassVar[str] = NO_LEADER
    NO_GENERATION: ClassVar[int] = NO_GENERATION
    NO_MEMBERS: ClassVar[list[MemberSummary]] = []
    EMPTY_GROUP: ClassVar[GroupSummary] = GroupSummary(NO_STATE, NO_PROTOCOL_TYPE, NO_PROTOCOL, [])
    DEAD_GROUP: ClassVar[GroupSummary] = GroupSummary(str(Dead()), NO_PROTOCOL_TYPE, NO_PROTOCOL, [])
    # How long a new member's JoinGroup may stay parked: it has no member id yet, so it cannot heartbeat.
    NEW_MEMBER_JOIN_TIMEOUT_MS: ClassVar[int] = 5 * 60 * 1000

    def __init__(
        self,
        broker_id: int,
        group_config: GroupConfig,
        offset_config: OffsetConfig,
        group_manager: GroupMetadataManager,
        heartbeat_purgatory: DelayedOperationPurgatory[DelayedHeartbeat],
        rebalance_purgatory: DelayedOperationPurgatory[DelayedRebalance],
        time: Time,
    ) -> None:
        self.broker_id = broker_id
        self.group_config = group_config
        self.offset_config = offset_config
        self.group_manager = group_manager
        self.heartbeat_purgatory = heartbeat_purgatory
        self.rebalance_purgatory = rebalance_purgatory
        self._time = time
        self.log_ident = f"[GroupCoordinator {broker_id}]: "
        self._is_active = AtomicBoolean(False)
        metrics = group_manager.metrics
        self.offset_deletion_sensor = metrics.sensor("OffsetDeletions")
        self.offset_deletion_sensor.add(
            MeterStat(
                metrics.metric_name(
                    "offset-deletion-rate", "group-coordinator-metrics", "The rate of administrative deleted offsets"
                ),
                metrics.metric_name(
                    "offset-deletion-count",
                    "group-coordinator-metrics",
                    "The total number of administrative deleted offsets",
                ),
            )
        )
        self.group_completed_rebalance_sensor = metrics.sensor("CompletedRebalances")
        self.group_completed_rebalance_sensor.add(
            MeterStat(
                metrics.metric_name(
                    "group-completed-rebalance-rate", "group-coordinator-metrics", "The rate of completed rebalance"
                ),
                metrics.metric_name(
                    "group-completed-rebalance-count",
                    "group-coordinator-metrics",
                    "The total number of completed rebalance",
                ),
            )
        )

    # ---- companion: construction from the broker config ---------------------------------------------------------

    @classmethod
    def apply(
        cls,
        config: KafkaConfig,
        zk_client: KafkaZkClient | None,
        replica_manager: ReplicaManager,
        time: Time,
        heartbeat_purgatory: DelayedOperationPurgatory[DelayedHeartbeat] | None = None,
        rebalance_purgatory: DelayedOperationPurgatory[DelayedRebalance] | None = None,
        metrics: Metrics | None = None,
    ) -> GroupCoordinator:
        """A coordinator for the broker of `config`, with its GroupMetadataManager and (unless given) its
        "Heartbeat" and "Rebalance" purgatories."""
        if heartbeat_purgatory is None:
            heartbeat_purgatory = DelayedOperationPurgatory("Heartbeat", broker_id=config.broker_id)
        if rebalance_purgatory is None:
            rebalance_purgatory = DelayedOperationPurgatory("Rebalance", broker_id=config.broker_id)
        offset_config = cls.offset_config_of(config)
        group_config = GroupConfig(
            group_min_session_timeout_ms=config.group_min_session_timeout_ms,
            group_max_session_timeout_ms=config.group_max_session_timeout_ms,
            group_max_size=config.group_max_size,
            group_initial_rebalance_delay_ms=config.group_initial_rebalance_delay,
        )
        group_metadata_manager = GroupMetadataManager(
            config.broker_id,
            config.inter_broker_protocol_version,
            offset_config,
            replica_manager,
            zk_client,
            time,
            metrics=metrics,
        )
        return cls(
            config.broker_id,
            group_config,
            offset_config,
            group_metadata_manager,
            heartbeat_purgatory,
            rebalance_purgatory,
            time,
        )

    @staticmethod
    def offset_config_of(config: KafkaConfig) -> OffsetConfig:
        """The offsets.* settings of `config` (the companion's `offsetConfig(config)`)."""
        compression_codec = config.offsets_topic_compression_codec
        if compression_codec is None:
            compression_codec = OffsetConfig.DEFAULT_OFFSETS_TOPIC_COMPRESSION_CODEC
        return OffsetConfig(
            max_metadata_size=config.offset_metadata_max_size,
            load_buffer_size=config.offsets_load_buffer_size,
            offsets_retention_ms=config.offsets_retention_minutes * 60 * 1000,
            offsets_retention_check_interval_ms=config.offsets_retention_check_interval_ms,
            offsets_topic_num_partitions=config.offsets_topic_partitions,
            offsets_topic_segment_bytes=config.offsets_topic_segment_bytes,
            offsets_topic_replication_factor=config.offsets_topic_replication_factor,
            offsets_topic_compression_codec=compression_codec,
            offset_commit_timeout_ms=config.offset_commit_timeout_ms,
            offset_commit_required_acks=config.offset_commit_required_acks,
        )

    # ---- lifecycle -----------------------------------------------------------------------------------------------

    @property
    def is_active(self) -> bool:
        return self._is_active.get()

    def offsets_topic_configs(self) -> dict[str, str]:
        """The topic configs `__consumer_offsets` is created with."""
        return {
            LogConfig.CLEANUP_POLICY_PROP: LogConfig.COMPACT,
            LogConfig.SEGMENT_BYTES_PROP: str(self.offset_config.offsets_topic_segment_bytes),
            LogConfig.COMPRESSION_TYPE_PROP: _PRODUCER_COMPRESSION,
        }

    def startup(
        self, retrieve_group_metadata_topic_partition_count: Callable[[], int], enable_metadata_expiration: bool = True
    ) -> None:
        self.info("Starting up.")
        self.group_manager.startup(retrieve_group_metadata_topic_partition_count, enable_metadata_expiration)
        self._is_active.set(True)
        self.info("Startup complete.")

    def shutdown(self) -> None:
        """Stops answering, then stops the manager and both purgatories (the reverse of start-up)."""
        self.info("Shutting down.")
        self._is_active.set(False)
        self.group_manager.shutdown()
        self.heartbeat_purgatory.shutdown()
        self.rebalance_purgatory.shutdown()
        self.info("Shutdown complete.")

    # ---- JoinGroup -----------------------------------------------------------------------------------------------

    def _accept_joining_member(self, group: GroupMetadata, member: str) -> bool:
        """Whether group.max.size leaves room for `member` to join (or rejoin) now."""
        match group.current_state:
            case Empty() | Dead():
                return True
            case PreparingRebalance():
                # Count the members that already rejoined, not the group's size: the size may exceed a lowered
                # maximum, and counting rejoiners turns away the last ones to come back.
                return (group.has(member) and group.get(member).is_awaiting_join) or (
                    group.num_awaiting < self.group_config.group_max_size
                )
            case CompletingRebalance() | Stable():
                # Members that did not rejoin are gone by now, so the size is the right measure here.
                return group.has(member) or group.size < self.group_config.group_max_size
        raise RuntimeError(f"Unknown group state {group.current_state}")

    def handle_join_group(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        require_known_member_id: bool,
        client_id: str,
        client_host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        protocols: list[Protocol],
        response_callback: JoinCallback,
        support_skipping_assignment: bool = False,
    ) -> None:
        """`support_skipping_assignment` is true from JoinGroup v9 (3.x's extra parameter, KIP-814)."""
        error = self.validate_group_status(group_id, ApiKeys.JOIN_GROUP)
        if error is not None:
            response_callback(JoinGroupResult.of_error(member_id, error))
            return

        if (
            session_timeout_ms < self.group_config.group_min_session_timeout_ms
            or session_timeout_ms > self.group_config.group_max_session_timeout_ms
        ):
            response_callback(JoinGroupResult.of_error(member_id, Errors.INVALID_SESSION_TIMEOUT))
            return

        is_unknown_member = member_id == UNKNOWN_MEMBER_ID
        # Only a member without an id may create the group; a member id for a group we do not have is unknown.
        group = self.group_manager.get_or_maybe_create_group(group_id, is_unknown_member)
        if group is None:
            response_callback(JoinGroupResult.of_error(member_id, Errors.UNKNOWN_MEMBER_ID))
            return

        with group.lock:
            if not self._accept_joining_member(group, member_id):
                group.remove(member_id)
                response_callback(JoinGroupResult.of_error(UNKNOWN_MEMBER_ID, Errors.GROUP_MAX_SIZE_REACHED))
            elif is_unknown_member:
                self.do_unknown_join_group(
                    group,
                    group_instance_id,
                    require_known_member_id,
                    client_id,
                    client_host,
                    rebalance_timeout_ms,
                    session_timeout_ms,
                    protocol_type,
                    protocols,
                    response_callback,
                    support_skipping_assignment,
                )
            else:
                self.do_join_group(
                    group,
                    member_id,
                    group_instance_id,
                    client_id,
                    client_host,
                    rebalance_timeout_ms,
                    session_timeout_ms,
                    protocol_type,
                    protocols,
                    response_callback,
                )

            # This join may have been the last one the rebalance waited for.
            if group.is_(PreparingRebalance()):
                self.rebalance_purgatory.check_and_complete(GroupJoinKey(group.group_id))

    def do_unknown_join_group(
        self,
        group: GroupMetadata,
        group_instance_id: str | None,
        require_known_member_id: bool,
        client_id: str,
        client_host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        protocols: list[Protocol],
        response_callback: JoinCallback,
        support_skipping_assignment: bool = False,
    ) -> None:
        """A JoinGroup without a member id: a new member, or a static member coming back under a new id."""
        with group.lock:
            if group.is_(Dead()):
                # The group was just removed here (it moved to another coordinator, or was deleted): the member
                # looks the coordinator up again and retries.
                response_callback(JoinGroupResult.of_error(UNKNOWN_MEMBER_ID, Errors.COORDINATOR_NOT_AVAILABLE))
            elif not group.supports_protocols(protocol_type, MemberMetadata.plain_protocol_set(protocols)):
                response_callback(JoinGroupResult.of_error(UNKNOWN_MEMBER_ID, Errors.INCONSISTENT_GROUP_PROTOCOL))
            else:
                new_member_id = group.generate_member_id(client_id, group_instance_id)

                if group.has_static_member(group_instance_id):
                    self._update_static_member_and_rebalance(
                        group,
                        new_member_id,
                        group_instance_id,
                        protocols,
                        response_callback,
                        support_skipping_assignment,
                    )
                elif require_known_member_id:
                    # KIP-394: hand the dynamic member its id and make it join again with it; until then it is
                    # pending, and its session timeout runs.
                    if self.is_debug_enabled():
                        self.debug(
                            f"Dynamic member with unknown member id joins group {group.group_id} in "
                            f"{group.current_state} state. Created a new member id {new_member_id} and request the "
                            "member to rejoin with this id."
                        )
                    group.add_pending_member(new_member_id)
                    self._add_pending_member_expiration(group, new_member_id, session_timeout_ms)
                    response_callback(JoinGroupResult.of_error(new_member_id, Errors.MEMBER_ID_REQUIRED))
                else:
                    kind = "Static" if group_instance_id is not None else "Dynamic"
                    self.info(
                        f"{kind} Member with unknown member id joins group {group.group_id} in "
                        f"{group.current_state} state. Created a new member id {new_member_id} for this member and "
                        "add to the group."
                    )
                    self._add_member_and_rebalance(
                        rebalance_timeout_ms,
                        session_timeout_ms,
                        new_member_id,
                        group_instance_id,
                        client_id,
                        client_host,
                        protocol_type,
                        protocols,
                        group,
                        response_callback,
                    )

    def do_join_group(
        self,
        group: GroupMetadata,
        member_id: str,
        group_instance_id: str | None,
        client_id: str,
        client_host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        protocols: list[Protocol],
        response_callback: JoinCallback,
    ) -> None:
        """A JoinGroup with a member id: a pending member completing KIP-394's handshake, or a known member."""
        with group.lock:
            if group.is_(Dead()):
                # See do_unknown_join_group: the member retries against the right coordinator.
                response_callback(JoinGroupResult.of_error(member_id, Errors.COORDINATOR_NOT_AVAILABLE))
            elif not group.supports_protocols(protocol_type, MemberMetadata.plain_protocol_set(protocols)):
                response_callback(JoinGroupResult.of_error(member_id, Errors.INCONSISTENT_GROUP_PROTOCOL))
            elif group.is_pending_member(member_id):
                # Only dynamic members are ever pending.
                if group_instance_id is not None:
                    raise IllegalStateException(
                        f"the static member {scala_option(group_instance_id)} was not expected to be assigned "
                        f"into pending member bucket with member id {member_id}"
                    )
                if self.is_debug_enabled():
                    self.debug(
                        f"Dynamic Member with specific member id {member_id} joins group {group.group_id} in "
                        f"{group.current_state} state. Adding to the group now."
                    )
                self._add_member_and_rebalance(
                    rebalance_timeout_ms,
                    session_timeout_ms,
                    member_id,
                    group_instance_id,
                    client_id,
                    client_host,
                    protocol_type,
                    protocols,
                    group,
                    response_callback,
                )
            else:
                group_instance_id_not_found = group_instance_id is not None and not group.has_static_member(
                    group_instance_id
                )
                if group.is_static_member_fenced(member_id, group_instance_id, "join-group"):
                    # Another instance took over this group.instance.id: this one must stop.
                    response_callback(JoinGroupResult.of_error(member_id, Errors.FENCED_INSTANCE_ID))
                elif not group.has(member_id) or group_instance_id_not_found:
                    # Unknown id, or a static member whose instance id we do not know: it resets its id and retries.
                    response_callback(JoinGroupResult.of_error(member_id, Errors.UNKNOWN_MEMBER_ID))
                else:
                    self._known_member_join_group(group, group.get(member_id), protocols, response_callback)

    def _known_member_join_group(
        self, group: GroupMetadata, member: MemberMetadata, protocols: list[Protocol], response_callback: JoinCallback
    ) -> None:
        member_id = member.member_id
        match group.current_state:
            case PreparingRebalance():
                self._update_member_and_rebalance(
                    group,
                    member,
                    protocols,
                    f"Member {member_id} joining group during {group.current_state}",
                    response_callback,
                )
            case CompletingRebalance():
                if member.matches(protocols):
                    # The same metadata again (the member probably lost our JoinGroup response): answer with the
                    # current generation.
                    response_callback(
                        JoinGroupResult(
                            members=self._current_member_metadata(group) if group.is_leader(member_id) else [],
                            member_id=member_id,
                            generation_id=group.generation_id,
                            protocol_type=group.protocol_type,
                            protocol_name=group.protocol_name,
                            leader_id=group.leader_or_null or NO_LEADER,
                            error=Errors.NONE,
                        )
                    )
                else:
                    # Changed metadata needs a new assignment.
                    self._update_member_and_rebalance(
                        group,
                        member,
                        protocols,
                        f"Updating metadata for member {member_id} during {group.current_state}",
                        response_callback,
                    )
            case Stable():
                if group.is_leader(member_id):
                    # A JoinGroup from the leader always rebalances: that is how the leader asks for a new
                    # assignment when something outside the members' metadata changed (e.g. topic partitions).
                    self._update_member_and_rebalance(
                        group,
                        member,
                        protocols,
                        f"leader {member_id} re-joining group during {group.current_state}",
                        response_callback,
                    )
                elif not member.matches(protocols):
                    self._update_member_and_rebalance(
                        group,
                        member,
                        protocols,
                        f"Updating metadata for member {member_id} during {group.current_state}",
                        response_callback,
                    )
                else:
                    # A follower with unchanged metadata: give it the current generation so it can sync.
                    response_callback(
                        JoinGroupResult(
                            members=[],
                            member_id=member_id,
                            generation_id=group.generation_id,
                            protocol_type=group.protocol_type,
                            protocol_name=group.protocol_name,
                            leader_id=group.leader_or_null or NO_LEADER,
                            error=Errors.NONE,
                        )
                    )
            case Empty() | Dead():
                # Should not happen with a known member: make it start over.
                self.warn(
                    f"Attempt to add rejoining member {member_id} of group {group.group_id} in "
                    f"unexpected group state {group.current_state}"
                )
                response_callback(JoinGroupResult.of_error(member_id, Errors.UNKNOWN_MEMBER_ID))

    # ---- SyncGroup -----------------------------------------------------------------------------------------------

    def handle_sync_group(
        self,
        group_id: str,
        generation: int,
        member_id: str,
        protocol_type: str | None,
        protocol_name: str | None,
        group_instance_id: str | None,
        group_assignment: Mapping[str, bytes],
        response_callback: SyncCallback,
    ) -> None:
        error = self.validate_group_status(group_id, ApiKeys.SYNC_GROUP)
        if error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            # The rebalance in flight was lost with the coordinator's state: the member must join again, and
            # REBALANCE_IN_PROGRESS makes it do so without looking up the coordinator (old clients do not expect
            # COORDINATOR_LOAD_IN_PROGRESS here).
            response_callback(SyncGroupResult.of_error(Errors.REBALANCE_IN_PROGRESS))
        elif error is not None:
            response_callback(SyncGroupResult.of_error(error))
        else:
            group = self.group_manager.get_group(group_id)
            if group is None:
                response_callback(SyncGroupResult.of_error(Errors.UNKNOWN_MEMBER_ID))
            else:
                self._do_sync_group(
                    group,
                    generation,
                    member_id,
                    protocol_type,
                    protocol_name,
                    group_instance_id,
                    group_assignment,
                    response_callback,
                )

    def _do_sync_group(
        self,
        group: GroupMetadata,
        generation_id: int,
        member_id: str,
        protocol_type: str | None,
        protocol_name: str | None,
        group_instance_id: str | None,
        group_assignment: Mapping[str, bytes],
        response_callback: SyncCallback,
    ) -> None:
        with group.lock:
            if group.is_(Dead()):
                # See do_unknown_join_group: the member retries against the right coordinator.
                response_callback(SyncGroupResult.of_error(Errors.COORDINATOR_NOT_AVAILABLE))
            elif group.is_static_member_fenced(member_id, group_instance_id, "sync-group"):
                response_callback(SyncGroupResult.of_error(Errors.FENCED_INSTANCE_ID))
            elif not group.has(member_id):
                response_callback(SyncGroupResult.of_error(Errors.UNKNOWN_MEMBER_ID))
            elif generation_id != group.generation_id:
                response_callback(SyncGroupResult.of_error(Errors.ILLEGAL_GENERATION))
            elif protocol_type is not None and group.protocol_type != protocol_type:
                response_callback(SyncGroupResult.of_error(Errors.INCONSISTENT_GROUP_PROTOCOL))
            elif protocol_name is not None and group.protocol_name != protocol_name:
                response_callback(SyncGroupResult.of_error(Errors.INCONSISTENT_GROUP_PROTOCOL))
            else:
                match group.current_state:
                    case Empty():
                        response_callback(SyncGroupResult.of_error(Errors.UNKNOWN_MEMBER_ID))
                    case PreparingRebalance():
                        response_callback(SyncGroupResult.of_error(Errors.REBALANCE_IN_PROGRESS))
                    case CompletingRebalance():
                        group.get(member_id).awaiting_sync_callback = response_callback
                        self._remove_pending_sync_member(group, member_id)
                        # The leader's sync carries the assignment: store it, then answer everyone.
                        if group.is_leader(member_id):
                            self._complete_leader_sync(group, generation_id, member_id, group_assignment)
                    case Stable():
                        self._remove_pending_sync_member(group, member_id)
                        # Already stable: the member gets its current assignment.
                        member_metadata = group.get(member_id)
                        response_callback(
                            SyncGroupResult(
                                group.protocol_type, group.protocol_name, member_metadata.assignment, Errors.NONE
                            )
                        )
                        self.complete_and_schedule_next_heartbeat_expiration(group, group.get(member_id))
                    case Dead():
                        raise IllegalStateException(f"Reached unexpected condition for Dead group {group.group_id}")

    def _complete_leader_sync(
        self, group: GroupMetadata, generation_id: int, member_id: str, group_assignment: Mapping[str, bytes]
    ) -> None:
        self.info(
            f"Assignment received from leader for group {group.group_id} for generation {group.generation_id}. "
            f"The group has {group.size} members, {len(group.all_static_members)} of which are static."
        )
        # Members the leader left out get an empty assignment.
        missing = group.all_members - group_assignment.keys()
        assignment = dict(group_assignment)
        for missing_member in missing:
            assignment[missing_member] = b""
        if missing:
            self.warn(
                f"Setting empty assignments for members {scala_set(missing)} of {group.group_id} for generation "
                f"{group.generation_id}"
            )

        def on_stored(error: Errors) -> None:
            with group.lock:
                # Members may have joined while the write was in flight: apply the outcome only if this is still
                # the generation that awaits its assignment.
                if group.is_(CompletingRebalance()) and generation_id == group.generation_id:
                    if error is not Errors.NONE:
                        self._reset_and_propagate_assignment_error(group, error)
                        self.maybe_prepare_rebalance(
                            group, f"error when storing group assignment during SyncGroup (member: {member_id})"
                        )
                    else:
                        self._set_and_propagate_assignment(group, assignment)
                        group.transition_to(Stable())

        self.group_manager.store_group(group, assignment, on_stored)
        self.group_completed_rebalance_sensor.record()

    # ---- LeaveGroup ----------------------------------------------------------------------------------------------

    def handle_leave_group(
        self, group_id: str, leaving_members: list[Any], response_callback: Callable[[LeaveGroupResult], None]
    ) -> None:
        """LeaveGroup for a batch of members (LeaveGroupRequestData.MemberIdentity objects), each answered on its
        own."""
        error = self.validate_group_status(group_id, ApiKeys.LEAVE_GROUP)
        if error is not None:
            response_callback(self._leave_error(error, []))
            return
        group = self.group_manager.get_group(group_id)
        if group is None:
            response_callback(
                self._leave_error(
                    Errors.NONE, [self._member_leave_error(m, Errors.UNKNOWN_MEMBER_ID) for m in leaving_members]
                )
            )
            return
        with group.lock:
            if group.is_(Dead()):
                response_callback(self._leave_error(Errors.COORDINATOR_NOT_AVAILABLE, []))
            else:
                member_errors = [self._leave_member(group, leaving_member) for leaving_member in leaving_members]
                response_callback(self._leave_error(Errors.NONE, member_errors))

    def _leave_member(self, group: GroupMetadata, leaving_member: Any) -> LeaveMemberResponse:
        member_id: str = leaving_member.member_id
        group_instance_id: str | None = leaving_member.group_instance_id
        if member_id != UNKNOWN_MEMBER_ID and group.is_static_member_fenced(
            member_id, group_instance_id, "leave-group"
        ):
            return self._member_leave_error(leaving_member, Errors.FENCED_INSTANCE_ID)
        if group.is_pending_member(member_id):
            if group_instance_id is not None:
                raise IllegalStateException(
                    f"the static member {scala_option(group_instance_id)} was not expected to be leaving "
                    f"from pending member bucket with member id {member_id}"
                )
            # A pending member leaves: drop it, end its session timeout, and the rebalance may now complete.
            self.info(f"Pending member {member_id} is leaving group {group.group_id}.")
            self.remove_pending_member_and_update_group(group, member_id)
            self.heartbeat_purgatory.check_and_complete(MemberKey(group.group_id, member_id))
            return self._member_leave_error(leaving_member, Errors.NONE)
        if not group.has(member_id) and not group.has_static_member(group_instance_id):
            return self._member_leave_error(leaving_member, Errors.UNKNOWN_MEMBER_ID)
        if group.has_static_member(group_instance_id):
            member = group.get(group.get_static_member_id(group_instance_id))
        else:
            member = group.get(member_id)
        self._remove_heartbeat_for_leaving_member(group, member)
        self.info(
            f"Member[group.instance.id {scala_option(member.group_instance_id)}, member.id {member.member_id}] "
            f"in group {group.group_id} has left, removing it from the group"
        )
        self.remove_member_and_update_group(group, member, f"removing member {member_id} on LeaveGroup")
        return self._member_leave_error(leaving_member, Errors.NONE)

    @staticmethod
    def _member_leave_error(member_identity: Any, error: Errors) -> LeaveMemberResponse:
        return LeaveMemberResponse(member_identity.member_id, member_identity.group_instance_id, error)

    @staticmethod
    def _leave_error(top_level_error: Errors, member_responses: list[LeaveMemberResponse]) -> LeaveGroupResult:
        return LeaveGroupResult(top_level_error, member_responses)

    # ---- DeleteGroups / OffsetDelete -----------------------------------------------------------------------------

    def handle_delete_groups(self, group_ids: Iterable[str]) -> dict[str, Errors]:
        """Deletes the empty groups among `group_ids` with their offsets; per group the error (NONE if deleted)."""
        group_errors: dict[str, Errors] = {}
        groups_eligible_for_deletion: list[GroupMetadata] = []

        for group_id in group_ids:
            error = self.validate_group_status(group_id, ApiKeys.DELETE_GROUPS)
            if error is not None:
                group_errors[group_id] = error
                continue
            group = self.group_manager.get_group(group_id)
            if group is None:
                group_errors[group_id] = self._group_not_found_error(group_id)
                continue
            with group.lock:
                match group.current_state:
                    case Dead():
                        is_dead = True
                    case Empty():
                        is_dead = False
                        group.transition_to(Dead())
                        groups_eligible_for_deletion.append(group)
                    case _:
                        is_dead = False
                        group_errors[group_id] = Errors.NON_EMPTY_GROUP
            if is_dead:
                group_errors[group_id] = self._group_not_found_error(group_id)

        if groups_eligible_for_deletion:
            offsets_removed = self.group_manager.cleanup_group_metadata(
                groups_eligible_for_deletion, lambda g: g.remove_all_offsets()
            )
            for group in groups_eligible_for_deletion:
                group_errors[group.group_id] = Errors.NONE
            deleted = ", ".join(g.group_id for g in groups_eligible_for_deletion)
            self.info(
                f"The following groups were deleted: {deleted}. A total of {offsets_removed} offsets were removed."
            )
        return group_errors

    def _group_not_found_error(self, group_id: str) -> Errors:
        return Errors.GROUP_ID_NOT_FOUND if self.group_manager.group_not_exists(group_id) else Errors.NOT_COORDINATOR

    def handle_delete_offsets(
        self, group_id: str, partitions: list[TopicPartition]
    ) -> tuple[Errors, dict[TopicPartition, Errors]]:
        """Deletes the group's offsets of `partitions`, except for topics a consumer group still subscribes to.
        With a group-level error the partition map is empty."""
        group_error = Errors.NONE
        partition_errors: dict[TopicPartition, Errors] = {}
        partitions_eligible_for_deletion: list[TopicPartition] = []

        error = self.validate_group_status(group_id, ApiKeys.OFFSET_DELETE)
        if error is not None:
            return error, {}
        group = self.group_manager.get_group(group_id)
        if group is None:
            return self._group_not_found_error(group_id), {}

        is_dead = False
        with group.lock:
            match group.current_state:
                case Dead():
                    is_dead = True
                case Empty():
                    partitions_eligible_for_deletion = list(partitions)
                case PreparingRebalance() | CompletingRebalance() | Stable() if group.is_consumer_group:
                    for tp in partitions:
                        if group.is_subscribed_to_topic(tp.topic):
                            partition_errors[tp] = Errors.GROUP_SUBSCRIBED_TO_TOPIC
                        else:
                            partitions_eligible_for_deletion.append(tp)
                case _:
                    group_error = Errors.NON_EMPTY_GROUP
        if is_dead:
            group_error = self._group_not_found_error(group_id)

        if partitions_eligible_for_deletion:
            eligible = partitions_eligible_for_deletion
            offsets_removed = self.group_manager.cleanup_group_metadata([group], lambda g: g.remove_offsets(eligible))
            for tp in eligible:
                partition_errors[tp] = Errors.NONE
            self.offset_deletion_sensor.record(offsets_removed)
            self.info(
                f"The following offsets of the group {group_id} were deleted: {', '.join(str(tp) for tp in eligible)}. "
                f"A total of {offsets_removed} offsets were removed."
            )

        # A group-level error comes with no partition errors.
        return group_error, partition_errors

    # ---- Heartbeat -----------------------------------------------------------------------------------------------

    def handle_heartbeat(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        generation_id: int,
        response_callback: Callable[[Errors], None],
    ) -> None:
        error = self.validate_group_status(group_id, ApiKeys.HEARTBEAT)
        if error is not None:
            # While the group loads there is nothing to check against: let the member carry on.
            response_callback(Errors.NONE if error is Errors.COORDINATOR_LOAD_IN_PROGRESS else error)
            return

        group = self.group_manager.get_group(group_id)
        if group is None:
            response_callback(Errors.UNKNOWN_MEMBER_ID)
            return
        with group.lock:
            if group.is_(Dead()):
                # See do_unknown_join_group: the member retries against the right coordinator.
                response_callback(Errors.COORDINATOR_NOT_AVAILABLE)
            elif group.is_static_member_fenced(member_id, group_instance_id, "heartbeat"):
                response_callback(Errors.FENCED_INSTANCE_ID)
            elif not group.has(member_id):
                response_callback(Errors.UNKNOWN_MEMBER_ID)
            elif generation_id != group.generation_id:
                response_callback(Errors.ILLEGAL_GENERATION)
            else:
                match group.current_state:
                    case Empty():
                        response_callback(Errors.UNKNOWN_MEMBER_ID)
                    case CompletingRebalance():
                        # Members may heartbeat between their JoinGroup and SyncGroup; it keeps them alive.
                        self.complete_and_schedule_next_heartbeat_expiration(group, group.get(member_id))
                        response_callback(Errors.NONE)
                    case PreparingRebalance():
                        self.complete_and_schedule_next_heartbeat_expiration(group, group.get(member_id))
                        response_callback(Errors.REBALANCE_IN_PROGRESS)
                    case Stable():
                        self.complete_and_schedule_next_heartbeat_expiration(group, group.get(member_id))
                        response_callback(Errors.NONE)
                    case Dead():
                        raise IllegalStateException(f"Reached unexpected condition for Dead group {group_id}")

    # ---- OffsetCommit / TxnOffsetCommit --------------------------------------------------------------------------

    def handle_txn_commit_offsets(
        self,
        group_id: str,
        producer_id: int,
        producer_epoch: int,
        member_id: str,
        group_instance_id: str | None,
        generation_id: int,
        offset_metadata: Mapping[TopicPartition, OffsetAndMetadata],
        response_callback: OffsetsCallback,
    ) -> None:
        error = self.validate_group_status(group_id, ApiKeys.TXN_OFFSET_COMMIT)
        if error is not None:
            response_callback(_uniform_result(offset_metadata, error))
            return
        group = self.group_manager.get_group(group_id)
        if group is None:
            group = self.group_manager.add_group(GroupMetadata(group_id, Empty(), self._time))
        self._do_txn_commit_offsets(
            group,
            member_id,
            group_instance_id,
            generation_id,
            producer_id,
            producer_epoch,
            offset_metadata,
            response_callback,
        )

    def handle_commit_offsets(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        generation_id: int,
        offset_metadata: Mapping[TopicPartition, OffsetAndMetadata],
        response_callback: OffsetsCallback,
    ) -> None:
        error = self.validate_group_status(group_id, ApiKeys.OFFSET_COMMIT)
        if error is not None:
            response_callback(_uniform_result(offset_metadata, error))
            return
        group = self.group_manager.get_group(group_id)
        if group is None:
            if generation_id < 0:
                # A consumer managing its own partitions, using Kafka only to store offsets: the group is created.
                group = self.group_manager.add_group(GroupMetadata(group_id, Empty(), self._time))
            else:
                # A generation of a group we do not have: stale, refused.
                response_callback(_uniform_result(offset_metadata, Errors.ILLEGAL_GENERATION))
                return
        self._do_commit_offsets(group, member_id, group_instance_id, generation_id, offset_metadata, response_callback)

    def schedule_handle_txn_completion(
        self, producer_id: int, offsets_partitions: Iterable[TopicPartition], transaction_result: TransactionResult
    ) -> None:
        """A transaction that committed offsets ended: have the manager apply or drop its pending offsets."""
        partitions = list(offsets_partitions)
        if not all(tp.topic == Topic.GROUP_METADATA_TOPIC_NAME for tp in partitions):
            raise ValueError("requirement failed")
        is_commit = transaction_result is TransactionResult.COMMIT
        self.group_manager.schedule_handle_txn_completion(producer_id, {tp.partition for tp in partitions}, is_commit)

    def _do_txn_commit_offsets(
        self,
        group: GroupMetadata,
        member_id: str,
        group_instance_id: str | None,
        generation_id: int,
        producer_id: int,
        producer_epoch: int,
        offset_metadata: Mapping[TopicPartition, OffsetAndMetadata],
        response_callback: OffsetsCallback,
    ) -> None:
        with group.lock:
            if group.is_(Dead()):
                # See do_unknown_join_group: the client retries against the right coordinator.
                response_callback(_uniform_result(offset_metadata, Errors.COORDINATOR_NOT_AVAILABLE))
            elif group.is_static_member_fenced(member_id, group_instance_id, "txn-commit-offsets"):
                response_callback(_uniform_result(offset_metadata, Errors.FENCED_INSTANCE_ID))
            elif member_id != UNKNOWN_MEMBER_ID and not group.has(member_id):
                # A member id, when given (KIP-447), must be known.
                response_callback(_uniform_result(offset_metadata, Errors.UNKNOWN_MEMBER_ID))
            elif generation_id >= 0 and generation_id != group.generation_id:
                # Likewise a generation, when given.
                response_callback(_uniform_result(offset_metadata, Errors.ILLEGAL_GENERATION))
            else:
                self.group_manager.store_offsets(
                    group, member_id, offset_metadata, response_callback, producer_id, producer_epoch
                )

    def _do_commit_offsets(
        self,
        group: GroupMetadata,
        member_id: str,
        group_instance_id: str | None,
        generation_id: int,
        offset_metadata: Mapping[TopicPartition, OffsetAndMetadata],
        response_callback: OffsetsCallback,
    ) -> None:
        with group.lock:
            if group.is_(Dead()):
                # See do_unknown_join_group: the client retries against the right coordinator.
                response_callback(_uniform_result(offset_metadata, Errors.COORDINATOR_NOT_AVAILABLE))
            elif group.is_static_member_fenced(member_id, group_instance_id, "commit-offsets"):
                response_callback(_uniform_result(offset_metadata, Errors.FENCED_INSTANCE_ID))
            elif generation_id < 0 and group.is_(Empty()):
                # The group only stores offsets here.
                self.group_manager.store_offsets(group, member_id, offset_metadata, response_callback)
            elif not group.has(member_id):
                response_callback(_uniform_result(offset_metadata, Errors.UNKNOWN_MEMBER_ID))
            elif generation_id != group.generation_id:
                response_callback(_uniform_result(offset_metadata, Errors.ILLEGAL_GENERATION))
            else:
                match group.current_state:
                    case Stable() | PreparingRebalance():
                        # Commits stay allowed while rebalancing: the member learns of the rebalance from its
                        # next heartbeat, and should commit before it rejoins.
                        self.complete_and_schedule_next_heartbeat_expiration(group, group.get(member_id))
                        self.group_manager.store_offsets(group, member_id, offset_metadata, response_callback)
                    case CompletingRebalance():
                        # The member has this generation from its JoinGroup but no assignment yet: it should not
                        # commit now, and REBALANCE_IN_PROGRESS tells it so gently.
                        response_callback(_uniform_result(offset_metadata, Errors.REBALANCE_IN_PROGRESS))
                    case _:
                        raise RuntimeError(f"Logic error: unexpected group state {group.current_state}")

    # ---- OffsetFetch / ListGroups / DescribeGroups ---------------------------------------------------------------

    def handle_fetch_offsets(
        self, group_id: str, require_stable: bool, partitions: list[TopicPartition] | None = None
    ) -> tuple[Errors, dict[TopicPartition, PartitionData]]:
        """The group's committed offsets (all of them when `partitions` is None), whatever the group's state: a
        group may store offsets without using group management."""
        error = self.validate_group_status(group_id, ApiKeys.OFFSET_FETCH)
        if error is not None:
            return error, {}
        return Errors.NONE, self.group_manager.get_offsets(group_id, require_stable, partitions)

    def handle_list_groups(self, states: Iterable[str]) -> tuple[Errors, list[GroupOverview]]:
        """The groups of this coordinator, only those in one of `states` unless it is empty."""
        if not self.is_active:
            return Errors.COORDINATOR_NOT_AVAILABLE, []
        error_code = Errors.COORDINATOR_LOAD_IN_PROGRESS if self.group_manager.is_loading else Errors.NONE
        state_filter = set(states)
        groups = self.group_manager.current_groups
        if state_filter:
            groups = [g for g in groups if g.summary().state in state_filter]
        return error_code, [g.overview() for g in groups]

    def handle_describe_group(self, group_id: str) -> tuple[Errors, GroupSummary]:
        error = self.validate_group_status(group_id, ApiKeys.DESCRIBE_GROUPS)
        if error is not None:
            return error, GroupCoordinator.EMPTY_GROUP
        group = self.group_manager.get_group(group_id)
        if group is None:
            return Errors.NONE, GroupCoordinator.DEAD_GROUP
        with group.lock:
            return Errors.NONE, group.summary()

    def handle_deleted_partitions(self, topic_partitions: list[TopicPartition]) -> None:
        """Drops every group's offsets of deleted partitions."""
        offsets_removed = self.group_manager.cleanup_group_metadata(
            self.group_manager.current_groups, lambda g: g.remove_offsets(topic_partitions)
        )
        self.info(
            f"Removed {offsets_removed} offsets associated with deleted partitions: "
            f"{', '.join(str(tp) for tp in topic_partitions)}."
        )

    # ---- validation ----------------------------------------------------------------------------------------------

    @staticmethod
    def _is_valid_group_id(group_id: str | None, api: ApiKeys) -> bool:
        if api in (ApiKeys.OFFSET_COMMIT, ApiKeys.OFFSET_FETCH, ApiKeys.DESCRIBE_GROUPS, ApiKeys.DELETE_GROUPS):
            # The empty group id is accepted here: old clients commit offsets under it, and describing or deleting
            # it lets operators see and remove what they stored.
            return group_id is not None
        # Group management needs a real group id.
        return group_id is not None and group_id != ""

    def validate_group_status(self, group_id: str, api: ApiKeys) -> Errors | None:
        """The error that stops `api` for `group_id` here (invalid id, inactive, loading, not ours), or None."""
        if not self._is_valid_group_id(group_id, api):
            return Errors.INVALID_GROUP_ID
        if not self.is_active:
            return Errors.COORDINATOR_NOT_AVAILABLE
        if self.is_coordinator_load_in_progress(group_id):
            return Errors.COORDINATOR_LOAD_IN_PROGRESS
        if not self.is_coordinator_for_group(group_id):
            return Errors.NOT_COORDINATOR
        return None

    # ---- partition emigration and immigration --------------------------------------------------------------------

    def on_group_unloaded(self, group: GroupMetadata) -> None:
        """The group's partition moved away: the group dies, and members parked in JoinGroup or SyncGroup are told
        NOT_COORDINATOR so that they find the new coordinator."""
        with group.lock:
            self.info(f"Unloading group metadata for {group.group_id} with generation {group.generation_id}")
            previous_state = group.current_state
            group.transition_to(Dead())

            match previous_state:
                case Empty() | Dead():
                    pass
                case PreparingRebalance():
                    for member in group.all_member_metadata:
                        group.maybe_invoke_join_callback(
                            member, JoinGroupResult.of_error(member.member_id, Errors.NOT_COORDINATOR)
                        )
                    self.rebalance_purgatory.check_and_complete(GroupJoinKey(group.group_id))
                case Stable() | CompletingRebalance():
                    for member in group.all_member_metadata:
                        group.maybe_invoke_sync_callback(member, SyncGroupResult.of_error(Errors.NOT_COORDINATOR))
                        self.heartbeat_purgatory.check_and_complete(MemberKey(group.group_id, member.member_id))

            self._remove_sync_expiration(group)

    def on_group_loaded(self, group: GroupMetadata) -> None:
        """A group read back from the log: restart its members' session timeouts (and rebalance it if it has more
        members than group.max.size now allows)."""
        with group.lock:
            self.info(f"Loading group metadata for {group.group_id} with generation {group.generation_id}")
            if not (group.is_(Stable()) or group.is_(Empty())):
                raise AssertionError(f"Loaded group {group.group_id} is in state {group.current_state}")
            if self._group_is_over_capacity(group):
                self.prepare_rebalance(
                    group,
                    f"Freshly-loaded group is over capacity ({self.group_config.group_max_size}). "
                    "Rebalacing in order to give a chance for consumers to commit offsets",
                )
            for member in group.all_member_metadata:
                self.complete_and_schedule_next_heartbeat_expiration(group, member)

    def on_election(self, offset_topic_partition_id: int, coordinator_epoch: int) -> None:
        """This broker now leads `__consumer_offsets` partition `offset_topic_partition_id`: load its groups."""
        self.info(
            f"Elected as the group coordinator for partition {offset_topic_partition_id} in epoch {coordinator_epoch}"
        )
        self.group_manager.schedule_load_group_and_offsets(
            offset_topic_partition_id, coordinator_epoch, self.on_group_loaded
        )

    def on_resignation(self, offset_topic_partition_id: int, coordinator_epoch: int | None) -> None:
        """This broker no longer leads the partition: unload its groups."""
        self.info(
            f"Resigned as the group coordinator for partition {offset_topic_partition_id} in epoch "
            f"{scala_option(coordinator_epoch)}"
        )
        self.group_manager.remove_groups_for_partition(
            offset_topic_partition_id, coordinator_epoch, self.on_group_unloaded
        )

    # ---- assignments ---------------------------------------------------------------------------------------------

    def _set_and_propagate_assignment(self, group: GroupMetadata, assignment: Mapping[str, bytes]) -> None:
        if not group.is_(CompletingRebalance()):
            raise AssertionError(f"Group {group.group_id} is in state {group.current_state}")
        for member in group.all_member_metadata:
            member.assignment = assignment[member.member_id]
        self._propagate_assignment(group, Errors.NONE)

    def _reset_and_propagate_assignment_error(self, group: GroupMetadata, error: Errors) -> None:
        if not group.is_(CompletingRebalance()):
            raise AssertionError(f"Group {group.group_id} is in state {group.current_state}")
        for member in group.all_member_metadata:
            member.assignment = b""
        self._propagate_assignment(group, error)

    def _propagate_assignment(self, group: GroupMetadata, error: Errors) -> None:
        if error is Errors.NONE:
            protocol_type, protocol_name = group.protocol_type, group.protocol_name
        else:
            protocol_type, protocol_name = None, None
        for member in group.all_member_metadata:
            if not member.assignment and error is Errors.NONE:
                self.warn(
                    f"Sending empty assignment to member {member.member_id} of {group.group_id} for generation "
                    f"{group.generation_id} with no errors"
                )
            result = SyncGroupResult(protocol_type, protocol_name, member.assignment, error)
            if group.maybe_invoke_sync_callback(member, result):
                # A session may have run out while the member waited for the leader or for the write; such an
                # expiry was ignored (parked members count as alive), so start the member's session anew.
                self.complete_and_schedule_next_heartbeat_expiration(group, member)

    # ---- heartbeats (session timeouts) ---------------------------------------------------------------------------

    def complete_and_schedule_next_heartbeat_expiration(self, group: GroupMetadata, member: MemberMetadata) -> None:
        """The member showed it is alive: end its current session timeout and start the next one."""
        self._complete_and_schedule_next_expiration(group, member, member.session_timeout_ms)

    def _complete_and_schedule_next_expiration(
        self, group: GroupMetadata, member: MemberMetadata, timeout_ms: int
    ) -> None:
        member_key = MemberKey(group.group_id, member.member_id)

        member.heartbeat_satisfied = True
        self.heartbeat_purgatory.check_and_complete(member_key)

        member.heartbeat_satisfied = False
        delayed_heartbeat = DelayedHeartbeat(self, group, member.member_id, False, timeout_ms)
        self.heartbeat_purgatory.try_complete_else_watch(delayed_heartbeat, [member_key])

    def _add_pending_member_expiration(self, group: GroupMetadata, pending_member_id: str, timeout_ms: int) -> None:
        pending_member_key = MemberKey(group.group_id, pending_member_id)
        delayed_heartbeat = DelayedHeartbeat(self, group, pending_member_id, True, timeout_ms)
        self.heartbeat_purgatory.try_complete_else_watch(delayed_heartbeat, [pending_member_key])

    def _remove_heartbeat_for_leaving_member(self, group: GroupMetadata, member: MemberMetadata) -> None:
        member.is_leaving = True
        self.heartbeat_purgatory.check_and_complete(MemberKey(group.group_id, member.member_id))

    def try_complete_heartbeat(
        self, group: GroupMetadata, member_id: str, is_pending: bool, force_complete: Callable[[], bool]
    ) -> bool:
        with group.lock:
            if group.is_(Dead()):
                # The group is gone from this coordinator: nothing left to time out.
                return force_complete()
            if is_pending:
                # A pending member's timeout ends when it joins.
                return force_complete() if group.has(member_id) else False
            if self.should_complete_non_pending_heartbeat(group, member_id):
                return force_complete()
            return False

    def should_complete_non_pending_heartbeat(self, group: GroupMetadata, member_id: str) -> bool:
        if group.has(member_id):
            member = group.get(member_id)
            return member.has_satisfied_heartbeat() or member.is_leaving
        self.info(f"Member id {member_id} was not found in {group.group_id} during heartbeat completion check")
        return True

    def on_expire_heartbeat(self, group: GroupMetadata, member_id: str, is_pending: bool) -> None:
        with group.lock:
            if group.is_(Dead()):
                self.info(
                    f"Received notification of heartbeat expiration for member {member_id} after group "
                    f"{group.group_id} had already been unloaded or deleted."
                )
            elif is_pending:
                self.info(
                    f"Pending member {member_id} in group {group.group_id} has been removed after session timeout "
                    "expiration."
                )
                self.remove_pending_member_and_update_group(group, member_id)
            elif not group.has(member_id):
                if self.is_debug_enabled():
                    self.debug(f"Member {member_id} has already been removed from the group.")
            else:
                member = group.get(member_id)
                if not member.has_satisfied_heartbeat():
                    self.info(
                        f"Member {member.member_id} in group {group.group_id} has failed, removing it from the group"
                    )
                    self.remove_member_and_update_group(
                        group, member, f"removing member {member.member_id} on heartbeat expiration"
                    )

    # ---- membership changes --------------------------------------------------------------------------------------

    def _add_member_and_rebalance(
        self,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        member_id: str,
        group_instance_id: str | None,
        client_id: str,
        client_host: str,
        protocol_type: str,
        protocols: list[Protocol],
        group: GroupMetadata,
        callback: JoinCallback,
    ) -> None:
        member = MemberMetadata(
            member_id,
            group_instance_id,
            client_id,
            client_host,
            rebalance_timeout_ms,
            session_timeout_ms,
            protocol_type,
            protocols,
        )
        member.is_new = True

        # A member arriving during the very first rebalance lets InitialDelayedJoin wait once more.
        if group.is_(PreparingRebalance()) and group.generation_id == 0:
            group.new_member_added = True

        group.add(member, callback)

        # A new member has no id to heartbeat with, and while its JoinGroup is parked its connection is muted, so a
        # client that gave up and retried would leave a dead member behind. Its parked join therefore expires after
        # NEW_MEMBER_JOIN_TIMEOUT_MS; a live member simply joins again.
        self._complete_and_schedule_next_expiration(group, member, self.NEW_MEMBER_JOIN_TIMEOUT_MS)

        if member.is_static_member:
            self.info(
                f"Adding new static member {scala_option(group_instance_id)} to group {group.group_id} with member "
                f"id {member_id}."
            )
            group.add_static_member(group_instance_id, member_id)
        else:
            group.remove_pending_member(member_id)
        self.maybe_prepare_rebalance(
            group, f"Adding new member {member_id} with group instance id {scala_option(group_instance_id)}"
        )

    def _update_static_member_and_rebalance(
        self,
        group: GroupMetadata,
        new_member_id: str,
        group_instance_id: str | None,
        protocols: list[Protocol],
        response_callback: JoinCallback,
        support_skipping_assignment: bool = False,
    ) -> None:
        """KIP-345: a known static member rejoined without its member id (it restarted). It gets a new id and keeps
        its place; the group rebalances only if it must."""
        old_member_id = group.get_static_member_id(group_instance_id)
        self.info(
            f"Static member {scala_option(group_instance_id)} of group {group.group_id} with unknown member id "
            f"rejoins, assigning new member id {new_member_id}, while old member id {old_member_id} will be removed."
        )

        current_leader = group.leader_or_null or NO_LEADER
        member = group.replace_group_instance(old_member_id, new_member_id, group_instance_id)
        # The old id's session timeout will expire harmlessly (the id is gone); the new id gets its own.
        self.complete_and_schedule_next_heartbeat_expiration(group, member)

        known_static_member = group.get(new_member_id)
        group.update_member(known_static_member, protocols, response_callback)
        # Read after the update, as Kafka does: a failed write below keeps the protocols the member just sent.
        old_protocols = known_static_member.supported_protocols

        match group.current_state:
            case Stable():
                # If the protocol the next generation would pick is unchanged, the current assignment still holds:
                # just persist the new member id. Otherwise rebalance so assignment and protocol agree.
                selected_protocol_of_next_generation = group.select_protocol()
                if group.protocol_name == selected_protocol_of_next_generation:
                    self.info(
                        "Static member which joins during Stable stage and doesn't affect selectProtocol will not "
                        "trigger rebalance."
                    )
                    group_assignment = {m.member_id: m.assignment for m in group.all_member_metadata}

                    def on_stored(error: Errors) -> None:
                        if error is not Errors.NONE:
                            self.warn(f"Failed to persist metadata for group {group.group_id}: {error.message}")
                            # The new member id could not be stored: put the old one back.
                            group.update_member(known_static_member, old_protocols, None)
                            old_member = group.replace_group_instance(new_member_id, old_member_id, group_instance_id)
                            self.complete_and_schedule_next_heartbeat_expiration(group, old_member)
                            response_callback(
                                JoinGroupResult(
                                    members=[],
                                    member_id=UNKNOWN_MEMBER_ID,
                                    generation_id=group.generation_id,
                                    protocol_type=group.protocol_type,
                                    protocol_name=group.protocol_name,
                                    leader_id=current_leader,
                                    error=error,
                                )
                            )
                        elif support_skipping_assignment:
                            # PORT: 3.x (KIP-814, JoinGroup v9): a rejoining static leader learns it leads, with the
                            # members' metadata so it can keep watching topic metadata, but is told not to assign:
                            # a Stable group would not hand out a new assignment anyway.
                            is_leader = group.is_leader(new_member_id)
                            group.maybe_invoke_join_callback(
                                member,
                                JoinGroupResult(
                                    members=self._current_member_metadata(group) if is_leader else [],
                                    member_id=new_member_id,
                                    generation_id=group.generation_id,
                                    protocol_type=group.protocol_type,
                                    protocol_name=group.protocol_name,
                                    leader_id=group.leader_or_null or NO_LEADER,
                                    error=Errors.NONE,
                                    skip_assignment=is_leader,
                                ),
                            )
                        else:
                            # The old leader id goes back even if this member is the leader now: a leader told it
                            # leads a Stable group would compute an assignment that a Stable group never hands out.
                            group.maybe_invoke_join_callback(
                                member,
                                JoinGroupResult(
                                    members=[],
                                    member_id=new_member_id,
                                    generation_id=group.generation_id,
                                    protocol_type=group.protocol_type,
                                    protocol_name=group.protocol_name,
                                    leader_id=current_leader,
                                    error=Errors.NONE,
                                ),
                            )

                    self.group_manager.store_group(group, group_assignment, on_stored)
                else:
                    self.maybe_prepare_rebalance(
                        group,
                        f"Group's selectedProtocol will change because static member {member.member_id} with "
                        f"instance id {scala_option(group_instance_id)} joined with change of protocol",
                    )
            case CompletingRebalance():
                # The leader may already be assigning with the old member id, which would leave the new id without
                # an assignment: rebalance again.
                self.prepare_rebalance(
                    group,
                    f"Updating metadata for static member {member.member_id} with instance id "
                    f"{scala_option(group_instance_id)}",
                )
            case Empty() | Dead():
                raise IllegalStateException(
                    f"Group {group.group_id} was not supposed to be in the state {group.current_state} when the "
                    f"unknown static member {scala_option(group_instance_id)} rejoins."
                )
            case PreparingRebalance():
                pass

    def _update_member_and_rebalance(
        self,
        group: GroupMetadata,
        member: MemberMetadata,
        protocols: list[Protocol],
        reason: str,
        callback: JoinCallback,
    ) -> None:
        group.update_member(member, protocols, callback)
        self.maybe_prepare_rebalance(group, reason)

    def maybe_prepare_rebalance(self, group: GroupMetadata, reason: str) -> None:
        with group.lock:
            if group.can_rebalance:
                self.prepare_rebalance(group, reason)

    def prepare_rebalance(self, group: GroupMetadata, reason: str) -> None:
        """Moves the group to PreparingRebalance and parks a DelayedJoin (an InitialDelayedJoin for an Empty group)
        that forms the next generation."""
        # Members waiting in SyncGroup must join again.
        if group.is_(CompletingRebalance()):
            self._reset_and_propagate_assignment_error(group, Errors.REBALANCE_IN_PROGRESS)

        # No sync is awaited any more.
        self._remove_sync_expiration(group)

        delayed_rebalance: DelayedJoin
        if group.is_(Empty()):
            delay = self.group_config.group_initial_rebalance_delay_ms
            delayed_rebalance = InitialDelayedJoin(
                self,
                self.rebalance_purgatory,
                group,
                delay,
                delay,
                max(group.rebalance_timeout_ms - delay, 0),
            )
        else:
            delayed_rebalance = DelayedJoin(self, group, group.rebalance_timeout_ms)

        group.transition_to(PreparingRebalance())

        self.info(
            f"Preparing to rebalance group {group.group_id} in state {group.current_state} with old generation "
            f"{group.generation_id} ({Topic.GROUP_METADATA_TOPIC_NAME}-{self.partition_for(group.group_id)}) "
            f"(reason: {reason})"
        )

        self.rebalance_purgatory.try_complete_else_watch(delayed_rebalance, [GroupJoinKey(group.group_id)])

    def remove_member_and_update_group(self, group: GroupMetadata, member: MemberMetadata, reason: str) -> None:
        # A new member may time out while its JoinGroup is parked: answer it UNKNOWN_MEMBER_ID before removing it,
        # so that a still-running client joins again.
        group.maybe_invoke_join_callback(member, JoinGroupResult.of_error(UNKNOWN_MEMBER_ID, Errors.UNKNOWN_MEMBER_ID))
        group.remove(member.member_id)

        match group.current_state:
            case Dead() | Empty():
                pass
            case Stable() | CompletingRebalance():
                self.maybe_prepare_rebalance(group, reason)
            case PreparingRebalance():
                self.rebalance_purgatory.check_and_complete(GroupJoinKey(group.group_id))

    def remove_pending_member_and_update_group(self, group: GroupMetadata, member_id: str) -> None:
        group.remove_pending_member(member_id)
        if group.is_(PreparingRebalance()):
            self.rebalance_purgatory.check_and_complete(GroupJoinKey(group.group_id))

    # ---- DelayedJoin callbacks -----------------------------------------------------------------------------------

    def try_complete_join(self, group: GroupMetadata, force_complete: Callable[[], bool]) -> bool:
        with group.lock:
            if group.has_all_members_joined:
                return force_complete()
            return False

    def on_complete_join(self, group: GroupMetadata) -> None:
        """The join phase is over: drop the dynamic members that did not rejoin, then start the next generation and
        answer the parked JoinGroups (the leader's answer lists every member)."""
        with group.lock:
            not_yet_rejoined_dynamic_members = {
                member_id: m for member_id, m in group.not_yet_rejoined_members.items() if not m.is_static_member
            }
            if not_yet_rejoined_dynamic_members:
                self.info(
                    f"Group {group.group_id} removed dynamic members who haven't joined: "
                    f"{scala_set(not_yet_rejoined_dynamic_members)}"
                )
                for failed_member in not_yet_rejoined_dynamic_members.values():
                    self._remove_heartbeat_for_leaving_member(group, failed_member)
                    group.remove(failed_member.member_id)

            if group.is_(Dead()):
                self.info(f"Group {group.group_id} is dead, skipping rebalance stage")
            elif not group.maybe_elect_new_joined_leader() and group.all_members:
                # Nobody rejoined (only static members remain and none came back): wait another rebalance timeout,
                # until the session timeouts have removed the silent members.
                self.error(f"Group {group.group_id} could not complete rebalance because no members rejoined")
                self.rebalance_purgatory.try_complete_else_watch(
                    DelayedJoin(self, group, group.rebalance_timeout_ms), [GroupJoinKey(group.group_id)]
                )
            else:
                group.init_next_generation()
                if group.is_(Empty()):
                    self.info(
                        f"Group {group.group_id} with generation {group.generation_id} is now empty "
                        f"({Topic.GROUP_METADATA_TOPIC_NAME}-{self.partition_for(group.group_id)})"
                    )

                    def on_stored(error: Errors) -> None:
                        if error is not Errors.NONE:
                            # Harmless: a restart would bring back the previous generation, whose members are
                            # gone, so it would simply time out.
                            self.warn(f"Failed to write empty metadata for group {group.group_id}: {error.message}")

                    self.group_manager.store_group(group, {}, on_stored)
                else:
                    self.info(
                        f"Stabilized group {group.group_id} generation {group.generation_id} "
                        f"({Topic.GROUP_METADATA_TOPIC_NAME}-{self.partition_for(group.group_id)}) with "
                        f"{group.size} members"
                    )
                    leader_members = self._current_member_metadata(group)
                    for member in group.all_member_metadata:
                        join_result = JoinGroupResult(
                            members=leader_members if group.is_leader(member.member_id) else [],
                            member_id=member.member_id,
                            generation_id=group.generation_id,
                            protocol_type=group.protocol_type,
                            protocol_name=group.protocol_name,
                            leader_id=group.leader_or_null or NO_LEADER,
                            error=Errors.NONE,
                        )
                        group.maybe_invoke_join_callback(member, join_result)
                        self.complete_and_schedule_next_heartbeat_expiration(group, member)
                        member.is_new = False
                        group.add_pending_sync_member(member.member_id)

                    self._schedule_pending_sync(group)

    # ---- DelayedSync callbacks -----------------------------------------------------------------------------------

    def _remove_pending_sync_member(self, group: GroupMetadata, member_id: str) -> None:
        group.remove_pending_sync_member(member_id)
        self._maybe_complete_sync_expiration(group)

    def _remove_sync_expiration(self, group: GroupMetadata) -> None:
        group.clear_pending_sync_members()
        self._maybe_complete_sync_expiration(group)

    def _maybe_complete_sync_expiration(self, group: GroupMetadata) -> None:
        self.rebalance_purgatory.check_and_complete(GroupSyncKey(group.group_id))

    def _schedule_pending_sync(self, group: GroupMetadata) -> None:
        delayed_sync = DelayedSync(self, group, group.generation_id, group.rebalance_timeout_ms)
        self.rebalance_purgatory.try_complete_else_watch(delayed_sync, [GroupSyncKey(group.group_id)])

    def try_complete_pending_sync(
        self, group: GroupMetadata, generation_id: int, force_complete: Callable[[], bool]
    ) -> bool:
        with group.lock:
            if generation_id != group.generation_id:
                return force_complete()
            match group.current_state:
                case Dead() | Empty() | PreparingRebalance():
                    return force_complete()
                case _:
                    if group.has_received_sync_from_all_members:
                        return force_complete()
                    return False

    def on_expire_pending_sync(self, group: GroupMetadata, generation_id: int) -> None:
        with group.lock:
            if generation_id != group.generation_id:
                self.error(
                    f"Received unexpected notification of sync expiration for {group.group_id} with an old "
                    f"generation {generation_id} while the group has {group.generation_id}."
                )
                return
            match group.current_state:
                case Dead() | Empty() | PreparingRebalance():
                    self.error(
                        f"Received unexpected notification of sync expiration after group {group.group_id} already "
                        f"transitioned to the {group.current_state} state."
                    )
                case _:
                    if not group.has_received_sync_from_all_members:
                        pending_sync_members = group.all_pending_sync_members
                        for member_id in pending_sync_members:
                            member = group.get(member_id)
                            self._remove_heartbeat_for_leaving_member(group, member)
                            group.remove(member_id)
                        if self.is_debug_enabled():
                            self.debug(
                                f"Group {group.group_id} removed members who haven't sent their sync request: "
                                f"{scala_set(pending_sync_members)}"
                            )
                        self.prepare_rebalance(
                            group, f"Removing {scala_set(pending_sync_members)} on pending sync request expiration"
                        )

    # ---- small helpers -------------------------------------------------------------------------------------------

    @staticmethod
    def _current_member_metadata(group: GroupMetadata) -> list[Any]:
        """The members as the leader's JoinGroup response lists them."""
        return [
            JoinGroupResponseData.JoinGroupResponseMember(
                member_id=member_id, group_instance_id=group_instance_id, metadata=metadata
            )
            for member_id, group_instance_id, metadata in group.current_member_metadata()
        ]

    def partition_for(self, group: str) -> int:
        return self.group_manager.partition_for(group)

    def _group_is_over_capacity(self, group: GroupMetadata) -> bool:
        return group.size > self.group_config.group_max_size

    def is_coordinator_for_group(self, group_id: str) -> bool:
        return self.group_manager.is_group_local(group_id)

    def is_coordinator_load_in_progress(self, group_id: str) -> bool:
        return self.group_manager.is_group_loading(group_id)
