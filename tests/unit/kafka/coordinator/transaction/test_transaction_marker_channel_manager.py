"""Tests of core/kafka/coordinator/transaction/transaction_marker_channel_manager.py, after Kafka 2.8's
TransactionMarkerChannelManagerTest: markers grouped per leader broker, leaders without an endpoint looked up again,
deleted partitions skipped, the completing log append written once every marker is, retried when the log is not
available; and the sender thread over a (mock) network client."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any, cast

import pytest

from kafka.clients.client_response import ClientResponse
from kafka.common.metrics.metrics import Metrics
from kafka.common.network.listener_name import ListenerName
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.requests.write_txn_markers_request import (
    TxnMarkerEntry,
    WriteTxnMarkersRequest,
    WriteTxnMarkersRequestBuilder,
)
from kafka.common.requests.write_txn_markers_response import WriteTxnMarkersResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from kafka.coordinator.transaction.transaction_marker_channel_manager import TransactionMarkerChannelManager
from kafka.coordinator.transaction.transaction_metadata import TransactionMetadata, TransactionState, TxnTransitMetadata
from kafka.coordinator.transaction.transaction_state_manager import CoordinatorEpochAndTxnMetadata
from kafka.server.inter_broker_send_thread import RequestAndCompletionHandler
from kafka.server.kafka_config import KafkaConfig
from tests.unit.kafka.clients.mock_client import MockClient

PARTITION1 = TopicPartition("topic1", 0)
PARTITION2 = TopicPartition("topic1", 1)
BROKER1 = Node(1, "host", 10)
BROKER2 = Node(2, "otherhost", 10)
TRANSACTIONAL_ID1 = "txnId1"
TRANSACTIONAL_ID2 = "txnId2"
PRODUCER_ID1 = 0
PRODUCER_ID2 = 1
PRODUCER_EPOCH = 0
TXN_TOPIC_PARTITION1 = 0
TXN_TOPIC_PARTITION2 = 1
COORDINATOR_EPOCH = 0
TXN_RESULT = TransactionResult.COMMIT

AppendAnswer = Callable[[Callable[[Errors], None]], None]


def _config(**props: str) -> KafkaConfig:
    return KafkaConfig.from_props({"zookeeper.connect": "localhost:2181", "broker.id": "1", **props}, do_log=False)


class FakeStateManager:
    """The TransactionStateManager as the channel manager uses it: partition_for, get_transaction_state and
    append_transaction_to_log, whose answers the test scripts."""

    def __init__(self) -> None:
        self.partitions = {TRANSACTIONAL_ID1: TXN_TOPIC_PARTITION1, TRANSACTIONAL_ID2: TXN_TOPIC_PARTITION2}
        self.states: dict[str, Errors | CoordinatorEpochAndTxnMetadata | None] = {}
        self.append_answers: deque[AppendAnswer] = deque()
        self.appends: list[tuple[str, int, TxnTransitMetadata, Callable[[Errors], bool]]] = []

    def partition_for(self, transactional_id: str) -> int:
        return self.partitions[transactional_id]

    def get_transaction_state(self, transactional_id: str) -> Errors | CoordinatorEpochAndTxnMetadata | None:
        return self.states.get(transactional_id)

    def append_transaction_to_log(
        self,
        transactional_id: str,
        coordinator_epoch: int,
        new_metadata: TxnTransitMetadata,
        response_callback: Callable[[Errors], None],
        retry_on_error: Callable[[Errors], bool] = lambda _e: False,
    ) -> None:
        self.appends.append((transactional_id, coordinator_epoch, new_metadata, retry_on_error))
        self.append_answers.popleft()(response_callback)


class FakeMetadataCache:
    """Partition leaders: a fixed node (or None) per partition, or a sequence of answers, one per lookup."""

    def __init__(self) -> None:
        self.leaders: dict[TopicPartition, Node | deque[Node | None] | None] = {}
        self.listeners: set[ListenerName] = set()

    def get_partition_leader_endpoint(self, topic: str, partition_id: int, listener_name: ListenerName) -> Node | None:
        self.listeners.add(listener_name)
        leader = self.leaders[TopicPartition(topic, partition_id)]
        return leader.popleft() if isinstance(leader, deque) else leader


def _txn_metadata(transactional_id: str, producer_id: int, partitions: set[TopicPartition]) -> TransactionMetadata:
    return TransactionMetadata(
        transactional_id,
        producer_id,
        producer_id,
        PRODUCER_EPOCH,
        NO_PRODUCER_EPOCH,
        0,
        TransactionState.PrepareCommit,
        partitions,
        0,
        0,
    )


class Env:
    def __init__(self, **props: str) -> None:
        self.time = MockTime()
        self.client = MockClient(self.time)
        self.metadata_cache = FakeMetadataCache()
        self.state_manager = FakeStateManager()
        self.txn_metadata1 = _txn_metadata(TRANSACTIONAL_ID1, PRODUCER_ID1, {PARTITION1, PARTITION2})
        self.txn_metadata2 = _txn_metadata(TRANSACTIONAL_ID2, PRODUCER_ID2, {PARTITION1})
        self.state_manager.states = {
            TRANSACTIONAL_ID1: CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, self.txn_metadata1),
            TRANSACTIONAL_ID2: CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, self.txn_metadata2),
        }
        self.channel_manager = TransactionMarkerChannelManager(
            _config(**props), cast(Any, self.metadata_cache), self.client, cast(Any, self.state_manager), self.time
        )

    def add_markers(self, txn_metadata: TransactionMetadata) -> TxnTransitMetadata:
        new_metadata = txn_metadata.prepare_complete(self.time.milliseconds())
        self.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, txn_metadata, new_metadata)
        return new_metadata

    def queue(self, broker: Node) -> Any:
        queue = self.channel_manager.queue_for_broker(broker.id)
        assert queue is not None
        return queue

    def complete_transition_and(self, new_metadata: TxnTransitMetadata, txn_metadata: TransactionMetadata) -> None:
        def answer(callback: Callable[[Errors], None]) -> None:
            txn_metadata.complete_transition_to(new_metadata)
            callback(Errors.NONE)

        self.state_manager.append_answers.append(answer)


def _response_for(errors: dict[int, dict[TopicPartition, Errors]]) -> WriteTxnMarkersResponse:
    return WriteTxnMarkersResponse.of(
        {pid: {(tp.topic, tp.partition): e for tp, e in per_partition.items()} for pid, per_partition in errors.items()}
    )


def _client_response(response: WriteTxnMarkersResponse | None, disconnected: bool = False) -> ClientResponse:
    header = RequestHeader.of(ApiKeys.WRITE_TXN_MARKERS, 1, "client", 1)
    return ClientResponse(header, None, "1", 0, 0, disconnected, None, None, response)


def _requests_by_destination(handlers: list[RequestAndCompletionHandler]) -> dict[Node, WriteTxnMarkersRequest]:
    return {h.destination: cast(WriteTxnMarkersRequest, h.request.build()) for h in handlers}


def _expected_request(*markers: tuple[int, TopicPartition]) -> WriteTxnMarkersRequest:
    return WriteTxnMarkersRequestBuilder(
        ApiKeys.WRITE_TXN_MARKERS.latest_version(),
        [
            TxnMarkerEntry(pid, PRODUCER_EPOCH, COORDINATOR_EPOCH, TXN_RESULT, ((tp.topic, tp.partition),))
            for pid, tp in markers
        ],
    ).build()


def test_only_writes_txn_completion_once() -> None:
    """When the last marker's answer and the call that queued the markers race for the completion, the
    completing log append happens exactly once."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1}
    expected_transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())
    env.complete_transition_and(expected_transition, env.txn_metadata2)
    failures: list[BaseException] = []

    def add_markers() -> None:
        try:
            env.channel_manager.add_txn_markers_to_send(
                COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, expected_transition
            )
        except BaseException as e:
            failures.append(e)

    # With the metadata lock held here, the adding thread queues the markers and then waits for the lock in its
    # completion check; meanwhile the answer is handled on this thread.
    with env.txn_metadata2.lock:
        adder = threading.Thread(target=add_markers, name="test-add-markers")
        adder.start()
        response = _client_response(_response_for({PRODUCER_ID2: {PARTITION1: Errors.NONE}}))
        handled = False
        for _ in range(1000):
            requests = list(env.channel_manager.generate_requests())
            if requests:
                [request] = requests
                request.handler(response)
                handled = True
                break
            adder.join(0.01)
        assert handled, "no WriteTxnMarkers request was generated"
    adder.join(10)
    assert not adder.is_alive() and failures == []
    assert [a[0] for a in env.state_manager.appends] == [TRANSACTIONAL_ID2]
    assert env.txn_metadata2.state is TransactionState.CompleteCommit


