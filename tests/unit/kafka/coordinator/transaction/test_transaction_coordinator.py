"""Tests of kafka.coordinator.transaction.transaction_coordinator (the substance of Kafka's TransactionCoordinatorTest,
2.8 and 3.7), with hand-written fakes of the state manager and the marker channel manager that record their calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kafka.common.message import ListTransactionsResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID
from kafka.common.requests.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch
from kafka.common.utils.time import MockTime
from kafka.coordinator.transaction.producer_id_manager import ProducerIdGenerator
from kafka.coordinator.transaction.transaction_coordinator import InitProducerIdResult, TransactionCoordinator
from kafka.coordinator.transaction.transaction_metadata import (
    IllegalStateException,
    TransactionMetadata,
    TransactionState,
    TxnTransitMetadata,
)
from kafka.coordinator.transaction.transaction_state_manager import (
    DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS,
    CoordinatorEpochAndTxnMetadata,
    TransactionalIdAndProducerIdEpoch,
    TransactionConfig,
)
from kafka.utils.mock_scheduler import MockScheduler

S = TransactionState
TXN_ID = "known"
PRODUCER_ID = 10
PRODUCER_EPOCH = 1
TXN_TIMEOUT_MS = 1
COORDINATOR_EPOCH = 0
SHORT_MAX = 32767
PARTITIONS = {TopicPartition("topic1", 0)}

StateResult = Errors | CoordinatorEpochAndTxnMetadata | None


# ---- fakes ---------------------------------------------------------------------------------------------------------


class FakePidGenerator(ProducerIdGenerator):
    def __init__(self) -> None:
        self.next_pid = 0
        self.fixed: int | None = None
        self.failure: Exception | None = None
        self.shut_down = False

    def generate_producer_id(self) -> int:
        if self.failure is not None:
            raise self.failure
        if self.fixed is not None:
            return self.fixed
        self.next_pid += 1
        return self.next_pid - 1

    def shutdown(self) -> None:
        self.shut_down = True


AppendAnswer = Callable[[TxnTransitMetadata, Callable[[Errors], None]], None]


class FakeStateManager:
    """Answers as a TransactionStateManager would be told to; records every call in `calls`."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.timeout_valid = True
        # get_transaction_state answers these in order; the last one is repeated.
        self.states: list[StateResult] = [None]
        self.put_result: Callable[[TransactionMetadata], Errors | CoordinatorEpochAndTxnMetadata] = lambda txn: (
            CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, txn)
        )
        self.append_answers: list[AppendAnswer] = []  # in order; the last one is repeated; none: the append hangs
        self.timed_out: list[TransactionalIdAndProducerIdEpoch] = []
        self.list_result = ListTransactionsResponseData(error_code=Errors.NONE.code)

    def count(self, name: str) -> int:
        return sum(1 for c in self.calls if c[0] == name)

    def appends(self) -> list[tuple[Any, ...]]:
        return [c for c in self.calls if c[0] == "append_transaction_to_log"]

    def validate_transaction_timeout_ms(self, txn_timeout_ms: int) -> bool:
        self.calls.append(("validate_transaction_timeout_ms", txn_timeout_ms))
        return self.timeout_valid

    def get_transaction_state(self, transactional_id: str) -> StateResult:
        self.calls.append(("get_transaction_state", transactional_id))
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]

    def put_transaction_state_if_not_exists(self, txn: TransactionMetadata) -> Errors | CoordinatorEpochAndTxnMetadata:
        self.calls.append(("put_transaction_state_if_not_exists", txn))
        return self.put_result(txn)

    def append_transaction_to_log(
        self,
        transactional_id: str,
        coordinator_epoch: int,
        new_metadata: TxnTransitMetadata,
        response_callback: Callable[[Errors], None],
        retry_on_error: Callable[[Errors], bool] = lambda _e: False,
    ) -> None:
        self.calls.append(("append_transaction_to_log", transactional_id, coordinator_epoch, new_metadata))
        if self.append_answers:
            answer = self.append_answers.pop(0) if len(self.append_answers) > 1 else self.append_answers[0]
            answer(new_metadata, response_callback)

    def timed_out_transactions(self) -> list[TransactionalIdAndProducerIdEpoch]:
        self.calls.append(("timed_out_transactions",))
        return self.timed_out

    def partition_for(self, transactional_id: str) -> int:
        return 0

    def transaction_topic_configs(self) -> dict[str, str]:
        return {"cleanup.policy": "compact"}

    def list_transaction_states(
        self, filtered_producer_ids: set[int], filtered_states: set[str]
    ) -> ListTransactionsResponseData:
        self.calls.append(("list_transaction_states", filtered_producer_ids, filtered_states))
        return self.list_result

    def load_transactions_for_txn_topic_partition(
        self, partition_id: int, coordinator_epoch: int, send_txn_markers: Callable[..., None]
    ) -> None:
        self.calls.append(
            ("load_transactions_for_txn_topic_partition", partition_id, coordinator_epoch, send_txn_markers)
        )

    def remove_transactions_for_txn_topic_partition(self, partition_id: int, coordinator_epoch: int | None) -> None:
        self.calls.append(("remove_transactions_for_txn_topic_partition", partition_id, coordinator_epoch))

    def startup(self, retrieve_count: Callable[[], int], enable_transactional_id_expiration: bool) -> None:
        self.calls.append(("startup", retrieve_count(), enable_transactional_id_expiration))

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))


class FakeMarkerChannelManager:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def start(self) -> None:
        self.calls.append(("start",))

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))

    def remove_markers_for_txn_topic_partition(self, partition_id: int) -> None:
        self.calls.append(("remove_markers_for_txn_topic_partition", partition_id))

    def add_txn_markers_to_send(
        self,
        coordinator_epoch: int,
        txn_result: TransactionResult,
        txn_metadata: TransactionMetadata,
        new_metadata: TxnTransitMetadata,
    ) -> None:
        self.calls.append(("add_txn_markers_to_send", coordinator_epoch, txn_result, txn_metadata, new_metadata))


def answer(error: Errors, then: Callable[[TxnTransitMetadata], None] | None = None) -> AppendAnswer:
    """An append that calls back with `error`, then runs `then` (what the real manager would have done)."""

    def run(transit: TxnTransitMetadata, callback: Callable[[Errors], None]) -> None:
        callback(error)
        if then is not None:
            then(transit)

    return run


