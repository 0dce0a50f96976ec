"""ReassignPartitionsCommand (kafka-reassign-partitions.sh) against a fake admin client: the JSON files, --generate
with AdminUtils' assignment, --execute with its throttles, --verify, --cancel, --list, and Kafka's messages and
exit status for bad input (with nothing changed)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from kafka.admin import reassign_partitions_command as rpc
from kafka.admin._tool_support import AdminCommandFailedException
from kafka.admin.admin_utils import AdminOperationException
from kafka.clients.admin.alter_config_op import OpType
from kafka.clients.admin.partition_reassignment import PartitionReassignment
from kafka.common.config.config_resource import ConfigResource
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_replica import TopicPartitionReplica
from tests.unit.kafka.admin.admin_tool_fakes import BOOTSTRAP, FakeAdmin, run_tool

TP0, TP1, TP2 = TopicPartition("foo", 0), TopicPartition("foo", 1), TopicPartition("foo", 2)


def reassign(*args: str, admin: FakeAdmin | None = None) -> tuple[int, str, str]:
    return run_tool(rpc.run_command, [*BOOTSTRAP, *args], admin)


def cluster_admin() -> FakeAdmin:
    admin = FakeAdmin()
    admin.add_topic("foo", (0, [0, 1, 2], [0, 1, 2]), (1, [1, 2, 0], [1, 2, 0]), (2, [2, 0, 1], [2, 0, 1]))
    admin.add_topic("bar", (0, [0, 1], [0, 1]))
    return admin


def write(tmp_path: Path, name: str, content: Any) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def reassignment_file(tmp_path: Path, *parts: tuple[str, int, list[int]]) -> str:
    return write(
        tmp_path,
        "reassign.json",
        {"version": 1, "partitions": [{"topic": t, "partition": p, "replicas": r} for t, p, r in parts]},
    )


def changes(admin: FakeAdmin) -> list[tuple[str, Any]]:
    """The calls that change something."""
    return [
        (name, args)
        for name, args in admin.calls
        if name in ("alter_partition_reassignments", "incremental_alter_configs")
    ]


# -- the JSON files ------------------------------------------------------------------------------------------------


def test_parse_partition_reassignment_data_keeps_file_order_and_log_dirs() -> None:
    """Partitions come back in file order with their replicas; log dirs other than "any" become replica moves;
    a file without "version" is version 1."""
    parts, moves = rpc.parse_partition_reassignment_data(
        '{"partitions":[{"topic":"foo","partition":1,"replicas":[2,1],"log_dirs":["any","/data/b"]},'
        '{"topic":"bar","partition":0,"replicas":[0]}]}'
    )
    assert parts == [(TP1, [2, 1]), (TopicPartition("bar", 0), [0])]
    assert moves == {TopicPartitionReplica("foo", 1, 1): "/data/b"}


def test_parse_partition_reassignment_data_refuses_bad_files() -> None:
    """An unknown version, log dirs of another length than the replicas, and text that is not JSON are refused
    with Kafka's exceptions."""
    with pytest.raises(AdminOperationException, match="Not supported version field value 2"):
        rpc.parse_partition_reassignment_data('{"version":2,"partitions":[]}')
    with pytest.raises(
        AdminCommandFailedException,
        match=r"Size of replicas list Vector\(1, 2\) is different from size of log dirs list Vector\(any\) for "
        r"partition foo-0",
    ):
        rpc.parse_partition_reassignment_data(
            '{"partitions":[{"topic":"foo","partition":0,"replicas":[1,2],"log_dirs":["any"]}]}'
        )
    with pytest.raises(AdminOperationException, match="line: 1, column: 16"):
        rpc.parse_partition_reassignment_data('{"partitions":[')


