"""Port of core/src/main/scala/kafka/tools/ConsoleConsumer.scala (Kafka 2.8).

`kafka-console-consumer.sh --bootstrap-server HOST:PORT --topic T`: consumes a topic (or the topics a regular
expression matches, or one partition from a chosen offset) and writes each record to standard output through a
formatter: by default the value, optionally with timestamp, partition, offset, headers and key
(`--property print.key=true ...`). It stops after `--max-messages`, when nothing arrives for `--timeout-ms`, or on
Ctrl-C/SIGTERM, and then reports "Processed a total of N messages" on stderr. Without `--group` it consumes in
a group of its own (`console-consumer-NNNNN`) that commits nothing.

The formatters: kafka.tools.DefaultMessageFormatter (the default), kafka.tools.LoggingMessageFormatter,
kafka.tools.NoOpMessageFormatter, and for `__consumer_offsets`
kafka.coordinator.group.GroupMetadataManager$OffsetsMessageFormatter and
kafka.coordinator.group.GroupMetadataManager$GroupMetadataMessageFormatter; a Python class
(`package.module.Class`) implementing MessageFormatter may be named too.

# PORT: topics may be chosen with Kafka 3.x's `--include` as well as 2.8's `--whitelist` (its deprecated alias
there), with 3.x's message when neither or both of it and `--topic` are given; `--formatter-config` (3.x) is
accepted too. Kafka's ChecksumMessageFormatter is left out: record checksums left the consumer API in 3.0.
MessageFormatter (clients/src/main/java/org/apache/kafka/common/MessageFormatter.java) is defined here, beside
its only user. A deserializer's result is written as Java's toString would print it; a bytes result is written
as it is. Where Kafka logs an exception with its stack trace, the trace's header lines are printed without
frames. Standard output is flushed whenever the consumer is about to wait for records, where Java's System.out
flushes every write.
"""

from __future__ import annotations

import logging
import math
import random
import re
import signal
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import IO, Any, Protocol, TextIO

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.common.errors import AuthenticationException, TimeoutException, WakeupException
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.app_info_parser import get_version
from kafka.common.utils.utils import load_class, load_props
from kafka.tools.tools_utils import configure_tool_logging, finish_stdout, print_exception
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    Integer,
    OptionException,
    UsageException,
    check_required_args,
    is_print_help_needed,
    is_print_version_needed,
    maybe_merge_options,
    parse_key_value_args,
    print_usage_and_die,
)

__all__ = [
    "ConsumerConfig",
    "ConsumerWrapper",
    "DefaultMessageFormatter",
    "LoggingMessageFormatter",
    "MessageCount",
    "MessageFormatter",
    "NoOpMessageFormatter",
    "PrintStream",
    "consumer_props",
    "main",
    "process",
    "run",
    "run_command",
    "set_auto_offset_reset_value",
]

DESCRIPTION = "This tool helps to read data from Kafka topics and outputs it to standard output."
EARLIEST_TIMESTAMP = -2  # ListOffsetsRequest.EARLIEST_TIMESTAMP
LATEST_TIMESTAMP = -1  # ListOffsetsRequest.LATEST_TIMESTAMP
_LONG_MAX = 2**63 - 1
# A wait with no end (`--timeout-ms` not given) is made of polls this long.
_POLL_SLICE_MS = 1000

_log = logging.getLogger("kafka.tools.ConsoleConsumer$")

BytesRecord = ConsumerRecord[bytes, bytes]


# -- output --------------------------------------------------------------------------------------------------


