"""Tests of the transactional TransactionManager, after clients/src/test/java/org/apache/kafka/clients/producer/
internals/TransactionManagerTest.java (Kafka 3.7): the manager with a real RecordAccumulator and Sender over
MockClient, each request answered as a broker would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.commit_failed_exception import CommitFailedException
from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.clients.producer.internals.future_record_metadata import FutureRecordMetadata
from kafka.clients.producer.internals.producer_metadata import ProducerMetadata
from kafka.clients.producer.internals.record_accumulator import RecordAccumulator
from kafka.clients.producer.internals.sender import Sender
from kafka.clients.producer.internals.transaction_manager import State, TransactionManager
from kafka.clients.producer.internals.transactional_request_result import TransactionalRequestResult
from kafka.common.errors import (
    InvalidPidMappingException,
    KafkaException,
    ProducerFencedException,
    TimeoutException,
    TopicAuthorizationException,
    TransactionAbortedException,
    UnknownProducerIdException,
)
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import (
    AddOffsetsToTxnResponseData,
    AddPartitionsToTxnResponseData,
    EndTxnResponseData,
    InitProducerIdResponseData,
    TxnOffsetCommitResponseData,
)
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.add_offsets_to_txn_response import AddOffsetsToTxnResponse
from kafka.common.requests.add_partitions_to_txn_response import V3_AND_BELOW_TXN_ID, AddPartitionsToTxnResponse
from kafka.common.requests.end_txn_response import EndTxnResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.requests.init_producer_id_response import InitProducerIdResponse
from kafka.common.requests.txn_offset_commit_response import TxnOffsetCommitResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.clients.producer.internals.producer_test_utils import (
    LOG_CONTEXT,
    accumulator,
    produce_response,
)
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

TRANSACTIONAL_ID = "foobar"
TRANSACTION_TIMEOUT_MS = 1121
TOPIC = "test"
TP0 = TopicPartition(TOPIC, 0)
TP1 = TopicPartition(TOPIC, 1)
GROUP_ID = "dummyGroupId"
PRODUCER_ID = 13131
EPOCH = 1
RETRY_BACKOFF_MS = 100
MAX_BLOCK = 1000
BROKER = Node(0, "localhost", 1969)
OTHER_BROKER = Node(1, "localhost", 1970)


class Harness:
    """Java's TransactionManagerTest set-up: a transactional manager, accumulator and Sender on MockClient."""

    def __init__(self, bump_capable: bool = True) -> None:
        self.time = MockTime(start_ms=1_000_000)
        self.metadata = ProducerMetadata(
            RETRY_BACKOFF_MS, 1000, 60_000, 60_000, LOG_CONTEXT, ClusterResourceListeners(), self.time
        )
        self.client = MockClient(self.time, self.metadata)
        self.api_versions = ApiVersions()
        # The coordinator serves InitProducerId v3 (KIP-360 epoch bumps) or only up to v2.
        versions = NodeApiVersions.create(ApiKeys.INIT_PRODUCER_ID.id, 0, 3 if bump_capable else 2)
        for node in (BROKER, OTHER_BROKER):
            self.api_versions.update(node.id_string, versions)
        self.tm = TransactionManager(
            LOG_CONTEXT, TRANSACTIONAL_ID, TRANSACTION_TIMEOUT_MS, RETRY_BACKOFF_MS, self.api_versions
        )
        self.accumulator: RecordAccumulator = accumulator(
            self.time,
            batch_size=16384,
            linger_ms=0,
            delivery_timeout_ms=120_000,
            transaction_manager=self.tm,
            api_versions=self.api_versions,
            retry_backoff_ms=RETRY_BACKOFF_MS,
            retry_backoff_max_ms=RETRY_BACKOFF_MS,
        )
        self.sender = Sender(
            LOG_CONTEXT,
            self.client,
            self.metadata,
            self.accumulator,
            True,
            1024 * 1024,
            -1,
            2**31 - 1,
            self.time,
            30_000,
            50,
            self.tm,
            self.api_versions,
        )
        self.metadata.add(TOPIC, self.time.milliseconds())
        self.client.update_metadata(metadata_update_with(2, {TOPIC: 2}))
        self.sent: list[AbstractRequest[Any]] = []

    # ---- driving ---------------------------------------------------------------------------------

    def run_until(self, condition: Callable[[], bool], message: str = "condition") -> None:
        for _ in range(1000):
            if condition():
                return
            self.sender.run_once()
        raise AssertionError(f"{message} not reached")

    def append(self, tp: TopicPartition = TP0) -> FutureRecordMetadata:
        """KafkaProducer.send's part: append, then add the partition to the transaction."""
        now = self.time.milliseconds()
        result = self.accumulator.append(
            tp.topic, tp.partition, now, b"key", b"value", None, None, MAX_BLOCK, False, now, self.metadata.fetch()
        )
        self.tm.maybe_add_partition(tp)
        assert result.future is not None
        return result.future

    # ---- prepared responses ----------------------------------------------------------------------

    def _matcher(self, api_key: ApiKeys, check: Callable[[Any], bool] = lambda data: True) -> Callable[[Any], bool]:
        def match(body: AbstractRequest[Any]) -> bool:
            if body.api_key is not api_key or not check(body.data):
                return False
            self.sent.append(body)
            return True

        return match

    def prepare_find_coordinator(
        self,
        error: Errors = Errors.NONE,
        coordinator_type: CoordinatorType = CoordinatorType.TRANSACTION,
        key: str = TRANSACTIONAL_ID,
        node: Node = BROKER,
    ) -> None:
        self.client.prepare_response(
            self._matcher(
                ApiKeys.FIND_COORDINATOR,
                lambda d: d.key_type == coordinator_type.id() and key in (d.key, *d.coordinator_keys),
            ),
            FindCoordinatorResponse.prepare_response(error, key, node),
        )

    def prepare_init_pid(
        self,
        error: Errors = Errors.NONE,
        producer_id: int = PRODUCER_ID,
        epoch: int = EPOCH,
        expected: tuple[int, int] = (-1, -1),
    ) -> None:
        self.client.prepare_response(
            self._matcher(
                ApiKeys.INIT_PRODUCER_ID,
                lambda d: (
                    d.transactional_id == TRANSACTIONAL_ID
                    and d.transaction_timeout_ms == TRANSACTION_TIMEOUT_MS
                    and (d.producer_id, d.producer_epoch) == expected
                ),
            ),
            InitProducerIdResponse(
                InitProducerIdResponseData(error_code=error.code, producer_id=producer_id, producer_epoch=epoch)
            ),
        )

    def prepare_add_partitions(
        self, errors: dict[TopicPartition, Errors], producer_id: int = PRODUCER_ID, epoch: int = EPOCH
    ) -> None:
        result = AddPartitionsToTxnResponse.result_for_transaction(
            V3_AND_BELOW_TXN_ID, {(tp.topic, tp.partition): e for tp, e in errors.items()}
        )
        self.client.prepare_response(
            self._matcher(
                ApiKeys.ADD_PARTITIONS_TO_TXN,
                lambda d: (
                    (d.v3_and_below_producer_id, d.v3_and_below_producer_epoch) == (producer_id, epoch)
                    and {(t.name, p) for t in d.v3_and_below_topics for p in t.partitions}
                    == {(tp.topic, tp.partition) for tp in errors}
                ),
            ),
            AddPartitionsToTxnResponse(
                AddPartitionsToTxnResponseData(results_by_topic_v3_and_below=result.topic_results)
            ),
        )

    def prepare_produce(
        self, error: Errors = Errors.NONE, tp: TopicPartition = TP0, epoch: int = EPOCH, offset: int = 0
    ) -> None:
        def check(data: Any) -> bool:
            if data.transactional_id != TRANSACTIONAL_ID:
                return False
            for topic in data.topic_data:
                for partition in topic.partition_data:
                    batch = next(iter(partition.records.batches()))
                    if (topic.name, partition.index) == (tp.topic, tp.partition):
                        return batch.is_transactional() and (batch.producer_id(), batch.producer_epoch()) == (
                            PRODUCER_ID,
                            epoch,
                        )
            return False

        self.client.prepare_response(self._matcher(ApiKeys.PRODUCE, check), produce_response(tp, offset, error))

    def prepare_end_txn(
        self, committed: bool, error: Errors = Errors.NONE, epoch: int = EPOCH, node: Node | None = None
    ) -> None:
        matcher = self._matcher(
            ApiKeys.END_TXN,
            lambda d: d.committed == committed and (d.producer_id, d.producer_epoch) == (PRODUCER_ID, epoch),
        )
        response = EndTxnResponse(EndTxnResponseData(error_code=error.code))
        if node is None:
            self.client.prepare_response(matcher, response)
        else:
            self.client.prepare_response_from(matcher, response, node)

    def prepare_add_offsets(self, error: Errors = Errors.NONE) -> None:
        self.client.prepare_response(
            self._matcher(
                ApiKeys.ADD_OFFSETS_TO_TXN,
                lambda d: d.group_id == GROUP_ID and (d.producer_id, d.producer_epoch) == (PRODUCER_ID, EPOCH),
            ),
            AddOffsetsToTxnResponse(AddOffsetsToTxnResponseData(error_code=error.code)),
        )

    def prepare_txn_offset_commit(self, errors: dict[TopicPartition, Errors]) -> None:
        by_topic: dict[str, list[Any]] = {}
        for tp, error in errors.items():
            by_topic.setdefault(tp.topic, []).append(
                TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition(
                    partition_index=tp.partition, error_code=error.code
                )
            )
        self.client.prepare_response(
            self._matcher(ApiKeys.TXN_OFFSET_COMMIT, lambda d: d.group_id == GROUP_ID),
            TxnOffsetCommitResponse(
                TxnOffsetCommitResponseData(
                    topics=[
                        TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic(name=t, partitions=ps)
                        for t, ps in by_topic.items()
                    ]
                )
            ),
        )

    # ---- common sequences ------------------------------------------------------------------------

    def init_transactions(self, epoch: int = EPOCH) -> None:
        result = self.tm.initialize_transactions()
        self.prepare_find_coordinator()
        self.run_until(lambda: self.tm.coordinator(CoordinatorType.TRANSACTION) is not None, "coordinator found")
        assert self.tm.coordinator(CoordinatorType.TRANSACTION) == BROKER
        self.prepare_init_pid(epoch=epoch)
        self.run_until(self.tm.has_producer_id, "producer id")
        result.await_(0)
        assert self.tm.is_ready()

    def begin_and_send(self, tp: TopicPartition = TP0, epoch: int = EPOCH) -> FutureRecordMetadata:
        """A transaction with one record to `tp`, added and acknowledged."""
        self.tm.begin_transaction()
        future = self.append(tp)
        self.prepare_add_partitions({tp: Errors.NONE}, epoch=epoch)
        self.run_until(lambda: self.tm.transaction_contains_partition(tp), "partition added")
        self.prepare_produce(tp=tp, epoch=epoch)
        self.run_until(future.is_done, "produce acknowledged")
        future.get(0)
        return future

    def api_keys_sent(self) -> list[ApiKeys]:
        return [body.api_key for body in self.sent]