def test_format_as_reassignment_json_is_kafkas() -> None:
    """Kafka's compact JSON, partitions sorted by topic then partition, "any" log dirs by default."""
    text = rpc.format_as_reassignment_json(
        {TP1: [1, 0], TopicPartition("bar", 0): [2]}, {TopicPartitionReplica("foo", 1, 0): "/d"}
    )
    assert text == (
        '{"version":1,"partitions":[{"topic":"bar","partition":0,"replicas":[2],"log_dirs":["any"]},'
        '{"topic":"foo","partition":1,"replicas":[1,0],"log_dirs":["any","/d"]}]}'
    )


def test_parse_topics_data() -> None:
    """The topics of a topics-to-move file; not JSON is "The input string is not a valid JSON"."""
    assert rpc.parse_topics_data('{"topics":[{"topic":"foo"},{"topic":"bar"}],"version":1}') == ["foo", "bar"]
    with pytest.raises(AdminOperationException, match="The input string is not a valid JSON"):
        rpc.parse_topics_data("{nope")
    with pytest.raises(AdminOperationException, match="Not supported version field value 3"):
        rpc.parse_topics_data('{"topics":[],"version":3}')


@pytest.mark.parametrize(
    ("partitions", "message"),
    [
        ([], "Partition reassignment list cannot be empty"),
        ([("foo", 0, [])], "Partition replica list cannot be empty"),
        (
            [("foo", 0, [1]), ("foo", 0, [2])],
            "Partition reassignment contains duplicate topic partitions: foo-0",
        ),
        (
            [("foo", 0, [1, 1, 2]), ("foo", 1, [0, 2, 2, 0])],
            "Partition replica lists may not contain duplicate entries: foo-0 contains multiple entries for 1. "
            "foo-1 contains multiple entries for 0,2",
        ),
    ],
)
def test_parse_execute_assignment_args_refuses(partitions: list[tuple[str, int, list[int]]], message: str) -> None:
    """Kafka's checks of an --execute file, with its messages."""
    text = json.dumps(
        {"version": 1, "partitions": [{"topic": t, "partition": p, "replicas": r} for t, p, r in partitions]}
    )
    with pytest.raises(AdminCommandFailedException) as info:
        rpc.parse_execute_assignment_args(text)
    assert str(info.value) == message


# -- throttle calculations -------------------------------------------------------------------------------------


def test_throttles_of_a_move() -> None:
    """Leaders are throttled on the sources, followers on the destinations that are not sources; a partition
    already moving keeps its sources; entries sort as strings."""
    current = {TopicPartition("foo", 10): PartitionReassignment((0, 1, 3), (3,), (0,))}
    move_map = rpc.calculate_proposed_move_map(
        current,
        {TP0: [3, 4, 0], TopicPartition("foo", 10): [1, 3]},
        {TP0: [0, 1, 2], TopicPartition("foo", 10): [0, 1, 3]},
    )
    assert rpc.calculate_leader_throttles(move_map) == {"foo": "0:0,0:1,0:2,10:0,10:1"}
    assert rpc.calculate_follower_throttles(move_map) == {"foo": "0:3,0:4,10:3"}
    assert rpc.calculate_reassigning_brokers(move_map) == [0, 1, 2, 3, 4]
    with pytest.raises(RuntimeError, match="Trying to reassign a topic partition foo-7 with 0 replicas"):
        rpc.calculate_proposed_move_map({}, {TopicPartition("foo", 7): [1]}, {})


# -- --generate --------------------------------------------------------------------------------------------------


