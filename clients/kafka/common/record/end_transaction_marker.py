"""Port of clients/src/main/java/org/apache/kafka/common/record/EndTransactionMarker.java (Kafka 3.7).

The COMMIT or ABORT control record the transaction coordinator has written into each partition of
a transaction. Its value: `version: int16` (0) then `coordinator_epoch: int32`.
"""

from __future__ import annotations

import logging
import struct
from typing import TYPE_CHECKING, Final

from kafka.common.errors import InvalidRecordException
from kafka.common.record.control_record_type import CURRENT_CONTROL_RECORD_KEY_SIZE, ControlRecordType
from kafka.common.record.default_record import DefaultRecord

if TYPE_CHECKING:
    from kafka.common.record.record import Record

_log = logging.getLogger("org.apache.kafka.common.record.EndTransactionMarker")

CURRENT_END_TXN_MARKER_VERSION: Final = 0
CURRENT_END_TXN_MARKER_VALUE_SIZE: Final = 6
CURRENT_END_TXN_SCHEMA_RECORD_SIZE: Final = DefaultRecord.size_in_bytes_of(
    0, 0, bytes(CURRENT_CONTROL_RECORD_KEY_SIZE), bytes(CURRENT_END_TXN_MARKER_VALUE_SIZE), ()
)
_VALUE: Final = struct.Struct(">hi")

Buffer = bytes | bytearray | memoryview


def _ensure_transaction_marker_control_type(type_: ControlRecordType) -> None:
    if type_ is not ControlRecordType.COMMIT and type_ is not ControlRecordType.ABORT:
        raise ValueError(f"Invalid control record type for end transaction marker{type_}")


class EndTransactionMarker:
    """A transaction marker: its control type and the coordinator epoch that wrote it."""

    __slots__ = ("_coordinator_epoch", "_type")

    CURRENT_END_TXN_MARKER_VALUE_SIZE: Final = CURRENT_END_TXN_MARKER_VALUE_SIZE
    CURRENT_END_TXN_SCHEMA_RECORD_SIZE: Final = CURRENT_END_TXN_SCHEMA_RECORD_SIZE

    def __init__(self, type_: ControlRecordType, coordinator_epoch: int) -> None:
        _ensure_transaction_marker_control_type(type_)
        self._type = type_
        self._coordinator_epoch = coordinator_epoch

    def coordinator_epoch(self) -> int:
        """The epoch of the coordinator that wrote the marker."""
        return self._coordinator_epoch

    def control_type(self) -> ControlRecordType:
        """COMMIT or ABORT."""
        return self._type

    def serialize_value(self) -> bytes:
        """The control record value."""
        return _VALUE.pack(CURRENT_END_TXN_MARKER_VERSION, self._coordinator_epoch)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, EndTransactionMarker):
            return NotImplemented
        return self._coordinator_epoch == other._coordinator_epoch and self._type is other._type

    def __hash__(self) -> int:
        return hash((self._type.type(), self._coordinator_epoch))

    def __repr__(self) -> str:
        return f"EndTransactionMarker(type={self._type}, coordinatorEpoch={self._coordinator_epoch})"

    @staticmethod
    def deserialize(record: Record) -> EndTransactionMarker:
        """The marker held by a control record; InvalidRecordException when malformed."""
        type_ = ControlRecordType.parse(record.key())
        return EndTransactionMarker.deserialize_value(type_, record.value())

    @staticmethod
    def deserialize_value(type_: ControlRecordType, value: Buffer | None) -> EndTransactionMarker:
        """The marker from its type and serialized value."""
        _ensure_transaction_marker_control_type(type_)
        size = 0 if value is None else len(value)
        if value is None or size < CURRENT_END_TXN_MARKER_VALUE_SIZE:
            raise InvalidRecordException(
                "Invalid value size found for end transaction marker. Must have at least "
                f"{CURRENT_END_TXN_MARKER_VALUE_SIZE} bytes, but found only {size}"
            )
        version, coordinator_epoch = _VALUE.unpack_from(value, 0)
        if version < 0:
            raise InvalidRecordException(
                f"Invalid version found for end transaction marker: {version}. May indicate data corruption"
            )
        if version > CURRENT_END_TXN_MARKER_VERSION:
            _log.debug(
                "Received end transaction marker value version %s. Parsing as version %s",
                version,
                CURRENT_END_TXN_MARKER_VERSION,
            )
        return EndTransactionMarker(type_, coordinator_epoch)
