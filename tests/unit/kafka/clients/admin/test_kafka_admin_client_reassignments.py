"""KafkaAdminClient's alterPartitionReassignments and listPartitionReassignments against a mock network client:
what goes to the controller, and how the answers become futures (as Java's KafkaAdminClientTest checks)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kafka.clients.admin.new_partition_reassignment import NewPartitionReassignment
from kafka.clients.admin.partition_reassignment import PartitionReassignment
from kafka.common.errors import (
    InvalidReplicaAssignmentException,
    InvalidTopicException,
    NoReassignmentInProgressException,
    UnknownTopicOrPartitionException,
)
from kafka.common.kafka_future import ExecutionException, KafkaFuture
from kafka.common.message import AlterPartitionReassignmentsResponseData, ListPartitionReassignmentsResponseData
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_partition_reassignments_response import AlterPartitionReassignmentsResponse
from kafka.common.requests.list_partition_reassignments_response import ListPartitionReassignmentsResponse
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.clients.admin.admin_client_unit_test_env import AdminClientUnitTestEnv
from tests.unit.kafka.common.requests.request_test_utils import metadata_response
from tests.utils import wait_until_true

WAIT_MS = 10_000
TP0, TP1, OTHER = TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("u", 0)


@pytest.fixture
def env() -> Iterator[AdminClientUnitTestEnv]:
    with AdminClientUnitTestEnv() as e:
        yield e


def _node(env: AdminClientUnitTestEnv, node_id: int) -> Node:
    node = env.cluster.node_by_id(node_id)
    assert node is not None
    return node


def _cause(future: KafkaFuture[Any]) -> BaseException:
    with pytest.raises(ExecutionException) as info:
        future.get(WAIT_MS)
    return info.value.cause


def _alter_response(*results: tuple[TopicPartition, Errors, str | None], error: Errors = Errors.NONE) -> Any:
    data = AlterPartitionReassignmentsResponseData(error_code=error.code)
    by_topic: dict[str, Any] = {}
    for tp, e, message in results:
        topic = by_topic.get(tp.topic)
        if topic is None:
            topic = AlterPartitionReassignmentsResponseData.ReassignableTopicResponse(name=tp.topic)
            by_topic[tp.topic] = topic
            data.responses.append(topic)
        topic.partitions.append(
            AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse(
                partition_index=tp.partition, error_code=e.code, error_message=message
            )
        )
    return AlterPartitionReassignmentsResponse(data)


def _recording(seen: list[Any]) -> Any:
    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return True

    return matcher


def test_new_partition_reassignment_needs_replicas() -> None:
    """A NewPartitionReassignment without replicas is refused, as Java's constructor refuses it."""
    with pytest.raises(ValueError, match="without any replicas"):
        NewPartitionReassignment([])
    assert NewPartitionReassignment([2, 1]).target_replicas == [2, 1]


def test_alter_partition_reassignments_sends_targets_and_cancellations(env: AdminClientUnitTestEnv) -> None:
    """Targets and cancellations (None replicas) go to the controller sorted by topic and partition; each
    partition's future carries its own error."""
    seen: list[Any] = []
    env.kafka_client().prepare_response_from(
        _recording(seen),
        _alter_response(
            (TP0, Errors.NONE, None),
            (TP1, Errors.NO_REASSIGNMENT_IN_PROGRESS, None),
            (OTHER, Errors.INVALID_REPLICA_ASSIGNMENT, "Duplicate replica ids in partition reassignment"),
        ),
        _node(env, 0),
    )
    result = env.admin_client.alter_partition_reassignments(
        {OTHER: NewPartitionReassignment([1, 1]), TP1: None, TP0: NewPartitionReassignment([2, 1, 0])}
    )
    futures = result.values()
    assert futures[TP0].get(WAIT_MS) is None
    assert isinstance(_cause(futures[TP1]), NoReassignmentInProgressException)
    other = _cause(futures[OTHER])
    assert isinstance(other, InvalidReplicaAssignmentException)
    assert "Duplicate replica ids" in str(other)
    assert isinstance(_cause(result.all()), NoReassignmentInProgressException | InvalidReplicaAssignmentException)
    (data,) = seen
    assert [(t.name, [(p.partition_index, p.replicas) for p in t.partitions]) for t in data.topics] == [
        ("t", [(0, [2, 1, 0]), (1, None)]),
        ("u", [(0, [1, 1])]),
    ]


