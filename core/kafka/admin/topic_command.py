"""Port of core/src/main/scala/kafka/admin/TopicCommand.scala (Kafka 2.8).

`kafka-topics.sh --bootstrap-server HOST:PORT ACTION ...`: creates topics (partition count and replication factor
or a replica assignment, topic configs, `--if-not-exists`), lists them (`--exclude-internal`), describes them (the
topic line and one line per partition, or only the partitions that are under-replicated, unavailable, under or at
their minimum ISR, or only the topics with config overrides), adds partitions (`--alter --partitions`) and deletes
topics (`--if-exists`). `--topic` is a regular expression except with `--create`. The options, checks, messages
and printed lines are Kafka's, so that scripts written against Kafka's tool read this one.

It works through the admin client (Admin.create); tests hand in a fake one through `admin_factory`.

# PORT: the `--zookeeper` mode of 2.8 is not ported: it was removed from Kafka 3.0, and as there `--zookeeper`
is not a recognized option and a command line without `--bootstrap-server` gets 3.x's
"--bootstrap-server must be specified". The ZooKeeper-only options (`--delete-config`, `--disable-rack-aware`,
`--force`) are kept as 2.8 has them. An exception that escapes Kafka's main makes the JVM print
`Exception in thread "main" ...` and a stack trace; here that line and the `Caused by:` lines are printed,
without the Java frames, and the status is 1. A command line jopt-simple refuses gets its message and the help
with status 1, as Kafka's other usage errors do. A failed action logs its exception as one ERROR line (Kafka
logs the whole stack trace). Java's HashMap decides the order in which Kafka prints several described topics;
that order is reproduced.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from kafka.admin._tool_support import (
    AdminCommandFailedException,
    AdminFactory,
    create_admin_client,
    java_hash_map_order,
    java_split,
    load_command_config,
)
from kafka.admin.admin_utils import AdminOperationException
from kafka.clients.admin.config import Config
from kafka.clients.admin.create_partitions_options import CreatePartitionsOptions
from kafka.clients.admin.create_topics_options import CreateTopicsOptions
from kafka.clients.admin.delete_topics_options import DeleteTopicsOptions
from kafka.clients.admin.list_topics_options import ListTopicsOptions
from kafka.clients.admin.new_partitions import NewPartitions
from kafka.clients.admin.new_topic import NewTopic
from kafka.clients.admin.partition_reassignment import PartitionReassignment
from kafka.common.config.config_resource import ConfigResource
from kafka.common.errors import ClusterAuthorizationException, TopicExistsException, UnsupportedVersionException
from kafka.common.internals.topic import Topic
from kafka.common.kafka_future import ExecutionException
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_info import TopicPartitionInfo
from kafka.common.utils.utils import IllegalArgumentException, java_message, java_to_string, parse_int
from kafka.log.log_config import LogConfig
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    Integer,
    OptionSpec,
    check_invalid_args,
    check_invalid_args_set,
    check_required_args,
    is_print_help_needed,
    is_print_version_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.utils.topic_filter import IncludeList

__all__ = [
    "AdminClientTopicService",
    "CommandTopicPartition",
    "DescribeOptions",
    "PartitionDescription",
    "TopicCommandOptions",
    "TopicDescription",
    "main",
    "parse_replica_assignment",
    "parse_topic_configs_to_be_added",
    "parse_topic_configs_to_be_deleted",
    "run_command",
]

# The Scala object's logger: `object TopicCommand extends Logging`.
_logger = logging.getLogger("kafka.admin.TopicCommand$")

_SHORT_MAX = 32767
_MIN_IN_SYNC_REPLICAS_CONFIG = "min.insync.replicas"


class CommandTopicPartition:
    """The topic an action names, with what the command line says about it."""

    def __init__(self, opts: TopicCommandOptions) -> None:
        topic = opts.topic
        assert topic is not None  # check_args requires --topic for create, alter and delete
        self.name: str = topic
        self.partitions: int | None = opts.partitions
        self.replication_factor: int | None = opts.replication_factor
        self.replica_assignment: dict[int, list[int]] | None = opts.replica_assignment
        self.configs_to_add: dict[str, str] = parse_topic_configs_to_be_added(opts)
        self.configs_to_delete: list[str] = parse_topic_configs_to_be_deleted(opts)
        # rackAwareMode only matters to the ZooKeeper mode's own assignment.
        self._opts = opts

    @property
    def has_replica_assignment(self) -> bool:
        return self.replica_assignment is not None

    @property
    def has_partitions(self) -> bool:
        return self.partitions is not None

    def if_topic_doesnt_exist(self) -> bool:
        return self._opts.if_not_exists


@dataclass(frozen=True, slots=True)
class TopicDescription:
    """The topic line of `--describe`."""

    topic: str
    topic_id: Uuid
    num_partitions: int
    replication_factor: int
    config: Config
    marked_for_deletion: bool

    def print_description(self, out: TextIO) -> None:
        configs_as_string = ",".join(f"{ce.name}={ce.value}" for ce in self.config.entries if not ce.is_default)
        line = f"Topic: {self.topic}"
        if self.topic_id != ZERO_UUID:
            line += f"\tTopicId: {self.topic_id}"
        line += f"\tPartitionCount: {self.num_partitions}"
        line += f"\tReplicationFactor: {self.replication_factor}"
        line += f"\tConfigs: {configs_as_string}"
        line += "\tMarkedForDeletion: true" if self.marked_for_deletion else ""
        print(line, file=out)


@dataclass(frozen=True, slots=True)
class PartitionDescription:
    """One partition line of `--describe`, and the tests the report options select partitions by."""

    topic: str
    info: TopicPartitionInfo
    config: Config | None
    marked_for_deletion: bool
    reassignment: PartitionReassignment | None

    def _min_isr_count(self) -> int | None:
        if self.config is None:
            return None
        entry = self.config.get(_MIN_IN_SYNC_REPLICAS_CONFIG)
        if entry is None or entry.value is None:
            return None
        return parse_int(entry.value)

    def is_under_replicated(self) -> bool:
        return get_replication_factor(self.info, self.reassignment) - len(self.info.isr) > 0

    def _has_leader(self) -> bool:
        return self.info.leader is not None

    def is_under_min_isr(self) -> bool:
        min_isr = self._min_isr_count()
        return not self._has_leader() or (min_isr is not None and len(self.info.isr) < min_isr)

    def is_at_min_isr_partitions(self) -> bool:
        return self._min_isr_count() == len(self.info.isr)

    def has_unavailable_partitions(self, live_brokers: set[int]) -> bool:
        leader = self.info.leader
        return leader is None or leader.id not in live_brokers

    def print_description(self, out: TextIO) -> None:
        leader = self.info.leader
        line = f"\tTopic: {self.topic}"
        line += f"\tPartition: {self.info.partition}"
        line += "\tLeader: " + (str(leader.id) if leader is not None else "none")
        line += "\tReplicas: " + ",".join(str(n.id) for n in self.info.replicas)
        line += "\tIsr: " + ",".join(str(n.id) for n in self.info.isr)
        if self.reassignment is not None:
            line += "\tAdding Replicas: " + ",".join(str(r) for r in self.reassignment.adding_replicas)
            line += "\tRemoving Replicas: " + ",".join(str(r) for r in self.reassignment.removing_replicas)
        line += "\tMarkedForDeletion: true" if self.marked_for_deletion else ""
        print(line, file=out)


class DescribeOptions:
    """Which parts of `--describe` print: the topic lines unless a partition report is asked for, the partition
    lines unless `--topics-with-overrides`, and with a report only the partitions it selects."""

    def __init__(self, opts: TopicCommandOptions, live_brokers: set[int]) -> None:
        self.opts = opts
        self.live_brokers = live_brokers
        self.describe_configs = not (
            opts.report_unavailable_partitions
            or opts.report_under_replicated_partitions
            or opts.report_under_min_isr_partitions
            or opts.report_at_min_isr_partitions
        )
        self.describe_partitions = not opts.report_overridden_configs

    def _should_print_topic_partition(self, desc: PartitionDescription) -> bool:
        opts = self.opts
        return (
            self.describe_configs
            or (opts.report_under_replicated_partitions and desc.is_under_replicated())
            or (opts.report_unavailable_partitions and desc.has_unavailable_partitions(self.live_brokers))
            or (opts.report_under_min_isr_partitions and desc.is_under_min_isr())
            or (opts.report_at_min_isr_partitions and desc.is_at_min_isr_partitions())
        )

    def maybe_print_partition_description(self, desc: PartitionDescription, out: TextIO) -> None:
        if self._should_print_topic_partition(desc):
            desc.print_description(out)


class AdminClientTopicService:
    """The actions of the command, carried out with an admin client."""

    def __init__(self, admin_client: Any, out: TextIO | None = None) -> None:
        self.admin_client = admin_client
        self.out = out or sys.stdout

    @classmethod
    def create(
        cls,
        command_config: Mapping[str, str],
        bootstrap_server: str | None,
        out: TextIO | None = None,
        admin_factory: AdminFactory | None = None,
    ) -> AdminClientTopicService:
        props = dict(command_config)
        if bootstrap_server is not None:
            props["bootstrap.servers"] = bootstrap_server
        return cls(create_admin_client(props, admin_factory), out)

    # -- create --------------------------------------------------------------------------------------------------

    def create_topic(self, opts: TopicCommandOptions) -> None:
        topic = CommandTopicPartition(opts)
        if Topic.has_collision_chars(topic.name):
            print(
                "WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could "
                "collide. To avoid issues it is best to use either, but not both.",
                file=self.out,
            )
        self._create_topic(topic)

    def _create_topic(self, topic: CommandTopicPartition) -> None:
        rf = topic.replication_factor
        if rf is not None and (rf > _SHORT_MAX or rf < 1):
            raise IllegalArgumentException(f"The replication factor must be between 1 and {_SHORT_MAX} inclusive")
        if topic.partitions is not None and topic.partitions < 1:
            raise IllegalArgumentException("The partitions must be greater than 0")
        try:
            if topic.replica_assignment is not None:
                new_topic = NewTopic(topic.name, replicas_assignments=topic.replica_assignment)
            else:
                new_topic = NewTopic(topic.name, topic.partitions, rf)
            new_topic.configs(dict(topic.configs_to_add))
            create_result = self.admin_client.create_topics(
                [new_topic], CreateTopicsOptions().retry_on_quota_violation(False)
            )
            create_result.all().get()
            print(f"Created topic {topic.name}.", file=self.out)
        except ExecutionException as e:
            if not (isinstance(e.cause, TopicExistsException) and topic.if_topic_doesnt_exist()):
                raise e.cause from None

    # -- list ------------------------------------------------------------------------------------------------------

    def list_topics(self, opts: TopicCommandOptions) -> None:
        print("\n".join(self.get_topics(opts.topic, opts.exclude_internal_topics)), file=self.out)

    # -- alter -----------------------------------------------------------------------------------------------------

    def alter_topic(self, opts: TopicCommandOptions) -> None:
        topic = CommandTopicPartition(opts)
        topics = self.get_topics(opts.topic, opts.exclude_internal_topics)
        ensure_topic_exists(topics, opts.topic, not opts.if_exists)
        if not topics:
            return
        topics_info = self.admin_client.describe_topics(topics).topic_name_values()
        assert topic.partitions is not None  # check_args requires --partitions with --alter
        new_partitions: dict[str, NewPartitions] = {}
        for topic_name in topics:
            if topic.replica_assignment is not None:
                start_partition_id = len(topics_info[topic_name].get().partitions)
                new_assignment = [
                    replicas
                    for partition, replicas in topic.replica_assignment.items()
                    if partition >= start_partition_id
                ]
                new_partitions[topic_name] = NewPartitions.increase_to(topic.partitions, new_assignment)
            else:
                new_partitions[topic_name] = NewPartitions.increase_to(topic.partitions)
        self.admin_client.create_partitions(
            new_partitions, CreatePartitionsOptions().retry_on_quota_violation(False)
        ).all().get()

    # -- describe --------------------------------------------------------------------------------------------------

    def _list_all_reassignments(
        self, topic_partitions: set[TopicPartition]
    ) -> dict[TopicPartition, PartitionReassignment]:
        try:
            return dict(self.admin_client.list_partition_reassignments(topic_partitions).reassignments().get())
        except ExecutionException as e:
            if isinstance(e.cause, UnsupportedVersionException | ClusterAuthorizationException):
                _logger.debug(f"Couldn't query reassignments through the AdminClient API: {e.cause}")
                return {}
            raise e.cause from None

    def describe_topic(self, opts: TopicCommandOptions) -> None:
        topics = self.get_topics(opts.topic, opts.exclude_internal_topics)
        ensure_topic_exists(topics, opts.topic, not opts.if_exists)
        if not topics:
            return
        all_configs = self.admin_client.describe_configs(
            [ConfigResource(ConfigResource.Type.TOPIC, t) for t in topics]
        ).values()
        live_brokers = {node.id for node in self.admin_client.describe_cluster().nodes().get()}
        described = self.admin_client.describe_topics(topics).all_topic_names().get()
        # The descriptions come in a java.util.HashMap sized for the topics: Kafka prints them in its order.
        topic_descriptions = [described[t] for t in java_hash_map_order(described, len(topics))]
        describe_options = DescribeOptions(opts, live_brokers)
        topic_partitions = {TopicPartition(td.name, p.partition) for td in topic_descriptions for p in td.partitions}
        reassignments = self._list_all_reassignments(topic_partitions)

        for td in topic_descriptions:
            topic_name = td.name
            config = all_configs[ConfigResource(ConfigResource.Type.TOPIC, topic_name)].get()
            sorted_partitions = sorted(td.partitions, key=lambda p: p.partition)
            if describe_options.describe_configs:
                has_non_default = any(not e.is_default for e in config.entries)
                if not opts.report_overridden_configs or has_non_default:
                    num_partitions = len(td.partitions)
                    replication_factor = 0
                    if td.partitions:
                        first_partition = td.partitions[0]
                        reassignment = reassignments.get(TopicPartition(td.name, first_partition.partition))
                        replication_factor = get_replication_factor(first_partition, reassignment)
                    TopicDescription(
                        topic_name, td.topic_id, num_partitions, replication_factor, config, marked_for_deletion=False
                    ).print_description(self.out)
            if describe_options.describe_partitions:
                for partition in sorted_partitions:
                    reassignment = reassignments.get(TopicPartition(td.name, partition.partition))
                    partition_desc = PartitionDescription(
                        topic_name, partition, config, marked_for_deletion=False, reassignment=reassignment
                    )
                    describe_options.maybe_print_partition_description(partition_desc, self.out)

    # -- delete ----------------------------------------------------------------------------------------------------

    def delete_topic(self, opts: TopicCommandOptions) -> None:
        topics = self.get_topics(opts.topic, opts.exclude_internal_topics)
        ensure_topic_exists(topics, opts.topic, not opts.if_exists)
        self.admin_client.delete_topics(topics, DeleteTopicsOptions().retry_on_quota_violation(False)).all().get()

    # -- topics ------------------------------------------------------------------------------------------------------

    def get_topics(self, topic_include_list: str | None, exclude_internal_topics: bool = False) -> list[str]:
        if exclude_internal_topics:
            all_topics = self.admin_client.list_topics()
        else:
            all_topics = self.admin_client.list_topics(ListTopicsOptions().list_internal(True))
        return do_get_topics(sorted(all_topics.names().get()), topic_include_list, exclude_internal_topics)

    def close(self) -> None:
        self.admin_client.close()


def ensure_topic_exists(found_topics: Sequence[str], requested_topic: str | None, require_topic_exists: bool) -> None:
    """IllegalArgumentException when a topic was named, had to exist, and matched none."""
    if requested_topic is not None and require_topic_exists and not found_topics:
        raise IllegalArgumentException(f"Topic '{requested_topic}' does not exist as expected")


def do_get_topics(
    all_topics: Sequence[str], topic_include_list: str | None, exclude_internal_topics: bool
) -> list[str]:
    if topic_include_list is not None:
        topics_filter = IncludeList(topic_include_list)
        return [t for t in all_topics if topics_filter.is_topic_allowed(t, exclude_internal_topics)]
    return [t for t in all_topics if not (Topic.is_internal(t) and exclude_internal_topics)]


def parse_topic_configs_to_be_added(opts: TopicCommandOptions) -> dict[str, str]:
    """The `--config name=value` pairs, checked as topic configs (LogConfig.validate)."""
    configs_to_be_added = [re.split(r"\s*=\s*", c) for c in opts.topic_config or []]
    # Java's split drops trailing empty strings: `a=` is one piece.
    configs_to_be_added = [_drop_trailing_empty(pair) for pair in configs_to_be_added]
    if not all(len(config) == 2 for config in configs_to_be_added):
        raise IllegalArgumentException(
            'requirement failed: Invalid topic config: all configs to be added must be in the format "key=val".'
        )
    props: dict[str, str] = {}
    for key, value in configs_to_be_added:
        props[key.strip()] = value.strip()
    LogConfig.validate(props)
    if LogConfig.MESSAGE_FORMAT_VERSION_PROP in props:
        print(
            f"WARNING: The configuration {LogConfig.MESSAGE_FORMAT_VERSION_PROP}="
            f"{props[LogConfig.MESSAGE_FORMAT_VERSION_PROP]} is specified. This configuration will be ignored if the "
            "version is newer than the inter.broker.protocol.version specified in the broker.",
            file=opts.out,
        )
    return props


def _drop_trailing_empty(pieces: list[str]) -> list[str]:
    while len(pieces) > 1 and pieces[-1] == "":
        pieces = pieces[:-1]
    return pieces


def parse_topic_configs_to_be_deleted(opts: TopicCommandOptions) -> list[str]:
    configs_to_be_deleted = [c.strip() for c in opts.configs_to_delete or []]
    LogConfig.validate_names(dict.fromkeys(configs_to_be_deleted, ""))
    return configs_to_be_deleted


def parse_replica_assignment(replica_assignment_list: str) -> dict[int, list[int]]:
    """`1:2,2:3` -> {0: [1, 2], 1: [2, 3]}: partition i gets the i-th list of broker ids."""
    partition_list = java_split(replica_assignment_list, ",")
    ret: dict[int, list[int]] = {}
    for i, partition in enumerate(partition_list):
        broker_list = [parse_int(s.strip()) for s in java_split(partition, ":")]
        duplicate_brokers = [b for b in dict.fromkeys(broker_list) if broker_list.count(b) > 1]
        if duplicate_brokers:
            raise AdminCommandFailedException(
                "Partition replica lists may not contain duplicate entries: " + ",".join(map(str, duplicate_brokers))
            )
        ret[i] = broker_list
        if len(ret[i]) != len(ret[0]):
            # PORT: 2.8 prints the array's identity ("[I@1b6d3586"); 3.x prints the list, as here.
            raise AdminOperationException(
                f"Partition {i} has different replication factor: [{', '.join(map(str, broker_list))}]"
            )
    return ret


def get_replication_factor(tpi: TopicPartitionInfo, reassignment: PartitionReassignment | None) -> int:
    """The partition's replica count, leaving out the replicas a reassignment in progress is adding."""
    if reassignment is not None:
        all_replica_ids = {n.id for n in tpi.replicas}
        changing = set(reassignment.removing_replicas) | set(reassignment.adding_replicas)
        if all_replica_ids & changing:
            return len([r for r in reassignment.replicas if r not in set(reassignment.adding_replicas)])
    return len(tpi.replicas)


