"""Tests of CheckpointFile and OffsetCheckpointFile, after Kafka's OffsetCheckpointFileTest."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kafka.common.errors import KafkaStorageException
from kafka.common.topic_partition import TopicPartition
from kafka.server.checkpoints.checkpoint_file import CheckpointFile, CheckpointReadBuffer
from kafka.server.checkpoints.offset_checkpoint_file import (
    FORMATTER,
    LazyOffsetCheckpoints,
    OffsetCheckpointFile,
)


class _FailureChannel:
    def __init__(self) -> None:
        self.offline: list[tuple[str, str]] = []

    def maybe_add_offline_log_dir(self, log_dir: str, msg: str, e: BaseException) -> None:
        self.offline.append((log_dir, msg))


def test_persist_and_overwrite_and_reload(tmp_path: Path) -> None:
    """Offsets written are read back; a second write replaces the first."""
    checkpoint = OffsetCheckpointFile(tmp_path / "recovery-point-offset-checkpoint")
    offsets = {TopicPartition("foo", 1): 5, TopicPartition("bar", 2): 10}
    checkpoint.write(offsets)
    assert checkpoint.read() == offsets
    offsets2 = {TopicPartition("foo", 2): 15, TopicPartition("bar", 3): 20}
    checkpoint.write(offsets2)
    assert checkpoint.read() == offsets2
    assert OffsetCheckpointFile(checkpoint.file).read() == offsets2


def test_file_format(tmp_path: Path) -> None:
    """The file is `0`, the count, then `topic partition offset` lines, each ending in a newline."""
    checkpoint = OffsetCheckpointFile(tmp_path / "replication-offset-checkpoint")
    checkpoint.write({TopicPartition("foo", 1): 5, TopicPartition("bar", 2): 10})
    assert checkpoint.file.read_text() == "0\n2\nfoo 1 5\nbar 2 10\n"
    assert not Path(str(checkpoint.file) + ".tmp").exists()


def test_reads_kafka_written_file(tmp_path: Path) -> None:
    """A checkpoint in Kafka's layout, with extra spaces between fields, is parsed."""
    path = tmp_path / "log-start-offset-checkpoint"
    path.write_text("0\n3\ntopic-a 0 0\ntopic-a  1\t12345678901\n__consumer_offsets 49 7\n")
    assert OffsetCheckpointFile(path).read() == {
        TopicPartition("topic-a", 0): 0,
        TopicPartition("topic-a", 1): 12345678901,
        TopicPartition("__consumer_offsets", 49): 7,
    }


def test_new_file_is_created_empty(tmp_path: Path) -> None:
    """Opening a checkpoint creates the file; reading an empty file gives no entries."""
    path = tmp_path / "cleaner-offset-checkpoint"
    checkpoint = OffsetCheckpointFile(path)
    assert path.exists()
    assert checkpoint.read() == {}


def test_write_empty(tmp_path: Path) -> None:
    """An empty map is written as version and a zero count and read back empty."""
    checkpoint = OffsetCheckpointFile(tmp_path / "c")
    checkpoint.write({})
    assert checkpoint.file.read_text() == "0\n0\n"
    assert checkpoint.read() == {}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("0\n1\nfoo 1\n", "Malformed line"),
        ("0\n1\nfoo 1 x\n", "Malformed line"),
        ("0\n2\nfoo 1 5\n", "Expected 2 entries"),
        ("1\n1\nfoo 1 5\n", "Unrecognized version"),
        ("zero\n", "Malformed line"),
        ("0\n1\nfoo 1 5\n\n", "Malformed line"),
        ("0\n1\nfoo 99999999999 5\n", "Malformed line"),
    ],
)
def test_malformed_file_fails_with_storage_exception(tmp_path: Path, content: str, message: str) -> None:
    """A bad version, line or count raises KafkaStorageException, marks the log dir offline, and says why."""
    path = tmp_path / "recovery-point-offset-checkpoint"
    path.write_text(content)
    channel = _FailureChannel()
    checkpoint = OffsetCheckpointFile(path, channel)
    with pytest.raises(KafkaStorageException, match="Error while reading checkpoint file") as info:
        checkpoint.read()
    assert message in str(info.value.__cause__)
    assert channel.offline == [(str(tmp_path), f"Error while reading checkpoint file {path.absolute()}")]


def test_write_failure_marks_dir_offline(tmp_path: Path) -> None:
    """A write that cannot create its temp file raises KafkaStorageException and reports the log dir."""
    log_dir = tmp_path / "dir"
    log_dir.mkdir()
    channel = _FailureChannel()
    checkpoint = OffsetCheckpointFile(log_dir / "replication-offset-checkpoint", channel)
    os.mkdir(str(checkpoint.file) + ".tmp")  # the temp path is taken by a directory
    with pytest.raises(KafkaStorageException, match="Error while writing to checkpoint file"):
        checkpoint.write({TopicPartition("t", 0): 1})
    assert channel.offline[0][0] == str(log_dir)


def test_checkpoint_read_buffer_stops_at_end() -> None:
    """A file with only a version line yields no entries."""
    buffer = CheckpointReadBuffer("loc", iter(["0"]), 0, FORMATTER)
    assert buffer.read() == []


def test_lazy_offset_checkpoints(tmp_path: Path) -> None:
    """Lookups by log dir read each file once and answer None for unknown partitions; unknown dirs are refused."""
    dir1 = tmp_path / "d1"
    dir1.mkdir()
    checkpoint = OffsetCheckpointFile(dir1 / "replication-offset-checkpoint")
    checkpoint.write({TopicPartition("t", 0): 3})
    lazy = LazyOffsetCheckpoints({str(dir1): checkpoint})
    assert lazy.fetch(str(dir1), TopicPartition("t", 0)) == 3
    checkpoint.write({TopicPartition("t", 0): 4})
    assert lazy.fetch(str(dir1), TopicPartition("t", 0)) == 3
    assert lazy.fetch(str(dir1), TopicPartition("t", 1)) is None
    with pytest.raises(ValueError, match="No checkpoint file for log dir"):
        lazy.fetch("elsewhere", TopicPartition("t", 0))


def test_generic_checkpoint_file_round_trip(tmp_path: Path) -> None:
    """CheckpointFile writes version, count and formatted lines for any formatter."""
    cf = CheckpointFile(tmp_path / "x", 0, FORMATTER, None, str(tmp_path))
    cf.write([(TopicPartition("a", 1), 2)])
    assert cf.read() == [(TopicPartition("a", 1), 2)]
