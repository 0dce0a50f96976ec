"""Port of core/src/main/scala/kafka/admin/LeaderElectionCommand.scala (Kafka 2.8).

`kafka-leader-election.sh --bootstrap-server HOST:PORT --election-type preferred|unclean (--topic T --partition P |
--all-topic-partitions | --path-to-json-file FILE)`: asks the controller to elect leaders, preferred replicas or
(unclean) any live replica, and prints which partitions got a new leader, which had a valid one already, and
which failed.

It works through the admin client (Admin.create); tests hand in a fake one through `admin_factory`.

# PORT: Kafka's tool takes its admin client properties with `--admin.config`; `--command-config`, the name the
other tools use, is accepted as well. 2.8 lists the succeeded partitions where it means those that had a valid
leader already; this prints the latter, as Kafka 3.x does. What escapes Kafka's main (a missing option, a
failed election) makes the JVM print `Exception in thread "main" ...` and a stack trace; here that line and its
`Caused by:` lines, and status 1. The partition sets print in the order of Java's HashSet, as Kafka's do.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from kafka.admin._tool_support import (
    AdminCommandFailedException,
    AdminFactory,
    create_admin_client,
    java_hash_map_order,
    json_array,
    json_field,
    json_object,
    json_parse_full,
    json_to_int,
    json_to_string,
    load_command_config,
    read_file_as_string,
)
from kafka.admin.admin_utils import AdminOperationException
from kafka.common.election_type import ElectionType
from kafka.common.errors import ClusterAuthorizationException, ElectionNotNeededException, TimeoutException
from kafka.common.kafka_future import ExecutionException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import java_to_string
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    Integer,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)

__all__ = ["LeaderElectionCommandOptions", "main", "run", "run_command"]

_logger = logging.getLogger("kafka.admin.LeaderElectionCommand$")

DEFAULT_TIMEOUT_MS = 30000


def run(
    args: Sequence[str], timeout_ms: int, out: TextIO, admin_factory: AdminFactory | None = None
) -> LeaderElectionCommandOptions | None:
    """Runs the command; returns the parsed options, or None when it only printed the version."""
    command_options = LeaderElectionCommandOptions(args)
    if is_print_help_needed(command_options):
        print_usage_and_die(
            command_options.parser,
            "This tool attempts to elect a new leader for a set of topic partitions. The type of elections supported "
            "are preferred replicas and unclean replicas.",
        )
    if print_version_if_needed(command_options, out):
        return None

    validate(command_options)
    options = command_options.options
    election_type: ElectionType = options.value_of(command_options.election_type)

    json_file_topic_partitions = None
    if options.has(command_options.path_to_json_file):
        json_file_topic_partitions = parse_replica_election_data(
            read_file_as_string(options.value_of(command_options.path_to_json_file))
        )
    single_topic_partition = None
    if options.has(command_options.topic) and options.has(command_options.partition):
        single_topic_partition = {
            TopicPartition(options.value_of(command_options.topic), options.value_of(command_options.partition))
        }
    # None with --all-topic-partitions: every partition.
    topic_partitions = json_file_topic_partitions if json_file_topic_partitions is not None else single_topic_partition

    config_spec = next(
        (s for s in (command_options.admin_client_config, command_options.command_config) if options.has(s)), None
    )
    props = load_command_config(options.value_of(config_spec) if config_spec is not None else None)
    props["bootstrap.servers"] = options.value_of(command_options.bootstrap_server)
    props["default.api.timeout.ms"] = str(timeout_ms)
    props["request.timeout.ms"] = str(timeout_ms // 2)
    admin_client = create_admin_client(props, admin_factory)
    try:
        elect_leaders(admin_client, election_type, topic_partitions, out)
    finally:
        admin_client.close()
    return command_options


def parse_replica_election_data(json_string: str) -> set[TopicPartition]:
    js = json_parse_full(json_string)
    if js is None:
        raise AdminOperationException("Replica election data is empty")
    partitions_list = json_object(js).get("partitions")
    if partitions_list is None:
        raise AdminOperationException('Replica election data is missing "partitions" field')
    partitions = []
    for p in json_array(partitions_list):
        partition_js = json_object(p)
        topic = json_to_string(json_field(partition_js, "topic"))
        partition = json_to_int(json_field(partition_js, "partition"))
        partitions.append(TopicPartition(topic, partition))
    duplicate_partitions = [tp for tp in dict.fromkeys(partitions) if partitions.count(tp) > 1]
    if duplicate_partitions:
        raise AdminOperationException(
            "Replica election data contains duplicate partitions: " + ",".join(map(str, duplicate_partitions))
        )
    return set(partitions)


def elect_leaders(
    client: Any, election_type: ElectionType, topic_partitions: set[TopicPartition] | None, out: TextIO
) -> None:
    try:
        _logger.debug(f"Calling AdminClient.electLeaders({election_type.name}, {topic_partitions})")
        election_results = client.elect_leaders(election_type, topic_partitions).partitions().get()
    except ExecutionException as e:
        if isinstance(e.cause, TimeoutException):
            message = "Timeout waiting for election results"
            print(message, file=out)
            raise AdminCommandFailedException(message) from e.cause
        if isinstance(e.cause, ClusterAuthorizationException):
            message = "Not authorized to perform leader election"
            print(message, file=out)
            raise AdminCommandFailedException(message) from e.cause
        raise
    except Exception:
        print("Error while making request", file=out)
        raise

    succeeded: list[TopicPartition] = []
    noop: list[TopicPartition] = []
    failed: dict[TopicPartition, BaseException] = {}
    for topic_partition, error in election_results.items():
        if error is not None:
            if isinstance(error, ElectionNotNeededException):
                noop.append(topic_partition)
            else:
                failed[topic_partition] = error
        else:
            succeeded.append(topic_partition)

    name = election_type.name
    if succeeded:
        partitions = ", ".join(str(tp) for tp in java_hash_map_order(succeeded))
        print(f"Successfully completed leader election ({name}) for partitions {partitions}", file=out)
    if noop:
        partitions = ", ".join(str(tp) for tp in java_hash_map_order(noop))
        print(f"Valid replica already elected for partitions {partitions}", file=out)
    if failed:
        root_exception = AdminCommandFailedException(f"{len(failed)} replica(s) could not be elected")
        for topic_partition in java_hash_map_order(failed):
            exception = failed[topic_partition]
            root_exception.add_suppressed(exception)
            print(
                f"Error completing leader election ({name}) for partition: {topic_partition}: "
                f"{java_to_string(exception)}",
                file=out,
            )
        raise root_exception


def validate(command_options: LeaderElectionCommandOptions) -> None:
    options = command_options.options
    missing_options: list[str] = []
    if not options.has(command_options.bootstrap_server):
        missing_options.insert(0, command_options.bootstrap_server.name)
    if not options.has(command_options.election_type):
        missing_options.insert(0, command_options.election_type.name)
    if missing_options:
        raise AdminCommandFailedException(f"Missing required option(s): {', '.join(missing_options)}")

    mutually_exclusive_options = [
        command_options.topic,
        command_options.all_topic_partitions,
        command_options.path_to_json_file,
    ]
    if sum(1 for o in mutually_exclusive_options if options.has(o)) != 1:
        raise AdminCommandFailedException(
            "One and only one of the following options is required: "
            + ", ".join(o.name for o in mutually_exclusive_options)
        )

    has_topic, has_partition = options.has(command_options.topic), options.has(command_options.partition)
    if has_topic and not has_partition:
        raise AdminCommandFailedException(f"Missing required option(s): {command_options.partition.name}")
    if has_partition and not has_topic:
        raise AdminCommandFailedException(
            f"Option {command_options.partition.name} is only allowed if {command_options.topic.name} is used"
        )


class LeaderElectionCommandOptions(CommandDefaultOptions):
    """The command line of kafka-leader-election.sh."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.bootstrap_server = (
            parser.accepts(
                "bootstrap-server",
                "A hostname and port for the broker to connect to, in the form host:port. Multiple comma separated "
                "URLs can be given. REQUIRED.",
            )
            .with_required_arg()
            .described_as("host:port")
            .of_type(str)
        )
        self.admin_client_config = (
            parser.accepts("admin.config", "Configuration properties files to pass to the admin client")
            .with_required_arg()
            .described_as("config file")
            .of_type(str)
        )
        self.command_config = (
            parser.accepts(
                "command-config",
                "Property file containing configs to be passed to Admin Client (the same as --admin.config).",
            )
            .with_required_arg()
            .described_as("command config property file")
            .of_type(str)
        )
        self.path_to_json_file = (
            parser.accepts(
                "path-to-json-file",
                "The JSON file with the list  of partition for which leader elections should be performed. This is "
                'an example format. \n{"partitions":\n\t[{"topic": "foo", "partition": 1},\n\t {"topic": "foobar", '
                '"partition": 2}]\n}\nNot allowed if --all-topic-partitions or --topic flags are specified.',
            )
            .with_required_arg()
            .described_as("Path to JSON file")
            .of_type(str)
        )
        self.topic = (
            parser.accepts(
                "topic",
                "Name of topic for which to perform an election. Not allowed if --path-to-json-file or "
                "--all-topic-partitions is specified.",
            )
            .with_required_arg()
            .described_as("topic name")
            .of_type(str)
        )
        self.partition = (
            parser.accepts(
                "partition", "Partition id for which to perform an election. REQUIRED if --topic is specified."
            )
            .with_required_arg()
            .described_as("partition id")
            .of_type(Integer)
        )
        self.all_topic_partitions = parser.accepts(
            "all-topic-partitions",
            "Perform election on all of the eligible topic partitions based on the type of election (see the "
            "--election-type flag). Not allowed if --topic or --path-to-json-file is specified.",
        )
        self.election_type = (
            parser.accepts(
                "election-type",
                'Type of election to attempt. Possible values are "preferred" for preferred leader election or '
                '"unclean" for unclean leader election. If preferred election is selection, the election is only '
                "performed if the current leader is not the preferred leader for the topic partition. If unclean "
                "election is selected, the election is only performed if there are no leader for the topic "
                "partition. REQUIRED.",
            )
            .with_required_arg()
            .described_as("election type")
            .of_type(ElectionType)
        )
        self.options = parser.parse(self.args)


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr

    def body() -> int:
        run(args, timeout_ms, out, admin_factory)
        return 0

    return run_reporting_errors(body, err, lambda: LeaderElectionCommandOptions([]).parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-leader-election.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
