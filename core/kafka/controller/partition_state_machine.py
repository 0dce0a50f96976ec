"""Port of core/src/main/scala/kafka/controller/PartitionStateMachine.scala (Kafka 2.8).

The controller's state machine for partitions. A partition is in one of four states:

- NonExistentPartition: never created, or deleted (valid previous state: OfflinePartition);
- NewPartition: created with assigned replicas but without a leader yet (from NonExistentPartition);
- OnlinePartition: it has a leader (from NewPartition, OnlinePartition, OfflinePartition);
- OfflinePartition: its leader died (from NewPartition, OnlinePartition, OfflinePartition).

Moving a partition to OnlinePartition is where leaders are chosen: a new partition gets its first live replica
as leader and its live replicas as ISR, written to a new `/brokers/topics/T/partitions/P/state` znode; an
offline or online partition gets a leader from the requested election strategy, written over its state znode
with a zk version check (retried on a version conflict). The results go to brokers as LeaderAndIsr and
UpdateMetadata requests through a ControllerBrokerRequestBatch, and every change is logged on
`state.change.logger`.

# PORT: Kafka's kafka.common.StateChangeFailedException (core) has no home yet, because the Python package
`kafka.common` is the clients' org.apache.kafka.common; it is defined here, where it is first used.
Scala's `Either[Throwable, LeaderAndIsr]` results are a LeaderAndIsr or an exception instance.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.common.errors import ControllerMovedException, KafkaException
from kafka.common.topic_partition import TopicPartition
from kafka.controller import election
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.utils.logging import Logging
from kafka.zk.zk_data import TopicPartitionStateZNode
from kafka.zookeeper.zookeeper_types import Code, KeeperException

if TYPE_CHECKING:
    from kafka.controller.controller_channel_manager import AbstractControllerBrokerRequestBatch
    from kafka.controller.controller_context import ControllerContext
    from kafka.controller.state_change_logger import StateChangeLogger
    from kafka.server.kafka_config import KafkaConfig
    from kafka.zk.kafka_zk_client import KafkaZkClient

# A LeaderAndIsr, or the exception that prevented the election (Scala: Either[Throwable, LeaderAndIsr]).
ElectionOutcome = Any


class StateChangeFailedException(KafkaException):
    """A state change the controller attempted could not be made (kafka.common.StateChangeFailedException)."""


# -- states ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class PartitionState:
    """A partition's state in the controller; each state knows the states it may be entered from."""

    state: ClassVar[int] = -1

    @property
    def valid_previous_states(self) -> frozenset[PartitionState]:
        return _VALID_PREVIOUS_PARTITION_STATES[type(self)]

    def __str__(self) -> str:
        return type(self).__name__

    __repr__ = __str__


@dataclass(frozen=True, slots=True, repr=False)
class NewPartition(PartitionState):
    state: ClassVar[int] = 0


@dataclass(frozen=True, slots=True, repr=False)
class OnlinePartition(PartitionState):
    state: ClassVar[int] = 1


@dataclass(frozen=True, slots=True, repr=False)
class OfflinePartition(PartitionState):
    state: ClassVar[int] = 2


@dataclass(frozen=True, slots=True, repr=False)
class NonExistentPartition(PartitionState):
    state: ClassVar[int] = 3


_VALID_PREVIOUS_PARTITION_STATES: dict[type[PartitionState], frozenset[PartitionState]] = {
    NewPartition: frozenset({NonExistentPartition()}),
    OnlinePartition: frozenset({NewPartition(), OnlinePartition(), OfflinePartition()}),
    OfflinePartition: frozenset({NewPartition(), OnlinePartition(), OfflinePartition()}),
    NonExistentPartition: frozenset({OfflinePartition()}),
}


# -- election strategies ---------------------------------------------------------------------------------------------


