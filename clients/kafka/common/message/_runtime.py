"""Port of clients/src/main/java/org/apache/kafka/common/protocol/{MessageUtil,Readable,Writable}.java.

What generated message code calls at run time: the primitive readers and writers, records, tagged
field sections and the errors it raises. `namespace()` is the set of names every generated module
starts with.
"""

from __future__ import annotations

import struct
from operator import itemgetter
from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.protocol import types as t
from kafka.common.protocol.message import ApiMessage, Message, MessageCollection
from kafka.common.protocol.send_builder import SendBuilder


class _Unset:
    """Marks a constructor argument that was not given, so that lists and structs get fresh defaults."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "_UNSET"


_UNSET = _Unset()

_INT32 = struct.Struct(">i")


def null_error(field: str, version: int) -> t.SchemaException:
    return t.SchemaException(f"non-nullable field {field} was serialized as null at version {version}")


def read_records(buf: memoryview, pos: int, compact: bool, nullable: bool) -> tuple[Any, int]:
    """A length-prefixed record set as MemoryRecords over the same memory (no copy)."""
    if compact:
        n, pos = t.read_unsigned_varint(buf, pos)
        n -= 1
    else:
        (n,) = _INT32.unpack_from(buf, pos)
        pos += 4
    if n < 0:
        if nullable:
            return None, pos
        raise t.SchemaException(f"non-nullable records field has length {n}")
    end = pos + n
    if end > len(buf):
        raise t.SchemaException(f"records of {n} bytes exceed the {len(buf) - pos} bytes left")
    memory_records = _memory_records
    if memory_records is None:
        memory_records = _load_memory_records()
    return memory_records.readable_records(buf[pos:end]), end


# MemoryRecords, imported on the first record set read (not with the message classes: an admin tool reads none);
# an import statement in read_records cost ~1.4 us for every record set of every Produce request and Fetch response.
_memory_records: Any = None


def _load_memory_records() -> Any:
    global _memory_records
    from kafka.common.record.memory_records import MemoryRecords

    _memory_records = MemoryRecords
    return MemoryRecords


def records_size(records: Any) -> int:
    if isinstance(records, (bytes, bytearray, memoryview)):
        return len(records)
    return int(records.size_in_bytes())


def write_records(w: SendBuilder, records: Any, compact: bool) -> None:
    if records is None:
        if compact:
            w.buf.append(0)
        else:
            w.buf += b"\xff\xff\xff\xff"
        return
    n = records_size(records)
    if compact:
        t.write_unsigned_varint(w.buf, n + 1)
    else:
        w.buf += _INT32.pack(n)
    w.add_records(records)


def write_tagged(out: bytearray, known: list[tuple[int, bytes]], unknown: list[tuple[int, bytes]] | None) -> None:
    """Writes a tagged-field section: count, then each (tag, size, data) in tag order."""
    fields = known
    if unknown:
        fields = sorted(known + list(unknown), key=itemgetter(0))
    t.write_unsigned_varint(out, len(fields))
    for tag, data in fields:
        t.write_unsigned_varint(out, tag)
        t.write_unsigned_varint(out, len(data))
        out += data


def namespace() -> dict[str, Any]:
    return {
        "_struct": struct,
        "_UNSET": _UNSET,
        "ZERO_UUID": t.ZERO_UUID,
        "_uuid_from_bytes": t.Uuid.from_bytes,
        "ApiMessage": ApiMessage,
        "Message": Message,
        "MessageCollection": MessageCollection,
        "_SendBuilder": SendBuilder,
        "_SchemaException": t.SchemaException,
        "_UnsupportedVersionException": UnsupportedVersionException,
        "_null_error": null_error,
        "_read_uvarint": t.read_unsigned_varint,
        "_write_uvarint": t.write_unsigned_varint,
        "_read_string": t.read_string,
        "_read_nullable_string": t.read_nullable_string,
        "_read_compact_string": t.read_compact_string,
        "_read_compact_nullable_string": t.read_compact_nullable_string,
        "_read_bytes": t.read_bytes,
        "_read_nullable_bytes": t.read_nullable_bytes,
        "_read_compact_bytes": t.read_compact_bytes,
        "_read_compact_nullable_bytes": t.read_compact_nullable_bytes,
        "_read_uuid": t.read_uuid,
        "_read_array_length": t.read_array_length,
        "_read_compact_array_length": t.read_compact_array_length,
        "_read_records": read_records,
        "_write_string": t.write_string,
        "_write_nullable_string": t.write_nullable_string,
        "_write_compact_string": t.write_compact_string,
        "_write_bytes": t.write_bytes,
        "_write_compact_bytes": t.write_compact_bytes,
        "_write_records": write_records,
        "_write_tagged": write_tagged,
    }
