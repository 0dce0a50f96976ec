"""Port of core/src/main/scala/kafka/controller/ControllerChannelManager.scala (Kafka 2.8).

How the controller talks to brokers. `ControllerChannelManager` keeps, per live broker, a queue of control
requests (LeaderAndIsr, UpdateMetadata, StopReplica) and a `RequestSendThread` named
`Controller-{controllerId}-to-broker-{brokerId}-send-thread` that sends them one at a time over the broker's
control-plane (or inter-broker) listener, retrying on failure until it succeeds or the broker is removed, and
hands each response to the callback given with the request.

`AbstractControllerBrokerRequestBatch` collects the requests that one state change produces: LeaderAndIsr
partition states per broker, the partitions whose metadata every broker should learn, and StopReplica per
broker; `send_requests_to_brokers` turns them into requests at the versions the inter-broker protocol version
allows and queues them. Responses come back to the controller as events (LeaderAndIsr errors, StopReplica
results for topic deletion).

Each send thread owns a `ControllerBrokerChannel`: Kafka's NetworkClient per broker, over the channel builder of
the controller-to-broker listener (ChannelBuilders.inter_broker_client_channel_builder), reconnecting after any
failure with the same 100 ms backoff.
# Metrics (kafka.controller:type=ControllerChannelManager): TotalQueueSize, and per broker (broker-id tag) QueueSize
# and the RequestRateAndQueueTimeMs timer (the time each request waited in its queue), as Kafka 2.8.
"""

from __future__ import annotations

import queue
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.clients import network_client_utils
from kafka.clients.api_versions import ApiVersions
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.clients.network_client import NetworkClient
from kafka.cluster.broker import Broker, Node
from kafka.common.errors import KafkaException
from kafka.common.message import LeaderAndIsrRequestData, StopReplicaRequestData, UpdateMetadataRequestData
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.channel_builders import ChannelBuilders
from kafka.common.network.listener_name import ListenerName
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.plaintext_channel_builder import PlaintextChannelBuilder
from kafka.common.network.selectable import Selectable
from kafka.common.network.selector import Selector
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.leader_and_isr_request import LeaderAndIsrRequestBuilder
from kafka.common.requests.leader_and_isr_response import LeaderAndIsrResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.stop_replica_request import StopReplicaRequestBuilder
from kafka.common.requests.stop_replica_response import StopReplicaResponse
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.requests.update_metadata_response import UpdateMetadataResponse
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer import Timer
from kafka.server.kafka_config import (
    KAFKA_0_9_0,
    KAFKA_0_10_0_IV1,
    KAFKA_0_10_2_IV0,
    KAFKA_1_0_IV0,
    KAFKA_2_2_IV0,
    KAFKA_2_4_IV0,
    KAFKA_2_4_IV1,
    KAFKA_2_6_IV0,
    KAFKA_2_8_IV1,
    KafkaConfig,
)
from kafka.utils.logging import Logging
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from kafka.controller.controller_context import ControllerContext, ReplicaAssignment
    from kafka.controller.controller_event_manager import ControllerEvent, ControllerEventManager
    from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch

QUEUE_SIZE_METRIC_NAME = "QueueSize"
REQUEST_RATE_AND_QUEUE_TIME_METRIC_NAME = "RequestRateAndQueueTimeMs"

ResponseCallback = Callable[[AbstractResponse], None]


# How long an idle send thread waits for a request before it checks whether it should stop. Shutting the
# thread down also wakes it at once; the bound only guards against a missed wake-up.
_QUEUE_POLL_TIMEOUT_S = 1.0


# -- request versions by inter.broker.protocol.version ------------------------------------------------------------


def leader_and_isr_request_version(config: KafkaConfig) -> int:
    """The LeaderAndIsr version the controller sends at the configured inter-broker protocol version."""
    ibp = config.inter_broker_protocol_version
    if ibp >= KAFKA_2_8_IV1:
        return 5
    if ibp >= KAFKA_2_4_IV1:
        return 4
    if ibp >= KAFKA_2_4_IV0:
        return 3
    if ibp >= KAFKA_2_2_IV0:
        return 2
    if ibp >= KAFKA_1_0_IV0:
        return 1
    return 0


def update_metadata_request_version(config: KafkaConfig) -> int:
    """The UpdateMetadata version the controller sends at the configured inter-broker protocol version."""
    ibp = config.inter_broker_protocol_version
    if ibp >= KAFKA_2_8_IV1:
        return 7
    if ibp >= KAFKA_2_4_IV1:
        return 6
    if ibp >= KAFKA_2_2_IV0:
        return 5
    if ibp >= KAFKA_1_0_IV0:
        return 4
    if ibp >= KAFKA_0_10_2_IV0:
        return 3
    if ibp >= KAFKA_0_10_0_IV1:
        return 2
    if ibp >= KAFKA_0_9_0:
        return 1
    return 0


