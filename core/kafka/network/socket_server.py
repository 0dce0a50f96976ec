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

A Processor drives the clients' network layer (kafka.common.network: Selector, KafkaChannel, NetworkReceive,
NetworkSend) over the connections it was given, as Kafka's does; received frames are counted against the
`queued.max.request.bytes` pool (kafka.common.memory.SimpleMemoryPool).

Connection creation rates (KIP-612) are sensors of the broker's Metrics: `max.connection.creation.rate` for the
broker and per listener (`listener.name.{name}.max.connection.creation.rate`) makes the Acceptor wait before taking
the next connection, and a per-IP `connection_creation_rate` quota (`/config/ips/...`, IpConfigHandler) refuses
the excess connections of that address: they are closed once their throttle time is over.

# Listeners speak PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL: each Processor's channel builder is the listener's
# ChannelBuilders.server_channel_builder, registered with the broker's DynamicBrokerConfig (new keystores).
Metrics as Kafka 2.8's: each Processor's Selector records its sensors in the broker's Metrics (group
`socket-server-metrics`, tags listener and networkProcessor, no per-connection sensors), and the Yammer gauges
SocketServer NetworkProcessorAvgIdlePercent, MemoryPoolAvailable/MemoryPoolUsed and ExpiredConnectionsKilledCount,
Processor IdlePercent and Acceptor AcceptorBlockedPercent are read from them.

