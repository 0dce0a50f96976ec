"""Kafka frames on a TCP stream: splitting on the size prefix, reading request headers, pairing responses.

Every Kafka frame is a signed 32-bit big-endian size followed by that many bytes. A request's bytes start
with its api key, api version and correlation id (the same offsets in every request header version), then,
depending on the header version, a client id and a tagged-field section. A response starts with the
correlation id of the request it answers; a broker answers the requests of one connection in order, and
sends nothing back for a Produce with acks=0.

Not a port of a Kafka class: what the proxy, the pcap reader and the replayer share.
"""

from __future__ import annotations

import struct
from collections import deque
from dataclasses import dataclass

from kafka.common.message import ApiMessageType, RequestHeaderData
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import Buffer, read_unsigned_varint

SIZE_PREFIX = struct.Struct(">i")
_KEY_VERSION_CID = struct.Struct(">hhi")
_CID = struct.Struct(">i")
_INT16 = struct.Struct(">h")

# Larger than any frame a broker accepts by default (socket.request.max.bytes is 100 MiB).
DEFAULT_MAX_FRAME_SIZE = 512 * 1024 * 1024

PRODUCE_API_KEY = 0


class FrameError(Exception):
    """Bytes that cannot be a Kafka frame or request header."""


class FrameSplitter:
    """Collects the bytes of one direction of a connection and hands out each complete frame, without its
    size prefix. After a size that cannot be right (negative, or above `max_frame_size`) the splitter
    stops: `error` says why, and everything after it is left unsplit."""

    __slots__ = ("_buffer", "error", "max_frame_size", "consumed")

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self._buffer = bytearray()
        self.max_frame_size = max_frame_size
        self.error: str | None = None
        self.consumed = 0  # bytes of the stream handed out as frames (with their size prefixes)

    @property
    def pending(self) -> int:
        """Bytes received that are not part of a complete frame yet."""
        return len(self._buffer)

    def feed(self, data: Buffer) -> list[bytes]:
        """Adds `data` and returns the frames it completed, in order."""
        if self.error is not None:
            self._buffer += data
            return []
        buf = self._buffer
        buf += data
        frames: list[bytes] = []
        pos = 0
        while len(buf) - pos >= 4:
            (size,) = SIZE_PREFIX.unpack_from(buf, pos)
            if size < 0 or size > self.max_frame_size:
                self.error = f"impossible frame size {size} at stream offset {self.consumed}"
                break
            end = pos + 4 + size
            if end > len(buf):
                break
            frames.append(bytes(buf[pos + 4 : end]))
            self.consumed += 4 + size
            pos = end
        if pos:
            del buf[:pos]
        return frames


@dataclass(frozen=True, slots=True)
class RequestInfo:
    """What a request's header says, and whether its sender waits for an answer."""

    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    header_version: int
    header_size: int
    expect_response: bool

    @property
    def api_name(self) -> str:
        return api_name(self.api_key)


def api_name(api_key: int | None) -> str:
    """The message name of an api key (`Produce`), or `ApiKey<n>` for a key the protocol does not have."""
    if api_key is None:
        return "Unknown"
    try:
        return ApiMessageType.from_api_key(api_key).message_name
    except ValueError:
        return f"ApiKey{api_key}"


def request_header_version(api_key: int, api_version: int) -> int:
    return ApiMessageType.from_api_key(api_key).request_header_version(api_version)


def response_header_version(api_key: int, api_version: int) -> int:
    """The response header version a broker must use for this request: v1 for flexible versions, v0 otherwise,
    and always v0 for ApiVersions."""
    return ApiMessageType.from_api_key(api_key).response_header_version(api_version)


def peek_correlation_id(frame: Buffer) -> int:
    """The correlation id at the start of a response frame."""
    if len(frame) < 4:
        raise FrameError(f"a response of {len(frame)} bytes has no correlation id")
    return int(_CID.unpack_from(frame, 0)[0])


def parse_request(frame: Buffer) -> RequestInfo:
    """Reads the header of a request frame (the bytes after the size prefix)."""
    if len(frame) < 8:
        raise FrameError(f"a request of {len(frame)} bytes has no complete header")
    api_key, api_version, correlation_id = _KEY_VERSION_CID.unpack_from(frame, 0)
    try:
        message_type = ApiMessageType.from_api_key(api_key)
    except ValueError:
        raise FrameError(f"unknown api key {api_key} (correlation id {correlation_id})") from None
    header_version = message_type.request_header_version(api_version)
    accessor = ByteBufferAccessor(memoryview(frame))
    try:
        header = RequestHeaderData().read(accessor, header_version)
    except Exception as e:
        raise FrameError(f"unreadable {message_type.message_name} v{api_version} request header: {e}") from e
    expect = expects_response(api_key, api_version, memoryview(frame)[accessor.position :])
    return RequestInfo(
        api_key=api_key,
        api_version=api_version,
        correlation_id=correlation_id,
        client_id=header.client_id,
        header_version=header_version,
        header_size=accessor.position,
        expect_response=expect,
    )


def expects_response(api_key: int, api_version: int, body: Buffer) -> bool:
    """False only for a Produce request with acks=0, which a broker never answers."""
    if api_key != PRODUCE_API_KEY:
        return True
    return produce_acks(api_version, body) != 0


def produce_acks(api_version: int, body: Buffer) -> int | None:
    """The acks of a Produce request body, read without decoding its records; None if it is too short."""
    pos = 0
    if api_version >= 3:  # a nullable transactional id comes first
        flexible = ApiMessageType.PRODUCE.flexible_versions.contains(api_version)
        try:
            if flexible:
                n, pos = read_unsigned_varint(body, 0)
                pos += max(n - 1, 0)
            else:
                if len(body) < 2:
                    return None
                (n,) = _INT16.unpack_from(body, 0)
                pos = 2 + max(n, 0)
        except Exception:
            return None
    if len(body) < pos + 2:
        return None
    return int(_INT16.unpack_from(body, pos)[0])


@dataclass(slots=True)
class Outstanding:
    """A request waiting for its response on one connection."""

    info: RequestInfo
    token: object  # whatever the caller wants back with the match (an event, an index)


class ResponseMatcher:
    """Pairs the responses of one connection with its requests by correlation id.

    Requests that expect an answer are kept in the order they were sent; a response takes the oldest one
    with its correlation id. `match` also says whether that request was the oldest outstanding one, which
    is what a broker that answers in order always gives."""

    __slots__ = ("_pending",)

    def __init__(self) -> None:
        self._pending: deque[Outstanding] = deque()

    def on_request(self, info: RequestInfo, token: object = None) -> None:
        if info.expect_response:
            self._pending.append(Outstanding(info, token))

    def match(self, correlation_id: int) -> tuple[Outstanding | None, bool]:
        """(the request answered, whether it was the oldest outstanding one); (None, False) if no outstanding
        request has that correlation id."""
        for i, entry in enumerate(self._pending):
            if entry.info.correlation_id == correlation_id:
                del self._pending[i]
                return entry, i == 0
        return None, False

    def outstanding(self) -> list[Outstanding]:
        return list(self._pending)

    def __len__(self) -> int:
        return len(self._pending)