def test_generate_prints_current_and_a_valid_proposal(tmp_path: Path) -> None:
    """--generate prints the current assignment and a proposal of as many partitions and replicas over the brokers
    listed (AdminUtils.assignReplicasToBrokers: leaders spread, no duplicates); nothing changes."""
    admin = cluster_admin()
    topics_file = write(tmp_path, "topics.json", {"topics": [{"topic": "foo"}], "version": 1})
    status, out, err = reassign(
        "--generate", "--topics-to-move-json-file", topics_file, "--broker-list", "0,1,2", admin=admin
    )
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Current partition replica assignment"
    assert lines[1] == (
        '{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[0,1,2],"log_dirs":["any","any","any"]},'
        '{"topic":"foo","partition":1,"replicas":[1,2,0],"log_dirs":["any","any","any"]},'
        '{"topic":"foo","partition":2,"replicas":[2,0,1],"log_dirs":["any","any","any"]}]}'
    )
    assert (lines[2], lines[3]) == ("", "Proposed partition reassignment configuration")
    proposed = json.loads(lines[4])
    assert [(p["topic"], p["partition"]) for p in proposed["partitions"]] == [("foo", 0), ("foo", 1), ("foo", 2)]
    assert all(sorted(p["replicas"]) == [0, 1, 2] for p in proposed["partitions"])
    assert len(lines) == 5
    assert changes(admin) == []


def test_generate_proposal_over_the_brokers(tmp_path: Path) -> None:
    """The proposal keeps the partition count and replication factor, uses only live listed brokers, and spreads
    leaders over them."""
    admin = cluster_admin()
    topics_file = write(tmp_path, "topics.json", {"topics": [{"topic": "bar"}, {"topic": "foo"}], "version": 1})
    topics_json = Path(topics_file).read_text()
    proposed, current = rpc.generate_assignment(admin, topics_json, "0,1,2,7", True, _Out())
    assert set(proposed) == set(current) == {TP0, TP1, TP2, TopicPartition("bar", 0)}
    for tp, replicas in proposed.items():
        assert len(replicas) == len(current[tp]) and len(set(replicas)) == len(replicas)
        assert set(replicas) <= {0, 1, 2}
    assert {proposed[tp][0] for tp in (TP0, TP1, TP2)} == {0, 1, 2}
    assert changes(admin) == []


def test_generate_bad_input(tmp_path: Path) -> None:
    """Duplicate brokers or topics, too few brokers for the replication factor: Kafka's message, status 1."""
    admin = cluster_admin()
    topics_file = write(tmp_path, "topics.json", {"topics": [{"topic": "foo"}], "version": 1})
    status, out, _ = reassign(
        "--generate", "--topics-to-move-json-file", topics_file, "--broker-list", "1,2,1", admin=admin
    )
    assert status == 1
    assert out.splitlines()[0] == "Error: Broker list contains duplicate entries: 1"
    status, out, _ = reassign(
        "--generate", "--topics-to-move-json-file", topics_file, "--broker-list", "1,2", admin=admin
    )
    assert status == 1
    assert out.splitlines()[0] == "Error: Replication factor: 3 larger than available brokers: 2."
    dup_file = write(tmp_path, "dup.json", {"topics": [{"topic": "foo"}, {"topic": "foo"}], "version": 1})
    status, out, _ = reassign(
        "--generate", "--topics-to-move-json-file", dup_file, "--broker-list", "0,1,2", admin=admin
    )
    assert status == 1
    assert out.splitlines()[0] == "Error: List of topics to reassign contains duplicate entries: foo"


class _Out(io.StringIO):
    """A captured output stream; `text` is what was written."""

    @property
    def text(self) -> str:
        return self.getvalue()


# -- --execute ---------------------------------------------------------------------------------------------------


def test_execute_starts_the_reassignments(tmp_path: Path) -> None:
    """--execute prints the rollback file and Kafka's success line, and asks for each partition's target."""
    admin = cluster_admin()
    path = reassignment_file(tmp_path, ("foo", 0, [2, 1, 0]), ("foo", 1, [0, 2, 1]))
    status, out, err = reassign("--execute", "--reassignment-json-file", path, admin=admin)
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "Current partition replica assignment",
        "",
        '{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[0,1,2],"log_dirs":["any","any","any"]},'
        '{"topic":"foo","partition":1,"replicas":[1,2,0],"log_dirs":["any","any","any"]}]}',
        "",
        "Save this to use as the --reassignment-json-file option during rollback",
        "Successfully started partition reassignments for foo-0,foo-1",
    ]
    ((name, targets),) = changes(admin)
    assert name == "alter_partition_reassignments"
    assert {tp: t.target_replicas for tp, t in targets.items()} == {TP0: [2, 1, 0], TP1: [0, 2, 1]}


