"""Transactions with our own Python clients (issue 13), on one broker started from the bin scripts: our
transactional KafkaProducer commits and aborts, our KafkaConsumer with isolation.level=read_committed sees only
what was committed (skipping the control records) and is held at the last stable offset while a transaction is
open; consume-transform-produce with send_offsets_to_transaction gives exactly one output record per input record
and commits the group's offsets in the same transaction, even across an aborted attempt; a second producer with
the same transactional.id fences the first; kafka-producer-perf-test's --transaction-duration-ms commits
everything it sends."""

from __future__ import annotations

import io
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.kafka_consumer import KafkaConsumer
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.common.errors import ProducerFencedException
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from kafka.common.topic_partition import TopicPartition
from kafka.tools.producer_performance import ProducerPerformance
from tests.integration.broker import BrokerProcess
from tests.integration.txn_support import Offsets, create_topic, offsets_fixture, one_broker_fixture, read_values
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

Producer = KafkaProducer[bytes, bytes]
Consumer = KafkaConsumer[bytes, bytes]

broker = one_broker_fixture("txn-our-clients")
offsets = offsets_fixture()


@pytest.fixture
def clients(broker: BrokerProcess) -> Iterator[tuple[Callable[..., Producer], Callable[..., Consumer]]]:
    """Makers of our producers and consumers of `broker`; everything made is closed after the test."""
    producers: list[Producer] = []
    consumers: list[Consumer] = []

    def producer(**configs: Any) -> Producer:
        settings: dict[str, Any] = {"bootstrap.servers": broker.bootstrap, "linger.ms": 5}
        settings.update({k.replace("_", "."): v for k, v in configs.items()})
        p: Producer = KafkaProducer(settings, ByteArraySerializer(), ByteArraySerializer())
        producers.append(p)
        return p

    def consumer(**configs: Any) -> Consumer:
        settings: dict[str, Any] = {
            "bootstrap.servers": broker.bootstrap,
            "fetch.max.wait.ms": 100,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",
        }
        settings.update({k.replace("_", "."): v for k, v in configs.items()})
        c: Consumer = KafkaConsumer(settings, ByteArrayDeserializer(), ByteArrayDeserializer())
        consumers.append(c)
        return c

    yield producer, consumer
    for c in consumers:
        c.close(5000)
    for p in producers:
        p.close(5000)


def _txn_producer(make: Callable[..., Producer], transactional_id: str) -> Producer:
    producer = make(transactional_id=transactional_id, max_block_ms=90_000)
    # The first producer waits for __transaction_state to be created and its partitions loaded.
    producer.init_transactions()
    return producer


def _send(producer: Producer, topic: str, values: list[str], partition: int | None = 0) -> None:
    futures = [producer.send(ProducerRecord(topic, v.encode(), partition=partition)) for v in values]
    producer.flush(30_000)
    for future in futures:
        future.get(0)


def _read_until(consumer: Consumer, count: int, timeout_s: float = 30.0) -> list[ConsumerRecord[bytes, bytes]]:
    """Polls until `count` records came (or the deadline; the caller checks what it got)."""
    records: list[ConsumerRecord[bytes, bytes]] = []

    def poll() -> bool:
        records.extend(consumer.poll(200))
        return len(records) >= count

    wait_until_true(poll, f"{count} records", timeout=timeout_s, pause=0)
    return records


def _values(records: list[ConsumerRecord[bytes, bytes]]) -> list[str]:
    return [r.value.decode() for r in records if r.value is not None]


def test_our_producer_commits_and_aborts(broker: BrokerProcess, offsets: Offsets, clients: Any) -> None:
    """Committed records are read by our read_committed consumer and aborted ones never; a read_uncommitted
    consumer reads both; both end past the control records, at the high watermark."""
    make_producer, make_consumer = clients
    topic = "our-commit-abort"
    create_topic(broker.bootstrap, topic)
    producer = _txn_producer(make_producer, f"our-txn-{uuid.uuid4()}")
    for values, commit in ((["a1", "a2"], True), (["b1", "b2", "b3"], False), (["c1"], True)):
        producer.begin_transaction()
        _send(producer, topic, values)
        if commit:
            producer.commit_transaction()
        else:
            producer.abort_transaction()
    offsets.wait_stable(topic)
    # Six records and three markers.
    assert offsets.high_watermark(topic) == 9
    tp = TopicPartition(topic, 0)
    committed_reader = make_consumer()
    committed_reader.assign([tp])
    assert _values(_read_until(committed_reader, 3)) == ["a1", "a2", "c1"]
    wait_until_true(lambda: not committed_reader.poll(100) and committed_reader.position(tp) == 9, "at the end")
    uncommitted_reader = make_consumer(isolation_level="read_uncommitted")
    uncommitted_reader.assign([tp])
    assert _values(_read_until(uncommitted_reader, 6)) == ["a1", "a2", "b1", "b2", "b3", "c1"]
    assert read_values(broker.bootstrap, topic) == ["a1", "a2", "c1"]


def test_open_transaction_holds_our_read_committed_consumer(
    broker: BrokerProcess, offsets: Offsets, clients: Any
) -> None:
    """While a transaction is open our read_committed consumer gets nothing past the last stable offset and its
    position stays there; it reads the records once the transaction commits."""
    make_producer, make_consumer = clients
    topic = "our-lso-hold"
    create_topic(broker.bootstrap, topic)
    plain = make_producer()
    _send(plain, topic, ["before"])
    producer = _txn_producer(make_producer, f"our-txn-{uuid.uuid4()}")
    producer.begin_transaction()
    _send(producer, topic, ["open-1", "open-2"])
    wait_until_true(lambda: offsets.high_watermark(topic) == 3, "the open transaction's records are written")
    assert offsets.lso(topic) == 1
    tp = TopicPartition(topic, 0)
    consumer = make_consumer()
    consumer.assign([tp])
    assert _values(_read_until(consumer, 1)) == ["before"]
    # A non-transactional record after the open transaction's records is held back too.
    _send(plain, topic, ["after"])
    for _ in range(10):
        assert consumer.poll(100).count() == 0
    assert consumer.position(tp) == 1
    producer.commit_transaction()
    assert _values(_read_until(consumer, 3)) == ["open-1", "open-2", "after"]


