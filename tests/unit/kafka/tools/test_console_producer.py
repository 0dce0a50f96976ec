"""Tests of ConsoleProducer without a broker: the producer settings it derives from its options (after Kafka's
ConsoleProducerTest), the LineMessageReader's parsing of keys, headers and null markers (after Kafka 3.x's
LineMessageReaderTest), and whole runs over a fake producer: sync and async sends, failures and exit status."""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import pytest

from kafka.clients.producer.producer_config import ProducerConfig as ClientProducerConfig
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import KafkaException, TimeoutException
from kafka.common.topic_partition import TopicPartition
from kafka.tools import console_producer as cp
from kafka.utils.command_line_utils import MissingRequiredOptionsException, UnrecognizedOptionException

BROKER_LIST_VALID_ARGS = [
    "--broker-list",
    "localhost:1001,localhost:1002",
    "--topic",
    "t3",
    "--property",
    "parse.key=true",
    "--property",
    "key.separator=#",
]
BOOTSTRAP_SERVER_VALID_ARGS = [
    "--bootstrap-server",
    "localhost:1003,localhost:1004",
    "--topic",
    "t3",
    "--property",
    "parse.key=true",
    "--property",
    "key.separator=#",
]


def config_of(args: list[str]) -> cp.ProducerConfig:
    config = cp.ProducerConfig(args)
    config.check_args()
    return config


def client_config(args: list[str]) -> ClientProducerConfig:
    return ClientProducerConfig(cp.producer_props(config_of(args)))


# -- options -> producer settings ------------------------------------------------------------------------------


def test_valid_configs_broker_list() -> None:
    """The deprecated --broker-list becomes bootstrap.servers."""
    assert client_config(BROKER_LIST_VALID_ARGS).get_list("bootstrap.servers") == ["localhost:1001", "localhost:1002"]


def test_valid_configs_bootstrap_server() -> None:
    """--bootstrap-server becomes bootstrap.servers."""
    config = client_config(BOOTSTRAP_SERVER_VALID_ARGS)
    assert config.get_list("bootstrap.servers") == ["localhost:1003", "localhost:1004"]


def test_bootstrap_server_override() -> None:
    """--bootstrap-server wins over --broker-list."""
    args = ["--broker-list", "localhost:1001", "--bootstrap-server", "localhost:1002", "--topic", "t3"]
    assert client_config(args).get_list("bootstrap.servers") == ["localhost:1002"]


def test_client_id_override() -> None:
    """A client.id given with --producer-property replaces the default console-producer."""
    args = ["--broker-list", "localhost:1001", "--topic", "t3", "--producer-property", "client.id=producer-1"]
    assert client_config(args).get_string("client.id") == "producer-1"
    assert cp.producer_props(config_of(["--broker-list", "localhost:1001", "--topic", "t3"]))["client.id"] == (
        "console-producer"
    )


def test_invalid_configs() -> None:
    """An unknown option is refused by the parser with jopt-simple's message."""
    with pytest.raises(UnrecognizedOptionException, match="t is not a recognized option"):
        cp.ProducerConfig(["--t", "t3"])


def test_bootstrap_server_is_required_unless_broker_list() -> None:
    """Neither --bootstrap-server nor --broker-list is a missing required option, as jopt-simple reports it."""
    with pytest.raises(MissingRequiredOptionsException, match=r"Missing required option\(s\) \[bootstrap-server\]"):
        cp.ProducerConfig(["--topic", "t"])


def test_tool_options_are_merged_as_kafka_merges_them() -> None:
    """Acks, linger, retries, batch size and memory come from the tool's options, their defaults filling in what the
    config file and --producer-property leave unset; compression and serializers are always the tool's."""
    props = cp.producer_props(
        config_of(
            [
                "--bootstrap-server",
                "h:1",
                "--topic",
                "t",
                "--request-required-acks",
                "all",
                "--timeout",
                "5",
                "--batch-size",
                "1024",
                "--producer-property",
                "retries=7",
                "--producer-property",
                "compression.type=zstd",
            ]
        )
    )
    assert props["acks"] == "all"
    assert props["linger.ms"] == "5"
    assert props["batch.size"] == "1024"
    assert props["retries"] == "7"
    assert props["compression.type"] == "none"
    assert props["request.timeout.ms"] == "1500"
    assert props["buffer.memory"] == str(32 * 1024 * 1024)
    assert props["key.serializer"] == "org.apache.kafka.common.serialization.ByteArraySerializer"


