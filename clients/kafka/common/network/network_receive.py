"""Port of clients/src/main/java/org/apache/kafka/common/network/NetworkReceive.java (Kafka 3.7).

One size-prefixed frame being read: first the 4-byte size, then that many bytes. A size above the maximum (or
negative) fails the connection with InvalidReceiveException before anything is allocated. The payload's bytearray
is allocated once the size is known and the MemoryPool grants it (the clients use MemoryPool.NONE, a broker the
pool of queued.max.request.bytes); until then the receive waits with its size known and no memory allocated.
Closing a receive that is not complete gives its bytes back to the pool; the bytes of a complete receive belong
to whoever took its payload (a broker's Request releases them when it is done).

The clients' selectors take their large buffers from a ReceiveBufferPool (see there): the payload of such a frame
is a memoryview of a buffer that an earlier frame used, once nothing refers to that buffer any longer.
"""

from __future__ import annotations

import select
import socket
import struct
import sys
import time

from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.invalid_receive_exception import InvalidReceiveException
from kafka.common.network.plaintext_transport_layer import PlaintextTransportLayer
from kafka.common.network.receive import Receive
from kafka.common.network.transport_layer import TransportLayer

__all__ = ["NetworkReceive", "ReceiveBufferPool"]

_SIZE = struct.Struct(">i")
_MAX_LONG = 2**63 - 1
#: How long (ms) a large client frame's receive waits in place for the next bytes before it gives up (read_from).
_IN_PLACE_WAIT_MS = 1
#: How long (ns) one read_from may spend waiting in place in all, however the bytes trickle in.
_IN_PLACE_WAIT_TOTAL_NS = 10_000_000
#: Whether read_from may raise a socket's receive low-water mark. Linux only: there a read returns what is waiting
#: whatever the mark; elsewhere (BSD, macOS) a non-blocking read under the mark finds nothing, which would turn each
#: large frame's wait into a timeout.
_LOW_WATER_MARK_SUPPORTED = sys.platform.startswith("linux") and hasattr(socket, "SO_RCVLOWAT")


def _set_low_water(channel: TransportLayer, size: int) -> int:
    """Sets the receive low-water mark (SO_RCVLOWAT) of the channel's socket; returns the mark now in force (1, the
    default, when the socket refuses it, as a closed one does: the next read then says what is wrong)."""
    try:
        channel.socket_channel().setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, size)
    except OSError:
        return 1
    return size


def _refs_of_a_free_buffer() -> int:
    """What sys.getrefcount says in ReceiveBufferPool.buffer's loop of a pooled buffer that nothing else refers to
    (the pool's list, the loop's variable and the call's argument)."""
    buffers = [bytearray(1)]
    for buffer in buffers:
        return sys.getrefcount(buffer)
    raise AssertionError


