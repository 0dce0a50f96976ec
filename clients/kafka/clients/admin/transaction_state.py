"""Port of clients/src/main/java/org/apache/kafka/clients/admin/TransactionState.java (Kafka 3.7).

The states of a transaction as the admin client reports them (ListTransactions, DescribeTransactions): the
coordinator's names, plus UNKNOWN for a name this client does not know.
"""

from __future__ import annotations

from kafka.common.utils.state_enum import StateEnum

__all__ = ["TransactionState"]


class TransactionState(StateEnum):
    """A transaction's state; the value is the coordinator's name for it (what str() gives, as Java's toString)."""

    ONGOING = "Ongoing"
    PREPARE_ABORT = "PrepareAbort"
    PREPARE_COMMIT = "PrepareCommit"
    COMPLETE_ABORT = "CompleteAbort"
    COMPLETE_COMMIT = "CompleteCommit"
    EMPTY = "Empty"
    PREPARE_EPOCH_FENCE = "PrepareEpochFence"
    UNKNOWN = "Unknown"
