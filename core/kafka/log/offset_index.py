"""Port of core/src/main/scala/kafka/log/OffsetIndex.scala (Kafka 2.8).

A sparse map from offsets to byte positions in a segment's `.log` file. Each 8-byte entry holds,
big-endian, the offset minus the segment's base offset (int32) and the position of the batch
holding that offset (int32). A lookup returns the entry with the largest offset not above the
target; the reader then scans the log forward from that position. Entries are added by the segment
every `index.interval.bytes` of appended data; nothing is checksummed, and a damaged index is
rebuilt from the log.
"""

from __future__ import annotations

import mmap
import os
import struct
from typing import Final

from kafka.common.errors import InvalidOffsetException
from kafka.log.abstract_index import AbstractIndex, IndexSearchType
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.log.index_entry import OffsetPosition

# relative offset, physical position
_ENTRY: Final = struct.Struct(">ii")
_INT: Final = struct.Struct(">i")


class OffsetIndex(AbstractIndex):
    """The offset index of one segment (`NNN.index`)."""

    ENTRY_SIZE: Final = 8

    def __init__(self, file: str | os.PathLike[str], base_offset: int, max_index_size: int = -1, writable: bool = True):
        super().__init__(file, base_offset, max_index_size, writable)
        self._last_offset = self._last_entry().offset
        self.debug(
            f"Loaded index file {self.file.absolute()} with maxEntries = {self.max_entries}, "
            f"maxIndexSize = {max_index_size}, entries = {self._entries}, lastOffset = {self._last_offset}, "
            f"file position = {self._position}"
        )

    @property
    def entry_size(self) -> int:
        return self.ENTRY_SIZE

    def _last_entry(self) -> OffsetPosition:
        """The last entry written, or (base offset, 0) when there is none."""
        with self._lock:
            if self._entries == 0 or self._mmap is None:
                return OffsetPosition(self.base_offset, 0)
            return self.parse_entry(self._mmap, self._entries - 1)

    @property
    def last_offset(self) -> int:
        """The offset of the last entry (the base offset when there is none)."""
        return self._last_offset

    def _tail_slot(self, idx: mmap.mmap, entries: int, target_offset: int) -> int:
        """The slot of the largest entry <= `target_offset` when it is one of the last two, else -1.

        # PORT: Kafka's lookups always binary-search; a fetch at or near the log end (a follower's parked fetch
        # completing at the first offset of the newest batch, whose entry holds that batch's last offset; a
        # consumer keeping up) finds its entry among the last two, compared here first. Same result.
        """
        if target_offset >= self._last_offset:
            return entries - 1
        if entries > 1 and target_offset >= self._key_at(idx, entries - 2):
            return entries - 2
        return -1

    def lookup(self, target_offset: int) -> OffsetPosition:
        """The entry with the largest offset <= `target_offset`; (base offset, 0) when there is none."""
        with self._lock:
            idx = self._mmap
            if idx is None:
                return OffsetPosition(self.base_offset, 0)
            entries = self._entries
            slot = self._tail_slot(idx, entries, target_offset) if entries else -1
            if slot == -1:
                slot = self.largest_lower_bound_slot_for(idx, target_offset, IndexSearchType.KEY)
            if slot == -1:
                return OffsetPosition(self.base_offset, 0)
            return self.parse_entry(idx, slot)

    def lookup_with_next_position(self, target_offset: int) -> tuple[OffsetPosition, int]:
        """lookup(target_offset), with the position of the next entry when the entry found is below the target
        (-1 when it is the target's own entry or the last one)."""
        with self._lock:
            idx = self._mmap
            if idx is None:
                return OffsetPosition(self.base_offset, 0), -1
            entries = self._entries
            slot = self._tail_slot(idx, entries, target_offset) if entries else -1
            if slot == -1:
                slot = self.largest_lower_bound_slot_for(idx, target_offset, IndexSearchType.KEY)
            entry = OffsetPosition(self.base_offset, 0) if slot == -1 else self.parse_entry(idx, slot)
            if entry.offset < target_offset and slot + 1 < entries:
                return entry, self._value_at(idx, slot + 1)
            return entry, -1

    def fetch_upper_bound_offset(self, fetch_offset: OffsetPosition, fetch_size: int) -> OffsetPosition | None:
        """An entry whose position is at or past the end of a fetch of `fetch_size` bytes from `fetch_offset`.

        Its offset is certainly outside the fetched bytes, though not necessarily the first such offset.
        """
        with self._lock:
            idx = self._mmap
            slot = self.smallest_upper_bound_slot_for(idx, fetch_offset.position + fetch_size, IndexSearchType.VALUE)
            if slot == -1 or idx is None:
                return None
            return self.parse_entry(idx, slot)

    def _relative_offset_at(self, buffer: mmap.mmap, n: int) -> int:
        return int(_INT.unpack_from(buffer, n * 8)[0])

    def _key_at(self, buffer: mmap.mmap, n: int) -> int:
        return self.base_offset + int(_INT.unpack_from(buffer, n * 8)[0])

    def _value_at(self, buffer: mmap.mmap, n: int) -> int:
        return int(_INT.unpack_from(buffer, n * 8 + 4)[0])

    def parse_entry(self, buffer: mmap.mmap, n: int) -> OffsetPosition:
        relative, position = _ENTRY.unpack_from(buffer, n * 8)
        return OffsetPosition(self.base_offset + relative, position)

    def entry(self, n: int) -> OffsetPosition:
        """The entry in slot `n`; ValueError when `n` is not below the number of entries."""
        with self._lock:
            if n >= self._entries or n < 0 or self._mmap is None:
                raise ValueError(
                    f"Attempt to fetch the {n}th entry from index {self.file.absolute()}, "
                    f"which has size {self._entries}."
                )
            return self.parse_entry(self._mmap, n)

    def append(self, offset: int, position: int) -> None:
        """Add an entry; `offset` must be larger than every offset already in the index.

        Raises IndexOffsetOverflowException when the offset is too far from the base offset, and
        InvalidOffsetException when it is not larger than the last one.
        """
        with self._lock:
            if self.is_full or self._mmap is None:
                raise ValueError(f"requirement failed: Attempt to append to a full index (size = {self._entries}).")
            if self._entries == 0 or offset > self._last_offset:
                self.trace(f"Adding index entry {offset} => {position} to {self.file.absolute()}")
                _ENTRY.pack_into(self._mmap, self._position, self.relative_offset(offset), position)
                self._position += 8
                self._entries += 1
                self._last_offset = offset
            else:
                raise InvalidOffsetException(
                    f"Attempt to append an offset ({offset}) to position {self._entries} no larger than the last "
                    f"offset appended ({self._last_offset}) to {self.file.absolute()}."
                )

    def truncate(self) -> None:
        self._truncate_to_entries(0)

    def truncate_to(self, offset: int) -> None:
        with self._lock:
            idx = self._mmap
            slot = self.largest_lower_bound_slot_for(idx, offset, IndexSearchType.KEY)
            # No entry <= offset: drop everything. An entry for exactly this offset: drop it and all
            # after it. Otherwise keep up to the largest entry below the offset.
            if slot < 0 or idx is None:
                new_entries = 0
            elif self._relative_offset_at(idx, slot) == offset - self.base_offset:
                new_entries = slot
            else:
                new_entries = slot + 1
            self._truncate_to_entries(new_entries)

    def _truncate_to_entries(self, entries: int) -> None:
        with self._lock:
            self._entries = entries
            self._position = entries * 8
            self._last_offset = self._last_entry().offset
            self.debug(
                f"Truncated index {self.file.absolute()} to {entries} entries; position is now {self._position} "
                f"and last offset is now {self._last_offset}"
            )

    def sanity_check(self) -> None:
        if self._entries != 0 and self._last_offset < self.base_offset:
            raise CorruptIndexException(
                f"Corrupt index found, index file ({self.file.absolute()}) has non-zero size but the last offset "
                f"is {self._last_offset} which is less than the base offset {self.base_offset}."
            )
        if self.length % 8 != 0:
            raise CorruptIndexException(
                f"Index file {self.file.absolute()} is corrupt, found {self.length} bytes which is neither positive "
                f"nor a multiple of 8."
            )
