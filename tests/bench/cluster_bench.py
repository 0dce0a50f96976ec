"""Benchmark of a three-broker cluster on this machine: replicated produce throughput and latency, and how long a
failover takes. librdkafka (confluent-kafka) is the client; the brokers are started from the bin scripts.

    .venv/bin/python -m tests.bench.cluster_bench [--rounds 2] [--out cluster_bench.json]

Measures, for topics with 3 partitions, RF=3 and min.insync.replicas=2:
- produce MB/s with acks=all and acks=1, 100-byte and 10 KB records (the median of the rounds), and the same writes
  with acks=1 to a one-broker cluster started beside the three (RF=1, its own chroot): the reference of issue 17's
  "RF=3 acks=all at least 0.5x one broker's acks=1", alternated with the cluster's rounds in the same run;
- produce-to-acknowledgement p50/p99 at 200 and 1,000 records/s of 1 KB, acks=all and acks=1, each on a new
  one-partition topic after one acknowledged acks=all write (create_warm_topic says why), with `linger.ms=0` (one
  record per request) and, for acks=all, again with librdkafka's default linger.ms (5 ms);
- failover: the time from SIGKILL of a partition's leader (and, separately, from SIGTERM, a controlled shutdown)
  to the first write acknowledged after it, with an idempotent acks=all producer writing 500 records/s.
Prints a Markdown table and writes the raw figures as JSON. `--set KEY=VALUE` (repeatable) sets a broker setting on
every broker, the one-broker reference's too (e.g. `--set socket.send.buffer.bytes=-1`).

    .venv/bin/python -m tests.bench.cluster_bench --probe [--py-spy DIR]

measures what a busy machine does not move: the CPU seconds each broker spends per record (utime + stime from
/proc/<pid>/stat), leader and followers apart, for acks=all 1 KB records one per request at 200/s and 1,000/s to a
one-partition topic (and the leader's CPU per Produce or Fetch request, counted on its /metrics) and for the 10 KB
throughput case; `--py-spy DIR` records the leader's threads (raw folded stacks) during the 1,000/s run.

    .venv/bin/python -m tests.bench.cluster_bench --tput-10kb [--rounds 3]

runs only the 10 KB acks=all throughput case, each round on a new topic and followed by the one-broker acks=1
reference, and prints per round the MB/s, the CPU seconds of each broker and of this process (the librdkafka
client) over the timed writes, each broker's busiest threads and the p50/p99 of its Produce and FetchFollower
request times (from /metrics): what bounds the case. It also prints the CPU ms per MB of the cluster and of the one
broker, each with its client, and the cores each side's processes used (see throughput_10kb for what their ratio
says). Every throughput run starts timing after one acknowledged acks=all write to each partition of its new topic
(see throughput).

    .venv/bin/python -m tests.bench.cluster_bench --leader-path 2000

runs the leader's ReplicaManager part of the same one-record-per-request case in process, without brokers or
sockets, and prints its CPU microseconds and Python calls per replicated record (see leader_path).

    .venv/bin/python -m tests.bench.cluster_bench --follower-path 2000 [--record-size 1024] [--batch-records 1]

runs a follower's fetch cycle in process (see follower_path): its ReplicaFetcherThread builds and serializes each
Fetch as the NetworkClient does, parses a FetchResponse from bytes and appends the batch to its log; CPU
microseconds and Python calls per cycle (`--record-size 10240 --batch-records 100`: the 10 KB case's 1 MB cycle).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.broker_bench import latency
from tests.integration.cluster import KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer

SESSION_TIMEOUT_MS = 6000


def key_value_argument(text: str) -> tuple[str, str]:
    """A `KEY=VALUE` argument (the benches' `--set`, consume_probe's `--consumer-set`) as (key, value), parsed as
    Kafka's tools parse their `key=value` arguments (a ValueError, which argparse reports, when the value is
    missing)."""
    from kafka.utils.command_line_utils import parse_key_value_args

    ((key, value),) = parse_key_value_args([text], accept_missing_value=False).items()
    return key, value


def add_set_argument(ap: argparse.ArgumentParser, which: str) -> None:
    """The benches' repeatable `--set KEY=VALUE`: broker settings (args.set, a list of pairs) for `which` brokers."""
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        type=key_value_argument,
        metavar="KEY=VALUE",
        help=f"a broker setting for {which} (repeatable)",
    )


