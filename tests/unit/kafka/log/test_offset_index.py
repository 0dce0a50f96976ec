"""Tests of OffsetIndex, after Kafka's OffsetIndexTest: lookups, bounds, reopen, truncation, sanity."""

from __future__ import annotations

import bisect
import random
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka.common.errors import InvalidOffsetException
from kafka.log.abstract_index import IndexOffsetOverflowException
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.log.index_entry import OffsetPosition
from kafka.log.offset_index import OffsetIndex

BASE_OFFSET = 45


@pytest.fixture
def idx(tmp_path: Path) -> Iterator[OffsetIndex]:
    index = OffsetIndex(tmp_path / "00000000000000000045.index", BASE_OFFSET, max_index_size=30 * 8)
    yield index
    index.close_handler()


def _append_entries(idx: OffsetIndex, num_entries: int) -> None:
    for i in range(1, num_entries):
        idx.append(BASE_OFFSET + i, i)


def test_new_index_is_preallocated_and_empty(idx: OffsetIndex) -> None:
    """A new index file has its full rounded size on disk, no entries, and the base offset as last offset."""
    assert idx.file.stat().st_size == 240
    assert idx.entries == 0
    assert idx.max_entries == 30
    assert idx.last_offset == BASE_OFFSET
    assert idx.lookup(BASE_OFFSET + 10) == OffsetPosition(BASE_OFFSET, 0)


def test_max_index_size_is_rounded_down_to_whole_entries(tmp_path: Path) -> None:
    """A max size that is not a multiple of 8 is rounded down, as Kafka rounds it."""
    index = OffsetIndex(tmp_path / "0.index", 0, max_index_size=67)
    try:
        assert index.file.stat().st_size == 64
        assert index.max_entries == 8
    finally:
        index.close_handler()


def test_too_small_max_index_size_is_rejected(tmp_path: Path) -> None:
    """A max size below one entry is refused with ValueError (Kafka's IllegalArgumentException)."""
    with pytest.raises(ValueError, match="Invalid max index size"):
        OffsetIndex(tmp_path / "0.index", 0, max_index_size=4)


def test_random_lookup(tmp_path: Path) -> None:
    """Lookups of random offsets find the greatest indexed offset not above the target, as a sorted scan would."""
    index = OffsetIndex(tmp_path / "0.index", BASE_OFFSET, max_index_size=10_000 * 8)
    try:
        rnd = random.Random(7)
        offsets = sorted(rnd.sample(range(BASE_OFFSET, BASE_OFFSET + 100_000), 5000))
        positions = sorted(rnd.sample(range(0, 1_000_000), 5000))
        for offset, position in zip(offsets, positions):
            index.append(offset, position)
        for _ in range(2000):
            target = rnd.randrange(0, BASE_OFFSET + 110_000)
            i = bisect.bisect_right(offsets, target)
            expected = OffsetPosition(offsets[i - 1], positions[i - 1]) if i else OffsetPosition(BASE_OFFSET, 0)
            assert index.lookup(target) == expected
    finally:
        index.close_handler()


def test_warm_and_cold_sections_are_both_searched(tmp_path: Path) -> None:
    """With more entries than the 1024-entry warm section, offsets in the cold part are still found exactly."""
    index = OffsetIndex(tmp_path / "0.index", 0, max_index_size=4000 * 8)
    try:
        for i in range(3000):
            index.append(i * 2, i * 10)
        assert index.lookup(0) == OffsetPosition(0, 0)
        assert index.lookup(1) == OffsetPosition(0, 0)
        assert index.lookup(2 * 500 + 1) == OffsetPosition(1000, 5000)
        assert index.lookup(2 * 1975) == OffsetPosition(3950, 19750)
        assert index.lookup(2 * 1976) == OffsetPosition(3952, 19760)
        assert index.lookup(2 * 2999 + 100) == OffsetPosition(5998, 29990)
    finally:
        index.close_handler()


def test_lookup_extreme_cases(idx: OffsetIndex) -> None:
    """Below the first entry gives (base offset, 0); past the last gives the last; an exact hit gives itself."""
    assert idx.lookup(idx.base_offset) == OffsetPosition(idx.base_offset, 0)
    for i in range(idx.max_entries):
        idx.append(idx.base_offset + i + 1, i)
    assert idx.lookup(idx.base_offset) == OffsetPosition(idx.base_offset, 0)
    last = idx.entry(idx.entries - 1)
    assert idx.lookup(last.offset + 1000) == last
    assert idx.lookup(idx.base_offset + 7) == OffsetPosition(idx.base_offset + 7, 6)


