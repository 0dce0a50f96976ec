"""A real ZooKeeper server for integration tests, started through bin/zookeeper-server-start.sh.

`ZooKeeperServer` writes a properties file into its own directory (data directory, a free client port, the admin
server off, the four-letter words the tests use), starts the script in the foreground as a child process (the
script execs java, so the child is the server), waits until the server answers `ruok` and a client can connect,
and stops that one process with SIGTERM (never other ZooKeeper servers on the machine). `TcpProxy` stands between a
client and the server to break connections on demand.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from kazoo.client import KazooClient

ROOT = Path(__file__).resolve().parents[2]
START_SCRIPT = ROOT / "bin" / "zookeeper-server-start.sh"
STOP_SCRIPT = ROOT / "bin" / "zookeeper-server-stop.sh"

# A small heap and a quick-starting JIT: the test machine has two cores shared with other work.
TEST_JVM_ENV = {
    "KAFKA_HEAP_OPTS": "-Xmx128M -Xms16M",
    "KAFKA_JVM_PERFORMANCE_OPTS": "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true",
}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def four_letter_word(port: int, word: str, timeout: float = 2.0) -> str:
    """Sends a four-letter command (`ruok`, `srvr`, ...) to the server on `port` and returns its answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(word.encode("ascii"))
        chunks = []
        while chunk := s.recv(4096):
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def write_properties(path: Path, data_dir: Path, port: int, tick_time_ms: int = 500) -> None:
    """A standalone server's configuration. With a 500 ms tick, sessions may last 1 s to 60 s."""
    path.write_text(
        "\n".join(
            [
                f"dataDir={data_dir}",
                f"clientPort={port}",
                "clientPortAddress=127.0.0.1",
                f"tickTime={tick_time_ms}",
                "maxSessionTimeout=60000",
                "maxClientCnxns=0",
                "admin.enableServer=false",
                "4lw.commands.whitelist=ruok,srvr,stat,cons,mntr",
                "",
            ]
        )
    )


class ZooKeeperServer:
    """One standalone ZooKeeper, run by bin/zookeeper-server-start.sh from `work_dir`."""

    def __init__(self, work_dir: Path, tick_time_ms: int = 500) -> None:
        self.work_dir = work_dir
        self.tick_time_ms = tick_time_ms
        self.port = 0
        self.properties = work_dir / "zookeeper.properties"
        self.log_file = work_dir / "zookeeper-console.log"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def connect_string(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        """Starts the server on a free port; tries another port if the chosen one was taken meanwhile."""
        self.work_dir.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            self.port = free_port()
            write_properties(self.properties, self.work_dir / "data", self.port, self.tick_time_ms)
            env = {**os.environ, **TEST_JVM_ENV, "LOG_DIR": str(self.work_dir / "logs")}
            with open(self.log_file, "ab") as log:
                self._process = subprocess.Popen(
                    [str(START_SCRIPT), str(self.properties)],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    env=env,
                    start_new_session=True,
                )
            if self._wait_until_serving(timeout):
                return
            self.stop()
        raise RuntimeError(f"ZooKeeper did not start; see {self.log_file}")

    def _wait_until_serving(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                return False  # exited: e.g. the port was taken
            with contextlib.suppress(OSError):
                if four_letter_word(self.port, "ruok") == "imok" and self._client_can_connect():
                    return True
            time.sleep(0.1)
        return False

    def _client_can_connect(self) -> bool:
        client = KazooClient(hosts=self.connect_string, timeout=10.0)
        try:
            client.start(timeout=10.0)
            return bool(client.connected)
        except Exception:
            return False
        finally:
            client.stop()
            client.close()

    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM to this server (SIGKILL if it does not exit within `timeout`)."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)


class TcpProxy:
    """Forwards connections on 127.0.0.1:`port` to 127.0.0.1:`target_port`; `cut()` breaks every connection and
    turns new ones away until `restore()`, as a network failure would, without ending ZooKeeper sessions."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self._listener.setblocking(False)
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._cut = False
        self._cut_requested = False
        self._stopped = False
        self._peers: dict[socket.socket, socket.socket] = {}
        self._thread = threading.Thread(target=self._run, name="test-tcp-proxy", daemon=True)
        self._thread.start()

    @property
    def connect_string(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            self._cut_requested = True

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self._stopped = True
        self._thread.join(10)
        self._listener.close()

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._listener, selectors.EVENT_READ)
        try:
            while not self._stopped:
                with self._lock:
                    cut_now, self._cut_requested = self._cut_requested, False
                    refusing = self._cut
                if cut_now:
                    for s in list(self._peers):
                        self._drop(selector, s)
                for key, _ in selector.select(0.05):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    if sock is self._listener:
                        self._accept(selector, refusing)
                    elif sock in self._peers:
                        self._forward(selector, sock)
        finally:
            for s in list(self._peers):
                self._drop(selector, s)
            selector.close()

    def _accept(self, selector: selectors.BaseSelector, refusing: bool) -> None:
        try:
            client, _ = self._listener.accept()
        except BlockingIOError:
            return
        if refusing:
            client.close()
            return
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
        except OSError:
            client.close()
            return
        for s in (client, upstream):
            s.setblocking(True)
            selector.register(s, selectors.EVENT_READ)
        self._peers[client] = upstream
        self._peers[upstream] = client

    def _forward(self, selector: selectors.BaseSelector, sock: socket.socket) -> None:
        try:
            data = sock.recv(65536)
            if data:
                self._peers[sock].sendall(data)
                return
        except OSError:
            pass
        self._drop(selector, sock)

    def _drop(self, selector: selectors.BaseSelector, sock: socket.socket) -> None:
        peer = self._peers.pop(sock, None)
        for s in (sock, peer):
            if s is None:
                continue
            self._peers.pop(s, None)
            with contextlib.suppress(KeyError, ValueError):
                selector.unregister(s)
            s.close()
