"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractCoordinator.java (Kafka 3.7).

Membership of a group under the classic group protocol: find the group's coordinator (FindCoordinator),
join the group (JoinGroup, retried with the member id the coordinator hands out, KIP-394), take the
assignment (SyncGroup; the leader sends everyone's, which `on_leader_elected` computes), then keep the
membership alive with heartbeats from a background thread, `kafka-coordinator-heartbeat-thread | {group}`.
The heartbeat thread also leaves the group when the application stops polling for longer than the
rebalance timeout (max.poll.interval.ms). Subclasses (ConsumerCoordinator) supply the protocol metadata and
act on the assignment.

Member states: UNJOINED -> PREPARING_REBALANCE (JoinGroup sent) -> COMPLETING_REBALANCE (joined; waiting
for the assignment) -> STABLE. Errors in responses reset the generation (and the member id when the member is
unknown) and make the member rejoin.

Threads and locks: the application thread and the heartbeat thread share this object; its state is guarded
by one reentrant lock (Java's `synchronized` on the coordinator) with a condition the heartbeat thread waits
on (Java's wait/notify). Lock order: this lock, then ConsumerNetworkClient's lock.

Metrics (group `{prefix}-coordinator-metrics`): join, sync and heartbeat response times and rates, successful
and failed rebalances, and the seconds since the last rebalance and the last heartbeat sent.

# PORT: no client telemetry.
"""

from __future__ import annotations

import abc
import enum
import threading
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast

from kafka.clients import common_client_configs
from kafka.clients.client_response import ClientResponse
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.heartbeat import Heartbeat
from kafka.clients.consumer.internals.request_builders import (
    HeartbeatRequestBuilder,
    JoinGroupRequestBuilder,
    SyncGroupRequestBuilder,
)
from kafka.clients.consumer.internals.request_future import RequestFuture
from kafka.clients.consumer.internals.request_future_adapter import RequestFutureAdapter
from kafka.clients.group_rebalance_config import GroupRebalanceConfig
from kafka.common.errors import (
    AuthenticationException,
    DisconnectException,
    FencedInstanceIdException,
    GroupAuthorizationException,
    GroupMaxSizeReachedException,
    IllegalGenerationException,
    KafkaException,
    MemberIdRequiredException,
    RebalanceInProgressException,
    RetriableException,
    UnknownMemberIdException,
)
from kafka.common.message import (
    FindCoordinatorRequestData,
    HeartbeatRequestData,
    JoinGroupRequestData,
    LeaveGroupRequestData,
    SyncGroupRequestData,
)
from kafka.common.metric_name import MetricName
from kafka.common.metrics.internals.metric_functions import MeasurableFn
from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.cumulative_count import CumulativeCount
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
from kafka.common.metrics.stats.max import Max
from kafka.common.metrics.stats.meter import Meter
from kafka.common.metrics.stats.rate import Rate
from kafka.common.metrics.stats.windowed_count import WindowedCount
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.find_coordinator_request import CoordinatorType, FindCoordinatorRequestBuilder
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.requests.heartbeat_response import HeartbeatResponse
from kafka.common.requests.join_group_request import UNKNOWN_MEMBER_ID, JoinGroupRequest
from kafka.common.requests.join_group_response import JoinGroupResponse
from kafka.common.requests.leave_group_request import LeaveGroupRequestBuilder
from kafka.common.requests.leave_group_response import LeaveGroupResponse
from kafka.common.requests.offset_commit_request import DEFAULT_GENERATION_ID
from kafka.common.requests.sync_group_response import SyncGroupResponse
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time, Timer

__all__ = ["AbstractCoordinator", "Generation", "MemberState"]

R = TypeVar("R")
T = TypeVar("T")

_LONG_MAX = 2**63 - 1
_INT_MAX = 2**31 - 1
# Bound on the heartbeat thread's idle waits (it is woken by notify anyway).
_IDLE_WAIT_S = 1.0


class MemberState(enum.Enum):
    UNJOINED = "UNJOINED"  # not part of a group
    PREPARING_REBALANCE = "PREPARING_REBALANCE"  # JoinGroup sent, no response yet
    COMPLETING_REBALANCE = "COMPLETING_REBALANCE"  # joined, waiting for the assignment
    STABLE = "STABLE"  # joined and heartbeating

    def has_not_joined_group(self) -> bool:
        return self in (MemberState.UNJOINED, MemberState.PREPARING_REBALANCE)


@dataclass(frozen=True, slots=True)
class Generation:
    generation_id: int
    member_id: str
    protocol_name: str | None

    NO_GENERATION: ClassVar[Generation]

    def has_member_id(self) -> bool:
        return self.member_id != ""

    def __str__(self) -> str:
        protocol = "null" if self.protocol_name is None else self.protocol_name
        return f"Generation{{generationId={self.generation_id}, memberId='{self.member_id}', protocol='{protocol}'}}"


_NO_GENERATION = Generation(DEFAULT_GENERATION_ID, UNKNOWN_MEMBER_ID, None)


class _UnjoinedGroupException(RetriableException):
    """The member left the group (woken up, or reset by the heartbeat thread) before the join completed."""


class AbstractCoordinator(abc.ABC):
    HEARTBEAT_THREAD_PREFIX = "kafka-coordinator-heartbeat-thread"
    JOIN_GROUP_TIMEOUT_LAPSE = 5000

    def __init__(
        self,
        rebalance_config: GroupRebalanceConfig,
        log_context: LogContext,
        client: ConsumerNetworkClient,
        metrics: Metrics,
        metric_grp_prefix: str,
        time: Time,
    ) -> None:
        """# PORT: Java also takes a telemetry reporter."""
        if rebalance_config.group_id is None:
            raise ValueError("Expected a non-null group id for coordinator construction")
        self._rebalance_config = rebalance_config
        self._log = log_context.logger(self._logger_name())
        self.client = client
        self.time = time
        self.retry_backoff = ExponentialBackoff(
            rebalance_config.retry_backoff_ms,
            common_client_configs.RETRY_BACKOFF_EXP_BASE,
            rebalance_config.retry_backoff_max_ms,
            common_client_configs.RETRY_BACKOFF_JITTER,
        )
        self._heartbeat = Heartbeat(rebalance_config, time)
        self._sensors = _GroupCoordinatorMetrics(self, metrics, metric_grp_prefix)
        # Java's monitor: the lock guards all of the state below; the condition wakes the heartbeat thread.
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._coordinator: Node | None = None
        self._rejoin_reason = ""
        self._rejoin_needed = True
        self._needs_join_prepare = True
        self._heartbeat_thread: _HeartbeatThread | None = None
        self._join_future: RequestFuture[bytes] | None = None
        self._find_coordinator_future: RequestFuture[None] | None = None
        self._fatal_find_coordinator_exception: BaseException | None = None
        self._generation = _NO_GENERATION
        self._last_rebalance_start_ms = -1
        self._last_rebalance_end_ms = -1
        # A warning is logged only once the coordinator has been unreachable for a while.
        self._last_time_of_connection_ms = -1
        self.state = MemberState.UNJOINED

    def _logger_name(self) -> str:
        return "org.apache.kafka.clients.consumer.internals.AbstractCoordinator"

    # -- what subclasses supply ------------------------------------------------------------------------------

    @abc.abstractmethod
    def protocol_type(self) -> str:
        """The group's protocol type ("consumer")."""

    @abc.abstractmethod
    def metadata(self) -> Any:
        """The protocols (and their metadata) this member supports: a JoinGroupRequestProtocolCollection."""

    @abc.abstractmethod
    def on_join_prepare(self, timer: Timer, generation: int, member_id: str) -> bool:
        """Called before (re)joining; returns False to be called again later (an offset commit is pending)."""

    @abc.abstractmethod
    def on_leader_elected(
        self, leader_id: str, protocol: str, all_member_metadata: list[Any], skip_assignment: bool
    ) -> dict[str, bytes]:
        """Called on the leader: the assignment of every member, from the members' metadata."""

    @abc.abstractmethod
    def on_join_complete(self, generation: int, member_id: str, protocol: str, member_assignment: bytes) -> None:
        """Called once this member has its assignment."""

    def on_leave_prepare(self) -> None:  # noqa: B027 - optional hook, as in Java
        """Called before leaving the group."""

    # -- the coordinator -------------------------------------------------------------------------------------

    def ensure_coordinator_ready(self, timer: Timer, disable_wakeup: bool = False) -> bool:
        """Looks the coordinator up (retrying with backoff) until it is known and connectable or the timer
        expires; returns whether it is known."""
        with self._lock:
            if not self.coordinator_unknown():
                return True
            attempts = 0
            while True:
                if self._fatal_find_coordinator_exception is not None:
                    fatal = self._fatal_find_coordinator_exception
                    self._fatal_find_coordinator_exception = None
                    raise fatal
                future = self.lookup_coordinator()
                self.client.poll_future(future, timer, disable_wakeup)
                if not future.is_done():
                    # Out of time.
                    break
                fatal_exception: BaseException | None = None
                if future.failed():
                    if future.is_retriable():
                        self._log.debug("Coordinator discovery failed, refreshing metadata", future.exception())
                        timer.sleep(self.retry_backoff.backoff(attempts))
                        attempts += 1
                        self.client.await_metadata_update(timer)
                    else:
                        fatal_exception = future.exception()
                        self._log.info("FindCoordinator request hit fatal exception", fatal_exception)
                elif self._coordinator is not None and self.client.is_unavailable(self._coordinator):
                    # Found, but the connection failed: try again after the backoff.
                    self.mark_coordinator_unknown("coordinator unavailable")
                    timer.sleep(self.retry_backoff.backoff(attempts))
                    attempts += 1
                self._clear_find_coordinator_future()
                if fatal_exception is not None:
                    raise fatal_exception
                if not (self.coordinator_unknown() and timer.not_expired()):
                    break
            return not self.coordinator_unknown()

    def ensure_coordinator_ready_async(self) -> bool:
        with self._lock:
            return self.ensure_coordinator_ready(self.time.timer(0), True)

    def lookup_coordinator(self) -> RequestFuture[None]:
        with self._lock:
            if self._find_coordinator_future is None:
                node = self.client.least_loaded_node()
                if node is None:
                    self._log.debug("No broker available to send FindCoordinator request")
                    return RequestFuture.no_brokers_available()
                self._find_coordinator_future = self._send_find_coordinator_request(node)
            return self._find_coordinator_future

    def _clear_find_coordinator_future(self) -> None:
        with self._lock:
            self._find_coordinator_future = None

    def rejoin_needed_or_pending(self) -> bool:
        with self._lock:
            # A join under way must be completed.
            return self._rejoin_needed or self._join_future is not None

    def poll_heartbeat(self, now: int) -> None:
        """The application polled: re-raise a heartbeat thread failure, wake it if a heartbeat is due."""
        with self._lock:
            thread = self._heartbeat_thread
            if thread is not None:
                if thread.has_failed():
                    # Raised once; the next ensure_active_group starts a new thread.
                    cause = thread.failure_cause()
                    self._heartbeat_thread = None
                    assert cause is not None
                    raise cause
                if self._heartbeat.should_heartbeat(now):
                    self._cond.notify()
                self._heartbeat.poll(now)

    def time_to_next_heartbeat(self, now: int) -> int:
        with self._lock:
            # Not in a group (or rebalancing): no heartbeats.
            if self.state.has_not_joined_group():
                return _LONG_MAX
            thread = self._heartbeat_thread
            if thread is not None and thread.has_failed():
                cause = thread.failure_cause()
                assert cause is not None
                raise cause
            return self._heartbeat.time_to_next_heartbeat(now)

    def ensure_active_group(self, timer: Timer | None = None) -> bool:
        """Makes sure the coordinator is known and this member is in the group with an assignment; without a
        timer, waits as long as it takes."""
        if timer is None:
            while not self.ensure_active_group(self.time.timer(_LONG_MAX)):
                self._log.warn("still waiting to ensure active group")
            return True
        # The coordinator is checked every time: a lost connection does not by itself require a rejoin.
        if not self.ensure_coordinator_ready(timer):
            return False
        self._start_heartbeat_thread_if_needed()
        return self.join_group_if_needed(timer)

    def _start_heartbeat_thread_if_needed(self) -> None:
        with self._lock:
            if self._heartbeat_thread is None:
                self._heartbeat_thread = _HeartbeatThread(self)
                self._heartbeat_thread.start()

    def _close_heartbeat_thread(self) -> None:
        with self._lock:
            thread = self._heartbeat_thread
            if thread is None:
                return
            thread.close()
            self._heartbeat_thread = None
        thread.join()

    def join_group_if_needed(self, timer: Timer) -> bool:
        """Joins (or rejoins) the group until done or the timer expires; returns whether it is done."""
        while self.rejoin_needed_or_pending():
            if not self.ensure_coordinator_ready(timer):
                return False
            # on_join_prepare runs once per rebalance, even if the join is retried after a wakeup; the flag is
            # cleared first since a user callback may raise.
            if self._needs_join_prepare:
                self._needs_join_prepare = False
                if not self.on_join_prepare(timer, self._generation.generation_id, self._generation.member_id):
                    # An offset commit is still under way: do not join yet.
                    self._needs_join_prepare = True
                    return False
            future = self._initiate_join_group()
            self.client.poll_future(future, timer)
            if not future.is_done():
                # Out of time.
                return False
            if future.succeeded():
                # The heartbeat thread may change the generation meanwhile; on_join_complete runs without the
                # lock (it may take long and must not block heartbeats).
                with self._lock:
                    generation_snapshot = self._generation
                    state_snapshot = self.state
                if not self._has_generation_reset(generation_snapshot) and state_snapshot is MemberState.STABLE:
                    member_assignment = future.value()
                    self.on_join_complete(
                        generation_snapshot.generation_id,
                        generation_snapshot.member_id,
                        generation_snapshot.protocol_name or "",
                        member_assignment,
                    )
                    # Only now: if on_join_complete was woken up, it is retried by the next call.
                    self._reset_join_group_future()
                    self._needs_join_prepare = True
                else:
                    reason = (
                        "rebalance failed since the generation/state was modified by heartbeat thread to "
                        f"{generation_snapshot}/{state_snapshot.name} before the rebalance callback triggered"
                    )
                    self._reset_state_and_rejoin(reason, True)
                    self._reset_join_group_future()
            else:
                exception = future.exception()
                self._reset_join_group_future()
                with self._lock:
                    simple_name = type(exception).__name__
                    short_reason = f"rebalance failed due to {simple_name}"
                    full_reason = f"rebalance failed due to '{exception}' ({simple_name})"
                    # For MemberIdRequiredException the JoinGroup handler already asked for the rejoin.
                    if not isinstance(exception, MemberIdRequiredException):
                        self.request_rejoin(short_reason, full_reason)
                if isinstance(
                    exception,
                    UnknownMemberIdException
                    | IllegalGenerationException
                    | RebalanceInProgressException
                    | MemberIdRequiredException,
                ):
                    continue
                if not future.is_retriable():
                    raise exception
                # The timer may have expired while client.poll returned at once.
                if timer.is_expired():
                    return False
                timer.sleep(self._rebalance_config.retry_backoff_ms)
        return True

    def _reset_join_group_future(self) -> None:
        with self._lock:
            self._join_future = None

    def _initiate_join_group(self) -> RequestFuture[bytes]:
        with self._lock:
            # Kept while the join is under way, so that a wakeup does not start a second one.
            if self._join_future is None:
                self.state = MemberState.PREPARING_REBALANCE
                # A rebalance retried after a failure keeps its start time.
                if self._last_rebalance_start_ms == -1:
                    self._last_rebalance_start_ms = self.time.milliseconds()
                self._join_future = self.send_join_group_request()
                # A failed join or sync (handled by the caller, which rejoins) is a failed rebalance.
                self._join_future.add_callbacks(lambda _: None, self._record_failed_rebalance)
            return self._join_future

    def _record_failed_rebalance(self, _: BaseException) -> None:
        with self._lock:
            self._sensors.failed_rebalance_sensor.record()

    def send_join_group_request(self) -> RequestFuture[bytes]:
        if self.coordinator_unknown():
            return RequestFuture.coordinator_not_available()
        coordinator = self._coordinator
        assert coordinator is not None
        self._log.info("(Re-)joining group")
        config = self._rebalance_config
        builder = JoinGroupRequestBuilder(
            JoinGroupRequestData(
                group_id=config.group_id,
                session_timeout_ms=config.session_timeout_ms,
                member_id=self._generation.member_id,
                group_instance_id=config.group_instance_id,
                protocol_type=self.protocol_type(),
                protocols=self.metadata(),
                rebalance_timeout_ms=config.rebalance_timeout_ms,
                reason=JoinGroupRequest.maybe_truncate_reason(self._rejoin_reason),
            )
        )
        self._log.debug(f"Sending JoinGroup ({builder}) to coordinator {coordinator}")
        # The coordinator may hold a JoinGroup for the whole rebalance timeout: wait that long, and a little.
        join_group_timeout_ms = max(
            self.client.default_request_timeout_ms(),
            max(config.rebalance_timeout_ms + self.JOIN_GROUP_TIMEOUT_LAPSE, config.rebalance_timeout_ms),
        )
        return self.client.send(coordinator, builder, join_group_timeout_ms).compose(
            _JoinGroupResponseHandler(self, self._generation)
        )

    def _on_join_follower(self) -> RequestFuture[bytes]:
        # A follower syncs with an empty assignment.
        builder = SyncGroupRequestBuilder(
            SyncGroupRequestData(
                group_id=self._rebalance_config.group_id,
                member_id=self._generation.member_id,
                protocol_type=self.protocol_type(),
                protocol_name=self._generation.protocol_name,
                group_instance_id=self._rebalance_config.group_instance_id,
                generation_id=self._generation.generation_id,
                assignments=[],
            )
        )
        self._log.debug(f"Sending follower SyncGroup to coordinator {self._coordinator}: {builder}")
        return self._send_sync_group_request(builder)

    def _on_leader_elected(self, join_response: JoinGroupResponse) -> RequestFuture[bytes]:
        try:
            data = join_response.data
            group_assignment = self.on_leader_elected(
                data.leader, data.protocol_name, list(data.members), bool(data.skip_assignment)
            )
            assignments = [
                SyncGroupRequestData.SyncGroupRequestAssignment(member_id=member_id, assignment=assignment)
                for member_id, assignment in group_assignment.items()
            ]
            builder = SyncGroupRequestBuilder(
                SyncGroupRequestData(
                    group_id=self._rebalance_config.group_id,
                    member_id=self._generation.member_id,
                    protocol_type=self.protocol_type(),
                    protocol_name=self._generation.protocol_name,
                    group_instance_id=self._rebalance_config.group_instance_id,
                    generation_id=self._generation.generation_id,
                    assignments=assignments,
                )
            )
            self._log.debug(f"Sending leader SyncGroup to coordinator {self._coordinator}: {builder}")
            return self._send_sync_group_request(builder)
        except Exception as e:
            return RequestFuture.failure(e)

    def _send_sync_group_request(self, builder: SyncGroupRequestBuilder) -> RequestFuture[bytes]:
        if self.coordinator_unknown():
            return RequestFuture.coordinator_not_available()
        coordinator = self._coordinator
        assert coordinator is not None
        return self.client.send(coordinator, builder).compose(_SyncGroupResponseHandler(self, self._generation))

    @staticmethod
    def _has_generation_reset(gen: Generation) -> bool:
        # ILLEGAL_GENERATION may keep the member id: only the generation id and protocol tell a reset.
        return gen.generation_id == _NO_GENERATION.generation_id and gen.protocol_name is None

    def _send_find_coordinator_request(self, node: Node) -> RequestFuture[None]:
        self._log.debug(f"Sending FindCoordinator request to broker {node}")
        data = FindCoordinatorRequestData(key_type=CoordinatorType.GROUP.id(), key=self._rebalance_config.group_id)
        return self.client.send(node, FindCoordinatorRequestBuilder(data)).compose(
            _FindCoordinatorResponseHandler(self)
        )

    def coordinator_unknown(self) -> bool:
        return self.check_and_get_coordinator() is None

    def check_and_get_coordinator(self) -> Node | None:
        """The coordinator, or None (marking it unknown if its connection has failed)."""
        with self._lock:
            if self._coordinator is not None and self.client.is_unavailable(self._coordinator):
                self.mark_coordinator_unknown("coordinator unavailable", True)
                return None
            return self._coordinator

    def coordinator(self) -> Node | None:
        with self._lock:
            return self._coordinator

    def mark_coordinator_unknown(self, cause: str | Errors, is_disconnected: bool = False) -> None:
        """Forgets the coordinator (disconnecting from it unless already disconnected), so it is looked up
        again.

        # PORT: Java's overloads (Errors), (String) and (boolean, String)."""
        if isinstance(cause, Errors):
            cause = f"error response {cause.name}"
        with self._lock:
            if self._coordinator is not None:
                self._log.info(
                    f"Group coordinator {self._coordinator} is unavailable or invalid due to cause: {cause}. "
                    f"isDisconnected: {str(is_disconnected).lower()}. Rediscovery will be attempted."
                )
                old_coordinator = self._coordinator
                # Forgotten before disconnecting: handlers of the pending requests may come here too, and no
                # new request should go to it meanwhile.
                self._coordinator = None
                # Pending requests fail with DisconnectException on the next poll.
                if not is_disconnected:
                    self._log.info(f"Requesting disconnect from last known coordinator {old_coordinator}")
                    self.client.disconnect_async(old_coordinator)
                self._last_time_of_connection_ms = self.time.milliseconds()
            else:
                duration_of_ongoing_disconnect = self.time.milliseconds() - self._last_time_of_connection_ms
                if duration_of_ongoing_disconnect > self._rebalance_config.rebalance_timeout_ms:
                    self._log.warn(
                        f"Consumer has been disconnected from the group coordinator for "
                        f"{duration_of_ongoing_disconnect}ms"
                    )

    def generation(self) -> Generation:
        with self._lock:
            return self._generation

    def generation_if_stable(self) -> Generation | None:
        with self._lock:
            if self.state is not MemberState.STABLE:
                return None
            return self._generation

    def rebalance_in_progress(self) -> bool:
        with self._lock:
            return self.state in (MemberState.PREPARING_REBALANCE, MemberState.COMPLETING_REBALANCE)

    def member_id(self) -> str:
        with self._lock:
            return self._generation.member_id

    def _reset_state_and_generation(self, reason: str, should_reset_member_id: bool) -> None:
        with self._lock:
            self._log.info(f"Resetting generation {'and member id ' if should_reset_member_id else ''}due to: {reason}")
            self.state = MemberState.UNJOINED
            if should_reset_member_id:
                self._generation = _NO_GENERATION
            else:
                # The member id may still be valid: keeping it spares the old one a wait for the rebalance timeout.
                self._generation = Generation(_NO_GENERATION.generation_id, self._generation.member_id, None)

    def _reset_state_and_rejoin(self, reason: str, should_reset_member_id: bool) -> None:
        with self._lock:
            self._reset_state_and_generation(reason, should_reset_member_id)
            self.request_rejoin(reason)
            self._needs_join_prepare = True

    def reset_state_on_response_error(self, api: ApiKeys, error: Errors, should_reset_member_id: bool) -> None:
        with self._lock:
            self._reset_state_and_rejoin(f"encountered {error.name} from {api.name} response", should_reset_member_id)

    def reset_generation_on_leave_group(self) -> None:
        with self._lock:
            self._reset_state_and_rejoin("consumer pro-actively leaving the group", True)

    def request_rejoin_if_necessary(self, short_reason: str, full_reason: str) -> None:
        with self._lock:
            if not self._rejoin_needed:
                self.request_rejoin(short_reason, full_reason)

    def request_rejoin(self, short_reason: str, full_reason: str | None = None) -> None:
        with self._lock:
            self._log.info(f"Request joining group due to: {short_reason if full_reason is None else full_reason}")
            self._rejoin_reason = short_reason
            self._rejoin_needed = True

    def _is_protocol_type_inconsistent(self, protocol_type: str | None) -> bool:
        return protocol_type is not None and protocol_type != self.protocol_type()

    def close(self, timer: Timer | None = None) -> None:
        """Stops the heartbeat thread, leaves the group (if configured to) and waits (at most the timer) for
        the requests still pending to the coordinator."""
        if timer is None:
            timer = self.time.timer(0)
        try:
            self._close_heartbeat_thread()
        finally:
            # After the thread: it needs this lock to finish.
            with self._lock:
                if self._rebalance_config.leave_group_on_close:
                    self.on_leave_prepare()
                    self.maybe_leave_group("the consumer is being closed")
                # Pending commits and the LeaveGroup may still be queued: give them until the timer expires
                # (nothing can be sent without a coordinator).
                coordinator = self.check_and_get_coordinator()
                if coordinator is not None and not self.client.await_pending_requests(coordinator, timer):
                    self._log.warn(
                        f"Close timed out with {self.client.pending_request_count(coordinator)} pending requests to "
                        "coordinator, terminating client connections"
                    )

    def maybe_leave_group(self, leave_reason: str) -> RequestFuture[None] | None:
        """Sends LeaveGroup (a dynamic member in a group only; static members stay until their session
        times out), without waiting for the answer, and resets the generation."""
        with self._lock:
            future: RequestFuture[None] | None = None
            coordinator = self._coordinator
            if (
                self.is_dynamic_member()
                and not self.coordinator_unknown()
                and self.state is not MemberState.UNJOINED
                and self._generation.has_member_id()
            ):
                coordinator = self._coordinator
                assert coordinator is not None
                # Best effort: no retries.
                self._log.info(
                    f"Member {self._generation.member_id} sending LeaveGroup request to coordinator {coordinator} due "
                    f"to {leave_reason}"
                )
                request = LeaveGroupRequestBuilder(
                    self._rebalance_config.group_id or "",
                    [
                        LeaveGroupRequestData.MemberIdentity(
                            member_id=self._generation.member_id,
                            reason=JoinGroupRequest.maybe_truncate_reason(leave_reason),
                        )
                    ],
                )
                future = self.client.send(coordinator, request).compose(
                    _LeaveGroupResponseHandler(self, self._generation)
                )
                self.client.poll_no_wakeup()
            self.reset_generation_on_leave_group()
            return future

    def is_dynamic_member(self) -> bool:
        return self._rebalance_config.group_instance_id is None

    def send_heartbeat_request(self) -> RequestFuture[None]:
        with self._lock:
            coordinator = self._coordinator
            self._log.debug(
                f"Sending Heartbeat request with generation {self._generation.generation_id} and member id "
                f"{self._generation.member_id} to coordinator {coordinator}"
            )
            if coordinator is None:
                return RequestFuture.coordinator_not_available()
            builder = HeartbeatRequestBuilder(
                HeartbeatRequestData(
                    group_id=self._rebalance_config.group_id,
                    member_id=self._generation.member_id,
                    group_instance_id=self._rebalance_config.group_instance_id,
                    generation_id=self._generation.generation_id,
                )
            )
            return self.client.send(coordinator, builder).compose(_HeartbeatResponseHandler(self, self._generation))

    def create_meter(self, metrics: Metrics, group_name: str, base_name: str, descriptive_name: str) -> Meter:
        """A `{base_name}-rate` (per second) and `{base_name}-total` meter counting occurrences."""
        return Meter(
            metrics.metric_name(f"{base_name}-rate", group_name, f"The number of {descriptive_name} per second"),
            metrics.metric_name(f"{base_name}-total", group_name, f"The total number of {descriptive_name}"),
            TimeUnit.SECONDS,
            WindowedCount(),
        )

    # -- for tests ------------------------------------------------------------------------------------------

    def heartbeat(self) -> Heartbeat:
        return self._heartbeat

    def rejoin_reason(self) -> str:
        return self._rejoin_reason

    def set_last_rebalance_time(self, timestamp: int) -> None:
        with self._lock:
            self._last_rebalance_end_ms = timestamp

    def has_matching_generation_id(self, generation_id: int) -> bool:
        return self._generation != _NO_GENERATION and self._generation.generation_id == generation_id

    def has_unknown_generation(self) -> bool:
        return self._generation == _NO_GENERATION

    def has_valid_member_id(self) -> bool:
        return not self.has_unknown_generation() and self._generation.has_member_id()

    def set_new_generation(self, generation: Generation) -> None:
        with self._lock:
            self._generation = generation

    def set_new_state(self, state: MemberState) -> None:
        with self._lock:
            self.state = state

    def heartbeat_thread(self) -> _HeartbeatThread | None:
        return self._heartbeat_thread


Generation.NO_GENERATION = _NO_GENERATION


# -- response handlers ---------------------------------------------------------------------------------------


class CoordinatorResponseHandler(RequestFutureAdapter[ClientResponse, T], Generic[R, T]):
    """Handles a coordinator's response: disconnects mark the coordinator unknown; `handle` gets the body."""

    def __init__(self, coordinator: AbstractCoordinator, generation: Generation) -> None:
        self.coordinator = coordinator
        self.sent_generation = generation
        self.response: ClientResponse | None = None

    @abc.abstractmethod
    def handle(self, response: R, future: RequestFuture[T]) -> None: ...

    def on_failure(self, e: BaseException, future: RequestFuture[T]) -> None:
        if isinstance(e, DisconnectException):
            self.coordinator.mark_coordinator_unknown(str(e), True)
        future.raise_(e)

    def on_success(self, value: ClientResponse, future: RequestFuture[T]) -> None:
        try:
            self.response = value
            # The handler was made for the request it answers, so the body is of its response type.
            self.handle(cast(R, value.response_body), future)
        except Exception as e:
            if not future.is_done():
                future.raise_(e)

    def generation_unchanged(self) -> bool:
        with self.coordinator._lock:
            return self.coordinator._generation == self.sent_generation

    def _request_latency_ms(self) -> int:
        """The latency of the response being handled."""
        assert self.response is not None
        return self.response.request_latency_ms


class _JoinGroupResponseHandler(CoordinatorResponseHandler[JoinGroupResponse, bytes]):
    def handle(self, join_response: JoinGroupResponse, future: RequestFuture[bytes]) -> None:
        c = self.coordinator
        log = c._log
        error = join_response.error()
        data = join_response.data
        if error is Errors.NONE:
            if c._is_protocol_type_inconsistent(data.protocol_type):
                log.error(
                    f"JoinGroup failed: Inconsistent Protocol Type, received {data.protocol_type} but expected "
                    f"{c.protocol_type()}"
                )
                future.raise_(Errors.INCONSISTENT_GROUP_PROTOCOL)
                return
            log.debug(f"Received successful JoinGroup response: {data}")
            c._sensors.join_sensor.record(self._request_latency_ms())
            with c._lock:
                if c.state is not MemberState.PREPARING_REBALANCE:
                    # Woken up before the rebalance completed: the group may have been left already.
                    future.raise_(_UnjoinedGroupException())
                else:
                    c.state = MemberState.COMPLETING_REBALANCE
                    # From COMPLETING_REBALANCE the member always reaches STABLE: heartbeats start here.
                    if c._heartbeat_thread is not None:
                        c._heartbeat_thread.enable()
                    c._generation = Generation(data.generation_id, data.member_id, data.protocol_name)
                    log.info(f"Successfully joined group with generation {c._generation}")
                    if join_response.is_leader():
                        c._on_leader_elected(join_response).chain(future)
                    else:
                        c._on_join_follower().chain(future)
        elif error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            log.info(f"JoinGroup failed: Coordinator {c.coordinator()} is loading the group.")
            future.raise_(error)
        elif error is Errors.UNKNOWN_MEMBER_ID:
            log.info(
                f"JoinGroup failed: {error.message} Need to re-join the group. Sent generation was "
                f"{self.sent_generation}"
            )
            # The member id is reset only if the generation is unchanged; the rejoin is immediate.
            if self.generation_unchanged():
                c.reset_state_on_response_error(ApiKeys.JOIN_GROUP, error, True)
            future.raise_(error)
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            c.mark_coordinator_unknown(error)
            log.info(
                f"JoinGroup failed: {error.message} Marking coordinator unknown. Sent generation was "
                f"{self.sent_generation}"
            )
            future.raise_(error)
        elif error is Errors.FENCED_INSTANCE_ID:
            # Fatal whatever the generation.
            log.error(
                f"JoinGroup failed: The group instance id {_opt(c._rebalance_config.group_instance_id)} has been "
                f"fenced by another instance. Sent generation was {self.sent_generation}"
            )
            future.raise_(error)
        elif error in (
            Errors.INCONSISTENT_GROUP_PROTOCOL,
            Errors.INVALID_SESSION_TIMEOUT,
            Errors.INVALID_GROUP_ID,
            Errors.GROUP_AUTHORIZATION_FAILED,
            Errors.GROUP_MAX_SIZE_REACHED,
        ):
            log.error(f"JoinGroup failed due to fatal error: {error.message}")
            if error is Errors.GROUP_MAX_SIZE_REACHED:
                future.raise_(
                    GroupMaxSizeReachedException(
                        f"Consumer group {c._rebalance_config.group_id} already has the configured maximum number of "
                        "members."
                    )
                )
            elif error is Errors.GROUP_AUTHORIZATION_FAILED:
                future.raise_(GroupAuthorizationException.for_group_id(c._rebalance_config.group_id))
            else:
                future.raise_(error)
        elif error is Errors.UNSUPPORTED_VERSION:
            log.error(
                "JoinGroup failed due to unsupported version error. Please unset field group.instance.id and retry "
                "to see if the problem resolves"
            )
            future.raise_(error)
        elif error is Errors.MEMBER_ID_REQUIRED:
            # KIP-394: rejoin at once with the member id the coordinator gave.
            member_id = data.member_id
            log.debug(
                f"JoinGroup failed due to non-fatal error: {error.name}. Will set the member id as {member_id} and "
                f"then rejoin. Sent generation was {self.sent_generation}"
            )
            with c._lock:
                c._generation = Generation(DEFAULT_GENERATION_ID, member_id, None)
            c.request_rejoin(f"need to re-join with the given member-id: {member_id}")
            future.raise_(error)
        elif error is Errors.REBALANCE_IN_PROGRESS:
            log.info(
                "JoinGroup failed due to non-fatal error: REBALANCE_IN_PROGRESS, which could indicate a replication "
                "timeout on the broker. Will retry."
            )
            future.raise_(error)
        else:
            log.error(f"JoinGroup failed due to unexpected error: {error.message}")
            future.raise_(KafkaException(f"Unexpected error in join group response: {error.message}"))


class _SyncGroupResponseHandler(CoordinatorResponseHandler[SyncGroupResponse, bytes]):
    def handle(self, sync_response: SyncGroupResponse, future: RequestFuture[bytes]) -> None:
        c = self.coordinator
        log = c._log
        error = sync_response.error()
        data = sync_response.data
        if error is Errors.NONE:
            if c._is_protocol_type_inconsistent(data.protocol_type):
                log.error(
                    f"SyncGroup failed due to inconsistent Protocol Type, received {data.protocol_type} but expected "
                    f"{c.protocol_type()}"
                )
                future.raise_(Errors.INCONSISTENT_GROUP_PROTOCOL)
                return
            log.debug(f"Received successful SyncGroup response: {data}")
            c._sensors.sync_sensor.record(self._request_latency_ms())
            with c._lock:
                generation = c._generation
                if not c._has_generation_reset(generation) and c.state is MemberState.COMPLETING_REBALANCE:
                    protocol_name = data.protocol_name
                    if protocol_name is not None and protocol_name != generation.protocol_name:
                        log.error(
                            f"SyncGroup failed due to inconsistent Protocol Name, received {protocol_name} but "
                            f"expected {generation.protocol_name}"
                        )
                        future.raise_(Errors.INCONSISTENT_GROUP_PROTOCOL)
                    else:
                        log.info(f"Successfully synced group in generation {generation}")
                        c.state = MemberState.STABLE
                        c._rejoin_reason = ""
                        c._rejoin_needed = False
                        c._last_rebalance_end_ms = c.time.milliseconds()
                        c._sensors.successful_rebalance_sensor.record(
                            c._last_rebalance_end_ms - c._last_rebalance_start_ms
                        )
                        c._last_rebalance_start_ms = -1
                        future.complete(bytes(data.assignment))
                else:
                    log.info(
                        f"Generation data was cleared by heartbeat thread to {generation} and state is now "
                        f"{c.state.name} before receiving SyncGroup response, marking this rebalance as failed and "
                        "retry"
                    )
                    # ILLEGAL_GENERATION retries at once.
                    future.raise_(Errors.ILLEGAL_GENERATION)
            return
        if error is Errors.GROUP_AUTHORIZATION_FAILED:
            future.raise_(GroupAuthorizationException.for_group_id(c._rebalance_config.group_id))
        elif error is Errors.REBALANCE_IN_PROGRESS:
            log.info(
                "SyncGroup failed: The group began another rebalance. Need to re-join the group. Sent generation was "
                f"{self.sent_generation}"
            )
            future.raise_(error)
        elif error is Errors.FENCED_INSTANCE_ID:
            log.error(
                f"SyncGroup failed: The group instance id {_opt(c._rebalance_config.group_instance_id)} has been "
                f"fenced by another instance. Sent generation was {self.sent_generation}"
            )
            future.raise_(error)
        elif error in (Errors.UNKNOWN_MEMBER_ID, Errors.ILLEGAL_GENERATION):
            log.info(
                f"SyncGroup failed: {error.message} Need to re-join the group. Sent generation was "
                f"{self.sent_generation}"
            )
            if self.generation_unchanged():
                # ILLEGAL_GENERATION keeps the member id, which may still be valid.
                c.reset_state_on_response_error(ApiKeys.SYNC_GROUP, error, error is not Errors.ILLEGAL_GENERATION)
            future.raise_(error)
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            log.info(
                f"SyncGroup failed: {error.message} Marking coordinator unknown. Sent generation was "
                f"{self.sent_generation}"
            )
            c.mark_coordinator_unknown(error)
            future.raise_(error)
        else:
            future.raise_(KafkaException(f"Unexpected error from SyncGroup: {error.message}"))


class _FindCoordinatorResponseHandler(RequestFutureAdapter[ClientResponse, None]):
    def __init__(self, coordinator: AbstractCoordinator) -> None:
        self.coordinator = coordinator

    def on_success(self, value: ClientResponse, future: RequestFuture[None]) -> None:
        c = self.coordinator
        log = c._log
        log.debug(f"Received FindCoordinator response {value}")
        response = value.response_body
        assert isinstance(response, FindCoordinatorResponse)
        coordinators = response.coordinators()
        if len(coordinators) != 1:
            log.error("Group coordinator lookup failed: Invalid response containing more than a single coordinator")
            future.raise_(
                RuntimeError(
                    "Group coordinator lookup failed: Invalid response containing more than a single coordinator"
                )
            )
            return
        coordinator_data = coordinators[0]
        error = Errors.for_code(coordinator_data.error_code)
        if error is Errors.NONE:
            with c._lock:
                # A connection id of MAX_VALUE - node id keeps the coordinator's connection apart from the one
                # used for fetches.
                coordinator_connection_id = _INT_MAX - coordinator_data.node_id
                c._coordinator = Node(coordinator_connection_id, coordinator_data.host, coordinator_data.port)
                log.info(f"Discovered group coordinator {c._coordinator}")
                c.client.try_connect(c._coordinator)
                c._heartbeat.reset_session_timeout()
            future.complete(None)
        elif error is Errors.GROUP_AUTHORIZATION_FAILED:
            future.raise_(GroupAuthorizationException.for_group_id(c._rebalance_config.group_id))
        else:
            log.debug(f"Group coordinator lookup failed: {coordinator_data.error_message}")
            future.raise_(error)

    def on_failure(self, e: BaseException, future: RequestFuture[None]) -> None:
        self.coordinator._log.debug(f"FindCoordinator request failed due to {e!r}")
        if not isinstance(e, RetriableException):
            # Kept so that the application thread raises it.
            self.coordinator._fatal_find_coordinator_exception = e
        future.raise_(e)


class _LeaveGroupResponseHandler(CoordinatorResponseHandler[LeaveGroupResponse, None]):
    def handle(self, leave_response: LeaveGroupResponse, future: RequestFuture[None]) -> None:
        log = self.coordinator._log
        members = leave_response.member_responses()
        if len(members) > 1:
            future.raise_(
                RuntimeError(
                    "The expected leave group response should only contain no more than one member info, however get "
                    f"{members}"
                )
            )
        error = leave_response.error()
        if error is Errors.NONE:
            log.debug(f"LeaveGroup response with {self.sent_generation} returned successfully: {self.response}")
            if not future.is_done():
                future.complete(None)
        else:
            log.error(f"LeaveGroup request with {self.sent_generation} failed with error: {error.message}")
            if not future.is_done():
                future.raise_(error)


class _HeartbeatResponseHandler(CoordinatorResponseHandler[HeartbeatResponse, None]):
    def handle(self, heartbeat_response: HeartbeatResponse, future: RequestFuture[None]) -> None:
        c = self.coordinator
        c._sensors.heartbeat_sensor.record(self._request_latency_ms())
        log = c._log
        error = heartbeat_response.error()
        if error is Errors.NONE:
            log.debug("Received successful Heartbeat response")
            future.complete(None)
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            log.info(
                f"Attempt to heartbeat failed since coordinator {c.coordinator()} is either not started or not valid"
            )
            c.mark_coordinator_unknown(error)
            future.raise_(error)
        elif error is Errors.REBALANCE_IN_PROGRESS:
            # Heartbeats go on during a rebalance: the error matters only to a stable member.
            with c._lock:
                if c.state is MemberState.STABLE:
                    c.request_rejoin("group is already rebalancing")
                    future.raise_(error)
                else:
                    log.debug(f"Ignoring heartbeat response with error {error.name} during {c.state.name} state")
                    future.complete(None)
        elif error in (Errors.ILLEGAL_GENERATION, Errors.UNKNOWN_MEMBER_ID, Errors.FENCED_INSTANCE_ID):
            if self.generation_unchanged():
                log.info(
                    f"Attempt to heartbeat with {self.sent_generation} and group instance id "
                    f"{_opt(c._rebalance_config.group_instance_id)} failed due to {error.name}, resetting generation"
                )
                # ILLEGAL_GENERATION keeps the member id, which is still valid.
                c.reset_state_on_response_error(ApiKeys.HEARTBEAT, error, error is not Errors.ILLEGAL_GENERATION)
                future.raise_(error)
            else:
                # The generation has changed since: the error is stale.
                log.info(
                    f"Attempt to heartbeat with stale {self.sent_generation} and group instance id "
                    f"{_opt(c._rebalance_config.group_instance_id)} failed due to {error.name}, ignoring the error"
                )
                future.complete(None)
        elif error is Errors.GROUP_AUTHORIZATION_FAILED:
            future.raise_(GroupAuthorizationException.for_group_id(c._rebalance_config.group_id))
        else:
            future.raise_(KafkaException(f"Unexpected error in heartbeat response: {error.message}"))


# -- the heartbeat thread ------------------------------------------------------------------------------------


def _seconds_since(now_ms: int, then_ms: int) -> float:
    """Whole seconds from `then_ms` to `now_ms`, truncated toward zero as Java's TimeUnit.convert."""
    return float(int((now_ms - then_ms) / 1000))


class _GroupCoordinatorMetrics:
    """Java's AbstractCoordinator.GroupCoordinatorMetrics: the group membership sensors, in group
    `{prefix}-coordinator-metrics`."""

    def __init__(self, coordinator: AbstractCoordinator, metrics: Metrics, metric_grp_prefix: str) -> None:
        group = f"{metric_grp_prefix}-coordinator-metrics"
        self.metric_grp_name = group

        def name(metric: str, description: str) -> MetricName:
            return metrics.metric_name(metric, group, description)

        self.heartbeat_sensor = metrics.sensor("heartbeat-latency")
        self.heartbeat_sensor.add(
            name("heartbeat-response-time-max", "The max time taken to receive a response to a heartbeat request"),
            Max(),
        )
        self.heartbeat_sensor.add(coordinator.create_meter(metrics, group, "heartbeat", "heartbeats"))

        self.join_sensor = metrics.sensor("join-latency")
        self.join_sensor.add(name("join-time-avg", "The average time taken for a group rejoin"), Avg())
        self.join_sensor.add(name("join-time-max", "The max time taken for a group rejoin"), Max())
        self.join_sensor.add(coordinator.create_meter(metrics, group, "join", "group joins"))

        self.sync_sensor = metrics.sensor("sync-latency")
        self.sync_sensor.add(name("sync-time-avg", "The average time taken for a group sync"), Avg())
        self.sync_sensor.add(name("sync-time-max", "The max time taken for a group sync"), Max())
        self.sync_sensor.add(coordinator.create_meter(metrics, group, "sync", "group syncs"))

        retried = ", which may be composed of several failed re-trials until it succeeded"
        self.successful_rebalance_sensor = metrics.sensor("rebalance-latency")
        self.successful_rebalance_sensor.add(
            name(
                "rebalance-latency-avg",
                "The average time taken for a group to complete a successful rebalance" + retried,
            ),
            Avg(),
        )
        self.successful_rebalance_sensor.add(
            name(
                "rebalance-latency-max", "The max time taken for a group to complete a successful rebalance" + retried
            ),
            Max(),
        )
        self.successful_rebalance_sensor.add(
            name(
                "rebalance-latency-total",
                "The total number of milliseconds this consumer has spent in successful rebalances since creation",
            ),
            CumulativeSum(),
        )
        self.successful_rebalance_sensor.add(
            name(
                "rebalance-total",
                "The total number of successful rebalance events, each event is composed of several failed re-trials "
                "until it succeeded",
            ),
            CumulativeCount(),
        )
        self.successful_rebalance_sensor.add(
            name(
                "rebalance-rate-per-hour",
                "The number of successful rebalance events per hour, each event is composed of several failed "
                "re-trials until it succeeded",
            ),
            Rate(TimeUnit.HOURS, WindowedCount()),
        )

        self.failed_rebalance_sensor = metrics.sensor("failed-rebalance")
        self.failed_rebalance_sensor.add(
            name("failed-rebalance-total", "The total number of failed rebalance events"), CumulativeCount()
        )
        self.failed_rebalance_sensor.add(
            name("failed-rebalance-rate-per-hour", "The number of failed rebalance events per hour"),
            Rate(TimeUnit.HOURS, WindowedCount()),
        )

        def last_rebalance(config: object, now: int) -> float:
            end_ms = coordinator._last_rebalance_end_ms
            return -1.0 if end_ms == -1 else _seconds_since(now, end_ms)

        metrics.add_metric(
            name("last-rebalance-seconds-ago", "The number of seconds since the last successful rebalance event"),
            MeasurableFn(last_rebalance),
        )

        def last_heartbeat(config: object, now: int) -> float:
            sent_ms = coordinator._heartbeat.last_heartbeat_send()
            return -1.0 if sent_ms == 0 else _seconds_since(now, sent_ms)

        metrics.add_metric(
            name("last-heartbeat-seconds-ago", "The number of seconds since the last coordinator heartbeat was sent"),
            MeasurableFn(last_heartbeat),
        )


class _HeartbeatThread(KafkaThread):
    """Sends heartbeats while the member is in the group, and leaves the group when the application stops
    polling. Waits on the coordinator's condition; every step holds the coordinator's lock."""

    def __init__(self, coordinator: AbstractCoordinator) -> None:
        group_id = coordinator._rebalance_config.group_id or ""
        name = AbstractCoordinator.HEARTBEAT_THREAD_PREFIX + ("" if group_id == "" else f" | {group_id}")
        super().__init__(name, None, True)
        self._coordinator = coordinator
        self._enabled = False
        self._closed = False
        self._failed: BaseException | None = None

    def enable(self) -> None:
        c = self._coordinator
        with c._lock:
            c._log.debug("Enabling heartbeat thread")
            self._enabled = True
            c._heartbeat.reset_timeouts()
            c._cond.notify()

    def disable(self) -> None:
        c = self._coordinator
        with c._lock:
            c._log.debug("Disabling heartbeat thread")
            self._enabled = False

    def close(self) -> None:
        c = self._coordinator
        with c._lock:
            self._closed = True
            c._cond.notify()

    def has_failed(self) -> bool:
        return self._failed is not None

    def failure_cause(self) -> BaseException | None:
        return self._failed

    def run(self) -> None:
        c = self._coordinator
        log = c._log
        try:
            log.debug("Heartbeat thread started")
            while True:
                with c._lock:
                    if self._closed:
                        return
                    if not self._enabled:
                        c._cond.wait(_IDLE_WAIT_S)
                        continue
                    # Outside a group, or once a fatal error is pending, there is nothing to do.
                    if c.state.has_not_joined_group() or self.has_failed():
                        self.disable()
                        continue
                    c.client.poll_no_wakeup()
                    now = c.time.milliseconds()
                    if c.coordinator_unknown():
                        if c._find_coordinator_future is not None:
                            # Cleared, so that after the backoff a new lookup is made if the application thread
                            # has not found the coordinator meanwhile.
                            c._clear_find_coordinator_future()
                        else:
                            c.lookup_coordinator()
                        c._cond.wait(c._rebalance_config.retry_backoff_ms / 1000)
                    elif c._heartbeat.session_timeout_expired(now):
                        # No successful heartbeat for a whole session: check the coordinator.
                        c.mark_coordinator_unknown("session timed out without receiving a heartbeat response")
                    elif c._heartbeat.poll_timeout_expired(now):
                        # The application thread has not polled for longer than max.poll.interval.ms.
                        log.warn(
                            "consumer poll timeout has expired. This means the time between subsequent calls to "
                            "poll() was longer than the configured max.poll.interval.ms, which typically implies that "
                            "the poll loop is spending too much time processing messages. You can address this either "
                            "by increasing max.poll.interval.ms or by reducing the maximum size of batches returned in "
                            "poll() with max.poll.records."
                        )
                        c.maybe_leave_group("consumer poll timeout has expired.")
                    elif not c._heartbeat.should_heartbeat(now):
                        # The heartbeat timer includes the backoff after failures: wait a retry backoff and look
                        # again.
                        c._cond.wait(c._rebalance_config.retry_backoff_ms / 1000)
                    else:
                        c._heartbeat.sent_heartbeat(now)
                        future = c.send_heartbeat_request()
                        future.add_callbacks(self._on_heartbeat_success, self._on_heartbeat_failure)
        except (AuthenticationException, GroupAuthorizationException) as e:
            kind = "An authentication" if isinstance(e, AuthenticationException) else "A group authorization"
            log.error(f"{kind} error occurred in the heartbeat thread", e)
            self._failed = e
        except BaseException as e:
            log.error("Heartbeat thread failed due to unexpected error", e)
            self._failed = e
        finally:
            log.debug("Heartbeat thread has closed")
            self._closed = True

    def _on_heartbeat_success(self, _: object) -> None:
        c = self._coordinator
        with c._lock:
            c._heartbeat.receive_heartbeat()

    def _on_heartbeat_failure(self, e: BaseException) -> None:
        c = self._coordinator
        with c._lock:
            if isinstance(e, RebalanceInProgressException):
                # Heartbeats continue during a rebalance, so the member stays for the rebalance timeout.
                c._heartbeat.receive_heartbeat()
            elif isinstance(e, FencedInstanceIdException):
                c._log.error(
                    f"Caught fenced group.instance.id {_opt(c._rebalance_config.group_instance_id)} error in "
                    "heartbeat thread"
                )
                self._failed = e
            else:
                c._heartbeat.fail_heartbeat()
                # Wake the thread to schedule the next heartbeat.
                c._cond.notify()


def _opt(value: str | None) -> str:
    return "Optional.empty" if value is None else f"Optional[{value}]"
