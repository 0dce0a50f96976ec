"""Tests of ConsoleConsumer without a broker: its command line and the consumer settings derived from it (after
Kafka's ConsoleConsumerTest), the DefaultMessageFormatter's output for every field and option (after
DefaultMessageFormatterTest), the other formatters, and whole runs over a fake consumer: limits, timeouts,
skipping bad records, unwritable output, uncommitted leftovers and the final count."""

from __future__ import annotations

import io
import logging
import re
import struct
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import pytest

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.common.errors import WakeupException
from kafka.common.header.internals.record_headers import RecordHeaders
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.serialization.deserializer import Buffer, Deserializer
from kafka.common.topic_partition import TopicPartition
from kafka.coordinator.group.group_metadata_manager_formats import offset_commit_key, offset_commit_value
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.tools import console_consumer as cc
from kafka.utils.command_line_utils import UsageException


def config_of(args: list[str]) -> cc.ConsumerConfig:
    config = cc.ConsumerConfig(args)
    config.check_args()
    return config


def usage_error(args: list[str]) -> str:
    with pytest.raises(UsageException) as e:
        config_of(args)
    return e.value.message


BASE = ["--bootstrap-server", "localhost:9092", "--topic", "test"]


# -- the command line -------------------------------------------------------------------------------------------


def test_parse_valid_consumer_config() -> None:
    """Bootstrap server, topic and --from-beginning are read; the start offset is the earliest."""
    config = config_of([*BASE, "--from-beginning"])
    assert config.bootstrap_server == "localhost:9092"
    assert config.topic_arg == "test"
    assert config.from_beginning
    assert config.offset_arg == -2


def test_parse_numeric_and_string_offsets() -> None:
    """--partition with --offset takes a number or earliest/latest in any case."""
    config = config_of([*BASE, "--partition", "0", "--offset", "3"])
    assert (config.partition_arg, config.offset_arg, config.from_beginning) == (0, 3, False)
    config = config_of([*BASE, "--partition", "0", "--offset", "LatEst", "--property", "print.value=false"])
    assert (config.partition_arg, config.offset_arg) == (0, -1)
    assert isinstance(config.formatter, cc.DefaultMessageFormatter) and not config.formatter.print_value
    assert config_of([*BASE, "--partition", "1", "--offset", "EARLIEST"]).offset_arg == -2


def test_auto_offset_reset_from_the_command_line() -> None:
    """An explicit auto.offset.reset is kept; without one it is latest, or earliest with --from-beginning."""
    latest = cc.consumer_props(config_of([*BASE, "--consumer-property", "auto.offset.reset=latest"]))
    assert latest["auto.offset.reset"] == "latest"
    earliest = cc.consumer_props(config_of([*BASE, "--consumer-property", "auto.offset.reset=earliest"]))
    assert earliest["auto.offset.reset"] == "earliest"
    both = cc.consumer_props(
        config_of([*BASE, "--consumer-property", "auto.offset.reset=earliest", "--from-beginning"])
    )
    assert both["auto.offset.reset"] == "earliest"
    assert cc.consumer_props(config_of(BASE))["auto.offset.reset"] == "latest"
    assert cc.consumer_props(config_of([*BASE, "--from-beginning"]))["auto.offset.reset"] == "earliest"


def test_conflicting_auto_offset_reset_and_from_beginning() -> None:
    """auto.offset.reset=latest with --from-beginning is refused with Kafka's message."""
    config = config_of([*BASE, "--consumer-property", "auto.offset.reset=latest", "--from-beginning"])
    with pytest.raises(Exception, match=re.escape("Can't simultaneously specify --from-beginning and")):
        cc.consumer_props(config)


def test_parse_configs_from_file(tmp_path: Path) -> None:
    """--consumer.config settings, group.id included, reach the consumer."""
    props_file = tmp_path / "consumer.properties"
    props_file.write_text("request.timeout.ms=1000\ngroup.id=group1\n")
    config = config_of([*BASE, "--consumer.config", str(props_file)])
    assert config.consumer_props["request.timeout.ms"] == "1000"
    assert config.consumer_props["group.id"] == "group1"
    assert cc.consumer_props(config)["bootstrap.servers"] == "localhost:9092"