# PORT: left out until this port has it: the control-plane listener (and so its ControlPlane* gauges).
# Kafka 2.8 prefixes its thread names with `data-plane-`; this port uses the names without the prefix, as
# Kafka did before the control plane existed (the project's thread-name rule).
"""

from __future__ import annotations

import errno
import heapq
import ipaddress
import logging
import os
import re
import select
import selectors
import socket
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol

from kafka.cluster.end_point import EndPoint
from kafka.common.errors import KafkaException
from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.memory.simple_memory_pool import SimpleMemoryPool
from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.quota import Quota
from kafka.common.metrics.quota_violation_exception import QuotaViolationException
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
from kafka.common.metrics.stats.rate import Rate
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.client_information import ClientInformation
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.multi_records_send import MultiRecordsSend
from kafka.common.network.network_send import NetworkSend
from kafka.common.network.plaintext_channel_builder import PlaintextChannelBuilder
from kafka.common.network.selectable import Selectable
from kafka.common.network.selector import Selector as KSelector
from kafka.common.network.socket_channel import SocketChannel
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.network.request_channel import (
    CloseConnectionResponse,
    EndThrottlingResponse,
    NoOpResponse,
    Request,
    RequestChannel,
    Response,
    SendResponse,
    StartThrottlingResponse,
)
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.core_utils import swallow
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.logging import TRACE, Logging
from kafka.utils.quota_utils import bounded_throttle_time

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.sensor import Sensor
    from kafka.metrics.yammer.meter import Meter as YammerMeter

__all__ = [
    "AbstractServerThread",
    "Acceptor",
    "ConnectionId",
    "ConnectionQuotas",
    "ConnectionThrottledException",
    "Processor",
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
RECONFIGURABLE_CONFIGS: Final = frozenset(
    {
        MAX_CONNECTIONS_PER_IP_PROP,
        MAX_CONNECTIONS_PER_IP_OVERRIDES_PROP,
        MAX_CONNECTIONS_PROP,
        MAX_CONNECTION_CREATION_RATE_PROP,
    }
)
LISTENER_RECONFIGURABLE_CONFIGS: Final = frozenset({MAX_CONNECTIONS_PROP, MAX_CONNECTION_CREATION_RATE_PROP})

# Connection creation rate sensors and metrics (SocketServer / ConnectionQuotas companions).
CONNECTION_RATE_SENSOR_NAME: Final = "Connection-Accept-Rate"
CONNECTION_RATE_METRIC_NAME: Final = "connection-accept-rate"
IP_METRIC_TAG: Final = "ip"
LISTENER_METRIC_TAG: Final = "listener"
LISTENER_THROTTLE_PREFIX: Final = ""
IP_THROTTLE_PREFIX: Final = "ip-"
#: QuotaConfigs.IP_CONNECTION_RATE_DEFAULT: no per-IP rate quota.
IP_CONNECTION_RATE_DEFAULT: Final = 2**31 - 1
#: Sensors of an IP idle for an hour are removed.
INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS: Final = 3600

_INT_MAX: Final = 2**31 - 1
_LONG_MAX: Final = 2**63 - 1

ChannelMuteEvent = KafkaChannel.ChannelMuteEvent
# Read once per request: module constants, since reading an Enum member through its class is a lookup each time.
_REQUEST_RECEIVED: Final = ChannelMuteEvent.REQUEST_RECEIVED
_RESPONSE_SENT: Final = ChannelMuteEvent.RESPONSE_SENT
_API_VERSIONS: Final = ApiKeys.API_VERSIONS
_SASL_HANDSHAKE: Final = ApiKeys.SASL_HANDSHAKE

# PORT: for tests/bench/metrics_cost_bench.py only: with KAFKA_PORT_BENCH_METRICS_OFF=1 in its environment, a broker's
# processors record neither RequestMetrics nor their Selector's sensors, so that the cost of that recording can be
# measured against the same broker without it. Read here and nowhere else.
_BENCH_METRICS_OFF: Final = os.environ.get("KAFKA_PORT_BENCH_METRICS_OFF") == "1"

# For level checks on the per-request path (cheaper than the Logging mixin's, which looks the logger up each time).
_processor_logger = logging.getLogger("kafka.network.Processor")


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
    def failed_authentication_delay_ms(self) -> int: ...
    @property
    def max_connections_per_ip(self) -> int: ...
    @property
    def max_connections_per_ip_overrides(self) -> Mapping[str, int]: ...
    @property
    def max_connections(self) -> int: ...
    @property
    def max_connection_creation_rate(self) -> int: ...
    @property
    def quota_window_size_seconds(self) -> int: ...
    @property
    def num_quota_samples(self) -> int: ...
    def values_with_prefix_override(self, prefix: str) -> dict[str, Any]: ...


class SocketServer(KafkaMetricsGroup, Logging):
    """Creates, starts and stops the Acceptors and Processors of every listener, and owns the request channel.

    `startup()` binds every listener (so `bound_port` is known, also for port 0) and, unless told otherwise,
    starts the threads; `start_processing_requests()` starts them later (the broker does so once it is ready
    to serve). `stop_processing_requests()` stops them, `shutdown()` also releases the request channel."""

    logger_name = "kafka.network.SocketServer"

    def __init__(
        self,
        config: SocketServerConfig,
        time: Time = Time.SYSTEM,
        credential_provider: Any = None,
        metrics: Metrics | None = None,
    ) -> None:
        """`metrics` is the broker's registry (the connection rate sensors live there); without one (tests) the
        server makes its own."""
        self.config = config
        self.time = time
        self.metrics = metrics if metrics is not None else Metrics(time=time)
        # SCRAM credentials and delegation tokens, for the SASL listeners' channel builders.
        self.credential_provider = credential_provider
        # PORT: Kafka's SocketServer takes the ApiVersionManager in its constructor; here the broker sets it once
        # made (SASL authenticators answer ApiVersions before authentication through api_version_response).
        self.api_version_manager: Any = None
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
        self.connection_quotas = ConnectionQuotas(config, time, self.metrics)
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
        self._new_gauges()

    def _new_gauges(self) -> None:
        """The SocketServer gauges, read from the processors' Selector metrics and the memory pool."""
        self.new_gauge(f"{DATA_PLANE_METRIC_PREFIX}NetworkProcessorAvgIdlePercent", self._avg_idle_percent)
        pool = self._memory_pool
        self.new_gauge("MemoryPoolAvailable", pool.available_memory)
        self.new_gauge("MemoryPoolUsed", lambda: pool.size() - pool.available_memory())
        self.new_gauge(
            f"{DATA_PLANE_METRIC_PREFIX}ExpiredConnectionsKilledCount", self._expired_connections_killed_count
        )

    def _avg_idle_percent(self) -> float:
        with self._lock:
            processors = list(self._data_plane_processors.values())
        if not processors:
            # As Kafka's, whose sum over no processor divided by their number is NaN.
            return float("nan")
        return sum(p.idle_percent() for p in processors) / len(processors)

    def _expired_connections_killed_count(self) -> float:
        with self._lock:
            processors = list(self._data_plane_processors.values())
        return float(sum(p.expired_connections_killed_count_value() for p in processors))

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
        # PORT: Kafka leaves the SocketServer gauges registered after a shutdown; they are removed here so that a
        # broker restarted in the same process (tests) reads its new server, not the stopped one.
        for name in (
            f"{DATA_PLANE_METRIC_PREFIX}NetworkProcessorAvgIdlePercent",
            "MemoryPoolAvailable",
            "MemoryPoolUsed",
            f"{DATA_PLANE_METRIC_PREFIX}ExpiredConnectionsKilledCount",
        ):
            self.remove_metric(name)
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
        max_connection_rate = new_config.max_connection_creation_rate
        if max_connection_rate != old_config.max_connection_creation_rate:
            self.info(f"Updating broker-wide maxConnectionCreationRate: {max_connection_rate}")
            self.connection_quotas.update_broker_max_connection_rate(max_connection_rate)

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
            channel_builder=self._server_channel_builder(listener_name, security_protocol),
            reconfigurables=self._reconfigurables_registry(),
            failed_authentication_delay_ms=self.config.failed_authentication_delay_ms,
            metrics=self.metrics,
        )

    def _server_channel_builder(
        self, listener_name: ListenerName, security_protocol: SecurityProtocol
    ) -> ChannelBuilder:
        """The listener's ChannelBuilders.server_channel_builder (Kafka's Processor makes it; a bad keystore or JAAS
        config fails the broker's start-up here, with the reason)."""
        from kafka.common.network.channel_builders import ChannelBuilders

        if security_protocol is SecurityProtocol.PLAINTEXT:
            return PlaintextChannelBuilder()
        config: Any = self.config
        provider = self.credential_provider
        return ChannelBuilders.server_channel_builder(
            listener_name,
            listener_name == self.config.inter_broker_listener_name,
            security_protocol,
            config,
            getattr(provider, "credential_cache", None),
            getattr(provider, "token_cache", None),
            self.time,
            LogContext(self.log_ident),
            self.api_version_response,
        )

    def api_version_response(self) -> Any:
        """The ApiVersions response a SASL listener gives before authentication (throttle time 0)."""
        manager = self.api_version_manager
        if manager is None:
            raise KafkaException("The broker's ApiVersionManager is not set on the SocketServer")
        return manager.api_version_response(0)

    def _reconfigurables_registry(self) -> Any:
        """The broker's DynamicBrokerConfig, where listeners' channel builders register for keystore updates."""
        from kafka.server.config_handler import broker_dynamic_config

        return broker_dynamic_config(self.config)

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


