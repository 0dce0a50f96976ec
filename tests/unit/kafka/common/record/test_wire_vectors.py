"""Byte-exact decoding and re-encoding of record data written by other Kafka implementations.

Sources: sarama's unit-test vectors (record batches and legacy messages) and the Produce requests
of recorded client traffic (librdkafka, the Java console producer, kafka-python).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import InvalidRecordException
from kafka.common.record.abstract_legacy_record_batch import BasicLegacyRecordBatch, ByteBufferLegacyRecordBatch
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record import write_unsigned_varint
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.legacy_record import LegacyRecord
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.timestamp_type import TimestampType

from .helpers import encode_legacy_entries, encode_legacy_message, encode_v2_batch, encode_v2_records, reencode_v2

SPEC = Path(__file__).resolve().parents[6] / "shared" / "kafka-protocol-spec"
SARAMA = SPEC / "vectors" / "sarama_vectors.json"
PCAPS = SPEC / "pcaps" / "pcap_vectors.json"

pytestmark = pytest.mark.skipif(not SARAMA.exists() or not PCAPS.exists(), reason="shared vectors not present")


def _sarama(kind: str) -> list[dict[str, Any]]:
    if not SARAMA.exists():
        return []
    return [v for v in json.loads(SARAMA.read_text())["vectors"] if v["kind"] == kind]


def _produce_records() -> list[tuple[str, str, int, str]]:
    """(vector id, frame hex, produce version, records hex) for every Produce request partition."""
    if not PCAPS.exists():
        return []
    out = []
    for frame in json.loads(PCAPS.read_text())["frames"]:
        if frame.get("api_key") != 0 or frame["kind"] != "request":
            continue
        for topic in frame["decoded"]["TopicData"]:
            for partition in topic["PartitionData"]:
                vector_id = f"{frame['file']}#{frame['frame']}/{topic['Name']}-{partition['Index']}"
                out.append((vector_id, frame["frame_hex"], frame["api_version"], partition["Records"]))
    return out


RECORD_BATCHES = _sarama("record_batch")
MESSAGE_SETS = _sarama("message_set")
PRODUCE_RECORDS = _produce_records()

# What sarama's tests state about each record batch (their go_object), by case name.
ONE_RECORD = [(0, 1479847795005, b"\x01\x02\x03\x04", b"\x05\x06\x07", [(b"\x08\x09\x0a", b"\x0b\x0c")])]
BATCH_EXPECTATIONS: dict[str, dict[str, Any]] = {
    "empty record": {"codec": CompressionType.NONE, "control": False, "first_ts": 0, "records": []},
    "control batch": {"codec": CompressionType.NONE, "control": True, "first_ts": 0, "records": []},
    "uncompressed record": {"codec": CompressionType.NONE, "control": False, "first_ts": 1479847795000},
    "gzipped record": {"codec": CompressionType.GZIP, "control": False, "first_ts": 1479847795000},
    "snappy compressed record": {"codec": CompressionType.SNAPPY, "control": False, "first_ts": 1479847795000},
    "lz4 compressed record": {"codec": CompressionType.LZ4, "control": False, "first_ts": 1479847795000},
}

# Legacy messages: (magic, codec, timestamp, key, value) of the shallow message, and the inner
# messages' (offset, key, value), or the exception Java's deep iterator raises.
MESSAGE_EXPECTATIONS: dict[str, tuple[int, CompressionType, int, bytes | None, Any]] = {
    "empty": (0, CompressionType.NONE, -1, None, None),
    "empty gzip": (0, CompressionType.GZIP, -1, None, InvalidRecordException),
    "empty lz4": (1, CompressionType.LZ4, 1479847795000, None, InvalidRecordException),
    "empty zstd": (1, CompressionType.ZSTD, 1479847795000, None, InvalidRecordException),
    "bulk snappy": (0, CompressionType.SNAPPY, -1, None, [(0, b"", b""), (1, b"", b"")]),
    "bulk gzip": (0, CompressionType.GZIP, -1, None, [(0, None, b""), (1, None, b"")]),
    "bulk lz4": (1, CompressionType.LZ4, -6795364578871, None, [(0, None, b""), (1, None, b"")]),
    "bulk zstd": (1, CompressionType.ZSTD, -6795364578871, None, InvalidRecordException),
    "decoding empty v1 message": (1, CompressionType.NONE, 0, None, None),
}


def test_every_vector_kind_is_covered() -> None:
    """The expectation tables cover every record_batch and message_set vector of the data set."""
    assert {v["case"] for v in RECORD_BATCHES} == set(BATCH_EXPECTATIONS)
    assert {v["case"] for v in MESSAGE_SETS} == set(MESSAGE_EXPECTATIONS)
    assert len(PRODUCE_RECORDS) >= 5


@pytest.mark.parametrize("vector", RECORD_BATCHES, ids=lambda v: v["id"])
def test_sarama_record_batch_decodes_as_stated(vector: dict[str, Any]) -> None:
    """Each sarama v2 batch is CRC-valid and decodes to the fields its Go test states."""
    raw = bytes.fromhex(vector["hex"])
    expected = BATCH_EXPECTATIONS[vector["case"]]
    batch = DefaultRecordBatch(raw)
    batch.ensure_valid()
    assert batch.magic() == 2
    assert batch.size_in_bytes() == len(raw)
    assert batch.compression_type() is expected["codec"]
    assert batch.is_control_batch() is expected["control"]
    assert batch.base_timestamp() == expected["first_ts"]
    assert batch.max_timestamp() == 0
    assert batch.timestamp_type() is TimestampType.CREATE_TIME
    records = [
        (r.offset(), r.timestamp(), r.key(), r.value(), [(h.key().encode(), h.value()) for h in r.headers()])
        for r in batch
    ]
    assert records == expected.get("records", ONE_RECORD)


@pytest.mark.parametrize("vector", RECORD_BATCHES, ids=lambda v: v["id"])
def test_sarama_record_batch_reencodes_byte_exact(vector: dict[str, Any]) -> None:
    """Header, CRC and records re-encode to sarama's exact bytes; compressed payloads decompress to them."""
    raw = bytes.fromhex(vector["hex"])
    batch = DefaultRecordBatch(raw)
    payload = raw[61:]
    # Our header writer and CRC over the original payload reproduce the batch exactly.
    assert encode_v2_batch(batch, payload) == raw
    # Our record encoder reproduces the uncompressed record section exactly.
    assert encode_v2_records(batch) == batch.records_data()
    if batch.compression_type() in (CompressionType.NONE, CompressionType.SNAPPY):
        # Uncompressed and snappy batches come out byte-identical end to end.
        assert reencode_v2(batch) == raw
    else:
        # gzip (Go's header) and lz4 (with a content checksum) differ in framing; the content does not.
        again = DefaultRecordBatch(reencode_v2(batch))
        again.ensure_valid()
        assert again.records_data() == batch.records_data()


