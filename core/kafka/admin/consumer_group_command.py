"""Port of core/src/main/scala/kafka/admin/ConsumerGroupCommand.scala (Kafka 2.8).

`kafka-consumer-groups.sh --bootstrap-server HOST:PORT ACTION ...`: lists consumer groups (with their
states), describes them (partition offsets and lag, members, or state), deletes groups or some of their
committed offsets, and plans or executes offset resets (to the earliest, latest or current offset, a given
offset, the offset at a date-time or a duration ago, a shift of the current offset, or a CSV plan). The
options, their checks and messages, the help layout and the tables it prints are Kafka's, so that scripts
written against Kafka's tool read this one.

It talks to the cluster through the admin client (Admin.create, KafkaAdminClient); tests hand in a fake one
through `admin_factory`.

# PORT: Kafka prints a stack trace under "Error: Executing consumer group command failed due to ..." and when
the command line cannot be parsed (jopt-simple's exceptions escape Kafka's main); here the first line of
that trace (the exception as Java prints it) goes to stderr, and a command line jopt-simple refuses gets
its message and the help, with status 1, as Kafka's other option errors do. A failure to create the admin
client (a bad `--command-config`) prints `Exception in thread "main" ...` and its cause, status 1, as the
JVM does. A failed action ("Error: Executing consumer group command failed due to ...") ends with status 1,
where Kafka's ends with 0, so that scripts can tell; that is the rule of every tool in bin/. State names
given to `--state` are matched without regard to case, as Kafka 3.x does (2.8's own help shows
`stable,empty`, which 2.8 refused). The admin client is this project's port of Kafka 3.7's: its messages (a
timeout names the call, e.g. `describeGroups(api=FIND_COORDINATOR)`) are 3.7's. A partition it lists without a
committed offset (None) is described without one, as Kafka 3.x's command does, and `--shift-by` and
`--to-current` treat it as having none (where 3.x fails on the null). The partitions a member holds come in a
set; they are taken in java.util.HashSet's order, the order Kafka's command sees.
"""

from __future__ import annotations

import csv
import functools
import io
import logging
import os
import re
import sys
from abc import ABC
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, TextIO, TypeVar

from kafka.admin._tool_support import create_admin_client, java_hash_map_order
from kafka.clients.admin.abstract_options import AbstractOptions
from kafka.clients.admin.alter_consumer_group_offsets_options import AlterConsumerGroupOffsetsOptions
from kafka.clients.admin.consumer_group_description import ConsumerGroupDescription
from kafka.clients.admin.consumer_group_listing import ConsumerGroupListing
from kafka.clients.admin.delete_consumer_group_offsets_options import DeleteConsumerGroupOffsetsOptions
from kafka.clients.admin.delete_consumer_groups_options import DeleteConsumerGroupsOptions
from kafka.clients.admin.describe_consumer_groups_options import DescribeConsumerGroupsOptions
from kafka.clients.admin.describe_topics_options import DescribeTopicsOptions
from kafka.clients.admin.list_consumer_group_offsets_options import ListConsumerGroupOffsetsOptions
from kafka.clients.admin.list_consumer_groups_options import ListConsumerGroupsOptions
from kafka.clients.admin.list_offsets_options import ListOffsetsOptions
from kafka.clients.admin.list_offsets_result import ListOffsetsResultInfo
from kafka.clients.admin.offset_spec import OffsetSpec
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.consumer_group_state import ConsumerGroupState
from kafka.common.kafka_future import ExecutionException
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import SystemTime, Time
from kafka.common.utils.utils import IllegalArgumentException, java_to_string, load_props, parse_int
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    OptionException,
    OptionSpec,
    UsageException,
    check_invalid_args,
    check_required_args,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)

__all__ = [
    "MISSING_COLUMN_VALUE",
    "ConsumerGroupCommandOptions",
    "ConsumerGroupService",
    "GroupState",
    "LogOffsetResult",
    "MemberAssignmentState",
    "PartitionAssignmentState",
    "consumer_group_states_from_string",
    "main",
    "run",
    "run_command",
]

MISSING_COLUMN_VALUE = "-"
DESCRIPTION = (
    "This tool helps to list all consumer groups, describe a consumer group, delete consumer group info, or reset "
    "consumer group offsets."
)
UNKNOWN_OFFSET = -1  # ListOffsetsResponse.UNKNOWN_OFFSET

# The Scala object's logger: `ConsumerGroupCommand extends Logging`.
_logger = logging.getLogger("kafka.admin.ConsumerGroupCommand$")

AdminFactory = Callable[[dict[str, str]], Any]
OptionsT = TypeVar("OptionsT", bound=AbstractOptions)


class ParseException(Exception):
    """java.text.ParseException: a date-time that does not follow the expected format."""

    JAVA_CLASS_NAME = "java.text.ParseException"


class DateTimeParseException(Exception):
    """java.time.format.DateTimeParseException: a duration that does not follow ISO-8601."""

    JAVA_CLASS_NAME = "java.time.format.DateTimeParseException"


class NoSuchFileException(Exception):
    """java.nio.file.NoSuchFileException: its message is the path."""

    JAVA_CLASS_NAME = "java.nio.file.NoSuchFileException"


def consumer_group_states_from_string(value: str) -> set[ConsumerGroupState]:
    """The states named in a comma-separated list; IllegalArgumentException naming the valid ones otherwise."""
    by_name = {s.value.upper(): s for s in ConsumerGroupState}
    parsed = {by_name.get(s.strip().upper(), ConsumerGroupState.UNKNOWN) for s in value.split(",")}
    if ConsumerGroupState.UNKNOWN in parsed:
        valid = ", ".join(str(s) for s in ConsumerGroupState if s is not ConsumerGroupState.UNKNOWN)
        raise IllegalArgumentException(f"Invalid state list '{value}'. Valid states are: {valid}")
    return parsed


def print_error(msg: str, e: BaseException | None = None, out: TextIO | None = None, err: TextIO | None = None) -> None:
    """`\\nError: msg` on stdout; the exception as the first line of Java's stack trace on stderr."""
    print(f"\nError: {msg}", file=out or sys.stdout)
    if e is not None:
        print(java_to_string(e), file=err or sys.stderr)


def print_offsets_to_reset(
    group_assignments_to_reset: Mapping[str, Mapping[TopicPartition, OffsetAndMetadata]], out: TextIO
) -> None:
    if group_assignments_to_reset:
        print(f"\n{'GROUP':<30} {'TOPIC':<30} {'PARTITION':<10} {'NEW-OFFSET':<15}", file=out)
    for group_id, assignment in group_assignments_to_reset.items():
        for tp, offset_and_metadata in assignment.items():
            offset = offset_and_metadata.offset
            print(f"{group_id:<30} {tp.topic:<30} {tp.partition!s:<10} {offset!s:<15}", file=out)


@dataclass(frozen=True, slots=True)
class PartitionAssignmentState:
    group: str
    coordinator: Node | None
    topic: str | None
    partition: int | None
    offset: int | None
    lag: int | None
    consumer_id: str | None
    host: str | None
    client_id: str | None
    log_end_offset: int | None


@dataclass(frozen=True, slots=True)
class MemberAssignmentState:
    group: str
    consumer_id: str
    host: str
    client_id: str
    group_instance_id: str
    num_partitions: int
    assignment: list[TopicPartition]


@dataclass(frozen=True, slots=True)
class GroupState:
    group: str
    coordinator: Node
    assignment_strategy: str
    state: str
    num_members: int


class LogOffsetResult(ABC):  # noqa: B024 -- a sealed trait: its cases are the dataclasses below
    """What a ListOffsets lookup found for one partition."""


