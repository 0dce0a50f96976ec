"""Port of clients/src/main/java/org/apache/kafka/common/record/TimestampType.java (Kafka 3.7).

The meaning of a record's timestamp: set by the producer (CreateTime), stamped by the broker when
the batch was appended (LogAppendTime), or absent (magic 0 messages).

# PORT: Java's enum has public fields `id` and `name`; a Python Enum reserves `name` for the member
name, so this is a small class with one instance per type. `str(t)` and `t.name` give Kafka's
spelling ("CreateTime"), as Java's toString does.
"""

from __future__ import annotations

from typing import ClassVar


class TimestampType:
    """One of the three timestamp types; compare with `is` or `==` (instances are singletons)."""

    __slots__ = ("id", "name")

    NO_TIMESTAMP_TYPE: ClassVar[TimestampType]
    CREATE_TIME: ClassVar[TimestampType]
    LOG_APPEND_TIME: ClassVar[TimestampType]

    id: int
    name: str

    def __init__(self, id_: int, name: str) -> None:
        self.id = id_
        self.name = name

    @staticmethod
    def values() -> tuple[TimestampType, ...]:
        """All timestamp types in declaration order."""
        return _VALUES

    @staticmethod
    def for_name(name: str) -> TimestampType:
        """The type whose Kafka name is `name` ("CreateTime", "LogAppendTime", "NoTimestampType")."""
        for t in _VALUES:
            if t.name == name:
                return t
        raise ValueError(f"Invalid timestamp type {name}")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"TimestampType.{_CONSTANT_NAMES[self.id]}"

    def __reduce__(self) -> str:
        return f"TimestampType.{_CONSTANT_NAMES[self.id]}"


TimestampType.NO_TIMESTAMP_TYPE = TimestampType(-1, "NoTimestampType")
TimestampType.CREATE_TIME = TimestampType(0, "CreateTime")
TimestampType.LOG_APPEND_TIME = TimestampType(1, "LogAppendTime")

_VALUES: tuple[TimestampType, ...] = (
    TimestampType.NO_TIMESTAMP_TYPE,
    TimestampType.CREATE_TIME,
    TimestampType.LOG_APPEND_TIME,
)
_CONSTANT_NAMES = {-1: "NO_TIMESTAMP_TYPE", 0: "CREATE_TIME", 1: "LOG_APPEND_TIME"}
