"""bin/kafka-console-producer.sh, bin/kafka-console-consumer.sh and bin/kafka-get-offsets.sh run as a user runs
them, on our Python clients, against a broker started with bin/kafka-server-start.sh. What the producer sends is
read back with confluent-kafka (keys, values, headers, partitions, codecs); what the consumer prints is checked
against records confluent-kafka produced (every --property, --partition/--offset, --group commits, --include,
formatters, isolation level, bad records, Ctrl-C); the offsets tool is checked against confluent-kafka's
watermarks and offsets by time. Users' mistakes give Kafka's messages and a non-zero status."""

from __future__ import annotations

import signal
import subprocess
import time
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
BASE_TIMESTAMP_MS = 1_600_000_000_000  # 2020-09-13T12:26:40.000Z
# Records stamped BASE_TIMESTAMP_MS are years past the default log.retention.hours (168): as Kafka does, the
# broker's retention check (log.retention.check.interval.ms) deletes such a segment, the active one included
# (rolling a new one), whenever it runs, and a consumer started after it finds nothing from the beginning and waits
# for ever. The module's broker keeps records without a time limit, so what a test produced stays readable.
BROKER_OVERRIDES = {"log.retention.ms": "-1"}


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("console"))
    b = BrokerProcess(work, zookeeper.connect_string + "/console-" + work.name, overrides=BROKER_OVERRIDES)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@dataclass
class Run:
    status: int
    out: str
    err: str


def tool(script: str, *args: str, stdin: str | bytes | None = None, timeout: float = 120) -> Run:
    """Runs bin/<script> with `args` (and `stdin`), as a user would."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run([str(BIN / script), *args], input=data, capture_output=True, timeout=timeout)
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


def new_topic(broker: BrokerProcess, partitions: int = 1, prefix: str = "console") -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=30)[name].result(30)
    return name


def ck_produce(
    broker: BrokerProcess,
    topic: str,
    records: list[tuple[bytes | None, bytes | None]],
    partition: int = 0,
    headers: list[tuple[str, str | bytes | None]] | None = None,
) -> None:
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all"})
    for i, (key, value) in enumerate(records):
        producer.produce(
            topic, value=value, key=key, partition=partition, timestamp=BASE_TIMESTAMP_MS + i, headers=headers
        )
    assert producer.flush(30) == 0


def ck_consume(broker: BrokerProcess, topic: str, expected: int, partitions: int = 1, timeout: float = 60) -> list[Any]:
    consumer = ck.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": "check",
            "enable.auto.commit": False,
            "fetch.wait.max.ms": 100,
        }
    )
    consumer.assign([ck.TopicPartition(topic, p, 0) for p in range(partitions)])
    out: list[Any] = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            out.append(msg)
        # Nothing more than expected arrives.
        extra = consumer.poll(0.5)
        assert extra is None or extra.error() is not None, f"unexpected record {extra.value()!r}"
    finally:
        consumer.close()
    return out


# -- kafka-console-producer.sh --------------------------------------------------------------------------------------


def test_producer_sends_each_line(broker: BrokerProcess) -> None:
    """Each line of stdin is one record, in order, with no key; UTF-8 text arrives byte for byte."""
    topic = new_topic(broker)
    lines = ["first", "second line with spaces", "", "ünïcödé ✓", "last"]
    run = tool(
        "kafka-console-producer.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        stdin="\n".join(lines) + "\n",
    )
    assert run.status == 0, run.err
    got = ck_consume(broker, topic, len(lines))
    assert [m.value().decode() for m in got] == lines
    assert all(m.key() is None for m in got)


def test_producer_parses_keys_and_headers(broker: BrokerProcess) -> None:
    """parse.key with a key.separator, and parse.headers, give keys and headers; equal keys share a partition."""
    topic = new_topic(broker, partitions=3)
    text = "h1:v1,h2:v2|k1|value1\nh1:x|k2|value2\nh3:|k1|value3\n"
    run = tool(
        "kafka-console-producer.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        "--property",
        "parse.key=true",
        "--property",
        "key.separator=|",
        "--property",
        "parse.headers=true",
        "--property",
        "headers.delimiter=|",
        stdin=text,
    )
    assert run.status == 0, run.err
    got = sorted(ck_consume(broker, topic, 3, partitions=3), key=lambda m: m.value())
    assert [(m.key(), m.value()) for m in got] == [(b"k1", b"value1"), (b"k2", b"value2"), (b"k1", b"value3")]
    assert [m.headers() for m in got] == [[("h1", b"v1"), ("h2", b"v2")], [("h1", b"x")], [("h3", b"")]]
    assert got[0].partition() == got[2].partition()


def test_producer_options_sync_compression_and_config_file(broker: BrokerProcess, tmp_path: Path) -> None:
    """--sync with a codec, acks, batch size, linger and settings from --producer.config and --producer-property
    all produce the records."""
    config = tmp_path / "producer.properties"
    config.write_text("client.id=from-file\nlinger.ms=5\n")
    for codec_args in (["--compression-codec"], ["--compression-codec", "lz4"], ["--compression-codec", "zstd"]):
        topic = new_topic(broker)
        run = tool(
            "kafka-console-producer.sh",
            "--broker-list",
            broker.bootstrap,
            "--topic",
            topic,
            "--sync",
            *codec_args,
            "--request-required-acks",
            "all",
            "--batch-size",
            "1024",
            "--timeout",
            "0",
            "--producer.config",
            str(config),
            "--producer-property",
            "max.in.flight.requests.per.connection=1",
            stdin="a\nb\nc\n",
        )
        assert run.status == 0, (codec_args, run.err)
        assert [m.value() for m in ck_consume(broker, topic, 3)] == [b"a", b"b", b"c"]


def test_producer_bad_line_stops_with_kafka_s_message(broker: BrokerProcess) -> None:
    """A line without the key separator ends the tool with Kafka's exception line; earlier lines were sent."""
    topic = new_topic(broker)
    run = tool(
        "kafka-console-producer.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        "--property",
        "parse.key=true",
        stdin="k\tv\nno key here\nk2\tv2\n",
    )
    assert run.status == 1
    assert run.err.strip().splitlines()[-1] == (
        "org.apache.kafka.common.KafkaException: No key separator found on line number 2: 'no key here'"
    )
    assert [m.value() for m in ck_consume(broker, topic, 1)] == [b"v"]


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        (["--topic", "t"], "Missing required option(s) [bootstrap-server]"),
        (["--bootstrap-server", "{b}"], 'Missing required argument "[topic]"'),
        (
            ["--bootstrap-server", "localhost", "--topic", "t"],
            "Please provide valid host:port like host1:9091,host2:9092",
        ),
        (
            ["--bootstrap-server", "{b}", "--topic", "t", "--no-such-option"],
            "no-such-option is not a recognized option",
        ),
    ],
)
def test_producer_usage_errors(broker: BrokerProcess, args: list[str], first_line: str) -> None:
    """Command-line mistakes print Kafka's message and the help, status 1, no traceback."""
    run = tool("kafka-console-producer.sh", *(a.format(b=broker.bootstrap) for a in args), stdin="")
    assert run.status == 1
    assert run.err.splitlines()[0] == first_line
    assert "Option " in run.err and "Traceback" not in run.err


