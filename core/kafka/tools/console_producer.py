"""Port of core/src/main/scala/kafka/tools/ConsoleProducer.scala (Kafka 2.8).

`kafka-console-producer.sh --bootstrap-server HOST:PORT --topic T`: reads standard input line by line and
sends each line as a record, by default asynchronously in batches (`--sync` waits for each). With `--property
parse.key=true` a line is `key<key.separator>value`; with `parse.headers=true` it starts with headers
`h1:v1,h2:v2<headers.delimiter>`. Producer settings come from `--producer.config`, `--producer-property` and
the tool's own options (acks, compression, linger, batch size, timeouts), merged as Kafka merges them.

# PORT: the LineMessageReader is Kafka 3.x's (KIP-798/KIP-810): besides 2.8's parse.key, key.separator and
ignore.error it reads headers (parse.headers, headers.delimiter, headers.separator, headers.key.separator) and
turns fields equal to null.marker into nulls; the `--property` help is 3.x's, which lists them. 2.8 parses
`--batch-size` and then ignores it (KAFKA-12749); here it sets batch.size as in 3.x, with 3.x's default (16384,
2.8's 200 was never used). `--line-reader` takes this project's Python class (`package.module.Class`) or Kafka's
name of the default reader. A record whose asynchronous send failed is logged as Kafka logs it and makes the
tool end with status 1 (Kafka's ends with 0), so that scripts can tell; a failure that ends the tool prints the
exception's lines without a stack trace. SIGTERM closes the producer (sending what is queued) as Kafka's
shutdown hook does.
"""

from __future__ import annotations

import io
import re
import signal
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, BinaryIO, Protocol, TextIO

from kafka.clients.producer.internals.error_logging_callback import ErrorLoggingCallback
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import KafkaException
from kafka.common.utils.utils import load_props
from kafka.tools.tools_utils import (
    configure_tool_logging,
    finish_stdout,
    print_exception,
    validate_port_or_die,
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
    maybe_merge_options,
    parse_key_value_args,
    print_usage_and_die,
    print_version_if_needed,
)

__all__ = [
    "LineMessageReader",
    "MessageReader",
    "ProducerConfig",
    "get_reader_props",
    "main",
    "producer_props",
    "run_command",
]

DESCRIPTION = "This tool helps to read data from standard input and publish it to Kafka."
LINE_MESSAGE_READER = "kafka.tools.ConsoleProducer$LineMessageReader"

BytesRecord = ProducerRecord[bytes, bytes]


class _Producer(Protocol):
    """What the tool needs of a producer (KafkaProducer, or a fake in tests)."""

    def send(self, record: BytesRecord, callback: Any = None) -> Any: ...

    def close(self, timeout_ms: int | None = None) -> None: ...


ProducerFactory = Callable[[Mapping[str, str]], _Producer]


# -- the message reader ---------------------------------------------------------------------------------------


class MessageReader(ABC):
    """Turns an input stream into records, one per `read_message` call, None at the end of the input.

    # PORT: Kafka's kafka.common.MessageReader trait (core/src/main/scala/kafka/common/MessageReader.scala);
    it lives here, beside the tool that is its only user.
    """

    def init(self, input_stream: BinaryIO, props: Mapping[str, str]) -> None:  # noqa: B027 - optional hook
        """Receives the input and the reader's properties (`topic` and the `--property` pairs) once."""

    @abstractmethod
    def read_message(self) -> BytesRecord | None:
        """The next record, or None when the input is exhausted."""

    def close(self) -> None:  # noqa: B027 - optional hook, as the Scala trait's
        """Releases the reader."""


