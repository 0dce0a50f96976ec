"""Port of core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerChannelManager.scala (Kafka 2.8).

How the transaction coordinator ends a transaction on the partitions it touched. Once the coordinator has written
PrepareCommit or PrepareAbort to its log, it hands the transaction here: the partitions are grouped by their
leader (looked up in the metadata cache on the inter-broker listener), and one WriteTxnMarkers request per broker
carries the markers of every transaction queued for that broker. The manager is itself the sender thread,
`TxnMarkerSenderThread-{brokerId}`, an InterBrokerSendThread over its own NetworkClient.

Markers wait in a `TxnMarkerQueue` per destination broker, kept per partition of `__transaction_state` so that the
markers of a coordinator partition that moves away can be dropped at once. A partition whose leader is known but
not reachable on the listener waits in the queue for unknown brokers and is looked up again on the next round; a
partition without any leader (deleted) is dropped from the transaction. When the last partition of a transaction
has its marker, the coordinator's log gets the completing state (CompleteCommit / CompleteAbort) through
`TransactionStateManager.append_transaction_to_log`; an append that finds the log unavailable is retried on the
sender thread's next round.

Lock order: a transaction's metadata lock (`TransactionMetadata.lock`) is taken inside no lock of this module;
`_pending_lock` is held only around the pending-transactions map and never while calling out.

Metrics (kafka.coordinator.transaction:type=TransactionMarkerChannelManager): the UnknownDestinationQueueSize and
LogAppendRetryQueueSize gauges.

# PORT: The Selector takes no metrics. The channel is the inter-broker listener's
# (ChannelBuilders.inter_broker_client_channel_builder). Java's concurrent maps and blocking queues are
# dicts and deques, whose single operations are atomic under the GIL.
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.clients.api_versions import ApiVersions
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.clients.network_client import NetworkClient
from kafka.common.network.channel_builders import ChannelBuilders
from kafka.common.network.network_receive import NetworkReceive
from kafka.common.network.selectable import Selectable
from kafka.common.network.selector import Selector
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.requests.write_txn_markers_request import TxnMarkerEntry, WriteTxnMarkersRequestBuilder
from kafka.common.topic_partition import TopicPartition
from kafka.coordinator.transaction.transaction_marker_request_completion_handler import (
    TransactionMarkerRequestCompletionHandler,
)
from kafka.coordinator.transaction.transaction_metadata import (
    IllegalStateException,
    TransactionMetadata,
    TxnTransitMetadata,
)
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.inter_broker_send_thread import InterBrokerSendThread, RequestAndCompletionHandler
from kafka.server.kafka_config import KAFKA_2_8_IV0
from kafka.utils.core_utils import atomic_get_or_update, scala_set

if TYPE_CHECKING:
    from kafka.clients.kafka_client import KafkaClient
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.utils.log_context import LogContext
    from kafka.common.utils.time import Time
    from kafka.coordinator.transaction.transaction_state_manager import TransactionStateManager
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.metadata_cache import MetadataCache

__all__ = [
    "PendingCompleteTxn",
    "TransactionMarkerChannelManager",
    "TxnIdAndMarkerEntry",
    "TxnMarkerQueue",
]


@dataclass(frozen=True, slots=True)
class TxnIdAndMarkerEntry:
    """A marker to write, with the transactional id it ends."""

    txn_id: str
    txn_marker_entry: TxnMarkerEntry


@dataclass(frozen=True, slots=True)
class PendingCompleteTxn:
    """A transaction whose markers are being written: once they all are, `new_metadata` goes to the log."""

    transactional_id: str
    coordinator_epoch: int
    txn_metadata: TransactionMetadata
    new_metadata: TxnTransitMetadata

    def __str__(self) -> str:
        return (
            f"PendingCompleteTxn(transactionalId={self.transactional_id}, "
            f"coordinatorEpoch={self.coordinator_epoch}, "
            f"txnMetadata={self.txn_metadata}, "
            f"newMetadata={self.new_metadata})"
        )


def _drain_to(out: list[TxnIdAndMarkerEntry], _txn_topic_partition: int, queue: deque[TxnIdAndMarkerEntry]) -> None:
    """Moves everything in `queue` to `out`, oldest first (BlockingQueue.drainTo); the partition is not used."""
    while True:
        try:
            out.append(queue.popleft())
        except IndexError:
            return


class TxnMarkerQueue:
    """The markers waiting for one destination broker, per partition of the transaction log."""

    def __init__(self, destination: Node) -> None:
        # Rewritten when the broker's endpoint changes; read by the sender thread (Kafka: @volatile).
        self.destination = destination
        self._markers_per_txn_topic_partition: dict[int, deque[TxnIdAndMarkerEntry]] = {}

    def remove_markers_for_txn_topic_partition(self, partition: int) -> deque[TxnIdAndMarkerEntry] | None:
        return self._markers_per_txn_topic_partition.pop(partition, None)

    def add_markers(self, txn_topic_partition: int, txn_id_and_marker: TxnIdAndMarkerEntry) -> None:
        queue = atomic_get_or_update(self._markers_per_txn_topic_partition, txn_topic_partition, deque)
        queue.append(txn_id_and_marker)

    def for_each_txn_topic_partition(self, f: Callable[[int, deque[TxnIdAndMarkerEntry]], Any]) -> None:
        """Calls `f` for each transaction log partition that has markers waiting."""
        for partition, queue in list(self._markers_per_txn_topic_partition.items()):
            if queue:
                f(partition, queue)

    def total_num_markers(self, txn_topic_partition: int | None = None) -> int:
        """The markers waiting, for every transaction log partition or for `txn_topic_partition` only.

        # PORT: Kafka overloads totalNumMarkers with and without the partition; here one optional argument."""
        if txn_topic_partition is None:
            return sum(len(queue) for queue in list(self._markers_per_txn_topic_partition.values()))
        queue = self._markers_per_txn_topic_partition.get(txn_topic_partition)
        return 0 if queue is None else len(queue)


