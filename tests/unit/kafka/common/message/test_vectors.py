"""Real bytes written by other clients and by Kafka itself decode with our generated classes and re-encode to
the same bytes. Sources and the meaning of each vector's `spec_check` are in
../shared/kafka-protocol-spec/vectors/README.md and pcaps/README.md."""

from __future__ import annotations

import ast
import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from kafka.common.errors import InvalidRequestException, UnsupportedVersionException
from kafka.common.message import ApiMessageType, RequestHeaderData, ResponseHeaderData
from kafka.common.message.generator import snake_case
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import Uuid

SHARED = Path(__file__).resolve().parents[5].parent / "shared" / "kafka-protocol-spec"


def _load(rel: str) -> list[dict[str, Any]]:
    data = json.loads((SHARED / rel).read_text())
    return data["vectors"] if "vectors" in data else data["frames"]


SARAMA = _load("vectors/sarama_vectors.json")
KAFKA_PYTHON = _load("vectors/kafka_python_vectors.json")
PCAP = _load("pcaps/pcap_vectors.json")


def _body_class(kind: str, api_key: int) -> Any:
    mt = ApiMessageType.from_api_key(api_key)
    return mt.request_class if kind == "request" else mt.response_class


def _same_facts(ours: Any, theirs: Any, path: str) -> None:
    """The independent spec-driven decoding in the vector file agrees with ours on every number, flag and string."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), path
        for k, v in theirs.items():
            _same_facts(ours[snake_case(k)], v, f"{path}.{snake_case(k)}")
    elif isinstance(theirs, list) and isinstance(ours, list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same_facts(a, b, f"{path}[{i}]")
    elif isinstance(theirs, bool) or isinstance(theirs, int):
        assert ours == theirs, path
    elif isinstance(theirs, str) and isinstance(ours, str):
        if _UUID_TEXT.fullmatch(theirs):  # the reference prints uuids in hex; Kafka prints base64
            theirs = str(Uuid.from_bytes(uuid.UUID(theirs).bytes))
        assert ours == theirs, path


_UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _ok(v: dict[str, Any]) -> bool:
    return v.get("spec_check") == "ok"


def _in_37(v: dict[str, Any]) -> bool:
    """Whether the vector's version exists in Kafka 3.7 (sarama also tests versions that came later)."""
    mt = ApiMessageType.from_api_key(int(v["api_key"]))
    return int(v["api_version"]) <= mt.highest_supported_version


SARAMA_BODIES = [v for v in SARAMA if v["kind"] in ("request", "response")]
SARAMA_OK = [v for v in SARAMA_BODIES if _ok(v) and _in_37(v)]
SARAMA_NEWER = [v for v in SARAMA_BODIES if not _in_37(v)]


def test_sarama_vector_counts() -> None:
    """The sarama file holds 440 spec-conformant bodies; all but those of versions newer than 3.7 are used."""
    assert len([v for v in SARAMA_BODIES if _ok(v)]) == 440
    assert len(SARAMA_OK) == 440 - len([v for v in SARAMA_NEWER if _ok(v)])
    assert len(SARAMA_OK) > 420


@pytest.mark.parametrize("vec", SARAMA_NEWER, ids=lambda v: v["id"])
def test_sarama_newer_version_is_unsupported(vec: dict[str, Any]) -> None:
    """A body of a version newer than Kafka 3.7 serves is refused as an unsupported version."""
    cls = _body_class(vec["kind"], int(vec["api_key"]))
    with pytest.raises(UnsupportedVersionException):
        cls().read(bytes.fromhex(vec["hex"]), int(vec["api_version"]))


@pytest.mark.parametrize("vec", SARAMA_OK, ids=lambda v: v["id"])
def test_sarama_body_round_trips(vec: dict[str, Any]) -> None:
    """A body from sarama's tests decodes at its version, agrees with the reference decoding, and re-encodes
    to the same bytes."""
    raw = bytes.fromhex(vec["hex"])
    version = int(vec["api_version"])
    cls = _body_class(vec["kind"], int(vec["api_key"]))
    acc = ByteBufferAccessor(raw)
    obj = cls().read(acc, version)
    assert acc.position == len(raw)
    assert obj.write(version) == raw
    decoded = ast.literal_eval(vec["decoded"]) if isinstance(vec["decoded"], str) else vec["decoded"]
    _same_facts(obj.to_dict(), decoded, cls.__name__)


