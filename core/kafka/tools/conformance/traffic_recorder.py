"""A recording TCP proxy: clients connect to it, it connects each of them to the broker and writes down every
request and response frame that passes, in the capture format.

    kafka-traffic-record.sh --listen 127.0.0.1:9093 --target 127.0.0.1:9092 --out session.jsonl
        [--manifest session.json --session NAME --client NAME --client-version V --scenario TEXT
         --topic NAME[:PARTITIONS[:key=value,...]] --group ID --broker-config key=value] [--duration SECONDS]

Clients must reach the broker only through the proxy: the broker hands out its advertised listener in
Metadata and FindCoordinator answers, so point `advertised.listeners` at the proxy's address (one broker:
`advertised.listeners=PLAINTEXT://127.0.0.1:9093` with `listeners=PLAINTEXT://127.0.0.1:9092`).

Each client connection gets its own thread and its own upstream connection; the thread moves bytes both
ways as they come (a selector over both sockets, non-blocking writes, nothing held back), and splits each
direction on the size prefix to record the frames. A request is recorded when its last byte has arrived
from the client, a response when its last byte has arrived from the broker; a response is matched to its
request by correlation id on its connection and labelled with the request's api key and version.

Not a port of a Kafka class.
"""

from __future__ import annotations

import argparse
import contextlib
import selectors
import signal
import socket
import sys
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from kafka.common.utils.time import Time
from kafka.tools.conformance.capture import (
    CaptureHeader,
    CaptureWriter,
    ConnectionEvent,
    FrameEvent,
    request_event,
    response_event,
)
from kafka.tools.conformance.frames import (
    FrameError,
    FrameSplitter,
    ResponseMatcher,
    parse_request,
    peek_correlation_id,
)
from kafka.tools.conformance.manifest import Manifest, TopicSetup
from kafka.utils.logging import Logging

