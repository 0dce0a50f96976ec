"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AbortTransactionOptions.java (Kafka 3.7).

Options of abortTransaction: only the call's timeout.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["AbortTransactionOptions"]


class AbortTransactionOptions(AbstractOptions):
    """Options of abortTransaction."""
