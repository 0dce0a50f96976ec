"""The PySpark data source's throughput (issue 14): reads into a count and the sink, at-least-once and exactly-once.

    .venv/bin/python -m tests.bench.spark_bench [--records 1000000] [--size 100] [--partitions 4] [--rounds 3]
                                                [--out spark_bench.json]

Starts ZooKeeper and one broker from the bin scripts, fills a topic of `--partitions` partitions with `--records`
records of `--size` bytes (confluent-kafka, not measured), then in one local[2] session (the tests' settings), after
a warm-up read that starts the Python workers:

- streaming read: `readStream.format("kafka-port")` from earliest, trigger availableNow, into a foreachBatch sink that
  counts each micro-batch's rows (`df.count()`: every row goes through the source's Arrow batches);
- batch read: `spark.read.format("kafka-port")...count()`;
- sink: a streaming copy of the topic into a fresh topic of the same partitions (`selectExpr("key", "value")`,
  availableNow, `maxOffsetsPerTrigger` as given), without and with `exactlyOnce=true`; each run is checked by a
  read_committed batch count of the sink topic (not measured). The copy's rate includes its read: it is the rate
  of a topic-to-topic pipeline.

Each rate is rows over the wall time of the query (start to termination, query planning included), and rows over
the CPU seconds Spark spent on it (the driver, its JVM and the Python workers; the broker's CPU is reported apart):
on a machine shared with other work the wall rate depends on the neighbours, the CPU rate does not. Prints a
Markdown table of medians (rows/s, rows/s per core as local[2] runs two tasks at a time, rows per Spark CPU second)
and writes every raw figure as JSON. Not part of `make test`; `make bench` runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from tests.bench.perf_tools_bench import create_topic
from tests.integration.broker import BrokerProcess
from tests.integration.txn_support import ONE_BROKER_OVERRIDES
from tests.integration.zookeeper import ZooKeeperServer

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "kafka-port"
CORES = 2
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat[stat.rfind(")") + 2 :].split()[1]), []).append(int(entry))
    return children


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time, with that of its children it has reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rfind(")") + 2 :].split()
    return sum(int(f) for f in fields[11:15]) / _CLOCK_TICKS


def _tree_cpu_seconds(roots: list[int]) -> float:
    children = _children()
    total, stack = 0.0, list(roots)
    while stack:
        pid = stack.pop()
        total += _cpu_seconds(pid)
        stack.extend(children.get(pid, ()))
    return total


def spark_jvm_pids() -> list[int]:
    """Spark's JVM, a child of this process (its subtree holds the Python workers)."""
    pids = []
    for pid in _children().get(os.getpid(), ()):
        try:
            if b"org.apache.spark.deploy.SparkSubmit" in Path(f"/proc/{pid}/cmdline").read_bytes():
                pids.append(pid)
        except OSError:
            pass
    return pids


class CpuMeter:
    """CPU seconds spent by Spark (driver, JVM, Python workers) and by the broker between start and stop: on a
    machine shared with other work, rows per CPU second is the figure that does not depend on the neighbours."""

    def __init__(self, broker_pid: int) -> None:
        self.spark = spark_jvm_pids()
        self.broker = [broker_pid]

    def _spark_cpu_seconds(self) -> float:
        # This process alone (its other children are ZooKeeper and the broker), then the JVM's tree.
        return _cpu_seconds(os.getpid()) + _tree_cpu_seconds(self.spark)

    def start(self) -> None:
        self._spark0 = self._spark_cpu_seconds()
        self._broker0 = _tree_cpu_seconds(self.broker)

    def stop(self, figures: dict[str, Any]) -> None:
        figures["spark_cpu_s"] = self._spark_cpu_seconds() - self._spark0
        figures["broker_cpu_s"] = _tree_cpu_seconds(self.broker) - self._broker0


MODES = ("streaming read", "batch read", "sink, at-least-once", "sink, exactlyOnce=true")


def fill(bootstrap: str, topic: str, partitions: int, records: int, size: int) -> None:
    """`records` records of `size` bytes (keys `k<i>`), round-robin over the partitions."""
    import confluent_kafka as ck

    producer = ck.Producer(
        {
            "bootstrap.servers": bootstrap,
            "linger.ms": 20,
            "batch.size": 1 << 20,
            "queue.buffering.max.messages": 1_000_000,
            "queue.buffering.max.kbytes": 1_048_576,
        }
    )
    payload = b"x" * size
    for i in range(records):
        while True:
            try:
                producer.produce(topic, payload, key=b"k%d" % i, partition=i % partitions)
                break
            except BufferError:
                producer.poll(0.01)
    if producer.flush(300):
        raise RuntimeError("records left unsent")


