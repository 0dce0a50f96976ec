"""Port of generator/src/main/java/org/apache/kafka/message/{MessageSpec,StructSpec,FieldSpec,Versions}.java.

The model of a message definition, read from this project's own `.spec` files (one per message in
`specs/`). A `.spec` file carries the facts of Kafka's message definitions (names, types, versions,
defaults, tags) in a compact line format and none of their prose:

    request Produce key=0 valid=0-10 flexible=9+ deprecated=0-6 listeners=zkBroker,broker
    transactionalId string 3+ null=3+ default="null" entity=transactionalId
    topicData []TopicProduceData 0+
      name string 0+ mapKey entity=topicName
      ...
    common LeaderIdAndEpoch 12+
      leaderId int32 12+ default="-1" entity=brokerId

The first line names the kind (request, response, header, data), the message name and its version
ranges. Each following line is a field: name, type, versions, then options. Two spaces of indent
nest a field in the struct above it. A line `common Name versions` starts a common struct. Options:
`null=R` nullable versions, `tag=N@R` tag and tagged versions, `default=J` the default as JSON
(kept as written in the definition: a string or a number), `ignorable`, `mapKey`, `entity=E`,
`flexible=R` (a field's own flexible versions), `zeroCopy`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

SPEC_DIR = Path(__file__).with_name("specs")

PRIMITIVE_TYPES = frozenset(
    ["bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "string", "uuid", "bytes", "records"]
)

_TOKEN = re.compile(r'\S+="(?:[^"\\]|\\.)*"|\S+')


class SpecError(Exception):
    """A `.spec` file that does not follow the format."""


@dataclass(frozen=True, slots=True)
class Versions:
    """An inclusive range of versions; `NONE` is the empty range (lowest > highest)."""

    lowest: int
    highest: int

    NONE_STRING = "none"

    @staticmethod
    def parse(text: str) -> Versions:
        text = text.strip()
        if text == "none":
            return NONE_VERSIONS
        if text.endswith("+"):
            return Versions(int(text[:-1]), 0x7FFF)
        if "-" in text:
            lo, hi = text.split("-", 1)
            return Versions(int(lo), int(hi))
        v = int(text)
        return Versions(v, v)

    @property
    def empty(self) -> bool:
        return self.lowest > self.highest

    def contains(self, version: int) -> bool:
        return self.lowest <= version <= self.highest

    def intersect(self, other: Versions) -> Versions:
        lo, hi = max(self.lowest, other.lowest), min(self.highest, other.highest)
        return Versions(lo, hi) if lo <= hi else NONE_VERSIONS

    def __str__(self) -> str:
        if self.empty:
            return "none"
        if self.highest == 0x7FFF:
            return f"{self.lowest}+"
        if self.lowest == self.highest:
            return str(self.lowest)
        return f"{self.lowest}-{self.highest}"


NONE_VERSIONS = Versions(0x7FFF, -1)
ALL_VERSIONS = Versions(0, 0x7FFF)


@dataclass(slots=True)
class FieldSpec:
    name: str
    type: str
    versions: Versions
    nullable_versions: Versions = NONE_VERSIONS
    tagged_versions: Versions = NONE_VERSIONS
    tag: int | None = None
    default: str | int | bool | None = None  # as written in the definition; None = not given
    ignorable: bool = False
    map_key: bool = False
    entity_type: str | None = None
    flexible_versions: Versions | None = None
    zero_copy: bool = False
    fields: list[FieldSpec] = field(default_factory=list)

    @property
    def is_array(self) -> bool:
        return self.type.startswith("[]")

    @property
    def element_type(self) -> str:
        return self.type[2:] if self.is_array else self.type

    @property
    def is_struct(self) -> bool:
        """True where the field (or its array's element) is a struct rather than a primitive."""
        return self.element_type not in PRIMITIVE_TYPES

    @property
    def tagged(self) -> bool:
        return self.tag is not None


@dataclass(slots=True)
class StructSpec:
    name: str
    versions: Versions
    fields: list[FieldSpec]


@dataclass(slots=True)
class MessageSpec:
    kind: str  # request, response, header, data
    name: str  # e.g. ProduceRequest
    api_key: int | None
    valid_versions: Versions
    flexible_versions: Versions
    deprecated_versions: Versions | None = None
    listeners: list[str] | None = None
    latest_version_unstable: bool | None = None
    fields: list[FieldSpec] = field(default_factory=list)
    common_structs: list[StructSpec] = field(default_factory=list)

    @property
    def data_class_name(self) -> str:
        return self.name + "Data"


def _parse_field(tokens: list[str], where: str) -> FieldSpec:
    if len(tokens) < 3:
        raise SpecError(f"{where}: a field needs a name, a type and versions")
    spec = FieldSpec(name=tokens[0], type=tokens[1], versions=Versions.parse(tokens[2]))
    for tok in tokens[3:]:
        key, _, value = tok.partition("=")
        if key == "null":
            spec.nullable_versions = Versions.parse(value)
        elif key == "tag":
            tag, _, tv = value.partition("@")
            spec.tag = int(tag)
            spec.tagged_versions = Versions.parse(tv)
        elif key == "default":
            spec.default = json.loads(value)
        elif key == "entity":
            spec.entity_type = value
        elif key == "flexible":
            spec.flexible_versions = Versions.parse(value)
        elif tok == "ignorable":
            spec.ignorable = True
        elif tok == "mapKey":
            spec.map_key = True
        elif tok == "zeroCopy":
            spec.zero_copy = True
        else:
            raise SpecError(f"{where}: unknown option {tok!r}")
    return spec


def parse_spec(text: str, source: str = "<spec>") -> MessageSpec:
    """Parses one `.spec` file's text into a MessageSpec."""
    lines = [(i + 1, line.rstrip()) for i, line in enumerate(text.splitlines())]
    lines = [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise SpecError(f"{source}: empty")
    n, head = lines[0]
    toks = _TOKEN.findall(head)
    if len(toks) < 2 or toks[0] not in ("request", "response", "header", "data"):
        raise SpecError(f"{source}:{n}: the first line must be 'request|response|header|data Name ...'")
    kind, base = toks[0], toks[1]
    name = base + kind.capitalize() if kind in ("request", "response") else base
    opts: dict[str, str] = {}
    for tok in toks[2:]:
        k, _, v = tok.partition("=")
        opts[k] = v
    msg = MessageSpec(
        kind=kind,
        name=name,
        api_key=int(opts["key"]) if "key" in opts else None,
        valid_versions=Versions.parse(opts.get("valid", "0")),
        flexible_versions=Versions.parse(opts.get("flexible", "none")),
        deprecated_versions=Versions.parse(opts["deprecated"]) if "deprecated" in opts else None,
        listeners=opts["listeners"].split(",") if "listeners" in opts else None,
        latest_version_unstable=(opts["unstable"] == "true") if "unstable" in opts else None,
    )
    # Stack of (indent, list to append to). Indent 0 holds the message's fields or a common struct.
    stack: list[tuple[int, list[FieldSpec]]] = [(0, msg.fields)]
    last: FieldSpec | None = None
    last_indent = 0
    for n, line in lines[1:]:
        indent = len(line) - len(line.lstrip(" "))
        if indent % 2:
            raise SpecError(f"{source}:{n}: indent must be a multiple of two spaces")
        toks = _TOKEN.findall(line)
        where = f"{source}:{n}"
        if indent == 0 and toks[0] == "common":
            if len(toks) != 3:
                raise SpecError(f"{where}: 'common Name versions'")
            struct = StructSpec(toks[1], Versions.parse(toks[2]), [])
            msg.common_structs.append(struct)
            stack = [(2, struct.fields)]
            last, last_indent = None, 2
            continue
        if indent > last_indent:
            if last is None or indent != last_indent + 2:
                raise SpecError(f"{where}: unexpected indent")
            stack.append((indent, last.fields))
        else:
            while len(stack) > 1 and stack[-1][0] > indent:
                stack.pop()
            if stack[-1][0] != indent:
                raise SpecError(f"{where}: indent does not match any open struct")
        f = _parse_field(toks, where)
        stack[-1][1].append(f)
        last, last_indent = f, indent
    return msg


def load_spec(name: str) -> MessageSpec:
    """Loads `specs/<name>.spec`, e.g. load_spec("ProduceRequest")."""
    path = SPEC_DIR / f"{name}.spec"
    return parse_spec(path.read_text(encoding="utf-8"), str(path))


def all_spec_names() -> list[str]:
    return sorted(p.stem for p in SPEC_DIR.glob("*.spec"))


def format_spec(msg: MessageSpec) -> str:
    """The `.spec` text of a MessageSpec; parse_spec(format_spec(m)) == m."""
    base = msg.name[: -len(msg.kind)] if msg.kind in ("request", "response") else msg.name
    head = [msg.kind, base]
    if msg.api_key is not None:
        head.append(f"key={msg.api_key}")
    head.append(f"valid={msg.valid_versions}")
    head.append(f"flexible={msg.flexible_versions}")
    if msg.deprecated_versions is not None:
        head.append(f"deprecated={msg.deprecated_versions}")
    if msg.listeners is not None:
        head.append("listeners=" + ",".join(msg.listeners))
    if msg.latest_version_unstable is not None:
        head.append("unstable=" + ("true" if msg.latest_version_unstable else "false"))
    out = [" ".join(head)]

    def emit(fields: list[FieldSpec], depth: int) -> None:
        for f in fields:
            parts = [f.name, f.type, str(f.versions)]
            if not f.nullable_versions.empty:
                parts.append(f"null={f.nullable_versions}")
            if f.tag is not None:
                parts.append(f"tag={f.tag}@{f.tagged_versions}")
            if f.default is not None:
                parts.append("default=" + json.dumps(f.default))
            if f.ignorable:
                parts.append("ignorable")
            if f.map_key:
                parts.append("mapKey")
            if f.entity_type:
                parts.append(f"entity={f.entity_type}")
            if f.flexible_versions is not None:
                parts.append(f"flexible={f.flexible_versions}")
            if f.zero_copy:
                parts.append("zeroCopy")
            out.append("  " * depth + " ".join(parts))
            emit(f.fields, depth + 1)

    emit(msg.fields, 0)
    for cs in msg.common_structs:
        out.append(f"common {cs.name} {cs.versions}")
        emit(cs.fields, 1)
    return "\n".join(out) + "\n"
