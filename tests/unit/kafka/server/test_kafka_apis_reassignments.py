"""KafkaApis' AlterPartitionReassignments (45) and ListPartitionReassignments (46): what reaches the controller
and how its answers (per partition, or NOT_CONTROLLER at the top) go back on the wire."""

from __future__ import annotations

from typing import Any

from kafka.common.message import (
    AlterPartitionReassignmentsRequestData,
    ListPartitionReassignmentsRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_error import ApiError
from kafka.common.topic_partition import TopicPartition
from kafka.server.kafka_apis import KafkaApis
from kafka.zk.zk_data import ReplicaAssignment
from tests.unit.kafka.server.test_kafka_apis import _harness


class FakeController:
    """Answers reassignment calls at once with what a test put in `alter_result` / `list_result`."""

    def __init__(self) -> None:
        self.alter_result: Any = {}
        self.list_result: Any = {}
        self.calls: list[tuple[str, Any]] = []

    def alter_partition_reassignments(self, partitions: Any, callback: Any) -> None:
        self.calls.append(("alter", dict(partitions)))
        callback(self.alter_result)

    def list_partition_reassignments(self, partitions: Any, callback: Any) -> None:
        self.calls.append(("list", partitions))
        callback(self.list_result)


def _with_controller() -> tuple[Any, FakeController]:
    h = _harness()
    controller = FakeController()
    h.apis.controller = controller  # type: ignore[assignment]
    return h, controller


def test_reassignment_apis_are_advertised_at_version_0_only() -> None:
    """Keys 45 and 46 are served (so ApiVersions lists them) at the one version 3.7 defines."""
    assert {ApiKeys.ALTER_PARTITION_REASSIGNMENTS, ApiKeys.LIST_PARTITION_REASSIGNMENTS} <= KafkaApis.HANDLED_APIS
    assert ApiKeys.ALTER_PARTITION_REASSIGNMENTS.latest_version() == 0
    assert ApiKeys.LIST_PARTITION_REASSIGNMENTS.latest_version() == 0


def test_alter_partition_reassignments_passes_targets_and_cancellations() -> None:
    """Targets and null replicas (cancel) reach the controller; its per-partition errors come back by topic."""
    h, controller = _with_controller()
    tp0, tp1, u0 = TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("u", 0)
    controller.alter_result = {
        tp0: ApiError(Errors.NONE, None),
        tp1: ApiError(Errors.NO_REASSIGNMENT_IN_PROGRESS),
        u0: ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist."),
    }
    data = AlterPartitionReassignmentsRequestData(
        topics=[
            AlterPartitionReassignmentsRequestData.ReassignableTopic(
                name="t",
                partitions=[
                    AlterPartitionReassignmentsRequestData.ReassignablePartition(partition_index=0, replicas=[2, 1]),
                    AlterPartitionReassignmentsRequestData.ReassignablePartition(partition_index=1, replicas=None),
                ],
            ),
            AlterPartitionReassignmentsRequestData.ReassignableTopic(
                name="u",
                partitions=[
                    AlterPartitionReassignmentsRequestData.ReassignablePartition(partition_index=0, replicas=[0])
                ],
            ),
        ]
    )
    response = h.handle(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, 0, data)
    assert controller.calls == [("alter", {tp0: [2, 1], tp1: None, u0: [0]})]
    assert response.data.error_code == 0
    got = {
        (t.name, p.partition_index): (p.error_code, p.error_message)
        for t in response.data.responses
        for p in t.partitions
    }
    assert got == {
        ("t", 0): (0, None),
        ("t", 1): (Errors.NO_REASSIGNMENT_IN_PROGRESS.code, Errors.NO_REASSIGNMENT_IN_PROGRESS.message),
        ("u", 0): (Errors.UNKNOWN_TOPIC_OR_PARTITION.code, "The partition does not exist."),
    }


def test_alter_partition_reassignments_not_controller_is_a_top_level_error() -> None:
    """A broker that is not the controller answers NOT_CONTROLLER at the top level, as Kafka 2.8's does."""
    h, controller = _with_controller()
    controller.alter_result = ApiError(Errors.NOT_CONTROLLER)
    data = AlterPartitionReassignmentsRequestData(
        topics=[
            AlterPartitionReassignmentsRequestData.ReassignableTopic(
                name="t",
                partitions=[
                    AlterPartitionReassignmentsRequestData.ReassignablePartition(partition_index=0, replicas=[1])
                ],
            )
        ]
    )
    response = h.handle(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, 0, data)
    assert response.data.error_code == Errors.NOT_CONTROLLER.code
    assert list(response.data.responses) == []


def test_list_partition_reassignments() -> None:
    """Named partitions (or all, with null topics) go to the controller; ongoing ones come back with their
    replicas, adding and removing replicas."""
    h, controller = _with_controller()
    controller.list_result = {TopicPartition("t", 0): ReplicaAssignment((2, 0, 1), (2,), (0,))}
    data = ListPartitionReassignmentsRequestData(
        topics=[
            ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics(name="t", partition_indexes=[0, 1])
        ]
    )
    response = h.handle(ApiKeys.LIST_PARTITION_REASSIGNMENTS, 0, data)
    assert controller.calls == [("list", {TopicPartition("t", 0), TopicPartition("t", 1)})]
    ((topic,),) = [response.data.topics]
    ((partition,),) = [topic.partitions]
    assert (topic.name, partition.partition_index) == ("t", 0)
    assert (list(partition.replicas), list(partition.adding_replicas), list(partition.removing_replicas)) == (
        [2, 0, 1],
        [2],
        [0],
    )
    response = h.handle(ApiKeys.LIST_PARTITION_REASSIGNMENTS, 0, ListPartitionReassignmentsRequestData(topics=None))
    assert controller.calls[-1] == ("list", None)


def test_list_partition_reassignments_not_controller() -> None:
    """NOT_CONTROLLER comes back as the top-level error."""
    h, controller = _with_controller()
    controller.list_result = ApiError(Errors.NOT_CONTROLLER)
    response = h.handle(ApiKeys.LIST_PARTITION_REASSIGNMENTS, 0, ListPartitionReassignmentsRequestData(topics=None))
    assert response.data.error_code == Errors.NOT_CONTROLLER.code
