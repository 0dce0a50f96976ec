"""Port of java.util.concurrent.locks.ReentrantReadWriteLock semantics.

# PORT: Python has no read/write lock. This one is reentrant for readers and the writer, lets the writer take the
# read lock (and so downgrade), and prefers writers: once a writer waits, new readers wait behind it, so a steady
# stream of readers (fetches) cannot starve a writer (appends, truncation). Java's lock is unfair by default but
# also holds back new readers when a writer is first in line; the observable outcome is the same. Upgrading a
# read lock to the write lock deadlocks in Java; here it raises RuntimeError instead.
"""

from __future__ import annotations

import threading
from _thread import get_ident
from types import TracebackType


class _ReadLock:
    """The read half (Java's `readLock()`); a context manager and Lock-like (acquire/release)."""

    __slots__ = ("_rw",)

    def __init__(self, rw: ReentrantReadWriteLock) -> None:
        self._rw = rw

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        return self._rw._acquire_read(blocking, timeout)

    def release(self) -> None:
        self._rw._release_read()

    def __enter__(self) -> _ReadLock:
        # The uncontended case inline (a partition's lock is taken several times per request): no writer holds or
        # waits, so a reader goes in at once.
        # The mutex taken without `with`, which on CPython 3.11 binds __enter__/__exit__ on every use (~115 ns).
        rw = self._rw
        me = get_ident()
        mutex = rw._mutex
        mutex.acquire()
        try:
            if rw._writer is None and not rw._waiting_writers:
                readers = rw._readers
                readers[me] = readers.get(me, 0) + 1
                return self
        finally:
            mutex.release()
        rw._acquire_read(True, -1)
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        rw = self._rw
        me = get_ident()
        mutex = rw._mutex
        mutex.acquire()
        try:
            readers = rw._readers
            holds = readers.get(me, 0)
            if holds > 1:
                readers[me] = holds - 1
                return
            if holds == 1 and (len(readers) > 1 or not rw._waiting_writers):
                del readers[me]  # no writer to wake
                return
        finally:
            mutex.release()
        rw._release_read()


class _WriteLock:
    """The write half (Java's `writeLock()`); a context manager and Lock-like (acquire/release)."""

    __slots__ = ("_rw",)

    def __init__(self, rw: ReentrantReadWriteLock) -> None:
        self._rw = rw

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        return self._rw._acquire_write(blocking, timeout)

    def release(self) -> None:
        self._rw._release_write()

    def __enter__(self) -> _WriteLock:
        self._rw._acquire_write(True, -1)
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self._rw._release_write()


class ReentrantReadWriteLock:
    """Many readers or one writer. `with lock.read():` / `with lock.write():`, or `read_lock` / `write_lock`."""

    __slots__ = (
        "_cond",
        "_mutex",
        "_readers",
        "_waiting_readers",
        "_waiting_writers",
        "_write_holds",
        "_writer",
        "read_lock",
        "write_lock",
    )

    def __init__(self) -> None:
        # The state is guarded by `_mutex`; `_cond` (over the same mutex) is waited on only when a thread must wait,
        # and notified only when some thread waits: the uncontended paths are one C-level acquire and release.
        self._mutex = threading.Lock()
        self._cond = threading.Condition(self._mutex)
        self._waiting_readers = 0
        self._writer: int | None = None  # ident of the thread holding the write lock
        self._write_holds = 0
        self._readers: dict[int, int] = {}  # thread ident -> read holds
        self._waiting_writers = 0
        self.read_lock = _ReadLock(self)
        self.write_lock = _WriteLock(self)

    def read(self) -> _ReadLock:
        return self.read_lock

    def write(self) -> _WriteLock:
        return self.write_lock

    def _acquire_read(self, blocking: bool, timeout: float) -> bool:
        me = get_ident()
        with self._mutex:
            if self._writer == me or me in self._readers:
                # Reentrant: a thread already inside goes on even if a writer waits, or it would deadlock.
                self._readers[me] = self._readers.get(me, 0) + 1
                return True
            if self._writer is not None or self._waiting_writers:
                if not blocking:
                    return False
                self._waiting_readers += 1
                try:
                    ok = self._cond.wait_for(
                        lambda: self._writer is None and not self._waiting_writers, None if timeout < 0 else timeout
                    )
                finally:
                    self._waiting_readers -= 1
                if not ok:
                    return False
            self._readers[me] = 1
            return True

    def _release_read(self) -> None:
        me = get_ident()
        with self._mutex:
            readers = self._readers
            holds = readers.get(me)
            if holds is None:
                raise RuntimeError("attempt to unlock read lock, not locked by current thread")
            if holds > 1:
                readers[me] = holds - 1
            else:
                del readers[me]
                # Only writers wait for readers to leave.
                if not readers and self._waiting_writers:
                    self._cond.notify_all()

    def _acquire_write(self, blocking: bool, timeout: float) -> bool:
        me = get_ident()
        with self._mutex:
            if self._writer == me:
                self._write_holds += 1
                return True
            if me in self._readers:
                raise RuntimeError("cannot upgrade a read lock to the write lock")
            if self._writer is not None or self._readers:
                if not blocking:
                    return False
                self._waiting_writers += 1
                try:
                    ok = self._cond.wait_for(
                        lambda: self._writer is None and not self._readers, None if timeout < 0 else timeout
                    )
                finally:
                    self._waiting_writers -= 1
                if not ok:
                    if self._waiting_readers or self._waiting_writers:
                        self._cond.notify_all()  # readers held back by this writer may go now
                    return False
            self._writer = me
            self._write_holds = 1
            return True

    def _release_write(self) -> None:
        with self._mutex:
            if self._writer != get_ident():
                raise RuntimeError("attempt to unlock write lock, not locked by current thread")
            self._write_holds -= 1
            if self._write_holds == 0:
                self._writer = None
                if self._waiting_readers or self._waiting_writers:
                    self._cond.notify_all()

    def is_write_locked(self) -> bool:
        return self._writer is not None

    def is_write_locked_by_current_thread(self) -> bool:
        return self._writer == get_ident()

    def get_read_lock_count(self) -> int:
        with self._mutex:
            return sum(self._readers.values())

    def get_read_hold_count(self) -> int:
        return self._readers.get(get_ident(), 0)