@dataclass(frozen=True, slots=True)
class LogOffset(LogOffsetResult):
    value: int


@dataclass(frozen=True, slots=True)
class Unknown(LogOffsetResult):
    pass


@dataclass(frozen=True, slots=True)
class Ignore(LogOffsetResult):
    pass


def _format_row(values: Sequence[str], widths: Sequence[int]) -> str:
    """The values left-justified to their widths (0: as is), separated by a space, as Scala's `%-Ns` formats."""
    return " ".join(value.ljust(width) for value, width in zip(values, widths))


def _show(value: object | None) -> str:
    """A column value, `-` when there is none."""
    return MISSING_COLUMN_VALUE if value is None else str(value)


class ConsumerGroupService:
    """Carries out one action of the command with an admin client; prints to `out` and `err`."""

    def __init__(
        self,
        opts: ConsumerGroupCommandOptions,
        config_overrides: Mapping[str, str] | None = None,
        out: TextIO | None = None,
        err: TextIO | None = None,
        admin_factory: AdminFactory | None = None,
        time: Time | None = None,
    ) -> None:
        self.opts = opts
        self.config_overrides = dict(config_overrides or {})
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self._time = time or SystemTime()
        self._reset_plan_from_file: dict[str, dict[TopicPartition, OffsetAndMetadata]] | None = None
        self._reset_plan_loaded = False
        self.admin_client = self._create_admin_client(admin_factory)

    # -- output helpers --------------------------------------------------------------------------------------

    def _println(self, line: str = "") -> None:
        print(line, file=self.out)

    def _print(self, text: str) -> None:
        print(text, end="", file=self.out)

    def _print_error(self, msg: str, e: BaseException | None = None) -> None:
        print_error(msg, e, self.out, self.err)

    # -- list ------------------------------------------------------------------------------------------------

    def list_groups(self) -> None:
        options = self.opts.options
        if options.has(self.opts.state_opt):
            state_value = options.value_of(self.opts.state_opt)
            states = set() if not state_value else consumer_group_states_from_string(state_value)
            listings = self.list_consumer_groups_with_state(states)
            self._print_group_states([(listing.group_id, _listing_state(listing)) for listing in listings])
        else:
            for group_id in self.list_consumer_groups():
                self._println(group_id)

    def list_consumer_groups(self) -> list[str]:
        result = self.admin_client.list_consumer_groups(self._with_timeout_ms(ListConsumerGroupsOptions()))
        return [listing.group_id for listing in result.all().get()]

    def list_consumer_groups_with_state(self, states: set[ConsumerGroupState]) -> list[ConsumerGroupListing]:
        list_consumer_groups_options = self._with_timeout_ms(ListConsumerGroupsOptions())
        list_consumer_groups_options.in_states(states)
        result = self.admin_client.list_consumer_groups(list_consumer_groups_options)
        return list(result.all().get())

    def _print_group_states(self, groups_and_states: list[tuple[str, str]]) -> None:
        max_group_len = 15
        for group_id, _ in groups_and_states:
            max_group_len = max(max_group_len, len(group_id))
        self._println(f"{'GROUP':<{max_group_len}} STATE")
        for group_id, state in groups_and_states:
            self._println(f"{group_id:<{max_group_len}} {state}")

    # -- describe --------------------------------------------------------------------------------------------

    def _should_print_member_state(self, group: str, state: str | None, num_rows: int | None) -> bool:
        """Prints what a state means for the tables (no such group, no members, rebalancing) and tells
        whether there are rows to print."""
        if num_rows is None:
            self._print_error(f"The consumer group '{group}' does not exist.")
            return False
        if state == "Dead":
            self._print_error(f"Consumer group '{group}' does not exist.")
        elif state == "Empty":
            print(f"\nConsumer group '{group}' has no active members.", file=self.err)
        elif state in ("PreparingRebalance", "CompletingRebalance"):
            print(f"\nWarning: Consumer group '{group}' is rebalancing.", file=self.err)
        elif state != "Stable":
            raise RuntimeError(f"Expected a valid consumer group state, but found '{state or 'NONE'}'.")
        return state != "Dead" and num_rows > 0

    def _print_offsets(self, offsets: Mapping[str, tuple[str | None, list[PartitionAssignmentState] | None]]) -> None:
        for group_id, (state, assignments) in offsets.items():
            if not self._should_print_member_state(group_id, state, None if assignments is None else len(assignments)):
                continue
            rows = assignments or []
            max_group_len, max_topic_len, max_consumer_id_len, max_host_len = 15, 15, 15, 15
            for a in rows:
                max_group_len = max(max_group_len, len(a.group))
                max_topic_len = max(max_topic_len, len(_show(a.topic)))
                max_consumer_id_len = max(max_consumer_id_len, len(_show(a.consumer_id)))
                max_host_len = max(max_host_len, len(_show(a.host)))

            widths = (max_group_len, max_topic_len, 10, 15, 15, 15, max_consumer_id_len, max_host_len, 0)
            header = ("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST")
            self._println("\n" + _format_row((*header, "CLIENT-ID"), widths))
            for a in rows:
                values = (a.topic, a.partition, a.offset, a.log_end_offset, a.lag, a.consumer_id, a.host, a.client_id)
                self._println(_format_row((a.group, *(_show(v) for v in values)), widths))

    def _print_members(
        self, members: Mapping[str, tuple[str | None, list[MemberAssignmentState] | None]], verbose: bool
    ) -> None:
        for group_id, (state, assignments) in members.items():
            if not self._should_print_member_state(group_id, state, None if assignments is None else len(assignments)):
                continue
            rows = assignments or []
            max_group_len, max_consumer_id_len, max_group_instance_id_len = 15, 15, 17
            max_host_len, max_client_id_len, include_group_instance_id = 15, 15, False
            for m in rows:
                max_group_len = max(max_group_len, len(m.group))
                max_consumer_id_len = max(max_consumer_id_len, len(m.consumer_id))
                max_group_instance_id_len = max(max_group_instance_id_len, len(m.group_instance_id))
                max_host_len = max(max_host_len, len(m.host))
                max_client_id_len = max(max_client_id_len, len(m.client_id))
                include_group_instance_id = include_group_instance_id or len(m.group_instance_id) > 0

            widths = [
                max_group_len,
                max_consumer_id_len,
                max_group_instance_id_len,
                max_host_len,
                max_client_id_len,
                15,
            ]
            if not include_group_instance_id:
                del widths[2]

            columns = functools.partial(_member_columns, include_group_instance_id)

            header = columns("GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS")
            self._println("\n" + _format_row(header, widths) + " " + ("ASSIGNMENT" if verbose else ""))
            for m in rows:
                values = columns(
                    m.group, m.consumer_id, m.group_instance_id, m.host, m.client_id, str(m.num_partitions)
                )
                text = _format_row(values, widths) + " "
                if verbose:
                    if not m.assignment:
                        text += MISSING_COLUMN_VALUE
                    else:
                        by_topic: dict[str, list[int]] = {}
                        for tp in m.assignment:
                            by_topic.setdefault(tp.topic, []).append(tp.partition)
                        text += ", ".join(
                            sorted(
                                topic + "(" + ",".join(str(p) for p in sorted(parts)) + ")"
                                for topic, parts in by_topic.items()
                            )
                        )
                self._println(text)

    def _print_states(self, states: Mapping[str, GroupState]) -> None:
        for group_id, state in states.items():
            if not self._should_print_member_state(group_id, state.state, 1):
                continue
            coordinator = f"{state.coordinator.host}:{state.coordinator.port} ({state.coordinator.id_string})"

            widths = (max(25, len(coordinator)), 25, 20, 15, 0)
            header = ("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS")
            values = (state.group, coordinator, state.assignment_strategy, state.state, str(state.num_members))
            self._print("\n" + _format_row(header, widths))
            self._print("\n" + _format_row(values, widths))
            self._println()

    def describe_groups(self) -> None:
        options = self.opts.options
        group_ids = (
            self.list_consumer_groups()
            if options.has(self.opts.all_groups_opt)
            else options.values_of(self.opts.group_opt)
        )
        members_opt_present = options.has(self.opts.members_opt)
        state_opt_present = options.has(self.opts.state_opt)
        offsets_opt_present = options.has(self.opts.offsets_opt)
        sub_actions = sum((members_opt_present, offsets_opt_present, state_opt_present))
        if sub_actions == 0 or offsets_opt_present:
            self._print_offsets(self.collect_groups_offsets(group_ids))
        elif members_opt_present:
            verbose = options.has(self.opts.verbose_opt)
            self._print_members(self.collect_groups_members(group_ids, verbose), verbose)
        else:
            self._print_states(self.collect_groups_state(group_ids))

    def _collect_consumer_assignment(
        self,
        group: str,
        coordinator: Node | None,
        topic_partitions: Sequence[TopicPartition],
        get_partition_offset: Callable[[TopicPartition], int | None],
        consumer_id: str | None,
        host: str | None,
        client_id: str | None,
    ) -> list[PartitionAssignmentState]:
        if not topic_partitions:
            return [
                PartitionAssignmentState(
                    group, coordinator, None, None, None, _get_lag(None, None), consumer_id, host, client_id, None
                )
            ]
        return self._describe_partitions(
            group,
            coordinator,
            sorted(topic_partitions, key=lambda tp: tp.partition),
            get_partition_offset,
            consumer_id,
            host,
            client_id,
        )

    def _describe_partitions(
        self,
        group: str,
        coordinator: Node | None,
        topic_partitions: Sequence[TopicPartition],
        get_partition_offset: Callable[[TopicPartition], int | None],
        consumer_id: str | None,
        host: str | None,
        client_id: str | None,
    ) -> list[PartitionAssignmentState]:
        rows = []
        for tp, result in self._get_log_end_offsets(group, topic_partitions).items():
            if isinstance(result, Ignore):
                continue
            log_end_offset = result.value if isinstance(result, LogOffset) else None
            offset = get_partition_offset(tp)
            rows.append(
                PartitionAssignmentState(
                    group,
                    coordinator,
                    tp.topic,
                    tp.partition,
                    offset,
                    _get_lag(offset, log_end_offset),
                    consumer_id,
                    host,
                    client_id,
                    log_end_offset,
                )
            )
        return rows

    def describe_consumer_groups(self, group_ids: Iterable[str]) -> dict[str, ConsumerGroupDescription]:
        described = self.admin_client.describe_consumer_groups(
            list(group_ids), self._with_timeout_ms(DescribeConsumerGroupsOptions())
        ).described_groups()
        return {group_id: future.get() for group_id, future in described.items()}

    def collect_group_offsets(self, group_id: str) -> tuple[str | None, list[PartitionAssignmentState] | None]:
        """The state of one group and the rows of its offsets table."""
        return self.collect_groups_offsets([group_id]).get(group_id, (None, None))

    def collect_groups_offsets(
        self, group_ids: Iterable[str]
    ) -> dict[str, tuple[str | None, list[PartitionAssignmentState] | None]]:
        """Per group (sorted by id): its state and the rows of its offsets table, assigned partitions first."""
        consumer_groups = self.describe_consumer_groups(group_ids)
        group_offsets: dict[str, tuple[str | None, list[PartitionAssignmentState] | None]] = {}
        for group_id, consumer_group in consumer_groups.items():
            state = consumer_group.state
            committed_offsets = self._get_committed_offsets(group_id)
            assigned: set[TopicPartition] = set()
            members = sorted(
                (m for m in consumer_group.members if m.assignment.topic_partitions),
                key=lambda m: len(m.assignment.topic_partitions),
                reverse=True,
            )
            rows_with_consumer: list[PartitionAssignmentState] = []
            for member in members:
                topic_partitions = _hash_set_order(member.assignment.topic_partitions)
                assigned.update(topic_partitions)
                rows_with_consumer += self._collect_consumer_assignment(
                    group_id,
                    consumer_group.coordinator,
                    topic_partitions,
                    functools.partial(_committed_offset, committed_offsets),
                    member.consumer_id,
                    member.host,
                    member.client_id,
                )
            rows_without_consumer: list[PartitionAssignmentState] = []
            for tp in sorted(committed_offsets):
                if tp in assigned:
                    continue
                rows_without_consumer += self._collect_consumer_assignment(
                    group_id,
                    consumer_group.coordinator,
                    [tp],
                    functools.partial(_committed_offset, committed_offsets),
                    MISSING_COLUMN_VALUE,
                    MISSING_COLUMN_VALUE,
                    MISSING_COLUMN_VALUE,
                )
            group_offsets[group_id] = (str(state), rows_with_consumer + rows_without_consumer)
        return dict(sorted(group_offsets.items()))

    def collect_group_members(
        self, group_id: str, verbose: bool
    ) -> tuple[str | None, list[MemberAssignmentState] | None]:
        return self.collect_groups_members([group_id], verbose)[group_id]

    def collect_groups_members(
        self, group_ids: Iterable[str], verbose: bool
    ) -> dict[str, tuple[str | None, list[MemberAssignmentState] | None]]:
        consumer_groups = self.describe_consumer_groups(group_ids)
        result: dict[str, tuple[str | None, list[MemberAssignmentState] | None]] = {}
        for group_id, consumer_group in consumer_groups.items():
            states = [
                MemberAssignmentState(
                    group_id,
                    m.consumer_id,
                    m.host,
                    m.client_id,
                    m.group_instance_id or "",
                    len(m.assignment.topic_partitions),
                    _hash_set_order(m.assignment.topic_partitions) if verbose else [],
                )
                for m in consumer_group.members
            ]
            result[group_id] = (str(consumer_group.state), states)
        return dict(sorted(result.items()))

    def collect_group_state(self, group_id: str) -> GroupState:
        return self.collect_groups_state([group_id])[group_id]

    def collect_groups_state(self, group_ids: Iterable[str]) -> dict[str, GroupState]:
        consumer_groups = self.describe_consumer_groups(group_ids)
        result = {
            group_id: GroupState(
                group_id,
                _coordinator(description),
                description.partition_assignor,
                str(description.state),
                len(description.members),
            )
            for group_id, description in consumer_groups.items()
        }
        return dict(sorted(result.items()))

    # -- offsets of the logs ---------------------------------------------------------------------------------

    def _list_offsets(
        self, topic_partitions: Iterable[TopicPartition], spec: OffsetSpec
    ) -> dict[TopicPartition, ListOffsetsResultInfo]:
        result = self.admin_client.list_offsets(
            {tp: spec for tp in topic_partitions}, self._with_timeout_ms(ListOffsetsOptions())
        )
        return dict(result.all().get())

    def _get_log_end_offsets(
        self, group_id: str, topic_partitions: Sequence[TopicPartition]
    ) -> dict[TopicPartition, LogOffsetResult]:
        offsets = self._list_offsets(topic_partitions, OffsetSpec.latest())
        return {tp: LogOffset(offsets[tp].offset) if tp in offsets else Unknown() for tp in topic_partitions}

    def _get_log_start_offsets(
        self, group_id: str, topic_partitions: Sequence[TopicPartition]
    ) -> dict[TopicPartition, LogOffsetResult]:
        offsets = self._list_offsets(topic_partitions, OffsetSpec.earliest())
        return {tp: LogOffset(offsets[tp].offset) if tp in offsets else Unknown() for tp in topic_partitions}

    def _get_log_timestamp_offsets(
        self, group_id: str, topic_partitions: Sequence[TopicPartition], timestamp: int
    ) -> dict[TopicPartition, LogOffsetResult]:
        offsets = self._list_offsets(topic_partitions, OffsetSpec.for_timestamp(timestamp))
        found: dict[TopicPartition, LogOffsetResult] = {}
        not_found = []
        for tp, info in offsets.items():
            if info.offset != UNKNOWN_OFFSET:
                found[tp] = LogOffset(info.offset)
            else:
                not_found.append(tp)
        # No record at or after the time: the log end, where the next record will be.
        return {**found, **self._get_log_end_offsets(group_id, not_found)} if not_found else found

    # -- reset -----------------------------------------------------------------------------------------------

    def reset_offsets(self) -> dict[str, dict[TopicPartition, OffsetAndMetadata]]:
        options = self.opts.options
        group_ids = (
            self.list_consumer_groups()
            if options.has(self.opts.all_groups_opt)
            else options.values_of(self.opts.group_opt)
        )
        consumer_groups = self.admin_client.describe_consumer_groups(
            list(group_ids), self._with_timeout_ms(DescribeConsumerGroupsOptions())
        ).described_groups()
        result: dict[str, dict[TopicPartition, OffsetAndMetadata]] = {}
        # Kafka's command walks the futures' java.util.HashMap.
        for group_id in java_hash_map_order(consumer_groups):
            description = consumer_groups[group_id]
            state = str(description.get().state)
            if state in ("Empty", "Dead"):
                partitions_to_reset = self._get_partitions_to_reset(group_id)
                prepared_offsets = self._prepare_offsets_to_reset(group_id, partitions_to_reset)
                # A dry run unless --execute is given.
                dry_run = options.has(self.opts.dry_run_opt) or not options.has(self.opts.execute_opt)
                if not dry_run:
                    self.admin_client.alter_consumer_group_offsets(
                        group_id, prepared_offsets, self._with_timeout_ms(AlterConsumerGroupOffsetsOptions())
                    ).all().get()
                result[group_id] = prepared_offsets
            else:
                self._print_error(
                    f"Assignments can only be reset if the group '{group_id}' is inactive, but the current state "
                    f"is {state}."
                )
                result[group_id] = {}
        return result

    def _parse_topic_partitions_to_reset(self, topic_args: Iterable[str]) -> list[TopicPartition]:
        partitions: list[TopicPartition] = []
        for topic_arg in topic_args:
            if ":" in topic_arg:
                topic, _, partition_list = topic_arg.partition(":")
                partitions += [TopicPartition(topic, parse_int(p)) for p in partition_list.split(",")]
            else:
                description_map = (
                    self.admin_client.describe_topics([topic_arg], self._with_timeout_ms(DescribeTopicsOptions()))
                    .all()
                    .get()
                )
                for name, description in description_map.items():
                    partitions += [TopicPartition(name, info.partition) for info in description.partitions]
        return partitions

    def _get_partitions_to_reset(self, group_id: str) -> list[TopicPartition]:
        options = self.opts.options
        if options.has(self.opts.all_topics_opt):
            return sorted(self._get_committed_offsets(group_id))
        if options.has(self.opts.topic_opt):
            return self._parse_topic_partitions_to_reset(options.values_of(self.opts.topic_opt))
        if options.has(self.opts.reset_from_file_opt):
            return []
        print_usage_and_die(self.opts.parser, "One of the reset scopes should be defined: --all-topics, --topic.")
        raise AssertionError("unreachable")

    def _get_committed_offsets(self, group_id: str) -> dict[TopicPartition, OffsetAndMetadata | None]:
        """The group's committed offsets; None for a partition the client lists without one."""
        return dict(
            self.admin_client.list_consumer_group_offsets(
                group_id, self._with_timeout_ms(ListConsumerGroupOffsetsOptions())
            )
            .partitions_to_offset_and_metadata()
            .get()
        )

    def _reset_plan(self) -> dict[str, dict[TopicPartition, OffsetAndMetadata]] | None:
        """The plan of `--from-file`, read once."""
        if not self._reset_plan_loaded:
            self._reset_plan_loaded = True
            if self.opts.options.has(self.opts.reset_from_file_opt):
                path = self.opts.options.value_of(self.opts.reset_from_file_opt)
                try:
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                except FileNotFoundError:
                    raise NoSuchFileException(path) from None
                self._reset_plan_from_file = self._parse_reset_plan(text)
        return self._reset_plan_from_file

    def _parse_reset_plan(self, reset_plan_csv: str) -> dict[str, dict[TopicPartition, OffsetAndMetadata]]:
        lines = reset_plan_csv.split("\n")
        while lines and lines[-1] == "":
            lines.pop()  # Java's String.split drops trailing empty strings
        rows = [next(csv.reader([line])) if line else [] for line in lines]
        group_values = self.opts.options.values_of(self.opts.group_opt)
        is_single_group_query = len(group_values) == 1
        is_old_csv_format = bool(rows) and _is_csv_record_no_group(rows[0])
        plan: dict[str, dict[TopicPartition, OffsetAndMetadata]] = {}
        for row in rows:
            if is_single_group_query and is_old_csv_format:
                # Single group format: topic,partition,offset
                if not _is_csv_record_no_group(row):
                    raise ValueError(f"Unexpected row in the reset plan: {','.join(row)}")
                group, (topic, partition, offset) = group_values[0], row
            else:
                # Several groups: group,topic,partition,offset
                if len(row) != 4 or not _is_int(row[2]) or not _is_int(row[3]):
                    raise ValueError(f"Unexpected row in the reset plan: {','.join(row)}")
                group, topic, partition, offset = row
            plan.setdefault(group, {})[TopicPartition(topic, int(partition))] = OffsetAndMetadata(int(offset))
        return plan

    def _prepare_offsets_to_reset(
        self, group_id: str, partitions_to_reset: Sequence[TopicPartition]
    ) -> dict[TopicPartition, OffsetAndMetadata]:
        options = self.opts.options
        o = self.opts
        if options.has(o.reset_to_offset_opt):
            offset = options.value_of(o.reset_to_offset_opt)
            checked = self._check_offsets_range(group_id, dict.fromkeys(partitions_to_reset, offset))
            return {tp: OffsetAndMetadata(new_offset) for tp, new_offset in checked.items()}
        if options.has(o.reset_to_earliest_opt):
            log_start_offsets = self._get_log_start_offsets(group_id, partitions_to_reset)
            return self._offsets_or_die(
                partitions_to_reset, log_start_offsets, "Error getting starting offset of topic partition: "
            )
        if options.has(o.reset_to_latest_opt):
            log_end_offsets = self._get_log_end_offsets(group_id, partitions_to_reset)
            return self._offsets_or_die(
                partitions_to_reset, log_end_offsets, "Error getting ending offset of topic partition: "
            )
        if options.has(o.reset_shift_by_opt):
            current_committed_offsets = self._get_committed_offsets(group_id)
            shift_by = options.value_of(o.reset_shift_by_opt)
            requested: dict[TopicPartition, int] = {}
            for tp in partitions_to_reset:
                current = current_committed_offsets.get(tp)
                if current is None:
                    raise IllegalArgumentException(
                        f"Cannot shift offset for partition {tp} since there is no current committed offset"
                    )
                requested[tp] = current.offset + shift_by
            checked = self._check_offsets_range(group_id, requested)
            return {tp: OffsetAndMetadata(new_offset) for tp, new_offset in checked.items()}
        if options.has(o.reset_to_datetime_opt):
            timestamp = get_date_time(options.value_of(o.reset_to_datetime_opt))
            log_timestamp_offsets = self._get_log_timestamp_offsets(group_id, partitions_to_reset, timestamp)
            return self._offsets_or_die(
                partitions_to_reset, log_timestamp_offsets, "Error getting offset by timestamp of topic partition: "
            )
        if options.has(o.reset_by_duration_opt):
            duration_nanos = parse_duration(options.value_of(o.reset_by_duration_opt))
            now_nanos = self._time.milliseconds() * 1_000_000
            timestamp = (now_nanos - duration_nanos) // 1_000_000
            log_timestamp_offsets = self._get_log_timestamp_offsets(group_id, partitions_to_reset, timestamp)
            return self._offsets_or_die(
                partitions_to_reset, log_timestamp_offsets, "Error getting offset by timestamp of topic partition: "
            )
        reset_plan = self._reset_plan()
        if reset_plan is not None:
            plan_for_group = reset_plan.get(group_id)
            if plan_for_group is None:
                self._print_error(f"No reset plan for group {group_id} found")
                return {}
            requested = {tp: oam.offset for tp, oam in plan_for_group.items()}
            checked = self._check_offsets_range(group_id, requested)
            return {tp: OffsetAndMetadata(new_offset) for tp, new_offset in checked.items()}
        if options.has(o.reset_to_current_opt):
            current_committed_offsets = self._get_committed_offsets(group_id)
            current_offsets = {tp: oam.offset for tp, oam in current_committed_offsets.items() if oam is not None}
            with_committed = [tp for tp in partitions_to_reset if tp in current_offsets]
            without_committed = [tp for tp in partitions_to_reset if tp not in current_offsets]
            prepared = {tp: OffsetAndMetadata(current_offsets[tp]) for tp in with_committed}
            if without_committed:
                log_end_offsets = self._get_log_end_offsets(group_id, without_committed)
                prepared.update(
                    self._offsets_or_die(
                        without_committed, log_end_offsets, "Error getting ending offset of topic partition: "
                    )
                )
            return prepared
        scenarios = ", ".join(str(s) for s in o.all_reset_offset_scenario_opts)
        # Scala 2.13 prints a set of more than four elements as HashSet(...).
        print_usage_and_die(
            o.parser, f"Option '{o.reset_offsets_opt}' requires one of the following scenarios: HashSet({scenarios})"
        )
        raise AssertionError("unreachable")

    def _offsets_or_die(
        self, partitions: Sequence[TopicPartition], results: Mapping[TopicPartition, LogOffsetResult], message: str
    ) -> dict[TopicPartition, OffsetAndMetadata]:
        prepared = {}
        for tp in partitions:
            result = results.get(tp)
            if not isinstance(result, LogOffset):
                print_usage_and_die(self.opts.parser, f"{message}{tp}")
                raise AssertionError("unreachable")
            prepared[tp] = OffsetAndMetadata(result.value)
        return prepared

    def _check_offsets_range(
        self, group_id: str, requested_offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, int]:
        """Each requested offset, moved into the log's range with a warning when it lies outside it."""
        partitions = list(requested_offsets)
        log_start_offsets = self._get_log_start_offsets(group_id, partitions)
        log_end_offsets = self._get_log_end_offsets(group_id, partitions)
        checked = {}
        for tp, offset in requested_offsets.items():
            end = log_end_offsets.get(tp)
            if end is None:
                raise RuntimeError(f"Unexpected non-existing offset value for topic partition {tp}")
            if isinstance(end, LogOffset) and offset > end.value:
                _logger.warning(
                    f"New offset ({offset}) is higher than latest offset for topic partition {tp}. "
                    f"Value will be set to {end.value}"
                )
                checked[tp] = end.value
                continue
            start = log_start_offsets.get(tp)
            if isinstance(start, LogOffset) and offset < start.value:
                _logger.warning(
                    f"New offset ({offset}) is lower than earliest offset for topic partition {tp}. "
                    f"Value will be set to {start.value}"
                )
                checked[tp] = start.value
                continue
            checked[tp] = offset
        return checked

    def export_offsets_to_csv(self, assignments: Mapping[str, Mapping[TopicPartition, OffsetAndMetadata]]) -> str:
        is_single_group_query = len(self.opts.options.values_of(self.opts.group_opt)) == 1
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        for group_id, partition_info in assignments.items():
            for tp, oam in partition_info.items():
                if is_single_group_query:
                    writer.writerow([tp.topic, tp.partition, oam.offset])
                else:
                    writer.writerow([group_id, tp.topic, tp.partition, oam.offset])
        return buffer.getvalue()

    # -- delete ----------------------------------------------------------------------------------------------

    def delete_groups(self) -> dict[str, BaseException | None]:
        options = self.opts.options
        group_ids = (
            self.list_consumer_groups()
            if options.has(self.opts.all_groups_opt)
            else options.values_of(self.opts.group_opt)
        )
        groups_to_delete = self.admin_client.delete_consumer_groups(
            list(group_ids), self._with_timeout_ms(DeleteConsumerGroupsOptions())
        ).deleted_groups()
        result: dict[str, BaseException | None] = {}
        for group_id in dict.fromkeys(group_ids):
            future = groups_to_delete[group_id]
            try:
                future.get()
                result[group_id] = None
            except ExecutionException as e:
                result[group_id] = e
        success = [g for g, e in result.items() if e is None]
        failed = {g: e for g, e in result.items() if e is not None}
        if not failed:
            self._println(f"Deletion of requested consumer groups ({_quoted(success)}) was successful.")
        else:
            self._print_error("Deletion of some consumer groups failed:")
            for group_id, error in failed.items():
                self._println(f"* Group '{group_id}' could not be deleted due to: {java_to_string(error)}")
            if success:
                self._println(f"\nThese consumer groups were deleted successfully: {_quoted(success)}")
        return result

    def delete_offsets_of(
        self, group_id: str, topics: list[str]
    ) -> tuple[Errors, dict[TopicPartition, BaseException | None]]:
        """Deletes the committed offsets of the topics (`topic` or `topic:0,1`) for the group; returns the
        group-level error and each partition's failure (None when deleted)."""
        partition_level_result: dict[TopicPartition, BaseException | None] = {}
        topic_with_partitions = [t for t in topics if ":" in t]
        topic_without_partitions = [t for t in topics if ":" not in t]
        known_partitions = []
        for topic_arg in topic_with_partitions:
            topic, _, partition_list = topic_arg.partition(":")
            known_partitions += [TopicPartition(topic, parse_int(p)) for p in partition_list.split(",")]
        unknown_partitions = []
        described = self.admin_client.describe_topics(
            topic_without_partitions, self._with_timeout_ms(DescribeTopicsOptions())
        ).topic_name_values()
        for topic, future in (described or {}).items():
            try:
                unknown_partitions += [TopicPartition(topic, info.partition) for info in future.get().partitions]
            except ExecutionException as e:
                partition_level_result[TopicPartition(topic, -1)] = e
        partitions = list(dict.fromkeys(known_partitions + unknown_partitions))
        delete_result = self.admin_client.delete_consumer_group_offsets(
            group_id, set(partitions), self._with_timeout_ms(DeleteConsumerGroupOffsetsOptions())
        )
        top_level_exception = Errors.NONE
        try:
            delete_result.all().get()
        except ExecutionException as e:
            top_level_exception = Errors.for_exception(e.cause)
        for tp in partitions:
            try:
                delete_result.partition_result(tp).get()
                partition_level_result[tp] = None
            except ExecutionException as e:
                partition_level_result[tp] = e
        return top_level_exception, partition_level_result

    def delete_offsets(self) -> None:
        group_id = self.opts.options.value_of(self.opts.group_opt)
        topics = list(self.opts.options.values_of(self.opts.topic_opt))
        top_level_result, partition_level_result = self.delete_offsets_of(group_id, topics)
        match top_level_result:
            case Errors.NONE:
                self._println(f"Request succeed for deleting offsets with topic {', '.join(topics)} group {group_id}")
            case Errors.INVALID_GROUP_ID:
                self._print_error(f"'{group_id}' is not valid.")
            case Errors.GROUP_ID_NOT_FOUND:
                self._print_error(f"'{group_id}' does not exist.")
            case Errors.GROUP_AUTHORIZATION_FAILED:
                self._print_error(f"Access to '{group_id}' is not authorized.")
            case Errors.NON_EMPTY_GROUP:
                self._print_error(
                    f"Deleting offsets of a consumer group '{group_id}' is forbidden if the group is not empty."
                )
            case (
                Errors.GROUP_SUBSCRIBED_TO_TOPIC | Errors.TOPIC_AUTHORIZATION_FAILED | Errors.UNKNOWN_TOPIC_OR_PARTITION
            ):
                self._print_error("Encounter some partition level error, see the follow-up details:")
            case _:
                self._print_error(f"Encounter some unknown error: {top_level_result.name}")
        self._println(f"\n{'TOPIC':<30} {'PARTITION':<15} {'STATUS':<15}")
        by_name = sorted(partition_level_result.items(), key=lambda item: item[0].topic + str(item[0].partition))
        for tp, error in by_name:
            partition = str(tp.partition) if tp.partition >= 0 else "Not Provided"
            status = f"Error: {error}" if error is not None else "Successful"
            self._println(f"{tp.topic:<30} {partition:<15} {status:<15}")

    # -- the admin client ------------------------------------------------------------------------------------

    def close(self) -> None:
        self.admin_client.close()

    def _with_timeout_ms(self, options: OptionsT) -> OptionsT:
        """The options with the call's timeout: --timeout."""
        options.timeout_ms(int(self.opts.options.value_of(self.opts.timeout_ms_opt)))
        return options

    def _create_admin_client(self, admin_factory: AdminFactory | None) -> Any:
        options = self.opts.options
        props = (
            load_props(options.value_of(self.opts.command_config_opt))
            if options.has(self.opts.command_config_opt)
            else {}
        )
        props["bootstrap.servers"] = options.value_of(self.opts.bootstrap_server_opt)
        props.update(self.config_overrides)
        return create_admin_client(props, admin_factory)