def test_max_partition_memory_bytes_replaces_batch_size(tmp_path: Path) -> None:
    """--max-partition-memory-bytes wins over --batch-size, and a config file's settings give way to the options."""
    conf = tmp_path / "producer.properties"
    conf.write_text("linger.ms=77\nacks=0\nmax.block.ms=5\n")
    props = cp.producer_props(
        config_of(
            [
                "--bootstrap-server",
                "h:1",
                "--topic",
                "t",
                "--producer.config",
                str(conf),
                "--batch-size",
                "100",
                "--max-partition-memory-bytes",
                "2000",
                "--request-required-acks",
                "1",
            ]
        )
    )
    assert props["batch.size"] == "2000"
    assert props["linger.ms"] == "77"  # only an option given on the command line replaces the file's value
    assert props["acks"] == "1"
    assert props["max.block.ms"] == "5"


def test_compression_codec_without_value_is_gzip() -> None:
    """--compression-codec alone means gzip; with a value, that codec; absent, none."""
    base = ["--bootstrap-server", "h:1", "--topic", "t"]
    assert cp.producer_props(config_of([*base, "--compression-codec"]))["compression.type"] == "gzip"
    assert cp.producer_props(config_of([*base, "--compression-codec", "lz4"]))["compression.type"] == "lz4"
    assert cp.producer_props(config_of(base))["compression.type"] == "none"


def test_parse_key_prop() -> None:
    """--property pairs reach the reader: parse.key and key.separator."""
    config = config_of(BROKER_LIST_VALID_ARGS)
    reader = cp.LineMessageReader()
    reader.init(io.BytesIO(b""), cp.get_reader_props(config))
    assert reader.key_separator == "#"
    assert reader.parse_key


def test_reader_config_file_is_overridden_by_property(tmp_path: Path) -> None:
    """--reader-config supplies reader properties that --property pairs override."""
    conf = tmp_path / "reader.properties"
    conf.write_text("parse.key=true\nkey.separator=|\n")
    args = ["--bootstrap-server", "h:1", "--topic", "t", "--reader-config", str(conf), "--property", "key.separator=;"]
    props = cp.get_reader_props(config_of(args))
    assert props == {"parse.key": "true", "key.separator": ";", "topic": "t"}


# -- LineMessageReader ------------------------------------------------------------------------------------------


def default_props() -> dict[str, str]:
    return {"topic": "topic", "parse.key": "true", "parse.headers": "true"}


def record(key: str | None, value: str | None, headers: list[tuple[str, str | None]] | None = None) -> tuple:
    return (key, value, headers or [])


def as_tuple(r: ProducerRecord[bytes, bytes]) -> tuple:
    headers = [(h.key(), None if h.value() is None else cast(bytes, h.value()).decode()) for h in r.headers]
    return (
        None if r.key is None else r.key.decode(),
        None if r.value is None else r.value.decode(),
        headers,
    )


def read_all(props: Mapping[str, str], text: str) -> list[tuple]:
    reader = cp.LineMessageReader()
    reader.init(io.BytesIO(text.encode()), props)
    out = []
    while (r := reader.read_message()) is not None:
        assert r.topic == "topic"
        out.append(as_tuple(r))
    return out


def test_line_reader() -> None:
    """Each line is a record; with parse.key its key is what precedes the tab."""
    props = default_props() | {"parse.headers": "false"}
    assert read_all(props, "key0\tvalue0\nkey1\tvalue1") == [record("key0", "value0"), record("key1", "value1")]


def test_line_reader_header() -> None:
    """Headers come first, separated by commas, each key:value, then the key and the value."""
    expected = record("key0", "value0", [("headerKey0", "headerValue0"), ("headerKey1", "headerValue1")])
    assert read_all(default_props(), "headerKey0:headerValue0,headerKey1:headerValue1\tkey0\tvalue0\n") == [expected]