_RECV_SIZE = 256 * 1024
_SELECT_TIMEOUT_S = 0.5
_CONNECT_TIMEOUT_S = 10.0
_DRAIN_TIMEOUT_S = 2.0


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` (or `[IPv6]:PORT`) as (host, port)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


class _Relay(threading.Thread, Logging):
    """One client connection and its upstream connection."""

    def __init__(self, recorder: TrafficRecorder, conn: int, client: socket.socket, upstream: socket.socket) -> None:
        threading.Thread.__init__(self, name=f"kafka-traffic-recorder-{conn}", daemon=True)
        Logging.__init__(self)
        self.log_ident = f"[TrafficRecorder conn={conn}] "
        self.recorder = recorder
        self.conn = conn
        self.client = client
        self.upstream = upstream
        self._wake_r, self._wake_w = socket.socketpair()
        self._stopping = threading.Event()
        self._matcher = ResponseMatcher()
        self._splitters = {client: FrameSplitter(), upstream: FrameSplitter()}
        self._out: dict[socket.socket, bytearray] = {client: bytearray(), upstream: bytearray()}
        self._peer = {client: upstream, upstream: client}
        self._closed_by: str | None = None  # "client" or "server" once one side has gone

    def initiate_shutdown(self) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def _side(self, sock: socket.socket) -> str:
        return "client" if sock is self.client else "server"

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        try:
            for s in (self.client, self.upstream):
                s.setblocking(False)
                selector.register(s, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while self._closed_by is None and not self._stopping.is_set():
                for key, events in selector.select(_SELECT_TIMEOUT_S):
                    sock = key.fileobj
                    if sock is self._wake_r or self._closed_by is not None:
                        continue
                    assert isinstance(sock, socket.socket)
                    if events & selectors.EVENT_WRITE:
                        self._flush(selector, sock)
                    if events & selectors.EVENT_READ and self._closed_by is None:
                        self._receive(selector, sock)
            self._drain()
        finally:
            selector.close()
            for s in (self.client, self.upstream, self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    s.close()
            self.recorder.record(
                ConnectionEvent("close", self.conn, self.recorder.now(), by=self._closed_by or "recorder")
            )

    def _receive(self, selector: selectors.BaseSelector, sock: socket.socket) -> None:
        try:
            data = sock.recv(_RECV_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._closed_by = self._side(sock)
            return
        peer = self._peer[sock]
        self._out[peer] += data
        self._flush(selector, peer)
        for frame in self._splitters[sock].feed(data):
            if sock is self.client:
                self._on_request(frame)
            else:
                self._on_response(frame)

    def _flush(self, selector: selectors.BaseSelector, sock: socket.socket) -> None:
        buf = self._out[sock]
        if buf:
            try:
                sent = sock.send(buf)
                del buf[:sent]
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._closed_by = self._side(sock)
                return
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if buf else 0)
        with contextlib.suppress(KeyError, ValueError):
            selector.modify(sock, events)

    def _drain(self) -> None:
        """Hands on what is still buffered before the sockets close (bounded)."""
        for sock, buf in self._out.items():
            if not buf:
                continue
            with contextlib.suppress(OSError):
                sock.settimeout(_DRAIN_TIMEOUT_S)
                sock.sendall(buf)
                buf.clear()

    def _on_request(self, frame: bytes) -> None:
        event = request_event(self.conn, self.recorder.now(), frame)
        if event.api_key is not None:
            try:
                self._matcher.on_request(parse_request(frame), event)
            except FrameError:
                pass
        self.recorder.record(event)

    def _on_response(self, frame: bytes) -> None:
        request: FrameEvent | None = None
        try:
            entry, _ = self._matcher.match(peek_correlation_id(frame))
            if entry is not None:
                assert isinstance(entry.token, FrameEvent)
                request = entry.token
        except FrameError:
            pass
        self.recorder.record(response_event(self.conn, self.recorder.now(), frame, request))


class TrafficRecorder(Logging):
    """Listens on `listen`, relays every connection to `target`, and records the frames to `writer`."""

    def __init__(
        self,
        listen: tuple[str, int],
        target: tuple[str, int],
        writer: CaptureWriter,
        time: Time = Time.SYSTEM,
    ) -> None:
        super().__init__()
        self.log_ident = "[TrafficRecorder] "
        self.listen = listen
        self.target = target
        self.writer = writer
        self.time = time
        self._start_ns = time.nanoseconds()
        self._lock = threading.RLock()  # guards _relays and _next_conn
        self._relays: list[_Relay] = []
        self._next_conn = 0
        self._listener: socket.socket | None = None
        self._acceptor: threading.Thread | None = None
        self._stopping = threading.Event()
        self._wake_r, self._wake_w = socket.socketpair()
        self.requests = 0
        self.responses = 0

    def now(self) -> float:
        return (self.time.nanoseconds() - self._start_ns) / 1e9

    @property
    def port(self) -> int:
        assert self._listener is not None
        return int(self._listener.getsockname()[1])

    def record(self, event: ConnectionEvent | FrameEvent) -> None:
        if isinstance(event, FrameEvent):
            with self._lock:
                if event.is_request:
                    self.requests += 1
                else:
                    self.responses += 1
        self.writer.write(event)

    def startup(self) -> None:
        listener = socket.socket(socket.AF_INET6 if ":" in self.listen[0] else socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(self.listen)
        listener.listen(128)
        listener.setblocking(False)
        self._listener = listener
        self._acceptor = threading.Thread(target=self._accept_loop, name="kafka-traffic-recorder-acceptor", daemon=True)
        self._acceptor.start()
        self.info(f"Recording {self.listen[0]}:{self.port} -> {self.target[0]}:{self.target[1]}")

    def _accept_loop(self) -> None:
        assert self._listener is not None
        selector = selectors.DefaultSelector()
        selector.register(self._listener, selectors.EVENT_READ)
        selector.register(self._wake_r, selectors.EVENT_READ)
        try:
            while not self._stopping.is_set():
                for key, _ in selector.select(_SELECT_TIMEOUT_S):
                    if key.fileobj is self._listener:
                        self._accept()
        finally:
            selector.close()

    def _accept(self) -> None:
        assert self._listener is not None
        try:
            client, address = self._listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        with self._lock:
            conn = self._next_conn
            self._next_conn += 1
        peer = f"{address[0]}:{address[1]}"
        self.record(ConnectionEvent("open", conn, self.now(), peer=peer))
        try:
            upstream = socket.create_connection(self.target, timeout=_CONNECT_TIMEOUT_S)
        except OSError as e:
            self.warn(f"Cannot connect to {self.target[0]}:{self.target[1]} for {peer}: {e}")
            client.close()
            self.record(ConnectionEvent("close", conn, self.now(), by="recorder", extra={"note": str(e)}))
            return
        for s in (client, upstream):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        relay = _Relay(self, conn, client, upstream)
        with self._lock:
            if self._stopping.is_set():
                client.close()
                upstream.close()
                return
            self._relays.append(relay)
        relay.start()

    def shutdown(self, timeout_s: float = 10.0) -> None:
        """Stops accepting, closes every relayed connection and waits for the threads (bounded)."""
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        if self._acceptor is not None:
            self._acceptor.join(timeout_s)
        with self._lock:
            relays = list(self._relays)
        for r in relays:
            r.initiate_shutdown()
        for r in relays:
            r.join(timeout_s)
        for s in (self._listener, self._wake_r, self._wake_w):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.close()
        self.writer.close()

    @property
    def connections(self) -> int:
        with self._lock:
            return self._next_conn


def _parse_topic(text: str) -> TopicSetup:
    """NAME[:PARTITIONS[:key=value,...]]"""
    parts = text.split(":", 2)
    topic = TopicSetup(parts[0])
    if len(parts) > 1 and parts[1]:
        topic.partitions = int(parts[1])
    if len(parts) > 2 and parts[2]:
        for item in parts[2].split(","):
            k, _, v = item.partition("=")
            topic.configs[k] = v
    return topic


def _key_value(text: str) -> tuple[str, str]:
    k, sep, v = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return k, v


def main(argv: Sequence[str] | None = None, stop: threading.Event | None = None, out: IO[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="kafka-traffic-record.sh",
        description="Records the Kafka traffic between clients and a broker: a TCP proxy that writes every request "
        "and response frame to a capture file. Point the broker's advertised.listeners at --listen.",
    )
    parser.add_argument("--listen", required=True, help="HOST:PORT to accept clients on")
    parser.add_argument("--target", required=True, help="HOST:PORT of the broker")
    parser.add_argument("--out", required=True, help="the capture file to write (JSON lines)")
    parser.add_argument("--duration", type=float, help="stop after this many seconds (default: on SIGINT/SIGTERM)")
    parser.add_argument("--manifest", help="also write a session manifest to this file")
    parser.add_argument("--session", help="the session's name (manifest; default: the capture's file name)")
    parser.add_argument("--client", help="the client's name (manifest)")
    parser.add_argument("--client-version", help="the client's version (manifest)")
    parser.add_argument("--scenario", default="", help="what the session does (manifest)")
    parser.add_argument(
        "--topic", action="append", default=[], help="a topic the session needs: NAME[:PARTITIONS[:k=v,...]] (manifest)"
    )
    parser.add_argument("--group", action="append", default=[], help="a consumer group the session uses (manifest)")
    parser.add_argument(
        "--broker-config",
        action="append",
        default=[],
        type=_key_value,
        help="a broker config override the session was recorded with: key=value (manifest)",
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    console = out or sys.stdout
    try:
        listen, target = parse_address(args.listen), parse_address(args.target)
    except ValueError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    out_path = Path(args.out)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    header = CaptureHeader(
        "proxy",
        {"tool": "kafka-traffic-record", "listen": args.listen, "target": args.target, "started": started},
    )
    done = stop or threading.Event()
    with open(out_path, "w", encoding="utf-8") as f:
        recorder = TrafficRecorder(listen, target, CaptureWriter(f, header))
        try:
            recorder.startup()
        except OSError as e:
            print(f"Error: cannot listen on {args.listen}: {e}", file=sys.stderr)
            return 1
        previous = {}
        if stop is None and threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, lambda *_: done.set())
        print(f"Recording {args.listen} -> {args.target} into {out_path} (Ctrl-C to stop)", file=console, flush=True)
        try:
            done.wait(args.duration)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            recorder.shutdown()
    print(
        f"Recorded {recorder.connections} connection(s), {recorder.requests} request(s) and "
        f"{recorder.responses} response(s) into {out_path}",
        file=console,
    )
    if args.manifest:
        manifest = Manifest(
            session=args.session or out_path.stem,
            capture=out_path.name if Path(args.manifest).parent == out_path.parent else str(out_path.resolve()),
            client={k: v for k, v in (("name", args.client), ("version", args.client_version)) if v},
            scenario=args.scenario,
            topics=[_parse_topic(t) for t in args.topic],
            groups=list(args.group),
            broker_configs=dict(args.broker_config),
            extra={"recorded": started},
        )
        manifest.save(args.manifest)
        print(f"Wrote the manifest {args.manifest}", file=console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
