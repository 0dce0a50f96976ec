"""Port of core/src/main/scala/kafka/network/SocketServer.scala (Kafka 2.8).

The broker's network layer. Per listener one Acceptor thread takes new connections and deals them out
round-robin to `num.network.threads` Processor threads. Each Processor owns a selector over its
connections: it reads whole request frames, hands them to the RequestChannel for the request handler
threads, and writes the responses that come back through its response queue. A connection is muted
while it has a request in flight, so that it is served one request at a time and its responses keep
the order of its requests. ConnectionQuotas counts connections per IP, per listener and per broker.

Threads: `kafka-socket-acceptor-{listener}-{protocol}-{port}` (one per listener) and
`kafka-network-thread-{brokerId}-{listener}-{protocol}-{processorId}`, both non-daemon.

Lock order: SocketServer's lock, then an Acceptor's lock, then ConnectionQuotas' lock. A Processor's
state is touched only by its own thread, except its new-connection and response queues (deques with one
producer side and one consumer) and its selector's wakeup; the condition an Acceptor waits on for room in
a Processor's new-connection queue is taken with no other lock held.

# PORT: Kafka's Processor drives the clients' `Selector`, `KafkaChannel`, `NetworkReceive` and `NetworkSend`
# (clients/.../common/network). This port serves PLAINTEXT only, and the server side of those classes lives
# at the end of this module (`_Selector`, `_KafkaChannel`, `_NetworkReceive`, `_NetworkSend`, with
# `SimpleMemoryPool` from clients/.../common/memory) until the clients' network package is ported. Left out
# until this port has them: SSL and SASL listeners (rejected at startup), the control-plane listener,
# metrics (gauges, sensors) and with them connection-creation-rate quotas, and re-authentication.
# Kafka 2.8 prefixes its thread names with `data-plane-`; this port uses the names without the prefix, as
# Kafka did before the control plane existed (the project's thread-name rule).
"""

from __future__ import annotations

import enum
import errno
import ipaddress
import logging
import select
import selectors
import socket
import struct
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from typing import Any, Final, Protocol

from kafka.cluster.end_point import EndPoint
from kafka.common.errors import KafkaException
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.request_context import ClientInformation, KafkaPrincipal, RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.time import Time
from kafka.network.request_channel import (
    CloseConnectionResponse,
    EndThrottlingResponse,
    NoOpResponse,
    Request,
    RequestChannel,
    Response,
    SendResponse,
    StartThrottlingResponse,
    send_size,
)
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.core_utils import swallow
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.logging import TRACE, Logging

__all__ = [
    "AbstractServerThread",
    "Acceptor",
    "ConnectionQuotas",
    "InvalidReceiveException",
    "MemoryPool",
    "Processor",
    "SimpleMemoryPool",
    "SocketChannel",
    "SocketServer",
    "SocketServerConfig",
    "TooManyConnectionsException",
]

METRICS_GROUP: Final = "socket-server-metrics"
DATA_PLANE_THREAD_PREFIX: Final = "data-plane"
CONTROL_PLANE_THREAD_PREFIX: Final = "control-plane"
DATA_PLANE_METRIC_PREFIX: Final = ""
CONTROL_PLANE_METRIC_PREFIX: Final = "ControlPlane"

MAX_CONNECTIONS_PER_IP_PROP: Final = "max.connections.per.ip"
MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP: Final = "max.connections.per.ip.overrides"
MAX_CONNECTIONS_PROP: Final = "max.connections"
MAX_CONNECTION_CREATION_RATE_PROP: Final = "max.connection.creation.rate"
# PORT: Kafka also lists max.connection.creation.rate here; connection rate quotas are not ported yet.
RECONFIGURABLE_CONFIGS: Final = frozenset(
    {MAX_CONNECTIONS_PER_IP_PROP, MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP, MAX_CONNECTIONS_PROP}
)
LISTENER_RECONFIGURABLE_CONFIGS: Final = frozenset({MAX_CONNECTIONS_PROP})

USE_DEFAULT_BUFFER_SIZE: Final = -1
"""Selectable.USE_DEFAULT_BUFFER_SIZE: leave the OS's socket buffer size."""

_INT_MAX: Final = 2**31 - 1

# For level checks on the per-request path (cheaper than the Logging mixin's, which looks the logger up each time).
_processor_logger = logging.getLogger("kafka.network.Processor")
_selector_logger = logging.getLogger("org.apache.kafka.common.network.Selector")


class SocketServerConfig(Protocol):
    """The parts of KafkaConfig the network layer reads."""

    @property
    def broker_id(self) -> int: ...
    @property
    def listeners(self) -> Sequence[EndPoint]: ...
    @property
    def inter_broker_listener_name(self) -> ListenerName: ...
    @property
    def num_network_threads(self) -> int: ...
    @property
    def queued_max_requests(self) -> int: ...
    @property
    def queued_max_request_bytes(self) -> int: ...
    @property
    def socket_request_max_bytes(self) -> int: ...
    @property
    def socket_send_buffer_bytes(self) -> int: ...
    @property
    def socket_receive_buffer_bytes(self) -> int: ...
    @property
    def connections_max_idle_ms(self) -> int: ...
    @property
    def max_connections_per_ip(self) -> int: ...
    @property
    def max_connections_per_ip_overrides(self) -> Mapping[str, int]: ...
    @property
    def max_connections(self) -> int: ...
    def values_with_prefix_override(self, prefix: str) -> dict[str, Any]: ...


