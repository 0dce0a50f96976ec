"""Port of tools/src/main/java/org/apache/kafka/tools/TransactionsCommand.java (Kafka 3.7).

kafka-transactions.sh: looks at the transactional state of the cluster through the admin client and recovers
from hanging transactions. Its commands: `list` (every coordinator's transactions), `describe` (one
transactional id), `describe-producers` (the active producers of a partition), `abort` (writes an abort marker
for an open transaction on a partition) and `find-hanging` (open transactions on partitions that their
coordinator no longer knows of, or that have outlived the longest transaction timeout).

The command line is parsed as argparse4j parses Kafka's (kafka.utils.argparse4j's stand-in); the tables are
ToolsUtils.prettyPrintTable's.

# PORT: Java's Exit.exit inside printErrorAndExit becomes an exception that `execute` turns into the exit status;
the admin client is closed before the tool returns (the JVM simply exits). Where Java iterates a HashMap or
HashSet (the brokers of `list`, the partitions of `describe`), the output is sorted by broker id and partition.
"""

from __future__ import annotations

import abc
import argparse
import logging
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO, TypeVar

from kafka.clients.admin.abort_transaction_spec import AbortTransactionSpec
from kafka.clients.admin.admin import Admin
from kafka.clients.admin.admin_client_config import AdminClientConfig
from kafka.clients.admin.describe_producers_options import DescribeProducersOptions
from kafka.clients.admin.describe_producers_result import PartitionProducerState
from kafka.clients.admin.list_topics_options import ListTopicsOptions
from kafka.clients.admin.list_transactions_options import ListTransactionsOptions
from kafka.clients.admin.producer_state import ProducerState
from kafka.clients.admin.transaction_description import TransactionDescription
from kafka.common.errors import TransactionalIdNotFoundException
from kafka.common.kafka_future import ExecutionException
from kafka.common.requests.api_error import exception_message
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_info import TopicPartitionInfo
from kafka.common.utils.app_info_parser import get_version
from kafka.common.utils.time import Time
from kafka.common.utils.utils import load_props
from kafka.tools.tools_utils import configure_tool_logging, pretty_print_table, silence_stdout
from kafka.utils.argparse4j import (
    ArgumentParser,
    ArgumentParserException,
    ArgumentParserExit,
    HelpFormatter,
    java_integer,
    java_long,
    java_short,
)

__all__ = [
    "AbortTransactionCommand",
    "DescribeProducersCommand",
    "DescribeTransactionsCommand",
    "FindHangingTransactionsCommand",
    "ListTransactionsCommand",
    "TransactionsCommand",
    "build_base_parser",
    "execute",
    "main",
]

log = logging.getLogger("org.apache.kafka.tools.TransactionsCommand")

PROG = "kafka-transactions.sh"

T = TypeVar("T")


class _ToolExit(Exception):
    """Exit.exit: ends the tool with `status`."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Streams:
    """Where the running command prints its errors (System.err)."""

    err: TextIO = sys.stderr


def _java_message(t: BaseException | None) -> str:
    """Throwable.getMessage(), with Java's `null` for none."""
    message = None if t is None else exception_message(t)
    return "null" if message is None else message


def _java_optional(value: object | None) -> str:
    return "Optional.empty" if value is None else f"Optional[{value}]"


def print_error_and_exit(message: str, t: BaseException | None = None, *, with_cause: bool = False) -> NoReturn:
    """printErrorAndExit: the message (with the cause's message, when there is a cause) on stderr, then exit 1."""
    if with_cause:
        log.debug(message, exc_info=t)
        message = f"{message}: {_java_message(t)}. Enable debug logging for additional detail."
    print(message, file=_Streams.err)
    raise _ToolExit(1)


def _cause(e: ExecutionException) -> BaseException:
    return e.cause


class TransactionsCommand(abc.ABC):
    """One command of the tool: its name, its arguments, and what it does with the admin client."""

    def __init__(self, time: Time) -> None:
        self.time = time

    @abc.abstractmethod
    def name(self) -> str:
        """The command's name on the command line (`describe-producers`)."""

    @abc.abstractmethod
    def add_subparser(self, subparsers: Any, out: TextIO) -> None:
        """Adds the command and its arguments to the tool's subparsers."""

    @abc.abstractmethod
    def execute(self, admin: Admin, ns: argparse.Namespace, out: TextIO) -> None:
        """Runs the command."""