def test_alter_partition_reassignments_invalid_partition_fails_without_a_request(
    env: AdminClientUnitTestEnv,
) -> None:
    """A negative partition or an empty topic name fails its future at once; nothing is sent for it."""
    result = env.admin_client.alter_partition_reassignments(
        {TopicPartition("t", -1): NewPartitionReassignment([0]), TopicPartition("", 0): None}
    )
    for future in result.values().values():
        assert isinstance(_cause(future), InvalidTopicException)


def test_alter_partition_reassignments_top_level_error_fails_every_partition(env: AdminClientUnitTestEnv) -> None:
    """A top-level error other than NOT_CONTROLLER fails each partition the response lists with it."""
    env.kafka_client().prepare_response_from(
        _alter_response((TP0, Errors.NONE, None), error=Errors.CLUSTER_AUTHORIZATION_FAILED), _node(env, 0)
    )
    result = env.admin_client.alter_partition_reassignments({TP0: NewPartitionReassignment([0])})
    assert _cause(result.values()[TP0]).__class__.__name__ == "ClusterAuthorizationException"


def test_alter_partition_reassignments_retries_after_not_controller(env: AdminClientUnitTestEnv) -> None:
    """NOT_CONTROLLER: the client refreshes its metadata and asks the new controller."""
    client = env.kafka_client()
    client.prepare_response_from(_alter_response(error=Errors.NOT_CONTROLLER), _node(env, 0))
    client.prepare_response(
        lambda body: body.api_key is ApiKeys.METADATA, metadata_response(env.cluster.nodes, "mockClusterId", 1, [])
    )
    client.prepare_response_from(_alter_response((TP0, Errors.NONE, None)), _node(env, 1))
    result = env.admin_client.alter_partition_reassignments({TP0: NewPartitionReassignment([1])})
    wait_until_true(lambda: env.metadata_manager.controller() == _node(env, 1), "the new controller to be known")
    env.time.sleep(150)  # the retry waits out retry.backoff.ms
    assert result.all().get(WAIT_MS) is None


def test_list_partition_reassignments(env: AdminClientUnitTestEnv) -> None:
    """The ongoing reassignments come back by partition; asking for some partitions names them by topic."""
    seen: list[Any] = []
    data = ListPartitionReassignmentsResponseData(
        topics=[
            ListPartitionReassignmentsResponseData.OngoingTopicReassignment(
                name="t",
                partitions=[
                    ListPartitionReassignmentsResponseData.OngoingPartitionReassignment(
                        partition_index=0, replicas=[0, 1, 2], adding_replicas=[2], removing_replicas=[0]
                    )
                ],
            )
        ]
    )
    env.kafka_client().prepare_response_from(_recording(seen), ListPartitionReassignmentsResponse(data), _node(env, 0))
    reassignments = env.admin_client.list_partition_reassignments([TP0, TP1, OTHER]).reassignments().get(WAIT_MS)
    assert reassignments == {TP0: PartitionReassignment((0, 1, 2), (2,), (0,))}
    assert (
        str(reassignments[TP0]) == "PartitionReassignment(replicas=[0, 1, 2], addingReplicas=[2], removingReplicas=[0])"
    )
    (request,) = seen
    assert [(t.name, list(t.partition_indexes)) for t in request.topics] == [("t", [0, 1]), ("u", [0])]


def test_list_all_partition_reassignments_sends_null_topics(env: AdminClientUnitTestEnv) -> None:
    """Without partitions the request's topics are null (every reassignment); an error fails the future."""
    seen: list[Any] = []
    env.kafka_client().prepare_response_from(
        _recording(seen),
        ListPartitionReassignmentsResponse(
            ListPartitionReassignmentsResponseData(error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code)
        ),
        _node(env, 0),
    )
    future = env.admin_client.list_partition_reassignments().reassignments()
    assert isinstance(_cause(future), UnknownTopicOrPartitionException)
    assert seen[0].topics is None
