"""Port of core/src/main/scala/kafka/log/ProducerStateManager.scala (Kafka 2.8).

The idempotent and transactional producer state of one partition: for every producer id its epoch,
the metadata of its last five batches (to answer retried batches with their original offsets and to
check sequence numbers), its coordinator epoch and its open transaction, plus the ongoing and the
completed-but-unreplicated transactions that bound the last stable offset.

The state is periodically written to `<offset>.snapshot` files in the partition directory, in Kafka
2.8's layout (big-endian):

    version: int16                  (1)
    crc: uint32                     (CRC32C of everything after this field)
    producer_entries: int32 count, then per entry:
        producer_id: int64
        epoch: int16
        last_sequence: int32
        last_offset: int64
        offset_delta: int32
        timestamp: int64
        coordinator_epoch: int32
        current_txn_first_offset: int64   (-1 when no transaction is open)

Sequence rules (as Kafka 2.8, after KIP-360): a producer's first batch in a new epoch must start at
sequence 0 unless the producer is unknown to this partition (its records were all deleted by
retention or DeleteRecords), in which case any sequence is accepted; within an epoch each batch must
continue the previous one (OutOfOrderSequenceException otherwise); an older epoch is fenced with
InvalidProducerEpochException. A retried batch matching one of the five cached ones is a duplicate,
answered by the log with the original offsets.

# PORT: Kafka's class is not thread-safe and Log calls it under its own lock; so does this port. The
snapshot map alone is shared with threads that delete snapshots, as Kafka's ConcurrentSkipListMap
is, and is guarded here by a lock of its own (`_snapshots_lock`, never held while calling out).
"""

from __future__ import annotations

import os
import struct
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import crc32c
from sortedcontainers import SortedDict

from kafka.common.errors import (
    InvalidProducerEpochException,
    InvalidTxnStateException,
    KafkaException,
    OutOfOrderSequenceException,
    TransactionCoordinatorFencedException,
)
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE, NO_TIMESTAMP, RecordBatch
from kafka.common.topic_partition import TopicPartition
from kafka.log.log_append_info import CompletedTxn
from kafka.log.log_file_utils import PRODUCER_SNAPSHOT_FILE_SUFFIX, offset_from_file, producer_snapshot_file
from kafka.log.log_validator import AppendOrigin, Client, Replication
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.utils.logging import Logging

INT32_MAX: Final = 2**31 - 1


class CorruptSnapshotException(KafkaException):
    """A producer snapshot file cannot be read (bad version, CRC or layout)."""


@dataclass(frozen=True, slots=True)
class LastRecord:
    """The last record a producer wrote: its offset (None if only a marker remains) and epoch."""

    last_data_offset: int | None
    producer_epoch: int


@dataclass(slots=True)
class TxnMetadata:
    """An ongoing transaction of a producer: where it starts and, once decided, where its marker is."""

    producer_id: int
    first_offset: LogOffsetMetadata
    last_offset: int | None = None

    @classmethod
    def of(cls, producer_id: int, first_offset: int) -> TxnMetadata:
        """A transaction starting at a bare offset (Scala's auxiliary constructor)."""
        return cls(producer_id, LogOffsetMetadata(first_offset))

    def __str__(self) -> str:
        return (
            f"TxnMetadata(producerId={self.producer_id}, firstOffset={self.first_offset}, "
            f"lastOffset={self.last_offset})"
        )


@dataclass(frozen=True, slots=True)
class BatchMetadata:
    """What is remembered of one appended batch: its last sequence and offset, its span and timestamp."""

    last_seq: int
    last_offset: int
    offset_delta: int
    timestamp: int

    @property
    def first_seq(self) -> int:
        """The sequence of the batch's first record (wrapping below 0 as Kafka does)."""
        return DefaultRecordBatch.decrement_sequence(self.last_seq, self.offset_delta)

    @property
    def first_offset(self) -> int:
        """The offset of the batch's first record."""
        return self.last_offset - self.offset_delta

    def __str__(self) -> str:
        return (
            f"BatchMetadata(firstSeq={self.first_seq}, lastSeq={self.last_seq}, firstOffset={self.first_offset}, "
            f"lastOffset={self.last_offset}, timestamp={self.timestamp})"
        )