def stop_replica_request_version(config: KafkaConfig) -> int:
    """The StopReplica version the controller sends at the configured inter-broker protocol version."""
    ibp = config.inter_broker_protocol_version
    if ibp >= KAFKA_2_6_IV0:
        return 3
    if ibp >= KAFKA_2_4_IV1:
        return 2
    if ibp >= KAFKA_2_2_IV0:
        return 1
    return 0


# -- the connection to one broker -----------------------------------------------------------------------------------


class ControllerBrokerChannel:
    """The controller's connection to one broker: a NetworkClient over the controller-to-broker listener's channel
    builder (PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL), used by a single send thread; `initiate_close` may be
    called from any thread and wakes any wait."""

    def __init__(
        self,
        broker_node: Node,
        client_id: str,
        time: Time,
        request_timeout_ms: int,
        log_context: str,
        channel_builder: ChannelBuilder | None = None,
        connection_setup_timeout_ms: int = 10_000,
        connection_setup_timeout_max_ms: int = 30_000,
    ) -> None:
        self.broker_node = broker_node
        self.client_id = client_id
        self._time = time
        self.request_timeout_ms = request_timeout_ms
        self.log_context = log_context
        context = LogContext(log_context)
        selector = Selector(
            Selector.NO_IDLE_TIMEOUT_MS,
            time,
            context,
            max_receive_size=NetworkReceive.UNLIMITED,
            channel_builder=channel_builder if channel_builder is not None else PlaintextChannelBuilder(),
        )
        self._network_client = NetworkClient(
            selector,
            ManualMetadataUpdater([broker_node]),
            client_id,
            1,
            0,
            0,
            Selectable.USE_DEFAULT_BUFFER_SIZE,
            Selectable.USE_DEFAULT_BUFFER_SIZE,
            request_timeout_ms,
            connection_setup_timeout_ms,
            connection_setup_timeout_max_ms,
            time,
            False,
            ApiVersions(),
            context,
        )

    # NetworkClientUtils.isReady
    def is_ready(self) -> bool:
        return network_client_utils.is_ready(self._network_client, self.broker_node, self._time.milliseconds())

    def connect(self, timeout_ms: int) -> None:
        """Connects (and authenticates); TimeoutError if not ready within `timeout_ms`, OSError if refused, the
        AuthenticationException if the broker refuses the controller's credentials."""
        if not network_client_utils.await_ready(self._network_client, self.broker_node, self._time, timeout_ms):
            raise TimeoutError(f"Failed to connect within {timeout_ms} ms")

    def send_and_receive(self, request_builder: Builder[Any]) -> tuple[RequestHeader, AbstractResponse]:
        """Sends one request at the builder's latest allowed version and waits for its response."""
        client = self._network_client
        client_request = client.new_client_request(
            self.broker_node.id_string, request_builder, self._time.milliseconds(), True
        )
        client_response = network_client_utils.send_and_receive(client, client_request, self._time)
        body = client_response.response_body
        if body is None:
            raise OSError(f"No response from {self.broker_node}")
        return client_response.request_header, body

    def initiate_close(self) -> None:
        """Wakes the send thread out of any wait, for good; called on shutdown."""
        self._network_client.initiate_close()

    def close(self) -> None:
        """Drops the connection (the next send reconnects)."""
        self._network_client.close(self.broker_node.id_string)

    def close_all(self) -> None:
        """Releases everything; the channel cannot be used afterwards."""
        self._network_client.close()


# -- the manager and its send threads ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QueueItem:
    api_key: ApiKeys
    request: Builder[Any]
    callback: ResponseCallback | None
    enqueue_time_ms: int


# Put on a send thread's queue to wake it for shutdown.
_WAKE_UP: Any = object()


def _dynamic_config(config: Any) -> Any:
    """The broker's DynamicBrokerConfig (None for a test's stand-in config)."""
    from kafka.server.config_handler import broker_dynamic_config

    return broker_dynamic_config(config)


@dataclass(slots=True)
class ControllerBrokerStateInfo:
    channel: ControllerBrokerChannel
    broker_node: Node
    message_queue: queue.Queue[QueueItem]
    request_send_thread: RequestSendThread
    reconfigurable_channel_builder: Any = None  # registered with the DynamicBrokerConfig while the broker is known


