"""Port of core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala (Kafka 2.8).

The transaction coordinator's store: the metadata of every transactional id whose `__transaction_state`
partition this broker leads, and the code that keeps that cache and the log in step.

- Writes: a prepared transition (`TxnTransitMetadata`) is appended to the transactional id's partition
  through the ReplicaManager (acks -1, as a coordinator); only once the append is acknowledged, and only if
  the partition is still owned in the same coordinator epoch, is the transition applied to the cache.
- Loading: when the broker becomes leader of a partition, its log is read from start to end on the
  scheduler's thread; transactions found half-way through committing or aborting get their markers sent.
- Unloading: when it stops leading (or the partition is deleted), the partition's ids leave the cache.
- Periodic work: `transactionalId-expiration` writes tombstones for ids idle longer than
  transactional.id.expiration.ms (Empty or Complete* ones only); the coordinator asks
  `timed_out_transactions` which open transactions to abort.

Locks: `state_lock` (a read/write lock) guards the cache and the set of loading partitions. Its read lock is
taken before any TransactionMetadata's lock, never after; no TransactionMetadata lock is taken while holding
its write lock; and the ReplicaManager is never called with a TransactionMetadata lock held.

Also holds 3.7's `list_transaction_states`, used by ListTransactions.
"""

# Metrics: the partition-load-time-max/avg sensor in transaction-coordinator-metrics of the broker's `Metrics`.
# PORT: without a `metrics` (unit tests) the manager keeps a private Metrics.
# PORT: Kafka's two removeTransactionsForTxnTopicPartition overloads (local deletion without an epoch,
# become-follower with one) are one method whose coordinator epoch is None for the former.

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kafka.common.errors import KafkaException
from kafka.common.internals.topic import Topic
from kafka.common.message import ListTransactionsResponseData
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.max import Max
from kafka.common.protocol.errors import Errors
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.common.utils.utils import abs_int32, java_string_hash_code
from kafka.coordinator.coordinator_log import read_log_batches
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.coordinator.transaction import transaction_log
from kafka.coordinator.transaction.transaction_metadata import (
    TransactionMetadata,
    TransactionState,
    TxnTransitMetadata,
)
from kafka.log.log_config import LogConfig
from kafka.log.log_validator import Coordinator
from kafka.server.kafka_config import Defaults
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.kafka_scheduler import Scheduler
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool
from kafka.utils.read_write_lock import ReentrantReadWriteLock

__all__ = [
    "CoordinatorEpochAndTxnMetadata",
    "TransactionConfig",
    "TransactionPartitionAndLeaderEpoch",
    "TransactionStateManager",
    "TransactionalIdAndProducerIdEpoch",
    "TransactionalIdCoordinatorEpochAndMetadata",
    "TransactionalIdCoordinatorEpochAndTransitMetadata",
    "TxnMetadataCacheEntry",
]

# The companion object's defaults of the transaction coordinator's broker configs.
DEFAULT_TRANSACTIONS_MAX_TIMEOUT_MS: Final = 15 * 60 * 1000
DEFAULT_TRANSACTIONAL_ID_EXPIRATION_MS: Final = 7 * 24 * 60 * 60 * 1000
DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS: Final = 10 * 1000
DEFAULT_REMOVE_EXPIRED_TRANSACTIONAL_IDS_INTERVAL_MS: Final = 60 * 60 * 1000

_COORDINATOR: Final = Coordinator()
_UNCOMPRESSED_CODEC_NAME: Final = "uncompressed"

# Called for each transaction found in PrepareCommit/PrepareAbort when a partition is loaded:
# (coordinator epoch, result, the cached metadata, the transition to its Complete* state).
SendTxnMarkersCallback = Callable[[int, TransactionResult, TransactionMetadata, TxnTransitMetadata], None]


@dataclass(frozen=True, slots=True)
class TransactionConfig:
    """The transaction coordinator's settings, from the broker's transaction.* configs."""

    transactional_id_expiration_ms: int = DEFAULT_TRANSACTIONAL_ID_EXPIRATION_MS
    transaction_max_timeout_ms: int = DEFAULT_TRANSACTIONS_MAX_TIMEOUT_MS
    transaction_log_num_partitions: int = transaction_log.DEFAULT_NUM_PARTITIONS
    transaction_log_replication_factor: int = transaction_log.DEFAULT_REPLICATION_FACTOR
    transaction_log_segment_bytes: int = transaction_log.DEFAULT_SEGMENT_BYTES
    transaction_log_load_buffer_size: int = transaction_log.DEFAULT_LOAD_BUFFER_SIZE
    transaction_log_min_insync_replicas: int = transaction_log.DEFAULT_MIN_IN_SYNC_REPLICAS
    abort_timed_out_transactions_interval_ms: int = DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS
    remove_expired_transactional_ids_interval_ms: int = DEFAULT_REMOVE_EXPIRED_TRANSACTIONAL_IDS_INTERVAL_MS
    request_timeout_ms: int = Defaults.REQUEST_TIMEOUT_MS


