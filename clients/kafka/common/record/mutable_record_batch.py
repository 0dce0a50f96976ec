"""Port of clients/src/main/java/org/apache/kafka/common/record/MutableRecordBatch.java (Kafka 3.7).

A batch over a writable in-memory buffer, whose header the broker patches in place when it appends.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING

from kafka.common.record.record_batch import RecordBatch

if TYPE_CHECKING:
    from kafka.common.record.record import Record
    from kafka.common.record.timestamp_type import TimestampType


class MutableRecordBatch(RecordBatch):
    """In-place setters used by the broker. The batch's buffer must be writable (e.g. a bytearray)."""

    __slots__ = ()

    @abstractmethod
    def set_last_offset(self, offset: int) -> None:
        """Set the offsets so that the last record has `offset` (patches the base offset for magic 2)."""

    @abstractmethod
    def set_max_timestamp(self, timestamp_type: TimestampType, max_timestamp: int) -> None:
        """Set the timestamp type and max timestamp, recomputing the checksum."""

    @abstractmethod
    def set_partition_leader_epoch(self, epoch: int) -> None:
        """Stamp the partition leader epoch (magic 2 only; outside the CRC)."""

    @abstractmethod
    def skip_key_value_iterator(self) -> Iterator[Record]:
        """Iterate records without materialising keys, values and headers."""