def completing(txn: TransactionMetadata) -> AppendAnswer:
    """An append that succeeds and completes the transition, as the real manager does, then calls back."""

    def run(transit: TxnTransitMetadata, callback: Callable[[Errors], None]) -> None:
        txn.complete_transition_to(transit)
        callback(Errors.NONE)

    return run


class Env:
    def __init__(self) -> None:
        self.time = MockTime()
        self.scheduler = MockScheduler(self.time)
        self.pid = FakePidGenerator()
        self.txn_manager = FakeStateManager()
        self.markers = FakeMarkerChannelManager()
        self.coordinator = TransactionCoordinator(
            0,
            TransactionConfig(),
            self.scheduler,
            lambda: self.pid,
            self.txn_manager,  # type: ignore[arg-type]
            self.markers,  # type: ignore[arg-type]
            self.time,
            LogContext(),
        )
        self.result: InitProducerIdResult | None = None
        self.error: Errors | None = None

    def now(self) -> int:
        return self.time.milliseconds()

    def metadata(
        self,
        state: TransactionState,
        producer_id: int = PRODUCER_ID,
        last_producer_id: int = PRODUCER_ID,
        producer_epoch: int = PRODUCER_EPOCH,
        last_producer_epoch: int = NO_PRODUCER_EPOCH,
        txn_timeout_ms: int = TXN_TIMEOUT_MS,
        partitions: set[TopicPartition] | None = None,
        start: int | None = None,
    ) -> TransactionMetadata:
        now = self.now()
        return TransactionMetadata(
            TXN_ID,
            producer_id,
            last_producer_id,
            producer_epoch,
            last_producer_epoch,
            txn_timeout_ms,
            state,
            set(PARTITIONS) if partitions is None else partitions,
            now if start is None else start,
            now,
        )

    def has(self, txn: TransactionMetadata, *more: TransactionMetadata) -> None:
        self.txn_manager.states = [CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, t) for t in (txn, *more)]

    def init(
        self,
        transactional_id: str | None = TXN_ID,
        expected: ProducerIdAndEpoch | None = None,
        timeout: int = TXN_TIMEOUT_MS,
    ) -> InitProducerIdResult:
        self.result = None
        self.coordinator.handle_init_producer_id(transactional_id, timeout, expected, self._on_init)
        assert self.result is not None
        return self.result

    def _on_init(self, result: InitProducerIdResult) -> None:
        self.result = result

    def add(
        self, producer_id: int = PRODUCER_ID, epoch: int = PRODUCER_EPOCH, transactional_id: str | None = TXN_ID
    ) -> Errors | None:
        self.error = None
        self.coordinator.handle_add_partitions_to_transaction(
            transactional_id, producer_id, epoch, PARTITIONS, self._on_error
        )
        return self.error

    def end(
        self,
        result: TransactionResult,
        producer_id: int = PRODUCER_ID,
        epoch: int = PRODUCER_EPOCH,
        transactional_id: str | None = TXN_ID,
    ) -> Errors | None:
        self.error = None
        self.coordinator.handle_end_transaction(transactional_id, producer_id, epoch, result, self._on_error)
        return self.error

    def _on_error(self, error: Errors) -> None:
        self.error = error

    def verify(
        self, producer_id: int, epoch: int, partitions: set[TopicPartition], transactional_id: str = TXN_ID
    ) -> dict[tuple[str, int], Errors]:
        out: list[Any] = []
        self.coordinator.handle_verify_partitions_in_transaction(
            transactional_id, producer_id, epoch, partitions, out.append
        )
        assert len(out) == 1
        assert out[0].transactional_id == transactional_id
        return AddPartitionsToTxnResponse.errors_for_transaction(out[0].topic_results)


@pytest.fixture
def env() -> Env:
    return Env()


def error_result(error: Errors) -> InitProducerIdResult:
    return InitProducerIdResult(NO_PRODUCER_ID, NO_PRODUCER_EPOCH, error)


# ---- InitProducerId ------------------------------------------------------------------------------------------------


def test_init_with_empty_transactional_id_is_invalid_request(env: Env) -> None:
    """An empty transactional id is INVALID_REQUEST, every time, without touching the state manager."""
    assert env.init("") == error_result(Errors.INVALID_REQUEST)
    assert env.init("") == error_result(Errors.INVALID_REQUEST)
    assert env.txn_manager.calls == []


def test_init_without_transactional_id_hands_out_new_ids(env: Env) -> None:
    """An idempotent producer gets the next producer id at epoch 0 each time."""
    assert env.init(None) == InitProducerIdResult(0, 0, Errors.NONE)
    assert env.init(None) == InitProducerIdResult(1, 0, Errors.NONE)
    assert env.txn_manager.calls == []


def test_init_without_transactional_id_when_the_generator_fails(env: Env) -> None:
    """A producer id block that cannot be claimed gives the request the failure's error code, not a crash."""
    env.pid.failure = RuntimeError("ZooKeeper unreachable")
    assert env.init(None) == error_result(Errors.UNKNOWN_SERVER_ERROR)
    assert env.init(TXN_ID) == error_result(Errors.UNKNOWN_SERVER_ERROR)
    assert env.txn_manager.count("put_transaction_state_if_not_exists") == 0


def test_init_with_a_timeout_above_the_maximum(env: Env) -> None:
    """A timeout the state manager refuses is INVALID_TRANSACTION_TIMEOUT, nothing looked up or written."""
    env.txn_manager.timeout_valid = False
    assert env.init(timeout=10**9) == error_result(Errors.INVALID_TRANSACTION_TIMEOUT)
    assert env.txn_manager.count("get_transaction_state") == 0
    assert env.txn_manager.appends() == []


@pytest.mark.parametrize("expected", [None, ProducerIdAndEpoch(PRODUCER_ID, PRODUCER_EPOCH)])
def test_init_new_transactional_id_gets_epoch_zero(env: Env, expected: ProducerIdAndEpoch | None) -> None:
    """A new id is created with a fresh producer id and gets epoch 0 (also when the producer names an old id)."""
    env.txn_manager.append_answers = [answer(Errors.NONE)]
    assert env.init(expected=expected) == InitProducerIdResult(0, 0, Errors.NONE)
    created = env.txn_manager.calls[2][1]
    assert env.txn_manager.calls[2][0] == "put_transaction_state_if_not_exists"
    assert (created.transactional_id, created.producer_id, created.producer_epoch, created.state) == (
        TXN_ID,
        0,
        NO_PRODUCER_EPOCH,
        S.Empty,
    )
    [(_, txn_id, coordinator_epoch, transit)] = env.txn_manager.appends()
    assert (txn_id, coordinator_epoch, transit.producer_id, transit.producer_epoch, transit.txn_state) == (
        TXN_ID,
        COORDINATOR_EPOCH,
        0,
        0,
        S.Empty,
    )