def test_producer_bad_settings_are_one_line(broker: BrokerProcess) -> None:
    """A refused producer setting (a codec, an unknown security protocol) is one ConfigException line and status 1;
    SASL_SSL without a JAAS login fails to build the producer, with no traceback."""
    topic = new_topic(broker)
    run = tool(
        "kafka-console-producer.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        "--compression-codec",
        "foo",
        stdin="x\n",
    )
    assert run.status == 1
    assert run.err.strip() == (
        "org.apache.kafka.common.config.ConfigException: Invalid value foo for configuration compression.type: "
        "String must be one of: none, gzip, snappy, lz4, zstd"
    )
    run = tool(
        "kafka-console-producer.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        "--producer-property",
        "security.protocol=SASL_SSLX",
        stdin="x\n",
    )
    assert run.status == 1
    assert run.err.strip().startswith("org.apache.kafka.common.config.ConfigException: Invalid value SASL_SSLX")
    assert "Traceback" not in run.err
    # SASL_SSL itself is served; without a JAAS login the producer is not built, as Java's says.
    run = tool(
        "kafka-console-producer.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        "--producer-property",
        "security.protocol=SASL_SSL",
        stdin="x\n",
    )
    assert run.status == 1
    assert "Could not find a 'KafkaClient' entry in the JAAS configuration" in run.err
    assert "Traceback" not in run.err


# -- kafka-console-consumer.sh ----------------------------------------------------------------------------------------


def consumer(broker: BrokerProcess, *args: str, timeout: float = 120) -> Run:
    return tool("kafka-console-consumer.sh", "--bootstrap-server", broker.bootstrap, *args, timeout=timeout)


