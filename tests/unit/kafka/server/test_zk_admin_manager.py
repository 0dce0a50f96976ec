"""Tests of kafka.server.zk_admin_manager (and the delayed operations and auto topic creation built on it), after
Kafka's ZkAdminManagerTest, CreateTopicsRequestTest, CreatePartitionsRequestTest, DeleteTopicsRequestTest and
AutoTopicCreationManagerTest. ZooKeeper is an in-memory stand-in with the KafkaZkClient methods used; a real
metadata cache plays the part the controller's UpdateMetadata requests play. tests/integration/test_admin_manager.py
runs the ZooKeeper side for real."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint
from kafka.common.config.config_resource import ConfigResource
from kafka.common.message import (
    CreatePartitionsRequestData,
    CreateTopicsRequestData,
    CreateTopicsResponseData,
    IncrementalAlterConfigsRequestData,
    UpdateMetadataRequestData,
)
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_configs_response import ConfigSource
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.server.auto_topic_creation_manager import DefaultAutoTopicCreationManager
from kafka.server.kafka_config import KafkaConfig
from kafka.server.metadata_cache import LEADER_DURING_DELETE, ZkMetadataCache
from kafka.server.zk_admin_manager import OpType, ZkAdminManager
from kafka.zk.zk_data import ReplicaAssignment
from kafka.zookeeper.zookeeper_types import NodeExistsException
from tests.utils import wait_until_true

PLAINTEXT = ListenerName("PLAINTEXT")


class FakeZkClient:
    """The KafkaZkClient methods the admin path uses, over dicts (topics, configs, notifications, deletions)."""

    def __init__(self, broker_ids: Iterable[int]) -> None:
        self.brokers = [
            Broker(b, [EndPoint("localhost", 9092 + b, PLAINTEXT, SecurityProtocol.PLAINTEXT)]) for b in broker_ids
        ]
        self.topics: dict[str, dict[int, ReplicaAssignment]] = {}
        self.topic_ids: dict[str, Uuid] = {}
        self.configs: dict[tuple[str, str], dict[str, str]] = {}
        self.notifications: list[str] = []
        self.deletions: list[str] = []
        self.on_create_topic: Callable[[str], None] | None = None

    def get_all_brokers_in_cluster(self) -> list[Broker]:
        return list(self.brokers)

    def topic_exists(self, topic: str) -> bool:
        return topic in self.topics

    def get_all_topics_in_cluster(self, register_watch: bool = False) -> set[str]:
        return set(self.topics)

    def create_topic_assignment(
        self, topic: str, topic_id: Uuid | None, assignment: Mapping[TopicPartition, Sequence[int]]
    ) -> None:
        if self.on_create_topic is not None:
            self.on_create_topic(topic)
        if topic in self.topics:
            raise NodeExistsException(path=f"/brokers/topics/{topic}")
        self.topics[topic] = {tp.partition: ReplicaAssignment(tuple(r)) for tp, r in assignment.items()}
        if topic_id is not None:
            self.topic_ids[topic] = topic_id

    def set_topic_assignment(
        self, topic: str, topic_id: Uuid | None, assignment: Mapping[TopicPartition, ReplicaAssignment]
    ) -> None:
        self.topics[topic] = {tp.partition: ra for tp, ra in assignment.items()}

    def get_topic_ids_for_topics(self, topics: Iterable[str]) -> dict[str, Uuid]:
        return {t: self.topic_ids[t] for t in topics if t in self.topic_ids}

    def get_full_replica_assignment_for_topics(self, topics: Iterable[str]) -> dict[TopicPartition, ReplicaAssignment]:
        return {TopicPartition(t, p): ra for t in topics for p, ra in self.topics.get(t, {}).items()}

    def create_delete_topic_path(self, topic: str) -> None:
        if topic in self.deletions:
            raise NodeExistsException(path=f"/admin/delete_topics/{topic}")
        self.deletions.append(topic)

    def get_entity_configs(self, entity_type: str, name: str) -> dict[str, str]:
        return dict(self.configs.get((entity_type, name), {}))

    def set_or_create_entity_configs(self, entity_type: str, name: str, config: Mapping[str, str]) -> None:
        self.configs[(entity_type, name)] = dict(config)

    def create_config_change_notification(self, sanitized_entity_path: str) -> None:
        self.notifications.append(sanitized_entity_path)


def update_cache(cache: ZkMetadataCache, broker_ids: Iterable[int], leaders: Mapping[str, Sequence[int]]) -> None:
    """Sends the cache an UpdateMetadata with these live brokers and partitions (topic -> leader of partition i)."""
    brokers = [
        UpdateMetadataRequestData.UpdateMetadataBroker(
            id=b,
            endpoints=[
                UpdateMetadataRequestData.UpdateMetadataEndpoint(
                    host="localhost", port=9092 + b, listener=PLAINTEXT.value, security_protocol=0
                )
            ],
            rack=None,
        )
        for b in broker_ids
    ]
    states = [
        UpdateMetadataRequestData.UpdateMetadataPartitionState(
            topic_name=topic,
            partition_index=p,
            controller_epoch=1,
            leader=leader,
            leader_epoch=0,
            isr=[max(leader, 0)],
            zk_version=0,
            replicas=[max(leader, 0)],
            offline_replicas=[],
        )
        for topic, partition_leaders in leaders.items()
        for p, leader in enumerate(partition_leaders)
    ]
    cache.update_metadata(1, UpdateMetadataRequestBuilder(7, 0, 1, 0, states, brokers, {}).build())


class Env:
    def __init__(self, broker_ids: Sequence[int] = (0, 1, 2), **props: str) -> None:
        self.broker_ids = list(broker_ids)
        self.config = KafkaConfig(
            {
                "zookeeper.connect": "127.0.0.1:2181",
                "broker.id": "0",
                "num.partitions": "3",
                "default.replication.factor": "1",
                **props,
            },
            False,
        )
        self.zk = FakeZkClient(self.broker_ids)
        self.cache = ZkMetadataCache(0)
        update_cache(self.cache, self.broker_ids, {})
        self.manager = ZkAdminManager(self.config, None, self.cache, self.zk)  # type: ignore[arg-type]
        self.results: list[dict[str, Any]] = []

    def callback(self, results: Mapping[str, Any]) -> None:
        self.results.append(dict(results))

    def elect_leaders(self, topics: Mapping[str, int]) -> None:
        """What the controller's UpdateMetadata does: every partition gets leader 0; waiting requests re-check."""
        update_cache(self.cache, self.broker_ids, {t: [0] * n for t, n in topics.items()})
        for topic in topics:
            self.manager.try_complete_delayed_topic_operations(topic)