class ControllerChannelManager(Logging, KafkaMetricsGroup):
    """A send queue and thread per live (or shutting-down) broker.

    Lock order: `_broker_lock`, then a send thread's shutdown (which waits for that thread). Send threads never
    take `_broker_lock`, so waiting for one while holding it cannot deadlock.
    """

    logger_name = "kafka.controller.ControllerChannelManager"

    def __init__(
        self,
        controller_context: ControllerContext,
        config: KafkaConfig,
        time: Time,
        state_change_logger: StateChangeLogger,
        thread_name_prefix: str | None = None,
    ) -> None:
        self.controller_context = controller_context
        self.config = config
        self.time = time
        self.state_change_logger = state_change_logger
        self.thread_name_prefix = thread_name_prefix
        self.broker_state_info: dict[int, ControllerBrokerStateInfo] = {}
        self._broker_lock = threading.RLock()
        self.log_ident = f"[Channel manager on controller {config.broker_id}]: "
        self.new_gauge("TotalQueueSize", self.total_queue_size)

    def total_queue_size(self) -> int:
        with self._broker_lock:
            return sum(info.message_queue.qsize() for info in self.broker_state_info.values())

    def startup(self) -> None:
        for broker in self.controller_context.live_or_shutting_down_brokers:
            self._add_new_broker(broker)
        with self._broker_lock:
            for broker_id in list(self.broker_state_info):
                self._start_request_send_thread(broker_id)

    def shutdown(self) -> None:
        with self._broker_lock:
            for info in list(self.broker_state_info.values()):
                self._remove_existing_broker(info)

    def send_request(self, broker_id: int, request: Builder[Any], callback: ResponseCallback | None = None) -> None:
        with self._broker_lock:
            state_info = self.broker_state_info.get(broker_id)
            if state_info is not None:
                state_info.message_queue.put(QueueItem(request.api_key, request, callback, self.time.milliseconds()))
            else:
                self.warn(f"Not sending request {request} to broker {broker_id}, since it is offline.")

    def add_broker(self, broker: Broker) -> None:
        # startup() may already have added the broker and started its thread.
        with self._broker_lock:
            if broker.id not in self.broker_state_info:
                self._add_new_broker(broker)
                self._start_request_send_thread(broker.id)

    def remove_broker(self, broker_id: int) -> None:
        with self._broker_lock:
            self._remove_existing_broker(self.broker_state_info[broker_id])

    def _controller_to_broker_listener_name(self) -> ListenerName:
        control_plane = self.config.control_plane_listener_name
        return control_plane if control_plane is not None else self.config.inter_broker_listener_name

    def _controller_to_broker_security_protocol(self) -> SecurityProtocol:
        control_plane = self.config.control_plane_security_protocol
        return control_plane if control_plane is not None else self.config.inter_broker_security_protocol

    def _add_new_broker(self, broker: Broker) -> None:
        with self._broker_lock:
            message_queue: queue.Queue[QueueItem] = queue.Queue()
            self.debug(f"Controller {self.config.broker_id} trying to connect to broker {broker.id}")
            listener_name = self._controller_to_broker_listener_name()
            broker_node = broker.node(listener_name)
            log_context = f"[Controller id={self.config.broker_id}, targetBrokerId={broker_node.id_string}] "
            channel_builder = ChannelBuilders.inter_broker_client_channel_builder(
                self.config,
                self.time,
                LogContext(log_context),
                listener_name,
                self._controller_to_broker_security_protocol(),
            )
            reconfigurable_channel_builder = None
            dynamic_config = _dynamic_config(self.config)
            if dynamic_config is not None and hasattr(channel_builder, "reconfigure"):
                dynamic_config.add_reconfigurable(channel_builder)
                reconfigurable_channel_builder = channel_builder
            channel = ControllerBrokerChannel(
                broker_node,
                str(self.config.broker_id),
                self.time,
                self.config.request_timeout_ms,
                log_context,
                channel_builder,
                self.config.connection_setup_timeout_ms,
                self.config.connection_setup_timeout_max_ms,
            )
            base_name = f"Controller-{self.config.broker_id}-to-broker-{broker.id}-send-thread"
            thread_name = base_name if self.thread_name_prefix is None else f"{self.thread_name_prefix}:{base_name}"
            request_thread = RequestSendThread(
                self.config.broker_id,
                self.controller_context,
                message_queue,
                channel,
                broker_node,
                self.config,
                self.time,
                self.state_change_logger,
                thread_name,
                self.new_timer(
                    REQUEST_RATE_AND_QUEUE_TIME_METRIC_NAME,
                    TimeUnit.MILLISECONDS,
                    TimeUnit.SECONDS,
                    _broker_metric_tags(broker.id),
                ),
            )
            self.new_gauge(QUEUE_SIZE_METRIC_NAME, message_queue.qsize, _broker_metric_tags(broker.id))
            self.broker_state_info[broker.id] = ControllerBrokerStateInfo(
                channel, broker_node, message_queue, request_thread, reconfigurable_channel_builder
            )

    def _remove_existing_broker(self, broker_state: ControllerBrokerStateInfo) -> None:
        try:
            # The thread stops before its channel closes, so the channel is never used by two threads.
            broker_state.request_send_thread.shutdown()
            broker_state.channel.close_all()
            dynamic_config = _dynamic_config(self.config)
            if dynamic_config is not None and broker_state.reconfigurable_channel_builder is not None:
                dynamic_config.remove_reconfigurable(broker_state.reconfigurable_channel_builder)
            _clear(broker_state.message_queue)
            self.remove_metric(QUEUE_SIZE_METRIC_NAME, _broker_metric_tags(broker_state.broker_node.id))
            self.remove_metric(
                REQUEST_RATE_AND_QUEUE_TIME_METRIC_NAME, _broker_metric_tags(broker_state.broker_node.id)
            )
            self.broker_state_info.pop(broker_state.broker_node.id, None)
        except Exception as e:
            self.error("Error while removing broker by the controller", e)

    def _start_request_send_thread(self, broker_id: int) -> None:
        request_thread = self.broker_state_info[broker_id].request_send_thread
        if not request_thread.is_alive() and not request_thread.is_shutdown_initiated:
            try:
                request_thread.start()
            except RuntimeError:
                pass  # already started and finished


