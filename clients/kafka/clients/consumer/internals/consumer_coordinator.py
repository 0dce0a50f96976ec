"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerCoordinator.java (Kafka 3.7).

The consumer's group membership and offset management (classic group protocol, protocol type
"consumer"). It joins with one protocol per configured assignor (the subscription serialized with
ConsumerProtocol), runs the chosen assignor when it leads, applies the assignment it receives (with the
EAGER protocol everything was revoked before joining; with COOPERATIVE only partitions taken away are
revoked, followed by another rebalance), calls the rebalance listener, and rejoins when the subscription
or (as leader) the subscribed topics' metadata change. It also commits offsets (synchronously,
asynchronously with callbacks, and automatically every auto.commit.interval.ms) and fetches committed
offsets.

Metrics: ConsumerCoordinatorMetrics (commit latency and counts, rebalance listener callback times,
assigned-partitions) beside AbstractCoordinator's group membership ones.

# PORT: no client telemetry. Commit callbacks of async commits run on the application thread
from `invoke_completed_offset_commit_callbacks`, as in Java.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from kafka.clients.admin.internals.request_builders import OffsetCommitRequestBuilder, OffsetFetchRequestBuilder
from kafka.clients.consumer.commit_failed_exception import CommitFailedException
from kafka.clients.consumer.consumer_config import ConsumerConfig
from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import (
    Assignment,
    ConsumerPartitionAssignor,
    GroupSubscription,
    RebalanceProtocol,
    Subscription,
)
from kafka.clients.consumer.cooperative_sticky_assignor import CooperativeStickyAssignor
from kafka.clients.consumer.internals import consumer_protocol
from kafka.clients.consumer.internals.abstract_coordinator import (
    AbstractCoordinator,
    CoordinatorResponseHandler,
    Generation,
    MemberState,
)
from kafka.clients.consumer.internals.consumer_coordinator_metrics import ConsumerCoordinatorMetrics
from kafka.clients.consumer.internals.consumer_interceptors import ConsumerInterceptors
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.consumer_rebalance_listener_invoker import ConsumerRebalanceListenerInvoker
from kafka.clients.consumer.internals.consumer_utils import refresh_committed_offsets
from kafka.clients.consumer.internals.request_future import RequestFuture
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_commit_callback import OffsetCommitCallback
from kafka.clients.consumer.retriable_commit_failed_exception import RetriableCommitFailedException
from kafka.clients.group_rebalance_config import GroupRebalanceConfig
from kafka.common.cluster import Cluster
from kafka.common.errors import (
    FencedInstanceIdException,
    GroupAuthorizationException,
    InterruptException,
    KafkaException,
    RebalanceInProgressException,
    RetriableException,
    TimeoutException,
    TopicAuthorizationException,
    UnstableOffsetCommitException,
    WakeupException,
)
from kafka.common.message import JoinGroupRequestData, OffsetCommitRequestData
from kafka.common.metrics.metrics import Metrics
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PARTITION_LEADER_EPOCH
from kafka.common.requests.offset_commit_response import OffsetCommitResponse
from kafka.common.requests.offset_fetch_response import OffsetFetchResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time, Timer

__all__ = ["ConsumerCoordinator"]

_LONG_MAX = 2**63 - 1


class _MetadataSnapshot:
    """The partitions (and, with a client rack, their replica racks) of the topics the member watches, at a
    metadata version: a change calls for a rebalance."""

    __slots__ = ("version", "partitions_per_topic")

    def __init__(
        self, client_rack: str | None, subscription: SubscriptionState, cluster: Cluster, version: int
    ) -> None:
        partitions_per_topic: dict[str, list[frozenset[str | None]]] = {}
        for topic in subscription.metadata_topics():
            partitions = cluster.partitions_for_topic(topic)
            if partitions:
                partitions_per_topic[topic] = [
                    frozenset(n.rack for n in p.replicas) if client_rack is not None else frozenset()
                    for p in partitions
                ]
        self.partitions_per_topic = partitions_per_topic
        self.version = version

    def matches(self, other: _MetadataSnapshot) -> bool:
        return self.version == other.version or self.partitions_per_topic == other.partitions_per_topic

    def __str__(self) -> str:
        shown = {
            t: ["NO_RACKS" if not racks else f"racks={set(racks)}" for racks in infos]
            for t, infos in self.partitions_per_topic.items()
        }
        return f"(version{self.version}: {shown})"


class _OffsetCommitCompletion:
    __slots__ = ("_callback", "_offsets", "_exception")

    def __init__(
        self,
        callback: OffsetCommitCallback | None,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        exception: BaseException | None,
    ) -> None:
        self._callback = callback
        self._offsets = offsets
        self._exception = exception

    def invoke(self) -> None:
        if self._callback is not None:
            self._callback.on_complete(self._offsets, self._exception)


class _PendingCommittedOffsetRequest:
    __slots__ = ("requested_partitions", "requested_generation", "response")

    def __init__(
        self,
        requested_partitions: set[TopicPartition],
        generation_at_request_time: Generation | None,
        response: RequestFuture[dict[TopicPartition, OffsetAndMetadata | None]],
    ) -> None:
        self.requested_partitions = requested_partitions
        self.requested_generation = generation_at_request_time
        self.response = response

    def same_request(self, current_request: set[TopicPartition], current_generation: Generation | None) -> bool:
        return self.requested_generation == current_generation and self.requested_partitions == current_request


class _DefaultOffsetCommitCallback(OffsetCommitCallback):
    def __init__(self, coordinator: ConsumerCoordinator) -> None:
        self._coordinator = coordinator

    def on_complete(self, offsets: Mapping[TopicPartition, OffsetAndMetadata], exception: BaseException | None) -> None:
        if exception is not None:
            self._coordinator._log.error(f"Offset commit with offsets {_offsets_str(offsets)} failed", exception)


class _AutoCommitCallback(OffsetCommitCallback):
    def __init__(self, coordinator: ConsumerCoordinator) -> None:
        self._coordinator = coordinator

    def on_complete(self, offsets: Mapping[TopicPartition, OffsetAndMetadata], exception: BaseException | None) -> None:
        c = self._coordinator
        if exception is not None:
            if isinstance(exception, RetriableCommitFailedException):
                c._log.debug(
                    f"Asynchronous auto-commit of offsets {_offsets_str(offsets)} failed due to retriable error.",
                    exception,
                )
                assert c._next_auto_commit_timer is not None
                c._next_auto_commit_timer.update()
                c._next_auto_commit_timer.reset(c._rebalance_config.retry_backoff_ms)
            else:
                c._log.warn(f"Asynchronous auto-commit of offsets {_offsets_str(offsets)} failed: {exception}")
        else:
            c._log.debug(f"Completed asynchronous auto-commit of offsets {_offsets_str(offsets)}")