# -- options ------------------------------------------------------------------------------------------------------


class TopicCommandOptions(CommandDefaultOptions):
    """The command line of kafka-topics.sh, parsed; `check_args` makes Kafka's checks."""

    KAFKA_CONFIGS_CAN_ALTER_TOPIC_CONFIGS_VIA_BOOTSTRAP_SERVER = (
        " (the kafka-configs CLI supports altering topic configs with a --bootstrap-server option)"
    )

    def __init__(self, args: Sequence[str], out: TextIO | None = None) -> None:
        super().__init__(args)
        self.out = out or sys.stdout
        parser = self.parser
        nl = os.linesep
        self.bootstrap_server_opt = (
            parser.accepts(
                "bootstrap-server",
                "REQUIRED: The Kafka server to connect to. In case of providing this, a direct Zookeeper connection "
                "won't be required.",
            )
            .with_required_arg()
            .described_as("server to connect to")
            .of_type(str)
        )
        self.command_config_opt = (
            parser.accepts(
                "command-config",
                "Property file containing configs to be passed to Admin Client. This is used only with "
                "--bootstrap-server option for describing and altering broker configs.",
            )
            .with_required_arg()
            .described_as("command config property file")
            .of_type(str)
        )
        self.list_opt = parser.accepts("list", "List all available topics.")
        self.create_opt = parser.accepts("create", "Create a new topic.")
        self.delete_opt = parser.accepts("delete", "Delete a topic")
        self.alter_opt = parser.accepts(
            "alter", "Alter the number of partitions, replica assignment, and/or configuration for the topic."
        )
        self.describe_opt = parser.accepts("describe", "List details for the given topics.")
        self.topic_opt = (
            parser.accepts(
                "topic",
                "The topic to create, alter, describe or delete. It also accepts a regular expression, except for "
                "--create option. Put topic name in double quotes and use the '\\' prefix to escape regular "
                'expression symbols; e.g. "test\\.topic".',
            )
            .with_required_arg()
            .described_as("topic")
            .of_type(str)
        )
        self.config_opt = (
            parser.accepts(
                "config",
                "A topic configuration override for the topic being created or altered. The following is a list of "
                "valid configurations: "
                + nl
                + nl.join("\t" + name for name in LogConfig.config_names())
                + nl
                + "See the Kafka documentation for full details on the topic configs. It is supported only in "
                "combination with --create if --bootstrap-server option is used"
                + self.KAFKA_CONFIGS_CAN_ALTER_TOPIC_CONFIGS_VIA_BOOTSTRAP_SERVER
                + ".",
            )
            .with_required_arg()
            .described_as("name=value")
            .of_type(str)
        )
        self.delete_config_opt = (
            parser.accepts(
                "delete-config",
                "A topic configuration override to be removed for an existing topic (see the list of configurations "
                "under the --config option). Not supported with the --bootstrap-server option.",
            )
            .with_required_arg()
            .described_as("name")
            .of_type(str)
        )
        self.partitions_opt = (
            parser.accepts(
                "partitions",
                "The number of partitions for the topic being created or altered (WARNING: If partitions are "
                "increased for a topic that has a key, the partition logic or ordering of the messages will be "
                "affected). If not supplied for create, defaults to the cluster default.",
            )
            .with_required_arg()
            .described_as("# of partitions")
            .of_type(Integer)
        )
        self.replication_factor_opt = (
            parser.accepts(
                "replication-factor",
                "The replication factor for each partition in the topic being created. If not supplied, defaults to "
                "the cluster default.",
            )
            .with_required_arg()
            .described_as("replication factor")
            .of_type(Integer)
        )
        self.replica_assignment_opt = (
            parser.accepts(
                "replica-assignment",
                "A list of manual partition-to-broker assignments for the topic being created or altered.",
            )
            .with_required_arg()
            .described_as(
                "broker_id_for_part1_replica1 : broker_id_for_part1_replica2 , "
                "broker_id_for_part2_replica1 : broker_id_for_part2_replica2 , ..."
            )
            .of_type(str)
        )
        self.report_under_replicated_partitions_opt = parser.accepts(
            "under-replicated-partitions", "if set when describing topics, only show under replicated partitions"
        )
        self.report_unavailable_partitions_opt = parser.accepts(
            "unavailable-partitions",
            "if set when describing topics, only show partitions whose leader is not available",
        )
        self.report_under_min_isr_partitions_opt = parser.accepts(
            "under-min-isr-partitions",
            "if set when describing topics, only show partitions whose isr count is less than the configured "
            "minimum. Not supported with the --zookeeper option.",
        )
        self.report_at_min_isr_partitions_opt = parser.accepts(
            "at-min-isr-partitions",
            "if set when describing topics, only show partitions whose isr count is equal to the configured "
            "minimum. Not supported with the --zookeeper option.",
        )
        self.topics_with_overrides_opt = parser.accepts(
            "topics-with-overrides", "if set when describing topics, only show topics that have overridden configs"
        )
        self.if_exists_opt = parser.accepts(
            "if-exists",
            "if set when altering or deleting or describing topics, the action will only execute if the topic exists.",
        )
        self.if_not_exists_opt = parser.accepts(
            "if-not-exists",
            "if set when creating topics, the action will only execute if the topic does not already exist.",
        )
        self.disable_rack_aware = parser.accepts("disable-rack-aware", "Disable rack aware replica assignment")
        # Not used, kept for compatibility as Kafka keeps it.
        parser.accepts("force", "Suppress console prompts")
        self.exclude_internal_topic_opt = parser.accepts(
            "exclude-internal",
            "exclude internal topics when running list or describe command. The internal topics will be listed by "
            "default",
        )

        self.options = parser.parse(self.args)

        self.all_topic_level_opts: list[OptionSpec] = [
            self.alter_opt,
            self.create_opt,
            self.describe_opt,
            self.list_opt,
            self.delete_opt,
        ]
        self.all_replication_report_opts: list[OptionSpec] = [
            self.report_under_replicated_partitions_opt,
            self.report_under_min_isr_partitions_opt,
            self.report_at_min_isr_partitions_opt,
            self.report_unavailable_partitions_opt,
        ]

    # -- values ----------------------------------------------------------------------------------------------------

    def has(self, spec: OptionSpec) -> bool:
        return self.options.has(spec)

    @property
    def has_create_option(self) -> bool:
        return self.has(self.create_opt)

    @property
    def has_alter_option(self) -> bool:
        return self.has(self.alter_opt)

    @property
    def has_list_option(self) -> bool:
        return self.has(self.list_opt)

    @property
    def has_describe_option(self) -> bool:
        return self.has(self.describe_opt)

    @property
    def has_delete_option(self) -> bool:
        return self.has(self.delete_opt)

    @property
    def bootstrap_server(self) -> str | None:
        return self.options.value_of(self.bootstrap_server_opt) if self.has(self.bootstrap_server_opt) else None

    def command_config(self) -> dict[str, str]:
        path = self.options.value_of(self.command_config_opt) if self.has(self.command_config_opt) else None
        return load_command_config(path)

    @property
    def topic(self) -> str | None:
        return self.options.value_of(self.topic_opt) if self.has(self.topic_opt) else None

    @property
    def partitions(self) -> int | None:
        return self.options.value_of(self.partitions_opt) if self.has(self.partitions_opt) else None

    @property
    def replication_factor(self) -> int | None:
        return self.options.value_of(self.replication_factor_opt) if self.has(self.replication_factor_opt) else None

    @property
    def replica_assignment(self) -> dict[int, list[int]] | None:
        if self.has(self.replica_assignment_opt):
            value = self.options.value_of(self.replica_assignment_opt)
            if value:
                return parse_replica_assignment(value)
        return None

    @property
    def report_under_replicated_partitions(self) -> bool:
        return self.has(self.report_under_replicated_partitions_opt)

    @property
    def report_unavailable_partitions(self) -> bool:
        return self.has(self.report_unavailable_partitions_opt)

    @property
    def report_under_min_isr_partitions(self) -> bool:
        return self.has(self.report_under_min_isr_partitions_opt)

    @property
    def report_at_min_isr_partitions(self) -> bool:
        return self.has(self.report_at_min_isr_partitions_opt)

    @property
    def report_overridden_configs(self) -> bool:
        return self.has(self.topics_with_overrides_opt)

    @property
    def if_exists(self) -> bool:
        return self.has(self.if_exists_opt)

    @property
    def if_not_exists(self) -> bool:
        return self.has(self.if_not_exists_opt)

    @property
    def exclude_internal_topics(self) -> bool:
        return self.has(self.exclude_internal_topic_opt)

    @property
    def topic_config(self) -> list[str] | None:
        return self.options.values_of(self.config_opt) if self.has(self.config_opt) else None

    @property
    def configs_to_delete(self) -> list[str] | None:
        return self.options.values_of(self.delete_config_opt) if self.has(self.delete_config_opt) else None

    # -- checks ----------------------------------------------------------------------------------------------------

    def check_args(self) -> None:
        parser, options = self.parser, self.options
        if len(self.args) == 0:
            print_usage_and_die(parser, "Create, delete, describe, or change a topic.")
        if is_print_help_needed(self):
            print_usage_and_die(parser, "This tool helps to create, delete, describe, or change a topic.")
        if is_print_version_needed(self):
            return

        actions = sum(
            1
            for o in (self.create_opt, self.list_opt, self.alter_opt, self.describe_opt, self.delete_opt)
            if options.has(o)
        )
        if actions != 1:
            print_usage_and_die(
                parser, "Command must include exactly one action: --list, --describe, --create, --alter or --delete"
            )

        if not self.has(self.bootstrap_server_opt):
            raise IllegalArgumentException("--bootstrap-server must be specified")
        if self.has(self.describe_opt) and self.has(self.if_exists_opt):
            check_required_args(parser, options, self.topic_opt)
        if not self.has(self.list_opt) and not self.has(self.describe_opt):
            check_required_args(parser, options, self.topic_opt)
        if self.has(self.alter_opt):
            check_invalid_args_set(
                parser,
                options,
                [self.bootstrap_server_opt, self.config_opt],
                [self.alter_opt],
                self.KAFKA_CONFIGS_CAN_ALTER_TOPIC_CONFIGS_VIA_BOOTSTRAP_SERVER,
            )
            check_required_args(parser, options, self.partitions_opt)

        def all_topic_level_except(*kept: OptionSpec) -> list[OptionSpec]:
            return [o for o in self.all_topic_level_opts if o not in kept]

        def reports_except(report: OptionSpec) -> list[OptionSpec]:
            return [o for o in self.all_replication_report_opts if o is not report]

        check_invalid_args(parser, options, self.config_opt, all_topic_level_except(self.alter_opt, self.create_opt))
        check_invalid_args(
            parser,
            options,
            self.delete_config_opt,
            [*all_topic_level_except(self.alter_opt), self.bootstrap_server_opt],
        )
        check_invalid_args(
            parser, options, self.partitions_opt, all_topic_level_except(self.alter_opt, self.create_opt)
        )
        check_invalid_args(parser, options, self.replication_factor_opt, all_topic_level_except(self.create_opt))
        check_invalid_args(
            parser, options, self.replica_assignment_opt, all_topic_level_except(self.create_opt, self.alter_opt)
        )
        if options.has(self.create_opt):
            check_invalid_args(
                parser, options, self.replica_assignment_opt, [self.partitions_opt, self.replication_factor_opt]
            )
        for report in self.all_replication_report_opts:
            check_invalid_args(
                parser,
                options,
                report,
                [*all_topic_level_except(self.describe_opt), *reports_except(report), self.topics_with_overrides_opt],
            )
        check_invalid_args(
            parser,
            options,
            self.topics_with_overrides_opt,
            [*all_topic_level_except(self.describe_opt), *self.all_replication_report_opts],
        )
        check_invalid_args(
            parser,
            options,
            self.if_exists_opt,
            all_topic_level_except(self.alter_opt, self.delete_opt, self.describe_opt),
        )
        check_invalid_args(parser, options, self.if_not_exists_opt, all_topic_level_except(self.create_opt))
        check_invalid_args(
            parser, options, self.exclude_internal_topic_opt, all_topic_level_except(self.list_opt, self.describe_opt)
        )