class SocketServer(Logging):
    """Creates, starts and stops the Acceptors and Processors of every listener, and owns the request channel.

    `startup()` binds every listener (so `bound_port` is known, also for port 0) and, unless told otherwise,
    starts the threads; `start_processing_requests()` starts them later (the broker does so once it is ready
    to serve). `stop_processing_requests()` stops them, `shutdown()` also releases the request channel."""

    logger_name = "kafka.network.SocketServer"

    def __init__(self, config: SocketServerConfig, time: Time = Time.SYSTEM, credential_provider: Any = None) -> None:
        self.config = config
        self.time = time
        # PORT: kept for the broker's wiring; SASL credentials have no use until SASL listeners are ported.
        self.credential_provider = credential_provider
        self._max_queued_requests = config.queued_max_requests
        self._node_id = config.broker_id
        self.log_ident = f"[SocketServer listenerType=ZK_BROKER, nodeId={self._node_id}] "
        queued_max_bytes = config.queued_max_request_bytes
        self._memory_pool: MemoryPool = (
            SimpleMemoryPool(queued_max_bytes, config.socket_request_max_bytes, False)
            if queued_max_bytes > 0
            else MemoryPool.NONE
        )
        self._data_plane_processors: dict[int, Processor] = {}
        self.data_plane_acceptors: dict[EndPoint, Acceptor] = {}
        self.data_plane_request_channel = RequestChannel(self._max_queued_requests, DATA_PLANE_METRIC_PREFIX, time)
        self._next_processor_id = 0
        self.connection_quotas = ConnectionQuotas(config, time)
        self._started_processing_requests = False
        self._stopped_processing_requests = False
        self._lock = threading.RLock()  # `this.synchronized`

    def startup(
        self, start_processing_requests: bool = True, data_plane_listeners: Sequence[EndPoint] | None = None
    ) -> None:
        """Binds every listener and creates its Acceptor and Processors; starts them if `start_processing_requests`."""
        with self._lock:
            listeners = self.config.listeners if data_plane_listeners is None else data_plane_listeners
            self._create_data_plane_acceptors_and_processors(self.config.num_network_threads, listeners)
            if start_processing_requests:
                self.start_processing_requests()

    def start_processing_requests(self, authorizer_futures: Mapping[str, Future[Any]] | None = None) -> None:
        """Starts the Processors and Acceptors (inter-broker listener first), each listener once the authorizer's
        future for that listener name (if any) is done."""
        self.info("Starting socket server acceptors and processors")
        with self._lock:
            if not self._started_processing_requests:
                self._start_data_plane_processors_and_acceptors(authorizer_futures or {})
                self._started_processing_requests = True
            else:
                self.info("Socket server acceptors and processors already started")
        self.info("Started socket server acceptors and processors")

    def _start_acceptor_and_processors(
        self, endpoint: EndPoint, acceptor: Acceptor, authorizer_futures: Mapping[str, Future[Any]]
    ) -> None:
        listener = endpoint.listener_name.value
        self.debug(f"Wait for authorizer to complete start up on listener {listener}")
        self._wait_for_authorizer_future(acceptor, authorizer_futures)
        self.debug(f"Start processors on listener {listener}")
        acceptor.start_processors()
        self.debug(f"Start acceptor thread on listener {listener}")
        if not acceptor.is_started():
            KafkaThread.non_daemon(
                f"kafka-socket-acceptor-{listener}-{endpoint.security_protocol.name}-{endpoint.port}", acceptor.run
            ).start()
            acceptor.await_startup()
        self.info(f"Started data-plane acceptor and processor(s) for endpoint : {listener}")

    def _start_data_plane_processors_and_acceptors(self, authorizer_futures: Mapping[str, Future[Any]]) -> None:
        inter_broker = self.config.inter_broker_listener_name
        ordered = sorted(self.data_plane_acceptors.items(), key=lambda e: e[0].listener_name != inter_broker)
        for endpoint, acceptor in ordered:
            self._start_acceptor_and_processors(endpoint, acceptor, authorizer_futures)

    def _create_data_plane_acceptors_and_processors(
        self, data_processors_per_listener: int, endpoints: Iterable[EndPoint]
    ) -> None:
        for endpoint in endpoints:
            if endpoint.security_protocol is not SecurityProtocol.PLAINTEXT:
                raise KafkaException(
                    f"Listener {endpoint.listener_name.value} uses {endpoint.security_protocol.name}, "
                    "which this broker does not implement yet (only PLAINTEXT)"
                )
            self.connection_quotas.add_listener(self.config, endpoint.listener_name)
            acceptor = self._create_acceptor(endpoint, DATA_PLANE_METRIC_PREFIX)
            self._add_data_plane_processors(acceptor, endpoint, data_processors_per_listener)
            self.data_plane_acceptors[endpoint] = acceptor
            self.info(f"Created data-plane acceptor and processors for endpoint : {endpoint.listener_name.value}")

    def _create_acceptor(self, end_point: EndPoint, metric_prefix: str) -> Acceptor:
        return Acceptor(
            end_point,
            self.config.socket_send_buffer_bytes,
            self.config.socket_receive_buffer_bytes,
            self._node_id,
            self.connection_quotas,
            metric_prefix,
            self.time,
            self.log_ident or "",
        )

    def _add_data_plane_processors(
        self, acceptor: Acceptor, endpoint: EndPoint, new_processors_per_listener: int
    ) -> None:
        listener_name = endpoint.listener_name
        # Without a control plane, the inter-broker listener is the privileged one (it may forward requests).
        is_privileged_listener = self.config.inter_broker_listener_name == listener_name
        listener_processors = []
        for _ in range(new_processors_per_listener):
            processor = self.new_processor(
                self._next_processor_id,
                self.data_plane_request_channel,
                self.connection_quotas,
                listener_name,
                endpoint.security_protocol,
                self._memory_pool,
                is_privileged_listener,
            )
            listener_processors.append(processor)
            self.data_plane_request_channel.add_processor(processor)
            self._next_processor_id += 1
        for p in listener_processors:
            self._data_plane_processors[p.id] = p
        acceptor.add_processors(listener_processors)

    def stop_processing_requests(self) -> None:
        """Stops the Acceptors and Processors (closing every connection) and drops the queued requests."""
        self.info("Stopping socket server request processors")
        with self._lock:
            acceptors = list(self.data_plane_acceptors.values())
            for acceptor in acceptors:
                acceptor.initiate_shutdown()
            for acceptor in acceptors:
                acceptor.await_shutdown()
            self.data_plane_request_channel.clear()
            self._stopped_processing_requests = True
        self.info("Stopped socket server request processors")

    def resize_thread_pool(self, old_num_network_threads: int, new_num_network_threads: int) -> None:
        with self._lock:
            self.info(
                "Resizing network thread pool size for each data-plane listener from "
                f"{old_num_network_threads} to {new_num_network_threads}"
            )
            if new_num_network_threads > old_num_network_threads:
                for endpoint, acceptor in self.data_plane_acceptors.items():
                    self._add_data_plane_processors(
                        acceptor, endpoint, new_num_network_threads - old_num_network_threads
                    )
            elif new_num_network_threads < old_num_network_threads:
                for acceptor in self.data_plane_acceptors.values():
                    for removed in acceptor.remove_processors(
                        old_num_network_threads - new_num_network_threads, self.data_plane_request_channel
                    ):
                        self._data_plane_processors.pop(removed.id, None)

    def shutdown(self) -> None:
        """Stops processing if still running, then releases the request channel and the connection quotas."""
        self.info("Shutting down socket server")
        with self._lock:
            if not self._stopped_processing_requests:
                self.stop_processing_requests()
            self.data_plane_request_channel.shutdown()
            self.connection_quotas.close()
        self.info("Shutdown completed")

    def bound_port(self, listener_name: ListenerName | str) -> int:
        """The port a listener is bound to (the ephemeral port chosen by the OS for a configured port 0)."""
        name = listener_name if isinstance(listener_name, str) else listener_name.value
        try:
            for endpoint, acceptor in self.data_plane_acceptors.items():
                if endpoint.listener_name.value == name:
                    return int(acceptor.server_channel.getsockname()[1])
            raise KafkaException(f"Could not find listenerName : {name} in data-plane or control-plane")
        except Exception as e:
            raise KafkaException(
                "Tried to check server's port before server was started or checked for port of non-existing protocol"
            ) from e

    def add_listeners(self, listeners_added: Sequence[EndPoint]) -> None:
        with self._lock:
            self.info(f"Adding data-plane listeners for endpoints {[str(e) for e in listeners_added]}")
            self._create_data_plane_acceptors_and_processors(self.config.num_network_threads, listeners_added)
            for endpoint in listeners_added:
                self._start_acceptor_and_processors(endpoint, self.data_plane_acceptors[endpoint], {})

    def remove_listeners(self, listeners_removed: Sequence[EndPoint]) -> None:
        with self._lock:
            self.info(f"Removing data-plane listeners for endpoints {[str(e) for e in listeners_removed]}")
            for endpoint in listeners_removed:
                self.connection_quotas.remove_listener(self.config, endpoint.listener_name)
                acceptor = self.data_plane_acceptors.pop(endpoint, None)
                if acceptor is not None:
                    acceptor.initiate_shutdown()
                    acceptor.await_shutdown()

    def reconfigurable_configs(self) -> frozenset[str]:
        return RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, new_config: SocketServerConfig) -> None:
        """Nothing to check: the new values are applied as they are."""

    def reconfigure(self, old_config: SocketServerConfig, new_config: SocketServerConfig) -> None:
        max_connections_per_ip = new_config.max_connections_per_ip
        if max_connections_per_ip != old_config.max_connections_per_ip:
            self.info(f"Updating maxConnectionsPerIp: {max_connections_per_ip}")
            self.connection_quotas.update_max_connections_per_ip(max_connections_per_ip)
        overrides = new_config.max_connections_per_ip_overrides
        if overrides != old_config.max_connections_per_ip_overrides:
            self.info(f"Updating maxConnectionsPerIpOverrides: {','.join(f'{k}={v}' for k, v in overrides.items())}")
            self.connection_quotas.update_max_connections_per_ip_override(overrides)
        max_connections = new_config.max_connections
        if max_connections != old_config.max_connections:
            self.info(f"Updating broker-wide maxConnections: {max_connections}")
            self.connection_quotas.update_broker_max_connections(max_connections)

    def _wait_for_authorizer_future(self, acceptor: Acceptor, authorizer_futures: Mapping[str, Future[Any]]) -> None:
        # Matched by listener name rather than by endpoint: with ephemeral ports the endpoints differ.
        for listener_name, future in authorizer_futures.items():
            if listener_name == acceptor.end_point.listener_name.value:
                future.result()

    def new_processor(
        self,
        id: int,
        request_channel: RequestChannel,
        connection_quotas: ConnectionQuotas,
        listener_name: ListenerName,
        security_protocol: SecurityProtocol,
        memory_pool: MemoryPool,
        is_privileged_listener: bool,
    ) -> Processor:
        return Processor(
            id,
            self.time,
            self.config.socket_request_max_bytes,
            request_channel,
            connection_quotas,
            self.config.connections_max_idle_ms,
            listener_name,
            security_protocol,
            memory_pool,
            self.log_ident or "",
            Processor.CONNECTION_QUEUE_SIZE,
            is_privileged_listener,
        )

    def connection_count(self, address: str) -> int:
        """Open connections from an IP address (for tests)."""
        return self.connection_quotas.get(address)

    def data_plane_processor(self, index: int) -> Processor | None:
        return self._data_plane_processors.get(index)


class AbstractServerThread(Logging, ABC):
    """What Acceptor and Processor share: start-up and shut-down latches, the running flag, closing sockets.

    These are runnables: their owner creates the named thread that runs `run()`."""

    def __init__(self, connection_quotas: ConnectionQuotas) -> None:
        self.connection_quotas = connection_quotas
        self._startup_latch = CountDownLatch(1)
        # Open until startup completes, so that shutting down a runnable that never ran does not wait.
        self._shutdown_latch = CountDownLatch(0)
        self._alive = AtomicBoolean(True)

    @abstractmethod
    def wakeup(self) -> None:
        """Wakes the thread from its selector wait."""

    @abstractmethod
    def run(self) -> None: ...

    def initiate_shutdown(self) -> None:
        """Asks the thread to stop (idempotent, does not wait)."""
        if self._alive.get_and_set(False):
            self.wakeup()

    def await_shutdown(self) -> None:
        """Waits until the thread has stopped (returns at once if it never started)."""
        # Waited in slices so that the waiting thread stays interruptible (Ctrl-C in the main thread).
        while not self._shutdown_latch.await_(1.0):
            pass

    def is_started(self) -> bool:
        return self._startup_latch.count == 0

    def await_startup(self) -> None:
        while not self._startup_latch.await_(1.0):
            pass

    def startup_complete(self) -> None:
        self._shutdown_latch = CountDownLatch(1)
        self._startup_latch.count_down()

    def shutdown_complete(self) -> None:
        self._shutdown_latch.count_down()

    @property
    def is_running(self) -> bool:
        return self._alive.get()

    def close(self, listener_name: ListenerName, channel: SocketChannel | None) -> None:
        """Closes an accepted socket that no Processor serves yet, and gives back its connection count."""
        if channel is not None:
            self.debug(f"Closing connection from {channel.remote_host}:{channel.remote_port}")
            self.connection_quotas.dec(listener_name, channel.remote_host)
            self.close_socket(channel)

    def close_socket(self, channel: SocketChannel) -> None:
        swallow(channel.sock.close, self)