@pytest.fixture
def h() -> Harness:
    return Harness()


def test_init_transactions_finds_coordinator_then_gets_producer_id(h: Harness) -> None:
    """initTransactions: FindCoordinator for the transactional id, then InitProducerId with transaction.timeout.ms
    to that coordinator; the manager is READY with the id and epoch given."""
    h.init_transactions()
    assert h.api_keys_sent() == [ApiKeys.FIND_COORDINATOR, ApiKeys.INIT_PRODUCER_ID]
    assert (h.tm.producer_id_and_epoch().producer_id, h.tm.producer_id_and_epoch().epoch) == (PRODUCER_ID, EPOCH)


def test_commit_sends_add_partitions_produce_and_end_txn(h: Harness) -> None:
    """A committed transaction: AddPartitionsToTxn before the transactional produce, EndTxn(commit) after it; the
    manager is READY again, with no partition in the transaction."""
    h.init_transactions()
    h.begin_and_send()
    commit = h.tm.begin_commit()
    assert h.tm.is_completing()
    h.prepare_end_txn(committed=True)
    h.run_until(commit.is_completed, "commit")
    commit.await_(0)
    assert h.api_keys_sent()[2:] == [ApiKeys.ADD_PARTITIONS_TO_TXN, ApiKeys.PRODUCE, ApiKeys.END_TXN]
    assert h.tm.is_ready() and not h.tm.transaction_contains_partition(TP0)


