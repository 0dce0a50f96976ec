"""Port of clients/src/main/java/org/apache/kafka/common/network/SslTransportLayer.java (Kafka 3.7).

TLS over a non-blocking socket: the handshake is taken as far as the socket allows in each poll, then reads
decrypt and writes encrypt. The engine (an ssl.SSLObject) reads the peer's bytes from a memory buffer this layer
fills from the socket, and writes its own into another that this layer drains to the socket; encrypted bytes the
socket did not take yet are kept and sent first (`has_pending_writes`), so a Send completes only once all of it
is on the wire.

A handshake that fails (a peer that does not speak TLS, a certificate the other side does not trust, a host name
that does not match) raises SslAuthenticationException: the channel is closed and the failure logged, and the
TLS alert that explains it is sent to the peer first when the socket takes it.

# PORT: the states are Java's (NOT_INITIALIZED, HANDSHAKE, HANDSHAKE_FAILED, POST_HANDSHAKE, READY, CLOSING);
# OpenSSL drives the handshake itself, so Java's handshakeWrap/handshakeUnwrap/delegated tasks become calls to
# do_handshake between socket reads and writes. Re-handshakes (renegotiation) are refused by OpenSSL's defaults
# as Kafka refuses them.
"""

from __future__ import annotations

import enum
import logging
import socket
import ssl
from collections.abc import Callable, Sequence
from typing import cast

from kafka.common.errors import SslAuthenticationException
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.transport_layer import TransportLayer, finish_socket_connect
from kafka.common.protocol.types import Buffer
from kafka.common.security.ssl.default_ssl_engine_factory import SslEngine

__all__ = ["SslTransportLayer"]

_log = logging.getLogger("org.apache.kafka.common.network.SslTransportLayer")

# The most bytes read from the socket at once (a TLS record is at most 16 KiB plus overhead).
_NET_READ_SIZE = 64 * 1024
# The most plaintext bytes encrypted at once before the socket is asked to take them.
_APP_WRITE_CHUNK = 16 * 1024


class State(enum.Enum):
    NOT_INITIALIZED = "NOT_INITIALIZED"
    HANDSHAKE = "HANDSHAKE"
    HANDSHAKE_FAILED = "HANDSHAKE_FAILED"
    POST_HANDSHAKE = "POST_HANDSHAKE"
    READY = "READY"
    CLOSING = "CLOSING"


