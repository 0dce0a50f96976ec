"""Port of clients/src/main/java/org/apache/kafka/common/resource/PatternType.java (Kafka 3.7).

How a resource pattern's name is matched: LITERAL (the exact name, or every name for `*`) and PREFIXED (every name
starting with it) are the specific types an ACL is stored under; ANY and MATCH only appear in filters.
"""

from __future__ import annotations

from kafka.common.utils.coded_enum import CodedEnum

__all__ = ["PatternType"]


class PatternType(CodedEnum):
    """A pattern type with its wire code."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4

    @property
    def is_specific(self) -> bool:
        """Whether an ACL can be stored under this type (LITERAL, PREFIXED)."""
        return self in (PatternType.LITERAL, PatternType.PREFIXED)