def _add_parser(subparsers: Any, out: TextIO, name: str, **kwargs: Any) -> ArgumentParser:
    parser: ArgumentParser = subparsers.add_parser(name, out=out, formatter_class=HelpFormatter, **kwargs)
    parser._optionals.title = "optional arguments"
    return parser


class AbortTransactionCommand(TransactionsCommand):
    def name(self) -> str:
        return "abort"

    def add_subparser(self, subparsers: Any, out: TextIO) -> None:
        subparser = _add_parser(
            subparsers, out, self.name(), help="abort a hanging transaction (requires administrative privileges)"
        )
        subparser.add_argument("--topic", help="topic name", type=str, required=True)
        subparser.add_argument("--partition", help="partition number", type=java_integer, required=True)
        new_broker_group = subparser.add_argument_group(
            "Brokers on versions 3.0 and above",
            "For newer brokers, only the start offset of the transaction to be aborted is required",
        )
        new_broker_group.add_argument("--start-offset", help="start offset of the transaction to abort", type=java_long)
        older_broker_group = subparser.add_argument_group(
            "Brokers on versions older than 3.0", "For older brokers, you must provide all of these arguments"
        )
        older_broker_group.add_argument("--producer-id", help="producer id", type=java_long)
        older_broker_group.add_argument("--producer-epoch", help="producer epoch", type=java_short)
        older_broker_group.add_argument("--coordinator-epoch", help="coordinator epoch", type=java_integer)

    def _build_abort_spec(
        self, admin: Admin, topic_partition: TopicPartition, start_offset: int
    ) -> AbortTransactionSpec:
        try:
            result = admin.describe_producers([topic_partition]).partition_result(topic_partition).get()
        except ExecutionException as e:
            print_error_and_exit(
                f"Failed to validate producer state for partition {topic_partition}", _cause(e), with_cause=True
            )
        found = next(
            (p for p in result.active_producers if p.current_transaction_start_offset == start_offset),
            None,
        )
        if found is None:
            print_error_and_exit(
                f"Could not find any open transactions starting at offset {start_offset} on partition {topic_partition}"
            )
        return AbortTransactionSpec(
            topic_partition,
            found.producer_id,
            found.producer_epoch,
            0 if found.coordinator_epoch is None else found.coordinator_epoch,
        )

    @staticmethod
    def _abort_transaction(admin: Admin, abort_spec: AbortTransactionSpec) -> None:
        try:
            admin.abort_transaction(abort_spec).all().get()
        except ExecutionException as e:
            print_error_and_exit(f"Failed to abort transaction {abort_spec}", _cause(e), with_cause=True)

    def execute(self, admin: Admin, ns: argparse.Namespace, out: TextIO) -> None:
        topic_partition = TopicPartition(ns.topic, ns.partition)
        start_offset: int | None = ns.start_offset
        producer_id: int | None = ns.producer_id
        if start_offset is None and producer_id is None:
            print_error_and_exit(
                "The transaction to abort must be identified either with --start-offset (for brokers on 3.0 or "
                "above) or with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)"
            )
        if start_offset is None:
            assert producer_id is not None
            producer_epoch: int | None = ns.producer_epoch
            if producer_epoch is None:
                print_error_and_exit("Missing required argument --producer-epoch")
            coordinator_epoch: int | None = ns.coordinator_epoch
            if coordinator_epoch is None:
                print_error_and_exit("Missing required argument --coordinator-epoch")
            # A transaction that hung before its producer's first marker shows coordinator epoch -1 in
            # DescribeProducers; 0 is then the safe choice (no leader epoch is below it).
            coordinator_epoch = max(coordinator_epoch, 0)
            abort_spec = AbortTransactionSpec(topic_partition, producer_id, producer_epoch, coordinator_epoch)
        else:
            abort_spec = self._build_abort_spec(admin, topic_partition, start_offset)
        self._abort_transaction(admin, abort_spec)


