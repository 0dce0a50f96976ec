"""Tests of LeaderEpochFileCache, after Kafka's LeaderEpochFileCacheTest."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from kafka.common.topic_partition import TopicPartition
from kafka.server.checkpoints.leader_epoch_checkpoint_file import LeaderEpochCheckpoint, LeaderEpochCheckpointFile
from kafka.server.epoch.leader_epoch_file_cache import EpochEntry, LeaderEpochFileCache

TP = TopicPartition("TestTopic", 5)
UNDEFINED = (-1, -1)


class MemoryCheckpoint(LeaderEpochCheckpoint):
    def __init__(self) -> None:
        self.epochs: list[EpochEntry] = []
        self.writes = 0

    def write(self, epochs: Iterable[EpochEntry]) -> None:
        self.epochs = list(epochs)
        self.writes += 1

    def read(self) -> list[EpochEntry]:
        return self.epochs


class Leo:
    def __init__(self) -> None:
        self.value = 0

    def __call__(self) -> int:
        return self.value


@pytest.fixture
def checkpoint() -> MemoryCheckpoint:
    return MemoryCheckpoint()


@pytest.fixture
def leo() -> Leo:
    return Leo()


@pytest.fixture
def cache(checkpoint: MemoryCheckpoint, leo: Leo) -> LeaderEpochFileCache:
    return LeaderEpochFileCache(TP, leo, checkpoint)


def test_previous_epoch(cache: LeaderEpochFileCache) -> None:
    """previous_epoch is the epoch before the latest, and follows truncation."""
    assert cache.previous_epoch() is None
    cache.assign(2, 10)
    assert cache.previous_epoch() is None
    cache.assign(4, 15)
    assert cache.previous_epoch() == 2
    cache.assign(10, 20)
    assert cache.previous_epoch() == 4
    cache.truncate_from_end(18)
    assert cache.previous_epoch() == 2


def test_add_epoch_and_offset_and_flush(cache: LeaderEpochFileCache, checkpoint: MemoryCheckpoint, leo: Leo) -> None:
    """An assigned epoch becomes the latest, its end offset is the LEO, and the checkpoint is written."""
    cache.assign(2, 10)
    leo.value = 11
    assert cache.latest_epoch() == 2
    assert cache.epoch_entries() == [EpochEntry(2, 10)]
    assert cache.end_offset_for(2) == (2, leo.value)
    assert checkpoint.epochs == [EpochEntry(2, 10)]


def test_explicit_log_end_offset_wins(cache: LeaderEpochFileCache, leo: Leo) -> None:
    """A log end offset passed to end_offset_for is used instead of the supplier's."""
    cache.assign(2, 10)
    leo.value = 11
    assert cache.end_offset_for(2, 15) == (2, 15)


def test_undefined_epoch_gives_undefined(cache: LeaderEpochFileCache) -> None:
    """Asking for epoch -1 gives (-1, -1) whether or not epochs are known."""
    assert cache.end_offset_for(-1) == UNDEFINED
    cache.assign(2, 5)
    assert cache.end_offset_for(-1) == UNDEFINED


def test_no_overwrite_of_assigned_offset(cache: LeaderEpochFileCache, checkpoint: MemoryCheckpoint) -> None:
    """Re-assigning the latest epoch at a later offset changes nothing and writes nothing."""
    cache.assign(2, 6)
    writes = checkpoint.writes
    cache.assign(2, 7)
    assert cache.epoch_entries() == [EpochEntry(2, 6)]
    assert checkpoint.writes == writes


def test_monotonic_start_offsets(cache: LeaderEpochFileCache) -> None:
    """A new epoch starting before the previous one's start replaces it."""
    cache.assign(2, 1)
    cache.assign(3, 0)
    assert cache.epoch_entries() == [EpochEntry(3, 0)]


def test_truncate_if_matching_epoch_but_earlier_offset(cache: LeaderEpochFileCache) -> None:
    """The latest epoch re-assigned at an earlier offset moves back to it."""
    cache.assign(4, 11)
    cache.assign(4, 10)
    assert cache.epoch_entries() == [EpochEntry(4, 10)]


def test_empty_cache_end_offset_is_undefined(cache: LeaderEpochFileCache) -> None:
    """With no epochs, any epoch's end offset is undefined."""
    assert cache.end_offset_for(0) == UNDEFINED
    assert cache.latest_epoch() is None
    assert cache.earliest_entry() is None
    assert not cache.non_empty()


def test_request_below_first_epoch(cache: LeaderEpochFileCache) -> None:
    """An epoch below every known epoch gives itself with the first epoch's start offset."""
    cache.assign(5, 11)
    cache.assign(6, 12)
    cache.assign(7, 13)
    assert cache.end_offset_for(4) == (4, 11)


