"""Tests for kafka.coordinator.transaction.transaction_state_manager, after Kafka's TransactionStateManagerTest.

The transaction log is real: the group coordinator tests' fake ReplicaManager keeps each `__transaction_state`
partition in a real Log under tmp_path, so appends write real bytes and loads read them back.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import KafkaException
from kafka.common.internals.topic import Topic
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.coordinator.transaction import transaction_log
from kafka.coordinator.transaction.transaction_metadata import (
    TransactionMetadata,
    TransactionState,
    TxnTransitMetadata,
)
from kafka.coordinator.transaction.transaction_state_manager import (
    CoordinatorEpochAndTxnMetadata,
    TransactionalIdAndProducerIdEpoch,
    TransactionConfig,
    TransactionPartitionAndLeaderEpoch,
    TransactionStateManager,
)
from kafka.log.log_validator import Coordinator
from kafka.server.fetch_data_info import FetchLogEnd
from kafka.utils.mock_scheduler import MockScheduler
from kafka.utils.pool import Pool
from tests.unit.kafka.coordinator.group.offsets_topic_fake import FakeReplicaManager
from tests.utils import wait_until_true

START_MS = 1_700_000_000_000
NUM_PARTITIONS = 2
PARTITION_ID = 0
COORDINATOR_EPOCH = 10
TRANSACTION_TIMEOUT_MS = 1000
TXN_ID1 = "one"  # Java hash 110182: partition 0 of 2
TXN_ID2 = "two"  # Java hash 115276: partition 0 of 2
S = TransactionState


def txn_tp(partition: int) -> TopicPartition:
    return TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, partition)


class TxnLogReplicaManager(FakeReplicaManager):
    """The internal-topic fake hosting `__transaction_state` partitions (real logs), with overrides of the log and
    its end offset for the loading tests."""

    def __init__(self, log_dir: Path, time: MockTime, scheduler: MockScheduler, log_props: dict[str, Any]) -> None:
        super().__init__(log_dir, time, scheduler, NUM_PARTITIONS, log_props, Topic.TRANSACTION_STATE_TOPIC_NAME)
        self.log_end_offset_override: int | None = None
        self.log_override: Any = None

    def get_log(self, tp: TopicPartition) -> Any:
        if self.log_override is not None and tp in self.hosted:
            return self.log_override
        return super().get_log(tp)

    def get_log_end_offset(self, tp: TopicPartition) -> int | None:
        if self.log_end_offset_override is not None:
            return self.log_end_offset_override
        return super().get_log_end_offset(tp)

    def appended_batches(self, partition: int) -> list[MemoryRecords]:
        """What append_records was asked to write to a partition, call by call."""
        return [call.entries[txn_tp(partition)] for call in self.calls if txn_tp(partition) in call.entries]


class Env:
    def __init__(self, tmp_path: Path, log_props: dict[str, Any] | None = None) -> None:
        self.time = MockTime(start_ms=START_MS)
        self.scheduler = MockScheduler(self.time)
        self.rm = TxnLogReplicaManager(tmp_path, self.time, self.scheduler, log_props or {})
        self.config = TransactionConfig()
        self.managers: list[TransactionStateManager] = []
        self.manager = self.new_manager()
        self.txn_metadata1 = self.metadata(TXN_ID1, 1)
        self.txn_metadata2 = self.metadata(TXN_ID2, 2)

    def new_manager(self, enable_expiration: bool = False) -> TransactionStateManager:
        manager = TransactionStateManager(0, MockScheduler(self.time), self.rm, self.config, self.time, None)
        manager.startup(lambda: NUM_PARTITIONS, enable_expiration)
        self.managers.append(manager)
        return manager

    def metadata(
        self,
        transactional_id: str,
        producer_id: int,
        state: TransactionState = S.Empty,
        txn_timeout: int = TRANSACTION_TIMEOUT_MS,
    ) -> TransactionMetadata:
        return TransactionMetadata.create(
            transactional_id, producer_id, 0, txn_timeout, self.time.milliseconds(), state
        )

    def cache(self, partition: int = PARTITION_ID, epoch: int = COORDINATOR_EPOCH) -> None:
        self.manager.add_loaded_transactions_to_cache(partition, epoch, Pool())

    def append(self, transactional_id: str, epoch: int, transit: TxnTransitMetadata, **kwargs: Any) -> list[Errors]:
        errors: list[Errors] = []
        self.manager.append_transaction_to_log(transactional_id, epoch, transit, errors.append, **kwargs)
        return errors

    def write_log(self, *values: tuple[str, TxnTransitMetadata | None], partition: int = PARTITION_ID) -> None:
        records = [
            SimpleRecord(
                self.time.milliseconds(),
                transaction_log.key_to_bytes(tid),
                None if transit is None else transaction_log.value_to_bytes(transit),
            )
            for tid, transit in values
        ]
        self.rm.append(partition, MemoryRecords.with_records(CompressionType.NONE, *records))

    def close(self) -> None:
        for manager in self.managers:
            manager.shutdown()
        self.rm.close()


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    e = Env(tmp_path)
    assert e.manager.partition_for(TXN_ID1) == PARTITION_ID
    assert e.manager.partition_for(TXN_ID2) == PARTITION_ID
    yield e
    e.close()


def no_markers(_epoch: int, _result: TransactionResult, _md: TransactionMetadata, _transit: TxnTransitMetadata) -> None:
    pass


# ---- configuration and lookup --------------------------------------------------------------------------------


def test_validate_transaction_timeout(env: Env) -> None:
    """Timeouts must be positive and at most transaction.max.timeout.ms."""
    manager = env.manager
    assert manager.validate_transaction_timeout_ms(1)
    assert not manager.validate_transaction_timeout_ms(-1)
    assert not manager.validate_transaction_timeout_ms(0)
    assert manager.validate_transaction_timeout_ms(env.config.transaction_max_timeout_ms)
    assert not manager.validate_transaction_timeout_ms(env.config.transaction_max_timeout_ms + 1)


def test_config_defaults_and_topic_configs(env: Env) -> None:
    """Kafka's defaults, and the topic configs __transaction_state is created with."""
    config = TransactionConfig()
    assert config.transactional_id_expiration_ms == 7 * 24 * 3600 * 1000
    assert config.transaction_max_timeout_ms == 15 * 60 * 1000
    assert config.transaction_log_num_partitions == 50
    assert config.transaction_log_replication_factor == 3
    assert config.transaction_log_segment_bytes == 100 * 1024 * 1024
    assert config.transaction_log_load_buffer_size == 5 * 1024 * 1024
    assert config.transaction_log_min_insync_replicas == 2
    assert config.abort_timed_out_transactions_interval_ms == 10_000
    assert config.remove_expired_transactional_ids_interval_ms == 3_600_000
    assert config.request_timeout_ms == 30_000
    assert env.manager.transaction_topic_configs() == {
        "unclean.leader.election.enable": "false",
        "compression.type": "uncompressed",
        "cleanup.policy": "compact",
        "min.insync.replicas": "2",
        "segment.bytes": str(100 * 1024 * 1024),
    }


