"""A kafka-port broker run as an operator runs it: `bin/kafka-server-start.sh server.properties --override ...`
in its own process, on an ephemeral port, against a real ZooKeeper. The port it bound is read from its
registration in /brokers/ids/N, as any ZooKeeper-aware tool would find it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from kazoo.client import KazooClient

ROOT = Path(__file__).resolve().parents[2]


class BrokerProcess:
    def __init__(
        self,
        work_dir: Path,
        zk_connect: str,
        broker_id: int = 0,
        overrides: dict[str, str] | None = None,
        root: Path = ROOT,
    ):
        """`root` is the checkout whose bin/ scripts start the broker (another commit's, to measure two at once)."""
        self.root = root
        self.work_dir = work_dir
        self.zk_connect = zk_connect  # including the chroot
        self.broker_id = broker_id
        self.log_dir = work_dir / "kafka-logs"
        self.app_log_dir = work_dir / "logs"
        self.overrides = dict(overrides or {})
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._console_offset = 0

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    def start(self, timeout: float = 60.0) -> None:
        props = {
            "broker.id": str(self.broker_id),
            # An ephemeral port the first time; a restart binds the same one again, as an operator's broker does
            # (clients that only know the old addresses could not find a cluster whose every broker moved).
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "log.dirs": str(self.log_dir),
            "zookeeper.connect": self.zk_connect,
            "num.partitions": "1",
            "offsets.topic.replication.factor": "1",
            "group.initial.rebalance.delay.ms": "0",
            "num.network.threads": "2",
            "num.io.threads": "4",
            # config/server.properties serves /metrics on 7071, which the brokers of one host cannot all bind: off
            # unless a test asks for it (a free port in `overrides`).
            "metrics.prometheus.port": "0",
        }
        props.update(self.overrides)
        args = [str(self.root / "bin" / "kafka-server-start.sh"), str(self.root / "config" / "server.properties")]
        for k, v in props.items():
            args += ["--override", f"{k}={v}"]
        env = dict(os.environ, LOG_DIR=str(self.app_log_dir))
        self.app_log_dir.mkdir(parents=True, exist_ok=True)
        console = open(self.work_dir / "console.log", "ab")
        self._console_offset = console.tell()  # this run's lines start here (a restart appends to the file)
        self._process = subprocess.Popen(args, stdout=console, stderr=subprocess.STDOUT, env=env)
        console.close()
        self.port = self._wait_for_registration(timeout)

    def _wait_for_registration(self, timeout: float) -> int:
        client = KazooClient(hosts=self.zk_connect, timeout=10.0)
        client.start(timeout=10.0)
        try:
            deadline = time.monotonic() + timeout
            path = f"/brokers/ids/{self.broker_id}"
            while time.monotonic() < deadline:
                assert self._process is not None
                if self._process.poll() is not None:
                    raise AssertionError(f"broker exited with {self._process.returncode}: {self.console_tail()}")
                # Registered, and start-up finished (the broker logs `started` once it processes requests).
                if client.exists(path) and "] started (kafka.server.KafkaServer)" in self.console_since_start():
                    data, _ = client.get(path)
                    info = json.loads(data)
                    endpoint = info["endpoints"][0]
                    return int(endpoint.rsplit(":", 1)[1])
                time.sleep(0.05)
            raise AssertionError(f"broker did not register within {timeout} s: {self.console_tail()}")
        finally:
            client.stop()
            client.close()

    def console_since_start(self) -> str:
        """What the broker wrote to the console since the last start()."""
        path = self.work_dir / "console.log"
        if not path.exists():
            return ""
        with open(path, "rb") as f:
            f.seek(self._console_offset)
            return f.read().decode(errors="replace")

    def console_tail(self, n: int = 4000) -> str:
        path = self.work_dir / "console.log"
        return path.read_text(errors="replace")[-n:] if path.exists() else ""

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60.0) -> int:
        """Sends `sig` and waits for the process to end; returns its exit code."""
        if self._process is None or self._process.poll() is not None:
            return self._process.returncode if self._process else 0
        self._process.send_signal(sig)
        try:
            return self._process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(10)
            raise AssertionError(f"broker did not stop within {timeout} s after {sig}: {self.console_tail()}") from None

    def kill(self) -> None:
        self.stop(signal.SIGKILL)

    @property
    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def signal(self, sig: int) -> None:
        """Sends `sig` (SIGSTOP, SIGCONT, ...) without waiting for anything."""
        assert self._process is not None
        self._process.send_signal(sig)

    def wait_until_stopped(self, timeout: float = 10) -> None:
        """Waits until every thread of the broker's process is stopped (state T), as it is some time after SIGSTOP
        is sent: kill() returns before a thread that is running or in a system call has stopped."""
        deadline = time.monotonic() + timeout
        while True:
            states = []
            for task in Path(f"/proc/{self.pid}/task").iterdir():
                try:
                    # The state follows the command name in parentheses, which may itself hold spaces.
                    states.append((task / "stat").read_text().rsplit(")", 1)[1].split()[0])
                except (FileNotFoundError, ProcessLookupError):
                    continue  # a thread that has just exited
            if states and all(state in ("T", "t") for state in states):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"broker {self.broker_id} not stopped after {timeout} s: thread states {states}")
            time.sleep(0.01)
