"""Probe of the followers' cost in a three-broker cluster: CPU seconds per replicated MB of each broker, the
leader's and each follower's apart, from /proc/<pid>/stat (contention moves wall-clock figures, not these).

    .venv/bin/python -m tests.bench.replication_probe [--size 10240] [--mb 200] [--rate 0] [--profile out.txt]

A one-partition topic, RF=3, min.insync.replicas=2, is written by librdkafka with acks=all: the partition's leader
serves the Produce requests and the two followers' Fetches; the two followers only fetch and append, so their CPU
per MB is what a follower costs per replicated byte. With `--rate N` the records are sent one per request at N
records/s (linger.ms=0) and the figure of interest is CPU per record: a follower's cost per round trip.
`--profile FILE` records the first follower with py-spy (`--threads --gil -f raw`: the samples holding the GIL)
while the records are written; `--strace FILE` counts its system calls instead (`strace -c -f`); with `--leader`
both watch the partition's leader instead.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.cluster_bench import create_topic, partition_leader, produce_all
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


def thread_cpu_seconds(pid: int) -> dict[int, float]:
    """utime + stime of each thread of a process, by thread id."""
    result: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        result[int(task.name)] = (int(fields[11]) + int(fields[12])) / _TICKS
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
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="replication-probe-"))
    (work / "zk").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    cluster = KafkaCluster(work, f"{zk.connect_string}/replication-probe")
    spy: subprocess.Popen[bytes] | None = None
    try:
        cluster.start()
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
                    "--gil",
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
        threads_before = thread_cpu_seconds(pids[followers[0]])
        if args.idle:
            count, elapsed = 1, args.seconds
            time.sleep(args.seconds)
        else:
            elapsed = produce(cluster.bootstrap, topic, count, args.size, args.rate)
        time.sleep(0.5)  # the followers' last fetches
        after = {i: cpu_seconds(p) for i, p in pids.items()}
        threads_after = thread_cpu_seconds(pids[followers[0]])
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
        names = thread_names(pids[followers[0]])
        used = sorted(((c - threads_before.get(t, 0.0), t) for t, c in threads_after.items()), reverse=True)
        print(f"broker {followers[0]}'s busiest threads (CPU s):")
        for cpu, tid in used[:6]:
            print(f"  {cpu:6.2f} {tid} {names.get(tid, '?')}")
    finally:
        if spy is not None and spy.poll() is None:
            spy.kill()
        cluster.stop()
        zk.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