def test_end_txn_waits_for_batches_of_the_transaction(h: Harness) -> None:
    """A commit right after a send sends the record first (unlingered) and EndTxn only once it is acknowledged."""
    h.init_transactions()
    h.tm.begin_transaction()
    future = h.append()
    commit = h.tm.begin_commit()
    h.prepare_add_partitions({TP0: Errors.NONE})
    h.run_until(lambda: len(h.client.requests) > 0 or h.tm.transaction_contains_partition(TP0))
    h.run_until(lambda: any(r.api_key is ApiKeys.PRODUCE for r in h.client.requests), "produce sent")
    # With the record unanswered, EndTxn is not sent.
    for _ in range(5):
        h.sender.run_once()
    assert not any(r.api_key is ApiKeys.END_TXN for r in h.client.requests)
    h.client.respond(produce_response(TP0, 0))
    h.prepare_end_txn(committed=True)
    h.run_until(commit.is_completed, "commit")
    assert future.is_done() and commit.is_successful()


def test_abort_sends_end_txn_abort_and_fails_unsent_records(h: Harness) -> None:
    """abortTransaction: the records not sent yet fail with TransactionAbortedException, and EndTxn(abort) ends
    the transaction the coordinator knows of."""
    h.init_transactions()
    h.begin_and_send()
    # A record to a partition not added yet is never sent.
    unsent = h.append(TP1)
    abort = h.tm.begin_abort()
    h.prepare_end_txn(committed=False)
    h.run_until(abort.is_completed, "abort")
    abort.await_(0)
    assert unsent.is_done()
    with pytest.raises(TransactionAbortedException):
        unsent.get(0)
    assert ApiKeys.ADD_PARTITIONS_TO_TXN not in h.api_keys_sent()[3:]
    assert h.api_keys_sent()[-1] is ApiKeys.END_TXN
    assert h.tm.is_ready()


