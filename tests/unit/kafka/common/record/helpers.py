"""Shared helpers for the record-layer tests: re-encoding decoded batches field by field."""

from __future__ import annotations

from kafka.common.record.abstract_legacy_record_batch import write_header as write_legacy_header
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record import DefaultRecord
from kafka.common.record.default_record_batch import RECORD_BATCH_OVERHEAD, DefaultRecordBatch
from kafka.common.record.legacy_record import LegacyRecord


def encode_v2_records(batch: DefaultRecordBatch) -> bytes:
    """The uncompressed record section re-encoded from the decoded records of a CreateTime batch."""
    base_offset = batch.base_offset()
    base_timestamp = batch.base_timestamp()
    body = bytearray()
    for record in batch:
        DefaultRecord.write_to(
            body,
            record.offset() - base_offset,
            record.timestamp() - base_timestamp,
            record.key(),
            record.value(),
            record.headers(),
        )
    return bytes(body)


def encode_v2_batch(batch: DefaultRecordBatch, payload: bytes) -> bytes:
    """A v2 batch with `batch`'s header fields around `payload`, header and CRC written by our code."""
    out = bytearray(RECORD_BATCH_OVERHEAD) + payload
    DefaultRecordBatch.write_header(
        out,
        0,
        batch.base_offset(),
        batch.last_offset_delta(),
        len(out),
        batch.magic(),
        batch.compression_type(),
        batch.timestamp_type(),
        batch.base_timestamp(),
        batch.max_timestamp(),
        batch.producer_id(),
        batch.producer_epoch(),
        batch.base_sequence(),
        batch.is_transactional(),
        batch.is_control_batch(),
        batch.has_delete_horizon_ms(),
        batch.partition_leader_epoch(),
        batch.count(),
    )
    return bytes(out)


def reencode_v2(batch: DefaultRecordBatch) -> bytes:
    """Decode every record of `batch` and encode the batch again with our encoder and compressor."""
    records = encode_v2_records(batch)
    codec = batch.compression_type()
    payload = records if codec is CompressionType.NONE else codec.compress(records, batch.magic())
    return encode_v2_batch(batch, payload)


def encode_legacy_message(record: LegacyRecord) -> bytes:
    """A legacy message re-encoded from its decoded fields (keeping its attributes byte)."""
    out = bytearray()
    key = record.key()
    value = record.value()
    timestamp = record.timestamp() if record.magic() > 0 else -1
    LegacyRecord.write_with_attributes(out, record.magic(), record.attributes() & 0xFF, timestamp, key, value)
    return bytes(out)


def encode_legacy_entries(entries: list[tuple[int, LegacyRecord]]) -> bytes:
    """A message set (offset, size, message)* re-encoded from decoded messages."""
    out = bytearray()
    for offset, record in entries:
        message = encode_legacy_message(record)
        write_legacy_header(out, offset, len(message))
        out += message
    return bytes(out)