def test_add_get_pids(env: Env) -> None:
    """An unknown id reads as None; a put caches it once, later puts return the cached one."""
    env.cache()
    manager = env.manager
    assert manager.get_transaction_state(TXN_ID1) is None
    assert manager.put_transaction_state_if_not_exists(env.txn_metadata1) == CoordinatorEpochAndTxnMetadata(
        COORDINATOR_EPOCH, env.txn_metadata1
    )
    assert manager.get_transaction_state(TXN_ID1) == CoordinatorEpochAndTxnMetadata(
        COORDINATOR_EPOCH, env.txn_metadata1
    )
    other = env.metadata(TXN_ID1, 99)
    cached = manager.put_transaction_state_if_not_exists(other)
    assert isinstance(cached, CoordinatorEpochAndTxnMetadata)
    assert cached.transaction_metadata is env.txn_metadata1
    assert manager.put_transaction_state_if_not_exists(env.txn_metadata2) == CoordinatorEpochAndTxnMetadata(
        COORDINATOR_EPOCH, env.txn_metadata2
    )


def test_not_coordinator_if_partition_not_owned(env: Env) -> None:
    assert env.manager.get_transaction_state(TXN_ID1) is Errors.NOT_COORDINATOR
    assert env.manager.put_transaction_state_if_not_exists(env.txn_metadata1) is Errors.NOT_COORDINATOR


def test_delete_partition(env: Env) -> None:
    """Removing a partition without an epoch (local deletion) drops only that partition's ids."""
    manager = env.manager
    metadata1 = env.metadata("b", 5)
    metadata2 = env.metadata("a", 10)
    assert manager.partition_for("b") == 0
    assert manager.partition_for("a") == 1
    env.cache(0)
    manager.put_transaction_state_if_not_exists(metadata1)
    env.cache(1)
    manager.put_transaction_state_if_not_exists(metadata2)

    manager.remove_transactions_for_txn_topic_partition(0, None)

    assert manager.get_transaction_state("b") is Errors.NOT_COORDINATOR
    assert manager.get_transaction_state("a") == CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, metadata2)


