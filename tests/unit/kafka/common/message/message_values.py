"""Builds message objects with values in every field a version carries, from the message's spec.

`filled(spec_name, version)` makes one with deterministic non-default values; `strategy(spec_name, version)`
is a hypothesis strategy over all valid values. Both fill only fields present at that version (regular
or tagged), so that the result can be written at that version.
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import strategies as st

from kafka.common.message.generator import MessageGenerator, load_module, snake_case
from kafka.common.message.spec import FieldSpec, load_spec
from kafka.common.protocol.types import Uuid

_INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "uint16": (0, 2**16 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
}


class _Ctx:
    def __init__(self, spec_name: str) -> None:
        self.spec = load_spec(spec_name)
        self.gen = MessageGenerator(self.spec)
        self.module = load_module(spec_name)

    def cls(self, struct_name: str) -> Any:
        return getattr(self.module, struct_name)

    def fields_at(self, struct_name: str, version: int) -> list[FieldSpec]:
        return [f for f in self.gen.structs[struct_name].fields if f.versions.contains(version)]

    def flexible(self, f: FieldSpec, version: int) -> bool:
        return self.gen.field_flexible(f, version)


def filled(spec_name: str, version: int) -> Any:
    """An object of the message with a distinct non-default value in every field present at `version`."""
    ctx = _Ctx(spec_name)
    counter = itertools.count(1)
    return _fill_struct(ctx, ctx.spec.data_class_name, version, counter)


def _fill_struct(ctx: _Ctx, struct_name: str, version: int, counter: itertools.count[int]) -> Any:
    obj = ctx.cls(struct_name)()
    for f in ctx.fields_at(struct_name, version):
        setattr(obj, snake_case(f.name), _fill_value(ctx, f, version, counter))
    return obj


def _fill_scalar(ctx: _Ctx, f: FieldSpec, t: str, version: int, counter: itertools.count[int]) -> Any:
    n = next(counter)
    if t in _INT_RANGES:
        lo, hi = _INT_RANGES[t]
        return lo + (n * 7919) % (hi - lo) if t != "int8" else (n % 100) + 1
    if t == "bool":
        return True
    if t == "float64":
        return n + 0.5
    if t == "string":
        return f"s{n}-\u00e9"
    if t == "uuid":
        return Uuid(n, n * 3)
    if t == "bytes":
        return bytes([n % 256]) * 3
    if t == "records":
        return bytes(range(n % 50, n % 50 + 20))
    return _fill_struct(ctx, t, version, counter)


def _fill_value(ctx: _Ctx, f: FieldSpec, version: int, counter: itertools.count[int]) -> Any:
    if f.is_array:
        et = f.element_type
        items = [_fill_scalar(ctx, f, et, version, counter) for _ in range(2)]
        if ctx.gen.is_collection(f):
            coll = ctx.cls(ctx.gen.collection_name(f))()
            coll.extend(items)
            return coll
        return items
    return _fill_scalar(ctx, f, f.type, version, counter)


def strategy(spec_name: str, version: int) -> st.SearchStrategy[Any]:
    """Any valid object of the message at `version`, nulls included where the version allows them."""
    ctx = _Ctx(spec_name)
    return _struct_strategy(ctx, ctx.spec.data_class_name, version, depth=0)


def _struct_strategy(ctx: _Ctx, struct_name: str, version: int, depth: int) -> st.SearchStrategy[Any]:
    fields = ctx.fields_at(struct_name, version)
    cls = ctx.cls(struct_name)
    parts = {snake_case(f.name): _value_strategy(ctx, f, version, depth) for f in fields}

    def build(values: dict[str, Any]) -> Any:
        obj = cls()
        for k, v in values.items():
            setattr(obj, k, v)
        return obj

    return st.fixed_dictionaries(parts).map(build)


def _scalar_strategy(ctx: _Ctx, f: FieldSpec, t: str, version: int, depth: int) -> st.SearchStrategy[Any]:
    if t in _INT_RANGES:
        lo, hi = _INT_RANGES[t]
        return st.integers(lo, hi)
    if t == "bool":
        return st.booleans()
    if t == "float64":
        return st.floats(allow_nan=False)
    if t == "string":
        return st.text(max_size=12)
    if t == "uuid":
        return st.binary(min_size=16, max_size=16).map(Uuid.from_bytes)
    if t == "bytes":
        return st.binary(max_size=12)
    if t == "records":
        return st.binary(max_size=40)
    return _struct_strategy(ctx, t, version, depth + 1)


def _value_strategy(ctx: _Ctx, f: FieldSpec, version: int, depth: int) -> st.SearchStrategy[Any]:
    nullable = f.nullable_versions.contains(version)
    if f.is_array:
        elem = _scalar_strategy(ctx, f, f.element_type, version, depth)
        size = 3 if depth < 2 else 1
        base: st.SearchStrategy[Any] = st.lists(elem, max_size=size)
        if ctx.gen.is_collection(f):
            coll_cls = ctx.cls(ctx.gen.collection_name(f))
            base = base.map(lambda items: coll_cls(items))
    else:
        base = _scalar_strategy(ctx, f, f.type, version, depth)
    if nullable:
        return st.none() | base
    return base
