"""Port of core/src/main/scala/kafka/coordinator/group/DelayedSync.scala (Kafka 2.8, KAFKA-12890).

The CompletingRebalance phase of a generation: once the JoinGroup responses are out, every member must send its
SyncGroup within the rebalance timeout. The operation completes when all have (or the generation or state moved
on); when it expires, the members that never synced are removed and the group rebalances again, so that a group
cannot stay in CompletingRebalance for ever because of one silent member.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.coordinator.group.delayed_rebalance import DelayedRebalance

if TYPE_CHECKING:
    from kafka.coordinator.group.group_coordinator import GroupCoordinator
    from kafka.coordinator.group.group_metadata import GroupMetadata


class DelayedSync(DelayedRebalance):
    """Completes when every member of generation `generation_id` of `group` has synced, or after
    `rebalance_timeout_ms`."""

    def __init__(
        self, coordinator: GroupCoordinator, group: GroupMetadata, generation_id: int, rebalance_timeout_ms: int
    ) -> None:
        super().__init__(rebalance_timeout_ms, group.lock)
        self._coordinator = coordinator
        self._group = group
        self._generation_id = generation_id

    def try_complete(self) -> bool:
        return self._coordinator.try_complete_pending_sync(self._group, self._generation_id, self.force_complete)

    def on_expiration(self) -> None:
        self._coordinator.on_expire_pending_sync(self._group, self._generation_id)

    def on_complete(self) -> None:
        pass
