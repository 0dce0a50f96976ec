"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeTransactionsResult.java (Kafka 3.7).

The futures of describeTransactions: one per transactional id.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin._results import all_values
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.transaction_description import TransactionDescription
from kafka.common.kafka_future import KafkaFuture

__all__ = ["DescribeTransactionsResult"]


class DescribeTransactionsResult:
    def __init__(self, futures: Mapping[CoordinatorKey, KafkaFuture[TransactionDescription]]) -> None:
        self._futures = dict(futures)

    def description(self, transactional_id: str) -> KafkaFuture[TransactionDescription]:
        """The future of one transactional id; ValueError (Java's IllegalArgumentException) for an id that was
        not asked for."""
        future = self._futures.get(CoordinatorKey.by_transactional_id(transactional_id))
        if future is None:
            raise ValueError(f"TransactionalId `{transactional_id}` was not included in the request")
        return future

    def all(self) -> KafkaFuture[dict[str, TransactionDescription]]:
        """Every description by transactional id; fails if any transactional id failed."""
        return all_values({key.id_value: future for key, future in self._futures.items()})
