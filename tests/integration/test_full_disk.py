"""A log directory that runs out of space, for real: a small tmpfs mounted as one of the broker's `log.dirs`, filled
by a confluent-kafka producer until the file system refuses the next append (ENOSPC). As in Kafka, the directory goes
offline with a log line naming it and the cause, its partitions stop being served, the broker keeps serving the
partitions of its other directories, and it halts only when its last directory has failed. Nothing acknowledged is
lost: after the file system is given room and the broker restarted, every acknowledged record reads back once and in
order. Mounting needs root: CI runs as root, and there a refused mount fails the tests; run as another user they
are skipped and say why."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import BrokerProcess
from tests.integration.cluster import TEST_OVERRIDES, ClusterView, KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
TOPIC = "filling"
SMALL_FS = "4m"
VALUE_PAD = b"x" * 1000


class SmallFileSystem:
    """A tmpfs of `size` mounted at `path`: a disk that fills after a few MB."""

    def __init__(self, path: Path, size: str) -> None:
        self.path = path
        path.mkdir()
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True
        )
        if done.returncode != 0:
            reason = f"cannot mount a small tmpfs to fill: {done.stderr.strip()}"
            if os.geteuid() != 0:
                pytest.skip(f"{reason} (needs root)")
            pytest.fail(reason)

    def grow(self, size: str) -> None:
        """Gives the file system room, keeping its files (as an operator would free or add space)."""
        subprocess.run(["mount", "-o", f"remount,size={size}", str(self.path)], check=True)

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False)


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[SmallFileSystem]:
    fs = SmallFileSystem(tmp_path / "small", SMALL_FS)
    try:
        yield fs
    finally:
        fs.unmount()


def broker_on(tmp_path: Path, zk_connect: str, log_dirs: list[Path]) -> BrokerProcess:
    """A broker with these log dirs, not yet started (start it inside the try that stops it)."""
    return BrokerProcess(tmp_path, zk_connect, overrides={"log.dirs": ",".join(str(d) for d in log_dirs)})


def create_topic(bootstrap: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(TOPIC, partitions, 1)])[TOPIC].result(30)


def partition_in(log_dir: Path) -> list[int]:
    return sorted(int(p.name.rsplit("-", 1)[1]) for p in log_dir.glob(f"{TOPIC}-*") if p.is_dir())


class Writer:
    """A confluent-kafka producer (acks=all) that remembers which values were acknowledged, per partition, and the
    errors of those that were not."""

    def __init__(self, bootstrap: str, message_timeout_ms: int = 10000, idempotent: bool = False) -> None:
        self.producer = ck.Producer(
            {
                "bootstrap.servers": bootstrap,
                "acks": "all",
                "linger.ms": 5,
                "message.timeout.ms": message_timeout_ms,
                "enable.idempotence": idempotent,
            }
        )
        self.flush_timeout_s = message_timeout_ms / 1000 + 30
        self.acked: dict[int, list[bytes]] = {}
        self.errors: list[str] = []
        self._lock = threading.Lock()

    def _on_delivery(self, err: Any, msg: Any) -> None:
        with self._lock:
            if err is None:
                self.acked.setdefault(msg.partition(), []).append(msg.value()[: -len(VALUE_PAD)])
            else:
                self.errors.append(err.str())

    def write(self, partition: int, count: int, label: str) -> None:
        for i in range(count):
            value = f"{label}-{i:06d}".encode() + VALUE_PAD
            while True:
                try:
                    self.producer.produce(TOPIC, value=value, partition=partition, on_delivery=self._on_delivery)
                    break
                except BufferError:
                    self.producer.poll(0.05)
            if i % 200 == 0:
                self.producer.poll(0)
        assert self.producer.flush(self.flush_timeout_s) == 0


def try_read_back(bootstrap: str, partition: int) -> list[bytes] | str:
    """The partition's values, without their padding, read with kcat from the beginning to the end; kcat's error
    when it could not read them (a partition not served yet)."""
    done = subprocess.run(
        ["kcat", "-C", "-b", bootstrap, "-t", TOPIC, "-p", str(partition), "-o", "beginning", "-e", "-q", "-f", "%s\n"],
        capture_output=True,
        timeout=60,
    )
    if done.returncode != 0:
        return done.stderr.decode(errors="replace")
    return [line[: -len(VALUE_PAD)] for line in done.stdout.splitlines()]


def read_back(bootstrap: str, partition: int, timeout: float = 60.0) -> list[bytes]:
    """The partition's values, once kcat can read them (after a restart the partition is served once the controller
    has made the broker its leader again)."""
    deadline = time.monotonic() + timeout
    while True:
        stored = try_read_back(bootstrap, partition)
        if isinstance(stored, list):
            return stored
        if time.monotonic() >= deadline:
            raise AssertionError(f"kcat could not read partition {partition} within {timeout} s: {stored}")
        time.sleep(0.5)


def log_dir_errors(bootstrap: str) -> dict[str, Any]:
    """kafka-log-dirs.sh --describe: each log directory of broker 0 and its error (None when online); empty when the
    tool failed (it is asked again)."""
    done = subprocess.run(
        [str(ROOT / "bin" / "kafka-log-dirs.sh"), "--describe", "--bootstrap-server", bootstrap],
        capture_output=True,
        text=True,
        timeout=90,
    )
    if done.returncode != 0:
        return {}
    (broker,) = json.loads(done.stdout.splitlines()[2])["brokers"]
    return {d["logDir"]: d["error"] for d in broker["logDirs"]}


def test_a_full_log_dir_goes_offline_and_the_other_keeps_serving(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, small_fs: SmallFileSystem
) -> None:
    """Two log directories, one a 4 MB tmpfs. Writing 8 MB to the partition there fills it: the directory goes
    offline (logged with ENOSPC and its path; kafka-log-dirs.sh shows KAFKA_STORAGE_ERROR for it) and the later writes
    to that partition are not acknowledged; the partition in the other directory keeps taking writes. With room
    given and the broker restarted, both partitions hold every acknowledged record once, in order."""
    large = tmp_path / "large"
    zk_connect = zookeeper.connect_string + zk_chroot
    broker = broker_on(tmp_path, zk_connect, [large, small_fs.path])
    try:
        broker.start()
        create_topic(broker.bootstrap, 2)
        wait_until_true(lambda: len(partition_in(large) + partition_in(small_fs.path)) == 2, "both partitions' logs")
        (on_small,) = partition_in(small_fs.path)
        (on_large,) = partition_in(large)
        writer = Writer(broker.bootstrap)
        writer.write(on_large, 300, "before")
        writer.write(on_small, 8000, "filling")
        assert 0 < len(writer.acked.get(on_small, [])) < 8000, "the 4 MB file system should take some records, not all"
        assert writer.errors, "the writes that did not fit should fail"

        console = broker.console_since_start()
        assert "No space left on device" in console, console[-4000:]
        assert f"Error while appending records to {TOPIC}-{on_small} in dir {small_fs.path}" in console
        wait_until_true(
            lambda: f"Stopping serving logs in dir {small_fs.path}" in broker.console_since_start(),
            "the broker to stop serving the full directory",
        )
        # Its partition is served no more: the controller has it without a leader.
        wait_until_true(
            lambda: writer.producer.list_topics(TOPIC, timeout=10).topics[TOPIC].partitions[on_small].leader == -1,
            "the full directory's partition to be left without a leader",
            timeout=30,
        )
        wait_until_true(
            lambda: log_dir_errors(broker.bootstrap).get(str(small_fs.path)) is not None,
            "kafka-log-dirs.sh to report the full directory offline",
            timeout=60,
        )
        errors = log_dir_errors(broker.bootstrap)
        assert errors[str(large)] is None
        assert "KafkaStorage" in str(errors[str(small_fs.path)])

        # The broker still serves the other directory's partition, for writes and reads.
        assert broker.is_running
        writer.write(on_large, 300, "after")
        expected_large = [f"before-{i:06d}".encode() for i in range(300)] + [
            f"after-{i:06d}".encode() for i in range(300)
        ]
        assert writer.acked[on_large] == expected_large
        assert read_back(broker.bootstrap, on_large) == expected_large
        acked_small = list(writer.acked[on_small])

        assert broker.stop() == 0
        small_fs.grow("64m")
        broker.start()
        stored = read_back(broker.bootstrap, on_small)
        assert stored[: len(acked_small)] == acked_small, "a record acknowledged before the disk filled is missing"
        assert len(set(stored)) == len(stored), "a record stored twice"
        assert stored == sorted(stored), "records out of order"
        assert read_back(broker.bootstrap, on_large) == expected_large
        writer.write(on_small, 100, "room-again")
        assert writer.acked[on_small][-100:] == [f"room-again-{i:06d}".encode() for i in range(100)]
    finally:
        broker.stop()


def test_a_broker_whose_only_log_dir_fills_halts_and_loses_nothing(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, small_fs: SmallFileSystem
) -> None:
    """One log directory, a 4 MB tmpfs: once it is full the broker halts (Kafka's "all log dirs have failed"), the
    writes it could not store are not acknowledged, and after room is given and the broker restarted every
    acknowledged record reads back once, in order, and new writes are taken."""
    zk_connect = zookeeper.connect_string + zk_chroot
    broker = broker_on(tmp_path, zk_connect, [small_fs.path])
    try:
        broker.start()
        create_topic(broker.bootstrap, 1)
        writer = Writer(broker.bootstrap)
        writer.write(0, 8000, "filling")
        acked = list(writer.acked.get(0, []))
        assert 0 < len(acked) < 8000
        wait_until_true(lambda: not broker.is_running, "the broker to halt, its only log dir full", timeout=30)
        assert broker.stop() == 1
        console = broker.console_since_start()
        assert "No space left on device" in console
        assert f"Shutdown broker because all log dirs in {small_fs.path} have failed" in console, console[-4000:]

        small_fs.grow("64m")
        broker.start()
        stored = read_back(broker.bootstrap, 0)
        assert stored[: len(acked)] == acked
        assert len(set(stored)) == len(stored), "a record stored twice"
        writer.write(0, 100, "room-again")
        assert writer.acked[0][-100:] == [f"room-again-{i:06d}".encode() for i in range(100)]
    finally:
        broker.stop()


def test_a_follower_whose_disk_fills_drops_out_and_nothing_acknowledged_is_lost(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, small_fs: SmallFileSystem
) -> None:
    """Three brokers; broker 2 keeps its only log dir on a 4 MB tmpfs. A partition led by broker 0 with replicas
    0, 1, 2 (min.insync.replicas=2) takes 8 MB from an idempotent producer at acks=all: broker 2's disk fills and it
    halts, the leader shrinks the ISR to 0, 1 and goes on acknowledging, and every record is acknowledged and read back
    once, in order. Given room and restarted, broker 2 recovers its log, catches up, rejoins the ISR and ends with the
    leader's bytes."""
    zk_connect = zookeeper.connect_string + zk_chroot
    cluster = KafkaCluster(
        tmp_path,
        zk_connect,
        overrides={**TEST_OVERRIDES, "replica.lag.time.max.ms": "10000", "zookeeper.session.timeout.ms": "6000"},
    )
    cluster.broker(2).overrides["log.dirs"] = str(small_fs.path)
    try:
        cluster.start()
        admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
        topic = NewTopic(TOPIC, num_partitions=1, replica_assignment=[[0, 1, 2]], config={"min.insync.replicas": "2"})
        admin.create_topics([topic], operation_timeout=30)[TOPIC].result(30)
        with ClusterView(zk_connect) as view:
            wait_until_true(lambda: view.has_partition_state(TOPIC), "the partition's state")
            assert view.leader(TOPIC) == 0
            writer = Writer(cluster.bootstrap, message_timeout_ms=90000, idempotent=True)
            writer.write(0, 8000, "replicated")
            assert writer.errors == []
            expected = [f"replicated-{i:06d}".encode() for i in range(8000)]
            assert writer.acked[0] == expected
            # Acknowledged with min.insync.replicas=2: the leader has dropped broker 2, which halted.
            wait_until_true(lambda: not cluster.broker(2).is_running, "broker 2 to halt, its only log dir full")
            assert cluster.broker(2).stop() == 1
            console = cluster.broker(2).console_since_start()
            assert "No space left on device" in console
            assert f"Shutdown broker because all log dirs in {small_fs.path} have failed" in console
            wait_until_true(lambda: view.isr(TOPIC) == [0, 1], "the ISR without broker 2")
            assert read_back(cluster.bootstrap, 0) == expected

            small_fs.grow("64m")
            cluster.broker(2).start()
            wait_until_true(lambda: view.isr(TOPIC) == [0, 1, 2], "broker 2 to rejoin the ISR", timeout=60)
        segment = f"{TOPIC}-0/00000000000000000000.log"
        leader_bytes = (cluster.broker(0).log_dir / segment).read_bytes()
        wait_until_true(
            lambda: (small_fs.path / segment).read_bytes() == leader_bytes,
            "broker 2's segment to match the leader's",
        )
    finally:
        cluster.stop()
