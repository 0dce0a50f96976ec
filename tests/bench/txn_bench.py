"""Transactional produce throughput beside the idempotent producer's, on one broker (issue 13).

    .venv/bin/python -m tests.bench.txn_bench [--rounds 3] [--size 100] [--out txn_bench.json]

Starts ZooKeeper and one broker from the bin scripts and warms them up with a short transactional run of each
client (it creates the transaction log). Then per round and per client, alternating which mode goes
first, each run on a fresh 3-partition topic with acks=all, linger.ms=5 and 256 KB batches:

- librdkafka (confluent-kafka, in this process): the idempotent producer sending N records and flushing, and the
  transactional producer sending the same N records in transactions committed once 100 ms old (as Kafka's
  ProducerPerformance does with --transaction-duration-ms 100), the last one after the loop;
- our producer: bin/kafka-producer-perf-test.sh with enable.idempotence=true, without and with
  `--transaction-duration-ms 100`.

Prints a Markdown table of medians (records/s and MB/s, MB = 2^20 bytes) with the ratio transactional /
idempotent per client (Kafka's guidance: a few percent of overhead at 100 ms transactions), and writes every raw
figure as JSON. Not part of `make test`; `make bench` runs it after the pytest benchmarks.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from tests.bench import perf_tools_bench
from tests.bench.perf_tools_bench import MB, create_topic
from tests.integration.broker import BrokerProcess
from tests.integration.txn_support import ONE_BROKER_OVERRIDES
from tests.integration.zookeeper import ZooKeeperServer

TRANSACTION_MS = 100
SETTINGS = {"acks": "all", "linger.ms": "5", "batch.size": str(256 * 1024), "enable.idempotence": "true"}
MODES = ("idempotent", "transactional")


def rdkafka_produce(bootstrap: str, topic: str, msgs: int, size: int, transactional: bool) -> dict[str, Any]:
    """librdkafka sending `msgs` records of `size` bytes round-robin over the topic's 3 partitions; with
    `transactional`, in transactions committed once TRANSACTION_MS old."""
    import confluent_kafka as ck

    config: dict[str, Any] = {
        "bootstrap.servers": bootstrap,
        **SETTINGS,
        "queue.buffering.max.messages": 1_000_000,
        "queue.buffering.max.kbytes": 1_048_576,
    }
    if transactional:
        config["transactional.id"] = f"txn-bench-{uuid.uuid4().hex[:8]}"
    producer = ck.Producer(config)
    errors = [0]

    def on_delivery(err: Any, _msg: Any) -> None:
        if err is not None:
            errors[0] += 1

    if transactional:
        producer.init_transactions(60)
    payload = b"x" * size
    transactions = 0
    open_since: float | None = None
    t0 = time.perf_counter()
    for i in range(msgs):
        if transactional and open_since is None:
            producer.begin_transaction()
            open_since = time.perf_counter()
        while True:
            try:
                producer.produce(topic, payload, partition=i % 3, on_delivery=on_delivery)
                break
            except BufferError:
                producer.poll(0.005)
        if open_since is not None and time.perf_counter() - open_since >= TRANSACTION_MS / 1000:
            producer.commit_transaction(60)
            transactions += 1
            open_since = None
    if open_since is not None:
        producer.commit_transaction(60)
        transactions += 1
    producer.flush(300)
    elapsed = time.perf_counter() - t0
    if errors[0]:
        raise RuntimeError(f"{errors[0]} records failed")
    return {
        "records": msgs,
        "records_s": msgs / elapsed,
        "MB_s": msgs * size / MB / elapsed,
        "transactions": transactions,
    }


def ours_produce(bootstrap: str, topic: str, msgs: int, size: int, transactional: bool) -> dict[str, Any]:
    """bin/kafka-producer-perf-test.sh (our Python producer), with `--transaction-duration-ms` when
    `transactional`."""
    extra = ["--transaction-duration-ms", str(TRANSACTION_MS), "--transactional-id", f"txn-bench-{topic}"]
    return perf_tools_bench.ours_produce(bootstrap, topic, msgs, size, SETTINGS, extra if transactional else ())


def check_committed(bootstrap: str, topic: str, msgs: int) -> None:
    """Every record a run sent is there for read_committed consumers: the sum of the partitions' LSOs, less
    the transaction markers, is `msgs` (the idempotent runs have no markers)."""
    from tests.integration.txn_support import Offsets

    offsets = Offsets(bootstrap)
    try:
        offsets.wait_stable(topic, 3, timeout=60)
        lso = sum(offsets.lso(topic, p) for p in range(3))
    finally:
        offsets.close()
    if lso < msgs:
        raise RuntimeError(f"{topic}: only {lso} offsets below the LSO for {msgs} records")


def table(results: dict[str, Any]) -> str:
    lines = [
        "| client | idempotent records/s (MB/s) | transactional, 100 ms (MB/s) | transactional / idempotent |",
        "|---|---|---|---|",
    ]
    for client, runs in results["runs"].items():
        med = {
            mode: (
                statistics.median(r["records_s"] for r in runs[mode]),
                statistics.median(r["MB_s"] for r in runs[mode]),
            )
            for mode in MODES
            if runs.get(mode)
        }
        if len(med) < 2:
            continue
        (ir, imb), (tr, tmb) = med["idempotent"], med["transactional"]
        lines.append(f"| {client} | {ir:,.0f} ({imb:.1f}) | {tr:,.0f} ({tmb:.1f}) | {tr / ir:.3f} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--size", type=int, default=100, help="record size in bytes")
    ap.add_argument("--rdkafka-records", type=int, default=1_000_000)
    ap.add_argument("--ours-records", type=int, default=200_000)
    ap.add_argument("--out", default="txn_bench.json")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="txn-bench-"))
    (work / "zk").mkdir()
    (work / "broker").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    broker = BrokerProcess(work / "broker", f"{zk.connect_string}/txn-bench", overrides=ONE_BROKER_OVERRIDES)
    results: dict[str, Any] = {"size": args.size, "transaction_ms": TRANSACTION_MS, "runs": {}}
    clients = {
        "librdkafka": (rdkafka_produce, args.rdkafka_records),
        "ours (kafka-producer-perf-test)": (ours_produce, args.ours_records),
    }
    try:
        broker.start()
        for produce, msgs in clients.values():  # warm-up, not counted: the transaction log and first connections
            produce(broker.bootstrap, create_topic(broker.bootstrap), msgs // 10, args.size, True)
        for r in range(args.rounds):
            # Alternate which mode goes first, so that neither always meets a warmer broker.
            order = MODES if r % 2 == 0 else MODES[::-1]
            for client, (produce, msgs) in clients.items():
                for mode in order:
                    topic = create_topic(broker.bootstrap)
                    figures = produce(broker.bootstrap, topic, msgs, args.size, mode == "transactional")
                    check_committed(broker.bootstrap, topic, msgs)
                    results["runs"].setdefault(client, {}).setdefault(mode, []).append(figures)
                    print(f"round {r + 1}: {client} {mode}: {figures}", flush=True)
    finally:
        broker.stop()
        zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the brokers' logs
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1))
    print(f"\nOne broker, {args.size}-byte records, acks=all, medians of {args.rounds} rounds:\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
