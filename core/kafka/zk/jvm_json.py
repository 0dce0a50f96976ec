"""Port of core/src/main/scala/kafka/utils/Json.scala's encoding (Kafka 2.8), as ZkData uses it.

Kafka writes ZooKeeper JSON by handing Scala and Java collections to Jackson, which writes an object's keys in
the order the collection iterates them. That order is a fact of the bytes in ZooKeeper, so this module
reproduces it for the collections ZkData builds (Kafka 2.8 as released for Scala 2.13, on Java 11 or later):

- a Scala immutable `Map(...)` / `.toMap` / `Set`: up to four entries in insertion order (Map1..Map4), more in
  the order of the CHAMP trie (`scala_immutable_map`, `scala_immutable_set`);
- a Scala `mutable.Map(...)` / `mutable.HashSet`: buckets sorted by hash in a power-of-two table
  (`scala_mutable_map`, `scala_mutable_set`);
- `java.util.HashMap` (`java_hash_map`) and `java.util.Properties`, a ConcurrentHashMap (`java_properties`);
- Jackson's compact output and string escaping (`encode_as_bytes`).

Hash codes are Java's (`String.hashCode`, `Integer.hashCode`, `AbstractMap.hashCode` for a map wrapped by
`.asJava`), as Scala's `##` gives them for these types.

# PORT: Kafka's kafka.utils.Json is a general Jackson wrapper; only the encoding side that ZkData needs is here
# (parsing is Python's json module). The emulation leaves out two cases no ZooKeeper JSON of Kafka reaches:
# keys with equal 32-bit hash codes, and Java bins long enough to become trees (8 keys in one bin).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, TypeVar

from kafka.common.utils.utils import java_string_hash_code as java_string_hash

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

__all__ = [
    "encode_as_bytes",
    "java_hash_code",
    "java_hash_map",
    "java_properties",
    "java_string_hash",
    "scala_immutable_map",
    "scala_immutable_set",
    "scala_mutable_map",
    "scala_mutable_set",
]


def _int32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - 0x1_0000_0000 if x & 0x8000_0000 else x


def _urshift(x: int, n: int) -> int:
    """Java's `>>>` on an int."""
    return (x & 0xFFFFFFFF) >> n


