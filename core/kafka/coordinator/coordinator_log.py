"""The read loop shared by GroupMetadataManager.doLoadGroupsAndOffsets (core/src/main/scala/kafka/coordinator/group/
GroupMetadataManager.scala) and TransactionStateManager.loadTransactionMetadata (core/src/main/scala/kafka/
coordinator/transaction/TransactionStateManager.scala), Kafka 2.8.

# PORT: Kafka writes this loop out in both managers (3.x makes it one, CoordinatorLoaderImpl); here the two
# managers iterate the batches `read_log_batches` yields and keep only what they do with each batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from kafka.common.record.file_records import FileRecords
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.mutable_record_batch import MutableRecordBatch
from kafka.common.topic_partition import TopicPartition
from kafka.coordinator.group.group_metadata_manager_formats import IllegalStateException
from kafka.log.log import Log
from kafka.server.fetch_data_info import FetchLogEnd

_FETCH_LOG_END: Final = FetchLogEnd()


def read_log_batches(
    log: Log,
    topic_partition: TopicPartition,
    load_buffer_size: int,
    log_end_offset: Callable[[], int],
    keep_loading: Callable[[], bool],
    on_buffer_grown: Callable[[int], None],
) -> Iterator[MutableRecordBatch]:
    """Yields the batches of `log` from its start offset, read `load_buffer_size` bytes at a time (more when one
    batch is larger: `on_buffer_grown(bytes)` is called first, for the manager's warning). Ends at
    `log_end_offset()` (-1 once this broker is no longer the leader), when a read returns nothing, or when
    `keep_loading()` is false. The next read starts after the last batch the caller took, so a batch is only
    valid until the caller asks for the next one (the buffer of file reads is reused)."""
    # Reused between reads from files; grown when one batch is larger than the load buffer size.
    buffer = bytearray(0)
    curr_offset = log.log_start_offset
    read_at_least_one_record = True
    while curr_offset < log_end_offset() and read_at_least_one_record and keep_loading():
        records = log.read(curr_offset, load_buffer_size, _FETCH_LOG_END, True).records
        size_in_bytes = records.size_in_bytes()
        read_at_least_one_record = size_in_bytes > 0

        if isinstance(records, MemoryRecords):
            mem_records = records
        elif isinstance(records, FileRecords):
            bytes_needed = max(load_buffer_size, size_in_bytes)
            if len(buffer) < bytes_needed:
                if load_buffer_size < bytes_needed:
                    on_buffer_grown(bytes_needed)
                buffer = bytearray(bytes_needed)
            # PORT: only the slice's bytes are read (Java fills the buffer up to the segment file's end, which can
            # only add whole batches that the next read returns anyway).
            view = memoryview(buffer)[:size_in_bytes]
            filled = records.read_into(view, 0)
            mem_records = MemoryRecords.readable_records(view[:filled])
        else:
            raise IllegalStateException(f"Unexpected records type {type(records).__name__} read from {topic_partition}")

        for batch in mem_records.batches():
            yield batch
            # PORT: Kafka's TransactionStateManager moves on only past a record, so a batch left without records
            # would be read again and again; both managers move on per batch here, as Kafka's group manager does.
            curr_offset = batch.next_offset()
