"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeAclsRequest.java (Kafka 3.7).

DescribeAcls: the ACLs matching a filter. v0 knows only literal resource names, so an ANY pattern filter
becomes LITERAL there; a filter with an UNKNOWN element is rejected.
"""

from __future__ import annotations

from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import DescribeAclsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_acls_response import (
    PATTERN_TYPE_ANY,
    PATTERN_TYPE_LITERAL,
    UNKNOWN_CODE,
    DescribeAclsResponse,
)


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