@pytest.fixture
def env() -> Iterator[Env]:
    e = Env()
    yield e
    e.manager.shutdown()


def creatable(
    name: str,
    partitions: int = -1,
    replication_factor: int = -1,
    assignments: Mapping[int, list[int]] | None = None,
    configs: Mapping[str, str | None] | None = None,
) -> Any:
    topic = CreateTopicsRequestData.CreatableTopic(
        name=name, num_partitions=partitions, replication_factor=replication_factor
    )
    for p, brokers in (assignments or {}).items():
        topic.assignments.append(
            CreateTopicsRequestData.CreatableReplicaAssignment(partition_index=p, broker_ids=brokers)
        )
    for k, v in (configs or {}).items():
        topic.configs.append(CreateTopicsRequestData.CreateableTopicConfig(name=k, value=v))
    return topic


def create(
    env: Env, *topics: Any, timeout: int = 0, validate_only: bool = False, include: Mapping[str, Any] | None = None
) -> dict[str, ApiError]:
    env.manager.create_topics(timeout, validate_only, {t.name: t for t in topics}, include or {}, None, env.callback)
    assert env.results, "the callback was not called"
    return env.results.pop()


def error_of(result: ApiError) -> tuple[Errors, str | None]:
    return result.error, result.message


# ---- CreateTopics -------------------------------------------------------------------------------------------


