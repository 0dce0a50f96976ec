"""Consumer groups with aiokafka (in process) and kafka-python (in its own virtualenv, as a separate process) against
a broker started with bin/kafka-server-start.sh: two members split a topic, commit what they read, and a new member
started later resumes exactly at the committed offsets; an empty group id is refused with Kafka's error."""

from __future__ import annotations

import asyncio
import json
import subprocess
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.group_clients import create_topic, produce
from tests.integration.zookeeper import ZooKeeperServer

pytestmark = pytest.mark.integration

KAFKA_PYTHON = ROOT / ".venv-kafka-python" / "bin" / "python"
PARTITIONS = 4
FIRST, MORE = 40, 10  # records per partition before the members stop, and after


@pytest.fixture(scope="module")
def broker(zookeeper: ZooKeeperServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("groups-others"))
    b = BrokerProcess(work, zookeeper.connect_string + "/groups-others-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _records(start: int, count: int) -> list[tuple[int, bytes, bytes]]:
    return [(p, f"k{p}".encode(), f"{p}-{i}".encode()) for p in range(PARTITIONS) for i in range(start, start + count)]


def _assert_split(assignments: list[list[int]]) -> None:
    assert sorted(len(a) for a in assignments) == [2, 2], assignments
    assert sorted(p for a in assignments for p in a) == list(range(PARTITIONS)), assignments


# ---- aiokafka -------------------------------------------------------------------------------------------


def test_aiokafka_members_split_commit_and_a_new_member_resumes(broker: BrokerProcess) -> None:
    """Two aiokafka members split a 4-partition topic 2/2, read and commit every record of their own partitions,
    and a member started after they stop reads exactly the records produced since."""
    import aiokafka
    from aiokafka.structs import TopicPartition

    topic = group = "aio-group"
    create_topic(broker.bootstrap, topic, PARTITIONS)

    def member(name: str) -> Any:
        return aiokafka.AIOKafkaConsumer(
            topic,
            bootstrap_servers=broker.bootstrap,
            group_id=group,
            client_id=name,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            session_timeout_ms=6000,
            heartbeat_interval_ms=500,
        )

    async def read(consumers: list[Any], done: Any, timeout: float = 30) -> list[list[tuple[int, int, bytes]]]:
        """Polls the consumers in turn until `done(records read by each)` holds."""
        got: list[list[tuple[int, int, bytes]]] = [[] for _ in consumers]

        async def loop() -> None:
            while not done(got):
                for c, records_of_c in zip(consumers, got, strict=True):
                    batch = await c.getmany(timeout_ms=50)
                    for tp, records in batch.items():
                        records_of_c.extend((tp.partition, r.offset, r.value) for r in records)

        await asyncio.wait_for(loop(), timeout)
        return got

    async def first_members() -> tuple[list[list[int]], list[list[tuple[int, int, bytes]]], list[dict[int, int]]]:
        consumers = [member("aio-1"), member("aio-2")]
        for c in consumers:
            await c.start()
        try:

            def split(_: object) -> bool:
                assignments = [sorted(tp.partition for tp in c.assignment()) for c in consumers]
                return sorted(len(a) for a in assignments) == [2, 2]

            await read(consumers, split)  # no records yet: this only lets the group settle
            assignments = [sorted(tp.partition for tp in c.assignment()) for c in consumers]
            produce(broker.bootstrap, topic, _records(0, FIRST))
            got = await read(consumers, lambda g: sum(map(len, g)) >= PARTITIONS * FIRST)
            committed = []
            for c in consumers:
                await c.commit()
                committed.append({tp.partition: await c.committed(tp) for tp in c.assignment()})
            assert [sorted(tp.partition for tp in c.assignment()) for c in consumers] == assignments
            return assignments, got, committed
        finally:
            for c in consumers:
                await c.stop()

    async def new_member() -> tuple[list[tuple[int, int, bytes]], dict[int, int]]:
        consumer = member("aio-3")
        await consumer.start()
        try:
            got = await read([consumer], lambda g: sum(map(len, g)) >= PARTITIONS * MORE)
            await consumer.commit()
            return got[0], {p: await consumer.committed(TopicPartition(topic, p)) for p in range(PARTITIONS)}
        finally:
            await consumer.stop()

    assignments, got, committed = asyncio.run(first_members())
    _assert_split(assignments)
    for records, assigned in zip(got, assignments, strict=True):
        assert {p for p, _, _ in records} == set(assigned), "each member reads only its own partitions"
        assert sorted(records) == [(p, i, f"{p}-{i}".encode()) for p in assigned for i in range(FIRST)]
    assert committed == [{p: FIRST for p in a} for a in assignments]

    produce(broker.bootstrap, topic, _records(FIRST, MORE))
    resumed, committed_after = asyncio.run(new_member())
    assert sorted(resumed) == [
        (p, i, f"{p}-{i}".encode()) for p in range(PARTITIONS) for i in range(FIRST, FIRST + MORE)
    ], "the new member starts at the committed offsets"
    assert committed_after == {p: FIRST + MORE for p in range(PARTITIONS)}


def test_aiokafka_empty_group_id_is_refused(broker: BrokerProcess) -> None:
    """An aiokafka member with an empty group id gets Kafka's INVALID_GROUP_ID when it tries to join."""
    import aiokafka
    from aiokafka.errors import InvalidGroupIdError

    topic = "aio-empty-group"
    create_topic(broker.bootstrap, topic, 1)

    async def run() -> None:
        consumer = aiokafka.AIOKafkaConsumer(
            topic, bootstrap_servers=broker.bootstrap, group_id="", enable_auto_commit=False
        )
        try:
            # Subscribed from the constructor, start() waits for the first assignment: the join fails instead.
            with pytest.raises(InvalidGroupIdError):
                await asyncio.wait_for(consumer.start(), 30)
        finally:
            await consumer.stop()

    asyncio.run(run())


# ---- kafka-python ---------------------------------------------------------------------------------------

KAFKA_PYTHON_SCRIPT = textwrap.dedent(
    """
    import json, sys, threading, time
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.errors import InvalidGroupIdError

    bootstrap, topic, group, phase = sys.argv[1:5]
    partitions, first, more = 4, 40, 10

    def member(name, group_id=group):
        consumer = KafkaConsumer(
            bootstrap_servers=bootstrap, group_id=group_id, client_id=name, enable_auto_commit=False,
            auto_offset_reset="earliest", session_timeout_ms=6000, heartbeat_interval_ms=500,
        )
        consumer.subscribe([topic])
        # Learn the topic's partitions before the first poll joins the group. Otherwise the leader may assign from
        # empty metadata and rejoin as soon as the metadata arrives; kafka-python 3.0 can lose that second join when a
        # short poll returns while it is in flight (its need_rejoin() turns false once the assignment is computed, so
        # no later poll completes the join): the member then never gets partitions nor heartbeats.
        assert consumer.partitions_for_topic(topic), "no metadata for " + topic
        return consumer

    def produce(start, count):
        producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
        for p in range(partitions):
            for i in range(start, start + count):
                producer.send(topic, key=b"k%d" % p, value=b"%d-%d" % (p, i), partition=p)
        producer.flush(30)
        producer.close()

    def read(consumers, done, timeout=30):
        # Each member polls in its own thread, as applications run consumers. Polling several members in turn from
        # one thread makes a join complete while nobody awaits it, and kafka-python 3.0 then discards the finished
        # join and sends a new JoinGroup: with two members that can go on for ever (a rebalance storm).
        got = {c.config["client_id"]: [] for c in consumers}
        stop = threading.Event()
        errors = []

        def poll_until_stopped(c):
            try:
                while not stop.is_set():
                    for tp, records in c.poll(timeout_ms=500).items():
                        got[c.config["client_id"]].extend([tp.partition, r.offset, r.value.decode()] for r in records)
            except BaseException as e:
                errors.append(e)

        threads = [threading.Thread(target=poll_until_stopped, args=(c,), daemon=True) for c in consumers]
        for t in threads:
            t.start()
        deadline = time.monotonic() + timeout
        try:
            while not done(got) and not errors:
                if time.monotonic() > deadline:
                    raise SystemExit("timed out; got %r" % got)
                time.sleep(0.05)
        finally:
            stop.set()
            for t in threads:
                t.join()
        if errors:
            raise errors[0]
        return got

    def assignments(consumers):
        return [sorted(tp.partition for tp in c.assignment()) for c in consumers]

    out = {}
    if phase == "first":
        consumers = [member("kp-1"), member("kp-2")]
        read(consumers, lambda _: sorted(len(a) for a in assignments(consumers)) == [2, 2])
        out["assignments"] = assignments(consumers)
        produce(0, first)
        out["records"] = read(consumers, lambda g: sum(len(v) for v in g.values()) >= partitions * first)
        out["committed"] = []
        for c in consumers:
            c.commit()
            out["committed"].append({tp.partition: c.committed(tp) for tp in c.assignment()})
        out["assignments_after"] = assignments(consumers)
        for c in consumers:
            c.close()
    elif phase == "resume":
        produce(first, more)
        consumer = member("kp-3")
        out["records"] = read([consumer], lambda g: sum(len(v) for v in g.values()) >= partitions * more)
        consumer.commit()
        out["committed"] = {p: consumer.committed(TopicPartition(topic, p)) for p in range(partitions)}
        consumer.close()
    elif phase == "empty-group":
        consumer = member("kp-empty", group_id="")
        try:
            read([consumer], lambda _: False, timeout=30)
        except InvalidGroupIdError as e:
            out["error"] = type(e).__name__
        consumer.close()
    print(json.dumps(out))
    """
)


def _kafka_python(broker: BrokerProcess, tmp_path: Path, topic: str, group: str, phase: str) -> Any:
    if not KAFKA_PYTHON.exists():
        pytest.fail("make install creates .venv-kafka-python with kafka-python")
    script = tmp_path / "group.py"
    script.write_text(KAFKA_PYTHON_SCRIPT)
    done = subprocess.run(
        [str(KAFKA_PYTHON), str(script), broker.bootstrap, topic, group, phase],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_kafka_python_members_split_commit_and_a_new_member_resumes(broker: BrokerProcess, tmp_path: Path) -> None:
    """Two kafka-python members (one process) split a 4-partition topic 2/2, read and commit every record of their
    own partitions; a member in a new process reads exactly the records produced since."""
    topic = group = "kp-group"
    create_topic(broker.bootstrap, topic, PARTITIONS)
    first = _kafka_python(broker, tmp_path, topic, group, "first")
    assignments = first["assignments"]
    _assert_split(assignments)
    assert first["assignments_after"] == assignments, "no rebalance while the members read"
    for (name, records), assigned in zip(sorted(first["records"].items()), assignments, strict=True):
        assert {p for p, _, _ in records} == set(assigned), "each member reads only its own partitions"
        assert sorted(records) == [[p, i, f"{p}-{i}"] for p in assigned for i in range(FIRST)], name
    assert first["committed"] == [{str(p): FIRST for p in a} for a in assignments]

    resumed = _kafka_python(broker, tmp_path, topic, group, "resume")
    assert sorted(resumed["records"]["kp-3"]) == [
        [p, i, f"{p}-{i}"] for p in range(PARTITIONS) for i in range(FIRST, FIRST + MORE)
    ], "the new member starts at the committed offsets"
    assert resumed["committed"] == {str(p): FIRST + MORE for p in range(PARTITIONS)}


def test_kafka_python_empty_group_id_is_refused(broker: BrokerProcess, tmp_path: Path) -> None:
    """A kafka-python member with an empty group id gets Kafka's INVALID_GROUP_ID when it tries to join."""
    topic = "kp-empty-group"
    create_topic(broker.bootstrap, topic, 1)
    assert _kafka_python(broker, tmp_path, topic, "", "empty-group") == {"error": "InvalidGroupIdError"}
