"""Tests for kafka.log.producer_state_manager, after Kafka's ProducerStateManagerTest."""

from __future__ import annotations

import struct
from pathlib import Path

import crc32c
import pytest

from kafka.common.errors import (
    InvalidProducerEpochException,
    InvalidTxnStateException,
    OutOfOrderSequenceException,
    TransactionCoordinatorFencedException,
)
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.topic_partition import TopicPartition
from kafka.log.log_append_info import CompletedTxn
from kafka.log.log_validator import AppendOrigin, Client, Coordinator, Replication
from kafka.log.producer_state_manager import (
    BatchMetadata,
    ProducerStateEntry,
    ProducerStateManager,
    read_snapshot,
)
from kafka.server.log_offset_metadata import LogOffsetMetadata

TP = TopicPartition("topic", 0)
PID = 1


@pytest.fixture
def psm(tmp_path: Path) -> ProducerStateManager:
    return ProducerStateManager(TP, tmp_path, max_producer_id_expiration_ms=60 * 60 * 1000)


def append(
    manager: ProducerStateManager,
    producer_id: int,
    epoch: int,
    seq: int,
    offset: int,
    timestamp: int = 0,
    is_transactional: bool = False,
    origin: AppendOrigin | None = None,
    last_seq: int | None = None,
) -> None:
    info = manager.prepare_update(producer_id, origin if origin is not None else Client())
    last = seq if last_seq is None else last_seq
    info.append_data_batch(
        epoch, seq, last, timestamp, LogOffsetMetadata(offset), offset + (last - seq), is_transactional
    )
    manager.update(info)
    manager.update_map_end_offset(offset + (last - seq) + 1)


def append_end_txn(
    manager: ProducerStateManager,
    producer_id: int,
    epoch: int,
    control_type: ControlRecordType,
    offset: int,
    coordinator_epoch: int = 0,
    origin: AppendOrigin | None = None,
) -> CompletedTxn | None:
    info = manager.prepare_update(producer_id, origin if origin is not None else Coordinator())
    completed = info.append_end_txn_marker(EndTransactionMarker(control_type, coordinator_epoch), epoch, offset, 0)
    manager.update(info)
    if completed is not None:
        manager.complete_txn(completed)
    manager.update_map_end_offset(offset + 1)
    return completed


def test_sequences_must_continue(psm: ProducerStateManager) -> None:
    """Consecutive sequences are accepted and a gap is an OutOfOrderSequenceException."""
    append(psm, PID, 0, 0, 0)
    append(psm, PID, 0, 1, 1)
    entry = psm.last_entry(PID)
    assert entry is not None and entry.last_seq == 1 and entry.last_data_offset == 1
    with pytest.raises(OutOfOrderSequenceException):
        append(psm, PID, 0, 3, 2)


def test_sequence_wraps_after_int_max(psm: ProducerStateManager) -> None:
    """After sequence 2^31-1 the next batch starts at 0."""
    append(psm, PID, 0, 2**31 - 1, 0)
    append(psm, PID, 0, 0, 1)
    entry = psm.last_entry(PID)
    assert entry is not None and entry.last_seq == 0


def test_new_epoch_must_start_at_zero(psm: ProducerStateManager) -> None:
    """A bumped epoch must restart at sequence 0; starting there resets the batch cache."""
    append(psm, PID, 0, 0, 0)
    with pytest.raises(OutOfOrderSequenceException, match="new epoch"):
        append(psm, PID, 1, 5, 1)
    append(psm, PID, 1, 0, 1)
    entry = psm.last_entry(PID)
    assert entry is not None and entry.producer_epoch == 1 and len(entry.batch_metadata) == 1


def test_old_epoch_is_fenced_for_clients_and_logged_for_replication(psm: ProducerStateManager) -> None:
    """A smaller epoch is InvalidProducerEpochException from a client, but replicated data is taken as is."""
    append(psm, PID, 2, 0, 0)
    with pytest.raises(InvalidProducerEpochException):
        append(psm, PID, 1, 0, 1)
    append(psm, PID, 1, 0, 1, origin=Replication())
    entry = psm.last_entry(PID)
    assert entry is not None and entry.producer_epoch == 1


def test_unknown_producer_starts_state_with_sequence_zero(psm: ProducerStateManager) -> None:
    """A producer id never seen here starts its state with sequence 0."""
    assert psm.last_entry(PID) is None
    append(psm, PID, 0, 0, 0)
    entry = psm.last_entry(PID)
    assert entry is not None and (entry.producer_epoch, entry.first_seq, entry.last_seq) == (0, 0, 0)