def test_consumer_prints_values_from_beginning(broker: BrokerProcess) -> None:
    """--from-beginning --max-messages prints the values in order and reports the count on stderr."""
    topic = new_topic(broker)
    ck_produce(broker, topic, [(None, b"v%d" % i) for i in range(10)])
    run = consumer(broker, "--topic", topic, "--from-beginning", "--max-messages", "10")
    assert run.status == 0, run.err
    assert run.out == "".join(f"v{i}\n" for i in range(10))
    assert run.err.strip().splitlines()[-1] == "Processed a total of 10 messages"


def test_consumer_prints_every_property(broker: BrokerProcess) -> None:
    """print.timestamp/partition/offset/headers/key with custom separators and null.literal, exactly."""
    topic = new_topic(broker)
    ck_produce(broker, topic, [(b"k0", b"v0"), (None, b"v1"), (b"k2", None)], headers=[("h", b"1"), ("g", b"2")])
    run = consumer(
        broker,
        "--topic",
        topic,
        "--from-beginning",
        "--max-messages",
        "3",
        "--property",
        "print.timestamp=true",
        "--property",
        "print.partition=true",
        "--property",
        "print.offset=true",
        "--property",
        "print.headers=true",
        "--property",
        "print.key=true",
        "--property",
        "key.separator= | ",
        "--property",
        "headers.separator=;",
        "--property",
        "line.separator=#\n",
        "--property",
        "null.literal=<none>",
    )
    assert run.status == 0, run.err
    expected = [
        f"CreateTime:{BASE_TIMESTAMP_MS + i} | Partition:0 | Offset:{i} | h:1;g:2 | {k} | {v}#"
        for i, (k, v) in enumerate([("k0", "v0"), ("<none>", "v1"), ("k2", "<none>")])
    ]
    assert run.out.splitlines() == expected


def test_consumer_partition_and_offset(broker: BrokerProcess) -> None:
    """--partition with --offset N, earliest or latest starts there; --timeout-ms ends the run with Kafka's lines."""
    topic = new_topic(broker, partitions=2)
    ck_produce(broker, topic, [(None, b"p1-%d" % i) for i in range(6)], partition=1)
    ck_produce(broker, topic, [(None, b"p0-0")], partition=0)
    run = consumer(broker, "--topic", topic, "--partition", "1", "--offset", "4", "--timeout-ms", "3000")
    assert run.status == 0, run.err
    assert run.out == "p1-4\np1-5\n"
    assert "ERROR Error processing message, terminating consumer process:  (kafka.tools.ConsoleConsumer$)" in run.err
    assert "org.apache.kafka.common.errors.TimeoutException" in run.err
    assert run.err.strip().splitlines()[-1] == "Processed a total of 2 messages"
    run = consumer(broker, "--topic", topic, "--partition", "1", "--offset", "earliest", "--max-messages", "6")
    assert run.out.splitlines() == [f"p1-{i}" for i in range(6)]
    run = consumer(broker, "--topic", topic, "--partition", "1", "--offset", "latest", "--timeout-ms", "2000")
    assert run.out == ""
    assert run.err.strip().splitlines()[-1] == "Processed a total of 0 messages"


def test_consumer_group_commits_and_resumes(broker: BrokerProcess) -> None:
    """With --group the consumed offsets are committed: a second run of the group gets only newer records, and the
    group's committed offset is what confluent-kafka reads."""
    topic = new_topic(broker)
    group = f"console-group-{uuid.uuid4().hex[:6]}"
    ck_produce(broker, topic, [(None, b"a%d" % i) for i in range(5)])
    run = consumer(broker, "--topic", topic, "--group", group, "--from-beginning", "--max-messages", "5")
    assert run.status == 0, run.err
    assert run.out.splitlines() == [f"a{i}" for i in range(5)]
    check = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        (committed,) = check.committed([ck.TopicPartition(topic, 0)], timeout=30)
    finally:
        check.close()
    assert committed.offset == 5
    ck_produce(broker, topic, [(None, b"b%d" % i) for i in range(3)])
    run = consumer(broker, "--topic", topic, "--group", group, "--from-beginning", "--max-messages", "3")
    assert run.out.splitlines() == ["b0", "b1", "b2"]


def test_consumer_max_messages_does_not_commit_unprinted_records(broker: BrokerProcess) -> None:
    """Records fetched beyond --max-messages are not committed: the next run of the group starts right after
    the last printed one."""
    topic = new_topic(broker)
    group = f"console-group-{uuid.uuid4().hex[:6]}"
    ck_produce(broker, topic, [(None, b"r%d" % i) for i in range(20)])
    first = consumer(broker, "--topic", topic, "--group", group, "--from-beginning", "--max-messages", "7")
    assert first.out.splitlines() == [f"r{i}" for i in range(7)]
    second = consumer(broker, "--topic", topic, "--group", group, "--max-messages", "13")
    assert second.out.splitlines() == [f"r{i}" for i in range(7, 20)]


