"""Tests of ProducerPerformance and ThroughputThrottler without a broker: the command line as argparse4j reads it,
producer settings and payloads (after Kafka's ProducerPerformanceTest), the statistics and the exact lines
printed (on a MockTime), and whole runs over a fake producer: every record sent, failures not counted."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from kafka.clients.producer.producer_record import ProducerRecord
from kafka.common.errors import TimeoutException
from kafka.common.utils.time import MockTime
from kafka.tools import producer_performance as pp
from kafka.tools.throughput_throttler import ThroughputThrottler

# The final line as Kafka prints it.
TOTAL_LINE = re.compile(
    r"(\d+) records sent, (\d+\.\d{6}|Infinity|NaN) records/sec \((\d+\.\d{2}|Infinity|NaN) MB/sec\), "
    r"(\d+\.\d{2}|NaN) ms avg latency, (\d+\.\d{2}) ms max latency, (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th, "
    r"(\d+) ms 99\.9th\.\n"
)


# -- settings and payloads ----------------------------------------------------------------------------------------


def test_read_payload_file(tmp_path: Path) -> None:
    """A payload file is split at the delimiter into UTF-8 payloads, and the tool says what it read."""
    payload_file = tmp_path / "payload.txt"
    payload_file.write_text("Hello\nKafka\n")
    out = io.StringIO()
    payloads = pp.read_payload_file(str(payload_file), "\n", out)
    assert payloads == [b"Hello", b"Kafka"]
    assert out.getvalue() == f"Reading payloads from: {payload_file}\nNumber of messages read: 2\n"


def test_read_payload_file_missing_or_empty(tmp_path: Path) -> None:
    """A missing or empty payload file is refused with Kafka's message."""
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    for path in (str(empty), str(tmp_path / "missing.txt")):
        with pytest.raises(ValueError, match=r"File does not exist or empty file provided\."):
            pp.read_payload_file(path, "\n", io.StringIO())


def test_read_props(tmp_path: Path) -> None:
    """Properties come from the file, then --producer-props, then the serializers and the default client.id."""
    config = tmp_path / "producer.properties"
    config.write_text("bootstrap.servers=localhost:9000\n")
    props = pp.read_props(["bootstrap.servers=localhost:9092"], str(config), "tid", False)
    assert props == {
        "bootstrap.servers": "localhost:9092",
        "key.serializer": "org.apache.kafka.common.serialization.ByteArraySerializer",
        "value.serializer": "org.apache.kafka.common.serialization.ByteArraySerializer",
        "client.id": "perf-producer-client",
    }
    assert pp.read_props(["client.id=producer-1"], None, "tid", True)["client.id"] == "producer-1"
    assert pp.read_props(["a=b"], None, "tid", True)["transactional.id"] == "tid"


@pytest.mark.parametrize("prop", ["novalue", "a=b=c", "a="])
def test_invalid_producer_prop(prop: str) -> None:
    """A --producer-props entry must be exactly one key=value."""
    with pytest.raises(ValueError, match=f"Invalid property: {re.escape(prop)}"):
        pp.read_props([prop], None, "tid", False)


def test_generate_random_payload() -> None:
    """Payloads are picked from the file's list, or are random uppercase letters of the record size."""
    import random

    rng = random.Random(0)
    assert pp.generate_random_payload(None, [b"Hello Kafka"], rng) == b"Hello Kafka"
    payload = pp.generate_random_payload(100, [], rng)
    assert len(payload) == 100
    assert set(payload) <= set(range(65, 91))
    assert len(set(payload)) > 10
    with pytest.raises(ValueError, match="no payload File Path or record Size provided"):
        pp.generate_random_payload(None, [], rng)


# -- the command line ---------------------------------------------------------------------------------------------


