"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeDelegationTokenRequest.java (Kafka 3.7).

DescribeDelegationToken: the tokens of some owners (all tokens the caller may see when the list is null).
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.describe_delegation_token_response import DescribeDelegationTokenResponse


class DescribeDelegationTokenRequest(AbstractRequest[DescribeDelegationTokenResponse]):
    API_KEY = ApiKeys.DESCRIBE_DELEGATION_TOKEN

    def owners_list_empty(self) -> bool:
        return self._data.owners is not None and len(self._data.owners) == 0

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeDelegationTokenResponse:
        return DescribeDelegationTokenResponse.of(self._version, throttle_time_ms, Errors.for_exception(e))
