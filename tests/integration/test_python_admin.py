"""Our admin client (kafka.clients.admin) against our broker started with bin/kafka-server-start.sh, each call
checked against what the broker really did: topics in ZooKeeper and in librdkafka's metadata, configs in
ZooKeeper, offsets committed and read back by confluent-kafka consumers, watermarks after deleting records, the
log directory on disk; and against Tansu (another Kafka-protocol broker) for the topic calls."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from kazoo.client import KazooClient

from kafka.clients.admin.admin import Admin
from kafka.clients.admin.alter_config_op import AlterConfigOp, OpType
from kafka.clients.admin.config import Config
from kafka.clients.admin.config_entry import ConfigEntry, ConfigSource
from kafka.clients.admin.describe_configs_options import DescribeConfigsOptions
from kafka.clients.admin.list_consumer_group_offsets_spec import ListConsumerGroupOffsetsSpec
from kafka.clients.admin.list_consumer_groups_options import ListConsumerGroupsOptions
from kafka.clients.admin.list_topics_options import ListTopicsOptions
from kafka.clients.admin.new_partitions import NewPartitions
from kafka.clients.admin.new_topic import NewTopic
from kafka.clients.admin.offset_spec import OffsetSpec
from kafka.clients.admin.records_to_delete import RecordsToDelete
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.config.config_resource import ConfigResource
from kafka.common.consumer_group_state import ConsumerGroupState
from kafka.common.election_type import ElectionType
from kafka.common.errors import (
    ElectionNotNeededException,
    GroupNotEmptyException,
    InvalidReplicationFactorException,
    InvalidTopicException,
    TopicExistsException,
    UnknownTopicOrPartitionException,
)
from kafka.common.kafka_future import ExecutionException, KafkaFuture
from kafka.common.topic_collection import TopicCollection
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_replica import TopicPartitionReplica
from tests.integration.broker import BrokerProcess
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

WAIT_MS = 30_000


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("broker"))
    b = BrokerProcess(work, zookeeper.connect_string + "/py-admin-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@pytest.fixture
def admin(broker: BrokerProcess) -> Iterator[Admin]:
    client = Admin.create({"bootstrap.servers": broker.bootstrap, "client.id": "py-admin-test"})
    yield client
    client.close(30_000)


@pytest.fixture(scope="module")
def zk(broker: BrokerProcess) -> Iterator[KazooClient]:
    client = KazooClient(hosts=broker.zk_connect, timeout=10.0)
    client.start(timeout=10.0)
    yield client
    client.stop()
    client.close()


def _cause(future: KafkaFuture[Any]) -> BaseException:
    with pytest.raises(ExecutionException) as info:
        future.get(WAIT_MS)
    return info.value.cause


def _librdkafka_partitions(bootstrap: str, topic: str) -> int | None:
    """The partition count librdkafka's metadata shows for `topic` (None when it does not list it)."""
    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "meta"})
    try:
        metadata = consumer.list_topics(topic=topic, timeout=10)
        t = metadata.topics.get(topic)
        if t is None or t.error is not None:
            return None
        return len(t.partitions)
    finally:
        consumer.close()


def _produce(bootstrap: str, topic: str, partition: int, count: int, timestamps: list[int] | None = None) -> None:
    producer = ck.Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for i in range(count):
        kwargs: dict[str, Any] = {"partition": partition}
        if timestamps is not None:
            kwargs["timestamp"] = timestamps[i]
        producer.produce(topic, value=f"v{i}".encode(), **kwargs)
    assert producer.flush(30) == 0


def _create(admin: Admin, name: str, partitions: int = 1) -> None:
    admin.create_topics([NewTopic(name, partitions, 1)]).all().get(WAIT_MS)


# -- topics -------------------------------------------------------------------------------------------------------


