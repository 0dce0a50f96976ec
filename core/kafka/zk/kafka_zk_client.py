"""Port of core/src/main/scala/kafka/zk/KafkaZkClient.scala (Kafka 2.8).

Kafka's operations on ZooKeeper, built on the pipelined ZooKeeperClient: broker registration (an ephemeral
znode, re-created safely after a session expiry), controller election and epoch, topics and their partition
assignments and states, topic deletion, dynamic configs and their change notifications, ISR and log-dir event
notifications, the cluster id, broker id generation, producer id blocks and features.

Requests that fail with CONNECTIONLOSS are sent again once the session is connected. A controller's writes can be
fenced: with `expected_controller_epoch_zk_version` >= 0, each write becomes a multi that first checks the
version of /controller_epoch, and a failed check raises ControllerMovedException.

Metrics: the ZooKeeperRequestLatencyMs histogram (kafka.server:type=ZooKeeperClientMetrics), updated with the
response time of every request, removed at close.

# PORT: not ported yet: the Kafka ACL methods (need the authorizer's resource and ACL classes). Scala overloads get one
# method with an optional argument (delete_isr_change_notifications, delete_log_dir_event_notifications).
# `create_chroot_path` is the chroot step of Kafka's KafkaServer.initZkClient, kept with the client here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import Broker
from kafka.common.errors import ControllerMovedException, KafkaException
from kafka.common.protocol.types import Uuid
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.log.log_config import LogConfig
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.security.authorizer.acl_entry import AclEntry
from kafka.utils.logging import Logging
from kafka.zk.zk_data import (
    ZK_ACL_CHANGE_STORES,
    ZK_ACL_STORES,
    BrokerIdsZNode,
    BrokerIdZNode,
    BrokerInfo,
    BrokerSequenceIdZNode,
    ClusterIdZNode,
    ConfigEntityChangeNotificationSequenceZNode,
    ConfigEntityChangeNotificationZNode,
    ConfigEntityTypeZNode,
    ConfigEntityZNode,
    ConfigType,
    ConsumerOffset,
    ControllerEpochZNode,
    ControllerZNode,
    DelegationTokenChangeNotificationSequenceZNode,
    DelegationTokenChangeNotificationZNode,
    DelegationTokenInfoZNode,
    DelegationTokensZNode,
    DeleteTopicsTopicZNode,
    DeleteTopicsZNode,
    FeatureZNode,
    IsrChangeNotificationSequenceZNode,
    IsrChangeNotificationZNode,
    JsonDecodeError,
    LogDirEventNotificationSequenceZNode,
    LogDirEventNotificationZNode,
    PreferredReplicaElectionZNode,
    ReassignPartitionsZNode,
    ReplicaAssignment,
    ResourceZNode,
    TopicIdReplicaAssignment,
    TopicPartitionStateZNode,
    TopicPartitionsZNode,
    TopicPartitionZNode,
    TopicsZNode,
    TopicZNode,
    ZkAclStore,
    ZkData,
    ZkStat,
    ZkVersion,
)
from kafka.zookeeper.zoo_keeper_client import (
    AsyncRequest,
    AsyncResponse,
    CheckOp,
    CreateOp,
    CreateRequest,
    CreateResponse,
    DeleteOp,
    DeleteRequest,
    DeleteResponse,
    ExistsRequest,
    GetAclRequest,
    GetChildrenRequest,
    GetDataRequest,
    GetDataResponse,
    MultiRequest,
    MultiResponse,
    SetAclRequest,
    SetDataOp,
    SetDataRequest,
    SetDataResponse,
    StateChangeHandler,
    ZNodeChangeHandler,
    ZNodeChildChangeHandler,
    ZooKeeperClient,
)
from kafka.zookeeper.zookeeper_types import (
    ACL,
    Code,
    CreateMode,
    CreateResult,
    ErrorResult,
    KeeperException,
    NodeExistsException,
    SetDataResult,
    Stat,
)

if TYPE_CHECKING:
    from kafka.common.security.token.delegation import DelegationToken, TokenInformation
    from kafka.security.authorizer.acl_authorizer import VersionedAcls

R = TypeVar("R", bound=AsyncResponse)

# kafka.controller.KafkaController.InitialControllerEpoch / InitialControllerEpochZkVersion
INITIAL_CONTROLLER_EPOCH = 0
INITIAL_CONTROLLER_EPOCH_ZK_VERSION = 0
# How often a starting broker looks whether an earlier session's registration of its id has gone.
_REGISTRATION_POLL_MS = 100


@dataclass(frozen=True, slots=True)
class UpdateLeaderAndIsrResult:
    """The outcome of update_leader_and_isr: per finished partition the new LeaderAndIsr (with its new zk version)
    or the exception, and the partitions whose conditional update lost to a concurrent one (to retry)."""

    finished_partitions: Mapping[TopicPartition, LeaderAndIsr | Exception]
    partitions_to_retry: Sequence[TopicPartition]


class KafkaZkClient(Logging, KafkaMetricsGroup):
    """Kafka's ZooKeeper operations over a ZooKeeperClient; see the module docstring."""

    logger_name = "kafka.zk.KafkaZkClient"
    metrics_group = "kafka.server"
    metrics_type_name = "ZooKeeperClientMetrics"

    def __init__(self, zoo_keeper_client: ZooKeeperClient, is_secure: bool, time: Time) -> None:
        self._zoo_keeper_client = zoo_keeper_client
        self._is_secure = is_secure
        self._time = time
        # The session in which the broker registered (updated on re-registration), to recognise our own
        # ephemeral znode after a session expiry (KAFKA-7165).
        self._current_zoo_keeper_session_id = -1
        self._latency_metric = self.new_histogram("ZooKeeperRequestLatencyMs")

    @classmethod
    def apply(
        cls,
        connect_string: str,
        is_secure: bool,
        session_timeout_ms: int,
        connection_timeout_ms: int,
        max_in_flight_requests: int,
        time: Time,
        metric_group: str = "kafka.server",
        metric_type: str = "SessionExpireListener",
        name: str | None = None,
    ) -> KafkaZkClient:
        """Connects a ZooKeeperClient (raising ZooKeeperClientTimeoutException after `connection_timeout_ms`)."""
        zoo_keeper_client = ZooKeeperClient(
            connect_string,
            session_timeout_ms,
            connection_timeout_ms,
            max_in_flight_requests,
            time,
            metric_group,
            metric_type,
            name,
        )
        return cls(zoo_keeper_client, is_secure, time)

    @classmethod
    def create_chroot_path(
        cls,
        connect_string: str,
        is_secure: bool,
        session_timeout_ms: int,
        connection_timeout_ms: int,
        max_in_flight_requests: int,
        time: Time,
        name: str | None = None,
    ) -> str | None:
        """Makes sure the chroot of `connect_string` (`host:port,.../chroot`) exists, through a client connected
        without it; returns the chroot, or None if there is none (KafkaServer.initZkClient's first step)."""
        chroot_index = connect_string.find("/")
        if chroot_index <= 0:
            return None
        chroot = connect_string[chroot_index:]
        zk_client = cls.apply(
            connect_string[:chroot_index],
            is_secure,
            session_timeout_ms,
            connection_timeout_ms,
            max_in_flight_requests,
            time,
            name=name,
        )
        try:
            zk_client.make_sure_persistent_path_exists(chroot)
            zk_client.info(f"Created zookeeper path {chroot}")
        finally:
            zk_client.close()
        return chroot

    def current_zoo_keeper(self) -> Any:
        """The ZooKeeper session handle in use (for tests)."""
        return self._zoo_keeper_client.current_zoo_keeper()

    @property
    def zoo_keeper_client(self) -> ZooKeeperClient:
        return self._zoo_keeper_client

    # -- brokers and controller --------------------------------------------------------------------------

    def create_sequential_persistent_path(self, path: str, data: bytes | None) -> str:
        """Creates `path` + a ten-digit sequence number; returns the created path."""
        create_request = CreateRequest(path, data, self.default_acls(path), CreateMode.PERSISTENT_SEQUENTIAL)
        create_response = self._retry_request_until_connected(create_request)
        create_response.maybe_throw()
        assert create_response.name is not None
        return create_response.name

    def register_broker(self, broker_info: BrokerInfo) -> int:
        """Registers the broker (ephemeral /brokers/ids/N); returns the broker epoch (the znode's czxid)."""
        path = broker_info.path
        stat = self._checked_ephemeral_create(path, broker_info.to_json_bytes())
        addresses = ",".join(ep.connection_string for ep in broker_info.broker.end_points)
        self.info(
            f"Registered broker {broker_info.broker.id} at path {path} with addresses: {addresses}, "
            f"czxid (broker epoch): {stat.czxid}"
        )
        return stat.czxid

    def await_previous_broker_registration_gone(self, broker_id: int, timeout_ms: int) -> bool:
        """Waits, for at most `timeout_ms`, while /brokers/ids/{broker_id} belongs to a ZooKeeper session that is
        neither this client's nor the one this client registered it in: the registration of an earlier run of this
        broker that died (SIGKILL, a crash) before its session expired, or of another broker with the same id.
        Returns True once the path is free (or ours, which `register_broker` deals with as Kafka's checked ephemeral
        create does), False if it is still held when the time is up (or is a persistent znode, which no session's end
        removes).

        # PORT: not in Kafka 2.8, whose broker exits at once with NodeExistsException in that case, so that a broker
        # restarted right after a crash cannot come back until its old session has expired. ZooKeeper removes the
        # old registration at most a session timeout and a tick after the old session's last request (KafkaServer
        # says what it passes as `timeout_ms`)."""
        path = BrokerIdZNode.path(broker_id)
        start_ms = self._time.milliseconds()
        deadline_ms = start_ms + timeout_ms
        waiting = False
        while True:
            response = self._retry_request_until_connected(ExistsRequest(path))
            now_ms = self._time.milliseconds()
            if response.result_code == Code.NONODE:
                if waiting:
                    self.info(f"The previous registration at {path} went away after {now_ms - start_ms} ms")
                return True
            if response.result_code != Code.OK or response.stat is None:
                raise _exception(response)
            owner = response.stat.ephemeral_owner
            session_id = self._zoo_keeper_client.session_id()
            if owner == session_id or self.should_re_create_ephemeral_z_node(owner):
                return True
            if owner == 0:
                return False  # not an ephemeral znode: no session's end will remove it
            if not waiting:
                waiting = True
                self.info(
                    f"Waiting up to {timeout_ms} ms for the registration at {path} to go away: it is held by "
                    f"ZooKeeper session 0x{owner:x}, not this broker's session 0x{session_id:x} (a broker with "
                    "this id that stopped without closing its session, e.g. killed, or another live broker with "
                    "the same broker.id)"
                )
            if now_ms >= deadline_ms:
                self.warn(
                    f"The registration at {path} is still held by ZooKeeper session 0x{owner:x} after "
                    f"{now_ms - start_ms} ms"
                )
                return False
            self._time.sleep(min(_REGISTRATION_POLL_MS, deadline_ms - now_ms))

    def register_controller_and_increment_controller_epoch(self, controller_id: int) -> tuple[int, int]:
        """Creates /controller for `controller_id` and increments /controller_epoch in one multi; returns the new
        epoch and its zk version. Raises ControllerMovedException if another broker won."""
        timestamp = self._time.milliseconds()

        # The current epoch and its zk version; /controller_epoch is created with the initial epoch if missing.
        current = self.get_controller_epoch()
        cur_epoch, cur_epoch_zk_version = (
            (current[0], current[1].version) if current is not None else self._maybe_create_controller_epoch_z_node()
        )
        new_controller_epoch = cur_epoch + 1
        expected_controller_epoch_zk_version = cur_epoch_zk_version

        self.debug(
            f"Try to create {ControllerZNode.path} and increment controller epoch to {new_controller_epoch} with "
            f"expected controller epoch zkVersion {expected_controller_epoch_zk_version}"
        )

        def check_controller_and_epoch() -> tuple[int, int]:
            cur_controller_id = self.get_controller_id()
            if cur_controller_id is None:
                raise ControllerMovedException(
                    f"The ephemeral node at {ControllerZNode.path} went away while checking whether the controller "
                    "election succeeds. Aborting controller startup procedure"
                )
            if controller_id == cur_controller_id:
                epoch_and_stat = self.get_controller_epoch()
                if epoch_and_stat is None:
                    raise RuntimeError(
                        f"{ControllerEpochZNode.path} existed before but goes away while trying to read it"
                    )
                epoch, stat = epoch_and_stat
                # Our multi succeeded even though its answer was lost: only this election writes this epoch.
                if epoch == new_controller_epoch:
                    return new_controller_epoch, stat.version
            raise ControllerMovedException("Controller moved to another broker. Aborting controller startup procedure")

        response = self._retry_request_until_connected(
            MultiRequest(
                [
                    CreateOp(
                        ControllerZNode.path,
                        ControllerZNode.encode(controller_id, timestamp),
                        self.default_acls(ControllerZNode.path),
                        CreateMode.EPHEMERAL,
                    ),
                    SetDataOp(
                        ControllerEpochZNode.path,
                        ControllerEpochZNode.encode(new_controller_epoch),
                        expected_controller_epoch_zk_version,
                    ),
                ]
            )
        )
        if response.result_code in (Code.NODEEXISTS, Code.BADVERSION):
            return check_controller_and_epoch()
        if response.result_code == Code.OK:
            assert response.zk_op_results is not None
            set_data_result = cast(SetDataResult, response.zk_op_results[1].raw_op_result)
            return new_controller_epoch, set_data_result.stat.version
        raise KeeperException.create(response.result_code)

    def _maybe_create_controller_epoch_z_node(self) -> tuple[int, int]:
        response = self.create_controller_epoch_raw(INITIAL_CONTROLLER_EPOCH)
        if response.result_code == Code.OK:
            self.info(f"Successfully created {ControllerEpochZNode.path} with initial epoch {INITIAL_CONTROLLER_EPOCH}")
            return INITIAL_CONTROLLER_EPOCH, INITIAL_CONTROLLER_EPOCH_ZK_VERSION
        if response.result_code == Code.NODEEXISTS:
            epoch_and_stat = self.get_controller_epoch()
            if epoch_and_stat is None:
                raise RuntimeError(f"{ControllerEpochZNode.path} existed before but goes away while trying to read it")
            return epoch_and_stat[0], epoch_and_stat[1].version
        raise KeeperException.create(response.result_code)

    def update_broker_info(self, broker_info: BrokerInfo) -> None:
        broker_id_path = broker_info.path
        set_data_request = SetDataRequest(broker_id_path, broker_info.to_json_bytes(), ZkVersion.MATCH_ANY_VERSION)
        self._retry_request_until_connected(set_data_request).maybe_throw()
        endpoints = ",".join(str(ep) for ep in broker_info.broker.end_points)
        self.info(f"Updated broker {broker_info.broker.id} at path {broker_id_path} with addresses: {endpoints}")

    # -- partition states --------------------------------------------------------------------------------

    def get_topic_partition_states_raw(self, partitions: Sequence[TopicPartition]) -> list[GetDataResponse]:
        """GetData responses of the partitions' state znodes; each response's ctx is its partition."""
        requests = [GetDataRequest(TopicPartitionStateZNode.path(p), ctx=p) for p in partitions]
        return self._retry_requests_until_connected(requests)

    def set_topic_partition_states_raw(
        self,
        leader_isr_and_controller_epochs: Mapping[TopicPartition, LeaderIsrAndControllerEpoch],
        expected_controller_epoch_zk_version: int,
    ) -> list[SetDataResponse]:
        """Conditional SetData (on each LeaderAndIsr's zk version) of the partitions' states; ctx = partition."""
        requests = [
            SetDataRequest(
                TopicPartitionStateZNode.path(partition),
                TopicPartitionStateZNode.encode(state),
                state.leader_and_isr.zk_version,
                partition,
            )
            for partition, state in leader_isr_and_controller_epochs.items()
        ]
        return self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    def create_topic_partition_states_raw(
        self,
        leader_isr_and_controller_epochs: Mapping[TopicPartition, LeaderIsrAndControllerEpoch],
        expected_controller_epoch_zk_version: int,
    ) -> list[CreateResponse]:
        """Creates the partitions' state znodes (and their parents); ctx = partition."""
        topics = list(dict.fromkeys(p.topic for p in leader_isr_and_controller_epochs))
        self._create_topic_partitions(topics, expected_controller_epoch_zk_version)
        self._create_topic_partition(list(leader_isr_and_controller_epochs), expected_controller_epoch_zk_version)
        requests = []
        for partition, state in leader_isr_and_controller_epochs.items():
            path = TopicPartitionStateZNode.path(partition)
            requests.append(
                CreateRequest(
                    path,
                    TopicPartitionStateZNode.encode(state),
                    self.default_acls(path),
                    CreateMode.PERSISTENT,
                    partition,
                )
            )
        return self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    def set_controller_epoch_raw(self, epoch: int, epoch_zk_version: int) -> SetDataResponse:
        request = SetDataRequest(ControllerEpochZNode.path, ControllerEpochZNode.encode(epoch), epoch_zk_version)
        return self._retry_request_until_connected(request)

    def create_controller_epoch_raw(self, epoch: int) -> CreateResponse:
        request = CreateRequest(
            ControllerEpochZNode.path,
            ControllerEpochZNode.encode(epoch),
            self.default_acls(ControllerEpochZNode.path),
            CreateMode.PERSISTENT,
        )
        return self._retry_request_until_connected(request)

    def update_leader_and_isr(
        self,
        leader_and_isrs: Mapping[TopicPartition, LeaderAndIsr],
        controller_epoch: int,
        expected_controller_epoch_zk_version: int,
    ) -> UpdateLeaderAndIsrResult:
        """Writes the partitions' new states conditionally on their zk versions; see UpdateLeaderAndIsrResult."""
        states = {p: LeaderIsrAndControllerEpoch(lai, controller_epoch) for p, lai in leader_and_isrs.items()}
        try:
            set_data_responses = self.set_topic_partition_states_raw(states, expected_controller_epoch_zk_version)
        except ControllerMovedException:
            raise
        except Exception as e:
            return UpdateLeaderAndIsrResult(dict.fromkeys(leader_and_isrs, e), [])

        updates_to_retry: list[TopicPartition] = []
        finished: dict[TopicPartition, LeaderAndIsr | Exception] = {}
        for response in set_data_responses:
            partition = cast(TopicPartition, response.ctx)
            if response.result_code == Code.OK:
                assert response.stat is not None
                finished[partition] = leader_and_isrs[partition].with_zk_version(response.stat.version)
            elif response.result_code == Code.BADVERSION:
                updates_to_retry.append(partition)
            else:
                exception = response.result_exception
                assert exception is not None
                finished[partition] = exception
        return UpdateLeaderAndIsrResult(finished, updates_to_retry)

    # -- configs -----------------------------------------------------------------------------------------

    def get_log_configs(
        self, topics: Iterable[str], config: Mapping[str, Any]
    ) -> tuple[dict[str, LogConfig], dict[str, Exception]]:
        """The topics' log configs (the broker's `config` overridden by each topic's znode), and the failures."""
        topics = list(topics)
        log_configs: dict[str, LogConfig] = {}
        failed: dict[str, Exception] = {}
        try:
            config_responses = self._get_topic_configs(topics)
        except Exception as e:
            return log_configs, dict.fromkeys(topics, e)
        for response in config_responses:
            topic = cast(str, response.ctx)
            if response.result_code == Code.OK:
                log_configs[topic] = LogConfig.from_props(config, ConfigEntityZNode.decode(response.data))
            elif response.result_code == Code.NONODE:
                log_configs[topic] = LogConfig.from_props(config, {})
            else:
                exception = response.result_exception
                assert exception is not None
                failed[topic] = exception
        return log_configs, failed

    def get_entity_configs(self, root_entity_type: str, sanitized_entity_name: str) -> dict[str, str]:
        """The config overrides of an entity (empty if it has none)."""
        response = self._retry_request_until_connected(
            GetDataRequest(ConfigEntityZNode.path(root_entity_type, sanitized_entity_name))
        )
        if response.result_code == Code.OK:
            return ConfigEntityZNode.decode(response.data)
        if response.result_code == Code.NONODE:
            return {}
        raise _exception(response)

    def set_or_create_entity_configs(
        self, root_entity_type: str, sanitized_entity_name: str, config: Mapping[str, str]
    ) -> None:
        """Writes the entity's config znode, creating it if needed. Concurrent writers: the last one wins."""
        path = ConfigEntityZNode.path(root_entity_type, sanitized_entity_name)

        def set_(config_data: bytes) -> SetDataResponse:
            return self._retry_request_until_connected(SetDataRequest(path, config_data, ZkVersion.MATCH_ANY_VERSION))

        def create_or_set(config_data: bytes) -> None:
            try:
                self.create_recursive(path, config_data)
            except NodeExistsException:
                set_(config_data).maybe_throw()

        config_data = ConfigEntityZNode.encode(config)
        set_data_response = set_(config_data)
        if set_data_response.result_code == Code.NONODE:
            create_or_set(config_data)
        else:
            set_data_response.maybe_throw()

    def get_all_entities_with_config(self, entity_type: str) -> list[str]:
        return self.get_children(ConfigEntityTypeZNode.path(entity_type))

    def create_config_change_notification(self, sanitized_entity_path: str) -> None:
        """Creates /config/changes/config_change_<seq> naming the entity (`type/name`) whose configs changed."""
        self.make_sure_persistent_path_exists(ConfigEntityChangeNotificationZNode.path)
        path = ConfigEntityChangeNotificationSequenceZNode.create_path
        request = CreateRequest(
            path,
            ConfigEntityChangeNotificationSequenceZNode.encode(sanitized_entity_path),
            self.default_acls(path),
            CreateMode.PERSISTENT_SEQUENTIAL,
        )
        self._retry_request_until_connected(request).maybe_throw()

    # -- brokers -----------------------------------------------------------------------------------------

    def get_all_brokers_in_cluster(self) -> list[Broker]:
        """Every registered broker, by id."""
        return [broker for broker, _ in self._get_brokers_and_epochs()]

    def get_all_broker_and_epochs_in_cluster(self) -> dict[Broker, int]:
        """Every registered broker with its epoch (the czxid of its registration)."""
        return dict(self._get_brokers_and_epochs())

    def _get_brokers_and_epochs(self) -> list[tuple[Broker, int]]:
        requests = [GetDataRequest(BrokerIdZNode.path(id_), ctx=id_) for id_ in self.get_sorted_broker_list()]
        result = []
        for response in self._retry_requests_until_connected(requests):
            if response.result_code == Code.OK:
                assert response.data is not None and response.stat is not None
                broker_id = cast(int, response.ctx)
                result.append((BrokerIdZNode.decode(broker_id, response.data).broker, response.stat.czxid))
            elif response.result_code != Code.NONODE:
                raise _exception(response)
        return result

    def get_broker(self, broker_id: int) -> Broker | None:
        response = self._retry_request_until_connected(GetDataRequest(BrokerIdZNode.path(broker_id)))
        if response.result_code == Code.OK:
            assert response.data is not None
            return BrokerIdZNode.decode(broker_id, response.data).broker
        if response.result_code == Code.NONODE:
            return None
        raise _exception(response)

    def get_sorted_broker_list(self) -> list[int]:
        return sorted(int(child) for child in self.get_children(BrokerIdsZNode.path))

    # -- topics ------------------------------------------------------------------------------------------

    def get_all_topics_in_cluster(self, register_watch: bool = False) -> set[str]:
        response = self._retry_request_until_connected(GetChildrenRequest(TopicsZNode.path, register_watch))
        if response.result_code == Code.OK:
            return set(response.children)
        if response.result_code == Code.NONODE:
            return set()
        raise _exception(response)

    def topic_exists(self, topic_name: str) -> bool:
        return self.path_exists(TopicZNode.path(topic_name))

    def set_topic_ids(
        self,
        topic_id_replica_assignments: Iterable[TopicIdReplicaAssignment],
        expected_controller_epoch_zk_version: int,
    ) -> set[TopicIdReplicaAssignment]:
        """Gives each topic (which must have none yet) a random topic id and writes it; returns the updated ones."""
        updated = set()
        for assignment in topic_id_replica_assignments:
            if assignment.topic_id is not None:
                raise ValueError(f"TopicIdReplicaAssignment for {assignment.topic} already contains a topic ID.")
            updated.add(TopicIdReplicaAssignment(assignment.topic, Uuid.random_uuid(), assignment.assignment))
        requests = [
            SetDataRequest(
                TopicZNode.path(a.topic), TopicZNode.encode(a.topic_id, a.assignment), ZkVersion.MATCH_ANY_VERSION
            )
            for a in updated
        ]
        self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)
        return updated

    def set_topic_assignment_raw(
        self,
        topic: str,
        topic_id: Uuid | None,
        assignment: Mapping[TopicPartition, ReplicaAssignment],
        expected_controller_epoch_zk_version: int,
    ) -> SetDataResponse:
        request = SetDataRequest(
            TopicZNode.path(topic), TopicZNode.encode(topic_id, assignment), ZkVersion.MATCH_ANY_VERSION
        )
        return self._retry_request_until_connected(request, expected_controller_epoch_zk_version)

    def set_topic_assignment(
        self,
        topic: str,
        topic_id: Uuid | None,
        assignment: Mapping[TopicPartition, ReplicaAssignment],
        expected_controller_epoch_zk_version: int = ZkVersion.MATCH_ANY_VERSION,
    ) -> None:
        self.set_topic_assignment_raw(topic, topic_id, assignment, expected_controller_epoch_zk_version).maybe_throw()

    def create_topic_assignment(
        self, topic: str, topic_id: Uuid | None, assignment: Mapping[TopicPartition, Sequence[int]]
    ) -> None:
        """Creates the topic znode; raises NodeExistsException if the topic exists."""
        persisted = {tp: ReplicaAssignment(replicas) for tp, replicas in assignment.items()}
        self.create_recursive(TopicZNode.path(topic), TopicZNode.encode(topic_id, persisted))

    def get_all_log_dir_event_notifications(self) -> list[str]:
        """The sequence numbers of the pending log-dir event notifications (watching for new ones)."""
        response = self._retry_request_until_connected(
            GetChildrenRequest(LogDirEventNotificationZNode.path, register_watch=True)
        )
        if response.result_code == Code.OK:
            return [LogDirEventNotificationSequenceZNode.sequence_number(c) for c in response.children]
        if response.result_code == Code.NONODE:
            return []
        raise _exception(response)

    def get_broker_ids_from_log_dir_events(self, sequence_numbers: Sequence[str]) -> list[int]:
        requests = [GetDataRequest(LogDirEventNotificationSequenceZNode.path(s)) for s in sequence_numbers]
        broker_ids = []
        for response in self._retry_requests_until_connected(requests):
            if response.result_code == Code.OK:
                broker_id = LogDirEventNotificationSequenceZNode.decode(response.data)
                if broker_id is not None:
                    broker_ids.append(broker_id)
            elif response.result_code != Code.NONODE:
                raise _exception(response)
        return broker_ids

    def delete_log_dir_event_notifications(
        self, expected_controller_epoch_zk_version: int, sequence_numbers: Sequence[str] | None = None
    ) -> None:
        """Deletes the given log-dir event notifications, or all of them."""
        if sequence_numbers is None:
            response = self._retry_request_until_connected(
                GetChildrenRequest(LogDirEventNotificationZNode.path, register_watch=True)
            )
            if response.result_code == Code.OK:
                sequence_numbers = [LogDirEventNotificationSequenceZNode.sequence_number(c) for c in response.children]
            elif response.result_code != Code.NONODE:
                response.maybe_throw()
            if sequence_numbers is None:
                return
        requests = [
            DeleteRequest(LogDirEventNotificationSequenceZNode.path(s), ZkVersion.MATCH_ANY_VERSION)
            for s in sequence_numbers
        ]
        self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    def get_topic_ids_for_topics(self, topics: Iterable[str]) -> dict[str, Uuid]:
        result: dict[str, Uuid] = {}
        for assignment in self._get_topic_assignments(topics):
            if assignment is not None and assignment.topic_id is not None:
                result[assignment.topic] = assignment.topic_id
        return result

    def get_replica_assignment_for_topics(self, topics: Iterable[str]) -> dict[TopicPartition, list[int]]:
        """The replicas of every partition of the topics (without reassignment details)."""
        return {tp: list(a.replicas) for tp, a in self.get_full_replica_assignment_for_topics(topics).items()}

    def get_replica_assignment_and_topic_id_for_topics(self, topics: Iterable[str]) -> set[TopicIdReplicaAssignment]:
        topics = list(topics)
        return {
            assignment if assignment is not None else TopicIdReplicaAssignment(topic, None, {})
            for topic, assignment in zip(topics, self._get_topic_assignments(topics))
        }

    def get_full_replica_assignment_for_topics(self, topics: Iterable[str]) -> dict[TopicPartition, ReplicaAssignment]:
        result: dict[TopicPartition, ReplicaAssignment] = {}
        for assignment in self._get_topic_assignments(topics):
            if assignment is not None:
                result.update(assignment.assignment)
        return result

    def get_partition_assignment_for_topics(self, topics: Iterable[str]) -> dict[str, dict[int, ReplicaAssignment]]:
        return {
            a.topic: {tp.partition: ra for tp, ra in a.assignment.items()}
            for a in self._get_topic_assignments(topics)
            if a is not None
        }

    def _get_topic_assignments(self, topics: Iterable[str]) -> list[TopicIdReplicaAssignment | None]:
        """Each topic's znode decoded, None for a topic that does not exist; in the order of `topics`."""
        requests = [GetDataRequest(TopicZNode.path(topic), ctx=topic) for topic in topics]
        result: list[TopicIdReplicaAssignment | None] = []
        for response in self._retry_requests_until_connected(requests):
            if response.result_code == Code.OK:
                result.append(TopicZNode.decode(cast(str, response.ctx), response.data))
            elif response.result_code == Code.NONODE:
                result.append(None)
            else:
                raise _exception(response)
        return result

    def get_partitions_for_topics(self, topics: Iterable[str]) -> dict[str, list[int]]:
        """The sorted partition ids of each existing topic."""
        return {
            topic: sorted(partitions) for topic, partitions in self.get_partition_assignment_for_topics(topics).items()
        }

    def get_topic_partition_count(self, topic: str) -> int | None:
        topic_data = self.get_replica_assignment_for_topics([topic])
        return len(topic_data) if topic_data else None

    def get_replicas_for_partition(self, topic_partition: TopicPartition) -> list[int]:
        return self.get_replica_assignment_for_topics([topic_partition.topic]).get(topic_partition, [])

    def get_all_partitions(self) -> set[TopicPartition]:
        """Every partition of every topic (a topic being deleted may have no partitions znode)."""
        return {
            TopicPartition(topic, int(partition))
            for topic in self.get_children(TopicsZNode.path)
            for partition in self.get_children(TopicPartitionsZNode.path(topic))
        }

    # -- generic reads and writes ------------------------------------------------------------------------

    def get_data_and_version(self, path: str) -> tuple[bytes | None, int]:
        """The znode's data and version; (None, ZkVersion.UNKNOWN_VERSION) if it does not exist."""
        data, stat = self.get_data_and_stat(path)
        return data, ZkVersion.UNKNOWN_VERSION if stat is ZkStat.NO_STAT else stat.version

    def get_data_and_stat(self, path: str) -> tuple[bytes | None, Stat]:
        """The znode's data and Stat; (None, ZkStat.NO_STAT) if it does not exist."""
        response = self._retry_request_until_connected(GetDataRequest(path))
        if response.result_code == Code.OK:
            assert response.stat is not None
            return response.data, response.stat
        if response.result_code == Code.NONODE:
            return None, ZkStat.NO_STAT
        raise _exception(response)

    def get_children(self, path: str) -> list[str]:
        """The znode's children (watching them if a child handler is registered); empty if it does not exist."""
        response = self._retry_request_until_connected(GetChildrenRequest(path, register_watch=True))
        if response.result_code == Code.OK:
            return response.children
        if response.result_code == Code.NONODE:
            return []
        raise _exception(response)

    def conditional_update_path(
        self,
        path: str,
        data: bytes,
        expect_version: int,
        optional_checker: Callable[[KafkaZkClient, str, bytes], tuple[bool, int]] | None = None,
    ) -> tuple[bool, int]:
        """SetData if the znode is at `expect_version`: (True, new version), else (False, UNKNOWN_VERSION).

        After a BADVERSION, `optional_checker` can tell whether our own write (retried after a connection loss)
        had in fact succeeded."""
        response = self._retry_request_until_connected(SetDataRequest(path, data, expect_version))
        text = data.decode("utf-8", "replace")
        if response.result_code == Code.OK:
            assert response.stat is not None
            self.debug(
                f"Conditional update of path {path} with value {text} and expected version {expect_version} "
                f"succeeded, returning the new version: {response.stat.version}"
            )
            return True, response.stat.version
        if response.result_code == Code.BADVERSION:
            if optional_checker is not None:
                return optional_checker(self, path, data)
            self.debug("Checker method is not passed skipping zkData match")
            self.debug(
                f"Conditional update of path {path} with data {text} and expected version {expect_version} "
                f"failed due to {response.result_exception}"
            )
            return False, ZkVersion.UNKNOWN_VERSION
        self.debug(
            f"Conditional update of path {path} with data {text} and expected version {expect_version} failed "
            f"due to {response.result_exception}"
        )
        if response.result_code == Code.NONODE:
            return False, ZkVersion.UNKNOWN_VERSION
        raise _exception(response)

    # -- topic deletion ----------------------------------------------------------------------------------

    def create_delete_topic_path(self, topic_name: str) -> None:
        """Marks the topic for deletion; raises NodeExistsException if it already is."""
        self.create_recursive(DeleteTopicsTopicZNode.path(topic_name))

    def is_topic_marked_for_deletion(self, topic: str) -> bool:
        return self.path_exists(DeleteTopicsTopicZNode.path(topic))

    def get_topic_deletions(self) -> list[str]:
        response = self._retry_request_until_connected(GetChildrenRequest(DeleteTopicsZNode.path, register_watch=True))
        if response.result_code == Code.OK:
            return response.children
        if response.result_code == Code.NONODE:
            return []
        raise _exception(response)

    def delete_topic_deletions(self, topics: Sequence[str], expected_controller_epoch_zk_version: int) -> None:
        requests = [DeleteRequest(DeleteTopicsTopicZNode.path(t), ZkVersion.MATCH_ANY_VERSION) for t in topics]
        self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    # -- reassignment and preferred replica election -----------------------------------------------------

    def get_partition_reassignment(self) -> dict[TopicPartition, list[int]]:
        response = self._retry_request_until_connected(GetDataRequest(ReassignPartitionsZNode.path))
        if response.result_code == Code.OK:
            assert response.data is not None
            try:
                return ReassignPartitionsZNode.decode(response.data)
            except JsonDecodeError as e:
                self.logger.warning(f"Ignoring partition reassignment due to invalid json: {e}", exc_info=e)
                return {}
        if response.result_code == Code.NONODE:
            return {}
        raise _exception(response)

    def set_or_create_partition_reassignment(
        self, reassignment: Mapping[TopicPartition, Sequence[int]], expected_controller_epoch_zk_version: int
    ) -> None:
        """Deprecated with the znode (use the PartitionReassignment API)."""
        reassignment_data = ReassignPartitionsZNode.encode(reassignment)
        set_data_response = self._retry_request_until_connected(
            SetDataRequest(ReassignPartitionsZNode.path, reassignment_data, ZkVersion.MATCH_ANY_VERSION),
            expected_controller_epoch_zk_version,
        )
        if set_data_response.result_code == Code.NONODE:
            create_request = CreateRequest(
                ReassignPartitionsZNode.path,
                reassignment_data,
                self.default_acls(ReassignPartitionsZNode.path),
                CreateMode.PERSISTENT,
            )
            self._retry_request_until_connected(create_request, expected_controller_epoch_zk_version).maybe_throw()
        else:
            set_data_response.maybe_throw()

    def create_partition_reassignment(self, reassignment: Mapping[TopicPartition, Sequence[int]]) -> None:
        self.create_recursive(ReassignPartitionsZNode.path, ReassignPartitionsZNode.encode(reassignment))

    def delete_partition_reassignment(self, expected_controller_epoch_zk_version: int) -> None:
        self.delete_path(ReassignPartitionsZNode.path, expected_controller_epoch_zk_version)

    def reassign_partitions_in_progress(self) -> bool:
        return self.path_exists(ReassignPartitionsZNode.path)

    def get_topic_partition_states(
        self, partitions: Sequence[TopicPartition]
    ) -> dict[TopicPartition, LeaderIsrAndControllerEpoch]:
        result = {}
        for response in self.get_topic_partition_states_raw(partitions):
            if response.result_code == Code.OK:
                assert response.stat is not None
                state = TopicPartitionStateZNode.decode(response.data, response.stat)
                if state is not None:
                    result[cast(TopicPartition, response.ctx)] = state
            elif response.result_code != Code.NONODE:
                raise _exception(response)
        return result

    def get_topic_partition_state(self, partition: TopicPartition) -> LeaderIsrAndControllerEpoch | None:
        response = self.get_topic_partition_states_raw([partition])[0]
        if response.result_code == Code.OK:
            assert response.stat is not None
            return TopicPartitionStateZNode.decode(response.data, response.stat)
        if response.result_code == Code.NONODE:
            return None
        raise _exception(response)

    def get_leader_for_partition(self, partition: TopicPartition) -> int | None:
        state = self.get_topic_partition_state(partition)
        return None if state is None else state.leader_and_isr.leader

    def get_in_sync_replicas_for_partition(self, partition: TopicPartition) -> list[int] | None:
        state = self.get_topic_partition_state(partition)
        return None if state is None else list(state.leader_and_isr.isr)

    def get_epoch_for_partition(self, partition: TopicPartition) -> int | None:
        state = self.get_topic_partition_state(partition)
        return None if state is None else state.leader_and_isr.leader_epoch

    # -- ISR change notifications ------------------------------------------------------------------------

    def get_all_isr_change_notifications(self) -> list[str]:
        """The sequence numbers of the pending ISR change notifications (watching for new ones)."""
        response = self._retry_request_until_connected(
            GetChildrenRequest(IsrChangeNotificationZNode.path, register_watch=True)
        )
        if response.result_code == Code.OK:
            return [IsrChangeNotificationSequenceZNode.sequence_number(c) for c in response.children]
        if response.result_code == Code.NONODE:
            return []
        raise _exception(response)

    def get_partitions_from_isr_change_notifications(self, sequence_numbers: Sequence[str]) -> list[TopicPartition]:
        requests = [GetDataRequest(IsrChangeNotificationSequenceZNode.path(s)) for s in sequence_numbers]
        partitions: list[TopicPartition] = []
        for response in self._retry_requests_until_connected(requests):
            if response.result_code == Code.OK:
                partitions.extend(IsrChangeNotificationSequenceZNode.decode(response.data))
            elif response.result_code != Code.NONODE:
                raise _exception(response)
        return partitions

    def delete_isr_change_notifications(
        self, expected_controller_epoch_zk_version: int, sequence_numbers: Sequence[str] | None = None
    ) -> None:
        """Deletes the given ISR change notifications, or all of them."""
        if sequence_numbers is None:
            response = self._retry_request_until_connected(
                GetChildrenRequest(IsrChangeNotificationZNode.path, register_watch=True)
            )
            if response.result_code == Code.OK:
                sequence_numbers = [IsrChangeNotificationSequenceZNode.sequence_number(c) for c in response.children]
            elif response.result_code != Code.NONODE:
                response.maybe_throw()
            if sequence_numbers is None:
                return
        requests = [
            DeleteRequest(IsrChangeNotificationSequenceZNode.path(s), ZkVersion.MATCH_ANY_VERSION)
            for s in sequence_numbers
        ]
        self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    def create_preferred_replica_election(self, partitions: Iterable[TopicPartition]) -> None:
        self.create_recursive(PreferredReplicaElectionZNode.path, PreferredReplicaElectionZNode.encode(partitions))

    def get_preferred_replica_election(self) -> set[TopicPartition]:
        response = self._retry_request_until_connected(GetDataRequest(PreferredReplicaElectionZNode.path))
        if response.result_code == Code.OK:
            return PreferredReplicaElectionZNode.decode(response.data)
        if response.result_code == Code.NONODE:
            return set()
        raise _exception(response)

    def delete_preferred_replica_election(self, expected_controller_epoch_zk_version: int) -> None:
        request = DeleteRequest(PreferredReplicaElectionZNode.path, ZkVersion.MATCH_ANY_VERSION)
        self._retry_request_until_connected(request, expected_controller_epoch_zk_version)

    # -- controller --------------------------------------------------------------------------------------

    def get_controller_id(self) -> int | None:
        """The active controller's broker id, if any."""
        response = self._retry_request_until_connected(GetDataRequest(ControllerZNode.path))
        if response.result_code == Code.OK:
            return ControllerZNode.decode(response.data)
        if response.result_code == Code.NONODE:
            return None
        raise _exception(response)

    def delete_controller(self, expected_controller_epoch_zk_version: int) -> None:
        request = DeleteRequest(ControllerZNode.path, ZkVersion.MATCH_ANY_VERSION)
        self._retry_request_until_connected(request, expected_controller_epoch_zk_version)

    def get_controller_epoch(self) -> tuple[int, Stat] | None:
        """The controller epoch and the Stat of /controller_epoch, if it exists."""
        response = self._retry_request_until_connected(GetDataRequest(ControllerEpochZNode.path))
        if response.result_code == Code.OK:
            assert response.data is not None and response.stat is not None
            return ControllerEpochZNode.decode(response.data), response.stat
        if response.result_code == Code.NONODE:
            return None
        raise _exception(response)

    def delete_topic_z_node(self, topic: str, expected_controller_epoch_zk_version: int) -> None:
        """Deletes the topic's znode and everything under it."""
        self.delete_recursive(TopicZNode.path(topic), expected_controller_epoch_zk_version)

    def delete_topic_configs(self, topics: Sequence[str], expected_controller_epoch_zk_version: int) -> None:
        requests = [
            DeleteRequest(ConfigEntityZNode.path(ConfigType.TOPIC, t), ZkVersion.MATCH_ANY_VERSION) for t in topics
        ]
        self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    # -- notifications -----------------------------------------------------------------------------------

    def propagate_log_dir_event(self, broker_id: int) -> None:
        path = self.create_sequential_persistent_path(
            f"{LogDirEventNotificationZNode.path}/{LogDirEventNotificationSequenceZNode.SEQUENCE_NUMBER_PREFIX}",
            LogDirEventNotificationSequenceZNode.encode(broker_id),
        )
        self.debug(f"Added {path} for broker {broker_id}")

    def propagate_isr_changes(self, isr_change_set: Iterable[TopicPartition]) -> None:
        isr_change_set = list(isr_change_set)
        path = self.create_sequential_persistent_path(
            IsrChangeNotificationSequenceZNode.path(), IsrChangeNotificationSequenceZNode.encode(isr_change_set)
        )
        self.debug(f"Added {path} for {{{', '.join(str(tp) for tp in isr_change_set)}}}")

    def delete_path(
        self,
        path: str,
        expected_controller_epoch_zk_version: int = ZkVersion.MATCH_ANY_VERSION,
        recursive_delete: bool = True,
    ) -> None:
        """Deletes the znode (with its children if `recursive_delete`); a missing znode is fine."""
        if recursive_delete:
            self.delete_recursive(path, expected_controller_epoch_zk_version)
            return
        response = self._retry_request_until_connected(
            DeleteRequest(path, ZkVersion.MATCH_ANY_VERSION), expected_controller_epoch_zk_version
        )
        if response.result_code not in (Code.OK, Code.NONODE):
            raise _exception(response)

    # -- delegation token paths --------------------------------------------------------------------------

    def create_delegation_token_paths(self) -> None:
        self.create_recursive(DelegationTokenChangeNotificationZNode.path, throw_if_path_exists=False)
        self.create_recursive(DelegationTokensZNode.path, throw_if_path_exists=False)

    def create_token_change_notification(self, token_id: str) -> None:
        path = DelegationTokenChangeNotificationSequenceZNode.create_path
        request = CreateRequest(
            path,
            DelegationTokenChangeNotificationSequenceZNode.encode(token_id),
            self.default_acls(path),
            CreateMode.PERSISTENT_SEQUENTIAL,
        )
        self._retry_request_until_connected(request).maybe_throw()

    def set_or_create_delegation_token(self, token: DelegationToken) -> None:
        """Writes the token's znode under /delegation_token/tokens, creating it if needed."""
        path = DelegationTokenInfoZNode.path(token.token_info().token_id)
        token_data = DelegationTokenInfoZNode.encode(token)
        set_response = self._retry_request_until_connected(
            SetDataRequest(path, token_data, ZkVersion.MATCH_ANY_VERSION)
        )
        if set_response.result_code == Code.NONODE:
            create_request = CreateRequest(path, token_data, self.default_acls(path), CreateMode.PERSISTENT)
            self._retry_request_until_connected(create_request).maybe_throw()
        else:
            set_response.maybe_throw()

    def get_delegation_token_info(self, delegation_token_id: str) -> TokenInformation | None:
        """The token's information from ZooKeeper; None if its znode does not exist or is empty."""
        response = self._retry_request_until_connected(
            GetDataRequest(DelegationTokenInfoZNode.path(delegation_token_id))
        )
        if response.result_code == Code.OK:
            info: TokenInformation | None = DelegationTokenInfoZNode.decode(response.data)
            return info
        if response.result_code == Code.NONODE:
            return None
        raise _exception(response)

    def delete_delegation_token(self, delegation_token_id: str) -> bool:
        return self.delete_recursive(DelegationTokenInfoZNode.path(delegation_token_id))

    # -- handlers ----------------------------------------------------------------------------------------

    def register_z_node_change_handler_and_check_existence(self, z_node_change_handler: ZNodeChangeHandler) -> bool:
        """Registers the handler and sets its watch; returns whether its znode exists."""
        self._zoo_keeper_client.register_z_node_change_handler(z_node_change_handler)
        response = self._retry_request_until_connected(ExistsRequest(z_node_change_handler.path))
        if response.result_code == Code.OK:
            return True
        if response.result_code == Code.NONODE:
            return False
        raise _exception(response)

    def register_z_node_change_handler(self, z_node_change_handler: ZNodeChangeHandler) -> None:
        self._zoo_keeper_client.register_z_node_change_handler(z_node_change_handler)

    def unregister_z_node_change_handler(self, path: str) -> None:
        self._zoo_keeper_client.unregister_z_node_change_handler(path)

    def register_z_node_child_change_handler(self, z_node_child_change_handler: ZNodeChildChangeHandler) -> None:
        self._zoo_keeper_client.register_z_node_child_change_handler(z_node_child_change_handler)

    def unregister_z_node_child_change_handler(self, path: str) -> None:
        self._zoo_keeper_client.unregister_z_node_child_change_handler(path)

    def register_state_change_handler(self, state_change_handler: StateChangeHandler) -> None:
        self._zoo_keeper_client.register_state_change_handler(state_change_handler)

    def unregister_state_change_handler(self, name: str) -> None:
        self._zoo_keeper_client.unregister_state_change_handler(name)

    def close(self) -> None:
        self.remove_metric("ZooKeeperRequestLatencyMs")
        self._zoo_keeper_client.close()

    # -- ACLs (the AclAuthorizer's storage) ---------------------------------------------------------------

    def create_acl_paths(self) -> None:
        """Makes sure every ACL store's root and resource-type znodes, and both change roots, exist."""
        for store in ZK_ACL_STORES:
            self.create_recursive(store.acl_path, throw_if_path_exists=False)
            for resource_type in AclEntry.RESOURCE_TYPES:
                self.create_recursive(store.path(resource_type), throw_if_path_exists=False)
        for change_store in ZK_ACL_CHANGE_STORES:
            self.create_recursive(change_store.acl_change_path, throw_if_path_exists=False)

    def get_versioned_acls_for_resource(self, resource: ResourcePattern) -> VersionedAcls:
        from kafka.security.authorizer.acl_authorizer import NO_ACLS, VersionedAcls

        response = self._retry_request_until_connected(GetDataRequest(ResourceZNode.path(resource)))
        if response.result_code == Code.OK:
            assert response.stat is not None
            return VersionedAcls(frozenset(ResourceZNode.decode(response.data)), response.stat.version)
        if response.result_code == Code.NONODE:
            return NO_ACLS
        raise _exception(response)

    def conditional_set_acls_for_resource(
        self, resource: ResourcePattern, acls_set: Iterable[AclEntry], expected_version: int
    ) -> tuple[bool, int]:
        """(True, new version) if the znode was at `expected_version`, else (False, UNKNOWN_VERSION)."""
        if expected_version < 0:
            raise ValueError(f"Invalid version {expected_version} provided for conditional update")
        request = SetDataRequest(ResourceZNode.path(resource), ResourceZNode.encode(acls_set), expected_version)
        response = self._retry_request_until_connected(request)
        if response.result_code == Code.OK:
            assert response.stat is not None
            return True, response.stat.version
        if response.result_code in (Code.NONODE, Code.BADVERSION):
            return False, ZkVersion.UNKNOWN_VERSION
        raise _exception(response)

    def create_acls_for_resource_if_not_exists(
        self, resource: ResourcePattern, acls_set: Iterable[AclEntry]
    ) -> tuple[bool, int]:
        path = ResourceZNode.path(resource)
        request = CreateRequest(path, ResourceZNode.encode(acls_set), self.default_acls(path), CreateMode.PERSISTENT)
        response = self._retry_request_until_connected(request)
        if response.result_code == Code.OK:
            return True, 0
        if response.result_code == Code.NODEEXISTS:
            return False, ZkVersion.UNKNOWN_VERSION
        raise _exception(response)

    def create_acl_change_notification(self, resource: ResourcePattern) -> None:
        change_store = ZkAclStore.of(resource.pattern_type).change_store
        path = change_store.create_path()
        request = CreateRequest(
            path, change_store.encode(resource), self.default_acls(path), CreateMode.PERSISTENT_SEQUENTIAL
        )
        self._retry_request_until_connected(request).maybe_throw()

    def get_resource_types(self, pattern_type: PatternType) -> list[str]:
        return self.get_children(ZkAclStore.of(pattern_type).acl_path)

    def get_resource_names(self, pattern_type: PatternType, resource_type: ResourceType) -> list[str]:
        return self.get_children(ZkAclStore.of(pattern_type).path(resource_type))

    def delete_resource(self, resource: ResourcePattern) -> bool:
        return self.delete_recursive(ResourceZNode.path(resource))

    def resource_exists(self, resource: ResourcePattern) -> bool:
        return self.path_exists(ResourceZNode.path(resource))

    def conditional_delete(self, resource: ResourcePattern, expected_version: int) -> bool:
        """Deletes the resource's znode if it is at `expected_version` (or already gone)."""
        response = self._retry_request_until_connected(DeleteRequest(ResourceZNode.path(resource), expected_version))
        if response.result_code in (Code.OK, Code.NONODE):
            return True
        if response.result_code == Code.BADVERSION:
            return False
        raise _exception(response)

    # -- old consumer offsets ----------------------------------------------------------------------------

    def get_consumer_offset(self, group: str, topic_partition: TopicPartition) -> int | None:
        path = ConsumerOffset.path(group, topic_partition.topic, topic_partition.partition)
        response = self._retry_request_until_connected(GetDataRequest(path))
        if response.result_code == Code.OK:
            return ConsumerOffset.decode(response.data)
        if response.result_code == Code.NONODE:
            return None
        raise _exception(response)

    def set_or_create_consumer_offset(self, group: str, topic_partition: TopicPartition, offset: int) -> None:
        path = ConsumerOffset.path(group, topic_partition.topic, topic_partition.partition)
        response = self._retry_request_until_connected(
            SetDataRequest(path, ConsumerOffset.encode(offset), ZkVersion.MATCH_ANY_VERSION)
        )
        if response.result_code == Code.NONODE:
            self.create_recursive(path, ConsumerOffset.encode(offset))
        else:
            response.maybe_throw()

    # -- cluster id, ZooKeeper ACLs, broker ids ----------------------------------------------------------

    def get_cluster_id(self) -> str | None:
        response = self._retry_request_until_connected(GetDataRequest(ClusterIdZNode.path))
        if response.result_code == Code.OK:
            return ClusterIdZNode.from_json(response.data)
        if response.result_code == Code.NONODE:
            return None
        raise _exception(response)

    def get_acl(self, path: str) -> list[ACL]:
        """The ZooKeeper ACL of a znode."""
        response = self._retry_request_until_connected(GetAclRequest(path))
        if response.result_code == Code.OK:
            return response.acl
        raise _exception(response)

    def set_acl(self, path: str, acl: Sequence[ACL]) -> None:
        self._retry_request_until_connected(SetAclRequest(path, acl, ZkVersion.MATCH_ANY_VERSION)).maybe_throw()

    def create_or_get_cluster_id(self, proposed_cluster_id: str) -> str:
        """Writes /cluster/id with `proposed_cluster_id` unless it exists; returns the cluster's id."""
        try:
            self.create_recursive(ClusterIdZNode.path, ClusterIdZNode.to_json(proposed_cluster_id))
            return proposed_cluster_id
        except NodeExistsException:
            cluster_id = self.get_cluster_id()
            if cluster_id is None:
                raise KafkaException(
                    "Failed to get cluster id from Zookeeper. This can happen if /cluster/id is deleted from Zookeeper."
                ) from None
            return cluster_id

    def generate_broker_sequence_id(self) -> int:
        """A new broker id sequence number: the version of /brokers/seqid after writing it (created if missing)."""
        while True:
            response = self._retry_request_until_connected(
                SetDataRequest(BrokerSequenceIdZNode.path, b"", ZkVersion.MATCH_ANY_VERSION)
            )
            if response.result_code == Code.OK:
                assert response.stat is not None
                return response.stat.version
            if response.result_code != Code.NONODE:
                raise _exception(response)
            # make sure the path exists, then write again
            self.create_recursive(BrokerSequenceIdZNode.path, b"", throw_if_path_exists=False)

    def create_top_level_paths(self) -> None:
        """Makes sure every persistent path a broker expects exists (ZkData.PERSISTENT_ZK_PATHS)."""
        for path in ZkData.PERSISTENT_ZK_PATHS:
            self.make_sure_persistent_path_exists(path)

    def make_sure_persistent_path_exists(self, path: str) -> None:
        """Creates the znode (without data) and its missing parents, unless it exists."""
        self.create_recursive(path, data=None, throw_if_path_exists=False)

    def create_feature_z_node(self, node_contents: FeatureZNode) -> None:
        request = CreateRequest(
            FeatureZNode.path,
            FeatureZNode.encode(node_contents),
            self.default_acls(FeatureZNode.path),
            CreateMode.PERSISTENT,
        )
        self._retry_request_until_connected(request).maybe_throw()

    def update_feature_z_node(self, node_contents: FeatureZNode) -> int:
        """Overwrites /feature; returns its new version."""
        response = self._retry_request_until_connected(
            SetDataRequest(FeatureZNode.path, FeatureZNode.encode(node_contents), ZkVersion.MATCH_ANY_VERSION)
        )
        response.maybe_throw()
        assert response.stat is not None
        return response.stat.version

    def delete_feature_z_node(self) -> None:
        self.delete_path(FeatureZNode.path, ZkVersion.MATCH_ANY_VERSION, False)

    # -- recursive helpers -------------------------------------------------------------------------------

    def delete_recursive(
        self, path: str, expected_controller_epoch_zk_version: int = ZkVersion.MATCH_ANY_VERSION
    ) -> bool:
        """Deletes the znode and its subtree; False if it did not exist."""
        response = self._retry_request_until_connected(GetChildrenRequest(path, register_watch=True))
        if response.result_code == Code.OK:
            for child in response.children:
                self.delete_recursive(f"{path}/{child}", expected_controller_epoch_zk_version)
            delete_response = self._retry_request_until_connected(
                DeleteRequest(path, ZkVersion.MATCH_ANY_VERSION), expected_controller_epoch_zk_version
            )
            if delete_response.result_code not in (Code.OK, Code.NONODE):
                raise _exception(delete_response)
            return True
        if response.result_code == Code.NONODE:
            return False
        raise _exception(response)

    def path_exists(self, path: str) -> bool:
        response = self._retry_request_until_connected(ExistsRequest(path))
        if response.result_code == Code.OK:
            return True
        if response.result_code == Code.NONODE:
            return False
        raise _exception(response)

    def create_recursive(self, path: str, data: bytes | None = None, throw_if_path_exists: bool = True) -> None:
        """Creates the znode, creating missing parents (without data); raises NodeExistsException if it exists and
        `throw_if_path_exists`."""

        def parent_path(p: str) -> str:
            index_of_last_slash = p.rfind("/")
            if index_of_last_slash == -1:
                raise ValueError(f"Invalid path {p}")
            return p[:index_of_last_slash]

        def create_recursive0(p: str) -> None:
            request = CreateRequest(p, None, self.default_acls(p), CreateMode.PERSISTENT)
            response = self._retry_request_until_connected(request)
            if response.result_code == Code.NONODE:
                create_recursive0(parent_path(p))
                response = self._retry_request_until_connected(request)
            if response.result_code not in (Code.OK, Code.NODEEXISTS):
                raise _exception(response)

        create_request = CreateRequest(path, data, self.default_acls(path), CreateMode.PERSISTENT)
        create_response = self._retry_request_until_connected(create_request)
        if throw_if_path_exists and create_response.result_code == Code.NODEEXISTS:
            create_response.maybe_throw()
        elif create_response.result_code == Code.NONODE:
            create_recursive0(parent_path(path))
            create_response = self._retry_request_until_connected(create_request)
            if throw_if_path_exists or create_response.result_code != Code.NODEEXISTS:
                create_response.maybe_throw()
        elif create_response.result_code != Code.NODEEXISTS:
            create_response.maybe_throw()

    def _create_topic_partition(
        self, partitions: Sequence[TopicPartition], expected_controller_epoch_zk_version: int
    ) -> list[CreateResponse]:
        requests = [
            CreateRequest(
                TopicPartitionZNode.path(p),
                None,
                self.default_acls(TopicPartitionZNode.path(p)),
                CreateMode.PERSISTENT,
                p,
            )
            for p in partitions
        ]
        return self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    def _create_topic_partitions(
        self, topics: Sequence[str], expected_controller_epoch_zk_version: int
    ) -> list[CreateResponse]:
        requests = [
            CreateRequest(
                TopicPartitionsZNode.path(t),
                None,
                self.default_acls(TopicPartitionsZNode.path(t)),
                CreateMode.PERSISTENT,
                t,
            )
            for t in topics
        ]
        return self._retry_requests_until_connected(requests, expected_controller_epoch_zk_version)

    def _get_topic_configs(self, topics: Iterable[str]) -> list[GetDataResponse]:
        requests = [GetDataRequest(ConfigEntityZNode.path(ConfigType.TOPIC, t), ctx=t) for t in topics]
        return self._retry_requests_until_connected(requests)

    def default_acls(self, path: str) -> list[ACL]:
        return ZkData.default_acls(self._is_secure, path)

    @property
    def secure(self) -> bool:
        return self._is_secure

    # -- retries -----------------------------------------------------------------------------------------

    def _retry_request_until_connected(
        self, request: AsyncRequest[R], expected_controller_zk_version: int = ZkVersion.MATCH_ANY_VERSION
    ) -> R:
        return self._retry_requests_until_connected([request], expected_controller_zk_version)[0]

    def _retry_requests_until_connected(
        self, requests: Sequence[AsyncRequest[R]], expected_controller_zk_version: int = ZkVersion.MATCH_ANY_VERSION
    ) -> list[R]:
        if expected_controller_zk_version == ZkVersion.MATCH_ANY_VERSION:
            return self._retry_until_connected(requests)
        if expected_controller_zk_version >= 0:
            wrapped = [_wrap_request_with_controller_epoch_check(r, expected_controller_zk_version) for r in requests]
            return [
                cast(R, _unwrap_response_with_controller_epoch_check(r)) for r in self._retry_until_connected(wrapped)
            ]
        raise ValueError(
            f"Expected controller epoch zkVersion {expected_controller_zk_version} should be non-negative or equal "
            f"to {ZkVersion.MATCH_ANY_VERSION}"
        )

    def _retry_until_connected(self, requests: Sequence[AsyncRequest[R]]) -> list[R]:
        remaining_requests = list(requests)
        responses: list[R] = []
        while remaining_requests:
            batch_responses = self._zoo_keeper_client.handle_requests(remaining_requests)
            for response in batch_responses:
                self._latency_metric.update(response.metadata.response_time_ms)
            # Only the requests that met a connection loss are sent again, once connected.
            if any(r.result_code == Code.CONNECTIONLOSS for r in batch_responses):
                pairs = list(zip(remaining_requests, batch_responses))
                remaining_requests = []
                for request, response in pairs:
                    if response.result_code == Code.CONNECTIONLOSS:
                        remaining_requests.append(request)
                    else:
                        responses.append(response)
                if remaining_requests:
                    self._zoo_keeper_client.wait_until_connected()
            else:
                remaining_requests = []
                responses.extend(batch_responses)
        return responses

    # -- ephemeral znodes that survive our own session expiry (KAFKA-7165) -------------------------------

    def _checked_ephemeral_create(self, path: str, data: bytes) -> Stat:
        checked_ephemeral = _CheckedEphemeral(self, path, data)
        self.info(f"Creating {path} (is it secure? {self._is_secure})")
        stat = checked_ephemeral.create()
        self.info(f"Stat of the created znode at {path} is: {stat}")
        return stat

    def _is_zk_session_id_diff_from_current_zk_session_id(self) -> bool:
        return self._zoo_keeper_client.session_id() != self._current_zoo_keeper_session_id

    def _is_zk_session_the_ephemeral_owner(self, ephemeral_owner_id: int) -> bool:
        return ephemeral_owner_id == self._current_zoo_keeper_session_id

    def should_re_create_ephemeral_z_node(self, ephemeral_owner_id: int) -> bool:
        """True if the znode belongs to the session we registered it in, and that session is no longer ours."""
        return (
            self._is_zk_session_the_ephemeral_owner(ephemeral_owner_id)
            and self._is_zk_session_id_diff_from_current_zk_session_id()
        )

    def _update_current_zk_session_id(self, new_session_id: int) -> None:
        self._current_zoo_keeper_session_id = new_session_id


