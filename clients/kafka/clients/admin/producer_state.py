"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ProducerState.java (Kafka 3.7).

One active producer of a partition as describeProducers reports it: id, epoch, last sequence and timestamp
written, the coordinator epoch of its last transaction marker (None: none yet) and the first offset of its open
transaction (None: no transaction open).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ProducerState"]


@dataclass(frozen=True, slots=True)
class ProducerState:
    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    coordinator_epoch: int | None
    current_transaction_start_offset: int | None

    def __str__(self) -> str:
        epoch = "OptionalInt.empty" if self.coordinator_epoch is None else f"OptionalInt[{self.coordinator_epoch}]"
        start = (
            "OptionalLong.empty"
            if self.current_transaction_start_offset is None
            else f"OptionalLong[{self.current_transaction_start_offset}]"
        )
        return (
            f"ProducerState(producerId={self.producer_id}, producerEpoch={self.producer_epoch}, "
            f"lastSequence={self.last_sequence}, lastTimestamp={self.last_timestamp}, coordinatorEpoch={epoch}, "
            f"currentTransactionStartOffset={start})"
        )
