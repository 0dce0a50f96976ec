"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/TxnPartitionEntry.java (Kafka 3.7).

The idempotence bookkeeping of one partition: the producer id and epoch its sequences belong to, the
next sequence to give out, the last acknowledged sequence and offset, and the in-flight batches in
sequence order (so that retries are re-queued in order even when responses arrive out of order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from kafka.common.record.default_record import increment_sequence
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch

if TYPE_CHECKING:
    from kafka.clients.producer.internals.producer_batch import ProducerBatch

__all__ = ["NO_LAST_ACKED_SEQUENCE_NUMBER", "TxnPartitionEntry"]

NO_LAST_ACKED_SEQUENCE_NUMBER: Final = -1

#: ProduceResponse.INVALID_OFFSET
_INVALID_OFFSET = -1


def _batch_order(batch: ProducerBatch) -> tuple[int, int, int]:
    # Ordered by producer id, then epoch, then base sequence, so that batches of two epochs never collide.
    return (batch.producer_id(), batch.producer_epoch(), batch.base_sequence())


class TxnPartitionEntry:
    """Sequence state of one partition. Guarded by the TransactionManager's lock."""

    NO_LAST_ACKED_SEQUENCE_NUMBER: Final = NO_LAST_ACKED_SEQUENCE_NUMBER

    def __init__(self, topic_partition: TopicPartition) -> None:
        self._topic_partition = topic_partition
        self._producer_id_and_epoch = ProducerIdAndEpoch.NONE
        self._next_sequence = 0
        self._last_acked_sequence = NO_LAST_ACKED_SEQUENCE_NUMBER
        self._last_acked_offset = _INVALID_OFFSET
        # Kept sorted by _batch_order; a handful of entries at most (max.in.flight.requests.per.connection).
        self._inflight_batches_by_sequence: list[ProducerBatch] = []

    def producer_id_and_epoch(self) -> ProducerIdAndEpoch:
        return self._producer_id_and_epoch

    def next_sequence(self) -> int:
        return self._next_sequence

    def last_acked_offset(self) -> int | None:
        return None if self._last_acked_offset == _INVALID_OFFSET else self._last_acked_offset

    def last_acked_sequence(self) -> int | None:
        return None if self._last_acked_sequence == NO_LAST_ACKED_SEQUENCE_NUMBER else self._last_acked_sequence

    def has_inflight_batches(self) -> bool:
        return bool(self._inflight_batches_by_sequence)

    def next_batch_by_sequence(self) -> ProducerBatch | None:
        return self._inflight_batches_by_sequence[0] if self._inflight_batches_by_sequence else None

    def increment_sequence(self, increment: int) -> None:
        self._next_sequence = increment_sequence(self._next_sequence, increment)

    def add_inflight_batch(self, batch: ProducerBatch) -> None:
        key = _batch_order(batch)
        batches = self._inflight_batches_by_sequence
        for i, b in enumerate(batches):
            k = _batch_order(b)
            if k == key:
                return  # a sorted set keeps one entry per key
            if k > key:
                batches.insert(i, batch)
                return
        batches.append(batch)

    def set_last_acked_offset(self, last_acked_offset: int) -> None:
        self._last_acked_offset = last_acked_offset

    def start_sequences_at_beginning(self, new_producer_id_and_epoch: ProducerIdAndEpoch) -> None:
        """Renumbers the in-flight batches from 0 under a new producer id/epoch."""
        sequence = 0

        def reset(in_flight_batch: ProducerBatch) -> None:
            nonlocal sequence
            in_flight_batch.reset_producer_state(new_producer_id_and_epoch, sequence)
            sequence += in_flight_batch.record_count

        self._reset_sequence_numbers(reset)
        self._producer_id_and_epoch = new_producer_id_and_epoch
        self._next_sequence = sequence
        self._last_acked_sequence = NO_LAST_ACKED_SEQUENCE_NUMBER

    def maybe_update_last_acked_sequence(self, sequence: int) -> int:
        if sequence > self._last_acked_sequence:
            self._last_acked_sequence = sequence
            return sequence
        return self._last_acked_sequence

    def remove_in_flight_batch(self, batch: ProducerBatch) -> None:
        key = _batch_order(batch)
        self._inflight_batches_by_sequence = [b for b in self._inflight_batches_by_sequence if _batch_order(b) != key]

    def adjust_sequences_due_to_failed_batch(self, base_sequence: int, record_count: int) -> None:
        """Moves the later in-flight batches back by the failed batch's record count."""
        self._decrement_sequence(record_count)

        def reset(in_flight_batch: ProducerBatch) -> None:
            if in_flight_batch.base_sequence() < base_sequence:
                return
            new_sequence = in_flight_batch.base_sequence() - record_count
            if new_sequence < 0:
                raise RuntimeError(
                    f"Sequence number for batch with sequence {in_flight_batch.base_sequence()} for partition "
                    f"{self._topic_partition} is going to become negative: {new_sequence}"
                )
            in_flight_batch.reset_producer_state(
                ProducerIdAndEpoch(in_flight_batch.producer_id(), in_flight_batch.producer_epoch()), new_sequence
            )

        self._reset_sequence_numbers(reset)

    def _reset_sequence_numbers(self, reset_sequence: Callable[[ProducerBatch], None]) -> None:
        batches = list(self._inflight_batches_by_sequence)
        self._inflight_batches_by_sequence = []
        for inflight_batch in batches:
            reset_sequence(inflight_batch)
            self.add_inflight_batch(inflight_batch)

    def _decrement_sequence(self, decrement: int) -> None:
        updated_sequence = self._next_sequence - decrement
        if updated_sequence < 0:
            raise RuntimeError(
                f"Sequence number for partition {self._topic_partition} is going to become negative: {updated_sequence}"
            )
        self._next_sequence = updated_sequence
