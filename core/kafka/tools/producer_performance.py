"""Port of tools/src/main/java/org/apache/kafka/tools/ProducerPerformance.java (Kafka 3.7, as in 2.8).

`kafka-producer-perf-test.sh --topic T --num-records N (--record-size S | --payload-file F) --throughput R
--producer-props k=v ...`: sends N records as fast as allowed (R records/s at most, -1 for no limit), each
timed from `send` to its acknowledgement, and prints a line of figures every 5 s (records sent, records/s,
MB/s, average and maximum latency of the window) and at the end the totals with latency percentiles:

    1000 records sent, 4975.124378 records/sec (0.47 MB/sec), 12.34 ms avg latency, 80.00 ms max latency,
    10 ms 50th, 40 ms 95th, 70 ms 99th, 80 ms 99.9th.

(on one line). The figures and their format are Kafka's, so scripts that parse Kafka's tool parse this one.

With `--transaction-duration-ms D` (D > 0) the producer is transactional (`--transactional-id`, by default
performance-producer-default-transactional-id): one init_transactions, then records go in transactions that are
committed once D ms old, the last one after the loop, as Kafka 3.7's tool does.

# PORT: this is a Java tool of Kafka's tools module; it lives here with the Scala tools. Kafka parses its
command line with argparse4j, a port of Python's argparse: here it is kafka.utils.argparse4j's stand-in, with
argparse4j's program name, help texts, defaults and messages. The random payload is regenerated for each record
as in 3.7 (2.8 made one), from Python's random generator seeded with 0 (Java's SplittableRandom sequence is not
reproduced): uppercase letters A-Z. `--print-metrics` prints the producer's metrics after the totals, as
ToolsUtils.printMetrics does.
"""

from __future__ import annotations

import gc
import os
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from time import time_ns as _time_ns
from typing import Any, TextIO

from kafka.clients.producer.callback import Callback
from kafka.clients.producer.producer_record import ProducerRecord, new_producer_record
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.utils.time import Time
from kafka.common.utils.utils import java_divide, load_props
from kafka.tools.throughput_throttler import ThroughputThrottler
from kafka.tools.tools_utils import (
    configure_tool_logging,
    finish_stdout,
    format_java_double,
    print_exception,
    print_metrics,
    silence_stdout,
)
from kafka.utils.argparse4j import (
    ArgumentParser,
    ArgumentParserException,
    ArgumentParserExit,
    HelpFormatter,
    java_integer,
    java_long,
)

__all__ = ["PerfCallback", "ProducerPerformance", "Stats", "main", "read_payload_file", "read_props"]

PROG = "producer-performance"
DESCRIPTION = "This tool is used to verify the producer performance."
REPORTING_INTERVAL_MS = 5000
_SYSTEM_TIME = Time.SYSTEM
#: Allocations between two collections of the youngest generation while the tool runs (main's choice; see _run).
GC_YOUNG_THRESHOLD = 100_000

# Maps any byte to an uppercase letter, as Java's `(byte) (random.nextInt(26) + 65)`.
_LETTERS = bytes(65 + (b % 26) for b in range(256))


def _load_random_letters() -> tuple[Callable[[random.Random, int], Any], Callable[[Any], bytes]] | None:
    # PORT: the random payload made by the optional compiled module where it is built and not disabled
    # (KAFKA_PORT_PURE_PYTHON_WRITER=1): random_letters_state(rng, size) copies rng's Mersenne Twister state and
    # random_letters(state) then makes each payload's bytes as getrandbits(8 * size).to_bytes(size, "little")
    # .translate(_LETTERS) makes them from rng, the same bytes in the same order (100 B: about 0.5 -> 0.12 us a record).
    from kafka.common.record import default_record

    if default_record._compiled_write_record is None:
        return None
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    return module.random_letters_state, module.random_letters


#: (random_letters_state, random_letters) of the compiled module, or None (the payload is made in Python).
_random_letters = _load_random_letters()