class DescribeProducersCommand(TransactionsCommand):
    HEADERS = (
        "ProducerId",
        "ProducerEpoch",
        "LatestCoordinatorEpoch",
        "LastSequence",
        "LastTimestamp",
        "CurrentTransactionStartOffset",
    )

    def name(self) -> str:
        return "describe-producers"

    def add_subparser(self, subparsers: Any, out: TextIO) -> None:
        subparser = _add_parser(
            subparsers, out, self.name(), help="describe the states of active producers for a topic partition"
        )
        subparser.add_argument(
            "--broker-id",
            help="optional broker id to describe the producer state on a specific replica",
            type=java_integer,
            required=False,
        )
        subparser.add_argument("--topic", help="topic name", type=str, required=True)
        subparser.add_argument("--partition", help="partition number", type=java_integer, required=True)

    def execute(self, admin: Admin, ns: argparse.Namespace, out: TextIO) -> None:
        options = DescribeProducersOptions()
        if ns.broker_id is not None:
            options.broker_id(ns.broker_id)
        topic_partition = TopicPartition(ns.topic, ns.partition)
        try:
            result = admin.describe_producers([topic_partition], options).partition_result(topic_partition).get()
        except ExecutionException as e:
            broker_id = options.broker_id()
            broker_clause = "leader" if broker_id is None else f"broker {broker_id}"
            print_error_and_exit(
                f"Failed to describe producers for partition {topic_partition} on {broker_clause}",
                _cause(e),
                with_cause=True,
            )
        rows = [
            [
                str(p.producer_id),
                str(p.producer_epoch),
                str(-1 if p.coordinator_epoch is None else p.coordinator_epoch),
                str(p.last_sequence),
                str(p.last_timestamp),
                "None" if p.current_transaction_start_offset is None else str(p.current_transaction_start_offset),
            ]
            for p in result.active_producers
        ]
        pretty_print_table(self.HEADERS, rows, out)


class DescribeTransactionsCommand(TransactionsCommand):
    HEADERS = (
        "CoordinatorId",
        "TransactionalId",
        "ProducerId",
        "ProducerEpoch",
        "TransactionState",
        "TransactionTimeoutMs",
        "CurrentTransactionStartTimeMs",
        "TransactionDurationMs",
        "TopicPartitions",
    )

    def name(self) -> str:
        return "describe"

    def add_subparser(self, subparsers: Any, out: TextIO) -> None:
        subparser = _add_parser(
            subparsers,
            out,
            self.name(),
            description="Describe the state of an active transactional-id.",
            help="describe the state of an active transactional-id",
        )
        subparser.add_argument("--transactional-id", help="transactional id", type=str, required=True)

    def execute(self, admin: Admin, ns: argparse.Namespace, out: TextIO) -> None:
        transactional_id: str = ns.transactional_id
        try:
            result = admin.describe_transactions([transactional_id]).description(transactional_id).get()
        except ExecutionException as e:
            print_error_and_exit(
                f"Failed to describe transaction state of transactional-id `{transactional_id}`",
                _cause(e),
                with_cause=True,
            )
        if result.transaction_start_time_ms is not None:
            start_ms = result.transaction_start_time_ms
            start_column = str(start_ms)
            duration_column = str(self.time.milliseconds() - start_ms)
        else:
            start_column = "None"
            duration_column = "None"
        row = [
            str(result.coordinator_id),
            transactional_id,
            str(result.producer_id),
            str(result.producer_epoch),
            str(result.state),
            str(result.transaction_timeout_ms),
            start_column,
            duration_column,
            ",".join(str(tp) for tp in sorted(result.topic_partitions, key=lambda tp: (tp.topic, tp.partition))),
        ]
        pretty_print_table(self.HEADERS, [row], out)


class ListTransactionsCommand(TransactionsCommand):
    HEADERS = ("TransactionalId", "Coordinator", "ProducerId", "TransactionState")

    def name(self) -> str:
        return "list"

    def add_subparser(self, subparsers: Any, out: TextIO) -> None:
        _add_parser(subparsers, out, self.name(), help="list transactions")

    def execute(self, admin: Admin, ns: argparse.Namespace, out: TextIO) -> None:
        try:
            result = admin.list_transactions(ListTransactionsOptions()).all_by_broker_id().get()
        except ExecutionException as e:
            print_error_and_exit("Failed to list transactions", _cause(e), with_cause=True)
        rows = [
            [listing.transactional_id, str(broker_id), str(listing.producer_id), str(listing.state)]
            for broker_id, listings in sorted(result.items())
            for listing in listings
        ]
        pretty_print_table(self.HEADERS, rows, out)


@dataclass(frozen=True, slots=True)
class _OpenTransaction:
    topic_partition: TopicPartition
    producer_state: ProducerState


def _consume_in_batches(items: Sequence[T], batch_size: int, consumer: Callable[[Sequence[T]], None]) -> None:
    for start in range(0, len(items), batch_size):
        consumer(items[start : start + batch_size])


