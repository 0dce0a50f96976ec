"""Port of core/src/main/scala/kafka/server/BrokerToControllerChannelManager.scala (Kafka 2.8).

A broker's channel to the active controller, for the requests a broker sends the controller on its own (AlterIsr).
One `BrokerToControllerRequestThread`, `broker-{brokerId}-to-controller-send-thread`, drives a NetworkClient (the
clients' network layer) whose only node is the controller: it learns which broker that is from the broker's
metadata cache (`MetadataCacheControllerNodeProvider`, the controller id of the last UpdateMetadata), sends the
queued requests one at a time, and puts a request back at the head of the queue when the connection drops or the
broker it reached answers NOT_CONTROLLER, forgetting the controller so that it is looked up again.

# PORT: the request thread extends InterBrokerSendThread, which lives in kafka.server.inter_broker_send_thread
# (Kafka's is in core's kafka.common package; here kafka.common is the clients' package). The Raft controller node
# provider (KRaft) and the channel's metrics are not ported.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.kafka_client import KafkaClient
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.clients.network_client import NetworkClient
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.clients.request_completion_handler import RequestCompletionCallback, RequestCompletionHandler
from kafka.common.network.channel_builders import ChannelBuilders
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.selectable import Selectable
from kafka.common.network.selector import Selector
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import Builder
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from kafka.server.inter_broker_send_thread import InterBrokerSendThread, RequestAndCompletionHandler
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.common.network.listener_name import ListenerName
    from kafka.common.security.auth.security_protocol import SecurityProtocol
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.metadata_cache import MetadataCache

# Java's Long.MaxValue: "no bound" for poll timeouts and retry timeouts.
_LONG_MAX = 2**63 - 1
# How long the request thread waits for the metadata cache to name a controller before it looks again.
_NO_CONTROLLER_BACKOFF_MS = 100


# -- finding the controller -----------------------------------------------------------------------------------------


class ControllerNodeProvider(ABC):
    """Where the active controller is, and how to reach it."""

    @abstractmethod
    def get(self) -> Node | None:
        """The controller's node on the channel's listener, or None while it is not known."""

    @property
    @abstractmethod
    def listener_name(self) -> ListenerName: ...

    @property
    @abstractmethod
    def security_protocol(self) -> SecurityProtocol: ...

    @property
    @abstractmethod
    def sasl_mechanism(self) -> str: ...


class MetadataCacheControllerNodeProvider(ControllerNodeProvider):
    """The controller as the broker's metadata cache knows it (ZooKeeper mode)."""

    def __init__(
        self,
        metadata_cache: MetadataCache,
        listener_name: ListenerName,
        security_protocol: SecurityProtocol,
        sasl_mechanism: str,
    ) -> None:
        self.metadata_cache = metadata_cache
        self._listener_name = listener_name
        self._security_protocol = security_protocol
        self._sasl_mechanism = sasl_mechanism

    @classmethod
    def apply(cls, config: KafkaConfig, metadata_cache: MetadataCache) -> MetadataCacheControllerNodeProvider:
        """The controller reached on the control-plane listener if there is one, else the inter-broker listener."""
        control_plane = config.control_plane_listener_name
        listener_name = control_plane if control_plane is not None else config.inter_broker_listener_name
        control_plane_protocol = config.control_plane_security_protocol
        security_protocol = (
            control_plane_protocol if control_plane_protocol is not None else config.inter_broker_security_protocol
        )
        return cls(metadata_cache, listener_name, security_protocol, config.sasl_mechanism_inter_broker_protocol)

    @property
    def listener_name(self) -> ListenerName:
        return self._listener_name

    @property
    def security_protocol(self) -> SecurityProtocol:
        return self._security_protocol

    @property
    def sasl_mechanism(self) -> str:
        return self._sasl_mechanism

    def get(self) -> Node | None:
        controller_id = self.metadata_cache.get_controller_id()
        if controller_id is None:
            return None
        return self.metadata_cache.get_alive_broker_node(controller_id, self._listener_name)


# -- the channel manager -------------------------------------------------------------------------------------------


class ControllerRequestCompletionHandler(RequestCompletionHandler):
    """A completion handler that is also told when a request waited on the channel past its retry timeout."""

    @abstractmethod
    def on_timeout(self) -> None:
        """The request was given up: the retry timeout passed before it could be answered."""