def test_no_end_txn_when_nothing_was_added(h: Harness) -> None:
    """A transaction that added no partition and no offsets completes without EndTxn."""
    h.init_transactions()
    h.tm.begin_transaction()
    commit = h.tm.begin_commit()
    h.run_until(commit.is_completed, "commit")
    assert commit.is_successful() and h.tm.is_ready()
    assert h.api_keys_sent() == [ApiKeys.FIND_COORDINATOR, ApiKeys.INIT_PRODUCER_ID]
    assert not h.client.requests


def test_coordinator_moves_not_coordinator(h: Harness) -> None:
    """NOT_COORDINATOR on EndTxn: the coordinator is looked up again and EndTxn goes to the new one."""
    h.init_transactions()
    h.begin_and_send()
    commit = h.tm.begin_commit()
    h.prepare_end_txn(committed=True, error=Errors.NOT_COORDINATOR)
    h.run_until(lambda: h.tm.coordinator(CoordinatorType.TRANSACTION) is None, "coordinator forgotten")
    h.prepare_find_coordinator(node=OTHER_BROKER)
    h.prepare_end_txn(committed=True, node=OTHER_BROKER)
    h.run_until(commit.is_completed, "commit")
    commit.await_(0)
    assert h.tm.coordinator(CoordinatorType.TRANSACTION) == OTHER_BROKER
    assert h.api_keys_sent()[-3:] == [ApiKeys.END_TXN, ApiKeys.FIND_COORDINATOR, ApiKeys.END_TXN]


def test_coordinator_not_available_on_init_producer_id(h: Harness) -> None:
    """COORDINATOR_NOT_AVAILABLE on InitProducerId: FindCoordinator again, then InitProducerId succeeds."""
    result = h.tm.initialize_transactions()
    h.prepare_find_coordinator()
    h.prepare_init_pid(error=Errors.COORDINATOR_NOT_AVAILABLE)
    h.prepare_find_coordinator()
    h.prepare_init_pid()
    h.run_until(result.is_completed, "init")
    result.await_(0)
    assert h.api_keys_sent() == [ApiKeys.FIND_COORDINATOR, ApiKeys.INIT_PRODUCER_ID] * 2


