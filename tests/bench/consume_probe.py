"""Where a librdkafka consume round's time goes, against our broker and Tansu alternately (issue 17). Each round is
a fresh process, as ../shared/bench/perf_clients.py is in broker_bench: it produces as perf_clients.py does (3
partitions, acks=1, its producer settings, a delivery callback and a poll every 10,000 records), then reads the
records back with perf_clients' consumer settings in `consume(num_messages=10000)` calls, each one timed (the last
call asks only for the records left, where perf_clients.py asks for 10,000 and, when fewer are left, waits out the
1 s timeout; with `--msgs` a multiple of 10,000 the two are the same).

    .venv/bin/python -m tests.bench.consume_probe [--rounds 6] [--msgs 200000] [--size 100]
        [--consumer-set KEY=VALUE ...] [--destroy-producer] [--out consume_probe.json]

For each round it prints the time from the assignment to the first batch, the whole round's time and MB/s, the waits
of 0.3 s or more between two batches, the client's CPU and minor page faults per MB read, and how many times
librdkafka backed off its fetches because its queue was full: it logs "Fetch backoff for ...: Local: Queue full"
(counted from its `fetch` debug log) once the records queued for the consumer are over `queued.min.messages`
(100,000, all partitions together) or `queued.max.messages.kbytes` (64 MB), and then fetches nothing for
`fetch.queue.backoff.ms` (1,000 ms). A backoff delays the round only when the client still needed a fetch: the
summary counts the rounds with a wait of 0.8 s or more between two batches that ended less than 1.5 s after a backoff
was logged. `--consumer-set fetch.queue.backoff.ms=10` shortens that wait, which shows what each broker serves when
the client does not stop fetching. `--destroy-producer` destroys the producer before the consume, where
perf_clients.py keeps its own alive. Medians and their ratio (ours / Tansu) end the output.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from tests.bench.broker_bench import (
    PERF_CLIENTS_CONSUMER,
    PERF_CLIENTS_PRODUCER,
    Tansu,
    perf_clients_topic,
    tansu_binary,
)
from tests.bench.cluster_bench import key_value_argument
from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer

BATCH = 10_000  # records per consume() call, as perf_clients.py asks for
LONG_WAIT_S = 0.3  # a wait between two batches listed in the output
BACKOFF_WAIT_S = 0.8  # such a wait, after a queue-full backoff was logged, is the backoff (measured: 0.85-1.09 s)
BACKOFF_WINDOW_S = 1.5  # a backoff handled this long before a wait ended is counted as its cause


class _QueueFullBackoffs(logging.Handler):
    """Notes when librdkafka's log lines of a fetch backoff because the consumer's queue was full are handled (in
    the application's consume() calls, shortly after the backoff began)."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "Fetch backoff for" in message and "Queue full" in message:
            self.times.append(time.perf_counter())


def produce(bootstrap: str, msgs: int, size: int) -> tuple[str, Any]:
    """A new 3-partition topic holding `msgs` records of `size` bytes, written as perf_clients.py writes them;
    returns its name and the producer."""
    from confluent_kafka import Producer

    topic = perf_clients_topic(bootstrap, "consume-probe")
    producer = Producer({"bootstrap.servers": bootstrap, **PERF_CLIENTS_PRODUCER})
    errors = 0

    def on_delivery(err: Any, _msg: Any) -> None:
        nonlocal errors
        if err is not None:
            errors += 1

    payload = b"x" * size
    for i in range(msgs):
        while True:
            try:
                producer.produce(topic, payload, callback=on_delivery)
                break
            except BufferError:
                producer.poll(0.01)
        if i % 10000 == 0:
            producer.poll(0)
    if producer.flush(120) or errors:
        raise RuntimeError(f"records of {topic} not delivered: {errors} failed")
    return topic, producer


def consume(bootstrap: str, topic: str, msgs: int, size: int, settings: dict[str, str]) -> dict[str, Any]:
    """Reads the topic back as perf_clients.py does, timing each batch from the assignment."""
    from confluent_kafka import Consumer, TopicPartition

    backoffs = _QueueFullBackoffs()
    log = logging.getLogger(f"consume-probe.{topic}")
    log.addHandler(backoffs)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    config: dict[str, Any] = {
        "bootstrap.servers": bootstrap,
        "group.id": f"consume-probe-{uuid.uuid4().hex[:6]}",
        **PERF_CLIENTS_CONSUMER,
        "debug": "fetch",
        "logger": log,
        **settings,
    }
    consumer = Consumer(config)
    before = resource.getrusage(resource.RUSAGE_SELF)
    try:
        consumer.assign([TopicPartition(topic, p, 0) for p in range(3)])
        got = 0
        start = time.perf_counter()
        last = start
        first: float | None = None
        waits: list[float] = []
        backoff_waits: list[float] = []
        while got < msgs and time.perf_counter() < start + 120:
            batch = consumer.consume(num_messages=min(BATCH, msgs - got), timeout=1.0)
            now = time.perf_counter()
            if batch:
                if first is None:
                    first = now - start
                elif now - last >= LONG_WAIT_S:
                    wait = round(now - last, 2)
                    waits.append(wait)
                    # A backoff behind the wait began less than its length (1 s by default) before the wait ended.
                    if wait >= BACKOFF_WAIT_S and any(now - BACKOFF_WINDOW_S <= t <= now for t in backoffs.times):
                        backoff_waits.append(wait)
                last = now
            got += sum(1 for m in batch if m.error() is None)
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_SELF)
    finally:
        consumer.close()
    if got < msgs:
        raise RuntimeError(f"read {got} of {msgs} records of {topic} in 120 s")
    mb = got * size / 1e6
    return {
        "first_batch_s": round(first or 0.0, 3),
        "seconds": round(seconds, 3),
        "MB_s": round(mb / seconds, 1),
        "waits_s": waits,
        "queue_full_backoffs": len(backoffs.times),
        "backoff_waits_s": backoff_waits,
        "client_user_ms_per_MB": round((after.ru_utime - before.ru_utime) * 1000 / mb, 2),
        "client_sys_ms_per_MB": round((after.ru_stime - before.ru_stime) * 1000 / mb, 2),
        "client_page_faults_per_MB": round((after.ru_minflt - before.ru_minflt) / mb),
    }


