"""The broker issue's user scenarios done with our own clients and tools (kafka.clients and bin/) instead of
librdkafka: acknowledged records surviving a broker stopped by SIGTERM or killed by SIGKILL; our producer and a
group member of our consumer carrying on across a broker restart; groups of our consumers handing partitions over
when a member's process is killed, never delivering a committed record again while members come and go, static
members restarting without a rebalance, committed offsets kept across broker restarts; the console tools piped
into each other with keys and headers, kafka-topics.sh seen through our admin client and kafka-consumer-groups.sh
describing a group of our consumers; and our three clients against Tansu, another Kafka-protocol broker."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import textwrap
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kazoo.client import KazooClient

from kafka.clients.admin.alter_config_op import AlterConfigOp, OpType
from kafka.clients.admin.config_entry import ConfigEntry, ConfigSource
from kafka.clients.admin.new_topic import NewTopic
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.common.config.config_resource import ConfigResource
from kafka.common.topic_partition import TopicPartition
from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.group_clients import Delivery, balanced, close_all, stop_all
from tests.integration.python_group_clients import (
    WAIT_MS,
    GroupMember,
    MemberThread,
    admin_client,
    committed_offsets,
    create_topic,
    drive,
    produce,
    producer,
    read_all,
)
from tests.integration.zookeeper import free_port
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

BIN = ROOT / "bin"
SESSION_TIMEOUT_MS = 6000  # the smallest the broker allows by default (group.min.session.timeout.ms)
SIGNALS = pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("py-scenarios"))
    b = BrokerProcess(work, zookeeper.connect_string + "/py-scenarios-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _restartable_broker(zookeeper: Any, zk_chroot: str, work: Path) -> BrokerProcess:
    """A broker on a fixed port (clients made before a restart find it again there) whose ZooKeeper session, left
    behind by a SIGKILL, expires after 4 s."""
    port = free_port()
    return BrokerProcess(
        work,
        zookeeper.connect_string + zk_chroot,
        overrides={"listeners": f"PLAINTEXT://127.0.0.1:{port}", "zookeeper.session.timeout.ms": "4000"},
    )


def _stop(broker: BrokerProcess, zookeeper: Any, zk_chroot: str, sig: int) -> None:
    """Stops the broker with `sig` and waits for its registration to leave ZooKeeper: after SIGKILL it lives until
    the old session expires, and the broker (as Kafka's) cannot register again before that."""
    code = broker.stop(sig)
    assert code == (0 if sig == signal.SIGTERM else -signal.SIGKILL), broker.console_tail()
    zk = KazooClient(hosts=zookeeper.connect_string + zk_chroot, timeout=10.0)
    zk.start(timeout=10.0)
    try:
        wait_until_true(lambda: zk.exists("/brokers/ids/0") is None, "the old registration to go", 30)
    finally:
        zk.stop()
        zk.close()


# ---- 1. the broker restarted: acknowledged records stay, our clients carry on -----------------------------------


@SIGNALS
def test_restart_keeps_every_record_our_producer_had_acknowledged(
    zookeeper: Any, zk_chroot: str, tmp_path: Path, sig: int
) -> None:
    """Every record our producer had acknowledged (acks=all) is read back by our consumer after the broker is
    stopped by SIGTERM or killed by SIGKILL and started again: same partition, same offset, same value, once."""
    broker = _restartable_broker(zookeeper, zk_chroot, tmp_path)
    broker.start()
    try:
        create_topic(broker.bootstrap, "durable", 2)
        metadata = produce(broker.bootstrap, "durable", [(i % 2, None, f"v{i}".encode()) for i in range(1500)])
        acked = {(md.partition, md.offset): f"v{i}".encode() for i, md in enumerate(metadata)}
        assert len(acked) == 1500
        _stop(broker, zookeeper, zk_chroot, sig)
        broker.start()
        got = read_all(broker.bootstrap, "durable", 2, 1500)
        assert {(r.partition, r.offset): r.value for r in got} == acked
        assert len(got) == 1500  # nothing twice
    finally:
        assert broker.stop() == 0, broker.console_tail()


@SIGNALS
def test_our_producer_and_group_member_carry_on_across_a_broker_restart(
    zookeeper: Any, zk_chroot: str, tmp_path: Path, sig: int
) -> None:
    """A producer and a group member made before the broker is stopped (SIGTERM) or killed (SIGKILL) keep working
    once it is back on its port: records sent as it went and while it was down are delivered by retries, written
    once (the producer is idempotent), and the member, which committed everything it had read, reads exactly the new
    ones and commits them too."""
    broker = _restartable_broker(zookeeper, zk_chroot, tmp_path)
    broker.start()
    topic = group = "carry-on"
    member: GroupMember | None = None
    try:
        create_topic(broker.bootstrap, topic, 2)
        with producer(broker.bootstrap) as p:
            member = GroupMember("survivor", broker.bootstrap, group, topic, commit_each=True)
            before = [p.send(ProducerRecord(topic, f"a{i}".encode(), key=f"k{i}".encode())) for i in range(200)]
            p.flush()
            assert all(f.get(WAIT_MS) for f in before)
            survivor = member
            drive(
                [survivor],
                lambda: len(survivor.deliveries) == 200 and all(d.committed for d in survivor.deliveries),
                "the member to read and commit the first 200 records",
            )

            # Half of the next records are sent just before the broker goes (some in flight as it stops or dies),
            # half while it is down.
            during = [p.send(ProducerRecord(topic, f"b{i}".encode(), key=f"k{i}".encode())) for i in range(100)]
            _stop(broker, zookeeper, zk_chroot, sig)
            during += [p.send(ProducerRecord(topic, f"b{i}".encode(), key=f"k{i}".encode())) for i in range(100, 200)]
            for _ in range(5):  # the member polls on while its coordinator is gone (a failed commit is retried later)
                survivor.poll(100)
            broker.start()

            p.flush()
            assert all(f.get(WAIT_MS) for f in during)
            drive(
                [survivor],
                lambda: len(survivor.deliveries) == 400 and all(d.committed for d in survivor.deliveries),
                "the member to read and commit the 200 records sent while the broker was down",
                timeout=45,
            )
        values = Counter(r.value for r in read_all(broker.bootstrap, topic, 2, 400))
        expected = {f"{prefix}{i}".encode(): 1 for prefix in "ab" for i in range(200)}
        assert dict(values) == expected, "each record is in the log once"
        delivered = Counter((d.partition, d.offset) for d in survivor.deliveries)
        assert set(delivered.values()) == {1} and len(delivered) == 400, "each record is delivered once"
        assert sum(committed_offsets(broker.bootstrap, group).values()) == 400
    finally:
        if member is not None:
            member.close()
        assert broker.stop() == 0, broker.console_tail()


@SIGNALS
def test_committed_offsets_survive_broker_restart(zookeeper: Any, zk_chroot: str, tmp_path: Path, sig: int) -> None:
    """Offsets a member of ours committed are still the group's after the broker is stopped (SIGTERM) or killed
    (SIGKILL) and started again: our admin lists them and a new member of the group resumes exactly there."""
    broker = _restartable_broker(zookeeper, zk_chroot, tmp_path)
    broker.start()
    topic = group = "resume"
    targets = {0: 17, 1: 42, 2: 5}
    try:
        create_topic(broker.bootstrap, topic, 3)
        produce(broker.bootstrap, topic, [(p, b"k", f"{p}-{i}".encode()) for p in range(3) for i in range(60)])
        first = GroupMember("first", broker.bootstrap, group, topic)
        try:
            drive([first], lambda: len(first.deliveries) == 180, "the first member to read every record")
            first.consumer.commit_sync({TopicPartition(topic, p): OffsetAndMetadata(o) for p, o in targets.items()})
        finally:
            first.close()

        _stop(broker, zookeeper, zk_chroot, sig)
        broker.start()

        assert committed_offsets(broker.bootstrap, group) == targets
        second = GroupMember("second", broker.bootstrap, group, topic)
        try:
            drive([second], lambda: len(second.deliveries) == 180 - sum(targets.values()), "the rest to be read")
            first_offsets = {p: min(d.offset for d in second.deliveries if d.partition == p) for p in range(3)}
            assert first_offsets == targets
            committed = second.consumer.committed({TopicPartition(topic, p) for p in range(3)})
            assert {tp.partition: o.offset if o else None for tp, o in committed.items()} == targets
        finally:
            second.close()
    finally:
        assert broker.stop() == 0, broker.console_tail()


# ---- 2. groups of our consumers -----------------------------------------------------------------------------------

KILLABLE_MEMBER = textwrap.dedent(
    """
    import json, os, sys, time
    from kafka.clients.consumer.kafka_consumer import KafkaConsumer
    from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer

    bootstrap, group, topic, out, session_timeout_ms = sys.argv[1:6]
    consumer = KafkaConsumer(
        {
            "bootstrap.servers": bootstrap, "group.id": group, "client.id": "doomed", "enable.auto.commit": False,
            "session.timeout.ms": int(session_timeout_ms), "heartbeat.interval.ms": 500, "fetch.max.wait.ms": 100,
        },
        ByteArrayDeserializer(),
        ByteArrayDeserializer(),
    )
    consumer.subscribe([topic])
    last = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        consumer.poll(50)
        now = sorted(tp.partition for tp in consumer.assignment())
        if now != last:
            with open(out + ".tmp", "w") as f:
                json.dump({"partitions": now, "member_id": consumer.group_metadata().member_id}, f)
            os.replace(out + ".tmp", out)
            last = now
    consumer.close()
    """
)


def test_killed_member_is_expired_and_its_partitions_move(broker: BrokerProcess, tmp_path: Path) -> None:
    """When the process of one of three members of ours is SIGKILLed, the broker expires it after
    session.timeout.ms, logging it as failed, and the two others share its partitions 3/3."""
    topic = group = "killed"
    create_topic(broker.bootstrap, topic, 6)
    script = tmp_path / "member.py"
    script.write_text(KILLABLE_MEMBER)
    out = tmp_path / "assignment.json"
    process = subprocess.Popen(
        [sys.executable, str(script), broker.bootstrap, group, topic, str(out), str(SESSION_TIMEOUT_MS)]
    )
    members = [GroupMember(f"m{i}", broker.bootstrap, group, topic) for i in range(2)]

    def doomed() -> dict[str, Any]:
        return json.loads(out.read_text()) if out.exists() else {"partitions": [], "member_id": ""}

    try:
        drive(
            members,
            lambda: (
                len(doomed()["partitions"]) == 2
                and [len(m.assigned) for m in members] == [2, 2]
                and set().union(doomed()["partitions"], *(m.assigned for m in members)) == set(range(6))
            ),
            "a 2/2/2 split with the member in its own process",
        )
        generation = members[0].generation_id
        doomed_id = doomed()["member_id"]
        assert doomed_id.startswith("doomed-")
        process.send_signal(signal.SIGKILL)
        assert process.wait(10) == -signal.SIGKILL
        # The dead member never leaves: only its session expiry frees its partitions (a missing expiry would cost
        # the rebalance timeout, max.poll.interval.ms, 300 s).
        drive(
            members,
            lambda: balanced(members, 6, [3, 3]),
            "the two remaining members to split 3/3",
            timeout=SESSION_TIMEOUT_MS / 1000 + 20,
        )
        assert members[0].generation_id == members[1].generation_id > generation
        assert f"Member {doomed_id} in group {group} has failed, removing it from the group" in broker.console_tail(
            10**7
        )
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        close_all(members)


@pytest.mark.parametrize(
    "assignor",
    ["org.apache.kafka.clients.consumer.RangeAssignor", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"],
    ids=["range", "cooperative-sticky"],
)
def test_no_record_delivered_again_after_its_commit_while_members_come_and_go(
    broker: BrokerProcess, assignor: str
) -> None:
    """While 1,000 keyed records are produced by our producer and four members of ours join and two leave, each
    member (in its own thread) committing what every poll returned and, on revocation, whatever it has not
    committed yet: every record is consumed, and none whose commit succeeded is ever delivered again, to anyone."""
    topic = group = f"handover-{assignor.rsplit('.', 1)[1]}"
    partitions, total = 6, 1000
    create_topic(broker.bootstrap, topic, partitions)
    threads: dict[str, MemberThread] = {}
    # (records consumed so far, action, member): the membership changes while records keep arriving.
    plan = [(0, "join", "a"), (100, "join", "b"), (250, "join", "c"), (400, "leave", "a"), (550, "join", "d")]
    plan += [(700, "leave", "b")]
    acked: dict[tuple[int, int], bytes] = {}
    in_flight: list[tuple[bytes, Any]] = []
    produced = 0

    def delivered() -> set[tuple[int, int]]:
        return {(d.partition, d.offset) for t in list(threads.values()) for d in list(t.member.deliveries)}

    def settled() -> bool:
        """Every member still in the group owns partitions, and together they own each partition once."""
        owned = [t.member.owned for t in threads.values() if not t.stopping]
        if not owned:
            return True
        return all(owned) and sorted(p for o in owned for p in o) == list(range(partitions))

    with producer(broker.bootstrap) as p:

        def step() -> bool:
            nonlocal produced
            consumed = delivered()
            # Each change waits for the group to have settled after the previous one, so partitions really move.
            while plan and len(consumed) >= plan[0][0] and settled():
                _, action, name = plan.pop(0)
                if action == "join":
                    config = {"partition.assignment.strategy": assignor}
                    threads[name] = MemberThread(
                        GroupMember(name, broker.bootstrap, group, topic, config, commit_each=True)
                    )
                    threads[name].start()
                else:
                    threads[name].stop()
            # Production keeps a little ahead of consumption and waits at each step of the plan for its change to be
            # made, so records arrive throughout the membership changes.
            while produced < min(total, len(consumed) + 50, plan[0][0] + 20 if plan else total):
                key = f"k{produced}".encode()
                in_flight.append((key, p.send(ProducerRecord(topic, key, key=key))))
                produced += 1
            for key, future in [item for item in in_flight if item[1].is_done()]:
                md = future.get(0)
                acked[(md.partition, md.offset)] = key
                in_flight.remove((key, future))
            return not plan and produced == total and len(acked) == total and set(acked) <= consumed

        try:
            wait_until_true(step, "every produced record to be consumed", timeout=50, pause=0.02)
        finally:
            stop_all(threads.values())
    members = [t.member for t in threads.values()]
    by_record: dict[tuple[int, int], list[Delivery]] = defaultdict(list)
    for d in sorted((d for m in members for d in m.deliveries), key=lambda d: d.seq):
        by_record[(d.partition, d.offset)].append(d)
    assert {r: by_record[r][0].key for r in acked} == acked, "each record is delivered with the key it was sent with"
    # The guarantee: once a member's commit of a record succeeded, nobody receives that record again.
    violations = {
        r: [(d.member, d.committed) for d in seen]
        for r, seen in by_record.items()
        if any(d.committed for d in seen[:-1])
    }
    failures = [f for m in members for f in m.commit_failures]
    assert violations == {}, f"records delivered again after a successful commit; commit failures: {failures}"
    # ... and the commits were real: the group's offsets cover every record.
    assert sum(committed_offsets(broker.bootstrap, group).values()) == total, failures
    # The scenario really moved partitions between members.
    owners: dict[int, set[str]] = defaultdict(set)
    for m in members:
        for d in m.deliveries:
            owners[d.partition].add(m.name)
    assert any(len(names) > 1 for names in owners.values()), owners
    assert {e.kind for e in threads["a"].member.events} >= {"assign", "revoke"}


def test_static_member_restart_keeps_its_partitions_without_rebalance(broker: BrokerProcess) -> None:
    """A static member of ours (group.instance.id) closed and started again within its session timeout gets the same
    partitions under a new member id, in the same generation, and the other members see no rebalance at all."""
    topic = group = "static"
    create_topic(broker.bootstrap, topic, 6)

    def static(instance: str) -> GroupMember:
        config = {"group.instance.id": instance, "session.timeout.ms": 30000}
        return GroupMember(instance, broker.bootstrap, group, topic, config)

    members = [static("a"), static("b"), static("c")]
    try:
        drive(members, lambda: balanced(members, 6, [2, 2, 2]), "a 2/2/2 split of the static members")
        generations = {m.generation_id for m in members}
        assert len(generations) == 1, generations
        (generation,) = generations
        kept, old_member_id = members[2].assigned, members[2].member_id
        others = [m.assigned for m in members[:2]]
        events = [list(m.events) for m in members[:2]]

        members[2].close()  # a static member does not leave the group when it closes
        members[2] = static("c")
        drive(members, lambda: members[2].assigned == kept, "the restarted member to get its partitions back")
        assert members[2].generation_id == generation
        assert members[2].member_id not in ("", old_member_id)  # the broker gave the new incarnation a new id

        # Records on every partition, read by each member from all of its own: by then any rebalance the restart
        # might have started would have reached the others through their heartbeats.
        produce(broker.bootstrap, topic, [(p, b"k", b"v") for p in range(6)])
        drive(
            members,
            lambda: all({d.partition for d in m.deliveries} >= m.assigned for m in members),
            "every member to read a record from each of its partitions",
        )
        assert [m.events for m in members[:2]] == events, "the other members were neither revoked nor reassigned"
        assert [m.generation_id for m in members] == [generation] * 3
        assert [m.assigned for m in members[:2]] == others
    finally:
        close_all(members)


# ---- 3. the tools end to end --------------------------------------------------------------------------------------


def _tool(script: str, *args: str, stdin: str | None = None, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(BIN / script), *args], input=stdin, capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_console_producer_piped_into_console_consumer_round_trips_keys_and_headers(broker: BrokerProcess) -> None:
    """Lines with headers and keys go in through kafka-console-producer.sh; kafka-console-consumer.sh, printing
    headers and keys with the same separators, is piped into a second console producer, and a last console
    consumer prints exactly the lines that went in (equal keys kept in order, on one partition)."""
    source, copy = f"pipe-{uuid.uuid4().hex[:6]}", f"pipe-copy-{uuid.uuid4().hex[:6]}"
    create_topic(broker.bootstrap, source, 3)
    create_topic(broker.bootstrap, copy, 3)
    lines = [f"h1:v{i},trace:{i % 3}|key{i % 4}|value {i} ünïcödé" for i in range(40)]
    parse = ["--property", "parse.key=true", "--property", "parse.headers=true"]
    parse += ["--property", "key.separator=|", "--property", "headers.delimiter=|"]
    show = ["--property", "print.key=true", "--property", "print.headers=true", "--property", "key.separator=|"]
    bootstrap = ["--bootstrap-server", broker.bootstrap]

    produced = _tool("kafka-console-producer.sh", *bootstrap, "--topic", source, *parse, stdin="\n".join(lines) + "\n")
    assert produced.returncode == 0, produced.stderr

    consumer = [str(BIN / "kafka-console-consumer.sh"), *bootstrap, "--topic", source, "--from-beginning"]
    consumer += ["--max-messages", str(len(lines)), *show]
    producer_cmd = [str(BIN / "kafka-console-producer.sh"), *bootstrap, "--topic", copy, *parse]
    pipe = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {_quote(consumer)} | {_quote(producer_cmd)}"],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert pipe.returncode == 0, pipe.stderr
    assert f"Processed a total of {len(lines)} messages" in pipe.stderr

    printed = _tool(
        "kafka-console-consumer.sh", *bootstrap, "--topic", copy, "--from-beginning", "--max-messages", str(len(lines)),
        *show,
    )  # fmt: skip
    assert printed.returncode == 0, printed.stderr
    out = printed.stdout.splitlines()
    assert sorted(out) == sorted(lines)
    for key in {f"key{i}" for i in range(4)}:
        assert [line for line in out if f"|{key}|" in line] == [line for line in lines if f"|{key}|" in line]

    tp_of_key: dict[bytes | None, int] = {}
    for r in read_all(broker.bootstrap, copy, 3, len(lines)):
        assert tp_of_key.setdefault(r.key, r.partition) == r.partition
        i = int(r.value.decode().split()[1])
        assert [(h.key(), h.value()) for h in r.headers] == [("h1", f"v{i}".encode()), ("trace", f"{i % 3}".encode())]
        assert r.key == f"key{i % 4}".encode()
    assert len(tp_of_key) == 4


def _quote(args: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in args)


def test_kafka_topics_changes_are_what_our_admin_client_sees(broker: BrokerProcess) -> None:
    """A topic created, described, altered and deleted with kafka-topics.sh is, at each step, what our admin client
    describes; a config our admin client changes shows in kafka-topics.sh --describe."""
    topic = f"topics-tool-{uuid.uuid4().hex[:6]}"
    bootstrap = ["--bootstrap-server", broker.bootstrap]
    created = _tool("kafka-topics.sh", *bootstrap, "--create", "--topic", topic, "--partitions", "2",
                    "--replication-factor", "1", "--config", "retention.ms=60000")  # fmt: skip
    assert (created.returncode, created.stdout) == (0, f"Created topic {topic}.\n"), created.stderr
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic)
    with admin_client(broker.bootstrap) as admin:
        assert topic in admin.list_topics().names().get(WAIT_MS)
        description = admin.describe_topics([topic]).all_topic_names().get(WAIT_MS)[topic]
        assert [p.partition for p in description.partitions] == [0, 1]
        retention = admin.describe_configs([resource]).all().get(WAIT_MS)[resource].get("retention.ms")
        assert retention is not None
        assert (retention.value, retention.source) == ("60000", ConfigSource.DYNAMIC_TOPIC_CONFIG)

        described = _tool("kafka-topics.sh", *bootstrap, "--describe", "--topic", topic)
        assert described.returncode == 0, described.stderr
        topic_line, *partition_lines = described.stdout.splitlines()
        fields = dict(f.split(": ", 1) for f in topic_line.split("\t"))
        assert fields["Topic"] == topic and fields["TopicId"] == str(description.topic_id)
        assert (fields["PartitionCount"], fields["ReplicationFactor"]) == ("2", "1")
        assert "retention.ms=60000" in fields["Configs"].split(",")
        assert partition_lines == [
            f"\tTopic: {topic}\tPartition: {p.partition}\tLeader: {p.leader.id}"
            f"\tReplicas: {','.join(str(r.id) for r in p.replicas)}\tIsr: {','.join(str(r.id) for r in p.isr)}"
            for p in description.partitions
            if p.leader is not None
        ]

        admin.incremental_alter_configs(
            {resource: [AlterConfigOp(ConfigEntry("cleanup.policy", "compact"), OpType.SET)]}
        ).all().get(WAIT_MS)
        described = _tool("kafka-topics.sh", *bootstrap, "--describe", "--topic", topic)
        configs = dict(f.split(": ", 1) for f in described.stdout.splitlines()[0].split("\t"))["Configs"]
        assert {"cleanup.policy=compact", "retention.ms=60000"} <= set(configs.split(","))

        altered = _tool("kafka-topics.sh", *bootstrap, "--alter", "--topic", topic, "--partitions", "5")
        assert (altered.returncode, altered.stdout) == (0, ""), altered.stderr

        def partitions() -> list[int]:
            return [
                p.partition for p in admin.describe_topics([topic]).all_topic_names().get(WAIT_MS)[topic].partitions
            ]

        wait_until_true(lambda: partitions() == [0, 1, 2, 3, 4], "our admin client to see 5 partitions")
        listed = _tool("kafka-topics.sh", *bootstrap, "--list")
        assert topic in listed.stdout.split()

        deleted = _tool("kafka-topics.sh", *bootstrap, "--delete", "--topic", topic)
        assert (deleted.returncode, deleted.stdout) == (0, ""), deleted.stderr
        wait_until_true(
            lambda: topic not in admin.list_topics().names().get(WAIT_MS), "our admin client to see the topic go"
        )


def test_consumer_groups_tool_describes_lag_of_our_consumers(broker: BrokerProcess) -> None:
    """kafka-consumer-groups.sh --describe shows, for a group of two of our consumers, each partition's committed
    offset, log end offset and lag, with the owning member's id, host and client id; --members and --state show
    them; once they close, the offsets are still described with no active member."""
    topic = group = f"lag-{uuid.uuid4().hex[:6]}"
    create_topic(broker.bootstrap, topic, 4)
    produce(broker.bootstrap, topic, [(p, None, b"v") for p in range(4) for _ in range(10)])
    members = [GroupMember(f"lag-client-{i}", broker.bootstrap, group, topic) for i in range(2)]
    bootstrap = ["--bootstrap-server", broker.bootstrap]
    try:
        drive(members, lambda: balanced(members, 4, [2, 2]), "a 2/2 split")
        owner = {p: m for m in members for p in m.assigned}
        for m in members:
            m.consumer.commit_sync({TopicPartition(topic, p): OffsetAndMetadata(p + 3) for p in m.assigned})

        described = _tool("kafka-consumer-groups.sh", *bootstrap, "--describe", "--group", group)
        assert described.returncode == 0, described.stderr
        header, *rows = [line.split() for line in described.stdout.splitlines() if line.strip()]
        assert header == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID",
                          "HOST", "CLIENT-ID"]  # fmt: skip
        assert sorted(rows, key=lambda r: int(r[2])) == [
            [group, topic, str(p), str(p + 3), "10", str(7 - p), owner[p].member_id, "/127.0.0.1", owner[p].name]
            for p in range(4)
        ]

        members_out = _tool("kafka-consumer-groups.sh", *bootstrap, "--describe", "--group", group, "--members")
        member_rows = sorted(line.split() for line in members_out.stdout.splitlines()[2:] if line.strip())
        assert member_rows == sorted([group, m.member_id, "/127.0.0.1", m.name, "2"] for m in members)
        state = _tool("kafka-consumer-groups.sh", *bootstrap, "--describe", "--group", group, "--state")
        assert state.stdout.splitlines()[-1].split() == [
            group,
            f"127.0.0.1:{broker.port}",
            "(0)",
            "range",
            "Stable",
            "2",
        ]
    finally:
        close_all(members)

    empty = _tool("kafka-consumer-groups.sh", *bootstrap, "--describe", "--group", group)
    assert empty.stderr == f"\nConsumer group '{group}' has no active members.\n"
    rows = [line.split() for line in empty.stdout.splitlines()[2:] if line.strip()]
    assert rows == [[group, topic, str(p), str(p + 3), "10", str(7 - p), "-", "-", "-"] for p in range(4)]


