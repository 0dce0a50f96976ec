"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ConsumerGroupDescription.java (Kafka 3.7).

What describeConsumerGroups says of a group: whether it is a simple group (offsets only, no members), its
members, the partition assignor chosen, its state, its coordinator, and the ACL operations the caller may
perform (None when not asked for).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kafka.clients.admin.member_description import MemberDescription
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.consumer_group_state import ConsumerGroupState
from kafka.common.node import Node

__all__ = ["ConsumerGroupDescription"]


@dataclass(frozen=True, slots=True)
class ConsumerGroupDescription:
    group_id: str
    is_simple_consumer_group: bool
    members: tuple[MemberDescription, ...]
    partition_assignor: str
    state: ConsumerGroupState
    coordinator: Node | None
    authorized_operations: frozenset[AclOperation] | None

    def __init__(
        self,
        group_id: str,
        is_simple_consumer_group: bool,
        members: Iterable[MemberDescription],
        partition_assignor: str,
        state: ConsumerGroupState,
        coordinator: Node | None,
        authorized_operations: Iterable[AclOperation] | None = frozenset(),
    ) -> None:
        object.__setattr__(self, "group_id", "" if group_id is None else group_id)
        object.__setattr__(self, "is_simple_consumer_group", is_simple_consumer_group)
        object.__setattr__(self, "members", tuple(members or ()))
        object.__setattr__(self, "partition_assignor", "" if partition_assignor is None else partition_assignor)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "coordinator", coordinator)
        object.__setattr__(
            self, "authorized_operations", None if authorized_operations is None else frozenset(authorized_operations)
        )

    def __str__(self) -> str:
        ops = "null" if self.authorized_operations is None else str(sorted(o.name for o in self.authorized_operations))
        return (
            f"(groupId={self.group_id}, isSimpleConsumerGroup={str(self.is_simple_consumer_group).lower()}, "
            f"members={','.join(map(str, self.members))}, partitionAssignor={self.partition_assignor}, "
            f"state={self.state}, coordinator={self.coordinator}, authorizedOperations={ops})"
        )