def test_coordinator_disconnect_looks_it_up_again(h: Harness) -> None:
    """A disconnect while EndTxn is in flight: the request is retried after a new FindCoordinator."""
    h.init_transactions()
    h.begin_and_send()
    commit = h.tm.begin_commit()
    h.client.prepare_response(h._matcher(ApiKeys.END_TXN), None, True)
    h.run_until(lambda: h.tm.coordinator(CoordinatorType.TRANSACTION) is None, "coordinator forgotten")
    h.prepare_find_coordinator()
    h.prepare_end_txn(committed=True)
    h.run_until(commit.is_completed, "commit")
    commit.await_(0)


def test_concurrent_transactions_retried_with_short_backoff(h: Harness) -> None:
    """CONCURRENT_TRANSACTIONS on the transaction's first AddPartitionsToTxn (the previous one still completing)
    is retried after 20 ms, not retry.backoff.ms; the partition is then added."""
    h.init_transactions()
    h.tm.begin_transaction()
    h.append()
    h.prepare_add_partitions({TP0: Errors.CONCURRENT_TRANSACTIONS})
    # The pass that sends it also handles the response (re-enqueued).
    h.run_until(lambda: len(h.sent) == 3, "first AddPartitionsToTxn")
    before = h.time.milliseconds()
    h.prepare_add_partitions({TP0: Errors.NONE})
    h.run_until(lambda: h.tm.transaction_contains_partition(TP0), "partition added")
    assert h.time.milliseconds() - before == 20
    assert h.api_keys_sent()[2:] == [ApiKeys.ADD_PARTITIONS_TO_TXN, ApiKeys.ADD_PARTITIONS_TO_TXN]


def test_concurrent_transactions_on_end_txn_retried(h: Harness) -> None:
    """CONCURRENT_TRANSACTIONS (retriable) on EndTxn: EndTxn is sent again and the commit completes."""
    h.init_transactions()
    h.begin_and_send()
    commit = h.tm.begin_commit()
    h.prepare_end_txn(committed=True, error=Errors.CONCURRENT_TRANSACTIONS)
    h.prepare_end_txn(committed=True)
    h.run_until(commit.is_completed, "commit")
    commit.await_(0)
    assert h.api_keys_sent()[-2:] == [ApiKeys.END_TXN, ApiKeys.END_TXN]


@pytest.mark.parametrize("error", [Errors.PRODUCER_FENCED, Errors.INVALID_PRODUCER_EPOCH])
def test_fenced_on_end_txn_is_fatal(h: Harness, error: Errors) -> None:
    """PRODUCER_FENCED (or an older coordinator's INVALID_PRODUCER_EPOCH) on EndTxn is fatal: the commit fails with
    ProducerFencedException, and so does every later transactional call, abort included."""
    h.init_transactions()
    h.begin_and_send()
    commit = h.tm.begin_commit()
    h.prepare_end_txn(committed=True, error=error)
    h.run_until(commit.is_completed, "commit")
    with pytest.raises(ProducerFencedException):
        commit.await_(0)
    assert h.tm.has_fatal_error()
    with pytest.raises(ProducerFencedException):
        h.tm.begin_transaction()
    with pytest.raises(ProducerFencedException):
        h.tm.begin_abort()
    with pytest.raises(ProducerFencedException):
        h.tm.maybe_add_partition(TP0)


def test_fenced_on_add_partitions_fails_records_and_is_fatal(h: Harness) -> None:
    """PRODUCER_FENCED on AddPartitionsToTxn: fatal; the record waiting for the partition fails."""
    h.init_transactions()
    h.tm.begin_transaction()
    future = h.append()
    h.prepare_add_partitions({TP0: Errors.PRODUCER_FENCED})
    h.run_until(h.tm.has_fatal_error, "fatal")
    h.run_until(future.is_done, "record failed")
    with pytest.raises(ProducerFencedException):
        future.get(0)
    with pytest.raises(ProducerFencedException):
        h.tm.begin_commit()