def test_init_rotates_the_producer_id_when_epochs_are_exhausted(env: Env) -> None:
    """At the last epoch a new producer id is handed out at epoch 0."""
    env.has(env.metadata(S.Empty, producer_epoch=SHORT_MAX - 1, last_producer_epoch=SHORT_MAX - 2))
    env.txn_manager.append_answers = [answer(Errors.NONE)]
    result = env.init()
    assert result.producer_id != PRODUCER_ID
    assert (result.producer_epoch, result.error) == (0, Errors.NONE)


@pytest.mark.parametrize("error", [Errors.NOT_COORDINATOR, Errors.COORDINATOR_LOAD_IN_PROGRESS])
def test_init_when_not_coordinator_or_loading(env: Env, error: Errors) -> None:
    """The state manager's NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS reach the producer."""
    env.txn_manager.states = [error]
    assert env.init() == error_result(error)


@pytest.mark.parametrize("state", [S.Empty, S.CompleteAbort, S.CompleteCommit])
def test_init_increments_the_epoch_and_updates_metadata(env: Env, state: TransactionState) -> None:
    """With no transaction open the epoch goes up by one and the new timeout is taken."""
    txn = env.metadata(state, partitions=set())
    env.has(txn)
    env.txn_manager.append_answers = [completing(txn)]
    assert env.init(timeout=10) == InitProducerIdResult(PRODUCER_ID, PRODUCER_EPOCH + 1, Errors.NONE)
    assert (txn.txn_timeout_ms, txn.txn_last_update_timestamp, txn.producer_epoch, txn.producer_id) == (
        10,
        env.now(),
        PRODUCER_EPOCH + 1,
        PRODUCER_ID,
    )
    assert txn.state == S.Empty


def test_init_append_failure_is_returned(env: Env) -> None:
    """A failed append of the bump gives the producer the append's error."""
    env.has(env.metadata(S.Empty))
    env.txn_manager.append_answers = [answer(Errors.NOT_ENOUGH_REPLICAS)]
    assert env.init() == error_result(Errors.NOT_ENOUGH_REPLICAS)


@pytest.mark.parametrize("state", [S.PrepareCommit, S.PrepareAbort])
def test_init_waits_for_an_ending_transaction(env: Env, state: TransactionState) -> None:
    """While markers are being written the producer is told CONCURRENT_TRANSACTIONS and nothing is appended."""
    env.has(env.metadata(state, producer_id=0, last_producer_id=0, producer_epoch=0, txn_timeout_ms=0))
    assert env.init(timeout=10) == error_result(Errors.CONCURRENT_TRANSACTIONS)
    assert env.txn_manager.appends() == []


def test_init_aborts_an_ongoing_transaction(env: Env) -> None:
    """An open transaction is fenced (epoch + 1) and aborted; the producer is told to retry."""
    txn = env.metadata(S.Ongoing, last_producer_epoch=PRODUCER_EPOCH - 1)
    env.has(txn)
    env.txn_manager.append_answers = [completing(txn)]
    assert env.init() == error_result(Errors.CONCURRENT_TRANSACTIONS)

    expected = env.metadata(S.Ongoing, producer_epoch=PRODUCER_EPOCH + 1).prepare_abort_or_commit(
        S.PrepareAbort, env.now()
    )
    assert [a[3] for a in env.txn_manager.appends()] == [expected]
    assert env.txn_manager.count("validate_transaction_timeout_ms") == 1
    assert env.txn_manager.count("get_transaction_state") == 3
    # The abort's markers go to the marker channel manager with the CompleteAbort transit.
    [(name, epoch, result, marker_txn, transit)] = env.markers.calls
    assert (name, epoch, result, marker_txn, transit.txn_state) == (
        "add_txn_markers_to_send",
        COORDINATOR_EPOCH,
        TransactionResult.ABORT,
        txn,
        S.CompleteAbort,
    )


def test_init_fails_to_abort_when_the_epoch_moved_on(env: Env) -> None:
    """If another fence bumped the epoch past ours in the meantime, the abort is PRODUCER_FENCED."""
    txn = env.metadata(S.Ongoing, last_producer_epoch=PRODUCER_EPOCH - 1)
    bumped = env.metadata(S.Ongoing, producer_epoch=PRODUCER_EPOCH + 2, last_producer_epoch=PRODUCER_EPOCH - 1)
    env.has(txn, bumped)
    assert env.init() == error_result(Errors.PRODUCER_FENCED)
    assert env.txn_manager.count("get_transaction_state") == 2
    assert env.txn_manager.appends() == []


def test_init_does_not_bump_the_epoch_repeatedly_when_the_fence_fails(env: Env) -> None:
    """A fence whose append fails is retried with the same epoch: the epoch goes up once in all."""
    txn = env.metadata(S.Ongoing)
    env.has(txn)
    expected = env.metadata(S.Ongoing, producer_epoch=PRODUCER_EPOCH + 1).prepare_abort_or_commit(
        S.PrepareAbort, env.now()
    )

    def fail(transit: TxnTransitMetadata, callback: Callable[[Errors], None]) -> None:
        callback(Errors.NOT_ENOUGH_REPLICAS)
        txn.pending_state = None  # as the state manager does on a failed append

    def succeed(transit: TxnTransitMetadata, callback: Callable[[Errors], None]) -> None:
        txn.complete_transition_to(transit)
        callback(Errors.NONE)

    env.txn_manager.append_answers = [fail, fail, succeed]
    for _ in range(2):
        assert env.init() == error_result(Errors.NOT_ENOUGH_REPLICAS)
        assert txn.producer_epoch == PRODUCER_EPOCH + 1
        assert txn.has_failed_epoch_fence

    assert env.init() == error_result(Errors.CONCURRENT_TRANSACTIONS)
    assert txn.producer_epoch == PRODUCER_EPOCH + 1
    assert not txn.has_failed_epoch_fence
    assert [a[3] for a in env.txn_manager.appends()] == [expected] * 3
    assert env.txn_manager.count("validate_transaction_timeout_ms") == 3


