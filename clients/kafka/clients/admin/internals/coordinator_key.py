"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/CoordinatorKey.java (Kafka 3.7).

What a coordinator is looked up for: a consumer group id or a transactional id.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.requests.find_coordinator_request import CoordinatorType

__all__ = ["CoordinatorKey"]


@dataclass(frozen=True, slots=True)
class CoordinatorKey:
    type: CoordinatorType
    id_value: str

    @staticmethod
    def by_group_id(group_id: str) -> CoordinatorKey:
        return CoordinatorKey(CoordinatorType.GROUP, group_id)

    @staticmethod
    def by_transactional_id(transactional_id: str) -> CoordinatorKey:
        return CoordinatorKey(CoordinatorType.TRANSACTION, transactional_id)

    def __str__(self) -> str:
        return f"CoordinatorKey(idValue='{self.id_value}', type={self.type.name})"

    __repr__ = __str__