def test_create_topic_with_broker_defaults_waits_for_leaders(env: Env) -> None:
    """Partitions and replication factor -1 take num.partitions and default.replication.factor; the topic and its
    (empty) config are written; the answer waits until every partition has a leader."""
    env.manager.create_topics(30_000, False, {"t": creatable("t")}, {}, None, env.callback)
    assert env.zk.configs[("topics", "t")] == {}
    assignment = env.zk.topics["t"]
    assert sorted(assignment) == [0, 1, 2] and all(len(ra.replicas) == 1 for ra in assignment.values())
    assert env.results == [] and env.manager.has_delayed_topic_operations

    env.elect_leaders({"t": 2})  # not every partition yet
    assert env.results == []
    env.elect_leaders({"t": 3})
    assert env.results == [{"t": ApiError.NONE}]
    assert not env.manager.has_delayed_topic_operations


def test_create_topic_times_out_without_leaders(env: Env) -> None:
    """Topics whose partitions get no leader within the timeout are answered REQUEST_TIMED_OUT; topics that failed
    keep their own error."""
    env.manager.create_topics(
        100, False, {"t": creatable("t", 1, 1), "bad": creatable("bad", 1, 9)}, {}, None, env.callback
    )
    wait_until_true(lambda: bool(env.results), "the create request to expire", timeout=10)
    results = env.results[0]
    assert results["t"].error is Errors.REQUEST_TIMED_OUT
    assert results["bad"].error is Errors.INVALID_REPLICATION_FACTOR


def test_create_topic_without_timeout_or_validate_only(env: Env) -> None:
    """Timeout 0 answers at once (REQUEST_TIMED_OUT for the created topic); validate_only answers NONE and writes
    nothing."""
    assert create(env, creatable("now", 2, 1)) == {"now": ApiError(Errors.REQUEST_TIMED_OUT, None)}
    assert "now" in env.zk.topics
    assert create(env, creatable("dry", 2, 1), timeout=5000, validate_only=True) == {"dry": ApiError.NONE}
    assert "dry" not in env.zk.topics and ("topics", "dry") not in env.zk.configs


def test_create_existing_topic(env: Env) -> None:
    """A topic known to the metadata cache, or only to ZooKeeper, gives TOPIC_ALREADY_EXISTS with Kafka's
    message."""
    update_cache(env.cache, env.broker_ids, {"cached": [0]})
    env.zk.topics["written"] = {0: ReplicaAssignment((0,))}
    results = create(env, creatable("cached"), creatable("written"))
    assert error_of(results["cached"]) == (Errors.TOPIC_ALREADY_EXISTS, "Topic 'cached' already exists.")
    assert error_of(results["written"]) == (Errors.TOPIC_ALREADY_EXISTS, "Topic 'written' already exists.")


def test_create_topic_replication_factor_larger_than_brokers(env: Env) -> None:
    """A replication factor above the number of live brokers gives INVALID_REPLICATION_FACTOR with Kafka's
    message."""
    results = create(env, creatable("t", 1, 4))
    assert error_of(results["t"]) == (
        Errors.INVALID_REPLICATION_FACTOR,
        "Replication factor: 4 larger than available brokers: 3.",
    )
    assert "t" not in env.zk.topics


def test_create_topic_request_errors(env: Env) -> None:
    """Kafka's per-topic errors: counts and assignment both set, null config values, bad config values, unknown
    config names, zero partitions, illegal names."""
    results = create(
        env,
        creatable("both", 1, 1, assignments={0: [0]}),
        creatable("null", configs={"retention.ms": None}),
        creatable("value", configs={"retention.ms": "soon"}),
        creatable("unknown", configs={"no.such.config": "1"}),
        creatable("zero", 0, 1),
        creatable("bad name"),
    )
    assert error_of(results["both"]) == (
        Errors.INVALID_REQUEST,
        "Both numPartitions or replicationFactor and replicasAssignments were set. "
        "Both cannot be used at the same time.",
    )
    assert error_of(results["null"]) == (
        Errors.INVALID_REQUEST,
        "Null value not supported for topic configs : retention.ms",
    )
    assert error_of(results["value"]) == (
        Errors.INVALID_CONFIG,
        "Invalid value soon for configuration retention.ms: Not a number of type LONG",
    )
    assert error_of(results["unknown"]) == (Errors.INVALID_CONFIG, "Unknown topic config name: no.such.config")
    assert error_of(results["zero"]) == (Errors.INVALID_PARTITIONS, "Number of partitions must be larger than 0.")
    assert results["bad name"].error is Errors.INVALID_TOPIC_EXCEPTION
    assert env.zk.topics == {}


