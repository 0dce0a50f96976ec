"""GIL hand-offs between the broker's network and request handler threads: what `sys.setswitchinterval` and the
thread counts (num.network.threads / num.io.threads) do to the broker's CPU per request and to throughput
(issue 17).

    .venv/bin/python -m tests.bench.gil_bench [--rounds 2] [--msgs 200000] [--seconds 4] [--out gil_bench.json]

One broker per setting, each from the bin scripts against one ZooKeeper, all started at once and driven
alternately by the same librdkafka workloads (so machine noise falls on every setting alike):
- 100-byte records produced in batches, then consumed (as ../shared/bench/perf_clients.py does, acks=1,
  3 partitions): MB/s and the broker's CPU seconds per MB, produce and consume apart;
- one-record produce requests (linger.ms=0, one in flight, acks=1), the per-request path: requests/s, the
  broker's CPU microseconds per request and its threads' context switches per request.
CPU is the time on CPU of the broker's threads (/proc/PID/task/*/schedstat), which contention on a shared
machine does not inflate.

The settings: the thread counts Kafka ships (3 network / 8 io), the benchmarks' (2 / 4) and one of each, at
CPython's default switch interval (5 ms); and at 2 / 4 threads, switch intervals of 1, 2, 10 and 50 ms. The switch
interval is set in the broker's interpreter by a sitecustomize module this script puts first on its PYTHONPATH
(the broker itself reads no such setting).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

_SITECUSTOMIZE = """\
import os, sys
_interval = os.environ.get("GIL_BENCH_SWITCH_INTERVAL")
if _interval:
    sys.setswitchinterval(float(_interval))
    with open(os.environ["GIL_BENCH_REPORT"], "w") as _f:
        _f.write(repr(sys.getswitchinterval()))
"""


@dataclass(frozen=True)
class Setting:
    network_threads: int
    io_threads: int
    switch_interval_s: float | None = None  # None: CPython's default (0.005)

    @property
    def name(self) -> str:
        interval = "default" if self.switch_interval_s is None else f"{self.switch_interval_s * 1000:g}ms"
        return f"net={self.network_threads} io={self.io_threads} switch={interval}"


SETTINGS = [
    Setting(3, 8),
    Setting(2, 4),
    Setting(1, 1),
    Setting(2, 4, 0.001),
    Setting(2, 4, 0.002),
    Setting(2, 4, 0.010),
    Setting(2, 4, 0.050),
]


def cpu_seconds(pid: int) -> float:
    """CPU time of the process's threads, in nanosecond resolution (schedstat), not /proc/PID/stat's 10 ms ticks."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended meanwhile
    return total / 1e9