# ---- 4. another broker: Tansu -------------------------------------------------------------------------------------


def test_our_clients_on_tansu(tansu: Any) -> None:
    """Against Tansu our admin client creates, lists and describes a topic; our producer writes keyed records; a
    member of ours subscribes, polls and commits part of them in a group, and a second member of the group goes on
    from the committed offsets to read exactly the rest; our admin client lists the group's offsets and deletes the
    topic. (Tansu holds a JoinGroup for half the session timeout while its group forms, hence 6 s sessions.)"""
    topic = group = "scenario-tansu"
    with admin_client(tansu.bootstrap) as admin:
        admin.create_topics([NewTopic(topic, 3, 1)]).all().get(WAIT_MS)
        assert topic in admin.list_topics().names().get(WAIT_MS)
        description = admin.describe_topics([topic]).all_topic_names().get(WAIT_MS)[topic]
        assert [p.partition for p in description.partitions] == [0, 1, 2]
        assert all(p.leader is not None and p.leader.port == tansu.port for p in description.partitions)

        metadata = produce(tansu.bootstrap, topic, [(None, f"k{i % 7}".encode(), f"v{i}".encode()) for i in range(300)])
        per_partition: dict[int, list[int]] = defaultdict(list)
        for md in metadata:
            per_partition[md.partition].append(md.offset)
        assert all(offsets == list(range(len(offsets))) for offsets in per_partition.values()), "dense, in order"

        first = GroupMember("first", tansu.bootstrap, group, topic, commit_each=True)
        try:
            drive([first], lambda: len(first.deliveries) >= 120, "the first member to read some records", timeout=45)
            assert all(d.committed for d in first.deliveries), first.commit_failures
        finally:
            first.close()
        positions = {p: max((d.offset + 1 for d in first.deliveries if d.partition == p), default=0) for p in range(3)}
        listed = admin.list_consumer_group_offsets(group).partitions_to_offset_and_metadata().get(WAIT_MS)
        assert {tp.partition: o.offset for tp, o in listed.items() if o is not None and o.offset >= 0} == {
            p: o for p, o in positions.items() if o > 0
        }

        second = GroupMember("second", tansu.bootstrap, group, topic, commit_each=True)
        try:
            drive([second], lambda: len(first.deliveries) + len(second.deliveries) >= 300, "the rest", timeout=45)
            second.poll(300)  # nothing beyond the rest
        finally:
            second.close()
        seen = Counter((d.partition, d.offset) for d in first.deliveries + second.deliveries)
        assert seen == Counter((md.partition, md.offset) for md in metadata), "every record once, between the two"
        for p in range(3):
            assert min((d.offset for d in second.deliveries if d.partition == p), default=positions[p]) == positions[p]

        admin.delete_topics([topic]).all().get(WAIT_MS)
        wait_until_true(lambda: topic not in admin.list_topics().names().get(WAIT_MS), "the topic to go")
