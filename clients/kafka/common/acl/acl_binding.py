"""Port of clients/src/main/java/org/apache/kafka/common/acl/AclBinding.java (Kafka 3.7).

One ACL: a resource pattern bound to an access control entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.resource.resource_pattern import ResourcePattern

__all__ = ["AclBinding"]


@dataclass(frozen=True, slots=True)
class AclBinding:
    pattern: ResourcePattern
    entry: AccessControlEntry

    @property
    def is_unknown(self) -> bool:
        return self.pattern.is_unknown or self.entry.is_unknown

    def to_filter(self) -> AclBindingFilter:
        return AclBindingFilter(self.pattern.to_filter(), self.entry.to_filter())

    def __str__(self) -> str:
        return f"(pattern={self.pattern}, entry={self.entry})"
