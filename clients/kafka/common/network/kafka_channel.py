"""Port of clients/src/main/java/org/apache/kafka/common/network/KafkaChannel.java (Kafka 3.7), client side.

One connection of a Selector: its transport, the frame being read, the send being written, its mute state and
its ChannelState.

PORT: no Authenticator (PLAINTEXT only, where Java's is a no-op), so a connected channel is ready at once and
re-authentication is absent; the broker-side mute events (response pending, throttled) are not needed here.
"""

from __future__ import annotations

import enum

from kafka.common.network.channel_state import ChannelState
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.transport_layer import TransportLayer

__all__ = ["KafkaChannel"]


class KafkaChannel:
    class ChannelMuteState(enum.Enum):
        NOT_MUTED = "NOT_MUTED"
        MUTED = "MUTED"

    __slots__ = (
        "_id",
        "_transport_layer",
        "_network_thread_time_nanos",
        "_max_receive_size",
        "_receive",
        "_send",
        "_disconnected",
        "_mute_state",
        "_state",
        "_remote_address",
        "_successful_authentications",
    )

    def __init__(self, id: str, transport_layer: TransportLayer, max_receive_size: int) -> None:
        self._id = id
        self._transport_layer = transport_layer
        self._network_thread_time_nanos = 0
        self._max_receive_size = max_receive_size
        self._receive: NetworkReceive | None = None
        self._send: NetworkSend | None = None
        self._disconnected = False
        self._mute_state = KafkaChannel.ChannelMuteState.NOT_MUTED
        self._state = ChannelState.NOT_CONNECTED
        self._remote_address: str | None = None
        self._successful_authentications = 0

    def close(self) -> None:
        self._disconnected = True
        try:
            self._transport_layer.close()
        finally:
            if self._receive is not None:
                self._receive.close()

    def prepare(self) -> None:
        """Completes the handshake (none for plaintext); the channel is then READY."""
        if not self._transport_layer.ready():
            self._transport_layer.handshake()
        if self.ready():
            self._successful_authentications += 1
            self._state = ChannelState.READY

    def disconnect(self) -> None:
        self._disconnected = True
        if self._state is ChannelState.NOT_CONNECTED and self._remote_address is not None:
            self._state = ChannelState(ChannelState.State.NOT_CONNECTED, None, self._remote_address)
        self._transport_layer.disconnect()

    def set_state(self, state: ChannelState) -> None:
        """PORT: Java's state(ChannelState) setter."""
        self._state = state

    def state(self) -> ChannelState:
        return self._state

    def set_remote_address(self, remote_address: str) -> None:
        """The address being connected to, as shown in disconnect reports (Java reads it from the socket)."""
        self._remote_address = remote_address

    def finish_connect(self) -> bool:
        """Completes a pending connect; OSError if it failed."""
        connected = self._transport_layer.finish_connect()
        if connected:
            if self.ready():
                self._state = ChannelState.READY
            elif self._remote_address is not None:
                self._state = ChannelState(ChannelState.State.AUTHENTICATE, None, self._remote_address)
            else:
                self._state = ChannelState.AUTHENTICATE
        return connected

    def is_connected(self) -> bool:
        return self._transport_layer.is_connected()

    def id(self) -> str:
        return self._id

    def selection_key(self) -> SelectionKey:
        return self._transport_layer.selection_key()

    def mute(self) -> None:
        if self._mute_state is KafkaChannel.ChannelMuteState.NOT_MUTED:
            if not self._disconnected:
                self._transport_layer.remove_interest_ops(SelectionKey.OP_READ)
            self._mute_state = KafkaChannel.ChannelMuteState.MUTED

    def maybe_unmute(self) -> bool:
        """Unmutes a muted channel; returns whether it is now unmuted."""
        if self._mute_state is KafkaChannel.ChannelMuteState.MUTED:
            if not self._disconnected:
                self._transport_layer.add_interest_ops(SelectionKey.OP_READ)
            self._mute_state = KafkaChannel.ChannelMuteState.NOT_MUTED
        return self._mute_state is KafkaChannel.ChannelMuteState.NOT_MUTED

    def mute_state(self) -> KafkaChannel.ChannelMuteState:
        return self._mute_state

    def is_muted(self) -> bool:
        return self._mute_state is not KafkaChannel.ChannelMuteState.NOT_MUTED

    def is_in_mutable_state(self) -> bool:
        if self._receive is None or self._receive.memory_allocated():
            return False
        return self._transport_layer.ready()

    def ready(self) -> bool:
        return self._transport_layer.ready()

    def has_send(self) -> bool:
        return self._send is not None

    def socket_description(self) -> str:
        """The peer address for log lines."""
        if self._remote_address is not None:
            return self._remote_address
        try:
            host, port = self._transport_layer.socket_channel().getsockname()[:2]
            return f"/{host}:{port}"
        except OSError:
            return "unconnected"

    def set_send(self, send: NetworkSend) -> None:
        if self._send is not None:
            raise RuntimeError(
                "Attempt to begin a send operation with prior send operation still in progress, connection id is "
                + self._id
            )
        self._send = send
        self._transport_layer.add_interest_ops(SelectionKey.OP_WRITE)

    def maybe_complete_send(self) -> NetworkSend | None:
        send = self._send
        if send is not None and send.completed():
            self._transport_layer.remove_interest_ops(SelectionKey.OP_WRITE)
            self._send = None
            return send
        return None

    def read(self) -> int:
        if self._receive is None:
            self._receive = NetworkReceive(self._max_receive_size, self._id)
        return self._receive.read_from(self._transport_layer)

    def current_receive(self) -> NetworkReceive | None:
        return self._receive

    def maybe_complete_receive(self) -> NetworkReceive | None:
        receive = self._receive
        if receive is not None and receive.complete():
            self._receive = None
            return receive
        return None

    def write(self) -> int:
        send = self._send
        if send is None:
            return 0
        return send.write_to(self._transport_layer)

    def add_network_thread_time_nanos(self, nanos: int) -> None:
        self._network_thread_time_nanos += nanos

    def get_and_reset_network_thread_time_nanos(self) -> int:
        current = self._network_thread_time_nanos
        self._network_thread_time_nanos = 0
        return current

    def has_bytes_buffered(self) -> bool:
        return self._transport_layer.has_bytes_buffered()

    def successful_authentications(self) -> int:
        return self._successful_authentications

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KafkaChannel) and other._id == self._id

    def __hash__(self) -> int:
        return hash(self._id)

    def __repr__(self) -> str:
        return f"KafkaChannel id={self._id}"
