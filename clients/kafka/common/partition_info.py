"""Port of clients/src/main/java/org/apache/kafka/common/PartitionInfo.java (Kafka 3.7).

What a client knows of one partition from metadata: its leader (None when there is none) and its
replica, in-sync replica and offline replica nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kafka.common.node import Node

__all__ = ["PartitionInfo"]


@dataclass(frozen=True, slots=True)
class PartitionInfo:
    """One partition's placement. Replica lists are tuples so the value can be hashed and shared."""

    topic: str
    partition: int
    leader: Node | None
    replicas: tuple[Node, ...] = ()
    in_sync_replicas: tuple[Node, ...] = ()
    offline_replicas: tuple[Node, ...] = ()

    def __init__(
        self,
        topic: str,
        partition: int,
        leader: Node | None,
        replicas: Sequence[Node] = (),
        in_sync_replicas: Sequence[Node] = (),
        offline_replicas: Sequence[Node] = (),
    ) -> None:
        object.__setattr__(self, "topic", topic)
        object.__setattr__(self, "partition", partition)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "replicas", tuple(replicas))
        object.__setattr__(self, "in_sync_replicas", tuple(in_sync_replicas))
        object.__setattr__(self, "offline_replicas", tuple(offline_replicas))

    @staticmethod
    def _format_node_ids(nodes: Sequence[Node]) -> str:
        return "[" + ",".join(n.id_string for n in nodes) + "]"

    def __str__(self) -> str:
        leader = "none" if self.leader is None else self.leader.id_string
        return (
            f"Partition(topic = {self.topic}, partition = {self.partition}, leader = {leader}, "
            f"replicas = {self._format_node_ids(self.replicas)}, isr = {self._format_node_ids(self.in_sync_replicas)}, "
            f"offlineReplicas = {self._format_node_ids(self.offline_replicas)})"
        )
