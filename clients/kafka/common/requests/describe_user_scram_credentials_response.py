"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeUserScramCredentialsResponse.java (Kafka 3.7).

A top-level error and, per user, an error and the credential infos.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class DescribeUserScramCredentialsResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS
    CLIENT_THROTTLE_SINCE = 0

    def error_counts(self) -> dict[Errors, int]:
        # As Java's: the per-user errors only.
        return self._error_counts_of_codes(r.error_code for r in self._data.results)
