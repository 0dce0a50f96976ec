"""Port of clients/src/main/java/org/apache/kafka/common/utils/ProducerIdAndEpoch.java (Kafka 3.7).

The identity an idempotent or transactional producer writes into its batches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID

__all__ = ["ProducerIdAndEpoch"]


@dataclass(frozen=True, slots=True)
class ProducerIdAndEpoch:
    """A producer id and epoch; NONE (-1, -1) before InitProducerId has answered."""

    producer_id: int
    epoch: int

    NONE: ClassVar[ProducerIdAndEpoch]

    def is_valid(self) -> bool:
        return self.producer_id != NO_PRODUCER_ID

    def __str__(self) -> str:
        return f"(producerId={self.producer_id}, epoch={self.epoch})"


ProducerIdAndEpoch.NONE = ProducerIdAndEpoch(NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
