"""Port of clients/src/main/java/org/apache/kafka/common/network/NetworkReceive.java (Kafka 3.7).

One size-prefixed frame being read: first the 4-byte size, then that many bytes. A size above the maximum (or
negative) fails the connection with InvalidReceiveException before anything is allocated. The payload's bytearray
is allocated once the size is known and the MemoryPool grants it (the clients use MemoryPool.NONE, a broker the
pool of queued.max.request.bytes); until then the receive waits with its size known and no memory allocated.
Closing a receive that is not complete gives its bytes back to the pool; the bytes of a complete receive belong
to whoever took its payload (a broker's Request releases them when it is done).
"""

from __future__ import annotations

import struct

from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.invalid_receive_exception import InvalidReceiveException
from kafka.common.network.receive import Receive
from kafka.common.network.transport_layer import TransportLayer

__all__ = ["NetworkReceive"]

_SIZE = struct.Struct(">i")


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
        self._buffer: bytearray | bytes | None = None
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
            if memory_pool is not MemoryPool.NONE and not memory_pool.try_allocate(requested):
                return read
            self._buffer = bytearray(requested)
            self._buffer_view = memoryview(self._buffer)
        view = self._buffer_view
        if view is None:
            return read
        # PORT: Java reads once per call; reading on until the socket has nothing more (or the frame is whole)
        # takes a large frame in far fewer polls, which matters at Python's cost per poll.
        buffer_read = self._buffer_read
        while buffer_read < requested:
            n = channel.read(view[buffer_read:] if buffer_read else view)
            if n < 0:
                self._buffer_read = buffer_read
                raise EOFError()
            if n == 0:
                break
            read += n
            buffer_read += n
        self._buffer_read = buffer_read
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

    def payload(self) -> bytes | bytearray | None:
        """The frame's bytes (without the size prefix), once allocated; a broker's log layer may patch the bytearray
        in place."""
        return self._buffer

    def bytes_read(self) -> int:
        return self._size_read + self._buffer_read

    def size(self) -> int:
        """The frame's size including the 4-byte prefix."""
        payload = self._buffer
        return (0 if payload is None else len(payload)) + 4
