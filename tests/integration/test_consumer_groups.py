"""Consumer groups as a user sees them with confluent-kafka (librdkafka) against a broker started with
bin/kafka-server-start.sh: partitions split by each assignor, handed over when a member leaves or dies, never
delivered twice past a commit, committed offsets kept across broker restarts, static members rejoining without a
rebalance, and Kafka's answers to group settings it refuses."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import textwrap
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient

from tests.integration.broker import BrokerProcess
from tests.integration.group_clients import (
    Delivery,
    GroupMember,
    MemberThread,
    balanced,
    close_all,
    create_topic,
    drive,
    produce,
    stop_all,
)
from tests.integration.zookeeper import ZooKeeperServer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

SESSION_TIMEOUT_MS = 6000  # the smallest the broker allows by default (group.min.session.timeout.ms)


@pytest.fixture(scope="module")
def broker(zookeeper: ZooKeeperServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("groups"))
    b = BrokerProcess(work, zookeeper.connect_string + "/groups-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _member(broker: BrokerProcess, name: str, group: str, topic: str, **config: object) -> GroupMember:
    return GroupMember(name, broker.bootstrap, group, topic, config=dict(config))


# ---- 1. partitions split by each assignor --------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "cooperative-sticky"])
def test_three_members_split_six_partitions(broker: BrokerProcess, strategy: str) -> None:
    """Three members of one group on a 6-partition topic end up with two partitions each, in one generation."""
    topic = group = f"split-{strategy}"
    create_topic(broker.bootstrap, topic, 6)
    members = [_member(broker, f"m{i}", group, topic, **{"partition.assignment.strategy": strategy}) for i in range(3)]
    try:
        drive(members, lambda: balanced(members, 6, [2, 2, 2]), f"a 2/2/2 split with {strategy}")
        states = [m.state() for m in members]
        assert len({s.generation_id for s in states}) == 1, states
        assert len({s.member_id for s in states}) == 3 and all(s.member_id for s in states), states
        by_member = {s.member_id: sorted(m.assigned) for s, m in zip(states, members, strict=True)}
        ordered = [by_member[member_id] for member_id in sorted(by_member)]
        # Both assignors order the members by member id, so the broker's ids decide the exact layout.
        if strategy == "range":
            assert ordered == [[0, 1], [2, 3], [4, 5]]
        elif strategy == "roundrobin":
            assert ordered == [[0, 3], [1, 4], [2, 5]]
    finally:
        close_all(members)


# ---- 2. a member leaves or dies ------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_members_take_over_partitions_of_a_member_that_leaves(broker: BrokerProcess, strategy: str) -> None:
    """When one of three members closes, the other two share its partitions 3/3 in a new generation."""
    topic = group = f"leave-{strategy}"
    create_topic(broker.bootstrap, topic, 6)
    members = [_member(broker, f"m{i}", group, topic, **{"partition.assignment.strategy": strategy}) for i in range(3)]
    try:
        drive(members, lambda: balanced(members, 6, [2, 2, 2]), "a 2/2/2 split")
        generation = members[0].state().generation_id
        members[2].close()
        # Well inside the rebalance timeout (librdkafka sends max.poll.interval.ms, 300 s by default).
        drive(members[:2], lambda: balanced(members[:2], 6, [3, 3]), "the two remaining members to split 3/3")
        states = [m.state() for m in members[:2]]
        assert states[0].generation_id == states[1].generation_id > generation, states
    finally:
        close_all(members)


KILLABLE_MEMBER = textwrap.dedent(
    """
    import json, os, sys, time
    import confluent_kafka as ck
    bootstrap, group, topic, out, session_timeout_ms = sys.argv[1:6]
    consumer = ck.Consumer({
        "bootstrap.servers": bootstrap, "group.id": group, "client.id": "doomed", "enable.auto.commit": False,
        "session.timeout.ms": int(session_timeout_ms), "heartbeat.interval.ms": 500, "fetch.wait.max.ms": 100,
    })
    consumer.subscribe([topic])
    last = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        consumer.poll(0.05)
        now = sorted(tp.partition for tp in consumer.assignment())
        if now != last:
            with open(out + ".tmp", "w") as f:
                json.dump(now, f)
            os.replace(out + ".tmp", out)
            last = now
    consumer.close()
    """
)


def test_members_take_over_partitions_of_a_killed_member(broker: BrokerProcess, tmp_path: Path) -> None:
    """When a member's process is SIGKILLed, the broker expires it after session.timeout.ms and the two others
    share its partitions 3/3; the broker logs the member as failed."""
    topic = group = "killed"
    create_topic(broker.bootstrap, topic, 6)
    script = tmp_path / "member.py"
    script.write_text(KILLABLE_MEMBER)
    out = tmp_path / "assignment.json"
    process = subprocess.Popen(
        [sys.executable, str(script), broker.bootstrap, group, topic, str(out), str(SESSION_TIMEOUT_MS)]
    )
    members = [_member(broker, f"m{i}", group, topic, **{"session.timeout.ms": SESSION_TIMEOUT_MS}) for i in range(2)]

    def doomed_assignment() -> frozenset[int]:
        return frozenset(json.loads(out.read_text())) if out.exists() else frozenset()

    try:
        drive(
            members,
            lambda: (
                len(doomed_assignment()) == 2
                and [len(m.assigned) for m in members] == [2, 2]
                and set().union(doomed_assignment(), *(m.assigned for m in members)) == set(range(6))
            ),
            "a 2/2/2 split with the subprocess member",
        )
        process.send_signal(signal.SIGKILL)
        assert process.wait(10) == -signal.SIGKILL
        # The dead member never leaves: only its session expiry frees its partitions. Bounded well below the
        # rebalance timeout (max.poll.interval.ms, 300 s), which is what a missing expiry would cost.
        drive(
            members,
            lambda: balanced(members, 6, [3, 3]),
            "the two remaining members to split 3/3",
            timeout=SESSION_TIMEOUT_MS / 1000 + 15,
        )
        # Kafka's wording, naming the dead member (librdkafka prefixes member ids with the client id).
        assert re.search(
            r"Member doomed-\S+ in group killed has failed, removing it from the group", broker.console_tail(10**7)
        )
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        close_all(members)


# ---- 3. no record delivered twice past a commit --------------------------------------------------------


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_no_record_redelivered_after_its_commit_while_members_come_and_go(broker: BrokerProcess, strategy: str) -> None:
    """While 1,000 keyed records are produced and four members join and two leave, each member (in its own thread)
    committing every record right after poll() returns it, and anything uncommitted when partitions are revoked:
    every record is consumed, and none whose commit succeeded is ever delivered again, to any member."""
    topic = group = f"handover-{strategy}"
    partitions, total = 6, 1000
    create_topic(broker.bootstrap, topic, partitions)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 5})
    acked: dict[tuple[int, int], bytes] = {}

    def on_delivery(err: Any, msg: Any) -> None:
        assert err is None, err
        acked[(msg.partition(), msg.offset())] = msg.key()

    threads: dict[str, MemberThread] = {}
    # (records consumed so far, action, member): the membership changes while records keep arriving.
    plan = [(0, "join", "a"), (100, "join", "b"), (250, "join", "c"), (400, "leave", "a"), (550, "join", "d")]
    plan += [(700, "leave", "b")]
    produced = 0

    def delivered() -> set[tuple[int, int]]:
        return {(d.partition, d.offset) for t in list(threads.values()) for d in list(t.member.deliveries)}

    def step() -> bool:
        nonlocal produced
        consumed = delivered()
        while plan and len(consumed) >= plan[0][0]:
            _, action, name = plan.pop(0)
            if action == "join":
                member = GroupMember(
                    name, broker.bootstrap, group, topic, {"partition.assignment.strategy": strategy}, commit_each=True
                )
                threads[name] = MemberThread(member)
                threads[name].start()
            else:
                threads[name].stop()
        # Production keeps a little ahead of consumption, so records arrive throughout the membership changes.
        while produced < min(total, len(consumed) + 50):
            key = f"k{produced}".encode()
            producer.produce(topic, key=key, value=key, on_delivery=on_delivery)
            produced += 1
        producer.poll(0.01)
        return not plan and produced == total and len(acked) == total and set(acked) <= consumed

    try:
        wait_until_true(step, "every produced record to be consumed", timeout=50, pause=0)
        assert producer.flush(10) == 0
    finally:
        stop_all(threads.values())
    members = [t.member for t in threads.values()]
    deliveries = sorted((d for m in members for d in m.deliveries), key=lambda d: d.seq)
    by_record: dict[tuple[int, int], list[Delivery]] = defaultdict(list)
    for d in deliveries:
        by_record[(d.partition, d.offset)].append(d)
    assert {r: by_record[r][0].key for r in acked} == acked, (
        "each record is delivered with the key it was produced with"
    )
    # The guarantee: once a member's commit of a record succeeded, nobody receives that record again.
    violations = [
        [(d.member, d.committed) for d in seen] for seen in by_record.values() if any(d.committed for d in seen[:-1])
    ]
    failures = [f for m in members for f in m.commit_failures]
    assert violations == [], f"records delivered again after a successful commit; commit failures: {failures}"
    # The scenario really moved partitions between members.
    owners: dict[int, set[str]] = defaultdict(set)
    for d in deliveries:
        owners[d.partition].add(d.member)
    assert any(len(names) > 1 for names in owners.values()), owners
    assert {e.kind for e in threads["a"].member.events} >= {"assign", "revoke"}


# ---- 4. committed offsets across broker restarts -------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_committed_offsets_survive_broker_restart(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, sig: int
) -> None:
    """Offsets a member committed are still the group's after the broker is stopped (SIGTERM) or killed (SIGKILL)
    and started again, and a new member of the group resumes exactly there."""
    from kazoo.client import KazooClient

    broker = BrokerProcess(
        tmp_path, zookeeper.connect_string + zk_chroot, overrides={"zookeeper.session.timeout.ms": "4000"}
    )
    broker.start()
    topic = group = "resume"
    targets = {0: 17, 1: 42, 2: 5}  # records each partition is processed up to (exclusive) before the member stops
    try:
        create_topic(broker.bootstrap, topic, 3)
        produce(broker.bootstrap, topic, [(p, b"k", f"{p}-{i}".encode()) for p in range(3) for i in range(60)])
        member = _member(broker, "first", group, topic)
        try:

            def processed_up_to_targets() -> bool:
                positions = {tp.partition: tp.offset for tp in member.consumer.position(member.consumer.assignment())}
                return all(positions.get(p, -1) >= t for p, t in targets.items())

            commits: dict[int, int] = {}

            def step() -> bool:
                d = member.poll(0.05)
                if d is not None and d.offset < targets[d.partition]:
                    member.consumer.commit(
                        offsets=[ck.TopicPartition(topic, d.partition, d.offset + 1)], asynchronous=False
                    )
                    commits[d.partition] = d.offset + 1
                return commits == targets and processed_up_to_targets()

            wait_until_true(step, "the member to process and commit up to its targets", timeout=30, pause=0)
            committed = member.consumer.committed([ck.TopicPartition(topic, p) for p in range(3)], timeout=10)
            assert {tp.partition: tp.offset for tp in committed} == targets
        finally:
            member.close()

        code = broker.stop(sig)
        assert code == (0 if sig == signal.SIGTERM else -signal.SIGKILL), broker.console_tail()
        zk = KazooClient(hosts=zookeeper.connect_string + zk_chroot, timeout=10.0)
        zk.start(timeout=10.0)
        try:
            # After SIGKILL the old registration lives until its ZooKeeper session expires; the broker (as Kafka's)
            # cannot register again before that.
            wait_until_true(lambda: zk.exists("/brokers/ids/0") is None, "the old registration to go", 30)
        finally:
            zk.stop()
            zk.close()
        broker.start()

        resumed = _member(broker, "second", group, topic)
        try:
            first: dict[int, int] = {}

            def first_offsets() -> bool:
                d = resumed.poll(0.05)
                if d is not None:
                    first.setdefault(d.partition, d.offset)
                return len(first) == 3

            wait_until_true(
                first_offsets, "the new member to receive a record from each partition", timeout=45, pause=0
            )
            assert first == targets
            committed = resumed.consumer.committed([ck.TopicPartition(topic, p) for p in range(3)], timeout=10)
            assert {tp.partition: tp.offset for tp in committed} == targets
        finally:
            resumed.close()
    finally:
        assert broker.stop() == 0, broker.console_tail()


# ---- 5. static membership ------------------------------------------------------------------------------


def test_static_member_restart_within_session_timeout_keeps_assignment_without_rebalance(broker: BrokerProcess) -> None:
    """A static member (group.instance.id) closed and started again within its session timeout gets the same
    partitions under a new member id, the generation stays the same and the other members are not rebalanced."""
    topic = group = "static"
    create_topic(broker.bootstrap, topic, 6)

    def static(instance: str) -> GroupMember:
        return _member(broker, instance, group, topic, **{"group.instance.id": instance, "session.timeout.ms": 30000})

    members = [static("a"), static("b"), static("c")]
    try:
        drive(members, lambda: balanced(members, 6, [2, 2, 2]), "a 2/2/2 split of the static members")
        before = [m.state() for m in members]
        assert len({s.generation_id for s in before}) == 1, before
        generation = before[0].generation_id
        kept = members[2].assigned
        others = [m.assigned for m in members[:2]]
        events = [list(m.events) for m in members[:2]]

        members[2].close()  # a static member does not leave the group when it closes
        members[2] = static("c")
        drive(members, lambda: members[2].assigned == kept, "the restarted member to get its partitions back")
        after = members[2].state()
        assert after.generation_id == generation, (before, after)
        assert after.member_id != before[2].member_id  # the broker gave the new incarnation a new member id

        # Let records flow to every partition and wait for each member to have read from all of its own, so any
        # rebalance the restart might have started would have reached the others through their heartbeats.
        produce(broker.bootstrap, topic, [(p, b"k", b"v") for p in range(6)])
        drive(
            members,
            lambda: all({d.partition for d in m.deliveries} >= m.assigned for m in members),
            "every member to read a record from each of its partitions",
        )
        assert [m.events for m in members[:2]] == events, "the other members were neither revoked nor reassigned"
        assert [m.state().generation_id for m in members] == [generation] * 3
        assert [m.assigned for m in members[:2]] == others
    finally:
        close_all(members)


# ---- 7. group settings the broker refuses --------------------------------------------------------------


def test_ten_kilobyte_group_id_is_served_as_any_other(broker: BrokerProcess) -> None:
    """Kafka sets no limit on a group id's length: a 10 KB group id joins, commits and reads back its offsets, and
    the broker keeps serving another group beside it."""
    topic = "long-group-id"
    create_topic(broker.bootstrap, topic, 2)
    produce(broker.bootstrap, topic, [(p, b"k", b"v") for p in range(2) for _ in range(5)])
    long_id = "g" * 10240
    members = [_member(broker, "long", long_id, topic), _member(broker, "short", "short-group", topic)]
    try:

        def all_read() -> bool:
            return all(len(m.deliveries) == 10 for m in members)

        drive(members, all_read, "both groups to read all ten records")
        for m in members:
            m.consumer.commit(asynchronous=False)
            committed = m.consumer.committed([ck.TopicPartition(topic, p) for p in range(2)], timeout=10)
            assert {tp.partition: tp.offset for tp in committed} == {0: 5, 1: 5}
            assert m.state().group_id == m.group_id
        admin = AdminClient({"bootstrap.servers": broker.bootstrap})
        described = admin.describe_consumer_groups([long_id])[long_id].result(30)
        assert described.group_id == long_id
        assert [member.client_id for member in described.members] == ["long"]
    finally:
        close_all(members)


@pytest.mark.parametrize("session_timeout_ms", [1000, 3_600_000], ids=["below-min", "above-max"])
def test_session_timeout_outside_broker_bounds_is_refused(broker: BrokerProcess, session_timeout_ms: int) -> None:
    """A member asking for a session timeout outside group.min/max.session.timeout.ms gets INVALID_SESSION_TIMEOUT
    and no partitions, while a member of another group on the same topic is served."""
    topic = f"bad-session-{session_timeout_ms}"
    create_topic(broker.bootstrap, topic, 2)
    # librdkafka wants max.poll.interval.ms (its rebalance timeout) at least as long as the session timeout.
    poll_interval_ms = max(session_timeout_ms, 300_000)
    bad = _member(
        broker,
        "bad",
        f"bad-{session_timeout_ms}",
        topic,
        **{"session.timeout.ms": session_timeout_ms, "max.poll.interval.ms": poll_interval_ms},
    )
    good = _member(broker, "good", f"good-{session_timeout_ms}", topic)
    try:
        drive(
            [bad, good],
            lambda: (
                any(e.code() == ck.KafkaError.INVALID_SESSION_TIMEOUT for e in bad.errors) and len(good.assigned) == 2
            ),
            "the bad member to be refused and the good one assigned",
        )
        assert bad.assigned == frozenset() and bad.events == []
    finally:
        close_all([bad, good])


def test_member_with_no_common_assignor_is_refused(broker: BrokerProcess) -> None:
    """A member whose only assignor is one the group's members do not support gets INCONSISTENT_GROUP_PROTOCOL;
    the existing member keeps its partitions and generation."""
    topic = group = "inconsistent"
    create_topic(broker.bootstrap, topic, 2)
    first = _member(broker, "first", group, topic, **{"partition.assignment.strategy": "range"})
    other: GroupMember | None = None
    try:
        drive([first], lambda: len(first.assigned) == 2, "the first member to be assigned")
        generation = first.state().generation_id
        other = _member(broker, "other", group, topic, **{"partition.assignment.strategy": "roundrobin"})
        refused = other
        drive(
            [first, refused],
            lambda: any(e.code() == ck.KafkaError.INCONSISTENT_GROUP_PROTOCOL for e in refused.errors),
            "the second member to be refused",
        )
        assert refused.assigned == frozenset()
        assert len(first.assigned) == 2 and first.state().generation_id == generation
    finally:
        close_all([first] + ([other] if other is not None else []))
