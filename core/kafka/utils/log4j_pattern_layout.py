"""Stands in for log4j 1.2's org.apache.log4j.PatternLayout and the java.text.SimpleDateFormat patterns it uses.

Kafka's config/log4j.properties lays every line out with a PatternLayout `ConversionPattern` such as
`[%d] %p %m (%c)%n`. `PatternLayout` is a `logging.Formatter` that reads such a pattern: the conversion
characters c, C, d, F, l, L, m, M, n, p, r, t, x, X and %%, with log4j's format modifiers (`%-5p`, `%20c`,
`%.30c`), `%c{N}` (the last N parts of the logger name) and `%d{...}` (ISO8601, ABSOLUTE, DATE or a
SimpleDateFormat pattern). `JavaDateFormat` formats a SimpleDateFormat pattern (also the DatePattern of a
DailyRollingFileAppender, see kafka.utils.log4j_appenders).

# PORT: Python has no caller class, NDC or MDC as Java has. `%C` is the logger name (ours are Kafka's class
names); `%F`, `%L`, `%M` and `%l` are Python's file, line and function; `%x` is empty; `%X{key}` is the
record's attribute `key` (what `extra={"key": ...}` sets), empty when there is none, and `%X` alone is
empty. An unknown conversion character is reported once by the configurator and printed as it stands.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["DEFAULT_CONVERSION_PATTERN", "JavaDateFormat", "PatternLayout", "parse_pattern"]

# log4j's PatternLayout without a ConversionPattern prints the message alone.
DEFAULT_CONVERSION_PATTERN = "%m%n"
TTCC_CONVERSION_PATTERN = "%r [%t] %p %c %x - %m%n"

_NAMED_DATE_FORMATS = {
    "ISO8601": "yyyy-MM-dd HH:mm:ss,SSS",
    "ABSOLUTE": "HH:mm:ss,SSS",
    "DATE": "dd MMM yyyy HH:mm:ss,SSS",
}

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]  # fmt: skip
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_DATE_LETTERS = frozenset("GyYMLwWDdFEuaHkKhmsSzZX")


def _zone_offset(tm: time.struct_time) -> int:
    return tm.tm_gmtoff if tm.tm_gmtoff is not None else -time.timezone


def _date_field(letter: str, count: int) -> Callable[[time.struct_time, int], str]:
    """One SimpleDateFormat field: a function of (local time, milliseconds)."""

    def num(fn: Callable[[time.struct_time], int]) -> Callable[[time.struct_time, int], str]:
        return lambda tm, ms: str(fn(tm)).zfill(count)

    if letter == "G":
        return lambda tm, ms: "AD"
    if letter in "yY":
        if count == 2:
            return lambda tm, ms: f"{tm.tm_year % 100:02d}"
        return num(lambda tm: tm.tm_year)
    if letter in "ML":
        if count >= 4:
            return lambda tm, ms: _MONTHS[tm.tm_mon - 1]
        if count == 3:
            return lambda tm, ms: _MONTHS[tm.tm_mon - 1][:3]
        return num(lambda tm: tm.tm_mon)
    if letter == "w":  # PORT: the ISO 8601 week number (weeks from Monday); Java's depends on the locale
        return num(lambda tm: int(time.strftime("%V", tm)))
    if letter == "W":
        # Weeks starting on Monday, as for `w`.
        return num(lambda tm: (tm.tm_mday - 1 + (tm.tm_wday - (tm.tm_mday - 1)) % 7) // 7 + 1)
    if letter == "D":
        return num(lambda tm: tm.tm_yday)
    if letter == "d":
        return num(lambda tm: tm.tm_mday)
    if letter == "F":
        return num(lambda tm: (tm.tm_mday - 1) // 7 + 1)
    if letter == "E":
        if count >= 4:
            return lambda tm, ms: _DAYS[tm.tm_wday]
        return lambda tm, ms: _DAYS[tm.tm_wday][:3]
    if letter == "u":
        return num(lambda tm: tm.tm_wday + 1)
    if letter == "a":
        return lambda tm, ms: "AM" if tm.tm_hour < 12 else "PM"
    if letter == "H":
        return num(lambda tm: tm.tm_hour)
    if letter == "k":
        return num(lambda tm: tm.tm_hour or 24)
    if letter == "K":
        return num(lambda tm: tm.tm_hour % 12)
    if letter == "h":
        return num(lambda tm: tm.tm_hour % 12 or 12)
    if letter == "m":
        return num(lambda tm: tm.tm_min)
    if letter == "s":
        return num(lambda tm: tm.tm_sec)
    if letter == "S":
        return lambda tm, ms: str(ms).zfill(count)
    if letter == "z":
        return lambda tm, ms: tm.tm_zone or time.strftime("%Z", tm)
    if letter == "Z":

        def rfc822(tm: time.struct_time, ms: int) -> str:
            off = _zone_offset(tm)
            sign = "-" if off < 0 else "+"
            off = abs(off) // 60
            return f"{sign}{off // 60:02d}{off % 60:02d}"

        return rfc822

    def iso8601(tm: time.struct_time, ms: int) -> str:  # X, XX, XXX
        off = _zone_offset(tm)
        if off == 0:
            return "Z"
        sign = "-" if off < 0 else "+"
        off = abs(off) // 60
        hh, mm = f"{off // 60:02d}", f"{off % 60:02d}"
        return sign + hh if count == 1 else sign + hh + mm if count == 2 else f"{sign}{hh}:{mm}"

    return iso8601


def _text(s: str) -> Callable[[time.struct_time, int], str]:
    return lambda tm, ms: s


class JavaDateFormat:
    """A java.text.SimpleDateFormat pattern (`yyyy-MM-dd HH:mm:ss,SSS`, `'.'yyyy-MM-dd-HH`) for formatting
    local times; a letter SimpleDateFormat does not know raises ValueError, as Java's constructor refuses it."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        parts: list[Callable[[time.struct_time, int], str]] = []
        i, n = 0, len(pattern)
        while i < n:
            c = pattern[i]
            if c == "'":
                end = i + 1
                text = []
                while end < n:
                    if pattern[end] == "'":
                        if end + 1 < n and pattern[end + 1] == "'":
                            text.append("'")
                            end += 2
                            continue
                        break
                    text.append(pattern[end])
                    end += 1
                if end >= n:
                    raise ValueError(f"Unterminated quote in date pattern {pattern!r}")
                literal = "'" if end == i + 1 else "".join(text)
                parts.append(_text(literal))
                i = end + 1
            elif c.isascii() and c.isalpha():
                if c not in _DATE_LETTERS:
                    raise ValueError(f"Illegal pattern character '{c}' in date pattern {pattern!r}")
                end = i
                while end < n and pattern[end] == c:
                    end += 1
                parts.append(_date_field(c, end - i))
                i = end
            else:
                parts.append(_text(c))
                i += 1
        self._parts = parts
        self._last: tuple[int, time.struct_time] = (-1, time.localtime(0))

    def format(self, seconds: float) -> str:
        """`seconds` since the epoch, in local time."""
        total_ms = round(seconds * 1000)  # Java's times are whole milliseconds
        second, ms = divmod(total_ms, 1000)
        last = self._last  # lines come many to a second: localtime once per second
        if last[0] == second:
            tm = last[1]
        else:
            tm = time.localtime(second)
            self._last = (second, tm)
        return "".join(part(tm, ms) for part in self._parts)