def test_first_offset_of_next_epoch(cache: LeaderEpochFileCache, leo: Leo) -> None:
    """An older epoch ends where the next one starts; a gap gives the largest epoch below the request."""
    cache.assign(2, 5)
    cache.assign(3, 10)
    cache.assign(6, 20)
    leo.value = 30
    assert cache.end_offset_for(2) == (2, 10)
    assert cache.end_offset_for(4) == (3, 20)
    assert cache.end_offset_for(5) == (3, 20)
    assert cache.end_offset_for(6) == (6, 30)
    assert cache.end_offset_for(7) == UNDEFINED


def test_invalid_entries_are_refused(cache: LeaderEpochFileCache) -> None:
    """A negative epoch or start offset raises ValueError."""
    with pytest.raises(ValueError, match="invalid partition leader epoch entry"):
        cache.assign(-1, 5)
    with pytest.raises(ValueError, match="invalid partition leader epoch entry"):
        cache.assign(1, -5)


def test_persist_between_instances(tmp_path: Path, leo: Leo) -> None:
    """Epochs written through a checkpoint file are loaded by a new cache."""
    file = tmp_path / "leader-epoch-checkpoint"
    cache = LeaderEpochFileCache(TP, leo, LeaderEpochCheckpointFile(file))
    cache.assign(2, 6)
    cache.assign(3, 9)
    reloaded = LeaderEpochFileCache(TP, leo, LeaderEpochCheckpointFile(file))
    assert reloaded.epoch_entries() == [EpochEntry(2, 6), EpochEntry(3, 9)]
    assert reloaded.end_offset_for(2) == (2, 9)


def test_monotonic_epochs(cache: LeaderEpochFileCache) -> None:
    """A smaller epoch at a later offset removes the larger epochs after it."""
    cache.assign(2, 6)
    cache.assign(3, 8)
    cache.assign(1, 7)
    assert cache.epoch_entries() == [EpochEntry(1, 7)]


def test_truncate_from_end(cache: LeaderEpochFileCache) -> None:
    """truncate_from_end drops the epochs starting at or after the offset; -1 or an offset past all does nothing."""
    cache.assign(2, 6)
    cache.assign(3, 8)
    cache.assign(4, 11)
    cache.truncate_from_end(11)
    assert cache.epoch_entries() == [EpochEntry(2, 6), EpochEntry(3, 8)]
    cache.truncate_from_end(9)
    assert cache.epoch_entries() == [EpochEntry(2, 6), EpochEntry(3, 8)]
    cache.truncate_from_end(-1)
    assert cache.epoch_entries() == [EpochEntry(2, 6), EpochEntry(3, 8)]
    cache.truncate_from_end(7)
    assert cache.epoch_entries() == [EpochEntry(2, 6)]


def test_truncate_from_start(cache: LeaderEpochFileCache, checkpoint: MemoryCheckpoint) -> None:
    """truncate_from_start keeps the epoch holding the offset, moved to start there, and the later ones."""
    cache.assign(2, 6)
    cache.assign(3, 8)
    cache.assign(4, 11)
    cache.truncate_from_start(5)
    assert cache.epoch_entries() == [EpochEntry(2, 6), EpochEntry(3, 8), EpochEntry(4, 11)]
    cache.truncate_from_start(6)
    assert cache.epoch_entries() == [EpochEntry(2, 6), EpochEntry(3, 8), EpochEntry(4, 11)]
    cache.truncate_from_start(9)
    assert cache.epoch_entries() == [EpochEntry(3, 9), EpochEntry(4, 11)]
    cache.truncate_from_start(15)
    assert cache.epoch_entries() == [EpochEntry(4, 15)]
    assert checkpoint.epochs == [EpochEntry(4, 15)]


def test_clear(cache: LeaderEpochFileCache, checkpoint: MemoryCheckpoint) -> None:
    """clear_and_flush empties the cache and the checkpoint; clear empties only the cache."""
    cache.assign(2, 6)
    cache.clear_and_flush()
    assert cache.epoch_entries() == []
    assert checkpoint.epochs == []
    cache.assign(3, 8)
    cache.clear()
    assert cache.epoch_entries() == []
    assert checkpoint.epochs == [EpochEntry(3, 8)]


def test_track_epochs_as_follower(cache: LeaderEpochFileCache, leo: Leo) -> None:
    """Assigning the same epoch for every message keeps one entry; epochs advance with new leaders."""
    for offset in range(5):
        cache.assign(0, offset)
    for offset in range(5, 10):
        cache.assign(1, offset)
    leo.value = 10
    assert cache.epoch_entries() == [EpochEntry(0, 0), EpochEntry(1, 5)]
    assert cache.end_offset_for(0) == (0, 5)
    assert cache.end_offset_for(1) == (1, 10)
    assert str(EpochEntry(1, 5)) == "EpochEntry(epoch=1, startOffset=5)"
