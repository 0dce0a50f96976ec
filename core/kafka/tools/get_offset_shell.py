"""Port of core/src/main/scala/kafka/tools/GetOffsetShell.scala (Kafka 2.8, with Kafka 3.0's options).

`kafka-get-offsets.sh --bootstrap-server HOST:PORT --topic T [--partitions 0,1] [--time -1|-2|TIMESTAMP]`:
prints `topic:partition:offset` for each matching partition, sorted by topic and partition: the latest offset
(-1, the default), the earliest (-2), or the first offset whose record timestamp is at or after TIMESTAMP (empty
when there is none). `--topic` is a regular expression; `--topic-partitions` takes a list of
`topic-regex:partitions` patterns instead (`t1:1,t2:0-3,t3,t4:5-,t5:-3`).

# PORT: Kafka 2.8's tool took only `--broker-list`, one topic and a partition list; this is 3.0's (KIP-635):
`--bootstrap-server` (with `--broker-list` as its deprecated alias), topic regular expressions,
`--topic-partitions`, `--exclude-internal-topics` and `--command-config`. 2.8's `--offsets` and `--max-wait-ms`,
ignored there, are accepted and ignored. `--help` and `--version` are offered as 3.7's tool does. A failure
prints `Error occurred: <message>` on stderr (3.0 printed it on stdout; 3.7 on stderr) and ends with status 1.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import IllegalArgumentException, load_props, parse_int
from kafka.tools.tools_utils import (
    configure_tool_logging,
    finish_stdout,
    silence_stdout,
    validate_port_or_die,
)
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    Integer,
    UsageException,
    check_required_args,
    ensure_required_unless,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.utils.topic_filter import IncludeList

__all__ = [
    "GetOffsetShellOptions",
    "create_partition_set",
    "create_topic_partition_filter_with_pattern_list",
    "create_topic_partition_filter_with_topic_and_partition_pattern",
    "fetch_offsets",
    "main",
    "parse_rule_spec",
    "run_command",
]

USAGE_TEXT = "An interactive shell for getting topic-partition offsets."
TOPIC_PARTITION_PATTERN = "([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?"
_TOPIC_PARTITION_PATTERN = re.compile(TOPIC_PARTITION_PATTERN)
EARLIEST_TIMESTAMP = -2  # ListOffsetsRequest.EARLIEST_TIMESTAMP
LATEST_TIMESTAMP = -1  # ListOffsetsRequest.LATEST_TIMESTAMP
_INT_MAX = 2**31 - 1

PartitionFilter = Callable[[PartitionInfo], bool]


def parse_rule_spec(rule_spec: str, exclude_internal_topics: bool) -> PartitionFilter:
    """One `topic-regex[:partition|:lower-upper]` pattern as a filter (lower inclusive, upper exclusive)."""
    match = _TOPIC_PARTITION_PATTERN.fullmatch(rule_spec)
    if match is None:
        raise IllegalArgumentException(f"Invalid rule specification: {rule_spec}")

    def group(g: int) -> str | None:
        value = match.group(g)
        return value if value else None

    topic_filter = IncludeList(group(1) or ".*")
    partition = group(2)
    if partition is not None:
        wanted = parse_int(partition)

        def partition_filter(p: int) -> bool:
            return p == wanted
    else:
        lower_text, upper_text = group(3), group(4)
        lower_range = parse_int(lower_text) if lower_text is not None else 0
        upper_range = parse_int(upper_text) if upper_text is not None else _INT_MAX

        def partition_filter(p: int) -> bool:
            return lower_range <= p < upper_range

    return lambda tp: (
        topic_filter.is_topic_allowed(tp.topic, exclude_internal_topics) and partition_filter(tp.partition)
    )


def create_topic_partition_filter_with_pattern_list(
    topic_partitions: str, exclude_internal_topics: bool
) -> PartitionFilter:
    """A filter accepting what any of the comma-separated patterns accepts."""
    rule_specs = topic_partitions.split(",")
    while rule_specs and rule_specs[-1] == "":
        rule_specs.pop()  # String.split drops trailing empty strings
    rules = [parse_rule_spec(rule_spec, exclude_internal_topics) for rule_spec in rule_specs]
    return lambda tp: any(rule(tp) for rule in rules)


def create_topic_partition_filter_with_topic_and_partition_pattern(
    topic_opt: str | None, exclude_internal_topics: bool, partition_ids: set[int]
) -> PartitionFilter:
    """A filter on a topic regular expression (all topics when None) and a set of partitions (all when empty)."""
    topics_filter = IncludeList(topic_opt if topic_opt is not None else ".*")
    return lambda t: (
        topics_filter.is_topic_allowed(t.topic, exclude_internal_topics)
        and (not partition_ids or t.partition in partition_ids)
    )


def create_partition_set(partitions_string: str | None) -> set[int]:
    """The ids of a comma-separated partition list; an empty or missing list is the empty set."""
    if not partitions_string:
        return set()
    pieces = partitions_string.split(",")
    while pieces and pieces[-1] == "":
        pieces.pop()
    result = set()
    for partition_string in pieces:
        if not re.fullmatch(r"[+-]?[0-9]+", partition_string) or not -(2**31) <= int(partition_string) <= _INT_MAX:
            raise IllegalArgumentException(
                "--partitions expects a comma separated list of numeric partition ids, but received: "
                f"{partitions_string}"
            )
        result.add(int(partition_string))
    return result


class GetOffsetShellOptions(CommandDefaultOptions):
    """The command line of kafka-get-offsets.sh."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.broker_list_opt = (
            parser.accepts(
                "broker-list",
                "DEPRECATED, use --bootstrap-server instead; ignored if --bootstrap-server is specified. The "
                "server(s) to connect to in the form HOST1:PORT1,HOST2:PORT2.",
            )
            .with_required_arg()
            .described_as("HOST1:PORT1,...,HOST3:PORT3")
        )
        self.bootstrap_server_opt = (
            parser.accepts(
                "bootstrap-server", "REQUIRED. The server(s) to connect to in the form HOST1:PORT1,HOST2:PORT2."
            )
            .with_required_arg()
            .described_as("HOST1:PORT1,...,HOST3:PORT3")
        )
        self.topic_partitions_opt = (
            parser.accepts(
                "topic-partitions",
                "Comma separated list of topic-partition patterns to get the offsets for, with the format of "
                f"'{TOPIC_PARTITION_PATTERN}'. The first group is an optional regex for the topic name, if omitted, it "
                "matches any topic name. The section after ':' describes a 'partition' pattern, which can be: a "
                "number, a range in the format of 'NUMBER-NUMBER' (lower inclusive, upper exclusive), an inclusive "
                "lower bound in the format of 'NUMBER-', an exclusive upper bound in the format of '-NUMBER' or may "
                "be omitted to accept all partitions.",
            )
            .with_required_arg()
            .described_as("topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3")
        )
        self.topic_opt = (
            parser.accepts(
                "topic",
                "The topic to get the offsets for. It also accepts a regular expression. If not present, all "
                "authorized topics are queried. Cannot be used if --topic-partitions is present.",
            )
            .with_required_arg()
            .described_as("topic")
        )
        self.partitions_opt = (
            parser.accepts(
                "partitions",
                "Comma separated list of partition ids to get the offsets for. If not present, all partitions of the "
                "authorized topics are queried. Cannot be used if --topic-partitions is present.",
            )
            .with_required_arg()
            .described_as("partition ids")
        )
        self.time_opt = (
            parser.accepts(
                "time",
                "timestamp of the offsets before that. [Note: No offset is returned, if the timestamp greater than "
                "recently committed record timestamp is given.]",
            )
            .with_required_arg()
            .described_as("timestamp/-1(latest)/-2(earliest)")
            .of_type(int)
            .defaults_to(-1)
        )
        self.command_config_opt = (
            parser.accepts("command-config", "Property file containing configs to be passed to Consumer Client.")
            .with_required_arg()
            .described_as("config file")
        )
        self.exclude_internal_topics_opt = parser.accepts(
            "exclude-internal-topics",
            "By default, internal topics are included. If specified, internal topics are excluded.",
        )
        self.offsets_opt = (
            parser.accepts("offsets", "DEPRECATED AND IGNORED: number of offsets returned")
            .with_required_arg()
            .described_as("count")
            .of_type(Integer)
            .defaults_to(1)
        )
        self.max_wait_ms_opt = (
            parser.accepts("max-wait-ms", "DEPRECATED AND IGNORED: The max amount of time each fetch request waits.")
            .with_required_arg()
            .described_as("ms")
            .of_type(Integer)
            .defaults_to(1000)
        )
        if not self.args:
            print_usage_and_die(parser, USAGE_TEXT)
        self.options = parser.parse(self.args)
        ensure_required_unless(self.options, self.bootstrap_server_opt, self.broker_list_opt)