class Stats:
    """Counts acknowledged records and their latencies, overall and per reporting window, and keeps a sample
    of at most about 500,000 latencies for the percentiles."""

    def __init__(self, num_records: int, reporting_interval: int, out: TextIO, time: Time = Time.SYSTEM) -> None:
        self._time = time
        self._out = out
        self.start = time.milliseconds()
        self.window_start = self.start
        self.iteration = 0
        self.sampling = num_records // min(num_records, 500000)
        self.latencies = [0] * (num_records // self.sampling + 1)
        self.index = 0
        # PORT: Java counts every record twice, overall and in its window; here a record is counted in its window
        # only, and a window's figures are added to the overall ones (these) when it ends (new_window): `count`,
        # `bytes`, `total_latency` and `max_latency` are their sums. The callback runs for every record.
        self._closed_count = 0
        self._closed_bytes = 0
        self._closed_max_latency = 0
        self._closed_total_latency = 0
        self.window_count = 0
        self.window_max_latency = 0
        self.window_total_latency = 0
        self.window_bytes = 0
        self.reporting_interval = reporting_interval

    @property
    def count(self) -> int:
        return self._closed_count + self.window_count

    @property
    def bytes(self) -> int:
        return self._closed_bytes + self.window_bytes

    @property
    def total_latency(self) -> int:
        return self._closed_total_latency + self.window_total_latency

    @property
    def max_latency(self) -> int:
        return max(self._closed_max_latency, self.window_max_latency)

    def record(self, latency: int, size: int, time_ms: int) -> None:
        # PerfCallback.on_completion writes this method out: a change here goes there too.
        self.window_count += 1
        self.window_bytes += size
        self.window_total_latency += latency
        if latency > self.window_max_latency:
            self.window_max_latency = latency
        if self.iteration % self.sampling == 0:
            self.latencies[self.index] = latency
            self.index += 1
        if time_ms - self.window_start >= self.reporting_interval:
            self.print_window()
            self.new_window()

    def print_window(self) -> None:
        elapsed = self._time.milliseconds() - self.window_start
        recs_per_sec = java_divide(1000.0 * self.window_count, elapsed)
        mb_per_sec = java_divide(1000.0 * self.window_bytes, elapsed) / (1024.0 * 1024.0)
        self._out.write(
            f"{self.window_count} records sent, {format_java_double(recs_per_sec, 1)} records/sec "
            f"({format_java_double(mb_per_sec, 2)} MB/sec), "
            f"{format_java_double(java_divide(self.window_total_latency, self.window_count), 1)} ms avg latency, "
            f"{format_java_double(float(self.window_max_latency), 1)} ms max latency.\n"
        )
        self._out.flush()

    def new_window(self) -> None:
        self._closed_count += self.window_count
        self._closed_bytes += self.window_bytes
        self._closed_total_latency += self.window_total_latency
        if self.window_max_latency > self._closed_max_latency:
            self._closed_max_latency = self.window_max_latency
        self.window_start = self._time.milliseconds()
        self.window_count = 0
        self.window_max_latency = 0
        self.window_total_latency = 0
        self.window_bytes = 0

    def print_total(self) -> None:
        elapsed = self._time.milliseconds() - self.start
        recs_per_sec = java_divide(1000.0 * self.count, elapsed)
        mb_per_sec = java_divide(1000.0 * self.bytes, elapsed) / (1024.0 * 1024.0)
        percs = self.percentiles(self.latencies, self.index, 0.5, 0.95, 0.99, 0.999)
        self._out.write(
            f"{self.count} records sent, {format_java_double(recs_per_sec, 6)} records/sec "
            f"({format_java_double(mb_per_sec, 2)} MB/sec), "
            f"{format_java_double(java_divide(self.total_latency, self.count), 2)} ms avg latency, "
            f"{format_java_double(float(self.max_latency), 2)} ms max latency, {percs[0]} ms 50th, {percs[1]} ms 95th, "
            f"{percs[2]} ms 99th, {percs[3]} ms 99.9th.\n"
        )
        self._out.flush()

    @staticmethod
    def percentiles(latencies: list[int], count: int, *percentiles: float) -> list[int]:
        """The latencies at the given fractions of the first `count` samples, sorted in place as Java does."""
        size = min(count, len(latencies))
        latencies[:size] = sorted(latencies[:size])
        return [latencies[int(p * size)] for p in percentiles]


class PerfCallback(Callback):
    """Times one record from its send to its acknowledgement; only successes are counted."""

    __slots__ = ("_bytes", "_err", "_start", "_stats", "_time")

    def __init__(self, start: int, size: int, stats: Stats, err: TextIO, time: Time = Time.SYSTEM) -> None:
        self._start = start
        self._bytes = size
        self._stats = stats
        self._err = err
        self._time = time

    def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        time = self._time
        # The system clock's milliseconds read without the method call (this runs for every record).
        now = _time_ns() // 1_000_000 if time is _SYSTEM_TIME else time.milliseconds()
        if exception is None:
            # Stats.record written out, then the iteration counted, as Java's callback does (this runs for every
            # record, on the producer's I/O thread).
            stats = self._stats
            latency = now - self._start
            stats.window_count += 1
            stats.window_bytes += self._bytes
            stats.window_total_latency += latency
            if latency > stats.window_max_latency:
                stats.window_max_latency = latency
            iteration = stats.iteration
            if iteration % stats.sampling == 0:
                index = stats.index
                stats.latencies[index] = latency
                stats.index = index + 1
            if now - stats.window_start >= stats.reporting_interval:
                stats.print_window()
                stats.new_window()
            stats.iteration = iteration + 1
        else:
            print_exception(exception, self._err)


def _load_new_perf_callback() -> Callable[..., PerfCallback] | None:
    # PORT: the per-record PerfCallback made by one call of the optional compiled module where it is built and not
    # disabled (KAFKA_PORT_PURE_PYTHON_WRITER=1): new_slotted(PerfCallback, start, size, stats, err, time) sets the
    # five slots as __init__ sets them, without the call of __init__; None: the class is called.
    if _random_letters is None:
        return None
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    module.register_new_slotted(PerfCallback, ("_start", "_bytes", "_stats", "_err", "_time"))
    new_slotted: Callable[..., PerfCallback] = module.new_slotted
    return new_slotted


#: new_slotted of the compiled module, for PerfCallback (called with the class first), or None.
_new_perf_callback = _load_new_perf_callback()


def generate_random_payload(record_size: int | None, payload_byte_list: list[bytes], rng: random.Random) -> bytes:
    """A payload: one of the file's payloads at random, else `record_size` random uppercase letters."""
    if payload_byte_list:
        return payload_byte_list[rng.randrange(len(payload_byte_list))]
    if record_size is not None:
        return rng.randbytes(record_size).translate(_LETTERS)
    raise ValueError("no payload File Path or record Size provided")


def read_props(
    producer_props: Sequence[str] | None,
    producer_config: str | None,
    transactional_id: str | None,
    transactions_enabled: bool,
) -> dict[str, str]:
    """The producer's settings: the config file, then `--producer-props` pairs (exactly one '=' each), then the
    byte-array serializers, the transactional id when transactions are on, and client.id if unset."""
    props: dict[str, str] = {}
    if producer_config is not None:
        props.update(load_props(producer_config))
    if producer_props is not None:
        for prop in producer_props:
            pieces = prop.split("=")
            while pieces and pieces[-1] == "":
                pieces.pop()  # String.split drops trailing empty strings
            if len(pieces) != 2:
                raise ValueError(f"Invalid property: {prop}")
            props[pieces[0]] = pieces[1]
    props["key.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
    props["value.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
    if transactions_enabled and transactional_id is not None:
        props["transactional.id"] = transactional_id
    if props.get("client.id") is None:
        props["client.id"] = "perf-producer-client"
    return props


def read_payload_file(payload_file_path: str | None, payload_delimiter: str, out: TextIO) -> list[bytes]:
    """The payloads of a UTF-8 file split at the delimiter (a regular expression, as String.split takes)."""
    payloads: list[bytes] = []
    if payload_file_path is not None:
        path = os.path.abspath(payload_file_path)
        out.write(f"Reading payloads from: {path}\n")
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            raise ValueError("File does not exist or empty file provided.")
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        payload_list = re.split(payload_delimiter, text)
        if len(payload_list) > 1:
            while payload_list and payload_list[-1] == "":
                payload_list.pop()
        out.write(f"Number of messages read: {len(payload_list)}\n")
        payloads = [p.encode("utf-8") for p in payload_list]
    return payloads


# -- the command line, as argparse4j reads it ----------------------------------------------------------------


def arg_parser(out: TextIO | None = None) -> ArgumentParser:
    """The command-line parser, with argparse4j's names, metavars, destinations and help."""
    parser = ArgumentParser(
        out or sys.stdout,
        prog=PROG,
        description=DESCRIPTION,
        formatter_class=HelpFormatter,
    )
    parser._optionals.title = "optional arguments"
    parser.add_argument(
        "--topic", required=True, type=str, metavar="TOPIC", dest="topic", help="produce messages to this topic"
    )
    parser.add_argument(
        "--num-records",
        required=True,
        type=java_long,
        metavar="NUM-RECORDS",
        dest="numRecords",
        help="number of messages to produce",
    )
    parser.add_argument(
        "--payload-delimiter",
        type=str,
        metavar="PAYLOAD-DELIMITER",
        dest="payloadDelimiter",
        default="\\n",
        help="provides delimiter to be used when --payload-file is provided. Defaults to new line. Note that this "
        "parameter will be ignored if --payload-file is not provided.",
    )
    parser.add_argument(
        "--throughput",
        required=True,
        type=java_integer,
        metavar="THROUGHPUT",
        dest="throughput",
        help="throttle maximum message throughput to *approximately* THROUGHPUT messages/sec. Set this to -1 to "
        "disable throttling.",
    )
    parser.add_argument(
        "--producer-props",
        nargs="+",
        metavar="PROP-NAME=PROP-VALUE",
        type=str,
        dest="producerConfig",
        help="kafka producer related configuration properties like bootstrap.servers,client.id etc. These configs "
        "take precedence over those passed via --producer.config.",
    )
    parser.add_argument(
        "--producer.config",
        type=str,
        metavar="CONFIG-FILE",
        dest="producerConfigFile",
        help="producer config properties file.",
    )
    # PORT: Kafka's tool takes the servers through --producer-props and the file through --producer.config; these
    # two, which every tool of this project takes, set bootstrap.servers and add a properties file.
    parser.add_argument(
        "--bootstrap-server",
        type=str,
        metavar="BOOTSTRAP-SERVER",
        dest="bootstrapServer",
        help="the server(s) to connect to (bootstrap.servers; --producer-props takes precedence).",
    )
    parser.add_argument(
        "--command-config",
        type=str,
        metavar="CONFIG-FILE",
        dest="commandConfigFile",
        help="producer config properties file (instead of --producer.config).",
    )
    parser.add_argument(
        "--print-metrics",
        action="store_true",
        dest="printMetrics",
        help="print out metrics at the end of the test.",
    )
    parser.add_argument(
        "--transactional-id",
        type=str,
        metavar="TRANSACTIONAL-ID",
        dest="transactionalId",
        default="performance-producer-default-transactional-id",
        help="The transactionalId to use if transaction-duration-ms is > 0. Useful when testing the performance of "
        "concurrent transactions.",
    )
    parser.add_argument(
        "--transaction-duration-ms",
        type=java_long,
        metavar="TRANSACTION-DURATION",
        dest="transactionDurationMs",
        default=0,
        help="The max age of each transaction. The commitTransaction will be called after this time has elapsed. "
        "Transactions are only enabled if this value is positive.",
    )
    # argparse4j lists the group after the other arguments, in the usage line and in the help.
    payload_group = parser.add_argument_group(
        description="either --record-size or --payload-file must be specified but not both."
    )
    payload_options = payload_group.add_mutually_exclusive_group(required=True)
    payload_options.add_argument(
        "--record-size",
        type=java_integer,
        metavar="RECORD-SIZE",
        dest="recordSize",
        help="message size in bytes. Note that you must provide exactly one of --record-size or --payload-file.",
    )
    payload_options.add_argument(
        "--payload-file",
        type=str,
        metavar="PAYLOAD-FILE",
        dest="payloadFile",
        help="file to read the message payloads from. This works only for UTF-8 encoded text files. Payloads will "
        "be read from this file and a payload will be randomly selected when sending messages. Note that you must "
        "provide exactly one of --record-size or --payload-file.",
    )
    return parser


ProducerFactory = Callable[[Mapping[str, str]], Any]


class ProducerPerformance:
    """The test: `start(args)` parses the command line, sends the records and prints the figures."""

    def __init__(
        self,
        out: TextIO | None = None,
        err: TextIO | None = None,
        producer_factory: ProducerFactory | None = None,
        time: Time = Time.SYSTEM,
        freeze_gc: bool = False,
    ) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self._producer_factory = producer_factory
        self.time = time
        # Whether to freeze the garbage collector's view of the process once the producer is made (main's choice:
        # the process is the tool's alone).
        self._freeze_gc = freeze_gc
        self.stats: Stats | None = None

    def create_kafka_producer(self, props: Mapping[str, str]) -> Any:
        if self._producer_factory is not None:
            return self._producer_factory(props)
        from kafka.clients.producer.kafka_producer import KafkaProducer

        return KafkaProducer(dict(props))

    def start(self, args: Sequence[str]) -> int:
        """Runs the test; returns the exit status."""
        parser = arg_parser(self.out)
        try:
            try:
                res = parser.parse_args(list(args))
            except ArgumentParserExit as e:
                return e.status
            topic_name: str = res.topic
            num_records: int = res.numRecords
            record_size: int | None = res.recordSize
            throughput: int = res.throughput
            producer_props: list[str] | None = res.producerConfig
            producer_config: str | None = res.producerConfigFile
            payload_file_path: str | None = res.payloadFile
            transactional_id: str = res.transactionalId
            should_print_metrics: bool = res.printMetrics
            transaction_duration_ms: int = res.transactionDurationMs
            transactions_enabled = transaction_duration_ms > 0
            payload_delimiter = "\n" if res.payloadDelimiter == "\\n" else res.payloadDelimiter
            bootstrap_server: str | None = res.bootstrapServer
            command_config: str | None = res.commandConfigFile
            if (
                producer_props is None
                and producer_config is None
                and bootstrap_server is None
                and command_config is None
            ):
                raise ArgumentParserException(
                    "Either --producer-props, --producer.config, --bootstrap-server or --command-config must be "
                    "specified."
                )
            if command_config is not None:
                if producer_config is not None:
                    raise ArgumentParserException("--producer.config and --command-config cannot both be given.")
                producer_config = command_config
            if bootstrap_server is not None:
                # Before --producer-props, which take precedence.
                producer_props = [f"bootstrap.servers={bootstrap_server}", *(producer_props or [])]
        except ArgumentParserException as e:
            if not args:
                parser.print_help(self.out)
                return 0
            parser.handle_error(e, self.err)
            return 1
        self._run(
            topic_name,
            num_records,
            record_size,
            throughput,
            producer_props,
            producer_config,
            payload_file_path,
            payload_delimiter,
            transactional_id,
            transactions_enabled,
            transaction_duration_ms,
            should_print_metrics,
        )
        return 0

    def _run(
        self,
        topic_name: str,
        num_records: int,
        record_size: int | None,
        throughput: int,
        producer_props: list[str] | None,
        producer_config: str | None,
        payload_file_path: str | None,
        payload_delimiter: str,
        transactional_id: str,
        transactions_enabled: bool,
        transaction_duration_ms: int,
        should_print_metrics: bool,
    ) -> None:
        payload_byte_list = read_payload_file(payload_file_path, payload_delimiter, self.out)
        props = read_props(producer_props, producer_config, transactional_id, transactions_enabled)
        producer = self.create_kafka_producer(props)
        if self._freeze_gc:
            # PORT: the JVM's collector has no counterpart here. Everything made so far (modules, the producer)
            # lives as long as the tool: frozen, the full collections that the records in flight trigger no longer
            # walk it (300k records of 100 B: 0.14 -> 0.03 s of full collections).
            gc.freeze()
            # PORT: and the youngest generation is collected every GC_YOUNG_THRESHOLD allocations rather than 700.
            # Each record in flight holds three tracked objects (its callback, the producer's callback wrapper, its
            # future) until its batch is acknowledged, a few thousand records later: with 700, the collector ran
            # every ~230 records and promoted them all to the older generations, which were then walked again
            # (300k records of 100 B: 1,283 collections, 0.18 s, ~0.6 us of CPU a record; with 10,000: 17
            # collections, 0.03 s, and 9.5 -> 8.4 us of CPU a record in all). The count is allocations less
            # deallocations, so it reaches the threshold only while that many objects are in flight: with the faster
            # send loop, 10,000 (~3,300 records) was reached every ~5,000 records (35-62 collections of 300k records,
            # each walking ~10,000 live objects, ~13% of the tool's CPU in perf); with 100,000, 0-2 in 1.2M records.
            gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
        try:
            if transactions_enabled:
                producer.init_transactions()
            rng = random.Random(0)
            time = self.time
            stats = self.stats = Stats(num_records, REPORTING_INTERVAL_MS, self.out, time)
            start_ms = time.milliseconds()
            throttler = ThroughputThrottler(throughput, start_ms, time)
            send = producer.send
            milliseconds = time.milliseconds
            err = self.err
            current_transaction_size = 0
            transaction_start_time = 0
            # generate_random_payload's random letters written out (Random.randbytes is getrandbits' bytes), and
            # the throttler asked only with a limit (should_throttle is False without one): this loop runs for
            # every record.
            letters = not payload_byte_list and record_size is not None
            payload_size = record_size if record_size is not None else 0
            payload_bits = 8 * payload_size
            getrandbits = rng.getrandbits
            compiled_letters = _random_letters
            letters_state: Any = None
            random_letters: Callable[[Any], bytes] | None = None
            if letters and compiled_letters is not None:
                # From here on the payloads come from a copy of rng's state: rng itself is not used again.
                letters_state = compiled_letters[0](rng, payload_size)
                random_letters = compiled_letters[1]
            throttled = throughput >= 0
            # The system clock read without the method call, as PerfCallback does.
            system_time = time is _SYSTEM_TIME
            time_ns = _time_ns
            # ProducerRecord(topic, value), made by the compiled module where it is built, and so is the callback.
            new_record = new_producer_record
            new_callback = _new_perf_callback
            for i in range(num_records):
                if random_letters is not None:
                    payload = random_letters(letters_state)
                elif letters:
                    payload = getrandbits(payload_bits).to_bytes(payload_size, "little").translate(_LETTERS)
                else:
                    payload = generate_random_payload(record_size, payload_byte_list, rng)
                if transactions_enabled and current_transaction_size == 0:
                    producer.begin_transaction()
                    transaction_start_time = milliseconds()
                record: ProducerRecord[bytes, bytes] = new_record(topic_name, payload)
                send_start_ms = time_ns() // 1_000_000 if system_time else milliseconds()
                if new_callback is not None:
                    send(record, new_callback(PerfCallback, send_start_ms, len(payload), stats, err, time))
                else:
                    send(record, PerfCallback(send_start_ms, len(payload), stats, err, time))
                current_transaction_size += 1
                if transactions_enabled and transaction_duration_ms <= send_start_ms - transaction_start_time:
                    producer.commit_transaction()
                    current_transaction_size = 0
                if throttled and throttler.should_throttle(i, send_start_ms):
                    throttler.throttle()
            if transactions_enabled and current_transaction_size != 0:
                producer.commit_transaction()
            if not should_print_metrics:
                producer.close()
                stats.print_total()
            else:
                # Everything is acknowledged before the totals and the metrics are printed.
                producer.flush()
                stats.print_total()
                print_metrics(producer.metrics(), self.out)
                producer.close()
        except BaseException:
            producer.close(0)
            raise


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-producer-perf-test.sh (through kafka-run-class.sh); returns the exit status."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    try:
        return ProducerPerformance(freeze_gc=True).start(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 0
    except Exception as e:
        # What escapes Java's main ends the JVM with its stack trace.
        print_exception(e, sys.stderr, prefix='Exception in thread "main" ')
        return 1
    finally:
        finish_stdout()


if __name__ == "__main__":
    sys.exit(main())