def test_generates_nothing_when_no_requests_outstanding() -> None:
    """Without queued markers there is no request to send."""
    env = Env()
    assert list(env.channel_manager.generate_requests()) == []


def test_generates_one_request_per_broker_with_markers_per_partition() -> None:
    """Markers are queued per leader broker and per transaction log partition; each broker gets one request with
    the markers of every transaction for it, and the queues are then empty."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1, PARTITION2: BROKER2}
    env.add_markers(env.txn_metadata1)
    env.add_markers(env.txn_metadata2)

    assert env.channel_manager.num_txns_with_pending_markers == 2
    assert env.queue(BROKER1).total_num_markers() == 2
    assert env.queue(BROKER1).total_num_markers(TXN_TOPIC_PARTITION1) == 1
    assert env.queue(BROKER1).total_num_markers(TXN_TOPIC_PARTITION2) == 1
    assert env.queue(BROKER2).total_num_markers() == 1
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION1) == 1
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION2) == 0

    requests = _requests_by_destination(list(env.channel_manager.generate_requests()))
    assert requests == {
        BROKER1: _expected_request((PRODUCER_ID1, PARTITION1), (PRODUCER_ID2, PARTITION1)),
        BROKER2: _expected_request((PRODUCER_ID1, PARTITION2)),
    }
    assert list(env.channel_manager.generate_requests()) == []
    # Leaders are looked up on the inter-broker listener.
    assert env.metadata_cache.listeners == {_config().inter_broker_listener_name}


def test_skips_markers_when_leader_not_found() -> None:
    """A partition without a leader (deleted) gets no marker and leaves the transaction; the others are queued."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: None, PARTITION2: BROKER2}
    env.add_markers(env.txn_metadata1)

    assert env.channel_manager.num_txns_with_pending_markers == 1
    assert env.queue(BROKER2).total_num_markers() == 1
    assert env.channel_manager.queue_for_broker(BROKER1.id) is None
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION1) == 1
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION2) == 0
    assert env.txn_metadata1.topic_partitions == {PARTITION2}