def test_create_topic_is_in_zookeeper_and_metadata(admin: Admin, broker: BrokerProcess, zk: KazooClient) -> None:
    """create_topics writes the assignment and configs to ZooKeeper, as Kafka's controller does, and librdkafka
    then sees the partitions; the result carries the topic id, counts and configs."""
    result = admin.create_topics([NewTopic("adm-create", 3, 1).configs({"retention.ms": "123456"})])
    result.all().get(WAIT_MS)
    assert result.num_partitions("adm-create").get(WAIT_MS) == 3
    assert result.replication_factor("adm-create").get(WAIT_MS) == 1
    config = result.config("adm-create").get(WAIT_MS)
    assert config is not None
    retention = config.get("retention.ms")
    assert retention is not None and retention.value == "123456"
    data, _ = zk.get("/brokers/topics/adm-create")
    assignment = json.loads(data)
    assert sorted(assignment["partitions"]) == ["0", "1", "2"]
    assert str(result.topic_id("adm-create").get(WAIT_MS)) == assignment["topic_id"]
    config_data, _ = zk.get("/config/topics/adm-create")
    assert json.loads(config_data)["config"] == {"retention.ms": "123456"}
    wait_until_true(lambda: _librdkafka_partitions(broker.bootstrap, "adm-create") == 3, "librdkafka to see it")


def test_create_topic_errors_and_validate_only(admin: Admin, zk: KazooClient) -> None:
    """An existing topic fails with TopicExistsException, too large a replication factor with
    InvalidReplicationFactorException, and validate_only creates nothing."""
    _create(admin, "adm-exists")
    assert isinstance(_cause(admin.create_topics([NewTopic("adm-exists", 1, 1)]).all()), TopicExistsException)
    too_many = admin.create_topics([NewTopic("adm-rf", 1, 3)]).all()
    assert isinstance(_cause(too_many), InvalidReplicationFactorException)
    from kafka.clients.admin.create_topics_options import CreateTopicsOptions

    admin.create_topics([NewTopic("adm-validate", 2, 1)], CreateTopicsOptions(validate_only=True)).all().get(WAIT_MS)
    assert zk.exists("/brokers/topics/adm-validate") is None


def test_create_topic_with_broker_defaults_and_assignment(admin: Admin, zk: KazooClient) -> None:
    """A NewTopic without counts takes the broker's num.partitions; one with an assignment gets exactly it."""
    admin.create_topics([NewTopic("adm-defaults"), NewTopic("adm-assigned", replicas_assignments={0: [0], 1: [0]})])
    wait_until_true(lambda: zk.exists("/brokers/topics/adm-assigned") is not None, "the topics in ZooKeeper")
    defaults = json.loads(zk.get("/brokers/topics/adm-defaults")[0])
    assigned = json.loads(zk.get("/brokers/topics/adm-assigned")[0])
    assert defaults["partitions"] == {"0": [0]}
    assert assigned["partitions"] == {"0": [0], "1": [0]}


def test_list_and_describe_topics(admin: Admin, broker: BrokerProcess) -> None:
    """list_topics shows user topics (internal ones only when asked); describe_topics gives partitions with the
    broker as leader (by name: by id a ZooKeeper-mode broker refuses); an unknown topic fails."""
    _create(admin, "adm-listed", 2)
    names = admin.list_topics().names().get(WAIT_MS)
    assert "adm-listed" in names and "__consumer_offsets" not in names
    listings = admin.list_topics(ListTopicsOptions(list_internal=True)).names_to_listings().get(WAIT_MS)
    description = admin.describe_topics(["adm-listed"]).all_topic_names().get(WAIT_MS)["adm-listed"]
    assert [p.partition for p in description.partitions] == [0, 1]
    assert all(p.leader is not None and p.leader.port == broker.port for p in description.partitions)
    assert description.topic_id == listings["adm-listed"].topic_id
    # A ZooKeeper-mode broker refuses topic ids in Metadata (as Kafka 3.7's does): the id is not found.
    by_id = admin.describe_topics(TopicCollection.of_topic_ids([description.topic_id])).all_topic_ids()
    not_found = _cause(by_id)
    assert isinstance(not_found, InvalidTopicException)
    assert str(not_found) == f"TopicId {description.topic_id} not found."
    missing = admin.describe_topics(["adm-missing"]).topic_name_values()
    assert missing is not None
    assert isinstance(_cause(missing["adm-missing"]), UnknownTopicOrPartitionException)