class ConsumerCoordinator(AbstractCoordinator):
    """The group coordinator client of a KafkaConsumer. See the module docstring."""

    def __init__(
        self,
        rebalance_config: GroupRebalanceConfig,
        log_context: LogContext,
        client: ConsumerNetworkClient,
        assignors: Sequence[ConsumerPartitionAssignor],
        metadata: ConsumerMetadata,
        subscriptions: SubscriptionState,
        metrics: Metrics,
        metric_grp_prefix: str,
        time: Time,
        auto_commit_enabled: bool,
        auto_commit_interval_ms: int,
        interceptors: ConsumerInterceptors[Any, Any] | None,
        throw_on_fetch_stable_offsets_unsupported: bool,
        rack_id: str | None,
    ) -> None:
        """# PORT: Java also takes a telemetry reporter."""
        super().__init__(rebalance_config, log_context, client, metrics, metric_grp_prefix, time)
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.ConsumerCoordinator")
        self._metadata = metadata
        self._rack_id = rack_id if rack_id else None
        self._metadata_snapshot = _MetadataSnapshot(
            self._rack_id, subscriptions, metadata.fetch(), metadata.update_version()
        )
        self._subscriptions = subscriptions
        self._default_offset_commit_callback = _DefaultOffsetCommitCallback(self)
        self._auto_commit_enabled = auto_commit_enabled
        self._auto_commit_interval_ms = auto_commit_interval_ms
        self._assignors = list(assignors)
        # Completed async commits, queued by whichever thread handled the response, run on the application
        # thread.
        self._completed_offset_commits: deque[_OffsetCommitCompletion] = deque()
        self._coordinator_metrics = ConsumerCoordinatorMetrics(subscriptions, metrics, metric_grp_prefix)
        self._interceptors = interceptors
        self._counter_lock = threading.Lock()
        # Async commits in flight, and those waiting for the coordinator lookup.
        self.in_flight_async_commits = 0
        self._pending_async_commits = 0
        self._async_commit_fenced = False
        self._group_metadata = ConsumerGroupMetadata(
            rebalance_config.group_id or "", group_instance_id=rebalance_config.group_instance_id
        )
        self._throw_on_fetch_stable_offsets_unsupported = throw_on_fetch_stable_offsets_unsupported
        self._next_auto_commit_timer: Timer | None = (
            time.timer(auto_commit_interval_ms) if auto_commit_enabled else None
        )
        self._is_leader = False
        self._joined_subscription: set[str] | None = None
        self._assignment_snapshot: _MetadataSnapshot | None = None
        self._pending_committed_offset_request: _PendingCommittedOffsetRequest | None = None
        # The async commit made before a rebalance, and the bound on waiting for it (the rebalance timeout).
        self._auto_commit_offset_request_future: RequestFuture[None] | None = None
        self._join_prepare_timer: Timer | None = None

        # The protocol: the most advanced one that every assignor supports.
        self._protocol: RebalanceProtocol | None
        if self._assignors:
            supported = set(self._assignors[0].supported_protocols())
            for assignor in self._assignors:
                supported &= set(assignor.supported_protocols())
            if not supported:
                names = {a.name() for a in self._assignors}
                raise ValueError(f"Specified assignors {names} do not have commonly supported rebalance protocol")
            self._protocol = max(supported, key=lambda p: p.id)
        else:
            self._protocol = None
        self._rebalance_listener_invoker = ConsumerRebalanceListenerInvoker(
            log_context, subscriptions, time, self._coordinator_metrics
        )
        self._metadata.request_update(True)

    def _logger_name(self) -> str:
        return "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"

    def is_leader(self) -> bool:
        return self._is_leader

    def subscription_state(self) -> SubscriptionState:
        return self._subscriptions

    def protocol_type(self) -> str:
        return consumer_protocol.PROTOCOL_TYPE

    def metadata(self) -> Any:
        self._log.debug(f"Joining group with current subscription: {_set_str(self._subscriptions.subscription())}")
        self._joined_subscription = self._subscriptions.subscription()
        protocol_set = JoinGroupRequestData.JoinGroupRequestProtocolCollection()
        topics = list(self._joined_subscription)
        for assignor in self._assignors:
            subscription = Subscription(
                topics,
                assignor.subscription_user_data(set(self._joined_subscription)),
                self._subscriptions.assigned_partitions_list(),
                self.generation().generation_id,
                self._rack_id,
            )
            protocol_set.append(
                JoinGroupRequestData.JoinGroupRequestProtocol(
                    name=assignor.name(), metadata=consumer_protocol.serialize_subscription(subscription)
                )
            )
        return protocol_set

    def update_pattern_subscription(self, cluster: Cluster) -> None:
        topics_to_subscribe = {t for t in cluster.topics if self._subscriptions.matches_subscribed_pattern(t)}
        if self._subscriptions.subscribe_from_pattern(topics_to_subscribe):
            self._metadata.request_update_for_new_topics()

    def _lookup_assignor(self, name: str) -> ConsumerPartitionAssignor | None:
        for assignor in self._assignors:
            if assignor.name() == name:
                return assignor
        return None

    def _maybe_update_joined_subscription(self, assigned_partitions: Sequence[TopicPartition]) -> None:
        if self._subscriptions.has_pattern_subscription():
            # The leader may assign topics matching the pattern that this member had not seen: adopt them.
            joined = self._joined_subscription or set()
            added_topics = {tp.topic for tp in assigned_partitions if tp.topic not in joined}
            if added_topics:
                new_subscription = self._subscriptions.subscription() | added_topics
                new_joined_subscription = joined | added_topics
                if self._subscriptions.subscribe_from_pattern(new_subscription):
                    self._metadata.request_update_for_new_topics()
                self._joined_subscription = new_joined_subscription

    def _invoke_on_assignment(self, assignor: ConsumerPartitionAssignor, assignment: Assignment) -> Exception | None:
        self._log.info(f"Notifying assignor about the new {assignment}")
        try:
            assignor.on_assignment(assignment, self._group_metadata)
        except Exception as e:
            return e
        return None

    def on_join_complete(self, generation: int, member_id: str, protocol: str, member_assignment: bytes) -> None:
        self._log.debug(f"Executing onJoinComplete with generation {generation} and memberId {member_id}")
        # Only the leader watches metadata for changes that call for a rebalance.
        if not self._is_leader:
            self._assignment_snapshot = None
        assignor = self._lookup_assignor(protocol)
        if assignor is None:
            raise RuntimeError(f"Coordinator selected invalid assignment protocol: {protocol}")
        self._group_metadata = ConsumerGroupMetadata(
            self._rebalance_config.group_id or "", generation, member_id, self._rebalance_config.group_instance_id
        )
        owned_partitions = sorted(self._subscriptions.assigned_partitions())
        # At least the 2-byte version.
        if len(member_assignment) < 2:
            raise RuntimeError(
                "There are insufficient bytes available to read assignment from the sync-group response (actual byte "
                f"size {len(member_assignment)}) , this is not expected; it is possible that the leader's assign "
                "function is buggy and did not return any assignment for this member, or because static member is "
                "configured and the protocol is buggy hence did not get the assignment for this member"
            )
        assignment = consumer_protocol.deserialize_assignment(member_assignment)
        assigned_partitions = sorted(set(assignment.partitions))
        if not self._subscriptions.check_assignment_matched_subscription(assigned_partitions):
            full_reason = (
                f"received assignment {_list_str(assignment.partitions)} does not match the current subscription "
                f"{self._subscriptions.pretty_string()}; it is likely that the subscription has changed since we "
                "joined the group, will re-join with current subscription"
            )
            self.request_rejoin("received assignment does not match the current subscription", full_reason)
            return

        first_exception: Exception | None = None
        owned_set = set(owned_partitions)
        assigned_set = set(assigned_partitions)
        added_partitions = [tp for tp in assigned_partitions if tp not in owned_set]
        if self._protocol is RebalanceProtocol.COOPERATIVE:
            revoked_partitions = [tp for tp in owned_partitions if tp not in assigned_set]
            self._log.info(
                "Updating assignment with\n"
                f"\tAssigned partitions:                       {_list_str(assigned_partitions)}\n"
                f"\tCurrent owned partitions:                  {_list_str(owned_partitions)}\n"
                f"\tAdded partitions (assigned - owned):       {_list_str(added_partitions)}\n"
                f"\tRevoked partitions (owned - assigned):     {_list_str(revoked_partitions)}\n"
            )
            if revoked_partitions:
                # Revoked before the assignment (and the assignor's state) changes; then rejoin so the partitions
                # can go to their new owners.
                first_exception = self._rebalance_listener_invoker.invoke_partitions_revoked(revoked_partitions)
                self.request_rejoin(
                    "need to revoke partitions and re-join",
                    f"need to revoke partitions {_list_str(revoked_partitions)} as indicated by the current "
                    "assignment and re-join",
                )
        # The leader may have assigned topics that match our pattern but we did not ask for.
        self._maybe_update_joined_subscription(assigned_partitions)
        # Errors are kept so that the listener still runs.
        exception = self._invoke_on_assignment(assignor, assignment)
        if first_exception is None:
            first_exception = exception
        if self._auto_commit_enabled:
            assert self._next_auto_commit_timer is not None
            self._next_auto_commit_timer.update()
            self._next_auto_commit_timer.reset(self._auto_commit_interval_ms)
        self._subscriptions.assign_from_subscribed(assigned_partitions)
        exception = self._rebalance_listener_invoker.invoke_partitions_assigned(added_partitions)
        if first_exception is None:
            first_exception = exception
        if first_exception is not None:
            if isinstance(first_exception, KafkaException):
                raise first_exception
            raise KafkaException("User rebalance callback throws an error") from first_exception

    def maybe_update_subscription_metadata(self) -> None:
        version = self._metadata.update_version()
        if version > self._metadata_snapshot.version:
            cluster = self._metadata.fetch()
            if self._subscriptions.has_pattern_subscription():
                self.update_pattern_subscription(cluster)
            # The snapshot against which subscription changes (e.g. new partitions) are detected.
            self._metadata_snapshot = _MetadataSnapshot(self._rack_id, self._subscriptions, cluster, version)

    def _coordinator_unknown_and_unready_sync(self, timer: Timer) -> bool:
        return self.coordinator_unknown() and not self.ensure_coordinator_ready(timer)

    def _coordinator_unknown_and_unready_async(self) -> bool:
        return self.coordinator_unknown() and not self.ensure_coordinator_ready_async()

    def poll(self, timer: Timer, wait_for_join_group: bool = True) -> bool:
        """The coordinator's part of KafkaConsumer.poll: commit callbacks, heartbeat bookkeeping, (re)joining
        the group, and auto-commit. Returns False if the timer expired first."""
        self.maybe_update_subscription_metadata()
        self.invoke_completed_offset_commit_callbacks()
        if self._subscriptions.has_auto_assigned_partitions():
            if self._protocol is None:
                raise RuntimeError(
                    f"User configured {ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG} to empty while trying to "
                    "subscribe for group protocol to auto assign partitions"
                )
            # The poll timer starts again even without a coordinator, so the heartbeat thread does not leave
            # the group for inactivity.
            self.poll_heartbeat(timer.current_time_ms())
            if self._coordinator_unknown_and_unready_sync(timer):
                return False
            if self.rejoin_needed_or_pending():
                # With a pattern, metadata must be fresh before joining, so the pattern has been matched against
                # the cluster's topics (and, after a topic is created, refreshing first avoids a rebalance per
                # member that notices it).
                if self._subscriptions.has_pattern_subscription():
                    if self._metadata.time_to_allow_update(timer.current_time_ms()) == 0:
                        self._metadata.request_update(True)
                    if not self.client.ensure_fresh_metadata(timer):
                        return False
                    self.maybe_update_subscription_metadata()
                if not self.ensure_active_group(timer if wait_for_join_group else self.time.timer(0)):
                    # The join may have used another timer: bring this one up to date.
                    timer.update(self.time.milliseconds())
                    return False
        else:
            # Manual assignment: no coordinator lookup ahead of time; only refresh metadata when needed. (With
            # no reachable node, waiting for metadata here keeps poll from spinning.)
            if self._metadata.update_requested() and not self.client.has_ready_nodes(timer.current_time_ms()):
                self.client.await_metadata_update(timer)
            # Let pending coordinator requests go out.
            self.client.poll_no_wakeup()
        self.maybe_auto_commit_offsets_async(timer.current_time_ms())
        return True

    def time_to_next_poll(self, now: int) -> int:
        """How long poll may block before the coordinator needs it again (heartbeat or auto-commit)."""
        if not self._auto_commit_enabled:
            return self.time_to_next_heartbeat(now)
        assert self._next_auto_commit_timer is not None
        self._next_auto_commit_timer.update(now)
        return min(self._next_auto_commit_timer.remaining_ms(), self.time_to_next_heartbeat(now))

    def _update_group_subscription(self, topics: set[str]) -> None:
        # The leader watches every topic the group subscribes to, so it sees all metadata changes.
        if self._subscriptions.group_subscribe(topics):
            self._metadata.request_update_for_new_topics()
        # Fresh metadata for the assignment, whose snapshot is kept to detect changes after the rebalance.
        if not self.client.ensure_fresh_metadata(self.time.timer(_LONG_MAX)):
            raise TimeoutException()
        self.maybe_update_subscription_metadata()

    @staticmethod
    def _is_assign_from_subscribed_topics_assignor(name: str) -> bool:
        return name in ConsumerConfig.ASSIGN_FROM_SUBSCRIBED_ASSIGNORS

    def _maybe_update_group_subscription(
        self, assignor_name: str, assignments: Mapping[str, Assignment], all_subscribed_topics: set[str]
    ) -> None:
        if not self._is_assign_from_subscribed_topics_assignor(assignor_name):
            assigned_topics = {tp.topic for a in assignments.values() for tp in a.partitions}
            if not assigned_topics.issuperset(all_subscribed_topics):
                not_assigned = sorted(all_subscribed_topics - assigned_topics)
                self._log.warn(
                    f"The following subscribed topics are not assigned to any members: [{', '.join(not_assigned)}] "
                )
            if not all_subscribed_topics.issuperset(assigned_topics):
                newly_added = sorted(assigned_topics - all_subscribed_topics)
                self._log.info(
                    "The following not-subscribed topics are assigned, and their metadata will be fetched from the "
                    f"brokers: [{', '.join(newly_added)}]"
                )
                all_subscribed_topics.update(newly_added)
                self._update_group_subscription(all_subscribed_topics)

    def on_leader_elected(
        self, leader_id: str, protocol: str, all_member_metadata: list[Any], skip_assignment: bool
    ) -> dict[str, bytes]:
        assignor = self._lookup_assignor(protocol)
        if assignor is None:
            raise RuntimeError(f"Coordinator selected invalid assignment protocol: {protocol}")
        assignor_name = assignor.name()
        all_subscribed_topics: set[str] = set()
        subscriptions: dict[str, Subscription] = {}
        owned_partitions: dict[str, list[TopicPartition]] = {}
        for member in all_member_metadata:
            subscription = consumer_protocol.deserialize_subscription(member.metadata)
            subscription.group_instance_id = member.group_instance_id
            subscriptions[member.member_id] = subscription
            all_subscribed_topics.update(subscription.topics)
            owned_partitions[member.member_id] = subscription.owned_partitions
        # The leader watches every topic of the group.
        self._update_group_subscription(all_subscribed_topics)
        self._is_leader = True
        if skip_assignment:
            self._log.info(
                f"Skipped assignment for returning static leader at generation {self.generation().generation_id}. "
                "The static leader will continue with its existing assignment."
            )
            self._assignment_snapshot = self._metadata_snapshot
            return {}
        self._log.debug(f"Performing assignment using strategy {assignor_name} with subscriptions {subscriptions}")
        assignments = assignor.assign(self._metadata.fetch(), GroupSubscription(subscriptions)).group_assignment()
        # The built-in cooperative sticky assignor accounts for the owners' generations itself.
        if (
            self._protocol is RebalanceProtocol.COOPERATIVE
            and assignor_name != CooperativeStickyAssignor.COOPERATIVE_STICKY_ASSIGNOR_NAME
        ):
            self._validate_cooperative_assignment(owned_partitions, assignments)
        self._maybe_update_group_subscription(assignor_name, assignments, all_subscribed_topics)
        # Taken after the group subscription update, which may refresh the metadata snapshot.
        self._assignment_snapshot = self._metadata_snapshot
        self._log.info(
            f"Finished assignment for group at generation {self.generation().generation_id}: "
            f"{ {k: str(v) for k, v in assignments.items()} }"
        )
        return {member: consumer_protocol.serialize_assignment(a) for member, a in assignments.items()}

    def _validate_cooperative_assignment(
        self, owned_partitions: Mapping[str, list[TopicPartition]], assignments: Mapping[str, Assignment]
    ) -> None:
        total_revoked: set[TopicPartition] = set()
        total_added: set[TopicPartition] = set()
        for member, assignment in assignments.items():
            owned = set(owned_partitions.get(member, ()))
            assigned = set(assignment.partitions)
            total_added |= assigned - owned
            total_revoked |= owned - assigned
        # A partition given to one member while another still owns it breaks the cooperative protocol.
        overlap = sorted(total_added & total_revoked)
        if overlap:
            self._log.error(
                "With the COOPERATIVE protocol, owned partitions cannot be reassigned to other members; however the "
                f"assignor has reassigned partitions {_list_str(overlap)} which are still owned by some members"
            )
            raise RuntimeError("Assignor supporting the COOPERATIVE protocol violates its requirements")

    def on_join_prepare(self, timer: Timer, generation: int, member_id: str) -> bool:
        self._log.debug(f"Executing onJoinPrepare with generation {generation} and memberId {member_id}")
        if self._join_prepare_timer is None:
            # The preparation must end within the rebalance timeout, so the member can still join.
            self._join_prepare_timer = self.time.timer(self._rebalance_config.rebalance_timeout_ms)
        else:
            self._join_prepare_timer.update()

        # With auto-commit, commit asynchronously before the rebalance (unless a commit is in flight).
        if self._auto_commit_enabled and self._auto_commit_offset_request_future is None:
            self._maybe_mark_partitions_pending_revocation()
            self._auto_commit_offset_request_future = self._maybe_auto_commit_offsets_async_now()

        # Wait for the commit until the join-prepare timer expires.
        future = self._auto_commit_offset_request_future
        if future is not None:
            join_prepare_timer = self._join_prepare_timer
            poll_timer = timer if timer.remaining_ms() < join_prepare_timer.remaining_ms() else join_prepare_timer
            self.client.poll_future(future, poll_timer)
            join_prepare_timer.update()
            # Keep waiting while the commit is incomplete or failed retriably (and time remains); go on when
            # time is up, the commit failed for good, or it succeeded.
            on_join_prepare_async_commit_completed = True
            if join_prepare_timer.is_expired():
                self._log.error(
                    "Asynchronous auto-commit of offsets failed: joinPrepare timeout. Will continue to join group"
                )
            elif not future.is_done():
                on_join_prepare_async_commit_completed = False
            elif future.failed() and future.is_retriable():
                self._log.debug(
                    f"Asynchronous auto-commit of offsets failed with retryable error: {future.exception()}. Will "
                    "retry it."
                )
                on_join_prepare_async_commit_completed = False
            elif future.failed() and not future.is_retriable():
                self._log.error(
                    f"Asynchronous auto-commit of offsets failed: {future.exception()}. Will continue to join group."
                )
            if future.is_done():
                self._auto_commit_offset_request_future = None
            if not on_join_prepare_async_commit_completed:
                poll_timer.sleep(min(poll_timer.remaining_ms(), self._rebalance_config.retry_backoff_ms))
                timer.update()
                return False

        # The heartbeat thread may have reset the generation (errors, session timeout): then the partitions
        # are lost. Otherwise they are revoked as the protocol says, and the assignment changes only after the
        # listener ran, so it can still commit.
        exception: Exception | None = None
        revoked_partitions: list[TopicPartition] = []
        if generation == Generation.NO_GENERATION.generation_id or member_id == Generation.NO_GENERATION.member_id:
            revoked_partitions = sorted(self._subscriptions.assigned_partitions())
            if revoked_partitions:
                self._log.info(
                    "Giving away all assigned partitions as lost since generation/memberID has been reset,indicating "
                    "that consumer is in old state or no longer part of the group"
                )
                exception = self._rebalance_listener_invoker.invoke_partitions_lost(revoked_partitions)
                self._subscriptions.assign_from_subscribed([])
        elif self._protocol is RebalanceProtocol.EAGER:
            revoked_partitions = sorted(self._subscriptions.assigned_partitions())
            exception = self._rebalance_listener_invoker.invoke_partitions_revoked(revoked_partitions)
            self._subscriptions.assign_from_subscribed([])
        elif self._protocol is RebalanceProtocol.COOPERATIVE:
            # Only partitions of topics no longer subscribed to.
            owned = self._subscriptions.assigned_partitions()
            subscription = self._subscriptions.subscription()
            revoked_partitions = sorted(tp for tp in owned if tp.topic not in subscription)
            if revoked_partitions:
                exception = self._rebalance_listener_invoker.invoke_partitions_revoked(revoked_partitions)
                self._subscriptions.assign_from_subscribed(owned - set(revoked_partitions))

        self._is_leader = False
        self._subscriptions.reset_group_subscription()
        self._join_prepare_timer = None
        self._auto_commit_offset_request_future = None
        timer.update()
        if exception is not None:
            raise KafkaException("User rebalance callback throws an error") from exception
        return True

    def _maybe_mark_partitions_pending_revocation(self) -> None:
        if self._protocol is not RebalanceProtocol.EAGER:
            return
        # Between an async commit before revocation and the revocation, fetched data of these partitions must
        # not reach the application (its position would pass the committed one): they are marked pending.
        partitions = self._subscriptions.assigned_partitions()
        self._log.debug(f"Marking assigned partitions pending for revocation: {_set_str(partitions)}")
        self._subscriptions.mark_pending_revocation(partitions)

    def on_leave_prepare(self) -> None:
        # The heartbeat thread may change the generation at any time: take it once.
        current_generation = self.generation()
        self._log.debug(f"Executing onLeavePrepare with generation {current_generation}")
        # The assignment is dropped, and the listener told, before leaving.
        dropped_partitions = sorted(self._subscriptions.assigned_partitions())
        if self._subscriptions.has_auto_assigned_partitions() and dropped_partitions:
            if (
                current_generation.generation_id == Generation.NO_GENERATION.generation_id
                or current_generation.member_id == Generation.NO_GENERATION.member_id
                or self.rebalance_in_progress()
            ):
                e = self._rebalance_listener_invoker.invoke_partitions_lost(dropped_partitions)
            else:
                e = self._rebalance_listener_invoker.invoke_partitions_revoked(dropped_partitions)
            self._subscriptions.assign_from_subscribed([])
            if e is not None:
                raise KafkaException("User rebalance callback throws an error") from e

    def rejoin_needed_or_pending(self) -> bool:
        if not self._subscriptions.has_auto_assigned_partitions():
            return False
        # As leader: rejoin when the metadata changed since the assignment (partitions that no longer exist are
        # then dropped as lost).
        if self._assignment_snapshot is not None and not self._assignment_snapshot.matches(self._metadata_snapshot):
            full_reason = (
                f"cached metadata has changed from {self._assignment_snapshot} at the beginning of the rebalance to "
                f"{self._metadata_snapshot}"
            )
            self.request_rejoin_if_necessary("cached metadata has changed", full_reason)
            return True
        # And when the subscription changed since the last join.
        subscription = self._subscriptions.subscription()
        if self._joined_subscription is not None and self._joined_subscription != subscription:
            full_reason = (
                f"subscription has changed from {_set_str(self._joined_subscription)} at the beginning of the "
                f"rebalance to {_set_str(subscription)}"
            )
            self.request_rejoin_if_necessary("subscription has changed", full_reason)
            return True
        return super().rejoin_needed_or_pending()

    def init_with_committed_offsets_if_needed(self, timer: Timer) -> bool:
        """Seeks partitions still initializing to their committed offsets; False if the fetch timed out."""
        initializing_partitions = self._subscriptions.initializing_partitions()
        offsets = self.fetch_committed_offsets(initializing_partitions, timer)
        if offsets is None:
            return False
        refresh_committed_offsets(offsets, self._metadata, self._subscriptions)
        return True

    def fetch_committed_offsets(
        self, partitions: set[TopicPartition], timer: Timer
    ) -> dict[TopicPartition, OffsetAndMetadata | None] | None:
        """The committed offsets of `partitions` (None for a partition without one), or None if the timer
        expired first. A request left pending by a timeout is reused by the next identical call."""
        if not partitions:
            return {}
        generation_for_offset_request = self.generation_if_stable()
        pending = self._pending_committed_offset_request
        if pending is not None and not pending.same_request(partitions, generation_for_offset_request):
            # Waiting for another request: forget it.
            self._pending_committed_offset_request = None
        attempts = 0
        while True:
            if not self.ensure_coordinator_ready(timer):
                return None
            pending = self._pending_committed_offset_request
            if pending is not None:
                future = pending.response
            else:
                future = self._send_offset_fetch_request(partitions)
                self._pending_committed_offset_request = _PendingCommittedOffsetRequest(
                    set(partitions), generation_for_offset_request, future
                )
            self.client.poll_future(future, timer)
            if not future.is_done():
                return None
            self._pending_committed_offset_request = None
            if future.succeeded():
                return future.value()
            if not future.is_retriable():
                raise future.exception()
            timer.sleep(self.retry_backoff.backoff(attempts))
            attempts += 1
            if not timer.not_expired():
                return None

    def group_metadata(self) -> ConsumerGroupMetadata:
        return self._group_metadata

    def close(self, timer: Timer | None = None) -> None:
        if timer is None:
            timer = self.time.timer(0)
        # Closing: wakeups are not wanted any more.
        self.client.disable_wakeups()
        try:
            self._maybe_auto_commit_offsets_sync(timer)
            while self._pending_async_commits > 0 and timer.not_expired():
                self.ensure_coordinator_ready(timer)
                self.client.poll(timer)
                self.invoke_completed_offset_commit_callbacks()
        finally:
            super().close(timer)

    def invoke_completed_offset_commit_callbacks(self) -> None:
        if self._async_commit_fenced:
            raise FencedInstanceIdException(
                "Get fenced exception for group.instance.id "
                f"{self._rebalance_config.group_instance_id or 'unset_instance_id'}, current member.id is "
                f"{self.member_id()}"
            )
        while True:
            try:
                completion = self._completed_offset_commits.popleft()
            except IndexError:
                break
            completion.invoke()

    def commit_offsets_async(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata], callback: OffsetCommitCallback | None
    ) -> RequestFuture[None] | None:
        self.invoke_completed_offset_commit_callbacks()
        future: RequestFuture[None] | None = None
        if not offsets:
            # Nothing to send: completed locally.
            future = self._do_commit_offsets_async(offsets, callback)
        elif not self._coordinator_unknown_and_unready_async():
            # Known coordinator (the lookup was tried once, without blocking): send.
            future = self._do_commit_offsets_async(offsets, callback)
        else:
            # Unknown coordinator: send (or fail) once it is found; no retries, so commits stay in order. Several
            # commits may wait on the same lookup; their listeners run in order.
            with self._counter_lock:
                self._pending_async_commits += 1

            def on_success(_: None) -> None:
                with self._counter_lock:
                    self._pending_async_commits -= 1
                self._do_commit_offsets_async(offsets, callback)
                self.client.poll_no_wakeup()

            def on_failure(e: BaseException) -> None:
                with self._counter_lock:
                    self._pending_async_commits -= 1
                self._completed_offset_commits.append(
                    _OffsetCommitCompletion(callback, offsets, RetriableCommitFailedException(e))
                )

            self.lookup_coordinator().add_callbacks(on_success, on_failure)
        # Give the commit a chance to go out without waiting for it (a commit counts as a heartbeat too).
        self.client.poll_no_wakeup()
        return future

    def _do_commit_offsets_async(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata], callback: OffsetCommitCallback | None
    ) -> RequestFuture[None]:
        future = self.send_offset_commit_request(offsets)
        with self._counter_lock:
            self.in_flight_async_commits += 1
        cb = self._default_offset_commit_callback if callback is None else callback

        def on_success(_: None) -> None:
            with self._counter_lock:
                self.in_flight_async_commits -= 1
            if self._interceptors is not None:
                self._interceptors.on_commit(offsets)
            self._completed_offset_commits.append(_OffsetCommitCompletion(cb, offsets, None))

        def on_failure(e: BaseException) -> None:
            with self._counter_lock:
                self.in_flight_async_commits -= 1
            commit_exception: BaseException = e
            if isinstance(e, RetriableException):
                commit_exception = RetriableCommitFailedException(e)
            self._completed_offset_commits.append(_OffsetCommitCompletion(cb, offsets, commit_exception))
            if isinstance(commit_exception, FencedInstanceIdException):
                self._async_commit_fenced = True

        future.add_callbacks(on_success, on_failure)
        return future

    def commit_offsets_sync(self, offsets: Mapping[TopicPartition, OffsetAndMetadata], timer: Timer) -> bool:
        """Commits and waits (retrying retriable errors) until done or the timer expires; returns whether the
        commit succeeded."""
        self.invoke_completed_offset_commit_callbacks()
        if not offsets:
            # Even with nothing to commit, earlier async commits' callbacks run before returning.
            return self._invoke_pending_async_commits(timer)
        attempts = 0
        while True:
            if self._coordinator_unknown_and_unready_sync(timer):
                return False
            future = self.send_offset_commit_request(offsets)
            self.client.poll_future(future, timer)
            # Async commits sent before this one complete first, keeping the order commits were applied in.
            self.invoke_completed_offset_commit_callbacks()
            if future.succeeded():
                if self._interceptors is not None:
                    self._interceptors.on_commit(offsets)
                return True
            if future.failed() and not future.is_retriable():
                raise future.exception()
            timer.sleep(self.retry_backoff.backoff(attempts))
            attempts += 1
            if not timer.not_expired():
                return False

    def _maybe_auto_commit_offsets_sync(self, timer: Timer) -> None:
        if self._auto_commit_enabled:
            all_consumed_offsets = self._subscriptions.all_consumed()
            try:
                self._log.debug(f"Sending synchronous auto-commit of offsets {_offsets_str(all_consumed_offsets)}")
                if not self.commit_offsets_sync(all_consumed_offsets, timer):
                    self._log.debug(
                        f"Auto-commit of offsets {_offsets_str(all_consumed_offsets)} timed out before completion"
                    )
            except (WakeupException, InterruptException):
                self._log.debug(
                    f"Auto-commit of offsets {_offsets_str(all_consumed_offsets)} was interrupted before completion"
                )
                # Wakeups come from the user: raised again.
                raise
            except Exception as e:
                # As with async auto-commit, failures are not raised.
                self._log.warn(f"Synchronous auto-commit of offsets {_offsets_str(all_consumed_offsets)} failed: {e}")

    def maybe_auto_commit_offsets_async(self, now: int) -> None:
        if self._auto_commit_enabled:
            timer = self._next_auto_commit_timer
            assert timer is not None
            timer.update(now)
            if timer.is_expired():
                timer.reset(self._auto_commit_interval_ms)
                self._auto_commit_offsets_async()

    def _invoke_pending_async_commits(self, timer: Timer) -> bool:
        if self.in_flight_async_commits == 0:
            return True
        attempts = 0
        while True:
            self.ensure_coordinator_ready(timer)
            self.client.poll(timer)
            self.invoke_completed_offset_commit_callbacks()
            if self.in_flight_async_commits == 0:
                return True
            timer.sleep(self.retry_backoff.backoff(attempts))
            attempts += 1
            if not timer.not_expired():
                return False

    def _auto_commit_offsets_async(self) -> RequestFuture[None] | None:
        all_consumed_offsets = self._subscriptions.all_consumed()
        self._log.debug(f"Sending asynchronous auto-commit of offsets {_offsets_str(all_consumed_offsets)}")
        return self.commit_offsets_async(all_consumed_offsets, _AutoCommitCallback(self))

    def _maybe_auto_commit_offsets_async_now(self) -> RequestFuture[None] | None:
        if self._auto_commit_enabled:
            return self._auto_commit_offsets_async()
        return None

    def send_offset_commit_request(self, offsets: Mapping[TopicPartition, OffsetAndMetadata]) -> RequestFuture[None]:
        if not offsets:
            return RequestFuture.void_success()
        coordinator = self.check_and_get_coordinator()
        if coordinator is None:
            return RequestFuture.coordinator_not_available()
        request_topic_data: dict[str, Any] = {}
        for tp, offset_and_metadata in offsets.items():
            if offset_and_metadata.offset < 0:
                return RequestFuture.failure(ValueError(f"Invalid offset: {offset_and_metadata.offset}"))
            topic = request_topic_data.get(tp.topic)
            if topic is None:
                topic = OffsetCommitRequestData.OffsetCommitRequestTopic(name=tp.topic)
                request_topic_data[tp.topic] = topic
            epoch = offset_and_metadata.leader_epoch
            topic.partitions.append(
                OffsetCommitRequestData.OffsetCommitRequestPartition(
                    partition_index=tp.partition,
                    committed_offset=offset_and_metadata.offset,
                    committed_leader_epoch=NO_PARTITION_LEADER_EPOCH if epoch is None else epoch,
                    committed_metadata=offset_and_metadata.metadata,
                )
            )
        generation: Generation | None
        group_instance_id: str | None
        if self._subscriptions.has_auto_assigned_partitions():
            generation = self.generation_if_stable()
            group_instance_id = self._rebalance_config.group_instance_id
            # Not in an active group (as we should be): the commit fails, and poll() rejoins.
            if generation is None:
                self._log.info("Failing OffsetCommit request since the consumer is not part of an active group")
                if self.rebalance_in_progress():
                    # Not fatal: the rebalance can be completed by calling poll().
                    return RequestFuture.failure(
                        RebalanceInProgressException(
                            "Offset commit cannot be completed since the consumer is undergoing a rebalance for auto "
                            "partition assignment. You can try completing the rebalance by calling poll() and then "
                            "retry the operation."
                        )
                    )
                return RequestFuture.failure(
                    CommitFailedException(
                        "Offset commit cannot be completed since the consumer is not part of an active group for auto "
                        "partition assignment; it is likely that the consumer was kicked out of the group."
                    )
                )
        else:
            generation = Generation.NO_GENERATION
            group_instance_id = None
        assert generation is not None
        builder = OffsetCommitRequestBuilder(
            OffsetCommitRequestData(
                group_id=self._rebalance_config.group_id,
                generation_id_or_member_epoch=generation.generation_id,
                member_id=generation.member_id,
                group_instance_id=group_instance_id,
                topics=list(request_topic_data.values()),
            )
        )
        self._log.trace(f"Sending OffsetCommit request with {_offsets_str(offsets)} to coordinator {coordinator}")
        return self.client.send(coordinator, builder).compose(_OffsetCommitResponseHandler(self, offsets, generation))

    def _send_offset_fetch_request(
        self, partitions: set[TopicPartition]
    ) -> RequestFuture[dict[TopicPartition, OffsetAndMetadata | None]]:
        coordinator = self.check_and_get_coordinator()
        if coordinator is None:
            return RequestFuture.coordinator_not_available()
        self._log.debug(f"Fetching committed offsets for partitions: {_set_str(partitions)}")
        builder = OffsetFetchRequestBuilder(
            {self._rebalance_config.group_id or "": list(partitions)},
            True,
            self._throw_on_fetch_stable_offsets_unsupported,
        )
        return self.client.send(coordinator, builder).compose(_OffsetFetchResponseHandler(self))

    def get_protocol(self) -> RebalanceProtocol | None:
        return self._protocol