def start(args: list[str], producer_factory: Any = None, time: Any = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    perf = pp.ProducerPerformance(out, err, producer_factory, time or MockTime())
    status = perf.start(args)
    return status, out.getvalue(), err.getvalue()


REQUIRED = ["--topic", "t", "--num-records", "5", "--throughput", "-1"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*REQUIRED, "--record-size", "10", "--test"], "unrecognized arguments: --test"),
        (["--num-records", "5", "--throughput", "-1", "--record-size", "1"], "argument --topic is required"),
        (REQUIRED, "one of the arguments --record-size --payload-file is required"),
        (
            [*REQUIRED, "--record-size", "1", "--payload-file", "f"],
            "argument --payload-file: not allowed with argument --record-size",
        ),
        (
            [*REQUIRED, "--record-size", "1"],
            "Either --producer-props, --producer.config, --bootstrap-server or --command-config must be specified.",
        ),
        (
            ["--topic", "t", "--num-records", "abc", "--throughput", "-1", "--record-size", "1"],
            "argument --num-records: could not convert 'abc' to Long (For input string: \"abc\")",
        ),
        (
            [*REQUIRED, "--record-size", "3000000000", "--producer-props", "a=b"],
            "argument --record-size: could not convert '3000000000' to Integer (For input string: \"3000000000\")",
        ),
    ],
)
def test_command_line_errors(args: list[str], message: str) -> None:
    """A refused command line prints the usage and `producer-performance: error: ...`, with status 1."""
    status, _, err = start(args)
    assert status == 1
    assert err.startswith("usage: producer-performance [-h] --topic TOPIC")
    assert err.endswith(f"producer-performance: error: {message}\n")


def test_no_arguments_prints_help() -> None:
    """Without arguments the tool prints its help on stdout and ends with status 0."""
    status, out, err = start([])
    assert status == 0
    assert err == ""
    assert "This tool is used to verify the producer performance." in out
    assert "either --record-size or --payload-file must be specified but not both." in out
    assert "(default:performance-producer-default-transactional-id)" in re.sub(r"\s+", "", out)


# -- statistics ---------------------------------------------------------------------------------------------------


def test_stats_initialization_with_large_num_records() -> None:
    """Stats for Long.MAX_VALUE records keep a bounded sample."""
    stats = pp.Stats(2**63 - 1, 5000, io.StringIO(), MockTime())
    assert len(stats.latencies) == 500001


def test_stats_correctness() -> None:
    """A million successful callbacks are all counted, and half a million latencies are sampled."""
    time = MockTime()
    stats = pp.Stats(1_000_000, 5000, io.StringIO(), time)
    for _ in range(1_000_000):
        pp.PerfCallback(0, 100, stats, io.StringIO(), time).on_completion(None, None)
    assert stats.count == 1_000_000
    assert stats.iteration == 1_000_000
    assert stats.index == 500_000
    assert stats.bytes == 1_000_000 * 100


def test_failed_callbacks_are_not_counted() -> None:
    """A failed send is reported on stderr as Java's trace header and left out of the figures."""
    time = MockTime()
    stats = pp.Stats(10, 5000, io.StringIO(), time)
    err = io.StringIO()
    pp.PerfCallback(0, 100, stats, err, time).on_completion(None, TimeoutException("Expiring 1 record(s)"))
    assert (stats.count, stats.iteration, stats.window_count) == (0, 0, 0)
    assert err.getvalue() == "org.apache.kafka.common.errors.TimeoutException: Expiring 1 record(s)\n"


def test_window_and_total_lines_are_kafka_s() -> None:
    """The progress line every 5 s and the final line have Kafka's words and number formats."""
    time = MockTime(start_ms=1_000_000)
    out = io.StringIO()
    stats = pp.Stats(4, 5000, out, time)
    latencies = [10, 20, 30, 40]
    for i, latency in enumerate(latencies):
        if i == 3:
            time.sleep(5000)
        pp.PerfCallback(time.milliseconds() - latency, 1024 * 1024, stats, io.StringIO(), time).on_completion(
            None, None
        )
    time.sleep(1000)
    stats.print_total()
    lines = out.getvalue().splitlines(keepends=True)
    assert lines[0] == "4 records sent, 0.8 records/sec (0.80 MB/sec), 25.0 ms avg latency, 40.0 ms max latency.\n"
    assert lines[1] == (
        "4 records sent, 0.666667 records/sec (0.67 MB/sec), 25.00 ms avg latency, 40.00 ms max latency, "
        "30 ms 50th, 40 ms 95th, 40 ms 99th, 40 ms 99.9th.\n"
    )
    assert TOTAL_LINE.fullmatch(lines[1])