class PartitionLeaderElectionStrategy(ABC):  # noqa: B024 - a sealed trait: the subclasses are the strategies
    """How to pick a leader when a partition moves to OnlinePartition."""

    def __str__(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class OfflinePartitionLeaderElectionStrategy(PartitionLeaderElectionStrategy):
    allow_unclean: bool

    def __str__(self) -> str:
        return f"OfflinePartitionLeaderElectionStrategy({str(self.allow_unclean).lower()})"


@dataclass(frozen=True, slots=True)
class ReassignPartitionLeaderElectionStrategy(PartitionLeaderElectionStrategy):
    def __str__(self) -> str:
        return "ReassignPartitionLeaderElectionStrategy"


@dataclass(frozen=True, slots=True)
class PreferredReplicaPartitionLeaderElectionStrategy(PartitionLeaderElectionStrategy):
    def __str__(self) -> str:
        return "PreferredReplicaPartitionLeaderElectionStrategy"


@dataclass(frozen=True, slots=True)
class ControlledShutdownPartitionLeaderElectionStrategy(PartitionLeaderElectionStrategy):
    def __str__(self) -> str:
        return "ControlledShutdownPartitionLeaderElectionStrategy"


class PartitionLeaderElectionAlgorithms:
    """The leader choice of each election strategy; None when no replica qualifies."""

    @staticmethod
    def offline_partition_leader_election(
        assignment: Sequence[int],
        isr: Sequence[int],
        live_replicas: set[int],
        unclean_leader_election_enabled: bool,
        controller_context: ControllerContext,
    ) -> int | None:
        for replica_id in assignment:
            if replica_id in live_replicas and replica_id in isr:
                return replica_id
        if unclean_leader_election_enabled:
            for replica_id in assignment:
                if replica_id in live_replicas:
                    controller_context.stats.unclean_leader_election_rate.mark()
                    return replica_id
        return None

    @staticmethod
    def reassign_partition_leader_election(
        reassignment: Sequence[int], isr: Sequence[int], live_replicas: set[int]
    ) -> int | None:
        for replica_id in reassignment:
            if replica_id in live_replicas and replica_id in isr:
                return replica_id
        return None

    @staticmethod
    def preferred_replica_partition_leader_election(
        assignment: Sequence[int], isr: Sequence[int], live_replicas: set[int]
    ) -> int | None:
        if assignment and assignment[0] in live_replicas and assignment[0] in isr:
            return assignment[0]
        return None

    @staticmethod
    def controlled_shutdown_partition_leader_election(
        assignment: Sequence[int], isr: Sequence[int], live_replicas: set[int], shutting_down_brokers: set[int]
    ) -> int | None:
        for replica_id in assignment:
            if replica_id in live_replicas and replica_id in isr and replica_id not in shutting_down_brokers:
                return replica_id
        return None


# -- the state machine -----------------------------------------------------------------------------------------------


class PartitionStateMachine(Logging, ABC):
    """The partition state machine's entry points; ZkPartitionStateMachine implements the transitions."""

    logger_name = "kafka.controller.PartitionStateMachine"

    def __init__(self, controller_context: ControllerContext) -> None:
        self.controller_context = controller_context

    def startup(self) -> None:
        """On becoming controller: sets every partition's initial state, then brings new/offline ones online."""
        self.info("Initializing partition state")
        self._initialize_partition_state()
        self.info("Triggering online partition state changes")
        self.trigger_online_partition_state_change()
        if self.is_debug_enabled():
            self.debug(
                f"Started partition state machine with initial state -> {self.controller_context.partition_states}"
            )

    def shutdown(self) -> None:
        self.info("Stopped partition state machine")

    def trigger_online_partition_state_change(self, topic: str | None = None) -> None:
        """Tries to bring every NewPartition/OfflinePartition partition (of `topic`, or of every topic) online;
        called at failover and on broker changes."""
        states = (OfflinePartition(), NewPartition())
        partitions = self.controller_context.partitions_in_states(states, topic)
        self._trigger_online_state_change_for_partitions(partitions)

    def _trigger_online_state_change_for_partitions(self, partitions: Iterable[TopicPartition]) -> None:
        # Partitions of topics queued for deletion stay where they are.
        partitions_to_trigger = [
            p for p in partitions if not self.controller_context.is_topic_queued_up_for_deletion(p.topic)
        ]
        self.handle_state_changes(
            partitions_to_trigger, OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False)
        )

    def _initialize_partition_state(self) -> None:
        """A partition with a state znode is online if its leader is alive and offline otherwise; one without
        a state znode is new."""
        ctx = self.controller_context
        for topic_partition in ctx.all_partitions:
            current_leader_isr_and_epoch = ctx.partition_leadership_info(topic_partition)
            if current_leader_isr_and_epoch is None:
                ctx.put_partition_state(topic_partition, NewPartition())
            elif ctx.is_replica_online(current_leader_isr_and_epoch.leader_and_isr.leader, topic_partition):
                ctx.put_partition_state(topic_partition, OnlinePartition())
            else:
                ctx.put_partition_state(topic_partition, OfflinePartition())

    @abstractmethod
    def handle_state_changes(
        self,
        partitions: Sequence[TopicPartition],
        target_state: PartitionState,
        leader_election_strategy: PartitionLeaderElectionStrategy | None = None,
    ) -> dict[TopicPartition, ElectionOutcome]:
        """Moves `partitions` to `target_state`; for OnlinePartition, returns each election's outcome (the new
        LeaderAndIsr or the exception that stopped it)."""