def test_consume_transform_produce_exactly_once(broker: BrokerProcess, offsets: Offsets, clients: Any) -> None:
    """Our consumer (in a group, read_committed) and our transactional producer: each polled batch is transformed
    and sent with the consumer's offsets in one transaction (send_offsets_to_transaction with group_metadata).
    One attempt is aborted and redone from the committed offsets. The output has exactly one record per input
    record, and the group's committed offsets are the input's end."""
    make_producer, make_consumer = clients
    source, sink, group = "our-ctp-in", "our-ctp-out", f"our-ctp-{uuid.uuid4()}"
    create_topic(broker.bootstrap, source, partitions=2)
    create_topic(broker.bootstrap, sink, partitions=2)
    inputs = [f"v{i}" for i in range(60)]
    plain = make_producer()
    for i, value in enumerate(inputs):
        plain.send(ProducerRecord(source, value.encode(), partition=i % 2))
    plain.flush(30_000)
    consumer = make_consumer(group_id=group, max_poll_records=7)
    consumer.subscribe([source])
    producer = _txn_producer(make_producer, f"our-ctp-{uuid.uuid4()}")
    aborted_once = False
    done = 0

    def step() -> bool:
        nonlocal aborted_once, done
        records = consumer.poll(200)
        if records.count() == 0:
            return done == len(inputs)
        producer.begin_transaction()
        positions: dict[TopicPartition, OffsetAndMetadata] = {}
        for record in records:
            assert record.value is not None
            producer.send(ProducerRecord(sink, b"out-" + record.value, partition=record.partition))
            positions[TopicPartition(record.topic, record.partition)] = OffsetAndMetadata(record.offset + 1)
        metadata = consumer.group_metadata()
        assert isinstance(metadata, ConsumerGroupMetadata) and metadata.generation_id > 0
        producer.send_offsets_to_transaction(positions, metadata)
        if not aborted_once and done > 0:
            # A failed attempt: abort, then go back to what the group committed.
            aborted_once = True
            # Flushed first so that the attempt's records reach the log (an abort drops the batches not yet sent).
            producer.flush()
            producer.abort_transaction()
            for tp in positions:
                committed = consumer.committed({tp}).get(tp)
                consumer.seek(tp, committed.offset if committed is not None else 0)
            return False
        producer.commit_transaction()
        done += records.count()
        return done == len(inputs)

    wait_until_true(step, "every input record processed", timeout=120, pause=0)
    assert aborted_once
    offsets.wait_stable(sink, partitions=2)
    outputs = read_values(broker.bootstrap, sink, partitions=2)
    assert sorted(outputs) == sorted(f"out-{v}" for v in inputs)
    # The aborted attempt's records are in the log, never read.
    assert len(read_values(broker.bootstrap, sink, partitions=2, isolation="read_uncommitted")) > len(inputs)
    checker = make_consumer(group_id=group)
    committed = checker.committed({TopicPartition(source, 0), TopicPartition(source, 1)})
    assert {tp.partition: om.offset for tp, om in committed.items() if om is not None} == {0: 30, 1: 30}


def test_second_producer_fences_the_first(broker: BrokerProcess, offsets: Offsets, clients: Any) -> None:
    """A second producer with the same transactional.id fences the first: the first's open transaction is aborted
    (never read) and its commit fails with ProducerFencedException, as every transactional call after it."""
    make_producer, _ = clients
    topic = "our-fencing"
    create_topic(broker.bootstrap, topic)
    transactional_id = f"our-fenced-{uuid.uuid4()}"
    first = _txn_producer(make_producer, transactional_id)
    first.begin_transaction()
    _send(first, topic, ["zombie"])
    second = _txn_producer(make_producer, transactional_id)
    with pytest.raises(ProducerFencedException):
        first.commit_transaction()
    with pytest.raises(ProducerFencedException):
        first.begin_transaction()
    second.begin_transaction()
    _send(second, topic, ["live"])
    second.commit_transaction()
    offsets.wait_stable(topic)
    assert read_values(broker.bootstrap, topic) == ["live"]


def test_perf_tool_with_transactions(broker: BrokerProcess, offsets: Offsets) -> None:
    """kafka-producer-perf-test's --transactional-id and --transaction-duration-ms: every record sent is committed
    (read_committed reads them all) and the tool prints its totals."""
    topic = "our-perf-txn"
    create_topic(broker.bootstrap, topic)
    out, err = io.StringIO(), io.StringIO()
    status = ProducerPerformance(out, err).start(
        [
            "--topic",
            topic,
            "--num-records",
            "300",
            "--record-size",
            "50",
            # At most 1,000 records/s: the 300 records take at least 300 ms, several 50 ms transactions.
            "--throughput",
            "1000",
            "--transactional-id",
            f"perf-{uuid.uuid4()}",
            "--transaction-duration-ms",
            "50",
            "--producer-props",
            f"bootstrap.servers={broker.bootstrap}",
            "max.block.ms=90000",
        ]
    )
    assert status == 0, err.getvalue()
    assert "300 records sent" in out.getvalue()
    offsets.wait_stable(topic)
    assert len(read_values(broker.bootstrap, topic)) == 300
    # Several transactions, each with its commit marker.
    assert offsets.high_watermark(topic) >= 303
