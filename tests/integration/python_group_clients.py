"""Helpers for scenarios run with our own clients (kafka.clients): group members built on our KafkaConsumer that
record what the group does to them (assignments, revocations, records, commits), a thread per member as
applications run consumers, and small topic, producer and reading helpers on our Admin, KafkaProducer and
KafkaConsumer. The counterpart of group_clients.py, which does the same with confluent-kafka."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.clients.admin.admin import Admin
from kafka.clients.admin.new_topic import NewTopic
from kafka.clients.consumer.consumer_rebalance_listener import ConsumerRebalanceListener
from kafka.clients.consumer.kafka_consumer import KafkaConsumer
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.common.errors import KafkaException
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from kafka.common.topic_partition import TopicPartition
from tests.integration.group_clients import Delivery, RebalanceEvent
from tests.utils import wait_until_true

WAIT_MS = 30_000

# Stamps every delivery, across members and threads, in the order poll() returned them.
_DELIVERY_SEQUENCE = itertools.count()


def admin_client(bootstrap: str) -> Admin:
    return Admin.create({"bootstrap.servers": bootstrap, "client.id": "scenario-admin"})


def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    """Creates a topic with replication factor 1 through our Admin and waits for the broker to confirm it."""
    with admin_client(bootstrap) as admin:
        admin.create_topics([NewTopic(name, partitions, 1)]).all().get(WAIT_MS)


def producer(bootstrap: str, **settings: Any) -> KafkaProducer[bytes, bytes]:
    """Our producer with byte keys and values; `settings` use Java's names with `_` for `.`."""
    configs: dict[str, Any] = {"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5}
    configs.update({k.replace("_", "."): v for k, v in settings.items()})
    return KafkaProducer(configs, ByteArraySerializer(), ByteArraySerializer())


def produce(bootstrap: str, topic: str, records: Iterable[tuple[int | None, bytes | None, bytes]]) -> list[Any]:
    """Sends (partition, key, value) records with our producer (acks=all) and returns their RecordMetadata, in send
    order, once every one is acknowledged."""
    with producer(bootstrap) as p:
        futures = [
            p.send(ProducerRecord(topic, value, key=key, partition=partition)) for partition, key, value in records
        ]
        p.flush()
        return [f.get(WAIT_MS) for f in futures]


def consumer(bootstrap: str, settings: Mapping[str, Any] | None = None) -> KafkaConsumer[bytes, bytes]:
    """Our consumer with byte keys and values, short fetch waits and no auto commit unless `settings` (Java's
    names) say otherwise."""
    configs: dict[str, Any] = {
        "bootstrap.servers": bootstrap,
        "fetch.max.wait.ms": 100,
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
    }
    configs.update(settings or {})
    return KafkaConsumer(configs, ByteArrayDeserializer(), ByteArrayDeserializer())


def read_all(bootstrap: str, topic: str, partitions: int, expected: int, timeout: float = 30) -> list[Any]:
    """Reads every partition of `topic` from the beginning with our consumer (no group) until `expected` records
    came, then polls once more so that anything beyond them (a duplicate) is seen too."""
    tps = [TopicPartition(topic, p) for p in range(partitions)]
    with consumer(bootstrap) as c:
        c.assign(tps)
        c.seek_to_beginning(tps)
        got: list[Any] = []
        deadline = time.monotonic() + timeout
        while len(got) < expected and time.monotonic() < deadline:
            got.extend(c.poll(200))
        got.extend(c.poll(300))
    return got


@dataclass
class GroupMember:
    """Our KafkaConsumer subscribed to one topic in a group, recording what happens to it.

    With `commit_each` set it commits, right after each poll(), the records that poll returned (one offset per
    partition, synchronously), and when partitions are revoked it commits anything delivered but not yet committed
    on them (the usual at-least-once discipline)."""

    name: str
    bootstrap: str
    group_id: str
    topic: str
    config: dict[str, Any] = field(default_factory=dict)
    commit_each: bool = False
    events: list[RebalanceEvent] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    commit_failures: list[str] = field(default_factory=list)
    closed: bool = False

    def __post_init__(self) -> None:
        settings: dict[str, Any] = {
            "group.id": self.group_id,
            "client.id": self.name,
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 500,
            "metadata.max.age.ms": 2000,
            "max.poll.records": 20,
        }
        settings.update(self.config)
        self._uncommitted: dict[int, list[Delivery]] = {}
        self.consumer = consumer(self.bootstrap, settings)
        self.consumer.subscribe([self.topic], _Listener(self))

    # ---- consuming -------------------------------------------------------------------------------------

    def poll(self, timeout_ms: int) -> list[Delivery]:
        """Polls once; returns the records delivered (committed first when `commit_each`)."""
        got = []
        for record in self.consumer.poll(timeout_ms):
            delivery = Delivery(next(_DELIVERY_SEQUENCE), self.name, record.partition, record.offset, record.key)
            self.deliveries.append(delivery)
            self._uncommitted.setdefault(record.partition, []).append(delivery)
            got.append(delivery)
        if self.commit_each and got:
            self.commit_pending({d.partition for d in got})
        return got

    def commit_pending(self, partitions: Collection[int]) -> None:
        """Commits, in one synchronous call, the offset after the last delivered record of each of `partitions`;
        the deliveries count as committed only if the call succeeded."""
        pending = {p: self._uncommitted[p] for p in partitions if self._uncommitted.get(p)}
        if not pending:
            return
        offsets = {TopicPartition(self.topic, p): OffsetAndMetadata(ds[-1].offset + 1) for p, ds in pending.items()}
        try:
            self.consumer.commit_sync(offsets)
        except KafkaException as e:
            self.commit_failures.append(f"{self.name} {sorted(pending)}: {type(e).__name__}: {e}")
            return
        for p, ds in pending.items():
            for d in ds:
                d.committed = True
            del self._uncommitted[p]

    def drop_pending(self, partitions: Collection[int]) -> None:
        for p in partitions:
            self._uncommitted.pop(p, None)

    # ---- state -----------------------------------------------------------------------------------------

    @property
    def assigned(self) -> frozenset[int]:
        """The partitions our consumer currently has assigned to this member."""
        return frozenset(tp.partition for tp in self.consumer.assignment())

    @property
    def owned(self) -> frozenset[int]:
        """The partitions this member owns by its rebalance callbacks so far (safe to read from another thread)."""
        owned: set[int] = set()
        for event in list(self.events):
            if event.kind == "assign":
                owned |= event.partitions
            else:
                owned -= event.partitions
        return frozenset(owned)

    @property
    def generation_id(self) -> int:
        return self.consumer.group_metadata().generation_id

    @property
    def member_id(self) -> str:
        return self.consumer.group_metadata().member_id

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.consumer.close(10_000)


class _Listener(ConsumerRebalanceListener):
    """Records each rebalance callback on the member; commits what is pending on partitions being revoked."""

    def __init__(self, member: GroupMember) -> None:
        self._member = member

    def on_partitions_revoked(self, partitions: Collection[TopicPartition]) -> None:
        revoked = frozenset(tp.partition for tp in partitions)
        self._member.events.append(RebalanceEvent("revoke", revoked))
        if self._member.commit_each:
            self._member.commit_pending(revoked)

    def on_partitions_assigned(self, partitions: Collection[TopicPartition]) -> None:
        self._member.events.append(RebalanceEvent("assign", frozenset(tp.partition for tp in partitions)))

    def on_partitions_lost(self, partitions: Collection[TopicPartition]) -> None:
        lost = frozenset(tp.partition for tp in partitions)
        self._member.events.append(RebalanceEvent("lost", lost))
        self._member.drop_pending(lost)


class MemberThread(threading.Thread):
    """Polls one member in its own thread (our consumer is used by one thread at a time), until stopped; then closes
    it. A member whose poll or commit waits on a rebalance cannot keep the others from taking part in it."""

    def __init__(self, member: GroupMember) -> None:
        super().__init__(name=f"member-{member.name}", daemon=True)
        self.member = member
        self.error: BaseException | None = None
        self._stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self._stopping.is_set():
                self.member.poll(100)
        except BaseException as e:  # reported by stop()
            self.error = e
        finally:
            try:
                self.member.close()
            except BaseException as e:
                self.error = self.error or e

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def stop(self, timeout: float = 30.0) -> None:
        """Stops polling, waits for the member to close, and re-raises what failed in the thread."""
        self._stopping.set()
        self.join(timeout)
        assert not self.is_alive(), f"{self.name} did not close within {timeout} s"
        if self.error is not None:
            raise self.error


def drive(members: Iterable[GroupMember], condition: Callable[[], bool], msg: str, timeout: float = 30.0) -> None:
    """Polls every open member in turn from this thread (short polls, so that all take part in a rebalance) until
    `condition` holds."""
    group = list(members)

    def step() -> bool:
        for m in group:
            if not m.closed:
                m.poll(20)
        return condition()

    wait_until_true(step, msg, timeout=timeout, pause=0)


def committed_offsets(bootstrap: str, group: str) -> dict[int, int]:
    """The group's committed offsets by partition, as our Admin lists them (partitions without one left out)."""
    with admin_client(bootstrap) as admin:
        listed = admin.list_consumer_group_offsets(group).partitions_to_offset_and_metadata().get(WAIT_MS)
    return {tp.partition: o.offset for tp, o in listed.items() if o is not None}
