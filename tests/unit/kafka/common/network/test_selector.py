"""Tests of kafka.common.network.selector (from Kafka's SelectorTest) against a real local socket server: connect,
size-prefixed sends and receives of any size, refused connections, peers going away, the receive size limit,
muting, idle expiry, wakeup and closing; and the broker's side: accepted connections registered with their peer
address, receive buffers from a MemoryPool (muting on out-of-memory), writes at send time, and responses made of
byte parts and FileRecords slices."""

from __future__ import annotations

import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import SaslAuthenticationException
from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.memory.simple_memory_pool import SimpleMemoryPool
from kafka.common.network.authenticator import Authenticator
from kafka.common.network.byte_buffer_send import ByteBufferSend
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.channel_state import ChannelState
from kafka.common.network.inet_address import InetAddress, InetSocketAddress
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.multi_records_send import MultiRecordsSend
from kafka.common.network.network_receive import NetworkReceive, ReceiveBufferPool
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.plaintext_channel_builder import PlaintextChannelBuilder
from kafka.common.network.plaintext_transport_layer import PlaintextTransportLayer
from kafka.common.network.selectable import Selectable
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.selector import _WAKEUP_DRAIN_POLLS, Selector
from kafka.common.network.socket_channel import SocketChannel
from kafka.common.record.file_records import FileRecords
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime, Time
from tests.unit.kafka.common.network.echo_server import EchoServer

BUFFER_SIZE = 4 * 1024
NODE = "0"


@pytest.fixture
def server() -> Iterator[EchoServer]:
    s = EchoServer()
    yield s
    s.close()


@pytest.fixture
def selector() -> Iterator[Selector]:
    s = Selector(5000, Time.SYSTEM, LogContext())
    yield s
    s.close()


def test_a_poll_that_may_block_lets_a_large_frame_wait_in_place_and_one_that_may_not_does_not() -> None:
    # The selector tells its ReceiveBufferPool in each poll whether that poll may block
    # (kafka.common.network.network_receive): a poll of 0 ms (Java's transmitSends) reads what has come and returns.
    pool = ReceiveBufferPool()
    selector = Selector(5000, Time.SYSTEM, LogContext(), memory_pool=pool)
    try:
        selector.poll(0)
        assert not pool.wait_in_place
        selector.poll(100)
        assert pool.wait_in_place
        selector.poll(0)
        assert not pool.wait_in_place
    finally:
        selector.close()


def _address(port: int) -> InetSocketAddress:
    return InetSocketAddress(InetAddress("localhost", "127.0.0.1"), port)


def _connected(selector: Selector, node: str) -> bool:
    channel = selector.channel(node)
    return channel is not None and channel.is_connected() and selector.is_channel_ready(node)


def _connect(selector: Selector, node: str, port: int) -> None:
    selector.connect(node, _address(port), BUFFER_SIZE, BUFFER_SIZE)
    _poll_until(selector, lambda: _connected(selector, node), f"connection {node}")


def _poll_until(selector: Selector, condition: Callable[[], bool], msg: str, polls: int = 400) -> None:
    # Poll first: what completed_receives() etc. hold before it belongs to the previous poll.
    for _ in range(polls):
        selector.poll(50)
        if condition():
            return
    raise AssertionError(f"not after {polls} polls: {msg}")


def _send(node: str, payload: bytes) -> NetworkSend:
    return NetworkSend(node, ByteBufferSend.size_prefixed(payload))


def _send_and_receive(selector: Selector, node: str, payload: bytes) -> bytes:
    selector.send(_send(node, payload))
    got: list[bytes] = []

    def received() -> bool:
        got.extend(bytes(r.payload() or b"") for r in selector.completed_receives())
        return bool(got)

    _poll_until(selector, received, "a response")
    return got[0]


def test_normal_operation(selector: Selector, server: EchoServer) -> None:
    """Several connections each carry many requests and get each response back, in order."""
    conns, reqs = 5, 50
    for i in range(conns):
        _connect(selector, str(i), server.port)
    expected = {str(i): [f"{i}-{j}".encode() for j in range(reqs)] for i in range(conns)}
    got: dict[str, list[bytes]] = {str(i): [] for i in range(conns)}
    pending = {str(i): 0 for i in range(conns)}
    for node in got:
        selector.send(_send(node, expected[node][0]))

    def all_done() -> bool:
        for receive in selector.completed_receives():
            node = receive.source()
            got[node].append(bytes(receive.payload() or b""))
        for send in selector.completed_sends():
            pending[send.destination_id()] += 1
            n = pending[send.destination_id()]
            if n < reqs:
                selector.send(_send(send.destination_id(), expected[send.destination_id()][n]))
        return all(len(v) == reqs for v in got.values())

    _poll_until(selector, all_done, "every response")
    assert got == expected


