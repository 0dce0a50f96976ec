"""Tests of TopicCommand with a fake admin client: Kafka's option checks and messages, the lines --describe prints
and which partitions each report selects, and what create, alter and delete ask of the admin client, after
Kafka's TopicCommandTest and TopicCommandWithAdminClientTest."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka.admin import topic_command as tc
from kafka.admin._tool_support import AdminCommandFailedException
from kafka.admin.admin_utils import AdminOperationException
from kafka.clients.admin.partition_reassignment import PartitionReassignment
from kafka.common.errors import ThrottlingQuotaExceededException
from kafka.common.node import Node
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_info import TopicPartitionInfo
from kafka.common.utils.utils import NumberFormatException
from kafka.utils.topic_filter import IncludeList
from tests.unit.kafka.admin.admin_tool_fakes import BOOTSTRAP, FakeAdmin, run_tool


def topics(*args: str, admin: FakeAdmin | None = None) -> tuple[int, str, str]:
    return run_tool(tc.run_command, [*BOOTSTRAP, *args], admin or FakeAdmin())


# -- option checks --------------------------------------------------------------------------------------------------


def test_no_arguments_prints_usage_and_fails() -> None:
    """Without arguments the tool prints Kafka's one-line summary and the help, and exits 1."""
    status, out, err = run_tool(tc.run_command, [])
    assert status == 1
    assert err.startswith("Create, delete, describe, or change a topic.\nOption ")
    assert out == ""


def test_help_lists_options_with_kafka_types() -> None:
    """--help shows Integer arguments as jopt-simple does and keeps the 2.8 options."""
    status, _, err = run_tool(tc.run_command, ["--help"])
    assert status == 1
    assert err.startswith("This tool helps to create, delete, describe, or change a topic.\n")
    assert "\n--partitions <Integer: # of partitions>  The number of partitions for the topic \n" in err
    assert "--replication-factor <Integer:" in err
    assert "--topics-with-overrides" in err
    assert "\n--zookeeper " not in err


def test_exactly_one_action_required() -> None:
    """Two actions, or none, is Kafka's usage error."""
    status, _, err = topics("--list", "--describe")
    assert status == 1
    assert err.startswith(
        "Command must include exactly one action: --list, --describe, --create, --alter or --delete\n"
    )
    status, _, err = topics("--topic", "t")
    assert status == 1
    assert err.startswith("Command must include exactly one action")


def test_bootstrap_server_required() -> None:
    """Without --bootstrap-server the tool fails as Kafka 3.x's does."""
    status, out, err = run_tool(tc.run_command, ["--list"])
    assert status == 1
    assert (
        err == 'Exception in thread "main" java.lang.IllegalArgumentException: --bootstrap-server must be specified\n'
    )
    assert out == ""


def test_zookeeper_option_is_not_recognized() -> None:
    """--zookeeper is refused by the parser, as Kafka 3.x refuses it."""
    status, _, err = run_tool(tc.run_command, ["--zookeeper", "localhost:2181", "--list"])
    assert status == 1
    assert err.startswith("zookeeper is not a recognized option\n")


def test_topic_required_for_create_alter_delete() -> None:
    """--create, --alter and --delete need --topic."""
    for action in ("--create", "--delete"):
        status, _, err = topics(action)
        assert status == 1
        assert err.startswith('Missing required argument "[topic]"\n')


def test_alter_requires_partitions() -> None:
    """--alter without --partitions is a usage error (testAlterWithUnspecifiedPartitionCount)."""
    status, _, err = topics("--alter", "--topic", "t")
    assert status == 1
    assert err.startswith('Missing required argument "[partitions]"\n')


def test_config_with_alter_is_refused() -> None:
    """--config cannot alter a topic with --bootstrap-server; the message points at kafka-configs."""
    status, _, err = topics("--alter", "--topic", "t", "--partitions", "3", "--config", "cleanup.policy=compact")
    assert status == 1
    assert err.startswith(
        'Option combination "[bootstrap-server],[config]" can\'t be used with option "[alter]" (the kafka-configs '
        "CLI supports altering topic configs with a --bootstrap-server option)\n"
    )


