"""Tests of AdminApiDriver's retry bookkeeping (after Java's AdminApiDriverTest), driven with deleteRecords'
handler and real Metadata responses: a lookup that resolves nothing waits out the backoff (this port's
difference from Java), one that resolves its keys hands them to fulfillment at once, and a lookup that runs out
of time fails its keys with what the lookup strategy knows."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kafka.clients.admin.deleted_records import DeletedRecords
from kafka.clients.admin.internals.admin_api_driver import AdminApiDriver, FulfillmentScope
from kafka.clients.admin.internals.admin_api_future import SimpleAdminApiFuture
from kafka.clients.admin.internals.delete_records_handler import DeleteRecordsHandler
from kafka.clients.admin.records_to_delete import RecordsToDelete
from kafka.common.errors import DisconnectException, TimeoutException, UnknownTopicOrPartitionException
from kafka.common.kafka_future import ExecutionException
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.common.requests.request_test_utils import metadata_response

RETRY_BACKOFF_MS = 100
RETRY_BACKOFF_MAX_MS = 1000
API_TIMEOUT_MS = 60_000
TP = TopicPartition("t", 0)
NODES = [Node(0, "localhost", 9092), Node(1, "localhost", 9093)]


def _driver(
    time: MockTime,
) -> tuple[AdminApiDriver[TopicPartition, DeletedRecords], SimpleAdminApiFuture[TopicPartition, DeletedRecords]]:
    handler = DeleteRecordsHandler({TP: RecordsToDelete.before_offset(3)}, LogContext(), API_TIMEOUT_MS)
    future = DeleteRecordsHandler.new_future([TP])
    driver = AdminApiDriver(
        handler, future, time.milliseconds() + API_TIMEOUT_MS, RETRY_BACKOFF_MS, RETRY_BACKOFF_MAX_MS, LogContext()
    )
    return driver, future


def _unknown_topic() -> MetadataResponse:
    return metadata_response(
        NODES, "c", 0, [MetadataResponse.TopicMetadata(Errors.UNKNOWN_TOPIC_OR_PARTITION, "t", False, [])]
    )


def _led_by(leader: int) -> MetadataResponse:
    partition = MetadataResponse.PartitionMetadata(Errors.NONE, TP, leader, 0, (leader,), (leader,), ())
    return metadata_response(NODES, "c", 0, [MetadataResponse.TopicMetadata(Errors.NONE, "t", False, [partition])])


def test_lookup_that_resolves_nothing_backs_off() -> None:
    """The first lookup goes at once; after an answer that leaves the key unresolved, the next one may go only
    after retry.backoff.ms (with 20% jitter), and after the one after that, about twice as late."""
    time = MockTime()
    driver, _ = _driver(time)
    (first,) = driver.poll()
    assert (first.tries, first.next_allowed_try_ms) == (0, 0)
    driver.on_response(time.milliseconds(), first, _unknown_topic(), NODES[0])
    (second,) = driver.poll()
    assert second.tries == 1
    assert 80 <= second.next_allowed_try_ms - time.milliseconds() <= 120
    time.sleep(second.next_allowed_try_ms - time.milliseconds())
    driver.on_response(time.milliseconds(), second, _unknown_topic(), NODES[0])
    (third,) = driver.poll()
    assert third.tries == 2
    assert 160 <= third.next_allowed_try_ms - time.milliseconds() <= 240


def test_lookup_that_resolves_its_keys_goes_on_at_once() -> None:
    """A lookup that finds the leader hands the key to a fulfillment request to that leader without delay; a
    disconnect from the leader sends the key back to a lookup that goes at once, as in Java."""
    time = MockTime()
    driver, _ = _driver(time)
    (lookup,) = driver.poll()
    driver.on_response(time.milliseconds(), lookup, _led_by(1), NODES[0])
    (fulfillment,) = driver.poll()
    assert fulfillment.scope == FulfillmentScope(1)
    assert fulfillment.next_allowed_try_ms == 0
    driver.on_failure(time.milliseconds(), fulfillment, DisconnectException("gone"))
    (again,) = driver.poll()
    assert again.scope.destination_broker_id() is None
    assert again.next_allowed_try_ms == time.milliseconds()


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (_unknown_topic, UnknownTopicOrPartitionException),
        (lambda: _led_by(-1), TimeoutException),  # no leader yet
    ],
)
def test_lookup_timeout_fails_keys_with_what_the_strategy_knows(
    answer: Callable[[], MetadataResponse], expected: type
) -> None:
    """A lookup that times out after the last answer said the topic does not exist fails with
    UnknownTopicOrPartitionException; after an answer without a leader, with the timeout itself."""
    time = MockTime()
    driver, future = _driver(time)
    (first,) = driver.poll()
    driver.on_response(time.milliseconds(), first, answer(), NODES[0])
    (retry,) = driver.poll()
    driver.on_failure(time.milliseconds(), retry, TimeoutException("Timed out waiting for a node assignment."))
    with pytest.raises(ExecutionException) as info:
        future.get(TP).get(0)
    assert type(info.value.cause) is expected
    assert driver.poll() == []
