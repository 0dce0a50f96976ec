"""Tests of kafka.common.network.selector (from Kafka's SelectorTest) against a real local socket server: connect,
size-prefixed sends and receives of any size, refused connections, peers going away, the receive size limit,
muting, idle expiry, wakeup and closing."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable, Iterator

import pytest

from kafka.common.network.byte_buffer_send import ByteBufferSend
from kafka.common.network.channel_state import ChannelState
from kafka.common.network.inet_address import InetAddress, InetSocketAddress
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.selectable import Selectable
from kafka.common.network.selector import Selector
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