class Acceptor(KafkaMetricsGroup, AbstractServerThread):
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
        self._blocked_percent_meter_tags = {LISTENER_METRIC_TAG: end_point.listener_name.value}
        self.blocked_percent_meter = self.new_meter(
            f"{metric_prefix}AcceptorBlockedPercent",
            "blocked time",
            TimeUnit.NANOSECONDS,
            self._blocked_percent_meter_tags,
        )
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
        # Connections refused by a per-IP connection rate quota, closed once their throttle time is over
        # (Kafka's DelayedCloseSocket queue: (end of throttle in ms, channel), earliest first).
        self._throttled_sockets: list[tuple[int, int, SocketChannel]] = []
        self._throttled_seq = 0

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
                    self._close_throttled_connections()
                except Exception as e:
                    # Nothing that one connection does may stop the acceptor.
                    self.error("Error occurred", e)
        finally:
            self.debug("Closing server socket, selector, and any throttled sockets.")
            self._close_server_socket()
            while self._throttled_sockets:
                self.close_socket(heapq.heappop(self._throttled_sockets)[2])
            self.shutdown_complete()

    def _close_throttled_connections(self) -> None:
        """Closes the connections refused by an IP's rate quota whose throttle time is over."""
        if not self._throttled_sockets:
            return
        time_ms = self._time.milliseconds()
        while self._throttled_sockets and self._throttled_sockets[0][0] <= time_ms:
            _, _, channel = heapq.heappop(self._throttled_sockets)
            self.debug(f"Closing socket from ip {channel.remote_host}")
            self.close_socket(channel)

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
            if self.recv_buffer_size != Selectable.USE_DEFAULT_BUFFER_SIZE:
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
        except ConnectionThrottledException as e:
            # Not counted: the socket is only held until its throttle time is over, then closed.
            self.debug(f"Delaying closing of connection from /{e.ip} for {e.throttle_time_ms} ms")
            end_throttle_time_ms = e.start_throttle_time_ms + e.throttle_time_ms
            self._throttled_seq += 1
            heapq.heappush(self._throttled_sockets, (end_throttle_time_ms, self._throttled_seq, channel))
            return None
        try:
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            if self.send_buffer_size != Selectable.USE_DEFAULT_BUFFER_SIZE:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer_size)
        except OSError:
            self.close(self.end_point.listener_name, channel)
            raise
        return channel

    def _keep_waiting(self) -> bool:
        return self.is_running

    def _assign_new_connection(self, socket_channel: SocketChannel, processor: Processor, may_block: bool) -> bool:
        if processor.accept(socket_channel, may_block, self.blocked_percent_meter):
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


