"""Port of core/src/main/scala/kafka/log/TransactionIndex.scala (Kafka 2.8).

The aborted transactions whose ABORT markers were written to a segment (`NNN.txnindex`). A
READ_COMMITTED fetch asks it which aborted transactions overlap the fetched range, so that the
consumer can drop their records. Each 34-byte entry holds, big-endian: version (int16, 0),
producer id (int64), first offset (int64), last offset (int64, the ABORT marker's offset) and the
last stable offset at the time of the abort (int64). Unlike the offset and time indexes the file
is not preallocated, and is only created when the first entry is written.

Not thread-safe for writers (the log's lock serialises them); reads use positional I/O.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from kafka.common.errors import KafkaException
from kafka.common.utils.utils import atomic_move_with_fallback
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.common.message import FetchResponseData

_ENTRY: Final = struct.Struct(">hqqqq")


class _CompletedTxnLike(Protocol):
    """What AbortedTxn needs of Log's CompletedTxn."""

    @property
    def producer_id(self) -> int: ...

    @property
    def first_offset(self) -> int: ...

    @property
    def last_offset(self) -> int: ...


class AbortedTxn:
    """One entry of a transaction index, kept as its 34 serialised bytes."""

    __slots__ = ("buffer",)

    VERSION_OFFSET: Final = 0
    VERSION_SIZE: Final = 2
    PRODUCER_ID_OFFSET: Final = VERSION_OFFSET + VERSION_SIZE
    PRODUCER_ID_SIZE: Final = 8
    FIRST_OFFSET_OFFSET: Final = PRODUCER_ID_OFFSET + PRODUCER_ID_SIZE
    FIRST_OFFSET_SIZE: Final = 8
    LAST_OFFSET_OFFSET: Final = FIRST_OFFSET_OFFSET + FIRST_OFFSET_SIZE
    LAST_OFFSET_SIZE: Final = 8
    LAST_STABLE_OFFSET_OFFSET: Final = LAST_OFFSET_OFFSET + LAST_OFFSET_SIZE
    LAST_STABLE_OFFSET_SIZE: Final = 8
    TOTAL_SIZE: Final = LAST_STABLE_OFFSET_OFFSET + LAST_STABLE_OFFSET_SIZE
    CURRENT_VERSION: Final = 0

    def __init__(self, buffer: bytes) -> None:
        if len(buffer) != AbortedTxn.TOTAL_SIZE:
            raise ValueError(f"An aborted transaction entry has {AbortedTxn.TOTAL_SIZE} bytes, got {len(buffer)}")
        self.buffer = bytes(buffer)

    @classmethod
    def of(cls, producer_id: int, first_offset: int, last_offset: int, last_stable_offset: int) -> AbortedTxn:
        """An entry of the current version from its fields."""
        return cls(_ENTRY.pack(AbortedTxn.CURRENT_VERSION, producer_id, first_offset, last_offset, last_stable_offset))

    @classmethod
    def from_completed_txn(cls, completed_txn: _CompletedTxnLike, last_stable_offset: int) -> AbortedTxn:
        """The entry for a completed (aborted) transaction."""
        return cls.of(
            completed_txn.producer_id, completed_txn.first_offset, completed_txn.last_offset, last_stable_offset
        )

    @property
    def version(self) -> int:
        """The entry version.

        # PORT: Kafka reads one byte at the version's position (the high byte of the int16); this reads
        the int16, which is the same for every version below 256.
        """
        return int(_ENTRY.unpack_from(self.buffer)[0])

    @property
    def producer_id(self) -> int:
        return int(_ENTRY.unpack_from(self.buffer)[1])

    @property
    def first_offset(self) -> int:
        return int(_ENTRY.unpack_from(self.buffer)[2])

    @property
    def last_offset(self) -> int:
        return int(_ENTRY.unpack_from(self.buffer)[3])

    @property
    def last_stable_offset(self) -> int:
        return int(_ENTRY.unpack_from(self.buffer)[4])

    def as_aborted_transaction(self) -> FetchResponseData.AbortedTransaction:
        """The (producer id, first offset) pair sent to READ_COMMITTED consumers."""
        from kafka.common.message import FetchResponseData

        return FetchResponseData.AbortedTransaction(producer_id=self.producer_id, first_offset=self.first_offset)

    def __repr__(self) -> str:
        return (
            f"AbortedTxn(version={self.version}, producerId={self.producer_id}, firstOffset={self.first_offset}, "
            f"lastOffset={self.last_offset}, lastStableOffset={self.last_stable_offset})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AbortedTxn):
            return NotImplemented
        return self.buffer == other.buffer

    def __hash__(self) -> int:
        return hash(self.buffer)


@dataclass(frozen=True, slots=True)
class TxnIndexSearchResult:
    """The aborted transactions found, and whether the search can stop at this segment."""

    aborted_transactions: list[AbortedTxn]
    is_complete: bool


class TransactionIndex(Logging):
    """The aborted-transaction index of the segment whose base offset is `start_offset`."""

    def __init__(self, start_offset: int, file: str | os.PathLike[str]) -> None:
        self.start_offset = start_offset
        self._file = Path(file)
        # The file is opened (and created) only when needed: at once if it exists, else on first append.
        self._fd: int | None = None
        # Where the next entry is written; reads stop here (Java's channel position).
        self._channel_position = 0
        self._last_offset: int | None = None
        if self._file.exists():
            self._open_channel()

    def append(self, aborted_txn: AbortedTxn) -> None:
        """Write an entry; its last offset must be larger than the previous entry's."""
        if self._last_offset is not None and self._last_offset >= aborted_txn.last_offset:
            raise ValueError(
                f"The last offset of appended transactions must increase sequentially, but "
                f"{aborted_txn.last_offset} is not greater than current last offset {self._last_offset} of index "
                f"{self._file.absolute()}"
            )
        self._last_offset = aborted_txn.last_offset
        fd = self._channel()
        data = aborted_txn.buffer
        written = 0
        while written < len(data):
            written += os.pwrite(fd, data[written:], self._channel_position + written)
        self._channel_position += written

    def flush(self) -> None:
        """Force the entries to disk."""
        if self._fd is not None:
            os.fsync(self._fd)

    @property
    def file(self) -> Path:
        return self._file

    def update_parent_dir(self, parent_dir: str | os.PathLike[str]) -> None:
        self._file = Path(parent_dir) / self._file.name

    def delete_if_exists(self) -> bool:
        """Close and delete the file; True if this call deleted it."""
        self.close()
        try:
            self._file.unlink()
        except FileNotFoundError:
            return False
        return True

    def _channel(self) -> int:
        if self._fd is None:
            return self._open_channel()
        return self._fd

    def _open_channel(self) -> int:
        fd = os.open(self._file, os.O_CREAT | os.O_RDWR | getattr(os, "O_CLOEXEC", 0), 0o644)
        self._fd = fd
        self._channel_position = os.fstat(fd).st_size
        return fd

    def reset(self) -> None:
        """Remove every entry (the file is kept, empty)."""
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            self._channel_position = 0
        self._last_offset = None

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def rename_to(self, f: str | os.PathLike[str]) -> None:
        """Rename the file if it exists; the new name is kept either way."""
        try:
            if self._file.exists():
                atomic_move_with_fallback(self._file, f)
        finally:
            self._file = Path(f)

    def truncate_to(self, offset: int) -> None:
        """Remove the entries whose last offset is >= `offset`."""
        new_last_offset: int | None = None
        for aborted_txn, position in self._iterator():
            if aborted_txn.last_offset >= offset:
                os.ftruncate(self._channel(), position)
                self._channel_position = min(self._channel_position, position)
                self._last_offset = new_last_offset
                return
            new_last_offset = aborted_txn.last_offset

    def _iterator(self) -> Iterator[tuple[AbortedTxn, int]]:
        """The entries with their byte positions, read up to the write position."""
        fd = self._fd
        if fd is None:
            return
        position = 0
        while self._channel_position - position >= AbortedTxn.TOTAL_SIZE:
            try:
                data = os.pread(fd, AbortedTxn.TOTAL_SIZE, position)
            except OSError as e:
                # Reported to the fetching client as an UNKNOWN error, which makes it retry.
                raise KafkaException(f"Failed to read from the transaction index {self._file.absolute()}") from e
            if len(data) < AbortedTxn.TOTAL_SIZE:
                raise KafkaException(
                    f"Failed to read from the transaction index {self._file.absolute()}: expected "
                    f"{AbortedTxn.TOTAL_SIZE} bytes at position {position}, found {len(data)}"
                )
            aborted_txn = AbortedTxn(data)
            if aborted_txn.version > AbortedTxn.CURRENT_VERSION:
                raise KafkaException(
                    f"Unexpected aborted transaction version {aborted_txn.version} in transaction index "
                    f"{self._file.absolute()}, current version is {AbortedTxn.CURRENT_VERSION}"
                )
            yield aborted_txn, position
            position += AbortedTxn.TOTAL_SIZE

    def all_aborted_txns(self) -> list[AbortedTxn]:
        """Every entry of the index."""
        return [aborted_txn for aborted_txn, _ in self._iterator()]

    def collect_aborted_txns(self, fetch_offset: int, upper_bound_offset: int) -> TxnIndexSearchResult:
        """The aborted transactions overlapping offsets [fetch_offset, upper_bound_offset).

        The result is complete (no later segment needs searching) once an entry's last stable offset
        reaches the upper bound: any transaction aborted later started after the fetched range.
        """
        aborted_transactions: list[AbortedTxn] = []
        for aborted_txn, _ in self._iterator():
            if aborted_txn.last_offset >= fetch_offset and aborted_txn.first_offset < upper_bound_offset:
                aborted_transactions.append(aborted_txn)
            if aborted_txn.last_stable_offset >= upper_bound_offset:
                return TxnIndexSearchResult(aborted_transactions, is_complete=True)
        return TxnIndexSearchResult(aborted_transactions, is_complete=False)

    def sanity_check(self) -> None:
        """Raise CorruptIndexException when an entry ends before this segment starts."""
        for aborted_txn, _ in self._iterator():
            if aborted_txn.last_offset < self.start_offset:
                raise CorruptIndexException(
                    f"Last offset of aborted transaction {aborted_txn} in index {self._file.absolute()} is less "
                    f"than start offset {self.start_offset}"
                )
