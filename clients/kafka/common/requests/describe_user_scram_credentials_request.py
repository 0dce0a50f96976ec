"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeUserScramCredentialsRequest.java (Kafka 3.7).

DescribeUserScramCredentials: the SCRAM mechanisms and iterations of users (all users when null).
"""

from __future__ import annotations

from kafka.common.message import DescribeUserScramCredentialsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_user_scram_credentials_response import DescribeUserScramCredentialsResponse


class DescribeUserScramCredentialsRequest(AbstractRequest[DescribeUserScramCredentialsResponse]):
    API_KEY = ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> DescribeUserScramCredentialsResponse:
        api_error = ApiError.from_throwable(e)
        data = DescribeUserScramCredentialsResponseData(
            throttle_time_ms=throttle_time_ms, error_code=api_error.error.code, error_message=api_error.message
        )
        # As in Java, one result per user asked for, without the user's name.
        for _ in self._data.users or []:
            data.results.append(
                DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult(
                    error_code=api_error.error.code, error_message=api_error.message
                )
            )
        return DescribeUserScramCredentialsResponse(data)