def test_fenced_on_init_producer_id_is_fatal(h: Harness) -> None:
    """PRODUCER_FENCED on InitProducerId fails initTransactions with ProducerFencedException."""
    result = h.tm.initialize_transactions()
    h.prepare_find_coordinator()
    h.prepare_init_pid(error=Errors.PRODUCER_FENCED)
    h.run_until(result.is_completed, "init")
    with pytest.raises(ProducerFencedException):
        result.await_(0)
    assert h.tm.has_fatal_error()


def test_abortable_error_then_abort_then_new_transaction(h: Harness) -> None:
    """TOPIC_AUTHORIZATION_FAILED for a partition is abortable: commit raises, abort succeeds without EndTxn
    (nothing was added) and a new transaction works."""
    h.init_transactions()
    h.tm.begin_transaction()
    future = h.append()
    h.prepare_add_partitions({TP0: Errors.TOPIC_AUTHORIZATION_FAILED})
    h.run_until(h.tm.has_abortable_error, "abortable error")
    # The record waiting for the partition fails with the error behind the abort.
    h.run_until(future.is_done, "record failed")
    with pytest.raises(TopicAuthorizationException):
        future.get(0)
    with pytest.raises(KafkaException) as e:
        h.tm.begin_commit()
    assert isinstance(e.value.__cause__, TopicAuthorizationException)
    abort = h.tm.begin_abort()
    h.run_until(abort.is_completed, "abort")
    abort.await_(0)
    assert h.tm.is_ready()
    assert ApiKeys.END_TXN not in h.api_keys_sent()
    h.begin_and_send()
    commit = h.tm.begin_commit()
    h.prepare_end_txn(committed=True)
    h.run_until(commit.is_completed, "commit")
    commit.await_(0)


def test_produce_error_bumps_epoch_after_abort(h: Harness) -> None:
    """KIP-360: a failed transactional produce is abortable; the abort sends EndTxn(abort), then InitProducerId with
    the current id and epoch, and the next transaction writes under the bumped epoch from sequence 0."""
    h.init_transactions()
    h.tm.begin_transaction()
    future = h.append()
    h.prepare_add_partitions({TP0: Errors.NONE})
    h.run_until(lambda: h.tm.transaction_contains_partition(TP0))
    h.prepare_produce(Errors.TOPIC_AUTHORIZATION_FAILED)
    h.run_until(future.is_done, "produce failed")
    assert h.tm.has_abortable_error()
    abort = h.tm.begin_abort()
    h.prepare_end_txn(committed=False)
    h.prepare_init_pid(epoch=EPOCH + 1, expected=(PRODUCER_ID, EPOCH))
    h.run_until(abort.is_completed, "abort and epoch bump")
    abort.await_(0)
    assert h.api_keys_sent()[-2:] == [ApiKeys.END_TXN, ApiKeys.INIT_PRODUCER_ID]
    assert h.tm.is_ready() and h.tm.producer_id_and_epoch().epoch == EPOCH + 1
    h.tm.begin_transaction()
    future = h.append()
    h.prepare_add_partitions({TP0: Errors.NONE}, epoch=EPOCH + 1)
    h.run_until(lambda: h.tm.transaction_contains_partition(TP0))
    h.prepare_produce(epoch=EPOCH + 1)
    h.run_until(future.is_done)
    future.get(0)
    produce = h.sent[-1]
    batch = next(iter(produce.data.topic_data[0].partition_data[0].records.batches()))
    assert (batch.producer_epoch(), batch.base_sequence()) == (EPOCH + 1, 0)


def test_unknown_producer_id_fatal_without_epoch_bump_support() -> None:
    """UNKNOWN_PRODUCER_ID on AddPartitionsToTxn: abortable (with an epoch bump) when the coordinator serves
    InitProducerId v3, fatal when it does not."""
    for bump_capable, fatal in ((True, False), (False, True)):
        h = Harness(bump_capable)
        h.init_transactions()
        h.tm.begin_transaction()
        h.append()
        h.prepare_add_partitions({TP0: Errors.UNKNOWN_PRODUCER_ID})
        h.run_until(h.tm.has_error, "error")
        assert h.tm.has_fatal_error() is fatal
        assert isinstance(h.tm.last_error(), UnknownProducerIdException)