# A converter turns a record into its piece of the line.
_Converter = Callable[[logging.LogRecord], str]


def _logger_name(precision: int | None) -> _Converter:
    if precision is None:
        return lambda r: r.name
    return lambda r: ".".join(r.name.split(".")[-precision:])


def _date(option: str | None) -> _Converter:
    fmt = JavaDateFormat(_NAMED_DATE_FORMATS.get(option or "ISO8601", option or ""))
    return lambda r: fmt.format(r.created)


def _mdc(key: str | None) -> _Converter:
    if not key:
        return lambda r: ""
    return lambda r: str(getattr(r, key, ""))


def _with_modifiers(conv: _Converter, left: bool, min_width: int, max_width: int | None) -> _Converter:
    if not min_width and max_width is None:
        return conv

    def padded(r: logging.LogRecord) -> str:
        s = conv(r)
        if max_width is not None and len(s) > max_width:
            s = s[len(s) - max_width :]  # log4j keeps the end
        if len(s) < min_width:
            s = s.ljust(min_width) if left else s.rjust(min_width)
        return s

    return padded


def _converter(char: str, option: str | None) -> _Converter | None:
    if char in "cC":
        precision = int(option) if option and option.isdigit() and int(option) > 0 else None
        return _logger_name(precision)
    if char == "d":
        return _date(option)
    if char == "m":
        return lambda r: r.message
    if char == "p":
        return lambda r: r.levelname
    if char == "t":
        return lambda r: r.threadName or ""
    if char == "n":
        return lambda r: "\n"
    if char == "r":
        return lambda r: str(int(r.relativeCreated))
    if char == "F":
        return lambda r: r.filename
    if char == "L":
        return lambda r: str(r.lineno)
    if char == "M":
        return lambda r: r.funcName or ""
    if char == "l":
        return lambda r: f"{r.name}.{r.funcName}({r.filename}:{r.lineno})"
    if char == "x":
        return lambda r: ""
    if char == "X":
        return _mdc(option)
    return None