class _CheckedEphemeral(Logging):
    """Creates an ephemeral znode; if it exists, owned by the session we created it in before that session
    expired (ZooKeeper may not have removed it yet, ZOOKEEPER-2985), deletes and re-creates it."""

    logger_name = "kafka.zk.KafkaZkClient$CheckedEphemeral"

    def __init__(self, zk_client: KafkaZkClient, path: str, data: bytes) -> None:
        self._zk_client = zk_client
        self._path = path
        self._data = data

    def create(self) -> Stat:
        zk_client = self._zk_client
        response = zk_client._retry_request_until_connected(
            MultiRequest(
                [
                    CreateOp(self._path, None, zk_client.default_acls(self._path), CreateMode.EPHEMERAL),
                    SetDataOp(self._path, self._data, 0),
                ]
            )
        )
        if response.result_code == Code.OK:
            assert response.zk_op_results is not None
            stat = cast(SetDataResult, response.zk_op_results[1].raw_op_result).stat
        elif response.result_code == Code.NODEEXISTS:
            stat = self._get_after_node_exists()
        else:
            self.error(f"Error while creating ephemeral at {self._path} with return code: {response.result_code}")
            raise KeeperException.create(response.result_code)
        # The session id is known only once connected, which the request above waited for.
        zk_client._update_current_zk_session_id(zk_client.zoo_keeper_client.session_id())
        return stat

    def _delete(self) -> Code:
        response = self._zk_client._retry_request_until_connected(
            DeleteRequest(self._path, ZkVersion.MATCH_ANY_VERSION)
        )
        if response.result_code not in (Code.OK, Code.NONODE):
            self.error(f"Error while deleting ephemeral node at {self._path} with return code: {response.result_code}")
        return response.result_code

    def _re_create(self) -> Stat:
        code_after_delete = self._delete()
        self.debug(f"Result of znode ephemeral deletion at {self._path} is: {code_after_delete}")
        if code_after_delete in (Code.OK, Code.NONODE):
            return self.create()
        raise KeeperException.create(code_after_delete)

    def _get_after_node_exists(self) -> Stat:
        zk_client = self._zk_client
        response = zk_client._retry_request_until_connected(GetDataRequest(self._path))
        session_id = zk_client.zoo_keeper_client.session_id()
        if response.result_code == Code.OK:
            assert response.stat is not None
            ephemeral_owner_id = response.stat.ephemeral_owner
            if zk_client.should_re_create_ephemeral_z_node(ephemeral_owner_id):
                self.info(
                    f"Was not possible to create the ephemeral at {self._path}, node already exists and owner "
                    f"'{ephemeral_owner_id}' does not match current session '{session_id}', trying to delete and "
                    "re-create it with the newest Zookeeper session"
                )
                return self._re_create()
            if ephemeral_owner_id != session_id:
                self.error(
                    f"Error while creating ephemeral at {self._path}, node already exists and owner "
                    f"'{ephemeral_owner_id}' does not match current session '{session_id}'"
                )
                raise KeeperException.create(Code.NODEEXISTS)
            return response.stat
        if response.result_code == Code.NONODE:
            self.info(f"The ephemeral node at {self._path} went away while reading it, attempting create() again")
            return self.create()
        self.error(
            f"Error while creating ephemeral at {self._path} as it already exists and error getting the node data "
            f"due to {response.result_code}"
        )
        raise KeeperException.create(response.result_code)


