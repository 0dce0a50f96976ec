"""Record batches written by librdkafka (confluent-kafka) with each codec decode with our record layer, and
batches our MemoryRecordsBuilder writes with each codec and magic are read by librdkafka."""

from __future__ import annotations

import time
from collections.abc import Iterator

import confluent_kafka
import pytest

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from tests.integration.record_peer import RecordPeer

pytestmark = pytest.mark.integration

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
TOPIC = "records"


@pytest.fixture
def peer() -> Iterator[RecordPeer]:
    p = RecordPeer(TOPIC)
    yield p
    p.close()


@pytest.mark.parametrize("codec", CODECS)
def test_librdkafka_batches_decode(peer: RecordPeer, codec: str) -> None:
    """What librdkafka produces with a codec is a valid batch of that codec holding exactly what was sent."""
    producer = confluent_kafka.Producer(
        {
            "bootstrap.servers": peer.bootstrap,
            "compression.type": codec,
            "linger.ms": 50,
            "acks": "all",
            "enable.idempotence": False,
        }
    )
    sent = []
    base_ts = 1_700_000_000_000
    for i in range(25):
        key = None if i % 5 == 0 else f"key-{i}".encode()
        # Compressible on purpose: librdkafka sends a batch uncompressed when the codec would not shrink it.
        value = (f"value-{i}-" * 40).encode()
        headers: list[tuple[str, str | bytes | None]] = [("h", f"{i}".encode()), ("empty", None)] if i % 2 else []
        producer.produce(TOPIC, key=key, value=value, headers=headers, partition=0, timestamp=base_ts + i)
        sent.append((key, value, [(k, v) for k, v in headers], base_ts + i))
    assert producer.flush(20) == 0

    got = []
    for raw in peer.produced:
        for batch in MemoryRecords.readable_records(raw).batches():
            batch.ensure_valid()
            assert batch.magic() == 2
            assert batch.compression_type() is CompressionType.for_name(codec)
            for r in batch:
                headers = [(h.key(), h.value()) for h in r.headers()]
                got.append((r.key(), r.value(), headers, r.timestamp()))
    assert got == sent


def _consume(bootstrap: str, expected: int) -> list[tuple[bytes | None, bytes | None, list, tuple, int | None]]:
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "unused",
            "enable.auto.commit": False,
            "fetch.wait.max.ms": 50,
            "api.version.request": True,
        }
    )
    consumer.assign([confluent_kafka.TopicPartition(TOPIC, 0, 0)])
    out: list[tuple[bytes | None, bytes | None, list, tuple, int | None]] = []
    deadline = time.monotonic() + 20
    try:
        while len(out) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            ts_type, ts = msg.timestamp()
            out.append(
                (msg.key(), msg.value(), list(msg.headers() or []), (ts_type, ts if ts_type else None), msg.offset())
            )
    finally:
        consumer.close()
    return out


@pytest.mark.parametrize(("codec", "magic"), [(c, 2) for c in CODECS] + [(c, m) for c in CODECS[:4] for m in (0, 1)])
def test_our_batches_are_read_by_librdkafka(peer: RecordPeer, codec: str, magic: int) -> None:
    """A batch we build with a codec and magic is read back by librdkafka with keys, values, headers, offsets."""
    records = []
    expected = []
    for i in range(12):
        key = None if i == 3 else f"k{i}".encode()
        value = None if i == 7 else f"v{i}".encode() * 20
        headers = [RecordHeader("hk", f"hv{i}".encode())] if (magic == 2 and i % 2) else []
        ts = 1_600_000_000_000 + i
        records.append(SimpleRecord(ts, key, value, headers))
        expected.append(
            # librdkafka reports magic-0 timestamps as not available (type 0).
            (key, value, [(h.key(), h.value()) for h in headers], (1, ts) if magic > 0 else (0, None), 100 + i)
        )
    built = MemoryRecords.with_records(
        CompressionType.for_name(codec),
        *records,
        magic=magic,
        initial_offset=100,
        timestamp_type=TimestampType.CREATE_TIME if magic > 0 else TimestampType.NO_TIMESTAMP_TYPE,
    )
    peer.next_offset = 100
    peer.serve(bytes(built.buffer()), len(records))
    got = _consume(peer.bootstrap, len(records))
    assert got == expected
