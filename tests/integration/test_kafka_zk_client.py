"""KafkaZkClient and AdminZkClient against a real ZooKeeper: chroot and top-level paths, cluster id, broker ids and
registration (also across a session expiry), controller election and fencing, topics, partition states, deletion,
configs and notifications, and topic administration."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from kazoo.client import KazooClient

from kafka.admin.admin_utils import BrokerMetadata
from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import (
    ControllerMovedException,
    InvalidConfigurationException,
    InvalidPartitionsException,
    InvalidReplicationFactorException,
    InvalidTopicException,
    TopicExistsException,
    UnknownTopicOrPartitionException,
)
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.types import Uuid
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.zk.admin_zk_client import AdminZkClient, TopicAlreadyMarkedForDeletionException
from kafka.zk.kafka_zk_client import KafkaZkClient
from kafka.zk.zk_data import (
    BrokerInfo,
    FeatureZNode,
    FeatureZNodeStatus,
    ProducerIdBlockZNode,
    ReplicaAssignment,
    TopicIdReplicaAssignment,
    ZkData,
    ZkVersion,
)
from kafka.zookeeper.zoo_keeper_client import StateChangeHandler, ZNodeChangeHandler
from kafka.zookeeper.zookeeper_types import NodeExistsException
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration


def _kafka_zk_client(connect_string: str) -> KafkaZkClient:
    return KafkaZkClient.apply(connect_string, False, 10000, 10000, 10, Time.SYSTEM, name="test")


@pytest.fixture
def zk_client(zookeeper: ZooKeeperServer, zk_chroot: str) -> Iterator[KafkaZkClient]:
    """A KafkaZkClient on the test's chroot, created as a broker creates it, with the top-level paths."""
    KafkaZkClient.create_chroot_path(zookeeper.connect_string + zk_chroot, False, 10000, 10000, 10, Time.SYSTEM)
    client = _kafka_zk_client(zookeeper.connect_string + zk_chroot)
    client.create_top_level_paths()
    yield client
    client.close()


@pytest.fixture
def root(zookeeper: ZooKeeperServer, zk_chroot: str, zk_client: KafkaZkClient) -> Iterator[KazooClient]:
    """A plain kazoo client on the chroot, to look at what the client wrote."""
    client = KazooClient(hosts=zookeeper.connect_string + zk_chroot, timeout=10.0)
    client.start(timeout=10.0)
    yield client
    client.stop()
    client.close()


def _broker(broker_id: int, port: int = 9092, rack: str | None = None) -> Broker:
    listener = ListenerName("PLAINTEXT")
    return Broker(broker_id, [EndPoint("localhost", port, listener, SecurityProtocol.PLAINTEXT)], rack)


def test_chroot_and_top_level_paths_are_created(zookeeper: ZooKeeperServer, zk_chroot: str) -> None:
    """create_chroot_path creates a missing chroot (and only reports one that is absent from the string);
    create_top_level_paths creates every persistent path a broker needs, without data."""
    connect = zookeeper.connect_string + zk_chroot + "/nested"
    assert KafkaZkClient.create_chroot_path(zookeeper.connect_string, False, 10000, 10000, 10, Time.SYSTEM) is None
    assert KafkaZkClient.create_chroot_path(connect, False, 10000, 10000, 10, Time.SYSTEM) == zk_chroot + "/nested"
    client = _kafka_zk_client(connect)
    try:
        client.create_top_level_paths()
        client.create_top_level_paths()  # again: nothing to do, no error
        for path in ZkData.PERSISTENT_ZK_PATHS:
            assert client.path_exists(path), path
            assert client.get_data_and_version(path) == (None, 0)
    finally:
        client.close()


