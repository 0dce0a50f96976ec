"""Port of clients/src/main/java/org/apache/kafka/common/requests/LeaderAndIsrResponse.java (Kafka 3.7).

A top-level error and one error per partition; before v5 partitions are listed flat with their topic
name, from v5 grouped by topic id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class LeaderAndIsrResponse(AbstractResponse):
    API_KEY = ApiKeys.LEADER_AND_ISR

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data)
        self._version = version

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        return cls(data, version)

    def topics(self) -> Any:
        return self._data.topics

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        error = self.error()
        if error is not Errors.NONE:
            # The top-level error stands for every partition too.
            if self._version < 5:
                return {error: len(self._data.partition_errors) + 1}
            return {error: sum(len(t.partition_errors) for t in self._data.topics) + 1}
        if self._version < 5:
            counts = self._error_counts_of_codes(p.error_code for p in self._data.partition_errors)
        else:
            counts = self._error_counts_of_codes(p.error_code for t in self._data.topics for p in t.partition_errors)
        self._update_error_counts(counts, Errors.NONE)
        return counts

    def partition_errors(self, topic_names: Mapping[Any, str]) -> dict[tuple[str, int], Errors]:
        """The error of each (topic, partition); from v5 topics are named through `topic_names` (by id) and
        unknown ids left out."""
        errors: dict[tuple[str, int], Errors] = {}
        if self._version < 5:
            for p in self._data.partition_errors:
                errors[(p.topic_name, p.partition_index)] = Errors.for_code(p.error_code)
        else:
            for topic in self._data.topics:
                name = topic_names.get(topic.topic_id)
                if name is not None:
                    for p in topic.partition_errors:
                        errors[(name, p.partition_index)] = Errors.for_code(p.error_code)
        return errors