class _OffsetCommitResponseHandler(CoordinatorResponseHandler[OffsetCommitResponse, None]):
    def __init__(
        self,
        coordinator: ConsumerCoordinator,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        generation: Generation,
    ) -> None:
        super().__init__(coordinator, generation)
        self.consumer_coordinator = coordinator
        self.offsets = offsets

    def handle(self, commit_response: OffsetCommitResponse, future: RequestFuture[None]) -> None:
        c = self.consumer_coordinator
        c._coordinator_metrics.commit_sensor.record(self._request_latency_ms())
        log = c._log
        unauthorized_topics: set[str] = set()
        for topic in commit_response.data.topics:
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                offset = self.offsets[tp].offset
                error = Errors.for_code(partition.error_code)
                if error is Errors.NONE:
                    log.debug(f"Committed offset {offset} for partition {tp}")
                    continue
                if error.retriable:
                    log.warn(f"Offset commit failed on partition {tp} at offset {offset}: {error.message}")
                else:
                    log.error(f"Offset commit failed on partition {tp} at offset {offset}: {error.message}")
                if error is Errors.GROUP_AUTHORIZATION_FAILED:
                    future.raise_(GroupAuthorizationException.for_group_id(c._rebalance_config.group_id))
                    return
                if error is Errors.TOPIC_AUTHORIZATION_FAILED:
                    unauthorized_topics.add(tp.topic)
                elif error in (Errors.OFFSET_METADATA_TOO_LARGE, Errors.INVALID_COMMIT_OFFSET_SIZE):
                    # For the user.
                    future.raise_(error)
                    return
                elif error in (Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.UNKNOWN_TOPIC_OR_PARTITION):
                    # Retried.
                    future.raise_(error)
                    return
                elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR, Errors.REQUEST_TIMED_OUT):
                    c.mark_coordinator_unknown(error)
                    future.raise_(error)
                    return
                elif error is Errors.FENCED_INSTANCE_ID:
                    log.info(
                        f"OffsetCommit failed with {self.sent_generation} due to group instance id "
                        f"{_opt(c._rebalance_config.group_instance_id)} fenced"
                    )
                    # Fatal only for the generation the commit was sent in; otherwise this member has moved on.
                    if self.generation_unchanged():
                        future.raise_(error)
                    else:
                        exception: KafkaException
                        with c._lock:
                            if c.state is MemberState.PREPARING_REBALANCE:
                                exception = RebalanceInProgressException(
                                    "Offset commit cannot be completed since the consumer member's old generation is "
                                    "fenced by its group instance id, it is possible that this consumer has already "
                                    "participated another rebalance and got a new generation"
                                )
                            else:
                                exception = CommitFailedException()
                        future.raise_(exception)
                    return
                elif error is Errors.REBALANCE_IN_PROGRESS:
                    c.request_rejoin("offset commit failed since group is already rebalancing")
                    future.raise_(
                        RebalanceInProgressException(
                            "Offset commit cannot be completed since the consumer group is executing a rebalance at "
                            "the moment. You can try completing the rebalance by calling poll() and then retry commit "
                            "again"
                        )
                    )
                    return
                elif error in (Errors.UNKNOWN_MEMBER_ID, Errors.ILLEGAL_GENERATION):
                    log.info(f"OffsetCommit failed with {self.sent_generation}: {error.message}")
                    # Reset and rejoin only if the generation is unchanged (or no rebalance is under way).
                    with c._lock:
                        if not self.generation_unchanged() and c.state is MemberState.PREPARING_REBALANCE:
                            exception = RebalanceInProgressException(
                                "Offset commit cannot be completed since the consumer member's generation is already "
                                "stale, meaning it has already participated another rebalance and got a new "
                                "generation. You can try completing the rebalance by calling poll() and then retry "
                                "commit again"
                            )
                        else:
                            # ILLEGAL_GENERATION keeps the member id, which may still be valid.
                            c.reset_state_on_response_error(
                                ApiKeys.OFFSET_COMMIT, error, error is not Errors.ILLEGAL_GENERATION
                            )
                            exception = CommitFailedException()
                    future.raise_(exception)
                    return
                else:
                    future.raise_(KafkaException(f"Unexpected error in commit: {error.message}"))
                    return
        if unauthorized_topics:
            log.error(f"Not authorized to commit to topics {_set_str(unauthorized_topics)}")
            future.raise_(TopicAuthorizationException.for_topics(unauthorized_topics))
        else:
            future.complete(None)