def test_create_partitions(admin: Admin, broker: BrokerProcess, zk: KazooClient) -> None:
    """create_partitions grows the topic in ZooKeeper and in librdkafka's metadata."""
    _create(admin, "adm-grow", 1)
    admin.create_partitions({"adm-grow": NewPartitions.increase_to(4)}).all().get(WAIT_MS)
    assert sorted(json.loads(zk.get("/brokers/topics/adm-grow")[0])["partitions"]) == ["0", "1", "2", "3"]
    wait_until_true(lambda: _librdkafka_partitions(broker.bootstrap, "adm-grow") == 4, "librdkafka to see 4")
    assert type(_cause(admin.create_partitions({"adm-grow": NewPartitions.increase_to(2)}).all())).__name__ == (
        "InvalidPartitionsException"
    )


def test_delete_topics(admin: Admin, zk: KazooClient) -> None:
    """delete_topics removes the topic from ZooKeeper; deleting it again fails with UnknownTopicOrPartition."""
    _create(admin, "adm-delete")
    admin.delete_topics(["adm-delete"]).all().get(WAIT_MS)
    wait_until_true(lambda: zk.exists("/brokers/topics/adm-delete") is None, "the topic to leave ZooKeeper")
    assert "adm-delete" not in admin.list_topics().names().get(WAIT_MS)
    assert isinstance(_cause(admin.delete_topics(["adm-delete"]).all()), UnknownTopicOrPartitionException)


# -- cluster and configs ----------------------------------------------------------------------------------------


def test_describe_cluster(admin: Admin, broker: BrokerProcess, zk: KazooClient) -> None:
    """describe_cluster names the broker, the controller ZooKeeper elected and the cluster id stored there."""
    result = admin.describe_cluster()
    (node,) = result.nodes().get(WAIT_MS)
    assert (node.id, node.port) == (0, broker.port)
    controller = result.controller().get(WAIT_MS)
    assert controller is not None and controller.id == json.loads(zk.get("/controller")[0])["brokerid"]
    assert result.cluster_id().get(WAIT_MS) == json.loads(zk.get("/cluster/id")[0])["id"]


def test_describe_and_alter_configs(admin: Admin, zk: KazooClient) -> None:
    """incremental_alter_configs and alter_configs change /config/topics in ZooKeeper; describe_configs reports
    each value with its source; a broker's configs come from that broker."""
    _create(admin, "adm-configs")
    topic = ConfigResource(ConfigResource.Type.TOPIC, "adm-configs")
    admin.incremental_alter_configs(
        {
            topic: [
                AlterConfigOp(ConfigEntry("cleanup.policy", "compact"), OpType.SET),
                AlterConfigOp(ConfigEntry("retention.ms", "5000"), OpType.SET),
            ]
        }
    ).all().get(WAIT_MS)
    stored = json.loads(zk.get("/config/topics/adm-configs")[0])["config"]
    assert stored == {"cleanup.policy": "compact", "retention.ms": "5000"}
    described = admin.describe_configs([topic]).all().get(WAIT_MS)[topic]
    cleanup = described.get("cleanup.policy")
    assert cleanup is not None and cleanup.value == "compact" and cleanup.source is ConfigSource.DYNAMIC_TOPIC_CONFIG
    segment = described.get("segment.bytes")
    assert segment is not None and segment.source is not ConfigSource.DYNAMIC_TOPIC_CONFIG

    admin.incremental_alter_configs(
        {topic: [AlterConfigOp(ConfigEntry("retention.ms", None), OpType.DELETE)]}
    ).all().get(WAIT_MS)
    assert json.loads(zk.get("/config/topics/adm-configs")[0])["config"] == {"cleanup.policy": "compact"}

    # The legacy call replaces the whole set.
    admin.alter_configs({topic: Config([ConfigEntry("max.message.bytes", "2000")])}).all().get(WAIT_MS)
    assert json.loads(zk.get("/config/topics/adm-configs")[0])["config"] == {"max.message.bytes": "2000"}

    bad = admin.incremental_alter_configs({topic: [AlterConfigOp(ConfigEntry("cleanup.policy", "nope"), OpType.SET)]})
    invalid = _cause(bad.all())
    assert type(invalid).__name__ == "InvalidRequestException"
    assert str(invalid).startswith(f"Invalid config value for resource {topic}")

    broker_resource = ConfigResource(ConfigResource.Type.BROKER, "0")
    broker_config = admin.describe_configs([broker_resource], DescribeConfigsOptions(include_synonyms=True))
    num_partitions = broker_config.all().get(WAIT_MS)[broker_resource].get("num.partitions")
    assert num_partitions is not None and num_partitions.value == "1" and num_partitions.synonyms