class Acceptor(AbstractServerThread):
    """Accepts the connections of one listener and deals them out round-robin to its Processors."""

    logger_name = "kafka.network.Acceptor"

    def __init__(
        self,
        end_point: EndPoint,
        send_buffer_size: int,
        recv_buffer_size: int,
        node_id: int,
        connection_quotas: ConnectionQuotas,
        metric_prefix: str,
        time: Time,
        log_prefix: str = "",
    ) -> None:
        super().__init__(connection_quotas)
        self.log_ident = log_prefix
        self.end_point = end_point
        self.send_buffer_size = send_buffer_size
        self.recv_buffer_size = recv_buffer_size
        self._node_id = node_id
        self._metric_prefix = metric_prefix
        self._time = time
        self._nio_selector = selectors.DefaultSelector()
        self._wakeup_read, self._wakeup_write = socket.socketpair()
        self._wakeup_read.setblocking(False)
        self._wakeup_write.setblocking(False)
        try:
            self.server_channel = self._open_server_socket(end_point.host, end_point.port)
        except BaseException:
            self._close_selector()
            raise
        self._processors: list[Processor] = []
        self._processors_started = AtomicBoolean(False)
        self._current_processor_index = 0
        self._lock = threading.RLock()  # `this.synchronized`

    def add_processors(self, new_processors: list[Processor]) -> None:
        with self._lock:
            self._processors.extend(new_processors)
            if self._processors_started.get():
                self._start_processors(new_processors)

    def start_processors(self) -> None:
        with self._lock:
            if not self._processors_started.get_and_set(True):
                self._start_processors(self._processors)

    def _start_processors(self, processors: Sequence[Processor]) -> None:
        with self._lock:
            for processor in processors:
                KafkaThread.non_daemon(
                    f"kafka-network-thread-{self._node_id}-{self.end_point.listener_name.value}-"
                    f"{self.end_point.security_protocol.name}-{processor.id}",
                    processor.run,
                ).start()

    def remove_processors(self, remove_count: int, request_channel: RequestChannel) -> list[Processor]:
        """Stops the last `remove_count` Processors (closing their connections) and returns them. They leave the
        list first, so that no new connection goes to them; responses still due to them are dropped."""
        with self._lock:
            to_remove = self._processors[len(self._processors) - remove_count :]
            del self._processors[len(self._processors) - remove_count :]
            for processor in to_remove:
                processor.initiate_shutdown()
            for processor in to_remove:
                processor.await_shutdown()
            for processor in to_remove:
                request_channel.remove_processor(processor.id)
            return to_remove

    def initiate_shutdown(self) -> None:
        super().initiate_shutdown()
        with self._lock:
            for processor in self._processors:
                processor.initiate_shutdown()

    def await_shutdown(self) -> None:
        super().await_shutdown()
        if not self.is_started():
            # Never ran: its listening socket was bound in the constructor and is closed here.
            self._close_server_socket()
        with self._lock:
            for processor in self._processors:
                processor.await_shutdown()

    def run(self) -> None:
        """The accept loop."""
        self._nio_selector.register(self.server_channel, selectors.EVENT_READ, self.server_channel)
        self._nio_selector.register(self._wakeup_read, selectors.EVENT_READ, None)
        self.startup_complete()
        try:
            while self.is_running:
                try:
                    self._accept_new_connections()
                except Exception as e:
                    # Nothing that one connection does may stop the acceptor.
                    self.error("Error occurred", e)
        finally:
            self.debug("Closing server socket, selector, and any throttled sockets.")
            self._close_server_socket()
            self.shutdown_complete()

    def _close_server_socket(self) -> None:
        swallow(self.server_channel.close, self)
        self._close_selector()

    def _close_selector(self) -> None:
        swallow(self._nio_selector.close, self)
        swallow(self._wakeup_read.close, self)
        swallow(self._wakeup_write.close, self)

    def _open_server_socket(self, host: str | None, port: int) -> socket.socket:
        """A non-blocking listening socket; an empty host listens on every interface (IPv6 and IPv4 if possible)."""
        address: tuple[Any, ...]
        if host is None or not host.strip():
            if socket.has_dualstack_ipv6():
                family, address, display = socket.AF_INET6, ("::", port), "0.0.0.0"
            else:
                family, address, display = socket.AF_INET, ("0.0.0.0", port), "0.0.0.0"
        else:
            try:
                info = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)[0]
            except OSError as e:
                raise KafkaException(f"Socket server failed to bind to {host}:{port}: {e}.") from e
            family, address, display = info[0], info[4], host
        server = socket.socket(family, socket.SOCK_STREAM)
        try:
            # As Java's ServerSocketChannel on Unix: a restarted broker can bind again at once.
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and address[0] == "::":
                server.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            server.setblocking(False)
            if self.recv_buffer_size != USE_DEFAULT_BUFFER_SIZE:
                server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.recv_buffer_size)
            server.bind(address)
            # PORT: Java binds with a backlog of 50; a deeper queue lets bursts of thousands of clients connect
            # without SYN retries.
            server.listen(socket.SOMAXCONN)
        except OSError as e:
            server.close()
            raise KafkaException(f"Socket server failed to bind to {display}:{port}: {e}.") from e
        self.info(f"Awaiting socket connections on {display}:{server.getsockname()[1]}.")
        return server

    def _accept_new_connections(self) -> None:
        ready = self._nio_selector.select(0.5)
        for key, _ in ready:
            if not self.is_running:
                break
            try:
                if key.data is None:
                    _drain(self._wakeup_read)
                    continue
                socket_channel = self._accept()
                if socket_channel is None:
                    continue
                # The next processor in turn; when every processor's queue of new connections is full, wait
                # on the last one tried.
                with self._lock:
                    retries_left = len(self._processors)
                while True:
                    retries_left -= 1
                    with self._lock:
                        self._current_processor_index = self._current_processor_index % len(self._processors)
                        processor = self._processors[self._current_processor_index]
                    self._current_processor_index += 1
                    if self._assign_new_connection(socket_channel, processor, retries_left == 0):
                        break
            except Exception as e:
                self.error("Error while accepting connection", e)

    def _accept(self) -> SocketChannel | None:
        try:
            sock, address = self.server_channel.accept()
        except BlockingIOError:
            return None
        except OSError as e:
            if e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                # PORT: out of file descriptors the listening socket stays readable; Kafka would spin on it. Back
                # off a little (woken early by shutdown) so that connections closing elsewhere can free some.
                self.error(f"Error while accepting connection: {e}")
                select.select([self._wakeup_read], [], [], 0.1)
                return None
            raise
        channel = SocketChannel(sock, _host_address(address[0]), address[1])
        try:
            self.connection_quotas.inc(self.end_point.listener_name, channel.remote_host, self._keep_waiting)
        except ConnectionSlotWaitAborted:
            self.close_socket(channel)  # never counted
            return None
        except TooManyConnectionsException as e:
            self.info(
                f"Rejected connection from /{e.ip}, address already has the configured maximum of {e.count} "
                "connections."
            )
            self.close(self.end_point.listener_name, channel)
            return None
        try:
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            if self.send_buffer_size != USE_DEFAULT_BUFFER_SIZE:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer_size)
        except OSError:
            self.close(self.end_point.listener_name, channel)
            raise
        return channel

    def _keep_waiting(self) -> bool:
        return self.is_running

    def _assign_new_connection(self, socket_channel: SocketChannel, processor: Processor, may_block: bool) -> bool:
        if processor.accept(socket_channel, may_block):
            if self.is_debug_enabled():
                sock = socket_channel.sock
                try:
                    send_buffer = sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
                    recv_buffer = sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
                    local = sock.getsockname()
                except OSError:
                    return True
                self.debug(
                    f"Accepted connection from /{socket_channel.remote_host}:{socket_channel.remote_port} on "
                    f"/{local[0]}:{local[1]} and assigned it to processor {processor.id}, sendBufferSize "
                    f"[actual|requested]: [{send_buffer}|{self.send_buffer_size}] recvBufferSize "
                    f"[actual|requested]: [{recv_buffer}|{self.recv_buffer_size}]"
                )
            return True
        return False

    def wakeup(self) -> None:
        try:
            self._wakeup_write.send(b"\x00")
        except OSError:
            pass  # full: a wakeup is already pending; closed: the acceptor has stopped


