"""Helpers for the consumer-group scenarios: confluent-kafka group members that record what the group does to them
(assignments, revocations, records, commits), a driver that polls several members from one thread, and small topic
and producer helpers."""

from __future__ import annotations

import itertools
import struct
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import confluent_kafka as ck
from confluent_kafka.admin import AdminClient, NewTopic

from tests.utils import wait_until_true

# librdkafka's serialized consumer group metadata (rd_kafka_consumer_group_metadata_write) starts with this magic,
# then the generation id as a native-endian int32, then NUL-terminated group id and member id.
_CGMD_MAGIC = b"CGMDv2:"

# Stamps every delivery, across members and threads, in the order poll() returned them.
_DELIVERY_SEQUENCE = itertools.count()


@dataclass(frozen=True, slots=True)
class GroupState:
    """What a librdkafka member believes about its group membership."""

    generation_id: int
    group_id: str
    member_id: str


def group_state(consumer: ck.Consumer) -> GroupState:
    """Decodes Consumer.consumer_group_metadata() (opaque bytes for transactions) into generation and member id."""
    raw = consumer.consumer_group_metadata()
    assert isinstance(raw, bytes) and raw.startswith(_CGMD_MAGIC), raw
    (generation_id,) = struct.unpack_from("=i", raw, len(_CGMD_MAGIC))
    rest = raw[len(_CGMD_MAGIC) + 4 :]
    group_id, rest = rest.split(b"\0", 1)
    member_id, _ = rest.split(b"\0", 1)
    return GroupState(generation_id, group_id.decode(), member_id.decode())


def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    """Creates a topic with replication factor 1 and waits for the broker to confirm it."""
    admin = AdminClient({"bootstrap.servers": bootstrap})  # referenced until the future completes
    futures = admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=30)
    futures[name].result(30)


def produce(bootstrap: str, topic: str, records: Iterable[tuple[int, bytes, bytes]]) -> list[tuple[int, int]]:
    """Produces (partition, key, value) records with acks=all; returns their (partition, offset) in send order."""
    producer = ck.Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    acked: dict[int, tuple[int, int]] = {}
    sent = 0
    for partition, key, value in records:

        def on_delivery(err: Any, msg: Any, i: int = sent) -> None:
            assert err is None, err
            acked[i] = (msg.partition(), msg.offset())

        producer.produce(topic, key=key, value=value, partition=partition, on_delivery=on_delivery)
        sent += 1
    assert producer.flush(30) == 0
    assert len(acked) == sent
    return [acked[i] for i in range(sent)]


@dataclass(slots=True)
class Delivery:
    """One record handed to a member by poll(), and whether the member's commit of it was accepted."""

    seq: int  # when poll() returned it, relative to every other delivery of the test run
    member: str
    partition: int
    offset: int
    key: bytes | None
    committed: bool = False


@dataclass(slots=True)
class RebalanceEvent:
    kind: str  # "assign", "revoke" or "lost"
    partitions: frozenset[int]


