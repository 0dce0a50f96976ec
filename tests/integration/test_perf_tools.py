"""bin/kafka-producer-perf-test.sh and bin/kafka-consumer-perf-test.sh run as a user runs them, on our Python clients,
against a broker started with bin/kafka-server-start.sh: the records the producer test sends are all in the topic
(counted with confluent-kafka), the consumer test reads them back, and every figure line they print is in Kafka's
format and parses. No timing is asserted: how fast is the business of tests/bench/perf_tools_bench.py."""

from __future__ import annotations

import re
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import BrokerProcess

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "bin"

NUMBER = r"(?:\d+\.\d+|NaN|Infinity)"
WINDOW_LINE = re.compile(
    rf"(\d+) records sent, ({NUMBER}) records/sec \(({NUMBER}) MB/sec\), ({NUMBER}) ms avg latency, "
    rf"({NUMBER}) ms max latency\."
)
TOTAL_LINE = re.compile(
    r"(\d+) records sent, (\d+\.\d{6}) records/sec \((\d+\.\d{2}) MB/sec\), (\d+\.\d{2}) ms avg latency, "
    r"(\d+\.\d{2}) ms max latency, (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th, (\d+) ms 99\.9th\."
)
CONSUMER_HEADER = (
    "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, "
    "fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec"
)
DATE = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:\d{3}"
CONSUMER_LINE = re.compile(
    rf"({DATE}), ({DATE}), (\d+\.\d{{4}}), ({NUMBER}), (\d+), ({NUMBER}), (\d+), (-?\d+), ({NUMBER}), ({NUMBER})"
)
DETAILED_LINE = re.compile(
    rf"({DATE}), 0, (\d+\.\d{{4}}), ({NUMBER}), (\d+), ({NUMBER}), (\d+), (-?\d+), ({NUMBER}), ({NUMBER})"
)


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("perf"))
    b = BrokerProcess(work, zookeeper.connect_string + "/perf-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@dataclass
class Run:
    status: int
    out: str
    err: str


def tool(script: str, *args: str, timeout: float = 300) -> Run:
    done = subprocess.run([str(BIN / script), *args], capture_output=True, text=True, timeout=timeout)
    return Run(done.returncode, done.stdout, done.stderr)


def new_topic(broker: BrokerProcess, partitions: int = 3) -> str:
    name = f"perf-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=30)[name].result(30)
    return name


def records_in(broker: BrokerProcess, topic: str, partitions: int = 3) -> int:
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "perf-check"})
    try:
        total = 0
        for p in range(partitions):
            low, high = consumer.get_watermark_offsets(ck.TopicPartition(topic, p), timeout=30)
            total += high - low
        return total
    finally:
        consumer.close()


def producer_perf(broker: BrokerProcess, topic: str, *args: str) -> Run:
    return tool(
        "kafka-producer-perf-test.sh",
        "--topic",
        topic,
        *args,
        "--producer-props",
        f"bootstrap.servers={broker.bootstrap}",
    )


def test_producer_perf_sends_every_record(broker: BrokerProcess) -> None:
    """Every record is in the topic, and the final line, in Kafka's format, counts them all."""
    topic = new_topic(broker)
    run = producer_perf(broker, topic, "--num-records", "20000", "--record-size", "100", "--throughput", "-1")
    assert run.status == 0, run.err
    lines = run.out.splitlines()
    total = TOTAL_LINE.fullmatch(lines[-1])
    assert total is not None, lines[-1]
    assert int(total.group(1)) == 20000
    p50, p95, p99, p999 = (int(total.group(i)) for i in range(6, 10))
    assert p50 <= p95 <= p99 <= p999 <= float(total.group(5))
    assert all(WINDOW_LINE.fullmatch(line) for line in lines[:-1]), lines
    assert records_in(broker, topic) == 20000