def create_topic(bootstrap: str, topic: str, partitions: int = 3, replication_factor: int = 3) -> None:
    """A topic with `replication_factor` replicas per partition, min.insync.replicas=2 when it has more than one."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    config = {"min.insync.replicas": "2"} if replication_factor > 1 else {}
    new_topic = NewTopic(topic, partitions, replication_factor, config=config)
    admin.create_topics([new_topic])[topic].result(30)
    # Wait until every partition has a leader and a full ISR, as a client would see it.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        md = admin.list_topics(topic, timeout=10).topics[topic]
        if md.error is None and len(md.partitions) == partitions:
            if all(p.leader >= 0 and len(p.isrs) == replication_factor for p in md.partitions.values()):
                return
        time.sleep(0.1)
    raise RuntimeError(f"{topic} did not get leaders and a full ISR within 30 s")


def create_warm_topic(bootstrap: str, topic: str) -> None:
    """A one-partition RF=3 topic for a latency run, with one acks=all write acknowledged before the run starts.

    A new partition on a follower joins a fetcher thread that may be in the middle of a fetch of its other
    partitions, waiting up to replica.fetch.wait.max.ms (500 ms) for data; only its next fetch carries the new
    partition, so the first acks=all writes to a new topic wait up to that long, in Kafka as here. Measured on this
    tree at 200/s without the warm-up write: p50/p99 381/993 ms on the first topic of a cluster and 3/470 ms on the
    next; with it, 2.9/7.2 and 3.1/12.6 ms. The runs measure the steady state, so they start after that write."""

    create_topic(bootstrap, topic, partitions=1)
    warm_up(bootstrap, topic, partitions=1)


def warm_up(bootstrap: str, topic: str, partitions: int) -> None:
    """One acknowledged acks=all write to each partition of a new topic (create_warm_topic says why)."""
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0})
    for partition in range(partitions):
        producer.produce(topic, b"warm-up", partition=partition)
    if producer.flush(60) != 0:
        raise RuntimeError(f"the warm-up writes to {topic} were not acknowledged within 60 s")


def throughput(
    bootstrap: str,
    acks: str,
    msgs: int,
    size: int,
    replication_factor: int = 3,
    on_timing: Callable[[], object] | None = None,
) -> float:
    """Produce MB/s of `msgs` records of `size` bytes to a fresh 3-partition topic, until all are acknowledged.
    `on_timing`, when given, is called right before the timed writes start and right after they end."""
    from confluent_kafka import Producer

    topic = f"tput-{acks}-{size}-{time.monotonic_ns()}"
    create_topic(bootstrap, topic, replication_factor=replication_factor)
    # The timing starts after one acknowledged acks=all write to each partition: the runs measure the steady state,
    # not two transients of a new topic (both as in Kafka). A follower that fetches a new partition before the
    # leader's metadata cache has it gets UNKNOWN_TOPIC_OR_PARTITION and retries after replica.fetch.backoff.ms
    # (1,000 ms): on a cluster's first topic the request logs showed each partition's first acks=all Produce waiting
    # 980-997 ms, in runs of 1.8 s for 100 MB. On later topics a new partition joins a fetcher thread that may be
    # waiting up to replica.fetch.wait.max.ms (500 ms) in a fetch of its other partitions (create_warm_topic):
    # first Produces of 222 and 1,499 ms.
    warm_up(bootstrap, topic, partitions=3)
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
    if on_timing is not None:
        on_timing()
    elapsed = produce_all(producer, topic, msgs, size)
    if on_timing is not None:
        on_timing()
    return round(msgs * size / elapsed / 1e6, 2)


def produce_all(producer: Any, topic: str, count: int, size: int, rate: int = 0) -> float:
    """Writes `count` records of `size` bytes through a librdkafka `producer` (at `rate` records/s when given, else as
    fast as its queue takes them); returns the seconds until all are acknowledged, or raises if any failed."""
    errors = [0]

    def on_delivery(err: Any, _msg: Any) -> None:
        if err is not None:
            errors[0] += 1

    payload = b"x" * size
    t0 = time.perf_counter()
    for i in range(count):
        if rate:
            next_at = t0 + i / rate
            while (now := time.perf_counter()) < next_at:
                producer.poll(min(0.001, next_at - now))
        while True:
            try:
                producer.produce(topic, payload, on_delivery=on_delivery)
                break
            except BufferError:
                producer.poll(0.01)
    left = producer.flush(300)
    elapsed = time.perf_counter() - t0
    if left:
        raise RuntimeError(f"{left} records still unacknowledged after 300 s")
    if errors[0]:
        raise RuntimeError(f"{errors[0]} records failed")
    return elapsed


def partition_leader(bootstrap: str, topic: str) -> int:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    # The broker asked may not have the new topic's metadata yet: then the topic comes back without partitions.
    deadline = time.monotonic() + 30
    while True:
        partitions = admin.list_topics(topic, timeout=10).topics[topic].partitions
        if (0 in partitions and partitions[0].leader >= 0) or time.monotonic() > deadline:
            return int(partitions[0].leader)
        time.sleep(0.1)


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


def cpu_seconds(pid: int) -> float:
    """utime + stime of process `pid` (all its threads) in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def produce_and_fetch_requests(broker: Any) -> float:
    """Produce and Fetch requests (consumers' and followers') the broker has answered, from its /metrics."""
    port = broker.overrides.get("metrics.prometheus.port", "0")
    if port == "0":
        return float("nan")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith("kafka_network_requestmetrics_requests_total") and (
            'request="Produce"' in line or 'request="Fetch"' in line
        ):
            total += float(line.rsplit(" ", 1)[1])
    return total


