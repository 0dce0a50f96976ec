"""Port of core/src/main/scala/kafka/server/ReplicaFetcherBlockingSend.scala (Kafka 2.8).

A replica fetcher's connection to its source broker: a NetworkClient of its own (over the clients' Selector, on
the inter-broker listener, with `replica.socket.receive.buffer.bytes`, one request in flight, no version
discovery: the fetcher picks its versions from inter.broker.protocol.version), used one request at a time. A
request waits at most `replica.socket.timeout.ms` for the connection; any failure closes the connection, and the
next request connects again.

# PORT: the Selector writes a request in send() (write_on_send), not in the next poll, and a ready connection is
# used without Kafka's poll before it: a round trip is one send and one poll (one epoll_wait), not three polls. A
# connection whose SASL re-authentication (KIP-368) is due is written in the poll, which begins it (the Selector).

# PORT: no selector metrics.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from kafka.clients import network_client_utils
from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.clients.network_client import NetworkClient
from kafka.cluster.broker import BrokerEndPoint
from kafka.common.network.channel_builders import ChannelBuilders
from kafka.common.network.network_receive import ReceiveBufferPool
from kafka.common.network.selectable import Selectable
from kafka.common.network.selector import Selector
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from kafka.server.kafka_config import KafkaConfig


class BlockingSend(ABC):
    """Sends one request and waits for its response (a fetcher's view of its leader)."""

    @abstractmethod
    def send_request(self, request_builder: Builder[Any]) -> ClientResponse: ...

    @abstractmethod
    def initiate_close(self) -> None:
        """Wakes a request in progress and refuses further ones; callable from any thread."""

    @abstractmethod
    def close(self) -> None: ...


class ReplicaFetcherBlockingSend(BlockingSend):
    def __init__(
        self,
        source_broker: BrokerEndPoint,
        broker_config: KafkaConfig,
        metrics: Any,
        time: Time,
        fetcher_id: int,
        client_id: str,
        log_context: LogContext,
    ) -> None:
        del metrics  # PORT: no selector metrics yet
        self._source_broker = source_broker
        self._source_node = Node(source_broker.id, source_broker.host, source_broker.port)
        self._socket_timeout: int = broker_config.replica_socket_timeout_ms
        self._time = time
        self._fetcher_id = fetcher_id
        channel_builder = ChannelBuilders.inter_broker_client_channel_builder(broker_config, time, log_context)
        # A TLS builder takes the inter-broker listener's new truststore or keystore while the fetcher runs.
        self._reconfigurable_channel_builder: tuple[Any, Any] | None = None
        if hasattr(channel_builder, "reconfigure"):
            from kafka.server.config_handler import broker_dynamic_config

            dynamic_config = broker_dynamic_config(broker_config)
            if dynamic_config is not None:
                dynamic_config.add_reconfigurable(channel_builder)
                self._reconfigurable_channel_builder = (dynamic_config, channel_builder)
        # PORT: the responses are received into the clients' ReceiveBufferPool (Kafka: MemoryPool.NONE, a new buffer
        # each): a fetch response of up to replica.fetch.response.max.bytes goes into a buffer an earlier one used
        # once nothing refers to it (its records are in the log by then), not into a new zero-filled bytearray.
        selector = Selector(
            broker_config.connections_max_idle_ms,
            time,
            log_context,
            channel_builder=channel_builder,
            memory_pool=ReceiveBufferPool(
                low_water_mark=broker_config.replica_socket_receive_buffer_bytes != Selectable.USE_DEFAULT_BUFFER_SIZE
            ),
            write_on_send=True,
        )
        self._network_client = NetworkClient(
            selector,
            ManualMetadataUpdater(),
            client_id,
            1,
            0,
            0,
            Selectable.USE_DEFAULT_BUFFER_SIZE,
            broker_config.replica_socket_receive_buffer_bytes,
            broker_config.request_timeout_ms,
            broker_config.connection_setup_timeout_ms,
            broker_config.connection_setup_timeout_max_ms,
            time,
            False,
            ApiVersions(),
            log_context,
        )

    def send_request(self, request_builder: Builder[Any]) -> ClientResponse:
        """Sends at the builder's latest allowed version; OSError or TimeoutError on a lost or failed connection."""
        client = self._network_client
        node_id = str(self._source_broker.id)
        try:
            # PORT: Kafka's awaitReady polls once before it looks; a ready connection is used without that poll
            # (one of a round trip's two), so a connection the leader closed meanwhile fails the request instead.
            ready = client.is_ready(self._source_node, self._time.milliseconds())
            if not ready and not network_client_utils.await_ready(
                client, self._source_node, self._time, self._socket_timeout
            ):
                raise TimeoutError(f"Failed to connect within {self._socket_timeout} ms")
            client_request = client.new_client_request(node_id, request_builder, self._time.milliseconds(), True)
            return network_client_utils.send_and_receive(client, client_request, self._time)
        except BaseException:
            client.close(node_id)
            raise

    def initiate_close(self) -> None:
        if self._reconfigurable_channel_builder is not None:
            dynamic_config, channel_builder = self._reconfigurable_channel_builder
            dynamic_config.remove_reconfigurable(channel_builder)
        self._network_client.initiate_close()

    def close(self) -> None:
        self._network_client.close()

    def __str__(self) -> str:
        return f"ReplicaFetcherBlockingSend(sourceBroker={self._source_broker}, fetcherId={self._fetcher_id})"