# -- entry points -------------------------------------------------------------------------------------------------


def _print_exception(e: BaseException, out: TextIO) -> None:
    print(f"Error while executing topic command : {java_message(e)}", file=out)
    _logger.error(java_to_string(e))


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    opts: TopicCommandOptions | None = None
    topic_service: AdminClientTopicService | None = None

    def set_up() -> int:
        nonlocal opts, topic_service
        opts = TopicCommandOptions(args, out)
        opts.check_args()
        if print_version_if_needed(opts, out):
            return 0
        topic_service = AdminClientTopicService.create(opts.command_config(), opts.bootstrap_server, out, admin_factory)
        return 0

    status = run_reporting_errors(set_up, err, lambda: (opts or TopicCommandOptions([])).parser)
    if opts is None or topic_service is None:
        return status

    exit_code = 0
    try:
        if opts.has_create_option:
            topic_service.create_topic(opts)
        elif opts.has_alter_option:
            topic_service.alter_topic(opts)
        elif opts.has_list_option:
            topic_service.list_topics(opts)
        elif opts.has_describe_option:
            topic_service.describe_topic(opts)
        elif opts.has_delete_option:
            topic_service.delete_topic(opts)
    except ExecutionException as e:
        _print_exception(e.cause if e.cause is not None else e, out)
        exit_code = 1
    except BrokenPipeError:
        raise
    except Exception as e:
        _print_exception(e, out)
        exit_code = 1
    finally:
        topic_service.close()
    return exit_code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-topics.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