def test_assignment_with_partitions_or_replication_factor_is_refused() -> None:
    """--replica-assignment excludes --partitions and --replication-factor on create."""
    status, _, err = topics("--create", "--topic", "t", "--replica-assignment", "0", "--partitions", "1")
    assert (status, err.splitlines()[0]) == (
        1,
        'Option "[replica-assignment]" can\'t be used with option "[partitions]"',
    )
    status, _, err = topics("--create", "--topic", "t", "--replica-assignment", "0", "--replication-factor", "1")
    assert (status, err.splitlines()[0]) == (
        1,
        'Option "[replica-assignment]" can\'t be used with option "[replication-factor]"',
    )


def test_report_options_are_exclusive() -> None:
    """Two partition reports, or a report with --topics-with-overrides, are refused."""
    status, _, err = topics("--describe", "--under-replicated-partitions", "--unavailable-partitions")
    assert status == 1
    assert err.splitlines()[0] == (
        'Option "[under-replicated-partitions]" can\'t be used with option "[unavailable-partitions]"'
    )
    status, _, err = topics("--describe", "--topics-with-overrides", "--at-min-isr-partitions")
    assert status == 1
    assert "can't be used with option" in err.splitlines()[0]


def test_option_combinations_with_wrong_action_are_refused() -> None:
    """Options that belong to another action name the conflicting action."""
    status, _, err = topics("--list", "--partitions", "3")
    assert err.splitlines()[0] == 'Option "[partitions]" can\'t be used with option "[list]"'
    status, _, err = topics("--delete", "--topic", "t", "--if-not-exists")
    assert err.splitlines()[0] == 'Option "[if-not-exists]" can\'t be used with option "[delete]"'
    status, _, err = topics("--describe", "--topic", "t", "--delete-config", "x")
    assert status == 1
    assert err.splitlines()[0] == 'Option "[delete-config]" can\'t be used with option "[describe]"'


def test_bad_integer_argument_is_a_usage_error() -> None:
    """A partition count that is not a 32-bit number is refused as jopt-simple refuses it."""
    status, _, err = topics("--create", "--topic", "t", "--partitions", "3000000000")
    assert status == 1
    assert err.startswith("Cannot parse argument '3000000000' of option partitions\n")


# -- parsing --------------------------------------------------------------------------------------------------------


def test_parse_replica_assignment() -> None:
    """Partition i gets the i-th colon-separated list (testParseAssignment)."""
    assert tc.parse_replica_assignment("5:4,3:2,1:0") == {0: [5, 4], 1: [3, 2], 2: [1, 0]}
    assert tc.parse_replica_assignment(" 1 : 2 ,") == {0: [1, 2]}


def test_parse_replica_assignment_errors() -> None:
    """Duplicates, unequal replica counts and non-numbers fail with Kafka's exceptions and messages."""
    with pytest.raises(AdminCommandFailedException, match="may not contain duplicate entries: 5"):
        tc.parse_replica_assignment("5:5")
    with pytest.raises(AdminOperationException, match=r"Partition 1 has different replication factor: \[2, 1, 0\]"):
        tc.parse_replica_assignment("5:4,2:1:0")
    with pytest.raises(NumberFormatException, match='For input string: "x"'):
        tc.parse_replica_assignment("1:x")


def test_include_list_matches_whole_names() -> None:
    """The topic filter is a full-match regex; commas mean "or" and quotes are dropped."""
    include = IncludeList("'foo.*,bar'")
    assert include.regex == "foo.*|bar"
    assert include.is_topic_allowed("foo1", False)
    assert include.is_topic_allowed("bar", False)
    assert not include.is_topic_allowed("xbar", False)
    assert not IncludeList("__.*").is_topic_allowed("__consumer_offsets", True)


def test_is_not_under_replicated_when_adding() -> None:
    """A replica being added by a reassignment does not count towards the replication factor."""
    replicas = [Node(1, "localhost", 9091), Node(2, "localhost", 9092)]
    info = TopicPartitionInfo(0, replicas[0], replicas, [replicas[0]])
    reassignment = PartitionReassignment((1, 2), (2,), ())
    desc = tc.PartitionDescription("test-topic", info, None, False, reassignment)
    assert not desc.is_under_replicated()
    assert tc.PartitionDescription("test-topic", info, None, False, None).is_under_replicated()


# -- create ---------------------------------------------------------------------------------------------------------


