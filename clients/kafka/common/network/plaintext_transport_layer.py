"""Port of clients/src/main/java/org/apache/kafka/common/network/PlaintextTransportLayer.java (Kafka 3.7).

A non-blocking TCP socket with no handshake: reads and writes go straight to the socket, file transfers go from
the file to the socket with sendfile (zero copy).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence

from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.transport_layer import TransportLayer, finish_socket_connect
from kafka.common.protocol.types import Buffer

__all__ = ["PlaintextTransportLayer"]

# The most buffers one sendmsg takes (Linux IOV_MAX).
_IOV_MAX = 1024


class PlaintextTransportLayer(TransportLayer):
    __slots__ = ("_key", "_socket", "_connected")

    def __init__(self, key: SelectionKey) -> None:
        self._key = key
        self._socket = key.sock
        self._connected = False

    def ready(self) -> bool:
        return True

    def finish_connect(self) -> bool:
        """Checks the outcome of the non-blocking connect: raises ConnectionError (an OSError) if it failed."""
        if not finish_socket_connect(self._socket, self._key):
            return False
        self._connected = True
        return True

    def mark_connected(self) -> None:
        """Records a connect that succeeded immediately (finish_connect then only updates the interest set)."""
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

    def close(self) -> None:
        try:
            self._socket.close()
        finally:
            self._key.attach(None)
            self._key.cancel()

    def handshake(self) -> None:
        pass

    def read(self, buffer: memoryview) -> int:
        try:
            n = self._socket.recv_into(buffer)
        except (BlockingIOError, InterruptedError):
            return 0
        return n if n > 0 else -1

    def write(self, buffers: Sequence[Buffer]) -> int:
        if not buffers:
            return 0
        try:
            if len(buffers) == 1:
                return self._socket.send(buffers[0])
            return self._socket.sendmsg(buffers[:_IOV_MAX])
        except (BlockingIOError, InterruptedError):
            return 0

    def transfer_from(self, file_descriptor: int, position: int, count: int) -> int:
        try:
            return os.sendfile(self._socket.fileno(), file_descriptor, position, count)
        except (BlockingIOError, InterruptedError):
            return 0

    def has_pending_writes(self) -> bool:
        return False

    # The key's interest set is read as a field: these run for every request (its unmute) and response.
    def add_interest_ops(self, ops: int) -> None:
        key = self._key
        key.set_interest_ops(key._interest_ops | ops)

    def remove_interest_ops(self, ops: int) -> None:
        key = self._key
        key.set_interest_ops(key._interest_ops & ~ops)

    def is_mute(self) -> bool:
        return self._key.is_valid() and not (self._key.interest_ops() & SelectionKey.OP_READ)

    def has_bytes_buffered(self) -> bool:
        return False