def _hash_set_order(topic_partitions: Iterable[TopicPartition]) -> list[TopicPartition]:
    """The partitions as a java.util.HashSet copied from them iterates them (MemberAssignment holds one)."""
    partitions = sorted(topic_partitions, key=lambda tp: (tp.topic, tp.partition))
    return java_hash_map_order(partitions, max(int(len(partitions) / 0.75) + 1, 16))


def _coordinator(description: ConsumerGroupDescription) -> Node:
    if description.coordinator is None:
        raise RuntimeError(f"The coordinator of group {description.group_id} is not known")
    return description.coordinator


def _listing_state(listing: ConsumerGroupListing) -> str:
    if listing.state is None:
        raise RuntimeError("No value present")  # Java's Optional.get on a broker that sent no state
    return str(listing.state)


def _member_columns(include_group_instance_id: bool, *values: str) -> list[str]:
    """The members table's columns; GROUP-INSTANCE-ID (the third) only when some member has one."""
    return list(values) if include_group_instance_id else [v for i, v in enumerate(values) if i != 2]


def _committed_offset(committed: Mapping[TopicPartition, OffsetAndMetadata | None], tp: TopicPartition) -> int | None:
    offset_and_metadata = committed.get(tp)
    return None if offset_and_metadata is None else offset_and_metadata.offset