def test_init_uses_the_last_epoch_to_fence_when_epochs_are_exhausted(env: Env) -> None:
    """At Short.MaxValue - 1 the fence takes Short.MaxValue; the retry will rotate the producer id."""
    txn = env.metadata(S.Ongoing, producer_epoch=SHORT_MAX - 1, last_producer_epoch=SHORT_MAX - 2)
    assert txn.is_producer_epoch_exhausted
    env.has(txn)
    env.txn_manager.append_answers = [answer(Errors.NONE)]
    assert env.init() == error_result(Errors.CONCURRENT_TRANSACTIONS)
    assert txn.producer_epoch == SHORT_MAX
    expected = TxnTransitMetadata(
        PRODUCER_ID,
        PRODUCER_ID,
        SHORT_MAX,
        NO_PRODUCER_EPOCH,
        TXN_TIMEOUT_MS,
        S.PrepareAbort,
        frozenset(PARTITIONS),
        env.now(),
        env.now(),
    )
    assert [a[3] for a in env.txn_manager.appends()] == [expected]


def test_init_with_no_last_producer_data_fences(env: Env) -> None:
    """KIP-360: without the previous producer's data a producer naming an older epoch is fenced."""
    env.has(env.metadata(S.Empty, last_producer_id=NO_PRODUCER_ID, producer_epoch=PRODUCER_EPOCH + 1))
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, PRODUCER_EPOCH)) == error_result(Errors.PRODUCER_FENCED)
    assert env.txn_manager.appends() == []


def test_init_fences_a_producer_whose_id_was_replaced(env: Env) -> None:
    """KIP-360: the id now maps to another producer id, so the old producer is fenced."""
    env.has(env.metadata(S.Empty, producer_id=PRODUCER_ID + 1, last_producer_epoch=PRODUCER_EPOCH - 1))
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, PRODUCER_EPOCH)) == error_result(Errors.PRODUCER_FENCED)


def _complete_by_hand(txn: TransactionMetadata) -> AppendAnswer:
    """What the manager's append does on success, written out as Kafka's test does."""

    def run(transit: TxnTransitMetadata, callback: Callable[[Errors], None]) -> None:
        callback(Errors.NONE)
        txn.pending_state = None
        txn.producer_id = transit.producer_id
        txn.last_producer_id = transit.last_producer_id
        txn.producer_epoch = transit.producer_epoch
        txn.last_producer_epoch = transit.last_producer_epoch

    return run


def test_init_with_current_epoch_and_its_retry(env: Env) -> None:
    """KIP-360: naming the current epoch bumps it; a retry of that call gets the same epoch again."""
    txn = env.metadata(S.Empty, producer_epoch=10, last_producer_epoch=9)
    env.has(txn)
    env.txn_manager.append_answers = [_complete_by_hand(txn)]
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, 10)) == InitProducerIdResult(PRODUCER_ID, 11, Errors.NONE)
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, 10)) == InitProducerIdResult(PRODUCER_ID, 11, Errors.NONE)


def test_init_with_stale_current_epoch(env: Env) -> None:
    """KIP-360: after a new producer initialised, the old producer's epoch is fenced."""
    txn = env.metadata(S.Empty, producer_epoch=10, last_producer_epoch=9)
    env.has(txn)
    env.txn_manager.append_answers = [_complete_by_hand(txn)]
    assert env.init() == InitProducerIdResult(PRODUCER_ID, 11, Errors.NONE)
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, 10)) == error_result(Errors.PRODUCER_FENCED)


def test_init_retry_after_producer_id_rotation(env: Env) -> None:
    """A retry of the call that rotated the producer id gets the new id again, not a fence."""
    txn = env.metadata(S.Empty, producer_epoch=SHORT_MAX - 1, last_producer_epoch=SHORT_MAX - 2)
    env.has(txn)
    env.pid.fixed = PRODUCER_ID + 1
    env.txn_manager.append_answers = [_complete_by_hand(txn)]
    expected = ProducerIdAndEpoch(PRODUCER_ID, SHORT_MAX - 1)
    assert env.init(expected=expected) == InitProducerIdResult(PRODUCER_ID + 1, 0, Errors.NONE)
    assert (txn.last_producer_id, txn.last_producer_epoch) == (PRODUCER_ID, SHORT_MAX - 1)
    assert env.init(expected=expected) == InitProducerIdResult(PRODUCER_ID + 1, 0, Errors.NONE)


def test_init_with_invalid_epoch_after_producer_id_rotation(env: Env) -> None:
    """After a rotation, the old producer id with a stale epoch is fenced."""
    txn = env.metadata(S.Empty, producer_epoch=SHORT_MAX - 1, last_producer_epoch=SHORT_MAX - 2)
    env.has(txn)
    env.pid.fixed = PRODUCER_ID + 1
    env.txn_manager.append_answers = [_complete_by_hand(txn)]
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, SHORT_MAX - 1)) == InitProducerIdResult(
        PRODUCER_ID + 1, 0, Errors.NONE
    )
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, SHORT_MAX - 2)) == error_result(Errors.PRODUCER_FENCED)


def test_init_does_not_bump_with_a_pending_transition(env: Env) -> None:
    """A change still being written makes InitProducerId CONCURRENT_TRANSACTIONS."""
    txn = env.metadata(S.Ongoing)
    txn.prepare_abort_or_commit(S.PrepareCommit, env.now())
    env.has(txn)
    assert env.init(expected=ProducerIdAndEpoch(PRODUCER_ID, 10)) == error_result(Errors.CONCURRENT_TRANSACTIONS)
    assert env.txn_manager.count("get_transaction_state") == 1


@pytest.mark.parametrize("state", [S.Dead, S.PrepareEpochFence])
def test_init_in_an_impossible_state_raises(env: Env, state: TransactionState) -> None:
    """Dead and PrepareEpochFence are never current states; finding one is an IllegalStateException."""
    env.has(env.metadata(state))
    with pytest.raises(IllegalStateException, match=f"with state {state.name}"):
        env.init()


# ---- AddPartitionsToTxn --------------------------------------------------------------------------------------------


