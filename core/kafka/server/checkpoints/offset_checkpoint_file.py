"""Port of core/src/main/scala/kafka/server/checkpoints/OffsetCheckpointFile.scala (Kafka 2.8).

A checkpoint of one offset per partition, used for `recovery-point-offset-checkpoint`,
`replication-offset-checkpoint`, `log-start-offset-checkpoint` and `cleaner-offset-checkpoint`:

    0                  version
    2                  number of entries
    topicA 0 1500      topic, partition, offset (separated by whitespace)
    topicA 1 42

Also the lazily read per-log-directory view used when partitions are created.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import parse_int, parse_long
from kafka.server.checkpoints.checkpoint_file import (
    CheckpointFile,
    CheckpointFileFormatter,
    LogDirFailureChannelLike,
    split_white_spaces,
)

CURRENT_VERSION: Final = 0


class OffsetCheckpointFileFormatter(CheckpointFileFormatter[tuple[TopicPartition, int]]):
    """`topic partition offset` lines.

    # PORT: Kafka's `object OffsetCheckpointFile.Formatter`; a class with one instance, FORMATTER.
    """

    def to_line(self, entry: tuple[TopicPartition, int]) -> str:
        tp, offset = entry
        return f"{tp.topic} {tp.partition} {offset}"

    def from_line(self, line: str) -> tuple[TopicPartition, int] | None:
        fields = split_white_spaces(line)
        if len(fields) != 3:
            return None
        topic, partition, offset = fields
        return TopicPartition(topic, parse_int(partition)), parse_long(offset)


FORMATTER: Final = OffsetCheckpointFileFormatter()


class OffsetCheckpointFile:
    """The offsets of the partitions of one log directory, in `file`."""

    CURRENT_VERSION: Final = CURRENT_VERSION

    def __init__(
        self, file: str | os.PathLike[str], log_dir_failure_channel: LogDirFailureChannelLike | None = None
    ) -> None:
        self.file = Path(file)
        self.checkpoint: CheckpointFile[tuple[TopicPartition, int]] = CheckpointFile(
            self.file, CURRENT_VERSION, FORMATTER, log_dir_failure_channel, str(self.file.parent)
        )

    def write(self, offsets: Mapping[TopicPartition, int]) -> None:
        """Replace the checkpoint with `offsets`."""
        self.checkpoint.write(offsets.items())

    def read(self) -> dict[TopicPartition, int]:
        """The offsets in the checkpoint (a later line for the same partition wins, as in Kafka's toMap)."""
        return dict(self.checkpoint.read())


class OffsetCheckpoints(ABC):
    """Offsets looked up by log directory and partition."""

    @abstractmethod
    def fetch(self, log_dir: str, topic_partition: TopicPartition) -> int | None:
        """The checkpointed offset of `topic_partition` in `log_dir`, or None."""


class LazyOffsetCheckpointMap:
    """One checkpoint file, read on the first lookup and then kept."""

    def __init__(self, checkpoint: OffsetCheckpointFile) -> None:
        self._checkpoint = checkpoint
        self._offsets: dict[TopicPartition, int] | None = None

    def fetch(self, topic_partition: TopicPartition) -> int | None:
        if self._offsets is None:
            self._offsets = self._checkpoint.read()
        return self._offsets.get(topic_partition)


class LazyOffsetCheckpoints(OffsetCheckpoints):
    """The checkpoint files of several log directories, each read on first use."""

    def __init__(self, checkpoints_by_log_dir: Mapping[str, OffsetCheckpointFile]) -> None:
        self._lazy_checkpoints_by_log_dir = {
            log_dir: LazyOffsetCheckpointMap(checkpoint_file)
            for log_dir, checkpoint_file in checkpoints_by_log_dir.items()
        }

    def fetch(self, log_dir: str, topic_partition: TopicPartition) -> int | None:
        offset_checkpoint_file = self._lazy_checkpoints_by_log_dir.get(log_dir)
        if offset_checkpoint_file is None:
            raise ValueError(f"No checkpoint file for log dir {log_dir}")
        return offset_checkpoint_file.fetch(topic_partition)