def test_send_large_request(selector: Selector, server: EchoServer) -> None:
    """A request far larger than the socket buffers goes out over many writes and comes back whole."""
    _connect(selector, NODE, server.port)
    big = bytes(range(256)) * 4_000  # 1 MB: 250 times the socket buffers
    assert _send_and_receive(selector, NODE, big) == big


def test_empty_request(selector: Selector, server: EchoServer) -> None:
    """A frame of size 0 is a valid (empty) receive."""
    _connect(selector, NODE, server.port)
    assert _send_and_receive(selector, NODE, b"") == b""


def test_cant_send_with_in_progress(selector: Selector, server: EchoServer) -> None:
    """A second send while one is in progress fails the connection with FAILED_SEND and raises."""
    _connect(selector, NODE, server.port)
    selector.send(_send(NODE, b"test1"))
    with pytest.raises(RuntimeError, match="prior send operation still in progress"):
        selector.send(_send(NODE, b"test2"))
    selector.poll(0)
    assert selector.disconnected() == {NODE: ChannelState.FAILED_SEND}


def test_send_without_connecting(selector: Selector) -> None:
    """Sending on a connection that does not exist is an error."""
    with pytest.raises(RuntimeError, match="no connection"):
        selector.send(_send(NODE, b"test"))


def test_connection_refused(selector: Selector) -> None:
    """A refused connection is reported disconnected in state NOT_CONNECTED, with the address tried."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: connections are refused
        selector.connect(NODE, _address(port), BUFFER_SIZE, BUFFER_SIZE)
        _poll_until(selector, lambda: NODE in selector.disconnected(), "the refusal")
    state = selector.disconnected()[NODE]
    assert state.state() is ChannelState.State.NOT_CONNECTED
    assert state.remote_address() == f"localhost/127.0.0.1:{port}"
    assert not selector.is_channel_ready(NODE) and selector.channel(NODE) is None


def test_server_disconnect(selector: Selector, server: EchoServer) -> None:
    """A peer that closes the connection is reported disconnected (READY state), and a new connection works."""
    _connect(selector, NODE, server.port)
    assert _send_and_receive(selector, NODE, b"hello") == b"hello"
    server.close_connections()
    _poll_until(selector, lambda: NODE in selector.disconnected(), "the disconnect")
    assert selector.disconnected()[NODE].state() is ChannelState.State.READY
    _connect(selector, NODE, server.port)
    assert _send_and_receive(selector, NODE, b"again") == b"again"


def test_connect_twice_is_an_error(selector: Selector, server: EchoServer) -> None:
    """A second connection under an id in use is refused."""
    _connect(selector, NODE, server.port)
    with pytest.raises(RuntimeError, match="There is already a connection for id 0"):
        selector.connect(NODE, _address(server.port), BUFFER_SIZE, BUFFER_SIZE)


def test_max_receive_size(server: EchoServer) -> None:
    """A frame announcing more than max_receive_size bytes closes the connection before it is read."""
    with Selector(5000, Time.SYSTEM, LogContext(), max_receive_size=100) as selector:
        _connect(selector, NODE, server.port)
        assert _send_and_receive(selector, NODE, b"x" * 100) == b"x" * 100
        selector.send(_send(NODE, b"x" * 101))
        _poll_until(selector, lambda: NODE in selector.disconnected(), "the oversized frame to close the connection")
        assert selector.channel(NODE) is None


def test_negative_receive_size_closes_the_connection() -> None:
    """A negative frame size from the peer closes the connection."""
    with socket.create_server(("127.0.0.1", 0)) as listener, Selector(5000, Time.SYSTEM, LogContext()) as selector:
        _connect(selector, NODE, listener.getsockname()[1])
        peer, _ = listener.accept()
        with peer:
            peer.sendall(struct.pack(">i", -1))
            _poll_until(selector, lambda: NODE in selector.disconnected(), "the bad frame to close the connection")


def test_mute(selector: Selector, server: EchoServer) -> None:
    """A muted connection delivers nothing until unmuted; then its response arrives."""
    _connect(selector, "0", server.port)
    _connect(selector, "1", server.port)
    selector.send(_send("0", b"hello"))
    selector.send(_send("1", b"hi"))
    selector.mute("1")
    got: dict[str, bytes] = {}

    def collect() -> bool:
        got.update({r.source(): bytes(r.payload() or b"") for r in selector.completed_receives()})
        return "0" in got

    _poll_until(selector, collect, "the unmuted connection's response")
    for _ in range(5):
        selector.poll(20)
        collect()
    assert got == {"0": b"hello"}
    selector.unmute("1")
    _poll_until(selector, lambda: collect() and "1" in got, "the response once unmuted")
    assert got == {"0": b"hello", "1": b"hi"}


def test_close_oldest_connection(server: EchoServer) -> None:
    """A connection idle longer than connections.max.idle.ms is closed and reported EXPIRED."""
    time = MockTime()
    with Selector(5000, time, LogContext()) as selector:
        selector.connect(NODE, _address(server.port), BUFFER_SIZE, BUFFER_SIZE)
        _poll_until(selector, lambda: _connected(selector, NODE), "the connection")
        time.sleep(6000)
        selector.poll(0)
        assert selector.disconnected() == {NODE: ChannelState.EXPIRED}
        assert selector.channel(NODE) is None


def test_active_connection_is_not_expired(server: EchoServer) -> None:
    """Traffic keeps a connection from expiring."""
    time = MockTime()
    with Selector(5000, time, LogContext()) as selector:
        selector.connect(NODE, _address(server.port), BUFFER_SIZE, BUFFER_SIZE)
        _poll_until(selector, lambda: _connected(selector, NODE), "the connection")
        for _ in range(3):
            time.sleep(3000)
            assert _send_and_receive(selector, NODE, b"ping") == b"ping"
            assert NODE not in selector.disconnected()
        assert selector.channel(NODE) is not None


def test_no_idle_timeout(server: EchoServer) -> None:
    """With NO_IDLE_TIMEOUT_MS no connection expires."""
    time = MockTime()
    with Selector(Selector.NO_IDLE_TIMEOUT_MS, time, LogContext()) as selector:
        _connect(selector, NODE, server.port)
        time.sleep(10**9)
        selector.poll(0)
        assert selector.disconnected() == {} and selector.channel(NODE) is not None


def test_close_discards_without_notification(selector: Selector, server: EchoServer) -> None:
    """close(id) drops the connection without reporting it as disconnected."""
    _connect(selector, NODE, server.port)
    selector.close(NODE)
    selector.poll(0)
    assert selector.disconnected() == {}
    assert not selector.is_channel_ready(NODE)
    _poll_until(selector, lambda: server.num_connections == 1, "the server to have seen the connection")


def test_wakeup_ends_a_blocked_poll(selector: Selector, server: EchoServer) -> None:
    """wakeup() from another thread makes a poll waiting for a long time return."""
    _connect(selector, NODE, server.port)
    done = threading.Event()

    def poll() -> None:
        selector.poll(120_000)
        done.set()

    t = threading.Thread(target=poll, name="selector-poll")
    t.start()
    try:
        while not done.is_set():
            selector.wakeup()
            done.wait(0.05)
    finally:
        t.join(30)
    assert done.is_set()


def test_receive_delivered_when_peer_closes_right_after(selector: Selector) -> None:
    """A response followed at once by the peer closing is still delivered, and the disconnect reported after."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        _connect(selector, NODE, listener.getsockname()[1])
        peer, _ = listener.accept()
        peer.sendall(struct.pack(">i", 3) + b"abc")
        peer.close()
        got: list[bytes] = []

        def received() -> bool:
            got.extend(bytes(r.payload() or b"") for r in selector.completed_receives())
            return bool(got)

        _poll_until(selector, received, "the response")
        assert got == [b"abc"]
        _poll_until(selector, lambda: NODE in selector.disconnected(), "the disconnect")


