"""A Jepsen-style workload for a three-broker cluster: an idempotent acks=all producer writes numbered records
while a nemesis kills, restarts, pauses and resumes brokers (leaders and the controller among them); afterwards
every acknowledged record must be read back exactly once, in order per key, and every partition's ISR must be
whole again.

The short run is a test in `make test` (tests/integration/test_replication_faults.py); the long one is a soak
script (tests/bench/replication_soak.py).
"""

from __future__ import annotations

import random
import signal
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.integration.cluster import ClusterView, KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

KEYS = 12


def create_replicated_topic(cluster: KafkaCluster, topic: str, partitions: int) -> None:
    """Creates `topic` with three replicas and min.insync.replicas=2, as the fault workloads write to."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    new_topic = NewTopic(topic, partitions, 3, config={"min.insync.replicas": "2"})
    admin.create_topics([new_topic])[topic].result(30)


@contextmanager
def soak_cluster(name: str, overrides: Mapping[str, str], seed: int) -> Iterator[KafkaCluster]:
    """For the soak scripts: ZooKeeper and three brokers in a new temporary directory (kept, and printed with the
    seed), the cluster's chroot /`name`; stopped on the way out."""
    work = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    (work / "zk").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    cluster = KafkaCluster(work, f"{zk.connect_string}/{name}", overrides=dict(overrides))
    print(f"seed {seed}, work directory {work}", flush=True)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        zk.stop()


@dataclass
class Outcome:
    acknowledged: int = 0
    failed: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    faults: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Records the producer itself wrote twice, each copy under a different producer epoch (see check()).
    rewritten_by_client: list[str] = field(default_factory=list)


