"""Where a librdkafka consume round's time goes, against our broker and Tansu alternately: the records are produced
as ../shared/bench/perf_clients.py produces them (3 partitions, acks=1), then read back by a librdkafka consumer
with perf_clients' settings, timing each `consume(num_messages=10000)` call (issue 17).

    .venv/bin/python -m tests.bench.consume_probe [--rounds 6] [--msgs 200000] [--size 100]
        [--consumer-set KEY=VALUE ...] [--out consume_probe.json]

For each round it prints the time from the assignment to the first batch, the whole round's time and MB/s, the
waits of 0.3 s or more between two batches, and this process's (the client's) CPU and minor page faults per MB
read. Such a wait is librdkafka's fetch backoff: once a response leaves more queued than `queued.min.messages`
(100,000 records per partition) or `queued.max.messages.kbytes` (64 MB) allow, the client fetches nothing for
`fetch.queue.backoff.ms` (1,000 ms). `--consumer-set fetch.queue.backoff.ms=10` shortens that wait, which shows
what each broker serves when the client does not stop fetching. Medians and their ratio (ours / Tansu) end the
output.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from tests.bench.broker_bench import Tansu, tansu_binary
from tests.bench.cluster_bench import key_value_argument
from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer

BACKOFF_GAP_S = 0.3  # a wait between batches this long is the client's fetch backoff, not the transfer


def produce(bootstrap: str, msgs: int, size: int) -> tuple[str, Any]:
    """A new 3-partition topic holding `msgs` records of `size` bytes, written with perf_clients.py's producer
    settings; returns its name and the producer, which the caller keeps until the records are read back, as
    perf_clients.py keeps its own (see main)."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"consume-probe-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, num_partitions=3, replication_factor=1)]).values():
        future.result(30)
    time.sleep(0.5)  # as perf_clients.py waits
    producer = Producer(
        {
            "bootstrap.servers": bootstrap,
            "acks": "1",
            "linger.ms": 5,
            "batch.size": 1 << 20,
            "queue.buffering.max.messages": 1_000_000,
            "queue.buffering.max.kbytes": 1_048_576,
            "message.max.bytes": 10_000_000,
        }
    )
    payload = b"x" * size
    for _ in range(msgs):
        while True:
            try:
                producer.produce(topic, payload)
                break
            except BufferError:
                producer.poll(0.01)
    if producer.flush(120):
        raise RuntimeError(f"records of {topic} left unsent")
    return topic, producer


def consume(bootstrap: str, topic: str, msgs: int, size: int, settings: dict[str, str]) -> dict[str, Any]:
    """Reads the topic back as perf_clients.py does, timing each batch from the assignment."""
    from confluent_kafka import Consumer, TopicPartition

    config: dict[str, Any] = {
        "bootstrap.servers": bootstrap,
        "group.id": f"consume-probe-{uuid.uuid4().hex[:6]}",
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "fetch.max.bytes": 52428800,
        "max.partition.fetch.bytes": 10485760,
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
        gaps: list[float] = []
        while got < msgs and time.perf_counter() < start + 120:
            batch = consumer.consume(num_messages=10000, timeout=1.0)
            now = time.perf_counter()
            if batch:
                if first is None:
                    first = now - start
                elif now - last >= BACKOFF_GAP_S:
                    gaps.append(round(now - last, 2))
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
        "backoff_gaps_s": gaps,
        "client_user_ms_per_MB": round((after.ru_utime - before.ru_utime) * 1000 / mb, 2),
        "client_sys_ms_per_MB": round((after.ru_stime - before.ru_stime) * 1000 / mb, 2),
        "client_page_faults_per_MB": round((after.ru_minflt - before.ru_minflt) / mb),
    }


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
    ap.add_argument("--out", default="consume_probe.json")
    args = ap.parse_args(argv)
    settings: dict[str, str] = dict(args.consumer_set)
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
                # The producer lives through the consume, as in perf_clients.py. Destroyed first, its memory goes
                # back to the OS, and the consumer's copies fault in new pages instead (client page faults per MB
                # read 410-430 against 140-180, on 2026-11-29 at 10 KB): the client then empties its queue slowly
                # enough that librdkafka's fetch backoff fell in 5 of 6 rounds against ours, none kept alive.
                topic, producer = produce(bootstrap, args.msgs, args.size)
                r = consume(bootstrap, topic, args.msgs, args.size, settings)
                del producer
                results[who].append(r)
                print(who, r, flush=True)
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
    Path(args.out).write_text(json.dumps({"settings": settings, **results}, indent=1))
    client = ", ".join(f"{k}={v}" for k, v in settings.items()) or "perf_clients.py's settings"
    print(f"\n| {args.msgs} x {args.size} B, {client} | ours | Tansu | ours / Tansu |")
    print("|---|---|---|---|")
    for key, what in (("MB_s", "MB/s"), ("first_batch_s", "first batch, s")):
        o = round(statistics.median(r[key] for r in results["ours"]), 3)
        t = round(statistics.median(r[key] for r in results["tansu"]), 3)
        print(f"| {what} (median) | {o} | {t} | {o / t:.2f} |")
    paused = {who: sum(1 for r in rs if r["backoff_gaps_s"]) for who, rs in results.items()}
    print(f"| rounds with a fetch backoff | {paused['ours']} of {args.rounds} | {paused['tansu']} of {args.rounds} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
