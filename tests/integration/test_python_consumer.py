"""Our KafkaConsumer (kafka.clients.consumer) against our broker started with bin/kafka-server-start.sh: assign and
poll, three members splitting six partitions 2/2/2 with each assignor, commit and resume after a restart, a pattern
subscription picking up a new topic, seek/position/committed, offsets_for_times, pause/resume, isolation levels on
non-transactional data, wakeup, and a group shared with a confluent-kafka (librdkafka) consumer. Records are
produced with confluent-kafka."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest

from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.kafka_consumer import KafkaConsumer
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.errors import WakeupException
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.topic_partition import TopicPartition
from tests.integration.broker import BrokerProcess
from tests.integration.group_clients import create_topic, produce

pytestmark = pytest.mark.integration

Consumer = KafkaConsumer[bytes, bytes]


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("py-consumer"))
    b = BrokerProcess(work, zookeeper.connect_string + "/py-consumer-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@pytest.fixture
def consumers(broker: BrokerProcess) -> Iterator[Callable[..., Consumer]]:
    """Makes consumers of `broker` (configs override the defaults) and closes them all after the test."""
    made: list[Consumer] = []

    def make(**configs: Any) -> Consumer:
        settings: dict[str, Any] = {
            "bootstrap.servers": broker.bootstrap,
            "fetch.max.wait.ms": 100,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": 10000,
            "heartbeat.interval.ms": 500,
        }
        settings.update({k.replace("_", "."): v for k, v in configs.items()})
        consumer: Consumer = KafkaConsumer(settings, ByteArrayDeserializer(), ByteArrayDeserializer())
        made.append(consumer)
        return consumer

    yield make
    for consumer in made:
        consumer.close(5000)


def _records(partitions: int, per_partition: int, start: int = 0) -> list[tuple[int, bytes, bytes]]:
    return [
        (p, f"k{p}".encode(), f"{p}-{i}".encode())
        for p in range(partitions)
        for i in range(start, start + per_partition)
    ]


# The group tests below prove that something happens without waiting for a session to expire: their waits give up
# well before SESSION_TIMEOUT_MS, so they fail if the broker only acted on expiry, and leave ample room under load.
SESSION_TIMEOUT_MS = 60_000
WITHIN_SESSION_S = 40


def _poll_until(
    members: Sequence[Consumer],
    done: Callable[[], bool],
    timeout: float = 60,
    sink: dict[int, list[ConsumerRecord[bytes, bytes]]] | None = None,
) -> None:
    """Polls every member in turn from this thread (short polls, so that all of them take part in a rebalance)
    until `done()`; records go to `sink[member index]`."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        for i, member in enumerate(members):
            records = member.poll(100)
            if sink is not None:
                sink.setdefault(i, []).extend(records)


def _tps(topic: str, partitions: int) -> list[TopicPartition]:
    return [TopicPartition(topic, p) for p in range(partitions)]