# ---- loading and unloading -----------------------------------------------------------------------------------


def test_load_and_remove_transactions_for_partition(env: Env) -> None:
    """Loading replays the log (the last value of each id wins); a become-follower removal drops the ids again."""
    m1, m2 = env.txn_metadata1, env.txn_metadata2
    m1.state = S.Ongoing
    m1.add_partitions({TopicPartition("topic1", 0), TopicPartition("topic1", 1)})
    values: list[tuple[str, TxnTransitMetadata | None]] = [(TXN_ID1, m1.prepare_no_transit())]
    m1.add_partitions({TopicPartition("topic2", 0), TopicPartition("topic2", 1), TopicPartition("topic2", 2)})
    values.append((TXN_ID1, m1.prepare_no_transit()))
    m1.state = S.PrepareCommit
    values.append((TXN_ID1, m1.prepare_no_transit()))
    m2.state = S.Ongoing
    m2.add_partitions({TopicPartition("topic3", 0), TopicPartition("topic3", 1), TopicPartition("topic3", 2)})
    values.append((TXN_ID2, m2.prepare_no_transit()))
    m2.state = S.PrepareAbort
    values.append((TXN_ID2, m2.prepare_no_transit()))
    m2.state = S.CompleteAbort
    values.append((TXN_ID2, m2.prepare_no_transit()))
    m2.state = S.Empty
    m2.topic_partitions.clear()
    values.append((TXN_ID2, m2.prepare_no_transit()))
    # Some other records first, so the load does not start at offset 0 of its data.
    env.write_log(("three", env.metadata("three", 7).prepare_no_transit()), ("three", None))
    env.write_log(*values[:3])
    env.write_log(*values[3:])

    manager = env.manager
    assert manager.get_transaction_state(TXN_ID1) is Errors.NOT_COORDINATOR
    markers: list[tuple[int, TransactionResult, str, TransactionState]] = []
    manager.load_transactions_for_txn_topic_partition(
        PARTITION_ID, 0, lambda e, r, md, t: markers.append((e, r, md.transactional_id, t.txn_state))
    )

    cached1 = manager.get_transaction_state(TXN_ID1)
    cached2 = manager.get_transaction_state(TXN_ID2)
    assert isinstance(cached1, CoordinatorEpochAndTxnMetadata) and isinstance(cached2, CoordinatorEpochAndTxnMetadata)
    assert cached1.coordinator_epoch == 0
    assert cached1.transaction_metadata == m1
    assert cached2.transaction_metadata == m2
    assert manager.get_transaction_state("three") is None  # deleted by its tombstone
    # The PrepareCommit transaction is completed: its markers are asked for, its metadata pends CompleteCommit.
    assert markers == [(0, TransactionResult.COMMIT, TXN_ID1, S.CompleteCommit)]
    assert cached1.transaction_metadata.pending_state is S.CompleteCommit
    assert not manager.loading_partitions

    manager.remove_transactions_for_txn_topic_partition(PARTITION_ID, COORDINATOR_EPOCH)
    assert manager.get_transaction_state(TXN_ID1) is Errors.NOT_COORDINATOR
    assert manager.get_transaction_state(TXN_ID2) is Errors.NOT_COORDINATOR


@pytest.mark.parametrize(
    ("state", "result"), [(S.PrepareCommit, TransactionResult.COMMIT), (S.PrepareAbort, TransactionResult.ABORT)]
)
def test_writes_txn_markers_for_prepared_transactions(
    env: Env, state: TransactionState, result: TransactionResult
) -> None:
    """A loaded transaction half-way through ending gets its markers sent, after the partition stops loading."""
    env.txn_metadata1.state = state
    env.txn_metadata1.add_partitions({TopicPartition("topic1", 0), TopicPartition("topic1", 1)})
    env.write_log((TXN_ID1, env.txn_metadata1.prepare_no_transit()))
    seen: list[Any] = []

    def remember(epoch: int, res: TransactionResult, md: TransactionMetadata, transit: TxnTransitMetadata) -> None:
        seen.append((epoch, res, md.transactional_id, frozenset(md.topic_partitions), transit.txn_state))
        # The partition is no longer loading when the markers go out.
        assert env.manager.get_transaction_state(TXN_ID1) is not Errors.COORDINATOR_LOAD_IN_PROGRESS

    env.manager.load_transactions_for_txn_topic_partition(PARTITION_ID, 3, remember)
    complete = S.CompleteCommit if result is TransactionResult.COMMIT else S.CompleteAbort
    assert seen == [(3, result, TXN_ID1, frozenset(env.txn_metadata1.topic_partitions), complete)]