def test_network_receive_rejects_frames_over_the_limit() -> None:
    """NetworkReceive refuses a size over its maximum before allocating."""

    class _Transport:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def read(self, buffer: memoryview) -> int:
            n = min(len(buffer), len(self.data))
            buffer[:n] = self.data[:n]
            self.data = self.data[n:]
            return n if n else -1

    from kafka.common.network.invalid_receive_exception import InvalidReceiveException

    receive = NetworkReceive(10, "src")
    with pytest.raises(InvalidReceiveException, match=r"Invalid receive \(size = 11 larger than 10\)"):
        receive.read_from(_Transport(struct.pack(">i", 11)))  # type: ignore[arg-type]
    ok = NetworkReceive(10, "src")
    ok.read_from(_Transport(struct.pack(">i", 4) + b"data"))  # type: ignore[arg-type]
    assert ok.complete() and bytes(ok.payload() or b"") == b"data" and ok.size() == 8


def test_use_default_buffer_size_keeps_socket_defaults(selector: Selector, server: EchoServer) -> None:
    """Buffer sizes of -1 leave the OS defaults; others are set on the socket."""
    selector.connect("a", _address(server.port), Selectable.USE_DEFAULT_BUFFER_SIZE, Selectable.USE_DEFAULT_BUFFER_SIZE)
    selector.connect("b", _address(server.port), 8192, 8192)
    _poll_until(selector, lambda: _connected(selector, "a") and _connected(selector, "b"), "connections")
    sock_b = selector.channel("b").selection_key().sock  # type: ignore[union-attr]
    assert sock_b.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) >= 8192
    sock_a = selector.channel("a").selection_key().sock  # type: ignore[union-attr]
    assert sock_a.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