class _OffsetFetchResponseHandler(
    CoordinatorResponseHandler[OffsetFetchResponse, dict[TopicPartition, OffsetAndMetadata | None]]
):
    def __init__(self, coordinator: ConsumerCoordinator) -> None:
        super().__init__(coordinator, Generation.NO_GENERATION)
        self.consumer_coordinator = coordinator

    def handle(
        self, response: OffsetFetchResponse, future: RequestFuture[dict[TopicPartition, OffsetAndMetadata | None]]
    ) -> None:
        c = self.consumer_coordinator
        log = c._log
        group_id = c._rebalance_config.group_id or ""
        response_error = response.group_level_error(group_id)
        if response_error is not None and response_error is not Errors.NONE:
            log.debug(f"Offset fetch failed: {response_error.message}")
            if response_error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
                future.raise_(response_error)
            elif response_error is Errors.NOT_COORDINATOR:
                c.mark_coordinator_unknown(response_error)
                future.raise_(response_error)
            elif response_error is Errors.GROUP_AUTHORIZATION_FAILED:
                future.raise_(GroupAuthorizationException.for_group_id(group_id))
            else:
                future.raise_(KafkaException(f"Unexpected error in fetch offset response: {response_error.message}"))
            return
        unauthorized_topics: set[str] | None = None
        response_data = response.partition_data_map(group_id)
        offsets: dict[TopicPartition, OffsetAndMetadata | None] = {}
        unstable_txn_offset_topic_partitions: list[TopicPartition] = []
        for (topic, partition), partition_data in response_data.items():
            tp = TopicPartition(topic, partition)
            if partition_data.has_error():
                error = partition_data.error
                log.debug(f"Failed to fetch offset for partition {tp}: {error.message}")
                if error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
                    future.raise_(KafkaException(f"Topic or Partition {tp} does not exist"))
                    return
                if error is Errors.TOPIC_AUTHORIZATION_FAILED:
                    if unauthorized_topics is None:
                        unauthorized_topics = set()
                    unauthorized_topics.add(tp.topic)
                elif error is Errors.UNSTABLE_OFFSET_COMMIT:
                    unstable_txn_offset_topic_partitions.append(tp)
                else:
                    future.raise_(
                        KafkaException(f"Unexpected error in fetch offset response for partition {tp}: {error.message}")
                    )
                    return
            elif partition_data.offset >= 0:
                offsets[tp] = OffsetAndMetadata(
                    partition_data.offset, partition_data.metadata, partition_data.leader_epoch
                )
            else:
                # -1: nothing committed.
                log.info(f"Found no committed offset for partition {tp}")
                offsets[tp] = None
        if unauthorized_topics is not None:
            future.raise_(TopicAuthorizationException.for_topics(unauthorized_topics))
        elif unstable_txn_offset_topic_partitions:
            # Retried.
            log.info(
                "The following partitions still have unstable offsets which are not cleared on the broker side: "
                f"{_list_str(unstable_txn_offset_topic_partitions)}, this could be either transactional offsets "
                "waiting for completion, or normal offsets waiting for replication after appending to local log"
            )
            future.raise_(
                UnstableOffsetCommitException("There are unstable offsets for the requested topic partitions")
            )
        else:
            future.complete(offsets)


def _list_str(items: Sequence[object]) -> str:
    return "[" + ", ".join(str(i) for i in items) + "]"


def _set_str(items: set[Any] | frozenset[Any]) -> str:
    return "[" + ", ".join(sorted(str(i) for i in items)) + "]"


def _offsets_str(offsets: Mapping[TopicPartition, OffsetAndMetadata]) -> str:
    return "{" + ", ".join(f"{tp}={o!r}" for tp, o in offsets.items()) + "}"


def _opt(value: str | None) -> str:
    return "Optional.empty" if value is None else f"Optional[{value}]"