def java_hash_code(value: Any) -> int:
    """Java's hashCode of a JSON-able value: String, Integer/Long, Boolean, null, and a map as `.asJava` wraps one
    (java.util.AbstractMap: the sum of key-hash XOR value-hash over the entries)."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return 1231 if value else 1237
    if isinstance(value, int):
        if -(2**31) <= value < 2**31:
            return value
        return _int32(value ^ (value >> 32))  # Long.hashCode
    if isinstance(value, str):
        return java_string_hash(value)
    if isinstance(value, Mapping):
        return _int32(sum(java_hash_code(k) ^ java_hash_code(v) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        h = 1
        for e in value:
            h = _int32(31 * h + java_hash_code(e))
        return h
    raise TypeError(f"No Java hash code for {type(value).__name__}")


# -- Scala 2.13 immutable collections -------------------------------------------------------------------


def _scala_improve(h: int) -> int:
    """scala.collection.Hashing.improve, which the CHAMP trie applies to `##`."""
    h = _int32(h + ~_int32(h << 9))
    h = _int32(h ^ _urshift(h, 14))
    h = _int32(h + _int32(h << 4))
    return _int32(h ^ _urshift(h, 10))


def _champ_order(items: list[tuple[Any, int]], shift: int = 0) -> list[Any]:
    """The iteration order of a CHAMP node holding `items` (element, improved hash): the entries stored in this
    node in bit order, then each sub-node (in bit order) depth first. Five hash bits per level."""
    if shift >= 32:
        return [element for element, _ in items]  # a collision node keeps insertion order
    groups: dict[int, list[tuple[Any, int]]] = {}
    for element, h in items:
        groups.setdefault(_urshift(h, shift) & 31, []).append((element, h))
    payload = [group[0][0] for _, group in sorted(groups.items()) if len(group) == 1]
    for _, group in sorted(groups.items()):
        if len(group) > 1:
            payload.extend(_champ_order(group, shift + 5))
    return payload


def scala_immutable_map(entries: Iterable[tuple[K, V]], hash_code: Callable[[Any], int] = java_hash_code) -> dict[K, V]:
    """The entries in the order a Scala 2.13 immutable Map built from them iterates (`Map(...)`, `.toMap`)."""
    result: dict[K, V] = {}
    for key, value in entries:
        result[key] = value  # a repeated key keeps its first position, as Map1..Map4 update in place
    if len(result) <= 4:
        return result
    order = _champ_order([(key, _scala_improve(hash_code(key))) for key in result])
    return {key: result[key] for key in order}


def scala_immutable_set(elements: Iterable[Any], hash_code: Callable[[Any], int] = java_hash_code) -> list[Any]:
    """The elements (distinct by Python equality) in the order a Scala 2.13 immutable Set iterates them."""
    distinct: list[Any] = []
    for element in elements:
        if element not in distinct:
            distinct.append(element)
    if len(distinct) <= 4:
        return distinct
    return _champ_order([(element, _scala_improve(hash_code(element))) for element in distinct])


# -- Scala 2.13 mutable.HashMap / mutable.HashSet ---------------------------------------------------------


def _scala_table_size_for(capacity: int) -> int:
    return min(_highest_one_bit(max(capacity - 1, 4)) * 2, 1 << 30)


def _highest_one_bit(i: int) -> int:
    return 1 << (i.bit_length() - 1) if i > 0 else 0


def _scala_mutable_order(keys: list[Any], extra: list[Any], hash_code: Callable[[Any], int]) -> list[Any]:
    # Built as `mutable.Map(keys...)` (HashMap.from: a table sized for the known count), then `+=` of `extra`.
    known = len(keys)
    capacity = int((known + 1) / 0.75) if known > 0 else 16
    table = _scala_table_size_for(capacity)
    threshold = int(table * 0.75)
    size = 0
    present: dict[Any, None] = {}
    for key in keys + extra:
        if size + 1 >= threshold:  # checked before the key is looked up, as put0 does
            table *= 2
            threshold = int(table * 0.75)
        if key not in present:
            present[key] = None
            size += 1
    improved = {key: _int32(hash_code(key) ^ _urshift(hash_code(key), 16)) for key in present}
    # Buckets in table order, each kept sorted by (signed) hash; a resize splits buckets keeping that order.
    return sorted(present, key=lambda key: (improved[key] & (table - 1), improved[key]))


def scala_mutable_map(
    entries: Iterable[tuple[K, V]],
    added: Iterable[tuple[K, V]] = (),
    hash_code: Callable[[Any], int] = java_hash_code,
) -> dict[K, V]:
    """The entries in the order a Scala 2.13 `mutable.Map(entries...)` iterates after `+= added`."""
    entries, added = list(entries), list(added)
    values = dict(entries)
    values.update(added)
    order = _scala_mutable_order([k for k, _ in entries], [k for k, _ in added], hash_code)
    return {key: values[key] for key in order}


def scala_mutable_set(elements: Iterable[Any], hash_code: Callable[[Any], int] = java_hash_code) -> list[Any]:
    """The elements in the order a Scala 2.13 mutable.HashSet built from them (`HashSet.from`) iterates."""
    distinct: list[Any] = []
    for element in elements:
        if element not in distinct:
            distinct.append(element)
    by_identity = {id(e): e for e in distinct}
    order = _scala_mutable_order(list(by_identity), [], lambda i: hash_code(by_identity[i]))
    return [by_identity[i] for i in order]


# -- Java collections ----------------------------------------------------------------------------------


def java_hash_map(entries: Iterable[tuple[K, V]], hash_code: Callable[[Any], int] = java_hash_code) -> dict[K, V]:
    """The entries in the order a `new java.util.HashMap()` filled with them iterates."""
    table = 16
    threshold = 12
    bins: dict[int, list[K]] = {}
    values: dict[K, V] = {}
    spread: dict[K, int] = {}
    for key, value in entries:
        if key not in values:
            h = hash_code(key)
            spread[key] = _int32(h ^ _urshift(h, 16))
            bins.setdefault(spread[key] & (table - 1), []).append(key)
            values[key] = value
            if len(values) > threshold:  # resize: each bin splits in two, keeping its order
                table *= 2
                threshold = int(table * 0.75)
                new_bins: dict[int, list[K]] = {}
                for index in sorted(bins):
                    for k in bins[index]:
                        new_bins.setdefault(spread[k] & (table - 1), []).append(k)
                bins = new_bins
        else:
            values[key] = value
    return {key: values[key] for index in sorted(bins) for key in bins[index]}


def java_properties(entries: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The entries in the order a `new java.util.Properties()` filled with `setProperty` iterates (Java 9 and later
    keep them in a ConcurrentHashMap of initial table size 16)."""
    table = 16
    size_ctl = 12
    bins: list[list[str]] = [[] for _ in range(table)]
    values: dict[str, str] = {}
    spread: dict[str, int] = {}
    for key, value in entries:
        if key in values:
            values[key] = value
            continue
        h = java_string_hash(key)
        spread[key] = (h ^ _urshift(h, 16)) & 0x7FFFFFFF
        bins[spread[key] & (table - 1)].append(key)  # appended at the tail of its bin
        values[key] = value
        if len(values) >= size_ctl:
            # transfer: the tail run of a bin whose nodes go to the same half keeps its order; the nodes before
            # it are prepended one by one, so they end up reversed in front of it.
            new_bins: list[list[str]] = [[] for _ in range(table * 2)]
            for i, nodes in enumerate(bins):
                if not nodes:
                    continue
                last_run = len(nodes) - 1
                run_bit = spread[nodes[last_run]] & table
                while last_run > 0 and spread[nodes[last_run - 1]] & table == run_bit:
                    last_run -= 1
                low: list[str] = []
                high: list[str] = []
                (high if run_bit else low).extend(nodes[last_run:])
                for k in nodes[:last_run]:
                    (high if spread[k] & table else low).insert(0, k)
                new_bins[i] = low
                new_bins[i + table] = high
            bins = new_bins
            table *= 2
            size_ctl = table - (table >> 2)
    return {key: values[key] for nodes in bins for key in nodes}


# -- Jackson's writer ----------------------------------------------------------------------------------

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _write_string(s: str, out: list[str]) -> None:
    out.append('"')
    for ch in s:
        escaped = _SHORT_ESCAPES.get(ch)
        if escaped is not None:
            out.append(escaped)
        elif ch < " ":
            out.append(f"\\u{ord(ch):04X}")  # Jackson writes upper-case hex digits
        else:
            out.append(ch)
    out.append('"')


def _write(value: Any, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, str):
        _write_string(value, out)
    elif isinstance(value, Mapping):
        out.append("{")
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(",")
            _write_string(str(k), out)
            out.append(":")
            _write(v, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, e in enumerate(value):
            if i:
                out.append(",")
            _write(e, out)
        out.append("]")
    else:
        raise TypeError(f"Cannot write {type(value).__name__} as JSON")


def encode_as_bytes(value: Any) -> bytes:
    """Jackson's compact output of `value` (objects in the order of their dicts), UTF-8 encoded."""
    out: list[str] = []
    _write(value, out)
    return "".join(out).encode("utf-8", "surrogatepass")