class ProducerStateEntry:
    """One producer's state: its epoch and its last batches, oldest first (at most five)."""

    NUM_BATCHES_TO_RETAIN: Final = 5

    __slots__ = (
        "batch_metadata",
        "coordinator_epoch",
        "current_txn_first_offset",
        "last_timestamp",
        "producer_epoch",
        "producer_id",
    )

    def __init__(
        self,
        producer_id: int,
        batch_metadata: deque[BatchMetadata],
        producer_epoch: int,
        coordinator_epoch: int,
        last_timestamp: int,
        current_txn_first_offset: int | None,
    ) -> None:
        self.producer_id = producer_id
        self.batch_metadata = batch_metadata
        self.producer_epoch = producer_epoch
        self.coordinator_epoch = coordinator_epoch
        self.last_timestamp = last_timestamp
        self.current_txn_first_offset = current_txn_first_offset

    @classmethod
    def empty(cls, producer_id: int) -> ProducerStateEntry:
        """An entry for a producer with nothing appended yet."""
        return cls(producer_id, deque(), NO_PRODUCER_EPOCH, -1, NO_TIMESTAMP, None)

    @property
    def first_seq(self) -> int:
        """First sequence of the oldest remembered batch, or -1."""
        return NO_SEQUENCE if self.is_empty else self.batch_metadata[0].first_seq

    @property
    def first_data_offset(self) -> int:
        """First offset of the oldest remembered batch, or -1."""
        return -1 if self.is_empty else self.batch_metadata[0].first_offset

    @property
    def last_seq(self) -> int:
        """Last sequence of the newest batch, or -1."""
        return NO_SEQUENCE if self.is_empty else self.batch_metadata[-1].last_seq

    @property
    def last_data_offset(self) -> int:
        """Last offset of the newest batch, or -1."""
        return -1 if self.is_empty else self.batch_metadata[-1].last_offset

    @property
    def last_offset_delta(self) -> int:
        """Offset span of the newest batch, or 0."""
        return 0 if self.is_empty else self.batch_metadata[-1].offset_delta

    @property
    def is_empty(self) -> bool:
        """True when no batch is remembered."""
        return not self.batch_metadata

    def add_batch(
        self, producer_epoch: int, last_seq: int, last_offset: int, offset_delta: int, timestamp: int
    ) -> None:
        """Remember a newly appended batch (forgetting older epochs' batches)."""
        self.maybe_update_producer_epoch(producer_epoch)
        self._add_batch_metadata(BatchMetadata(last_seq, last_offset, offset_delta, timestamp))
        self.last_timestamp = timestamp

    def maybe_update_producer_epoch(self, producer_epoch: int) -> bool:
        """Move to `producer_epoch` if it differs, dropping the batches of the old epoch."""
        if self.producer_epoch != producer_epoch:
            self.batch_metadata.clear()
            self.producer_epoch = producer_epoch
            return True
        return False

    def _add_batch_metadata(self, batch: BatchMetadata) -> None:
        if len(self.batch_metadata) == self.NUM_BATCHES_TO_RETAIN:
            self.batch_metadata.popleft()
        self.batch_metadata.append(batch)

    def update(self, next_entry: ProducerStateEntry) -> None:
        """Fold in the state an append produced (its batches are moved over)."""
        self.maybe_update_producer_epoch(next_entry.producer_epoch)
        while next_entry.batch_metadata:
            self._add_batch_metadata(next_entry.batch_metadata.popleft())
        self.coordinator_epoch = next_entry.coordinator_epoch
        self.current_txn_first_offset = next_entry.current_txn_first_offset
        self.last_timestamp = next_entry.last_timestamp

    def find_duplicate_batch(self, batch: RecordBatch) -> BatchMetadata | None:
        """The remembered batch with the same epoch and sequence range as `batch`, if any."""
        if batch.producer_epoch() != self.producer_epoch:
            return None
        return self.batch_with_sequence_range(batch.base_sequence(), batch.last_sequence())

    def batch_with_sequence_range(self, first_seq: int, last_seq: int) -> BatchMetadata | None:
        """The remembered batch spanning exactly these sequences, if any."""
        for metadata in self.batch_metadata:
            if first_seq == metadata.first_seq and last_seq == metadata.last_seq:
                return metadata
        return None

    def __repr__(self) -> str:
        return (
            f"ProducerStateEntry(producerId={self.producer_id}, producerEpoch={self.producer_epoch}, "
            f"currentTxnFirstOffset={self.current_txn_first_offset}, coordinatorEpoch={self.coordinator_epoch}, "
            f"lastTimestamp={self.last_timestamp}, batchMetadata={[str(b) for b in self.batch_metadata]}"
        )