QUEUE_SIZE_METRIC_NAME = "QueueSize"
REQUEST_RATE_AND_QUEUE_TIME_METRIC_NAME = "RequestRateAndQueueTimeMs"


def _broker_metric_tags(broker_id: int) -> dict[str, str]:
    return {"broker-id": str(broker_id)}


def _clear(q: queue.Queue[Any]) -> None:
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            return


class RequestSendThread(ShutdownableThread):
    """Sends the queued requests for one broker, one at a time, retrying each until it is answered."""

    logger_name = "kafka.controller.RequestSendThread"

    def __init__(
        self,
        controller_id: int,
        controller_context: ControllerContext,
        queue_: queue.Queue[QueueItem],
        channel: ControllerBrokerChannel,
        broker_node: Node,
        config: KafkaConfig,
        time: Time,
        state_change_logger: StateChangeLogger,
        name: str,
        request_rate_and_queue_time_metrics: Timer | None = None,
    ) -> None:
        super().__init__(name)
        self.request_rate_and_queue_time_metrics = request_rate_and_queue_time_metrics
        self.controller_id = controller_id
        self.controller_context = controller_context
        self.queue = queue_
        self.channel = channel
        self.broker_node = broker_node
        self.config = config
        self.time = time
        self.state_change_logger = state_change_logger
        self.socket_timeout_ms = config.controller_socket_timeout_ms
        self.log_ident = f"[RequestSendThread controllerId={controller_id}] "

    def _backoff(self) -> None:
        self.pause(0.1)

    def do_work(self) -> None:
        try:
            item = self.queue.get(timeout=_QUEUE_POLL_TIMEOUT_S)
        except queue.Empty:
            return
        if item is _WAKE_UP:
            return
        if self.request_rate_and_queue_time_metrics is not None:
            self.request_rate_and_queue_time_metrics.update(
                self.time.milliseconds() - item.enqueue_time_ms, TimeUnit.MILLISECONDS
            )
        request_builder, callback = item.request, item.callback

        header: RequestHeader | None = None
        response: AbstractResponse | None = None
        try:
            is_send_successful = False
            # A broker that stays down is eventually removed by the controller's broker-change handling, which
            # shuts this thread down; until then the request is retried.
            while self.is_running and not is_send_successful:
                try:
                    if not self._broker_ready():
                        is_send_successful = False
                        self._backoff()
                    else:
                        header, response = self.channel.send_and_receive(request_builder)
                        is_send_successful = True
                except Exception as e:
                    if not self.is_running:
                        break
                    self.warn(
                        f"Controller {self.controller_id} epoch {self.controller_context.epoch} fails to send "
                        f"request {request_builder} to broker {self.broker_node}. Reconnecting to broker.",
                        e,
                    )
                    self.channel.close()
                    is_send_successful = False
                    self._backoff()
            if header is not None and response is not None:
                api = header.api_key
                if api not in (ApiKeys.LEADER_AND_ISR, ApiKeys.STOP_REPLICA, ApiKeys.UPDATE_METADATA):
                    raise KafkaException(f"Unexpected apiKey received: {item.api_key}")
                state_change_log = self.state_change_logger.with_controller_epoch(self.controller_context.epoch)
                if state_change_log.is_trace_enabled():
                    state_change_log.trace(
                        f"Received response {response} for request {api.name} with correlation id "
                        f"{header.correlation_id} sent to broker {self.broker_node}"
                    )
                if callback is not None:
                    callback(response)
        except Exception as e:
            self.error(f"Controller {self.controller_id} fails to send a request to broker {self.broker_node}", e)
            # After any socket error the connection cannot be trusted; it is opened again for the next request.
            self.channel.close()

    def _broker_ready(self) -> bool:
        try:
            if not self.channel.is_ready():
                self.channel.connect(self.socket_timeout_ms)
                self.info(
                    f"Controller {self.controller_id} connected to {self.broker_node} for sending state change requests"
                )
            return True
        except Exception as e:
            if self.is_running:
                self.warn(
                    f"Controller {self.controller_id}'s connection to broker {self.broker_node} was unsuccessful", e
                )
            self.channel.close()
            return False

    def initiate_shutdown(self) -> bool:
        if super().initiate_shutdown():
            self.channel.initiate_close()
            self.queue.put(_WAKE_UP)
            return True
        return False


