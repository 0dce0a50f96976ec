"""Port of core/src/main/scala/kafka/log/AbstractIndex.scala (Kafka 2.8).

What the offset index and the time index have in common: a file of fixed-size entries, memory
mapped, preallocated to `max_index_size` (rounded down to whole entries) while its segment is
active and trimmed to the entries written when the segment is closed or rolled.

Lookups use a binary search that first tries the last 8192 bytes of entries (the "warm"
section). Nearly every lookup, from followers and consumers that keep up, lands there, so the
pages touched by a lookup stay the same few recently used pages instead of wandering over the
whole file the way a plain binary search over all entries would.

Also IndexOffsetOverflowException, which Kafka keeps in kafka.common (core).

Locking: one RLock per index guards the mapping, the entry count and the write position. Callers
that hold a segment-level lock take it first (LogSegment's caller lock, then the index lock).
"""

from __future__ import annotations

import mmap
import os
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from kafka.common.errors import KafkaException
from kafka.common.utils.utils import atomic_move_with_fallback
from kafka.log.index_entry import IndexEntry
from kafka.utils.logging import Logging

INT32_MAX = 2**31 - 1

# The warm section is this many bytes of entries at the end of the index.
_WARM_SECTION_BYTES = 8192


class IndexOffsetOverflowException(KafkaException):
    """An offset too far from an index's base offset to be stored as a 4-byte relative offset.

    # PORT: Kafka keeps this in core's kafka.common package; here `kafka.common` is the clients
    package, so the class lives with the index that raises it.
    """


class IndexSearchType(ABC):
    """Which field of an entry a search compares: the key (offset / timestamp) or the value."""

    __slots__ = ()

    KEY: ClassVar[IndexSearchType]
    VALUE: ClassVar[IndexSearchType]


@dataclass(frozen=True, slots=True)
class IndexSearchKey(IndexSearchType):
    """Search on the entries' keys."""


@dataclass(frozen=True, slots=True)
class IndexSearchValue(IndexSearchType):
    """Search on the entries' values."""


IndexSearchType.KEY = IndexSearchKey()
IndexSearchType.VALUE = IndexSearchValue()


