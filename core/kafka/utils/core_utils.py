"""Port of core/src/main/scala/kafka/utils/CoreUtils.scala (Kafka 2.8).

General helpers of the broker that the standard library lacks.

# PORT: left out: MBean registration (no JMX here), `createObject` (see `create_object`, which imports by dotted
# path), `listenerListToEndPoints` (it lives with kafka.cluster.EndPoint). `create_file` comes from older CoreUtils
# and `delete` follows Utils.delete (recursive).
"""

from __future__ import annotations

import base64
import importlib
import itertools
import logging as _logging
import os
import re
import shutil
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from kafka.utils.logging import Logging

A = TypeVar("A")
B = TypeVar("B")
K = TypeVar("K")
T = TypeVar("T")
V = TypeVar("V")

_log = _logging.getLogger("kafka.utils.CoreUtils$")


class _Lock(Protocol):
    def acquire(self, blocking: bool = ..., timeout: float = ...) -> bool: ...

    def release(self) -> None: ...


class _ReadWriteLock(Protocol):
    @property
    def read_lock(self) -> _Lock: ...

    @property
    def write_lock(self) -> _Lock: ...


def min_or(iterable: Iterable[A], if_empty: A, key: Callable[[A], Any]) -> A:
    """The element with the smallest `key`, or `if_empty` when there is none (CoreUtils.min; renamed so as not
    to shadow the builtin)."""
    return min(iterable, key=key, default=if_empty)


def swallow(action: Callable[[], Any], logging: Logging | None = None, level: int = _logging.WARNING) -> None:
    """Runs `action`, logging instead of raising whatever it raises.

    # PORT: Kafka 2.8 takes a Logging and then logs through CoreUtils' own logger; we log through the given
    # Logging (its logger and log ident), falling back to CoreUtils' logger."""
    try:
        action()
    except BaseException as e:
        msg = str(e)
        if logging is None:
            _log.log(level, msg, exc_info=e)
        elif level >= _logging.ERROR:
            logging.error(msg, e)
        elif level >= _logging.WARNING:
            logging.warn(msg, e)
        elif level >= _logging.INFO:
            logging.info(msg, e)
        elif level >= _logging.DEBUG:
            logging.debug(msg, e)
        else:
            logging.trace(msg, e)


def delete(files: Iterable[str | os.PathLike[str]]) -> None:
    """Deletes each file or directory, directories with everything under them; missing ones are skipped."""
    for f in files:
        delete_recursive(f)


def delete_recursive(path: str | os.PathLike[str] | None) -> None:
    """Utils.delete: removes a file, or a directory tree; a missing path is not an error."""
    if path is None:
        return
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, onerror=_ignore_missing)
    else:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


def _ignore_missing(func: Callable[..., Any], path: str, exc_info: Any) -> None:
    if not isinstance(exc_info[1], FileNotFoundError):
        raise exc_info[1]


