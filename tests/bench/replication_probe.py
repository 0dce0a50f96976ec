"""Probe of the followers' cost in a three-broker cluster: CPU seconds per replicated MB of each broker, the
leader's and each follower's apart, from /proc/<pid>/stat (contention moves wall-clock figures, not these).

    .venv/bin/python -m tests.bench.replication_probe [--size 10240] [--mb 200] [--rate 0] [--profile out.txt]
        [--set KEY=VALUE ...]

A one-partition topic, RF=3, min.insync.replicas=2, is written by librdkafka with acks=all: the partition's leader
serves the Produce requests and the two followers' Fetches; the two followers only fetch and append, so their CPU
per MB is what a follower costs per replicated byte. With `--rate N` the records are sent one per request at N
records/s (linger.ms=0) and the figure of interest is CPU per record: a follower's cost per round trip.
`--profile FILE` records the first follower with py-spy (`--threads --gil -f raw`: the samples holding the GIL;
with `--on-cpu` the samples of threads on a CPU) while the records are written; `--strace FILE` counts its system
calls instead (`strace -c -f`); with `--leader` both watch the partition's leader instead. `--set KEY=VALUE`
(repeatable) sets a broker setting on all three brokers.

    .venv/bin/python -m tests.bench.replication_probe --size 1024 --rate 200 --seconds 10 --hops

`--hops` runs the brokers with the request log (`kafka.request.logger`) at DEBUG and splits an acks=all record's
round trip by hop from the leader's log: the Produce's queue, local (append, and the parked follower fetches
completed and answered by the same handler), remote (replication) and response times; the follower fetches that
waited for the record (their response queue and send time: leader to follower) and the next fetch of each follower
(its arrival after the answer to the last one was sent: the follower's turnaround; its queue and local time: the
follower's position, the high watermark and the Produce completed). Medians in ms over the run's records.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.cluster_bench import add_set_argument, create_topic, partition_leader, produce_all
from tests.integration.cluster import KafkaCluster
from tests.integration.zookeeper import ZooKeeperServer

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> tuple[float, float, int, int]:
    """utime and stime of a process (all its threads) in seconds, its minor page faults and its threads' context
    switches."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    switches = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            for line in (task / "status").read_text().splitlines():
                if line.endswith("ctxt_switches:") or "ctxt_switches:" in line:
                    switches += int(line.split()[1])
        except OSError:
            pass  # the thread ended
    return int(fields[11]) / _TICKS, int(fields[12]) / _TICKS, int(fields[7]), switches


def thread_cpu_seconds(pid: int) -> dict[int, tuple[float, float]]:
    """utime and stime of each thread of a process in seconds, by thread id."""
    result: dict[int, tuple[float, float]] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        result[int(task.name)] = (int(fields[11]) / _TICKS, int(fields[12]) / _TICKS)
    return result