@pytest.mark.parametrize("vector", MESSAGE_SETS, ids=lambda v: v["id"])
def test_sarama_legacy_message_decodes_and_reencodes(vector: dict[str, Any]) -> None:
    """Each sarama v0/v1 message is CRC-valid, decodes as stated and re-encodes byte-exact."""
    raw = bytes.fromhex(vector["hex"])
    magic, codec, timestamp, key, inner = MESSAGE_EXPECTATIONS[vector["case"]]
    record = LegacyRecord(raw)
    record.ensure_valid()
    assert record.magic() == magic
    assert record.compression_type() is codec
    assert record.timestamp() == timestamp
    assert record.key() == key
    if timestamp >= -1:
        assert encode_legacy_message(record) == raw
    else:
        # Java's LegacyRecord.write refuses such timestamps too (sarama's literal is not a real time).
        with pytest.raises(ValueError, match="Invalid message timestamp"):
            encode_legacy_message(record)
    entry = BasicLegacyRecordBatch(0, record)
    if inner is None:
        assert record.value() is None
        assert list(entry) == [entry]
    elif inner is InvalidRecordException:
        with pytest.raises(InvalidRecordException):
            list(entry)
    else:
        records = list(entry)
        assert [(r.offset(), r.key(), r.value()) for r in records] == inner
        # The inner message set re-encodes to exactly the decompressed wrapper value.
        decompressed = codec.decompress(bytes(record.value() or b""), magic)
        entries = [(r.offset(), r.outer_record()) for r in records if isinstance(r, BasicLegacyRecordBatch)]
        assert encode_legacy_entries(entries) == decompressed


@pytest.mark.parametrize(("vector_id", "frame_hex", "version", "records_hex"), PRODUCE_RECORDS, ids=lambda x: "")
def test_produce_request_records_round_trip(vector_id: str, frame_hex: str, version: int, records_hex: str) -> None:
    """Records of real Produce requests are found in the frame, valid, and rebuilt byte-exact."""
    raw = bytes.fromhex(records_hex)
    frame = bytes.fromhex(frame_hex)
    at = frame.find(raw)
    assert at > 0, vector_id
    # The records field is length-prefixed: int32 before v9, unsigned varint (length + 1) after.
    if version >= 9:
        prefix = bytearray()
        write_unsigned_varint(len(raw) + 1, prefix)
        assert frame[at - len(prefix) : at] == prefix
    else:
        assert struct.unpack_from(">i", frame, at - 4)[0] == len(raw)

    records = MemoryRecords.readable_records(raw)
    batches = list(records.batches())
    assert sum(b.size_in_bytes() for b in batches) == len(raw) == records.valid_bytes()
    for batch in batches:
        batch.ensure_valid()
        builder = MemoryRecordsBuilder(
            magic=batch.magic(),
            compression_type=batch.compression_type(),
            timestamp_type=batch.timestamp_type(),
            base_offset=batch.base_offset(),
            producer_id=batch.producer_id(),
            producer_epoch=batch.producer_epoch(),
            base_sequence=batch.base_sequence(),
            is_transactional=batch.is_transactional(),
            partition_leader_epoch=batch.partition_leader_epoch(),
        )
        for record in batch:
            builder.append_with_offset(
                record.offset(),
                record.timestamp(),
                record.key(),
                record.value(),
                [RecordHeader(h.key(), h.value()) for h in record.headers()],
            )
        rebuilt = builder.build()
        original = batch.buffer() if isinstance(batch, DefaultRecordBatch | ByteBufferLegacyRecordBatch) else None
        assert original is not None
        assert bytes(rebuilt.buffer()) == bytes(original), vector_id


def test_produce_records_have_expected_contents() -> None:
    """Spot checks of decoded values: kafka-python's sw8 header and the Java producer's message."""
    by_file: dict[str, list[tuple[int | None, bytes | None, bytes | None, list[str]]]] = {}
    for vector_id, _, _, records_hex in PRODUCE_RECORDS:
        for record in MemoryRecords.readable_records(bytes.fromhex(records_hex)).records():
            by_file.setdefault(vector_id.split("#")[0], []).append(
                (record.offset(), record.key(), record.value(), [h.key() for h in record.headers()])
            )
    assert by_file["00-produce-v2.pcap"] == [(0, None, b"Message without compression", [])]
    assert by_file["00-produce-v7-sw8.pcap"] == [(0, b"MyKey", b"Hello Kafka", ["sw8"])]
    assert by_file["00-produce-v9.pcap"][0][2] == b"q" * 31