def test_create_topic_with_manual_assignment(env: Env) -> None:
    """A manual assignment is written as given; one that is not a 0-based sequence is refused."""
    results = create(
        env, creatable("manual", assignments={0: [2, 1], 1: [1, 0]}), creatable("gap", assignments={1: [0]})
    )
    assert results["manual"].error is Errors.REQUEST_TIMED_OUT
    assert env.zk.topics["manual"] == {0: ReplicaAssignment((2, 1)), 1: ReplicaAssignment((1, 0))}
    assert error_of(results["gap"]) == (
        Errors.INVALID_REPLICA_ASSIGNMENT,
        "partitions should be a consecutive 0-based integer sequence",
    )


def test_create_topic_fills_in_configs_and_metadata(env: Env) -> None:
    """For CreateTopics v5+, the results asked for get the partition count, replication factor, topic id and every
    topic config with its source; the topic's own configs are written to ZooKeeper."""
    result = CreateTopicsResponseData.CreatableTopicResult(name="t")
    create(env, creatable("t", 2, 2, configs={"retention.ms": "1000"}), include={"t": result})
    assert env.zk.configs[("topics", "t")] == {"retention.ms": "1000"}
    assert (result.num_partitions, result.replication_factor) == (2, 2)
    assert result.topic_id == env.zk.topic_ids["t"] and result.topic_id != Uuid(0, 0)
    configs = {c.name: c for c in result.configs}
    assert (configs["retention.ms"].value, configs["retention.ms"].config_source) == ("1000", ConfigSource.TOPIC_CONFIG)
    assert configs["segment.bytes"].config_source == ConfigSource.DEFAULT_CONFIG
    assert not configs["segment.bytes"].read_only and not configs["segment.bytes"].is_sensitive


# ---- DeleteTopics -------------------------------------------------------------------------------------------


def test_delete_topics_waits_until_topics_are_gone(env: Env) -> None:
    """A topic is marked for deletion and the answer waits until the metadata cache drops it; deleting a topic
    already marked waits too; an unknown topic fails at once."""
    env.zk.topics.update({"a": {0: ReplicaAssignment((0,))}, "b": {0: ReplicaAssignment((0,))}})
    env.zk.deletions.append("b")
    update_cache(env.cache, env.broker_ids, {"a": [0], "b": [0]})
    env.manager.delete_topics(30_000, ["a", "b", "missing"], None, env.callback)
    assert env.zk.deletions == ["b", "a"]
    assert env.results == []

    update_cache(env.cache, env.broker_ids, {"a": [LEADER_DURING_DELETE], "b": [LEADER_DURING_DELETE]})
    env.manager.try_complete_delayed_topic_operations("a")
    assert env.results == [{"a": Errors.NONE, "b": Errors.NONE, "missing": Errors.UNKNOWN_TOPIC_OR_PARTITION}]


def test_delete_topics_without_timeout(env: Env) -> None:
    """Timeout 0 answers at once: REQUEST_TIMED_OUT for the marked topic."""
    env.zk.topics["a"] = {0: ReplicaAssignment((0,))}
    env.manager.delete_topics(0, ["a"], None, env.callback)
    assert env.results == [{"a": Errors.REQUEST_TIMED_OUT}]


# ---- CreatePartitions ---------------------------------------------------------------------------------------


def new_partitions(name: str, count: int, assignments: list[list[int]] | None = None) -> Any:
    topic = CreatePartitionsRequestData.CreatePartitionsTopic(name=name, count=count, assignments=None)
    if assignments is not None:
        topic.assignments = [CreatePartitionsRequestData.CreatePartitionsAssignment(broker_ids=b) for b in assignments]
    return topic


