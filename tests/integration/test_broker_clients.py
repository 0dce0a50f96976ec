"""A broker started with bin/kafka-server-start.sh serves real clients: confluent-kafka (new librdkafka) and
Debian's kcat (librdkafka 2.0.2), for metadata, topic admin, produce and fetch with every codec, idempotence,
watermarks and offsets by time, and refuses what Kafka refuses."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.broker import BrokerProcess
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def broker(zookeeper, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:  # type: ignore[no-untyped-def]
    work = Path(tmp_path_factory.mktemp("broker"))
    b = BrokerProcess(work, zookeeper.connect_string + "/clients-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _admin(broker: BrokerProcess) -> AdminClient:
    return AdminClient({"bootstrap.servers": broker.bootstrap})


def _create_topic(broker: BrokerProcess, name: str, partitions: int = 1, config: dict[str, str] | None = None) -> None:
    admin = _admin(broker)  # kept alive until the future completes
    futures = admin.create_topics([NewTopic(name, partitions, 1, config=config or {})], operation_timeout=30)
    futures[name].result(30)


def _consume(broker: BrokerProcess, topic: str, partitions: list[int], expected: int, timeout: float = 30) -> list:
    consumer = ck.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": "unused",
            "enable.auto.commit": False,
            "fetch.wait.max.ms": 100,
        }
    )
    consumer.assign([ck.TopicPartition(topic, p, 0) for p in partitions])
    out: list[ck.Message] = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            out.append(msg)
    finally:
        consumer.close()
    return out


def test_kcat_lists_metadata(broker: BrokerProcess) -> None:
    """Debian's kcat (librdkafka 2.0.2) connects and lists the broker, as `kcat -L` does against Kafka."""
    kcat = shutil.which("kcat")
    assert kcat is not None, "make install puts Debian's kcat on the machine"
    out = subprocess.run([kcat, "-b", broker.bootstrap, "-L", "-J"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    meta = json.loads(out.stdout)
    assert [b["id"] for b in meta["brokers"]] == [0]
    assert meta["brokers"][0]["name"] == broker.bootstrap


def test_create_produce_consume_in_order(broker: BrokerProcess) -> None:
    """A 3-partition topic takes 3,000 keyed records with acks=all and gives them back in order, offsets dense."""
    _create_topic(broker, "ordered", 3)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 5})
    sent: dict[int, list[bytes]] = {0: [], 1: [], 2: []}
    delivered = []
    for i in range(3000):
        p = i % 3
        value = f"value-{i}".encode()
        sent[p].append(value)
        producer.produce(
            "ordered",
            key=f"k{i}".encode(),
            value=value,
            partition=p,
            on_delivery=lambda err, msg: delivered.append((err, msg.partition(), msg.offset())),
        )
    assert producer.flush(30) == 0
    assert all(err is None for err, _, _ in delivered)
    msgs = _consume(broker, "ordered", [0, 1, 2], 3000)
    got: dict[int, list[tuple[int, bytes]]] = {0: [], 1: [], 2: []}
    for m in msgs:
        got[m.partition()].append((m.offset(), m.value()))
    for p in range(3):
        assert [o for o, _ in got[p]] == list(range(1000)), "offsets are dense from 0"
        assert [v for _, v in got[p]] == sent[p], "records come back in the order produced"


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_each_codec_round_trips(broker: BrokerProcess, codec: str) -> None:
    """Records compressed with each codec are stored compressed with it (librdkafka compresses lz4 only for a
    broker that serves FindCoordinator) and fetched back intact."""
    from kafka.common.record.file_records import FileRecords

    topic = f"codec-{codec}"
    _create_topic(broker, topic)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "compression.type": codec, "linger.ms": 20})
    values = [(f"{codec}-{i}-" * 30).encode() for i in range(200)]
    for v in values:
        producer.produce(topic, value=v, partition=0)
    assert producer.flush(30) == 0
    assert [m.value() for m in _consume(broker, topic, [0], len(values))] == values
    segment = FileRecords.open(broker.log_dir / f"{topic}-0" / "00000000000000000000.log", mutable=False)
    try:
        assert {batch.compression_type().name for batch in segment.batches()} == {codec}
    finally:
        segment.close()


@pytest.mark.parametrize("fallback", ["0.9.0", "0.10.0.0"])
def test_old_fetch_versions_read_down_converted_records(broker: BrokerProcess, fallback: str) -> None:
    """librdkafka speaking an old protocol (no ApiVersions; Fetch v0/v1 at 0.9.0, v2 at 0.10.0) reads records
    stored as v2 batches, down-converted to message format 0 or 1, with keys, values and offsets intact."""
    topic = f"old-fetch-{fallback.replace('.', '-')}"
    _create_topic(broker, topic)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
    sent = [(f"k{i}".encode(), f"v{i}".encode()) for i in range(50)]
    for key, value in sent:
        producer.produce(topic, key=key, value=value, partition=0)
    assert producer.flush(30) == 0
    consumer = ck.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": "unused",
            "enable.auto.commit": False,
            "api.version.request": False,
            "broker.version.fallback": fallback,
        }
    )
    consumer.assign([ck.TopicPartition(topic, 0, 0)])
    got: list = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < len(sent) and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None:
                assert msg.error() is None, msg.error()
                got.append(msg)
    finally:
        consumer.close()
    assert [(m.key(), m.value()) for m in got] == sent
    assert [m.offset() for m in got] == list(range(len(sent)))


