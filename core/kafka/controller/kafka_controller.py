"""Port of core/src/main/scala/kafka/controller/KafkaController.scala (Kafka 2.8).

The controller. Every broker runs one; the one that creates the ephemeral `/controller` znode (incrementing
`/controller_epoch` in the same ZooKeeper transaction) is the active controller until its session ends. The
active controller watches brokers, topics, partitions, deletions, ISR change notifications and admin requests
in ZooKeeper, decides leaders and ISRs through the partition and replica state machines, writes them to
ZooKeeper, and tells brokers with LeaderAndIsr, UpdateMetadata and StopReplica requests.

All work happens on `controller-event-thread`: ZooKeeper watches and API entry points (`controlled_shutdown`,
`elect_leaders`, `alter_partitions`, ...) only enqueue events, each a small class below whose `state` names the
ControllerState it runs in.

API for the broker:
- `KafkaController(config, zk_client, time, initial_broker_info, initial_broker_epoch)`, then `startup()`;
  `shutdown()` when the broker stops.
- `is_active`, `epoch`, `broker_epoch`.
- `controlled_shutdown(broker_id, broker_epoch, callback)`: callback gets the partitions the broker still
  leads (a set) or the exception that failed the request.
- `elect_leaders(partitions, election_type, callback)`: callback gets, per partition, the new leader id or
  an ApiError.
- `alter_partitions(request_data, callback, request_version)` (AlterIsr, API key 56): callback gets the
  AlterPartitionResponseData.
- `alter_partition_reassignments`, `list_partition_reassignments`, `enable_default_unclean_leader_election`,
  `enable_topic_unclean_leader_election`, `update_broker_info`.

Metrics (kafka.controller:type=KafkaController): ActiveControllerCount, OfflinePartitionsCount,
PreferredReplicaImbalanceCount, ControllerState, GlobalTopicCount, GlobalPartitionCount, TopicsToDeleteCount,
ReplicasToDeleteCount, TopicsIneligibleToDeleteCount and ReplicasIneligibleToDeleteCount, as Kafka 2.8's gauges
(the counts are refreshed by the event thread after each event).

While it is the controller, a `delegation-token-cleaner` scheduler runs `delete-expired-tokens` (when delegation
tokens are enabled).

# PORT: left out until its subsystem exists: the UpdateFeatures API. Feature versioning (the `/feature` znode) is
set up as Kafka 2.8 does, without waiting for a FinalizedFeatureCache unless one is given. Scala's `Either`/`Try`
results passed to callbacks are a value or an exception/ApiError instance.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import Broker
from kafka.common.election_type import ElectionType
from kafka.common.errors import (
    BrokerNotAvailableException,
    ControllerMovedException,
    KafkaException,
    StaleBrokerEpochException,
)
from kafka.common.message import AlterPartitionResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_control_request import UNKNOWN_BROKER_EPOCH
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.leader_and_isr_response import LeaderAndIsrResponse
from kafka.common.requests.update_metadata_response import UpdateMetadataResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.controller.controller_channel_manager import ControllerBrokerRequestBatch, ControllerChannelManager
from kafka.controller.controller_context import (
    INITIAL_CONTROLLER_EPOCH,
    INITIAL_CONTROLLER_EPOCH_ZK_VERSION,
    ControllerContext,
    PartitionAndReplica,
    ReplicaAssignment,
)
from kafka.controller.controller_event_manager import (
    ControllerEvent,
    ControllerEventManager,
    ControllerEventProcessor,
    ShutdownEventThread,
)
from kafka.controller.controller_state import ControllerState
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.controller.partition_state_machine import (
    ControlledShutdownPartitionLeaderElectionStrategy,
    NewPartition,
    OfflinePartition,
    OfflinePartitionLeaderElectionStrategy,
    OnlinePartition,
    PartitionLeaderElectionAlgorithms,
    PartitionLeaderElectionStrategy,
    PartitionStateMachine,
    PreferredReplicaPartitionLeaderElectionStrategy,
    ReassignPartitionLeaderElectionStrategy,
    StateChangeFailedException,
    ZkPartitionStateMachine,
)
from kafka.controller.replica_state_machine import (
    NewReplica,
    NonExistentReplica,
    OfflineReplica,
    OnlineReplica,
    ReplicaDeletionIneligible,
    ReplicaDeletionStarted,
    ReplicaDeletionSuccessful,
    ReplicaStateMachine,
    ZkReplicaStateMachine,
)
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.controller.topic_deletion_manager import ControllerDeletionClient, TopicDeletionManager
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.kafka_config import KafkaConfig
from kafka.utils.kafka_scheduler import KafkaScheduler
from kafka.utils.logging import Logging
from kafka.zk import zk_data
from kafka.zk.kafka_zk_client import KafkaZkClient
from kafka.zookeeper.zoo_keeper_client import StateChangeHandler, ZNodeChangeHandler, ZNodeChildChangeHandler
from kafka.zookeeper.zookeeper_types import Code

__all__ = [
    "AdminClientTriggered",
    "AutoTriggered",
    "ControllerEvent",
    "KafkaController",
    "ShutdownEventThread",
    "ZkTriggered",
]


# -- what triggered an election ---------------------------------------------------------------------------------------


class ElectionTrigger(ABC):  # noqa: B024 - a sealed trait: the subclasses are the values
    def __str__(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class AutoTriggered(ElectionTrigger):
    def __str__(self) -> str:
        return "AutoTriggered"


@dataclass(frozen=True, slots=True)
class ZkTriggered(ElectionTrigger):
    def __str__(self) -> str:
        return "ZkTriggered"


@dataclass(frozen=True, slots=True)
class AdminClientTriggered(ElectionTrigger):
    def __str__(self) -> str:
        return "AdminClientTriggered"


# Callback types (Scala's type aliases). A result that Scala wraps in Left/Failure is an exception or ApiError.
ControlledShutdownCallback = Callable[[Any], None]  # set[TopicPartition] | BaseException
ElectLeadersCallback = Callable[[dict[TopicPartition, Any]], None]  # per partition: int leader | ApiError
ListReassignmentsCallback = Callable[[Any], None]  # dict[TopicPartition, ReplicaAssignment] | ApiError
AlterReassignmentsCallback = Callable[[Any], None]  # dict[TopicPartition, ApiError] | ApiError
AlterPartitionCallback = Callable[[Any], None]  # AlterPartitionResponseData
# LeaderRecoveryState.RECOVERED, the state every partition is in here (KIP-704's RECOVERING needs IBP 3.2).
_LEADER_RECOVERY_STATE_RECOVERED = 0


# -- events -----------------------------------------------------------------------------------------------------------


class _SimpleEvent(ControllerEvent):
    """An event without data whose preempt does nothing."""

    _state: ControllerState

    @property
    def state(self) -> ControllerState:
        return self._state

    def preempt(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class ControllerChange(_SimpleEvent):
    _state = ControllerState.ControllerChange


@dataclass(frozen=True, slots=True)
class Reelect(_SimpleEvent):
    _state = ControllerState.ControllerChange


@dataclass(frozen=True, slots=True)
class RegisterBrokerAndReelect(_SimpleEvent):
    _state = ControllerState.ControllerChange


@dataclass(frozen=True, slots=True)
class Expire(_SimpleEvent):
    _state = ControllerState.ControllerChange


@dataclass(frozen=True, slots=True)
class AutoPreferredReplicaLeaderElection(_SimpleEvent):
    _state = ControllerState.AutoLeaderBalance


@dataclass(frozen=True, slots=True)
class UncleanLeaderElectionEnable(_SimpleEvent):
    _state = ControllerState.UncleanLeaderElectionEnable


@dataclass(frozen=True, slots=True)
class TopicUncleanLeaderElectionEnable(_SimpleEvent):
    topic: str
    _state = ControllerState.TopicUncleanLeaderElectionEnable


@dataclass(frozen=True, slots=True, eq=False)
class ControlledShutdown(ControllerEvent):
    id: int
    broker_epoch: int
    controlled_shutdown_callback: ControlledShutdownCallback

    @property
    def state(self) -> ControllerState:
        return ControllerState.ControlledShutdown

    def preempt(self) -> None:
        self.controlled_shutdown_callback(ControllerMovedException("Controller moved to another broker"))


@dataclass(frozen=True, slots=True, eq=False)
class LeaderAndIsrResponseReceived(_SimpleEvent):
    leader_and_isr_response: LeaderAndIsrResponse
    broker_id: int
    _state = ControllerState.LeaderAndIsrResponseReceived


@dataclass(frozen=True, slots=True, eq=False)
class UpdateMetadataResponseReceived(_SimpleEvent):
    update_metadata_response: UpdateMetadataResponse
    broker_id: int
    _state = ControllerState.UpdateMetadataResponseReceived


@dataclass(frozen=True, slots=True, eq=False)
class TopicDeletionStopReplicaResponseReceived(_SimpleEvent):
    replica_id: int
    request_error: Errors
    partition_errors: Mapping[TopicPartition, Errors]
    _state = ControllerState.TopicDeletion


@dataclass(frozen=True, slots=True)
class Startup(_SimpleEvent):
    _state = ControllerState.ControllerChange


@dataclass(frozen=True, slots=True)
class BrokerChange(_SimpleEvent):
    _state = ControllerState.BrokerChange


@dataclass(frozen=True, slots=True)
class BrokerModifications(_SimpleEvent):
    broker_id: int
    _state = ControllerState.BrokerChange


@dataclass(frozen=True, slots=True)
class TopicChange(_SimpleEvent):
    _state = ControllerState.TopicChange


@dataclass(frozen=True, slots=True)
class LogDirEventNotification(_SimpleEvent):
    _state = ControllerState.LogDirChange


@dataclass(frozen=True, slots=True)
class PartitionModifications(_SimpleEvent):
    topic: str
    _state = ControllerState.TopicChange


@dataclass(frozen=True, slots=True)
class TopicDeletion(_SimpleEvent):
    _state = ControllerState.TopicDeletion


@dataclass(frozen=True, slots=True)
class ZkPartitionReassignment(_SimpleEvent):
    _state = ControllerState.AlterPartitionReassignment


@dataclass(frozen=True, slots=True, eq=False)
class ApiPartitionReassignment(ControllerEvent):
    reassignments: Mapping[TopicPartition, Sequence[int] | None]
    callback: AlterReassignmentsCallback

    @property
    def state(self) -> ControllerState:
        return ControllerState.AlterPartitionReassignment

    def preempt(self) -> None:
        self.callback(ApiError(Errors.NOT_CONTROLLER))


@dataclass(frozen=True, slots=True)
class PartitionReassignmentIsrChange(_SimpleEvent):
    partition: TopicPartition
    _state = ControllerState.AlterPartitionReassignment


@dataclass(frozen=True, slots=True)
class IsrChangeNotification(_SimpleEvent):
    _state = ControllerState.IsrChange


@dataclass(frozen=True, slots=True, eq=False)
class AlterPartitionReceived(_SimpleEvent):
    """Kafka 2.8's AlterIsrReceived (the API was renamed AlterPartition in 3.x)."""

    alter_partition_request: Any  # AlterPartitionRequestData
    alter_partition_request_version: int
    callback: AlterPartitionCallback
    _state = ControllerState.IsrChange

    def preempt(self) -> None:
        # PORT: Kafka 2.8 drops a preempted AlterIsr without an answer, so the leader waits out its request
        # timeout (controller.socket.timeout.ms) before trying the new controller, its ISR changes stalled
        # meanwhile. Preemption means this controller is resigning (session expiry) or shutting down:
        # NOT_CONTROLLER sends the leader to the next controller at once.
        self.callback(AlterPartitionResponseData(error_code=Errors.NOT_CONTROLLER.code))


@dataclass(frozen=True, slots=True, eq=False)
class ReplicaLeaderElection(ControllerEvent):
    partitions_from_admin_client_opt: frozenset[TopicPartition] | None
    election_type: ElectionType
    election_trigger: ElectionTrigger
    callback: ElectLeadersCallback = field(default=lambda _results: None)

    @property
    def state(self) -> ControllerState:
        return ControllerState.ManualLeaderBalance

    def preempt(self) -> None:
        partitions = self.partitions_from_admin_client_opt or frozenset()
        self.callback({p: ApiError(Errors.NOT_CONTROLLER, None) for p in partitions})


@dataclass(frozen=True, slots=True, eq=False)
class ListPartitionReassignments(ControllerEvent):
    """`partitions_opt` None lists every reassigning partition."""

    partitions_opt: frozenset[TopicPartition] | None
    callback: ListReassignmentsCallback

    @property
    def state(self) -> ControllerState:
        return ControllerState.ListPartitionReassignment

    def preempt(self) -> None:
        self.callback(ApiError(Errors.NOT_CONTROLLER, None))


class MockEvent(ControllerEvent):
    """An event whose processing is given by the test that enqueues it."""

    def __init__(self, state: ControllerState) -> None:
        self._state = state

    @property
    def state(self) -> ControllerState:
        return self._state

    @abstractmethod
    def process(self) -> None: ...

    def preempt(self) -> None:
        pass


# -- ZooKeeper watch handlers: they only enqueue events ---------------------------------------------------------------


class BrokerChangeHandler(ZNodeChildChangeHandler):
    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.BrokerIdsZNode.path

    def handle_child_change(self) -> None:
        self.event_manager.put(BrokerChange())


class BrokerModificationsHandler(ZNodeChangeHandler):
    def __init__(self, event_manager: ControllerEventManager, broker_id: int) -> None:
        self.event_manager = event_manager
        self.broker_id = broker_id
        self.path = zk_data.BrokerIdZNode.path(broker_id)

    def handle_data_change(self) -> None:
        self.event_manager.put(BrokerModifications(self.broker_id))


class TopicChangeHandler(ZNodeChildChangeHandler):
    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.TopicsZNode.path

    def handle_child_change(self) -> None:
        self.event_manager.put(TopicChange())


