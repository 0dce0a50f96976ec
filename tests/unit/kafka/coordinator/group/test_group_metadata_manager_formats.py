"""Byte-exact tests of the `__consumer_offsets` record formats in group_metadata_manager_formats."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kafka.common.errors import KafkaException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.coordinator.group import group_metadata_manager_formats as f
from kafka.coordinator.group.group_metadata import Empty, GroupMetadata, PreparingRebalance, Stable
from kafka.coordinator.group.member_metadata import MemberMetadata
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.server.kafka_config import KAFKA_0_10_0_IV1, KAFKA_2_0_IV0, KAFKA_2_2_IV0


def s(text: str) -> bytes:  # int16 length + UTF-8
    return struct.pack(">h", len(text.encode())) + text.encode()


def i16(v: int) -> bytes:
    return struct.pack(">h", v)


def i32(v: int) -> bytes:
    return struct.pack(">i", v)


def i64(v: int) -> bytes:
    return struct.pack(">q", v)


def test_offset_commit_key_bytes() -> None:
    """Key: version 1, group, topic, int32 partition; version 0 decodes the same way."""
    expected = i16(1) + s("grp") + s("topic") + i32(7)
    assert f.offset_commit_key("grp", TopicPartition("topic", 7)) == expected
    for raw in (expected, i16(0) + expected[2:]):
        key = f.read_message_key(raw)
        assert isinstance(key, f.OffsetKey) and str(key) == "[grp,topic,7]"


def test_group_metadata_key_bytes() -> None:
    """Key: version 2, group."""
    expected = i16(2) + s("grp")
    assert f.group_metadata_key("grp") == expected
    assert f.read_message_key(expected) == f.GroupMetadataKey(2, "grp")


@pytest.mark.parametrize(
    ("value", "api", "expected"),
    [
        (OffsetAndMetadata(5, 3, "md", 100, None), f.LATEST_API_VERSION, i16(3) + i64(5) + i32(3) + s("md") + i64(100)),
        (OffsetAndMetadata(5, None, "", 100, None), f.LATEST_API_VERSION, i16(3) + i64(5) + i32(-1) + s("") + i64(100)),
        (OffsetAndMetadata(5, 3, "md", 100, None), f.KAFKA_2_1_IV0, i16(2) + i64(5) + s("md") + i64(100)),
        (OffsetAndMetadata(5, None, "md", 100, None), KAFKA_2_0_IV0, i16(1) + i64(5) + s("md") + i64(100) + i64(-1)),
        (
            OffsetAndMetadata(5, None, "md", 100, 900),
            f.LATEST_API_VERSION,
            i16(1) + i64(5) + s("md") + i64(100) + i64(900),
        ),
    ],
)
def test_offset_commit_value_bytes(value: OffsetAndMetadata, api: f.ApiVersion, expected: bytes) -> None:
    """The value version follows the inter-broker version and the expiry, as 2.8 chooses it."""
    assert f.offset_commit_value(value, api) == expected
    decoded = f.read_offset_message_value(expected)
    written_epoch = value.leader_epoch if expected[:2] == i16(3) else None
    assert decoded == OffsetAndMetadata(5, written_epoch, value.metadata, 100, value.expire_timestamp)


def test_offset_commit_value_version_0_decodes() -> None:
    """Version 0 (offset, metadata, commit timestamp) still decodes."""
    assert f.read_offset_message_value(i16(0) + i64(9) + s("x") + i64(1)) == OffsetAndMetadata(9, None, "x", 1, None)
    assert f.read_offset_message_value(None) is None


def _stable_group(time: MockTime) -> GroupMetadata:
    group = GroupMetadata("grp", Empty(), time)
    group.add(MemberMetadata("m1", "inst", "cid", "chost", 300, 100, "consumer", [("range", b"\x01\x02")]))
    group.add_static_member("inst", "m1")
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    group.transition_to(Stable())
    return group


def _group_value(version: int, timestamp: int) -> bytes:
    out = i16(version) + s("consumer") + i32(1) + s("range") + s("m1")
    if version >= 2:
        out += i64(timestamp)
    out += i32(1) + s("m1")
    if version >= 3:
        out += s("inst")
    out += s("cid") + s("chost")
    if version >= 1:
        out += i32(300)
    return out + i32(100) + i32(2) + b"\x01\x02" + i32(1) + b"\x09"


@pytest.mark.parametrize(
    ("version", "api"),
    [(0, KAFKA_0_10_0_IV1), (1, KAFKA_2_0_IV0), (2, KAFKA_2_2_IV0), (3, f.LATEST_API_VERSION)],
)
def test_group_metadata_value_bytes(version: int, api: f.ApiVersion) -> None:
    """Each value version has exactly its fields, and decodes back to the group."""
    time = MockTime(start_ms=4242)
    group = _stable_group(time)
    expected = _group_value(version, 4242)
    assert f.group_metadata_value(group, {"m1": b"\x09"}, api) == expected
    loaded = f.read_group_message_value("grp", expected, time)
    assert loaded is not None and loaded.is_(Stable()) and loaded.generation_id == 1
    assert loaded.protocol_name == "range" and loaded.is_leader("m1")
    member = loaded.get("m1")
    assert member.assignment == b"\x09" and member.metadata("range") == b"\x01\x02"
    assert member.rebalance_timeout_ms == (100 if version == 0 else 300)
    assert member.group_instance_id == ("inst" if version >= 3 else None)
    assert loaded.current_state_timestamp == (4242 if version >= 2 else None)


def test_empty_group_value_with_null_protocol_and_leader() -> None:
    """An empty group writes null protocol and leader, and loads as Empty."""
    time = MockTime(start_ms=7)
    group = GroupMetadata("grp", Empty(), time)
    expected = i16(3) + s("") + i32(0) + i16(-1) + i16(-1) + i64(7) + i32(0)
    assert f.group_metadata_value(group, {}) == expected
    loaded = f.read_group_message_value("grp", expected, time)
    assert loaded is not None and loaded.is_(Empty()) and loaded.protocol_type is None and loaded.leader_or_null is None


def test_missing_assignment_is_refused() -> None:
    """Writing a member without assignment raises as Kafka does."""
    with pytest.raises(f.IllegalStateException, match="with no assignment"):
        f.group_metadata_value(_stable_group(MockTime()), {})


@pytest.mark.parametrize(
    ("reader", "raw", "message"),
    [
        (f.read_message_key, i16(3) + s("g"), "Unknown group metadata message version: 3"),
        (f.read_offset_message_value, i16(4) + i64(1), "Unknown offset message version: 4"),
        (lambda b: f.read_group_message_value("g", b, MockTime()), i16(-1), "Unknown group metadata message version"),
    ],
)
def test_unknown_versions(reader, raw: bytes, message: str) -> None:  # type: ignore[no-untyped-def]
    """Unknown versions raise IllegalStateException naming the version."""
    with pytest.raises(f.IllegalStateException, match=message):
        reader(raw)


@given(st.binary(max_size=64))
def test_garbage_never_escapes_as_index_error(raw: bytes) -> None:
    """Arbitrary bytes either decode or raise KafkaException/IllegalStateException."""
    for reader in (f.read_message_key, f.read_offset_message_value):
        try:
            reader(raw)
        except (KafkaException, f.IllegalStateException):
            pass
    try:
        f.read_group_message_value("g", raw, MockTime())
    except (KafkaException, f.IllegalStateException):
        pass


text = st.text(max_size=20)


@given(text, text, st.integers(0, 2**31 - 1))
def test_offset_key_round_trip(group: str, topic: str, partition: int) -> None:
    """Any offset key decodes to what was written."""
    key = f.read_message_key(f.offset_commit_key(group, TopicPartition(topic, partition)))
    assert key == f.OffsetKey(1, f.GroupTopicPartition(group, TopicPartition(topic, partition)))


@given(
    st.integers(-(2**63), 2**63 - 1),
    st.one_of(st.none(), st.integers(0, 2**31 - 1)),
    text,
    st.integers(-(2**63), 2**63 - 1),
    st.one_of(st.none(), st.integers(0, 2**63 - 1)),
)
def test_offset_value_round_trip(offset: int, epoch: int | None, md: str, ts: int, expire: int | None) -> None:
    """Any offset value round-trips at the latest version."""
    value = OffsetAndMetadata(offset, epoch, md, ts, expire)
    decoded = f.read_offset_message_value(f.offset_commit_value(value))
    assert decoded == (value if expire is None else OffsetAndMetadata(offset, None, md, ts, expire))


def test_formatters_print_kafka_lines() -> None:
    """Console formatters print `key::value` lines as 2.8 does and skip the other key kind."""
    out = io.BytesIO()
    key = f.offset_commit_key("grp", TopicPartition("t", 0))
    f.OffsetsMessageFormatter().write_to(key, f.offset_commit_value(OffsetAndMetadata(5, 2, "m", 9, None)), out)
    f.OffsetsMessageFormatter().write_to(key, None, out)
    f.OffsetsMessageFormatter().write_to(f.group_metadata_key("grp"), None, out)
    assert out.getvalue().decode() == (
        "[grp,t,0]::OffsetAndMetadata(offset=5, leaderEpoch=Optional[2], metadata=m, commitTimestamp=9, "
        "expireTimestamp=None)\n[grp,t,0]::NULL\n"
    )
    out = io.BytesIO()
    time = MockTime(start_ms=1)
    value = f.group_metadata_value(_stable_group(time), {"m1": b"\x09"})
    f.GroupMetadataMessageFormatter(time).write_to(f.group_metadata_key("grp"), value, out)
    f.GroupMetadataMessageFormatter(time).write_to(key, value, out)
    assert out.getvalue().decode() == (
        "grp::GroupMetadata(groupId=grp, generation=1, protocolType=Some(consumer), currentState=Stable, "
        "members=HashMap(m1 -> MemberMetadata(memberId=m1, groupInstanceId=Some(inst), clientId=cid, "
        "clientHost=chost, sessionTimeoutMs=100, rebalanceTimeoutMs=300, supportedProtocols=List(range), )))\n"
    )


def test_format_record_key_and_value() -> None:
    """DumpLogSegments' decoder text for offsets, tombstones and non-consumer groups."""
    key = f.offset_commit_key("grp", TopicPartition("t", 0))
    assert f.format_record_key_and_value(key, f.offset_commit_value(OffsetAndMetadata(5, None, "", 9, None))) == (
        "offset_commit::group=grp,partition=t-0",
        "offset=5",
    )
    assert f.format_record_key_and_value(key, None)[1] == "<DELETE>"
    group = GroupMetadata("grp", Empty(), MockTime())
    group.add(MemberMetadata("m1", None, "c", "h", 1, 1, "connect", [("p", b"")]))
    group.transition_to(PreparingRebalance())
    group.init_next_generation()
    value = f.group_metadata_value(group, {"m1": b"\x00\xab"})
    assert f.format_record_key_and_value(f.group_metadata_key("grp"), value, MockTime()) == (
        "group_metadata::group=grp",
        '{"protocolType":"connect","protocol":"p","generationId":1,"assignment":"{m1=AB}"}',
    )
    with pytest.raises(KafkaException, match="missing key"):
        f.format_record_key_and_value(None, None)