def test_completes_at_once_when_no_partition_has_a_leader() -> None:
    """A transaction whose partitions all have no leader needs no marker: its completion is appended at once."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: None}
    transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())
    env.complete_transition_and(transition, env.txn_metadata2)
    env.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, transition)
    assert [a[0] for a in env.state_manager.appends] == [TRANSACTIONAL_ID2]
    assert env.txn_metadata2.state is TransactionState.CompleteCommit
    assert env.channel_manager.num_txns_with_pending_markers == 0
    assert env.channel_manager.queue_for_broker(BROKER1.id) is None
    assert list(env.channel_manager.generate_requests()) == []


def test_cancels_markers_when_coordinator_epoch_changed_and_leader_not_found() -> None:
    """A partition without a leader while the cached coordinator epoch moved on: the transaction's markers are
    cancelled and nothing is appended."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: None}
    env.state_manager.states[TRANSACTIONAL_ID2] = CoordinatorEpochAndTxnMetadata(
        COORDINATOR_EPOCH + 1, env.txn_metadata2
    )
    env.add_markers(env.txn_metadata2)
    assert env.channel_manager.num_txns_with_pending_markers == 0
    assert env.state_manager.appends == []
    assert env.txn_metadata2.topic_partitions == {PARTITION1}


def test_saves_for_later_when_leader_known_but_not_available() -> None:
    """A leader without an endpoint on the listener puts the marker in the unknown-broker queue; the next round
    looks the leader up again and sends the marker once it is available."""
    env = Env()
    env.metadata_cache.leaders = {
        PARTITION1: deque([Node.no_node()] * 4 + [BROKER1] * 2),
        PARTITION2: BROKER2,
    }
    env.add_markers(env.txn_metadata1)
    env.add_markers(env.txn_metadata2)

    assert env.channel_manager.num_txns_with_pending_markers == 2
    assert env.queue(BROKER2).total_num_markers() == 1
    assert env.channel_manager.queue_for_broker(BROKER1.id) is None
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION1) == 1
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION2) == 0
    unknown = env.channel_manager.queue_for_unknown_broker
    assert unknown.total_num_markers() == 2
    assert unknown.total_num_markers(TXN_TOPIC_PARTITION1) == 1
    assert unknown.total_num_markers(TXN_TOPIC_PARTITION2) == 1

    first = _requests_by_destination(list(env.channel_manager.generate_requests()))
    assert first == {BROKER2: _expected_request((PRODUCER_ID1, PARTITION2))}
    second = _requests_by_destination(list(env.channel_manager.generate_requests()))
    assert second == {BROKER1: _expected_request((PRODUCER_ID1, PARTITION1), (PRODUCER_ID2, PARTITION1))}
    assert unknown.total_num_markers() == 0