def test_invalid_pid_mapping_skips_end_txn(h: Harness) -> None:
    """INVALID_PRODUCER_ID_MAPPING: the abort does not send EndTxn (the coordinator would refuse it) but goes
    straight to InitProducerId."""
    h.init_transactions()
    h.tm.begin_transaction()
    h.append()
    h.prepare_add_partitions({TP0: Errors.INVALID_PRODUCER_ID_MAPPING})
    h.run_until(h.tm.has_abortable_error, "abortable error")
    assert isinstance(h.tm.last_error(), InvalidPidMappingException)
    abort = h.tm.begin_abort()
    h.prepare_init_pid(epoch=EPOCH + 1, expected=(PRODUCER_ID, EPOCH))
    h.run_until(abort.is_completed, "abort")
    abort.await_(0)
    assert ApiKeys.END_TXN not in h.api_keys_sent()
    assert h.tm.producer_id_and_epoch().epoch == EPOCH + 1


def test_send_offsets_to_transaction_sequence(h: Harness) -> None:
    """sendOffsetsToTransaction: AddOffsetsToTxn to the transaction coordinator, FindCoordinator for the group,
    TxnOffsetCommit with the offsets and the consumer's group metadata to the group coordinator; then EndTxn."""
    h.init_transactions()
    h.tm.begin_transaction()
    offsets = {TP1: OffsetAndMetadata(15, "meta", 3)}
    group_metadata = ConsumerGroupMetadata(GROUP_ID, 5, "member-1", "instance-1")
    result = h.tm.send_offsets_to_transaction(offsets, group_metadata)
    h.prepare_add_offsets()
    h.run_until(lambda: h.tm.has_pending_offset_commits(), "AddOffsetsToTxn")
    assert not result.is_completed()
    h.prepare_find_coordinator(coordinator_type=CoordinatorType.GROUP, key=GROUP_ID, node=OTHER_BROKER)
    h.prepare_txn_offset_commit({TP1: Errors.NONE})
    h.run_until(result.is_completed, "TxnOffsetCommit")
    result.await_(0)
    assert not h.tm.has_pending_offset_commits()
    assert h.tm.coordinator(CoordinatorType.GROUP) == OTHER_BROKER
    commit_body = h.sent[-1]
    assert commit_body.api_key is ApiKeys.TXN_OFFSET_COMMIT
    data = commit_body.data
    assert (data.transactional_id, data.producer_id, data.producer_epoch) == (TRANSACTIONAL_ID, PRODUCER_ID, EPOCH)
    assert (data.member_id, data.generation_id, data.group_instance_id) == ("member-1", 5, "instance-1")
    partition = data.topics[0].partitions[0]
    assert (data.topics[0].name, partition.partition_index, partition.committed_offset) == (TOPIC, 1, 15)
    assert (partition.committed_metadata, partition.committed_leader_epoch) == ("meta", 3)
    commit = h.tm.begin_commit()
    h.prepare_end_txn(committed=True)
    h.run_until(commit.is_completed, "commit")
    commit.await_(0)
    assert h.api_keys_sent()[2:] == [
        ApiKeys.ADD_OFFSETS_TO_TXN,
        ApiKeys.FIND_COORDINATOR,
        ApiKeys.TXN_OFFSET_COMMIT,
        ApiKeys.END_TXN,
    ]


def test_txn_offset_commit_retries_failed_partitions(h: Harness) -> None:
    """TxnOffsetCommit: a retriable partition error (COORDINATOR_LOAD_IN_PROGRESS) sends the commit again; the
    result completes once every partition is committed."""
    h.init_transactions()
    h.tm.begin_transaction()
    result = h.tm.send_offsets_to_transaction(
        {TP0: OffsetAndMetadata(1), TP1: OffsetAndMetadata(2)}, ConsumerGroupMetadata(GROUP_ID)
    )
    h.prepare_add_offsets()
    h.prepare_find_coordinator(coordinator_type=CoordinatorType.GROUP, key=GROUP_ID)
    h.prepare_txn_offset_commit({TP0: Errors.NONE, TP1: Errors.COORDINATOR_LOAD_IN_PROGRESS})
    h.prepare_txn_offset_commit({TP0: Errors.NONE, TP1: Errors.NONE})
    h.run_until(result.is_completed, "offsets committed")
    result.await_(0)
    assert h.api_keys_sent().count(ApiKeys.TXN_OFFSET_COMMIT) == 2