class LineMessageReader(MessageReader):
    """One record per line of UTF-8 text: `[headers<headers.delimiter>][key<key.separator>]value`."""

    def __init__(self) -> None:
        self.topic = ""
        self.parse_key = False
        self.key_separator = "\t"
        self.parse_headers = False
        self.headers_delimiter = "\t"
        self.headers_separator = ","
        self.headers_key_separator = ":"
        self.ignore_error = False
        self.line_number = 0
        self.print_prompt = False
        self.null_marker: str | None = None
        self._headers_separator_pattern: re.Pattern[str] = re.compile(",")
        self._reader: io.TextIOWrapper | None = None
        self._prompt_out: TextIO | None = None

    def init(self, input_stream: BinaryIO, props: Mapping[str, str]) -> None:
        self.topic = props["topic"]
        if "parse.key" in props:
            self.parse_key = props["parse.key"].strip().lower() == "true"
        if "key.separator" in props:
            self.key_separator = props["key.separator"]
        if "parse.headers" in props:
            self.parse_headers = props["parse.headers"].strip().lower() == "true"
        if "headers.delimiter" in props:
            self.headers_delimiter = props["headers.delimiter"]
        if "headers.separator" in props:
            self.headers_separator = props["headers.separator"]
        self._headers_separator_pattern = re.compile(self.headers_separator)
        if "headers.key.separator" in props:
            self.headers_key_separator = props["headers.key.separator"]
        if "ignore.error" in props:
            self.ignore_error = props["ignore.error"].strip().lower() == "true"
        if self.headers_delimiter == self.headers_separator:
            raise KafkaException("headers.delimiter and headers.separator may not be equal")
        if self.headers_delimiter == self.headers_key_separator:
            raise KafkaException("headers.delimiter and headers.key.separator may not be equal")
        if self.headers_separator == self.headers_key_separator:
            raise KafkaException("headers.separator and headers.key.separator may not be equal")
        if "null.marker" in props:
            self.null_marker = props["null.marker"]
        for name, value in (
            ("key.separator", self.key_separator),
            ("headers.separator", self.headers_separator),
            ("headers.delimiter", self.headers_delimiter),
            ("headers.key.separator", self.headers_key_separator),
        ):
            if self.null_marker == value:
                raise KafkaException(f"null.marker and {name} may not be equal")
        # Java's BufferedReader: UTF-8 with malformed input replaced; a line ends at \n, \r or \r\n.
        self._reader = io.TextIOWrapper(input_stream, encoding="utf-8", errors="replace", newline=None)

    def set_prompt(self, out: TextIO | None) -> None:
        """Prints `>` on `out` before each line is read (Kafka does when it runs on a console)."""
        self._prompt_out = out
        self.print_prompt = out is not None

    def read_message(self) -> BytesRecord | None:
        assert self._reader is not None, "init was not called"
        self.line_number += 1
        if self.print_prompt and self._prompt_out is not None:
            self._prompt_out.write(">")
            self._prompt_out.flush()
        line = self._reader.readline()
        if not line:
            return None
        if line.endswith("\n"):
            line = line[:-1]
        headers = self._parse(self.parse_headers, line, 0, self.headers_delimiter, "headers delimiter")
        header_offset = 0 if headers is None else len(headers) + len(self.headers_delimiter)
        key = self._parse(self.parse_key, line, header_offset, self.key_separator, "key separator")
        key_offset = 0 if key is None else len(key) + len(self.key_separator)
        value = line[header_offset + key_offset :]
        record_headers: list[tuple[str, bytes | None]] = []
        if headers is not None and headers != self.null_marker:
            record_headers = self._split_headers(headers)
        return ProducerRecord(
            self.topic,
            None if value == self.null_marker else value.encode("utf-8"),
            key=None if key is None or key == self.null_marker else key.encode("utf-8"),
            headers=record_headers,
        )

    def _parse(self, enabled: bool, line: str, start_index: int, demarcation: str, demarcation_name: str) -> str | None:
        if not enabled:
            return None
        index = line.find(demarcation, start_index)
        if index == -1:
            if self.ignore_error:
                return None
            raise KafkaException(f"No {demarcation_name} found on line number {self.line_number}: '{line}'")
        return line[start_index:index]

    def _split_headers(self, headers: str) -> list[tuple[str, bytes | None]]:
        result: list[tuple[str, bytes | None]] = []
        for pair in _java_regex_split(self._headers_separator_pattern, headers):
            i = pair.find(self.headers_key_separator)
            if i == -1:
                if not self.ignore_error:
                    raise KafkaException(
                        f"No header key separator found in pair '{pair}' on line number {self.line_number}"
                    )
                result.append((pair, None))
                continue
            header_key = pair[:i]
            if header_key == self.null_marker:
                raise KafkaException(
                    f"Header keys should not be equal to the null marker '{self.null_marker}' as they can't be null"
                )
            header_value = pair[i + len(self.headers_key_separator) :]
            result.append((header_key, None if header_value == self.null_marker else header_value.encode("utf-8")))
        return result

    def close(self) -> None:
        if self._reader is not None:
            self._reader.detach()
            self._reader = None