# -- consumer groups ----------------------------------------------------------------------------------------------


def _commit(bootstrap: str, group: str, offsets: dict[TopicPartition, int]) -> None:
    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        consumer.commit(
            offsets=[ck.TopicPartition(tp.topic, tp.partition, o) for tp, o in offsets.items()], asynchronous=False
        )
    finally:
        consumer.close()


def _committed(bootstrap: str, group: str, partitions: list[TopicPartition]) -> dict[TopicPartition, int]:
    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        answer = consumer.committed([ck.TopicPartition(tp.topic, tp.partition) for tp in partitions], timeout=20)
        return {TopicPartition(t.topic, t.partition): t.offset for t in answer}
    finally:
        consumer.close()


def test_consumer_group_offsets_round_trip(admin: Admin, broker: BrokerProcess) -> None:
    """Offsets committed by librdkafka are listed by our client; offsets we alter are read back by librdkafka;
    offsets we delete are gone for librdkafka too; then the empty group can be deleted."""
    _create(admin, "adm-offsets", 2)
    tp0, tp1 = TopicPartition("adm-offsets", 0), TopicPartition("adm-offsets", 1)
    _commit(broker.bootstrap, "adm-g1", {tp0: 5, tp1: 7})
    listed = admin.list_consumer_group_offsets("adm-g1").partitions_to_offset_and_metadata().get(WAIT_MS)
    assert {tp: om.offset for tp, om in listed.items() if om is not None} == {tp0: 5, tp1: 7}

    admin.alter_consumer_group_offsets("adm-g1", {tp0: OffsetAndMetadata(2, "admin")}).all().get(WAIT_MS)
    assert _committed(broker.bootstrap, "adm-g1", [tp0, tp1]) == {tp0: 2, tp1: 7}
    # A consumer of the group resumes where the altered offset says.
    _produce(broker.bootstrap, "adm-offsets", 0, 5)
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "adm-g1", "enable.auto.commit": False})
    try:
        consumer.assign([ck.TopicPartition("adm-offsets", 0)])
        first = None
        deadline = time.monotonic() + 30
        while first is None and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                first = msg
        assert first is not None and first.offset() == 2 and first.value() == b"v2"
    finally:
        consumer.close()
    after = admin.list_consumer_group_offsets("adm-g1").partitions_to_offset_and_metadata().get(WAIT_MS)
    altered = after[tp0]
    assert altered is not None and altered.metadata == "admin"

    admin.delete_consumer_group_offsets("adm-g1", [tp1]).all().get(WAIT_MS)
    assert _committed(broker.bootstrap, "adm-g1", [tp0, tp1]) == {tp0: 2, tp1: -1001}

    _commit(broker.bootstrap, "adm-g2", {tp0: 1})
    both = (
        admin.list_consumer_group_offsets(
            {"adm-g1": ListConsumerGroupOffsetsSpec([tp0]), "adm-g2": ListConsumerGroupOffsetsSpec()}
        )
        .all()
        .get(WAIT_MS)
    )
    assert {g: {tp: om.offset for tp, om in o.items() if om is not None} for g, o in both.items()} == {
        "adm-g1": {tp0: 2},
        "adm-g2": {tp0: 1},
    }

    admin.delete_consumer_groups(["adm-g1", "adm-g2"]).all().get(WAIT_MS)
    assert _committed(broker.bootstrap, "adm-g1", [tp0]) == {tp0: -1001}
    remaining = {g.group_id for g in admin.list_consumer_groups().all().get(WAIT_MS)}
    assert not {"adm-g1", "adm-g2"} & remaining


