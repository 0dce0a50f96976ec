"""Port of clients/src/main/java/org/apache/kafka/common/requests/CreateAclsResponse.java (Kafka 3.7).

One result (error and message) per ACL creation, in request order.
"""

from __future__ import annotations

from typing import Any

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class CreateAclsResponse(AbstractResponse):
    API_KEY = ApiKeys.CREATE_ACLS
    CLIENT_THROTTLE_SINCE = 1

    def results(self) -> list[Any]:
        return list(self._data.results)

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(r.error_code for r in self._data.results)
