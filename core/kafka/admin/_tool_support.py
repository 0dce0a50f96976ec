"""What the admin command-line tools (TopicCommand, ConfigCommand, DeleteRecordsCommand, LeaderElectionCommand,
BrokerApiVersionsCommand) share: the exceptions they print with Java names, Java's String.split, the iteration
order of Java's HashMap (the order in which Kafka's tools print the maps the admin client hands back), Jackson's
JSON decoding, and the admin client they create from `--bootstrap-server` and `--command-config`.

# PORT: not a port of one Kafka file. Kafka's tools get these from the JVM (String.split, HashMap), Jackson and
kafka.common.AdminCommandFailedException, which lives here because `kafka.common` is the clients' package in this
project. How exceptions print (Throwable.toString) and Integer.parseInt are kafka.common.utils.utils's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.utils import load_props
from kafka.zk import jvm_json
from kafka.zk.jvm_json import java_string_hash

__all__ = [
    "AdminCommandFailedException",
    "AdminFactory",
    "JsonMappingException",
    "create_admin_client",
    "java_hash_map_order",
    "java_split",
]

K = TypeVar("K")

# Admin.create: the tools take another factory in tests.
AdminFactory = Callable[[dict[str, str]], Any]


class AdminCommandFailedException(RuntimeError):
    """kafka.common.AdminCommandFailedException: an admin command could not do what it was asked."""

    JAVA_CLASS_NAME = "kafka.common.AdminCommandFailedException"

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.suppressed: list[BaseException] = []
        if cause is not None:
            self.__cause__ = cause

    def add_suppressed(self, exception: BaseException) -> None:
        """Throwable.addSuppressed: printed with the stack trace."""
        self.suppressed.append(exception)


class JsonMappingException(ValueError):
    """com.fasterxml.jackson.databind.JsonMappingException: JSON that does not have the shape expected."""

    JAVA_CLASS_NAME = "com.fasterxml.jackson.databind.JsonMappingException"


# -- Java's String.split ------------------------------------------------------------------------------------------


def java_split(text: str, separator: str) -> list[str]:
    """String.split with a literal one-character separator: trailing empty strings are dropped."""
    pieces = text.split(separator)
    while len(pieces) > 1 and pieces[-1] == "":
        pieces.pop()
    if pieces == [""] and text:
        return []
    return pieces


# -- Java's HashMap iteration order -----------------------------------------------------------------------------


def java_hash_code(key: object) -> int:
    """hashCode of the keys the tools print: String, Integer and TopicPartition."""
    if isinstance(key, TopicPartition):
        return _int32(31 * (31 + key.partition) + java_string_hash(key.topic))
    return jvm_json.java_hash_code(key)


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _table_size_for(capacity: int) -> int:
    n = 1
    while n < capacity:
        n <<= 1
    return max(n, 1)


def java_hash_map_order(keys: Iterable[K], initial_capacity: int | None = None) -> list[K]:
    """The order in which a java.util.HashMap (or HashSet) iterates `keys` put in the order given: by bucket of
    the spread hash, in insertion order within a bucket, after the resizes the puts cause.
    `initial_capacity` is that of `new HashMap<>(n)`; None for `new HashMap<>()` (kafka.zk.jvm_json.java_hash_map
    is that case for maps). As there, bins long enough to become trees are not modelled."""
    capacity = 16 if initial_capacity is None else _table_size_for(max(initial_capacity, 1))
    buckets: list[list[K]] = [[] for _ in range(capacity)]
    size = 0
    seen: set[Any] = set()

    def spread(key: K) -> int:
        h = java_hash_code(key) & 0xFFFFFFFF
        return h ^ (h >> 16)

    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        buckets[spread(key) & (capacity - 1)].append(key)
        size += 1
        if size > capacity * 3 // 4:
            # resize: each bucket splits into the same index and index + old capacity, keeping its order
            new_buckets: list[list[K]] = [[] for _ in range(capacity * 2)]
            for bucket in buckets:
                for k in bucket:
                    new_buckets[spread(k) & (capacity * 2 - 1)].append(k)
            buckets = new_buckets
            capacity *= 2
    return [k for bucket in buckets for k in bucket]


# -- kafka.utils.Json and its JsonValue decoding --------------------------------------------------------------------


def _node_string(node: Any) -> str:
    """A JSON value as Jackson's JsonNode.toString writes it."""
    return json.dumps(node, separators=(",", ":"), ensure_ascii=False)


def json_parse_full(text: str) -> Any | None:
    """Json.parseFull: the parsed value, or None when the text is not JSON."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def json_object(node: Any) -> dict[str, Any]:
    """JsonValue.asJsonObject."""
    if not isinstance(node, dict):
        raise JsonMappingException(f"Expected JSON object, received {_node_string(node)}")
    return node


def json_array(node: Any) -> list[Any]:
    """JsonValue.asJsonArray."""
    if not isinstance(node, list):
        raise JsonMappingException(f"Expected JSON array, received {_node_string(node)}")
    return node


def json_field(obj: dict[str, Any], name: str) -> Any:
    """JsonObject.apply: the field, or JsonMappingException when there is none."""
    if name not in obj:
        raise JsonMappingException(f"No such field exists: `{name}`")
    return obj[name]


def json_to_int(node: Any) -> int:
    """DecodeJson.DecodeInt: a JSON number that is a 32-bit integer."""
    if isinstance(node, int) and not isinstance(node, bool) and -(2**31) <= node < 2**31:
        return node
    raise JsonMappingException(f"Expected `Int` value, received {_node_string(node)}")


def json_to_long(node: Any) -> int:
    """DecodeJson.DecodeLong: a JSON number that converts to a 64-bit integer (a fraction is dropped)."""
    if isinstance(node, int | float) and not isinstance(node, bool) and -(2**63) <= node < 2**63:
        return int(node)
    raise JsonMappingException(f"Expected `Long` value, received {_node_string(node)}")


def json_to_string(node: Any) -> str:
    """DecodeJson.DecodeString: a JSON string."""
    if isinstance(node, str):
        return node
    raise JsonMappingException(f"Expected `String` value, received {_node_string(node)}")


def read_file_as_string(path: str) -> str:
    """Utils.readFileAsString (a missing file is java.nio.file.NoSuchFileException)."""
    with open(path, encoding="utf-8") as f:
        return f.read()


# -- the admin client and the entry point ------------------------------------------------------------------------


def load_command_config(path: str | None) -> dict[str, str]:
    """The properties of `--command-config` (Utils.loadProps), or none."""
    return {} if path is None else load_props(path)


def create_admin_client(props: Mapping[str, str], admin_factory: AdminFactory | None = None) -> Any:
    """Admin.create(props), or the test's factory."""
    if admin_factory is not None:
        return admin_factory(dict(props))
    from kafka.clients.admin.admin import Admin

    return Admin.create(dict(props))