def test_create_partitions(env: Env) -> None:
    """Growing a topic writes the new assignment and waits for the new partitions' leaders; shrinking, no change,
    unknown topics and bad assignments fail with Kafka's messages."""
    env.zk.topics["t"] = {0: ReplicaAssignment((0, 1)), 1: ReplicaAssignment((1, 2))}
    env.manager.create_partitions(
        30_000,
        [
            new_partitions("t", 4, [[2, 0], [0, 1]]),
        ],
        False,
        None,
        env.callback,
    )
    assert env.zk.topics["t"][2].replicas == (2, 0) and env.zk.topics["t"][3].replicas == (0, 1)
    assert env.results == []
    env.elect_leaders({"t": 4})
    assert env.results == [{"t": ApiError.NONE}]

    env.manager.create_partitions(
        30_000,
        [
            new_partitions("t", 2),
            new_partitions("t2", 4),
            new_partitions("missing", 3),
            new_partitions("t3", 6, [[0, 9]]),
            new_partitions("t4", 6, [[0, 1]]),
        ],
        False,
        None,
        env.callback,
    )
    env.zk.topics.update({n: {0: ReplicaAssignment((0, 1))} for n in ("t3", "t4")})
    results = env.results.pop()
    assert error_of(results["t"]) == (
        Errors.INVALID_PARTITIONS,
        "Topic currently has 4 partitions, which is higher than the requested 2.",
    )
    assert error_of(results["missing"]) == (Errors.UNKNOWN_TOPIC_OR_PARTITION, "The topic 'missing' does not exist.")
    env.manager.create_partitions(
        0,
        [new_partitions("t", 4), new_partitions("t3", 2, [[0, 9]]), new_partitions("t4", 3, [[0, 1]])],
        False,
        None,
        env.callback,
    )
    results = env.results.pop()
    assert error_of(results["t"]) == (Errors.INVALID_PARTITIONS, "Topic already has 4 partitions.")
    assert error_of(results["t3"]) == (Errors.INVALID_REPLICA_ASSIGNMENT, "Unknown broker(s) in replica assignment: 9.")
    assert error_of(results["t4"]) == (
        Errors.INVALID_REPLICA_ASSIGNMENT,
        "Increasing the number of partitions by 2 but 1 assignments provided.",
    )


def test_create_partitions_validate_only(env: Env) -> None:
    """validate_only answers NONE and leaves the assignment alone."""
    env.zk.topics["t"] = {0: ReplicaAssignment((0,))}
    env.manager.create_partitions(30_000, [new_partitions("t", 3)], True, None, env.callback)
    assert env.results == [{"t": ApiError.NONE}]
    assert list(env.zk.topics["t"]) == [0]


# ---- AlterConfigs -------------------------------------------------------------------------------------------


def topic_resource(name: str) -> ConfigResource:
    return ConfigResource(ConfigResource.Type.TOPIC, name)


def broker_resource(name: str) -> ConfigResource:
    return ConfigResource(ConfigResource.Type.BROKER, name)


def test_alter_topic_configs(env: Env) -> None:
    """AlterConfigs replaces a topic's overrides and notifies the brokers; unknown topics, bad values and null
    values fail; validate_only writes nothing."""
    env.zk.topics["t"] = {0: ReplicaAssignment((0,))}
    update_cache(env.cache, env.broker_ids, {"t": [0]})
    env.zk.configs[("topics", "t")] = {"segment.bytes": "100000"}

    results = env.manager.alter_configs(
        {
            topic_resource("t"): {"retention.ms": "1000", "cleanup.policy": "compact"},
            topic_resource("missing"): {"retention.ms": "1"},
        },
        False,
    )
    assert results[topic_resource("t")] == ApiError.NONE
    assert env.zk.configs[("topics", "t")] == {"retention.ms": "1000", "cleanup.policy": "compact"}
    assert env.zk.notifications == ["topics/t"]
    assert error_of(results[topic_resource("missing")]) == (
        Errors.UNKNOWN_TOPIC_OR_PARTITION,
        "The topic 'missing' does not exist.",
    )

    results = env.manager.alter_configs({topic_resource("t"): {"retention.ms": "x"}}, False)
    assert error_of(results[topic_resource("t")]) == (
        Errors.INVALID_REQUEST,
        "Invalid config value for resource ConfigResource(type=TOPIC, name='t'): "
        "Invalid value x for configuration retention.ms: Not a number of type LONG",
    )
    results = env.manager.alter_configs({topic_resource("t"): {"retention.ms": None}}, False)
    assert error_of(results[topic_resource("t")]) == (
        Errors.INVALID_REQUEST,
        "Null value not supported for : retention.ms",
    )
    assert env.manager.alter_configs({topic_resource("t"): {"retention.ms": "5"}}, True) == {
        topic_resource("t"): ApiError.NONE
    }
    assert env.zk.configs[("topics", "t")]["retention.ms"] == "1000" and len(env.zk.notifications) == 1


