"""Real frames from kafka-python's tests and from packet captures parse and re-serialise to the same bytes."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from kafka.common.network.client_information import ClientInformation
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.response_header import ResponseHeader
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

SPEC_DIR = Path(__file__).resolve().parents[6] / "shared" / "kafka-protocol-spec"
PYTHON_VECTORS = SPEC_DIR / "vectors" / "kafka_python_vectors.json"
PCAP_VECTORS = SPEC_DIR / "pcaps" / "pcap_vectors.json"

pytestmark = pytest.mark.skipif(not PYTHON_VECTORS.exists(), reason="shared protocol vectors not present")


def _load(path: Path, key: str) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return list(json.loads(path.read_text())[key])


def _python_frames() -> list[dict[str, Any]]:
    return [v for v in _load(PYTHON_VECTORS, "vectors") if v["spec_check"] == "ok"]


def _pcap_frames() -> list[dict[str, Any]]:
    return [f for f in _load(PCAP_VECTORS, "frames") if f["spec_check"] == "ok"]


def _context(header: RequestHeader) -> RequestContext:
    return RequestContext(
        header, "vector", None, KafkaPrincipal.ANONYMOUS, "PLAINTEXT", "PLAINTEXT", ClientInformation.EMPTY, False
    )


def _check_request(frame: bytes, api_key: int, api_version: int) -> None:
    buf = ByteBufferAccessor(frame)
    header = RequestHeader.parse(buf)
    assert (header.api_key.id, header.api_version) == (api_key, api_version)
    header_bytes = frame[: buf.position]
    assert header.write() == header_bytes
    request = _context(header).parse_request(buf).request
    assert request.api_key.id == api_key
    assert header_bytes + request.serialize() == frame


def _check_response(frame: bytes, api_key: int, api_version: int) -> None:
    key = ApiKeys.for_id(api_key)
    buf = ByteBufferAccessor(frame)
    header = ResponseHeader.parse(buf, key.response_header_version(api_version))
    response = AbstractResponse.parse_response(key, buf, api_version)
    assert buf.position == len(frame)
    assert response.serialize_with_header(header, api_version) == frame
    assert all(count > 0 for count in response.error_counts().values())


@pytest.mark.parametrize("vector", _python_frames(), ids=lambda v: f"{v['kind']}-{v['api_key']}-v{v['api_version']}")
def test_kafka_python_frame(vector: dict[str, Any]) -> None:
    """A kafka-python frame (size, header, body) parses through the header and body classes and re-serialises."""
    frame = bytes.fromhex(vector["frame_hex"])
    (size,) = struct.unpack_from(">i", frame)
    assert size == len(frame) - 4
    if vector["kind"] == "request":
        _check_request(frame[4:], vector["api_key"], vector["api_version"])
    else:
        _check_response(frame[4:], vector["api_key"], vector["api_version"])


@pytest.mark.parametrize(
    "frame", _pcap_frames(), ids=lambda f: f"{f['file']}-{f['frame']}-{f['kind']}-{f['api_key']}-v{f['api_version']}"
)
def test_pcap_frame(frame: dict[str, Any]) -> None:
    """A captured frame (header and body) parses and re-serialises to the captured bytes."""
    data = bytes.fromhex(frame["frame_hex"])
    if frame["kind"] == "request":
        _check_request(data, frame["api_key"], frame["api_version"])
    else:
        _check_response(data, frame["api_key"], frame["api_version"])


def test_librdkafka_api_versions_v0_with_trailing_bytes() -> None:
    """The captured ApiVersions v0 requests of old librdkafka, with four extra bytes, parse as v0 requests."""
    frames = [
        f
        for f in _load(PCAP_VECTORS, "frames")
        if f["kind"] == "request" and f["spec_check"] == "fail: 4 trailing bytes"
    ]
    assert frames
    for f in frames:
        buf = ByteBufferAccessor(bytes.fromhex(f["frame_hex"]))
        header = RequestHeader.parse(buf)
        parsed = _context(header).parse_request(buf)
        assert isinstance(parsed.request, ApiVersionsRequest)
        assert parsed.request.version == 0
        assert parsed.size == 4


def test_api_versions_v4_requests_fall_back_to_v0() -> None:
    """kafka-python's ApiVersions v4 requests (newer than 3.7 knows) become v0 requests to answer with an error."""
    vectors = [v for v in _load(PYTHON_VECTORS, "vectors") if v["kind"] == "request" and v["api_version"] == 4]
    assert vectors
    for v in vectors:
        buf = ByteBufferAccessor(bytes.fromhex(v["frame_hex"]), 4)
        context = _context(RequestHeader.parse(buf))
        request = context.parse_request(buf).request
        assert isinstance(request, ApiVersionsRequest)
        assert request.unsupported_request_version == 4
        assert context.api_version() == 0