class LogDirEventNotificationHandler(ZNodeChildChangeHandler):
    VERSION = 1

    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.LogDirEventNotificationZNode.path

    def handle_child_change(self) -> None:
        self.event_manager.put(LogDirEventNotification())


class PartitionModificationsHandler(ZNodeChangeHandler):
    def __init__(self, event_manager: ControllerEventManager, topic: str) -> None:
        self.event_manager = event_manager
        self.topic = topic
        self.path = zk_data.TopicZNode.path(topic)

    def handle_data_change(self) -> None:
        self.event_manager.put(PartitionModifications(self.topic))


class TopicDeletionHandler(ZNodeChildChangeHandler):
    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.DeleteTopicsZNode.path

    def handle_child_change(self) -> None:
        self.event_manager.put(TopicDeletion())


class PartitionReassignmentHandler(ZNodeChangeHandler):
    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.ReassignPartitionsZNode.path

    # Only creation is watched for: the controller re-registers the watch itself when it deletes the znode,
    # which does not depend on a consumed watch being set again.
    def handle_creation(self) -> None:
        self.event_manager.put(ZkPartitionReassignment())


class PartitionReassignmentIsrChangeHandler(ZNodeChangeHandler):
    def __init__(self, event_manager: ControllerEventManager, partition: TopicPartition) -> None:
        self.event_manager = event_manager
        self.partition = partition
        self.path = zk_data.TopicPartitionStateZNode.path(partition)

    def handle_data_change(self) -> None:
        self.event_manager.put(PartitionReassignmentIsrChange(self.partition))


class IsrChangeNotificationHandler(ZNodeChildChangeHandler):
    VERSION = 1

    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.IsrChangeNotificationZNode.path

    def handle_child_change(self) -> None:
        self.event_manager.put(IsrChangeNotification())


class PreferredReplicaElectionHandler(ZNodeChangeHandler):
    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.PreferredReplicaElectionZNode.path

    def handle_creation(self) -> None:
        self.event_manager.put(ReplicaLeaderElection(None, ElectionType.PREFERRED, ZkTriggered()))


class ControllerChangeHandler(ZNodeChangeHandler):
    def __init__(self, event_manager: ControllerEventManager) -> None:
        self.event_manager = event_manager
        self.path = zk_data.ControllerZNode.path

    def handle_creation(self) -> None:
        self.event_manager.put(ControllerChange())

    def handle_deletion(self) -> None:
        self.event_manager.put(Reelect())

    def handle_data_change(self) -> None:
        self.event_manager.put(ControllerChange())


class _ControllerStateChangeHandler(StateChangeHandler):
    """Reacts to the ZooKeeper session: before a new session is set up the controller resigns (all queued
    events are dropped and the Expire event must have started), after it the broker re-registers and the
    controller runs for election again."""

    def __init__(self, controller: KafkaController) -> None:
        self.controller = controller
        self.name = zk_data.StateChangeHandlers.CONTROLLER_HANDLER

    def after_initializing_session(self) -> None:
        self.controller.event_manager.put(RegisterBrokerAndReelect())

    def before_initializing_session(self) -> None:
        queued_event = self.controller.event_manager.clear_and_put(Expire())
        # The new session waits until the event thread has taken up Expire, i.e. processed everything before it.
        # The wait ends early if the event thread has stopped and will never take it.
        thread = self.controller.event_manager.thread
        while not queued_event.await_processing(1.0):
            if thread.is_shutdown_complete:
                break


# -- the controller ---------------------------------------------------------------------------------------------------