@dataclass(frozen=True, slots=True)
class TxnMetadataCacheEntry:
    """The cached ids of one partition, with the coordinator epoch they were loaded in."""

    coordinator_epoch: int
    metadata_per_transactional_id: Pool[str, TransactionMetadata] = field(compare=False)

    def __str__(self) -> str:
        return (
            f"TxnMetadataCacheEntry(coordinatorEpoch={self.coordinator_epoch}, "
            f"numTransactionalEntries={self.metadata_per_transactional_id.size})"
        )


@dataclass(frozen=True, slots=True)
class CoordinatorEpochAndTxnMetadata:
    coordinator_epoch: int
    transaction_metadata: TransactionMetadata


@dataclass(frozen=True, slots=True)
class TransactionalIdAndProducerIdEpoch:
    transactional_id: str
    producer_id: int
    producer_epoch: int

    def __str__(self) -> str:
        return (
            f"(transactionalId={self.transactional_id}, producerId={self.producer_id}, "
            f"producerEpoch={self.producer_epoch})"
        )


@dataclass(frozen=True, slots=True)
class TransactionPartitionAndLeaderEpoch:
    txn_partition_id: int
    coordinator_epoch: int


@dataclass(frozen=True, slots=True)
class TransactionalIdCoordinatorEpochAndMetadata:
    transactional_id: str
    coordinator_epoch: int
    transit_metadata: TxnTransitMetadata


@dataclass(frozen=True, slots=True)
class TransactionalIdCoordinatorEpochAndTransitMetadata:
    transactional_id: str
    coordinator_epoch: int
    result: TransactionResult
    txn_metadata: TransactionMetadata
    transit_metadata: TxnTransitMetadata


def _option(value: object) -> str:
    return "None" if value is None else f"Some({value})"


def _append_error_to_coordinator_error(error: Errors) -> Errors:
    """The error a transactional client gets for a failed append to the transaction log."""
    if error in (
        Errors.UNKNOWN_TOPIC_OR_PARTITION,
        Errors.NOT_ENOUGH_REPLICAS,
        Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
        Errors.REQUEST_TIMED_OUT,  # retriable for the client, which then looks for the coordinator again
    ):
        return Errors.COORDINATOR_NOT_AVAILABLE
    if error in (Errors.NOT_LEADER_OR_FOLLOWER, Errors.KAFKA_STORAGE_ERROR):
        return Errors.NOT_COORDINATOR
    if error in (Errors.MESSAGE_TOO_LARGE, Errors.RECORD_LIST_TOO_LARGE):
        return Errors.UNKNOWN_SERVER_ERROR
    return error