def cpu_snapshot(cluster: KafkaCluster) -> dict[int, float]:
    return {b.broker_id: cpu_seconds(b.pid) for b in cluster.brokers}


def wait_until_idle(cluster: KafkaCluster, timeout: float = 60.0) -> None:
    """Waits until the brokers together use under a tenth of a core over half a second: after an acks=1 run the
    followers go on replicating its backlog, which would fall on whatever is measured next."""
    deadline = time.monotonic() + timeout
    before = sum(cpu_snapshot(cluster).values())
    while time.monotonic() < deadline:
        time.sleep(0.5)
        after = sum(cpu_snapshot(cluster).values())
        if after - before < 0.05:
            return
        before = after
    raise RuntimeError(f"the brokers were still busy {timeout} s after the last run")


def ms_per_record(before: dict[int, float], after: dict[int, float], records: int) -> dict[int, float]:
    return {i: round((after[i] - before[i]) * 1000 / records, 3) for i in before}


class LatencyProbe:
    """The topic of one latency run: made, its leader found, then the brokers' CPU read (and the leader's py-spy
    started), so that the topic's creation is not counted."""

    def __init__(self, cluster: KafkaCluster, py_spy_out: str | None, seconds: float) -> None:
        self.cluster = cluster
        self.py_spy_out = py_spy_out
        self.seconds = seconds
        self.leader = -1
        self.before: dict[int, float] = {}
        self.requests_before = 0.0
        self.spy: subprocess.Popen[bytes] | None = None

    def create_topic(self, topic: str) -> None:
        create_warm_topic(self.cluster.bootstrap, topic)
        self.leader = partition_leader(self.cluster.bootstrap, topic)
        if self.py_spy_out:
            pid = self.cluster.broker(self.leader).pid
            cmd = [
                str(Path(sys.executable).with_name("py-spy")),
                "record",
                "--threads",
                "-f",
                "raw",
                "-r",
                "250",
                "-d",
                str(int(self.seconds) + 2),
            ]
            cmd += ["-o", self.py_spy_out, "--pid", str(pid)]
            self.spy = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.requests_before = produce_and_fetch_requests(self.cluster.broker(self.leader))
        self.before = cpu_snapshot(self.cluster)

    def run(self, rate: int) -> dict[str, Any]:
        lat = latency(
            self.cluster.bootstrap, rate=rate, seconds=self.seconds, acks="all", create_topic=self.create_topic
        )
        after = cpu_snapshot(self.cluster)
        requests = produce_and_fetch_requests(self.cluster.broker(self.leader)) - self.requests_before
        per = ms_per_record(self.before, after, int(rate * self.seconds))
        if self.spy is not None:
            self.spy.wait()
        # Per request as well: how many records librdkafka and the followers put in one request varies with load.
        leader_cpu_s = after[self.leader] - self.before[self.leader]
        return {
            **lat,
            "leader": self.leader,
            "leader_cpu_ms_per_record": per[self.leader],
            "leader_produce_fetch_requests_per_record": round(requests / (rate * self.seconds), 2),
            "leader_cpu_ms_per_request": round(leader_cpu_s * 1000 / requests, 3) if requests else None,
            "follower_cpu_ms_per_record": [v for k, v in per.items() if k != self.leader],
        }


def probe(cluster: KafkaCluster, py_spy_dir: str | None, seconds: float) -> dict[str, Any]:
    """CPU per record of each broker (leader apart) in the acks=all latency and 10 KB throughput cases."""
    results: dict[str, Any] = {}
    for rate in (200, 1000):
        out = None
        if py_spy_dir and rate == 1000:
            Path(py_spy_dir).mkdir(parents=True, exist_ok=True)
            out = str(Path(py_spy_dir) / "leader-1000-per-s.txt")
        key = f"acks_all_1KB_{rate}_per_s"
        results[key] = LatencyProbe(cluster, out, seconds).run(rate)
        print(key, results[key], flush=True)
    msgs, size = 10_000, 10_240
    before = cpu_snapshot(cluster)  # the topic's creation is counted here: small beside 100 MB of records
    mb_s = throughput(cluster.bootstrap, "all", msgs, size)
    per = ms_per_record(before, cpu_snapshot(cluster), msgs)
    # Three partitions, as a rule one led by each broker: every broker leads one and follows two.
    results["acks_all_10KB_throughput"] = {"MB_s": mb_s, "cpu_ms_per_record": per}
    print("acks_all_10KB_throughput", results["acks_all_10KB_throughput"], flush=True)
    return results


