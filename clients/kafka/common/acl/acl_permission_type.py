"""Port of clients/src/main/java/org/apache/kafka/common/acl/AclPermissionType.java (Kafka 3.7).

Whether an ACL allows or denies; ANY is only meaningful in filters.
"""

from __future__ import annotations

from kafka.common.utils.coded_enum import CodedEnum

__all__ = ["AclPermissionType"]


class AclPermissionType(CodedEnum):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3

    @classmethod
    def from_string(cls, name: str) -> AclPermissionType:
        """The type named `name` in any case; raises ValueError for any other."""
        try:
            return cls[name.upper()]
        except KeyError:
            raise ValueError(f"No enum constant AclPermissionType.{name.upper()}") from None