class PrintStream:
    """Java's PrintStream over a byte stream: writes never raise; a failure sets the error flag that
    `check_error` reports (e.g. the reader of a pipe went away)."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self._error = False

    def write(self, data: bytes) -> None:
        if self._error:
            return
        try:
            self._out.write(data)
        except (OSError, ValueError):
            self._error = True

    def flush(self) -> None:
        if self._error:
            return
        try:
            self._out.flush()
        except (OSError, ValueError):
            self._error = True

    def check_error(self) -> bool:
        return self._error


# -- formatters ----------------------------------------------------------------------------------------------


class MessageFormatter(ABC):
    """Formats consumed records for display (Kafka's org.apache.kafka.common.MessageFormatter)."""

    def configure(self, configs: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook, as Java's default
        """Receives the `--property` pairs (and `--key-deserializer`/`--value-deserializer`) once."""

    @abstractmethod
    def write_to(self, consumer_record: BytesRecord, output: PrintStream) -> None:
        """Writes one record to `output`."""

    def close(self) -> None:  # noqa: B027 - optional hook, as Java's default
        """Releases the formatter."""


def _utf_bytes(text: str) -> bytes:
    return text.encode("utf-8")


def _java_double_to_string(value: float) -> str:
    """Double.toString: fixed notation for magnitudes in [1e-3, 1e7), else `d.dddE±n`."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign, digit_tuple, exponent = Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple))
    exp10 = exponent + len(digits) - 1
    digits = digits.rstrip("0") or "0"
    minus = "-" if sign else ""
    if 1e-3 <= abs(value) < 1e7:
        if exp10 >= 0:
            whole, fraction = digits[: exp10 + 1].ljust(exp10 + 1, "0"), digits[exp10 + 1 :]
        else:
            whole, fraction = "0", "0" * (-exp10 - 1) + digits
        return f"{minus}{whole}.{fraction or '0'}"
    return f"{minus}{digits[0]}.{digits[1:] or '0'}E{exp10}"


def _java_to_string(value: Any) -> bytes:
    """What writing `obj.toString` gives for a deserialized key, value or header."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if value is None:
        return b"null"
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, float):
        return _utf_bytes(_java_double_to_string(value))
    return _utf_bytes(str(value))


class DefaultMessageFormatter(MessageFormatter):
    """Writes `[timestamp][partition][offset][headers][key]value` columns separated by key.separator, each
    record ended by line.separator; nulls print as null.literal. Deserializers may turn keys, values and
    header values into text."""

    def __init__(self) -> None:
        self.print_timestamp = False
        self.print_key = False
        self.print_value = True
        self.print_partition = False
        self.print_offset = False
        self.print_headers = False
        self.key_separator = _utf_bytes("\t")
        self.line_separator = _utf_bytes("\n")
        self.headers_separator = _utf_bytes(",")
        self.null_literal = _utf_bytes("null")
        self.key_deserializer: Any = None
        self.value_deserializer: Any = None
        self.headers_deserializer: Any = None

    def configure(self, configs: Mapping[str, Any]) -> None:
        def boolean(key: str) -> bool | None:
            return str(configs[key]).strip().lower() == "true" if key in configs else None

        def byte_property(key: str) -> bytes | None:
            return _utf_bytes(str(configs[key])) if key in configs else None

        for attr, key in (
            ("print_timestamp", "print.timestamp"),
            ("print_key", "print.key"),
            ("print_offset", "print.offset"),
            ("print_partition", "print.partition"),
            ("print_headers", "print.headers"),
            ("print_value", "print.value"),
        ):
            flag = boolean(key)
            if flag is not None:
                setattr(self, attr, flag)
        for attr, key in (
            ("key_separator", "key.separator"),
            ("line_separator", "line.separator"),
            ("headers_separator", "headers.separator"),
            ("null_literal", "null.literal"),
        ):
            data = byte_property(key)
            if data is not None:
                setattr(self, attr, data)
        self.key_deserializer = self._deserializer_property(configs, "key.deserializer", True)
        self.value_deserializer = self._deserializer_property(configs, "value.deserializer", False)
        self.headers_deserializer = self._deserializer_property(configs, "headers.deserializer", False)

    @staticmethod
    def _deserializer_property(configs: Mapping[str, Any], property_name: str, is_key: bool) -> Any:
        if property_name not in configs:
            return None
        deserializer = load_class(str(configs[property_name]))()
        prefix = property_name + "."
        deserializer_config = {k[len(prefix) :]: v for k, v in configs.items() if k.startswith(prefix) and k != prefix}
        deserializer.configure(deserializer_config, is_key)
        return deserializer

    def write_to(self, consumer_record: BytesRecord, output: PrintStream) -> None:
        record = consumer_record
        write = output.write

        def write_separator(column_separator: bool) -> None:
            write(self.key_separator if column_separator else self.line_separator)

        def deserialize(deserializer: Any, source_bytes: bytes | None) -> bytes:
            non_null_bytes = self.null_literal if source_bytes is None else source_bytes
            if deserializer is None:
                return non_null_bytes
            return _java_to_string(deserializer.deserialize_with_headers(record.topic, record.headers, non_null_bytes))

        if self.print_timestamp:
            if record.timestamp_type is not TimestampType.NO_TIMESTAMP_TYPE:
                write(_utf_bytes(f"{record.timestamp_type}:{record.timestamp}"))
            else:
                write(b"NO_TIMESTAMP")
            write_separator(
                self.print_offset or self.print_partition or self.print_headers or self.print_key or self.print_value
            )
        if self.print_partition:
            write(b"Partition:")
            write(_utf_bytes(str(record.partition)))
            write_separator(self.print_offset or self.print_headers or self.print_key or self.print_value)
        if self.print_offset:
            write(b"Offset:")
            write(_utf_bytes(str(record.offset)))
            write_separator(self.print_headers or self.print_key or self.print_value)
        if self.print_headers:
            headers = list(record.headers)
            if headers:
                for i, header in enumerate(headers):
                    write(_utf_bytes(header.key() + ":"))
                    write(deserialize(self.headers_deserializer, header.value()))
                    if i < len(headers) - 1:
                        write(self.headers_separator)
            else:
                write(b"NO_HEADERS")
            write_separator(self.print_key or self.print_value)
        if self.print_key:
            write(deserialize(self.key_deserializer, record.key))
            write_separator(self.print_value)
        if self.print_value:
            write(deserialize(self.value_deserializer, record.value))
            write(self.line_separator)

    def close(self) -> None:
        for deserializer in (self.key_deserializer, self.value_deserializer, self.headers_deserializer):
            if deserializer is not None:
                deserializer.close()


class LoggingMessageFormatter(MessageFormatter):
    """The default formatter's output, and each record logged at INFO as well."""

    _logger = logging.getLogger("kafka.tools.LoggingMessageFormatter")

    def __init__(self) -> None:
        self._default_writer = DefaultMessageFormatter()

    def configure(self, configs: Mapping[str, Any]) -> None:
        self._default_writer.configure(configs)

    def write_to(self, consumer_record: BytesRecord, output: PrintStream) -> None:
        record = consumer_record
        self._default_writer.write_to(record, output)
        if self._logger.isEnabledFor(logging.INFO):
            timestamp = (
                f"{record.timestamp_type}:{record.timestamp}, "
                if record.timestamp_type is not TimestampType.NO_TIMESTAMP_TYPE
                else ""
            )
            key = "null" if record.key is None else record.key.decode("utf-8", errors="replace")
            value = "null" if record.value is None else record.value.decode("utf-8", errors="replace")
            self._logger.info(f"{timestamp}key:{key}, value:{value}")


class NoOpMessageFormatter(MessageFormatter):
    """Writes nothing (for measuring the consumer alone)."""

    def write_to(self, consumer_record: BytesRecord, output: PrintStream) -> None:
        pass


class _GroupMetadataFormatterAdapter(MessageFormatter):
    """One of GroupMetadataManager's `__consumer_offsets` formatters, which read a record's key and value."""

    def __init__(self, formatter: Any) -> None:
        self._formatter = formatter

    def write_to(self, consumer_record: BytesRecord, output: PrintStream) -> None:
        self._formatter.write_to(consumer_record.key, consumer_record.value, output)


def _offsets_message_formatter() -> MessageFormatter:
    from kafka.coordinator.group.group_metadata_manager_formats import OffsetsMessageFormatter

    return _GroupMetadataFormatterAdapter(OffsetsMessageFormatter())


def _group_metadata_message_formatter() -> MessageFormatter:
    from kafka.coordinator.group.group_metadata_manager_formats import GroupMetadataMessageFormatter

    return _GroupMetadataFormatterAdapter(GroupMetadataMessageFormatter())


_FORMATTERS: dict[str, Any] = {
    "kafka.tools.DefaultMessageFormatter": DefaultMessageFormatter,
    "kafka.tools.LoggingMessageFormatter": LoggingMessageFormatter,
    "kafka.tools.NoOpMessageFormatter": NoOpMessageFormatter,
    "kafka.coordinator.group.GroupMetadataManager$OffsetsMessageFormatter": _offsets_message_formatter,
    "kafka.coordinator.group.GroupMetadataManager$GroupMetadataMessageFormatter": _group_metadata_message_formatter,
}


class ClassNotFoundException(Exception):
    """The formatter class named on the command line does not exist (java.lang.ClassNotFoundException)."""


def new_formatter(class_name: str) -> MessageFormatter:
    """An instance of the formatter named `class_name`: one of Kafka's names, or a Python class."""
    factory = _FORMATTERS.get(class_name)
    if factory is not None:
        formatter: MessageFormatter = factory()
        return formatter
    try:
        cls = load_class(class_name)
    except ImportError:
        raise ClassNotFoundException(class_name) from None
    instance = cls()
    if not isinstance(instance, MessageFormatter):
        if not callable(getattr(instance, "write_to", None)):
            raise ClassNotFoundException(class_name)
        return _GroupMetadataFormatterAdapter(instance)
    return instance


# -- the command line ----------------------------------------------------------------------------------------


class ConsumerConfig(CommandDefaultOptions):
    """The command line of kafka-console-consumer.sh, parsed and checked (ConsoleConsumer.ConsumerConfig)."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.topic_id_opt = (
            parser.accepts("topic", "The topic id to consume on.").with_required_arg().described_as("topic")
        )
        self.whitelist_opt = (
            parser.accepts(
                "whitelist",
                "DEPRECATED, use --include instead; ignored if --include specified. Regular expression specifying "
                "list of topics to include for consumption.",
            )
            .with_required_arg()
            .described_as("Java regex (String)")
        )
        self.include_opt = (
            parser.accepts("include", "Regular expression specifying list of topics to include for consumption.")
            .with_required_arg()
            .described_as("Java regex (String)")
        )
        self.partition_id_opt = (
            parser.accepts(
                "partition",
                "The partition to consume from. Consumption starts from the end of the partition unless '--offset' "
                "is specified.",
            )
            .with_required_arg()
            .described_as("partition")
            .of_type(Integer)
        )
        self.offset_opt = (
            parser.accepts(
                "offset",
                "The offset id to consume from (a non-negative number), or 'earliest' which means from beginning, "
                "or 'latest' which means from end",
            )
            .with_required_arg()
            .described_as("consume offset")
            .defaults_to("latest")
        )
        self.consumer_property_opt = (
            parser.accepts(
                "consumer-property",
                "A mechanism to pass user-defined properties in the form key=value to the consumer.",
            )
            .with_required_arg()
            .described_as("consumer_prop")
        )
        self.consumer_config_opt = (
            parser.accepts(
                "consumer.config",
                f"Consumer config properties file. Note that {self.consumer_property_opt} takes precedence over this "
                "config.",
            )
            .with_required_arg()
            .described_as("config file")
        )
        # PORT: not in Kafka's tool; every tool of this project takes --command-config (read after --consumer.config).
        self.command_config_opt = (
            parser.accepts(
                "command-config",
                f"Consumer config properties file, read after --consumer.config. {self.consumer_property_opt} takes "
                "precedence over it.",
            )
            .with_required_arg()
            .described_as("config file")
        )
        self.message_formatter_opt = (
            parser.accepts("formatter", "The name of a class to use for formatting kafka messages for display.")
            .with_required_arg()
            .described_as("class")
            .defaults_to("kafka.tools.DefaultMessageFormatter")
        )
        self.message_formatter_arg_opt = (
            parser.accepts(
                "property",
                "The properties to initialize the message formatter. Default properties include:\n"
                " print.timestamp=true|false\n"
                " print.key=true|false\n"
                " print.offset=true|false\n"
                " print.partition=true|false\n"
                " print.headers=true|false\n"
                " print.value=true|false\n"
                " key.separator=<key.separator>\n"
                " line.separator=<line.separator>\n"
                " headers.separator=<line.separator>\n"
                " null.literal=<null.literal>\n"
                " key.deserializer=<key.deserializer>\n"
                " value.deserializer=<value.deserializer>\n"
                " header.deserializer=<header.deserializer>\n"
                "\n"
                "Users can also pass in customized properties for their formatter; more specifically, users can "
                "pass in properties keyed with 'key.deserializer.', 'value.deserializer.' and "
                "'headers.deserializer.' prefixes to configure their deserializers.",
            )
            .with_required_arg()
            .described_as("prop")
        )
        self.message_formatter_config_opt = (
            parser.accepts(
                "formatter-config",
                f"Config properties file to initialize the message formatter. Note that "
                f"{self.message_formatter_arg_opt} takes precedence over this config.",
            )
            .with_required_arg()
            .described_as("config file")
        )
        self.reset_beginning_opt = parser.accepts(
            "from-beginning",
            "If the consumer does not already have an established offset to consume from, start with the earliest "
            "message present in the log rather than the latest message.",
        )
        self.max_messages_opt = (
            parser.accepts(
                "max-messages",
                "The maximum number of messages to consume before exiting. If not set, consumption is continual.",
            )
            .with_required_arg()
            .described_as("num_messages")
            .of_type(Integer)
        )
        self.timeout_ms_opt = (
            parser.accepts(
                "timeout-ms",
                "If specified, exit if no message is available for consumption for the specified interval.",
            )
            .with_required_arg()
            .described_as("timeout_ms")
            .of_type(Integer)
        )
        self.skip_message_on_error_opt = parser.accepts(
            "skip-message-on-error", "If there is an error when processing a message, skip it instead of halt."
        )
        self.bootstrap_server_opt = (
            parser.accepts("bootstrap-server", "REQUIRED: The server(s) to connect to.")
            .with_required_arg()
            .described_as("server to connect to")
        )
        self.key_deserializer_opt = (
            parser.accepts("key-deserializer").with_required_arg().described_as("deserializer for key")
        )
        self.value_deserializer_opt = (
            parser.accepts("value-deserializer").with_required_arg().described_as("deserializer for values")
        )
        self.enable_systest_events_logging_opt = parser.accepts(
            "enable-systest-events",
            "Log lifecycle events of the consumer in addition to logging consumed messages. (This is specific for "
            "system tests.)",
        )
        self.isolation_level_opt = (
            parser.accepts(
                "isolation-level",
                "Set to read_committed in order to filter out transactional messages which are not committed. Set "
                "to read_uncommitted to read all messages.",
            )
            .with_required_arg()
            .defaults_to("read_uncommitted")
        )
        self.group_id_opt = (
            parser.accepts("group", "The consumer group id of the consumer.")
            .with_required_arg()
            .described_as("consumer group id")
        )
        self.options = parser.parse(self.args)

        # Set by check_args.
        self.group_id_passed = True
        self.enable_systest_events_logging = False
        self.topic_arg: str | None = None
        self.include_arg: str | None = None
        self.extra_consumer_props: dict[str, str] = {}
        self.consumer_props: dict[str, str] = {}
        self.from_beginning = False
        self.partition_arg: int | None = None
        self.skip_message_on_error = False
        self.formatter_args: dict[str, str] = {}
        self.max_messages = -1
        self.timeout_ms = -1
        self.bootstrap_server: str | None = None
        self.formatter: MessageFormatter = DefaultMessageFormatter()
        self.offset_arg = LATEST_TIMESTAMP

    def check_args(self) -> None:
        """Kafka's checks and derived values, in Kafka's order (help and version first)."""
        options = self.options
        parser = self.parser
        if is_print_help_needed(self):
            print_usage_and_die(parser, DESCRIPTION)
        if is_print_version_needed(self):
            return
        self.enable_systest_events_logging = options.has(self.enable_systest_events_logging_opt)
        self.extra_consumer_props = parse_key_value_args(options.values_of(self.consumer_property_opt))
        self.consumer_props = (
            load_props(options.value_of(self.consumer_config_opt)) if options.has(self.consumer_config_opt) else {}
        )
        if options.has(self.command_config_opt):
            self.consumer_props.update(load_props(options.value_of(self.command_config_opt)))
        self.from_beginning = options.has(self.reset_beginning_opt)
        self.partition_arg = options.value_of(self.partition_id_opt) if options.has(self.partition_id_opt) else None
        self.skip_message_on_error = options.has(self.skip_message_on_error_opt)
        formatter = new_formatter(str(options.value_of(self.message_formatter_opt)))
        self.formatter_args = (
            load_props(options.value_of(self.message_formatter_config_opt))
            if options.has(self.message_formatter_config_opt)
            else {}
        )
        self.formatter_args.update(parse_key_value_args(options.values_of(self.message_formatter_arg_opt)))
        self.max_messages = options.value_of(self.max_messages_opt) if options.has(self.max_messages_opt) else -1
        self.timeout_ms = options.value_of(self.timeout_ms_opt) if options.has(self.timeout_ms_opt) else -1
        self.bootstrap_server = options.value_of(self.bootstrap_server_opt)
        key_deserializer = options.value_of(self.key_deserializer_opt)
        value_deserializer = options.value_of(self.value_deserializer_opt)
        if key_deserializer:
            self.formatter_args["key.deserializer"] = key_deserializer
        if value_deserializer:
            self.formatter_args["value.deserializer"] = value_deserializer
        formatter.configure(self.formatter_args)
        self.formatter = formatter

        self.topic_arg = options.value_of(self.topic_id_opt)
        self.include_arg = (
            options.value_of(self.include_opt)
            if options.has(self.include_opt)
            else options.value_of(self.whitelist_opt)
        )
        if len([a for a in (self.topic_arg, self.include_arg) if a is not None]) != 1:
            deprecation = (
                "--whitelist is DEPRECATED use --include instead; ignored if --include specified."
                if options.has(self.whitelist_opt)
                else ""
            )
            print_usage_and_die(parser, f"Exactly one of --include/--topic is required. {deprecation}".rstrip())

        if self.partition_arg is not None:
            if not options.has(self.topic_id_opt):
                print_usage_and_die(parser, "The topic is required when partition is specified.")
            if self.from_beginning and options.has(self.offset_opt):
                print_usage_and_die(parser, "Options from-beginning and offset cannot be specified together.")
        elif options.has(self.offset_opt):
            print_usage_and_die(parser, "The partition is required when offset is specified.")

        self.offset_arg = self._offset_arg()
        check_required_args(parser, options, self.bootstrap_server_opt)

        # A group id may be given three ways; they must agree.
        group_ids_provided = list(
            dict.fromkeys(
                g
                for g in (
                    options.value_of(self.group_id_opt),
                    self.consumer_props.get("group.id"),
                    self.extra_consumer_props.get("group.id"),
                )
                if g is not None
            )
        )
        if len(group_ids_provided) > 1:
            detected = "'" + "', '".join(group_ids_provided) + "'"
            print_usage_and_die(
                parser,
                "The group ids provided in different places (directly using '--group', via '--consumer-property', "
                f"or via '--consumer.config') do not match. Detected group ids: {detected}",
            )
        if group_ids_provided:
            self.consumer_props["group.id"] = group_ids_provided[0]
        else:
            self.consumer_props["group.id"] = f"console-consumer-{random.randrange(100000)}"
            # The generated group is never used again: keep its offsets out of the coordinator.
            self.consumer_props.setdefault("enable.auto.commit", "false")
            self.group_id_passed = False
        if self.group_id_passed and self.partition_arg is not None:
            print_usage_and_die(parser, "Options group and partition cannot be specified together.")

    def _offset_arg(self) -> int:
        options = self.options
        if options.has(self.offset_opt):
            offset_string = str(options.value_of(self.offset_opt)).lower()
            if offset_string == "earliest":
                return EARLIEST_TIMESTAMP
            if offset_string == "latest":
                return LATEST_TIMESTAMP
            offset = int(offset_string) if re.fullmatch(r"[+-]?[0-9]+", offset_string) else -1
            if offset < 0 or offset > _LONG_MAX:
                print_usage_and_die(
                    self.parser,
                    f"The provided offset value '{offset_string}' is incorrect. Valid values are 'earliest', "
                    "'latest', or a non-negative long.",
                )
            return offset
        return EARLIEST_TIMESTAMP if self.from_beginning else LATEST_TIMESTAMP


class _AutoOffsetResetConflict(Exception):
    """--from-beginning with an auto.offset.reset other than earliest (Kafka prints a line and exits 1)."""


def set_auto_offset_reset_value(config: ConsumerConfig, props: dict[str, str]) -> None:
    """auto.offset.reset: an explicit setting wins (it must be `earliest` with --from-beginning); otherwise
    `earliest` with --from-beginning and `latest` without."""
    earliest_config_value, latest_config_value = "earliest", "latest"
    if "auto.offset.reset" in props:
        auto_reset_option = props["auto.offset.reset"]
        if config.options.has(config.reset_beginning_opt) and earliest_config_value != auto_reset_option:
            raise _AutoOffsetResetConflict(
                f"Can't simultaneously specify --from-beginning and 'auto.offset.reset={auto_reset_option}', "
                "please remove one option"
            )
    else:
        props["auto.offset.reset"] = (
            earliest_config_value if config.options.has(config.reset_beginning_opt) else latest_config_value
        )


def consumer_props(config: ConsumerConfig) -> dict[str, str]:
    """The consumer's settings: the config file (with the group), `--consumer-property` pairs over it, the
    offset reset policy, the bootstrap servers and the isolation level."""
    props: dict[str, str] = {}
    props.update(config.consumer_props)
    props.update(config.extra_consumer_props)
    set_auto_offset_reset_value(config, props)
    props["bootstrap.servers"] = str(config.bootstrap_server)
    maybe_merge_options(props, "isolation.level", config.options, config.isolation_level_opt)
    return props


# -- consuming -----------------------------------------------------------------------------------------------


class _Consumer(Protocol):
    """What the tool needs of a consumer (KafkaConsumer, or a fake in tests)."""

    def subscribe(self, topics: Any, listener: Any = None) -> None: ...

    def assign(self, partitions: Any) -> None: ...

    def seek(self, partition: TopicPartition, offset: int) -> None: ...

    def seek_to_beginning(self, partitions: Any) -> None: ...

    def seek_to_end(self, partitions: Any) -> None: ...

    def poll(self, timeout: Any) -> Any: ...

    def wakeup(self) -> None: ...

    def close(self) -> None: ...


class ConsumerWrapper:
    """The consumer as the tool drives it: set up for a topic, a pattern or one partition at an offset, handing
    out one record at a time and raising TimeoutException when a poll of `timeout_ms` brings nothing."""

    def __init__(
        self,
        topic: str | None,
        partition_id: int | None,
        offset: int | None,
        include: str | None,
        consumer: _Consumer,
        timeout_ms: int = _LONG_MAX,
    ) -> None:
        self.consumer = consumer
        self.timeout_ms = timeout_ms
        self._record_iter: Iterator[BytesRecord] = iter(())
        self._buffered = 0
        self._consumer_init(topic, partition_id, offset, include)

    def _consumer_init(
        self, topic: str | None, partition_id: int | None, offset: int | None, include: str | None
    ) -> None:
        if topic is not None and partition_id is not None and include is None:
            # Without an offset, consumption starts at the end of the partition.
            self.seek(topic, partition_id, LATEST_TIMESTAMP if offset is None else offset)
        elif topic is not None and partition_id is None and offset is None and include is None:
            self.consumer.subscribe([topic])
        elif topic is None and partition_id is None and offset is None and include is not None:
            self.consumer.subscribe(re.compile(include))
        else:
            raise ValueError(
                "An invalid combination of arguments is provided. Exactly one of 'topic' or 'whitelist' must be "
                "provided. If 'topic' is provided, an optional 'partition' may also be provided. If 'partition' is "
                "provided, an optional 'offset' may also be provided, otherwise, consumption starts from the end of "
                "the partition."
            )

    def seek(self, topic: str, partition_id: int, offset: int) -> None:
        topic_partition = TopicPartition(topic, partition_id)
        self.consumer.assign([topic_partition])
        if offset == EARLIEST_TIMESTAMP:
            self.consumer.seek_to_beginning([topic_partition])
        elif offset == LATEST_TIMESTAMP:
            self.consumer.seek_to_end([topic_partition])
        else:
            self.consumer.seek(topic_partition, offset)

    def has_buffered(self) -> bool:
        """Whether records of the last poll are still to be handed out (no wait before the next one)."""
        return self._buffered > 0

    def reset_unconsumed_offsets(self) -> None:
        """Seeks back to the first record not handed out of each partition, so that closing the consumer does
        not commit records that were never written."""
        smallest_unconsumed_offsets: dict[TopicPartition, int] = {}
        for record in self._record_iter:
            tp = TopicPartition(record.topic, record.partition)
            smallest_unconsumed_offsets.setdefault(tp, record.offset)
        self._buffered = 0
        for tp, offset in smallest_unconsumed_offsets.items():
            self.consumer.seek(tp, offset)

    def receive(self) -> BytesRecord:
        if self._buffered == 0:
            records = self._poll()
            self._buffered = len(records)
            self._record_iter = iter(records)
            if self._buffered == 0:
                raise TimeoutException()
        self._buffered -= 1
        return next(self._record_iter)

    def _poll(self) -> Any:
        if self.timeout_ms <= _POLL_SLICE_MS:
            return self.consumer.poll(self.timeout_ms)
        # A long wait is made of short polls, each of which returns as soon as records arrive.
        remaining = self.timeout_ms
        while True:
            records = self.consumer.poll(min(remaining, _POLL_SLICE_MS))
            remaining -= _POLL_SLICE_MS
            if len(records) > 0 or remaining <= 0:
                return records

    def wakeup(self) -> None:
        self.consumer.wakeup()

    def cleanup(self) -> None:
        self.reset_unconsumed_offsets()
        self.consumer.close()


class MessageCount:
    """How many records the tool has consumed (Kafka's `ConsoleConsumer.messageCount`)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


def process(
    max_messages: int,
    formatter: MessageFormatter,
    consumer: ConsumerWrapper,
    output: PrintStream,
    skip_message_on_error: bool,
    err: TextIO | None = None,
    message_count: MessageCount | None = None,
) -> int:
    """Hands records to the formatter until `max_messages` (-1: no limit), a timeout, a wakeup or an unwritable
    output, counting them in `message_count`; returns the count. A formatter failure is raised unless skipped."""
    err = err or sys.stderr
    count = message_count if message_count is not None else MessageCount()
    while count.value < max_messages or max_messages == -1:
        if not consumer.has_buffered():
            output.flush()
        try:
            msg = consumer.receive()
        except WakeupException:
            _log.log(5, "Caught WakeupException because consumer is shutdown, ignore and terminate.")
            return count.value
        except Exception as e:
            _log.error("Error processing message, terminating consumer process: ", exc_info=e)
            return count.value
        count.value += 1
        try:
            formatter.write_to(msg, output)
        except Exception as e:
            if not skip_message_on_error:
                raise
            _log.error("Error processing message, skipping this message: ", exc_info=e)
        if output.check_error():
            # Nobody reads the output any more: stop.
            err.write("Unable to write to standard out, closing consumer.\n")
            err.flush()
            return count.value
    return count.value


def _default_consumer_factory(props: Mapping[str, str]) -> _Consumer:
    from kafka.clients.consumer.kafka_consumer import KafkaConsumer
    from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer

    consumer: _Consumer = KafkaConsumer(dict(props), ByteArrayDeserializer(), ByteArrayDeserializer())
    return consumer


class _Shutdown:
    """Kafka's shutdown hook: a signal wakes the consumer; the main thread then cleans up and reports."""

    def __init__(self) -> None:
        self.wrapper: ConsumerWrapper | None = None
        self.signal: int | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGINT, signal.SIGTERM):
            self._previous[signum] = signal.signal(signum, self._handle)

    def uninstall(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()

    def _handle(self, signum: int, frame: Any) -> None:
        if self.signal is not None:
            return  # the shutdown is under way
        self.signal = signum
        if self.wrapper is not None:
            self.wrapper.wakeup()
        else:
            raise KeyboardInterrupt


def run(
    conf: ConsumerConfig,
    out: IO[bytes] | None = None,
    err: TextIO | None = None,
    consumer_factory: Any = None,
    shutdown: _Shutdown | None = None,
) -> None:
    """Consumes as configured, writing through the formatter; always reports the count on `err`."""
    err = err or sys.stderr
    timeout_ms = conf.timeout_ms if conf.timeout_ms >= 0 else _LONG_MAX
    consumer = (consumer_factory or _default_consumer_factory)(consumer_props(conf))
    try:
        if conf.partition_arg is not None:
            consumer_wrapper = ConsumerWrapper(
                conf.topic_arg, conf.partition_arg, conf.offset_arg, None, consumer, timeout_ms
            )
        else:
            consumer_wrapper = ConsumerWrapper(conf.topic_arg, None, None, conf.include_arg, consumer, timeout_ms)
    except BaseException:
        consumer.close()
        raise
    if shutdown is not None:
        shutdown.wrapper = consumer_wrapper
    output = PrintStream(out if out is not None else sys.stdout.buffer)
    message_count = MessageCount()
    try:
        process(
            conf.max_messages, conf.formatter, consumer_wrapper, output, conf.skip_message_on_error, err, message_count
        )
    finally:
        output.flush()
        try:
            consumer_wrapper.cleanup()
        finally:
            conf.formatter.close()
            err.write(f"Processed a total of {message_count.value} messages\n")
            err.flush()
            if shutdown is not None and shutdown.signal is not None and conf.enable_systest_events_logging:
                output.write(b"shutdown_complete\n")
                output.flush()


def run_command(
    args: Sequence[str],
    out: IO[bytes] | None = None,
    err: TextIO | None = None,
    consumer_factory: Any = None,
    shutdown: _Shutdown | None = None,
) -> int:
    """Parses and checks the command line, then consumes; returns the exit status."""
    err = err or sys.stderr
    try:
        conf = ConsumerConfig(args)
        conf.check_args()
        if is_print_version_needed(conf):
            (out or sys.stdout.buffer).write(_utf_bytes(get_version() + "\n"))
            (out or sys.stdout.buffer).flush()
            return 0
    except OptionException as e:
        print(str(e), file=err)
        ConsumerConfig(["--help"]).parser.print_help_on(err)
        return 1
    except UsageException as e:
        print(e.message, file=err)
        e.parser.print_help_on(err)
        return 1
    except ClassNotFoundException as e:
        err.write(f'Exception in thread "main" java.lang.ClassNotFoundException: {e}\n')
        return 1
    except Exception as e:
        # Building the formatter failed (a bad deserializer, an unreadable file): the JVM's report.
        print_exception(e, err, prefix='Exception in thread "main" ')
        return 1
    try:
        run(conf, out, err, consumer_factory, shutdown)
    except _AutoOffsetResetConflict as e:
        err.write(f"{e}\n")
        return 1
    except AuthenticationException as e:
        _log.error("Authentication failed: terminating consumer process", exc_info=e)
        return 1
    except KeyboardInterrupt:
        pass
    except Exception as e:
        _log.error("Unknown error when running consumer: ", exc_info=e)
        return 1
    if shutdown is not None and shutdown.signal is not None:
        return 128 + shutdown.signal
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-console-consumer.sh (through kafka-run-class.sh); returns the exit status."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    shutdown = _Shutdown()
    shutdown.install()
    try:
        return run_command(args, shutdown=shutdown)
    finally:
        shutdown.uninstall()
        finish_stdout()


if __name__ == "__main__":
    sys.exit(main())