def test_group_ids_provided_in_different_places_must_match(tmp_path: Path) -> None:
    """--group, --consumer-property group.id and the config file's group.id must agree; one given is used."""
    props_file = tmp_path / "consumer.properties"
    props_file.write_text("group.id=group-from-file\n")
    message = usage_error(
        [
            *BASE,
            "--group",
            "group-from-arguments",
            "--consumer-property",
            "group.id=group-from-properties",
            "--consumer.config",
            str(props_file),
        ]
    )
    assert message == (
        "The group ids provided in different places (directly using '--group', via '--consumer-property', or via "
        "'--consumer.config') do not match. Detected group ids: 'group-from-arguments', 'group-from-file', "
        "'group-from-properties'"
    )
    props_file.write_text("group.id=test-group\n")
    config = config_of(
        [
            *BASE,
            "--group",
            "test-group",
            "--consumer-property",
            "group.id=test-group",
            "--consumer.config",
            str(props_file),
        ]
    )
    assert cc.consumer_props(config)["group.id"] == "test-group"
    usage_error([*BASE, "--group", "group-from-arguments", "--consumer.config", str(props_file)])
    config = config_of([*BASE, "--group", "group-from-arguments"])
    assert cc.consumer_props(config)["group.id"] == "group-from-arguments"
    assert "enable.auto.commit" not in cc.consumer_props(config)


def test_generated_group_does_not_commit() -> None:
    """Without a group the tool makes up console-consumer-N and turns auto commit off unless it was set."""
    props = cc.consumer_props(config_of(BASE))
    assert re.fullmatch(r"console-consumer-\d{1,5}", props["group.id"])
    assert props["enable.auto.commit"] == "false"
    props = cc.consumer_props(config_of([*BASE, "--consumer-property", "enable.auto.commit=true"]))
    assert props["enable.auto.commit"] == "true"


def test_isolation_level_is_passed_on() -> None:
    """--isolation-level sets isolation.level; without it the default read_uncommitted is set."""
    assert cc.consumer_props(config_of(BASE))["isolation.level"] == "read_uncommitted"
    props = cc.consumer_props(config_of([*BASE, "--isolation-level", "read_committed"]))
    assert props["isolation.level"] == "read_committed"


class UpperCaseDeserializer(Deserializer[str]):
    """Upper-cases UTF-8 text, and remembers its configuration."""

    def __init__(self) -> None:
        self.configs: dict[str, Any] = {}
        self.is_key: bool | None = None

    def configure(self, configs: Mapping[str, Any], is_key: bool) -> None:
        self.configs = dict(configs)
        self.is_key = is_key

    def deserialize(self, topic: str, data: Buffer | None) -> str | None:
        return None if data is None else bytes(data).decode().upper()


DESERIALIZER = f"{__name__}.UpperCaseDeserializer"


def test_custom_property_should_be_passed_to_configure_method() -> None:
    """Properties prefixed with the deserializer's key reach its configure, without the prefix."""
    config = config_of(
        [
            *BASE,
            "--property",
            "print.key=true",
            "--property",
            f"key.deserializer={DESERIALIZER}",
            "--property",
            "key.deserializer.my-props=abc",
        ]
    )
    formatter = config.formatter
    assert isinstance(formatter, cc.DefaultMessageFormatter)
    assert "key.deserializer.my-props" in config.formatter_args
    deserializer = formatter.key_deserializer
    assert isinstance(deserializer, UpperCaseDeserializer)
    assert deserializer.configs == {"my-props": "abc"}
    assert deserializer.is_key is True


