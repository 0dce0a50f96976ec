"""Port of core/src/main/scala/kafka/coordinator/group/DelayedHeartbeat.scala (Kafka 2.8).

The session timeout of one member: it completes when the member shows it is alive (a heartbeat, a join, a sync, a
commit) and, when it expires instead, the coordinator removes the member. A pending member (KIP-394: given a member
id but not yet rejoined) gets one too, completed by its rejoin. Runs under the group's lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.server.delayed_operation import DelayedOperation

if TYPE_CHECKING:
    from kafka.coordinator.group.group_coordinator import GroupCoordinator
    from kafka.coordinator.group.group_metadata import GroupMetadata


class DelayedHeartbeat(DelayedOperation):
    """Expires `member_id` of `group` unless the coordinator sees it alive within `timeout_ms`."""

    def __init__(
        self, coordinator: GroupCoordinator, group: GroupMetadata, member_id: str, is_pending: bool, timeout_ms: int
    ) -> None:
        super().__init__(timeout_ms, group.lock)
        self._coordinator = coordinator
        self._group = group
        self._member_id = member_id
        self._is_pending = is_pending

    def try_complete(self) -> bool:
        return self._coordinator.try_complete_heartbeat(
            self._group, self._member_id, self._is_pending, self.force_complete
        )

    def on_expiration(self) -> None:
        self._coordinator.on_expire_heartbeat(self._group, self._member_id, self._is_pending)

    def on_complete(self) -> None:
        pass
