"""Port of core/src/main/scala/kafka/admin/DeleteRecordsCommand.scala (Kafka 2.8).

`kafka-delete-records.sh --bootstrap-server HOST:PORT --offset-json-file FILE`: deletes the records of the
partitions the file lists below the offset given for each (`{"partitions": [{"topic": "foo", "partition": 1,
"offset": 1}], "version": 1}`; offset -1 means the high watermark), and prints each partition's new low
watermark or its error.

It works through the admin client (Admin.create); tests hand in a fake one through `admin_factory`.

# PORT: what escapes Kafka's main (a file that is not there or not the expected JSON, duplicate partitions)
makes the JVM print `Exception in thread "main" ...` and a stack trace; here that line and its `Caused by:`
lines, and status 1. A command line jopt-simple refuses gets its message and the help, with status 1. The
admin client's results come in a java.util.HashMap: the partitions print in its order, as Kafka's do.
"""

from __future__ import annotations

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
    json_to_long,
    json_to_string,
    load_command_config,
    read_file_as_string,
)
from kafka.admin.admin_utils import AdminOperationException
from kafka.clients.admin.records_to_delete import RecordsToDelete
from kafka.common.kafka_future import ExecutionException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import java_message, java_to_string
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    check_required_args,
    is_print_help_needed,
    is_print_version_needed,
    print_usage_and_die,
    print_version_if_needed,
)

__all__ = [
    "EARLIEST_VERSION",
    "DeleteRecordsCommandOptions",
    "execute",
    "main",
    "parse_offset_json_string_without_dedup",
    "run_command",
]

EARLIEST_VERSION = 1


def parse_offset_json_string_without_dedup(json_data: str) -> list[tuple[TopicPartition, int]]:
    """The (partition, offset) pairs of the offset JSON, in file order, duplicates kept."""
    js = json_parse_full(json_data)
    if js is None:
        raise AdminOperationException("The input string is not a valid JSON")
    version_value = json_object(js).get("version")
    version = EARLIEST_VERSION if version_value is None else json_to_int(version_value)
    return parse_json_data(version, js)


def parse_json_data(version: int, js: Any) -> list[tuple[TopicPartition, int]]:
    if version != 1:
        raise AdminOperationException(f"Not supported version field value {version}")
    partitions = json_object(js).get("partitions")
    if partitions is None:
        raise AdminOperationException("Missing partitions field")
    result = []
    for partition_value in json_array(partitions):
        partition_js = json_object(partition_value)
        topic = json_to_string(json_field(partition_js, "topic"))
        partition = json_to_int(json_field(partition_js, "partition"))
        offset = json_to_long(json_field(partition_js, "offset"))
        result.append((TopicPartition(topic, partition), offset))
    return result


def execute(opts: DeleteRecordsCommandOptions, out: TextIO, admin_factory: AdminFactory | None = None) -> None:
    admin_client = create_admin_client(_admin_props(opts), admin_factory)
    offset_json_file = opts.options.value_of(opts.offset_json_file_opt)
    offset_json_string = read_file_as_string(offset_json_file)
    offset_seq = parse_offset_json_string_without_dedup(offset_json_string)

    partitions = [tp for tp, _ in offset_seq]
    duplicate_partitions = [tp for tp in dict.fromkeys(partitions) if partitions.count(tp) > 1]
    if duplicate_partitions:
        raise AdminCommandFailedException(
            "Offset json file contains duplicate topic partitions: " + ",".join(map(str, duplicate_partitions))
        )

    records_to_delete = {tp: RecordsToDelete.before_offset(offset) for tp, offset in offset_seq}

    print("Executing records delete operation", file=out)
    delete_records_result = admin_client.delete_records(records_to_delete)
    print("Records delete operation completed:", file=out)

    low_watermarks = delete_records_result.low_watermarks()
    # The result map is `new HashMap<>(futures)`, itself a HashMap of the requested partitions.
    order = java_hash_map_order(java_hash_map_order(records_to_delete), int(len(low_watermarks) / 0.75 + 1))
    for tp in order:
        try:
            print(f"partition: {tp}\tlow_watermark: {low_watermarks[tp].get().low_watermark}", file=out)
        except ExecutionException as e:
            print(f"partition: {tp}\terror: {java_to_string(e.cause)}", file=out)
        except BrokenPipeError:
            raise
        except Exception as e:
            print(f"partition: {tp}\terror: {java_message(e)}", file=out)

    admin_client.close()


def _admin_props(opts: DeleteRecordsCommandOptions) -> dict[str, str]:
    options = opts.options
    props = load_command_config(
        options.value_of(opts.command_config_opt) if options.has(opts.command_config_opt) else None
    )
    props["bootstrap.servers"] = options.value_of(opts.bootstrap_server_opt)
    return props


class DeleteRecordsCommandOptions(CommandDefaultOptions):
    """The command line of kafka-delete-records.sh; `check_args` makes Kafka's checks."""

    BOOTSTRAP_SERVER_DOC = "REQUIRED: The server to connect to."
    OFFSET_JSON_FILE_DOC = (
        "REQUIRED: The JSON file with offset per partition. The format to use is:\n"
        '{"partitions":\n  [{"topic": "foo", "partition": 1, "offset": 1}],\n "version":1\n}'
    )
    COMMAND_CONFIG_DOC = "A property file containing configs to be passed to Admin Client."

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.bootstrap_server_opt = (
            parser.accepts("bootstrap-server", self.BOOTSTRAP_SERVER_DOC)
            .with_required_arg()
            .described_as("server(s) to use for bootstrapping")
            .of_type(str)
        )
        self.offset_json_file_opt = (
            parser.accepts("offset-json-file", self.OFFSET_JSON_FILE_DOC)
            .with_required_arg()
            .described_as("Offset json file path")
            .of_type(str)
        )
        self.command_config_opt = (
            parser.accepts("command-config", self.COMMAND_CONFIG_DOC)
            .with_required_arg()
            .described_as("command config property file path")
            .of_type(str)
        )
        self.options = parser.parse(self.args)

    def check_args(self) -> None:
        if is_print_help_needed(self):
            print_usage_and_die(
                self.parser, "This tool helps to delete records of the given partitions down to the specified offset."
            )
        if is_print_version_needed(self):
            return
        check_required_args(self.parser, self.options, self.bootstrap_server_opt, self.offset_json_file_opt)


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr

    def body() -> int:
        opts = DeleteRecordsCommandOptions(args)
        opts.check_args()
        if print_version_if_needed(opts, out):
            return 0
        execute(opts, out, admin_factory)
        return 0

    return run_reporting_errors(body, err, lambda: DeleteRecordsCommandOptions([]).parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-delete-records.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