ConsumerFactory = Callable[[Mapping[str, str]], Any]


def _default_consumer_factory(props: Mapping[str, str]) -> Any:
    from kafka.clients.consumer.kafka_consumer import KafkaConsumer
    from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer

    return KafkaConsumer(dict(props), ByteArrayDeserializer(), ByteArrayDeserializer())


def fetch_offsets(
    args: Sequence[str], out: TextIO, err: TextIO, consumer_factory: ConsumerFactory | None = None
) -> int:
    """Parses the command line, looks the offsets up and prints them; returns the exit status."""
    opts = GetOffsetShellOptions(args)
    options = opts.options
    if is_print_help_needed(opts):
        print_usage_and_die(opts.parser, USAGE_TEXT)
    if print_version_if_needed(opts, out):
        return 0
    effective_broker_list_opt = (
        opts.bootstrap_server_opt if options.has(opts.bootstrap_server_opt) else opts.broker_list_opt
    )
    check_required_args(opts.parser, options, effective_broker_list_opt)
    client_id = "GetOffsetShell"
    broker_list = str(options.value_of(effective_broker_list_opt))
    validate_port_or_die(opts.parser, broker_list)
    exclude_internal_topics = options.has(opts.exclude_internal_topics_opt)
    if options.has(opts.topic_partitions_opt) and (options.has(opts.topic_opt) or options.has(opts.partitions_opt)):
        raise IllegalArgumentException("--topic-partitions cannot be used with --topic or --partitions")
    list_offsets_timestamp = int(options.value_of(opts.time_opt))
    if options.has(opts.topic_partitions_opt):
        topic_partition_filter = create_topic_partition_filter_with_pattern_list(
            str(options.value_of(opts.topic_partitions_opt)), exclude_internal_topics
        )
    else:
        partition_ids_requested = create_partition_set(options.value_of(opts.partitions_opt))
        topic_partition_filter = create_topic_partition_filter_with_topic_and_partition_pattern(
            options.value_of(opts.topic_opt) if options.has(opts.topic_opt) else None,
            exclude_internal_topics,
            partition_ids_requested,
        )
    config = load_props(options.value_of(opts.command_config_opt)) if options.has(opts.command_config_opt) else {}
    config["bootstrap.servers"] = broker_list
    config["client.id"] = client_id
    consumer = (consumer_factory or _default_consumer_factory)(config)
    try:
        partition_infos = [
            p for partitions in consumer.list_topics().values() for p in partitions if topic_partition_filter(p)
        ]
        if not partition_infos:
            raise IllegalArgumentException("Could not match any topic-partitions with the specified filters")
        topic_partitions = []
        for p in partition_infos:
            if p.leader is None:
                err.write(
                    f"Error: topic-partition {p.topic}:{p.partition} does not have a leader. Skip getting offsets\n"
                )
            else:
                topic_partitions.append(TopicPartition(p.topic, p.partition))
        partition_offsets: dict[TopicPartition, int | None]
        if list_offsets_timestamp == EARLIEST_TIMESTAMP:
            partition_offsets = dict(consumer.beginning_offsets(topic_partitions))
        elif list_offsets_timestamp == LATEST_TIMESTAMP:
            partition_offsets = dict(consumer.end_offsets(topic_partitions))
        else:
            found = consumer.offsets_for_times({tp: list_offsets_timestamp for tp in topic_partitions})
            partition_offsets = {tp: None if x is None else x.offset for tp, x in found.items()}
        for tp, offset in sorted(partition_offsets.items(), key=lambda item: (item[0].topic, item[0].partition)):
            out.write(f"{tp.topic}:{tp.partition}:{'' if offset is None else offset}\n")
        out.flush()
    finally:
        consumer.close()
    return 0


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    consumer_factory: ConsumerFactory | None = None,
) -> int:
    """Runs the tool; a failure prints `Error occurred: <message>` and gives status 1."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        return fetch_offsets(args, out, err, consumer_factory)
    except UsageException as e:
        print(e.message, file=err)
        e.parser.print_help_on(err)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise
    except Exception as e:
        message = e.filename if isinstance(e, FileNotFoundError) and e.filename else e
        print(f"Error occurred: {message}", file=err)
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-get-offsets.sh (through kafka-run-class.sh); returns the exit status."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    try:
        return run_command(args)
    except BrokenPipeError:
        silence_stdout()  # `kafka-get-offsets.sh ... | head`: the reader has what it wanted
        return 0
    finally:
        finish_stdout()


if __name__ == "__main__":
    sys.exit(main())