def test_unknown_producer_accepts_any_sequence_as_kafka_2_8(psm: ProducerStateManager) -> None:
    """As in Kafka 2.8 (KIP-360) a producer unknown to the partition (its data deleted) may go on at any sequence."""
    append(psm, PID, 3, 17, 0)
    entry = psm.last_entry(PID)
    assert entry is not None and entry.last_seq == 17
    with pytest.raises(OutOfOrderSequenceException):
        append(psm, PID, 3, 19, 1)


def test_coordinator_appends_skip_sequence_checks(psm: ProducerStateManager) -> None:
    """Coordinator writes (offset commits) check epochs but not sequences."""
    append(psm, PID, 0, 0, 0, origin=Coordinator())
    append(psm, PID, 0, 9, 1, origin=Coordinator())
    entry = psm.last_entry(PID)
    assert entry is not None and entry.last_seq == 9
    append(psm, PID, 1, 3, 2, origin=Coordinator())
    with pytest.raises(InvalidProducerEpochException):
        append(psm, PID, 0, 4, 3, origin=Coordinator())


def test_duplicate_batch_is_found_among_last_five(psm: ProducerStateManager) -> None:
    """The five most recent batches are remembered with their offsets; older ones are forgotten."""
    for i in range(6):
        append(psm, PID, 0, i * 10, i * 100, last_seq=i * 10 + 9)
    entry = psm.last_entry(PID)
    assert entry is not None and len(entry.batch_metadata) == ProducerStateEntry.NUM_BATCHES_TO_RETAIN
    assert entry.batch_with_sequence_range(20, 29) == BatchMetadata(29, 209, 9, 0)
    assert entry.batch_with_sequence_range(0, 9) is None
    found = entry.batch_with_sequence_range(50, 59)
    assert found is not None and (found.first_offset, found.last_offset) == (500, 509)


def test_transaction_bounds_first_unstable_and_last_stable_offset(psm: ProducerStateManager) -> None:
    """An open transaction pins the first unstable offset; once decided it stays until the HW passes its marker."""
    append(psm, PID, 0, 0, 99, is_transactional=True)
    append(psm, 2, 0, 0, 100, is_transactional=True)
    first = psm.first_unstable_offset()
    assert first is not None and first.message_offset == 99
    completed = append_end_txn(psm, PID, 0, ControlRecordType.COMMIT, 105)
    assert completed == CompletedTxn(PID, 99, 105, False)
    first = psm.first_unstable_offset()
    assert first is not None and first.message_offset == 99  # marker not yet replicated
    psm.on_high_watermark_updated(106)
    first = psm.first_unstable_offset()
    assert first is not None and first.message_offset == 100
    assert psm.last_stable_offset(CompletedTxn(2, 100, 110, True)) == 111


def test_non_transactional_write_during_transaction_is_rejected(psm: ProducerStateManager) -> None:
    """Data without the transactional flag while the producer's transaction is open is InvalidTxnStateException."""
    append(psm, PID, 0, 0, 0, is_transactional=True)
    with pytest.raises(InvalidTxnStateException):
        append(psm, PID, 0, 1, 1, is_transactional=False)


def test_zombie_coordinator_is_fenced(psm: ProducerStateManager) -> None:
    """A marker with an older coordinator epoch is TransactionCoordinatorFencedException."""
    append(psm, PID, 0, 0, 0, is_transactional=True)
    append_end_txn(psm, PID, 0, ControlRecordType.ABORT, 1, coordinator_epoch=5)
    append(psm, PID, 0, 1, 2, is_transactional=True)
    with pytest.raises(TransactionCoordinatorFencedException):
        append_end_txn(psm, PID, 0, ControlRecordType.COMMIT, 3, coordinator_epoch=4)


def test_marker_without_data_completes_nothing(psm: ProducerStateManager) -> None:
    """A marker for a producer with no open transaction returns no CompletedTxn."""
    assert append_end_txn(psm, PID, 0, ControlRecordType.COMMIT, 0) is None
    assert psm.first_unstable_offset() is None


def test_snapshot_layout_is_kafka_2_8(psm: ProducerStateManager, tmp_path: Path) -> None:
    """The snapshot file is version 1, CRC32C over the entries, 46-byte big-endian entries, named by offset."""
    append(psm, PID, 3, 7, 41, timestamp=1234, is_transactional=True)
    psm.take_snapshot()
    snapshot = tmp_path / "00000000000000000042.snapshot"
    data = snapshot.read_bytes()
    version, crc, count = struct.unpack_from(">hIi", data, 0)
    assert (version, count) == (1, 1)
    assert crc == crc32c.crc32c(data[6:])
    assert len(data) == 10 + 46
    assert struct.unpack_from(">qhiqiqiq", data, 10) == (PID, 3, 7, 41, 0, 1234, -1, 41)