def test_lookup_with_next_position_at_and_past_the_last_entry(idx: OffsetIndex) -> None:
    """At or past the last entry (a fetch at the log end) both lookups give the last entry and no next position; at
    or past the one before, that one and the last entry's position; further back the same as a search; also after a
    truncation and an append."""
    for i in range(1, 11):
        idx.append(BASE_OFFSET + 10 * i, 100 * i)
    last = OffsetPosition(BASE_OFFSET + 100, 1000)
    assert idx.lookup_with_next_position(BASE_OFFSET + 100) == (last, -1)
    assert idx.lookup_with_next_position(BASE_OFFSET + 105) == (last, -1)
    assert idx.lookup(BASE_OFFSET + 105) == last
    assert idx.lookup_with_next_position(BASE_OFFSET + 95) == (OffsetPosition(BASE_OFFSET + 90, 900), 1000)
    assert idx.lookup_with_next_position(BASE_OFFSET + 90) == (OffsetPosition(BASE_OFFSET + 90, 900), -1)
    assert idx.lookup(BASE_OFFSET + 99) == OffsetPosition(BASE_OFFSET + 90, 900)
    assert idx.lookup_with_next_position(BASE_OFFSET + 55) == (OffsetPosition(BASE_OFFSET + 50, 500), 600)
    assert idx.lookup_with_next_position(BASE_OFFSET + 5) == (OffsetPosition(BASE_OFFSET, 0), 100)
    idx.truncate_to(BASE_OFFSET + 95)
    assert idx.lookup_with_next_position(BASE_OFFSET + 105) == (OffsetPosition(BASE_OFFSET + 90, 900), -1)
    idx.append(BASE_OFFSET + 96, 950)
    assert idx.lookup_with_next_position(BASE_OFFSET + 96) == (OffsetPosition(BASE_OFFSET + 96, 950), -1)
    assert idx.lookup_with_next_position(BASE_OFFSET + 93) == (OffsetPosition(BASE_OFFSET + 90, 900), 950)
    idx.truncate()
    assert idx.lookup_with_next_position(BASE_OFFSET + 105) == (OffsetPosition(BASE_OFFSET, 0), -1)


def test_entry(idx: OffsetIndex) -> None:
    """entry(n) returns the n-th appended pair."""
    idx.append(BASE_OFFSET + 1, 10)
    idx.append(BASE_OFFSET + 5, 20)
    assert idx.entry(0) == OffsetPosition(BASE_OFFSET + 1, 10)
    assert idx.entry(1) == OffsetPosition(BASE_OFFSET + 5, 20)


def test_entry_overflow(idx: OffsetIndex) -> None:
    """Reading a slot past the entries is refused with ValueError."""
    with pytest.raises(ValueError, match="Attempt to fetch the 0th entry"):
        idx.entry(0)


def test_append_too_many(idx: OffsetIndex) -> None:
    """Appending to a full index is refused with ValueError and does not change the entries."""
    for i in range(idx.max_entries):
        idx.append(BASE_OFFSET + i + 1, i)
    assert idx.is_full
    with pytest.raises(ValueError, match="full index"):
        idx.append(BASE_OFFSET + 1000, 1000)
    assert idx.entries == idx.max_entries


def test_append_out_of_order(idx: OffsetIndex) -> None:
    """An offset not larger than the last raises InvalidOffsetException."""
    idx.append(BASE_OFFSET + 51, 0)
    with pytest.raises(InvalidOffsetException):
        idx.append(BASE_OFFSET + 50, 1)
    with pytest.raises(InvalidOffsetException):
        idx.append(BASE_OFFSET + 51, 1)
    assert idx.entries == 1


def test_relative_offset_overflow(idx: OffsetIndex) -> None:
    """An offset more than Int.MaxValue past the base offset raises IndexOffsetOverflowException and writes nothing."""
    assert not idx.can_append_offset(BASE_OFFSET + 2**31)
    assert idx.can_append_offset(BASE_OFFSET + 2**31 - 1)
    with pytest.raises(IndexOffsetOverflowException):
        idx.append(BASE_OFFSET + 2**31, 0)
    assert idx.entries == 0


