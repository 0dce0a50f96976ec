"""bin/kafka-consumer-groups.sh run as a user runs it, against a broker started with bin/kafka-server-start.sh and
groups of confluent-kafka consumers that commit explicitly: listing, describing offsets and lag while records are
produced, members and state, every reset scenario planned and executed (checked with the consumer's own view of
its committed offsets), deleting offsets and groups, and the errors users see."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import BrokerProcess
from tests.integration.zookeeper import free_port
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bin" / "kafka-consumer-groups.sh"
OLD_TIMESTAMP_MS = 1_600_000_000_000  # 2020-09-13T12:26:40.000Z


@pytest.fixture(scope="module")
def broker(zookeeper, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:  # type: ignore[no-untyped-def]
    work = Path(tmp_path_factory.mktemp("cgcommand"))
    # Records stamped OLD_TIMESTAMP_MS are years past the default retention: without this the broker's retention
    # check (30 s after start, then every 5 minutes) may delete them between a test's produce and its reads.
    b = BrokerProcess(work, zookeeper.connect_string + "/cgcommand-" + work.name, overrides={"log.retention.ms": "-1"})
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@dataclass
class Run:
    status: int
    out: str
    err: str


def groups_cmd(*args: str, timeout: float = 60) -> Run:
    """Runs bin/kafka-consumer-groups.sh with `args`."""
    done = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout)
    return Run(done.returncode, done.stdout, done.stderr)


def create_topic(broker: BrokerProcess, name: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=30)[name].result(30)


def produce(broker: BrokerProcess, topic: str, partition: int, count: int, timestamp_ms: int | None = None) -> None:
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all"})
    for i in range(count):
        kwargs: dict[str, Any] = {} if timestamp_ms is None else {"timestamp": timestamp_ms + i}
        producer.produce(topic, value=b"v%d" % i, partition=partition, **kwargs)
    assert producer.flush(30) == 0


class Member:
    """A confluent-kafka group member that commits only what the test tells it to."""

    def __init__(self, broker: BrokerProcess, group: str, topic: str, client_id: str = "cg-test") -> None:
        self.consumer = ck.Consumer(
            {
                "bootstrap.servers": broker.bootstrap,
                "group.id": group,
                "client.id": client_id,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
                "session.timeout.ms": 6000,
            }
        )
        self.consumer.subscribe([topic])
        self.seen: list[tuple[int | None, int | None]] = []

    def poll_until_assigned(self) -> None:
        wait_until_true(lambda: self._poll() or bool(self.consumer.assignment()), "partitions assigned", timeout=30)

    def _poll(self) -> bool:
        msg = self.consumer.poll(0.1)
        if msg is not None and msg.error() is None:
            self.seen.append((msg.partition(), msg.offset()))
        return False

    def consume(self, count: int) -> None:
        target = len(self.seen) + count
        wait_until_true(lambda: self._poll() or len(self.seen) >= target, f"{count} records", timeout=30)

    def commit(self, topic: str, offsets: dict[int, int]) -> None:
        self.consumer.commit(offsets=[ck.TopicPartition(topic, p, o) for p, o in offsets.items()], asynchronous=False)

    def close(self) -> None:
        self.consumer.close()


def committed(broker: BrokerProcess, group: str, topic: str, partitions: int) -> dict[int, int]:
    """The group's committed offsets as a consumer of the group reads them (-1001: none)."""
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        found = consumer.committed([ck.TopicPartition(topic, p) for p in range(partitions)], timeout=30)
        return {tp.partition: tp.offset for tp in found}
    finally:
        consumer.close()


def table(out: str) -> list[list[str]]:
    """The data rows of a printed table (header and blank lines left out)."""
    return [line.split() for line in out.splitlines() if line.strip() and not line.startswith(("GROUP", "TOPIC"))]


def bootstrap(broker: BrokerProcess) -> list[str]:
    return ["--bootstrap-server", broker.bootstrap]


# ---- list, describe, members, state -------------------------------------------------------------------------


