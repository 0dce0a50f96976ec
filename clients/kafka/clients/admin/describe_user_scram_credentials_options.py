"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeUserScramCredentialsOptions.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["DescribeUserScramCredentialsOptions"]


class DescribeUserScramCredentialsOptions(AbstractOptions):
    """Options of describeUserScramCredentials."""
