"""Our perf-test tools beside librdkafka doing the same work, against the same broker in the same run.

    .venv/bin/python -m tests.bench.perf_tools_bench [--rounds 3] [--tansu] [--out perf_tools_bench.json]

Starts ZooKeeper and our broker (and with --tansu, Tansu as well, ../shared/bench/README.md). Per case (100-byte
and 10 KB records) and per round, alternating, on fresh 3-partition topics:

- produce: bin/kafka-producer-perf-test.sh (our Python producer) against a confluent-kafka (librdkafka) loop that
  sends the same number of records of the same size with a delivery callback per record and flushes, both with
  acks=1, linger.ms=5 and 256 KB batches; figures are records/s and MB/s (MB = 2^20 bytes, as the tool prints);
- consume: bin/kafka-consumer-perf-test.sh (our Python consumer, in a group) against a confluent-kafka consumer in a
  group reading the same topic until it has every record; figures are the tool's MB.sec and nMsg.sec (which
  include joining the group) and the same measure for librdkafka, and "after the group join" the tool's fetch.MB.sec
  (timed from the assignment, as Kafka's ConsumerPerformance does) and librdkafka's from its on_assign callback;
  a last row sets ours after the join beside librdkafka from its first record (without its start-up).

Prints a Markdown table of medians with the ratio ours / librdkafka (`--table FILE` prints it again from the JSON
of an earlier run), and writes every raw figure as JSON. With Tansu, joining a group takes it about 23 s for either
client, which swamps the consume figures that include the join: compare the rows "after the group join" there.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.bench.broker_bench import Tansu, tansu_binary
from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer

BIN = ROOT / "bin"
PRODUCER_SETTINGS = {"acks": "1", "linger.ms": "5", "batch.size": str(256 * 1024)}
TOTAL_LINE = (
    r"(\d+) records sent, ([\d.]+) records/sec \(([\d.]+) MB/sec\), ([\d.]+) ms avg latency, ([\d.]+) ms max latency, "
    r"(\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th, (\d+) ms 99\.9th\."
)
MB = 1024 * 1024


def create_topic(bootstrap: str, partitions: int = 3) -> str:
    from confluent_kafka.admin import AdminClient, NewTopic

    name = f"bench-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=30)[name].result(30)
    time.sleep(0.5)
    return name


# -- ours -------------------------------------------------------------------------------------------------------


def ours_produce(
    bootstrap: str,
    topic: str,
    msgs: int,
    size: int,
    settings: Mapping[str, str] = PRODUCER_SETTINGS,
    extra: Sequence[str] = (),
) -> dict[str, Any]:
    """bin/kafka-producer-perf-test.sh (our Python producer) sending `msgs` records of `size` bytes with the
    producer `settings`, `extra` flags before --producer-props; its summary line's figures."""
    props = [f"{k}={v}" for k, v in settings.items()]
    done = subprocess.run(
        [
            str(BIN / "kafka-producer-perf-test.sh"),
            "--topic",
            topic,
            "--num-records",
            str(msgs),
            "--record-size",
            str(size),
            "--throughput",
            "-1",
            *extra,
            "--producer-props",
            f"bootstrap.servers={bootstrap}",
            *props,
        ],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    match = re.fullmatch(TOTAL_LINE, done.stdout.strip().splitlines()[-1])
    if match is None:
        raise RuntimeError(f"unexpected output: {done.stdout[-500:]}")
    return {
        "records": int(match.group(1)),
        "records_s": float(match.group(2)),
        "MB_s": float(match.group(3)),
        "avg_latency_ms": float(match.group(4)),
        "p50_ms": int(match.group(6)),
        "p99_ms": int(match.group(8)),
    }


def ours_consume(bootstrap: str, topic: str, msgs: int) -> dict[str, Any]:
    done = subprocess.run(
        [
            str(BIN / "kafka-consumer-perf-test.sh"),
            "--bootstrap-server",
            bootstrap,
            "--topic",
            topic,
            "--messages",
            str(msgs),
            "--group",
            f"bench-{uuid.uuid4().hex[:6]}",
            "--timeout",
            "30000",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    fields = done.stdout.strip().splitlines()[-1].split(", ")
    return {
        "records": int(fields[4]),
        "MB_s": float(fields[3]),
        "records_s": float(fields[5]),
        "rebalance_ms": int(fields[6]),
        "fetch_MB_s": float(fields[8]),
    }


# -- librdkafka (each run in its own process, as our tools are) ------------------------------------------------


def rdkafka_produce(bootstrap: str, topic: str, msgs: int, size: int) -> dict[str, Any]:
    from confluent_kafka import Producer

    producer = Producer(
        {
            "bootstrap.servers": bootstrap,
            **PRODUCER_SETTINGS,
            "queue.buffering.max.messages": 1_000_000,
            "queue.buffering.max.kbytes": 32 * 1024,  # the Java producer's buffer.memory
        }
    )
    payload = b"x" * size
    latencies: list[float] = []
    errors = [0]
    start = time.perf_counter()
    for _ in range(msgs):
        sent = time.perf_counter()

        def on_delivery(err: Any, msg: Any, sent: float = sent) -> None:
            if err is None:
                latencies.append(time.perf_counter() - sent)
            else:
                errors[0] += 1

        while True:
            try:
                producer.produce(topic, payload, on_delivery=on_delivery)
                break
            except BufferError:
                producer.poll(0.005)
        producer.poll(0)
    producer.flush(300)
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "records": len(latencies),
        "errors": errors[0],
        "records_s": len(latencies) / elapsed,
        "MB_s": len(latencies) * size / elapsed / MB,
        "avg_latency_ms": 1000 * sum(latencies) / max(1, len(latencies)),
        "p50_ms": int(1000 * latencies[len(latencies) // 2]) if latencies else 0,
        "p99_ms": int(1000 * latencies[int(len(latencies) * 0.99)]) if latencies else 0,
    }


def rdkafka_consume(bootstrap: str, topic: str, msgs: int) -> dict[str, Any]:
    from confluent_kafka import Consumer

    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"bench-{uuid.uuid4().hex[:6]}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": True,
        }
    )
    # As Kafka's ConsumerPerformance (and so our tool) counts it, the join ends when the partitions are assigned:
    # the fetch time that follows includes the offset lookups, the connections and the first Fetch.
    assigned: list[float] = []

    def on_assign(_consumer: Any, _partitions: Any) -> None:
        if not assigned:
            assigned.append(time.perf_counter())

    start = time.perf_counter()
    consumer.subscribe([topic], on_assign=on_assign)
    got = 0
    nbytes = 0
    deadline = start + 300
    first = None
    while got < msgs and time.perf_counter() < deadline:
        for m in consumer.consume(num_messages=500, timeout=0.1):
            if m.error() is None:
                if first is None:
                    first = time.perf_counter()
                got += 1
                nbytes += len(m.value() or b"") + len(m.key() or b"")
    end = time.perf_counter()
    consumer.close()
    elapsed = end - start
    joined = assigned[0] if assigned else (first or start)
    fetch = end - joined
    return {
        "records": got,
        "MB_s": nbytes / MB / elapsed,
        "records_s": got / elapsed,
        "join_ms": int(1000 * (joined - start)),
        "first_record_ms": int(1000 * ((first or end) - joined)),
        "fetch_MB_s": nbytes / MB / fetch if fetch > 0 else 0.0,
        # From its first record on: without librdkafka's start after the assignment (its offset query waits for a
        # 100 ms timer when nothing is committed), which the figure above counts, as the tool counts ours.
        "from_first_record_MB_s": nbytes / MB / (end - first) if first and end > first else 0.0,
    }


def in_subprocess(function: str, *args: Any) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.perf_tools_bench", "--run", function, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# -- the run ----------------------------------------------------------------------------------------------------


def bench(bootstrap: str, cases: list[tuple[str, int, int]], rounds: int, results: dict[str, Any], who: str) -> None:
    for name, msgs, size in cases:
        for r in range(rounds):
            # Alternate which client goes first, so that neither always meets a warmer broker.
            order = ("ours", "librdkafka") if r % 2 == 0 else ("librdkafka", "ours")
            topics: dict[str, str] = {}
            for client in order:
                topic = create_topic(bootstrap)
                topics[client] = topic
                if client == "ours":
                    figures = ours_produce(bootstrap, topic, msgs, size)
                else:
                    figures = in_subprocess("rdkafka_produce", bootstrap, topic, msgs, size)
                results[who][client].setdefault(f"{name} produce", []).append(figures)
                print(who, client, name, "produce", figures, flush=True)
            for client in order:
                # Both read the same topic (the one librdkafka wrote), each in a group of its own.
                topic = topics["librdkafka"]
                if client == "ours":
                    figures = ours_consume(bootstrap, topic, msgs)
                else:
                    figures = in_subprocess("rdkafka_consume", bootstrap, topic, msgs)
                results[who][client].setdefault(f"{name} consume", []).append(figures)
                print(who, client, name, "consume", figures, flush=True)


def table(results: dict[str, Any], who: str) -> str:
    def med(client: str, case: str, key: str) -> float:
        return float(statistics.median(r[key] for r in results[who][client][case]))

    lines = [
        f"\nBroker: {who}\n",
        "| case | ours | librdkafka | ours / librdkafka |",
        "|---|---|---|---|",
    ]
    for case in results[who]["ours"]:
        for key, label in (("MB_s", "MB/s"), ("records_s", "records/s")):
            o, r = med("ours", case, key), med("librdkafka", case, key)
            lines.append(f"| {case} {label} | {o:.2f} | {r:.2f} | {o / r:.2f} |")
        if case.endswith("consume"):
            o, r = med("ours", case, "fetch_MB_s"), med("librdkafka", case, "fetch_MB_s")
            lines.append(f"| {case} MB/s after the group join | {o:.2f} | {r:.2f} | {o / r:.2f} |")
            if "from_first_record_MB_s" in results[who]["librdkafka"][case][0]:
                r = med("librdkafka", case, "from_first_record_MB_s")
                lines.append(
                    f"| {case} MB/s, ours after the join, librdkafka from its first record | {o:.2f} | {r:.2f} | "
                    f"{o / r:.2f} |"
                )
        if case.endswith("produce"):
            o50, r50 = med("ours", case, "p50_ms"), med("librdkafka", case, "p50_ms")
            o99, r99 = med("ours", case, "p99_ms"), med("librdkafka", case, "p99_ms")
            lines.append(f"| {case} latency p50 / p99 | {o50:.0f} / {o99:.0f} ms | {r50:.0f} / {r99:.0f} ms | |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tansu", action="store_true", help="also measure both clients against Tansu")
    ap.add_argument("--small", type=int, default=100_000, help="number of 100-byte records")
    ap.add_argument("--large", type=int, default=10_000, help="number of 10 KB records")
    ap.add_argument("--out", default="perf_tools_bench.json")
    ap.add_argument("--table", metavar="JSON", help="print the tables of an earlier run's JSON file and exit")
    ap.add_argument("--run", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.table:
        saved = json.loads(Path(args.table).read_text())
        for who in ("ours", "tansu"):
            if saved[who]["ours"]:
                print(table(saved, who))
        return 0
    if args.run:
        function, function_args = args.run
        print(json.dumps(globals()[function](*json.loads(function_args))))
        return 0
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "core"), str(ROOT / "clients")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    cases = [("100B", args.small, 100), ("10KB", args.large, 10_240)]
    work = Path(tempfile.mkdtemp(prefix="perf-tools-bench-"))
    (work / "zk").mkdir()
    (work / "ours").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    results: dict[str, Any] = {"ours": {"ours": {}, "librdkafka": {}}, "tansu": {"ours": {}, "librdkafka": {}}}
    broker: BrokerProcess | None = None
    tansu: Tansu | None = None
    try:
        broker = BrokerProcess(work / "ours", zk.connect_string + "/perf-tools-bench")
        broker.start()
        bench(broker.bootstrap, cases, args.rounds, results, "ours")
        if args.tansu:
            tansu = Tansu(tansu_binary(ROOT / ".bench-cache"))
            bench(tansu.bootstrap, cases, args.rounds, results, "tansu")
    finally:
        if tansu is not None:
            tansu.stop()
        if broker is not None:
            broker.stop()
        zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the brokers' logs
    Path(args.out).write_text(json.dumps(results, indent=1))
    print(table(results, "ours"))
    if args.tansu:
        print(table(results, "tansu"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
