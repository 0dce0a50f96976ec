"""Request bodies for the request tests: one element in every list, plain non-default values elsewhere.

`filled_request(api_key, version)` fills only the fields a version carries (regular or tagged), so that
the result can be written at that version, and leaves record sets null so that no record code is needed.
"""

from __future__ import annotations

import itertools
from typing import Any

from kafka.common.message.generator import MessageGenerator, load_module, snake_case
from kafka.common.message.spec import FieldSpec, load_spec
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.types import Uuid

_INTS = frozenset(["int8", "int16", "uint16", "int32", "uint32", "int64"])


def filled_request(api_key: ApiKeys, version: int) -> Any:
    """A request data object of `api_key` with one topic/partition/group/... wherever the version has a list."""
    return filled(api_key.api_name + "Request", version)


def filled(spec_name: str, version: int) -> Any:
    spec = load_spec(spec_name)
    gen = MessageGenerator(spec)
    module = load_module(spec_name)
    return _fill_struct(gen, module, spec.data_class_name, version, itertools.count(1))


def _fill_struct(gen: MessageGenerator, module: Any, name: str, version: int, counter: itertools.count[int]) -> Any:
    obj = getattr(module, name)()
    for f in gen.structs[name].fields:
        if f.versions.contains(version):
            setattr(obj, snake_case(f.name), _fill_value(gen, module, f, version, counter))
    return obj


def _fill_scalar(gen: MessageGenerator, module: Any, t: str, version: int, counter: itertools.count[int]) -> Any:
    n = next(counter)
    if t in _INTS:
        return 1
    if t == "bool":
        return True
    if t == "float64":
        return 1.5
    if t == "string":
        return f"s{n}"
    if t == "uuid":
        return Uuid(1, n)
    if t == "bytes":
        return bytes([n % 256])
    if t == "records":
        return None
    return _fill_struct(gen, module, t, version, counter)


def _fill_value(gen: MessageGenerator, module: Any, f: FieldSpec, version: int, counter: itertools.count[int]) -> Any:
    if f.is_array:
        items = [_fill_scalar(gen, module, f.element_type, version, counter)]
        if gen.is_collection(f):
            return getattr(module, gen.collection_name(f))(items)
        return items
    return _fill_scalar(gen, module, f.type, version, counter)


def all_versions(api_key: ApiKeys) -> range:
    """Every version of an API, counting an unstable last version."""
    return range(api_key.oldest_version, api_key.latest_version(True) + 1)
