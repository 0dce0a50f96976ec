"""Tests of ConsumerGroupCommand with a fake admin client: Kafka's option checks and messages, the tables it prints,
and the offsets each reset scenario plans, after Kafka's ConsumerGroupCommandArgsTest, DescribeConsumerGroupTest,
ResetConsumerGroupOffsetTest, DeleteConsumerGroupsTest and DeleteOffsetsConsumerGroupCommandIntegrationTest."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kafka.admin import consumer_group_command as cgc
from kafka.clients.admin.abstract_options import AbstractOptions
from kafka.clients.admin.alter_consumer_group_offsets_options import AlterConsumerGroupOffsetsOptions
from kafka.clients.admin.alter_consumer_group_offsets_result import AlterConsumerGroupOffsetsResult
from kafka.clients.admin.consumer_group_description import ConsumerGroupDescription
from kafka.clients.admin.consumer_group_listing import ConsumerGroupListing
from kafka.clients.admin.delete_consumer_group_offsets_options import DeleteConsumerGroupOffsetsOptions
from kafka.clients.admin.delete_consumer_group_offsets_result import DeleteConsumerGroupOffsetsResult
from kafka.clients.admin.delete_consumer_groups_options import DeleteConsumerGroupsOptions
from kafka.clients.admin.delete_consumer_groups_result import DeleteConsumerGroupsResult
from kafka.clients.admin.describe_consumer_groups_options import DescribeConsumerGroupsOptions
from kafka.clients.admin.describe_consumer_groups_result import DescribeConsumerGroupsResult
from kafka.clients.admin.describe_topics_options import DescribeTopicsOptions
from kafka.clients.admin.describe_topics_result import DescribeTopicsResult
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.list_consumer_group_offsets_options import ListConsumerGroupOffsetsOptions
from kafka.clients.admin.list_consumer_group_offsets_result import ListConsumerGroupOffsetsResult
from kafka.clients.admin.list_consumer_groups_options import ListConsumerGroupsOptions
from kafka.clients.admin.list_consumer_groups_result import ListConsumerGroupsResult
from kafka.clients.admin.list_offsets_options import ListOffsetsOptions
from kafka.clients.admin.list_offsets_result import ListOffsetsResult, ListOffsetsResultInfo
from kafka.clients.admin.member_assignment import MemberAssignment
from kafka.clients.admin.member_description import MemberDescription
from kafka.clients.admin.offset_spec import EarliestSpec, LatestSpec, OffsetSpec, TimestampSpec
from kafka.clients.admin.topic_description import TopicDescription
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.consumer_group_state import ConsumerGroupState
from kafka.common.errors import (
    GroupIdNotFoundException,
    GroupNotEmptyException,
    TimeoutException,
    UnknownTopicOrPartitionException,
)
from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_info import TopicPartitionInfo
from kafka.common.utils.time import MockTime

COORDINATOR = Node(0, "localhost", 9092)
BOOTSTRAP = ["--bootstrap-server", "localhost:9092"]

T = TypeVar("T")


def tp(topic: str, partition: int) -> TopicPartition:
    return TopicPartition(topic, partition)


def completed(value: T) -> KafkaFuture[T]:
    return KafkaFuture.completed_future(value)


def failed(exception: BaseException) -> KafkaFuture[Any]:
    future: KafkaFutureImpl[Any] = KafkaFutureImpl()
    future.complete_exceptionally(exception)
    return future


@dataclass
class FakeAdmin:
    """Answers the command's admin calls, with the real client's result classes and futures, from tables a test
    fills in, and records what it is asked to change."""

    groups: dict[str, ConsumerGroupDescription] = field(default_factory=dict)
    # None: the client reports the partition without a committed offset.
    committed: dict[str, dict[TopicPartition, OffsetAndMetadata | None]] = field(default_factory=dict)
    log_start: dict[TopicPartition, int] = field(default_factory=dict)
    log_end: dict[TopicPartition, int] = field(default_factory=dict)
    # partition -> [(timestamp, offset)] in offset order
    record_times: dict[TopicPartition, list[tuple[int, int]]] = field(default_factory=dict)
    topics: dict[str, int] = field(default_factory=dict)
    altered: list[tuple[str, dict[TopicPartition, OffsetAndMetadata]]] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    delete_errors: dict[str, BaseException] = field(default_factory=dict)
    offset_delete_errors: dict[TopicPartition, Errors] = field(default_factory=dict)
    offset_delete_group_error: BaseException | None = None
    offsets_deleted: list[tuple[str, set[TopicPartition]]] = field(default_factory=list)
    listed_states: list[frozenset[ConsumerGroupState]] = field(default_factory=list)
    timeouts: list[int | None] = field(default_factory=list)
    failure: BaseException | None = None
    closed: bool = False

    def _answer(self, options: AbstractOptions, value: T) -> KafkaFuture[T]:
        """The value, or the failure every call meets when the test sets one; records the call's timeout."""
        self.timeouts.append(options.timeout_ms())
        return failed(self.failure) if self.failure is not None else completed(value)

    def list_consumer_groups(self, options: ListConsumerGroupsOptions) -> ListConsumerGroupsResult:
        wanted = options.states()
        self.listed_states.append(wanted)
        listings = [
            ConsumerGroupListing(g, False, d.state) for g, d in self.groups.items() if not wanted or d.state in wanted
        ]
        self.timeouts.append(options.timeout_ms())
        # As the real client does, failures to list come in the list (the future itself always completes).
        return ListConsumerGroupsResult(completed([self.failure] if self.failure is not None else listings))

    def describe_consumer_groups(
        self, group_ids: Iterable[str], options: DescribeConsumerGroupsOptions
    ) -> DescribeConsumerGroupsResult:
        futures = {}
        for g in group_ids:
            # A broker describes a group it does not know as Dead, without members.
            description = self.groups.get(g) or ConsumerGroupDescription(
                g, True, (), "", ConsumerGroupState.DEAD, COORDINATOR
            )
            futures[g] = self._answer(options, description)
        return DescribeConsumerGroupsResult(futures)

    def list_consumer_group_offsets(
        self, group_id: str, options: ListConsumerGroupOffsetsOptions
    ) -> ListConsumerGroupOffsetsResult:
        offsets: dict[TopicPartition, OffsetAndMetadata | None] = dict(self.committed.get(group_id, {}))
        return ListConsumerGroupOffsetsResult({CoordinatorKey.by_group_id(group_id): self._answer(options, offsets)})

    def alter_consumer_group_offsets(
        self,
        group_id: str,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        options: AlterConsumerGroupOffsetsOptions,
    ) -> AlterConsumerGroupOffsetsResult:
        self.altered.append((group_id, dict(offsets)))
        self.committed.setdefault(group_id, {}).update(offsets)
        return AlterConsumerGroupOffsetsResult(self._answer(options, dict.fromkeys(offsets, Errors.NONE)))

    def list_offsets(
        self, specs: Mapping[TopicPartition, OffsetSpec], options: ListOffsetsOptions
    ) -> ListOffsetsResult:
        futures: dict[TopicPartition, KafkaFuture[ListOffsetsResultInfo]] = {}
        for partition, spec in specs.items():
            if partition.topic not in self.topics:
                futures[partition] = failed(
                    UnknownTopicOrPartitionException("This server does not host this topic-partition.")
                )
            elif isinstance(spec, LatestSpec):
                futures[partition] = self._answer(options, ListOffsetsResultInfo(self.log_end[partition], -1, None))
            elif isinstance(spec, EarliestSpec):
                futures[partition] = self._answer(options, ListOffsetsResultInfo(self.log_start[partition], -1, None))
            else:
                assert isinstance(spec, TimestampSpec)
                found = [(t, o) for t, o in self.record_times.get(partition, []) if t >= spec.timestamp]
                info = (
                    ListOffsetsResultInfo(found[0][1], found[0][0], None)
                    if found
                    else ListOffsetsResultInfo(-1, -1, None)
                )
                futures[partition] = self._answer(options, info)
        return ListOffsetsResult(futures)

    def describe_topics(self, topic_names: Iterable[str], options: DescribeTopicsOptions) -> DescribeTopicsResult:
        futures: dict[str, KafkaFuture[TopicDescription]] = {}
        for name in topic_names:
            if name not in self.topics:
                futures[name] = failed(
                    UnknownTopicOrPartitionException("This server does not host this topic-partition.")
                )
            else:
                infos = [TopicPartitionInfo(p, COORDINATOR, [], []) for p in range(self.topics[name])]
                futures[name] = self._answer(options, TopicDescription(name, False, infos))
        return DescribeTopicsResult.of_topic_names(futures)

    def delete_consumer_groups(
        self, group_ids: Iterable[str], options: DeleteConsumerGroupsOptions
    ) -> DeleteConsumerGroupsResult:
        futures: dict[str, KafkaFuture[None]] = {}
        for g in group_ids:
            if g in self.delete_errors:
                futures[g] = failed(self.delete_errors[g])
            else:
                self.deleted.append(g)
                futures[g] = self._answer(options, None)
        return DeleteConsumerGroupsResult(futures)

    def delete_consumer_group_offsets(
        self, group_id: str, partitions: Iterable[TopicPartition], options: DeleteConsumerGroupOffsetsOptions
    ) -> DeleteConsumerGroupOffsetsResult:
        wanted = set(partitions)
        self.offsets_deleted.append((group_id, wanted))
        errors = {p: self.offset_delete_errors.get(p, Errors.NONE) for p in wanted}
        if self.offset_delete_group_error is not None:
            return DeleteConsumerGroupOffsetsResult(failed(self.offset_delete_group_error), wanted)
        return DeleteConsumerGroupOffsetsResult(self._answer(options, errors), wanted)

    def close(self, timeout_ms: int | None = None) -> None:
        self.closed = True


