"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterReplicaLogDirsResponse.java (Kafka 3.7).

One error per moved partition.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class AlterReplicaLogDirsResponse(AbstractResponse):
    API_KEY = ApiKeys.ALTER_REPLICA_LOG_DIRS
    CLIENT_THROTTLE_SINCE = 1

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(p.error_code for t in self._data.results for p in t.partitions)