def _get_lag(offset: int | None, log_end_offset: int | None) -> int | None:
    """LOG-END-OFFSET minus CURRENT-OFFSET; none without a committed offset or a log end."""
    if offset is None or offset == -1 or log_end_offset is None:
        return None
    return log_end_offset - offset


def _quoted(groups: Iterable[str]) -> str:
    return "'" + "', '".join(groups) + "'"


_JAVA_INT = re.compile(r"[+-]?[0-9]+")


def _is_int(text: str) -> bool:
    return bool(_JAVA_INT.fullmatch(text))


def _is_csv_record_no_group(row: list[str]) -> bool:
    return len(row) == 3 and _is_int(row[1]) and _is_int(row[2])


# -- Utils.getDateTime and java.time.Duration.parse ---------------------------------------------------------------

_DATE_TIME = re.compile(
    r"(?P<y>\d+)-(?P<mo>\d+)-(?P<d>\d+)T(?P<h>\d+):(?P<mi>\d+):(?P<s>\d+)\.(?P<ms>\d+)"
    r"(?P<zone>Z|[+-]\d{2}:\d{2}|[+-]\d{4}|[+-]\d{2})"
)


def get_date_time(timestamp: str | None) -> int:
    """Milliseconds since the epoch of `yyyy-MM-ddTHH:mm:ss.SSS` with an optional zone (`Z`, `+hh`, `+hhmm`,
    `+hh:mm`); without a zone the time is UTC."""
    if timestamp is None:
        raise IllegalArgumentException("Error parsing timestamp with null value")
    parts = timestamp.split("T")
    if len(parts) < 2:
        raise ParseException("Error parsing timestamp. It does not contain a 'T' according to ISO8601 format")
    if not any(c in parts[1] for c in "+-Z"):
        timestamp += "Z"
    match = _DATE_TIME.match(timestamp)
    if match is None:
        raise ParseException(f'Unparseable date: "{timestamp}"')
    zone = match["zone"]
    if zone == "Z":
        tz = UTC
    else:
        digits = zone[1:].replace(":", "")
        hours, minutes = int(digits[:2]), int(digits[2:] or "0")
        if hours > 23 or minutes > 59:
            raise ParseException(f'Unparseable date: "{timestamp}"')
        sign = -1 if zone[0] == "-" else 1
        tz = timezone(sign * timedelta(hours=hours, minutes=minutes))
    millis = int(match["ms"])
    try:
        if millis > 999:
            raise ValueError("millisecond out of range")
        moment = datetime(
            int(match["y"]),
            int(match["mo"]),
            int(match["d"]),
            int(match["h"]),
            int(match["mi"]),
            int(match["s"]),
            tzinfo=tz,
        )
    except ValueError:
        raise ParseException(f'Unparseable date: "{timestamp}"') from None
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    delta = moment - epoch
    return (delta.days * 86_400 + delta.seconds) * 1000 + millis


