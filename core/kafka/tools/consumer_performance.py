"""Port of core/src/main/scala/kafka/tools/ConsumerPerformance.scala (Kafka 2.8), with its options base
PerfConfig.scala.

`kafka-consumer-perf-test.sh --bootstrap-server HOST:PORT --topic T --messages N`: consumes N records in a
group (from the earliest offset unless `--from-latest`) and prints one line of figures:

    start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms,
    fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec

(on one line, as the header before it), or with `--show-detailed-stats` a line per `--reporting-interval`
instead. It gives up when no record arrives for `--timeout` ms, with Kafka's warning. The layout and number
formats are Kafka's, so scripts written for Kafka's tool read this one.

# PORT: `--date-format` takes java.text.SimpleDateFormat patterns; the common letters (y M d H h k K m s S a E
D z Z and quoted text) are translated.
A failure that ends the tool prints the exception's lines (`Exception in thread "main" ...`) without a stack
trace.
"""

from __future__ import annotations

import gc
import logging
import random
import re
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime
from itertools import islice
from operator import attrgetter
from typing import Any, TextIO

from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.consumer_records import ConsumerRecords
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.common.utils.utils import java_divide, load_props
from kafka.tools.tools_utils import (
    configure_tool_logging,
    finish_stdout,
    format_java_double,
    print_exception,
    print_metrics,
    silence_stdout,
)
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    Integer,
    OptionException,
    UsageException,
    check_required_args,
    ensure_required_unless,
    is_print_help_needed,
    is_print_version_needed,
    print_usage_and_die,
    print_version_if_needed,
)

__all__ = [
    "ConsumerPerfConfig",
    "PerfConfig",
    "SimpleDateFormat",
    "consume",
    "main",
    "print_consumer_progress",
    "print_header",
    "run_command",
]

DESCRIPTION = "This tool helps in performance test for the full zookeeper consumer"

_logger = logging.getLogger("kafka.tools.ConsumerPerformance$")


# -- java.text.SimpleDateFormat ------------------------------------------------------------------------------

_PATTERN_TOKEN = re.compile(r"'(?:[^']|'')*'|([A-Za-z])\1*|[^A-Za-z']+")
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class SimpleDateFormat:
    """Formats epoch milliseconds in local time with a java.text.SimpleDateFormat pattern."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._tokens: list[str] = []
        pos = 0
        while pos < len(pattern):
            match = _PATTERN_TOKEN.match(pattern, pos)
            if match is None:
                raise ValueError(f"Unterminated quote in date format pattern: {pattern}")
            token = match.group(0)
            if token[0].isalpha() and token[0] not in "yMdHhkKmsSaEDzZuGwWF":
                raise ValueError(f"Illegal pattern character '{token[0]}'")
            self._tokens.append(token)
            pos = match.end()

    def format(self, epoch_ms: int) -> str:
        moment = datetime.fromtimestamp(epoch_ms / 1000.0).astimezone()
        millis = epoch_ms % 1000
        parts = []
        for token in self._tokens:
            letter, count = token[0], len(token)
            if letter == "'":
                parts.append(token[1:-1].replace("''", "'") if count > 2 else "'")
            elif not letter.isalpha():
                parts.append(token)
            else:
                parts.append(self._field(letter, count, moment, millis))
        return "".join(parts)

    @staticmethod
    def _field(letter: str, count: int, moment: datetime, millis: int) -> str:
        def number(value: int) -> str:
            return str(value).zfill(count)

        if letter == "y":
            return str(moment.year % 100).zfill(2) if count == 2 else number(moment.year)
        if letter == "M":
            if count >= 4:
                return _MONTHS[moment.month - 1]
            if count == 3:
                return _MONTHS[moment.month - 1][:3]
            return number(moment.month)
        if letter == "d":
            return number(moment.day)
        if letter == "D":
            return number(moment.timetuple().tm_yday)
        if letter == "H":
            return number(moment.hour)
        if letter == "k":
            return number(moment.hour or 24)
        if letter == "K":
            return number(moment.hour % 12)
        if letter == "h":
            return number(moment.hour % 12 or 12)
        if letter == "m":
            return number(moment.minute)
        if letter == "s":
            return number(moment.second)
        if letter == "S":
            return number(millis)
        if letter == "a":
            return "AM" if moment.hour < 12 else "PM"
        if letter == "E":
            day = _DAYS[moment.weekday()]
            return day if count >= 4 else day[:3]
        if letter == "u":
            return number(moment.isoweekday())
        if letter == "z":
            return moment.tzname() or ""
        if letter == "Z":
            return moment.strftime("%z")
        if letter == "G":
            return "AD"
        if letter in "wW":
            return number(int(moment.strftime("%V")) if letter == "w" else (moment.day - 1) // 7 + 1)
        if letter == "F":
            return number((moment.day - 1) // 7 + 1)
        return ""


# -- the command line ----------------------------------------------------------------------------------------


class PerfConfig(CommandDefaultOptions):
    """The options every Kafka performance tool shares (kafka.tools.PerfConfig)."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        self.num_messages_opt = (
            self.parser.accepts("messages", "REQUIRED: The number of messages to send or consume")
            .with_required_arg()
            .described_as("count")
            .of_type(int)
        )
        self.reporting_interval_opt = (
            self.parser.accepts("reporting-interval", "Interval in milliseconds at which to print progress info.")
            .with_required_arg()
            .described_as("interval_ms")
            .of_type(Integer)
            .defaults_to(5000)
        )
        self.date_format_opt = (
            self.parser.accepts(
                "date-format",
                "The date format to use for formatting the time field. See java.text.SimpleDateFormat for options.",
            )
            .with_required_arg()
            .described_as("date format")
            .defaults_to("yyyy-MM-dd HH:mm:ss:SSS")
        )
        self.hide_header_opt = self.parser.accepts("hide-header", "If set, skips printing the header for the stats ")


