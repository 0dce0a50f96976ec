"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeClientQuotasRequest.java (Kafka 3.7).

DescribeClientQuotas: the quotas of the client entities (user, client id, IP) that match a filter.
"""

from __future__ import annotations

from kafka.common.message import DescribeClientQuotasResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_client_quotas_response import DescribeClientQuotasResponse

# Match types of a filter component.
MATCH_TYPE_EXACT = 0
MATCH_TYPE_DEFAULT = 1
MATCH_TYPE_SPECIFIED = 2


class DescribeClientQuotasRequest(AbstractRequest[DescribeClientQuotasResponse]):
    API_KEY = ApiKeys.DESCRIBE_CLIENT_QUOTAS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeClientQuotasResponse:
        error = ApiError.from_throwable(e)
        return DescribeClientQuotasResponse(
            DescribeClientQuotasResponseData(
                throttle_time_ms=throttle_time_ms,
                error_code=error.error.code,
                error_message=error.message,
                entries=None,
            )
        )