def test_delete_loading_partition(env: Env) -> None:
    """A partition deleted while its load reads the log ends up not loaded (NOT_COORDINATOR, not cached)."""
    env.txn_metadata1.state = S.PrepareCommit
    env.txn_metadata1.add_partitions({TopicPartition("topic1", 0)})
    env.write_log((TXN_ID1, env.txn_metadata1.prepare_no_transit()))
    real_log = env.rm.log(PARTITION_ID)
    release = threading.Event()

    class BlockingLog:
        log_start_offset = real_log.log_start_offset

        def read(self, *args: Any) -> Any:
            release.wait(10)
            return real_log.read(*args)

    env.rm.log_override = BlockingLog()
    manager = env.manager
    markers: list[str] = []
    loader = threading.Thread(
        target=manager.load_transactions_for_txn_topic_partition,
        args=(PARTITION_ID, 0, lambda e, r, md, t: markers.append(md.transactional_id)),
    )
    loader.start()
    try:
        wait_until_true(
            lambda: TransactionPartitionAndLeaderEpoch(PARTITION_ID, 0) in manager.loading_partitions,
            "the load did not start",
        )
        assert manager.get_transaction_state(TXN_ID1) is Errors.COORDINATOR_LOAD_IN_PROGRESS
        manager.remove_transactions_for_txn_topic_partition(PARTITION_ID, None)
        assert not manager.loading_partitions
    finally:
        release.set()
        loader.join(10)
    assert manager.get_transaction_state(TXN_ID1) is Errors.NOT_COORDINATOR
    assert markers == []


def test_successful_reimmigration(env: Env) -> None:
    """A partition loaded again in a newer epoch, without an unload in between, is cached with the newer epoch."""
    env.txn_metadata1.state = S.PrepareCommit
    env.txn_metadata1.add_partitions({TopicPartition("topic1", 0)})
    env.write_log((TXN_ID1, env.txn_metadata1.prepare_no_transit()))
    manager = env.manager
    manager.load_transactions_for_txn_topic_partition(PARTITION_ID, 0, no_markers)
    assert not manager.loading_partitions
    manager.load_transactions_for_txn_topic_partition(PARTITION_ID, 1, no_markers)
    assert not manager.loading_partitions
    assert manager.transaction_metadata_cache[PARTITION_ID].coordinator_epoch == 1


def test_load_transaction_metadata_with_corrupted_log(env: Env) -> None:
    """A log whose end offset says there is more than can be read still finishes loading (nothing cached)."""
    env.rm.log_end_offset_override = 10
    env.manager.load_transactions_for_txn_topic_partition(PARTITION_ID, 0, no_markers)
    assert not env.manager.loading_partitions
    assert env.manager.get_transaction_state(TXN_ID1) is None


def test_load_of_unreadable_record_keeps_what_was_read(env: Env) -> None:
    """A record that cannot be decoded ends the read with an error logged; the ids read before it are cached."""
    env.write_log((TXN_ID1, env.txn_metadata1.prepare_no_transit()))
    env.rm.append(
        PARTITION_ID,
        MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(0, b"\x00\x07junk", b"\x00\x00")),
    )
    env.write_log((TXN_ID2, env.txn_metadata2.prepare_no_transit()))
    env.manager.load_transactions_for_txn_topic_partition(PARTITION_ID, 0, no_markers)
    assert not env.manager.loading_partitions
    assert isinstance(env.manager.get_transaction_state(TXN_ID1), CoordinatorEpochAndTxnMetadata)
    assert env.manager.get_transaction_state(TXN_ID2) is None


def test_partition_count_change_fails_the_load(env: Env) -> None:
    """The load refuses to go on when the topic's partition count changed since startup."""
    counts = iter([NUM_PARTITIONS, NUM_PARTITIONS + 1])
    manager = TransactionStateManager(0, MockScheduler(env.time), env.rm, env.config, env.time, None)
    manager.startup(lambda: next(counts), False)
    with pytest.raises(KafkaException, match="has changed from 2 to 3"):
        manager.load_transactions_for_txn_topic_partition(PARTITION_ID, 0, no_markers)


# ---- appends -------------------------------------------------------------------------------------------------


