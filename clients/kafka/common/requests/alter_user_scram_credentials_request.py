"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterUserScramCredentialsRequest.java (Kafka 3.7).

AlterUserScramCredentials: delete or upsert SCRAM credentials of users.
"""

from __future__ import annotations

from kafka.common.message import AlterUserScramCredentialsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_user_scram_credentials_response import AlterUserScramCredentialsResponse
from kafka.common.requests.api_error import ApiError


class AlterUserScramCredentialsRequest(AbstractRequest[AlterUserScramCredentialsResponse]):
    API_KEY = ApiKeys.ALTER_USER_SCRAM_CREDENTIALS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AlterUserScramCredentialsResponse:
        # PORT: as in Java, the throttle time is not set in this error response.
        api_error = ApiError.from_throwable(e)
        users = {d.name for d in self._data.deletions} | {u.name for u in self._data.upsertions}
        results = [
            AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult(
                user=user, error_code=api_error.error.code, error_message=api_error.message
            )
            for user in sorted(users)
        ]
        return AlterUserScramCredentialsResponse(AlterUserScramCredentialsResponseData(results=results))
