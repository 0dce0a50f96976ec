"""The admin path against a real ZooKeeper: ZkAdminManager writing topics, configs and deletions with Kafka's data,
DynamicConfigManager following /config/changes into its config handlers, and ProducerIdManager claiming blocks of
producer ids from /latest_producer_id_block. The metadata cache is fed as the controller would feed it."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from kazoo.client import KazooClient

from kafka.common.config.config_resource import ConfigResource
from kafka.common.message import (
    CreateTopicsRequestData,
    DescribeConfigsRequestData,
    IncrementalAlterConfigsRequestData,
    UpdateMetadataRequestData,
)
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_configs_response import ConfigSource
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.utils.time import MockTime, Time
from kafka.coordinator.transaction.producer_id_manager import ProducerIdManager
from kafka.server.config_handler import BrokerConfigHandler, ConfigHandler
from kafka.server.dynamic_config_manager import DynamicConfigManager
from kafka.server.kafka_config import KafkaConfig
from kafka.server.metadata_cache import ZkMetadataCache
from kafka.server.zk_admin_manager import OpType, ZkAdminManager
from kafka.zk.kafka_zk_client import KafkaZkClient
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

PLAINTEXT = ListenerName("PLAINTEXT")


def _kafka_zk_client(connect_string: str) -> KafkaZkClient:
    return KafkaZkClient.apply(connect_string, False, 10000, 10000, 10, Time.SYSTEM, name="test")


@pytest.fixture
def zk_client(zookeeper: ZooKeeperServer, zk_chroot: str) -> Iterator[KafkaZkClient]:
    """A KafkaZkClient on the test's chroot with the broker's top-level paths, as KafkaServer makes it."""
    KafkaZkClient.create_chroot_path(zookeeper.connect_string + zk_chroot, False, 10000, 10000, 10, Time.SYSTEM)
    client = _kafka_zk_client(zookeeper.connect_string + zk_chroot)
    client.create_top_level_paths()
    yield client
    client.close()


@pytest.fixture
def root(zookeeper: ZooKeeperServer, zk_chroot: str, zk_client: KafkaZkClient) -> Iterator[KazooClient]:
    """A plain kazoo client on the chroot, to read what was written."""
    client = KazooClient(hosts=zookeeper.connect_string + zk_chroot, timeout=10.0)
    client.start(timeout=10.0)
    yield client
    client.stop()
    client.close()


@pytest.fixture
def config() -> KafkaConfig:
    return KafkaConfig(
        {
            "zookeeper.connect": "unused:2181",
            "broker.id": "0",
            "num.partitions": "2",
            "default.replication.factor": "1",
        },
        False,
    )


def update_cache(cache: ZkMetadataCache, broker_ids: Sequence[int], leaders: Mapping[str, int]) -> None:
    """An UpdateMetadata as the controller sends it: the live brokers, and topics (name -> partitions) led by the
    first broker."""
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
            leader=broker_ids[0],
            leader_epoch=0,
            isr=[broker_ids[0]],
            zk_version=0,
            replicas=[broker_ids[0]],
            offline_replicas=[],
        )
        for topic, count in leaders.items()
        for p in range(count)
    ]
    cache.update_metadata(1, UpdateMetadataRequestBuilder(7, 0, 1, 0, states, brokers, {}).build())


@pytest.fixture
def cache() -> ZkMetadataCache:
    c = ZkMetadataCache(0)
    update_cache(c, [0], {})
    return c


@pytest.fixture
def manager(config: KafkaConfig, cache: ZkMetadataCache, zk_client: KafkaZkClient) -> Iterator[ZkAdminManager]:
    admin = ZkAdminManager(config, None, cache, zk_client)
    yield admin
    admin.shutdown()


def create_topics(manager: ZkAdminManager, *topics: Any, timeout: int = 0) -> dict[str, ApiError]:
    answers: list[dict[str, ApiError]] = []
    manager.create_topics(timeout, False, {t.name: t for t in topics}, {}, None, answers.append)
    wait_until_true(lambda: bool(answers), "the CreateTopics answer", timeout=10)
    return answers[0]


def creatable(name: str, partitions: int = -1, replication_factor: int = -1, **configs: str) -> Any:
    topic = CreateTopicsRequestData.CreatableTopic(
        name=name, num_partitions=partitions, replication_factor=replication_factor
    )
    for k, v in configs.items():
        topic.configs.append(CreateTopicsRequestData.CreateableTopicConfig(name=k.replace("_", "."), value=v))
    return topic


class RecordingHandler(ConfigHandler):
    """Remembers every (entity, config) it is handed, from any thread."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, str]]] = []
        self._lock = threading.Lock()

    def process_config_changes(self, entity_name: str, value: Mapping[str, str]) -> None:
        with self._lock:
            self.calls.append((entity_name, dict(value)))

    def saw(self, entity_name: str, value: Mapping[str, str]) -> bool:
        with self._lock:
            return (entity_name, dict(value)) in self.calls


