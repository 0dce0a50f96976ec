"""In-memory stand-ins for the controller's unit tests: the partition-state part of KafkaZkClient, and a request
batch that keeps the requests it would send."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import Builder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.controller.controller_channel_manager import AbstractControllerBrokerRequestBatch, ResponseCallback
from kafka.controller.controller_context import ControllerContext
from kafka.controller.controller_event_manager import ControllerEvent
from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.controller.state_change_logger import StateChangeLogger
from kafka.server.kafka_config import KafkaConfig
from kafka.zk.kafka_zk_client import UpdateLeaderAndIsrResult
from kafka.zk.zk_data import TopicPartitionStateZNode
from kafka.zookeeper.zoo_keeper_client import CreateResponse, GetDataResponse, ResponseMetadata
from kafka.zookeeper.zookeeper_types import Code, KeeperException, Stat

_META = ResponseMetadata(0, 0)


def kafka_config(broker_id: int = 0, **props: Any) -> KafkaConfig:
    values: dict[str, Any] = {"broker.id": broker_id, "zookeeper.connect": "127.0.0.1:2181"}
    values.update(props)
    return KafkaConfig(values)


def broker(broker_id: int, port: int = 9092) -> Broker:
    return Broker(broker_id, [EndPoint("127.0.0.1", port, ListenerName("PLAINTEXT"), SecurityProtocol.PLAINTEXT)])


@dataclass
class _LogConfig:
    unclean_leader_election_enable: bool


class FakeZkClient:
    """Partition state znodes in a dict, with versions checked as ZooKeeper does."""

    def __init__(self) -> None:
        self.states: dict[TopicPartition, tuple[bytes, int]] = {}
        self.unclean_topics: set[str] = set()
        self.conflicts: dict[TopicPartition, int] = {}  # partition -> number of writes to answer BADVERSION
        self.failing_reads: set[TopicPartition] = set()
        self.writes: list[tuple[TopicPartition, LeaderIsrAndControllerEpoch]] = []
        self.deleted_topic_deletions: list[str] = []
        self.deleted_topics: list[str] = []

    # -- helpers for tests ------------------------------------------------------------------------------------

    def put_state(
        self, tp: TopicPartition, leader: int, isr: Sequence[int], leader_epoch: int = 0, epoch: int = 1
    ) -> None:
        lai = LeaderAndIsr(leader, leader_epoch, tuple(isr), 0)
        version = self.states[tp][1] + 1 if tp in self.states else 0
        self.states[tp] = (TopicPartitionStateZNode.encode(LeaderIsrAndControllerEpoch(lai, epoch)), version)

    def state(self, tp: TopicPartition) -> LeaderIsrAndControllerEpoch:
        data, version = self.states[tp]
        decoded = TopicPartitionStateZNode.decode(data, Stat(version=version))
        assert decoded is not None
        return decoded

    # -- the KafkaZkClient methods the state machines use ------------------------------------------------------

    def create_topic_partition_states_raw(
        self, states: Mapping[TopicPartition, LeaderIsrAndControllerEpoch], expected_controller_epoch_zk_version: int
    ) -> list[CreateResponse]:
        responses = []
        for tp, state in states.items():
            path = TopicPartitionStateZNode.path(tp)
            if tp in self.states:
                code = Code.NODEEXISTS
            else:
                code = Code.OK
                self.states[tp] = (TopicPartitionStateZNode.encode(state), 0)
                self.writes.append((tp, state))
            responses.append(CreateResponse(result_code=code, path=path, ctx=tp, metadata=_META, name=path))
        return responses

    def get_topic_partition_states_raw(self, partitions: Sequence[TopicPartition]) -> list[GetDataResponse]:
        responses = []
        for tp in partitions:
            path = TopicPartitionStateZNode.path(tp)
            if tp in self.failing_reads:
                responses.append(
                    GetDataResponse(
                        result_code=Code.CONNECTIONLOSS, path=path, ctx=tp, metadata=_META, data=None, stat=None
                    )
                )
            elif tp in self.states:
                data, version = self.states[tp]
                responses.append(
                    GetDataResponse(
                        result_code=Code.OK, path=path, ctx=tp, metadata=_META, data=data, stat=Stat(version=version)
                    )
                )
            else:
                responses.append(
                    GetDataResponse(result_code=Code.NONODE, path=path, ctx=tp, metadata=_META, data=None, stat=None)
                )
        return responses

    def update_leader_and_isr(
        self, leader_and_isrs: Mapping[TopicPartition, LeaderAndIsr], controller_epoch: int, epoch_zk_version: int
    ) -> UpdateLeaderAndIsrResult:
        finished: dict[TopicPartition, Any] = {}
        retry: list[TopicPartition] = []
        for tp, lai in leader_and_isrs.items():
            if self.conflicts.get(tp, 0) > 0:
                self.conflicts[tp] -= 1
                # Someone else wrote in between: the stored version moves on.
                data, version = self.states[tp]
                self.states[tp] = (data, version + 1)
                retry.append(tp)
                continue
            if tp not in self.states:
                finished[tp] = KeeperException.create(Code.NONODE, TopicPartitionStateZNode.path(tp))
                continue
            _, version = self.states[tp]
            if version != lai.zk_version:
                retry.append(tp)
                continue
            state = LeaderIsrAndControllerEpoch(lai, controller_epoch)
            self.states[tp] = (TopicPartitionStateZNode.encode(state), version + 1)
            self.writes.append((tp, state))
            finished[tp] = lai.with_zk_version(version + 1)
        return UpdateLeaderAndIsrResult(finished, retry)

    def get_log_configs(self, topics: Iterable[str], config: Mapping[str, Any]) -> tuple[dict[str, Any], dict]:
        return {t: _LogConfig(t in self.unclean_topics) for t in topics}, {}


class RecordingRequestBatch(AbstractControllerBrokerRequestBatch):
    """A request batch whose requests and events are kept instead of sent."""

    def __init__(self, config: KafkaConfig, context: ControllerContext) -> None:
        super().__init__(config, context, StateChangeLogger(config.broker_id, True, None))
        self.sent: list[tuple[int, Any]] = []  # (broker id, built request)
        self.events: list[ControllerEvent] = []

    def send_event(self, event: ControllerEvent) -> None:
        self.events.append(event)

    def send_request(self, broker_id: int, request: Builder[Any], callback: ResponseCallback | None = None) -> None:
        self.sent.append((broker_id, request.build()))

    def requests(self, api_key: ApiKeys, broker_id: int | None = None) -> list[Any]:
        return [r for b, r in self.sent if r.api_key is api_key and (broker_id is None or b == broker_id)]

    def leader_and_isr_states(self, broker_id: int) -> dict[TopicPartition, Any]:
        return {
            TopicPartition(s.topic_name, s.partition_index): s
            for r in self.requests(ApiKeys.LEADER_AND_ISR, broker_id)
            for s in r.partition_states()
        }

    def stop_replica_states(self, broker_id: int) -> dict[TopicPartition, Any]:
        return {
            TopicPartition(topic, partition): s
            for r in self.requests(ApiKeys.STOP_REPLICA, broker_id)
            for (topic, partition), s in r.partition_states().items()
        }

    def clear_sent(self) -> None:
        self.sent.clear()
        self.events.clear()
