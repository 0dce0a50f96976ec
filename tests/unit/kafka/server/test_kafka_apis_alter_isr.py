"""KafkaApis' AlterIsr (key 56, AlterPartition in 3.x): advertised at the versions the controller serves, handed
to the controller with its version, answered NOT_CONTROLLER by a broker that is not the controller."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.common.message import AlterPartitionRequestData, AlterPartitionResponseData, ApiVersionsRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.server.kafka_apis import KafkaApis
from tests.unit.kafka.server.test_kafka_apis import _harness


class FakeController:
    """An active (or not) controller that answers AlterIsr at once with `answer`."""

    def __init__(self, active: bool) -> None:
        self.is_active = active
        self.calls: list[tuple[Any, int]] = []
        self.answer = AlterPartitionResponseData(
            topics=[
                AlterPartitionResponseData.TopicData(
                    topic_name="t",
                    partitions=[
                        AlterPartitionResponseData.PartitionData(
                            partition_index=0, leader_id=0, leader_epoch=5, isr=[0, 1], partition_epoch=8
                        )
                    ],
                )
            ]
        )

    def alter_partitions(self, request: Any, callback: Any, request_version: int) -> None:
        self.calls.append((request, request_version))
        callback(self.answer)


def _request_data() -> AlterPartitionRequestData:
    return AlterPartitionRequestData(
        broker_id=1,
        broker_epoch=77,
        topics=[
            AlterPartitionRequestData.TopicData(
                topic_name="t",
                partitions=[
                    AlterPartitionRequestData.PartitionData(
                        partition_index=0, leader_epoch=5, new_isr=[0, 1], partition_epoch=7
                    )
                ],
            )
        ],
    )


def test_alter_isr_is_advertised_at_versions_0_to_3() -> None:
    """ApiVersions lists key 56 at 0-3, the range Kafka 3.7's ZooKeeper-mode broker serves."""
    assert ApiKeys.ALTER_PARTITION in KafkaApis.HANDLED_APIS
    h = _harness()
    response = h.handle(
        ApiKeys.API_VERSIONS, 3, ApiVersionsRequestData(client_software_name="t", client_software_version="1")
    )
    [entry] = [k for k in response.data.api_keys if k.api_key == 56]
    assert (entry.min_version, entry.max_version) == (0, 3)


@pytest.mark.parametrize("version", [0, 1])
def test_alter_isr_goes_to_the_active_controller(version: int) -> None:
    """On the controller the request reaches KafkaController.alter_partitions with its version, and the
    controller's answer goes back to the leader."""
    h = _harness()
    controller = FakeController(active=True)
    h.apis.controller = controller  # type: ignore[assignment]
    response = h.handle(ApiKeys.ALTER_PARTITION, version, _request_data())
    [(request, request_version)] = controller.calls
    assert request_version == version and (request.broker_id, request.broker_epoch) == (1, 77)
    assert [list(p.new_isr) for t in request.topics for p in t.partitions] == [[0, 1]]
    assert response.data.error_code == 0
    [p] = [p for t in response.data.topics for p in t.partitions]
    assert (list(p.isr), p.partition_epoch) == ([0, 1], 8)


def test_alter_isr_on_a_broker_that_is_not_the_controller() -> None:
    """A broker that is not the controller answers NOT_CONTROLLER at the top level, without asking its controller
    object."""
    h = _harness()
    controller = FakeController(active=False)
    h.apis.controller = controller  # type: ignore[assignment]
    response = h.handle(ApiKeys.ALTER_PARTITION, 1, _request_data())
    assert response.data.error_code == Errors.NOT_CONTROLLER.code and list(response.data.topics) == []
    assert controller.calls == []
