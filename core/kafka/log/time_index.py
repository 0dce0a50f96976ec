"""Port of core/src/main/scala/kafka/log/TimeIndex.scala (Kafka 2.8).

A sparse map from timestamps to offsets for one segment (`NNN.timeindex`). Each 12-byte entry holds,
big-endian, a timestamp (int64) and an offset relative to the segment's base offset (int32): the
largest timestamp seen in the segment before that offset. So a record with a later timestamp than
an entry's can only be at or after the entry's offset. Timestamps only grow from entry to entry; an
entry is added only when the timestamp is larger than the last one (an index of magic 0 data, which
has no timestamps, stays empty).

The last slot is kept free so that rolling or closing the segment can always write the segment's
final largest timestamp.
"""

from __future__ import annotations

import mmap
import os
import struct
from typing import Final

from kafka.common.errors import InvalidOffsetException
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.log.abstract_index import AbstractIndex, IndexSearchType
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.log.index_entry import TimestampOffset

# timestamp, relative offset
_ENTRY: Final = struct.Struct(">qi")
_LONG: Final = struct.Struct(">q")
_INT: Final = struct.Struct(">i")


class TimeIndex(AbstractIndex):
    """The time index of one segment."""

    ENTRY_SIZE: Final = 12

    def __init__(self, file: str | os.PathLike[str], base_offset: int, max_index_size: int = -1, writable: bool = True):
        super().__init__(file, base_offset, max_index_size, writable)
        self._last_entry = self._last_entry_from_index_file()
        self.debug(
            f"Loaded index file {self.file.absolute()} with maxEntries = {self.max_entries}, maxIndexSize = "
            f"{max_index_size}, entries = {self._entries}, lastOffset = {self._last_entry}, "
            f"file position = {self._position}"
        )

    @property
    def entry_size(self) -> int:
        return self.ENTRY_SIZE

    @property
    def is_full(self) -> bool:
        """Full one entry early: the last slot is kept for the entry written when the segment rolls or closes."""
        return self._entries >= self._max_entries - 1

    def _timestamp_at(self, buffer: mmap.mmap, n: int) -> int:
        return int(_LONG.unpack_from(buffer, n * 12)[0])

    def _relative_offset_at(self, buffer: mmap.mmap, n: int) -> int:
        return int(_INT.unpack_from(buffer, n * 12 + 8)[0])

    def _key_at(self, buffer: mmap.mmap, n: int) -> int:
        return int(_LONG.unpack_from(buffer, n * 12)[0])

    def _value_at(self, buffer: mmap.mmap, n: int) -> int:
        return self.base_offset + int(_INT.unpack_from(buffer, n * 12 + 8)[0])

    @property
    def last_entry(self) -> TimestampOffset:
        """The last entry written, or (NO_TIMESTAMP, base offset) when there is none."""
        return self._last_entry

    def _last_entry_from_index_file(self) -> TimestampOffset:
        with self._lock:
            if self._entries == 0 or self._mmap is None:
                return TimestampOffset(NO_TIMESTAMP, self.base_offset)
            return self.parse_entry(self._mmap, self._entries - 1)

    def entry(self, n: int) -> TimestampOffset:
        """The entry in slot `n`; ValueError when `n` is not below the number of entries."""
        with self._lock:
            if n >= self._entries or n < 0 or self._mmap is None:
                raise ValueError(
                    f"Attempt to fetch the {n}th entry from  time index {self.file.absolute()} "
                    f"which has size {self._entries}."
                )
            return self.parse_entry(self._mmap, n)

    def parse_entry(self, buffer: mmap.mmap, n: int) -> TimestampOffset:
        timestamp, relative = _ENTRY.unpack_from(buffer, n * 12)
        return TimestampOffset(timestamp, self.base_offset + relative)

    def maybe_append(self, timestamp: int, offset: int, skip_full_check: bool = False) -> None:
        """Add (timestamp, offset) if the timestamp is larger than the last entry's.

        An offset below the last entry's raises InvalidOffsetException; a timestamp below it raises
        IllegalStateException (RuntimeError). Repeating the last entry, as happens when a segment is
        rolled and then closed, is a no-op. `skip_full_check` lets the roll or close use the slot kept free.
        """
        with self._lock:
            if not skip_full_check and self.is_full:
                raise ValueError(
                    f"requirement failed: Attempt to append to a full time index (size = {self._entries})."
                )
            last = self._last_entry
            if self._entries != 0 and offset < last.offset:
                raise InvalidOffsetException(
                    f"Attempt to append an offset ({offset}) to slot {self._entries} no larger than the last offset "
                    f"appended ({last.offset}) to {self.file.absolute()}."
                )
            if self._entries != 0 and timestamp < last.timestamp:
                raise RuntimeError(
                    f"Attempt to append a timestamp ({timestamp}) to slot {self._entries} no larger than the last "
                    f"timestamp appended ({last.timestamp}) to {self.file.absolute()}."
                )
            if timestamp > last.timestamp:
                if self._mmap is None or self._position + 12 > self._length:
                    raise ValueError(
                        f"requirement failed: Attempt to append to a full time index (size = {self._entries})."
                    )
                self.trace(f"Adding index entry {timestamp} => {offset} to {self.file.absolute()}.")
                _ENTRY.pack_into(self._mmap, self._position, timestamp, self.relative_offset(offset))
                self._position += 12
                self._entries += 1
                self._last_entry = TimestampOffset(timestamp, offset)

    def lookup(self, target_timestamp: int) -> TimestampOffset:
        """The entry with the largest timestamp <= `target_timestamp`; (NO_TIMESTAMP, base offset) if none."""
        with self._lock:
            idx = self._mmap
            slot = self.largest_lower_bound_slot_for(idx, target_timestamp, IndexSearchType.KEY)
            if slot == -1 or idx is None:
                return TimestampOffset(NO_TIMESTAMP, self.base_offset)
            return self.parse_entry(idx, slot)

    def truncate(self) -> None:
        self._truncate_to_entries(0)

    def truncate_to(self, offset: int) -> None:
        """Remove the entries whose offset is >= `offset`."""
        with self._lock:
            idx = self._mmap
            slot = self.largest_lower_bound_slot_for(idx, offset, IndexSearchType.VALUE)
            if slot < 0 or idx is None:
                new_entries = 0
            elif self._relative_offset_at(idx, slot) == offset - self.base_offset:
                new_entries = slot
            else:
                new_entries = slot + 1
            self._truncate_to_entries(new_entries)

    def resize(self, new_size: int) -> bool:
        with self._lock:
            if super().resize(new_size):
                self._last_entry = self._last_entry_from_index_file()
                return True
            return False

    def _truncate_to_entries(self, entries: int) -> None:
        with self._lock:
            self._entries = entries
            self._position = entries * 12
            self._last_entry = self._last_entry_from_index_file()
            self.debug(
                f"Truncated index {self.file.absolute()} to {entries} entries; position is now {self._position} and "
                f"last entry is now {self._last_entry}"
            )

    def sanity_check(self) -> None:
        with self._lock:
            last_timestamp = self._last_entry.timestamp
            last_offset = self._last_entry.offset
            if self._entries != 0 and self._mmap is not None:
                first_timestamp = self._timestamp_at(self._mmap, 0)
                if last_timestamp < first_timestamp:
                    raise CorruptIndexException(
                        f"Corrupt time index found, time index file ({self.file.absolute()}) has non-zero size but "
                        f"the last timestamp is {last_timestamp} which is less than the first timestamp "
                        f"{first_timestamp}"
                    )
            if self._entries != 0 and last_offset < self.base_offset:
                raise CorruptIndexException(
                    f"Corrupt time index found, time index file ({self.file.absolute()}) has non-zero size but the "
                    f"last offset is {last_offset} which is less than the first offset {self.base_offset}"
                )
            if self.length % 12 != 0:
                raise CorruptIndexException(
                    f"Time index file {self.file.absolute()} is corrupt, found {self.length} bytes which is neither "
                    f"positive nor a multiple of 12."
                )
