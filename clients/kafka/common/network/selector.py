"""Port of clients/src/main/java/org/apache/kafka/common/network/Selector.java (Kafka 3.7).

Non-blocking I/O over many connections from one thread: connects, or connections accepted elsewhere and
registered here (a broker's Processor), size-prefixed sends and receives (frames larger than `max_receive_size`
fail the connection), receive buffers granted by a MemoryPool (channels waiting for memory stop reading until the
pool has some again), mute/unmute, and closing connections idle for longer than connections.max.idle.ms. Each
poll() leaves behind what happened during it: the sends completed, the receives completed (at most one per
connection per poll), the connections made and those lost with the state they were in. A connection that fails
authentication gets its failure response and is closed `failed_authentication_delay_ms` later (a broker's
`connection.failed.authentication.delay.ms`, KIP-306), in the first poll after that time.

# PORT: built on Python's `selectors` (epoll on Linux) with SelectionKey standing in for java.nio's. A socketpair
# wakes a blocked select, as java.nio's Selector.wakeup does. The sensors (SelectorMetrics) are kept only when a
# Metrics registry is given (our clients give one; without it the poll loop records nothing).
# PORT: three changes to how Java does the same thing, each saving system calls per request at Python's cost per
# call (measured with tests/bench/test_socket_server_bench.py):
# - muting only marks the channel; its read interest is dropped when it turns out to be readable while muted
#   (a client waiting for its answer sends nothing meanwhile), so mute and unmute usually cost no epoll_ctl;
# - a wakeup writes its byte only if none is pending since the last select, so a burst of wakeups (a broker's
#   responses handed to its Processor) costs one write and one read (and the read needs no second call to find
#   the socketpair empty); on epoll the socketpair is edge-triggered and read only every few polls, so a wakeup
#   costs the write alone (see Selector.__init__);
# - with `write_on_send` (a broker's Processor asks for it), send() writes at once what the socket takes instead
#   of registering for writability and writing in the next poll; a send completed so is in completed_sends()
#   right away, so the caller must handle completed_sends() before its next poll (the Processor does); a client
#   channel whose re-authentication (KIP-368) is due is not written in send() but in the poll, which begins it.
Like Java's, a Selector is used by one thread; only wakeup() may be called from others.
"""

from __future__ import annotations

import enum
import errno
import select
import selectors
import socket
from collections import OrderedDict
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from kafka.common.errors import AuthenticationException
from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.metrics.internals.metric_functions import MeasurableFn
from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
from kafka.common.metrics.stats.max import Max
from kafka.common.metrics.stats.meter import Meter
from kafka.common.metrics.stats.windowed_count import WindowedCount
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.channel_state import ChannelState
from kafka.common.network.delayed_response_authentication_exception import DelayedResponseAuthenticationException
from kafka.common.network.inet_address import InetSocketAddress
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.network_receive import NetworkReceive, ReceiveBufferPool
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.plaintext_channel_builder import PlaintextChannelBuilder
from kafka.common.network.selectable import Selectable
from kafka.common.network.selection_key import SelectionKey
from kafka.common.network.socket_channel import SocketChannel
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor
    from kafka.common.metrics.stats.sampled_stat import SampledStat

__all__ = ["Selector", "SelectorMetrics"]

# The longest single wait in select(); longer polls simply wait again (keeps the float timeout sane).
_MAX_SELECT_MS = 2**31 - 1
# Read for every ready connection (an Enum member read through its class is a lookup each time).
_NOT_MUTED = KafkaChannel.ChannelMuteState.NOT_MUTED
# The wakeup socketpair on epoll (see Selector.__init__): the selector type, the edge-triggered read mask (0 where
# there is none), how many polls go by between reads of the bytes written, and the most one read takes (more than
# those polls can leave). Each byte waiting in a Unix socket takes a buffer of its own (a few hundred written one
# by one fill the default socket buffer), so the reads come often enough to keep far below that.
_EPOLL: type = getattr(selectors, "EpollSelector", type(None))
_EPOLL_EDGE_READ: int = select.EPOLLIN | select.EPOLLET if hasattr(select, "EPOLLET") else 0
_WAKEUP_DRAIN_POLLS = 32
_WAKEUP_DRAIN_BYTES = 4096


class _CloseMode(enum.Enum):
    GRACEFUL = 1  # deliver receives already read, then report the disconnect
    NOTIFY_ONLY = 2  # drop pending receives, report the disconnect
    DISCARD_NO_NOTIFY = 3  # drop pending receives, report nothing

    @property
    def notify_disconnect(self) -> bool:
        return self is not _CloseMode.DISCARD_NO_NOTIFY


