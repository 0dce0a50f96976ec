"""Benchmarks of the record layer's hot paths, each over about 1 MB so that ops/s reads as MB/s.

Compare `test_crc32c_validate_1mb` with `test_bytes_copy_1mb`: validating a batch should cost about
as much as copying it once. Run with `pytest tests/bench/test_record_bench.py --benchmark-enable`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder

ONE_MB = 1024 * 1024
RECORDS = 1024
# Values of ~1 KB: half random, half text, so that lz4 has something to do.
VALUES = [(os.urandom(500) + b"record payload %06d " % i * 25)[:1010] for i in range(RECORDS)]


def _build(codec: CompressionType) -> MemoryRecords:
    builder = MemoryRecordsBuilder(compression_type=codec, base_offset=0)
    for i, value in enumerate(VALUES):
        builder.append(1_700_000_000_000 + i, b"key-%d" % i, value)
    return builder.build()


@pytest.fixture(scope="module")
def batch_1mb() -> DefaultRecordBatch:
    """A writable ~1 MB uncompressed v2 batch."""
    records = _build(CompressionType.NONE)
    (batch,) = list(MemoryRecords.readable_records(bytearray(records.buffer())).batches())
    assert isinstance(batch, DefaultRecordBatch)
    assert batch.size_in_bytes() >= ONE_MB
    return batch


def _mb(benchmark: Any, size: int) -> None:
    benchmark.extra_info["bytes"] = size


def test_crc32c_validate_1mb(benchmark: Callable[..., Any], batch_1mb: DefaultRecordBatch) -> None:
    """ensure_valid (CRC32C in C over the whole batch) of a 1 MB batch."""
    _mb(benchmark, batch_1mb.size_in_bytes())
    benchmark(batch_1mb.ensure_valid)
    assert batch_1mb.is_valid()


def test_bytes_copy_1mb(benchmark: Callable[..., Any], batch_1mb: DefaultRecordBatch) -> None:
    """A plain bytes() copy of the same 1 MB, the yardstick for the CRC figure."""
    view = batch_1mb.buffer()
    _mb(benchmark, len(view))
    copied = benchmark(bytes, view)
    assert len(copied) == len(view)


def test_assign_offsets_and_epoch_1mb(benchmark: Callable[..., Any], batch_1mb: DefaultRecordBatch) -> None:
    """The broker's in-place patching of a 1 MB batch: last offset and leader epoch (no record decoding)."""

    def patch() -> None:
        batch_1mb.set_last_offset(5_000_000 + RECORDS - 1)
        batch_1mb.set_partition_leader_epoch(7)

    benchmark(patch)
    assert batch_1mb.base_offset() == 5_000_000
    batch_1mb.ensure_valid()


def test_build_1mb_uncompressed(benchmark: Callable[..., Any]) -> None:
    """MemoryRecordsBuilder appending 1024 records of ~1 KB, uncompressed."""
    records = benchmark(_build, CompressionType.NONE)
    _mb(benchmark, records.size_in_bytes())
    assert records.size_in_bytes() >= ONE_MB


def test_build_1mb_lz4(benchmark: Callable[..., Any]) -> None:
    """MemoryRecordsBuilder appending 1024 records of ~1 KB, lz4-compressed at close."""
    records = benchmark(_build, CompressionType.LZ4)
    _mb(benchmark, ONE_MB)
    (batch,) = list(records.batches())
    batch.ensure_valid()
    assert batch.compression_type() is CompressionType.LZ4 and records.size_in_bytes() < ONE_MB


def test_decode_records_1mb(benchmark: Callable[..., Any], batch_1mb: DefaultRecordBatch) -> None:
    """Decoding every record of a 1 MB batch (the path only compaction and conversion need)."""
    _mb(benchmark, batch_1mb.size_in_bytes())
    count = benchmark(lambda: sum(1 for _ in batch_1mb))
    assert count == RECORDS