class ProducerAppendInfo(Logging):
    """Checks the batches one producer appends against its state and collects the resulting state.

    Validation depends on `origin`: client appends get epoch and sequence checks, coordinator appends
    epoch checks only, and replicated appends are taken as they are (with a log line on an old epoch).
    """

    logger_name = "kafka.log.ProducerAppendInfo"

    def __init__(
        self,
        topic_partition: TopicPartition,
        producer_id: int,
        current_entry: ProducerStateEntry,
        origin: AppendOrigin,
    ) -> None:
        self.topic_partition = topic_partition
        self.producer_id = producer_id
        self.current_entry = current_entry
        self.origin = origin
        self._transactions: list[TxnMetadata] = []
        self._updated_entry = ProducerStateEntry.empty(producer_id)
        self._updated_entry.producer_epoch = current_entry.producer_epoch
        self._updated_entry.coordinator_epoch = current_entry.coordinator_epoch
        self._updated_entry.last_timestamp = current_entry.last_timestamp
        self._updated_entry.current_txn_first_offset = current_entry.current_txn_first_offset

    def _maybe_validate_data_batch(self, producer_epoch: int, first_seq: int, offset: int) -> None:
        self._check_producer_epoch(producer_epoch, offset)
        if isinstance(self.origin, Client):
            self._check_sequence(producer_epoch, first_seq, offset)

    def _check_producer_epoch(self, producer_epoch: int, offset: int) -> None:
        if producer_epoch < self._updated_entry.producer_epoch:
            message = (
                f"Epoch of producer {self.producer_id} at offset {offset} in {self.topic_partition} is "
                f"{producer_epoch}, which is smaller than the last seen epoch {self._updated_entry.producer_epoch}"
            )
            if isinstance(self.origin, Replication):
                self.warn(message)
            else:
                # Since 2.7 a fenced epoch is InvalidProducerEpoch (abortable) rather than ProducerFenced.
                raise InvalidProducerEpochException(message)

    def _check_sequence(self, producer_epoch: int, append_first_seq: int, offset: int) -> None:
        updated = self._updated_entry
        if producer_epoch != updated.producer_epoch:
            if append_first_seq != 0 and updated.producer_epoch != NO_PRODUCER_EPOCH:
                raise OutOfOrderSequenceException(
                    f"Invalid sequence number for new epoch of producer {self.producer_id} at offset {offset} in "
                    f"partition {self.topic_partition}: {producer_epoch} (request epoch), {append_first_seq} "
                    f"(seq. number), {updated.producer_epoch} (current producer epoch)"
                )
        else:
            if not updated.is_empty:
                current_last_seq = updated.last_seq
            elif producer_epoch == self.current_entry.producer_epoch:
                current_last_seq = self.current_entry.last_seq
            else:
                current_last_seq = NO_SEQUENCE
            # A producer whose records are all gone (retention, DeleteRecords) may go on at any sequence.
            if not (
                self.current_entry.producer_epoch == NO_PRODUCER_EPOCH
                or _in_sequence(current_last_seq, append_first_seq)
            ):
                raise OutOfOrderSequenceException(
                    f"Out of order sequence number for producer {self.producer_id} at offset {offset} in partition "
                    f"{self.topic_partition}: {append_first_seq} (incoming seq. number), {current_last_seq} "
                    "(current end sequence number)"
                )

    def append(self, batch: RecordBatch, first_offset_metadata_opt: LogOffsetMetadata | None) -> CompletedTxn | None:
        """Account for one batch of this producer; returns the transaction it completes, if any."""
        if batch.is_control_batch():
            record = next(iter(batch), None)
            if record is None:
                # An empty control batch: the cleaner removed the whole transaction already.
                return None
            end_txn_marker = EndTransactionMarker.deserialize(record)
            return self.append_end_txn_marker(
                end_txn_marker, batch.producer_epoch(), batch.base_offset(), record.timestamp()
            )
        first_offset_metadata = (
            first_offset_metadata_opt
            if first_offset_metadata_opt is not None
            else LogOffsetMetadata(batch.base_offset())
        )
        self.append_data_batch(
            batch.producer_epoch(),
            batch.base_sequence(),
            batch.last_sequence(),
            batch.max_timestamp(),
            first_offset_metadata,
            batch.last_offset(),
            batch.is_transactional(),
        )
        return None

    def append_data_batch(
        self,
        epoch: int,
        first_seq: int,
        last_seq: int,
        last_timestamp: int,
        first_offset_metadata: LogOffsetMetadata,
        last_offset: int,
        is_transactional: bool,
    ) -> None:
        """Check and record a data batch spanning [first offset, last_offset]."""
        first_offset = first_offset_metadata.message_offset
        self._maybe_validate_data_batch(epoch, first_seq, first_offset)
        self._updated_entry.add_batch(epoch, last_seq, last_offset, last_offset - first_offset, last_timestamp)
        current_txn_first_offset = self._updated_entry.current_txn_first_offset
        if current_txn_first_offset is not None and not is_transactional:
            raise InvalidTxnStateException(
                f"Expected transactional write from producer {self.producer_id} at offset {first_offset_metadata} "
                f"in partition {self.topic_partition}"
            )
        if current_txn_first_offset is None and is_transactional:
            self._updated_entry.current_txn_first_offset = first_offset
            self._transactions.append(TxnMetadata(self.producer_id, first_offset_metadata))

    def _check_coordinator_epoch(self, end_txn_marker: EndTransactionMarker, offset: int) -> None:
        if self._updated_entry.coordinator_epoch > end_txn_marker.coordinator_epoch():
            if isinstance(self.origin, Replication):
                self.info(
                    f"Detected invalid coordinator epoch for producerId {self.producer_id} at offset {offset} in "
                    f"partition {self.topic_partition}: {end_txn_marker.coordinator_epoch()} is older than "
                    f"previously known coordinator epoch {self._updated_entry.coordinator_epoch}"
                )
            else:
                raise TransactionCoordinatorFencedException(
                    f"Invalid coordinator epoch for producerId {self.producer_id} at offset {offset} in partition "
                    f"{self.topic_partition}: {end_txn_marker.coordinator_epoch()} (zombie), "
                    f"{self._updated_entry.coordinator_epoch} (current)"
                )

    def append_end_txn_marker(
        self, end_txn_marker: EndTransactionMarker, producer_epoch: int, offset: int, timestamp: int
    ) -> CompletedTxn | None:
        """Record a COMMIT/ABORT marker; returns the completed transaction if it held data."""
        self._check_producer_epoch(producer_epoch, offset)
        self._check_coordinator_epoch(end_txn_marker, offset)
        # A marker without data before it changes neither the LSO nor the transaction index.
        first_offset = self._updated_entry.current_txn_first_offset
        completed_txn = None
        if first_offset is not None:
            completed_txn = CompletedTxn(
                self.producer_id, first_offset, offset, end_txn_marker.control_type() is ControlRecordType.ABORT
            )
        self._updated_entry.maybe_update_producer_epoch(producer_epoch)
        self._updated_entry.current_txn_first_offset = None
        self._updated_entry.coordinator_epoch = end_txn_marker.coordinator_epoch()
        self._updated_entry.last_timestamp = timestamp
        return completed_txn

    def to_entry(self) -> ProducerStateEntry:
        """The producer's state after the batches seen so far."""
        return self._updated_entry

    def started_transactions(self) -> list[TxnMetadata]:
        """Transactions these batches opened."""
        return list(self._transactions)

    def __repr__(self) -> str:
        e = self._updated_entry
        return (
            f"ProducerAppendInfo(producerId={self.producer_id}, producerEpoch={e.producer_epoch}, "
            f"firstSequence={e.first_seq}, lastSequence={e.last_seq}, "
            f"currentTxnFirstOffset={e.current_txn_first_offset}, coordinatorEpoch={e.coordinator_epoch}, "
            f"lastTimestamp={e.last_timestamp}, startedTransactions={[str(t) for t in self._transactions]})"
        )