def _round_down_to_exact_multiple(number: int, factor: int) -> int:
    """The largest multiple of `factor` not beyond `number`, truncating towards zero as Java's `/` does."""
    return factor * int(number / factor) if number < 0 else factor * (number // factor)


class AbstractIndex(Logging, ABC):
    """A memory-mapped file of fixed-size entries, sorted by key, for one log segment.

    # PORT: reads (lookups, entry(n)) hold the index lock. Kafka reads lock-free on Linux from a
    duplicate of the mapped buffer, which the JVM keeps valid until it is garbage collected. Python's
    mmap is closed here as soon as a resize replaces it (as Kafka's forceUnmap does), and a reader
    still using the old mapping would fail; holding the lock for the few microseconds of a lookup
    keeps every reader on the current mapping.
    """

    def __init__(self, file: str | os.PathLike[str], base_offset: int, max_index_size: int = -1, writable: bool = True):
        self._file = Path(file)
        self.base_offset = base_offset
        self.max_index_size = max_index_size
        self.writable = writable
        self._lock = threading.RLock()
        entry_size = self.entry_size
        self._entry_size = entry_size
        self._warm_entries = _WARM_SECTION_BYTES // entry_size

        newly_created = self._create_new_file()
        fd = os.open(self._file, (os.O_RDWR if writable else os.O_RDONLY) | getattr(os, "O_CLOEXEC", 0))
        try:
            if newly_created:
                if max_index_size < entry_size:
                    raise ValueError(f"Invalid max index size: {max_index_size}")
                os.ftruncate(fd, _round_down_to_exact_multiple(max_index_size, entry_size))
            self._length = os.fstat(fd).st_size
            self._mmap: mmap.mmap | None = self._map(fd, self._length, writable)
        finally:
            os.close(fd)
        # Where the next entry goes: at 0 for a new file, else after the last whole entry of the
        # existing file, which is taken to be valid (the sanity check and recovery decide otherwise).
        self._position = 0 if newly_created else _round_down_to_exact_multiple(self._length, entry_size)
        self._max_entries = self._length // entry_size
        self._entries = self._position // entry_size

    @property
    @abstractmethod
    def entry_size(self) -> int:
        """The number of bytes of one entry."""

    # ---- file and mapping ------------------------------------------------------------------------

    def _create_new_file(self) -> bool:
        """Create the file if it is missing; True when this call created it."""
        try:
            fd = os.open(self._file, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o644)
        except FileExistsError:
            return False
        os.close(fd)
        return True

    @staticmethod
    def _map(fd: int, length: int, writable: bool) -> mmap.mmap | None:
        """Map `length` bytes of `fd`; None for an empty file.

        # PORT: Java maps empty files; Python's mmap refuses length 0, so an index with no room
        (length 0) has no mapping, and has no entries to read either.
        """
        if length == 0:
            return None
        return mmap.mmap(fd, length, access=mmap.ACCESS_WRITE if writable else mmap.ACCESS_READ)

    @property
    def is_full(self) -> bool:
        """True when no slot is left for another entry."""
        return self._entries >= self._max_entries

    @property
    def file(self) -> Path:
        """The index file."""
        return self._file

    @property
    def max_entries(self) -> int:
        """How many entries fit in the file at its current length."""
        return self._max_entries

    @property
    def entries(self) -> int:
        """How many entries have been written."""
        return self._entries

    @property
    def length(self) -> int:
        """The length of the file in bytes."""
        return self._length

    def update_parent_dir(self, parent_dir: str | os.PathLike[str]) -> None:
        """Point at the same file name in `parent_dir` (after the directory was renamed)."""
        self._file = Path(parent_dir) / self._file.name

    def resize(self, new_size: int) -> bool:
        """Set the file and mapping length to `new_size` rounded down to whole entries.

        Used to trim an index to its entries when its segment stops being active, and to give it its
        full room again when a segment becomes active (after loading or truncation). Returns whether
        the length changed.
        """
        with self._lock:
            rounded_new_size = _round_down_to_exact_multiple(new_size, self._entry_size)
            if self._length == rounded_new_size:
                self.debug(
                    f"Index {self._file.absolute()} was not resized because it already has size {rounded_new_size}"
                )
                return False
            fd = os.open(self._file, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
            try:
                position = self._position
                # PORT: Kafka unmaps first only on Windows and z/OS; here the old mapping is always
                # dropped before the file changes length, so no mapping ever extends past the end of
                # the file (touching such pages would raise SIGBUS).
                self._safe_force_unmap()
                os.ftruncate(fd, rounded_new_size)
                self._length = rounded_new_size
                self._mmap = self._map(fd, rounded_new_size, True)
                self._max_entries = rounded_new_size // self._entry_size
                if position > rounded_new_size:
                    raise ValueError(f"Index position {position} is beyond the new size {rounded_new_size}")
                self._position = position
                self.debug(
                    f"Resized {self._file.absolute()} to {rounded_new_size}, position is {self._position} "
                    f"and limit is {rounded_new_size}"
                )
                return True
            finally:
                os.close(fd)

    def rename_to(self, f: str | os.PathLike[str]) -> None:
        """Rename the index file; the new name is kept even when the rename fails."""
        try:
            atomic_move_with_fallback(self._file, f)
        finally:
            self._file = Path(f)

    def flush(self) -> None:
        """Write the mapped pages to disk."""
        with self._lock:
            if self._mmap is not None:
                self._mmap.flush()

    def delete_if_exists(self) -> bool:
        """Unmap and delete the file; True if this call deleted it, False if it did not exist."""
        self.close_handler()
        try:
            self._file.unlink()
        except FileNotFoundError:
            return False
        return True

    def trim_to_valid_size(self) -> None:
        """Cut the file down to the entries written, dropping the preallocated tail."""
        with self._lock:
            self.resize(self._entry_size * self._entries)

    @property
    def size_in_bytes(self) -> int:
        """The bytes taken by the entries written."""
        return self._entry_size * self._entries

    def close(self) -> None:
        """Trim the file to its entries and unmap it."""
        self.trim_to_valid_size()
        self.close_handler()

    def close_handler(self) -> None:
        """Unmap the file without trimming it (used when the disk may have failed, and by read-only tools)."""
        with self._lock:
            self._safe_force_unmap()

    @abstractmethod
    def sanity_check(self) -> None:
        """Raise CorruptIndexException when the index is obviously broken."""

    @abstractmethod
    def truncate(self) -> None:
        """Remove every entry."""

    @abstractmethod
    def truncate_to(self, offset: int) -> None:
        """Remove the entries whose offset is >= `offset`; an offset past the last entry changes nothing."""

    def reset(self) -> None:
        """Remove every entry and give the file its full preallocated length again."""
        with self._lock:
            self.truncate()
            self.resize(self.max_index_size)

    def relative_offset(self, offset: int) -> int:
        """`offset` minus the base offset, as stored in an entry; IndexOffsetOverflowException if it does not fit."""
        relative = offset - self.base_offset
        if relative < 0 or relative > INT32_MAX:
            raise IndexOffsetOverflowException(f"Integer overflow for offset: {offset} ({self._file.absolute()})")
        return relative

    def can_append_offset(self, offset: int) -> bool:
        """Whether `offset` can be stored relative to the base offset of this index."""
        relative = offset - self.base_offset
        return 0 <= relative <= INT32_MAX

    def _safe_force_unmap(self) -> None:
        if self._mmap is not None:
            try:
                self._force_unmap()
            except (OSError, ValueError, BufferError) as e:
                self.error(f"Error unmapping index {self._file}", e)

    def _force_unmap(self) -> None:
        """Release the mapping now instead of waiting for garbage collection."""
        m = self._mmap
        # Cleared first so that nothing can reach a closed mapping even if close() fails.
        self._mmap = None
        if m is not None:
            m.close()

    # ---- entries and search ----------------------------------------------------------------------

    @abstractmethod
    def parse_entry(self, buffer: mmap.mmap, n: int) -> IndexEntry:
        """The entry in slot `n` of `buffer`."""

    @abstractmethod
    def _key_at(self, buffer: mmap.mmap, n: int) -> int:
        """The key of slot `n` (what `parse_entry(buffer, n).index_key` gives, without building the entry).

        # PORT: Kafka's search builds an entry object per probe; reading the one field compared keeps
        the search to a struct read per probe.
        """

    @abstractmethod
    def _value_at(self, buffer: mmap.mmap, n: int) -> int:
        """The value of slot `n` (what `parse_entry(buffer, n).index_value` gives)."""

    def largest_lower_bound_slot_for(self, idx: mmap.mmap | None, target: int, search_entity: IndexSearchType) -> int:
        """The slot of the largest entry <= `target`, or -1 when the index is empty or all entries are larger."""
        return self._index_slot_range_for(idx, target, search_entity)[0]

    def smallest_upper_bound_slot_for(self, idx: mmap.mmap | None, target: int, search_entity: IndexSearchType) -> int:
        """The slot of the smallest entry >= `target`, or -1 when there is none."""
        return self._index_slot_range_for(idx, target, search_entity)[1]

    def _index_slot_range_for(
        self, idx: mmap.mmap | None, target: int, search_entity: IndexSearchType
    ) -> tuple[int, int]:
        """The slots of the largest entry <= target and of the smallest entry >= target (-1 where none)."""
        entries = self._entries
        if entries == 0 or idx is None:
            return -1, -1
        read = self._key_at if search_entity is IndexSearchType.KEY else self._value_at

        def binary_search(begin: int, end: int) -> tuple[int, int]:
            lo = begin
            hi = end
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                found = read(idx, mid)
                if found > target:
                    hi = mid - 1
                elif found < target:
                    lo = mid
                else:
                    return mid, mid
            return lo, (-1 if lo == entries - 1 else lo + 1)

        first_hot_entry = max(0, entries - 1 - self._warm_entries)
        # Most lookups are for recent offsets: search only the warm section when the target is in it.
        if read(idx, first_hot_entry) < target:
            return binary_search(first_hot_entry, entries - 1)
        if read(idx, 0) > target:
            return -1, 0
        return binary_search(0, first_hot_entry)
