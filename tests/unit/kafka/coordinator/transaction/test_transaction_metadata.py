"""Tests of kafka.coordinator.transaction.transaction_metadata (Kafka 2.8's TransactionMetadataTest, and more)."""

from __future__ import annotations

import pytest

from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.common.utils.utils import IllegalArgumentException
from kafka.coordinator.transaction.transaction_metadata import (
    IllegalStateException,
    TransactionMetadata,
    TransactionState,
    TxnTransitMetadata,
)

PRODUCER_ID = 23423
TRANSACTIONAL_ID = "txnlId"
SHORT_MAX = 32767
S = TransactionState


@pytest.fixture
def time() -> MockTime:
    return MockTime()


def metadata(
    time: MockTime,
    producer_epoch: int,
    state: TransactionState = S.Empty,
    last_producer_id: int = NO_PRODUCER_ID,
    last_producer_epoch: int = NO_PRODUCER_EPOCH,
    txn_start_timestamp: int = -1,
    partitions: set[TopicPartition] | None = None,
) -> TransactionMetadata:
    return TransactionMetadata(
        transactional_id=TRANSACTIONAL_ID,
        producer_id=PRODUCER_ID,
        last_producer_id=last_producer_id,
        producer_epoch=producer_epoch,
        last_producer_epoch=last_producer_epoch,
        txn_timeout_ms=30000,
        state=state,
        topic_partitions=set() if partitions is None else partitions,
        txn_start_timestamp=txn_start_timestamp,
        txn_last_update_timestamp=time.milliseconds(),
    )


def successful_increment(txn_metadata: TransactionMetadata, expected_epoch: int | None, now: int) -> TxnTransitMetadata:
    result = txn_metadata.prepare_increment_producer_epoch(30000, expected_epoch, now)
    assert isinstance(result, TxnTransitMetadata), f"prepare_increment_producer_epoch failed with {result}"
    return result


# ---- the states ---------------------------------------------------------------------------------------------------


def test_states_have_kafkas_ids_and_names() -> None:
    """Each state carries Kafka's byte id and name, and from_id/from_name find it again."""
    expected = [
        (0, "Empty"),
        (1, "Ongoing"),
        (2, "PrepareCommit"),
        (3, "PrepareAbort"),
        (4, "CompleteCommit"),
        (5, "CompleteAbort"),
        (6, "Dead"),
        (7, "PrepareEpochFence"),
    ]
    assert [(s.id, s.name) for s in TransactionState] == expected
    for state_id, name in expected:
        assert TransactionState.from_id(state_id).name == name
        assert TransactionState.from_name(name) is TransactionState.from_id(state_id)
    assert TransactionState.from_name("Bogus") is None
    with pytest.raises(IllegalStateException, match="Unknown transaction state id 8"):
        TransactionState.from_id(8)


def test_valid_previous_states_and_expiration_are_kafkas() -> None:
    """The transition table and the expirable states are Kafka's."""
    assert S.Empty.valid_previous_states == {S.Empty, S.CompleteCommit, S.CompleteAbort}
    assert S.Ongoing.valid_previous_states == {S.Ongoing, S.Empty, S.CompleteCommit, S.CompleteAbort}
    assert S.PrepareCommit.valid_previous_states == {S.Ongoing}
    assert S.PrepareAbort.valid_previous_states == {S.Ongoing, S.PrepareEpochFence}
    assert S.CompleteCommit.valid_previous_states == {S.PrepareCommit}
    assert S.CompleteAbort.valid_previous_states == {S.PrepareAbort}
    assert S.Dead.valid_previous_states == {S.Empty, S.CompleteAbort, S.CompleteCommit}
    assert S.PrepareEpochFence.valid_previous_states == {S.Ongoing}
    assert {s for s in TransactionState if s.is_expiration_allowed} == {S.Empty, S.CompleteCommit, S.CompleteAbort}
    assert TransactionMetadata.is_valid_transition(S.Ongoing, S.PrepareCommit)
    assert not TransactionMetadata.is_valid_transition(S.Empty, S.PrepareCommit)


# ---- Kafka's TransactionMetadataTest ------------------------------------------------------------------------------