def test_execute_with_throttle_sets_kafkas_throttle_configs(tmp_path: Path) -> None:
    """--throttle sets the topic's leader/follower throttled replicas and the rates of the brokers involved
    before the reassignment starts."""
    admin = cluster_admin()
    path = reassignment_file(tmp_path, ("bar", 0, [1, 2]))
    status, out, _ = reassign("--execute", "--reassignment-json-file", path, "--throttle", "50000", admin=admin)
    assert status == 0
    lines = out.splitlines()
    assert rpc.YOU_MUST_RUN_VERIFY_PERIODICALLY_MESSAGE in lines
    assert "The inter-broker throttle limit was set to 50000 B/s" in lines
    assert lines[-1] == "Successfully started partition reassignment for bar-0"
    names = [name for name, _ in changes(admin)]
    assert names == ["incremental_alter_configs", "incremental_alter_configs", "alter_partition_reassignments"]
    topic_ops = changes(admin)[0][1][ConfigResource(ConfigResource.Type.TOPIC, "bar")]
    assert [(op.config_entry.name, op.config_entry.value, op.op_type) for op in topic_ops] == [
        ("leader.replication.throttled.replicas", "0:0,0:1", OpType.SET),
        ("follower.replication.throttled.replicas", "0:2", OpType.SET),
    ]
    broker_ops = changes(admin)[1][1]
    assert sorted(int(r.name) for r in broker_ops) == [0, 1, 2]
    for ops in broker_ops.values():
        assert [(op.config_entry.name, op.config_entry.value) for op in ops] == [
            ("leader.replication.throttled.rate", "50000"),
            ("follower.replication.throttled.rate", "50000"),
        ]


def test_execute_negative_throttle_is_refused(tmp_path: Path) -> None:
    """A negative --throttle or --replica-alter-log-dirs-throttle is refused with a usage error, status 1, before
    anything changes (Kafka 2.8 would silently run the move unthrottled)."""
    admin = cluster_admin()
    path = reassignment_file(tmp_path, ("bar", 0, [1, 0]))
    for flag in ("--throttle", "--replica-alter-log-dirs-throttle"):
        status, out, err = reassign("--execute", "--reassignment-json-file", path, flag, "-100", admin=admin)
        assert status == 1
        assert f"The value of {flag} must be a non-negative number of bytes per second, not -100" in out + err
        assert changes(admin) == []


def test_execute_bad_input_changes_nothing(tmp_path: Path) -> None:
    """Unknown brokers, unknown topics, duplicate replicas and malformed JSON: "Error: " and Kafka's message,
    status 1, no throttle and no reassignment."""
    admin = cluster_admin()
    cases = {
        reassignment_file(tmp_path, ("foo", 0, [0, 1, 5])): "Error: Unknown broker id 5",
        write(tmp_path, "unknown.json", {"partitions": [{"topic": "nosuch", "partition": 0, "replicas": [0]}]}): (
            "Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: "
            "This server does not host this topic-partition."
        ),
        write(tmp_path, "dup.json", {"partitions": [{"topic": "foo", "partition": 0, "replicas": [1, 1]}]}): (
            "Error: Partition replica lists may not contain duplicate entries: foo-0 contains multiple entries for 1"
        ),
        write(tmp_path, "bad.json", '{"partitions": [{"topic": "foo", '): None,
    }
    for path, message in cases.items():
        status, out, _ = reassign("--execute", "--reassignment-json-file", path, "--throttle", "1000", admin=admin)
        assert status == 1, out
        first = out.splitlines()[0]
        if message is None:
            assert first.startswith("Error: ") and "line: 1, column: " in out
        else:
            assert first == message
    assert changes(admin) == []