def test_add_partitions_for_unknown_id(env: Env) -> None:
    """AddPartitionsToTxn for an id the coordinator does not know is INVALID_PRODUCER_ID_MAPPING."""
    env.txn_manager.states = [None]
    assert env.add(0, 1) == Errors.INVALID_PRODUCER_ID_MAPPING


@pytest.mark.parametrize("transactional_id", ["", None])
def test_add_partitions_without_transactional_id(env: Env, transactional_id: str | None) -> None:
    """A missing transactional id is INVALID_REQUEST."""
    assert env.add(0, 1, transactional_id=transactional_id) == Errors.INVALID_REQUEST
    assert env.txn_manager.calls == []


@pytest.mark.parametrize("error", [Errors.NOT_COORDINATOR, Errors.COORDINATOR_LOAD_IN_PROGRESS])
def test_add_partitions_when_not_coordinator_or_loading(env: Env, error: Errors) -> None:
    """The state manager's error is returned as is."""
    env.txn_manager.states = [error]
    assert env.add(0, 1) == error


@pytest.mark.parametrize("state", [S.PrepareCommit, S.PrepareAbort])
def test_add_partitions_while_ending(env: Env, state: TransactionState) -> None:
    """While the transaction is ending AddPartitionsToTxn is CONCURRENT_TRANSACTIONS."""
    env.has(env.metadata(state, partitions=set()))
    assert env.add() == Errors.CONCURRENT_TRANSACTIONS
    assert env.txn_manager.appends() == []


def test_add_partitions_with_pending_transition(env: Env) -> None:
    """A change being written makes AddPartitionsToTxn CONCURRENT_TRANSACTIONS."""
    txn = env.metadata(S.Ongoing, partitions=set())
    txn.prepare_add_partitions({TopicPartition("other", 0)}, env.now())
    env.has(txn)
    assert env.add() == Errors.CONCURRENT_TRANSACTIONS


def test_add_partitions_with_another_epoch_is_fenced(env: Env) -> None:
    """Another epoch than the current one is PRODUCER_FENCED; another producer id INVALID_PRODUCER_ID_MAPPING."""
    env.has(env.metadata(S.Ongoing, producer_epoch=10, last_producer_epoch=9))
    assert env.add(epoch=0) == Errors.PRODUCER_FENCED
    assert env.add(producer_id=PRODUCER_ID + 1, epoch=10) == Errors.INVALID_PRODUCER_ID_MAPPING
    assert env.txn_manager.appends() == []


@pytest.mark.parametrize("state", [S.Empty, S.Ongoing, S.CompleteCommit, S.CompleteAbort])
def test_add_partitions_appends_new_metadata(env: Env, state: TransactionState) -> None:
    """New partitions are appended as an Ongoing transit; the append's answer goes to the producer."""
    env.has(env.metadata(state, partitions=set(), last_producer_epoch=PRODUCER_EPOCH - 1))
    env.txn_manager.append_answers = [answer(Errors.NONE)]
    assert env.add() == Errors.NONE
    [(_, txn_id, epoch, transit)] = env.txn_manager.appends()
    assert (txn_id, epoch, transit.txn_state, transit.topic_partitions) == (
        TXN_ID,
        COORDINATOR_EPOCH,
        S.Ongoing,
        frozenset(PARTITIONS),
    )


def test_add_partitions_already_in_the_transaction(env: Env) -> None:
    """Partitions already in the open transaction are acknowledged without an append."""
    env.has(env.metadata(S.Ongoing))
    assert env.add() == Errors.NONE
    assert env.txn_manager.appends() == []
    assert env.txn_manager.count("get_transaction_state") == 1


# ---- AddPartitionsToTxn v4 verify-only (3.7) -------------------------------------------------------------------------


def test_verify_partition_handling(env: Env) -> None:
    """Verify-only answers per partition: mapping, fencing and ending checks first, then membership."""
    tp = ("topic1", 0)
    env.has(env.metadata(S.PrepareCommit, producer_id=1, producer_epoch=0))
    assert env.verify(0, 0, PARTITIONS) == {tp: Errors.INVALID_PRODUCER_ID_MAPPING}
    env.has(env.metadata(S.PrepareCommit, producer_id=0, producer_epoch=0))
    assert env.verify(0, 1, PARTITIONS) == {tp: Errors.PRODUCER_FENCED}
    assert env.verify(0, 0, PARTITIONS) == {tp: Errors.CONCURRENT_TRANSACTIONS}
    ongoing = env.metadata(S.Ongoing, producer_id=0, producer_epoch=0, partitions=set())
    ongoing.pending_state = S.CompleteCommit  # not looked at
    env.has(ongoing)
    assert env.verify(0, 0, PARTITIONS) == {tp: Errors.INVALID_TXN_STATE}
    assert env.txn_manager.appends() == []


def test_verify_partitions_present_and_absent(env: Env) -> None:
    """A partition in the transaction is NONE, one outside it INVALID_TXN_STATE."""
    env.has(env.metadata(S.Ongoing, producer_id=0, producer_epoch=0))
    extra = PARTITIONS | {TopicPartition("topic2", 0)}
    assert env.verify(0, 0, extra) == {("topic1", 0): Errors.NONE, ("topic2", 0): Errors.INVALID_TXN_STATE}


def test_verify_partitions_errors_of_the_state_manager(env: Env) -> None:
    """Unknown id, NOT_COORDINATOR and an empty id give every partition that error."""
    env.txn_manager.states = [None]
    assert env.verify(0, 0, PARTITIONS) == {("topic1", 0): Errors.INVALID_PRODUCER_ID_MAPPING}
    env.txn_manager.states = [Errors.NOT_COORDINATOR]
    assert env.verify(0, 0, PARTITIONS) == {("topic1", 0): Errors.NOT_COORDINATOR}
    assert env.verify(0, 0, PARTITIONS, transactional_id="") == {("topic1", 0): Errors.INVALID_REQUEST}


# ---- EndTxn --------------------------------------------------------------------------------------------------------


def test_end_txn_for_unknown_id(env: Env) -> None:
    """EndTxn for an id the coordinator does not know is INVALID_PRODUCER_ID_MAPPING."""
    env.txn_manager.states = [None]
    assert env.end(TransactionResult.COMMIT, 0, 0) == Errors.INVALID_PRODUCER_ID_MAPPING
    assert env.txn_manager.count("get_transaction_state") == 1


