"""LeaderAndIsr, StopReplica and UpdateMetadata: version-dependent layouts seen through one view."""

from __future__ import annotations

from kafka.common.errors import ControllerMovedException
from kafka.common.message import LeaderAndIsrRequestData, StopReplicaRequestData, UpdateMetadataRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.find_coordinator_response import NodeInfo
from kafka.common.requests.leader_and_isr_request import LeaderAndIsrRequest, LeaderAndIsrRequestBuilder
from kafka.common.requests.stop_replica_request import StopReplicaRequest, StopReplicaRequestBuilder
from kafka.common.requests.update_metadata_request import UpdateMetadataRequest, UpdateMetadataRequestBuilder

TOPIC_IDS = {"a": Uuid(1, 1), "b": Uuid(2, 2)}


def _partition_states() -> list[object]:
    return [
        LeaderAndIsrRequestData.LeaderAndIsrPartitionState(topic_name=t, partition_index=p, leader=1, isr=[1, 2])
        for t, p in (("a", 0), ("b", 0), ("a", 1))
    ]


def _leader_and_isr(version: int) -> LeaderAndIsrRequest:
    builder = LeaderAndIsrRequestBuilder(version, 1, 2, 3, _partition_states(), TOPIC_IDS, [NodeInfo(1, "h", 9092)])
    request = builder.build()
    # Through the wire, so that the layout of the version is what is read.
    parsed = AbstractRequest.parse_request(ApiKeys.LEADER_AND_ISR, version, request.serialize()).request
    assert isinstance(parsed, LeaderAndIsrRequest)
    return parsed


def test_leader_and_isr_partition_states_at_every_version() -> None:
    """Partition states come back flat with their topic names whether the version groups them or not."""
    for version in range(0, 8):
        request = _leader_and_isr(version)
        expected = [("a", 0), ("a", 1), ("b", 0)] if version >= 2 else [("a", 0), ("b", 0), ("a", 1)]
        assert [(p.topic_name, p.partition_index) for p in request.partition_states()] == expected
        assert (request.controller_id(), request.controller_epoch()) == (1, 2)
        assert request.broker_epoch() == (3 if version >= 2 else -1)


def test_leader_and_isr_error_response_layouts() -> None:
    """Errors are listed by topic name before v5 and grouped by topic id from v5, and a top-level error counts
    once per partition plus once."""
    exc = ControllerMovedException()
    v4 = _leader_and_isr(4).get_error_response(exc)
    assert sorted((p.topic_name, p.partition_index) for p in v4.data.partition_errors) == [("a", 0), ("a", 1), ("b", 0)]
    v5 = _leader_and_isr(5).get_error_response(exc)
    assert sorted(str(t.topic_id) for t in v5.data.topics) == sorted(str(u) for u in TOPIC_IDS.values())
    error = Errors.STALE_CONTROLLER_EPOCH
    for version, response in ((4, v4), (5, v5)):
        parsed = AbstractResponse.parse_response(ApiKeys.LEADER_AND_ISR, response.serialize(version), version)
        assert parsed.error_counts() == {error: 4}
    names = {u: t for t, u in TOPIC_IDS.items()}
    assert set(v5.partition_errors(names)) == {("a", 0), ("a", 1), ("b", 0)}


def _stop_replica(version: int) -> StopReplicaRequest:
    topic_states = [
        StopReplicaRequestData.StopReplicaTopicState(
            topic_name="t",
            partition_states=[
                StopReplicaRequestData.StopReplicaPartitionState(
                    partition_index=i, delete_partition=True, leader_epoch=4
                )
                for i in (0, 1)
            ],
        )
    ]
    request = StopReplicaRequestBuilder(version, 1, 2, 3, True, topic_states).build()
    parsed = AbstractRequest.parse_request(ApiKeys.STOP_REPLICA, version, request.serialize()).request
    assert isinstance(parsed, StopReplicaRequest)
    return parsed


def test_stop_replica_topic_states_at_every_version() -> None:
    """v0 (flat), v1-2 (by topic) and v3+ (per-partition state) all read as v3-style topic states."""
    for version in range(0, 5):
        states = _stop_replica(version).partition_states()
        assert sorted(states) == [("t", 0), ("t", 1)]
        assert all(s.delete_partition for s in states.values())
        expected_epoch = 4 if version >= 3 else -1
        assert all(s.leader_epoch == expected_epoch for s in states.values())
        response = _stop_replica(version).get_error_response(RuntimeError())
        assert response.error_counts() == {Errors.UNKNOWN_SERVER_ERROR: 3}
        assert [(p.topic_name, p.partition_index) for p in response.partition_errors()] == [("t", 0), ("t", 1)]


def _live_broker() -> object:
    return UpdateMetadataRequestData.UpdateMetadataBroker(
        id=1,
        endpoints=[
            UpdateMetadataRequestData.UpdateMetadataEndpoint(
                host="h", port=9092, security_protocol=0, listener="PLAINTEXT"
            )
        ],
    )


def test_update_metadata_normalises_old_layouts() -> None:
    """v0's host and port become a PLAINTEXT endpoint, endpoints of v1-2 get their listener name, and grouped
    partition states get their topic name."""
    states = [
        UpdateMetadataRequestData.UpdateMetadataPartitionState(topic_name="x", partition_index=0, leader=1),
    ]
    for version in range(0, 9):
        request = UpdateMetadataRequestBuilder(version, 1, 2, 3, states, [_live_broker()], {"x": Uuid(5, 5)}).build()
        parsed = AbstractRequest.parse_request(ApiKeys.UPDATE_METADATA, version, request.serialize()).request
        assert isinstance(parsed, UpdateMetadataRequest)
        endpoints = parsed.live_brokers()[0].endpoints
        assert [(e.host, e.port, e.listener) for e in endpoints] == [("h", 9092, "PLAINTEXT")]
        assert [(p.topic_name, p.partition_index) for p in parsed.partition_states()] == [("x", 0)]