class Processor(AbstractServerThread):
    """Serves the connections handed to it by its Acceptor: reads request frames, queues them for the request
    handlers, and writes the responses they send back, one request in flight per connection."""

    logger_name = "kafka.network.Processor"

    IDLE_PERCENT_METRIC_NAME: Final = "IdlePercent"
    NETWORK_PROCESSOR_METRIC_TAG: Final = "networkProcessor"
    LISTENER_METRIC_TAG: Final = "listener"
    CONNECTION_QUEUE_SIZE: Final = 20

    def __init__(
        self,
        id: int,
        time: Time,
        max_request_size: int,
        request_channel: RequestChannel,
        connection_quotas: ConnectionQuotas,
        connections_max_idle_ms: int,
        listener_name: ListenerName,
        security_protocol: SecurityProtocol,
        memory_pool: MemoryPool,
        log_prefix: str = "",
        connection_queue_size: int = CONNECTION_QUEUE_SIZE,
        is_privileged_listener: bool = False,
    ) -> None:
        super().__init__(connection_quotas)
        self.id = id
        self.log_ident = log_prefix
        self._time = time
        self._request_channel = request_channel
        self._listener_name = listener_name
        self._security_protocol = security_protocol
        self._memory_pool = memory_pool
        self._connection_queue_size = connection_queue_size
        self._is_privileged_listener = is_privileged_listener
        # Filled by the Acceptor thread only, emptied by this thread only.
        self._new_connections: deque[SocketChannel] = deque()
        self._new_connection_taken = threading.Condition(threading.Lock())
        self._acceptor_waiting = False
        self._inflight_responses: dict[str, Response] = {}
        self._response_queue: deque[Response] = deque()
        self.expired_connections_killed_count = 0
        self._selector = _Selector(max_request_size, connections_max_idle_ms, time, memory_pool, log_prefix)
        # Connection ids are `localAddr:localPort-remoteAddr:remotePort-index`; the index keeps an id from
        # being reused while requests of a closed connection with the same ports may still be in flight.
        self._next_connection_index = 0

    def run(self) -> None:
        self.startup_complete()
        try:
            selector = self._selector
            while self.is_running:
                try:
                    if self._new_connections:
                        self._configure_new_connections()
                    # PORT: Kafka takes new responses before the poll and writes them in it. Responses are written
                    # as soon as they are taken here (see _Selector), so they are taken right after the poll that
                    # the handler's wakeup ended, and their completion is handled in the same round.
                    self._poll()
                    self._process_new_responses()
                    if selector.completed_receives:
                        self._process_completed_receives()
                    if selector.completed_sends:
                        self._process_completed_sends()
                    if selector.disconnected:
                        self._process_disconnected()
                    self._close_excess_connections()
                except Exception as e:
                    # The methods above deal with a failing connection themselves; whatever still gets here must
                    # not end the thread, which would leave its connections unserved.
                    self.process_exception("Processor got uncaught exception.", e)
        finally:
            self.debug(f"Closing selector - processor {self.id}")
            swallow(self._close_all, self)
            self.shutdown_complete()

    def process_exception(self, error_message: str, throwable: BaseException) -> None:
        self.error(error_message, throwable)

    def _process_channel_exception(self, channel_id: str, error_message: str, throwable: BaseException) -> None:
        if self.open_or_closing_channel(channel_id) is not None:
            self.error(f"Closing socket for {channel_id} because of error", throwable)
            self._close(channel_id)
        self.process_exception(error_message, throwable)

    def _process_new_responses(self) -> None:
        while (current_response := self._dequeue_response()) is not None:
            channel_id = current_response.request.context.connection_id
            try:
                match current_response:
                    case NoOpResponse():
                        # Nothing to send: read the connection's next (possibly already waiting) request.
                        self._update_request_metrics(current_response)
                        self.trace(
                            f"Socket server received empty response to send, registering for read: {current_response}"
                        )
                        self._handle_channel_mute_event(channel_id, ChannelMuteEvent.RESPONSE_SENT)
                        self._try_unmute_channel(channel_id)
                    case SendResponse():
                        self.send_response(current_response, current_response.response_send)
                    case CloseConnectionResponse():
                        self._update_request_metrics(current_response)
                        self.trace("Closing socket connection actively according to the response code.")
                        self._close(channel_id)
                    case StartThrottlingResponse():
                        self._handle_channel_mute_event(channel_id, ChannelMuteEvent.THROTTLE_STARTED)
                    case EndThrottlingResponse():
                        # Unmuted only if the response has been sent already.
                        self._handle_channel_mute_event(channel_id, ChannelMuteEvent.THROTTLE_ENDED)
                        self._try_unmute_channel(channel_id)
                    case _:
                        raise ValueError(f"Unknown response type: {type(current_response).__name__}")
            except Exception as e:
                self._process_channel_exception(channel_id, f"Exception while processing response for {channel_id}", e)

    def send_response(self, response: Response, response_send: list[Any]) -> None:
        connection_id = response.request.context.connection_id
        if _processor_logger.isEnabledFor(TRACE):
            self.trace(
                f"Socket server received response to send to {connection_id}, registering for write and sending "
                f"data: {response}"
            )
        # The connection may be gone: closed by the client, or by the selector for being idle too long.
        if self.channel(connection_id) is None:
            self.warn(
                f"Attempting to send response via channel for which there is no open connection, connection id "
                f"{connection_id}"
            )
            response.request.update_request_metrics(0, response)
        if self.open_or_closing_channel(connection_id) is not None:
            self._selector.send(_NetworkSend(connection_id, response_send))
            self._inflight_responses[connection_id] = response

    def _poll(self) -> None:
        poll_timeout = 0 if self._new_connections else 300
        try:
            self._selector.poll(poll_timeout)
        except (RuntimeError, OSError) as e:
            # What the poll did complete is still processed.
            self.error(f"Processor {self.id} poll failed", e)

    def parse_request_header(self, buffer: ByteBufferAccessor) -> RequestHeader:
        """Reads the header (leaving `buffer` at the body). Unknown api keys and APIs a ZooKeeper-mode broker does
        not serve fail here with InvalidRequestException."""
        return RequestHeader.parse(buffer)

    def _process_completed_receives(self) -> None:
        selector = self._selector
        for receive in selector.completed_receives:
            connection_id = receive.source
            try:
                channel = self.open_or_closing_channel(connection_id)
                if channel is None:
                    raise RuntimeError(
                        f"Channel {connection_id} removed from selector before processing completed receive"
                    )
                buffer = ByteBufferAccessor(receive.payload())
                header = self.parse_request_header(buffer)
                now_nanos = self._time.nanoseconds()
                context = RequestContext(
                    header,
                    connection_id,
                    channel.socket_address,
                    channel.principal,
                    self._listener_name,
                    self._security_protocol.name,
                    channel.client_information,
                    self._is_privileged_listener,
                )
                req = Request(self.id, context, now_nanos, self._memory_pool, buffer, None, self._time)
                # KIP-511: the client names its software in ApiVersions; it is remembered per connection here,
                # so that the api layer need not know connections.
                if header.api_key is ApiKeys.API_VERSIONS:
                    api_versions_request = req.body
                    if isinstance(api_versions_request, ApiVersionsRequest) and api_versions_request.is_valid():
                        data = api_versions_request.data
                        channel.client_information = ClientInformation(
                            data.client_software_name, data.client_software_version
                        )
                self._send_request(req)
                selector.mute(connection_id)
                self._handle_channel_mute_event(connection_id, ChannelMuteEvent.REQUEST_RECEIVED)
            except Exception as e:
                self._process_channel_exception(
                    connection_id, f"Exception while processing request from {connection_id}", e
                )
        selector.clear_completed_receives()

    def _send_request(self, request: Request) -> None:
        # PORT: Kafka's processor waits without bound for room in the request queue; this waits in slices and
        # gives up when the processor is shut down (the connection is closed with all the others then).
        while not self._request_channel.send_request(request, 300):
            if not self.is_running:
                return

    def _process_completed_sends(self) -> None:
        selector = self._selector
        for send in selector.completed_sends:
            try:
                response = self._inflight_responses.pop(send.destination_id, None)
                if response is None:
                    raise RuntimeError(f"Send for {send.destination_id} completed, but not in `inflightResponses`")
                self._update_request_metrics(response)
                on_complete = response.on_complete
                if on_complete is not None:
                    on_complete(send.parts)
                # Unmuted at once unless the client is being throttled.
                self._handle_channel_mute_event(send.destination_id, ChannelMuteEvent.RESPONSE_SENT)
                self._try_unmute_channel(send.destination_id)
            except Exception as e:
                self._process_channel_exception(
                    send.destination_id, f"Exception while processing completed send to {send.destination_id}", e
                )
        selector.clear_completed_sends()

    def _update_request_metrics(self, response: Response) -> None:
        request = response.request
        channel = self.open_or_closing_channel(request.context.connection_id)
        network_thread_time_nanos = 0 if channel is None else channel.get_and_reset_network_thread_time_nanos()
        request.update_request_metrics(network_thread_time_nanos, response)

    def _process_disconnected(self) -> None:
        selector = self._selector
        for connection_id, channel in selector.disconnected.items():
            try:
                response = self._inflight_responses.pop(connection_id, None)
                if response is not None:
                    self._update_request_metrics(response)
                # The selector closed the channel; its connection count is given back here.
                self.connection_quotas.dec(self._listener_name, channel.socket_address)
            except Exception as e:
                self.process_exception(f"Exception while processing disconnection of {connection_id}", e)
        selector.clear_disconnected()

    def _close_excess_connections(self) -> None:
        if self.connection_quotas.max_connections_exceeded(self._listener_name):
            channel = self._selector.lowest_priority_channel()
            if channel is not None:
                self._close(channel.id)

    def _close(self, connection_id: str) -> None:
        """Closes a connection, gives back its count and drops its in-flight response; no disconnect notice follows.

        (Kafka's private `close(connectionId)`, renamed beside AbstractServerThread.close.)"""
        channel = self.open_or_closing_channel(connection_id)
        if channel is not None:
            self.debug(f"Closing selector connection {connection_id}")
            self.connection_quotas.dec(self._listener_name, channel.socket_address)
            self._selector.close(connection_id)
            response = self._inflight_responses.pop(connection_id, None)
            if response is not None:
                self._update_request_metrics(response)

    def accept(self, socket_channel: SocketChannel, may_block: bool) -> bool:
        """Queues a new connection for this processor (called by the Acceptor thread); False if the queue is full
        and `may_block` is False, else waits for room."""
        if len(self._new_connections) >= self._connection_queue_size:
            if not may_block:
                return False
            with self._new_connection_taken:
                self._acceptor_waiting = True
                try:
                    while len(self._new_connections) >= self._connection_queue_size:
                        if not self.is_running:
                            # PORT: Kafka waits without bound; a processor that is shutting down never takes it.
                            self.close(self._listener_name, socket_channel)
                            return True
                        self._new_connection_taken.wait(0.3)
                finally:
                    self._acceptor_waiting = False
        self._new_connections.append(socket_channel)
        self.wakeup()
        return True

    def _configure_new_connections(self) -> None:
        # Bounded per iteration so that traffic on existing connections is not held up by a burst of new ones.
        connections_processed = 0
        while connections_processed < self._connection_queue_size:
            try:
                channel = self._new_connections.popleft()
            except IndexError:
                break
            try:
                self.debug(
                    f"Processor {self.id} listening to new connection from /{channel.remote_host}:{channel.remote_port}"
                )
                self._selector.register(self.connection_id(channel), channel)
                connections_processed += 1
            except Exception as e:
                self.close(self._listener_name, channel)
                self.process_exception(
                    f"Processor {self.id} closed connection from /{channel.remote_host}:{channel.remote_port}", e
                )
        if self._acceptor_waiting:
            with self._new_connection_taken:
                self._new_connection_taken.notify()

    def _close_all(self) -> None:
        """Closes every connection (queued or registered) and the selector."""
        while self._new_connections:
            # PORT: Kafka only closes the socket here; its connection count is given back too.
            self.close(self._listener_name, self._new_connections.popleft())
        for connection_id in list(self._selector.channel_ids()):
            self._close(connection_id)
        self._selector.close_selector()

    def connection_id(self, channel: SocketChannel) -> str:
        local_host, local_port = channel.sock.getsockname()[:2]
        conn_id = (
            f"{_host_address(local_host)}:{local_port}-{channel.remote_host}:{channel.remote_port}-"
            f"{self._next_connection_index}"
        )
        self._next_connection_index = 0 if self._next_connection_index == _INT_MAX else self._next_connection_index + 1
        return conn_id

    def enqueue_response(self, response: Response) -> None:
        """Called by any thread: queues a response for this processor and wakes it."""
        self._response_queue.append(response)
        self.wakeup()

    def _dequeue_response(self) -> Response | None:
        if not self._response_queue:
            return None
        response = self._response_queue.popleft()  # this thread is the only consumer
        response.request.response_dequeue_time_nanos = self._time.nanoseconds()
        return response

    @property
    def response_queue_size(self) -> int:
        return len(self._response_queue)

    def inflight_response_count(self) -> int:
        return len(self._inflight_responses)

    def open_or_closing_channel(self, connection_id: str) -> _KafkaChannel | None:
        return self._selector.channel(connection_id)

    def _handle_channel_mute_event(self, connection_id: str, event: ChannelMuteEvent) -> None:
        channel = self.open_or_closing_channel(connection_id)
        if channel is not None:
            channel.handle_channel_mute_event(event)

    def _try_unmute_channel(self, connection_id: str) -> None:
        if self.open_or_closing_channel(connection_id) is not None:
            self._selector.unmute(connection_id)

    def channel(self, connection_id: str) -> _KafkaChannel | None:
        return self._selector.channel(connection_id)

    def channel_ids(self) -> list[str]:
        """The ids of the open connections (for tests; read from another thread, so a copy)."""
        return list(self._selector.channel_ids())

    def wakeup(self) -> None:
        self._selector.wakeup()

    def await_shutdown(self) -> None:
        super().await_shutdown()
        if not self.is_started():
            self._selector.close_selector()