def test_key_and_value_deserializer_options() -> None:
    """--key-deserializer and --value-deserializer become the formatter's deserializers."""
    config = config_of([*BASE, "--key-deserializer", DESERIALIZER, "--value-deserializer", DESERIALIZER])
    formatter = config.formatter
    assert isinstance(formatter, cc.DefaultMessageFormatter)
    assert isinstance(formatter.key_deserializer, UpperCaseDeserializer)
    assert isinstance(formatter.value_deserializer, UpperCaseDeserializer)
    assert formatter.value_deserializer.is_key is False


def test_group_id_with_from_beginning_and_without() -> None:
    """A group with --from-beginning starts at the earliest offset, without it at the latest."""
    assert config_of([*BASE, "--group", "test-group", "--from-beginning"]).offset_arg == -2
    assert config_of([*BASE, "--group", "test-group"]).offset_arg == -1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [*BASE, "--group", "test-group", "--partition", "0"],
            "Options group and partition cannot be specified together.",
        ),
        ([*BASE, "--offset", "10"], "The partition is required when offset is specified."),
        (
            ["--bootstrap-server", "h:1", "--include", "t.*", "--partition", "0"],
            "The topic is required when partition is specified.",
        ),
        (
            [*BASE, "--partition", "0", "--offset", "1", "--from-beginning"],
            "Options from-beginning and offset cannot be specified together.",
        ),
        (
            [*BASE, "--partition", "0", "--offset", "abc"],
            "The provided offset value 'abc' is incorrect. Valid values are 'earliest', 'latest', or a non-negative "
            "long.",
        ),
        (["--bootstrap-server", "h:1"], "Exactly one of --include/--topic is required."),
        ([*BASE, "--include", "x"], "Exactly one of --include/--topic is required."),
        (
            ["--bootstrap-server", "h:1", "--whitelist", "x", "--topic", "t"],
            "Exactly one of --include/--topic is required. --whitelist is DEPRECATED use --include instead; ignored if "
            "--include specified.",
        ),
        (["--topic", "t"], 'Missing required argument "[bootstrap-server]"'),
        ([], cc.DESCRIPTION),
    ],
)
def test_invalid_command_lines(args: list[str], message: str) -> None:
    """Each invalid combination ends the tool with Kafka's message."""
    assert usage_error(args) == message


def test_whitelist_and_include_choose_a_pattern() -> None:
    """--include (or the deprecated --whitelist) is the topic pattern; --include wins when both are given."""
    assert config_of(["--bootstrap-server", "h:1", "--whitelist", "a.*"]).include_arg == "a.*"
    assert config_of(["--bootstrap-server", "h:1", "--whitelist", "a.*", "--include", "b.*"]).include_arg == "b.*"


def test_unknown_formatter_is_class_not_found() -> None:
    """A formatter that does not exist is Java's ClassNotFoundException, before any other check."""
    err = io.StringIO()
    assert cc.run_command(["--formatter", "no.such.Formatter"], io.BytesIO(), err) == 1
    assert err.getvalue() == 'Exception in thread "main" java.lang.ClassNotFoundException: no.such.Formatter\n'


# -- formatters -------------------------------------------------------------------------------------------------


def consumer_record(
    key: bytes | None = b"someKey",
    value: bytes | None = b"someValue",
    headers: list[tuple[str, bytes | None]] | None = None,
    timestamp_type: TimestampType = TimestampType.CREATE_TIME,
    topic: str = "someTopic",
    partition: int = 9,
    offset: int = 9876,
) -> cc.BytesRecord:
    record_headers = RecordHeaders([])
    for k, v in [("h1", b"v1"), ("h2", b"v2")] if headers is None else headers:
        record_headers.add(k, v)
    return ConsumerRecord(
        topic,
        partition,
        offset,
        key,
        value,
        timestamp=1234,
        timestamp_type=timestamp_type,
        headers=record_headers,
    )


def format_record(record: cc.BytesRecord, properties: Mapping[str, str], formatter: Any = None) -> str:
    formatter = formatter or cc.DefaultMessageFormatter()
    formatter.configure(properties)
    out = io.BytesIO()
    formatter.write_to(record, cc.PrintStream(out))
    return out.getvalue().decode()


