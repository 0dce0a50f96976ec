"""Port of clients/src/main/java/org/apache/kafka/common/requests/AddPartitionsToTxnRequest.java (Kafka 3.7).

AddPartitionsToTxn: a transactional producer (v0-3) adds partitions to its transaction; from v4 brokers
send it for several transactions at once, possibly only to verify them (KIP-890).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.common.message import AddPartitionsToTxnRequestData, AddPartitionsToTxnResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.add_partitions_to_txn_response import AddPartitionsToTxnResponse

LAST_CLIENT_VERSION = 3
EARLIEST_BROKER_VERSION = 4


class AddPartitionsToTxnRequest(AbstractRequest[AddPartitionsToTxnResponse]):
    API_KEY = ApiKeys.ADD_PARTITIONS_TO_TXN

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AddPartitionsToTxnResponse:
        error = Errors.for_exception(e)
        data = AddPartitionsToTxnResponseData()
        if self._version < EARLIEST_BROKER_VERSION:
            data.results_by_topic_v3_and_below = self._error_response_for_topics(self._data.v3_and_below_topics, error)
        else:
            data.error_code = error.code
        data.throttle_time_ms = throttle_time_ms
        return AddPartitionsToTxnResponse(data)

    @staticmethod
    def get_partitions(topics: Iterable[Any]) -> list[tuple[str, int]]:
        return [(topic.name, p) for topic in topics for p in topic.partitions]

    def partitions_by_transaction(self) -> dict[str, list[tuple[str, int]]]:
        return {t.transactional_id: self.get_partitions(t.topics) for t in self._data.transactions}

    def normalize_request(self) -> AddPartitionsToTxnRequest:
        """A v0-3 request in the v4 layout (one transaction)."""
        data = AddPartitionsToTxnRequestData(transactions=self._singleton_transaction())
        return AddPartitionsToTxnRequest(data, self._version)

    def all_verify_only_request(self) -> bool:
        return self._version > LAST_CLIENT_VERSION and all(t.verify_only for t in self._data.transactions)

    def _singleton_transaction(self) -> Any:
        transactions = AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection()
        transactions.append(
            AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction(
                transactional_id=self._data.v3_and_below_transactional_id,
                producer_id=self._data.v3_and_below_producer_id,
                producer_epoch=self._data.v3_and_below_producer_epoch,
                topics=self._data.v3_and_below_topics,
            )
        )
        return transactions

    def error_response_for_transaction(self, transactional_id: str, error: Errors) -> Any:
        """An AddPartitionsToTxnResult giving `error` for every partition of one transaction of the request."""
        topics = self._data.transactions.find(transactional_id).topics
        return AddPartitionsToTxnResponseData.AddPartitionsToTxnResult(
            transactional_id=transactional_id, topic_results=self._error_response_for_topics(topics, error)
        )

    @staticmethod
    def _error_response_for_topics(topics: Iterable[Any], error: Errors) -> Any:
        results = AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResultCollection()
        for topic in topics:
            partitions = AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResultCollection()
            for p in topic.partitions:
                partitions.append(
                    AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult(
                        partition_index=p, partition_error_code=error.code
                    )
                )
            results.append(
                AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult(
                    name=topic.name, results_by_partition=partitions
                )
            )
        return results


class AddPartitionsToTxnRequestBuilder(Builder[AddPartitionsToTxnRequest]):
    """Port of AddPartitionsToTxnRequest.Builder (for_client: v0-3, for_broker: v4+)."""

    def __init__(self, min_version: int, max_version: int, data: Any) -> None:
        super().__init__(ApiKeys.ADD_PARTITIONS_TO_TXN, min_version, max_version)
        self.data = data

    @classmethod
    def for_client(
        cls, transactional_id: str, producer_id: int, producer_epoch: int, partitions: Iterable[tuple[str, int]]
    ) -> AddPartitionsToTxnRequestBuilder:
        by_topic: dict[str, list[int]] = {}
        for topic, partition in partitions:
            by_topic.setdefault(topic, []).append(partition)
        topics = AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection(
            AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in by_topic.items()
        )
        data = AddPartitionsToTxnRequestData(
            v3_and_below_transactional_id=transactional_id,
            v3_and_below_producer_id=producer_id,
            v3_and_below_producer_epoch=producer_epoch,
            v3_and_below_topics=topics,
        )
        return cls(ApiKeys.ADD_PARTITIONS_TO_TXN.oldest_version, LAST_CLIENT_VERSION, data)

    @classmethod
    def for_broker(cls, transactions: Any) -> AddPartitionsToTxnRequestBuilder:
        data = AddPartitionsToTxnRequestData(transactions=transactions)
        return cls(EARLIEST_BROKER_VERSION, ApiKeys.ADD_PARTITIONS_TO_TXN.latest_version(True), data)

    def _build(self, version: int) -> AddPartitionsToTxnRequest:
        return AddPartitionsToTxnRequest(self.data, version)
