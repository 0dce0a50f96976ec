"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/Fetcher.java (Kafka 3.7).

The classic consumer's fetcher: sends the fetch requests AbstractFetch prepares through the
ConsumerNetworkClient, hands the responses to the FetchBuffer, collects records for `poll`, and on close
tells the brokers to forget its fetch sessions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from typing import Generic, TypeVar

from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.consumer.internals.abstract_fetch import AbstractFetch
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.deserializers import Deserializers
from kafka.clients.consumer.internals.fetch import Fetch
from kafka.clients.consumer.internals.fetch_buffer import FetchBuffer
from kafka.clients.consumer.internals.fetch_collector import FetchCollector
from kafka.clients.consumer.internals.fetch_config import FetchConfig
from kafka.clients.consumer.internals.fetch_metrics_manager import FetchMetricsManager
from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns
from kafka.clients.consumer.internals.request_future import RequestFuture
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.fetch_session_handler import FetchRequestData
from kafka.common.node import Node
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time, Timer

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["Fetcher"]


class Fetcher(AbstractFetch, Generic[K, V]):
    """Java's `synchronized` methods hold `self._lock`; response handlers take it too (they may run on the
    heartbeat thread)."""

    def __init__(
        self,
        log_context: LogContext,
        client: ConsumerNetworkClient,
        metadata: ConsumerMetadata,
        subscriptions: SubscriptionState,
        fetch_config: FetchConfig,
        deserializers: Deserializers[K, V],
        time: Time,
        api_versions: ApiVersions,
        metrics_manager: FetchMetricsManager | None = None,
    ) -> None:
        """# PORT: Java takes the FetchMetricsManager before the Time; here it is trailing and optional."""
        super().__init__(
            log_context,
            metadata,
            subscriptions,
            fetch_config,
            FetchBuffer(log_context),
            time,
            api_versions,
            metrics_manager,
        )
        self._fetcher_log = log_context.logger("org.apache.kafka.clients.consumer.internals.Fetcher")
        self._client = client
        self._lock = threading.RLock()
        self._fetch_collector: FetchCollector[K, V] = FetchCollector(
            log_context, metadata, subscriptions, fetch_config, deserializers, time, self.metrics_manager
        )

    def is_unavailable(self, node: Node) -> bool:
        return self._client.is_unavailable(node)

    def maybe_throw_auth_failure(self, node: Node) -> None:
        self._client.maybe_throw_auth_failure(node)

    def clear_buffered_data_for_unassigned_partitions(self, assigned_partitions: Collection[TopicPartition]) -> None:
        self.fetch_buffer.retain_all(set(assigned_partitions))

    def send_fetches(self) -> int:
        """Sends a fetch to every node with fetchable partitions and no fetch in flight; returns how many."""
        with self._lock:
            fetch_requests = self.prepare_fetch_requests()

            def on_success(target: Node, data: FetchRequestData, response: ClientResponse) -> None:
                with self._lock:
                    self.handle_fetch_success(target, data, response)

            def on_failure(target: Node, data: FetchRequestData, error: BaseException) -> None:
                with self._lock:
                    self.handle_fetch_failure(target, data, error)

            self._send_fetches_internal(fetch_requests, on_success, on_failure)
            return len(fetch_requests)

    def maybe_close_fetch_sessions(self, timer: Timer) -> None:
        request_futures = self._send_fetches_internal(
            self.prepare_close_fetch_session_requests(),
            self.handle_close_fetch_session_success,
            self.handle_close_fetch_session_failure,
        )
        # Poll until the requests are answered or the timer expires (so they at least get written).
        while timer.not_expired() and not all(f.is_done() for f in request_futures):
            self._client.poll(timer, None, True)
            timer.update()
        if not all(f.is_done() for f in request_futures):
            # Not blocking the shutdown for these is fine.
            self._fetcher_log.debug(
                f"All requests couldn't be sent in the specific timeout period {timer.timeout_ms()}ms. This may result "
                "in unnecessary fetch sessions at the broker. Consider increasing the timeout passed for "
                "KafkaConsumer.close(Duration timeout)"
            )

    def collect_fetch(self) -> Fetch[K, V]:
        return self._fetch_collector.collect_fetch(self.fetch_buffer)

    def set_columns(self, columns: RecordColumns | None, max_records: int = 0) -> None:
        """# PORT: no Java counterpart: KafkaConsumer.poll_columns' switch (FetchCollector.set_columns)."""
        self._fetch_collector.set_columns(columns, max_records)

    def close_internal(self, timer: Timer) -> None:
        with self._lock:
            # Closing: no wakeups any more.
            self._client.disable_wakeups()
            self.maybe_close_fetch_sessions(timer)
            super().close_internal(timer)

    def _send_fetches_internal(
        self,
        fetch_requests: dict[Node, FetchRequestData],
        success_handler: Callable[[Node, FetchRequestData, ClientResponse], None],
        error_handler: Callable[[Node, FetchRequestData, BaseException], None],
    ) -> list[RequestFuture[ClientResponse]]:
        request_futures: list[RequestFuture[ClientResponse]] = []
        for fetch_target, data in fetch_requests.items():
            request = self.create_fetch_request(fetch_target, data)
            future = self._client.send(fetch_target, request)
            on_success, on_failure = _bind(fetch_target, data, success_handler, error_handler)
            future.add_callbacks(on_success, on_failure)
            request_futures.append(future)
        return request_futures


def _bind(
    target: Node,
    data: FetchRequestData,
    success_handler: Callable[[Node, FetchRequestData, ClientResponse], None],
    error_handler: Callable[[Node, FetchRequestData, BaseException], None],
) -> tuple[Callable[[ClientResponse], None], Callable[[BaseException], None]]:
    """The listener of one request (Java's anonymous RequestFutureListener)."""

    def on_success(response: ClientResponse) -> None:
        success_handler(target, data, response)

    def on_failure(e: BaseException) -> None:
        error_handler(target, data, e)

    return on_success, on_failure
