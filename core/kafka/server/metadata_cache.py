"""Port of core/src/main/scala/kafka/server/MetadataCache.scala (Kafka 2.8): MetadataCache and ZkMetadataCache.

Every broker keeps the cluster's state as the controller last described it in an UpdateMetadata request: the
live brokers with their listeners, the controller id, and the leader, ISR and replicas of every partition.
Metadata, produce, fetch and the coordinators read it on every request, so the state lives in one immutable
snapshot that an update swaps in whole; readers take the current snapshot once and use only it.

# PORT: the accessors that Kafka 3.7 added for the protocol we serve (topic ids for Fetch v13+ and Metadata v10+,
# `get_alive_broker_node(s)`, `get_topic_partitions`, `has_alive_broker`, `get_random_alive_broker_id`) are
# included; their names follow 3.7. `get_alive_broker(s)` return kafka.cluster.Broker (2.8 returns a
# MetadataBroker view of the same data). `get_cluster_metadata` (Java's Cluster) is left out: nothing in the
# broker uses it. The cluster id lives here too (`get_cluster_id`, set by KafkaServer once it knows it) so
# request handlers have one place to ask; 2.8 keeps it in KafkaServer and passes it to KafkaApis.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.cluster.broker import Broker, Node
from kafka.cluster.end_point import EndPoint
from kafka.common.internals.topic import Topic
from kafka.common.message import MetadataResponseData
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.utils.logging import Logging
from kafka.utils.read_write_lock import ReentrantReadWriteLock

if TYPE_CHECKING:
    from kafka.common.requests.update_metadata_request import UpdateMetadataRequest

# kafka.api.LeaderAndIsr.LeaderDuringDelete: the leader id the controller sends for a partition being deleted.
LEADER_DURING_DELETE = -2
# MetadataResponse.NO_LEADER_ID
NO_LEADER_ID = -1


@dataclass(frozen=True, slots=True)
class MetadataSnapshot:
    """One immutable view of the cluster. Never mutated after it is published.

    partition_states: topic -> partition id -> UpdateMetadataPartitionState
    topic_ids / topic_names: topic name <-> topic id (only topics with a non-zero id)
    alive_brokers: broker id -> Broker; alive_nodes: broker id -> listener name -> Node
    """

    partition_states: dict[str, dict[int, Any]]
    topic_ids: dict[str, Uuid]
    topic_names: dict[Uuid, str]
    controller_id: int | None
    alive_brokers: dict[int, Broker]
    alive_nodes: dict[int, dict[ListenerName, Node]]


_EMPTY_SNAPSHOT = MetadataSnapshot({}, {}, {}, None, {}, {})


class MetadataCache(ABC):
    """What the request handlers ask of the cluster's state."""

    @abstractmethod
    def get_topic_metadata(
        self,
        topics: Iterable[str],
        listener_name: ListenerName,
        error_unavailable_endpoints: bool = False,
        error_unavailable_listeners: bool = False,
    ) -> list[Any]:
        """MetadataResponseTopic entries for the topics that exist (unknown topics are left out).

        `error_unavailable_endpoints` (Metadata v0) leaves out replicas without a live endpoint and reports
        REPLICA_NOT_AVAILABLE; `error_unavailable_listeners` (v6+) reports LISTENER_NOT_FOUND instead of
        LEADER_NOT_AVAILABLE when the live leader lacks the listener."""

    @abstractmethod
    def get_all_topics(self) -> set[str]: ...

    @abstractmethod
    def get_all_partitions(self) -> set[TopicPartition]: ...

    @abstractmethod
    def get_topic_partitions(self, topic_name: str) -> set[TopicPartition]: ...

    @abstractmethod
    def get_non_existing_topics(self, topics: Iterable[str]) -> set[str]: ...

    @abstractmethod
    def has_alive_broker(self, broker_id: int) -> bool: ...

    @abstractmethod
    def get_alive_broker(self, broker_id: int) -> Broker | None: ...

    @abstractmethod
    def get_alive_brokers(self) -> list[Broker]: ...

    @abstractmethod
    def get_alive_broker_node(self, broker_id: int, listener_name: ListenerName) -> Node | None: ...

    @abstractmethod
    def get_alive_broker_nodes(self, listener_name: ListenerName) -> list[Node]: ...

    @abstractmethod
    def get_topic_id(self, topic_name: str) -> Uuid: ...

    @abstractmethod
    def get_topic_name(self, topic_id: Uuid) -> str | None: ...

    @abstractmethod
    def topic_names_to_ids(self) -> dict[str, Uuid]: ...

    @abstractmethod
    def topic_ids_to_names(self) -> dict[Uuid, str]: ...

    @abstractmethod
    def get_partition_info(self, topic: str, partition_id: int) -> Any | None:
        """The UpdateMetadataPartitionState of the partition, or None."""

    @abstractmethod
    def num_partitions(self, topic: str) -> int | None: ...

    @abstractmethod
    def get_partition_leader_endpoint(self, topic: str, partition_id: int, listener_name: ListenerName) -> Node | None:
        """None if the partition is unknown; Node.no_node() if its leader is not alive or lacks the listener."""

    @abstractmethod
    def get_partition_replica_endpoints(self, tp: TopicPartition, listener_name: ListenerName) -> dict[int, Node]: ...

    @abstractmethod
    def get_controller_id(self) -> int | None: ...

    @abstractmethod
    def get_cluster_id(self) -> str | None: ...

    @abstractmethod
    def get_random_alive_broker_id(self) -> int | None: ...

    @abstractmethod
    def update_metadata(self, correlation_id: int, request: UpdateMetadataRequest) -> list[TopicPartition]:
        """Applies an UpdateMetadata request; returns the partitions it deleted."""

    @abstractmethod
    def contains(self, topic_or_partition: str | TopicPartition) -> bool:
        """Whether the topic (a str) or the partition (a TopicPartition) is known.

        # PORT: Scala overloads `contains(topic)` and `contains(tp)`; one method takes either."""

    @staticmethod
    def zk_metadata_cache(broker_id: int, cluster_id: str | None = None) -> ZkMetadataCache:
        return ZkMetadataCache(broker_id, cluster_id)


