"""Port of core/src/main/scala/kafka/security/authorizer/AclEntry.scala (Kafka 2.8).

An access control entry as the authorizer stores it in ZooKeeper (the JSON of one resource's ACLs), with the
operations each resource type supports and the error a denial of each resource type is answered with.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, ClassVar, Final

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.protocol.errors import Errors
from kafka.common.resource.resource_pattern import WILDCARD_RESOURCE
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.security_utils import (
    operation,
    operation_name,
    parse_kafka_principal,
    permission_type,
    permission_type_name,
)

__all__ = ["AclEntry"]

_SUPPORTED_OPERATIONS: Final[dict[ResourceType, frozenset[AclOperation]]] = {
    ResourceType.TOPIC: frozenset(
        {
            AclOperation.READ,
            AclOperation.WRITE,
            AclOperation.CREATE,
            AclOperation.DESCRIBE,
            AclOperation.DELETE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS,
        }
    ),
    ResourceType.GROUP: frozenset({AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE}),
    ResourceType.CLUSTER: frozenset(
        {
            AclOperation.CREATE,
            AclOperation.CLUSTER_ACTION,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE,
        }
    ),
    ResourceType.TRANSACTIONAL_ID: frozenset({AclOperation.DESCRIBE, AclOperation.WRITE}),
    ResourceType.DELEGATION_TOKEN: frozenset({AclOperation.DESCRIBE}),
}

_AUTHORIZATION_ERRORS: Final[dict[ResourceType, Errors]] = {
    ResourceType.TOPIC: Errors.TOPIC_AUTHORIZATION_FAILED,
    ResourceType.GROUP: Errors.GROUP_AUTHORIZATION_FAILED,
    ResourceType.CLUSTER: Errors.CLUSTER_AUTHORIZATION_FAILED,
    ResourceType.TRANSACTIONAL_ID: Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
    ResourceType.DELEGATION_TOKEN: Errors.DELEGATION_TOKEN_AUTHORIZATION_FAILED,
}


class AclEntry:
    """An AccessControlEntry with its principal parsed. Equal (and hashed) as its entry."""

    __slots__ = ("ace", "kafka_principal")

    WILDCARD_PRINCIPAL: ClassVar[KafkaPrincipal] = KafkaPrincipal(KafkaPrincipal.USER_TYPE, "*")
    WILDCARD_PRINCIPAL_STRING: ClassVar[str] = "User:*"
    WILDCARD_HOST: ClassVar[str] = "*"
    WILDCARD_RESOURCE: ClassVar[str] = WILDCARD_RESOURCE
    RESOURCE_SEPARATOR: ClassVar[str] = ":"
    # PORT: Kafka 2.8's resource types; the 3.x client's USER type has no ACL store in a 2.8 broker.
    RESOURCE_TYPES: ClassVar[tuple[ResourceType, ...]] = tuple(_SUPPORTED_OPERATIONS)
    ACL_OPERATIONS: ClassVar[frozenset[AclOperation]] = frozenset(AclOperation) - {
        AclOperation.UNKNOWN,
        AclOperation.ANY,
    }
    PRINCIPAL_KEY: ClassVar[str] = "principal"
    PERMISSION_TYPE_KEY: ClassVar[str] = "permissionType"
    OPERATION_KEY: ClassVar[str] = "operation"
    HOSTS_KEY: ClassVar[str] = "host"
    VERSION_KEY: ClassVar[str] = "version"
    CURRENT_VERSION: ClassVar[int] = 1
    ACLS_KEY: ClassVar[str] = "acls"

    def __init__(self, ace: AccessControlEntry) -> None:
        self.ace = ace
        self.kafka_principal = parse_kafka_principal(ace.principal)

    @classmethod
    def apply(cls, principal: KafkaPrincipal, permission: AclPermissionType, host: str, op: AclOperation) -> AclEntry:
        return cls(AccessControlEntry(str(principal), host, op, permission))

    @property
    def principal(self) -> str:
        return self.ace.principal

    @property
    def host(self) -> str:
        return self.ace.host

    @property
    def operation(self) -> AclOperation:
        return self.ace.operation

    @property
    def permission_type(self) -> AclPermissionType:
        return self.ace.permission_type

    def to_map(self) -> dict[str, Any]:
        return {
            AclEntry.PRINCIPAL_KEY: self.principal,
            AclEntry.PERMISSION_TYPE_KEY: permission_type_name(self.permission_type),
            AclEntry.OPERATION_KEY: operation_name(self.operation),
            AclEntry.HOSTS_KEY: self.host,
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AclEntry) and self.ace == other.ace

    def __hash__(self) -> int:
        return hash(self.ace)

    def __str__(self) -> str:
        return (
            f"{self.principal} has {self.permission_type.name} permission for operations: "
            f"{self.operation.name} from hosts: {self.host}"
        )

    __repr__ = __str__

    # -- the JSON of one resource's ACLs -----------------------------------------------------------------

    @staticmethod
    def from_bytes(data: bytes | None) -> set[AclEntry]:
        """The entries in a resource znode's JSON; empty for no data. ValueError for JSON of another version."""
        if not data:
            return set()
        try:
            js = json.loads(data)
        except ValueError:
            return set()
        if not isinstance(js, dict):
            return set()
        if js.get(AclEntry.VERSION_KEY) != AclEntry.CURRENT_VERSION:
            raise ValueError(f"Unsupported ACL json version: {js.get(AclEntry.VERSION_KEY)!r}")
        entries: set[AclEntry] = set()
        for item in js[AclEntry.ACLS_KEY]:
            principal = parse_kafka_principal(item[AclEntry.PRINCIPAL_KEY])
            entries.add(
                AclEntry.apply(
                    principal,
                    permission_type(item[AclEntry.PERMISSION_TYPE_KEY]),
                    item[AclEntry.HOSTS_KEY],
                    operation(item[AclEntry.OPERATION_KEY]),
                )
            )
        return entries

    @staticmethod
    def to_json_compatible_map(acls: Iterable[AclEntry]) -> dict[str, Any]:
        # PORT: Kafka writes the entries in its hash set's order; ours are sorted, so equal sets write equal bytes.
        ordered = sorted(acls, key=lambda a: (a.principal, a.permission_type.value, a.operation.value, a.host))
        return {AclEntry.VERSION_KEY: AclEntry.CURRENT_VERSION, AclEntry.ACLS_KEY: [a.to_map() for a in ordered]}

    @staticmethod
    def supported_operations(resource_type: ResourceType) -> frozenset[AclOperation]:
        try:
            return _SUPPORTED_OPERATIONS[resource_type]
        except KeyError:
            raise ValueError("Not a concrete resource type") from None

    @staticmethod
    def authorization_error(resource_type: ResourceType) -> Errors:
        try:
            return _AUTHORIZATION_ERRORS[resource_type]
        except KeyError:
            raise ValueError("Authorization error type not known") from None
