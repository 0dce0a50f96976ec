"""Port of clients/src/main/java/org/apache/kafka/common/resource/ResourceType.java (Kafka 3.7).

The kinds of resource an ACL can name, with their wire codes.
"""

from __future__ import annotations

import enum

__all__ = ["ResourceType"]


class ResourceType(enum.Enum):
    """A resource type with its wire code; ANY is only meaningful in filters."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7

    @property
    def code(self) -> int:
        return int(self.value)

    @classmethod
    def from_code(cls, code: int) -> ResourceType:
        """The type with this code; UNKNOWN for any other."""
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN

    @classmethod
    def from_string(cls, name: str) -> ResourceType:
        """The type whose name is `name` in any case (`topic`, `TOPIC`); UNKNOWN for any other name."""
        try:
            return cls[name.upper()]
        except KeyError:
            return cls.UNKNOWN

    @property
    def is_unknown(self) -> bool:
        return self is ResourceType.UNKNOWN
