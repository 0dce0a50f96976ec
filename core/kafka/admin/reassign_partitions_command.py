"""Port of core/src/main/scala/kafka/admin/ReassignPartitionsCommand.scala (Kafka 2.8).

`kafka-reassign-partitions.sh` moves partitions between brokers (and replicas between the log directories of a
broker). One action per run:

- `--generate --topics-to-move-json-file F --broker-list 0,1,2`: prints the current assignment of the topics and
  a proposal spreading them over the brokers listed (AdminUtils.assignReplicasToBrokers; nothing changes);
- `--execute --reassignment-json-file F [--throttle B] [--replica-alter-log-dirs-throttle B] [--additional]`:
  prints the current assignment (to keep for a rollback), sets the throttles asked for and starts the
  reassignments (AlterPartitionReassignments through the admin client);
- `--verify --reassignment-json-file F [--preserve-throttles]`: prints where each reassignment stands and, once
  none is in progress anywhere, removes the throttles;
- `--cancel --reassignment-json-file F [--preserve-throttles]`: cancels the reassignments of the partitions in
  the file that are still running, then removes the throttles;
- `--list`: the ongoing reassignments.

With `--bootstrap-server` the tool works through the admin client (Admin.create; tests hand in a fake one through
`admin_factory`). 2.8 still takes the deprecated `--zookeeper` for `--generate`, `--execute` and `--verify`, which
then read and write ZooKeeper directly (`/admin/reassign_partitions`, the config znodes); so does this port.

# PORT: where the JVM prints a stack trace (after "Error: ..."), the lines naming the exception and its causes are
printed, without Java frames. A command line jopt-simple refuses (an unknown option, a throttle that is not a
number) gets its message and the help with status 1, as the other tools of this project do. The message of a JSON
file that does not parse is Python's description of the error with Jackson's position suffix, not Jackson's own
wording. Moving replicas between log directories needs the admin client's alterReplicaLogDirs, which this project
does not have yet: a file naming log directories other than "any" fails with that call's
UnsupportedOperationException ("Error: ...", status 1).
"""

from __future__ import annotations

import sys
import time as _time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from kafka.admin._tool_support import (
    AdminCommandFailedException,
    AdminFactory,
    JsonMappingException,
    create_admin_client,
    json_array,
    json_field,
    json_object,
    json_to_int,
    json_to_string,
    load_command_config,
    read_file_as_string,
)
from kafka.admin.admin_utils import AdminOperationException, BrokerMetadata, RackAwareMode, assign_replicas_to_brokers
from kafka.clients.admin.alter_config_op import AlterConfigOp, OpType
from kafka.clients.admin.config_entry import ConfigEntry
from kafka.clients.admin.new_partition_reassignment import NewPartitionReassignment
from kafka.common.config.config_resource import ConfigResource
from kafka.common.errors import KafkaException, ReplicaNotAvailableException, UnknownTopicOrPartitionException
from kafka.common.kafka_future import ExecutionException
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_replica import TopicPartitionReplica
from kafka.common.utils.utils import java_message, parse_int
from kafka.log.log_config import LogConfig
from kafka.server.config_handler import DynamicConfig
from kafka.tools.tools_utils import exception_lines, run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    check_required_args,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.zk import jvm_json
from kafka.zk.zk_data import ConfigType

__all__ = [
    "ReassignPartitionsCommandOptions",
    "TerseReassignmentFailureException",
    "main",
    "parse_partition_reassignment_data",
    "run_command",
]

ANY_LOG_DIR = "any"
HELP_TEXT = "This tool helps to move topic partitions between replicas."
# The version of the reassignment and topics JSON files when they do not say.
EARLIEST_VERSION = 1
EARLIEST_TOPICS_JSON_VERSION = 1

BROKER_LEVEL_LEADER_THROTTLE = DynamicConfig.Broker.LEADER_REPLICATION_THROTTLED_RATE_PROP
BROKER_LEVEL_FOLLOWER_THROTTLE = DynamicConfig.Broker.FOLLOWER_REPLICATION_THROTTLED_RATE_PROP
BROKER_LEVEL_LOG_DIR_THROTTLE = DynamicConfig.Broker.REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND_PROP
BROKER_LEVEL_THROTTLES = (BROKER_LEVEL_LEADER_THROTTLE, BROKER_LEVEL_FOLLOWER_THROTTLE, BROKER_LEVEL_LOG_DIR_THROTTLE)
TOPIC_LEVEL_LEADER_THROTTLE = LogConfig.LEADER_REPLICATION_THROTTLED_REPLICAS_PROP
TOPIC_LEVEL_FOLLOWER_THROTTLE = LogConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS_PROP
TOPIC_LEVEL_THROTTLES = (TOPIC_LEVEL_LEADER_THROTTLE, TOPIC_LEVEL_FOLLOWER_THROTTLE)

CANNOT_EXECUTE_BECAUSE_OF_EXISTING_MESSAGE = (
    "Cannot execute because there is an existing partition assignment.  Use --additional to override this and "
    "create a new partition assignment in addition to the existing one. The --additional flag can also be used "
    "to change the throttle by resubmitting the current reassignment."
)
YOU_MUST_RUN_VERIFY_PERIODICALLY_MESSAGE = (
    "Warning: You must run --verify periodically, until the reassignment completes, to ensure the throttle is removed."
)

# The time Kafka's tool gives its ZooKeeper client to connect, and its session timeout.
_ZK_TIMEOUT_MS = 30000

# A ZooKeeper client factory for `--zookeeper` (the connect string in, a KafkaZkClient out); tests may pass one.
ZkClientFactory = Callable[[str], Any]


class TerseReassignmentFailureException(KafkaException):
    """The command failed; only the message is printed, no stack trace."""

    JAVA_CLASS_NAME = "kafka.admin.ReassignPartitionsCommand$TerseReassignmentFailureException"


@dataclass(slots=True)
class PartitionMove:
    """The source and destination brokers of one partition's move (they may overlap)."""

    sources: set[int]
    destinations: set[int]


# topic -> partition -> move
MoveMap = dict[str, dict[int, PartitionMove]]


@dataclass(frozen=True, slots=True)
class PartitionReassignmentState:
    """Where a partition's reassignment stands: its replicas now, the target, and whether it is done."""

    current_replicas: Sequence[int]
    target_replicas: Sequence[int]
    done: bool


# -- the states of a replica's move between log directories ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class MissingReplicaMoveState:
    """The broker has no such replica."""

    target_log_dir: str
    done: bool = field(default=False, init=False)


@dataclass(frozen=True, slots=True)
class MissingLogDirMoveState:
    """The replica is in no live log directory of the broker."""

    target_log_dir: str
    done: bool = field(default=False, init=False)


@dataclass(frozen=True, slots=True)
class ActiveMoveState:
    """The replica is being moved (to `future_log_dir`)."""

    current_log_dir: str
    target_log_dir: str
    future_log_dir: str
    done: bool = field(default=False, init=False)


@dataclass(frozen=True, slots=True)
class CancelledMoveState:
    """No move runs, but the replica is not in the target directory."""

    current_log_dir: str
    target_log_dir: str
    done: bool = field(default=True, init=False)


@dataclass(frozen=True, slots=True)
class CompletedMoveState:
    """The replica is in the target directory."""

    target_log_dir: str
    done: bool = field(default=True, init=False)


LogDirMoveState = (
    MissingReplicaMoveState | MissingLogDirMoveState | ActiveMoveState | CancelledMoveState | CompletedMoveState
)


@dataclass(frozen=True, slots=True)
class VerifyAssignmentResult:
    """What --verify found (for tests)."""

    part_states: Mapping[TopicPartition, PartitionReassignmentState]
    parts_ongoing: bool = False
    move_states: Mapping[TopicPartitionReplica, LogDirMoveState] = field(default_factory=dict)
    moves_ongoing: bool = False


# -- entry points ------------------------------------------------------------------------------------------------


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
    zk_client_factory: ZkClientFactory | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    parsed: list[ReassignPartitionsCommandOptions | None] = []

    def parse() -> int:
        opts = validate_and_parse_args(args, out)
        parsed.append(opts)
        return 0

    status = run_reporting_errors(parse, err, lambda: ReassignPartitionsCommandOptions([]).parser)
    if status != 0:
        return status
    opts = parsed[0]
    if opts is None:  # --version
        return 0
    return _run(opts, out, admin_factory, zk_client_factory)