ALL = {
    "print.key": "true",
    "print.timestamp": "true",
    "print.partition": "true",
    "print.offset": "true",
    "print.headers": "true",
    "print.value": "true",
}


@pytest.mark.parametrize(
    ("name", "record", "properties", "expected"),
    [
        ("print nothing", consumer_record(), {"print.value": "false"}, ""),
        ("print key", consumer_record(), {"print.key": "true", "print.value": "false"}, "someKey\n"),
        ("print value", consumer_record(), {}, "someValue\n"),
        (
            "print empty timestamp",
            consumer_record(timestamp_type=TimestampType.NO_TIMESTAMP_TYPE),
            {"print.timestamp": "true", "print.value": "false"},
            "NO_TIMESTAMP\n",
        ),
        (
            "print log append time timestamp",
            consumer_record(timestamp_type=TimestampType.LOG_APPEND_TIME),
            {"print.timestamp": "true", "print.value": "false"},
            "LogAppendTime:1234\n",
        ),
        (
            "print create time timestamp",
            consumer_record(),
            {"print.timestamp": "true", "print.value": "false"},
            "CreateTime:1234\n",
        ),
        ("print partition", consumer_record(), {"print.partition": "true", "print.value": "false"}, "Partition:9\n"),
        ("print offset", consumer_record(), {"print.offset": "true", "print.value": "false"}, "Offset:9876\n"),
        ("print headers", consumer_record(), {"print.headers": "true", "print.value": "false"}, "h1:v1,h2:v2\n"),
        (
            "print empty headers",
            consumer_record(headers=[]),
            {"print.headers": "true", "print.value": "false"},
            "NO_HEADERS\n",
        ),
        (
            "print all possible fields with default delimiters",
            consumer_record(),
            ALL,
            "CreateTime:1234\tPartition:9\tOffset:9876\th1:v1,h2:v2\tsomeKey\tsomeValue\n",
        ),
        (
            "print all possible fields with custom delimiters",
            consumer_record(),
            ALL | {"key.separator": "|", "line.separator": "^", "headers.separator": "#"},
            "CreateTime:1234|Partition:9|Offset:9876|h1:v1#h2:v2|someKey|someValue^",
        ),
        (
            "print key with custom deserializer",
            consumer_record(),
            {"print.key": "true", "print.headers": "true", "key.deserializer": DESERIALIZER},
            "h1:v1,h2:v2\tSOMEKEY\tsomeValue\n",
        ),
        (
            "print value with custom deserializer",
            consumer_record(),
            {"print.key": "true", "print.headers": "true", "value.deserializer": DESERIALIZER},
            "h1:v1,h2:v2\tsomeKey\tSOMEVALUE\n",
        ),
        (
            "print headers with custom deserializer",
            consumer_record(),
            {"print.key": "true", "print.headers": "true", "headers.deserializer": DESERIALIZER},
            "h1:V1,h2:V2\tsomeKey\tsomeValue\n",
        ),
        ("print key and value", consumer_record(), {"print.key": "true"}, "someKey\tsomeValue\n"),
        (
            "print fields in the beginning, middle and the end",
            consumer_record(),
            {"print.key": "true", "print.partition": "true"},
            "Partition:9\tsomeKey\tsomeValue\n",
        ),
        (
            "null value without custom null literal",
            consumer_record(value=None),
            {"print.key": "true"},
            "someKey\tnull\n",
        ),
        (
            "null value with custom null literal",
            consumer_record(value=None),
            {"print.key": "true", "null.literal": "NULL"},
            "someKey\tNULL\n",
        ),
        (
            "null key and null header value",
            consumer_record(key=None, headers=[("h", None)]),
            {"print.key": "true", "print.headers": "true"},
            "h:null\tnull\tsomeValue\n",
        ),
        (
            "boolean properties ignore case and spaces",
            consumer_record(),
            {"print.key": " TRUE ", "print.value": "False"},
            "someKey\n",
        ),
    ],
)
def test_write_record(name: str, record: cc.BytesRecord, properties: dict[str, str], expected: str) -> None:
    """The default formatter's output for each combination of fields and separators."""
    assert format_record(record, properties) == expected, name


