"""Tests of LeaderEpochCheckpointFile, after Kafka's LeaderEpochCheckpointFileTest."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka.common.errors import KafkaStorageException
from kafka.server.checkpoints.leader_epoch_checkpoint_file import LeaderEpochCheckpointFile, new_file
from kafka.server.epoch.leader_epoch_file_cache import EpochEntry


def test_write_and_read(tmp_path: Path) -> None:
    """Entries written are read back in order, and the file has Kafka's `epoch offset` layout."""
    checkpoint = LeaderEpochCheckpointFile(new_file(tmp_path))
    assert checkpoint.file.name == "leader-epoch-checkpoint"
    epochs = [EpochEntry(0, 1), EpochEntry(1, 2), EpochEntry(2, 3)]
    checkpoint.write(epochs)
    assert checkpoint.read() == epochs
    assert checkpoint.file.read_text() == "0\n3\n0 1\n1 2\n2 3\n"
    epochs2 = [EpochEntry(3, 4), EpochEntry(4, 5)]
    checkpoint.write(epochs2)
    assert checkpoint.read() == epochs2


def test_retains_values_between_instances(tmp_path: Path) -> None:
    """A new instance on the same file reads what an earlier one wrote."""
    file = tmp_path / "leader-epoch-checkpoint"
    LeaderEpochCheckpointFile(file).write([EpochEntry(0, 1), EpochEntry(1, 2)])
    assert LeaderEpochCheckpointFile(file).read() == [EpochEntry(0, 1), EpochEntry(1, 2)]


def test_malformed_line_is_refused(tmp_path: Path) -> None:
    """A line with three fields fails with KafkaStorageException."""
    file = tmp_path / "leader-epoch-checkpoint"
    file.write_text("0\n1\n0 1 2\n")
    with pytest.raises(KafkaStorageException):
        LeaderEpochCheckpointFile(file).read()


def test_log_dir_is_grandparent(tmp_path: Path) -> None:
    """Failures are reported against the log dir that holds the partition dir of the file."""
    partition_dir = tmp_path / "topic-0"
    partition_dir.mkdir()
    checkpoint = LeaderEpochCheckpointFile(new_file(partition_dir))
    assert checkpoint.checkpoint.log_dir == str(tmp_path)