# ---- the broker's side: accepted connections ----------------------------------------------------------------


class _Accepted:
    """A listening socket whose accepted connections are registered with a server-side Selector."""

    def __init__(self, selector: Selector) -> None:
        self.selector = selector
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.clients: dict[str, socket.socket] = {}

    def connect(self, id: str) -> socket.socket:
        client = socket.create_connection(self.listener.getsockname()[:2])
        sock, (host, port) = self.listener.accept()
        self.selector.register(id, SocketChannel(sock, host, port))
        self.clients[id] = client
        return client

    def close(self) -> None:
        for client in self.clients.values():
            client.close()
        self.listener.close()


@pytest.fixture
def accepted() -> Iterator[_Accepted]:
    selector = Selector(5000, Time.SYSTEM, LogContext(), max_receive_size=1000, write_on_send=True)
    a = _Accepted(selector)
    yield a
    a.close()
    selector.close()


def _frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def _collect(selector: Selector, got: dict[str, bytes]) -> Callable[[], bool]:
    def collect() -> bool:
        got.update({r.source(): bytes(r.payload() or b"") for r in selector.completed_receives()})
        return bool(got)

    return collect


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    sock.settimeout(10)
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        assert chunk, "peer closed"
        data += chunk
    return bytes(data)


def test_registered_connection_is_read_and_knows_its_peer(accepted: _Accepted) -> None:
    """An accepted socket registered under an id is read like any other; the channel keeps the peer address taken
    at accept time, also for its log description, and is ready and anonymous at once."""
    client = accepted.connect("a")
    client.sendall(_frame(b"request"))
    got: dict[str, bytes] = {}
    _poll_until(accepted.selector, _collect(accepted.selector, got), "the request")
    assert got == {"a": b"request"}
    channel = accepted.selector.channel("a")
    assert channel is not None and channel.ready()
    host, port = client.getsockname()[:2]
    assert channel.socket_address == host
    assert channel.socket_description() == f"/{host}:{port}"
    with pytest.raises(RuntimeError, match="There is already a connection for id a"):
        accepted.selector.register("a", SocketChannel(socket.socket(), host, port))


def test_write_on_send_completes_at_once(accepted: _Accepted) -> None:
    """With write_on_send, a send the socket takes whole is in completed_sends() right after send(), no poll
    needed, and the peer has the bytes."""
    client = accepted.connect("a")
    accepted.selector.send(NetworkSend("a", ByteBufferSend.size_prefixed(b"response")))
    assert [send.destination_id() for send in accepted.selector.completed_sends()] == ["a"]
    assert _read_exactly(client, 12) == _frame(b"response")


class _ReauthenticatingAuthenticator(PlaintextChannelBuilder.PlaintextAuthenticator):
    """A client authenticator done at once whose session must be re-authenticated at `reauth_time_nanos`."""

    __slots__ = ("_reauth_time_nanos",)

    def __init__(self, reauth_time_nanos: int) -> None:
        self._reauth_time_nanos = reauth_time_nanos

    def client_session_reauthentication_time_nanos(self) -> int | None:
        return self._reauth_time_nanos


