"""Stands in for log4j 1.2's file appenders: org.apache.log4j.DailyRollingFileAppender (and its RollingCalendar)
and the size parsing of RollingFileAppender (OptionConverter.toFileSize).

`DailyRollingFileHandler` is Python's TimedRotatingFileHandler rolling where a DatePattern says: the period is
the smallest unit the pattern shows (minute, hour, half-day, day, week or month, found as log4j finds it by
formatting two instants a unit apart), aligned on that unit in local time, and the rolled file is named as
log4j names it, the file name followed by the pattern formatted for the period that ended
(`server.log` with `'.'yyyy-MM-dd-HH` -> `server.log.2026-11-28-13`). RollingFileAppender is Python's
RotatingFileHandler as it stands (`server.log.1`, `.2`, ... as log4j names them).
"""

from __future__ import annotations

import os
import re
import time
from logging.handlers import TimedRotatingFileHandler

from kafka.utils.log4j_pattern_layout import JavaDateFormat

__all__ = ["DEFAULT_DATE_PATTERN", "DailyRollingFileHandler", "parse_file_size", "rolling_period"]

DEFAULT_DATE_PATTERN = "'.'yyyy-MM-dd"

TOP_OF_MINUTE = "minute"
TOP_OF_HOUR = "hour"
HALF_DAY = "half-day"
TOP_OF_DAY = "day"
TOP_OF_WEEK = "week"
TOP_OF_MONTH = "month"

_PERIOD_SECONDS = {
    TOP_OF_MINUTE: 60,
    TOP_OF_HOUR: 3600,
    HALF_DAY: 12 * 3600,
    TOP_OF_DAY: 86400,
    TOP_OF_WEEK: 7 * 86400,
    TOP_OF_MONTH: 31 * 86400,
}


def rolling_period(date_format: JavaDateFormat) -> str | None:
    """The smallest unit that changes the formatted pattern, or None when no unit up to a month does."""
    # A Monday midnight, in local time, so that a week also starts there.
    base = time.mktime((2023, 1, 2, 0, 0, 0, 0, 0, -1))
    first = date_format.format(base)
    for period, seconds in _PERIOD_SECONDS.items():
        if date_format.format(base + seconds) != first:
            return period
    return None


def next_check(period: str, t: float) -> float:
    """The start of the period after the one holding `t`, in local time."""
    tm = time.localtime(t)
    whole = int(t)
    if period == TOP_OF_MINUTE:
        return whole - tm.tm_sec + 60
    if period == TOP_OF_HOUR:
        return whole - tm.tm_min * 60 - tm.tm_sec + 3600
    y, mon, d, h = tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour
    if period == HALF_DAY:
        return time.mktime((y, mon, d, 12, 0, 0, 0, 0, -1) if h < 12 else (y, mon, d + 1, 0, 0, 0, 0, 0, -1))
    if period == TOP_OF_DAY:
        return time.mktime((y, mon, d + 1, 0, 0, 0, 0, 0, -1))
    if period == TOP_OF_WEEK:
        # PORT: weeks start on Monday (ISO 8601); log4j asks the JVM's locale (Sunday in the US).
        days = (6 - tm.tm_wday) % 7 + 1
        return time.mktime((y, mon, d + days, 0, 0, 0, 0, 0, -1))
    return time.mktime((y, mon + 1, 1, 0, 0, 0, 0, 0, -1))


class DailyRollingFileHandler(TimedRotatingFileHandler):
    """log4j's DailyRollingFileAppender: rolls when a new period of `date_pattern` starts; the rolled file takes
    the pattern's name for the period it holds (given by the `namer`). Old files are never deleted, as in log4j."""

    def __init__(
        self,
        filename: str,
        date_pattern: str = DEFAULT_DATE_PATTERN,
        append: bool = True,
        encoding: str | None = "utf-8",
    ) -> None:
        self.date_format = JavaDateFormat(date_pattern)
        self.period = rolling_period(self.date_format)
        # The time whose period the current file holds: the file's last change when it exists, else now.
        self._file_period_time = time.time()
        ensure_parent_dir(filename)
        if not append:
            open(filename, "w").close()  # log4j's Append=false starts the file afresh
        super().__init__(filename, when="H", backupCount=0, encoding=encoding, delay=False)
        if self.period is not None:
            self.interval = _PERIOD_SECONDS[self.period]
        self.namer = self._kafka_name

    def computeRollover(self, currentTime: float) -> int:
        self._file_period_time = currentTime
        if self.period is None:
            return 2**62  # nothing to roll on
        return int(next_check(self.period, currentTime))

    def _kafka_name(self, default_name: str) -> str:
        return self.baseFilename + self.date_format.format(self._file_period_time)


_SIZE = re.compile(r"^\s*(\d+)\s*(KB|MB|GB)?\s*$", re.IGNORECASE)
_UNITS = {None: 1, "KB": 1024, "MB": 1024 * 1024, "GB": 1024 * 1024 * 1024}


def parse_file_size(value: str, default: int) -> int:
    """log4j's file sizes: a number of bytes, or of KB, MB or GB (`10MB`); `default` for what is not one."""
    m = _SIZE.match(value)
    if m is None:
        return default
    unit = m.group(2).upper() if m.group(2) else None
    return int(m.group(1)) * _UNITS[unit]


def ensure_parent_dir(path: str) -> None:
    """log4j's FileAppender creates the missing directories of its file."""
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