def test_minimal_valid_input_with_header_key_and_value() -> None:
    """An empty header key and value, key and value are all valid."""
    assert read_all(default_props(), ":\t\t") == [record("", "", [("", "")])]


def test_key_missing_value() -> None:
    """A key with nothing after the separator has an empty value."""
    assert read_all(default_props() | {"parse.headers": "false"}, "key\t") == [record("key", "")]


def test_demarcations_longer_than_one() -> None:
    """Separators and delimiters may be several characters long."""
    props = default_props() | {
        "key.separator": "\t\t",
        "headers.delimiter": "\t\t",
        "headers.separator": "---",
        "headers.key.separator": "::::",
    }
    text = "headerKey0.0::::headerValue0.0---headerKey1.0::::\t\tkey\t\tvalue\n"
    assert read_all(props, text) == [record("key", "value", [("headerKey0.0", "headerValue0.0"), ("headerKey1.0", "")])]


def test_line_reader_header_no_key_and_only_value() -> None:
    """With headers but no key the rest is the value; with neither, the line is the value."""
    assert read_all(default_props() | {"parse.key": "false"}, "headerKey:headerValue\tvalue\n") == [
        record(None, "value", [("headerKey", "headerValue")])
    ]
    assert read_all(default_props() | {"parse.key": "false", "parse.headers": "false"}, "value\n") == [
        record(None, "value")
    ]


def test_custom_delimiters_and_varying_number_of_headers() -> None:
    """Custom delimiters with one and two headers per line."""
    props = default_props() | {
        "key.separator": "#",
        "headers.delimiter": "!",
        "headers.separator": "&",
        "headers.key.separator": ":",
    }
    text = (
        "headerKey0.0:headerValue0.0&headerKey0.1:headerValue0.1!key0#value0\nheaderKey1.0:headerValue1.0!key1#value1"
    )
    assert read_all(props, text) == [
        record("key0", "value0", [("headerKey0.0", "headerValue0.0"), ("headerKey0.1", "headerValue0.1")]),
        record("key1", "value1", [("headerKey1.0", "headerValue1.0")]),
    ]


def test_missing_key_separator() -> None:
    """A line without the key separator fails with Kafka's message naming the line."""
    reader = cp.LineMessageReader()
    text = "h0:v0,h1:v1\tkey0\tvalue0\nh1:v1\tkey1[MISSING-DELIMITER]value1"
    reader.init(io.BytesIO(text.encode()), default_props())
    assert reader.read_message() is not None
    with pytest.raises(KafkaException) as e:
        reader.read_message()
    assert str(e.value) == "No key separator found on line number 2: 'h1:v1\tkey1[MISSING-DELIMITER]value1'"


def test_missing_header_key_separator() -> None:
    """A header pair without its key separator fails with Kafka's message."""
    with pytest.raises(KafkaException) as e:
        read_all(default_props(), "key[MISSING-DELIMITER]val\tkey0\tvalue0\n")
    assert str(e.value) == "No header key separator found in pair 'key[MISSING-DELIMITER]val' on line number 1"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"headers.delimiter": "\t", "headers.separator": "\t"},
            "headers.delimiter and headers.separator may not be equal",
        ),
        ({"headers.key.separator": "\t"}, "headers.delimiter and headers.key.separator may not be equal"),
        ({"headers.key.separator": ","}, "headers.separator and headers.key.separator may not be equal"),
        (
            {"headers.delimiter": "-", "headers.separator": ":", "headers.key.separator": "/", "null.marker": "-"},
            "null.marker and headers.delimiter may not be equal",
        ),
        (
            {"headers.delimiter": "-", "headers.separator": ":", "headers.key.separator": "/", "null.marker": ":"},
            "null.marker and headers.separator may not be equal",
        ),
        (
            {"headers.delimiter": "-", "headers.separator": ":", "headers.key.separator": "/", "null.marker": "/"},
            "null.marker and headers.key.separator may not be equal",
        ),
        ({"null.marker": "\t", "headers.delimiter": "|"}, "null.marker and key.separator may not be equal"),
    ],
)
def test_demarcation_collisions(overrides: dict[str, str], message: str) -> None:
    """Separators that cannot be told apart are refused when the reader is configured."""
    with pytest.raises(KafkaException) as e:
        cp.LineMessageReader().init(io.BytesIO(b""), default_props() | overrides)
    assert str(e.value) == message