class SslTransportLayer(TransportLayer):
    __slots__ = (
        "_channel_id",
        "_key",
        "_socket",
        "_engine_supplier",
        "_peer_host",
        "_peer_port",
        "_ssl",
        "_incoming",
        "_outgoing",
        "_state",
        "_connected",
        "_net_write",
        "_eof",
        "_more_records",
        "_handshake_exception",
    )

    def __init__(
        self,
        channel_id: str,
        key: SelectionKey,
        engine_supplier: Callable[[str, int], SslEngine],
        server_side: bool,
    ) -> None:
        """`engine_supplier(peer_host, peer_port)` makes the engine when the handshake starts: a client's checks
        the host name it connected to (set_peer_host), a server's learns the peer from the socket."""
        self._channel_id = channel_id
        self._key = key
        self._socket: socket.socket = key.sock
        self._engine_supplier = engine_supplier
        self._peer_host: str | None = None
        self._peer_port = -1
        # Made by the first handshake() (placeholders until then; nothing reads them before).
        self._ssl: ssl.SSLObject = None  # type: ignore[assignment]
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self._state = State.NOT_INITIALIZED
        # An accepted connection is connected from the start; a client's once its connect completes.
        self._connected = server_side
        self._net_write = bytearray()  # encrypted bytes the socket has not taken yet
        self._eof = False  # the peer closed its side
        # Whether the incoming buffer may hold whole records not yet decrypted (a read stopped because the
        # destination was full); False once a read ran out of whole records.
        self._more_records = False
        self._handshake_exception: SslAuthenticationException | None = None

    @staticmethod
    def create(
        channel_id: str,
        key: SelectionKey,
        engine: SslEngine | Callable[[str, int], SslEngine],
        server_side: bool | None = None,
    ) -> SslTransportLayer:
        """The layer over `engine`, or over the engine `engine(peer_host, peer_port)` makes when the handshake
        starts (a client's must be made that way: its peer is known once the Selector names it)."""
        if isinstance(engine, SslEngine):
            made = engine
            return SslTransportLayer(channel_id, key, lambda host, port: made, made.ssl_object.server_side)
        if server_side is None:
            raise ValueError("server_side must be given with an engine supplier")
        return SslTransportLayer(channel_id, key, engine, server_side)

    def set_peer_host(self, host: str, port: int) -> None:
        """The host name (or address) and port a client connects to: the name its server certificate must carry."""
        self._peer_host = host
        self._peer_port = port

    # -- connecting -----------------------------------------------------------------------------------------

    def ready(self) -> bool:
        return self._state is State.READY or self._state is State.POST_HANDSHAKE

    def finish_connect(self) -> bool:
        if not finish_socket_connect(self._socket, self._key):
            return False
        self._connected = True
        return True

    def mark_connected(self) -> None:
        self._connected = True

    def disconnect(self) -> None:
        self._key.cancel()

    def is_connected(self) -> bool:
        return self._connected

    def socket_channel(self) -> socket.socket:
        return self._socket

    def selection_key(self) -> SelectionKey:
        return self._key

    def is_open(self) -> bool:
        return self._socket.fileno() >= 0

    def ssl_session(self) -> ssl.SSLObject:
        """The TLS session (the peer's certificate, the cipher and protocol agreed), once the handshake is done."""
        return self._ssl

    def close(self) -> None:
        """Sends close_notify when the handshake completed (as far as the socket takes it now), then closes."""
        state = self._state
        self._state = State.CLOSING
        try:
            if state in (State.READY, State.POST_HANDSHAKE) and self._socket.fileno() >= 0:
                try:
                    self._ssl.unwrap()
                except (ssl.SSLError, OSError, ValueError):
                    pass  # the peer's close_notify is not waited for
                self._net_write += self._outgoing.read()
                try:
                    self._flush()
                except OSError:
                    pass
        finally:
            try:
                self._socket.close()
            finally:
                self._key.attach(None)
                self._key.cancel()

    # -- the handshake --------------------------------------------------------------------------------------

    def handshake(self) -> None:
        """Takes the handshake as far as the socket allows; raises SslAuthenticationException if it fails and
        EOFError if the peer closes the connection during it."""
        if self._state is State.NOT_INITIALIZED:
            host, port = (self._peer_host, self._peer_port) if self._peer_host is not None else self._peer()
            engine = self._engine_supplier(host, port)
            self._ssl, self._incoming, self._outgoing = engine.ssl_object, engine.incoming, engine.outgoing
            self._state = State.HANDSHAKE
        if self._state is State.HANDSHAKE_FAILED:
            assert self._handshake_exception is not None
            raise self._handshake_exception
        if self.ready():
            return
        # Bytes of the last step still waiting for the socket go first.
        if self._net_write:
            self._flush()
            if self._net_write:
                self._key.set_interest_ops(self._key.interest_ops() | SelectionKey.OP_WRITE)
                return
        read = self._read_from_socket()
        try:
            self._ssl.do_handshake()
        except ssl.SSLWantReadError:
            self._after_handshake_step()
            if read < 0:
                raise EOFError("EOF during handshake, handshake status is NEED_UNWRAP") from None
            return
        except ssl.SSLError as e:
            self._handshake_failure(e)
        except OSError as e:  # the peer's abrupt close, seen by OpenSSL
            self._handshake_failure(e)
        self._after_handshake_step()
        self._state = State.POST_HANDSHAKE
        # Whatever the peer sent after its Finished is application data: it is read by the next read().
        self._more_records = self._incoming.pending > 0
        if _log.isEnabledFor(logging.DEBUG):
            _log.debug(
                "SSL handshake completed successfully with peerHost '%s' peerPort %s peerPrincipal '%s' protocol "
                "'%s' cipherSuite '%s'",
                *self._peer(),
                "(certificate)" if self._ssl.getpeercert(binary_form=True) else "ANONYMOUS",
                self._ssl.version(),
                (self._ssl.cipher() or ("",))[0],
            )
        self._state = State.READY

    def _peer(self) -> tuple[str, int]:
        try:
            host, port = self._socket.getpeername()[:2]
            return host, port
        except OSError:
            return "", -1

    def _after_handshake_step(self) -> None:
        """Sends what the engine produced; waits for writability while some of it is left, else for the peer."""
        self._net_write += self._outgoing.read()
        if self._net_write:
            self._flush()
        ops = self._key.interest_ops() | SelectionKey.OP_READ
        if self._net_write:
            ops |= SelectionKey.OP_WRITE
        else:
            ops &= ~SelectionKey.OP_WRITE
        self._key.set_interest_ops(ops)

    def _handshake_failure(self, cause: BaseException) -> None:
        """Sends the engine's alert (best effort) and raises SslAuthenticationException."""
        self._state = State.HANDSHAKE_FAILED
        try:
            self._net_write += self._outgoing.read()
            self._flush()
        except OSError:
            pass
        reason = getattr(cause, "reason", None) or getattr(cause, "verify_message", None) or str(cause)
        exception = SslAuthenticationException(f"SSL handshake failed: {reason}")
        exception.__cause__ = cause
        self._handshake_exception = exception
        raise exception

    # -- socket I/O -----------------------------------------------------------------------------------------

    def _read_from_socket(self) -> int:
        """Moves what the socket has into the engine's incoming buffer: the bytes moved, 0 when none, -1 at EOF."""
        if self._eof:
            return -1
        try:
            data = self._socket.recv(_NET_READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return 0
        if not data:
            self._eof = True
            self._incoming.write_eof()
            return -1
        self._incoming.write(data)
        return len(data)

    def _flush(self) -> None:
        """Writes the pending encrypted bytes as far as the socket takes them."""
        buf = self._net_write
        while buf:
            try:
                n = self._socket.send(buf)
            except (BlockingIOError, InterruptedError):
                return
            if n <= 0:
                return
            del buf[:n]

    # -- reading and writing --------------------------------------------------------------------------------

    def read(self, buffer: memoryview) -> int:
        """Decrypts into `buffer`: the bytes read, 0 when no whole record is there yet, -1 at end of stream."""
        if self._state is State.CLOSING:
            return -1
        if not self.ready():
            return 0
        want = len(buffer)
        if want == 0:
            return 0
        socket_read = False
        while True:
            try:
                # With a buffer, read() decrypts into it and returns the count (typeshed knows only bytes).
                n = cast(int, self._ssl.read(want, cast(bytearray, buffer)))
            except ssl.SSLWantReadError:
                self._more_records = False
                if socket_read:
                    self._send_engine_output()
                    return -1 if self._eof else 0
                socket_read = True
                got = self._read_from_socket()
                if got == 0:
                    self._send_engine_output()
                    return 0
                continue
            except ssl.SSLZeroReturnError:
                return -1  # the peer's close_notify
            except ssl.SSLEOFError:
                return -1  # closed without close_notify
            self._send_engine_output()
            if n == 0:
                return -1
            self._more_records = n == want
            return n

    def _send_engine_output(self) -> None:
        """Sends what the engine wrote while reading (TLS 1.3 tickets, key updates, alerts)."""
        if self._outgoing.pending:
            self._net_write += self._outgoing.read()
            self._flush()
            if self._net_write:
                self._key.set_interest_ops(self._key.interest_ops() | SelectionKey.OP_WRITE)

    def write(self, buffers: Sequence[Buffer]) -> int:
        """Encrypts from `buffers` in order while the socket takes the result: the plaintext bytes consumed."""
        if self._state is State.CLOSING:
            raise OSError("Channel is in closing state")
        if not self.ready():
            return 0
        if self._net_write:
            self._flush()
            if self._net_write:
                return 0
        written = 0
        for b in buffers:
            view = memoryview(b).cast("B") if not isinstance(b, (bytes, bytearray)) else memoryview(b)
            offset = 0
            size = len(view)
            while offset < size:
                n = self._ssl.write(view[offset : offset + _APP_WRITE_CHUNK])
                offset += n
                written += n
                self._net_write += self._outgoing.read()
                self._flush()
                if self._net_write:
                    return written
        return written

    def has_pending_writes(self) -> bool:
        return bool(self._net_write)

    # -- interest -------------------------------------------------------------------------------------------

    def add_interest_ops(self, ops: int) -> None:
        key = self._key
        key.set_interest_ops(key._interest_ops | ops)

    def remove_interest_ops(self, ops: int) -> None:
        key = self._key
        # Encrypted bytes still waiting need writability, whatever the channel's send says.
        if ops & SelectionKey.OP_WRITE and self._net_write:
            ops &= ~SelectionKey.OP_WRITE
        key.set_interest_ops(key._interest_ops & ~ops)

    def is_mute(self) -> bool:
        return self._key.is_valid() and not (self._key.interest_ops() & SelectionKey.OP_READ)

    def has_bytes_buffered(self) -> bool:
        """Whether decrypted bytes, or whole records not yet decrypted, wait in the engine."""
        return self.ready() and (self._ssl.pending() > 0 or (self._more_records and self._incoming.pending > 0))