@dataclass(frozen=True, slots=True)
class BrokerToControllerQueueItem:
    created_time_ms: int
    request: Builder[Any]
    callback: ControllerRequestCompletionHandler


class BrokerToControllerChannelManager(ABC):
    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def shutdown(self) -> None: ...

    @abstractmethod
    def controller_api_versions(self) -> NodeApiVersions | None: ...

    @abstractmethod
    def send_request(self, request: Builder[Any], callback: ControllerRequestCompletionHandler) -> None:
        """Queues `request` for the controller; `callback` gets the answer (or the disconnect/version error)."""


class BrokerToControllerChannelManagerImpl(BrokerToControllerChannelManager, Logging):
    """The channel: a NetworkClient with at most one request in flight (so that the controller answers in order),
    driven by one request thread. Requests wait for an answer however long it takes, up to `retry_timeout_ms`."""

    logger_name = "kafka.server.BrokerToControllerChannelManagerImpl"

    def __init__(
        self,
        controller_node_provider: ControllerNodeProvider,
        time: Time,
        config: KafkaConfig,
        channel_name: str,
        thread_name_prefix: str | None,
        retry_timeout_ms: int,
    ) -> None:
        self.controller_node_provider = controller_node_provider
        self.time = time
        self.config = config
        self.channel_name = channel_name
        self.thread_name_prefix = thread_name_prefix
        self.retry_timeout_ms = retry_timeout_ms
        self._log_context = LogContext(f"[broker-{config.broker_id}-to-controller] ")
        self._manual_metadata_updater = ManualMetadataUpdater()
        self._api_versions = ApiVersions()
        self._current_node_api_versions = NodeApiVersions.create()
        self.request_thread = self.new_request_thread()

    def start(self) -> None:
        self.request_thread.start()

    def shutdown(self) -> None:
        self.request_thread.shutdown()
        self.info(f"Broker to controller channel manager for {self.channel_name} shutdown")

    def new_request_thread(self) -> BrokerToControllerRequestThread:
        config = self.config
        provider = self.controller_node_provider
        selector = Selector(
            Selector.NO_IDLE_TIMEOUT_MS,
            self.time,
            self._log_context,
            max_receive_size=NetworkReceive.UNLIMITED,
            # The provider's listener and protocol (its SASL mechanism is the inter-broker one).
            channel_builder=ChannelBuilders.inter_broker_client_channel_builder(
                config, self.time, self._log_context, provider.listener_name, provider.security_protocol
            ),
        )
        network_client = NetworkClient(
            selector,
            self._manual_metadata_updater,
            str(config.broker_id),
            1,
            50,
            50,
            Selectable.USE_DEFAULT_BUFFER_SIZE,
            Selectable.USE_DEFAULT_BUFFER_SIZE,
            config.request_timeout_ms,
            config.connection_setup_timeout_ms,
            config.connection_setup_timeout_max_ms,
            self.time,
            True,
            self._api_versions,
            self._log_context,
        )
        base_name = f"broker-{config.broker_id}-to-controller-send-thread"
        thread_name = base_name if self.thread_name_prefix is None else f"{self.thread_name_prefix}:{base_name}"
        return BrokerToControllerRequestThread(
            network_client,
            self._manual_metadata_updater,
            self.controller_node_provider,
            config,
            self.time,
            thread_name,
            self.retry_timeout_ms,
        )

    def send_request(self, request: Builder[Any], callback: ControllerRequestCompletionHandler) -> None:
        self.request_thread.enqueue(BrokerToControllerQueueItem(self.time.milliseconds(), request, callback))

    def controller_api_versions(self) -> NodeApiVersions | None:
        active_controller = self.request_thread.active_controller_address()
        if active_controller is None:
            return None
        if active_controller.id == self.config.broker_id:
            return self._current_node_api_versions
        return self._api_versions.get(active_controller.id_string)


# -- the request thread ----------------------------------------------------------------------------------------------