_DURATION = re.compile(
    r"([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?",
    re.IGNORECASE,
)


def parse_duration(text: str) -> int:
    """java.time.Duration.parse (`PnDTnHnMn.nS`), in nanoseconds."""
    match = _DURATION.fullmatch(text)
    if match is None or (match[3] and not any(match[i] for i in (4, 5, 6))) or not any(match[i] for i in (2, 4, 5, 6)):
        raise DateTimeParseException("Text cannot be parsed to a Duration")
    negate, days, _, hours, minutes, seconds, fraction = match.groups()
    nanos = int(days or 0) * 86_400 * 10**9 + int(hours or 0) * 3600 * 10**9 + int(minutes or 0) * 60 * 10**9
    secs = int(seconds or 0)
    frac = int((fraction or "").ljust(9, "0") or 0)
    nanos += secs * 10**9 + (-frac if seconds and seconds.startswith("-") else frac)
    return -nanos if negate == "-" else nanos


# -- options ------------------------------------------------------------------------------------------------------


class ConsumerGroupCommandOptions(CommandDefaultOptions):
    """The command line of kafka-consumer-groups.sh, parsed; `check_args` makes Kafka's checks."""

    NL = os.linesep
    BOOTSTRAP_SERVER_DOC = "REQUIRED: The server(s) to connect to."
    GROUP_DOC = "The consumer group we wish to act on."
    TOPIC_DOC = (
        "The topic whose consumer group information should be deleted or topic whose should be included in the "
        "reset offset process. In `reset-offsets` case, partitions can be specified using this format: "
        "`topic1:0,1,2`, where 0,1,2 are the partition to be included in the process. Reset-offsets also supports "
        "multiple topic inputs."
    )
    ALL_TOPICS_DOC = "Consider all topics assigned to a group in the `reset-offsets` process."
    LIST_DOC = "List all consumer groups."
    DESCRIBE_DOC = (
        "Describe consumer group and list offset lag (number of messages not yet processed) related to given group."
    )
    ALL_GROUPS_DOC = "Apply to all consumer groups."
    DELETE_DOC = (
        "Pass in groups to delete topic partition offsets and ownership information over the entire consumer "
        "group. For instance --group g1 --group g2"
    )
    TIMEOUT_MS_DOC = (
        "The timeout that can be set for some use cases. For example, it can be used when describing the group to "
        "specify the maximum amount of time in milliseconds to wait before the group stabilizes (when the group is "
        "just created, or is going through some changes)."
    )
    COMMAND_CONFIG_DOC = "Property file containing configs to be passed to Admin Client and Consumer."
    RESET_OFFSETS_DOC = (
        "Reset offsets of consumer group. Supports one consumer group at the time, and instances should be inactive"
        + NL
        + "Has 2 execution options: --dry-run (the default) to plan which offsets to reset, and --execute to update "
        "the offsets. Additionally, the --export option is used to export the results to a CSV format."
        + NL
        + "You must choose one of the following reset specifications: --to-datetime, --by-period, --to-earliest, "
        "--to-latest, --shift-by, --from-file, --to-current."
        + NL
        + "To define the scope use --all-topics or --topic. One scope must be specified unless you use '--from-file'."
    )
    DRY_RUN_DOC = "Only show results without executing changes on Consumer Groups. Supported operations: reset-offsets."
    EXECUTE_DOC = "Execute operation. Supported operations: reset-offsets."
    EXPORT_DOC = "Export operation execution to a CSV file. Supported operations: reset-offsets."
    RESET_TO_OFFSET_DOC = "Reset offsets to a specific offset."
    RESET_FROM_FILE_DOC = "Reset offsets to values defined in CSV file."
    RESET_TO_DATETIME_DOC = "Reset offsets to offset from datetime. Format: 'YYYY-MM-DDTHH:mm:SS.sss'"
    RESET_BY_DURATION_DOC = "Reset offsets to offset by duration from current timestamp. Format: 'PnDTnHnMnS'"
    RESET_TO_EARLIEST_DOC = "Reset offsets to earliest offset."
    RESET_TO_LATEST_DOC = "Reset offsets to latest offset."
    RESET_TO_CURRENT_DOC = "Reset offsets to current offset."
    RESET_SHIFT_BY_DOC = "Reset offsets shifting current offset by 'n', where 'n' can be positive or negative."
    MEMBERS_DOC = (
        "Describe members of the group. This option may be used with '--describe' and '--bootstrap-server' options "
        "only." + NL + "Example: --bootstrap-server localhost:9092 --describe --group group1 --members"
    )
    VERBOSE_DOC = (
        "Provide additional information, if any, when describing the group. This option may be used with "
        "'--offsets'/'--members'/'--state' and '--bootstrap-server' options only."
        + NL
        + "Example: --bootstrap-server localhost:9092 --describe --group group1 --members --verbose"
    )
    OFFSETS_DOC = (
        "Describe the group and list all topic partitions in the group along with their offset lag. This is the "
        "default sub-action of and may be used with '--describe' and '--bootstrap-server' options only."
        + NL
        + "Example: --bootstrap-server localhost:9092 --describe --group group1 --offsets"
    )
    STATE_DOC = (
        "When specified with '--describe', includes the state of the group."
        + NL
        + "Example: --bootstrap-server localhost:9092 --describe --group group1 --state"
        + NL
        + "When specified with '--list', it displays the state of all groups. It can also be used to list groups "
        "with specific states."
        + NL
        + "Example: --bootstrap-server localhost:9092 --list --state stable,empty"
        + NL
        + "This option may be used with '--describe', '--list' and '--bootstrap-server' options only."
    )
    DELETE_OFFSETS_DOC = (
        "Delete offsets of consumer group. Supports one consumer group at the time, and multiple topics."
    )

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.bootstrap_server_opt = (
            parser.accepts("bootstrap-server", self.BOOTSTRAP_SERVER_DOC)
            .with_required_arg()
            .described_as("server to connect to")
            .of_type(str)
        )
        self.group_opt = (
            parser.accepts("group", self.GROUP_DOC).with_required_arg().described_as("consumer group").of_type(str)
        )
        self.topic_opt = parser.accepts("topic", self.TOPIC_DOC).with_required_arg().described_as("topic").of_type(str)
        self.all_topics_opt = parser.accepts("all-topics", self.ALL_TOPICS_DOC)
        self.list_opt = parser.accepts("list", self.LIST_DOC)
        self.describe_opt = parser.accepts("describe", self.DESCRIBE_DOC)
        self.all_groups_opt = parser.accepts("all-groups", self.ALL_GROUPS_DOC)
        self.delete_opt = parser.accepts("delete", self.DELETE_DOC)
        self.timeout_ms_opt = (
            parser.accepts("timeout", self.TIMEOUT_MS_DOC)
            .with_required_arg()
            .described_as("timeout (ms)")
            .of_type(int)
            .defaults_to(5000)
        )
        self.command_config_opt = (
            parser.accepts("command-config", self.COMMAND_CONFIG_DOC)
            .with_required_arg()
            .described_as("command config property file")
            .of_type(str)
        )
        self.reset_offsets_opt = parser.accepts("reset-offsets", self.RESET_OFFSETS_DOC)
        self.delete_offsets_opt = parser.accepts("delete-offsets", self.DELETE_OFFSETS_DOC)
        self.dry_run_opt = parser.accepts("dry-run", self.DRY_RUN_DOC)
        self.execute_opt = parser.accepts("execute", self.EXECUTE_DOC)
        self.export_opt = parser.accepts("export", self.EXPORT_DOC)
        self.reset_to_offset_opt = (
            parser.accepts("to-offset", self.RESET_TO_OFFSET_DOC)
            .with_required_arg()
            .described_as("offset")
            .of_type(int)
        )
        self.reset_from_file_opt = (
            parser.accepts("from-file", self.RESET_FROM_FILE_DOC)
            .with_required_arg()
            .described_as("path to CSV file")
            .of_type(str)
        )
        self.reset_to_datetime_opt = (
            parser.accepts("to-datetime", self.RESET_TO_DATETIME_DOC)
            .with_required_arg()
            .described_as("datetime")
            .of_type(str)
        )
        self.reset_by_duration_opt = (
            parser.accepts("by-duration", self.RESET_BY_DURATION_DOC)
            .with_required_arg()
            .described_as("duration")
            .of_type(str)
        )
        self.reset_to_earliest_opt = parser.accepts("to-earliest", self.RESET_TO_EARLIEST_DOC)
        self.reset_to_latest_opt = parser.accepts("to-latest", self.RESET_TO_LATEST_DOC)
        self.reset_to_current_opt = parser.accepts("to-current", self.RESET_TO_CURRENT_DOC)
        self.reset_shift_by_opt = (
            parser.accepts("shift-by", self.RESET_SHIFT_BY_DOC)
            .with_required_arg()
            .described_as("number-of-offsets")
            .of_type(int)
        )
        self.members_opt = parser.accepts("members", self.MEMBERS_DOC).available_if(self.describe_opt)
        self.verbose_opt = parser.accepts("verbose", self.VERBOSE_DOC).available_if(self.describe_opt)
        self.offsets_opt = parser.accepts("offsets", self.OFFSETS_DOC).available_if(self.describe_opt)
        self.state_opt = (
            parser.accepts("state", self.STATE_DOC)
            .available_if(self.describe_opt, self.list_opt)
            .with_optional_arg()
            .of_type(str)
        )

        self.options = parser.parse(self.args)

        self.all_group_selection_scope_opts: list[OptionSpec] = [self.group_opt, self.all_groups_opt]
        self.all_consumer_group_level_opts: list[OptionSpec] = [
            self.list_opt,
            self.describe_opt,
            self.delete_opt,
            self.reset_offsets_opt,
        ]
        self.all_reset_offset_scenario_opts: list[OptionSpec] = [
            self.reset_to_offset_opt,
            self.reset_shift_by_opt,
            self.reset_to_datetime_opt,
            self.reset_by_duration_opt,
            self.reset_to_earliest_opt,
            self.reset_to_latest_opt,
            self.reset_to_current_opt,
            self.reset_from_file_opt,
        ]
        self.all_delete_offsets_opts: list[OptionSpec] = [self.group_opt, self.topic_opt]

    def check_args(self, err: TextIO | None = None) -> None:
        parser, options = self.parser, self.options
        check_required_args(parser, options, self.bootstrap_server_opt)

        def joined(specs: Iterable[OptionSpec]) -> str:
            return ", ".join(str(s) for s in specs)

        def others(specs: list[OptionSpec], *excluded: OptionSpec) -> list[OptionSpec]:
            return [s for s in specs if s not in excluded]

        if options.has(self.describe_opt):
            if not options.has(self.group_opt) and not options.has(self.all_groups_opt):
                print_usage_and_die(
                    parser,
                    f"Option {self.describe_opt} takes one of these options: "
                    f"{joined(self.all_group_selection_scope_opts)}",
                )
            mutually_exclusive_opts = [self.members_opt, self.offsets_opt, self.state_opt]
            if sum(1 for o in mutually_exclusive_opts if options.has(o)) > 1:
                print_usage_and_die(
                    parser,
                    f"Option {self.describe_opt} takes at most one of these options: {joined(mutually_exclusive_opts)}",
                )
            if options.has(self.state_opt) and options.value_of(self.state_opt) is not None:
                print_usage_and_die(parser, f"Option {self.describe_opt} does not take a value for {self.state_opt}")
        elif options.has(self.timeout_ms_opt):
            _logger.debug(f"Option {self.timeout_ms_opt} is applicable only when {self.describe_opt} is used.")

        if options.has(self.delete_opt):
            if not options.has(self.group_opt) and not options.has(self.all_groups_opt):
                print_usage_and_die(
                    parser,
                    f"Option {self.delete_opt} takes one of these options: "
                    f"{joined(self.all_group_selection_scope_opts)}",
                )
            if options.has(self.topic_opt):
                print_usage_and_die(
                    parser, "The consumer does not support topic-specific offset deletion from a consumer group."
                )

        if options.has(self.delete_offsets_opt):
            if not options.has(self.group_opt) or not options.has(self.topic_opt):
                print_usage_and_die(
                    parser,
                    f"Option {self.delete_offsets_opt} takes the following options: "
                    f"{joined(self.all_delete_offsets_opts)}",
                )

        if options.has(self.reset_offsets_opt):
            if options.has(self.dry_run_opt) and options.has(self.execute_opt):
                print_usage_and_die(
                    parser,
                    f"Option {self.reset_offsets_opt} only accepts one of {self.execute_opt} and {self.dry_run_opt}",
                )
            if not options.has(self.dry_run_opt) and not options.has(self.execute_opt):
                print(
                    "WARN: No action will be performed as the --execute option is missing."
                    "In a future major release, the default behavior of this command will be to prompt the user before "
                    "executing the reset rather than doing a dry run. You should add the --dry-run option explicitly "
                    "if you are scripting this command and want to keep the current default behavior without "
                    "prompting.",
                    file=err or sys.stderr,
                )
            if not options.has(self.group_opt) and not options.has(self.all_groups_opt):
                print_usage_and_die(
                    parser,
                    f"Option {self.reset_offsets_opt} takes one of these options: "
                    f"{joined(self.all_group_selection_scope_opts)}",
                )
            for scenario in self.all_reset_offset_scenario_opts:
                check_invalid_args(parser, options, scenario, others(self.all_reset_offset_scenario_opts, scenario))

        check_invalid_args(parser, options, self.group_opt, others(self.all_group_selection_scope_opts, self.group_opt))
        check_invalid_args(
            parser,
            options,
            self.group_opt,
            others(self.all_consumer_group_level_opts, self.describe_opt, self.delete_opt, self.reset_offsets_opt),
        )
        check_invalid_args(
            parser,
            options,
            self.topic_opt,
            others(self.all_consumer_group_level_opts, self.delete_opt, self.reset_offsets_opt),
        )