@pytest.mark.parametrize("due", [True, False])
def test_write_on_send_leaves_a_channel_due_to_reauthenticate_to_the_poll(accepted: _Accepted, due: bool) -> None:
    """A client channel whose re-authentication time (KIP-368) has come is not written in send(): its send waits
    for the poll's write, which begins the re-authentication first; one not yet due is written at once."""
    accepted.connect("a")
    channel = accepted.selector.channel("a")
    assert channel is not None and channel.ready()
    now = Time.SYSTEM.nanoseconds()
    authenticator = _ReauthenticatingAuthenticator(now - 1 if due else now + 3_600_000_000_000)
    channel._authenticator = authenticator
    channel.set_authenticator_creator(lambda: authenticator)
    accepted.selector.send(NetworkSend("a", ByteBufferSend.size_prefixed(b"request")))
    assert [send.destination_id() for send in accepted.selector.completed_sends()] == ([] if due else ["a"])
    assert channel.has_send() is due


def test_write_on_send_finishes_a_large_send_in_later_polls(accepted: _Accepted) -> None:
    """A send larger than the socket takes at once completes in the polls after it, in order and whole."""
    client = accepted.connect("a")
    payload = bytes(range(256)) * 40_000  # ~10 MB
    accepted.selector.send(NetworkSend("a", ByteBufferSend.size_prefixed(payload)))
    assert not accepted.selector.completed_sends()
    received = bytearray()
    client.setblocking(False)
    for _ in range(10_000):
        accepted.selector.poll(10)
        try:
            while chunk := client.recv(1 << 20):
                received += chunk
        except BlockingIOError:
            pass
        if len(received) == len(payload) + 4:
            break
    assert bytes(received) == _frame(payload)


def test_write_on_send_to_a_gone_peer_reports_the_disconnect(accepted: _Accepted) -> None:
    """A write at send time that fails because the peer reset the connection closes it and reports it in
    disconnected() right away."""
    client = accepted.connect("a")
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()  # RST
    payload = b"x" * 100_000
    for _ in range(50):
        if "a" in accepted.selector.disconnected() or accepted.selector.channel("a") is None:
            break
        if not accepted.selector.channel("a").has_send():  # type: ignore[union-attr]
            accepted.selector.send(NetworkSend("a", ByteBufferSend.size_prefixed(payload)))
        if "a" not in accepted.selector.disconnected():
            accepted.selector.poll(20)
    assert "a" in accepted.selector.disconnected()
    assert accepted.selector.channel("a") is None


def test_muted_readable_connection_is_not_read_until_unmuted(accepted: _Accepted) -> None:
    """A muted connection whose client sends anyway is not read (its read interest goes once it is readable);
    unmuting reads the waiting frame."""
    client = accepted.connect("a")
    accepted.selector.mute("a")
    client.sendall(_frame(b"early"))
    got: dict[str, bytes] = {}
    for _ in range(5):
        accepted.selector.poll(20)
        _collect(accepted.selector, got)()
    assert got == {}
    channel = accepted.selector.channel("a")
    assert channel is not None
    assert not channel.selection_key().interest_ops() & SelectionKey.OP_READ
    accepted.selector.unmute("a")
    _poll_until(accepted.selector, _collect(accepted.selector, got), "the frame once unmuted")
    assert got == {"a": b"early"}


def test_connection_mutes_itself_while_the_memory_pool_is_exhausted() -> None:
    """A frame the MemoryPool cannot grant mutes its connection until memory is released; then it is read. Other
    connections whose frames need no new memory are not held up."""
    pool = SimpleMemoryPool(100, 100, True)
    with Selector(5000, Time.SYSTEM, LogContext(), max_receive_size=100, memory_pool=pool) as selector:
        accepted = _Accepted(selector)
        try:
            first = accepted.connect("first")
            second = accepted.connect("second")
            first.sendall(_frame(b"x" * 60))
            got: dict[str, bytes] = {}
            _poll_until(selector, _collect(selector, got), "the first frame")
            assert pool.available_memory() == 40
            second.sendall(_frame(b"y" * 60))
            _poll_until(selector, lambda: selector.channel("second").is_muted(), "the second to mute")  # type: ignore[union-attr]
            for _ in range(3):
                selector.poll(20)
                _collect(selector, got)()
            assert got == {"first": b"x" * 60}
            pool.release(60)  # the first request is done with its buffer
            _poll_until(selector, lambda: _collect(selector, got)() and "second" in got, "the second frame")
            assert got["second"] == b"y" * 60
            assert not selector.channel("second").is_muted()  # type: ignore[union-attr]
            assert pool.available_memory() == 40
        finally:
            accepted.close()