def test_create_with_partitions_replication_and_configs() -> None:
    """--create sends one NewTopic with the counts and configs, prints "Created topic t." and exits 0."""
    admin = FakeAdmin()
    status, out, _ = topics(
        "--create",
        "--topic",
        "t",
        "--partitions",
        "3",
        "--replication-factor",
        "2",
        "--config",
        "retention.ms = 1000",
        admin=admin,
    )
    assert (status, out) == (0, "Created topic t.\n")
    new_topic = admin.calls[0][1]
    assert (new_topic.name, new_topic.num_partitions, new_topic.replication_factor) == ("t", 3, 2)
    assert new_topic.configs() == {"retention.ms": "1000"}
    assert admin.props["bootstrap.servers"] == "localhost:9092"
    assert admin.closed


def test_create_with_defaults_sends_no_counts() -> None:
    """Without --partitions and --replication-factor the broker's defaults apply (-1 on the wire)."""
    admin = FakeAdmin()
    status, _, _ = topics("--create", "--topic", "t", admin=admin)
    new_topic = admin.calls[0][1]
    assert status == 0
    assert (new_topic.num_partitions, new_topic.replication_factor) == (-1, -1)


def test_create_with_replica_assignment() -> None:
    """--replica-assignment becomes the NewTopic's assignment."""
    admin = FakeAdmin()
    status, _, _ = topics("--create", "--topic", "t", "--replica-assignment", "1:0,0:1", admin=admin)
    assert status == 0
    assert admin.calls[0][1].replicas_assignments == {0: [1, 0], 1: [0, 1]}


def test_create_warns_about_collision_chars() -> None:
    """A name with '.' or '_' gets Kafka's metric-name warning before it is created."""
    status, out, _ = topics("--create", "--topic", "a.b", admin=FakeAdmin())
    assert status == 0
    assert out.splitlines() == [
        "WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could collide. "
        "To avoid issues it is best to use either, but not both.",
        "Created topic a.b.",
    ]


def test_create_when_already_exists() -> None:
    """An existing topic fails the command with the broker's message, unless --if-not-exists."""
    admin = FakeAdmin()
    admin.add_topic("t", (0, [0], [0]))
    status, out, _ = topics("--create", "--topic", "t", admin=admin)
    assert (status, out) == (1, "Error while executing topic command : Topic 't' already exists.\n")
    status, out, _ = topics("--create", "--topic", "t", "--if-not-exists", admin=admin)
    assert (status, out) == (0, "")


def test_create_does_not_retry_quota_violation() -> None:
    """The tool asks the client not to retry throttled creations and reports the error."""
    admin = FakeAdmin(create_error=ThrottlingQuotaExceededException("quota exceeded"))
    status, out, _ = topics("--create", "--topic", "t", admin=admin)
    assert (status, out) == (1, "Error while executing topic command : quota exceeded\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--replication-factor", "0"], "The replication factor must be between 1 and 32767 inclusive"),
        (["--replication-factor", "40000"], "The replication factor must be between 1 and 32767 inclusive"),
        (["--partitions", "-1"], "The partitions must be greater than 0"),
        (["--config", "nosuch=1"], "Unknown topic config name: nosuch"),
        (["--config", "cleanup.policy"], "requirement failed: Invalid topic config: all configs to be added must be"),
        (["--replica-assignment", "0:0"], "Partition replica lists may not contain duplicate entries: 0"),
    ],
)
def test_create_with_invalid_arguments(args: list[str], message: str) -> None:
    """Bad counts, configs and assignments fail before anything is sent, with Kafka's messages."""
    admin = FakeAdmin()
    status, out, _ = topics("--create", "--topic", "t", *args, admin=admin)
    assert status == 1
    assert out.startswith("Error while executing topic command : " + message)
    assert admin.calls == []


def test_failure_is_logged_on_stderr(caplog: pytest.LogCaptureFixture) -> None:
    """The failed action's exception is logged at ERROR by kafka.admin.TopicCommand$."""
    admin = FakeAdmin()
    admin.add_topic("t", (0, [0], [0]))
    with caplog.at_level("ERROR", logger="kafka.admin.TopicCommand$"):
        topics("--create", "--topic", "t", admin=admin)
    assert [r.getMessage() for r in caplog.records] == [
        "org.apache.kafka.common.errors.TopicExistsException: Topic 't' already exists."
    ]


# -- list -----------------------------------------------------------------------------------------------------------


