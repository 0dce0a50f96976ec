"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/SubscriptionState.java (Kafka 3.7).

What the consumer is subscribed to and where it stands in each assigned partition. Partitions are
assigned either by the user (`assign_from_user`) or by the group (`assign_from_subscribed`, for a topic
list or pattern subscription). Each assigned partition has a fetch state:

    INITIALIZING -> (committed offset or reset) -> FETCHING
    AWAIT_RESET: waiting for a ListOffsets lookup (auto.offset.reset, seek_to_beginning/end)
    AWAIT_VALIDATION: the leader changed; the position is checked with OffsetsForLeaderEpoch (KIP-320)

Only FETCHING partitions that are not paused (nor pending revocation) are fetched. Positions, pause flags
and the like do not survive an assignment change.

Thread-safe: every public method holds the lock (Java's synchronized).
"""

from __future__ import annotations

import enum
import re
import threading
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.no_offset_for_partition_exception import NoOffsetForPartitionException
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.clients.metadata import LeaderAndEpoch
from kafka.common.isolation_level import IsolationLevel
from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["FetchPosition", "FetchStates", "LogTruncation", "SubscriptionState"]

_SUBSCRIPTION_EXCEPTION_MESSAGE = "Subscription to topics, partitions and pattern are mutually exclusive"


class _SubscriptionType(enum.Enum):
    NONE = "NONE"
    AUTO_TOPICS = "AUTO_TOPICS"
    AUTO_PATTERN = "AUTO_PATTERN"
    USER_ASSIGNED = "USER_ASSIGNED"


class FetchStates(enum.Enum):
    """A partition's fetch state: which states it may move to, whether it needs a position, and whether that
    position may be fetched from."""

    INITIALIZING = ("FETCHING", "AWAIT_RESET", "AWAIT_VALIDATION"), False, False
    FETCHING = ("FETCHING", "AWAIT_RESET", "AWAIT_VALIDATION"), True, True
    AWAIT_RESET = ("FETCHING", "AWAIT_RESET"), False, False
    AWAIT_VALIDATION = ("FETCHING", "AWAIT_RESET", "AWAIT_VALIDATION"), True, False

    def __init__(self, valid_transitions: tuple[str, ...], requires_position: bool, has_valid_position: bool) -> None:
        self._valid_transitions = valid_transitions
        self.requires_position = requires_position
        self.has_valid_position = has_valid_position

    def transition_to(self, new_state: FetchStates) -> FetchStates:
        return new_state if new_state.name in self._valid_transitions else self


_NO_LEADER_OR_EPOCH = LeaderAndEpoch.no_leader_or_epoch()


@dataclass(frozen=True, slots=True)
class FetchPosition:
    """The next offset to fetch, the leader epoch of the last record consumed before it (None if unknown),
    and the leader (and epoch) the position was last checked against."""

    offset: int
    offset_epoch: int | None = None
    current_leader: LeaderAndEpoch = _NO_LEADER_OR_EPOCH

    def __str__(self) -> str:
        epoch = "Optional.empty" if self.offset_epoch is None else f"Optional[{self.offset_epoch}]"
        return f"FetchPosition{{offset={self.offset}, offsetEpoch={epoch}, currentLeader={self.current_leader}}}"


@dataclass(frozen=True, slots=True)
class LogTruncation:
    """A detected truncation below a partition's position, with the divergent offset if the leader knew it."""

    topic_partition: TopicPartition
    fetch_position: FetchPosition
    divergent_offset: OffsetAndMetadata | None

    def __str__(self) -> str:
        epoch = "Optional.empty" if self.fetch_position.offset_epoch is None else self.fetch_position.offset_epoch
        text = f"(partition={self.topic_partition}, fetchOffset={self.fetch_position.offset}, fetchEpoch={epoch}"
        if self.divergent_offset is not None:
            text += (
                f", divergentOffset={self.divergent_offset.offset}, divergentEpoch={self.divergent_offset.leader_epoch}"
            )
        else:
            text += ", divergentOffset=unknown, divergentEpoch=unknown"
        return text + ")"


class _TopicPartitionState:
    """The state of one assigned partition."""

    __slots__ = (
        "fetch_state",
        "position",
        "high_watermark",
        "log_start_offset",
        "last_stable_offset",
        "paused",
        "pending_revocation",
        "reset_strategy",
        "next_retry_time_ms",
        "preferred_read_replica",
        "preferred_read_replica_expire_time_ms",
        "end_offset_requested",
    )

    def __init__(self) -> None:
        self.fetch_state = FetchStates.INITIALIZING
        self.position: FetchPosition | None = None  # the last consumed position
        self.high_watermark: int | None = None
        self.log_start_offset: int | None = None
        self.last_stable_offset: int | None = None
        self.paused = False
        self.pending_revocation = False
        self.reset_strategy: OffsetResetStrategy | None = None
        self.next_retry_time_ms: int | None = None
        self.preferred_read_replica: int | None = None
        self.preferred_read_replica_expire_time_ms: int | None = None
        self.end_offset_requested = False

    def request_end_offset(self) -> None:
        self.end_offset_requested = True

    def _transition_state(self, new_state: FetchStates, run_if_transitioned: Callable[[], None]) -> None:
        next_state = self.fetch_state.transition_to(new_state)
        if next_state is new_state:
            self.fetch_state = next_state
            run_if_transitioned()
            if self.position is None and next_state.requires_position:
                raise RuntimeError(f"Transitioned subscription state to {next_state.name}, but position is null")
            if not next_state.requires_position:
                self.position = None

    def get_preferred_read_replica(self, time_ms: int) -> int | None:
        if (
            self.preferred_read_replica_expire_time_ms is not None
            and time_ms > self.preferred_read_replica_expire_time_ms
        ):
            self.preferred_read_replica = None
            return None
        return self.preferred_read_replica

    def update_preferred_read_replica(self, preferred_read_replica: int, time_ms: Callable[[], int]) -> None:
        if self.preferred_read_replica is None or preferred_read_replica != self.preferred_read_replica:
            self.preferred_read_replica = preferred_read_replica
            self.preferred_read_replica_expire_time_ms = time_ms()

    def clear_preferred_read_replica(self) -> int | None:
        removed = self.preferred_read_replica
        if removed is not None:
            self.preferred_read_replica = None
            self.preferred_read_replica_expire_time_ms = None
        return removed

    def reset(self, strategy: OffsetResetStrategy) -> None:
        def apply() -> None:
            self.reset_strategy = strategy
            self.next_retry_time_ms = None

        self._transition_state(FetchStates.AWAIT_RESET, apply)

    def maybe_validate_position(self, current_leader_and_epoch: LeaderAndEpoch) -> bool:
        """Moves to AWAIT_VALIDATION if the position was checked against another leader; returns whether the
        position now awaits validation."""
        if self.fetch_state is FetchStates.AWAIT_RESET:
            return False
        if current_leader_and_epoch.leader is None:
            return False
        position = self.position
        if position is not None and position.current_leader != current_leader_and_epoch:
            self.validate_position(FetchPosition(position.offset, position.offset_epoch, current_leader_and_epoch))
            self.preferred_read_replica = None
        return self.fetch_state is FetchStates.AWAIT_VALIDATION

    def update_position_leader_no_validation(self, current_leader_and_epoch: LeaderAndEpoch) -> None:
        """For leaders too old to validate offsets: take the new leader and go on fetching."""
        position = self.position
        if position is not None:

            def apply() -> None:
                self.position = FetchPosition(position.offset, position.offset_epoch, current_leader_and_epoch)
                self.next_retry_time_ms = None

            self._transition_state(FetchStates.FETCHING, apply)

    def validate_position(self, position: FetchPosition) -> None:
        def apply() -> None:
            self.position = position
            self.next_retry_time_ms = None

        if position.offset_epoch is not None and position.current_leader.epoch is not None:
            self._transition_state(FetchStates.AWAIT_VALIDATION, apply)
        else:
            # Without epochs there is nothing to validate.
            self._transition_state(FetchStates.FETCHING, apply)

    def complete_validation(self) -> None:
        if self.has_position():

            def apply() -> None:
                self.next_retry_time_ms = None

            self._transition_state(FetchStates.FETCHING, apply)

    def awaiting_validation(self) -> bool:
        return self.fetch_state is FetchStates.AWAIT_VALIDATION

    def awaiting_retry_backoff(self, now_ms: int) -> bool:
        return self.next_retry_time_ms is not None and now_ms < self.next_retry_time_ms

    def awaiting_reset(self) -> bool:
        return self.fetch_state is FetchStates.AWAIT_RESET

    def set_next_allowed_retry(self, next_allowed_retry_time_ms: int) -> None:
        self.next_retry_time_ms = next_allowed_retry_time_ms

    def request_failed(self, next_allowed_retry_time_ms: int) -> None:
        self.next_retry_time_ms = next_allowed_retry_time_ms

    def has_valid_position(self) -> bool:
        return self.fetch_state.has_valid_position

    def has_position(self) -> bool:
        return self.position is not None

    def seek_validated(self, position: FetchPosition) -> None:
        def apply() -> None:
            self.position = position
            self.reset_strategy = None
            self.next_retry_time_ms = None

        self._transition_state(FetchStates.FETCHING, apply)

    def seek_unvalidated(self, fetch_position: FetchPosition) -> None:
        self.seek_validated(fetch_position)
        self.validate_position(fetch_position)

    def set_position(self, position: FetchPosition) -> None:
        if not self.has_valid_position():
            raise RuntimeError("Cannot set a new position without a valid current position")
        self.position = position

    def valid_position(self) -> FetchPosition | None:
        return self.position if self.has_valid_position() else None

    def is_fetchable(self) -> bool:
        return not self.paused and not self.pending_revocation and self.has_valid_position()

    def set_high_watermark(self, high_watermark: int | None) -> None:
        self.high_watermark = high_watermark
        self.end_offset_requested = False

    def set_last_stable_offset(self, last_stable_offset: int | None) -> None:
        self.last_stable_offset = last_stable_offset
        self.end_offset_requested = False


class SubscriptionState:
    """The consumer's subscription and per-partition fetch state. Thread-safe."""

    def __init__(self, log_context: LogContext, default_reset_strategy: OffsetResetStrategy) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.SubscriptionState")
        self._lock = threading.RLock()
        self._default_reset_strategy = default_reset_strategy
        self._subscription: set[str] = set()
        # Topics the whole group subscribes to: the leader watches them all for metadata changes.
        self._group_subscription: set[str] = set()
        # PORT: Java's PartitionStates is an insertion-ordered dict here; the order matters to fetch requests.
        self._assignment: dict[TopicPartition, _TopicPartitionState] = {}
        self._subscribed_pattern: re.Pattern[str] | None = None
        self._subscription_type = _SubscriptionType.NONE
        self._rebalance_listener: ConsumerRebalanceListener | None = None
        self._assignment_id = 0

    def __str__(self) -> str:
        with self._lock:
            states = [_state_str(s) for s in self._assignment.values()]
            pattern = "null" if self._subscribed_pattern is None else self._subscribed_pattern.pattern
            return (
                f"SubscriptionState{{type={self._subscription_type.value}, subscribedPattern={pattern}, "
                f"subscription={','.join(sorted(self._subscription))}, "
                f"groupSubscription={','.join(sorted(self._group_subscription))}, "
                f"defaultResetStrategy={self._default_reset_strategy}, assignment=[{', '.join(states)}] "
                f"(id={self._assignment_id})}}"
            )

    def pretty_string(self) -> str:
        with self._lock:
            t = self._subscription_type
            if t is _SubscriptionType.NONE:
                return "None"
            if t is _SubscriptionType.AUTO_TOPICS:
                return f"Subscribe({','.join(sorted(self._subscription))})"
            if t is _SubscriptionType.AUTO_PATTERN:
                assert self._subscribed_pattern is not None
                return f"Subscribe({self._subscribed_pattern.pattern})"
            return f"Assign({_tp_set(self._assignment)} , id={self._assignment_id})"

    def assignment_id(self) -> int:
        """Bumped on every assignment change."""
        with self._lock:
            return self._assignment_id

    def _set_subscription_type(self, type_: _SubscriptionType) -> None:
        if self._subscription_type is _SubscriptionType.NONE:
            self._subscription_type = type_
        elif self._subscription_type is not type_:
            raise RuntimeError(_SUBSCRIPTION_EXCEPTION_MESSAGE)

    # -- subscribing ----------------------------------------------------------------------------------------

    def subscribe(self, topics: Iterable[str], listener: ConsumerRebalanceListener | None) -> bool:
        """Subscribes to a topic list; returns whether the subscription changed."""
        with self._lock:
            self._register_rebalance_listener(listener)
            self._set_subscription_type(_SubscriptionType.AUTO_TOPICS)
            return self._change_subscription(set(topics))

    def subscribe_pattern(self, pattern: re.Pattern[str], listener: ConsumerRebalanceListener | None) -> None:
        """# PORT: Java overloads subscribe(Pattern, ...)."""
        with self._lock:
            self._register_rebalance_listener(listener)
            self._set_subscription_type(_SubscriptionType.AUTO_PATTERN)
            self._subscribed_pattern = pattern

    def subscribe_from_pattern(self, topics: set[str]) -> bool:
        with self._lock:
            if self._subscription_type is not _SubscriptionType.AUTO_PATTERN:
                raise ValueError(
                    f"Attempt to subscribe from pattern while subscription type set to {self._subscription_type.value}"
                )
            return self._change_subscription(topics)

    def _change_subscription(self, topics_to_subscribe: set[str]) -> bool:
        if self._subscription == topics_to_subscribe:
            return False
        self._subscription = set(topics_to_subscribe)
        return True

    def group_subscribe(self, topics: Collection[str]) -> bool:
        """Sets the group's subscription (leader); returns whether it holds topics outside our own."""
        with self._lock:
            if not self.has_auto_assigned_partitions():
                raise RuntimeError(_SUBSCRIPTION_EXCEPTION_MESSAGE)
            self._group_subscription = set(topics)
            return not self._subscription.issuperset(self._group_subscription)

    def reset_group_subscription(self) -> None:
        with self._lock:
            self._group_subscription = set()

    def assign_from_user(self, partitions: set[TopicPartition]) -> bool:
        """Manual assignment; returns whether the topics asked for changed."""
        with self._lock:
            self._set_subscription_type(_SubscriptionType.USER_ASSIGNED)
            if set(self._assignment) == partitions:
                return False
            self._assignment_id += 1
            manual_topics: set[str] = set()
            states: dict[TopicPartition, _TopicPartitionState] = {}
            for partition in partitions:
                states[partition] = self._assignment.get(partition) or _TopicPartitionState()
                manual_topics.add(partition.topic)
            self._set_assignment(states)
            return self._change_subscription(manual_topics)

    def check_assignment_matched_subscription(self, assignments: Collection[TopicPartition]) -> bool:
        with self._lock:
            for tp in assignments:
                if self._subscribed_pattern is not None:
                    if not self._subscribed_pattern.fullmatch(tp.topic):
                        self._log.info(
                            f"Assigned partition {tp} for non-subscribed topic regex pattern; subscription pattern is "
                            f"{self._subscribed_pattern.pattern}"
                        )
                        return False
                elif tp.topic not in self._subscription:
                    self._log.info(
                        f"Assigned partition {tp} for non-subscribed topic; subscription is "
                        f"{_str_set(self._subscription)}"
                    )
                    return False
            return True

    def assign_from_subscribed(self, assignments: Collection[TopicPartition]) -> None:
        """The assignment the group gave us."""
        with self._lock:
            if not self.has_auto_assigned_partitions():
                raise ValueError("Attempt to dynamically assign partitions while manual assignment in use")
            states = {tp: self._assignment.get(tp) or _TopicPartitionState() for tp in assignments}
            self._assignment_id += 1
            self._set_assignment(states)

    def _set_assignment(self, states: dict[TopicPartition, _TopicPartitionState]) -> None:
        # Partitions of one topic stay together (PartitionStates.set): fetch requests are smaller that way.
        by_topic: dict[str, list[TopicPartition]] = {}
        for tp in states:
            by_topic.setdefault(tp.topic, []).append(tp)
        self._assignment = {tp: states[tp] for tps in by_topic.values() for tp in tps}

    def _register_rebalance_listener(self, listener: ConsumerRebalanceListener | None) -> None:
        self._rebalance_listener = listener

    def has_pattern_subscription(self) -> bool:
        with self._lock:
            return self._subscription_type is _SubscriptionType.AUTO_PATTERN

    def has_no_subscription_or_user_assignment(self) -> bool:
        with self._lock:
            return self._subscription_type is _SubscriptionType.NONE

    def unsubscribe(self) -> None:
        with self._lock:
            self._subscription = set()
            self._group_subscription = set()
            self._assignment = {}
            self._subscribed_pattern = None
            self._subscription_type = _SubscriptionType.NONE
            self._assignment_id += 1

    def matches_subscribed_pattern(self, topic: str) -> bool:
        """Whether a pattern subscription is in use and matches all of `topic` (Java's Matcher.matches)."""
        with self._lock:
            pattern = self._subscribed_pattern
            if self.has_pattern_subscription() and pattern is not None:
                return pattern.fullmatch(topic) is not None
            return False

    def subscription(self) -> set[str]:
        with self._lock:
            if self.has_auto_assigned_partitions():
                return set(self._subscription)
            return set()

    def subscribed_pattern(self) -> re.Pattern[str] | None:
        with self._lock:
            return self._subscribed_pattern

    def paused_partitions(self) -> set[TopicPartition]:
        with self._lock:
            return {tp for tp, s in self._assignment.items() if s.paused}

    def metadata_topics(self) -> set[str]:
        """The topics to fetch metadata for: our subscription, plus the group's when we lead."""
        with self._lock:
            if not self._group_subscription:
                return set(self._subscription)
            if self._group_subscription.issuperset(self._subscription):
                return set(self._group_subscription)
            return self._group_subscription | self._subscription

    def needs_metadata(self, topic: str) -> bool:
        with self._lock:
            return topic in self._subscription or topic in self._group_subscription

    def _assigned_state(self, tp: TopicPartition) -> _TopicPartitionState:
        state = self._assignment.get(tp)
        if state is None:
            raise RuntimeError(f"No current assignment for partition {tp}")
        return state

    # -- positions ------------------------------------------------------------------------------------------

    def seek_validated(self, tp: TopicPartition, position: FetchPosition) -> None:
        with self._lock:
            self._assigned_state(tp).seek_validated(position)

    def seek(self, tp: TopicPartition, offset: int) -> None:
        self.seek_validated(tp, FetchPosition(offset))

    def seek_unvalidated(self, tp: TopicPartition, position: FetchPosition) -> None:
        with self._lock:
            self._assigned_state(tp).seek_unvalidated(position)

    def maybe_seek_unvalidated(
        self, tp: TopicPartition, position: FetchPosition, requested_reset_strategy: OffsetResetStrategy | None
    ) -> None:
        with self._lock:
            state = self._assignment.get(tp)
            if state is None:
                self._log.debug(f"Skipping reset of partition {tp} since it is no longer assigned")
            elif not state.awaiting_reset():
                self._log.debug(f"Skipping reset of partition {tp} since reset is no longer needed")
            elif requested_reset_strategy is not state.reset_strategy:
                self._log.debug(f"Skipping reset of partition {tp} since an alternative reset has been requested")
            else:
                self._log.info(f"Resetting offset for partition {tp} to position {position}.")
                state.seek_unvalidated(position)

    def assigned_partitions(self) -> set[TopicPartition]:
        with self._lock:
            return set(self._assignment)

    def assigned_partitions_list(self) -> list[TopicPartition]:
        with self._lock:
            return list(self._assignment)

    def num_assigned_partitions(self) -> int:
        with self._lock:
            return len(self._assignment)

    def fetchable_partitions(self, is_available: Callable[[TopicPartition], bool]) -> list[TopicPartition]:
        """The assigned partitions that may be fetched now and pass `is_available`, in assignment order."""
        with self._lock:
            return [tp for tp, s in self._assignment.items() if s.is_fetchable() and is_available(tp)]

    def has_auto_assigned_partitions(self) -> bool:
        with self._lock:
            return self._subscription_type in (_SubscriptionType.AUTO_TOPICS, _SubscriptionType.AUTO_PATTERN)

    def set_position(self, tp: TopicPartition, position: FetchPosition) -> None:
        """# PORT: Java's position(tp, position) setter."""
        with self._lock:
            self._assigned_state(tp).set_position(position)

    def maybe_validate_position_for_current_leader(
        self, api_versions: ApiVersions, tp: TopicPartition, leader_and_epoch: LeaderAndEpoch
    ) -> bool:
        """Enters AWAIT_VALIDATION when the leader changed and can answer OffsetsForLeaderEpoch v3+; for older
        leaders the new leader is taken without validation. Returns whether validation is now awaited."""
        from kafka.clients.consumer.internals.offset_fetcher_utils import has_usable_offset_for_leader_epoch_version

        with self._lock:
            state = self._assignment.get(tp)
            if state is None:
                self._log.debug(f"Skipping validating position for partition {tp} which is not currently assigned.")
                return False
            if leader_and_epoch.leader is not None:
                node_api_versions = api_versions.get(leader_and_epoch.leader.id_string)
                if node_api_versions is None or has_usable_offset_for_leader_epoch_version(node_api_versions):
                    return state.maybe_validate_position(leader_and_epoch)
                state.update_position_leader_no_validation(leader_and_epoch)
                return False
            return state.maybe_validate_position(leader_and_epoch)

    def maybe_complete_validation(
        self, tp: TopicPartition, request_position: FetchPosition, epoch_end_offset: Any
    ) -> LogTruncation | None:
        """Completes validation with an OffsetsForLeaderEpoch answer (an EpochEndOffset); returns the truncation
        found when there is no reset policy to repair it."""
        with self._lock:
            state = self._assignment.get(tp)
            if state is None:
                self._log.debug(f"Skipping completed validation for partition {tp} which is not currently assigned.")
            elif not state.awaiting_validation():
                self._log.debug(
                    f"Skipping completed validation for partition {tp} which is no longer expecting validation."
                )
            else:
                current_position = state.position
                assert current_position is not None
                end_offset = epoch_end_offset.end_offset
                leader_epoch = epoch_end_offset.leader_epoch
                if current_position != request_position:
                    self._log.debug(
                        f"Skipping completed validation for partition {tp} since the current position "
                        f"{current_position} no longer matches the position {request_position} when the request was "
                        "sent"
                    )
                elif end_offset == UNDEFINED_EPOCH_OFFSET or leader_epoch == UNDEFINED_EPOCH:
                    if self.has_default_offset_reset_policy():
                        self._log.info(
                            f"Truncation detected for partition {tp} at offset {current_position}, resetting offset"
                        )
                        self.request_offset_reset(tp)
                    else:
                        self._log.warn(
                            f"Truncation detected for partition {tp} at offset {current_position}, but no reset policy "
                            "is set"
                        )
                        return LogTruncation(tp, request_position, None)
                elif end_offset < current_position.offset:
                    if self.has_default_offset_reset_policy():
                        new_position = FetchPosition(end_offset, leader_epoch, current_position.current_leader)
                        self._log.info(
                            f"Truncation detected for partition {tp} at offset {current_position}, resetting offset to "
                            f"the first offset known to diverge {new_position}"
                        )
                        state.seek_validated(new_position)
                    else:
                        divergent_offset = OffsetAndMetadata(end_offset, None, leader_epoch)
                        self._log.warn(
                            f"Truncation detected for partition {tp} at offset {current_position} (the end offset from "
                            f"the broker is {divergent_offset}), but no reset policy is set"
                        )
                        return LogTruncation(tp, request_position, divergent_offset)
                else:
                    state.complete_validation()
            return None

    def awaiting_validation(self, tp: TopicPartition) -> bool:
        with self._lock:
            return self._assigned_state(tp).awaiting_validation()

    def complete_validation(self, tp: TopicPartition) -> None:
        with self._lock:
            self._assigned_state(tp).complete_validation()

    def valid_position(self, tp: TopicPartition) -> FetchPosition | None:
        with self._lock:
            return self._assigned_state(tp).valid_position()

    def position(self, tp: TopicPartition) -> FetchPosition | None:
        with self._lock:
            return self._assigned_state(tp).position

    def partition_lag(self, tp: TopicPartition, isolation_level: IsolationLevel) -> int | None:
        with self._lock:
            state = self._assigned_state(tp)
            if state.position is None:
                return None
            if isolation_level is IsolationLevel.READ_COMMITTED:
                lso = state.last_stable_offset
                return None if lso is None else lso - state.position.offset
            hw = state.high_watermark
            return None if hw is None else hw - state.position.offset

    def partition_end_offset(self, tp: TopicPartition, isolation_level: IsolationLevel) -> int | None:
        with self._lock:
            state = self._assigned_state(tp)
            if isolation_level is IsolationLevel.READ_COMMITTED:
                return state.last_stable_offset
            return state.high_watermark

    def request_partition_end_offset(self, tp: TopicPartition) -> None:
        with self._lock:
            self._assigned_state(tp).request_end_offset()

    def partition_end_offset_requested(self, tp: TopicPartition) -> bool:
        with self._lock:
            return self._assigned_state(tp).end_offset_requested

    def partition_lead(self, tp: TopicPartition) -> int | None:
        with self._lock:
            state = self._assigned_state(tp)
            if state.log_start_offset is None or state.position is None:
                return None
            return state.position.offset - state.log_start_offset

    def update_high_watermark(self, tp: TopicPartition, high_watermark: int) -> None:
        with self._lock:
            self._assigned_state(tp).set_high_watermark(high_watermark)

    def update_log_start_offset(self, tp: TopicPartition, log_start_offset: int) -> None:
        with self._lock:
            self._assigned_state(tp).log_start_offset = log_start_offset

    def update_last_stable_offset(self, tp: TopicPartition, last_stable_offset: int) -> None:
        with self._lock:
            self._assigned_state(tp).set_last_stable_offset(last_stable_offset)

    def update_preferred_read_replica(
        self, tp: TopicPartition, preferred_read_replica_id: int, time_ms: Callable[[], int]
    ) -> None:
        """Sets the replica to fetch from until the time `time_ms()` returns (KIP-392)."""
        with self._lock:
            self._assigned_state(tp).update_preferred_read_replica(preferred_read_replica_id, time_ms)

    def preferred_read_replica(self, tp: TopicPartition, time_ms: int) -> int | None:
        with self._lock:
            state = self._assignment.get(tp)
            return None if state is None else state.get_preferred_read_replica(time_ms)

    def clear_preferred_read_replica(self, tp: TopicPartition) -> int | None:
        with self._lock:
            state = self._assignment.get(tp)
            return None if state is None else state.clear_preferred_read_replica()

    def all_consumed(self) -> dict[TopicPartition, OffsetAndMetadata]:
        """The positions of all partitions that have a valid one, as offsets to commit."""
        with self._lock:
            consumed: dict[TopicPartition, OffsetAndMetadata] = {}
            for tp, state in self._assignment.items():
                if state.has_valid_position():
                    assert state.position is not None
                    consumed[tp] = OffsetAndMetadata(state.position.offset, "", state.position.offset_epoch)
            return consumed

    def request_offset_reset(
        self,
        partitions: TopicPartition | Collection[TopicPartition],
        offset_reset_strategy: OffsetResetStrategy | None = None,
    ) -> None:
        """Asks for a reset of one partition (by default with the configured strategy) or of several (logged
        as a seek)."""
        with self._lock:
            if isinstance(partitions, TopicPartition):
                strategy = self._default_reset_strategy if offset_reset_strategy is None else offset_reset_strategy
                self._assigned_state(partitions).reset(strategy)
                return
            assert offset_reset_strategy is not None
            for tp in partitions:
                self._log.info(f"Seeking to {offset_reset_strategy.name} offset of partition {tp}")
                self._assigned_state(tp).reset(offset_reset_strategy)

    def set_next_allowed_retry(self, partitions: Iterable[TopicPartition], next_allow_reset_time_ms: int) -> None:
        with self._lock:
            for tp in partitions:
                self._assigned_state(tp).set_next_allowed_retry(next_allow_reset_time_ms)

    def has_default_offset_reset_policy(self) -> bool:
        return self._default_reset_strategy is not OffsetResetStrategy.NONE

    def is_offset_reset_needed(self, tp: TopicPartition) -> bool:
        with self._lock:
            return self._assigned_state(tp).awaiting_reset()

    def reset_strategy(self, tp: TopicPartition) -> OffsetResetStrategy | None:
        with self._lock:
            return self._assigned_state(tp).reset_strategy

    def has_all_fetch_positions(self) -> bool:
        with self._lock:
            return all(s.has_valid_position() for s in self._assignment.values())

    def initializing_partitions(self) -> set[TopicPartition]:
        with self._lock:
            return {tp for tp, s in self._assignment.items() if s.fetch_state is FetchStates.INITIALIZING}

    def reset_initializing_positions(self) -> None:
        """Asks for a reset of every partition still initializing; raises NoOffsetForPartitionException for
        them when auto.offset.reset is none."""
        with self._lock:
            partitions_with_no_offsets: list[TopicPartition] = []
            for tp, state in self._assignment.items():
                if state.fetch_state is FetchStates.INITIALIZING:
                    if self._default_reset_strategy is OffsetResetStrategy.NONE:
                        partitions_with_no_offsets.append(tp)
                    else:
                        self.request_offset_reset(tp)
            if partitions_with_no_offsets:
                raise NoOffsetForPartitionException(partitions_with_no_offsets)

    def partitions_needing_reset(self, now_ms: int) -> set[TopicPartition]:
        with self._lock:
            return {
                tp for tp, s in self._assignment.items() if s.awaiting_reset() and not s.awaiting_retry_backoff(now_ms)
            }

    def partitions_needing_validation(self, now_ms: int) -> set[TopicPartition]:
        with self._lock:
            return {
                tp
                for tp, s in self._assignment.items()
                if s.awaiting_validation() and not s.awaiting_retry_backoff(now_ms)
            }

    def is_assigned(self, tp: TopicPartition) -> bool:
        with self._lock:
            return tp in self._assignment

    def is_paused(self, tp: TopicPartition) -> bool:
        with self._lock:
            state = self._assignment.get(tp)
            return state is not None and state.paused

    def is_fetchable(self, tp: TopicPartition) -> bool:
        with self._lock:
            state = self._assignment.get(tp)
            return state is not None and state.is_fetchable()

    def has_valid_position(self, tp: TopicPartition) -> bool:
        with self._lock:
            state = self._assignment.get(tp)
            return state is not None and state.has_valid_position()

    def pause(self, tp: TopicPartition) -> None:
        with self._lock:
            self._assigned_state(tp).paused = True

    def mark_pending_revocation(self, tps: Iterable[TopicPartition]) -> None:
        with self._lock:
            for tp in tps:
                self._assigned_state(tp).pending_revocation = True

    def resume(self, tp: TopicPartition) -> None:
        with self._lock:
            self._assigned_state(tp).paused = False

    def request_failed(self, partitions: Iterable[TopicPartition], next_retry_time_ms: int) -> None:
        with self._lock:
            for tp in partitions:
                # The partition may have been unassigned meanwhile.
                state = self._assignment.get(tp)
                if state is not None:
                    state.request_failed(next_retry_time_ms)

    def move_partition_to_end(self, tp: TopicPartition) -> None:
        with self._lock:
            state = self._assignment.pop(tp, None)
            if state is not None:
                self._assignment[tp] = state

    def rebalance_listener(self) -> ConsumerRebalanceListener | None:
        with self._lock:
            return self._rebalance_listener


def _state_str(state: _TopicPartitionState) -> str:
    return f"{state.fetch_state.name}(position={state.position})"


def _tp_set(tps: Iterable[TopicPartition]) -> str:
    return "[" + ", ".join(str(tp) for tp in tps) + "]"


def _str_set(items: Iterable[str]) -> str:
    return "[" + ", ".join(sorted(items)) + "]"
