"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/TxnPartitionMap.java (Kafka 3.7).

The TxnPartitionEntry of every partition the producer has sent to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.clients.producer.internals.txn_partition_entry import NO_LAST_ACKED_SEQUENCE_NUMBER, TxnPartitionEntry
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch

if TYPE_CHECKING:
    from kafka.clients.producer.internals.producer_batch import ProducerBatch

__all__ = ["TxnPartitionMap"]

#: ProduceResponse.INVALID_OFFSET
_INVALID_OFFSET = -1


class TxnPartitionMap:
    """topic partition -> TxnPartitionEntry. Guarded by the TransactionManager's lock."""

    def __init__(self, log_context: LogContext) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.producer.internals.TxnPartitionMap")
        self._topic_partitions: dict[TopicPartition, TxnPartitionEntry] = {}

    def get(self, topic_partition: TopicPartition) -> TxnPartitionEntry:
        ent = self._topic_partitions.get(topic_partition)
        if ent is None:
            raise RuntimeError(
                f"Trying to get txnPartitionEntry for {topic_partition}, but it was never set for this partition."
            )
        return ent

    def get_or_create(self, topic_partition: TopicPartition) -> TxnPartitionEntry:
        ent = self._topic_partitions.get(topic_partition)
        if ent is None:
            ent = self._topic_partitions[topic_partition] = TxnPartitionEntry(topic_partition)
        return ent

    def contains(self, topic_partition: TopicPartition) -> bool:
        return topic_partition in self._topic_partitions

    def reset(self) -> None:
        self._topic_partitions.clear()

    def last_acked_offset(self, topic_partition: TopicPartition) -> int | None:
        entry = self._topic_partitions.get(topic_partition)
        return None if entry is None else entry.last_acked_offset()

    def last_acked_sequence(self, topic_partition: TopicPartition) -> int | None:
        entry = self._topic_partitions.get(topic_partition)
        return None if entry is None else entry.last_acked_sequence()

    def start_sequences_at_beginning(
        self, topic_partition: TopicPartition, new_producer_id_and_epoch: ProducerIdAndEpoch
    ) -> None:
        self.get(topic_partition).start_sequences_at_beginning(new_producer_id_and_epoch)

    def remove(self, topic_partition: TopicPartition) -> None:
        self._topic_partitions.pop(topic_partition, None)

    def update_last_acked_offset(
        self, topic_partition: TopicPartition, is_transactional: bool, last_offset: int
    ) -> None:
        last_acked_offset = self.last_acked_offset(topic_partition)
        # After a reset of an idempotent producer a retried batch may still succeed: track it again.
        if last_acked_offset is None and not is_transactional:
            self.get_or_create(topic_partition)
        if last_offset > (_INVALID_OFFSET if last_acked_offset is None else last_acked_offset):
            self.get(topic_partition).set_last_acked_offset(last_offset)
        elif self._log.is_trace_enabled():
            self._log.trace(f"Partition {topic_partition} keeps lastOffset at {last_offset}")

    def adjust_sequences_due_to_failed_batch(self, batch: ProducerBatch) -> None:
        """After a batch failed for good, later batches of the partition move back so no gap is left."""
        if not self.contains(batch.topic_partition):
            # Not tracked any more (the producer id was just reset).
            return
        self._log.debug(
            f"producerId: {batch.producer_id()}, send to partition {batch.topic_partition} failed fatally. "
            f"Reducing future sequence numbers by {batch.record_count}"
        )
        self.get(batch.topic_partition).adjust_sequences_due_to_failed_batch(batch.base_sequence(), batch.record_count)

    def maybe_update_last_acked_sequence(self, topic_partition: TopicPartition, sequence: int) -> int:
        entry = self._topic_partitions.get(topic_partition)
        if entry is not None:
            return entry.maybe_update_last_acked_sequence(sequence)
        return NO_LAST_ACKED_SEQUENCE_NUMBER

    def next_batch_by_sequence(self, topic_partition: TopicPartition) -> ProducerBatch | None:
        return self.get(topic_partition).next_batch_by_sequence()

    def remove_in_flight_batch(self, batch: ProducerBatch) -> None:
        self.get(batch.topic_partition).remove_in_flight_batch(batch)