def test_list_and_describe_lag_while_producing(broker: BrokerProcess) -> None:
    """A member's committed offsets, the log end offsets and their difference are shown per partition, and the lag
    grows as records are produced; --list names the group, --list --state shows it Stable."""
    topic, group = "describe-topic", "describe-group"
    create_topic(broker, topic, 2)
    produce(broker, topic, 0, 6)
    produce(broker, topic, 1, 4)
    member = Member(broker, group, topic, client_id="describe-client")
    try:
        member.poll_until_assigned()
        member.consume(10)
        member.commit(topic, {0: 4, 1: 1})
        member_id = member.consumer.memberid()

        listed = groups_cmd(*bootstrap(broker), "--list")
        assert listed.status == 0, listed.err
        assert group in listed.out.split()
        states = groups_cmd(*bootstrap(broker), "--list", "--state", "stable")
        assert [group, "Stable"] in table(states.out)

        described = groups_cmd(*bootstrap(broker), "--describe", "--group", group)
        assert described.status == 0, described.err
        assert described.out.splitlines()[1].split() == [
            "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"
        ]  # fmt: skip
        rows = table(described.out)
        assert [r[:6] for r in rows] == [[group, topic, "0", "4", "6", "2"], [group, topic, "1", "1", "4", "3"]]
        assert {r[6] for r in rows} == {member_id}
        assert {r[8] for r in rows} == {"describe-client"}
        assert all(r[7].endswith("127.0.0.1") for r in rows)

        produce(broker, topic, 1, 5)
        after = table(groups_cmd(*bootstrap(broker), "--describe", "--group", group, "--offsets").out)
        assert [r[:6] for r in after] == [[group, topic, "0", "4", "6", "2"], [group, topic, "1", "1", "9", "8"]]

        members = groups_cmd(*bootstrap(broker), "--describe", "--group", group, "--members", "--verbose")
        assert table(members.out) == [[group, member_id, rows[0][7], "describe-client", "2", f"{topic}(0,1)"]]

        state = groups_cmd(*bootstrap(broker), "--describe", "--group", group, "--state")
        assert table(state.out) == [[group, f"127.0.0.1:{broker.port}", "(0)", "range", "Stable", "1"]]
    finally:
        member.close()

    empty = groups_cmd(*bootstrap(broker), "--describe", "--group", group)
    assert empty.err == f"\nConsumer group '{group}' has no active members.\n"
    assert [r for r in table(empty.out)] == [
        [group, topic, "0", "4", "6", "2", "-", "-", "-"],
        [group, topic, "1", "1", "9", "8", "-", "-", "-"],
    ]


def test_describe_group_that_does_not_exist(broker: BrokerProcess) -> None:
    """A group the broker does not know is reported as Kafka reports it, and the tool ends with status 0."""
    result = groups_cmd(*bootstrap(broker), "--describe", "--group", "no-such-group")
    assert (result.status, result.out) == (0, "\nError: Consumer group 'no-such-group' does not exist.\n")


# ---- reset --------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reset_topic(broker: BrokerProcess) -> str:
    """A 2-partition topic: partition 0 has 3 records of 2020 then 7 of now, partition 1 has 5 of now."""
    topic = "reset-topic"
    create_topic(broker, topic, 2)
    produce(broker, topic, 0, 3, OLD_TIMESTAMP_MS)
    produce(broker, topic, 0, 7)
    produce(broker, topic, 1, 5)
    return topic


def settled_group(broker: BrokerProcess, group: str, topic: str, offsets: dict[int, int]) -> None:
    """A group that consumed, committed `offsets` and left (so it is Empty and can be reset)."""
    member = Member(broker, group, topic)
    try:
        member.poll_until_assigned()
        member.commit(topic, offsets)
    finally:
        member.close()


@pytest.mark.parametrize(
    ("name", "scenario", "expected"),
    [
        ("earliest", ["--to-earliest"], {0: 0, 1: 0}),
        ("latest", ["--to-latest"], {0: 10, 1: 5}),
        ("offset", ["--to-offset", "3"], {0: 3, 1: 3}),
        ("offset-clamped", ["--to-offset", "99"], {0: 10, 1: 5}),
        ("shift", ["--shift-by", "-2"], {0: 4, 1: 0}),
        ("current", ["--to-current"], {0: 6, 1: 1}),
        ("datetime", ["--to-datetime", "2020-09-13T12:26:40.001"], {0: 1, 1: 0}),
        ("datetime-zone", ["--to-datetime", "2020-09-13T14:26:40.002+02:00"], {0: 2, 1: 0}),
        ("duration", ["--by-duration", "PT1H"], {0: 3, 1: 0}),
    ],
)
def test_reset_scenarios_dry_run_then_execute(
    broker: BrokerProcess, reset_topic: str, name: str, scenario: list[str], expected: dict[int, int]
) -> None:
    """Each scenario prints its plan without changing anything under --dry-run, and commits exactly that plan
    under --execute (read back by a consumer of the group)."""
    group = f"reset-{name}"
    settled_group(broker, group, reset_topic, {0: 6, 1: 1})
    args = [*bootstrap(broker), "--reset-offsets", "--group", group, "--topic", reset_topic, *scenario]

    planned = groups_cmd(*args, "--dry-run")
    assert planned.status == 0, planned.err
    assert table(planned.out) == [[group, reset_topic, str(p), str(o)] for p, o in sorted(expected.items())]
    assert committed(broker, group, reset_topic, 2) == {0: 6, 1: 1}

    executed = groups_cmd(*args, "--execute")
    assert executed.status == 0, executed.err
    assert table(executed.out) == table(planned.out)
    assert committed(broker, group, reset_topic, 2) == expected