class ReceiveBufferPool(MemoryPool):
    """The clients' pool: a large frame is received into a buffer that an earlier frame used, when nothing refers to
    that buffer any longer.

    # PORT: Java's clients receive with MemoryPool.NONE, each response into a new ByteBuffer that the garbage
    # collector reclaims. In CPython a new bytearray of a fetch response's few MB is zero-filled and then faulted in
    # by the kernel page by page (malloc maps such blocks afresh), which took a third of the consumer's CPU at 10 KB
    # records. A buffer is reused only when CPython's reference count shows that nothing but this pool holds it: no
    # response, record batch or memoryview (each view holds its buffer) is left of the frame it last received, so
    # nothing a user holds can see its bytes change. Records handed to the user are copies in any case. Accounting is
    # MemoryPool.NONE's: nothing is counted and the pool never runs out.
    #
    # PORT: a block of each new largest frame size is allocated and freed once, unused, before the pooled buffer is
    # made. Without the pool every response buffer was freed, and glibc's malloc, on freeing such a block (mapped, as
    # it is above 128 KB), raises its mmap threshold to the block's size and its trim threshold to twice that. The
    # pool frees nothing, so the thresholds stayed at their start (128 KB): the top of the heap was given back to the
    # kernel whenever 128 KB of it was free and faulted in again, page by page, for the next fetch's records (each
    # value a bytes object of its own from malloc), about a fifth of the consumer's CPU at 10 KB records. A JVM
    # keeps its heap too. The block is made with bytes(size), which glibc's calloc maps without touching a page."""

    #: Frames below this size get a new bytearray, as with MemoryPool.NONE.
    MIN_POOLED_SIZE = 128 * 1024
    #: How many buffers the pool keeps: a response's records may still be buffered when the next one is received.
    MAX_BUFFERS = 3

    _FREE_REFS = _refs_of_a_free_buffer()

    __slots__ = ("_buffers", "_largest", "wait_in_place", "low_water_mark")

    def __init__(self, low_water_mark: bool = True) -> None:
        self._buffers: list[bytearray] = []
        self._largest = 0
        #: Whether a large frame's receive may wait in place for its next bytes (NetworkReceive.read_from): the
        #: Selector given this pool sets it in each poll to whether that poll may block.
        self.wait_in_place = True
        #: Whether that wait may raise the socket's receive low-water mark (read_from says why). Only for sockets
        #: whose receive buffer was sized (SO_RCVBUF, from a receive buffer setting other than -1): the kernel then
        #: caps the mark at half that buffer; where the kernel sizes the buffer itself, it would grow the buffer to
        #: fit the mark, for the life of the connection.
        self.low_water_mark = low_water_mark and _LOW_WATER_MARK_SUPPORTED

    def buffer(self, size: int) -> bytearray | memoryview:
        """A writable buffer of exactly `size` bytes, its content undefined."""
        if size < self.MIN_POOLED_SIZE:
            return bytearray(size)
        buffers = self._buffers
        free_refs = self._FREE_REFS
        too_small = None
        # The loop must read the count as _refs_of_a_free_buffer does.
        for buffer in buffers:
            if sys.getrefcount(buffer) == free_refs:
                if len(buffer) >= size:
                    return memoryview(buffer)[:size]
                too_small = buffer
        if size > self._largest:
            # Freed once, a block of this size sets glibc's dynamic thresholds (see the class notes).
            self._largest = size
            bytes(size)
        new = bytearray(size)
        if too_small is not None:
            buffers[buffers.index(too_small)] = new  # a free buffer too small for this frame gives way
        elif len(buffers) < self.MAX_BUFFERS:
            buffers.append(new)
        return memoryview(new)

    def try_allocate(self, size_bytes: int) -> bool:
        return True

    def release(self, size_bytes: int) -> None:
        return None

    def size(self) -> int:
        return _MAX_LONG

    def available_memory(self) -> int:
        return _MAX_LONG

    def is_out_of_memory(self) -> bool:
        return False