def test_cluster_id_is_created_once(zk_client: KafkaZkClient, root: KazooClient) -> None:
    """The first proposed cluster id is kept; later proposals get it back; the znode holds Kafka's JSON."""
    assert zk_client.get_cluster_id() is None
    assert zk_client.create_or_get_cluster_id("first-id") == "first-id"
    assert zk_client.create_or_get_cluster_id("second-id") == "first-id"
    assert zk_client.get_cluster_id() == "first-id"
    assert root.get("/cluster/id")[0] == b'{"version":"1","id":"first-id"}'


def test_broker_sequence_ids_increase(
    zookeeper: ZooKeeperServer, zk_chroot: str, zk_client: KafkaZkClient, root: KazooClient
) -> None:
    """Generated broker sequence ids are the successive versions of /brokers/seqid, created if missing."""
    root.delete("/brokers/seqid")
    assert [zk_client.generate_broker_sequence_id() for _ in range(3)] == [1, 2, 3]
    other = _kafka_zk_client(zookeeper.connect_string + zk_chroot)
    try:
        assert other.generate_broker_sequence_id() == 4
    finally:
        other.close()


def test_register_broker_and_read_brokers(zk_client: KafkaZkClient, root: KazooClient) -> None:
    """A registered broker is an ephemeral znode with Kafka's v5 JSON; brokers are listed and read back; the broker
    epoch is the znode's czxid and registering again in the same session keeps it."""
    epoch = zk_client.register_broker(BrokerInfo(_broker(1, rack="r1"), 5, -1))
    zk_client.register_broker(BrokerInfo(_broker(0, 9093), 5, -1))
    data, stat = root.get("/brokers/ids/1")
    assert stat.ephemeralOwner == zk_client.zoo_keeper_client.session_id()
    assert stat.czxid == epoch
    registration = json.loads(data)
    assert list(registration)[:4] == ["features", "listener_security_protocol_map", "endpoints", "rack"]
    assert registration["endpoints"] == ["PLAINTEXT://localhost:9092"] and registration["version"] == 5

    assert zk_client.get_sorted_broker_list() == [0, 1]
    assert zk_client.get_all_brokers_in_cluster() == [_broker(0, 9093), _broker(1, rack="r1")]
    assert zk_client.get_broker(1) == _broker(1, rack="r1")
    assert zk_client.get_broker(7) is None
    assert zk_client.get_all_broker_and_epochs_in_cluster()[_broker(1, rack="r1")] == epoch
    assert zk_client.register_broker(BrokerInfo(_broker(1, rack="r1"), 5, -1)) == epoch


def test_register_broker_taken_by_another_session_fails(
    zookeeper: ZooKeeperServer, zk_chroot: str, zk_client: KafkaZkClient
) -> None:
    """A broker id registered by another live session cannot be registered again."""
    other = _kafka_zk_client(zookeeper.connect_string + zk_chroot)
    try:
        other.register_broker(BrokerInfo(_broker(3), 5, -1))
        with pytest.raises(NodeExistsException):
            zk_client.register_broker(BrokerInfo(_broker(3), 5, -1))
    finally:
        other.close()


def test_stale_registration_of_our_previous_session_is_replaced(
    zookeeper: ZooKeeperServer, zk_chroot: str, zk_client: KafkaZkClient, root: KazooClient
) -> None:
    """If the znode still belongs to the session we registered in, which is no longer ours (ZOOKEEPER-2985), it is
    deleted and created again in the current session (KAFKA-7165)."""
    stale = _kafka_zk_client(zookeeper.connect_string + zk_chroot)
    try:
        stale.register_broker(BrokerInfo(_broker(4), 5, -1))
        # As if `stale` were our expired session whose ephemeral znode ZooKeeper has not removed yet.
        zk_client._update_current_zk_session_id(stale.zoo_keeper_client.session_id())
        zk_client.register_broker(BrokerInfo(_broker(4), 5, -1))
        assert root.exists("/brokers/ids/4").ephemeralOwner == zk_client.zoo_keeper_client.session_id()
    finally:
        stale.close()