def test_deserialized_values_print_as_java_prints_them() -> None:
    """Longs and doubles from deserializers print as Java's toString prints them."""
    record = consumer_record(key=(7).to_bytes(8, "big"), value=struct.pack(">d", 1.0e10))
    out = format_record(
        record,
        {
            "print.key": "true",
            "key.deserializer": "org.apache.kafka.common.serialization.LongDeserializer",
            "value.deserializer": "org.apache.kafka.common.serialization.DoubleDeserializer",
        },
    )
    assert out == "7\t1.0E10\n"
    assert cc._java_double_to_string(0.001) == "0.001"
    assert cc._java_double_to_string(1234567.0) == "1234567.0"
    assert cc._java_double_to_string(-2.5e-5) == "-2.5E-5"
    assert cc._java_double_to_string(123.456) == "123.456"
    assert cc._java_double_to_string(1.0e7) == "1.0E7"


def test_no_op_formatter_writes_nothing() -> None:
    """kafka.tools.NoOpMessageFormatter prints nothing."""
    assert (
        format_record(consumer_record(), {"print.key": "true"}, cc.new_formatter("kafka.tools.NoOpMessageFormatter"))
        == ""
    )


def test_logging_formatter_writes_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    """kafka.tools.LoggingMessageFormatter writes as the default one and logs the record at INFO."""
    formatter = cc.new_formatter("kafka.tools.LoggingMessageFormatter")
    with caplog.at_level(logging.INFO, logger="kafka.tools.LoggingMessageFormatter"):
        assert format_record(consumer_record(), {"print.key": "true"}, formatter) == "someKey\tsomeValue\n"
    assert "CreateTime:1234, key:someKey, value:someValue" in caplog.text


def test_offsets_message_formatter_prints_commits() -> None:
    """GroupMetadataManager$OffsetsMessageFormatter prints a __consumer_offsets commit record."""
    formatter = cc.new_formatter("kafka.coordinator.group.GroupMetadataManager$OffsetsMessageFormatter")
    key = offset_commit_key("g", TopicPartition("t", 3))
    value = offset_commit_value(OffsetAndMetadata(42, None, "meta", 1000, None))
    out = format_record(consumer_record(key=key, value=value), {}, formatter)
    assert out.startswith("[g,t,3]::OffsetAndMetadata(offset=42")
    assert format_record(consumer_record(key=key, value=None), {}, formatter) == "[g,t,3]::NULL\n"


# -- whole runs ---------------------------------------------------------------------------------------------------


class FakeConsumer:
    """Hands out prepared polls; keeps positions per partition as seeks and records move them."""

    def __init__(self, polls: list[list[cc.BytesRecord]]) -> None:
        self.polls = list(polls)
        self.subscribed: Any = None
        self.assigned: list[TopicPartition] = []
        self.positions: dict[TopicPartition, int] = {}
        self.seeks: list[tuple[TopicPartition, Any]] = []
        self.poll_timeouts: list[int] = []
        self.closed = False
        self.wakeup_requested = False

    def subscribe(self, topics: Any, listener: Any = None) -> None:
        self.subscribed = topics

    def assign(self, partitions: Collection[TopicPartition]) -> None:
        self.assigned = list(partitions)

    def seek(self, partition: TopicPartition, offset: int) -> None:
        self.seeks.append((partition, offset))
        self.positions[partition] = offset

    def seek_to_beginning(self, partitions: Collection[TopicPartition]) -> None:
        self.seeks.extend((p, "beginning") for p in partitions)

    def seek_to_end(self, partitions: Collection[TopicPartition]) -> None:
        self.seeks.extend((p, "end") for p in partitions)

    def poll(self, timeout_ms: int) -> ConsumerRecords[bytes, bytes]:
        self.poll_timeouts.append(timeout_ms)
        if self.wakeup_requested:
            self.wakeup_requested = False
            raise WakeupException()
        records = self.polls.pop(0) if self.polls else []
        by_partition: dict[TopicPartition, list[cc.BytesRecord]] = {}
        for r in records:
            tp = TopicPartition(r.topic, r.partition)
            by_partition.setdefault(tp, []).append(r)
            self.positions[tp] = r.offset + 1
        return ConsumerRecords(by_partition)

    def wakeup(self) -> None:
        self.wakeup_requested = True

    def close(self) -> None:
        self.closed = True