class TransactionMarkerChannelManager(InterBrokerSendThread, KafkaMetricsGroup):
    """The coordinator's marker sender: queues markers per leader broker and runs as `TxnMarkerSenderThread-{id}`."""

    logger_name = "kafka.coordinator.transaction.TransactionMarkerChannelManager"

    @classmethod
    def apply(
        cls,
        config: KafkaConfig,
        metrics: Metrics,
        metadata_cache: MetadataCache,
        txn_state_manager: TransactionStateManager,
        time: Time,
        log_context: LogContext,
    ) -> TransactionMarkerChannelManager:
        """The manager with its own NetworkClient to the other brokers on the inter-broker listener.

        # PORT: `metrics` is taken for Kafka's signature; the Selector and the client keep no metrics yet."""
        selector = Selector(
            config.connections_max_idle_ms,
            time,
            log_context,
            max_receive_size=NetworkReceive.UNLIMITED,
            channel_builder=ChannelBuilders.inter_broker_client_channel_builder(config, time, log_context),
        )
        network_client = NetworkClient(
            selector,
            ManualMetadataUpdater(),
            f"broker-{config.broker_id}-txn-marker-sender",
            1,
            50,
            50,
            Selectable.USE_DEFAULT_BUFFER_SIZE,
            config.socket_receive_buffer_bytes,
            config.request_timeout_ms,
            config.connection_setup_timeout_ms,
            config.connection_setup_timeout_max_ms,
            time,
            False,
            ApiVersions(),
            log_context,
        )
        return cls(config, metadata_cache, network_client, txn_state_manager, time)

    def __init__(
        self,
        config: KafkaConfig,
        metadata_cache: MetadataCache,
        network_client: KafkaClient,
        txn_state_manager: TransactionStateManager,
        time: Time,
    ) -> None:
        super().__init__(f"TxnMarkerSenderThread-{config.broker_id}", network_client, config.request_timeout_ms, time)
        self.log_ident = f"[Transaction Marker Channel Manager {config.broker_id}]: "
        self.config = config
        self.metadata_cache = metadata_cache
        self.txn_state_manager = txn_state_manager
        self._inter_broker_listener_name = config.inter_broker_listener_name
        self._markers_queue_per_broker: dict[int, TxnMarkerQueue] = {}
        self._markers_queue_for_unknown_broker = TxnMarkerQueue(Node.no_node())
        # Completions whose log append found the log unavailable; appended again on the sender thread's next round.
        self._txn_log_append_retry_queue: deque[PendingCompleteTxn] = deque()
        # Guards the check-and-remove of `_transactions_with_pending_markers` (ConcurrentHashMap.remove(k, v)).
        self._pending_lock = threading.Lock()
        self._transactions_with_pending_markers: dict[str, PendingCompleteTxn] = {}
        self.write_txn_markers_request_version = 1 if config.inter_broker_protocol_version >= KAFKA_2_8_IV0 else 0
        self.new_gauge("UnknownDestinationQueueSize", self._markers_queue_for_unknown_broker.total_num_markers)
        self.new_gauge("LogAppendRetryQueueSize", lambda: len(self._txn_log_append_retry_queue))

    def shutdown(self) -> None:
        super().shutdown()
        self._markers_queue_per_broker.clear()

    def queue_for_broker(self, broker_id: int) -> TxnMarkerQueue | None:
        """The queue of a destination broker, if markers were ever queued for it (visible for tests)."""
        return self._markers_queue_per_broker.get(broker_id)

    @property
    def queue_for_unknown_broker(self) -> TxnMarkerQueue:
        """The queue of markers whose partition leader has no endpoint yet (visible for tests)."""
        return self._markers_queue_for_unknown_broker

    def add_markers_for_broker(
        self, broker: Node, txn_topic_partition: int, txn_id_and_marker: TxnIdAndMarkerEntry
    ) -> None:
        broker_id = broker.id
        # Not atomic with the enqueue below: a race only sends to an older endpoint, and the marker is retried.
        broker_request_queue = atomic_get_or_update(
            self._markers_queue_per_broker, broker_id, lambda: TxnMarkerQueue(broker)
        )
        broker_request_queue.destination = broker
        broker_request_queue.add_markers(txn_topic_partition, txn_id_and_marker)
        self.trace(
            f"Added marker {txn_id_and_marker.txn_marker_entry} for transactional id {txn_id_and_marker.txn_id} "
            f"to destination broker {broker_id}"
        )

    def retry_log_appends(self) -> None:
        txn_log_append_retries: list[PendingCompleteTxn] = []
        while True:
            try:
                txn_log_append_retries.append(self._txn_log_append_retry_queue.popleft())
            except IndexError:
                break
        for txn_log_append in txn_log_append_retries:
            self.debug(f"Retry appending {txn_log_append} transaction log")
            self._try_append_to_log(txn_log_append)

    def generate_requests(self) -> Iterable[RequestAndCompletionHandler]:
        """One WriteTxnMarkers request per broker with markers waiting, after retrying pending log appends and
        looking up again the leaders that had no endpoint."""
        self.retry_log_appends()
        unknown_broker_entries: list[TxnIdAndMarkerEntry] = []
        self._markers_queue_for_unknown_broker.for_each_txn_topic_partition(
            functools.partial(_drain_to, unknown_broker_entries)
        )
        for txn_id_and_marker in unknown_broker_entries:
            marker = txn_id_and_marker.txn_marker_entry
            self.add_txn_markers_to_broker_queue(
                txn_id_and_marker.txn_id,
                marker.producer_id,
                marker.producer_epoch,
                marker.transaction_result,
                marker.coordinator_epoch,
                {TopicPartition(topic, partition) for topic, partition in marker.partitions},
            )

        current_time_ms = self.time.milliseconds()
        requests: list[RequestAndCompletionHandler] = []
        for broker_request_queue in list(self._markers_queue_per_broker.values()):
            entries: list[TxnIdAndMarkerEntry] = []
            broker_request_queue.for_each_txn_topic_partition(functools.partial(_drain_to, entries))
            if not entries:
                continue
            node = broker_request_queue.destination
            request_completion_handler = TransactionMarkerRequestCompletionHandler(
                node.id, self.txn_state_manager, self, entries
            )
            request = WriteTxnMarkersRequestBuilder(
                self.write_txn_markers_request_version, [entry.txn_marker_entry for entry in entries]
            )
            requests.append(RequestAndCompletionHandler(current_time_ms, node, request, request_completion_handler))
        return requests

    def _write_txn_completion(self, pending_complete_txn: PendingCompleteTxn) -> None:
        transactional_id = pending_complete_txn.transactional_id
        txn_metadata = pending_complete_txn.txn_metadata
        new_metadata = pending_complete_txn.new_metadata
        coordinator_epoch = pending_complete_txn.coordinator_epoch

        self.trace(
            f"Completed sending transaction markers for {transactional_id}; begin transition to "
            f"{new_metadata.txn_state}"
        )

        state = self.txn_state_manager.get_transaction_state(transactional_id)
        if state is Errors.NOT_COORDINATOR:
            self.info(
                f"No longer the coordinator for {transactional_id} with coordinator epoch {coordinator_epoch}; "
                f"cancel appending {new_metadata} to transaction log"
            )
        elif state is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            self.info(
                f"Loading the transaction partition that contains {transactional_id} while my current coordinator "
                f"epoch is {coordinator_epoch}; so cancel appending {new_metadata} to transaction log since the "
                "loading process will continue the remaining work"
            )
        elif isinstance(state, Errors):
            raise IllegalStateException(f"Unhandled error {state} when fetching current transaction state")
        elif state is None:
            error_msg = (
                f"The coordinator still owns the transaction partition for {transactional_id}, but there is no "
                "metadata in the cache; this is not expected"
            )
            self.fatal(error_msg)
            raise IllegalStateException(error_msg)
        elif state.coordinator_epoch == coordinator_epoch:
            self.debug(
                f"Sending {transactional_id}'s transaction markers for {txn_metadata} with coordinator epoch "
                f"{coordinator_epoch} succeeded, trying to append complete transaction log now"
            )
            self._try_append_to_log(PendingCompleteTxn(transactional_id, coordinator_epoch, txn_metadata, new_metadata))
        else:
            self.info(
                f"The cached metadata {txn_metadata} has changed to {state} after completed sending the markers "
                f"with coordinator epoch {coordinator_epoch}; abort transiting the metadata to {new_metadata} as "
                "it may have been updated by another process"
            )

    def add_txn_markers_to_send(
        self,
        coordinator_epoch: int,
        txn_result: TransactionResult,
        txn_metadata: TransactionMetadata,
        new_metadata: TxnTransitMetadata,
    ) -> None:
        """Sends the markers ending `txn_metadata`'s transaction; `new_metadata` (the completed state) is written
        to the log once every partition has its marker."""
        transactional_id = txn_metadata.transactional_id
        pending_complete_txn = PendingCompleteTxn(transactional_id, coordinator_epoch, txn_metadata, new_metadata)
        with self._pending_lock:
            self._transactions_with_pending_markers[transactional_id] = pending_complete_txn
        self.add_txn_markers_to_broker_queue(
            transactional_id,
            txn_metadata.producer_id,
            txn_metadata.producer_epoch,
            txn_result,
            coordinator_epoch,
            set(txn_metadata.topic_partitions),
        )
        self.maybe_write_txn_completion(transactional_id)

    @property
    def num_txns_with_pending_markers(self) -> int:
        return len(self._transactions_with_pending_markers)

    @staticmethod
    def _has_pending_markers_to_write(txn_metadata: TransactionMetadata) -> bool:
        with txn_metadata.lock:
            return bool(txn_metadata.topic_partitions)

    def maybe_write_txn_completion(self, transactional_id: str) -> None:
        """Writes the completing state of `transactional_id` once none of its partitions waits for a marker."""
        pending_complete_txn = self._transactions_with_pending_markers.get(transactional_id)
        if pending_complete_txn is None or self._has_pending_markers_to_write(pending_complete_txn.txn_metadata):
            return
        with self._pending_lock:
            # Only the caller that removes the entry writes the completion.
            if self._transactions_with_pending_markers.get(transactional_id) != pending_complete_txn:
                return
            del self._transactions_with_pending_markers[transactional_id]
        self._write_txn_completion(pending_complete_txn)

    def _try_append_to_log(self, txn_log_append: PendingCompleteTxn) -> None:
        def append_callback(error: Errors) -> None:
            if error is Errors.NONE:
                self.trace(
                    f"Completed transaction for {txn_log_append.transactional_id} with coordinator epoch "
                    f"{txn_log_append.coordinator_epoch}, final state after commit: {txn_log_append.txn_metadata.state}"
                )
            elif error is Errors.NOT_COORDINATOR:
                self.info(
                    f"No longer the coordinator for transactionalId: {txn_log_append.transactional_id} while trying "
                    "to append to transaction log, skip writing to transaction log"
                )
            elif error is Errors.COORDINATOR_NOT_AVAILABLE:
                self.info(
                    f"Not available to append {txn_log_append}: possible causes include "
                    f"{Errors.UNKNOWN_TOPIC_OR_PARTITION}, {Errors.NOT_ENOUGH_REPLICAS}, "
                    f"{Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND} and {Errors.REQUEST_TIMED_OUT}; retry appending"
                )
                self._txn_log_append_retry_queue.append(txn_log_append)
            elif error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
                self.info(
                    "Coordinator is loading the partition "
                    f"{self.txn_state_manager.partition_for(txn_log_append.transactional_id)} and hence cannot "
                    f"complete append of {txn_log_append}; skip writing to transaction log as the loading process "
                    "should complete it"
                )
            else:
                error_msg = (
                    f"Unexpected error {error.exception_name()} while appending to transaction log for "
                    f"{txn_log_append.transactional_id}"
                )
                self.fatal(error_msg)
                raise IllegalStateException(error_msg)

        self.txn_state_manager.append_transaction_to_log(
            txn_log_append.transactional_id,
            txn_log_append.coordinator_epoch,
            txn_log_append.new_metadata,
            append_callback,
            lambda error: error is Errors.COORDINATOR_NOT_AVAILABLE,
        )

    def add_txn_markers_to_broker_queue(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        result: TransactionResult,
        coordinator_epoch: int,
        topic_partitions: set[TopicPartition],
    ) -> None:
        """Queues a marker for each leader of `topic_partitions` and wakes the sender thread."""
        txn_topic_partition = self.txn_state_manager.partition_for(transactional_id)
        partitions_by_destination: dict[Node | None, list[TopicPartition]] = {}
        for topic_partition in sorted(topic_partitions):
            leader = self.metadata_cache.get_partition_leader_endpoint(
                topic_partition.topic, topic_partition.partition, self._inter_broker_listener_name
            )
            partitions_by_destination.setdefault(leader, []).append(topic_partition)

        for broker, partitions in partitions_by_destination.items():
            if broker is not None:
                marker = TxnMarkerEntry(
                    producer_id,
                    producer_epoch,
                    coordinator_epoch,
                    result,
                    tuple((tp.topic, tp.partition) for tp in partitions),
                )
                txn_id_and_marker = TxnIdAndMarkerEntry(transactional_id, marker)
                if broker == Node.no_node():
                    # The leader is known but has no endpoint on the listener (not alive): the next round looks
                    # it up again.
                    self._markers_queue_for_unknown_broker.add_markers(txn_topic_partition, txn_id_and_marker)
                else:
                    self.add_markers_for_broker(broker, txn_topic_partition, txn_id_and_marker)
                continue

            state = self.txn_state_manager.get_transaction_state(transactional_id)
            if isinstance(state, Errors):
                self.info(
                    f"Encountered {state} trying to fetch transaction metadata for {transactional_id} with "
                    f"coordinator epoch {coordinator_epoch}; cancel sending markers to its partition leaders"
                )
                self.remove_markers_for_txn_id(transactional_id)
            elif state is None:
                error_msg = (
                    f"The coordinator still owns the transaction partition for {transactional_id}, but there is no "
                    "metadata in the cache; this is not expected"
                )
                self.fatal(error_msg)
                raise IllegalStateException(error_msg)
            elif state.coordinator_epoch != coordinator_epoch:
                self.info(
                    f"The cached metadata has changed to {state} (old coordinator epoch is {coordinator_epoch}) "
                    "since preparing to send markers; cancel sending markers to its partition leaders"
                )
                self.remove_markers_for_txn_id(transactional_id)
            else:
                # No leader at all: the partitions are most likely deleted, so they need no marker.
                self.info(
                    f"Couldn't find leader endpoint for partitions {scala_set(partitions)} while trying to send "
                    f"transaction markers for {transactional_id}, these partitions are likely deleted already and "
                    "hence can be skipped"
                )
                txn_metadata = state.transaction_metadata
                with txn_metadata.lock:
                    for topic_partition in partitions:
                        txn_metadata.remove_partition(topic_partition)
                self.maybe_write_txn_completion(transactional_id)

        self.wakeup()

    def remove_markers_for_txn_topic_partition(self, txn_topic_partition_id: int) -> None:
        """Drops the markers queued for transactions of a transaction log partition this broker no longer leads."""
        queue = self._markers_queue_for_unknown_broker.remove_markers_for_txn_topic_partition(txn_topic_partition_id)
        if queue is not None:
            for entry in list(queue):
                self.remove_markers_for_txn_id(entry.txn_id)
        for broker_queue in list(self._markers_queue_per_broker.values()):
            queue = broker_queue.remove_markers_for_txn_topic_partition(txn_topic_partition_id)
            if queue is not None:
                for entry in list(queue):
                    self.remove_markers_for_txn_id(entry.txn_id)

    def remove_markers_for_txn_id(self, transactional_id: str) -> None:
        with self._pending_lock:
            self._transactions_with_pending_markers.pop(transactional_id, None)
