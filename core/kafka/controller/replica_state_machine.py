"""Port of core/src/main/scala/kafka/controller/ReplicaStateMachine.scala (Kafka 2.8).

The controller's state machine for replicas (one per partition and broker). The states and where they may be
entered from:

- NewReplica: created by a reassignment; it can only become a follower (from NonExistentReplica);
- OnlineReplica: part of the assignment and started; it may lead or follow (from NewReplica, OnlineReplica,
  OfflineReplica, ReplicaDeletionIneligible);
- OfflineReplica: its broker is down (from NewReplica, OnlineReplica, OfflineReplica, ReplicaDeletionIneligible);
- ReplicaDeletionStarted: deletion begun (from OfflineReplica);
- ReplicaDeletionSuccessful: the broker confirmed the deletion (from ReplicaDeletionStarted);
- ReplicaDeletionIneligible: deletion failed or cannot proceed (from OfflineReplica, ReplicaDeletionStarted);
- NonExistentReplica: deleted (from ReplicaDeletionSuccessful).

Going offline removes the replica from the ISR in ZooKeeper (the leader becomes -1 if it was the leader) and
sends StopReplica to it and LeaderAndIsr with the shrunk ISR to the other replicas.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.common.errors import ControllerMovedException
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_context import PartitionAndReplica
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.controller.partition_state_machine import StateChangeFailedException
from kafka.utils.logging import Logging
from kafka.zk.zk_data import TopicPartitionStateZNode
from kafka.zookeeper.zookeeper_types import Code

if TYPE_CHECKING:
    from kafka.controller.controller_channel_manager import AbstractControllerBrokerRequestBatch
    from kafka.controller.controller_context import ControllerContext
    from kafka.controller.state_change_logger import StateChangeLogger
    from kafka.server.kafka_config import KafkaConfig
    from kafka.zk.kafka_zk_client import KafkaZkClient


# -- states ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class ReplicaState:
    """A replica's state in the controller; each state knows the states it may be entered from."""

    state: ClassVar[int] = -1

    @property
    def valid_previous_states(self) -> frozenset[ReplicaState]:
        return _VALID_PREVIOUS_REPLICA_STATES[type(self)]

    def __str__(self) -> str:
        return type(self).__name__

    __repr__ = __str__


@dataclass(frozen=True, slots=True, repr=False)
class NewReplica(ReplicaState):
    state: ClassVar[int] = 1


@dataclass(frozen=True, slots=True, repr=False)
class OnlineReplica(ReplicaState):
    state: ClassVar[int] = 2


@dataclass(frozen=True, slots=True, repr=False)
class OfflineReplica(ReplicaState):
    state: ClassVar[int] = 3


@dataclass(frozen=True, slots=True, repr=False)
class ReplicaDeletionStarted(ReplicaState):
    state: ClassVar[int] = 4


@dataclass(frozen=True, slots=True, repr=False)
class ReplicaDeletionSuccessful(ReplicaState):
    state: ClassVar[int] = 5


@dataclass(frozen=True, slots=True, repr=False)
class ReplicaDeletionIneligible(ReplicaState):
    state: ClassVar[int] = 6


@dataclass(frozen=True, slots=True, repr=False)
class NonExistentReplica(ReplicaState):
    state: ClassVar[int] = 7


_VALID_PREVIOUS_REPLICA_STATES: dict[type[ReplicaState], frozenset[ReplicaState]] = {
    NewReplica: frozenset({NonExistentReplica()}),
    OnlineReplica: frozenset({NewReplica(), OnlineReplica(), OfflineReplica(), ReplicaDeletionIneligible()}),
    OfflineReplica: frozenset({NewReplica(), OnlineReplica(), OfflineReplica(), ReplicaDeletionIneligible()}),
    ReplicaDeletionStarted: frozenset({OfflineReplica()}),
    ReplicaDeletionSuccessful: frozenset({ReplicaDeletionStarted()}),
    ReplicaDeletionIneligible: frozenset({OfflineReplica(), ReplicaDeletionStarted()}),
    NonExistentReplica: frozenset({ReplicaDeletionSuccessful()}),
}


# -- the state machine -----------------------------------------------------------------------------------------------


