"""Tests of kafka.utils.log4j_property_configurator: log4j.properties files read into Python's logging."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest

from kafka.server.config_helper import Log4jController
from kafka.utils.log4j_appenders import DailyRollingFileHandler
from kafka.utils.log4j_property_configurator import (
    PropertyConfigurator,
    _reset,
    configuration_file,
    subst_vars,
    system_properties,
)

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    _reset()
    root.handlers[:] = handlers
    root.setLevel(level)


def test_system_properties_and_configuration_file() -> None:
    """-D options of KAFKA_LOG4J_OPTS and KAFKA_OPTS are the system properties; log4j.configuration names the file."""
    env = {
        "KAFKA_LOG4J_OPTS": "-Dkafka.logs.dir=/var/log/kafka -Dlog4j.configuration=file:/etc/kafka/log4j.properties",
        "KAFKA_OPTS": "-Xmx1G -Dfoo=bar",
        "LOG_DIR": "/elsewhere",
    }
    props = system_properties(env)
    assert props == {
        "kafka.logs.dir": "/var/log/kafka",
        "log4j.configuration": "file:/etc/kafka/log4j.properties",
        "foo": "bar",
    }
    assert configuration_file(props) == "/etc/kafka/log4j.properties"
    assert configuration_file({"log4j.configuration": "file:///opt/x%20y/l.properties"}) == "/opt/x y/l.properties"
    assert configuration_file({}) is None
    assert system_properties({"LOG_DIR": "/logs"}) == {"kafka.logs.dir": "/logs"}


def test_subst_vars() -> None:
    """${name} is the system property, else the file's property, else empty; an unclosed brace is an error."""
    assert subst_vars("${a}/x/${b}/${c}", {"b": "B${a}", "a": "fileA"}, {"a": "sysA"}) == "sysA/x/BsysA/"
    with pytest.raises(ValueError):
        subst_vars("${open", {}, {})


def test_kafka_log4j_properties(tmp_path: Path) -> None:
    """Kafka's config/log4j.properties: root INFO to stdout and server.log; the controller, state-change, request,
    cleaner and authorizer loggers in their own files, hourly, not additive; the request logger at WARN."""
    err = io.StringIO()
    configurator = PropertyConfigurator({"kafka.logs.dir": str(tmp_path)}, err=err)
    assert configurator.configure_file(str(ROOT / "config" / "log4j.properties"))
    assert err.getvalue() == ""
    root = logging.getLogger()
    assert root.level == logging.INFO
    assert [h.get_name() for h in root.handlers] == ["stdout", "kafkaAppender"]
    server = root.handlers[1]
    assert isinstance(server, DailyRollingFileHandler) and server.period == "hour"
    assert server.baseFilename == str(tmp_path / "server.log")
    for name, appender, level in [
        ("kafka.controller", "controllerAppender", "TRACE"),
        ("state.change.logger", "stateChangeAppender", "INFO"),
        ("kafka.request.logger", "requestAppender", "WARN"),
        ("kafka.log.LogCleaner", "cleanerAppender", "INFO"),
        ("kafka.authorizer.logger", "authorizerAppender", "INFO"),
    ]:
        logger = logging.getLogger(name)
        assert [h.get_name() for h in logger.handlers] == [appender]
        assert not logger.propagate
        assert Log4jController.loggers()[name] == level
    # The request appender is shared by the two loggers naming it.
    assert (
        logging.getLogger("kafka.network.RequestChannel$").handlers
        == logging.getLogger("kafka.request.logger").handlers
    )
    logging.getLogger("kafka.controller.KafkaController").debug("controller line")
    logging.getLogger("kafka.server.ReplicaManager").info("server line")
    logging.getLogger("kafka.server.ReplicaManager").debug("not logged")
    for h in logging.getLogger("kafka.controller").handlers + root.handlers:
        h.flush()
    controller = (tmp_path / "controller.log").read_text()
    assert controller.endswith(" DEBUG controller line (kafka.controller.KafkaController)\n")
    server_text = (tmp_path / "server.log").read_text()
    assert server_text.endswith(" INFO server line (kafka.server.ReplicaManager)\n")
    assert "controller line" not in server_text and "not logged" not in server_text


def test_appender_kinds_threshold_and_warnings(tmp_path: Path) -> None:
    """File, RollingFile and Console appenders with their options; bad classes, levels and conversion characters
    give log4j-style warnings and configuration goes on."""
    err = io.StringIO()
    PropertyConfigurator({}, err=err).do_configure(
        {
            "log4j.rootLogger": "WARN, file, rolling, odd",
            "log4j.appender.file": "org.apache.log4j.FileAppender",
            "log4j.appender.file.File": f"{tmp_path}/sub/plain.log",
            "log4j.appender.file.Threshold": "ERROR",
            "log4j.appender.file.layout": "org.apache.log4j.PatternLayout",
            "log4j.appender.file.layout.ConversionPattern": "%p %c %Q %m%n",
            "log4j.appender.rolling": "org.apache.log4j.RollingFileAppender",
            "log4j.appender.rolling.file": f"{tmp_path}/rolling.log",
            "log4j.appender.rolling.MaxFileSize": "1KB",
            "log4j.appender.rolling.MaxBackupIndex": "3",
            "log4j.appender.rolling.layout": "org.apache.log4j.SimpleLayout",
            "log4j.appender.odd": "org.apache.log4j.net.SyslogAppender",
            "log4j.logger.my.pkg": "BOGUS",
            "log4j.logger.other": "INHERITED, file",
            "log4j.additivity.other": "false",
        }
    )
    root = logging.getLogger()
    assert [h.get_name() for h in root.handlers] == ["file", "rolling"]
    rolling = root.handlers[1]
    assert isinstance(rolling, RotatingFileHandler)
    assert (rolling.maxBytes, rolling.backupCount) == (1024, 3)
    assert logging.getLogger("my.pkg").level == logging.DEBUG
    assert logging.getLogger("other").level == logging.NOTSET and not logging.getLogger("other").propagate
    warnings = err.getvalue()
    assert "log4j:ERROR Could not instantiate class [org.apache.log4j.net.SyslogAppender]" in warnings
    assert 'log4j:WARN Could not convert [BOGUS] to a Level for logger "my.pkg"' in warnings
    assert "log4j:WARN Appender [file]: Unexpected conversion character [Q]" in warnings
    logging.getLogger("a.b").warning("warned")
    logging.getLogger("a.b").error("failed")
    for h in root.handlers:
        h.flush()
    assert (tmp_path / "sub" / "plain.log").read_text() == "ERROR a.b %Q failed\n"
    assert (tmp_path / "rolling.log").read_text() == "WARN - warned\nERROR - failed\n"


def test_tools_log4j_properties(capsys: pytest.CaptureFixture[str]) -> None:
    """Kafka's config/tools-log4j.properties: WARN and above on stderr in Kafka's layout."""
    assert PropertyConfigurator({}).configure_file(str(ROOT / "config" / "tools-log4j.properties"))
    logging.getLogger("kafka.tools.X").info("quiet")
    logging.getLogger("kafka.tools.X").warning("loud")
    out, err = capsys.readouterr()
    assert out == "" and err.endswith("] WARN loud (kafka.tools.X)\n") and "quiet" not in err


def test_missing_file_is_an_error_line(tmp_path: Path) -> None:
    """A configuration file that cannot be read is reported, not raised."""
    err = io.StringIO()
    assert not PropertyConfigurator({}, err=err).configure_file(str(tmp_path / "nope.properties"))
    assert "log4j:ERROR Could not read configuration file" in err.getvalue()