class Processor(KafkaMetricsGroup, AbstractServerThread):
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
        channel_builder: ChannelBuilder | None = None,
        reconfigurables: Any = None,
        failed_authentication_delay_ms: int = KSelector.NO_FAILED_AUTHENTICATION_DELAY,
        metrics: Metrics | None = None,
    ) -> None:
        """`channel_builder` is the listener's (PLAINTEXT when not given); a reconfigurable one (SSL keystores) is
        registered with `reconfigurables` (the broker's DynamicBrokerConfig) for the processor's life.
        `failed_authentication_delay_ms`: connection.failed.authentication.delay.ms (KIP-306). `metrics`: the
        broker's, where the Selector's sensors are recorded (a registry of the processor's own when not given)."""
        super().__init__(connection_quotas)
        self.id = id
        self.log_ident = log_prefix
        self._time = time
        self._request_channel = request_channel
        self._listener_name = listener_name
        self._security_protocol = security_protocol
        self._security_protocol_name = security_protocol.name  # for every RequestContext
        self._memory_pool = memory_pool
        self._connection_queue_size = connection_queue_size
        self._is_privileged_listener = is_privileged_listener
        # Filled by the Acceptor thread only, emptied by this thread only.
        self._new_connections: deque[SocketChannel] = deque()
        self._new_connection_taken = threading.Condition(threading.Lock())
        self._acceptor_waiting = False
        self._inflight_responses: dict[str, Response] = {}
        self._response_queue: deque[Response] = deque()
        self._metrics = metrics if metrics is not None else Metrics(time=time)
        self.metric_tags = {self.LISTENER_METRIC_TAG: listener_name.value, self.NETWORK_PROCESSOR_METRIC_TAG: str(id)}
        self._io_wait_ratio_metric_name = self._metrics.metric_name(
            "io-wait-ratio", METRICS_GROUP, "", self.metric_tags
        )
        # Only the networkProcessor tag on the Yammer gauge, as Kafka (the Selector's metrics carry the listener too).
        self._idle_percent_tags = {self.NETWORK_PROCESSOR_METRIC_TAG: str(id)}
        self.new_gauge(self.IDLE_PERCENT_METRIC_NAME, self.idle_percent, self._idle_percent_tags)
        self.expired_connections_killed_count = CumulativeSum()
        self._expired_connections_killed_count_metric_name = self._metrics.metric_name(
            "expired-connections-killed-count", METRICS_GROUP, "", self.metric_tags
        )
        self._metrics.add_metric(
            self._expired_connections_killed_count_metric_name, self.expired_connections_killed_count
        )
        self._max_request_size = max_request_size
        self._connections_max_idle_ms = connections_max_idle_ms
        self._failed_authentication_delay_ms = failed_authentication_delay_ms
        builder = channel_builder if channel_builder is not None else PlaintextChannelBuilder()
        self._reconfigurables = reconfigurables
        self._channel_builder = builder
        if reconfigurables is not None and hasattr(builder, "reconfigure"):
            reconfigurables.add_reconfigurable(builder)
        self._selector = self.create_selector(builder)
        # Connection ids are `localAddr:localPort-remoteAddr:remotePort-index`; the index keeps an id from
        # being reused while requests of a closed connection with the same ports may still be in flight.
        self._next_connection_index = 0

    def create_selector(self, channel_builder: ChannelBuilder) -> KSelector:
        """The Selector over this processor's connections. It writes a response as soon as it is handed over
        (`write_on_send`; see kafka.common.network.selector)."""
        return KSelector(
            self._connections_max_idle_ms,
            self._time,
            LogContext(self.log_ident),
            max_receive_size=self._max_request_size,
            channel_builder=channel_builder,
            record_time_per_connection=True,
            memory_pool=self._memory_pool,
            write_on_send=True,
            metrics=None if _BENCH_METRICS_OFF else self._metrics,
            failed_authentication_delay_ms=self._failed_authentication_delay_ms,
            metric_grp_prefix="socket-server",
            metric_tags=self.metric_tags,
            metrics_per_connection=False,
        )

    def idle_percent(self) -> float:
        """The Selector's io-wait-ratio, at most 1 (the IdlePercent gauge)."""
        metric = self._metrics.metric(self._io_wait_ratio_metric_name)
        return 0.0 if metric is None else min(float(metric.metric_value()), 1.0)

    def expired_connections_killed_count_value(self) -> float:
        metric = self._metrics.metric(self._expired_connections_killed_count_metric_name)
        return 0.0 if metric is None else float(metric.metric_value())

    def run(self) -> None:
        self.startup_complete()
        try:
            selector = self._selector
            alive = self._alive  # is_running, read without a property call in every round
            connection_quotas = self.connection_quotas
            listener_name = self._listener_name
            # Live views of the Selector's results (it empties them in place; see Selector.completed_receives).
            completed_receives = selector.completed_receives()
            completed_sends = selector.completed_sends()
            disconnected = selector.disconnected()
            while alive.get():
                try:
                    if self._new_connections:
                        self._configure_new_connections()
                    # PORT: Kafka takes new responses before the poll and writes them in it. Responses are written
                    # as soon as they are taken here (the Selector's write_on_send), so they are taken right after
                    # the poll that the handler's wakeup ended, and their completion is handled in the same round.
                    self._poll()
                    if self._response_queue:
                        self._process_new_responses()
                    if completed_receives:
                        self._process_completed_receives()
                    if completed_sends:
                        self._process_completed_sends()
                    if disconnected:
                        self._process_disconnected()
                    if connection_quotas.max_connections_exceeded(listener_name):
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
        response_queue = self._response_queue
        while response_queue and (current_response := self._dequeue_response()) is not None:
            channel_id = current_response.request.context.connection_id
            try:
                match current_response:
                    case SendResponse():
                        self.send_response(current_response, current_response.response_send)
                    case NoOpResponse():
                        # Nothing to send: read the connection's next (possibly already waiting) request.
                        self._update_request_metrics(current_response)
                        self.trace(
                            f"Socket server received empty response to send, registering for read: {current_response}"
                        )
                        self._handle_channel_mute_event(channel_id, ChannelMuteEvent.RESPONSE_SENT)
                        self._try_unmute_channel(channel_id)
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
        selector = self._selector
        # The connection may be gone: closed by the client, or by the selector for being idle too long.
        if selector.channel(connection_id) is None:
            self.warn(
                f"Attempting to send response via channel for which there is no open connection, connection id "
                f"{connection_id}"
            )
            response.request.update_request_metrics(0, response)
            if selector.closing_channel(connection_id) is None:
                return
        selector.send(NetworkSend(connection_id, MultiRecordsSend(response_send)))
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
        for receive in selector.completed_receives():
            connection_id = receive.source()
            try:
                channel = selector.channel(connection_id) or selector.closing_channel(connection_id)
                if channel is None:
                    raise RuntimeError(
                        f"Channel {connection_id} removed from selector before processing completed receive"
                    )
                payload = receive.payload()
                assert payload is not None  # a completed receive has its buffer
                buffer = ByteBufferAccessor(memoryview(payload))
                header = self.parse_request_header(buffer)
                now_nanos = self._time.nanoseconds()
                # KIP-368 (SASL channels, the only ones with an authenticator creator): a SaslHandshake on an
                # authenticated connection starts its re-authentication; a connection whose session has expired is
                # closed instead of served.
                if channel._authenticator_creator is not None:
                    if header.api_key is _SASL_HANDSHAKE and channel.maybe_begin_server_reauthentication(
                        receive, now_nanos
                    ):
                        self.trace(f"Begin re-authentication: {channel}")
                        continue
                    if channel.server_authentication_session_expired(now_nanos):
                        self.debug(f"Disconnecting expired channel: {channel} : {header}")
                        self._close(channel.id())
                        self.expired_connections_killed_count.record(self._metrics.config(), 1, 0)
                        continue
                context = RequestContext(
                    header,
                    connection_id,
                    channel.socket_address,
                    channel.principal(),
                    self._listener_name,
                    self._security_protocol_name,
                    channel.client_information,
                    self._is_privileged_listener,
                )
                req = Request(
                    self.id,
                    context,
                    now_nanos,
                    self._memory_pool,
                    buffer,
                    None,
                    self._time,
                    metrics=None if _BENCH_METRICS_OFF else self._request_channel.metrics,
                )
                # KIP-511: the client names its software in ApiVersions; it is remembered per connection here,
                # so that the api layer need not know connections.
                if header.api_key is _API_VERSIONS:
                    api_versions_request = req.body
                    if isinstance(api_versions_request, ApiVersionsRequest) and api_versions_request.is_valid():
                        data = api_versions_request.data
                        channel.client_information = ClientInformation(
                            data.client_software_name, data.client_software_version
                        )
                self._send_request(req)
                selector.mute(connection_id)
                channel.handle_channel_mute_event(_REQUEST_RECEIVED)
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
        for send in selector.completed_sends():
            destination_id = send.destination_id()
            try:
                response = self._inflight_responses.pop(destination_id, None)
                if response is None:
                    raise RuntimeError(f"Send for {destination_id} completed, but not in `inflightResponses`")
                # Looked up once for the metrics, the mute event and the unmute (_update_request_metrics,
                # _handle_channel_mute_event and _try_unmute_channel, inline): nothing in between closes it.
                channel = selector.channel(destination_id) or selector.closing_channel(destination_id)
                response.request.update_request_metrics(
                    0 if channel is None else channel.get_and_reset_network_thread_time_nanos(), response
                )
                on_complete = response.on_complete
                if on_complete is not None and isinstance(response, SendResponse):
                    on_complete(response.response_send)
                if channel is not None:
                    # Unmuted at once unless the client is being throttled.
                    channel.handle_channel_mute_event(_RESPONSE_SENT)
                    selector.unmute(destination_id)
            except Exception as e:
                self._process_channel_exception(
                    destination_id, f"Exception while processing completed send to {destination_id}", e
                )
        selector.clear_completed_sends()

    def _update_request_metrics(self, response: Response) -> None:
        request = response.request
        channel = self.open_or_closing_channel(request.context.connection_id)
        network_thread_time_nanos = 0 if channel is None else channel.get_and_reset_network_thread_time_nanos()
        request.update_request_metrics(network_thread_time_nanos, response)

    def _process_disconnected(self) -> None:
        selector = self._selector
        for connection_id in selector.disconnected():
            try:
                connection = ConnectionId.from_string(connection_id)
                if connection is None:
                    raise RuntimeError(f"connectionId has unexpected format: {connection_id}")
                response = self._inflight_responses.pop(connection_id, None)
                if response is not None:
                    self._update_request_metrics(response)
                # The selector closed the channel; its connection count is given back here.
                self.connection_quotas.dec(self._listener_name, connection.remote_host)
            except Exception as e:
                self.process_exception(f"Exception while processing disconnection of {connection_id}", e)

    def _close_excess_connections(self) -> None:
        if self.connection_quotas.max_connections_exceeded(self._listener_name):
            channel = self._selector.lowest_priority_channel()
            if channel is not None:
                self._close(channel.id())

    def _close(self, connection_id: str) -> None:
        """Closes a connection, gives back its count and drops its in-flight response; no disconnect notice follows.

        (Kafka's private `close(connectionId)`, renamed beside AbstractServerThread.close.)"""
        channel = self.open_or_closing_channel(connection_id)
        if channel is not None:
            self.debug(f"Closing selector connection {connection_id}")
            address = channel.socket_address
            if address is not None:
                self.connection_quotas.dec(self._listener_name, address)
            self._selector.close(connection_id)
            response = self._inflight_responses.pop(connection_id, None)
            if response is not None:
                self._update_request_metrics(response)

    def accept(
        self, socket_channel: SocketChannel, may_block: bool, acceptor_idle_percent_meter: YammerMeter | None = None
    ) -> bool:
        """Queues a new connection for this processor (called by the Acceptor thread); False if the queue is full
        and `may_block` is False, else waits for room (the time waited marked on `acceptor_idle_percent_meter`)."""
        if len(self._new_connections) >= self._connection_queue_size:
            if not may_block:
                return False
            start_ns = self._time.nanoseconds()
            try:
                return self._wait_for_room(socket_channel)
            finally:
                if acceptor_idle_percent_meter is not None:
                    acceptor_idle_percent_meter.mark(self._time.nanoseconds() - start_ns)
        self._new_connections.append(socket_channel)
        self.wakeup()
        return True

    def _wait_for_room(self, socket_channel: SocketChannel) -> bool:
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
        # PORT: Kafka closes only the open channels here; the closing ones (closed gracefully with a request of
        # theirs still in flight) are closed too, so that their connection counts are given back.
        for channel in self._selector.channels() + self._selector.closing_channels():
            self._close(channel.id())
        if self._reconfigurables is not None and hasattr(self._channel_builder, "reconfigure"):
            self._reconfigurables.remove_reconfigurable(self._channel_builder)
        self._selector.close()

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

    def open_or_closing_channel(self, connection_id: str) -> KafkaChannel | None:
        channel = self._selector.channel(connection_id)
        return channel if channel is not None else self._selector.closing_channel(connection_id)

    def _handle_channel_mute_event(self, connection_id: str, event: KafkaChannel.ChannelMuteEvent) -> None:
        channel = self.open_or_closing_channel(connection_id)
        if channel is not None:
            channel.handle_channel_mute_event(event)

    def _try_unmute_channel(self, connection_id: str) -> None:
        channel = self.open_or_closing_channel(connection_id)
        if channel is not None:
            self._selector.unmute(channel.id())

    def channel(self, connection_id: str) -> KafkaChannel | None:
        return self._selector.channel(connection_id)

    def channel_ids(self) -> list[str]:
        """The ids of the open connections (for tests; read from another thread, so a copy)."""
        return [channel.id() for channel in self._selector.channels()]

    def wakeup(self) -> None:
        self._selector.wakeup()

    def initiate_shutdown(self) -> None:
        super().initiate_shutdown()
        self.remove_metric(self.IDLE_PERCENT_METRIC_NAME, self._idle_percent_tags)
        self._metrics.remove_metric(self._expired_connections_killed_count_metric_name)

    def await_shutdown(self) -> None:
        super().await_shutdown()
        if not self.is_started():
            self._selector.close()


