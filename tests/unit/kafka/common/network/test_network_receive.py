"""NetworkReceive's buffers from a ReceiveBufferPool (the clients' pool): a large frame reuses a buffer that nothing
refers to any longer, and never one whose bytes something can still see."""

from __future__ import annotations

import select
import selectors
import socket
import struct
import threading
import time

import pytest

from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.network_receive import NetworkReceive, ReceiveBufferPool
from kafka.common.network.plaintext_transport_layer import PlaintextTransportLayer
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.transport_layer import TransportLayer

LARGE = ReceiveBufferPool.MIN_POOLED_SIZE


class _Channel:
    """A transport layer that hands out `data` in reads of at most `chunk` bytes."""

    def __init__(self, data: bytes, chunk: int = 64 * 1024) -> None:
        self._data = data
        self._pos = 0
        self._chunk = chunk

    def read(self, dst: memoryview) -> int:
        n = min(len(dst), self._chunk, len(self._data) - self._pos)
        dst[:n] = self._data[self._pos : self._pos + n]
        self._pos += n
        return n


def _frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def _receive(pool: MemoryPool, payload: bytes) -> NetworkReceive:
    receive = NetworkReceive(source="0", memory_pool=pool)
    channel = _Channel(_frame(payload))
    while not receive.complete():
        assert receive.read_from(channel) > 0  # type: ignore[arg-type]
    return receive


def _backing(buffer: bytes | bytearray | memoryview | None) -> object:
    assert isinstance(buffer, memoryview)
    return buffer.obj


def test_small_frames_get_a_new_bytearray() -> None:
    pool = ReceiveBufferPool()
    receive = _receive(pool, b"abc" * 10)
    payload = receive.payload()
    assert isinstance(payload, bytearray)
    assert payload == b"abc" * 10
    assert receive.size() == 34


def test_a_large_frame_reuses_a_buffer_nothing_refers_to() -> None:
    pool = ReceiveBufferPool()
    first = _receive(pool, b"a" * (2 * LARGE))
    backing_id = id(_backing(first.payload()))
    del first
    second = _receive(pool, b"b" * (LARGE + 5))
    payload = second.payload()
    assert id(_backing(payload)) == backing_id
    assert bytes(payload) == b"b" * (LARGE + 5)  # type: ignore[arg-type]
    assert len(payload) == LARGE + 5  # type: ignore[arg-type]
    assert second.size() == LARGE + 9


def test_a_buffer_is_not_reused_while_a_view_of_it_lives() -> None:
    pool = ReceiveBufferPool()
    first = _receive(pool, b"a" * LARGE)
    payload = first.payload()
    assert payload is not None
    records_view = memoryview(payload)[100:200]  # what a MemoryRecords of the response would hold
    backing_id = id(_backing(payload))
    del first, payload
    second = _receive(pool, b"b" * LARGE)
    assert id(_backing(second.payload())) != backing_id
    assert bytes(records_view) == b"a" * 100
    del records_view, second
    third = _receive(pool, b"c" * LARGE)
    assert bytes(third.payload()) == b"c" * LARGE  # type: ignore[arg-type]


def test_a_free_buffer_too_small_gives_way_and_the_pool_stays_bounded() -> None:
    pool = ReceiveBufferPool()
    held = [_receive(pool, b"x" * LARGE) for _ in range(ReceiveBufferPool.MAX_BUFFERS + 2)]
    assert len(pool._buffers) == ReceiveBufferPool.MAX_BUFFERS
    assert all(bytes(r.payload()) == b"x" * LARGE for r in held)  # type: ignore[arg-type]
    del held
    bigger = _receive(pool, b"y" * (3 * LARGE))
    assert len(pool._buffers) == ReceiveBufferPool.MAX_BUFFERS
    assert any(b is _backing(bigger.payload()) for b in pool._buffers)
    assert bytes(bigger.payload()) == b"y" * (3 * LARGE)  # type: ignore[arg-type]


def test_the_pool_never_runs_out() -> None:
    pool = ReceiveBufferPool()
    assert pool.try_allocate(2**40)
    assert not pool.is_out_of_memory()
    pool.release(2**40)
    assert pool.available_memory() == pool.size()