def test_producer_perf_takes_bootstrap_server_and_command_config(broker: BrokerProcess, tmp_path: Path) -> None:
    """Like every tool here, the producer perf test takes --bootstrap-server and --command-config."""
    topic = new_topic(broker)
    config = tmp_path / "client.properties"
    config.write_text("acks=all\nclient.id=perf-with-command-config\n")
    run = tool(
        "kafka-producer-perf-test.sh",
        "--topic",
        topic,
        "--num-records",
        "500",
        "--record-size",
        "10",
        "--throughput",
        "-1",
        "--bootstrap-server",
        broker.bootstrap,
        "--command-config",
        str(config),
    )
    assert run.status == 0, run.err
    assert TOTAL_LINE.fullmatch(run.out.splitlines()[-1]) is not None
    assert records_in(broker, topic) == 500


def test_producer_perf_progress_lines_while_throttled(broker: BrokerProcess) -> None:
    """Held to 1500 records/s, the test runs past one 5 s window and prints a progress line in Kafka's format."""
    topic = new_topic(broker)
    run = producer_perf(
        broker,
        topic,
        "--num-records",
        "9000",
        "--record-size",
        "50",
        "--throughput",
        "1500",
        "--producer-props",
        "acks=1",
    )
    assert run.status == 0, run.err
    lines = run.out.splitlines()
    windows = [WINDOW_LINE.fullmatch(line) for line in lines[:-1]]
    assert windows and all(windows), lines
    assert sum(int(w.group(1)) for w in windows if w) < 9000
    total = TOTAL_LINE.fullmatch(lines[-1])
    assert total is not None and total.group(1) == "9000"
    assert records_in(broker, topic) == 9000


def test_producer_perf_payload_file_and_config_file(broker: BrokerProcess, tmp_path: Path) -> None:
    """Payloads come from a file split at the delimiter; producer settings from --producer.config; only those
    payloads arrive."""
    payloads = tmp_path / "payloads.txt"
    payloads.write_text("alpha,beta,gamma")
    config = tmp_path / "producer.properties"
    config.write_text(f"bootstrap.servers={broker.bootstrap}\nacks=all\ncompression.type=gzip\n")
    topic = new_topic(broker, partitions=1)
    run = tool(
        "kafka-producer-perf-test.sh",
        "--topic",
        topic,
        "--num-records",
        "300",
        "--payload-file",
        str(payloads),
        "--payload-delimiter",
        ",",
        "--throughput",
        "-1",
        "--producer.config",
        str(config),
    )
    assert run.status == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == f"Reading payloads from: {payloads}"
    assert lines[1] == "Number of messages read: 3"
    assert TOTAL_LINE.fullmatch(lines[-1]) is not None
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "payload-check"})
    consumer.assign([ck.TopicPartition(topic, 0, 0)])
    try:
        seen = [m.value() for m in consumer.consume(300, timeout=30)]
    finally:
        consumer.close()
    assert len(seen) == 300 and set(seen) <= {b"alpha", b"beta", b"gamma"}


def test_producer_perf_print_metrics_and_errors(broker: BrokerProcess) -> None:
    """--print-metrics prints the producer's metrics after the totals; missing producer settings give argparse4j's
    error line."""
    topic = new_topic(broker)
    run = producer_perf(
        broker, topic, "--num-records", "10", "--record-size", "10", "--throughput", "-1", "--print-metrics"
    )
    assert run.status == 0, run.err
    lines = run.out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("Metric Name"))
    assert TOTAL_LINE.fullmatch(lines[header - 2]) is not None and lines[header - 1] == ""
    assert any(
        re.fullmatch(r"producer-metrics:record-send-total:\{client-id=[^}]*\}\s* : 10\.000", line) for line in lines
    )
    run = tool(
        "kafka-producer-perf-test.sh",
        "--topic",
        topic,
        "--num-records",
        "10",
        "--record-size",
        "10",
        "--throughput",
        "-1",
    )
    assert run.status == 1
    assert run.err.splitlines()[-1] == (
        "producer-performance: error: Either --producer-props, --producer.config, --bootstrap-server or "
        "--command-config must be specified."
    )
    run = tool("kafka-producer-perf-test.sh", "--topic", topic, "--num-records", "10", "--throughput", "-1")
    assert run.status == 1
    assert run.err.splitlines()[-1] == (
        "producer-performance: error: one of the arguments --record-size --payload-file is required"
    )


