"""Tests of core_utils, after Kafka's CoreUtilsTest."""

from __future__ import annotations

import base64
import logging
import os
import threading
from pathlib import Path

import pytest

from kafka.utils import core_utils
from kafka.utils.logging import Logging
from kafka.utils.read_write_lock import ReentrantReadWriteLock


class Named(Logging):
    logger_name = "kafka.test.CoreUtilsTest"
    log_ident = "[test] "


def test_swallow_logs_at_given_level(caplog: pytest.LogCaptureFixture) -> None:
    """swallow runs the action, keeps its exception from escaping and logs it at the level asked for."""

    def boom() -> None:
        raise RuntimeError("swallowed")

    with caplog.at_level(logging.DEBUG, logger="kafka.test.CoreUtilsTest"):
        core_utils.swallow(boom, Named(), logging.INFO)
    (record,) = [r for r in caplog.records if r.name == "kafka.test.CoreUtilsTest"]
    assert record.levelno == logging.INFO and record.getMessage() == "[test] swallowed"
    ran: list[int] = []
    core_utils.swallow(lambda: ran.append(1), Named())
    assert ran == [1]


def test_try_all_runs_everything_and_raises_first() -> None:
    """try_all calls every function and re-raises the first error with the later ones noted."""
    calls: list[str] = []

    def fail(name: str) -> None:
        calls.append(name)
        raise ValueError(name)

    with pytest.raises(ValueError, match="first") as info:
        core_utils.try_all([lambda: fail("first"), lambda: calls.append("ok"), lambda: fail("second")])
    assert calls == ["first", "ok", "second"]
    assert any("second" in note for note in info.value.__notes__)


def test_replace_suffix() -> None:
    """replace_suffix swaps a suffix and rejects strings without it."""
    assert core_utils.replace_suffix("00000000000000000000.log.deleted", ".deleted", "") == "00000000000000000000.log"
    assert core_utils.replace_suffix("foo.txt", ".txt", ".text") == "foo.text"
    assert core_utils.replace_suffix("foo", "", ".txt") == "foo.txt"
    with pytest.raises(ValueError, match="Expected string to end with"):
        core_utils.replace_suffix("foo.txt", ".log", ".index")


def test_parse_csv_map_and_list() -> None:
    """CSV parsing splits on commas with surrounding spaces, and splits pairs on the last colon."""
    assert core_utils.parse_csv_map("") == {}
    assert core_utils.parse_csv_map("a:1, b : 2 ,c:3") == {"a": "1", "b": "2", "c": "3"}
    assert core_utils.parse_csv_map("PLAINTEXT://[::1]:9092:PLAINTEXT") == {"PLAINTEXT://[::1]:9092": "PLAINTEXT"}
    assert core_utils.parse_csv_list("a, b ,,c,") == ["a", "b", "c"]
    assert core_utils.parse_csv_list("") == [] and core_utils.parse_csv_list(None) == []


def test_delete_and_create_file(tmp_path: Path) -> None:
    """delete removes files and whole trees and skips missing paths; create_file refuses an existing file."""
    tree = tmp_path / "dir" / "sub"
    tree.mkdir(parents=True)
    (tree / "f").write_bytes(b"x")
    created = core_utils.create_file(tmp_path / "file")
    assert os.path.isfile(created)
    with pytest.raises(OSError, match="Failed to create file"):
        core_utils.create_file(tmp_path / "file")
    core_utils.delete([tmp_path / "dir", created, tmp_path / "missing"])
    assert list(tmp_path.iterdir()) == []


def test_in_lock_helpers() -> None:
    """in_lock / in_read_lock / in_write_lock run the function holding the lock and return its result."""
    lock = threading.Lock()
    assert core_utils.in_lock(lock, lambda: lock.locked()) is True
    assert not lock.locked()
    rw = ReentrantReadWriteLock()
    assert core_utils.in_read_lock(rw, rw.get_read_lock_count) == 1
    assert core_utils.in_write_lock(rw, rw.is_write_locked_by_current_thread) is True
    assert rw.get_read_lock_count() == 0 and not rw.is_write_locked()
    empty: dict[str, int] = {}
    with pytest.raises(KeyError):
        core_utils.in_lock(lock, lambda: empty["x"])
    assert not lock.locked()


def test_small_helpers() -> None:
    """read_int, duplicates, min_or, circular_iterator, group_map_reduce and atomic_get_or_update behave as Kafka's."""
    assert core_utils.read_int(b"\x00\x00\x01\x00\xff\xff\xff\xfe", 0) == 256
    assert core_utils.read_int(b"\x00\x00\x01\x00\xff\xff\xff\xfe", 4) == -2
    assert core_utils.duplicates([1, 2, 2, 3, 3, 3]) == {2, 3}
    assert core_utils.min_or([3, 1, 2], -1, key=lambda x: x) == 1
    assert core_utils.min_or([], -1, key=lambda x: x) == -1
    it = core_utils.circular_iterator([1, 2])
    assert [next(it) for _ in range(5)] == [1, 2, 1, 2, 1]
    words = ["a", "bb", "cc", "ddd"]
    assert core_utils.group_map_reduce(words, len, lambda _: 1, lambda x, y: x + y) == {1: 1, 2: 2, 3: 1}
    m: dict[str, int] = {"k": 1}
    assert core_utils.atomic_get_or_update(m, "k", lambda: 2) == 1
    assert core_utils.atomic_get_or_update(m, "j", lambda: 3) == 3 and m == {"k": 1, "j": 3}
    assert core_utils.props_with(("a", "1"), ("b", "2")) == {"a": "1", "b": "2"}
    assert isinstance(core_utils.create_object("collections.OrderedDict"), dict)


def test_generate_uuid_as_base64() -> None:
    """Generated ids are 22 URL-safe characters that decode to 16 bytes, and differ."""
    a, b = core_utils.generate_uuid_as_base64(), core_utils.generate_uuid_as_base64()
    assert len(a) == 22 and a != b
    assert "=" not in a and "+" not in a and "/" not in a
    assert len(base64.urlsafe_b64decode(a + "==")) == 16
