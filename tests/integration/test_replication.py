"""Replication between brokers, tried as a user would: three brokers from the bin scripts, a topic with RF=3 and
min.insync.replicas=2, an idempotent acks=all confluent-kafka producer. Every acknowledged record is read back,
each follower's segment files (and its leader-epoch-checkpoint) end up byte-identical to the leader's, the ISR in
ZooKeeper stays whole, and a follower SIGKILLed while records are produced catches up after its restart."""

from __future__ import annotations

import time

from confluent_kafka import Consumer, KafkaError, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.cluster import ClusterView, KafkaCluster
from tests.utils import wait_until_true

TOPIC = "replicated"


def create_topic(cluster: KafkaCluster, view: ClusterView) -> None:
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    futures = admin.create_topics(
        [NewTopic(TOPIC, num_partitions=1, replication_factor=3, config={"min.insync.replicas": "2"})]
    )
    futures[TOPIC].result(30)
    wait_until_true(lambda: view.has_partition_state(TOPIC), "the partition state", timeout=60, pause=0.2)


def produce(cluster: KafkaCluster, values: list[bytes]) -> None:
    """Produces `values` with an idempotent acks=all producer; every one must be acknowledged without error."""
    errors: list[KafkaError] = []
    acked: list[bytes] = []

    def on_delivery(err: KafkaError | None, msg: object) -> None:
        if err is not None:
            errors.append(err)
        else:
            acked.append(msg.value())  # type: ignore[attr-defined]

    producer = Producer(
        {"bootstrap.servers": cluster.bootstrap, "enable.idempotence": True, "acks": "all", "linger.ms": 5}
    )
    for value in values:
        producer.produce(TOPIC, value=value, key=value[-1:], on_delivery=on_delivery)
        producer.poll(0)
    remaining = producer.flush(60)
    assert remaining == 0 and errors == [], f"{remaining} unacknowledged, errors: {errors[:5]}"
    assert sorted(acked) == sorted(values)


def consume_all(cluster: KafkaCluster, expected: int) -> list[bytes]:
    consumer = Consumer(
        {
            "bootstrap.servers": cluster.bootstrap,
            "group.id": f"reader-{time.monotonic_ns()}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([TOPIC])
    values: list[bytes] = []
    try:
        deadline = time.monotonic() + 60
        while len(values) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            value = msg.value()
            assert value is not None
            values.append(value)
    finally:
        consumer.close()
    return values


def log_files(cluster: KafkaCluster, broker_id: int) -> dict[str, bytes]:
    """The partition's segment files and leader-epoch-checkpoint on one broker, by name."""
    partition_dir = cluster.broker(broker_id).log_dir / f"{TOPIC}-0"
    files: dict[str, bytes] = {}
    for path in sorted(partition_dir.iterdir()):
        if path.suffix == ".log" or path.name == "leader-epoch-checkpoint":
            files[path.name] = path.read_bytes()
    return files


def replicas_identical(cluster: KafkaCluster, leader: int, min_size: int) -> bool:
    expected = log_files(cluster, leader)
    if sum(len(v) for k, v in expected.items() if k.endswith(".log")) < min_size:
        return False
    return all(log_files(cluster, b.broker_id) == expected for b in cluster.brokers)


def log_size(cluster: KafkaCluster, broker_id: int) -> int:
    return sum(len(v) for k, v in log_files(cluster, broker_id).items() if k.endswith(".log"))


def test_followers_replicate_byte_identical_logs_and_catch_up_after_sigkill(
    cluster: KafkaCluster, cluster_view: ClusterView
) -> None:
    """acks=all writes to an RF=3, min.insync.replicas=2 topic are acknowledged and read back; the followers'
    segment files and leader-epoch-checkpoint equal the leader's byte for byte while the ISR stays [0,1,2]; a
    follower killed with SIGKILL misses writes, comes back after restart and is byte-identical again."""
    view = cluster_view
    create_topic(cluster, view)
    first = [f"record-{i:05d}".encode() for i in range(2000)]
    produce(cluster, first)
    assert sorted(consume_all(cluster, len(first))) == sorted(first)

    state = view.partition_state(TOPIC)
    leader = int(state["leader"])
    assert sorted(state["isr"]) == [0, 1, 2]
    leader_size = log_size(cluster, leader)
    wait_until_true(
        lambda: replicas_identical(cluster, leader, leader_size),
        "the followers' logs to equal the leader's",
        timeout=60,
        pause=0.2,
    )
    assert view.isr(TOPIC) == [0, 1, 2]

    # A follower dies without a clean shutdown; writes go on with the two others (min.insync.replicas=2).
    follower = next(b for b in (0, 1, 2) if b != leader)
    cluster.kill(follower)
    wait_until_true(
        lambda: follower not in view.isr(TOPIC), "the dead follower to leave the ISR", timeout=60, pause=0.2
    )
    second = [f"late-{i:05d}".encode() for i in range(1000)]
    produce(cluster, second)
    assert log_size(cluster, follower) < log_size(cluster, leader)

    # Kafka 2.8 refuses to register while the dead broker's ZooKeeper session still holds /brokers/ids/N.
    wait_until_true(
        lambda: view.zk.exists(f"/brokers/ids/{follower}") is None,
        "the dead broker's registration to expire",
        timeout=60,
        pause=0.2,
    )
    cluster.broker(follower).start()
    leader_size = log_size(cluster, leader)
    wait_until_true(
        lambda: replicas_identical(cluster, leader, leader_size),
        "the restarted follower to catch up",
        timeout=60,
        pause=0.2,
    )
    wait_until_true(lambda: view.isr(TOPIC) == [0, 1, 2], "the ISR to be whole again", timeout=60, pause=0.2)
    assert view.leader(TOPIC) == leader
    assert sorted(consume_all(cluster, len(first) + len(second))) == sorted(first + second)
