"""Proofs for the message definitions and the generated classes: the definitions equal Kafka's, and every
message at every version writes and reads back what it was given."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import ApiMessageType
from kafka.common.message.generator import load_module
from kafka.common.message.spec import all_spec_names, format_spec, load_spec, parse_spec
from tests.unit.kafka.common.message import message_values
from tests.unit.kafka.common.message.official_specs import OFFICIAL_DIR, load_official, official_paths

SPEC_NAMES = all_spec_names()


def _versions(name: str) -> range:
    spec = load_spec(name)
    return range(spec.valid_versions.lowest, spec.valid_versions.highest + 1)


def _message_versions() -> list[tuple[str, int]]:
    return [(name, v) for name in SPEC_NAMES for v in _versions(name)]


def test_every_official_definition_has_ours() -> None:
    """Each of Kafka 3.7's 158 message definitions has a .spec file of ours, and we have no extra ones."""
    official = sorted(load_official(p).name for p in official_paths())
    assert len(official) == 158
    assert SPEC_NAMES == official


@pytest.mark.parametrize("path", official_paths(), ids=lambda p: p.stem)
def test_definition_equals_official(path) -> None:  # type: ignore[no-untyped-def]
    """Our definition carries the same facts as Kafka's, field by field: names, types, versions, nullable and
    tagged versions, tags, defaults, ignorable, map keys, entity types, flexible versions, common structs."""
    official = load_official(path)
    ours = load_spec(official.name)
    assert ours.kind == official.kind
    assert ours.api_key == official.api_key
    assert ours.valid_versions == official.valid_versions
    assert ours.flexible_versions == official.flexible_versions
    assert ours.deprecated_versions == official.deprecated_versions
    assert ours.listeners == official.listeners
    assert bool(ours.latest_version_unstable) == bool(official.latest_version_unstable)

    def compare(a: list, b: list, where: str) -> None:
        assert [f.name for f in a] == [f.name for f in b], where
        for fa, fb in zip(a, b):
            at = f"{where}.{fa.name}"
            for attr in (
                "type",
                "versions",
                "nullable_versions",
                "tagged_versions",
                "tag",
                "default",
                "ignorable",
                "map_key",
                "entity_type",
                "flexible_versions",
                "zero_copy",
            ):
                assert getattr(fa, attr) == getattr(fb, attr), f"{at}: {attr}"
            compare(fa.fields, fb.fields, at)

    compare(ours.fields, official.fields, official.name)
    assert [(c.name, c.versions) for c in ours.common_structs] == [
        (c.name, c.versions) for c in official.common_structs
    ]
    for ca, cb in zip(ours.common_structs, official.common_structs):
        compare(ca.fields, cb.fields, f"{official.name}.{ca.name}")


def test_spec_text_round_trips() -> None:
    """Formatting a parsed definition gives back the text of the file, so the format has one spelling."""
    for name in SPEC_NAMES:
        spec = load_spec(name)
        assert parse_spec(format_spec(spec)) == spec


def test_official_dir_is_the_shared_one() -> None:
    """The official definitions compared against are those in ../shared/kafka-protocol-spec/3.7."""
    assert OFFICIAL_DIR.is_dir() and (OFFICIAL_DIR / "ProduceRequest.json").is_file()


def test_api_message_type_has_every_api_key() -> None:
    """ApiMessageType lists keys 0..74 and builds each request and response class."""
    keys = sorted(m.api_key for m in ApiMessageType)
    assert keys == list(range(75))
    for m in ApiMessageType:
        assert m.new_request().API_KEY == m.api_key
        assert m.new_response().API_KEY == m.api_key
        assert type(m.new_request()).__name__ == m.message_name + "RequestData"


@pytest.mark.parametrize(("name", "version"), _message_versions())
def test_filled_message_round_trips(name: str, version: int) -> None:
    """A message with a non-default value in every field of a version reads back equal, byte for byte."""
    obj = message_values.filled(name, version)
    data = obj.write(version)
    assert obj.size(version) == len(data)
    cls = type(obj)
    back = cls().read(data, version)
    assert back.to_dict() == obj.to_dict()
    assert back.write(version) == data


