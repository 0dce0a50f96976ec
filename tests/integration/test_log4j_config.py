"""A broker started from bin/kafka-server-start.sh logs as a log4j.properties file says: the one KAFKA_LOG4J_OPTS
names (another pattern, the request logger at DEBUG) with Kafka's files under $LOG_DIR; its loggers' levels are
then seen and changed with `kafka-configs.sh --entity-type broker-loggers`."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import confluent_kafka as ck
import pytest

from tests.integration.broker import ROOT, BrokerProcess
from tests.utils import wait_until_true

CONFIGS = ROOT / "bin" / "kafka-configs.sh"


def _configs(bootstrap: str, *args: str) -> str:
    result = subprocess.run(
        [str(CONFIGS), "--bootstrap-server", bootstrap, "--entity-type", "broker-loggers", "--entity-name", "0", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_broker_reads_the_log4j_properties_kafka_log4j_opts_names(  # type: ignore[no-untyped-def]
    zookeeper, zk_chroot: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Kafka's log4j.properties changed (the thread in server.log's pattern, kafka.request.logger at DEBUG)
    and named by KAFKA_LOG4J_OPTS, the broker writes server.log, controller.log, state-change.log,
    kafka-request.log and kafka-authorizer.log in $LOG_DIR as that file says; broker-loggers shows and changes
    the levels it set."""
    text = (ROOT / "config" / "log4j.properties").read_text()
    text = text.replace(
        "log4j.appender.kafkaAppender.layout.ConversionPattern=[%d] %p %m (%c)%n",
        "log4j.appender.kafkaAppender.layout.ConversionPattern=[%d] %p [%t] %m (%c)%n",
    )
    text = text.replace(
        "log4j.logger.kafka.request.logger=WARN, requestAppender",
        "log4j.logger.kafka.request.logger=DEBUG, requestAppender",
    )
    assert "[%t]" in text and "kafka.request.logger=DEBUG" in text
    properties = tmp_path / "my-log4j.properties"
    properties.write_text(text)
    monkeypatch.setenv("KAFKA_LOG4J_OPTS", f"-Dlog4j.configuration=file:{properties}")

    broker = BrokerProcess(tmp_path, zookeeper.connect_string + zk_chroot)
    broker.start()
    monkeypatch.delenv("KAFKA_LOG4J_OPTS")  # for the broker only: the tools keep tools-log4j.properties
    try:
        producer = ck.Producer({"bootstrap.servers": broker.bootstrap})
        producer.produce("log4j-topic", b"v")
        assert producer.flush(30) == 0
        logs = broker.app_log_dir

        def request_logged() -> bool:
            path = logs / "kafka-request.log"
            return path.exists() and '"requestApiKeyName":"PRODUCE"' in path.read_text(errors="replace")

        wait_until_true(request_logged, "the Produce request in kafka-request.log", timeout=30)
        assert sorted(p.name for p in logs.glob("*.log")) == [
            "controller.log",
            "kafka-authorizer.log",
            "kafka-request.log",
            "log-cleaner.log",
            "server.log",
            "state-change.log",
        ]
        server = (logs / "server.log").read_text(errors="replace")
        # server.log has the file's pattern, with the thread; the console keeps Kafka's.
        assert re.search(
            r"^\[[\d :,-]+\] INFO \[main\] \[KafkaServer id=0\] started \(kafka\.server\.KafkaServer\)$", server, re.M
        )
        console = broker.console_since_start()
        assert re.search(
            r"^\[[\d :,-]+\] INFO \[KafkaServer id=0\] started \(kafka\.server\.KafkaServer\)$", console, re.M
        )
        # Not additive: the controller's and the state change lines are in their own files only.
        controller = (logs / "controller.log").read_text(errors="replace")
        assert "(kafka.controller.KafkaController)" in controller
        assert "(kafka.controller." not in server
        state_change = (logs / "state-change.log").read_text(errors="replace")
        assert "(state.change.logger)" in state_change and "(state.change.logger)" not in server
        request_log = (logs / "kafka-request.log").read_text(errors="replace")
        assert re.search(
            r"^\[[\d :,-]+\] DEBUG Completed request:\{.*\} \(kafka\.request\.logger\)$", request_log, re.M
        )
        assert "Completed request:" not in server

        described = _configs(broker.bootstrap, "--describe")
        assert "kafka.request.logger=DEBUG" in described and "kafka.controller=TRACE" in described
        _configs(broker.bootstrap, "--alter", "--add-config", "kafka.request.logger=WARN")
        wait_until_true(
            lambda: "kafka.request.logger=WARN" in _configs(broker.bootstrap, "--describe"),
            "broker-loggers to show the new level",
            timeout=30,
        )
    finally:
        assert broker.stop() == 0, broker.console_tail()