def test_ignore_error_in_input() -> None:
    """With ignore.error a missing delimiter leaves the field out instead of failing."""
    text = (
        "headerKey0.0:headerValue0.0\tkey0\tvalue0\n"
        "headerKey1.0:headerValue1.0,headerKey1.1:headerValue1.1[MISSING-HEADER-DELIMITER]key1\tvalue1\n"
        "headerKey2.0:headerValue2.0\tkey2[MISSING-KEY-DELIMITER]value2\n"
        "headerKey3.0:headerValue3.0[MISSING-HEADER-DELIMITER]key3[MISSING-KEY-DELIMITER]value3\n"
    )
    assert read_all(default_props() | {"ignore.error": "true"}, text) == [
        record("key0", "value0", [("headerKey0.0", "headerValue0.0")]),
        record(
            None,
            "value1",
            [("headerKey1.0", "headerValue1.0"), ("headerKey1.1", "headerValue1.1[MISSING-HEADER-DELIMITER]key1")],
        ),
        record(None, "key2[MISSING-KEY-DELIMITER]value2", [("headerKey2.0", "headerValue2.0")]),
        record(None, "headerKey3.0:headerValue3.0[MISSING-HEADER-DELIMITER]key3[MISSING-KEY-DELIMITER]value3"),
    ]


def test_malformed_header_ignore_error() -> None:
    """With ignore.error a header without its key separator becomes a key with a null value."""
    assert read_all(default_props() | {"ignore.error": "true"}, "key-val\tkey0\tvalue0\n") == [
        record("key0", "value0", [("key-val", None)])
    ]


def test_null_marker() -> None:
    """Keys and values equal to null.marker become null; without a marker they stay text."""
    text = "key\t\nkey\t<NULL>\nkey\t<NULL>value\n<NULL>\tvalue\n<NULL>\t<NULL>"
    props = default_props() | {"parse.headers": "false"}
    assert read_all(props | {"null.marker": "<NULL>"}, text) == [
        record("key", ""),
        record("key", None),
        record("key", "<NULL>value"),
        record(None, "value"),
        record(None, None),
    ]
    assert read_all(props, text) == [
        record("key", ""),
        record("key", "<NULL>"),
        record("key", "<NULL>value"),
        record("<NULL>", "value"),
        record("<NULL>", "<NULL>"),
    ]


def test_null_marker_with_headers() -> None:
    """Headers equal to the marker mean no headers, header values equal to it are null."""
    text = (
        "h0:v0,h1:v1\t<NULL>\tvalue\n"
        "<NULL>\tkey\t<NULL>\n"
        "h0:,h1:v1\t<NULL>\t<NULL>\n"
        "h0:<NULL>,h1:v1\tkey\t<NULL>\n"
        "h0:<NULL>,h1:<NULL>value\tkey\t<NULL>\n"
    )
    assert read_all(default_props() | {"null.marker": "<NULL>"}, text) == [
        record(None, "value", [("h0", "v0"), ("h1", "v1")]),
        record("key", None),
        record(None, None, [("h0", ""), ("h1", "v1")]),
        record("key", None, [("h0", None), ("h1", "v1")]),
        record("key", None, [("h0", None), ("h1", "<NULL>value")]),
    ]
    reader = cp.LineMessageReader()
    reader.init(io.BytesIO(text.encode()), default_props())
    first = reader.read_message()
    assert first is not None and as_tuple(first) == record("<NULL>", "value", [("h0", "v0"), ("h1", "v1")])
    with pytest.raises(KafkaException, match="No header key separator found in pair '<NULL>' on line number 2"):
        reader.read_message()
    third = reader.read_message()
    assert third is not None and as_tuple(third) == record("<NULL>", "<NULL>", [("h0", ""), ("h1", "v1")])