def test_broker_registered_again_after_session_expiry(
    zookeeper: ZooKeeperServer, zk_client: KafkaZkClient, root: KazooClient
) -> None:
    """After a session expiry, a state change handler (as the broker's) registers the broker in the new session."""
    broker_info = BrokerInfo(_broker(5), 5, -1)
    zk_client.register_broker(broker_info)

    class ReRegister(StateChangeHandler):
        name = "broker-registration"

        def after_initializing_session(self) -> None:
            zk_client.register_broker(broker_info)

    zk_client.register_state_change_handler(ReRegister())
    zoo_keeper = zk_client.current_zoo_keeper()
    old_session = zoo_keeper.session_id
    expirer = KazooClient(hosts=zookeeper.connect_string, client_id=(old_session, zoo_keeper.session_password))
    expirer.start(timeout=10.0)
    expirer.stop()
    expirer.close()

    def registered_in_new_session() -> bool:
        stat = root.exists("/brokers/ids/5")
        return stat is not None and stat.ephemeralOwner not in (0, old_session)

    wait_until_true(registered_in_new_session, "the broker to be registered in the new session")
    assert root.exists("/brokers/ids/5").ephemeralOwner == zk_client.zoo_keeper_client.session_id()


def test_controller_election_epoch_and_fencing(
    zookeeper: ZooKeeperServer, zk_chroot: str, zk_client: KafkaZkClient, root: KazooClient
) -> None:
    """The first candidate becomes controller with epoch 1; a second one is refused; writes fenced by a stale
    controller epoch version raise ControllerMovedException."""
    assert zk_client.get_controller_id() is None
    assert zk_client.register_controller_and_increment_controller_epoch(1) == (1, 1)
    assert zk_client.get_controller_id() == 1
    epoch, stat = zk_client.get_controller_epoch() or (None, None)
    assert epoch == 1 and stat is not None and stat.version == 1
    controller = json.loads(root.get("/controller")[0])
    assert list(controller) == ["version", "brokerid", "timestamp"] and controller["brokerid"] == 1

    other = _kafka_zk_client(zookeeper.connect_string + zk_chroot)
    try:
        with pytest.raises(ControllerMovedException):
            other.register_controller_and_increment_controller_epoch(2)
    finally:
        other.close()

    with pytest.raises(ControllerMovedException, match="Expected zkVersion = 0"):
        zk_client.delete_controller(0)
    zk_client.delete_controller(1)
    assert zk_client.get_controller_id() is None
    assert zk_client.register_controller_and_increment_controller_epoch(2) == (2, 2)


def test_topic_assignment_and_partitions(zk_client: KafkaZkClient, root: KazooClient) -> None:
    """A topic's assignment is created once, read back in every form, updated with reassignment details, and its
    id is kept."""
    topic_id = Uuid.random_uuid()
    assignment = {TopicPartition("t", 0): [0, 1], TopicPartition("t", 1): [1, 2]}
    zk_client.create_topic_assignment("t", topic_id, assignment)
    with pytest.raises(NodeExistsException):
        zk_client.create_topic_assignment("t", None, assignment)
    zk_client.create_topic_assignment("u", None, {TopicPartition("u", 0): [2]})

    assert zk_client.topic_exists("t") and not zk_client.topic_exists("nope")
    assert zk_client.get_all_topics_in_cluster() == {"t", "u"}
    assert zk_client.get_replica_assignment_for_topics(["t", "nope"]) == assignment
    assert zk_client.get_partitions_for_topics(["t", "u"]) == {"t": [0, 1], "u": [0]}
    assert zk_client.get_topic_partition_count("t") == 2 and zk_client.get_topic_partition_count("nope") is None
    assert zk_client.get_replicas_for_partition(TopicPartition("t", 1)) == [1, 2]
    assert zk_client.get_topic_ids_for_topics(["t", "u"]) == {"t": topic_id}
    assert json.loads(root.get("/brokers/topics/t")[0])["topic_id"] == str(topic_id)

    reassigning = {
        TopicPartition("t", 0): ReplicaAssignment([0, 1, 2], [2], [0]),
        TopicPartition("t", 1): ReplicaAssignment([1, 2]),
    }
    zk_client.set_topic_assignment("t", topic_id, reassigning)
    assert zk_client.get_full_replica_assignment_for_topics(["t"]) == reassigning
    assert zk_client.get_replica_assignment_and_topic_id_for_topics(["t", "nope"]) == {
        TopicIdReplicaAssignment("t", topic_id, reassigning),
        TopicIdReplicaAssignment("nope", None, {}),
    }

    [with_id] = zk_client.set_topic_ids(
        [TopicIdReplicaAssignment("u", None, {TopicPartition("u", 0): ReplicaAssignment([2])})],
        ZkVersion.MATCH_ANY_VERSION,
    )
    assert zk_client.get_topic_ids_for_topics(["u"]) == {"u": with_id.topic_id}


