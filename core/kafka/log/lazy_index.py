"""Port of core/src/main/scala/kafka/log/LazyIndex.scala (Kafka 2.8).

Holds an index file without mapping it until the index is first used (`get`). A broker with many
segments only maps the indexes of the segments that are read or written, which keeps startup and
shutdown quick. Renaming, deleting and closing work on the bare file while it is not loaded, and on
the index once it is.
"""

from __future__ import annotations

import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from kafka.common.utils.utils import atomic_move_with_fallback
from kafka.log.abstract_index import AbstractIndex
from kafka.log.offset_index import OffsetIndex
from kafka.log.time_index import TimeIndex

T = TypeVar("T", bound=AbstractIndex)


class _IndexWrapper(ABC):
    """Either the bare file of a not yet loaded index, or the loaded index."""

    @property
    @abstractmethod
    def file(self) -> Path: ...

    @abstractmethod
    def update_parent_dir(self, parent_dir: str | os.PathLike[str]) -> None: ...

    @abstractmethod
    def rename_to(self, f: str | os.PathLike[str]) -> None: ...

    @abstractmethod
    def delete_if_exists(self) -> bool: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def close_handler(self) -> None: ...


class _IndexFile(_IndexWrapper):
    """An index not loaded yet: only its path."""

    def __init__(self, file: Path) -> None:
        self._file = file

    @property
    def file(self) -> Path:
        return self._file

    def update_parent_dir(self, parent_dir: str | os.PathLike[str]) -> None:
        self._file = Path(parent_dir) / self._file.name

    def rename_to(self, f: str | os.PathLike[str]) -> None:
        try:
            atomic_move_with_fallback(self._file, f)
        except FileNotFoundError:
            # A file that was never created has nothing to rename.
            if self._file.exists():
                raise
        finally:
            self._file = Path(f)

    def delete_if_exists(self) -> bool:
        try:
            self._file.unlink()
        except FileNotFoundError:
            return False
        return True

    def close(self) -> None:
        """Nothing is open."""

    def close_handler(self) -> None:
        """Nothing is open."""


class _IndexValue(_IndexWrapper, Generic[T]):
    """A loaded index; everything is delegated to it."""

    def __init__(self, index: T) -> None:
        self.index = index

    @property
    def file(self) -> Path:
        return self.index.file

    def update_parent_dir(self, parent_dir: str | os.PathLike[str]) -> None:
        self.index.update_parent_dir(parent_dir)

    def rename_to(self, f: str | os.PathLike[str]) -> None:
        self.index.rename_to(f)

    def delete_if_exists(self) -> bool:
        return self.index.delete_if_exists()

    def close(self) -> None:
        self.index.close()

    def close_handler(self) -> None:
        self.index.close_handler()


class LazyIndex(Generic[T]):
    """An index loaded on first `get()`; thread-safe (one lock guards loading and file operations)."""

    def __init__(self, index_wrapper: _IndexWrapper, load_index: Callable[[Path], T]) -> None:
        self._index_wrapper = index_wrapper
        self._load_index = load_index
        self._lock = threading.RLock()

    @classmethod
    def for_offset(
        cls, file: str | os.PathLike[str], base_offset: int, max_index_size: int = -1, writable: bool = True
    ) -> LazyIndex[OffsetIndex]:
        """A lazily loaded OffsetIndex."""
        return LazyIndex(_IndexFile(Path(file)), lambda f: OffsetIndex(f, base_offset, max_index_size, writable))

    @classmethod
    def for_time(
        cls, file: str | os.PathLike[str], base_offset: int, max_index_size: int = -1, writable: bool = True
    ) -> LazyIndex[TimeIndex]:
        """A lazily loaded TimeIndex."""
        return LazyIndex(_IndexFile(Path(file)), lambda f: TimeIndex(f, base_offset, max_index_size, writable))

    @property
    def file(self) -> Path:
        """The index file (whether loaded or not)."""
        return self._index_wrapper.file

    def is_loaded(self) -> bool:
        """Whether `get()` has mapped the index already.

        # PORT: not in Kafka's class, where tests match on the wrapper type; used by tests and tools.
        """
        return isinstance(self._index_wrapper, _IndexValue)

    def get(self) -> T:
        """The index, mapping its file on the first call."""
        wrapper = self._index_wrapper
        if isinstance(wrapper, _IndexValue):
            return wrapper.index
        with self._lock:
            wrapper = self._index_wrapper
            if isinstance(wrapper, _IndexValue):
                return wrapper.index
            index_value = _IndexValue(self._load_index(wrapper.file))
            self._index_wrapper = index_value
            return index_value.index

    def update_parent_dir(self, parent_dir: str | os.PathLike[str]) -> None:
        with self._lock:
            self._index_wrapper.update_parent_dir(parent_dir)

    def rename_to(self, f: str | os.PathLike[str]) -> None:
        with self._lock:
            self._index_wrapper.rename_to(f)

    def delete_if_exists(self) -> bool:
        with self._lock:
            return self._index_wrapper.delete_if_exists()

    def close(self) -> None:
        with self._lock:
            self._index_wrapper.close()

    def close_handler(self) -> None:
        with self._lock:
            self._index_wrapper.close_handler()