def test_consumer_perf_reads_what_was_produced(broker: BrokerProcess) -> None:
    """The consumer test reads the records back: its one line, in Kafka's format, counts them and their MB."""
    topic = new_topic(broker)
    assert (
        producer_perf(broker, topic, "--num-records", "15000", "--record-size", "200", "--throughput", "-1").status == 0
    )
    run = tool(
        "kafka-consumer-perf-test.sh", "--bootstrap-server", broker.bootstrap, "--topic", topic, "--messages", "15000"
    )
    assert run.status == 0, run.err
    header, line = run.out.splitlines()
    assert header == CONSUMER_HEADER
    figures = CONSUMER_LINE.fullmatch(line)
    assert figures is not None, line
    assert int(figures.group(5)) == 15000
    assert figures.group(3) == f"{15000 * 200 / (1024 * 1024):.4f}"


def test_consumer_perf_detailed_stats_and_timeout(broker: BrokerProcess) -> None:
    """--show-detailed-stats prints interval lines instead of the summary; asking for more records than the topic
    holds ends after --timeout with Kafka's warning."""
    topic = new_topic(broker)
    assert (
        producer_perf(broker, topic, "--num-records", "3000", "--record-size", "100", "--throughput", "-1").status == 0
    )
    run = tool(
        "kafka-consumer-perf-test.sh",
        "--broker-list",
        broker.bootstrap,
        "--topic",
        topic,
        "--messages",
        "5000",
        "--timeout",
        "2000",
        "--show-detailed-stats",
        "--reporting-interval",
        "1",
        "--group",
        f"perf-group-{uuid.uuid4().hex[:6]}",
    )
    assert run.status == 0, run.err
    lines = run.out.splitlines()
    assert lines[0].startswith("time, threadId, data.consumed.in.MB")
    assert lines[-1] == (
        "WARNING: Exiting before consuming the expected number of messages: timeout (2000 ms) exceeded. You can use "
        "the --timeout option to increase the timeout."
    )
    detailed = [DETAILED_LINE.fullmatch(line) for line in lines[1:-1]]
    assert detailed and all(detailed), lines
    assert max(int(d.group(4)) for d in detailed if d) <= 3000


def test_consumer_perf_usage_errors(broker: BrokerProcess) -> None:
    """Missing options give Kafka's messages with status 1; --print-metrics prints the consumer's metrics."""
    run = tool("kafka-consumer-perf-test.sh", "--topic", "t", "--messages", "1")
    assert run.status == 1
    assert run.err.splitlines()[0] == "Missing required option(s) [bootstrap-server]"
    run = tool("kafka-consumer-perf-test.sh", "--bootstrap-server", broker.bootstrap, "--topic", "t")
    assert run.status == 1
    assert run.err.splitlines()[0] == 'Missing required argument "[messages]"'
    topic = new_topic(broker, partitions=1)
    assert producer_perf(broker, topic, "--num-records", "5", "--record-size", "10", "--throughput", "-1").status == 0
    run = tool(
        "kafka-consumer-perf-test.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        "--messages",
        "5",
        "--print-metrics",
        "--hide-header",
    )
    assert run.status == 0, run.err
    line, blank, header, *metrics = run.out.splitlines()
    figures = CONSUMER_LINE.fullmatch(line)
    assert figures is not None and figures.group(5) == "5"
    assert blank == "" and header.startswith("Metric Name")
    assert any(
        re.fullmatch(r"consumer-fetch-manager-metrics:records-consumed-total:\{client-id=[^}]*\}\s* : 5\.000", m)
        for m in metrics
    )
