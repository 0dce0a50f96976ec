"""Tests of ConsumerPerformance without a broker: its command line and consumer settings (after Kafka's
ConsumerPerformanceTest), the header and figure lines in Kafka's exact layout (on a MockTime), the rebalance time
taken from the listener, the timeout warning, and SimpleDateFormat patterns."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.tools import consumer_performance as perf
from kafka.utils.command_line_utils import MissingRequiredOptionsException, UsageException

HEADER = (
    "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, "
    "fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n"
)
DETAILED_HEADER = (
    "time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, "
    "fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n"
)


def config_of(args: list[str]) -> perf.ConsumerPerfConfig:
    config = perf.ConsumerPerfConfig(args)
    config.check_args(io.StringIO())
    return config


def test_header_for_both_modes() -> None:
    """The header names Kafka's ten columns, with `time, threadId` first in detailed mode."""
    out = io.StringIO()
    perf.print_header(False, out)
    perf.print_header(True, out)
    assert out.getvalue() == HEADER + DETAILED_HEADER


def test_config_with_bootstrap_server() -> None:
    """The options become the consumer's settings as Kafka sets them."""
    config = config_of(["--bootstrap-server", "localhost:9092", "--topic", "test", "--messages", "10"])
    assert config.props["bootstrap.servers"] == "localhost:9092"
    assert config.topic == "test"
    assert config.num_messages == 10
    assert re.fullmatch(r"perf-consumer-\d{1,5}", config.props["group.id"])
    assert config.props["max.partition.fetch.bytes"] == str(1024 * 1024)
    assert config.props["receive.buffer.bytes"] == str(2 * 1024 * 1024)
    assert config.props["auto.offset.reset"] == "earliest"
    assert config.props["check.crcs"] == "false"
    assert config.props["value.deserializer"] == "org.apache.kafka.common.serialization.ByteArrayDeserializer"
    assert config.record_fetch_timeout_ms == 10000
    assert config.reporting_interval == 5000


def test_config_with_broker_list_and_overrides(tmp_path: Path) -> None:
    """--broker-list stands in for --bootstrap-server; --group, --fetch-size, --from-latest and a config file apply."""
    conf = tmp_path / "consumer.properties"
    conf.write_text("client.id=perf\n")
    config = config_of(
        [
            "--broker-list",
            "localhost:9093",
            "--topic",
            "test",
            "--messages",
            "10",
            "--group",
            "g1",
            "--fetch-size",
            "500",
            "--from-latest",
            "--consumer.config",
            str(conf),
            "--timeout",
            "250",
        ]
    )
    assert config.props["bootstrap.servers"] == "localhost:9093"
    assert config.props["group.id"] == "g1"
    assert config.props["max.partition.fetch.bytes"] == "500"
    assert config.props["auto.offset.reset"] == "latest"
    assert config.props["client.id"] == "perf"
    assert config.record_fetch_timeout_ms == 250


def test_timeout_without_value_keeps_the_default() -> None:
    """--timeout takes an optional argument; alone it leaves the 10 s default."""
    config = config_of(["--bootstrap-server", "h:1", "--topic", "t", "--messages", "1", "--timeout"])
    assert config.record_fetch_timeout_ms == 10000


def test_missing_options() -> None:
    """Without --bootstrap-server or --broker-list parsing fails; without --messages the check does."""
    with pytest.raises(
        MissingRequiredOptionsException, match=re.escape("Missing required option(s) [bootstrap-server]")
    ):
        perf.ConsumerPerfConfig(["--topic", "t", "--messages", "1"])
    with pytest.raises(UsageException) as e:
        config_of(["--bootstrap-server", "h:1", "--topic", "t"])
    assert e.value.message == 'Missing required argument "[messages]"'