def thread_names(pid: int) -> dict[int, str]:
    """Python thread names by native thread id, from py-spy dump (empty if py-spy fails)."""
    py_spy = str(Path(sys.executable).parent / "py-spy")
    try:
        out = subprocess.run([py_spy, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    names: dict[int, str] = {}
    for line in out.splitlines():
        # Thread 0x7F... (idle): "name" ... or Thread 1234 (active): "name"
        if line.startswith("Thread ") and '"' in line:
            ident = line.split()[1]
            tid = int(ident, 16) if ident.startswith("0x") else int(ident)
            names[tid] = line.split('"')[1]
    return names


def produce(bootstrap: str, topic: str, count: int, size: int, rate: int) -> float:
    """Writes `count` records of `size` bytes with acks=all; returns the seconds until all are acknowledged."""
    from confluent_kafka import Producer

    conf: dict[str, Any] = {"bootstrap.servers": bootstrap, "acks": "all"}
    if rate:
        conf["linger.ms"] = 0
    else:
        conf.update(
            {
                "linger.ms": 5,
                "batch.size": 1 << 20,
                "queue.buffering.max.messages": 1_000_000,
                "queue.buffering.max.kbytes": 1_048_576,
            }
        )
    return produce_all(Producer(conf), topic, count, size, rate)


_TIMES = ("totalTimeMs", "requestQueueTimeMs", "localTimeMs", "remoteTimeMs", "responseQueueTimeMs", "sendTimeMs")


def request_log_hops(path: Path, since: float, until: float) -> dict[str, Any]:
    """The hops of the acks=all round trip, from a leader's request log (see the module notes): medians in ms of
    the Produce requests and of each follower's fetches completed in [since, until] (epoch seconds). A line's
    timestamp (ms) is its request's completion; completion minus totalTimeMs is its arrival."""
    rows: list[tuple[float, str, str, dict[str, Any]]] = []
    for line in path.read_text().splitlines():
        if "Completed request:" not in line:
            continue
        at = datetime.datetime.strptime(line[1:24], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        if not since <= at <= until:
            continue
        desc = json.loads(line.split("Completed request:", 1)[1].rsplit(" (kafka.request.logger)", 1)[0])
        header = desc["requestHeader"]
        rows.append((at * 1000, header["requestApiKeyName"], header["clientId"], desc))

    def medians(entries: list[dict[str, Any]]) -> dict[str, float]:
        if not entries:
            return {}
        return {k: round(statistics.median(e[k] for e in entries), 3) for k in _TIMES}

    produces = [d for _, api, _, d in rows if api == "PRODUCE"]
    result: dict[str, Any] = {"produces": len(produces), "produce": medians(produces)}
    for client in sorted({c for _, api, c, _ in rows if api == "FETCH"}):
        fetches = [(at, d) for at, api, c, d in rows if api == "FETCH" and c == client]
        # A fetch that waited in the purgatory was answered when a record arrived; the next one reports the
        # follower's new position.
        waited = [d for _, d in fetches if d["remoteTimeMs"] > 0.5]
        turnaround: list[float] = []
        after_waited: list[dict[str, Any]] = []
        for (end, d), (next_end, next_d) in itertools.pairwise(fetches):
            if d["remoteTimeMs"] > 0.5:
                turnaround.append(next_end - next_d["totalTimeMs"] - end)
                after_waited.append(next_d)
        result[client] = {
            "fetches": len(fetches),
            "waited": medians(waited),
            "turnaround_ms": round(statistics.median(turnaround), 3) if turnaround else None,
            "next_fetch": medians(after_waited),
        }
    return result


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=10_240)
    ap.add_argument("--mb", type=float, default=200.0, help="MB to write (without --rate)")
    ap.add_argument("--rate", type=int, default=0, help="records/s, one per request (0: as fast as possible)")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long to write at --rate")
    ap.add_argument("--idle", action="store_true", help="write nothing for --seconds: the brokers' idle CPU")
    ap.add_argument("--profile", default="", help="py-spy raw output file for the first follower (or --leader)")
    ap.add_argument("--strace", default="", help="strace -c output file for the first follower (or --leader)")
    ap.add_argument("--leader", action="store_true", help="--profile and --strace watch the leader instead")
    ap.add_argument(
        "--on-cpu", action="store_true", help="--profile samples the threads on a CPU (py-spy without --gil)"
    )
    ap.add_argument("--hops", action="store_true", help="the round trip by hop, from the leader's request log")
    add_set_argument(ap, "all three")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="replication-probe-"))
    (work / "zk").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    cluster = KafkaCluster(work, f"{zk.connect_string}/replication-probe", overrides=dict(args.set))
    saved_log4j = os.environ.get("KAFKA_LOG4J_OPTS")
    if args.hops:
        root = Path(__file__).resolve().parents[2]
        log4j = (root / "config" / "log4j.properties").read_text()
        log4j = log4j.replace("log4j.logger.kafka.request.logger=WARN,", "log4j.logger.kafka.request.logger=DEBUG,")
        (work / "log4j.properties").write_text(log4j)
        os.environ["KAFKA_LOG4J_OPTS"] = f"-Dlog4j.configuration=file:{work / 'log4j.properties'}"
    spy: subprocess.Popen[bytes] | None = None
    try:
        cluster.start()
        if saved_log4j is None:
            os.environ.pop("KAFKA_LOG4J_OPTS", None)
        else:
            os.environ["KAFKA_LOG4J_OPTS"] = saved_log4j
        topic = f"probe-{time.monotonic_ns()}"
        create_topic(cluster.bootstrap, topic, partitions=1)
        leader = partition_leader(cluster.bootstrap, topic)
        followers = [i for i in range(3) if i != leader]
        # A first write, not measured: connections, fetch sessions and the first segment.
        produce(cluster.bootstrap, topic, 100, args.size, 0)
        time.sleep(1)
        count = int(args.seconds * args.rate) if args.rate else int(args.mb * 1e6 / args.size)
        pids = {i: cluster.broker(i).pid for i in range(3)}
        watched = leader if args.leader else followers[0]
        if args.profile:
            py_spy = str(Path(sys.executable).parent / "py-spy")
            spy = subprocess.Popen(
                [
                    py_spy,
                    "record",
                    "--threads",
                    *([] if args.on_cpu else ["--gil"]),
                    "--nonblocking",
                    "-f",
                    "raw",
                    "-r",
                    "1000",
                    "-o",
                    args.profile,
                    "--pid",
                    str(pids[watched]),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(1)
        if args.strace:
            spy = subprocess.Popen(
                ["strace", "-c", "-f", "-o", args.strace, "-p", str(pids[watched])],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(1)
        before = {i: cpu_seconds(p) for i, p in pids.items()}
        threads_before = thread_cpu_seconds(pids[watched])
        if args.idle:
            count, elapsed = 1, args.seconds
            time.sleep(args.seconds)
        else:
            since = time.time()
            elapsed = produce(cluster.bootstrap, topic, count, args.size, args.rate)
            until = time.time()
        time.sleep(0.5)  # the followers' last fetches
        after = {i: cpu_seconds(p) for i, p in pids.items()}
        threads_after = thread_cpu_seconds(pids[watched])
        if spy is not None:
            spy.send_signal(2)
            spy.wait(60)
        mb = count * args.size / 1e6
        print(f"{count} records of {args.size} B ({mb:.1f} MB) in {elapsed:.2f} s: {mb / elapsed:.1f} MB/s")
        for i in [leader, *followers]:
            user, system = after[i][0] - before[i][0], after[i][1] - before[i][1]
            cpu = user + system
            role = "leader" if i == leader else "follower"
            print(
                f"broker {i} {role:8}: {cpu:6.2f} CPU s (user {user:.2f}, sys {system:.2f}), "
                f"{cpu / mb * 1000:7.2f} CPU ms/MB, {cpu / count * 1e6:8.1f} CPU us/record, "
                f"{(after[i][2] - before[i][2]) / mb:.0f} page faults/MB, "
                f"{(after[i][3] - before[i][3]) / count:.2f} context switches/record"
            )
        names = thread_names(pids[watched])
        used = sorted(
            (
                (u + s - sum(threads_before.get(t, (0.0, 0.0))), u - threads_before.get(t, (0.0, 0.0))[0], t)
                for t, (u, s) in threads_after.items()
            ),
            reverse=True,
        )
        print(f"broker {watched}'s busiest threads (CPU s, user; CPU ms/MB):")
        for cpu, user, tid in used[:6]:
            print(f"  {cpu:6.2f} {user:6.2f} {cpu / mb * 1000:6.2f} {tid} {names.get(tid, '?')}")
        if args.hops and not args.idle:
            hops = request_log_hops(cluster.broker(leader).app_log_dir / "kafka-request.log", since + 1, until)
            print(f"round trip by hop at the leader, broker {leader} (medians, ms):")
            print(json.dumps(hops, indent=1))
    finally:
        if spy is not None and spy.poll() is None:
            spy.kill()
        cluster.stop()
        zk.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
