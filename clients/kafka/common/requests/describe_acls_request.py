"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeAclsRequest.java (Kafka 3.7).

DescribeAcls: the ACLs matching a filter. v0 knows only literal resource names, so an ANY pattern filter
becomes LITERAL there; a filter with an UNKNOWN element is rejected.
"""

from __future__ import annotations

from typing import Any

from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import DescribeAclsRequestData, DescribeAclsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_acls_response import (
    PATTERN_TYPE_ANY,
    PATTERN_TYPE_LITERAL,
    UNKNOWN_CODE,
    DescribeAclsResponse,
)
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter
from kafka.common.resource.resource_type import ResourceType


class DescribeAclsRequest(AbstractRequest[DescribeAclsResponse]):
    API_KEY = ApiKeys.DESCRIBE_ACLS

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        if version == 0:
            if data.pattern_type_filter == PATTERN_TYPE_ANY:
                data.pattern_type_filter = PATTERN_TYPE_LITERAL
            elif data.pattern_type_filter != PATTERN_TYPE_LITERAL:
                raise UnsupportedVersionException("Version 0 only supports literal resource pattern types")
        if UNKNOWN_CODE in (
            data.pattern_type_filter,
            data.resource_type_filter,
            data.permission_type,
            data.operation,
        ):
            raise ValueError(f"DescribeAclsRequest contains UNKNOWN elements: {data}")

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeAclsResponse:
        error = ApiError.from_throwable(e)
        data = DescribeAclsResponseData(
            throttle_time_ms=throttle_time_ms, error_code=error.error.code, error_message=error.message
        )
        return DescribeAclsResponse(data, self._version)

    def filter(self) -> AclBindingFilter:
        """The request's filter."""
        d = self._data
        return AclBindingFilter(
            ResourcePatternFilter(
                ResourceType.from_code(d.resource_type_filter),
                d.resource_name_filter,
                PatternType.from_code(d.pattern_type_filter),
            ),
            AccessControlEntryFilter(
                d.principal_filter,
                d.host_filter,
                AclOperation.from_code(d.operation),
                AclPermissionType.from_code(d.permission_type),
            ),
        )

    @staticmethod
    def data_of(f: AclBindingFilter) -> Any:
        """The request data of a filter."""
        return DescribeAclsRequestData(
            resource_type_filter=f.pattern_filter.resource_type.code,
            resource_name_filter=f.pattern_filter.name,
            pattern_type_filter=f.pattern_filter.pattern_type.code,
            principal_filter=f.entry_filter.principal,
            host_filter=f.entry_filter.host,
            operation=f.entry_filter.operation.code,
            permission_type=f.entry_filter.permission_type.code,
        )