def _plaintext_pair() -> tuple[socket.socket, PlaintextTransportLayer, selectors.DefaultSelector]:
    """A connected socket pair: the sending end, and the receiving end as a plaintext transport layer."""
    sender, receiver = socket.socketpair()
    receiver.setblocking(False)
    nio_selector = selectors.DefaultSelector()
    transport = PlaintextTransportLayer(SelectionKey(receiver, nio_selector, SelectionKey.OP_READ))
    return sender, transport, nio_selector


def test_a_large_frame_whose_sender_pauses_returns_what_came_and_completes_later() -> None:
    # The in-place wait for a large client frame's next bytes is bounded: a sender that stops half-way leaves the
    # receive incomplete (it returns to the selector), and the rest completes it with the right bytes.
    payload = bytes(range(256)) * (LARGE // 128)
    frame = _frame(payload)
    sender, transport, nio_selector = _plaintext_pair()
    try:
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool())
        half = len(frame) // 2
        sender.sendall(frame[:half])
        read = 0
        while read < half:
            read += receive.read_from(transport)
        assert read == half
        assert not receive.complete()
        sender.sendall(frame[half:])
        while not receive.complete():
            read += receive.read_from(transport)
        assert read == len(frame)
        assert receive.payload() == payload
    finally:
        sender.close()
        transport.close()
        nio_selector.close()


def test_a_large_frame_trickling_in_returns_to_the_selector_before_it_is_whole() -> None:
    # However the bytes keep coming, one read_from waits in place for a bounded time in all: a 1 MiB frame sent 4 KiB
    # at a time with a pause after each (at least 128 ms in all) takes more than one call, and arrives whole.
    payload = bytes(range(256)) * (4 * LARGE // 256 * 2)
    frame = _frame(payload)
    sender, transport, nio_selector = _plaintext_pair()

    def trickle() -> None:
        for i in range(0, len(frame), 4096):
            sender.sendall(frame[i : i + 4096])
            time.sleep(0.0005)

    thread = threading.Thread(target=trickle, name="trickling-sender")
    thread.start()
    try:
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool())
        calls = 0
        while not receive.complete():
            receive.read_from(transport)
            calls += 1
        assert calls > 1
        assert receive.payload() == payload
    finally:
        thread.join(30)
        sender.close()
        transport.close()
        nio_selector.close()