def test_partition_states_create_update_and_fencing(zk_client: KafkaZkClient) -> None:
    """Partition states are created under the topic, read with their zk version, updated conditionally (a stale
    version is reported for retry), and refused when the controller epoch version moved."""
    _, controller_epoch_zk_version = zk_client.register_controller_and_increment_controller_epoch(0)
    zk_client.create_topic_assignment("t", None, {TopicPartition("t", 0): [0, 1], TopicPartition("t", 1): [1, 0]})
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    states = {
        tp0: LeaderIsrAndControllerEpoch(LeaderAndIsr.create(0, [0, 1]), 1),
        tp1: LeaderIsrAndControllerEpoch(LeaderAndIsr.create(1, [1, 0]), 1),
    }
    created = zk_client.create_topic_partition_states_raw(states, controller_epoch_zk_version)
    assert {(r.ctx, r.result_code.name) for r in created} == {(tp0, "OK"), (tp1, "OK")}
    assert zk_client.get_topic_partition_states([tp0, tp1, TopicPartition("t", 9)]) == states
    assert zk_client.get_leader_for_partition(tp1) == 1
    assert zk_client.get_in_sync_replicas_for_partition(tp0) == [0, 1]
    assert zk_client.get_epoch_for_partition(tp0) == 0
    assert zk_client.get_all_partitions() == {tp0, tp1}

    new_leader = states[tp0].leader_and_isr.new_leader_and_isr(1, [1])
    stale = LeaderAndIsr(1, 5, (1,), 7)
    result = zk_client.update_leader_and_isr({tp0: new_leader, tp1: stale}, 1, controller_epoch_zk_version)
    assert result.finished_partitions == {tp0: new_leader.with_zk_version(1)}
    assert list(result.partitions_to_retry) == [tp1]
    state = zk_client.get_topic_partition_state(tp0)
    assert state is not None and state.leader_and_isr == new_leader.with_zk_version(1)

    with pytest.raises(ControllerMovedException):
        zk_client.update_leader_and_isr({tp0: new_leader.with_zk_version(1)}, 1, controller_epoch_zk_version + 1)


def test_leader_writes_its_own_isr_change(zk_client: KafkaZkClient) -> None:
    """A partition leader's ISR change (ReplicationUtils.updateLeaderAndIsr, used by ZkIsrManager) is written at
    the zk version it read, keeps the deciding controller's epoch, and a stale version is refused."""
    from kafka.utils import replication_utils

    _, controller_epoch_zk_version = zk_client.register_controller_and_increment_controller_epoch(0)
    tp = TopicPartition("isr", 0)
    zk_client.create_topic_assignment("isr", None, {tp: [0, 1]})
    first = LeaderIsrAndControllerEpoch(LeaderAndIsr.create(0, [0, 1]), 3)
    zk_client.create_topic_partition_states_raw({tp: first}, controller_epoch_zk_version)

    shrunk = LeaderAndIsr(0, 0, (0,), 0)
    assert replication_utils.update_leader_and_isr(zk_client, tp, shrunk, 3) == (True, 1)
    assert zk_client.get_topic_partition_state(tp) == LeaderIsrAndControllerEpoch(shrunk.with_zk_version(1), 3)
    assert replication_utils.update_leader_and_isr(zk_client, tp, LeaderAndIsr(0, 0, (0, 1), 0), 3) == (False, -1)


