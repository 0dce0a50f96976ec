"""ZkData writes the bytes Kafka 2.8 writes to each znode, reads what Kafka reads, and checks what it writes
against the schemas; paths and ACLs are Kafka's."""

from __future__ import annotations

import json

import jsonschema
import pytest

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint
from kafka.common.errors import KafkaException
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.types import Uuid
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.zk.zk_data import (
    BrokerIdZNode,
    BrokerInfo,
    ClusterIdZNode,
    ConfigEntityChangeNotificationSequenceZNode,
    ConfigEntityZNode,
    ControllerEpochZNode,
    ControllerZNode,
    FeatureZNode,
    FeatureZNodeStatus,
    IsrChangeNotificationSequenceZNode,
    JsonDecodeError,
    LogDirEventNotificationSequenceZNode,
    PreferredReplicaElectionZNode,
    ProducerIdBlockZNode,
    ReassignPartitionsZNode,
    ReplicaAssignment,
    TopicPartitionStateZNode,
    TopicZNode,
    ZkData,
    ZkStat,
    ZkVersion,
    validate,
)
from kafka.zookeeper.zookeeper_types import Ids, Stat

PLAINTEXT = SecurityProtocol.PLAINTEXT


def _ep(listener: str, host: str | None, port: int, protocol: SecurityProtocol = PLAINTEXT) -> EndPoint:
    return EndPoint(host, port, ListenerName(listener), protocol)


def test_controller_znode() -> None:
    """/controller holds version, broker id and the timestamp as a string, in that order."""
    data = ControllerZNode.encode(0, 123)
    assert data == b'{"version":1,"brokerid":0,"timestamp":"123"}'
    assert ControllerZNode.decode(data) == 0
    assert ControllerZNode.decode(b"not json") is None
    assert ControllerEpochZNode.encode(7) == b"7" and ControllerEpochZNode.decode(b"7") == 7


def test_broker_registration_v5_single_listener() -> None:
    """A v5 registration is written in the key order of Kafka's mutable.Map, with empty features."""
    broker = Broker(0, [_ep("PLAINTEXT", "localhost", 9092)])
    assert BrokerInfo(broker, 5, -1).to_json_bytes(1620000000000) == (
        b'{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},'
        b'"endpoints":["PLAINTEXT://localhost:9092"],"jmx_port":-1,"port":9092,"host":"localhost","version":5,'
        b'"timestamp":"1620000000000"}'
    )


def test_broker_registration_with_rack_listeners_and_features() -> None:
    """Rack, several listeners and features take their places; the top-level host/port are the PLAINTEXT one's."""
    broker = Broker(1, [_ep("CLIENT", "h", 9092, SecurityProtocol.SASL_SSL), _ep("REPLICATION", "h", 9093)], "r1")
    data = BrokerInfo(broker, 5, 9999, {"f": (1, 3)}).to_json_bytes(1)
    assert data == (
        b'{"features":{"f":{"min_version":1,"max_version":3}},'
        b'"listener_security_protocol_map":{"CLIENT":"SASL_SSL","REPLICATION":"PLAINTEXT"},'
        b'"endpoints":["CLIENT://h:9092","REPLICATION://h:9093"],"rack":"r1","jmx_port":9999,"port":9093,"host":"h",'
        b'"version":5,"timestamp":"1"}'
    )
    decoded = BrokerIdZNode.decode(1, data)
    assert decoded == BrokerInfo(broker, 5, 9999, {"f": (1, 3)})


def test_broker_registration_without_plaintext_and_older_versions() -> None:
    """Without a PLAINTEXT listener host is null and port -1; versions below 4 and 5 leave out their keys."""
    ssl_only = Broker(2, [_ep("SSL", "h", 9093, SecurityProtocol.SSL)], "r")
    v5 = json.loads(BrokerInfo(ssl_only, 5, -1).to_json_bytes(5))
    assert (v5["host"], v5["port"]) == (None, -1)
    v2 = BrokerInfo(Broker(2, [_ep("PLAINTEXT", "h", 1)], "r"), 2, -1).to_json_bytes(5)
    assert v2 == b'{"endpoints":["PLAINTEXT://h:1"],"jmx_port":-1,"port":1,"host":"h","version":2,"timestamp":"5"}'
    v4 = json.loads(BrokerInfo(ssl_only, 4, -1).to_json_bytes(5))
    assert "features" not in v4 and v4["rack"] == "r" and v4["listener_security_protocol_map"] == {"SSL": "SSL"}


