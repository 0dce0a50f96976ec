"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ConsumerGroupListing.java (Kafka 3.7).

One group of listConsumerGroups: its id, whether it is a simple group, and its state (None when the broker
does not report states, ListGroups before v4).
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.consumer_group_state import ConsumerGroupState

__all__ = ["ConsumerGroupListing"]


@dataclass(frozen=True, slots=True)
class ConsumerGroupListing:
    group_id: str
    is_simple_consumer_group: bool
    state: ConsumerGroupState | None = None

    def __str__(self) -> str:
        state = "Optional.empty" if self.state is None else f"Optional[{self.state}]"
        return (
            f"(groupId='{self.group_id}', isSimpleConsumerGroup={str(self.is_simple_consumer_group).lower()}, "
            f"state={state})"
        )
