"""Session manifests: reading and writing, rules and their selectors, path patterns, where captures are."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka.tools.conformance.capture import Exchange
from kafka.tools.conformance.manifest import (
    Manifest,
    ManifestError,
    Rule,
    TopicSetup,
    is_manifest,
    load_manifest,
    manifest_from_json,
    path_pattern,
)


def _exchange(index: int, conn: int, api_key: int, cid: int) -> Exchange:
    from kafka.tools.conformance.capture import FrameEvent

    return Exchange(index, conn, FrameEvent("request", conn, 0.0, b"", api_key=api_key, correlation_id=cid), None)


def test_manifest_survives_saving_and_loading(tmp_path: Path) -> None:
    """Every field, topic and rule reads back as saved; the capture is found beside the manifest."""
    manifest = Manifest(
        session="s",
        capture="s.jsonl",
        client={"name": "kcat", "version": "1.7.1"},
        scenario="produce",
        description="d",
        topics=[TopicSetup("t", 3, 1, {"max.message.bytes": "1000"}), TopicSetup("auto", create=False)],
        groups=["g"],
        broker_configs={"num.partitions": "1"},
        rules=[Rule("ignore", "why", api_key=18, paths=["api_keys"])],
        reviewed="checked",
        extra={"recorded_seconds": 1.5},
    )
    path = tmp_path / "s.json"
    manifest.save(path)
    back = load_manifest(path)
    assert back.to_json() == manifest.to_json()
    assert back.capture_path() == tmp_path / "s.jsonl"
    assert is_manifest(path) and not is_manifest(tmp_path / "s.jsonl")


def test_rule_selectors_take_values_and_lists() -> None:
    """A rule applies where every selector it gives matches, a list selector matching any of its values."""
    rule = Rule("skip-replay", "why", conn=[0, 2], api_key=3)
    assert rule.matches(_exchange(0, 2, 3, 9))
    assert not rule.matches(_exchange(0, 1, 3, 9))
    assert not rule.matches(_exchange(0, 0, 18, 9))
    assert Rule("skip-compare", "why", index=4).matches(_exchange(4, 0, 1, 1))


@pytest.mark.parametrize(
    ("pattern", "path", "matched"),
    [
        ("api_keys", "api_keys[3].max_version", True),
        ("api_keys", "api_keys_extra", False),
        ("topics[*].topic_id", "topics[12].topic_id", True),
        ("topics[*].topic_id", "topics[1].name", False),
        (
            "responses[*].partition_responses[*].log_start_offset",
            "responses[0].partition_responses[2].log_start_offset",
            True,
        ),
        ("*.error_code", "members.error_code", True),
    ],
)
def test_path_patterns(pattern: str, path: str, matched: bool) -> None:
    """`*` stands for one name or index, and a pattern covers everything below it."""
    assert bool(path_pattern(pattern).match(path)) is matched
    assert Rule("ignore", "r", paths=[pattern]).ignores(path) is matched


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"format": "other", "version": 1}, "not a kafka-port-session manifest"),
        ({"format": "kafka-port-session", "version": 1, "capture": "c"}, "KeyError: 'session'"),
        (
            {
                "format": "kafka-port-session",
                "version": 1,
                "session": "s",
                "capture": "c",
                "rules": [{"action": "skip-compare"}],
            },
            "every rule needs a reason",
        ),
        (
            {
                "format": "kafka-port-session",
                "version": 1,
                "session": "s",
                "capture": "c",
                "rules": [{"action": "drop", "reason": "r"}],
            },
            "unknown rule action 'drop'",
        ),
        (
            {
                "format": "kafka-port-session",
                "version": 1,
                "session": "s",
                "capture": "c",
                "rules": [{"action": "ignore", "reason": "r"}],
            },
            "an ignore rule needs paths",
        ),
    ],
)
def test_bad_manifests_are_refused(obj: dict, message: str) -> None:
    """A manifest that breaks the format fails with a ManifestError saying why."""
    with pytest.raises(ManifestError, match=message):
        manifest_from_json(obj)


def test_pcaps_paths_follow_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A `pcaps:` capture is looked up under $KAFKA_PROTOCOL_PCAPS."""
    monkeypatch.setenv("KAFKA_PROTOCOL_PCAPS", str(tmp_path))
    manifest = Manifest(session="s", capture="pcaps:deepflow/x.pcap")
    assert manifest.capture_path() == tmp_path / "deepflow" / "x.pcap"
