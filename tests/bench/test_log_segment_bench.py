"""Benchmarks of the segment hot paths, each moving 1 MB per round so that ops/s reads as MB/s.

Read them in pairs: `test_segment_append_1mb` against `test_raw_file_write_1mb` (the same bytes
written with os.pwrite), and `test_segment_read_sendfile_1mb` against `test_raw_sendfile_1mb` (the
same file range sent with os.sendfile). The ratio is what the segment layer costs on top of the
system calls. Run with `pytest tests/bench/test_log_segment_bench.py --benchmark-enable`.
"""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.file_records import FileRecords
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.utils.time import MockTime
from kafka.log.log_segment import LogSegment

ONE_MB = 1024 * 1024
RECORDS = 1024
# Start over once this much was written, so that a long run does not fill the disk.
MAX_FILE_BYTES = 128 * ONE_MB


@dataclass(frozen=True)
class SegConfig:
    """Kafka's defaults: segment.index.bytes 10 MiB, index.interval.bytes 4096."""

    max_index_size: int = 10 * ONE_MB
    index_interval: int = 4096
    random_segment_jitter: int = 0


@pytest.fixture(scope="module")
def records_1mb() -> MemoryRecords:
    """An uncompressed v2 batch of 1024 records of ~1 KB."""
    builder = MemoryRecordsBuilder(compression_type=CompressionType.NONE, base_offset=0)
    for i in range(RECORDS):
        builder.append(1_700_000_000_000 + i, b"key-%d" % i, os.urandom(1010))
    records = MemoryRecords.readable_records(bytearray(builder.build().buffer()))
    assert records.size_in_bytes() >= ONE_MB
    return records


def _set_base_offset(records: MemoryRecords, base_offset: int) -> None:
    """Patch the batch's base offset in place, as offset assignment does (the CRC does not cover it)."""
    struct.pack_into(">q", records.buffer(), 0, base_offset)


@pytest.fixture
def segment(tmp_path: Path) -> Iterator[LogSegment]:
    seg = LogSegment.open(tmp_path, 0, SegConfig(), MockTime())
    yield seg
    seg.close_handlers()


def test_segment_append_1mb(benchmark: Any, segment: LogSegment, records_1mb: MemoryRecords) -> None:
    """LogSegment.append of a 1 MB batch set: one positional write plus an index entry."""
    next_offset = [0]

    def setup() -> None:
        if segment.size > MAX_FILE_BYTES:
            segment.truncate_to(0)
            next_offset[0] = 0

    def append() -> None:
        # Offset assignment patches the base offset in place (8 bytes; part of the broker's append).
        _set_base_offset(records_1mb, next_offset[0])
        last = next_offset[0] + RECORDS - 1
        segment.append(last, 1_700_000_000_000 + last, last, records_1mb)
        next_offset[0] = last + 1

    benchmark.extra_info["bytes"] = records_1mb.size_in_bytes()
    benchmark.pedantic(append, setup=setup, rounds=200, iterations=1, warmup_rounds=5)
    assert segment.size % records_1mb.size_in_bytes() == 0 and segment.size > 0
    assert segment.read_next_offset() == next_offset[0]


def test_raw_file_write_1mb(benchmark: Any, tmp_path: Path, records_1mb: MemoryRecords) -> None:
    """os.pwrite of the same 1 MB to a plain file: the floor for the append figure."""
    fd = os.open(tmp_path / "raw.log", os.O_RDWR | os.O_CREAT, 0o644)
    data = records_1mb.buffer()
    position = [0]

    def setup() -> None:
        if position[0] > MAX_FILE_BYTES:
            os.ftruncate(fd, 0)
            position[0] = 0

    def write() -> None:
        written = 0
        while written < len(data):
            written += os.pwrite(fd, data[written:], position[0] + written)
        position[0] += written

    try:
        benchmark.extra_info["bytes"] = len(data)
        benchmark.pedantic(write, setup=setup, rounds=200, iterations=1, warmup_rounds=5)
        assert os.fstat(fd).st_size == position[0]
    finally:
        os.close(fd)


def _send_all(send: Callable[[int], int], total: int, receiver: socket.socket, buf: bytearray) -> int:
    """Send `total` bytes with `send(offset)` on a non-blocking socket, draining the peer whenever it is full."""
    sent = 0
    received = 0
    view = memoryview(buf)
    while sent < total:
        try:
            sent += send(sent)
        except BlockingIOError:
            pass
        try:
            while True:
                received += receiver.recv_into(view)
        except BlockingIOError:
            pass
    while received < total:
        try:
            received += receiver.recv_into(view)
        except BlockingIOError:
            continue
    return received


@pytest.fixture
def socket_pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    yield a, b
    a.close()
    b.close()


@pytest.fixture
def filled_segment(segment: LogSegment, records_1mb: MemoryRecords) -> LogSegment:
    for i in range(8):
        last = (i + 1) * RECORDS - 1
        _set_base_offset(records_1mb, i * RECORDS)
        segment.append(last, 1_700_000_000_000 + last, last, records_1mb)
    segment.flush()
    return segment


def test_segment_read_sendfile_1mb(
    benchmark: Any, filled_segment: LogSegment, socket_pair: tuple[socket.socket, socket.socket]
) -> None:
    """LogSegment.read of 1 MB (index lookup, batch scan, slice) sent with FileRecords.write_to (sendfile)."""
    a, b = socket_pair
    buf = bytearray(ONE_MB)
    start = 3 * RECORDS

    def read_and_send() -> int:
        info = filled_segment.read(start, ONE_MB + 4096)
        assert info is not None
        records = info.records
        assert isinstance(records, FileRecords)
        size = records.size_in_bytes()
        return _send_all(lambda sent: records.write_to(a.fileno(), sent, size - sent), size, b, buf)

    benchmark.extra_info["bytes"] = ONE_MB
    received = benchmark(read_and_send)
    assert received >= ONE_MB


def test_raw_sendfile_1mb(
    benchmark: Any, filled_segment: LogSegment, socket_pair: tuple[socket.socket, socket.socket]
) -> None:
    """os.sendfile of the same file range: the floor for the read figure."""
    a, b = socket_pair
    buf = bytearray(ONE_MB)
    info = filled_segment.read(3 * RECORDS, ONE_MB + 4096)
    assert info is not None
    records = info.records
    assert isinstance(records, FileRecords)
    fd = os.open(filled_segment.log.file(), os.O_RDONLY)
    start, size = records.start, records.size_in_bytes()

    def send() -> int:
        return _send_all(lambda sent: os.sendfile(a.fileno(), fd, start + sent, size - sent), size, b, buf)

    try:
        benchmark.extra_info["bytes"] = ONE_MB
        received = benchmark(send)
        assert received == size
    finally:
        os.close(fd)