def member(
    consumer_id: str,
    partitions: Iterable[TopicPartition],
    client_id: str = "consumer-1",
    instance_id: str | None = None,
) -> MemberDescription:
    return MemberDescription(consumer_id, instance_id, client_id, "/127.0.0.1", MemberAssignment(partitions))


def group(group_id: str, state: ConsumerGroupState, *members: MemberDescription) -> ConsumerGroupDescription:
    return ConsumerGroupDescription(group_id, False, tuple(members), "range", state, COORDINATOR)


@dataclass
class Result:
    status: int
    out: str
    err: str
    admin: FakeAdmin
    props: dict[str, str]


def run(args: list[str], admin: FakeAdmin | None = None, time: MockTime | None = None) -> Result:
    fake = admin if admin is not None else FakeAdmin()
    props: dict[str, str] = {}

    def factory(p: dict[str, str]) -> FakeAdmin:
        props.update(p)
        return fake

    out, err = io.StringIO(), io.StringIO()
    status = cgc.run_command(args, out, err, admin_factory=factory, time=time)
    return Result(status, out.getvalue(), err.getvalue(), fake, props)


def first_err_line(result: Result) -> str:
    return result.err.splitlines()[0]


# ---- the command line ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], 'Missing required argument "[bootstrap-server]"'),
        (["--list"], 'Missing required argument "[bootstrap-server]"'),
        (
            [*BOOTSTRAP],
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets",
        ),
        (
            [*BOOTSTRAP, "--list", "--describe", "--all-groups"],
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets",
        ),
        ([*BOOTSTRAP, "--describe"], "Option [describe] takes one of these options: [group], [all-groups]"),
        (
            [*BOOTSTRAP, "--describe", "--group", "g", "--members", "--state"],
            "Option [describe] takes at most one of these options: [members], [offsets], [state]",
        ),
        (
            [*BOOTSTRAP, "--describe", "--group", "g", "--state", "Stable"],
            "Option [describe] does not take a value for [state]",
        ),
        ([*BOOTSTRAP, "--delete"], "Option [delete] takes one of these options: [group], [all-groups]"),
        (
            [*BOOTSTRAP, "--delete", "--group", "g", "--topic", "t"],
            "The consumer does not support topic-specific offset deletion from a consumer group.",
        ),
        (
            [*BOOTSTRAP, "--delete-offsets", "--group", "g"],
            "Option [delete-offsets] takes the following options: [group], [topic]",
        ),
        (
            [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--to-earliest", "--dry-run", "--execute"],
            "Option [reset-offsets] only accepts one of [execute] and [dry-run]",
        ),
        (
            [*BOOTSTRAP, "--reset-offsets", "--to-earliest", "--dry-run"],
            "Option [reset-offsets] takes one of these options: [group], [all-groups]",
        ),
        (
            [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--to-earliest", "--to-offset", "5", "--dry-run"],
            'Option "[to-offset]" can\'t be used with option "[to-earliest]"',
        ),
        (
            [*BOOTSTRAP, "--describe", "--group", "g", "--all-groups"],
            'Option "[group]" can\'t be used with option "[all-groups]"',
        ),
        ([*BOOTSTRAP, "--list", "--group", "g"], 'Option "[group]" can\'t be used with option "[list]"'),
        (
            [*BOOTSTRAP, "--describe", "--all-groups", "--topic", "t"],
            'Option "[topic]" can\'t be used with option "[describe]"',
        ),
    ],
)
def test_option_checks_print_kafkas_message_and_help(args: list[str], message: str) -> None:
    """Each refused combination of options prints Kafka's message, then the help, and ends with status 1."""
    result = run(args)
    assert result.status == 1
    assert message in result.err.splitlines()[:2]
    assert "Option                                  Description" in result.err
    assert result.out == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*BOOTSTRAP, "--lis"], "lis is not a recognized option"),
        ([*BOOTSTRAP, "-x"], "x is not a recognized option"),
        ([*BOOTSTRAP, "--describe", "--group"], "Option group requires an argument"),
        (
            [*BOOTSTRAP, "--list", "--members"],
            "Option(s) [members] are unavailable given other options on the command line",
        ),
        (
            [*BOOTSTRAP, "--delete", "--group", "g", "--state"],
            "Option(s) [state] are unavailable given other options on the command line",
        ),
        ([*BOOTSTRAP, "--list", "--timeout", "soon"], "Cannot parse argument 'soon' of option timeout"),
        (
            [*BOOTSTRAP, "--bootstrap-server", "other:9092", "--list"],
            "Found multiple arguments for option bootstrap-server, but you asked for only one",
        ),
    ],
)
def test_command_lines_jopt_simple_refuses(args: list[str], message: str) -> None:
    """A command line jopt-simple cannot parse prints jopt-simple's message and the help, with status 1."""
    result = run(args)
    assert result.status == 1
    assert first_err_line(result) == message
    assert "--bootstrap-server <String: server to   REQUIRED: The server(s) to connect to." in result.err


