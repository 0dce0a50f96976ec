"""Clients follow leader changes on three brokers from the bin scripts (RF=3, min.insync.replicas=2): librdkafka
(confluent-kafka), our own Python clients, aiokafka and kafka-python each produce with acks=all and consume one
partition while its leader is SIGKILLed; the same producer and consumer go on with the new leader and every record
is written once and read back in order. A controlled shutdown (SIGTERM) of a leader moves leadership before the
broker stops, so a producer whose records must be delivered well within the ZooKeeper session never fails one."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import ROOT
from tests.integration.cluster import ClusterView, KafkaCluster, running_cluster
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

SESSION_TIMEOUT_MS = 6000
KAFKA_PYTHON = ROOT / ".venv-kafka-python" / "bin" / "python"
N = 100  # records before the kill, and again after it


@pytest.fixture(scope="module")
def leaders_cluster(zookeeper: ZooKeeperServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaCluster]:
    work = Path(tmp_path_factory.mktemp("follow-leaders"))
    zk_connect = f"{zookeeper.connect_string}/follow-leaders-{work.name}"
    with running_cluster(work, zk_connect, {"zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS)}) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def leaders_view(leaders_cluster: KafkaCluster) -> Iterator[ClusterView]:
    with ClusterView(leaders_cluster.zk_connect) as view:
        yield view


def create_topic(cluster: KafkaCluster, view: ClusterView, topic: str) -> int:
    """One partition on all three brokers, led by one that is not the controller (so the kill below does not also
    cost a controller election); returns its leader."""
    for broker in cluster.brokers:
        if not broker.is_running:
            broker.start(timeout=120)
    controller = view.controller()
    leader = next(b for b in range(3) if b != controller)
    replicas = [leader] + [b for b in range(3) if b != leader]
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    new_topic = NewTopic(topic, 1, replica_assignment=[replicas], config={"min.insync.replicas": "2"})
    admin.create_topics([new_topic])[topic].result(30)
    wait_until_true(lambda: view.isr(topic) == [0, 1, 2], "ISR of three", 60, pause=0.1)
    assert view.leader(topic) == leader
    return leader


def kill_leader(cluster: KafkaCluster, view: ClusterView, topic: str) -> int:
    leader = view.leader(topic)
    cluster.kill(leader)
    return leader


def heal(cluster: KafkaCluster, view: ClusterView, topic: str, killed: int) -> None:
    """The killed broker comes back and rejoins the ISR, for the next test."""
    assert view.leader(topic) != killed
    cluster.broker(killed).start(timeout=120)
    wait_until_true(lambda: view.isr(topic) == [0, 1, 2], "ISR whole again", 90, pause=0.2)


def values(start: int, count: int) -> list[str]:
    return [f"v{i}" for i in range(start, start + count)]


def all_brokers(cluster: KafkaCluster) -> str:
    return ",".join(b.bootstrap for b in cluster.brokers)


def test_librdkafka_follows_the_leader(leaders_cluster: KafkaCluster, leaders_view: ClusterView) -> None:
    """confluent-kafka's producer and consumer carry on across a SIGKILL of the partition's leader."""
    cluster, view, topic = leaders_cluster, leaders_view, "follow-librdkafka"
    create_topic(cluster, view, topic)
    producer = Producer({"bootstrap.servers": all_brokers(cluster), "acks": "all", "enable.idempotence": True})
    consumer = Consumer({"bootstrap.servers": all_brokers(cluster), "group.id": "unused", "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    errors: list[Any] = []
    got: list[str] = []

    def on_delivery(err: KafkaError | None, msg: object) -> None:
        if err:
            errors.append(err)

    def produce(vs: list[str]) -> None:
        for v in vs:
            producer.produce(topic, value=v.encode(), partition=0, on_delivery=on_delivery)
        assert producer.flush(120) == 0

    def consume(until: int) -> None:
        deadline = time.monotonic() + 120
        while len(got) < until:
            assert time.monotonic() < deadline, f"read {len(got)} of {until}"
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                value = msg.value()
                assert value is not None
                got.append(value.decode())

    try:
        produce(values(0, N))
        consume(N)
        killed = kill_leader(cluster, view, topic)
        produce(values(N, N))
        consume(2 * N)
    finally:
        consumer.close()
    assert errors == []
    assert got == values(0, 2 * N)
    heal(cluster, view, topic, killed)


def test_our_python_clients_follow_the_leader(leaders_cluster: KafkaCluster, leaders_view: ClusterView) -> None:
    """kafka.clients' KafkaProducer and KafkaConsumer carry on across a SIGKILL of the partition's leader."""
    from kafka.clients.consumer.kafka_consumer import KafkaConsumer
    from kafka.clients.producer.kafka_producer import KafkaProducer
    from kafka.clients.producer.producer_record import ProducerRecord
    from kafka.common.serialization.string_deserializer import StringDeserializer
    from kafka.common.serialization.string_serializer import StringSerializer
    from kafka.common.topic_partition import TopicPartition as TP

    cluster, view, topic = leaders_cluster, leaders_view, "follow-ours"
    create_topic(cluster, view, topic)
    producer: KafkaProducer[str, str] = KafkaProducer(
        {"bootstrap.servers": all_brokers(cluster), "acks": "all", "enable.idempotence": True},
        StringSerializer(),
        StringSerializer(),
    )
    consumer: KafkaConsumer[str, str] = KafkaConsumer(
        {"bootstrap.servers": all_brokers(cluster), "enable.auto.commit": False, "fetch.max.wait.ms": 100},
        StringDeserializer(),
        StringDeserializer(),
    )
    tp = TP(topic, 0)
    consumer.assign([tp])
    consumer.seek_to_beginning([tp])
    got: list[str] = []

    def produce(vs: list[str]) -> None:
        futures = [producer.send(ProducerRecord(topic, v, partition=0)) for v in vs]
        producer.flush()
        for future in futures:
            future.get(120)

    def consume(until: int) -> None:
        deadline = time.monotonic() + 120
        while len(got) < until:
            assert time.monotonic() < deadline, f"read {len(got)} of {until}"
            got.extend(str(r.value) for r in consumer.poll(200))

    try:
        produce(values(0, N))
        consume(N)
        killed = kill_leader(cluster, view, topic)
        produce(values(N, N))
        consume(2 * N)
    finally:
        consumer.close(5000)
        producer.close()
    assert got == values(0, 2 * N)
    heal(cluster, view, topic, killed)


def test_aiokafka_follows_the_leader(leaders_cluster: KafkaCluster, leaders_view: ClusterView) -> None:
    """aiokafka's producer and consumer carry on across a SIGKILL of the partition's leader."""
    import aiokafka
    from aiokafka.structs import TopicPartition as AioTP

    cluster, view, topic = leaders_cluster, leaders_view, "follow-aiokafka"
    create_topic(cluster, view, topic)
    killed: list[int] = []

    async def run() -> list[str]:
        producer = aiokafka.AIOKafkaProducer(
            bootstrap_servers=all_brokers(cluster), acks="all", enable_idempotence=True, request_timeout_ms=60_000
        )
        consumer = aiokafka.AIOKafkaConsumer(bootstrap_servers=all_brokers(cluster), enable_auto_commit=False)
        await producer.start()
        await consumer.start()
        got: list[str] = []

        async def produce(vs: list[str]) -> None:
            futures = [await producer.send(topic, v.encode(), partition=0) for v in vs]
            for future in futures:
                await asyncio.wait_for(future, 120)

        async def consume(until: int) -> None:
            deadline = time.monotonic() + 120
            while len(got) < until:
                assert time.monotonic() < deadline, f"read {len(got)} of {until}"
                batch = await consumer.getmany(timeout_ms=500)
                for records in batch.values():
                    got.extend(r.value.decode() for r in records)

        try:
            tp = AioTP(topic, 0)
            consumer.assign([tp])
            await consumer.seek_to_beginning(tp)
            await produce(values(0, N))
            await consume(N)
            killed.append(kill_leader(cluster, view, topic))
            await produce(values(N, N))
            await consume(2 * N)
            return got
        finally:
            await consumer.stop()
            await producer.stop()

    assert asyncio.run(run()) == values(0, 2 * N)
    heal(cluster, view, topic, killed[0])


KAFKA_PYTHON_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition
    bootstrap, topic, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=100)
    tp = TopicPartition(topic, 0)
    consumer.assign([tp])
    consumer.seek_to_beginning(tp)
    got = []

    def produce(start):
        futures = [producer.send(topic, value=b"v%d" % i, partition=0) for i in range(start, start + n)]
        producer.flush(120)
        for f in futures:
            f.get(120)

    def consume(until):
        while len(got) < until:
            for records in consumer.poll(timeout_ms=500).values():
                got.extend(r.value.decode() for r in records)

    produce(0)
    consume(n)
    print("killed?", flush=True)
    sys.stdin.readline()
    produce(n)
    consume(2 * n)
    producer.close()
    consumer.close()
    print(json.dumps(got), flush=True)
    """
)


