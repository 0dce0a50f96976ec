"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeClusterResult.java (Kafka 3.7).

The futures of describeCluster: the brokers, the controller (None when there is none), the cluster id, and the
ACL operations the caller may perform on the cluster (None when not asked for).
"""

from __future__ import annotations

from kafka.common.acl.acl_operation import AclOperation
from kafka.common.kafka_future import KafkaFuture
from kafka.common.node import Node

__all__ = ["DescribeClusterResult"]


class DescribeClusterResult:
    def __init__(
        self,
        nodes: KafkaFuture[list[Node]],
        controller: KafkaFuture[Node | None],
        cluster_id: KafkaFuture[str | None],
        authorized_operations: KafkaFuture[frozenset[AclOperation] | None],
    ) -> None:
        self._nodes = nodes
        self._controller = controller
        self._cluster_id = cluster_id
        self._authorized_operations = authorized_operations

    def nodes(self) -> KafkaFuture[list[Node]]:
        return self._nodes

    def controller(self) -> KafkaFuture[Node | None]:
        return self._controller

    def cluster_id(self) -> KafkaFuture[str | None]:
        return self._cluster_id

    def authorized_operations(self) -> KafkaFuture[frozenset[AclOperation] | None]:
        return self._authorized_operations