def test_closing_a_connection_gives_back_its_partial_frame_memory() -> None:
    """The buffer of a frame still being read goes back to the pool when its connection closes."""
    pool = SimpleMemoryPool(1000, 1000, False)
    with Selector(5000, Time.SYSTEM, LogContext(), max_receive_size=1000, memory_pool=pool) as selector:
        accepted = _Accepted(selector)
        try:
            client = accepted.connect("a")
            client.sendall(_frame(b"z" * 500)[:100])
            _poll_until(selector, lambda: pool.available_memory() == 500, "the frame's buffer to be taken")
            selector.close("a")
            assert pool.available_memory() == 1000
        finally:
            accepted.close()


def test_oversized_frame_from_a_registered_connection_closes_it(accepted: _Accepted) -> None:
    """A frame over max_receive_size (socket.request.max.bytes on a broker) closes its connection."""
    client = accepted.connect("a")
    client.sendall(struct.pack(">i", 1001))
    _poll_until(accepted.selector, lambda: "a" in accepted.selector.disconnected(), "the connection to close")


def test_lowest_priority_channel_is_the_least_recently_active(accepted: _Accepted) -> None:
    """lowest_priority_channel is the connection active longest ago (the one a broker closes when over
    max.connections)."""
    accepted.connect("a")
    second = accepted.connect("b")
    assert accepted.selector.lowest_priority_channel().id() == "a"  # type: ignore[union-attr]
    accepted.clients["a"].sendall(_frame(b"1"))
    _poll_until(accepted.selector, lambda: bool(accepted.selector.completed_receives()), "a's frame")
    assert accepted.selector.lowest_priority_channel().id() == "b"  # type: ignore[union-attr]
    del second


def test_multi_records_send_writes_bytes_and_file_slices(accepted: _Accepted, tmp_path: Path) -> None:
    """A response of byte parts and FileRecords slices reaches the peer whole and in order; the file parts go
    through the transport's transfer_from."""
    records = FileRecords.open(tmp_path / "00000000000000000000.log")
    try:
        data = bytes(range(256)) * 4096  # 1 MB
        os.pwrite(records.file_descriptor(), data, 0)
        whole = FileRecords.open(tmp_path / "00000000000000000000.log", file_already_exists=True)
        try:
            parts = [b"head", whole.slice(10, 300_000), b"", memoryview(b"middle"), whole.slice(500_000, 20), b"tail"]
            expected = b"head" + data[10:300_010] + b"middle" + data[500_000:500_020] + b"tail"
            send = MultiRecordsSend([struct.pack(">i", len(expected)), *parts])
            assert send.size() == len(expected) + 4
            client = accepted.connect("a")
            accepted.selector.send(NetworkSend("a", send))
            received = bytearray()
            client.setblocking(False)
            for _ in range(10_000):
                if not accepted.selector.completed_sends():
                    accepted.selector.poll(10)
                try:
                    while chunk := client.recv(1 << 20):
                        received += chunk
                except BlockingIOError:
                    pass
                if len(received) == len(expected) + 4:
                    break
            assert bytes(received[4:]) == expected
            assert send.completed()
        finally:
            whole.close()
    finally:
        records.close()


def test_wakeup_after_a_wakeup_was_selected_wakes_again(selector: Selector) -> None:
    """Wakeups between two selects cost one byte, but once a poll has seen it the next wakeup wakes a poll
    again."""
    selector.wakeup()
    selector.wakeup()
    selector.poll(0)
    done = threading.Event()

    def poll() -> None:
        selector.poll(120_000)
        done.set()

    t = threading.Thread(target=poll, name="selector-poll")
    t.start()
    try:
        for _ in range(200):
            selector.wakeup()
            if done.wait(0.05):
                break
        woken = done.is_set()
    finally:
        if not done.is_set():
            selector._wakeup_w.send(b"\x00")  # free the poll the wakeups failed to end
        t.join(30)
    assert woken


def _wakeup_bytes_waiting(selector: Selector) -> int:
    try:
        return len(selector._wakeup_r.recv(1 << 16, socket.MSG_PEEK))
    except BlockingIOError:
        return 0


def _poll_ends_before_its_timeout(selector: Selector) -> bool:
    """A poll of a minute, and whether something (a wakeup's edge) ended it before half of that went by."""
    started = time.monotonic()
    selector.poll(60_000)
    return time.monotonic() - started < 30