@pytest.mark.parametrize(
    "vec",
    [v for v in SARAMA if v.get("note") and "v0 layout" in v["note"] and v["kind"] == "response"],
    ids=lambda v: v["id"],
)
def test_sarama_api_versions_error_in_v0_layout(vec: dict[str, Any]) -> None:
    """An UNSUPPORTED_VERSION ApiVersions answer is a v0-layout body: it decodes at v0 with error 35."""
    raw = bytes.fromhex(vec["hex"])
    obj = _body_class("response", 18)().read(raw, 0)
    assert obj.error_code == 35
    assert obj.write(0) == raw


@pytest.mark.parametrize(
    "vec",
    [v for v in SARAMA if v.get("spec_check", "").startswith("fail: null array") and _in_37(v)],
    ids=lambda v: v["id"],
)
def test_sarama_null_array_for_non_nullable_is_refused(vec: dict[str, Any]) -> None:
    """A null array where the definition forbids null is refused with InvalidRequestException, as Kafka's
    generated readers refuse it."""
    raw = bytes.fromhex(vec["hex"])
    cls = _body_class(vec["kind"], int(vec["api_key"]))
    with pytest.raises(InvalidRequestException):
        cls().read(raw, int(vec["api_version"]))


def _read_frame(kind: str, api_key: int, version: int, frame: bytes) -> tuple[Any, Any, int]:
    mt = ApiMessageType.from_api_key(api_key)
    acc = ByteBufferAccessor(frame)
    if kind == "request":
        hv = mt.request_header_version(version)
        header = RequestHeaderData().read(acc, hv)
    else:
        hv = mt.response_header_version(version)
        header = ResponseHeaderData().read(acc, hv)
    body = _body_class(kind, api_key)().read(acc, version)
    assert acc.position == len(frame)
    return header, body, hv


KP_OK = [v for v in KAFKA_PYTHON if _ok(v)]


@pytest.mark.parametrize("vec", KP_OK, ids=lambda v: f"{v['file']}:{v['line']}:{v['kind']}")
def test_kafka_python_frame_round_trips(vec: dict[str, Any]) -> None:
    """A whole frame (size, header, body) from kafka-python's tests decodes and re-encodes to the same bytes."""
    frame = bytes.fromhex(vec["frame_hex"])
    size = int.from_bytes(frame[:4], "big", signed=True)
    assert size == len(frame) - 4
    header, body, hv = _read_frame(vec["kind"], int(vec["api_key"]), int(vec["api_version"]), frame[4:])
    version = int(vec["api_version"])
    assert header.correlation_id == int(vec["correlation_id"])
    if vec["kind"] == "request":
        assert header.client_id == vec["client_id"]
    assert header.write(hv) + body.write(version) == frame[4:]


def test_kafka_python_v4_api_versions_request_is_an_unsupported_version() -> None:
    """kafka-python's ApiVersions v4 (newer than 3.7) is refused as an unsupported version, not misread."""
    vecs = [v for v in KAFKA_PYTHON if not _ok(v)]
    assert len(vecs) == 4
    for v in vecs:
        with pytest.raises(UnsupportedVersionException):
            _body_class("request", 18)().read(b"", int(v["api_version"]))


PCAP_OK = [v for v in PCAP if _ok(v)]


def test_pcap_vector_counts() -> None:
    """The captures hold the 47 frames the README says decode exactly."""
    assert len(PCAP_OK) == 47


@pytest.mark.parametrize("vec", PCAP_OK, ids=lambda v: f"{v['file']}:{v['frame']}:{v['kind']}")
def test_captured_kafka_frame_round_trips(vec: dict[str, Any]) -> None:
    """A frame captured from real Kafka traffic decodes and re-encodes to the same bytes."""
    frame = bytes.fromhex(vec["frame_hex"])
    version = int(vec["api_version"])
    header, body, hv = _read_frame(vec["kind"], int(vec["api_key"]), version, frame)
    assert hv == int(vec["header_version"])
    assert header.correlation_id == int(vec["correlation_id"])
    assert header.write(hv) + body.write(version) == frame
    decoded = ast.literal_eval(vec["decoded"]) if isinstance(vec["decoded"], str) else vec["decoded"]
    _same_facts(body.to_dict(), decoded, type(body).__name__)


def test_captured_api_versions_v0_request_has_trailing_bytes() -> None:
    """librdkafka's captured ApiVersions v0 requests carry 4 trailing zero bytes after an empty body."""
    vecs = [v for v in PCAP if v.get("spec_check") == "fail: 4 trailing bytes"]
    assert len(vecs) == 4
    for v in vecs:
        frame = bytes.fromhex(v["frame_hex"])
        acc = ByteBufferAccessor(frame)
        RequestHeaderData().read(acc, 1)
        _body_class("request", 18)().read(acc, 0)
        assert bytes(acc.buffer[acc.position :]) == b"\x00\x00\x00\x00"