def test_list_and_describe_an_active_group(admin: Admin, broker: BrokerProcess) -> None:
    """A librdkafka consumer in a group shows up in list_consumer_groups (state filter too) and in
    describe_consumer_groups with its assignment; the group cannot be deleted while it has members."""
    _create(admin, "adm-active", 3)
    consumer = ck.Consumer(
        {"bootstrap.servers": broker.bootstrap, "group.id": "adm-active-g", "client.id": "lib-consumer"}
    )
    consumer.subscribe(["adm-active"])
    try:

        def assigned() -> bool:
            consumer.poll(0.2)
            return len(consumer.assignment()) == 3

        wait_until_true(assigned, "the consumer to get its partitions", timeout=60)
        stable = admin.list_consumer_groups(ListConsumerGroupsOptions(states=[ConsumerGroupState.STABLE]))
        listing = {g.group_id: g for g in stable.all().get(WAIT_MS)}
        assert listing["adm-active-g"].state is ConsumerGroupState.STABLE
        assert not listing["adm-active-g"].is_simple_consumer_group
        empty_only = admin.list_consumer_groups(ListConsumerGroupsOptions(states=[ConsumerGroupState.EMPTY]))
        assert "adm-active-g" not in {g.group_id for g in empty_only.all().get(WAIT_MS)}

        description = admin.describe_consumer_groups(["adm-active-g"]).all().get(WAIT_MS)["adm-active-g"]
        assert description.state is ConsumerGroupState.STABLE
        assert description.coordinator is not None and description.coordinator.port == broker.port
        (member,) = description.members
        assert member.client_id == "lib-consumer"
        assert member.assignment.topic_partitions == {TopicPartition("adm-active", p) for p in range(3)}
        assert description.partition_assignor in ("range", "roundrobin", "cooperative-sticky")

        busy = admin.delete_consumer_groups(["adm-active-g"]).all()
        assert isinstance(_cause(busy), GroupNotEmptyException)
    finally:
        consumer.close()


# -- offsets, records, leaders, log dirs ------------------------------------------------------------------------


def test_list_offsets(admin: Admin, broker: BrokerProcess) -> None:
    """list_offsets gives the same earliest, latest and by-time offsets as librdkafka, and the max-timestamp one."""
    _create(admin, "adm-list-offsets")
    base = int(time.time() * 1000) - 100_000
    timestamps = [base + 10 * i for i in range(10)]
    timestamps[4] = base + 50_000  # the largest
    _produce(broker.bootstrap, "adm-list-offsets", 0, 10, timestamps)
    tp = TopicPartition("adm-list-offsets", 0)
    earliest = admin.list_offsets({tp: OffsetSpec.earliest()}).all().get(WAIT_MS)[tp]
    latest = admin.list_offsets({tp: OffsetSpec.latest()}).all().get(WAIT_MS)[tp]
    by_time = admin.list_offsets({tp: OffsetSpec.for_timestamp(base + 25)}).all().get(WAIT_MS)[tp]
    max_ts = admin.list_offsets({tp: OffsetSpec.max_timestamp()}).all().get(WAIT_MS)[tp]
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "unused"})
    try:
        low, high = consumer.get_watermark_offsets(ck.TopicPartition("adm-list-offsets", 0), timeout=10)
        (lib_by_time,) = consumer.offsets_for_times([ck.TopicPartition("adm-list-offsets", 0, base + 25)], timeout=10)
    finally:
        consumer.close()
    assert (earliest.offset, latest.offset) == (low, high) == (0, 10)
    assert by_time.offset == lib_by_time.offset == 3 and by_time.timestamp == base + 30
    assert (max_ts.offset, max_ts.timestamp) == (4, base + 50_000)
    missing = admin.list_offsets({TopicPartition("adm-no-topic", 0): OffsetSpec.latest()}).all()
    assert isinstance(_cause(missing), UnknownTopicOrPartitionException)


