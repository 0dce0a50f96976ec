"""Port of core/src/main/scala/kafka/server/RequestHandlerHelper.scala (Kafka 2.8): the companion object's
`onLeadershipChange`.

# PORT: only the object's leadership hook is ported here. The class RequestHandlerHelper's throttled and exempt
# sends (sendResponseMaybeThrottle, sendResponseExemptThrottle, sendResponseMaybeThrottleWithControllerQuota, ...)
# are methods of KafkaApis, which sends its responses itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.common.internals.topic import Topic


def on_leadership_change(
    group_coordinator: Any,
    txn_coordinator: Any | None,
    updated_leaders: Iterable[Any],
    updated_followers: Iterable[Any],
) -> None:
    """Tells the coordinators which partitions of their topics this broker now leads (load them) and which it
    now follows (unload them). ReplicaManager calls this under its replica state change lock, so that
    leadership changes reach the coordinators in the order they happened. Without a transaction coordinator
    (None, in tests of the group APIs) changes of __transaction_state partitions are ignored."""
    for partition in updated_leaders:
        if partition.topic == Topic.GROUP_METADATA_TOPIC_NAME:
            group_coordinator.on_election(partition.partition_id, partition.get_leader_epoch())
        elif partition.topic == Topic.TRANSACTION_STATE_TOPIC_NAME and txn_coordinator is not None:
            txn_coordinator.on_election(partition.partition_id, partition.get_leader_epoch())
    for partition in updated_followers:
        if partition.topic == Topic.GROUP_METADATA_TOPIC_NAME:
            group_coordinator.on_resignation(partition.partition_id, partition.get_leader_epoch())
        elif partition.topic == Topic.TRANSACTION_STATE_TOPIC_NAME and txn_coordinator is not None:
            txn_coordinator.on_resignation(partition.partition_id, partition.get_leader_epoch())
