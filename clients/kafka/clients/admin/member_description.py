"""Port of clients/src/main/java/org/apache/kafka/clients/admin/MemberDescription.java (Kafka 3.7).

One member of a consumer group as describeConsumerGroups reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kafka.clients.admin.member_assignment import MemberAssignment

__all__ = ["MemberDescription"]


@dataclass(frozen=True, slots=True)
class MemberDescription:
    """A member's id, static instance id (None if dynamic), client id, host and assignment.

    # PORT: Java's getter of the member id is `consumerId()`; both `member_id` and `consumer_id` read it."""

    member_id: str
    group_instance_id: str | None
    client_id: str
    host: str
    assignment: MemberAssignment = field(default_factory=MemberAssignment)

    def __post_init__(self) -> None:
        if self.assignment is None:
            object.__setattr__(self, "assignment", MemberAssignment())

    @property
    def consumer_id(self) -> str:
        return self.member_id

    def __str__(self) -> str:
        instance = "null" if self.group_instance_id is None else self.group_instance_id
        return (
            f"(memberId={self.member_id}, groupInstanceId={instance}, clientId={self.client_id}, "
            f"host={self.host}, assignment={self.assignment})"
        )