def test_help_needs_bootstrap_server_first_as_in_kafka() -> None:
    """`--help` alone reports the missing bootstrap server (Kafka checks arguments before help); with it, the
    tool's description and the help are printed, with status 1."""
    assert first_err_line(run(["--help"])) == 'Missing required argument "[bootstrap-server]"'
    result = run([*BOOTSTRAP, "--help"])
    assert result.status == 1
    assert first_err_line(result) == cgc.DESCRIPTION


def test_help_is_laid_out_as_jopt_simple_does() -> None:
    """The help has jopt-simple's two columns: options sorted by name, 39-character option column, continuation
    lines indented by two, defaults shown, embedded line breaks kept."""
    lines = cgc.ConsumerGroupCommandOptions([]).parser.format_help().splitlines()
    assert lines[0].rstrip() == "Option                                  Description"
    assert lines[1].rstrip() == "------                                  -----------"
    assert lines[2].rstrip() == "--all-groups                            Apply to all consumer groups."
    assert lines[5].rstrip() == "--bootstrap-server <String: server to   REQUIRED: The server(s) to connect to."
    assert lines[6].rstrip() == "  connect to>"
    timeout = next(i for i, line in enumerate(lines) if line.startswith("--timeout"))
    assert lines[timeout].rstrip() == "--timeout <Long: timeout (ms)>          The timeout that can be set for some"
    assert "(default: 5000)" in lines[timeout + 7]
    state = next(i for i, line in enumerate(lines) if line.startswith("--state"))
    assert lines[state].startswith("--state [String]  ")
    assert lines[state + 2].strip() == "Example: --bootstrap-server"
    # Both columns are padded: every line is as wide as the widest option piece, two spaces and 39 columns.
    assert {len(line) for line in lines} == {38 + 2 + 39}