def test_idempotent_producer_exactly_once(broker: BrokerProcess) -> None:
    """An idempotent producer's 2,000 records are stored exactly once, in order."""
    _create_topic(broker, "idempotent")
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "enable.idempotence": True, "linger.ms": 2})
    values = [f"idem-{i}".encode() for i in range(2000)]
    for v in values:
        producer.produce("idempotent", value=v, partition=0)
    assert producer.flush(30) == 0
    got = _consume(broker, "idempotent", [0], 2000)
    assert [m.value() for m in got] == values
    assert [m.offset() for m in got] == list(range(2000))


def test_headers_nulls_and_large_record(broker: BrokerProcess) -> None:
    """Headers, null keys, null and empty values and a 900 KB record come back as sent."""
    _create_topic(broker, "shapes")
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "message.max.bytes": 2_000_000})
    big = bytes(range(256)) * (900 * 1024 // 256)
    cases: list[tuple[bytes | None, bytes | None, list[tuple[str, str | bytes | None]]]] = [
        (None, b"no key", [("h1", b"v1"), ("h2", None)]),
        (b"k", None, []),
        (b"k2", b"", [("empty", b"")]),
        (b"big", big, []),
    ]
    for key, value, headers in cases:
        producer.produce("shapes", key=key, value=value, headers=headers, partition=0)
    assert producer.flush(30) == 0
    got = _consume(broker, "shapes", [0], len(cases))
    assert [(m.key(), m.value(), m.headers() or []) for m in got] == [(k, v, h) for k, v, h in cases]


def test_watermarks_and_offsets_for_times(broker: BrokerProcess) -> None:
    """Low/high watermarks are 0 and the log end; offsets_for_times finds the first record at or after a time."""
    _create_topic(broker, "times")
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap})
    base = 1_700_000_000_000
    for i in range(10):
        producer.produce("times", value=b"x", partition=0, timestamp=base + i * 1000)
    assert producer.flush(30) == 0
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "unused", "enable.auto.commit": False})
    try:
        assert consumer.get_watermark_offsets(ck.TopicPartition("times", 0), timeout=10) == (0, 10)
        found = consumer.offsets_for_times([ck.TopicPartition("times", 0, base + 4500)], timeout=10)
        assert found[0].offset == 5
        beyond = consumer.offsets_for_times([ck.TopicPartition("times", 0, base + 99_000)], timeout=10)
        assert beyond[0].offset == -1
    finally:
        consumer.close()


def test_too_large_record_is_refused(broker: BrokerProcess) -> None:
    """A 3 MB record is refused with MSG_SIZE_TOO_LARGE (message.max.bytes defaults to about 1 MB)."""
    _create_topic(broker, "large")
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "message.max.bytes": 10_000_000})
    errors = []
    producer.produce("large", value=b"x" * 3_000_000, partition=0, on_delivery=lambda err, msg: errors.append(err))
    producer.flush(30)
    assert len(errors) == 1 and errors[0] is not None
    assert errors[0].code() == ck.KafkaError.MSG_SIZE_TOO_LARGE


def test_kcat_produces_and_consumes_lines(broker: BrokerProcess) -> None:
    """kcat -P writes lines and kcat -C reads the same lines back."""
    kcat = shutil.which("kcat")
    assert kcat is not None
    _create_topic(broker, "lines")
    lines = [f"line {i}" for i in range(50)]
    produced = subprocess.run(
        [kcat, "-b", broker.bootstrap, "-P", "-t", "lines", "-p", "0"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert produced.returncode == 0, produced.stderr
    consumed = subprocess.run(
        [kcat, "-b", broker.bootstrap, "-C", "-t", "lines", "-p", "0", "-o", "beginning", "-c", "50", "-e"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert consumed.returncode == 0, consumed.stderr
    assert consumed.stdout.splitlines() == lines


def test_deleted_topic_disappears(broker: BrokerProcess) -> None:
    """A deleted topic is gone from metadata."""
    _create_topic(broker, "doomed")
    admin = _admin(broker)
    assert "doomed" in admin.list_topics(timeout=10).topics
    admin.delete_topics(["doomed"], operation_timeout=30)["doomed"].result(30)
    wait_until_true(lambda: "doomed" not in admin.list_topics(timeout=10).topics, "topic to disappear", 30)