def test_execute_unknown_partition_reports_the_controllers_error(tmp_path: Path) -> None:
    """A partition the topic does not have fails with the controller's error, in Kafka's terse form."""
    admin = cluster_admin()
    path = reassignment_file(tmp_path, ("bar", 4, [0]))
    status, out, _ = reassign("--execute", "--reassignment-json-file", path, admin=admin)
    assert status == 1
    assert out.splitlines()[-2:] == ["Error reassigning partition(s):", "bar-4: The partition does not exist."]


def test_execute_needs_additional_when_a_reassignment_runs(tmp_path: Path) -> None:
    """With a reassignment in progress, --execute refuses unless --additional."""
    admin = cluster_admin()
    admin.reassignments[TP2] = PartitionReassignment((2, 0, 1, 3), (3,), (2,))
    path = reassignment_file(tmp_path, ("foo", 0, [2, 1, 0]))
    status, out, _ = reassign("--execute", "--reassignment-json-file", path, admin=admin)
    assert (status, out) == (1, rpc.CANNOT_EXECUTE_BECAUSE_OF_EXISTING_MESSAGE + "\n")
    assert changes(admin) == []
    status, out, _ = reassign("--execute", "--additional", "--reassignment-json-file", path, admin=admin)
    assert status == 0
    assert out.splitlines()[-1] == "Successfully started partition reassignment for foo-0"


# -- --verify, --list, --cancel ------------------------------------------------------------------------------------


def test_verify_in_progress_keeps_throttles(tmp_path: Path) -> None:
    """--verify prints each partition's state; while any reassignment runs the throttles stay."""
    admin = cluster_admin()
    admin.reassignments[TP0] = PartitionReassignment((0, 1, 2, 3), (3,), (0,))
    path = reassignment_file(tmp_path, ("foo", 0, [1, 2, 3]), ("foo", 1, [1, 2, 0]), ("foo", 2, [0, 1, 2]))
    status, out, _ = reassign("--verify", "--reassignment-json-file", path, admin=admin)
    assert status == 0
    assert out.splitlines() == [
        "Status of partition reassignment:",
        "Reassignment of partition foo-0 is still in progress.",
        "Reassignment of partition foo-1 is complete.",
        "There is no active reassignment of partition foo-2, but replica set is 2,0,1 rather than 0,1,2.",
        "",
    ]
    assert changes(admin) == []


def test_verify_done_clears_throttles(tmp_path: Path) -> None:
    """When nothing runs, --verify removes the broker throttles of every live and listed broker and the topic
    throttles of the file's topics (not with --preserve-throttles)."""
    admin = cluster_admin()
    path = reassignment_file(tmp_path, ("foo", 0, [0, 1, 2]), ("bar", 0, [0, 1]))
    status, out, _ = reassign("--verify", "--reassignment-json-file", path, admin=admin)
    assert status == 0
    assert out.splitlines()[-2:] == [
        "Clearing broker-level throttles on brokers 0,1,2",
        "Clearing topic-level throttles on topics foo,bar",
    ]
    broker_ops, topic_ops = (args for _, args in changes(admin))
    assert {r.name for r in broker_ops} == {"0", "1", "2"}
    assert all(
        [(op.config_entry.name, op.op_type) for op in ops]
        == [(name, OpType.DELETE) for name in rpc.BROKER_LEVEL_THROTTLES]
        for ops in broker_ops.values()
    )
    assert {r.name for r in topic_ops} == {"foo", "bar"}
    admin.calls.clear()
    status, out, _ = reassign("--verify", "--preserve-throttles", "--reassignment-json-file", path, admin=admin)
    assert status == 0 and "Clearing" not in out
    assert changes(admin) == []