def _java_regex_split(pattern: re.Pattern[str], text: str) -> list[str]:
    """Pattern.split: like re.split, but trailing empty strings are dropped (and the input is returned whole
    when nothing matches)."""
    parts = pattern.split(text)
    if len(parts) == 1:
        return parts
    while parts and parts[-1] == "":
        parts.pop()
    return parts


# -- the command line ----------------------------------------------------------------------------------------


class ProducerConfig(CommandDefaultOptions):
    """The command line of kafka-console-producer.sh, parsed and checked (ConsoleProducer.ProducerConfig)."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.topic_opt = (
            parser.accepts("topic", "REQUIRED: The topic id to produce messages to.")
            .with_required_arg()
            .described_as("topic")
        )
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
                "REQUIRED unless --broker-list(deprecated) is specified. The server(s) to connect to. The broker "
                "list string in the form HOST1:PORT1,HOST2:PORT2.",
            )
            .with_required_arg()
            .described_as("server to connect to")
        )
        self.sync_opt = parser.accepts(
            "sync", "If set message send requests to the brokers are synchronously, one at a time as they arrive."
        )
        self.compression_codec_opt = (
            parser.accepts(
                "compression-codec",
                "The compression codec: either 'none', 'gzip', 'snappy', 'lz4', or 'zstd'.If specified without "
                "value, then it defaults to 'gzip'",
            )
            .with_optional_arg()
            .described_as("compression-codec")
        )
        self.batch_size_opt = (
            parser.accepts(
                "batch-size",
                "Number of messages to send in a single batch if they are not being sent synchronously. please note "
                "that this option will be replaced if max-partition-memory-bytes is also set",
            )
            .with_required_arg()
            .described_as("size")
            .of_type(Integer)
            .defaults_to(16 * 1024)
        )
        self.message_send_max_retries_opt = (
            parser.accepts(
                "message-send-max-retries",
                "Brokers can fail receiving the message for multiple reasons, and being unavailable transiently is "
                "just one of them. This property specifies the number of retries before the producer give up and "
                "drop this message.",
            )
            .with_required_arg()
            .of_type(Integer)
            .defaults_to(3)
        )
        self.retry_backoff_ms_opt = (
            parser.accepts(
                "retry-backoff-ms",
                "Before each retry, the producer refreshes the metadata of relevant topics. Since leader election "
                "takes a bit of time, this property specifies the amount of time that the producer waits before "
                "refreshing the metadata.",
            )
            .with_required_arg()
            .of_type(Integer)
            .defaults_to(100)
        )
        self.send_timeout_opt = (
            parser.accepts(
                "timeout",
                "If set and the producer is running in asynchronous mode, this gives the maximum amount of time a "
                "message will queue awaiting sufficient batch size. The value is given in ms.",
            )
            .with_required_arg()
            .described_as("timeout_ms")
            .of_type(Integer)
            .defaults_to(1000)
        )
        self.request_required_acks_opt = (
            parser.accepts("request-required-acks", "The required acks of the producer requests")
            .with_required_arg()
            .described_as("request required acks")
            .defaults_to("1")
        )
        self.request_timeout_ms_opt = (
            parser.accepts(
                "request-timeout-ms",
                "The ack timeout of the producer requests. Value must be non-negative and non-zero",
            )
            .with_required_arg()
            .described_as("request timeout ms")
            .of_type(Integer)
            .defaults_to(1500)
        )
        self.metadata_expiry_ms_opt = (
            parser.accepts(
                "metadata-expiry-ms",
                "The period of time in milliseconds after which we force a refresh of metadata even if we haven't "
                "seen any leadership changes.",
            )
            .with_required_arg()
            .described_as("metadata expiration interval")
            .of_type(int)
            .defaults_to(5 * 60 * 1000)
        )
        self.max_block_ms_opt = (
            parser.accepts("max-block-ms", "The max time that the producer will block for during a send request")
            .with_required_arg()
            .described_as("max block on send")
            .of_type(int)
            .defaults_to(60 * 1000)
        )
        self.max_memory_bytes_opt = (
            parser.accepts(
                "max-memory-bytes",
                "The total memory used by the producer to buffer records waiting to be sent to the server.",
            )
            .with_required_arg()
            .described_as("total memory in bytes")
            .of_type(int)
            .defaults_to(32 * 1024 * 1024)
        )
        self.max_partition_memory_bytes_opt = (
            parser.accepts(
                "max-partition-memory-bytes",
                "The buffer size allocated for a partition. When records are received which are smaller than this "
                "size the producer will attempt to optimistically group them together until this size is reached.",
            )
            .with_required_arg()
            .described_as("memory in bytes per partition")
            .of_type(int)
            .defaults_to(16 * 1024)
        )
        self.message_reader_opt = (
            parser.accepts(
                "line-reader",
                "The class name of the class to use for reading lines from standard in. By default each line is "
                "read as a separate message.",
            )
            .with_required_arg()
            .described_as("reader_class")
            .defaults_to(LINE_MESSAGE_READER)
        )
        self.socket_buffer_size_opt = (
            parser.accepts("socket-buffer-size", "The size of the tcp RECV size.")
            .with_required_arg()
            .described_as("size")
            .of_type(Integer)
            .defaults_to(1024 * 100)
        )
        self.property_opt = (
            parser.accepts(
                "property",
                "A mechanism to pass user-defined properties in the form key=value to the message reader. This "
                "allows custom configuration for a user-defined message reader.\n"
                "Default properties include:\n"
                " parse.key=false\n"
                " parse.headers=false\n"
                " ignore.error=false\n"
                " key.separator=\\t\n"
                " headers.delimiter=\\t\n"
                " headers.separator=,\n"
                " headers.key.separator=:\n"
                " null.marker=   When set, any fields (key, value and headers) equal to this will be replaced by "
                "null\n"
                "Default parsing pattern when:\n"
                ' parse.headers=true and parse.key=true:\n  "h1:v1,h2:v2...\\tkey\\tvalue"\n'
                ' parse.key=true:\n  "key\\tvalue"\n'
                ' parse.headers=true:\n  "h1:v1,h2:v2...\\tvalue"\n',
            )
            .with_required_arg()
            .described_as("prop")
        )
        self.reader_config_opt = (
            parser.accepts(
                "reader-config",
                "Config properties file for the message reader. Note that [property] takes precedence over this "
                "config.",
            )
            .with_required_arg()
            .described_as("config file")
        )
        self.producer_property_opt = (
            parser.accepts(
                "producer-property",
                "A mechanism to pass user-defined properties in the form key=value to the producer. ",
            )
            .with_required_arg()
            .described_as("producer_prop")
        )
        self.producer_config_opt = (
            parser.accepts(
                "producer.config",
                f"Producer config properties file. Note that {self.producer_property_opt} takes precedence over this "
                "config.",
            )
            .with_required_arg()
            .described_as("config file")
        )
        # PORT: not in Kafka's tool; every tool of this project takes --command-config (read after --producer.config).
        self.command_config_opt = (
            parser.accepts(
                "command-config",
                f"Producer config properties file, read after --producer.config. {self.producer_property_opt} takes "
                "precedence over it.",
            )
            .with_required_arg()
            .described_as("config file")
        )

        self.options = parser.parse(self.args)
        ensure_required_unless(self.options, self.bootstrap_server_opt, self.broker_list_opt)

    def check_args(self) -> None:
        """Kafka's checks after parsing: help, version, the topic and the broker addresses."""
        options = self.options
        if is_print_help_needed(self):
            print_usage_and_die(self.parser, DESCRIPTION)
        if is_print_version_needed(self):
            return
        check_required_args(self.parser, options, self.topic_opt)
        validate_port_or_die(self.parser, self.broker_hosts_and_ports)

    @property
    def topic(self) -> str:
        return str(self.options.value_of(self.topic_opt))

    @property
    def bootstrap_server(self) -> str | None:
        return self.options.value_of(self.bootstrap_server_opt)

    @property
    def broker_list(self) -> str | None:
        return self.options.value_of(self.broker_list_opt)

    @property
    def broker_hosts_and_ports(self) -> str:
        opt = self.bootstrap_server_opt if self.options.has(self.bootstrap_server_opt) else self.broker_list_opt
        return str(self.options.value_of(opt))

    @property
    def sync(self) -> bool:
        return self.options.has(self.sync_opt)

    @property
    def compression_codec(self) -> str:
        if not self.options.has(self.compression_codec_opt):
            return "none"
        value = self.options.value_of(self.compression_codec_opt)
        return value if value else "gzip"

    @property
    def batch_size(self) -> int:
        return int(self.options.value_of(self.batch_size_opt))

    @property
    def reader_class(self) -> str:
        return str(self.options.value_of(self.message_reader_opt))

    @property
    def cmd_line_props(self) -> dict[str, str]:
        return parse_key_value_args(self.options.values_of(self.property_opt))

    @property
    def extra_producer_props(self) -> dict[str, str]:
        return parse_key_value_args(self.options.values_of(self.producer_property_opt))


