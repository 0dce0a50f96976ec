"""Port of clients/src/main/java/org/apache/kafka/common/record/ByteBufferLogInputStream.java (Kafka 3.7).

Splits a buffer into record batches by reading each batch's 17-byte prefix (offset, size, magic)
only: a batch is a zero-copy memoryview slice, typed by its magic. Nothing inside a batch is read.
"""

from __future__ import annotations

import struct
from typing import Final

from kafka.common.errors import CorruptRecordException
from kafka.common.record.abstract_legacy_record_batch import ByteBufferLegacyRecordBatch, legacy_record_overhead
from kafka.common.record.default_record_batch import RECORD_BATCH_OVERHEAD, DefaultRecordBatch
from kafka.common.record.legacy_record import RECORD_OVERHEAD_V0
from kafka.common.record.mutable_record_batch import MutableRecordBatch
from kafka.common.record.record_batch import CURRENT_MAGIC_VALUE, MAGIC_VALUE_V1
from kafka.common.record.records import HEADER_SIZE_UP_TO_MAGIC, LOG_OVERHEAD, MAGIC_OFFSET, SIZE_OFFSET

_INT32: Final = struct.Struct(">i")
_INT8: Final = struct.Struct(">b")
INT32_MAX: Final = 2**31 - 1


class ByteBufferLogInputStream:
    """Reads batches from `buffer` starting at `position`."""

    __slots__ = ("_buffer", "_limit", "_max_message_size", "_position")

    def __init__(self, buffer: memoryview, max_message_size: int = INT32_MAX, position: int = 0) -> None:
        self._buffer = buffer
        self._position = position
        self._limit = len(buffer)
        self._max_message_size = max_message_size

    def position(self) -> int:
        """Where the next batch starts."""
        return self._position

    def next_batch(self) -> MutableRecordBatch | None:
        """The next complete batch, or None when the rest of the buffer holds no complete batch."""
        remaining = self._limit - self._position
        batch_size = self.next_batch_size()
        if batch_size is None or remaining < batch_size:
            return None
        position = self._position
        buffer = self._buffer
        magic = _INT8.unpack_from(buffer, position + MAGIC_OFFSET)[0]
        batch_slice = buffer[position : position + batch_size]
        self._position = position + batch_size
        if magic > MAGIC_VALUE_V1:
            return DefaultRecordBatch(batch_slice)
        return ByteBufferLegacyRecordBatch(batch_slice)

    def next_batch_size(self) -> int | None:
        """Size of the next batch from its prefix, or None when the prefix is incomplete.

        Raises CorruptRecordException for a size below the minimum or above the maximum, or an
        unknown magic.
        """
        remaining = self._limit - self._position
        if remaining < LOG_OVERHEAD:
            return None
        position = self._position
        record_size = _INT32.unpack_from(self._buffer, position + SIZE_OFFSET)[0]
        if record_size < RECORD_OVERHEAD_V0:
            raise CorruptRecordException(
                f"Record size {record_size} is less than the minimum record overhead ({RECORD_OVERHEAD_V0})"
            )
        if record_size > self._max_message_size:
            raise CorruptRecordException(
                f"Record size {record_size} exceeds the largest allowable message size ({self._max_message_size})."
            )
        if remaining < HEADER_SIZE_UP_TO_MAGIC:
            return None
        magic = _INT8.unpack_from(self._buffer, position + MAGIC_OFFSET)[0]
        if magic < 0 or magic > CURRENT_MAGIC_VALUE:
            raise CorruptRecordException(f"Invalid magic found in record: {magic}")
        # PORT: Java leaves these two checks to ensureValid(); doing them here keeps every header
        # accessor of the returned batch within its bytes.
        if magic > MAGIC_VALUE_V1:
            if record_size + LOG_OVERHEAD < RECORD_BATCH_OVERHEAD:
                raise CorruptRecordException(
                    f"Record batch is corrupt (the size {record_size + LOG_OVERHEAD} is smaller than the minimum "
                    f"allowed overhead {RECORD_BATCH_OVERHEAD})"
                )
        elif record_size < legacy_record_overhead(magic):
            raise CorruptRecordException(
                f"Record size {record_size} is less than the minimum record overhead for magic {magic} "
                f"({legacy_record_overhead(magic)})"
            )
        return record_size + LOG_OVERHEAD