@dataclass(frozen=True, slots=True)
class ConnectionId:
    """The parts of a Processor's connection id, `localHost:localPort-remoteHost:remotePort-index`."""

    local_host: str
    local_port: int
    remote_host: str
    remote_port: int
    index: int

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(r"(.+?):(\d+)-(.+):(\d+)-(\d+)")

    @staticmethod
    def from_string(s: str) -> ConnectionId | None:
        """The parts of connection id `s`; None if it is not one."""
        match = ConnectionId._PATTERN.fullmatch(s)
        if match is None:
            return None
        local_host, local_port, remote_host, remote_port, index = match.groups()
        return ConnectionId(local_host, int(local_port), remote_host, int(remote_port), int(index))

    def __str__(self) -> str:
        return f"{self.local_host}:{self.local_port}-{self.remote_host}:{self.remote_port}-{self.index}"


class ConnectionQuotas(Logging):
    """Connection counts per IP address, per listener and per broker, and their limits: `max.connections.per.ip`
    (with per-address overrides) rejects a connection over the limit; `max.connections` (per broker, and per
    listener as `listener.name.{name}.max.connections`) makes the Acceptor wait until a connection closes.
    Connections on the inter-broker listener are not held back by the broker-wide limit while other listeners
    exist.

    Connection creation rates: `max.connection.creation.rate` (broker-wide, and per listener) makes the Acceptor
    wait until the rate is back under the bound (at most one quota window); a per-IP `connection_creation_rate`
    raises ConnectionThrottledException for a connection over it, which is then not counted (nor in the broker and
    listener rates).

    All state is guarded by one condition (Kafka's `counts.synchronized`), which waiting Acceptors wait on."""

    logger_name = "kafka.network.ConnectionQuotas"

    def __init__(self, config: SocketServerConfig, time: Time, metrics: Metrics | None = None) -> None:
        self._time = time
        self._config = config
        self._metrics = metrics if metrics is not None else Metrics(time=time)
        self._default_max_connections_per_ip = config.max_connections_per_ip
        self._max_connections_per_ip_overrides = _resolve_overrides(config.max_connections_per_ip_overrides)
        self._broker_max_connections = config.max_connections
        self._inter_broker_listener_name = config.inter_broker_listener_name
        self._counts: dict[str, int] = {}
        self._lock = threading.Condition(threading.RLock())
        self._listener_counts: dict[ListenerName, int] = {}
        self.max_connections_per_listener: dict[ListenerName, ListenerConnectionQuota] = {}
        self._total_count = 0
        self._default_connection_rate_per_ip = IP_CONNECTION_RATE_DEFAULT
        self._connection_rate_per_ip: dict[str, int] = {}
        self._update_lock = threading.RLock()  # Kafka's `synchronized` of updateIpConnectionRateQuota
        self._broker_connection_rate_sensor = self._get_or_create_connection_rate_quota_sensor(
            config.max_connection_creation_rate, _BrokerQuotaEntity()
        )
        self._max_throttle_time_ms = config.quota_window_size_seconds * 1000

    def inc(self, listener_name: ListenerName, address: str, keep_waiting: Callable[[], bool] | None = None) -> None:
        """Counts a new connection from `address`, first waiting while the broker or listener limit is reached.
        Raises TooManyConnectionsException when the address is over its limit (the count is taken all the same;
        closing the connection gives it back).

        # PORT: `keep_waiting` (the Acceptor's running flag) ends the wait for a slot with ConnectionSlotWaitAborted
        # when it turns False, so that an Acceptor shut down while waiting stops (Kafka's wait has no way out)."""
        with self._lock:
            self._wait_for_connection_slot(listener_name, keep_waiting)
            self._record_ip_connection_maybe_throttle(listener_name, address)
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

    def update_broker_max_connection_rate(self, max_connection_rate: int) -> None:
        self._update_connection_rate_quota(max_connection_rate, _BrokerQuotaEntity())

    def update_ip_connection_rate_quota(self, ip: str | None, max_connection_rate: int | None) -> None:
        """Sets (or with `max_connection_rate` None removes) the connection creation rate of address `ip`, or the
        default of every address when `ip` is None; existing sensors get the new bound at once."""
        with self._update_lock:
            if ip is not None:
                with self._lock:
                    if max_connection_rate is not None:
                        self.info(f"Updating max connection rate override for /{ip} to {max_connection_rate}")
                        self._connection_rate_per_ip[ip] = max_connection_rate
                    else:
                        self.info(f"Removing max connection rate override for /{ip}")
                        self._connection_rate_per_ip.pop(ip, None)
                self._update_connection_rate_quota(self.connection_rate_for_ip(ip), _IpQuotaEntity(ip))
            else:
                with self._lock:
                    self._default_connection_rate_per_ip = (
                        max_connection_rate if max_connection_rate is not None else IP_CONNECTION_RATE_DEFAULT
                    )
                self.info(f"Updated default max IP connection rate to {self._default_connection_rate_per_ip}")
                for metric_name, metric in self._metrics.metrics().items():
                    if (
                        metric_name.name == CONNECTION_RATE_METRIC_NAME
                        and metric_name.group == METRICS_GROUP
                        and IP_METRIC_TAG in metric_name.tags
                    ):
                        quota = self.connection_rate_for_ip(metric_name.tags[IP_METRIC_TAG])
                        current = metric.config.quota
                        if current is None or quota != current.bound():
                            self.debug(
                                f"Updating existing connection rate quota config for {metric_name.tags} to {quota}"
                            )
                            metric.config = self._rate_quota_metric_config(quota)

    def connection_rate_for_ip(self, ip: str) -> int:
        return self._connection_rate_per_ip.get(ip, self._default_connection_rate_per_ip)

    def add_listener(self, config: SocketServerConfig, listener_name: ListenerName) -> None:
        with self._lock:
            if listener_name not in self.max_connections_per_listener:
                new_listener_quota = ListenerConnectionQuota(self._lock, listener_name, self)
                self.max_connections_per_listener[listener_name] = new_listener_quota
                self._listener_counts[listener_name] = 0
                registry = _dynamic_broker_config(config)
                if registry is not None:
                    registry.add_reconfigurable(new_listener_quota)
                new_listener_quota.configure(config.values_with_prefix_override(listener_name.config_prefix()))
            self._lock.notify_all()

    def remove_listener(self, config: SocketServerConfig, listener_name: ListenerName) -> None:
        with self._lock:
            listener_quota = self.max_connections_per_listener.pop(listener_name, None)
            if listener_quota is not None:
                self._listener_counts.pop(listener_name, None)
                listener_quota.close()
                registry = _dynamic_broker_config(config)
                if registry is not None:
                    registry.remove_reconfigurable(listener_quota)
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
            start_throttle_time_ms = self._time.milliseconds()
            throttle_time_ms = max(
                self._record_connection_and_get_throttle_time_ms(listener_name, start_throttle_time_ms), 0
            )
            end_throttle_time_ms = start_throttle_time_ms + throttle_time_ms
            remaining_throttle_time_ms = throttle_time_ms
            # Woken by dec() and by limit changes; the slices bound the wait for the shutdown check.
            while remaining_throttle_time_ms > 0 or not self._connection_slot_available(listener_name):
                if keep_waiting is not None and not keep_waiting():
                    raise ConnectionSlotWaitAborted(f"Stopped waiting for a connection slot on {listener_name.value}")
                self._lock.wait(min(0.3, remaining_throttle_time_ms / 1000) if remaining_throttle_time_ms > 0 else 0.3)
                remaining_throttle_time_ms = max(end_throttle_time_ms - self._time.milliseconds(), 0)

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

    def _record_connection_and_get_throttle_time_ms(self, listener_name: ListenerName, time_ms: int) -> int:
        """Records a new connection in the broker and listener rates; the wait (ms) that brings the higher of them
        back under its bound. The inter-broker listener (while others exist) is held back by its own rate only."""

        def record_and_get_listener_throttle_time(min_throttle_time_ms: int) -> int:
            listener_quota = self.max_connections_per_listener.get(listener_name)
            if listener_quota is None:
                return 0
            listener_throttle_time_ms = self._record_and_get_throttle_time_ms(
                listener_quota.connection_rate_sensor, time_ms
            )
            throttle_time_ms = max(min_throttle_time_ms, listener_throttle_time_ms)
            if throttle_time_ms > 0:
                listener_quota.listener_connection_rate_throttle_sensor.record(float(throttle_time_ms), time_ms)
            return throttle_time_ms

        if self._protected_listener(listener_name):
            return record_and_get_listener_throttle_time(0)
        broker_throttle_time_ms = self._record_and_get_throttle_time_ms(self._broker_connection_rate_sensor, time_ms)
        return record_and_get_listener_throttle_time(broker_throttle_time_ms)

    def _update_listener_metrics(self, listener_name: ListenerName, throttle_ms: int, time_ms: int) -> None:
        """A connection refused by its IP's rate: taken back from the broker and listener rates."""
        if not self._protected_listener(listener_name):
            self._broker_connection_rate_sensor.record(-1.0, time_ms, False)
        listener_quota = self.max_connections_per_listener.get(listener_name)
        if listener_quota is not None:
            listener_quota.ip_connection_rate_throttle_sensor.record(float(throttle_ms), time_ms)
            listener_quota.connection_rate_sensor.record(-1.0, time_ms, False)

    def _record_ip_connection_maybe_throttle(self, listener_name: ListenerName, address: str) -> None:
        """Records a connection from `address` in its IP's rate (when it has a quota); over the quota, the
        connection is taken back out of every rate and ConnectionThrottledException raised. Called with the lock
        held, so that the quota read and the sensor made with it agree."""
        connection_rate_quota = self.connection_rate_for_ip(address)
        if connection_rate_quota != IP_CONNECTION_RATE_DEFAULT:
            sensor = self._get_or_create_connection_rate_quota_sensor(connection_rate_quota, _IpQuotaEntity(address))
            time_ms = self._time.milliseconds()
            throttle_ms = self._record_and_get_throttle_time_ms(sensor, time_ms)
            if throttle_ms > 0:
                self.trace(f"Throttling /{address} for {throttle_ms} ms")
                sensor.record(-1.0, time_ms, False)
                self._update_listener_metrics(listener_name, throttle_ms, time_ms)
                raise ConnectionThrottledException(address, time_ms, throttle_ms)

    def _record_and_get_throttle_time_ms(self, sensor: Sensor, time_ms: int) -> int:
        try:
            sensor.record(1.0, time_ms)
            return 0
        except QuotaViolationException as e:
            throttle_time_ms = int(bounded_throttle_time(e, self._max_throttle_time_ms, time_ms))
            self.debug(f"Quota violated for sensor ({sensor.name()}). Delay time: {throttle_time_ms} ms")
            return throttle_time_ms

    def _get_or_create_connection_rate_quota_sensor(self, quota_limit: int, entity: _ConnectionQuotaEntity) -> Sensor:
        sensor = self._metrics.get_sensor(entity.sensor_name)
        if sensor is None:
            sensor = self._metrics.sensor(
                entity.sensor_name,
                config=self._rate_quota_metric_config(quota_limit),
                inactive_sensor_expiration_time_seconds=entity.sensor_expiration,
            )
            sensor.add(self._connection_rate_metric_name(entity), Rate(), None)
        return sensor

    def _update_connection_rate_quota(self, quota_limit: int, entity: _ConnectionQuotaEntity) -> None:
        metric = self._metrics.metric(self._connection_rate_metric_name(entity))
        if metric is not None:
            metric.config = self._rate_quota_metric_config(quota_limit)
            self.info(f"Updated {entity.metric_name} max connection creation rate to {quota_limit}")

    def _connection_rate_metric_name(self, entity: _ConnectionQuotaEntity) -> MetricName:
        return self._metrics.metric_name(
            entity.metric_name, METRICS_GROUP, "Tracking rate of accepting new connections (per second)", entity.tags
        )

    def _rate_quota_metric_config(self, quota_limit: int) -> MetricConfig:
        config = MetricConfig(quota=Quota(float(quota_limit), True), samples=self._config.num_quota_samples)
        return config.time_window(self._config.quota_window_size_seconds, TimeUnit.SECONDS)

    def close(self) -> None:
        with self._lock:
            self._metrics.remove_sensor(self._broker_connection_rate_sensor.name())
            for listener_quota in self.max_connections_per_listener.values():
                listener_quota.close()
            self.max_connections_per_listener.clear()
            self._lock.notify_all()