def context_switches(pid: int) -> int:
    """Context switches of the process's threads, voluntary (a thread waiting: for a request, the GIL, a wakeup)
    and involuntary, from /proc/PID/task/*/status: the thread hand-offs a request costs."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            for line in (task / "status").read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                    total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended meanwhile
    return total


def produce_then_consume(bootstrap: str, pid: int, msgs: int, size: int = 100) -> dict[str, float]:
    """perf_clients.py's workload with the broker's CPU measured around each phase."""
    from confluent_kafka import Consumer, Producer, TopicPartition

    from tests.bench.broker_bench import PERF_CLIENTS_CONSUMER, PERF_CLIENTS_PRODUCER, perf_clients_topic

    topic = perf_clients_topic(bootstrap, "gil")
    producer = Producer({"bootstrap.servers": bootstrap, **PERF_CLIENTS_PRODUCER})
    producer.list_topics(topic, timeout=10)
    payload = b"x" * size
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    for i in range(msgs):
        while True:
            try:
                producer.produce(topic, payload)
                break
            except BufferError:
                producer.poll(0.01)
        if i % 10000 == 0:
            producer.poll(0)
    producer.flush(120)
    t1, cpu1 = time.perf_counter(), cpu_seconds(pid)
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": "gil-" + uuid.uuid4().hex[:6], **PERF_CLIENTS_CONSUMER}
    )
    cpu2, t2 = cpu_seconds(pid), time.perf_counter()
    consumer.assign([TopicPartition(topic, p, 0) for p in range(3)])
    got = 0
    deadline = t2 + 120
    while got < msgs and time.perf_counter() < deadline:
        got += sum(1 for m in consumer.consume(num_messages=10000, timeout=1.0) if m.error() is None)
    t3, cpu3 = time.perf_counter(), cpu_seconds(pid)
    consumer.close()
    mb = msgs * size / 1e6
    return {
        "produce_MB_s": round(mb / (t1 - t0), 1),
        "produce_cpu_ms_per_MB": round((cpu1 - cpu0) * 1000 / mb, 2),
        "consume_MB_s": round(got * size / 1e6 / (t3 - t2), 1),
        "consume_cpu_ms_per_MB": round((cpu3 - cpu2) * 1000 / mb, 2),
    }


def one_record_requests(bootstrap: str, pid: int, seconds: float) -> dict[str, float]:
    """Produce requests of one 100-byte record each (linger.ms=0, one in flight, acks=1) for `seconds`: requests/s
    and the broker's CPU per request (its topic made and the connection set up before the clock)."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"gil-one-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    producer = Producer(
        {"bootstrap.servers": bootstrap, "acks": "1", "linger.ms": 0, "max.in.flight.requests.per.connection": 1}
    )
    payload = b"x" * 100
    producer.produce(topic, payload)
    producer.flush(30)
    requests = 0
    switches0, cpu0, start = context_switches(pid), cpu_seconds(pid), time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        producer.produce(topic, payload)
        producer.flush(10)
        requests += 1
    elapsed, cpu = time.perf_counter() - start, cpu_seconds(pid) - cpu0
    switches = context_switches(pid) - switches0
    return {
        "requests_per_s": round(requests / elapsed, 1),
        "cpu_us_per_request": round(cpu * 1e6 / requests, 1),
        "switches_per_request": round(switches / requests, 2),
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--msgs", type=int, default=200_000, help="100-byte records per produce/consume run")
    ap.add_argument("--seconds", type=float, default=4.0, help="length of each one-record-request run")
    ap.add_argument("--only", help="run only the settings whose name contains this")
    ap.add_argument("--out", default="gil_bench.json")
    args = ap.parse_args(argv)

    from tests.integration.broker import BrokerProcess
    from tests.integration.zookeeper import ZooKeeperServer

    settings = [s for s in SETTINGS if not args.only or args.only in s.name]
    work = Path(tempfile.mkdtemp(prefix="gil-bench-"))
    (work / "zk").mkdir()
    (work / "site").mkdir()
    (work / "site" / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    brokers: dict[Setting, BrokerProcess] = {}
    results: dict[str, dict[str, list[dict[str, float]]]] = {s.name: {} for s in settings}
    saved_env = {k: os.environ.get(k) for k in ("PYTHONPATH", "GIL_BENCH_SWITCH_INTERVAL", "GIL_BENCH_REPORT")}
    try:
        for i, setting in enumerate(settings):
            (work / str(i)).mkdir()
            broker = BrokerProcess(
                work / str(i),
                f"{zk.connect_string}/gil-{i}",
                overrides={
                    "num.network.threads": str(setting.network_threads),
                    "num.io.threads": str(setting.io_threads),
                },
            )
            brokers[setting] = broker  # stopped at the end even if its start fails
            os.environ["PYTHONPATH"] = str(work / "site")
            report = work / str(i) / "switch_interval"
            if setting.switch_interval_s is not None:
                os.environ["GIL_BENCH_SWITCH_INTERVAL"] = str(setting.switch_interval_s)
                os.environ["GIL_BENCH_REPORT"] = str(report)
            try:
                broker.start()
                if setting.switch_interval_s is not None:
                    assert abs(float(report.read_text()) - setting.switch_interval_s) < 1e-6, (
                        "switch interval not applied"
                    )
            finally:
                for k, v in saved_env.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
        for _ in range(args.rounds):
            for setting, broker in brokers.items():
                batched = produce_then_consume(broker.bootstrap, broker.pid, args.msgs)
                single = one_record_requests(broker.bootstrap, broker.pid, args.seconds)
                results[setting.name].setdefault("100B", []).append(batched)
                results[setting.name].setdefault("one_record", []).append(single)
                print(setting.name, batched, single, flush=True)
    finally:
        for broker in brokers.values():
            broker.stop()
        zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the brokers' logs
    Path(args.out).write_text(json.dumps(results, indent=1))

    def med(name: str, case: str, key: str) -> float:
        return round(float(statistics.median(r[key] for r in results[name][case])), 2)

    print(
        "\n| setting | produce MB/s | produce CPU ms/MB | consume MB/s | consume CPU ms/MB "
        "| one-record requests/s | CPU us/request | context switches/request |\n|---|---|---|---|---|---|---|---|"
    )
    for setting in settings:
        n = setting.name
        print(
            f"| {n} | {med(n, '100B', 'produce_MB_s')} | {med(n, '100B', 'produce_cpu_ms_per_MB')} "
            f"| {med(n, '100B', 'consume_MB_s')} | {med(n, '100B', 'consume_cpu_ms_per_MB')} "
            f"| {med(n, 'one_record', 'requests_per_s')} | {med(n, 'one_record', 'cpu_us_per_request')} "
            f"| {med(n, 'one_record', 'switches_per_request')} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