def request_times(broker: Any) -> dict[str, dict[str, float]]:
    """The broker's request-time histograms for Produce and FetchFollower requests, from its /metrics: for each
    `<request> <TimeName>`, the count and the 0.5 and 0.99 quantiles (of the histogram's recent, decaying sample)."""
    port = broker.overrides.get("metrics.prometheus.port", "0")
    if port == "0":
        return {}
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    result: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        if not line.startswith("kafka_network_requestmetrics_"):
            continue
        name = line.split("{", 1)[0][len("kafka_network_requestmetrics_") :]
        request = next((r for r in ("Produce", "FetchFollower") if f'request="{r}"' in line), None)
        if request is None or "timems" not in name.lower():
            continue
        value = float(line.rsplit(" ", 1)[1])
        if name.endswith("_count"):
            result.setdefault(f"{request} {name[: -len('_count')]}", {})["count"] = value
        elif 'quantile="0.50"' in line or 'quantile="0.99"' in line:
            quantile = "p50" if 'quantile="0.50"' in line else "p99"
            result.setdefault(f"{request} {name}", {})[quantile] = value
    return result


def busiest_threads(
    before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]], names: dict[int, str]
) -> list[str]:
    """The five threads that used the most CPU (user and system seconds) between `before` and `after`."""
    used = sorted(((sum(c) - sum(before.get(t, (0.0, 0.0))), t) for t, c in after.items()), reverse=True)
    return [f"{cpu:.2f} {names.get(tid, tid)}" for cpu, tid in used[:5] if cpu > 0]


class TimedCpu:
    """Called by throughput() right before and right after its timed writes: the CPU seconds of a cluster's brokers
    (and, with `threads`, of each broker thread) and of this process (the librdkafka client) over those writes
    alone, without the topic's creation and warm-up write. /proc counts in ticks of 10 ms: over a 10,000-record run
    of 10 KB that is about 0.1 ms per MB for each process."""

    def __init__(self, cluster: KafkaCluster, threads: bool = True) -> None:
        self.cluster = cluster
        self.threads = threads
        self.marks: list[tuple[dict[int, float], float, dict[int, dict[int, tuple[float, float]]]]] = []

    def __call__(self) -> None:
        import resource

        from tests.bench.replication_probe import thread_cpu_seconds

        def client_cpu() -> float:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime

        def broker_cpu() -> tuple[dict[int, float], dict[int, dict[int, tuple[float, float]]]]:
            threads = {b.broker_id: thread_cpu_seconds(b.pid) for b in self.cluster.brokers} if self.threads else {}
            return cpu_snapshot(self.cluster), threads

        # This process's own reading of /proc stays outside the window: before it at the start, after it at the end.
        if not self.marks:
            brokers, threads = broker_cpu()
            client = client_cpu()
        else:
            client = client_cpu()
            brokers, threads = broker_cpu()
        self.marks.append((brokers, client, threads))

    def brokers(self) -> dict[int, float]:
        (before, _, _), (after, _, _) = self.marks
        return {i: after[i] - before[i] for i in after}

    def client(self) -> float:
        (_, before, _), (_, after, _) = self.marks
        return after - before

    def ms_per_mb(self, mb: float) -> dict[str, float]:
        return {
            "brokers": round(sum(self.brokers().values()) * 1000 / mb, 2),
            "client": round(self.client() * 1000 / mb, 2),
        }


