"""Tests of DumpLogSegments, run as bin/kafka-dump-log.sh on real segment files, after Kafka's DumpLogSegmentsTest."""

from __future__ import annotations

import io
import os
import re
import subprocess
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import MAGIC_VALUE_V1, NO_TIMESTAMP
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.utils.time import MockTime
from kafka.log.log_segment import LogSegment
from kafka.log.producer_state_manager import BatchMetadata, ProducerStateEntry, write_snapshot
from kafka.log.transaction_index import AbortedTxn
from kafka.tools import dump_log_segments

ROOT = Path(__file__).resolve().parents[4]
DUMP_LOG = ROOT / "bin" / "kafka-dump-log.sh"

# Kafka 2.8's batch line for magic 2.
BATCH_LINE = re.compile(
    r"^baseOffset: (\d+) lastOffset: (\d+) count: (\d+) baseSequence: (-?\d+) lastSequence: (-?\d+) "
    r"producerId: (-?\d+) producerEpoch: (-?\d+) partitionLeaderEpoch: (-?\d+) isTransactional: (true|false) "
    r"isControl: (true|false) position: (\d+) (CreateTime|LogAppendTime|NoTimestampType): (-?\d+) size: (\d+) "
    r"magic: 2 compresscodec: (NONE|GZIP|SNAPPY|LZ4|ZSTD) crc: (\d+) isvalid: (true|false)$"
)


@dataclass(frozen=True)
class SegConfig:
    max_index_size: int = 10 * 1024
    index_interval: int = 1
    random_segment_jitter: int = 0


@pytest.fixture
def segment_dir(tmp_path: Path) -> Iterator[Path]:
    """A segment at base offset 0 with plain, compressed, keyed, headed, transactional and control batches."""
    seg = LogSegment.open(tmp_path, 0, SegConfig(), MockTime())
    seg.append(
        0,
        1,
        0,
        MemoryRecords.with_records(
            CompressionType.NONE, SimpleRecord(timestamp=1, key=b"k", value=b"v"), partition_leader_epoch=0
        ),
    )
    seg.append(
        2,
        5,
        2,
        MemoryRecords.with_records(
            CompressionType.GZIP,
            SimpleRecord(timestamp=4, value=b"hello"),
            SimpleRecord(timestamp=5, value=None, headers=[RecordHeader("h1", b"x"), RecordHeader("h2", None)]),
            initial_offset=1,
            partition_leader_epoch=3,
        ),
    )
    seg.append(
        3,
        6,
        3,
        MemoryRecords.with_transactional_records(
            CompressionType.NONE, 77, 1, 0, SimpleRecord(timestamp=6, value=b"txn"), initial_offset=3
        ),
    )
    seg.append(
        4,
        NO_TIMESTAMP,
        4,
        MemoryRecords.with_end_transaction_marker(
            77, 1, EndTransactionMarker(ControlRecordType.ABORT, 9), initial_offset=4, timestamp=7
        ),
    )
    seg.txn_index.append(AbortedTxn.of(77, 3, 4, 3))
    seg.close()
    yield tmp_path


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(DUMP_LOG), *args], capture_output=True, text=True, timeout=60, check=False, cwd=str(ROOT)
    )


def test_dump_log_with_data_matches_kafka_layout(segment_dir: Path) -> None:
    """--print-data-log prints Kafka's batch lines and `|` record lines with keys, payloads, headers and markers."""
    log = segment_dir / "00000000000000000000.log"
    result = run_tool("--files", str(log), "--print-data-log")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Dumping {log}"
    assert lines[1] == "Starting offset: 0"
    batch_lines = [line for line in lines if line.startswith("baseOffset:")]
    assert len(batch_lines) == 4
    matches = [BATCH_LINE.match(line) for line in batch_lines]
    assert all(matches), batch_lines
    first = matches[0]
    assert first is not None
    assert first.group(1, 2, 3, 8, 11, 12, 13, 14, 15, 17) == (
        "0",
        "0",
        "1",
        "0",
        "0",
        "CreateTime",
        "1",
        "70",
        "NONE",
        "true",
    )
    records = [line for line in lines if line.startswith("| ")]
    assert records[0] == (
        "| offset: 0 isValid: true crc: null keySize: 1 valueSize: 1 CreateTime: 1 baseOffset: 0 lastOffset: 0 "
        "baseSequence: -1 lastSequence: -1 producerEpoch: -1 partitionLeaderEpoch: 0 batchSize: 70 magic: 2 "
        "compressType: NONE position: 0 sequence: -1 headerKeys: [] key: k payload: v"
    )
    assert records[1].endswith("compressType: GZIP position: 70 sequence: -1 headerKeys: [] payload: hello")
    # A null value prints no payload.
    assert records[2].endswith("headerKeys: [h1,h2]")
    assert "producerEpoch: 1" in records[3] and records[3].endswith("payload: txn")
    assert records[4].endswith("endTxnMarker: ABORT coordinatorEpoch: 9")
    assert "isTransactional: true isControl: true" in batch_lines[3]
    assert result.stderr == ""


def test_shallow_dump_and_skip_record_metadata(segment_dir: Path) -> None:
    """Without --deep-iteration only batches print; --skip-record-metadata leaves only keys and payloads."""
    log = str(segment_dir / "00000000000000000000.log")
    shallow = run_tool("--files", log)
    assert shallow.returncode == 0
    assert not any(line.startswith("|") for line in shallow.stdout.splitlines())
    skipped = run_tool("--files", log, "--print-data-log", "--skip-record-metadata")
    record_lines = [
        line for line in skipped.stdout.splitlines() if not line.startswith(("Dumping", "Starting", "baseOffset:"))
    ]
    # Only a printed key starts a line with `|`; a null value or a control record prints nothing.
    assert record_lines == ["| key: k payload: v", " payload: hello", "", " payload: txn", ""]