def _java_millis_to_minutes(ms: int) -> int:
    """TimeUnit.MILLISECONDS.toMinutes: truncated toward zero."""
    minutes = abs(ms) // 60_000
    return minutes if ms >= 0 else -minutes


class FindHangingTransactionsCommand(TransactionsCommand):
    MAX_BATCH_SIZE = 500

    HEADERS = (
        "Topic",
        "Partition",
        "ProducerId",
        "ProducerEpoch",
        "CoordinatorEpoch",
        "StartOffset",
        "LastTimestamp",
        "Duration(min)",
    )

    def name(self) -> str:
        return "find-hanging"

    def add_subparser(self, subparsers: Any, out: TextIO) -> None:
        subparser = _add_parser(subparsers, out, self.name(), help="find hanging transactions")
        subparser.add_argument(
            "--broker-id", help="broker id to search for hanging transactions", type=java_integer, required=False
        )
        subparser.add_argument(
            "--max-transaction-timeout",
            help="maximum transaction timeout in minutes to limit the scope of the search (15 minutes by default)",
            type=java_integer,
            default=15,
            required=False,
        )
        subparser.add_argument(
            "--topic",
            help="topic name to limit search to (required if --partition is specified)",
            type=str,
            required=False,
        )
        subparser.add_argument("--partition", help="partition number", type=java_integer, required=False)

    def execute(self, admin: Admin, ns: argparse.Namespace, out: TextIO) -> None:
        broker_id: int | None = ns.broker_id
        topic: str | None = ns.topic
        if topic is None and broker_id is None:
            print_error_and_exit(
                "The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search"
            )
        partition: int | None = ns.partition
        if partition is not None and topic is None:
            print_error_and_exit("The --partition argument requires --topic to be provided")
        max_transaction_timeout_ms = ns.max_transaction_timeout * 60_000
        topic_partitions = self._collect_topic_partitions_to_search(admin, topic, partition, broker_id)
        candidates = self._collect_candidate_open_transactions(
            admin, broker_id, max_transaction_timeout_ms, topic_partitions
        )
        if not candidates:
            self._print_hanging_transactions([], out)
            return
        open_transactions_by_producer_id = self._group_by_producer_id(candidates)
        transactional_ids = self._lookup_transactional_ids(admin, set(open_transactions_by_producer_id))
        descriptions = self._describe_transactions(admin, list(transactional_ids.values()))
        hanging = self._filter_hanging_transactions(open_transactions_by_producer_id, transactional_ids, descriptions)
        self._print_hanging_transactions(hanging, out)

    def _collect_topic_partitions_to_search(
        self, admin: Admin, topic: str | None, partition: int | None, broker_id: int | None
    ) -> list[TopicPartition]:
        if topic is not None:
            if partition is not None:
                return [TopicPartition(topic, partition)]
            topics = [topic]
        else:
            topics = self._list_topics(admin)
        return self._find_topic_partitions(admin, broker_id, topics)

    @staticmethod
    def _filter_hanging_transactions(
        open_transactions_by_producer_id: Mapping[int, list[_OpenTransaction]],
        transactional_ids: Mapping[int, str],
        descriptions: Mapping[str, TransactionDescription | None],
    ) -> list[_OpenTransaction]:
        hanging: list[_OpenTransaction] = []
        for producer_id, open_transactions in open_transactions_by_producer_id.items():
            transactional_id = transactional_ids.get(producer_id)
            if transactional_id is None:
                # No coordinator knows the producer of this open transaction: nothing will ever end it.
                hanging.extend(open_transactions)
                continue
            description = descriptions.get(transactional_id)
            if description is None:
                hanging.extend(open_transactions)
                continue
            # The coordinator lists the partitions of the ongoing transaction, and those still waiting for a
            # marker while it commits or aborts; a partition outside them will get no marker from it.
            for open_transaction in open_transactions:
                if open_transaction.topic_partition not in description.topic_partitions:
                    hanging.append(open_transaction)
        return hanging

    def _print_hanging_transactions(self, hanging_transactions: Iterable[_OpenTransaction], out: TextIO) -> None:
        current_time_ms = self.time.milliseconds()
        rows: list[list[str]] = []
        for transaction in hanging_transactions:
            state = transaction.producer_state
            duration_minutes = _java_millis_to_minutes(current_time_ms - state.last_timestamp)
            rows.append(
                [
                    transaction.topic_partition.topic,
                    str(transaction.topic_partition.partition),
                    str(state.producer_id),
                    str(state.producer_epoch),
                    str(-1 if state.coordinator_epoch is None else state.coordinator_epoch),
                    str(
                        -1 if state.current_transaction_start_offset is None else state.current_transaction_start_offset
                    ),
                    str(state.last_timestamp),
                    str(duration_minutes),
                ]
            )
        pretty_print_table(self.HEADERS, rows, out)

    @staticmethod
    def _describe_transactions(
        admin: Admin, transactional_ids: Collection[str]
    ) -> dict[str, TransactionDescription | None]:
        try:
            result = admin.describe_transactions(set(transactional_ids))
            descriptions: dict[str, TransactionDescription | None] = {}
            for transactional_id in transactional_ids:
                try:
                    descriptions[transactional_id] = result.description(transactional_id).get()
                except ExecutionException as e:
                    if isinstance(e.cause, TransactionalIdNotFoundException):
                        descriptions[transactional_id] = None
                    else:
                        raise
            return descriptions
        except ExecutionException as e:
            print_error_and_exit(
                f"Failed to describe {len(transactional_ids)} transactions", _cause(e), with_cause=True
            )

    @staticmethod
    def _group_by_producer_id(open_transactions: Iterable[_OpenTransaction]) -> dict[int, list[_OpenTransaction]]:
        res: dict[int, list[_OpenTransaction]] = {}
        for transaction in open_transactions:
            res.setdefault(transaction.producer_state.producer_id, []).append(transaction)
        return res

    @staticmethod
    def _list_topics(admin: Admin) -> list[str]:
        try:
            return sorted(admin.list_topics(ListTopicsOptions().list_internal(True)).names().get())
        except ExecutionException as e:
            print_error_and_exit("Failed to list topics", _cause(e), with_cause=True)

    def _find_topic_partitions(self, admin: Admin, broker_id: int | None, topics: list[str]) -> list[TopicPartition]:
        topic_partitions: list[TopicPartition] = []
        _consume_in_batches(
            topics,
            self.MAX_BATCH_SIZE,
            lambda batch: self._find_topic_partitions_of(admin, broker_id, batch, topic_partitions),
        )
        return topic_partitions

    @staticmethod
    def _find_topic_partitions_of(
        admin: Admin, broker_id: int | None, topics: Sequence[str], topic_partitions: list[TopicPartition]
    ) -> None:
        try:
            descriptions = admin.describe_topics(list(topics)).all_topic_names().get()
        except ExecutionException as e:
            print_error_and_exit(f"Failed to describe {len(topics)} topics", _cause(e), with_cause=True)
        for topic, description in descriptions.items():
            for partition_info in description.partitions:
                if broker_id is None or _has_replica(broker_id, partition_info):
                    topic_partitions.append(TopicPartition(topic, partition_info.partition))

    def _collect_candidate_open_transactions(
        self,
        admin: Admin,
        broker_id: int | None,
        max_transaction_timeout_ms: int,
        topic_partitions: list[TopicPartition],
    ) -> list[_OpenTransaction]:
        # Every partition of the broker is asked about, in batches so that no request is huge.
        candidates: list[_OpenTransaction] = []
        _consume_in_batches(
            topic_partitions,
            self.MAX_BATCH_SIZE,
            lambda batch: self._collect_candidates_of(admin, broker_id, max_transaction_timeout_ms, batch, candidates),
        )
        return candidates

    def _collect_candidates_of(
        self,
        admin: Admin,
        broker_id: int | None,
        max_transaction_timeout_ms: int,
        topic_partitions: Sequence[TopicPartition],
        candidates: list[_OpenTransaction],
    ) -> None:
        try:
            options = DescribeProducersOptions()
            if broker_id is not None:
                options.broker_id(broker_id)
            producers_by_partition: dict[TopicPartition, PartitionProducerState] = (
                admin.describe_producers(list(topic_partitions), options).all().get()
            )
        except ExecutionException as e:
            print_error_and_exit(
                f"Failed to describe producers for {len(topic_partitions)} partitions on broker "
                f"{_java_optional(broker_id)}",
                _cause(e),
                with_cause=True,
            )
        current_time_ms = self.time.milliseconds()
        for topic_partition, producer_states in producers_by_partition.items():
            for active_producer in producer_states.active_producers:
                if active_producer.current_transaction_start_offset is not None:
                    transaction_duration_ms = current_time_ms - active_producer.last_timestamp
                    if transaction_duration_ms > max_transaction_timeout_ms:
                        candidates.append(_OpenTransaction(topic_partition, active_producer))

    @staticmethod
    def _lookup_transactional_ids(admin: Admin, producer_ids: set[int]) -> dict[int, str]:
        try:
            listings = admin.list_transactions(ListTransactionsOptions().filter_producer_ids(producer_ids)).all().get()
        except ExecutionException as e:
            print_error_and_exit(
                f"Failed to list transactions for {len(producer_ids)} producers", _cause(e), with_cause=True
            )
        transactional_id_map: dict[int, str] = {}
        for listing in listings:
            if listing.producer_id not in producer_ids:
                log.debug(f"Received transaction listing {listing} which has a producerId which was not requested")
            else:
                transactional_id_map[listing.producer_id] = listing.transactional_id
        return transactional_id_map


