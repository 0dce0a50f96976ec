"""The controller SIGKILLed on three brokers from the bin scripts: in the middle of creating topics and of deleting
them, the next controller finishes the work (no topic is left with partitions that have no leader, no replica
without its log, no deletion half done, no log left on a disk); and a consumer group whose coordinator dies keeps
its committed offsets, served by the broker that takes over its __consumer_offsets partition (RF=3)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import BrokerProcess
from tests.integration.cluster import ClusterFactory, ClusterView, KafkaCluster
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

SESSION_TIMEOUT_MS = 6000


@pytest.fixture
def failover_cluster(cluster_factory: ClusterFactory) -> KafkaCluster:
    return cluster_factory(
        {
            "zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS),
            # Deleted logs are renamed, then removed after this delay (a minute by default).
            "log.segment.delete.delay.ms": "500",
            "offsets.topic.num.partitions": "6",
        }
    )


def fully_made(view: ClusterView, topic: str) -> bool:
    """Every partition has a live leader and all three replicas in its ISR."""
    states = view.partition_states(topic)
    return all(s is not None and s["leader"] >= 0 and sorted(s["isr"]) == [0, 1, 2] for s in states.values())


def kill_controller_when(view: ClusterView, cluster: KafkaCluster, ready: Any, what: str) -> int:
    """SIGKILLs the controller as soon as `ready()`, then restarts it once another broker has taken over."""
    victim = view.controller()
    wait_until_true(ready, what, 30, pause=0.005)
    cluster.kill(victim)
    wait_until_true(lambda: view.controller() not in (-1, victim), "another controller", 60, pause=0.2)
    cluster.broker(victim).start(timeout=120)
    return victim


def log_dirs_of(cluster: KafkaCluster, topics: set[str]) -> list[str]:
    """The directories on any broker's disk that belong to one of `topics`: `topic-N`, or `topic-N.<id>-delete`
    while a deleted log waits to be removed."""
    found = []
    for broker in cluster.brokers:
        for entry in broker.log_dir.iterdir():
            if not entry.is_dir():
                continue
            name = entry.name.rsplit(".", 1)[0] if entry.name.endswith("-delete") else entry.name
            if name.rsplit("-", 1)[0] in topics:
                found.append(f"broker {broker.broker_id}: {entry.name}")
    return found


def test_controller_killed_during_topic_creation_leaves_no_half_made_topic(
    failover_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """Thirty topics are being created when the controller is killed: each one that exists in ZooKeeper ends up
    with every partition led and fully replicated, and clients see exactly those topics; the others can be created
    again."""
    cluster, view = failover_cluster, cluster_view
    names = [f"created-{i:02d}" for i in range(30)]
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    futures = admin.create_topics([NewTopic(t, 4, 3) for t in names], operation_timeout=0, request_timeout=30)

    def first_topic_registered() -> bool:
        return view.zk.exists("/brokers/topics") is not None and any(
            t in names for t in view.zk.get_children("/brokers/topics")
        )

    kill_controller_when(view, cluster, first_topic_registered, "the first topic is registered")
    for future in futures.values():
        try:
            future.result(60)
        except Exception:
            pass  # the controller died under the request: the client is told so, or times out

    existing = {t for t in view.zk.get_children("/brokers/topics") if t in names}
    assert existing, "at least one topic was registered before the kill"
    wait_until_true(
        lambda: all(fully_made(view, t) for t in existing),
        "every registered topic has each partition led by a live broker with an ISR of three",
        120,
        pause=0.5,
    )
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})

    def clients_see_them() -> bool:
        metadata = admin.list_topics(timeout=10).topics
        seen = {t for t in metadata if t in names}
        return seen == existing and all(
            len(metadata[t].partitions) == 4 and all(p.leader >= 0 for p in metadata[t].partitions.values())
            for t in existing
        )

    wait_until_true(clients_see_them, "metadata lists exactly the registered topics, all partitions led", 60, 0.5)
    for broker in cluster.brokers:
        for topic in existing:
            for p in range(4):
                assert (broker.log_dir / f"{topic}-{p}").is_dir(), f"broker {broker.broker_id} lacks {topic}-{p}"

    missing = [t for t in names if t not in existing]
    if missing:
        retried = admin.create_topics([NewTopic(t, 4, 3) for t in missing], operation_timeout=30)
        for future in retried.values():
            future.result(60)
        wait_until_true(lambda: all(fully_made(view, t) for t in missing), "the retried topics are made", 120, 0.5)


def test_controller_killed_during_topic_deletion_finishes_the_deletion(
    failover_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """Ten topics with data are being deleted when the controller is killed: the next controller finishes every
    deletion that was accepted (nothing left in ZooKeeper or on any broker's disk), the others are whole with their
    data; deleted again, nothing of them is left in ZooKeeper, in clients' metadata or on disk, and a topic of the
    same name created afterwards starts empty."""
    cluster, view = failover_cluster, cluster_view
    names = [f"deleted-{i}" for i in range(10)]
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    for future in admin.create_topics([NewTopic(t, 3, 3) for t in names], operation_timeout=30).values():
        future.result(60)
    wait_until_true(lambda: all(fully_made(view, t) for t in names), "topics made", 60, 0.2)
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all"})
    for t in names:
        for i in range(30):
            producer.produce(t, value=f"{t}-{i}".encode(), partition=i % 3)
    assert producer.flush(60) == 0

    futures = admin.delete_topics(names, operation_timeout=0, request_timeout=30)

    def deletion_started() -> bool:
        return bool(view.zk.exists("/admin/delete_topics") and view.zk.get_children("/admin/delete_topics"))

    kill_controller_when(view, cluster, deletion_started, "deletion markers under /admin/delete_topics")
    for future in futures.values():
        try:
            future.result(60)
        except Exception:
            pass  # the controller died under the request: some deletions may not have been accepted

    # Every topic whose deletion was accepted goes, everywhere; every other one is whole, with all its records.
    def settled() -> bool:
        if view.zk.get_children("/admin/delete_topics"):
            return False
        remaining = {t for t in view.zk.get_children("/brokers/topics") if t in names}
        return not log_dirs_of(cluster, set(names) - remaining) and all(fully_made(view, t) for t in remaining)

    wait_until_true(settled, "each topic deleted everywhere or whole", 120, pause=0.5)
    remaining = sorted(t for t in view.zk.get_children("/brokers/topics") if t in names)
    bootstrap = ",".join(b.bootstrap for b in cluster.brokers)
    admin = AdminClient({"bootstrap.servers": bootstrap})
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "unused"})
    try:
        for t in remaining:
            ends = [consumer.get_watermark_offsets(TopicPartition(t, p), timeout=30) for p in range(3)]
            assert ends == [(0, 10)] * 3, f"{t}: {ends}"
    finally:
        consumer.close()

    # The user deletes what is left; then nothing of the ten topics remains anywhere.
    if remaining:
        for future in admin.delete_topics(remaining, operation_timeout=30).values():
            future.result(60)

    def all_gone() -> bool:
        topics = set(view.zk.get_children("/brokers/topics"))
        return (
            not (topics & set(names))
            and not view.zk.get_children("/admin/delete_topics")
            and not log_dirs_of(cluster, set(names))
        )

    wait_until_true(all_gone, "the topics are gone from ZooKeeper and from every broker's disk", 120, pause=0.5)
    wait_until_true(
        lambda: not set(admin.list_topics(timeout=10).topics) & set(names),
        "no client sees the deleted topics",
        60,
        pause=0.5,
    )

    admin.create_topics([NewTopic(names[0], 3, 3)], operation_timeout=30)[names[0]].result(60)
    wait_until_true(lambda: fully_made(view, names[0]), "re-created", 60, 0.2)
    # ZooKeeper has the new topic before every broker's metadata cache does (UpdateMetadata goes out after the
    # znodes are written, as in Kafka): wait until the brokers answer clients with its three led partitions.
    wait_until_true(
        lambda: all(
            len(parts := admin_of(b).list_topics(names[0], timeout=10).topics[names[0]].partitions) == 3
            and all(part.leader >= 0 for part in parts.values())
            for b in cluster.brokers
        ),
        "every broker's metadata has the re-created topic",
        60,
        0.2,
    )
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "unused"})
    try:
        for p in range(3):
            assert consumer.get_watermark_offsets(TopicPartition(names[0], p), timeout=30) == (0, 0)
    finally:
        consumer.close()


def admin_of(broker: BrokerProcess) -> AdminClient:
    """An admin client bootstrapped from this broker alone, so that its metadata is that broker's."""
    return AdminClient({"bootstrap.servers": broker.bootstrap})


def test_group_keeps_committed_offsets_when_its_coordinator_dies(
    failover_cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """A group commits offsets, then its coordinator is SIGKILLed: another broker becomes coordinator (it led a
    replica of the group's __consumer_offsets partition) and a new member resumes from the committed offsets."""
    cluster, view = failover_cluster, cluster_view
    topic = "grouped"
    bootstrap = cluster.bootstrap
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 2, 3, config={"min.insync.replicas": "2"})])[topic].result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    for i in range(200):
        producer.produce(topic, value=str(i).encode(), partition=i % 2)
    assert producer.flush(60) == 0

    def member() -> Consumer:
        return Consumer(
            {
                "bootstrap.servers": ",".join(b.bootstrap for b in cluster.brokers),
                "group.id": "survivors",
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
                "session.timeout.ms": 10_000,
            }
        )

    first = member()
    first.subscribe([topic])
    consumed: list[Any] = []
    deadline = time.monotonic() + 60
    while len(consumed) < 60:
        assert time.monotonic() < deadline, f"consumed {len(consumed)} of 60"
        msg = first.poll(0.5)
        if msg is not None and msg.error() is None:
            consumed.append(msg)
    positions = {p: 0 for p in range(2)}
    for msg in consumed:
        positions[msg.partition()] = max(positions[msg.partition()], msg.offset() + 1)
    committed = [TopicPartition(topic, p, o) for p, o in positions.items()]
    first.commit(offsets=committed, asynchronous=False)
    first.close()

    group = admin.describe_consumer_groups(["survivors"])["survivors"].result(30)
    coordinator = group.coordinator.id
    wait_until_true(lambda: fully_made(view, "__consumer_offsets"), "__consumer_offsets fully replicated", 60, 0.2)
    cluster.kill(coordinator)

    second = member()
    try:

        def committed_offsets() -> dict[int, int] | None:
            try:
                got = second.committed([TopicPartition(topic, p) for p in range(2)], timeout=5)
            except Exception:
                return None
            return {tp.partition: tp.offset for tp in got}

        found: dict[str, Any] = {}

        def served_again() -> bool:
            found["offsets"] = committed_offsets()
            return found["offsets"] is not None and all(o >= 0 for o in found["offsets"].values())

        wait_until_true(served_again, "another coordinator serves the group's offsets", 90, pause=0.5)
        assert found["offsets"] == positions
        survivors = [b for b in range(3) if b != coordinator]
        survivors_admin = AdminClient({"bootstrap.servers": ",".join(cluster.broker(b).bootstrap for b in survivors)})

        def coordinator_now() -> int:
            try:
                return int(
                    survivors_admin.describe_consumer_groups(["survivors"])["survivors"].result(10).coordinator.id
                )
            except Exception:
                return -1

        wait_until_true(lambda: coordinator_now() in survivors, "the group described by its new coordinator", 90, 0.5)
        new_coordinator = coordinator_now()
        assert new_coordinator != coordinator

        # The new member resumes where the group left off and reads exactly the rest.
        second.subscribe([topic])
        rest: list[Any] = []
        deadline = time.monotonic() + 60
        while len(rest) < 200 - 60:
            assert time.monotonic() < deadline, f"read {len(rest)} of {200 - 60} after the failover"
            msg = second.poll(0.5)
            if msg is not None and msg.error() is None:
                rest.append(msg)
        assert sorted(int(m.value()) for m in consumed + rest) == list(range(200))
        second.commit(asynchronous=False)
    finally:
        second.close()
        cluster.broker(coordinator).start(timeout=120)
