"""A local TCP server for network tests (as Kafka's test EchoServer): every connection gets back the bytes it
sends, so a size-prefixed request comes back as an identical size-prefixed response. It can also close its
connections or stop answering."""

from __future__ import annotations

import socket
import threading


class EchoServer:
    def __init__(self) -> None:
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.05)
        self.port: int = self._server.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.echo = threading.Event()
        self.echo.set()
        self._acceptor = threading.Thread(target=self._accept, name="echo-server-acceptor", daemon=True)
        self._acceptor.start()

    @property
    def num_connections(self) -> int:
        with self._lock:
            return len(self._sockets)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(0.05)
            thread = threading.Thread(target=self._serve, args=(conn,), name="echo-server-connection", daemon=True)
            with self._lock:
                self._sockets.append(conn)
                self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket) -> None:
        while not self._stop.is_set():
            if not self.echo.is_set():
                self.echo.wait(0.05)
                continue
            try:
                data = conn.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            try:
                conn.sendall(data)
            except OSError:
                return

    def close_connections(self) -> None:
        """Closes every accepted connection (the client sees the peer go away)."""
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self) -> None:
        self._stop.set()
        self.echo.set()
        self._server.close()
        self._acceptor.join(5)
        self.close_connections()
        with self._lock:
            threads = list(self._threads)
        for t in threads:
            t.join(5)
