"""Port of clients/src/main/java/org/apache/kafka/common/network/Selectable.java (Kafka 3.7).

The non-blocking multi-connection I/O a NetworkClient drives: connect, queue sends, poll, and read back what
completed, connected or disconnected during the poll.
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Mapping, Sequence

from kafka.common.network.channel_state import ChannelState
from kafka.common.network.inet_address import InetSocketAddress
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.network_send import NetworkSend

__all__ = ["Selectable"]


class Selectable(abc.ABC):
    USE_DEFAULT_BUFFER_SIZE = -1
    """A send/receive buffer size of -1 keeps the operating system's default."""

    @abc.abstractmethod
    def connect(self, id: str, address: InetSocketAddress, send_buffer_size: int, receive_buffer_size: int) -> None:
        """Starts connecting `address` as connection `id`; OSError if that fails at once."""

    @abc.abstractmethod
    def wakeup(self) -> None:
        """Makes a blocked poll return (callable from any thread)."""

    @abc.abstractmethod
    def close(self, id: str | None = None) -> None:
        """Closes connection `id` without reporting it as disconnected, or (without an id) everything."""

    @abc.abstractmethod
    def send(self, send: NetworkSend) -> None:
        """Queues `send` on its connection; it is written during the following polls."""

    @abc.abstractmethod
    def poll(self, timeout: int) -> None:
        """Does whatever I/O is possible, waiting up to `timeout` ms for some."""

    @abc.abstractmethod
    def completed_sends(self) -> Sequence[NetworkSend]: ...

    @abc.abstractmethod
    def completed_receives(self) -> Collection[NetworkReceive]: ...

    @abc.abstractmethod
    def disconnected(self) -> Mapping[str, ChannelState]: ...

    @abc.abstractmethod
    def connected(self) -> Sequence[str]: ...

    @abc.abstractmethod
    def mute(self, id: str) -> None: ...

    @abc.abstractmethod
    def unmute(self, id: str) -> None: ...

    @abc.abstractmethod
    def mute_all(self) -> None: ...

    @abc.abstractmethod
    def unmute_all(self) -> None: ...

    @abc.abstractmethod
    def is_channel_ready(self, id: str) -> bool: ...
