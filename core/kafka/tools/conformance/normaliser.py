"""Decoded messages as trees of plain values, with what legitimately differs between two runs normalised.

Which fields are normalised, and how, follows from the message definitions alone (field_kinds): broker ids,
hosts, ports, cluster ids, member ids, producer ids and epochs, leader epochs, generations, fetch session ids
and topic ids become symbols numbered by first appearance in the session (`broker_id#1`), so that which
values are equal is still compared; timestamps, throttle times and error message texts become placeholders;
offsets are shifted by their partition's base. Everything else is kept as it is and compared exactly.

A partition's base offset is learned from the first Produce or ListOffsets response of that partition in
the session that has no error: its base offset, or the offset it lists. Two runs of the same session that
wrote the same records then agree on every offset relative to it, whatever the log held before.

One Normaliser serves one side (recorded or replayed) of one session, fed that side's messages in the
recorded order, so that both sides number their symbols alike.

    kafka-run-class.sh kafka.tools.conformance.Normaliser CAPTURE   # prints every exchange normalised

Not a port of a Kafka class.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from kafka.common.message.spec import FieldSpec, MessageSpec
from kafka.tools.conformance.field_kinds import PLACEHOLDERS, RENAMED, Kind, classify, is_sentinel
from kafka.tools.conformance.message_tree import (
    KeyedList,
    Symbol,
    attribute_name,
    fields_at,
    key_fields,
    plain,
    request_spec,
    response_spec,
    struct_fields,
)
from kafka.tools.conformance.record_sets import records_tree

PRODUCE = 0
LIST_OFFSETS = 2
METADATA = 3


@dataclass(frozen=True, slots=True)
class Where:
    """The topic and partition a field sits under, as far as the enclosing structs say."""

    topic: str | None = None
    partition: int | None = None


class OffsetBases:
    """The base offset of each partition of one side of a session, and the topic names behind topic ids."""

    def __init__(self) -> None:
        self.bases: dict[tuple[str, int], int] = {}
        self.topic_names: dict[str, str] = {}  # topic id (as text) -> name, from Metadata responses

    def get(self, where: Where) -> int | None:
        if where.topic is None or where.partition is None:
            return None
        return self.bases.get((where.topic, where.partition))

    def topic_for_id(self, topic_id: Any) -> str:
        text = str(topic_id)
        return self.topic_names.get(text, f"id:{text}")

    def learn(self, api_key: int, version: int, body: Any) -> list[tuple[str, int, int]]:
        """Learns from a response; returns the (topic, partition, base) it learned now."""
        learned: list[tuple[str, int, int]] = []
        if api_key == METADATA:
            for topic in getattr(body, "topics", None) or []:
                topic_id = getattr(topic, "topic_id", None)
                if topic.name is not None and topic_id is not None:
                    self.topic_names[str(topic_id)] = topic.name
        elif api_key == PRODUCE:
            for topic in body.responses:
                for p in topic.partition_responses:
                    if p.error_code == 0 and p.base_offset >= 0:
                        self._set(topic.name, p.index, p.base_offset, learned)
        elif api_key == LIST_OFFSETS:
            for topic in body.topics:
                for p in topic.partitions:
                    if p.error_code != 0:
                        continue
                    offset = p.old_style_offsets[0] if version == 0 and p.old_style_offsets else p.offset
                    if offset >= 0:
                        self._set(topic.name, p.partition_index, offset, learned)
        return learned

    def _set(self, topic: str, partition: int, offset: int, learned: list[tuple[str, int, int]]) -> None:
        key = (topic, partition)
        if key not in self.bases:
            self.bases[key] = offset
            learned.append((topic, partition, offset))


class Normaliser:
    """`normalise=False` gives the same trees with every value as it is (for reading a capture)."""

    def __init__(self, normalise: bool = True) -> None:
        self.normalise = normalise
        self.bases = OffsetBases()
        self._symbols: dict[Kind, dict[Any, Symbol]] = {}
        self._request = False  # the batches of a request carry offsets relative to nothing: kept as they are

    def symbol(self, kind: Kind, value: Any) -> Symbol:
        table = self._symbols.setdefault(kind, {})
        key = str(value) if kind is Kind.TOPIC_ID else value
        sym = table.get(key)
        if sym is None:
            sym = table[key] = Symbol(kind.value, len(table) + 1)
        return sym

    def response(self, api_key: int, version: int, body: Any) -> dict[str, Any]:
        """The normalised tree of a response body; learns base offsets from it first."""
        self.bases.learn(api_key, version, body)
        spec = response_spec(api_key)
        return self._struct(body, spec.fields, spec, version, Where())

    def request(self, api_key: int, version: int, body: Any) -> dict[str, Any]:
        spec = request_spec(api_key)
        self._request = True
        try:
            return self._struct(body, spec.fields, spec, version, Where())
        finally:
            self._request = False

    # ---- the walk -----------------------------------------------------------------------------------

    def _where(self, obj: Any, present: list[FieldSpec], spec: MessageSpec, where: Where) -> Where:
        topic, partition = where.topic, where.partition
        named = False
        for f in present:
            if f.is_array:
                continue
            kind = classify(spec.name, f)
            value = getattr(obj, attribute_name(f.name))
            if kind is Kind.TOPIC_NAME and value is not None:
                topic, named = value, True
            elif kind is Kind.TOPIC_ID and value is not None and not named:
                topic = self.bases.topic_for_id(value)
            elif kind is Kind.PARTITION and value is not None:
                partition = value
        if (topic, partition) == (where.topic, where.partition):
            return where
        return replace(where, topic=topic, partition=partition)

    def _struct(
        self, obj: Any, fields: list[FieldSpec], spec: MessageSpec, version: int, where: Where
    ) -> dict[str, Any]:
        present = fields_at(fields, version)
        where = self._where(obj, present, spec, where)
        out: dict[str, Any] = {}
        for f in present:
            name = attribute_name(f.name)
            out[name] = self._value(getattr(obj, name), f, spec, version, where)
        unknown = getattr(obj, "_unknown_tagged_fields", None)
        if unknown:
            out["_unknown_tagged_fields"] = [[tag, bytes(data).hex()] for tag, data in unknown]
        return out

    def _value(self, value: Any, f: FieldSpec, spec: MessageSpec, version: int, where: Where) -> Any:
        if value is None:
            return None
        kind = classify(spec.name, f)
        if f.is_array:
            if not f.is_struct:
                return [self._leaf(kind, v, where) for v in value]
            sub = struct_fields(spec, f)
            keys = key_fields(spec, f)
            if not keys:
                return [self._struct(e, sub, spec, version, where) for e in value]
            # Visit the elements in key order, so that both sides number the symbols within them alike
            # whatever order each sent the elements in; keep them at their own positions.
            items: list[Any] = [None] * len(value)
            for i in _key_order(value, keys, sub, spec):
                items[i] = self._struct(value[i], sub, spec, version, where)
            return KeyedList(items, tuple(attribute_name(k) for k in keys))
        if f.is_struct:
            return self._struct(value, struct_fields(spec, f), spec, version, where)
        if f.type == "records":
            return records_tree(
                value, lambda k, v: v if k is Kind.OFFSET and self._request else self._leaf(k, v, where)
            )
        return self._leaf(kind, value, where)

    def _leaf(self, kind: Kind | None, value: Any, where: Where) -> Any:
        if isinstance(value, (bytes, bytearray, memoryview)):
            return bytes(value).hex()
        if not self.normalise:
            return value if isinstance(value, (int, str, float, bool)) or value is None else str(value)
        if kind is None or kind in (Kind.TOPIC_NAME, Kind.PARTITION) or is_sentinel(kind, value):
            return value if isinstance(value, (int, str, float, bool)) or value is None else str(value)
        placeholder = PLACEHOLDERS.get(kind)
        if placeholder is not None:
            return placeholder
        if kind is Kind.OFFSET:
            base = self.bases.get(where)
            return value - base if base is not None else value
        if kind in RENAMED:
            return self.symbol(kind, value)
        return value


def _key_order(value: list[Any], keys: tuple[str, ...], sub: list[FieldSpec], spec: MessageSpec) -> list[int]:
    """Element positions sorted by their key fields, where those are compared as they are (names); in the
    order given where a key is itself normalised (broker ids)."""
    key_specs = [f for f in sub if f.map_key]
    if any(classify(spec.name, f) in RENAMED for f in key_specs):
        return list(range(len(value)))

    def sort_key(i: int) -> tuple[str, ...]:
        return tuple(repr(getattr(value[i], attribute_name(f.name))) for f in key_specs)

    return sorted(range(len(value)), key=sort_key)


def main(argv: Sequence[str] | None = None) -> int:
    from kafka.tools.conformance.capture import CaptureFormatError, read_capture
    from kafka.tools.conformance.decoder import DecodeError, decode_request, decode_response

    parser = argparse.ArgumentParser(
        prog="kafka-run-class.sh kafka.tools.conformance.Normaliser",
        description="Prints every exchange of a capture as normalised JSON trees (what the comparer compares).",
    )
    parser.add_argument("capture", help="a capture (.jsonl) or a pcap/pcapng file")
    parser.add_argument("--requests", action="store_true", help="print the requests too")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        capture = read_capture(args.capture)
    except (OSError, CaptureFormatError, ValueError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    norm = Normaliser()
    for ex in capture.exchanges():
        line: dict[str, Any] = {"exchange": ex.describe()}
        try:
            if args.requests and ex.request is not None:
                req = decode_request(ex.request.data)
                line["request"] = plain(norm.request(req.api_key, req.api_version, req.body))
            if ex.response is not None and ex.api_key is not None and ex.api_version is not None:
                resp = decode_response(ex.response.data, ex.api_key, ex.api_version)
                line["response"] = plain(norm.response(resp.api_key, resp.api_version, resp.body))
        except DecodeError as e:
            line["error"] = str(e)
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