def test_fetch_upper_bound_offset(idx: OffsetIndex) -> None:
    """The upper bound is the first entry whose position is at or past the fetch end, or None."""
    first = OffsetPosition(BASE_OFFSET, 0)
    second = OffsetPosition(BASE_OFFSET + 1, 10)
    third = OffsetPosition(BASE_OFFSET + 2, 23)
    fourth = OffsetPosition(BASE_OFFSET + 3, 37)
    assert idx.fetch_upper_bound_offset(first, 5) is None
    for e in (first, second, third, fourth):
        idx.append(e.offset, e.position)
    assert idx.fetch_upper_bound_offset(first, 5) == second
    assert idx.fetch_upper_bound_offset(first, 10) == second
    assert idx.fetch_upper_bound_offset(first, 23) == third
    assert idx.fetch_upper_bound_offset(first, 22) == third
    assert idx.fetch_upper_bound_offset(second, 24) == fourth
    assert idx.fetch_upper_bound_offset(fourth, 1) is None
    assert idx.fetch_upper_bound_offset(first, 200) is None
    assert idx.fetch_upper_bound_offset(second, 200) is None


def test_reopen(tmp_path: Path) -> None:
    """A closed index reopens trimmed to its entries, with the same lookups, and is full for appends."""
    path = tmp_path / "00000000000000000045.index"
    idx = OffsetIndex(path, BASE_OFFSET, max_index_size=30 * 8)
    first = OffsetPosition(BASE_OFFSET + 0, 0)
    second = OffsetPosition(BASE_OFFSET + 1, 1)
    idx.append(first.offset, first.position)
    idx.append(second.offset, second.position)
    idx.close()
    assert path.stat().st_size == 16
    reopened = OffsetIndex(path, BASE_OFFSET, max_index_size=30 * 8)
    try:
        assert reopened.lookup(first.offset) == first
        assert reopened.lookup(second.offset) == second
        assert reopened.last_offset == second.offset
        assert reopened.entries == 2
        assert reopened.is_full
        with pytest.raises(ValueError, match="full index"):
            reopened.append(second.offset + 1, 2)
    finally:
        reopened.close_handler()


def test_file_format_is_big_endian_relative_offset_and_position(idx: OffsetIndex) -> None:
    """After a flush the file bytes are 4-byte big-endian relative offsets and 4-byte positions, Kafka's layout."""
    idx.append(BASE_OFFSET + 3, 4096)
    idx.append(BASE_OFFSET + 70000, 2**31 - 1)
    idx.flush()
    data = idx.file.read_bytes()
    assert data[:16] == struct.pack(">iiii", 3, 4096, 70000, 2**31 - 1)
    assert data[16:] == bytes(len(data) - 16)


def test_truncate(tmp_path: Path) -> None:
    """truncate_to keeps entries below the offset; an exact entry is dropped; past the end changes nothing."""
    idx = OffsetIndex(tmp_path / "0.index", 0, max_index_size=10 * 8)
    try:
        idx.truncate()
        for i in range(1, 10):
            idx.append(i, i)
        # Truncating beyond the last entry does nothing.
        idx.truncate_to(12)
        assert idx.lookup(10) == OffsetPosition(9, 9)
        assert idx.entries == 9
        # Truncating at an entry removes it and what follows.
        idx.truncate_to(9)
        assert idx.lookup(10) == OffsetPosition(8, 8)
        assert idx.last_offset == 8
        # Truncating between entries keeps the one below.
        idx.truncate_to(5)
        assert idx.lookup(10) == OffsetPosition(4, 4)
        assert idx.entries == 4
        # Truncating to before every entry empties the index.
        idx.truncate_to(0)
        assert idx.entries == 0
        assert idx.lookup(10) == OffsetPosition(0, 0)
        idx.append(1, 1)
        assert idx.lookup(5) == OffsetPosition(1, 1)
    finally:
        idx.close_handler()


def test_resize_and_reset(idx: OffsetIndex) -> None:
    """trim_to_valid_size shrinks the file to the entries; reset empties it and restores the max size."""
    _append_entries(idx, 5)
    idx.trim_to_valid_size()
    assert idx.file.stat().st_size == 4 * 8
    assert idx.is_full
    assert idx.lookup(BASE_OFFSET + 3) == OffsetPosition(BASE_OFFSET + 3, 3)
    assert not idx.resize(4 * 8)
    idx.reset()
    assert idx.entries == 0
    assert idx.file.stat().st_size == 240
    assert idx.lookup(BASE_OFFSET + 3) == OffsetPosition(BASE_OFFSET, 0)


