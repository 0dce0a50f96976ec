"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeLogDirsOptions.java (Kafka 3.7).

Options of describeLogDirs. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["DescribeLogDirsOptions"]


class DescribeLogDirsOptions(AbstractOptions):
    """Options of describeLogDirs."""