def test_end_txn_with_another_producer_id(env: Env) -> None:
    """Another producer id than the mapped one is INVALID_PRODUCER_ID_MAPPING."""
    env.has(env.metadata(S.Ongoing, producer_epoch=0, partitions=set()))
    assert env.end(TransactionResult.COMMIT, 0, 0) == Errors.INVALID_PRODUCER_ID_MAPPING


@pytest.mark.parametrize(("state", "request_epoch"), [(S.Ongoing, 0), (S.CompleteCommit, 2), (S.CompleteCommit, 0)])
def test_end_txn_with_another_epoch_is_fenced(env: Env, state: TransactionState, request_epoch: int) -> None:
    """A client's EndTxn must carry the current epoch exactly: larger or smaller is PRODUCER_FENCED."""
    txn = env.metadata(state, last_producer_epoch=0, partitions=set())
    env.has(txn)
    assert env.end(TransactionResult.COMMIT, epoch=request_epoch) == Errors.PRODUCER_FENCED
    assert txn.state == state and txn.pending_state is None


@pytest.mark.parametrize(
    ("state", "result", "error"),
    [
        (S.CompleteCommit, TransactionResult.COMMIT, Errors.NONE),
        (S.CompleteAbort, TransactionResult.ABORT, Errors.NONE),
        (S.CompleteAbort, TransactionResult.COMMIT, Errors.INVALID_TXN_STATE),
        (S.CompleteCommit, TransactionResult.ABORT, Errors.INVALID_TXN_STATE),
        (S.PrepareCommit, TransactionResult.COMMIT, Errors.CONCURRENT_TRANSACTIONS),
        (S.PrepareCommit, TransactionResult.ABORT, Errors.INVALID_TXN_STATE),
        (S.PrepareAbort, TransactionResult.ABORT, Errors.CONCURRENT_TRANSACTIONS),
        (S.PrepareAbort, TransactionResult.COMMIT, Errors.INVALID_TXN_STATE),
        (S.Empty, TransactionResult.COMMIT, Errors.INVALID_TXN_STATE),
        (S.Empty, TransactionResult.ABORT, Errors.INVALID_TXN_STATE),
    ],
)
def test_end_txn_outside_an_open_transaction(
    env: Env, state: TransactionState, result: TransactionResult, error: Errors
) -> None:
    """EndTxn outside Ongoing: a repeat of the finished outcome is NONE, the same outcome still being written
    CONCURRENT_TRANSACTIONS, anything else INVALID_TXN_STATE; nothing is appended and the state is unchanged."""
    txn = env.metadata(state, last_producer_epoch=0, partitions=set())
    env.has(txn)
    assert env.end(result) == error
    assert env.txn_manager.appends() == []
    assert (txn.state, txn.pending_state) == (state, None)


@pytest.mark.parametrize("transactional_id", ["", None])
def test_end_txn_without_transactional_id(env: Env, transactional_id: str | None) -> None:
    """A missing transactional id is INVALID_REQUEST."""
    env.txn_manager.states = [Errors.NOT_COORDINATOR]
    assert env.end(TransactionResult.COMMIT, 0, 0, transactional_id=transactional_id) == Errors.INVALID_REQUEST


@pytest.mark.parametrize("error", [Errors.NOT_COORDINATOR, Errors.COORDINATOR_LOAD_IN_PROGRESS])
def test_end_txn_when_not_coordinator_or_loading(env: Env, error: Errors) -> None:
    """The state manager's error is returned as is."""
    env.txn_manager.states = [error]
    assert env.end(TransactionResult.COMMIT, 0, 0) == error


@pytest.mark.parametrize(
    ("result", "prepare", "complete"),
    [
        (TransactionResult.COMMIT, S.PrepareCommit, S.CompleteCommit),
        (TransactionResult.ABORT, S.PrepareAbort, S.CompleteAbort),
    ],
)
def test_end_txn_appends_prepare_then_hands_markers_over(
    env: Env, result: TransactionResult, prepare: TransactionState, complete: TransactionState
) -> None:
    """An Ongoing transaction's EndTxn appends PrepareCommit/PrepareAbort; once written the producer is answered
    and the markers go to the marker channel manager with the Complete transit."""
    txn = env.metadata(S.Ongoing)
    env.has(txn)
    env.txn_manager.append_answers = [completing(txn)]
    assert env.end(result) == Errors.NONE
    now = env.now()
    expected = TxnTransitMetadata(
        PRODUCER_ID,
        PRODUCER_ID,
        PRODUCER_EPOCH,
        NO_PRODUCER_EPOCH,
        TXN_TIMEOUT_MS,
        prepare,
        frozenset(PARTITIONS),
        now,
        now,
    )
    assert [a[3] for a in env.txn_manager.appends()] == [expected]
    [(name, epoch, marker_result, marker_txn, transit)] = env.markers.calls
    assert (name, epoch, marker_result, marker_txn) == ("add_txn_markers_to_send", COORDINATOR_EPOCH, result, txn)
    assert (transit.txn_state, transit.topic_partitions) == (complete, frozenset())
    assert txn.pending_state == complete


def test_end_txn_append_failure_sends_no_markers(env: Env) -> None:
    """A failed PrepareCommit append is returned to the producer and no marker is sent."""
    env.has(env.metadata(S.Ongoing))
    env.txn_manager.append_answers = [answer(Errors.NOT_ENOUGH_REPLICAS)]
    assert env.end(TransactionResult.COMMIT) == Errors.NOT_ENOUGH_REPLICAS
    assert env.markers.calls == []


def test_end_txn_after_coordinator_epoch_changed(env: Env) -> None:
    """If the partition changed coordinator epoch while the prepare was written, the answer is NOT_COORDINATOR."""
    txn = env.metadata(S.Ongoing)
    env.txn_manager.states = [
        CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, txn),
        CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH + 1, txn),
    ]
    env.txn_manager.append_answers = [completing(txn)]
    assert env.end(TransactionResult.COMMIT) == Errors.NOT_COORDINATOR
    assert env.markers.calls == []


# ---- timed-out transactions ----------------------------------------------------------------------------------------


