"""Tests of kafka.utils.log4j_pattern_layout: log4j's PatternLayout and SimpleDateFormat patterns."""

from __future__ import annotations

import logging
import sys
import time

import pytest

from kafka.utils.log4j_pattern_layout import JavaDateFormat, PatternLayout
from kafka.utils.logging import TRACE, Logging


def _record(
    name: str = "kafka.server.KafkaServer", level: int = logging.INFO, msg: str = "started", **extra: object
) -> logging.LogRecord:
    record = logging.LogRecord(name, level, "/x/kafka_server.py", 42, msg, None, None, func="startup")
    record.created = time.mktime((2026, 11, 28, 13, 5, 9, 0, 0, -1)) + 0.007
    record.threadName = "main"
    record.__dict__.update(extra)
    return record


def test_kafka_conversion_pattern() -> None:
    """Kafka's `[%d] %p %m (%c)%n` gives its familiar line, with log4j's level names."""
    layout = PatternLayout("[%d] %p %m (%c)%n")
    assert layout.format(_record()) == "[2026-11-28 13:05:09,007] INFO started (kafka.server.KafkaServer)\n"
    assert layout.format(_record(level=logging.WARNING)).startswith("[2026-11-28 13:05:09,007] WARN started")
    assert " FATAL " in layout.format(_record(level=logging.CRITICAL))
    assert " TRACE " in layout.format(_record(level=TRACE))


def test_conversion_characters_and_modifiers() -> None:
    """%t, %c{N}, %X{key}, %L/%M/%F, %% and the width and truncation modifiers work as in log4j."""
    record = _record(clientId="c1")
    assert PatternLayout("%t|%c{2}|%X{clientId}|%X{absent}|%%|%n").format(record) == "main|server.KafkaServer|c1||%|\n"
    assert PatternLayout("%F:%L %M").format(record) == "kafka_server.py:42 startup"
    assert PatternLayout("[%-6p][%6p][%.3c]").format(record) == "[INFO  ][  INFO][ver]"
    assert PatternLayout("%d{ABSOLUTE} %d{yyyy/MM/dd HH.mm}").format(record) == "13:05:09,007 2026/11/28 13.05"
    assert PatternLayout("%d{DATE}").format(record) == "28 Nov 2026 13:05:09,007"


def test_unknown_conversion_character_is_reported_and_printed() -> None:
    """An unknown conversion character is described in the warnings and kept in the line as written."""
    warnings: list[str] = []
    layout = PatternLayout("%p %Q %m", warnings)
    assert layout.format(_record()) == "INFO %Q started"
    assert len(warnings) == 1 and "[Q]" in warnings[0]


def test_exception_follows_the_line() -> None:
    """An exception's text comes after the line, as a log4j appender prints the throwable."""
    try:
        raise ValueError("bad")
    except ValueError:
        record = _record(level=logging.ERROR, exc_info=sys.exc_info())
    text = PatternLayout("%p %m%n", throwable_renderer=lambda e: f"java.lang.Thing: {e}").format(record)
    assert text == "ERROR started\njava.lang.Thing: bad\n"


def test_java_date_format() -> None:
    """SimpleDateFormat's quoting, numbers, names and refusal of unknown letters."""
    t = time.mktime((2026, 11, 28, 13, 5, 9, 0, 0, -1))
    assert JavaDateFormat("'.'yyyy-MM-dd-HH").format(t) == ".2026-11-28-13"
    assert JavaDateFormat("yy MMM MMMM EEE EEEE a hh ''").format(t) == "26 Nov November Sat Saturday PM 01 '"
    assert JavaDateFormat("'it''s' D").format(t) == "it's 332"
    with pytest.raises(ValueError):
        JavaDateFormat("yyyy-qq")


def test_location_is_the_callers_through_the_logging_mixin() -> None:
    """%M and %F name the code that called the Logging mixin's info(), not the mixin itself."""

    class Thing(Logging):
        logger_name = "test.log4j.Thing"

    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    # assignment: list.append takes its argument by position only, emit also by the name `record`.
    handler.emit = records.append  # type: ignore[method-assign,assignment]
    logger = logging.getLogger("test.log4j.Thing")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        Thing().info("hello")
    finally:
        logger.removeHandler(handler)
    assert PatternLayout("%F %M %m").format(records[0]) == (
        "test_log4j_pattern_layout.py test_location_is_the_callers_through_the_logging_mixin hello"
    )
