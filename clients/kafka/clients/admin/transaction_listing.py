"""Port of clients/src/main/java/org/apache/kafka/clients/admin/TransactionListing.java (Kafka 3.7).

One transaction of listTransactions: its transactional id, producer id and state.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.clients.admin.transaction_state import TransactionState

__all__ = ["TransactionListing"]


@dataclass(frozen=True, slots=True)
class TransactionListing:
    transactional_id: str
    producer_id: int
    state: TransactionState

    def __str__(self) -> str:
        return (
            f"TransactionListing(transactionalId='{self.transactional_id}', producerId={self.producer_id}, "
            f"transactionState={self.state})"
        )
