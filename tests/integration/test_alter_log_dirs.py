"""Moving a replica between the log directories of one broker (AlterReplicaLogDirs), as an operator does it: a
broker from the bin scripts with two `log.dirs`, `kafka-reassign-partitions.sh` with `log_dirs` in its JSON file and
`--replica-alter-log-dirs-throttle`, `kafka-log-dirs.sh --describe` to watch it, while a confluent-kafka producer
keeps writing; every acknowledged record is read back afterwards. Bad directories get Kafka's errors."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.clients.admin.admin import Admin
from kafka.common.errors import LogDirNotFoundException, UnknownTopicOrPartitionException
from kafka.common.kafka_future import ExecutionException
from kafka.common.topic_partition_replica import TopicPartitionReplica
from tests.integration.broker import BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "bin"
TOPIC = "moving"


def tool(script: str, *args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(BIN / script), *args], capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr + done.stdout
    return done


@pytest.fixture
def broker(zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path) -> Iterator[BrokerProcess]:
    dirs = [tmp_path / "dir-a", tmp_path / "dir-b"]
    b = BrokerProcess(
        tmp_path,
        zookeeper.connect_string + zk_chroot,
        overrides={
            "log.dirs": ",".join(str(d) for d in dirs),
            # Small reads, so that the throttle paces the copy and the move can be watched while it runs.
            "replica.fetch.max.bytes": "16384",
            # The replaced log's `-delete` directory goes soon after the swap.
            "log.segment.delete.delay.ms": "500",
        },
    )
    b.start()
    try:
        yield b
    finally:
        b.stop()


def log_dirs_of(bootstrap: str) -> dict[str, list[dict[str, Any]]]:
    """kafka-log-dirs.sh --describe: the partitions of TOPIC in each log directory of broker 0."""
    run = tool("kafka-log-dirs.sh", "--describe", "--bootstrap-server", bootstrap, "--topic-list", TOPIC)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "Querying brokers for log directories information"
    assert lines[1] == "Received log directory information from brokers 0"
    (broker,) = json.loads(lines[2])["brokers"]
    return {d["logDir"]: d["partitions"] for d in broker["logDirs"]}


def partition_dirs(log_dir: Path) -> list[str]:
    return sorted(p.name for p in log_dir.iterdir() if p.name.startswith(f"{TOPIC}-0"))


def test_replica_moves_to_the_other_log_dir_while_producing(broker: BrokerProcess, tmp_path: Path) -> None:
    """A partition with data moves to the other log directory under a throttle while a producer writes: the move
    shows as a future replica in kafka-log-dirs.sh, then the partition is only in the new directory, the old one has
    nothing of it left, and every acknowledged record reads back once, in order."""
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(TOPIC, 1, 1)])[TOPIC].result(30)
    dir_a, dir_b = tmp_path / "dir-a", tmp_path / "dir-b"
    wait_until_true(lambda: bool(partition_dirs(dir_a) or partition_dirs(dir_b)), "the partition's log to exist")
    source, destination = (dir_a, dir_b) if partition_dirs(dir_a) else (dir_b, dir_a)

    acked: list[bytes] = []
    lock = threading.Lock()

    def on_delivery(err: Any, msg: Any) -> None:
        if err is None:
            with lock:
                acked.append(msg.value())

    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 5})
    # About 1.2 MB before the move starts: some seconds of copying at the throttle below.
    for i in range(6000):
        producer.produce(TOPIC, value=f"before-{i:06d}-".encode() + b"x" * 180, on_delivery=on_delivery)
        if i % 500 == 0:
            producer.poll(0)
    assert producer.flush(60) == 0

    stop = threading.Event()

    def produce_during_move() -> None:
        i = 0
        while not stop.is_set():
            producer.produce(TOPIC, value=f"during-{i:06d}".encode(), on_delivery=on_delivery)
            producer.poll(0.01)
            i += 1
        producer.flush(60)

    writer = threading.Thread(target=produce_during_move, name="test-producer")
    writer.start()
    try:
        reassignment = tmp_path / "move.json"
        reassignment.write_text(
            json.dumps(
                {
                    "version": 1,
                    "partitions": [{"topic": TOPIC, "partition": 0, "replicas": [0], "log_dirs": [str(destination)]}],
                }
            )
        )
        run = tool(
            "kafka-reassign-partitions.sh",
            "--bootstrap-server",
            broker.bootstrap,
            "--execute",
            "--reassignment-json-file",
            str(reassignment),
            "--replica-alter-log-dirs-throttle",
            "100000",
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"Successfully started log directory move for: {TOPIC}-0-0" in run.stdout, run.stdout

        # While the copy runs: the current replica in the source dir, the future one in the destination.
        described = log_dirs_of(broker.bootstrap)
        assert [p["partition"] for p in described[str(source)]] == [f"{TOPIC}-0"]
        assert [p["isFuture"] for p in described[str(source)]] == [False]
        assert [(p["partition"], p["isFuture"]) for p in described[str(destination)]] == [(f"{TOPIC}-0", True)]
        assert any(name.endswith("-future") for name in partition_dirs(destination))

        def moved() -> bool:
            d = log_dirs_of(broker.bootstrap)
            return d[str(source)] == [] and [(p["partition"], p["isFuture"]) for p in d[str(destination)]] == [
                (f"{TOPIC}-0", False)
            ]

        wait_until_true(moved, "the replica to be moved to the destination dir", timeout=120)
    finally:
        stop.set()
        writer.join(90)
    assert not writer.is_alive()

    # --verify reports the move done and removes the throttle.
    run = tool(
        "kafka-reassign-partitions.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--verify",
        "--reassignment-json-file",
        str(reassignment),
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Reassignment of replica {TOPIC}-0-0 completed successfully." in run.stdout, run.stdout
    assert partition_dirs(destination) == [f"{TOPIC}-0"]
    wait_until_true(lambda: partition_dirs(source) == [], "the old log dir to be deleted", timeout=60)

    with lock:
        expected = list(acked)
    assert len(expected) > 6000
    consumer = ck.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": "read-back",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([TOPIC])
    read: list[bytes | None] = []
    try:

        def read_all() -> bool:
            for msg in consumer.consume(500, 1.0):
                assert msg.error() is None, msg.error()
                read.append(msg.value())
            return len(read) >= len(expected)

        wait_until_true(read_all, "every acknowledged record to be read back", timeout=120)
    finally:
        consumer.close()
    assert read == expected


def test_bad_log_dirs_get_kafkas_errors(broker: BrokerProcess, tmp_path: Path) -> None:
    """AlterReplicaLogDirs through our admin client: a directory the broker does not have, or a relative path, is
    LOG_DIR_NOT_FOUND and moves nothing; a partition of a topic that does not exist yet is UNKNOWN_TOPIC_OR_PARTITION
    (as Kafka answers), but its directory is remembered: the partition is created there when the topic is."""
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(TOPIC, 1, 1)])[TOPIC].result(30)
    dir_a, dir_b = tmp_path / "dir-a", tmp_path / "dir-b"
    wait_until_true(lambda: bool(partition_dirs(dir_a) or partition_dirs(dir_b)), "the partition's log to exist")
    # A new partition would go to the emptier directory; the one asked for below is the other.
    source = dir_a if partition_dirs(dir_a) else dir_b
    ours = Admin.create({"bootstrap.servers": broker.bootstrap})
    try:
        cases: list[tuple[TopicPartitionReplica, str, type[BaseException]]] = [
            (TopicPartitionReplica(TOPIC, 0, 0), str(tmp_path / "not-configured"), LogDirNotFoundException),
            (TopicPartitionReplica(TOPIC, 0, 0), source.name, LogDirNotFoundException),
            (TopicPartitionReplica("later", 0, 0), str(source), UnknownTopicOrPartitionException),
        ]
        for replica, log_dir, expected in cases:
            future = ours.alter_replica_log_dirs({replica: log_dir}).values()[replica]
            with pytest.raises(ExecutionException) as info:
                future.get()
            assert isinstance(info.value.cause, expected), (log_dir, info.value.cause)
    finally:
        ours.close()
    # Nothing moved, and the partition is still served from where it was.
    described = log_dirs_of(broker.bootstrap)
    assert sorted(len(parts) for parts in described.values()) == [0, 1]
    assert all(not p["isFuture"] for parts in described.values() for p in parts)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all"})
    producer.produce(TOPIC, value=b"still-served")
    assert producer.flush(30) == 0
    admin.create_topics([NewTopic("later", 1, 1)])["later"].result(30)
    wait_until_true(
        lambda: any(p.name == "later-0" for p in source.iterdir()), "the new partition to be created in its asked dir"
    )