def test_complete_transition_when_append_succeeded(env: Env) -> None:
    """A successful append applies the transition to the cached metadata, and the log holds the new value."""
    env.cache()
    manager = env.manager
    manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    new_metadata = env.txn_metadata1.prepare_add_partitions(
        {TopicPartition("topic1", 0), TopicPartition("topic1", 1)}, env.time.milliseconds()
    )
    assert env.append(TXN_ID1, COORDINATOR_EPOCH, new_metadata) == [Errors.NONE]
    assert env.txn_metadata1.pending_state is None
    assert env.txn_metadata1.state is S.Ongoing
    assert env.txn_metadata1.topic_partitions == {TopicPartition("topic1", 0), TopicPartition("topic1", 1)}

    call = env.rm.calls[-1]
    assert (call.required_acks, call.internal_topics_allowed, call.origin) == (-1, True, Coordinator())
    assert call.timeout == new_metadata.txn_timeout_ms
    # What was written loads back as the same metadata.
    reloaded = env.new_manager()
    reloaded.load_transactions_for_txn_topic_partition(PARTITION_ID, COORDINATOR_EPOCH + 1, no_markers)
    state = reloaded.get_transaction_state(TXN_ID1)
    assert isinstance(state, CoordinatorEpochAndTxnMetadata)
    assert state.transaction_metadata == env.txn_metadata1


@pytest.mark.parametrize(
    ("append_error", "expected"),
    [
        (Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_ENOUGH_REPLICAS, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.REQUEST_TIMED_OUT, Errors.COORDINATOR_NOT_AVAILABLE),
        (Errors.NOT_LEADER_OR_FOLLOWER, Errors.NOT_COORDINATOR),
        (Errors.KAFKA_STORAGE_ERROR, Errors.NOT_COORDINATOR),
        (Errors.MESSAGE_TOO_LARGE, Errors.UNKNOWN_SERVER_ERROR),
        (Errors.RECORD_LIST_TOO_LARGE, Errors.UNKNOWN_SERVER_ERROR),
        (Errors.INVALID_TIMESTAMP, Errors.INVALID_TIMESTAMP),
    ],
)
def test_append_failure_maps_error_and_resets_pending_state(env: Env, append_error: Errors, expected: Errors) -> None:
    """A failed append answers with the coordinator error for it; the metadata is unchanged and not pending."""
    env.cache()
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    failed = env.txn_metadata1.prepare_add_partitions({TopicPartition("topic2", 0)}, env.time.milliseconds())
    env.rm.append_error = append_error
    assert env.append(TXN_ID1, COORDINATOR_EPOCH, failed) == [expected]
    assert env.manager.get_transaction_state(TXN_ID1) == CoordinatorEpochAndTxnMetadata(
        COORDINATOR_EPOCH, env.txn_metadata1
    )
    assert env.txn_metadata1.pending_state is None
    assert env.txn_metadata1.state is S.Empty


def test_pending_state_not_reset_on_retry_append(env: Env) -> None:
    """When the caller will retry, a failed append leaves the pending state for the retry."""
    env.cache()
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    failed = env.txn_metadata1.prepare_add_partitions({TopicPartition("topic2", 0)}, env.time.milliseconds())
    env.rm.append_error = Errors.UNKNOWN_TOPIC_OR_PARTITION
    errors = env.append(TXN_ID1, COORDINATOR_EPOCH, failed, retry_on_error=lambda _e: True)
    assert errors == [Errors.COORDINATOR_NOT_AVAILABLE]
    assert env.txn_metadata1.pending_state is S.Ongoing


def test_append_fail_to_not_coordinator_error(env: Env) -> None:
    """The partition gone before the append, or owned again in another epoch, answers NOT_COORDINATOR and writes
    nothing."""
    env.cache()
    manager = env.manager
    manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    failed = env.txn_metadata1.prepare_add_partitions({TopicPartition("topic2", 0)}, env.time.milliseconds())

    manager.remove_transactions_for_txn_topic_partition(PARTITION_ID, COORDINATOR_EPOCH)
    assert env.append(TXN_ID1, COORDINATOR_EPOCH, failed) == [Errors.NOT_COORDINATOR]

    env.cache(epoch=COORDINATOR_EPOCH + 1)
    manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    assert env.append(TXN_ID1, COORDINATOR_EPOCH, failed) == [Errors.NOT_COORDINATOR]

    manager.remove_transactions_for_txn_topic_partition(PARTITION_ID, COORDINATOR_EPOCH + 1)
    env.cache()
    # The partition is owned in the same epoch but the id is not cached any more.
    assert env.append(TXN_ID1, COORDINATOR_EPOCH, failed) == [Errors.NOT_COORDINATOR]
    assert env.rm.calls == []


