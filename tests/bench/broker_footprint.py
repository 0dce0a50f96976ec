"""The footprint of an idle broker (issue 17: idle RSS under 100 MB, start to ready under 1 s).

    .venv/bin/python -m tests.bench.broker_footprint [--rounds 3] [--zookeeper HOST:PORT] [--out FILE.json]
        [--baseline-tree DIR]

Starts ZooKeeper (bin/zookeeper-server-start.sh, as the integration tests do; or uses the one --zookeeper names, on a
chroot of its own), then, each round, a broker from `bin/kafka-server-start.sh config/server.properties` with its
listener and /metrics endpoint on free ports and its data in a temporary directory. Measured from the moment the
process is spawned:
- ready_s: until the listener accepts a connection and answers an ApiVersions request;
- started_s: until the broker writes its `[KafkaServer id=0] started` line;
- ready_cpu_s: the CPU time (user + system) the process had used when it was ready, which other processes on a busy
  machine change far less than they change the wall-clock figures;
then one topic (1 partition) is created through the broker, and once the process is idle (its CPU time stops
growing) it prints VmRSS and the thread count from /proc/<pid>/status, and Pss and USS (Private_Clean +
Private_Dirty) from /proc/<pid>/smaps_rollup. Rounds are medians; each round is its own process.
With --baseline-tree, the broker of another checkout (e.g. `git archive <commit> | tar -x -C DIR`, run by this
checkout's .venv) is measured too, alternately with ours, and the table gives both and ours / baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from tests.integration.broker import ROOT
from tests.integration.zookeeper import ZooKeeperServer, free_port


def api_versions_answered(port: int, timeout: float = 1.0) -> bool:
    """True if 127.0.0.1:port accepts a connection and answers ApiVersions v0 with error code NONE."""
    client_id = b"footprint"
    body = struct.pack(">hhih", 18, 0, 1, len(client_id)) + client_id
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(struct.pack(">i", len(body)) + body)
            head = _read_exactly(sock, 4)
            (size,) = struct.unpack(">i", head)
            response = _read_exactly(sock, size)
    except OSError:
        return False
    correlation_id, error_code = struct.unpack(">ih", response[:6])
    return correlation_id == 1 and error_code == 0


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise OSError("connection closed")
        out += chunk
    return bytes(out)


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS (kB) and Threads from /proc/<pid>/status."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmSize", "Threads"):
            out[key] = int(value.split()[0])
    return out


def smaps_rollup(pid: int) -> dict[str, int]:
    """Rss, Pss and USS (Private_Clean + Private_Dirty), in kB, from /proc/<pid>/smaps_rollup."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, value = line.partition(":")
        parts = value.split()
        if parts and parts[0].isdigit():
            fields[key] = int(parts[0])
    return {
        "Rss": fields.get("Rss", -1),
        "Pss": fields.get("Pss", -1),
        "USS": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0),
    }