@pytest.mark.parametrize("name", SPEC_NAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_any_message_round_trips(name: str, data: st.DataObject) -> None:
    """Any valid values (nulls, extremes, unicode, empty and long arrays) at any version read back equal."""
    version = data.draw(st.sampled_from(list(_versions(name))))
    obj = data.draw(message_values.strategy(name, version))
    raw = obj.write(version)
    back = type(obj)().read(raw, version)
    assert back.to_dict() == obj.to_dict()
    assert back.write(version) == raw


def test_non_default_field_outside_its_versions_is_refused() -> None:
    """Writing a non-ignorable field at a version that lacks it fails, as in Java; an ignorable one is dropped."""
    from kafka.common.message import ProduceRequestData, ProduceResponseData

    req = ProduceRequestData(transactional_id="txn", acks=-1, timeout_ms=100)
    with pytest.raises(UnsupportedVersionException):
        req.write(2)
    assert ProduceRequestData().read(req.write(3), 3).transactional_id == "txn"
    resp = ProduceResponseData(throttle_time_ms=5)
    assert resp.write(0) == b"\x00\x00\x00\x00"  # throttle_time_ms is ignorable before v1


def test_tagged_fields_at_default_are_left_out() -> None:
    """A tagged field whose value is its default is not written (librdkafka <= 2.1 relies on it)."""
    from kafka.common.message import ApiVersionsResponseData

    resp = ApiVersionsResponseData(error_code=0)
    raw = resp.write(3)
    # error_code, empty compact array, throttle_time_ms, then an empty tagged-field section.
    assert raw == b"\x00\x00" + b"\x01" + b"\x00\x00\x00\x00" + b"\x00"
    resp.zk_migration_ready = True
    raw2 = resp.write(3)
    assert raw2.endswith(b"\x01\x03\x01\x01")  # one tagged field: tag 3, size 1, true
    assert ApiVersionsResponseData().read(raw2, 3).zk_migration_ready is True


def test_unknown_tagged_fields_are_kept_and_written_back() -> None:
    """Tagged fields this code does not know survive a read and a write, in tag order."""
    from kafka.common.message import ApiVersionsRequestData

    raw = b"\x04abc\x041.0" + b"\x02\x05\x02hi\x09\x00"
    req = ApiVersionsRequestData().read(raw, 3)
    assert req.client_software_name == "abc"
    assert req.unknown_tagged_fields() == [(5, b"hi"), (9, b"")]
    assert req.write(3) == raw


def test_generated_classes_are_cached_and_named() -> None:
    """Generating a message twice gives the same module; its classes carry readable qualified names."""
    m1 = load_module("FetchResponse")
    m2 = load_module("FetchResponse")
    assert m1 is m2
    cls = m1.FetchResponseData
    assert cls.FetchableTopicResponse.__module__ == "kafka.common.message.generated.FetchResponseData"
    assert "def _read_FetchResponseData_12" in m1.__source__


def test_compiled_code_cache_survives_corruption() -> None:
    """A cached compiled module that is corrupt is regenerated, not trusted, and the cache is written again."""
    from kafka.common.message import generator

    # Entries made with an earlier generator or runtime (another digest) may be in a working tree's cache.
    for stale in generator._CACHE_DIR.glob("HeartbeatRequest.*.bin"):
        stale.unlink(missing_ok=True)
    source, _ = generator._compiled("HeartbeatRequest")
    (entry,) = list(generator._CACHE_DIR.glob("HeartbeatRequest.*.bin"))
    entry.write_bytes(b"\x00garbage")
    source_again, code = generator._compiled("HeartbeatRequest")
    assert source_again == source
    namespace: dict = {}
    from kafka.common.message import _runtime

    namespace.update(_runtime.namespace())
    exec(code, namespace)
    assert namespace["HeartbeatRequestData"]().write(4) == generator.load_module(
        "HeartbeatRequest"
    ).HeartbeatRequestData().write(4)
    assert entry.read_bytes() != b"\x00garbage"
