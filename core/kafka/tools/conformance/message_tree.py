"""Walking a decoded message along its definition: which fields a version has, where nested structs are
defined, which arrays are keyed collections, and the values a tree of plain data is built from.

Not a port of a Kafka class.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from kafka.common.message import ApiMessageType
from kafka.common.message.generator import snake_case
from kafka.common.message.spec import FieldSpec, MessageSpec


@cache
def attribute_name(field_name: str) -> str:
    """The attribute a generated class gives a field (`PartitionIndex` -> `partition_index`)."""
    return snake_case(field_name)


def struct_fields(spec: MessageSpec, f: FieldSpec) -> list[FieldSpec]:
    """The fields of the struct (or struct array) `f`: its own, or those of the common struct it names."""
    if f.fields:
        return f.fields
    for cs in spec.common_structs:
        if cs.name == f.element_type:
            return cs.fields
    raise KeyError(f"{spec.name}: no struct {f.element_type}")


def fields_at(fields: list[FieldSpec], version: int) -> list[FieldSpec]:
    """The fields that exist at `version` (a tagged field only where its tagged versions say)."""
    return [f for f in fields if f.versions.contains(version) and (not f.tagged or f.tagged_versions.contains(version))]


def key_fields(spec: MessageSpec, f: FieldSpec) -> tuple[str, ...]:
    """The map-key fields of a struct array, empty for an ordinary array."""
    if not (f.is_array and f.is_struct):
        return ()
    return tuple(x.name for x in struct_fields(spec, f) if x.map_key)


@cache
def request_spec(api_key: int) -> MessageSpec:
    return ApiMessageType.from_api_key(api_key).request_spec


@cache
def response_spec(api_key: int) -> MessageSpec:
    return ApiMessageType.from_api_key(api_key).response_spec


class KeyedList(list[Any]):
    """A list of structs that the definition makes a map (its elements have map-key fields): compared by key,
    in whatever order each side sent them."""

    def __init__(self, items: list[Any], keys: tuple[str, ...]) -> None:
        super().__init__(items)
        self.keys = keys


@dataclass(frozen=True, slots=True)
class Symbol:
    """A value replaced by its identity within a session: the n-th distinct value of its kind."""

    kind: str
    n: int

    def __str__(self) -> str:
        return f"{self.kind}#{self.n}"

    __repr__ = __str__


def plain(value: Any) -> Any:
    """A value of a tree as JSON can hold it (symbols and placeholders as text, bytes as hex)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, Symbol):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return value