class FaultWorkload:
    def __init__(self, cluster: KafkaCluster, topic: str, partitions: int = 3, seed: int | None = None) -> None:
        self.cluster = cluster
        self.topic = topic
        self.partitions = partitions
        self.random = random.Random(seed)
        self.view = ClusterView(cluster.zk_connect)
        self.outcome = Outcome()
        # (key, sequence number) -> (partition, offset) of each acknowledged record
        self._acked: dict[tuple[str, int], tuple[int, int]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._writer: threading.Thread | None = None
        self._producer: Any = None

    # -- set-up ------------------------------------------------------------------------------------------------

    def create_topic(self) -> None:
        create_replicated_topic(self.cluster, self.topic, self.partitions)
        self.wait_for_full_isr(60)

    def wait_for_full_isr(self, timeout: float) -> None:
        def whole() -> bool:
            try:
                return all(self.view.isr(self.topic, p) == [0, 1, 2] for p in range(self.partitions))
            except Exception:
                return False

        wait_until_true(whole, f"every partition of {self.topic} has the ISR [0, 1, 2]", timeout=timeout, pause=0.2)

    # -- the producer ------------------------------------------------------------------------------------------

    def start_producing(self, rate: float = 200.0) -> None:
        from confluent_kafka import Producer

        self._producer = Producer(
            {
                "bootstrap.servers": ",".join(b.bootstrap for b in self.cluster.brokers),
                "acks": "all",
                "enable.idempotence": True,
                "linger.ms": 5,
                "message.timeout.ms": 120_000,
                "reconnect.backoff.max.ms": 1000,
            }
        )
        self._writer = threading.Thread(target=self._produce, args=(rate,), name="fault-workload-producer")
        self._writer.start()

    def _produce(self, rate: float) -> None:
        producer = self._producer
        sequence: dict[str, int] = defaultdict(int)
        start = time.monotonic()
        n = 0
        while not self._stop.is_set():
            key = f"k{n % KEYS}"
            seq = sequence[key]
            sequence[key] += 1
            n += 1

            def on_delivery(err: Any, msg: Any, key: str = key, seq: int = seq) -> None:
                with self._lock:
                    if err is None:
                        self.outcome.acknowledged += 1
                        self._acked[(key, seq)] = (msg.partition(), msg.offset())
                    else:
                        self.outcome.failed += 1
                        self.outcome.errors[err.name()] += 1

            while True:
                try:
                    producer.produce(self.topic, key=key.encode(), value=str(seq).encode(), on_delivery=on_delivery)
                    break
                except BufferError:
                    producer.poll(0.05)
            due = start + n / rate
            while time.monotonic() < due and not self._stop.is_set():
                producer.poll(0.005)
            producer.poll(0)

    def stop_producing(self) -> None:
        self._stop.set()
        if self._writer is not None:
            self._writer.join(30)
        if self._producer is not None:
            self._producer.flush(180)

    # -- the nemesis -------------------------------------------------------------------------------------------

    def leader_of(self, partition: int) -> int:
        return self.view.leader(self.topic, partition)

    def inject_fault(self, heal_after: float = 3.0, session_timeout_ms: int = 6000) -> str:
        """One fault, healed: SIGKILL a leader or the controller and restart it, or pause one past its ZooKeeper
        session and resume it. Returns what was done."""
        kind = self.random.choice(["kill-leader", "kill-controller", "pause-leader", "pause-follower"])
        partition = self.random.randrange(self.partitions)
        leader = self.leader_of(partition)
        if kind == "kill-controller":
            victim = self.view.controller()
            victim = victim if victim >= 0 else leader
        elif kind == "pause-follower":
            victim = self.random.choice([b for b in range(3) if b != leader])
        else:
            victim = leader
        broker = self.cluster.broker(victim)
        if kind.startswith("kill"):
            broker.kill()
            time.sleep(heal_after)
            broker.start(timeout=120)
        else:
            broker.signal(signal.SIGSTOP)
            time.sleep(session_timeout_ms / 1000 + heal_after)  # long enough for its session to expire
            broker.signal(signal.SIGCONT)
        what = f"{kind} broker {victim} (partition {partition})"
        self.outcome.faults.append(what)
        return what

    # -- the check ---------------------------------------------------------------------------------------------

    def read_back(self, timeout: float = 120.0) -> dict[int, list[tuple[int, str, int]]]:
        """Every record of the topic, per partition, as (offset, key, sequence number), read to the end."""
        from confluent_kafka import Consumer, TopicPartition

        consumer = Consumer(
            {
                "bootstrap.servers": ",".join(b.bootstrap for b in self.cluster.brokers),
                "group.id": f"check-{time.monotonic_ns()}",
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
                "isolation.level": "read_committed",
            }
        )
        try:
            ends = {}
            for p in range(self.partitions):
                _, high = consumer.get_watermark_offsets(TopicPartition(self.topic, p), timeout=30)
                ends[p] = high
            consumer.assign([TopicPartition(self.topic, p, 0) for p in range(self.partitions)])
            records: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
            deadline = time.monotonic() + timeout
            done = {p for p, end in ends.items() if end == 0}
            while len(done) < self.partitions and time.monotonic() < deadline:
                msg = consumer.poll(0.5)
                if msg is None or msg.error() is not None:
                    continue
                partition, offset, key, value = msg.partition(), msg.offset(), msg.key(), msg.value()
                assert partition is not None and offset is not None and key is not None and value is not None
                records[partition].append((offset, key.decode(), int(value)))
                if offset + 1 >= ends[partition]:
                    done.add(partition)
            if len(done) < self.partitions:
                raise AssertionError(f"could not read to the end offsets {ends} within {timeout} s")
            return records
        finally:
            consumer.close()

    def check(self) -> Outcome:
        """Every acknowledged record is stored; each key's records are in order of their first copies; a record
        stored more than once is the client's re-send (one copy per producer epoch) or a problem."""
        records = self.read_back()
        seen: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)
        for partition, entries in records.items():
            last_seq: dict[str, int] = {}
            for offset, key, seq in entries:
                copies = seen[(key, seq)]
                copies.append((partition, offset))
                if len(copies) > 1:
                    continue  # a further copy of a stored record: judged below by its producer epochs
                if key in last_seq and seq <= last_seq[key]:
                    self.outcome.problems.append(
                        f"key {key}: sequence {seq} at {partition}/{offset} after {last_seq[key]} (out of order)"
                    )
                last_seq[key] = seq
        with self._lock:
            acked = dict(self._acked)
        for (key, seq), where in acked.items():
            if not seen.get((key, seq)):
                self.outcome.problems.append(f"acknowledged {key}={seq} at {where[0]}/{where[1]} is lost")
        # Acknowledged or not: an idempotent producer's record must not be stored twice within one producer epoch.
        for (key, seq), copies in seen.items():
            if len(copies) < 2:
                continue
            epochs = {self._producer_epoch_at(partition, offset) for partition, offset in copies}
            what = f"{key}={seq} appears {len(copies)} times: {copies}"
            if len(epochs) == len(copies):
                # librdkafka's idempotent producer sometimes re-sends a record it was told NOT_LEADER_OR_FOLLOWER
                # for (an acks=all write appended before the leader moved, committed by the new leader) after
                # bumping its producer epoch and resetting sequences (confluentinc/librdkafka#4953). A broker can
                # only deduplicate within one producer epoch, as Kafka's; a copy per epoch is the client's doing.
                self.outcome.rewritten_by_client.append(f"{what} under producer epochs {sorted(epochs)}")
            else:
                self.outcome.problems.append(what)
        return self.outcome

    def _producer_epoch_at(self, partition: int, offset: int) -> int:
        """The producer epoch of the batch holding `offset`, read from the segment files of a running broker."""
        from kafka.common.record.file_records import FileRecords

        for broker in self.cluster.brokers:
            segments = sorted((broker.log_dir / f"{self.topic}-{partition}").glob("*.log"))
            for segment in reversed(segments):
                if int(segment.stem) > offset:
                    continue
                records = FileRecords.open(segment, mutable=False)
                try:
                    for batch in records.batches():
                        if batch.base_offset() <= offset <= batch.last_offset():
                            return int(batch.producer_epoch())
                finally:
                    records.close()
        raise AssertionError(f"offset {offset} of partition {partition} is in no segment")

    def close(self) -> None:
        self.view.close()