def records(topic: str, partition: int, offsets: range) -> list[cc.BytesRecord]:
    return [
        consumer_record(key=None, value=b"v%d" % o, headers=[], topic=topic, partition=partition, offset=o)
        for o in offsets
    ]


def run(args: list[str], consumer: FakeConsumer) -> tuple[int, str, str]:
    out = io.BytesIO()
    err = io.StringIO()
    status = cc.run_command(args, out, err, lambda props: consumer)
    return status, out.getvalue().decode(), err.getvalue()


def test_should_reset_unconsumed_offsets_before_exit() -> None:
    """Records fetched but not printed (beyond --max-messages) are sought back to, so no commit covers them."""
    tp1, tp2 = TopicPartition("test", 0), TopicPartition("test", 1)
    consumer = FakeConsumer([records("test", 0, range(0, 5)) + records("test", 1, range(0, 5))])
    status, out, err = run([*BASE, "--max-messages", "7"], consumer)
    assert status == 0
    assert out.split("\n")[:-1] == ["v0", "v1", "v2", "v3", "v4", "v0", "v1"]
    assert consumer.positions[tp1] + consumer.positions[tp2] == 7
    assert consumer.seeks == [(tp2, 2)]
    assert consumer.closed
    assert err == "Processed a total of 7 messages\n"


def test_should_limit_reads_to_max_message_limit() -> None:
    """--max-messages stops the tool after that many records."""
    consumer = FakeConsumer([records("test", 0, range(0, 3)), records("test", 0, range(3, 10))])
    status, out, err = run([*BASE, "--max-messages", "5"], consumer)
    assert status == 0
    assert out == "v0\nv1\nv2\nv3\nv4\n"
    assert err.endswith("Processed a total of 5 messages\n")


def test_timeout_ends_the_run_with_kafka_s_error_line(caplog: pytest.LogCaptureFixture) -> None:
    """A poll of --timeout-ms that brings nothing ends the run, logged as Kafka logs it, with status 0."""
    consumer = FakeConsumer([records("test", 0, range(0, 2))])
    with caplog.at_level(logging.ERROR, logger="kafka.tools.ConsoleConsumer$"):
        status, out, err = run([*BASE, "--timeout-ms", "250"], consumer)
    assert status == 0
    assert out == "v0\nv1\n"
    assert consumer.poll_timeouts == [250, 250]
    assert "Error processing message, terminating consumer process: " in caplog.text
    assert err == "Processed a total of 2 messages\n"


def test_long_waits_are_sliced_so_signals_are_seen() -> None:
    """Without --timeout-ms the tool polls in short slices until records come."""
    consumer = FakeConsumer([[], [], records("test", 0, range(0, 1))])
    status, out, _ = run([*BASE, "--max-messages", "1"], consumer)
    assert status == 0 and out == "v0\n"
    assert consumer.poll_timeouts == [1000, 1000, 1000]


def test_wakeup_ends_the_run_quietly() -> None:
    """A wakeup (the shutdown hook) ends the run; the count is still reported."""
    consumer = FakeConsumer([records("test", 0, range(0, 2))])
    consumer.polls.append([])
    original_poll = consumer.poll

    def poll(timeout_ms: int) -> ConsumerRecords[bytes, bytes]:
        result = original_poll(timeout_ms)
        if not consumer.polls:
            consumer.wakeup()
        return result

    consumer.poll = poll  # type: ignore[method-assign]
    status, out, err = run(BASE, consumer)
    assert status == 0
    assert out == "v0\nv1\n"
    assert err == "Processed a total of 2 messages\n"