def test_removes_markers_for_txn_partition_when_partition_emigrated() -> None:
    """When this broker stops leading a transaction log partition, the markers of its transactions are dropped
    from every broker's queue and the transactions no longer wait for them."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1, PARTITION2: BROKER2}
    env.add_markers(env.txn_metadata1)
    env.add_markers(env.txn_metadata2)
    assert env.channel_manager.num_txns_with_pending_markers == 2

    env.channel_manager.remove_markers_for_txn_topic_partition(TXN_TOPIC_PARTITION1)

    assert env.channel_manager.num_txns_with_pending_markers == 1
    assert env.queue(BROKER1).total_num_markers() == 1
    assert env.queue(BROKER1).total_num_markers(TXN_TOPIC_PARTITION1) == 0
    assert env.queue(BROKER1).total_num_markers(TXN_TOPIC_PARTITION2) == 1
    assert env.queue(BROKER2).total_num_markers() == 0
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION1) == 0
    assert env.queue(BROKER2).total_num_markers(TXN_TOPIC_PARTITION2) == 0


def _send_and_answer(env: Env, errors: dict[int, dict[TopicPartition, Errors]]) -> None:
    response = _response_for(errors)
    for request_and_handler in env.channel_manager.generate_requests():
        request_and_handler.handler(_client_response(response))


def test_completes_append_to_log_when_send_markers_succeed() -> None:
    """Once every marker is written, the completed state is appended to the log (retrying only when the log is
    not available) and the transaction is complete."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1}
    transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())
    env.complete_transition_and(transition, env.txn_metadata2)
    env.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, transition)

    _send_and_answer(env, {PRODUCER_ID2: {PARTITION1: Errors.NONE}})

    [(txn_id, epoch, new_metadata, retry_on_error)] = env.state_manager.appends
    assert (txn_id, epoch, new_metadata) == (TRANSACTIONAL_ID2, COORDINATOR_EPOCH, transition)
    assert retry_on_error(Errors.COORDINATOR_NOT_AVAILABLE)
    assert not retry_on_error(Errors.NOT_COORDINATOR) and not retry_on_error(Errors.NONE)
    assert env.channel_manager.num_txns_with_pending_markers == 0
    assert env.queue(BROKER1).total_num_markers() == 0
    assert env.txn_metadata2.pending_state is None
    assert env.txn_metadata2.state is TransactionState.CompleteCommit


def test_aborts_append_to_log_when_not_coordinator() -> None:
    """A completing append answered NOT_COORDINATOR is not retried: the transaction stays in PrepareCommit for
    the new coordinator to finish."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1}
    transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())

    def not_coordinator(callback: Callable[[Errors], None]) -> None:
        env.txn_metadata2.pending_state = None
        callback(Errors.NOT_COORDINATOR)

    env.state_manager.append_answers.append(not_coordinator)
    env.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, transition)
    _send_and_answer(env, {PRODUCER_ID2: {PARTITION1: Errors.NONE}})
    list(env.channel_manager.generate_requests())

    assert len(env.state_manager.appends) == 1
    assert env.channel_manager.num_txns_with_pending_markers == 0
    assert env.queue(BROKER1).total_num_markers() == 0
    assert env.txn_metadata2.pending_state is None
    assert env.txn_metadata2.state is TransactionState.PrepareCommit


def test_retries_append_to_log_when_coordinator_not_available() -> None:
    """A completing append answered COORDINATOR_NOT_AVAILABLE is appended again on the sender's next round."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1}
    transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())
    env.state_manager.append_answers.append(lambda callback: callback(Errors.COORDINATOR_NOT_AVAILABLE))
    env.complete_transition_and(transition, env.txn_metadata2)
    env.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, transition)
    _send_and_answer(env, {PRODUCER_ID2: {PARTITION1: Errors.NONE}})
    assert len(env.state_manager.appends) == 1
    assert env.txn_metadata2.state is TransactionState.PrepareCommit

    list(env.channel_manager.generate_requests())

    assert [a[2] for a in env.state_manager.appends] == [transition, transition]
    assert env.channel_manager.num_txns_with_pending_markers == 0
    assert env.queue(BROKER1).total_num_markers() == 0
    assert env.txn_metadata2.pending_state is None
    # Changed since the check above, which mypy would keep narrowing it to.
    assert cast(TransactionState, env.txn_metadata2.state) is TransactionState.CompleteCommit


