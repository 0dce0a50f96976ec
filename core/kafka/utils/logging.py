"""Port of core/src/main/scala/kafka/utils/Logging.scala (Kafka 2.8).

The `Logging` mixin: a logger named as Kafka names it (the Scala class name, e.g.
`kafka.server.KafkaServer`, or an explicit name such as `state.change.logger`), an optional log ident
prefixed to every message (`[KafkaServer id=0] `), and Kafka's levels including TRACE. `configure_logging`
sets up Kafka's log4j layout and file split (server.log, controller.log, state-change.log,
kafka-request.log) under a log directory.
"""

from __future__ import annotations

import logging
import os
from typing import Any

TRACE = 5
logging.addLevelName(TRACE, "TRACE")
logging.addLevelName(logging.WARNING, "WARN")
logging.addLevelName(logging.CRITICAL, "FATAL")

# Kafka's log4j ConversionPattern: [%d] %p %m (%c)%n
LOG_FORMAT = "[%(asctime)s,%(msecs)03d] %(levelname)s %(message)s (%(name)s)"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class Logging:
    """Mixin giving `trace/debug/info/warn/error/fatal` with the log ident prefixed.

    A class sets `logger_name` (a class attribute, default: `kafka.<module path>.<ClassName>`, which is
    Kafka's for ported classes) and may set `log_ident` per instance."""

    logger_name: str | None = None
    log_ident: str | None = None

    @property
    def logger(self) -> logging.Logger:
        cls = type(self)
        logger = _LOGGERS.get(cls)
        if logger is None:
            logger = logging.getLogger(cls.logger_name or _kafka_logger_name(cls))
            _LOGGERS[cls] = logger
        return logger

    def _msg(self, msg: str) -> str:
        return msg if self.log_ident is None else self.log_ident + msg

    def is_trace_enabled(self) -> bool:
        return self.logger.isEnabledFor(TRACE)

    def is_debug_enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.DEBUG)

    def trace(self, msg: str, exc: BaseException | None = None) -> None:
        logger = self.logger
        if logger.isEnabledFor(TRACE):
            logger.log(TRACE, self._msg(msg), exc_info=exc)

    def debug(self, msg: str, exc: BaseException | None = None) -> None:
        logger = self.logger
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug(self._msg(msg), exc_info=exc)

    def info(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.info(self._msg(msg), exc_info=exc)

    def warn(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.warning(self._msg(msg), exc_info=exc)

    def error(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.error(self._msg(msg), exc_info=exc)

    def fatal(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.critical(self._msg(msg), exc_info=exc)


# One logger per class, looked up once: logging.getLogger takes a lock, and request paths log a lot.
_LOGGERS: dict[type, logging.Logger] = {}


def _kafka_logger_name(cls: type) -> str:
    module = cls.__module__.rsplit(".", 1)[0]  # kafka.server.kafka_server -> kafka.server
    return f"{module}.{cls.__name__}"


# Which loggers go to which file, as in Kafka's config/log4j.properties.
_FILES = {
    "controller.log": ["kafka.controller"],
    "state-change.log": ["state.change.logger"],
    "kafka-request.log": ["kafka.request.logger"],
    "log-cleaner.log": ["kafka.log.LogCleaner", "kafka.log.Cleaner", "kafka.log.LogCleanerManager"],
    "kafka-authorizer.log": ["kafka.authorizer.logger"],
}


def configure_logging(log_dir: str | None = None, level: int = logging.INFO, console: bool = True) -> None:
    """Kafka's logging layout: everything INFO+ to server.log (and stdout), with the controller,
    state-change, request and cleaner loggers also in their own files."""
    formatter = logging.Formatter(LOG_FORMAT, DATE_FORMAT)
    root = logging.getLogger()
    root.setLevel(level)
    for h in list(root.handlers):
        root.removeHandler(h)
    if console:
        sh = logging.StreamHandler()
        sh.setFormatter(formatter)
        root.addHandler(sh)
    if log_dir is None:
        return
    os.makedirs(log_dir, exist_ok=True)
    server = logging.FileHandler(os.path.join(log_dir, "server.log"))
    server.setFormatter(formatter)
    root.addHandler(server)
    for filename, names in _FILES.items():
        fh = logging.FileHandler(os.path.join(log_dir, filename))
        fh.setFormatter(formatter)
        for name in names:
            logger: Any = logging.getLogger(name)
            logger.addHandler(fh)
    # Request logging is at debug and stays out of server.log, as in Kafka.
    request_logger = logging.getLogger("kafka.request.logger")
    request_logger.propagate = False
    request_logger.setLevel(logging.WARNING)
    apply_log_levels(os.environ.get("KAFKA_LOG_LEVELS", ""))


def apply_log_levels(spec: str) -> None:
    """Sets logger levels from `name=LEVEL,name=LEVEL` (as log4j.logger.name=LEVEL lines would), e.g.
    KAFKA_LOG_LEVELS=kafka.server.KafkaApis=DEBUG,kafka.request.logger=DEBUG."""
    for item in spec.split(","):
        name, sep, level = item.strip().partition("=")
        if sep and name:
            value = logging.getLevelName(level.strip().upper())
            if isinstance(value, int):
                logging.getLogger(name.strip()).setLevel(value)
