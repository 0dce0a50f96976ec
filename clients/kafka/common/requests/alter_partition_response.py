"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterPartitionResponse.java (Kafka 3.7).

A top-level error and, per partition, an error or the new leader, ISR and epochs.
"""

from __future__ import annotations

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class AlterPartitionResponse(AbstractResponse):
    API_KEY = ApiKeys.ALTER_PARTITION

    def error_counts(self) -> dict[Errors, int]:
        counts = {Errors.for_code(self._data.error_code): 1}
        for topic in self._data.topics:
            for p in topic.partitions:
                self._update_error_counts(counts, Errors.for_code(p.error_code))
        return counts
