"""Port of clients/src/main/java/org/apache/kafka/common/replica/RackAwareReplicaSelector.java (Kafka 2.8).

A client that sent a rack fetches from a replica in that rack: the leader if it is there, else the most caught-up
replica of the rack; a client without a rack, or in a rack with no replica, fetches from the leader.
"""

from __future__ import annotations

from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.replica.partition_view import PartitionView
from kafka.common.replica.replica_selector import ReplicaSelector
from kafka.common.replica.replica_view import ReplicaView
from kafka.common.topic_partition import TopicPartition


class RackAwareReplicaSelector(ReplicaSelector):
    def select(
        self, topic_partition: TopicPartition, client_metadata: ClientMetadata, partition_view: PartitionView
    ) -> ReplicaView | None:
        rack_id = client_metadata.rack_id
        if not rack_id:
            return partition_view.leader
        same_rack_replicas = {r for r in partition_view.replicas if r.endpoint.rack == rack_id}
        if not same_rack_replicas:
            return partition_view.leader
        if partition_view.leader in same_rack_replicas:
            return partition_view.leader
        return max(same_rack_replicas, key=ReplicaView.comparator_key)