def test_snapshot_round_trip_through_reload(psm: ProducerStateManager, tmp_path: Path) -> None:
    """A new manager loads producers and open transactions from the latest snapshot."""
    append(psm, PID, 0, 0, 0, timestamp=5)
    append(psm, 2, 4, 0, 1, timestamp=5, is_transactional=True)
    psm.take_snapshot()
    reloaded = ProducerStateManager(TP, tmp_path)
    reloaded.truncate_and_reload(0, 2, current_time_ms=10)
    assert reloaded.map_end_offset == 2
    assert set(reloaded.active_producers()) == {PID, 2}
    entry = reloaded.last_entry(2)
    assert entry is not None and (entry.producer_epoch, entry.current_txn_first_offset) == (4, 1)
    first = reloaded.first_unstable_offset()
    assert first is not None and first.message_offset == 1
    # The reloaded state continues the sequence.
    append(reloaded, PID, 0, 1, 2)


def test_corrupt_snapshot_is_deleted_and_ignored(psm: ProducerStateManager, tmp_path: Path) -> None:
    """A snapshot whose CRC fails is removed and the state starts from the log start offset."""
    append(psm, PID, 0, 0, 0)
    psm.take_snapshot()
    snapshot = tmp_path / "00000000000000000001.snapshot"
    raw = bytearray(snapshot.read_bytes())
    raw[-1] ^= 0x01
    snapshot.write_bytes(raw)
    reloaded = ProducerStateManager(TP, tmp_path)
    reloaded.truncate_and_reload(0, 5, current_time_ms=0)
    assert not snapshot.exists()
    assert reloaded.active_producers() == {}
    assert reloaded.map_end_offset == 0


def test_unknown_snapshot_version_is_corrupt(tmp_path: Path) -> None:
    """A snapshot with a version other than 1 is refused."""
    from kafka.log.producer_state_manager import CorruptSnapshotException

    path = tmp_path / "00000000000000000003.snapshot"
    body = struct.pack(">i", 0)
    path.write_bytes(struct.pack(">hI", 2, crc32c.crc32c(body)) + body)
    with pytest.raises(CorruptSnapshotException, match="version 2"):
        read_snapshot(path)


def test_truncate_and_reload_drops_out_of_range_snapshots(psm: ProducerStateManager, tmp_path: Path) -> None:
    """Snapshots above the new log end or at/below the log start are deleted on truncation."""
    for offset in range(3):
        append(psm, PID, 0, offset, offset)
        psm.take_snapshot()
    assert sorted(p.name for p in tmp_path.glob("*.snapshot")) == [
        "00000000000000000001.snapshot",
        "00000000000000000002.snapshot",
        "00000000000000000003.snapshot",
    ]
    psm.truncate_and_reload(1, 2, current_time_ms=0)
    assert [p.name for p in tmp_path.glob("*.snapshot")] == ["00000000000000000002.snapshot"]
    entry = psm.last_entry(PID)
    assert entry is not None and entry.last_seq == 1


def test_remove_stray_snapshots_keeps_latest_beyond_segments(tmp_path: Path) -> None:
    """Snapshots not matching a segment are deleted, except the newest one beyond the last segment."""
    for offset in (0, 5, 7, 12, 20):
        (tmp_path / f"{offset:020d}.snapshot").write_bytes(b"")
    psm = ProducerStateManager(TP, tmp_path)
    psm.remove_stray_snapshots([0, 10])
    assert sorted(p.name for p in tmp_path.glob("*.snapshot")) == [
        "00000000000000000000.snapshot",
        "00000000000000000020.snapshot",
    ]
    assert psm.latest_snapshot_offset == 20 and psm.oldest_snapshot_offset == 0


def test_expired_producers_are_removed(psm: ProducerStateManager) -> None:
    """Producers idle for the expiration time are forgotten unless they have a transaction open."""
    append(psm, PID, 0, 0, 0, timestamp=0)
    append(psm, 2, 0, 0, 1, timestamp=0, is_transactional=True)
    psm.remove_expired_producers(60 * 60 * 1000)
    assert set(psm.active_producers()) == {2}


def test_delete_snapshots_before(psm: ProducerStateManager, tmp_path: Path) -> None:
    """Snapshots strictly below the offset are deleted."""
    for offset in range(3):
        append(psm, PID, 0, offset, offset)
        psm.take_snapshot()
    psm.delete_snapshots_before(3)
    assert [p.name for p in tmp_path.glob("*.snapshot")] == ["00000000000000000003.snapshot"]


def test_truncate_fully_clears_everything(psm: ProducerStateManager, tmp_path: Path) -> None:
    """Full truncation drops producers, transactions and snapshots and moves the map end."""
    append(psm, PID, 0, 0, 0, is_transactional=True)
    psm.take_snapshot()
    psm.truncate_fully_and_start_at(50)
    assert psm.is_empty and psm.first_unstable_offset() is None
    assert psm.map_end_offset == 50
    assert list(tmp_path.glob("*.snapshot")) == []