def get_reader_props(config: ProducerConfig) -> dict[str, str]:
    """The reader's properties: `--reader-config`, the topic, then the `--property` pairs."""
    props: dict[str, str] = {}
    if config.options.has(config.reader_config_opt):
        props.update(load_props(config.options.value_of(config.reader_config_opt)))
    props["topic"] = config.topic
    props.update(config.cmd_line_props)
    return props


def producer_props(config: ProducerConfig) -> dict[str, str]:
    """The producer's settings: the config file, `--producer-property` pairs over it, then the tool's options
    (the addresses, compression, client.id and serializers always; the others when given or not set yet)."""
    options = config.options
    props: dict[str, str] = {}
    if options.has(config.producer_config_opt):
        props.update(load_props(options.value_of(config.producer_config_opt)))
    if options.has(config.command_config_opt):
        props.update(load_props(options.value_of(config.command_config_opt)))
    props.update(config.extra_producer_props)
    if config.bootstrap_server is not None:
        props["bootstrap.servers"] = config.bootstrap_server
    else:
        props["bootstrap.servers"] = str(config.broker_list)
    props["compression.type"] = config.compression_codec
    if props.get("client.id") is None:
        props["client.id"] = "console-producer"
    props["key.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
    props["value.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
    maybe_merge_options(props, "linger.ms", options, config.send_timeout_opt)
    maybe_merge_options(props, "acks", options, config.request_required_acks_opt)
    maybe_merge_options(props, "request.timeout.ms", options, config.request_timeout_ms_opt)
    maybe_merge_options(props, "retries", options, config.message_send_max_retries_opt)
    maybe_merge_options(props, "retry.backoff.ms", options, config.retry_backoff_ms_opt)
    maybe_merge_options(props, "send.buffer.bytes", options, config.socket_buffer_size_opt)
    maybe_merge_options(props, "buffer.memory", options, config.max_memory_bytes_opt)
    maybe_merge_options(props, "batch.size", options, config.batch_size_opt)
    maybe_merge_options(props, "batch.size", options, config.max_partition_memory_bytes_opt)
    maybe_merge_options(props, "metadata.max.age.ms", options, config.metadata_expiry_ms_opt)
    maybe_merge_options(props, "max.block.ms", options, config.max_block_ms_opt)
    return props


def _new_reader(class_name: str) -> MessageReader:
    if class_name in (LINE_MESSAGE_READER, "kafka.tools.LineMessageReader"):
        return LineMessageReader()
    from kafka.common.utils.utils import load_class

    cls = load_class(class_name)
    reader = cls()
    if not isinstance(reader, MessageReader):
        raise ValueError(f"the reader must extend {MessageReader.__module__}.MessageReader")
    return reader


def _default_producer_factory(props: Mapping[str, str]) -> _Producer:
    from kafka.clients.producer.kafka_producer import KafkaProducer

    return KafkaProducer(dict(props))


class _SendFailures(ErrorLoggingCallback):
    """Kafka's ErrorLoggingCallback, counting the failures so that the tool's exit status can show them."""

    def __init__(self, record: BytesRecord, counter: list[int], lock: threading.Lock) -> None:
        super().__init__(record.topic, record.key, record.value, False)
        self._counter = counter
        self._lock = lock

    def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        if exception is not None:
            with self._lock:
                self._counter[0] += 1
        super().on_completion(metadata, exception)


class _Terminated(BaseException):
    """SIGTERM arrived: leave the read loop and close the producer, as Kafka's shutdown hook does."""


def _on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: closing the producer must not be cut short
    raise _Terminated()


def run_command(
    args: Sequence[str],
    stdin: BinaryIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    producer_factory: ProducerFactory | None = None,
    interactive: bool | None = None,
) -> int:
    """Parses the command line, then sends every record the reader makes of `stdin`; returns the exit status."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        config = ProducerConfig(args)
        config.check_args()
        if print_version_if_needed(config, out):
            return 0
    except OptionException as e:
        # tryParse: a command line jopt-simple refuses is reported with the help.
        print(str(e), file=err)
        ProducerConfig(["--help"]).parser.print_help_on(err)
        return 1
    except UsageException as e:
        print(e.message, file=err)
        e.parser.print_help_on(err)
        return 1
    except ValueError as e:
        print_exception(e, err)
        return 1

    producer: _Producer | None = None
    failures = [0]
    lock = threading.Lock()
    status = 0
    try:
        reader = _new_reader(config.reader_class)
        reader.init(stdin, get_reader_props(config))
        if isinstance(reader, LineMessageReader):
            if interactive is None:
                interactive = _on_console()
            reader.set_prompt(out if interactive else None)
        producer = (producer_factory or _default_producer_factory)(producer_props(config))
        try:
            while (record := reader.read_message()) is not None:
                if config.sync:
                    producer.send(record).get()
                else:
                    producer.send(record, _SendFailures(record, failures, lock))
        finally:
            reader.close()
    except (KeyboardInterrupt, _Terminated):
        status = 130
    except Exception as e:
        print_exception(e, err)
        status = 1
    finally:
        if producer is not None:
            try:
                producer.close()
            except Exception as e:
                print_exception(e, err)
                status = status or 1
    if status == 0 and failures[0] > 0:
        status = 1
    return status


def _on_console() -> bool:
    """System.console() != null: both standard input and standard output are a terminal."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-console-producer.sh (through kafka-run-class.sh); returns the exit status."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return run_command(args)
    finally:
        signal.signal(signal.SIGTERM, previous)
        finish_stdout()


if __name__ == "__main__":
    sys.exit(main())
