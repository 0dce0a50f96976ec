"""Tests of core/kafka/coordinator/transaction/transaction_marker_request_completion_handler.py, after Kafka 2.8's
TransactionMarkerRequestCompletionHandlerTest: what the marker sender does with each answer to WriteTxnMarkers."""

from __future__ import annotations

from typing import Any, cast

import pytest

from kafka.clients.client_response import ClientResponse
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.requests.write_txn_markers_request import TxnMarkerEntry
from kafka.common.requests.write_txn_markers_response import WriteTxnMarkersResponse
from kafka.common.topic_partition import TopicPartition
from kafka.coordinator.transaction.transaction_marker_channel_manager import TxnIdAndMarkerEntry
from kafka.coordinator.transaction.transaction_marker_request_completion_handler import (
    TransactionMarkerRequestCompletionHandler,
)
from kafka.coordinator.transaction.transaction_metadata import (
    IllegalStateException,
    TransactionMetadata,
    TransactionState,
)
from kafka.coordinator.transaction.transaction_state_manager import CoordinatorEpochAndTxnMetadata

BROKER_ID = 0
TXN_TOPIC_PARTITION = 0
TRANSACTIONAL_ID = "txnId1"
PRODUCER_ID = 0
PRODUCER_EPOCH = 0
COORDINATOR_EPOCH = 0
TXN_RESULT = TransactionResult.COMMIT
TOPIC_PARTITION = TopicPartition("topic1", 0)
OTHER_PARTITION = TopicPartition("topic1", 1)


class FakeStateManager:
    """The coordinator's cache as the handler sees it: one answer to get_transaction_state."""

    def __init__(self, state: Errors | CoordinatorEpochAndTxnMetadata | None) -> None:
        self.state = state

    def partition_for(self, transactional_id: str) -> int:
        return TXN_TOPIC_PARTITION

    def get_transaction_state(self, transactional_id: str) -> Errors | CoordinatorEpochAndTxnMetadata | None:
        assert transactional_id == TRANSACTIONAL_ID
        return self.state


class RecordingChannelManager:
    """Records what the handler asks of the channel manager."""

    def __init__(self) -> None:
        self.re_enqueued: list[tuple[str, int, int, TransactionResult, int, set[TopicPartition]]] = []
        self.removed: list[str] = []
        self.completions: list[str] = []

    def add_txn_markers_to_broker_queue(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        result: TransactionResult,
        coordinator_epoch: int,
        topic_partitions: set[TopicPartition],
    ) -> None:
        self.re_enqueued.append(
            (transactional_id, producer_id, producer_epoch, result, coordinator_epoch, set(topic_partitions))
        )

    def remove_markers_for_txn_id(self, transactional_id: str) -> None:
        self.removed.append(transactional_id)

    def maybe_write_txn_completion(self, transactional_id: str) -> None:
        self.completions.append(transactional_id)


class Env:
    def __init__(self, partitions: tuple[TopicPartition, ...] = (TOPIC_PARTITION,)) -> None:
        self.txn_metadata = TransactionMetadata(
            TRANSACTIONAL_ID,
            PRODUCER_ID,
            PRODUCER_ID,
            PRODUCER_EPOCH,
            NO_PRODUCER_EPOCH,
            0,
            TransactionState.PrepareCommit,
            set(partitions),
            0,
            0,
        )
        self.state_manager = FakeStateManager(CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, self.txn_metadata))
        self.channel_manager = RecordingChannelManager()
        marker = TxnMarkerEntry(
            PRODUCER_ID,
            PRODUCER_EPOCH,
            COORDINATOR_EPOCH,
            TXN_RESULT,
            tuple((tp.topic, tp.partition) for tp in partitions),
        )
        self.handler = TransactionMarkerRequestCompletionHandler(
            BROKER_ID,
            cast(Any, self.state_manager),
            cast(Any, self.channel_manager),
            [TxnIdAndMarkerEntry(TRANSACTIONAL_ID, marker)],
        )

    def respond(self, errors: dict[int, dict[tuple[str, int], Errors]]) -> None:
        self.handler.on_complete(_client_response(WriteTxnMarkersResponse.of(errors)))

    def respond_for_partitions(self, errors: dict[TopicPartition, Errors]) -> None:
        self.respond({PRODUCER_ID: {(tp.topic, tp.partition): error for tp, error in errors.items()}})


