"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteAclsRequest.java (Kafka 3.7).

DeleteAcls: filters whose matching ACLs are removed. v0 knows only literal resource names, so an ANY
pattern filter becomes LITERAL there; filters with UNKNOWN elements are rejected.
"""

from __future__ import annotations

from typing import Any

from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import DeleteAclsRequestData, DeleteAclsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.delete_acls_response import DeleteAclsResponse
from kafka.common.requests.describe_acls_response import PATTERN_TYPE_ANY, PATTERN_TYPE_LITERAL, UNKNOWN_CODE
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter
from kafka.common.resource.resource_type import ResourceType

_PATTERN_TYPE_NAMES = {0: "UNKNOWN", 1: "ANY", 2: "MATCH", 3: "LITERAL", 4: "PREFIXED"}


class DeleteAclsRequest(AbstractRequest[DeleteAclsResponse]):
    API_KEY = ApiKeys.DELETE_ACLS

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        if version == 0:
            for f in data.filters:
                if f.pattern_type_filter == PATTERN_TYPE_ANY:
                    f.pattern_type_filter = PATTERN_TYPE_LITERAL
                elif f.pattern_type_filter != PATTERN_TYPE_LITERAL:
                    name = _PATTERN_TYPE_NAMES.get(f.pattern_type_filter, "UNKNOWN")
                    raise UnsupportedVersionException(
                        f"Version 0 does not support pattern type {name} (only LITERAL and ANY are supported)"
                    )
        for f in data.filters:
            if UNKNOWN_CODE in (f.pattern_type_filter, f.resource_type_filter, f.operation, f.permission_type):
                raise ValueError(f"Filters contain UNKNOWN elements, filters: {data.filters}")

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DeleteAclsResponse:
        api_error = ApiError.from_throwable(e)
        results = [
            DeleteAclsResponseData.DeleteAclsFilterResult(
                error_code=api_error.error.code, error_message=api_error.message
            )
            for _ in self._data.filters
        ]
        return DeleteAclsResponse(
            DeleteAclsResponseData(throttle_time_ms=throttle_time_ms, filter_results=results), self._version
        )

    def filters(self) -> list[AclBindingFilter]:
        return [
            AclBindingFilter(
                ResourcePatternFilter(
                    ResourceType.from_code(f.resource_type_filter),
                    f.resource_name_filter,
                    PatternType.from_code(f.pattern_type_filter),
                ),
                AccessControlEntryFilter(
                    f.principal_filter,
                    f.host_filter,
                    AclOperation.from_code(f.operation),
                    AclPermissionType.from_code(f.permission_type),
                ),
            )
            for f in self._data.filters
        ]

    @staticmethod
    def delete_acls_filter(f: AclBindingFilter) -> Any:
        return DeleteAclsRequestData.DeleteAclsFilter(
            resource_type_filter=f.pattern_filter.resource_type.code,
            resource_name_filter=f.pattern_filter.name,
            pattern_type_filter=f.pattern_filter.pattern_type.code,
            principal_filter=f.entry_filter.principal,
            host_filter=f.entry_filter.host,
            operation=f.entry_filter.operation.code,
            permission_type=f.entry_filter.permission_type.code,
        )