class _ConnectionQuotaEntity:
    """What a connection rate sensor measures: the broker, a listener or an IP address."""

    __slots__ = ("sensor_name", "metric_name", "sensor_expiration", "tags")

    def __init__(self, sensor_name: str, metric_name: str, sensor_expiration: int, tags: dict[str, str]) -> None:
        self.sensor_name = sensor_name
        self.metric_name = metric_name
        self.sensor_expiration = sensor_expiration
        self.tags = tags


def _BrokerQuotaEntity() -> _ConnectionQuotaEntity:
    return _ConnectionQuotaEntity(CONNECTION_RATE_SENSOR_NAME, f"broker-{CONNECTION_RATE_METRIC_NAME}", _LONG_MAX, {})


def _ListenerQuotaEntity(listener_name: str) -> _ConnectionQuotaEntity:
    return _ConnectionQuotaEntity(
        f"{CONNECTION_RATE_SENSOR_NAME}-{listener_name}",
        CONNECTION_RATE_METRIC_NAME,
        _LONG_MAX,
        {LISTENER_METRIC_TAG: listener_name},
    )


def _IpQuotaEntity(ip: str) -> _ConnectionQuotaEntity:
    return _ConnectionQuotaEntity(
        f"{CONNECTION_RATE_SENSOR_NAME}-{ip}",
        CONNECTION_RATE_METRIC_NAME,
        INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS,
        {IP_METRIC_TAG: ip},
    )