def _exception(response: AsyncResponse) -> KeeperException:
    """The KeeperException of a response whose code is not OK."""
    exception = response.result_exception
    if exception is None:
        raise RuntimeError(f"{response} has no error")
    return exception


def _wrap_request_with_controller_epoch_check(
    request: AsyncRequest[Any], expected_controller_zk_version: int
) -> MultiRequest:
    """A write as a multi that first checks /controller_epoch's version (fencing a controller that moved)."""
    check_op = CheckOp(ControllerEpochZNode.path, expected_controller_zk_version)
    match request:
        case CreateRequest(path=path, data=data, acl=acl, create_mode=create_mode, ctx=ctx):
            return MultiRequest([check_op, CreateOp(path, data, acl, create_mode)], ctx)
        case DeleteRequest(path=path, version=version, ctx=ctx):
            return MultiRequest([check_op, DeleteOp(path, version)], ctx)
        case SetDataRequest(path=path, data=data, version=version, ctx=ctx):
            return MultiRequest([check_op, SetDataOp(path, data, version)], ctx)
    raise RuntimeError(f"{request} does not need controller epoch check")


def _unwrap_response_with_controller_epoch_check(response: AsyncResponse) -> AsyncResponse:
    """The response of the write inside a checked multi; ControllerMovedException if the check failed."""
    if not isinstance(response, MultiResponse):
        raise RuntimeError(f"Cannot unwrap {response} because it is not a MultiResponse")
    zk_op_results = response.zk_op_results
    if zk_op_results is None:
        raise KeeperException.create(response.result_code)
    check_op = zk_op_results[0].zk_op
    if len(zk_op_results) != 2 or not isinstance(check_op, CheckOp):
        raise RuntimeError(
            f"Cannot unwrap {response} because the first zookeeper op is not check op in original MultiRequest"
        )
    check_op_result = zk_op_results[0].raw_op_result
    if isinstance(check_op_result, ErrorResult) and check_op.path == ControllerEpochZNode.path:
        error_code = Code.get(check_op_result.err)
        if error_code == Code.BADVERSION:
            raise ControllerMovedException(
                f"Controller epoch zkVersion check fails. Expected zkVersion = {check_op.version}"
            )
        if error_code != Code.OK:
            raise KeeperException.create(error_code, check_op.path)
    zk_op, raw_op_result = zk_op_results[1].zk_op, zk_op_results[1].raw_op_result
    rc, ctx, metadata = response.result_code, response.ctx, response.metadata
    match zk_op:
        case CreateOp(path=path):
            name = raw_op_result.path if isinstance(raw_op_result, CreateResult) else None
            return CreateResponse(result_code=rc, path=path, ctx=ctx, name=name, metadata=metadata)
        case DeleteOp(path=path):
            return DeleteResponse(result_code=rc, path=path, ctx=ctx, metadata=metadata)
        case SetDataOp(path=path):
            stat = raw_op_result.stat if isinstance(raw_op_result, SetDataResult) else None
            return SetDataResponse(result_code=rc, path=path, ctx=ctx, stat=stat, metadata=metadata)
    raise RuntimeError(f"Unexpected zkOp: {zk_op}")