def test_initialize_epoch(time: MockTime) -> None:
    """A new id (epoch -1) gets epoch 0."""
    txn = metadata(time, NO_PRODUCER_EPOCH)
    txn.complete_transition_to(successful_increment(txn, None, time.milliseconds()))
    assert (txn.producer_id, txn.producer_epoch, txn.last_producer_epoch) == (PRODUCER_ID, 0, NO_PRODUCER_EPOCH)


def test_normal_epoch_bump(time: MockTime) -> None:
    """Without an expected epoch the epoch goes up by one and the last epoch is forgotten."""
    txn = metadata(time, 735)
    txn.complete_transition_to(successful_increment(txn, None, time.milliseconds()))
    assert (txn.producer_id, txn.producer_epoch, txn.last_producer_epoch) == (PRODUCER_ID, 736, NO_PRODUCER_EPOCH)


def test_bump_epoch_not_allowed_if_epochs_exhausted(time: MockTime) -> None:
    """At Short.MaxValue - 1 no further epoch is handed out."""
    txn = metadata(time, SHORT_MAX - 1)
    assert txn.is_producer_epoch_exhausted
    with pytest.raises(
        IllegalStateException, match=f"Cannot allocate any more producer epochs for producerId {PRODUCER_ID}"
    ):
        txn.prepare_increment_producer_epoch(30000, None, time.milliseconds())


def test_tolerate_update_time_shift_during_epoch_bump(time: MockTime) -> None:
    """A bump with an earlier update time than the last one is accepted."""
    txn = metadata(time, 1, txn_start_timestamp=1)
    txn.complete_transition_to(successful_increment(txn, 1, time.milliseconds() - 1))
    assert (txn.producer_id, txn.producer_epoch, txn.last_producer_epoch) == (PRODUCER_ID, 2, 1)
    assert txn.txn_start_timestamp == 1
    assert txn.txn_last_update_timestamp == time.milliseconds() - 1


def test_tolerate_update_time_reset_during_producer_id_rotation(time: MockTime) -> None:
    """A rotation with an earlier update time is accepted; it records the last epoch when asked."""
    txn = metadata(time, 1, txn_start_timestamp=1)
    txn.complete_transition_to(
        txn.prepare_producer_id_rotation(PRODUCER_ID + 1, 30000, time.milliseconds() - 1, record_last_epoch=True)
    )
    assert (txn.producer_id, txn.last_producer_epoch, txn.producer_epoch) == (PRODUCER_ID + 1, 1, 0)
    assert txn.txn_start_timestamp == 1
    assert txn.txn_last_update_timestamp == time.milliseconds() - 1


def test_tolerate_time_shift_during_add_partitions(time: MockTime) -> None:
    """From Empty the start time becomes the update time; once Ongoing it stays."""
    now = time.milliseconds()
    txn = metadata(time, 1, txn_start_timestamp=now)
    txn.complete_transition_to(txn.prepare_add_partitions({TopicPartition("topic1", 0)}, now - 1))
    assert txn.topic_partitions == {TopicPartition("topic1", 0)}
    assert (txn.producer_id, txn.last_producer_epoch, txn.producer_epoch) == (PRODUCER_ID, NO_PRODUCER_EPOCH, 1)
    assert (txn.txn_start_timestamp, txn.txn_last_update_timestamp) == (now - 1, now - 1)

    txn.complete_transition_to(txn.prepare_add_partitions({TopicPartition("topic2", 0)}, now - 2))
    assert txn.topic_partitions == {TopicPartition("topic1", 0), TopicPartition("topic2", 0)}
    assert txn.state == S.Ongoing
    assert (txn.txn_start_timestamp, txn.txn_last_update_timestamp) == (now - 1, now - 2)


@pytest.mark.parametrize("new_state", [S.PrepareCommit, S.PrepareAbort])
def test_tolerate_time_shift_during_prepare_commit_or_abort(time: MockTime, new_state: TransactionState) -> None:
    """EndTxn's prepare state is accepted with an earlier update time and keeps the start time."""
    txn = metadata(time, 1, state=S.Ongoing, txn_start_timestamp=1)
    txn.complete_transition_to(txn.prepare_abort_or_commit(new_state, time.milliseconds() - 1))
    assert txn.state == new_state
    assert (txn.producer_id, txn.last_producer_epoch, txn.producer_epoch) == (PRODUCER_ID, NO_PRODUCER_EPOCH, 1)
    assert (txn.txn_start_timestamp, txn.txn_last_update_timestamp) == (1, time.milliseconds() - 1)