def test_broker_registration_decodes_every_version() -> None:
    """Registrations of versions 1 to 5, as Kafka documents them, are read; bad ones raise KafkaException."""
    v1 = b'{"version":1,"host":"localhost","port":9092,"jmx_port":9999,"timestamp":"2233345666"}'
    assert BrokerIdZNode.decode(1, v1).broker == Broker(1, [_ep("PLAINTEXT", "localhost", 9092)])
    v2 = (
        b'{"version":2,"host":"localhost","port":9092,"jmx_port":9999,"timestamp":"2233345666",'
        b'"endpoints":["PLAINTEXT://host1:9092", "SSL://host1:9093"]}'
    )
    assert BrokerIdZNode.decode(2, v2).broker.end_points == (
        _ep("PLAINTEXT", "host1", 9092),
        _ep("SSL", "host1", 9093, SecurityProtocol.SSL),
    )
    v5 = (
        b'{"version":5,"host":"localhost","port":9092,"jmx_port":9999,"timestamp":"2233345666",'
        b'"endpoints":["CLIENT://host1:9092", "REPLICATION://host1:9093"],"rack":"dc1",'
        b'"listener_security_protocol_map":{"CLIENT":"SSL","REPLICATION":"PLAINTEXT"},'
        b'"features": {"feature": {"min_version":1, "first_active_version":2, "max_version":3}}}'
    )
    info = BrokerIdZNode.decode(5, v5)
    assert (info.version, info.jmx_port, info.broker.rack, info.features) == (5, 9999, "dc1", {"feature": (1, 3)})
    assert info.broker.end_points[0] == _ep("CLIENT", "host1", 9092, SecurityProtocol.SSL)
    with pytest.raises(KafkaException, match="Failed to parse ZooKeeper registration for broker 3"):
        BrokerIdZNode.decode(3, b"{oops")
    with pytest.raises(KafkaException, match="Unsupported version of broker registration"):
        BrokerIdZNode.decode(3, b'{"version":0,"jmx_port":1}')


def test_topic_znode() -> None:
    """A topic's znode is version 3 with partitions, adding/removing replicas and the topic id, in Kafka's order."""
    assignment = {TopicPartition("t", p): ReplicaAssignment([p, p + 1]) for p in range(3)}
    data = TopicZNode.encode(Uuid(1, 2), assignment)
    assert data == (
        b'{"partitions":{"0":[0,1],"1":[1,2],"2":[2,3]},"topic_id":"AAAAAAAAAAEAAAAAAAAAAg",'
        b'"adding_replicas":{},"removing_replicas":{},"version":3}'
    )
    decoded = TopicZNode.decode("t", data)
    assert (decoded.topic, decoded.topic_id, decoded.assignment) == ("t", Uuid(1, 2), assignment)

    reassigning = {TopicPartition("t", 0): ReplicaAssignment([1, 2, 3], [3], [1])}
    data = TopicZNode.encode(None, reassigning)
    assert data == b'{"partitions":{"0":[1,2,3]},"adding_replicas":{"0":[3]},"removing_replicas":{"0":[1]},"version":3}'
    assert TopicZNode.decode("t", data).assignment == reassigning
    assert TopicZNode.decode("t", b"garbage").assignment == {}
    # Twelve partitions grow the table Kafka writes the partitions from, which puts "11" first.
    many = TopicZNode.encode(None, {TopicPartition("t", p): ReplicaAssignment([0]) for p in range(12)})
    assert list(json.loads(many)["partitions"]) == ["11", *map(str, range(11))]


def test_partition_state_znode() -> None:
    """The state znode's keys come in the order of a five-entry Scala HashMap; its zk version is the Stat's."""
    state = LeaderIsrAndControllerEpoch(LeaderAndIsr(1, 0, [1, 2], 0), 1)
    data = TopicPartitionStateZNode.encode(state)
    assert data == b'{"controller_epoch":1,"leader":1,"version":1,"leader_epoch":0,"isr":[1,2]}'
    decoded = TopicPartitionStateZNode.decode(data, Stat(version=4))
    assert decoded == LeaderIsrAndControllerEpoch(LeaderAndIsr(1, 0, (1, 2), 4), 1)
    assert TopicPartitionStateZNode.decode(b"", Stat()) is None
    assert TopicPartitionStateZNode.path(TopicPartition("t", 3)) == "/brokers/topics/t/partitions/3/state"


