"""Tests of kafka.coordinator.group.member_metadata, after Kafka's MemberMetadataTest."""

from __future__ import annotations

import pytest

from kafka.coordinator.group.member_metadata import MemberMetadata, MemberSummary


def _member(protocols: list[tuple[str, bytes]], instance: str | None = None) -> MemberMetadata:
    return MemberMetadata("m", instance, "client", "host", 10000, 5000, "consumer", protocols)


def test_metadata_and_vote_follow_preference_order() -> None:
    """metadata() finds a protocol's bytes and vote() picks the first preferred candidate."""
    member = _member([("range", b"\x00"), ("roundrobin", b"\x01")])
    assert member.metadata("roundrobin") == b"\x01"
    assert member.vote({"range", "roundrobin"}) == "range"
    assert member.vote({"roundrobin", "sticky"}) == "roundrobin"
    with pytest.raises(ValueError, match="candidate"):
        member.vote({"sticky"})
    with pytest.raises(ValueError, match="does not support protocol"):
        member.metadata("sticky")


def test_matches_needs_same_names_bytes_and_order() -> None:
    """matches() compares names, bytes and order."""
    member = _member([("range", b"\x00"), ("roundrobin", b"\x01")])
    assert member.matches([("range", b"\x00"), ("roundrobin", b"\x01")])
    assert not member.matches([("roundrobin", b"\x01"), ("range", b"\x00")])
    assert not member.matches([("range", b"\x00"), ("roundrobin", b"\x02")])
    assert not member.matches([("range", b"\x00")])


def test_summary_and_static_flag() -> None:
    """summary() carries the chosen protocol's metadata; summary_no_metadata() none."""
    member = _member([("range", b"\x07")], instance="inst")
    member.assignment = b"\x09"
    assert member.is_static_member
    assert member.summary("range") == MemberSummary("m", "inst", "client", "host", b"\x07", b"\x09")
    assert member.summary_no_metadata() == MemberSummary("m", "inst", "client", "host", b"", b"")
    assert not _member([]).is_static_member


def test_has_satisfied_heartbeat() -> None:
    """New members need a real heartbeat; parked established members count as alive."""
    member = _member([("range", b"")])
    assert not member.has_satisfied_heartbeat()
    member.awaiting_join_callback = lambda result: None
    assert member.has_satisfied_heartbeat()
    member.is_new = True
    assert not member.has_satisfied_heartbeat()
    member.heartbeat_satisfied = True
    assert member.has_satisfied_heartbeat()


def test_str_as_kafka() -> None:
    """The text matches Kafka's toString, which console tools print."""
    member = _member([("range", b""), ("rr", b"")], instance="i")
    assert str(member) == (
        "MemberMetadata(memberId=m, groupInstanceId=Some(i), clientId=client, clientHost=host, "
        "sessionTimeoutMs=5000, rebalanceTimeoutMs=10000, supportedProtocols=List(range, rr), )"
    )
