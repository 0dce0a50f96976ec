"""Tests of kafka.utils.log4j_appenders: DailyRollingFileAppender's periods and names, on a fake clock."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest

from kafka.utils.log4j_appenders import DailyRollingFileHandler, next_check, parse_file_size, rolling_period
from kafka.utils.log4j_pattern_layout import JavaDateFormat, PatternLayout


def _local(*fields: int) -> float:
    return time.mktime((*fields, 0, 0, -1))  # type: ignore[arg-type]


def test_rolling_period_follows_the_date_pattern() -> None:
    """The period is the smallest unit the DatePattern shows, as log4j's RollingCalendar finds it."""
    assert rolling_period(JavaDateFormat("'.'yyyy-MM-dd-HH")) == "hour"
    assert rolling_period(JavaDateFormat("'.'yyyy-MM-dd")) == "day"
    assert rolling_period(JavaDateFormat("'.'yyyy-MM-dd-HH-mm")) == "minute"
    assert rolling_period(JavaDateFormat("'.'yyyy-MM-dd-a")) == "half-day"
    assert rolling_period(JavaDateFormat("'.'yyyy-ww")) == "week"
    assert rolling_period(JavaDateFormat("'.'yyyy-MM")) == "month"
    assert rolling_period(JavaDateFormat("'.'yyyy")) is None


def test_next_check_is_on_the_unit() -> None:
    """Rolling happens at the top of the unit in local time, not a period after start-up."""
    t = _local(2026, 11, 28, 13, 41, 7)
    assert next_check("hour", t) == _local(2026, 11, 28, 14, 0, 0)
    assert next_check("minute", t) == _local(2026, 11, 28, 13, 42, 0)
    assert next_check("half-day", t) == _local(2026, 11, 29, 0, 0, 0)
    assert next_check("day", t) == _local(2026, 11, 29, 0, 0, 0)
    assert next_check("month", t) == _local(2026, 12, 1, 0, 0, 0)
    assert next_check("week", t) == _local(2026, 11, 30, 0, 0, 0)  # a Monday


class _FakeClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_hourly_rolling_with_kafka_file_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """server.log rolls on the hour into server.log.YYYY-MM-DD-HH named for the hour it holds; nothing is deleted."""
    clock = _FakeClock(_local(2026, 11, 28, 12, 58, 0))
    monkeypatch.setattr(time, "time", clock)
    path = tmp_path / "server.log"
    path.touch()
    os.utime(path, (clock.now, clock.now))  # created "now" on the fake clock
    handler = DailyRollingFileHandler(str(path), "'.'yyyy-MM-dd-HH")
    handler.setFormatter(PatternLayout("%m%n"))
    handler.terminator = ""
    logger = logging.getLogger("test.log4j.rolling")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        logger.info("at 12:58")
        clock.now = _local(2026, 11, 28, 12, 59, 59)
        logger.info("at 12:59:59")
        clock.now = _local(2026, 11, 28, 13, 0, 1)
        logger.info("at 13:00:01")
        clock.now = _local(2026, 11, 28, 15, 30, 0)  # a quiet hour: the next line rolls the 13h file
        logger.info("at 15:30")
    finally:
        logger.removeHandler(handler)
        handler.close()
    assert sorted(os.listdir(tmp_path)) == ["server.log", "server.log.2026-11-28-12", "server.log.2026-11-28-13"]
    assert (tmp_path / "server.log.2026-11-28-12").read_text() == "at 12:58\nat 12:59:59\n"
    assert (tmp_path / "server.log.2026-11-28-13").read_text() == "at 13:00:01\n"
    assert path.read_text() == "at 15:30\n"


def test_existing_file_rolls_under_its_own_hour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file left from an earlier hour is rolled, at the first line, under the hour of its last change."""
    path = tmp_path / "server.log"
    path.write_text("old\n")
    old = _local(2026, 11, 28, 9, 15, 0)
    os.utime(path, (old, old))
    monkeypatch.setattr(time, "time", _FakeClock(_local(2026, 11, 28, 11, 0, 5)))
    handler = DailyRollingFileHandler(str(path), "'.'yyyy-MM-dd-HH")
    handler.terminator = ""
    handler.setFormatter(PatternLayout("%m%n"))
    try:
        handler.handle(logging.LogRecord("x", logging.INFO, "f", 1, "new", None, None))
    finally:
        handler.close()
    assert (tmp_path / "server.log.2026-11-28-09").read_text() == "old\n"
    assert path.read_text() == "new\n"


def test_parse_file_size() -> None:
    """log4j's sizes: bytes or KB/MB/GB, the default for anything else."""
    assert parse_file_size("10MB", 1) == 10 * 1024 * 1024
    assert parse_file_size("100kb", 1) == 100 * 1024
    assert parse_file_size("512", 1) == 512
    assert parse_file_size("ten", 7) == 7