# -- entry points -------------------------------------------------------------------------------------------------


def run(
    opts: ConsumerGroupCommandOptions,
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
    time: Time | None = None,
) -> bool:
    """Carries out the one action of the command line; False when it failed (the error is printed)."""
    out = out or sys.stdout
    err = err or sys.stderr
    consumer_group_service = ConsumerGroupService(opts, out=out, err=err, admin_factory=admin_factory, time=time)
    options = opts.options
    try:
        if options.has(opts.list_opt):
            consumer_group_service.list_groups()
        elif options.has(opts.describe_opt):
            consumer_group_service.describe_groups()
        elif options.has(opts.delete_opt):
            consumer_group_service.delete_groups()
        elif options.has(opts.reset_offsets_opt):
            offsets_to_reset = consumer_group_service.reset_offsets()
            if options.has(opts.export_opt):
                print(consumer_group_service.export_offsets_to_csv(offsets_to_reset), file=out)
            else:
                print_offsets_to_reset(offsets_to_reset, out)
        elif options.has(opts.delete_offsets_opt):
            consumer_group_service.delete_offsets()
    except IllegalArgumentException as e:
        print_usage_and_die(opts.parser, str(e))
    except (UsageException, OptionException):
        raise
    except Exception as e:
        print_error(f"Executing consumer group command failed due to {e}", e, out, err)
        return False
    finally:
        consumer_group_service.close()
    return True


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
    time: Time | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    opts: ConsumerGroupCommandOptions | None = None

    def body() -> int:
        nonlocal opts
        opts = ConsumerGroupCommandOptions(args)
        opts.check_args(err)
        if is_print_help_needed(opts):
            print_usage_and_die(opts.parser, DESCRIPTION)
        if print_version_if_needed(opts, out):
            return 0
        actions = sum(
            1
            for o in (
                opts.list_opt,
                opts.describe_opt,
                opts.delete_opt,
                opts.reset_offsets_opt,
                opts.delete_offsets_opt,
            )
            if opts.options.has(o)
        )
        if actions != 1:
            print_usage_and_die(
                opts.parser,
                "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, "
                "--delete-offsets",
            )
        return 0 if run(opts, out, err, admin_factory, time) else 1

    return run_reporting_errors(body, err, lambda: (opts or ConsumerGroupCommandOptions([])).parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-consumer-groups.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