def throughput_10kb(cluster: KafkaCluster, rounds: int, one_broker: KafkaCluster) -> dict[str, Any]:
    """Only the 10 KB acks=all throughput case, with what bounds it: the CPU seconds of each broker and of this
    process (the librdkafka client) over each round's timed writes, each broker's busiest threads, and the
    request-time quantiles of Produce and FetchFollower requests on each broker (its request-metrics histograms).
    Each round is followed by the same writes with acks=1 to `one_broker` (a one-broker cluster), the goal's
    reference, with its CPU per MB measured the same way, and the cores each side's processes used. Where the one
    broker's run keeps the two cores busy, the ratio of the CPU per MB (one broker's over the cluster's) bounds the
    throughput ratio from above; where both do, the two ratios are equal."""
    from tests.bench.replication_probe import thread_names

    msgs, size = 10_000, 10_240
    mb = msgs * size / 1e6
    results: dict[str, Any] = {"MB_s": [], "one_broker_acks_1_MB_s": [], "rounds": []}
    for _ in range(rounds):
        pids = {b.broker_id: b.pid for b in cluster.brokers}
        times_before = {i: request_times(cluster.broker(i)) for i in pids}
        cpu = TimedCpu(cluster)
        mb_s = throughput(cluster.bootstrap, "all", msgs, size, on_timing=cpu)
        times_after = {i: request_times(cluster.broker(i)) for i in pids}
        means: dict[int, dict[str, str]] = {}
        for i in pids:
            for key, figures in times_after[i].items():
                count = figures.get("count", 0.0) - times_before[i].get(key, {}).get("count", 0.0)
                if count > 0 and "p50" in figures:
                    p50, p99 = figures["p50"], figures.get("p99", 0.0)
                    # The quantiles are the histogram's (its decaying sample reaches back over earlier rounds and
                    # the cluster's first topic, whose warm-up Produces waited about 1 s: see throughput), not the
                    # round's alone; the count is the round's (with the warm-up write's).
                    means.setdefault(i, {})[key] = f"{count:.0f} requests, histogram p50 {p50:.1f} p99 {p99:.1f} ms"
        (_, _, threads_before), (_, _, threads_after) = cpu.marks
        cluster_ms = cpu.ms_per_mb(mb)
        one: dict[str, Any] = {
            "MB_s": mb_s,
            "broker_cpu_s": {i: round(c, 2) for i, c in cpu.brokers().items()},
            "client_cpu_s": round(cpu.client(), 2),
            "cpu_ms_per_MB": cluster_ms,
            "busiest_threads": {
                i: busiest_threads(threads_before[i], threads_after[i], thread_names(p)) for i, p in pids.items()
            },
            "request_times": means,
        }
        results["MB_s"].append(mb_s)
        results["rounds"].append(one)
        print(json.dumps(one, indent=1), flush=True)
        wait_until_idle(cluster)
        reference_cpu = TimedCpu(one_broker, threads=False)
        reference = throughput(one_broker.bootstrap, "1", msgs, size, replication_factor=1, on_timing=reference_cpu)
        results["one_broker_acks_1_MB_s"].append(reference)
        reference_ms = reference_cpu.ms_per_mb(mb)
        cluster_total, reference_total = sum(cluster_ms.values()), sum(reference_ms.values())
        one["one_broker_acks_1_cpu_ms_per_MB"] = reference_ms
        one["cpu_per_MB_one_broker_over_cluster"] = round(reference_total / cluster_total, 2)
        one["cores_used"] = {
            "cluster": round(mb_s * cluster_total / 1000, 2),
            "one_broker": round(reference * reference_total / 1000, 2),
        }
        print(
            f"RF=3 acks=all {mb_s} MB/s, one broker acks=1 {reference} MB/s: {mb_s / reference:.2f}x. CPU ms per MB: "
            f"cluster {cluster_total:.1f} ({cluster_ms}), one broker {reference_total:.1f} ({reference_ms}); one "
            f"broker's over the cluster's {one['cpu_per_MB_one_broker_over_cluster']:.2f}x. Cores used: "
            f"{one['cores_used']}",
            flush=True,
        )
    return results


def one_broker_cluster(work: Path, zk_connect: str, overrides: dict[str, str]) -> KafkaCluster:
    """A one-broker cluster (not started) in its own chroot beside the three: the reference of the goal "RF=3
    acks=all at least 0.5x one broker's acks=1", measured in the same run with the same client settings (throughput).
    A KafkaCluster, so that stop() also ends a broker whose start failed."""
    chroot = f"{zk_connect}/cluster-bench-one-broker"
    return KafkaCluster(work / "one-broker", chroot, num_brokers=1, overrides=overrides)


