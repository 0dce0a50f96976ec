"""Port of clients/src/main/java/org/apache/kafka/common/resource/PatternType.java (Kafka 3.7).

How a resource pattern's name is matched: LITERAL (the exact name, or every name for `*`) and PREFIXED (every name
starting with it) are the specific types an ACL is stored under; ANY and MATCH only appear in filters.
"""

from __future__ import annotations

import enum

__all__ = ["PatternType"]


class PatternType(enum.Enum):
    """A pattern type with its wire code."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4

    @property
    def code(self) -> int:
        return int(self.value)

    @classmethod
    def from_code(cls, code: int) -> PatternType:
        """The type with this code; UNKNOWN for any other."""
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN

    @classmethod
    def from_string(cls, name: str) -> PatternType:
        """The type named `name` in any case; UNKNOWN for any other name."""
        try:
            return cls[name.upper()]
        except KeyError:
            return cls.UNKNOWN

    @property
    def is_unknown(self) -> bool:
        return self is PatternType.UNKNOWN

    @property
    def is_specific(self) -> bool:
        """Whether an ACL can be stored under this type (LITERAL, PREFIXED)."""
        return self in (PatternType.LITERAL, PatternType.PREFIXED)