def _has_replica(broker_id: int, partition_info: TopicPartitionInfo) -> bool:
    return any(node.id == broker_id for node in partition_info.replicas)


def build_admin_client(ns: argparse.Namespace) -> Admin:
    """An admin client of the --command-config properties, with --bootstrap-server."""
    config_file: str | None = ns.command_config
    if config_file is None:
        properties: dict[str, Any] = {}
    else:
        try:
            properties = dict(load_props(config_file))
        except OSError as e:
            print_error_and_exit("Failed to load admin client properties", e, with_cause=True)
    properties[AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG] = ns.bootstrap_server
    return Admin.create(properties)


class _PrintVersionAndExitAction(argparse.Action):
    """PrintVersionAndExitAction: the version and commit id, then exit 0."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, *args: Any) -> None:
        # PORT: there is no git commit id in the package metadata; Kafka prints "unknown" when it has none.
        parser.exit(0, f"{get_version()} (Commit:unknown)\n")


def build_base_parser(out: TextIO) -> ArgumentParser:
    """The tool's parser without its commands."""
    parser = ArgumentParser(
        out,
        prog=PROG,
        description="This tool is used to analyze the transactional state of producers in the cluster. It can be "
        "used to detect and recover from hanging transactions.",
        formatter_class=HelpFormatter,
    )
    parser._optionals.title = "optional arguments"
    parser.add_argument(
        "-v",
        "--version",
        action=_PrintVersionAndExitAction,
        help="show the version of this Kafka distribution and exit",
    )
    parser.add_argument(
        "--command-config",
        help="property file containing configs to be passed to admin client",
        type=str,
        metavar="FILE",
        required=False,
    )
    parser.add_argument(
        "--bootstrap-server",
        help="hostname and port for the broker to connect to, in the form `host:port`  (multiple comma-separated "
        "entries can be given)",
        type=str,
        metavar="host:port",
        required=True,
    )
    return parser