class TransactionStateManager(Logging):
    """The cache of transactional ids of the `__transaction_state` partitions this broker leads; see the module
    docstring."""

    logger_name = "kafka.coordinator.transaction.TransactionStateManager"

    DEFAULT_TRANSACTIONS_MAX_TIMEOUT_MS: Final = DEFAULT_TRANSACTIONS_MAX_TIMEOUT_MS
    DEFAULT_TRANSACTIONAL_ID_EXPIRATION_MS: Final = DEFAULT_TRANSACTIONAL_ID_EXPIRATION_MS
    DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS: Final = DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS
    DEFAULT_REMOVE_EXPIRED_TRANSACTIONAL_IDS_INTERVAL_MS: Final = DEFAULT_REMOVE_EXPIRED_TRANSACTIONAL_IDS_INTERVAL_MS
    METRICS_GROUP: Final = "transaction-coordinator-metrics"
    LOAD_TIME_SENSOR: Final = "TransactionsPartitionLoadTime"

    def __init__(
        self,
        broker_id: int,
        scheduler: Scheduler,
        replica_manager: Any,
        config: TransactionConfig,
        time: Time,
        metrics: Metrics | None,
    ) -> None:
        self.broker_id = broker_id
        self.scheduler = scheduler
        self.replica_manager = replica_manager
        self.config = config
        self._time = time
        self.metrics: Metrics = metrics if metrics is not None else Metrics(time=time)
        self._partition_load_sensor = self.metrics.sensor(TransactionStateManager.LOAD_TIME_SENSOR)
        self._partition_load_sensor.add(
            self.metrics.metric_name(
                "partition-load-time-max",
                TransactionStateManager.METRICS_GROUP,
                "The max time it took to load the partitions in the last 30sec",
            ),
            Max(),
        )
        self._partition_load_sensor.add(
            self.metrics.metric_name(
                "partition-load-time-avg",
                TransactionStateManager.METRICS_GROUP,
                "The avg time it took to load the partitions in the last 30sec",
            ),
            Avg(),
        )
        self.log_ident = f"[Transaction State Manager {broker_id}]: "

        self._shutting_down = AtomicBoolean(False)
        # Guards the two collections below (see the module docstring for the lock order).
        self.state_lock = ReentrantReadWriteLock()
        # Partitions being loaded, with the coordinator epoch of the load.
        self.loading_partitions: set[TransactionPartitionAndLeaderEpoch] = set()
        # Partition id -> the ids cached for it.
        self.transaction_metadata_cache: dict[int, TxnMetadataCacheEntry] = {}
        self._retrieve_transaction_topic_partition_count: Callable[[], int] | None = None
        self._transaction_topic_partition_count = 0

    def add_loading_partition(self, partition_id: int, coordinator_epoch: int) -> None:
        """Marks a partition as loading in an epoch (for tests)."""
        with self.state_lock.write_lock:
            self.loading_partitions.add(TransactionPartitionAndLeaderEpoch(partition_id, coordinator_epoch))

    # ---- periodic work ------------------------------------------------------------------------------------

    def timed_out_transactions(self) -> list[TransactionalIdAndProducerIdEpoch]:
        """The Ongoing transactions open longer than their timeout, without a transition in flight.

        Best effort: the metadata locks are not taken, the caller rechecks under them before aborting."""
        now = self._time.milliseconds()
        with self.state_lock.read_lock:
            result: list[TransactionalIdAndProducerIdEpoch] = []
            for entry in self.transaction_metadata_cache.values():
                for txn_id, txn_metadata in entry.metadata_per_transactional_id.items():
                    if txn_metadata.pending_transition_in_progress:
                        continue
                    if (
                        txn_metadata.state is TransactionState.Ongoing
                        and txn_metadata.txn_start_timestamp + txn_metadata.txn_timeout_ms < now
                    ):
                        result.append(
                            TransactionalIdAndProducerIdEpoch(
                                txn_id, txn_metadata.producer_id, txn_metadata.producer_epoch
                            )
                        )
            return result

    def _remove_expired_transactional_ids_of(
        self, transaction_partition: TopicPartition, txn_metadata_cache_entry: TxnMetadataCacheEntry
    ) -> None:
        """Writes tombstones for the partition's expired ids, in batches no larger than the topic's
        max.message.bytes, and marks each of them pending Dead until its tombstone is acknowledged."""
        with self.state_lock.read_lock:
            log_config = self.replica_manager.get_log_config(transaction_partition)
            if log_config is None:
                self.warn(
                    f"Transaction expiration for partition {transaction_partition} failed because the log "
                    "config was not available, which likely means the partition is not online or is no longer "
                    "local."
                )
                return
            current_time_ms = self._time.milliseconds()
            max_batch_size = int(log_config.max_message_size)
            expired: list[TransactionalIdCoordinatorEpochAndMetadata] = []
            records_builder: MemoryRecordsBuilder | None = None

            def flush_records_builder() -> None:
                nonlocal records_builder
                assert records_builder is not None
                self._write_tombstones_for_expired_transactional_ids(
                    transaction_partition, list(expired), records_builder.build()
                )
                expired.clear()
                records_builder = None

            state_entries = _Peekable(iter(txn_metadata_cache_entry.metadata_per_transactional_id.values))
            while state_entries.has_next():
                txn_metadata = state_entries.head()
                transactional_id = txn_metadata.transactional_id
                full_batch = False
                with txn_metadata.lock:
                    if txn_metadata.pending_state is None and self._should_expire(txn_metadata, current_time_ms):
                        if records_builder is None:
                            records_builder = MemoryRecords.builder(
                                transaction_log.ENFORCED_COMPRESSION_TYPE,
                                TimestampType.CREATE_TIME,
                                0,
                                write_limit=max_batch_size,
                            )
                        if self._maybe_append_expiration(txn_metadata, records_builder, current_time_ms):
                            transit_metadata = txn_metadata.prepare_dead()
                            expired.append(
                                TransactionalIdCoordinatorEpochAndMetadata(
                                    transactional_id, txn_metadata_cache_entry.coordinator_epoch, transit_metadata
                                )
                            )
                        else:
                            full_batch = True
                if full_batch:
                    # The id is looked at again with a fresh batch.
                    flush_records_builder()
                else:
                    state_entries.next()
            if expired:
                flush_records_builder()

    def _should_expire(self, txn_metadata: TransactionMetadata, current_time_ms: int) -> bool:
        return (
            txn_metadata.state.is_expiration_allowed
            and txn_metadata.txn_last_update_timestamp <= current_time_ms - self.config.transactional_id_expiration_ms
        )

    def _maybe_append_expiration(
        self, txn_metadata: TransactionMetadata, records_builder: MemoryRecordsBuilder, current_time_ms: int
    ) -> bool:
        key_bytes = transaction_log.key_to_bytes(txn_metadata.transactional_id)
        if records_builder.has_room_for(current_time_ms, key_bytes, None):
            records_builder.append(current_time_ms, key_bytes, None)
            return True
        return False

    def remove_expired_transactional_ids(self) -> None:
        """The `transactionalId-expiration` task: tombstones for the expired ids of every cached partition."""
        with self.state_lock.read_lock:
            for partition_id, partition_cache_entry in list(self.transaction_metadata_cache.items()):
                transaction_partition = TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, partition_id)
                self._remove_expired_transactional_ids_of(transaction_partition, partition_cache_entry)

    def _write_tombstones_for_expired_transactional_ids(
        self,
        transaction_partition: TopicPartition,
        expired_for_partition: list[TransactionalIdCoordinatorEpochAndMetadata],
        tombstone_records: MemoryRecords,
    ) -> None:
        def remove_from_cache_callback(responses: Mapping[TopicPartition, PartitionResponse]) -> None:
            for topic_partition, response in responses.items():
                with self.state_lock.read_lock:
                    txn_metadata_cache_entry = self.transaction_metadata_cache.get(topic_partition.partition)
                    if txn_metadata_cache_entry is None:
                        continue
                    for id_coordinator_epoch_and_metadata in expired_for_partition:
                        transactional_id = id_coordinator_epoch_and_metadata.transactional_id
                        txn_metadata = txn_metadata_cache_entry.metadata_per_transactional_id.get(transactional_id)
                        if txn_metadata is None:
                            continue
                        with txn_metadata.lock:
                            if (
                                txn_metadata_cache_entry.coordinator_epoch
                                == id_coordinator_epoch_and_metadata.coordinator_epoch
                                and txn_metadata.pending_state is TransactionState.Dead
                                and txn_metadata.producer_epoch
                                == id_coordinator_epoch_and_metadata.transit_metadata.producer_epoch
                                and response.error is Errors.NONE
                            ):
                                txn_metadata_cache_entry.metadata_per_transactional_id.remove(transactional_id)
                            else:
                                self.warn(
                                    f"Failed to remove expired transactionalId: {transactional_id} from cache. "
                                    f"Tombstone append error code: {response.error.name}, "
                                    f"pendingState: {_option(txn_metadata.pending_state)}, "
                                    f"producerEpoch: {txn_metadata.producer_epoch}, expected producerEpoch: "
                                    f"{id_coordinator_epoch_and_metadata.transit_metadata.producer_epoch}, "
                                    f"coordinatorEpoch: {txn_metadata_cache_entry.coordinator_epoch}, expected "
                                    f"coordinatorEpoch: {id_coordinator_epoch_and_metadata.coordinator_epoch}"
                                )
                                txn_metadata.pending_state = None

        with self.state_lock.read_lock:
            self.replica_manager.append_records(
                timeout=self.config.request_timeout_ms,
                required_acks=transaction_log.ENFORCED_REQUIRED_ACKS,
                internal_topics_allowed=True,
                origin=_COORDINATOR,
                entries_per_partition={transaction_partition: tombstone_records},
                response_callback=remove_from_cache_callback,
            )

    def enable_transactional_id_expiration(self) -> None:
        self.scheduler.schedule(
            "transactionalId-expiration",
            self.remove_expired_transactional_ids,
            delay_ms=self.config.remove_expired_transactional_ids_interval_ms,
            period_ms=self.config.remove_expired_transactional_ids_interval_ms,
        )

    # ---- lookup -------------------------------------------------------------------------------------------

    def get_transaction_state(self, transactional_id: str) -> Errors | CoordinatorEpochAndTxnMetadata | None:
        """The id's metadata with the partition's coordinator epoch; None if unknown; NOT_COORDINATOR if the
        partition is not led here, COORDINATOR_LOAD_IN_PROGRESS while it loads."""
        return self._get_and_maybe_add_transaction_state(transactional_id, None)

    def put_transaction_state_if_not_exists(
        self, txn_metadata: TransactionMetadata
    ) -> Errors | CoordinatorEpochAndTxnMetadata:
        """Caches `txn_metadata` unless its id is cached already; returns the cached one (or the error)."""
        result = self._get_and_maybe_add_transaction_state(txn_metadata.transactional_id, txn_metadata)
        if result is None:
            raise IllegalStateException(f"Unexpected empty transaction metadata returned while putting {txn_metadata}")
        return result

    def list_transaction_states(
        self, filtered_producer_ids: set[int], filtered_states: set[str]
    ) -> ListTransactionsResponseData:
        """ListTransactions (Kafka 3.7): the cached ids, except Dead ones, filtered by producer id and state name
        (an empty filter lets everything through; unknown state names are reported back)."""
        with self.state_lock.read_lock:
            response = ListTransactionsResponseData()
            if self.loading_partitions:
                response.error_code = Errors.COORDINATOR_LOAD_IN_PROGRESS.code
                return response
            filter_states: set[TransactionState] = set()
            for state_name in filtered_states:
                state = TransactionState.from_name(state_name)
                if state is None:
                    response.unknown_state_filters.append(state_name)
                else:
                    filter_states.add(state)

            def should_include(txn_metadata: TransactionMetadata) -> bool:
                if txn_metadata.state is TransactionState.Dead:
                    # Dead ids are on their way out of the cache.
                    return False
                if filtered_producer_ids and txn_metadata.producer_id not in filtered_producer_ids:
                    return False
                return not (filtered_states and txn_metadata.state not in filter_states)

            states: list[ListTransactionsResponseData.TransactionState] = []
            for cache in self.transaction_metadata_cache.values():
                for txn_metadata in cache.metadata_per_transactional_id.values:
                    with txn_metadata.lock:
                        if should_include(txn_metadata):
                            states.append(
                                ListTransactionsResponseData.TransactionState(
                                    transactional_id=txn_metadata.transactional_id,
                                    producer_id=txn_metadata.producer_id,
                                    transaction_state=txn_metadata.state.name,
                                )
                            )
            response.error_code = Errors.NONE.code
            response.transaction_states = states
            return response

    def _get_and_maybe_add_transaction_state(
        self, transactional_id: str, created_txn_metadata: TransactionMetadata | None
    ) -> Errors | CoordinatorEpochAndTxnMetadata | None:
        with self.state_lock.read_lock:
            partition_id = self.partition_for(transactional_id)
            if any(p.txn_partition_id == partition_id for p in self.loading_partitions):
                return Errors.COORDINATOR_LOAD_IN_PROGRESS
            cache_entry = self.transaction_metadata_cache.get(partition_id)
            if cache_entry is None:
                return Errors.NOT_COORDINATOR
            txn_metadata = cache_entry.metadata_per_transactional_id.get(transactional_id)
            if txn_metadata is None and created_txn_metadata is not None:
                current = cache_entry.metadata_per_transactional_id.put_if_not_exists(
                    transactional_id, created_txn_metadata
                )
                txn_metadata = created_txn_metadata if current is None else current
            if txn_metadata is None:
                return None
            return CoordinatorEpochAndTxnMetadata(cache_entry.coordinator_epoch, txn_metadata)

    def is_coordinator_loading_in_progress(self, transactional_id: str) -> bool:
        """Whether the id's partition is being loaded."""
        with self.state_lock.read_lock:
            partition_id = self.partition_for(transactional_id)
            return any(p.txn_partition_id == partition_id for p in self.loading_partitions)

    def validate_transaction_timeout_ms(self, txn_timeout_ms: int) -> bool:
        return 0 < txn_timeout_ms <= self.config.transaction_max_timeout_ms

    def transaction_topic_configs(self) -> dict[str, str]:
        """The topic configs `__transaction_state` is created with: compacted, uncompressed, no unclean
        leader election."""
        return {
            LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP: "false",
            LogConfig.COMPRESSION_TYPE_PROP: _UNCOMPRESSED_CODEC_NAME,
            LogConfig.CLEANUP_POLICY_PROP: LogConfig.COMPACT,
            LogConfig.MIN_IN_SYNC_REPLICAS_PROP: str(self.config.transaction_log_min_insync_replicas),
            LogConfig.SEGMENT_BYTES_PROP: str(self.config.transaction_log_segment_bytes),
        }

    def partition_for(self, transactional_id: str) -> int:
        """The `__transaction_state` partition of an id, computed exactly as Kafka does."""
        return abs_int32(java_string_hash_code(transactional_id)) % self._transaction_topic_partition_count

    # ---- loading ------------------------------------------------------------------------------------------

    def _load_transaction_metadata(
        self, topic_partition: TopicPartition, coordinator_epoch: int
    ) -> Pool[str, TransactionMetadata]:
        """Reads the partition's log from start to end (while this load is still wanted); the last value of each
        id wins and a tombstone removes it. A read failure is logged and leaves what was read so far."""

        def log_end_offset() -> int:
            leo = self.replica_manager.get_log_end_offset(topic_partition)
            return -1 if leo is None else int(leo)

        def still_loading() -> bool:
            with self.state_lock.read_lock:
                return (
                    TransactionPartitionAndLeaderEpoch(topic_partition.partition, coordinator_epoch)
                    in self.loading_partitions
                )

        loaded_transactions: Pool[str, TransactionMetadata] = Pool()
        log = self.replica_manager.get_log(topic_partition)
        if log is None:
            self.warn(f"Attempted to load transaction metadata from {topic_partition}, but found no log")
            return loaded_transactions

        load_buffer_size = self.config.transaction_log_load_buffer_size

        def buffer_grown(bytes_needed: int) -> None:
            self.warn(
                f"Loaded transaction metadata from {topic_partition} with buffer larger ({bytes_needed} bytes) than "
                f"configured transaction.state.log.load.buffer.size ({load_buffer_size} bytes)"
            )

        def keep_loading() -> bool:
            return not self._shutting_down.get() and still_loading()

        # The loop ends when the leader changes (the log end reads -1), at the log end, on shutdown, or when
        # the partition is no longer loading in this epoch.
        try:
            for batch in read_log_batches(
                log, topic_partition, load_buffer_size, log_end_offset, keep_loading, buffer_grown
            ):
                for record in batch:
                    key = record.key()
                    if key is None:
                        raise ValueError("requirement failed: Transaction state log's key should not be null")
                    txn_key = transaction_log.read_txn_record_key(key)
                    transactional_id = txn_key.transactional_id
                    txn_metadata = transaction_log.read_txn_record_value(transactional_id, record.value())
                    if txn_metadata is None:
                        loaded_transactions.remove(transactional_id)
                    else:
                        loaded_transactions.put(transactional_id, txn_metadata)
        except Exception as t:  # Kafka catches Throwable: what was read so far is still used
            self.error(f"Error loading transactions from transaction log {topic_partition}", t)
        return loaded_transactions

    def add_loaded_transactions_to_cache(
        self, txn_topic_partition: int, coordinator_epoch: int, loaded_transactions: Pool[str, TransactionMetadata]
    ) -> None:
        """Caches a partition's ids in an epoch (replacing what was cached for it)."""
        txn_metadata_cache_entry = TxnMetadataCacheEntry(coordinator_epoch, loaded_transactions)
        previous = self.transaction_metadata_cache.get(txn_topic_partition)
        self.transaction_metadata_cache[txn_topic_partition] = txn_metadata_cache_entry
        if previous is not None:
            self.warn(
                f"Unloaded transaction metadata {previous} from {txn_topic_partition} as part of loading metadata "
                f"at epoch {coordinator_epoch}"
            )

    def load_transactions_for_txn_topic_partition(
        self, partition_id: int, coordinator_epoch: int, send_txn_markers: SendTxnMarkersCallback
    ) -> None:
        """Loads a partition this broker now leads on the scheduler thread; transactions found in PrepareCommit
        or PrepareAbort are handed to `send_txn_markers` to be completed. Resilient to whatever an earlier
        load or unload left behind."""
        topic_partition = TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, partition_id)
        partition_and_leader_epoch = TransactionPartitionAndLeaderEpoch(partition_id, coordinator_epoch)

        with self.state_lock.write_lock:
            self.loading_partitions.add(partition_and_leader_epoch)

        def load_transactions(start_time_ms: int) -> None:
            scheduler_time_ms = self._time.milliseconds() - start_time_ms
            self.info(f"Loading transaction metadata from {topic_partition} at epoch {coordinator_epoch}")
            self._validate_transaction_topic_partition_count_is_stable()

            loaded_transactions = self._load_transaction_metadata(topic_partition, coordinator_epoch)
            end_time_ms = self._time.milliseconds()
            total_loading_time_ms = end_time_ms - start_time_ms
            self._partition_load_sensor.record(float(total_loading_time_ms), end_time_ms, False)
            self.info(
                f"Finished loading {loaded_transactions.size} transaction metadata from {topic_partition} in "
                f"{total_loading_time_ms} milliseconds, of which {scheduler_time_ms} milliseconds was spent in the "
                "scheduler."
            )

            transactions_pending_for_completion: list[TransactionalIdCoordinatorEpochAndTransitMetadata] = []
            with self.state_lock.write_lock:
                if partition_and_leader_epoch not in self.loading_partitions:
                    # Unloaded (or reloaded in another epoch) while this load ran: nothing to cache.
                    return
                self.add_loaded_transactions_to_cache(topic_partition.partition, coordinator_epoch, loaded_transactions)
                for transactional_id, txn_metadata in loaded_transactions.items():
                    # These objects were created by this load and are cached only now, so taking their locks
                    # under the write lock cannot wait on another thread.
                    with txn_metadata.lock:
                        if txn_metadata.state is TransactionState.PrepareAbort:
                            result = TransactionResult.ABORT
                        elif txn_metadata.state is TransactionState.PrepareCommit:
                            result = TransactionResult.COMMIT
                        else:
                            continue
                        transit = txn_metadata.prepare_complete(self._time.milliseconds())
                    transactions_pending_for_completion.append(
                        TransactionalIdCoordinatorEpochAndTransitMetadata(
                            transactional_id, coordinator_epoch, result, txn_metadata, transit
                        )
                    )
                # Leave the loading state before the markers go out, so that the completing appends they lead
                # to are not refused as COORDINATOR_LOAD_IN_PROGRESS.
                self.loading_partitions.discard(partition_and_leader_epoch)

                for pending in transactions_pending_for_completion:
                    send_txn_markers(
                        pending.coordinator_epoch, pending.result, pending.txn_metadata, pending.transit_metadata
                    )

            self.info(
                f"Completed loading transaction metadata from {topic_partition} for coordinator epoch "
                f"{coordinator_epoch}"
            )

        schedule_start_ms = self._time.milliseconds()
        self.scheduler.schedule(
            f"load-txns-for-partition-{topic_partition}", lambda: load_transactions(schedule_start_ms)
        )

    # ---- unloading ----------------------------------------------------------------------------------------

    def remove_transactions_for_txn_topic_partition(self, partition_id: int, coordinator_epoch: int | None) -> None:
        """Drops a partition's ids from the cache and stops its load. With a coordinator epoch: this broker
        became a follower (only the load of that epoch stops); without: the partition was deleted here (any
        load stops)."""
        topic_partition = TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, partition_id)
        with self.state_lock.write_lock:
            if coordinator_epoch is None:
                self.loading_partitions -= {p for p in self.loading_partitions if p.txn_partition_id == partition_id}
                removed = self.transaction_metadata_cache.pop(partition_id, None)
                if removed is not None:
                    self.info(
                        f"Unloaded transaction metadata {removed} for {topic_partition} following local partition "
                        "deletion"
                    )
                return
            self.loading_partitions.discard(TransactionPartitionAndLeaderEpoch(partition_id, coordinator_epoch))
            removed = self.transaction_metadata_cache.pop(partition_id, None)
            if removed is not None:
                self.info(
                    f"Unloaded transaction metadata {removed} for {topic_partition} on become-follower transition"
                )
            else:
                self.info(
                    f"No cached transaction metadata found for {topic_partition} during become-follower transition"
                )

    def _validate_transaction_topic_partition_count_is_stable(self) -> None:
        assert self._retrieve_transaction_topic_partition_count is not None
        previously_determined_partition_count = self._transaction_topic_partition_count
        cur_transaction_topic_partition_count = self._retrieve_transaction_topic_partition_count()
        if previously_determined_partition_count != cur_transaction_topic_partition_count:
            raise KafkaException(
                "Transaction topic number of partitions has changed from "
                f"{previously_determined_partition_count} to {cur_transaction_topic_partition_count}"
            )

    # ---- writes -------------------------------------------------------------------------------------------

    def append_transaction_to_log(
        self,
        transactional_id: str,
        coordinator_epoch: int,
        new_metadata: TxnTransitMetadata,
        response_callback: Callable[[Errors], None],
        retry_on_error: Callable[[Errors], bool] = lambda _e: False,
    ) -> None:
        """Appends a prepared transition to the id's partition and, once acknowledged, applies it to the cached
        metadata if the partition is still owned in `coordinator_epoch`; answers with the outcome as an error a
        transactional client understands. On failure the pending state is cleared, unless `retry_on_error`
        says the caller will retry the same transition."""
        key_bytes = transaction_log.key_to_bytes(transactional_id)
        value_bytes = transaction_log.value_to_bytes(new_metadata)
        timestamp = self._time.milliseconds()

        records = MemoryRecords.with_records(
            transaction_log.ENFORCED_COMPRESSION_TYPE, SimpleRecord(timestamp, key_bytes, value_bytes)
        )
        topic_partition = TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, self.partition_for(transactional_id))
        records_per_partition = {topic_partition: records}

        def update_cache_callback(response_status: Mapping[TopicPartition, PartitionResponse]) -> None:
            if len(response_status) != 1 or topic_partition not in response_status:
                raise IllegalStateException(
                    f"Append status {dict(response_status)} should only have one partition {topic_partition}"
                )
            status = response_status[topic_partition]
            if status.error is Errors.NONE:
                response_error = Errors.NONE
            else:
                self.debug(
                    f"Appending {transactional_id}'s new metadata {new_metadata} failed due to "
                    f"{status.error.exception_name()}"
                )
                response_error = _append_error_to_coordinator_error(status.error)

            if response_error is Errors.NONE:
                # The cached object is changed in place, so that every holder of it sees the new state.
                state = self.get_transaction_state(transactional_id)
                if isinstance(state, Errors):
                    self.info(
                        f"Accessing the cached transaction metadata for {transactional_id} returns {state.name} "
                        "error; aborting transition to the new metadata and setting the error in the callback"
                    )
                    response_error = state
                elif state is None:
                    # The partition moved away; the client looks for the coordinator again.
                    self.info(
                        f"The cached coordinator metadata does not exist in the cache anymore for {transactional_id} "
                        f"after appended its new metadata {new_metadata} to the transaction log (txn topic partition "
                        f"{self.partition_for(transactional_id)}) while it was {coordinator_epoch} before appending; "
                        f"aborting transition to the new metadata and returning {Errors.NOT_COORDINATOR.name} in the "
                        "callback"
                    )
                    response_error = Errors.NOT_COORDINATOR
                else:
                    metadata = state.transaction_metadata
                    with metadata.lock:
                        if state.coordinator_epoch != coordinator_epoch:
                            # The partition moved away and back in between: the client looks for the
                            # coordinator again.
                            self.info(
                                f"The cached coordinator epoch for {transactional_id} has changed to "
                                f"{state.coordinator_epoch} after appended its new metadata {new_metadata} to the "
                                f"transaction log (txn topic partition {self.partition_for(transactional_id)}) while "
                                f"it was {coordinator_epoch} before appending; aborting transition to the new "
                                f"metadata and returning {Errors.NOT_COORDINATOR.name} in the callback"
                            )
                            response_error = Errors.NOT_COORDINATOR
                        else:
                            metadata.complete_transition_to(new_metadata)
                            self.debug(
                                f"Updating {transactional_id}'s transaction state to {new_metadata} with coordinator "
                                f"epoch {coordinator_epoch} for {transactional_id} succeeded"
                            )
            else:
                # No transition happened: clear the pending state (unless the caller retries the same one).
                state = self.get_transaction_state(transactional_id)
                if isinstance(state, Errors):
                    self.info(
                        f"TransactionalId {transactional_id} append transaction log for {new_metadata} transition "
                        f"failed due to {response_error.name}, aborting state transition and returning the error in "
                        f"the callback since retrieving metadata returned {state.name}"
                    )
                elif state is None:
                    self.info(
                        f"TransactionalId {transactional_id} append transaction log for {new_metadata} transition "
                        f"failed due to {response_error.name}, aborting state transition and returning the error in "
                        "the callback since metadata is not available in the cache anymore"
                    )
                else:
                    metadata = state.transaction_metadata
                    with metadata.lock:
                        if state.coordinator_epoch == coordinator_epoch:
                            if retry_on_error(response_error):
                                self.info(
                                    f"TransactionalId {metadata.transactional_id} append transaction log for "
                                    f"{new_metadata} transition failed due to {response_error.name}, not resetting "
                                    f"pending state {_option(metadata.pending_state)} but just returning the error "
                                    "in the callback to let the caller retry"
                                )
                            else:
                                self.info(
                                    f"TransactionalId {metadata.transactional_id} append transaction log for "
                                    f"{new_metadata} transition failed due to {response_error.name}, resetting "
                                    f"pending state from {_option(metadata.pending_state)}, aborting state "
                                    f"transition and returning {response_error.name} in the callback"
                                )
                                metadata.pending_state = None
                        else:
                            self.info(
                                f"TransactionalId {metadata.transactional_id} append transaction log for "
                                f"{new_metadata} transition failed due to {response_error.name}, aborting state "
                                "transition and returning the error in the callback since the coordinator epoch "
                                f"has changed from {state.coordinator_epoch} to {coordinator_epoch}"
                            )

            response_callback(response_error)

        # The read lock is held until the append returns: otherwise the partition could move away and back
        # between the epoch check and the append, and a record of the old epoch could land after ones of the
        # new epoch.
        with self.state_lock.read_lock:
            state = self.get_transaction_state(transactional_id)
            if isinstance(state, Errors):
                response_callback(state)
            elif state is None:
                # The id's metadata left the cache: the client looks for the coordinator again.
                response_callback(Errors.NOT_COORDINATOR)
            else:
                with state.transaction_metadata.lock:
                    # The metadata itself needs no check: nothing else changes it in the same coordinator epoch.
                    append = state.coordinator_epoch == coordinator_epoch
                if not append:
                    response_callback(Errors.NOT_COORDINATOR)
                else:
                    self.replica_manager.append_records(
                        timeout=new_metadata.txn_timeout_ms,
                        required_acks=transaction_log.ENFORCED_REQUIRED_ACKS,
                        internal_topics_allowed=True,
                        origin=_COORDINATOR,
                        entries_per_partition=records_per_partition,
                        response_callback=update_cache_callback,
                    )
                    if self.is_trace_enabled():
                        self.trace(
                            f"Appending new metadata {new_metadata} for transaction id {transactional_id} with "
                            f"coordinator epoch {coordinator_epoch} to the local transaction log"
                        )

    # ---- lifecycle ----------------------------------------------------------------------------------------

    def startup(
        self, retrieve_transaction_topic_partition_count: Callable[[], int], enable_transactional_id_expiration: bool
    ) -> None:
        self._retrieve_transaction_topic_partition_count = retrieve_transaction_topic_partition_count
        self._transaction_topic_partition_count = retrieve_transaction_topic_partition_count()
        if enable_transactional_id_expiration:
            self.enable_transactional_id_expiration()

    def shutdown(self) -> None:
        """Stops loads in progress and empties the cache (the scheduler is the broker's, stopped by its owner)."""
        self._shutting_down.set(True)
        with self.state_lock.write_lock:
            self.loading_partitions.clear()
            self.transaction_metadata_cache.clear()
        self.info("Shutdown complete")


class _Peekable:
    """An iterator that can look at its next element without taking it (Scala's BufferedIterator)."""

    __slots__ = ("_head", "_has_head", "_it")

    def __init__(self, it: Iterator[TransactionMetadata]) -> None:
        self._it = it
        self._head: TransactionMetadata | None = None
        self._has_head = False

    def has_next(self) -> bool:
        if not self._has_head:
            try:
                self._head = next(self._it)
            except StopIteration:
                return False
            self._has_head = True
        return True

    def head(self) -> TransactionMetadata:
        if not self.has_next():
            raise StopIteration
        assert self._head is not None
        return self._head

    def next(self) -> TransactionMetadata:
        value = self.head()
        self._has_head = False
        self._head = None
        return value
