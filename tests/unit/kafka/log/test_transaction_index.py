"""Tests of TransactionIndex, after Kafka's TransactionIndexTest: layout, search, truncation, sanity, rename."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kafka.common.errors import KafkaException
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.log.transaction_index import AbortedTxn, TransactionIndex


@pytest.fixture
def index(tmp_path: Path) -> Iterator[TransactionIndex]:
    idx = TransactionIndex(0, tmp_path / "00000000000000000000.txnindex")
    yield idx
    idx.close()


def test_file_is_created_only_on_first_append(index: TransactionIndex) -> None:
    """No file exists until an entry is written."""
    assert not index.file.exists()
    assert index.all_aborted_txns() == []
    index.append(AbortedTxn.of(producer_id=0, first_offset=0, last_offset=10, last_stable_offset=11))
    assert index.file.stat().st_size == 34


def test_position_set_correctly_when_opened(index: TransactionIndex, tmp_path: Path) -> None:
    """A reopened index reads all entries and appends after them."""
    aborted = [
        AbortedTxn.of(0, 0, 10, 11),
        AbortedTxn.of(1, 5, 15, 13),
        AbortedTxn.of(2, 18, 35, 25),
        AbortedTxn.of(3, 32, 50, 40),
    ]
    for txn in aborted:
        index.append(txn)
    index.close()
    reopened = TransactionIndex(0, index.file)
    try:
        assert reopened.all_aborted_txns() == aborted
        extra = AbortedTxn.of(4, 52, 60, 55)
        reopened.append(extra)
        assert reopened.all_aborted_txns() == [*aborted, extra]
    finally:
        reopened.close()


def test_entry_layout(index: TransactionIndex) -> None:
    """An entry is version int16 0 and four big-endian int64s: producer id, first, last, last stable offset."""
    index.append(AbortedTxn.of(producer_id=7, first_offset=100, last_offset=200, last_stable_offset=150))
    index.flush()
    assert index.file.read_bytes() == struct.pack(">hqqqq", 0, 7, 100, 200, 150)


def test_aborted_txn_serde() -> None:
    """AbortedTxn exposes the fields it was built from and converts to the fetch response's AbortedTransaction."""
    txn = AbortedTxn.of(producer_id=983493, first_offset=137, last_offset=299, last_stable_offset=200)
    assert (txn.version, txn.producer_id, txn.first_offset, txn.last_offset, txn.last_stable_offset) == (
        0,
        983493,
        137,
        299,
        200,
    )
    assert len(txn.buffer) == AbortedTxn.TOTAL_SIZE == 34
    assert AbortedTxn(txn.buffer) == txn
    wire = txn.as_aborted_transaction()
    assert (wire.producer_id, wire.first_offset) == (983493, 137)


def test_from_completed_txn() -> None:
    """An entry built from a completed transaction carries its producer id and offsets."""

    @dataclass
    class Completed:
        producer_id: int
        first_offset: int
        last_offset: int
        is_aborted: bool

    txn = AbortedTxn.from_completed_txn(Completed(5, 10, 20, True), 15)
    assert txn == AbortedTxn.of(5, 10, 20, 15)


def test_sanity_check(index: TransactionIndex, tmp_path: Path) -> None:
    """An entry whose last offset is below the segment's start offset fails with CorruptIndexException."""
    for txn in (AbortedTxn.of(0, 0, 10, 11), AbortedTxn.of(1, 5, 15, 13)):
        index.append(txn)
    index.sanity_check()
    index.close()
    shifted = TransactionIndex(20, index.file)
    try:
        with pytest.raises(CorruptIndexException, match="less than start offset 20"):
            shifted.sanity_check()
    finally:
        shifted.close()


def test_last_offset_must_increase(index: TransactionIndex) -> None:
    """Appending an entry whose last offset is not larger than the previous one raises ValueError."""
    index.append(AbortedTxn.of(1, 5, 15, 13))
    with pytest.raises(ValueError, match="must increase sequentially"):
        index.append(AbortedTxn.of(0, 0, 15, 11))
    with pytest.raises(ValueError, match="must increase sequentially"):
        index.append(AbortedTxn.of(0, 0, 10, 11))