def _run(
    opts: ReassignPartitionsCommandOptions,
    out: TextIO,
    admin_factory: AdminFactory | None,
    zk_client_factory: ZkClientFactory | None,
) -> int:
    to_close: Any = None
    failed = True
    options = opts.options
    try:
        if options.has(opts.bootstrap_server_opt):
            if options.has(opts.zk_connect_opt):
                print(
                    "Warning: ignoring deprecated --zookeeper option because --bootstrap-server was specified.  "
                    "The --zookeeper option will be removed in a future version of Kafka.",
                    file=out,
                )
            props = load_command_config(
                options.value_of(opts.command_config_opt) if options.has(opts.command_config_opt) else None
            )
            props["bootstrap.servers"] = options.value_of(opts.bootstrap_server_opt)
            props.setdefault("client.id", "reassign-partitions-tool")
            admin_client = create_admin_client(props, admin_factory)
            to_close = admin_client
            _handle_action(admin_client, opts, out)
        else:
            print("Warning: --zookeeper is deprecated, and will be removed in a future version of Kafka.", file=out)
            zk_client = _create_zk_client(options.value_of(opts.zk_connect_opt), zk_client_factory)
            to_close = zk_client
            _handle_zk_action(zk_client, opts, out)
        failed = False
    except TerseReassignmentFailureException as e:
        print(str(e), file=out)
    except Exception as e:
        print("Error: " + java_message(e), file=out)
        print("\n".join(exception_lines(e)), file=out)
    finally:
        if to_close is not None:
            to_close.close()
    return 1 if failed else 0


def _create_zk_client(connect: str, zk_client_factory: ZkClientFactory | None) -> Any:
    if zk_client_factory is not None:
        return zk_client_factory(connect)
    from kafka.common.utils.time import Time
    from kafka.zk.kafka_zk_client import KafkaZkClient

    return KafkaZkClient.apply(connect, False, _ZK_TIMEOUT_MS, _ZK_TIMEOUT_MS, 2**31 - 1, Time.SYSTEM)


def _handle_action(admin_client: Any, opts: ReassignPartitionsCommandOptions, out: TextIO) -> None:
    options = opts.options
    if options.has(opts.verify_opt):
        verify_assignment(
            admin_client,
            read_file_as_string(options.value_of(opts.reassignment_json_file_opt)),
            options.has(opts.preserve_throttles_opt),
            out,
        )
    elif options.has(opts.generate_opt):
        generate_assignment(
            admin_client,
            read_file_as_string(options.value_of(opts.topics_to_move_json_file_opt)),
            options.value_of(opts.broker_list_opt),
            not options.has(opts.disable_rack_aware),
            out,
        )
    elif options.has(opts.execute_opt):
        execute_assignment(
            admin_client,
            options.has(opts.additional_opt),
            read_file_as_string(options.value_of(opts.reassignment_json_file_opt)),
            options.value_of(opts.inter_broker_throttle_opt),
            options.value_of(opts.replica_alter_log_dirs_throttle_opt),
            options.value_of(opts.timeout_opt),
            out,
        )
    elif options.has(opts.cancel_opt):
        cancel_assignment(
            admin_client,
            read_file_as_string(options.value_of(opts.reassignment_json_file_opt)),
            options.has(opts.preserve_throttles_opt),
            options.value_of(opts.timeout_opt),
            out,
        )
    elif options.has(opts.list_opt):
        list_reassignments(admin_client, out)
    else:
        raise RuntimeError("Unsupported action.")


def _handle_zk_action(zk_client: Any, opts: ReassignPartitionsCommandOptions, out: TextIO) -> None:
    options = opts.options
    if options.has(opts.verify_opt):
        verify_assignment_zk(
            zk_client,
            read_file_as_string(options.value_of(opts.reassignment_json_file_opt)),
            options.has(opts.preserve_throttles_opt),
            out,
        )
    elif options.has(opts.generate_opt):
        generate_assignment_zk(
            zk_client,
            read_file_as_string(options.value_of(opts.topics_to_move_json_file_opt)),
            options.value_of(opts.broker_list_opt),
            not options.has(opts.disable_rack_aware),
            out,
        )
    elif options.has(opts.execute_opt):
        execute_assignment_zk(
            zk_client,
            read_file_as_string(options.value_of(opts.reassignment_json_file_opt)),
            options.value_of(opts.inter_broker_throttle_opt),
            out,
        )
    else:
        raise RuntimeError("Unsupported action.")


# -- --verify ------------------------------------------------------------------------------------------------------


def verify_assignment(
    admin_client: Any, json_string: str, preserve_throttles: bool, out: TextIO
) -> VerifyAssignmentResult:
    """--verify: prints each partition's and replica move's state; once nothing is in progress (in the whole
    cluster, not only the file's partitions) and unless `preserve_throttles`, clears every throttle."""
    target_parts, target_log_dirs = parse_partition_reassignment_data(json_string)
    part_states, parts_ongoing = verify_partition_assignments(admin_client, target_parts, out)
    move_states, moves_ongoing = verify_replica_moves(admin_client, target_log_dirs, out)
    if not parts_ongoing and not moves_ongoing and not preserve_throttles:
        # All throttles go: which brokers took part in earlier reassignments is not known.
        clear_all_throttles(admin_client, target_parts, out)
    return VerifyAssignmentResult(part_states, parts_ongoing, move_states, moves_ongoing)


def verify_partition_assignments(
    admin_client: Any, targets: Sequence[tuple[TopicPartition, Sequence[int]]], out: TextIO
) -> tuple[dict[TopicPartition, PartitionReassignmentState], bool]:
    part_states, parts_ongoing = find_partition_reassignment_states(admin_client, targets)
    print(partition_reassignment_states_to_string(part_states), file=out)
    return part_states, parts_ongoing


def verify_assignment_zk(
    zk_client: Any, json_string: str, preserve_throttles: bool, out: TextIO
) -> VerifyAssignmentResult:
    """--verify with --zookeeper: only reassignments under /admin/reassign_partitions count as running."""
    target_parts, target_log_dirs = parse_partition_reassignment_data(json_string)
    if target_log_dirs:
        raise AdminCommandFailedException(
            "bootstrap-server needs to be provided when replica reassignments are present."
        )
    print(
        "Warning: because you are using the deprecated --zookeeper option, the results may be incomplete.  "
        "Use --bootstrap-server instead for more accurate results.",
        file=out,
    )
    part_states, parts_ongoing = find_partition_reassignment_states_zk(zk_client, dict(target_parts))
    print(partition_reassignment_states_to_string(part_states), file=out)
    if not parts_ongoing and not preserve_throttles:
        clear_all_throttles_zk(zk_client, target_parts, out)
    return VerifyAssignmentResult(part_states, parts_ongoing)


def _tp_key(tp: TopicPartition) -> tuple[str, int]:
    return (tp.topic, tp.partition)


def _replica_key(r: TopicPartitionReplica) -> tuple[int, str, int]:
    return (r.broker_id, r.topic, r.partition)


def _ints(values: Iterable[int]) -> str:
    return ",".join(str(v) for v in values)


def partition_reassignment_states_to_string(states: Mapping[TopicPartition, PartitionReassignmentState]) -> str:
    lines = ["Status of partition reassignment:"]
    for tp in sorted(states, key=_tp_key):
        state = states[tp]
        if state.done:
            if list(state.current_replicas) == list(state.target_replicas):
                lines.append(f"Reassignment of partition {tp} is complete.")
            else:
                lines.append(
                    f"There is no active reassignment of partition {tp}, but replica set is "
                    f"{_ints(state.current_replicas)} rather than {_ints(state.target_replicas)}."
                )
        else:
            lines.append(f"Reassignment of partition {tp} is still in progress.")
    return "\n".join(lines)


def find_partition_reassignment_states(
    admin_client: Any, target_reassignments: Sequence[tuple[TopicPartition, Sequence[int]]]
) -> tuple[dict[TopicPartition, PartitionReassignmentState], bool]:
    """Each target's state: running when the controller lists it, else done with the replicas it has now. The
    flag says whether any reassignment runs in the cluster."""
    current_reassignments = admin_client.list_partition_reassignments().reassignments().get()
    found = [(tp, r) for tp, r in target_reassignments if tp in current_reassignments]
    not_found = [(tp, r) for tp, r in target_reassignments if tp not in current_reassignments]
    results: dict[TopicPartition, PartitionReassignmentState] = {}
    for tp, target_replicas in found:
        results[tp] = PartitionReassignmentState(list(current_reassignments[tp].replicas), list(target_replicas), False)
    topic_names_to_look_up = list(dict.fromkeys(tp.topic for tp, _ in not_found))
    topic_descriptions = (
        (admin_client.describe_topics(topic_names_to_look_up).topic_name_values() or {}) if not_found else {}
    )
    for tp, target_replicas in not_found:
        results[tp] = _topic_description_future_to_state(
            tp.partition, topic_descriptions[tp.topic], list(target_replicas)
        )
    return results, bool(current_reassignments)