def test_consumer_include_pattern(broker: BrokerProcess) -> None:
    """--include subscribes to every topic the regular expression matches (and the deprecated --whitelist too)."""
    prefix = f"incl{uuid.uuid4().hex[:6]}"
    t1, t2 = new_topic(broker, prefix=prefix), new_topic(broker, prefix=prefix)
    other = new_topic(broker, prefix="other")
    ck_produce(broker, t1, [(None, b"one")])
    ck_produce(broker, t2, [(None, b"two")])
    ck_produce(broker, other, [(None, b"other")])
    for flag in ("--include", "--whitelist"):
        run = consumer(broker, flag, f"{prefix}-.*", "--from-beginning", "--max-messages", "2")
        assert run.status == 0, run.err
        assert sorted(run.out.splitlines()) == ["one", "two"]


def test_consumer_offsets_formatter(broker: BrokerProcess) -> None:
    """The offsets formatter prints a group's commit read from __consumer_offsets."""
    topic = new_topic(broker)
    group = f"fmt-group-{uuid.uuid4().hex[:6]}"
    ck_produce(broker, topic, [(None, b"x")])
    assert consumer(broker, "--topic", topic, "--group", group, "--from-beginning", "--max-messages", "1").status == 0
    run = consumer(
        broker,
        "--topic",
        "__consumer_offsets",
        "--from-beginning",
        "--timeout-ms",
        "5000",
        "--formatter",
        "kafka.coordinator.group.GroupMetadataManager$OffsetsMessageFormatter",
    )
    assert any(line.startswith(f"[{group},{topic},0]::OffsetAndMetadata(offset=1,") for line in run.out.splitlines())


def test_consumer_isolation_level_and_deserializers(broker: BrokerProcess) -> None:
    """read_committed shows committed (plain) records; deserializers turn keys and values into text."""
    topic = new_topic(broker)
    ck_produce(broker, topic, [((7).to_bytes(8, "big"), (42).to_bytes(4, "big"))])
    run = consumer(
        broker,
        "--topic",
        topic,
        "--from-beginning",
        "--max-messages",
        "1",
        "--isolation-level",
        "read_committed",
        "--property",
        "print.key=true",
        "--key-deserializer",
        "org.apache.kafka.common.serialization.LongDeserializer",
        "--value-deserializer",
        "org.apache.kafka.common.serialization.IntegerDeserializer",
    )
    assert run.status == 0, run.err
    assert run.out == "7\t42\n"


def test_consumer_skip_message_on_error(broker: BrokerProcess) -> None:
    """A record the formatter cannot handle is skipped with --skip-message-on-error, and ends the run without."""
    topic = new_topic(broker)
    ck_produce(broker, topic, [(None, (1).to_bytes(4, "big")), (None, b"bad"), (None, (3).to_bytes(4, "big"))])
    args = ["--topic", topic, "--from-beginning", "--max-messages", "3", "--value-deserializer"]
    deserializer = "org.apache.kafka.common.serialization.IntegerDeserializer"
    run = consumer(broker, *args, deserializer, "--skip-message-on-error")
    assert run.status == 0, run.err
    assert run.out == "1\n3\n"
    assert "Error processing message, skipping this message: " in run.err
    run = consumer(broker, *args, deserializer)
    assert run.status == 1
    assert run.out == "1\n"
    assert "Unknown error when running consumer: " in run.err
    assert "SerializationException" in run.err and "Traceback" not in run.err
    assert "Processed a total of 2 messages" in run.err.splitlines()


def test_consumer_ctrl_c_reports_the_count(broker: BrokerProcess) -> None:
    """Ctrl-C (SIGINT) stops a running consumer, which reports how many records it printed, as Kafka's hook."""
    topic = new_topic(broker)
    ck_produce(broker, topic, [(None, b"c%d" % i) for i in range(4)])
    proc = subprocess.Popen(
        [
            str(BIN / "kafka-console-consumer.sh"),
            "--bootstrap-server",
            broker.bootstrap,
            "--topic",
            topic,
            "--from-beginning",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(4)]
        assert lines == [b"c%d\n" % i for i in range(4)]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert out == b""
    assert err.decode().strip().splitlines()[-1] == "Processed a total of 4 messages"


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        (["--topic", "t", "--offset", "3"], "The partition is required when offset is specified."),
        (
            ["--topic", "t", "--group", "g", "--partition", "0"],
            "Options group and partition cannot be specified together.",
        ),
        (["--from-beginning"], "Exactly one of --include/--topic is required."),
        (
            ["--topic", "t", "--partition", "0", "--offset", "-3"],
            "The provided offset value '-3' is incorrect. Valid values are 'earliest', 'latest', or a non-negative "
            "long.",
        ),
    ],
)
def test_consumer_usage_errors(broker: BrokerProcess, args: list[str], first_line: str) -> None:
    """Invalid option combinations print Kafka's message and the help with status 1."""
    run = consumer(broker, *args)
    assert run.status == 1
    assert run.err.splitlines()[0] == first_line
    assert "Traceback" not in run.err