def test_delete_records(admin: Admin, broker: BrokerProcess) -> None:
    """delete_records moves the log start offset, as librdkafka's watermarks show."""
    _create(admin, "adm-delete-records")
    _produce(broker.bootstrap, "adm-delete-records", 0, 10)
    tp = TopicPartition("adm-delete-records", 0)
    result = admin.delete_records({tp: RecordsToDelete.before_offset(6)})
    assert result.low_watermarks()[tp].get(WAIT_MS).low_watermark == 6
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "unused"})
    try:
        assert consumer.get_watermark_offsets(ck.TopicPartition("adm-delete-records", 0), timeout=10) == (6, 10)
    finally:
        consumer.close()
    assert admin.list_offsets({tp: OffsetSpec.earliest()}).all().get(WAIT_MS)[tp].offset == 6


def test_elect_leaders(admin: Admin) -> None:
    """With the preferred replica already leading, a preferred election is not needed, as Kafka answers."""
    _create(admin, "adm-elect")
    tp = TopicPartition("adm-elect", 0)
    result = admin.elect_leaders(ElectionType.PREFERRED, [tp])
    assert isinstance(result.partitions().get(WAIT_MS)[tp], ElectionNotNeededException)
    assert isinstance(_cause(result.all()), ElectionNotNeededException)


def test_describe_log_dirs(admin: Admin, broker: BrokerProcess) -> None:
    """describe_log_dirs names the broker's log.dirs with the replicas in it, sized as the files on disk."""
    _create(admin, "adm-log-dirs")
    _produce(broker.bootstrap, "adm-log-dirs", 0, 5)
    dirs = admin.describe_log_dirs([0]).all_descriptions().get(WAIT_MS)[0]
    (path,) = dirs
    assert Path(path).resolve() == broker.log_dir.resolve()
    replicas = dirs[path].replica_infos
    tp = TopicPartition("adm-log-dirs", 0)
    on_disk = sum(f.stat().st_size for f in (broker.log_dir / "adm-log-dirs-0").glob("*.log"))
    assert replicas[tp].size == on_disk > 0 and not replicas[tp].is_future
    replica = TopicPartitionReplica("adm-log-dirs", 0, 0)
    info = admin.describe_replica_log_dirs([replica]).all().get(WAIT_MS)[replica]
    assert info.current_replica_log_dir == path and info.future_replica_log_dir is None


# -- another broker -----------------------------------------------------------------------------------------------


def test_topics_on_tansu(tansu: Any) -> None:
    """Against Tansu, our client creates, lists, describes and deletes topics, as librdkafka's metadata shows."""
    with Admin.create({"bootstrap.servers": tansu.bootstrap}) as admin:
        admin.create_topics([NewTopic("adm-tansu", 3, 1)]).all().get(WAIT_MS)
        assert _librdkafka_partitions(tansu.bootstrap, "adm-tansu") == 3
        assert "adm-tansu" in admin.list_topics().names().get(WAIT_MS)
        description = admin.describe_topics(["adm-tansu"]).all_topic_names().get(WAIT_MS)["adm-tansu"]
        assert [p.partition for p in description.partitions] == [0, 1, 2]
        (node,) = admin.describe_cluster().nodes().get(WAIT_MS)
        assert node.port == tansu.port
        admin.delete_topics(["adm-tansu"]).all().get(WAIT_MS)
        wait_until_true(lambda: "adm-tansu" not in admin.list_topics().names().get(WAIT_MS), "the topic to go")