class ListenerConnectionQuota:
    """The connection limits of one listener: its `max.connections` and `max.connection.creation.rate` (the
    broker's unless overridden as `listener.name.{name}.max.connections` / `...max.connection.creation.rate`)."""

    def __init__(self, lock: threading.Condition, listener: ListenerName, quotas: ConnectionQuotas) -> None:
        self._lock = lock
        self._listener = listener
        self._quotas = quotas
        self._max_connections = _INT_MAX
        metrics = quotas._metrics
        self.connection_rate_sensor = quotas._get_or_create_connection_rate_quota_sensor(
            _INT_MAX, _ListenerQuotaEntity(listener.value)
        )
        self.listener_connection_rate_throttle_sensor = self._create_connection_rate_throttle_sensor(
            metrics, LISTENER_THROTTLE_PREFIX
        )
        self.ip_connection_rate_throttle_sensor = self._create_connection_rate_throttle_sensor(
            metrics, IP_THROTTLE_PREFIX
        )

    @property
    def max_connections(self) -> int:
        return self._max_connections

    def listener_name(self) -> ListenerName:
        return self._listener

    def configure(self, configs: Mapping[str, Any]) -> None:
        self._max_connections = self._max_connections_of(configs)
        self._quotas._update_connection_rate_quota(
            self._max_connection_creation_rate_of(configs), _ListenerQuotaEntity(self._listener.value)
        )

    def reconfigurable_configs(self) -> frozenset[str]:
        return LISTENER_RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, configs: Mapping[str, Any]) -> None:
        value = self._max_connections_of(configs)
        if value <= 0:
            raise KafkaException(f"Invalid {MAX_CONNECTIONS_PROP} {value}")
        rate = self._max_connection_creation_rate_of(configs)
        if rate <= 0:
            raise KafkaException(f"Invalid {MAX_CONNECTION_CREATION_RATE_PROP} {rate}")

    def reconfigure(self, configs: Mapping[str, Any]) -> None:
        with self._lock:
            self._max_connections = self._max_connections_of(configs)
            self._quotas._update_connection_rate_quota(
                self._max_connection_creation_rate_of(configs), _ListenerQuotaEntity(self._listener.value)
            )
            self._lock.notify_all()

    def close(self) -> None:
        metrics = self._quotas._metrics
        metrics.remove_sensor(self.connection_rate_sensor.name())
        metrics.remove_sensor(self.listener_connection_rate_throttle_sensor.name())
        metrics.remove_sensor(self.ip_connection_rate_throttle_sensor.name())

    @staticmethod
    def _max_connections_of(configs: Mapping[str, Any]) -> int:
        value = configs.get(MAX_CONNECTIONS_PROP)
        return _INT_MAX if value is None else int(value)

    @staticmethod
    def _max_connection_creation_rate_of(configs: Mapping[str, Any]) -> int:
        value = configs.get(MAX_CONNECTION_CREATION_RATE_PROP)
        return _INT_MAX if value is None else int(value)

    def _create_connection_rate_throttle_sensor(self, metrics: Metrics, throttle_prefix: str) -> Sensor:
        """The average (over non-zero throttles) time connections of this listener were held back."""
        sensor = metrics.sensor(f"{throttle_prefix}ConnectionRateThrottleTime-{self._listener.value}")
        metric_name = metrics.metric_name(
            f"{throttle_prefix}connection-accept-throttle-time",
            METRICS_GROUP,
            "Tracking average throttle-time, out of non-zero throttle times, per listener",
            {LISTENER_METRIC_TAG: self._listener.value},
        )
        sensor.add(metric_name, Avg())
        return sensor


class ConnectionSlotWaitAborted(KafkaException):
    """The Acceptor stopped while a new connection waited for a free slot under max.connections."""


class ConnectionThrottledException(KafkaException):
    """A connection over its IP's connection creation rate; it is closed after `throttle_time_ms`."""

    def __init__(self, ip: str, start_throttle_time_ms: int, throttle_time_ms: int) -> None:
        super().__init__(f"{ip} throttled for {throttle_time_ms}")
        self.ip = ip
        self.start_throttle_time_ms = start_throttle_time_ms
        self.throttle_time_ms = throttle_time_ms


class TooManyConnectionsException(KafkaException):
    def __init__(self, ip: str, count: int) -> None:
        super().__init__(f"Too many connections from /{ip} (maximum = {count})")
        self.ip = ip
        self.count = count


def _dynamic_broker_config(config: SocketServerConfig) -> Any:
    """The broker's DynamicBrokerConfig, where listener quotas register (Kafka's `config.addReconfigurable`); None
    for a test's stand-in config. (Imported here: kafka.server.config_handler imports this module.)"""
    from kafka.server.config_handler import broker_dynamic_config

    return broker_dynamic_config(config)


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