def test_create_topic_writes_kafka_data(manager: ZkAdminManager, cache: ZkMetadataCache, root: KazooClient) -> None:
    """CreateTopics writes /brokers/topics/T (Kafka's version-3 JSON with a topic id) and the requested configs in
    /config/topics/T, and answers once the controller's metadata shows the partitions' leaders."""
    answers: list[dict[str, ApiError]] = []
    manager.create_topics(
        30_000, False, {"t": creatable("t", retention_ms="1000", cleanup_policy="compact")}, {}, None, answers.append
    )
    topic = json.loads(root.get("/brokers/topics/t")[0])
    assert set(topic) == {"version", "topic_id", "partitions", "adding_replicas", "removing_replicas"}
    assert topic["version"] == 3 and topic["partitions"] == {"0": [0], "1": [0]}
    assert topic["adding_replicas"] == {} and topic["removing_replicas"] == {} and len(topic["topic_id"]) == 22
    assert json.loads(root.get("/config/topics/t")[0]) == {
        "version": 1,
        "config": {"retention.ms": "1000", "cleanup.policy": "compact"},
    }
    assert root.get_children("/config/changes") == []  # creation writes no change notification, as in Kafka
    assert answers == []

    update_cache(cache, [0], {"t": 2})
    manager.try_complete_delayed_topic_operations("t")
    assert answers == [{"t": ApiError.NONE}]


def test_create_existing_topic_and_too_large_replication_factor(
    manager: ZkAdminManager, cache: ZkMetadataCache
) -> None:
    """A topic already in ZooKeeper gives TOPIC_ALREADY_EXISTS; a replication factor above the live brokers gives
    INVALID_REPLICATION_FACTOR, with Kafka's messages."""
    assert create_topics(manager, creatable("t", 1, 1))["t"].error is Errors.REQUEST_TIMED_OUT  # written, no leader
    results = create_topics(manager, creatable("t", 1, 1), creatable("wide", 3, 2))
    assert (results["t"].error, results["t"].message) == (Errors.TOPIC_ALREADY_EXISTS, "Topic 't' already exists.")
    assert (results["wide"].error, results["wide"].message) == (
        Errors.INVALID_REPLICATION_FACTOR,
        "Replication factor: 2 larger than available brokers: 1.",
    )
    update_cache(cache, [0], {"t": 1})
    assert create_topics(manager, creatable("t"))["t"].message == "Topic 't' already exists."


def test_delete_topic_marks_it_for_deletion(manager: ZkAdminManager, root: KazooClient) -> None:
    """DeleteTopics creates /admin/delete_topics/T; an unknown topic is UNKNOWN_TOPIC_OR_PARTITION."""
    create_topics(manager, creatable("t", 1, 1))
    answers: list[dict[str, Errors]] = []
    manager.delete_topics(0, ["t", "missing"], None, answers.append)
    assert answers == [{"t": Errors.REQUEST_TIMED_OUT, "missing": Errors.UNKNOWN_TOPIC_OR_PARTITION}]
    assert root.exists("/admin/delete_topics/t") is not None