class KafkaController(ControllerEventProcessor, Logging, KafkaMetricsGroup):
    """The ZooKeeper-mode controller; see the module docstring."""

    logger_name = "kafka.controller.KafkaController"

    INITIAL_CONTROLLER_EPOCH = INITIAL_CONTROLLER_EPOCH
    INITIAL_CONTROLLER_EPOCH_ZK_VERSION = INITIAL_CONTROLLER_EPOCH_ZK_VERSION

    def __init__(
        self,
        config: KafkaConfig,
        zk_client: KafkaZkClient,
        time: Time,
        initial_broker_info: Any,
        initial_broker_epoch: int,
        thread_name_prefix: str | None = None,
        broker_features: Any = None,
        feature_cache: Any = None,
        token_manager: Any = None,
    ) -> None:
        self.config = config
        self.zk_client = zk_client
        self.time = time
        self.log_ident = f"[Controller id={config.broker_id}] "

        self._broker_info = initial_broker_info
        self._broker_epoch = initial_broker_epoch
        self._broker_features = broker_features
        self._feature_cache = feature_cache

        self._is_alter_isr_enabled = config.inter_broker_protocol_version.is_alter_isr_supported
        self.state_change_logger = StateChangeLogger(
            config.broker_id, in_controller_context=True, controller_epoch=None
        )
        self.controller_context = ControllerContext()
        self.controller_channel_manager = ControllerChannelManager(
            self.controller_context, config, time, self.state_change_logger, thread_name_prefix
        )
        # The controller has its own scheduler, so it can start and stop independently of the broker's.
        self.kafka_scheduler = KafkaScheduler(1, time=time)
        # Removes expired delegation tokens while this broker is the controller.
        self._token_manager = token_manager
        self._token_clean_scheduler = KafkaScheduler(1, thread_name_prefix="delegation-token-cleaner", time=time)
        self.event_manager = ControllerEventManager(
            config.broker_id, self, time, self.controller_context.stats.rate_and_time_metrics
        )

        def new_batch() -> ControllerBrokerRequestBatch:
            return ControllerBrokerRequestBatch(
                config,
                self.controller_channel_manager,
                self.event_manager,
                self.controller_context,
                self.state_change_logger,
            )

        self.broker_request_batch = new_batch()
        self.replica_state_machine: ReplicaStateMachine = ZkReplicaStateMachine(
            config, self.state_change_logger, self.controller_context, zk_client, new_batch()
        )
        self.partition_state_machine: PartitionStateMachine = ZkPartitionStateMachine(
            config, self.state_change_logger, self.controller_context, zk_client, new_batch()
        )
        self.topic_deletion_manager = TopicDeletionManager(
            config,
            self.controller_context,
            self.replica_state_machine,
            self.partition_state_machine,
            ControllerDeletionClient(self, zk_client),
        )

        self._controller_change_handler = ControllerChangeHandler(self.event_manager)
        self._broker_change_handler = BrokerChangeHandler(self.event_manager)
        self._broker_modifications_handlers: dict[int, BrokerModificationsHandler] = {}
        self._topic_change_handler = TopicChangeHandler(self.event_manager)
        self._topic_deletion_handler = TopicDeletionHandler(self.event_manager)
        self._partition_modifications_handlers: dict[str, PartitionModificationsHandler] = {}
        self._partition_reassignment_handler = PartitionReassignmentHandler(self.event_manager)
        self._preferred_replica_election_handler = PreferredReplicaElectionHandler(self.event_manager)
        self._isr_change_notification_handler = IsrChangeNotificationHandler(self.event_manager)
        self._log_dir_event_notification_handler = LogDirEventNotificationHandler(self.event_manager)

        # Read by other threads (Scala @volatile); written by the event thread only.
        self._active_controller_id = -1
        self.offline_partition_count = 0
        self.preferred_replica_imbalance_count = 0
        self.global_topic_count = 0
        self.global_partition_count = 0
        self.topics_to_delete_count = 0
        self.replicas_to_delete_count = 0
        self.ineligible_topics_to_delete_count = 0
        self.ineligible_replicas_to_delete_count = 0
        self._state_change_handler: _ControllerStateChangeHandler | None = None
        self._lifecycle_lock = threading.Lock()

        self.new_gauge("ActiveControllerCount", lambda: 1 if self.is_active else 0)
        self.new_gauge("OfflinePartitionsCount", lambda: self.offline_partition_count)
        self.new_gauge("PreferredReplicaImbalanceCount", lambda: self.preferred_replica_imbalance_count)
        self.new_gauge("ControllerState", lambda: self.state.value)
        self.new_gauge("GlobalTopicCount", lambda: self.global_topic_count)
        self.new_gauge("GlobalPartitionCount", lambda: self.global_partition_count)
        self.new_gauge("TopicsToDeleteCount", lambda: self.topics_to_delete_count)
        self.new_gauge("ReplicasToDeleteCount", lambda: self.replicas_to_delete_count)
        self.new_gauge("TopicsIneligibleToDeleteCount", lambda: self.ineligible_topics_to_delete_count)
        self.new_gauge("ReplicasIneligibleToDeleteCount", lambda: self.ineligible_replicas_to_delete_count)

    # -- state other threads read -----------------------------------------------------------------------------------

    @property
    def is_active(self) -> bool:
        """Whether this broker is the active controller."""
        return self._active_controller_id == self.config.broker_id

    @property
    def active_controller_id(self) -> int:
        return self._active_controller_id

    @property
    def broker_epoch(self) -> int:
        return self._broker_epoch

    @property
    def epoch(self) -> int:
        return self.controller_context.epoch

    @property
    def state(self) -> ControllerState:
        return self.event_manager.state

    # -- lifecycle ------------------------------------------------------------------------------------------------

    def startup(self) -> None:
        """Watches the ZooKeeper session and starts the event thread with a Startup event, which runs for
        election. It does not wait for the outcome."""
        handler = _ControllerStateChangeHandler(self)
        self._state_change_handler = handler
        self.zk_client.register_state_change_handler(handler)
        self.event_manager.put(Startup())
        self.event_manager.start()

    def shutdown(self) -> None:
        """Stops the event thread and, if this broker was the controller, resigns (without deleting
        `/controller`: the znode goes away with the ZooKeeper session)."""
        with self._lifecycle_lock:
            self.event_manager.close()
            self._on_controller_resignation()
            # PORT: Kafka leaves the session handler registered (the broker closes the ZooKeeper client next);
            # it is removed here so that a client outliving the controller does not call into it.
            if self._state_change_handler is not None:
                self.zk_client.unregister_state_change_handler(self._state_change_handler.name)
                self._state_change_handler = None

    # -- entry points for the broker (they only enqueue events) ---------------------------------------------------

    def controlled_shutdown(
        self, id_: int, broker_epoch: int, controlled_shutdown_callback: ControlledShutdownCallback
    ) -> None:
        """Moves leadership away from broker `id_`; the callback gets the partitions it still leads (a set) or
        the exception that failed the request."""
        self.event_manager.put(ControlledShutdown(id_, broker_epoch, controlled_shutdown_callback))

    def update_broker_info(self, new_broker_info: Any) -> None:
        self._broker_info = new_broker_info
        self.zk_client.update_broker_info(new_broker_info)

    def enable_default_unclean_leader_election(self) -> None:
        self.event_manager.put(UncleanLeaderElectionEnable())

    def enable_topic_unclean_leader_election(self, topic: str) -> None:
        if self.is_active:
            self.event_manager.put(TopicUncleanLeaderElectionEnable(topic))

    def elect_leaders(
        self, partitions: Iterable[TopicPartition], election_type: ElectionType, callback: ElectLeadersCallback
    ) -> None:
        """ElectLeaders: the callback gets, per partition, the new leader id or an ApiError."""
        self.event_manager.put(
            ReplicaLeaderElection(frozenset(partitions), election_type, AdminClientTriggered(), callback)
        )

    def list_partition_reassignments(
        self, partitions: Iterable[TopicPartition] | None, callback: ListReassignmentsCallback
    ) -> None:
        self.event_manager.put(
            ListPartitionReassignments(None if partitions is None else frozenset(partitions), callback)
        )

    def alter_partition_reassignments(
        self, partitions: Mapping[TopicPartition, Sequence[int] | None], callback: AlterReassignmentsCallback
    ) -> None:
        """AlterPartitionReassignments: a None target cancels the partition's reassignment. The callback gets a
        dict of per-partition ApiErrors, or one ApiError for the whole request."""
        self.event_manager.put(ApiPartitionReassignment(dict(partitions), callback))

    def alter_partitions(
        self, alter_partition_request: Any, callback: AlterPartitionCallback, request_version: int = 1
    ) -> None:
        """AlterIsr / AlterPartition (API key 56) from a partition leader: the callback gets the
        AlterPartitionResponseData. From version 2 topics are named by id, from version 3 ISR members carry
        broker epochs (as Kafka 3.7 reads them); the semantics are Kafka 2.8's AlterIsr."""
        self.event_manager.put(AlterPartitionReceived(alter_partition_request, request_version, callback))

    # -- becoming and ceasing to be controller --------------------------------------------------------------------

    def _on_controller_failover(self) -> None:
        """Becoming controller: watch ZooKeeper, load the cluster into the context, tell every broker, start the
        state machines, resume deletions, reassignments and preferred elections, and schedule the
        auto-rebalance. Any failure makes the controller resign (see `_elect`)."""
        self._maybe_setup_feature_versioning()

        self.info("Registering handlers")
        # Watches first, so that nothing changing while the context is read goes unnoticed.
        for child_handler in (
            self._broker_change_handler,
            self._topic_change_handler,
            self._topic_deletion_handler,
            self._log_dir_event_notification_handler,
            self._isr_change_notification_handler,
        ):
            self.zk_client.register_z_node_child_change_handler(child_handler)
        for node_handler in (self._preferred_replica_election_handler, self._partition_reassignment_handler):
            self.zk_client.register_z_node_change_handler_and_check_existence(node_handler)

        self.info("Deleting log dir event notifications")
        self.zk_client.delete_log_dir_event_notifications(self.controller_context.epoch_zk_version)
        self.info("Deleting isr change notifications")
        self.zk_client.delete_isr_change_notifications(self.controller_context.epoch_zk_version)
        self.info("Initializing controller context")
        self._initialize_controller_context()
        self.info("Fetching topic deletions in progress")
        topics_to_be_deleted, topics_ineligible_for_deletion = self._fetch_topic_deletions_in_progress()
        self.info("Initializing topic deletion manager")
        self.topic_deletion_manager.init(topics_to_be_deleted, topics_ineligible_for_deletion)

        # Brokers must know the live brokers (UpdateMetadata) before the state machines send them LeaderAndIsr.
        self.info("Sending update metadata request")
        self.send_update_metadata_request(list(self.controller_context.live_or_shutting_down_broker_ids), set())

        self.replica_state_machine.startup()
        self.partition_state_machine.startup()

        self.info(f"Ready to serve as the new controller with epoch {self.epoch}")

        self._initialize_partition_reassignments()
        self.topic_deletion_manager.try_topic_deletion()
        pending_preferred_replica_elections = self._fetch_pending_preferred_replica_elections()
        self._on_replica_election(pending_preferred_replica_elections, ElectionType.PREFERRED, ZkTriggered())
        self.info("Starting the controller scheduler")
        self.kafka_scheduler.startup()
        if self.config.auto_leader_rebalance_enable:
            self._schedule_auto_leader_rebalance_task(delay_ms=5000)

        token_manager = self._token_manager
        if self.config.token_auth_enabled and token_manager is not None:
            self.info("starting the token expiry check scheduler")
            self._token_clean_scheduler.startup()
            self._token_clean_scheduler.schedule(
                "delete-expired-tokens",
                token_manager.expire_tokens,
                period_ms=self.config.delegation_token_expiry_check_interval_ms,
            )

    def _maybe_setup_feature_versioning(self) -> None:
        """The `/feature` znode: enabled from IBP 2.7 (created with the broker's default finalized features),
        disabled with empty features below."""
        feature_z_node = zk_data.FeatureZNode
        if self.config.is_feature_versioning_supported:
            data, version = self.zk_client.get_data_and_version(feature_z_node.path)
            if version == zk_data.ZkVersion.UNKNOWN_VERSION:
                default_features = (
                    {} if self._broker_features is None else self._broker_features.default_finalized_features()
                )
                new_version = self._create_feature_z_node(
                    feature_z_node(zk_data.FeatureZNodeStatus.Enabled(), default_features)
                )
                self._wait_for_feature_cache(new_version)
            else:
                assert data is not None
                existing = feature_z_node.decode(data)
                if existing.status == zk_data.FeatureZNodeStatus.Enabled():
                    new_features = existing.features
                else:
                    if existing.features:
                        self.warn(
                            f"FeatureZNode at path: {feature_z_node.path} with disabled status contains non-empty "
                            f"features: {existing.features}"
                        )
                    new_features = {}
                new_node = feature_z_node(zk_data.FeatureZNodeStatus.Enabled(), new_features)
                if new_node != existing:
                    self._wait_for_feature_cache(self._update_feature_z_node(new_node))
        else:
            new_node = feature_z_node(zk_data.FeatureZNodeStatus.Disabled(), {})
            data, version = self.zk_client.get_data_and_version(feature_z_node.path)
            if version == zk_data.ZkVersion.UNKNOWN_VERSION:
                self._create_feature_z_node(new_node)
            else:
                assert data is not None
                existing = feature_z_node.decode(data)
                if existing.status == zk_data.FeatureZNodeStatus.Disabled() and existing.features:
                    self.warn(
                        f"FeatureZNode at path: {feature_z_node.path} with disabled status contains non-empty "
                        f"features: {existing.features}"
                    )
                if new_node != existing:
                    self._update_feature_z_node(new_node)

    def _create_feature_z_node(self, new_node: Any) -> int:
        self.info(f"Creating FeatureZNode at path: {zk_data.FeatureZNode.path} with contents: {new_node}")
        self.zk_client.create_feature_z_node(new_node)
        _, new_version = self.zk_client.get_data_and_version(zk_data.FeatureZNode.path)
        return int(new_version)

    def _update_feature_z_node(self, updated_node: Any) -> int:
        self.info(f"Updating FeatureZNode at path: {zk_data.FeatureZNode.path} with contents: {updated_node}")
        return int(self.zk_client.update_feature_z_node(updated_node))

    def _wait_for_feature_cache(self, version: int) -> None:
        if self._feature_cache is not None:
            self._feature_cache.wait_until_epoch_or_throw(version, self.config.zk_connection_timeout_ms)

    def _schedule_auto_leader_rebalance_task(self, delay_ms: int) -> None:
        self.kafka_scheduler.schedule(
            "auto-leader-rebalance-task",
            lambda: self.event_manager.put(AutoPreferredReplicaLeaderElection()),
            delay_ms=delay_ms,
        )

    def _on_controller_resignation(self) -> None:
        """Ceasing to be controller: stop watching, stop the scheduler and the state machines, stop talking to
        brokers and forget the cluster."""
        self.debug("Resigning")
        zk = self.zk_client
        zk.unregister_z_node_child_change_handler(self._isr_change_notification_handler.path)
        zk.unregister_z_node_change_handler(self._partition_reassignment_handler.path)
        zk.unregister_z_node_change_handler(self._preferred_replica_election_handler.path)
        zk.unregister_z_node_child_change_handler(self._log_dir_event_notification_handler.path)
        self._unregister_broker_modifications_handler(list(self._broker_modifications_handlers))

        self.kafka_scheduler.shutdown()
        if self._token_clean_scheduler.is_started:
            self._token_clean_scheduler.shutdown()
        self.offline_partition_count = 0
        self.preferred_replica_imbalance_count = 0
        self.global_topic_count = 0
        self.global_partition_count = 0
        self.topics_to_delete_count = 0
        self.replicas_to_delete_count = 0
        self.ineligible_topics_to_delete_count = 0
        self.ineligible_replicas_to_delete_count = 0

        self._unregister_partition_reassignment_isr_change_handlers()
        self.partition_state_machine.shutdown()
        zk.unregister_z_node_child_change_handler(self._topic_change_handler.path)
        self.unregister_partition_modifications_handlers(list(self._partition_modifications_handlers))
        zk.unregister_z_node_child_change_handler(self._topic_deletion_handler.path)
        self.replica_state_machine.shutdown()
        zk.unregister_z_node_child_change_handler(self._broker_change_handler.path)

        self.controller_channel_manager.shutdown()
        self.controller_context.reset_context()

        self.info("Resigned")

    # -- broker and replica changes -------------------------------------------------------------------------------

    def _on_broker_log_dir_failure(self, broker_ids: Sequence[int]) -> None:
        """Asks brokers with failed log dirs about their replicas (LeaderAndIsr); replicas in offline dirs answer
        KAFKA_STORAGE_ERROR, handled in `_process_leader_and_isr_response_received`."""
        self.info(f"Handling log directory failure for brokers {','.join(map(str, broker_ids))}")
        replicas_on_brokers = self.controller_context.replicas_on_brokers(broker_ids)
        self.replica_state_machine.handle_state_changes(list(replicas_on_brokers), OnlineReplica())

    def _on_broker_startup(self, new_brokers: Sequence[int]) -> None:
        """New brokers: everyone learns of them, they get the full metadata, their replicas go online, offline
        partitions try to get a leader, and reassignments and deletions involving them resume."""
        self.info(f"New broker startup callback for {','.join(map(str, new_brokers))}")
        ctx = self.controller_context
        for broker_id in new_brokers:
            ctx.replicas_on_offline_dirs.pop(broker_id, None)
        new_brokers_set = set(new_brokers)
        existing_brokers = ctx.live_or_shutting_down_broker_ids - new_brokers_set
        # Existing brokers only need the new broker list; new brokers get every partition's state.
        self.send_update_metadata_request(sorted(existing_brokers), set())
        self.send_update_metadata_request(list(new_brokers), ctx.partitions_with_leaders)
        all_replicas_on_new_brokers = ctx.replicas_on_brokers(new_brokers_set)
        self.replica_state_machine.handle_state_changes(list(all_replicas_on_new_brokers), OnlineReplica())
        self.partition_state_machine.trigger_online_partition_state_change()
        self._maybe_resume_reassignments(
            lambda _tp, assignment: any(r in new_brokers_set for r in assignment.target_replicas)
        )
        replicas_for_topics_to_be_deleted = {
            r
            for r in all_replicas_on_new_brokers
            if self.topic_deletion_manager.is_topic_queued_up_for_deletion(r.topic)
        }
        if replicas_for_topics_to_be_deleted:
            self.info(
                f"Some replicas {','.join(map(str, replicas_for_topics_to_be_deleted))} for topics scheduled for "
                f"deletion {','.join(sorted(ctx.topics_to_be_deleted))} are on the newly restarted brokers "
                f"{','.join(map(str, new_brokers))}. Signaling restart of topic deletion for these topics"
            )
            self.topic_deletion_manager.resume_deletion_for_topics({r.topic for r in replicas_for_topics_to_be_deleted})
        self._register_broker_modifications_handler(new_brokers)

    def _maybe_resume_reassignments(self, should_resume: Callable[[TopicPartition, ReplicaAssignment], bool]) -> None:
        for tp in list(self.controller_context.partitions_being_reassigned):
            current_assignment = self.controller_context.partition_full_replica_assignment(tp)
            if should_resume(tp, current_assignment):
                self._on_partition_reassignment(tp, current_assignment)

    def _register_broker_modifications_handler(self, broker_ids: Iterable[int]) -> None:
        broker_ids = list(broker_ids)
        self.debug(f"Register BrokerModifications handler for {broker_ids}")
        for broker_id in broker_ids:
            handler = BrokerModificationsHandler(self.event_manager, broker_id)
            self.zk_client.register_z_node_change_handler_and_check_existence(handler)
            self._broker_modifications_handlers[broker_id] = handler

    def _unregister_broker_modifications_handler(self, broker_ids: Iterable[int]) -> None:
        broker_ids = list(broker_ids)
        self.debug(f"Unregister BrokerModifications handler for {broker_ids}")
        for broker_id in broker_ids:
            handler = self._broker_modifications_handlers.pop(broker_id, None)
            if handler is not None:
                self.zk_client.unregister_z_node_change_handler(handler.path)

    def _on_broker_failure(self, dead_brokers: Sequence[int]) -> None:
        """Dead brokers: their replicas go offline (and partitions they led elect new leaders)."""
        self.info(f"Broker failure callback for {','.join(map(str, dead_brokers))}")
        ctx = self.controller_context
        for broker_id in dead_brokers:
            ctx.replicas_on_offline_dirs.pop(broker_id, None)
        dead_brokers_that_were_shutting_down = [b for b in dead_brokers if b in ctx.shutting_down_broker_ids]
        ctx.shutting_down_broker_ids.difference_update(dead_brokers_that_were_shutting_down)
        if dead_brokers_that_were_shutting_down:
            self.info(
                f"Removed {','.join(map(str, dead_brokers_that_were_shutting_down))} from list of shutting down "
                "brokers."
            )
        all_replicas_on_dead_brokers = ctx.replicas_on_brokers(dead_brokers)
        self._on_replicas_become_offline(all_replicas_on_dead_brokers)
        self._unregister_broker_modifications_handler(dead_brokers)

    def _on_broker_update(self, updated_broker_id: int) -> None:
        self.info(f"Broker info update callback for {updated_broker_id}")
        self.send_update_metadata_request(list(self.controller_context.live_or_shutting_down_broker_ids), set())

    def _on_replicas_become_offline(self, new_offline_replicas: set[PartitionAndReplica]) -> None:
        """Partitions whose leader is among `new_offline_replicas` go offline and elect new leaders; the replicas
        go OfflineReplica (or fail their topic's deletion); if no leader changed, brokers still learn of the
        offline replicas through UpdateMetadata."""
        new_offline_replicas_for_deletion = {
            r for r in new_offline_replicas if self.topic_deletion_manager.is_topic_queued_up_for_deletion(r.topic)
        }
        new_offline_replicas_not_for_deletion = new_offline_replicas - new_offline_replicas_for_deletion
        partitions_with_offline_leader = self.controller_context.partitions_with_offline_leader

        self.partition_state_machine.handle_state_changes(list(partitions_with_offline_leader), OfflinePartition())
        self.partition_state_machine.trigger_online_partition_state_change()
        self.replica_state_machine.handle_state_changes(list(new_offline_replicas_not_for_deletion), OfflineReplica())

        if new_offline_replicas_for_deletion:
            # Such replicas cannot be deleted now; marking them ineligible lets deletion retry later instead of
            # waiting forever in ReplicaDeletionStarted.
            self.topic_deletion_manager.fail_replica_deletion(new_offline_replicas_for_deletion)

        if not partitions_with_offline_leader:
            self.send_update_metadata_request(list(self.controller_context.live_or_shutting_down_broker_ids), set())

    def _on_new_partition_creation(self, new_partitions: set[TopicPartition]) -> None:
        """New partitions: NewPartition and NewReplica, then OnlinePartition (leader and ISR created in
        ZooKeeper) and OnlineReplica."""
        self.info(f"New partition creation callback for {','.join(map(str, sorted(new_partitions)))}")
        partitions = sorted(new_partitions)
        self.partition_state_machine.handle_state_changes(partitions, NewPartition())
        replicas = sorted(
            self.controller_context.replicas_for_partition(new_partitions), key=lambda r: (r.topic_partition, r.replica)
        )
        self.replica_state_machine.handle_state_changes(replicas, NewReplica())
        self.partition_state_machine.handle_state_changes(
            partitions, OnlinePartition(), OfflinePartitionLeaderElectionStrategy(False)
        )
        self.replica_state_machine.handle_state_changes(replicas, OnlineReplica())

    # -- reassignment ---------------------------------------------------------------------------------------------

    def _on_partition_reassignment(self, topic_partition: TopicPartition, reassignment: ReplicaAssignment) -> None:
        """Moves a partition from its original replicas (ORS) to the target replicas (TRS).

        The assignment RS = ORS + TRS with adding AR = TRS - ORS and removing RR = ORS - TRS is written to
        ZooKeeper first (so a new controller can resume), then to memory; replicas of an overridden
        reassignment that are no longer needed are stopped. While TRS is not all in the ISR, the leader epoch is
        bumped, LeaderAndIsr goes to RS and the AR replicas start (NewReplica). Once TRS is in the ISR: AR goes
        online, the assignment becomes TRS, a new leader is chosen if the current one is not in TRS or is dead,
        RR goes offline and is deleted, ZooKeeper gets RS = TRS, the partition leaves `/admin/reassign_partitions`,
        and every broker gets UpdateMetadata. ZooKeeper keeps the original replicas until the very end, which is
        what makes a controller failover mid-way recoverable.
        """
        # No deletion while a reassignment runs.
        self.topic_deletion_manager.mark_topic_ineligible_for_deletion(
            {topic_partition.topic}, reason="topic reassignment in progress"
        )
        self._update_current_reassignment(topic_partition, reassignment)
        adding_replicas = reassignment.adding_replicas
        removing_replicas = reassignment.removing_replicas

        if not self._is_reassignment_complete(topic_partition, reassignment):
            self._update_leader_epoch_and_send_request(topic_partition, reassignment)
            self._start_new_replicas_for_reassigned_partition(topic_partition, adding_replicas)
        else:
            self.replica_state_machine.handle_state_changes(
                [PartitionAndReplica(topic_partition, r) for r in adding_replicas], OnlineReplica()
            )
            completed_reassignment = ReplicaAssignment(reassignment.target_replicas)
            self.controller_context.update_partition_full_replica_assignment(topic_partition, completed_reassignment)
            self._move_reassigned_partition_leader_if_required(topic_partition, completed_reassignment)
            self._stop_removed_replicas_of_reassigned_partition(topic_partition, removing_replicas)
            self._update_replica_assignment_for_partition(topic_partition, completed_reassignment)
            self._remove_partition_from_reassigning_partitions(topic_partition, completed_reassignment)
            self.send_update_metadata_request(
                list(self.controller_context.live_or_shutting_down_broker_ids), {topic_partition}
            )
            # A deletion waiting for this reassignment may go on.
            self.topic_deletion_manager.resume_deletion_for_topics({topic_partition.topic})

    def _update_current_reassignment(self, topic_partition: TopicPartition, reassignment: ReplicaAssignment) -> None:
        """Writes the reassignment's assignment to ZooKeeper and memory (stopping replicas a replaced
        reassignment had added) and starts watching the partition's ISR where AlterIsr is not in use."""
        current_assignment = self.controller_context.partition_full_replica_assignment(topic_partition)
        if current_assignment != reassignment:
            self.debug(
                f"Updating assignment of partition {topic_partition} from {current_assignment} to {reassignment}"
            )
            self._update_replica_assignment_for_partition(topic_partition, reassignment)
            self.controller_context.update_partition_full_replica_assignment(topic_partition, reassignment)
            unneeded_replicas = [r for r in current_assignment.replicas if r not in reassignment.replicas]
            if unneeded_replicas:
                self._stop_removed_replicas_of_reassigned_partition(topic_partition, unneeded_replicas)

        if not self._is_alter_isr_enabled:
            reassign_isr_change_handler = PartitionReassignmentIsrChangeHandler(self.event_manager, topic_partition)
            self.zk_client.register_z_node_change_handler(reassign_isr_change_handler)

        self.controller_context.partitions_being_reassigned.add(topic_partition)

    def _maybe_trigger_partition_reassignment(
        self, reassignments: Mapping[TopicPartition, ReplicaAssignment]
    ) -> dict[TopicPartition, ApiError]:
        """Starts the reassignments of existing partitions of topics not being deleted."""
        results: dict[TopicPartition, ApiError] = {}
        for tp, reassignment in reassignments.items():
            if self.topic_deletion_manager.is_topic_queued_up_for_deletion(tp.topic):
                self.info(f"Skipping reassignment of {tp} since the topic is currently being deleted")
                api_error = ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist.")
            elif self.controller_context.partition_replica_assignment(tp):
                try:
                    self._on_partition_reassignment(tp, reassignment)
                    api_error = ApiError.NONE
                except ControllerMovedException:
                    self.info(
                        f"Failed completing reassignment of partition {tp} because controller has moved to another "
                        "broker"
                    )
                    raise
                except Exception as e:
                    self.error(f"Error completing reassignment of partition {tp}", e)
                    api_error = ApiError(Errors.UNKNOWN_SERVER_ERROR)
            else:
                api_error = ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist.")
            results[tp] = api_error
        return results

    def _on_replica_election(
        self, partitions: Iterable[TopicPartition], election_type: ElectionType, election_trigger: ElectionTrigger
    ) -> dict[TopicPartition, Any]:
        """Elects leaders for `partitions`; returns per partition the new LeaderAndIsr or the exception."""
        partitions = sorted(partitions)
        self.info(
            f"Starting replica leader election ({election_type.name}) for partitions "
            f"{','.join(map(str, partitions))} triggered by {election_trigger}"
        )
        admin_triggered = isinstance(election_trigger, AdminClientTriggered)
        try:
            strategy: PartitionLeaderElectionStrategy
            if election_type == ElectionType.PREFERRED:
                strategy = PreferredReplicaPartitionLeaderElectionStrategy()
            else:
                # Unclean election only when an admin asked for it.
                strategy = OfflinePartitionLeaderElectionStrategy(allow_unclean=admin_triggered)
            results = self.partition_state_machine.handle_state_changes(partitions, OnlinePartition(), strategy)
            if not admin_triggered:
                for tp, outcome in results.items():
                    if isinstance(outcome, ControllerMovedException):
                        self.info(
                            f"Error completing replica leader election ({election_type.name}) for partition {tp} "
                            "because controller has moved to another broker.",
                            outcome,
                        )
                        raise outcome
                    if isinstance(outcome, BaseException):
                        self.error(
                            f"Error completing replica leader election ({election_type.name}) for partition {tp}",
                            outcome,
                        )
            return results
        finally:
            if not admin_triggered:
                self._remove_partitions_from_preferred_replica_election(
                    partitions, isinstance(election_trigger, AutoTriggered)
                )

    def _initialize_controller_context(self) -> None:
        ctx = self.controller_context
        cur_broker_and_epochs = self.zk_client.get_all_broker_and_epochs_in_cluster()
        compatible, incompatible = self._partition_on_feature_compatibility(cur_broker_and_epochs)
        if incompatible:
            self.warn(
                "Ignoring registration of new brokers due to incompatibilities with finalized features: "
                + ",".join(str(b.id) for b in sorted(incompatible, key=lambda b: b.id))
            )
        ctx.set_live_brokers(compatible)
        self.info(f"Initialized broker epochs cache: {_map_str(ctx.live_broker_id_and_epochs)}")
        ctx.set_all_topics(self.zk_client.get_all_topics_in_cluster(True))
        self._register_partition_modifications_handlers(sorted(ctx.all_topics))
        replica_assignment_and_topic_ids = self.zk_client.get_replica_assignment_and_topic_id_for_topics(
            set(ctx.all_topics)
        )
        self._process_topic_ids(replica_assignment_and_topic_ids)
        for topic_id_assignment in replica_assignment_and_topic_ids:
            for topic_partition, replica_assignment in topic_id_assignment.assignment.items():
                ctx.update_partition_full_replica_assignment(topic_partition, replica_assignment)
                if replica_assignment.is_being_reassigned:
                    ctx.partitions_being_reassigned.add(topic_partition)
        ctx.clear_partition_leadership_info()
        ctx.shutting_down_broker_ids.clear()
        self._register_broker_modifications_handler(sorted(ctx.live_or_shutting_down_broker_ids))
        self._update_leader_and_isr_cache()
        self.controller_channel_manager.startup()
        self.info(f"Currently active brokers in the cluster: {_set_str(ctx.live_broker_ids)}")
        self.info(f"Currently shutting brokers in the cluster: {_set_str(ctx.shutting_down_broker_ids)}")
        self.info(f"Current list of topics in the cluster: {_set_str(ctx.all_topics)}")

    def _fetch_pending_preferred_replica_elections(self) -> set[TopicPartition]:
        ctx = self.controller_context
        partitions_undergoing = set(self.zk_client.get_preferred_replica_election())

        def completed_or_deleted(partition: TopicPartition) -> bool:
            replicas = ctx.partition_replica_assignment(partition)
            if not replicas:
                return True  # the topic was deleted
            info = ctx.partition_leadership_info(partition)
            return info is not None and info.leader_and_isr.leader == replicas[0]

        completed = {p for p in partitions_undergoing if completed_or_deleted(p)}
        pending_ignoring_deletion = partitions_undergoing - completed
        skipped_for_deletion = {
            p for p in pending_ignoring_deletion if self.topic_deletion_manager.is_topic_queued_up_for_deletion(p.topic)
        }
        pending = pending_ignoring_deletion - skipped_for_deletion
        self.info(f"Partitions undergoing preferred replica election: {_tps_str(partitions_undergoing)}")
        self.info(f"Partitions that completed preferred replica election: {_tps_str(completed)}")
        self.info(
            "Skipping preferred replica election for partitions due to topic deletion: "
            f"{_tps_str(skipped_for_deletion)}"
        )
        self.info(f"Resuming preferred replica election for partitions: {_tps_str(pending)}")
        return pending

    def _initialize_partition_reassignments(self) -> None:
        # Reassignments submitted through ZooKeeper during the failover replace API ones for their partitions.
        zk_partitions_resumed = self._process_zk_partition_reassignment()
        self._maybe_resume_reassignments(lambda tp, _assignment: tp not in zk_partitions_resumed)

    def _fetch_topic_deletions_in_progress(self) -> tuple[set[str], set[str]]:
        ctx = self.controller_context
        topics_to_be_deleted = set(self.zk_client.get_topic_deletions())
        topics_with_offline_replicas = {
            topic
            for topic in ctx.all_topics
            if any(not ctx.is_replica_online(r.replica, r.topic_partition) for r in ctx.replicas_for_topic(topic))
        }
        topics_being_reassigned = {tp.topic for tp in ctx.partitions_being_reassigned}
        topics_ineligible_for_deletion = topics_with_offline_replicas | topics_being_reassigned
        self.info(f"List of topics to be deleted: {','.join(sorted(topics_to_be_deleted))}")
        self.info(f"List of topics ineligible for deletion: {','.join(sorted(topics_ineligible_for_deletion))}")
        return topics_to_be_deleted, topics_ineligible_for_deletion

    def _update_leader_and_isr_cache(self, partitions: Sequence[TopicPartition] | None = None) -> None:
        if partitions is None:
            partitions = sorted(self.controller_context.all_partitions)
        leader_isr_and_controller_epochs = self.zk_client.get_topic_partition_states(list(partitions))
        for partition, leader_isr_and_controller_epoch in leader_isr_and_controller_epochs.items():
            self.controller_context.put_partition_leadership_info(partition, leader_isr_and_controller_epoch)

    def _is_reassignment_complete(self, partition: TopicPartition, assignment: ReplicaAssignment) -> bool:
        if not assignment.is_being_reassigned:
            return True
        states = self.zk_client.get_topic_partition_states([partition])
        leader_isr_and_controller_epoch = states.get(partition)
        if leader_isr_and_controller_epoch is None:
            return False
        return set(assignment.target_replicas) <= set(leader_isr_and_controller_epoch.leader_and_isr.isr)

    def _move_reassigned_partition_leader_if_required(
        self, topic_partition: TopicPartition, new_assignment: ReplicaAssignment
    ) -> None:
        reassigned_replicas = new_assignment.replicas
        info = self.controller_context.partition_leadership_info(topic_partition)
        assert info is not None
        current_leader = info.leader_and_isr.leader
        replicas_str = ",".join(map(str, reassigned_replicas))
        if current_leader not in reassigned_replicas:
            self.info(
                f"Leader {current_leader} for partition {topic_partition} being reassigned, is not in the new list of "
                f"replicas {replicas_str}. Re-electing leader"
            )
            self.partition_state_machine.handle_state_changes(
                [topic_partition], OnlinePartition(), ReassignPartitionLeaderElectionStrategy()
            )
        elif self.controller_context.is_replica_online(current_leader, topic_partition):
            self.info(
                f"Leader {current_leader} for partition {topic_partition} being reassigned, is already in the new "
                f"list of replicas {replicas_str} and is alive"
            )
            # The new (smaller) replica list reaches brokers with a new leader epoch.
            self._update_leader_epoch_and_send_request(topic_partition, new_assignment)
        else:
            self.info(
                f"Leader {current_leader} for partition {topic_partition} being reassigned, is already in the new "
                f"list of replicas {replicas_str} but is dead"
            )
            self.partition_state_machine.handle_state_changes(
                [topic_partition], OnlinePartition(), ReassignPartitionLeaderElectionStrategy()
            )

    def _stop_removed_replicas_of_reassigned_partition(
        self, topic_partition: TopicPartition, removed_replicas: Sequence[int]
    ) -> None:
        # Out of the ISR first (OfflineReplica), then StopReplica with delete.
        replicas_to_be_deleted = [PartitionAndReplica(topic_partition, r) for r in removed_replicas]
        self.replica_state_machine.handle_state_changes(replicas_to_be_deleted, OfflineReplica())
        self.replica_state_machine.handle_state_changes(replicas_to_be_deleted, ReplicaDeletionStarted())
        self.replica_state_machine.handle_state_changes(replicas_to_be_deleted, ReplicaDeletionSuccessful())
        self.replica_state_machine.handle_state_changes(replicas_to_be_deleted, NonExistentReplica())

    def _update_replica_assignment_for_partition(
        self, topic_partition: TopicPartition, assignment: ReplicaAssignment
    ) -> None:
        topic_assignment = dict(
            self.controller_context.partition_full_replica_assignment_for_topic(topic_partition.topic)
        )
        topic_assignment[topic_partition] = assignment
        set_data_response = self.zk_client.set_topic_assignment_raw(
            topic_partition.topic,
            self.controller_context.topic_ids.get(topic_partition.topic),
            topic_assignment,
            self.controller_context.epoch_zk_version,
        )
        code = set_data_response.result_code
        if code == Code.OK:
            self.info(f"Successfully updated assignment of partition {topic_partition} to {assignment}")
        elif code == Code.NONODE:
            raise RuntimeError(
                f"Failed to update assignment for {topic_partition} since the topic has no current assignment"
            )
        else:
            exception = set_data_response.result_exception
            raise KafkaException(str(exception)) from exception

    def _start_new_replicas_for_reassigned_partition(
        self, topic_partition: TopicPartition, new_replicas: Sequence[int]
    ) -> None:
        # The added replicas learn of the partition (LeaderAndIsr, as followers).
        for replica in new_replicas:
            self.replica_state_machine.handle_state_changes(
                [PartitionAndReplica(topic_partition, replica)], NewReplica()
            )

    def _update_leader_epoch_and_send_request(
        self, topic_partition: TopicPartition, assignment: ReplicaAssignment
    ) -> None:
        state_change_log = self.state_change_logger.with_controller_epoch(self.controller_context.epoch)
        updated = self._update_leader_epoch(topic_partition)
        if updated is None:
            state_change_log.error(
                f"Failed to send LeaderAndIsr request with new replica assignment {assignment} to leader for "
                f"partition being reassigned {topic_partition}"
            )
            return
        try:
            self.broker_request_batch.new_batch()
            # Original replicas keep their logs (isNew false); added replicas may be placed on any good log dir.
            self.broker_request_batch.add_leader_and_isr_request_for_brokers(
                assignment.origin_replicas, topic_partition, updated, assignment, is_new=False
            )
            self.broker_request_batch.add_leader_and_isr_request_for_brokers(
                assignment.adding_replicas, topic_partition, updated, assignment, is_new=True
            )
            self.broker_request_batch.send_requests_to_brokers(self.controller_context.epoch)
        except RuntimeError as e:
            self._handle_illegal_state(e)
        state_change_log.info(
            f"Sent LeaderAndIsr request {updated} with new replica assignment {assignment} to leader "
            f"{updated.leader_and_isr.leader} for partition being reassigned {topic_partition}"
        )

    def _register_partition_modifications_handlers(self, topics: Sequence[str]) -> None:
        for topic in topics:
            self._partition_modifications_handlers[topic] = PartitionModificationsHandler(self.event_manager, topic)
        for handler in self._partition_modifications_handlers.values():
            self.zk_client.register_z_node_change_handler(handler)

    def unregister_partition_modifications_handlers(self, topics: Sequence[str]) -> None:
        for topic in topics:
            handler = self._partition_modifications_handlers.pop(topic, None)
            if handler is not None:
                self.zk_client.unregister_z_node_change_handler(handler.path)

    def _unregister_partition_reassignment_isr_change_handlers(self) -> None:
        if not self._is_alter_isr_enabled:
            for tp in self.controller_context.partitions_being_reassigned:
                self.zk_client.unregister_z_node_change_handler(zk_data.TopicPartitionStateZNode.path(tp))

    def _remove_partition_from_reassigning_partitions(
        self, topic_partition: TopicPartition, assignment: ReplicaAssignment
    ) -> None:
        if topic_partition not in self.controller_context.partitions_being_reassigned:
            raise RuntimeError("Cannot remove a reassigning partition because it is not present in memory")
        if not self._is_alter_isr_enabled:
            self.zk_client.unregister_z_node_change_handler(zk_data.TopicPartitionStateZNode.path(topic_partition))
        self._maybe_remove_from_zk_reassignment(
            lambda tp, replicas: tp == topic_partition and tuple(replicas) == tuple(assignment.replicas)
        )
        self.controller_context.partitions_being_reassigned.discard(topic_partition)

    def _maybe_remove_from_zk_reassignment(
        self, should_remove_reassignment: Callable[[TopicPartition, Sequence[int]], bool]
    ) -> None:
        """Removes the matching partitions from `/admin/reassign_partitions`, deleting it when empty."""
        if not self.zk_client.reassign_partitions_in_progress():
            return
        reassigning_partitions = self.zk_client.get_partition_reassignment()
        removing_partitions = {tp: r for tp, r in reassigning_partitions.items() if should_remove_reassignment(tp, r)}
        updated_partitions_being_reassigned = {
            tp: r for tp, r in reassigning_partitions.items() if tp not in removing_partitions
        }
        self.info(
            f"Removing partitions {_map_str(removing_partitions)} from the list of reassigned partitions in zookeeper"
        )
        if not updated_partitions_being_reassigned:
            self.info(
                f"No more partitions need to be reassigned. Deleting zk path {zk_data.ReassignPartitionsZNode.path}"
            )
            self.zk_client.delete_partition_reassignment(self.controller_context.epoch_zk_version)
            # Watch for the next reassignment.
            self.event_manager.put(ZkPartitionReassignment())
        else:
            self.zk_client.set_or_create_partition_reassignment(
                updated_partitions_being_reassigned, self.controller_context.epoch_zk_version
            )

    def _remove_partitions_from_preferred_replica_election(
        self, partitions_to_be_removed: Iterable[TopicPartition], is_triggered_by_auto_rebalance: bool
    ) -> None:
        ctx = self.controller_context
        for partition in partitions_to_be_removed:
            info = ctx.partition_leadership_info(partition)
            replicas = ctx.partition_replica_assignment(partition)
            if info is None or not replicas:
                continue
            current_leader = info.leader_and_isr.leader
            preferred_replica = replicas[0]
            if current_leader == preferred_replica:
                self.info(
                    f"Partition {partition} completed preferred replica leader election. New leader is "
                    f"{preferred_replica}"
                )
            else:
                self.warn(
                    f"Partition {partition} failed to complete preferred replica leader election to "
                    f"{preferred_replica}. Leader is still {current_leader}"
                )
        if not is_triggered_by_auto_rebalance:
            self.zk_client.delete_preferred_replica_election(ctx.epoch_zk_version)
            # Watch for the next preferred replica election.
            self.event_manager.put(ReplicaLeaderElection(None, ElectionType.PREFERRED, ZkTriggered()))

    def send_update_metadata_request(self, brokers: Sequence[int], partitions: Iterable[TopicPartition]) -> None:
        """UpdateMetadata for `partitions` (none: only the broker list) to `brokers`."""
        try:
            self.broker_request_batch.new_batch()
            self.broker_request_batch.add_update_metadata_request_for_brokers(brokers, partitions)
            self.broker_request_batch.send_requests_to_brokers(self.epoch)
        except RuntimeError as e:
            self._handle_illegal_state(e)

    def _update_leader_epoch(self, partition: TopicPartition) -> LeaderIsrAndControllerEpoch | None:
        """Bumps the partition's leader epoch in ZooKeeper without changing leader or ISR (so the leader picks
        up a changed replica list), retrying zk version conflicts."""
        self.debug(f"Updating leader epoch for partition {partition}")
        while True:
            leader_isr_and_controller_epoch = self.zk_client.get_topic_partition_states([partition]).get(partition)
            if leader_isr_and_controller_epoch is None:
                raise RuntimeError(
                    f"Cannot update leader epoch for partition {partition} as leaderAndIsr path is empty. This could "
                    "mean we somehow tried to reassign a partition that doesn't exist"
                )
            leader_and_isr = leader_isr_and_controller_epoch.leader_and_isr
            controller_epoch = leader_isr_and_controller_epoch.controller_epoch
            if controller_epoch > self.epoch:
                raise StateChangeFailedException(
                    "Leader and isr path written by another controller. This probably means the current controller "
                    f"with epoch {self.epoch} went through a soft failure and another controller was elected with "
                    f"epoch {controller_epoch}. Aborting state change by this controller"
                )
            new_leader_and_isr = leader_and_isr.new_epoch_and_zk_version
            result = self.zk_client.update_leader_and_isr(
                {partition: new_leader_and_isr}, self.epoch, self.controller_context.epoch_zk_version
            )
            outcome = result.finished_partitions.get(partition)
            if outcome is None:
                continue  # zk version conflict: read again
            if isinstance(outcome, BaseException):
                raise outcome
            updated = LeaderIsrAndControllerEpoch(outcome, self.epoch)
            self.controller_context.put_partition_leadership_info(partition, updated)
            self.info(
                f"Updated leader epoch for partition {partition} to {outcome.leader_epoch}, "
                f"zkVersion={outcome.zk_version}"
            )
            return updated

    def _check_and_trigger_auto_leader_rebalance(self) -> None:
        """For each broker that is some partitions' preferred replica: if more than
        `leader.imbalance.per.broker.percentage` of them are led elsewhere, elect the preferred replicas (when
        no reassignment runs)."""
        self.trace("Checking need to trigger auto leader balancing")
        ctx = self.controller_context
        preferred_replicas_for_topics_by_brokers: dict[int, dict[TopicPartition, tuple[int, ...]]] = {}
        for tp in ctx.all_partitions:
            if self.topic_deletion_manager.is_topic_queued_up_for_deletion(tp.topic):
                continue
            assigned = ctx.partition_replica_assignment(tp)
            if assigned:
                preferred_replicas_for_topics_by_brokers.setdefault(assigned[0], {})[tp] = assigned

        for leader_broker, topic_partitions_for_broker in preferred_replicas_for_topics_by_brokers.items():
            topics_not_in_preferred_replica = {
                tp: replicas
                for tp, replicas in topic_partitions_for_broker.items()
                if (info := ctx.partition_leadership_info(tp)) is not None
                and info.leader_and_isr.leader != leader_broker
            }
            self.debug(
                f"Topics not in preferred replica for broker {leader_broker} "
                f"{_map_str(topics_not_in_preferred_replica)}"
            )
            imbalance_ratio = len(topics_not_in_preferred_replica) / len(topic_partitions_for_broker)
            self.trace(f"Leader imbalance ratio for broker {leader_broker} is {imbalance_ratio}")
            if imbalance_ratio > self.config.leader_imbalance_per_broker_percentage / 100:
                candidate_partitions = {
                    tp
                    for tp in topics_not_in_preferred_replica
                    if not ctx.partitions_being_reassigned
                    and not self.topic_deletion_manager.is_topic_queued_up_for_deletion(tp.topic)
                    and tp.topic in ctx.all_topics
                    and self._can_preferred_replica_be_leader(tp)
                }
                self._on_replica_election(candidate_partitions, ElectionType.PREFERRED, AutoTriggered())

    def _can_preferred_replica_be_leader(self, tp: TopicPartition) -> bool:
        ctx = self.controller_context
        assignment = ctx.partition_replica_assignment(tp)
        live_replicas = {r for r in assignment if ctx.is_replica_online(r, tp)}
        info = ctx.partition_leadership_info(tp)
        assert info is not None
        return (
            PartitionLeaderElectionAlgorithms.preferred_replica_partition_leader_election(
                assignment, info.leader_and_isr.isr, live_replicas
            )
            is not None
        )

    # -- event processing -----------------------------------------------------------------------------------------

    def _process_auto_preferred_replica_leader_election(self) -> None:
        if not self.is_active:
            return
        try:
            self.info("Processing automatic preferred replica leader election")
            self._check_and_trigger_auto_leader_rebalance()
        finally:
            self._schedule_auto_leader_rebalance_task(
                delay_ms=self.config.leader_imbalance_check_interval_seconds * 1000
            )

    def _process_unclean_leader_election_enable(self) -> None:
        if not self.is_active:
            return
        self.info("Unclean leader election has been enabled by default")
        self.partition_state_machine.trigger_online_partition_state_change()

    def _process_topic_unclean_leader_election_enable(self, topic: str) -> None:
        if not self.is_active:
            return
        self.info(f"Unclean leader election has been enabled for topic {topic}")
        self.partition_state_machine.trigger_online_partition_state_change(topic)

    def _process_controlled_shutdown(
        self, id_: int, broker_epoch: int, controlled_shutdown_callback: ControlledShutdownCallback
    ) -> None:
        result: Any
        try:
            result = self._do_controlled_shutdown(id_, broker_epoch)
        except Exception as e:
            result = e
        controlled_shutdown_callback(result)

    def _do_controlled_shutdown(self, id_: int, broker_epoch: int) -> set[TopicPartition]:
        """Moves leadership off broker `id_` and takes it out of ISRs; returns the partitions it still leads."""
        if not self.is_active:
            raise ControllerMovedException("Controller moved to another broker. Aborting controlled shutdown")
        ctx = self.controller_context
        # A broker that does not send its epoch (pre KIP-380) is not checked.
        if broker_epoch != UNKNOWN_BROKER_EPOCH:
            cached_broker_epoch = ctx.live_broker_id_and_epochs.get(id_)
            if cached_broker_epoch is None:
                # PORT: Kafka's map lookup fails with NoSuchElementException (UNKNOWN_SERVER_ERROR to the broker);
                # the unknown broker is reported as such instead.
                raise BrokerNotAvailableException(f"Broker id {id_} does not exist.")
            if broker_epoch < cached_broker_epoch:
                message = (
                    f"Received controlled shutdown request from an old broker epoch {broker_epoch} for broker {id_}. "
                    f"Current broker epoch is {cached_broker_epoch}."
                )
                self.info(message)
                raise StaleBrokerEpochException(message)

        self.info(f"Shutting down broker {id_}")
        if id_ not in ctx.live_or_shutting_down_broker_ids:
            raise BrokerNotAvailableException(f"Broker id {id_} does not exist.")

        ctx.shutting_down_broker_ids.add(id_)
        self.debug(f"All shutting down brokers: {','.join(map(str, sorted(ctx.shutting_down_broker_ids)))}")
        self.debug(f"Live brokers: {','.join(map(str, sorted(ctx.live_broker_ids)))}")

        partitions_to_act_on = [
            p
            for p in sorted(ctx.partitions_on_broker(id_))
            if len(ctx.partition_replica_assignment(p)) > 1
            and ctx.partition_leadership_info(p) is not None
            and not self.topic_deletion_manager.is_topic_queued_up_for_deletion(p.topic)
        ]
        partitions_led_by_broker: list[TopicPartition] = []
        partitions_followed_by_broker: list[TopicPartition] = []
        for p in partitions_to_act_on:
            info = ctx.partition_leadership_info(p)
            assert info is not None
            (partitions_led_by_broker if info.leader_and_isr.leader == id_ else partitions_followed_by_broker).append(p)
        self.partition_state_machine.handle_state_changes(
            partitions_led_by_broker, OnlinePartition(), ControlledShutdownPartitionLeaderElectionStrategy()
        )
        try:
            self.broker_request_batch.new_batch()
            for partition in partitions_followed_by_broker:
                self.broker_request_batch.add_stop_replica_request_for_brokers([id_], partition, delete_partition=False)
            self.broker_request_batch.send_requests_to_brokers(self.epoch)
        except RuntimeError as e:
            self._handle_illegal_state(e)
        # Followers leave the ISR; their leaders are told.
        self.replica_state_machine.handle_state_changes(
            [PartitionAndReplica(p, id_) for p in partitions_followed_by_broker], OfflineReplica()
        )
        if self.is_trace_enabled():
            self.trace(f"All leaders = {_map_str(ctx.partitions_leadership_info)}")
        return ctx.partition_leaders_on_broker(id_)

    def _process_update_metadata_response_received(self, response: UpdateMetadataResponse, broker_id: int) -> None:
        if not self.is_active:
            return
        if response.error() != Errors.NONE:
            self.state_change_logger.error(
                f"Received error {response.error().name} in UpdateMetadata response {response} from broker {broker_id}"
            )

    def _process_leader_and_isr_response_received(self, response: LeaderAndIsrResponse, broker_id: int) -> None:
        """Replicas a broker reports as KAFKA_STORAGE_ERROR are offline (their log dir failed); the others it
        answered for are online."""
        if not self.is_active:
            return
        if response.error() != Errors.NONE:
            self.state_change_logger.error(
                f"Received error {response.error().name} in LeaderAndIsr response {response} from broker {broker_id}"
            )
            return
        ctx = self.controller_context
        offline_replicas: list[TopicPartition] = []
        online_replicas: list[TopicPartition] = []
        for (topic, partition), error in response.partition_errors(ctx.topic_names).items():
            if error == Errors.KAFKA_STORAGE_ERROR:
                offline_replicas.append(TopicPartition(topic, partition))
            elif error == Errors.NONE:
                online_replicas.append(TopicPartition(topic, partition))

        previous_offline_replicas = ctx.replicas_on_offline_dirs.get(broker_id, set())
        current_offline_replicas = (set(previous_offline_replicas) - set(online_replicas)) | set(offline_replicas)
        ctx.replicas_on_offline_dirs[broker_id] = current_offline_replicas
        new_offline_replicas = current_offline_replicas - previous_offline_replicas
        if new_offline_replicas:
            self.state_change_logger.info(
                f"Mark replicas {','.join(map(str, sorted(new_offline_replicas)))} on broker {broker_id} as offline"
            )
            self._on_replicas_become_offline({PartitionAndReplica(tp, broker_id) for tp in new_offline_replicas})

    def _process_topic_deletion_stop_replica_response_received(
        self, replica_id: int, request_error: Errors, partition_errors: Mapping[TopicPartition, Errors]
    ) -> None:
        if not self.is_active:
            return
        self.debug(
            f"Delete topic callback invoked on StopReplica response received from broker {replica_id}: request "
            f"error = {request_error.name}, partition errors = {_map_str(partition_errors)}"
        )
        if request_error != Errors.NONE:
            partitions_in_error = set(partition_errors)
        else:
            partitions_in_error = {tp for tp, error in partition_errors.items() if error != Errors.NONE}
        replicas_in_error = {PartitionAndReplica(tp, replica_id) for tp in partitions_in_error}
        self.topic_deletion_manager.fail_replica_deletion(replicas_in_error)
        if len(replicas_in_error) != len(partition_errors):
            deleted_replicas = set(partition_errors) - partitions_in_error
            self.topic_deletion_manager.complete_replica_deletion(
                {PartitionAndReplica(tp, replica_id) for tp in deleted_replicas}
            )

    def _process_startup(self) -> None:
        self.zk_client.register_z_node_change_handler_and_check_existence(self._controller_change_handler)
        self._elect()

    def _update_metrics(self) -> None:
        ctx = self.controller_context
        active = self.is_active
        self.offline_partition_count = ctx.offline_partition_count if active else 0
        self.preferred_replica_imbalance_count = ctx.preferred_replica_imbalance_count if active else 0
        self.global_topic_count = len(ctx.all_topics) if active else 0
        self.global_partition_count = ctx.partition_with_leaders_count if active else 0
        self.topics_to_delete_count = len(ctx.topics_to_be_deleted) if active else 0
        if active:
            self.replicas_to_delete_count = sum(
                1
                for topic in ctx.topics_to_be_deleted
                for replica in ctx.replicas_for_topic(topic)
                if ctx.replica_states.get(replica) != ReplicaDeletionSuccessful()
            )
            self.ineligible_replicas_to_delete_count = sum(
                1
                for topic in ctx.topics_to_be_deleted
                for replica in ctx.replicas_for_topic(topic)
                if ctx.replica_states.get(replica) == ReplicaDeletionIneligible()
            )
        else:
            self.replicas_to_delete_count = 0
            self.ineligible_replicas_to_delete_count = 0
        self.ineligible_topics_to_delete_count = len(ctx.topics_ineligible_for_deletion) if active else 0

    def _handle_illegal_state(self, e: RuntimeError) -> None:
        """Resigns (the controller's state can no longer be trusted) and re-raises."""
        self.error("Forcing the controller to resign")
        self.broker_request_batch.clear()
        self._trigger_controller_move()
        raise e

    def _trigger_controller_move(self) -> None:
        controller_id = self.zk_client.get_controller_id()
        self._active_controller_id = -1 if controller_id is None else controller_id
        if not self.is_active:
            self.warn("Controller has already moved when trying to trigger controller movement")
            return
        try:
            expected_controller_epoch_zk_version = self.controller_context.epoch_zk_version
            self._active_controller_id = -1
            self._on_controller_resignation()
            self.zk_client.delete_controller(expected_controller_epoch_zk_version)
        except ControllerMovedException:
            self.warn("Controller has already moved when trying to trigger controller movement")

    def _maybe_resign(self) -> None:
        was_active_before_change = self.is_active
        self.zk_client.register_z_node_change_handler_and_check_existence(self._controller_change_handler)
        controller_id = self.zk_client.get_controller_id()
        self._active_controller_id = -1 if controller_id is None else controller_id
        if was_active_before_change and not self.is_active:
            self._on_controller_resignation()

    def _elect(self) -> None:
        controller_id = self.zk_client.get_controller_id()
        self._active_controller_id = -1 if controller_id is None else controller_id
        # Startup and a deleted /controller can race: if a controller is already there, stop.
        if self._active_controller_id != -1:
            self.debug(
                f"Broker {self._active_controller_id} has been elected as the controller, so stopping the election "
                "process."
            )
            return
        try:
            epoch, epoch_zk_version = self.zk_client.register_controller_and_increment_controller_epoch(
                self.config.broker_id
            )
            self.controller_context.epoch = epoch
            self.controller_context.epoch_zk_version = epoch_zk_version
            self._active_controller_id = self.config.broker_id
            self.info(
                f"{self.config.broker_id} successfully elected as the controller. Epoch incremented to "
                f"{self.controller_context.epoch} and epoch zk version is now "
                f"{self.controller_context.epoch_zk_version}"
            )
            self._on_controller_failover()
        except ControllerMovedException as e:
            self._maybe_resign()
            if self._active_controller_id != -1:
                self.debug(
                    f"Broker {self._active_controller_id} was elected as controller instead of broker "
                    f"{self.config.broker_id}",
                    e,
                )
            else:
                self.warn(
                    "A controller has been elected but just resigned, this will result in another round of election", e
                )
        except Exception as t:
            self.error(
                f"Error while electing or becoming controller on broker {self.config.broker_id}. Trigger controller "
                "movement immediately",
                t,
            )
            self._trigger_controller_move()

    def _partition_on_feature_compatibility(
        self, brokers_and_epochs: Mapping[Broker, int]
    ) -> tuple[dict[Broker, int], dict[Broker, int]]:
        """Brokers whose supported features fit the finalized features, and the others. Without feature
        versioning or a feature cache, every broker fits.

        # PORT: brokers carry no supported features in this port yet, so with a cache every broker fits too."""
        return dict(brokers_and_epochs), {}

    def _process_broker_change(self) -> None:
        """Brokers registered or gone: new ones start, dead ones fail, bounced ones (a newer broker epoch) do
        both."""
        if not self.is_active:
            return
        ctx = self.controller_context
        cur_broker_and_epochs = self.zk_client.get_all_broker_and_epochs_in_cluster()
        cur_broker_id_and_epochs = {b.id: e for b, e in cur_broker_and_epochs.items()}
        cur_broker_ids = set(cur_broker_id_and_epochs)
        live_or_shutting_down_broker_ids = ctx.live_or_shutting_down_broker_ids
        new_broker_ids = cur_broker_ids - live_or_shutting_down_broker_ids
        dead_broker_ids = live_or_shutting_down_broker_ids - cur_broker_ids
        known_epochs = ctx.live_broker_id_and_epochs
        bounced_broker_ids = {
            b
            for b in cur_broker_ids & live_or_shutting_down_broker_ids
            if cur_broker_id_and_epochs[b] > known_epochs[b]
        }
        new_broker_and_epochs = {b: e for b, e in cur_broker_and_epochs.items() if b.id in new_broker_ids}
        bounced_broker_and_epochs = {b: e for b, e in cur_broker_and_epochs.items() if b.id in bounced_broker_ids}
        new_broker_ids_sorted = sorted(new_broker_ids)
        dead_broker_ids_sorted = sorted(dead_broker_ids)
        live_broker_ids_sorted = sorted(cur_broker_ids)
        bounced_broker_ids_sorted = sorted(bounced_broker_ids)
        self.info(
            f"Newly added brokers: {','.join(map(str, new_broker_ids_sorted))}, "
            f"deleted brokers: {','.join(map(str, dead_broker_ids_sorted))}, "
            f"bounced brokers: {','.join(map(str, bounced_broker_ids_sorted))}, "
            f"all live brokers: {','.join(map(str, live_broker_ids_sorted))}"
        )

        for broker in new_broker_and_epochs:
            self.controller_channel_manager.add_broker(broker)
        for broker_id in bounced_broker_ids:
            self.controller_channel_manager.remove_broker(broker_id)
        for broker in bounced_broker_and_epochs:
            self.controller_channel_manager.add_broker(broker)
        for broker_id in dead_broker_ids:
            self.controller_channel_manager.remove_broker(broker_id)

        if new_broker_ids:
            compatible, incompatible = self._partition_on_feature_compatibility(new_broker_and_epochs)
            if incompatible:
                self.warn(
                    "Ignoring registration of new brokers due to incompatibilities with finalized features: "
                    + ",".join(str(b.id) for b in sorted(incompatible, key=lambda b: b.id))
                )
            ctx.add_live_brokers(compatible)
            self._on_broker_startup(new_broker_ids_sorted)
        if bounced_broker_ids:
            ctx.remove_live_brokers(bounced_broker_ids)
            self._on_broker_failure(bounced_broker_ids_sorted)
            compatible, incompatible = self._partition_on_feature_compatibility(bounced_broker_and_epochs)
            if incompatible:
                self.warn(
                    "Ignoring registration of bounced brokers due to incompatibilities with finalized features: "
                    + ",".join(str(b.id) for b in sorted(incompatible, key=lambda b: b.id))
                )
            ctx.add_live_brokers(compatible)
            self._on_broker_startup(bounced_broker_ids_sorted)
        if dead_broker_ids:
            ctx.remove_live_brokers(dead_broker_ids)
            self._on_broker_failure(dead_broker_ids_sorted)

        if new_broker_ids or dead_broker_ids or bounced_broker_ids:
            self.info(f"Updated broker epochs cache: {_map_str(ctx.live_broker_id_and_epochs)}")

    def _process_broker_modification(self, broker_id: int) -> None:
        if not self.is_active:
            return
        new_metadata = self.zk_client.get_broker(broker_id)
        old_metadata = self.controller_context.live_or_shutting_down_broker(broker_id)
        if new_metadata is not None and old_metadata is not None:
            # PORT: Kafka also compares the brokers' supported features, which Broker does not carry here yet.
            if new_metadata.end_points != old_metadata.end_points:
                self.info(f"Updated broker metadata: {old_metadata} -> {new_metadata}")
                self.controller_context.update_broker_metadata(old_metadata, new_metadata)
                self._on_broker_update(broker_id)

    def _process_topic_change(self) -> None:
        if not self.is_active:
            return
        ctx = self.controller_context
        topics = set(self.zk_client.get_all_topics_in_cluster(True))
        new_topics = topics - ctx.all_topics
        deleted_topics = ctx.all_topics - topics
        ctx.set_all_topics(topics)

        self._register_partition_modifications_handlers(sorted(new_topics))
        added_partition_replica_assignment = self.zk_client.get_replica_assignment_and_topic_id_for_topics(new_topics)
        for topic in deleted_topics:
            ctx.remove_topic(topic)
        self._process_topic_ids(added_partition_replica_assignment)

        for topic_id_assignment in added_partition_replica_assignment:
            for topic_partition, new_replica_assignment in topic_id_assignment.assignment.items():
                ctx.update_partition_full_replica_assignment(topic_partition, new_replica_assignment)
        self.info(
            f"New topics: [{_set_str(new_topics)}], deleted topics: [{_set_str(deleted_topics)}], new partition "
            f"replica assignment [{_set_str(added_partition_replica_assignment)}]"
        )
        if added_partition_replica_assignment:
            partition_assignments: set[TopicPartition] = set()
            for topic_id_assignment in added_partition_replica_assignment:
                partition_assignments.update(topic_id_assignment.assignment.keys())
            self._on_new_partition_creation(partition_assignments)

    def _process_topic_ids(self, topic_id_assignments: Iterable[Any]) -> None:
        """Gives topics without an id one (from IBP 2.8, written to the topic znode) and records the ids."""
        topic_id_assignments = list(topic_id_assignments)
        if self.config.uses_topic_id:
            with_topic_ids = [a for a in topic_id_assignments if a.topic_id is not None]
            without_topic_ids = [a for a in topic_id_assignments if a.topic_id is None]
            updated = with_topic_ids + list(
                self.zk_client.set_topic_ids(without_topic_ids, self.controller_context.epoch_zk_version)
            )
        else:
            # Below IBP 2.8, ids already in the znodes are still kept, so that a mixed cluster does not lose them.
            updated = topic_id_assignments
        for topic_id_assignment in updated:
            if topic_id_assignment.topic_id is not None:
                self.controller_context.add_topic_id(topic_id_assignment.topic, topic_id_assignment.topic_id)

    def _process_log_dir_event_notification(self) -> None:
        if not self.is_active:
            return
        sequence_numbers = self.zk_client.get_all_log_dir_event_notifications()
        try:
            broker_ids = self.zk_client.get_broker_ids_from_log_dir_events(sequence_numbers)
            self._on_broker_log_dir_failure(broker_ids)
        finally:
            # The processed notifications are removed.
            self.zk_client.delete_log_dir_event_notifications(
                self.controller_context.epoch_zk_version, sequence_numbers
            )

    def _process_partition_modifications(self, topic: str) -> None:
        """Partitions added to a topic: created, unless the topic is being deleted (then the znode gets back the
        assignment it had)."""
        if not self.is_active:
            return
        ctx = self.controller_context
        partition_replica_assignment = self.zk_client.get_full_replica_assignment_for_topics({topic})
        partitions_to_be_added = {
            tp: a for tp, a in partition_replica_assignment.items() if not ctx.partition_replica_assignment(tp)
        }
        if self.topic_deletion_manager.is_topic_queued_up_for_deletion(topic):
            if partitions_to_be_added:
                self.warn(
                    f"Skipping adding partitions {','.join(str(tp.partition) for tp in partitions_to_be_added)} for "
                    f"topic {topic} since it is currently being deleted"
                )
                self._restore_partition_replica_assignment(topic, partition_replica_assignment)
            else:
                # The assignment restored above comes back here as a change without new partitions.
                self.info("Ignoring partition change during topic deletion as no new partitions are added")
        elif partitions_to_be_added:
            self.info(f"New partitions to be added {_map_str(partitions_to_be_added)}")
            for topic_partition, assigned_replicas in partitions_to_be_added.items():
                ctx.update_partition_full_replica_assignment(topic_partition, assigned_replicas)
            self._on_new_partition_creation(set(partitions_to_be_added))

    def _restore_partition_replica_assignment(
        self, topic: str, new_partition_replica_assignment: Mapping[TopicPartition, ReplicaAssignment]
    ) -> None:
        self.info(f"Restoring the partition replica assignment for topic {topic}")
        existing_partitions = set(self.zk_client.get_children(zk_data.TopicPartitionsZNode.path(topic)))
        existing_partition_replica_assignment = {
            tp: self.controller_context.partition_full_replica_assignment(tp)
            for tp in new_partition_replica_assignment
            if str(tp.partition) in existing_partitions
        }
        self.zk_client.set_topic_assignment(
            topic,
            self.controller_context.topic_ids.get(topic),
            existing_partition_replica_assignment,
            self.controller_context.epoch_zk_version,
        )

    def _process_topic_deletion(self) -> None:
        if not self.is_active:
            return
        ctx = self.controller_context
        topics_to_be_deleted = set(self.zk_client.get_topic_deletions())
        self.debug(f"Delete topics listener fired for topics {','.join(sorted(topics_to_be_deleted))} to be deleted")
        non_existent_topics = topics_to_be_deleted - ctx.all_topics
        if non_existent_topics:
            self.warn(f"Ignoring request to delete non-existing topics {','.join(sorted(non_existent_topics))}")
            self.zk_client.delete_topic_deletions(sorted(non_existent_topics), ctx.epoch_zk_version)
        topics_to_be_deleted -= non_existent_topics
        if self.config.delete_topic_enable:
            if topics_to_be_deleted:
                self.info(f"Starting topic deletion for topics {','.join(sorted(topics_to_be_deleted))}")
                # Deletion waits for reassignments of the topic to finish.
                reassigning_topics = {tp.topic for tp in ctx.partitions_being_reassigned}
                for topic in topics_to_be_deleted:
                    if topic in reassigning_topics:
                        self.topic_deletion_manager.mark_topic_ineligible_for_deletion(
                            {topic}, reason="topic reassignment in progress"
                        )
                self.topic_deletion_manager.enqueue_topics_for_deletion(topics_to_be_deleted)
        else:
            # Deletion is disabled: drop the requests under /admin/delete_topics.
            self.info(f"Removing {_set_str(topics_to_be_deleted)} since delete topic is disabled")
            self.zk_client.delete_topic_deletions(sorted(topics_to_be_deleted), ctx.epoch_zk_version)

    def _process_zk_partition_reassignment(self) -> set[TopicPartition]:
        """Starts the reassignments in `/admin/reassign_partitions`; returns the partitions started. The watch
        is set (also when the znode is absent) so that the next one is seen."""
        if not (
            self.is_active
            and self.zk_client.register_z_node_change_handler_and_check_existence(self._partition_reassignment_handler)
        ):
            return set()
        reassignment_results: dict[TopicPartition, ApiError] = {}
        partitions_to_reassign: dict[TopicPartition, ReplicaAssignment] = {}
        for tp, target_replicas in self.zk_client.get_partition_reassignment().items():
            context = self._maybe_build_reassignment(tp, target_replicas)
            if context is not None:
                partitions_to_reassign[tp] = context
            else:
                reassignment_results[tp] = ApiError(Errors.NO_REASSIGNMENT_IN_PROGRESS)
        reassignment_results.update(self._maybe_trigger_partition_reassignment(partitions_to_reassign))
        partitions_reassigned = {tp for tp, e in reassignment_results.items() if e.error == Errors.NONE}
        partitions_failed = {tp: e for tp, e in reassignment_results.items() if e.error != Errors.NONE}
        if partitions_failed:
            self.warn(f"Failed reassignment through zk with the following errors: {_map_str(partitions_failed)}")
            self._maybe_remove_from_zk_reassignment(lambda tp, _replicas: tp in partitions_failed)
        return partitions_reassigned

    def _process_api_partition_reassignment(
        self, reassignments: Mapping[TopicPartition, Sequence[int] | None], callback: AlterReassignmentsCallback
    ) -> None:
        """AlterPartitionReassignments. An API reassignment replaces a ZooKeeper one of the same partition."""
        if not self.is_active:
            callback(ApiError(Errors.NOT_CONTROLLER))
            return
        reassignment_results: dict[TopicPartition, ApiError] = {}
        partitions_to_reassign: dict[TopicPartition, ReplicaAssignment] = {}
        for tp, target_replicas in reassignments.items():
            maybe_api_error = None if target_replicas is None else self._validate_replicas(tp, target_replicas)
            if maybe_api_error is None:
                context = self._maybe_build_reassignment(tp, target_replicas)
                if context is not None:
                    partitions_to_reassign[tp] = context
                else:
                    reassignment_results[tp] = ApiError(Errors.NO_REASSIGNMENT_IN_PROGRESS)
            else:
                reassignment_results[tp] = maybe_api_error
        self._maybe_remove_from_zk_reassignment(lambda tp, _replicas: tp in partitions_to_reassign)
        reassignment_results.update(self._maybe_trigger_partition_reassignment(partitions_to_reassign))
        callback(reassignment_results)

    def _validate_replicas(self, topic_partition: TopicPartition, replicas: Sequence[int]) -> ApiError | None:
        replica_set = set(replicas)
        if not replicas:
            return ApiError(
                Errors.INVALID_REPLICA_ASSIGNMENT, "Empty replica list specified in partition reassignment."
            )
        if len(replicas) != len(replica_set):
            return ApiError(
                Errors.INVALID_REPLICA_ASSIGNMENT,
                f"Duplicate replica ids in partition reassignment replica list: {_seq_str(replicas)}",
            )
        if any(r < 0 for r in replicas):
            return ApiError(
                Errors.INVALID_REPLICA_ASSIGNMENT, f"Invalid broker id in replica list: {_seq_str(replicas)}"
            )
        # Added replicas must be on live brokers.
        current_assignment = self.controller_context.partition_full_replica_assignment(topic_partition)
        new_assignment = current_assignment.reassign_to(replicas)
        live_broker_ids = self.controller_context.live_broker_ids
        if not set(new_assignment.adding_replicas) <= live_broker_ids:
            return ApiError(
                Errors.INVALID_REPLICA_ASSIGNMENT,
                "Replica assignment has brokers that are not alive. Replica list: "
                f"{_seq_str(new_assignment.adding_replicas)}, live broker list: {_set_str(live_broker_ids)}",
            )
        return None

    def _maybe_build_reassignment(
        self, topic_partition: TopicPartition, target_replicas_opt: Sequence[int] | None
    ) -> ReplicaAssignment | None:
        replica_assignment = self.controller_context.partition_full_replica_assignment(topic_partition)
        if replica_assignment.is_being_reassigned:
            target = replica_assignment.origin_replicas if target_replicas_opt is None else target_replicas_opt
            return replica_assignment.reassign_to(target)
        if target_replicas_opt is None:
            return None
        return replica_assignment.reassign_to(target_replicas_opt)

    def _process_partition_reassignment_isr_change(self, topic_partition: TopicPartition) -> None:
        if not self.is_active:
            return
        if topic_partition in self.controller_context.partitions_being_reassigned:
            self._maybe_complete_reassignment(topic_partition)

    def _maybe_complete_reassignment(self, topic_partition: TopicPartition) -> None:
        reassignment = self.controller_context.partition_full_replica_assignment(topic_partition)
        if self._is_reassignment_complete(topic_partition, reassignment):
            self.info(
                f"Target replicas {_seq_str(reassignment.target_replicas)} have all caught up with the leader for "
                f"reassigning partition {topic_partition}"
            )
            self._on_partition_reassignment(topic_partition, reassignment)

    def _process_list_partition_reassignments(
        self, partitions_opt: frozenset[TopicPartition] | None, callback: ListReassignmentsCallback
    ) -> None:
        if not self.is_active:
            callback(ApiError(Errors.NOT_CONTROLLER))
            return
        ctx = self.controller_context
        partitions_to_list = ctx.partitions_being_reassigned if partitions_opt is None else partitions_opt
        results: dict[TopicPartition, ReplicaAssignment] = {}
        for tp in partitions_to_list:
            assignment = ctx.partition_full_replica_assignment(tp)
            if assignment.is_being_reassigned:
                results[tp] = assignment
        callback(results)

    def _process_isr_change_notification(self) -> None:
        """Leaders wrote ISR changes to ZooKeeper (brokers before AlterIsr): re-read those partitions, tell every
        broker, and complete reassignments that were waiting on them."""
        if not self.is_active:
            return
        sequence_numbers = self.zk_client.get_all_isr_change_notifications()
        try:
            partitions = list(self.zk_client.get_partitions_from_isr_change_notifications(sequence_numbers))
            if partitions:
                self._update_leader_and_isr_cache(partitions)
                live_brokers = list(self.controller_context.live_or_shutting_down_broker_ids)
                self.debug(f"Sending MetadataRequest to Brokers: {live_brokers} for TopicPartitions: {partitions}")
                self.send_update_metadata_request(live_brokers, set(partitions))
                # In a cluster being upgraded to AlterIsr, reassignments still complete through notifications.
                for topic_partition in partitions:
                    if topic_partition in self.controller_context.partitions_being_reassigned:
                        self._maybe_complete_reassignment(topic_partition)
        finally:
            self.zk_client.delete_isr_change_notifications(self.controller_context.epoch_zk_version, sequence_numbers)

    def _process_replica_leader_election(
        self,
        partitions_from_admin_client_opt: frozenset[TopicPartition] | None,
        election_type: ElectionType,
        election_trigger: ElectionTrigger,
        callback: ElectLeadersCallback,
    ) -> None:
        """A preferred or unclean election asked for by an admin (ElectLeaders) or through
        `/admin/preferred_replica_election`; answers per partition a leader id or an ApiError."""
        if not self.is_active:
            requested = partitions_from_admin_client_opt or frozenset()
            callback({p: ApiError(Errors.NOT_CONTROLLER, None) for p in requested})
            return
        admin_triggered = isinstance(election_trigger, AdminClientTriggered)
        # Registering the watch also tells whether the znode exists.
        if not (
            admin_triggered
            or self.zk_client.register_z_node_change_handler_and_check_existence(
                self._preferred_replica_election_handler
            )
        ):
            return
        partitions: set[TopicPartition]
        if partitions_from_admin_client_opt is not None:
            partitions = set(partitions_from_admin_client_opt)
        else:
            partitions = set(self.zk_client.get_preferred_replica_election())

        ctx = self.controller_context
        all_partitions = ctx.all_partitions
        known_partitions = {tp for tp in partitions if tp in all_partitions}
        unknown_partitions = partitions - known_partitions
        for p in sorted(unknown_partitions):
            self.info(
                f"Skipping replica leader election ({election_type.name}) for partition {p} by {election_trigger} "
                "since it doesn't exist."
            )
        partitions_being_deleted = {
            p for p in known_partitions if self.topic_deletion_manager.is_topic_queued_up_for_deletion(p.topic)
        }
        live_partitions = known_partitions - partitions_being_deleted
        if partitions_being_deleted:
            self.warn(
                f"Skipping replica leader election ({election_type.name}) for partitions "
                f"{_tps_str(partitions_being_deleted)} by {election_trigger} since the respective topics are being "
                "deleted"
            )

        electable_partitions: set[TopicPartition] = set()
        already_valid_leader: set[TopicPartition] = set()
        for partition in live_partitions:
            info = ctx.partition_leadership_info(partition)
            current_leader = LeaderAndIsr.NO_LEADER if info is None else info.leader_and_isr.leader
            if election_type == ElectionType.PREFERRED:
                assigned_replicas = ctx.partition_replica_assignment(partition)
                electable = bool(assigned_replicas) and current_leader != assigned_replicas[0]
            else:
                electable = current_leader == LeaderAndIsr.NO_LEADER or current_leader not in ctx.live_broker_ids
            (electable_partitions if electable else already_valid_leader).add(partition)

        results: dict[TopicPartition, Any] = {}
        for tp, outcome in self._on_replica_election(electable_partitions, election_type, election_trigger).items():
            if isinstance(outcome, StateChangeFailedException):
                error = (
                    Errors.PREFERRED_LEADER_NOT_AVAILABLE
                    if election_type == ElectionType.PREFERRED
                    else Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE
                )
                results[tp] = ApiError(error, str(outcome))
            elif isinstance(outcome, BaseException):
                results[tp] = ApiError.from_throwable(outcome)
            else:
                results[tp] = outcome.leader
        for tp in already_valid_leader:
            results[tp] = ApiError(Errors.ELECTION_NOT_NEEDED)
        for tp in partitions_being_deleted:
            results[tp] = ApiError(Errors.INVALID_TOPIC_EXCEPTION, "The topic is being deleted")
        for tp in unknown_partitions:
            results[tp] = ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist.")
        self.debug(
            f"Waiting for any successful result for election type ({election_type.name}) by {election_trigger} for "
            f"partitions: {_map_str(results)}"
        )
        callback(results)

    def _process_alter_partition(self, request: Any, request_version: int, callback: AlterPartitionCallback) -> None:
        """AlterIsr from a partition leader: checks the leader's broker epoch and each partition's leader epoch,
        writes the new ISRs with zk version checks, answers per partition, tells every broker, then completes
        any reassignment the new ISR finishes."""
        try:
            partition_responses = self._try_process_alter_partition(request, request_version, callback)
        except ControllerMovedException:
            # PORT: Kafka answers UNKNOWN_SERVER_ERROR here; NOT_CONTROLLER sends the leader to the new controller
            # at once, and the exception goes on to make this controller resign (in `process`).
            callback(AlterPartitionResponseData(error_code=Errors.NOT_CONTROLLER.code))
            raise
        except Exception as e:
            self.error(f"Error when processing AlterIsr for partitions: {request}", e)
            callback(AlterPartitionResponseData(error_code=Errors.UNKNOWN_SERVER_ERROR.code))
            return
        for topic_partition, partition_response in partition_responses.items():
            if topic_partition in self.controller_context.partitions_being_reassigned:
                if not isinstance(partition_response, Errors):
                    self._maybe_complete_reassignment(topic_partition)

    def _try_process_alter_partition(
        self, request: Any, request_version: int, callback: AlterPartitionCallback
    ) -> dict[TopicPartition, Any]:
        if not self.is_active:
            callback(AlterPartitionResponseData(error_code=Errors.NOT_CONTROLLER.code))
            return {}
        ctx = self.controller_context
        broker_id = request.broker_id
        broker_epoch = request.broker_epoch
        broker_epoch_opt = ctx.live_broker_id_and_epochs.get(broker_id)
        if broker_epoch_opt is None:
            self.info(f"Ignoring AlterIsr due to unknown broker {broker_id}")
            callback(AlterPartitionResponseData(error_code=Errors.STALE_BROKER_EPOCH.code))
            return {}
        if broker_epoch_opt != broker_epoch:
            self.info(f"Ignoring AlterIsr due to stale broker epoch {broker_epoch} for broker {broker_id}")
            callback(AlterPartitionResponseData(error_code=Errors.STALE_BROKER_EPOCH.code))
            return {}

        use_topic_ids = request_version > 1
        isrs_to_alter: dict[TopicPartition, LeaderAndIsr] = {}
        recovering: set[TopicPartition] = set()  # asked for LeaderRecoveryState RECOVERING (v1+)
        response = AlterPartitionResponseData()
        for topic_req in request.topics:
            topic_name = ctx.topic_name(topic_req.topic_id) if use_topic_ids else topic_req.topic_name
            if topic_name is None:
                response.topics.append(
                    AlterPartitionResponseData.TopicData(
                        topic_id=topic_req.topic_id,
                        partitions=[
                            AlterPartitionResponseData.PartitionData(
                                partition_index=p.partition_index, error_code=Errors.UNKNOWN_TOPIC_ID.code
                            )
                            for p in topic_req.partitions
                        ],
                    )
                )
                continue
            for partition_req in topic_req.partitions:
                if request_version >= 3:
                    new_isr = [s.broker_id for s in partition_req.new_isr_with_epochs]
                else:
                    new_isr = list(partition_req.new_isr)
                tp = TopicPartition(topic_name, partition_req.partition_index)
                isrs_to_alter[tp] = LeaderAndIsr(
                    broker_id, partition_req.leader_epoch, tuple(new_isr), partition_req.partition_epoch
                )
                if partition_req.leader_recovery_state != _LEADER_RECOVERY_STATE_RECOVERED:
                    recovering.add(tp)

        partition_responses: dict[TopicPartition, Any] = {}  # Errors or LeaderAndIsr
        adjusted_isrs: dict[TopicPartition, LeaderAndIsr] = {}
        for tp, new_leader_and_isr in isrs_to_alter.items():
            info = ctx.partition_leadership_info(tp)
            if info is None:
                partition_responses[tp] = Errors.UNKNOWN_TOPIC_OR_PARTITION
                continue
            current_leader_and_isr = info.leader_and_isr
            if (
                new_leader_and_isr.zk_version > current_leader_and_isr.zk_version
                or new_leader_and_isr.leader_epoch > current_leader_and_isr.leader_epoch
            ):
                # The leader knows a newer state than this controller does: this controller has most likely been
                # replaced, so the leader is sent to look for the active one (as Kafka 3.x does).
                partition_responses[tp] = Errors.NOT_CONTROLLER
            elif new_leader_and_isr.leader_epoch < current_leader_and_isr.leader_epoch:
                partition_responses[tp] = Errors.FENCED_LEADER_EPOCH
            elif tp not in recovering and new_leader_and_isr.equals_ignore_zk(current_leader_and_isr):
                # Already in the requested state (a retry of an applied change): answer with it. Checked before
                # the partition epoch, so that a retry is answered alike whatever version it carries.
                partition_responses[tp] = current_leader_and_isr
            elif new_leader_and_isr.zk_version < current_leader_and_isr.zk_version:
                partition_responses[tp] = Errors.INVALID_UPDATE_VERSION
            elif tp in recovering:
                # Partitions here are always RECOVERED (no inter-broker protocol this broker speaks marks an
                # unclean leader as recovering), and going back to RECOVERING is refused, as Kafka 3.x does.
                self.info(
                    f"Rejecting AlterIsr from node {broker_id} for {tp} because the leader recovery state cannot "
                    f"change from RECOVERED to RECOVERING: {new_leader_and_isr}"
                )
                partition_responses[tp] = Errors.INVALID_REQUEST
            else:
                # PORT: Kafka 3.x also refuses an ISR naming brokers that are not alive (INELIGIBLE_REPLICA, KIP-841);
                # its partitions then fall back to the committed ISR. Our partitions follow Kafka 2.8 and would
                # retry such an answer at once, so the controller accepts the ISR as Kafka 2.8's does.
                adjusted_isrs[tp] = new_leader_and_isr

        for tp, outcome in partition_responses.items():
            if isinstance(outcome, Errors) and outcome != Errors.INVALID_REQUEST:
                info = ctx.partition_leadership_info(tp)
                self.info(
                    f"Rejecting AlterIsr from broker {broker_id} for {tp} with {outcome.name}: requested "
                    f"{isrs_to_alter[tp]}, current {None if info is None else info.leader_and_isr}"
                )
        self.debug(f"Updating ISRs for partitions: {_tps_str(adjusted_isrs)}.")
        result = self.zk_client.update_leader_and_isr(adjusted_isrs, ctx.epoch, ctx.epoch_zk_version)
        successful_updates: list[TopicPartition] = []
        for partition, outcome in result.finished_partitions.items():
            if isinstance(outcome, BaseException):
                self.error(f"Failed to update ISR for partition {partition}", outcome)
                partition_responses[partition] = Errors.for_exception(outcome)
            else:
                self.debug(
                    f"ISR for partition {partition} updated to [{','.join(map(str, outcome.isr))}] and zkVersion "
                    f"updated to [{outcome.zk_version}]"
                )
                partition_responses[partition] = outcome
                successful_updates.append(partition)
        for partition in result.partitions_to_retry:
            self.info(f"Failed to update ISR to {adjusted_isrs[partition]} for partition {partition}, bad ZK version.")
            partition_responses[partition] = Errors.INVALID_UPDATE_VERSION

        # The cache takes the new ISRs and every broker learns of them.
        self._update_leader_and_isr_cache(successful_updates)
        self.send_update_metadata_request(list(ctx.live_or_shutting_down_broker_ids), set(isrs_to_alter))

        by_topic: dict[str, Any] = {}
        for tp, outcome in partition_responses.items():
            topic_resp = by_topic.get(tp.topic)
            if topic_resp is None:
                topic_resp = AlterPartitionResponseData.TopicData(
                    topic_name=tp.topic, topic_id=ctx.topic_ids.get(tp.topic, ZERO_UUID)
                )
                by_topic[tp.topic] = topic_resp
                response.topics.append(topic_resp)
            if isinstance(outcome, Errors):
                topic_resp.partitions.append(
                    AlterPartitionResponseData.PartitionData(partition_index=tp.partition, error_code=outcome.code)
                )
            else:
                topic_resp.partitions.append(
                    AlterPartitionResponseData.PartitionData(
                        partition_index=tp.partition,
                        leader_id=outcome.leader,
                        leader_epoch=outcome.leader_epoch,
                        isr=list(outcome.isr),
                        partition_epoch=outcome.zk_version,
                    )
                )
        callback(response)
        return partition_responses

    def _process_controller_change(self) -> None:
        self._maybe_resign()

    def _process_reelect(self) -> None:
        self._maybe_resign()
        self._elect()

    def _process_register_broker_and_reelect(self) -> None:
        self._broker_epoch = self.zk_client.register_broker(self._broker_info)
        self._process_reelect()

    def _process_expire(self) -> None:
        self._active_controller_id = -1
        self._on_controller_resignation()

    def process(self, event: ControllerEvent) -> None:
        try:
            match event:
                case MockEvent():
                    event.process()
                case ShutdownEventThread():
                    self.error(
                        "Received a ShutdownEventThread event. This type of event is supposed to be handle by "
                        "ControllerEventThread"
                    )
                case AutoPreferredReplicaLeaderElection():
                    self._process_auto_preferred_replica_leader_election()
                case ReplicaLeaderElection(partitions, election_type, election_trigger, callback):
                    self._process_replica_leader_election(partitions, election_type, election_trigger, callback)
                case UncleanLeaderElectionEnable():
                    self._process_unclean_leader_election_enable()
                case TopicUncleanLeaderElectionEnable(topic):
                    self._process_topic_unclean_leader_election_enable(topic)
                case ControlledShutdown(id_, broker_epoch, callback):
                    self._process_controlled_shutdown(id_, broker_epoch, callback)
                case LeaderAndIsrResponseReceived(response, broker_id):
                    self._process_leader_and_isr_response_received(response, broker_id)
                case UpdateMetadataResponseReceived(response, broker_id):
                    self._process_update_metadata_response_received(response, broker_id)
                case TopicDeletionStopReplicaResponseReceived(replica_id, request_error, partition_errors):
                    self._process_topic_deletion_stop_replica_response_received(
                        replica_id, request_error, partition_errors
                    )
                case BrokerChange():
                    self._process_broker_change()
                case BrokerModifications(broker_id):
                    self._process_broker_modification(broker_id)
                case ControllerChange():
                    self._process_controller_change()
                case Reelect():
                    self._process_reelect()
                case RegisterBrokerAndReelect():
                    self._process_register_broker_and_reelect()
                case Expire():
                    self._process_expire()
                case TopicChange():
                    self._process_topic_change()
                case LogDirEventNotification():
                    self._process_log_dir_event_notification()
                case PartitionModifications(topic):
                    self._process_partition_modifications(topic)
                case TopicDeletion():
                    self._process_topic_deletion()
                case ApiPartitionReassignment(reassignments, callback):
                    self._process_api_partition_reassignment(reassignments, callback)
                case ZkPartitionReassignment():
                    self._process_zk_partition_reassignment()
                case ListPartitionReassignments(partitions_opt, callback):
                    self._process_list_partition_reassignments(partitions_opt, callback)
                case PartitionReassignmentIsrChange(partition):
                    self._process_partition_reassignment_isr_change(partition)
                case IsrChangeNotification():
                    self._process_isr_change_notification()
                case AlterPartitionReceived(request, request_version, callback):
                    self._process_alter_partition(request, request_version, callback)
                case Startup():
                    self._process_startup()
                case _:
                    raise ValueError(f"Unknown controller event {event}")
        except ControllerMovedException as e:
            self.info(f"Controller moved to another broker when processing {event}.", e)
            self._maybe_resign()
        except Exception as e:
            self.error(f"Error processing event {event}", e)
        finally:
            self._update_metrics()

    def preempt(self, event: ControllerEvent) -> None:
        event.preempt()


# -- helpers ---------------------------------------------------------------------------------------------------------


def _set_str(values: Iterable[Any]) -> str:
    """Scala's Set toString."""
    return f"Set({', '.join(sorted(str(v) for v in values))})"


def _seq_str(values: Iterable[Any]) -> str:
    return f"List({', '.join(str(v) for v in values)})"


def _tps_str(values: Iterable[TopicPartition]) -> str:
    return ",".join(str(tp) for tp in sorted(values))


def _map_str(mapping: Mapping[Any, Any]) -> str:
    """Scala's Map toString: `Map(k -> v, ...)`."""
    items = sorted(mapping.items(), key=lambda kv: str(kv[0]))
    return f"Map({', '.join(f'{k} -> {v}' for k, v in items)})"