def test_append_fail_to_coordinator_loading_error(env: Env) -> None:
    env.cache()
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    failed = env.txn_metadata1.prepare_add_partitions({TopicPartition("topic2", 0)}, env.time.milliseconds())
    env.manager.remove_transactions_for_txn_topic_partition(PARTITION_ID, COORDINATOR_EPOCH)
    env.manager.add_loading_partition(PARTITION_ID, COORDINATOR_EPOCH + 1)
    assert env.append(TXN_ID1, COORDINATOR_EPOCH, failed) == [Errors.COORDINATOR_LOAD_IN_PROGRESS]
    assert env.manager.is_coordinator_loading_in_progress(TXN_ID1)


def test_epoch_change_during_append_is_not_applied(env: Env) -> None:
    """If the partition moves away and back while the append is in flight, the written transition is not applied
    to the new epoch's metadata and the client is told NOT_COORDINATOR."""
    env.cache()
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    new_metadata = env.txn_metadata1.prepare_add_partitions({TopicPartition("topic2", 0)}, env.time.milliseconds())
    env.rm.hold_callbacks = True
    errors = env.append(TXN_ID1, COORDINATOR_EPOCH, new_metadata)
    assert errors == []

    env.manager.remove_transactions_for_txn_topic_partition(PARTITION_ID, COORDINATOR_EPOCH)
    env.cache(epoch=COORDINATOR_EPOCH + 1)
    reloaded = env.metadata(TXN_ID1, 1)
    env.manager.put_transaction_state_if_not_exists(reloaded)
    env.rm.release()

    assert errors == [Errors.NOT_COORDINATOR]
    assert reloaded.state is S.Empty
    assert reloaded.topic_partitions == set()
    assert reloaded.pending_state is None


def test_append_transaction_to_log_while_producer_fenced(env: Env) -> None:
    """An append in another coordinator epoch than the cached one answers NOT_COORDINATOR without writing."""
    env.cache(epoch=0)
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    new_metadata = env.txn_metadata1.prepare_add_partitions(
        {TopicPartition("topic1", 0), TopicPartition("topic1", 1)}, env.time.milliseconds()
    )
    env.txn_metadata1.producer_epoch += 1
    assert env.append(TXN_ID1, COORDINATOR_EPOCH, new_metadata) == [Errors.NOT_COORDINATOR]
    assert env.rm.calls == []


def test_append_transaction_to_log_while_pending_state_changed(env: Env) -> None:
    """A transition whose pending state was cleared meanwhile cannot be completed: IllegalStateException."""
    env.cache()
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    new_metadata = env.txn_metadata1.prepare_add_partitions(
        {TopicPartition("topic1", 0), TopicPartition("topic1", 1)}, env.time.milliseconds()
    )
    env.txn_metadata1.pending_state = None
    with pytest.raises(IllegalStateException):
        env.append(TXN_ID1, COORDINATOR_EPOCH, new_metadata)


# ---- timed-out transactions and expiration -------------------------------------------------------------------


def test_should_only_consider_transactions_in_the_ongoing_state_to_abort(env: Env) -> None:
    for p in range(NUM_PARTITIONS):
        env.cache(p, 0)
    manager = env.manager
    manager.put_transaction_state_if_not_exists(env.metadata("ongoing", 0, S.Ongoing))
    manager.put_transaction_state_if_not_exists(env.metadata("not-expiring", 1, S.Ongoing, txn_timeout=10000))
    manager.put_transaction_state_if_not_exists(env.metadata("prepare-commit", 2, S.PrepareCommit))
    manager.put_transaction_state_if_not_exists(env.metadata("prepare-abort", 3, S.PrepareAbort))
    manager.put_transaction_state_if_not_exists(env.metadata("complete-commit", 4, S.CompleteCommit))
    manager.put_transaction_state_if_not_exists(env.metadata("complete-abort", 5, S.CompleteAbort))
    pending = env.metadata("ongoing-pending", 6, S.Ongoing)
    pending.pending_state = S.PrepareAbort
    manager.put_transaction_state_if_not_exists(pending)
    env.time.sleep(2000)
    assert manager.timed_out_transactions() == [TransactionalIdAndProducerIdEpoch("ongoing", 0, 0)]


