"""Port of clients/src/main/java/org/apache/kafka/common/requests/LeaderAndIsrRequest.java (Kafka 3.7).

LeaderAndIsr: the controller tells a broker the leader, ISR and replicas of partitions it hosts. v0-1
list partition states flat; from v2 they are grouped by topic (and the topic name filled back into each
partition state, so callers always see the flat view through partition_states()).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from kafka.common.message import LeaderAndIsrRequestData, LeaderAndIsrResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_control_request import AbstractControlRequest, Type
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.leader_and_isr_response import LeaderAndIsrResponse


class LeaderAndIsrRequest(AbstractControlRequest[LeaderAndIsrResponse]):
    API_KEY = ApiKeys.LEADER_AND_ISR

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        if version >= 2:
            for topic_state in data.topic_states:
                for partition_state in topic_state.partition_states:
                    partition_state.topic_name = topic_state.topic_name

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> LeaderAndIsrResponse:
        error = Errors.for_exception(e)
        data = LeaderAndIsrResponseData(error_code=error.code)
        if self._version < 5:
            data.partition_errors = [
                LeaderAndIsrResponseData.LeaderAndIsrPartitionError(
                    topic_name=p.topic_name, partition_index=p.partition_index, error_code=error.code
                )
                for p in self.partition_states()
            ]
        else:
            for topic_state in self._data.topic_states:
                data.topics.append(
                    LeaderAndIsrResponseData.LeaderAndIsrTopicError(
                        topic_id=topic_state.topic_id,
                        partition_errors=[
                            LeaderAndIsrResponseData.LeaderAndIsrPartitionError(
                                partition_index=p.partition_index, error_code=error.code
                            )
                            for p in topic_state.partition_states
                        ],
                    )
                )
        return LeaderAndIsrResponse(data, self._version)

    def partition_states(self) -> Iterator[Any]:
        """Every partition state, each with its topic name, whatever the version's layout."""
        if self._version >= 2:
            for topic_state in self._data.topic_states:
                yield from topic_state.partition_states
        else:
            yield from self._data.ungrouped_partition_states

    def topic_ids(self) -> dict[str, Any]:
        return {t.topic_name: t.topic_id for t in self._data.topic_states}

    def live_leaders(self) -> list[Any]:
        return list(self._data.live_leaders)

    def request_type(self) -> Type:
        return Type.from_byte(self._data.type)


class LeaderAndIsrRequestBuilder(Builder[LeaderAndIsrRequest]):
    """Port of LeaderAndIsrRequest.Builder: lays out flat partition states for the version sent.
    `live_leaders` are Node-like objects (id, host, port)."""

    def __init__(
        self,
        version: int,
        controller_id: int,
        controller_epoch: int,
        broker_epoch: int,
        partition_states: list[Any],
        topic_ids: Mapping[str, Any],
        live_leaders: Iterable[Any],
        kraft_controller: bool = False,
        update_type: Type = Type.UNKNOWN,
    ) -> None:
        super().__init__(ApiKeys.LEADER_AND_ISR, version)
        self.controller_id = controller_id
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.partition_states = partition_states
        self.topic_ids = topic_ids
        self.live_leaders = list(live_leaders)
        self.kraft_controller = kraft_controller
        self.update_type = update_type

    def _build(self, version: int) -> LeaderAndIsrRequest:
        data = LeaderAndIsrRequestData(
            controller_id=self.controller_id,
            controller_epoch=self.controller_epoch,
            broker_epoch=self.broker_epoch,
            live_leaders=[
                LeaderAndIsrRequestData.LeaderAndIsrLiveLeader(broker_id=n.id, host_name=n.host, port=n.port)
                for n in self.live_leaders
            ],
        )
        if version >= 7:
            data.is_k_raft_controller = self.kraft_controller
        if version >= 5:
            data.type = self.update_type.to_byte()
        if version >= 2:
            topic_states: dict[str, Any] = {}
            for partition in self.partition_states:
                topic_state = topic_states.get(partition.topic_name)
                if topic_state is None:
                    topic_state = LeaderAndIsrRequestData.LeaderAndIsrTopicState(
                        topic_name=partition.topic_name, topic_id=self.topic_ids.get(partition.topic_name, ZERO_UUID)
                    )
                    topic_states[partition.topic_name] = topic_state
                topic_state.partition_states.append(partition)
            data.topic_states = list(topic_states.values())
        else:
            data.ungrouped_partition_states = self.partition_states
        return LeaderAndIsrRequest(data, version)
