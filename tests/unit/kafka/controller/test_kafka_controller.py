"""Tests of KafkaController's events without ZooKeeper: what an inactive controller answers, what preempted events
answer, and that the entry points only enqueue (the ZooKeeper-backed paths are in tests/integration)."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.common.election_type import ElectionType
from kafka.common.errors import ControllerMovedException
from kafka.common.message import AlterPartitionRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_error import ApiError
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.controller.controller_state import ControllerState
from kafka.controller.kafka_controller import (
    AdminClientTriggered,
    AlterPartitionReceived,
    ApiPartitionReassignment,
    ControlledShutdown,
    KafkaController,
    ListPartitionReassignments,
    MockEvent,
    ReplicaLeaderElection,
)
from tests.unit.kafka.controller.controller_fakes import kafka_config

TP = TopicPartition("t", 0)


class NoZkClient:
    """Fails the test if the controller touches ZooKeeper."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"unexpected ZooKeeper call {name}")


@pytest.fixture
def controller() -> KafkaController:
    return KafkaController(kafka_config(1), NoZkClient(), MockTime(), None, 0)  # type: ignore[arg-type]


def test_inactive_controller_answers_not_controller(controller: KafkaController) -> None:
    """Requests reaching a broker that is not the controller are answered NOT_CONTROLLER."""
    answers: list[Any] = []
    controller.process(
        ReplicaLeaderElection(frozenset({TP}), ElectionType.PREFERRED, AdminClientTriggered(), answers.append)
    )
    controller.process(ListPartitionReassignments(None, answers.append))
    controller.process(ApiPartitionReassignment({TP: [1]}, answers.append))
    controller.process(
        AlterPartitionReceived(AlterPartitionRequestData(broker_id=1, broker_epoch=5), 1, answers.append)
    )
    controller.process(ControlledShutdown(2, 5, answers.append))
    election, listing, reassignment, alter, shutdown = answers
    assert election == {TP: ApiError(Errors.NOT_CONTROLLER, None)}
    assert listing == ApiError(Errors.NOT_CONTROLLER)  # with the error's default message, as in Kafka
    assert reassignment.error == Errors.NOT_CONTROLLER
    assert alter.error_code == Errors.NOT_CONTROLLER.code and alter.topics == []
    assert isinstance(shutdown, ControllerMovedException)
    assert not controller.is_active and controller.active_controller_id == -1


def test_preempted_events_answer_their_callbacks(controller: KafkaController) -> None:
    """Events dropped from the queue answer their callers: NOT_CONTROLLER, or ControllerMovedException."""
    answers: list[Any] = []
    for event in (
        ControlledShutdown(2, 5, answers.append),
        ReplicaLeaderElection(frozenset({TP}), ElectionType.UNCLEAN, AdminClientTriggered(), answers.append),
        ListPartitionReassignments(frozenset({TP}), answers.append),
        ApiPartitionReassignment({TP: None}, answers.append),
    ):
        controller.preempt(event)
    shutdown, election, listing, reassignment = answers
    assert isinstance(shutdown, ControllerMovedException)
    assert election == {TP: ApiError(Errors.NOT_CONTROLLER, None)}
    assert listing == ApiError(Errors.NOT_CONTROLLER, None) and reassignment == ApiError(Errors.NOT_CONTROLLER)


def test_entry_points_enqueue_events(controller: KafkaController) -> None:
    """The API entry points only put events on the controller's queue."""
    controller.elect_leaders([TP], ElectionType.UNCLEAN, lambda _r: None)
    controller.controlled_shutdown(1, 5, lambda _r: None)
    controller.alter_partitions(AlterPartitionRequestData(), lambda _r: None, 2)
    assert controller.event_manager.queue_size() == 3
    event = controller.event_manager._poll_from_event_queue()
    assert event is not None and isinstance(event.event, ReplicaLeaderElection)
    assert event.event.election_type is ElectionType.UNCLEAN
    assert event.event.state == ControllerState.ManualLeaderBalance


def test_errors_while_processing_are_contained(controller: KafkaController) -> None:
    """An exception in an event is logged and does not escape process()."""

    class Boom(MockEvent):
        def process(self) -> None:
            raise RuntimeError("boom")

    controller.process(Boom(ControllerState.TopicChange))
    ran: list[str] = []

    class Fine(MockEvent):
        def process(self) -> None:
            ran.append("fine")

    controller.process(Fine(ControllerState.TopicChange))
    assert ran == ["fine"]