class ConnectionQuotas(Logging):
    """Connection counts per IP address, per listener and per broker, and their limits: `max.connections.per.ip`
    (with per-address overrides) rejects a connection over the limit; `max.connections` (per broker, and per
    listener as `listener.name.{name}.max.connections`) makes the Acceptor wait until a connection closes.
    Connections on the inter-broker listener are not held back by the broker-wide limit while other listeners
    exist.

    All state is guarded by one condition (Kafka's `counts.synchronized`), which waiting Acceptors wait on.

    # PORT: connection creation rate quotas (max.connection.creation.rate, per-IP rates) need metrics sensors
    # and are left out."""

    logger_name = "kafka.network.ConnectionQuotas"

    def __init__(self, config: SocketServerConfig, time: Time) -> None:
        self._time = time
        self._default_max_connections_per_ip = config.max_connections_per_ip
        self._max_connections_per_ip_overrides = _resolve_overrides(config.max_connections_per_ip_overrides)
        self._broker_max_connections = config.max_connections
        self._inter_broker_listener_name = config.inter_broker_listener_name
        self._counts: dict[str, int] = {}
        self._lock = threading.Condition(threading.RLock())
        self._listener_counts: dict[ListenerName, int] = {}
        self.max_connections_per_listener: dict[ListenerName, ListenerConnectionQuota] = {}
        self._total_count = 0

    def inc(self, listener_name: ListenerName, address: str, keep_waiting: Callable[[], bool] | None = None) -> None:
        """Counts a new connection from `address`, first waiting while the broker or listener limit is reached.
        Raises TooManyConnectionsException when the address is over its limit (the count is taken all the same;
        closing the connection gives it back).

        # PORT: `keep_waiting` (the Acceptor's running flag) ends the wait for a slot with ConnectionSlotWaitAborted
        # when it turns False, so that an Acceptor shut down while waiting stops (Kafka's wait has no way out)."""
        with self._lock:
            self._wait_for_connection_slot(listener_name, keep_waiting)
            count = self._counts.get(address, 0)
            self._counts[address] = count + 1
            self._total_count += 1
            if listener_name in self._listener_counts:
                self._listener_counts[listener_name] += 1
            limit = self._max_connections_per_ip_overrides.get(address, self._default_max_connections_per_ip)
            if count >= limit:
                raise TooManyConnectionsException(address, limit)

    def update_max_connections_per_ip(self, max_connections_per_ip: int) -> None:
        self._default_max_connections_per_ip = max_connections_per_ip

    def update_max_connections_per_ip_override(self, override_quotas: Mapping[str, int]) -> None:
        self._max_connections_per_ip_overrides = _resolve_overrides(override_quotas)

    def update_broker_max_connections(self, max_connections: int) -> None:
        with self._lock:
            self._broker_max_connections = max_connections
            self._lock.notify_all()

    def add_listener(self, config: SocketServerConfig, listener_name: ListenerName) -> None:
        with self._lock:
            if listener_name not in self.max_connections_per_listener:
                new_listener_quota = ListenerConnectionQuota(self._lock, listener_name)
                self.max_connections_per_listener[listener_name] = new_listener_quota
                self._listener_counts[listener_name] = 0
                # PORT: Kafka also registers the quota with the dynamic broker config; that comes with it.
                new_listener_quota.configure(config.values_with_prefix_override(listener_name.config_prefix()))
            self._lock.notify_all()

    def remove_listener(self, config: SocketServerConfig, listener_name: ListenerName) -> None:
        with self._lock:
            if self.max_connections_per_listener.pop(listener_name, None) is not None:
                self._listener_counts.pop(listener_name, None)
                self._lock.notify_all()  # waiting acceptors of that listener can then stop

    def dec(self, listener_name: ListenerName, address: str) -> None:
        with self._lock:
            count = self._counts.get(address)
            if count is None:
                raise ValueError(
                    f"Attempted to decrease connection count for address with no connections, address: /{address}"
                )
            if count == 1:
                del self._counts[address]
            else:
                self._counts[address] = count - 1
            if self._total_count <= 0:
                self.error("Attempted to decrease total connection count for broker with no connections")
            self._total_count -= 1
            if listener_name in self.max_connections_per_listener:
                listener_count = self._listener_counts[listener_name]
                if listener_count == 0:
                    self.error(
                        f"Attempted to decrease connection count for listener {listener_name.value} with no connections"
                    )
                else:
                    self._listener_counts[listener_name] = listener_count - 1
            self._lock.notify_all()  # an acceptor may be waiting for a slot

    def get(self, address: str) -> int:
        with self._lock:
            return self._counts.get(address, 0)

    def _wait_for_connection_slot(self, listener_name: ListenerName, keep_waiting: Callable[[], bool] | None) -> None:
        with self._lock:
            # Woken by dec() and by limit changes; the slices bound the wait for the shutdown check.
            while not self._connection_slot_available(listener_name):
                if keep_waiting is not None and not keep_waiting():
                    raise ConnectionSlotWaitAborted(f"Stopped waiting for a connection slot on {listener_name.value}")
                self._lock.wait(0.3)

    def max_connections_exceeded(self, listener_name: ListenerName) -> bool:
        """Whether the broker has more connections than allowed (after a lowered limit): Processors then close
        their least recently active connection, one per poll."""
        return self._total_count > self._broker_max_connections and not self._protected_listener(listener_name)

    def _connection_slot_available(self, listener_name: ListenerName) -> bool:
        if self._listener_counts.get(listener_name, 0) >= self._max_listener_connections(listener_name):
            return False
        if self._protected_listener(listener_name):
            return True
        return self._total_count < self._broker_max_connections

    def _protected_listener(self, listener_name: ListenerName) -> bool:
        return self._inter_broker_listener_name == listener_name and len(self._listener_counts) > 1

    def _max_listener_connections(self, listener_name: ListenerName) -> int:
        quota = self.max_connections_per_listener.get(listener_name)
        return _INT_MAX if quota is None else quota.max_connections

    def close(self) -> None:
        with self._lock:
            self.max_connections_per_listener.clear()
            self._lock.notify_all()