def test_kafka_python_follows_the_leader(
    leaders_cluster: KafkaCluster, leaders_view: ClusterView, tmp_path: Path
) -> None:
    """kafka-python (its own virtualenv, its own process) produces and consumes; its leader is SIGKILLed between
    the two halves and the same producer and consumer carry on."""
    if not KAFKA_PYTHON.exists():
        pytest.fail("make install creates .venv-kafka-python with kafka-python")
    cluster, view, topic = leaders_cluster, leaders_view, "follow-kafka-python"
    create_topic(cluster, view, topic)
    script = tmp_path / "follow.py"
    script.write_text(KAFKA_PYTHON_SCRIPT)
    process = subprocess.Popen(
        [str(KAFKA_PYTHON), str(script), all_brokers(cluster), topic, str(N)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert process.stdout is not None and process.stdin is not None
        assert process.stdout.readline().strip() == "killed?", process.stderr.read() if process.stderr else ""
        killed = kill_leader(cluster, view, topic)
        process.stdin.write("yes\n")
        process.stdin.flush()
        out, err = process.communicate(timeout=240)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err[-3000:]
    assert json.loads(out.strip().splitlines()[-1]) == values(0, 2 * N)
    heal(cluster, view, topic, killed)


def test_controlled_shutdown_moves_leadership_before_the_broker_stops(
    leaders_cluster: KafkaCluster, leaders_view: ClusterView
) -> None:
    """SIGTERM to the leader while a producer writes: the broker logs a successful controlled shutdown, the
    partition has a new leader and an ISR without it, and no record fails although each must be delivered within
    five seconds, less than the ZooKeeper session an uncontrolled exit would leave the partition leaderless for."""
    cluster, view, topic = leaders_cluster, leaders_view, "follow-controlled-shutdown"
    leader = create_topic(cluster, view, topic)
    producer = Producer(
        {
            "bootstrap.servers": all_brokers(cluster),
            "acks": "all",
            "enable.idempotence": True,
            "message.timeout.ms": 5000,
            "linger.ms": 5,
        }
    )
    errors: list[Any] = []
    delivered: list[int] = []
    stop = threading.Event()

    def write() -> None:
        i = 0
        while not stop.is_set():

            def report(err: Any, msg: Any) -> None:
                if err is None:
                    delivered.append(msg.offset())
                else:
                    errors.append(err)

            producer.produce(topic, value=f"v{i}".encode(), partition=0, on_delivery=report)
            i += 1
            producer.poll(0.005)
        producer.flush(30)

    writer = threading.Thread(target=write, name="controlled-shutdown-writer")
    writer.start()
    try:
        wait_until_true(lambda: len(delivered) >= 200, "the producer writes", 60)
        broker = cluster.broker(leader)
        server_log = broker.app_log_dir / "server.log"
        succeeded_before = server_log.read_text(errors="replace").count("Controlled shutdown succeeded")
        assert broker.stop(signal.SIGTERM, timeout=120) == 0
        assert server_log.read_text(errors="replace").count("Controlled shutdown succeeded") == succeeded_before + 1
        # The controlled-shutdown election tells the stopping broker too (Kafka's recipients include it), so it
        # may follow the new leader for a moment and be taken back into the ISR before it exits; once it is gone
        # the controller takes it out again.
        wait_until_true(
            lambda: (s := view.partition_state(topic))["leader"] not in (-1, leader) and leader not in s["isr"],
            "a new leader and an ISR without the stopped broker",
            30,
            pause=0.2,
        )
        count = len(delivered)
        wait_until_true(lambda: len(delivered) >= count + 200, "the producer goes on with the new leader", 60)
    finally:
        stop.set()
        writer.join(60)
    assert errors == []
    cluster.broker(leader).start(timeout=120)
    wait_until_true(lambda: view.isr(topic) == [0, 1, 2], "ISR whole again", 90, pause=0.2)