def test_deprecated_thread_options_warn() -> None:
    """--threads and --num-fetch-threads are accepted, ignored and warned about on stdout."""
    out = io.StringIO()
    config = perf.ConsumerPerfConfig(["--bootstrap-server", "h:1", "--topic", "t", "--messages", "1", "--threads", "3"])
    config.check_args(out)
    assert out.getvalue() == (
        "WARNING: option [threads] and [num-fetch-threads] have been deprecated and will be ignored by the test\n"
    )


def test_reporting_interval_must_be_positive() -> None:
    """A reporting interval of 0 ends the tool as the JVM reports Kafka's IllegalArgumentException."""
    err = io.StringIO()
    args = ["--bootstrap-server", "h:1", "--topic", "t", "--messages", "1", "--reporting-interval", "0"]
    assert perf.run_command(args, io.StringIO(), err) == 1
    assert err.getvalue() == (
        'Exception in thread "main" java.lang.IllegalArgumentException: Reporting interval must be greater than 0.\n'
    )


def test_detailed_progress_line() -> None:
    """A progress line: time, thread 0, totals and the interval's rates, then rebalance and fetch figures."""
    out = io.StringIO()
    date_format = perf.SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS")
    mb = 1024 * 1024
    perf.print_consumer_progress(0, 3 * mb, 1 * mb, 300, 100, 10_000, 12_000, date_format, 1000, out)
    expected_time = date_format.format(12_000)
    assert out.getvalue() == f"{expected_time}, 0, 3.0000, 1.0000, 300, 100.0000, 1000, 1000, 2.0000, 200.0000\n"
    out = io.StringIO()
    perf.print_consumer_progress(0, mb, mb, 5, 5, 10_000, 10_000, date_format, 0, out)
    assert out.getvalue().endswith(", 0, 1.0000, NaN, 5, NaN, 0, 0, 0.0000, 0.0000\n")


def test_simple_date_format() -> None:
    """Java date patterns are rendered in local time, quoted text kept."""
    epoch_ms = int(datetime(2021, 3, 4, 5, 6, 7, 89000).timestamp() * 1000)
    assert perf.SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS").format(epoch_ms) == "2021-03-04 05:06:07:089"
    assert perf.SimpleDateFormat("yy/M/d h:mm a 'at' EEE MMM").format(epoch_ms) == "21/3/4 5:06 AM at Thu Mar"
    with pytest.raises(ValueError, match="Illegal pattern character 'q'"):
        perf.SimpleDateFormat("qq")


class FakeConsumer:
    """Assigns its partitions on the first poll (after a rebalance delay), then hands out prepared polls."""

    def __init__(self, time: MockTime, polls: list[int], record_size: int = 100, join_ms: int = 40) -> None:
        self.time = time
        self.polls = list(polls)
        self.record_size = record_size
        self.join_ms = join_ms
        self.listener: Any = None
        self.topics: list[str] = []
        self.offset = 0
        self.closed = False

    def subscribe(self, topics: list[str], listener: Any = None) -> None:
        self.topics = topics
        self.listener = listener

    def poll(self, timeout_ms: int) -> ConsumerRecords[bytes, bytes]:
        if self.listener is not None:
            self.time.sleep(self.join_ms)
            self.listener.on_partitions_assigned([TopicPartition(self.topics[0], 0)])
            self.listener = None
        self.time.sleep(timeout_ms if not self.polls else 500)
        count = self.polls.pop(0) if self.polls else 0
        recs = [
            ConsumerRecord(self.topics[0], 0, self.offset + i, b"k", b"v" * (self.record_size - 1))
            for i in range(count)
        ]
        self.offset += count
        return ConsumerRecords({TopicPartition(self.topics[0], 0): recs} if recs else {})

    def metrics(self) -> dict[Any, Any]:
        return {}

    def close(self) -> None:
        self.closed = True


def run(args: list[str], consumer: FakeConsumer, time: MockTime) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()

    def factory(props: Mapping[str, str]) -> FakeConsumer:
        return consumer

    status = perf.run_command(args, out, err, factory, time)
    return status, out.getvalue(), err.getvalue()


