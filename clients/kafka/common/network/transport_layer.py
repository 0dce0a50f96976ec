"""Port of clients/src/main/java/org/apache/kafka/common/network/TransportLayer.java (Kafka 3.7).

The byte transport under a KafkaChannel: connecting, the handshake (none for plaintext), reading and writing,
and the interest set of its selection key. PlaintextTransportLayer is the only implementation so far.
"""

from __future__ import annotations

import abc
import errno
import socket

from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.transferable_channel import TransferableChannel

__all__ = ["TransportLayer", "finish_socket_connect"]


class TransportLayer(TransferableChannel):
    @abc.abstractmethod
    def ready(self) -> bool:
        """Whether the handshake (if any) is complete."""

    @abc.abstractmethod
    def finish_connect(self) -> bool:
        """Completes a non-blocking connect; True once connected, raises OSError if the connect failed."""

    @abc.abstractmethod
    def disconnect(self) -> None:
        """Drops the selection key's interest in events."""

    @abc.abstractmethod
    def is_connected(self) -> bool: ...

    @abc.abstractmethod
    def socket_channel(self) -> socket.socket: ...

    @abc.abstractmethod
    def selection_key(self) -> SelectionKey: ...

    @abc.abstractmethod
    def handshake(self) -> None: ...

    @abc.abstractmethod
    def read(self, buffer: memoryview) -> int:
        """Reads into `buffer`; returns the bytes read, 0 when none are available, -1 at end of stream."""

    @abc.abstractmethod
    def add_interest_ops(self, ops: int) -> None: ...

    @abc.abstractmethod
    def remove_interest_ops(self, ops: int) -> None: ...

    @abc.abstractmethod
    def is_mute(self) -> bool: ...

    @abc.abstractmethod
    def has_bytes_buffered(self) -> bool:
        """Whether bytes were read from the socket that the channel has not consumed yet."""

    @abc.abstractmethod
    def close(self) -> None: ...


def finish_socket_connect(sock: socket.socket, key: SelectionKey) -> bool:
    """The end of a non-blocking connect, shared by the transport layers: False while it is under way, True once
    it succeeded (the key then waits for reads instead of the connect); ConnectionError (an OSError) if it failed."""
    err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
    if err in (errno.EINPROGRESS, errno.EALREADY, errno.EWOULDBLOCK):
        return False
    if err != 0:
        raise ConnectionError(err, f"Connection failed: {errno.errorcode.get(err, err)}")
    ops = key.interest_ops()
    key.set_interest_ops((ops & ~SelectionKey.OP_CONNECT) | SelectionKey.OP_READ)
    return True
