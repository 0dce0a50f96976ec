"""Port of clients/src/main/java/org/apache/kafka/common/requests/RequestHeader.java (Kafka 3.7).

The header in front of every request body: api key, api version, correlation id and client id. Its own
layout version (0, 1 or 2) follows from the api key and version, so parsing reads those two first.
"""

from __future__ import annotations

import struct
from typing import Any

from kafka.common.errors import InvalidRequestException
from kafka.common.message import ApiMessageType, RequestHeaderData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.send_builder import SendBuilder
from kafka.common.protocol.types import Buffer
from kafka.common.requests.response_header import ResponseHeader

_KEY_AND_VERSION = struct.Struct(">hh")
_CORRELATION_ID = struct.Struct(">i")
# (api key, header version) by the wire's api key and version ((key << 16) | version, both as unsigned 16 bits), for
# the versions each key supports (so that the dict stays small whatever clients send): every request's header is
# parsed with them.
_PARSED_KEYS: dict[int, tuple[ApiKeys, int]] = {}


class RequestHeader:
    """A parsed or to-be-written request header (wraps RequestHeaderData and its header version)."""

    __slots__ = ("_data", "_header_version", "_size", "_api_key")

    def __init__(self, data: Any, header_version: int) -> None:
        self._data = data
        self._header_version = header_version
        self._size = -1
        self._api_key: ApiKeys | None = None  # looked up once: request paths ask for it many times

    @classmethod
    def of(cls, api_key: ApiKeys, api_version: int, client_id: str | None, correlation_id: int) -> RequestHeader:
        """The header for a request of `api_key` at `api_version` (Java's four-argument constructor)."""
        data = RequestHeaderData(
            request_api_key=api_key.id,
            request_api_version=api_version,
            client_id=client_id,
            correlation_id=correlation_id,
        )
        return cls(data, api_key.request_header_version(api_version))

    @property
    def api_key(self) -> ApiKeys:
        api_key = self._api_key
        if api_key is None or api_key.id != self._data.request_api_key:
            api_key = self._api_key = ApiKeys.for_id(self._data.request_api_key)
        return api_key

    @property
    def api_version(self) -> int:
        return int(self._data.request_api_version)

    @property
    def header_version(self) -> int:
        return self._header_version

    @property
    def client_id(self) -> str | None:
        return self._data.client_id

    @property
    def correlation_id(self) -> int:
        return int(self._data.correlation_id)

    @property
    def data(self) -> Any:
        return self._data

    def write_to(self, builder: SendBuilder) -> None:
        self._data.write_to(builder, self._header_version)

    def write(self) -> bytes:
        return self._data.write(self._header_version)

    @property
    def size(self) -> int:
        """The encoded size in bytes; for a parsed header, the bytes it took on the wire."""
        if self._size < 0:
            self._size = self._data.size(self._header_version)
        return self._size

    def to_response_header(self) -> ResponseHeader:
        return ResponseHeader(self.correlation_id, self.api_key.response_header_version(self.api_version))

    @staticmethod
    def peek_correlation_id(buffer: ByteBufferAccessor | Buffer) -> int | None:
        """The correlation id of a request whose header cannot be parsed (unknown api key, bad data): it sits at
        the same offset in every header version. None when the buffer is too short to hold it."""
        buf: Buffer = buffer.buffer if isinstance(buffer, ByteBufferAccessor) else buffer
        pos = buffer.position if isinstance(buffer, ByteBufferAccessor) else 0
        if len(buf) - pos < 8:
            return None
        return int(_CORRELATION_ID.unpack_from(buf, pos + 4)[0])

    @classmethod
    def parse(cls, buffer: ByteBufferAccessor | Buffer) -> RequestHeader:
        """Reads a header; a ByteBufferAccessor is left positioned at the request body. Any failure is an
        InvalidRequestException naming the api key as far as it could be read."""
        accessor = buffer if isinstance(buffer, ByteBufferAccessor) else ByteBufferAccessor(buffer)
        start = accessor.position
        api_key = -1
        try:
            api_key, api_version = _KEY_AND_VERSION.unpack_from(accessor.buffer, start)
            wire_key = ((api_key & 0xFFFF) << 16) | (api_version & 0xFFFF)
            parsed_key = _PARSED_KEYS.get(wire_key)
            if parsed_key is None:
                if not ApiKeys.has_id(api_key):
                    try:
                        name = ApiMessageType.from_api_key(api_key).name
                    except ValueError:
                        raise InvalidRequestException(f"Unknown API key {api_key}") from None
                    # PORT: Java's ApiKeys knows the KRaft-only APIs and SocketServer rejects them after parsing;
                    # our ApiKeys holds only what a ZooKeeper-mode broker serves, so they are rejected here.
                    raise InvalidRequestException(
                        f"Received request api key {name} with version {api_version} which is not enabled"
                    )
                key = ApiKeys.for_id(api_key)
                parsed_key = (key, key.request_header_version(api_version))
                if key.is_version_supported(api_version):
                    _PARSED_KEYS[wire_key] = parsed_key
            key, header_version = parsed_key
            data = RequestHeaderData().read(accessor, header_version)
        except InvalidRequestException:
            accessor.position = start
            raise
        except Exception as e:
            accessor.position = start
            raise InvalidRequestException(
                f"Error parsing request header. Our best guess of the apiKey is: {api_key}"
            ) from e
        # The protocol marks the client id nullable; a null one is treated as empty, as Java does.
        if data.client_id is None:
            data.client_id = ""
        header = cls(data, header_version)
        header._size = accessor.position - start
        header._api_key = key
        return header

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RequestHeader):
            return NotImplemented
        return self._header_version == other._header_version and self._data == other._data

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        try:
            key = self.api_key.name
        except ValueError:
            key = str(self._data.request_api_key)
        return (
            f"RequestHeader(apiKey={key}, apiVersion={self.api_version}, clientId={self.client_id}, "
            f"correlationId={self.correlation_id}, headerVersion={self._header_version})"
        )