@dataclass
class GroupMember:
    """A confluent-kafka consumer subscribed to one topic in a group, recording what happens to it.

    With `commit_each` set, it commits every record synchronously right after poll() returns it, and commits
    anything processed but not yet committed when partitions are revoked (the usual at-least-once discipline)."""

    name: str
    bootstrap: str
    group_id: str
    topic: str
    config: dict[str, Any] = field(default_factory=dict)
    commit_each: bool = False
    events: list[RebalanceEvent] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    errors: list[ck.KafkaError] = field(default_factory=list)
    commit_failures: list[str] = field(default_factory=list)
    closed: bool = False

    def __post_init__(self) -> None:
        conf: dict[str, Any] = {
            "bootstrap.servers": self.bootstrap,
            "group.id": self.group_id,
            "client.id": self.name,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 500,
            "fetch.wait.max.ms": 100,
            "topic.metadata.refresh.interval.ms": 2000,
        }
        conf.update(self.config)
        self._uncommitted: dict[int, Delivery] = {}
        self.consumer = ck.Consumer(conf)
        self.consumer.subscribe(
            [self.topic], on_assign=self._on_assign, on_revoke=self._on_revoke, on_lost=self._on_lost
        )

    # ---- rebalance callbacks (run inside poll()) -------------------------------------------------------

    def _on_assign(self, consumer: ck.Consumer, partitions: list[ck.TopicPartition]) -> None:
        self.events.append(RebalanceEvent("assign", frozenset(tp.partition for tp in partitions)))

    def _on_revoke(self, consumer: ck.Consumer, partitions: list[ck.TopicPartition]) -> None:
        revoked = frozenset(tp.partition for tp in partitions)
        self.events.append(RebalanceEvent("revoke", revoked))
        pending = [d for p, d in self._uncommitted.items() if p in revoked]
        if pending:
            self._commit([ck.TopicPartition(self.topic, d.partition, d.offset + 1) for d in pending], pending)

    def _on_lost(self, consumer: ck.Consumer, partitions: list[ck.TopicPartition]) -> None:
        lost = frozenset(tp.partition for tp in partitions)
        self.events.append(RebalanceEvent("lost", lost))
        for p in lost:
            self._uncommitted.pop(p, None)

    # ---- consuming -------------------------------------------------------------------------------------

    def poll(self, timeout: float) -> Delivery | None:
        """Polls once; returns the record delivered (committed first when `commit_each`), or None."""
        msg = self.consumer.poll(timeout)
        if msg is None:
            return None
        error = msg.error()
        if error is not None:
            self.errors.append(error)
            return None
        partition, offset = msg.partition(), msg.offset()
        assert partition is not None and offset is not None
        delivery = Delivery(next(_DELIVERY_SEQUENCE), self.name, partition, offset, msg.key())
        self.deliveries.append(delivery)
        if self.commit_each:
            self._uncommitted[delivery.partition] = delivery
            self._commit([ck.TopicPartition(self.topic, delivery.partition, delivery.offset + 1)], [delivery])
        return delivery

    def _commit(self, offsets: list[ck.TopicPartition], deliveries: list[Delivery]) -> None:
        try:
            result = self.consumer.commit(offsets=offsets, asynchronous=False)
        except ck.KafkaException as e:
            self.commit_failures.append(f"{self.name} {offsets}: {e}")
            return
        failed = {tp.partition for tp in result or [] if tp.error is not None}
        for tp in result or []:
            if tp.error is not None:
                self.commit_failures.append(f"{self.name} {tp}: {tp.error}")
        for d in deliveries:
            if d.partition not in failed:
                d.committed = True
                if self._uncommitted.get(d.partition) is d:
                    del self._uncommitted[d.partition]

    # ---- state -----------------------------------------------------------------------------------------

    @property
    def assigned(self) -> frozenset[int]:
        """The partitions librdkafka currently has assigned to this member."""
        return frozenset(tp.partition for tp in self.consumer.assignment())

    def state(self) -> GroupState:
        return group_state(self.consumer)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.consumer.close()


class MemberThread(threading.Thread):
    """Polls one member in its own thread, as applications run consumers, until stopped; then closes it.

    A member whose synchronous commit waits behind its own JoinGroup (a broker answers a connection's requests in
    order) must not stop the other members from polling, or the rebalance they all take part in cannot finish."""

    def __init__(self, member: GroupMember) -> None:
        super().__init__(name=f"member-{member.name}", daemon=True)
        self.member = member
        self.error: BaseException | None = None
        self._stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self._stopping.is_set():
                self.member.poll(0.1)
        except BaseException as e:  # reported by stop()
            self.error = e
        finally:
            self.member.close()

    def stop(self, timeout: float = 30.0) -> None:
        """Stops polling, waits for the member to close, and re-raises what failed in the thread."""
        self._stopping.set()
        self.join(timeout)
        assert not self.is_alive(), f"{self.name} did not close within {timeout} s"
        if self.error is not None:
            raise self.error


class Stoppable(Protocol):
    """What stop_all needs of a member thread: this module's or python_group_clients'."""

    def stop(self, timeout: float = 30.0) -> None: ...


class Member(Protocol):
    """What balanced and close_all need of a member: this module's or python_group_clients'."""

    @property
    def assigned(self) -> frozenset[int]: ...

    def close(self) -> None: ...


def stop_all(threads: Iterable[Stoppable]) -> None:
    """Stops every member thread, then re-raises the first failure any of them had."""
    errors: list[BaseException] = []
    for t in threads:
        try:
            t.stop()
        except BaseException as e:
            errors.append(e)
    if errors:
        raise errors[0]


def drive(members: Iterable[GroupMember], condition: Callable[[], bool], msg: str, timeout: float = 30.0) -> None:
    """Polls every open member in turn (they only make progress inside poll()) until `condition` holds."""
    group = list(members)

    def step() -> bool:
        for m in group:
            if not m.closed:
                m.poll(0.02)
        return condition()

    wait_until_true(step, msg, timeout=timeout, pause=0)


def balanced(members: Iterable[Member], partitions: int, sizes: list[int]) -> bool:
    """True when the members' assignments are disjoint, cover all partitions and have the given sizes (sorted)."""
    assignments = [m.assigned for m in members]
    union: set[int] = set().union(*assignments)
    return (
        sorted(len(a) for a in assignments) == sorted(sizes)
        and union == set(range(partitions))
        and sum(len(a) for a in assignments) == partitions
    )


def close_all(members: Iterable[Member]) -> None:
    """Closes every member (a consumer left open blocks the interpreter at exit)."""
    for m in members:
        m.close()
