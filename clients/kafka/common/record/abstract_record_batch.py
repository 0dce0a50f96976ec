"""Port of clients/src/main/java/org/apache/kafka/common/record/AbstractRecordBatch.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record_batch import NO_PRODUCER_ID, RecordBatch


class AbstractRecordBatch(RecordBatch):
    """The parts of RecordBatch that follow from its other accessors."""

    __slots__ = ()

    def has_producer_id(self) -> bool:
        """True when the producer id is set."""
        return self.producer_id() > NO_PRODUCER_ID

    def next_offset(self) -> int:
        """The offset after the last record."""
        return self.last_offset() + 1

    def is_compressed(self) -> bool:
        """True when the codec is not NONE."""
        return self.compression_type() is not CompressionType.NONE
