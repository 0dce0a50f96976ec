"""Port of clients/src/main/java/org/apache/kafka/common/requests/ControlledShutdownResponse.java (Kafka 3.7).

An error code and the partitions whose leadership could not be moved yet.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.common.message import ControlledShutdownResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ControlledShutdownResponse(AbstractResponse):
    API_KEY = ApiKeys.CONTROLLED_SHUTDOWN

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}

    @classmethod
    def prepare_response(cls, error: Errors, partitions: Iterable[tuple[str, int]]) -> ControlledShutdownResponse:
        """The response with `error` and the (topic, partition)s still led by the broker."""
        data = ControlledShutdownResponseData(error_code=error.code)
        for topic, partition in partitions:
            data.remaining_partitions.append(
                ControlledShutdownResponseData.RemainingPartition(topic_name=topic, partition_index=partition)
            )
        return cls(data)
