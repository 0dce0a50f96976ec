"""Port of core/src/main/scala/kafka/coordinator/transaction/TransactionMetadata.scala (Kafka 2.8).

The transaction coordinator's view of one transactional id: its producer id and epoch (and the previous
ones, for KIP-360 retries), its transaction timeout, the partitions of its open transaction and its state.
A change is made in two steps: a `prepare_*` method checks that the change is legal, marks the target state
as pending and returns the target as an immutable `TxnTransitMetadata`; once that target is written to the
transaction log, `complete_transition_to` applies it. While a state is pending no other change can be
prepared.

# PORT: the state objects follow Kafka 3.7's TransactionState (an `id`, a `name` as DescribeTransactions
# and ListTransactions report it, `valid_previous_states`, `from_id` and `from_name`); Kafka 2.8 has the same
# states and byte ids, with the transition table kept on the TransactionMetadata companion. They are one Enum
# (`TransactionState.Ongoing`), whose member names are Kafka's state names.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final, NoReturn, TypeVar

from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import IllegalArgumentException
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.utils.core_utils import in_lock
from kafka.utils.logging import Logging

__all__ = ["IllegalStateException", "TransactionMetadata", "TransactionState", "TxnTransitMetadata"]

T = TypeVar("T")

_SHORT_MAX: Final = 2**15 - 1


class TransactionState(Enum):
    """The states of a transactional id; the value is the byte id written in the transaction log.

    Empty: no transaction yet (or the last one finished and was cleaned up); Ongoing: partitions or offsets
    were added; PrepareCommit/PrepareAbort: EndTxn was accepted and the markers are being written;
    CompleteCommit/CompleteAbort: every marker was written; Dead: the id expired and is being removed;
    PrepareEpochFence: the coordinator is bumping the epoch to fence a producer before aborting."""

    Empty = 0
    Ongoing = 1
    PrepareCommit = 2
    PrepareAbort = 3
    CompleteCommit = 4
    CompleteAbort = 5
    Dead = 6
    PrepareEpochFence = 7

    @property
    def id(self) -> int:
        return self.value

    @property
    def valid_previous_states(self) -> frozenset[TransactionState]:
        return _VALID_PREVIOUS_STATES[self]

    @property
    def is_expiration_allowed(self) -> bool:
        return self in _EXPIRATION_ALLOWED

    @classmethod
    def from_id(cls, state_id: int) -> TransactionState:
        try:
            return cls(state_id)
        except ValueError:
            raise IllegalStateException(
                f"Unknown transaction state id {state_id} from the transaction status message"
            ) from None

    @classmethod
    def from_name(cls, name: str) -> TransactionState | None:
        return cls.__members__.get(name)

    def __str__(self) -> str:
        return self.name


_S = TransactionState
_VALID_PREVIOUS_STATES: Final[dict[TransactionState, frozenset[TransactionState]]] = {
    _S.Empty: frozenset({_S.Empty, _S.CompleteCommit, _S.CompleteAbort}),
    _S.Ongoing: frozenset({_S.Ongoing, _S.Empty, _S.CompleteCommit, _S.CompleteAbort}),
    _S.PrepareCommit: frozenset({_S.Ongoing}),
    _S.PrepareAbort: frozenset({_S.Ongoing, _S.PrepareEpochFence}),
    _S.CompleteCommit: frozenset({_S.PrepareCommit}),
    _S.CompleteAbort: frozenset({_S.PrepareAbort}),
    _S.Dead: frozenset({_S.Empty, _S.CompleteAbort, _S.CompleteCommit}),
    _S.PrepareEpochFence: frozenset({_S.Ongoing}),
}
_EXPIRATION_ALLOWED: Final = frozenset({_S.Empty, _S.CompleteCommit, _S.CompleteAbort})
del _S


def _tp_set_str(partitions: Iterable[TopicPartition]) -> str:
    return "Set(" + ", ".join(str(tp) for tp in partitions) + ")"


@dataclass(frozen=True, slots=True)
class TxnTransitMetadata:
    """The target of a prepared transition, written to the transaction log before it is applied."""

    producer_id: int
    last_producer_id: int
    producer_epoch: int
    last_producer_epoch: int
    txn_timeout_ms: int
    txn_state: TransactionState
    topic_partitions: frozenset[TopicPartition]
    txn_start_timestamp: int
    txn_last_update_timestamp: int

    def __str__(self) -> str:
        return (
            f"TxnTransitMetadata(producerId={self.producer_id}, lastProducerId={self.last_producer_id}, "
            f"producerEpoch={self.producer_epoch}, lastProducerEpoch={self.last_producer_epoch}, "
            f"txnTimeoutMs={self.txn_timeout_ms}, txnState={self.txn_state}, "
            f"topicPartitions={_tp_set_str(self.topic_partitions)}, txnStartTimestamp={self.txn_start_timestamp}, "
            f"txnLastUpdateTimestamp={self.txn_last_update_timestamp})"
        )


class TransactionMetadata(Logging):
    """Mutable metadata of one transactional id; not thread-safe: callers hold `lock` (see `in_lock`)."""

    logger_name = "kafka.coordinator.transaction.TransactionMetadata"

    def __init__(
        self,
        transactional_id: str,
        producer_id: int,
        last_producer_id: int,
        producer_epoch: int,
        last_producer_epoch: int,
        txn_timeout_ms: int,
        state: TransactionState,
        topic_partitions: set[TopicPartition],
        txn_start_timestamp: int,
        txn_last_update_timestamp: int,
    ) -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.last_producer_id = last_producer_id
        self.producer_epoch = producer_epoch
        self.last_producer_epoch = last_producer_epoch
        self.txn_timeout_ms = txn_timeout_ms
        self.state = state
        self.topic_partitions = topic_partitions
        self.txn_start_timestamp = txn_start_timestamp
        self.txn_last_update_timestamp = txn_last_update_timestamp
        # The state this id is moving to while its log append is in flight; None when no change is pending.
        self.pending_state: TransactionState | None = None
        # Set when a bumped epoch for fencing may not have reached the log: the next fence reuses that epoch.
        self.has_failed_epoch_fence = False
        self.lock = threading.RLock()

    # ---- the companion's factories --------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        txn_timeout_ms: int,
        timestamp: int,
        state: TransactionState = TransactionState.Empty,
        last_producer_id: int = NO_PRODUCER_ID,
        last_producer_epoch: int = NO_PRODUCER_EPOCH,
    ) -> TransactionMetadata:
        """Kafka's `TransactionMetadata.apply` overloads: no partitions, both timestamps `timestamp`."""
        return cls(
            transactional_id,
            producer_id,
            last_producer_id,
            producer_epoch,
            last_producer_epoch,
            txn_timeout_ms,
            state,
            set(),
            timestamp,
            timestamp,
        )

    @staticmethod
    def is_valid_transition(old_state: TransactionState, new_state: TransactionState) -> bool:
        return old_state in new_state.valid_previous_states

    @staticmethod
    def is_epoch_exhausted(producer_epoch: int) -> bool:
        """Epochs stop one short of Short.MaxValue, so the coordinator can always bump once more to fence."""
        return producer_epoch >= _SHORT_MAX - 1

    # ---- the instance --------------------------------------------------------------------------------------

    def in_lock(self, fun: Callable[[], T]) -> T:
        return in_lock(self.lock, fun)

    def add_partitions(self, partitions: Iterable[TopicPartition]) -> None:
        self.topic_partitions.update(partitions)

    def remove_partition(self, topic_partition: TopicPartition) -> None:
        if self.state not in (TransactionState.PrepareCommit, TransactionState.PrepareAbort):
            raise IllegalStateException(
                f"Transaction metadata's current state is {self.state}, and its pending state is "
                f"{self._pending_str()} while trying to remove partitions whose txn marker has been sent, "
                "this is not expected"
            )
        self.topic_partitions.discard(topic_partition)

    def prepare_no_transit(self) -> TxnTransitMetadata:
        """The current metadata as a transit, without marking anything pending (the abort that follows does)."""
        return TxnTransitMetadata(
            self.producer_id,
            self.last_producer_id,
            self.producer_epoch,
            self.last_producer_epoch,
            self.txn_timeout_ms,
            self.state,
            frozenset(self.topic_partitions),
            self.txn_start_timestamp,
            self.txn_last_update_timestamp,
        )

    def prepare_fence_producer_epoch(self) -> TxnTransitMetadata:
        if self.producer_epoch == _SHORT_MAX:
            raise IllegalStateException(
                "Cannot fence producer with epoch equal to Short.MaxValue since this would overflow"
            )
        # A fence whose write failed already bumped the epoch it handed to nobody; use that epoch again.
        bumped_epoch = self.producer_epoch if self.has_failed_epoch_fence else self.producer_epoch + 1
        return self._prepare_transition_to(
            TransactionState.PrepareEpochFence,
            self.producer_id,
            bumped_epoch,
            NO_PRODUCER_EPOCH,
            self.txn_timeout_ms,
            frozenset(self.topic_partitions),
            self.txn_start_timestamp,
            self.txn_last_update_timestamp,
        )

    def prepare_increment_producer_epoch(
        self, new_txn_timeout_ms: int, expected_producer_epoch: int | None, update_timestamp: int
    ) -> Errors | TxnTransitMetadata:
        if self.is_producer_epoch_exhausted:
            raise IllegalStateException(f"Cannot allocate any more producer epochs for producerId {self.producer_id}")

        bumped_epoch = self.producer_epoch + 1
        if expected_producer_epoch is None:
            # A producer that does not say which epoch it had: a plain bump, forgetting the previous epoch.
            next_epoch, last_epoch = bumped_epoch, NO_PRODUCER_EPOCH
        elif self.producer_epoch == NO_PRODUCER_EPOCH or expected_producer_epoch == self.producer_epoch:
            # KIP-360: the producer continues after an error and nobody else initialised since; remember the
            # epoch it had, so that a retry of this very call is recognised below.
            next_epoch, last_epoch = bumped_epoch, self.producer_epoch
        elif expected_producer_epoch == self.last_producer_epoch:
            # A retry of a bump that succeeded: hand out the current epoch again.
            next_epoch, last_epoch = self.producer_epoch, self.last_producer_epoch
        else:
            self.info(
                f"Expected producer epoch {expected_producer_epoch} does not match current producer epoch "
                f"{self.producer_epoch} or previous producer epoch {self.last_producer_epoch}"
            )
            return Errors.PRODUCER_FENCED

        return self._prepare_transition_to(
            TransactionState.Empty,
            self.producer_id,
            next_epoch,
            last_epoch,
            new_txn_timeout_ms,
            frozenset(),
            -1,
            update_timestamp,
        )

    def prepare_producer_id_rotation(
        self, new_producer_id: int, new_txn_timeout_ms: int, update_timestamp: int, record_last_epoch: bool
    ) -> TxnTransitMetadata:
        if self._has_pending_transaction():
            raise IllegalStateException("Cannot rotate producer ids while a transaction is still pending")
        return self._prepare_transition_to(
            TransactionState.Empty,
            new_producer_id,
            0,
            self.producer_epoch if record_last_epoch else NO_PRODUCER_EPOCH,
            new_txn_timeout_ms,
            frozenset(),
            -1,
            update_timestamp,
        )

    def prepare_add_partitions(
        self, added_topic_partitions: Iterable[TopicPartition], update_timestamp: int
    ) -> TxnTransitMetadata:
        if self.state in (TransactionState.Empty, TransactionState.CompleteAbort, TransactionState.CompleteCommit):
            new_txn_start_timestamp = update_timestamp
        else:
            new_txn_start_timestamp = self.txn_start_timestamp
        return self._prepare_transition_to(
            TransactionState.Ongoing,
            self.producer_id,
            self.producer_epoch,
            self.last_producer_epoch,
            self.txn_timeout_ms,
            frozenset(self.topic_partitions).union(added_topic_partitions),
            new_txn_start_timestamp,
            update_timestamp,
        )

    def prepare_abort_or_commit(self, new_state: TransactionState, update_timestamp: int) -> TxnTransitMetadata:
        return self._prepare_transition_to(
            new_state,
            self.producer_id,
            self.producer_epoch,
            self.last_producer_epoch,
            self.txn_timeout_ms,
            frozenset(self.topic_partitions),
            self.txn_start_timestamp,
            update_timestamp,
        )

    def prepare_complete(self, update_timestamp: int) -> TxnTransitMetadata:
        new_state = (
            TransactionState.CompleteCommit
            if self.state == TransactionState.PrepareCommit
            else TransactionState.CompleteAbort
        )
        # The prepare state reached the log, so any earlier failed fence is behind us.
        self.has_failed_epoch_fence = False
        return self._prepare_transition_to(
            new_state,
            self.producer_id,
            self.producer_epoch,
            self.last_producer_epoch,
            self.txn_timeout_ms,
            frozenset(),
            self.txn_start_timestamp,
            update_timestamp,
        )

    def prepare_dead(self) -> TxnTransitMetadata:
        return self._prepare_transition_to(
            TransactionState.Dead,
            self.producer_id,
            self.producer_epoch,
            self.last_producer_epoch,
            self.txn_timeout_ms,
            frozenset(),
            self.txn_start_timestamp,
            self.txn_last_update_timestamp,
        )

    @property
    def is_producer_epoch_exhausted(self) -> bool:
        return TransactionMetadata.is_epoch_exhausted(self.producer_epoch)

    def _has_pending_transaction(self) -> bool:
        return self.state in (TransactionState.Ongoing, TransactionState.PrepareAbort, TransactionState.PrepareCommit)

    def _prepare_transition_to(
        self,
        new_state: TransactionState,
        new_producer_id: int,
        new_epoch: int,
        new_last_epoch: int,
        new_txn_timeout_ms: int,
        new_topic_partitions: frozenset[TopicPartition],
        new_txn_start_timestamp: int,
        update_timestamp: int,
    ) -> TxnTransitMetadata:
        if self.pending_state is not None:
            raise IllegalStateException(
                f"Preparing transaction state transition to {new_state} while it already a pending state "
                f"{self.pending_state}"
            )
        if new_producer_id < 0:
            raise IllegalArgumentException(f"Illegal new producer id {new_producer_id}")
        if new_epoch < 0:
            raise IllegalArgumentException(f"Illegal new producer epoch {new_epoch}")

        if self.state not in new_state.valid_previous_states:
            raise IllegalStateException(
                f"Preparing transaction state transition to {new_state} failed since the target state "
                f"{new_state} is not a valid previous state of the current state {self.state}"
            )
        transit = TxnTransitMetadata(
            new_producer_id,
            self.producer_id,
            new_epoch,
            new_last_epoch,
            new_txn_timeout_ms,
            new_state,
            new_topic_partitions,
            new_txn_start_timestamp,
            update_timestamp,
        )
        if self.is_debug_enabled():
            self.debug(f"TransactionalId {self.transactional_id} prepare transition from {self.state} to {transit}")
        self.pending_state = new_state
        return transit

    def complete_transition_to(self, transit: TxnTransitMetadata) -> None:
        """Applies a transit once it is in the log, checking that it is the change that was prepared: the pending
        state, an epoch that stays, goes up by one or restarts at 0 with a new producer id, and partitions that
        only grow while Ongoing."""
        to_state = self.pending_state
        if to_state is None:
            self.fatal(
                f"{self}'s transition to {transit} failed since pendingState is not defined: this should not happen"
            )
            raise IllegalStateException(
                f"TransactionalId {self.transactional_id} completing transaction state transition while it does "
                "not have a pending state"
            )

        if to_state != transit.txn_state:
            self._throw_state_transition_failure(transit)

        match to_state:
            case TransactionState.Empty:  # InitProducerId
                if (
                    (self.producer_epoch != transit.producer_epoch and not self._valid_producer_epoch_bump(transit))
                    or transit.topic_partitions
                    or transit.txn_start_timestamp != -1
                ):
                    self._throw_state_transition_failure(transit)
                self.txn_timeout_ms = transit.txn_timeout_ms
                self.producer_epoch = transit.producer_epoch
                self.last_producer_epoch = transit.last_producer_epoch
                self.producer_id = transit.producer_id
                self.last_producer_id = transit.last_producer_id

            case TransactionState.Ongoing:  # AddPartitionsToTxn / AddOffsetsToTxn
                if (
                    not self._valid_producer_epoch(transit)
                    or not self.topic_partitions.issubset(transit.topic_partitions)
                    or self.txn_timeout_ms != transit.txn_timeout_ms
                ):
                    self._throw_state_transition_failure(transit)
                self.txn_start_timestamp = transit.txn_start_timestamp
                self.add_partitions(transit.topic_partitions)

            case TransactionState.PrepareAbort | TransactionState.PrepareCommit:  # EndTxn
                if (
                    not self._valid_producer_epoch(transit)
                    or self.topic_partitions != transit.topic_partitions
                    or self.txn_timeout_ms != transit.txn_timeout_ms
                    or self.txn_start_timestamp != transit.txn_start_timestamp
                ):
                    self._throw_state_transition_failure(transit)

            case TransactionState.CompleteAbort | TransactionState.CompleteCommit:  # every marker written
                if (
                    not self._valid_producer_epoch(transit)
                    or self.txn_timeout_ms != transit.txn_timeout_ms
                    or transit.txn_start_timestamp == -1
                ):
                    self._throw_state_transition_failure(transit)
                self.txn_start_timestamp = transit.txn_start_timestamp
                self.topic_partitions.clear()

            case TransactionState.PrepareEpochFence:
                # A fence is followed at once by PrepareAbort, which replaces this pending state; completing a
                # transition to it cannot be legitimate.
                self._throw_state_transition_failure(transit)

            case TransactionState.Dead:
                raise IllegalStateException(
                    f"TransactionalId {self.transactional_id} is trying to complete a transition to {to_state}. "
                    "This means that the transactionalId was being expired, and the only acceptable completion of "
                    f"this operation is to remove the transaction metadata from the cache, not to persist the "
                    f"{to_state} in the log."
                )

        if self.is_debug_enabled():
            self.debug(f"TransactionalId {self.transactional_id} complete transition from {self.state} to {transit}")
        self.txn_last_update_timestamp = transit.txn_last_update_timestamp
        self.pending_state = None
        self.state = to_state

    def _valid_producer_epoch(self, transit: TxnTransitMetadata) -> bool:
        return transit.producer_epoch == self.producer_epoch and transit.producer_id == self.producer_id

    def _valid_producer_epoch_bump(self, transit: TxnTransitMetadata) -> bool:
        return transit.producer_epoch == self.producer_epoch + 1 or (
            transit.producer_epoch == 0 and transit.producer_id != self.producer_id
        )

    def _throw_state_transition_failure(self, transit: TxnTransitMetadata) -> NoReturn:
        self.fatal(f"{self}'s transition to {transit} failed: this should not happen")
        raise IllegalStateException(
            f"TransactionalId {self.transactional_id} failed transition to state {transit} due to unexpected metadata"
        )

    @property
    def pending_transition_in_progress(self) -> bool:
        return self.pending_state is not None

    def _pending_str(self) -> str:
        return "None" if self.pending_state is None else f"Some({self.pending_state})"

    def __str__(self) -> str:
        return (
            f"TransactionMetadata(transactionalId={self.transactional_id}, producerId={self.producer_id}, "
            f"producerEpoch={self.producer_epoch}, txnTimeoutMs={self.txn_timeout_ms}, state={self.state}, "
            f"pendingState={self._pending_str()}, topicPartitions={_tp_set_str(self.topic_partitions)}, "
            f"txnStartTimestamp={self.txn_start_timestamp}, txnLastUpdateTimestamp={self.txn_last_update_timestamp})"
        )

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TransactionMetadata):
            return NotImplemented
        return (
            self.transactional_id == other.transactional_id
            and self.producer_id == other.producer_id
            and self.producer_epoch == other.producer_epoch
            and self.last_producer_epoch == other.last_producer_epoch
            and self.txn_timeout_ms == other.txn_timeout_ms
            and self.state == other.state
            and self.topic_partitions == other.topic_partitions
            and self.txn_start_timestamp == other.txn_start_timestamp
            and self.txn_last_update_timestamp == other.txn_last_update_timestamp
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.transactional_id,
                self.producer_id,
                self.producer_epoch,
                self.txn_timeout_ms,
                self.state,
                frozenset(self.topic_partitions),
                self.txn_start_timestamp,
                self.txn_last_update_timestamp,
            )
        )
