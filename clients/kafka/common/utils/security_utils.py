"""Port of clients/src/main/java/org/apache/kafka/common/utils/SecurityUtils.java (Kafka 3.7).

Principal parsing and the Pascal-case names (`Topic`, `DescribeConfigs`, `Allow`) under which ACLs are stored in
ZooKeeper and printed by the tools.
"""

from __future__ import annotations

from typing import TypeVar

from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = [
    "authorize_by_resource_type_check_args",
    "operation",
    "operation_name",
    "parse_kafka_principal",
    "permission_type",
    "permission_type_name",
    "resource_type",
    "resource_type_name",
    "to_pascal_case",
]

_E = TypeVar("_E", ResourceType, AclOperation, AclPermissionType)


def parse_kafka_principal(text: str | None) -> KafkaPrincipal:
    """`User:alice` as a KafkaPrincipal; ValueError for anything without a type and a name."""
    if not text:
        raise ValueError(f"expected a string in format principalType:principalName but got {text}")
    principal_type, sep, name = text.partition(":")
    if not sep:
        raise ValueError(f"expected a string in format principalType:principalName but got {text}")
    return KafkaPrincipal(principal_type, name)


def to_pascal_case(name: str) -> str:
    """`DESCRIBE_CONFIGS` -> `DescribeConfigs`."""
    return "".join(part[:1].upper() + part[1:].lower() for part in name.split("_"))


def _value_from_name(enum_type: type[_E], name: str, unknown: _E) -> _E:
    # Stored names are Pascal case; the upper-case form (with or without underscores) is accepted too.
    for member in enum_type:
        if name == to_pascal_case(member.name):
            return member
    upper = name.upper()
    for member in enum_type:
        if upper in (member.name, member.name.replace("_", "")):
            return member
    return unknown


def resource_type(name: str) -> ResourceType:
    return _value_from_name(ResourceType, name, ResourceType.UNKNOWN)


def operation(name: str) -> AclOperation:
    return _value_from_name(AclOperation, name, AclOperation.UNKNOWN)


def permission_type(name: str) -> AclPermissionType:
    return _value_from_name(AclPermissionType, name, AclPermissionType.UNKNOWN)


def resource_type_name(rt: ResourceType) -> str:
    return to_pascal_case(rt.name)


def operation_name(op: AclOperation) -> str:
    return to_pascal_case(op.name)


def permission_type_name(pt: AclPermissionType) -> str:
    return to_pascal_case(pt.name)


def authorize_by_resource_type_check_args(op: AclOperation, rt: ResourceType) -> None:
    """Raises ValueError unless `op` and `rt` are concrete (neither ANY nor UNKNOWN)."""
    if rt is ResourceType.ANY:
        raise ValueError("Must specify a non-filter resource type for authorizeByResourceType")
    if rt is ResourceType.UNKNOWN:
        raise ValueError("Unknown resource type")
    if op is AclOperation.ANY:
        raise ValueError("Must specify a non-filter operation type for authorizeByResourceType")
    if op is AclOperation.UNKNOWN:
        raise ValueError("Unknown operation type")