def test_trim_to_zero_entries_and_grow_again(idx: OffsetIndex) -> None:
    """An index trimmed to nothing has an empty file, answers lookups, and can be given room again."""
    idx.trim_to_valid_size()
    assert idx.file.stat().st_size == 0
    assert idx.lookup(BASE_OFFSET + 1) == OffsetPosition(BASE_OFFSET, 0)
    idx.resize(80)
    idx.append(BASE_OFFSET + 2, 100)
    assert idx.lookup(BASE_OFFSET + 9) == OffsetPosition(BASE_OFFSET + 2, 100)


def test_force_unmap_then_delete(idx: OffsetIndex) -> None:
    """After close_handler the mapping is gone, and delete_if_exists removes the file once."""
    _append_entries(idx, 3)
    idx.close_handler()
    assert idx.delete_if_exists()
    assert not idx.file.exists()
    assert not idx.delete_if_exists()


def test_rename(idx: OffsetIndex, tmp_path: Path) -> None:
    """rename_to moves the file and the index follows it."""
    _append_entries(idx, 3)
    target = tmp_path / "00000000000000000045.index.deleted"
    idx.rename_to(target)
    assert idx.file == target
    assert target.exists()
    assert idx.lookup(BASE_OFFSET + 2) == OffsetPosition(BASE_OFFSET + 2, 2)


def test_sanity_last_offset_equal_to_base_offset(tmp_path: Path) -> None:
    """An index whose only entry is at the base offset passes the sanity check."""
    idx = OffsetIndex(tmp_path / "0.index", 20, max_index_size=80)
    try:
        idx.append(20, 5)
        idx.sanity_check()
        assert idx.last_offset == 20
    finally:
        idx.close_handler()


def test_sanity_check_detects_bad_length(tmp_path: Path) -> None:
    """A pre-existing index whose length is not a multiple of 8 fails the sanity check with CorruptIndexException."""
    path = tmp_path / "00000000000000000000.index"
    path.write_bytes(struct.pack(">ii", 1, 0) + b"\x00\x00\x00")
    idx = OffsetIndex(path, 0, max_index_size=80)
    try:
        assert idx.entries == 1
        with pytest.raises(CorruptIndexException, match="neither positive nor a multiple of 8"):
            idx.sanity_check()
    finally:
        idx.close_handler()


def test_sanity_check_detects_last_offset_below_base(tmp_path: Path) -> None:
    """A pre-existing index whose last relative offset is negative fails the sanity check."""
    path = tmp_path / "00000000000000000100.index"
    path.write_bytes(struct.pack(">iiii", 1, 0, -5, 10))
    idx = OffsetIndex(path, 100, max_index_size=80)
    try:
        with pytest.raises(CorruptIndexException, match="less than the base offset 100"):
            idx.sanity_check()
    finally:
        idx.close_handler()


def test_read_only_index_does_not_change_the_file(tmp_path: Path) -> None:
    """A non-writable index reads an existing file without modifying it."""
    path = tmp_path / "00000000000000000000.index"
    content = struct.pack(">iiii", 1, 0, 5, 100)
    path.write_bytes(content)
    idx = OffsetIndex(path, 0, writable=False)
    try:
        assert idx.lookup(6) == OffsetPosition(5, 100)
        assert idx.entries == 2
    finally:
        idx.close_handler()
    assert path.read_bytes() == content


def test_lookups_stay_correct_while_another_thread_resizes(tmp_path: Path) -> None:
    """Lookups on one thread keep returning the right entries while another thread trims and regrows the mapping."""
    idx = OffsetIndex(tmp_path / "0.index", 0, max_index_size=4096 * 8)
    try:
        for i in range(1, 2001):
            idx.append(i * 3, i * 100)
        errors: list[BaseException] = []
        done = threading.Event()

        def resizer() -> None:
            try:
                for _ in range(300):
                    idx.trim_to_valid_size()
                    idx.resize(4096 * 8)
            except BaseException as e:
                errors.append(e)
            finally:
                done.set()

        t = threading.Thread(target=resizer, name="index-resizer")
        t.start()
        checked = 0
        while not done.is_set() or checked == 0:
            target = 3 * (checked % 2000 + 1) + 1
            assert idx.lookup(target) == OffsetPosition(target - 1, (target - 1) // 3 * 100)
            checked += 1
        t.join(timeout=10)
        assert not t.is_alive()
        assert errors == []
        assert idx.entries == 2000
    finally:
        idx.close_handler()
