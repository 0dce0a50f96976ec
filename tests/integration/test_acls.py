"""The ACL authorizer on real brokers (issue 15): Kafka 2.8's AclAuthorizer configured by authorizer.class.name,
ACLs written with bin/kafka-acls.sh (in ZooKeeper with --authorizer-properties before the brokers start, through the
brokers with --bootstrap-server afterwards) and enforced on every broker of three for confluent-kafka clients.

On PLAINTEXT-only clusters every client is User:ANONYMOUS, as the brokers themselves are: the brokers' own requests
need ClusterAction on the cluster, and those tests give User:ANONYMOUS that (and Create, Alter and Describe on the
cluster, to create topics and manage ACLs), never a super user, so every topic and group permission comes from the
ACLs the tests add and remove. The SASL test has users: brokers talk over PLAINTEXT as a super user, clients log in
with SASL/PLAIN as User:alice (no ACLs to start with) and User:admin (a super user, who runs kafka-acls.sh).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import confluent_kafka as ck
import pytest
from confluent_kafka import KafkaError
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient

from tests.integration.cluster import ClusterFactory, KafkaCluster
from tests.integration.kafka_python_support import kafka_python_produce
from tests.integration.security_support import listener_bootstrap, plain_jaas, plain_server_jaas, write_properties
from tests.integration.test_console_tools import tool
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

AUTHORIZER = {"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer"}
ANONYMOUS = "User:ANONYMOUS"


@pytest.fixture
def acl_cluster(zookeeper: ZooKeeperServer, zk_chroot: str, cluster_factory: ClusterFactory) -> KafkaCluster:
    """Three brokers with the ACL authorizer; the cluster ACLs for User:ANONYMOUS are written in ZooKeeper with
    kafka-acls.sh --authorizer-properties before they start."""
    zk_connect = zookeeper.connect_string + zk_chroot
    zk = KazooClient(hosts=zookeeper.connect_string, timeout=10.0)
    zk.start(timeout=10.0)
    try:
        zk.ensure_path(zk_chroot)
    finally:
        zk.stop()
        zk.close()
    run = tool(
        "kafka-acls.sh",
        "--authorizer-properties",
        f"zookeeper.connect={zk_connect}",
        "--add",
        "--allow-principal",
        ANONYMOUS,
        "--operation",
        "ClusterAction",
        "--operation",
        "Create",
        "--operation",
        "Alter",
        "--operation",
        "Describe",
        "--cluster",
    )
    assert run.status == 0, run
    assert "Current ACLs for resource `ResourcePattern(resourceType=CLUSTER, name=kafka-cluster, " in run.out
    return cluster_factory(AUTHORIZER)


@pytest.fixture
def topic(acl_cluster: KafkaCluster) -> Iterator[str]:
    """A topic with one partition led by each broker (replication factor 3)."""
    name = f"acl-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": acl_cluster.bootstrap})
    assignment = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    admin.create_topics([NewTopic(name, 3, replica_assignment=assignment)], operation_timeout=30)[name].result(30)
    yield name


def acls(cluster: KafkaCluster, *args: str, bootstrap: str | None = None) -> str:
    run = tool("kafka-acls.sh", "--bootstrap-server", bootstrap or cluster.bootstrap, *args)
    assert run.status == 0, run
    return run.out


def produce_errors(bootstrap: str, topic: str, partitions: int = 3, **config: str) -> dict[int, int | None]:
    """The delivery error code (None: delivered) of one record to each partition, from a fresh producer."""
    results: dict[int, int | None] = {}
    producer = ck.Producer(
        {
            "bootstrap.servers": bootstrap,
            "message.timeout.ms": 10000,
            "topic.metadata.refresh.interval.ms": 1000,
            **config,
        }
    )

    def on_delivery(err: KafkaError | None, msg: ck.Message) -> None:
        partition = msg.partition()
        assert partition is not None
        results[partition] = None if err is None else err.code()

    for p in range(partitions):
        producer.produce(topic, value=b"v", partition=p, on_delivery=on_delivery)
    producer.flush(30)
    return results


def visible_topics(bootstrap: str, **config: str) -> set[str]:
    admin = AdminClient({"bootstrap.servers": bootstrap, **config})
    return set(admin.list_topics(timeout=10).topics)


def test_no_acl_no_access_then_producer_acls_grant_exactly_that(acl_cluster: KafkaCluster, topic: str) -> None:
    """Without ACLs the topic is invisible and produce fails with TOPIC_AUTHORIZATION_FAILED; --add --producer
    lets the producer write (to the leaders on all three brokers) but a consumer still cannot join its group."""
    bootstrap = acl_cluster.bootstrap
    assert topic not in visible_topics(bootstrap)
    errors = produce_errors(bootstrap, topic)
    assert errors and set(errors.values()) == {KafkaError.TOPIC_AUTHORIZATION_FAILED}, errors
    # Each denial the client asked for is logged at INFO to kafka-authorizer.log by kafka.authorizer.logger.
    denied = (
        "Principal = User:ANONYMOUS is Denied Operation = Describe from host = 127.0.0.1 on resource = "
        f"Topic:LITERAL:{topic}"
    )

    def logged_denial() -> bool:
        logs = [b.app_log_dir / "kafka-authorizer.log" for b in acl_cluster.brokers]
        return any(p.exists() and denied in p.read_text() for p in logs)

    wait_until_true(logged_denial, "no broker logged the denial to kafka-authorizer.log", timeout=15)

    out = acls(acl_cluster, "--add", "--producer", "--topic", topic, "--allow-principal", ANONYMOUS)
    assert f"Adding ACLs for resource `ResourcePattern(resourceType=TOPIC, name={topic}, patternType=LITERAL)`" in out
    assert "(principal=User:ANONYMOUS, host=*, operation=WRITE, permissionType=ALLOW)" in out

    wait_until_true(
        lambda: produce_errors(bootstrap, topic) == {0: None, 1: None, 2: None},
        "the producer ACLs never allowed writing to every partition",
        timeout=30,
    )
    assert topic in visible_topics(bootstrap)

    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{topic}", "auto.offset.reset": "earliest"})
    try:
        consumer.subscribe([topic])
        codes: list[int] = []

        def group_denied() -> bool:
            msg = consumer.poll(1.0)
            if msg is not None and (error := msg.error()) is not None:
                codes.append(error.code())
            return KafkaError.GROUP_AUTHORIZATION_FAILED in codes

        wait_until_true(group_denied, "joining the group was not refused", timeout=30)
    finally:
        consumer.close()


def test_consumer_acls_and_remove_on_every_broker(acl_cluster: KafkaCluster, topic: str) -> None:
    """--add --consumer lets a group consume; --remove of Write takes writing back within seconds on every broker
    (each leads one partition), while Describe kept by another ACL keeps the topic visible."""
    bootstrap = acl_cluster.bootstrap
    acls(acl_cluster, "--add", "--producer", "--topic", topic, "--allow-principal", ANONYMOUS)
    group = f"g-{topic}"
    acls(acl_cluster, "--add", "--consumer", "--topic", topic, "--group", group, "--allow-principal", ANONYMOUS)
    wait_until_true(
        lambda: produce_errors(bootstrap, topic) == {0: None, 1: None, 2: None},
        "the producer ACLs never allowed writing",
        timeout=30,
    )

    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest"})
    try:
        consumer.subscribe([topic])
        got: list[bytes | None] = []

        def consumed() -> bool:
            msg = consumer.poll(1.0)
            if msg is not None:
                assert msg.error() is None, msg.error()
                got.append(msg.value())
            return len(got) >= 3

        wait_until_true(consumed, "the consumer never read the records", timeout=60)
    finally:
        consumer.close()

    listed = acls(acl_cluster, "--list", "--topic", topic)
    for op in ("READ", "WRITE", "DESCRIBE", "CREATE"):
        assert f"operation={op}, permissionType=ALLOW" in listed, listed

    out = acls(
        acl_cluster, "--remove", "--force", "--allow-principal", ANONYMOUS, "--operation", "Write", "--topic", topic
    )
    assert "operation=WRITE" not in out
    wait_until_true(
        lambda: set(produce_errors(bootstrap, topic).values()) == {KafkaError.TOPIC_AUTHORIZATION_FAILED},
        "removing Write did not deny writing on every broker",
        timeout=30,
    )
    # Each broker answers Metadata from its own cache: all still show the topic (Describe is kept).
    for broker in acl_cluster.brokers:
        assert topic in visible_topics(broker.bootstrap)


def test_prefixed_and_deny_acls(acl_cluster: KafkaCluster, topic: str) -> None:
    """A prefixed ALLOW covers every topic with the prefix; a literal DENY wins over it for its topic."""
    bootstrap = acl_cluster.bootstrap
    prefix = topic[:6]
    acls(
        acl_cluster,
        "--add",
        "--allow-principal",
        ANONYMOUS,
        "--operation",
        "All",
        "--topic",
        prefix,
        "--resource-pattern-type",
        "prefixed",
    )
    wait_until_true(
        lambda: produce_errors(bootstrap, topic) == {0: None, 1: None, 2: None},
        "the prefixed ACL never allowed writing",
        timeout=30,
    )
    acls(acl_cluster, "--add", "--deny-principal", ANONYMOUS, "--operation", "Write", "--topic", topic)
    wait_until_true(
        lambda: set(produce_errors(bootstrap, topic).values()) == {KafkaError.TOPIC_AUTHORIZATION_FAILED},
        "the literal DENY did not win over the prefixed ALLOW",
        timeout=30,
    )
    listed = acls(acl_cluster, "--list", "--topic", topic, "--resource-pattern-type", "match")
    assert "patternType=PREFIXED" in listed and "permissionType=DENY" in listed, listed


# ---- SASL users ---------------------------------------------------------------------------------------------------

PLAIN_USERS = {"alice": "alice-secret", "admin": "admin-secret"}


def sasl_client(user: str) -> dict[str, str]:
    """confluent-kafka's settings for a SASL/PLAIN user."""
    return {
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "PLAIN",
        "sasl.username": user,
        "sasl.password": PLAIN_USERS[user],
    }


