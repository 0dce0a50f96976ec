"""Benchmarks of the generated message codecs on the produce and fetch paths.

Run with `make bench` (pytest-benchmark). Under `make test` they run once each as plain tests, which also
checks that what they measure is right.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from kafka.common.message import FetchResponseData, ProduceRequestData
from kafka.common.protocol import types as t
from kafka.common.protocol.message import ByteBufferAccessor

ONE_MB = 1024 * 1024


def _produce_request(records: bytes) -> ProduceRequestData:
    partition = ProduceRequestData.PartitionProduceData(index=0, records=records)
    topic = ProduceRequestData.TopicProduceData(name="bench-topic", partition_data=[partition])
    return ProduceRequestData(
        acks=-1, timeout_ms=30000, topic_data=ProduceRequestData.TopicProduceDataCollection([topic])
    )


def _fetch_response(partitions: int, records_per_partition: int) -> FetchResponseData:
    parts = [
        FetchResponseData.PartitionData(
            partition_index=i,
            high_watermark=1000 + i,
            last_stable_offset=1000 + i,
            log_start_offset=0,
            records=os.urandom(records_per_partition),
        )
        for i in range(partitions)
    ]
    topic = FetchResponseData.FetchableTopicResponse(topic="bench-topic", partitions=parts)
    return FetchResponseData(throttle_time_ms=0, error_code=0, session_id=7, responses=[topic])


@pytest.fixture(scope="module")
def produce_v9_frame() -> bytes:
    return _produce_request(os.urandom(ONE_MB)).write(9)


def test_produce_v9_1mb_decode_encode(benchmark: Any, produce_v9_frame: bytes) -> None:
    """Decode and re-encode a ProduceRequest v9 carrying a 1 MB batch; records are not copied on decode."""

    def run() -> int:
        req = ProduceRequestData().read(produce_v9_frame, 9)
        return len(req.write(9))

    assert benchmark(run) == len(produce_v9_frame)


def test_produce_v9_1mb_decode_only(benchmark: Any, produce_v9_frame: bytes) -> None:
    """Decode only (what a broker does per request): cost must not grow with the batch size."""

    def run() -> int:
        req = ProduceRequestData().read(produce_v9_frame, 9)
        return int(req.topic_data[0].partition_data[0].records.size_in_bytes())

    assert benchmark(run) == ONE_MB


def _hand_decode_produce_v9(buf: memoryview) -> list[tuple[str, int, memoryview]]:
    """A hand-written ProduceRequest v9 decoder, the baseline the generated one is compared with."""
    pos = 0
    _, pos = t.read_compact_nullable_string(buf, pos)
    pos += 6  # acks, timeout
    n_topics, pos = t.read_unsigned_varint(buf, pos)
    out = []
    for _ in range(n_topics - 1):
        name, pos = t.read_compact_string(buf, pos)
        n_parts, pos = t.read_unsigned_varint(buf, pos)
        for _ in range(n_parts - 1):
            (index,) = t.INT32.unpack_from(buf, pos)
            pos += 4
            size, pos = t.read_unsigned_varint(buf, pos)
            out.append((name, index, buf[pos : pos + size - 1]))
            pos += size - 1
            pos += 1  # empty tagged fields
        pos += 1
    return out


def test_produce_v9_hand_written_decoder(benchmark: Any, produce_v9_frame: bytes) -> None:
    """The hand-written baseline for test_produce_v9_1mb_decode_only: same result, for comparing speed."""
    mv = memoryview(produce_v9_frame)
    result = benchmark(_hand_decode_produce_v9, mv)
    assert [(n, i, len(r)) for n, i, r in result] == [("bench-topic", 0, ONE_MB)]


@pytest.fixture(scope="module")
def fetch_v12() -> FetchResponseData:
    return _fetch_response(50, 16 * 1024)


def test_fetch_v12_50_partitions_encode(benchmark: Any, fetch_v12: FetchResponseData) -> None:
    """Encode a FetchResponse v12 with 50 partitions of 16 KB each (records stay zero-copy parts)."""
    size = benchmark(fetch_v12.size, 12)
    assert size == len(fetch_v12.write(12))


def test_fetch_v12_50_partitions_decode_encode(benchmark: Any, fetch_v12: FetchResponseData) -> None:
    """Decode and re-encode a FetchResponse v12 with 50 partitions (what a client library does)."""
    raw = fetch_v12.write(12)

    def run() -> int:
        acc = ByteBufferAccessor(raw)
        resp = FetchResponseData().read(acc, 12)
        return len(resp.write(12))

    assert benchmark(run) == len(raw)