def test_list() -> None:
    """--list prints the ongoing reassignments, sorted, or says there are none."""
    admin = cluster_admin()
    assert reassign("--list", admin=admin) == (0, "No partition reassignments found.\n", "")
    admin.reassignments[TP1] = PartitionReassignment((1, 2, 0), (), ())
    admin.reassignments[TP0] = PartitionReassignment((0, 1, 2, 3), (3,), (0,))
    _, out, _ = reassign("--list", admin=admin)
    assert out.splitlines() == [
        "Current partition reassignments:",
        "foo-0: replicas: 0,1,2,3. adding: 3. removing: 0.",
        "foo-1: replicas: 1,2,0.",
    ]


def test_cancel(tmp_path: Path) -> None:
    """--cancel cancels the file's running reassignments and clears throttles; with none running it says so."""
    admin = cluster_admin()
    admin.reassignments[TP0] = PartitionReassignment((0, 1, 2, 3), (3,), (0,))
    path = reassignment_file(tmp_path, ("foo", 0, [1, 2, 3]), ("foo", 1, [0, 1, 2]))
    status, out, _ = reassign("--cancel", "--reassignment-json-file", path, "--preserve-throttles", admin=admin)
    assert status == 0
    assert out.splitlines() == [
        "Successfully cancelled partition reassignment for: foo-0",
        "None of the specified partition moves are active.",
    ]
    assert admin.reassignments == {}
    status, out, _ = reassign("--cancel", "--reassignment-json-file", path, admin=admin)
    assert status == 0
    assert out.splitlines()[:2] == [
        "None of the specified partition reassignments are active.",
        "None of the specified partition moves are active.",
    ]
    assert out.splitlines()[2].startswith("Clearing broker-level throttles on brokers")


# -- the command line --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--bootstrap-server", "h:1"],
            "Command must include exactly one action: --generate, --execute, --verify, --cancel, --list",
        ),
        (["--bootstrap-server", "h:1", "--list", "--verify"], "Command must include exactly one action"),
        (["--list"], "Please specify --bootstrap-server"),
        (["--bootstrap-server", "h:1", "--execute"], 'Missing required argument "[reassignment-json-file]"'),
        (
            ["--bootstrap-server", "h:1", "--list", "--throttle", "5"],
            'Option "[throttle]" can\'t be used with action "[list]"',
        ),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    """Kafka's usage errors: the message and the help on stderr, status 1."""
    out, err = _Out(), _Out()
    status = rpc.run_command(args, out, err, admin_factory=FakeAdmin().factory)
    assert status == 1
    assert err.text.startswith(message)
    assert "--reassignment-json-file" in err.text


def test_zookeeper_only_actions_need_bootstrap_server() -> None:
    """An option that needs --bootstrap-server, given with --zookeeper only, ends as Kafka's does: an uncaught
    RuntimeException naming it; --list does not take --zookeeper at all."""
    out, err = _Out(), _Out()
    status = rpc.run_command(
        ["--zookeeper", "z:2181", "--execute", "--additional", "--reassignment-json-file", "f"],
        out,
        err,
    )
    assert status == 1
    assert 'java.lang.RuntimeException: You must specify --bootstrap-server when using "[additional]"' in err.text
    status = rpc.run_command(["--zookeeper", "z:2181", "--list"], out, err)
    assert status == 1
    assert 'Option "[zookeeper]" can\'t be used with action "[list]"' in err.text


def test_verify_partitions_that_do_not_exist(tmp_path: Path) -> None:
    """A partition past the topic's end, or of a topic that does not exist, has no replicas: Kafka reports it as
    not reassigned, with an empty replica set."""
    admin = cluster_admin()
    path = reassignment_file(tmp_path, ("foo", 9, [1]), ("nosuch", 0, [0]))
    status, out, _ = reassign("--verify", "--preserve-throttles", "--reassignment-json-file", path, admin=admin)
    assert status == 0
    assert out.splitlines() == [
        "Status of partition reassignment:",
        "There is no active reassignment of partition foo-9, but replica set is  rather than 1.",
        "There is no active reassignment of partition nosuch-0, but replica set is  rather than 0.",
        "",
    ]