# -- batching state changes into requests -------------------------------------------------------------------------


def _events() -> Any:
    # The response events are defined with the controller, which imports this module.
    from kafka.controller import kafka_controller

    return kafka_controller


class AbstractControllerBrokerRequestBatch(Logging, ABC):
    """Collects the control requests of one state change, then sends them (see the module docstring)."""

    logger_name = "kafka.controller.ControllerBrokerRequestBatch"

    def __init__(
        self, config: KafkaConfig, controller_context: ControllerContext, state_change_logger: StateChangeLogger
    ):
        self.config = config
        self.controller_context = controller_context
        self.state_change_logger = state_change_logger
        self.controller_id: int = config.broker_id
        self.leader_and_isr_request_map: dict[int, dict[TopicPartition, Any]] = {}
        self.stop_replica_request_map: dict[int, dict[TopicPartition, Any]] = {}
        self.update_metadata_request_broker_set: set[int] = set()
        self.update_metadata_request_partition_info_map: dict[TopicPartition, Any] = {}

    @abstractmethod
    def send_event(self, event: ControllerEvent) -> None:
        """Puts a controller event on the controller's queue (a response callback's way back)."""

    @abstractmethod
    def send_request(self, broker_id: int, request: Builder[Any], callback: ResponseCallback | None = None) -> None:
        """Queues `request` for `broker_id`'s send thread; `callback` gets the response."""

    def new_batch(self) -> None:
        """Checks that the previous batch was sent; RuntimeError (Java: IllegalStateException) if not."""
        if self.leader_and_isr_request_map:
            raise RuntimeError(
                "Controller to broker state change requests batch is not empty while creating a new one. Some "
                f"LeaderAndIsr state changes {self.leader_and_isr_request_map} might be lost "
            )
        if self.stop_replica_request_map:
            raise RuntimeError(
                "Controller to broker state change requests batch is not empty while creating a new one. Some "
                f"StopReplica state changes {self.stop_replica_request_map} might be lost "
            )
        if self.update_metadata_request_broker_set:
            raise RuntimeError(
                "Controller to broker state change requests batch is not empty while creating a new one. Some "
                f"UpdateMetadata state changes to brokers {self.update_metadata_request_broker_set} with partition "
                f"info {self.update_metadata_request_partition_info_map} might be lost "
            )

    def clear(self) -> None:
        self.leader_and_isr_request_map.clear()
        self.stop_replica_request_map.clear()
        self.update_metadata_request_broker_set.clear()
        self.update_metadata_request_partition_info_map.clear()

    def add_leader_and_isr_request_for_brokers(
        self,
        broker_ids: Iterable[int],
        topic_partition: TopicPartition,
        leader_isr_and_controller_epoch: LeaderIsrAndControllerEpoch,
        replica_assignment: ReplicaAssignment,
        is_new: bool,
    ) -> None:
        leader_and_isr = leader_isr_and_controller_epoch.leader_and_isr
        for broker_id in broker_ids:
            if broker_id < 0:
                continue
            result = self.leader_and_isr_request_map.setdefault(broker_id, {})
            existing = result.get(topic_partition)
            already_new = existing is not None and existing.is_new
            result[topic_partition] = LeaderAndIsrRequestData.LeaderAndIsrPartitionState(
                topic_name=topic_partition.topic,
                partition_index=topic_partition.partition,
                controller_epoch=leader_isr_and_controller_epoch.controller_epoch,
                leader=leader_and_isr.leader,
                leader_epoch=leader_and_isr.leader_epoch,
                isr=list(leader_and_isr.isr),
                partition_epoch=leader_and_isr.zk_version,  # Kafka 2.8's zkVersion field, renamed in 3.x
                replicas=list(replica_assignment.replicas),
                adding_replicas=list(replica_assignment.adding_replicas),
                removing_replicas=list(replica_assignment.removing_replicas),
                is_new=is_new or already_new,
            )
        self.add_update_metadata_request_for_brokers(
            self.controller_context.live_or_shutting_down_broker_ids, {topic_partition}
        )

    def add_stop_replica_request_for_brokers(
        self, broker_ids: Iterable[int], topic_partition: TopicPartition, delete_partition: bool
    ) -> None:
        # Partitions of a topic being deleted get the sentinel epoch -2, whatever their current epoch.
        if self.controller_context.is_topic_queued_up_for_deletion(topic_partition.topic):
            leader_epoch = LeaderAndIsr.EPOCH_DURING_DELETE
        else:
            info = self.controller_context.partition_leadership_info(topic_partition)
            leader_epoch = LeaderAndIsr.NO_EPOCH if info is None else info.leader_and_isr.leader_epoch
        for broker_id in broker_ids:
            if broker_id < 0:
                continue
            result = self.stop_replica_request_map.setdefault(broker_id, {})
            existing = result.get(topic_partition)
            already_delete = existing is not None and existing.delete_partition
            result[topic_partition] = StopReplicaRequestData.StopReplicaPartitionState(
                partition_index=topic_partition.partition,
                leader_epoch=leader_epoch,
                delete_partition=already_delete or delete_partition,
            )

    def add_update_metadata_request_for_brokers(
        self, broker_ids: Iterable[int], partitions: Iterable[TopicPartition]
    ) -> None:
        """UpdateMetadata for `partitions` (partitions of topics being deleted get leader -2) to `broker_ids`."""
        self.update_metadata_request_broker_set.update(b for b in broker_ids if b >= 0)
        for partition in partitions:
            self._update_metadata_request_partition_info(
                partition, partition.topic in self.controller_context.topics_to_be_deleted
            )

    def _update_metadata_request_partition_info(self, partition: TopicPartition, being_deleted: bool) -> None:
        ctx = self.controller_context
        info = ctx.partition_leadership_info(partition)
        if info is None:
            self.info(f"Leader not yet assigned for partition {partition}. Skip sending UpdateMetadataRequest.")
            return
        replicas = ctx.partition_replica_assignment(partition)
        offline_replicas = [r for r in replicas if not ctx.is_replica_online(r, partition)]
        # A topic being deleted is announced with leader -2.
        leader_and_isr = LeaderAndIsr.during_delete(info.leader_and_isr.isr) if being_deleted else info.leader_and_isr
        self.update_metadata_request_partition_info_map[partition] = (
            UpdateMetadataRequestData.UpdateMetadataPartitionState(
                topic_name=partition.topic,
                partition_index=partition.partition,
                controller_epoch=info.controller_epoch,
                leader=leader_and_isr.leader,
                leader_epoch=leader_and_isr.leader_epoch,
                isr=list(leader_and_isr.isr),
                zk_version=leader_and_isr.zk_version,
                replicas=list(replicas),
                offline_replicas=offline_replicas,
            )
        )

    def _send_leader_and_isr_request(self, controller_epoch: int, state_change_log: StateChangeLogger) -> None:
        version = leader_and_isr_request_version(self.config)
        ctx = self.controller_context
        for broker, partition_states in self.leader_and_isr_request_map.items():
            if broker not in ctx.live_or_shutting_down_broker_ids:
                continue
            leader_ids: set[int] = set()
            num_become_leaders = 0
            for topic_partition, state in partition_states.items():
                leader_ids.add(state.leader)
                if broker == state.leader:
                    num_become_leaders += 1
                    type_of_request = "become-leader"
                else:
                    type_of_request = "become-follower"
                if state_change_log.is_trace_enabled():
                    state_change_log.trace(
                        f"Sending {type_of_request} LeaderAndIsr request {state} to broker {broker} for partition "
                        f"{topic_partition}"
                    )
            state_change_log.info(
                f"Sending LeaderAndIsr request to broker {broker} with {num_become_leaders} become-leader and "
                f"{len(partition_states) - num_become_leaders} become-follower partitions"
            )
            leaders = [
                b.node(self.config.inter_broker_listener_name)
                for b in ctx.live_or_shutting_down_brokers
                if b.id in leader_ids
            ]
            broker_epoch = ctx.live_broker_id_and_epochs[broker]
            topic_ids = {tp.topic: ctx.topic_ids.get(tp.topic, ZERO_UUID) for tp in partition_states}
            builder = LeaderAndIsrRequestBuilder(
                version,
                self.controller_id,
                controller_epoch,
                broker_epoch,
                list(partition_states.values()),
                topic_ids,
                leaders,
            )
            self.send_request(broker, builder, self._leader_and_isr_callback(broker))
        self.leader_and_isr_request_map.clear()

    def _leader_and_isr_callback(self, broker: int) -> ResponseCallback:
        def callback(r: AbstractResponse) -> None:
            assert isinstance(r, LeaderAndIsrResponse)
            self.send_event(_events().LeaderAndIsrResponseReceived(r, broker))

        return callback

    def _update_metadata_callback(self, broker: int) -> ResponseCallback:
        def callback(r: AbstractResponse) -> None:
            assert isinstance(r, UpdateMetadataResponse)
            self.send_event(_events().UpdateMetadataResponseReceived(r, broker))

        return callback

    def _send_update_metadata_requests(self, controller_epoch: int, state_change_log: StateChangeLogger) -> None:
        state_change_log.info(
            f"Sending UpdateMetadata request to brokers {_set_str(self.update_metadata_request_broker_set)} "
            f"for {len(self.update_metadata_request_partition_info_map)} partitions"
        )
        partition_states = list(self.update_metadata_request_partition_info_map.values())
        version = update_metadata_request_version(self.config)
        ctx = self.controller_context

        live_brokers: list[Any] = []
        for broker in ctx.live_or_shutting_down_brokers:
            if version == 0:
                # Version 0 carries a single PLAINTEXT host and port.
                protocol = SecurityProtocol.PLAINTEXT
                listener_name = ListenerName.for_security_protocol(protocol)
                node = broker.node(listener_name)
                endpoints = [
                    UpdateMetadataRequestData.UpdateMetadataEndpoint(
                        host=node.host or "",
                        port=node.port,
                        security_protocol=protocol.id,
                        listener=listener_name.value,
                    )
                ]
            else:
                endpoints = [
                    UpdateMetadataRequestData.UpdateMetadataEndpoint(
                        host=ep.host or "",
                        port=ep.port,
                        security_protocol=ep.security_protocol.id,
                        listener=ep.listener_name.value,
                    )
                    for ep in broker.end_points
                ]
            live_brokers.append(
                UpdateMetadataRequestData.UpdateMetadataBroker(id=broker.id, endpoints=endpoints, rack=broker.rack)
            )

        topic_ids = {
            s.topic_name: ctx.topic_ids[s.topic_name] for s in partition_states if s.topic_name in ctx.topic_ids
        }
        for broker_id in self.update_metadata_request_broker_set & ctx.live_or_shutting_down_broker_ids:
            broker_epoch = ctx.live_broker_id_and_epochs[broker_id]
            builder = UpdateMetadataRequestBuilder(
                version, self.controller_id, controller_epoch, broker_epoch, partition_states, live_brokers, topic_ids
            )
            self.send_request(broker_id, builder, self._update_metadata_callback(broker_id))
        self.update_metadata_request_broker_set.clear()
        self.update_metadata_request_partition_info_map.clear()

    def _send_stop_replica_requests(self, controller_epoch: int, state_change_log: StateChangeLogger) -> None:
        trace_enabled = state_change_log.is_trace_enabled()
        version = stop_replica_request_version(self.config)
        ctx = self.controller_context

        def response_callback(
            broker_id: int, is_partition_deleted: Callable[[TopicPartition], bool]
        ) -> ResponseCallback:
            def callback(response: AbstractResponse) -> None:
                assert isinstance(response, StopReplicaResponse)
                partition_errors_for_deleting_topics: dict[TopicPartition, Errors] = {}
                for pe in response.partition_errors():
                    tp = TopicPartition(pe.topic_name, pe.partition_index)
                    if ctx.is_topic_deletion_in_progress(pe.topic_name) and is_partition_deleted(tp):
                        partition_errors_for_deleting_topics[tp] = Errors.for_code(pe.error_code)
                if partition_errors_for_deleting_topics:
                    self.send_event(
                        _events().TopicDeletionStopReplicaResponseReceived(
                            broker_id, response.error(), partition_errors_for_deleting_topics
                        )
                    )

            return callback

        for broker_id, partition_states in self.stop_replica_request_map.items():
            if broker_id not in ctx.live_or_shutting_down_broker_ids:
                continue
            if trace_enabled:
                for topic_partition, partition_state in partition_states.items():
                    state_change_log.trace(
                        f"Sending StopReplica request {partition_state} to broker {broker_id} for partition "
                        f"{topic_partition}"
                    )
            broker_epoch = ctx.live_broker_id_and_epochs[broker_id]
            if version >= 3:
                topic_states: dict[str, Any] = {}
                for topic_partition, partition_state in partition_states.items():
                    topic_state = topic_states.get(topic_partition.topic)
                    if topic_state is None:
                        topic_state = StopReplicaRequestData.StopReplicaTopicState(topic_name=topic_partition.topic)
                        topic_states[topic_partition.topic] = topic_state
                    topic_state.partition_states.append(partition_state)
                state_change_log.info(
                    f"Sending StopReplica request for {len(partition_states)} replicas to broker {broker_id}"
                )
                builder = StopReplicaRequestBuilder(
                    version, self.controller_id, controller_epoch, broker_epoch, False, list(topic_states.values())
                )
                self.send_request(broker_id, builder, response_callback(broker_id, _deleted_in(partition_states)))
            else:
                num_with_delete = 0
                num_without_delete = 0
                with_delete: dict[str, Any] = {}
                without_delete: dict[str, Any] = {}
                for topic_partition, partition_state in partition_states.items():
                    if partition_state.delete_partition:
                        num_with_delete += 1
                        target = with_delete
                    else:
                        num_without_delete += 1
                        target = without_delete
                    topic_state = target.get(topic_partition.topic)
                    if topic_state is None:
                        topic_state = StopReplicaRequestData.StopReplicaTopicState(topic_name=topic_partition.topic)
                        target[topic_partition.topic] = topic_state
                    topic_state.partition_states.append(partition_state)
                if with_delete:
                    state_change_log.info(
                        f"Sending StopReplica request (delete = true) for {num_with_delete} replicas to broker "
                        f"{broker_id}"
                    )
                    builder = StopReplicaRequestBuilder(
                        version, self.controller_id, controller_epoch, broker_epoch, True, list(with_delete.values())
                    )
                    self.send_request(broker_id, builder, response_callback(broker_id, lambda _tp: True))
                if without_delete:
                    state_change_log.info(
                        f"Sending StopReplica request (delete = false) for {num_without_delete} replicas to broker "
                        f"{broker_id}"
                    )
                    builder = StopReplicaRequestBuilder(
                        version,
                        self.controller_id,
                        controller_epoch,
                        broker_epoch,
                        False,
                        list(without_delete.values()),
                    )
                    self.send_request(broker_id, builder)
        self.stop_replica_request_map.clear()

    def send_requests_to_brokers(self, controller_epoch: int) -> None:
        """Queues the collected requests; on failure logs what was left and raises RuntimeError (Java:
        IllegalStateException), which makes the controller resign."""
        try:
            state_change_log = self.state_change_logger.with_controller_epoch(controller_epoch)
            self._send_leader_and_isr_request(controller_epoch, state_change_log)
            self._send_update_metadata_requests(controller_epoch, state_change_log)
            self._send_stop_replica_requests(controller_epoch, state_change_log)
        except Exception as e:
            if self.leader_and_isr_request_map:
                self.error(
                    "Haven't been able to send leader and isr requests, current state of the map is "
                    f"{self.leader_and_isr_request_map}. Exception message: {e}"
                )
            if self.update_metadata_request_broker_set:
                self.error(
                    "Haven't been able to send metadata update requests to brokers "
                    f"{self.update_metadata_request_broker_set}, current state of the partition info is "
                    f"{self.update_metadata_request_partition_info_map}. Exception message: {e}"
                )
            if self.stop_replica_request_map:
                self.error(
                    "Haven't been able to send stop replica requests, current state of the map is "
                    f"{self.stop_replica_request_map}. Exception message: {e}"
                )
            raise RuntimeError(str(e)) from e


