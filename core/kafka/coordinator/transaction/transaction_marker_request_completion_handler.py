"""Port of core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerRequestCompletionHandler.scala.

What the transaction marker sender does (as Kafka 2.8's) with the answer to one WriteTxnMarkers request. For
each transaction in the request it first checks that this broker still coordinates it under the same coordinator
epoch (otherwise the markers are obsolete and dropped). Then, per partition: a written marker takes the partition off
the transaction; a retriable error (the leader moved, not enough replicas, a timeout, a storage error, an unknown
partition) sends the marker again to the partition's current leader; a fenced producer or coordinator epoch ends
the sending for that transaction; an old message format or version means the partition never had transactional
data, so it is taken off; anything else is a broken invariant. A lost connection re-queues every marker of the
request. Once a transaction has no partition left, the channel manager writes its completion to the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.clients.request_completion_handler import RequestCompletionHandler
from kafka.common.protocol.errors import Errors
from kafka.common.requests.write_txn_markers_response import WriteTxnMarkersResponse
from kafka.common.topic_partition import TopicPartition
from kafka.coordinator.transaction.transaction_metadata import IllegalStateException
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.clients.client_response import ClientResponse
    from kafka.common.requests.write_txn_markers_request import TxnMarkerEntry
    from kafka.coordinator.transaction.transaction_marker_channel_manager import (
        TransactionMarkerChannelManager,
        TxnIdAndMarkerEntry,
    )
    from kafka.coordinator.transaction.transaction_state_manager import (
        CoordinatorEpochAndTxnMetadata,
        TransactionStateManager,
    )

__all__ = ["TransactionMarkerRequestCompletionHandler"]

# Errors that a leader cannot return for a marker unless something is badly wrong.
_FATAL_ERRORS = frozenset(
    {Errors.CORRUPT_MESSAGE, Errors.MESSAGE_TOO_LARGE, Errors.RECORD_LIST_TOO_LARGE, Errors.INVALID_REQUIRED_ACKS}
)
# Errors after which the marker is sent again, to the partition's leader of the moment.
_RETRIABLE_ERRORS = frozenset(
    {
        Errors.UNKNOWN_TOPIC_OR_PARTITION,
        Errors.NOT_LEADER_OR_FOLLOWER,
        Errors.NOT_ENOUGH_REPLICAS,
        Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
        Errors.REQUEST_TIMED_OUT,
        Errors.KAFKA_STORAGE_ERROR,
    }
)
# The producer's or the coordinator's epoch moved on: nothing more to send for this transaction.
_FENCED_ERRORS = frozenset({Errors.INVALID_PRODUCER_EPOCH, Errors.TRANSACTION_COORDINATOR_FENCED})
# The partition cannot hold transactional data, so the producer never wrote to it in a transaction.
_UNSUPPORTED_ERRORS = frozenset({Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT, Errors.UNSUPPORTED_VERSION})


class TransactionMarkerRequestCompletionHandler(RequestCompletionHandler, Logging):
    """Handles the answer of broker `broker_id` to the WriteTxnMarkers request carrying `txn_id_and_markers`."""

    logger_name = "kafka.coordinator.transaction.TransactionMarkerRequestCompletionHandler"

    def __init__(
        self,
        broker_id: int,
        txn_state_manager: TransactionStateManager,
        txn_marker_channel_manager: TransactionMarkerChannelManager,
        txn_id_and_markers: list[TxnIdAndMarkerEntry],
    ) -> None:
        self.broker_id = broker_id
        self.txn_state_manager = txn_state_manager
        self.txn_marker_channel_manager = txn_marker_channel_manager
        self.txn_id_and_markers = txn_id_and_markers
        self.log_ident = f"[Transaction Marker Request Completion Handler {broker_id}]: "

    def on_complete(self, response: ClientResponse) -> None:
        request_header = response.request_header
        correlation_id = request_header.correlation_id
        if response.was_disconnected:
            self.trace(
                f"Cancelled request with header {request_header} due to node {response.destination} being disconnected"
            )
            for txn_id_and_marker in self.txn_id_and_markers:
                self._on_disconnect(txn_id_and_marker)
            return

        self.debug(
            f"Received WriteTxnMarker response {response} from node {response.destination} with correlation id "
            f"{correlation_id}"
        )
        write_txn_marker_response = response.response_body
        assert isinstance(write_txn_marker_response, WriteTxnMarkersResponse)
        response_errors = write_txn_marker_response.errors_by_producer_id()
        for txn_id_and_marker in self.txn_id_and_markers:
            self._on_response(txn_id_and_marker, response_errors)

    def _current_state(
        self, transactional_id: str, txn_marker: TxnMarkerEntry
    ) -> CoordinatorEpochAndTxnMetadata | None:
        """The coordinator's entry for `transactional_id`, or None when its markers are obsolete and were dropped
        (no longer the coordinator, or the partition is being loaded again)."""
        state = self.txn_state_manager.get_transaction_state(transactional_id)
        if state is Errors.NOT_COORDINATOR:
            self.info(
                f"I am no longer the coordinator for {transactional_id}; cancel sending transaction markers "
                f"{txn_marker} to the brokers"
            )
            self.txn_marker_channel_manager.remove_markers_for_txn_id(transactional_id)
            return None
        if state is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            self.info(
                f"I am loading the transaction partition that contains {transactional_id} which means the current "
                f"markers have to be obsoleted; cancel sending transaction markers {txn_marker} to the brokers"
            )
            self.txn_marker_channel_manager.remove_markers_for_txn_id(transactional_id)
            return None
        if isinstance(state, Errors):
            raise IllegalStateException(f"Unhandled error {state} when fetching current transaction state")
        if state is None:
            raise IllegalStateException(
                f"The coordinator still owns the transaction partition for {transactional_id}, but there is no "
                "metadata in the cache; this is not expected"
            )
        return state

    def _cancel_for_new_epoch(self, transactional_id: str, txn_marker: TxnMarkerEntry, coordinator_epoch: int) -> None:
        self.info(
            f"Transaction coordinator epoch for {transactional_id} has changed from {txn_marker.coordinator_epoch} to "
            f"{coordinator_epoch}; cancel sending transaction markers {txn_marker} to the brokers"
        )
        self.txn_marker_channel_manager.remove_markers_for_txn_id(transactional_id)

    def _re_enqueue(self, transactional_id: str, txn_marker: TxnMarkerEntry, partitions: set[TopicPartition]) -> None:
        """Queues `txn_marker` again for `partitions`, each to its leader of the moment."""
        self.txn_marker_channel_manager.add_txn_markers_to_broker_queue(
            transactional_id,
            txn_marker.producer_id,
            txn_marker.producer_epoch,
            txn_marker.transaction_result,
            txn_marker.coordinator_epoch,
            partitions,
        )

    def _on_disconnect(self, txn_id_and_marker: TxnIdAndMarkerEntry) -> None:
        transactional_id = txn_id_and_marker.txn_id
        txn_marker = txn_id_and_marker.txn_marker_entry
        state = self._current_state(transactional_id, txn_marker)
        if state is None:
            return
        if state.coordinator_epoch != txn_marker.coordinator_epoch:
            self._cancel_for_new_epoch(transactional_id, txn_marker, state.coordinator_epoch)
            return
        self.trace(
            f"Re-enqueuing {txn_marker.transaction_result.name} transaction markers for transactional id "
            f"{transactional_id} under coordinator epoch {txn_marker.coordinator_epoch}"
        )
        self._re_enqueue(
            transactional_id,
            txn_marker,
            {TopicPartition(topic, partition) for topic, partition in txn_marker.partitions},
        )

    def _on_response(
        self, txn_id_and_marker: TxnIdAndMarkerEntry, response_errors: dict[int, dict[tuple[str, int], Errors]]
    ) -> None:
        transactional_id = txn_id_and_marker.txn_id
        txn_marker = txn_id_and_marker.txn_marker_entry
        errors = response_errors.get(txn_marker.producer_id)
        if errors is None:
            raise IllegalStateException(
                f"WriteTxnMarkerResponse does not contain expected error map for producer id {txn_marker.producer_id}"
            )
        state = self._current_state(transactional_id, txn_marker)
        if state is None:
            return
        txn_metadata = state.transaction_metadata
        retry_partitions: set[TopicPartition] = set()
        abort_sending = False

        if state.coordinator_epoch != txn_marker.coordinator_epoch:
            self._cancel_for_new_epoch(transactional_id, txn_marker, state.coordinator_epoch)
            abort_sending = True
        else:
            with txn_metadata.lock:
                for (topic, partition), error in errors.items():
                    topic_partition = TopicPartition(topic, partition)
                    if error is Errors.NONE:
                        txn_metadata.remove_partition(topic_partition)
                    elif error in _FATAL_ERRORS:
                        raise IllegalStateException(
                            f"Received fatal error {error.exception_name()} while sending txn marker for "
                            f"{transactional_id}"
                        )
                    elif error in _RETRIABLE_ERRORS:
                        self.info(
                            f"Sending {transactional_id}'s transaction marker for partition {topic_partition} has "
                            f"failed with error {error.exception_name()}, retrying with current coordinator epoch "
                            f"{state.coordinator_epoch}"
                        )
                        retry_partitions.add(topic_partition)
                    elif error in _FENCED_ERRORS:
                        self.info(
                            f"Sending {transactional_id}'s transaction marker for partition {topic_partition} has "
                            f"permanently failed with error {error.exception_name()} with the current coordinator "
                            f"epoch {state.coordinator_epoch}; cancel sending any more transaction markers "
                            f"{txn_marker} to the brokers"
                        )
                        self.txn_marker_channel_manager.remove_markers_for_txn_id(transactional_id)
                        abort_sending = True
                    elif error in _UNSUPPORTED_ERRORS:
                        self.info(
                            f"Sending {transactional_id}'s transaction marker from partition {topic_partition} has "
                            f"failed with  {error.name}. This partition will be removed from the set of partitions "
                            "waiting for completion"
                        )
                        txn_metadata.remove_partition(topic_partition)
                    else:
                        raise IllegalStateException(
                            f"Unexpected error {error.exception_name()} while sending txn marker for {transactional_id}"
                        )

        if abort_sending:
            return
        if retry_partitions:
            self.debug(
                f"Re-enqueuing {txn_marker.transaction_result.name} transaction markers for transactional id "
                f"{transactional_id} under coordinator epoch {txn_marker.coordinator_epoch}"
            )
            self._re_enqueue(transactional_id, txn_marker, retry_partitions)
        else:
            self.txn_marker_channel_manager.maybe_write_txn_completion(transactional_id)