def test_abort_expired_transactions_in_ongoing_state_and_bump_epoch(env: Env) -> None:
    """The transaction-abort task fences a timed-out transaction's producer (epoch + 1) and appends PrepareAbort."""
    now = env.now()
    env.has(env.metadata(S.Ongoing))
    env.txn_manager.timed_out = [TransactionalIdAndProducerIdEpoch(TXN_ID, PRODUCER_ID, PRODUCER_EPOCH)]
    env.coordinator.startup(lambda: 1, False)
    env.time.sleep(DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS)
    env.scheduler.tick()

    expected = TxnTransitMetadata(
        PRODUCER_ID,
        PRODUCER_ID,
        PRODUCER_EPOCH + 1,
        NO_PRODUCER_EPOCH,
        TXN_TIMEOUT_MS,
        S.PrepareAbort,
        frozenset(PARTITIONS),
        now,
        now + DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS,
    )
    assert env.txn_manager.count("timed_out_transactions") == 1
    assert env.txn_manager.count("get_transaction_state") == 2
    assert [a[3] for a in env.txn_manager.appends()] == [expected]


def test_abort_does_not_accept_a_smaller_epoch(env: Env) -> None:
    """If the epoch moved past the fence's meanwhile, the timeout abort ends PRODUCER_FENCED."""
    env.has(env.metadata(S.Ongoing), env.metadata(S.Ongoing, producer_epoch=PRODUCER_EPOCH + 2))
    env.txn_manager.timed_out = [TransactionalIdAndProducerIdEpoch(TXN_ID, PRODUCER_ID, PRODUCER_EPOCH)]
    errors: list[Errors] = []
    env.coordinator.abort_timed_out_transactions(lambda _txn: errors.append)
    assert errors == [Errors.PRODUCER_FENCED]
    assert env.txn_manager.count("get_transaction_state") == 2


def test_abort_skips_transactions_with_a_pending_transition(env: Env) -> None:
    """A timed-out transaction already changing state is left alone."""
    txn = env.metadata(S.Ongoing)
    txn.prepare_abort_or_commit(S.PrepareCommit, env.now())
    env.has(txn)
    env.txn_manager.timed_out = [TransactionalIdAndProducerIdEpoch(TXN_ID, PRODUCER_ID, PRODUCER_EPOCH)]
    env.coordinator.startup(lambda: 1, False)
    env.time.sleep(DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS)
    assert env.txn_manager.count("timed_out_transactions") == 1
    assert env.txn_manager.count("get_transaction_state") == 1
    assert env.txn_manager.appends() == []


def test_abort_skips_a_replaced_producer_id(env: Env) -> None:
    """A timed-out entry whose producer id is no longer the id's is not aborted."""
    env.has(env.metadata(S.Ongoing, producer_id=PRODUCER_ID + 1))
    env.txn_manager.timed_out = [TransactionalIdAndProducerIdEpoch(TXN_ID, PRODUCER_ID, PRODUCER_EPOCH)]
    env.coordinator.abort_timed_out_transactions(lambda _txn: lambda _e: None)
    assert env.txn_manager.appends() == []


def test_abort_does_not_bump_epoch_again_when_append_fails(env: Env) -> None:
    """A timeout abort whose append fails marks the failed fence, so the next fence reuses the epoch."""
    now = env.now()
    txn = env.metadata(S.Ongoing)
    after_failure = env.metadata(S.Ongoing, producer_epoch=PRODUCER_EPOCH + 1)
    env.has(txn, txn, after_failure)
    env.txn_manager.timed_out = [TransactionalIdAndProducerIdEpoch(TXN_ID, PRODUCER_ID, PRODUCER_EPOCH)]
    env.txn_manager.append_answers = [answer(Errors.NOT_ENOUGH_REPLICAS)]
    env.coordinator.startup(lambda: 1, False)
    env.time.sleep(DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS)

    expected = TxnTransitMetadata(
        PRODUCER_ID,
        PRODUCER_ID,
        PRODUCER_EPOCH + 1,
        NO_PRODUCER_EPOCH,
        TXN_TIMEOUT_MS,
        S.PrepareAbort,
        frozenset(PARTITIONS),
        now,
        now + DEFAULT_ABORT_TIMED_OUT_TRANSACTIONS_INTERVAL_MS,
    )
    assert env.txn_manager.count("get_transaction_state") == 3
    assert [a[3] for a in env.txn_manager.appends()] == [expected]
    assert after_failure.producer_epoch == PRODUCER_EPOCH + 1
    assert after_failure.has_failed_epoch_fence


# ---- leadership, lifecycle -----------------------------------------------------------------------------------------


def test_remove_transactions_for_partition_on_emigration(env: Env) -> None:
    """Resigning drops the partition's transactions and its queued markers."""
    env.coordinator.on_resignation(0, COORDINATOR_EPOCH)
    env.coordinator.on_resignation(1, None)
    assert env.txn_manager.calls == [
        ("remove_transactions_for_txn_topic_partition", 0, COORDINATOR_EPOCH),
        ("remove_transactions_for_txn_topic_partition", 1, None),
    ]
    assert env.markers.calls == [
        ("remove_markers_for_txn_topic_partition", 0),
        ("remove_markers_for_txn_topic_partition", 1),
    ]


def test_load_transactions_on_election(env: Env) -> None:
    """Election clears leftover markers first, then loads with the marker manager as the sender of markers."""
    env.coordinator.on_election(3, 7)
    assert env.markers.calls == [("remove_markers_for_txn_topic_partition", 3)]
    [(name, partition, epoch, send)] = env.txn_manager.calls
    assert (name, partition, epoch) == ("load_transactions_for_txn_topic_partition", 3, 7)
    assert send == env.markers.add_txn_markers_to_send


def test_startup_and_shutdown(env: Env) -> None:
    """Startup schedules transaction-abort, starts the state manager and the marker sender; shutdown stops all."""
    assert not env.coordinator.is_active
    env.coordinator.startup(lambda: 5)
    assert env.coordinator.is_active
    assert env.scheduler.size == 1
    assert ("startup", 5, True) in env.txn_manager.calls
    assert env.markers.calls == [("start",)]
    env.coordinator.shutdown()
    assert not env.coordinator.is_active
    assert env.pid.shut_down
    assert env.txn_manager.calls[-1] == ("shutdown",)
    assert env.markers.calls[-1] == ("shutdown",)


def test_partition_for_and_topic_configs(env: Env) -> None:
    """partition_for and transaction_topic_configs are the state manager's."""
    assert env.coordinator.partition_for(TXN_ID) == 0
    assert env.coordinator.transaction_topic_configs() == {"cleanup.policy": "compact"}