class ListenerConnectionQuota:
    """The connection limit of one listener: its `max.connections` (the broker's unless overridden as
    `listener.name.{name}.max.connections`)."""

    def __init__(self, lock: threading.Condition, listener: ListenerName) -> None:
        self._lock = lock
        self._listener = listener
        self._max_connections = _INT_MAX

    @property
    def max_connections(self) -> int:
        return self._max_connections

    def listener_name(self) -> ListenerName:
        return self._listener

    def configure(self, configs: Mapping[str, Any]) -> None:
        self._max_connections = self._max_connections_of(configs)

    def reconfigurable_configs(self) -> frozenset[str]:
        return LISTENER_RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, configs: Mapping[str, Any]) -> None:
        value = self._max_connections_of(configs)
        if value <= 0:
            raise KafkaException(f"Invalid {MAX_CONNECTIONS_PROP} {value}")

    def reconfigure(self, configs: Mapping[str, Any]) -> None:
        with self._lock:
            self._max_connections = self._max_connections_of(configs)
            self._lock.notify_all()

    @staticmethod
    def _max_connections_of(configs: Mapping[str, Any]) -> int:
        value = configs.get(MAX_CONNECTIONS_PROP)
        return _INT_MAX if value is None else int(value)


class ConnectionSlotWaitAborted(KafkaException):
    """The Acceptor stopped while a new connection waited for a free slot under max.connections."""


class TooManyConnectionsException(KafkaException):
    def __init__(self, ip: str, count: int) -> None:
        super().__init__(f"Too many connections from /{ip} (maximum = {count})")
        self.ip = ip
        self.count = count


def _host_address(host: str) -> str:
    """An IP address as text, an IPv4 address mapped into IPv6 (from a dual-stack socket) as plain IPv4, as Java's
    InetAddress.getHostAddress gives it."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return host


def _resolve_overrides(overrides: Mapping[str, int]) -> dict[str, int]:
    """Per-address limits keyed by IP address text (host names resolved, as InetAddress.getByName does)."""
    result: dict[str, int] = {}
    for host, count in overrides.items():
        try:
            address = str(ipaddress.ip_address(host))
        except ValueError:
            address = _host_address(str(socket.getaddrinfo(host, None, 0, socket.SOCK_STREAM)[0][4][0]))
        result[address] = int(count)
    return result


def _drain(sock: socket.socket) -> None:
    """Reads what is waiting on a non-blocking wakeup socket (a few bytes at most: wakeups are coalesced; anything
    left makes the next poll return at once)."""
    try:
        sock.recv(4096)
    except OSError:
        pass


# ---- The server side of the clients' network classes ----------------------------------------------------------
#
# PORT: these stand in for clients/.../common/network/{Selector,KafkaChannel,NetworkReceive,NetworkSend} and
# .../common/memory/{MemoryPool,SimpleMemoryPool}, PLAINTEXT only, until the clients' network package is ported.


class SocketChannel:
    """An accepted socket with the peer's address taken at accept time (Java's SocketChannel remembers it; a
    Python socket cannot tell its peer once the peer has reset the connection)."""

    __slots__ = ("remote_host", "remote_port", "sock")

    def __init__(self, sock: socket.socket, remote_host: str, remote_port: int) -> None:
        self.sock = sock
        self.remote_host = remote_host
        self.remote_port = remote_port


class MemoryPool:
    """The pool that received request bytes are counted against; this base class, `MemoryPool.NONE`, counts
    nothing (used when `queued.max.request.bytes` is not set)."""

    NONE: MemoryPool

    def try_allocate(self, size_bytes: int) -> bool:
        return True

    def release(self, size_bytes: int) -> None:
        return None

    def is_out_of_memory(self) -> bool:
        return False

    def available_memory(self) -> int:
        return 2**63 - 1


MemoryPool.NONE = MemoryPool()


class SimpleMemoryPool(MemoryPool):
    """A byte budget: `try_allocate` takes from it, `release` gives back. Not strict: an allocation succeeds while
    any budget is left, even if it goes below zero. A Processor stops reading connections while it is exhausted.

    # PORT: Python allocates the bytearray itself; the pool only keeps the count (Java's pool hands out buffers)."""

    def __init__(self, size_bytes: int, max_single_allocation_size: int, strict: bool) -> None:
        if size_bytes <= 0 or max_single_allocation_size <= 0 or max_single_allocation_size > size_bytes:
            raise ValueError(
                f"must provide a positive size and max single allocation size smaller than size. provided "
                f"{size_bytes} and {max_single_allocation_size} respectively"
            )
        self._size_bytes = size_bytes
        self._max_single_allocation_size = max_single_allocation_size
        self._strict = strict
        self._available = size_bytes
        self._lock = threading.Lock()

    def try_allocate(self, size_bytes: int) -> bool:
        if size_bytes < 1:
            raise ValueError(f"requested size {size_bytes}<=0")
        if size_bytes > self._max_single_allocation_size:
            raise ValueError(
                f"requested size {size_bytes} is larger than maxSingleAllocationSize {self._max_single_allocation_size}"
            )
        with self._lock:
            threshold = size_bytes if self._strict else 1
            if self._available < threshold:
                return False
            self._available -= size_bytes
            return True

    def release(self, size_bytes: int) -> None:
        with self._lock:
            self._available += size_bytes

    def is_out_of_memory(self) -> bool:
        return self._available <= 0

    def available_memory(self) -> int:
        return self._available


class InvalidReceiveException(KafkaException):
    """A frame whose size is negative or over `socket.request.max.bytes`: the connection is closed."""


class ChannelMuteState(enum.Enum):
    NOT_MUTED = 0
    MUTED = 1
    MUTED_AND_RESPONSE_PENDING = 2
    MUTED_AND_THROTTLED = 3
    MUTED_AND_THROTTLED_AND_RESPONSE_PENDING = 4


class ChannelMuteEvent(enum.Enum):
    REQUEST_RECEIVED = 0
    RESPONSE_SENT = 1
    THROTTLE_STARTED = 2
    THROTTLE_ENDED = 3


_SIZE = struct.Struct(">i")
_IOV_MAX = 1024  # Linux's limit on buffers per sendmsg


class _NetworkReceive:
    """One frame: the 4-byte size, then a bytearray of exactly that size filled with recv_into (never more than
    `max_size`, and only once the memory pool grants it)."""

    __slots__ = (
        "source",
        "_max_size",
        "_memory_pool",
        "_size_buf",
        "_size_read",
        "requested_buffer_size",
        "_buffer",
        "_view",
        "_pos",
    )

    def __init__(self, source: str, max_size: int, memory_pool: MemoryPool) -> None:
        self.source = source
        self._max_size = max_size
        self._memory_pool = memory_pool
        self._size_buf = bytearray(4)
        self._size_read = 0
        self.requested_buffer_size = -1
        self._buffer: bytearray | None = None
        self._view: memoryview | None = None
        self._pos = 0

    def read_from(self, sock: socket.socket) -> int:
        """Reads what the socket has for this frame; the byte count (0 if nothing was there). EOFError when the peer
        has closed the connection, InvalidReceiveException for a bad size."""
        read = 0
        if self._size_read < 4:
            try:
                if self._size_read == 0:
                    n = sock.recv_into(self._size_buf, 4)
                else:
                    n = sock.recv_into(memoryview(self._size_buf)[self._size_read :])
            except BlockingIOError:
                return 0
            if n == 0:
                raise EOFError("EOF reading the size of a request")
            read += n
            self._size_read += n
            if self._size_read < 4:
                return read
            size = _SIZE.unpack(self._size_buf)[0]
            if size < 0:
                raise InvalidReceiveException(f"Invalid receive (size = {size})")
            if size > self._max_size:
                raise InvalidReceiveException(f"Invalid receive (size = {size} larger than {self._max_size})")
            self.requested_buffer_size = size
            if size == 0:
                self._buffer = bytearray()
                self._view = memoryview(self._buffer)
                return read
        if self._buffer is None:
            if not self._memory_pool.try_allocate(self.requested_buffer_size):
                return read  # the pool is exhausted: the channel mutes itself until memory is released
            self._buffer = bytearray(self.requested_buffer_size)
            self._view = memoryview(self._buffer)
        view = self._view
        assert view is not None
        pos = self._pos
        if pos < len(view):
            try:
                n = sock.recv_into(view[pos:] if pos else view)
            except BlockingIOError:
                return read
            if n == 0:
                raise EOFError("EOF reading a request")
            self._pos = pos + n
            read += n
        return read

    def complete(self) -> bool:
        return self._view is not None and self._pos == len(self._view)

    def required_memory_amount_known(self) -> bool:
        return self.requested_buffer_size != -1

    def memory_allocated(self) -> bool:
        return self._buffer is not None

    def payload(self) -> memoryview:
        """The frame's bytes (a view of its bytearray, which the log layer may patch in place)."""
        assert self._view is not None
        return self._view