def _in_sequence(last_seq: int, next_seq: int) -> bool:
    return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT32_MAX)


class SnapshotFile:
    """A producer snapshot file and the offset it was taken at (from its name)."""

    __slots__ = ("_file", "offset")

    def __init__(self, file: Path, offset: int | None = None) -> None:
        self._file = Path(file)
        self.offset = offset_from_file(self._file) if offset is None else offset

    @property
    def file(self) -> Path:
        """The snapshot's path."""
        return self._file

    def delete_if_exists(self) -> bool:
        """Remove the file; True if it was there."""
        try:
            self._file.unlink()
        except FileNotFoundError:
            return False
        return True

    def update_parent_dir(self, parent_dir: Path) -> None:
        """Point at the same file name in the renamed partition directory."""
        self._file = Path(parent_dir) / self._file.name

    def __repr__(self) -> str:
        return f"SnapshotFile(file={self._file}, offset={self.offset})"


# ---- snapshot file layout ------------------------------------------------------------------------

PRODUCER_SNAPSHOT_VERSION: Final = 1
VERSION_OFFSET: Final = 0
CRC_OFFSET: Final = VERSION_OFFSET + 2
PRODUCER_ENTRIES_OFFSET: Final = CRC_OFFSET + 4

_HEADER: Final = struct.Struct(">hIi")  # version, crc, entry count
_ENTRY: Final = struct.Struct(">qhiqiqiq")