# ---- DescribeTransactions / ListTransactions (3.7) -----------------------------------------------------------------


def test_describe_transactions_with_empty_transactional_id(env: Env) -> None:
    """An empty id is INVALID_REQUEST."""
    env.coordinator.startup(lambda: 1, False)
    result = env.coordinator.handle_describe_transactions("")
    assert (result.transactional_id, Errors.for_code(result.error_code)) == ("", Errors.INVALID_REQUEST)


def test_describe_transactions_with_expiring_transactional_id(env: Env) -> None:
    """A Dead id (being expired) is TRANSACTIONAL_ID_NOT_FOUND, as is an unknown one."""
    env.coordinator.startup(lambda: 1, False)
    env.has(env.metadata(S.Dead, partitions=set()))
    result = env.coordinator.handle_describe_transactions(TXN_ID)
    assert (result.transactional_id, Errors.for_code(result.error_code)) == (TXN_ID, Errors.TRANSACTIONAL_ID_NOT_FOUND)
    env.txn_manager.states = [None]
    result = env.coordinator.handle_describe_transactions(TXN_ID)
    assert Errors.for_code(result.error_code) == Errors.TRANSACTIONAL_ID_NOT_FOUND


def test_describe_transactions_while_coordinator_loading(env: Env) -> None:
    """The state manager's COORDINATOR_LOAD_IN_PROGRESS is returned."""
    env.txn_manager.states = [Errors.COORDINATOR_LOAD_IN_PROGRESS]
    env.coordinator.startup(lambda: 1, False)
    result = env.coordinator.handle_describe_transactions(TXN_ID)
    assert (result.transactional_id, Errors.for_code(result.error_code)) == (
        TXN_ID,
        Errors.COORDINATOR_LOAD_IN_PROGRESS,
    )
    assert env.txn_manager.count("get_transaction_state") == 1


def test_describe_transactions_before_startup(env: Env) -> None:
    """An inactive coordinator answers COORDINATOR_NOT_AVAILABLE without looking anything up."""
    result = env.coordinator.handle_describe_transactions(TXN_ID)
    assert Errors.for_code(result.error_code) == Errors.COORDINATOR_NOT_AVAILABLE
    assert env.txn_manager.calls == []


def test_describe_transactions(env: Env) -> None:
    """An open transaction is described with its producer, state name, timeout, start time and partitions."""
    partitions = {TopicPartition("topic1", 0), TopicPartition("topic1", 3), TopicPartition("topic2", 1)}
    env.has(env.metadata(S.Ongoing, partitions=partitions))
    env.coordinator.startup(lambda: 1, False)
    result = env.coordinator.handle_describe_transactions(TXN_ID)
    assert Errors.for_code(result.error_code) == Errors.NONE
    assert (result.transactional_id, result.producer_id, result.producer_epoch) == (TXN_ID, PRODUCER_ID, PRODUCER_EPOCH)
    assert (result.transaction_state, result.transaction_timeout_ms) == ("Ongoing", TXN_TIMEOUT_MS)
    assert result.transaction_start_time_ms == env.now()
    added = {TopicPartition(t.topic, p) for t in result.topics for p in t.partitions}
    assert added == partitions
    assert len(result.topics) == 2
    assert env.txn_manager.count("get_transaction_state") == 1


def test_list_transactions(env: Env) -> None:
    """Before startup ListTransactions is COORDINATOR_NOT_AVAILABLE; then the state manager's listing, filtered."""
    assert env.coordinator.handle_list_transactions(set(), set()).error_code == Errors.COORDINATOR_NOT_AVAILABLE.code
    env.coordinator.startup(lambda: 1, False)
    assert env.coordinator.handle_list_transactions({PRODUCER_ID}, {"Ongoing"}) is env.txn_manager.list_result
    assert ("list_transaction_states", {PRODUCER_ID}, {"Ongoing"}) in env.txn_manager.calls


# ---- TransactionCoordinator.apply ----------------------------------------------------------------------------------


def test_apply_builds_the_coordinator_from_the_broker_config() -> None:
    """apply() takes the transaction settings from KafkaConfig and wires the state and marker managers together."""
    from kafka.common.metrics.metrics import Metrics
    from kafka.coordinator.transaction.transaction_marker_channel_manager import TransactionMarkerChannelManager
    from kafka.coordinator.transaction.transaction_state_manager import TransactionStateManager
    from kafka.server.kafka_config import KafkaConfig

    config = KafkaConfig.from_props(
        {
            "zookeeper.connect": "localhost:2181",
            "broker.id": "3",
            "transaction.max.timeout.ms": "60000",
            "transaction.state.log.num.partitions": "7",
            "transaction.abort.timed.out.transaction.cleanup.interval.ms": "1234",
            "transactional.id.expiration.ms": "99999",
        },
        do_log=False,
    )
    time = MockTime()
    pid = FakePidGenerator()
    metrics = Metrics()
    try:
        coordinator = TransactionCoordinator.apply(
            config,
            object(),  # type: ignore[arg-type]  # a placeholder replica manager
            MockScheduler(time),
            lambda: pid,
            metrics,
            object(),  # type: ignore[arg-type]  # a placeholder metadata cache
            time,
        )
        assert coordinator.producer_id_manager is pid
        assert coordinator.log_ident == "[TransactionCoordinator id=3] "
        assert isinstance(coordinator.txn_manager, TransactionStateManager)
        assert isinstance(coordinator.txn_marker_channel_manager, TransactionMarkerChannelManager)
        assert coordinator.txn_marker_channel_manager.txn_state_manager is coordinator.txn_manager
        txn_config = coordinator.txn_config
        assert (
            txn_config.transaction_max_timeout_ms,
            txn_config.transaction_log_num_partitions,
            txn_config.abort_timed_out_transactions_interval_ms,
            txn_config.transactional_id_expiration_ms,
            txn_config.request_timeout_ms,
        ) == (60000, 7, 1234, 99999, config.request_timeout_ms)
        assert coordinator.txn_manager.validate_transaction_timeout_ms(60000)
        assert not coordinator.txn_manager.validate_transaction_timeout_ms(60001)
        assert coordinator.txn_marker_channel_manager.name == "TxnMarkerSenderThread-3"
        coordinator.txn_marker_channel_manager.network_client.close()  # never started: only its selector to close
    finally:
        metrics.close()