class _NetworkSend:
    """A response going out: its parts are written in order, runs of bytes with one scatter/gather sendmsg,
    FileRecords (anything with `write_to(fd, offset, length)`) with sendfile; a partial write resumes where it
    stopped when the socket is writable again."""

    __slots__ = ("destination_id", "parts", "size", "_index", "_offset", "_remaining")

    def __init__(self, destination_id: str, parts: list[Any]) -> None:
        self.destination_id = destination_id
        self.parts = parts
        self.size = send_size(parts)
        self._index = 0
        self._offset = 0
        self._remaining = self.size

    def completed(self) -> bool:
        return self._remaining <= 0

    def write_to(self, sock: socket.socket) -> int:
        parts = self.parts
        count = len(parts)
        i = self._index
        offset = self._offset
        written = 0
        while i < count and written < self._remaining:
            part = parts[i]
            if isinstance(part, (bytes, bytearray, memoryview)):
                buffers: list[Any] = [memoryview(part)[offset:] if offset else part]
                j = i + 1
                while j < count and len(buffers) < _IOV_MAX and isinstance(parts[j], (bytes, bytearray, memoryview)):
                    buffers.append(parts[j])
                    j += 1
                try:
                    n = sock.sendmsg(buffers)
                except BlockingIOError:
                    break
                written += n
                while n > 0:
                    left = _part_size(parts[i]) - offset
                    if n >= left:
                        n -= left
                        i += 1
                        offset = 0
                    else:
                        offset += n
                        n = 0
                if i < j and written < self._remaining:
                    break  # the socket took less than offered: wait until it is writable
            else:
                length = part.size_in_bytes() - offset
                if length <= 0:
                    i += 1
                    offset = 0
                    continue
                try:
                    n = part.write_to(sock.fileno(), offset, length)
                except BlockingIOError:
                    break
                written += n
                offset += n
                if n < length:
                    break
                i += 1
                offset = 0
        self._index = i
        self._offset = offset
        self._remaining -= written
        return written


def _part_size(part: Any) -> int:
    return part.nbytes if isinstance(part, memoryview) else len(part)


class _KafkaChannel:
    """One connection of a Processor: its socket, the frame being read, the response being written, its mute state
    and what the client told about itself. `interest` is the selector events it is registered for (0: none)."""

    __slots__ = (
        "id",
        "socket_channel",
        "sock",
        "socket_address",
        "receive",
        "send",
        "mute_state",
        "interest",
        "principal",
        "client_information",
        "network_thread_time_nanos",
    )

    def __init__(self, id: str, socket_channel: SocketChannel) -> None:
        self.id = id
        self.socket_channel = socket_channel
        self.sock = socket_channel.sock
        self.socket_address = socket_channel.remote_host
        self.receive: _NetworkReceive | None = None
        self.send: _NetworkSend | None = None
        self.mute_state = ChannelMuteState.NOT_MUTED
        self.interest = 0
        self.principal = KafkaPrincipal.ANONYMOUS
        self.client_information = ClientInformation.EMPTY
        self.network_thread_time_nanos = 0

    def mute(self) -> None:
        if self.mute_state is ChannelMuteState.NOT_MUTED:
            self.mute_state = ChannelMuteState.MUTED

    def maybe_unmute(self) -> bool:
        """Unmutes a MUTED channel (the other muted states wait for their event); whether it is unmuted now."""
        if self.mute_state is ChannelMuteState.MUTED:
            self.mute_state = ChannelMuteState.NOT_MUTED
        return self.mute_state is ChannelMuteState.NOT_MUTED

    def handle_channel_mute_event(self, event: ChannelMuteEvent) -> None:
        """Moves the mute state on an event. REQUEST_RECEIVED: MUTED to MUTED_AND_RESPONSE_PENDING; RESPONSE_SENT:
        drops RESPONSE_PENDING; THROTTLE_STARTED: adds THROTTLED to MUTED_AND_RESPONSE_PENDING; THROTTLE_ENDED:
        drops THROTTLED. Any other move is an error."""
        state = self.mute_state
        new_state = None
        if event is ChannelMuteEvent.REQUEST_RECEIVED:
            if state is ChannelMuteState.MUTED:
                new_state = ChannelMuteState.MUTED_AND_RESPONSE_PENDING
        elif event is ChannelMuteEvent.RESPONSE_SENT:
            if state is ChannelMuteState.MUTED_AND_RESPONSE_PENDING:
                new_state = ChannelMuteState.MUTED
            elif state is ChannelMuteState.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING:
                new_state = ChannelMuteState.MUTED_AND_THROTTLED
        elif event is ChannelMuteEvent.THROTTLE_STARTED:
            if state is ChannelMuteState.MUTED_AND_RESPONSE_PENDING:
                new_state = ChannelMuteState.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING
        elif state is ChannelMuteState.MUTED_AND_THROTTLED:
            new_state = ChannelMuteState.MUTED
        elif state is ChannelMuteState.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING:
            new_state = ChannelMuteState.MUTED_AND_RESPONSE_PENDING
        if new_state is None:
            raise RuntimeError(f"Cannot transition from {state.name} for {event.name}")
        self.mute_state = new_state

    def is_muted(self) -> bool:
        return self.mute_state is not ChannelMuteState.NOT_MUTED

    def is_in_mutable_state(self) -> bool:
        """Whether the channel waits for memory to read a frame whose size it knows (and so could be unmuted)."""
        receive = self.receive
        return receive is not None and not receive.memory_allocated()

    def get_and_reset_network_thread_time_nanos(self) -> int:
        current = self.network_thread_time_nanos
        self.network_thread_time_nanos = 0
        return current

    def socket_description(self) -> str:
        return f"/{self.socket_address}:{self.socket_channel.remote_port} (channelId={self.id})"


class _IdleExpiryManager:
    """Connections in order of last activity, to close the ones idle for longer than `connections.max.idle.ms`."""

    __slots__ = ("_connections_max_idle_nanos", "lru_connections", "_next_idle_close_check_time")

    def __init__(self, time: Time, connections_max_idle_ms: int) -> None:
        self._connections_max_idle_nanos = connections_max_idle_ms * 1_000_000
        self.lru_connections: OrderedDict[str, int] = OrderedDict()
        self._next_idle_close_check_time = time.nanoseconds() + self._connections_max_idle_nanos

    def update(self, connection_id: str, current_time_nanos: int) -> None:
        self.lru_connections[connection_id] = current_time_nanos
        self.lru_connections.move_to_end(connection_id)

    def poll_expired_connection(self, current_time_nanos: int) -> tuple[str, int] | None:
        """The least recently active connection if it has been idle too long (checked at most once per idle
        period while no connection can have expired)."""
        if current_time_nanos <= self._next_idle_close_check_time:
            return None
        if not self.lru_connections:
            self._next_idle_close_check_time = current_time_nanos + self._connections_max_idle_nanos
            return None
        connection_id, last_active = next(iter(self.lru_connections.items()))
        self._next_idle_close_check_time = last_active + self._connections_max_idle_nanos
        if current_time_nanos > self._next_idle_close_check_time:
            return connection_id, last_active
        return None

    def remove(self, connection_id: str) -> None:
        self.lru_connections.pop(connection_id, None)