def test_a_large_frame_whose_sender_closes_half_way_fails_with_eof() -> None:
    frame = _frame(b"x" * (2 * LARGE))
    sender, transport, nio_selector = _plaintext_pair()
    try:
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool())
        sender.sendall(frame[: LARGE // 2])
        sender.close()
        with pytest.raises(EOFError):
            while True:
                receive.read_from(transport)
        assert not receive.complete()
    finally:
        transport.close()
        nio_selector.close()


def _tcp_pair() -> tuple[socket.socket, PlaintextTransportLayer, selectors.DefaultSelector]:
    """As _plaintext_pair, over TCP on the loopback interface (the low-water mark is TCP's)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        sender = socket.create_connection(server.getsockname())
        receiver, _ = server.accept()
    receiver.setblocking(False)
    nio_selector = selectors.DefaultSelector()
    transport = PlaintextTransportLayer(SelectionKey(receiver, nio_selector, SelectionKey.OP_READ))
    return sender, transport, nio_selector


def _low_water(transport: PlaintextTransportLayer) -> int:
    return transport.socket_channel().getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT)


def test_the_receive_low_water_mark_is_the_default_again_whenever_read_from_returns() -> None:
    # While a large frame is read its socket's low-water mark is the rest of the frame; on return (whole, waiting
    # for a paused sender, or at the end of the stream) it is 1 again, so the selector sees the next bytes at once.
    payload = bytes(range(256)) * (4 * LARGE // 256)
    frame = _frame(payload)
    sender, transport, nio_selector = _tcp_pair()
    try:
        assert _low_water(transport) == 1
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool())
        half = len(frame) // 2
        sender.sendall(frame[:half])
        read = 0
        while read < half:
            read += receive.read_from(transport)
            assert _low_water(transport) == 1
        assert not receive.complete()
        # A paused sender's next bytes, fewer than the rest of the frame, wake the selector.
        sender.sendall(frame[half : half + 10])
        assert nio_selector.select(10)
        while read < half + 10:
            read += receive.read_from(transport)
        assert _low_water(transport) == 1

        def send_rest() -> None:
            for i in range(half + 10, len(frame), 64 * 1024):
                sender.sendall(frame[i : i + 64 * 1024])

        thread = threading.Thread(target=send_rest, name="sender")
        thread.start()
        try:
            while not receive.complete():
                receive.read_from(transport)
                assert _low_water(transport) == 1
        finally:
            thread.join(30)
        assert receive.payload() == payload
        # The next frame's first bytes wake the selector too.
        sender.sendall(b"\x00\x00")
        assert nio_selector.select(10)
        sender.close()
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool())
        with pytest.raises(EOFError):
            while True:
                receive.read_from(transport)
        assert _low_water(transport) == 1
    finally:
        sender.close()
        transport.close()
        nio_selector.close()


def test_the_low_water_mark_is_the_default_again_after_eof_in_the_middle_of_a_frame() -> None:
    # The mark is raised for the rest of a large frame; the sender closing half-way through still ends the receive
    # with EOFError, and leaves the mark at 1.
    frame = _frame(b"x" * (4 * LARGE))
    sender, transport, nio_selector = _tcp_pair()
    try:
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool())
        sender.sendall(frame[: 2 * LARGE])
        read = 0
        while read < 2 * LARGE:
            read += receive.read_from(transport)
        sender.sendall(frame[2 * LARGE : 3 * LARGE])
        sender.close()
        with pytest.raises(EOFError):
            while True:
                receive.read_from(transport)
        assert _low_water(transport) == 1
    finally:
        sender.close()
        transport.close()
        nio_selector.close()


def test_a_pool_without_the_low_water_mark_never_raises_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pool for sockets whose receive buffer the kernel sizes (a receive buffer setting of -1) leaves the mark alone:
    # the kernel would grow such a buffer to fit the mark. The frame still arrives whole.
    import kafka.common.network.network_receive as network_receive

    marks: list[int] = []
    set_low_water = network_receive._set_low_water

    def marking_set_low_water(channel: TransportLayer, size: int) -> int:
        marks.append(size)
        return set_low_water(channel, size)

    monkeypatch.setattr(network_receive, "_set_low_water", marking_set_low_water)
    payload = bytes(range(256)) * (4 * LARGE // 256)
    frame = _frame(payload)
    sender, transport, nio_selector = _tcp_pair()
    try:
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool(low_water_mark=False))
        thread = threading.Thread(target=sender.sendall, args=(frame,), name="sender")
        thread.start()
        try:
            while not receive.complete():
                receive.read_from(transport)
        finally:
            thread.join(30)
        assert receive.payload() == payload
        assert marks == []
        # The same frame into a pool that may raise it does (on Linux).
        receive = NetworkReceive(source="0", memory_pool=ReceiveBufferPool())
        sender.sendall(frame[: LARGE // 2])
        while receive.read_from(transport) == 0:
            pass
        assert bool(marks) == network_receive._LOW_WATER_MARK_SUPPORTED
    finally:
        sender.close()
        transport.close()
        nio_selector.close()


def test_a_poll_that_may_not_block_reads_what_has_come_of_a_large_frame_and_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With the pool's wait_in_place off (a NetworkClient's poll that may not block) a large frame's receive never
    # waits in place: it reads what has come and returns; with it on again the rest completes the frame.
    import kafka.common.network.network_receive as network_receive

    waits: list[int] = []

    class _Select:
        POLLIN = select.POLLIN

        @staticmethod
        def poll() -> select.poll:
            waits.append(1)
            return select.poll()

    monkeypatch.setattr(network_receive, "select", _Select)
    payload = bytes(range(256)) * (4 * LARGE // 256)
    frame = _frame(payload)
    sender, transport, nio_selector = _tcp_pair()
    try:
        pool = ReceiveBufferPool()
        pool.wait_in_place = False
        receive = NetworkReceive(source="0", memory_pool=pool)
        half = len(frame) // 2
        sender.sendall(frame[:half])
        read = 0
        while read < half:
            read += receive.read_from(transport)
        assert read == half
        assert receive.read_from(transport) == 0
        assert not receive.complete()
        assert not waits
        pool.wait_in_place = True
        sender.sendall(frame[half:])
        while not receive.complete():
            receive.read_from(transport)
        assert receive.payload() == payload
    finally:
        sender.close()
        transport.close()
        nio_selector.close()