def test_option_arguments_follow_jopt_simple_rules() -> None:
    """`--opt=value` and `-opt value` name options, a required argument may start with a dash, `--state` takes
    an argument only when the next token is not an option, and stray words are ignored."""
    opts = cgc.ConsumerGroupCommandOptions(
        ["-bootstrap-server", "h:1", "--reset-offsets", "--group=g", "--shift-by", "-5", "stray", "--all-topics"]
    )
    assert opts.options.value_of(opts.bootstrap_server_opt) == "h:1"
    assert opts.options.value_of(opts.group_opt) == "g"
    assert opts.options.value_of(opts.reset_shift_by_opt) == -5
    assert opts.options.has(opts.all_topics_opt)
    assert opts.options.non_option_arguments == ["stray"]
    listed = cgc.ConsumerGroupCommandOptions([*BOOTSTRAP, "--list", "--state", "--timeout", "7"])
    assert listed.options.has(listed.state_opt) and listed.options.value_of(listed.state_opt) is None
    assert listed.options.value_of(listed.timeout_ms_opt) == 7
    with_value = cgc.ConsumerGroupCommandOptions([*BOOTSTRAP, "--list", "--state", "Stable,Empty"])
    assert with_value.options.value_of(with_value.state_opt) == "Stable,Empty"


def test_admin_client_gets_bootstrap_and_command_config(tmp_path: Path) -> None:
    """The admin client is created from the --command-config file with --bootstrap-server over it, and closed."""
    config = tmp_path / "admin.properties"
    config.write_text("client.id=ops\nbootstrap.servers=ignored:1\nrequest.timeout.ms=1000\n")
    result = run([*BOOTSTRAP, "--list", "--command-config", str(config)])
    assert result.status == 0
    assert result.props == {"client.id": "ops", "bootstrap.servers": "localhost:9092", "request.timeout.ms": "1000"}
    assert result.admin.closed


def test_missing_command_config_ends_like_the_jvm(tmp_path: Path) -> None:
    """A --command-config file that does not exist ends the tool as Kafka's uncaught NoSuchFileException does."""
    missing = tmp_path / "nope.properties"
    result = run([*BOOTSTRAP, "--list", "--command-config", str(missing)])
    assert result.status == 1
    assert result.err == f'Exception in thread "main" java.nio.file.NoSuchFileException: {missing}\n'


def test_real_admin_client_refuses_an_unknown_security_protocol(tmp_path: Path) -> None:
    """Without a fake, the command builds the real admin client (KafkaAdminClient), which refuses an unknown
    protocol with a ConfigException: the tool ends as the JVM does on an uncaught exception."""
    config = tmp_path / "ssl.properties"
    config.write_text("security.protocol=TLS\n")
    out, err = io.StringIO(), io.StringIO()
    status = cgc.run_command([*BOOTSTRAP, "--list", "--command-config", str(config)], out, err)
    assert status == 1
    assert err.getvalue().splitlines() == [
        'Exception in thread "main" org.apache.kafka.common.config.ConfigException: Invalid value TLS for '
        "configuration security.protocol: String must be one of (case insensitive): PLAINTEXT, SSL, SASL_PLAINTEXT, "
        "SASL_SSL",
    ]


# ---- list ------------------------------------------------------------------------------------------------------


def test_list_prints_group_ids_and_passes_the_timeout() -> None:
    """--list prints one group id per line; --timeout reaches the admin call."""
    admin = FakeAdmin(groups={"a": group("a", ConsumerGroupState.EMPTY), "b": group("b", ConsumerGroupState.STABLE)})
    result = run([*BOOTSTRAP, "--list", "--timeout", "1234"], admin)
    assert (result.status, result.out) == (0, "a\nb\n")
    assert admin.timeouts == [1234]


def test_list_with_state_prints_states_and_filters() -> None:
    """--list --state prints GROUP and STATE columns (the group column at least 15 wide); a value filters by
    state names, in any case."""
    long_name = "a-rather-long-group-name"
    admin = FakeAdmin(
        groups={"a": group("a", ConsumerGroupState.EMPTY), long_name: group(long_name, ConsumerGroupState.STABLE)}
    )
    result = run([*BOOTSTRAP, "--list", "--state"], admin)
    assert result.out == (
        "GROUP                    STATE\na                        Empty\na-rather-long-group-name Stable\n"
    )
    filtered = run([*BOOTSTRAP, "--list", "--state", "stable, PreparingRebalance"], admin)
    assert filtered.out == "GROUP                    STATE\na-rather-long-group-name Stable\n"
    assert admin.listed_states[-1] == {ConsumerGroupState.PREPARING_REBALANCE, ConsumerGroupState.STABLE}


def test_list_with_unknown_state_is_a_usage_error() -> None:
    """An unknown state name prints Kafka's list of valid states and the help, with status 1."""
    result = run([*BOOTSTRAP, "--list", "--state", "Stable,Sleeping"])
    assert result.status == 1
    assert first_err_line(result) == (
        "Invalid state list 'Stable,Sleeping'. Valid states are: PreparingRebalance, CompletingRebalance, Stable, "
        "Dead, Empty"
    )