def test_config_znodes() -> None:
    """Entity configs are written as Java Properties serialise; change notifications name the entity's path."""
    data = ConfigEntityZNode.encode({"retention.ms": "1000", "cleanup.policy": "compact"})
    assert data == b'{"version":1,"config":{"cleanup.policy":"compact","retention.ms":"1000"}}'
    assert ConfigEntityZNode.decode(data) == {"cleanup.policy": "compact", "retention.ms": "1000"}
    assert ConfigEntityZNode.decode(None) == {} and ConfigEntityZNode.decode(b"[]") == {}
    assert ConfigEntityChangeNotificationSequenceZNode.encode("topics/t") == b'{"version":2,"entity_path":"topics/t"}'
    assert ConfigEntityChangeNotificationSequenceZNode.create_path == "/config/changes/config_change_"


def test_notification_znodes() -> None:
    """ISR change and log-dir event notifications carry their partitions or broker, and name their sequence."""
    isr = IsrChangeNotificationSequenceZNode.encode([TopicPartition("a", 1), TopicPartition("b", 2)])
    assert isr == b'{"version":1,"partitions":[{"topic":"b","partition":2},{"topic":"a","partition":1}]}'
    assert IsrChangeNotificationSequenceZNode.decode(isr) == {TopicPartition("a", 1), TopicPartition("b", 2)}
    assert IsrChangeNotificationSequenceZNode.path("0000000007") == "/isr_change_notification/isr_change_0000000007"
    assert IsrChangeNotificationSequenceZNode.sequence_number("isr_change_0000000007") == "0000000007"
    log_dir = LogDirEventNotificationSequenceZNode.encode(3)
    assert log_dir == b'{"version":1,"broker":3,"event":1}'
    assert LogDirEventNotificationSequenceZNode.decode(log_dir) == 3
    assert LogDirEventNotificationSequenceZNode.sequence_number("/log_dir_event_notification/log_dir_event_12") == "12"


def test_admin_znodes() -> None:
    """Preferred replica election and reassignment znodes are written as Kafka writes them and read back."""
    election = PreferredReplicaElectionZNode.encode([TopicPartition("t", 1), TopicPartition("t", 0)])
    assert election == b'{"version":1,"partitions":[{"topic":"t","partition":1},{"topic":"t","partition":0}]}'
    assert PreferredReplicaElectionZNode.decode(election) == {TopicPartition("t", 0), TopicPartition("t", 1)}
    many = {TopicPartition("t", p) for p in range(6)}
    assert PreferredReplicaElectionZNode.decode(PreferredReplicaElectionZNode.encode(sorted(many))) == many

    reassignment = ReassignPartitionsZNode.encode({TopicPartition("t", 0): [1, 2]})
    assert reassignment == b'{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2]}]}'
    assert ReassignPartitionsZNode.decode(reassignment) == {TopicPartition("t", 0): [1, 2]}
    with pytest.raises(JsonDecodeError):
        ReassignPartitionsZNode.decode(b"{not json")


def test_cluster_id_and_producer_id_block() -> None:
    """The cluster id's version is the string "1"; the producer id block keeps its ids as strings."""
    assert ClusterIdZNode.to_json("abc") == b'{"version":"1","id":"abc"}'
    assert ClusterIdZNode.from_json(b'{"version":"1","id":"abc"}') == "abc"
    with pytest.raises(KafkaException, match="Failed to parse the cluster id json"):
        ClusterIdZNode.from_json(b"??")
    block = ProducerIdBlockZNode.encode(0, 1000, 1999)
    assert block == b'{"version":1,"broker":0,"block_start":"1000","block_end":"1999"}'
    assert ProducerIdBlockZNode.decode(block) == (0, 1000, 1999)


def test_feature_znode() -> None:
    """The feature znode is written in mutable.Map order and read back; malformed content raises ValueError."""
    enabled = FeatureZNode(FeatureZNodeStatus.Enabled(), {"f": (1, 2)})
    data = FeatureZNode.encode(enabled)
    assert data == b'{"features":{"f":{"min_version_level":1,"max_version_level":2}},"version":1,"status":1}'
    assert FeatureZNode.decode(data) == enabled
    assert (
        FeatureZNode.encode(FeatureZNode(FeatureZNodeStatus.Disabled(), {}))
        == b'{"features":{},"version":1,"status":0}'
    )
    assert FeatureZNodeStatus.with_name_opt(2) is None
    for bad, message in [
        (b'{"version":0,"status":1,"features":{}}', "Unsupported version"),
        (b'{"version":1,"status":1}', "Features map can not be absent"),
        (b'{"version":1,"features":{}}', "Status can not be absent"),
        (b'{"version":1,"status":5,"features":{}}', "Malformed status"),
        (b"{", "Failed to parse feature information"),
    ]:
        with pytest.raises(ValueError, match=message):
            FeatureZNode.decode(bad)