def parse_pattern(pattern: str, warnings: list[str] | None = None) -> list[_Converter]:
    """The converters of a ConversionPattern; what cannot be read is printed as it stands and described in
    `warnings`."""
    converters: list[_Converter] = []
    literal: list[str] = []

    def flush() -> None:
        if literal:
            text = "".join(literal)
            converters.append(lambda r: text)
            literal.clear()

    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c != "%":
            literal.append(c)
            i += 1
            continue
        start = i
        i += 1
        if i < n and pattern[i] == "%":
            literal.append("%")
            i += 1
            continue
        left = i < n and pattern[i] == "-"
        if left:
            i += 1
        digits_start = i
        while i < n and pattern[i].isdigit():
            i += 1
        min_width = int(pattern[digits_start:i]) if i > digits_start else 0
        max_width = None
        if i < n and pattern[i] == ".":
            i += 1
            digits_start = i
            while i < n and pattern[i].isdigit():
                i += 1
            max_width = int(pattern[digits_start:i]) if i > digits_start else None
        if i >= n:
            literal.append(pattern[start:])
            if warnings is not None:
                warnings.append(f"Unexpected end of pattern string {pattern!r}")
            break
        char = pattern[i]
        i += 1
        option = None
        if i < n and pattern[i] == "{":
            end = pattern.find("}", i)
            if end >= 0:
                option = pattern[i + 1 : end]
                i = end + 1
        try:
            conv = _converter(char, option)
        except ValueError as e:
            if warnings is not None:
                warnings.append(f"Bad date pattern {option!r} in {pattern!r} ({e}); using ISO8601")
            conv = _date(None)
        if conv is None:
            if warnings is not None:
                warnings.append(
                    f"Unexpected conversion character [{char}] at position {start} in conversion pattern {pattern!r}"
                )
            literal.append(pattern[start:i])
            continue
        flush()
        converters.append(_with_modifiers(conv, left, min_width, max_width))
    flush()
    return converters


class PatternLayout(logging.Formatter):
    """A log4j ConversionPattern as a logging.Formatter. The line ends where the pattern says (`%n`), so a handler
    using it has an empty terminator; an exception's trace follows the line, as a log4j appender prints it."""

    def __init__(
        self,
        conversion_pattern: str = DEFAULT_CONVERSION_PATTERN,
        warnings: list[str] | None = None,
        throwable_renderer: Callable[[BaseException], str] | None = None,
    ) -> None:
        super().__init__()
        self.conversion_pattern = conversion_pattern
        self._converters = parse_pattern(conversion_pattern, warnings)
        self._throwable_renderer = throwable_renderer

    def formatException(self, ei: logging._SysExcInfoType) -> str:
        if self._throwable_renderer is not None and ei[1] is not None:
            return self._throwable_renderer(ei[1])
        return super().formatException(ei)

    def format(self, record: logging.LogRecord) -> str:
        record.message = record.getMessage()
        line = "".join([conv(record) for conv in self._converters])
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line += record.exc_text + "\n"
        if record.stack_info:
            line += self.formatStack(record.stack_info) + "\n"
        return line