def test_admin_failure_prints_error_and_exits_one() -> None:
    """An admin call that fails prints `Error: Executing consumer group command failed due to ...` with the
    Java exception, and ends with status 1 (Kafka's ends with 0; every tool here exits non-zero on failure)."""
    admin = FakeAdmin(failure=TimeoutException("Timed out waiting for a node assignment. Call: findAllBrokers"))
    result = run([*BOOTSTRAP, "--list"], admin)
    assert result.status == 1
    assert result.out == (
        "\nError: Executing consumer group command failed due to org.apache.kafka.common.errors.TimeoutException: "
        "Timed out waiting for a node assignment. Call: findAllBrokers\n"
    )
    assert result.err.startswith("java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.")
    assert admin.closed


# ---- describe --------------------------------------------------------------------------------------------------


def _described_admin() -> FakeAdmin:
    return FakeAdmin(
        groups={
            "g1": group(
                "g1",
                ConsumerGroupState.STABLE,
                member("consumer-1-0123456789abcdef", [tp("t", 1), tp("t", 0)]),
                member("consumer-2-0123456789abcdef", [], client_id="consumer-2"),
            ),
            "idle": group("idle", ConsumerGroupState.EMPTY),
        },
        committed={
            "g1": {tp("t", 0): OffsetAndMetadata(5), tp("old", 0): OffsetAndMetadata(3)},
            "idle": {tp("t", 1): OffsetAndMetadata(4)},
        },
        log_end={tp("t", 0): 10, tp("t", 1): 4, tp("old", 0): 7},
        topics={"t": 2, "old": 1},
    )


def test_describe_offsets_table_with_lag() -> None:
    """The default view lists assigned partitions (by partition) with their member, then committed partitions no
    member holds; LAG is LOG-END-OFFSET minus CURRENT-OFFSET and `-` without a committed offset."""
    result = run([*BOOTSTRAP, "--describe", "--group", "g1"], _described_admin())
    assert result.status == 0
    assert result.err == ""
    assert result.out.splitlines() == [
        "",
        "GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             "
        "CONSUMER-ID                 HOST            CLIENT-ID",
        "g1              t               0          5               10              5               "
        "consumer-1-0123456789abcdef /127.0.0.1      consumer-1",
        "g1              t               1          -               4               -               "
        "consumer-1-0123456789abcdef /127.0.0.1      consumer-1",
        "g1              old             0          3               7               4               "
        "-                           -               -",
    ]


def test_describe_empty_group_warns_and_prints_committed_offsets() -> None:
    """A group without members is reported on stderr, and its committed offsets are still listed; --offsets is
    the same view."""
    result = run([*BOOTSTRAP, "--describe", "--group", "idle", "--offsets"], _described_admin())
    assert result.err == "\nConsumer group 'idle' has no active members.\n"
    assert result.out.splitlines()[2] == (
        "idle            t               1          4               4               0               "
        "-               -               -"
    )


def test_partitions_listed_without_committed_offset() -> None:
    """A partition the admin client lists without a committed offset (None) is described with none, as in Kafka
    3.x's command; --all-topics resets it, and --to-current takes its log end, as for a partition never
    committed."""
    admin = FakeAdmin(
        groups={"idle": group("idle", ConsumerGroupState.EMPTY)},
        committed={"idle": {tp("t", 0): OffsetAndMetadata(4), tp("t", 1): None}},
        log_start={tp("t", 0): 0, tp("t", 1): 0},
        log_end={tp("t", 0): 9, tp("t", 1): 7},
        topics={"t": 2},
    )
    described = run([*BOOTSTRAP, "--describe", "--group", "idle"], admin)
    assert [line.split()[:6] for line in described.out.splitlines()[2:]] == [
        ["idle", "t", "0", "4", "9", "5"],
        ["idle", "t", "1", "-", "7", "-"],
    ]
    reset = run([*BOOTSTRAP, "--reset-offsets", "--group", "idle", "--all-topics", "--to-current", "--dry-run"], admin)
    assert plan(reset) == [("idle", "t", 0, 4), ("idle", "t", 1, 7)]


def test_member_partitions_in_java_hash_set_order() -> None:
    """A member's partitions (a set in the admin client) are taken in java.util.HashSet's order, so partitions
    of the same number print in the order Kafka's command prints them, whatever order the set gives."""
    partitions = [tp("beta", 0), tp("alpha", 0), tp("gamma", 0)]
    admin = FakeAdmin(
        groups={"g": group("g", ConsumerGroupState.STABLE, member("c1", partitions))},
        log_end=dict.fromkeys(partitions, 1),
        topics={"alpha": 1, "beta": 1, "gamma": 1},
    )
    result = run([*BOOTSTRAP, "--describe", "--group", "g"], admin)
    topics = [line.split()[1] for line in result.out.splitlines()[2:]]
    # TopicPartition.hashCode (31 * (31 + partition) + String.hashCode): gamma-0 98121576, alpha-0 92910879,
    # beta-0 3021233, which HashMap's spread puts in buckets 1, 6 and 15 of 16.
    assert topics == ["gamma", "alpha", "beta"]


def test_describe_unknown_group_reports_it_does_not_exist() -> None:
    """A group the broker describes as Dead is reported as not existing, in every view."""
    for view in ([], ["--members"], ["--state"]):
        result = run([*BOOTSTRAP, "--describe", "--group", "missing", *view], _described_admin())
        assert result.out == "\nError: Consumer group 'missing' does not exist.\n", view
        assert result.status == 0