def _client_response(body: WriteTxnMarkersResponse | None, disconnected: bool = False) -> ClientResponse:
    header = RequestHeader.of(ApiKeys.WRITE_TXN_MARKERS, 1, "client", 1)
    return ClientResponse(header, None, "0", 0, 0, disconnected, None, None, body)


def test_re_enqueues_partitions_when_broker_disconnected() -> None:
    """A lost connection sends every marker of the request again, to the partitions' current leaders."""
    env = Env()
    env.handler.on_complete(_client_response(None, disconnected=True))
    assert env.channel_manager.re_enqueued == [
        (TRANSACTIONAL_ID, PRODUCER_ID, PRODUCER_EPOCH, TXN_RESULT, COORDINATOR_EPOCH, {TOPIC_PARTITION})
    ]
    assert env.txn_metadata.topic_partitions == {TOPIC_PARTITION}
    assert env.channel_manager.removed == [] and env.channel_manager.completions == []


@pytest.mark.parametrize("error", [Errors.NOT_COORDINATOR, Errors.COORDINATOR_LOAD_IN_PROGRESS])
def test_disconnect_drops_markers_no_longer_coordinated_here(error: Errors) -> None:
    """After a lost connection, markers of a transaction this broker no longer coordinates (or is loading) are
    dropped, not sent again."""
    env = Env()
    env.state_manager.state = error
    env.handler.on_complete(_client_response(None, disconnected=True))
    assert env.channel_manager.removed == [TRANSACTIONAL_ID] and env.channel_manager.re_enqueued == []


def test_disconnect_drops_markers_of_an_older_coordinator_epoch() -> None:
    """After a lost connection, markers sent under an older coordinator epoch are dropped."""
    env = Env()
    env.state_manager.state = CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH + 1, env.txn_metadata)
    env.handler.on_complete(_client_response(None, disconnected=True))
    assert env.channel_manager.removed == [TRANSACTIONAL_ID] and env.channel_manager.re_enqueued == []


def test_throws_illegal_state_exception_if_error_code_not_available_for_producer_id() -> None:
    """A response without the errors of the request's producer id breaks an invariant."""
    env = Env()
    with pytest.raises(IllegalStateException, match="does not contain expected error map for producer id 0"):
        env.respond({})


def test_completes_when_no_errors() -> None:
    """A written marker takes its partition off the transaction, and the completion is attempted."""
    env = Env()
    env.respond_for_partitions({TOPIC_PARTITION: Errors.NONE})
    assert env.txn_metadata.topic_partitions == set()
    assert env.channel_manager.completions == [TRANSACTIONAL_ID]


@pytest.mark.parametrize("error", [Errors.NOT_COORDINATOR, Errors.COORDINATOR_LOAD_IN_PROGRESS])
def test_removes_markers_when_not_coordinator_or_loading(error: Errors) -> None:
    """A transaction this broker no longer coordinates, or whose partition it is loading, gets no more markers."""
    env = Env()
    env.state_manager.state = error
    env.respond_for_partitions({TOPIC_PARTITION: Errors.NONE})
    assert env.channel_manager.removed == [TRANSACTIONAL_ID]
    assert env.channel_manager.completions == [] and env.txn_metadata.topic_partitions == {TOPIC_PARTITION}


def test_removes_markers_when_coordinator_epoch_changed() -> None:
    """An answer to markers of an older coordinator epoch is ignored and the transaction's markers dropped."""
    env = Env()
    env.state_manager.state = CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH + 1, env.txn_metadata)
    env.respond_for_partitions({TOPIC_PARTITION: Errors.NONE})
    assert env.channel_manager.removed == [TRANSACTIONAL_ID]
    assert env.channel_manager.completions == [] and env.txn_metadata.topic_partitions == {TOPIC_PARTITION}


