"""Port of clients/src/main/java/org/apache/kafka/common/requests/DeleteAclsResponse.java (Kafka 3.7).

Per filter: an error and the ACLs it matched (and deleted), each with its own error.
"""

from __future__ import annotations

from typing import Any, Self

from kafka.common.errors import UnsupportedVersionException
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.describe_acls_response import PATTERN_TYPE_LITERAL, UNKNOWN_CODE


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