def test_describe_rebalancing_group_warns() -> None:
    """A rebalancing group is reported on stderr; a member without partitions and no committed offsets give no
    rows, so no table."""
    admin = FakeAdmin(groups={"r": group("r", ConsumerGroupState.PREPARING_REBALANCE, member("c", []))})
    result = run([*BOOTSTRAP, "--describe", "--group", "r"], admin)
    assert result.err == "\nWarning: Consumer group 'r' is rebalancing.\n"
    assert result.out == ""


def test_describe_all_groups_sorted_by_id() -> None:
    """--all-groups describes every listed group, in group id order."""
    result = run([*BOOTSTRAP, "--describe", "--all-groups"], _described_admin())
    groups = [line.split()[0] for line in result.out.splitlines() if line and not line.startswith("GROUP")]
    assert groups == ["g1", "g1", "g1", "idle"]


def test_describe_members_verbose() -> None:
    """--members lists each member with its partition count, --verbose adds the assignment per topic; the lines
    keep Kafka's trailing column space."""
    admin = _described_admin()
    admin.groups["g1"] = group(
        "g1",
        ConsumerGroupState.STABLE,
        member("c1", [tp("t", 1), tp("b", 2), tp("t", 0)]),
        member("c2", [], client_id="consumer-2"),
    )
    result = run([*BOOTSTRAP, "--describe", "--group", "g1", "--members", "--verbose"], admin)
    assert result.out.splitlines() == [
        "",
        "GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     ASSIGNMENT",
        "g1              c1              /127.0.0.1      consumer-1      3               b(2), t(0,1)",
        "g1              c2              /127.0.0.1      consumer-2      0               -",
    ]
    plain = run([*BOOTSTRAP, "--describe", "--group", "g1", "--members"], admin)
    assert (
        plain.out.splitlines()[1] == "GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     "
    )


def test_describe_members_with_group_instance_id() -> None:
    """A static member adds the GROUP-INSTANCE-ID column (at least 17 wide)."""
    admin = FakeAdmin(groups={"s": group("s", ConsumerGroupState.STABLE, member("c1", [], instance_id="i-1"))})
    result = run([*BOOTSTRAP, "--describe", "--group", "s", "--members"], admin)
    assert result.out.splitlines()[1:] == [
        "GROUP           CONSUMER-ID     GROUP-INSTANCE-ID HOST            CLIENT-ID       #PARTITIONS     ",
        "s               c1              i-1               /127.0.0.1      consumer-1      0               ",
    ]


def test_describe_state() -> None:
    """--state prints the coordinator, the assignor, the state and the member count."""
    result = run([*BOOTSTRAP, "--describe", "--group", "g1", "--state"], _described_admin())
    assert result.out == (
        "\nGROUP                     COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS"
        "\ng1                        localhost:9092 (0)        range                Stable          2\n"
    )


# ---- reset ------------------------------------------------------------------------------------------------------


def _reset_admin() -> FakeAdmin:
    return FakeAdmin(
        groups={"g": group("g", ConsumerGroupState.EMPTY), "busy": group("busy", ConsumerGroupState.STABLE)},
        committed={"g": {tp("t", 0): OffsetAndMetadata(20), tp("u", 0): OffsetAndMetadata(3)}},
        log_start={tp("t", 0): 10, tp("t", 1): 0, tp("u", 0): 0},
        log_end={tp("t", 0): 50, tp("t", 1): 30, tp("u", 0): 5},
        record_times={tp("t", 0): [(1000, 10), (2000, 25), (3000, 49)], tp("t", 1): [(1500, 0)]},
        topics={"t": 2, "u": 1},
    )


def plan(result: Result) -> list[tuple[str, str, int, int]]:
    """The rows of a printed reset plan."""
    rows = []
    for line in result.out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0] != "GROUP":
            rows.append((fields[0], fields[1], int(fields[2]), int(fields[3])))
    return rows


@pytest.mark.parametrize(
    ("scenario", "expected"),
    [
        (["--to-earliest"], [10, 0]),
        (["--to-latest"], [50, 30]),
        (["--to-offset", "40"], [40, 30]),
        (["--to-current"], [20, 30]),
        (["--shift-by", "-15"], None),
        (["--to-datetime", "1970-01-01T00:00:01.600"], [25, 30]),
        (["--to-datetime", "1970-01-01T01:00:01.400+01:00"], [25, 0]),
    ],
)
def test_reset_scenarios_plan_offsets(scenario: list[str], expected: list[int] | None) -> None:
    """Each scenario plans Kafka's offsets for t-0 (committed 20, log 10..50) and t-1 (nothing committed,
    log 0..30): a time after the last record plans the log end; offsets outside the log are moved into it."""
    result = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t", "--dry-run", *scenario], _reset_admin()
    )
    if expected is None:
        assert result.status == 1
        assert first_err_line(result) == (
            "Cannot shift offset for partition t-1 since there is no current committed offset"
        )
        return
    assert result.status == 0, result.err
    assert plan(result) == [("g", "t", 0, expected[0]), ("g", "t", 1, expected[1])]
    assert result.admin.altered == []
    assert result.out.splitlines()[1] == (
        "GROUP                          TOPIC                          PARTITION  NEW-OFFSET     "
    )


