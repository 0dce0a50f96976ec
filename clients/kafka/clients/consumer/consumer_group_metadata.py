"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerGroupMetadata.java (Kafka 3.7).

Who a consumer is in its group (group id, generation, member id, group instance id): what a
transactional producer sends along with offsets so the coordinator can fence stale members.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.requests.join_group_request import UNKNOWN_GENERATION_ID, UNKNOWN_MEMBER_ID

__all__ = ["ConsumerGroupMetadata"]


@dataclass(frozen=True, slots=True)
class ConsumerGroupMetadata:
    group_id: str
    generation_id: int = UNKNOWN_GENERATION_ID
    member_id: str = UNKNOWN_MEMBER_ID
    group_instance_id: str | None = None

    def __post_init__(self) -> None:
        if self.group_id is None:
            raise ValueError("group.id can't be null")
        if self.member_id is None:
            raise ValueError("member.id can't be null")

    def __str__(self) -> str:
        instance = self.group_instance_id or ""
        return (
            f"GroupMetadata(groupId = {self.group_id}, generationId = {self.generation_id}, memberId = "
            f"{self.member_id}, groupInstanceId = {instance})"
        )