def _topic_description_future_to_state(
    partition: int, future: Any, target_replicas: list[int]
) -> PartitionReassignmentState:
    try:
        topic_description = future.get()
        partitions = topic_description.partitions
        if len(partitions) < partition:
            raise ExecutionException(UnknownTopicOrPartitionException())
        if partition >= len(partitions):
            # As Kafka's check above lets the partition just past the last one through to the list lookup.
            raise _IndexOutOfBoundsException(f"Index {partition} out of bounds for length {len(partitions)}")
        return PartitionReassignmentState([n.id for n in partitions[partition].replicas], target_replicas, True)
    except ExecutionException as e:
        if isinstance(e.cause, UnknownTopicOrPartitionException):
            return PartitionReassignmentState([], target_replicas, True)
        raise e.cause from None


def find_partition_reassignment_states_zk(
    zk_client: Any, target_reassignments: Mapping[TopicPartition, Sequence[int]]
) -> tuple[dict[TopicPartition, PartitionReassignmentState], bool]:
    partitions_being_reassigned = zk_client.get_partition_reassignment()
    results: dict[TopicPartition, PartitionReassignmentState] = {}
    by_topic: dict[str, list[tuple[TopicPartition, Sequence[int]]]] = {}
    for tp, target in target_reassignments.items():
        by_topic.setdefault(tp.topic, []).append((tp, target))
    for topic, partitions in by_topic.items():
        replicas_for_topic = zk_client.get_replica_assignment_for_topics({topic})
        for tp, target_replicas in partitions:
            results[tp] = PartitionReassignmentState(
                list(replicas_for_topic.get(tp, [])), list(target_replicas), tp not in partitions_being_reassigned
            )
    return results, bool(partitions_being_reassigned)


def verify_replica_moves(
    admin_client: Any, target_reassignments: Mapping[TopicPartitionReplica, str], out: TextIO
) -> tuple[dict[TopicPartitionReplica, LogDirMoveState], bool]:
    """The states of the log directory moves asked for (unlike partitions, unrelated moves are not seen)."""
    move_states = find_log_dir_move_states(admin_client, target_reassignments)
    print(replica_move_states_to_string(move_states), file=out)
    return move_states, not all(s.done for s in move_states.values())


def find_log_dir_move_states(
    admin_client: Any, target_moves: Mapping[TopicPartitionReplica, str]
) -> dict[TopicPartitionReplica, LogDirMoveState]:
    replica_log_dir_infos = admin_client.describe_replica_log_dirs(list(target_moves)).all().get()
    states: dict[TopicPartitionReplica, LogDirMoveState] = {}
    for replica, target_log_dir in target_moves.items():
        info = replica_log_dir_infos.get(replica)
        state: LogDirMoveState
        if info is None:
            state = MissingReplicaMoveState(target_log_dir)
        elif info.current_replica_log_dir is None:
            state = MissingLogDirMoveState(target_log_dir)
        elif info.future_replica_log_dir is None:
            if info.current_replica_log_dir == target_log_dir:
                state = CompletedMoveState(target_log_dir)
            else:
                state = CancelledMoveState(info.current_replica_log_dir, target_log_dir)
        else:
            state = ActiveMoveState(info.current_replica_log_dir, target_log_dir, info.future_replica_log_dir)
        states[replica] = state
    return states


def replica_move_states_to_string(states: Mapping[TopicPartitionReplica, LogDirMoveState]) -> str:
    lines = []
    for replica in sorted(states, key=_replica_key):
        state = states[replica]
        where = f"{replica.topic}-{replica.partition}"
        match state:
            case MissingLogDirMoveState():
                lines.append(
                    f"Partition {where} is not found in any live log dir on broker {replica.broker_id}. There is "
                    "likely an offline log directory on the broker."
                )
            case MissingReplicaMoveState():
                lines.append(
                    f"Partition {where} cannot be found in any live log directory on broker {replica.broker_id}."
                )
            case ActiveMoveState(_, target_log_dir, future_log_dir):
                if target_log_dir == future_log_dir:
                    lines.append(f"Reassignment of replica {replica} is still in progress.")
                else:
                    lines.append(
                        f"Partition {where} on broker {replica.broker_id} is being moved to log dir "
                        f"{future_log_dir} instead of {target_log_dir}."
                    )
            case CancelledMoveState(current_log_dir, target_log_dir):
                lines.append(
                    f"Partition {where} on broker {replica.broker_id} is not being moved from log dir "
                    f"{current_log_dir} to {target_log_dir}."
                )
            case CompletedMoveState():
                lines.append(f"Reassignment of replica {replica} completed successfully.")
    return "\n".join(lines)


# -- throttles -------------------------------------------------------------------------------------------------


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


def _scala_set(elements: Iterable[Any]) -> list[Any]:
    """The iteration order of a Scala immutable Set built from `elements` (insertion order up to four)."""
    return jvm_json.scala_immutable_set(list(elements))


def _throttled_brokers_and_topics(
    active_brokers: Iterable[int], target_parts: Sequence[tuple[TopicPartition, Sequence[int]]]
) -> tuple[list[int], list[str]]:
    brokers = _scala_set([*_scala_set(active_brokers), *_scala_set(r for _, rs in target_parts for r in rs)])
    topics = _scala_set(tp.topic for tp, _ in target_parts)
    return brokers, topics


def clear_all_throttles(
    admin_client: Any, target_parts: Sequence[tuple[TopicPartition, Sequence[int]]], out: TextIO
) -> None:
    """Removes the broker-level throttles of every live broker and of those in the file, and the topic-level
    throttles of the file's topics."""
    active_brokers = [n.id for n in admin_client.describe_cluster().nodes().get()]
    brokers, topics = _throttled_brokers_and_topics(active_brokers, target_parts)
    print(f"Clearing broker-level throttles on broker{_plural(len(brokers))} {_ints(brokers)}", file=out)
    clear_broker_level_throttles(admin_client, brokers)
    print(f"Clearing topic-level throttles on topic{_plural(len(topics))} {','.join(topics)}", file=out)
    clear_topic_level_throttles(admin_client, topics)


def clear_all_throttles_zk(
    zk_client: Any, target_parts: Sequence[tuple[TopicPartition, Sequence[int]]], out: TextIO
) -> None:
    active_brokers = [b.id for b in zk_client.get_all_brokers_in_cluster()]
    brokers, topics = _throttled_brokers_and_topics(active_brokers, target_parts)
    print(f"Clearing broker-level throttles on broker{_plural(len(brokers))} {_ints(brokers)}", file=out)
    clear_broker_level_throttles_zk(zk_client, brokers)
    print(f"Clearing topic-level throttles on topic{_plural(len(topics))} {','.join(topics)}", file=out)
    clear_topic_level_throttles_zk(zk_client, topics)


def clear_broker_level_throttles(admin_client: Any, brokers: Iterable[int]) -> None:
    config_ops = {
        ConfigResource(ConfigResource.Type.BROKER, str(broker_id)): [
            AlterConfigOp(ConfigEntry(throttle, None), OpType.DELETE) for throttle in BROKER_LEVEL_THROTTLES
        ]
        for broker_id in brokers
    }
    admin_client.incremental_alter_configs(config_ops).all().get()


def clear_topic_level_throttles(admin_client: Any, topics: Iterable[str]) -> None:
    config_ops = {
        ConfigResource(ConfigResource.Type.TOPIC, topic): [
            AlterConfigOp(ConfigEntry(throttle, None), OpType.DELETE) for throttle in TOPIC_LEVEL_THROTTLES
        ]
        for topic in topics
    }
    admin_client.incremental_alter_configs(config_ops).all().get()


def _admin_zk_client(zk_client: Any) -> Any:
    from kafka.zk.admin_zk_client import AdminZkClient

    return AdminZkClient(zk_client)