def test_reset_clamps_to_the_log_with_warnings(caplog: pytest.LogCaptureFixture) -> None:
    """A requested offset past the log end or before the log start is set to that end, with Kafka's warning."""
    caplog.set_level(logging.WARNING, logger="kafka.admin.ConsumerGroupCommand$")
    high = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t:0", "--to-offset", "99", "--dry-run"],
        _reset_admin(),
    )
    assert plan(high) == [("g", "t", 0, 50)]
    low = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t:0", "--shift-by", "-15", "--dry-run"],
        _reset_admin(),
    )
    assert plan(low) == [("g", "t", 0, 10)]
    assert [r.getMessage() for r in caplog.records] == [
        "New offset (99) is higher than latest offset for topic partition t-0. Value will be set to 50",
        "New offset (5) is lower than earliest offset for topic partition t-0. Value will be set to 10",
    ]


def test_reset_by_duration_uses_the_injected_clock() -> None:
    """--by-duration looks up the offsets at now minus the duration."""
    time = MockTime(start_ms=3500)
    result = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t:0", "--by-duration", "PT1.6S", "--dry-run"],
        _reset_admin(),
        time,
    )
    assert plan(result) == [("g", "t", 0, 25)]


def test_reset_all_topics_uses_committed_partitions() -> None:
    """--all-topics resets the partitions the group has committed offsets for."""
    result = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--all-topics", "--to-latest", "--dry-run"], _reset_admin()
    )
    assert plan(result) == [("g", "t", 0, 50), ("g", "u", 0, 5)]