def test_txn_offset_commit_illegal_generation_is_abortable(h: Harness) -> None:
    """ILLEGAL_GENERATION on TxnOffsetCommit (a fenced consumer member) is abortable, as CommitFailedException."""
    h.init_transactions()
    h.tm.begin_transaction()
    result = h.tm.send_offsets_to_transaction({TP0: OffsetAndMetadata(1)}, ConsumerGroupMetadata(GROUP_ID, 3, "m"))
    h.prepare_add_offsets()
    h.prepare_find_coordinator(coordinator_type=CoordinatorType.GROUP, key=GROUP_ID)
    h.prepare_txn_offset_commit({TP0: Errors.ILLEGAL_GENERATION})
    h.run_until(result.is_completed)
    with pytest.raises(CommitFailedException):
        result.await_(0)
    assert h.tm.has_abortable_error()


def test_send_offsets_needs_a_transaction(h: Harness) -> None:
    """sendOffsetsToTransaction outside a transaction, and send before initTransactions, raise
    IllegalStateException (RuntimeError) without changing the state."""
    with pytest.raises(RuntimeError, match="before completing a call to initTransactions"):
        h.tm.maybe_add_partition(TP0)
    h.init_transactions()
    with pytest.raises(RuntimeError, match="Cannot send offsets if a transaction is not in progress"):
        h.tm.send_offsets_to_transaction({TP0: OffsetAndMetadata(1)}, ConsumerGroupMetadata(GROUP_ID))
    with pytest.raises(RuntimeError, match="Invalid transition attempted from state READY to state"):
        h.tm.begin_commit()
    assert h.tm.is_ready()


def test_timed_out_commit_is_retried_by_calling_again(h: Harness) -> None:
    """A commit whose wait timed out: calling commit again returns the same pending result (no second EndTxn),
    while another operation is refused until it is acknowledged."""
    h.init_transactions()
    h.begin_and_send()
    commit = h.tm.begin_commit()
    with pytest.raises(TimeoutException):
        commit.await_(0)
    with pytest.raises(RuntimeError, match="previous call to `commitTransaction` timed out"):
        h.tm.begin_abort()
    assert h.tm.begin_commit() is commit
    h.prepare_end_txn(committed=True)
    h.run_until(commit.is_completed)
    h.tm.begin_commit().await_(0)
    assert h.api_keys_sent().count(ApiKeys.END_TXN) == 1
    h.tm.begin_transaction()
    assert h.tm.has_ongoing_transaction()


def test_close_fails_pending_transactional_requests(h: Harness) -> None:
    """A forced close fails the pending transactional request and the pending call's result."""
    result: TransactionalRequestResult = h.tm.initialize_transactions()
    h.tm.close()
    with pytest.raises(KafkaException, match="The producer closed forcefully"):
        result.await_(0)
    assert h.tm.current_state() is State.FATAL_ERROR


def test_partition_check_needed_follows_the_state() -> None:
    """send reads partition_check_needed for every record: always for a transactional producer, and for an idempotent
    one only in an error state (maybe_add_partition then raises the error)."""
    idempotent = TransactionManager(LOG_CONTEXT, None, TRANSACTION_TIMEOUT_MS, RETRY_BACKOFF_MS, ApiVersions())
    assert not idempotent.partition_check_needed and not idempotent.is_partition_check_needed()
    idempotent.transition_to_fatal_error(KafkaException("fatal"))
    assert idempotent.partition_check_needed and idempotent.is_partition_check_needed()
    with pytest.raises(KafkaException):
        idempotent.maybe_add_partition(TP0)
    transactional = TransactionManager(
        LOG_CONTEXT, TRANSACTIONAL_ID, TRANSACTION_TIMEOUT_MS, RETRY_BACKOFF_MS, ApiVersions()
    )
    assert transactional.partition_check_needed and transactional.is_partition_check_needed()