def test_list_sorted_with_internal_topics_unless_excluded() -> None:
    """--list prints the names sorted, internal topics included unless --exclude-internal."""
    admin = FakeAdmin()
    for name in ("b", "a", "__consumer_offsets", "c.1"):
        admin.add_topic(name, (0, [0], [0]))
    assert topics("--list", admin=admin)[1] == "__consumer_offsets\na\nb\nc.1\n"
    assert topics("--list", "--exclude-internal", admin=admin)[1] == "a\nb\nc.1\n"
    assert topics("--list", "--topic", "[ab]", admin=admin)[1] == "a\nb\n"


# -- describe -------------------------------------------------------------------------------------------------------


def described_admin() -> FakeAdmin:
    admin = FakeAdmin()
    admin.add_topic("t", (0, [0, 1], [0, 1]), (1, [1, 2], [1]), (None, [2, 0], []), cleanup_policy="compact")
    admin.add_topic("u", (2, [2], [2]))
    return admin


def test_describe_prints_topic_and_partition_lines() -> None:
    """--describe prints Kafka's tab-separated topic line (non-default configs only) and a line per partition."""
    admin = described_admin()
    topic_id = admin.topics["t"].topic_id
    status, out, _ = topics("--describe", "--topic", "t", admin=admin)
    assert status == 0
    assert out.splitlines() == [
        f"Topic: t\tTopicId: {topic_id}\tPartitionCount: 3\tReplicationFactor: 2\tConfigs: cleanup.policy=compact",
        "\tTopic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1",
        "\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1,2\tIsr: 1",
        "\tTopic: t\tPartition: 2\tLeader: none\tReplicas: 2,0\tIsr: ",
    ]


def test_describe_orders_topics_as_java_hash_map() -> None:
    """Several topics print in the order of Java's HashMap of descriptions, not sorted."""
    admin = FakeAdmin()
    names = ["topic-a", "topic-b", "topic-c", "x", "y"]
    for name in names:
        admin.add_topic(name, (0, [0], [0]))
    _, out, _ = topics("--describe", admin=admin)
    printed = [line.split("\t")[0][len("Topic: ") :] for line in out.splitlines() if line.startswith("Topic: ")]
    assert sorted(printed) == names
    assert printed == ["x", "y", "topic-a", "topic-b", "topic-c"]


def test_describe_reports_select_partitions() -> None:
    """Each report prints only its partitions and no topic line."""
    admin = described_admin()
    admin.nodes = admin.nodes[:2]  # broker 2 is down: partition u-0's leader is unavailable
    admin.topics["t"].configs["min.insync.replicas"] = "2"

    def partitions(*args: str) -> list[str]:
        _, out, _ = topics("--describe", *args, admin=admin)
        assert not any(line.startswith("Topic:") for line in out.splitlines())
        return [
            line.split("\t")[1][len("Topic: ") :] + "-" + line.split("\t")[2][len("Partition: ") :]
            for line in out.splitlines()
        ]

    assert partitions("--under-replicated-partitions") == ["t-1", "t-2"]
    assert partitions("--unavailable-partitions") == ["t-2", "u-0"]
    assert partitions("--under-min-isr-partitions") == ["t-1", "t-2"]
    assert partitions("--at-min-isr-partitions") == ["t-0", "u-0"]


def test_describe_prints_reassignment_columns() -> None:
    """A partition being reassigned prints Kafka's Adding/Removing Replicas columns, and the replicas being added
    do not count in the replication factor or make the partition under-replicated."""
    admin = FakeAdmin()
    admin.add_topic("r", (0, [0, 1, 2], [0, 1, 2]), (1, [1, 2], [1, 2]))
    # partition 0 goes from 0,1 to 1,2: 2 is being added, 0 removed
    admin.reassignments[TopicPartition("r", 0)] = PartitionReassignment((0, 1, 2), (2,), (0,))
    topic_id = admin.topics["r"].topic_id
    status, out, _ = topics("--describe", "--topic", "r", admin=admin)
    assert status == 0
    assert out.splitlines() == [
        f"Topic: r\tTopicId: {topic_id}\tPartitionCount: 2\tReplicationFactor: 2\tConfigs: ",
        "\tTopic: r\tPartition: 0\tLeader: 0\tReplicas: 0,1,2\tIsr: 0,1,2\tAdding Replicas: 2\tRemoving Replicas: 0",
        "\tTopic: r\tPartition: 1\tLeader: 1\tReplicas: 1,2\tIsr: 1,2",
    ]
    asked = [set(args) for name, args in admin.calls if name == "list_partition_reassignments"]
    assert asked == [{TopicPartition("r", 0), TopicPartition("r", 1)}]
    _, out, _ = topics("--describe", "--topic", "r", "--under-replicated-partitions", admin=admin)
    assert out == ""


