"""Port of core/src/main/scala/kafka/utils/Logging.scala (Kafka 2.8).

The `Logging` mixin: a logger named as Kafka names it (the Scala class name, e.g.
`kafka.server.KafkaServer`, or an explicit name such as `state.change.logger`), an optional log ident
prefixed to every message (`[KafkaServer id=0] `), and log4j's levels including TRACE. `configure_logging`
sets logging up at start-up from a log4j.properties file, as log4j does for Kafka's JVM (the file
`-Dlog4j.configuration=file:...` in KAFKA_LOG4J_OPTS names; see kafka.utils.log4j_property_configurator):
Kafka's config/log4j.properties gives its layout and files (server.log, controller.log, state-change.log,
kafka-request.log, log-cleaner.log, kafka-authorizer.log under $LOG_DIR), rolled hourly.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any

TRACE = 5
ALL = 1
OFF = logging.CRITICAL + 10
logging.addLevelName(TRACE, "TRACE")
logging.addLevelName(logging.WARNING, "WARN")
logging.addLevelName(logging.CRITICAL, "FATAL")
logging.addLevelName(ALL, "ALL")
logging.addLevelName(OFF, "OFF")

# log4j 1.2's level names and the logging levels that stand for them.
LOG4J_LEVELS = {
    "OFF": OFF,
    "FATAL": logging.CRITICAL,
    "ERROR": logging.ERROR,
    "WARN": logging.WARNING,
    "INFO": logging.INFO,
    "DEBUG": logging.DEBUG,
    "TRACE": TRACE,
    "ALL": ALL,
}

# Kafka's log4j ConversionPattern: [%d] %p %m (%c)%n
LOG_FORMAT = "[%(asctime)s,%(msecs)03d] %(levelname)s %(message)s (%(name)s)"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class Logging:
    """Mixin giving `trace/debug/info/warn/error/fatal` with the log ident prefixed.

    A class sets `logger_name` (a class attribute, default: `kafka.<module path>.<ClassName>`, which is
    Kafka's for ported classes) and may set `log_ident` per instance."""

    logger_name: str | None = None
    log_ident: str | None = None
    # The class's logger once looked up (each class gets its own None, so that a subclass never inherits its
    # parent's): a plain attribute read for the guards below.
    _class_logger: logging.Logger | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._class_logger = None

    @property
    def logger(self) -> logging.Logger:
        cls = type(self)
        logger = _LOGGERS.get(cls)
        if logger is None:
            logger = logging.getLogger(cls.logger_name or _kafka_logger_name(cls))
            _LOGGERS[cls] = logger
        cls._class_logger = logger
        return logger

    def _msg(self, msg: str) -> str:
        return msg if self.log_ident is None else self.log_ident + msg

    # The guards below run tens of times per request, so each is one Python call: the class's logger from
    # _class_logger, and Logger.isEnabledFor's cached answer read inline. isEnabledFor keeps a per-logger cache of
    # answers by level, which Logger.setLevel (kafka-configs' broker-loggers, the log4j configurator),
    # logging.disable and the config functions clear for every logger, and answers False for a disabled logger; on a
    # cache miss isEnabledFor itself answers. So the guards follow level changes at run time as isEnabledFor does.

    def is_trace_enabled(self) -> bool:
        logger = self._class_logger or self.logger
        try:
            enabled: bool = logger._cache[TRACE]  # type: ignore[attr-defined]
        except KeyError:
            return logger.isEnabledFor(TRACE)
        return enabled and not logger.disabled

    def is_debug_enabled(self) -> bool:
        logger = self._class_logger or self.logger
        try:
            enabled: bool = logger._cache[logging.DEBUG]  # type: ignore[attr-defined]
        except KeyError:
            return logger.isEnabledFor(logging.DEBUG)
        return enabled and not logger.disabled

    def trace(self, msg: str, exc: BaseException | None = None) -> None:
        logger = self._class_logger or self.logger
        if logger.isEnabledFor(TRACE):
            logger.log(TRACE, self._msg(msg), exc_info=exc, stacklevel=2)

    def debug(self, msg: str, exc: BaseException | None = None) -> None:
        logger = self._class_logger or self.logger
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug(self._msg(msg), exc_info=exc, stacklevel=2)

    def info(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.info(self._msg(msg), exc_info=exc, stacklevel=2)

    def warn(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.warning(self._msg(msg), exc_info=exc, stacklevel=2)

    def error(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.error(self._msg(msg), exc_info=exc, stacklevel=2)

    def fatal(self, msg: str, exc: BaseException | None = None) -> None:
        self.logger.critical(self._msg(msg), exc_info=exc, stacklevel=2)


# One logger per class, looked up once: logging.getLogger takes a lock, and request paths log a lot.
_LOGGERS: dict[type, logging.Logger] = {}


def _kafka_logger_name(cls: type) -> str:
    module = cls.__module__.rsplit(".", 1)[0]  # kafka.server.kafka_server -> kafka.server
    return f"{module}.{cls.__name__}"


# The checkout's config/log4j.properties (core/kafka/utils/logging.py -> the checkout).
DEFAULT_LOG4J_PROPERTIES = Path(__file__).resolve().parents[3] / "config" / "log4j.properties"


def configure_logging(default_config: str | os.PathLike[str] | None = DEFAULT_LOG4J_PROPERTIES) -> None:
    """The broker's logging, from the log4j.properties file `-Dlog4j.configuration=file:...` in KAFKA_LOG4J_OPTS
    names (bin/kafka-server-start.sh points it at config/log4j.properties), else from `default_config`.
    `${kafka.logs.dir}` is the `-Dkafka.logs.dir` kafka-run-class.sh sets from LOG_DIR.
    KAFKA_LOG_LEVELS then overrides single loggers' levels."""
    from kafka.utils.log4j_property_configurator import PropertyConfigurator, configuration_file, system_properties

    sys_props = system_properties()
    path = configuration_file(sys_props)
    if path is None and default_config is not None and os.path.isfile(default_config):
        path = os.fspath(default_config)
    configurator = PropertyConfigurator(sys_props)
    if path is None or not configurator.configure_file(path):
        # PORT: log4j without a configuration logs nothing ("No appenders could be found"); we keep Kafka's layout
        # on the console, so that a broker started without its config files still says what it does.
        configurator.warn("No log4j configuration found: logging INFO and above to the console.")
        configurator.do_configure(
            {
                "log4j.rootLogger": "INFO, stdout",
                "log4j.appender.stdout": "org.apache.log4j.ConsoleAppender",
                "log4j.appender.stdout.layout": "org.apache.log4j.PatternLayout",
                "log4j.appender.stdout.layout.ConversionPattern": KAFKA_CONVERSION_PATTERN,
            }
        )
    apply_log_levels(os.environ.get("KAFKA_LOG_LEVELS", ""))
    sys.stdout.flush()


# The ConversionPattern of Kafka's log4j.properties files.
KAFKA_CONVERSION_PATTERN = "[%d] %p %m (%c)%n"


def apply_log_levels(spec: str) -> None:
    """Sets logger levels from `name=LEVEL,name=LEVEL` (as log4j.logger.name=LEVEL lines would), e.g.
    KAFKA_LOG_LEVELS=kafka.server.KafkaApis=DEBUG,kafka.request.logger=DEBUG."""
    for item in spec.split(","):
        name, sep, level = item.strip().partition("=")
        if sep and name:
            value = LOG4J_LEVELS.get(level.strip().upper())
            if value is not None:
                logging.getLogger(name.strip()).setLevel(value)