def execute(
    args: Sequence[str],
    admin_supplier: Callable[[argparse.Namespace], Admin],
    out: TextIO,
    time: Time,
    err: TextIO | None = None,
) -> int:
    """Parses `args`, runs the command with an admin client from `admin_supplier`; returns the exit status."""
    _Streams.err = sys.stderr if err is None else err
    commands: list[TransactionsCommand] = [
        ListTransactionsCommand(time),
        DescribeTransactionsCommand(time),
        DescribeProducersCommand(time),
        AbortTransactionCommand(time),
        FindHangingTransactionsCommand(time),
    ]
    parser = build_base_parser(out)
    subparsers = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND", required=True)
    for command in commands:
        command.add_subparser(subparsers, out)
    try:
        ns = parser.parse_args(list(args))
    except ArgumentParserExit as e:
        return e.status
    except ArgumentParserException as e:
        parser.handle_error(e, _Streams.err)
        return 1
    admin: Admin | None = None
    try:
        admin = admin_supplier(ns)
        command_name: str = ns.command
        chosen = next((c for c in commands if c.name() == command_name), None)
        if chosen is None:
            print_error_and_exit(f"Unexpected command {command_name}")
        chosen.execute(admin, ns, out)
        return 0
    except _ToolExit as e:
        return e.status
    finally:
        if admin is not None:
            admin.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-transactions.sh (through kafka-run-class.sh); returns the exit status."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    try:
        status = execute(args, build_admin_client, sys.stdout, Time.SYSTEM)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 0
