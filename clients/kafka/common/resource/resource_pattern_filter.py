"""Port of clients/src/main/java/org/apache/kafka/common/resource/ResourcePatternFilter.java (Kafka 3.7).

A filter over resource patterns: ANY type, a None name and ANY pattern type match everything; MATCH matches the
patterns that would apply to the named resource (the literal name, the wildcard and every prefix of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import WILDCARD_RESOURCE, ResourcePattern
from kafka.common.resource.resource_type import ResourceType

__all__ = ["ResourcePatternFilter"]


@dataclass(frozen=True, slots=True)
class ResourcePatternFilter:
    resource_type: ResourceType
    name: str | None
    pattern_type: PatternType

    ANY: ClassVar[ResourcePatternFilter]

    @property
    def is_unknown(self) -> bool:
        return self.resource_type.is_unknown or self.pattern_type.is_unknown

    def matches(self, pattern: ResourcePattern) -> bool:
        """Whether `pattern` is one this filter selects."""
        if self.resource_type is not ResourceType.ANY and self.resource_type is not pattern.resource_type:
            return False
        if (
            self.pattern_type not in (PatternType.ANY, PatternType.MATCH)
            and self.pattern_type is not pattern.pattern_type
        ):
            return False
        if self.name is None:
            return True
        if self.pattern_type in (PatternType.ANY, pattern.pattern_type):
            return self.name == pattern.name
        if pattern.pattern_type is PatternType.LITERAL:
            return self.name == pattern.name or pattern.name == WILDCARD_RESOURCE
        if pattern.pattern_type is PatternType.PREFIXED:
            return self.name.startswith(pattern.name)
        raise ValueError(f"Unsupported PatternType: {pattern.pattern_type.name}")

    def matches_at_most_one(self) -> bool:
        return self.find_indefinite_field() is None

    def find_indefinite_field(self) -> str | None:
        """Why this filter could match more than one pattern, or None."""
        if self.resource_type is ResourceType.ANY:
            return "Resource type is ANY."
        if self.resource_type is ResourceType.UNKNOWN:
            return "Resource type is UNKNOWN."
        if self.pattern_type in (PatternType.ANY, PatternType.MATCH):
            return f"Resource pattern type is {self.pattern_type.name}."
        if self.pattern_type is PatternType.UNKNOWN:
            return "Resource pattern type is UNKNOWN."
        if self.name is None:
            return "Resource name is NULL."
        return None

    def __str__(self) -> str:
        return (
            f"ResourcePattern(resourceType={self.resource_type.name}, "
            f"name={'<any>' if self.name is None else self.name}, patternType={self.pattern_type.name})"
        )


ResourcePatternFilter.ANY = ResourcePatternFilter(ResourceType.ANY, None, PatternType.ANY)
