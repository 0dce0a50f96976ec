"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeAclsResult.java (Kafka 3.7).

The future of describeAcls: the ACL bindings that matched the filter.
"""

from __future__ import annotations

from kafka.common.acl.acl_binding import AclBinding
from kafka.common.kafka_future import KafkaFuture

__all__ = ["DescribeAclsResult"]


class DescribeAclsResult:
    def __init__(self, future: KafkaFuture[list[AclBinding]]) -> None:
        self._future = future

    def values(self) -> KafkaFuture[list[AclBinding]]:
        return self._future