def test_alter_broker_configs(env: Env) -> None:
    """Dynamic broker configs go to /config/brokers/<id> or <default> with a notification; keys that are not
    dynamic, other brokers' ids and broker loggers are refused with Kafka's messages."""
    results = env.manager.alter_configs(
        {broker_resource("0"): {"log.cleaner.threads": "2"}, broker_resource(""): {"log.retention.ms": "60000"}}, False
    )
    assert set(results.values()) == {ApiError.NONE}
    assert env.zk.configs[("brokers", "0")] == {"log.cleaner.threads": "2"}
    assert env.zk.configs[("brokers", "<default>")] == {"log.retention.ms": "60000"}
    assert sorted(env.zk.notifications) == ["brokers/0", "brokers/<default>"]

    results = env.manager.alter_configs(
        {
            broker_resource("0"): {"log.dirs": "/elsewhere"},
            broker_resource("1"): {"log.cleaner.threads": "2"},
            ConfigResource(ConfigResource.Type.BROKER_LOGGER, "0"): {"kafka": "DEBUG"},
        },
        False,
    )
    assert error_of(results[broker_resource("0")]) == (
        Errors.INVALID_REQUEST,
        "Invalid config value for resource ConfigResource(type=BROKER, name='0'): "
        "Cannot update these configs dynamically: Set(log.dirs)",
    )
    assert error_of(results[broker_resource("1")]) == (
        Errors.INVALID_REQUEST,
        "Unexpected broker id, expected 0, but received 1",
    )
    assert error_of(results[ConfigResource(ConfigResource.Type.BROKER_LOGGER, "0")]) == (
        Errors.INVALID_REQUEST,
        "AlterConfigs is only supported for topics and brokers, but resource type is BROKER_LOGGER",
    )
    assert len(env.zk.notifications) == 2


# ---- IncrementalAlterConfigs --------------------------------------------------------------------------------


def op(name: str, op_type: OpType, value: str | None = None) -> Any:
    return IncrementalAlterConfigsRequestData.AlterableConfig(name=name, config_operation=op_type, value=value)


