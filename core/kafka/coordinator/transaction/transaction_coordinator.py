"""Port of core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala (Kafka 2.8).

The broker's transaction coordinator. It answers the producer's InitProducerId, AddPartitionsToTxn (and,
through KafkaApis, AddOffsetsToTxn) and EndTxn for the transactional ids whose `__transaction_state`
partition this broker leads: each request checks the id's producer id, epoch and state, prepares a state
change on its TransactionMetadata, has the TransactionStateManager append it to the transaction log and
answers once the append is replicated. After a PrepareCommit/PrepareAbort is in the log, the
TransactionMarkerChannelManager writes the markers to the transaction's partitions and completes it.
Idempotent producers (no transactional id) get a fresh producer id here as well.

A periodic task, `transaction-abort`, fences the producers of transactions open longer than their timeout
(bumping the epoch) and aborts those transactions.

# PORT: the Kafka 3.7 additions are here too: handle_list_transactions, handle_describe_transactions
# (ListTransactions and DescribeTransactions) and handle_verify_partitions_in_transaction (AddPartitionsToTxn
# v4 verify-only), and a producer id generator that fails (ZooKeeper unreachable) gives the request that
# error's code, as 3.7's `Try` does, where 2.8 let the exception escape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka.common.internals.topic import Topic
from kafka.common.message import DescribeTransactionsResponseData, ListTransactionsResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID
from kafka.common.requests.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch
from kafka.common.utils.utils import IllegalArgumentException
from kafka.coordinator.transaction.transaction_metadata import (
    IllegalStateException,
    TransactionMetadata,
    TransactionState,
    TxnTransitMetadata,
)
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.utils.time import Time
    from kafka.coordinator.transaction.producer_id_manager import ProducerIdGenerator
    from kafka.coordinator.transaction.transaction_marker_channel_manager import TransactionMarkerChannelManager
    from kafka.coordinator.transaction.transaction_state_manager import (
        CoordinatorEpochAndTxnMetadata,
        TransactionalIdAndProducerIdEpoch,
        TransactionConfig,
        TransactionStateManager,
    )
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.metadata_cache import MetadataCache
    from kafka.server.replica_manager import ReplicaManager
    from kafka.utils.kafka_scheduler import Scheduler

__all__ = ["InitProducerIdResult", "TransactionCoordinator"]

InitProducerIdCallback = Callable[["InitProducerIdResult"], None]
AddPartitionsCallback = Callable[[Errors], None]
VerifyPartitionsCallback = Callable[[Any], None]  # an AddPartitionsToTxnResponseData.AddPartitionsToTxnResult
EndTxnCallback = Callable[[Errors], None]


@dataclass(frozen=True, slots=True)
class InitProducerIdResult:
    producer_id: int
    producer_epoch: int
    error: Errors


def _init_transaction_error(error: Errors) -> InitProducerIdResult:
    return InitProducerIdResult(NO_PRODUCER_ID, NO_PRODUCER_EPOCH, error)


def _init_transaction_metadata(txn_metadata: TxnTransitMetadata) -> InitProducerIdResult:
    return InitProducerIdResult(txn_metadata.producer_id, txn_metadata.producer_epoch, Errors.NONE)


class TransactionCoordinator(Logging):
    """Handles the transactional requests of the producers whose transactional ids this broker coordinates."""

    logger_name = "kafka.coordinator.transaction.TransactionCoordinator"

    @classmethod
    def apply(
        cls,
        config: KafkaConfig,
        replica_manager: ReplicaManager,
        scheduler: Scheduler,
        create_producer_id_generator: Callable[[], ProducerIdGenerator],
        metrics: Metrics,
        metadata_cache: MetadataCache,
        time: Time,
    ) -> TransactionCoordinator:
        """A coordinator for the broker of `config`, with its TransactionStateManager and marker channel manager."""
        from kafka.coordinator.transaction.transaction_marker_channel_manager import (
            TransactionMarkerChannelManager,
        )
        from kafka.coordinator.transaction.transaction_state_manager import (
            TransactionConfig,
            TransactionStateManager,
        )

        txn_config = TransactionConfig(
            transactional_id_expiration_ms=config.transactional_id_expiration_ms,
            transaction_max_timeout_ms=config.transaction_max_timeout_ms,
            transaction_log_num_partitions=config.transaction_topic_partitions,
            transaction_log_replication_factor=config.transaction_topic_replication_factor,
            transaction_log_segment_bytes=config.transaction_topic_segment_bytes,
            transaction_log_load_buffer_size=config.transactions_load_buffer_size,
            transaction_log_min_insync_replicas=config.transaction_topic_min_isr,
            abort_timed_out_transactions_interval_ms=config.transaction_abort_timed_out_transaction_cleanup_interval_ms,
            remove_expired_transactional_ids_interval_ms=(
                config.transaction_remove_expired_transactional_id_cleanup_interval_ms
            ),
            request_timeout_ms=config.request_timeout_ms,
        )
        txn_state_manager = TransactionStateManager(
            config.broker_id, scheduler, replica_manager, txn_config, time, metrics
        )
        log_context = LogContext(f"[TransactionCoordinator id={config.broker_id}] ")
        txn_marker_channel_manager = TransactionMarkerChannelManager.apply(
            config, metrics, metadata_cache, txn_state_manager, time, log_context
        )
        return cls(
            config.broker_id,
            txn_config,
            scheduler,
            create_producer_id_generator,
            txn_state_manager,
            txn_marker_channel_manager,
            time,
            log_context,
        )

    def __init__(
        self,
        broker_id: int,
        txn_config: TransactionConfig,
        scheduler: Scheduler,
        create_producer_id_generator: Callable[[], ProducerIdGenerator],
        txn_manager: TransactionStateManager,
        txn_marker_channel_manager: TransactionMarkerChannelManager,
        time: Time,
        log_context: LogContext,
    ) -> None:
        self.broker_id = broker_id
        self.txn_config = txn_config
        self.scheduler = scheduler
        self.txn_manager = txn_manager
        self.txn_marker_channel_manager = txn_marker_channel_manager
        self.time = time
        self.log_ident = log_context.log_prefix()
        self._is_active = AtomicBoolean(False)
        # PORT: named as Kafka 3.7 names it (2.8: producerIdGenerator); the object is 2.8's ProducerIdGenerator.
        self.producer_id_manager = create_producer_id_generator()

    @property
    def is_active(self) -> bool:
        return self._is_active.get()

    def _generate_producer_id(self) -> Errors | int:
        try:
            return self.producer_id_manager.generate_producer_id()
        except Exception as e:  # any failure of the generator becomes the request's error code
            error = Errors.for_exception(e)
            self.warn(f"Failed to generate a producer id, returning {error.name}: {e}")
            return error

    # ---- InitProducerId ----------------------------------------------------------------------------------------

    def handle_init_producer_id(
        self,
        transactional_id: str | None,
        transaction_timeout_ms: int,
        expected_producer_id_and_epoch: ProducerIdAndEpoch | None,
        response_callback: InitProducerIdCallback,
    ) -> None:
        if transactional_id is None:
            # An idempotent producer: any request gets a new producer id at epoch 0.
            producer_id = self._generate_producer_id()
            if isinstance(producer_id, Errors):
                response_callback(_init_transaction_error(producer_id))
            else:
                response_callback(InitProducerIdResult(producer_id, 0, Errors.NONE))
            return
        if not transactional_id:
            # The producer client refuses an empty transactional id; so does the coordinator.
            response_callback(_init_transaction_error(Errors.INVALID_REQUEST))
            return
        if not self.txn_manager.validate_transaction_timeout_ms(transaction_timeout_ms):
            response_callback(_init_transaction_error(Errors.INVALID_TRANSACTION_TIMEOUT))
            return

        existing = self.txn_manager.get_transaction_state(transactional_id)
        coordinator_epoch_and_metadata: Errors | CoordinatorEpochAndTxnMetadata
        if existing is None:
            producer_id = self._generate_producer_id()
            if isinstance(producer_id, Errors):
                coordinator_epoch_and_metadata = producer_id
            else:
                created_metadata = TransactionMetadata(
                    transactional_id=transactional_id,
                    producer_id=producer_id,
                    last_producer_id=NO_PRODUCER_ID,
                    producer_epoch=NO_PRODUCER_EPOCH,
                    last_producer_epoch=NO_PRODUCER_EPOCH,
                    txn_timeout_ms=transaction_timeout_ms,
                    state=TransactionState.Empty,
                    topic_partitions=set(),
                    txn_start_timestamp=-1,
                    txn_last_update_timestamp=self.time.milliseconds(),
                )
                coordinator_epoch_and_metadata = self.txn_manager.put_transaction_state_if_not_exists(created_metadata)
        else:
            coordinator_epoch_and_metadata = existing

        result: Errors | tuple[int, TxnTransitMetadata]
        if isinstance(coordinator_epoch_and_metadata, Errors):
            result = coordinator_epoch_and_metadata
        else:
            coordinator_epoch = coordinator_epoch_and_metadata.coordinator_epoch
            txn_metadata = coordinator_epoch_and_metadata.transaction_metadata
            with txn_metadata.lock:
                result = self._prepare_init_producer_id_transit(
                    transactional_id,
                    transaction_timeout_ms,
                    coordinator_epoch,
                    txn_metadata,
                    expected_producer_id_and_epoch,
                )

        if isinstance(result, Errors):
            response_callback(_init_transaction_error(result))
            return

        coordinator_epoch, new_metadata = result
        if new_metadata.txn_state == TransactionState.PrepareEpochFence:
            # An open transaction is in the way: abort it, and have the client retry (the retry bumps the epoch
            # a second time; it is never handed this fencing epoch).
            def send_retriable_error_callback(error: Errors) -> None:
                if error != Errors.NONE:
                    response_callback(_init_transaction_error(error))
                else:
                    response_callback(_init_transaction_error(Errors.CONCURRENT_TRANSACTIONS))

            self._end_transaction(
                transactional_id,
                new_metadata.producer_id,
                new_metadata.producer_epoch,
                TransactionResult.ABORT,
                False,
                send_retriable_error_callback,
            )
        else:

            def send_pid_response_callback(error: Errors) -> None:
                if error == Errors.NONE:
                    self.info(
                        f"Initialized transactionalId {transactional_id} with producerId {new_metadata.producer_id} "
                        f"and producer epoch {new_metadata.producer_epoch} on partition "
                        f"{Topic.TRANSACTION_STATE_TOPIC_NAME}-{self.txn_manager.partition_for(transactional_id)}"
                    )
                    response_callback(_init_transaction_metadata(new_metadata))
                else:
                    self.info(
                        f"Returning {error.name} error code to client for {transactional_id}'s InitProducerId request"
                    )
                    response_callback(_init_transaction_error(error))

            self.txn_manager.append_transaction_to_log(
                transactional_id, coordinator_epoch, new_metadata, send_pid_response_callback
            )

    def _prepare_init_producer_id_transit(
        self,
        transactional_id: str,
        transaction_timeout_ms: int,
        coordinator_epoch: int,
        txn_metadata: TransactionMetadata,
        expected_producer_id_and_epoch: ProducerIdAndEpoch | None,
    ) -> Errors | tuple[int, TxnTransitMetadata]:
        """The caller holds the metadata's lock."""

        def is_valid_producer_id(producer_id_and_epoch: ProducerIdAndEpoch) -> bool:
            # A producer naming its id and epoch (KIP-360) is let through when the metadata was just created
            # (epoch -1: it recovers from UNKNOWN_PRODUCER_ID), when the id is the current one (the epoch is
            # checked by the bump), or when it is the previous id and its epoch was exhausted (a retry of a
            # rotation whose answer was lost). Otherwise it is fenced.
            return (
                txn_metadata.producer_epoch == NO_PRODUCER_EPOCH
                or producer_id_and_epoch.producer_id == txn_metadata.producer_id
                or (
                    producer_id_and_epoch.producer_id == txn_metadata.last_producer_id
                    and TransactionMetadata.is_epoch_exhausted(producer_id_and_epoch.epoch)
                )
            )

        if txn_metadata.pending_transition_in_progress:
            return Errors.CONCURRENT_TRANSACTIONS
        if expected_producer_id_and_epoch is not None and not is_valid_producer_id(expected_producer_id_and_epoch):
            return Errors.PRODUCER_FENCED

        state = txn_metadata.state
        if state in (TransactionState.PrepareAbort, TransactionState.PrepareCommit):
            return Errors.CONCURRENT_TRANSACTIONS
        if state in (TransactionState.CompleteAbort, TransactionState.CompleteCommit, TransactionState.Empty):
            transit_result: Errors | TxnTransitMetadata
            if txn_metadata.is_producer_epoch_exhausted and (
                expected_producer_id_and_epoch is None
                or expected_producer_id_and_epoch.epoch == txn_metadata.producer_epoch
            ):
                # No epoch left for this producer id: continue under a new one.
                new_producer_id = self._generate_producer_id()
                if isinstance(new_producer_id, Errors):
                    transit_result = new_producer_id
                else:
                    transit_result = txn_metadata.prepare_producer_id_rotation(
                        new_producer_id,
                        transaction_timeout_ms,
                        self.time.milliseconds(),
                        expected_producer_id_and_epoch is not None,
                    )
            else:
                transit_result = txn_metadata.prepare_increment_producer_epoch(
                    transaction_timeout_ms,
                    None if expected_producer_id_and_epoch is None else expected_producer_id_and_epoch.epoch,
                    self.time.milliseconds(),
                )
            if isinstance(transit_result, Errors):
                return transit_result
            return coordinator_epoch, transit_result
        if state == TransactionState.Ongoing:
            # Fence the current producer and abort its transaction first; the client gets
            # CONCURRENT_TRANSACTIONS and its retry bumps the epoch again (rotating the producer id if this
            # fence used up the epochs).
            return coordinator_epoch, txn_metadata.prepare_fence_producer_epoch()
        # Dead, PrepareEpochFence
        error_msg = (
            f"Found transactionalId {transactional_id} with state {state}. "
            "This is illegal as we should never have transitioned to this state."
        )
        self.fatal(error_msg)
        raise IllegalStateException(error_msg)

    # ---- ListTransactions / DescribeTransactions (3.7) ---------------------------------------------------------

    def handle_list_transactions(
        self, filtered_producer_ids: set[int], filtered_states: set[str]
    ) -> ListTransactionsResponseData:
        if not self.is_active:
            return ListTransactionsResponseData(error_code=Errors.COORDINATOR_NOT_AVAILABLE.code)
        return self.txn_manager.list_transaction_states(filtered_producer_ids, filtered_states)

    def handle_describe_transactions(self, transactional_id: str) -> Any:
        """A DescribeTransactionsResponseData.TransactionState for `transactional_id`."""
        if transactional_id is None:
            raise IllegalArgumentException("Invalid null transactionalId")

        transaction_state = DescribeTransactionsResponseData.TransactionState(transactional_id=transactional_id)
        if not self.is_active:
            transaction_state.error_code = Errors.COORDINATOR_NOT_AVAILABLE.code
            return transaction_state
        if not transactional_id:
            transaction_state.error_code = Errors.INVALID_REQUEST.code
            return transaction_state

        state = self.txn_manager.get_transaction_state(transactional_id)
        if isinstance(state, Errors):
            transaction_state.error_code = state.code
        elif state is None:
            transaction_state.error_code = Errors.TRANSACTIONAL_ID_NOT_FOUND.code
        else:
            txn_metadata = state.transaction_metadata
            with txn_metadata.lock:
                if txn_metadata.state == TransactionState.Dead:
                    # Being expired: as good as gone.
                    transaction_state.error_code = Errors.TRANSACTIONAL_ID_NOT_FOUND.code
                else:
                    for topic_partition in txn_metadata.topic_partitions:
                        topic_data = transaction_state.topics.find(topic_partition.topic)
                        if topic_data is None:
                            topic_data = DescribeTransactionsResponseData.TopicData(topic=topic_partition.topic)
                            transaction_state.topics.append(topic_data)
                        topic_data.partitions.append(topic_partition.partition)
                    transaction_state.error_code = Errors.NONE.code
                    transaction_state.producer_id = txn_metadata.producer_id
                    transaction_state.producer_epoch = txn_metadata.producer_epoch
                    transaction_state.transaction_state = txn_metadata.state.name
                    transaction_state.transaction_timeout_ms = txn_metadata.txn_timeout_ms
                    transaction_state.transaction_start_time_ms = txn_metadata.txn_start_timestamp
        return transaction_state

    # ---- AddPartitionsToTxn ------------------------------------------------------------------------------------

    def handle_verify_partitions_in_transaction(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        partitions: Iterable[TopicPartition],
        response_callback: VerifyPartitionsCallback,
    ) -> None:
        """AddPartitionsToTxn v4 with verify_only: whether each partition is already in the open transaction."""
        partitions = list(partitions)

        def result_for(errors: dict[TopicPartition, Errors]) -> Any:
            return AddPartitionsToTxnResponse.result_for_transaction(
                transactional_id, {(tp.topic, tp.partition): error for tp, error in errors.items()}
            )

        if not transactional_id:
            self.debug(
                f"Returning {Errors.INVALID_REQUEST.name} error code to client for {transactional_id}'s "
                "AddPartitions request for verification"
            )
            response_callback(result_for(dict.fromkeys(partitions, Errors.INVALID_REQUEST)))
            return

        result: Errors | dict[TopicPartition, Errors]
        state = self.txn_manager.get_transaction_state(transactional_id)
        if isinstance(state, Errors):
            result = state
        elif state is None:
            result = Errors.INVALID_PRODUCER_ID_MAPPING
        else:
            txn_metadata = state.transaction_metadata
            # The pending state is not looked at: the append of the records is validated again at the log.
            with txn_metadata.lock:
                if txn_metadata.producer_id != producer_id:
                    result = Errors.INVALID_PRODUCER_ID_MAPPING
                elif txn_metadata.producer_epoch != producer_epoch:
                    result = Errors.PRODUCER_FENCED
                elif txn_metadata.state in (TransactionState.PrepareCommit, TransactionState.PrepareAbort):
                    result = Errors.CONCURRENT_TRANSACTIONS
                else:
                    result = {
                        tp: Errors.NONE if tp in txn_metadata.topic_partitions else Errors.INVALID_TXN_STATE
                        for tp in partitions
                    }

        if isinstance(result, Errors):
            self.debug(
                f"Returning {result.name} error code to client for {transactional_id}'s AddPartitions request "
                "for verification"
            )
            response_callback(result_for(dict.fromkeys(partitions, result)))
        else:
            response_callback(result_for(result))

    def handle_add_partitions_to_transaction(
        self,
        transactional_id: str | None,
        producer_id: int,
        producer_epoch: int,
        partitions: Iterable[TopicPartition],
        response_callback: AddPartitionsCallback,
    ) -> None:
        if not transactional_id:
            self.debug(
                f"Returning {Errors.INVALID_REQUEST.name} error code to client for {transactional_id}'s "
                "AddPartitions request"
            )
            response_callback(Errors.INVALID_REQUEST)
            return

        partition_set = frozenset(partitions)
        result: Errors | tuple[int, TxnTransitMetadata]
        state = self.txn_manager.get_transaction_state(transactional_id)
        if isinstance(state, Errors):
            result = state
        elif state is None:
            result = Errors.INVALID_PRODUCER_ID_MAPPING
        else:
            coordinator_epoch = state.coordinator_epoch
            txn_metadata = state.transaction_metadata
            with txn_metadata.lock:
                if txn_metadata.producer_id != producer_id:
                    result = Errors.INVALID_PRODUCER_ID_MAPPING
                elif txn_metadata.producer_epoch != producer_epoch:
                    result = Errors.PRODUCER_FENCED
                elif txn_metadata.pending_transition_in_progress:
                    result = Errors.CONCURRENT_TRANSACTIONS
                elif txn_metadata.state in (TransactionState.PrepareCommit, TransactionState.PrepareAbort):
                    result = Errors.CONCURRENT_TRANSACTIONS
                elif txn_metadata.state == TransactionState.Ongoing and partition_set <= txn_metadata.topic_partitions:
                    # Nothing new: no append needed.
                    result = Errors.NONE
                else:
                    result = (
                        coordinator_epoch,
                        txn_metadata.prepare_add_partitions(partition_set, self.time.milliseconds()),
                    )

        if isinstance(result, Errors):
            self.debug(f"Returning {result.name} error code to client for {transactional_id}'s AddPartitions request")
            response_callback(result)
        else:
            coordinator_epoch, new_metadata = result
            self.txn_manager.append_transaction_to_log(
                transactional_id, coordinator_epoch, new_metadata, response_callback
            )

    # ---- leadership of __transaction_state partitions ----------------------------------------------------------

    def on_election(self, txn_topic_partition_id: int, coordinator_epoch: int) -> None:
        """Loads the transactions of a `__transaction_state` partition this broker now leads."""
        self.info(f"Elected as the txn coordinator for partition {txn_topic_partition_id} at epoch {coordinator_epoch}")
        # Whatever an earlier unload left behind for this partition goes first, so loading starts clean.
        self.txn_marker_channel_manager.remove_markers_for_txn_topic_partition(txn_topic_partition_id)
        self.txn_manager.load_transactions_for_txn_topic_partition(
            txn_topic_partition_id,
            coordinator_epoch,
            self.txn_marker_channel_manager.add_txn_markers_to_send,
        )

    def on_resignation(self, txn_topic_partition_id: int, coordinator_epoch: int | None) -> None:
        """Drops the cached transactions of a partition this broker no longer leads (the epoch is None when a
        StopReplica, not a LeaderAndIsr, took the leadership away)."""
        epoch_str = "None" if coordinator_epoch is None else f"Some({coordinator_epoch})"
        self.info(f"Resigned as the txn coordinator for partition {txn_topic_partition_id} at epoch {epoch_str}")
        self.txn_manager.remove_transactions_for_txn_topic_partition(txn_topic_partition_id, coordinator_epoch)
        self.txn_marker_channel_manager.remove_markers_for_txn_topic_partition(txn_topic_partition_id)

    # ---- EndTxn ------------------------------------------------------------------------------------------------

    def _log_invalid_state_transition_and_return_error(
        self, transactional_id: str, transaction_state: TransactionState, transaction_result: TransactionResult
    ) -> Errors:
        self.debug(
            f"TransactionalId: {transactional_id}'s state is {transaction_state}, but received transaction marker "
            f"result to send: {transaction_result.name}"
        )
        return Errors.INVALID_TXN_STATE

    def handle_end_transaction(
        self,
        transactional_id: str | None,
        producer_id: int,
        producer_epoch: int,
        txn_marker_result: TransactionResult,
        response_callback: EndTxnCallback,
    ) -> None:
        self._end_transaction(transactional_id, producer_id, producer_epoch, txn_marker_result, True, response_callback)

    def _illegal_state(self, transactional_id: str, state: TransactionState) -> IllegalStateException:
        error_msg = (
            f"Found transactionalId {transactional_id} with state {state}. "
            "This is illegal as we should never have transitioned to this state."
        )
        self.fatal(error_msg)
        return IllegalStateException(error_msg)

    def _end_transaction(
        self,
        transactional_id: str | None,
        producer_id: int,
        producer_epoch: int,
        txn_marker_result: TransactionResult,
        is_from_client: bool,
        response_callback: EndTxnCallback,
    ) -> None:
        if not transactional_id:
            response_callback(Errors.INVALID_REQUEST)
            return
        txn_id: str = transactional_id
        is_epoch_fence = False

        pre_append_result: Errors | tuple[int, TxnTransitMetadata]
        state = self.txn_manager.get_transaction_state(txn_id)
        if isinstance(state, Errors):
            pre_append_result = state
        elif state is None:
            pre_append_result = Errors.INVALID_PRODUCER_ID_MAPPING
        else:
            txn_metadata = state.transaction_metadata
            coordinator_epoch = state.coordinator_epoch
            with txn_metadata.lock:
                current = txn_metadata.state
                if txn_metadata.producer_id != producer_id:
                    pre_append_result = Errors.INVALID_PRODUCER_ID_MAPPING
                # A client's EndTxn must carry the current epoch exactly; the coordinator's own aborts carry the
                # epoch of their fence, which may be one ahead.
                elif (
                    is_from_client and producer_epoch != txn_metadata.producer_epoch
                ) or producer_epoch < txn_metadata.producer_epoch:
                    pre_append_result = Errors.PRODUCER_FENCED
                elif (
                    txn_metadata.pending_transition_in_progress
                    and txn_metadata.pending_state != TransactionState.PrepareEpochFence
                ):
                    pre_append_result = Errors.CONCURRENT_TRANSACTIONS
                elif current == TransactionState.Ongoing:
                    next_state = (
                        TransactionState.PrepareCommit
                        if txn_marker_result == TransactionResult.COMMIT
                        else TransactionState.PrepareAbort
                    )
                    if (
                        next_state == TransactionState.PrepareAbort
                        and txn_metadata.pending_state == TransactionState.PrepareEpochFence
                    ):
                        # The abort that follows a fence: it replaces the pending fence and carries the bumped
                        # epoch in the record it appends.
                        is_epoch_fence = True
                        txn_metadata.pending_state = None
                        txn_metadata.producer_epoch = producer_epoch
                        txn_metadata.last_producer_epoch = NO_PRODUCER_EPOCH
                    pre_append_result = (
                        coordinator_epoch,
                        txn_metadata.prepare_abort_or_commit(next_state, self.time.milliseconds()),
                    )
                elif current == TransactionState.CompleteCommit:
                    if txn_marker_result == TransactionResult.COMMIT:
                        pre_append_result = Errors.NONE
                    else:
                        pre_append_result = self._log_invalid_state_transition_and_return_error(
                            txn_id, current, txn_marker_result
                        )
                elif current == TransactionState.CompleteAbort:
                    if txn_marker_result == TransactionResult.ABORT:
                        pre_append_result = Errors.NONE
                    else:
                        pre_append_result = self._log_invalid_state_transition_and_return_error(
                            txn_id, current, txn_marker_result
                        )
                elif current == TransactionState.PrepareCommit:
                    if txn_marker_result == TransactionResult.COMMIT:
                        pre_append_result = Errors.CONCURRENT_TRANSACTIONS
                    else:
                        pre_append_result = self._log_invalid_state_transition_and_return_error(
                            txn_id, current, txn_marker_result
                        )
                elif current == TransactionState.PrepareAbort:
                    if txn_marker_result == TransactionResult.ABORT:
                        pre_append_result = Errors.CONCURRENT_TRANSACTIONS
                    else:
                        pre_append_result = self._log_invalid_state_transition_and_return_error(
                            txn_id, current, txn_marker_result
                        )
                elif current == TransactionState.Empty:
                    pre_append_result = self._log_invalid_state_transition_and_return_error(
                        txn_id, current, txn_marker_result
                    )
                else:  # Dead, PrepareEpochFence
                    raise self._illegal_state(txn_id, current)

        if isinstance(pre_append_result, Errors):
            self.debug(
                f"Aborting append of {txn_marker_result.name} to transaction log with coordinator and returning "
                f"{pre_append_result.name} error to client for {txn_id}'s EndTransaction request"
            )
            response_callback(pre_append_result)
            return

        coordinator_epoch, new_metadata = pre_append_result

        def send_txn_markers_callback(error: Errors) -> None:
            if error == Errors.NONE:
                self._on_end_txn_appended(
                    txn_id, producer_id, producer_epoch, txn_marker_result, coordinator_epoch, response_callback
                )
                return
            self.info(
                f"Aborting sending of transaction markers and returning {error.name} error to client for {txn_id}'s "
                f"EndTransaction request of {txn_marker_result.name}, since appending {new_metadata} to transaction "
                f"log with coordinator epoch {coordinator_epoch} failed"
            )
            if is_epoch_fence:
                current_state = self.txn_manager.get_transaction_state(txn_id)
                if current_state is None:
                    self.warn(
                        f"The coordinator still owns the transaction partition for {txn_id}, but there is no "
                        "metadata in the cache; this is not expected"
                    )
                elif not isinstance(current_state, Errors) and current_state.coordinator_epoch == coordinator_epoch:
                    # The fence's bumped epoch may not be in the log: the next fence must not bump again.
                    current_state.transaction_metadata.has_failed_epoch_fence = True
                    self.warn(
                        f"The coordinator failed to write an epoch fence transition for producer {txn_id} to the "
                        f"transaction log with error {error.name}. The epoch was increased to "
                        f"{new_metadata.producer_epoch} but not returned to the client"
                    )
            response_callback(error)

        self.txn_manager.append_transaction_to_log(txn_id, coordinator_epoch, new_metadata, send_txn_markers_callback)

    def _on_end_txn_appended(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        txn_marker_result: TransactionResult,
        coordinator_epoch: int,
        response_callback: EndTxnCallback,
    ) -> None:
        """The PrepareCommit/PrepareAbort is in the log: answer the client and hand the markers to the sender."""
        pre_send_result: Errors | tuple[TransactionMetadata, TxnTransitMetadata]
        state = self.txn_manager.get_transaction_state(transactional_id)
        if isinstance(state, Errors):
            pre_send_result = state
        elif state is None:
            error_msg = (
                f"The coordinator still owns the transaction partition for {transactional_id}, but there is no "
                "metadata in the cache; this is not expected"
            )
            self.fatal(error_msg)
            raise IllegalStateException(error_msg)
        elif state.coordinator_epoch != coordinator_epoch:
            self.debug(
                f"The transaction coordinator epoch has changed to {state.coordinator_epoch} after "
                f"{txn_marker_result.name} was successfully appended to the log for {transactional_id} with old "
                f"epoch {coordinator_epoch}"
            )
            pre_send_result = Errors.NOT_COORDINATOR
        else:
            txn_metadata = state.transaction_metadata
            with txn_metadata.lock:
                current = txn_metadata.state
                if txn_metadata.producer_id != producer_id:
                    pre_send_result = Errors.INVALID_PRODUCER_ID_MAPPING
                elif txn_metadata.producer_epoch != producer_epoch:
                    pre_send_result = Errors.PRODUCER_FENCED
                elif txn_metadata.pending_transition_in_progress:
                    pre_send_result = Errors.CONCURRENT_TRANSACTIONS
                elif current in (
                    TransactionState.Empty,
                    TransactionState.Ongoing,
                    TransactionState.CompleteCommit,
                    TransactionState.CompleteAbort,
                ):
                    pre_send_result = self._log_invalid_state_transition_and_return_error(
                        transactional_id, current, txn_marker_result
                    )
                elif current == TransactionState.PrepareCommit:
                    if txn_marker_result != TransactionResult.COMMIT:
                        pre_send_result = self._log_invalid_state_transition_and_return_error(
                            transactional_id, current, txn_marker_result
                        )
                    else:
                        pre_send_result = txn_metadata, txn_metadata.prepare_complete(self.time.milliseconds())
                elif current == TransactionState.PrepareAbort:
                    if txn_marker_result != TransactionResult.ABORT:
                        pre_send_result = self._log_invalid_state_transition_and_return_error(
                            transactional_id, current, txn_marker_result
                        )
                    else:
                        pre_send_result = txn_metadata, txn_metadata.prepare_complete(self.time.milliseconds())
                else:  # Dead, PrepareEpochFence
                    raise self._illegal_state(transactional_id, current)

        if isinstance(pre_send_result, Errors):
            self.info(
                f"Aborting sending of transaction markers after appended {txn_marker_result.name} to transaction log "
                f"and returning {pre_send_result.name} error to client for {transactional_id}'s EndTransaction request"
            )
            response_callback(pre_send_result)
        else:
            txn_metadata, new_pre_send_metadata = pre_send_result
            # The decision is durable: the client can go on while the markers are written.
            response_callback(Errors.NONE)
            self.txn_marker_channel_manager.add_txn_markers_to_send(
                coordinator_epoch, txn_marker_result, txn_metadata, new_pre_send_metadata
            )

    def transaction_topic_configs(self) -> dict[str, str]:
        return self.txn_manager.transaction_topic_configs()

    def partition_for(self, transactional_id: str) -> int:
        return self.txn_manager.partition_for(transactional_id)

    # ---- timed-out transactions --------------------------------------------------------------------------------

    def _on_end_transaction_complete(self, txn_id_and_pid_epoch: TransactionalIdAndProducerIdEpoch) -> EndTxnCallback:
        def callback(error: Errors) -> None:
            if error == Errors.NONE:
                self.info(
                    "Completed rollback of ongoing transaction for transactionalId "
                    f"{txn_id_and_pid_epoch.transactional_id} due to timeout"
                )
            elif error in (Errors.INVALID_PRODUCER_ID_MAPPING, Errors.PRODUCER_FENCED, Errors.CONCURRENT_TRANSACTIONS):
                self.debug(
                    f"Rollback of ongoing transaction for transactionalId {txn_id_and_pid_epoch.transactional_id} "
                    f"has been cancelled due to error {error.name}"
                )
            else:
                self.warn(
                    f"Rollback of ongoing transaction for transactionalId {txn_id_and_pid_epoch.transactional_id} "
                    f"failed due to error {error.name}"
                )

        return callback

    def abort_timed_out_transactions(
        self, on_complete: Callable[[TransactionalIdAndProducerIdEpoch], EndTxnCallback]
    ) -> None:
        """Fences the producer of each transaction open past its timeout and aborts the transaction."""
        for txn_id_and_pid_epoch in self.txn_manager.timed_out_transactions():
            state = self.txn_manager.get_transaction_state(txn_id_and_pid_epoch.transactional_id)
            if isinstance(state, Errors):
                continue
            if state is None:
                self.error(
                    f"Could not find transaction metadata when trying to timeout transaction for {txn_id_and_pid_epoch}"
                )
                continue
            txn_metadata = state.transaction_metadata
            transit_metadata: TxnTransitMetadata | None
            with txn_metadata.lock:
                if txn_metadata.producer_id != txn_id_and_pid_epoch.producer_id:
                    self.error(
                        "Found incorrect producerId when expiring transactionalId: "
                        f"{txn_id_and_pid_epoch.transactional_id}. Expected producerId: "
                        f"{txn_id_and_pid_epoch.producer_id}. Found producerId: {txn_metadata.producer_id}"
                    )
                    transit_metadata = None
                elif txn_metadata.pending_transition_in_progress:
                    self.debug(
                        f"Skipping abort of timed out transaction {txn_id_and_pid_epoch} since there is a pending "
                        "state transition"
                    )
                    transit_metadata = None
                else:
                    transit_metadata = txn_metadata.prepare_fence_producer_epoch()
            if transit_metadata is not None:
                self._end_transaction(
                    txn_metadata.transactional_id,
                    transit_metadata.producer_id,
                    transit_metadata.producer_epoch,
                    TransactionResult.ABORT,
                    False,
                    on_complete(txn_id_and_pid_epoch),
                )

    # ---- lifecycle ---------------------------------------------------------------------------------------------

    def startup(
        self,
        retrieve_transaction_topic_partition_count: Callable[[], int],
        enable_transactional_id_expiration: bool = True,
    ) -> None:
        self.info("Starting up.")
        self.scheduler.startup()
        self.scheduler.schedule(
            "transaction-abort",
            lambda: self.abort_timed_out_transactions(self._on_end_transaction_complete),
            self.txn_config.abort_timed_out_transactions_interval_ms,
            self.txn_config.abort_timed_out_transactions_interval_ms,
        )
        self.txn_manager.startup(retrieve_transaction_topic_partition_count, enable_transactional_id_expiration)
        self.txn_marker_channel_manager.start()
        self._is_active.set(True)
        self.info("Startup complete.")

    def shutdown(self) -> None:
        """Stops in the reverse order of startup."""
        self.info("Shutting down.")
        self._is_active.set(False)
        self.scheduler.shutdown()
        self.producer_id_manager.shutdown()
        self.txn_manager.shutdown()
        self.txn_marker_channel_manager.shutdown()
        self.info("Shutdown complete.")
