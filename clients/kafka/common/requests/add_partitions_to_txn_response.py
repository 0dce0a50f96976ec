"""Port of clients/src/main/java/org/apache/kafka/common/requests/AddPartitionsToTxnResponse.java (Kafka 3.7).

An error per partition: for the client's single transaction (v0-3, under the id "") or per transaction
(v4+, with a top-level error).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kafka.common.message import AddPartitionsToTxnResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse

V3_AND_BELOW_TXN_ID = ""


class AddPartitionsToTxnResponse(AbstractResponse):
    API_KEY = ApiKeys.ADD_PARTITIONS_TO_TXN
    CLIENT_THROTTLE_SINCE = 1
    V3_AND_BELOW_TXN_ID = V3_AND_BELOW_TXN_ID

    def errors(self) -> dict[str, dict[tuple[str, int], Errors]]:
        """Partition errors per transactional id (v0-3 results under V3_AND_BELOW_TXN_ID)."""
        result: dict[str, dict[tuple[str, int], Errors]] = {}
        if len(self._data.results_by_topic_v3_and_below) > 0:
            result[V3_AND_BELOW_TXN_ID] = self.errors_for_transaction(self._data.results_by_topic_v3_and_below)
        for txn in self._data.results_by_transaction:
            result[txn.transactional_id] = self.errors_for_transaction(txn.topic_results)
        return result

    @staticmethod
    def errors_for_transaction(topic_results: Iterable[Any]) -> dict[tuple[str, int], Errors]:
        return {
            (topic.name, p.partition_index): Errors.for_code(p.partition_error_code)
            for topic in topic_results
            for p in topic.results_by_partition
        }

    @staticmethod
    def result_for_transaction(transactional_id: str, errors: Mapping[tuple[str, int], Errors]) -> Any:
        """An AddPartitionsToTxnResult for errors keyed by (topic, partition)."""
        return AddPartitionsToTxnResponseData.AddPartitionsToTxnResult(
            transactional_id=transactional_id, topic_results=_topic_collection_for_errors(errors)
        )

    def get_transaction_topic_results(self, transactional_id: str) -> Any:
        return self._data.results_by_transaction.find(transactional_id).topic_results

    def error_counts(self) -> dict[Errors, int]:
        all_errors: list[Errors] = []
        # Without v0-3 results this is a v4+ response, whose top-level error counts too.
        if len(self._data.results_by_topic_v3_and_below) == 0:
            all_errors.append(Errors.for_code(self._data.error_code))
        for errors in self.errors().values():
            all_errors.extend(errors.values())
        return self._error_counts(all_errors)


def _topic_collection_for_errors(errors: Mapping[tuple[str, int], Errors]) -> Any:
    by_topic: dict[str, Any] = {}
    for (topic, partition), error in errors.items():
        partitions = by_topic.get(topic)
        if partitions is None:
            partitions = AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResultCollection()
            by_topic[topic] = partitions
        partitions.append(
            AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult(
                partition_error_code=error.code, partition_index=partition
            )
        )
    result = AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResultCollection()
    for topic, partitions in by_topic.items():
        result.append(
            AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult(name=topic, results_by_partition=partitions)
        )
    return result