class _Selector(Logging):
    """A Processor's selector: the connections it serves and the reads and writes they are ready for.

    After `poll()`, `completed_receives` holds the frames read in full (at most one per connection),
    `completed_sends` the responses written in full and `disconnected` the connections closed because of an
    error or the peer; the Processor handles and clears them. A muted connection is not read.

    # PORT: two changes to how Kafka's Selector does the same thing, each saving system calls per request:
    # a response is written as soon as it is handed over (Kafka registers for writability and writes in the
    # next poll), and muting leaves the read registration until the connection actually becomes readable
    # while muted (a client waiting for its answer sends nothing meanwhile), dropping it only then."""

    logger_name = "org.apache.kafka.common.network.Selector"

    def __init__(
        self, max_receive_size: int, connections_max_idle_ms: int, time: Time, memory_pool: MemoryPool, log_prefix: str
    ) -> None:
        self.log_ident = log_prefix
        self._max_receive_size = max_receive_size
        self._time = time
        self._memory_pool = memory_pool
        self._nio_selector = selectors.DefaultSelector()
        self._wakeup_read, self._wakeup_write = socket.socketpair()
        self._wakeup_read.setblocking(False)
        self._wakeup_write.setblocking(False)
        self._nio_selector.register(self._wakeup_read, selectors.EVENT_READ, None)
        # Set by wakeup() when it wrote a byte; cleared after the byte is read, so that a burst of responses
        # costs one write and one read.
        self._wakeup_pending = False
        self._channels: dict[str, _KafkaChannel] = {}
        self._explicitly_muted_channels: set[str] = set()
        self._out_of_memory = False
        self.completed_receives: list[_NetworkReceive] = []
        self.completed_sends: list[_NetworkSend] = []
        self.disconnected: dict[str, _KafkaChannel] = {}
        self._idle_expiry_manager = (
            _IdleExpiryManager(time, connections_max_idle_ms) if connections_max_idle_ms >= 0 else None
        )
        self._closed = False

    def register(self, id: str, socket_channel: SocketChannel) -> None:
        if id in self._channels:
            raise RuntimeError(f"There is already a connection for id {id}")
        channel = _KafkaChannel(id, socket_channel)
        self._set_interest(channel, selectors.EVENT_READ)
        self._channels[id] = channel
        if self._idle_expiry_manager is not None:
            self._idle_expiry_manager.update(id, self._time.nanoseconds())

    def wakeup(self) -> None:
        """Makes a blocked or the next poll() return at once; any thread may call it."""
        if not self._wakeup_pending:
            self._wakeup_pending = True
            try:
                self._wakeup_write.send(b"\x00")
            except OSError:
                pass  # full: a wakeup is pending anyway; closed: the processor has stopped

    def send(self, send: _NetworkSend) -> None:
        """Starts writing a response on its connection; completed at once if the socket takes all of it."""
        channel = self._channels.get(send.destination_id)
        if channel is None:
            raise RuntimeError(
                f"Attempt to retrieve channel for which there is no connection. Connection id {send.destination_id}"
            )
        if channel.send is not None:
            raise RuntimeError(
                "Attempt to begin a send operation with prior send operation still in progress, connection id is "
                f"{channel.id}"
            )
        channel.send = send
        start = self._time.nanoseconds()
        try:
            self._write(channel)
        except Exception as e:
            self._handle_channel_error(channel, e)
            return
        if channel.send is not None:
            self._set_interest(channel, channel.interest | selectors.EVENT_WRITE)
        channel.network_thread_time_nanos += self._time.nanoseconds() - start

    def poll(self, timeout_ms: int) -> None:
        """Waits up to `timeout_ms` for I/O (not at all while results are waiting to be handled) and does it."""
        if self.completed_receives or self.completed_sends or self.disconnected:
            timeout_ms = 0
        if self._out_of_memory and not self._memory_pool.is_out_of_memory():
            # Memory was released: channels that muted themselves for want of it read again.
            for channel in self._channels.values():
                if channel.is_in_mutable_state() and channel.id not in self._explicitly_muted_channels:
                    if channel.maybe_unmute():
                        self._set_interest(channel, channel.interest | selectors.EVENT_READ)
            self._out_of_memory = False
        ready = self._nio_selector.select(timeout_ms / 1000 if timeout_ms > 0 else 0)
        current_time_nanos = channel_start_nanos = self._time.nanoseconds()
        idle_expiry_manager = self._idle_expiry_manager
        for key, events in ready:
            channel = key.data
            if channel is None:
                _drain(self._wakeup_read)
                self._wakeup_pending = False
                continue
            if idle_expiry_manager is not None:
                idle_expiry_manager.update(channel.id, current_time_nanos)
            try:
                if events & selectors.EVENT_READ:
                    if channel.mute_state is not ChannelMuteState.NOT_MUTED:
                        # Muted, and data (or the peer's close) is waiting: stop watching reads until unmuted.
                        self._set_interest(channel, channel.interest & ~selectors.EVENT_READ)
                    else:
                        self._attempt_read(channel)
                if events & selectors.EVENT_WRITE and channel.send is not None:
                    self._write(channel)
            except Exception as e:
                self._handle_channel_error(channel, e)
            # Each connection's share of network thread time (for request quotas): from the end of the previous one.
            channel_end_nanos = self._time.nanoseconds()
            channel.network_thread_time_nanos += channel_end_nanos - channel_start_nanos
            channel_start_nanos = channel_end_nanos
        if idle_expiry_manager is not None:
            self._maybe_close_oldest_connection(current_time_nanos)

    def _attempt_read(self, channel: _KafkaChannel) -> None:
        receive = channel.receive
        if receive is None:
            receive = channel.receive = _NetworkReceive(channel.id, self._max_receive_size, self._memory_pool)
        receive.read_from(channel.sock)
        if receive.complete():
            channel.receive = None
            self.completed_receives.append(receive)
        elif receive.required_memory_amount_known() and not receive.memory_allocated():
            # The pool is exhausted: this channel stops reading until memory is released.
            channel.mute()
            self._set_interest(channel, channel.interest & ~selectors.EVENT_READ)
            self._out_of_memory = True

    def _write(self, channel: _KafkaChannel) -> None:
        send = channel.send
        assert send is not None
        send.write_to(channel.sock)
        if send.completed():
            channel.send = None
            self._set_interest(channel, channel.interest & ~selectors.EVENT_WRITE)
            self.completed_sends.append(send)

    def _handle_channel_error(self, channel: _KafkaChannel, e: Exception) -> None:
        desc = channel.socket_description()
        if isinstance(e, (OSError, EOFError)):
            self.debug(f"Connection with {desc} disconnected", e)
        else:
            self.warn(f"Unexpected error from {desc}; closing connection", e)
        self._do_close(channel, True)

    def _set_interest(self, channel: _KafkaChannel, events: int) -> None:
        current = channel.interest
        if events == current:
            return
        if current == 0:
            self._nio_selector.register(channel.sock, events, channel)
        elif events == 0:
            self._nio_selector.unregister(channel.sock)
        else:
            self._nio_selector.modify(channel.sock, events, channel)
        channel.interest = events

    def mute(self, id: str) -> None:
        channel = self._channel_or_fail(id)
        self._explicitly_muted_channels.add(id)
        channel.mute()

    def unmute(self, id: str) -> None:
        channel = self._channel_or_fail(id)
        if channel.maybe_unmute():
            self._explicitly_muted_channels.discard(id)
            self._set_interest(channel, channel.interest | selectors.EVENT_READ)

    def _channel_or_fail(self, id: str) -> _KafkaChannel:
        channel = self._channels.get(id)
        if channel is None:
            raise RuntimeError(f"Attempt to retrieve channel for which there is no connection. Connection id {id}")
        return channel

    def _maybe_close_oldest_connection(self, current_time_nanos: int) -> None:
        if self._idle_expiry_manager is None:
            return
        expired = self._idle_expiry_manager.poll_expired_connection(current_time_nanos)
        if expired is not None:
            connection_id, last_active = expired
            channel = self._channels.get(connection_id)
            if channel is not None:
                if _selector_logger.isEnabledFor(TRACE):
                    self.trace(
                        f"About to close the idle connection from {connection_id} due to being idle for "
                        f"{(current_time_nanos - last_active) // 1_000_000} millis"
                    )
                self._do_close(channel, True)

    def clear_completed_receives(self) -> None:
        self.completed_receives.clear()

    def clear_completed_sends(self) -> None:
        self.completed_sends.clear()

    def clear_disconnected(self) -> None:
        self.disconnected.clear()

    def close(self, id: str) -> None:
        """Closes a connection at the Processor's request: no disconnect notice follows."""
        channel = self._channels.get(id)
        if channel is not None:
            self._do_close(channel, False)

    def _do_close(self, channel: _KafkaChannel, notify_disconnect: bool) -> None:
        del self._channels[channel.id]
        self._explicitly_muted_channels.discard(channel.id)
        if self._idle_expiry_manager is not None:
            self._idle_expiry_manager.remove(channel.id)
        if channel.interest:
            try:
                self._nio_selector.unregister(channel.sock)
            except (KeyError, ValueError):
                pass
            channel.interest = 0
        try:
            channel.sock.close()
        except OSError as e:
            self.error(f"Exception closing connection {channel.id}", e)
        if notify_disconnect:
            self.disconnected[channel.id] = channel

    def channel(self, id: str) -> _KafkaChannel | None:
        return self._channels.get(id)

    def channel_ids(self) -> Iterable[str]:
        return self._channels.keys()

    def lowest_priority_channel(self) -> _KafkaChannel | None:
        """The least recently active connection (the one to close when there are too many)."""
        if self._idle_expiry_manager is not None and self._idle_expiry_manager.lru_connections:
            return self._channels.get(next(iter(self._idle_expiry_manager.lru_connections)))
        return None

    def close_selector(self) -> None:
        """Closes every connection still open, the OS selector and the wakeup sockets."""
        if self._closed:
            return
        self._closed = True
        for channel in list(self._channels.values()):
            self._do_close(channel, False)
        swallow(self._nio_selector.close, self)
        swallow(self._wakeup_read.close, self)
        swallow(self._wakeup_write.close, self)