def test_totals_span_windows() -> None:
    """The totals are those of every record, whichever window it fell in; the callback and Stats.record agree."""
    latencies = [7, 90, 3, 12, 0, 45, 5, 1]
    sizes = [100, 2000, 30, 400, 5, 60, 700, 8]
    outs = []
    for use_callback in (True, False):
        time = MockTime(start_ms=1_000_000)
        out = io.StringIO()
        stats = pp.Stats(len(latencies), 5000, out, time)
        for i, (latency, size) in enumerate(zip(latencies, sizes, strict=True)):
            if i in (2, 3, 6):
                time.sleep(5000)
            if use_callback:
                pp.PerfCallback(time.milliseconds() - latency, size, stats, io.StringIO(), time).on_completion(
                    None, None
                )
            else:
                stats.record(latency, size, time.milliseconds())
                stats.iteration += 1
            assert stats.count == i + 1 and stats.iteration == i + 1
            assert stats.bytes == sum(sizes[: i + 1])
            assert stats.total_latency == sum(latencies[: i + 1])
            assert stats.max_latency == max(latencies[: i + 1])
        assert out.getvalue().count("\n") == 3
        stats.print_total()
        outs.append(out.getvalue())
    assert outs[0] == outs[1]
    assert outs[0].splitlines()[-1].startswith("8 records sent, ")
    assert " 20.38 ms avg latency, 90.00 ms max latency, " in outs[0]


def test_percentiles() -> None:
    """Percentiles index the sorted sample at int(p * n), as Java does."""
    assert pp.Stats.percentiles(list(range(100, 0, -1)), 100, 0.5, 0.95, 0.99, 0.999) == [51, 96, 100, 100]
    assert pp.Stats.percentiles([0], 0, 0.5) == [0]


def test_nothing_acknowledged_prints_java_s_nan() -> None:
    """With no record acknowledged the averages are Java's NaN and the percentiles 0."""
    time = MockTime()
    out = io.StringIO()
    stats = pp.Stats(3, 5000, out, time)
    time.sleep(10)
    stats.print_total()
    assert out.getvalue() == (
        "0 records sent, 0.000000 records/sec (0.00 MB/sec), NaN ms avg latency, 0.00 ms max latency, 0 ms 50th, "
        "0 ms 95th, 0 ms 99th, 0 ms 99.9th.\n"
    )


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 7, 100, 101, 1000, 10_240])
@pytest.mark.parametrize("drawn", [0, 5, 623, 700])
def test_compiled_random_letters_are_python_s(size: int, drawn: int) -> None:
    """The compiled module's payloads are the bytes of getrandbits(8 * size).to_bytes(size, "little") as letters,
    the same in the same order as the Python loop makes them from the same generator (also past its state's twist and
    from a generator that has drawn words already), and leave the generator itself alone."""
    import random

    if pp._random_letters is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    new_state, random_letters = pp._random_letters
    rng = random.Random(0)
    rng.getrandbits(32 * drawn) if drawn else None
    state = new_state(rng, size)
    before = rng.getstate()
    expected = random.Random()
    expected.setstate(before)
    for _ in range(60):
        assert random_letters(state) == expected.getrandbits(8 * size).to_bytes(size, "little").translate(pp._LETTERS)
    assert rng.getstate() == before
    with pytest.raises(TypeError):
        random_letters(bytearray(3))
    with pytest.raises(ValueError):
        new_state(rng, -1)


def test_compiled_perf_callback_is_the_constructor_s() -> None:
    """The compiled module's PerfCallback has the slots the constructor sets, and counts a record as it does; it
    refuses another number of values and a class that was not registered."""
    if pp._new_perf_callback is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    err, time = io.StringIO(), MockTime()
    made = [pp.Stats(10, 5000, io.StringIO(), time) for _ in range(2)]
    callbacks = [
        pp._new_perf_callback(pp.PerfCallback, 7, 100, made[0], err, time),
        pp.PerfCallback(7, 100, made[1], err, time),
    ]
    for name in ("_start", "_bytes", "_err", "_time"):
        assert getattr(callbacks[0], name) is getattr(callbacks[1], name)
    assert callbacks[0]._stats is made[0] and type(callbacks[0]) is pp.PerfCallback
    for callback in callbacks:
        callback.on_completion(None, None)
    assert [(s.count, s.bytes, s.total_latency, s.latencies[:2]) for s in made] == [
        (1, 100, time.milliseconds() - 7, [time.milliseconds() - 7, 0])
    ] * 2
    with pytest.raises(TypeError):
        pp._new_perf_callback(pp.PerfCallback, 7, 100, made[0], err)
    with pytest.raises(TypeError):
        pp._new_perf_callback(pp.Stats, 7, 100, made[0], err, time)