def test_reset_partition_subset_export_and_import(broker: BrokerProcess, reset_topic: str, tmp_path: Path) -> None:
    """`topic:partition` limits the reset; --export prints the plan as CSV, which --from-file executes."""
    group = "reset-file"
    settled_group(broker, group, reset_topic, {0: 6, 1: 1})
    exported = groups_cmd(
        *bootstrap(broker), "--reset-offsets", "--group", group, "--topic", f"{reset_topic}:1", "--to-latest",
        "--dry-run", "--export",
    )  # fmt: skip
    assert exported.out == f"{reset_topic},1,5\n\n"
    plan = tmp_path / "plan.csv"
    plan.write_text(f"{reset_topic},0,2\n{reset_topic},1,4\n")
    imported = groups_cmd(
        *bootstrap(broker), "--reset-offsets", "--group", group, "--from-file", str(plan), "--execute"
    )
    assert imported.status == 0, imported.err
    assert committed(broker, group, reset_topic, 2) == {0: 2, 1: 4}


def test_reset_refused_while_the_group_is_active(broker: BrokerProcess, reset_topic: str) -> None:
    """An active group is left alone, with Kafka's message."""
    group = "reset-active"
    member = Member(broker, group, reset_topic)
    try:
        member.poll_until_assigned()
        member.commit(reset_topic, {0: 6, 1: 1})
        result = groups_cmd(
            *bootstrap(broker), "--reset-offsets", "--group", group, "--all-topics", "--to-earliest", "--execute"
        )
        assert (
            f"Error: Assignments can only be reset if the group '{group}' is inactive, but the current state is "
            "Stable." in result.out
        )
        assert committed(broker, group, reset_topic, 2) == {0: 6, 1: 1}
    finally:
        member.close()


# ---- delete -------------------------------------------------------------------------------------------------------


def test_delete_offsets_and_groups(broker: BrokerProcess, reset_topic: str) -> None:
    """--delete-offsets removes a partition's committed offset; --delete removes the group, which --list then no
    longer shows; deleting it again reports that it does not exist."""
    group = "delete-group"
    settled_group(broker, group, reset_topic, {0: 6, 1: 1})
    deleted_offsets = groups_cmd(
        *bootstrap(broker), "--delete-offsets", "--group", group, "--topic", f"{reset_topic}:0"
    )
    assert deleted_offsets.out.splitlines()[0] == (
        f"Request succeed for deleting offsets with topic {reset_topic}:0 group {group}"
    )
    assert table(deleted_offsets.out)[1:] == [[reset_topic, "0", "Successful"]]
    assert committed(broker, group, reset_topic, 2) == {0: -1001, 1: 1}

    deleted = groups_cmd(*bootstrap(broker), "--delete", "--group", group)
    assert deleted.out == f"Deletion of requested consumer groups ('{group}') was successful.\n"
    assert group not in groups_cmd(*bootstrap(broker), "--list").out.split()
    again = groups_cmd(*bootstrap(broker), "--delete", "--group", group)
    assert again.out.splitlines()[1:] == [
        "Error: Deletion of some consumer groups failed:",
        f"* Group '{group}' could not be deleted due to: java.util.concurrent.ExecutionException: "
        "org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.",
    ]


def test_delete_refused_while_the_group_is_active(broker: BrokerProcess, reset_topic: str) -> None:
    """A group with members is not deleted, and its subscribed topic's offsets are not deleted either."""
    group = "delete-active"
    member = Member(broker, group, reset_topic)
    try:
        member.poll_until_assigned()
        member.commit(reset_topic, {0: 6, 1: 1})
        result = groups_cmd(*bootstrap(broker), "--delete", "--group", group)
        assert "org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty." in result.out
        offsets = groups_cmd(*bootstrap(broker), "--delete-offsets", "--group", group, "--topic", reset_topic)
        assert "Error: Encounter some partition level error, see the follow-up details:" in offsets.out
        assert [r[:3] for r in table(offsets.out)[1:]] == [
            [reset_topic, "0", "Error:"],
            [reset_topic, "1", "Error:"],
        ]
        assert "GroupSubscribedToTopicException" in offsets.out
    finally:
        member.close()


# ---- errors -------------------------------------------------------------------------------------------------------


def test_usage_errors_and_unreachable_broker(broker: BrokerProcess) -> None:
    """Bad command lines print Kafka's message and the help with status 1; an unreachable broker fails the action
    at --timeout with the message of Kafka's (3.7) admin client, which names the lookup call."""
    missing = groups_cmd("--list")
    assert missing.status == 1
    assert missing.err.splitlines()[0] == 'Missing required argument "[bootstrap-server]"'
    assert "--bootstrap-server <String: server to   REQUIRED: The server(s) to connect to." in missing.err
    conflicting = groups_cmd(*bootstrap(broker), "--reset-offsets", "--group", "g", "--to-earliest", "--to-latest")
    assert conflicting.status == 1
    assert 'Option "[to-earliest]" can\'t be used with option "[to-latest]"' in conflicting.err.splitlines()

    result = groups_cmd(  # a port nothing listens on
        "--bootstrap-server", f"127.0.0.1:{free_port()}", "--describe", "--group", "g", "--timeout", "1500"
    )
    assert result.status == 1
    assert result.out == (
        "\nError: Executing consumer group command failed due to org.apache.kafka.common.errors.TimeoutException: "
        "Timed out waiting for a node assignment. Call: describeGroups(api=FIND_COORDINATOR)\n"
    )
