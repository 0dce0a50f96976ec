"""Port of core/src/main/scala/kafka/log/Log.scala (Kafka 2.8): the file-name helpers of `object Log`.

Segment files are named after the base offset of their segment, zero-padded to 20 digits so that
a plain directory listing sorts them numerically; the suffix says what the file holds.

# PORT: Kafka keeps these helpers and constants on `object Log` in Log.scala. They live in this
module so that the segment-level classes (LogSegment, the indexes, DumpLogSegments) can use them
without importing the Log class, which imports the segment level in turn.
"""

from __future__ import annotations

import os
from pathlib import Path

# A log segment's data file.
LOG_FILE_SUFFIX = ".log"
# The offset index of a segment.
INDEX_FILE_SUFFIX = ".index"
# The time index of a segment.
TIME_INDEX_FILE_SUFFIX = ".timeindex"
# A snapshot of the producer state, named after the offset it was taken at.
PRODUCER_SNAPSHOT_FILE_SUFFIX = ".snapshot"
# The index of aborted transactions of a segment.
TXN_INDEX_FILE_SUFFIX = ".txnindex"
# Added to a file that is scheduled for asynchronous deletion.
DELETED_FILE_SUFFIX = ".deleted"
# Added to the files the log cleaner is writing before they replace a segment.
CLEANED_FILE_SUFFIX = ".cleaned"
# Added to files that are being swapped into the log in place of other segments.
SWAP_FILE_SUFFIX = ".swap"
# Written to a log directory when the broker shut down cleanly, so that recovery can be skipped.
CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown"
# Added to a partition directory that is scheduled for deletion.
DELETE_DIR_SUFFIX = "-delete"
# Added to a partition directory that is being moved to another log directory.
FUTURE_DIR_SUFFIX = "-future"

# The offset used where no offset is known.
UNKNOWN_OFFSET = -1

PathLike = str | os.PathLike[str]


def filename_prefix_from_offset(offset: int) -> str:
    """The 20-digit zero-padded decimal form of `offset`, as Java's NumberFormat renders it."""
    if offset < 0:
        # Java's NumberFormat pads the digits and puts the sign in front of them.
        return "-" + format(-offset, "020d")
    return format(offset, "020d")


def log_file(dir: PathLike, offset: int, suffix: str = "") -> Path:
    """The data file of the segment starting at `offset`, plus an optional extra suffix."""
    return Path(dir) / (filename_prefix_from_offset(offset) + LOG_FILE_SUFFIX + suffix)


def offset_index_file(dir: PathLike, offset: int, suffix: str = "") -> Path:
    """The offset index of the segment starting at `offset`."""
    return Path(dir) / (filename_prefix_from_offset(offset) + INDEX_FILE_SUFFIX + suffix)


def time_index_file(dir: PathLike, offset: int, suffix: str = "") -> Path:
    """The time index of the segment starting at `offset`."""
    return Path(dir) / (filename_prefix_from_offset(offset) + TIME_INDEX_FILE_SUFFIX + suffix)


def transaction_index_file(dir: PathLike, offset: int, suffix: str = "") -> Path:
    """The aborted-transaction index of the segment starting at `offset`."""
    return Path(dir) / (filename_prefix_from_offset(offset) + TXN_INDEX_FILE_SUFFIX + suffix)


def producer_snapshot_file(dir: PathLike, offset: int) -> Path:
    """The producer-state snapshot covering everything below `offset` (exclusive)."""
    return Path(dir) / (filename_prefix_from_offset(offset) + PRODUCER_SNAPSHOT_FILE_SUFFIX)


def delete_file_if_exists(file: PathLike, suffix: str = "") -> None:
    """Removes `file` + `suffix` if it is there."""
    try:
        os.remove(os.fspath(file) + suffix)
    except FileNotFoundError:
        pass


def offset_from_file_name(filename: str) -> int:
    """The base offset encoded in a segment file name (the part before the first dot).

    Raises ValueError, as Java's toLong raises NumberFormatException, when it is not a number.
    """
    return int(filename[: filename.index(".")])


def offset_from_file(file: PathLike) -> int:
    """The base offset encoded in the name of `file`."""
    return offset_from_file_name(Path(file).name)


def is_index_file(file: PathLike) -> bool:
    """Whether `file` is one of the three per-segment index files."""
    name = Path(file).name
    return (
        name.endswith(INDEX_FILE_SUFFIX)
        or name.endswith(TIME_INDEX_FILE_SUFFIX)
        or name.endswith(TXN_INDEX_FILE_SUFFIX)
    )


def is_log_file(file: PathLike) -> bool:
    """Whether `file` is a segment's data file."""
    return os.fspath(file).endswith(LOG_FILE_SUFFIX)