def python_calls(work: Callable[[], object]) -> int:
    """The Python and C function calls made while `work()` runs (counted with sys.setprofile)."""
    calls = 0

    def count(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        work()
    finally:
        sys.setprofile(None)
    return calls


def leader_path(records: int) -> dict[str, float]:
    """The leader's part of replication without sockets or KafkaApis: an in-process ReplicaManager (the unit tests'
    BrokerEnv, with purgatories on real SystemTimers and no reapers) leads a partition with replicas 0, 1, 2; per
    record, one 1 KB acks=-1 produce, which answers the two followers' parked fetches, then each follower's next
    fetch (the second moves the high watermark and completes the produce) parked again. CPU microseconds per record
    (process_time) and Python calls per record (a sys.setprofile count over 500 more records): figures that a busy
    machine barely moves, for comparing two trees."""
    import tests.unit.kafka.server.test_replica_manager as rm_test
    from kafka.common.isolation_level import IsolationLevel
    from kafka.common.record.compression_type import CompressionType
    from kafka.common.record.memory_records import MemoryRecords
    from kafka.common.record.simple_record import SimpleRecord
    from kafka.common.requests.fetch_request import PartitionData
    from kafka.log.log_validator import Client
    from kafka.server.delayed_operation import DelayedOperationPurgatory
    from kafka.utils.timer.timer import SystemTimer

    class RealTimerEnv(rm_test.BrokerEnv):
        pass

    def purgatory(name: str, _timer: Any, reaper_enabled: bool = False) -> Any:
        return DelayedOperationPurgatory(name, SystemTimer(name), reaper_enabled=False)

    saved = rm_test.DelayedOperationPurgatory
    rm_test.DelayedOperationPurgatory = purgatory  # type: ignore[misc,assignment]
    work = Path(tempfile.mkdtemp(prefix="leader-path-"))
    try:
        env = RealTimerEnv(work / "logs")
    finally:
        rm_test.DelayedOperationPurgatory = saved  # type: ignore[misc]
    try:
        env.update_metadata([0, 1, 2])
        env.leader_and_isr([0], replicas=[0, 1, 2], isr=[0, 1, 2])
        rm = env.replica_manager
        tp = rm_test.TP0
        payload = b"x" * 1024
        produced: list[Any] = []
        fetched: list[Any] = []

        def produce() -> None:
            built = MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(rm_test.START_MS, None, payload))
            records = MemoryRecords.readable_records(bytearray(built.buffer()))
            rm.append_records(30_000, -1, False, Client(), {tp: records}, produced.append)
            rm.try_complete_actions()

        def fetch(replica_id: int, offset: int) -> None:
            info = [(tp, PartitionData(rm_test.TOPIC_ID, offset, 0, 1 << 20, 1, 1))]
            rm.fetch_messages(
                500, replica_id, 1, 10 << 20, False, info, None, fetched.append, IsolationLevel.READ_UNCOMMITTED, None
            )
            rm.try_complete_actions()

        def one(n: int) -> None:
            produce()
            fetch(1, n + 1)
            fetch(2, n + 1)

        fetch(1, 0)
        fetch(2, 0)
        for i in range(300):  # warm-up
            one(i)
        t0 = time.process_time()
        for i in range(300, 300 + records):
            one(i)
        cpu_s = time.process_time() - t0

        def counted_records() -> None:
            for i in range(300 + records, 800 + records):
                one(i)

        calls = python_calls(counted_records)
        if len(produced) < records or any(r[tp].error.name != "NONE" for r in produced):
            raise RuntimeError("produce requests did not complete")
        return {"cpu_us_per_record": round(cpu_s / records * 1e6, 1), "calls_per_record": round(calls / 500)}
    finally:
        env.close()
        shutil.rmtree(work, ignore_errors=True)