class NetworkReceive(Receive):
    UNKNOWN_SOURCE = ""
    UNLIMITED = -1

    __slots__ = ("_source", "_size", "_size_view", "_size_read", "_max_size", "_requested_buffer_size", "_buffer",
                 "_buffer_view", "_buffer_read", "_memory_pool")  # fmt: skip

    def __init__(
        self,
        max_size: int = UNLIMITED,
        source: str = UNKNOWN_SOURCE,
        payload: bytes | None = None,
        memory_pool: MemoryPool = MemoryPool.NONE,
    ) -> None:
        """A receive of at most `max_size` bytes from `source`, its buffer granted by `memory_pool`; with `payload`,
        one already complete."""
        self._source = source
        self._memory_pool = memory_pool
        self._size = bytearray(4)
        self._size_view = memoryview(self._size)
        self._size_read = 0
        self._max_size = max_size
        self._requested_buffer_size = -1
        self._buffer: bytearray | bytes | memoryview | None = None
        self._buffer_view: memoryview | None = None
        self._buffer_read = 0
        if payload is not None:
            self._size_read = 4
            _SIZE.pack_into(self._size, 0, len(payload))
            self._requested_buffer_size = len(payload)
            self._buffer = payload
            self._buffer_read = len(payload)

    def source(self) -> str:
        return self._source

    def complete(self) -> bool:
        return self._size_read == 4 and self._buffer is not None and self._buffer_read == self._requested_buffer_size

    def read_from(self, channel: TransportLayer) -> int:
        """Reads what the channel has for this frame; returns the bytes read. EOFError at end of stream."""
        read = 0
        size_read = self._size_read
        if size_read < 4:
            n = channel.read(self._size_view[size_read:] if size_read else self._size_view)
            if n < 0:
                raise EOFError()
            read += n
            size_read = self._size_read = size_read + n
            if size_read == 4:
                receive_size = _SIZE.unpack(self._size)[0]
                if receive_size < 0:
                    raise InvalidReceiveException(f"Invalid receive (size = {receive_size})")
                if self._max_size != self.UNLIMITED and receive_size > self._max_size:
                    raise InvalidReceiveException(
                        f"Invalid receive (size = {receive_size} larger than {self._max_size})"
                    )
                self._requested_buffer_size = receive_size
                if receive_size == 0:
                    self._buffer = b""
        requested = self._requested_buffer_size
        if self._buffer is None and requested != -1:
            # Taken from the pool only now, so that a connection waiting for memory holds none.
            memory_pool = self._memory_pool
            if isinstance(memory_pool, ReceiveBufferPool):
                buffer = memory_pool.buffer(requested)
                self._buffer = buffer
                self._buffer_view = buffer if buffer.__class__ is memoryview else memoryview(buffer)
            else:
                if memory_pool is not MemoryPool.NONE and not memory_pool.try_allocate(requested):
                    return read
                self._buffer = bytearray(requested)
                self._buffer_view = memoryview(self._buffer)
        view = self._buffer_view
        if view is None:
            return read
        # PORT: Java reads once per call; reading on until the socket has nothing more (or the frame is whole)
        # takes a large frame in far fewer polls, which matters at Python's cost per poll.
        # PORT: and a large frame of a client's (received into a ReceiveBufferPool buffer, over a plaintext socket)
        # waits here for its next bytes, at most _IN_PLACE_WAIT_MS at a time, before going back to the selector. Such a
        # frame (a fetch response of a few MB) arrives in rounds paced by the sender's send buffer; going back through
        # the selector and the client's poll between two rounds cost the consumer about 150 us of CPU each time,
        # longer than the broker took to send the next round. When nothing comes within the wait (a slow sender), or
        # once the call has waited _IN_PLACE_WAIT_TOTAL_NS in all (a sender trickling the frame, which would otherwise
        # hold the poll, its timeout, the client's lock and its other connections for the whole frame), the receive
        # returns as before and the poll goes on; the broker's Processor and any other pool never wait, and neither
        # does a poll that may not block (the pool's wait_in_place, which the Selector sets: a consumer's
        # transmit_sends after it sends the next Fetch, Java's client.poll(0), reads what has come and returns, so
        # that the records of the last response go to the application while the next one arrives).
        # While such a frame is read, the socket's low-water mark (SO_RCVLOWAT, which the kernel caps at half the
        # receive buffer; Linux only, and only on a socket whose receive buffer was sized: the pool's
        # low_water_mark) is the rest of the frame, and 1 (the default) again before the call returns: while less
        # than that is waiting, the kernel acknowledges what arrives as it arrives instead of when it is read, so
        # the sender's next round does not wait for our read of the last one (each such read also woke the sender),
        # and a wait ends when the rest is there. A 3 MB fetch response then comes in about 3 reads instead of 13.
        # Should the rest not come within one wait, the mark goes back to 1 and the wait goes on as above.
        memory_pool = self._memory_pool
        wait = (
            channel.__class__ is PlaintextTransportLayer
            and requested >= ReceiveBufferPool.MIN_POOLED_SIZE
            and isinstance(memory_pool, ReceiveBufferPool)
            and memory_pool.wait_in_place
        )
        poller = None
        wait_until = 0
        buffer_read = self._buffer_read
        low_water = 1
        if wait and requested - buffer_read > 1 and memory_pool.low_water_mark:  # type: ignore[attr-defined]
            low_water = _set_low_water(channel, requested - buffer_read)
        try:
            while buffer_read < requested:
                n = channel.read(view[buffer_read:] if buffer_read else view)
                if n < 0:
                    raise EOFError()
                if n == 0:
                    if not wait:
                        break
                    if poller is None:
                        poller = select.poll()
                        poller.register(channel.socket_channel(), select.POLLIN)
                        wait_until = time.monotonic_ns() + _IN_PLACE_WAIT_TOTAL_NS
                    if low_water > 1 and low_water != requested - buffer_read:
                        low_water = _set_low_water(channel, requested - buffer_read)
                    # Readable, closed or failed: the next read says which.
                    if poller.poll(_IN_PLACE_WAIT_MS):
                        if time.monotonic_ns() < wait_until:
                            continue
                        break
                    if low_water > 1:
                        # The rest did not come within the wait: take what did, and wait for any bytes from now on.
                        low_water = _set_low_water(channel, 1)
                        if time.monotonic_ns() < wait_until:
                            continue
                    break
                read += n
                buffer_read += n
        finally:
            self._buffer_read = buffer_read
            if low_water > 1:
                _set_low_water(channel, 1)
        return read

    def required_memory_amount_known(self) -> bool:
        return self._requested_buffer_size != -1

    def memory_allocated(self) -> bool:
        return self._buffer is not None

    def close(self) -> None:
        """Gives the buffer of an unfinished frame back to the pool."""
        if self._buffer_view is not None and not self.complete():
            self._memory_pool.release(self._requested_buffer_size)
            self._buffer = None
        self._buffer_view = None

    def payload(self) -> bytes | bytearray | memoryview | None:
        """The frame's bytes (without the size prefix), once allocated; a broker's log layer may patch the bytearray
        in place. A memoryview for a frame received into a ReceiveBufferPool's buffer."""
        return self._buffer

    def bytes_read(self) -> int:
        return self._size_read + self._buffer_read

    def size(self) -> int:
        """The frame's size including the 4-byte prefix."""
        payload = self._buffer
        return (0 if payload is None else len(payload)) + 4