def test_topic_deletion_flow(zk_client: KafkaZkClient) -> None:
    """A topic marked for deletion is listed; the controller's calls delete the mark and the topic's whole tree."""
    zk_client.create_topic_assignment("gone", None, {TopicPartition("gone", 0): [0]})
    zk_client.create_topic_partition_states_raw(
        {TopicPartition("gone", 0): LeaderIsrAndControllerEpoch(LeaderAndIsr.create(0, [0]), 1)},
        ZkVersion.MATCH_ANY_VERSION,
    )
    zk_client.set_or_create_entity_configs("topics", "gone", {"retention.ms": "1"})
    zk_client.create_delete_topic_path("gone")
    with pytest.raises(NodeExistsException):
        zk_client.create_delete_topic_path("gone")
    assert zk_client.is_topic_marked_for_deletion("gone")
    assert zk_client.get_topic_deletions() == ["gone"]

    zk_client.delete_topic_z_node("gone", ZkVersion.MATCH_ANY_VERSION)
    zk_client.delete_topic_configs(["gone"], ZkVersion.MATCH_ANY_VERSION)
    zk_client.delete_topic_deletions(["gone"], ZkVersion.MATCH_ANY_VERSION)
    assert not zk_client.topic_exists("gone")
    assert zk_client.get_entity_configs("topics", "gone") == {}
    assert zk_client.get_topic_deletions() == []
    assert not zk_client.delete_recursive("/brokers/topics/gone")


def test_entity_configs_and_change_notifications(zk_client: KafkaZkClient, root: KazooClient) -> None:
    """Entity configs are written as Kafka's JSON and read back; a change notification is a sequential znode
    naming the entity."""
    zk_client.set_or_create_entity_configs("topics", "t", {"retention.ms": "1000", "cleanup.policy": "compact"})
    assert (
        root.get("/config/topics/t")[0] == b'{"version":1,"config":{"cleanup.policy":"compact","retention.ms":"1000"}}'
    )
    zk_client.set_or_create_entity_configs("topics", "t", {"segment.ms": "5"})
    assert zk_client.get_entity_configs("topics", "t") == {"segment.ms": "5"}
    assert zk_client.get_entity_configs("topics", "none") == {}
    assert zk_client.get_all_entities_with_config("topics") == ["t"]
    log_configs, failed = zk_client.get_log_configs(["t", "none"], {"segment.ms": "9"})
    assert failed == {} and log_configs["t"].overridden_configs == {"segment.ms"}
    assert log_configs["none"].overridden_configs == frozenset()

    zk_client.create_config_change_notification("topics/t")
    assert root.get_children("/config/changes") == ["config_change_0000000000"]
    assert root.get("/config/changes/config_change_0000000000")[0] == b'{"version":2,"entity_path":"topics/t"}'


def test_isr_change_and_log_dir_event_notifications(zk_client: KafkaZkClient) -> None:
    """Notifications are sequential znodes listed by sequence number, decoded, and deleted by the controller."""
    zk_client.propagate_isr_changes([TopicPartition("a", 1), TopicPartition("b", 2)])
    zk_client.propagate_isr_changes([TopicPartition("c", 0)])
    sequence_numbers = zk_client.get_all_isr_change_notifications()
    assert sorted(sequence_numbers) == ["0000000000", "0000000001"]
    assert set(zk_client.get_partitions_from_isr_change_notifications(sequence_numbers)) == {
        TopicPartition("a", 1),
        TopicPartition("b", 2),
        TopicPartition("c", 0),
    }
    zk_client.delete_isr_change_notifications(ZkVersion.MATCH_ANY_VERSION, ["0000000000"])
    assert zk_client.get_all_isr_change_notifications() == ["0000000001"]
    zk_client.delete_isr_change_notifications(ZkVersion.MATCH_ANY_VERSION)
    assert zk_client.get_all_isr_change_notifications() == []

    zk_client.propagate_log_dir_event(3)
    assert zk_client.get_broker_ids_from_log_dir_events(zk_client.get_all_log_dir_event_notifications()) == [3]
    zk_client.delete_log_dir_event_notifications(ZkVersion.MATCH_ANY_VERSION)
    assert zk_client.get_all_log_dir_event_notifications() == []


