"""What the transaction tests share (issue 13): the module-scoped one-broker fixture and the `offsets` fixture
(`broker = one_broker_fixture("name")`, `offsets = offsets_fixture()` in a test module), topics and
transactional producers of that broker; partitions' last stable offsets and high watermarks as consumers of
each isolation level get them, and a confluent-kafka reader that stops at each partition's end."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import BrokerProcess
from tests.utils import wait_until_true

# Over the broker's defaults for transactions on one broker: the transaction log and the offsets topic with one
# replica (Kafka's defaults ask for three), on few partitions to create and load.
ONE_BROKER_OVERRIDES = {
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "transaction.state.log.num.partitions": "4",
    "offsets.topic.num.partitions": "4",
}


def one_broker_fixture(name: str, overrides: Mapping[str, str] = ONE_BROKER_OVERRIDES) -> Callable[..., Any]:
    """A module-scoped `broker` fixture: one broker from the bin scripts under the chroot /{name}-..., with
    `overrides`, stopped (cleanly, or the test fails) after the module's tests."""

    @pytest.fixture(scope="module")
    def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
        work = Path(tmp_path_factory.mktemp(name))
        b = BrokerProcess(work, f"{zookeeper.connect_string}/{name}-{work.name}", overrides=dict(overrides))
        b.start()
        yield b
        assert b.stop() == 0, b.console_tail()

    return broker


def offsets_fixture() -> Callable[..., Any]:
    """An `offsets` fixture: Offsets of the module's `broker`, closed after the test."""

    @pytest.fixture
    def offsets(broker: BrokerProcess) -> Iterator[Offsets]:
        o = Offsets(broker.bootstrap)
        yield o
        o.close()

    return offsets


def create_topic(bootstrap: str, name: str, partitions: int = 1) -> None:
    """Creates a topic with one replica and waits until the broker's metadata has all its partitions."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=30)[name].result(30)
    wait_until_true(
        lambda: len(admin.list_topics(name, timeout=10).topics[name].partitions) == partitions,
        f"{name} is in the broker's metadata",
        timeout=30,
    )


def txn_producer(bootstrap: str, transactional_id: str, **config: Any) -> ck.Producer:
    """A confluent-kafka transactional producer, its transactions initialised (the first one on a broker waits
    for the transaction log to be created and loaded)."""
    producer = ck.Producer(
        {"bootstrap.servers": bootstrap, "transactional.id": transactional_id, "linger.ms": 5, **config}
    )
    producer.init_transactions(90)
    return producer


class Offsets:
    """The last stable offset and the high watermark of a partition, as consumers of each isolation level get
    them from ListOffsets (a read_committed consumer's end offset is the LSO)."""

    def __init__(self, bootstrap: str) -> None:
        self._consumers = {
            level: ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "offsets", "isolation.level": level})
            for level in ("read_committed", "read_uncommitted")
        }

    def lso(self, topic: str, partition: int = 0) -> int:
        return self._end("read_committed", topic, partition)

    def high_watermark(self, topic: str, partition: int = 0) -> int:
        return self._end("read_uncommitted", topic, partition)

    def _end(self, level: str, topic: str, partition: int) -> int:
        _, high = self._consumers[level].get_watermark_offsets(ck.TopicPartition(topic, partition), 10, cached=False)
        return int(high)

    def is_stable(self, topic: str, partitions: int = 1) -> bool:
        """Whether no transaction is open on the topic: every partition's LSO is its high watermark."""
        try:
            return all(self.lso(topic, p) == self.high_watermark(topic, p) for p in range(partitions))
        except ck.KafkaException:
            return False  # a leader is moving

    def wait_stable(self, topic: str, partitions: int = 1, timeout: float = 60.0) -> None:
        """Waits until no transaction is open on the topic (EndTxn is answered once the decision is in the
        transaction log; the markers that move the LSO are written after it)."""
        wait_until_true(
            lambda: self.is_stable(topic, partitions),
            f"every partition of {topic} has its last stable offset at its high watermark",
            timeout=timeout,
            pause=0.1,
        )

    def close(self) -> None:
        for consumer in self._consumers.values():
            consumer.close()


class Reader:
    """A confluent-kafka consumer assigned every partition of a topic from its start, outside any group, told
    when it reaches each partition's end (the LSO for read_committed, the high watermark for read_uncommitted)."""

    def __init__(self, bootstrap: str, topic: str, partitions: int = 1, isolation: str = "read_committed") -> None:
        self.partitions = partitions
        self.consumer = ck.Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": f"reader-{uuid.uuid4().hex[:8]}",
                "enable.auto.commit": False,
                "enable.partition.eof": True,
                "isolation.level": isolation,
                "fetch.wait.max.ms": 100,
            }
        )
        self.consumer.assign([ck.TopicPartition(topic, p, ck.OFFSET_BEGINNING) for p in range(partitions)])

    def read_to_end(self, timeout: float = 60.0) -> list[tuple[int, int, str]]:
        """(partition, offset, value) of the records read until every partition reported its end after them.
        A partition's end is reported once per offset: call it again only when new records are due."""
        records: list[tuple[int, int, str]] = []
        at_end: set[int | None] = set()
        deadline = time.monotonic() + timeout
        while len(at_end) < self.partitions:
            if time.monotonic() > deadline:
                raise AssertionError(f"the end of every partition not reached in {timeout} s: {records[-20:]}")
            msg = self.consumer.poll(0.2)
            if msg is None:
                continue
            error = msg.error()
            if error is not None:
                if error.code() == ck.KafkaError._PARTITION_EOF:
                    at_end.add(msg.partition())
                elif not error.retriable() and error.code() != ck.KafkaError._TRANSPORT:
                    raise AssertionError(f"consumer error: {error}")
                continue
            partition, offset, value = msg.partition(), msg.offset(), msg.value()
            assert partition is not None and offset is not None and value is not None
            at_end.discard(partition)
            records.append((partition, offset, value.decode()))
        return records

    def close(self) -> None:
        self.consumer.close()


def read_values(bootstrap: str, topic: str, partitions: int = 1, isolation: str = "read_committed") -> list[str]:
    """Every value of the topic a consumer of `isolation` reads to the end, partition after partition in the
    order read."""
    reader = Reader(bootstrap, topic, partitions, isolation)
    try:
        return [value for _, _, value in reader.read_to_end()]
    finally:
        reader.close()
