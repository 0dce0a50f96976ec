"""Port of core/src/main/scala/kafka/admin/LogDirsCommand.scala (Kafka 2.8).

`kafka-log-dirs.sh --describe --bootstrap-server HOST:PORT [--broker-list 0,1] [--topic-list t1,t2]`: asks the
brokers (all of them unless listed) for their log directories (DescribeLogDirs through the admin client) and
prints, after two lines saying so, one line of JSON in Kafka's layout: per broker its log directories, each with
its error (the exception's Java class name, or null) and its partitions (size, offset lag, whether a future
replica), only those of the listed topics when `--topic-list` is given.

It works through the admin client (Admin.create); tests hand in a fake one through `admin_factory`.

# PORT: an exception escaping Kafka's main makes the JVM print `Exception in thread "main" ...` and a stack trace;
here that line and its `Caused by:` lines, and status 1. The brokers, log directories and partitions are printed
in the order Kafka's Scala and Java maps iterate them (kafka.zk.jvm_json reproduces those orders).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from kafka.admin._tool_support import (
    AdminFactory,
    create_admin_client,
    java_hash_code,
    java_split,
    load_command_config,
)
from kafka.clients.admin.log_dir_description import LogDirDescription
from kafka.common.utils.utils import java_class_name, parse_int
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    check_required_args,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.zk import jvm_json

__all__ = ["LogDirsCommandOptions", "describe", "main", "run_command"]

HELP_TEXT = "This tool helps to query log directory usage on the specified brokers."


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
        describe(args, out, admin_factory)
        return 0

    return run_reporting_errors(body, err, lambda: LogDirsCommandOptions([]).parser)


def describe(args: Sequence[str], out: TextIO, admin_factory: AdminFactory | None = None) -> None:
    opts = LogDirsCommandOptions(args)
    if is_print_help_needed(opts):
        print_usage_and_die(opts.parser, HELP_TEXT)
    if print_version_if_needed(opts, out):
        return
    check_required_args(opts.parser, opts.options, opts.bootstrap_server_opt, opts.describe_opt)
    admin_client = _create_admin_client(opts, admin_factory)
    # PORT: the client is closed also when the command fails (Kafka's JVM exits then), so no thread outlives it.
    try:
        topic_list = [t for t in java_split(opts.options.value_of(opts.topic_list_opt), ",") if t]
        broker_list_str = opts.options.value_of(opts.broker_list_opt)
        if broker_list_str is not None:
            broker_list = [parse_int(b) for b in java_split(broker_list_str, ",") if b]
        else:
            broker_list = [n.id for n in admin_client.describe_cluster().nodes().get()]

        print("Querying brokers for log directories information", file=out)
        describe_log_dirs_result = admin_client.describe_log_dirs(broker_list)
        log_dir_infos_by_broker = describe_log_dirs_result.all_descriptions().get()

        print(f"Received log directory information from brokers {','.join(str(b) for b in broker_list)}", file=out)
        print(_format_as_json(log_dir_infos_by_broker, set(topic_list)), file=out)
    finally:
        admin_client.close()


def _format_as_json(log_dir_infos_by_broker: Mapping[int, Mapping[str, LogDirDescription]], topic_set: set[str]) -> str:
    # The brokers as a Scala mutable.Map iterates them; each broker's directories as the admin client's Java
    # HashMap does; the partitions as the Scala mutable.Map that filtering the replica map builds.
    by_broker = jvm_json.scala_mutable_map([], log_dir_infos_by_broker.items())
    brokers = []
    for broker, log_dir_infos in by_broker.items():
        log_dirs = []
        for log_dir, log_dir_info in jvm_json.java_hash_map(log_dir_infos.items()).items():
            replicas = jvm_json.scala_mutable_map(
                [],
                [(tp, r) for tp, r in log_dir_info.replica_infos.items() if not topic_set or tp.topic in topic_set],
                java_hash_code,
            )
            log_dirs.append(
                {
                    "logDir": log_dir,
                    "error": None if log_dir_info.error is None else java_class_name(log_dir_info.error),
                    "partitions": [
                        {
                            "partition": str(tp),
                            "size": replica_info.size,
                            "offsetLag": replica_info.offset_lag,
                            "isFuture": replica_info.is_future,
                        }
                        for tp, replica_info in replicas.items()
                    ],
                }
            )
        brokers.append({"broker": broker, "logDirs": log_dirs})
    return jvm_json.encode_as_bytes({"version": 1, "brokers": brokers}).decode("utf-8")


def _create_admin_client(opts: LogDirsCommandOptions, admin_factory: AdminFactory | None) -> Any:
    options = opts.options
    props = load_command_config(
        options.value_of(opts.command_config_opt) if options.has(opts.command_config_opt) else None
    )
    props["bootstrap.servers"] = options.value_of(opts.bootstrap_server_opt)
    props.setdefault("client.id", "log-dirs-tool")
    return create_admin_client(props, admin_factory)


class LogDirsCommandOptions(CommandDefaultOptions):
    """The command line of kafka-log-dirs.sh."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.bootstrap_server_opt = (
            parser.accepts("bootstrap-server", "REQUIRED: the server(s) to use for bootstrapping")
            .with_required_arg()
            .described_as("The server(s) to use for bootstrapping")
            .of_type(str)
        )
        self.command_config_opt = (
            parser.accepts("command-config", "Property file containing configs to be passed to Admin Client.")
            .with_required_arg()
            .described_as("Admin client property file")
            .of_type(str)
        )
        self.describe_opt = parser.accepts(
            "describe", "Describe the specified log directories on the specified brokers."
        )
        self.topic_list_opt = (
            parser.accepts(
                "topic-list",
                'The list of topics to be queried in the form "topic1,topic2,topic3". All topics will be queried '
                "if no topic list is specified",
            )
            .with_required_arg()
            .described_as("Topic list")
            .defaults_to("")
            .of_type(str)
        )
        self.broker_list_opt = (
            parser.accepts(
                "broker-list",
                'The list of brokers to be queried in the form "0,1,2". All brokers in the cluster will be queried '
                "if no broker list is specified",
            )
            .with_required_arg()
            .described_as("Broker list")
            .of_type(str)
        )
        self.options = parser.parse(self.args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-log-dirs.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