@pytest.mark.parametrize("error", [Errors.NOT_COORDINATOR, Errors.COORDINATOR_LOAD_IN_PROGRESS])
def test_no_append_when_no_longer_coordinator_after_markers(error: Errors) -> None:
    """Markers all written, but the coordinator's cache says it no longer owns (or is loading) the transaction:
    nothing is appended."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1}
    transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())
    env.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, transition)
    requests = list(env.channel_manager.generate_requests())
    env.txn_metadata2.remove_partition(PARTITION1)
    env.state_manager.states[TRANSACTIONAL_ID2] = error
    env.channel_manager.maybe_write_txn_completion(TRANSACTIONAL_ID2)
    assert len(requests) == 1 and env.state_manager.appends == []
    assert env.channel_manager.num_txns_with_pending_markers == 0


def test_leader_moved_marker_goes_to_the_new_leader() -> None:
    """NOT_LEADER_OR_FOLLOWER from the old leader: the marker is sent to the partition's new leader next round,
    and the transaction completes once that one writes it."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1}
    transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())
    env.complete_transition_and(transition, env.txn_metadata2)
    env.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, transition)
    [first] = list(env.channel_manager.generate_requests())
    assert first.destination == BROKER1
    env.metadata_cache.leaders = {PARTITION1: BROKER2}
    first.handler(_client_response(_response_for({PRODUCER_ID2: {PARTITION1: Errors.NOT_LEADER_OR_FOLLOWER}})))
    assert env.state_manager.appends == []

    [second] = list(env.channel_manager.generate_requests())
    assert second.destination == BROKER2
    second.handler(_client_response(_response_for({PRODUCER_ID2: {PARTITION1: Errors.NONE}})))
    assert env.txn_metadata2.state is TransactionState.CompleteCommit


def test_write_txn_markers_version_follows_the_inter_broker_protocol() -> None:
    """WriteTxnMarkers v1 (flexible) from inter.broker.protocol.version 2.8, v0 before."""
    assert Env().channel_manager.write_txn_markers_request_version == 1
    old = Env(**{"inter.broker.protocol.version": "2.7", "log.message.format.version": "2.7"})
    assert old.channel_manager.write_txn_markers_request_version == 0
    old.metadata_cache.leaders = {PARTITION1: BROKER1}
    old.add_markers(old.txn_metadata2)
    [request] = list(old.channel_manager.generate_requests())
    assert request.request.build().version == 0


def test_sender_thread_sends_markers_and_completes_the_transaction() -> None:
    """The sender thread's round: the request goes over the network client to the leader, its answer completes
    the transaction; a lost connection sends the markers again."""
    env = Env()
    env.metadata_cache.leaders = {PARTITION1: BROKER1}
    transition = env.txn_metadata2.prepare_complete(env.time.milliseconds())
    env.complete_transition_and(transition, env.txn_metadata2)
    env.client.prepare_response_from(_response_for({}), BROKER1, disconnected=True)
    env.client.prepare_response_from(_response_for({PRODUCER_ID2: {PARTITION1: Errors.NONE}}), BROKER1)
    env.channel_manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, env.txn_metadata2, transition)

    env.channel_manager.do_work()  # sent, the connection drops: the markers are queued again
    assert env.state_manager.appends == [] and env.queue(BROKER1).total_num_markers() == 1
    env.channel_manager.do_work()  # sent again and answered
    assert env.txn_metadata2.state is TransactionState.CompleteCommit
    assert env.channel_manager.num_txns_with_pending_markers == 0
    assert not env.client.has_in_flight_requests() and not env.channel_manager.has_unsent_requests


def test_apply_builds_the_named_sender_thread_which_starts_and_stops() -> None:
    """`apply` gives the manager its own network client; it runs as `TxnMarkerSenderThread-{brokerId}` until
    shutdown, which also drops the queues."""
    state_manager = FakeStateManager()
    metadata_cache = FakeMetadataCache()
    metadata_cache.leaders = {PARTITION1: BROKER1}
    manager = TransactionMarkerChannelManager.apply(
        _config(),
        Metrics(),
        cast(Any, metadata_cache),
        cast(Any, state_manager),
        MockTime(),
        LogContext("[TransactionCoordinator id=1] "),
    )
    assert manager.name == "TxnMarkerSenderThread-1"
    manager.start()
    try:
        assert any(t.name == "TxnMarkerSenderThread-1" for t in threading.enumerate())
        txn_metadata = _txn_metadata(TRANSACTIONAL_ID1, PRODUCER_ID1, {PARTITION1})
        state_manager.states[TRANSACTIONAL_ID1] = CoordinatorEpochAndTxnMetadata(COORDINATOR_EPOCH, txn_metadata)
        manager.add_txn_markers_to_send(COORDINATOR_EPOCH, TXN_RESULT, txn_metadata, txn_metadata.prepare_complete(0))
        assert manager.num_txns_with_pending_markers == 1
    finally:
        manager.shutdown()
    assert not manager.is_alive()
    assert manager.queue_for_broker(BROKER1.id) is None
