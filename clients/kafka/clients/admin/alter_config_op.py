"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterConfigOp.java (Kafka 3.7).

One change of incrementalAlterConfigs: set a config, delete it (back to its default), or append to / subtract
from a list config.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kafka.clients.admin.config_entry import ConfigEntry

__all__ = ["AlterConfigOp", "OpType"]


class OpType(enum.Enum):
    """The operation, with its wire id."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3

    @property
    def id(self) -> int:
        return int(self.value)

    @classmethod
    def for_id(cls, id: int) -> OpType | None:
        """The operation with wire id `id`, or None."""
        try:
            return cls(id)
        except ValueError:
            return None

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class AlterConfigOp:
    """A config entry (name and value; the value is ignored by DELETE) and what to do with it."""

    config_entry: ConfigEntry
    op_type: OpType

    OpType = OpType

    def __str__(self) -> str:
        return f"AlterConfigOp{{opType={self.op_type}, configEntry={self.config_entry}}}"
