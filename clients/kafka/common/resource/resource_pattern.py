"""Port of clients/src/main/java/org/apache/kafka/common/resource/ResourcePattern.java (Kafka 3.7).

The resource part of an ACL: a type, a name and how the name matches (literal or prefixed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_type import ResourceType

if TYPE_CHECKING:
    from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter

__all__ = ["WILDCARD_RESOURCE", "ResourcePattern"]

#: A literal pattern with this name matches every resource of its type.
WILDCARD_RESOURCE = "*"


@dataclass(frozen=True, slots=True)
class ResourcePattern:
    """A concrete pattern: neither the type nor the pattern type may be ANY (or MATCH)."""

    resource_type: ResourceType
    name: str
    pattern_type: PatternType

    WILDCARD_RESOURCE: ClassVar[str] = WILDCARD_RESOURCE

    def __post_init__(self) -> None:
        if self.resource_type is ResourceType.ANY:
            raise ValueError("resourceType must not be ANY")
        if self.pattern_type in (PatternType.MATCH, PatternType.ANY):
            raise ValueError(f"patternType must not be {self.pattern_type.name}")
        if self.name is None:
            raise ValueError("name must not be null")

    def to_filter(self) -> ResourcePatternFilter:
        from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter

        return ResourcePatternFilter(self.resource_type, self.name, self.pattern_type)

    @property
    def is_unknown(self) -> bool:
        return self.resource_type.is_unknown or self.pattern_type.is_unknown

    def __str__(self) -> str:
        return (
            f"ResourcePattern(resourceType={self.resource_type.name}, name={self.name or '<any>'}, "
            f"patternType={self.pattern_type.name})"
        )