def test_config_changes_reach_the_handlers(
    manager: ZkAdminManager, cache: ZkMetadataCache, zk_client: KafkaZkClient, root: KazooClient, config: KafkaConfig
) -> None:
    """AlterConfigs and IncrementalAlterConfigs write the topic's configs and a version-2 change notification, which
    makes DynamicConfigManager hand the topic's full config to the topic handler; a broker default change reaches
    BrokerConfigHandler and shows as DYNAMIC_DEFAULT_BROKER_CONFIG."""
    create_topics(manager, creatable("t", 1, 1, retention_ms="1000"))
    update_cache(cache, [0], {"t": 1})
    topics = RecordingHandler()
    dynamic_config_manager = DynamicConfigManager(zk_client, {"topics": topics, "brokers": BrokerConfigHandler(config)})
    dynamic_config_manager.startup()
    try:
        assert topics.saw("t", {"retention.ms": "1000"})  # startup applies the existing configs once

        t = ConfigResource(ConfigResource.Type.TOPIC, "t")
        assert manager.alter_configs({t: {"segment.bytes": "1048576"}}, False) == {t: ApiError.NONE}
        assert json.loads(root.get("/config/topics/t")[0])["config"] == {"segment.bytes": "1048576"}
        (change,) = root.get_children("/config/changes")
        assert change.startswith("config_change_")
        assert json.loads(root.get(f"/config/changes/{change}")[0]) == {"version": 2, "entity_path": "topics/t"}
        wait_until_true(lambda: topics.saw("t", {"segment.bytes": "1048576"}), "the topic handler to get the change")

        set_retention = IncrementalAlterConfigsRequestData.AlterableConfig(
            name="retention.ms", config_operation=OpType.SET, value="2000"
        )
        assert manager.incremental_alter_configs({t: [set_retention]}, False) == {t: ApiError.NONE}
        expected = {"segment.bytes": "1048576", "retention.ms": "2000"}
        assert json.loads(root.get("/config/topics/t")[0])["config"] == expected
        wait_until_true(lambda: topics.saw("t", expected), "the topic handler to get the incremental change")

        default = ConfigResource(ConfigResource.Type.BROKER, "")
        assert manager.alter_configs({default: {"log.retention.ms": "60000"}}, False) == {default: ApiError.NONE}
        assert json.loads(root.get("/config/brokers/<default>")[0])["config"] == {"log.retention.ms": "60000"}
        wait_until_true(lambda: config.log_retention_time_millis == 60000, "the broker default to apply")
        keys = DescribeConfigsRequestData.DescribeConfigsResource(
            resource_type=4, resource_name="0", configuration_keys=["log.retention.ms"]
        )
        (described,) = manager.config_helper.describe_configs([keys], False, False)
        (entry,) = described.configs
        assert (entry.value, entry.config_source) == ("60000", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
    finally:
        dynamic_config_manager.shutdown()
    assert not any(t.name == "/config/changes-event-process-thread" for t in threading.enumerate())


def test_version_1_notifications_and_expiry(zk_client: KafkaZkClient, root: KazooClient) -> None:
    """A version-1 notification is processed like a version-2 one; notifications older than the expiration are
    deleted after processing; non-JSON notifications are ignored."""
    root.create("/config/topics/old", b'{"version":1,"config":{"flush.ms":"10"}}')
    root.create("/config/changes/config_change_", b"not json", sequence=True)
    root.create(
        "/config/changes/config_change_",
        b'{"version":1,"entity_type":"topics","entity_name":"old"}',
        sequence=True,
    )
    topics = RecordingHandler()
    later = MockTime(start_ms=int(time.time() * 1000) + 60 * 60 * 1000)  # an hour from now: all notifications expired
    manager = DynamicConfigManager(zk_client, {"topics": topics}, change_expiration_ms=1000, time=later)
    manager.startup()
    try:
        wait_until_true(lambda: root.get_children("/config/changes") == [], "expired notifications to be purged")
        assert topics.calls.count(("old", {"flush.ms": "10"})) == 2  # from startup, then from the notification
    finally:
        manager.shutdown()


def test_producer_id_blocks_across_managers(
    zk_client: KafkaZkClient, zookeeper: ZooKeeperServer, zk_chroot: str, root: KazooClient
) -> None:
    """Two managers sharing /latest_producer_id_block claim increasing, disjoint blocks of 1000 ids, recorded in
    Kafka's version-1 JSON."""
    other_client = _kafka_zk_client(zookeeper.connect_string + zk_chroot)
    try:
        first = ProducerIdManager(0, zk_client)
        second = ProducerIdManager(1, other_client)
        assert json.loads(root.get("/latest_producer_id_block")[0]) == {
            "version": 1,
            "broker": 1,
            "block_start": "1000",
            "block_end": "1999",
        }
        first_ids = [first.generate_producer_id() for _ in range(1001)]
        second_ids = [second.generate_producer_id() for _ in range(3)]
        assert first_ids[:1000] == list(range(1000)) and first_ids[1000] == 2000
        assert second_ids == [1000, 1001, 1002]
        assert json.loads(root.get("/latest_producer_id_block")[0])["block_start"] == "2000"
        third = ProducerIdManager(2, zk_client)
        assert third.generate_producer_id() == 3000
    finally:
        other_client.close()