class ReplicaStateMachine(Logging, ABC):
    """The replica state machine's entry points; ZkReplicaStateMachine implements the transitions."""

    logger_name = "kafka.controller.ReplicaStateMachine"

    def __init__(self, controller_context: ControllerContext) -> None:
        self.controller_context = controller_context

    def startup(self) -> None:
        """On becoming controller: sets every replica's initial state, then moves replicas on live brokers
        online and the others offline."""
        self.info("Initializing replica state")
        self._initialize_replica_state()
        self.info("Triggering online replica state changes")
        online_replicas, offline_replicas = self.controller_context.online_and_offline_replicas()
        self.handle_state_changes(list(online_replicas), OnlineReplica())
        self.info("Triggering offline replica state changes")
        self.handle_state_changes(list(offline_replicas), OfflineReplica())
        if self.is_debug_enabled():
            self.debug(f"Started replica state machine with initial state -> {self.controller_context.replica_states}")

    def shutdown(self) -> None:
        self.info("Stopped replica state machine")

    def _initialize_replica_state(self) -> None:
        ctx = self.controller_context
        for partition in ctx.all_partitions:
            for replica_id in ctx.partition_replica_assignment(partition):
                partition_and_replica = PartitionAndReplica(partition, replica_id)
                if ctx.is_replica_online(replica_id, partition):
                    ctx.put_replica_state(partition_and_replica, OnlineReplica())
                else:
                    # A broker may have died during failover; its replicas are marked ineligible for deletion
                    # so that a pending topic deletion does not wait on them.
                    ctx.put_replica_state(partition_and_replica, ReplicaDeletionIneligible())

    @abstractmethod
    def handle_state_changes(self, replicas: Sequence[PartitionAndReplica], target_state: ReplicaState) -> None:
        """Moves `replicas` to `target_state`, sending the requests the transitions call for."""