def _change_broker_config_zk(zk_client: Any, broker_id: int, configs: Mapping[str, str]) -> None:
    """AdminZkClient.changeBrokerConfig for one broker: the configs are checked as dynamic broker configs, written
    to /config/brokers/<id>, and a change notification tells the brokers.
    # PORT: this project's AdminZkClient leaves broker configs to ZkAdminManager (see its note); the tool writes
    them the way changeBrokerConfig does."""
    DynamicConfig.Broker.validate(configs)
    zk_client.set_or_create_entity_configs(ConfigType.BROKER, str(broker_id), dict(configs))
    zk_client.create_config_change_notification(f"{ConfigType.BROKER}/{broker_id}")


def clear_broker_level_throttles_zk(zk_client: Any, brokers: Iterable[int]) -> None:
    admin_zk_client = _admin_zk_client(zk_client)
    for broker_id in brokers:
        configs = admin_zk_client.fetch_entity_config(ConfigType.BROKER, str(broker_id))
        removed = [configs.pop(t) for t in BROKER_LEVEL_THROTTLES if t in configs]
        if removed:
            _change_broker_config_zk(zk_client, broker_id, configs)


def clear_topic_level_throttles_zk(zk_client: Any, topics: Iterable[str]) -> None:
    admin_zk_client = _admin_zk_client(zk_client)
    for topic in topics:
        configs = admin_zk_client.fetch_entity_config(ConfigType.TOPIC, topic)
        removed = [configs.pop(t) for t in TOPIC_LEVEL_THROTTLES if t in configs]
        if removed:
            admin_zk_client.change_topic_config(topic, configs)


# -- --generate ----------------------------------------------------------------------------------------------------


def generate_assignment(
    admin_client: Any, reassignment_json: str, broker_list_string: str, enable_rack_awareness: bool, out: TextIO
) -> tuple[dict[TopicPartition, list[int]], dict[TopicPartition, list[int]]]:
    """--generate: prints the topics' current assignment and a proposal over the brokers listed; changes nothing.
    Returns (proposed, current)."""
    brokers_to_reassign, topics_to_reassign = parse_generate_assignment_args(reassignment_json, broker_list_string)
    current_assignments = get_replica_assignment_for_topics(admin_client, topics_to_reassign)
    broker_metadatas = get_broker_metadata(admin_client, brokers_to_reassign, enable_rack_awareness)
    proposed_assignments = calculate_assignment(current_assignments, broker_metadatas)
    _print_generated(current_assignments, proposed_assignments, out)
    return proposed_assignments, current_assignments


def generate_assignment_zk(
    zk_client: Any, reassignment_json: str, broker_list_string: str, enable_rack_awareness: bool, out: TextIO
) -> tuple[dict[TopicPartition, list[int]], dict[TopicPartition, list[int]]]:
    brokers_to_reassign, topics_to_reassign = parse_generate_assignment_args(reassignment_json, broker_list_string)
    current_assignments = zk_client.get_replica_assignment_for_topics(set(topics_to_reassign))
    mode = RackAwareMode.Enforced() if enable_rack_awareness else RackAwareMode.Disabled()
    broker_metadatas = _admin_zk_client(zk_client).get_broker_metadatas(mode, brokers_to_reassign)
    proposed_assignments = calculate_assignment(current_assignments, broker_metadatas)
    _print_generated(current_assignments, proposed_assignments, out)
    return proposed_assignments, current_assignments


def _print_generated(
    current: Mapping[TopicPartition, Sequence[int]], proposed: Mapping[TopicPartition, Sequence[int]], out: TextIO
) -> None:
    print(f"Current partition replica assignment\n{format_as_reassignment_json(current, {})}\n", file=out)
    print(f"Proposed partition reassignment configuration\n{format_as_reassignment_json(proposed, {})}", file=out)


def calculate_assignment(
    current_assignment: Mapping[TopicPartition, Sequence[int]], broker_metadatas: Sequence[BrokerMetadata]
) -> dict[TopicPartition, list[int]]:
    """For each topic, a fresh assignment of as many partitions, with the replication factor of its first
    partition, over the brokers given (AdminUtils.assignReplicasToBrokers)."""
    grouped_by_topic: dict[str, list[tuple[TopicPartition, Sequence[int]]]] = {}
    for tp, replicas in current_assignment.items():
        grouped_by_topic.setdefault(tp.topic, []).append((tp, replicas))
    proposed: dict[TopicPartition, list[int]] = {}
    for topic, assignment in grouped_by_topic.items():
        _, replicas = assignment[0]
        assigned = assign_replicas_to_brokers(broker_metadatas, len(assignment), len(replicas))
        for partition, new_replicas in assigned.items():
            proposed[TopicPartition(topic, partition)] = list(new_replicas)
    return proposed


def get_replica_assignment_for_topics(admin_client: Any, topics: Sequence[str]) -> dict[TopicPartition, list[int]]:
    """The replicas of every partition of `topics`; a missing topic fails the call."""
    descriptions = admin_client.describe_topics(list(topics)).all_topic_names().get()
    return {
        TopicPartition(name, info.partition): [n.id for n in info.replicas]
        for name, description in descriptions.items()
        for info in description.partitions
    }


def get_replica_assignment_for_partitions(
    admin_client: Any, partitions: Iterable[TopicPartition]
) -> dict[TopicPartition, list[int]]:
    """The replicas of the partitions that exist among `partitions`; a missing topic fails the call."""
    wanted = set(partitions)
    descriptions = admin_client.describe_topics(list(dict.fromkeys(tp.topic for tp in wanted))).all_topic_names().get()
    result: dict[TopicPartition, list[int]] = {}
    for name, description in descriptions.items():
        for info in description.partitions:
            tp = TopicPartition(name, info.partition)
            if tp in wanted:
                result[tp] = [n.id for n in info.replicas]
    return result


def get_broker_metadata(admin_client: Any, brokers: Sequence[int], enable_rack_awareness: bool) -> list[BrokerMetadata]:
    """The live brokers among `brokers` (others are left out), with their racks if rack awareness is on."""
    broker_set = set(brokers)
    results = [
        BrokerMetadata(node.id, node.rack if enable_rack_awareness and node.rack is not None else None)
        for node in admin_client.describe_cluster().nodes().get()
        if node.id in broker_set
    ]
    num_rackless = sum(1 for b in results if b.rack is None)
    if enable_rack_awareness and num_rackless != 0 and num_rackless != len(results):
        raise AdminOperationException(
            "Not all brokers have rack information. Add --disable-rack-aware in command line to make replica "
            "assignment without rack information."
        )
    return results