def follower_path(cycles: int, record_size: int = 1024, batch_records: int = 1) -> dict[str, float]:
    """A follower's fetch cycle without sockets: broker 0 (the unit tests' BrokerEnv, its own fetcher threads
    closed) follows partition 0, led by broker 1, with a ReplicaFetcherThread whose leader endpoint builds and
    serializes each FetchRequest (as NetworkClient does before writing it) and answers with a prebuilt incremental
    FetchResponse, parsed from bytes, holding one batch of `batch_records` records of `record_size` bytes at the
    fetch offset, the leader's epoch stamped and its high watermark at the batch. Each cycle is one do_work: the
    fetch built, the response parsed and handled, the batch appended, the high watermark taken on. CPU microseconds
    per cycle (thread_time) and Python calls per cycle (a sys.setprofile count over more cycles): the follower's
    fixed cost per round trip (one-record batches) or per MB (100 records of 10 KB), for comparing two trees."""
    import tests.unit.kafka.server.test_replica_manager as rm_test
    from kafka.clients.client_response import ClientResponse
    from kafka.clients.network_client import _to_send
    from kafka.cluster.broker import BrokerEndPoint
    from kafka.common.message import FetchResponseData
    from kafka.common.protocol.api_keys import ApiKeys
    from kafka.common.record.compression_type import CompressionType
    from kafka.common.record.memory_records import MemoryRecords
    from kafka.common.record.simple_record import SimpleRecord
    from kafka.common.requests.abstract_request import Builder
    from kafka.common.requests.abstract_response import AbstractResponse
    from kafka.common.requests.fetch_response import FetchResponse
    from kafka.common.requests.request_header import RequestHeader
    from kafka.common.requests.response_header import ResponseHeader
    from kafka.server.abstract_fetcher_manager import FailedPartitions, InitialFetchState
    from kafka.server.replica_fetcher_blocking_send import BlockingSend
    from kafka.server.replica_fetcher_thread import ReplicaFetcherThread

    leader = BrokerEndPoint(1, "localhost", 9093)
    tp = rm_test.TP0
    version = 12
    big = record_size * batch_records >= 100_000
    warm, counted = (20, 50) if big else (300, 500)

    def response(high_watermark: int, records: Any) -> bytes:
        partition = FetchResponseData.PartitionData(
            partition_index=tp.partition,
            high_watermark=high_watermark,
            last_stable_offset=high_watermark,
            log_start_offset=0,
            records=records,
        )
        data = FetchResponseData(
            session_id=7,
            responses=[FetchResponseData.FetchableTopicResponse(topic=tp.topic, partitions=[partition])],
        )
        header = ResponseHeader(0, ApiKeys.FETCH.response_header_version(version))
        return FetchResponse(data).serialize_with_header(header, version)

    responses: dict[int, bytes] = {}
    for n in range(warm + cycles + counted):
        offset = n * batch_records
        built = MemoryRecords.with_records(
            CompressionType.NONE,
            *(SimpleRecord(rm_test.START_MS, None, b"x" * record_size) for _ in range(batch_records)),
        )
        buffer = bytearray(built.buffer())
        for batch in MemoryRecords.readable_records(buffer).batches():
            batch.set_last_offset(offset + batch_records - 1)
            batch.set_partition_leader_epoch(1)
        responses[offset] = response(offset + batch_records, MemoryRecords.readable_records(bytes(buffer)))
    empty = response(0, MemoryRecords.EMPTY)

    class Leader(BlockingSend):
        def send_request(self, request_builder: Builder[Any]) -> ClientResponse:
            request: Any = request_builder.build(version)
            header = RequestHeader.of(ApiKeys.FETCH, version, "broker-0-fetcher-0", 0)
            _to_send(request, header)
            topics = request.data.topics
            body = responses.get(topics[0].partitions[0].fetch_offset, empty) if topics else empty
            parsed = AbstractResponse.parse_response(memoryview(body), header)
            return ClientResponse(header, None, "1", 0, 0, False, None, None, parsed)

        def initiate_close(self) -> None:
            pass

        def close(self) -> None:
            pass

    work = Path(tempfile.mkdtemp(prefix="follower-path-"))
    env = rm_test.BrokerEnv(work / "logs")
    try:
        env.update_metadata([0, 1, 2])
        # The fetcher thread the LeaderAndIsr starts finds no broker 1 and would warn until it is closed.
        logging.disable(logging.WARNING)
        try:
            env.leader_and_isr([0], leader=1, replicas=[0, 1, 2], isr=[0, 1, 2])
            rm = env.replica_manager
            rm.replica_fetcher_manager.close_all_fetchers()
        finally:
            logging.disable(logging.NOTSET)
        thread = ReplicaFetcherThread(
            "ReplicaFetcherThread-0-1", 0, leader, env.config, FailedPartitions(), rm, None, env.time, None, Leader()
        )
        thread.add_partitions({tp: InitialFetchState(leader, 1, 0)})
        log = rm.local_log_or_exception(tp)
        for _ in range(warm):
            thread.do_work()
        t0 = time.thread_time()
        for _ in range(cycles):
            thread.do_work()
        cpu_s = time.thread_time() - t0

        def counted_cycles() -> None:
            for _ in range(counted):
                thread.do_work()

        calls = python_calls(counted_cycles)
        if log.log_end_offset != (warm + cycles + counted) * batch_records:
            raise RuntimeError(f"the follower appended up to {log.log_end_offset}, not every cycle's batch")
        return {"cpu_us_per_cycle": round(cpu_s / cycles * 1e6, 1), "calls_per_cycle": round(calls / counted)}
    finally:
        env.close()
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default="cluster_bench.json")
    ap.add_argument("--probe", action="store_true", help="only the CPU-per-record probe (acks=all)")
    ap.add_argument("--py-spy", metavar="DIR", help="with --probe: py-spy raw profiles of each broker at 1,000/s")
    ap.add_argument("--seconds", type=float, default=5.0, help="with --probe: length of each latency run")
    ap.add_argument(
        "--leader-path",
        type=int,
        metavar="RECORDS",
        help="only the in-process leader path (no brokers): CPU us and Python calls per replicated record",
    )
    ap.add_argument(
        "--follower-path",
        type=int,
        metavar="CYCLES",
        help="only the in-process follower fetch cycle (no brokers): CPU us and Python calls per cycle",
    )
    ap.add_argument("--record-size", type=int, default=1024, help="with --follower-path: bytes per record")
    ap.add_argument("--batch-records", type=int, default=1, help="with --follower-path: records per fetched batch")
    ap.add_argument(
        "--tput-10kb",
        action="store_true",
        help="only the 10 KB acks=all throughput case (--rounds of them), with each process's CPU and request times",
    )
    add_set_argument(ap, "every broker, the one-broker reference's too")
    args = ap.parse_args(argv)
    if args.leader_path:
        print(json.dumps(leader_path(args.leader_path)))
        return 0
    if args.follower_path:
        print(json.dumps(follower_path(args.follower_path, args.record_size, args.batch_records)))
        return 0
    work = Path(tempfile.mkdtemp(prefix="cluster-bench-"))
    (work / "zk").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    settings = dict(args.set)
    cluster = KafkaCluster(
        work,
        f"{zk.connect_string}/cluster-bench",
        overrides={"zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS), **settings},
    )
    one_broker = one_broker_cluster(work, zk.connect_string, settings)
    if args.probe or args.tput_10kb:
        for broker in cluster.brokers:  # the probe counts the leader's requests on its /metrics
            broker.overrides["metrics.prometheus.port"] = str(free_port())
    results: dict[str, Any] = {}
    try:
        cluster.start()
        if args.tput_10kb:
            one_broker.start()
            results = throughput_10kb(cluster, args.rounds, one_broker)
        elif args.probe:
            results = probe(cluster, args.py_spy, args.seconds)
        else:
            results = full_run(cluster, args.rounds, one_broker)
    finally:
        try:
            one_broker.stop()  # stops only what runs: nothing if it was never started
        finally:
            try:
                cluster.stop()
            finally:
                zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the brokers' logs
    Path(args.out).write_text(json.dumps(results, indent=1))
    if not (args.tput_10kb or args.probe):
        print_table(results)
    return 0


def full_run(cluster: KafkaCluster, rounds: int, one_broker: KafkaCluster) -> dict[str, Any]:
    """Every case of the module notes, in the order that keeps them apart; `one_broker` is the one-broker reference
    of the throughput rows, started for them and stopped before the failovers."""
    results: dict[str, Any] = {}
    # Latency first: an acks=1 throughput run leaves the followers replicating its backlog for a while after it
    # ends, and an acks=all write waits for them (measured: 200/s p50 288 ms right after the 10 KB acks=1 runs).
    for rate in (200, 1000):
        for acks in ("all", "1"):
            key = f"latency_1KB_{rate}_per_s_acks_{acks}"
            results[key] = latency(
                cluster.bootstrap,
                rate=rate,
                acks=acks,
                create_topic=lambda t: create_warm_topic(cluster.bootstrap, t),
            )
            print(key, results[key], flush=True)
        # The same acks=all run with librdkafka's default linger.ms (5 ms) instead of one record per request.
        key = f"latency_1KB_{rate}_per_s_acks_all_default_linger"
        results[key] = latency(
            cluster.bootstrap,
            rate=rate,
            acks="all",
            create_topic=lambda t: create_warm_topic(cluster.bootstrap, t),
            linger_ms=None,
        )
        print(key, results[key], flush=True)
    try:
        one_broker.start()
        for name, msgs, size in (("100B", 100_000, 100), ("10KB", 10_000, 10_240)):
            keys = [f"produce_MB_s_{name}_acks_all", f"produce_MB_s_{name}_acks_1", f"produce_MB_s_{name}_one_broker"]
            for _ in range(rounds):  # the three cases alternate, so the machine's swings fall on all of them alike
                results.setdefault(keys[0], []).append(throughput(cluster.bootstrap, "all", msgs, size))
                results.setdefault(keys[2], []).append(throughput(one_broker.bootstrap, "1", msgs, size, 1))
                results.setdefault(keys[1], []).append(throughput(cluster.bootstrap, "1", msgs, size))
                wait_until_idle(cluster)
            for key in keys:
                print(key, results[key], flush=True)
    finally:
        one_broker.stop()
    results["failover_s_sigkill"] = failover(cluster, signal.SIGKILL)
    results["failover_s_controlled_shutdown"] = failover(cluster, signal.SIGTERM)
    print("failover", results["failover_s_sigkill"], results["failover_s_controlled_shutdown"], flush=True)
    return results


def print_table(results: dict[str, Any]) -> None:
    """full_run's figures as the README's Markdown table."""
    print(
        "\n| 3 brokers, RF=3, min.insync.replicas=2 | acks=all | acks=1 | one broker, RF=1, acks=1 |\n|---|---|---|---|"
    )
    for name in ("100B", "10KB"):
        rf3, one = results[f"produce_MB_s_{name}_acks_all"], results[f"produce_MB_s_{name}_one_broker"]
        a = round(statistics.median(rf3), 1)
        b = round(statistics.median(results[f"produce_MB_s_{name}_acks_1"]), 1)
        c = round(statistics.median(one), 1)
        # Each round's acks=all run and the one broker's next to it saw the same machine: the ratio is taken by round.
        ratios = ", ".join(f"{x / y:.2f}" for x, y in zip(rf3, one, strict=True))
        print(f"| produce MB/s, {name} records | {a} (rounds: {ratios}x one broker) | {b} | {c} |")
    for rate in (200, 1000):
        la, l1 = results[f"latency_1KB_{rate}_per_s_acks_all"], results[f"latency_1KB_{rate}_per_s_acks_1"]
        print(
            f"| produce latency p50 / p99 (1 KB, {rate}/s) | {la['p50_ms']} / {la['p99_ms']} ms | "
            f"{l1['p50_ms']} / {l1['p99_ms']} ms | |"
        )
        ld = results[f"latency_1KB_{rate}_per_s_acks_all_default_linger"]
        print(f"| the same, librdkafka's default linger.ms (5 ms) | {ld['p50_ms']} / {ld['p99_ms']} ms | | |")
    print(
        f"\nfailover, leader SIGKILLed: {results['failover_s_sigkill']} s "
        f"(zookeeper.session.timeout.ms={SESSION_TIMEOUT_MS}); controlled shutdown: "
        f"{results['failover_s_controlled_shutdown']} s"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
