"""Port of clients/src/main/java/org/apache/kafka/common/acl/AccessControlEntryFilter.java (Kafka 3.7).

A filter over access control entries: a None principal or host and ANY operation or permission type match all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType

__all__ = ["AccessControlEntryFilter"]


@dataclass(frozen=True, slots=True)
class AccessControlEntryFilter:
    principal: str | None
    host: str | None
    operation: AclOperation
    permission_type: AclPermissionType

    ANY: ClassVar[AccessControlEntryFilter]

    @property
    def is_unknown(self) -> bool:
        return self.operation.is_unknown or self.permission_type.is_unknown

    def matches(self, other: AccessControlEntry) -> bool:
        if self.principal is not None and self.principal != other.principal:
            return False
        if self.host is not None and self.host != other.host:
            return False
        if self.operation is not AclOperation.ANY and self.operation is not other.operation:
            return False
        return self.permission_type is AclPermissionType.ANY or self.permission_type is other.permission_type

    def matches_at_most_one(self) -> bool:
        return self.find_indefinite_field() is None

    def find_indefinite_field(self) -> str | None:
        """Why this filter could match more than one entry, or None."""
        if self.principal is None:
            return "Principal is NULL"
        if self.host is None:
            return "Host is NULL"
        if self.operation is AclOperation.ANY:
            return "Operation is ANY"
        if self.operation is AclOperation.UNKNOWN:
            return "Operation is UNKNOWN"
        if self.permission_type is AclPermissionType.ANY:
            return "Permission type is ANY"
        if self.permission_type is AclPermissionType.UNKNOWN:
            return "Permission type is UNKNOWN"
        return None

    def __str__(self) -> str:
        return (
            f"(principal={'<any>' if self.principal is None else self.principal}, "
            f"host={'<any>' if self.host is None else self.host}, operation={self.operation.name}, "
            f"permissionType={self.permission_type.name})"
        )


AccessControlEntryFilter.ANY = AccessControlEntryFilter(None, None, AclOperation.ANY, AclPermissionType.ANY)
