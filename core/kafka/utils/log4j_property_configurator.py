"""Stands in for log4j 1.2's org.apache.log4j.PropertyConfigurator (and the parts of OptionConverter it uses).

The broker and the tools read their logging set-up from a log4j.properties file as Kafka's do
(config/log4j.properties, config/tools-log4j.properties, or the file `-Dlog4j.configuration=file:...` in
KAFKA_LOG4J_OPTS names) and build it on Python's logging: a log4j logger is a `logging.Logger` of the same name,
its level the logger's level, its additivity `propagate`, and each appender a handler shared by the loggers
that name it:

- `log4j.rootLogger=LEVEL, appender...` (or `log4j.rootCategory`), `log4j.logger.NAME=LEVEL, appender...`
  (or `log4j.category.NAME`), `log4j.additivity.NAME=false`, `log4j.threshold=LEVEL`;
- appenders of class ConsoleAppender (Target System.out or System.err), FileAppender (File, Append),
  RollingFileAppender (MaxFileSize, MaxBackupIndex; Python's RotatingFileHandler) and DailyRollingFileAppender
  (DatePattern; kafka.utils.log4j_appenders.DailyRollingFileHandler), each with Threshold and a layout:
  PatternLayout/EnhancedPatternLayout with its ConversionPattern, SimpleLayout or TTCCLayout;
- `${name}` in a value is the system property `name` (a `-Dname=value` of KAFKA_LOG4J_OPTS or KAFKA_OPTS, as
  the JVM would have it from kafka-run-class.sh), else the property `name` of the file, else empty.

What log4j would report on its console (an appender class it cannot load, a bad conversion pattern, a file it
cannot open) is written to stderr as `log4j:WARN ...` / `log4j:ERROR ...` lines, and start-up goes on.

# PORT: log4j's other appenders (SocketAppender, SyslogAppender, JDBC, ...), its filters, renderers, XML
configuration (DOMConfigurator) and `log4j.configuratorClass` are not supported: each is reported as above and
skipped. `kafka.logs.dir` falls back to $LOG_DIR when no -D option sets it (log4j would leave it empty).
Options log4j would accept without effect here (BufferedIO, BufferSize, ImmediateFlush, Encoding other than
UTF-8's spellings, ...) are accepted and ignored.
"""

from __future__ import annotations

import logging
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from logging.handlers import RotatingFileHandler
from typing import TextIO
from urllib.parse import unquote, urlparse

from kafka.common.utils.utils import load_props
from kafka.utils.log4j_appenders import (
    DEFAULT_DATE_PATTERN,
    DailyRollingFileHandler,
    ensure_parent_dir,
    parse_file_size,
)
from kafka.utils.log4j_pattern_layout import DEFAULT_CONVERSION_PATTERN, TTCC_CONVERSION_PATTERN, PatternLayout
from kafka.utils.logging import LOG4J_LEVELS

__all__ = [
    "PropertyConfigurator",
    "configuration_file",
    "subst_vars",
    "system_properties",
]

ROOT_LOGGER_PREFIX = "log4j.rootLogger"
ROOT_CATEGORY_PREFIX = "log4j.rootCategory"
LOGGER_PREFIX = "log4j.logger."
CATEGORY_PREFIX = "log4j.category."
ADDITIVITY_PREFIX = "log4j.additivity."
APPENDER_PREFIX = "log4j.appender."
THRESHOLD_PREFIX = "log4j.threshold"
INHERITED = frozenset({"INHERITED", "NULL"})

_LOG4J = "org.apache.log4j."
_CONSOLE = {"ConsoleAppender", _LOG4J + "ConsoleAppender"}
_FILE = {"FileAppender", _LOG4J + "FileAppender"}
_ROLLING = {"RollingFileAppender", _LOG4J + "RollingFileAppender"}
_DAILY = {"DailyRollingFileAppender", _LOG4J + "DailyRollingFileAppender"}
_PATTERN_LAYOUTS = {
    _LOG4J + "PatternLayout",
    _LOG4J + "EnhancedPatternLayout",
    "PatternLayout",
    "EnhancedPatternLayout",
}
_SIMPLE_LAYOUT = {_LOG4J + "SimpleLayout", "SimpleLayout"}
_TTCC_LAYOUT = {_LOG4J + "TTCCLayout", "TTCCLayout"}