class FailingFormatter(cc.MessageFormatter):
    def write_to(self, consumer_record: cc.BytesRecord, output: cc.PrintStream) -> None:
        if consumer_record.value == b"v1":
            raise ValueError("cannot format v1")
        output.write(consumer_record.value or b"")
        output.write(b"\n")


def test_skip_message_on_error_continues() -> None:
    """With --skip-message-on-error a record the formatter fails on is logged and skipped."""
    consumer = FakeConsumer([records("test", 0, range(0, 3))])
    formatter = f"{__name__}.FailingFormatter"
    status, out, err = run(
        [*BASE, "--formatter", formatter, "--skip-message-on-error", "--max-messages", "3"], consumer
    )
    assert status == 0
    assert out == "v0\nv2\n"
    assert err.endswith("Processed a total of 3 messages\n")


def test_formatter_error_ends_the_run_with_status_1(caplog: pytest.LogCaptureFixture) -> None:
    """Without --skip-message-on-error a formatter failure ends the tool with Kafka's error line and status 1."""
    consumer = FakeConsumer([records("test", 0, range(0, 3))])
    with caplog.at_level(logging.ERROR):
        status, out, err = run([*BASE, "--formatter", f"{__name__}.FailingFormatter"], consumer)
    assert status == 1
    assert out == "v0\n"
    assert err == "Processed a total of 2 messages\n"
    assert "Unknown error when running consumer: " in caplog.text
    assert consumer.closed


class BrokenOutput(io.RawIOBase):
    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_should_stop_when_output_check_error_fails() -> None:
    """When standard output cannot be written the tool says so and stops after the first record."""
    consumer = FakeConsumer([records("test", 0, range(0, 3))])
    err = io.StringIO()
    status = cc.run_command(BASE, BrokenOutput(), err, lambda props: consumer)  # type: ignore[arg-type]
    assert status == 0
    assert err.getvalue() == "Unable to write to standard out, closing consumer.\nProcessed a total of 1 messages\n"


def test_partition_and_offset_assign_and_seek() -> None:
    """--partition assigns that partition and seeks to the offset, the beginning or the end."""
    tp = TopicPartition("test", 2)
    for offset, expected in (("5", 5), ("earliest", "beginning"), ("latest", "end")):
        consumer = FakeConsumer([records("test", 2, range(5, 6))])
        status, _, _ = run([*BASE, "--partition", "2", "--offset", offset, "--max-messages", "1"], consumer)
        assert status == 0
        assert consumer.assigned == [tp]
        assert consumer.seeks[0] == (tp, expected)
    consumer = FakeConsumer([records("test", 2, range(5, 6))])
    run([*BASE, "--partition", "2", "--from-beginning", "--max-messages", "1"], consumer)
    assert consumer.seeks[0] == (tp, "beginning")


def test_topic_and_pattern_subscribe() -> None:
    """--topic subscribes to that topic; --include subscribes to the compiled pattern."""
    consumer = FakeConsumer([records("test", 0, range(0, 1))])
    run([*BASE, "--max-messages", "1"], consumer)
    assert consumer.subscribed == ["test"]
    consumer = FakeConsumer([records("abc", 0, range(0, 1))])
    run(["--bootstrap-server", "h:1", "--include", "a.*", "--max-messages", "1"], consumer)
    assert isinstance(consumer.subscribed, re.Pattern) and consumer.subscribed.pattern == "a.*"


def test_command_config_is_read_after_consumer_config(tmp_path: Path) -> None:
    """--command-config, which every tool here takes, is a properties file read after --consumer.config."""
    first = tmp_path / "consumer.properties"
    first.write_text("fetch.min.bytes=5\nclient.id=from-consumer-config\n")
    second = tmp_path / "command.properties"
    second.write_text("client.id=from-command-config\n")
    props = cc.consumer_props(config_of([*BASE, "--consumer.config", str(first), "--command-config", str(second)]))
    assert (props["fetch.min.bytes"], props["client.id"]) == ("5", "from-command-config")