class BrokerToControllerRequestThread(InterBrokerSendThread):
    """Sends the queued requests to the active controller, looking it up in the metadata cache when it is not known
    (at start, after a disconnect, after a NOT_CONTROLLER answer)."""

    def __init__(
        self,
        network_client: KafkaClient,
        metadata_updater: ManualMetadataUpdater,
        controller_node_provider: ControllerNodeProvider,
        config: KafkaConfig,
        time: Time,
        thread_name: str,
        retry_timeout_ms: int,
    ) -> None:
        super().__init__(thread_name, network_client, config.controller_socket_timeout_ms, time, is_interruptible=False)
        self.metadata_updater = metadata_updater
        self.controller_node_provider = controller_node_provider
        self.config = config
        self.retry_timeout_ms = retry_timeout_ms
        # Java's LinkedBlockingDeque: items come in from any thread and are taken (or put back first) by this one.
        self._request_queue: deque[BrokerToControllerQueueItem] = deque()
        self._queue_lock = threading.Lock()
        self._active_controller: Node | None = None

    def active_controller_address(self) -> Node | None:
        return self._active_controller

    def _update_controller_address(self, new_active_controller: Node | None) -> None:
        self._active_controller = new_active_controller

    def enqueue(self, request: BrokerToControllerQueueItem) -> None:
        with self._queue_lock:
            self._request_queue.append(request)
        if self.active_controller_address() is not None:
            self.wakeup()

    @property
    def queue_size(self) -> int:
        with self._queue_lock:
            return len(self._request_queue)

    def _put_first(self, request: BrokerToControllerQueueItem) -> None:
        with self._queue_lock:
            self._request_queue.appendleft(request)

    def generate_requests(self) -> Iterable[RequestAndCompletionHandler]:
        """The first queued request, to the active controller if one is known; requests past their retry timeout
        are dropped on the way (their handlers told)."""
        current_time_ms = self.time.milliseconds()
        timed_out: list[BrokerToControllerQueueItem] = []
        generated: list[RequestAndCompletionHandler] = []
        with self._queue_lock:
            for request in list(self._request_queue):
                if current_time_ms - request.created_time_ms >= self.retry_timeout_ms:
                    self._request_queue.remove(request)
                    timed_out.append(request)
                    continue
                controller_address = self.active_controller_address()
                if controller_address is not None:
                    self._request_queue.remove(request)
                    generated.append(
                        RequestAndCompletionHandler(
                            self.time.milliseconds(),
                            controller_address,
                            request.request,
                            self._response_handler(request),
                        )
                    )
                    break
        for request in timed_out:
            request.callback.on_timeout()
        return generated

    def _response_handler(self, queue_item: BrokerToControllerQueueItem) -> RequestCompletionCallback:
        return lambda response: self.handle_response(queue_item, response)

    def handle_response(self, queue_item: BrokerToControllerQueueItem, response: ClientResponse) -> None:
        if response.authentication_exception is not None:
            self.error(
                f"Request {queue_item.request} failed due to authentication error with controller",
                response.authentication_exception,
            )
            queue_item.callback.on_complete(response)
        elif response.version_mismatch is not None:
            self.error(
                f"Request {queue_item.request} failed due to unsupported version error", response.version_mismatch
            )
            queue_item.callback.on_complete(response)
        elif response.was_disconnected:
            self._update_controller_address(None)
            self._put_first(queue_item)
        elif response.response_body is not None and Errors.NOT_CONTROLLER in response.response_body.error_counts():
            # Forget this controller; the metadata cache names the new one (looked up in do_work).
            controller_address = self.active_controller_address()
            if controller_address is not None:
                self.network_client.disconnect(controller_address.id_string)
                self._update_controller_address(None)
            self._put_first(queue_item)
        else:
            queue_item.callback.on_complete(response)

    def do_work(self) -> None:
        if self.active_controller_address() is not None:
            self.poll_once(_LONG_MAX)
        else:
            self.debug("Controller isn't cached, looking for local metadata changes")
            controller_node = self.controller_node_provider.get()
            if controller_node is not None:
                self.info(f"Recorded new controller, from now on will use broker {controller_node}")
                self._update_controller_address(controller_node)
                self.metadata_updater.set_nodes([controller_node])
            else:
                # Back off rather than spin while no controller is known.
                self.debug("No controller defined in metadata cache, retrying after backoff")
                self.poll_once(_NO_CONTROLLER_BACKOFF_MS)