@pytest.mark.parametrize(
    ("from_state", "to_state"), [(S.PrepareCommit, S.CompleteCommit), (S.PrepareAbort, S.CompleteAbort)]
)
def test_tolerate_time_shift_during_complete(
    time: MockTime, from_state: TransactionState, to_state: TransactionState
) -> None:
    """Completion follows the prepare state, clears the partitions and accepts an earlier update time."""
    txn = metadata(time, 1, state=from_state, txn_start_timestamp=1, partitions={TopicPartition("t", 0)})
    transit = txn.prepare_complete(time.milliseconds() - 1)
    assert transit.topic_partitions == frozenset()
    txn.complete_transition_to(transit)
    assert txn.state == to_state
    assert txn.topic_partitions == set()
    assert (txn.producer_id, txn.last_producer_epoch, txn.producer_epoch) == (PRODUCER_ID, NO_PRODUCER_EPOCH, 1)
    assert (txn.txn_start_timestamp, txn.txn_last_update_timestamp) == (1, time.milliseconds() - 1)


def test_fence_producer_after_epochs_exhausted(time: MockTime) -> None:
    """The coordinator can still fence at Short.MaxValue - 1: the fence takes Short.MaxValue."""
    txn = metadata(time, SHORT_MAX - 1, state=S.Ongoing)
    assert txn.is_producer_epoch_exhausted
    fencing = txn.prepare_fence_producer_epoch()
    assert fencing.producer_epoch == SHORT_MAX
    assert fencing.last_producer_epoch == NO_PRODUCER_EPOCH
    assert txn.pending_state == S.PrepareEpochFence

    txn.pending_state = None  # what EndTxn does to make way for the abort
    transit = txn.prepare_abort_or_commit(S.PrepareAbort, time.milliseconds())
    txn.complete_transition_to(transit)
    assert transit.producer_id == PRODUCER_ID
    assert txn.state == S.PrepareAbort


def test_fence_producer_not_allowed_if_it_would_overflow(time: MockTime) -> None:
    """A fence at Short.MaxValue would overflow the epoch."""
    txn = metadata(time, SHORT_MAX, state=S.Ongoing)
    assert txn.is_producer_epoch_exhausted
    with pytest.raises(IllegalStateException, match=r"Cannot fence producer with epoch equal to Short\.MaxValue"):
        txn.prepare_fence_producer_epoch()


def test_fence_after_failed_fence_reuses_the_epoch(time: MockTime) -> None:
    """After a fence whose write failed, the next fence does not bump again; a completed prepare clears that."""
    txn = metadata(time, 5, state=S.Ongoing)
    txn.has_failed_epoch_fence = True
    assert txn.prepare_fence_producer_epoch().producer_epoch == 5
    txn.pending_state = None
    txn.state = S.PrepareAbort
    txn.prepare_complete(time.milliseconds())
    assert not txn.has_failed_epoch_fence


def test_rotate_producer_id(time: MockTime) -> None:
    """Rotation moves to a new producer id at epoch 0 and remembers the old id and epoch."""
    txn = metadata(time, SHORT_MAX - 1)
    txn.complete_transition_to(
        txn.prepare_producer_id_rotation(9893, 30000, time.milliseconds(), record_last_epoch=True)
    )
    assert (txn.producer_id, txn.last_producer_id, txn.producer_epoch, txn.last_producer_epoch) == (
        9893,
        PRODUCER_ID,
        0,
        SHORT_MAX - 1,
    )


@pytest.mark.parametrize("state", [S.Ongoing, S.PrepareAbort, S.PrepareCommit])
def test_rotate_producer_id_with_pending_transaction(time: MockTime, state: TransactionState) -> None:
    """No rotation while a transaction is open or ending."""
    txn = metadata(time, SHORT_MAX - 1, state=state, last_producer_id=PRODUCER_ID)
    with pytest.raises(IllegalStateException, match="Cannot rotate producer ids while a transaction is still pending"):
        txn.prepare_producer_id_rotation(9893, 30000, time.milliseconds(), record_last_epoch=False)