def test_reset_execute_commits_and_dry_run_warns_by_default() -> None:
    """--execute commits the plan; without --execute or --dry-run nothing is committed and Kafka's warning is
    printed on stderr."""
    admin = _reset_admin()
    default = run([*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t", "--to-earliest"], admin)
    assert default.err.startswith("WARN: No action will be performed as the --execute option is missing.In a future")
    assert admin.altered == []
    executed = run([*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t", "--to-earliest", "--execute"], admin)
    assert executed.err == ""
    assert admin.altered == [("g", {tp("t", 0): OffsetAndMetadata(10), tp("t", 1): OffsetAndMetadata(0)})]


def test_reset_refuses_an_active_group() -> None:
    """A group with members is not reset: Kafka's error, then an empty plan (the header alone)."""
    result = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "busy", "--topic", "t", "--to-earliest", "--execute"], _reset_admin()
    )
    assert result.out.splitlines() == [
        "",
        "Error: Assignments can only be reset if the group 'busy' is inactive, but the current state is Stable.",
        "",
        "GROUP                          TOPIC                          PARTITION  NEW-OFFSET     ",
    ]
    assert result.admin.altered == []


def test_reset_without_scope_or_scenario_is_a_usage_error() -> None:
    """Without --topic/--all-topics, or without a scenario, the reset ends with Kafka's usage message."""
    no_scope = run([*BOOTSTRAP, "--reset-offsets", "--group", "g", "--to-earliest", "--dry-run"], _reset_admin())
    assert first_err_line(no_scope) == "One of the reset scopes should be defined: --all-topics, --topic."
    no_scenario = run([*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t", "--dry-run"], _reset_admin())
    assert first_err_line(no_scenario).startswith(
        "Option '[reset-offsets]' requires one of the following scenarios: HashSet([to-offset], [shift-by], "
    )
    assert no_scenario.status == 1


def test_reset_export_and_import_round_trip(tmp_path: Path) -> None:
    """--export prints the plan as CSV (topic,partition,offset for one group, with the group for several), and
    --from-file executes such a file."""
    admin = _reset_admin()
    exported = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--topic", "t", "--to-earliest", "--dry-run", "--export"], admin
    )
    assert exported.out == "t,0,10\nt,1,0\n\n"
    plan_file = tmp_path / "plan.csv"
    plan_file.write_text("t,0,12\nt,1,99\n")
    imported = run([*BOOTSTRAP, "--reset-offsets", "--group", "g", "--from-file", str(plan_file), "--execute"], admin)
    assert imported.status == 0, imported.err
    assert admin.altered == [("g", {tp("t", 0): OffsetAndMetadata(12), tp("t", 1): OffsetAndMetadata(30)})]
    admin.groups["h"] = group("h", ConsumerGroupState.EMPTY)
    several = run(
        [*BOOTSTRAP, "--reset-offsets", "--group", "g", "--group", "h", "--topic", "u", "--to-latest", "--export"],
        admin,
    )
    assert several.out == "g,u,0,5\nh,u,0,5\n\n"
    admin.groups["planless"] = group("planless", ConsumerGroupState.EMPTY)
    multi_file = tmp_path / "multi.csv"
    multi_file.write_text(several.out)
    only_h = run([*BOOTSTRAP, "--reset-offsets", "--all-groups", "--from-file", str(multi_file), "--dry-run"], admin)
    assert ("h", "u", 0, 5) in plan(only_h)
    assert "Error: No reset plan for group planless found" in only_h.out


def test_reset_to_bad_datetime_fails_the_command() -> None:
    """A date-time that is not `yyyy-MM-ddTHH:mm:ss.SSS[zone]` fails the command with Java's parse message."""
    result = run(
        [
            *BOOTSTRAP,
            "--reset-offsets",
            "--group",
            "g",
            "--topic",
            "t",
            "--to-datetime",
            "2020-13-01T00:00:00.000",
            "--dry-run",
        ],
        _reset_admin(),
    )
    assert result.out == (
        '\nError: Executing consumer group command failed due to Unparseable date: "2020-13-01T00:00:00.000Z"\n'
    )


@pytest.mark.parametrize(
    ("text", "millis"),
    [
        ("1970-01-01T00:00:00.000", 0),
        ("2021-03-04T05:06:07.089", 1614834367089),
        ("2021-03-04T05:06:07.089Z", 1614834367089),
        ("2021-03-04T06:06:07.089+01:00", 1614834367089),
        ("2021-03-04T06:06:07.089+0100", 1614834367089),
        ("2021-03-04T04:06:07.089-01", 1614834367089),
    ],
)
def test_get_date_time(text: str, millis: int) -> None:
    """Utils.getDateTime's formats: UTC without a zone, or Z, +hh:mm, +hhmm, +hh."""
    assert cgc.get_date_time(text) == millis


def test_get_date_time_refuses_other_text() -> None:
    """Text without a `T`, or not matching the format, raises Java's ParseException messages."""
    with pytest.raises(cgc.ParseException, match="does not contain a 'T'"):
        cgc.get_date_time("2021-03-04")
    with pytest.raises(cgc.ParseException, match=re.escape('Unparseable date: "2021-02-30T00:00:00.000Z"')):
        cgc.get_date_time("2021-02-30T00:00:00.000")


@pytest.mark.parametrize(
    ("text", "nanos"),
    [
        ("PT1H", 3600 * 10**9),
        ("P1DT2M", (86400 + 120) * 10**9),
        ("PT0.5S", 5 * 10**8),
        ("-PT-1S", 10**9),
        ("pt10m", 600 * 10**9),
    ],
)
def test_parse_duration(text: str, nanos: int) -> None:
    """java.time.Duration.parse's ISO-8601 forms, in nanoseconds."""
    assert cgc.parse_duration(text) == nanos


@pytest.mark.parametrize("text", ["1H", "PT", "P", "PT1X", ""])
def test_parse_duration_refuses_other_text(text: str) -> None:
    """Anything else raises Java's DateTimeParseException message."""
    with pytest.raises(cgc.DateTimeParseException, match="Text cannot be parsed to a Duration"):
        cgc.parse_duration(text)


# ---- delete ------------------------------------------------------------------------------------------------------


def test_delete_groups_reports_success_and_failures() -> None:
    """All deleted: one success line; some failed: Kafka's error list with the Java exceptions, then the ones
    deleted."""
    admin = FakeAdmin(
        delete_errors={
            "busy": GroupNotEmptyException("The group is not empty."),
            "gone": GroupIdNotFoundException("The group id does not exist."),
        }
    )
    ok = run([*BOOTSTRAP, "--delete", "--group", "a", "--group", "b"], admin)
    assert ok.out == "Deletion of requested consumer groups ('a', 'b') was successful.\n"
    mixed = run([*BOOTSTRAP, "--delete", "--group", "busy", "--group", "c", "--group", "gone"], admin)
    assert mixed.out.splitlines() == [
        "",
        "Error: Deletion of some consumer groups failed:",
        "* Group 'busy' could not be deleted due to: java.util.concurrent.ExecutionException: "
        "org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty.",
        "* Group 'gone' could not be deleted due to: java.util.concurrent.ExecutionException: "
        "org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.",
        "",
        "These consumer groups were deleted successfully: 'c'",
    ]
    assert admin.deleted == ["a", "b", "c"]


def test_delete_offsets_lists_each_partition() -> None:
    """--delete-offsets deletes the named partitions and every partition of a bare topic, and prints a status per
    partition; a topic that does not exist is reported as `Not Provided`."""
    admin = FakeAdmin(topics={"t": 2})
    result = run(
        [*BOOTSTRAP, "--delete-offsets", "--group", "g", "--topic", "t", "--topic", "x:3", "--topic", "nope"], admin
    )
    assert admin.offsets_deleted == [("g", {tp("x", 3), tp("t", 0), tp("t", 1)})]
    assert result.out.splitlines() == [
        "Request succeed for deleting offsets with topic t, x:3, nope group g",
        "",
        "TOPIC                          PARTITION       STATUS         ",
        "nope                           Not Provided    Error: org.apache.kafka.common.errors."
        "UnknownTopicOrPartitionException: This server does not host this topic-partition.",
        "t                              0               Successful     ",
        "t                              1               Successful     ",
        "x                              3               Successful     ",
    ]


def test_delete_offsets_errors() -> None:
    """A partition still subscribed and a group-level failure are reported with Kafka's messages."""
    admin = FakeAdmin(topics={"t": 1}, offset_delete_errors={tp("t", 0): Errors.GROUP_SUBSCRIBED_TO_TOPIC})
    subscribed = run([*BOOTSTRAP, "--delete-offsets", "--group", "g", "--topic", "t"], admin)
    assert subscribed.out.splitlines()[:2] == [
        "",
        "Error: Encounter some partition level error, see the follow-up details:",
    ]
    assert subscribed.out.splitlines()[-1].startswith(
        "t                              0               Error: org.apache.kafka.common.errors."
        "GroupSubscribedToTopicException: "
    )
    admin.offset_delete_group_error = GroupIdNotFoundException("The group id does not exist.")
    missing = run([*BOOTSTRAP, "--delete-offsets", "--group", "g", "--topic", "t"], admin)
    assert missing.out.splitlines()[1] == "Error: 'g' does not exist."


def test_print_offsets_to_reset_without_groups_prints_nothing() -> None:
    """An empty plan prints no header."""
    out = io.StringIO()
    cgc.print_offsets_to_reset({}, out)
    assert out.getvalue() == ""