@pytest.mark.parametrize("size", [3, 100])
def test_run_payloads_are_the_same_both_ways(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run sends the same payloads with and without the compiled module (its random letters and records)."""
    if pp._random_letters is None:
        pytest.skip("the optional _default_record_writer extension is not built")

    def payloads() -> list[bytes | None]:
        made: list[FakeProducer] = []

        def factory(props: Mapping[str, str]) -> FakeProducer:
            made.append(FakeProducer(props))
            return made[-1]

        args = ["--topic", "t", "--num-records", "700", "--throughput", "-1", "--record-size", str(size)]
        status, _, err = start([*args, "--producer-props", "bootstrap.servers=localhost:9000"], factory)
        assert status == 0, err
        return [r.value for r in made[0].records]

    compiled = payloads()
    monkeypatch.setattr(pp, "_random_letters", None)
    monkeypatch.setattr(pp, "_new_perf_callback", None)
    monkeypatch.setattr(pp, "new_producer_record", ProducerRecord)
    python = payloads()
    assert compiled == python
    assert all(v is not None and len(v) == size for v in compiled)
    assert len(set(compiled)) == 700 or size < 10


# -- whole runs -----------------------------------------------------------------------------------------------------


class FakeProducer:
    """Acknowledges each send on another thread, as the producer's I/O thread would."""

    def __init__(self, props: Mapping[str, str], fail: bool = False) -> None:
        self.props = dict(props)
        self.fail = fail
        self.records: list[ProducerRecord[bytes, bytes]] = []
        self.calls: list[str] = []

    def send(self, record: ProducerRecord[bytes, bytes], callback: Any = None) -> None:
        self.records.append(record)
        self.calls.append("send")
        exception = TimeoutException("Expiring 1 record(s)") if self.fail else None
        thread = threading.Thread(target=callback.on_completion, args=(None, exception))
        thread.start()
        thread.join()

    def flush(self) -> None:
        self.calls.append("flush")

    def close(self, timeout_ms: int | None = None) -> None:
        self.calls.append("close")

    def metrics(self) -> dict[Any, Any]:
        return {}


def test_number_of_successful_sends_and_close() -> None:
    """Every record is sent once with the record size, the producer closed once, the total line printed."""
    made: list[FakeProducer] = []

    def factory(props: Mapping[str, str]) -> FakeProducer:
        made.append(FakeProducer(props))
        return made[-1]

    args = ["--topic", "Hello-Kafka", "--num-records", "10", "--throughput", "1000000", "--record-size", "100"]
    status, out, err = start([*args, "--producer-props", "bootstrap.servers=localhost:9000"], factory)
    assert status == 0, err
    (producer,) = made
    assert producer.calls == ["send"] * 10 + ["close"]
    assert all(r.topic == "Hello-Kafka" and r.value is not None and len(r.value) == 100 for r in producer.records)
    assert producer.props["bootstrap.servers"] == "localhost:9000"
    match = TOTAL_LINE.fullmatch(out)
    assert match is not None and match.group(1) == "10"


class FakeTransactionalProducer(FakeProducer):
    """Records the transactional calls; each send takes 10 ms of the MockTime."""

    def __init__(self, props: Mapping[str, str], time: MockTime) -> None:
        super().__init__(props)
        self.time = time

    def send(self, record: ProducerRecord[bytes, bytes], callback: Any = None) -> None:
        super().send(record, callback)
        self.time.sleep(10)

    def init_transactions(self) -> None:
        self.calls.append("init")

    def begin_transaction(self) -> None:
        self.calls.append("begin")

    def commit_transaction(self) -> None:
        self.calls.append("commit")


def test_transactions_commit_after_transaction_duration() -> None:
    """With --transaction-duration-ms the producer gets --transactional-id, init_transactions once, and a commit
    once a transaction is that old (here every 4th send at 10 ms each and 25 ms), the last one after the loop."""
    made: list[FakeTransactionalProducer] = []
    time = MockTime(start_ms=1_000)

    def factory(props: Mapping[str, str]) -> FakeTransactionalProducer:
        made.append(FakeTransactionalProducer(props, time))
        return made[-1]

    args = ["--topic", "t", "--num-records", "10", "--throughput", "-1", "--record-size", "10"]
    txn_args = ["--transactional-id", "perf-txn", "--transaction-duration-ms", "25", "--producer-props", "a=b"]
    status, out, err = start([*args, *txn_args], factory, time)
    assert status == 0, err
    (producer,) = made
    assert producer.props["transactional.id"] == "perf-txn"
    transaction = ["begin", "send", "send", "send", "send", "commit"]
    assert producer.calls == ["init", *transaction, *transaction, "begin", "send", "send", "commit", "close"]
    assert out.startswith("10 records sent, ")
    # Without a positive duration there are no transactions and no transactional.id, whatever --transactional-id.
    status, _, err = start([*args, "--transactional-id", "perf-txn", "--producer-props", "a=b"], factory, time)
    assert status == 0, err
    assert "transactional.id" not in made[-1].props
    assert made[-1].calls == ["send"] * 10 + ["close"]


def test_number_of_failed_sends_and_close() -> None:
    """Failed sends are printed on stderr and not counted: the total says 0 records."""
    made: list[FakeProducer] = []

    def factory(props: Mapping[str, str]) -> FakeProducer:
        made.append(FakeProducer(props, fail=True))
        return made[-1]

    args = [
        "--topic",
        "t",
        "--num-records",
        "3",
        "--throughput",
        "-1",
        "--record-size",
        "10",
        "--producer-props",
        "a=b",
    ]
    status, out, err = start(args, factory)
    assert status == 0
    assert out.startswith("0 records sent, ")
    assert err.count("org.apache.kafka.common.errors.TimeoutException: Expiring 1 record(s)") == 3


def test_print_metrics_flushes_first(tmp_path: Path) -> None:
    """With --print-metrics the producer is flushed before the totals and the metrics are printed."""
    made: list[FakeProducer] = []

    def factory(props: Mapping[str, str]) -> FakeProducer:
        made.append(FakeProducer(props))
        return made[-1]

    payload = tmp_path / "payloads"
    payload.write_text("a|bb|ccc")
    args = ["--topic", "t", "--num-records", "6", "--throughput", "-1", "--payload-file", str(payload)]
    status, out, err = start(
        [*args, "--payload-delimiter", "\\|", "--producer-props", "a=b", "--print-metrics"], factory
    )
    assert status == 0
    assert made[0].calls == ["send"] * 6 + ["flush", "close"]
    assert {r.value for r in made[0].records} <= {b"a", b"bb", b"ccc"}
    assert "Number of messages read: 3\n" in out
    assert err == ""


# -- ThroughputThrottler ----------------------------------------------------------------------------------------------


def test_throttler_decisions() -> None:
    """Throttling starts only above the target average; a negative target never throttles."""
    throttler = ThroughputThrottler(100, 0, MockTime())
    assert not throttler.should_throttle(50, 0)  # no time has passed yet
    assert not throttler.should_throttle(99, 1000)
    assert throttler.should_throttle(101, 1000)
    assert not ThroughputThrottler(-1, 0, MockTime()).should_throttle(10**9, 1)


def test_throttler_sleeps_off_its_debt() -> None:
    """Each throttle adds 1/target s of debt; once 2 ms are owed it waits that long (here: ended by wakeup)."""
    throttler = ThroughputThrottler(1000, 0, MockTime())  # 1 ms per record
    throttler.throttle()
    assert throttler.sleep_deficit_ns == 1_000_000
    throttler.wakeup()
    throttler.throttle()  # 2 ms owed: the wait ends at once on the wakeup
    assert throttler.sleep_deficit_ns == 0


def test_throttler_with_zero_target_blocks_until_wakeup() -> None:
    """A target of 0 blocks the sender until wakeup is called."""
    throttler = ThroughputThrottler(0, 0, MockTime())
    done = threading.Event()

    def blocked() -> None:
        throttler.throttle()
        done.set()

    thread = threading.Thread(target=blocked)
    thread.start()
    assert not done.wait(0.05)
    throttler.wakeup()
    thread.join(5)
    assert done.is_set()
