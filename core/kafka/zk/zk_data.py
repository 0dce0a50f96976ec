"""Port of core/src/main/scala/kafka/zk/ZkData.scala (Kafka 2.8).

Every znode path Kafka uses, and the codecs of the data stored in them. Encoders write the bytes Kafka 2.8 writes,
key order included (see kafka.zk.jvm_json), and check the JSON against the schemas in kafka/zk/schemas; decoders
read what Kafka reads, as leniently.

# PORT: some things Kafka keeps elsewhere sit here, beside the znodes they are read from, each marked:
# ReplicaAssignment (kafka.controller, ControllerContext.scala; kafka.controller.controller_context re-exports it,
# since the controller modules import this one), ConfigType and ConfigEntityName (kafka.server,
# DynamicConfigManager.scala), the ProducerIdBlock JSON (kafka.coordinator.transaction, ProducerIdManager.scala).
# The delegation token JSON is DelegationTokenManager's, as in Kafka. Broker features (KIP-584) are a dict of feature
# name to (min, max) version instead of Java's Features class.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar

import jsonschema

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint, create_end_point
from kafka.common.errors import KafkaException
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.types import Uuid
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.security_utils import resource_type_name
from kafka.common.utils.time import Time
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.security.authorizer.acl_entry import AclEntry
from kafka.zk.jvm_json import (
    _int32,
    encode_as_bytes,
    java_hash_map,
    java_properties,
    java_string_hash,
    scala_immutable_map,
    scala_immutable_set,
    scala_mutable_map,
    scala_mutable_set,
)
from kafka.zookeeper.zookeeper_types import ACL, Ids, Stat

# ---------------------------------------------------------------------------------------------------------
# JSON helpers: Kafka's Json.parseBytes / JsonValue.to[T], and the schema check of what we write
# ---------------------------------------------------------------------------------------------------------


class JsonDecodeError(ValueError):
    """JSON of the wrong shape (Kafka: JsonMappingException)."""


def parse_bytes(data: bytes | None) -> Any | None:
    """The JSON value of `data`, or None if it is absent or not JSON (Kafka's Json.parseBytes)."""
    if data is None:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def _obj(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise JsonDecodeError(f"Expected JSON object, received {value!r}")
    return value


def _field(obj: dict[str, Any], key: str) -> Any:
    if key not in obj:
        raise JsonDecodeError(f"No such field exists: `{key}`")
    return obj[key]


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise JsonDecodeError(f"Expected `value` to be an integer value, but found {value!r}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise JsonDecodeError(f"Expected `String` value, received {value!r}")
    return value


def _int_list(value: Any) -> list[int]:
    if not isinstance(value, list):
        raise JsonDecodeError(f"Expected JSON array, received {value!r}")
    return [_int(v) for v in value]


@functools.cache
def _validator(schema: str) -> Any:
    text = resources.files("kafka.zk").joinpath("schemas", f"{schema}.json").read_text("utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def validate(schema: str, value: Any) -> None:
    """Checks `value` against kafka/zk/schemas/`schema`.json; raises jsonschema.ValidationError."""
    _validator(schema).validate(value)


def _encode(schema: str, value: Any) -> bytes:
    validate(schema, value)
    return encode_as_bytes(value)


def _topic_partition_hash(tp: TopicPartition) -> int:
    """Java's TopicPartition.hashCode."""
    return _int32(31 * (31 + tp.partition) + java_string_hash(tp.topic))


# ---------------------------------------------------------------------------------------------------------
# Companions of classes ported elsewhere later (see the module docstring)
# ---------------------------------------------------------------------------------------------------------


class ConfigType:
    """The entity types with dynamic configs under /config (kafka.server.ConfigType)."""

    TOPIC: ClassVar[str] = "topics"
    CLIENT: ClassVar[str] = "clients"
    USER: ClassVar[str] = "users"
    BROKER: ClassVar[str] = "brokers"
    IP: ClassVar[str] = "ips"
    ALL: ClassVar[tuple[str, ...]] = (TOPIC, CLIENT, USER, BROKER, IP)


class ConfigEntityName:
    """kafka.server.ConfigEntityName: the entity name of the defaults."""

    DEFAULT: ClassVar[str] = "<default>"


@dataclass(frozen=True, slots=True)
class ReplicaAssignment:
    """kafka.controller.ReplicaAssignment: a partition's replicas, including those being added or removed by a
    reassignment in progress."""

    replicas: Sequence[int]  # tuples once built
    adding_replicas: Sequence[int] = ()
    removing_replicas: Sequence[int] = ()

    EMPTY: ClassVar[ReplicaAssignment]

    def __post_init__(self) -> None:
        for name in ("replicas", "adding_replicas", "removing_replicas"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))

    @property
    def origin_replicas(self) -> tuple[int, ...]:
        return _diff(self.replicas, self.adding_replicas)

    @property
    def target_replicas(self) -> tuple[int, ...]:
        return _diff(self.replicas, self.removing_replicas)

    @property
    def is_being_reassigned(self) -> bool:
        return bool(self.adding_replicas or self.removing_replicas)

    def reassign_to(self, target: Sequence[int]) -> ReplicaAssignment:
        full_replica_set = tuple(dict.fromkeys([*target, *self.origin_replicas]))
        return ReplicaAssignment(
            full_replica_set, _diff(full_replica_set, self.origin_replicas), _diff(full_replica_set, target)
        )

    def remove_replica(self, replica: int) -> ReplicaAssignment:
        return ReplicaAssignment(
            tuple(r for r in self.replicas if r != replica),
            tuple(r for r in self.adding_replicas if r != replica),
            tuple(r for r in self.removing_replicas if r != replica),
        )

    def __str__(self) -> str:
        return (
            f"ReplicaAssignment(replicas={','.join(map(str, self.replicas))}, "
            f"addingReplicas={','.join(map(str, self.adding_replicas))}, "
            f"removingReplicas={','.join(map(str, self.removing_replicas))})"
        )


ReplicaAssignment.EMPTY = ReplicaAssignment(())


def _diff(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """Scala's Seq.diff: `a` without one occurrence of each element of `b`."""
    remaining = list(b)
    out = []
    for x in a:
        if x in remaining:
            remaining.remove(x)
        else:
            out.append(x)
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------
# Znodes
# ---------------------------------------------------------------------------------------------------------


class ControllerZNode:
    path: ClassVar[str] = "/controller"

    @staticmethod
    def encode(broker_id: int, timestamp: int) -> bytes:
        return _encode(
            "controller",
            scala_immutable_map([("version", 1), ("brokerid", broker_id), ("timestamp", str(timestamp))]),
        )

    @staticmethod
    def decode(data: bytes | None) -> int | None:
        js = parse_bytes(data)
        return None if js is None else _int(_field(_obj(js), "brokerid"))


class ControllerEpochZNode:
    path: ClassVar[str] = "/controller_epoch"

    @staticmethod
    def encode(epoch: int) -> bytes:
        return str(epoch).encode("utf-8")

    @staticmethod
    def decode(data: bytes) -> int:
        return int(data.decode("utf-8"))


class ConfigZNode:
    path: ClassVar[str] = "/config"


class BrokersZNode:
    path: ClassVar[str] = "/brokers"


class BrokerIdsZNode:
    path: ClassVar[str] = f"{BrokersZNode.path}/ids"
    encode: ClassVar[bytes | None] = None


@dataclass(frozen=True, slots=True)
class BrokerInfo:
    """What a broker registers at /brokers/ids/N: itself, the JSON version and its JMX port.

    # PORT: `features` (the broker's supported features, name -> (min_version, max_version)) is carried here, as
    # kafka.cluster.Broker does not carry features in this port."""

    broker: Broker
    version: int
    jmx_port: int
    features: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    @classmethod
    def create(cls, broker: Broker, jmx_port: int, version: int = 5) -> BrokerInfo:
        """Kafka's BrokerInfo(broker, apiVersion, jmxPort): JSON version 5 for an inter-broker protocol of 2.7 or
        later, 4 from 0.10.0, else 2 (# PORT: the version is given instead of the ApiVersion)."""
        return cls(broker, version, jmx_port)

    @property
    def path(self) -> str:
        return BrokerIdZNode.path(self.broker.id)

    def to_json_bytes(self, timestamp_ms: int | None = None) -> bytes:
        return BrokerIdZNode.encode_broker_info(self, timestamp_ms)


class BrokerIdZNode:
    _HOST_KEY = "host"
    _PORT_KEY = "port"
    _VERSION_KEY = "version"
    _ENDPOINTS_KEY = "endpoints"
    _RACK_KEY = "rack"
    _JMX_PORT_KEY = "jmx_port"
    _LISTENER_SECURITY_PROTOCOL_MAP_KEY = "listener_security_protocol_map"
    _TIMESTAMP_KEY = "timestamp"
    _FEATURES_KEY = "features"

    @staticmethod
    def path(id_: int) -> str:
        return f"{BrokerIdsZNode.path}/{id_}"

    @classmethod
    def encode(
        cls,
        version: int,
        host: str | None,
        port: int,
        advertised_endpoints: Sequence[EndPoint],
        jmx_port: int,
        rack: str | None,
        features: Mapping[str, tuple[int, int]],
        timestamp_ms: int | None = None,
    ) -> bytes:
        """The registration JSON; top-level host and port stay for clients older than the endpoint list.
        `timestamp_ms` defaults to the system clock, as Kafka's."""
        timestamp = Time.SYSTEM.milliseconds() if timestamp_ms is None else timestamp_ms
        initial: list[tuple[str, Any]] = [
            (cls._VERSION_KEY, version),
            (cls._HOST_KEY, host),
            (cls._PORT_KEY, port),
            (cls._ENDPOINTS_KEY, [ep.connection_string for ep in advertised_endpoints]),
            (cls._JMX_PORT_KEY, jmx_port),
            (cls._TIMESTAMP_KEY, str(timestamp)),
        ]
        added: list[tuple[str, Any]] = []
        if rack is not None and version >= 3:
            added.append((cls._RACK_KEY, rack))
        if version >= 4:
            protocol_map = scala_immutable_map(
                (ep.listener_name.value, ep.security_protocol.name) for ep in advertised_endpoints
            )
            added.append((cls._LISTENER_SECURITY_PROTOCOL_MAP_KEY, protocol_map))
        if version >= 5:
            added.append((cls._FEATURES_KEY, _supported_features_json(features)))
        return _encode("broker", scala_mutable_map(initial, added))

    @classmethod
    def encode_broker_info(cls, broker_info: BrokerInfo, timestamp_ms: int | None = None) -> bytes:
        broker = broker_info.broker
        # The top-level host and port are the first PLAINTEXT endpoint's, else empty (old clients cannot connect).
        plaintext = next((ep for ep in broker.end_points if ep.security_protocol == SecurityProtocol.PLAINTEXT), None)
        host, port = (None, -1) if plaintext is None else (plaintext.host, plaintext.port)
        return cls.encode(
            broker_info.version,
            host,
            port,
            broker.end_points,
            broker_info.jmx_port,
            broker.rack,
            broker_info.features,
            timestamp_ms,
        )

    @classmethod
    def decode(cls, id_: int, json_bytes: bytes) -> BrokerInfo:
        """Reads a registration of any version (1: host and port only; 2+: endpoints; 3+: rack; 4+: listener
        security protocols; 5: features)."""
        try:
            js = json.loads(json_bytes)
        except ValueError as e:
            raise KafkaException(
                f"Failed to parse ZooKeeper registration for broker {id_}: {json_bytes.decode('utf-8', 'replace')}"
            ) from e
        broker_info = _obj(js)
        version = _int(_field(broker_info, cls._VERSION_KEY))
        jmx_port = _int(_field(broker_info, cls._JMX_PORT_KEY))
        if version < 1:
            raise KafkaException(f"Unsupported version of broker registration: {json_bytes.decode('utf-8', 'replace')}")
        if version == 1:
            host = _str(_field(broker_info, cls._HOST_KEY))
            port = _int(_field(broker_info, cls._PORT_KEY))
            protocol = SecurityProtocol.PLAINTEXT
            endpoints = [EndPoint(host, port, ListenerName.for_security_protocol(protocol), protocol)]
        else:
            protocol_map: dict[ListenerName, SecurityProtocol] | None = None
            if cls._LISTENER_SECURITY_PROTOCOL_MAP_KEY in broker_info:
                protocol_map = {
                    ListenerName(name): SecurityProtocol.for_name(_str(protocol))
                    for name, protocol in _obj(broker_info[cls._LISTENER_SECURITY_PROTOCOL_MAP_KEY]).items()
                }
            listeners = _field(broker_info, cls._ENDPOINTS_KEY)
            if not isinstance(listeners, list):
                raise JsonDecodeError(f"Expected JSON array, received {listeners!r}")
            endpoints = [create_end_point(_str(listener), protocol_map) for listener in listeners]
        rack_value = broker_info.get(cls._RACK_KEY)
        rack = None if rack_value is None else _str(rack_value)
        features = _decode_features(broker_info.get(cls._FEATURES_KEY), "min_version", "max_version")
        return BrokerInfo(Broker(id_, endpoints, rack), version, jmx_port, features)


def _supported_features_json(features: Mapping[str, tuple[int, int]]) -> dict[str, dict[str, int]]:
    # Features.toMap: a java.util.HashMap of name -> LinkedHashMap(min, max).
    return java_hash_map((name, {"min_version": lo, "max_version": hi}) for name, (lo, hi) in features.items())


def _decode_features(value: Any, min_label: str, max_label: str) -> dict[str, tuple[int, int]]:
    if value is None:
        return {}
    return {
        name: (_int(_field(_obj(levels), min_label)), _int(_field(_obj(levels), max_label)))
        for name, levels in _obj(value).items()
    }


class TopicsZNode:
    path: ClassVar[str] = f"{BrokersZNode.path}/topics"


@dataclass(frozen=True, slots=True)
class TopicIdReplicaAssignment:
    """A topic, its id (None before topic ids) and its partitions' replica assignment."""

    topic: str
    topic_id: Uuid | None
    assignment: Mapping[TopicPartition, ReplicaAssignment]

    def __hash__(self) -> int:
        # Kafka keeps these in sets; the assignment is hashed as the immutable map it is in Scala.
        return hash((self.topic, self.topic_id, frozenset(self.assignment.items())))


class TopicZNode:
    @staticmethod
    def path(topic: str) -> str:
        return f"{TopicsZNode.path}/{topic}"

    @staticmethod
    def encode(topic_id: Uuid | None, assignment: Mapping[TopicPartition, ReplicaAssignment]) -> bytes:
        replica_assignment_json: list[tuple[str, list[int]]] = []
        adding_replicas_assignment_json: list[tuple[str, list[int]]] = []
        removing_replicas_assignment_json: list[tuple[str, list[int]]] = []
        for partition, replica_assignment in assignment.items():
            key = str(partition.partition)
            replica_assignment_json.append((key, list(replica_assignment.replicas)))
            if replica_assignment.adding_replicas:
                adding_replicas_assignment_json.append((key, list(replica_assignment.adding_replicas)))
            if replica_assignment.removing_replicas:
                removing_replicas_assignment_json.append((key, list(replica_assignment.removing_replicas)))
        topic_assignment = scala_mutable_map(
            [
                ("version", 3),
                ("partitions", scala_mutable_map([], replica_assignment_json)),
                ("adding_replicas", scala_mutable_map([], adding_replicas_assignment_json)),
                ("removing_replicas", scala_mutable_map([], removing_replicas_assignment_json)),
            ],
            [] if topic_id is None else [("topic_id", str(topic_id))],
        )
        return _encode("topic", topic_assignment)

    @staticmethod
    def decode(topic: str, data: bytes | None) -> TopicIdReplicaAssignment:
        js = parse_bytes(data)
        if js is None:
            return TopicIdReplicaAssignment(topic, None, {})
        assignment_json = _obj(js)
        topic_id_value = assignment_json.get("topic_id")
        topic_id = None if topic_id_value is None else Uuid.from_string(_str(topic_id_value))
        adding = assignment_json.get("adding_replicas")
        removing = assignment_json.get("removing_replicas")

        def replicas_of(replicas_json: Any, partition: str) -> list[int]:
            if replicas_json is None or partition not in _obj(replicas_json):
                return []
            return _int_list(replicas_json[partition])

        partitions: dict[TopicPartition, ReplicaAssignment] = {}
        partitions_json = assignment_json.get("partitions")
        if partitions_json is not None:
            for partition, replicas in _obj(partitions_json).items():
                partitions[TopicPartition(topic, int(partition))] = ReplicaAssignment(
                    _int_list(replicas), replicas_of(adding, partition), replicas_of(removing, partition)
                )
        return TopicIdReplicaAssignment(topic, topic_id, partitions)


class TopicPartitionsZNode:
    @staticmethod
    def path(topic: str) -> str:
        return f"{TopicZNode.path(topic)}/partitions"


class TopicPartitionZNode:
    @staticmethod
    def path(partition: TopicPartition) -> str:
        return f"{TopicPartitionsZNode.path(partition.topic)}/{partition.partition}"


class TopicPartitionStateZNode:
    @staticmethod
    def path(partition: TopicPartition) -> str:
        return f"{TopicPartitionZNode.path(partition)}/state"

    @staticmethod
    def encode(leader_isr_and_controller_epoch: LeaderIsrAndControllerEpoch) -> bytes:
        leader_and_isr = leader_isr_and_controller_epoch.leader_and_isr
        return _encode(
            "partition_state",
            scala_immutable_map(
                [
                    ("version", 1),
                    ("leader", leader_and_isr.leader),
                    ("leader_epoch", leader_and_isr.leader_epoch),
                    ("controller_epoch", leader_isr_and_controller_epoch.controller_epoch),
                    ("isr", list(leader_and_isr.isr)),
                ]
            ),
        )

    @staticmethod
    def decode(data: bytes | None, stat: Stat) -> LeaderIsrAndControllerEpoch | None:
        js = parse_bytes(data)
        if js is None:
            return None
        info = _obj(js)
        leader = _int(_field(info, "leader"))
        epoch = _int(_field(info, "leader_epoch"))
        isr = _int_list(_field(info, "isr"))
        controller_epoch = _int(_field(info, "controller_epoch"))
        return LeaderIsrAndControllerEpoch(LeaderAndIsr(leader, epoch, tuple(isr), stat.version), controller_epoch)


class ConfigEntityTypeZNode:
    @staticmethod
    def path(entity_type: str) -> str:
        return f"{ConfigZNode.path}/{entity_type}"


class ConfigEntityZNode:
    @staticmethod
    def path(entity_type: str, entity_name: str) -> str:
        return f"{ConfigEntityTypeZNode.path(entity_type)}/{entity_name}"

    @staticmethod
    def encode(config: Mapping[str, str]) -> bytes:
        """`config` plays the part of a java.util.Properties filled in its iteration order."""
        return _encode(
            "config_entity", scala_immutable_map([("version", 1), ("config", java_properties(config.items()))])
        )

    @staticmethod
    def decode(data: bytes | None) -> dict[str, str]:
        props: dict[str, str] = {}
        js = parse_bytes(data)
        if isinstance(js, dict):
            config = js.get("config")
            if isinstance(config, dict):
                for k, v in config.items():
                    props[k] = _str(v)
        return props


class ConfigEntityChangeNotificationZNode:
    path: ClassVar[str] = f"{ConfigZNode.path}/changes"


class ConfigEntityChangeNotificationSequenceZNode:
    SEQUENCE_NUMBER_PREFIX: ClassVar[str] = "config_change_"
    create_path: ClassVar[str] = f"{ConfigEntityChangeNotificationZNode.path}/{SEQUENCE_NUMBER_PREFIX}"

    @staticmethod
    def encode(sanitized_entity_path: str) -> bytes:
        return _encode(
            "config_change_notification", scala_immutable_map([("version", 2), ("entity_path", sanitized_entity_path)])
        )


class IsrChangeNotificationZNode:
    path: ClassVar[str] = "/isr_change_notification"


# kafka.controller.IsrChangeNotificationHandler.Version
_ISR_CHANGE_NOTIFICATION_VERSION = 1


class IsrChangeNotificationSequenceZNode:
    SEQUENCE_NUMBER_PREFIX: ClassVar[str] = "isr_change_"

    @staticmethod
    def path(sequence_number: str = "") -> str:
        prefix = IsrChangeNotificationSequenceZNode.SEQUENCE_NUMBER_PREFIX
        return f"{IsrChangeNotificationZNode.path}/{prefix}{sequence_number}"

    @staticmethod
    def encode(partitions: Iterable[TopicPartition]) -> bytes:
        """`partitions` plays the part of the mutable.HashSet Kafka's ZkIsrManager passes."""
        partitions_json = scala_mutable_set(
            scala_immutable_map([("topic", p.topic), ("partition", p.partition)]) for p in partitions
        )
        return _encode(
            "isr_change_notification",
            scala_immutable_map([("version", _ISR_CHANGE_NOTIFICATION_VERSION), ("partitions", partitions_json)]),
        )

    @staticmethod
    def decode(data: bytes | None) -> set[TopicPartition]:
        return _decode_partitions(data)

    @staticmethod
    def sequence_number(path: str) -> str:
        prefix = IsrChangeNotificationSequenceZNode.SEQUENCE_NUMBER_PREFIX
        return path[path.rfind(prefix) + len(prefix) :]


def _decode_partitions(data: bytes | None) -> set[TopicPartition]:
    js = parse_bytes(data)
    if js is None:
        return set()
    partitions_json = _field(_obj(js), "partitions")
    if not isinstance(partitions_json, list):
        raise JsonDecodeError(f"Expected JSON array, received {partitions_json!r}")
    return {TopicPartition(_str(_field(_obj(p), "topic")), _int(_field(_obj(p), "partition"))) for p in partitions_json}


class LogDirEventNotificationZNode:
    path: ClassVar[str] = "/log_dir_event_notification"


class LogDirEventNotificationSequenceZNode:
    SEQUENCE_NUMBER_PREFIX: ClassVar[str] = "log_dir_event_"
    LOG_DIR_FAILURE_EVENT: ClassVar[int] = 1

    @staticmethod
    def path(sequence_number: str) -> str:
        prefix = LogDirEventNotificationSequenceZNode.SEQUENCE_NUMBER_PREFIX
        return f"{LogDirEventNotificationZNode.path}/{prefix}{sequence_number}"

    @staticmethod
    def encode(broker_id: int) -> bytes:
        return _encode(
            "log_dir_event_notification",
            scala_immutable_map(
                [
                    ("version", 1),
                    ("broker", broker_id),
                    ("event", LogDirEventNotificationSequenceZNode.LOG_DIR_FAILURE_EVENT),
                ]
            ),
        )

    @staticmethod
    def decode(data: bytes | None) -> int | None:
        js = parse_bytes(data)
        return None if js is None else _int(_field(_obj(js), "broker"))

    @staticmethod
    def sequence_number(path: str) -> str:
        prefix = LogDirEventNotificationSequenceZNode.SEQUENCE_NUMBER_PREFIX
        return path[path.rfind(prefix) + len(prefix) :]


class AdminZNode:
    path: ClassVar[str] = "/admin"


class DeleteTopicsZNode:
    path: ClassVar[str] = f"{AdminZNode.path}/delete_topics"


class DeleteTopicsTopicZNode:
    @staticmethod
    def path(topic: str) -> str:
        return f"{DeleteTopicsZNode.path}/{topic}"


class ReassignPartitionsZNode:
    """The znode that started a partition reassignment before the PartitionReassignment API (deprecated in 2.4)."""

    path: ClassVar[str] = f"{AdminZNode.path}/reassign_partitions"

    @staticmethod
    def encode(reassignment: Mapping[TopicPartition, Sequence[int]]) -> bytes:
        """`reassignment` plays the part of a Scala immutable Map; Jackson writes the case classes' fields in
        constructor order."""
        ordered = scala_immutable_map(reassignment.items(), hash_code=_topic_partition_hash)
        partitions = [
            {"topic": tp.topic, "partition": tp.partition, "replicas": list(replicas)}
            for tp, replicas in ordered.items()
        ]
        return _encode("reassign_partitions", {"version": 1, "partitions": partitions})

    @staticmethod
    def decode(data: bytes) -> dict[TopicPartition, list[int]]:
        """Raises JsonDecodeError (Kafka: returns the JsonProcessingException) if `data` is not such JSON."""
        try:
            js = json.loads(data)
        except ValueError as e:
            raise JsonDecodeError(str(e)) from e
        partitions = _obj(js).get("partitions") or []
        if not isinstance(partitions, list):
            raise JsonDecodeError(f"Expected JSON array, received {partitions!r}")
        return {
            TopicPartition(_str(_obj(p).get("topic")), _int(_obj(p).get("partition", 0))): _int_list(
                _obj(p).get("replicas") or []
            )
            for p in partitions
        }


class PreferredReplicaElectionZNode:
    path: ClassVar[str] = f"{AdminZNode.path}/preferred_replica_election"

    @staticmethod
    def encode(partitions: Iterable[TopicPartition]) -> bytes:
        """`partitions` plays the part of a Scala immutable Set, in its iteration order."""
        elements = scala_immutable_set(partitions, hash_code=_topic_partition_hash)
        partitions_json = scala_immutable_set(
            scala_immutable_map([("topic", tp.topic), ("partition", tp.partition)]) for tp in elements
        )
        return _encode(
            "preferred_replica_election", scala_immutable_map([("version", 1), ("partitions", partitions_json)])
        )

    @staticmethod
    def decode(data: bytes | None) -> set[TopicPartition]:
        return _decode_partitions(data)


class ConsumerPathZNode:
    """The root of the old (ZooKeeper-based) consumers' data."""

    path: ClassVar[str] = "/consumers"


class ConsumerOffset:
    @staticmethod
    def path(group: str, topic: str, partition: int) -> str:
        return f"{ConsumerPathZNode.path}/{group}/offsets/{topic}/{partition}"

    @staticmethod
    def encode(offset: int) -> bytes:
        return str(offset).encode("utf-8")

    @staticmethod
    def decode(data: bytes | None) -> int | None:
        return None if data is None else int(data.decode("utf-8"))


class ZkVersion:
    MATCH_ANY_VERSION: ClassVar[int] = -1  # a conditional update with it matches any version (ZooKeeper's value)
    UNKNOWN_VERSION: ClassVar[int] = -2  # the version reported for a znode that does not exist (Kafka's own)


class ZkStat:
    NO_STAT: ClassVar[Stat] = Stat()


class StateChangeHandlers:
    CONTROLLER_HANDLER: ClassVar[str] = "controller-state-change-handler"

    @staticmethod
    def zk_node_change_listener_handler(seq_node_root: str) -> str:
        return f"change-notification-{seq_node_root}"


# ACL storage: the literal store, the extended (prefixed) store and their change-notification roots.
class ExtendedAclZNode:
    path: ClassVar[str] = "/kafka-acl-extended"


LITERAL_ACL_PATH = "/kafka-acl"
LITERAL_ACL_CHANGE_PATH = "/kafka-acl-changes"
EXTENDED_ACL_CHANGE_PATH = "/kafka-acl-extended-changes"
PREFIXED_ACL_PATH = f"{ExtendedAclZNode.path}/prefixed"
#: ZkAclStore.securePaths: each specific pattern type's ACL root and change root (LITERAL, then PREFIXED).
ACL_SECURE_PATHS: tuple[str, ...] = (
    LITERAL_ACL_PATH,
    LITERAL_ACL_CHANGE_PATH,
    PREFIXED_ACL_PATH,
    EXTENDED_ACL_CHANGE_PATH,
)


class ZkAclStore:
    """Where the ACLs of one specific pattern type live: `{acl_path}/{ResourceType}/{name}`, and which change store
    announces their changes. `ZkAclStore.of(pattern_type)` is Kafka's ZkAclStore(patternType)."""

    def __init__(self, pattern_type: PatternType, acl_path: str, change_store: ZkAclChangeStore) -> None:
        self.pattern_type = pattern_type
        self.acl_path = acl_path
        self.change_store = change_store

    def path(self, resource_type: ResourceType, resource_name: str | None = None) -> str:
        type_path = f"{self.acl_path}/{resource_type_name(resource_type)}"
        return type_path if resource_name is None else f"{type_path}/{resource_name}"

    @staticmethod
    def of(pattern_type: PatternType) -> ZkAclStore:
        if pattern_type is PatternType.LITERAL:
            return LITERAL_ACL_STORE
        if pattern_type is PatternType.PREFIXED:
            return PREFIXED_ACL_STORE
        raise ValueError(f"Unknown pattern type: {pattern_type.name}")


class ZkAclChangeStore(ABC):
    """A notification queue of ACL changes: `{acl_change_path}/acl_changes_NNNNNNNNNN`, each naming a resource."""

    SEQUENCE_NUMBER_PREFIX: ClassVar[str] = "acl_changes_"
    acl_change_path: ClassVar[str]

    @classmethod
    def create_path(cls) -> str:
        return f"{cls.acl_change_path}/{ZkAclChangeStore.SEQUENCE_NUMBER_PREFIX}"

    @staticmethod
    @abstractmethod
    def encode(resource: ResourcePattern) -> bytes: ...

    @staticmethod
    @abstractmethod
    def decode(data: bytes) -> ResourcePattern: ...


class LiteralAclChangeStore(ZkAclChangeStore):
    """Literal changes, as Kafka before 2.0 wrote them: the text `TOPIC:name`."""

    acl_change_path: ClassVar[str] = "/kafka-acl-changes"

    @staticmethod
    def encode(resource: ResourcePattern) -> bytes:
        if resource.pattern_type is not PatternType.LITERAL:
            raise ValueError("Only literal resource patterns can be encoded")
        return f"{resource.resource_type.name}{AclEntry.RESOURCE_SEPARATOR}{resource.name}".encode()

    @staticmethod
    def decode(data: bytes) -> ResourcePattern:
        type_name, sep, name = data.decode("utf-8").partition(AclEntry.RESOURCE_SEPARATOR)
        if not sep:
            raise ValueError(f"expected a string in format ResourceType:ResourceName but got {data!r}")
        return ResourcePattern(ResourceType.from_string(type_name), name, PatternType.LITERAL)


class ExtendedAclChangeStore(ZkAclChangeStore):
    """Changes of the other pattern types, as JSON (version, resourceType, name and patternType, the enum names)."""

    acl_change_path: ClassVar[str] = "/kafka-acl-extended-changes"
    CURRENT_VERSION: ClassVar[int] = 1

    @staticmethod
    def encode(resource: ResourcePattern) -> bytes:
        if resource.pattern_type is PatternType.LITERAL:
            raise ValueError("Literal pattern types are not supported")
        return _encode(
            "extended_acl_change_event",
            {
                "version": ExtendedAclChangeStore.CURRENT_VERSION,
                "resourceType": resource.resource_type.name,
                "name": resource.name,
                "patternType": resource.pattern_type.name,
            },
        )

    @staticmethod
    def decode(data: bytes) -> ResourcePattern:
        js = parse_bytes(data)
        if not isinstance(js, dict):
            raise ValueError("Failed to parse ACL change event")
        if _int(_field(js, "version")) > ExtendedAclChangeStore.CURRENT_VERSION:
            raise ValueError(f"Acl change event received for unsupported version: {js['version']}")
        pattern_type = PatternType.from_string(_str(_field(js, "patternType")))
        return ResourcePattern(
            ResourceType.from_string(_str(_field(js, "resourceType"))), _str(_field(js, "name")), pattern_type
        )


LITERAL_ACL_STORE = ZkAclStore(PatternType.LITERAL, LITERAL_ACL_PATH, LiteralAclChangeStore())
PREFIXED_ACL_STORE = ZkAclStore(PatternType.PREFIXED, PREFIXED_ACL_PATH, ExtendedAclChangeStore())
#: ZkAclStore.stores and ZkAclChangeStore.stores.
ZK_ACL_STORES: tuple[ZkAclStore, ...] = (LITERAL_ACL_STORE, PREFIXED_ACL_STORE)
ZK_ACL_CHANGE_STORES: tuple[ZkAclChangeStore, ...] = (LiteralAclChangeStore(), ExtendedAclChangeStore())


class ResourceZNode:
    """The znode of one resource pattern's ACLs."""

    @staticmethod
    def path(resource: ResourcePattern) -> str:
        return ZkAclStore.of(resource.pattern_type).path(resource.resource_type, resource.name)

    @staticmethod
    def encode(acls: Iterable[AclEntry]) -> bytes:
        return _encode("acl", AclEntry.to_json_compatible_map(acls))

    @staticmethod
    def decode(data: bytes | None) -> set[AclEntry]:
        return AclEntry.from_bytes(data)


class ClusterZNode:
    path: ClassVar[str] = "/cluster"


class ClusterIdZNode:
    path: ClassVar[str] = f"{ClusterZNode.path}/id"

    @staticmethod
    def to_json(id_: str) -> bytes:
        return _encode("cluster_id", scala_immutable_map([("version", "1"), ("id", id_)]))

    @staticmethod
    def from_json(cluster_id_json: bytes | None) -> str:
        js = parse_bytes(cluster_id_json)
        if js is None:
            raise KafkaException(f"Failed to parse the cluster id json {cluster_id_json!r}")
        return _str(_field(_obj(js), "id"))


class BrokerSequenceIdZNode:
    path: ClassVar[str] = f"{BrokersZNode.path}/seqid"


class ProducerIdBlockZNode:
    """/latest_producer_id_block: the last block of producer ids handed out.

    # PORT: the JSON codec is Kafka's ProducerIdManager.generateProducerIdBlockJson / parseProducerIdBlockData;
    # a block is (broker id, first id, last id)."""

    path: ClassVar[str] = "/latest_producer_id_block"
    CURRENT_VERSION: ClassVar[int] = 1

    @staticmethod
    def encode(broker_id: int, block_start_id: int, block_end_id: int) -> bytes:
        return _encode(
            "producer_id_block",
            scala_immutable_map(
                [
                    ("version", ProducerIdBlockZNode.CURRENT_VERSION),
                    ("broker", broker_id),
                    ("block_start", str(block_start_id)),
                    ("block_end", str(block_end_id)),
                ]
            ),
        )

    @staticmethod
    def decode(data: bytes | None) -> tuple[int, int, int]:
        js = parse_bytes(data)
        if js is None:
            raise KafkaException(f"Failed to parse the producerId block json {data!r}")
        block = _obj(js)
        return (
            _int(_field(block, "broker")),
            int(_str(_field(block, "block_start"))),
            int(_str(_field(block, "block_end"))),
        )


class DelegationTokenAuthZNode:
    path: ClassVar[str] = "/delegation_token"


class DelegationTokenChangeNotificationZNode:
    path: ClassVar[str] = f"{DelegationTokenAuthZNode.path}/token_changes"


class DelegationTokenChangeNotificationSequenceZNode:
    SEQUENCE_NUMBER_PREFIX: ClassVar[str] = "token_change_"
    create_path: ClassVar[str] = f"{DelegationTokenChangeNotificationZNode.path}/{SEQUENCE_NUMBER_PREFIX}"

    @staticmethod
    def delete_path(sequence_node: str) -> str:
        return f"{DelegationTokenChangeNotificationZNode.path}/{sequence_node}"

    @staticmethod
    def encode(token_id: str) -> bytes:
        return token_id.encode("utf-8")

    @staticmethod
    def decode(data: bytes) -> str:
        return data.decode("utf-8")


class DelegationTokensZNode:
    path: ClassVar[str] = f"{DelegationTokenAuthZNode.path}/tokens"


class DelegationTokenInfoZNode:
    @staticmethod
    def path(token_id: str) -> str:
        return f"{DelegationTokensZNode.path}/{token_id}"

    @staticmethod
    def encode(token: Any) -> bytes:
        """A DelegationToken's information as the JSON of /delegation_token/tokens/<id>."""
        from kafka.server.delegation_token_manager import DelegationTokenManager  # the server imports this module

        return json.dumps(DelegationTokenManager.to_json_compatible_map(token), separators=(",", ":")).encode("utf-8")

    @staticmethod
    def decode(data: bytes | None) -> Any:
        """The TokenInformation of a token znode's JSON; None for an empty znode."""
        from kafka.server.delegation_token_manager import DelegationTokenManager

        return DelegationTokenManager.from_bytes(data)


class FeatureZNodeStatus(ABC):
    """Whether the finalized features in /feature are in force: `FeatureZNodeStatus.Enabled()` (written by a
    controller whose inter-broker protocol is 2.7 or later) or `FeatureZNodeStatus.Disabled()`."""

    ID: ClassVar[int]
    Disabled: ClassVar[type[FeatureZNodeStatus]]
    Enabled: ClassVar[type[FeatureZNodeStatus]]

    @property
    def id(self) -> int:
        return self.ID

    @staticmethod
    def with_name_opt(id_: int) -> FeatureZNodeStatus | None:
        for status in (FeatureZNodeStatus.Disabled, FeatureZNodeStatus.Enabled):
            if status.ID == id_:
                return status()
        return None


@dataclass(frozen=True, slots=True)
class _FeatureZNodeStatusDisabled(FeatureZNodeStatus):
    ID: ClassVar[int] = 0

    def __str__(self) -> str:
        return "Disabled"


@dataclass(frozen=True, slots=True)
class _FeatureZNodeStatusEnabled(FeatureZNodeStatus):
    ID: ClassVar[int] = 1

    def __str__(self) -> str:
        return "Enabled"


FeatureZNodeStatus.Disabled = _FeatureZNodeStatusDisabled
FeatureZNodeStatus.Enabled = _FeatureZNodeStatusEnabled


@dataclass(frozen=True, slots=True)
class FeatureZNode:
    """The content of /feature: a status and the cluster's finalized features, name -> (min, max) version level."""

    V1: ClassVar[int] = 1
    CURRENT_VERSION: ClassVar[int] = V1
    path: ClassVar[str] = "/feature"

    status: FeatureZNodeStatus
    features: Mapping[str, tuple[int, int]]

    @staticmethod
    def encode(feature_z_node: FeatureZNode) -> bytes:
        features = java_hash_map(
            (name, {"min_version_level": lo, "max_version_level": hi})
            for name, (lo, hi) in feature_z_node.features.items()
        )
        return _encode(
            "feature",
            scala_mutable_map(
                [
                    ("version", FeatureZNode.CURRENT_VERSION),
                    ("status", feature_z_node.status.id),
                    ("features", features),
                ]
            ),
        )

    @staticmethod
    def decode(json_bytes: bytes) -> FeatureZNode:
        """Raises ValueError (Kafka: IllegalArgumentException) for content that is not a valid feature znode."""
        text = json_bytes.decode("utf-8", "replace")
        try:
            info = _obj(json.loads(json_bytes))
        except ValueError as e:
            raise ValueError(f"Failed to parse feature information: {text}") from e
        version = _int(_field(info, "version"))
        if version < FeatureZNode.V1:
            raise ValueError(f"Unsupported version: {version} of feature information: {text}")
        if info.get("features") is None:
            raise ValueError(f"Features map can not be absent in: {text}")
        try:
            features = _decode_features(info["features"], "min_version_level", "max_version_level")
        except JsonDecodeError as e:
            raise ValueError(f"Unable to convert to finalized features from map: {info['features']}") from e
        status_int = info.get("status")
        if status_int is None:
            raise ValueError(f"Status can not be absent in feature information: {text}")
        status = FeatureZNodeStatus.with_name_opt(_int(status_int))
        if status is None:
            raise ValueError(f"Malformed status: Some({status_int}) found in feature information: {text}")
        return FeatureZNode(status, features)


class ZkData:
    # Every top-level path Kafka creates belongs here (they are the ones secured by zookeeper.set.acl).
    SECURE_ROOT_PATHS: ClassVar[tuple[str, ...]] = (
        AdminZNode.path,
        BrokersZNode.path,
        ClusterZNode.path,
        ConfigZNode.path,
        ControllerZNode.path,
        ControllerEpochZNode.path,
        IsrChangeNotificationZNode.path,
        ProducerIdBlockZNode.path,
        LogDirEventNotificationZNode.path,
        DelegationTokenAuthZNode.path,
        ExtendedAclZNode.path,
        *ACL_SECURE_PATHS,
    )

    # The persistent paths a broker makes sure exist at startup.
    PERSISTENT_ZK_PATHS: ClassVar[tuple[str, ...]] = (
        ConsumerPathZNode.path,  # the old consumers' root
        BrokerIdsZNode.path,
        TopicsZNode.path,
        ConfigEntityChangeNotificationZNode.path,
        DeleteTopicsZNode.path,
        BrokerSequenceIdZNode.path,
        IsrChangeNotificationZNode.path,
        ProducerIdBlockZNode.path,
        LogDirEventNotificationZNode.path,
        *(ConfigEntityTypeZNode.path(t) for t in ConfigType.ALL),
    )

    SENSITIVE_ROOT_PATHS: ClassVar[tuple[str, ...]] = (
        ConfigEntityTypeZNode.path(ConfigType.USER),
        ConfigEntityTypeZNode.path(ConfigType.BROKER),
        DelegationTokensZNode.path,
    )

    @staticmethod
    def sensitive_path(path: str | None) -> bool:
        return path is not None and any(path.startswith(root) for root in ZkData.SENSITIVE_ROOT_PATHS)

    @staticmethod
    def default_acls(is_secure: bool, path: str) -> list[ACL]:
        """With secure ACLs, the creator may do anything and everyone may read (unless the path holds secrets);
        otherwise, and always for the old consumers' path, the node is open to all."""
        if path != ConsumerPathZNode.path and is_secure:
            acls = list(Ids.CREATOR_ALL_ACL)
            if not ZkData.sensitive_path(path):
                acls.extend(Ids.READ_ACL_UNSAFE)
            return acls
        return list(Ids.OPEN_ACL_UNSAFE)
