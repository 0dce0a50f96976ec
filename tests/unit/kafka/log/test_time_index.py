"""Tests of TimeIndex, after Kafka's TimeIndexTest: lookups, appends, truncation, sanity, the reserved slot."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka.common.errors import InvalidOffsetException
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.log.index_entry import TimestampOffset
from kafka.log.time_index import TimeIndex

BASE_OFFSET = 45
MAX_ENTRIES = 30


@pytest.fixture
def idx(tmp_path: Path) -> Iterator[TimeIndex]:
    index = TimeIndex(tmp_path / "00000000000000000045.timeindex", BASE_OFFSET, max_index_size=MAX_ENTRIES * 12)
    yield index
    index.close_handler()


def _append_entries(idx: TimeIndex, num_entries: int) -> None:
    for i in range(1, num_entries):
        idx.maybe_append(i * 10, i + BASE_OFFSET)


def test_lookup(idx: TimeIndex) -> None:
    """A lookup returns the entry with the largest timestamp not above the target, or (-1, base offset)."""
    _append_entries(idx, MAX_ENTRIES - 1)
    assert idx.lookup(-1) == TimestampOffset(NO_TIMESTAMP, idx.base_offset)
    assert idx.lookup(5) == TimestampOffset(NO_TIMESTAMP, idx.base_offset)
    assert idx.lookup(10) == TimestampOffset(10, idx.base_offset + 1)
    assert idx.lookup(15) == TimestampOffset(10, idx.base_offset + 1)
    assert idx.lookup(280) == TimestampOffset(280, idx.base_offset + 28)
    assert idx.lookup(300) == TimestampOffset(280, idx.base_offset + 28)


def test_entry(idx: TimeIndex) -> None:
    """entry(n) returns the n-th appended pair."""
    _append_entries(idx, MAX_ENTRIES - 1)
    assert idx.entry(0) == TimestampOffset(10, BASE_OFFSET + 1)
    assert idx.entry(1) == TimestampOffset(20, BASE_OFFSET + 2)


def test_entry_overflow(idx: TimeIndex) -> None:
    """Reading a slot past the entries is refused with ValueError."""
    with pytest.raises(ValueError, match="Attempt to fetch the 0th entry"):
        idx.entry(0)


def test_truncate(idx: TimeIndex) -> None:
    """truncate_to removes the entries at or after the offset."""
    _append_entries(idx, MAX_ENTRIES - 1)
    idx.truncate_to(10 + BASE_OFFSET)
    assert idx.last_entry == TimestampOffset(90, 9 + BASE_OFFSET)
    assert idx.entries == 9
    idx.truncate_to(0)
    assert idx.entries == 0
    assert idx.last_entry == TimestampOffset(NO_TIMESTAMP, BASE_OFFSET)


def test_append_rules(idx: TimeIndex) -> None:
    """Only a larger timestamp adds an entry; a smaller offset or timestamp is refused; a repeat is ignored."""
    _append_entries(idx, MAX_ENTRIES - 1)
    with pytest.raises(InvalidOffsetException):
        idx.maybe_append(10000, 1 + BASE_OFFSET)
    with pytest.raises(RuntimeError, match="no larger than the last timestamp"):
        idx.maybe_append(10, 10000 + BASE_OFFSET)
    entries = idx.entries
    # Repeating the last entry, as a roll followed by a close does, is a no-op.
    idx.maybe_append(idx.last_entry.timestamp, idx.last_entry.offset)
    # A smaller-or-equal timestamp at a later offset is not indexed either.
    idx.maybe_append(idx.last_entry.timestamp, idx.last_entry.offset + 5)
    assert idx.entries == entries


def test_last_slot_is_reserved_for_roll(idx: TimeIndex) -> None:
    """The index reports full one slot early; skip_full_check can still use the last slot."""
    _append_entries(idx, MAX_ENTRIES)
    assert idx.entries == MAX_ENTRIES - 1
    assert idx.is_full
    with pytest.raises(ValueError, match="full time index"):
        idx.maybe_append(100000, 1000 + BASE_OFFSET)
    idx.maybe_append(100000, 1000 + BASE_OFFSET, skip_full_check=True)
    assert idx.entries == MAX_ENTRIES
    assert idx.last_entry == TimestampOffset(100000, 1000 + BASE_OFFSET)
    with pytest.raises(ValueError, match="full time index"):
        idx.maybe_append(100001, 1001 + BASE_OFFSET, skip_full_check=True)


def test_file_format(idx: TimeIndex) -> None:
    """After a flush the file holds 8-byte big-endian timestamps and 4-byte relative offsets, Kafka's layout."""
    idx.maybe_append(1_600_000_000_000, BASE_OFFSET + 7)
    idx.flush()
    assert idx.file.read_bytes()[:12] == struct.pack(">qi", 1_600_000_000_000, 7)


def test_reopen_reads_last_entry(tmp_path: Path) -> None:
    """A closed index reopens trimmed, with its last entry loaded from the file."""
    path = tmp_path / "00000000000000000045.timeindex"
    idx = TimeIndex(path, BASE_OFFSET, max_index_size=MAX_ENTRIES * 12)
    _append_entries(idx, 5)
    idx.close()
    assert path.stat().st_size == 4 * 12
    reopened = TimeIndex(path, BASE_OFFSET, max_index_size=MAX_ENTRIES * 12)
    try:
        assert reopened.last_entry == TimestampOffset(40, BASE_OFFSET + 4)
        reopened.resize(MAX_ENTRIES * 12)
        assert reopened.last_entry == TimestampOffset(40, BASE_OFFSET + 4)
        reopened.maybe_append(50, BASE_OFFSET + 5)
        assert reopened.lookup(55) == TimestampOffset(50, BASE_OFFSET + 5)
    finally:
        reopened.close_handler()


def test_sanity_check(idx: TimeIndex, tmp_path: Path) -> None:
    """A healthy index passes; shrinking timestamps, an offset below base or a bad length are CorruptIndexException."""
    idx.sanity_check()
    _append_entries(idx, 5)
    idx.sanity_check()

    # Last timestamp smaller than the first.
    path = tmp_path / "00000000000000000045.timeindex.1"
    path.write_bytes(struct.pack(">qiqi", 100, 1, 50, 2))
    shrinking = TimeIndex(path, BASE_OFFSET, max_index_size=MAX_ENTRIES * 12)
    try:
        with pytest.raises(CorruptIndexException, match="less than the first timestamp"):
            shrinking.sanity_check()
    finally:
        shrinking.close_handler()

    # Last offset below the base offset.
    path = tmp_path / "00000000000000000045.timeindex.2"
    path.write_bytes(struct.pack(">qiqi", 100, 1, 200, -3))
    below_base = TimeIndex(path, BASE_OFFSET, max_index_size=MAX_ENTRIES * 12)
    try:
        with pytest.raises(CorruptIndexException, match="less than the first offset"):
            below_base.sanity_check()
    finally:
        below_base.close_handler()

    # A length that is not a whole number of entries.
    path = tmp_path / "00000000000000000045.timeindex.3"
    path.write_bytes(struct.pack(">qi", 100, 1) + b"\x00" * 5)
    bad_length = TimeIndex(path, BASE_OFFSET, max_index_size=MAX_ENTRIES * 12)
    try:
        with pytest.raises(CorruptIndexException, match="neither positive nor a multiple of 12"):
            bad_length.sanity_check()
    finally:
        bad_length.close_handler()
