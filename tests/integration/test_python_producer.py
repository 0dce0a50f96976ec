"""Our KafkaProducer (kafka.clients.producer) against our broker started with bin/kafka-server-start.sh, and against
Tansu (another Kafka-protocol broker): keyed records in order with dense offsets, every codec, the idempotent
producer writing each record once, headers and null keys/values, record size limits, flush and close, and a
partition choice equal to librdkafka's murmur2_random. Records are read back with confluent-kafka."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import KafkaException, RecordTooLargeException
from kafka.common.record.file_records import FileRecords
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from kafka.common.serialization.string_serializer import StringSerializer
from kafka.common.utils.utils import murmur2
from tests.integration.broker import BrokerProcess

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("broker"))
    b = BrokerProcess(work, zookeeper.connect_string + "/py-producer-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _create_topic(bootstrap: str, name: str, partitions: int = 1, config: dict[str, str] | None = None) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    futures = admin.create_topics([NewTopic(name, partitions, 1, config=config or {})], operation_timeout=30)
    futures[name].result(30)


def _consume(bootstrap: str, topic: str, partitions: list[int], expected: int, timeout: float = 60) -> list[Any]:
    consumer = ck.Consumer(
        {"bootstrap.servers": bootstrap, "group.id": "unused", "enable.auto.commit": False, "fetch.wait.max.ms": 100}
    )
    consumer.assign([ck.TopicPartition(topic, p, 0) for p in partitions])
    out: list[Any] = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            out.append(msg)
        # Anything beyond the expected count would be a duplicate.
        end = time.monotonic() + 1
        while time.monotonic() < end:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                out.append(msg)
    finally:
        consumer.close()
    return out


def _producer(bootstrap: str, **settings: Any) -> KafkaProducer[str, str]:
    configs: dict[str, Any] = {"bootstrap.servers": bootstrap}
    configs.update({k.replace("_", "."): v for k, v in settings.items()})
    return KafkaProducer(configs, StringSerializer(), StringSerializer())


def test_keyed_records_in_order_with_dense_offsets(broker: BrokerProcess) -> None:
    """3,000 keyed records (acks=all) land on murmur2(key) partitions, in send order, with dense offsets."""
    topic = "py-ordered"
    _create_topic(broker.bootstrap, topic, 3)
    with _producer(broker.bootstrap, acks="all", linger_ms=5) as producer:
        futures = [producer.send(ProducerRecord(topic, f"value-{i}", key=f"key-{i % 50}")) for i in range(3000)]
        producer.flush()
        metadata = [f.get(0) for f in futures]
    for i, md in enumerate(metadata):
        assert md.partition == (murmur2(f"key-{i % 50}".encode()) & 0x7FFFFFFF) % 3
    by_partition: dict[int, list[int]] = {}
    for md in metadata:
        by_partition.setdefault(md.partition, []).append(md.offset)
    for offsets in by_partition.values():
        assert offsets == list(range(len(offsets))), "offsets are dense and in send order"
    records = _consume(broker.bootstrap, topic, [0, 1, 2], 3000)
    assert len(records) == 3000
    for p in range(3):
        values = [int(m.value().decode().split("-")[1]) for m in records if m.partition() == p]
        assert values == sorted(values)
        assert [m.offset() for m in records if m.partition() == p] == list(range(len(values)))


@pytest.mark.parametrize("codec", ["none", "gzip", "snappy", "lz4", "zstd"])
def test_every_codec(broker: BrokerProcess, codec: str) -> None:
    """Batches compressed with each codec are accepted by the broker and read back intact by librdkafka."""
    topic = f"py-codec-{codec}"
    _create_topic(broker.bootstrap, topic, 1)
    values = [f"{codec}-{i}-" + "x" * (i % 300) for i in range(500)]
    with _producer(broker.bootstrap, compression_type=codec, linger_ms=20) as producer:
        futures = [producer.send(ProducerRecord(topic, v, key=str(i))) for i, v in enumerate(values)]
        producer.flush()
        assert [f.get(0).offset for f in futures] == list(range(500))
    records = _consume(broker.bootstrap, topic, [0], 500)
    assert [m.value().decode() for m in records] == values


def test_idempotent_producer_writes_each_record_once(broker: BrokerProcess) -> None:
    """The default (idempotent) producer gets a producer id and writes batches with consecutive sequences."""
    topic = "py-idempotent"
    _create_topic(broker.bootstrap, topic, 1)
    with _producer(broker.bootstrap, batch_size=2000, linger_ms=2) as producer:
        futures = [producer.send(ProducerRecord(topic, f"v{i}")) for i in range(2000)]
        producer.flush()
        assert [f.get(0).offset for f in futures] == list(range(2000))
    records = _consume(broker.bootstrap, topic, [0], 2000)
    assert [m.value().decode() for m in records] == [f"v{i}" for i in range(2000)]
    # The log itself shows one producer id and gap-free sequences.
    segment = broker.log_dir / f"{topic}-0" / "00000000000000000000.log"
    batches = list(FileRecords.open(segment).batches())
    assert len(batches) > 1
    assert {b.producer_id() for b in batches} != {-1}
    assert len({b.producer_id() for b in batches}) == 1
    expected_sequence = 0
    for batch in batches:
        assert batch.base_sequence() == expected_sequence
        expected_sequence = batch.last_sequence() + 1
    assert expected_sequence == 2000


def test_headers_null_key_and_null_value(broker: BrokerProcess) -> None:
    """Headers, a null key and a null value (tombstone) reach the log as sent."""
    topic = "py-headers"
    _create_topic(broker.bootstrap, topic, 1)
    producer: KafkaProducer[bytes, bytes] = KafkaProducer(
        {"bootstrap.servers": broker.bootstrap}, ByteArraySerializer(), ByteArraySerializer()
    )
    with producer:
        producer.send(ProducerRecord(topic, b"v1", key=None, headers=[("h1", b"a"), ("h2", None), ("h1", b"b")])).get()
        producer.send(ProducerRecord(topic, None, key=b"k2")).get()
        producer.send(ProducerRecord(topic, b"", key=b"", timestamp=1234567)).get()
    records = _consume(broker.bootstrap, topic, [0], 3)
    assert records[0].key() is None and records[0].value() == b"v1"
    assert records[0].headers() == [("h1", b"a"), ("h2", None), ("h1", b"b")]
    assert records[1].key() == b"k2" and records[1].value() is None
    assert records[2].key() == b"" and records[2].value() == b""
    assert records[2].timestamp() == (ck.TIMESTAMP_CREATE_TIME, 1234567)


def test_record_of_3mb_is_refused(broker: BrokerProcess) -> None:
    """A 3 MB record fails with RecordTooLargeException: in the client at max.request.size, and from the broker's
    MESSAGE_TOO_LARGE (message.max.bytes) when the client allows it."""
    topic = "py-large"
    _create_topic(broker.bootstrap, topic, 1)
    big = "x" * (3 * 1024 * 1024)
    with _producer(broker.bootstrap) as producer:
        with pytest.raises(RecordTooLargeException, match=re.escape("max.request.size")):
            producer.send(ProducerRecord(topic, big)).get()
    with _producer(broker.bootstrap, max_request_size=8 * 1024 * 1024, buffer_memory=16 * 1024 * 1024) as producer:
        with pytest.raises(RecordTooLargeException):
            producer.send(ProducerRecord(topic, big)).get()
        # The producer goes on working after the refusal.
        assert producer.send(ProducerRecord(topic, "small")).get().offset == 0


def test_flush_and_close(broker: BrokerProcess) -> None:
    """flush() sends lingering records at once; close() sends what is left and stops the I/O thread."""
    topic = "py-flush"
    _create_topic(broker.bootstrap, topic, 2)
    producer = _producer(broker.bootstrap, linger_ms=60_000)
    futures = [producer.send(ProducerRecord(topic, f"a{i}", partition=i % 2)) for i in range(10)]
    producer.flush()
    assert all(f.is_done() for f in futures)
    callbacks: list[RecordMetadata | None] = []
    later = [
        producer.send(ProducerRecord(topic, f"b{i}", partition=0), lambda md, e: callbacks.append(md)) for i in range(5)
    ]
    assert not any(f.is_done() for f in later)
    producer.close()
    assert [f.get(0).offset for f in later] == list(range(5, 10))
    assert [md.offset for md in callbacks if md is not None] == list(range(5, 10))
    assert not any(t.name == f"kafka-producer-network-thread | {producer.client_id}" for t in threading.enumerate())
    with pytest.raises(RuntimeError):
        producer.send(ProducerRecord(topic, "after close"))


def test_unknown_topic_is_created_by_auto_creation(broker: BrokerProcess) -> None:
    """Sending to a topic that does not exist yet waits for the broker's auto-creation, as Java's producer does."""
    with _producer(broker.bootstrap) as producer:
        assert producer.send(ProducerRecord("py-auto-created", "v")).get().offset == 0
        assert len(producer.partitions_for("py-auto-created")) == 1


def test_partition_choice_equals_librdkafka_murmur2_random(broker: BrokerProcess) -> None:
    """For 10,000 keys on a 7-partition topic, our producer picks the partition librdkafka picks with
    partitioner=murmur2_random (Java's default hash)."""
    topic = "py-murmur2"
    _create_topic(broker.bootstrap, topic, 7)
    keys = [f"key-{i}".encode() for i in range(9_990)] + [b"", b"\x00", b"\xff\xfe", bytes(range(256)), b"a" * 1000]
    keys += [f"{i}".encode() for i in range(5)]
    theirs: dict[bytes, int] = {}

    def report(err: Any, msg: Any) -> None:
        assert err is None, err
        theirs[msg.key()] = msg.partition()

    librdkafka = ck.Producer({"bootstrap.servers": broker.bootstrap, "partitioner": "murmur2_random", "linger.ms": 50})
    for key in keys:
        librdkafka.produce(topic, value=b"c", key=key, on_delivery=report)
        librdkafka.poll(0)
    assert librdkafka.flush(60) == 0
    producer: KafkaProducer[bytes, bytes] = KafkaProducer(
        {"bootstrap.servers": broker.bootstrap, "linger.ms": 50}, ByteArraySerializer(), ByteArraySerializer()
    )
    with producer:
        futures = [(key, producer.send(ProducerRecord(topic, b"p", key=key))) for key in keys]
        producer.flush()
        ours = {key: f.get(0).partition for key, f in futures}
    assert len(theirs) == len(keys) == 10_000
    assert ours == theirs
    assert len(set(ours.values())) == 7


# ---- another broker --------------------------------------------------------------------------------------------


def test_produce_to_tansu(tansu: Any) -> None:
    """Our producer works against Tansu too: keyed records with gzip and idempotence, read back by librdkafka."""
    topic = "py-tansu"
    _create_topic(tansu.bootstrap, topic, 3)
    with _producer(tansu.bootstrap, compression_type="gzip", linger_ms=5) as producer:
        futures = [producer.send(ProducerRecord(topic, f"v{i}", key=f"k{i % 7}")) for i in range(600)]
        producer.flush()
        metadata = [f.get(0) for f in futures]
    for i, md in enumerate(metadata):
        assert md.partition == (murmur2(f"k{i % 7}".encode()) & 0x7FFFFFFF) % 3
    records = _consume(tansu.bootstrap, topic, [0, 1, 2], 600)
    assert sorted(m.value().decode() for m in records) == sorted(f"v{i}" for i in range(600))
    for p in range(3):
        values = [int(m.value().decode()[1:]) for m in records if m.partition() == p]
        assert values == sorted(values)


def test_closing_a_producer_that_never_connected_returns(tmp_path: Path) -> None:
    """A producer whose bootstrap server is down still closes promptly, failing its pending records."""
    producer = _producer("127.0.0.1:1", max_block_ms=200)
    future = producer.send(ProducerRecord("t", "v"))
    with pytest.raises(KafkaException):
        future.get()
    producer.close(0)