@pytest.fixture
def sasl_cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    """Three brokers talking to each other over PLAINTEXT (User:ANONYMOUS, a super user, as Kafka users set it up)
    and serving SASL/PLAIN users on a SASL_PLAINTEXT listener; User:admin is a super user too."""
    return cluster_factory(
        {
            **AUTHORIZER,
            "super.users": "User:ANONYMOUS;User:admin",
            "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT",
            "inter.broker.listener.name": "PLAINTEXT",
            "sasl.enabled.mechanisms": "PLAIN",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": plain_server_jaas(PLAIN_USERS),
        }
    )


def test_sasl_user_needs_acls_on_every_broker(sasl_cluster: KafkaCluster, tmp_path: Path) -> None:
    """User:alice without ACLs sees no topics, cannot produce (TOPIC_AUTHORIZATION_FAILED, with confluent-kafka and
    kafka-python) or join a group (GROUP_AUTHORIZATION_FAILED); kafka-acls.sh run by User:admin over SASL
    (--command-config) with --producer and --consumer grants exactly that, and --remove takes it back within seconds
    on each of the three brokers."""
    sasl_bootstrap = ",".join(listener_bootstrap(b, "SASL_PLAINTEXT") for b in sasl_cluster.brokers)
    alice, admin = sasl_client("alice"), sasl_client("admin")
    name = f"sasl-acl-{uuid.uuid4().hex[:8]}"
    admin_client = AdminClient({"bootstrap.servers": sasl_bootstrap, **admin})
    assignment = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    admin_client.create_topics([NewTopic(name, 3, replica_assignment=assignment)], operation_timeout=30)[name].result(
        30
    )
    wait_until_true(lambda: name in visible_topics(sasl_bootstrap, **admin), "admin never saw the topic", timeout=30)

    assert name not in visible_topics(sasl_bootstrap, **alice)
    assert set(produce_errors(sasl_bootstrap, name, partitions=3, **alice).values()) == {
        KafkaError.TOPIC_AUTHORIZATION_FAILED
    }
    kafka_python_alice = {
        "bootstrap_servers": sasl_bootstrap,
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "PLAIN",
        "sasl_plain_username": "alice",
        "sasl_plain_password": PLAIN_USERS["alice"],
        "max_block_ms": 10000,
    }
    denied = kafka_python_produce(tmp_path, kafka_python_alice, name)
    assert denied.get("error") == "TopicAuthorizationFailedError", denied
    group = f"g-{name}"
    consumer = ck.Consumer({"bootstrap.servers": sasl_bootstrap, "group.id": group, **alice})
    try:
        consumer.subscribe([name])
        codes: list[int] = []

        def group_denied() -> bool:
            msg = consumer.poll(1.0)
            if msg is not None and (error := msg.error()) is not None:
                codes.append(error.code())
            return KafkaError.GROUP_AUTHORIZATION_FAILED in codes

        wait_until_true(group_denied, "alice joined a group without an ACL", timeout=30)
    finally:
        consumer.close()

    config = write_properties(
        tmp_path / "admin.properties",
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.jaas.config": plain_jaas("admin", PLAIN_USERS["admin"]),
        },
    )
    common = ["--command-config", str(config), "--allow-principal", "User:alice"]
    acls(sasl_cluster, "--add", "--producer", "--topic", name, *common, bootstrap=sasl_bootstrap)
    wait_until_true(
        lambda: produce_errors(sasl_bootstrap, name, partitions=3, **alice) == {0: None, 1: None, 2: None},
        "--producer never let alice write to every partition",
        timeout=30,
    )
    assert name in visible_topics(sasl_bootstrap, **alice)
    allowed = kafka_python_produce(tmp_path, kafka_python_alice, name)
    assert "offset" in allowed, allowed
    acls(sasl_cluster, "--add", "--consumer", "--topic", name, "--group", group, *common, bootstrap=sasl_bootstrap)
    consumer = ck.Consumer(
        {"bootstrap.servers": sasl_bootstrap, "group.id": group, "auto.offset.reset": "earliest", **alice}
    )
    try:
        consumer.subscribe([name])
        got: list[bytes | None] = []

        def consumed() -> bool:
            msg = consumer.poll(1.0)
            if msg is not None:
                assert msg.error() is None, msg.error()
                got.append(msg.value())
            return len(got) >= 3

        wait_until_true(consumed, "alice never consumed with --consumer ACLs", timeout=60)
    finally:
        consumer.close()

    acls(
        sasl_cluster,
        "--remove",
        "--force",
        "--operation",
        "Write",
        "--topic",
        name,
        *common,
        bootstrap=sasl_bootstrap,
    )
    wait_until_true(
        lambda: (
            set(produce_errors(sasl_bootstrap, name, partitions=3, **alice).values())
            == {KafkaError.TOPIC_AUTHORIZATION_FAILED}
        ),
        "removing Write did not stop alice on every broker",
        timeout=30,
    )