# The handlers the last configuration installed, and the loggers it set, so that configuring again replaces them.
_installed_handlers: list[logging.Handler] = []
_configured_loggers: set[str] = set()


def system_properties(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The `-Dname=value` options of KAFKA_LOG4J_OPTS and KAFKA_OPTS, as the JVM's system properties."""
    environ = os.environ if environ is None else environ
    props: dict[str, str] = {}
    for var in ("KAFKA_OPTS", "KAFKA_LOG4J_OPTS"):
        try:
            words = shlex.split(environ.get(var, ""))
        except ValueError:
            words = environ.get(var, "").split()
        for word in words:
            if word.startswith("-D"):
                name, _, value = word[2:].partition("=")
                if name:
                    props[name] = value
    if "kafka.logs.dir" not in props and environ.get("LOG_DIR"):
        props["kafka.logs.dir"] = environ["LOG_DIR"]
    return props


def configuration_file(sys_props: Mapping[str, str]) -> str | None:
    """The file `log4j.configuration` names (a `file:` URL or a path), or None when it names none."""
    value = sys_props.get("log4j.configuration", "").strip()
    if not value:
        return None
    if value.startswith("file:"):
        url = urlparse(value)
        return unquote(url.path) if url.path else value[len("file:") :]
    return value


def subst_vars(value: str, props: Mapping[str, str], sys_props: Mapping[str, str]) -> str:
    """`${name}` replaced by the system property, else the property, else nothing (recursively, as log4j)."""
    out: list[str] = []
    i = 0
    while True:
        j = value.find("${", i)
        if j < 0:
            out.append(value[i:])
            return "".join(out)
        k = value.find("}", j)
        if k < 0:
            raise ValueError(f'"{value}" has no closing brace. Opening brace at position {j}.')
        out.append(value[i:j])
        key = value[j + 2 : k]
        replacement = sys_props.get(key, props.get(key))
        if replacement is not None:
            out.append(subst_vars(replacement, props, sys_props))
        i = k + 1


def _level(name: str) -> int | None:
    """log4j's Level.toLevel; None for what is no level name."""
    return LOG4J_LEVELS.get(name.strip().upper())


def _decapitalize(name: str) -> str:
    return name[:1].lower() + name[1:] if not name[1:2].isupper() else name


class PropertyConfigurator:
    """Configures Python's logging from log4j 1.2 properties. `system_properties` are what `${...}` sees first;
    `throwable_renderer` prints an exception after a line (default: Python's traceback); warnings go to `err`."""

    def __init__(
        self,
        system_properties: Mapping[str, str] | None = None,
        throwable_renderer: Callable[[BaseException], str] | None = None,
        err: TextIO | None = None,
    ) -> None:
        self.system_properties = dict(system_properties or {})
        self.throwable_renderer = throwable_renderer
        self._err = err
        self._appenders: dict[str, logging.Handler | None] = {}
        self._props: Mapping[str, str] = {}

    def warn(self, msg: str) -> None:
        err = self._err or sys.stderr
        err.write(f"log4j:WARN {msg}\n")
        err.flush()

    def error(self, msg: str) -> None:
        err = self._err or sys.stderr
        err.write(f"log4j:ERROR {msg}\n")
        err.flush()

    def configure_file(self, path: str) -> bool:
        """Configures from the file at `path`; False (and an error line) when it cannot be read."""
        if path.endswith(".xml"):
            self.error(f"Could not parse url [{path}]: XML configuration (DOMConfigurator) is not supported.")
            return False
        try:
            props = load_props(path)
        except OSError as e:
            self.error(f"Could not read configuration file [{path}]. {e}")
            self.error(f"Ignoring configuration file [{path}].")
            return False
        self.do_configure(props)
        return True

    def do_configure(self, props: Mapping[str, str]) -> None:
        """Replaces the logging set-up with the one `props` describe."""
        self._props = props
        self._appenders = {}
        _reset()
        threshold = self._value(THRESHOLD_PREFIX)
        if threshold:
            level = _level(threshold)
            if level is None:
                self.warn(f'Could not convert [{threshold}] to Level for "{THRESHOLD_PREFIX}".')
            else:
                logging.disable(level - 1 if level > logging.NOTSET else logging.NOTSET)
        root_key = ROOT_LOGGER_PREFIX if ROOT_LOGGER_PREFIX in props else ROOT_CATEGORY_PREFIX
        root_value = self._value(root_key)
        if root_value is None:
            self.warn("Could not find root logger information. Is this OK?")
        else:
            self._parse_category(logging.getLogger(), "root", root_value, is_root=True)
        for key in props:
            for prefix in (CATEGORY_PREFIX, LOGGER_PREFIX):
                if key.startswith(prefix):
                    name = key[len(prefix) :]
                    logger = logging.getLogger(name)
                    _configured_loggers.add(name)
                    self._parse_category(logger, name, self._value(key) or "", is_root=False)
                    additivity = self._value(ADDITIVITY_PREFIX + name)
                    if additivity is not None and additivity.strip():
                        logger.propagate = additivity.strip().lower() != "false"

    def _value(self, key: str) -> str | None:
        raw = self._props.get(key)
        if raw is None:
            return None
        try:
            return subst_vars(raw, self._props, self.system_properties).strip()
        except ValueError as e:
            self.error(f"Bad value for [{key}]: {e}")
            return None

    def _parse_category(self, logger: logging.Logger, name: str, value: str, is_root: bool) -> None:
        parts = [p.strip() for p in value.split(",")]
        if not value.startswith(",") and parts[0]:
            level_str = parts[0]
            if level_str.upper() in INHERITED:
                if is_root:
                    self.warn("The root logger cannot be set to null.")
                else:
                    logger.setLevel(logging.NOTSET)
            else:
                level = _level(level_str)
                if level is None:
                    # log4j's Level.toLevel falls back to DEBUG.
                    self.warn(f'Could not convert [{level_str}] to a Level for logger "{name}"; using DEBUG.')
                    level = logging.DEBUG
                logger.setLevel(level)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        for appender_name in parts[1:]:
            if not appender_name:
                continue
            handler = self._parse_appender(appender_name)
            if handler is not None:
                logger.addHandler(handler)

    def _parse_appender(self, name: str) -> logging.Handler | None:
        if name in self._appenders:
            return self._appenders[name]
        prefix = APPENDER_PREFIX + name
        class_name = self._value(prefix)
        handler: logging.Handler | None = None
        if class_name is None:
            self.error(f"Could not find value for key {prefix}")
        else:
            try:
                handler = self._create_handler(name, class_name, prefix)
            except OSError as e:
                self.error(f"Could not open the file of appender [{name}]: {e}")
        self._appenders[name] = handler
        if handler is not None:
            _installed_handlers.append(handler)
        return handler

    def _option(self, prefix: str, option: str) -> str | None:
        """An appender's option, its name read as a Java bean property (`File` or `file`)."""
        value = self._value(f"{prefix}.{option}")
        if value is None:
            value = self._value(f"{prefix}.{_decapitalize(option)}")
        return value

    def _create_handler(self, name: str, class_name: str, prefix: str) -> logging.Handler | None:
        handler: logging.StreamHandler[TextIO] | logging.FileHandler
        if class_name in _CONSOLE:
            target = (self._option(prefix, "Target") or "System.out").strip()
            if target not in ("System.out", "System.err"):
                self.warn(f"[{target}] should be System.out or System.err.")
                self.warn("Using previously set target, System.out by default.")
            stream = sys.stderr if target == "System.err" else sys.stdout
            handler = logging.StreamHandler(stream)
        elif class_name in _FILE or class_name in _ROLLING or class_name in _DAILY:
            file = self._option(prefix, "File")
            if not file:
                self.error(f"File option not set for appender [{name}].")
                self.warn("Are you using FileAppender instead of ConsoleAppender?")
                return None
            append = (self._option(prefix, "Append") or "true").lower() != "false"
            ensure_parent_dir(file)
            if class_name in _DAILY:
                date_pattern = self._option(prefix, "DatePattern") or DEFAULT_DATE_PATTERN
                try:
                    handler = DailyRollingFileHandler(file, date_pattern, append=append)
                except ValueError as e:
                    self.error(f"Bad DatePattern [{date_pattern}] for appender [{name}]: {e}")
                    return None
                if handler.period is None:
                    self.warn(f"Unknown periodicity for appender [{name}].")
            elif class_name in _ROLLING:
                max_size = parse_file_size(self._option(prefix, "MaxFileSize") or "", 10 * 1024 * 1024)
                max_index = self._option(prefix, "MaxBackupIndex")
                backups = int(max_index) if max_index and max_index.strip().isdigit() else 1
                handler = RotatingFileHandler(
                    file, mode="a" if append else "w", maxBytes=max_size, backupCount=backups, encoding="utf-8"
                )
            else:
                handler = logging.FileHandler(file, mode="a" if append else "w", encoding="utf-8")
        else:
            self.error(f'Could not instantiate class [{class_name}] for appender "{name}": not supported here.')
            return None
        handler.set_name(name)
        handler.terminator = ""  # the layout ends its lines
        handler.setFormatter(self._layout(name, prefix))
        threshold = self._option(prefix, "Threshold")
        if threshold:
            level = _level(threshold)
            if level is None:
                self.warn(f'Could not convert [{threshold}] to a Level for appender "{name}".')
            else:
                handler.setLevel(level)
        return handler

    def _layout(self, name: str, prefix: str) -> logging.Formatter:
        layout_prefix = prefix + ".layout"
        layout_class = self._value(layout_prefix)
        pattern = DEFAULT_CONVERSION_PATTERN
        if layout_class is None:
            self.error(f"No layout set for the appender named [{name}].")
        elif layout_class in _PATTERN_LAYOUTS:
            # Unstripped: trailing spaces are part of a pattern.
            raw = self._props.get(layout_prefix + ".ConversionPattern")
            if raw is None:
                raw = self._props.get(layout_prefix + ".conversionPattern")
            if raw:
                try:
                    pattern = subst_vars(raw.lstrip(), self._props, self.system_properties)
                except ValueError as e:
                    self.error(f"Bad ConversionPattern for appender [{name}]: {e}")
        elif layout_class in _SIMPLE_LAYOUT:
            pattern = "%p - %m%n"
        elif layout_class in _TTCC_LAYOUT:
            pattern = TTCC_CONVERSION_PATTERN
        else:
            self.error(f"Could not instantiate class [{layout_class}] for appender [{name}]: not supported here.")
        warnings: list[str] = []
        layout = PatternLayout(pattern, warnings, self.throwable_renderer)
        for warning in warnings:
            self.warn(f"Appender [{name}]: {warning}")
        return layout


def _reset() -> None:
    """Takes away what the last configuration set up: its handlers, its loggers' levels and additivity."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for name in _configured_loggers:
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            if handler in _installed_handlers:
                logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
        logger.propagate = True
    _configured_loggers.clear()
    for handler in _installed_handlers:
        try:
            handler.close()
        except Exception:
            pass
    _installed_handlers.clear()
    root.setLevel(logging.DEBUG)  # log4j's root logger level when none is given
    logging.disable(logging.NOTSET)