def test_assign_and_poll(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """Without a group: assign every partition and read all records, in order per partition, keys and values
    intact, offsets dense."""
    topic = "assign-poll"
    create_topic(broker.bootstrap, topic, 3)
    produce(broker.bootstrap, topic, _records(3, 10))
    consumer = consumers()
    consumer.assign(_tps(topic, 3))
    consumer.seek_to_beginning(_tps(topic, 3))
    got: list[ConsumerRecord[bytes, bytes]] = []
    deadline = time.monotonic() + 30
    while len(got) < 30 and time.monotonic() < deadline:
        got.extend(consumer.poll(200))
    assert len(got) == 30
    for p in range(3):
        mine = [r for r in got if r.partition == p]
        assert [r.offset for r in mine] == list(range(10))
        assert [r.value for r in mine] == [f"{p}-{i}".encode() for i in range(10)]
        assert {r.key for r in mine} == {f"k{p}".encode()}
    assert all(r.topic == topic for r in got)
    assert consumer.position(TopicPartition(topic, 0)) == 10
    assert consumer.poll(200).is_empty()


ASSIGNORS = {
    "range": "org.apache.kafka.clients.consumer.RangeAssignor",
    "roundrobin": "org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "sticky": "org.apache.kafka.clients.consumer.StickyAssignor",
    "cooperative-sticky": "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
}


@pytest.mark.parametrize("assignor", list(ASSIGNORS))
def test_three_members_split_six_partitions(
    broker: BrokerProcess, consumers: Callable[..., Consumer], assignor: str
) -> None:
    """Three members subscribed with `assignor` end up with 2 partitions each, disjoint, covering all six; the
    records produced then are each read exactly once, by the member owning the partition."""
    topic = group = f"split-{assignor}"
    create_topic(broker.bootstrap, topic, 6)
    members = [consumers(group_id=group, partition_assignment_strategy=ASSIGNORS[assignor]) for _ in range(3)]
    for member in members:
        member.subscribe([topic])
    _poll_until(members, lambda: [len(m.assignment()) for m in members] == [2, 2, 2])
    assignments = [m.assignment() for m in members]
    assert set().union(*assignments) == set(_tps(topic, 6))
    produce(broker.bootstrap, topic, _records(6, 5))
    sink: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    _poll_until(members, lambda: sum(len(v) for v in sink.values()) >= 30, sink=sink)
    for _ in range(3):  # nothing more comes
        _poll_until(members, lambda: True, sink=sink)
        for i, member in enumerate(members):
            sink.setdefault(i, []).extend(member.poll(100))
    got = sorted((r.partition, r.offset) for records in sink.values() for r in records)
    assert got == sorted((p, i) for p in range(6) for i in range(5))
    for i, member in enumerate(members):
        assert member.assignment() == assignments[i]
        assert {TopicPartition(r.topic, r.partition) for r in sink.get(i, [])} == assignments[i]


def test_commit_and_resume_after_restart(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """A member reads and commits; after it closes, records are added; a new member of the group starts exactly
    after the committed offsets."""
    topic = group = "commit-resume"
    create_topic(broker.bootstrap, topic, 2)
    produce(broker.bootstrap, topic, _records(2, 10))
    first = consumers(group_id=group)
    first.subscribe([topic])
    seen: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    _poll_until([first], lambda: len(seen.get(0, [])) >= 20, sink=seen)
    first.commit_sync()
    committed = first.committed(set(_tps(topic, 2)))
    assert {tp: (c.offset if c else None) for tp, c in committed.items()} == {tp: 10 for tp in _tps(topic, 2)}
    # the epoch of the last record read is committed with the offset (KIP-320)
    assert {c.leader_epoch if c else None for c in committed.values()} == {0}
    first.close(5000)

    produce(broker.bootstrap, topic, _records(2, 3, start=10))
    second = consumers(group_id=group)
    second.subscribe([topic])
    later: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    _poll_until([second], lambda: len(later.get(0, [])) >= 6, sink=later)
    assert sorted((r.partition, r.offset, r.value) for r in later[0]) == [
        (p, 10 + i, f"{p}-{10 + i}".encode()) for p in range(2) for i in range(3)
    ]


def test_auto_commit(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """enable.auto.commit commits the consumed position at auto.commit.interval.ms, and on close."""
    topic = group = "auto-commit"
    create_topic(broker.bootstrap, topic, 1)
    produce(broker.bootstrap, topic, _records(1, 7))
    consumer = consumers(group_id=group, enable_auto_commit=True, auto_commit_interval_ms=200)
    consumer.subscribe([topic])
    seen: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    tp = TopicPartition(topic, 0)
    _poll_until([consumer], lambda: len(seen.get(0, [])) >= 7, sink=seen)

    def committed() -> bool:
        consumer.poll(100)
        found = consumer.committed({tp}).get(tp)
        return found is not None and found.offset == 7

    _poll_until([], committed, timeout=30)


def test_pattern_subscription_picks_up_new_topic(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """A member subscribed to a pattern gets the matching topic's partitions, then, after a metadata refresh,
    those of a matching topic created later; a topic that does not match (fully) is left out."""
    create_topic(broker.bootstrap, "pat-one", 1)
    create_topic(broker.bootstrap, "pat-one-no", 1)
    create_topic(broker.bootstrap, "xpat-two", 1)
    member = consumers(group_id="pattern-group", metadata_max_age_ms=500)
    member.subscribe(re.compile(r"pat-[a-z]+"))
    _poll_until([member], lambda: member.assignment() == {TopicPartition("pat-one", 0)})
    create_topic(broker.bootstrap, "pat-two", 2)
    produce(broker.bootstrap, "pat-two", [(1, b"k", b"v")])
    sink: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    want = {TopicPartition("pat-one", 0), TopicPartition("pat-two", 0), TopicPartition("pat-two", 1)}
    _poll_until([member], lambda: member.assignment() == want and bool(sink.get(0)), sink=sink)
    assert [(r.topic, r.partition, r.value) for r in sink[0]] == [("pat-two", 1, b"v")]
    assert member.subscription() == {"pat-one", "pat-two"}


def test_seek_position_committed(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """seek, seek_to_beginning/end and position; commit_sync with metadata and committed; beginning/end
    offsets."""
    topic = group = "seek-position"
    create_topic(broker.bootstrap, topic, 1)
    produce(broker.bootstrap, topic, _records(1, 20))
    tp = TopicPartition(topic, 0)
    consumer = consumers(group_id=group)
    consumer.assign([tp])
    assert consumer.committed({tp}) == {tp: None}
    assert consumer.position(tp) == 0  # auto.offset.reset=earliest, nothing committed
    consumer.seek(tp, 15)
    assert consumer.position(tp) == 15
    sink: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    _poll_until([consumer], lambda: len(sink.get(0, [])) >= 5, sink=sink)
    assert [r.offset for r in sink[0]] == [15, 16, 17, 18, 19]
    consumer.seek_to_beginning([tp])
    assert consumer.position(tp) == 0
    consumer.seek_to_end([tp])
    assert consumer.position(tp) == 20
    consumer.commit_sync({tp: OffsetAndMetadata(12, "some metadata")})
    found = consumer.committed({tp})[tp]
    assert found is not None and (found.offset, found.metadata) == (12, "some metadata")
    assert consumer.beginning_offsets([tp]) == {tp: 0}
    assert consumer.end_offsets([tp]) == {tp: 20}

    # a restarted member with the group starts from the committed offset
    other = consumers(group_id=group)
    other.assign([tp])
    assert other.position(tp) == 12


def test_offsets_for_times(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """offsets_for_times gives the first offset whose timestamp is at or after each target, with its timestamp,
    and None past the last record."""
    topic = "by-time"
    create_topic(broker.bootstrap, topic, 1)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all"})
    base = int(time.time() * 1000) - 100_000
    for i in range(5):
        producer.produce(topic, value=f"v{i}".encode(), partition=0, timestamp=base + i * 1000)
    assert producer.flush(30) == 0
    tp = TopicPartition(topic, 0)
    consumer = consumers()
    result = consumer.offsets_for_times({tp: base + 1500})
    found = result[tp]
    assert found is not None and found.offset == 2 and found.timestamp == base + 2000
    assert consumer.offsets_for_times({tp: base - 1})[tp].offset == 0  # type: ignore[union-attr]
    assert consumer.offsets_for_times({tp: base + 10_000}) == {tp: None}


def test_pause_resume(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """A paused partition returns nothing while the others keep going; after resume its records come."""
    topic = "pause-resume"
    create_topic(broker.bootstrap, topic, 2)
    produce(broker.bootstrap, topic, _records(2, 5))
    tp0, tp1 = _tps(topic, 2)
    consumer = consumers()
    consumer.assign([tp0, tp1])
    consumer.pause([tp1])
    assert consumer.paused() == {tp1}
    sink: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    _poll_until([consumer], lambda: len(sink.get(0, [])) >= 5, sink=sink)
    for _ in range(5):
        sink[0].extend(consumer.poll(100))
    assert {r.partition for r in sink[0]} == {0} and len(sink[0]) == 5
    consumer.resume([tp1])
    assert consumer.paused() == set()
    _poll_until([consumer], lambda: len(sink.get(0, [])) >= 10, sink=sink)
    assert sorted((r.partition, r.offset) for r in sink[0]) == [(p, i) for p in range(2) for i in range(5)]


@pytest.mark.parametrize("isolation", ["read_committed", "read_uncommitted"])
def test_isolation_levels_on_non_transactional_data(
    broker: BrokerProcess, consumers: Callable[..., Consumer], isolation: str
) -> None:
    """Without transactions, read_committed and read_uncommitted see the same records, up to the same end offset
    (the last stable offset is the high watermark)."""
    topic = f"isolation-{isolation}"
    create_topic(broker.bootstrap, topic, 1)
    produce(broker.bootstrap, topic, _records(1, 8))
    tp = TopicPartition(topic, 0)
    consumer = consumers(isolation_level=isolation)
    consumer.assign([tp])
    sink: dict[int, list[ConsumerRecord[bytes, bytes]]] = {}
    _poll_until([consumer], lambda: len(sink.get(0, [])) >= 8, sink=sink)
    assert [r.value for r in sink[0]] == [f"0-{i}".encode() for i in range(8)]
    assert consumer.end_offsets([tp]) == {tp: 8}


def test_list_topics_and_partitions_for(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    create_topic(broker.bootstrap, "listed", 3)
    consumer = consumers()
    topics = consumer.list_topics()
    assert sorted(p.partition for p in topics["listed"]) == [0, 1, 2]
    infos = consumer.partitions_for("listed")
    assert sorted(p.partition for p in infos) == [0, 1, 2]
    assert all(p.leader is not None and p.leader.id == 0 for p in infos)


def test_wakeup_from_another_thread(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """wakeup() from another thread ends a long poll with WakeupException."""
    topic = "wakeup"
    create_topic(broker.bootstrap, topic, 1)
    consumer = consumers()
    consumer.assign([TopicPartition(topic, 0)])
    timer = threading.Timer(0.5, consumer.wakeup)
    timer.start()
    with pytest.raises(WakeupException):  # without the wakeup, the poll would return (empty) after 30 s
        consumer.poll(30_000)
    timer.join()


def test_rebalance_listener_and_leaving_member(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """The listener sees the assignment; when one of two members closes (leaving the group), the other gets all
    the partitions without waiting for the session timeout."""
    topic = group = "leaving"
    create_topic(broker.bootstrap, topic, 4)
    events: list[tuple[str, frozenset[TopicPartition]]] = []

    class Listener(ConsumerRebalanceListener):
        def on_partitions_revoked(self, partitions: Any) -> None:
            events.append(("revoked", frozenset(partitions)))

        def on_partitions_assigned(self, partitions: Any) -> None:
            events.append(("assigned", frozenset(partitions)))

    a = consumers(group_id=group, session_timeout_ms=SESSION_TIMEOUT_MS)
    b = consumers(group_id=group, session_timeout_ms=SESSION_TIMEOUT_MS)
    a.subscribe([topic], Listener())
    b.subscribe([topic])
    _poll_until([a, b], lambda: len(a.assignment()) == 2 and len(b.assignment()) == 2)
    assert events and events[-1] == ("assigned", frozenset(a.assignment()))
    b.close(5000)
    _poll_until([a], lambda: len(a.assignment()) == 4, timeout=WITHIN_SESSION_S)


def test_group_shared_with_confluent_consumer(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """Our member and a librdkafka member with the range assignor share a 4-partition topic 2/2 and between them
    read every record once."""
    topic = group = "mixed-group"
    create_topic(broker.bootstrap, topic, 4)
    produce(broker.bootstrap, topic, _records(4, 5))
    ours = consumers(group_id=group, partition_assignment_strategy=ASSIGNORS["range"])
    ours.subscribe([topic])
    theirs = ck.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": group,
            "partition.assignment.strategy": "range",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "fetch.wait.max.ms": 100,
            "session.timeout.ms": 10000,
        }
    )
    their_records: list[tuple[int | None, int | None]] = []
    our_records: list[tuple[int, int]] = []
    try:
        theirs.subscribe([topic])
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, (ours.assignment(), theirs.assignment())
            our_records.extend((r.partition, r.offset) for r in ours.poll(100))
            msg = theirs.poll(0.1)
            if msg is not None and msg.error() is None:
                their_records.append((msg.partition(), msg.offset()))
            their_assignment = {p.partition for p in theirs.assignment()}
            our_assignment = {tp.partition for tp in ours.assignment()}
            if (
                len(their_assignment) == 2
                and len(our_assignment) == 2
                and their_assignment | our_assignment == {0, 1, 2, 3}
                and len(set(our_records) | set(their_records)) == 20
            ):
                break
    finally:
        theirs.close()
    assert sorted(set(our_records) | set(their_records)) == [(p, i) for p in range(4) for i in range(5)]


def test_static_member_rejoins_with_its_partitions(broker: BrokerProcess, consumers: Callable[..., Consumer]) -> None:
    """Static members (group.instance.id) do not leave the group on close; a restarted member with the same
    instance id gets its partitions back at once, while the other member keeps its own."""
    topic = group = "static-members"
    create_topic(broker.bootstrap, topic, 4)
    a = consumers(group_id=group, group_instance_id="a", session_timeout_ms=SESSION_TIMEOUT_MS)
    b = consumers(group_id=group, group_instance_id="b", session_timeout_ms=SESSION_TIMEOUT_MS)
    a.subscribe([topic])
    b.subscribe([topic])
    _poll_until([a, b], lambda: len(a.assignment()) == 2 and len(b.assignment()) == 2)
    a_partitions, b_partitions = a.assignment(), b.assignment()
    b.close(5000)
    for _ in range(5):
        a.poll(100)
    assert a.assignment() == a_partitions  # no rebalance: b is still a member
    b2 = consumers(group_id=group, group_instance_id="b", session_timeout_ms=SESSION_TIMEOUT_MS)
    b2.subscribe([topic])
    _poll_until([a, b2], lambda: b2.assignment() == b_partitions, timeout=WITHIN_SESSION_S)
    assert a.assignment() == a_partitions