def test_null_marker_header_key_throws() -> None:
    """A header key equal to the marker is refused, since header keys cannot be null."""
    with pytest.raises(KafkaException) as e:
        read_all(default_props() | {"null.marker": "<NULL>"}, "<NULL>:v0,h1:v1\tkey\tvalue\n")
    assert str(e.value) == "Header keys should not be equal to the null marker '<NULL>' as they can't be null"
    assert read_all(default_props(), "<NULL>:v0,h1:v1\tkey\tvalue\n") == [
        record("key", "value", [("<NULL>", "v0"), ("h1", "v1")])
    ]


def test_line_endings_and_utf8() -> None:
    """Lines end at \\n, \\r\\n or \\r as Java's readLine, and text is UTF-8 with bad bytes replaced."""
    reader = cp.LineMessageReader()
    reader.init(io.BytesIO("a\r\nb\rc\nd\xe9\n".encode() + b"\xff\n"), {"topic": "topic"})
    values = []
    while (r := reader.read_message()) is not None:
        values.append(r.value)
    assert values == [b"a", b"b", b"c", "d\xe9".encode(), "\ufffd".encode()]


def test_prompt_is_printed_before_each_read() -> None:
    """On a console the reader prints `>` before each line it reads, including the final end of input."""
    reader = cp.LineMessageReader()
    reader.init(io.BytesIO(b"a\nb\n"), {"topic": "topic"})
    out = io.StringIO()
    reader.set_prompt(out)
    while reader.read_message() is not None:
        pass
    assert out.getvalue() == ">>>"


# -- whole runs over a fake producer ----------------------------------------------------------------------------


class FakeFuture:
    def __init__(self, exception: BaseException | None) -> None:
        self._exception = exception

    def get(self, timeout_ms: int | None = None) -> RecordMetadata | None:
        if self._exception is not None:
            raise self._exception
        return None


class FakeProducer:
    """Completes each send at once, failing those whose value is in `fail_values`."""

    def __init__(self, props: Mapping[str, str], fail_values: set[bytes] | None = None) -> None:
        self.props = dict(props)
        self.sent: list[ProducerRecord[bytes, bytes]] = []
        self.callbacks: list[Any] = []
        self.fail_values = fail_values or set()
        self.closed = False

    def send(self, record: ProducerRecord[bytes, bytes], callback: Any = None) -> FakeFuture:
        self.sent.append(record)
        self.callbacks.append(callback)
        exception = TimeoutException("Expiring 1 record(s)") if record.value in self.fail_values else None
        if callback is not None:
            callback.on_completion(
                None if exception else RecordMetadata(TopicPartition(record.topic, 0), 0, 0, 0, 0, 0), exception
            )
        return FakeFuture(exception)

    def close(self, timeout_ms: int | None = None) -> None:
        self.closed = True


def run(args: list[str], stdin: bytes, fail_values: set[bytes] | None = None) -> tuple[int, str, FakeProducer | None]:
    made: list[FakeProducer] = []

    def factory(props: Mapping[str, str]) -> FakeProducer:
        made.append(FakeProducer(props, fail_values))
        return made[0]

    err = io.StringIO()
    status = cp.run_command(args, io.BytesIO(stdin), io.StringIO(), err, factory, interactive=False)
    return status, err.getvalue(), made[0] if made else None


def test_lines_are_sent_asynchronously_with_keys() -> None:
    """Each stdin line becomes one record with its key; async sends carry Kafka's error-logging callback."""
    status, err, producer = run(
        ["--bootstrap-server", "h:1", "--topic", "t", "--property", "parse.key=true"], b"k1\tv1\nk2\tv2\n"
    )
    assert status == 0, err
    assert producer is not None and producer.closed
    assert [(r.key, r.value) for r in producer.sent] == [(b"k1", b"v1"), (b"k2", b"v2")]
    assert all(c is not None for c in producer.callbacks)


