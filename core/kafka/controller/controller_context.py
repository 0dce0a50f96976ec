"""Port of core/src/main/scala/kafka/controller/ControllerContext.scala (Kafka 2.8).

The controller's picture of the cluster, read from ZooKeeper at failover and kept current by the event
thread (it is not thread-safe; only `controller-event-thread` touches it): live brokers and their epochs,
topics and topic ids, each partition's replica assignment (with replicas being added or removed by a
reassignment), the leader/ISR last written for each partition, the state machines' partition and replica
states, and the topics queued for deletion. It also keeps the offline-partition and preferred-replica-imbalance
counts that the controller's gauges report.

# PORT: PartitionAndReplica, ControllerStats and the initial controller epoch constants are defined in
KafkaController.scala; they live here so that the state machines need not import the controller module.
ReplicaAssignment, defined in this Scala file, is defined in kafka.zk.zk_data (which decodes it from the topic
znodes, and which the controller's modules import, so it cannot import this one) and re-exported here, so that
there is a single class.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.cluster.broker import Broker
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_state import ControllerState
from kafka.controller.partition_state_machine import NonExistentPartition, OfflinePartition, PartitionState
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer import Meter, Timer
from kafka.utils.time_unit import TimeUnit
from kafka.zk.zk_data import ReplicaAssignment

if TYPE_CHECKING:
    from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
    from kafka.controller.replica_state_machine import ReplicaState

INITIAL_CONTROLLER_EPOCH = 0
INITIAL_CONTROLLER_EPOCH_ZK_VERSION = 0


@dataclass(frozen=True, slots=True)
class PartitionAndReplica:
    """One replica of one partition: the key of the replica state machine."""

    topic_partition: TopicPartition
    replica: int

    @property
    def topic(self) -> str:
        return self.topic_partition.topic

    @property
    def partition(self) -> int:
        return self.topic_partition.partition

    def __str__(self) -> str:
        return f"[Topic={self.topic},Partition={self.partition},Replica={self.replica}]"


class ControllerStats(KafkaMetricsGroup):
    """The controller's meters and timers (kafka.controller:type=ControllerStats): UncleanLeaderElectionsPerSec and
    one rate-and-time timer per controller state that has one (LeaderElectionRateAndTimeMs for BrokerChange,
    TopicChangeRateAndTimeMs, ...)."""

    metrics_group = "kafka.controller"
    metrics_type_name = "ControllerStats"

    def __init__(self) -> None:
        self.unclean_leader_election_rate: Meter = self.new_meter(
            "UncleanLeaderElectionsPerSec", "elections", TimeUnit.SECONDS
        )
        self.rate_and_time_metrics: dict[ControllerState, Timer] = {}
        for state in ControllerState.values():
            metric_name = state.rate_and_time_metric_name
            if metric_name is not None:
                self.rate_and_time_metrics[state] = self.new_timer(metric_name, TimeUnit.MILLISECONDS, TimeUnit.SECONDS)


class ControllerContext:
    """The controller's cache of cluster state; see the module docstring. Not thread-safe."""

    def __init__(self) -> None:
        self.stats = ControllerStats()
        self.offline_partition_count = 0
        self.preferred_replica_imbalance_count = 0
        self.shutting_down_broker_ids: set[int] = set()
        self._live_brokers: set[Broker] = set()
        self._live_broker_epochs: dict[int, int] = {}
        self.epoch: int = INITIAL_CONTROLLER_EPOCH
        self.epoch_zk_version: int = INITIAL_CONTROLLER_EPOCH_ZK_VERSION

        self.all_topics: set[str] = set()
        self.topic_ids: dict[str, Any] = {}
        self.topic_names: dict[Any, str] = {}
        self.partition_assignments: dict[str, dict[int, ReplicaAssignment]] = {}
        self._partition_leadership_info: dict[TopicPartition, LeaderIsrAndControllerEpoch] = {}
        self.partitions_being_reassigned: set[TopicPartition] = set()
        self.partition_states: dict[TopicPartition, PartitionState] = {}
        self.replica_states: dict[PartitionAndReplica, ReplicaState] = {}
        self.replicas_on_offline_dirs: dict[int, set[TopicPartition]] = {}

        self.topics_to_be_deleted: set[str] = set()
        # Topics whose deletion has actually begun (their partitions were moved to NonExistentPartition). Only
        # from then on are their partition state changes left out of the offline partition count; a queued
        # topic may still wait (e.g. behind a reassignment) and its partitions still go on- and offline.
        self.topics_with_deletion_started: set[str] = set()
        self.topics_ineligible_for_deletion: set[str] = set()

    def _clear_topics_state(self) -> None:
        self.all_topics.clear()
        self.topic_ids.clear()
        self.topic_names.clear()
        self.partition_assignments.clear()
        self._partition_leadership_info.clear()
        self.partitions_being_reassigned.clear()
        self.replicas_on_offline_dirs.clear()
        self.partition_states.clear()
        self.offline_partition_count = 0
        self.preferred_replica_imbalance_count = 0
        self.replica_states.clear()

    def add_topic_id(self, topic: str, id_: Any) -> None:
        if topic not in self.all_topics:
            raise RuntimeError(f"topic {topic} is not contained in all topics.")
        existing_id = self.topic_ids.get(topic)
        if existing_id is not None and existing_id != id_:
            raise RuntimeError(
                f"topic ID map already contained ID for topic {topic} and new ID {id_} did not match existing ID "
                f"{existing_id}"
            )
        existing_name = self.topic_names.get(id_)
        if existing_name is not None and existing_name != topic:
            raise RuntimeError(
                f"topic name map already contained ID {id_} and new name {topic} did not match existing name "
                f"{existing_name}"
            )
        self.topic_ids[topic] = id_
        self.topic_names[id_] = topic

    # -- assignments --------------------------------------------------------------------------------------------

    def partition_replica_assignment(self, topic_partition: TopicPartition) -> tuple[int, ...]:
        assignment = self.partition_assignments.get(topic_partition.topic, {}).get(topic_partition.partition)
        return () if assignment is None else tuple(assignment.replicas)

    def partition_full_replica_assignment(self, topic_partition: TopicPartition) -> ReplicaAssignment:
        assignment = self.partition_assignments.get(topic_partition.topic, {}).get(topic_partition.partition)
        return ReplicaAssignment.EMPTY if assignment is None else assignment

    def update_partition_full_replica_assignment(
        self, topic_partition: TopicPartition, new_assignment: ReplicaAssignment
    ) -> None:
        assignments = self.partition_assignments.setdefault(topic_partition.topic, {})
        previous = assignments.get(topic_partition.partition)
        assignments[topic_partition.partition] = new_assignment
        leadership_info = self._partition_leadership_info.get(topic_partition)
        self._update_preferred_replica_imbalance_metric(
            topic_partition, previous, leadership_info, new_assignment, leadership_info
        )

    def partition_replica_assignment_for_topic(self, topic: str) -> dict[TopicPartition, tuple[int, ...]]:
        return {
            TopicPartition(topic, p): tuple(a.replicas) for p, a in self.partition_assignments.get(topic, {}).items()
        }

    def partition_full_replica_assignment_for_topic(self, topic: str) -> dict[TopicPartition, ReplicaAssignment]:
        return {TopicPartition(topic, p): a for p, a in self.partition_assignments.get(topic, {}).items()}

    @property
    def all_partitions(self) -> set[TopicPartition]:
        return {
            TopicPartition(topic, partition)
            for topic, assignments in self.partition_assignments.items()
            for partition in assignments
        }

    # -- brokers ------------------------------------------------------------------------------------------------

    def set_live_brokers(self, broker_and_epochs: Mapping[Broker, int]) -> None:
        self._clear_live_brokers()
        self.add_live_brokers(broker_and_epochs)

    def _clear_live_brokers(self) -> None:
        self._live_brokers.clear()
        self._live_broker_epochs.clear()

    def add_live_brokers(self, broker_and_epochs: Mapping[Broker, int]) -> None:
        self._live_brokers.update(broker_and_epochs.keys())
        for broker, broker_epoch in broker_and_epochs.items():
            self._live_broker_epochs[broker.id] = broker_epoch

    def remove_live_brokers(self, broker_ids: Iterable[int]) -> None:
        ids = set(broker_ids)
        self._live_brokers = {b for b in self._live_brokers if b.id not in ids}
        for broker_id in ids:
            self._live_broker_epochs.pop(broker_id, None)

    def update_broker_metadata(self, old_metadata: Broker, new_metadata: Broker) -> None:
        self._live_brokers.discard(old_metadata)
        self._live_brokers.add(new_metadata)

    @property
    def live_broker_ids(self) -> set[int]:
        return set(self._live_broker_epochs) - self.shutting_down_broker_ids

    @property
    def live_or_shutting_down_broker_ids(self) -> set[int]:
        return set(self._live_broker_epochs)

    @property
    def live_or_shutting_down_brokers(self) -> set[Broker]:
        return set(self._live_brokers)

    @property
    def live_broker_id_and_epochs(self) -> dict[int, int]:
        return dict(self._live_broker_epochs)

    def live_or_shutting_down_broker(self, broker_id: int) -> Broker | None:
        for broker in self._live_brokers:
            if broker.id == broker_id:
                return broker
        return None

    def partitions_on_broker(self, broker_id: int) -> set[TopicPartition]:
        return {
            TopicPartition(topic, partition)
            for topic, assignments in self.partition_assignments.items()
            for partition, assignment in assignments.items()
            if broker_id in assignment.replicas
        }

    def is_replica_online(
        self, broker_id: int, topic_partition: TopicPartition, include_shutting_down_brokers: bool = False
    ) -> bool:
        if include_shutting_down_brokers:
            broker_online = broker_id in self._live_broker_epochs
        else:
            broker_online = broker_id in self._live_broker_epochs and broker_id not in self.shutting_down_broker_ids
        return broker_online and topic_partition not in self.replicas_on_offline_dirs.get(broker_id, ())

    def replicas_on_brokers(self, broker_ids: Iterable[int]) -> set[PartitionAndReplica]:
        ids = set(broker_ids)
        return {
            PartitionAndReplica(TopicPartition(topic, partition), broker_id)
            for topic, assignments in self.partition_assignments.items()
            for partition, assignment in assignments.items()
            for broker_id in assignment.replicas
            if broker_id in ids
        }

    def replicas_for_topic(self, topic: str) -> set[PartitionAndReplica]:
        return {
            PartitionAndReplica(TopicPartition(topic, partition), replica)
            for partition, assignment in self.partition_assignments.get(topic, {}).items()
            for replica in assignment.replicas
        }

    def partitions_for_topic(self, topic: str) -> set[TopicPartition]:
        return {TopicPartition(topic, partition) for partition in self.partition_assignments.get(topic, {})}

    def online_and_offline_replicas(self) -> tuple[set[PartitionAndReplica], set[PartitionAndReplica]]:
        """Every replica of every partition, split into those on live brokers (and online dirs) and the rest."""
        online_replicas: set[PartitionAndReplica] = set()
        offline_replicas: set[PartitionAndReplica] = set()
        for topic, assignments in self.partition_assignments.items():
            for partition_id, assignment in assignments.items():
                partition = TopicPartition(topic, partition_id)
                for replica in assignment.replicas:
                    partition_and_replica = PartitionAndReplica(partition, replica)
                    if self.is_replica_online(replica, partition):
                        online_replicas.add(partition_and_replica)
                    else:
                        offline_replicas.add(partition_and_replica)
        return online_replicas, offline_replicas

    def replicas_for_partition(self, partitions: Iterable[TopicPartition]) -> set[PartitionAndReplica]:
        return {PartitionAndReplica(p, r) for p in partitions for r in self.partition_replica_assignment(p)}

    def reset_context(self) -> None:
        self.topics_to_be_deleted.clear()
        self.topics_with_deletion_started.clear()
        self.topics_ineligible_for_deletion.clear()
        self.shutting_down_broker_ids.clear()
        self.epoch = 0
        self.epoch_zk_version = 0
        self._clear_topics_state()
        self._clear_live_brokers()

    # -- topics and deletion --------------------------------------------------------------------------------------

    def set_all_topics(self, topics: Iterable[str]) -> None:
        self.all_topics.clear()
        self.all_topics.update(topics)

    def remove_topic(self, topic: str) -> None:
        # A topic queued for deletion had its imbalance count removed when it was queued; only a topic removed
        # directly still needs that.
        if topic not in self.topics_to_be_deleted:
            self._clean_preferred_replica_imbalance_metric(topic)
        self.topics_to_be_deleted.discard(topic)
        self.topics_with_deletion_started.discard(topic)
        self.all_topics.discard(topic)
        topic_id = self.topic_ids.pop(topic, None)
        if topic_id is not None:
            self.topic_names.pop(topic_id, None)
        assignments = self.partition_assignments.pop(topic, None)
        if assignments is not None:
            for partition in assignments:
                self._partition_leadership_info.pop(TopicPartition(topic, partition), None)

    def queue_topic_deletion(self, topics: Iterable[str]) -> None:
        topics = set(topics)
        self.topics_to_be_deleted.update(topics)
        for topic in topics:
            self._clean_preferred_replica_imbalance_metric(topic)

    def begin_topic_deletion(self, topics: Iterable[str]) -> None:
        self.topics_with_deletion_started.update(topics)

    def is_topic_deletion_in_progress(self, topic: str) -> bool:
        return topic in self.topics_with_deletion_started

    def is_topic_queued_up_for_deletion(self, topic: str) -> bool:
        return topic in self.topics_to_be_deleted

    def is_topic_eligible_for_deletion(self, topic: str) -> bool:
        return topic in self.topics_to_be_deleted and topic not in self.topics_ineligible_for_deletion

    @property
    def topics_queued_for_deletion(self) -> set[str]:
        return set(self.topics_to_be_deleted)

    # -- replica states -----------------------------------------------------------------------------------------

    def replicas_in_state(self, topic: str, state: ReplicaState) -> set[PartitionAndReplica]:
        return {r for r in self.replicas_for_topic(topic) if self.replica_states[r] == state}

    def are_all_replicas_in_state(self, topic: str, state: ReplicaState) -> bool:
        return all(self.replica_states[r] == state for r in self.replicas_for_topic(topic))

    def is_any_replica_in_state(self, topic: str, state: ReplicaState) -> bool:
        return any(self.replica_states[r] == state for r in self.replicas_for_topic(topic))

    def check_valid_replica_state_change(
        self, replicas: Iterable[PartitionAndReplica], target_state: ReplicaState
    ) -> tuple[list[PartitionAndReplica], list[PartitionAndReplica]]:
        valid: list[PartitionAndReplica] = []
        invalid: list[PartitionAndReplica] = []
        for replica in replicas:
            (valid if self._is_valid_replica_state_transition(replica, target_state) else invalid).append(replica)
        return valid, invalid

    def check_valid_partition_state_change(
        self, partitions: Iterable[TopicPartition], target_state: PartitionState
    ) -> tuple[list[TopicPartition], list[TopicPartition]]:
        valid: list[TopicPartition] = []
        invalid: list[TopicPartition] = []
        for partition in partitions:
            (valid if self._is_valid_partition_state_transition(partition, target_state) else invalid).append(partition)
        return valid, invalid

    def put_replica_state(self, replica: PartitionAndReplica, state: ReplicaState) -> None:
        self.replica_states[replica] = state

    def remove_replica_state(self, replica: PartitionAndReplica) -> None:
        self.replica_states.pop(replica, None)

    def put_replica_state_if_not_exists(self, replica: PartitionAndReplica, state: ReplicaState) -> None:
        self.replica_states.setdefault(replica, state)

    # -- partition states ---------------------------------------------------------------------------------------

    def put_partition_state(self, partition: TopicPartition, target_state: PartitionState) -> None:
        current_state = self.partition_states.get(partition, NonExistentPartition())
        self.partition_states[partition] = target_state
        self._update_partition_state_metrics(partition, current_state, target_state)

    def _update_partition_state_metrics(
        self, partition: TopicPartition, current_state: PartitionState, target_state: PartitionState
    ) -> None:
        if not self.is_topic_deletion_in_progress(partition.topic):
            offline = OfflinePartition()
            if current_state != offline and target_state == offline:
                self.offline_partition_count += 1
            elif current_state == offline and target_state != offline:
                self.offline_partition_count -= 1

    def put_partition_state_if_not_exists(self, partition: TopicPartition, state: PartitionState) -> None:
        if self.partition_states.setdefault(partition, state) == state:
            self._update_partition_state_metrics(partition, NonExistentPartition(), state)

    def replica_state(self, replica: PartitionAndReplica) -> ReplicaState:
        return self.replica_states[replica]

    def partition_state(self, partition: TopicPartition) -> PartitionState:
        return self.partition_states[partition]

    def partitions_in_state(self, state: PartitionState, topic: str | None = None) -> set[TopicPartition]:
        """The partitions in `state`, of every topic or of `topic` (Kafka's two overloads)."""
        if topic is None:
            return {p for p, s in self.partition_states.items() if s == state}
        return {p for p in self.partitions_for_topic(topic) if self.partition_state(p) == state}

    def partitions_in_states(self, states: Iterable[PartitionState], topic: str | None = None) -> set[TopicPartition]:
        """The partitions in any of `states`, of every topic or of `topic` (Kafka's two overloads)."""
        wanted = set(states)
        if topic is None:
            return {p for p, s in self.partition_states.items() if s in wanted}
        return {p for p in self.partitions_for_topic(topic) if self.partition_state(p) in wanted}

    # -- leadership ---------------------------------------------------------------------------------------------

    def put_partition_leadership_info(
        self, partition: TopicPartition, leader_isr_and_controller_epoch: LeaderIsrAndControllerEpoch
    ) -> None:
        previous = self._partition_leadership_info.get(partition)
        self._partition_leadership_info[partition] = leader_isr_and_controller_epoch
        replica_assignment = self.partition_full_replica_assignment(partition)
        self._update_preferred_replica_imbalance_metric(
            partition, replica_assignment, previous, replica_assignment, leader_isr_and_controller_epoch
        )

    def partition_leadership_info(self, partition: TopicPartition) -> LeaderIsrAndControllerEpoch | None:
        return self._partition_leadership_info.get(partition)

    @property
    def partitions_leadership_info(self) -> Mapping[TopicPartition, LeaderIsrAndControllerEpoch]:
        return self._partition_leadership_info

    @property
    def partitions_with_leaders(self) -> set[TopicPartition]:
        return {tp for tp in self._partition_leadership_info if not self.is_topic_queued_up_for_deletion(tp.topic)}

    @property
    def partitions_with_offline_leader(self) -> set[TopicPartition]:
        return {
            tp
            for tp, info in self._partition_leadership_info.items()
            if not self.is_replica_online(info.leader_and_isr.leader, tp)
            and not self.is_topic_queued_up_for_deletion(tp.topic)
        }

    def partition_leaders_on_broker(self, broker_id: int) -> set[TopicPartition]:
        return {
            tp
            for tp, info in self._partition_leadership_info.items()
            if not self.is_topic_queued_up_for_deletion(tp.topic)
            and info.leader_and_isr.leader == broker_id
            and len(self.partition_replica_assignment(tp)) > 1
        }

    def topic_name(self, topic_id: Any) -> str | None:
        return self.topic_names.get(topic_id)

    def clear_partition_leadership_info(self) -> None:
        self._partition_leadership_info.clear()

    @property
    def partition_with_leaders_count(self) -> int:
        return len(self._partition_leadership_info)

    def _update_preferred_replica_imbalance_metric(
        self,
        partition: TopicPartition,
        old_replica_assignment: ReplicaAssignment | None,
        old_leadership_info: LeaderIsrAndControllerEpoch | None,
        new_replica_assignment: ReplicaAssignment | None,
        new_leadership_info: LeaderIsrAndControllerEpoch | None,
    ) -> None:
        if self.is_topic_queued_up_for_deletion(partition.topic):
            return
        if old_replica_assignment is not None and old_leadership_info is not None:
            if not self._has_preferred_leader(old_replica_assignment, old_leadership_info):
                self.preferred_replica_imbalance_count -= 1
        if new_replica_assignment is not None and new_leadership_info is not None:
            if not self._has_preferred_leader(new_replica_assignment, new_leadership_info):
                self.preferred_replica_imbalance_count += 1

    def _clean_preferred_replica_imbalance_metric(self, topic: str) -> None:
        for partition, replica_assignment in self.partition_assignments.get(topic, {}).items():
            leadership_info = self._partition_leadership_info.get(TopicPartition(topic, partition))
            if leadership_info is not None and not self._has_preferred_leader(replica_assignment, leadership_info):
                self.preferred_replica_imbalance_count -= 1

    @staticmethod
    def _has_preferred_leader(
        replica_assignment: ReplicaAssignment, leadership_info: LeaderIsrAndControllerEpoch
    ) -> bool:
        if not replica_assignment.replicas:
            # PORT: Scala's `replicas.head` throws on an empty assignment; an empty assignment has no preferred
            # replica, so it is counted as balanced instead of failing the caller.
            return True
        preferred_replica = replica_assignment.replicas[0]
        if replica_assignment.is_being_reassigned and preferred_replica in replica_assignment.adding_replicas:
            # A partition moving to a new preferred replica counts as balanced until that replica joins the ISR.
            return preferred_replica not in leadership_info.leader_and_isr.isr
        return bool(leadership_info.leader_and_isr.leader == preferred_replica)

    def _is_valid_replica_state_transition(self, replica: PartitionAndReplica, target_state: ReplicaState) -> bool:
        return self.replica_states[replica] in target_state.valid_previous_states

    def _is_valid_partition_state_transition(self, partition: TopicPartition, target_state: PartitionState) -> bool:
        return self.partition_states[partition] in target_state.valid_previous_states


__all__ = [
    "INITIAL_CONTROLLER_EPOCH",
    "INITIAL_CONTROLLER_EPOCH_ZK_VERSION",
    "ControllerContext",
    "ControllerStats",
    "PartitionAndReplica",
    "ReplicaAssignment",
]
