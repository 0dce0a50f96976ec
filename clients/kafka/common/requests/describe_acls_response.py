"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeAclsResponse.java (Kafka 3.7).

The matching ACLs grouped by resource, or an error with a message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Self

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import DescribeAclsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType

# Codes of PatternType, ResourceType, AclOperation and AclPermissionType that these classes check.
UNKNOWN_CODE = 0
PATTERN_TYPE_ANY = 1
PATTERN_TYPE_LITERAL = 3


class DescribeAclsResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_ACLS
    CLIENT_THROTTLE_SINCE = 1

    def __init__(self, data: Any, version: int | None = None) -> None:
        """Checks that v0 carries only literal resource patterns and that nothing is UNKNOWN."""
        super().__init__(data)
        if version == 0 and any(r.pattern_type != PATTERN_TYPE_LITERAL for r in data.resources):
            raise UnsupportedVersionException("Version 0 only supports literal resource pattern types")
        for resource in data.resources:
            if UNKNOWN_CODE in (resource.pattern_type, resource.resource_type):
                raise ValueError("Contain UNKNOWN elements")
            for acl in resource.acls:
                if UNKNOWN_CODE in (acl.operation, acl.permission_type):
                    raise ValueError("Contain UNKNOWN elements")

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        return cls(data, version)

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def acls(self) -> list[Any]:
        return list(self._data.resources)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}

    @staticmethod
    def acls_resources(bindings: Iterable[AclBinding]) -> list[Any]:
        """The bindings grouped by resource pattern, as the response carries them."""
        by_pattern: dict[ResourcePattern, list[Any]] = {}
        for b in bindings:
            by_pattern.setdefault(b.pattern, []).append(
                DescribeAclsResponseData.AclDescription(
                    principal=b.entry.principal,
                    host=b.entry.host,
                    operation=b.entry.operation.code,
                    permission_type=b.entry.permission_type.code,
                )
            )
        return [
            DescribeAclsResponseData.DescribeAclsResource(
                resource_type=p.resource_type.code, resource_name=p.name, pattern_type=p.pattern_type.code, acls=acls
            )
            for p, acls in by_pattern.items()
        ]

    @staticmethod
    def acl_bindings(resource: Any) -> list[AclBinding]:
        """The bindings of one DescribeAclsResource."""
        pattern = ResourcePattern(
            ResourceType.from_code(resource.resource_type),
            resource.resource_name,
            PatternType.from_code(resource.pattern_type),
        )
        return [
            AclBinding(
                pattern,
                AccessControlEntry(
                    acl.principal,
                    acl.host,
                    AclOperation.from_code(acl.operation),
                    AclPermissionType.from_code(acl.permission_type),
                ),
            )
            for acl in resource.acls
        ]