class ZkPartitionStateMachine(PartitionStateMachine):
    """The partition state machine of the ZooKeeper controller; see the module docstring."""

    def __init__(
        self,
        config: KafkaConfig,
        state_change_logger: StateChangeLogger,
        controller_context: ControllerContext,
        zk_client: KafkaZkClient,
        controller_broker_request_batch: AbstractControllerBrokerRequestBatch,
    ) -> None:
        super().__init__(controller_context)
        self.config = config
        self.state_change_logger = state_change_logger
        self.zk_client = zk_client
        self.controller_broker_request_batch = controller_broker_request_batch
        self.controller_id = config.broker_id
        self.log_ident = f"[PartitionStateMachine controllerId={self.controller_id}] "

    def handle_state_changes(
        self,
        partitions: Sequence[TopicPartition],
        target_state: PartitionState,
        leader_election_strategy: PartitionLeaderElectionStrategy | None = None,
    ) -> dict[TopicPartition, ElectionOutcome]:
        partitions = list(partitions)
        if not partitions:
            return {}
        try:
            self.controller_broker_request_batch.new_batch()
            result = self._do_handle_state_changes(partitions, target_state, leader_election_strategy)
            self.controller_broker_request_batch.send_requests_to_brokers(self.controller_context.epoch)
            return result
        except ControllerMovedException as e:
            self.error(f"Controller moved to another broker when moving some partitions to {target_state} state", e)
            raise
        except Exception as e:
            self.error(f"Error while moving some partitions to {target_state} state", e)
            return dict.fromkeys(partitions, e)

    def _partition_state(self, partition: TopicPartition) -> PartitionState:
        return self.controller_context.partition_state(partition)

    def _do_handle_state_changes(
        self,
        partitions: list[TopicPartition],
        target_state: PartitionState,
        leader_election_strategy: PartitionLeaderElectionStrategy | None,
    ) -> dict[TopicPartition, ElectionOutcome]:
        """Checks each transition against the valid previous states, then:

        - to NewPartition: only records the state (the assignment is already in the context);
        - NewPartition to OnlinePartition: first live replica leads, live replicas form the ISR, the state
          znode is created, LeaderAndIsr goes to the ISR and UpdateMetadata to every live broker;
        - Online/OfflinePartition to OnlinePartition: a leader is elected with the given strategy, written to
          ZooKeeper, and sent to the chosen recipients (and UpdateMetadata to every live broker);
        - to OfflinePartition or NonExistentPartition: only records the state.
        """
        ctx = self.controller_context
        state_change_log = self.state_change_logger.with_controller_epoch(ctx.epoch)
        trace_enabled = state_change_log.is_trace_enabled()
        for partition in partitions:
            ctx.put_partition_state_if_not_exists(partition, NonExistentPartition())
        valid_partitions, invalid_partitions = ctx.check_valid_partition_state_change(partitions, target_state)
        for partition in invalid_partitions:
            self._log_invalid_transition(partition, target_state)

        match target_state:
            case NewPartition():
                for partition in valid_partitions:
                    replicas = ",".join(str(r) for r in ctx.partition_replica_assignment(partition))
                    state_change_log.info(
                        f"Changed partition {partition} state from {self._partition_state(partition)} to "
                        f"{target_state} with assigned replicas {replicas}"
                    )
                    ctx.put_partition_state(partition, NewPartition())
                return {}
            case OnlinePartition():
                uninitialized_partitions = [p for p in valid_partitions if self._partition_state(p) == NewPartition()]
                partitions_to_elect_leader = [
                    p for p in valid_partitions if self._partition_state(p) in (OfflinePartition(), OnlinePartition())
                ]
                if uninitialized_partitions:
                    successful_initializations = self._initialize_leader_and_isr_for_partitions(
                        uninitialized_partitions
                    )
                    for partition in successful_initializations:
                        info = ctx.partition_leadership_info(partition)
                        assert info is not None
                        state_change_log.info(
                            f"Changed partition {partition} from {self._partition_state(partition)} to "
                            f"{target_state} with state {info.leader_and_isr}"
                        )
                        ctx.put_partition_state(partition, OnlinePartition())
                if not partitions_to_elect_leader:
                    return {}
                if leader_election_strategy is None:
                    raise ValueError("Election strategy is a required field when the target state is OnlinePartition")
                election_results = self._elect_leader_for_partitions(
                    partitions_to_elect_leader, leader_election_strategy
                )
                for partition, outcome in election_results.items():
                    if not isinstance(outcome, BaseException):
                        state_change_log.info(
                            f"Changed partition {partition} from {self._partition_state(partition)} to "
                            f"{target_state} with state {outcome}"
                        )
                        ctx.put_partition_state(partition, OnlinePartition())
                    # A failed election leaves the partition's state as it was.
                return election_results
            case OfflinePartition() | NonExistentPartition():
                for partition in valid_partitions:
                    if trace_enabled:
                        state_change_log.trace(
                            f"Changed partition {partition} state from {self._partition_state(partition)} to "
                            f"{target_state}"
                        )
                    ctx.put_partition_state(partition, target_state)
                return {}
            case _:
                raise ValueError(f"Unknown partition state {target_state}")

    def _initialize_leader_and_isr_for_partitions(self, partitions: list[TopicPartition]) -> list[TopicPartition]:
        """Creates the state znodes of new partitions; returns the partitions whose znode was created."""

        ctx = self.controller_context
        successful_initializations: list[TopicPartition] = []
        partitions_with_live_replicas: list[tuple[TopicPartition, list[int]]] = []
        for partition in partitions:
            replicas = ctx.partition_replica_assignment(partition)
            live_replicas = [r for r in replicas if ctx.is_replica_online(r, partition)]
            if not live_replicas:
                fail_msg = (
                    f"Controller {self.controller_id} epoch {ctx.epoch} encountered error during state change of "
                    f"partition {partition} from New to Online, assigned replicas are "
                    f"[{','.join(map(str, replicas))}], live brokers are [{_set_str(ctx.live_broker_ids)}]. No "
                    "assigned replica is alive."
                )
                self._log_failed_state_change(
                    partition, NewPartition(), OnlinePartition(), StateChangeFailedException(fail_msg)
                )
            else:
                partitions_with_live_replicas.append((partition, live_replicas))

        leader_isr_and_controller_epochs = {
            partition: LeaderIsrAndControllerEpoch(LeaderAndIsr.create(live_replicas[0], live_replicas), ctx.epoch)
            for partition, live_replicas in partitions_with_live_replicas
        }
        if not leader_isr_and_controller_epochs:
            return successful_initializations
        try:
            create_responses = self.zk_client.create_topic_partition_states_raw(
                leader_isr_and_controller_epochs, ctx.epoch_zk_version
            )
        except ControllerMovedException as e:
            self.error("Controller moved to another broker when trying to create the topic partition state znode", e)
            raise
        except Exception as e:
            for partition, _ in partitions_with_live_replicas:
                self._log_failed_state_change(partition, self._partition_state(partition), NewPartition(), e)
            return successful_initializations

        for create_response in create_responses:
            partition = create_response.ctx
            leader_isr_and_controller_epoch = leader_isr_and_controller_epochs[partition]
            if create_response.result_code == Code.OK:
                ctx.put_partition_leadership_info(partition, leader_isr_and_controller_epoch)
                self.controller_broker_request_batch.add_leader_and_isr_request_for_brokers(
                    leader_isr_and_controller_epoch.leader_and_isr.isr,
                    partition,
                    leader_isr_and_controller_epoch,
                    ctx.partition_full_replica_assignment(partition),
                    is_new=True,
                )
                successful_initializations.append(partition)
            else:
                self._log_failed_state_change(
                    partition, NewPartition(), OnlinePartition(), KeeperException.create(create_response.result_code)
                )
        return successful_initializations

    def _elect_leader_for_partitions(
        self, partitions: list[TopicPartition], strategy: PartitionLeaderElectionStrategy
    ) -> dict[TopicPartition, ElectionOutcome]:
        """Elects leaders, retrying the partitions whose state znode changed under us (zk version conflict)
        until none remain."""
        remaining = partitions
        finished_elections: dict[TopicPartition, ElectionOutcome] = {}
        while remaining:
            finished, updates_to_retry = self._do_elect_leader_for_partitions(remaining, strategy)
            remaining = updates_to_retry
            for partition, outcome in finished.items():
                if isinstance(outcome, BaseException):
                    self._log_failed_state_change(
                        partition, self._partition_state(partition), OnlinePartition(), outcome
                    )
            finished_elections.update(finished)
            if remaining:
                self.info(f"Retrying leader election with strategy {strategy} for partitions {_seq_str(remaining)}")
        return finished_elections

    def _do_elect_leader_for_partitions(
        self, partitions: list[TopicPartition], strategy: PartitionLeaderElectionStrategy
    ) -> tuple[dict[TopicPartition, ElectionOutcome], list[TopicPartition]]:
        """One election round: reads the state znodes, elects, writes. Returns the finished elections (new
        LeaderAndIsr or exception) and the partitions to retry after a zk version conflict."""

        ctx = self.controller_context
        try:
            get_data_responses = self.zk_client.get_topic_partition_states_raw(partitions)
        except Exception as e:
            return dict.fromkeys(partitions, e), []

        failed_elections: dict[TopicPartition, ElectionOutcome] = {}
        valid_leader_and_isrs: list[tuple[TopicPartition, LeaderAndIsr]] = []
        for get_data_response in get_data_responses:
            partition = get_data_response.ctx
            curr_state = self._partition_state(partition)
            if get_data_response.result_code == Code.OK:
                assert get_data_response.stat is not None
                leader_isr_and_controller_epoch = TopicPartitionStateZNode.decode(
                    get_data_response.data, get_data_response.stat
                )
                if leader_isr_and_controller_epoch is None:
                    failed_elections[partition] = StateChangeFailedException(
                        f"LeaderAndIsr information doesn't exist for partition {partition} in {curr_state} state"
                    )
                elif leader_isr_and_controller_epoch.controller_epoch > ctx.epoch:
                    failed_elections[partition] = StateChangeFailedException(
                        f"Aborted leader election for partition {partition} since the LeaderAndIsr path was already "
                        f"written by another controller. This probably means that the current controller "
                        f"{self.controller_id} went through a soft failure and another controller was elected with "
                        f"epoch {leader_isr_and_controller_epoch.controller_epoch}."
                    )
                else:
                    valid_leader_and_isrs.append((partition, leader_isr_and_controller_epoch.leader_and_isr))
            elif get_data_response.result_code == Code.NONODE:
                failed_elections[partition] = StateChangeFailedException(
                    f"LeaderAndIsr information doesn't exist for partition {partition} in {curr_state} state"
                )
            else:
                failed_elections[partition] = get_data_response.result_exception

        if not valid_leader_and_isrs:
            return failed_elections, []

        match strategy:
            case OfflinePartitionLeaderElectionStrategy(allow_unclean=allow_unclean):
                unclean_state = self._collect_unclean_leader_election_state(valid_leader_and_isrs, allow_unclean)
                results = election.leader_for_offline(ctx, unclean_state)
            case ReassignPartitionLeaderElectionStrategy():
                results = election.leader_for_reassign(ctx, valid_leader_and_isrs)
            case PreferredReplicaPartitionLeaderElectionStrategy():
                results = election.leader_for_preferred_replica(ctx, valid_leader_and_isrs)
            case ControlledShutdownPartitionLeaderElectionStrategy():
                results = election.leader_for_controlled_shutdown(ctx, valid_leader_and_isrs)
            case _:
                raise ValueError(f"Unknown election strategy {strategy}")
        partitions_with_leaders = [r for r in results if r.leader_and_isr is not None]
        for result in results:
            if result.leader_and_isr is None:
                failed_elections[result.topic_partition] = StateChangeFailedException(
                    f"Failed to elect leader for partition {result.topic_partition} under strategy {strategy}"
                )
        recipients_per_partition = {r.topic_partition: r.live_replicas for r in partitions_with_leaders}
        adjusted_leader_and_isrs: dict[TopicPartition, LeaderAndIsr] = {}
        for r in partitions_with_leaders:
            assert r.leader_and_isr is not None
            adjusted_leader_and_isrs[r.topic_partition] = r.leader_and_isr
        update_result = self.zk_client.update_leader_and_isr(adjusted_leader_and_isrs, ctx.epoch, ctx.epoch_zk_version)
        finished_updates: Mapping[TopicPartition, ElectionOutcome] = update_result.finished_partitions
        updates_to_retry: list[TopicPartition] = list(update_result.partitions_to_retry)
        for partition, outcome in finished_updates.items():
            if isinstance(outcome, BaseException):
                continue
            replica_assignment = ctx.partition_full_replica_assignment(partition)
            leader_isr_and_controller_epoch = LeaderIsrAndControllerEpoch(outcome, ctx.epoch)
            ctx.put_partition_leadership_info(partition, leader_isr_and_controller_epoch)
            self.controller_broker_request_batch.add_leader_and_isr_request_for_brokers(
                recipients_per_partition[partition],
                partition,
                leader_isr_and_controller_epoch,
                replica_assignment,
                is_new=False,
            )

        if self.is_debug_enabled():
            for partition in updates_to_retry:
                self.debug(
                    f"Controller failed to elect leader for partition {partition}. Attempted to write state "
                    f"{adjusted_leader_and_isrs[partition]}, but failed with bad ZK version. This will be retried."
                )
        return {**finished_updates, **failed_elections}, updates_to_retry

    def _collect_unclean_leader_election_state(
        self, leader_and_isrs: list[tuple[TopicPartition, LeaderAndIsr]], allow_unclean: bool
    ) -> list[tuple[TopicPartition, LeaderAndIsr | None, bool]]:
        """Decides per partition whether unclean election may be used: only for partitions without a live
        in-sync replica, and only when `allow_unclean` or the topic's `unclean.leader.election.enable` says so.
        A partition whose topic config cannot be read gets no election (None)."""
        ctx = self.controller_context
        without_live_isr: list[tuple[TopicPartition, LeaderAndIsr]] = []
        with_live_isr: list[tuple[TopicPartition, LeaderAndIsr]] = []
        for partition, leader_and_isr in leader_and_isrs:
            live_in_sync_replicas = [r for r in leader_and_isr.isr if ctx.is_replica_online(r, partition)]
            (with_live_isr if live_in_sync_replicas else without_live_isr).append((partition, leader_and_isr))

        result: list[tuple[TopicPartition, LeaderAndIsr | None, bool]] = []
        if allow_unclean:
            result.extend((partition, leader_and_isr, True) for partition, leader_and_isr in without_live_isr)
        elif without_live_isr:
            log_configs, failed = self.zk_client.get_log_configs(
                {partition.topic for partition, _ in without_live_isr}, self.config.originals()
            )
            for partition, leader_and_isr in without_live_isr:
                if partition.topic in failed:
                    self._log_failed_state_change(
                        partition, self._partition_state(partition), OnlinePartition(), failed[partition.topic]
                    )
                    result.append((partition, None, False))
                else:
                    unclean = bool(log_configs[partition.topic].unclean_leader_election_enable)
                    result.append((partition, leader_and_isr, unclean))
        result.extend((partition, leader_and_isr, False) for partition, leader_and_isr in with_live_isr)
        return result

    def _log_invalid_transition(self, partition: TopicPartition, target_state: PartitionState) -> None:
        curr_state = self._partition_state(partition)
        previous = ",".join(str(s) for s in _sorted_states(target_state.valid_previous_states))
        e = RuntimeError(
            f"Partition {partition} should be in one of {previous} states before moving to {target_state} state. "
            f"Instead it is in {curr_state} state"
        )
        self._log_failed_state_change(partition, curr_state, target_state, e)

    def _log_failed_state_change(
        self, partition: TopicPartition, curr_state: PartitionState, target_state: PartitionState, t: BaseException
    ) -> None:
        epoch = self.controller_context.epoch
        self.state_change_logger.with_controller_epoch(epoch).error(
            f"Controller {self.controller_id} epoch {epoch} failed to change state for partition {partition} from "
            f"{curr_state} to {target_state}",
            t,
        )


def _sorted_states(states: Iterable[PartitionState]) -> list[PartitionState]:
    return sorted(states, key=lambda s: s.state)


def _set_str(values: Iterable[int]) -> str:
    """Scala's Set toString."""
    return f"Set({', '.join(str(v) for v in sorted(values))})"


def _seq_str(values: Iterable[Any]) -> str:
    """Scala's Seq toString (an ArrayBuffer prints the same way)."""
    return f"ArrayBuffer({', '.join(str(v) for v in values)})"