def test_attempted_epoch_bump_with_newly_created_metadata(time: MockTime) -> None:
    """With an expected epoch but no current one (new metadata), the producer gets epoch 0."""
    txn = metadata(time, NO_PRODUCER_EPOCH)
    txn.complete_transition_to(successful_increment(txn, 735, time.milliseconds()))
    assert (txn.producer_id, txn.producer_epoch, txn.last_producer_epoch) == (PRODUCER_ID, 0, NO_PRODUCER_EPOCH)


def test_epoch_bump_with_current_epoch_provided(time: MockTime) -> None:
    """KIP-360: the current epoch given, the epoch is bumped and the old one remembered."""
    txn = metadata(time, 735)
    txn.complete_transition_to(successful_increment(txn, 735, time.milliseconds()))
    assert (txn.producer_id, txn.producer_epoch, txn.last_producer_epoch) == (PRODUCER_ID, 736, 735)


def test_attempted_epoch_bump_with_last_epoch(time: MockTime) -> None:
    """A retry naming the previous epoch gets the current epoch again, unbumped."""
    txn = metadata(time, 735, last_producer_epoch=734)
    txn.complete_transition_to(successful_increment(txn, 734, time.milliseconds()))
    assert (txn.producer_id, txn.producer_epoch, txn.last_producer_epoch) == (PRODUCER_ID, 735, 734)


def test_attempted_epoch_bump_with_fenced_epoch(time: MockTime) -> None:
    """Any other expected epoch is fenced."""
    txn = metadata(time, 735, last_producer_id=PRODUCER_ID, last_producer_epoch=734)
    assert txn.prepare_increment_producer_epoch(30000, 733, time.milliseconds()) is Errors.PRODUCER_FENCED
    assert txn.pending_state is None


# ---- the transition checks ------------------------------------------------------------------------------------------


def test_prepare_while_pending_is_refused(time: MockTime) -> None:
    """A second prepare before the first completes is an IllegalStateException naming both states."""
    txn = metadata(time, 1)
    txn.prepare_add_partitions({TopicPartition("t", 0)}, time.milliseconds())
    assert txn.pending_transition_in_progress
    with pytest.raises(
        IllegalStateException,
        match="Preparing transaction state transition to Ongoing while it already a pending state Ongoing",
    ):
        txn.prepare_add_partitions({TopicPartition("t", 1)}, time.milliseconds())


def test_prepare_invalid_transition_is_refused(time: MockTime) -> None:
    """A target whose valid previous states do not include the current one is refused, nothing pending."""
    txn = metadata(time, 1)
    with pytest.raises(
        IllegalStateException,
        match="Preparing transaction state transition to PrepareCommit failed since the target state PrepareCommit "
        "is not a valid previous state of the current state Empty",
    ):
        txn.prepare_abort_or_commit(S.PrepareCommit, time.milliseconds())
    assert txn.pending_state is None


def test_prepare_with_illegal_producer_id_or_epoch(time: MockTime) -> None:
    """Negative ids and epochs are IllegalArgumentException."""
    txn = metadata(time, 1)
    with pytest.raises(IllegalArgumentException, match="Illegal new producer id -5"):
        txn.prepare_producer_id_rotation(-5, 30000, time.milliseconds(), record_last_epoch=False)
    txn_new = metadata(time, NO_PRODUCER_EPOCH, state=S.Ongoing)
    with pytest.raises(IllegalArgumentException, match="Illegal new producer epoch -1"):
        txn_new.prepare_abort_or_commit(S.PrepareAbort, time.milliseconds())


def test_complete_without_pending_state(time: MockTime) -> None:
    """Completing with nothing prepared is an IllegalStateException."""
    txn = metadata(time, 1)
    transit = txn.prepare_no_transit()
    assert txn.pending_state is None
    with pytest.raises(IllegalStateException, match="completing transaction state transition while it does not have"):
        txn.complete_transition_to(transit)