def test_schemas_reject_what_kafka_would_not_write() -> None:
    """The schemas accept what the encoders write and reject missing or malformed fields."""
    with pytest.raises(jsonschema.ValidationError):
        validate("partition_state", {"version": 1, "leader": 1, "leader_epoch": 0, "controller_epoch": 1})
    with pytest.raises(jsonschema.ValidationError):
        validate("broker", {"version": 5, "host": "h", "port": 1, "jmx_port": -1, "timestamp": "1", "endpoints": []})
    with pytest.raises(jsonschema.ValidationError):
        validate("topic", {"version": 3, "partitions": {"x": [1]}})
    with pytest.raises(jsonschema.ValidationError):
        ControllerZNode.encode(-1, 0)  # the encoder validates what it writes
    validate("topic", json.loads(TopicZNode.encode(None, {TopicPartition("t", 0): ReplicaAssignment([1])})))


def test_paths_versions_and_acls() -> None:
    """Paths, the persistent paths created at startup, ZkVersion constants and default ACLs are Kafka's."""
    assert ZkData.PERSISTENT_ZK_PATHS == (
        "/consumers",
        "/brokers/ids",
        "/brokers/topics",
        "/config/changes",
        "/admin/delete_topics",
        "/brokers/seqid",
        "/isr_change_notification",
        "/latest_producer_id_block",
        "/log_dir_event_notification",
        "/config/topics",
        "/config/clients",
        "/config/users",
        "/config/brokers",
        "/config/ips",
    )
    assert "/kafka-acl-extended/prefixed" in ZkData.SECURE_ROOT_PATHS and "/cluster" in ZkData.SECURE_ROOT_PATHS
    assert (ZkVersion.MATCH_ANY_VERSION, ZkVersion.UNKNOWN_VERSION, ZkStat.NO_STAT) == (-1, -2, Stat())
    assert ZkData.default_acls(False, "/brokers") == Ids.OPEN_ACL_UNSAFE
    assert ZkData.default_acls(True, "/brokers") == Ids.CREATOR_ALL_ACL + Ids.READ_ACL_UNSAFE
    assert ZkData.default_acls(True, "/config/users/alice") == Ids.CREATOR_ALL_ACL
    assert ZkData.default_acls(True, "/consumers") == Ids.OPEN_ACL_UNSAFE


def test_leader_and_isr_and_replica_assignment_helpers() -> None:
    """LeaderAndIsr and ReplicaAssignment behave as Kafka's case classes."""
    lai = LeaderAndIsr.create(1, [1, 2])
    assert (lai.leader_epoch, lai.zk_version) == (0, 0)
    moved = lai.new_leader(2)
    assert (moved.leader, moved.leader_epoch, moved.isr) == (2, 1, (1, 2))
    assert moved.with_zk_version(3).equals_ignore_zk(moved) and not moved.equals_ignore_zk(lai)
    assert LeaderAndIsr.during_delete([1]).leader == -2 and LeaderAndIsr(-1, 0, (), 0).leader_opt is None
    assert str(lai) == "LeaderAndIsr(leader=1, leaderEpoch=0, isr=List(1, 2), zkVersion=0)"
    assert str(LeaderIsrAndControllerEpoch(lai, 5)) == "(Leader:1,ISR:1,2,LeaderEpoch:0,ZkVersion:0,ControllerEpoch:5)"

    reassigned = ReplicaAssignment([1, 2, 3]).reassign_to([3, 4, 5])
    assert reassigned == ReplicaAssignment([3, 4, 5, 1, 2], [4, 5], [1, 2])
    assert reassigned.origin_replicas == (3, 1, 2) and reassigned.target_replicas == (3, 4, 5)
    assert reassigned.is_being_reassigned and not ReplicaAssignment.EMPTY.is_being_reassigned
    assert reassigned.remove_replica(4) == ReplicaAssignment([3, 5, 1, 2], [5], [1, 2])