class ConsumerPerfConfig(PerfConfig):
    """The command line of kafka-consumer-perf-test.sh, parsed (ConsumerPerformance.ConsumerPerfConfig)."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.broker_list_opt = (
            parser.accepts(
                "broker-list",
                "DEPRECATED, use --bootstrap-server instead; ignored if --bootstrap-server is specified.  The broker "
                "list string in the form HOST1:PORT1,HOST2:PORT2.",
            )
            .with_required_arg()
            .described_as("broker-list")
        )
        self.bootstrap_server_opt = (
            parser.accepts(
                "bootstrap-server",
                "REQUIRED unless --broker-list(deprecated) is specified. The server(s) to connect to.",
            )
            .with_required_arg()
            .described_as("server to connect to")
        )
        self.topic_opt = (
            parser.accepts("topic", "REQUIRED: The topic to consume from.").with_required_arg().described_as("topic")
        )
        self.group_id_opt = (
            parser.accepts("group", "The group id to consume on.")
            .with_required_arg()
            .described_as("gid")
            .defaults_to(f"perf-consumer-{random.randrange(100000)}")
        )
        self.fetch_size_opt = (
            parser.accepts("fetch-size", "The amount of data to fetch in a single request.")
            .with_required_arg()
            .described_as("size")
            .of_type(Integer)
            .defaults_to(1024 * 1024)
        )
        self.reset_beginning_offset_opt = parser.accepts(
            "from-latest",
            "If the consumer does not already have an established offset to consume from, start with the latest "
            "message present in the log rather than the earliest message.",
        )
        self.socket_buffer_size_opt = (
            parser.accepts("socket-buffer-size", "The size of the tcp RECV size.")
            .with_required_arg()
            .described_as("size")
            .of_type(Integer)
            .defaults_to(2 * 1024 * 1024)
        )
        self.num_threads_opt = (
            parser.accepts("threads", "DEPRECATED AND IGNORED: Number of processing threads.")
            .with_required_arg()
            .described_as("count")
            .of_type(Integer)
            .defaults_to(10)
        )
        self.num_fetchers_opt = (
            parser.accepts("num-fetch-threads", "DEPRECATED AND IGNORED: Number of fetcher threads.")
            .with_required_arg()
            .described_as("count")
            .of_type(Integer)
            .defaults_to(1)
        )
        self.consumer_config_opt = (
            parser.accepts("consumer.config", "Consumer config properties file.")
            .with_required_arg()
            .described_as("config file")
        )
        self.print_metrics_opt = parser.accepts("print-metrics", "Print out the metrics.")
        self.show_detailed_stats_opt = parser.accepts(
            "show-detailed-stats",
            "If set, stats are reported for each reporting interval as configured by reporting-interval",
        )
        self.record_fetch_timeout_opt = (
            parser.accepts("timeout", "The maximum allowed time in milliseconds between returned records.")
            .with_optional_arg()
            .described_as("milliseconds")
            .of_type(int)
            .defaults_to(10000)
        )
        self.options = parser.parse(self.args)
        ensure_required_unless(self.options, self.bootstrap_server_opt, self.broker_list_opt)

        self.print_metrics = False
        self.props: dict[str, str] = {}
        self.num_threads = 10
        self.topic = ""
        self.num_messages = 0
        self.reporting_interval = 5000
        self.show_detailed_stats = False
        self.date_format = SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS")
        self.hide_header = False
        self.record_fetch_timeout_ms = 10000

    def check_args(self, out: TextIO) -> None:
        """Kafka's checks and derived settings, in Kafka's order."""
        options = self.options
        if options.has(self.num_threads_opt) or options.has(self.num_fetchers_opt):
            out.write(
                "WARNING: option [threads] and [num-fetch-threads] have been deprecated and will be ignored by the "
                "test\n"
            )
        if is_print_help_needed(self):
            print_usage_and_die(self.parser, DESCRIPTION)
        if is_print_version_needed(self):
            return
        check_required_args(self.parser, options, self.topic_opt, self.num_messages_opt)
        self.print_metrics = options.has(self.print_metrics_opt)
        self.props = (
            load_props(options.value_of(self.consumer_config_opt)) if options.has(self.consumer_config_opt) else {}
        )
        broker_opt = self.bootstrap_server_opt if options.has(self.bootstrap_server_opt) else self.broker_list_opt
        self.props["bootstrap.servers"] = str(options.value_of(broker_opt))
        self.props["group.id"] = str(options.value_of(self.group_id_opt))
        self.props["receive.buffer.bytes"] = str(options.value_of(self.socket_buffer_size_opt))
        self.props["max.partition.fetch.bytes"] = str(options.value_of(self.fetch_size_opt))
        self.props["auto.offset.reset"] = "latest" if options.has(self.reset_beginning_offset_opt) else "earliest"
        self.props["key.deserializer"] = "org.apache.kafka.common.serialization.ByteArrayDeserializer"
        self.props["value.deserializer"] = "org.apache.kafka.common.serialization.ByteArrayDeserializer"
        self.props["check.crcs"] = "false"
        self.num_threads = int(options.value_of(self.num_threads_opt))
        self.topic = str(options.value_of(self.topic_opt))
        self.num_messages = int(options.value_of(self.num_messages_opt))
        self.reporting_interval = int(options.value_of(self.reporting_interval_opt))
        if self.reporting_interval <= 0:
            raise ValueError("Reporting interval must be greater than 0.")
        self.show_detailed_stats = options.has(self.show_detailed_stats_opt)
        self.date_format = SimpleDateFormat(str(options.value_of(self.date_format_opt)))
        self.hide_header = options.has(self.hide_header_opt)
        self.record_fetch_timeout_ms = int(options.value_of(self.record_fetch_timeout_opt))


# -- the test ------------------------------------------------------------------------------------------------


def print_header(show_detailed_stats: bool, out: TextIO) -> None:
    new_fields_in_header = ", rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec"
    if not show_detailed_stats:
        out.write(
            "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec"
            + new_fields_in_header
            + "\n"
        )
    else:
        out.write(
            "time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec" + new_fields_in_header + "\n"
        )


class _JoinTimer(ConsumerRebalanceListener):
    """Adds the time from a revocation (or the start) to the next assignment to the rebalance time."""

    def __init__(self, time: Time) -> None:
        self._time = time
        self.join_start = time.milliseconds()
        self.join_time = 0
        self.join_time_ms_in_single_round = 0

    def on_partitions_assigned(self, partitions: Collection[TopicPartition]) -> None:
        elapsed = self._time.milliseconds() - self.join_start
        self.join_time += elapsed
        self.join_time_ms_in_single_round += elapsed

    def on_partitions_revoked(self, partitions: Collection[TopicPartition]) -> None:
        self.join_start = self._time.milliseconds()


def _record_bytes(records: Iterable[Any]) -> int:
    """The sizes of the records' keys and values added up (a null key or value counts nothing), in C-level loops:
    Python's own loop over each record cost more than the consumer's decoding of it."""
    if not isinstance(records, (list, tuple, ConsumerRecords)):
        records = list(records)
    for first in records:
        key_of, value_of = _CONSUMER_RECORD_GETTERS if type(first) is ConsumerRecord else _GETTERS
        return sum(map(len, filter(None, map(key_of, records)))) + sum(map(len, filter(None, map(value_of, records))))
    return 0


_GETTERS: tuple[Callable[[Any], Any], Callable[[Any], Any]] = (attrgetter("key"), attrgetter("value"))
# ConsumerRecord's key and value are read-only properties: their getters, called directly, skip the descriptor.
_CONSUMER_RECORD_GETTERS: tuple[Callable[[Any], Any], Callable[[Any], Any]] = (
    ConsumerRecord.key.fget,  # type: ignore[attr-defined]
    ConsumerRecord.value.fget,  # type: ignore[attr-defined]
)


class _Totals:
    def __init__(self) -> None:
        self.messages_read = 0
        self.bytes_read = 0
        self.join_time_ms = 0


def consume(
    consumer: Any,
    topics: list[str],
    count: int,
    timeout: int,
    config: ConsumerPerfConfig,
    totals: _Totals,
    out: TextIO,
    time: Time = Time.SYSTEM,
) -> None:
    """Polls until `count` records were read or none came for `timeout` ms, printing detailed progress per
    reporting interval when asked; the totals go into `totals`."""
    bytes_read = 0
    messages_read = 0
    last_bytes_read = 0
    last_messages_read = 0
    join_timer = _JoinTimer(time)
    consumer.subscribe(topics, join_timer)

    current_time_millis = time.milliseconds()
    last_report_time = current_time_millis
    last_consumed_time = current_time_millis
    reporting_interval = config.reporting_interval
    try:
        while messages_read < count and current_time_millis - last_consumed_time <= timeout:
            records = consumer.poll(100)
            current_time_millis = time.milliseconds()
            polled = len(records)
            if polled == 0:
                continue
            last_consumed_time = current_time_millis
            # PORT: Kafka adds each record's key and value sizes in its loop over the records, and checks the
            # reporting interval after each record; the clock is read once per poll, so only the first record can
            # start a report. The same counts, taken per poll: that record, then the others together.
            if current_time_millis - last_report_time >= reporting_interval:
                first = next(iter(records))
                messages_read += 1
                bytes_read += _record_bytes((first,))
                polled -= 1
                if config.show_detailed_stats:
                    print_consumer_progress(
                        0,
                        bytes_read,
                        last_bytes_read,
                        messages_read,
                        last_messages_read,
                        last_report_time,
                        current_time_millis,
                        config.date_format,
                        join_timer.join_time_ms_in_single_round,
                        out,
                    )
                join_timer.join_time_ms_in_single_round = 0
                last_report_time = current_time_millis
                last_messages_read = messages_read
                last_bytes_read = bytes_read
                if polled:
                    messages_read += polled
                    bytes_read += _record_bytes(islice(records, 1, None))
            else:
                messages_read += polled
                bytes_read += _record_bytes(records)
        if messages_read < count:
            out.write(
                f"WARNING: Exiting before consuming the expected number of messages: timeout ({timeout} ms) exceeded. "
                "You can use the --timeout option to increase the timeout.\n"
            )
    finally:
        totals.messages_read = messages_read
        totals.bytes_read = bytes_read
        totals.join_time_ms = join_timer.join_time


def print_consumer_progress(
    id_: int,
    bytes_read: int,
    last_bytes_read: int,
    messages_read: int,
    last_messages_read: int,
    start_ms: int,
    end_ms: int,
    date_format: SimpleDateFormat,
    periodic_join_time_in_ms: int,
    out: TextIO,
) -> None:
    """One line of `--show-detailed-stats`: the interval's figures, then its rebalance and fetch figures."""
    elapsed_ms = float(end_ms - start_ms)
    total_mb_read = bytes_read / (1024 * 1024)
    interval_mb_read = (bytes_read - last_bytes_read) / (1024 * 1024)
    interval_mb_per_sec = java_divide(1000.0 * interval_mb_read, elapsed_ms)
    interval_messages_per_sec = java_divide(messages_read - last_messages_read, elapsed_ms) * 1000.0
    fetch_time_ms = end_ms - start_ms - periodic_join_time_in_ms
    if fetch_time_ms <= 0:
        fetch_mb_per_sec, fetch_messages_per_sec = 0.0, 0.0
    else:
        fetch_mb_per_sec = 1000.0 * interval_mb_read / fetch_time_ms
        fetch_messages_per_sec = 1000.0 * (messages_read - last_messages_read) / fetch_time_ms
    out.write(
        f"{date_format.format(end_ms)}, {id_}, {format_java_double(total_mb_read, 4)}, "
        f"{format_java_double(interval_mb_per_sec, 4)}, {messages_read}, "
        f"{format_java_double(interval_messages_per_sec, 4)}, {periodic_join_time_in_ms}, {fetch_time_ms}, "
        f"{format_java_double(fetch_mb_per_sec, 4)}, {format_java_double(fetch_messages_per_sec, 4)}\n"
    )
    out.flush()


