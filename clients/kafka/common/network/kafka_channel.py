"""Port of clients/src/main/java/org/apache/kafka/common/network/KafkaChannel.java (Kafka 3.7).

One connection of a Selector: its transport, its authenticator, the frame being read (its buffer granted by the
Selector's MemoryPool), the send being written, its mute state and its ChannelState. A broker's channels also
carry the peer's address taken at accept time, the client software the peer announced, and the network thread
time spent on them (for request quotas).

The mute state: a channel is MUTED while it may not be read, by its Selector's user (a broker's Processor mutes a
connection while a request of it is in flight, so that its responses keep the order of its requests) or by
itself when the MemoryPool cannot give it a buffer. The Processor's events move a muted channel between
MUTED_AND_RESPONSE_PENDING, MUTED_AND_THROTTLED(_AND_RESPONSE_PENDING) and MUTED; only a MUTED channel can be
unmuted.

# PORT: muting only records the state; the read interest is dropped by the Selector when the muted channel turns
# out to be readable (see Selector), so that muting and unmuting a connection whose client waits quietly for its
# answer costs no system call.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from kafka.common.errors import AuthenticationException
from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.authenticator import Authenticator
from kafka.common.network.channel_state import ChannelState
from kafka.common.network.client_information import ClientInformation
from kafka.common.network.delayed_response_authentication_exception import DelayedResponseAuthenticationException
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.transport_layer import TransportLayer
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["KafkaChannel"]


class KafkaChannel:
    class ChannelMuteState(enum.Enum):
        """NOT_MUTED: read as usual. MUTED: not read, may be unmuted. MUTED_AND_RESPONSE_PENDING: a request is being
        served. MUTED_AND_THROTTLED: the response went out but the client is throttled.
        MUTED_AND_THROTTLED_AND_RESPONSE_PENDING: both."""

        NOT_MUTED = "NOT_MUTED"
        MUTED = "MUTED"
        MUTED_AND_RESPONSE_PENDING = "MUTED_AND_RESPONSE_PENDING"
        MUTED_AND_THROTTLED = "MUTED_AND_THROTTLED"
        MUTED_AND_THROTTLED_AND_RESPONSE_PENDING = "MUTED_AND_THROTTLED_AND_RESPONSE_PENDING"

    class ChannelMuteEvent(enum.Enum):
        REQUEST_RECEIVED = "REQUEST_RECEIVED"
        RESPONSE_SENT = "RESPONSE_SENT"
        THROTTLE_STARTED = "THROTTLE_STARTED"
        THROTTLE_ENDED = "THROTTLE_ENDED"

    __slots__ = (
        "_id",
        "_transport_layer",
        "_authenticator",
        "_network_thread_time_nanos",
        "_max_receive_size",
        "_memory_pool",
        "_receive",
        "_send",
        "_disconnected",
        "_mute_state",
        "_state",
        "_remote_address",
        "_socket_address",
        "_socket_port",
        "_successful_authentications",
        "_ready",
        "_authenticator_creator",
        "_last_reauthentication_start_nanos",
        "client_information",
    )

    def __init__(
        self,
        id: str,
        transport_layer: TransportLayer,
        authenticator: Authenticator,
        max_receive_size: int,
        memory_pool: MemoryPool = MemoryPool.NONE,
    ) -> None:
        self._id = id
        self._transport_layer = transport_layer
        self._authenticator = authenticator
        self._network_thread_time_nanos = 0
        self._max_receive_size = max_receive_size
        self._memory_pool = memory_pool
        self._receive: NetworkReceive | None = None
        self._send: NetworkSend | None = None
        self._disconnected = False
        self._mute_state = _NOT_MUTED
        self._state = ChannelState.NOT_CONNECTED
        self._remote_address: str | None = None
        self._socket_address: str | None = None
        self._socket_port = -1
        self._successful_authentications = 0
        # Set once the transport's handshake and the authentication are complete, so that ready() need not ask them
        # again on every poll; only a re-authentication (KIP-368) clears it.
        self._ready = False
        # Makes the authenticator of a re-authentication (KIP-368; SASL only, set by SaslChannelBuilder).
        self._authenticator_creator: Callable[[], Authenticator] | None = None
        self._last_reauthentication_start_nanos = 0
        # PORT: Java keeps this in the channel's ChannelMetadataRegistry; the broker sets it from ApiVersions.
        self.client_information = ClientInformation.EMPTY

    def close(self) -> None:
        self._disconnected = True
        try:
            self._transport_layer.close()
        finally:
            try:
                self._authenticator.close()
            finally:
                if self._receive is not None:
                    self._receive.close()

    def principal(self) -> KafkaPrincipal:
        return self._authenticator.principal()

    def prepare(self) -> None:
        """Takes the transport's handshake, then the authentication, as far as they go now; the channel is READY
        once both are complete."""
        authenticating = False
        try:
            if not self._transport_layer.ready():
                self._transport_layer.handshake()
            if self._transport_layer.ready() and not self._authenticator.complete():
                authenticating = True
                self._authenticator.authenticate()
        except AuthenticationException as e:
            # The client is told why (its operations then fail without retries); other errors are network errors.
            self._state = ChannelState(ChannelState.State.AUTHENTICATION_FAILED, e, self._remote_address)
            if authenticating:
                # The failure response and the close wait for the Selector (connection.failed.authentication.delay.ms).
                self._delay_close_on_authentication_failure()
                raise DelayedResponseAuthenticationException(e) from e
            raise
        if self.ready():
            self._successful_authentications += 1
            self._state = ChannelState.READY

    def _delay_close_on_authentication_failure(self) -> None:
        self._transport_layer.remove_interest_ops(SelectionKey.OP_WRITE)

    def complete_close_on_authentication_failure(self) -> None:
        """Writes the authenticator's failure response (if it has one) before the Selector closes the channel."""
        self._transport_layer.add_interest_ops(SelectionKey.OP_WRITE)
        self._authenticator.handle_authentication_failure()

    def disconnect(self) -> None:
        self._disconnected = True
        if self._state is ChannelState.NOT_CONNECTED and self._remote_address is not None:
            self._state = ChannelState(ChannelState.State.NOT_CONNECTED, None, self._remote_address)
        self._transport_layer.disconnect()

    def set_state(self, state: ChannelState) -> None:
        """Java's state(ChannelState) setter."""
        self._state = state

    def state(self) -> ChannelState:
        return self._state

    def set_remote_address(self, remote_address: str) -> None:
        """The address being connected to, as shown in disconnect reports (Java reads it from the socket)."""
        self._remote_address = remote_address

    def set_peer_host(self, host: str, port: int) -> None:
        """The host name a client connects to (a TLS transport checks the server's certificate against it).

        # PORT: Java's SSL transport reads it from the socket's InetSocketAddress."""
        set_peer_host = getattr(self._transport_layer, "set_peer_host", None)
        if set_peer_host is not None:
            set_peer_host(host, port)

    def set_socket_address(self, host: str, port: int) -> None:
        """The peer of an accepted connection, as the Acceptor took it from accept() (see SocketChannel)."""
        self._socket_address = host
        self._socket_port = port

    @property
    def socket_address(self) -> str | None:
        """The peer's IP address as text, for an accepted connection."""
        return self._socket_address

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
        """Stops reading the channel (the Selector drops the read interest once the channel turns readable)."""
        if self._mute_state is _NOT_MUTED:
            self._mute_state = _MUTED

    def maybe_unmute(self) -> bool:
        """Unmutes a MUTED channel; returns whether it is now unmuted."""
        if self._mute_state is _MUTED:
            if not self._disconnected:
                self._transport_layer.add_interest_ops(SelectionKey.OP_READ)
            self._mute_state = _NOT_MUTED
        return self._mute_state is _NOT_MUTED

    def handle_channel_mute_event(self, event: KafkaChannel.ChannelMuteEvent) -> None:
        """Moves the mute state on a Processor's event. REQUEST_RECEIVED: MUTED becomes MUTED_AND_RESPONSE_PENDING;
        RESPONSE_SENT drops RESPONSE_PENDING; THROTTLE_STARTED adds THROTTLED to MUTED_AND_RESPONSE_PENDING;
        THROTTLE_ENDED drops THROTTLED. Any other move is an error (RuntimeError)."""
        state = self._mute_state
        new_state = None
        if event is _REQUEST_RECEIVED:
            if state is _MUTED:
                new_state = _MUTED_AND_RESPONSE_PENDING
        elif event is _RESPONSE_SENT:
            if state is _MUTED_AND_RESPONSE_PENDING:
                new_state = _MUTED
            elif state is _MUTED_AND_THROTTLED_AND_RESPONSE_PENDING:
                new_state = _MUTED_AND_THROTTLED
        elif event is _THROTTLE_STARTED:
            if state is _MUTED_AND_RESPONSE_PENDING:
                new_state = _MUTED_AND_THROTTLED_AND_RESPONSE_PENDING
        elif state is _MUTED_AND_THROTTLED:
            new_state = _MUTED
        elif state is _MUTED_AND_THROTTLED_AND_RESPONSE_PENDING:
            new_state = _MUTED_AND_RESPONSE_PENDING
        if new_state is None:
            raise RuntimeError(f"Cannot transition from {state.name} for {event.name}")
        self._mute_state = new_state

    def mute_state(self) -> KafkaChannel.ChannelMuteState:
        return self._mute_state

    def is_muted(self) -> bool:
        return self._mute_state is not _NOT_MUTED

    def is_in_mutable_state(self) -> bool:
        """Whether the channel waits for memory for a frame whose size it knows (and so could be muted for it)."""
        if self._receive is None or self._receive.memory_allocated():
            return False
        return self._transport_layer.ready()

    def ready(self) -> bool:
        if self._ready:
            return True
        ready = self._ready = self._transport_layer.ready() and self._authenticator.complete()
        return ready

    # -- re-authentication (KIP-368) ------------------------------------------------------------------------

    def set_authenticator_creator(self, creator: Callable[[], Authenticator]) -> None:
        self._authenticator_creator = creator

    def maybe_begin_server_reauthentication(self, sasl_handshake_receive: NetworkReceive, now_nanos: int) -> bool:
        """On a broker: starts re-authenticating with the SaslHandshake a client sent on its authenticated
        connection, if the session has a lifetime and the last re-authentication began at least a second ago."""
        if not self.ready():
            raise RuntimeError(
                'KafkaChannel should be "ready" when processing SASL Handshake for potential re-authentication'
            )
        if self._authenticator.server_session_expiration_time_nanos() is None or self._authenticator_creator is None:
            return False
        if (
            self._last_reauthentication_start_nanos != 0
            and now_nanos - self._last_reauthentication_start_nanos < _MIN_REAUTH_INTERVAL_NANOS
        ):
            return False
        self._last_reauthentication_start_nanos = now_nanos
        previous = self._authenticator
        self._authenticator = self._authenticator_creator()
        self._ready = False
        self._authenticator.reauthenticate(sasl_handshake_receive, previous, now_nanos)  # type: ignore[attr-defined]
        return True

    def maybe_begin_client_reauthentication(self, now_nanos: int) -> bool:
        """On a client: starts re-authenticating once the session's re-authentication time has come (not while a
        response is half read)."""
        if not self.ready():
            raise RuntimeError(
                'KafkaChannel should always be "ready" when it is checked for possible re-authentication'
            )
        if self._receive is not None and not self._receive.complete():
            return False
        reauth_time = self._authenticator.client_session_reauthentication_time_nanos()
        if reauth_time is None or self._authenticator_creator is None or now_nanos < reauth_time:
            return False
        previous = self._authenticator
        self._authenticator = self._authenticator_creator()
        self._ready = False
        self._authenticator.reauthenticate(previous, now_nanos)  # type: ignore[attr-defined]
        return True

    def client_reauthentication_due(self, now_nanos: int) -> bool:
        """On a client: whether the session's re-authentication time has come (KIP-368), so that the next write must
        wait for maybe_begin_client_reauthentication in a poll; nothing is changed."""
        if self._authenticator_creator is None:
            return False
        reauth_time = self._authenticator.client_session_reauthentication_time_nanos()
        return reauth_time is not None and now_nanos >= reauth_time

    def reauthentication_latency_ms(self) -> int | None:
        return self._authenticator.reauthentication_latency_ms()

    def server_authentication_session_expired(self, now_nanos: int) -> bool:
        expiration = self._authenticator.server_session_expiration_time_nanos()
        return expiration is not None and now_nanos - expiration > 0

    def poll_response_received_during_reauthentication(self) -> NetworkReceive | None:
        return self._authenticator.poll_response_received_during_reauthentication()

    def connected_client_supports_reauthentication(self) -> bool:
        return self._authenticator.connected_client_supports_reauthentication()

    def has_send(self) -> bool:
        return self._send is not None

    def socket_description(self) -> str:
        """The peer address for log lines."""
        if self._socket_address is not None:
            return f"/{self._socket_address}:{self._socket_port}"
        if self._remote_address is not None:
            return self._remote_address
        try:
            host, port = self._transport_layer.socket_channel().getsockname()[:2]
            return f"/{host}:{port}"
        except OSError:
            return "unconnected"

    def set_send(self, send: NetworkSend) -> None:
        """Starts `send` (written in the coming polls once the socket is writable)."""
        self._set_send(send)
        self._transport_layer.add_interest_ops(SelectionKey.OP_WRITE)

    def _set_send(self, send: NetworkSend) -> None:
        if self._send is not None:
            raise RuntimeError(
                "Attempt to begin a send operation with prior send operation still in progress, connection id is "
                + self._id
            )
        self._send = send

    def set_send_and_write(self, send: NetworkSend) -> NetworkSend | None:
        """Starts `send` and writes what the socket takes now: the send if that was all of it, else None (the rest
        goes out in the coming polls).

        # PORT: Java only registers for writability here and writes in the next poll; see Selector.send."""
        if self._send is not None:
            self._set_send(send)  # raises
        self._send = send
        send.write_to(self._transport_layer)
        if send.completed():
            self._send = None
            return send
        self._transport_layer.add_interest_ops(SelectionKey.OP_WRITE)
        return None

    def maybe_complete_send(self) -> NetworkSend | None:
        send = self._send
        if send is not None and send.completed():
            self._transport_layer.remove_interest_ops(SelectionKey.OP_WRITE)
            self._send = None
            return send
        return None

    def read(self) -> int:
        receive = self._receive
        if receive is None:
            receive = self._receive = NetworkReceive(self._max_receive_size, self._id, None, self._memory_pool)
        bytes_received = receive.read_from(self._transport_layer)
        # MemoryPool.NONE grants every buffer, so a receive reading with it never waits for memory.
        if (
            self._memory_pool is not MemoryPool.NONE
            and receive.required_memory_amount_known()
            and not receive.memory_allocated()
            and self.is_in_mutable_state()
        ):
            # The pool has no memory for this frame: stop reading until it has. The socket is known to be readable,
            # so the read interest goes at once.
            self.mute()
            self._transport_layer.remove_interest_ops(SelectionKey.OP_READ)
        return bytes_received

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


_MIN_REAUTH_INTERVAL_NANOS = 1_000_000_000

# The mute states and events as module constants: reading an Enum member through its class costs a lookup in
# EnumType on every use, and these are read for every request.
_NOT_MUTED = KafkaChannel.ChannelMuteState.NOT_MUTED
_MUTED = KafkaChannel.ChannelMuteState.MUTED
_MUTED_AND_RESPONSE_PENDING = KafkaChannel.ChannelMuteState.MUTED_AND_RESPONSE_PENDING
_MUTED_AND_THROTTLED = KafkaChannel.ChannelMuteState.MUTED_AND_THROTTLED
_MUTED_AND_THROTTLED_AND_RESPONSE_PENDING = KafkaChannel.ChannelMuteState.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING
_REQUEST_RECEIVED = KafkaChannel.ChannelMuteEvent.REQUEST_RECEIVED
_RESPONSE_SENT = KafkaChannel.ChannelMuteEvent.RESPONSE_SENT
_THROTTLE_STARTED = KafkaChannel.ChannelMuteEvent.THROTTLE_STARTED
