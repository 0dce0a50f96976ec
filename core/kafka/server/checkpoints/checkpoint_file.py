"""Port of core/src/main/scala/kafka/server/checkpoints/CheckpointFile.scala (Kafka 2.8).

The text format shared by the broker's checkpoint files (recovery points, high watermarks, log
start offsets, cleaner offsets, leader epochs):

    <version>
    <number of entries>
    <entry>            one line per entry, laid out by a formatter
    ...

A write goes to `<file>.tmp`, is flushed and fsynced, and is then renamed over the file, so that a
crash leaves either the old or the new checkpoint, never a mix. An I/O error marks the log
directory offline (through LogDirFailureChannel) and raises KafkaStorageException.
"""

from __future__ import annotations

import os
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from kafka.common.errors import KafkaStorageException
from kafka.common.utils.utils import atomic_move_with_fallback, parse_int
from kafka.utils.logging import Logging

T = TypeVar("T")

# Java's \s: space, tab, newline, vertical tab, form feed, carriage return.
WHITE_SPACES_PATTERN = re.compile(r"[ \t\n\x0b\f\r]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_white_spaces(line: str) -> list[str]:
    """Split `line` at runs of whitespace as Java's Pattern.split does: a leading separator gives an
    empty first field, trailing empty fields are dropped."""
    if line == "":
        return [""]
    fields = WHITE_SPACES_PATTERN.split(line)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


class CheckpointFileFormatter(ABC, Generic[T]):
    """Turns an entry into its line and back."""

    @abstractmethod
    def to_line(self, entry: T) -> str:
        """The line for `entry` (without line break)."""

    @abstractmethod
    def from_line(self, line: str) -> T | None:
        """The entry on `line`, or None when the line is malformed."""


class LogDirFailureChannelLike(Protocol):
    """What a checkpoint needs of LogDirFailureChannel: reporting a failed log directory."""

    def maybe_add_offline_log_dir(self, log_dir: str, msg: str, e: BaseException) -> None: ...


class CheckpointReadBuffer(Logging, Generic[T]):
    """Parses the lines of a checkpoint file of a given version."""

    def __init__(self, location: str, reader: Iterator[str], version: int, formatter: CheckpointFileFormatter[T]):
        self.location = location
        self.reader = reader
        self.version = version
        self.formatter = formatter

    def _read_line(self) -> str | None:
        return next(self.reader, None)

    def read(self) -> list[T]:
        """The entries; OSError (Java: IOException) for a wrong version, a bad line or a wrong count."""
        line: str | None = None
        try:
            line = self._read_line()
            if line is None:
                return []
            file_version = parse_int(line)
            if file_version != self.version:
                raise OSError(f"Unrecognized version of the checkpoint file ({self.location}): {self.version}")
            line = self._read_line()
            if line is None:
                return []
            expected_size = parse_int(line)
            entries: list[T] = []
            line = self._read_line()
            while line is not None:
                entry = self.formatter.from_line(line)
                if entry is None:
                    raise self._malformed_line_exception(line)
                entries.append(entry)
                line = self._read_line()
            if len(entries) != expected_size:
                raise OSError(
                    f"Expected {expected_size} entries in checkpoint file ({self.location}), but found only "
                    f"{len(entries)}"
                )
            return entries
        except ValueError as e:
            raise self._malformed_line_exception(line) from e

    def _malformed_line_exception(self, line: str | None) -> OSError:
        return OSError(f"Malformed line in checkpoint file ({self.location}): '{line}'")


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` as Java's BufferedReader.readLine returns them."""
    if not text:
        return iter(())
    parts = _LINE_BREAK.split(text)
    if parts[-1] == "":
        parts.pop()
    return iter(parts)


class CheckpointFile(Logging, Generic[T]):
    """A checkpoint file of one `version`, read and written whole, under a lock."""

    def __init__(
        self,
        file: str | os.PathLike[str],
        version: int,
        formatter: CheckpointFileFormatter[T],
        log_dir_failure_channel: LogDirFailureChannelLike | None,
        log_dir: str,
    ) -> None:
        self.file = Path(file)
        self.version = version
        self.formatter = formatter
        self.log_dir_failure_channel = log_dir_failure_channel
        self.log_dir = log_dir
        self._path = self.file.absolute()
        self._temp_path = Path(str(self._path) + ".tmp")
        self._lock = threading.RLock()
        # Create the file if it is missing, so that a read before the first write finds it empty.
        try:
            fd = os.open(self.file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            os.close(fd)
        except FileExistsError:
            pass

    def write(self, entries: Iterable[T]) -> None:
        """Replace the file's content with `entries`, atomically."""
        with self._lock:
            try:
                entry_list = list(entries)
                lines = [str(self.version), str(len(entry_list))]
                lines.extend(self.formatter.to_line(entry) for entry in entry_list)
                data = ("\n".join(lines) + "\n").encode("utf-8")
                fd = os.open(self._temp_path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o644)
                try:
                    view = memoryview(data)
                    while view:
                        written = os.write(fd, view)
                        view = view[written:]
                    os.fsync(fd)
                finally:
                    os.close(fd)
                atomic_move_with_fallback(self._temp_path, self._path)
                # PORT: Kafka 2.8 does not fsync the directory after the rename (later versions do);
                # without it a crash could lose the rename itself, so it is done here.
                _flush_dir(self._path.parent)
            except OSError as e:
                msg = f"Error while writing to checkpoint file {self.file.absolute()}"
                self._fail(msg, e)
                raise KafkaStorageException(msg) from e

    def read(self) -> list[T]:
        """The entries in the file; KafkaStorageException when it cannot be read or parsed."""
        with self._lock:
            try:
                with open(self._path, encoding="utf-8", newline="") as reader:
                    text = reader.read()
                buffer = CheckpointReadBuffer(str(self.file.absolute()), _lines(text), self.version, self.formatter)
                return buffer.read()
            except (OSError, UnicodeDecodeError) as e:
                msg = f"Error while reading checkpoint file {self.file.absolute()}"
                self._fail(msg, e)
                raise KafkaStorageException(msg) from e

    def _fail(self, msg: str, e: BaseException) -> None:
        if self.log_dir_failure_channel is not None:
            self.log_dir_failure_channel.maybe_add_offline_log_dir(self.log_dir, msg, e)
        else:
            self.error(msg, e)


def _flush_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
