"""Tests of kafka.utils.logging's Logging mixin guards (core/src/main/scala/kafka/utils/Logging.scala)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from kafka.utils.logging import TRACE, Logging


class _Guarded(Logging):
    logger_name = "kafka.test.LoggingGuards"


@pytest.fixture
def guarded() -> Iterator[_Guarded]:
    logger = logging.getLogger(_Guarded.logger_name)
    saved_level, saved_disabled = logger.level, logger.disabled
    yield _Guarded()
    logger.setLevel(saved_level)
    logger.disabled = saved_disabled


def test_guards_follow_level_changes_at_run_time(guarded: _Guarded) -> None:
    """is_trace_enabled/is_debug_enabled answer as Logger.isEnabledFor after each setLevel, once their answers are
    cached (as a broker-loggers change through kafka-configs does at run time)."""
    logger = logging.getLogger(_Guarded.logger_name)
    for level, trace, debug in ((logging.INFO, False, False), (TRACE, True, True), (logging.DEBUG, False, True)):
        logger.setLevel(level)
        for _ in range(2):  # the second time from the cache isEnabledFor filled
            assert guarded.is_trace_enabled() is trace
            assert guarded.is_debug_enabled() is debug
            assert logger.isEnabledFor(TRACE) is trace


def test_guards_follow_a_parent_level_and_logging_disable(guarded: _Guarded) -> None:
    """A level set on a parent logger, and logging.disable, change the guards' answers as they change
    isEnabledFor's."""
    logger = logging.getLogger(_Guarded.logger_name)
    parent = logging.getLogger("kafka.test")
    saved_parent = parent.level
    try:
        logger.setLevel(logging.NOTSET)
        parent.setLevel(TRACE)
        assert guarded.is_trace_enabled()
        parent.setLevel(logging.WARNING)
        assert not guarded.is_debug_enabled()
        parent.setLevel(logging.DEBUG)
        assert guarded.is_debug_enabled()
        logging.disable(logging.DEBUG)
        try:
            assert not guarded.is_debug_enabled()
        finally:
            logging.disable(logging.NOTSET)
        assert guarded.is_debug_enabled()
    finally:
        parent.setLevel(saved_parent)


def test_guards_and_trace_of_a_disabled_logger(guarded: _Guarded, caplog: pytest.LogCaptureFixture) -> None:
    """A disabled logger (Logger.disabled, as dictConfig leaves existing loggers) is off for every guard, though its
    answers are cached as enabled; trace and debug then write nothing, and write the line once it is enabled."""
    logger = logging.getLogger(_Guarded.logger_name)
    logger.setLevel(TRACE)
    assert guarded.is_trace_enabled()
    logger.disabled = True
    assert not guarded.is_trace_enabled()
    assert not guarded.is_debug_enabled()
    with caplog.at_level(TRACE, logger=_Guarded.logger_name):
        guarded.trace("hidden")
        logger.disabled = False
        guarded.log_ident = "[G] "
        guarded.trace("shown")
        guarded.debug("too")
    assert [r.getMessage() for r in caplog.records if r.name == _Guarded.logger_name] == ["[G] shown", "[G] too"]
