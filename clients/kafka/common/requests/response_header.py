"""Port of clients/src/main/java/org/apache/kafka/common/requests/ResponseHeader.java (Kafka 3.7).

The header in front of every response body: the correlation id of the request it answers, and in
header version 1 a tagged-field section.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import ResponseHeaderData
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.send_builder import SendBuilder
from kafka.common.protocol.types import Buffer


class ResponseHeader:
    __slots__ = ("_data", "_header_version", "_size")

    def __init__(self, correlation_id: int, header_version: int, data: Any = None) -> None:
        """The header for `correlation_id`; `data` (a ResponseHeaderData) takes precedence when given."""
        self._data = data if data is not None else ResponseHeaderData(correlation_id=correlation_id)
        self._header_version = header_version
        self._size = -1

    @property
    def correlation_id(self) -> int:
        return int(self._data.correlation_id)

    @property
    def header_version(self) -> int:
        return self._header_version

    @property
    def data(self) -> Any:
        return self._data

    @property
    def size(self) -> int:
        if self._size < 0:
            self._size = self._data.size(self._header_version)
        return self._size

    def write_to(self, builder: SendBuilder) -> None:
        self._data.write_to(builder, self._header_version)

    def write(self) -> bytes:
        return self._data.write(self._header_version)

    @classmethod
    def parse(cls, buffer: ByteBufferAccessor | Buffer, header_version: int) -> ResponseHeader:
        """Reads a header; a ByteBufferAccessor is left positioned at the response body."""
        accessor = buffer if isinstance(buffer, ByteBufferAccessor) else ByteBufferAccessor(buffer)
        start = accessor.position
        data = ResponseHeaderData().read(accessor, header_version)
        header = cls(data.correlation_id, header_version, data)
        header._size = accessor.position - start
        return header

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResponseHeader):
            return NotImplemented
        return self._header_version == other._header_version and self._data == other._data

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ResponseHeader(correlationId={self.correlation_id}, headerVersion={self._header_version})"