def test_describe_topics_with_overrides() -> None:
    """--topics-with-overrides prints only the topic lines of topics with non-default configs."""
    admin = described_admin()
    _, out, _ = topics("--describe", "--topics-with-overrides", admin=admin)
    assert [line.split("\t")[0] for line in out.splitlines()] == ["Topic: t"]


def test_describe_unknown_topic() -> None:
    """Describing a topic that does not exist fails, unless --if-exists."""
    status, out, _ = topics("--describe", "--topic", "nosuch", admin=described_admin())
    assert (status, out) == (1, "Error while executing topic command : Topic 'nosuch' does not exist as expected\n")
    status, out, _ = topics("--describe", "--topic", "nosuch", "--if-exists", admin=described_admin())
    assert (status, out) == (0, "")


def test_describe_exclude_internal() -> None:
    """--exclude-internal leaves __consumer_offsets out of --describe."""
    admin = described_admin()
    admin.add_topic("__consumer_offsets", (0, [0], [0]))
    _, out, _ = topics("--describe", "--exclude-internal", admin=admin)
    assert "__consumer_offsets" not in out
    _, out, _ = topics("--describe", admin=admin)
    assert "Topic: __consumer_offsets\t" in out


# -- alter and delete -----------------------------------------------------------------------------------------------


def test_alter_partition_count() -> None:
    """--alter --partitions asks to grow every matching topic to the count."""
    admin = described_admin()
    status, out, _ = topics("--alter", "--topic", "t", "--partitions", "5", admin=admin)
    assert (status, out) == (0, "")
    new_partitions = admin.calls[-1][1]
    assert list(new_partitions) == ["t"]
    assert (new_partitions["t"].total_count, new_partitions["t"].assignments) == (5, None)


def test_alter_assignment_sends_only_new_partitions() -> None:
    """With --replica-assignment only the lists past the current partitions go to the new ones."""
    admin = described_admin()
    status, _, _ = topics("--alter", "--topic", "u", "--partitions", "3", "--replica-assignment", "2,1,0", admin=admin)
    assert status == 0
    assert admin.calls[-1][1]["u"].assignments == [[1], [0]]


def test_alter_unknown_topic() -> None:
    """Altering a missing topic fails, unless --if-exists."""
    status, out, _ = topics("--alter", "--topic", "nosuch", "--partitions", "2", admin=described_admin())
    assert (status, out) == (1, "Error while executing topic command : Topic 'nosuch' does not exist as expected\n")
    assert topics("--alter", "--topic", "nosuch", "--partitions", "2", "--if-exists", admin=described_admin())[0] == 0


def test_delete_matching_topics() -> None:
    """--delete deletes every topic its regex matches, prints nothing, and fails for a missing topic."""
    admin = described_admin()
    status, out, _ = topics("--delete", "--topic", "t|u", admin=admin)
    assert (status, out) == (0, "")
    assert admin.calls[-1] == ("delete_topics", ["t", "u"])
    status, out, _ = topics("--delete", "--topic", "t", admin=admin)
    assert (status, out) == (1, "Error while executing topic command : Topic 't' does not exist as expected\n")
    assert topics("--delete", "--topic", "t", "--if-exists", admin=admin)[0] == 0


def test_command_config_is_passed_to_admin(tmp_path: Path) -> None:
    """--command-config properties reach the admin client, with --bootstrap-server on top."""
    path = tmp_path / "admin.properties"
    path.write_text("client.id=tool\nbootstrap.servers=ignored:1\n")
    admin = FakeAdmin()
    status, _, _ = topics("--list", "--command-config", str(path), admin=admin)
    assert status == 0
    assert admin.props == {"client.id": "tool", "bootstrap.servers": "localhost:9092"}


def test_missing_command_config_file() -> None:
    """A --command-config that does not exist ends the tool as the JVM does."""
    status, _, err = topics("--list", "--command-config", "/nonexistent/admin.properties")
    assert status == 1
    assert err == 'Exception in thread "main" java.nio.file.NoSuchFileException: /nonexistent/admin.properties\n'
