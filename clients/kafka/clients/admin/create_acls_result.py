"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreateAclsResult.java (Kafka 3.7).

A future per ACL binding asked for, completing with None once the broker created it.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.acl.acl_binding import AclBinding
from kafka.common.kafka_future import KafkaFuture

__all__ = ["CreateAclsResult"]


class CreateAclsResult:
    def __init__(self, futures: Mapping[AclBinding, KafkaFuture[None]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[AclBinding, KafkaFuture[None]]:
        return dict(self._futures)

    def all(self) -> KafkaFuture[None]:
        """Completes when every binding is created; fails if any creation failed."""
        return KafkaFuture.all_of(self._futures.values())