class ZkMetadataCache(MetadataCache, Logging):
    """The metadata cache of a ZooKeeper-mode broker, fed by the controller's UpdateMetadata requests.

    Thread-safety: updates are serialised by the write half of `_partition_metadata_lock` and publish a new
    snapshot with one attribute store; readers take `self._metadata_snapshot` once per call and never lock.
    """

    logger_name = "kafka.server.metadata.ZkMetadataCache"

    def __init__(self, broker_id: int, cluster_id: str | None = None) -> None:
        self._broker_id = broker_id
        self._cluster_id = cluster_id
        self._partition_metadata_lock = ReentrantReadWriteLock()
        self._metadata_snapshot: MetadataSnapshot = _EMPTY_SNAPSHOT
        self.log_ident = f"[MetadataCache brokerId={broker_id}] "
        self._state_change_logger = StateChangeLogger(broker_id, in_controller_context=False, controller_epoch=None)

    # -- helpers on one snapshot ---------------------------------------------------------------------------

    @staticmethod
    def _maybe_filter_alive_replicas(
        snapshot: MetadataSnapshot, brokers: list[int], listener_name: ListenerName, filter_unavailable: bool
    ) -> list[int]:
        if not filter_unavailable:
            return brokers
        return [b for b in brokers if ZkMetadataCache._has_alive_endpoint(snapshot, b, listener_name)]

    @staticmethod
    def _has_alive_endpoint(snapshot: MetadataSnapshot, broker_id: int, listener_name: ListenerName) -> bool:
        nodes = snapshot.alive_nodes.get(broker_id)
        return nodes is not None and listener_name in nodes

    @staticmethod
    def _get_alive_endpoint(snapshot: MetadataSnapshot, broker_id: int, listener_name: ListenerName) -> Node | None:
        nodes = snapshot.alive_nodes.get(broker_id)
        return None if nodes is None else nodes.get(listener_name)

    def _get_partition_metadata(
        self,
        snapshot: MetadataSnapshot,
        topic: str,
        listener_name: ListenerName,
        error_unavailable_endpoints: bool,
        error_unavailable_listeners: bool,
    ) -> list[Any] | None:
        partitions = snapshot.partition_states.get(topic)
        if partitions is None:
            return None
        result = []
        for partition_id, state in partitions.items():
            leader_id = state.leader
            maybe_leader = self._get_alive_endpoint(snapshot, leader_id, listener_name)
            replicas = state.replicas
            filtered_replicas = self._maybe_filter_alive_replicas(
                snapshot, replicas, listener_name, error_unavailable_endpoints
            )
            isr = state.isr
            filtered_isr = self._maybe_filter_alive_replicas(snapshot, isr, listener_name, error_unavailable_endpoints)
            if maybe_leader is None:
                if leader_id not in snapshot.alive_brokers:
                    self.debug(f"Error while fetching metadata for {topic}-{partition_id}: leader not available")
                    error = Errors.LEADER_NOT_AVAILABLE
                else:
                    self.debug(
                        f"Error while fetching metadata for {topic}-{partition_id}: listener {listener_name} "
                        f"not found on leader {leader_id}"
                    )
                    error = Errors.LISTENER_NOT_FOUND if error_unavailable_listeners else Errors.LEADER_NOT_AVAILABLE
                leader = NO_LEADER_ID
            else:
                if len(filtered_replicas) < len(replicas):
                    missing = ",".join(str(r) for r in replicas if r not in filtered_replicas)
                    self.debug(
                        f"Error while fetching metadata for {topic}-{partition_id}: replica information not "
                        f"available for following brokers {missing}"
                    )
                    error = Errors.REPLICA_NOT_AVAILABLE
                elif len(filtered_isr) < len(isr):
                    self.debug(
                        f"Error while fetching metadata for {topic}-{partition_id}: in sync replica information not "
                        f"available for following brokers {','.join(str(r) for r in isr if r not in filtered_isr)}"
                    )
                    error = Errors.REPLICA_NOT_AVAILABLE
                else:
                    error = Errors.NONE
                leader = maybe_leader.id
            result.append(
                MetadataResponseData.MetadataResponsePartition(
                    error_code=error.code,
                    partition_index=partition_id,
                    leader_id=leader,
                    leader_epoch=state.leader_epoch,
                    replica_nodes=list(filtered_replicas),
                    isr_nodes=list(filtered_isr),
                    offline_replicas=list(state.offline_replicas),
                )
            )
        return result

    # -- reads ---------------------------------------------------------------------------------------------

    def get_topic_metadata(
        self,
        topics: Iterable[str],
        listener_name: ListenerName,
        error_unavailable_endpoints: bool = False,
        error_unavailable_listeners: bool = False,
    ) -> list[Any]:
        snapshot = self._metadata_snapshot
        result = []
        for topic in topics:
            partitions = self._get_partition_metadata(
                snapshot, topic, listener_name, error_unavailable_endpoints, error_unavailable_listeners
            )
            if partitions is not None:
                result.append(
                    MetadataResponseData.MetadataResponseTopic(
                        error_code=Errors.NONE.code,
                        name=topic,
                        topic_id=snapshot.topic_ids.get(topic, ZERO_UUID),
                        is_internal=Topic.is_internal(topic),
                        partitions=partitions,
                    )
                )
        return result

    def get_all_topics(self) -> set[str]:
        return set(self._metadata_snapshot.partition_states)

    def get_all_partitions(self) -> set[TopicPartition]:
        return {
            TopicPartition(topic, partition)
            for topic, states in self._metadata_snapshot.partition_states.items()
            for partition in states
        }

    def get_topic_partitions(self, topic_name: str) -> set[TopicPartition]:
        states = self._metadata_snapshot.partition_states.get(topic_name, {})
        return {TopicPartition(topic_name, p) for p in states}

    def get_non_existing_topics(self, topics: Iterable[str]) -> set[str]:
        existing = self._metadata_snapshot.partition_states
        return {t for t in topics if t not in existing}

    def has_alive_broker(self, broker_id: int) -> bool:
        return broker_id in self._metadata_snapshot.alive_brokers

    def get_alive_broker(self, broker_id: int) -> Broker | None:
        return self._metadata_snapshot.alive_brokers.get(broker_id)

    def get_alive_brokers(self) -> list[Broker]:
        return list(self._metadata_snapshot.alive_brokers.values())

    def get_alive_broker_node(self, broker_id: int, listener_name: ListenerName) -> Node | None:
        broker = self._metadata_snapshot.alive_brokers.get(broker_id)
        return None if broker is None else broker.get_node(listener_name)

    def get_alive_broker_nodes(self, listener_name: ListenerName) -> list[Node]:
        nodes = []
        for broker in self._metadata_snapshot.alive_brokers.values():
            node = broker.get_node(listener_name)
            if node is not None:
                nodes.append(node)
        return nodes

    def get_topic_id(self, topic_name: str) -> Uuid:
        return self._metadata_snapshot.topic_ids.get(topic_name, ZERO_UUID)

    def get_topic_name(self, topic_id: Uuid) -> str | None:
        return self._metadata_snapshot.topic_names.get(topic_id)

    def topic_names_to_ids(self) -> dict[str, Uuid]:
        return dict(self._metadata_snapshot.topic_ids)

    def topic_ids_to_names(self) -> dict[Uuid, str]:
        return dict(self._metadata_snapshot.topic_names)

    def get_partition_info(self, topic: str, partition_id: int) -> Any | None:
        states = self._metadata_snapshot.partition_states.get(topic)
        return None if states is None else states.get(partition_id)

    def num_partitions(self, topic: str) -> int | None:
        states = self._metadata_snapshot.partition_states.get(topic)
        return None if states is None else len(states)

    def get_partition_leader_endpoint(self, topic: str, partition_id: int, listener_name: ListenerName) -> Node | None:
        snapshot = self._metadata_snapshot
        states = snapshot.partition_states.get(topic)
        state = None if states is None else states.get(partition_id)
        if state is None:
            return None
        nodes = snapshot.alive_nodes.get(state.leader)
        if nodes is None:
            return Node.no_node()
        return nodes.get(listener_name, Node.no_node())

    def get_partition_replica_endpoints(self, tp: TopicPartition, listener_name: ListenerName) -> dict[int, Node]:
        snapshot = self._metadata_snapshot
        states = snapshot.partition_states.get(tp.topic)
        state = None if states is None else states.get(tp.partition)
        if state is None:
            return {}
        result: dict[int, Node] = {}
        for replica_id in state.replicas:
            broker = snapshot.alive_brokers.get(replica_id)
            node = None if broker is None else broker.get_node(listener_name)
            if node is not None and not node.is_empty():
                result[replica_id] = node
        return result

    def get_controller_id(self) -> int | None:
        return self._metadata_snapshot.controller_id

    def knows_controller_and_this_broker(self) -> bool:
        """Whether an UpdateMetadata from the controller has reached this cache: it names the controller and lists
        this broker among the live brokers (what a client's Metadata request needs for a usable answer).

        # PORT: not in Kafka 2.8; the request handler pool holds client requests back until this is true (see
        # ClientRequestGate), as a KRaft broker waits for its metadata to catch up before serving clients."""
        snapshot = self._metadata_snapshot
        return snapshot.controller_id is not None and self._broker_id in snapshot.alive_brokers

    def get_cluster_id(self) -> str | None:
        return self._cluster_id

    def set_cluster_id(self, cluster_id: str) -> None:
        self._cluster_id = cluster_id

    def get_random_alive_broker_id(self) -> int | None:
        brokers = list(self._metadata_snapshot.alive_brokers)
        return random.choice(brokers) if brokers else None

    def contains(self, topic_or_partition: str | TopicPartition) -> bool:
        if isinstance(topic_or_partition, TopicPartition):
            return self.get_partition_info(topic_or_partition.topic, topic_or_partition.partition) is not None
        return topic_or_partition in self._metadata_snapshot.partition_states

    # -- update --------------------------------------------------------------------------------------------

    def update_metadata(self, correlation_id: int, request: UpdateMetadataRequest) -> list[TopicPartition]:
        with self._partition_metadata_lock.write_lock:
            old = self._metadata_snapshot
            alive_brokers: dict[int, Broker] = {}
            alive_nodes: dict[int, dict[ListenerName, Node]] = {}
            controller_id = request.controller_id()
            controller_id_opt = None if controller_id < 0 else controller_id

            for broker in request.live_brokers():
                nodes: dict[ListenerName, Node] = {}
                end_points = []
                for ep in broker.endpoints:
                    listener_name = ListenerName(ep.listener)
                    end_points.append(
                        EndPoint(ep.host, ep.port, listener_name, SecurityProtocol.for_id(ep.security_protocol))
                    )
                    nodes[listener_name] = Node(broker.id, ep.host, ep.port, broker.rack)
                alive_brokers[broker.id] = Broker(broker.id, end_points, broker.rack)
                alive_nodes[broker.id] = nodes
            own_listeners = alive_nodes.get(self._broker_id)
            if own_listeners is not None:
                listeners = set(own_listeners)
                if not all(set(n) == listeners for n in alive_nodes.values()):
                    self.error(f"Listeners are not identical across brokers: {alive_nodes}")

            topic_ids = dict(old.topic_ids)
            for topic_state in request.topic_states():
                if topic_state.topic_id != ZERO_UUID:
                    topic_ids[topic_state.topic_name] = topic_state.topic_id

            deleted_partitions: list[TopicPartition] = []
            partition_states_iter = list(request.partition_states())
            if not partition_states_iter:
                self._metadata_snapshot = MetadataSnapshot(
                    old.partition_states,
                    topic_ids,
                    {v: k for k, v in topic_ids.items()},
                    controller_id_opt,
                    alive_brokers,
                    alive_nodes,
                )
                return deleted_partitions

            # Updates may cover only some partitions: start from a copy of the previous state.
            partition_states = {topic: dict(states) for topic, states in old.partition_states.items()}
            trace_enabled = self._state_change_logger.is_trace_enabled()
            controller_epoch = request.controller_epoch()
            for state in partition_states_iter:
                tp = TopicPartition(state.topic_name, state.partition_index)
                if state.leader == LEADER_DURING_DELETE:
                    self._remove_partition_info(partition_states, topic_ids, tp.topic, tp.partition)
                    if trace_enabled:
                        self._state_change_logger.trace(
                            f"Deleted partition {tp} from metadata cache in response to UpdateMetadata request sent "
                            f"by controller {controller_id} epoch {controller_epoch} with correlation id "
                            f"{correlation_id}"
                        )
                    deleted_partitions.append(tp)
                else:
                    partition_states.setdefault(tp.topic, {})[tp.partition] = state
                    if trace_enabled:
                        self._state_change_logger.trace(
                            f"Cached leader info {state} for partition {tp} in response to UpdateMetadata request "
                            f"sent by controller {controller_id} epoch {controller_epoch} with correlation id "
                            f"{correlation_id}"
                        )
            cached_count = len(partition_states_iter) - len(deleted_partitions)
            self._state_change_logger.info(
                f"Add {cached_count} partitions and deleted {len(deleted_partitions)} partitions from metadata cache "
                f"in response to UpdateMetadata request sent by controller {controller_id} epoch {controller_epoch} "
                f"with correlation id {correlation_id}"
            )
            self._metadata_snapshot = MetadataSnapshot(
                partition_states,
                topic_ids,
                {v: k for k, v in topic_ids.items()},
                controller_id_opt,
                alive_brokers,
                alive_nodes,
            )
            return deleted_partitions

    @staticmethod
    def _remove_partition_info(
        partition_states: dict[str, dict[int, Any]], topic_ids: dict[str, Uuid], topic: str, partition_id: int
    ) -> bool:
        infos = partition_states.get(topic)
        if infos is None:
            return False
        infos.pop(partition_id, None)
        if not infos:
            del partition_states[topic]
            topic_ids.pop(topic, None)
        return True