def _setup_and_run_expiration(env: Env, append_error: Errors | None, state: TransactionState) -> None:
    for p in range(NUM_PARTITIONS):
        env.cache(p, 0)
    env.txn_metadata1.txn_last_update_timestamp = env.time.milliseconds() - env.config.transactional_id_expiration_ms
    env.txn_metadata1.state = state
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    env.txn_metadata2.txn_last_update_timestamp = env.time.milliseconds()
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata2)
    env.rm.append_error = append_error
    env.manager.remove_expired_transactional_ids()


def _assert_usable(env: Env, transactional_id: str) -> None:
    state = env.manager.get_transaction_state(transactional_id)
    assert isinstance(state, CoordinatorEpochAndTxnMetadata), state
    assert state.transaction_metadata.pending_state is None


@pytest.mark.parametrize("state", [S.Empty, S.CompleteCommit, S.CompleteAbort])
def test_should_remove_expired_transactional_ids(env: Env, state: TransactionState) -> None:
    """Idle Empty/Complete* ids get one tombstone (acks -1, in the id's partition) and leave the cache."""
    _setup_and_run_expiration(env, None, state)
    assert env.manager.get_transaction_state(TXN_ID1) is None
    _assert_usable(env, TXN_ID2)
    assert [call.entries.keys() for call in env.rm.calls] == [{txn_tp(PARTITION_ID)}]
    call = env.rm.calls[0]
    assert (call.required_acks, call.internal_topics_allowed, call.origin) == (-1, True, Coordinator())
    assert call.timeout == env.config.request_timeout_ms
    # The tombstone is in the log.
    tombstones = [
        (record.key(), record.value(), record.timestamp())
        for batch in env.rm.log(PARTITION_ID).read(0, 1 << 20, FetchLogEnd(), True).records.batches()
        for record in batch
    ]
    assert tombstones == [(transaction_log.key_to_bytes(TXN_ID1), None, env.time.milliseconds())]


def test_should_not_remove_expired_transactional_ids_if_log_append_fails(env: Env) -> None:
    _setup_and_run_expiration(env, Errors.NOT_ENOUGH_REPLICAS, S.CompleteAbort)
    _assert_usable(env, TXN_ID1)
    _assert_usable(env, TXN_ID2)


@pytest.mark.parametrize("state", [S.Ongoing, S.PrepareAbort, S.PrepareCommit])
def test_should_not_remove_transactional_ids_in_open_states(env: Env, state: TransactionState) -> None:
    _setup_and_run_expiration(env, None, state)
    _assert_usable(env, TXN_ID1)
    _assert_usable(env, TXN_ID2)
    assert env.rm.calls == []


def _load_expired_transactional_ids(env: Env, count: int) -> set[str]:
    for p in range(NUM_PARTITIONS):
        env.cache(p, 0)
    ids = set()
    for i in range(count):
        metadata = env.metadata(f"id_{i}", i)
        metadata.txn_last_update_timestamp = env.time.milliseconds() - env.config.transactional_id_expiration_ms
        env.manager.put_transaction_state_if_not_exists(metadata)
        ids.add(metadata.transactional_id)
    return ids


def _cached_ids(env: Env) -> set[str]:
    return {
        md.transactional_id
        for entry in env.manager.transaction_metadata_cache.values()
        for md in entry.metadata_per_transactional_id.values
    }


def _tombstoned_ids(env: Env, partition: int) -> list[str]:
    ids = []
    for records in env.rm.appended_batches(partition):
        for record in records.records():
            key = record.key()
            assert key is not None and record.value() is None
            ids.append(transaction_log.read_txn_record_key(key).transactional_id)
    return ids


def test_transaction_expiration_should_respect_batch_size(tmp_path: Path) -> None:
    """Tombstones go out in batches no larger than the partition's max.message.bytes; every expired id goes."""
    env = Env(tmp_path, {"max.message.bytes": 512})
    try:
        all_ids = _load_expired_transactional_ids(env, 300)
        env.manager.remove_expired_transactional_ids()
        assert _cached_ids(env) == set()
        tombstoned: list[str] = []
        for p in range(NUM_PARTITIONS):
            batches = env.rm.appended_batches(p)
            assert len(batches) > 1
            assert all(batch.size_in_bytes() <= 512 for batch in batches)
            tombstoned += _tombstoned_ids(env, p)
        assert sorted(tombstoned) == sorted(all_ids)
    finally:
        env.close()