def test_incremental_alter_topic_configs(env: Env) -> None:
    """SET, DELETE, APPEND and SUBTRACT edit the topic's stored overrides (list configs start from their default);
    appending to a non-list config, duplicate keys and null values are refused."""
    env.zk.topics["t"] = {0: ReplicaAssignment((0,))}
    update_cache(env.cache, env.broker_ids, {"t": [0]})
    env.zk.configs[("topics", "t")] = {"segment.bytes": "100000", "retention.ms": "5"}
    results = env.manager.incremental_alter_configs(
        {
            topic_resource("t"): [
                op("segment.bytes", OpType.SET, "200000"),
                op("retention.ms", OpType.DELETE),
                op("cleanup.policy", OpType.APPEND, "compact"),
                op("leader.replication.throttled.replicas", OpType.SET, "0:0,1:0,2:1"),
            ]
        },
        False,
    )
    assert results == {topic_resource("t"): ApiError.NONE}
    assert env.zk.configs[("topics", "t")] == {
        "segment.bytes": "200000",
        "cleanup.policy": "delete,compact",
        "leader.replication.throttled.replicas": "0:0,1:0,2:1",
    }
    results = env.manager.incremental_alter_configs(
        {
            topic_resource("t"): [
                op("cleanup.policy", OpType.SUBTRACT, "delete"),
                op("leader.replication.throttled.replicas", OpType.SUBTRACT, "1:0"),
            ]
        },
        False,
    )
    assert results == {topic_resource("t"): ApiError.NONE}
    stored = env.zk.configs[("topics", "t")]
    assert (stored["cleanup.policy"], stored["leader.replication.throttled.replicas"]) == ("compact", "0:0,2:1")

    bad = env.manager.incremental_alter_configs({topic_resource("t"): [op("segment.bytes", OpType.APPEND, "1")]}, False)
    assert error_of(bad[topic_resource("t")]) == (
        Errors.INVALID_REQUEST,
        "Config value append is not allowed for config key: segment.bytes",
    )
    bad = env.manager.incremental_alter_configs(
        {topic_resource("t"): [op("segment.bytes", OpType.SET, "1"), op("segment.bytes", OpType.DELETE)]}, False
    )
    assert error_of(bad[topic_resource("t")]) == (
        Errors.INVALID_REQUEST,
        "Error due to duplicate config keys : segment.bytes",
    )
    bad = env.manager.incremental_alter_configs({topic_resource("t"): [op("segment.bytes", OpType.SET, None)]}, False)
    assert error_of(bad[topic_resource("t")]) == (
        Errors.INVALID_REQUEST,
        "Null value not supported for : SET:segment.bytes",
    )
    bad = env.manager.incremental_alter_configs({topic_resource("t"): [op("no.such", OpType.APPEND, "x")]}, False)
    assert error_of(bad[topic_resource("t")]) == (Errors.INVALID_CONFIG, "Unknown topic config name: no.such")


def test_incremental_alter_broker_configs(env: Env) -> None:
    """Incremental broker updates start from the stored dynamic configs of that level."""
    env.zk.configs[("brokers", "0")] = {"log.cleaner.threads": "2", "num.io.threads": "9"}
    results = env.manager.incremental_alter_configs(
        {broker_resource("0"): [op("log.cleaner.threads", OpType.SET, "3"), op("num.io.threads", OpType.DELETE)]},
        False,
    )
    assert results == {broker_resource("0"): ApiError.NONE}
    assert env.zk.configs[("brokers", "0")] == {"log.cleaner.threads": "3"}
    results = env.manager.incremental_alter_configs({broker_resource(""): [op("log.dirs", OpType.SET, "/x")]}, False)
    assert error_of(results[broker_resource("")]) == (
        Errors.INVALID_REQUEST,
        "Invalid config value for resource ConfigResource(type=BROKER, name=''): "
        "Cannot update these configs dynamically: Set(log.dirs)",
    )


def test_incremental_alter_broker_logger(env: Env) -> None:
    """BROKER_LOGGER sets and unsets logger levels; unknown loggers, bad levels, APPEND and unsetting the root
    logger are refused."""
    logger = logging.getLogger("kafka.server.ZkAdminManagerTestLogger")
    resource = ConfigResource(ConfigResource.Type.BROKER_LOGGER, "0")
    try:
        assert env.manager.incremental_alter_configs(
            {resource: [op("kafka.server.ZkAdminManagerTestLogger", OpType.SET, "TRACE")]}, False
        ) == {resource: ApiError.NONE}
        assert logger.level == 5
        assert env.manager.incremental_alter_configs(
            {resource: [op("kafka.server.ZkAdminManagerTestLogger", OpType.DELETE)]}, False
        ) == {resource: ApiError.NONE}
        assert logger.level == logging.NOTSET
    finally:
        logger.setLevel(logging.NOTSET)

    def error(*ops: Any) -> tuple[Errors, str | None]:
        return error_of(env.manager.incremental_alter_configs({resource: list(ops)}, False)[resource])

    assert error(op("no.such.logger", OpType.SET, "INFO")) == (
        Errors.INVALID_REQUEST,
        "Invalid config value for resource ConfigResource(type=BROKER_LOGGER, name='0'): "
        "Logger no.such.logger does not exist!",
    )
    assert error(op("root", OpType.SET, "LOUD"))[1].endswith(  # type: ignore[union-attr]
        "Cannot set the log level of root to LOUD as it is not a supported log level. "
        "Valid log levels are DEBUG, ERROR, FATAL, INFO, TRACE, WARN"
    )
    assert error(op("root", OpType.DELETE)) == (
        Errors.INVALID_REQUEST,
        "Removing the log level of the root logger is not allowed",
    )
    assert error(op("root", OpType.APPEND, "x")) == (
        Errors.INVALID_REQUEST,
        "APPEND operation is not allowed for the BROKER_LOGGER resource",
    )