def test_sync_sends_wait_and_a_failure_ends_the_tool() -> None:
    """With --sync a failed send ends the tool at once with the exception's line and status 1."""
    status, err, producer = run(["--bootstrap-server", "h:1", "--topic", "t", "--sync"], b"a\nbad\nc\n", {b"bad"})
    assert status == 1
    assert producer is not None and [r.value for r in producer.sent] == [b"a", b"bad"]
    assert producer.closed
    assert err.strip() == "org.apache.kafka.common.errors.TimeoutException: Expiring 1 record(s)"


def test_async_failure_is_logged_and_gives_status_1(caplog: pytest.LogCaptureFixture) -> None:
    """An asynchronous failure is logged as Kafka's ErrorLoggingCallback logs it; the other records still go and
    the tool ends with status 1."""
    with caplog.at_level(logging.ERROR):
        status, _, producer = run(["--bootstrap-server", "h:1", "--topic", "t"], b"a\nbad\nc\n", {b"bad"})
    assert status == 1
    assert producer is not None and [r.value for r in producer.sent] == [b"a", b"bad", b"c"]
    assert "Error when sending message to topic t with key: null, value: 3 bytes with error:" in caplog.text


def test_bad_line_ends_the_tool_after_sending_what_came_before() -> None:
    """A line without a key separator stops the tool with Kafka's exception line; earlier records were sent."""
    status, err, producer = run(
        ["--bootstrap-server", "h:1", "--topic", "t", "--property", "parse.key=true"], b"k\tv\nnokey\nk2\tv2\n"
    )
    assert status == 1
    assert producer is not None and [r.value for r in producer.sent] == [b"v"]
    assert err.strip() == "org.apache.kafka.common.KafkaException: No key separator found on line number 2: 'nokey'"


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        ([], "Missing required option(s) [bootstrap-server]"),
        (["--bootstrap-server", "h:1"], 'Missing required argument "[topic]"'),
        (["--bootstrap-server", "nohost", "--topic", "t"], "Please provide valid host:port like host1:9091,host2:9092"),
        (
            ["--bootstrap-server", "h:1", "--topic", "t", "--batch-size", "x"],
            "Cannot parse argument 'x' of option batch-size",
        ),
        (["--bootstrap-server", "h:1", "--topic", "t", "--bogus"], "bogus is not a recognized option"),
    ],
)
def test_usage_errors(args: list[str], first_line: str) -> None:
    """A command-line mistake prints Kafka's message and the help, with status 1, and builds no producer."""
    status, err, producer = run(args, b"")
    assert status == 1
    assert producer is None
    assert err.splitlines()[0] == first_line
    assert "--bootstrap-server <String: server to" in err


def test_help_prints_the_description() -> None:
    """--help prints the tool's description and the option table, with status 1 as Kafka's printUsageAndDie."""
    status, err, _ = run(["--help"], b"")
    assert status == 1
    assert err.startswith(cp.DESCRIPTION + "\n")
    assert "--producer-property <String:" in err
    assert "--batch-size <Integer: size>" in err  # java.lang.Integer options show as Kafka's do
    assert "--max-block-ms <Long: max block on" in err


def test_unknown_reader_class_fails_cleanly() -> None:
    """A --line-reader that does not exist ends the tool with one line naming it."""
    status, err, producer = run(
        ["--bootstrap-server", "h:1", "--topic", "t", "--line-reader", "no.such.Reader"], b"x\n"
    )
    assert status == 1
    assert producer is None
    assert "no.such.Reader" in err
    assert "Traceback" not in err


def test_command_config_is_read_after_producer_config(tmp_path: Path) -> None:
    """--command-config, which every tool here takes, is a properties file read after --producer.config; the
    --producer-property pairs still win."""
    first = tmp_path / "producer.properties"
    first.write_text("linger.ms=7\nacks=1\nclient.id=from-producer-config\n")
    second = tmp_path / "command.properties"
    second.write_text("acks=all\nclient.id=from-command-config\n")
    props = cp.producer_props(
        config_of(
            [
                "--bootstrap-server", "localhost:1001", "--topic", "t",
                "--producer.config", str(first), "--command-config", str(second),
                "--producer-property", "client.id=from-property",
            ]
        )
    )  # fmt: skip
    assert (props["linger.ms"], props["acks"], props["client.id"]) == ("7", "all", "from-property")