class ZkReplicaStateMachine(ReplicaStateMachine):
    """The replica state machine of the ZooKeeper controller; see the module docstring."""

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
        self.log_ident = f"[ReplicaStateMachine controllerId={self.controller_id}] "

    def handle_state_changes(self, replicas: Sequence[PartitionAndReplica], target_state: ReplicaState) -> None:
        if not replicas:
            return
        try:
            self.controller_broker_request_batch.new_batch()
            by_replica: dict[int, list[PartitionAndReplica]] = {}
            for replica in replicas:
                by_replica.setdefault(replica.replica, []).append(replica)
            for replica_id, replicas_of_broker in by_replica.items():
                self._do_handle_state_changes(replica_id, replicas_of_broker, target_state)
            self.controller_broker_request_batch.send_requests_to_brokers(self.controller_context.epoch)
        except ControllerMovedException as e:
            self.error(f"Controller moved to another broker when moving some replicas to {target_state} state", e)
            raise
        except Exception as e:
            self.error(f"Error while moving some replicas to {target_state} state", e)

    def _do_handle_state_changes(
        self, replica_id: int, replicas: list[PartitionAndReplica], target_state: ReplicaState
    ) -> None:
        """The transitions of the replicas on one broker:

        - to NewReplica: LeaderAndIsr with the current leader and ISR to the new replica (it may not lead);
        - NewReplica to OnlineReplica: adds it to the assignment if missing;
        - Online/OfflineReplica to OnlineReplica: LeaderAndIsr with the current leader and ISR to it;
        - to OfflineReplica: StopReplica (no delete) to it, removal from the ISR in ZooKeeper, LeaderAndIsr with
          the new ISR to the remaining replicas (UpdateMetadata only, for partitions without a leader yet);
        - OfflineReplica to ReplicaDeletionStarted: StopReplica with delete;
        - to ReplicaDeletionSuccessful/Ineligible: only the state;
        - ReplicaDeletionSuccessful to NonExistentReplica: the replica leaves the assignment and the machine.
        """
        ctx = self.controller_context
        batch = self.controller_broker_request_batch
        state_logger = self.state_change_logger.with_controller_epoch(ctx.epoch)
        trace_enabled = state_logger.is_trace_enabled()
        for replica in replicas:
            ctx.put_replica_state_if_not_exists(replica, NonExistentReplica())
        valid_replicas, invalid_replicas = ctx.check_valid_replica_state_change(replicas, target_state)
        for replica in invalid_replicas:
            self._log_invalid_transition(replica, target_state)

        match target_state:
            case NewReplica():
                for replica in valid_replicas:
                    partition = replica.topic_partition
                    current_state = ctx.replica_state(replica)
                    leader_isr_and_controller_epoch = ctx.partition_leadership_info(partition)
                    if leader_isr_and_controller_epoch is not None:
                        if leader_isr_and_controller_epoch.leader_and_isr.leader == replica_id:
                            exception = StateChangeFailedException(
                                f"Replica {replica_id} for partition {partition} cannot be moved to NewReplica state "
                                "as it is being requested to become leader"
                            )
                            self._log_failed_state_change(replica, current_state, OfflineReplica(), exception)
                            continue
                        batch.add_leader_and_isr_request_for_brokers(
                            [replica_id],
                            partition,
                            leader_isr_and_controller_epoch,
                            ctx.partition_full_replica_assignment(partition),
                            is_new=True,
                        )
                    if trace_enabled:
                        self._log_successful_transition(
                            state_logger, replica_id, partition, current_state, target_state
                        )
                    ctx.put_replica_state(replica, NewReplica())
            case OnlineReplica():
                for replica in valid_replicas:
                    partition = replica.topic_partition
                    current_state = ctx.replica_state(replica)
                    if current_state == NewReplica():
                        assignment = ctx.partition_full_replica_assignment(partition)
                        if replica_id not in assignment.replicas:
                            self.error(f"Adding replica ({replica_id}) that is not part of the assignment {assignment}")
                            new_assignment = dataclasses.replace(
                                assignment, replicas=(*assignment.replicas, replica_id)
                            )
                            ctx.update_partition_full_replica_assignment(partition, new_assignment)
                    else:
                        leader_isr_and_controller_epoch = ctx.partition_leadership_info(partition)
                        if leader_isr_and_controller_epoch is not None:
                            batch.add_leader_and_isr_request_for_brokers(
                                [replica_id],
                                partition,
                                leader_isr_and_controller_epoch,
                                ctx.partition_full_replica_assignment(partition),
                                is_new=False,
                            )
                    if trace_enabled:
                        self._log_successful_transition(
                            state_logger, replica_id, partition, current_state, target_state
                        )
                    ctx.put_replica_state(replica, OnlineReplica())
            case OfflineReplica():
                for replica in valid_replicas:
                    batch.add_stop_replica_request_for_brokers(
                        [replica_id], replica.topic_partition, delete_partition=False
                    )
                with_leadership_info = [r for r in valid_replicas if ctx.partition_leadership_info(r.topic_partition)]
                without_leadership_info = [
                    r for r in valid_replicas if ctx.partition_leadership_info(r.topic_partition) is None
                ]
                updated_leader_isr_and_controller_epochs = self._remove_replicas_from_isr(
                    replica_id, [r.topic_partition for r in with_leadership_info]
                )
                for partition, leader_isr_and_controller_epoch in updated_leader_isr_and_controller_epochs.items():
                    state_logger.info(
                        f"Partition {partition} state changed to {leader_isr_and_controller_epoch} after removing "
                        f"replica {replica_id} from the ISR as part of transition to {OfflineReplica()}"
                    )
                    if not ctx.is_topic_queued_up_for_deletion(partition.topic):
                        recipients = [r for r in ctx.partition_replica_assignment(partition) if r != replica_id]
                        batch.add_leader_and_isr_request_for_brokers(
                            recipients,
                            partition,
                            leader_isr_and_controller_epoch,
                            ctx.partition_full_replica_assignment(partition),
                            is_new=False,
                        )
                    replica = PartitionAndReplica(partition, replica_id)
                    current_state = ctx.replica_state(replica)
                    if trace_enabled:
                        self._log_successful_transition(
                            state_logger, replica_id, partition, current_state, target_state
                        )
                    ctx.put_replica_state(replica, OfflineReplica())
                for replica in without_leadership_info:
                    current_state = ctx.replica_state(replica)
                    if trace_enabled:
                        self._log_successful_transition(
                            state_logger, replica_id, replica.topic_partition, current_state, target_state
                        )
                    batch.add_update_metadata_request_for_brokers(
                        ctx.live_or_shutting_down_broker_ids, {replica.topic_partition}
                    )
                    ctx.put_replica_state(replica, OfflineReplica())
            case ReplicaDeletionStarted():
                for replica in valid_replicas:
                    current_state = ctx.replica_state(replica)
                    if trace_enabled:
                        self._log_successful_transition(
                            state_logger, replica_id, replica.topic_partition, current_state, target_state
                        )
                    ctx.put_replica_state(replica, ReplicaDeletionStarted())
                    batch.add_stop_replica_request_for_brokers(
                        [replica_id], replica.topic_partition, delete_partition=True
                    )
            case ReplicaDeletionIneligible() | ReplicaDeletionSuccessful():
                for replica in valid_replicas:
                    current_state = ctx.replica_state(replica)
                    if trace_enabled:
                        self._log_successful_transition(
                            state_logger, replica_id, replica.topic_partition, current_state, target_state
                        )
                    ctx.put_replica_state(replica, target_state)
            case NonExistentReplica():
                for replica in valid_replicas:
                    current_state = ctx.replica_state(replica)
                    new_assigned_replicas = ctx.partition_full_replica_assignment(
                        replica.topic_partition
                    ).remove_replica(replica.replica)
                    ctx.update_partition_full_replica_assignment(replica.topic_partition, new_assigned_replicas)
                    if trace_enabled:
                        self._log_successful_transition(
                            state_logger, replica_id, replica.topic_partition, current_state, target_state
                        )
                    ctx.remove_replica_state(replica)
            case _:
                raise ValueError(f"Unknown replica state {target_state}")

    def _remove_replicas_from_isr(
        self, replica_id: int, partitions: list[TopicPartition]
    ) -> dict[TopicPartition, LeaderIsrAndControllerEpoch]:
        """Removes `replica_id` from the ISR of `partitions`, retrying zk version conflicts until none remain;
        returns the new leader/ISR of every partition where that worked."""
        results: dict[TopicPartition, LeaderIsrAndControllerEpoch] = {}
        remaining = partitions
        while remaining:
            finished_removal, removals_to_retry = self._do_remove_replicas_from_isr(replica_id, remaining)
            remaining = removals_to_retry
            for partition, outcome in finished_removal.items():
                if isinstance(outcome, BaseException):
                    replica = PartitionAndReplica(partition, replica_id)
                    current_state = self.controller_context.replica_state(replica)
                    self._log_failed_state_change(replica, current_state, OfflineReplica(), outcome)
                else:
                    results[partition] = outcome
        return results

    def _do_remove_replicas_from_isr(
        self, replica_id: int, partitions: list[TopicPartition]
    ) -> tuple[dict[TopicPartition, Any], list[TopicPartition]]:
        """One round of ISR removal. Returns per partition the new LeaderIsrAndControllerEpoch (or the exception
        that stopped it), and the partitions to retry after a zk version conflict. The last ISR member stays in
        the ISR; a leader being removed leaves the partition with leader -1."""

        ctx = self.controller_context
        leader_and_isrs, partitions_with_no_leader_and_isr_in_zk = self._get_topic_partition_states_from_zk(partitions)
        with_replica: dict[TopicPartition, LeaderAndIsr] = {}
        without_replica: dict[TopicPartition, Any] = {}
        for partition, result in leader_and_isrs.items():
            if not isinstance(result, BaseException) and replica_id in result.isr:
                with_replica[partition] = result
            else:
                without_replica[partition] = result

        adjusted_leader_and_isrs: dict[TopicPartition, LeaderAndIsr] = {}
        for partition, leader_and_isr in with_replica.items():
            new_leader = LeaderAndIsr.NO_LEADER if replica_id == leader_and_isr.leader else leader_and_isr.leader
            if len(leader_and_isr.isr) == 1:
                adjusted_isr = list(leader_and_isr.isr)
            else:
                adjusted_isr = [r for r in leader_and_isr.isr if r != replica_id]
            adjusted_leader_and_isrs[partition] = leader_and_isr.new_leader_and_isr(new_leader, adjusted_isr)

        update_result = self.zk_client.update_leader_and_isr(adjusted_leader_and_isrs, ctx.epoch, ctx.epoch_zk_version)
        finished_partitions = update_result.finished_partitions
        updates_to_retry = list(update_result.partitions_to_retry)

        exceptions_for_partitions_with_no_leader_and_isr_in_zk: dict[TopicPartition, Any] = {}
        for partition in partitions_with_no_leader_and_isr_in_zk:
            if not ctx.is_topic_queued_up_for_deletion(partition.topic):
                exceptions_for_partitions_with_no_leader_and_isr_in_zk[partition] = StateChangeFailedException(
                    f"Failed to change state of replica {replica_id} for partition {partition} since the leader and "
                    "isr path in zookeeper is empty"
                )

        leader_isr_and_controller_epochs: dict[TopicPartition, Any] = {}
        for partition, result in {**without_replica, **finished_partitions}.items():
            if isinstance(result, BaseException):
                leader_isr_and_controller_epochs[partition] = result
            else:
                leader_isr_and_controller_epoch = LeaderIsrAndControllerEpoch(result, ctx.epoch)
                ctx.put_partition_leadership_info(partition, leader_isr_and_controller_epoch)
                leader_isr_and_controller_epochs[partition] = leader_isr_and_controller_epoch

        if self.is_debug_enabled():
            for partition in updates_to_retry:
                self.debug(
                    f"Controller failed to remove replica {replica_id} from ISR of partition {partition}. Attempted "
                    f"to write state {adjusted_leader_and_isrs[partition]}, but failed with bad ZK version. This "
                    "will be retried."
                )
        return {**leader_isr_and_controller_epochs, **exceptions_for_partitions_with_no_leader_and_isr_in_zk}, (
            updates_to_retry
        )

    def _get_topic_partition_states_from_zk(
        self, partitions: list[TopicPartition]
    ) -> tuple[dict[TopicPartition, Any], list[TopicPartition]]:
        """The LeaderAndIsr of each partition from its state znode (or the exception that stopped the read, or a
        StateChangeFailedException if a newer controller wrote it), and the partitions without a state znode
        (the controller did not finish creating them)."""

        ctx = self.controller_context
        try:
            get_data_responses = self.zk_client.get_topic_partition_states_raw(partitions)
        except Exception as e:
            return dict.fromkeys(partitions, e), []

        partitions_with_no_leader_and_isr_in_zk: list[TopicPartition] = []
        result: dict[TopicPartition, Any] = {}
        for get_data_response in get_data_responses:
            partition = get_data_response.ctx
            if get_data_response.result_code == Code.OK:
                assert get_data_response.stat is not None
                leader_isr_and_controller_epoch = TopicPartitionStateZNode.decode(
                    get_data_response.data, get_data_response.stat
                )
                if leader_isr_and_controller_epoch is None:
                    partitions_with_no_leader_and_isr_in_zk.append(partition)
                elif leader_isr_and_controller_epoch.controller_epoch > ctx.epoch:
                    result[partition] = StateChangeFailedException(
                        "Leader and isr path written by another controller. This probably means the current "
                        f"controller with epoch {ctx.epoch} went through a soft failure and another controller was "
                        f"elected with epoch {leader_isr_and_controller_epoch.controller_epoch}. Aborting state "
                        "change by this controller"
                    )
                else:
                    result[partition] = leader_isr_and_controller_epoch.leader_and_isr
            elif get_data_response.result_code == Code.NONODE:
                partitions_with_no_leader_and_isr_in_zk.append(partition)
            else:
                result[partition] = get_data_response.result_exception
        return result, partitions_with_no_leader_and_isr_in_zk

    @staticmethod
    def _log_successful_transition(
        logger: StateChangeLogger,
        replica_id: int,
        partition: TopicPartition,
        curr_state: ReplicaState,
        target_state: ReplicaState,
    ) -> None:
        logger.trace(
            f"Changed state of replica {replica_id} for partition {partition} from {curr_state} to {target_state}"
        )

    def _log_invalid_transition(self, replica: PartitionAndReplica, target_state: ReplicaState) -> None:
        curr_state = self.controller_context.replica_state(replica)
        previous = ",".join(str(s) for s in _sorted_states(target_state.valid_previous_states))
        e = RuntimeError(
            f"Replica {replica} should be in the {previous} states before moving to {target_state} state. Instead "
            f"it is in {curr_state} state"
        )
        self._log_failed_state_change(replica, curr_state, target_state, e)

    def _log_failed_state_change(
        self, replica: PartitionAndReplica, curr_state: ReplicaState, target_state: ReplicaState, t: BaseException
    ) -> None:
        epoch = self.controller_context.epoch
        self.state_change_logger.with_controller_epoch(epoch).error(
            f"Controller {self.controller_id} epoch {epoch} initiated state change of replica {replica.replica} for "
            f"partition {replica.topic_partition} from {curr_state} to {target_state} failed",
            t,
        )


def _sorted_states(states: Iterable[ReplicaState]) -> list[ReplicaState]:
    return sorted(states, key=lambda s: s.state)