# ---- auto topic creation ------------------------------------------------------------------------------------


def test_auto_topic_creation(env: Env) -> None:
    """Missing topics are created with the broker defaults and answered LEADER_NOT_AVAILABLE (also when someone
    created them meanwhile); illegal names get INVALID_TOPIC_EXCEPTION without a write."""
    auto = DefaultAutoTopicCreationManager(env.config, env.manager)
    env.zk.topics["raced"] = {0: ReplicaAssignment((0,))}
    responses = {r.name: r for r in auto.create_topics(["new", "raced", "bad name"], None)}
    assert responses["new"].error_code == Errors.LEADER_NOT_AVAILABLE.code and not responses["new"].is_internal
    assert responses["raced"].error_code == Errors.LEADER_NOT_AVAILABLE.code
    assert responses["bad name"].error_code == Errors.INVALID_TOPIC_EXCEPTION.code
    assert len(env.zk.topics["new"]) == 3
    assert "bad name" not in env.zk.topics


def test_auto_create_internal_topics(env: Env) -> None:
    """__consumer_offsets and __transaction_state get their own partition counts, replication factors and configs;
    too few brokers for the replication factor gives INVALID_REPLICATION_FACTOR."""
    config = KafkaConfig(
        {
            "zookeeper.connect": "x",
            "broker.id": "0",
            "offsets.topic.num.partitions": "5",
            "offsets.topic.replication.factor": "2",
            "transaction.state.log.num.partitions": "4",
            "transaction.state.log.replication.factor": "4",
        },
        False,
    )
    auto = DefaultAutoTopicCreationManager(config, env.manager)
    responses = {r.name: r for r in auto.create_topics(["__consumer_offsets", "__transaction_state"], None)}
    offsets = responses["__consumer_offsets"]
    assert (offsets.error_code, offsets.is_internal) == (Errors.LEADER_NOT_AVAILABLE.code, True)
    assert len(env.zk.topics["__consumer_offsets"]) == 5
    assert all(len(ra.replicas) == 2 for ra in env.zk.topics["__consumer_offsets"].values())
    assert env.zk.configs[("topics", "__consumer_offsets")] == {
        "cleanup.policy": "compact",
        "segment.bytes": "104857600",
        "compression.type": "producer",
    }
    assert responses["__transaction_state"].error_code == Errors.INVALID_REPLICATION_FACTOR.code


def test_auto_topic_creation_in_flight(env: Env) -> None:
    """A topic this broker is creating right now is answered UNKNOWN_TOPIC_OR_PARTITION to a second request, and
    can be asked for again once the first creation is done."""
    auto = DefaultAutoTopicCreationManager(env.config, env.manager)
    inner: list[Any] = []
    env.zk.on_create_topic = lambda topic: inner.extend(auto.create_topics([topic], None)) if not inner else None
    outer = auto.create_topics(["t"], None)
    assert [(r.name, r.error_code) for r in inner] == [("t", Errors.UNKNOWN_TOPIC_OR_PARTITION.code)]
    assert [(r.name, r.error_code) for r in outer] == [("t", Errors.LEADER_NOT_AVAILABLE.code)]
    env.zk.on_create_topic = None
    again = auto.create_topics(["t"], None)
    assert [(r.name, r.error_code) for r in again] == [("t", Errors.LEADER_NOT_AVAILABLE.code)]