def cpu_ticks(pid: int) -> int:
    """utime + stime of the process, in clock ticks (/proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wait_idle(pid: int, window: float = 1.0, max_ticks: int = 2, timeout: float = 30.0) -> float:
    """Waits until the process used at most `max_ticks` of CPU over `window` seconds; returns the seconds waited."""
    start = time.monotonic()
    last = cpu_ticks(pid)
    while time.monotonic() - start < timeout:
        time.sleep(window)
        now = cpu_ticks(pid)
        if now - last <= max_ticks:
            break
        last = now
    return time.monotonic() - start


def create_topic(port: int, topic: str) -> None:
    """One topic of one partition through the broker (librdkafka's admin client), waiting for its leader."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": f"127.0.0.1:{port}"})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        meta = admin.list_topics(topic, timeout=10).topics.get(topic)
        if meta is not None and meta.error is None and all(p.leader >= 0 for p in meta.partitions.values()):
            return
        time.sleep(0.05)
    raise RuntimeError(f"topic {topic} has no leader after 30 s")


def one_round(work: Path, zk_connect: str, root: Path = ROOT) -> dict[str, Any]:
    port, metrics_port = free_port(), free_port()
    overrides = {
        "broker.id": "0",
        "listeners": f"PLAINTEXT://127.0.0.1:{port}",
        "log.dirs": str(work / "kafka-logs"),
        "zookeeper.connect": zk_connect,
        "metrics.prometheus.port": str(metrics_port),
    }
    args = [str(root / "bin" / "kafka-server-start.sh"), str(root / "config" / "server.properties")]
    for k, v in overrides.items():
        args += ["--override", f"{k}={v}"]
    console_path = work / "console.log"
    env = dict(os.environ, LOG_DIR=str(work / "logs"), KAFKA_PYTHON=os.environ.get("KAFKA_PYTHON", sys.executable))
    with open(console_path, "wb") as console:
        t0 = time.monotonic()
        process = subprocess.Popen(args, stdout=console, stderr=subprocess.STDOUT, env=env)
    result: dict[str, Any] = {}
    try:
        ready = started = None
        deadline = t0 + 60
        while (ready is None or started is None) and time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"broker exited with {process.returncode}: {console_path.read_text()[-3000:]}")
            if ready is None and api_versions_answered(port):
                ready = time.monotonic() - t0
                result["ready_cpu_s"] = round(cpu_ticks(process.pid) / os.sysconf("SC_CLK_TCK"), 2)
            if started is None and "] started (kafka.server.KafkaServer)" in console_path.read_text(errors="replace"):
                started = time.monotonic() - t0
            time.sleep(0.005)
        if ready is None or started is None:
            raise RuntimeError(f"broker not ready after 60 s: {console_path.read_text()[-3000:]}")
        result["ready_s"] = round(ready, 3)
        result["started_s"] = round(started, 3)
        create_topic(port, "footprint")
        result["idle_wait_s"] = round(wait_idle(process.pid), 1)
        status = proc_status(process.pid)
        smaps = smaps_rollup(process.pid)
        result["rss_mb"] = round(status["VmRSS"] / 1024, 1)
        result["pss_mb"] = round(smaps["Pss"] / 1024, 1)
        result["uss_mb"] = round(smaps["USS"] / 1024, 1)
        result["vsz_mb"] = round(status["VmSize"] / 1024, 1)
        result["threads"] = status["Threads"]
    finally:
        process.terminate()
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
    return result


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--zookeeper", help="HOST:PORT of a running ZooKeeper (else one is started)")
    ap.add_argument("--out", help="write the rounds and medians to this JSON file")
    ap.add_argument("--baseline-tree", type=Path, metavar="DIR", help="also measure the broker of checkout DIR")
    args = ap.parse_args(argv)
    trees = {"ours": ROOT}
    if args.baseline_tree:
        trees["baseline"] = args.baseline_tree.resolve()
    # Start-up time counts bytecode loading, not compiling: compile the trees first, as `make run` does.
    for tree in trees.values():
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "core"), str(tree / "clients")],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    work = Path(tempfile.mkdtemp(prefix="broker-footprint-"))
    zk: ZooKeeperServer | None = None
    if args.zookeeper:
        zk_base = args.zookeeper
    else:
        zk = ZooKeeperServer(work / "zk")
        zk.start()
        zk_base = zk.connect_string
    rounds: dict[str, list[dict[str, Any]]] = {who: [] for who in trees}
    try:
        for i in range(args.rounds):
            for who, tree in trees.items():
                round_dir = work / f"{who}-{i}"
                round_dir.mkdir()
                r = one_round(round_dir, f"{zk_base}/footprint-{uuid.uuid4().hex[:8]}", tree)
                rounds[who].append(r)
                print(f"{who} round {i}: {r}", flush=True)
    finally:
        if zk is not None:
            zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when a round failed, for its console.log
    keys = ("ready_s", "started_s", "ready_cpu_s", "rss_mb", "pss_mb", "uss_mb", "vsz_mb", "threads")
    medians = {who: {k: statistics.median(r[k] for r in rs) for k in keys} for who, rs in rounds.items()}
    if "baseline" in trees:
        print(f"\n| measure (median of {args.rounds}) | ours | baseline | ours / baseline |\n|---|---|---|---|")
        for k in keys:
            ours, base = medians["ours"][k], medians["baseline"][k]
            print(f"| {k} | {ours} | {base} | {ours / base:.2f} |")
    else:
        print(f"\n| measure (median of {args.rounds}) | value |\n|---|---|")
        for k in keys:
            print(f"| {k} | {medians['ours'][k]} |")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({"rounds": rounds, "median": medians}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
