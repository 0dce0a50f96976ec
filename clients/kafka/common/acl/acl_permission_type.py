"""Port of clients/src/main/java/org/apache/kafka/common/acl/AclPermissionType.java (Kafka 3.7).

Whether an ACL allows or denies; ANY is only meaningful in filters.
"""

from __future__ import annotations

import enum

__all__ = ["AclPermissionType"]


class AclPermissionType(enum.Enum):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3

    @property
    def code(self) -> int:
        return int(self.value)

    @classmethod
    def from_code(cls, code: int) -> AclPermissionType:
        """The type with this code; UNKNOWN for any other."""
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN

    @classmethod
    def from_string(cls, name: str) -> AclPermissionType:
        """The type named `name` in any case; raises ValueError for any other."""
        try:
            return cls[name.upper()]
        except KeyError:
            raise ValueError(f"No enum constant AclPermissionType.{name.upper()}") from None

    @property
    def is_unknown(self) -> bool:
        return self is AclPermissionType.UNKNOWN