class Selector(Selectable):
    NO_IDLE_TIMEOUT_MS = -1
    NO_FAILED_AUTHENTICATION_DELAY = 0

    class IdleExpiryManager:
        """Connections in least-recently-active order, to close the oldest once it has been idle too long."""

        __slots__ = ("lru_connections", "_connections_max_idle_nanos", "next_idle_close_check_time")

        def __init__(self, time: Time, connections_max_idle_ms: int) -> None:
            self._connections_max_idle_nanos = connections_max_idle_ms * 1000 * 1000
            self.lru_connections: OrderedDict[str, int] = OrderedDict()
            self.next_idle_close_check_time = time.nanoseconds() + self._connections_max_idle_nanos

        def update(self, connection_id: str, current_time_nanos: int) -> None:
            self.lru_connections[connection_id] = current_time_nanos
            self.lru_connections.move_to_end(connection_id)

        def poll_expired_connection(self, current_time_nanos: int) -> tuple[str, int] | None:
            """The oldest connection if it has been idle longer than allowed (checked no more often than needed)."""
            if current_time_nanos <= self.next_idle_close_check_time:
                return None
            if not self.lru_connections:
                self.next_idle_close_check_time = current_time_nanos + self._connections_max_idle_nanos
                return None
            connection_id, last_active = next(iter(self.lru_connections.items()))
            self.next_idle_close_check_time = last_active + self._connections_max_idle_nanos
            if current_time_nanos > self.next_idle_close_check_time:
                return connection_id, last_active
            return None

        def remove(self, connection_id: str) -> None:
            self.lru_connections.pop(connection_id, None)

    def __init__(
        self,
        connection_max_idle_ms: int,
        time: Time,
        log_context: LogContext,
        max_receive_size: int = NetworkReceive.UNLIMITED,
        channel_builder: ChannelBuilder | None = None,
        record_time_per_connection: bool = False,
        memory_pool: MemoryPool = MemoryPool.NONE,
        write_on_send: bool = False,
        metrics: Metrics | None = None,
        failed_authentication_delay_ms: int = NO_FAILED_AUTHENTICATION_DELAY,
        metric_grp_prefix: str = "",
        metric_tags: Mapping[str, str] | None = None,
        metrics_per_connection: bool = True,
    ) -> None:
        """`connection_max_idle_ms` < 0 disables idle expiry. `record_time_per_connection`: add the time spent on
        each channel to its network thread time. `write_on_send`: see the module's notes. With `metrics`, the
        selector's sensors are registered there under `{metric_grp_prefix}-metrics` with `metric_tags`.

        `failed_authentication_delay_ms`: how long the failure response and the close of a connection that failed
        authentication are held back.

        # PORT: `metrics` is optional (see the module)."""
        self._nio_selector = selectors.DefaultSelector()
        self._max_receive_size = max_receive_size
        self._time = time
        self._channels: dict[str, KafkaChannel] = {}
        # The ids of the channels muted by mute() (not those that muted themselves waiting for memory).
        self._explicitly_muted_channels: set[str] = set()
        self._completed_sends: list[NetworkSend] = []
        self._completed_receives: dict[str, NetworkReceive] = {}
        self._immediately_connected_keys: set[SelectionKey] = set()
        self._closing_channels: dict[str, KafkaChannel] = {}
        self._keys_with_buffered_read: set[SelectionKey] = set()
        self._disconnected: dict[str, ChannelState] = {}
        self._connected: list[str] = []
        self._failed_sends: list[str] = []
        self._log = log_context.logger("org.apache.kafka.common.network.Selector")
        self._channel_builder = channel_builder if channel_builder is not None else PlaintextChannelBuilder()
        self._record_time_per_connection = record_time_per_connection
        self._memory_pool = memory_pool
        self._out_of_memory = False
        self._write_on_send = write_on_send
        self._idle_expiry_manager = (
            None if connection_max_idle_ms < 0 else Selector.IdleExpiryManager(time, connection_max_idle_ms)
        )
        self._made_read_progress_last_poll = True
        self._failed_authentication_delay_ms = failed_authentication_delay_ms
        # The channels whose close waits for the failed-authentication delay, oldest first (None without a delay).
        self._delayed_closing_channels: OrderedDict[str, Selector._DelayedAuthenticationFailureClose] | None = (
            OrderedDict() if failed_authentication_delay_ms > Selector.NO_FAILED_AUTHENTICATION_DELAY else None
        )
        self._closed = False
        # The wakeup pipe: a byte written to one end makes select() return.
        self._wakeup_r, self._wakeup_w = socket.socketpair()
        self._wakeup_r.setblocking(False)
        self._wakeup_w.setblocking(False)
        # PORT: on epoll the read end is registered edge-triggered, on the epoll object itself (the `selectors`
        # wrapper offers no flags), so that select() returns for every byte written without reporting it and the
        # bytes need not be read back after every wakeup (one recv and one GIL hand-off per response a broker's
        # Processor sends); they are read every _WAKEUP_DRAIN_POLLS polls, at most one byte each. Elsewhere the
        # socketpair is read whenever select() reports it.
        epoll = getattr(self._nio_selector, "_selector", None) if isinstance(self._nio_selector, _EPOLL) else None
        if epoll is not None and _EPOLL_EDGE_READ:
            epoll.register(self._wakeup_r.fileno(), _EPOLL_EDGE_READ)
            self._polls_until_wakeup_drain = _WAKEUP_DRAIN_POLLS
        else:
            self._nio_selector.register(self._wakeup_r, selectors.EVENT_READ, None)
            self._polls_until_wakeup_drain = -1
        # Set by a wakeup() that wrote its byte, cleared once a select() has returned after it (see the module's
        # notes): edge-triggered, by every select; else when the select reports the socketpair.
        self._wakeup_pending = False
        self._sensors: SelectorMetrics | None = (
            None
            if metrics is None
            else SelectorMetrics(metrics, metric_grp_prefix, metric_tags or {}, metrics_per_connection, self._channels)
        )

    # -- connecting -----------------------------------------------------------------------------------------

    def connect(self, id: str, address: InetSocketAddress, send_buffer_size: int, receive_buffer_size: int) -> None:
        self._ensure_not_registered(id)
        sock = socket.socket(address.address.family, socket.SOCK_STREAM)
        key: SelectionKey | None = None
        try:
            self._configure_socket_channel(sock, send_buffer_size, receive_buffer_size)
            connected = self.do_connect(sock, address)
            key = self._register_channel(id, sock, SelectionKey.OP_CONNECT)
            channel = self._channels[id]
            channel.set_remote_address(str(address))
            channel.set_peer_host(address.address.host_name or address.address.host_address, address.port)
            if connected:
                self._log.debug(f"Immediately connected to node {id}")
                self._immediately_connected_keys.add(key)
                key.set_interest_ops(0)
        except BaseException:
            if key is not None:
                self._immediately_connected_keys.discard(key)
                key.cancel()
            self._channels.pop(id, None)
            sock.close()
            raise

    def do_connect(self, sock: socket.socket, address: InetSocketAddress) -> bool:
        """Starts a non-blocking connect; True if it completed at once. OSError if it failed at once."""
        err = sock.connect_ex(address.sockaddr())
        if err == 0:
            return True
        if err in (errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EALREADY, errno.EINTR):
            return False
        raise ConnectionError(err, f"Connection to {address} failed: {errno.errorcode.get(err, err)}")

    @staticmethod
    def _configure_socket_channel(sock: socket.socket, send_buffer_size: int, receive_buffer_size: int) -> None:
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        if send_buffer_size != Selectable.USE_DEFAULT_BUFFER_SIZE:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer_size)
        if receive_buffer_size != Selectable.USE_DEFAULT_BUFFER_SIZE:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer_size)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def register(self, id: str, socket_channel: SocketChannel) -> None:
        """Adds a connection accepted elsewhere (a broker's Acceptor) as connection `id`, to be read."""
        self._ensure_not_registered(id)
        socket_channel.sock.setblocking(False)
        key = self._register_channel(id, socket_channel.sock, SelectionKey.OP_READ)
        channel: KafkaChannel = key.attachment()
        channel.set_socket_address(socket_channel.remote_host, socket_channel.remote_port)
        sensors = self._sensors
        if sensors is not None:
            sensors.connection_created.record()
            sensors.maybe_register_connection_metrics(id)

    def _ensure_not_registered(self, id: str) -> None:
        if id in self._channels:
            raise RuntimeError(f"There is already a connection for id {id}")
        if id in self._closing_channels:
            raise RuntimeError(f"There is already a connection for id {id} that is still being closed")

    def _register_channel(self, id: str, sock: socket.socket, interested_ops: int) -> SelectionKey:
        key = SelectionKey(sock, self._nio_selector, interested_ops)
        channel = self._build_and_attach_kafka_channel(sock, id, key)
        self._channels[id] = channel
        if self._idle_expiry_manager is not None:
            self._idle_expiry_manager.update(channel.id(), self._time.nanoseconds())
        return key

    def _build_and_attach_kafka_channel(self, sock: socket.socket, id: str, key: SelectionKey) -> KafkaChannel:
        try:
            channel = self._channel_builder.build_channel(id, key, self._max_receive_size, self._memory_pool)
            key.attach(channel)
            return channel
        except Exception as e:
            try:
                sock.close()
            finally:
                key.cancel()
            raise OSError(f"Channel could not be created for socket {sock}") from e

    # -- waking up, closing ---------------------------------------------------------------------------------

    def wakeup(self) -> None:
        if self._wakeup_pending:
            return  # the byte of an earlier wakeup is still waiting to be selected
        self._wakeup_pending = True
        try:
            self._wakeup_w.send(b"\x00")
        except (BlockingIOError, InterruptedError):
            if self._polls_until_wakeup_drain < 0:
                return  # the pipe is full: a wakeup is pending anyway
            # Edge-triggered, a full pipe would take the wakeup's edge with it: read it empty and write again.
            self._drain_wakeups()
            try:
                self._wakeup_w.send(b"\x00")
            except OSError:
                pass
        except OSError:
            pass  # closed

    def _drain_wakeups(self) -> None:
        # One read: wakeups are coalesced, so a few bytes at most are waiting (edge-triggered: at most one per poll
        # since the last drain); anything left only makes the next select return at once.
        try:
            self._wakeup_r.recv(_WAKEUP_DRAIN_BYTES)
        except (BlockingIOError, InterruptedError, OSError):
            pass

    def close(self, id: str | None = None) -> None:
        """With an id: closes that connection at once, reporting nothing. Without: closes every connection and
        the selector."""
        if id is not None:
            self._close_id(id)
            return
        if self._closed:
            return
        first: BaseException | None = None
        for connection_id in list(self._channels):
            try:
                self._close_id(connection_id)
            except Exception as e:  # keep closing the others
                first = first or e
        for connection_id in list(self._closing_channels):
            try:
                self._close_id(connection_id)
            except Exception as e:
                first = first or e
        self._closed = True
        try:
            self._nio_selector.close()
        finally:
            self._wakeup_r.close()
            self._wakeup_w.close()
            self._channel_builder.close()
            if self._sensors is not None:
                self._sensors.close()
        if first is not None:
            raise first

    def _close_id(self, id: str) -> None:
        channel = self._channels.get(id)
        if channel is not None:
            channel.set_state(ChannelState.LOCAL_CLOSE)
            self._close(channel, _CloseMode.DISCARD_NO_NOTIFY)
        else:
            closing = self._closing_channels.pop(id, None)
            if closing is not None:
                self._do_close(closing, False)

    # -- sending --------------------------------------------------------------------------------------------

    @property
    def write_on_send(self) -> bool:
        """Whether send() writes at once (see the module's notes)."""
        return self._write_on_send

    def send(self, send: NetworkSend) -> None:
        connection_id = send.destination_id()
        channel = self._channels.get(connection_id)
        if channel is None:
            self._open_or_closing_channel_or_fail(connection_id)  # fails unless the channel is closing
            self._failed_sends.append(connection_id)
            return
        # A client channel whose re-authentication is due (KIP-368) is left to the poll's write, which begins it.
        if (
            self._write_on_send
            and (channel._ready or channel.ready())
            and channel._send is None
            and (
                channel._authenticator_creator is None
                or not channel.client_reauthentication_due(self._time.nanoseconds())
            )
        ):
            self._send_and_write(channel, send)
            return
        try:
            channel.set_send(send)
        except Exception as e:
            channel.set_state(ChannelState.FAILED_SEND)
            self._failed_sends.append(connection_id)
            self._close(channel, _CloseMode.DISCARD_NO_NOTIFY)
            self._log.error(
                f"Unexpected exception during send, closing connection {connection_id} and rethrowing exception.", e
            )
            raise

    def _send_and_write(self, channel: KafkaChannel, send: NetworkSend) -> None:
        """send() with `write_on_send`: writes what the socket takes now; a failing write closes the connection
        as it would in a poll, reporting it disconnected."""
        start_nanos = self._time.nanoseconds() if self._record_time_per_connection else 0
        try:
            completed = channel.set_send_and_write(send)
            if completed is not None:
                self._completed_sends.append(completed)
                sensors = self._sensors
                if sensors is not None:
                    # PORT: a send written at once is counted whole when it completes (its partial writes are not
                    # seen here).
                    now_ms = self._time.milliseconds()
                    sensors.record_bytes_sent(channel._id, completed.size(), now_ms)
                    sensors.record_completed_send(channel._id, completed.size(), now_ms)
        except Exception as e:
            self._log_channel_error(channel, e)
            self._close(channel, _CloseMode.NOTIFY_ONLY)
        finally:
            if self._record_time_per_connection:
                channel._network_thread_time_nanos += self._time.nanoseconds() - start_nanos

    # -- polling --------------------------------------------------------------------------------------------

    def poll(self, timeout: int) -> None:
        """Does the I/O that is possible now, waiting at most `timeout` ms for some (0: do not wait)."""
        if timeout < 0:
            raise ValueError("timeout should be >= 0")
        made_read_progress_last_call = self._made_read_progress_last_poll
        self._clear()

        if self._out_of_memory and not self._memory_pool.is_out_of_memory():
            # Memory was given back: the channels that muted themselves waiting for it read again.
            self._log.trace("Broker no longer low on memory - unmuting incoming sockets")
            for channel in self._channels.values():
                if channel.is_in_mutable_state() and channel.id() not in self._explicitly_muted_channels:
                    channel.maybe_unmute()
            self._out_of_memory = False

        data_in_buffers = bool(self._keys_with_buffered_read)
        if self._immediately_connected_keys or (made_read_progress_last_call and data_in_buffers):
            timeout = 0
        memory_pool = self._memory_pool
        if memory_pool.__class__ is ReceiveBufferPool:
            # PORT: a large frame received into the clients' pool waits in place for its rest only in a poll that may
            # block; one that may not (Java's client.poll(0)) reads what has come and returns (network_receive).
            memory_pool.wait_in_place = timeout != 0

        # Select (inline, as this runs in every poll): the ready keys with their ready ops set. The wakeup
        # socketpair's key carries no SelectionKey.
        wait = 0.0 if timeout == 0 else min(timeout, _MAX_SELECT_MS) / 1000
        sensors = self._sensors
        start_select = self._time.nanoseconds() if sensors is not None else 0
        try:
            events = self._nio_selector.select(wait)
        except InterruptedError:
            events = []
        ready_keys: list[SelectionKey] = []
        for selector_key, mask in events:
            key = selector_key.data
            if key is None:
                self._drain_wakeups()
                self._wakeup_pending = False
                continue
            # The ready ops: what select reported, within the key's interest set.
            interest_ops = key._interest_ops
            ready_ops = 0
            if mask & selectors.EVENT_READ:
                ready_ops = interest_ops & SelectionKey.OP_READ
            if mask & selectors.EVENT_WRITE:
                ready_ops |= interest_ops & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)
            key.ready_ops = ready_ops
            ready_keys.append(key)
        if self._polls_until_wakeup_drain > 0:
            # Edge-triggered wakeups: whatever wakeup() wrote before this select made it return, and one written
            # since is seen by the next select (its edge stays until reported). The bytes are drained before the
            # flag is cleared: a byte written after the select and drained here loses its edge, and a flag left set
            # then would stop every later wakeup() from writing until the select's timeout.
            self._polls_until_wakeup_drain -= 1
            if self._polls_until_wakeup_drain == 0:
                self._polls_until_wakeup_drain = _WAKEUP_DRAIN_POLLS
                self._drain_wakeups()
            self._wakeup_pending = False
        end_select = self._time.nanoseconds()
        if sensors is not None:
            sensors.select_time.record(end_select - start_select, self._time.milliseconds(), False)

        if ready_keys or self._immediately_connected_keys or data_in_buffers:
            if data_in_buffers:
                # A channel is polled once per call, even if it is also ready.
                self._keys_with_buffered_read.difference_update(ready_keys)
                to_poll = self._keys_with_buffered_read
                self._keys_with_buffered_read = set()
                self._poll_selection_keys(to_poll, False, end_select)
            self._poll_selection_keys(ready_keys, False, end_select)
            for key in ready_keys:
                key.ready_ops = 0
            if self._immediately_connected_keys:
                immediately_connected = list(self._immediately_connected_keys)
                self._immediately_connected_keys.clear()
                self._poll_selection_keys(immediately_connected, True, end_select)
        else:
            self._made_read_progress_last_poll = True  # nothing to do counts as progress
        if sensors is not None:
            sensors.io_time.record(self._time.nanoseconds() - end_select, self._time.milliseconds(), False)

        # Close the channels whose failed-authentication delay has passed.
        if self._delayed_closing_channels:
            self.complete_delayed_channel_close(self._time.nanoseconds())

        # Nothing can have expired before the next check time (read here to spare a call in every poll).
        idle_expiry_manager = self._idle_expiry_manager
        if idle_expiry_manager is not None and end_select > idle_expiry_manager.next_idle_close_check_time:
            self._maybe_close_oldest_connection(end_select)

    def _poll_selection_keys(
        self, selection_keys: Iterable[SelectionKey], is_immediately_connected: bool, current_time_nanos: int
    ) -> None:
        # The loop runs for every ready connection of every poll, where Python's cost per call adds up: what it
        # uses is looked up once, and the getters of KafkaChannel and SelectionKey that only return a field
        # (attachment, id, state, is_muted, has_send, is_valid, and ready once true) are read as fields, as this
        # package's own classes.
        idle_connections = None if self._idle_expiry_manager is None else self._idle_expiry_manager.lru_connections
        record_time = self._record_time_per_connection
        time = self._time
        explicitly_muted_channels = self._explicitly_muted_channels
        completed_receives = self._completed_receives
        for key in selection_keys:
            channel: KafkaChannel | None = key._attachment
            if channel is None:
                continue  # closed while handling an earlier key of this poll
            channel_start_time_nanos = time.nanoseconds() if record_time else 0
            send_failed = False
            node_id = channel._id
            if idle_connections is not None:
                # IdleExpiryManager.update, inline
                idle_connections[node_id] = current_time_nanos
                idle_connections.move_to_end(node_id)
            try:
                # Finish connections that completed (normally or at once).
                if is_immediately_connected or key.ready_ops & SelectionKey.OP_CONNECT:
                    if channel.finish_connect():
                        self._connected.append(node_id)
                        sensors = self._sensors
                        if sensors is not None:
                            # PORT: Java checks for the per-connection sensors for every ready key of every poll;
                            # they are registered here, once a connection is made.
                            sensors.connection_created.record()
                            sensors.maybe_register_connection_metrics(node_id)
                        if self._log.is_debug_enabled():
                            sock = key.sock
                            self._log.debug(
                                "Created socket with SO_RCVBUF = "
                                f"{sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)}, SO_SNDBUF = "
                                f"{sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)}, SO_TIMEOUT = 0 to node "
                                f"{node_id}"
                            )
                    else:
                        continue

                # A connected channel that is not ready yet does its handshake.
                ready = channel._ready or channel.ready()
                if not ready and channel.is_connected():
                    channel.prepare()
                    ready = channel.ready()
                    if ready and self._sensors is not None:
                        self._sensors.successful_authentication.record()
                if ready and channel._state is ChannelState.NOT_CONNECTED:
                    channel._state = ChannelState.READY
                if ready and channel._authenticator_creator is not None and node_id not in completed_receives:
                    # A response that arrived while the client re-authenticated (KIP-368; SASL channels only).
                    stashed = channel.poll_response_received_during_reauthentication()
                    if stashed is not None:
                        completed_receives[node_id] = stashed

                readable = key.ready_ops & SelectionKey.OP_READ
                explicitly_muted = node_id in explicitly_muted_channels
                if readable and channel._mute_state is not _NOT_MUTED:
                    # Muted, and data (or the peer's close) is waiting: stop watching reads until unmuted.
                    key.set_interest_ops(key.interest_ops() & ~SelectionKey.OP_READ)
                elif (
                    ready
                    and (readable or channel.has_bytes_buffered())
                    and not explicitly_muted
                    and node_id not in completed_receives
                ):
                    self._attempt_read(channel)

                if not explicitly_muted and channel._transport_layer.has_bytes_buffered():
                    self._keys_with_buffered_read.add(key)

                if (
                    key.ready_ops & SelectionKey.OP_WRITE
                    and ready
                    and channel._send is not None
                    and not (
                        channel._authenticator_creator is not None
                        and channel.maybe_begin_client_reauthentication(channel_start_time_nanos or time.nanoseconds())
                    )
                ):
                    try:
                        self.write(channel)
                    except Exception:
                        send_failed = True
                        raise

                if not key._valid:
                    self._close(channel, _CloseMode.GRACEFUL)
            except Exception as e:
                self._log_channel_error(channel, e)
                if isinstance(e, DelayedResponseAuthenticationException):
                    self._maybe_delay_close_on_authentication_failure(channel)
                else:
                    self._close(
                        channel,
                        _CloseMode.NOTIFY_ONLY if send_failed else _CloseMode.GRACEFUL,
                    )
            finally:
                if record_time:
                    channel._network_thread_time_nanos += time.nanoseconds() - channel_start_time_nanos

    def _log_channel_error(self, channel: KafkaChannel, e: Exception) -> None:
        desc = f"{channel.socket_description()} (channelId={channel.id()})"
        if isinstance(e, (OSError, EOFError)):
            self._log.debug(f"Connection with {desc} disconnected", e)
        elif isinstance(e, AuthenticationException):
            again = "re-" if channel.successful_authentications() > 0 else ""
            if self._sensors is not None:
                if again:
                    self._sensors.failed_reauthentication.record()
                else:
                    self._sensors.failed_authentication.record()
            message = e.__cause__ if isinstance(e, DelayedResponseAuthenticationException) else e
            self._log.info(f"Failed {again}authentication with {desc} ({message})")
        else:
            self._log.warn(f"Unexpected error from {desc}; closing connection", e)

    def write(self, channel: KafkaChannel) -> None:
        bytes_sent = channel.write()
        send = channel.maybe_complete_send()
        if send is not None:
            self._completed_sends.append(send)
        sensors = self._sensors
        if sensors is not None and (bytes_sent > 0 or send is not None):
            current_time_ms = self._time.milliseconds()
            if bytes_sent > 0:
                sensors.record_bytes_sent(channel._id, bytes_sent, current_time_ms)
            if send is not None:
                sensors.record_completed_send(channel._id, send.size(), current_time_ms)

    def _attempt_read(self, channel: KafkaChannel) -> None:
        bytes_received = channel.read()
        if bytes_received != 0:
            self._made_read_progress_last_poll = True
            sensors = self._sensors
            if sensors is not None:
                sensors.record_bytes_received(channel._id, bytes_received, self._time.milliseconds())
            receive = channel.maybe_complete_receive()
            if receive is not None:
                node_id = channel._id
                if node_id in self._completed_receives:
                    raise RuntimeError(f"Attempting to add second completed receive to channel {node_id}")
                self._completed_receives[node_id] = receive
                if sensors is not None:
                    sensors.record_completed_receive(node_id, receive.size(), self._time.milliseconds())
        if channel._mute_state is not _NOT_MUTED:
            self._out_of_memory = True  # the channel muted itself: the memory pool has nothing for its frame
        else:
            self._made_read_progress_last_poll = True

    def _maybe_read_from_closing_channel(self, channel: KafkaChannel) -> bool:
        """Whether a closing channel still has a receive to deliver (reading what is left if it can)."""
        if channel.state().state() is not ChannelState.State.READY:
            return False
        if channel.id() in self._explicitly_muted_channels or self._has_completed_receive(channel):
            return True
        try:
            self._attempt_read(channel)
            return self._has_completed_receive(channel)
        except Exception as e:
            self._log.trace("Read from closing channel failed, ignoring exception", e)
            return False

    # -- results of the last poll ---------------------------------------------------------------------------

    def completed_sends(self) -> Sequence[NetworkSend]:
        """The sends completed by the last poll. This and completed_receives() and disconnected() return live
        collections, emptied in place by the next poll (a broker's Processor keeps them for its life)."""
        return self._completed_sends

    def completed_receives(self) -> Collection[NetworkReceive]:
        return self._completed_receives.values()

    def disconnected(self) -> Mapping[str, ChannelState]:
        return self._disconnected

    def connected(self) -> Sequence[str]:
        return self._connected

    # -- muting ---------------------------------------------------------------------------------------------

    def mute(self, id: str) -> None:
        channel = self._channels.get(id)
        self._mute(channel if channel is not None else self._open_or_closing_channel_or_fail(id))

    def _mute(self, channel: KafkaChannel) -> None:
        channel.mute()
        self._explicitly_muted_channels.add(channel._id)
        if self._keys_with_buffered_read:
            self._keys_with_buffered_read.discard(channel.selection_key())

    def unmute(self, id: str) -> None:
        channel = self._channels.get(id)
        self._unmute(channel if channel is not None else self._open_or_closing_channel_or_fail(id))

    def _unmute(self, channel: KafkaChannel) -> None:
        if channel.maybe_unmute():
            self._explicitly_muted_channels.discard(channel._id)
            if channel._transport_layer.has_bytes_buffered():
                self._keys_with_buffered_read.add(channel.selection_key())
                self._made_read_progress_last_poll = True

    def mute_all(self) -> None:
        for channel in self._channels.values():
            self._mute(channel)

    def unmute_all(self) -> None:
        for channel in self._channels.values():
            self._unmute(channel)

    # -- closing --------------------------------------------------------------------------------------------

    def _maybe_close_oldest_connection(self, current_time_nanos: int) -> None:
        if self._idle_expiry_manager is None:
            return
        expired = self._idle_expiry_manager.poll_expired_connection(current_time_nanos)
        if expired is None:
            return
        connection_id, last_active = expired
        channel = self._channels.get(connection_id)
        if channel is not None:
            if self._log.is_trace_enabled():
                self._log.trace(
                    f"About to close the idle connection from {connection_id} due to being idle for "
                    f"{(current_time_nanos - last_active) // 1_000_000} millis"
                )
            channel.set_state(ChannelState.EXPIRED)
            self._close(channel, _CloseMode.GRACEFUL)

    def clear_completed_receives(self) -> None:
        self._completed_receives.clear()

    def clear_completed_sends(self) -> None:
        self._completed_sends.clear()

    def _clear(self) -> None:
        self._completed_sends.clear()
        self._completed_receives.clear()
        self._connected.clear()
        self._disconnected.clear()
        # Channels closed gracefully last time are closed for good once their receives were delivered.
        if not self._closing_channels and not self._failed_sends:
            self._made_read_progress_last_poll = False
            return
        for connection_id, channel in list(self._closing_channels.items()):
            send_failed = connection_id in self._failed_sends
            if send_failed:
                self._failed_sends.remove(connection_id)
            has_pending = False if send_failed else self._maybe_read_from_closing_channel(channel)
            if not has_pending:
                self._do_close(channel, True)
                del self._closing_channels[connection_id]
        for connection_id in self._failed_sends:
            self._disconnected[connection_id] = ChannelState.FAILED_SEND
        self._failed_sends.clear()
        self._made_read_progress_last_poll = False

    def complete_delayed_channel_close(self, current_time_nanos: int) -> None:
        """Closes the channels whose failed-authentication delay ended by `current_time_nanos`."""
        delayed = self._delayed_closing_channels
        if delayed is None:
            return
        while delayed:
            delayed_close = next(iter(delayed.values()))
            if not delayed_close.try_close(current_time_nanos):
                break

    def _maybe_delay_close_on_authentication_failure(self, channel: KafkaChannel) -> None:
        delayed_close = Selector._DelayedAuthenticationFailureClose(
            self, channel, self._time.nanoseconds() + self._failed_authentication_delay_ms * 1_000_000
        )
        if self._delayed_closing_channels is not None:
            self._delayed_closing_channels[channel.id()] = delayed_close
        else:
            delayed_close.close_now()

    def _handle_close_on_authentication_failure(self, channel: KafkaChannel) -> None:
        try:
            channel.complete_close_on_authentication_failure()
        except Exception as e:
            self._log.error(f"Exception handling close on authentication failure node {channel.id()}", e)
        finally:
            self._close(channel, _CloseMode.GRACEFUL)

    class _DelayedAuthenticationFailureClose:
        """A channel that failed authentication, to be answered and closed once `end_time_nanos` has come."""

        __slots__ = ("_selector", "_channel", "_end_time_nanos", "_closed")

        def __init__(self, selector: Selector, channel: KafkaChannel, end_time_nanos: int) -> None:
            self._selector = selector
            self._channel = channel
            self._end_time_nanos = end_time_nanos
            self._closed = False

        def try_close(self, current_time_nanos: int) -> bool:
            """Closes the channel if its delay has ended; whether it is closed."""
            if self._end_time_nanos <= current_time_nanos:
                self.close_now()
            return self._closed

        def close_now(self) -> None:
            if self._closed:
                raise RuntimeError("Attempt to close a channel that has already been closed")
            self._selector._handle_close_on_authentication_failure(self._channel)
            self._closed = True

    def _close(self, channel: KafkaChannel, close_mode: _CloseMode) -> None:
        channel.disconnect()
        # A connection closed in the poll that made it is not reported as connected.
        try:
            self._connected.remove(channel.id())
        except ValueError:
            pass
        if close_mode is _CloseMode.GRACEFUL and self._maybe_read_from_closing_channel(channel):
            self._closing_channels[channel.id()] = channel
            self._log.debug(f"Tracking closing connection {channel.id()} to process outstanding requests")
        else:
            self._do_close(channel, close_mode.notify_disconnect)
        self._channels.pop(channel.id(), None)
        if self._delayed_closing_channels is not None:
            self._delayed_closing_channels.pop(channel.id(), None)
        if self._idle_expiry_manager is not None:
            self._idle_expiry_manager.remove(channel.id())

    def _do_close(self, channel: KafkaChannel, notify_disconnect: bool) -> None:
        key = channel.selection_key()
        try:
            self._immediately_connected_keys.discard(key)
            self._keys_with_buffered_read.discard(key)
            channel.close()
        except OSError as e:
            self._log.error(f"Exception closing connection to node {channel.id()}:", e)
        finally:
            key.cancel()
            key.attach(None)
        if self._sensors is not None:
            self._sensors.connection_closed.record()
        self._explicitly_muted_channels.discard(channel.id())
        if notify_disconnect:
            self._disconnected[channel.id()] = channel.state()

    # -- lookups --------------------------------------------------------------------------------------------

    def is_channel_ready(self, id: str) -> bool:
        channel = self._channels.get(id)
        return channel is not None and channel.ready()

    def _open_or_closing_channel_or_fail(self, id: str) -> KafkaChannel:
        channel = self._channels.get(id)
        if channel is None:
            channel = self._closing_channels.get(id)
        if channel is None:
            raise RuntimeError(
                "Attempt to retrieve channel for which there is no connection. Connection id "
                f"{id} existing connections {list(self._channels)}"
            )
        return channel

    def channels(self) -> list[KafkaChannel]:
        return list(self._channels.values())

    def delayed_closing_channels(self) -> list[str]:
        """The ids of the channels waiting for the failed-authentication delay before their close."""
        return list(self._delayed_closing_channels or ())

    def channel(self, id: str) -> KafkaChannel | None:
        return self._channels.get(id)

    def closing_channel(self, id: str) -> KafkaChannel | None:
        return self._closing_channels.get(id)

    def closing_channels(self) -> list[KafkaChannel]:
        """The channels closed gracefully whose last receives are still to be handed over."""
        return list(self._closing_channels.values())

    def lowest_priority_channel(self) -> KafkaChannel | None:
        if self._closing_channels:
            return next(iter(self._closing_channels.values()))
        if self._idle_expiry_manager is not None and self._idle_expiry_manager.lru_connections:
            return self.channel(next(iter(self._idle_expiry_manager.lru_connections)))
        if self._channels:
            return next(iter(self._channels.values()))
        return None

    def _has_completed_receive(self, channel: KafkaChannel) -> bool:
        return channel.id() in self._completed_receives

    def keys(self) -> set[SelectionKey]:
        return {c.selection_key() for c in self._channels.values()}

    def __enter__(self) -> Selector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SelectorMetrics:
    """Java's Selector.SelectorMetrics: the sensors of one Selector, in group `{prefix}-metrics` and, per
    connection when asked, `{prefix}-node-metrics` (tag `node-id` = `node-{id}`).

    # PORT: the per-cipher and per-client-software connection gauges (IntGaugeSuite) are not registered."""

    def __init__(
        self,
        metrics: Metrics,
        metric_grp_prefix: str,
        metric_tags: Mapping[str, str],
        metrics_per_connection: bool,
        channels: Mapping[str, KafkaChannel],
    ) -> None:
        self._metrics = metrics
        self._metric_tags = dict(metric_tags)
        self._metrics_per_connection = metrics_per_connection
        self._metric_grp_name = metric_grp_prefix + "-metrics"
        self._per_connection_metric_grp_name = metric_grp_prefix + "-node-metrics"
        self._top_level_metric_names: list[MetricName] = []
        self._sensors: list[Sensor] = []
        group = self._metric_grp_name
        tags_suffix = "".join(f"{k}-{v}" for k, v in self._metric_tags.items())

        self.connection_closed = self._sensor("connections-closed:" + tags_suffix)
        self.connection_closed.add(
            self._create_meter(group, self._metric_tags, None, "connection-close", "connections closed")
        )
        self.connection_created = self._sensor("connections-created:" + tags_suffix)
        self.connection_created.add(
            self._create_meter(group, self._metric_tags, None, "connection-creation", "new connections established")
        )
        self.successful_authentication = self._sensor("successful-authentication:" + tags_suffix)
        self.successful_authentication.add(
            self._create_meter(
                group,
                self._metric_tags,
                None,
                "successful-authentication",
                "connections with successful authentication",
            )
        )
        self.successful_reauthentication = self._sensor("successful-reauthentication:" + tags_suffix)
        self.successful_reauthentication.add(
            self._create_meter(
                group,
                self._metric_tags,
                None,
                "successful-reauthentication",
                "successful re-authentication of connections",
            )
        )
        self.successful_authentication_no_reauth = self._sensor("successful-authentication-no-reauth:" + tags_suffix)
        self.successful_authentication_no_reauth.add(
            metrics.metric_name(
                "successful-authentication-no-reauth-total",
                group,
                "The total number of connections with successful authentication where the client does not support "
                "re-authentication",
                self._metric_tags,
            ),
            CumulativeSum(),
        )
        self.failed_authentication = self._sensor("failed-authentication:" + tags_suffix)
        self.failed_authentication.add(
            self._create_meter(
                group, self._metric_tags, None, "failed-authentication", "connections with failed authentication"
            )
        )
        self.failed_reauthentication = self._sensor("failed-reauthentication:" + tags_suffix)
        self.failed_reauthentication.add(
            self._create_meter(
                group, self._metric_tags, None, "failed-reauthentication", "failed re-authentication of connections"
            )
        )
        self.reauthentication_latency = self._sensor("reauthentication-latency:" + tags_suffix)
        self.reauthentication_latency.add(
            metrics.metric_name(
                "reauthentication-latency-max",
                group,
                "The max latency observed due to re-authentication",
                self._metric_tags,
            ),
            Max(),
        )
        self.reauthentication_latency.add(
            metrics.metric_name(
                "reauthentication-latency-avg",
                group,
                "The average latency observed due to re-authentication",
                self._metric_tags,
            ),
            Avg(),
        )
        self.bytes_transferred = self._sensor("bytes-sent-received:" + tags_suffix)
        self.bytes_transferred.add(
            self._create_meter(
                group,
                self._metric_tags,
                WindowedCount(),
                "network-io",
                "network operations (reads or writes) on all connections",
            )
        )
        self.bytes_sent = self._sensor("bytes-sent:" + tags_suffix, self.bytes_transferred)
        self.bytes_sent.add(
            self._create_meter(group, self._metric_tags, None, "outgoing-byte", "outgoing bytes sent to all servers")
        )
        self.requests_sent = self._sensor("requests-sent:" + tags_suffix)
        self.requests_sent.add(
            self._create_meter(group, self._metric_tags, WindowedCount(), "request", "requests sent")
        )
        self.requests_sent.add(
            metrics.metric_name("request-size-avg", group, "The average size of requests sent.", self._metric_tags),
            Avg(),
        )
        self.requests_sent.add(
            metrics.metric_name("request-size-max", group, "The maximum size of any request sent.", self._metric_tags),
            Max(),
        )
        self.bytes_received = self._sensor("bytes-received:" + tags_suffix, self.bytes_transferred)
        self.bytes_received.add(
            self._create_meter(group, self._metric_tags, None, "incoming-byte", "bytes read off all sockets")
        )
        self.responses_received = self._sensor("responses-received:" + tags_suffix)
        self.responses_received.add(
            self._create_meter(group, self._metric_tags, WindowedCount(), "response", "responses received")
        )
        self.select_time = self._sensor("select-time:" + tags_suffix)
        self.select_time.add(
            self._create_meter(
                group,
                self._metric_tags,
                WindowedCount(),
                "select",
                "times the I/O layer checked for new I/O to perform",
            )
        )
        self.select_time.add(
            metrics.metric_name(
                "io-wait-time-ns-avg",
                group,
                "The average length of time the I/O thread spent waiting for a socket ready for reads or writes in "
                "nanoseconds.",
                self._metric_tags,
            ),
            Avg(),
        )
        self.select_time.add(self._create_io_thread_ratio_meter_legacy(group, "io-wait", "waiting"))
        self.select_time.add(self._create_io_thread_ratio_meter(group, "io-wait", "waiting"))
        self.io_time = self._sensor("io-time:" + tags_suffix)
        self.io_time.add(
            metrics.metric_name(
                "io-time-ns-avg",
                group,
                "The average length of time for I/O per select call in nanoseconds.",
                self._metric_tags,
            ),
            Avg(),
        )
        self.io_time.add(self._create_io_thread_ratio_meter_legacy(group, "io", "doing I/O"))
        self.io_time.add(self._create_io_thread_ratio_meter(group, "io", "doing I/O"))
        connection_count = metrics.metric_name(
            "connection-count", group, "The current number of active connections.", self._metric_tags
        )
        self._top_level_metric_names.append(connection_count)
        metrics.add_metric(connection_count, MeasurableFn(lambda config, now: len(channels)))

    def _create_meter(
        self, group: str, tags: Mapping[str, str], stat: SampledStat | None, base_name: str, descriptive_name: str
    ) -> Meter:
        rate_metric_name = self._metrics.metric_name(
            base_name + "-rate", group, f"The number of {descriptive_name} per second", tags
        )
        total_metric_name = self._metrics.metric_name(
            base_name + "-total", group, f"The total number of {descriptive_name}", tags
        )
        return Meter(rate_metric_name, total_metric_name, rate_stat=stat)

    def _create_io_thread_ratio_meter_legacy(self, group: str, base_name: str, action: str) -> Meter:
        # The old names: no `-ns` suffix and no dash before `time-total`, kept as Kafka keeps them.
        return Meter(
            self._metrics.metric_name(
                base_name + "-ratio",
                group,
                f"*Deprecated* The fraction of time the I/O thread spent {action}",
                self._metric_tags,
            ),
            self._metrics.metric_name(
                base_name + "time-total",
                group,
                f"*Deprecated* The total time the I/O thread spent {action}",
                self._metric_tags,
            ),
            TimeUnit.NANOSECONDS,
        )

    def _create_io_thread_ratio_meter(self, group: str, base_name: str, action: str) -> Meter:
        return Meter(
            self._metrics.metric_name(
                base_name + "-ratio", group, f"The fraction of time the I/O thread spent {action}", self._metric_tags
            ),
            self._metrics.metric_name(
                base_name + "-time-ns-total", group, f"The total time the I/O thread spent {action}", self._metric_tags
            ),
            TimeUnit.NANOSECONDS,
        )

    def _sensor(self, name: str, *parents: Sensor) -> Sensor:
        sensor = self._metrics.sensor(name, *parents)
        self._sensors.append(sensor)
        return sensor

    def maybe_register_connection_metrics(self, connection_id: str) -> None:
        """Registers the per-connection sensors of `connection_id` (once; with per-connection metrics only)."""
        if not connection_id or not self._metrics_per_connection:
            return
        node_request_name = f"node-{connection_id}.requests-sent"
        if self._metrics.get_sensor(node_request_name) is not None:
            return
        tags = dict(self._metric_tags)
        tags["node-id"] = f"node-{connection_id}"
        group = self._per_connection_metric_grp_name
        node_request = self._sensor(node_request_name)
        node_request.add(self._create_meter(group, tags, WindowedCount(), "request", "requests sent"))
        node_request.add(
            self._metrics.metric_name("request-size-avg", group, "The average size of requests sent.", tags), Avg()
        )
        node_request.add(
            self._metrics.metric_name("request-size-max", group, "The maximum size of any request sent.", tags), Max()
        )
        self._sensor(f"node-{connection_id}.bytes-sent").add(
            self._create_meter(group, tags, None, "outgoing-byte", "outgoing bytes")
        )
        self._sensor(f"node-{connection_id}.responses-received").add(
            self._create_meter(group, tags, WindowedCount(), "response", "responses received")
        )
        self._sensor(f"node-{connection_id}.bytes-received").add(
            self._create_meter(group, tags, None, "incoming-byte", "incoming bytes")
        )
        node_request_time = self._sensor(f"node-{connection_id}.latency")
        node_request_time.add(self._metrics.metric_name("request-latency-avg", group, "", tags), Avg())
        node_request_time.add(self._metrics.metric_name("request-latency-max", group, "", tags), Max())

    def _node_sensor(self, connection_id: str, suffix: str) -> Sensor | None:
        if not connection_id or not self._metrics_per_connection:
            return None
        return self._metrics.get_sensor(f"node-{connection_id}.{suffix}")

    # The four below run for every send and receive: the per-connection sensor is looked up only with per-connection
    # metrics (not the broker's, whose Selectors have none), without a _node_sensor call otherwise.

    def record_bytes_sent(self, connection_id: str, num_bytes: int, current_time_ms: int) -> None:
        self.bytes_sent.record(num_bytes, current_time_ms, False)
        if self._metrics_per_connection:
            sensor = self._node_sensor(connection_id, "bytes-sent")
            if sensor is not None:
                sensor.record(num_bytes, current_time_ms)

    def record_completed_send(self, connection_id: str, total_bytes: int, current_time_ms: int) -> None:
        self.requests_sent.record(total_bytes, current_time_ms, False)
        if self._metrics_per_connection:
            sensor = self._node_sensor(connection_id, "requests-sent")
            if sensor is not None:
                sensor.record(total_bytes, current_time_ms)

    def record_bytes_received(self, connection_id: str, num_bytes: int, current_time_ms: int) -> None:
        self.bytes_received.record(num_bytes, current_time_ms, False)
        if self._metrics_per_connection:
            sensor = self._node_sensor(connection_id, "bytes-received")
            if sensor is not None:
                sensor.record(num_bytes, current_time_ms)

    def record_completed_receive(self, connection_id: str, total_bytes: int, current_time_ms: int) -> None:
        self.responses_received.record(total_bytes, current_time_ms, False)
        if self._metrics_per_connection:
            sensor = self._node_sensor(connection_id, "responses-received")
            if sensor is not None:
                sensor.record(total_bytes, current_time_ms)

    def close(self) -> None:
        for metric_name in self._top_level_metric_names:
            self._metrics.remove_metric(metric_name)
        for sensor in self._sensors:
            self._metrics.remove_sensor(sensor.name())
