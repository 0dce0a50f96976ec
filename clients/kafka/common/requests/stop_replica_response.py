"""Port of clients/src/main/java/org/apache/kafka/common/requests/StopReplicaResponse.java (Kafka 3.7).

A top-level error and one error per stopped partition.
"""

from __future__ import annotations

from typing import Any

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class StopReplicaResponse(AbstractResponse):
    API_KEY = ApiKeys.STOP_REPLICA

    def partition_errors(self) -> list[Any]:
        return list(self._data.partition_errors)

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        if self._data.error_code != Errors.NONE.code:
            # The top-level error stands for every partition too.
            return {self.error(): len(self._data.partition_errors) + 1}
        counts = self._error_counts_of_codes(p.error_code for p in self._data.partition_errors)
        self._update_error_counts(counts, self.error())
        return counts