def test_consumer_conflicting_offset_reset(broker: BrokerProcess) -> None:
    """--from-beginning with auto.offset.reset=latest is refused with Kafka's line."""
    run = consumer(broker, "--topic", "t", "--from-beginning", "--consumer-property", "auto.offset.reset=latest")
    assert run.status == 1
    assert run.err.strip() == (
        "Can't simultaneously specify --from-beginning and 'auto.offset.reset=latest', please remove one option"
    )


# -- kafka-get-offsets.sh ----------------------------------------------------------------------------------------------


def test_get_offsets_latest_earliest_and_by_time(broker: BrokerProcess) -> None:
    """Latest (-1, the default), earliest (-2) and by-time offsets equal confluent-kafka's watermarks and
    offsets_for_times."""
    topic = new_topic(broker, partitions=3)
    for p in range(3):
        ck_produce(broker, topic, [(None, b"x")] * (p + 2), partition=p)
    run = tool("kafka-get-offsets.sh", "--bootstrap-server", broker.bootstrap, "--topic", topic)
    assert run.status == 0, run.err
    check = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "offsets-check"})
    try:
        watermarks = [check.get_watermark_offsets(ck.TopicPartition(topic, p), timeout=30) for p in range(3)]
        by_time = check.offsets_for_times(
            [ck.TopicPartition(topic, p, BASE_TIMESTAMP_MS + 2) for p in range(3)], timeout=30
        )
    finally:
        check.close()
    assert run.out.splitlines() == [f"{topic}:{p}:{watermarks[p][1]}" for p in range(3)]
    run = tool("kafka-get-offsets.sh", "--bootstrap-server", broker.bootstrap, "--topic", topic, "--time", "-2")
    assert run.out.splitlines() == [f"{topic}:{p}:{watermarks[p][0]}" for p in range(3)]
    run = tool(
        "kafka-get-offsets.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic",
        topic,
        "--time",
        str(BASE_TIMESTAMP_MS + 2),
    )
    expected = [f"{topic}:{tp.partition}:{tp.offset if tp.offset >= 0 else ''}" for tp in by_time]
    assert run.out.splitlines() == expected
    assert expected[0] == f"{topic}:0:"  # partition 0 holds 2 records: nothing at or after the third timestamp
    run = tool(
        "kafka-get-offsets.sh",
        "--bootstrap-server",
        broker.bootstrap,
        "--topic-partitions",
        f"{topic}:1-",
        "--time",
        "-1",
    )
    assert run.out.splitlines() == [f"{topic}:1:3", f"{topic}:2:4"]
    run = tool("kafka-get-offsets.sh", "--bootstrap-server", broker.bootstrap, "--topic", topic, "--partitions", "0,2")
    assert run.out.splitlines() == [f"{topic}:0:2", f"{topic}:2:4"]


def test_get_offsets_errors(broker: BrokerProcess) -> None:
    """An unknown topic and a bad partition list print Kafka's `Error occurred:` line with status 1."""
    run = tool("kafka-get-offsets.sh", "--bootstrap-server", broker.bootstrap, "--topic", "no-such-topic-at-all")
    assert (run.status, run.err.strip()) == (
        1,
        "Error occurred: Could not match any topic-partitions with the specified filters",
    )
    run = tool("kafka-get-offsets.sh", "--bootstrap-server", broker.bootstrap, "--partitions", "x")
    assert (run.status, run.err.strip()) == (
        1,
        "Error occurred: --partitions expects a comma separated list of numeric partition ids, but received: x",
    )


def test_tools_print_help_without_traceback() -> None:
    """Every tool answers --help with its option table and no Python traceback."""
    for script in ("kafka-console-producer.sh", "kafka-console-consumer.sh", "kafka-get-offsets.sh"):
        run = tool(script, "--help", stdin="")
        assert "--bootstrap-server" in run.err, script
        assert "Traceback" not in run.err + run.out, script