def one_round(bootstrap: str, args: argparse.Namespace) -> dict[str, Any]:
    """Produce, then consume, in this process. The producer lives through the consume, as perf_clients.py's does,
    unless `--destroy-producer`."""
    topic, producer = produce(bootstrap, args.msgs, args.size)
    if args.destroy_producer:
        producer = None  # its last reference: librdkafka's instance is destroyed here
        gc.collect()
    result = consume(bootstrap, topic, args.msgs, args.size, dict(args.consumer_set))
    del producer  # otherwise kept alive through the consume, as perf_clients.py keeps its own
    return result


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--msgs", type=int, default=200_000)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument(
        "--consumer-set",
        action="append",
        default=[],
        type=key_value_argument,
        metavar="KEY=VALUE",
        help="a librdkafka consumer setting (repeatable), e.g. fetch.queue.backoff.ms=10",
    )
    ap.add_argument("--destroy-producer", action="store_true", help="destroy the producer before the consume")
    ap.add_argument("--out", default="consume_probe.json")
    ap.add_argument("--round", metavar="BOOTSTRAP", help=argparse.SUPPRESS)  # one round in this process
    args = ap.parse_args(argv)
    if args.round:
        print(json.dumps(one_round(args.round, args)))
        return 0
    work = Path(tempfile.mkdtemp(prefix="consume-probe-"))
    (work / "zk").mkdir()
    (work / "ours").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    results: dict[str, list[dict[str, Any]]] = {"ours": [], "tansu": []}
    broker: BrokerProcess | None = None
    tansu: Tansu | None = None
    try:
        broker = BrokerProcess(work / "ours", f"{zk.connect_string}/consume-probe")
        broker.start()
        tansu = Tansu(tansu_binary(ROOT / ".bench-cache"))
        bootstraps = {"ours": broker.bootstrap, "tansu": tansu.bootstrap}
        for _ in range(args.rounds):
            for who, bootstrap in bootstraps.items():
                try:
                    out = subprocess.run(
                        [sys.executable, "-m", "tests.bench.consume_probe", *argv, "--round", bootstrap],
                        capture_output=True,
                        text=True,
                        timeout=600,
                        cwd=ROOT,
                    )
                except subprocess.TimeoutExpired as e:
                    raise RuntimeError(f"a round against {who} took over 600 s: {e.stderr!r}") from e
                if out.returncode != 0:
                    raise RuntimeError(f"a round against {who} failed: {out.stderr[-2000:]}")
                r = json.loads(out.stdout.strip().splitlines()[-1])
                results[who].append(r)
                print(who, r, flush=True)
    except BaseException:
        print(f"the run failed; the broker's logs are kept in {work}", file=sys.stderr)
        raise
    finally:
        try:
            if tansu is not None:
                tansu.stop()
        finally:
            try:
                if broker is not None:
                    broker.stop()
            finally:
                zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the broker's logs
    settings = dict(args.consumer_set)
    Path(args.out).write_text(json.dumps({"settings": settings, **results}, indent=1))
    client = ", ".join(f"{k}={v}" for k, v in settings.items()) or "perf_clients.py's settings"
    if args.destroy_producer:
        client += ", producer destroyed first"
    print(f"\n| {args.msgs} x {args.size} B, {client} | ours | Tansu | ours / Tansu |")
    print("|---|---|---|---|")
    for key, what in (
        ("MB_s", "MB/s"),
        ("first_batch_s", "first batch, s"),
        ("client_page_faults_per_MB", "client page faults per MB"),
    ):
        o = round(statistics.median(r[key] for r in results["ours"]), 3)
        t = round(statistics.median(r[key] for r in results["tansu"]), 3)
        print(f"| {what} (median) | {o} | {t} | {o / t:.2f} |")
    paused = {who: sum(1 for r in rs if r["backoff_waits_s"]) for who, rs in results.items()}
    print(
        f"| rounds delayed by a queue-full fetch backoff | {paused['ours']} of {args.rounds} | {paused['tansu']} of "
        f"{args.rounds} | |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
