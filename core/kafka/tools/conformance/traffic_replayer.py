"""Replays a recorded session against a broker and compares what it answers with what was recorded.

    kafka-traffic-replay.sh FILE --bootstrap-server HOST:PORT [--manifest FILE] [--no-setup] [--no-cleanup]
        [--json REPORT] [--verbose]

FILE is a session manifest, a capture (its manifest is read from `<name>.json` beside it, if there is one)
or a pcap/pcapng file. The replay:

1. sets up what the manifest names (session_setup): topics with their partitions and configs, no stale
   groups, a ready group coordinator; broker config overrides it can only check and warn about;
2. opens one connection per recorded connection and sends each request on its own connection's thread,
   all in the recorded order; a request first waits for every response that had arrived before it was
   recorded (on any connection: a JoinGroup that was answered only after another member joined is still
   outstanding when that member's JoinGroup goes out), and while requests on other connections are still
   unanswered, until each has been with the broker for the recorded gap between the two, at most
   `replay.max_gap_ms`, so that the broker handles them in the recorded order;
3. rewrites each request from the replayed responses before it goes out (rewriter: member ids, producer
   ids and epochs, fetch session ids, topic ids, leader epochs, offsets);
4. reads each connection's responses on a thread of its own, checks them against the invariants
   (correlation ids, order, header version, nothing outside the version, every request answered);
5. decodes the recorded and the replayed responses, normalises both (normaliser) and compares them
   (comparer), following the manifest's rules for what to skip or ignore.

The exit status is 0 when nothing differs and no invariant is broken, 1 otherwise, 2 when the replay could
not run.

Not a port of a Kafka class.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import select
import socket
import struct
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from kafka.common.utils.time import Time
from kafka.tools.conformance.capture import Capture, CaptureFormatError, Exchange, FrameEvent, read_capture
from kafka.tools.conformance.comparer import Difference, compare
from kafka.tools.conformance.decoder import DecodedResponse, DecodeError, decode_response
from kafka.tools.conformance.frames import SIZE_PREFIX, FrameError, parse_request
from kafka.tools.conformance.invariants import ConnectionChecker, Violation
from kafka.tools.conformance.manifest import Manifest, ManifestError, ReplayOptions, is_manifest, load_manifest
from kafka.tools.conformance.message_tree import plain
from kafka.tools.conformance.normaliser import Normaliser
from kafka.tools.conformance.rewriter import RequestRewriter
from kafka.tools.conformance.session_setup import SessionSetup, SetupError
from kafka.utils.logging import Logging

_READ_POLL_S = 0.25
_CONNECT_TIMEOUT_S = 10.0
_SEND_TIMEOUT_S = 30.0


@dataclass(slots=True)
class ReplayedExchange:
    """One recorded exchange and what became of it in the replay."""

    recorded: Exchange
    seq: int = -1  # position in the send plan; -1 when not sent
    skip_replay: str | None = None  # why it was not sent
    skip_compare: str | None = None  # why its responses were not compared
    ignored_paths: list[Any] = field(default_factory=list)  # manifest rules
    sent: bytes | None = None
    changes: list[str] = field(default_factory=list)
    sent_t: float | None = None
    response: bytes | None = None
    decoded: DecodedResponse | None = None
    received_t: float | None = None
    recorded_decoded: DecodedResponse | None = None
    differences: list[Difference] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def request(self) -> FrameEvent:
        """The recorded request: every exchange of the send plan has one."""
        request = self.recorded.request
        if request is None:
            raise ValueError(f"exchange {self.recorded.index} has no recorded request to send")
        return request

    @property
    def expects_response(self) -> bool:
        return self.recorded.expect_response

    def describe(self) -> str:
        return self.recorded.describe()


@dataclass(slots=True)
class ReplayReport:
    session: str
    exchanges: list[ReplayedExchange]
    violations: list[Violation]  # those not tied to one exchange (unanswered requests, stray responses)
    warnings: list[str]
    duration_s: float
    connections: int

    @property
    def differences(self) -> list[tuple[ReplayedExchange, Difference]]:
        return [(e, d) for e in self.exchanges for d in e.differences]

    @property
    def all_violations(self) -> list[Violation]:
        return [v for e in self.exchanges for v in e.violations] + self.violations

    @property
    def ok(self) -> bool:
        return not self.differences and not self.all_violations

    @property
    def compared(self) -> int:
        return sum(
            1 for e in self.exchanges if e.response is not None and e.skip_compare is None and e.skip_replay is None
        )

    def lines(self, verbose: bool = False) -> list[str]:
        sent = sum(1 for e in self.exchanges if e.seq >= 0)
        out = [
            f"Session {self.session}: {sent} of {len(self.exchanges)} recorded exchanges replayed on "
            f"{self.connections} connection(s) in {self.duration_s:.1f} s, {self.compared} compared"
        ]
        out += [f"  warning: {w}" for w in self.warnings]
        for e in self.exchanges:
            reason = e.skip_replay or e.skip_compare
            if reason and (verbose or e.skip_replay):
                what = "not replayed" if e.skip_replay else "not compared"
                out.append(f"  {e.describe()}: {what}: {reason}")
            if verbose:
                out += [f"  {e.describe()}: rewrote {c}" for c in e.changes]
                out += [f"  {e.describe()}: {n}" for n in e.notes]
            out += [f"  {e.describe()}: {d}" for d in e.differences]
            out += [f"  {e.describe()}: {v.rule}: {v.detail}" for v in e.violations]
        out += [f"  {v}" for v in self.violations]
        out.append(f"Result: {len(self.differences)} difference(s), {len(self.all_violations)} invariant violation(s)")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "ok": self.ok,
            "duration_s": round(self.duration_s, 3),
            "warnings": self.warnings,
            "exchanges": [
                {
                    "exchange": e.describe(),
                    "skip_replay": e.skip_replay,
                    "skip_compare": e.skip_compare,
                    "rewrote": e.changes,
                    "notes": e.notes,
                    "differences": [str(d) for d in e.differences],
                    "violations": [str(v) for v in e.violations],
                }
                for e in self.exchanges
            ],
            "violations": [str(v) for v in self.violations],
        }


class _Connection:
    """One replay connection: a socket, the thread that sends its requests in turn, and the thread that
    reads its responses."""

    def __init__(self, replayer: SessionReplayer, conn: int, items: list[ReplayedExchange]) -> None:
        self.replayer = replayer
        self.conn = conn
        self.items = items
        self.checker = ConnectionChecker(conn)
        self.sock: socket.socket | None = None
        self.answered = 0  # responses read (to requests that expect one), in order
        self.stray: list[Violation] = []
        self.sender = threading.Thread(target=self._send_all, name=f"kafka-traffic-replay-sender-{conn}", daemon=True)
        self.reader = threading.Thread(target=self._read_all, name=f"kafka-traffic-replay-reader-{conn}", daemon=True)
        self._connected = threading.Event()
        self.error: str | None = None

    def _send_all(self) -> None:
        r = self.replayer
        try:
            for item in self.items:
                if not r.wait_turn(item):
                    return
                try:
                    if self.sock is None:
                        self.sock = socket.create_connection((r.host, r.port), timeout=_CONNECT_TIMEOUT_S)
                        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                        self.sock.settimeout(_SEND_TIMEOUT_S)
                        self._connected.set()
                        self.reader.start()
                    frame, changes = r.rewriter.rewrite(item.request.data)
                    item.changes = changes
                    item.sent = frame
                    try:
                        self.checker.request_sent(parse_request(frame), item)
                    except FrameError as e:
                        item.notes.append(f"the request header is unreadable ({e}): sent as recorded")
                    item.sent_t = r.now()
                    self.sock.sendall(SIZE_PREFIX.pack(len(frame)) + frame)
                except OSError as e:
                    self.error = f"conn {self.conn}: {e}"
                    item.notes.append(f"could not be sent: {e}")
                    r.abort(self.error)
                    return
                finally:
                    r.turn_done(item)
        finally:
            r.sender_done()

    def _read_all(self) -> None:
        r = self.replayer
        sock = self.sock
        assert sock is not None
        buf = bytearray()
        while not r.stopping.is_set():
            try:
                readable, _, _ = select.select([sock], [], [], _READ_POLL_S)
                if not readable:
                    continue
                chunk = sock.recv(256 * 1024)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            buf += chunk
            while len(buf) >= 4:
                (size,) = struct.unpack_from(">i", buf, 0)
                if size < 0 or len(buf) < 4 + size:
                    break
                frame = bytes(buf[4 : 4 + size])
                del buf[: 4 + size]
                self._on_response(frame)

    def _on_response(self, frame: bytes) -> None:
        r = self.replayer
        entry, decoded, violations = self.checker.response_received(frame)
        if entry is None:
            with r.lock:
                self.stray.extend(violations)
            return
        item = entry.token
        assert isinstance(item, ReplayedExchange)
        item.response = frame
        item.decoded = decoded
        item.received_t = r.now()
        item.violations.extend(violations)
        if decoded is not None and item.recorded_decoded is not None:
            r.rewriter.learn(item.recorded_decoded, decoded)
        with r.lock:
            self.answered += 1
            r.cond.notify_all()

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                self.sock.close()


class SessionReplayer(Logging):
    """Replays one capture against the broker at host:port (see the module docstring)."""

    def __init__(
        self,
        capture: Capture,
        host: str,
        port: int,
        manifest: Manifest | None = None,
        time: Time = Time.SYSTEM,
        options: ReplayOptions | None = None,
    ) -> None:
        super().__init__()
        self.capture = capture
        self.host = host
        self.port = port
        self.manifest = manifest
        self.time = time
        self.options = options or (manifest.replay if manifest else ReplayOptions())
        self.session = manifest.session if manifest else (capture.path.stem if capture.path else "capture")
        self.log_ident = f"[TrafficReplayer session={self.session}] "
        self.rewriter = RequestRewriter()
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self.stopping = threading.Event()
        self._start_ns = time.nanoseconds()
        self._turn = 0
        self._aborted: str | None = None
        self._senders_left = 0
        self.items: list[ReplayedExchange] = []
        self.plan: list[ReplayedExchange] = []
        self._needs: list[dict[int, int]] = []  # per plan position: conn -> responses that must have arrived
        self._given_up: dict[int, int] = {}  # conn -> how many responses are no longer waited for
        self._connections: dict[int, _Connection] = {}

    def now(self) -> float:
        return (self.time.nanoseconds() - self._start_ns) / 1e9

    # ---- planning -----------------------------------------------------------------------------------

    def _prepare_items(self) -> None:
        for ex in self.capture.exchanges():
            item = ReplayedExchange(ex)
            rules = self.manifest.rules_for(ex) if self.manifest else []
            for rule in rules:
                if rule.action == "skip-replay" and item.skip_replay is None:
                    item.skip_replay = rule.reason
                elif rule.action == "skip-compare" and item.skip_compare is None:
                    item.skip_compare = rule.reason
                elif rule.action == "ignore":
                    item.ignored_paths.append(rule)
            if ex.request is None:
                item.skip_replay = item.skip_replay or "its request is not in the capture (sent before it began)"
            elif ex.request.api_key is None:
                item.skip_replay = item.skip_replay or f"the request cannot be read: {ex.request.note}"
            if item.skip_replay is None and ex.expect_response and ex.response is None:
                item.skip_compare = item.skip_compare or "no response was recorded (the capture or connection ended)"
            if ex.response is not None and ex.api_key is not None and ex.api_version is not None:
                try:
                    item.recorded_decoded = decode_response(ex.response.data, ex.api_key, ex.api_version)
                except DecodeError as e:
                    item.skip_compare = item.skip_compare or f"the recorded response cannot be read: {e}"
            self.items.append(item)
        self.plan = [i for i in self.items if i.skip_replay is None]
        for seq, item in enumerate(self.plan):
            item.seq = seq
        # For each planned request, the responses (counted per connection, in order) recorded before it.
        answered_times: dict[int, list[float]] = {}
        for item in self.plan:
            if item.expects_response:
                t = item.recorded.response.t if item.recorded.response is not None else float("inf")
                answered_times.setdefault(item.recorded.conn, []).append(t)
        for item in self.plan:
            t = item.request.t
            needs: dict[int, int] = {}
            for conn, times in answered_times.items():
                n = 0
                for i, rt in enumerate(times):
                    if rt <= t:
                        n = i + 1
                if n:
                    needs[conn] = n
            self._needs.append(needs)

    # ---- turn taking (called from sender threads) ---------------------------------------------------

    def wait_turn(self, item: ReplayedExchange) -> bool:
        """Blocks until it is `item`'s turn and the responses it depends on have arrived (bounded); False when
        the replay is being stopped."""
        deadline = self.time.milliseconds() + self.options.dependency_timeout_ms
        needs = self._needs[item.seq]
        with self.cond:
            while self._turn != item.seq and not self.stopping.is_set():
                self.cond.wait(_READ_POLL_S)
            if self.stopping.is_set():
                return False

            def ready() -> bool:
                return all(self._answered(c) + self._given_up.get(c, 0) >= n for c, n in needs.items())

            while not ready() and not self.stopping.is_set():
                remaining = deadline - self.time.milliseconds()
                if remaining <= 0:
                    item.notes.append(
                        f"sent without some of the responses it was recorded after (waited "
                        f"{self.options.dependency_timeout_ms} ms)"
                    )
                    # Those responses are not coming: later requests do not wait for them again.
                    for c, n in needs.items():
                        self._given_up[c] = max(self._given_up.get(c, 0), n - self._answered(c))
                    break
                self.cond.wait(min(remaining / 1000, _READ_POLL_S))
            if self.stopping.is_set():
                return False
            gap = self._gap_ms(item)
        if gap > 0:
            self.time.sleep(gap)
        return True

    def _answered(self, conn: int) -> int:
        c = self._connections.get(conn)
        return c.answered if c is not None else 0

    def _gap_ms(self, item: ReplayedExchange) -> int:
        """How long to pause before `item` so that every request still unanswered on another connection has been
        with the broker for the recorded gap between the two, at most `max_gap_ms`: a broker takes requests of
        different connections in parallel, and one sent just before another may otherwise be handled after it
        (a Heartbeat must find the rebalance that another member's JoinGroup started)."""
        max_gap = self.options.max_gap_ms / 1000
        if max_gap <= 0 or item.recorded.request is None:
            return 0
        now = self.now()
        wait = 0.0
        for earlier in reversed(self.plan[: item.seq]):
            if earlier.sent_t is None:
                continue
            if now - earlier.sent_t >= max_gap:
                break  # sent long enough ago, as is everything before it
            if earlier.recorded.conn == item.recorded.conn or not earlier.expects_response or earlier.response:
                continue
            recorded_gap = item.request.t - earlier.request.t
            wait = max(wait, min(recorded_gap, max_gap) - (now - earlier.sent_t))
        return int(wait * 1000)

    def turn_done(self, item: ReplayedExchange) -> None:
        with self.cond:
            self._turn = item.seq + 1
            self.cond.notify_all()

    def abort(self, reason: str) -> None:
        with self.cond:
            if self._aborted is None:
                self._aborted = reason
            self.stopping.set()
            self.cond.notify_all()

    def sender_done(self) -> None:
        with self.cond:
            self._senders_left -= 1
            self.cond.notify_all()

    # ---- the run ------------------------------------------------------------------------------------

    def run(self) -> ReplayReport:
        started = self.now()
        self._prepare_items()
        by_conn: dict[int, list[ReplayedExchange]] = {}
        for item in self.plan:
            by_conn.setdefault(item.recorded.conn, []).append(item)
        for conn, items in by_conn.items():
            self._connections[conn] = _Connection(self, conn, items)
        self._senders_left = len(self._connections)
        for c in self._connections.values():
            c.sender.start()
        self._wait_for_senders()
        self._wait_for_responses()
        self.stopping.set()
        for c in self._connections.values():
            c.close()
        for c in self._connections.values():
            c.sender.join(10)
            if c.reader.ident is not None:
                c.reader.join(10)
        return self._report(self.now() - started)

    def _wait_for_senders(self) -> None:
        with self.cond:
            while self._senders_left > 0:
                self.cond.wait(_READ_POLL_S)

    def _wait_for_responses(self) -> None:
        deadline = self.time.milliseconds() + self.options.response_timeout_ms
        expected = {
            c: sum(1 for i in conn.items if i.expects_response and i.sent is not None)
            for c, conn in self._connections.items()
        }
        with self.cond:
            while any(self._answered(c) < n for c, n in expected.items()) and self._aborted is None:
                remaining = deadline - self.time.milliseconds()
                if remaining <= 0:
                    break
                self.cond.wait(min(remaining / 1000, _READ_POLL_S))

    def _report(self, duration: float) -> ReplayReport:
        violations: list[Violation] = []
        warnings: list[str] = []
        if self._aborted:
            warnings.append(f"the replay stopped early: {self._aborted}")
        for c in self._connections.values():
            violations.extend(c.stray)
            violations.extend(c.checker.finish())
        recorded_norm, replayed_norm = Normaliser(), Normaliser()
        for item in self.items:
            if item.skip_replay:
                continue  # not part of what was replayed: must not number symbols or set bases
            rec = item.recorded_decoded
            rep = item.decoded
            a = recorded_norm.response(rec.api_key, rec.api_version, rec.body) if rec is not None else None
            b = replayed_norm.response(rep.api_key, rep.api_version, rep.body) if rep is not None else None
            if item.skip_compare or a is None:
                continue
            if item.response is None:
                continue  # reported as unanswered
            if b is None:
                item.notes.append("the replayed response cannot be read: not compared")
                continue
            item.differences = compare(a, b, ignored=_ignoring(item.ignored_paths))
        return ReplayReport(self.session, self.items, violations, warnings, duration, len(self._connections))


def _ignoring(rules: list[Any]) -> Callable[[str], bool]:
    return lambda path: any(r.ignores(path) for r in rules)


def replay_session(
    manifest: Manifest | None,
    capture: Capture,
    host: str,
    port: int,
    setup: bool = True,
    cleanup: bool = True,
    time: Time = Time.SYSTEM,
) -> ReplayReport:
    """Sets up, replays and tidies up one session."""
    warnings: list[str] = []
    session_setup = SessionSetup(host, port, time)
    if manifest is not None and setup:
        warnings += session_setup.prepare(manifest)
    try:
        report = SessionReplayer(capture, host, port, manifest, time).run()
    finally:
        if manifest is not None and cleanup:
            try:
                session_setup.cleanup(manifest)
            except (OSError, SetupError) as e:
                warnings.append(f"cleaning up failed: {e}")
    report.warnings = warnings + report.warnings
    return report


def load_session(path: str | Path, manifest_path: str | Path | None = None) -> tuple[Manifest | None, Capture]:
    """The manifest and capture behind FILE (a manifest, a capture with or without a manifest beside it, or a
    pcap file)."""
    path = Path(path)
    manifest: Manifest | None = None
    if manifest_path is not None:
        manifest = load_manifest(manifest_path)
    elif is_manifest(path):
        manifest = load_manifest(path)
    elif path.with_suffix(".json").exists() and is_manifest(path.with_suffix(".json")):
        manifest = load_manifest(path.with_suffix(".json"))
    if manifest is not None and (manifest_path is not None or not is_manifest(path)):
        capture = read_capture(path)
    elif manifest is not None:
        capture = read_capture(manifest.capture_path())
    else:
        capture = read_capture(path)
    return manifest, capture


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    from kafka.tools.conformance.traffic_recorder import parse_address

    parser = argparse.ArgumentParser(
        prog="kafka-traffic-replay.sh",
        description="Replays a recorded session against a broker, checks the broker's invariants and compares its "
        "responses with the recorded ones after normalisation.",
    )
    parser.add_argument("file", help="a session manifest (.json), a capture (.jsonl) or a pcap/pcapng file")
    parser.add_argument("--bootstrap-server", required=True, help="HOST:PORT of the broker")
    parser.add_argument("--manifest", help="the session manifest, when FILE is a capture without one beside it")
    parser.add_argument("--no-setup", action="store_true", help="do not create the manifest's topics first")
    parser.add_argument("--no-cleanup", action="store_true", help="leave the session's topics and groups behind")
    parser.add_argument("--json", help="also write the report as JSON to this file")
    parser.add_argument("--verbose", action="store_true", help="also list skipped exchanges, rewrites and notes")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    console = out or sys.stdout
    try:
        host, port = parse_address(args.bootstrap_server)
        manifest, capture = load_session(args.file, args.manifest)
    except (OSError, ValueError, CaptureFormatError, ManifestError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 2
    try:
        report = replay_session(manifest, capture, host, port, setup=not args.no_setup, cleanup=not args.no_cleanup)
    except (OSError, SetupError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 2
    for line in report.lines(args.verbose):
        print(line, file=console)
    if args.json:
        Path(args.json).write_text(json.dumps(plain(report.to_json()), indent=2) + "\n", encoding="utf-8")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