def test_edge_triggered_wakeups_are_read_back_now_and_then(selector: Selector) -> None:
    """On epoll the wakeup socketpair is edge-triggered: each wakeup makes the next poll return (a poll of a minute
    returns at once) without its byte being read back then; the bytes are read every _WAKEUP_DRAIN_POLLS polls, so
    that no more than that many ever wait, and a wakeup after any poll writes and wakes again."""
    if selector._polls_until_wakeup_drain < 0:
        pytest.skip("the wakeup socketpair is edge-triggered on epoll only")
    most_waiting = 0
    for _ in range(3 * _WAKEUP_DRAIN_POLLS + 7):
        selector.wakeup()
        assert selector._wakeup_pending
        assert _poll_ends_before_its_timeout(selector)
        assert not selector._wakeup_pending
        most_waiting = max(most_waiting, _wakeup_bytes_waiting(selector))
    assert 1 < most_waiting <= _WAKEUP_DRAIN_POLLS
    # A wakeup whose byte is still waiting when a poll begins ends that poll too.
    selector.wakeup()
    selector.poll(0)
    selector.wakeup()
    assert _poll_ends_before_its_timeout(selector)


def test_a_wakeup_written_after_a_select_ends_the_next_poll(selector: Selector) -> None:
    """A wakeup() written after a select has returned, before the flag's reset (a handler's response racing the
    poll), is not lost: its edge stays until a select reports it, so the next poll returns at once."""
    if selector._polls_until_wakeup_drain < 0:
        pytest.skip("the wakeup socketpair is edge-triggered on epoll only")
    nio_selector = selector._nio_selector
    select = nio_selector.select

    def select_then_wakeup(timeout: float | None = None) -> list[Any]:
        events = select(timeout)
        selector.wakeup()  # after the select, before the poll clears the flag
        return events

    selector.poll(0)
    nio_selector.select = select_then_wakeup  # type: ignore[method-assign]
    try:
        selector.poll(0)
    finally:
        del nio_selector.select
    assert _wakeup_bytes_waiting(selector) == 1
    assert _poll_ends_before_its_timeout(selector)
    assert not selector._wakeup_pending


def test_a_wakeup_drained_by_the_poll_it_raced_does_not_stop_later_wakeups(selector: Selector) -> None:
    """On the poll that reads the wakeup bytes back, a wakeup() written after the select but before that read loses
    its byte (and so its edge) to the read: the flag must end up clear, or every later wakeup() would skip its write
    and a blocked poll would wait for its timeout."""
    if selector._polls_until_wakeup_drain < 0:
        pytest.skip("the wakeup socketpair is edge-triggered on epoll only")
    drain = selector._drain_wakeups

    def wakeup_then_drain() -> None:
        selector.wakeup()  # a handler's response, queued as the select returned
        drain()

    selector.poll(0)
    selector._polls_until_wakeup_drain = 1  # the next poll reads the bytes back
    selector._drain_wakeups = wakeup_then_drain  # type: ignore[method-assign]
    try:
        selector.poll(0)
    finally:
        del selector._drain_wakeups
    assert _wakeup_bytes_waiting(selector) == 0
    assert not selector._wakeup_pending
    selector.wakeup()
    assert _poll_ends_before_its_timeout(selector)


def test_an_edge_triggered_wakeup_into_a_full_pipe_still_wakes(selector: Selector) -> None:
    """A wakeup finding the socketpair full (each waiting byte takes a socket buffer of its own) reads it empty and
    writes again, so that its edge is not lost."""
    if selector._polls_until_wakeup_drain < 0:
        pytest.skip("the wakeup socketpair is edge-triggered on epoll only")
    with pytest.raises(BlockingIOError):
        while True:
            selector._wakeup_w.send(b"\x00")
    selector.poll(0)
    selector.wakeup()
    assert _wakeup_bytes_waiting(selector) == 1
    assert _poll_ends_before_its_timeout(selector)
    assert not selector._wakeup_pending


# ---- failed authentication, closed after connection.failed.authentication.delay.ms (KIP-306) -------------------