def test_producer_id_block_conditional_update(zk_client: KafkaZkClient) -> None:
    """The producer id block is taken with a conditional update on the version read; a stale version fails."""
    data, version = zk_client.get_data_and_version(ProducerIdBlockZNode.path)
    assert (data, version) == (None, 0)
    block = ProducerIdBlockZNode.encode(0, 0, 999)
    assert zk_client.conditional_update_path(ProducerIdBlockZNode.path, block, version) == (True, 1)
    assert zk_client.conditional_update_path(ProducerIdBlockZNode.path, block, version) == (
        False,
        ZkVersion.UNKNOWN_VERSION,
    )
    data, version = zk_client.get_data_and_version(ProducerIdBlockZNode.path)
    assert data is not None and ProducerIdBlockZNode.decode(data) == (0, 0, 999) and version == 1
    assert zk_client.get_data_and_version("/missing") == (None, ZkVersion.UNKNOWN_VERSION)
    assert zk_client.conditional_update_path("/missing", block, 0) == (False, ZkVersion.UNKNOWN_VERSION)


def test_admin_znodes_and_handler_existence(zk_client: KafkaZkClient) -> None:
    """Preferred replica election and reassignment znodes are created, read and deleted; a handler registered with
    an existence check hears of the znode's creation; the feature znode is created, updated and deleted."""
    created: list[str] = []

    class Handler(ZNodeChangeHandler):
        path = "/admin/preferred_replica_election"

        def handle_creation(self) -> None:
            created.append(self.path)

    assert not zk_client.register_z_node_change_handler_and_check_existence(Handler())
    partitions = {TopicPartition("t", 0), TopicPartition("t", 1)}
    zk_client.create_preferred_replica_election(sorted(partitions))
    wait_until_true(lambda: created == ["/admin/preferred_replica_election"], "the creation event")
    assert zk_client.get_preferred_replica_election() == partitions
    zk_client.delete_preferred_replica_election(ZkVersion.MATCH_ANY_VERSION)
    assert zk_client.get_preferred_replica_election() == set()

    zk_client.create_partition_reassignment({TopicPartition("t", 0): [1, 2]})
    assert zk_client.reassign_partitions_in_progress()
    assert zk_client.get_partition_reassignment() == {TopicPartition("t", 0): [1, 2]}
    zk_client.delete_partition_reassignment(ZkVersion.MATCH_ANY_VERSION)
    assert not zk_client.reassign_partitions_in_progress()

    zk_client.create_feature_z_node(FeatureZNode(FeatureZNodeStatus.Disabled(), {}))
    assert zk_client.update_feature_z_node(FeatureZNode(FeatureZNodeStatus.Enabled(), {"f": (1, 2)})) == 1
    data, _ = zk_client.get_data_and_stat(FeatureZNode.path)
    assert data is not None and FeatureZNode.decode(data) == FeatureZNode(FeatureZNodeStatus.Enabled(), {"f": (1, 2)})
    zk_client.delete_feature_z_node()
    assert not zk_client.path_exists(FeatureZNode.path)


