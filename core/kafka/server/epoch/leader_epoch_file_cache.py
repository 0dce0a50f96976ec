"""Port of core/src/main/scala/kafka/server/epoch/LeaderEpochFileCache.scala (Kafka 2.8).

A partition replica's record of leader epochs: for each epoch, the first offset written in it,
persisted in the `leader-epoch-checkpoint` file at every change. Followers ask the leader for the end
offset of their latest epoch (OffsetsForLeaderEpoch) to find where their log diverges, and the
leader answers from this cache. Entries are kept increasing in both epoch and start offset.

Locking: one read/write lock; `flush` (the checkpoint write) runs under the write lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sortedcontainers import SortedDict

from kafka.common.requests.offsets_for_leader_epoch_response import UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
from kafka.common.topic_partition import TopicPartition
from kafka.utils.logging import Logging
from kafka.utils.read_write_lock import ReentrantReadWriteLock

if TYPE_CHECKING:
    from kafka.server.checkpoints.leader_epoch_checkpoint_file import LeaderEpochCheckpoint


@dataclass(frozen=True, slots=True)
class EpochEntry:
    """A leader epoch and the first offset written in it."""

    epoch: int
    start_offset: int

    def __str__(self) -> str:
        return f"EpochEntry(epoch={self.epoch}, startOffset={self.start_offset})"


def _seq(entries: list[EpochEntry]) -> str:
    """How Scala prints a buffer of entries."""
    return "ListBuffer(" + ", ".join(str(e) for e in entries) + ")"


class LeaderEpochFileCache(Logging):
    """The leader epochs of `topic_partition`, kept in `checkpoint`.

    `log_end_offset` gives the log end offset, the end of the latest epoch.
    """

    def __init__(
        self, topic_partition: TopicPartition, log_end_offset: Callable[[], int], checkpoint: LeaderEpochCheckpoint
    ) -> None:
        self.topic_partition = topic_partition
        self._log_end_offset = log_end_offset
        self.checkpoint = checkpoint
        self.log_ident = f"[LeaderEpochCache {topic_partition}] "
        self._lock = ReentrantReadWriteLock()
        # epoch -> EpochEntry, sorted by epoch (Kafka's TreeMap).
        self._epochs: SortedDict = SortedDict()
        # PORT: the entry of the largest epoch, kept beside the map by every change (under the write lock) and read
        # without the lock: one attribute read is a consistent snapshot, as a read under the lock is. A leader asks
        # for its latest epoch's end offset on every follower fetch, and a follower for its latest epoch on every
        # fetch it builds and every batch it appends; the lock and SortedDict.peekitem cost more than the answer.
        self._latest: EpochEntry | None = None
        with self._lock.write():
            for entry in checkpoint.read():
                self._assign(entry)

    def assign(self, epoch: int, start_offset: int) -> None:
        """Record that `epoch` starts at `start_offset`, dropping entries that contradict it, and flush.

        ValueError (Java: IllegalArgumentException) for a negative epoch or offset.
        """
        # The common case, every batch a follower or leader appends in the current epoch: nothing to update. Checked
        # as _assign checks first, before an entry and its closure are made.
        if epoch >= 0 and start_offset >= 0:
            last_entry = self._latest
            if last_entry is not None and last_entry.epoch == epoch and start_offset >= last_entry.start_offset:
                return
        entry = EpochEntry(epoch, start_offset)
        if self._assign(entry):
            self.debug(f"Appended new epoch entry {entry}. Cache now contains {len(self._epochs)} entries.")
            self._flush()

    def _assign(self, entry: EpochEntry) -> bool:
        if entry.epoch < 0 or entry.start_offset < 0:
            raise ValueError(f"Received invalid partition leader epoch entry {entry}")

        def is_update_needed() -> bool:
            last_entry = self.latest_entry()
            if last_entry is None:
                return True
            return entry.epoch != last_entry.epoch or entry.start_offset < last_entry.start_offset

        # Checked first without the write lock, so that the common case (same epoch) does not block readers.
        if not is_update_needed():
            return False
        with self._lock.write():
            if is_update_needed():
                self._maybe_truncate_non_monotonic_entries(entry)
                self._epochs[entry.epoch] = entry
                self._latest = entry  # the largest epoch now: the entries above it were removed
                return True
            return False

    def _maybe_truncate_non_monotonic_entries(self, new_entry: EpochEntry) -> None:
        """Drop the entries at the end whose epoch or start offset is not below the new entry's."""
        removed_epochs = self._remove_from_end(
            lambda entry: entry.epoch >= new_entry.epoch or entry.start_offset >= new_entry.start_offset
        )
        # Removing one entry with the same start offset only means no data was written in that epoch.
        if len(removed_epochs) > 1 or (removed_epochs and removed_epochs[0].start_offset != new_entry.start_offset):
            self.warn(
                f"New epoch entry {new_entry} caused truncation of conflicting entries {_seq(removed_epochs)}. "
                f"Cache now contains {len(self._epochs)} entries."
            )

    def _remove_from_end(self, predicate: Callable[[EpochEntry], bool]) -> list[EpochEntry]:
        return self._remove_while_matching(reversed(self._epochs.keys()), predicate)

    def _remove_from_start(self, predicate: Callable[[EpochEntry], bool]) -> list[EpochEntry]:
        return self._remove_while_matching(iter(self._epochs.keys()), predicate)

    def _remove_while_matching(self, keys: Iterator[int], predicate: Callable[[EpochEntry], bool]) -> list[EpochEntry]:
        removed: list[EpochEntry] = []
        for epoch in list(keys):
            entry = self._epochs[epoch]
            if not predicate(entry):
                break
            removed.append(entry)
            del self._epochs[epoch]
        if removed:
            self._latest = self._epochs.peekitem(-1)[1] if self._epochs else None
        return removed

    def non_empty(self) -> bool:
        """Whether any epoch is known."""
        with self._lock.read():
            return len(self._epochs) > 0

    def latest_entry(self) -> EpochEntry | None:
        """The entry of the largest epoch, if any."""
        return self._latest

    def latest_epoch(self) -> int | None:
        """The largest epoch with messages, if any: the current leader epoch on a leader."""
        entry = self._latest
        return None if entry is None else entry.epoch

    def previous_epoch(self) -> int | None:
        """The epoch before the latest, if any."""
        with self._lock.read():
            if len(self._epochs) < 2:
                return None
            return self._epochs.peekitem(-2)[0]

    def earliest_entry(self) -> EpochEntry | None:
        """The entry of the smallest epoch, if any."""
        with self._lock.read():
            if not self._epochs:
                return None
            return self._epochs.peekitem(0)[1]

    def end_offset_for(self, requested_epoch: int, log_end_offset: int | None = None) -> tuple[int, int]:
        """The largest epoch <= `requested_epoch` and the end offset of that epoch.

        The end offset is the start offset of the next larger epoch, or the log end offset when the
        latest epoch is requested. An undefined epoch (-1), or one above every known epoch, gives
        (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET). An epoch below every known epoch gives the
        requested epoch with the first known epoch's start offset: the older data is gone, and the
        follower should continue from the leader's start.

        # PORT: `log_end_offset` may be passed, as in Kafka 3.x's signature, by a caller that already
        holds the log end offset; otherwise the supplier given at construction is asked, as in 2.8.

        # PORT: the latest epoch, asked for on every follower fetch, is answered from the latest entry without the
        # lock (see __init__), unless the answer is logged.
        """
        latest = self._latest
        if latest is not None and latest.epoch == requested_epoch and not self.is_debug_enabled():
            return requested_epoch, self._log_end_offset() if log_end_offset is None else log_end_offset
        with self._lock.read():
            epochs = self._epochs
            if requested_epoch == UNDEFINED_EPOCH:
                # A bootstrapping follower, or data in an old format without epochs.
                epoch_and_offset = (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET)
            elif epochs and epochs.peekitem(-1)[0] == requested_epoch:
                # The current epoch ends at the log end (asked by consumers validating their position).
                leo = self._log_end_offset() if log_end_offset is None else log_end_offset
                epoch_and_offset = (requested_epoch, leo)
            else:
                higher_index = epochs.bisect_right(requested_epoch)
                if higher_index >= len(epochs):
                    # Larger than every known epoch; cannot happen while the latest epoch is the largest.
                    epoch_and_offset = (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET)
                else:
                    higher_entry: EpochEntry = epochs.peekitem(higher_index)[1]
                    if higher_index == 0:
                        epoch_and_offset = (requested_epoch, higher_entry.start_offset)
                    else:
                        floor_entry: EpochEntry = epochs.peekitem(higher_index - 1)[1]
                        epoch_and_offset = (floor_entry.epoch, higher_entry.start_offset)
            if self.is_debug_enabled():  # asked for every follower fetch: no message built unless logged
                self.debug(
                    f"Processed end offset request for epoch {requested_epoch} and returning epoch "
                    f"{epoch_and_offset[0]} with end offset {epoch_and_offset[1]} from epoch cache of size "
                    f"{len(epochs)}"
                )
            return epoch_and_offset

    def truncate_from_end(self, end_offset: int) -> None:
        """Remove the entries whose start offset is >= `end_offset`, and flush."""
        with self._lock.write():
            latest = self.latest_entry()
            if end_offset >= 0 and latest is not None and latest.start_offset >= end_offset:
                removed_entries = self._remove_from_end(lambda entry: entry.start_offset >= end_offset)
                self._flush()
                self.debug(
                    f"Cleared entries {_seq(removed_entries)} from epoch cache after truncating to end offset "
                    f"{end_offset}, leaving {len(self._epochs)} entries in the cache."
                )

    def truncate_from_start(self, start_offset: int) -> None:
        """Drop the entries wholly before `start_offset`; the last epoch starting at or before it now
        starts at `start_offset` (so truncate_from_start(6) keeps an entry at offset 6). Flushes if anything changed."""
        with self._lock.write():
            removed_entries = self._remove_from_start(lambda entry: entry.start_offset <= start_offset)
            if removed_entries:
                first_before_start_offset = removed_entries[-1]
                updated_first_entry = EpochEntry(first_before_start_offset.epoch, start_offset)
                self._epochs[updated_first_entry.epoch] = updated_first_entry
                self._latest = self._epochs.peekitem(-1)[1]
                self._flush()
                self.debug(
                    f"Cleared entries {_seq(removed_entries)} and rewrote first entry {updated_first_entry} after "
                    f"truncating to start offset {start_offset}, leaving {len(self._epochs)} in the cache."
                )

    def clear_and_flush(self) -> None:
        """Remove every entry and write the empty checkpoint."""
        with self._lock.write():
            self._epochs.clear()
            self._latest = None
            self._flush()

    def clear(self) -> None:
        """Remove every entry without writing the checkpoint."""
        with self._lock.write():
            self._epochs.clear()
            self._latest = None

    def epoch_entries(self) -> list[EpochEntry]:
        """The entries, by increasing epoch."""
        with self._lock.read():
            return list(self._epochs.values())

    def _flush(self) -> None:
        with self._lock.write():
            self.checkpoint.write(list(self._epochs.values()))
