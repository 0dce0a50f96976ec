"""Port of clients/src/main/java/org/apache/kafka/common/utils/LogContext.java (Kafka 3.7).

Client classes log through a LogContext so that every line carries the client's prefix, e.g.
`[Producer clientId=producer-1] `. Logger names are Java's fully qualified class names
(`org.apache.kafka.clients.NetworkClient`), so log configuration written for Java clients applies.

# PORT: Java's loggers format `{}` placeholders; callers here pass finished strings and guard expensive
trace/debug lines with is_trace_enabled()/is_debug_enabled().
"""

from __future__ import annotations

import logging

__all__ = ["TRACE", "KafkaLogger", "LogContext"]

TRACE = 5
if logging.getLevelName(TRACE) != "TRACE":
    logging.addLevelName(TRACE, "TRACE")


class KafkaLogger:
    """A logger that puts the context's prefix in front of each message."""

    __slots__ = ("_logger", "_prefix")

    def __init__(self, logger: logging.Logger, prefix: str) -> None:
        self._logger = logger
        self._prefix = prefix

    @property
    def name(self) -> str:
        return self._logger.name

    def is_trace_enabled(self) -> bool:
        return self._logger.isEnabledFor(TRACE)

    def is_debug_enabled(self) -> bool:
        return self._logger.isEnabledFor(logging.DEBUG)

    def is_info_enabled(self) -> bool:
        return self._logger.isEnabledFor(logging.INFO)

    def trace(self, msg: str, exc: BaseException | None = None) -> None:
        if self._logger.isEnabledFor(TRACE):
            self._logger.log(TRACE, self._prefix + msg, exc_info=exc)

    def debug(self, msg: str, exc: BaseException | None = None) -> None:
        if self._logger.isEnabledFor(logging.DEBUG):
            self._logger.debug(self._prefix + msg, exc_info=exc)

    def info(self, msg: str, exc: BaseException | None = None) -> None:
        if self._logger.isEnabledFor(logging.INFO):
            self._logger.info(self._prefix + msg, exc_info=exc)

    def warn(self, msg: str, exc: BaseException | None = None) -> None:
        self._logger.warning(self._prefix + msg, exc_info=exc)

    def error(self, msg: str, exc: BaseException | None = None) -> None:
        self._logger.error(self._prefix + msg, exc_info=exc)


class LogContext:
    """A log prefix shared by the loggers of one client instance."""

    __slots__ = ("_log_prefix",)

    def __init__(self, log_prefix: str | None = None) -> None:
        self._log_prefix = log_prefix or ""

    def logger(self, name: str) -> KafkaLogger:
        """The prefixed logger named `name` (a Java class name such as org.apache.kafka.clients.Metadata)."""
        return KafkaLogger(logging.getLogger(name), self._log_prefix)

    def log_prefix(self) -> str:
        return self._log_prefix
