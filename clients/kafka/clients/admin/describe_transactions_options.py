"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeTransactionsOptions.java (Kafka 3.7).

Options of describeTransactions: only the call's timeout.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["DescribeTransactionsOptions"]


class DescribeTransactionsOptions(AbstractOptions):
    """Options of describeTransactions."""
