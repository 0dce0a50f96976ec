"""Port of clients/src/main/java/org/apache/kafka/common/acl/AccessControlEntry.java (Kafka 3.7).

The who/where/what part of an ACL: a principal (`User:alice`, `User:*`), a host (`*` for any), an operation and
allow or deny.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType

if TYPE_CHECKING:
    from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter

__all__ = ["AccessControlEntry"]


@dataclass(frozen=True, slots=True)
class AccessControlEntry:
    """A concrete entry: the operation and the permission type may not be ANY."""

    principal: str
    host: str
    operation: AclOperation
    permission_type: AclPermissionType

    def __post_init__(self) -> None:
        if self.principal is None or self.host is None:
            raise ValueError("principal and host must not be null")
        if self.operation is AclOperation.ANY:
            raise ValueError("operation must not be ANY")
        if self.permission_type is AclPermissionType.ANY:
            raise ValueError("permissionType must not be ANY")

    def to_filter(self) -> AccessControlEntryFilter:
        from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter

        return AccessControlEntryFilter(self.principal, self.host, self.operation, self.permission_type)

    @property
    def is_unknown(self) -> bool:
        return self.operation.is_unknown or self.permission_type.is_unknown

    def __str__(self) -> str:
        return (
            f"(principal={self.principal}, host={self.host}, operation={self.operation.name}, "
            f"permissionType={self.permission_type.name})"
        )