def test_transactional_expiration_with_too_small_batch_size(tmp_path: Path) -> None:
    """A batch limit smaller than one tombstone still makes progress: each id is tried alone and, refused, kept."""
    env = Env(tmp_path, {"max.message.bytes": 16})
    try:
        all_ids = _load_expired_transactional_ids(env, 20)
        env.rm.append_error = Errors.MESSAGE_TOO_LARGE
        env.manager.remove_expired_transactional_ids()
        batches = [b for p in range(NUM_PARTITIONS) for b in env.rm.appended_batches(p)]
        assert len(batches) == len(all_ids)
        assert all(batch.size_in_bytes() > 16 for batch in batches)
        assert _cached_ids(env) == all_ids
        for tid in all_ids:
            _assert_usable(env, tid)
    finally:
        env.close()


def test_transactional_expiration_with_offline_log_dir(env: Env) -> None:
    """A partition without a local log is skipped; the others' expired ids are removed."""
    all_ids = _load_expired_transactional_ids(env, 20)
    env.rm.unhost(1)
    env.manager.remove_expired_transactional_ids()
    online = {tid for tid in all_ids if env.manager.partition_for(tid) == 0}
    assert set(_tombstoned_ids(env, 0)) == online
    assert env.rm.appended_batches(1) == []
    assert _cached_ids(env) == all_ids - online


def test_expiration_task_runs_periodically(env: Env) -> None:
    """With expiration enabled, `transactionalId-expiration` runs every remove-expired interval."""
    manager = env.new_manager(enable_expiration=True)
    manager.add_loaded_transactions_to_cache(PARTITION_ID, 0, Pool())
    metadata = env.metadata(TXN_ID1, 1, S.CompleteCommit)
    manager.put_transaction_state_if_not_exists(metadata)
    interval = env.config.remove_expired_transactional_ids_interval_ms
    env.time.sleep(env.config.transactional_id_expiration_ms - interval)
    assert manager.get_transaction_state(TXN_ID1) is not None
    env.time.sleep(interval)
    assert manager.get_transaction_state(TXN_ID1) is None


# ---- ListTransactions ----------------------------------------------------------------------------------------


def test_list_transaction_states(env: Env) -> None:
    """Filters by producer id and state name (empty filters match all), reports unknown state names, never lists
    Dead ids, and answers COORDINATOR_LOAD_IN_PROGRESS while a partition loads."""
    for p in range(NUM_PARTITIONS):
        env.cache(p, 0)
    manager = env.manager
    for tid, pid, state in [
        ("t-empty", 1, S.Empty),
        ("t-ongoing", 2, S.Ongoing),
        ("t-commit", 3, S.CompleteCommit),
        ("t-dead", 4, S.Dead),
        ("t-ongoing2", 5, S.Ongoing),
    ]:
        manager.put_transaction_state_if_not_exists(env.metadata(tid, pid, state))

    def listed(pids: set[int], states: set[str]) -> set[tuple[str, int, str]]:
        response = manager.list_transaction_states(pids, states)
        assert response.error_code == Errors.NONE.code
        return {(s.transactional_id, s.producer_id, s.transaction_state) for s in response.transaction_states}

    everything = {
        ("t-empty", 1, "Empty"),
        ("t-ongoing", 2, "Ongoing"),
        ("t-commit", 3, "CompleteCommit"),
        ("t-ongoing2", 5, "Ongoing"),
    }
    assert listed(set(), set()) == everything
    assert listed({2, 3, 4}, set()) == {("t-ongoing", 2, "Ongoing"), ("t-commit", 3, "CompleteCommit")}
    assert listed(set(), {"Ongoing"}) == {("t-ongoing", 2, "Ongoing"), ("t-ongoing2", 5, "Ongoing")}
    assert listed({5}, {"Ongoing", "Empty"}) == {("t-ongoing2", 5, "Ongoing")}
    assert listed(set(), {"Dead"}) == set()

    response = manager.list_transaction_states(set(), {"Ongoing", "Bogus"})
    assert response.unknown_state_filters == ["Bogus"]
    assert {s.transactional_id for s in response.transaction_states} == {"t-ongoing", "t-ongoing2"}

    manager.add_loading_partition(1, 1)
    response = manager.list_transaction_states(set(), set())
    assert response.error_code == Errors.COORDINATOR_LOAD_IN_PROGRESS.code
    assert response.transaction_states == []


def test_shutdown_clears_the_cache(env: Env) -> None:
    env.cache()
    env.manager.put_transaction_state_if_not_exists(env.txn_metadata1)
    env.manager.shutdown()
    assert env.manager.get_transaction_state(TXN_ID1) is Errors.NOT_COORDINATOR
