"""SendBuilder: which record sets are copied into the frame and which stay parts of their own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka.common.protocol.send_builder import (
    FILE_COPY_BUDGET,
    FILE_COPY_THRESHOLD,
    ZERO_COPY_THRESHOLD,
    SendBuilder,
)
from kafka.common.record.file_records import FileRecords


@pytest.fixture
def segment(tmp_path: Path) -> Iterator[FileRecords]:
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(os.urandom(2 * FILE_COPY_BUDGET))
    records = FileRecords.open(path, mutable=False, file_already_exists=True)
    yield records
    records.close()


def build(records: object) -> list[object]:
    builder = SendBuilder()
    builder.buf += b"head"
    builder.add_records(records)
    builder.buf += b"tail"
    return builder.build()


def test_a_small_file_slice_is_read_into_the_frame(segment: FileRecords) -> None:
    piece = segment.slice(100, FILE_COPY_THRESHOLD - 1)
    parts = build(piece)
    assert parts == [b"head" + piece.read_bytes() + b"tail"]


def test_a_file_slice_at_the_threshold_stays_a_part(segment: FileRecords) -> None:
    piece = segment.slice(100, FILE_COPY_THRESHOLD)
    parts = build(piece)
    assert parts == [b"head", piece, b"tail"]


def test_a_response_copies_at_most_its_budget_of_small_slices(segment: FileRecords) -> None:
    """Small slices are read into the frame until the next would take the response past FILE_COPY_BUDGET; that one
    and the rest stay parts, sent with sendfile."""
    size = FILE_COPY_THRESHOLD - 1
    fitting = FILE_COPY_BUDGET // size
    pieces = [segment.slice(i * size, size) for i in range(fitting + 2)]
    builder = SendBuilder()
    for piece in pieces:
        builder.add_records(piece)
        builder.buf += b"|"
    parts = builder.build()
    copied = b"|".join(piece.read_bytes() for piece in pieces[:fitting]) + b"|"
    assert parts == [copied, pieces[fitting], b"|", pieces[fitting + 1], b"|"]
    assert builder.size == sum(piece.size_in_bytes() + 1 for piece in pieces)


def test_an_empty_slice_adds_nothing(segment: FileRecords) -> None:
    assert build(segment.slice(100, 0)) == [b"headtail"]


def test_a_slice_cut_below_its_end_stays_a_part(segment: FileRecords) -> None:
    piece = segment.slice(0, 1000)
    os.truncate(segment.file(), 500)
    parts = build(piece)
    assert parts == [b"head", piece, b"tail"]  # its send then reports the truncation, as Kafka's transferTo does


def test_a_slice_of_a_closed_file_stays_a_part(segment: FileRecords) -> None:
    """A read that fails (the segment closed, as after its deletion) leaves the slice to the network thread's send,
    which fails there as it always did, not in the thread building the response."""
    piece = segment.slice(0, 1000)
    segment.close()
    parts = build(piece)
    assert parts == [b"head", piece, b"tail"]


def test_in_memory_records_under_their_threshold_are_copied() -> None:
    small = memoryview(b"x" * (ZERO_COPY_THRESHOLD - 1))
    large = memoryview(b"y" * ZERO_COPY_THRESHOLD)
    assert build(small) == [b"head" + bytes(small) + b"tail"]
    assert build(large) == [b"head", large, b"tail"]


def test_to_bytes_is_the_parts_joined(segment: FileRecords) -> None:
    for size in (10, FILE_COPY_THRESHOLD + 10):
        builder = SendBuilder()
        builder.buf += b"head"
        builder.add_records(segment.slice(0, size))
        builder.buf += b"tail"
        assert builder.to_bytes() == b"head" + segment.slice(0, size).read_bytes() + b"tail"
