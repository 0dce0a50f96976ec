"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteAclsResponse.java (Kafka 3.7).

Per filter: an error and the ACLs it matched (and deleted), each with its own error.
"""

from __future__ import annotations

from typing import Any, Self

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import DeleteAclsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_acls_response import PATTERN_TYPE_LITERAL, UNKNOWN_CODE
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType


class DeleteAclsResponse(AbstractResponse):
    API_KEY = ApiKeys.DELETE_ACLS
    CLIENT_THROTTLE_SINCE = 1

    def __init__(self, data: Any, version: int) -> None:
        """Checks that v0 carries only literal resource patterns and that nothing is UNKNOWN."""
        super().__init__(data)
        matching = [acl for r in data.filter_results for acl in r.matching_acls]
        if version == 0 and any(acl.pattern_type != PATTERN_TYPE_LITERAL for acl in matching):
            raise UnsupportedVersionException("Version 0 only supports literal resource pattern types")
        for acl in matching:
            if UNKNOWN_CODE in (acl.pattern_type, acl.resource_type, acl.permission_type, acl.operation):
                raise ValueError("DeleteAclsMatchingAcls contain UNKNOWN elements")

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        return cls(data, version)

    def filter_results(self) -> list[Any]:
        return list(self._data.filter_results)

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(r.error_code for r in self._data.filter_results)

    @staticmethod
    def filter_result(result: Any) -> Any:
        """The DeleteAclsFilterResult of an authorizer's AclDeleteResult."""
        error = ApiError.from_throwable(result.exception) if result.exception is not None else ApiError.NONE
        matching = []
        for r in result.acl_binding_delete_results:
            acl_error = ApiError.from_throwable(r.exception) if r.exception is not None else ApiError.NONE
            b = r.acl_binding
            matching.append(
                DeleteAclsResponseData.DeleteAclsMatchingAcl(
                    error_code=acl_error.error.code,
                    error_message=acl_error.message,
                    resource_type=b.pattern.resource_type.code,
                    resource_name=b.pattern.name,
                    pattern_type=b.pattern.pattern_type.code,
                    principal=b.entry.principal,
                    host=b.entry.host,
                    operation=b.entry.operation.code,
                    permission_type=b.entry.permission_type.code,
                )
            )
        return DeleteAclsResponseData.DeleteAclsFilterResult(
            error_code=error.error.code, error_message=error.message, matching_acls=matching
        )

    @staticmethod
    def acl_binding(matching_acl: Any) -> AclBinding:
        return AclBinding(
            ResourcePattern(
                ResourceType.from_code(matching_acl.resource_type),
                matching_acl.resource_name,
                PatternType.from_code(matching_acl.pattern_type),
            ),
            AccessControlEntry(
                matching_acl.principal,
                matching_acl.host,
                AclOperation.from_code(matching_acl.operation),
                AclPermissionType.from_code(matching_acl.permission_type),
            ),
        )