@pytest.mark.parametrize("error", [Errors.INVALID_PRODUCER_EPOCH, Errors.TRANSACTION_COORDINATOR_FENCED])
def test_removes_markers_when_producer_or_coordinator_fenced(error: Errors) -> None:
    """A fenced producer or coordinator epoch ends the sending of the transaction's markers: no retry, no
    completion; the other partitions' answers are still taken in."""
    env = Env((TOPIC_PARTITION, OTHER_PARTITION))
    env.respond_for_partitions({TOPIC_PARTITION: error, OTHER_PARTITION: Errors.NONE})
    assert env.channel_manager.removed == [TRANSACTIONAL_ID]
    assert env.channel_manager.completions == [] and env.channel_manager.re_enqueued == []
    assert env.txn_metadata.topic_partitions == {TOPIC_PARTITION}


@pytest.mark.parametrize(
    "error",
    [
        Errors.UNKNOWN_SERVER_ERROR,
        Errors.CORRUPT_MESSAGE,
        Errors.MESSAGE_TOO_LARGE,
        Errors.RECORD_LIST_TOO_LARGE,
        Errors.INVALID_REQUIRED_ACKS,
    ],
)
def test_throws_illegal_state_exception_on_fatal_or_unknown_error(error: Errors) -> None:
    """Errors a leader never returns for a marker unless something is broken raise IllegalStateException."""
    env = Env()
    with pytest.raises(IllegalStateException, match=str(error.exception_name())):
        env.respond_for_partitions({TOPIC_PARTITION: error})


@pytest.mark.parametrize(
    "error",
    [
        Errors.UNKNOWN_TOPIC_OR_PARTITION,
        Errors.NOT_LEADER_OR_FOLLOWER,
        Errors.NOT_ENOUGH_REPLICAS,
        Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
        Errors.REQUEST_TIMED_OUT,
        Errors.KAFKA_STORAGE_ERROR,
    ],
)
def test_retries_partition_on_retriable_error(error: Errors) -> None:
    """A retriable error sends the partition's marker again (only that partition's) and keeps it in the
    transaction."""
    env = Env((TOPIC_PARTITION, OTHER_PARTITION))
    env.respond_for_partitions({TOPIC_PARTITION: error, OTHER_PARTITION: Errors.NONE})
    assert env.channel_manager.re_enqueued == [
        (TRANSACTIONAL_ID, PRODUCER_ID, PRODUCER_EPOCH, TXN_RESULT, COORDINATOR_EPOCH, {TOPIC_PARTITION})
    ]
    assert env.txn_metadata.topic_partitions == {TOPIC_PARTITION}
    assert env.channel_manager.completions == [] and env.channel_manager.removed == []


@pytest.mark.parametrize("error", [Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT, Errors.UNSUPPORTED_VERSION])
def test_removes_partition_from_waiting_set_on_unsupported_format(error: Errors) -> None:
    """A partition whose format cannot hold markers never had transactional data: it leaves the transaction and
    the completion is attempted."""
    env = Env()
    env.respond_for_partitions({TOPIC_PARTITION: error})
    assert env.txn_metadata.topic_partitions == set()
    assert env.channel_manager.completions == [TRANSACTIONAL_ID]


def test_unexpected_state_manager_answers_raise() -> None:
    """Another error from the cache, or no metadata while this broker owns the partition, raise
    IllegalStateException."""
    env = Env()
    env.state_manager.state = Errors.UNKNOWN_SERVER_ERROR
    with pytest.raises(IllegalStateException, match="Unhandled error"):
        env.respond_for_partitions({TOPIC_PARTITION: Errors.NONE})
    env.state_manager.state = None
    with pytest.raises(IllegalStateException, match="no metadata in the cache"):
        env.handler.on_complete(_client_response(None, disconnected=True))
