"""What Kafka's ACL and resource enums (clients/src/main/java/org/apache/kafka/common/acl/AclOperation.java,
AclPermissionType.java, common/resource/ResourceType.java and PatternType.java, Kafka 3.7) all do: a member per wire
code, UNKNOWN for a code or a name this client does not know.

# PORT: Java writes the same code/fromCode/fromString/isUnknown in each enum; here they derive from CodedEnum.
"""

from __future__ import annotations

import enum
from typing import Self

__all__ = ["CodedEnum"]


class CodedEnum(enum.Enum):
    """An enum whose values are its wire codes, with an UNKNOWN member."""

    @property
    def code(self) -> int:
        return int(self.value)

    @classmethod
    def from_code(cls, code: int) -> Self:
        """The member with this code; UNKNOWN for any other."""
        try:
            return cls(code)
        except ValueError:
            return cls["UNKNOWN"]

    @classmethod
    def from_string(cls, name: str) -> Self:
        """The member named `name` in any case (`read`, `CLUSTER_ACTION`); UNKNOWN for any other name."""
        try:
            return cls[name.upper()]
        except KeyError:
            return cls["UNKNOWN"]

    @property
    def is_unknown(self) -> bool:
        return self.name == "UNKNOWN"
