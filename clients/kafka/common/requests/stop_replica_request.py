"""Port of clients/src/main/java/org/apache/kafka/common/requests/StopReplicaRequest.java (Kafka 3.7).

StopReplica: the controller tells a broker to stop replicating partitions, and maybe delete them. v0
lists partitions flat, v1-2 by topic with one delete flag for all, v3+ per partition with a leader epoch.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.common.message import StopReplicaRequestData, StopReplicaResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_control_request import AbstractControlRequest
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.stop_replica_response import StopReplicaResponse


class StopReplicaRequest(AbstractControlRequest[StopReplicaResponse]):
    API_KEY = ApiKeys.STOP_REPLICA

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> StopReplicaResponse:
        error = Errors.for_exception(e)
        data = StopReplicaResponseData(error_code=error.code)
        data.partition_errors = [
            StopReplicaResponseData.StopReplicaPartitionError(
                topic_name=topic.topic_name, partition_index=partition.partition_index, error_code=error.code
            )
            for topic in self.topic_states()
            for partition in topic.partition_states
        ]
        return StopReplicaResponse(data)

    def topic_states(self) -> list[Any]:
        """The topics in the v3+ layout (StopReplicaTopicState), whatever the version's layout."""
        data = self._data
        if self._version < 1:
            by_topic: dict[str, Any] = {}
            for partition in data.ungrouped_partitions:
                topic_state = by_topic.get(partition.topic_name)
                if topic_state is None:
                    topic_state = StopReplicaRequestData.StopReplicaTopicState(topic_name=partition.topic_name)
                    by_topic[partition.topic_name] = topic_state
                topic_state.partition_states.append(
                    StopReplicaRequestData.StopReplicaPartitionState(
                        partition_index=partition.partition_index, delete_partition=data.delete_partitions
                    )
                )
            return list(by_topic.values())
        if self._version < 3:
            return [
                StopReplicaRequestData.StopReplicaTopicState(
                    topic_name=topic.name,
                    partition_states=[
                        StopReplicaRequestData.StopReplicaPartitionState(
                            partition_index=p, delete_partition=data.delete_partitions
                        )
                        for p in topic.partition_indexes
                    ],
                )
                for topic in data.topics
            ]
        return list(data.topic_states)

    def partition_states(self) -> dict[tuple[str, int], Any]:
        """The partition state of each (topic, partition)."""
        return {
            (topic.topic_name, partition.partition_index): partition
            for topic in self.topic_states()
            for partition in topic.partition_states
        }


class StopReplicaRequestBuilder(Builder[StopReplicaRequest]):
    """Port of StopReplicaRequest.Builder: lays out v3-style topic states for the version sent."""

    def __init__(
        self,
        version: int,
        controller_id: int,
        controller_epoch: int,
        broker_epoch: int,
        delete_partitions: bool,
        topic_states: Iterable[Any],
        kraft_controller: bool = False,
    ) -> None:
        super().__init__(ApiKeys.STOP_REPLICA, version)
        self.controller_id = controller_id
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.delete_partitions = delete_partitions
        self.topic_states = list(topic_states)
        self.kraft_controller = kraft_controller

    def _build(self, version: int) -> StopReplicaRequest:
        data = StopReplicaRequestData(
            controller_id=self.controller_id, controller_epoch=self.controller_epoch, broker_epoch=self.broker_epoch
        )
        if version >= 4:
            data.is_k_raft_controller = self.kraft_controller
        if version >= 3:
            data.topic_states = self.topic_states
        elif version >= 1:
            data.delete_partitions = self.delete_partitions
            data.topics = [
                StopReplicaRequestData.StopReplicaTopicV1(
                    name=t.topic_name, partition_indexes=[p.partition_index for p in t.partition_states]
                )
                for t in self.topic_states
            ]
        else:
            data.delete_partitions = self.delete_partitions
            data.ungrouped_partitions = [
                StopReplicaRequestData.StopReplicaPartitionV0(
                    topic_name=t.topic_name, partition_index=p.partition_index
                )
                for t in self.topic_states
                for p in t.partition_states
            ]
        return StopReplicaRequest(data, version)
