"""Port of core/src/main/scala/kafka/coordinator/group/DelayedRebalance.scala (Kafka 2.8).

The common base of the two delayed operations of a rebalance (DelayedJoin and DelayedSync), so that one purgatory,
"Rebalance", holds both. Such an operation runs under its group's lock.
"""

from __future__ import annotations

from kafka.server.delayed_operation import DelayedOperation, LockLike


class DelayedRebalance(DelayedOperation):
    """A delayed operation of a rebalance: it waits at most the group's rebalance timeout, under the group's lock."""

    def __init__(self, rebalance_timeout_ms: int, group_lock: LockLike) -> None:
        super().__init__(rebalance_timeout_ms, group_lock)
