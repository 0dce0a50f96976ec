"""Port of clients/src/main/java/org/apache/kafka/common/record/ControlRecordType.java (Kafka 3.7).

The type of a control record, stored in its key: `version: int16` (0) then `type: int16`.
Transaction markers are ABORT and COMMIT; the others belong to KRaft.

# PORT: a small class with singleton instances, like TimestampType, so that `name` and `type()`
read as in Java.
"""

from __future__ import annotations

import logging
import struct
from typing import ClassVar, Final

from kafka.common.errors import InvalidRecordException

_log = logging.getLogger("org.apache.kafka.common.record.ControlRecordType")

CURRENT_CONTROL_RECORD_KEY_VERSION: Final = 0
CURRENT_CONTROL_RECORD_KEY_SIZE: Final = 4
_KEY: Final = struct.Struct(">hh")

Buffer = bytes | bytearray | memoryview


class ControlRecordType:
    """ABORT, COMMIT, LEADER_CHANGE, SNAPSHOT_HEADER, SNAPSHOT_FOOTER or UNKNOWN."""

    __slots__ = ("_type", "name")

    ABORT: ClassVar[ControlRecordType]
    COMMIT: ClassVar[ControlRecordType]
    LEADER_CHANGE: ClassVar[ControlRecordType]
    SNAPSHOT_HEADER: ClassVar[ControlRecordType]
    SNAPSHOT_FOOTER: ClassVar[ControlRecordType]
    UNKNOWN: ClassVar[ControlRecordType]

    CURRENT_CONTROL_RECORD_KEY_VERSION: Final = CURRENT_CONTROL_RECORD_KEY_VERSION
    CURRENT_CONTROL_RECORD_KEY_SIZE: Final = CURRENT_CONTROL_RECORD_KEY_SIZE

    def __init__(self, type_: int, name: str) -> None:
        self._type = type_
        self.name = name

    def type(self) -> int:
        """The type id written in the key."""
        return self._type

    def record_key(self) -> bytes:
        """The serialized control record key for this type."""
        if self is ControlRecordType.UNKNOWN:
            raise ValueError("Cannot serialize UNKNOWN control record type")
        return _KEY.pack(CURRENT_CONTROL_RECORD_KEY_VERSION, self._type)

    @staticmethod
    def parse_type_id(key: Buffer | None) -> int:
        """The type id in a control record key; InvalidRecordException for a short or bad key."""
        if key is None or len(key) < CURRENT_CONTROL_RECORD_KEY_SIZE:
            size = 0 if key is None else len(key)
            raise InvalidRecordException(
                "Invalid value size found for end control record key. Must have at least "
                f"{CURRENT_CONTROL_RECORD_KEY_SIZE} bytes, but found only {size}"
            )
        version, type_id = _KEY.unpack_from(key, 0)
        if version < 0:
            raise InvalidRecordException(
                f"Invalid version found for control record: {version}. May indicate data corruption"
            )
        if version != CURRENT_CONTROL_RECORD_KEY_VERSION:
            _log.debug(
                "Received unknown control record key version %s. Parsing as version %s",
                version,
                CURRENT_CONTROL_RECORD_KEY_VERSION,
            )
        return type_id

    @staticmethod
    def from_type_id(type_id: int) -> ControlRecordType:
        """The type for an id; UNKNOWN for ids Kafka does not define."""
        return _BY_ID.get(type_id, ControlRecordType.UNKNOWN)

    @staticmethod
    def parse(key: Buffer | None) -> ControlRecordType:
        """The type of a control record from its key."""
        return ControlRecordType.from_type_id(ControlRecordType.parse_type_id(key))

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"ControlRecordType.{self.name}"

    def __reduce__(self) -> str:
        return f"ControlRecordType.{self.name}"


ControlRecordType.ABORT = ControlRecordType(0, "ABORT")
ControlRecordType.COMMIT = ControlRecordType(1, "COMMIT")
ControlRecordType.LEADER_CHANGE = ControlRecordType(2, "LEADER_CHANGE")
ControlRecordType.SNAPSHOT_HEADER = ControlRecordType(3, "SNAPSHOT_HEADER")
ControlRecordType.SNAPSHOT_FOOTER = ControlRecordType(4, "SNAPSHOT_FOOTER")
ControlRecordType.UNKNOWN = ControlRecordType(-1, "UNKNOWN")

_BY_ID: Final = {
    t.type(): t
    for t in (
        ControlRecordType.ABORT,
        ControlRecordType.COMMIT,
        ControlRecordType.LEADER_CHANGE,
        ControlRecordType.SNAPSHOT_HEADER,
        ControlRecordType.SNAPSHOT_FOOTER,
    )
}