def test_summary_line() -> None:
    """One summary line after the header: MB and record counts, rates, rebalance time and fetch rates."""
    time = MockTime(start_ms=1_600_000_000_000)
    consumer = FakeConsumer(time, [1000, 1000], record_size=1024 * 1024 // 1000)
    status, out, err = run(["--bootstrap-server", "h:1", "--topic", "t", "--messages", "2000"], consumer, time)
    assert status == 0, err
    assert consumer.closed
    header, line = out.splitlines(keepends=True)
    assert header == HEADER
    fields = line.rstrip("\n").split(", ")
    date_format = perf.SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS")
    assert fields[0] == date_format.format(1_600_000_000_000)
    assert fields[1] == date_format.format(1_600_000_001_040)
    total_mb = 2000 * (1024 * 1024 // 1000) / (1024 * 1024)
    assert fields[2:] == [
        f"{total_mb:.4f}",
        f"{total_mb / 1.04:.4f}",
        "2000",
        f"{2000 / 1.04:.4f}",
        "40",
        "1000",
        f"{total_mb:.4f}",
        "2000.0000",
    ]


def test_timeout_warning_and_detailed_stats() -> None:
    """With --show-detailed-stats a line per reporting interval replaces the summary; too few records before the
    timeout give Kafka's warning."""
    time = MockTime(start_ms=1_600_000_000_000)
    consumer = FakeConsumer(time, [10, 10, 10])
    args = ["--bootstrap-server", "h:1", "--topic", "t", "--messages", "100", "--timeout", "300"]
    status, out, _ = run([*args, "--show-detailed-stats", "--reporting-interval", "1000"], consumer, time)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] + "\n" == DETAILED_HEADER
    progress = [line for line in lines[1:] if not line.startswith("WARNING")]
    assert len(progress) == 1
    # The interval closes at the first record of the second poll (1040 ms in, 40 of them spent joining).
    assert progress[0].split(", ")[1:] == ["0", "0.0010", "0.0010", "11", "10.5769", "40", "1000", "0.0010", "11.0000"]
    assert lines[-1] == (
        "WARNING: Exiting before consuming the expected number of messages: timeout (300 ms) exceeded. You can use "
        "the --timeout option to increase the timeout."
    )


def test_hide_header_and_print_metrics() -> None:
    """--hide-header leaves the header out; --print-metrics prints the client's metrics (none for this fake)."""
    time = MockTime()
    consumer = FakeConsumer(time, [5])
    args = ["--bootstrap-server", "h:1", "--topic", "t", "--messages", "5", "--hide-header", "--print-metrics"]
    status, out, err = run(args, consumer, time)
    assert status == 0
    assert len(out.splitlines()) == 1 and out.split(", ")[4] == "5"
    assert err == ""


def test_record_bytes_count_keys_and_values_as_kafkas_loop_does() -> None:
    """Null keys and values count nothing, empty ones zero bytes; any record with key and value attributes works."""
    tp = TopicPartition("t", 0)
    recs = [
        ConsumerRecord("t", 0, 0, None, b"abc"),
        ConsumerRecord("t", 0, 1, b"k", None),
        ConsumerRecord("t", 0, 2, b"", b""),
        ConsumerRecord("t", 0, 3, b"kk", b"vvvv"),
    ]
    expected = sum(len(r.key or b"") + len(r.value or b"") for r in recs)
    assert perf._record_bytes(ConsumerRecords({tp: recs})) == expected == 10
    assert perf._record_bytes(iter(recs[1:])) == 7
    assert perf._record_bytes(ConsumerRecords({})) == 0

    class Other:
        def __init__(self, key: bytes | None, value: bytes | None) -> None:
            self.key, self.value = key, value

    assert perf._record_bytes([Other(b"ab", None), Other(None, b"c")]) == 3
