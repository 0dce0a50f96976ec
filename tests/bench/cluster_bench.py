"""Benchmark of a three-broker cluster on this machine: replicated produce throughput and latency, and how long a
failover takes. librdkafka (confluent-kafka) is the client; the brokers are started from the bin scripts.

    .venv/bin/python -m tests.bench.cluster_bench [--rounds 2] [--out cluster_bench.json]

Measures, for topics with 3 partitions, RF=3 and min.insync.replicas=2:
- produce MB/s with acks=all and acks=1, 100-byte and 10 KB records (the median of the rounds);
- produce-to-acknowledgement p50/p99 at 200 and 1,000 records/s of 1 KB, acks=all and acks=1;
- failover: the time from SIGKILL of a partition's leader (and, separately, from SIGTERM, a controlled shutdown)
  to the first write acknowledged after it, with an idempotent acks=all producer writing 500 records/s.
Prints a Markdown table and writes the raw figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tests.bench.broker_bench import latency
from tests.integration.cluster import KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer

SESSION_TIMEOUT_MS = 6000


def create_topic(bootstrap: str, topic: str, partitions: int = 3) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    new_topic = NewTopic(topic, partitions, 3, config={"min.insync.replicas": "2"})
    admin.create_topics([new_topic])[topic].result(30)
    # Wait until every partition has a leader and a full ISR, as a client would see it.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        md = admin.list_topics(topic, timeout=10).topics[topic]
        if md.error is None and len(md.partitions) == partitions:
            if all(p.leader >= 0 and len(p.isrs) == 3 for p in md.partitions.values()):
                return
        time.sleep(0.1)
    raise RuntimeError(f"{topic} did not get leaders and a full ISR within 30 s")


def throughput(bootstrap: str, acks: str, msgs: int, size: int) -> float:
    """Produce MB/s of `msgs` records of `size` bytes to a fresh RF=3 topic, until all are acknowledged."""
    from confluent_kafka import Producer

    topic = f"tput-{acks}-{size}-{time.monotonic_ns()}"
    create_topic(bootstrap, topic)
    producer = Producer(
        {
            "bootstrap.servers": bootstrap,
            "acks": acks,
            "linger.ms": 5,
            "batch.size": 1 << 20,
            "queue.buffering.max.messages": 1_000_000,
            "queue.buffering.max.kbytes": 1_048_576,
        }
    )
    errors = [0]

    def on_delivery(err: Any, _msg: Any) -> None:
        if err is not None:
            errors[0] += 1

    payload = b"x" * size
    t0 = time.perf_counter()
    for _ in range(msgs):
        while True:
            try:
                producer.produce(topic, payload, on_delivery=on_delivery)
                break
            except BufferError:
                producer.poll(0.01)
    producer.flush(300)
    elapsed = time.perf_counter() - t0
    if errors[0]:
        raise RuntimeError(f"{errors[0]} records failed")
    return round(msgs * size / elapsed / 1e6, 2)


def partition_leader(bootstrap: str, topic: str) -> int:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    return int(admin.list_topics(topic, timeout=10).topics[topic].partitions[0].leader)


def failover(cluster: KafkaCluster, sig: int) -> float:
    """Seconds from `sig` to the leader of a one-partition topic until the first write acknowledged after it."""
    from confluent_kafka import Producer

    topic = f"failover-{sig}-{time.monotonic_ns()}"
    create_topic(cluster.bootstrap, topic, partitions=1)
    leader = partition_leader(cluster.bootstrap, topic)
    producer = Producer(
        {"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True, "linger.ms": 0}
    )
    acked_after: list[float] = []
    signalled = [0.0]
    stop = threading.Event()

    def on_delivery(err: Any, _msg: Any) -> None:
        now = time.monotonic()
        if err is None and signalled[0] and now > signalled[0] and not acked_after:
            acked_after.append(now)

    def produce() -> None:
        while not stop.is_set():
            producer.produce(topic, b"y" * 100, on_delivery=on_delivery)
            producer.poll(0.002)

    writer = threading.Thread(target=produce)
    writer.start()
    try:
        time.sleep(2)
        signalled[0] = time.monotonic()
        cluster.broker(leader).signal(sig)
        deadline = signalled[0] + 120
        while not acked_after and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        writer.join()
        producer.flush(60)
    broker = cluster.broker(leader)
    if broker.is_running:
        broker.stop()  # a controlled shutdown is still finishing
    broker.start()  # back to three brokers for the next measurement
    if not acked_after:
        raise RuntimeError("no write was acknowledged within 120 s of the failure")
    return round(acked_after[0] - signalled[0], 2)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default="cluster_bench.json")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="cluster-bench-"))
    (work / "zk").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    cluster = KafkaCluster(
        work, f"{zk.connect_string}/cluster-bench", overrides={"zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS)}
    )
    results: dict[str, Any] = {}
    try:
        cluster.start()
        for name, msgs, size in (("100B", 100_000, 100), ("10KB", 10_000, 10_240)):
            for acks in ("all", "1"):
                key = f"produce_MB_s_{name}_acks_{acks}"
                for _ in range(args.rounds):
                    results.setdefault(key, []).append(throughput(cluster.bootstrap, acks, msgs, size))
                print(key, results[key], flush=True)
        for rate in (200, 1000):
            for acks in ("all", "1"):
                key = f"latency_1KB_{rate}_per_s_acks_{acks}"
                results[key] = latency(
                    cluster.bootstrap,
                    rate=rate,
                    acks=acks,
                    create_topic=lambda t: create_topic(cluster.bootstrap, t, partitions=1),
                )
                print(key, results[key], flush=True)
        results["failover_s_sigkill"] = failover(cluster, signal.SIGKILL)
        results["failover_s_controlled_shutdown"] = failover(cluster, signal.SIGTERM)
        print("failover", results["failover_s_sigkill"], results["failover_s_controlled_shutdown"], flush=True)
    finally:
        cluster.stop()
        zk.stop()
    Path(args.out).write_text(json.dumps(results, indent=1))
    print("\n| 3 brokers, RF=3, min.insync.replicas=2 | acks=all | acks=1 |\n|---|---|---|")
    for name in ("100B", "10KB"):
        a = statistics.median(results[f"produce_MB_s_{name}_acks_all"])
        b = statistics.median(results[f"produce_MB_s_{name}_acks_1"])
        print(f"| produce MB/s, {name} records | {a} | {b} |")
    for rate in (200, 1000):
        la, l1 = results[f"latency_1KB_{rate}_per_s_acks_all"], results[f"latency_1KB_{rate}_per_s_acks_1"]
        print(
            f"| produce latency p50 / p99 (1 KB, {rate}/s) | {la['p50_ms']} / {la['p99_ms']} ms | "
            f"{l1['p50_ms']} / {l1['p99_ms']} ms |"
        )
    print(
        f"\nfailover, leader SIGKILLed: {results['failover_s_sigkill']} s "
        f"(zookeeper.session.timeout.ms={SESSION_TIMEOUT_MS}); controlled shutdown: "
        f"{results['failover_s_controlled_shutdown']} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
