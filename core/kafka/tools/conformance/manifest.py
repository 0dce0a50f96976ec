"""The manifest of a recorded session: who made it, what it exercises, what a replay needs and may skip.

A manifest is a JSON file beside its capture:

    {
      "format": "kafka-port-session", "version": 1,
      "session": "confluent-produce-acks",
      "capture": "confluent-produce-acks.jsonl",
      "client": {"name": "confluent-kafka", "version": "2.16.1", "library": "librdkafka 2.16.0"},
      "scenario": "produce with acks 0, 1 and all",
      "description": "...",
      "topics": [{"name": "acks", "partitions": 1, "replication_factor": 1, "configs": {}}],
      "groups": [],
      "broker_configs": {"offsets.topic.num.partitions": "1"},
      "replay": {"max_gap_ms": 100},
      "rules": [{"api_key": 18, "action": "ignore", "paths": ["api_keys"], "reason": "..."}],
      "reviewed": "what was checked by hand before the session became a fixture"
    }

`topics` are deleted if they exist and created before a replay (`"create": false`: only made sure not to
exist, for topics the session creates itself) and deleted after it; `groups` are deleted before and after.
`broker_configs` are the overrides the broker must run with. A rule selects exchanges by any of `index`,
`conn`, `correlation_id` and `api_key` (each a number or a list of numbers), and says what to do with
them, always with a reason: `skip-replay` (not sent), `skip-compare` (sent and checked for invariants, not
compared), or `ignore` (compared except under `paths`, which may use `*` for one name or index:
`topics[*].topic_id`).

A capture path starting with `pcaps:` is relative to the captures of real Kafka traffic this project keeps
beside its checkout ($KAFKA_PROTOCOL_PCAPS, by default ../shared/kafka-protocol-spec/pcaps from the
checkout); any other relative path is relative to the manifest.

Not a port of a Kafka class.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka.tools.conformance.capture import Exchange

FORMAT_NAME = "kafka-port-session"
FORMAT_VERSION = 1

ACTIONS = ("skip-replay", "skip-compare", "ignore")

_REPO_ROOT = Path(__file__).resolve().parents[4]
PCAPS_PREFIX = "pcaps:"


class ManifestError(Exception):
    """A manifest that does not follow the format."""


def pcaps_dir() -> Path:
    """Where `pcaps:` capture paths point."""
    env = os.environ.get("KAFKA_PROTOCOL_PCAPS")
    if env:
        return Path(env)
    return _REPO_ROOT.parent / "shared" / "kafka-protocol-spec" / "pcaps"


@dataclass(slots=True)
class TopicSetup:
    name: str
    partitions: int = 1
    replication_factor: int = 1
    configs: dict[str, str] = field(default_factory=dict)
    create: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "partitions": self.partitions,
            "replication_factor": self.replication_factor,
            "configs": dict(self.configs),
        }
        if not self.create:
            out["create"] = False
        return out


@dataclass(slots=True)
class Rule:
    action: str
    reason: str
    # Selectors: each is a value or a list of values; a rule applies where every given selector matches.
    index: int | list[int] | None = None
    conn: int | list[int] | None = None
    correlation_id: int | list[int] | None = None
    api_key: int | list[int] | None = None
    paths: list[str] = field(default_factory=list)
    _patterns: list[re.Pattern[str]] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ManifestError(f"unknown rule action {self.action!r} (one of {', '.join(ACTIONS)})")
        if not self.reason:
            raise ManifestError("every rule needs a reason")
        if self.action == "ignore" and not self.paths:
            raise ManifestError("an ignore rule needs paths")
        self._patterns = [path_pattern(p) for p in self.paths]

    def matches(self, exchange: Exchange) -> bool:
        return (
            _selects(self.index, exchange.index)
            and _selects(self.conn, exchange.conn)
            and _selects(self.correlation_id, exchange.correlation_id)
            and _selects(self.api_key, exchange.api_key)
        )

    def ignores(self, path: str) -> bool:
        return any(p.match(path) for p in self._patterns)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in ("index", "conn", "correlation_id", "api_key"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        out["action"] = self.action
        if self.paths:
            out["paths"] = list(self.paths)
        out["reason"] = self.reason
        return out


def _selects(selector: int | list[int] | None, value: int | None) -> bool:
    if selector is None:
        return True
    if isinstance(selector, list):
        return value in selector
    return selector == value


def path_pattern(pattern: str) -> re.Pattern[str]:
    """A path pattern as a regex: `*` stands for one name or one index, and a pattern also matches every
    path below it (`topics` matches `topics[0].name`)."""
    out = []
    for token in re.split(r"(\*)", pattern):
        out.append(r"[^.\[\]]+" if token == "*" else re.escape(token))
    return re.compile("^" + "".join(out) + r"(?:$|[.\[])")


@dataclass(slots=True)
class ReplayOptions:
    # A request waits until the requests still unanswered on other connections have been with the broker for
    # the recorded gap between them, at most this long: the broker then handles them in the recorded order.
    max_gap_ms: int = 100
    # How long a request waits for the responses it was recorded after.
    dependency_timeout_ms: int = 15_000
    # How long the replay waits for the last responses once every request is sent.
    response_timeout_ms: int = 30_000

    def to_json(self) -> dict[str, Any]:
        return {
            "max_gap_ms": self.max_gap_ms,
            "dependency_timeout_ms": self.dependency_timeout_ms,
            "response_timeout_ms": self.response_timeout_ms,
        }


@dataclass(slots=True)
class Manifest:
    session: str
    capture: str
    client: dict[str, Any] = field(default_factory=dict)
    scenario: str = ""
    description: str = ""
    topics: list[TopicSetup] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    broker_configs: dict[str, str] = field(default_factory=dict)
    replay: ReplayOptions = field(default_factory=ReplayOptions)
    rules: list[Rule] = field(default_factory=list)
    reviewed: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def capture_path(self) -> Path:
        if self.capture.startswith(PCAPS_PREFIX):
            return pcaps_dir() / self.capture[len(PCAPS_PREFIX) :]
        p = Path(self.capture)
        if not p.is_absolute() and self.path is not None:
            p = self.path.parent / p
        return p

    def rules_for(self, exchange: Exchange) -> list[Rule]:
        return [r for r in self.rules if r.matches(exchange)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "session": self.session,
            "capture": self.capture,
            "client": self.client,
            "scenario": self.scenario,
            "description": self.description,
            "topics": [t.to_json() for t in self.topics],
            "groups": list(self.groups),
            "broker_configs": dict(self.broker_configs),
            "replay": self.replay.to_json(),
            "rules": [r.to_json() for r in self.rules],
            "reviewed": self.reviewed,
        }
        out.update(self.extra)
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")


def manifest_from_json(obj: dict[str, Any], path: Path | None = None) -> Manifest:
    where = str(path) if path else "<manifest>"
    if obj.get("format") != FORMAT_NAME:
        raise ManifestError(f"{where}: not a {FORMAT_NAME} manifest")
    if obj.get("version") != FORMAT_VERSION:
        raise ManifestError(f"{where}: manifest version {obj.get('version')} is not supported")
    try:
        topics = [
            TopicSetup(
                name=str(t["name"]),
                partitions=int(t.get("partitions", 1)),
                replication_factor=int(t.get("replication_factor", 1)),
                configs={str(k): str(v) for k, v in t.get("configs", {}).items()},
                create=bool(t.get("create", True)),
            )
            for t in obj.get("topics", [])
        ]
        rules = [
            Rule(
                action=str(r["action"]),
                reason=str(r.get("reason", "")),
                index=r.get("index"),
                conn=r.get("conn"),
                correlation_id=r.get("correlation_id"),
                api_key=r.get("api_key"),
                paths=[str(p) for p in r.get("paths", [])],
            )
            for r in obj.get("rules", [])
        ]
        replay_obj = obj.get("replay", {})
        defaults = ReplayOptions()
        replay = ReplayOptions(
            max_gap_ms=int(replay_obj.get("max_gap_ms", defaults.max_gap_ms)),
            dependency_timeout_ms=int(replay_obj.get("dependency_timeout_ms", defaults.dependency_timeout_ms)),
            response_timeout_ms=int(replay_obj.get("response_timeout_ms", defaults.response_timeout_ms)),
        )
        known = {
            "format",
            "version",
            "session",
            "capture",
            "client",
            "scenario",
            "description",
            "topics",
            "groups",
            "broker_configs",
            "replay",
            "rules",
            "reviewed",
        }
        return Manifest(
            session=str(obj["session"]),
            capture=str(obj["capture"]),
            client=dict(obj.get("client", {})),
            scenario=str(obj.get("scenario", "")),
            description=str(obj.get("description", "")),
            topics=topics,
            groups=[str(g) for g in obj.get("groups", [])],
            broker_configs={str(k): str(v) for k, v in obj.get("broker_configs", {}).items()},
            replay=replay,
            rules=rules,
            reviewed=str(obj.get("reviewed", "")),
            extra={k: v for k, v in obj.items() if k not in known},
            path=path,
        )
    except ManifestError as e:
        raise ManifestError(f"{where}: {e}") from None
    except (KeyError, TypeError, ValueError) as e:
        raise ManifestError(f"{where}: {type(e).__name__}: {e}") from None


def load_manifest(path: str | Path) -> Manifest:
    path = Path(path)
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ManifestError(f"{path}: not JSON: {e}") from None
    return manifest_from_json(obj, path)


def is_manifest(path: str | Path) -> bool:
    """True for a `.json` file that is a session manifest."""
    path = Path(path)
    if path.suffix != ".json":
        return False
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return False
    return isinstance(obj, dict) and obj.get("format") == FORMAT_NAME
