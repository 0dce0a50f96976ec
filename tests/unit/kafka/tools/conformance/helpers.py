"""Frames built with the protocol layer, and a scripted stand-in broker for the conformance tools' unit tests."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Callable
from typing import Any

from kafka.common.message import ApiMessageType, RequestHeaderData, ResponseHeaderData
from kafka.common.protocol.send_builder import SendBuilder


def request_frame(api: ApiMessageType, version: int, cid: int, body: Any, client_id: str | None = "test") -> bytes:
    """A request frame (without its size prefix) as a client writes it."""
    builder = SendBuilder()
    header = RequestHeaderData(
        request_api_key=api.api_key, request_api_version=version, correlation_id=cid, client_id=client_id
    )
    header.write_to(builder, api.request_header_version(version))
    body.write_to(builder, version)
    return builder.to_bytes()


def response_frame(api: ApiMessageType, version: int, cid: int, body: Any, header_version: int | None = None) -> bytes:
    """A response frame (without its size prefix), with the header version the request calls for unless given."""
    builder = SendBuilder()
    hv = api.response_header_version(version) if header_version is None else header_version
    ResponseHeaderData(correlation_id=cid).write_to(builder, hv)
    body.write_to(builder, version)
    return builder.to_bytes()


def sized(frame: bytes) -> bytes:
    return struct.pack(">i", len(frame)) + frame


def read_frame(sock: socket.socket) -> bytes:
    """One frame from a blocking socket."""
    size = struct.unpack(">i", _read(sock, 4))[0]
    return _read(sock, size)


def _read(sock: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise ConnectionError("closed")
        out += chunk
    return bytes(out)


# handler(broker, connection number, request frame): sends whatever it wants with broker.send.
Handler = Callable[["FakeBroker", int, bytes], None]


class FakeBroker:
    """Accepts connections on 127.0.0.1 and hands every request frame to `handler`, which answers (or not) with
    `send`. Records the request frames it got, per connection, in arrival order."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self._listener.settimeout(0.2)
        self.port = int(self._listener.getsockname()[1])
        self.lock = threading.Lock()
        self.received: list[tuple[int, bytes]] = []
        self._conns: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        acceptor = threading.Thread(target=self._accept, name="fake-broker-acceptor", daemon=True)
        acceptor.start()
        self._threads.append(acceptor)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                sock, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                n = len(self._conns)
                self._conns.append(sock)
            t = threading.Thread(target=self._serve, args=(n, sock), name=f"fake-broker-{n}", daemon=True)
            t.start()
            self._threads.append(t)

    def _serve(self, n: int, sock: socket.socket) -> None:
        sock.settimeout(0.2)
        buf = bytearray()
        while not self._stop.is_set():
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while len(buf) >= 4:
                size = struct.unpack_from(">i", buf, 0)[0]
                if len(buf) < 4 + size:
                    break
                frame = bytes(buf[4 : 4 + size])
                del buf[: 4 + size]
                with self.lock:
                    self.received.append((n, frame))
                self.handler(self, n, frame)

    def send(self, conn: int, frame: bytes) -> None:
        with self.lock:
            sock = self._conns[conn]
        sock.sendall(sized(frame))

    def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        with self.lock:
            conns = list(self._conns)
        for s in conns:
            with contextlib.suppress(OSError):
                s.close()
        for t in self._threads:
            t.join(5)
