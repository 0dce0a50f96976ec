"""A workload of transactional producers on a three-broker cluster (issue 13): confluent-kafka producers, each
with its own transactional.id, commit and abort transactions of known records over an RF=3 topic while a
nemesis SIGKILLs the transaction coordinator of their ids or a partition leader and restarts it. Afterwards a
read_committed consumer must see exactly the committed records, each once, in each producer's order per
partition; no record of an aborted transaction; and a transaction whose outcome the client could not learn
(its producer failed fatally mid-commit) all or nothing.

The short run is tests/integration/test_transactions_faults.py; the soak is this module as a script:

    .venv/bin/python -m tests.integration.txn_fault_workload [--faults 20] [--producers 3] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from kafka.common.utils.utils import abs_int32, java_string_hash_code
from tests.integration.cluster import ClusterView, KafkaCluster
from tests.integration.fault_workload import create_replicated_topic, soak_cluster
from tests.integration.txn_support import Offsets, Reader
from tests.utils import wait_until_true

TRANSACTION_STATE_TOPIC = "__transaction_state"
TXN_LOG_PARTITIONS = 5
# Over the brokers' defaults for this workload: the transaction log and the offsets topic with RF=3 and
# min.insync.replicas=2 on few partitions (fewer to elect and load after each fault), sessions short enough
# for a SIGKILLed broker to leave the cluster in seconds.
CLUSTER_OVERRIDES = {
    "transaction.state.log.replication.factor": "3",
    "transaction.state.log.min.isr": "2",
    "transaction.state.log.num.partitions": str(TXN_LOG_PARTITIONS),
    "offsets.topic.num.partitions": "5",
    "zookeeper.session.timeout.ms": "6000",
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "1000",
}
RECORDS_PER_TXN = 8


@dataclass
class Transaction:
    producer: int
    number: int
    values: list[str]
    outcome: str = "open"  # then "committed", "aborted" or "unknown" (the client could not learn it)


@dataclass
class TxnOutcome:
    transactions: list[Transaction] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    restarts: int = 0  # producers replaced after a fatal error
    faults: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return sum(1 for t in self.transactions if t.outcome == outcome)


class TxnFaultWorkload:
    def __init__(
        self,
        cluster: KafkaCluster,
        topic: str,
        partitions: int = 3,
        producers: int = 2,
        abort_ratio: float = 0.3,
        seed: int | None = None,
    ) -> None:
        self.cluster = cluster
        self.topic = topic
        self.partitions = partitions
        self.transactional_ids = [f"{topic}-txn-{i}" for i in range(producers)]
        self.abort_ratio = abort_ratio
        self.random = random.Random(seed)
        self.view = ClusterView(cluster.zk_connect)
        self.outcome = TxnOutcome()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def bootstrap(self) -> str:
        return ",".join(b.bootstrap for b in self.cluster.brokers)

    # -- set-up ------------------------------------------------------------------------------------------------

    def create_topic(self) -> None:
        create_replicated_topic(self.cluster, self.topic, self.partitions)
        self.wait_for_full_isr(60)

    def wait_for_full_isr(self, timeout: float) -> None:
        """Every partition of the topic, and of the transaction log once it exists, has all three brokers in its
        ISR."""

        def whole() -> bool:
            try:
                topics = [(self.topic, self.partitions)]
                if self.view.zk.exists(f"/brokers/topics/{TRANSACTION_STATE_TOPIC}"):
                    topics.append((TRANSACTION_STATE_TOPIC, TXN_LOG_PARTITIONS))
                return all(self.view.isr(t, p) == [0, 1, 2] for t, n in topics for p in range(n))
            except Exception:
                return False

        wait_until_true(whole, f"{self.topic} and the transaction log have whole ISRs", timeout=timeout, pause=0.2)

    # -- the producers -----------------------------------------------------------------------------------------

    def start(self) -> None:
        for i in range(len(self.transactional_ids)):
            thread = threading.Thread(target=self._run_producer, args=(i,), name=f"txn-workload-producer-{i}")
            self._threads.append(thread)
            thread.start()

    def wait_for_commits(self, n: int, timeout: float = 120.0) -> None:
        wait_until_true(
            lambda: self.outcome.count("committed") >= n, f"{n} transactions committed", timeout=timeout, pause=0.1
        )

    def _new_producer(self, index: int) -> Any:
        from confluent_kafka import KafkaException, Producer

        deadline = time.monotonic() + 180
        while True:
            producer = Producer(
                {
                    "bootstrap.servers": self.bootstrap,
                    "transactional.id": self.transactional_ids[index],
                    "transaction.timeout.ms": 30_000,
                    "linger.ms": 5,
                    "reconnect.backoff.max.ms": 1000,
                }
            )
            try:
                producer.init_transactions(60)
                return producer
            except KafkaException as e:
                self._count_error("init_transactions", e)
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def _run_producer(self, index: int) -> None:
        try:
            self._transactions(index)
        except BaseException as e:
            with self._lock:
                self.outcome.problems.append(f"producer {index} gave up: {e!r}")
            raise

    def _transactions(self, index: int) -> None:
        from confluent_kafka import KafkaException

        producer = self._new_producer(index)
        number = 0
        while not self._stop.is_set():
            values = [f"p{index}-t{number}-r{j}" for j in range(RECORDS_PER_TXN)]
            txn = Transaction(index, number, values)
            number += 1
            commit = self.random.random() >= self.abort_ratio
            with self._lock:
                self.outcome.transactions.append(txn)
            try:
                producer.begin_transaction()
                for j, value in enumerate(values):
                    self._produce(producer, value, j % self.partitions)
                if commit:
                    self._finish(producer.commit_transaction, "commit_transaction")
                else:
                    self._finish(producer.abort_transaction, "abort_transaction")
                txn.outcome = "committed" if commit else "aborted"
            except KafkaException as e:
                error = e.args[0]
                self._count_error("transaction", e)
                if error.txn_requires_abort():
                    try:
                        self._finish(producer.abort_transaction, "abort_transaction")
                        txn.outcome = "aborted"
                        continue
                    except KafkaException as abort_error:
                        self._count_error("abort after an abortable error", abort_error)
                # Fatal, or retried too long: whether the transaction committed is not known here. A new producer
                # with the same transactional.id fences this one and has an open transaction aborted.
                txn.outcome = "unknown"
                with self._lock:
                    self.outcome.restarts += 1
                producer = self._new_producer(index)
            time.sleep(0.02)

    def _produce(self, producer: Any, value: str, partition: int) -> None:
        while True:
            try:
                producer.produce(self.topic, value=value.encode(), partition=partition)
                return
            except BufferError:
                producer.poll(0.05)

    def _finish(self, end: Any, what: str) -> None:
        """commit_transaction or abort_transaction, called again while it fails with a retriable error (as
        librdkafka asks) for up to three minutes."""
        from confluent_kafka import KafkaException

        deadline = time.monotonic() + 180
        while True:
            try:
                end(30)
                return
            except KafkaException as e:
                if not e.args[0].retriable() or time.monotonic() > deadline:
                    raise
                self._count_error(what, e)

    def _count_error(self, where: str, e: Any) -> None:
        error = e.args[0] if e.args else e
        name = error.name() if hasattr(error, "name") else type(error).__name__
        with self._lock:
            self.outcome.errors[f"{where}: {name}"] += 1

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(300)
            assert not thread.is_alive(), f"{thread.name} did not finish its last transaction in 300 s"

    # -- the nemesis -------------------------------------------------------------------------------------------

    def coordinator_of(self, transactional_id: str) -> int:
        """The broker leading the transaction log partition of the id (partitioned as Kafka does)."""
        partition = abs_int32(java_string_hash_code(transactional_id)) % TXN_LOG_PARTITIONS
        return self.view.leader(TRANSACTION_STATE_TOPIC, partition)

    def kill_and_restart(self, victim: int, what: str, down_for: float = 3.0) -> str:
        broker = self.cluster.broker(victim)
        broker.kill()
        time.sleep(down_for)
        broker.start(timeout=120)
        done = f"{what}: SIGKILLed broker {victim}, restarted after {down_for} s"
        self.outcome.faults.append(done)
        return done

    def kill_coordinator(self) -> str:
        tid = self.random.choice(self.transactional_ids)
        return self.kill_and_restart(self.coordinator_of(tid), f"transaction coordinator of {tid}")

    def kill_partition_leader(self) -> str:
        """SIGKILLs the leader of a partition of the topic, one that is not a coordinator of the ids if there is
        one (so that this fault is about the data partition)."""
        coordinators = {self.coordinator_of(t) for t in self.transactional_ids}
        leaders = {p: self.view.leader(self.topic, p) for p in range(self.partitions)}
        candidates = [p for p, b in leaders.items() if b not in coordinators] or list(leaders)
        partition = self.random.choice(candidates)
        return self.kill_and_restart(leaders[partition], f"leader of {self.topic}-{partition}")

    # -- the check ---------------------------------------------------------------------------------------------

    def check(self, timeout: float = 180.0) -> TxnOutcome:
        """Reads the topic with read_committed once no transaction is open and compares it with the outcomes."""
        offsets = Offsets(self.bootstrap)
        try:
            offsets.wait_stable(self.topic, self.partitions, timeout)
        finally:
            offsets.close()
        reader = Reader(self.bootstrap, self.topic, self.partitions)
        try:
            records = reader.read_to_end(timeout)
        finally:
            reader.close()
        problems = self.outcome.problems
        seen = Counter(value for _, _, value in records)
        by_value = {v: t for t in self.outcome.transactions for v in t.values}
        for value, n in seen.items():
            if value not in by_value:
                problems.append(f"{value} read but never produced")
            elif n > 1:
                problems.append(f"{value} read {n} times")
        for txn in self.outcome.transactions:
            present = [v for v in txn.values if seen[v] > 0]
            name = f"transaction {txn.number} of producer {txn.producer} ({txn.outcome})"
            if txn.outcome == "committed" and len(present) != len(txn.values):
                missing = sorted(set(txn.values) - set(present))
                problems.append(f"{name}: {len(missing)} committed records lost: {missing}")
            elif txn.outcome == "aborted" and present:
                problems.append(f"{name}: aborted records read: {present}")
            elif txn.outcome in ("unknown", "open") and present and len(present) != len(txn.values):
                problems.append(f"{name}: only part of it read: {present}")
        # Each producer's records in a partition come in the order it wrote them.
        last: dict[tuple[int, int], tuple[int, int]] = {}
        for partition, offset, value in records:
            if value not in by_value:
                continue
            producer, number, record = (int(part[1:]) for part in value.split("-"))
            key = (partition, producer)
            if key in last and last[key] >= (number, record):
                problems.append(f"{value} at {partition}/{offset} after t{last[key][0]}-r{last[key][1]}")
            last[key] = (number, record)
        return self.outcome

    def summary(self) -> str:
        o = self.outcome
        return (
            f"transactions: {o.count('committed')} committed, {o.count('aborted')} aborted, "
            f"{o.count('unknown')} unknown; producers replaced: {o.restarts}; errors: {dict(o.errors)}; "
            f"faults: {o.faults}"
        )

    def close(self) -> None:
        self.view.close()


def main(argv: list[str]) -> int:
    """The soak: `--faults` SIGKILLs, coordinators and partition leaders in turn, each restarted and the ISRs
    whole again before the next."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--faults", type=int, default=20)
    ap.add_argument("--producers", type=int, default=3)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--pause", type=float, default=5.0, help="seconds of producing between faults")
    args = ap.parse_args(argv)
    with soak_cluster("txn-soak", CLUSTER_OVERRIDES, args.seed) as cluster:
        workload = TxnFaultWorkload(cluster, "txn-soak", producers=args.producers, seed=args.seed)
        workload.create_topic()
        workload.start()
        workload.wait_for_commits(5, timeout=180)
        workload.wait_for_full_isr(120)
        t0 = time.monotonic()
        for i in range(args.faults):
            time.sleep(args.pause)
            what = workload.kill_coordinator() if i % 2 == 0 else workload.kill_partition_leader()
            workload.wait_for_full_isr(180)
            print(f"[{time.monotonic() - t0:7.1f} s] fault {i + 1}/{args.faults}: {what}; ISRs whole", flush=True)
        committed = workload.outcome.count("committed")
        workload.wait_for_commits(committed + 5, timeout=180)
        workload.stop()
        outcome = workload.check()
        workload.close()
    print(workload.summary())
    for problem in outcome.problems[:50]:
        print("PROBLEM:", problem)
    print("OK: exactly the committed records, once each" if not outcome.problems else "FAILED")
    return 0 if not outcome.problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
