"""Port of core/src/main/scala/kafka/server/checkpoints/LeaderEpochCheckpointFile.scala (Kafka 2.8).

The `leader-epoch-checkpoint` file of a partition directory: the first offset of each leader epoch.

    0                  version
    2                  number of entries
    0 0                epoch, start offset
    3 1500
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from kafka.common.utils.utils import parse_int, parse_long
from kafka.server.checkpoints.checkpoint_file import (
    CheckpointFile,
    CheckpointFileFormatter,
    LogDirFailureChannelLike,
    split_white_spaces,
)
from kafka.server.epoch.leader_epoch_file_cache import EpochEntry

LEADER_EPOCH_CHECKPOINT_FILENAME: Final = "leader-epoch-checkpoint"
CURRENT_VERSION: Final = 0


class LeaderEpochCheckpoint(ABC):
    """Where a LeaderEpochFileCache keeps its entries."""

    @abstractmethod
    def write(self, epochs: Iterable[EpochEntry]) -> None:
        """Replace the stored entries."""

    @abstractmethod
    def read(self) -> list[EpochEntry]:
        """The stored entries."""


class LeaderEpochCheckpointFileFormatter(CheckpointFileFormatter[EpochEntry]):
    """`epoch start_offset` lines.

    # PORT: Kafka's `object LeaderEpochCheckpointFile.Formatter`; a class with one instance, FORMATTER.
    """

    def to_line(self, entry: EpochEntry) -> str:
        return f"{entry.epoch} {entry.start_offset}"

    def from_line(self, line: str) -> EpochEntry | None:
        fields = split_white_spaces(line)
        if len(fields) != 2:
            return None
        epoch, offset = fields
        return EpochEntry(parse_int(epoch), parse_long(offset))


FORMATTER: Final = LeaderEpochCheckpointFileFormatter()


def new_file(dir: str | os.PathLike[str]) -> Path:
    """The leader epoch checkpoint file of the partition directory `dir`."""
    return Path(dir) / LEADER_EPOCH_CHECKPOINT_FILENAME


class LeaderEpochCheckpointFile(LeaderEpochCheckpoint):
    """The leader epoch checkpoint of one partition, in `file`."""

    LEADER_EPOCH_CHECKPOINT_FILENAME: Final = LEADER_EPOCH_CHECKPOINT_FILENAME
    CURRENT_VERSION: Final = CURRENT_VERSION

    def __init__(
        self, file: str | os.PathLike[str], log_dir_failure_channel: LogDirFailureChannelLike | None = None
    ) -> None:
        self.file = Path(file)
        # The log directory is the parent of the partition directory holding the file.
        self.checkpoint: CheckpointFile[EpochEntry] = CheckpointFile(
            self.file, CURRENT_VERSION, FORMATTER, log_dir_failure_channel, str(self.file.parent.parent)
        )

    @staticmethod
    def new_file(dir: str | os.PathLike[str]) -> Path:
        """The leader epoch checkpoint file of the partition directory `dir`."""
        return new_file(dir)

    def write(self, epochs: Iterable[EpochEntry]) -> None:
        self.checkpoint.write(epochs)

    def read(self) -> list[EpochEntry]:
        return self.checkpoint.read()
