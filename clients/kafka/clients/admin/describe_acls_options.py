"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeAclsOptions.java (Kafka 3.7).

Options of describeAcls. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["DescribeAclsOptions"]


class DescribeAclsOptions(AbstractOptions):
    """Options of describeAcls."""
