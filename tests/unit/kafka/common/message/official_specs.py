"""Reads Kafka's official message JSON (../shared/kafka-protocol-spec/3.7) into our spec model.

Used by the test that proves our `.spec` files carry the same facts, field by field, and, run as a
script, to write `.spec` files from a newer set of official definitions:

    python -m tests.unit.kafka.common.message.official_specs ../shared/kafka-protocol-spec/3.7
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from kafka.common.message.spec import SPEC_DIR, FieldSpec, MessageSpec, StructSpec, Versions, format_spec

OFFICIAL_DIR = Path(__file__).resolve().parents[5].parent / "shared" / "kafka-protocol-spec" / "3.7"

_COMMENT = re.compile(r"^\s*//.*$", re.M)


def _field(d: dict) -> FieldSpec:
    tagged = d.get("taggedVersions")
    return FieldSpec(
        name=d["name"],
        type=d["type"],
        versions=Versions.parse(d["versions"]),
        nullable_versions=Versions.parse(d["nullableVersions"]) if "nullableVersions" in d else Versions.parse("none"),
        tagged_versions=Versions.parse(tagged) if tagged is not None else Versions.parse("none"),
        tag=int(d["tag"]) if "tag" in d else None,
        default=d.get("default"),
        ignorable=bool(d.get("ignorable", False)),
        map_key=bool(d.get("mapKey", False)),
        entity_type=d.get("entityType"),
        flexible_versions=Versions.parse(d["flexibleVersions"]) if "flexibleVersions" in d else None,
        zero_copy=bool(d.get("zeroCopy", False)),
        fields=[_field(f) for f in d.get("fields", [])],
    )


def load_official(path: Path) -> MessageSpec:
    d = json.loads(_COMMENT.sub("", path.read_text(encoding="utf-8")))
    kind = d["type"]
    return MessageSpec(
        kind=kind,
        name=d["name"],
        api_key=d.get("apiKey"),
        valid_versions=Versions.parse(d["validVersions"]),
        flexible_versions=Versions.parse(d["flexibleVersions"]),
        deprecated_versions=Versions.parse(d["deprecatedVersions"]) if "deprecatedVersions" in d else None,
        listeners=d.get("listeners"),
        latest_version_unstable=d.get("latestVersionUnstable"),
        fields=[_field(f) for f in d["fields"]],
        common_structs=[
            StructSpec(cs["name"], Versions.parse(cs["versions"]), [_field(f) for f in cs["fields"]])
            for cs in d.get("commonStructs", [])
        ],
    )


def official_paths(directory: Path = OFFICIAL_DIR) -> list[Path]:
    return sorted(p for p in directory.glob("*.json"))


def main(argv: list[str]) -> int:
    directory = Path(argv[1]) if len(argv) > 1 else OFFICIAL_DIR
    SPEC_DIR.mkdir(exist_ok=True)
    for path in official_paths(directory):
        msg = load_official(path)
        (SPEC_DIR / f"{msg.name}.spec").write_text(format_spec(msg), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
