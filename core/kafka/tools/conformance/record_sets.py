"""Record sets inside messages: decoded to trees for comparison, and producer ids patched for a replay.

A record set is compared batch by batch and record by record, never as bytes: the bytes carry values that
legitimately differ (base offset, partition leader epoch, producer id and epoch, log-append timestamps) and a
CRC over them. The CRC is checked instead (`crc_valid`). Keys, values and headers are compared exactly.

Not a port of a Kafka class.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import crc32c

from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.timestamp_type import TimestampType
from kafka.tools.conformance.field_kinds import Kind

# Offsets in a v2 batch header.
_BATCH_LENGTH_AT = 8
_MAGIC_AT = 16
_CRC_AT = 17
_ATTRIBUTES_AT = 21
_PRODUCER_ID_AT = 43
_PRODUCER_EPOCH_AT = 51
_V2_HEADER_SIZE = 61
_LOG_OVERHEAD = 12  # base offset and length

_INT32 = struct.Struct(">i")
_UINT32 = struct.Struct(">I")
_INT64 = struct.Struct(">q")
_INT16 = struct.Struct(">h")

# (kind, raw value) -> normalised value; the caller binds the partition for offsets.
Normalise = Callable[[Kind, Any], Any]


def _as_bytes(records: Any) -> bytes:
    if records is None:
        return b""
    if isinstance(records, (bytes, bytearray, memoryview)):
        return bytes(records)
    if hasattr(records, "buffer"):
        return bytes(records.buffer())
    if hasattr(records, "read_bytes"):
        return bytes(records.read_bytes())
    raise TypeError(f"not a record set: {type(records).__name__}")


def records_tree(records: Any, normalise: Normalise) -> Any:
    """A record set as a tree of plain values, with the kinds that may differ passed through `normalise`."""
    if records is None:
        return None
    data = _as_bytes(records)
    out: dict[str, Any] = {"batches": []}
    used = 0
    try:
        for batch in MemoryRecords.readable_records(data).batches():
            out["batches"].append(_batch_tree(batch, normalise))
            used += batch.size_in_bytes()
    except Exception as e:  # a corrupt batch is a difference to report, not a crash
        out["error"] = f"{type(e).__name__}: {e}"
        return out
    if used < len(data):
        out["partial_batch_bytes"] = len(data) - used
    return out


def _bytes(value: Any) -> str | None:
    return None if value is None else bytes(value).hex()


def _batch_tree(batch: Any, normalise: Normalise) -> dict[str, Any]:
    magic = batch.magic()
    log_append = batch.timestamp_type() is TimestampType.LOG_APPEND_TIME
    tree: dict[str, Any] = {"magic": magic}
    if magic >= 2:
        tree.update(
            base_offset=normalise(Kind.OFFSET, batch.base_offset()),
            partition_leader_epoch=normalise(Kind.LEADER_EPOCH, batch.partition_leader_epoch()),
            compression=batch.compression_type().name,
            timestamp_type=str(batch.timestamp_type().name),
            transactional=batch.is_transactional(),
            control=batch.is_control_batch(),
            last_offset_delta=batch.last_offset() - batch.base_offset(),
            base_timestamp=normalise(Kind.TIMESTAMP, batch.base_timestamp()),
            max_timestamp=normalise(Kind.TIMESTAMP, batch.max_timestamp()),
            producer_id=normalise(Kind.PRODUCER_ID, batch.producer_id()),
            producer_epoch=normalise(Kind.PRODUCER_EPOCH, batch.producer_epoch()),
            base_sequence=batch.base_sequence(),
            crc_valid=batch.is_valid(),
        )
        base_offset, base_ts = batch.base_offset(), batch.base_timestamp()
        records = []
        for r in batch:
            records.append(
                {
                    "offset_delta": r.offset() - base_offset,
                    "timestamp_delta": normalise(Kind.TIMESTAMP, r.timestamp())
                    if log_append
                    else r.timestamp() - base_ts,
                    "key": _bytes(r.key()),
                    "value": _bytes(r.value()),
                    "headers": [[h.key(), _bytes(h.value())] for h in r.headers()],
                }
            )
        tree["records"] = records
        return tree
    tree.update(
        offset=normalise(Kind.OFFSET, batch.last_offset()),
        compression=batch.compression_type().name,
        timestamp_type=str(batch.timestamp_type().name),
        timestamp=normalise(Kind.TIMESTAMP, batch.max_timestamp()),
        crc_valid=batch.is_valid(),
    )
    tree["records"] = [
        {
            "offset": normalise(Kind.OFFSET, r.offset()),
            "timestamp": normalise(Kind.TIMESTAMP, r.timestamp()),
            "key": _bytes(r.key()),
            "value": _bytes(r.value()),
        }
        for r in batch
    ]
    return tree


def patch_producer_ids(records: Any, producer_ids: dict[int, int], producer_epochs: dict[int, int]) -> bytes | None:
    """The record set with the producer id and epoch of every v2 batch mapped through the given tables (the
    CRC recomputed), or None when nothing changed."""
    if records is None:
        return None
    data = bytearray(_as_bytes(records))
    pos = 0
    changed = False
    while pos + _V2_HEADER_SIZE <= len(data):
        (length,) = _INT32.unpack_from(data, pos + _BATCH_LENGTH_AT)
        end = pos + _LOG_OVERHEAD + length
        if length < 0 or end > len(data):
            break
        if data[pos + _MAGIC_AT] >= 2:
            (pid,) = _INT64.unpack_from(data, pos + _PRODUCER_ID_AT)
            (epoch,) = _INT16.unpack_from(data, pos + _PRODUCER_EPOCH_AT)
            new_pid = producer_ids.get(pid, pid) if pid >= 0 else pid
            new_epoch = producer_epochs.get(epoch, epoch) if epoch >= 0 and pid >= 0 else epoch
            if (new_pid, new_epoch) != (pid, epoch):
                _INT64.pack_into(data, pos + _PRODUCER_ID_AT, new_pid)
                _INT16.pack_into(data, pos + _PRODUCER_EPOCH_AT, new_epoch)
                crc = crc32c.crc32c(bytes(data[pos + _ATTRIBUTES_AT : end]))
                _UINT32.pack_into(data, pos + _CRC_AT, crc)
                changed = True
        pos = end
    return bytes(data) if changed else None
