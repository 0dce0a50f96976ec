"""Port of clients/src/main/java/org/apache/kafka/clients/admin/TransactionDescription.java (Kafka 3.7).

What describeTransactions tells of one transactional id: the coordinator that answered, the state, the
producer id and epoch, the timeout, when the current transaction started (None: no transaction open) and the
partitions it has written to.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.clients.admin.transaction_state import TransactionState
from kafka.common.topic_partition import TopicPartition

__all__ = ["TransactionDescription"]


@dataclass(frozen=True, slots=True)
class TransactionDescription:
    coordinator_id: int
    state: TransactionState
    producer_id: int
    producer_epoch: int
    transaction_timeout_ms: int
    transaction_start_time_ms: int | None
    topic_partitions: frozenset[TopicPartition]

    def __str__(self) -> str:
        start = (
            "OptionalLong.empty"
            if self.transaction_start_time_ms is None
            else (f"OptionalLong[{self.transaction_start_time_ms}]")
        )
        partitions = ", ".join(str(tp) for tp in self.topic_partitions)
        return (
            f"TransactionDescription(coordinatorId={self.coordinator_id}, state={self.state}, "
            f"producerId={self.producer_id}, producerEpoch={self.producer_epoch}, "
            f"transactionTimeoutMs={self.transaction_timeout_ms}, transactionStartTimeMs={start}, "
            f"topicPartitions=[{partitions}])"
        )