class _RefusingAuthenticator(Authenticator):
    """Refuses the peer as soon as it sends anything; its failure response is `b"refused"`."""

    def __init__(self, transport_layer: PlaintextTransportLayer) -> None:
        self._transport_layer = transport_layer
        self.failure_responses_sent = 0

    def authenticate(self) -> None:
        buffer = bytearray(64)
        n = self._transport_layer.read(memoryview(buffer))
        if n < 0:
            raise EOFError("peer closed")
        if n > 0:
            raise SaslAuthenticationException("Authentication failed: Invalid username or password")

    def principal(self) -> KafkaPrincipal:
        return KafkaPrincipal.ANONYMOUS

    def complete(self) -> bool:
        return False

    def handle_authentication_failure(self) -> None:
        self.failure_responses_sent += 1
        self._transport_layer.write([b"refused"])


class _RefusingChannelBuilder(ChannelBuilder):
    def __init__(self) -> None:
        self.authenticators: list[_RefusingAuthenticator] = []

    def build_channel(
        self, id: str, key: SelectionKey, max_receive_size: int, memory_pool: MemoryPool = MemoryPool.NONE
    ) -> KafkaChannel:
        transport_layer = PlaintextTransportLayer(key)
        transport_layer.mark_connected()  # an accepted socket, as SaslChannelBuilder's server channels
        authenticator = _RefusingAuthenticator(transport_layer)
        self.authenticators.append(authenticator)
        return KafkaChannel(id, transport_layer, authenticator, max_receive_size, memory_pool)


def _refused_peer(delay_ms: int) -> tuple[Selector, MockTime, _RefusingChannelBuilder, socket.socket]:
    time = MockTime()
    builder = _RefusingChannelBuilder()
    server_selector = Selector(
        60_000, time, LogContext(), channel_builder=builder, failed_authentication_delay_ms=delay_ms
    )
    ours, peer = socket.socketpair()
    server_selector.register("conn-1", SocketChannel(ours, "127.0.0.1", 1234))
    peer.setblocking(False)
    peer.sendall(b"a wrong password")
    return server_selector, time, builder, peer


def _recv_or_none(sock: socket.socket) -> bytes | None:
    try:
        return sock.recv(64)
    except BlockingIOError:
        return None


def test_failed_authentication_is_answered_and_closed_after_the_delay() -> None:
    server_selector, time, builder, peer = _refused_peer(delay_ms=100)
    try:
        _poll_until(server_selector, lambda: bool(server_selector.delayed_closing_channels()), "a failed login")
        assert server_selector.delayed_closing_channels() == ["conn-1"]
        # Before the delay has passed: no response, no close.
        for _ in range(3):
            server_selector.poll(10)
        assert not server_selector.disconnected()
        assert server_selector.channel("conn-1") is not None
        assert builder.authenticators[0].failure_responses_sent == 0
        assert _recv_or_none(peer) is None
        time.sleep(100)
        server_selector.poll(0)
        # Then the failure response goes out, and the connection is closed and reported so.
        assert builder.authenticators[0].failure_responses_sent == 1
        assert server_selector.delayed_closing_channels() == []
        assert server_selector.channel("conn-1") is None
        state = server_selector.disconnected()["conn-1"]
        assert state.state() is ChannelState.State.AUTHENTICATION_FAILED
        assert isinstance(state.exception(), SaslAuthenticationException)
        peer.setblocking(True)
        peer.settimeout(10)
        assert peer.recv(64) == b"refused"
        assert peer.recv(64) == b""
    finally:
        peer.close()
        server_selector.close()


def test_failed_authentication_without_delay_is_answered_and_closed_at_once() -> None:
    server_selector, _, builder, peer = _refused_peer(delay_ms=Selector.NO_FAILED_AUTHENTICATION_DELAY)
    try:
        _poll_until(server_selector, lambda: "conn-1" in server_selector.disconnected(), "the close")
        assert builder.authenticators[0].failure_responses_sent == 1
        assert server_selector.delayed_closing_channels() == []
        peer.setblocking(True)
        peer.settimeout(10)
        assert peer.recv(64) == b"refused"
    finally:
        peer.close()
        server_selector.close()


def test_peer_closing_during_the_delay_is_closed_at_once() -> None:
    server_selector, _, builder, peer = _refused_peer(delay_ms=60_000)
    try:
        _poll_until(server_selector, lambda: bool(server_selector.delayed_closing_channels()), "a failed login")
        peer.close()
        _poll_until(server_selector, lambda: "conn-1" in server_selector.disconnected(), "the close")
        assert server_selector.delayed_closing_channels() == []
        assert builder.authenticators[0].failure_responses_sent == 0
    finally:
        server_selector.close()
