"""The capture format: recorded Kafka traffic as JSON lines.

The first line describes the capture; every following line is one event, in the order they happened:

    {"type": "capture", "format": "kafka-port-capture", "version": 1, "source": "proxy", ...}
    {"type": "open", "conn": 0, "t": 0.000412, "peer": "127.0.0.1:50522"}
    {"type": "request", "conn": 0, "t": 0.001020, "api_key": 18, "api_version": 3, "correlation_id": 1,
     "client_id": "rdkafka", "header_version": 2, "expect_response": true, "hex": "0012000300000001..."}
    {"type": "response", "conn": 0, "t": 0.002310, "api_key": 18, "api_version": 3, "correlation_id": 1,
     "header_version": 0, "hex": "00000001..."}
    {"type": "close", "conn": 0, "t": 1.5, "by": "client"}

`conn` numbers the client's TCP connections from 0; `t` is seconds since the capture began; `hex` is the
frame after its 4-byte size prefix (header and body). A response carries the api key and version of the
request it answers (null when that request is not in the capture). Keys a reader does not know are kept
in `extra`, so tools can add their own (the pcap reader adds `tcp_stream` and `pcap_frame`).
docs/conformance.md has the full description.

Not a port of a Kafka class.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from kafka.tools.conformance.frames import (
    FrameError,
    RequestInfo,
    ResponseMatcher,
    api_name,
    parse_request,
    peek_correlation_id,
    response_header_version,
)

FORMAT_NAME = "kafka-port-capture"
FORMAT_VERSION = 1

PCAP_SUFFIXES = (".pcap", ".pcapng", ".cap")


class CaptureFormatError(Exception):
    """A capture file that does not follow the format."""


@dataclass(slots=True)
class CaptureHeader:
    source: str  # "proxy" or "pcap"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "capture",
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "source": self.source,
            **self.extra,
        }


@dataclass(slots=True)
class ConnectionEvent:
    kind: str  # "open" or "close"
    conn: int
    t: float
    peer: str | None = None  # the client's address (open)
    by: str | None = None  # who closed it: "client", "server" or "recorder" (close)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "conn": self.conn, "t": round(self.t, 6)}
        if self.peer is not None:
            out["peer"] = self.peer
        if self.by is not None:
            out["by"] = self.by
        out.update(self.extra)
        return out


@dataclass(slots=True)
class FrameEvent:
    """One request or response frame (without its size prefix)."""

    direction: str  # "request" or "response"
    conn: int
    t: float
    data: bytes
    api_key: int | None = None
    api_version: int | None = None
    correlation_id: int | None = None
    header_version: int | None = None
    client_id: str | None = None
    expect_response: bool | None = None  # requests: False for Produce with acks=0
    note: str | None = None  # why a frame could not be read, or anything else worth knowing
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_request(self) -> bool:
        return self.direction == "request"

    @property
    def api_name(self) -> str:
        return api_name(self.api_key)

    def describe(self) -> str:
        """`Metadata v12 request (correlation id 5, conn 0)`."""
        version = f" v{self.api_version}" if self.api_version is not None else ""
        return f"{self.api_name}{version} {self.direction} (correlation id {self.correlation_id}, conn {self.conn})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": self.direction,
            "conn": self.conn,
            "t": round(self.t, 6),
            "api_key": self.api_key,
            "api_version": self.api_version,
            "correlation_id": self.correlation_id,
        }
        if self.direction == "request":
            out["client_id"] = self.client_id
        out["header_version"] = self.header_version
        if self.direction == "request":
            out["expect_response"] = self.expect_response
        if self.note is not None:
            out["note"] = self.note
        out.update(self.extra)
        out["hex"] = self.data.hex()
        return out


Event = ConnectionEvent | FrameEvent


def request_event(conn: int, t: float, data: bytes) -> FrameEvent:
    """A request frame with what its header says (or a note saying why it could not be read)."""
    try:
        info = parse_request(data)
    except FrameError as e:
        cid = peek_correlation_id(data[4:]) if len(data) >= 8 else None
        return FrameEvent("request", conn, t, data, correlation_id=cid, expect_response=True, note=str(e))
    return FrameEvent(
        "request",
        conn,
        t,
        data,
        api_key=info.api_key,
        api_version=info.api_version,
        correlation_id=info.correlation_id,
        header_version=info.header_version,
        client_id=info.client_id,
        expect_response=info.expect_response,
    )


def response_event(conn: int, t: float, data: bytes, request: FrameEvent | None) -> FrameEvent:
    """A response frame, labelled with the api key and version of the request it answers (if known)."""
    try:
        cid: int | None = peek_correlation_id(data)
    except FrameError:
        cid = None
    event = FrameEvent("response", conn, t, data, correlation_id=cid)
    if request is not None and request.api_key is not None and request.api_version is not None:
        event.api_key = request.api_key
        event.api_version = request.api_version
        event.header_version = response_header_version(request.api_key, request.api_version)
    elif cid is None:
        event.note = "a response too short to hold a correlation id"
    else:
        event.note = "no request with this correlation id in the capture"
    return event


@dataclass(slots=True)
class Exchange:
    """A request and the response that answered it (either may be missing from a capture)."""

    index: int  # position in the capture's exchanges, ordered by request time
    conn: int
    request: FrameEvent | None
    response: FrameEvent | None

    @property
    def _frame(self) -> FrameEvent:
        """The request, or the response when the capture began after the request: an exchange has one of them."""
        frame = self.request or self.response
        if frame is None:
            raise ValueError(f"exchange {self.index} has neither a request nor a response")
        return frame

    @property
    def api_key(self) -> int | None:
        return self._frame.api_key

    @property
    def api_version(self) -> int | None:
        return self._frame.api_version

    @property
    def correlation_id(self) -> int | None:
        return self._frame.correlation_id

    @property
    def expect_response(self) -> bool:
        return self.request is None or self.request.expect_response is not False

    def describe(self) -> str:
        version = f" v{self.api_version}" if self.api_version is not None else ""
        return (
            f"#{self.index} {api_name(self.api_key)}{version} (conn {self.conn}, correlation id {self.correlation_id})"
        )


@dataclass(slots=True)
class Capture:
    header: CaptureHeader
    events: list[Event]
    path: Path | None = None

    @property
    def frames(self) -> list[FrameEvent]:
        return [e for e in self.events if isinstance(e, FrameEvent)]

    @property
    def connections(self) -> list[int]:
        return sorted({e.conn for e in self.events})

    def exchanges(self) -> list[Exchange]:
        """Requests paired with their responses by connection and correlation id (oldest request first),
        ordered by the time of the request; a response without a request in the capture is an exchange of
        its own, placed at its time."""
        matchers: dict[int, ResponseMatcher] = {}
        keyed: list[tuple[float, int, Exchange]] = []
        for order, e in enumerate(self.events):
            if not isinstance(e, FrameEvent):
                continue
            matcher = matchers.setdefault(e.conn, ResponseMatcher())
            if e.is_request:
                ex = Exchange(-1, e.conn, e, None)
                keyed.append((e.t, order, ex))
                if e.correlation_id is not None:
                    info = RequestInfo(
                        api_key=e.api_key if e.api_key is not None else -1,
                        api_version=e.api_version if e.api_version is not None else -1,
                        correlation_id=e.correlation_id,
                        client_id=e.client_id,
                        header_version=e.header_version if e.header_version is not None else -1,
                        header_size=0,
                        expect_response=e.expect_response is not False,
                    )
                    matcher.on_request(info, ex)
            else:
                entry = None
                if e.correlation_id is not None:
                    entry, _ = matcher.match(e.correlation_id)
                if entry is not None:
                    assert isinstance(entry.token, Exchange)
                    entry.token.response = e
                else:
                    keyed.append((e.t, order, Exchange(-1, e.conn, None, e)))
        keyed.sort(key=lambda x: (x[0], x[1]))
        out = []
        for i, (_, _, ex) in enumerate(keyed):
            ex.index = i
            out.append(ex)
        return out


def event_from_json(obj: dict[str, Any]) -> Event:
    kind = obj.get("type")
    known_conn = {"type", "conn", "t", "peer", "by"}
    if kind in ("open", "close"):
        return ConnectionEvent(
            kind=str(kind),
            conn=int(obj["conn"]),
            t=float(obj["t"]),
            peer=obj.get("peer"),
            by=obj.get("by"),
            extra={k: v for k, v in obj.items() if k not in known_conn},
        )
    if kind in ("request", "response"):
        known = {
            "type",
            "conn",
            "t",
            "api_key",
            "api_version",
            "correlation_id",
            "client_id",
            "header_version",
            "expect_response",
            "note",
            "hex",
        }
        try:
            data = bytes.fromhex(obj["hex"])
        except (KeyError, ValueError) as e:
            raise CaptureFormatError(f"frame without valid hex: {e}") from None
        return FrameEvent(
            direction=str(kind),
            conn=int(obj["conn"]),
            t=float(obj["t"]),
            data=data,
            api_key=obj.get("api_key"),
            api_version=obj.get("api_version"),
            correlation_id=obj.get("correlation_id"),
            header_version=obj.get("header_version"),
            client_id=obj.get("client_id"),
            expect_response=obj.get("expect_response"),
            note=obj.get("note"),
            extra={k: v for k, v in obj.items() if k not in known},
        )
    raise CaptureFormatError(f"unknown event type {kind!r}")


def parse_capture(lines: Iterable[str], path: Path | None = None) -> Capture:
    header: CaptureHeader | None = None
    events: list[Event] = []
    where = str(path) if path else "<capture>"
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise CaptureFormatError(f"{where}:{n}: not JSON: {e}") from None
        if header is None:
            if obj.get("type") != "capture" or obj.get("format") != FORMAT_NAME:
                raise CaptureFormatError(f"{where}:{n}: the first line must be a {FORMAT_NAME} header")
            if obj.get("version") != FORMAT_VERSION:
                raise CaptureFormatError(f"{where}:{n}: capture format version {obj.get('version')} is not supported")
            extra = {k: v for k, v in obj.items() if k not in ("type", "format", "version", "source")}
            header = CaptureHeader(str(obj.get("source", "unknown")), extra)
            continue
        try:
            events.append(event_from_json(obj))
        except (CaptureFormatError, KeyError, TypeError, ValueError) as e:
            raise CaptureFormatError(f"{where}:{n}: {e}") from None
    if header is None:
        raise CaptureFormatError(f"{where}: empty capture")
    return Capture(header, events, path)


def read_capture(path: str | Path) -> Capture:
    """Reads a capture file: JSON lines, or a pcap/pcapng file (TCP streams reassembled, Kafka on port 9092
    or any port whose traffic reads as Kafka requests)."""
    path = Path(path)
    if path.suffix.lower() in PCAP_SUFFIXES or _looks_like_pcap(path):
        from kafka.tools.conformance.pcap_reader import read_pcap_capture

        return read_pcap_capture(path)
    with open(path, encoding="utf-8") as f:
        return parse_capture(f, path)


def _looks_like_pcap(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError:
        return False
    return magic in (
        b"\xd4\xc3\xb2\xa1",
        b"\xa1\xb2\xc3\xd4",
        b"\x4d\x3c\xb2\xa1",
        b"\xa1\xb2\x3c\x4d",
        b"\x0a\x0d\x0d\x0a",
    )


def write_capture(capture: Capture, out: IO[str]) -> None:
    out.write(json.dumps(capture.header.to_json()) + "\n")
    for e in capture.events:
        out.write(json.dumps(e.to_json()) + "\n")


class CaptureWriter:
    """Writes a capture line by line as events happen (thread-safe); each line is flushed, so a capture cut
    short by a crash is still readable up to its last event."""

    def __init__(self, out: IO[str], header: CaptureHeader) -> None:
        self._out = out
        self._lock = threading.Lock()
        self._closed = False
        self.count = 0
        self._write_line(header.to_json())

    def _write_line(self, obj: dict[str, Any]) -> None:
        self._out.write(json.dumps(obj) + "\n")
        self._out.flush()

    def write(self, event: Event) -> None:
        with self._lock:
            if self._closed:
                return
            self._write_line(event.to_json())
            self.count += 1

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._out.flush()