ConsumerFactory = Callable[[Mapping[str, str]], Any]


def _default_consumer_factory(props: Mapping[str, str]) -> Any:
    from kafka.clients.consumer.kafka_consumer import KafkaConsumer

    return KafkaConsumer(dict(props))


def run(
    config: ConsumerPerfConfig,
    out: TextIO,
    err: TextIO,
    consumer_factory: ConsumerFactory | None = None,
    time: Time = Time.SYSTEM,
) -> None:
    """The test as Kafka's main runs it once the command line is checked."""
    _logger.info("Starting consumer...")
    totals = _Totals()
    if not config.hide_header:
        print_header(config.show_detailed_stats, out)
    consumer = (consumer_factory or _default_consumer_factory)(config.props)
    try:
        start_ms = time.milliseconds()
        consume(
            consumer, [config.topic], config.num_messages, config.record_fetch_timeout_ms, config, totals, out, time
        )
        end_ms = time.milliseconds()
        metrics = consumer.metrics() if config.print_metrics else None
    finally:
        consumer.close()
    elapsed_secs = (end_ms - start_ms) / 1000.0
    fetch_time_in_ms = (end_ms - start_ms) - totals.join_time_ms
    if not config.show_detailed_stats:
        total_mb_read = totals.bytes_read / (1024 * 1024)
        fetch_secs = fetch_time_in_ms / 1000.0
        fields = [
            config.date_format.format(start_ms),
            config.date_format.format(end_ms),
            format_java_double(total_mb_read, 4),
            format_java_double(java_divide(total_mb_read, elapsed_secs), 4),
            str(totals.messages_read),
            format_java_double(java_divide(totals.messages_read, elapsed_secs), 4),
            str(totals.join_time_ms),
            str(fetch_time_in_ms),
            format_java_double(java_divide(total_mb_read, fetch_secs), 4),
            format_java_double(java_divide(totals.messages_read, fetch_secs), 4),
        ]
        out.write(", ".join(fields) + "\n")
        out.flush()
    if metrics is not None:
        print_metrics(metrics, out)


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    consumer_factory: ConsumerFactory | None = None,
    time: Time = Time.SYSTEM,
) -> int:
    """Parses and checks the command line, then runs the test; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        config = ConsumerPerfConfig(args)
        config.check_args(out)
        if print_version_if_needed(config, out):
            return 0
        run(config, out, err, consumer_factory, time)
    except OptionException as e:
        print(str(e), file=err)
        ConsumerPerfConfig(["--help"]).parser.print_help_on(err)
        return 1
    except UsageException as e:
        print(e.message, file=err)
        e.parser.print_help_on(err)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise
    except Exception as e:
        print_exception(e, err, prefix='Exception in thread "main" ')
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-consumer-perf-test.sh (through kafka-run-class.sh); returns the exit status."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    # PORT: the JVM's collector has no counterpart here. The modules (the consumer's among them) live as long as
    # the tool: frozen, the full collections that the fetched records trigger no longer walk them (500k records of
    # 100 B: 0.047-0.060 -> 0.006 s of full collections).
    import kafka.clients.consumer.kafka_consumer  # noqa: F401

    gc.freeze()
    try:
        return run_command(args)
    except BrokenPipeError:
        silence_stdout()
        return 0
    finally:
        finish_stdout()


if __name__ == "__main__":
    sys.exit(main())