def read_snapshot(file: Path) -> list[ProducerStateEntry]:
    """Parse a snapshot file; CorruptSnapshotException if its version, CRC or layout is wrong."""
    data = Path(file).read_bytes()
    if len(data) < _HEADER.size:
        raise CorruptSnapshotException(
            f"Snapshot failed schema validation: Error reading field 'producer_entries': only {len(data)} bytes"
        )
    version, crc, count = _HEADER.unpack_from(data, 0)
    if version != PRODUCER_SNAPSHOT_VERSION:
        raise CorruptSnapshotException(f"Snapshot contained an unknown file version {version}")
    computed_crc = crc32c.crc32c(memoryview(data)[PRODUCER_ENTRIES_OFFSET:])
    if crc != computed_crc:
        raise CorruptSnapshotException(
            f"Snapshot is corrupt (CRC is no longer valid). Stored crc: {crc}. Computed crc: {computed_crc}"
        )
    if count < 0 or _HEADER.size + count * _ENTRY.size > len(data):
        raise CorruptSnapshotException(
            f"Snapshot failed schema validation: Error reading array of size {count}, only "
            f"{len(data) - _HEADER.size} bytes available"
        )
    entries = []
    for producer_id, epoch, seq, offset, offset_delta, timestamp, coordinator_epoch, txn_first in _ENTRY.iter_unpack(
        memoryview(data)[_HEADER.size : _HEADER.size + count * _ENTRY.size]
    ):
        batches: deque[BatchMetadata] = deque()
        if offset >= 0:
            batches.append(BatchMetadata(seq, offset, offset_delta, timestamp))
        entries.append(
            ProducerStateEntry(
                producer_id, batches, epoch, coordinator_epoch, timestamp, txn_first if txn_first >= 0 else None
            )
        )
    return entries


def write_snapshot(file: Path, entries: dict[int, ProducerStateEntry]) -> None:
    """Write the producers to `file` and force it to disk."""
    buffer = bytearray(_HEADER.size + len(entries) * _ENTRY.size)
    _HEADER.pack_into(buffer, 0, PRODUCER_SNAPSHOT_VERSION, 0, len(entries))
    position = _HEADER.size
    for producer_id, entry in entries.items():
        _ENTRY.pack_into(
            buffer,
            position,
            producer_id,
            entry.producer_epoch,
            entry.last_seq,
            entry.last_data_offset,
            entry.last_offset_delta,
            entry.last_timestamp,
            entry.coordinator_epoch,
            -1 if entry.current_txn_first_offset is None else entry.current_txn_first_offset,
        )
        position += _ENTRY.size
    struct.pack_into(">I", buffer, CRC_OFFSET, crc32c.crc32c(memoryview(buffer)[PRODUCER_ENTRIES_OFFSET:]))
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        view = memoryview(buffer)
        written = 0
        while written < len(buffer):
            written += os.write(fd, view[written:])
        os.fsync(fd)
    finally:
        os.close(fd)


def _is_snapshot_file(file: Path) -> bool:
    return file.name.endswith(PRODUCER_SNAPSHOT_FILE_SUFFIX)


def list_snapshot_files(dir: Path) -> list[SnapshotFile]:
    """The snapshot files in `dir` (none if it is not a directory)."""
    try:
        entries = list(os.scandir(dir))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [
        SnapshotFile(Path(e.path))
        for e in entries
        if e.is_file() and _is_snapshot_file(Path(e.name)) and _has_offset_name(e.name)
    ]


