"""Port of core/src/main/scala/kafka/coordinator/group/DelayedJoin.scala (Kafka 2.8).

DelayedJoin is the PreparingRebalance phase of a group: it completes as soon as every known member has sent its
JoinGroup again, or when the rebalance timeout runs out (members that did not rejoin are then dropped); either way
the coordinator then forms the next generation.

InitialDelayedJoin is used instead when an Empty group starts rebalancing: it never completes early, and each time
its delay (group.initial.rebalance.delay.ms) passes with new members having joined meanwhile, it waits once more,
until the members stop arriving or the group's rebalance timeout is used up. This lets a whole set of consumers
starting together land in the first generation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.coordinator.group.delayed_rebalance import DelayedRebalance
from kafka.server.delayed_operation_key import GroupJoinKey

if TYPE_CHECKING:
    from kafka.coordinator.group.group_coordinator import GroupCoordinator
    from kafka.coordinator.group.group_metadata import GroupMetadata
    from kafka.server.delayed_operation import DelayedOperationPurgatory


class DelayedJoin(DelayedRebalance):
    """Completes when all members have rejoined `group`, or after `rebalance_timeout` ms."""

    def __init__(self, coordinator: GroupCoordinator, group: GroupMetadata, rebalance_timeout: int) -> None:
        super().__init__(rebalance_timeout, group.lock)
        self._coordinator = coordinator
        self._group = group

    def try_complete(self) -> bool:
        return self._coordinator.try_complete_join(self._group, self.force_complete)

    def on_expiration(self) -> None:
        # The completion (on_complete_join) may have written the group to the log: let the operations that
        # append made completable run now, since no request handler will drain the action queue for a timeout.
        self._try_to_complete_delayed_action()

    def on_complete(self) -> None:
        self._coordinator.on_complete_join(self._group)

    def _try_to_complete_delayed_action(self) -> None:
        self._coordinator.group_manager.replica_manager.try_complete_actions()


class InitialDelayedJoin(DelayedJoin):
    """The first PreparingRebalance of an Empty group: waits `delay_ms`, then again (at most
    `configured_rebalance_delay` each time) while new members keep joining and `remaining_ms` lasts."""

    def __init__(
        self,
        coordinator: GroupCoordinator,
        purgatory: DelayedOperationPurgatory[DelayedRebalance],
        group: GroupMetadata,
        configured_rebalance_delay: int,
        delay_ms: int,
        remaining_ms: int,
    ) -> None:
        super().__init__(coordinator, group, delay_ms)
        self._purgatory = purgatory
        self._configured_rebalance_delay = configured_rebalance_delay
        self._delay_ms = delay_ms
        self._remaining_ms = remaining_ms

    def try_complete(self) -> bool:
        return False  # only the delay ends it

    def on_complete(self) -> None:
        group = self._group
        with group.lock:
            if group.new_member_added and self._remaining_ms != 0:
                group.new_member_added = False
                delay = min(self._configured_rebalance_delay, self._remaining_ms)
                remaining = max(self._remaining_ms - self._delay_ms, 0)
                self._purgatory.try_complete_else_watch(
                    InitialDelayedJoin(
                        self._coordinator, self._purgatory, group, self._configured_rebalance_delay, delay, remaining
                    ),
                    [GroupJoinKey(group.group_id)],
                )
            else:
                super().on_complete()
