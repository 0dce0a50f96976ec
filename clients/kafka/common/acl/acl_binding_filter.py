"""Port of clients/src/main/java/org/apache/kafka/common/acl/AclBindingFilter.java (Kafka 3.7).

A filter over ACL bindings: a resource pattern filter and an entry filter, both of which must match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter

if TYPE_CHECKING:
    from kafka.common.acl.acl_binding import AclBinding

__all__ = ["AclBindingFilter"]


@dataclass(frozen=True, slots=True)
class AclBindingFilter:
    pattern_filter: ResourcePatternFilter
    entry_filter: AccessControlEntryFilter

    ANY: ClassVar[AclBindingFilter]

    @property
    def is_unknown(self) -> bool:
        return self.pattern_filter.is_unknown or self.entry_filter.is_unknown

    def matches_at_most_one(self) -> bool:
        return self.pattern_filter.matches_at_most_one() and self.entry_filter.matches_at_most_one()

    def find_indefinite_field(self) -> str | None:
        return self.pattern_filter.find_indefinite_field() or self.entry_filter.find_indefinite_field()

    def matches(self, binding: AclBinding) -> bool:
        return self.pattern_filter.matches(binding.pattern) and self.entry_filter.matches(binding.entry)

    def __str__(self) -> str:
        return f"(patternFilter={self.pattern_filter}, entryFilter={self.entry_filter})"


AclBindingFilter.ANY = AclBindingFilter(ResourcePatternFilter.ANY, AccessControlEntryFilter.ANY)