def test_admin_create_topic_assigns_replicas_and_validates(zk_client: KafkaZkClient, root: KazooClient) -> None:
    """create_topic spreads replicas over the registered brokers and writes the config; bad counts, existing or
    colliding names and invalid configs are refused."""
    for broker_id in (0, 1, 2):
        zk_client.register_broker(BrokerInfo(_broker(broker_id, 9092 + broker_id), 5, -1))
    admin = AdminZkClient(zk_client)
    admin.create_topic("orders", 6, 2, {"cleanup.policy": "compact"})
    assignment = zk_client.get_replica_assignment_for_topics(["orders"])
    assert sorted(tp.partition for tp in assignment) == [0, 1, 2, 3, 4, 5]
    assert all(len(set(replicas)) == 2 and set(replicas) <= {0, 1, 2} for replicas in assignment.values())
    assert sorted(replicas[0] for replicas in assignment.values()) == [0, 0, 1, 1, 2, 2]  # leaders spread evenly
    assert admin.fetch_entity_config("topics", "orders") == {"cleanup.policy": "compact"}

    with pytest.raises(InvalidReplicationFactorException, match="larger than available brokers: 3"):
        admin.create_topic("big", 1, 4)
    with pytest.raises(InvalidPartitionsException):
        admin.create_topic("empty", 0, 1)
    with pytest.raises(TopicExistsException):
        admin.create_topic("orders", 1, 1)
    admin.create_topic("a.b", 1, 1)
    with pytest.raises(InvalidTopicException, match=r"collides with existing topics: a\.b"):
        admin.create_topic("a_b", 1, 1)
    with pytest.raises(InvalidTopicException):
        admin.create_topic("bad name", 1, 1)
    with pytest.raises(ConfigException, match=r"cleanup\.policy"):
        admin.create_topic("badconfig", 1, 1, {"cleanup.policy": "bogus"})
    with pytest.raises(InvalidConfigurationException, match=r"Unknown topic config name: no\.such\.config"):
        admin.create_topic("badconfig", 1, 1, {"no.such.config": "1"})
    assert not zk_client.topic_exists("badconfig")

    admin.create_topic("with-id", 1, 1, uses_topic_id=True)
    assert "with-id" in zk_client.get_topic_ids_for_topics(["with-id"])


def test_admin_add_partitions_delete_and_change_config(zk_client: KafkaZkClient, root: KazooClient) -> None:
    """Partitions are added continuing the assignment; a topic is marked for deletion once; config changes are
    written with a notification."""
    admin = AdminZkClient(zk_client)
    admin.create_topic_with_assignment("t", {}, {0: [0, 1], 1: [1, 0]})
    brokers = [BrokerMetadata(0, None), BrokerMetadata(1, None)]
    existing = {p: ReplicaAssignment(r) for p, r in {0: [0, 1], 1: [1, 0]}.items()}
    assert admin.add_partitions("t", existing, brokers, 3, validate_only=True)[2] in ([0, 1], [1, 0])
    assert zk_client.get_topic_partition_count("t") == 2
    result = admin.add_partitions("t", existing, brokers, 4, replica_assignment={2: [0, 1], 3: [1, 0]})
    assert result == {0: [0, 1], 1: [1, 0], 2: [0, 1], 3: [1, 0]}
    assert zk_client.get_partitions_for_topics(["t"]) == {"t": [0, 1, 2, 3]}
    with pytest.raises(InvalidPartitionsException):
        admin.add_partitions("t", existing, brokers, 2)

    admin.change_topic_config("t", {"retention.ms": "60000"})
    assert admin.fetch_entity_config("topics", "t") == {"retention.ms": "60000"}
    assert root.get_children("/config/changes") == ["config_change_0000000000"]
    with pytest.raises(UnknownTopicOrPartitionException):
        admin.change_topic_config("unknown", {})

    admin.delete_topic("t")
    assert zk_client.is_topic_marked_for_deletion("t")
    with pytest.raises(TopicAlreadyMarkedForDeletionException):
        admin.delete_topic("t")
    with pytest.raises(UnknownTopicOrPartitionException):
        admin.delete_topic("unknown")
