"""Requests whose content came from earlier responses, rewritten from the responses of the replay.

A client copies some values from a response into later requests: the member id and generation JoinGroup
gave it (SyncGroup, Heartbeat, OffsetCommit, LeaveGroup, its next JoinGroup), the producer id and epoch of
InitProducerId (the batches of its Produce requests, its next InitProducerId), the fetch session id of a
Fetch response (its next Fetch), the topic ids and leader epochs of Metadata (Fetch v13+, ListOffsets,
OffsetForLeaderEpoch), offsets (a Fetch at the offset the last one ended at). A broker makes those values
up afresh on every run, so a recorded request would carry stale ones.

The rewriter learns a table per kind (field_kinds.BOUND) from each pair of responses to the same request,
the recorded one and the replayed one, walking both along the definition: wherever a field of a bound kind
holds a recorded value r and a replayed value p, r maps to p. Before a request is sent, every field of a
bound kind whose recorded value has a mapping gets the replayed value, offsets are moved from the recorded
partition's base to the replayed one's (normaliser.OffsetBases), and the producer id and epoch inside each
record batch are mapped too (with the batch CRC recomputed). A request nothing applies to is sent as the
exact bytes recorded.

Not a port of a Kafka class.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from kafka.common.message.spec import FieldSpec, MessageSpec
from kafka.common.record.memory_records import MemoryRecords
from kafka.tools.conformance.decoder import DecodedResponse, decode_request
from kafka.tools.conformance.field_kinds import BOUND, RENAMED, Kind, classify, is_sentinel
from kafka.tools.conformance.message_tree import attribute_name, fields_at, key_fields, response_spec, struct_fields
from kafka.tools.conformance.normaliser import OffsetBases, Where
from kafka.tools.conformance.record_sets import patch_producer_ids


def _key(kind: Kind, value: Any) -> Any:
    return str(value) if kind is Kind.TOPIC_ID else value


class RequestRewriter:
    """Shared by every connection of one replayed session (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.bindings: dict[Kind, dict[Any, Any]] = {}
        self.recorded_bases = OffsetBases()
        self.replayed_bases = OffsetBases()

    # ---- learning -----------------------------------------------------------------------------------

    def learn(self, recorded: DecodedResponse, replayed: DecodedResponse) -> None:
        """Learns from the recorded and the replayed response to the same request."""
        with self._lock:
            self.recorded_bases.learn(recorded.api_key, recorded.api_version, recorded.body)
            self.replayed_bases.learn(replayed.api_key, replayed.api_version, replayed.body)
            if recorded.api_key != replayed.api_key or recorded.api_version != replayed.api_version:
                return
            spec = response_spec(recorded.api_key)
            self._bind(recorded.body, replayed.body, spec.fields, spec, recorded.api_version)

    def _bind(self, a: Any, b: Any, fields: list[FieldSpec], spec: MessageSpec, version: int) -> None:
        for f in fields_at(fields, version):
            name = attribute_name(f.name)
            va, vb = getattr(a, name), getattr(b, name)
            if va is None or vb is None:
                continue
            if f.is_struct:
                sub = struct_fields(spec, f)
                if not f.is_array:
                    self._bind(va, vb, sub, spec, version)
                    continue
                for ea, eb in _align(va, vb, key_fields(spec, f), sub, spec):
                    self._bind(ea, eb, sub, spec, version)
                continue
            kind = classify(spec.name, f)
            if kind not in BOUND:
                continue
            pairs = zip(va, vb) if f.is_array else [(va, vb)]
            for x, y in pairs:
                if not is_sentinel(kind, x) and not is_sentinel(kind, y):
                    self.bindings.setdefault(kind, {})[_key(kind, x)] = y

    # ---- rewriting ----------------------------------------------------------------------------------

    def rewrite(self, frame: bytes) -> tuple[bytes, list[str]]:
        """The request frame to send in place of a recorded one, and what was changed (empty: the recorded bytes
        are returned as they are). A request the definitions cannot read is sent unchanged."""
        try:
            request = decode_request(frame)
        except Exception:
            return frame, []
        changes: list[str] = []
        with self._lock:
            self._rewrite(request.body, request.spec.fields, request.spec, request.api_version, Where(), "", changes)
        if not changes:
            return frame, []
        return request.encode(), changes

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
                topic = self.recorded_bases.topic_for_id(value)
            elif kind is Kind.PARTITION and value is not None:
                partition = value
        return replace(where, topic=topic, partition=partition)

    def _rewrite(
        self,
        obj: Any,
        fields: list[FieldSpec],
        spec: MessageSpec,
        version: int,
        where: Where,
        path: str,
        changes: list[str],
    ) -> None:
        present = fields_at(fields, version)
        where = self._where(obj, present, spec, where)
        for f in present:
            name = attribute_name(f.name)
            value = getattr(obj, name)
            if value is None:
                continue
            child = f"{path}.{name}" if path else name
            if f.is_struct:
                sub = struct_fields(spec, f)
                if f.is_array:
                    for i, e in enumerate(value):
                        self._rewrite(e, sub, spec, version, where, f"{child}[{i}]", changes)
                else:
                    self._rewrite(value, sub, spec, version, where, child, changes)
                continue
            if f.type == "records":
                patched = patch_producer_ids(
                    value, self.bindings.get(Kind.PRODUCER_ID, {}), self.bindings.get(Kind.PRODUCER_EPOCH, {})
                )
                if patched is not None:
                    setattr(obj, name, MemoryRecords.readable_records(patched))
                    changes.append(f"{child}: producer ids and epochs of the batches")
                continue
            kind = classify(spec.name, f)
            if kind is None:
                continue
            if f.is_array:
                new_list = [self._map(kind, v, where) for v in value]
                if new_list != list(value):
                    setattr(obj, name, new_list)
                    changes.append(f"{child}: {list(value)} -> {new_list}")
                continue
            new = self._map(kind, value, where)
            if new != value or type(new) is not type(value):
                setattr(obj, name, new)
                changes.append(f"{child}: {value} -> {new}")

    def _map(self, kind: Kind, value: Any, where: Where) -> Any:
        if is_sentinel(kind, value):
            return value
        if kind is Kind.OFFSET:
            recorded_base = self.recorded_bases.get(where)
            replayed_base = self.replayed_bases.get(where)
            if recorded_base is None or replayed_base is None:
                return value
            return value - recorded_base + replayed_base
        if kind in BOUND:
            table = self.bindings.get(kind)
            if table:
                return table.get(_key(kind, value), value)
        return value


def _align(
    a: list[Any], b: list[Any], keys: tuple[str, ...], sub: list[FieldSpec], spec: MessageSpec
) -> list[tuple[Any, Any]]:
    """Pairs the elements of two struct arrays: by key where the definition gives one that is compared as it
    is (a name), else by position."""
    key_specs = [f for f in sub if f.map_key]
    if not keys or any(classify(spec.name, f) in RENAMED for f in key_specs):
        return list(zip(a, b))
    by_key: dict[tuple[Any, ...], list[Any]] = {}
    for e in b:
        by_key.setdefault(tuple(getattr(e, attribute_name(f.name)) for f in key_specs), []).append(e)
    out = []
    for e in a:
        match = by_key.get(tuple(getattr(e, attribute_name(f.name)) for f in key_specs))
        if match:
            out.append((e, match.pop(0)))
    return out
