"""Benchmarks of the partition log: appends as leader, and recovery after an unclean shutdown.

- `test_log_append_as_leader_1mb` against `test_raw_file_write_1mb`: a 1 MB batch (1024 records of
  ~1 KB, uncompressed) appended through Log.append_as_leader (CRC check, validation, offset
  assignment in place, producer state, segment write and index) versus os.pwrite of the same bytes.
  One round moves 1 MB, so ops/s reads as MB/s; the ratio is what the log layer costs.
- `test_log_recovery_after_unclean_shutdown`: opening a log of RECOVERY_MB megabytes (default 256,
  env KAFKA_BENCH_RECOVERY_MB) of 16 KB idempotent batches (the producer's default batch size) with
  no clean shutdown marker and recovery point 0, so every segment is re-read: each batch's CRC is
  checked, the indexes are rebuilt and the producer state is replayed. The time scales linearly with
  the size; the README extrapolates it to 1 GB.

Run with `pytest tests/bench/test_log_bench.py --benchmark-enable`.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.utils.time import MockTime
from kafka.log.log import Log
from kafka.log.log_config import LogConfig
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.utils.kafka_scheduler import KafkaScheduler, Scheduler
from kafka.utils.mock_scheduler import MockScheduler

ONE_MB = 1024 * 1024
# Start over once this much was written, so that a long run does not fill the disk.
MAX_LOG_BYTES = 128 * ONE_MB
RECOVERY_MB = int(os.environ.get("KAFKA_BENCH_RECOVERY_MB", "256"))
START_MS = 1_700_000_000_000


def _batch(records: int, value_size: int, producer_id: int = -1) -> MemoryRecords:
    builder = MemoryRecordsBuilder(
        compression_type=CompressionType.NONE,
        base_offset=0,
        partition_leader_epoch=0,
        producer_id=producer_id,
        producer_epoch=0 if producer_id >= 0 else -1,
        base_sequence=0 if producer_id >= 0 else -1,
    )
    for i in range(records):
        builder.append(START_MS + i, b"key-%d" % i, os.urandom(value_size))
    return MemoryRecords.readable_records(bytearray(builder.build().buffer()))


def _open_log(dir: Path, config: LogConfig, clean: bool = True, scheduler: Scheduler | None = None) -> Log:
    time = MockTime(start_ms=START_MS)
    return Log.apply(
        dir,
        config,
        0,
        0,
        scheduler if scheduler is not None else MockScheduler(time),
        time,
        60 * 60 * 1000,
        10 * 60 * 1000,
        LogDirFailureChannel(1),
        clean,
    )


@pytest.fixture(scope="module")
def records_1mb() -> MemoryRecords:
    """An uncompressed v2 batch of 1024 records of ~1 KB."""
    records = _batch(1024, 1010)
    assert records.size_in_bytes() >= ONE_MB
    return records


@pytest.fixture
def leader_log(tmp_path: Path) -> Iterator[Log]:
    """A log on a real KafkaScheduler, so that the flush of a rolled segment runs in the background as in a broker."""
    config = LogConfig({"segment.bytes": 64 * ONE_MB, "max.message.bytes": 2 * ONE_MB, "file.delete.delay.ms": 0})
    scheduler = KafkaScheduler(1)
    scheduler.startup()
    log = _open_log(tmp_path / "bench-0", config, scheduler=scheduler)
    try:
        yield log
    finally:
        scheduler.shutdown()
        log.close()


def test_log_append_as_leader_1mb(benchmark: Any, leader_log: Log, records_1mb: MemoryRecords) -> None:
    """Log.append_as_leader of a 1 MB batch (one round = 1 MB)."""
    buffer = records_1mb.buffer()

    def append() -> None:
        # A produce request carries base offset 0; the previous append patched it in place.
        struct.pack_into(">q", buffer, 0, 0)
        leader_log.append_as_leader(records_1mb, 0)
        if leader_log.size > MAX_LOG_BYTES:
            leader_log.truncate_fully_and_start_at(leader_log.log_end_offset)

    benchmark(append)
    assert leader_log.log_end_offset >= 1024


def test_raw_file_write_1mb(benchmark: Any, tmp_path: Path, records_1mb: MemoryRecords) -> None:
    """os.pwrite of the same 1 MB at the end of a file (one round = 1 MB): the floor for the log."""
    fd = os.open(tmp_path / "raw.log", os.O_RDWR | os.O_CREAT, 0o644)
    view = records_1mb.buffer()
    position = [0]

    def write() -> None:
        written = 0
        while written < len(view):
            written += os.pwrite(fd, view[written:], position[0] + written)
        position[0] += written
        if position[0] > MAX_LOG_BYTES:
            os.ftruncate(fd, 0)
            position[0] = 0

    try:
        benchmark(write)
    finally:
        os.close(fd)


@pytest.fixture(scope="module")
def unclean_log_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, LogConfig, int]]:
    """RECOVERY_MB of 16 KB idempotent batches written through follower appends, left without a clean shutdown."""
    config = LogConfig({"segment.bytes": 64 * ONE_MB, "file.delete.delay.ms": 0})
    dir = tmp_path_factory.mktemp("recovery") / "recovery-0"
    log = _open_log(dir, config)
    batch = _batch(16, 1000, producer_id=4242)
    buffer = batch.buffer()
    batches = RECOVERY_MB * ONE_MB // batch.size_in_bytes()
    for i in range(batches):
        # Replicated batches keep their offsets: the base offset (outside the CRC) moves on by 16.
        struct.pack_into(">q", buffer, 0, i * 16)
        log.append_as_follower(batch)
    log.flush()
    end_offset = log.log_end_offset
    # A crash: files closed without the final producer snapshot, and no clean shutdown marker.
    for segment in log.log_segments():
        segment.close_handlers()
    for snapshot in dir.glob("*.snapshot"):
        snapshot.unlink()
    yield dir, config, end_offset


def test_log_recovery_after_unclean_shutdown(benchmark: Any, unclean_log_dir: tuple[Path, LogConfig, int]) -> None:
    """Open a RECOVERY_MB log after an unclean shutdown: every segment is recovered from offset 0."""
    dir, config, end_offset = unclean_log_dir
    opened: list[Log] = []

    def recover() -> None:
        log = _open_log(dir, config, clean=False)
        opened.append(log)

    def reset() -> tuple[tuple[Any, ...], dict[str, Any]]:
        # Each round starts from the crashed state again: no snapshots, files not closed cleanly.
        while opened:
            log = opened.pop()
            for segment in log.log_segments():
                segment.close_handlers()
        for snapshot in dir.glob("*.snapshot"):
            snapshot.unlink()
        return (), {}

    benchmark.pedantic(recover, setup=reset, rounds=3, iterations=1)
    log = opened[-1]
    try:
        assert log.log_end_offset == end_offset
        assert log.active_producers_with_last_sequence() == {4242: 15}
        benchmark.extra_info["recovered_mb"] = round(log.size / ONE_MB, 1)
    finally:
        log.close()