def create_file(path: str | os.PathLike[str]) -> str:
    """Creates an empty file, failing if it already exists (as File.createNewFile returning false did)."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        raise OSError(f"Failed to create file {os.fspath(path)}.") from None
    os.close(fd)
    return os.fspath(path)


def try_all(all_fns: Iterable[Callable[[], Any]]) -> None:
    """Calls every function even if some raise; re-raises the first error, with the later ones attached as notes."""
    first: BaseException | None = None
    for fn in all_fns:
        try:
            fn()
        except BaseException as e:
            if first is None:
                first = e
            else:
                # PORT: Java's addSuppressed -> an exception note naming the suppressed error.
                first.add_note(f"Suppressed: {e!r}")
    if first is not None:
        raise first


def parse_csv_map(s: str) -> dict[str, str]:
    """`k1:v1, k2:v2` -> {k1: v1, k2: v2}; the last ':' of a pair splits it, so keys may hold ':' (IPv6)."""
    if s == "":
        return {}
    result: dict[str, str] = {}
    for pair in _split_csv(s):
        i = pair.rfind(":")
        result[pair[:i].strip()] = pair[i + 1 :].strip()
    return result


def parse_csv_list(csv_list: str | None) -> list[str]:
    """Splits on commas (dropping the whitespace around them) and drops empty entries."""
    if not csv_list:
        return []
    return [v for v in _split_csv(csv_list) if v != ""]


_CSV_SEPARATOR = re.compile(r"\s*,\s*")


def _split_csv(s: str) -> list[str]:
    # As Java's split("\\s*,\\s*"): whitespace goes only around commas, and trailing empty strings are dropped.
    out = _CSV_SEPARATOR.split(s)
    while out and out[-1] == "":
        out.pop()
    return out


def create_object(class_name: str, *args: Any) -> Any:
    """Instantiates a class named by its dotted path (`package.module.ClassName`) with `args`."""
    module_name, _, cls_name = class_name.rpartition(".")
    cls = getattr(importlib.import_module(module_name), cls_name)
    return cls(*args)


def circular_iterator(coll: Iterable[T]) -> Iterator[T]:
    """Loops over `coll` for ever (nothing if it is empty)."""
    items = list(coll)
    return itertools.cycle(items)


def replace_suffix(s: str, old_suffix: str, new_suffix: str) -> str:
    """`s` with `old_suffix` replaced by `new_suffix`; ValueError if `s` does not end with `old_suffix`."""
    if not s.endswith(old_suffix):
        raise ValueError(f"Expected string to end with '{old_suffix}' but string is '{s}'")
    return s[: len(s) - len(old_suffix)] + new_suffix


def read_int(b: bytes | bytearray | memoryview, offset: int) -> int:
    """The signed big-endian 32-bit integer at `offset`."""
    return int.from_bytes(b[offset : offset + 4], "big", signed=True)


def in_lock(lock: _Lock | threading.Lock | threading.RLock, fun: Callable[[], T]) -> T:
    """Runs `fun` holding `lock` (`with lock:` says the same; kept so ported call sites read alike)."""
    lock.acquire()
    try:
        return fun()
    finally:
        lock.release()


def in_read_lock(lock: _ReadWriteLock, fun: Callable[[], T]) -> T:
    return in_lock(lock.read_lock, fun)


def in_write_lock(lock: _ReadWriteLock, fun: Callable[[], T]) -> T:
    return in_lock(lock.write_lock, fun)


def duplicates(s: Iterable[T]) -> set[T]:
    """The items that occur more than once."""
    seen: set[Any] = set()
    dups: set[T] = set()
    for x in s:
        if x in seen:
            dups.add(x)
        else:
            seen.add(x)
    return dups


def generate_uuid_as_base64() -> str:
    """A random UUID as URL-safe base64 without padding (22 characters), as cluster ids are made."""
    return base64.urlsafe_b64encode(get_bytes_from_uuid(uuid.uuid4())).rstrip(b"=").decode("ascii")


def get_bytes_from_uuid(u: uuid.UUID) -> bytes:
    """The 16 bytes of `u`, most significant first."""
    return u.bytes


def props_with(*props: tuple[str, str]) -> dict[str, str]:
    """A properties map holding the given pairs."""
    return dict(props)


def atomic_get_or_update(m: dict[K, V], key: K, create_value: Callable[[], V]) -> V:
    """The value of `key`, inserting `create_value()` if absent; every racing caller gets the inserted value."""
    v = m.get(key)
    if v is not None:
        return v
    return m.setdefault(key, create_value())  # setdefault is atomic under the GIL


def group_map_reduce(
    elements: Iterable[T], key: Callable[[T], K], f: Callable[[T], B], reduce: Callable[[B, B], B]
) -> dict[K, B]:
    """Groups by `key`, maps each element with `f` and folds each group with `reduce`."""
    result: dict[K, B] = {}
    for e in elements:
        k = key(e)
        v = f(e)
        result[k] = reduce(result[k], v) if k in result else v
    return result


# ---- how Scala prints values ----------------------------------------------------------------------------------------
# Log lines, tool output and exception messages that Kafka builds with Scala's toString; one home for the formats.


def scala_option(value: object) -> str:
    """An Option as Scala prints it: `Some(5)`, or `None` for an absent value."""
    return "None" if value is None else f"Some({value})"


def scala_set(values: Iterable[object]) -> str:
    """A Set as Scala prints it, in the order given: `Set(a, b)`. Callers sort or deduplicate where they need to."""
    return "Set(" + ", ".join(str(v) for v in values) + ")"