def _duplicates(items: Sequence[Any]) -> list[Any]:
    """CoreUtils.duplicates, in the order Scala iterates the set it returns."""
    counts: dict[Any, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return [item for item in _scala_set(counts) if counts[item] > 1]


def parse_generate_assignment_args(reassignment_json: str, broker_list: str) -> tuple[list[int], list[str]]:
    """The brokers and topics of --generate; duplicates of either are refused."""
    broker_list_to_reassign = [parse_int(b) for b in _java_split_comma(broker_list)]
    duplicate_reassignments = _duplicates(broker_list_to_reassign)
    if duplicate_reassignments:
        raise AdminCommandFailedException(f"Broker list contains duplicate entries: {_ints(duplicate_reassignments)}")
    topics_to_reassign = parse_topics_data(reassignment_json)
    duplicate_topics_to_reassign = _duplicates(topics_to_reassign)
    if duplicate_topics_to_reassign:
        raise AdminCommandFailedException(
            f"List of topics to reassign contains duplicate entries: {','.join(duplicate_topics_to_reassign)}"
        )
    return broker_list_to_reassign, topics_to_reassign


def _java_split_comma(text: str) -> list[str]:
    """String.split(','): trailing empty strings dropped, but "" splits to [""]."""
    pieces = text.split(",")
    while len(pieces) > 1 and pieces[-1] == "":
        pieces.pop()
    return pieces


# -- --execute -----------------------------------------------------------------------------------------------------


def execute_assignment(
    admin_client: Any,
    additional: bool,
    reassignment_json: str,
    inter_broker_throttle: int = -1,
    log_dir_throttle: int = -1,
    timeout_ms: int = 10000,
    out: TextIO | None = None,
    time: Any = None,
) -> None:
    """--execute: checks the file and the brokers, prints the current assignment, sets the throttles asked for
    (a negative throttle means none) and starts the reassignments, then any log directory moves."""
    out = out or sys.stdout
    proposed_parts, proposed_replicas = parse_execute_assignment_args(reassignment_json)
    current_reassignments = admin_client.list_partition_reassignments().reassignments().get()
    # Another reassignment running: only with --additional, so that nobody is surprised.
    if not additional and current_reassignments:
        raise TerseReassignmentFailureException(CANNOT_EXECUTE_BECAUSE_OF_EXISTING_MESSAGE)
    verify_broker_ids(admin_client, [r for replicas in proposed_parts.values() for r in replicas])
    current_parts = get_replica_assignment_for_partitions(admin_client, proposed_parts)
    print(current_partition_replica_assignment_to_string(proposed_parts, current_parts), file=out)

    if inter_broker_throttle >= 0 or log_dir_throttle >= 0:
        print(YOU_MUST_RUN_VERIFY_PERIODICALLY_MESSAGE, file=out)
        if inter_broker_throttle >= 0:
            move_map = calculate_proposed_move_map(current_reassignments, proposed_parts, current_parts)
            _modify_reassignment_throttle(admin_client, move_map, inter_broker_throttle, out)
        if log_dir_throttle >= 0:
            moving_brokers = calculate_moving_brokers(proposed_replicas)
            modify_log_dir_throttle(admin_client, moving_brokers, log_dir_throttle, out)

    errors = alter_partition_reassignments(admin_client, proposed_parts)
    if errors:
        raise TerseReassignmentFailureException(
            "Error reassigning partition(s):\n"
            + "\n".join(f"{tp}: {java_message(errors[tp])}" for tp in sorted(errors, key=_tp_key))
        )
    print(
        f"Successfully started partition reassignment{_plural(len(proposed_parts))} for "
        + ",".join(str(tp) for tp in sorted(proposed_parts, key=_tp_key)),
        file=out,
    )
    if proposed_replicas:
        execute_moves(admin_client, proposed_replicas, timeout_ms, out, time)


def execute_moves(
    admin_client: Any,
    proposed_replicas: Mapping[TopicPartitionReplica, str],
    timeout_ms: int,
    out: TextIO,
    time: Any = None,
) -> None:
    """Starts the log directory moves, retrying those whose replica is not on its broker yet until `timeout_ms`."""
    milliseconds: Callable[[], int] = time.milliseconds if time is not None else lambda: int(_time.time() * 1000)
    sleep: Callable[[int], None] = time.sleep if time is not None else lambda ms: _time.sleep(ms / 1000)
    start_time_ms = milliseconds()
    pending = dict(proposed_replicas)
    while True:
        completed = alter_replica_log_dirs(admin_client, pending)
        if completed:
            print(
                f"Successfully started log directory move{_plural(len(completed))} for: "
                + ",".join(str(r) for r in sorted(completed, key=_replica_key)),
                file=out,
            )
        for replica in completed:
            pending.pop(replica, None)
        if not pending:
            return
        if milliseconds() >= start_time_ms + timeout_ms:
            raise TerseReassignmentFailureException(
                f"Timed out before log directory move{_plural(len(pending))} could be started for: "
                + ",".join(str(r) for r in sorted(pending, key=_replica_key))
            )
        # A replica on a broker it is moving to cannot change directory before it gets there.
        sleep(100)


def list_reassignments(admin_client: Any, out: TextIO) -> None:
    """--list."""
    print(cur_reassignments_to_string(admin_client), file=out)


def cur_reassignments_to_string(admin_client: Any) -> str:
    current_reassignments = admin_client.list_partition_reassignments().reassignments().get()
    lines = []
    for tp in sorted(current_reassignments, key=_tp_key):
        reassignment = current_reassignments[tp]
        line = f"{tp}: replicas: {_ints(reassignment.replicas)}."
        if reassignment.adding_replicas:
            line += f" adding: {_ints(reassignment.adding_replicas)}."
        if reassignment.removing_replicas:
            line += f" removing: {_ints(reassignment.removing_replicas)}."
        lines.append(line)
    if not lines:
        return "No partition reassignments found."
    return "Current partition reassignments:\n" + "\n".join(lines)


def verify_broker_ids(admin_client: Any, brokers: Iterable[int]) -> None:
    """Every broker named must be in the cluster."""
    all_node_ids = {n.id for n in admin_client.describe_cluster().nodes().get()}
    for broker_id in _scala_set(brokers):
        if broker_id not in all_node_ids:
            raise AdminCommandFailedException(f"Unknown broker id {broker_id}")


def execute_assignment_zk(zk_client: Any, reassignment_json: str, inter_broker_throttle: int, out: TextIO) -> None:
    """--execute with --zookeeper: the reassignment is written to /admin/reassign_partitions, where the
    controller picks it up."""
    proposed_parts, proposed_replicas = parse_execute_assignment_args(reassignment_json)
    if proposed_replicas:
        raise AdminCommandFailedException(
            "bootstrap-server needs to be provided when replica reassignments are present."
        )
    verify_replicas_and_brokers_in_assignment(zk_client, proposed_parts)
    # Only reassignments started through the znode are seen here.
    if zk_client.reassign_partitions_in_progress():
        raise TerseReassignmentFailureException(CANNOT_EXECUTE_BECAUSE_OF_EXISTING_MESSAGE)
    current_parts = zk_client.get_replica_assignment_for_topics({tp.topic for tp in proposed_parts})
    print(current_partition_replica_assignment_to_string(proposed_parts, current_parts), file=out)
    if inter_broker_throttle >= 0:
        print(YOU_MUST_RUN_VERIFY_PERIODICALLY_MESSAGE, file=out)
        move_map = calculate_proposed_move_map({}, proposed_parts, current_parts)
        modify_topic_throttles_zk(
            zk_client, calculate_leader_throttles(move_map), calculate_follower_throttles(move_map)
        )
        modify_broker_throttles_zk(zk_client, calculate_reassigning_brokers(move_map), inter_broker_throttle)
        print(f"The inter-broker throttle limit was set to {inter_broker_throttle} B/s", file=out)
    zk_client.create_partition_reassignment(proposed_parts)
    print(
        f"Successfully started partition reassignment{_plural(len(proposed_parts))} for "
        + ",".join(str(tp) for tp in sorted(proposed_parts, key=_tp_key)),
        file=out,
    )


def current_partition_replica_assignment_to_string(
    proposed_parts: Mapping[TopicPartition, Sequence[int]], current_parts: Mapping[TopicPartition, Sequence[int]]
) -> str:
    """The current assignment of the partitions being moved, as a file for rolling back."""
    current = {tp: r for tp, r in current_parts.items() if tp in proposed_parts}
    return (
        f"Current partition replica assignment\n\n{format_as_reassignment_json(current, {})}\n\n"
        "Save this to use as the --reassignment-json-file option during rollback"
    )


def verify_replicas_and_brokers_in_assignment(
    zk_client: Any, proposed_parts: Mapping[TopicPartition, Sequence[int]]
) -> None:
    """ZooKeeper checks nothing, so the tool checks that the partitions and brokers exist."""
    existing_assignment = zk_client.get_replica_assignment_for_topics({tp.topic for tp in proposed_parts})
    non_existent_partitions = [tp for tp in proposed_parts if tp not in existing_assignment]
    if non_existent_partitions:
        raise AdminCommandFailedException(
            "The proposed assignment contains non-existent partitions: "
            + "List("
            + ", ".join(str(tp) for tp in non_existent_partitions)
            + ")"
        )
    existing_broker_ids = set(zk_client.get_sorted_broker_list())
    non_existing_broker_ids = _scala_set(
        r for replicas in proposed_parts.values() for r in replicas if r not in existing_broker_ids
    )
    if non_existing_broker_ids:
        raise AdminCommandFailedException(
            "The proposed assignment contains non-existent brokerIDs: " + _ints(non_existing_broker_ids)
        )


def alter_partition_reassignments(
    admin_client: Any, reassignments: Mapping[TopicPartition, Sequence[int]]
) -> dict[TopicPartition, BaseException]:
    """Starts the reassignments; returns the error of each partition that failed."""
    results = admin_client.alter_partition_reassignments(
        {tp: NewPartitionReassignment(replicas) for tp, replicas in reassignments.items()}
    ).values()
    return _failures(results)


def cancel_partition_reassignments(
    admin_client: Any, reassignments: Iterable[TopicPartition]
) -> dict[TopicPartition, BaseException]:
    """Cancels the reassignments; returns the error of each partition that failed."""
    results = admin_client.alter_partition_reassignments({tp: None for tp in reassignments}).values()
    return _failures(results)


def _failures(results: Mapping[TopicPartition, Any]) -> dict[TopicPartition, BaseException]:
    errors: dict[TopicPartition, BaseException] = {}
    for tp, future in results.items():
        try:
            future.get()
        except ExecutionException as e:
            errors[tp] = e.cause
    return errors


def _calculate_current_move_map(current_reassignments: Mapping[TopicPartition, Any]) -> MoveMap:
    """The moves of the reassignments in progress: from the replicas that are not being added, to those that are."""
    move_map: MoveMap = {}
    for tp, reassignment in current_reassignments.items():
        # A replica list has no duplicates, so Scala's Seq.diff is a filter here.
        adding = list(reassignment.adding_replicas)
        sources = {r for r in reassignment.replicas if r not in adding}
        move_map.setdefault(tp.topic, {})[tp.partition] = PartitionMove(sources, set(adding))
    return move_map


def calculate_proposed_move_map(
    current_reassignments: Mapping[TopicPartition, Any],
    proposed_parts: Mapping[TopicPartition, Sequence[int]],
    current_parts: Mapping[TopicPartition, Sequence[int]],
) -> MoveMap:
    """Every partition that moves (those already moving, and those in the file): a partition in progress keeps
    its sources, the others move from their current replicas."""
    move_map = _calculate_current_move_map(current_reassignments)
    for tp, replicas in proposed_parts.items():
        part_moves = move_map.setdefault(tp.topic, {})
        existing = part_moves.get(tp.partition)
        if existing is not None:
            sources = set(existing.sources)
        else:
            if tp not in current_parts:
                raise RuntimeError(f"Trying to reassign a topic partition {tp} with 0 replicas")
            sources = set(current_parts[tp])
        destinations = {r for r in replicas if r not in sources}
        part_moves[tp.partition] = PartitionMove(sources, destinations)
    return move_map


def calculate_leader_throttles(move_map: MoveMap) -> dict[str, str]:
    """`partition:broker` of each move's sources, by topic (sorted as strings, as Kafka's TreeSet)."""
    return {
        topic: ",".join(sorted({f"{p}:{s}" for p, move in moves.items() for s in move.sources}))
        for topic, moves in move_map.items()
    }


def calculate_follower_throttles(move_map: MoveMap) -> dict[str, str]:
    """`partition:broker` of each move's destinations that are not also sources, by topic."""
    return {
        topic: ",".join(
            sorted({f"{p}:{d}" for p, move in moves.items() for d in move.destinations if d not in move.sources})
        )
        for topic, moves in move_map.items()
    }


def calculate_reassigning_brokers(move_map: MoveMap) -> list[int]:
    return sorted(
        {b for moves in move_map.values() for move in moves.values() for b in move.sources | move.destinations}
    )


def calculate_moving_brokers(replica_moves: Iterable[TopicPartitionReplica]) -> list[int]:
    return _scala_set(r.broker_id for r in replica_moves)


def modify_topic_throttles(
    admin_client: Any, leader_throttles: Mapping[str, str], follower_throttles: Mapping[str, str]
) -> None:
    """Sets the topics' leader and follower throttled replica lists."""
    configs: dict[ConfigResource, list[AlterConfigOp]] = {}
    for topic in dict.fromkeys([*leader_throttles, *follower_throttles]):
        ops = []
        if topic in leader_throttles:
            ops.append(AlterConfigOp(ConfigEntry(TOPIC_LEVEL_LEADER_THROTTLE, leader_throttles[topic]), OpType.SET))
        if topic in follower_throttles:
            ops.append(AlterConfigOp(ConfigEntry(TOPIC_LEVEL_FOLLOWER_THROTTLE, follower_throttles[topic]), OpType.SET))
        if ops:
            configs[ConfigResource(ConfigResource.Type.TOPIC, topic)] = ops
    admin_client.incremental_alter_configs(configs).all().get()


def modify_topic_throttles_zk(
    zk_client: Any, leader_throttles: Mapping[str, str], follower_throttles: Mapping[str, str]
) -> None:
    admin_zk_client = _admin_zk_client(zk_client)
    for topic in dict.fromkeys([*leader_throttles, *follower_throttles]):
        configs = admin_zk_client.fetch_entity_config(ConfigType.TOPIC, topic)
        if topic in leader_throttles:
            configs[TOPIC_LEVEL_LEADER_THROTTLE] = leader_throttles[topic]
        if topic in follower_throttles:
            configs[TOPIC_LEVEL_FOLLOWER_THROTTLE] = follower_throttles[topic]
        admin_zk_client.change_topic_config(topic, configs)


def _modify_reassignment_throttle(
    admin_client: Any, move_map: MoveMap, inter_broker_throttle: int, out: TextIO
) -> None:
    modify_topic_throttles(admin_client, calculate_leader_throttles(move_map), calculate_follower_throttles(move_map))
    modify_inter_broker_throttle(admin_client, calculate_reassigning_brokers(move_map), inter_broker_throttle, out)


def modify_inter_broker_throttle(
    admin_client: Any, reassigning_brokers: Iterable[int], inter_broker_throttle: int, out: TextIO
) -> None:
    """Sets the leader and follower replication rates of the brokers taking part (nothing if negative)."""
    if inter_broker_throttle < 0:
        return
    configs = {
        ConfigResource(ConfigResource.Type.BROKER, str(broker_id)): [
            AlterConfigOp(ConfigEntry(BROKER_LEVEL_LEADER_THROTTLE, str(inter_broker_throttle)), OpType.SET),
            AlterConfigOp(ConfigEntry(BROKER_LEVEL_FOLLOWER_THROTTLE, str(inter_broker_throttle)), OpType.SET),
        ]
        for broker_id in reassigning_brokers
    }
    admin_client.incremental_alter_configs(configs).all().get()
    print(f"The inter-broker throttle limit was set to {inter_broker_throttle} B/s", file=out)


def modify_log_dir_throttle(
    admin_client: Any, moving_brokers: Iterable[int], log_dir_throttle: int, out: TextIO
) -> None:
    """Sets the rate of moves between log directories on the brokers concerned (nothing if negative)."""
    if log_dir_throttle < 0:
        return
    configs = {
        ConfigResource(ConfigResource.Type.BROKER, str(broker_id)): [
            AlterConfigOp(ConfigEntry(BROKER_LEVEL_LOG_DIR_THROTTLE, str(log_dir_throttle)), OpType.SET)
        ]
        for broker_id in moving_brokers
    }
    admin_client.incremental_alter_configs(configs).all().get()
    print(f"The replica-alter-dir throttle limit was set to {log_dir_throttle} B/s", file=out)


def modify_broker_throttles_zk(zk_client: Any, reassigning_brokers: Iterable[int], inter_broker_throttle: int) -> None:
    admin_zk_client = _admin_zk_client(zk_client)
    for broker_id in reassigning_brokers:
        configs = admin_zk_client.fetch_entity_config(ConfigType.BROKER, str(broker_id))
        configs[BROKER_LEVEL_LEADER_THROTTLE] = str(inter_broker_throttle)
        configs[BROKER_LEVEL_FOLLOWER_THROTTLE] = str(inter_broker_throttle)
        _change_broker_config_zk(zk_client, broker_id, configs)


def parse_execute_assignment_args(
    reassignment_json: str,
) -> tuple[dict[TopicPartition, list[int]], dict[TopicPartitionReplica, str]]:
    """The partitions and log directory moves of --execute; an empty list, an empty replica list, a partition
    named twice or a replica named twice in a partition are refused."""
    partitions_to_be_reassigned, replica_assignment = parse_partition_reassignment_data(reassignment_json)
    if not partitions_to_be_reassigned:
        raise AdminCommandFailedException("Partition reassignment list cannot be empty")
    if any(not replicas for _, replicas in partitions_to_be_reassigned):
        raise AdminCommandFailedException("Partition replica list cannot be empty")
    duplicate_reassigned_partitions = _duplicates([tp for tp, _ in partitions_to_be_reassigned])
    if duplicate_reassigned_partitions:
        raise AdminCommandFailedException(
            "Partition reassignment contains duplicate topic partitions: "
            + ",".join(str(tp) for tp in duplicate_reassigned_partitions)
        )
    duplicate_entries = [
        (tp, dups) for tp, replicas in partitions_to_be_reassigned if (dups := _duplicates(list(replicas)))
    ]
    if duplicate_entries:
        duplicates_msg = ". ".join(
            f"{tp} contains multiple entries for {_ints(dups)}" for tp, dups in duplicate_entries
        )
        raise AdminCommandFailedException(
            f"Partition replica lists may not contain duplicate entries: {duplicates_msg}"
        )
    return {tp: list(replicas) for tp, replicas in partitions_to_be_reassigned}, replica_assignment


# -- --cancel ------------------------------------------------------------------------------------------------------


def cancel_assignment(
    admin_client: Any,
    json_string: str,
    preserve_throttles: bool,
    timeout_ms: int = 10000,
    out: TextIO | None = None,
    time: Any = None,
) -> tuple[set[TopicPartition], set[TopicPartitionReplica]]:
    """--cancel: cancels the file's reassignments still running and moves its replicas back to where they are
    being moved from; then clears the throttles unless `preserve_throttles`. Returns what was cancelled."""
    out = out or sys.stdout
    target_parts, target_replicas = parse_partition_reassignment_data(json_string)
    target_parts_set = list(dict.fromkeys(tp for tp, _ in target_parts))
    listed = admin_client.list_partition_reassignments(target_parts_set).reassignments().get()
    cur_reassigning_parts = [tp for tp, r in listed.items() if r.adding_replicas or r.removing_replicas]
    if cur_reassigning_parts:
        errors = cancel_partition_reassignments(admin_client, cur_reassigning_parts)
        if errors:
            raise TerseReassignmentFailureException(
                f"Error cancelling partition reassignment{_plural(len(errors))} for:\n"
                + "\n".join(f"{tp}: {java_message(errors[tp])}" for tp in sorted(errors, key=_tp_key))
            )
        print(
            f"Successfully cancelled partition reassignment{_plural(len(cur_reassigning_parts))} for: "
            + ",".join(str(tp) for tp in sorted(cur_reassigning_parts, key=_tp_key)),
            file=out,
        )
    else:
        print("None of the specified partition reassignments are active.", file=out)
    cur_moving_parts = {
        replica: state.current_log_dir
        for replica, state in find_log_dir_move_states(admin_client, target_replicas).items()
        if isinstance(state, ActiveMoveState)
    }
    if not cur_moving_parts:
        print("None of the specified partition moves are active.", file=out)
    else:
        execute_moves(admin_client, cur_moving_parts, timeout_ms, out, time)
    if not preserve_throttles:
        clear_all_throttles(admin_client, target_parts, out)
    return set(cur_reassigning_parts), set(cur_moving_parts)


# -- the JSON files ------------------------------------------------------------------------------------------------


def format_as_reassignment_json(
    partitions_to_be_reassigned: Mapping[TopicPartition, Sequence[int]],
    replica_log_dir_assignment: Mapping[TopicPartitionReplica, str],
) -> str:
    """A reassignment file (version 1), partitions sorted by topic and partition, `log_dirs` "any" unless a
    directory is given."""
    partitions = []
    for tp in sorted(partitions_to_be_reassigned, key=_tp_key):
        replicas = list(partitions_to_be_reassigned[tp])
        partitions.append(
            {
                "topic": tp.topic,
                "partition": tp.partition,
                "replicas": replicas,
                "log_dirs": [
                    replica_log_dir_assignment.get(TopicPartitionReplica(tp.topic, tp.partition, r), ANY_LOG_DIR)
                    for r in replicas
                ],
            }
        )
    return jvm_json.encode_as_bytes({"version": 1, "partitions": partitions}).decode("utf-8")


def _parse_json(text: str) -> Any:
    """Jackson's parse of a whole document; JsonParseException (a JsonMappingException here) if it is not JSON."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise _JsonParseException(
            f"{e.msg}\n at [Source: (String){_java_quoted(text)}; line: {e.lineno}, column: {e.colno}]"
        ) from None


def _java_quoted(text: str) -> str:
    shown = text if len(text) <= 500 else text[:500] + "[truncated " + str(len(text) - 500) + " chars]"
    return '"' + shown + '"'


class _IndexOutOfBoundsException(IndexError):
    JAVA_CLASS_NAME = "java.lang.IndexOutOfBoundsException"


class _JsonParseException(JsonMappingException):
    JAVA_CLASS_NAME = "com.fasterxml.jackson.core.JsonParseException"


def _json_version(js: Any, default: int) -> int:
    version = json_object(js).get("version")
    return default if version is None else json_to_int(version)


def parse_topics_data(json_data: str) -> list[str]:
    """The topics of a --topics-to-move-json-file (version 1)."""
    try:
        js = _parse_json(json_data)
    except _JsonParseException:
        raise AdminOperationException("The input string is not a valid JSON") from None
    version = _json_version(js, EARLIEST_TOPICS_JSON_VERSION)
    if version != 1:
        raise AdminOperationException(f"Not supported version field value {version}")
    topics = json_object(js).get("topics")
    if topics is None:
        return []
    return [json_to_string(json_field(json_object(p), "topic")) for p in json_array(topics)]


def parse_partition_reassignment_data(
    json_data: str,
) -> tuple[list[tuple[TopicPartition, list[int]]], dict[TopicPartitionReplica, str]]:
    """The partitions of a reassignment file in file order (duplicates kept, for the checks), and the replicas
    with a log directory other than "any"."""
    try:
        js = _parse_json(json_data)
    except _JsonParseException as e:
        raise AdminOperationException(str(e)) from e
    version = _json_version(js, EARLIEST_VERSION)
    if version != 1:
        raise AdminOperationException(f"Not supported version field value {version}")
    partition_assignment: list[tuple[TopicPartition, list[int]]] = []
    replica_assignment: dict[TopicPartitionReplica, str] = {}
    partitions_seq = json_object(js).get("partitions")
    for p in [] if partitions_seq is None else json_array(partitions_seq):
        partition_fields = json_object(p)
        topic = json_to_string(json_field(partition_fields, "topic"))
        partition = json_to_int(json_field(partition_fields, "partition"))
        new_replicas = [json_to_int(r) for r in json_array(json_field(partition_fields, "replicas"))]
        log_dirs_js = partition_fields.get("log_dirs")
        new_log_dirs = (
            [ANY_LOG_DIR] * len(new_replicas)
            if log_dirs_js is None
            else [json_to_string(d) for d in json_array(log_dirs_js)]
        )
        tp = TopicPartition(topic, partition)
        if len(new_replicas) != len(new_log_dirs):
            raise AdminCommandFailedException(
                f"Size of replicas list {_scala_vector(new_replicas)} is different from size of log dirs list "
                f"{_scala_vector(new_log_dirs)} for partition {tp}"
            )
        partition_assignment.append((tp, new_replicas))
        for replica, log_dir in zip(new_replicas, new_log_dirs, strict=True):
            if log_dir != ANY_LOG_DIR:
                replica_assignment[TopicPartitionReplica(topic, partition, replica)] = log_dir
    return partition_assignment, replica_assignment


def _scala_vector(values: Sequence[Any]) -> str:
    """A decoded JSON array as Scala prints the Seq it becomes."""
    return "Vector(" + ", ".join(str(v) for v in values) + ")"


# -- log directory moves -------------------------------------------------------------------------------------------


def alter_replica_log_dirs(
    admin_client: Any, assignment: Mapping[TopicPartitionReplica, str]
) -> set[TopicPartitionReplica]:
    """Asks the brokers to move replicas between log directories; returns those started. A replica its broker
    does not have yet (REPLICA_NOT_AVAILABLE) is left for the next try."""
    started: set[TopicPartitionReplica] = set()
    for replica, future in admin_client.alter_replica_log_dirs(dict(assignment)).values().items():
        try:
            future.get()
            started.add(replica)
        except ExecutionException as e:
            if isinstance(e.cause, ReplicaNotAvailableException):
                continue
            raise AdminCommandFailedException(f"Failed to alter dir for {replica}", e.cause) from e.cause
    return started


# -- the command line ----------------------------------------------------------------------------------------------


def validate_and_parse_args(args: Sequence[str], out: TextIO) -> ReassignPartitionsCommandOptions | None:
    """The options, checked as Kafka checks them: one action, its required arguments, no argument another action
    takes, and --bootstrap-server for what needs it. None when only the version was printed."""
    opts = ReassignPartitionsCommandOptions(args)
    if is_print_help_needed(opts):
        print_usage_and_die(opts.parser, HELP_TEXT)
    if print_version_if_needed(opts, out):
        return None
    options = opts.options
    valid_actions = [opts.generate_opt, opts.execute_opt, opts.verify_opt, opts.cancel_opt, opts.list_opt]
    all_actions = [a for a in valid_actions if options.has(a)]
    if len(all_actions) != 1:
        print_usage_and_die(
            opts.parser,
            "Command must include exactly one action: " + ", ".join("--" + a.name for a in valid_actions),
        )
    action = all_actions[0]
    if not options.has(opts.zk_connect_opt) and not options.has(opts.bootstrap_server_opt):
        print_usage_and_die(opts.parser, "Please specify --bootstrap-server")

    required_args = {
        opts.verify_opt: [opts.reassignment_json_file_opt],
        opts.generate_opt: [opts.topics_to_move_json_file_opt, opts.broker_list_opt],
        opts.execute_opt: [opts.reassignment_json_file_opt],
        opts.cancel_opt: [opts.reassignment_json_file_opt],
        opts.list_opt: [],
    }
    check_required_args(opts.parser, options, *required_args[action])
    permitted_args = {
        opts.verify_opt: [
            opts.bootstrap_server_opt,
            opts.command_config_opt,
            opts.preserve_throttles_opt,
            opts.zk_connect_opt,
        ],
        opts.generate_opt: [
            opts.bootstrap_server_opt,
            opts.broker_list_opt,
            opts.command_config_opt,
            opts.disable_rack_aware,
            opts.zk_connect_opt,
        ],
        opts.execute_opt: [
            opts.additional_opt,
            opts.bootstrap_server_opt,
            opts.command_config_opt,
            opts.inter_broker_throttle_opt,
            opts.replica_alter_log_dirs_throttle_opt,
            opts.timeout_opt,
            opts.zk_connect_opt,
        ],
        opts.cancel_opt: [
            opts.bootstrap_server_opt,
            opts.command_config_opt,
            opts.preserve_throttles_opt,
            opts.timeout_opt,
        ],
        opts.list_opt: [opts.bootstrap_server_opt, opts.command_config_opt],
    }
    for opt in options.specs():
        if opt is not action and opt not in required_args[action] and opt not in permitted_args[action]:
            print_usage_and_die(opts.parser, f'Option "{opt}" can\'t be used with action "{action}"')
    # PORT: Kafka 2.8 takes a negative throttle given on the command line as "no throttle" (its default, -1, means
    # that) and goes on; a negative rate is a typing mistake that would leave a move unthrottled, so it is refused
    # before anything changes.
    for throttle_opt in (opts.inter_broker_throttle_opt, opts.replica_alter_log_dirs_throttle_opt):
        if options.has(throttle_opt) and options.value_of(throttle_opt) < 0:
            print_usage_and_die(
                opts.parser,
                f"The value of --{throttle_opt.name} must be a non-negative number of bytes per second, "
                f"not {options.value_of(throttle_opt)}",
            )
    if not options.has(opts.bootstrap_server_opt):
        bootstrap_server_only_args = [
            opts.additional_opt,
            opts.cancel_opt,
            opts.command_config_opt,
            opts.replica_alter_log_dirs_throttle_opt,
            opts.list_opt,
            opts.timeout_opt,
        ]
        for opt in bootstrap_server_only_args:
            if options.has(opt):
                raise RuntimeError(f'You must specify --bootstrap-server when using "{opt}"')
    return opts


class ReassignPartitionsCommandOptions(CommandDefaultOptions):
    """The command line of kafka-reassign-partitions.sh."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.verify_opt = parser.accepts(
            "verify",
            "Verify if the reassignment completed as specified by the --reassignment-json-file option. If there is "
            "a throttle engaged for the replicas specified, and the rebalance has completed, the throttle will be "
            "removed",
        )
        self.generate_opt = parser.accepts(
            "generate",
            "Generate a candidate partition reassignment configuration. Note that this only generates a candidate "
            "assignment, it does not execute it.",
        )
        self.execute_opt = parser.accepts(
            "execute", "Kick off the reassignment as specified by the --reassignment-json-file option."
        )
        self.cancel_opt = parser.accepts("cancel", "Cancel an active reassignment.")
        self.list_opt = parser.accepts("list", "List all active partition reassignments.")
        self.bootstrap_server_opt = (
            parser.accepts(
                "bootstrap-server",
                "the server(s) to use for bootstrapping. REQUIRED if an absolute path of the log directory is "
                "specified for any replica in the reassignment json file, or if --zookeeper is not given.",
            )
            .with_required_arg()
            .described_as("Server(s) to use for bootstrapping")
            .of_type(str)
        )
        self.command_config_opt = (
            parser.accepts("command-config", "Property file containing configs to be passed to Admin Client.")
            .with_required_arg()
            .described_as("Admin client property file")
            .of_type(str)
        )
        self.zk_connect_opt = (
            parser.accepts(
                "zookeeper",
                "DEPRECATED: The connection string for the zookeeper connection in the form host:port. Multiple "
                "URLS can be given to allow fail-over.  Please use --bootstrap-server instead.",
            )
            .with_required_arg()
            .described_as("urls")
            .of_type(str)
        )
        self.reassignment_json_file_opt = (
            parser.accepts(
                "reassignment-json-file",
                "The JSON file with the partition reassignment configurationThe format to use is - \n"
                '{"partitions":\n\t[{"topic": "foo",\n\t  "partition": 1,\n\t  "replicas": [1,2,3],\n\t  '
                '"log_dirs": ["dir1","dir2","dir3"] }],\n"version":1\n}\n'
                'Note that "log_dirs" is optional. When it is specified, its length must equal the length of the '
                'replicas list. The value in this list can be either "any" or the absolution path of the log '
                "directory on the broker. If absolute log directory path is specified, the replica will be moved "
                "to the specified log directory on the broker.",
            )
            .with_required_arg()
            .described_as("manual assignment json file path")
            .of_type(str)
        )
        self.topics_to_move_json_file_opt = (
            parser.accepts(
                "topics-to-move-json-file",
                "Generate a reassignment configuration to move the partitions of the specified topics to the list "
                "of brokers specified by the --broker-list option. The format to use is - \n"
                '{"topics":\n\t[{"topic": "foo"},{"topic": "foo1"}],\n"version":1\n}',
            )
            .with_required_arg()
            .described_as("topics to reassign json file path")
            .of_type(str)
        )
        self.broker_list_opt = (
            parser.accepts(
                "broker-list",
                'The list of brokers to which the partitions need to be reassigned in the form "0,1,2". This is '
                "required if --topics-to-move-json-file is used to generate reassignment configuration",
            )
            .with_required_arg()
            .described_as("brokerlist")
            .of_type(str)
        )
        self.disable_rack_aware = parser.accepts("disable-rack-aware", "Disable rack aware replica assignment")
        self.inter_broker_throttle_opt = (
            parser.accepts(
                "throttle",
                "The movement of partitions between brokers will be throttled to this value (bytes/sec). This "
                "option can be included with --execute when a reassignment is started, and it can be altered by "
                "resubmitting the current reassignment along with the --additional flag. The throttle rate should "
                "be at least 1 KB/s.",
            )
            .with_required_arg()
            .described_as("throttle")
            .of_type(int)
            .defaults_to(-1)
        )
        self.replica_alter_log_dirs_throttle_opt = (
            parser.accepts(
                "replica-alter-log-dirs-throttle",
                "The movement of replicas between log directories on the same broker will be throttled to this "
                "value (bytes/sec). This option can be included with --execute when a reassignment is started, and "
                "it can be altered by resubmitting the current reassignment along with the --additional flag. The "
                "throttle rate should be at least 1 KB/s.",
            )
            .with_required_arg()
            .described_as("replicaAlterLogDirsThrottle")
            .of_type(int)
            .defaults_to(-1)
        )
        self.timeout_opt = (
            parser.accepts("timeout", "The maximum time in ms to wait for log directory replica assignment to begin.")
            .with_required_arg()
            .described_as("timeout")
            .of_type(int)
            .defaults_to(10000)
        )
        self.additional_opt = parser.accepts(
            "additional",
            "Execute this reassignment in addition to any other ongoing ones. This option can also be used to "
            "change the throttle of an ongoing reassignment.",
        )
        self.preserve_throttles_opt = parser.accepts("preserve-throttles", "Do not modify broker or topic throttles.")
        self.options = parser.parse(self.args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-reassign-partitions.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