def _deleted_in(partition_states: dict[TopicPartition, Any]) -> Callable[[TopicPartition], bool]:
    """Whether a partition was sent with delete_partition=true in a StopReplica request."""
    states = dict(partition_states)

    def is_partition_deleted(tp: TopicPartition) -> bool:
        state = states.get(tp)
        return state is not None and bool(state.delete_partition)

    return is_partition_deleted


def _set_str(values: Iterable[int]) -> str:
    """Scala's Set toString: `Set(1, 2)`."""
    return f"Set({', '.join(str(v) for v in sorted(values))})"


class ControllerBrokerRequestBatch(AbstractControllerBrokerRequestBatch):
    """The batch the controller uses: requests go to the channel manager, responses to the event queue."""

    def __init__(
        self,
        config: KafkaConfig,
        controller_channel_manager: ControllerChannelManager,
        controller_event_manager: ControllerEventManager,
        controller_context: ControllerContext,
        state_change_logger: StateChangeLogger,
    ) -> None:
        super().__init__(config, controller_context, state_change_logger)
        self.controller_channel_manager = controller_channel_manager
        self.controller_event_manager = controller_event_manager

    def send_event(self, event: ControllerEvent) -> None:
        self.controller_event_manager.put(event)

    def send_request(self, broker_id: int, request: Builder[Any], callback: ResponseCallback | None = None) -> None:
        self.controller_channel_manager.send_request(broker_id, request, callback)