def _has_offset_name(name: str) -> bool:
    prefix = name.split(".", 1)[0]
    return prefix.isdigit()


class ProducerStateManager(Logging):
    """The producer ids of one partition and what they last appended, plus open transactions.

    Producers are forgotten after `max_producer_id_expiration_ms` without a write (unless they have
    a transaction open), or when the segments holding their last batch are deleted and the state is
    rebuilt from a later snapshot.
    """

    logger_name = "kafka.log.ProducerStateManager"

    PRODUCER_SNAPSHOT_VERSION: Final = PRODUCER_SNAPSHOT_VERSION

    def __init__(
        self, topic_partition: TopicPartition, log_dir: Path, max_producer_id_expiration_ms: int = 60 * 60 * 1000
    ) -> None:
        self.topic_partition = topic_partition
        self._log_dir = Path(log_dir)
        self.max_producer_id_expiration_ms = max_producer_id_expiration_ms
        self.log_ident = f"[ProducerStateManager partition={topic_partition}] "
        self._snapshots_lock = threading.Lock()
        self._snapshots: SortedDict[int, SnapshotFile] = self._load_snapshots()
        self._producers: dict[int, ProducerStateEntry] = {}
        self._last_map_offset = 0
        self._last_snap_offset = 0
        # Ongoing transactions by first offset.
        self._ongoing_txns: SortedDict = SortedDict()
        # Decided transactions whose marker is still above the high watermark, by first offset.
        self._unreplicated_txns: SortedDict = SortedDict()

    @property
    def log_dir(self) -> Path:
        """The partition directory holding the snapshots."""
        return self._log_dir

    def _load_snapshots(self) -> SortedDict[int, SnapshotFile]:
        snapshots: SortedDict[int, SnapshotFile] = SortedDict()
        for snapshot in list_snapshot_files(self._log_dir):
            snapshots[snapshot.offset] = snapshot
        return snapshots

    def remove_stray_snapshots(self, segment_base_offsets: Iterable[int]) -> None:
        """Delete snapshots that match no segment base offset, keeping only the newest stray one if it
        lies beyond every segment (the one written at the log end on clean shutdown)."""
        base_offsets = set(segment_base_offsets)
        max_segment_base_offset = max(base_offsets) if base_offsets else None
        latest_stray: SnapshotFile | None = None
        snapshots = self._load_snapshots()
        for snapshot in list(snapshots.values()):
            if snapshot.offset in base_offsets:
                continue
            if latest_stray is not None:
                latest_stray.delete_if_exists()
                snapshots.pop(latest_stray.offset, None)
            latest_stray = snapshot
        if latest_stray is not None and max_segment_base_offset is not None:
            if latest_stray.offset < max_segment_base_offset:
                removed = snapshots.pop(latest_stray.offset, None)
                if removed is not None:
                    removed.delete_if_exists()
        with self._snapshots_lock:
            self._snapshots = snapshots

    def first_unstable_offset(self) -> LogOffsetMetadata | None:
        """The earliest offset of a transaction that is undecided, or decided but not yet replicated."""
        unreplicated_first = self._unreplicated_txns.peekitem(0)[1].first_offset if self._unreplicated_txns else None
        undecided_first = self._ongoing_txns.peekitem(0)[1].first_offset if self._ongoing_txns else None
        if unreplicated_first is None:
            return undecided_first
        if undecided_first is None:
            return unreplicated_first
        if undecided_first.message_offset < unreplicated_first.message_offset:
            return undecided_first
        return unreplicated_first

    def on_high_watermark_updated(self, high_watermark: int) -> None:
        """Forget decided transactions whose markers are now below the high watermark."""
        self._remove_unreplicated_transactions(high_watermark)

    def first_undecided_offset(self) -> int | None:
        """The first offset of the earliest ongoing transaction, regardless of replication."""
        if not self._ongoing_txns:
            return None
        txn: TxnMetadata = self._ongoing_txns.peekitem(0)[1]
        return txn.first_offset.message_offset

    @property
    def map_end_offset(self) -> int:
        """The offset the state is complete up to (exclusive)."""
        return self._last_map_offset

    def active_producers(self) -> dict[int, ProducerStateEntry]:
        """A copy of the producers map."""
        return dict(self._producers)

    @property
    def is_empty(self) -> bool:
        """True when no producer and no unreplicated transaction is known."""
        return not self._producers and not self._unreplicated_txns

    def _load_from_snapshot(self, log_start_offset: int, current_time: int) -> None:
        while True:
            snapshot = self._latest_snapshot_file()
            if snapshot is None:
                self._last_snap_offset = log_start_offset
                self._last_map_offset = log_start_offset
                return
            try:
                self.info(f"Loading producer state from snapshot file '{snapshot.file}'")
                loaded = [e for e in read_snapshot(snapshot.file) if not self._is_producer_expired(current_time, e)]
                for entry in loaded:
                    self.load_producer_entry(entry)
                self._last_snap_offset = snapshot.offset
                self._last_map_offset = self._last_snap_offset
                return
            except CorruptSnapshotException as e:
                self.warn(f"Failed to load producer snapshot from '{snapshot.file}': {e}")
                self.remove_and_delete_snapshot(snapshot.offset)

    def load_producer_entry(self, entry: ProducerStateEntry) -> None:
        """Put a producer's entry in place (from a snapshot), reopening its transaction if any."""
        self._producers[entry.producer_id] = entry
        if entry.current_txn_first_offset is not None:
            offset = entry.current_txn_first_offset
            self._ongoing_txns[offset] = TxnMetadata.of(entry.producer_id, offset)

    def _is_producer_expired(self, current_time_ms: int, producer_state: ProducerStateEntry) -> bool:
        return (
            producer_state.current_txn_first_offset is None
            and current_time_ms - producer_state.last_timestamp >= self.max_producer_id_expiration_ms
        )

    def remove_expired_producers(self, current_time_ms: int) -> None:
        """Forget producers idle for longer than the expiration time."""
        expired = [pid for pid, entry in self._producers.items() if self._is_producer_expired(current_time_ms, entry)]
        for pid in expired:
            del self._producers[pid]

    def truncate_and_reload(self, log_start_offset: int, log_end_offset: int, current_time_ms: int) -> None:
        """Drop snapshots outside (log_start_offset, log_end_offset] and reload from the newest one left."""
        for snapshot in self._snapshot_values():
            if snapshot.offset > log_end_offset or snapshot.offset <= log_start_offset:
                self.remove_and_delete_snapshot(snapshot.offset)
        if log_end_offset != self.map_end_offset:
            self._producers.clear()
            self._ongoing_txns.clear()
            # The log end is at or below the high watermark here, so nothing is unreplicated.
            self._unreplicated_txns.clear()
            self._load_from_snapshot(log_start_offset, current_time_ms)
        else:
            self.on_log_start_offset_incremented(log_start_offset)

    def prepare_update(self, producer_id: int, origin: AppendOrigin) -> ProducerAppendInfo:
        """A ProducerAppendInfo starting from the producer's current state."""
        current_entry = self.last_entry(producer_id)
        if current_entry is None:
            current_entry = ProducerStateEntry.empty(producer_id)
        return ProducerAppendInfo(self.topic_partition, producer_id, current_entry, origin)

    def update(self, append_info: ProducerAppendInfo) -> None:
        """Apply the state an append produced."""
        if append_info.producer_id == NO_PRODUCER_ID:
            raise ValueError(
                f"Invalid producer id {append_info.producer_id} passed to update for partition {self.topic_partition}"
            )
        if self.is_trace_enabled():
            self.trace(f"Updated producer {append_info.producer_id} state to {append_info!r}")
        updated_entry = append_info.to_entry()
        current_entry = self._producers.get(append_info.producer_id)
        if current_entry is not None:
            current_entry.update(updated_entry)
        else:
            self._producers[append_info.producer_id] = updated_entry
        for txn in append_info.started_transactions():
            self._ongoing_txns[txn.first_offset.message_offset] = txn

    def update_map_end_offset(self, last_offset: int) -> None:
        """Record that the state is complete up to `last_offset` (exclusive)."""
        self._last_map_offset = last_offset

    def last_entry(self, producer_id: int) -> ProducerStateEntry | None:
        """The producer's current entry, if known."""
        return self._producers.get(producer_id)

    def take_snapshot(self) -> None:
        """Write a snapshot at the map end offset unless one exists at or beyond it."""
        if self._last_map_offset > self._last_snap_offset:
            snapshot = SnapshotFile(producer_snapshot_file(self._log_dir, self._last_map_offset))
            self.info(f"Writing producer snapshot at offset {self._last_map_offset}")
            write_snapshot(snapshot.file, self._producers)
            with self._snapshots_lock:
                self._snapshots[snapshot.offset] = snapshot
            self._last_snap_offset = self._last_map_offset

    def update_parent_dir(self, parent_dir: Path) -> None:
        """Follow a rename of the partition directory."""
        self._log_dir = Path(parent_dir)
        for snapshot in self._snapshot_values():
            snapshot.update_parent_dir(self._log_dir)

    @property
    def latest_snapshot_offset(self) -> int | None:
        """Offset of the newest snapshot, if any."""
        snapshot = self._latest_snapshot_file()
        return None if snapshot is None else snapshot.offset

    @property
    def oldest_snapshot_offset(self) -> int | None:
        """Offset of the oldest snapshot, if any."""
        snapshot = self._oldest_snapshot_file()
        return None if snapshot is None else snapshot.offset

    def on_log_start_offset_incremented(self, log_start_offset: int) -> None:
        """Forget transactions below the new log start and move the map end up to it if needed."""
        self._remove_unreplicated_transactions(log_start_offset)
        if self._last_map_offset < log_start_offset:
            self._last_map_offset = log_start_offset
        latest = self.latest_snapshot_offset
        self._last_snap_offset = log_start_offset if latest is None else latest

    def _remove_unreplicated_transactions(self, offset: int) -> None:
        if not self._unreplicated_txns:  # every high watermark move of a log without transactions
            return
        for first_offset, txn in list(self._unreplicated_txns.items()):
            if txn.last_offset is not None and txn.last_offset < offset:
                del self._unreplicated_txns[first_offset]

    def truncate_fully_and_start_at(self, offset: int) -> None:
        """Forget every producer and snapshot and start over at `offset`."""
        self._producers.clear()
        self._ongoing_txns.clear()
        self._unreplicated_txns.clear()
        for snapshot in self._snapshot_values():
            self.remove_and_delete_snapshot(snapshot.offset)
        self._last_snap_offset = 0
        self._last_map_offset = offset

    def last_stable_offset(self, completed_txn: CompletedTxn) -> int:
        """The LSO once `completed_txn` is decided: the first offset of the next ongoing transaction of
        another producer, or the offset after its marker."""
        for txn in self._ongoing_txns.values():
            if txn.producer_id != completed_txn.producer_id:
                return txn.first_offset.message_offset
        return completed_txn.last_offset + 1

    def complete_txn(self, completed_txn: CompletedTxn) -> None:
        """Move a decided transaction to the unreplicated set until the high watermark passes its marker."""
        txn_metadata = self._ongoing_txns.pop(completed_txn.first_offset, None)
        if txn_metadata is None:
            raise ValueError(
                f"Attempted to complete transaction {completed_txn} on partition {self.topic_partition} which was "
                "not started"
            )
        txn_metadata.last_offset = completed_txn.last_offset
        self._unreplicated_txns[completed_txn.first_offset] = txn_metadata

    def delete_snapshots_before(self, offset: int) -> None:
        """Delete every snapshot below `offset` (thread-safe)."""
        with self._snapshots_lock:
            older = [self._snapshots[k] for k in self._snapshots.irange(maximum=offset, inclusive=(True, False))]
        for snapshot in older:
            self.remove_and_delete_snapshot(snapshot.offset)

    def _snapshot_values(self) -> list[SnapshotFile]:
        with self._snapshots_lock:
            return list(self._snapshots.values())

    def _oldest_snapshot_file(self) -> SnapshotFile | None:
        with self._snapshots_lock:
            return self._snapshots.peekitem(0)[1] if self._snapshots else None

    def _latest_snapshot_file(self) -> SnapshotFile | None:
        with self._snapshots_lock:
            return self._snapshots.peekitem(-1)[1] if self._snapshots else None

    def remove_and_delete_snapshot(self, snapshot_offset: int) -> None:
        """Forget the snapshot at `snapshot_offset` and delete its file."""
        with self._snapshots_lock:
            snapshot = self._snapshots.pop(snapshot_offset, None)
        if snapshot is not None:
            snapshot.delete_if_exists()