def test_collect_aborted_transactions(index: TransactionIndex) -> None:
    """The search returns the entries overlapping the range and is complete once an LSO reaches its end."""
    aborted = [
        AbortedTxn.of(0, 0, 10, 11),
        AbortedTxn.of(1, 5, 15, 13),
        AbortedTxn.of(2, 18, 35, 25),
        AbortedTxn.of(3, 32, 50, 40),
    ]
    for txn in aborted:
        index.append(txn)

    result = index.collect_aborted_txns(0, 100)
    assert result.aborted_transactions == aborted
    assert not result.is_complete

    result = index.collect_aborted_txns(0, 32)
    assert result.aborted_transactions == aborted[:3]
    assert result.is_complete

    result = index.collect_aborted_txns(0, 35)
    assert result.aborted_transactions == aborted
    assert result.is_complete

    result = index.collect_aborted_txns(10, 35)
    assert result.aborted_transactions == aborted
    assert result.is_complete

    result = index.collect_aborted_txns(11, 35)
    assert result.aborted_transactions == aborted[1:]
    assert result.is_complete

    result = index.collect_aborted_txns(20, 41)
    assert result.aborted_transactions == aborted[2:]
    assert not result.is_complete


def test_truncate(index: TransactionIndex) -> None:
    """truncate_to drops the entries whose last offset is at or after the offset; reset drops all."""
    aborted = [
        AbortedTxn.of(0, 0, 10, 2),
        AbortedTxn.of(1, 5, 15, 16),
        AbortedTxn.of(2, 18, 35, 25),
        AbortedTxn.of(3, 32, 50, 40),
    ]
    for txn in aborted:
        index.append(txn)
    index.truncate_to(51)
    assert index.collect_aborted_txns(0, 100).aborted_transactions == aborted
    index.truncate_to(50)
    assert index.collect_aborted_txns(0, 100).aborted_transactions == aborted[:3]
    assert index.file.stat().st_size == 3 * 34
    # The last offset is back to 35, so an entry ending at 40 is accepted again.
    index.append(AbortedTxn.of(4, 36, 40, 38))
    index.reset()
    assert index.collect_aborted_txns(0, 100).aborted_transactions == []
    assert index.file.stat().st_size == 0
    index.append(AbortedTxn.of(5, 0, 1, 1))
    assert len(index.all_aborted_txns()) == 1


def test_rename_index(index: TransactionIndex, tmp_path: Path) -> None:
    """rename_to moves the file and the index keeps working on it; a missing file is renamed in name only."""
    index.append(AbortedTxn.of(0, 0, 10, 2))
    renamed = tmp_path / "00000000000000000000.txnindex.swap"
    index.rename_to(renamed)
    index.append(AbortedTxn.of(1, 5, 15, 16))
    assert index.file == renamed
    assert len(index.all_aborted_txns()) == 2
    assert renamed.stat().st_size == 68

    never_written = TransactionIndex(0, tmp_path / "00000000000000000100.txnindex")
    never_written.rename_to(tmp_path / "00000000000000000100.txnindex.deleted")
    assert never_written.file.name.endswith(".deleted")
    assert not never_written.file.exists()
    assert not never_written.delete_if_exists()


def test_unknown_version_is_rejected(tmp_path: Path) -> None:
    """An entry with a version above 0 raises KafkaException when read."""
    path = tmp_path / "00000000000000000000.txnindex"
    path.write_bytes(struct.pack(">hqqqq", 1, 7, 100, 200, 150))
    idx = TransactionIndex(0, path)
    try:
        with pytest.raises(KafkaException, match="Unexpected aborted transaction version 1"):
            idx.all_aborted_txns()
    finally:
        idx.close()


def test_partial_trailing_entry_is_ignored(tmp_path: Path) -> None:
    """A torn last entry (fewer than 34 bytes) is not read as an entry."""
    path = tmp_path / "00000000000000000000.txnindex"
    path.write_bytes(struct.pack(">hqqqq", 0, 7, 100, 200, 150) + b"\x00" * 10)
    idx = TransactionIndex(0, path)
    try:
        assert idx.all_aborted_txns() == [AbortedTxn.of(7, 100, 200, 150)]
        idx.sanity_check()
    finally:
        idx.close()
