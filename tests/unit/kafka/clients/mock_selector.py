"""Port of clients/src/test/java/org/apache/kafka/test/MockSelector.java (Kafka 3.7), with its ByteBufferChannel and
DelayedReceive helpers.

A Selectable without sockets for NetworkClient tests: connections succeed at once (unless a test blocks or
refuses them), sends complete on the next poll (their bytes kept for inspection), and receives are handed in by
the test, at once or after the next send to their node. poll(timeout) advances the MockTime by the timeout.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from kafka.common.errors import AuthenticationException
from kafka.common.network.channel_state import ChannelState
from kafka.common.network.inet_address import InetSocketAddress
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.selectable import Selectable
from kafka.common.network.transferable_channel import TransferableChannel
from kafka.common.protocol.types import Buffer
from kafka.common.utils.time import Time


class ByteBufferChannel(TransferableChannel):
    """Collects what a Send writes."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, buffers: Sequence[Buffer]) -> int:
        n = 0
        for b in buffers:
            self.data += b
            n += memoryview(b).nbytes
        return n

    def has_pending_writes(self) -> bool:
        return False

    def buffer(self) -> bytes:
        """The bytes written, without the 4-byte frame size."""
        return bytes(self.data[4:])


@dataclass(frozen=True, slots=True)
class DelayedReceive:
    source: str
    receive: NetworkReceive


class MockSelector(Selectable):
    def __init__(self, time: Time, can_connect: Callable[[InetSocketAddress], bool] | None = None) -> None:
        self._time = time
        self._initiated_sends: list[NetworkSend] = []
        self._completed_sends: list[NetworkSend] = []
        self._completed_send_buffers: list[ByteBufferChannel] = []
        self._completed_receives: list[NetworkReceive] = []
        self._disconnected: dict[str, ChannelState] = {}
        self._connected: list[str] = []
        self._delayed_receives: list[DelayedReceive] = []
        self._can_connect = can_connect
        self._ready: set[str] = set()

    def connect(self, id: str, address: InetSocketAddress, send_buffer_size: int, receive_buffer_size: int) -> None:
        if self._can_connect is None or self._can_connect(address):
            self._connected.append(id)
            self._ready.add(id)

    def wakeup(self) -> None:
        pass

    def close(self, id: str | None = None) -> None:
        if id is None:
            return
        # A client-side close is not reported as a disconnect.
        self._initiated_sends = [s for s in self._initiated_sends if s.destination_id() != id]
        self._completed_sends = [s for s in self._completed_sends if s.destination_id() != id]
        self._ready.discard(id)
        if id in self._connected:
            self._connected.remove(id)

    def server_connection_blocked(self, id: str) -> None:
        """Leaves connection `id` pending (as if the server never accepted it)."""
        if id in self._connected:
            self._connected.remove(id)

    def server_disconnect(self, id: str) -> None:
        """The server drops connection `id`: reported on the next poll."""
        self._disconnected[id] = ChannelState.READY
        self.close(id)

    def server_authentication_failed(self, id: str) -> None:
        self._disconnected[id] = ChannelState(
            ChannelState.State.AUTHENTICATION_FAILED, AuthenticationException("Authentication failed"), None
        )
        self.close(id)

    def clear(self) -> None:
        self._completed_sends.clear()
        self._completed_receives.clear()
        self._completed_send_buffers.clear()
        self._disconnected.clear()
        self._connected.clear()

    def send(self, send: NetworkSend) -> None:
        self._initiated_sends.append(send)

    def poll(self, timeout: int) -> None:
        for send in self._initiated_sends:
            channel = ByteBufferChannel()
            while not send.completed():
                send.write_to(channel)
            self._completed_sends.append(send)
            self._completed_send_buffers.append(channel)
        self._initiated_sends.clear()
        for completed in self._completed_sends:
            for delayed in list(self._delayed_receives):
                if delayed.source == completed.destination_id():
                    self._completed_receives.append(delayed.receive)
                    self._delayed_receives.remove(delayed)
        self._time.sleep(timeout)

    def completed_sends(self) -> list[NetworkSend]:
        return self._completed_sends

    def completed_send_buffers(self) -> list[ByteBufferChannel]:
        return self._completed_send_buffers

    def completed_receives(self) -> Collection[NetworkReceive]:
        return self._completed_receives

    def complete_receive(self, receive: NetworkReceive) -> None:
        self._completed_receives.append(receive)

    def delayed_receive(self, receive: DelayedReceive) -> None:
        self._delayed_receives.append(receive)

    def disconnected(self) -> Mapping[str, ChannelState]:
        return self._disconnected

    def connected(self) -> Sequence[str]:
        current = list(self._connected)
        self._connected.clear()
        return current

    def mute(self, id: str) -> None:
        pass

    def unmute(self, id: str) -> None:
        pass

    def mute_all(self) -> None:
        pass

    def unmute_all(self) -> None:
        pass

    def channel_not_ready(self, id: str) -> None:
        self._ready.discard(id)

    def is_channel_ready(self, id: str) -> bool:
        return id in self._ready

    def reset(self) -> None:
        self.clear()
        self._initiated_sends.clear()
        self._delayed_receives.clear()