def test_complete_with_a_different_transit_fails(time: MockTime) -> None:
    """A transit for another state, an epoch jump or a shrinking partition set is refused, the metadata unchanged."""
    txn = metadata(time, 1, state=S.Ongoing, txn_start_timestamp=5, partitions={TopicPartition("t", 0)})
    txn.prepare_add_partitions({TopicPartition("t", 1)}, time.milliseconds())
    wrong_state = TxnTransitMetadata(
        PRODUCER_ID, PRODUCER_ID, 1, NO_PRODUCER_EPOCH, 30000, S.PrepareCommit, frozenset(), 5, 10
    )
    with pytest.raises(IllegalStateException, match="failed transition to state TxnTransitMetadata"):
        txn.complete_transition_to(wrong_state)
    shrinking = TxnTransitMetadata(
        PRODUCER_ID, PRODUCER_ID, 1, NO_PRODUCER_EPOCH, 30000, S.Ongoing, frozenset({TopicPartition("t", 1)}), 5, 10
    )
    with pytest.raises(IllegalStateException):
        txn.complete_transition_to(shrinking)
    other_epoch = TxnTransitMetadata(
        PRODUCER_ID, PRODUCER_ID, 2, NO_PRODUCER_EPOCH, 30000, S.Ongoing, frozenset({TopicPartition("t", 0)}), 5, 10
    )
    with pytest.raises(IllegalStateException):
        txn.complete_transition_to(other_epoch)
    assert txn.topic_partitions == {TopicPartition("t", 0)}
    assert txn.state == S.Ongoing

    empty_txn = metadata(time, 1)
    empty_txn.prepare_increment_producer_epoch(30000, None, time.milliseconds())
    jump = TxnTransitMetadata(PRODUCER_ID, PRODUCER_ID, 3, NO_PRODUCER_EPOCH, 30000, S.Empty, frozenset(), -1, 10)
    with pytest.raises(IllegalStateException):
        empty_txn.complete_transition_to(jump)
    assert empty_txn.producer_epoch == 1


def test_complete_transition_to_dead_is_refused(time: MockTime) -> None:
    """Dead is never completed: an expired id leaves the cache instead."""
    txn = metadata(time, 1, state=S.CompleteCommit)
    transit = txn.prepare_dead()
    assert transit.txn_state == S.Dead
    with pytest.raises(IllegalStateException, match="is trying to complete a transition to Dead"):
        txn.complete_transition_to(transit)


def test_complete_transition_to_prepare_epoch_fence_is_refused(time: MockTime) -> None:
    """A fence is never completed on its own."""
    txn = metadata(time, 1, state=S.Ongoing)
    transit = txn.prepare_fence_producer_epoch()
    with pytest.raises(IllegalStateException):
        txn.complete_transition_to(transit)


def test_remove_partition_only_while_ending(time: MockTime) -> None:
    """Partitions leave one by one only in PrepareCommit/PrepareAbort, as their markers are written."""
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    txn = metadata(time, 1, state=S.Ongoing, partitions={tp0, tp1})
    with pytest.raises(IllegalStateException, match="current state is Ongoing, and its pending state is None"):
        txn.remove_partition(tp0)
    txn.state = S.PrepareCommit
    txn.remove_partition(tp0)
    assert txn.topic_partitions == {tp1}


def test_equality_and_str(time: MockTime) -> None:
    """Two metadata with the same fields are equal (Kafka's equals), and the string names the fields as Kafka does."""
    a = TransactionMetadata.create(TRANSACTIONAL_ID, PRODUCER_ID, 0, 30000, 100)
    b = TransactionMetadata.create(TRANSACTIONAL_ID, PRODUCER_ID, 0, 30000, 100)
    assert a == b
    assert hash(a) == hash(b)
    b.add_partitions([TopicPartition("t", 0)])
    assert a != b
    assert str(a) == (
        "TransactionMetadata(transactionalId=txnlId, producerId=23423, producerEpoch=0, txnTimeoutMs=30000, "
        "state=Empty, pendingState=None, topicPartitions=Set(), txnStartTimestamp=100, txnLastUpdateTimestamp=100)"
    )
    assert a.in_lock(lambda: a.producer_id) == PRODUCER_ID
