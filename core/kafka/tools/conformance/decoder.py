"""Request and response frames decoded with the generated message classes, and encoded back.

Not a port of a Kafka class: what the replayer, the comparer and the summary share. A decoded frame keeps
its header, its body object and the bytes (if any) after the body, so that a request can be rewritten and
sent again byte for byte as the client sent it (librdkafka's ApiVersions v0 request carries four bytes
after its empty body, which a broker must ignore).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kafka.common.message import ApiMessageType, RequestHeaderData, ResponseHeaderData
from kafka.common.message.spec import MessageSpec
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.send_builder import SendBuilder

API_VERSIONS_KEY = 18


class DecodeError(Exception):
    """A frame that the message definitions cannot read."""


@dataclass(slots=True)
class DecodedRequest:
    api_key: int
    api_version: int
    header_version: int
    header: Any  # RequestHeaderData
    body: Any  # XxxRequestData
    trailing: bytes

    @property
    def message_type(self) -> ApiMessageType:
        return ApiMessageType.from_api_key(self.api_key)

    @property
    def spec(self) -> MessageSpec:
        return self.message_type.request_spec

    def encode(self) -> bytes:
        """The frame (without its size prefix): header, body and any trailing bytes, as read."""
        builder = SendBuilder()
        self.header.write_to(builder, self.header_version)
        self.body.write_to(builder, self.api_version)
        return builder.to_bytes() + self.trailing


@dataclass(slots=True)
class DecodedResponse:
    api_key: int
    api_version: int  # the version the body was read at (an ApiVersions fallback reads at v0)
    header_version: int
    correlation_id: int
    body: Any  # XxxResponseData
    trailing: bytes
    header_size: int

    @property
    def message_type(self) -> ApiMessageType:
        return ApiMessageType.from_api_key(self.api_key)

    @property
    def spec(self) -> MessageSpec:
        return self.message_type.response_spec

    def encode_body(self) -> bytes:
        return bytes(self.body.write(self.api_version))


def decode_request(frame: bytes) -> DecodedRequest:
    view = memoryview(frame)
    if len(frame) < 4:
        raise DecodeError("a request too short for its api key and version")
    api_key = int.from_bytes(frame[0:2], "big", signed=True)
    api_version = int.from_bytes(frame[2:4], "big", signed=True)
    try:
        message_type = ApiMessageType.from_api_key(api_key)
    except ValueError:
        raise DecodeError(f"unknown api key {api_key}") from None
    header_version = message_type.request_header_version(api_version)
    accessor = ByteBufferAccessor(view)
    try:
        header = RequestHeaderData().read(accessor, header_version)
        body = message_type.new_request().read(accessor, api_version)
    except Exception as e:
        raise DecodeError(f"cannot read {message_type.message_name} v{api_version} request: {e}") from e
    return DecodedRequest(api_key, api_version, header_version, header, body, bytes(view[accessor.position :]))


def decode_response(frame: bytes, api_key: int, api_version: int, header_version: int | None = None) -> DecodedResponse:
    """Reads a response to a request of `api_key` at `api_version`, with the response header version that
    request calls for unless `header_version` is given. An ApiVersions response that cannot be read at the
    request's version is read at v0, as clients do: a broker answers a version it does not support with a
    v0 body carrying UNSUPPORTED_VERSION."""
    try:
        message_type = ApiMessageType.from_api_key(api_key)
    except ValueError:
        raise DecodeError(f"unknown api key {api_key}") from None
    if header_version is None:
        header_version = message_type.response_header_version(api_version)
    view = memoryview(frame)
    accessor = ByteBufferAccessor(view)
    try:
        header = ResponseHeaderData().read(accessor, header_version)
    except Exception as e:
        raise DecodeError(f"cannot read a v{header_version} response header: {e}") from e
    start = accessor.position
    try:
        body = message_type.new_response().read(accessor, api_version)
        version = api_version
    except Exception as e:
        if api_key != API_VERSIONS_KEY or api_version == 0:
            raise DecodeError(f"cannot read {message_type.message_name} v{api_version} response: {e}") from e
        accessor.position = start
        try:
            body = message_type.new_response().read(accessor, 0)
        except Exception:
            raise DecodeError(f"cannot read {message_type.message_name} v{api_version} response: {e}") from e
        version = 0
    return DecodedResponse(
        api_key=api_key,
        api_version=version,
        header_version=header_version,
        correlation_id=int(header.correlation_id),
        body=body,
        trailing=bytes(view[accessor.position :]),
        header_size=start,
    )
