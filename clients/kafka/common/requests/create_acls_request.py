"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreateAclsRequest.java (Kafka 3.7).

CreateAcls: ACL bindings to add. v0 knows only literal resource patterns; UNKNOWN elements are rejected.
"""

from __future__ import annotations

from typing import Any

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import CreateAclsRequestData, CreateAclsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.create_acls_response import CreateAclsResponse
from kafka.common.requests.describe_acls_response import PATTERN_TYPE_LITERAL, UNKNOWN_CODE
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType


class CreateAclsRequest(AbstractRequest[CreateAclsResponse]):
    API_KEY = ApiKeys.CREATE_ACLS

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        if version == 0 and any(c.resource_pattern_type != PATTERN_TYPE_LITERAL for c in data.creations):
            raise UnsupportedVersionException("Version 0 only supports literal resource pattern types")
        for c in data.creations:
            if UNKNOWN_CODE in (c.resource_pattern_type, c.resource_type, c.permission_type, c.operation):
                raise ValueError(f"CreatableAcls contain unknown elements: {data.creations}")

    def acl_creations(self) -> list[Any]:
        return list(self._data.creations)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> CreateAclsResponse:
        api_error = ApiError.from_throwable(e)
        results = [
            CreateAclsResponseData.AclCreationResult(error_code=api_error.error.code, error_message=api_error.message)
            for _ in self._data.creations
        ]
        return CreateAclsResponse(CreateAclsResponseData(throttle_time_ms=throttle_time_ms, results=results))

    @staticmethod
    def acl_binding(creation: Any) -> AclBinding:
        """The binding one AclCreation asks for."""
        return AclBinding(
            ResourcePattern(
                ResourceType.from_code(creation.resource_type),
                creation.resource_name,
                PatternType.from_code(creation.resource_pattern_type),
            ),
            AccessControlEntry(
                creation.principal,
                creation.host,
                AclOperation.from_code(creation.operation),
                AclPermissionType.from_code(creation.permission_type),
            ),
        )

    @staticmethod
    def acl_creation(binding: AclBinding) -> Any:
        """The AclCreation of one binding."""
        return CreateAclsRequestData.AclCreation(
            resource_type=binding.pattern.resource_type.code,
            resource_name=binding.pattern.name,
            resource_pattern_type=binding.pattern.pattern_type.code,
            principal=binding.entry.principal,
            host=binding.entry.host,
            operation=binding.entry.operation.code,
            permission_type=binding.entry.permission_type.code,
        )