def session() -> Any:
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master(f"local[{CORES}]")
        .appName("kafka-port-spark-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(CORES))
        .config("spark.driver.memory", "1g")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("WARN")
    return spark


def streaming_read(spark: Any, bootstrap: str, topic: str, work: Path) -> dict[str, Any]:
    counts: list[int] = []

    def count(df: Any, _batch_id: int) -> None:
        counts.append(df.count())

    t0 = time.perf_counter()
    query = (
        spark.readStream.format(FORMAT)
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .load()
        .writeStream.foreachBatch(count)
        .option("checkpointLocation", str(work / f"read-{uuid.uuid4().hex[:8]}"))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    elapsed = time.perf_counter() - t0
    if query.exception() is not None:
        raise RuntimeError(str(query.exception()))
    return {"rows": sum(counts), "batches": len(counts), "seconds": elapsed}


def batch_read(spark: Any, bootstrap: str, topic: str, **options: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    reader = spark.read.format(FORMAT).option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic)
    for key, value in options.items():
        reader = reader.option(key, value)
    rows = reader.load().count()
    return {"rows": rows, "seconds": time.perf_counter() - t0}


def sink(
    spark: Any, bootstrap: str, topic: str, partitions: int, work: Path, exactly_once: bool, per_trigger: int
) -> dict[str, Any]:
    target = create_topic(bootstrap, partitions)
    writer = (
        spark.readStream.format(FORMAT)
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", str(per_trigger))
        .load()
        .selectExpr("key", "value")
        .writeStream.format(FORMAT)
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", target)
        .option("checkpointLocation", str(work / f"sink-{uuid.uuid4().hex[:8]}"))
        .trigger(availableNow=True)
    )
    if exactly_once:
        writer = writer.option("exactlyOnce", "true")
    t0 = time.perf_counter()
    query = writer.start()
    query.awaitTermination()
    elapsed = time.perf_counter() - t0
    if query.exception() is not None:
        raise RuntimeError(str(query.exception()))
    rows = sum(p["numInputRows"] for p in query.recentProgress)
    return {"rows": rows, "batches": len(query.recentProgress), "seconds": elapsed, "topic": target}


def check_sink(spark: Any, bootstrap: str, figures: dict[str, Any]) -> None:
    """Every row the copy wrote is in its topic once, for read_committed readers."""
    committed = batch_read(spark, bootstrap, figures["topic"], **{"kafka.isolation.level": "read_committed"})["rows"]
    if committed != figures["rows"]:
        raise RuntimeError(f"{figures['topic']}: {committed} committed records for {figures['rows']} rows written")
    figures["committed"] = committed


def table(results: dict[str, Any]) -> str:
    lines = [
        "| measure | rows/s | rows/s per core (of 2) | rows per Spark CPU second | broker CPU s |",
        "|---|---|---|---|---|",
    ]
    for mode in MODES:
        runs = results["runs"].get(mode)
        if not runs:
            continue
        rate = statistics.median(r["rows_s"] for r in runs)
        per_cpu = statistics.median(r["rows_per_spark_cpu_s"] for r in runs)
        broker = statistics.median(r["broker_cpu_s"] for r in runs)
        lines.append(f"| {mode} | {rate:,.0f} | {rate / CORES:,.0f} | {per_cpu:,.0f} | {broker:.1f} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--size", type=int, default=100, help="value size in bytes")
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-offsets-per-trigger", type=int, default=250_000, help="of the sink's copy query")
    ap.add_argument("--only", choices=MODES, action="append", help="run only these measures (repeatable)")
    ap.add_argument("--out", default="spark_bench.json")
    args = ap.parse_args(argv)
    modes = args.only or list(MODES)
    # Spark starts fresh Python processes (a streaming query's source runner, the workers): they load the project's
    # bytecode rather than compile modules changed since the last `make`, as `make run` has it.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *(str(ROOT / tree) for tree in ("core", "clients", "spark"))],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work = Path(tempfile.mkdtemp(prefix="spark-bench-"))
    (work / "zk").mkdir()
    (work / "broker").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    broker = BrokerProcess(
        work / "broker",
        f"{zk.connect_string}/spark-bench",
        overrides={**ONE_BROKER_OVERRIDES, "log.retention.ms": "-1"},
    )
    results: dict[str, Any] = {
        "records": args.records,
        "size": args.size,
        "partitions": args.partitions,
        "cores": CORES,
        "sink_max_offsets_per_trigger": args.max_offsets_per_trigger,
        "runs": {},
    }
    spark = None
    try:
        broker.start()
        bootstrap = broker.bootstrap
        topic = create_topic(bootstrap, args.partitions)
        t0 = time.perf_counter()
        fill(bootstrap, topic, args.partitions, args.records, args.size)
        print(f"{args.records} records of {args.size} B in {topic} in {time.perf_counter() - t0:.1f} s", flush=True)
        spark = session()
        # Warm-up on a small topic, not counted: the Python workers, the JVM's first plans, the transaction log.
        warm = create_topic(bootstrap, args.partitions)
        fill(bootstrap, warm, args.partitions, 20_000, args.size)
        streaming_read(spark, bootstrap, warm, work)
        sink(spark, bootstrap, warm, args.partitions, work, True, 5_000)
        meter = CpuMeter(broker.pid)
        print(f"CPU measured: this process, Spark's JVM {meter.spark} and the broker {meter.broker}", flush=True)
        for r in range(args.rounds):
            for mode in modes:
                meter.start()
                if mode == "streaming read":
                    figures = streaming_read(spark, bootstrap, topic, work)
                elif mode == "batch read":
                    figures = batch_read(spark, bootstrap, topic)
                else:
                    exactly_once = mode == "sink, exactlyOnce=true"
                    figures = sink(
                        spark, bootstrap, topic, args.partitions, work, exactly_once, args.max_offsets_per_trigger
                    )
                meter.stop(figures)
                if "topic" in figures:
                    check_sink(spark, bootstrap, figures)
                if figures["rows"] != args.records:
                    raise RuntimeError(f"{mode}: {figures['rows']} rows, {args.records} expected")
                figures["rows_s"] = figures["rows"] / figures["seconds"]
                figures["rows_per_spark_cpu_s"] = figures["rows"] / figures["spark_cpu_s"]
                results["runs"].setdefault(mode, []).append(figures)
                print(f"round {r + 1}: {mode}: {figures}", flush=True)
    finally:
        if spark is not None:
            spark.stop()
        broker.stop()
        zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the brokers' logs
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1))
    print(
        f"\nOne broker, {args.records:,} records of {args.size} B over {args.partitions} partitions, local[{CORES}], "
        f"medians of {args.rounds} rounds:\n"
    )
    print(table(results))
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