def test_dump_indexes_txn_index_and_snapshot(segment_dir: Path) -> None:
    """Index, time index, transaction index and producer snapshot files print Kafka's entry lines."""
    snapshot = segment_dir / "00000000000000000005.snapshot"
    write_snapshot(snapshot, {77: ProducerStateEntry(77, deque([BatchMetadata(0, 3, 0, 6)]), 1, 9, 6, None)})
    files = [
        segment_dir / "00000000000000000000.index",
        segment_dir / "00000000000000000000.timeindex",
        segment_dir / "00000000000000000000.txnindex",
        snapshot,
    ]
    result = run_tool("--files", ",".join(str(f) for f in files))
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == f"Dumping {files[0]}"
    assert "offset: 2 position: 70" in out
    assert "offset: 3 position: 179" in out
    assert "offset: 4 position: 250" in out
    assert "timestamp: 5 offset: 2" in out
    assert "timestamp: 6 offset: 3" in out
    assert "version: 0 producerId: 77 firstOffset: 3 lastOffset: 4 lastStableOffset: 3" in out
    assert (
        "producerId: 77 producerEpoch: 1 coordinatorEpoch: 9 currentTxnFirstOffset: None "
        "firstSequence: 0 lastSequence: 0 lastOffset: 3 offsetDelta: 0 timestamp: 6"
    ) in out
    assert result.stderr == ""


def test_index_sanity_check(segment_dir: Path) -> None:
    """--index-sanity-check passes a good index and exits 1 naming CorruptIndexException for a torn one."""
    index = segment_dir / "00000000000000000000.index"
    ok = run_tool("--files", str(index), "--index-sanity-check")
    assert ok.returncode == 0
    assert f"{index} passed sanity check." in ok.stdout
    with open(index, "ab") as f:
        f.write(b"\x00\x01\x02")
    bad = run_tool("--files", str(index), "--index-sanity-check")
    assert bad.returncode == 1
    assert "CorruptIndexException" in bad.stderr
    assert "neither positive nor a multiple of 8" in bad.stderr


def test_verify_index_only_reports_mismatch(segment_dir: Path) -> None:
    """--verify-index-only prints no entries, and an entry pointing at the wrong batch is reported on stderr."""
    index = segment_dir / "00000000000000000000.index"
    entries = index.read_bytes()
    # Point the entry for offset 2 at offset 1 instead.
    index.write_bytes(entries[:0] + (1).to_bytes(4, "big") + entries[4:])
    result = run_tool("--files", str(index), "--verify-index-only")
    assert result.returncode == 0
    assert "offset:" not in result.stdout
    assert f"Mismatches in :{index}" in result.stderr
    assert "  Index offset: 1, log offset: 2" in result.stderr


def test_truncated_log_reports_invalid_bytes(segment_dir: Path) -> None:
    """A log cut mid-batch prints the whole batches and `Found N invalid bytes at the end of`."""
    log = segment_dir / "00000000000000000000.log"
    size = log.stat().st_size
    os.truncate(log, size - 10)
    result = run_tool("--files", str(log))
    assert result.returncode == 0
    assert len([line for line in result.stdout.splitlines() if line.startswith("baseOffset:")]) == 3
    assert result.stdout.splitlines()[-1] == (
        f"Found {size - 10 - (size - 78)} invalid bytes at the end of 00000000000000000000.log"
    )


def test_usage_errors(tmp_path: Path) -> None:
    """No arguments or no --files print the usage and exit 1; unknown files are ignored with a note."""
    no_args = run_tool()
    assert no_args.returncode == 1
    assert no_args.stderr.startswith("This tool helps to parse a log file and dump its contents to the console")
    assert "--files <String: file1, file2, ...>" in no_args.stderr  # jopt-simple's help, as Kafka prints it
    no_files = run_tool("--print-data-log")
    assert no_files.returncode == 1
    assert 'Missing required argument "[files]"' in no_files.stderr
    other = tmp_path / "notes.txt"
    other.write_text("x")
    ignored = run_tool("--files", str(other))
    assert ignored.returncode == 0
    assert f"Ignoring unknown file {other}" in ignored.stderr
    missing = run_tool("--files", str(tmp_path / "00000000000000000000.log"))
    assert missing.returncode == 1
    assert f'Exception in thread "main" java.nio.file.NoSuchFileException: {tmp_path}' in missing.stderr


def test_legacy_message_format_lines(tmp_path: Path) -> None:
    """Magic 1 batches print `offset:` batch lines and the record CRC, as Kafka's tool does for old formats."""
    seg = LogSegment.open(tmp_path, 0, SegConfig(), MockTime())
    seg.append(
        0,
        10,
        0,
        MemoryRecords.with_records(
            CompressionType.NONE, SimpleRecord(timestamp=10, value=b"old"), magic=MAGIC_VALUE_V1
        ),
    )
    seg.close()
    out = io.StringIO()
    err = io.StringIO()
    status = dump_log_segments.run(
        ["--files", str(tmp_path / "00000000000000000000.log"), "--deep-iteration"], out, err
    )
    assert status == 0
    lines = out.getvalue().splitlines()
    assert re.fullmatch(
        r"offset: 0 position: 0 CreateTime: 10 size: \d+ magic: 1 compresscodec: NONE crc: \d+ isvalid: true", lines[2]
    )
    assert re.fullmatch(
        r"\| offset: 0 isValid: true crc: (\d+) keySize: -1 valueSize: 3 CreateTime: 10 .* magic: 1 "
        r"compressType: NONE position: 0 crc: \1 isvalid: true",
        lines[3],
    )
